#!/bin/sh
# tests/cli_book.sh - `mancala book`: the built-in book at the start, a book
# file's moves (the whole output), "not in book", the errors; `mancala book
# build`: a small build, its errors, and builds that go on from their file
# (after their budget, after SIGINT) and give the same book as one run.
. tests/lib/harness.sh

expect_grep "the built-in book" "^book: built in, oware, [0-9]* positions" \
    $M book
expect_grep "show is the default command" \
    "^position: 4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 (South to move)$" $M book show
expect_grep "the start is in it, with its line" "^book line: [A-F] [a-f]" \
    $M book
expect_grep "a position far from the start" "^not in book$" \
    $M book '1,1,1,1,1,0/0,0,8,0,0,1 S cap=17,17'
expect_grep "a position in words" "^not in book$" \
    $M book 1,1,1,1,1,0/0,0,8,0,0,1 S cap=17,17
expect_out "a book file at the start" "book: tests/book/small.book, oware, 2 positions
position: 4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 (South to move)
  move  score     depth
  C     +0.10     9
  B     +0.00     8
  E     -0.05     8
  F     -0.30     8
  A     -0.50     8
  D     -0.60     9
book line: C b" $M book --book tests/book/small.book
expect_out "after moves" "book: tests/book/small.book, oware, 2 positions
position: 4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0 (North to move)
  move  score     depth
  b     +1.50     8
  a     +0.30     7
book line: b" $M book show --book tests/book/small.book --moves C
expect_grep "out of a book file" "^not in book$" \
    $M book --book tests/book/small.book --moves C b
expect_err "a bad line" 1 "tests/book/bad.book:4: move 'b': b is one of North's" \
    $M book --book tests/book/bad.book
expect_err "a missing book" 1 "nothing.book: No such file" \
    $M book --book "$tmp/nothing.book"
expect_err "an illegal move" 1 "move 2 'C': " $M book --moves C C
expect_err "a bad position" 1 "bad position" $M book 4,4,4
expect_err "no book for other games" 1 "no book is built in for omweso" \
    $M book --game omweso
expect_err "a book of another variant" 1 "is a book of oware, not oware:" \
    $M book --book tests/book/small.book --game oware:awari
expect_err "an unknown option" 2 "unknown option '--fast'" $M book --fast
expect_grep "help" "usage: mancala book" $M book --help
expect_grep "build help" "drop-out expansion" $M book build --help

# ---- play and serve ----
# at level 10 the computer opens with the book's best move (variety 0),
# at once: not after the 5 s a search would take
best=$($M book | sed -n 's/^  \([A-F]\) .*/\1/p' | head -1)
t0=$(date +%s.%N)
expect_grep "play opens from the book" "South plays $best:" sh -c \
    "printf 'quit\n' | $M play --plain --you north --level 10 --book-variety 0 --time 5"
t1=$(date +%s.%N)
if awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a < 3) }'; then ok; else
    bad "the book's move took $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') s"
fi
expect_grep "play --no-book searches" "South plays [A-F]:" sh -c \
    "printf 'quit\n' | $M play --plain --you north --level 10 --no-book --time 0.05"
expect_err "play: a bad variety" 2 "book-variety takes 0..10000" \
    $M play --book-variety x
expect_err "serve: a bad variety" 2 "book-variety takes 0..10000" \
    $M serve --book-variety 10001
expect_grep "serve's help" "no-book" $M serve --help

# ---- build ----
B="$M book build --depth 4 --hash 1 --quiet"
expect_out "a small build" "" $B --positions 3 --out "$tmp/a.book"
expect_grep "it is a book with the start" "^book line: " \
    $M book --book "$tmp/a.book"
n=$(grep -c '|' "$tmp/a.book")
if [ "$n" -eq 3 ]; then ok; else bad "3 positions asked, $n written"; fi
if grep -q '^leaf depth 4$' "$tmp/a.book" &&
    grep -q '^# built by: mancala book build --depth 4' "$tmp/a.book"; then
    ok
