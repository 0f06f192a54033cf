#!/bin/sh
# tests/cli_records.sh - game records from the command line: play --save
# then --resume through piped input, replay, check and its errors, a kill
# in the middle of a saved game, and mancala match between two engines.
M=${MANCALA:-./mancala}
case $M in /*) ;; *) M=$(pwd)/$M ;; esac
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*" >&2; }
# check DESC CONDITION-COMMAND...: the command succeeds
check() {
    desc=$1
    shift
    if "$@"; then ok; else bad "$desc"; fi
}
has() { grep -q -- "$2" "$1"; }

g=$tmp/game.mcr
hh="--south human --north human"

# --- play --save: the record after every move
printf 'C\nd\nquit\n' | $M play $hh --save "$g" >"$tmp/out" 2>"$tmp/err"
check "play --save exits 0" [ $? -eq 0 ]
check "record has the game tag" has "$g" '^\[Game "oware"\]$'
check "record has the moves, unfinished" has "$g" '^1\. C d \*$'
check "record names the players" has "$g" '^\[South "human"\]$'
check "record has a date" has "$g" '^\[Date "[0-9]\{4\}\.[0-9][0-9]\.[0-9][0-9]"\]$'
check "no temporary file left" [ -z "$(ls "$tmp" | grep tmp)" ]
$M check "$g" >"$tmp/out" 2>&1
check "check accepts the saved game" [ $? -eq 0 ]
check "check counts it" has "$tmp/out" "game.mcr: 1 game (0 finished)"

# --- --resume goes on with the saved game and keeps saving to it
printf 'moves\nE\nquit\n' | $M play $hh --resume "$g" >"$tmp/out" 2>"$tmp/err"
check "resume exits 0" [ $? -eq 0 ]
check "resume says so" has "$tmp/out" "Resuming .*1 game saved, the last one goes on"
check "resume starts from the saved position" has "$tmp/out" "Legal moves: A B D E F"
check "resumed move saved" has "$g" '^1\. C d 2\. E \*$'
# undo is saved too
printf 'undo\nquit\n' | $M play $hh --resume "$g" >/dev/null 2>&1
check "undo saved" has "$g" '^1\. C d \*$'
# a resignation ends the game in the record
printf 'E\nresign\n' | $M play $hh --resume "$g" >"$tmp/out" 2>&1
check "resign recorded: result" has "$g" '^\[Result "1-0"\]$'
check "resign recorded: how" has "$g" '^\[Termination "resign"\]$'
check "resign recorded: detail" has "$g" '^\[Detail "North resigned"\]$'
$M check "$g" >/dev/null 2>&1
check "check accepts the finished game" [ $? -eq 0 ]
printf 'quit\n' | $M play $hh --resume "$g" >"$tmp/out" 2>&1
check "resume of a finished game says it is over" has "$tmp/out" "The saved game is over."
# --resume with another game named is refused
printf 'quit\n' | $M play oware:awari $hh --resume "$g" >"$tmp/out" 2>"$tmp/err"
check "resume refuses another game: status" [ $? -eq 1 ]
check "resume refuses another game: message" has "$tmp/err" "holds a game of oware, not oware:"
printf 'quit\n' | $M play $hh --resume "$tmp/none.mcr" >"$tmp/out" 2>"$tmp/err"
check "resume of a missing file: status 1" [ $? -eq 1 ]

# --- a match is saved game after game with Round and Match tags
mg=$tmp/match.mcr
# South resigns game 1; North, the winner, starts game 2 and resigns; South
# starts game 3 and resigns: North wins 2-1.
printf 'resign\nresign\nresign\n' | $M play oware:match=bo3 $hh --save "$mg" >"$tmp/out" 2>&1
check "match record: round 3" has "$mg" '^\[Round "3"\]$'
check "match record: score after 2" has "$mg" '^\[Match "South 1, North 1 (first to 2 wins)"\]$'
check "match record: final score" has "$mg" '^\[Match "South 1, North 2 (first to 2 wins): North wins the match"\]$'
check "match record: round 2 started by the winner" has "$mg" '^\[Start "4,4,4,4,4,4/4,4,4,4,4,4 N cap=0,0"\]$'
check "match over" has "$tmp/out" "North wins the match"
$M check "$mg" >"$tmp/out" 2>&1
check "check accepts the match" has "$tmp/out" "match.mcr: 3 games (3 finished)"

# --- replay
$M replay "$g" >"$tmp/out" 2>&1
check "replay exits 0" [ $? -eq 0 ]
check "replay narrates" has "$tmp/out" "1. South plays C: lifts 4 seeds from C"
check "replay shows tags" has "$tmp/out" "South: human"
check "replay shows the result" has "$tmp/out" "Game over: South wins: North resigned."
printf '\nb\n\nq\n' | $M replay --step "$g" >"$tmp/out" 2>&1
check "replay --step: one move forward" has "$tmp/out" "1. South plays C"
check "replay --step: stops at q" [ "$(grep -c 'plays' "$tmp/out")" -eq 2 ]
$M replay --game 2 "$g" >"$tmp/out" 2>"$tmp/err"
check "replay of a missing game: status 1" [ $? -eq 1 ]
check "replay of a missing game: message" has "$tmp/err" "holds 1 game, not 2"
$M replay --game 2 "$mg" >"$tmp/out" 2>&1
check "replay of game 2 of a match" has "$tmp/out" "Match: South 1, North 1"

# --- check: errors with file, line and column
cat >"$tmp/bad.mcr" <<'EOF'
[Game "oware"]

1. C d 2. a *
EOF
$M check "$tmp/bad.mcr" >"$tmp/out" 2>"$tmp/err"
check "check bad move: status 1" [ $? -eq 1 ]
check "check bad move: file:line:column" has "$tmp/err" "bad.mcr:3:11: game 1, move 3 (a)"
printf '[Game "oware"]\n[Event "unclosed]\n*\n' >"$tmp/bad2.mcr"
$M check "$g" "$tmp/bad2.mcr" >"$tmp/out" 2>"$tmp/err"
check "check several files: status 1" [ $? -eq 1 ]
check "check several files: the good one" has "$tmp/out" "game.mcr: 1 game (1 finished)"
check "check several files: the bad one" has "$tmp/err" "bad2.mcr:2:8: tag Event: the value is not closed"
$M check "$tmp/none.mcr" >"$tmp/out" 2>"$tmp/err"
check "check missing file: status 1" [ $? -eq 1 ]
$M check >"$tmp/out" 2>"$tmp/err"
check "check without files: usage, status 2" [ $? -eq 2 ]

# --- a kill in the middle of a saved game leaves a good record
kg=$tmp/killed.mcr
$M play --south computer --north computer --time 0.02 --save "$kg" </dev/null \
    >/dev/null 2>&1 &
pid=$!
sleep 1
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
$M check "$kg" >"$tmp/out" 2>"$tmp/err"
check "killed game: the record is whole ($(cat "$tmp/err"))" [ $? -eq 0 ]

# --- match: two engines over the protocol
cd "$tmp" || exit 1
$M match --engine1 "$M engine" --engine2 "$M engine" --games 2 --depth 2 \
    --save "$tmp/m.mcr" >"$tmp/out" 2>"$tmp/err"
check "match exits 0 ($(cat "$tmp/err"))" [ $? -eq 0 ]
check "match prints the tally" has "$tmp/out" "^engine 1: [0-2] wins, [0-2] draws, [0-2] losses$"
w=$(sed -n 's/^engine 1: \([0-9]*\) wins, \([0-9]*\) draws, \([0-9]*\) losses$/\1+\2+\3/p' "$tmp/out")
check "match: two games counted" [ "$(($w))" -eq 2 ]
check "match: sides alternate" has "$tmp/out" "^game 2: South '$M engine', North '$M engine'$"
$M check "$tmp/m.mcr" >"$tmp/out2" 2>&1
check "match record checks" has "$tmp/out2" "m.mcr: 2 games (2 finished)"
# an engine that answers every go with an illegal move loses each game
cat >"$tmp/badengine.sh" <<'EOF'
while read -r line; do
    case $line in
    hello) echo "ok hello" ;;
    set*) echo "ok set" ;;
    position*) echo "ok position" ;;
    go*) echo "bestmove Z" ;;
    quit) echo "ok quit"; exit 0 ;;
    *) echo "error unknown" ;;
    esac
done
EOF
$M match --engine1 "$M engine" --engine2 "sh $tmp/badengine.sh" --games 2 \
    --depth 1 >"$tmp/out" 2>"$tmp/err"
check "match vs an illegal mover: tally" has "$tmp/out" "^engine 1: 2 wins, 0 draws, 0 losses$"
check "match vs an illegal mover: says why" has "$tmp/out" "played an illegal move"
$M match --engine1 "$M engine" --engine2 "echo nonsense" --games 1 >"$tmp/out" 2>"$tmp/err"
check "match vs a non-engine: status 1" [ $? -eq 1 ]
check "match vs a non-engine: message" has "$tmp/err" "engine 2 ('echo nonsense') does not answer 'hello'"
$M match --engine1 x >"$tmp/out" 2>"$tmp/err"
check "match usage: status 2" [ $? -eq 2 ]

# --- engine: a piped session works from the command line too
printf 'position start moves C\nmoves\n' | $M engine >"$tmp/out" 2>&1
check "engine from a pipe" [ "$(cat "$tmp/out")" = "ok position
ok moves a b c d e f" ]

# a line longer than the protocol allows: an error, and the engine goes on
{ head -c 70000 /dev/zero | tr '\0' x; echo; echo moves; } | $M engine >"$tmp/out" 2>&1
check "engine: a too long line" [ "$(cat "$tmp/out")" = "error line too long (more than 65536 bytes)
ok moves A B C D E F" ]
# a last line without a line break is still a command
printf 'moves' | $M engine >"$tmp/out" 2>&1
check "engine: last line without newline" [ "$(cat "$tmp/out")" = "ok moves A B C D E F" ]

# a FIFO named like a record is refused at once, not waited on (issue 44)
mkfifo "$tmp/pipe.mcr"
timeout 10 $M check "$tmp/pipe.mcr" >"$tmp/out" 2>&1
check "check of a FIFO: refused at once" [ $? -eq 1 ]
check "check of a FIFO: says why" has "$tmp/out" "not a plain file"
timeout 10 $M replay "$tmp/pipe.mcr" >"$tmp/out" 2>&1
check "replay of a FIFO: refused at once" [ $? -eq 1 ]

echo "cli_records.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
