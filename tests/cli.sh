#!/bin/sh
# tests/cli.sh - the mancala program's scriptable face (rules/README.md):
# exact outputs of moves/apply/perft, help on every command, and clear
# errors (message on stderr, nothing on stdout, exit 1) for bad input.
. tests/lib/harness.sh

# --- moves (O3, O7)
expect_out "moves start" "A B C D E F" $M moves oware
expect_out "moves given start" "A B C D E F" $M moves oware start
expect_out "moves feeding O7" "F" $M moves oware "1,0,0,0,0,1/0,0,0,0,0,0 S cap=23,23"
expect_out "moves none" "" $M moves oware "0,0,0,0,1,0/0,0,0,0,0,0 S cap=23,24"
expect_out "moves awari O6" "f" $M moves oware:awari "1,1,1,1,1,0/0,0,8,0,0,1 N cap=17,17"

# --- apply (O5, O8)
expect_out "apply C" "4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0" $M apply oware start C
expect_out "apply capture chain O5" "0,0,0,1,1,2/0,0,0,0,0,3 N cap=21,20" \
    $M apply oware "0,0,8,0,0,1/1,1,1,1,2,3 S cap=10,20" C
expect_out "apply repetition O8b" "1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23
over draw 24-24" $M apply oware "1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23" A a B b C c D d E e F f
expect_out "apply win25 O8a" "0,0,0,0,0,0/0,0,0,1,1,2 S cap=17,27
over N 17-27" $M apply oware:grand_slam=win25 "1,1,1,1,1,0/0,0,8,0,0,1 N cap=17,17" c
expect_out "apply no moves" "0,0,0,0,1,0/0,0,0,0,0,0 S cap=23,24
over draw 24-24" $M apply oware "0,0,0,0,1,0/0,0,0,0,0,0 S cap=23,24"
expect_out "apply half seeds" "1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23
over draw 24-24" $M apply oware:cycle_split=even "1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23" A a B b C c D d E e F f

expect_out "apply --trace" "1. C
   lifts 4 seeds from C
   drops a seed in D (now 5)
   drops a seed in E (now 5)
   drops a seed in F (now 5)
   drops a seed in a (now 5)
   the last seed falls in a (now 5)
4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0" $M apply --trace oware start C
expect_grep "apply --trace capture" "South captures 3 from e" \
    $M apply --trace oware "0,0,8,0,0,1/1,1,1,1,2,3 S cap=10,20" C
expect_grep "apply --trace grand slam" "grand slam" \
    $M apply --trace oware "1,1,1,1,1,0/0,0,8,0,0,1 N cap=17,17" c
expect_err "apply --trace bad move: nothing on stdout" 1 "move 2 (C)" \
    $M apply --trace oware start C C

# --- perft
expect_out "perft 3" "perft 1 6
perft 2 36
perft 3 190" $M perft oware 3
expect_out "perft from a position" "perft 1 1" $M perft oware 1 "1,0,0,0,0,1/0,0,0,0,0,0 S cap=23,23"

# --- rules, games, help, version
expect_grep "rules oware" "O5 Capture" $M rules oware
expect_grep "rules with options" "O8 End" $M rules oware:awari
expect_grep "games" "grand_slam" $M games
expect_grep "games: Omweso's W16 time modes" "clock blitz:loss" $M games
expect_grep "--help" "usage: mancala" $M --help
expect_grep "--version" "mancala " $M --version
for c in play moves apply perft rules games bench analyze solve selfplay; do
    expect_grep "$c --help" "usage: mancala $c" $M $c --help
done

# --- analyze, bench
expect_grep "analyze finds the win" "depth 1 score win in 1 nodes" \
    $M analyze oware "0,0,0,1,0,1/1,0,0,0,0,1 S cap=24,20" --depth 3
expect_grep "analyze best move" "bestmove F" \
    $M analyze oware "0,0,0,1,0,1/1,0,0,0,0,1 S cap=24,20" --depth 3
expect_grep "analyze a finished game" "over draw 24-24" \
    $M analyze oware "0,0,0,0,1,0/0,0,0,0,0,0 S cap=23,24" --depth 3
expect_err "analyze bad depth" 2 "bad value 'x' for --depth" $M analyze oware --depth x
expect_err "analyze bad option" 2 "unknown option '--deep'" $M analyze oware --deep 3
expect_err "analyze bad position" 1 "bad position" $M analyze oware "1,2" --depth 2
expect_grep "solve a win in one" "South wins with perfect play (forced win in at most 1 plies" \
    $M solve oware "0,0,0,1,0,1/1,0,0,0,0,1 S cap=24,20" --depth 3
expect_grep "solve lists F" "winning moves:.*F" \
    $M solve oware "0,0,0,1,0,1/1,0,0,0,0,1 S cap=24,20" --depth 3
expect_grep "solve without proof" "not proven within depth 3" $M solve oware --depth 3
expect_err "solve bad depth" 2 "bad value" $M solve oware --depth 0
expect_grep "match built-in players" "10 games, A won 10, drew 0, lost 0" \
    $M match --player1 level=10,nodes=3000 --player2 random --games 10
# (make check-wasm sets MANCALA_WASM: a WebAssembly program cannot start
# other programs, and says so.)
if [ -n "${MANCALA_WASM:-}" ]; then
    skip "match engines with Elo" "the WebAssembly build cannot start engines"
    expect_err "match engines refused in WebAssembly" 1 "cannot start engine 1" \
        $M match --engine1 "$M engine" --engine2 "$M engine" --games 2 --depth 3
