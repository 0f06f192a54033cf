#!/bin/sh
# tests/cli_match.sh - the strength harness, mancala match (docs/STRENGTH.md):
# option errors, openings files (checked line by line), a short match over
# two openings whose counts add up, recovery from an engine that misses its
# time (tests/fake_engine.sh), the honest bound of a 0 % score, and the
# shipped openings files.
. tests/lib/harness.sh
E="$M engine"
F="sh tests/fake_engine.sh"

# --- bad options: a clear message and status 2
expect_err "match: no engines" 2 "engine1 and --engine2 are needed" $M match
expect_err "match: unknown option" 2 "unknown argument '--bogus'" \
    $M match --engine1 "$E" --engine2 "$E" --bogus 1
expect_err "match: --tc malformed" 2 "takes BASE+INC in seconds" \
    $M match --engine1 "$E" --engine2 "$E" --tc ten
expect_err "match: --tc zero" 2 "takes BASE+INC" \
    $M match --engine1 "$E" --engine2 "$E" --tc 0+1
expect_err "match: --tc negative increment" 2 "takes BASE+INC" \
    $M match --engine1 "$E" --engine2 "$E" --tc 10+-1
expect_err "match: --tc and --movetime" 2 "two time controls" \
    $M match --engine1 "$E" --engine2 "$E" --tc 10+0.1 --movetime 100
expect_err "match: --sprt reversed" 2 "ELO0 < ELO1" \
    $M match --engine1 "$E" --engine2 "$E" --sprt 5,0
expect_err "match: --sprt one value" 2 "ELO0,ELO1" \
    $M match --engine1 "$E" --engine2 "$E" --sprt 5
expect_err "match: --concurrency 0" 2 "positive whole number" \
    $M match --engine1 "$E" --engine2 "$E" --concurrency 0
expect_err "match: --nodes x" 2 "positive whole number" \
    $M match --engine1 "$E" --engine2 "$E" --nodes x
expect_err "match: missing value" 2 "needs a value" \
    $M match --engine1 "$E" --engine2 "$E" --games
expect_grep "match --help" "usage: mancala match" $M match --help
expect_grep "match --help: clocks" "stime S ntime N sinc I ninc I" $M match --help

# --- openings files: every move checked, errors name file and line
printf '# two openings\n\nC d  # a comment after the moves\nC C\n' >"$tmp/bad.txt"
expect_err "openings: illegal move at file:line" 1 "bad.txt:4: move 2" \
    $M match --engine1 "$E" --engine2 "$E" --openings "$tmp/bad.txt"
printf 'C d\nZ\n' >"$tmp/bad2.txt"
expect_err "openings: not a move" 1 "bad2.txt:2: move 1" \
    $M match --engine1 "$E" --engine2 "$E" --openings "$tmp/bad2.txt"
printf '# nothing\n\n' >"$tmp/empty.txt"
expect_err "openings: none" 1 "no openings" \
    $M match --engine1 "$E" --engine2 "$E" --openings "$tmp/empty.txt"
expect_err "openings: missing file" 1 "cannot read $tmp/none.txt" \
    $M match --engine1 "$E" --engine2 "$E" --openings "$tmp/none.txt"
# --- a short match over two openings: every game counted
printf '# two lines\nC d\nF a A e\n' >"$tmp/two.txt"
$M match --engine1 "$E" --engine2 "$E" --openings "$tmp/two.txt" \
    --nodes 500 --concurrency 2 --save "$tmp/m.mcr" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ]; then ok; else bad "short match: rc=$rc $(cat "$tmp/err")"; fi
