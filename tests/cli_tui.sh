#!/bin/sh
# tests/cli_tui.sh - the full-screen `mancala play`, driven through a real
# pseudo-terminal by tmux: keys go in with send-keys, the screen comes back
# with capture-pane, and the tests check what a player would see (each
# game's board, a move, undo and redo, hints, the Gore offer dialogs,
# Omweso's four rows and contract mode, results, matches, autosave and
# resume, and the line mode when input is piped).  Computer players use
# node budgets and animations run at speed 0, so the screens are
# deterministic.  Without tmux the test fails: it never skips.
M=${MANCALA:-./mancala}
case $M in /*) ;; *) M="$PWD/$M" ;; esac
pass=0
fail=0
if ! command -v tmux >/dev/null 2>&1; then
    echo "FAILED: tmux is not installed (sh tools/deps.sh test installs it)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
tmp=$(mktemp -d)
n=0
sock="mancala-tui-$$-$n"
T() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
# a fresh tmux server (own socket) for each terminal
fresh() {
    T kill-server 2>/dev/null
    n=$((n + 1))
    sock="mancala-tui-$$-$n"
}
state="$tmp/state"

ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAILED: $*" >&2
    echo "--- screen:" >&2
    screen >&2
    echo "---" >&2
}

# start ARGS...: a new 110x40 terminal running `mancala play ARGS`; the
# shell prints EXITED <status> when the program ends.
start() {
    fresh
    T new-session -d -s t -x 110 -y 40 -c "$tmp" \
        "XDG_STATE_HOME='$state' '$M' play $*; echo EXITED \$?; sleep 600" ||
        { echo "FAILED: tmux cannot start a session" >&2; fail=$((fail + 1)); }
}
screen() { T capture-pane -p -t t 2>/dev/null; }
keys() { T send-keys -t t "$@"; }
# wait_for TEXT: up to 10 s for TEXT (fixed string) on the screen
wait_for() {
    i=0
    while [ $i -lt 100 ]; do
        screen | grep -qF -- "$1" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
# expect DESC TEXT: TEXT appears on the screen
expect() { if wait_for "$2"; then ok; else bad "$1: no '$2'"; fi; }
# expect_not DESC TEXT: TEXT is not on the screen now
expect_not() { if screen | grep -qF -- "$2"; then bad "$1: '$2' shown"; else ok; fi; }

# ---- Oware: the board, a move, undo, redo, hint, evaluation, move list ----
start oware --nodes 2000 --speed 0
expect "oware board north" "North   [ 4]  [ 4]  [ 4]  [ 4]  [ 4]  [ 4]    captured 0"
expect "oware board south" "South   [ 4]  [ 4]  [ 4]  [ 4]  [ 4]  [ 4]    captured 0"
expect "oware letters" "A     B     C     D     E     F"
expect "oware north letters" "f     e     d     c     b     a"
expect "oware to move" "South to move"
expect "autosave announced" "Every move is saved in $state/mancala/autosave.mcr"
keys C
expect "move explained" "South plays C: lifts 4 seeds from C; the last seed falls in a (now 5)."
expect "computer replies" "North plays e: lifts 4 seeds from e; the last seed falls in C (now 1)."
expect "board after the moves" "South   [ 5]  [ 5]  [ 1]  [ 5]  [ 5]  [ 5]"
if [ -s "$state/mancala/autosave.mcr" ] && grep -q "C e" "$state/mancala/autosave.mcr"; then ok; else
    bad "autosave holds the moves: $(cat "$state/mancala/autosave.mcr" 2>&1)"; fi
keys u
expect "undo restores the start" "South   [ 4]  [ 4]  [ 4]  [ 4]  [ 4]  [ 4]"
keys r
expect "redo replays" "South   [ 5]  [ 5]  [ 1]  [ 5]  [ 5]  [ 5]"
keys '?'
expect "hint" "Hint: the engine would play"
keys =
expect "evaluation" "Evaluation: "
keys '#'
expect "move list" "Moves"
expect "move list entries" "1. C"
keys Z
expect "illegal key explained" "Not possible:"
keys q
expect "quit" "EXITED 0"
expect "saved note" "The game is saved in"

# ---- resume after leaving: the autosave is offered ----
start oware --nodes 2000 --speed 0
expect "resume offered" "An unfinished game is saved in"
expect "resume says what" "oware, game 1, 2 moves played"
keys y
expect "resumed board" "South   [ 5]  [ 5]  [ 1]  [ 5]  [ 5]  [ 5]"
expect "resumed note" "Resuming"
keys q
expect "quit again" "EXITED 0"
# declining keeps the old game aside and starts afresh
start oware --nodes 2000 --speed 0
expect "resume offered again" "Resume it?"
keys n
expect "fresh board" "South   [ 4]  [ 4]  [ 4]  [ 4]  [ 4]  [ 4]"
if [ -s "$state/mancala/autosave.old.mcr" ]; then ok; else bad "declined game kept"; fi
keys q
expect "quit fresh" "EXITED 0"
rm -rf "$state"

# ---- arrows and Enter pick a pit ----
start oware --nodes 2000 --speed 0
expect "arrows start" "South to move"
keys Right Right Enter
expect "arrows played C" "South plays C:"
keys q
expect "arrows quit" "EXITED 0"
rm -rf "$state"

# ---- the result and the end of a game: two computers ----
start oware --south computer --north computer --nodes 300 --speed 0 --level 1
expect "game result" "Game over:"
expect "leave prompt" "Any key: leave."
keys x
expect "left after the game" "EXITED 0"
rm -rf "$state"

# ---- q stops a game between programs ----
start oware --south computer --north computer --nodes 20000 --speed 4
expect "programs play" "plays"
keys q
expect "q stops the programs" "EXITED 0"
rm -rf "$state"

# ---- an Oware match: the score line between games ----
start oware:match=bo3 --south random --north random --speed 0
expect "match score line" "Match: "
expect "next game prompt" "Any key: the next game."
keys q
expect "match quit" "EXITED 0"
rm -rf "$state"

# ---- an Omweso 12-point match: points per kind of win, the loser starts ----
start omweso --south random --north random --speed 0 --seed 3
expect "omweso first game" "Game over: South wins 2 points: okutema"
expect "omweso points" "Match: South 2, North 0 (first to 12 points)"
expect "omweso loser starts" "Next game: North starts."
keys x
expect "omweso second game" "Match: South 2, North 1 (first to 12 points)"
if [ "$(screen | sed -n 3p)" = "Match: South 2, North 1 (first to 12 points)" ]; then ok; else
    bad "score line above the board"; fi
keys q
expect "omweso match quit" "EXITED 0"
rm -rf "$state"

# ---- clocks: a game time for each player ----
start oware --nodes 500 --speed 0 --game-time 90 --move-time 30
expect "clocks shown" "Clock  South 1:"
expect "move limit shown" "(30 s a move)"
keys q
expect "clocks quit" "EXITED 0"
rm -rf "$state"

# ---- Omweso: four rows, contract mode refuses undo ----
start omweso --nodes 500 --speed 0 --mode contract --seed 1
expect "omweso north outer row" "p     o     n     m     l     k     j     i"
expect "omweso north inner row" "h     g     f     e     d     c     b     a"
expect "omweso south inner row" "A     B     C     D     E     F     G     H"
expect "omweso south outer row" "I     J     K     L     M     N     O     P"
expect "omweso south pits" "South   [ 4]  [ 4]  [ 4]  [ 4]  [ 4]  [ 4]  [ 4]  [ 4]"
expect "omweso lot" "Drawn by lot: North starts the first game."
expect "omweso mode shown" "[contract]"
expect "omweso to move" "to move"
keys u
expect "contract refuses undo" "Undo is refused: this is a contract game (W16)."
keys q
expect "omweso quit" "EXITED 0"
rm -rf "$state"

# ---- Omweso: the set-up editor (setup=custom; the library checks it) ----
start omweso:setup=custom --nodes 500 --speed 0 --seed 1
expect "setup editor" "South's set-up: arrows: pit"
keys -l -- -
expect "seed taken into the hand" "In hand 1."
keys Right
keys -l +
expect "seed put back" "South   [ 3]  [ 5]  [ 4]  [ 4]"
expect "setup ready" "In hand 0.  Ready."
keys Left
keys -l -- ---
keys Right Right
keys -l -- ---
keys Left
keys -l ++++++
expect "setup over the cap" "South   [ 0]  [11]  [ 1]  [ 4]"
expect "cap explained by the library" "at most 10"
keys -l -- -
keys Right
keys -l +
expect "setup fixed" "South   [ 0]  [10]  [ 2]  [ 4]"
keys Enter
expect "custom game starts" "Drawn by lot"
keys q
expect "custom quit" "EXITED 0"
if grep -q 'Start "0,10,2,4,4,4,4,4,0,0,0,0,0,0,0,0/' "$state/mancala/autosave.mcr"; then ok; else
    bad "custom set-up saved: $(cat "$state/mancala/autosave.mcr")"; fi
rm -rf "$state"

# ---- Omweso blitz with blitz_timeout=loss: the flag falls after 3 s ----
start omweso --nodes 500 --speed 0 --mode blitz,blitz_timeout=loss --seed 1 --you north
expect "blitz move limit shown" "(3 s a move)"
expect "blitz flag falls" "time ran out"
expect "blitz loss" "South wins: North ran out of time."
keys q
rm -rf "$state"

# ---- Omweso blitz (W16's default): the turn passes after 3 s ----
start omweso --nodes 500 --speed 0 --mode blitz --seed 1 --you north
expect "blitz pass" "North's time ran out: the turn passes to South (W16)."
expect "South moves after the pass" "South plays "
keys '#'
expect "the pass in the move list" "1. --"
keys q
expect "blitz pass quit" "EXITED 0"
if grep -q -- "-- " "$state/mancala/autosave.mcr"; then ok; else
    bad "the pass saved: $(cat "$state/mancala/autosave.mcr")"; fi
rm -rf "$state"

# ---- a capture, explained in words; Ctrl-C leaves with the game saved ----
cat > "$tmp/capture.mcr" <<'EOF'
[Game "oware"]
[Start "0,0,8,0,0,1/1,1,1,1,2,3 S cap=10,20"]
[Result "*"]

*
EOF
start --nodes 500 --speed 0 --resume "$tmp/capture.mcr"
expect "capture position" "South   [ 0]  [ 0]  [ 8]  [ 0]  [ 0]  [ 1]    captured 10"
keys C
expect "capture explained" "the last seed falls in e (now 3); South captures 3 from e;"
expect "capture explained, next line" "captures 2 from d; South captures 2 from c;"
expect "captured seeds counted" "captured 21"
keys C-c
expect "Ctrl-C leaves" "EXITED 130"
if grep -q "1\. C" "$tmp/capture.mcr"; then ok; else
    bad "the capture saved: $(cat "$tmp/capture.mcr")"; fi

# ---- Goré: making an offer shows its payment; answering one ----
cat > "$tmp/offer.mcr" <<'EOF'
[Game "gore"]
[Start "0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20"]
[Result "*"]

*
EOF
start gore --nodes 500 --speed 0 --resume "$tmp/offer.mcr"
expect "gore stores" "captured 20"
keys o
expect "offer dialog" "Offer: pick your pits by letter"
keys A
expect "offer payment" "Offer offer:A: Enter to make it."
keys C
expect "offer of two" "Offer offer:AC: Enter to make it."
keys Enter
expect "offer made" "South plays offer:AC"
keys q
expect "gore quit" "EXITED 0"
cat > "$tmp/answer.mcr" <<'EOF'
[Game "gore"]
[Start "0,0,0,0/6,2,0,6 S own=SSSSNNNN cap=20,14 offer=a"]
[Result "*"]

*
EOF
start gore --nodes 500 --speed 0 --resume "$tmp/answer.mcr"
expect "answer dialog" "North offers a.  Accept it (y) or refuse it (n)?"
expect "answer shows the payment" "If you accept: South accepts a, paying 6 captured stones"
expect "answer keys" "Accept it (y) or refuse it (n)?"
keys y
expect "offer accepted" "South plays accept"
expect "ownership marked" "<n> marks a pit owned by the player across the board"
keys q
expect "answer quit" "EXITED 0"

# ---- Sadeqa II and Goré boards ----
start sadeqa2 --nodes 500 --speed 0
expect "sadeqa2 board" "South   [ 3]  [ 3]  [ 3]  [ 3]  [ 3]  [ 3]"
keys q
expect "sadeqa2 quit" "EXITED 0"
rm -rf "$state"
start gore --nodes 500 --speed 0
expect "gore board" "North   [ 6]  [ 6]  [ 6]  [ 6]    captured 0"
keys q
expect "gore board quit" "EXITED 0"
rm -rf "$state"

# ---- without a terminal, or with --plain: the line mode ----
fresh
T new-session -d -s t -x 110 -y 40 -c "$tmp" \
    "echo quit | XDG_STATE_HOME='$state' '$M' play oware; echo EXITED \$?; sleep 600"
expect "piped input: line mode" "South to move (a move, or: moves"
expect "piped input: exits" "EXITED 0"
start oware --plain
expect "--plain: line mode" "South to move (a move, or: moves"
keys quit Enter
expect "--plain quit" "Goodbye."

# ---- errors are readable: reported before any full screen ----
start nosuchgame
expect "bad game on a terminal" "unknown game 'nosuchgame'"
expect "bad game status" "EXITED 1"

# ---- modes in the line mode too ----
out=$(printf 'undo\nquit\n' | "$M" play omweso --mode contract --nodes 100 2>&1)
case $out in *"Refused: this is a contract game"*) ok ;; *) bad "line mode contract: $out" ;; esac
out=$("$M" play oware --mode fast 2>&1 </dev/null)
case "$?:$out" in 2:*"--mode: time control 'fast'"*"move:S"*) ok ;; *) bad "bad mode: $out" ;; esac
# the W16 modes are Omweso's (the library's time modes of that game)
out=$("$M" play oware --mode contract 2>&1 </dev/null)
case "$?:$out" in 2:*"'contract'"*) ok ;; *) bad "contract is Omweso's: $out" ;; esac
out=$("$M" play oware --clock move:0 2>&1 </dev/null)
case "$?:$out" in 2:*"'move:0'"*) ok ;; *) bad "bad --clock: $out" ;; esac
# a control is kept in the saved record
printf 'quit\n' | "$M" play oware --clock game:300+5 --nodes 100 --save "$tmp/tc.mcr" >/dev/null 2>&1
if grep -q 'TimeControl "game:300+5"' "$tmp/tc.mcr"; then ok; else bad "TimeControl saved: $(cat "$tmp/tc.mcr")"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
