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

# joined: the screen as one line (wrapped lines joined by a space), for
# sentences the log wraps
joined() { screen | tr -s ' \n' '  '; }
expect_joined() {
    i=0
    while [ $i -lt 100 ]; do
        joined | grep -qF -- "$2" && { ok; return; }
        sleep 0.1
        i=$((i + 1))
    done
    bad "$1: no '$2' (joined)"
}
# screen_e: the screen with its attributes (SGR escapes); plain: them
# taken out of stdin
screen_e() { T capture-pane -p -e -t t 2>/dev/null; }
esc=$(printf '\033')
plain() { sed "s/$esc\[[0-9;]*m//g"; }
# attr_text SGR REGEX: the characters drawn with attribute SGR (4
# underline, 7 reverse video) on the first screen line whose text matches
# REGEX (extended), from where REGEX matches on; runs joined by '|'.
# attr_of SGR REGEX: the same of a screen_e on stdin.
attr_text() { screen_e | attr_of "$@"; }
attr_of() {
    awk -v want="$1" -v re="$2" '
    BEGIN { esc = sprintf("%c", 27) }
    {
        line = $0; plain = ""; on = 0; k = 0
        while (line != "") {
            c = substr(line, 1, 1)
            if (c == esc && substr(line, 2, 1) == "[") {
                j = 3
                while (j <= length(line) && substr(line, j, 1) !~ /[@-~]/)
                    j++
                if (substr(line, j, 1) == "m") {
                    np = split(substr(line, 3, j - 3), ps, ";")
                    if (np == 0)
                        on = 0
                    for (i = 1; i <= np; i++) {
                        v = ps[i] + 0
                        if (v == 0) on = 0
                        else if (v == want) on = 1
                        else if (v == want + 20) on = 0
                        else if (v == 38 || v == 48)
                            i += ps[i + 1] == 5 ? 2 : 4
                    }
                }
                line = substr(line, j + 1)
                continue
            }
            plain = plain c
            att[++k] = on
            line = substr(line, 2)
        }
        if (plain !~ re)
            next
        from = match(plain, re)
        out = ""
        for (i = from; i <= k; i++)
            if (att[i])
                out = out substr(plain, i, 1)
            else if (out != "" && substr(out, length(out)) != "|")
                out = out "|"
        sub(/\|$/, "", out)
        print out
        exit
    }'
}
# marked_pits: the names of the pits marked as the last move's ("[ 0]*")
# on a two-row board (names are on the line above or below the pits)
marked_pits() {
    screen | awk '{ l[NR] = $0 } END {
        out = ""
        for (i = 1; i <= NR; i++) {
            if (index(l[i], "[n]*"))
                continue  # the legend
            s = l[i]; off = 0
            while (match(s, /[])>]\*/)) {
                c = off + RSTART
                for (d = -1; d <= 1; d += 2) {
                    nm = substr(l[i + d], c - 2, 2)
                    gsub(/ /, "", nm)
                    if (nm ~ /^[A-Za-z]+$/)
                        out = out (out == "" ? "" : " ") nm
                }
                off += RSTART + 1
                s = substr(s, RSTART + 2)
            }
        }
        print out
    }'
}
# gives WANT CMD...: waits (up to 10 s: a redrawing may be half-way when
# the screen is read) until CMD prints WANT; 1 if it never does, with what
# it printed last in $got
gives() {
    want=$1
    shift
    i=0
    while :; do
        got=$("$@")
        [ "$got" = "$want" ] && return 0
        [ $i -ge 100 ] && return 1
        sleep 0.1
        i=$((i + 1))
    done
}
# expect_mark DESC NAME: the pit NAME alone is marked ("" none)
expect_mark() {
    if gives "$2" marked_pits; then ok; else bad "$1: marked '$got', not '$2'"; fi
}
# expect_attr DESC SGR REGEX WANT: attr_text SGR REGEX gives WANT
expect_attr() {
    if gives "$4" attr_text "$2" "$3"; then ok; else bad "$1: '$got', not '$4'"; fi
}

