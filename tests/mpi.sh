#!/bin/sh
# tests/mpi.sh - `mpirun -np K mancala-mpi egdb build` (docs/EGDB.md,
# "Over MPI"), run by make check when mancala-mpi is built (Open MPI,
# MPI=1): 1, 2 and 3 processes on this machine (--oversubscribe) give the
# files of one plain mancala, byte for byte, for layer 13 of both
# presets (the compact sweep split between the ranks; abapa's layer 13
# has positions with P < O, which rank 0 builds alone) and for the small
# layers 0-8 built from nothing (rank 0's, the others waiting).  The
# plain mancala never links MPI and, started as several processes, names
# mancala-mpi; mancala-mpi runs egdb build and nothing else.
. tests/lib/harness.sh

# mpirun as root (CI) and in containers without cross-memory attach.
OMPI_ALLOW_RUN_AS_ROOT=1
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM \
    OMPI_MCA_btl_vader_single_copy_mechanism
# As tests/cli_egdb.sh: layer 6's giant component to the approximation.
MANCALA_EGDB_MAXCOMP=2000
export MANCALA_EGDB_MAXCOMP

run() { mpirun --oversubscribe -np "$@"; }
MM=${MANCALA_MPI:-./mancala-mpi}

# The plain program: no MPI library, and a clear word under mpirun.
if command -v ldd >/dev/null 2>&1; then
    if ldd "$M" | grep -qi mpi; then
        bad "$M links MPI: $(ldd "$M" | grep -i mpi)"
    else ok; fi
fi
expect_err "plain mancala under mpirun names mancala-mpi" 2 \
    "the shared build is mancala-mpi's" \
    run 2 $M egdb build oware --seeds 3 --dir "$tmp/plain" --threads 1
expect_grep "mancala-mpi --help" "mpirun -np K mancala-mpi egdb build" $MM --help
expect_grep "mancala-mpi egdb build --help" "usage: mancala egdb build" \
    $MM egdb build --help
expect_err "mancala-mpi runs egdb build only" 2 "only 'egdb build' runs here" \
    $MM play
expect_err "mancala-mpi: egdb info is mancala's" 2 "'egdb info' is the plain" \
    $MM egdb info oware

for preset in abapa awari; do
    spec=oware
    [ $preset = awari ] && spec=oware:awari
    ref=$tmp/ref-$preset
    expect_grep "$preset: one process, layers 0-13" "built $preset layers 0-13" \
        $M egdb build $spec --seeds 13 --dir "$ref"
    for k in 1 2 3; do
        d=$tmp/np$k-$preset
        mkdir -p "$d"
        for n in 00 01 02 03 04 05 06 07 08 09 10 11 12; do
            cp "$ref/oware-$preset-$n.egdb" "$d/"
        done
        want="built $preset layers 0-13"
        [ $k -gt 1 ] && want="$want.*$k processes"
        expect_grep "$preset: $k processes, layer 13" "$want" \
            run $k $MM egdb build $spec --seeds 13 --dir "$d" --threads 1
        for n in 13; do
            if cmp -s "$ref/oware-$preset-$n.egdb" "$d/oware-$preset-$n.egdb"
            then ok; else bad "$preset layer $n with $k processes differs"; fi
        done
        if ls "$d" | grep -q 'dist-values\|work-\|ckpt'; then
            bad "$preset, $k processes: scratch files left: $(ls "$d")"
        else ok; fi
    done
done

# From nothing: 3 processes, layers 0-8 (rank 0's), the same files.
d=$tmp/np3-small
expect_grep "3 processes, layers 0-8" "built abapa layers 0-8" \
    run 3 $MM egdb build oware --seeds 8 --dir "$d" --threads 1
for n in 00 01 02 03 04 05 06 07 08; do
    if cmp -s "$tmp/ref-abapa/oware-abapa-$n.egdb" "$d/oware-abapa-$n.egdb"
    then ok; else bad "layer $n from nothing with 3 processes differs"; fi
done
# Again: every layer found complete by all three.
expect_grep "3 processes find the layers" "layers 0-8 found complete" \
    run 3 $MM egdb build oware --seeds 8 --dir "$d" --threads 1

finish mpi.sh
