#!/bin/sh
# cli_omweso.sh - `mancala moves|apply|perft|rules` on Omweso, and the
# errors for bad input: a message on stderr, nothing on stdout, status 1.
# usage: MANCALA=./mancala sh tests/cli_omweso.sh
M=${MANCALA:-./mancala}
out=${TMPDIR:-/tmp}/cli_omweso.$$.out
err=${TMPDIR:-/tmp}/cli_omweso.$$.err
trap 'rm -f "$out" "$err"' EXIT INT TERM
passed=0
failed=0

report_fail() {
    failed=$((failed + 1))
    printf 'FAIL: %s\n' "$1" >&2
}

# same EXPECTED ARGS...: status 0, stdout EXPECTED, stderr empty.
same() {
    expected=$1
    shift
    "$M" "$@" >"$out" 2>"$err"
    status=$?
    actual=$(cat "$out")
    if [ "$status" -eq 0 ] && [ "$actual" = "$expected" ] && [ ! -s "$err" ]
    then
        passed=$((passed + 1))
    else
        report_fail "mancala $*: status $status, stdout '$actual', stderr '$(cat "$err")'; expected '$expected'"
    fi
}

# refused TEXT ARGS...: status 1, stdout empty, TEXT in stderr.
refused() {
    text=$1
    shift
    "$M" "$@" >"$out" 2>"$err"
    status=$?
    if [ "$status" -eq 1 ] && [ ! -s "$out" ] &&
        grep -F -q -e "$text" "$err"; then
        passed=$((passed + 1))
    else
        report_fail "mancala $*: status $status, stdout '$(cat "$out")', stderr '$(cat "$err")'; expected '$text'"
    fi
}

START='4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0,0'
WERNHAM='3,0,0,0,4,0,0,0,1,0,1,0,0,1,0,0/4,8,2,8,8,3,7,7,0,0,2,0,0,3,0,2 S first=- captures=1,1'
NEVER='0,1,0,1,0,1,0,1,0,1,0,1,0,1,3,1/7,7,7,7,7,6,6,6,0,0,0,0,0,0,0,0 S first=- captures=0,0'

# moves
same 'I J K L M N O P' moves omweso
same 'I J K L M N O P' moves omweso "$START"
same 'I J K L M N O P H G F E D C B A' moves omweso:setup=all2
same 'I I- M' moves omweso "$WERNHAM"
same 'I M' moves omweso:reverse=none "$WERNHAM"
same 'B B*' moves omweso "$NEVER"

# apply: the worked examples of the rule file
same '0,5,5,5,0,5,5,5,1,1,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 N first=N captures=0,0' \
    apply omweso start I
same '3,0,0,0,0,3,3,3,4,0,3,1,0,1,0,0/0,8,0,8,8,3,7,7,0,0,2,0,0,0,0,0 N first=- captures=2,1' \
    apply omweso "$WERNHAM" M
same '0,1,1,1,5,1,0,0,1,0,1,0,0,2,1,1/4,8,2,8,8,0,7,7,0,0,0,0,0,3,0,2 N first=- captures=2,1' \
    apply omweso "$WERNHAM" I-
same "$NEVER
over draw annulled never_ending" apply omweso "$NEVER" B
same '0,5,5,5,0,5,5,5,1,1,0,0,0,0,0,0/0,5,5,5,0,5,5,5,1,1,0,0,0,0,0,0 S first=- captures=0,0
over draw annulled max_plies' apply omweso:max_plies=2 start I i

# perft: depths 1 and 2 by hand (8 first moves, 8 replies); 3 and 4 also
# from the naive reference generator in tests/test_omweso.c.
same 'perft 1 8
perft 2 64
perft 3 420' perft omweso 3
same 'perft 1 16
perft 2 256' perft omweso:setup=all2 2
# B annuls (no children); after B* North has its 8 outer pits to play,
# none of whose clockwise laps could capture (they end facing B=0, K=0).
same 'perft 1 2
perft 2 8' perft omweso 2 "$NEVER"

# rules: the rule file, as text
"$M" rules omweso >"$out" 2>"$err"
if [ $? -eq 0 ] && grep -q 'W13 Never-ending moves' "$out" && [ ! -s "$err" ]
then passed=$((passed + 1)); else report_fail 'mancala rules omweso'; fi

# bad input
refused 'expected 16 comma-separated seed counts' moves omweso '4,4/4 S first=SN captures=0,0'
refused 'not 64' moves omweso '4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,1 S first=SN captures=0,0'
refused "field 3 (first=)" apply omweso '4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=x captures=0,0' I
refused 'field 4' perft omweso 1 '4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN'
refused "unknown option 'colour'" moves omweso:colour=red
refused "bad value 'sometimes'" moves omweso:akakyala=sometimes
refused 'move 1 (Z)' apply omweso start Z
refused 'is not a move' apply omweso start 'I?'
refused "one of North's pits" apply omweso start i
refused 'move 2 (I)' apply omweso start I I
refused 'first turn (W9)' apply omweso start I-
refused 'four leftmost pits' apply omweso "$WERNHAM" M-
refused 'holds 0 seeds' apply omweso "$WERNHAM" J
refused 'needs exactly 3 seeds' apply omweso start K*
refused 'game is over' apply omweso "$NEVER" B B

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
