#!/bin/sh
# tests/cli_pg2.sh - two `mancala serve` processes, A and B, on one
# PostgreSQL database (a throwaway cluster, tests/lib/pg.sh), driven with
# curl (issue 49): a game made through A is served by B at once; a move
# through A reaches an event stream opened on B; the same move sent through
# both at the same moment is taken once; a takeback between two people
# asked through one process and answered through the other; a deletion
# through A seen by B; --quota and --max-games counted in the database; a
# restart of the database (503 io meanwhile, nothing announced meanwhile
# missed); a schema-4 database upgraded to schema 5 when opened.  Skipped (said) when
# PostgreSQL or curl is not installed.
. tests/lib/harness.sh
. tests/lib/pg.sh
# every server and curl this script starts is in $pids, ended by its id
pids=
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; pg_stop; rm -rf "$tmp"' EXIT

if ! command -v curl >/dev/null 2>&1; then
    skip "cli_pg2" "no curl here"
    finish cli_pg2
    exit $?
fi
pg_test_start cli_pg2
PORT=${PG_URL##*:}

# start X DB [OPTION...]: server X (A, B, ...) on DB, its address in $urlX,
# its process in $pidX; its output in $tmp/outX, its errors in $tmp/serve.err
start() {
    x=$1 db=$2
    shift 2
    # emptied before it starts (cli_pg.sh: never read a previous address)
    : >"$tmp/out$x"
    "$M" serve --port 0 --site none --db "$db" "$@" >"$tmp/out$x" 2>>"$tmp/serve.err" &
    eval "pid$x=\$!"
    pids="$pids $!"
    i=0
    while ! grep -q 'http://127.0.0.1:' "$tmp/out$x" && [ $i -lt 300 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    eval "url$x=\$(sed -n 's,.*\(http://127.0.0.1:[0-9]*/\) .*,\1,p' \"\$tmp/out$x\")"
}
# stop X: server X ended (SIGTERM), waited for
stop() {
    x=$1
    eval "p=\$pid$x"
    kill "$p" 2>/dev/null
    wait "$p" 2>/dev/null
}
# call X FILE METHOD PATH [BODY]: a request to server X with the token $tok
# (none when empty), its body into FILE, its status echoed
call() {
    eval "u=\$url$1"
    if [ -n "$tok" ]; then
        curl -s -o "$2" -w '%{http_code}' -X "$3" -H 'Content-Type: application/json' \
            -H "Authorization: Bearer $tok" ${5:+-d "$5"} "${u}api/$4"
    else
        curl -s -o "$2" -w '%{http_code}' -X "$3" -H 'Content-Type: application/json' \
            ${5:+-d "$5"} "${u}api/$4"
    fi
}
# api X METHOD PATH [BODY]: call, the body into $tmp/body
api() {
    x=$1
    shift
    call "$x" "$tmp/body" "$@"
}
# json KEY [FILE]: a string or number field of FILE ($tmp/body) (the last of
# the line: for keys the answer holds once)
json() { sed -n "/\"$1\":/{s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p;q}" "${2:-$tmp/body}"; }
# hist [FILE]: the state's history as sent (["C","a"])
hist() { sed -n '/"history":/{s/.*"history":\(\[[^]]*\]\).*/\1/p;q}' "${1:-$tmp/body}"; }
# first [FILE]: the first legal move of the state
first() { sed -n '/"moves":/{s/.*"moves":\[{"move":"\([^"]*\)".*/\1/p;q}' "${1:-$tmp/body}"; }
# plus HIST MOVE: HIST with MOVE played after it (worked out here, not asked)
plus() {
    if [ "$1" = "[]" ]; then echo "[\"$2\"]"; else echo "${1%]},\"$2\"]"; fi
}
# get X FILE PATH: GET api/PATH on X (no token), the body into FILE, the
# status echoed
get() {
    eval "u=\$url$1"
    curl -s -o "$2" -w '%{http_code}' "${u}api/$3"
}
# look X ID [FILE]: GET the game on X into FILE ($tmp/X.json); 0 when 200
look() { [ "$(get "$1" "${3:-$tmp/$1.json}" "game/$2")" = 200 ]; }
# same ID: A and B answer the game with the same version and history (their
# answers in $tmp/A.json and $tmp/B.json)
same() {
    look A "$1" && look B "$1" || return 1
    va=$(json version "$tmp/A.json") vb=$(json version "$tmp/B.json")
    ha=$(hist "$tmp/A.json") hb=$(hist "$tmp/B.json")
    [ -n "$va" ] && [ "$va" = "$vb" ] && [ -n "$ha" ] && [ "$ha" = "$hb" ]
}
# shows X ID PATTERN: the game on X matches PATTERN (grep)
shows() { look "$1" "$2" && grep -q -- "$3" "$tmp/$1.json"; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# within MS CMD...: CMD again until it succeeds, at most MS milliseconds; the
# time it took in $took (ms)
within() {
    lim=$1
    shift
    t0=$(now_ms)
    while :; do
        if "$@"; then
            took=$(($(now_ms) - t0))
            return 0
        fi
        took=$(($(now_ms) - t0))
        [ "$took" -ge "$lim" ] && return 1
        sleep 0.02
    done
}
# stream X ID FILE SECONDS: an event stream of the game on X into FILE, in
# the background (its curl in $spid, ended by stop_stream or its time)
stream() {
    eval "u=\$url$1"
    : >"$3"
    curl -s -N --max-time "$4" "${u}api/game/$2/events" >"$3" 2>/dev/null &
    spid=$!
    pids="$pids $spid"
}
stop_stream() {
    kill "$spid" 2>/dev/null
    wait "$spid" 2>/dev/null
}
# has FILE PATTERN: a line of FILE matches PATTERN
has() { grep -q -- "$2" "$1"; }
pg_down() { as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1; }
pg_up() {
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
        -o "-k $PG_DIR -h 127.0.0.1 -p $PORT" start >/dev/null 2>&1
}

start A "$DB"
start B "$DB"
[ -n "$urlA" ] && [ -n "$urlB" ] && [ "$urlA" != "$urlB" ] && ok ||
    bad "no addresses: $(cat "$tmp/outA" "$tmp/outB" "$tmp/serve.err")"

# 1. A game made through A is served by B at once: B never saw it (it
# loads it from the database on its first use), and answers what A
# answers; the history is the move sent here.
tok=
[ "$(api A POST new '{"game":"oware"}')" = 201 ] && ok || bad "1: new game: $(head -c 300 "$tmp/body")"
id=$(json id)
tok=$(json token)
[ "$(api A POST "game/$id/play" '{"move":"C"}')" = 200 ] && ok || bad "1: a move through A: $(head -c 300 "$tmp/body")"
look B "$id" && [ "$(hist "$tmp/B.json")" = '["C"]' ] && ok ||
    bad "1: B does not serve A's game: $(head -c 300 "$tmp/B.json")"
same "$id" && ok || bad "1: A and B differ: A $(json version "$tmp/A.json") $(hist "$tmp/A.json"), B $(json version "$tmp/B.json") $(hist "$tmp/B.json")"
# and B may play it: its move is A's too (A knew the game before)
[ "$(api B POST "game/$id/play" '{"move":"a"}')" = 200 ] && ok || bad "1: a move through B: $(head -c 300 "$tmp/body")"
within 2000 shows A "$id" '"history":\["C","a"\]' && ok || bad "1: B's move not on A: $(hist "$tmp/A.json")"

# 2. A move through A reaches an event stream opened on B before it: an
# event whose state has the new ply, within 2 s (a bound for the test; the
# bench measures the median).
stream B "$id" "$tmp/ev2" 10
within 3000 has "$tmp/ev2" '"ply":2[,}]' && ok || bad "2: the stream's first state: $(head -c 300 "$tmp/ev2")"
t=$(now_ms)
[ "$(api A POST "game/$id/play" '{"move":"D"}')" = 200 ] && ok || bad "2: a move through A: $(head -c 300 "$tmp/body")"
within 2000 has "$tmp/ev2" '^data: .*"ply":3[,}]' && ok ||
    bad "2: A's move not on B's stream in 2 s: $(grep -c '^data:' "$tmp/ev2") events"
echo "cli_pg2: A's move on B's stream $(($(now_ms) - t)) ms after it was sent" >&2
stop_stream

# 3. The same move with the same seat token through A and through B at
# once, ten times on successive plies (B holds a copy of the game, so each
# race is a stale copy against a committed change): exactly one is
# answered 200, the other a refusal of the rules or of the version (403
# seat, 409 changed or illegal, 422: never 404, the game is there, nor 5xx;
# with a version sent, 409 changed is the one to expect; without, the
# refusal of the move read again: a South pit's move with North to move);
# afterwards A and B show one ply more, the next version (one change, one
# version: the same sequence on both) and the history with the move once.
tok=
[ "$(api A POST new '{"game":"oware"}')" = 201 ] && ok || bad "3: new game: $(head -c 300 "$tmp/body")"
id=$(json id)
tok=$(json token)
look B "$id" || bad "3: B does not serve the game"
r=1
tally=
while [ $r -le 10 ]; do
    look A "$id" || bad "3.$r: A does not serve the game"
    v=$(json version "$tmp/A.json")
    h=$(hist "$tmp/A.json")
    m=$(first "$tmp/A.json")
    if [ $((r % 2)) -eq 0 ]; then body="{\"move\":\"$m\",\"version\":$v}"; else body="{\"move\":\"$m\"}"; fi
    call A "$tmp/r3a" POST "game/$id/play" "$body" >"$tmp/c3a" &
    ca=$!
    call B "$tmp/r3b" POST "game/$id/play" "$body" >"$tmp/c3b" &
    cb=$!
    wait "$ca" "$cb"
    a=$(cat "$tmp/c3a") b=$(cat "$tmp/c3b")
    tally="$tally $a/$b$(json code "$tmp/r3a")$(json code "$tmp/r3b")"
    case "$a $b" in
    "200 403"|"200 409"|"200 422"|"403 200"|"409 200"|"422 200") ok ;;
    *) bad "3.$r: $m at version $v through A and B: $a $(json code "$tmp/r3a") and $b $(json code "$tmp/r3b")" ;;
    esac
    [ -n "$v" ] && same "$id" && [ "$(hist "$tmp/A.json")" = "$(plus "$h" "$m")" ] &&
        [ "$(json version "$tmp/A.json")" = $((v + 1)) ] && ok ||
        bad "3.$r: after $m: A $(json version "$tmp/A.json") $(hist "$tmp/A.json"), B $(json version "$tmp/B.json") $(hist "$tmp/B.json") (was $v $h)"
    r=$((r + 1))
done
echo "cli_pg2: the races (A/B, the loser's code):$tally" >&2

# 4. A game between two people: the creator's seat (South) through A, the
# invited friend joining through B; the join shows on A; moves each
# through their own process; a takeback asked through A (202) shows in B's
# state and is accepted through B: both moves taken back on A and B alike.
tok=
[ "$(api A POST new '{"game":"oware","seats":"S"}')" = 201 ] && ok || bad "4: new game: $(head -c 300 "$tmp/body")"
id=$(json id)
ts=$(json token)
code=$(json code)
[ -n "$code" ] && ok || bad "4: no invitation: $(head -c 300 "$tmp/body")"
# (at ply 0 the side to move is South: "N" is the seat's side)
[ "$(api B POST "game/$id/join" "{\"invite\":\"$code\"}")" = 200 ] && grep -q '"side":"N"' "$tmp/body" && ok ||
    bad "4: join through B: $(head -c 300 "$tmp/body")"
tn=$(json token)
within 2000 shows A "$id" '"seats":{[^}]*"N":"taken"' && ok || bad "4: the join not on A: $(grep -o '"seats":{[^}]*}' "$tmp/A.json")"
tok=$ts
[ "$(api A POST "game/$id/play" '{"move":"C"}')" = 200 ] && ok || bad "4: South's move: $(head -c 300 "$tmp/body")"
within 2000 shows B "$id" '"ply":1[,}]' && ok || bad "4: South's move not on B"
tok=$tn
[ "$(api B POST "game/$id/play" '{"move":"a"}')" = 200 ] && ok || bad "4: North's move: $(head -c 300 "$tmp/body")"
within 2000 shows A "$id" '"ply":2[,}]' && ok || bad "4: North's move not on A"
tok=$ts
st=$(api A POST "game/$id/undo")
[ "$st" = 202 ] && grep -q '"takeback":{[^}]*"status":"asked"' "$tmp/body" && ok ||
    bad "4: a takeback asked through A: $st $(grep -o '"takeback":[^}]*}\{0,1\}' "$tmp/body")"
within 2000 shows B "$id" '"takeback":{[^}]*"by":"S"' && grep -q '"takeback":{[^}]*"status":"asked"' "$tmp/B.json" &&
    ok || bad "4: the takeback asked not on B: $(grep -o '"takeback":[^}]*}\{0,1\}' "$tmp/B.json")"
tok=$tn
st=$(api B POST "game/$id/takeback" '{"accept":true}')
[ "$st" = 200 ] && [ "$(json ply)" = 0 ] && [ "$(hist)" = '[]' ] && ok ||
    bad "4: the takeback accepted through B: $st $(head -c 300 "$tmp/body")"
within 2000 same "$id" && [ "$(hist "$tmp/A.json")" = '[]' ] && ok ||
    bad "4: after the takeback: A $(json version "$tmp/A.json") $(hist "$tmp/A.json"), B $(json version "$tmp/B.json") $(hist "$tmp/B.json")"

# 5. Deleted through A: B, which served it, answers 404 within 2 s, and an
# event stream on B is told the game is gone.
tok=
[ "$(api A POST new '{"game":"oware"}')" = 201 ] && ok || bad "5: new game: $(head -c 300 "$tmp/body")"
id=$(json id)
tok=$(json token)
look B "$id" && ok || bad "5: B does not serve the game"
stream B "$id" "$tmp/ev5" 10
within 3000 has "$tmp/ev5" '^data:' || bad "5: no first state on B's stream"
st=$(api A DELETE "game/$id")
[ "$st" = 200 ] && [ "$(json deleted)" = "$id" ] && ok || bad "5: delete through A: $st $(head -c 300 "$tmp/body")"
within 2000 eval '[ "$(get B "$tmp/B.json" "game/$id")" = 404 ]' && ok ||
    bad "5: B still serves the deleted game: $(head -c 200 "$tmp/B.json")"
within 2000 has "$tmp/ev5" '^event: gone' && ok || bad "5: B's stream not told the game is gone"
stop_stream

# 7. The database restarted under A and B: while it is down a move answers
# 503 io; once it is back, a move through A is seen by B, on a stream
# opened before the stop too, and both agree.  Twice: first with B asked
# nothing while the database was down (B learns of the restart only by
# its listening connection: it reads every game's version again once that
# is made again, with its other connection, which it must find lost and
# make again by itself), then with a move sent through B too while it was
# down (B may end its streams then: a browser's EventSource comes back
# with Last-Event-ID, as here).
tok=
[ "$(api A POST new '{"game":"oware"}')" = 201 ] && ok || bad "7: new game: $(head -c 300 "$tmp/body")"
id=$(json id)
tok=$(json token)
look B "$id" || bad "7: B does not serve the game"
h=[]
for round in 1 2; do
    look A "$id" || bad "7.$round: A does not serve the game"
    m=$(first "$tmp/A.json")
    p=$(json ply "$tmp/A.json")
    stream B "$id" "$tmp/ev7" 30
    within 3000 has "$tmp/ev7" '^data:' || bad "7.$round: no first state on B's stream"
    pg_down || bad "7.$round: the cluster did not stop"
    st=$(api A POST "game/$id/play" "{\"move\":\"$m\"}")
    [ "$st" = 503 ] && grep -q '"io"' "$tmp/body" && ok || bad "7.$round: a move through A, the database down: $st $(head -c 300 "$tmp/body")"
    if [ $round = 2 ]; then
        st=$(api B POST "game/$id/play" "{\"move\":\"$m\"}")
        [ "$st" = 503 ] && grep -q '"io"' "$tmp/body" && ok || bad "7.$round: a move through B, the database down: $st $(head -c 300 "$tmp/body")"
    fi
    pg_up || bad "7.$round: the cluster did not start again"
    st=$(api A POST "game/$id/play" "{\"move\":\"$m\"}")
    [ "$st" = 200 ] && [ "$(json ply)" = $((p + 1)) ] && ok || bad "7.$round: a move through A after the return: $st $(head -c 300 "$tmp/body")"
    h=$(plus "$h" "$m")
    hre=$(printf '%s' "$h" | sed 's/[][]/\\&/g')
    within 5000 shows B "$id" "\"history\":$hre" && ok ||
        bad "7.$round: A's move not on B after the return: $(hist "$tmp/B.json")"
    if ! within 5000 has "$tmp/ev7" "^data: .*\"ply\":$((p + 1))[,}]" && ! kill -0 "$spid" 2>/dev/null; then
        # the stream was ended: opened again as EventSource does
        last=$(sed -n 's/^id: //p' "$tmp/ev7" | tail -n 1)
        eval "u=\$urlB"
        : >"$tmp/ev7"
        curl -s -N --max-time 10 -H "Last-Event-ID: $last" "${u}api/game/$id/events" >"$tmp/ev7" 2>/dev/null &
        spid=$!
        pids="$pids $spid"
        echo "cli_pg2: 7.$round: B's stream ended during the outage, opened again after id $last" >&2
    fi
    within 2000 has "$tmp/ev7" "^data: .*\"ply\":$((p + 1))[,}]" && ok ||
        bad "7.$round: A's move not on B's stream after the return: $(grep -c '^data:' "$tmp/ev7") events, ids $(sed -n 's/^id: //p' "$tmp/ev7" | tr '\n' ' ')"
    same "$id" && ok || bad "7.$round: A and B differ: A $(json version "$tmp/A.json") $(hist "$tmp/A.json"), B $(json version "$tmp/B.json") $(hist "$tmp/B.json")"
    stop_stream
done
# and every connection of A and B to the database ended by the database
# (pg_terminate_backend) while it stays up: a move through A just after is
# seen by B (by the announcement, or the versions read again once its
# listening connection is made again)
n=$(psql -X -A -t -d "$PG_URL/postgres" -c "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname='mancala'")
[ "$n" -ge 2 ] 2>/dev/null && ok || bad "7: the connections of A and B not ended: '$n'"
m=$(first "$tmp/A.json")
p=$(json ply "$tmp/A.json")
st=$(api A POST "game/$id/play" "{\"move\":\"$m\"}")
[ "$st" = 200 ] && [ "$(json ply)" = $((p + 1)) ] && ok || bad "7: a move through A after the connections ended: $st $(head -c 300 "$tmp/body")"
h=$(plus "$h" "$m")
hre=$(printf '%s' "$h" | sed 's/[][]/\\&/g')
within 5000 shows B "$id" "\"history\":$hre" && ok ||
    bad "7: A's move not on B after the connections ended: $(hist "$tmp/B.json")"
same "$id" && ok || bad "7: A and B differ: A $(json version "$tmp/A.json") $(hist "$tmp/A.json"), B $(json version "$tmp/B.json") $(hist "$tmp/B.json")"

# A record in mancala's export format, for 8: two moves, from the program
tok=
[ "$(api A POST new '{"game":"oware"}')" = 201 ] && ok || bad "8: new game: $(head -c 300 "$tmp/body")"
id=$(json id)
tok=$(json token)
api A POST "game/$id/play" '{"move":"C"}' >/dev/null
api A POST "game/$id/play" '{"move":"a"}' >/dev/null
[ "$(get A "$tmp/rec" "game/$id/record")" = 200 ] && grep -q '^\[Game "oware"\]' "$tmp/rec" &&
    grep -q '1\. C a' "$tmp/rec" && ok || bad "8: the record: $(cat "$tmp/rec")"
stop A
stop B

# 6. --quota 2 on both servers, a database of their own (the games above
# count for 127.0.0.1 in the other): two games through C, the third
# through D is refused 429 quota: the games an address holds are counted
# in the database; one deleted through C, D makes one.
psql -X -q -d "$PG_URL/postgres" -c "CREATE DATABASE quota6" || bad "6: CREATE DATABASE"
start C "$PG_URL/quota6" --quota 2
start D "$PG_URL/quota6" --quota 2
tok=
[ "$(api C POST new '{"game":"oware"}')" = 201 ] && ok || bad "6: the first game through C: $(head -c 300 "$tmp/body")"
id=$(json id)
t6=$(json token)
[ "$(api C POST new '{"game":"oware"}')" = 201 ] && ok || bad "6: the second game through C: $(head -c 300 "$tmp/body")"
st=$(api D POST new '{"game":"oware"}')
[ "$st" = 429 ] && [ "$(json code)" = quota ] && ok || bad "6: the third game through D: $st $(head -c 300 "$tmp/body")"
st=$(api C POST new '{"game":"oware"}')
[ "$st" = 429 ] && [ "$(json code)" = quota ] && ok || bad "6: the third game through C: $st $(head -c 300 "$tmp/body")"
tok=$t6
[ "$(api C DELETE "game/$id")" = 200 ] && ok || bad "6: delete through C: $(head -c 300 "$tmp/body")"
tok=
st=$(api D POST new '{"game":"oware"}')
[ "$st" = 201 ] && ok || bad "6: a game through D after a deletion: $st $(head -c 300 "$tmp/body")"
stop C
stop D
# and --max-games (503 full) counts the games of the database too: it holds
# n (2 when the above passed); with --max-games n+1 on both, one more
# through C fills it, and D, which loaded n when it started, is refused
# the next
n=$(psql -X -A -t -d "$PG_URL/quota6" -c "SELECT count(*) FROM games")
start C "$PG_URL/quota6" --max-games $((n + 1))
start D "$PG_URL/quota6" --max-games $((n + 1))
[ "$(api C POST new '{"game":"oware"}')" = 201 ] && ok || bad "6: game $((n + 1)) through C: $(head -c 300 "$tmp/body")"
st=$(api D POST new '{"game":"oware"}')
[ "$st" = 503 ] && [ "$(json code)" = full ] && ok || bad "6: game $((n + 2)) through D: $st $(head -c 300 "$tmp/body")"
[ "$(psql -X -A -t -d "$PG_URL/quota6" -c "SELECT count(*) FROM games")" = $((n + 1)) ] && ok ||
    bad "6: not $((n + 1)) games in the database"
stop C
stop D

# 8. A schema-4 database (the tables of commit 69ebea6, the last of schema
# 4, made here by psql) holding one game, its record the program's export
# and its two seat rows (both the creator's: one token): a server opened
# on it upgrades it to schema 5 (meta, the takeback's columns, the index
# on games(addr), the notify trigger), serves the game and takes a move.
psql -X -q -d "$PG_URL/postgres" -c "CREATE DATABASE old4" || bad "8: CREATE DATABASE"
psql -X -q -v ON_ERROR_STOP=1 -d "$PG_URL/old4" >/dev/null <<'EOF' || bad "8: the schema 4"
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS games(
 id TEXT PRIMARY KEY,
 record TEXT NOT NULL,
 version BIGINT NOT NULL,
 over INTEGER NOT NULL,
 created BIGINT NOT NULL,
 touched BIGINT NOT NULL,
 addr TEXT NOT NULL,
 clock_s DOUBLE PRECISION, clock_n DOUBLE PRECISION,
 clock_since DOUBLE PRECISION,
 rated INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS seats(
 game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
 side INTEGER NOT NULL CHECK(side IN (0, 1)),
 token TEXT, invite TEXT,
 owner INTEGER NOT NULL,
 account BIGINT,
 PRIMARY KEY(game, side));
CREATE INDEX IF NOT EXISTS seats_account ON seats(account);
CREATE TABLE IF NOT EXISTS accounts(
 id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
 name TEXT NOT NULL,
 hash TEXT NOT NULL,
 created BIGINT NOT NULL,
 bot INTEGER NOT NULL DEFAULT 0);
CREATE UNIQUE INDEX IF NOT EXISTS accounts_name ON accounts(lower(name));
CREATE TABLE IF NOT EXISTS sessions(
 digest TEXT PRIMARY KEY,
 account BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
 created BIGINT NOT NULL,
 expires BIGINT NOT NULL,
 seq BIGINT GENERATED ALWAYS AS IDENTITY);
CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account);
CREATE TABLE IF NOT EXISTS ratings(
 account BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
 kind TEXT NOT NULL,
 r DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL,
 vol DOUBLE PRECISION NOT NULL,
 last BIGINT NOT NULL,
 games INTEGER NOT NULL, wins INTEGER NOT NULL,
 draws INTEGER NOT NULL, losses INTEGER NOT NULL,
 PRIMARY KEY(account, kind));
CREATE TABLE IF NOT EXISTS results(
 game TEXT PRIMARY KEY,
 kind TEXT NOT NULL,
 ended BIGINT NOT NULL,
 south BIGINT NOT NULL, north BIGINT NOT NULL,
 aborted INTEGER NOT NULL,
 score DOUBLE PRECISION,
 s_before DOUBLE PRECISION, s_rd_before DOUBLE PRECISION,
 s_after DOUBLE PRECISION, s_rd_after DOUBLE PRECISION,
 n_before DOUBLE PRECISION, n_rd_before DOUBLE PRECISION,
 n_after DOUBLE PRECISION, n_rd_after DOUBLE PRECISION,
 seq BIGINT GENERATED ALWAYS AS IDENTITY);
CREATE INDEX IF NOT EXISTS results_south ON results(south, ended);
CREATE INDEX IF NOT EXISTS results_north ON results(north, ended);
INSERT INTO meta VALUES('schema', '4') ON CONFLICT DO NOTHING;
EOF
# the game at version 2 (its two moves), untimed, made and touched now
id8=0123456789abcdef0123456789abcdef
t8=fedcba9876543210fedcba9876543210
psql -X -q -v ON_ERROR_STOP=1 -v rec="$(cat "$tmp/rec")" -v id="$id8" -v tok="$t8" \
    -d "$PG_URL/old4" >/dev/null <<'EOF' || bad "8: the game's rows"
INSERT INTO games(id, record, version, over, created, touched, addr,
                  clock_s, clock_n, clock_since, rated)
  VALUES(:'id', :'rec', 2, 0, extract(epoch FROM now())::bigint,
         extract(epoch FROM now())::bigint, '127.0.0.1', NULL, NULL, NULL, 0);
INSERT INTO seats(game, side, token, invite, owner, account)
  VALUES(:'id', 0, :'tok', NULL, 1, NULL), (:'id', 1, :'tok', NULL, 1, NULL);
EOF
q() { psql -X -A -t -d "$PG_URL/old4" -c "$1" 2>&1; }
[ "$(q "SELECT value FROM meta WHERE key='schema'")" = 4 ] && ok || bad "8: not schema 4 before"
start A "$PG_URL/old4"
[ -n "$urlA" ] && grep -q "(1 game in postgresql://mancala@" "$tmp/outA" && ok ||
    bad "8: the server on the schema-4 database: $(cat "$tmp/outA") $(tail -n 5 "$tmp/serve.err")"
[ "$(q "SELECT value FROM meta WHERE key='schema'")" = 5 ] && ok ||
    bad "8: meta.schema after the upgrade: $(q "SELECT value FROM meta WHERE key='schema'")"
[ "$(q "SELECT count(*) FROM information_schema.columns WHERE table_name='games' AND column_name IN ('tb_side','tb_declined')")" = 2 ] &&
    ok || bad "8: games has no tb_side, tb_declined"
[ "$(q "SELECT count(*) FROM pg_index i JOIN pg_attribute a ON a.attrelid=i.indrelid AND a.attnum=i.indkey[0] WHERE i.indrelid='games'::regclass AND a.attname='addr'")" -ge 1 ] 2>/dev/null &&
    ok || bad "8: no index on games(addr)"
[ "$(q "SELECT count(*) FROM pg_trigger WHERE tgrelid='games'::regclass AND NOT tgisinternal")" -ge 1 ] 2>/dev/null &&
    ok || bad "8: no trigger on games"
look A "$id8" && [ "$(hist "$tmp/A.json")" = '["C","a"]' ] && [ "$(json version "$tmp/A.json")" = 2 ] && ok ||
    bad "8: the game: $(head -c 300 "$tmp/A.json")"
tok=$t8
st=$(api A POST "game/$id8/play" '{"move":"D","version":2}')
[ "$st" = 200 ] && [ "$(hist)" = '["C","a","D"]' ] && ok || bad "8: a move on it: $st $(head -c 300 "$tmp/body")"
[ "$(q "SELECT version FROM games WHERE id='$id8'")" = 3 ] && ok ||
    bad "8: the version in the database: $(q "SELECT version FROM games WHERE id='$id8'")"
stop A

pg_test_finish cli_pg2