# record START: a one-game record starting at START, for --resume
record() {
    printf '[Game "%s"]\n[Start "%s"]\n[Result "*"]\n\n*\n' "$1" "$2" > "$3"
}

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
keys '<'
expect "undo restores the start" "South   [ 4]  [ 4]  [ 4]  [ 4]  [ 4]  [ 4]"
expect_not "the log loses the undone move" "South plays C:"
expect_not "the log loses the undone reply" "North plays e:"
keys '>'
expect "redo replays" "South   [ 5]  [ 5]  [ 1]  [ 5]  [ 5]  [ 5]"
expect "redo tells the moves again" "North plays e: lifts 4 seeds from e; the last seed falls in C (now 1)."
keys F2
expect "hint" "Hint: the engine would play"
expect "the hint's pit marked on the board" "(n): the engine's move"
keys =
expect "evaluation" "Evaluation: "
keys '#'
expect "move list" "Moves"
# numbered in full moves, as the record writes them
expect "move list entries" "1. C e"
if grep -q "1\. C e" "$state/mancala/autosave.mcr"; then ok; else bad "the record numbers 1. C e"; fi
expect_not "Oware shows no offer key" "offer"
keys Z Enter
expect "illegal move explained" "Not possible:"
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
expect "game result" "Any key: leave."
# the end in a sentence, with the score: "North wins 26 to 22: ..."
if screen | grep -Eq "^Game over: ((South|North) wins|Draw) [0-9.]+ to [0-9.]+: "; then ok; else bad "the result as a sentence"; fi
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
keys '<'
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

# in the set-up too, Up and Down change rows: a seed from I goes up to A
start omweso:setup=custom --nodes 500 --speed 0 --seed 1
expect "setup editor again" "South's set-up: arrows: pit"
keys -l -- -
expect "a seed in hand" "In hand 1."
keys Up
keys -l +
expect "Up reached A (the inner row)" "        [ 1]  [ 0]  [ 0]  [ 0]  [ 0]  [ 0]  [ 0]  [ 0]"
expect "I gave it" "South   [ 3]  [ 4]  [ 4]  [ 4]"
keys q
expect "setup rows quit" "EXITED 0"
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
expect "the pass in the move list, numbered as records do" "1... --"
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

# ---- Goré: making an offer shows its price; answering one ----
# South owns a in North's row (own=SSSSSNNN): the dialog must let it be
# offered, apart from A.  North has captured 20, so up to 3 pits can be
# offered at 6 stones a pit (G6).
cat > "$tmp/offer.mcr" <<'EOF'
[Game "gore"]
[Start "0,0,0,0/0,2,0,6 S own=SSSSSNNN cap=20,20"]
[Result "*"]

*
EOF
start gore --nodes 500 --speed 0 --resume "$tmp/offer.mcr"
expect "gore stores" "captured 20"
expect "gore says offers are possible" "offer pits: type offer and Enter"
keys '?'
expect "the menu lists the offer" "make an offer of pits"
keys o
expect "offer dialog" "Offer pits: arrows and Space pick"
expect "offer dialog, nothing picked" "No pit picked yet."
expect "the log is not overwritten" "Resuming $tmp/offer.mcr"
keys a
# G6: 6 of the answering side's captured stones a pit
expect "a picks North's-row pit a, price 6" "Offer a: if North accepts, North pays 6 captured stones."
keys A
expect "A picks A as well, price 12" "Offer A and a: if North accepts, North pays 12 captured stones."
keys Space
expect "Space unpicks the pit under the cursor" "Offer a: if North accepts"
keys Right Space
expect "arrows pick" "Offer B and a:"
keys Enter
expect "offer made, in words" "South offers B, a to North, who may accept, paying 12 captured stones"
expect_not "no internal token" "offer:"
keys q
expect "gore quit" "EXITED 0"
# typing the notation works too
cat > "$tmp/offer2.mcr" <<'EOF'
[Game "gore"]
[Start "0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20"]
[Result "*"]

