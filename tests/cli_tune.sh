#!/bin/sh
# tests/cli_tune.sh - `mancala tune` (docs/SEARCH.md, "Learned
# evaluations"): the data file's lines, a rerun that keeps what is there and
# plays only the missing games (the same games whatever the number of jobs),
# a cut-off last game thrown away, a fit whose weights file the program
# reads back, and clear errors.
. tests/lib/harness.sh

d=$tmp/t.tune
$M tune sadeqa2 gen --games 6 --nodes 300 --jobs 2 --data "$d" 2>"$tmp/err"
rc=$?
games=$(grep -c '^# end ' "$d" 2>/dev/null)
if [ $rc -eq 0 ] && [ "$games" = 6 ]; then ok; else
    bad "gen: rc=$rc, $games games, $(cat "$tmp/err")"; fi
# every position line: RESULT SCORE EXACT POSITION, the position legal
lines=$(grep -v '^#' "$d" | wc -l)
good=$(grep -v '^#' "$d" | grep -cE '^[012] -?[0-9]+ (-|[012]) [0-9,/]+ [NS] ')
if [ "$lines" -gt 20 ] && [ "$lines" = "$good" ]; then ok; else
    bad "gen: $good of $lines lines well formed"; fi
bad_pos=0
grep -v '^#' "$d" | head -20 | while read -r r s e pos; do
    $M moves sadeqa2 "$pos" >/dev/null 2>&1 || echo x
done >"$tmp/badpos"
if [ ! -s "$tmp/badpos" ]; then ok; else bad "gen: positions the program refuses"; fi
# the header says how the data were made
if head -1 "$d" | grep -q '^# gen: mancala tune sadeqa2 gen --games 6 --nodes 300'; then ok; else
    bad "gen header: $(head -1 "$d")"; fi

# the same games from one job, in another file (order aside)
$M tune sadeqa2 gen --games 6 --nodes 300 --jobs 1 --data "$tmp/one.tune" 2>/dev/null
if [ "$(grep -v '^# gen' "$d" | sort | md5sum)" = "$(grep -v '^# gen' "$tmp/one.tune" | sort | md5sum)" ]; then ok; else
    bad "gen: one job and two made different games"; fi

# resume: cut the file inside game 4's block, rerun with 8 games: the cut
# game is made again, 2 more are added, nothing is doubled
cp "$d" "$tmp/full.tune"
n=$(grep -n '^# game ' "$d" | sed -n 5p | cut -d: -f1)
head -n $((n + 2)) "$tmp/full.tune" >"$d"
$M tune sadeqa2 gen --games 8 --nodes 300 --data "$d" 2>"$tmp/err"
rc=$?
games=$(grep -c '^# end ' "$d")
distinct=$(grep '^# end ' "$d" | sort -u | wc -l)
if [ $rc -eq 0 ] && [ "$games" = 8 ] && [ "$distinct" = 8 ] &&
    grep -q 'games already there' "$tmp/err"; then ok; else
    bad "resume: rc=$rc, $games games ($distinct distinct), $(cat "$tmp/err")"; fi
if [ "$(grep -c '^# gen' "$d")" = 1 ]; then ok; else bad "resume: header doubled or lost"; fi

# fit: a weights file the program reads back (MANCALA_EVAL_DIR)
mkdir -p "$tmp/ev"
$M tune sadeqa2 fit --data "$d" --out "$tmp/ev/sadeqa2.txt" --epochs 50 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q 'held-out loss: learned' "$tmp/out" &&
    grep -q '^features 245$' "$tmp/ev/sadeqa2.txt" &&
    grep -q '^# data made by: mancala tune sadeqa2 gen' "$tmp/ev/sadeqa2.txt"; then ok; else
    bad "fit: rc=$rc $(cat "$tmp/out" "$tmp/err")"; fi
MANCALA_EVAL_DIR=$tmp/ev $M analyze sadeqa2 --depth 3 >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q '^bestmove' "$tmp/out" && [ ! -s "$tmp/err" ]; then ok; else
    bad "analyze with fitted weights: $(cat "$tmp/out" "$tmp/err")"; fi
# a broken weights file is refused with its line, and the search goes on
printf 'features 245\n3 x\n' >"$tmp/ev/sadeqa2.txt"
MANCALA_EVAL_DIR=$tmp/ev $M analyze sadeqa2 --depth 3 >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q 'weights line 2' "$tmp/err" && grep -q '^bestmove' "$tmp/out"; then ok; else
    bad "broken weights: $(cat "$tmp/out" "$tmp/err")"; fi

# dump: a line a position, its columns those of the data file, then the
# features; game 9 (every tenth) is the held-out one
$M tune sadeqa2 gen --games 10 --nodes 300 --data "$d" 2>/dev/null
$M tune sadeqa2 dump --data "$d" --out "$tmp/f.txt" 2>"$tmp/err"
rc=$?
grep -v '^#' "$d" | awk '{print $1, $3, $2}' >"$tmp/cols.data"
grep -v '^#' "$tmp/f.txt" | grep -v '^features' | awk '{print $2, $3, $4}' >"$tmp/cols.dump"
held_data=$(awk '/^# game /{g=$3} !/^#/{if (g % 10 == 9) n++} END{print n+0}' "$d")
held_dump=$(grep -c '^1 ' "$tmp/f.txt")
if [ $rc -eq 0 ] && grep -q '^features 245$' "$tmp/f.txt" &&
    cmp -s "$tmp/cols.data" "$tmp/cols.dump" && [ "$held_data" -gt 0 ] &&
    [ "$held_data" = "$held_dump" ] &&
    [ "$(grep -v '^#' "$tmp/f.txt" | grep -v '^features' | grep -cvE '^[01] [012] [-012] -?[0-9]+( [0-9]+:-?[0-9]+)+$')" = 0 ]; then ok; else
    bad "dump: rc=$rc, held $held_data/$held_dump, $(cat "$tmp/err")"; fi
# tools/net-fit.py fits both models to the dump (Debian's python3-numpy)
/usr/bin/python3 tools/net-fit.py "$tmp/f.txt" --epochs 2 --hidden 4 >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q '^held-out loss, linear: 0\.[0-9]' "$tmp/out" &&
    grep -q '^epoch 2: held-out loss, network (4 hidden): [0-9]' "$tmp/out"; then ok; else
    bad "net-fit: $(cat "$tmp/out" "$tmp/err")"; fi

expect_err "unknown step" 2 "is not gen, fit, all or dump" $M tune oware train
expect_err "bad value" 2 "bad option or value" $M tune oware gen --games 0
expect_err "unknown game" 1 "unknown game" $M tune chess gen --games 1 --data "$tmp/x"
printf '1 2 - not-a-position\n' >"$tmp/bad.tune"
expect_err "bad data line" 1 "bad.tune:1" $M tune oware fit --data "$tmp/bad.tune" --out "$tmp/w.txt"
finish cli_tune.sh