else
    expect_grep "match engines with Elo" "engine 1 score" \
        $M match --engine1 "$M engine" --engine2 "$M engine" --games 2 --depth 3
fi
expect_err "match built-in missing player" 2 "both" $M match --player1 random
expect_grep "selfplay" "A won" $M selfplay oware --a depth=3 --b random --pairs 2
expect_err "selfplay bad player" 2 "bad player setting" $M selfplay oware --a speed=3
expect_grep "bench rules" "perft 3: 190 leaves" $M bench --game oware --perft 3 --games 10

# --- bad input: message on stderr naming the culprit, nothing on stdout
expect_err "unknown command" 2 "unknown command 'fly'" $M fly
expect_err "no command" 2 "usage" $M
expect_err "unknown game" 1 "unknown game 'chess'" $M moves chess
expect_err "unknown option" 1 "unknown option 'speed'" $M moves oware:speed=3
expect_err "bad option value" 1 "bad value 'often'" $M moves oware:repetition=often
expect_err "empty option list" 1 "nothing after" $M moves oware:
expect_err "bad position" 1 "field 2" $M moves oware "4,4,4,4,4,4/4,4,4,4,4,4 Q cap=0,0"
expect_err "wrong total" 1 "not 48" $M apply oware "4,4,4,4,4,4/4,4,4,4,4,4 S cap=1,0" A
expect_err "short row" 1 "South's houses" $M apply oware "4,4,4/4,4,4,4,4,4 S cap=0,0" A
expect_err "illegal move numbered" 1 "move 2 (A): A is one of South's houses" $M apply oware start A A
expect_err "empty house" 1 "move 3 (A): house A is empty" $M apply oware start A b A
expect_err "not a move" 1 "move 1 (Z): 'Z' is not a move" $M apply oware start Z
expect_err "must feed" 1 "must play a house whose seeds reach" \
    $M apply oware "1,0,0,0,0,1/0,0,0,0,0,0 S cap=23,23" A
expect_err "move after end" 1 "game is over" \
    $M apply oware:grand_slam=win25 "1,1,1,1,1,0/0,0,8,0,0,1 N cap=17,17" c A
expect_err "perft bad depth" 2 "not a whole number" $M perft oware x
expect_err "perft bad position" 1 "bad position" $M perft oware 2 "1,2"
expect_err "apply missing args" 2 "usage" $M apply oware
expect_err "rules unknown" 1 "no rules for 'go'" $M rules go
expect_err "play bad player" 2 "unknown player 'robot'" $M play oware --north robot
expect_err "play unknown option" 2 "unknown option '--fast'" $M play --fast

# --- play: a person at the terminal (piped), and programs on both sides
expect_grep "play narrates a move" "South plays C" sh -c "printf 'C\nquit\n' | $M play oware --north random --seed 1"
expect_grep "play explains wrong side" "one of North's houses" sh -c "printf 'a\nquit\n' | $M play oware"
expect_grep "play explains empty house" "house A is empty" sh -c "printf 'A\na\nA\nquit\n' | $M play oware --north human"
expect_grep "play undo and redo" "North plays a" sh -c "printf 'A\nundo\nredo\na\nquit\n' | $M play oware --north human"
expect_grep "play undo takes back two plies against a program" "South plays B" sh -c "printf 'A\nundo\nB\nquit\n' | $M play oware --seed 3"
expect_grep "play lists moves" "Legal moves: A B C D E F" sh -c "printf 'moves\nquit\n' | $M play oware"
expect_grep "play undo" "Nothing to undo" sh -c "printf 'undo\nquit\n' | $M play oware"
expect_grep "play resign" "North wins" sh -c "printf 'resign\n' | $M play oware"
expect_grep "play end of input" "End of input" sh -c "printf '' | $M play oware"
expect_grep "random game ends" "Game over" $M play oware --south random --north random --seed 7
expect_grep "match bo3" "wins the match" $M play oware:match=bo3 --south random --north random --seed 2
expect_grep "computer plays" "North plays" sh -c "printf 'C\nquit\n' | $M play oware --time 0.05"
expect_grep "you play north" "South plays" sh -c "printf 'quit\n' | $M play oware --you north --level 1 --time 0.05"
expect_err "play bad level" 2 "level takes 1..10" $M play --level 11
expect_err "play bad time" 2 "time takes seconds" $M play --time -1
expect_err "play bad side" 2 "takes south or north" $M play --you east
expect_grep "board shows captures" "captured 0" sh -c "printf 'quit\n' | $M play oware"

# README's examples ("$ ./mancala ..." and the lines they print, in its sh
# blocks) run as written and print what the README shows.
awk '/^```sh$/ {on = 1; next} /^```$/ {on = 0} on' README.md |
    awk -v dir="$tmp" '/^\$ \.\/mancala / {n++; sub(/^\$ \.\/mancala /, ""); print > (dir "/readme." n ".cmd"); next}
        n > 0 {print > (dir "/readme." n ".want")}'
n=0
for c in "$tmp"/readme.*.cmd; do
    [ -f "$c" ] || continue
    n=$((n + 1))
    w=${c%.cmd}.want
    [ -f "$w" ] || : >"$w"
    eval "set -- $(cat "$c")"
    if $M "$@" >"$tmp/readme.out" 2>&1 && cmp -s "$tmp/readme.out" "$w"; then ok; else
        bad "README's example './mancala $(cat "$c")' prints: $(cat "$tmp/readme.out")"
    fi
done
if [ $n -ge 4 ]; then ok; else bad "README has $n examples to run"; fi

finish cli.sh
