#!/bin/sh
# tests/cli_uci.sh - `mancala engine --uci` as a process driven the way an
# Oware GUI drives it: timed answers (go movetime 200 within 2 s and not
# at once, isready and stop during an infinite search at once), moves
# checked against `mancala moves` and `mancala apply` (another path to the
# rules), the end of input, the arguments.
. tests/lib/harness.sh

now() { date +%s.%N; } # GNU date (Debian): seconds with fractions
# between T0 T1 LO HI: LO <= T1 - T0 < HI
between() {
    awk -v a="$1" -v b="$2" -v lo="$3" -v hi="$4" \
        'BEGIN { d = b - a; exit !(d >= lo && d < hi) }'
}
# stamp: each line read, with the time it was read
stamp() {
    while IFS= read -r l; do echo "$(now) $l"; done
}
# at FILE PATTERN: the time of the first line matching PATTERN
at() { awk -v p="$2" '$0 ~ p { print $1; exit }' "$1"; }

# go movetime 200: the answer comes after most of the 200 ms and well
# within 2 s of the go line
{
    printf 'uci\nsetoption name OwnBook value false\nposition startpos moves F\nisready\n'
    sleep 0.5
    now >"$tmp/t_go"
    printf 'go movetime 200\n'
    sleep 2.5
    printf 'quit\n'
} | $M engine --uci | stamp >"$tmp/s1"
t_go=$(cat "$tmp/t_go")
t_best=$(at "$tmp/s1" " bestmove ")
if [ -n "$t_best" ] && between "$t_go" "$t_best" 0.15 2; then ok; else
    bad "go movetime 200: bestmove after $(awk -v a="$t_go" -v b="${t_best:-0}" 'BEGIN { print b - a }') s: $(tail -3 "$tmp/s1")"
fi
# the move is one of North's legal moves after F (mancala moves says which)
best=$(awk '$2 == "bestmove" { print $3; exit }' "$tmp/s1")
legal=$($M moves oware "4,4,4,4,4,0/5,5,5,5,4,4 N cap=0,0")
case " $legal " in
*" $best "*) ok ;;
*) bad "bestmove '$best' is not among North's moves '$legal'" ;;
esac
if grep -q ' info depth [0-9]* score cp -\{0,1\}[0-9]* nodes ' "$tmp/s1"; then ok; else
    bad "no info line: $(cat "$tmp/s1")"
fi

# isready during go infinite is answered while the search goes on (before
# stop is sent, 1.5 s later: a loaded machine may take a moment to run
# the reader), and stop at once (with the best move)
{
    printf 'uci\nisready\n'
    sleep 0.3
    printf 'go infinite\n'
    sleep 0.5
    now >"$tmp/t_ready"
    printf 'isready\n'
    sleep 1.5
    now >"$tmp/t_stop"
    printf 'stop\n'
    sleep 0.5
    printf 'quit\n'
} | $M engine --uci | stamp >"$tmp/s2"
t_ready=$(cat "$tmp/t_ready") t_stop=$(cat "$tmp/t_stop")
# the second readyok (the first answers the isready before go)
t_ok=$(awk '$2 == "readyok" { n++; if (n == 2) { print $1; exit } }' "$tmp/s2")
if [ -n "$t_ok" ] && between "$t_ready" "$t_ok" 0 1.2; then ok; else
    bad "isready during the search: readyok at '$t_ok', asked at $t_ready: $(cat "$tmp/s2")"
fi
t_best=$(at "$tmp/s2" " bestmove ")
if [ -n "$t_best" ] && between "$t_stop" "$t_best" 0 0.3; then ok; else
    bad "stop: bestmove at '$t_best', asked at $t_stop"
fi
if grep -q ' bestmove [A-F]\( ponder [a-f]\)\{0,1\}$' "$tmp/s2"; then ok; else
    bad "stop: the best move is South's: $(tail -2 "$tmp/s2")"
fi

# moves written together (Aualé's way) land where `mancala apply` puts
# them; an illegal one (North's a is empty there) leaves that position
printf 'position startpos moves FaBbB\nposition startpos moves FaBbBa\nd\n' |
    $M engine --uci >"$tmp/out"
want=$($M apply oware start F a B b B | head -1)
if grep -qx "info string position $want" "$tmp/out"; then ok; else
    bad "position startpos moves FaBbB: want '$want', got: $(cat "$tmp/out")"
fi
if grep -q "^info string error position: move 6 ('a' in 'FaBbBa')" "$tmp/out"; then ok; else
    bad "a after F a B b B (a is empty) is refused: $(cat "$tmp/out")"
fi
if expect_apply=$($M apply oware start F a B b B a 2>&1); then
    bad "mancala apply takes a after F a B b B: $expect_apply"
else ok; fi

# the end of input stops an infinite search, which still answers
t0=$(now)
printf 'go infinite\n' | $M engine --uci >"$tmp/out"
t1=$(now)
if between "$t0" "$t1" 0 1.5 && grep -q '^bestmove [A-F]' "$tmp/out"; then ok; else
    bad "go infinite, input closed: $(tail -1 "$tmp/out")"
fi

# arguments
expect_grep "engine --help names --uci" "--uci" $M engine --help
expect_err "an unknown argument" 2 "unexpected argument '--ucii'" \
    $M engine --ucii
finish cli_uci.sh
