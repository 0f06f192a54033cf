#!/bin/sh
# tests/cli_serve.sh - `mancala serve` as a command: help, bad arguments
# (exit 2), an address it cannot use (exit 1), --import of a records
# folder, --reset-password and --delete-account, and a start on an
# ephemeral loopback port that prints the address,
# keeps its database private (mode 0600) and stops cleanly on SIGTERM.
M=${MANCALA:-./mancala}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# wait_url: until the server started with its output in $tmp/out says its
# address, at most 30 s (a server under the sanitizers on a loaded machine
# takes seconds to start); $tmp/out is emptied before each server starts,
# or this could read the last one's address before the new one opens it
wait_url() {
    i=0
    while ! grep -q 'http://127.0.0.1:' "$tmp/out" && [ $i -lt 300 ]; do
        sleep 0.1
        i=$((i + 1))
    done
}
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*" >&2; }

"$M" serve --help >"$tmp/out" 2>&1 && grep -q -- '--port' "$tmp/out" && ok || bad "serve --help"
"$M" serve --port nine >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "bad port" "$tmp/err" && ok || bad "bad port: rc=$rc"
"$M" serve --frobnicate >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "unknown argument" "$tmp/err" && ok || bad "unknown argument: rc=$rc"
"$M" serve --dir "$tmp/old" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--import" "$tmp/err" && ok || bad "--dir points to --import: rc=$rc"
"$M" serve --quota 0 >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--quota" "$tmp/err" && ok || bad "--quota 0: rc=$rc"
"$M" serve --bot-wait 0 >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--bot-wait must be at least 1" "$tmp/err" && ok || bad "--bot-wait 0: rc=$rc"
"$M" serve --bot-wait soon >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--bot-wait takes a number" "$tmp/err" && ok || bad "--bot-wait soon: rc=$rc"
"$M" serve --bind 999.1.1.1 --port 0 --db "$tmp/g/serve.db" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "999.1.1.1" "$tmp/err" && ok || bad "bad address: rc=$rc"

# --site: a folder that cannot be read, or too large, stops the start
"$M" serve --port 0 --site "$tmp/nosite" --db "$tmp/g/serve.db" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "site folder .*nosite" "$tmp/err" && ok || bad "missing site folder: rc=$rc $(cat "$tmp/err")"
mkdir -p "$tmp/big"
i=0
while [ $i -lt 70 ]; do : >"$tmp/big/f$i.js"; i=$((i + 1)); done
"$M" serve --port 0 --site "$tmp/big" --db "$tmp/g/serve.db" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "more than 64 files" "$tmp/err" && ok || bad "site of 70 files: rc=$rc $(cat "$tmp/err")"

# --import: the .mcr files of a folder become games; a broken one is named
mkdir -p "$tmp/old"
printf '[Game "oware"]\n\n1. C a *\n' >"$tmp/old/4432059cd92a.mcr"
printf '[Game "gore"]\n\n1. Q *\n' >"$tmp/old/bad.mcr"
"$M" serve --import "$tmp/old" --db "$tmp/games/serve.db" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && grep -q "4432059cd92a.mcr [0-9a-f]\{32\} [0-9a-f]\{32\}$" "$tmp/out" &&
    grep -q "bad.mcr skipped: .*line" "$tmp/out" && grep -q "1 game imported" "$tmp/out" &&
    ok || bad "import: rc=$rc $(cat "$tmp/out" "$tmp/err")"
# a FIFO named like a record is skipped, not waited on; a name with a
# newline cannot forge a line of the report (issue 44)
mkdir -p "$tmp/odd"
mkfifo "$tmp/odd/pipe.mcr"
printf '[Game "oware"]\n\n1. C *\n' >"$tmp/odd/a
forged 00000000000000000000000000000000 x.mcr"
timeout 10 "$M" serve --import "$tmp/odd" --db "$tmp/odd.db" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && grep -q "pipe.mcr skipped: not a plain file" "$tmp/out" &&
    [ "$(wc -l <"$tmp/out")" -eq 3 ] && grep -q "a?forged" "$tmp/out" &&
    ok || bad "import of a FIFO and a name with a newline: rc=$rc $(cat "$tmp/out" "$tmp/err")"
"$M" serve --import "$tmp/nothing" --db "$tmp/games/serve.db" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "nothing" "$tmp/err" && ok || bad "import of a missing folder: rc=$rc"