*
EOF
start gore --nodes 500 --speed 0 --resume "$tmp/offer2.mcr"
expect "gore typed offer" "South to move"
keys o f f e r : A C Enter
expect "offer typed as notation" "South offers A, C to North"
keys q
expect "typed offer quit" "EXITED 0"
if grep -q "offer:AC" "$tmp/offer2.mcr"; then ok; else bad "typed offer saved: $(cat "$tmp/offer2.mcr")"; fi
# no offer is possible at the start (nobody has captured 6): no dialog
start gore --nodes 500 --speed 0
expect "gore start" "South to move"
expect_not "no offer hint at the start" "offer pits"
keys '?'
expect "menu at the start" "Commands: press a key"
expect_not "the menu lists no offer" "make an offer"
keys o
expect "back from the menu" "South to move"
expect_not "no dialog" "Offer pits:"
keys o f f e r Enter
expect "offer refused in words" "No offer is possible now."
keys q
expect "gore start quit" "EXITED 0"
rm -rf "$state"
cat > "$tmp/answer.mcr" <<'EOF'
[Game "gore"]
[Start "0,0,0,0/6,2,0,6 S own=SSSSNNNN cap=20,14 offer=a"]
[Result "*"]

*
EOF
cp "$tmp/answer.mcr" "$tmp/answer2.mcr"
start gore --nodes 500 --speed 0 --resume "$tmp/answer.mcr"
expect "answer dialog" "North offers a.  Accept it (y) or refuse it (n)?"
expect "answer shows the price" "Accepting costs South 6 captured stones"
keys y
expect "offer accepted" "South accepts a, paying 6 captured stones (6 into it); it is South's now."
expect "ownership marked" "<n>: a pit owned by the player across the board"
keys q
expect "answer quit" "EXITED 0"
# refusing, then the only move is a pass: said, and Enter plays it
start gore --nodes 500 --speed 0 --resume "$tmp/answer2.mcr"
expect "answer dialog again" "Accept it (y) or refuse it (n)?"
keys n
expect "refusal told" "South refuses the offer of a"
expect "the pass is offered" "Moves: pass"
keys Enter
expect "the pass played" "South owns no stones and passes."
keys q
expect "refuse quit" "EXITED 0"

# a win after a refusal (G7): the sentence says so, never "noglory"; the
# score is the one `mancala apply` gives
NG="3,0,0,0/0,0,0,2 S own=SSSSNNNN cap=28,15 offer=a"
case $("$M" apply gore "$NG" refuse A | tail -1) in "over S 31-17 noglory") ok ;; *) bad "noglory position" ;; esac
record gore "$NG" "$tmp/refused.mcr"
start gore --nodes 500 --speed 0 --resume "$tmp/refused.mcr"
expect "noglory answer" "Accept it (y) or refuse it (n)?"
keys n
expect "refused" "South refuses the offer of a"
keys A
expect "noglory result" "South wins 31 to 17: "
expect_joined "victory without glory in words" "A victory without glory: South refused an offer."
expect_not "no internal code" "noglory"
keys x
expect "noglory quit" "EXITED 0"

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

