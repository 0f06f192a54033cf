#!/bin/sh
# tests/cli_pg.sh - `mancala serve --db postgresql://...` end to end, on a
# throwaway cluster (tests/lib/pg.sh): a game made and played over HTTP
# (curl), the server killed (kill -9) and started again: the game and its
# moves are there; the database stopped: a move answers 503 io and is not
# kept, then the server reconnects by itself once the database is back;
# a libpq that cannot be loaded is named with its Debian package; a
# connection string's password is never printed; --copy-from takes a
# SQLite store into PostgreSQL and back, games and accounts alike.  Skipped (said) when
# PostgreSQL, curl or sqlite3 is not installed.
. tests/lib/harness.sh
. tests/lib/pg.sh
trap 'pg_stop; rm -rf "$tmp"' EXIT

if ! command -v curl >/dev/null 2>&1 || ! command -v sqlite3 >/dev/null 2>&1; then
    skip "cli_pg" "no curl or no sqlite3 here"
    finish cli_pg
    exit $?
fi
pg_test_start cli_pg

# the usage names the PostgreSQL form
expect_grep "serve --help: PostgreSQL" "postgresql://" "$M" serve --help

# no libpq: a clear error naming the package
MANCALA_LIBPQ=libpq-none.so.5 "$M" serve --port 0 --db "$DB" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] && grep -q "libpq5" "$tmp/err" && ok || bad "no libpq: rc=$rc $(cat "$tmp/err")"

# a password in the string is not printed (a database that is not there)
"$M" serve --port 0 --db "postgresql://mancala:s3cr3t@127.0.0.1:${PG_URL##*:}/nodb" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] && grep -q "mancala:\*\*\*@" "$tmp/err" && ! grep -q s3cr3t "$tmp/out" "$tmp/err" &&
    ok || bad "password shown or no error: rc=$rc $(cat "$tmp/err")"
# nor when libpq's message quotes a malformed string whole
"$M" serve --port 0 --db "postgresql://mancala:s3cr3t@[::1/nodb" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] && grep -q "IPv6" "$tmp/err" && ! grep -q s3cr3t "$tmp/out" "$tmp/err" &&
    ok || bad "password in libpq's message: rc=$rc $(cat "$tmp/err")"

