#!/bin/sh
# bench/run.sh - `make bench`: the perft depths too long for `make check`
# (checked against rules/oware.md) and the speed figures of `mancala bench`.
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
$M bench --game oware --perft 11 --games 200000
exit $fail