# ---- Omweso: every legal move can be entered, marks included ----
# The issue's position: North starts (seed 1), then p, L, o; South's legal
# moves are I I- J K M N N- O (mancala moves says so).
P=$("$M" apply omweso "$("$M" apply omweso start | sed 's/ S / N /')" p L o | head -1)
if [ "$("$M" moves omweso "$P")" = "I I- J K M N N- O" ]; then ok; else bad "the issue's position: $("$M" moves omweso "$P")"; fi
start omweso --south human --north human --seed 1 --speed 0
expect "omweso two people" "North to move"
keys p
expect "p played" "South to move"
keys L
expect "L played" "North to move"
keys o
expect "o played" "South to move"
keys I
expect "I waits: two moves start so" "Move: I_   (I I-)"
keys -- -
expect "I- typed and played" "South plays I-: lifts the 4 seeds of I; sows 4 from I clockwise"
keys '<'
expect "back to the position" "Move: _"
keys I Enter
expect "I and Enter plays I" "South plays I: lifts the 4 seeds of I; sows 4 from I counter-clockwise"
keys '<'
expect "back again" "(Enter: the 2 moves from I)"
keys Enter
expect "Enter on I: a list" "I starts 2 moves; pick one"
keys Right Enter
expect "I- picked from the list" "South plays I-:"
keys '<'
keys N
expect "N waits for its mark" "(N N-)"
keys BSpace
# typing moved the cursor to N
expect "Backspace edits the line" "Move: _   (Enter: the 2 moves from N)"
keys Left
expect "Left reaches M" "(Enter plays M)"
keys Right
expect "Right comes back to N" "(Enter: the 2 moves from N)"
keys Enter Right Enter
expect "N- from the list" "South plays N-:"
keys q
expect "omweso marks quit" "EXITED 0"
rm -rf "$state"
# a three-seed opening sowing (W12): I has 3 seeds on South's first turn
record omweso "3,5,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0,0" "$tmp/star.mcr"
if [ "$("$M" moves omweso "3,5,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0,0")" = "I I* J K L M N O P" ]; then ok; else bad "I* position"; fi
start --south human --north human --speed 0 --resume "$tmp/star.mcr"
expect "star position" "South to move"
keys I '*'
expect "I* typed and played" "South plays I*:"
keys q
expect "star quit" "EXITED 0"
# North's j-++- (five moves start from j)
record omweso "0,1,1,7,7,0,2,1,3,1,5,4,0,3,1,1/0,5,0,2,1,2,7,0,4,1,2,2,1,0,0,0 N first=- captures=1,0" "$tmp/marks.mcr"
case " $("$M" moves omweso "0,1,1,7,7,0,2,1,3,1,5,4,0,3,1,1/0,5,0,2,1,2,7,0,4,1,2,2,1,0,0,0 N first=- captures=1,0") " in
*" j-++- "*) ok ;; *) bad "j-++- is legal there" ;; esac
start --south human --north human --speed 0 --resume "$tmp/marks.mcr"
expect "marks position" "North to move"
keys -- j - + +
expect "j-++ narrows to one move" "(j-++-)"
keys -- -
expect "j-++- played" "South to move"
keys q
expect "marks quit" "EXITED 0"
if grep -q "j-++-" "$tmp/marks.mcr"; then ok; else bad "j-++- saved: $(cat "$tmp/marks.mcr")"; fi
# Up and Down change rows: A (inner row) holds 2, the outer row 4s
record omweso "4,4,4,4,4,4,4,2,0,0,0,0,0,0,0,2/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=- captures=0,0" "$tmp/rows.mcr"
start --south human --north human --speed 0 --resume "$tmp/rows.mcr"
expect "rows position" "(Enter plays I)"
keys Up
expect "Up reaches the inner row" "(Enter plays A)"
keys Down
expect "Down comes back" "(Enter plays I)"
keys q
expect "rows quit" "EXITED 0"

