#!/bin/sh
# bench/egdb.sh - build the Oware endgame databases of both presets, 0-20
# seeds (and 0-24 with EGDB_SEEDS=24), timing each build and its peak
# memory with /usr/bin/time -v.  Not run by `make check`: minutes of CPU
# and about 330 MB of disk per preset at 20 seeds.  Measure on a quiet
# machine (check `uptime`).
#   sh bench/egdb.sh [./mancala] [dir]
M=${1:-./mancala}
D=${2:-bench-egdb}
S=${EGDB_SEEDS:-20}
T=${EGDB_THREADS:-2}
mkdir -p "$D"
for preset in oware:awari oware; do
    name=$(echo "$preset" | sed 's/oware:awari/awari/; s/^oware$/abapa/')
    rm -rf "$D/$name"
    mkdir -p "$D/$name"
    echo "== $name 0-$S, $T threads"
    /usr/bin/time -v "$M" egdb build "$preset" --seeds "$S" --threads "$T" \
        --dir "$D/$name" 2>"$D/$name.time" | tail -n 8
    grep -E "Elapsed|Maximum resident" "$D/$name.time"
    du -sh "$D/$name"
done
# Probe speed: opening (every checksum) and a second of random probes.
$M egdb probe oware --bench --dir "$D/abapa"
$M egdb probe oware:awari --bench --dir "$D/awari"
