# tests/lib/pg.sh - a throwaway PostgreSQL cluster for the tests that
# source it (tests/cli_pg.sh, make check-pg): made by initdb in a folder of
# its own under /tmp, listening on a free port of 127.0.0.1 only (and a
# socket in that folder), trusting its one user "mancala"; stopped and
# removed by pg_stop (the caller's trap).  Needs Debian's postgresql (the
# server's programs, /usr/lib/postgresql/N/bin) and psql; nothing from the
# network.  PostgreSQL refuses to run as root: as root the cluster runs as
# the user postgres (made by Debian's package), else nobody, with its
# folder given to that user.
#   pg_start   0 with PG_URL=postgresql://mancala@127.0.0.1:PORT set (add
#              /DBNAME: the database "mancala" is made), 2 when PostgreSQL
#              is not installed (the caller skips), 1 when it cannot start
#   pg_stop    stop it (immediately) and remove its folder
#   pg_test_start NAME  pg_start for a harness test (SKIPPED without it)
#   pg_test_finish NAME  its end (the logs shown when a check failed)
PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
PG_DIR=
PG_URL=

# as_pg CMD...: CMD as the cluster's owner.
as_pg() {
    if [ "$(id -u)" = 0 ]; then
        (cd / && runuser -u "$PG_OWNER" -- "$@")
    else
        (cd / && "$@")
    fi
}

pg_start() {
    [ -x "$PG_BIN/initdb" ] && [ -x "$PG_BIN/pg_ctl" ] && command -v psql >/dev/null 2>&1 || return 2
    PG_DIR=$(mktemp -d /tmp/mancala-pg-XXXXXX) || return 1
    if [ "$(id -u)" = 0 ]; then
        PG_OWNER=postgres
        id postgres >/dev/null 2>&1 || PG_OWNER=nobody
        chown "$PG_OWNER" "$PG_DIR" || return 1
    fi
    # --no-sync: the cluster lives for one test run (the server's commits
    # still wait for their flush: fsync stays on)
    as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U mancala -E UTF8 \
        --no-locale --no-sync >"$PG_DIR/initdb.log" 2>&1 || {
        cat "$PG_DIR/initdb.log" >&2
        return 1
    }
    # a free port below the ephemeral ones (32768 on: a client connection
    # could hold the port while the cluster is restarted), another one when
    # the first is taken
    tries=0
    while [ $tries -lt 5 ]; do
        port=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 12000))
        if as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" \
            -w -t 60 -o "-k $PG_DIR -h 127.0.0.1 -p $port" start >/dev/null 2>&1; then
            PG_URL=postgresql://mancala@127.0.0.1:$port
            psql -X -q -d "$PG_URL/postgres" -c "CREATE DATABASE mancala" >/dev/null || return 1
            return 0
        fi
        tries=$((tries + 1))
    done
    cat "$PG_DIR/server.log" >&2
    return 1
}

pg_stop() {
    [ -n "$PG_DIR" ] || return 0
    if [ -f "$PG_DIR/data/postmaster.pid" ]; then
        as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1
    fi
    rm -rf "$PG_DIR"
    PG_DIR=
}

# pg_test_start NAME: a cluster for the harness test NAME (tests/lib/
# harness.sh sourced), its first check; without PostgreSQL the test is
# said SKIPPED and the script ends.  DB=$PG_URL/mancala then.
pg_test_start() {
    pg_start
    rc=$?
    if [ $rc -eq 2 ]; then
        skip "$1" "no PostgreSQL here (Debian: postgresql)"
        finish "$1"
        exit $?
    fi
    [ $rc -eq 0 ] && ok || bad "the cluster did not start"
    DB=$PG_URL/mancala
}

# pg_test_finish NAME: the servers' standard error ($tmp/serve.err) and
# the end of PostgreSQL's log when a check failed, then the harness's
# finish NAME (its status).
pg_test_finish() {
    if [ "$fail" -gt 0 ]; then
        echo "--- the servers' standard error:"
        cat "$tmp/serve.err"
        echo "--- PostgreSQL's log (its end):"
        tail -n 40 "$PG_DIR/server.log"
    fi >&2
    finish "$1"
}
