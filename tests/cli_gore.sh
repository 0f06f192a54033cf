#!/bin/sh
# cli_gore.sh - the `mancala` tools on Goré (rules/gore.md): moves, apply,
# perft and rules outputs, and clear errors (stderr only, exit status 1)
# for bad positions, moves and options.  Run by `make check` with $MANCALA.
M=${MANCALA:-./mancala}
pass=0
fail=0
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# expect NAME WANT_STDOUT cmd...: exit 0, exactly WANT_STDOUT, empty stderr
expect() {
    name=$1 want=$2
    shift 2
    "$@" >"$out" 2>"$err"
    rc=$?
    if [ $rc -eq 0 ] && [ "$(cat "$out")" = "$want" ] && [ ! -s "$err" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name: status $rc"
        echo "  got:  $(cat "$out")"
        echo "  want: $want"
        [ -s "$err" ] && echo "  stderr: $(cat "$err")"
    fi
}

# reject NAME TEXT cmd...: exit 1, nothing on stdout, TEXT in stderr
reject() {
    name=$1 text=$2
    shift 2
    "$@" >"$out" 2>"$err"
    rc=$?
    if [ $rc -eq 1 ] && [ ! -s "$out" ] && grep -qF -- "$text" "$err"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name: status $rc (want 1)"
        echo "  stdout: $(cat "$out")"
        echo "  stderr: $(cat "$err")"
        echo "  want in stderr: $text"
    fi
}

START='6,6,6,6/6,6,6,6 S own=SSSSNNNN cap=0,0'
EMPTY='0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20'
CYCLE='0,0,0,0/1,1,0,6 N own=SSSSNNNN cap=20,20'
LAP='a pass d A a C b B a C c D c A b B a C c D'

# ---- moves ----
expect "moves start" "A B C D" $M moves gore
expect "moves start string" "A B C D" $M moves gore "$START"
expect "moves first=north" "a b c d" $M moves gore:first=north
expect "moves offers" "offer:A offer:B offer:C offer:D offer:AB offer:AC offer:AD offer:BC offer:BD offer:CD offer:ABC offer:ABD offer:ACD offer:BCD pass" \
    $M moves gore "$EMPTY"
expect "moves trades=off" "pass" $M moves gore:trades=off "$EMPTY"
expect "moves pending offer" "accept refuse" \
    $M moves gore '0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 offer=AC'
expect "moves answered" "A C b d" \
    $M moves gore '6,0,6,0/0,2,0,6 N own=NSNSNNNN cap=20,8 answered'
expect "moves over" "" $M moves gore '0,0,1,1/1,0,0,0 N own=SSSSNNNN cap=28,17'

# ---- apply (the worked examples, trades, G7, G8) ----
expect "apply start A" "0,7,7,7/7,7,7,6 N own=SSSSNNNN cap=0,0" \
    $M apply gore start A
expect "apply example 1" "0,0,1,0/0,0,5,5 N own=SSSSNNNN cap=18,19" \
    $M apply gore '0,4,0,1/1,3,5,5 S own=SSSSNNNN cap=10,19' B
expect "apply example 2" "0,0,1,1/1,0,0,0 N own=SSSSNNNN cap=28,17
over S 30-18" $M apply gore '2,6,0,0/0,1,1,1 S own=SSSSNNNN cap=20,17' B
expect "apply example 3" "2,1,2,1/0,0,1,2 N own=SSSSNNNN cap=19,20
over S 25-23" $M apply gore '1,0,1,9/0,1,0,1 S own=SSSSNNNN cap=15,20' D
expect "apply example 4" "2,1,2,0/2,3,1,2 N own=SSSSNNNN cap=15,20" \
    $M apply gore:skip_origin=on '1,0,1,9/0,1,0,1 S own=SSSSNNNN cap=15,20' D
expect "apply offer" "0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 offer=AC" \
    $M apply gore "$EMPTY" offer:AC
expect "apply accept" "6,0,6,0/0,2,0,6 N own=NSNSNNNN cap=20,8 answered" \
    $M apply gore "$EMPTY" offer:AC accept
expect "apply refuse" "0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 answered" \
    $M apply gore "$EMPTY" offer:AC refuse
expect "apply noglory" "0,0,0,0/1,1,1,0 N own=SSSSNNNN cap=28,17
over S 28-20 noglory" \
    $M apply gore '0,0,0,3/0,0,0,0 N own=SSSSNNNN cap=28,17' offer:a refuse D
# shellcheck disable=SC2086
expect "apply cycle once" "$CYCLE" $M apply gore "$CYCLE" $LAP
# shellcheck disable=SC2086
expect "apply cycle twice" "$CYCLE
over draw 24-24 repetition" $M apply gore "$CYCLE" $LAP $LAP
# shellcheck disable=SC2086
expect "apply cycle owner" "$CYCLE
over N 20-28 repetition" $M apply gore:repetition=owner "$CYCLE" $LAP $LAP

# ---- perft ----
expect "perft 4" "perft 1 4
perft 2 16
perft 3 64
perft 4 241" $M perft gore 4
expect "perft 7 trades=off" "perft 1 4
perft 2 16
perft 3 64
perft 4 241
perft 5 947
perft 6 3609
perft 7 13316" $M perft gore:trades=off 7
# accept: North then sows A C b d (4); refuse: b d (2).
expect "perft from a position" "perft 1 2
perft 2 6" $M perft gore 2 '0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 offer=AC'

# ---- rules, games ----
$M rules gore >"$out" 2>"$err"
if [ $? -eq 0 ] && grep -q "G8 Endless games" "$out" &&
    grep -q "Victory without glory" "$out" && [ ! -s "$err" ]; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL rules gore"
fi
$M games >"$out" 2>"$err"
if [ $? -eq 0 ] && grep -q "^gore" "$out" && grep -q "skip_origin" "$out"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL games lists gore"
fi

# ---- bad input ----
reject "unknown option" "unknown option 'colour'" $M moves gore:colour=red
reject "bad option value" "option trades: bad value 'maybe'" \
    $M moves gore:trades=maybe
reject "short row" "pits A-D" $M moves gore '6,6,6/6,6,6,6,6 S own=SSSSNNNN cap=0,0'
reject "bad side" "field 2 (side to move)" \
    $M moves gore '6,6,6,6/6,6,6,6 X own=SSSSNNNN cap=0,0'
reject "missing own" "field 3" $M moves gore '6,6,6,6/6,6,6,6 S cap=0,0'
reject "bad own letter" "letter 2 is neither S nor N" \
    $M moves gore '6,6,6,6/6,6,6,6 S own=SXSSNNNN cap=0,0'
reject "no pit" "South owns no pit" \
    $M moves gore '6,6,6,6/6,6,6,6 S own=NNNNNNNN cap=0,0'
reject "total" "total 50 stones, not 48" \
    $M apply gore '6,6,6,6/6,6,6,6 S own=SSSSNNNN cap=1,1' A
reject "bad offer field" "may only name pits South owns" \
    $M moves gore '0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 offer=b'
reject "offer too dear field" "but North has only 2" \
    $M moves gore '0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=38,2 offer=A'
reject "trailing text" "field 5" $M moves gore "$START extra"
reject "move not a move" "move 1 (E): 'E' is not a move" $M apply gore start E
reject "opponent's pit" "move 2 (B): pit B is South's" $M apply gore start A B
reject "empty pit" "pit A is empty" \
    $M apply gore '0,6,6,6/6,6,6,12 S own=SSSSNNNN cap=0,0' A
reject "pass with stones" "cannot pass while owning stones" \
    $M apply gore start pass
reject "unaffordable" "would cost North 12 captured stones (6 a pit), but North has only 6" \
    $M apply gore '0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=34,6' offer:AB
reject "cede every pit" "would cede every pit South owns" \
    $M apply gore '0,0,0,0/0,2,0,6 S own=SSNNNNNN cap=20,20' offer:AB
reject "four pits" "an offer is of 1, 2 or 3 pits" \
    $M apply gore "$EMPTY" offer:ABCD
reject "answer first" "answer first with accept" \
    $M apply gore "$EMPTY" offer:AC b
reject "no offer to accept" "there is no offer to accept" \
    $M apply gore start accept
reject "offer after answer" "no offer in the same turn" \
    $M apply gore "$EMPTY" offer:AC refuse offer:b
reject "trades off" "no offers in this game (trades=off)" \
    $M apply gore:trades=off "$EMPTY" offer:A
reject "game over" "the game is over" \
    $M apply gore '2,6,0,0/0,1,1,1 S own=SSSSNNNN cap=20,17' B a
reject "perft bad position" "bad position" $M perft gore 2 'nonsense'

# The words of a capture (issue 44): the last stone lands first, then the
# capture (G4), not the other way round: after A a A b A a, South's B ends
# in North's a, which then holds 2.
expect "trace: landing then capture" "$(printf '   the last stone falls in a (now 2)\n   South captures 2 from a')" \
    sh -c "$M apply --trace gore:trades=off start A a A b A a B | tail -n 3 | head -n 2"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
