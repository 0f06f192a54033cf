#!/bin/sh
# tools/ship-journal.sh - make the shipped journal of abapa layer N
# (data/egdb/oware-abapa-NN.journal, docs/EGDB.md "Shipped journals"):
# builds layers 0..N-1 as a default build does (so the journal's first
# line names the lower layers every default build makes), then layer N
# with every component searched and no budget, keeping the journal, and
# sorts it by rank into data/egdb.  Hours for layer 8: run it again after
# a kill, it resumes from the journal in the build directory.
#   sh tools/ship-journal.sh N [build-dir]      (from the source tree)
set -e
N=${1:?usage: sh tools/ship-journal.sh N [build-dir]}
D=${2:-ship-egdb}
NN=$(printf '%02d' "$N")
mkdir -p "$D"
# The lower layers exactly as a default build makes them (and with the
# journals shipped so far, which give the same files).
./mancala egdb build oware --seeds $((N - 1)) --dir "$D"
MANCALA_EGDB_MAXCOMP=100000000 MANCALA_EGDB_BUDGET=100000000000 \
MANCALA_EGDB_SHIPPED=0 MANCALA_EGDB_KEEP_JOURNAL=1 \
    ./mancala egdb build oware --seeds "$N" --dir "$D"
J="$D/oware-abapa-$NN.journal"
OUT=data/egdb/oware-abapa-$NN.journal
{ head -n 1 "$J"; tail -n +2 "$J" | sort -n -k1,1 -u; } > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "$OUT: $(($(wc -l < "$OUT") - 1)) values"
