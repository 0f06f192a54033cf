#!/bin/sh
# bench/run.sh - `make bench`: the perft depths too long for `make check`
# (checked against rules/oware.md), the search bench signature (run twice:
# the same binary must give the same count), Omweso moves within the 3 s
# blitz limit, and the speed figures.
M=${1:-./mancala}
fail=0
check_perft() { # game depth expected
    got=$($M perft "$1" "$2" | tail -n 1)
    if [ "$got" = "perft $2 $3" ]; then echo "ok   $1 $got"; else
        echo "FAIL $1 $got (expected $3)"; fail=1; fi
}
check_perft oware 10 18137964
check_perft oware 11 91558687
check_perft oware 12 460005710

echo "== search bench"
$M bench | tee /tmp/mancala-bench.$$
a=$(tail -n 1 /tmp/mancala-bench.$$ | cut -d' ' -f2)
b=$($M bench | tail -n 1 | cut -d' ' -f2)
rm -f /tmp/mancala-bench.$$
if [ "$a" = "$b" ]; then echo "ok   bench signature $a (twice)"; else
    echo "FAIL bench signature $a then $b"; fail=1; fi

echo "== Omweso blitz: a move within 3 s (engine protocol, go movetime 3000)"
for pos in start \
    "0,1,0,1,0,1,0,1,0,1,0,1,0,1,3,1/7,7,7,7,7,6,6,6,0,0,0,0,0,0,0,0 S first=- captures=0,0"; do
    for setup in omweso omweso:setup=all2; do
        [ "$pos" != start ] && [ "$setup" != omweso ] && continue
        t0=$(date +%s.%N)
        out=$(printf 'set game %s\nposition %s\ngo movetime 3000\n' \
            "$setup" "$pos" | $M engine | grep -E '^(info|bestmove)' | tail -n 2)
        t1=$(date +%s.%N)
        secs=$(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }")
        depth=$(echo "$out" | sed -n 's/^info depth \([0-9]*\).*/\1/p' | tail -n 1)
        best=$(echo "$out" | sed -n 's/^bestmove //p')
        echo "$setup $pos: $best at depth ${depth:-?} in ${secs}s"
        if [ -z "$best" ] || [ "$(awk "BEGIN { print ($secs < 3.0) }")" != 1 ]; then
            echo "FAIL blitz"; fail=1; fi
    done
done

echo "== rules speed"
for g in oware gore:trades=off sadeqa2; do
    $M bench --game $g --perft 9 --games 200000
done
$M bench --game omweso --perft 6 --games 2000
exit $fail
