#!/bin/sh
# bench/serve.sh - the load tests of `mancala serve` (issues 21, 44, 47 and
# 49; figures in docs/SERVER.md): kill -9 under load, idle and trickling
# connections, memory/time of big uploads, moves seen live on the event
# streams, a game against the computer beside many analyses, a crowd of
# addresses holding connections, wrong passwords by the thousand, and
# (issue 49, on a throwaway PostgreSQL cluster) two servers on one
# database killed and restarted under load, moves seen live across the two,
# moves a second on SQLite and PostgreSQL.  About 10 minutes; run it niced
# on a shared machine:
#   nice -n 19 sh bench/serve.sh ./mancala [kill|slow|memory|live|fair|crowd|logins|pg2|pg2live|throughput]...
# Without PostgreSQL installed pg2, pg2live and throughput say SKIPPED
# (serve_load.py exits 77): not failed, not passed.
M=${1:-./mancala}
[ $# -gt 0 ] && shift
tests=${*:-"memory slow kill live fair crowd logins pg2 pg2live throughput"}
fail=0
skipped=
for t in $tests; do
    echo "== bench/serve_load.py $t"
    python3 "$(dirname "$0")/serve_load.py" "$t" "$M"
    rc=$?
    if [ $rc -eq 77 ]; then
        skipped="$skipped $t"
    elif [ $rc -ne 0 ]; then
        fail=1
    fi
done
[ -z "$skipped" ] || echo "SKIPPED (no PostgreSQL here):$skipped"
[ $fail -eq 0 ]