# start: serve on the cluster ($1: the --db), the address in $url
start() {
    # emptied here, not only by the child's redirection: the loop below
    # could otherwise read the address the last server printed before the
    # new one has opened the file (seen under the sanitizers)
    : >"$tmp/out"
    "$M" serve --port 0 --site none --db "$1" >"$tmp/out" 2>>"$tmp/serve.err" &
    pid=$!
    i=0
    while ! grep -q 'http://127.0.0.1:' "$tmp/out" && [ $i -lt 300 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    url=$(sed -n 's,.*\(http://127.0.0.1:[0-9]*/\) .*,\1,p' "$tmp/out")
}
# api METHOD PATH [BODY]: the body answered into $tmp/body, the status echoed
api() {
    curl -s -o "$tmp/body" -w '%{http_code}' -X "$1" -H 'Content-Type: application/json' \
        -H "Authorization: Bearer $tok" ${3:+-d "$3"} "${url}api/$2"
}
# json KEY: a string or number field of $tmp/body (the first)
json() { sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p" "$tmp/body" | head -n 1; }

# the keyword form, with a password (trust: not needed) that is not shown
start "pg:host=127.0.0.1 port=${PG_URL##*:} user=mancala dbname=mancala password=hunter2"
[ -n "$url" ] && grep -q "password=\*\*\*" "$tmp/out" && ! grep -q hunter2 "$tmp/out" "$tmp/serve.err" &&
    ok || bad "pg: keywords: $(cat "$tmp/out" "$tmp/serve.err")"
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null

start "$DB"
[ -n "$url" ] && ok || bad "no address: $(cat "$tmp/out" "$tmp/serve.err")"
tok=
[ "$(api POST new '{"game":"oware"}')" = 201 ] && ok || bad "new game: $(cat "$tmp/body")"
id=$(json id)
tok=$(json token)
[ -n "$id" ] && [ -n "$tok" ] && ok || bad "no id or token: $(cat "$tmp/body")"
for m in A a B; do
    [ "$(api POST "game/$id/play" "{\"move\":\"$m\"}")" = 200 ] && ok || bad "move $m: $(cat "$tmp/body")"
done
# the rows are there, committed
n=$(psql -X -A -t -d "$DB" -c "SELECT version FROM games WHERE id='$id'")
[ "$n" = 3 ] && ok || bad "version in the database: '$n'"
kill -9 "$pid"
wait "$pid" 2>/dev/null

# started again: the game and its three moves are there
start "$DB"
grep -q "(1 game in postgresql://mancala@" "$tmp/out" && ok || bad "restart: $(cat "$tmp/out" "$tmp/serve.err")"
[ "$(api GET "game/$id")" = 200 ] && [ "$(json ply)" = 3 ] && ok ||
    bad "after kill -9: $(head -c 300 "$tmp/body")"

# the database stopped: a move answers 503 io, nothing of it kept
as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1
st=$(api POST "game/$id/play" '{"move":"b"}')
[ "$st" = 503 ] && grep -q '"io"' "$tmp/body" && ok || bad "database down: $st $(cat "$tmp/body")"
st=$(api POST "game/$id/play" '{"move":"b"}')
[ "$st" = 503 ] && ok || bad "database still down: $st"
# back: the server reconnects by itself, the game as it was kept
as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
    -o "-k $PG_DIR -h 127.0.0.1 -p ${PG_URL##*:}" start >/dev/null 2>&1 || bad "the cluster did not start again"
[ "$(api GET "game/$id")" = 200 ] && [ "$(json ply)" = 3 ] && ok || bad "after the database's return: $(head -c 300 "$tmp/body")"
st=$(api POST "game/$id/play" '{"move":"b"}')
[ "$st" = 200 ] && [ "$(json ply)" = 4 ] && ok || bad "a move after the return: $st $(head -c 300 "$tmp/body")"
# a restart of the database between two requests is not seen by the next
as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w restart >/dev/null 2>&1 || bad "restart the cluster"
st=$(api POST "game/$id/play" '{"move":"C"}')
[ "$st" = 200 ] && [ "$(json ply)" = 5 ] && ok || bad "a move after a restart: $st $(head -c 300 "$tmp/body")"
kill "$pid"
wait "$pid" 2>/dev/null
n=$(psql -X -A -t -d "$DB" -c "SELECT version FROM games WHERE id='$id'")
[ "$n" = 5 ] && ok || bad "version at the end: '$n'"
    
# --copy-from: a SQLite store with a game and an account into a new
# PostgreSQL database, and that one into a new SQLite file
start "$tmp/a.db"
tok=
[ "$(api POST account '{"name":"Ama","password":"ama password 1"}')" = 201 ] && ok || bad "account: $(cat "$tmp/body")"
tok=$(json token)
# an account made and deleted: its id (2) is never given again
kofi=$tok
tok=
[ "$(api POST account '{"name":"Kofi","password":"kofi password 1"}')" = 201 ] && ok || bad "account 2: $(cat "$tmp/body")"
tok=$(json token)
[ "$(api DELETE account '{"password":"kofi password 1"}')" = 200 ] && ok || bad "delete: $(cat "$tmp/body")"
tok=$kofi
[ "$(api POST new '{"game":"gore","time":"move:3600"}')" = 201 ] && ok || bad "new game: $(cat "$tmp/body")"
id=$(json id)
tok=$(json token)
[ "$(api POST "game/$id/play" '{"move":"A"}')" = 200 ] && ok || bad "move: $(cat "$tmp/body")"
kill "$pid"
wait "$pid" 2>/dev/null
psql -X -q -d "$PG_URL/postgres" -c "CREATE DATABASE copy1" || bad "CREATE DATABASE"
expect_grep "copy SQLite into PostgreSQL" "1 accounts, 1 games (2 seats), 1 sessions" \
    "$M" serve --copy-from "$tmp/a.db" --db "$PG_URL/copy1"
# the same again: the destination is not empty
"$M" serve --copy-from "$tmp/a.db" --db "$PG_URL/copy1" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] && grep -q "empty" "$tmp/err" && ok || bad "a copy into a full store: rc=$rc $(cat "$tmp/err")"
expect_grep "copy PostgreSQL into SQLite" "1 accounts, 1 games (2 seats), 1 sessions" \
    "$M" serve --copy-from "$PG_URL/copy1" --db "$tmp/b.db"
# the clocks' reals arrive bit for bit (hexadecimal: exact)
q="SELECT printf('%!.20e %!.20e %!.20e', clock_s, clock_n, clock_since) FROM games"
[ -n "$(sqlite3 "$tmp/a.db" "$q")" ] && [ "$(sqlite3 "$tmp/a.db" "$q")" = "$(sqlite3 "$tmp/b.db" "$q")" ] &&
    ok || bad "clocks: $(sqlite3 "$tmp/a.db" "$q") / $(sqlite3 "$tmp/b.db" "$q")"
for db in "$PG_URL/copy1" "$tmp/b.db"; do
    start "$db"
    [ "$(api GET "game/$id")" = 200 ] && [ "$(json ply)" = 1 ] && ok || bad "$db: the game: $(head -c 300 "$tmp/body")"
    tok=
    [ "$(api POST login '{"name":"ama","password":"ama password 1"}')" = 200 ] && ok || bad "$db: login: $(cat "$tmp/body")"
    # a new account's id is a new one
    [ "$(api POST account '{"name":"Kwame","password":"kwame password 1"}')" = 201 ] && ok || bad "$db: a second account: $(cat "$tmp/body")"
    kill "$pid"
    wait "$pid" 2>/dev/null
done
[ "$(psql -X -A -t -d "$PG_URL/copy1" -c "SELECT string_agg(id::text, ',' ORDER BY id) FROM accounts")" = 1,3 ] &&
    ok || bad "account ids in PostgreSQL"
[ "$(sqlite3 "$tmp/b.db" "SELECT group_concat(id) FROM accounts")" = 1,3 ] && ok || bad "account ids in SQLite"

# a database of a newer schema (a later mancala's) is refused, untouched
psql -X -q -d "$PG_URL/copy1" -c "UPDATE meta SET value='6' WHERE key='schema'" || bad "UPDATE meta"
"$M" serve --port 0 --db "$PG_URL/copy1" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] && grep -q "newer mancala" "$tmp/err" && ok || bad "a newer schema: rc=$rc $(cat "$tmp/err")"
[ "$(psql -X -A -t -d "$PG_URL/copy1" -c "SELECT value FROM meta WHERE key='schema'")" = 6 ] &&
    ok || bad "the newer schema's version was changed"
pg_test_finish cli_pg
