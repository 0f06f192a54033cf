#!/bin/sh
# bench/egdb-scale.sh - the figures of docs/EGDB.md "The memory budget,
# MPI, and what larger builds take": both presets built to S seeds
# (default 22) without a budget and with --memory B (default 256M), then
# to M seeds (default 20) by 1, 2 and 3 processes of mancala-mpi under
# mpirun (when it is built: Open MPI), every layer compared byte for byte with the
# one-process build; the summaries give each layer's time and peak
# RssAnon.  Not run by make check: about half an hour on 2 cores and 2 GB
# of disk at the defaults.
#   sh bench/egdb-scale.sh [./mancala] [dir]    (MANCALA_MPI: ./mancala-mpi)
M=${1:-./mancala}
MM=${MANCALA_MPI:-./mancala-mpi}
D=${2:-bench-egdb-scale}
S=${EGDB_SEEDS:-22}
B=${EGDB_MEMORY:-256M}
MS=${EGDB_MPI_SEEDS:-20}
mkdir -p "$D"
bad=0
same() { # dir1 dir2 preset top: every layer the same bytes
    for n in $(seq -w 0 "$4"); do
        if ! cmp -s "$1/oware-$3-$n.egdb" "$2/oware-$3-$n.egdb"; then
            echo "DIFFER: $3 layer $n ($1, $2)"
            bad=1
        fi
    done
}
for preset in oware oware:awari; do
    name=$(echo "$preset" | sed 's/oware:awari/awari/; s/^oware$/abapa/')
    rm -rf "$D/$name" "$D/$name-$B"
    echo "== $name 0-$S, no budget"
    "$M" egdb build "$preset" --seeds "$S" --dir "$D/$name" 2>/dev/null | tail -n 4
    echo "== $name 0-$S, --memory $B"
    "$M" egdb build "$preset" --seeds "$S" --dir "$D/$name-$B" --memory "$B" \
        2>/dev/null | tail -n 4
    same "$D/$name" "$D/$name-$B" "$name" "$S"
done
if [ -x "$MM" ] && command -v mpirun >/dev/null 2>&1; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    OMPI_MCA_btl_vader_single_copy_mechanism=none
    export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM \
        OMPI_MCA_btl_vader_single_copy_mechanism
    for preset in oware oware:awari; do
        name=$(echo "$preset" | sed 's/oware:awari/awari/; s/^oware$/abapa/')
        for k in 1 2 3; do
            d="$D/$name-np$k"
            rm -rf "$d"
            echo "== $name 0-$MS, $k processes"
            start=$(date +%s)
            mpirun --oversubscribe -np $k "$MM" egdb build "$preset" \
                --seeds "$MS" --dir "$d" --threads 1 2>/dev/null | tail -n 1
            echo "$(( $(date +%s) - start )) s wall"
            same "$D/$name" "$d" "$name" "$MS"
        done
    done
fi
[ $bad -eq 0 ] && echo "egdb-scale: every layer the same bytes"
exit $bad
