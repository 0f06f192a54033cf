#!/bin/sh
# bench/serve.sh - the load tests of `mancala serve` (issue 21; figures in
# docs/SERVER.md): kill -9 under load, idle and trickling connections, and
# memory/time of big uploads.  A few minutes; run it niced on a shared
# machine:  nice -n 19 sh bench/serve.sh ./mancala [kill|slow|memory]...
M=${1:-./mancala}
[ $# -gt 0 ] && shift
tests=${*:-"memory slow kill"}
fail=0
for t in $tests; do
    echo "== bench/serve_load.py $t"
    python3 "$(dirname "$0")/serve_load.py" "$t" "$M" || fail=1
done
[ $fail -eq 0 ]
