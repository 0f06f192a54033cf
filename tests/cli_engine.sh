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
finish cli_engine.sh
