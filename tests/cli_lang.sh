#!/bin/sh
# tests/cli_lang.sh - the program's languages (issue 48, docs/TRANSLATING.md).
#   (a) French: --lang fr and the environment (LANGUAGE, LC_ALL, LANG; no
#       French system locale is needed) give the sentences of
#       po/cli/fr.po, written out below as a French player reads them;
#   (b) nothing scriptable changes with the language: moves, apply, perft
#       (every case of the rules' data tests), games' option keys, the
#       engine protocol, a record written by play --save and check's exit
#       statuses are byte for byte the same in English, French and the
#       pseudo-language en-XA;
#   (c) the pseudo-language detector: under en-XA every text that went
#       through a catalog comes out accented, so an ASCII word of three
#       letters or more left in the help of every command, a line-mode game
#       of each game played to its end (with errors, undo, help), replay,
#       check and rules' own messages is a word that was not marked;
#   (d) the full screen (tmux) under en-XA, through the same detector, and a
#       French screen at 80x24 that fits.
. tests/lib/harness.sh
cwd=$(pwd)
case $M in /*) P=$M ;; *) P=$cwd/$M ;; esac
# Each run chooses its language itself: nothing from the caller's
# environment.
unset LANGUAGE LC_ALL LC_MESSAGES LANG
L() { "$M" --lang "$@"; }

# ---- (a) French ---------------------------------------------------------

expect_grep "--lang fr --help: the commands" "^commandes :" L fr --help
expect_grep "--lang fr --help: play's summary" \
    "play      jouer une partie dans le terminal (personnes ou ordinateur)" \
    L fr --help
expect_grep "--lang=fr" "Code de sortie : 0 succès" "$M" --lang=fr --help
for env in LANGUAGE=fr LC_ALL=fr_FR.UTF-8 LANG=fr_CI.UTF-8 LC_MESSAGES=fr_FR \
    "LANGUAGE=sw:fr"; do
    expect_grep "$env gives French" "^commandes :" env "$env" "$M" --help
done
expect_grep "LANGUAGE wins over LANG" "^commands:" \
    env LANGUAGE=en LANG=fr_FR.UTF-8 "$M" --help
expect_grep "--lang wins over the environment" "^commands:" \
    env LANGUAGE=fr "$M" --lang en --help
expect_grep "play --help in French" \
    "Jouer une partie dans le terminal.  Par défaut : oware, vous en Sud contre" \
    L fr play --help
expect_err "an unknown option, in French" 2 \
    "mancala play : option inconnue '--fast'" L fr play --fast
expect_err "an unknown command, in French" 2 \
    "mancala : commande inconnue 'jouer' (essayez 'mancala --help')" L fr jouer
expect_err "--lang without a language" 2 "--lang needs a language" "$M" --lang

# A line-mode game between two people: the prompt, the moves listed, the
# help, nothing to undo, a move, an illegal move, resignation.
printf 'moves\nhelp\nundo\nA\nA\nresign\n' |
    L fr play oware --north human >"$tmp/fr.txt" 2>&1
fr_has() {
    if grep -qF -- "$2" "$tmp/fr.txt"; then ok; else
        bad "French line mode: $1: no '$2' in: $(head -c 1500 "$tmp/fr.txt")"
    fi
}
fr_has "the prompt" \
    "Sud au trait (un coup, ou : moves, undo, redo, board, resign, quit, help)> "
fr_has "North's turn" "Nord au trait (un coup"
fr_has "the legal moves" "Coups légaux : A B C D E F"
fr_has "the help" "Tapez la lettre d'une de vos cases pour l'égrener."
fr_has "the help's commands" "  resign  abandonner cette partie"
fr_has "nothing to undo" "Rien à annuler."
fr_has "the board's side to move" "   <- au trait"
fr_has "the board's sides" "  Nord    [ 4]"
fr_has "an illegal move explained" "Impossible : "
fr_has "the end" "Partie terminée : "
# The library's own words (the rules, what a move did, why a move is
# illegal) come from po/lib: French once it has a French catalog.
if [ -f po/lib/fr.po ]; then
    if grep "^Nord au trait" "$tmp/fr.txt" | grep -q "Impossible : .*houses"; then
        bad "the illegal move's reason is still English: $(grep Impossible "$tmp/fr.txt")"
    else ok; fi
else
    skip "the illegal move's reason in French" "po/lib/fr.po does not exist yet"
fi
printf '' | L fr play oware >"$tmp/fr.txt" 2>&1
fr_has "end of input" "Fin de l'entrée : vous quittez la partie."
fr_has "who plays" "Sud : humain, Nord : ordinateur (ordinateur : niveau 5"
printf 'resign\n' | L fr play oware:match=bo3 --seed 2 >"$tmp/fr.txt" 2>&1
fr_has "a match's score" "Match : "
fr_has "the match's next game" "Partie suivante : Nord commence."

# ---- (b) scriptable outputs do not change with the language ---------------

# same DESC CMD...: stdout, stderr's emptiness and the exit status of CMD
# under --lang fr and --lang en-XA are English's, byte for byte.
same() {
    desc=$1
    shift
    "$M" --lang en "$@" >"$tmp/en.out" 2>"$tmp/en.err"
    en_rc=$?
    for lang in fr en-XA; do
        "$M" --lang $lang "$@" >"$tmp/x.out" 2>"$tmp/x.err"
        rc=$?
        if [ $rc -eq $en_rc ] && cmp -s "$tmp/en.out" "$tmp/x.out"; then ok; else
            bad "$desc under $lang: rc=$rc (English $en_rc), diff: $(diff "$tmp/en.out" "$tmp/x.out" | head -5)"
        fi
    done
}
same "moves oware" moves oware
same "moves omweso" moves omweso
same "apply oware" apply oware start A b C
same "apply gore over" apply gore start
same "apply an illegal move: status" apply oware start A A
same "perft sadeqa2 4" perft sadeqa2 4
same "perft omweso 2" perft omweso 2

# Every case of the rules' data tests (tests/rules/*/*.t): the position
# reached by its moves, the legal moves there, perft; under the
# pseudo-language, which changes every message looked up (French only
# those its catalog holds; the commands above are compared in French too).
cases=0
for f in tests/rules/*/*.t; do
    awk '
    function flush() {
        if (game != "") print game "\t" pos "\t" moves "\t" perft
        game = ""; pos = "start"; moves = ""; perft = ""
    }
    BEGIN { pos = "start" }
    /^rule:/ { flush() }
    /^game:/ { game = $2 }
    /^position:/ { sub(/^position: */, ""); pos = $0 }
    /^moves:/ { sub(/^moves: */, ""); moves = $0 }
    /^perft:/ { if ($2 <= 4) perft = $2 }
    END { flush() }' "$f"
