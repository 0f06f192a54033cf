#!/bin/sh
# tests/cli_bench.sh - the search signature (`mancala bench`: fixed
# positions of every game to fixed depths, one thread, total nodes) is the
# same twice and equals the number kept in bench/signature.  A commit that
# changes the search states the new number (`Bench: N`) and updates the
# file; the check fails until it does.
. tests/lib/harness.sh

want=$(cat bench/signature)
sig() { $M bench | sed -n 's/^bench: \([0-9]*\) nodes.*/\1/p'; }
a=$(sig)
b=$(sig)
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else
    bad "bench twice: '$a' then '$b'"
fi
if [ "$a" = "$want" ]; then ok; else
    bad "bench signature $a, bench/signature says $want (update it, and say Bench: $a in the commit)"
fi
finish cli_bench.sh