: >"$tmp/out"
"$M" serve --port 0 --db "$tmp/games/serve.db" >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_url
grep -q 'open http://127.0.0.1:[0-9]*/ ' "$tmp/out" && ok || bad "address printed: $(cat "$tmp/out" "$tmp/err")"
grep -q '(1 game in ' "$tmp/out" && ok || bad "the imported game is served: $(cat "$tmp/out")"
[ "$(stat -c %a "$tmp/games/serve.db")" = 600 ] && ok || bad "the database is private: $(stat -c %a "$tmp/games/serve.db")"
kill -TERM "$pid"
wait "$pid"; rc=$?
[ $rc -eq 0 ] && grep -q "stopped" "$tmp/out" && ok || bad "clean stop: rc=$rc"

# an existing database readable by others is made private (issue 44)
: >"$tmp/open.db"
chmod 644 "$tmp/open.db"
: >"$tmp/out"
"$M" serve --port 0 --db "$tmp/open.db" >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_url
[ "$(stat -c %a "$tmp/open.db")" = 600 ] && ok || bad "a 0644 database made private: $(stat -c %a "$tmp/open.db")"
kill -TERM "$pid"
wait "$pid"

# A file-size limit reached: the change is refused (503 io), the server
# lives on (issue 44: it died of SIGXFSZ).
if command -v curl >/dev/null 2>&1; then
    : >"$tmp/out"
    (ulimit -f 400; exec "$M" serve --port 0 --rate 1000 --db "$tmp/fsize.db") >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    wait_url
    url=$(sed -n 's|.*\(http://127\.0\.0\.1:[0-9]*/\).*|\1|p' "$tmp/out")
    long=$(printf '%0150d' 0)
    codes=""
    i=0
    while [ $i -lt 60 ]; do
        c=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
            -d "{\"game\":\"omweso\",\"south\":\"$long\"}" "${url}api/new")
        codes="$codes $c"
        [ "$c" = 503 ] && break
        i=$((i + 1))
    done
    alive=$(curl -s -o /dev/null -w '%{http_code}' "${url}api/games")
    case $codes in *503*) [ "$alive" = 200 ] && ok || bad "the server died at the file-size limit ($codes; $alive)" ;;
        *) bad "no 503 at the file-size limit: $codes" ;; esac
    kill -TERM "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
fi

# SIGTERM during a 30 s analysis: the analysis is answered with what the
# search has, and the server is gone within seconds (issue 44: it waited
# the 30 s and answered nothing).
if command -v curl >/dev/null 2>&1; then
    : >"$tmp/out"
    "$M" serve --port 0 --db "$tmp/term.db" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    wait_url
    url=$(sed -n 's|.*\(http://127\.0\.0\.1:[0-9]*/\).*|\1|p' "$tmp/out")
    curl -s -w ' %{http_code}' -H 'Content-Type: application/json' \
        -d '{"game":"omweso","position":"start","level":10,"seconds":30}' \
        "${url}api/analyze" >"$tmp/an" 2>/dev/null &
    cpid=$!
    sleep 1
    start=$(date +%s)
    kill -TERM "$pid"
    wait "$pid"
    took=$(($(date +%s) - start))
    wait "$cpid"
    if [ "$took" -le 3 ] && grep -q '"best":.* 200$' "$tmp/an"; then ok; else
        bad "SIGTERM during an analysis: stopped in $took s, answer: $(cat "$tmp/an")"; fi
fi

# A real clock (when curl is there): a game of move:1 whose flag falls
# while the server is stopped is over, lost on time, once it is back.
if command -v curl >/dev/null 2>&1; then
    serve_start() {
        : >"$tmp/out"
        "$M" serve --port 0 --db "$tmp/clock.db" >"$tmp/out" 2>"$tmp/err" &
        pid=$!
        wait_url
        url=$(sed -n 's|.*\(http://127.0.0.1:[0-9]*\)/.*|\1|p' "$tmp/out" | head -1)
    }
    serve_start
    curl -s -H 'Content-Type: application/json' -d '{"game":"oware","time":"move:1"}' \
        "$url/api/new" >"$tmp/new.json"
    id=$(sed -n 's/.*"id":"\([0-9a-f]\{32\}\)".*/\1/p' "$tmp/new.json")
    grep -q '"clock":{"control":"move:1"' "$tmp/new.json" && ok || bad "clock in the new game: $(cat "$tmp/new.json")"
    kill -TERM "$pid"; wait "$pid"
    sleep 1.2
    serve_start
    curl -s "$url/api/game/$id" >"$tmp/state.json"
    grep -q '"reason":"time"' "$tmp/state.json" && grep -q '"winner":"N"' "$tmp/state.json" &&
        ok || bad "flag fell while stopped: $(cat "$tmp/state.json")"
    curl -s "$url/api/game/$id/record" | grep -q 'Termination "time"' && ok || bad "record on time"
    kill -TERM "$pid"; wait "$pid"