w=$(sed -n 's/^engine 1: \([0-9]*\) wins, \([0-9]*\) draws, \([0-9]*\) losses$/\1+\2+\3/p' "$tmp/out")
if [ -n "$w" ] && [ "$(($w))" -eq 4 ]; then ok; else bad "short match: 2 x 2 games, got '$w'"; fi
n=$(grep -c '^game [1-4]: .*plies, opening [12]$' "$tmp/out")
if [ "$n" -eq 4 ]; then ok; else bad "short match: 4 result lines, got $n: $(cat "$tmp/out")"; fi
p=$(sed -n 's/^pairs by engine 1.s points (0, 1\/2, 1, 3\/2, 2): \([0-9]*\), \([0-9]*\), \([0-9]*\), \([0-9]*\), \([0-9]*\);.*/\1+\2+\3+\4+\5/p' "$tmp/out")
if [ -n "$p" ] && [ "$(($p))" -eq 2 ]; then ok; else bad "short match: 2 pairs, got '$p'"; fi
# games 3 and 4 are the second opening with the colours swapped
if grep -q "^game 3: South '$E', North '$E'$" "$tmp/out" &&
    grep -q '^game 3: .*, opening 2$' "$tmp/out" &&
    grep -q '^game 4: .*, opening 2$' "$tmp/out"; then ok; else
    bad "short match: games 3 and 4 play opening 2: $(cat "$tmp/out")"; fi
# the record file: 4 games, each replayed by the reader, opening tags
$M check "$tmp/m.mcr" >"$tmp/out2" 2>&1
if grep -q "m.mcr: 4 games (4 finished)" "$tmp/out2"; then ok; else
    bad "short match: record checks: $(cat "$tmp/out2")"; fi
if [ "$(grep -c '^\[Opening "F a A e"\]$' "$tmp/m.mcr")" -eq 2 ] &&
    [ "$(grep -c '^\[Opening "C d"\]$' "$tmp/m.mcr")" -eq 2 ]; then ok; else
    bad "short match: Opening tags"; fi
# the moves of game 3 begin with its opening (records write move numbers)
if awk '/^\[Round "3"\]/{g=1} g && /^1\./{print; exit}' "$tmp/m.mcr" |
    grep -q '^1\. F a 2\. A e'; then ok; else
    bad "short match: game 3's moves start with the opening: $(awk '/^\[Round "3"\]/{g=1} g && /^1\./{print; exit}' "$tmp/m.mcr")"; fi
# --games beyond two per opening cycles through the file
$M match --engine1 "$E" --engine2 "$E" --openings "$tmp/two.txt" \
    --nodes 300 --games 5 --concurrency 1 >"$tmp/out" 2>"$tmp/err"
if grep -q '^game 5: .*, opening 1$' "$tmp/out" &&
    grep -q '^engine 1: .*' "$tmp/out"; then ok; else
    bad "--games 5 cycles: $(cat "$tmp/out") $(cat "$tmp/err")"; fi

# --- a clock that runs out: the late engine is stopped and the match goes on
$M match --engine1 "$E" --engine2 "$F stoppable" --tc 0.5 --games 2 \
    --concurrency 1 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q "^engine 1: 2 wins, 0 draws, 0 losses$" "$tmp/out" &&
    [ "$(grep -c 'gave no move in time (stopped): it loses the game' "$tmp/out")" -eq 2 ] &&
    grep -q "^losses on time: engine 1 0, engine 2 2; restarts: engine 1 0, engine 2 0$" "$tmp/out"
then ok; else bad "stoppable late engine: rc=$rc $(cat "$tmp/out") $(cat "$tmp/err")"; fi
if ! grep -q "a search is running" "$tmp/out"; then ok; else bad "stale search after a forfeit"; fi
# a hung engine (deaf to stop) is killed and started again for game 2
$M match --engine1 "$E" --engine2 "$F hang" --tc 0.5 --games 2 \
    --concurrency 1 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q "^engine 1: 2 wins, 0 draws, 0 losses$" "$tmp/out" &&
    grep -q "^engine 2 ('$F hang') started again$" "$tmp/out" &&
    grep -q "^losses on time: engine 1 0, engine 2 2; restarts: engine 1 0, engine 2 1$" "$tmp/out"
then ok; else bad "hung engine: rc=$rc $(cat "$tmp/out") $(cat "$tmp/err")"; fi
# an engine that exits when asked to move loses, and is started again
$M match --engine1 "$F exit" --engine2 "$E" --depth 2 --games 2 \
    --concurrency 1 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q "^engine 1: 0 wins, 0 draws, 2 losses$" "$tmp/out" &&
    grep -q "has exited: it loses the game" "$tmp/out" &&
    grep -q "restarts: engine 1 1, engine 2 0$" "$tmp/out"; then ok; else
    bad "exiting engine: rc=$rc $(cat "$tmp/out") $(cat "$tmp/err")"; fi