done >"$tmp/cases.tsv"
# run_case LANG: the case's outputs and statuses in LANG
run_case() {
    # shellcheck disable=SC2086 # the moves are words
    "$M" --lang "$1" apply "$game" "$pos" $moves 2>/dev/null
    echo "rc=$?"
    "$M" --lang "$1" moves "$game" "$pos" 2>/dev/null
    echo "rc=$?"
    if [ -n "$perft" ]; then
        "$M" --lang "$1" perft "$game" "$perft" "$pos" 2>/dev/null
        echo "rc=$?"
    fi
}
while IFS='	' read -r game pos moves perft; do
    cases=$((cases + 1))
    en=$(run_case en)
    got=$(run_case en-XA)
    [ "$got" = "$en" ] && ok ||
        bad "rules case $game '$pos' $moves under en-XA: '$got', English '$en'"
done <"$tmp/cases.tsv"
[ "$cases" -gt 200 ] && ok || bad "only $cases rules cases read from tests/rules"

# games: the option keys, values and presets (the first words of each line)
# stay; only explanations may change.
keys() { "$M" --lang "$1" games | awk 'NF && !/^      /{print $1, $2}'; }
keys en >"$tmp/k.en"
for lang in fr en-XA; do
    keys $lang >"$tmp/k.x"
    cmp -s "$tmp/k.en" "$tmp/k.x" && ok || bad "games' keys under $lang: $(diff "$tmp/k.en" "$tmp/k.x" | head -4)"
