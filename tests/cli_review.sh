#!/bin/sh
# tests/cli_review.sh - `mancala analyze --game FILE`, the review of a
# recorded game (docs/WASM.md, "Whole-game analysis"): a move that throws
# a win in one away is a blunder with the winning move named, the winning
# move is none, Omweso's values are chances to win (never seeds), and bad
# input is refused with a message.
. tests/lib/harness.sh

# O5, O8a: from this position C captures 11 seeds and reaches 25 at once
# (tests/protocol/04-search.txt); F is the only other move.
win='0,0,8,0,0,1/1,1,1,1,2,3 S cap=14,16'
printf '[Game "oware"]\n[Start "%s"]\n\n1. F *\n' "$win" >"$tmp/f.mcr"
printf '[Game "oware"]\n[Start "%s"]\n\n1. C 1-0\n' "$win" >"$tmp/c.mcr"
expect_grep "the win thrown away is a blunder, better C" \
    "^1 S F: South wins by force in 1 ply; 100% -> [0-9]*%; blunder, better C$" \
    $M analyze --game "$tmp/f.mcr" --depth 6
expect_grep "the blunder counted" "South: 0 inaccuracies, 0 mistakes, 1 blunder$" \
    $M analyze --game "$tmp/f.mcr" --depth 6
expect_grep "the winning move keeps all" "^1 S C: South wins by force in 1 ply; 100% -> 100%$" \
    $M analyze --game "$tmp/c.mcr" --depth 6
expect_grep "the result told" "South wins 25 to 16" $M analyze --game "$tmp/c.mcr" --depth 6

# Omweso is won by survival: its values are chances to win, not seeds.
printf '[Game "omweso"]\n\n1. I i 2. J j *\n' >"$tmp/o.mcr"
$M analyze --game "$tmp/o.mcr" --nodes 3000 >"$tmp/o.out" 2>/dev/null
if grep -q "% to win\|level" "$tmp/o.out" && ! grep -q "seeds" "$tmp/o.out" &&
    [ "$(grep -c '^[0-9]* [SN] ' "$tmp/o.out")" -eq 4 ]; then ok; else
    bad "omweso review in chances: $(cat "$tmp/o.out")"; fi

# A record of two games: --round picks the second.
cat "$tmp/c.mcr" "$tmp/f.mcr" >"$tmp/two.mcr"
expect_grep "--round 2" "^1 S F:" $M analyze --game "$tmp/two.mcr" --round 2 --depth 4
expect_err "--round past the games" 1 "holds 2 games, not 3" \
    $M analyze --game "$tmp/two.mcr" --round 3
expect_err "a missing file" 1 "nothing.mcr" $M analyze --game "$tmp/nothing.mcr"
printf '[Game "oware"]\n\n1. C C *\n' >"$tmp/bad.mcr"
expect_err "an illegal move in the record" 1 "line 3" $M analyze --game "$tmp/bad.mcr"
expect_err "--game needs a file" 2 "needs a value" $M analyze --game
expect_err "a bad --time" 2 "--time takes seconds" $M analyze --game "$tmp/c.mcr" --time x
expect_grep "--help" "review a recorded game" $M analyze --help
finish cli_review.sh