# --- a 0 % score: a one-sided bound, never "-1200".  6 losses: the chance
# q of not losing has (1-q)^6 >= 0.05, q <= 1 - 0.05^(1/6) = 1 - 0.606962
# = 0.393038; -400 log10(0.606962 / 0.393038) = -400 * 0.188722 = -75.5
$M match --engine1 "$F illegal" --engine2 "$E" --nodes 200 --games 6 \
    --concurrency 2 >"$tmp/out" 2>"$tmp/err"
if grep -q "^engine 1 score 0.000, Elo < -75 (95 %)$" "$tmp/out" &&
    ! grep -q 1200 "$tmp/out"; then ok; else
    bad "0 % score: $(cat "$tmp/out") $(cat "$tmp/err")"; fi
# selfplay prints it the same way (10 losses: < -183, test_match_stats.c)
expect_grep "selfplay 0 %: the bound" "lost 10; score 0.000; Elo < -183 (95 %)" \
    $M selfplay oware --a random --b level=10,nodes=2000 --pairs 5

# --- SPRT against an engine that always loses (an illegal move at once, so
# that no clock can make the test flaky): every pair 2 points
# to 0.  The most likely pair distribution with mean s puts s on "2 points"
# (test_match_stats.c), so each pair adds ln(s1 / s0).  [0, 10]: s1 =
# 0.514387, 2 pairs: 2 ln 1.028774 = 0.0567, no decision.  [0, 400]: s1 =
# 1 / 1.1 = 0.909091, ln 1.818182 = 0.597837 a pair: 4 pairs 2.39, 5 pairs
# 2.99 >= ln 19 = 2.94: H1 accepted, and no game after the 5th pair starts
# (the two slots may each have one game running: at most 12 of the 40).
$M match --engine1 "$E" --engine2 "$F illegal" --nodes 200 --games 4 \
    --sprt 0,10 --concurrency 1 >"$tmp/out" 2>"$tmp/err"
if grep -q '^SPRT \[0, 10\] after 2 pairs: LLR 0.06 \[-2.94, 2.94\]$' "$tmp/out" &&
    grep -q '^SPRT \[0, 10\]: no decision' "$tmp/out"; then ok; else
    bad "sprt, no decision: $(cat "$tmp/out")"; fi
$M match --engine1 "$E" --engine2 "$F illegal" --nodes 200 --games 40 \
    --sprt 0,400 --concurrency 2 >"$tmp/out" 2>"$tmp/err"
n=$(grep -c '^game [0-9]*: .* wins, ' "$tmp/out")
if grep -q '^SPRT \[0, 400\] after 4 pairs: LLR 2.39 ' "$tmp/out" &&
    grep -q '^SPRT: H1 accepted (LLR 2.99 >= 2.94) after 5 pairs' "$tmp/out" &&
    grep -q '^SPRT \[0, 400\]: H1 accepted after 5 pairs' "$tmp/out" &&
    [ "$n" -ge 10 ] && [ "$n" -le 12 ]; then ok; else
    bad "sprt H1 ($n games): $(cat "$tmp/out")"; fi
# engine 1 always loses: ln((1 - s1) / 0.5) = ln 0.181818 = -1.704748 a
# pair, 2 pairs -3.41 <= -2.94: H0 accepted
$M match --engine1 "$F illegal" --engine2 "$E" --nodes 200 --games 40 \
    --sprt 0,400 --concurrency 1 >"$tmp/out" 2>"$tmp/err"
if grep -q '^SPRT: H0 accepted (LLR -3.41 <= -2.94) after 2 pairs' "$tmp/out" &&
    grep -q '^engine 1: 0 wins, 0 draws, 4 losses$' "$tmp/out"; then ok; else
    bad "sprt H0: $(cat "$tmp/out")"; fi