done
[ "$(wc -l <"$tmp/k.en")" -gt 10 ] && ok || bad "games lists few keys: $(cat "$tmp/k.en")"

# The engine protocol: its answers, in order but for the search's lines,
# which come from another thread (those sorted, their timing taken out).
engine_run() {
    { printf 'hello\nset game oware\nset level 3\nset nosuch 1\nposition start moves A A\nposition start moves A b\ngo depth 4\n'; sleep 1; printf 'isready\nquit\n'; } |
        "$M" --lang "$1" engine 2>&1 >"$tmp/e.raw"
    grep -v '^info\|^bestmove' "$tmp/e.raw"
    grep '^info\|^bestmove' "$tmp/e.raw" | sed 's/ time [0-9]*//; s/ nps [0-9]*//' | sort
}
engine_run en >"$tmp/e.en"
for lang in fr en-XA; do
    engine_run $lang >"$tmp/e.x"
    cmp -s "$tmp/e.en" "$tmp/e.x" && ok || bad "engine transcript under $lang: $(diff "$tmp/e.en" "$tmp/e.x" | head -4)"
done
grep -q '^bestmove ' "$tmp/e.en" && ok || bad "engine: no bestmove in $(cat "$tmp/e.en")"
grep -q '^error ' "$tmp/e.en" && ok || bad "engine: no error line for 'set nosuch' in $(cat "$tmp/e.en")"
# The UCI dialect too.
uci_run() {
    { printf 'uci\nisready\nposition startpos moves Ab\ngo depth 3\n'; sleep 1; printf 'quit\n'; } |
        "$M" --lang "$1" engine --uci 2>&1 >"$tmp/u.raw"
    grep -v '^info\|^bestmove' "$tmp/u.raw"
    grep '^info\|^bestmove' "$tmp/u.raw" | sed 's/ time [0-9]*//; s/ nps [0-9]*//' | sort
}
uci_run en >"$tmp/u.en"
for lang in fr en-XA; do
    uci_run $lang >"$tmp/u.x"
    cmp -s "$tmp/u.en" "$tmp/u.x" && ok || bad "UCI transcript under $lang: $(diff "$tmp/u.en" "$tmp/u.x" | head -4)"
done
grep -q '^bestmove ' "$tmp/u.en" && ok || bad "UCI: no bestmove in $(cat "$tmp/u.en")"

# A record written by play --save: the same tags, moves and result (but
# the date, which is the day's).
for lang in en fr en-XA; do
    printf 'A\nf\nB\nresign\n' |
        "$M" --lang $lang play oware --north human --save "$tmp/rec.$lang.mcr" >/dev/null 2>&1
    grep -v '^\[Date ' "$tmp/rec.$lang.mcr" >"$tmp/rec.$lang" 2>/dev/null
done
[ -s "$tmp/rec.en" ] && ok || bad "play --save wrote no record"
for lang in fr en-XA; do
    cmp -s "$tmp/rec.en" "$tmp/rec.$lang" && ok || bad "the record under $lang: $(diff "$tmp/rec.en" "$tmp/rec.$lang" | head -4)"
done