fi

# The operator's hand on accounts: a new password, printed or read from
# the standard input, ends the account's sessions; a deleted account's
# game stays, its seat "deleted player".  The commands act on the database
# while the server runs.
if command -v curl >/dev/null 2>&1; then
    : >"$tmp/out"
    "$M" serve --port 0 --db "$tmp/acct.db" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    wait_url
    url=$(sed -n 's|.*\(http://127.0.0.1:[0-9]*\)/.*|\1|p' "$tmp/out" | head -1)
    post() { curl -s -H 'Content-Type: application/json' "$@"; }
    tok=$(post -d '{"name":"Ama","password":"correct horse"}' "$url/api/account" |
        sed -n 's/.*"token":"\([0-9a-f]\{64\}\)".*/\1/p')
    [ -n "$tok" ] && ok || bad "an account made"
    id=$(post -H "Authorization: Bearer $tok" -d '{"game":"oware"}' "$url/api/new" |
        sed -n 's/.*"id":"\([0-9a-f]\{32\}\)".*/\1/p')
    "$M" serve --db "$tmp/acct.db" --reset-password ama >"$tmp/pw" 2>"$tmp/err"; rc=$?
    pw=$(cat "$tmp/pw")
    [ $rc -eq 0 ] && [ ${#pw} -eq 20 ] && ok || bad "--reset-password: rc=$rc '$pw' $(cat "$tmp/err")"
    me=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $tok" "$url/api/me")
    [ "$me" = 401 ] && ok || bad "the session ended by a new password: $me"
    code=$(post -o /dev/null -w '%{http_code}' -d "{\"name\":\"Ama\",\"password\":\"$pw\"}" "$url/api/login")
    [ "$code" = 200 ] && ok || bad "the printed password signs in: $code"
    printf 'typed by the operator\n' | "$M" serve --db "$tmp/acct.db" --reset-password Ama --password-stdin >"$tmp/pw" 2>&1; rc=$?
    code=$(post -o /dev/null -w '%{http_code}' -d '{"name":"Ama","password":"typed by the operator"}' "$url/api/login")
    [ $rc -eq 0 ] && [ "$code" = 200 ] && ! grep -q typed "$tmp/pw" && ok || bad "--password-stdin: rc=$rc $code"
    printf 'short\n' | "$M" serve --db "$tmp/acct.db" --reset-password Ama --password-stdin >"$tmp/pw" 2>"$tmp/err"; rc=$?
    [ $rc -eq 1 ] && grep -q "8 to 200 bytes" "$tmp/err" && ok || bad "a short password: rc=$rc"
    "$M" serve --db "$tmp/acct.db" --reset-password Nobody >"$tmp/pw" 2>"$tmp/err"; rc=$?
    [ $rc -eq 1 ] && grep -q "no account is named 'Nobody'" "$tmp/err" && ok || bad "no such account: rc=$rc"
    "$M" serve --db "$tmp/acct.db" --delete-account AMA >"$tmp/pw" 2>"$tmp/err"; rc=$?
    [ $rc -eq 0 ] && grep -q "deleted" "$tmp/pw" && ok || bad "--delete-account: rc=$rc $(cat "$tmp/err")"
    code=$(post -o /dev/null -w '%{http_code}' -d '{"name":"Ama","password":"typed by the operator"}' "$url/api/login")
    [ "$code" = 401 ] && ok || bad "a deleted account signs in: $code"
    kill -TERM "$pid"; wait "$pid"
    : >"$tmp/out"
    "$M" serve --port 0 --db "$tmp/acct.db" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    wait_url
    url=$(sed -n 's|.*\(http://127.0.0.1:[0-9]*\)/.*|\1|p' "$tmp/out" | head -1)
    curl -s "$url/api/game/$id" | grep -q '"players":{"S":"deleted player","N":"deleted player"}' &&
        ok || bad "the deleted account's game: $(curl -s "$url/api/game/$id" | head -c 300) (server: $(cat "$tmp/out" "$tmp/err"))"
    kill -TERM "$pid"; wait "$pid"
fi

echo "cli_serve.sh: $pass passed, $fail failed"
[ $fail -eq 0 ]
