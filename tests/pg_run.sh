#!/bin/sh
# tests/pg_run.sh CMD... - CMD run against a throwaway PostgreSQL cluster
# (tests/lib/pg.sh), its address in MANCALA_TEST_PG
# (postgresql://mancala@127.0.0.1:PORT; the database "mancala" is made);
# the cluster is stopped and removed after.  CMD's exit status; 0 and a
# line "SKIPPED" when PostgreSQL is not installed (nothing was tested:
# tools/deps.sh test installs it), 1 when the cluster cannot start.
# make check-pg (and make check) runs test_server with it.
. tests/lib/pg.sh
trap pg_stop EXIT
trap 'exit 1' INT TERM
pg_start
rc=$?
if [ $rc -eq 2 ]; then
    echo "SKIPPED: $*: no PostgreSQL here (Debian: postgresql)"
    exit 0
fi
[ $rc -eq 0 ] || exit 1
MANCALA_TEST_PG=$PG_URL
export MANCALA_TEST_PG
"$@"