# check's exit statuses: 0 good, 1 bad, 2 usage, in every language.
printf '[Game "oware"]\n\n1. A zz *\n' >"$tmp/bad.mcr"
for lang in en fr en-XA; do
    "$M" --lang $lang check "$tmp/rec.en.mcr" >/dev/null 2>&1
    r1=$?
    "$M" --lang $lang check "$tmp/bad.mcr" >/dev/null 2>&1
    r2=$?
    "$M" --lang $lang check >/dev/null 2>&1
    r3=$?
    [ "$r1 $r2 $r3" = "0 1 2" ] && ok || bad "check's statuses under $lang: $r1 $r2 $r3"
done

# ---- (c) the pseudo-language detector ---------------------------------------

# The words that may stay ASCII under en-XA: what the program shows as it
# is (commands, games and their option words, player kinds given as
# arguments, move tokens, file and program names) and the names of keys.
allow=" mancala mpi mpirun play moves apply perft rules games analyze solve
probe selfplay tune bench replay check engine match openings egdb book
serve oware gore sadeqa omweso awari abapa classic contract blitz loss
human computer random none default start all gen fit dump show build
verify info stats compress uci UCI Esc PgUp PgDn Enter Ctrl zstd MiB
http localhost svg html mcr mcrz egdb egdbz txt json md JSON SQLite Elo
SPRT LLR Markdown RssAnon Bellman Open MPI Oware Gore Omweso Sadeqa Aual
Event Site Date Round Result Detail Game TimeControl Match Variant
"
# The library's words (its rules, what a move did, results): checked too
# once the library speaks en-XA; until then (another part of issue 48)
# a word the library's sources or rule files hold may be one of them.
strict=1
printf 'resign\n' | L en-XA play oware >"$tmp/probe.txt" 2>&1
grep -q 'resigned' "$tmp/probe.txt" && [ -z "$MANCALA_LANG_STRICT" ] && strict=0
if [ $strict = 0 ]; then
    skip "strict detector" "the library does not speak en-XA yet: words of its sources are let through"
    cat src/games/*.c src/session/*.c src/core/*.c src/search/*.c \
        src/record/*.c src/protocol/*.c src/egdb/*.c docs/rules/*.md 2>/dev/null |
        LC_ALL=C grep -oE '[A-Za-z]{3,}' | sort -u >"$tmp/libwords"
else
    : >"$tmp/libwords"
fi

# left FILE: the ASCII words of FILE that are not allowed, into $tmp/left.
# Options (--x), <tags>, environment variables, paths, file names, game
# specs (oware:awari, key=value) and the version are taken out first.
left() {
    LC_ALL=C sed -e "s/\\(^\\|[ (]\\)'[^' ]*'/\\1/g" \
        -e 's/--[a-z0-9][a-z0-9-]*//g' -e 's/<[^>]*>//g' \
        -e 's/\$\{0,1\}[A-Z][A-Z0-9_]*_[A-Z0-9_]*//g' \
        -e 's/[A-Za-z0-9_.~-]*\/[A-Za-z0-9_./<>*-]*//g' \
        -e 's/[A-Za-z0-9_-]*\.\(mcr\|mcrz\|md\|egdb\|egdbz\|txt\|book\|tune\|features\|journal\|ckpt\|db\|html\|js\)\b//g' \
        -e 's/[a-z0-9_]*[:=][a-z0-9_:=,+|*]*//g' \
        -e 's/mancala [0-9.]*//g' "$1" |
        LC_ALL=C grep -oE "[A-Za-z$(printf '\200')-$(printf '\377')]+" |
        LC_ALL=C grep -E '^[A-Za-z]{3,}$' | sort -u |
        while read -r w; do
            case " $(echo $allow) " in *" $w "*) continue ;; esac
            grep -qx "$w" "$tmp/libwords" && continue
            echo "$w"
        done >"$tmp/left"
}
# english DESC FILE: FILE has no English word left
english() {
    left "$2"
    if [ -s "$tmp/left" ]; then
        bad "$1: English words under en-XA: $(tr '\n' ' ' <"$tmp/left")"
    else ok; fi
}
# The detector detects: an English text fails it.
printf 'Goodbye.\nRefused: this is a contract game.\n' >"$tmp/plain"
left "$tmp/plain"
grep -qx Goodbye "$tmp/left" && ok || bad "the detector let 'Goodbye' through: $(cat "$tmp/left")"