# --- the shipped openings files: each read and checked by the program
for g in oware omweso gore sadeqa2; do
    f=data/openings/$g.txt
    n=$(grep -c '^[^#]' "$f")
    if [ "$n" -ge 100 ] && grep -q "^# made by: mancala openings $g " "$f"; then ok; else
        bad "$f: $n openings, or no 'made by' line"; fi
    expect_err "openings $g: 1 x 2 games with a bad engine 2" 1 "engine 2 ('false') does not answer 'hello'" \
        $M match --game $g --engine1 "$E" --engine2 false --openings "$f"
done

# --- mancala openings: a small file, each line legal and balanced as the
# analysis of its position says (an independent run of the search)
$M openings oware --count 3 --plies 4 --max-score 50 --depth 6 --seed 7 >"$tmp/o.txt" 2>"$tmp/err"
rc=$?
n=$(grep -c '^[^#]' "$tmp/o.txt")
if [ $rc -eq 0 ] && [ "$n" -eq 3 ]; then ok; else bad "openings: rc=$rc, $n lines: $(cat "$tmp/err")"; fi
grep '^[^#]' "$tmp/o.txt" | while read -r line; do
    # shellcheck disable=SC2086
    pos=$($M apply oware start $line) || { echo "FAILED: opening '$line' illegal" >&2; continue; }
    # analyze prints seeds (-0.60): within 0.50 of 0
    s=$($M analyze oware "$pos" --depth 6 | sed -n 's/^depth 6 score \([-+0-9.]*\) .*/\1/p')
    if [ -z "$s" ] || ! awk -v s="$s" 'BEGIN { exit !(s <= 0.5 && s >= -0.5) }'; then
        echo "FAILED: opening '$line' scores '$s' at depth 6" >&2
        echo x >>"$tmp/ofail"
    fi
done
if [ ! -s "$tmp/ofail" ]; then ok; else bad "openings: lines beyond 50"; fi
$M openings oware --count 3 --plies 4 --max-score 50 --depth 6 --seed 7 >"$tmp/o2.txt" 2>/dev/null
if cmp -s "$tmp/o.txt" "$tmp/o2.txt"; then ok; else bad "openings: not reproducible"; fi
# --playouts only drops lines: with the same seed the random lines are the
# same, so the kept lines are the plain run's in order, and the plain lines
# up to the last one kept are either kept or counted as lopsided
$M openings sadeqa2 --count 6 --plies 6 --max-score 300 --depth 6 --playouts 4 \
    --playout-nodes 300 >"$tmp/p.txt" 2>"$tmp/perr"
rc=$?
$M openings sadeqa2 --count 60 --plies 6 --max-score 300 --depth 6 >"$tmp/q.txt" 2>/dev/null
grep '^[^#]' "$tmp/p.txt" >"$tmp/pl"
grep '^[^#]' "$tmp/q.txt" >"$tmp/ql"
last=$(tail -n 1 "$tmp/pl")
upto=$(grep -n -x -F "$last" "$tmp/ql" | head -n 1 | cut -d: -f1)
lop=$(sed -n 's/.* \([0-9]*\) lopsided in playouts.*/\1/p' "$tmp/perr")
kept=$(wc -l <"$tmp/pl")
if [ $rc -eq 0 ] && [ "$kept" -eq 6 ] && [ -n "$upto" ] && [ -n "$lop" ] &&
   [ $((kept + lop)) -eq "$upto" ] &&
   head -n "$upto" "$tmp/ql" | grep -x -F -f "$tmp/pl" | cmp -s - "$tmp/pl" &&
   grep -q '^# made by: .* --playouts 4 --playout-nodes 300$' "$tmp/p.txt"; then ok
else bad "openings --playouts: rc=$rc kept=$kept lopsided=$lop upto=$upto: $(cat "$tmp/perr")"; fi
$M openings sadeqa2 --count 6 --plies 6 --max-score 300 --depth 6 --playouts 4 \
    --playout-nodes 300 2>/dev/null | cmp -s - "$tmp/p.txt" && ok || bad "openings --playouts: not reproducible"
expect_err "openings: bad option" 2 "unknown option" $M openings oware --bogus 1
expect_err "openings: no game" 2 "which game" $M openings
expect_grep "openings --help" "usage: mancala openings" $M openings --help

finish cli_match.sh