# ---- a long explanation is shown whole, and scrolls ----
# North's e- here is a 2,000-character relay; the line mode narrates it
# (an independent front-end), the full screen must show all of it.
LONG="2,0,7,2,1,1,0,3,1,1,0,3,5,6,0,2/0,3,0,2,1,1,1,0,2,5,2,2,1,6,3,1 N first=- captures=1,4"
record omweso "$LONG" "$tmp/long.mcr"
cp "$tmp/long.mcr" "$tmp/long-plain.mcr"
want=$(printf 'e-\nquit\n' | "$M" play --south human --north human --plain --resume "$tmp/long-plain.mcr" | grep -o 'North plays e-:.*')
if [ ${#want} -gt 1300 ]; then ok; else bad "the long narration: ${#want} characters"; fi
tail=$(printf '%s' "$want" | tail -c 200)
head=$(printf '%s' "$want" | head -c 200)
start --south human --north human --speed 0 --resume "$tmp/long.mcr"
expect "long position" "North to move"
keys -- e -
expect "long move played" "South to move"
expect_joined "the end of the long explanation" "$tail"
keys PPage PPage PPage PPage PPage PPage PPage PPage
expect_joined "PgUp shows its start" "$head"
keys q
expect "long quit" "EXITED 0"

# ---- a small terminal: everything fits, or it says what it needs ----
fresh
T new-session -d -s t -x 60 -y 20 -c "$tmp" \
    "XDG_STATE_HOME='$state' '$M' play oware --nodes 2000 --speed 0; echo EXITED \$?; sleep 600"
expect "60x20 board" "South   [ 4]  [ 4]  [ 4]  [ 4]  [ 4]  [ 4]"
keys C
expect_joined "60x20: the reply whole" "North plays e: lifts 4 seeds from e; the last seed falls in C (now 1)."
expect_joined "60x20: the move whole" "South plays C: lifts 4 seeds from C; the last seed falls in a (now 5)."
expect "60x20: the keys line" "? commands  < undo  > redo  q quit"
keys q
expect "60x20 quit" "EXITED 0"
rm -rf "$state"
fresh
T new-session -d -s t -x 40 -y 12 -c "$tmp" \
    "XDG_STATE_HOME='$state' '$M' play oware --nodes 2000 --speed 0; echo EXITED \$?; sleep 600"
expect_joined "40x12: too small, says what it needs" "Terminal too small: this board needs 58x16, the terminal is 40x12."
expect_not "40x12: no broken board" "[ 4]"
T resize-window -t t -x 100 -y 30
expect "resized: the board" "South   [ 4]  [ 4]  [ 4]  [ 4]  [ 4]  [ 4]"
keys q
expect "40x12 quit" "EXITED 0"
rm -rf "$state"

# ---- Sadeqa II: letters are moves, never shortcuts ----
start sadeqa2 --nodes 500 --speed 0
expect "sadeqa2 start" "South to move"
keys e Enter
expect "e: why it is not a move" "Not possible: this is South's first move, which must be from F"
expect_not "e evaluates nothing" "Evaluation:"
keys b Enter
expect_not "b is explained as South's B" "one of North's holes"
keys h Enter l Enter
expect_not "h gives no hint" "Hint:"
expect_not "l shows no move list" "Moves"
keys F
expect "F plays" "South plays F:"
keys q
expect "sadeqa2 letters quit" "EXITED 0"
rm -rf "$state"

# ---- Oware: Up is not Left; resign asks first; review; flip ----
start oware --nodes 2000 --speed 0
expect "oware cursor" "(Enter plays A)"
keys Right Right Up
expect "Up stays on the row (nothing above to play)" "(Enter plays C)"
keys '!'
expect "resign asks" "Resign this game?"
keys n
expect "not resigned" "South to move"
expect_not "no result" "resign"
keys Enter
expect "C played" "North plays"
keys F5
expect "review" "Review: position 2 of 2"
keys Left
expect "review steps back" "Review: position 1 of 2"
expect "review tells the move" "South plays C: lifts 4 seeds from C"
keys Home
expect "review at the start" "Review: position 0 of 2 (the start)"
expect "the start position" "South   [ 4]  [ 4]  [ 4]  [ 4]  [ 4]  [ 4]"
keys =
expect "review evaluates" "Evaluation: "
expect "the engine's move marked" "(n): the engine's move"
screen | grep -q '( 4)' && ok || bad "a pit drawn ( 4)"
keys a Right
expect "review analyses the game: each move's chance before and after" "Analysis: before it"
expect_joined "the analysis names the mover's chance" "South's chance"
keys Escape
expect "back to the game" "South to move"
keys '?' f
expect "flipped: North at the bottom" "a     b     c     d     e     f"
l_n=$(screen | grep -n '^North   \[' | cut -d: -f1)
l_s=$(screen | grep -n '^South   \[' | cut -d: -f1)
if [ -n "$l_n" ] && [ -n "$l_s" ] && [ "$l_n" -gt "$l_s" ]; then ok; else bad "North below South when flipped"; fi
keys '!'
expect "resign asks again" "Resign this game?"
keys y
expect "resigned" "Any key: leave."
expect "resignation in words" "North wins: South resigned."
expect_not "no internal reason" "(resignation)"
keys x
expect "resign quit" "EXITED 0"
rm -rf "$state"
# --you north: North's side at the bottom from the start
start oware --you north --nodes 500 --speed 0
expect "you north" "North to move"
l_n=$(screen | grep -n '^North   \[' | cut -d: -f1)
l_s=$(screen | grep -n '^South   \[' | cut -d: -f1)
if [ -n "$l_n" ] && [ -n "$l_s" ] && [ "$l_n" -gt "$l_s" ]; then ok; else bad "--you north: North at the bottom"; fi
keys q
expect "you north quit" "EXITED 0"
rm -rf "$state"

# ---- the last move's pit is marked on the board (issue 44) ----
# "[ n]*" and underlined; the legend says so; every drawing shows it:
# after the computer's move and a person's, a redrawing, a hint, undo and
# redo, review, a flipped board.
start oware --nodes 2000 --speed 0
expect "mark: the start" "South to move"
expect_mark "no mark before a move" ""
expect_not "no mark in the legend before a move" "[n]*"
keys C
expect "mark: the computer replies" "North plays e:"
expect "the computer's e marked" "North   [ 5]  [ 0]* [ 4]  [ 4]  [ 4]  [ 5]"
expect_mark "e alone is marked" "e"
expect_attr "e is underlined" 4 '^North   ' "[ 0]"
expect_attr "nothing of South's underlined" 4 '^South   ' ""
expect "the legend tells the mark" "[n]*: the last move was sown from this pit (underlined)"
T resize-window -t t -x 100 -y 36
expect "mark: redrawn at 100x36" "North   [ 5]  [ 0]* [ 4]  [ 4]  [ 4]  [ 5]"
expect_mark "still e after the redrawing" "e"
T resize-window -t t -x 110 -y 40
keys F2
expect "mark: a hint" "Hint: the engine would play"
expect_mark "still e beside the hint" "e"
expect_attr "still underlined beside the hint" 4 '^North   ' "[ 0]"
keys '<'
expect "mark: undone" "South   [ 4]  [ 4]  [ 4]  [ 4]  [ 4]  [ 4]"
expect_mark "no mark at the start again" ""
expect_not "no legend at the start again" "[n]*"
keys '>'
expect "mark: redone" "North   [ 5]  [ 0]* [ 4]  [ 4]  [ 4]  [ 5]"
expect_mark "e marked again" "e"
keys F5
expect "mark: review at the end" "Review: position 2 of 2"
expect_mark "review: e" "e"
keys Left
expect "review: South's C marked" "South   [ 4]  [ 4]  [ 0]* [ 5]  [ 5]  [ 5]"
expect_mark "review: C alone" "C"
expect_attr "review: C underlined" 4 '^South   ' "[ 0]"
keys Home
expect "review: the start" "Review: position 0 of 2 (the start)"
expect_mark "review: no mark at the start" ""
keys Escape
expect "back from review" "South to move"
expect_mark "back from review: e" "e"
keys '?'
expect_joined "the help tells the marks" "Marks: [n]* (underlined): the pit the last move was sown from; in the move list (and review's), > and reverse video"
keys f
expect "mark: flipped" "North   [ 5]  [ 4]  [ 4]  [ 4]  [ 0]* [ 5]"
expect_mark "flipped: e still" "e"
keys q
expect "mark quit" "EXITED 0"
rm -rf "$state"
# a person's own move is marked as well
start oware --south human --north human --speed 0
expect "mark: two people" "South to move"
keys C
expect "a person's C marked" "South   [ 4]  [ 4]  [ 0]* [ 5]  [ 5]  [ 5]"
expect_mark "C alone" "C"
keys d
expect "North's d marked" "North   [ 5]  [ 5]  [ 0]* [ 4]  [ 4]  [ 5]"
expect_mark "d alone" "d"
keys q
expect "two people quit" "EXITED 0"
rm -rf "$state"

# ---- the move list marks the move shown and keeps it in sight ----
# A 50-ply Oware game (the first legal move each time) in review at 80x24
# (the list beside the board) and 70x24 (the list below it): at every
# position, stepping forward and back, the move that led to it has a '>'
# before its row and is in reverse video, and that row is on the screen;
# at the start, move 1 is.
pos=start
game=""
plies=0
while [ $plies -lt 50 ]; do
    ms=$("$M" moves oware "$pos")
    [ -n "$ms" ] || break
    mv=${ms%% *}
    game="$game $mv"
    pos=$("$M" apply oware "$pos" "$mv" | head -1)
    plies=$((plies + 1))
done
if [ $plies -eq 50 ]; then ok; else bad "a 50-ply game: $plies plies"; fi
printf '[Game "oware"]\n[Result "*"]\n\n%s *\n' "$game" > "$tmp/long-game.mcr"
# list_shows K: the screen marks ply K's move (K = 0: none marked, move 1
# shown); waited for up to 10 s; 1 when it does not
list_shows() {
    k=$1
    want_tok=$(echo $game | cut -d' ' -f"$k" 2>/dev/null)
    want_num=$(((k + 1) / 2))
    i=0
    while [ $i -lt 500 ]; do
        se=$(screen_e)
        sc=$(printf '%s\n' "$se" | plain)
        case $sc in *"Review: position $k of $plies "*) ;; *)
            sleep 0.02; i=$((i + 1)); continue ;; esac
        row=$(printf '%s\n' "$sc" | grep -oE '> [0-9]+\. .*' | sed 's/ *$//')
        if [ "$k" -eq 0 ]; then
            if [ -z "$row" ] && printf '%s\n' "$sc" | grep -qE '(^|  )1\. '; then
                ok; return 0; fi
            bad "$size, position 0: move 1 shown, none marked ('$row')"
            return 1
        fi
        num=${row#> }
        num=${num%%.*}
        rev=$(printf '%s\n' "$se" | attr_of 7 '> [0-9]+\. ')
        if [ "$num" = "$want_num" ] && [ "$rev" = "$want_tok" ]; then
            ok; return 0; fi
        bad "$size, position $k: '> $want_num.' with '$want_tok' reversed, got '$row', '$rev'"
        return 1
    done
    bad "$size: position $k never shown"
    return 1
}
for size in 80x24 70x24; do
    cp "$tmp/long-game.mcr" "$tmp/long-game-$size.mcr"
    fresh
    T new-session -d -s t -x "${size%x*}" -y "${size#*x}" -c "$tmp" \
        "XDG_STATE_HOME='$state' '$M' play --south human --north human --speed 0 --resume '$tmp/long-game-$size.mcr'; echo EXITED \$?; sleep 600"
    expect "$size: the game" "South to move"
    # at 80x24 the list is on before review, as in the issue; at 70x24
    # review shows it by itself
    if [ $size = 80x24 ]; then
        keys '#'
        expect "$size: the list on" "Moves"
    fi
    keys F5
    list_shows $plies
    keys Home
    list_shows 0
    # every position forward, then back (the first failure stops a walk)
    k=0
    while [ $k -lt $plies ]; do
        keys Right
        k=$((k + 1))
        list_shows $k || break
    done
    keys End
    k=$plies
    while [ $k -gt 0 ]; do
        keys Left
        k=$((k - 1))
        list_shows $k || break
    done
    keys End
    list_shows $plies
    keys Escape
    expect "$size: back from review" "South to move"
    if [ $size = 70x24 ]; then
        expect_not "$size: the list hidden again" "Moves"
        keys '#'
    fi
    # the game's list marks its last move too
    expect "$size: the move list" "Moves"
    if screen | grep -qE '> 25\. F b$'; then ok; else bad "$size: the last move's row marked"; fi
    expect_attr "$size: the last move reversed" 7 '> 25\. ' "b"
    keys '<'
    expect "$size: undone" "North to move"
    if screen | grep -qE '> 25\. F$'; then ok; else bad "$size: after undo, F marked"; fi
    expect_attr "$size: F reversed" 7 '> 25\. ' "F"
    keys q
    expect "$size: quit" "EXITED 0"
    rm -rf "$state"
done

# ---- the resume offer: only the same game, with a move played ----
start oware --nodes 2000 --speed 0
expect "an oware game" "South to move"
keys C
expect "a move" "North plays"
keys q
expect "oware left" "EXITED 0"
start omweso --south human --north human --speed 0 --seed 1
expect "omweso: no offer of the oware game" "Drawn by lot"
expect_not "no resume question" "Resume it?"
expect_joined "the oware game kept aside" "is kept as $state/mancala/autosave.old.mcr"
if grep -q '"oware"' "$state/mancala/autosave.old.mcr"; then ok; else bad "oware game kept"; fi
keys q
expect "omweso left" "EXITED 0"
# that omweso game has no move: not worth offering
start omweso --south human --north human --speed 0 --seed 1
expect "no offer of a game without moves" "North to move"
expect_not "no resume question for an empty game" "Resume it?"
keys q
expect "empty left" "EXITED 0"
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
