#!/bin/sh
# bench/serve.sh - the load tests of `mancala serve` (issues 21 and 44;
# figures in docs/SERVER.md): kill -9 under load, idle and trickling
# connections, memory/time of big uploads, moves seen live on the event
# streams, a game against the computer beside many analyses, a crowd of
# addresses holding connections, and wrong passwords by the thousand.  About 5 minutes; run it niced on a shared
# machine:  nice -n 19 sh bench/serve.sh ./mancala [kill|slow|memory|live|fair|crowd|logins]...
M=${1:-./mancala}
[ $# -gt 0 ] && shift
tests=${*:-"memory slow kill live fair crowd logins"}
fail=0
for t in $tests; do
    echo "== bench/serve_load.py $t"
    python3 "$(dirname "$0")/serve_load.py" "$t" "$M" || fail=1
done
[ $fail -eq 0 ]
