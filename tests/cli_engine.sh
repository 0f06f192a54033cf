#!/bin/sh
# tests/cli_engine.sh - `mancala engine` as a process: it leaves within a
# second of the end of its input whatever the search's limits (a reader
# that stops reading, `| head -1`, must not leave it searching), and a
# bounded search that ends sooner still reports its move.
. tests/lib/harness.sh

# seconds since the epoch with fractions (date +%s.%N is GNU: Debian's)
now() { date +%s.%N; }
within() { # within DESC LIMIT CMD: the command ends within LIMIT seconds
    desc=$1 limit=$2
    shift 2
    t0=$(now)
    "$@" >"$tmp/out" 2>"$tmp/err"
    t1=$(now)
    if awk -v a="$t0" -v b="$t1" -v l="$limit" 'BEGIN { exit !(b - a < l) }'; then
        ok
    else
        bad "$desc: took $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') s (limit $limit s)"
    fi
}

# (set book off: the opening book would answer at the start at once)
within "go depth 64, input closed, output cut" 1.5 \
    sh -c "printf 'set book off\ngo depth 64\n' | $M engine | head -1"
within "go nodes 10^12, input closed" 1.5 \
    sh -c "printf 'set book off\ngo nodes 1000000000000\n' | $M engine"
if grep -q '^bestmove [A-F]$' "$tmp/out"; then ok; else
    bad "the stopped search still answers: $(tail -1 "$tmp/out")"
fi
within "go infinite, input closed" 1.5 \
    sh -c "printf 'go infinite\n' | $M engine"
if grep -q '^bestmove [A-F]$' "$tmp/out"; then ok; else
    bad "the infinite search answers at the end of input: $(tail -1 "$tmp/out")"
fi
# a short bounded search finishes: its last info line is its depth
expect_grep "go depth 3 finishes after the end of input" "info depth 3 " \
    sh -c "printf 'set book off\ngo depth 3\n' | $M engine"
# with the book, the move comes from it at once
expect_grep "the book answers at the start" "^info book score " \
    sh -c "printf 'go depth 3\n' | $M engine"
# First use (issue 46): with no tables in the default places the engine
# builds the small set on a thread of its own (MANCALA_EGDB_FIRST_SEEDS=5
# here, to keep the test fast) and answers meanwhile; the searches after
# the build use the tables: their principal variation runs on past the
# depth (the tables' line to the end), which a search without tables never
# does.
END="0,0,0,1,1,2/0,0,0,0,1,0 S cap=20,23"
# wait_for PATTERN FILE N: until FILE holds PATTERN, at most N tenths of a
# second
wait_for() {
    i=0
    while [ $i -lt "$3" ] && ! grep -q "$1" "$2" 2>/dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
}
first="env -u MANCALA_EGDB_DIR XDG_DATA_HOME=$tmp/first MANCALA_EGDB_FIRST_SEEDS=5"
pv_len() { sed -n 's/^info depth 1 .* pv //p' "$1" | tail -1 | wc -w; }
printf 'set book off\nposition %s\ngo depth 1\n' "$END" |
    $M engine >"$tmp/none.out" 2>"$tmp/none.err"
if [ "$(pv_len "$tmp/none.out")" -eq 1 ]; then ok; else
    bad "without tables the line is the depth's: $(cat "$tmp/none.out")"
fi
{
    printf 'set book off\nposition %s\ngo depth 1\n' "$END"
    wait_for "done in" "$tmp/first.err" 200 # the build's last line
    printf 'go depth 1\n'
} | $first $M engine >"$tmp/first.out" 2>"$tmp/first.err"
if grep -q "^Building Oware endgame tables (layers 0-5, first use only) \.\.\. done in .* ($tmp/first/mancala/egdb)$" "$tmp/first.err" &&
    [ -f "$tmp/first/mancala/egdb/oware-abapa-05.egdb" ]; then ok; else
    bad "the engine's first use builds the set: $(cat "$tmp/first.err")"
fi
if [ "$(grep -c '^bestmove' "$tmp/first.out")" -eq 2 ] && [ "$(pv_len "$tmp/first.out")" -gt 1 ]; then ok; else
    bad "the search after the build uses the tables: $(cat "$tmp/first.out")"
fi
# A second start finds them: no build, the first search uses them.
printf 'set book off\nposition %s\ngo depth 1\n' "$END" |
    $first $M engine >"$tmp/again.out" 2>"$tmp/again.err"
if [ ! -s "$tmp/again.err" ] && [ "$(pv_len "$tmp/again.out")" -gt 1 ]; then ok; else
    bad "a second start uses the tables at once: $(cat "$tmp/again.out" "$tmp/again.err")"
fi
# A search during the build (layers 0-10, a few seconds) is not held up
# by it: once the build has started, `go movetime 200` answers with its
# last line at most a second after the command came (the engine's own
# clock); quitting ends the build.
{
    wait_for "Building" "$tmp/big.err" 100
    printf 'set book off\ngo movetime 200\n'
} | env -u MANCALA_EGDB_DIR XDG_DATA_HOME="$tmp/big" $M engine >"$tmp/big.out" 2>"$tmp/big.err"
t=$(sed -n 's/^info depth .* time \([0-9]*\) .*/\1/p' "$tmp/big.out" | tail -1)
if grep -q '^bestmove [A-F]$' "$tmp/big.out" && grep -q "Building Oware endgame tables (layers 0-10" "$tmp/big.err" &&
    [ -n "$t" ] && [ "$t" -le 1000 ]; then ok; else
    bad "the first go beside the build: $(cat "$tmp/big.out" "$tmp/big.err")"
fi
finish cli_engine.sh
