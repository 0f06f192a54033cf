#!/bin/sh
# cli_sadeqa2.sh - the `mancala` tools on Sadeqa II: moves, apply, perft,
# rules, and clear errors (stderr only, exit 1) for bad input.
# usage: MANCALA=./mancala sh tests/cli_sadeqa2.sh
M=${MANCALA:-./mancala}
pass=0
fail=0
tmp=${TMPDIR:-/tmp}/cli_sadeqa2.$$
trap 'rm -f "$tmp.out" "$tmp.err"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# expect_out WANT CMD...: exit 0, stdout exactly WANT, stderr empty
expect_out() {
    want=$1
    shift
    "$M" "$@" >"$tmp.out" 2>"$tmp.err"
    rc=$?
    got=$(cat "$tmp.out")
    if [ $rc -eq 0 ] && [ "$got" = "$want" ] && [ ! -s "$tmp.err" ]; then
        ok
    else
        bad "$* -> rc $rc, got '$got', want '$want'"
    fi
}

# expect_err TEXT CMD...: exit 1, nothing on stdout, TEXT on stderr
expect_err() {
    text=$1
    shift
    "$M" "$@" >"$tmp.out" 2>"$tmp.err"
    rc=$?
    if [ $rc -eq 1 ] && [ ! -s "$tmp.out" ] &&
        grep -F -q -- "$text" "$tmp.err"; then
        ok
    else
        bad "$* -> rc $rc, stdout '$(cat "$tmp.out")', stderr '$(cat "$tmp.err")', want '$text'"
    fi
}

START='3,3,3,3,3,3/3,3,3,3,3,3 S first=SN'
EX2='0,4,4,0,0,1/5,5,1,4,4,4 N first=N'
NEVER='1,3,1,0,1,0/1,0,1,0,1,0 S first=-'

# moves
expect_out 'F' moves sadeqa2
expect_out 'F' moves sadeqa2 start
expect_out 'F' moves sadeqa2 "$START"
expect_out 'f' moves sadeqa2:first=north
expect_out 'A C E' moves sadeqa2 "$NEVER"
expect_out 'C F' moves sadeqa2:first_rule=none '0,0,1,0,0,1/0,0,0,1,0,0 S first=SN'
expect_out '' moves sadeqa2 '0,0,0,0,0,0/0,0,1,0,0,0 S first=-'

# apply: the worked examples, and the over line
expect_out "$EX2" apply sadeqa2 start F
expect_out '1,5,5,1,0,1/5,5,0,4,4,0 S first=-' apply sadeqa2 "$EX2" f
expect_out '1,5,5,1,0,1/5,5,0,4,4,0 S first=-' apply sadeqa2 start F f
expect_out '0,0,0,0,0,1/0,0,0,0,0,0 N first=-
over S nomove' apply sadeqa2 '0,0,0,0,1,0/1,0,0,0,0,0 S first=-' E
expect_out '1,0,0,1,1,0/1,0,0,0,0,0 S first=-
over draw repetition' apply sadeqa2 '1,0,0,1,1,0/1,0,0,0,0,0 S first=-' \
    D b F d B f D b F d B f
expect_out '1,0,0,1,1,0/1,0,0,0,0,0 S first=-
over S repetition' apply sadeqa2:repetition=more_seeds \
    '1,0,0,1,1,0/1,0,0,0,0,0 S first=-' D b F d B f D b F d B f
expect_out '2,1,2,1,5,0/1,5,0,5,0,1 N first=-' apply sadeqa2 \
    '4,2,1,5,1,0/8,0,2,1,0,3 S first=-' A

# perft (depths 1-3 by hand)
expect_out 'perft 1 1
perft 2 1
perft 3 5
perft 4 21
perft 5 101
perft 6 443' perft sadeqa2 6
# By hand: A (B 4: relay 4 into C D E F, F empty; a removed) leaves North
# c and e; C (into D; c removed) leaves a and e; E (into F; a removed)
# leaves c and e; each a single seed into an empty hole: 2 + 2 + 2.
expect_out 'perft 1 3
perft 2 6' perft sadeqa2 2 "$NEVER"

# rules: the embedded rule file
"$M" rules sadeqa2 >"$tmp.out" 2>"$tmp.err"
if [ $? -eq 0 ] && grep -q 'S5 Never-ending sowing' "$tmp.out" &&
    grep -q 'recurs after 72 laps' "$tmp.out"; then ok; else bad "rules sadeqa2"; fi
"$M" rules sadeqa2:skip_origin=on >"$tmp.out" 2>"$tmp.err"
if [ $? -eq 0 ] && grep -q '^# Sadeqa II' "$tmp.out"; then ok; else bad "rules sadeqa2:opts"; fi
"$M" games >"$tmp.out" 2>"$tmp.err"
if grep -q '^sadeqa2$' "$tmp.out" && grep -q 'skip_origin' "$tmp.out"; then ok; else bad "games lists sadeqa2"; fi

# bad input: clear message on stderr, nothing on stdout, status 1
expect_err 'move 1 (B): sowing B never ends: the lap-start state recurs after 72 laps' \
    apply sadeqa2 "$NEVER" B
expect_err 'move 1 (A): this is South' apply sadeqa2 start A
expect_err 'must be from F, the rightmost hole' apply sadeqa2 start A
# the rule in words, not the option's internal name (issue 44)
expect_err 'sown (S2) (legal: F)' apply sadeqa2 start A
expect_err 'move 2 (F): F is one of South' apply sadeqa2 start F F
expect_err "move 1 (Q): 'Q' is not a move" apply sadeqa2 start Q
expect_err 'move 3 (E): hole E is empty' apply sadeqa2 start F f E
expect_err 'the game is over' apply sadeqa2 '0,0,0,0,1,0/1,0,0,0,0,0 S first=-' E a
expect_err "unknown option 'laps'" moves sadeqa2:laps=3
expect_err "option stuck: bad value 'lose'" moves sadeqa2:stuck=lose
expect_err "option first_rule: bad value 'x'" apply sadeqa2:first_rule=x start F
expect_err "unknown game 'sadeqa3'" moves sadeqa3
expect_err "North's holes (field 1)" moves sadeqa2 '3,3,3,3,3,3/3,3,3 S first=SN'
expect_err 'field 2 (side to move)' moves sadeqa2 '3,3,3,3,3,3/3,3,3,3,3,3 W first=SN'
expect_err 'field 3 (first=<SN|S|N|->) is missing' apply sadeqa2 '3,3,3,3,3,3/3,3,3,3,3,3 S' F
expect_err "field 3 (first=): bad value 'X'" perft sadeqa2 2 '3,3,3,3,3,3/3,3,3,3,3,3 S first=X'
expect_err 'at most 36' moves sadeqa2 '9,9,9,9,0,0/0,0,0,0,0,1 S first=-'
expect_err 'no seeds' moves sadeqa2 '0,0,0,0,0,0/0,0,0,0,0,0 S first=-'

# One seed leaves, two leave (issue 44: "the 1 seed in c ... leave").
if $M apply --trace sadeqa2 start F f | grep -qx '   the 1 seed in c, facing the last hole, leaves the game'; then ok; else
    bad "the words of a one-seed removal"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