L en-XA --help >"$tmp/h" 2>&1
english "mancala --help" "$tmp/h"
subs=$("$M" --lang en --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p')
for c in $subs; do
    L en-XA $c --help >"$tmp/h" 2>&1
    english "mancala $c --help" "$tmp/h"
done
for s in build verify info probe default stats compress; do
    L en-XA egdb $s --help >"$tmp/h" 2>&1
    english "mancala egdb $s --help" "$tmp/h"
done
L en-XA book build --help >"$tmp/h" 2>&1
english "mancala book build --help" "$tmp/h"
L en-XA solve --build --help >"$tmp/h" 2>&1
english "mancala solve --build --help" "$tmp/h"
# usage errors
{
    L en-XA nosuch
    L en-XA play --fast
    L en-XA play --level 99
    L en-XA play --you east
    L en-XA play --south robot
    L en-XA moves
    L en-XA perft oware x
    L en-XA apply --x
    L en-XA replay
    L en-XA replay "$tmp/nosuch.mcr" --game 0
    L en-XA analyze oware --depth
    L en-XA serve --port x
    L en-XA rules --x
    L en-XA rules nosuch
} >"$tmp/h" 2>&1
english "usage errors" "$tmp/h"

# A line-mode game of each game to its end between two random players,
# and a short one with a person's errors, undo, help, the moves and
# resignation.
for g in oware gore sadeqa2 omweso; do
    L en-XA play $g --south random --north random --seed 7 \
        --save "$tmp/$g.mcr" >"$tmp/g" 2>&1 </dev/null
    grep -q . "$tmp/g" && ok || bad "$g: no game"
    english "a line-mode game of $g" "$tmp/g"
    printf 'zz\nmoves\nhelp\nundo\nredo\nboard\nresign\n' |
        L en-XA play $g --north human >"$tmp/g" 2>&1
    english "a line-mode game of $g with errors" "$tmp/g"
    # (the record's tags, "  Event: mancala play", are its data)
    L en-XA replay "$tmp/$g.mcr" 2>&1 | grep -v '^  [A-Z][A-Za-z]*: ' >"$tmp/g"
    english "replay of $g" "$tmp/g"
done
L en-XA check "$tmp/oware.mcr" "$tmp/bad.mcr" >"$tmp/g" 2>&1
english "check" "$tmp/g"
# rules' own messages: what follows the rule file (where the guide is)
L en-XA rules oware | tail -4 >"$tmp/g"
english "rules' closing words" "$tmp/g"

# ---- (d) the full screen ---------------------------------------------------

if ! command -v tmux >/dev/null 2>&1; then
    bad "tmux is not installed (sh tools/deps.sh test installs it)"
    finish cli_lang
    exit
fi
n=0
sock="mancala-lang-$$-$n"
T() { tmux -u -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
# screen LANG COLS ROWS ARGS: a terminal running the full screen
screen_start() {
    T kill-server 2>/dev/null
    n=$((n + 1))
    sock="mancala-lang-$$-$n"
    lang=$1 cols=$2 rows=$3
    shift 3
    T new-session -d -s t -x "$cols" -y "$rows" -c "$tmp" \
        "env -u LANG -u LC_ALL -u LANGUAGE XDG_STATE_HOME='$tmp/state' '$P' --lang $lang play $*; sleep 600"
}
screen() { T capture-pane -p -t t 2>/dev/null; }
wait_for() {
    i=0
    while [ $i -lt 100 ]; do
        screen | grep -qF -- "$1" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

# en-XA: the board, the keys line, a move's log, the commands' list, review
screen_start en-XA 110 40 oware --north computer --nodes 200 --speed 0
# the header's "mancala VERSION: oware" stays
if wait_for "mancala $("$M" --version | cut -d' ' -f2)"; then ok; else bad "en-XA screen: no header: $(screen)"; fi
sleep 0.5
T send-keys -t t C Enter
sleep 1.5
screen >"$tmp/s1"
english "the full screen (board, keys, log)" "$tmp/s1"
T send-keys -t t '?'
sleep 0.5
screen >"$tmp/s2"
english "the full screen's commands" "$tmp/s2"
T send-keys -t t Escape
sleep 0.3
T send-keys -t t F5
sleep 0.5
screen >"$tmp/s3"
english "the full screen's review" "$tmp/s3"
T send-keys -t t Escape
sleep 0.3
T send-keys -t t '!'
sleep 0.5
screen >"$tmp/s4"
english "the full screen's question" "$tmp/s4"
T send-keys -t t y
sleep 0.5
screen >"$tmp/s5"
english "the full screen's end" "$tmp/s5"
# the pseudo-language's accents reach the screen as characters
grep -q 'ɱ' "$tmp/s1" && ok || bad "no UTF-8 on the en-XA screen: $(head -5 "$tmp/s1")"

# Goré's offer dialog and Omweso's set-up editor
cat >"$tmp/offer.mcr" <<'EOF'
[Game "gore"]
[Start "0,0,0,0/0,2,0,6 S own=SSSSSNNN cap=20,20"]
[Result "*"]

*
EOF
screen_start en-XA 110 40 gore --nodes 500 --speed 0 --resume "$tmp/offer.mcr"
sleep 1
T send-keys -t t '?'
sleep 0.4
T send-keys -t t o
sleep 0.4
T send-keys -t t a
sleep 0.5
screen >"$tmp/s6"
english "Goré's offer dialog" "$tmp/s6"
screen_start en-XA 110 40 omweso:setup=custom --nodes 500 --speed 0 --seed 1
sleep 1
T send-keys -t t -l -- -
sleep 0.4
screen >"$tmp/s7"
english "Omweso's set-up editor" "$tmp/s7"

# French at 80x24: the board and the keys line fit, accents drawn.
screen_start fr 80 24 oware --north computer --nodes 200 --speed 0
if wait_for "Sud au trait"; then ok; else bad "French screen: no 'Sud au trait': $(screen)"; fi
screen >"$tmp/f1"
grep -qF "Entrée jouer  flèches choisir  ? commandes  < annuler  > rétablir  q quitter" "$tmp/f1" &&
    ok || bad "French screen at 80x24: not the keys line that fits: $(tail -2 "$tmp/f1")"
grep -q "Sud : humain   Nord : ordinateur (niveau 5, 200 nœuds)" "$tmp/f1" &&
    ok || bad "French screen: the players' line: $(head -3 "$tmp/f1")"
# no line wider than the terminal (capture-pane cuts at the width: a
# wrapped line would show as the next line's start)
w=$(LC_ALL=C.UTF-8 awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$tmp/f1")
[ "$w" -le 80 ] && ok || bad "French screen: a line of $w columns"
T send-keys -t t '?'
sleep 0.5
screen >"$tmp/f2"
grep -qF "Commandes : appuyez sur une touche (toute autre touche : retour)" "$tmp/f2" &&
    ok || bad "French commands' list: $(head -3 "$tmp/f2")"
T send-keys -t t Escape
sleep 0.3
# resigning asks first, and o (oui) answers yes in French
T send-keys -t t '!'
if wait_for "Abandonner cette partie ?  o : oui   autre touche : non"; then ok; else
    bad "French screen: the resign question: $(screen | tail -14)"
fi
T send-keys -t t o
if wait_for "Partie terminée : "; then ok; else
    bad "French screen: 'o' did not answer yes: $(screen | tail -14)"
fi
T send-keys -t t q
finish cli_lang