else
    bad "the header: $(head -8 "$tmp/a.book")"
fi
# going on to 7 positions gives the book a single run to 7 makes
$M book build --depth 4 --hash 1 --positions 7 --out "$tmp/a.book" \
    2>"$tmp/err" >/dev/null
if grep -q "going on from $tmp/a.book: 3 positions" "$tmp/err"; then ok; else
    bad "no 'going on': $(cat "$tmp/err")"
fi
$B --positions 7 --out "$tmp/b.book"
if [ "$(grep -v '^#' "$tmp/a.book")" = "$(grep -v '^#' "$tmp/b.book")" ]; then
    ok
else
    bad "a build in two runs differs from one: $(diff "$tmp/a.book" "$tmp/b.book")"
fi
expect_err "nothing to do" 0 "7 positions (nothing to do)" \
    $M book build --depth 4 --hash 1 --positions 7 --out "$tmp/a.book"
expect_err "another leaf budget" 1 "built with leaves searched to depth 4, not depth 5" \
    $M book build --depth 5 --positions 9 --out "$tmp/a.book"
expect_err "another variant" 1 "is a book of oware, not oware:" \
    $M book build --depth 4 --game oware:awari --out "$tmp/a.book"
cp tests/book/bad.book "$tmp/bad.book"
expect_err "a bad file is not overwritten" 1 "bad.book:4: move 'b'" \
    $M book build --depth 4 --out "$tmp/bad.book"
if cmp -s tests/book/bad.book "$tmp/bad.book"; then ok; else
    bad "the bad file was changed"; fi
expect_err "a book not made by build" 1 "has no 'leaf' line" \
    $M book build --depth 4 --out tests/book/small.book
expect_err "no such directory" 1 "cannot create a temporary file" \
    $M book build --depth 4 --out "$tmp/no/such/dir.book"
expect_err "both budgets" 2 "give --depth or --movetime, not both" \
    $M book build --depth 4 --movetime 10
expect_err "no positions" 2 "--positions takes a whole number from 1" \
    $M book build --positions 0
expect_err "a bad depth" 2 "--depth takes a whole number from 1 to 64, not 'x'" \
    $M book build --depth x
expect_err "an unknown argument" 2 "unknown argument '--fast'" \
    $M book build --fast
expect_err "a missing value" 2 "--out needs a value" $M book build --out
# by time: the leaves' budget is written down
expect_out "a build by time" "" $M book build --movetime 5 --hash 1 \
    --positions 1 --quiet --out "$tmp/t.book"
if grep -q '^leaf movetime 5$' "$tmp/t.book"; then ok; else
    bad "leaf movetime: $(head -8 "$tmp/t.book")"; fi
# stopped by SIGINT: saved, exit 130, and the same command goes on
$M book build --depth 6 --hash 1 --positions 100000 --save-every 600 \
    --out "$tmp/c.book" 2>"$tmp/err" &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
rc=$?
held=$(sed -n 's/.*stopped: .* holds \([0-9]*\) positions.*/\1/p' "$tmp/err")
if [ $rc -eq 130 ] && [ -n "$held" ] && [ "$held" -ge 1 ] &&
    [ "$(grep -c '|' "$tmp/c.book")" -eq "$held" ]; then ok; else
    bad "SIGINT: rc=$rc held='$held' $(tail -2 "$tmp/err")"
fi
more=$((held + 2))
$M book build --depth 6 --hash 1 --positions $more --out "$tmp/c.book" \
    2>"$tmp/err" >/dev/null
if grep -q "going on from $tmp/c.book: $held positions" "$tmp/err" &&
    [ "$(grep -c '|' "$tmp/c.book")" -eq $more ]; then ok; else
    bad "after SIGINT: $(cat "$tmp/err")"
fi
finish cli_book.sh
