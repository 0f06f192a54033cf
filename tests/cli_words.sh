#!/bin/sh
# tests/cli_words.sh - the line-mode outputs players read (play --plain,
# replay) say moves and results in words, never in the codes of records
# and tools (issue 22): no "offer:a", "plays pass", "45-3 noglory",
# "nomove", "resign (resignation)".  The end-of-game sentence is checked
# against the game record the same run saved (its Result and Detail tags,
# written by the record code, not by the sentence's).
. tests/lib/harness.sh

# codes FILE: the internal codes a player must not see, found in FILE
codes() {
    grep -nE 'offer:[A-Za-z]|plays (offer|accept|refuse|pass)|noglory|nomove|\(resignation\)|over [SN] |over draw|annulled [a-z_]+$' "$1"
}

# sentence FILE RECORD: the "Game over" line of FILE against the record's
# tags: the winner from Result, the scores (winner's first) from Detail
sentence() {
    res=$(sed -n 's/^\[Result "\(.*\)"\]$/\1/p' "$2")
    det=$(sed -n 's/^\[Detail "\([0-9.]*\)-\([0-9.]*\).*"\]$/\1 \2/p' "$2")
    set -- $det
    case $res in
    1-0) want="Game over: South wins $1 to $2" ;;
    0-1) want="Game over: North wins $2 to $1" ;;
    *) want="Game over: Draw $1 to $2" ;;
    esac
    echo "$want"
}

# Goré: offers, refusals and passes, and victories without glory (G6, G7)
offers=0 glory=0
for seed in 1 2 3 4; do
    $M play gore --south random --north random --seed $seed --plain \
        --save "$tmp/g$seed.mcr" </dev/null >"$tmp/g$seed.txt" 2>"$tmp/err"; rc=$?
    [ $rc -eq 0 ] && ok || bad "gore seed $seed: rc=$rc $(cat "$tmp/err")"
    c=$(codes "$tmp/g$seed.txt")
    [ -z "$c" ] && ok || bad "play gore seed $seed shows codes: $c"
    grep -q " offers " "$tmp/g$seed.txt" && offers=$((offers + 1))
    grep -q "^Game over: .*A victory without glory: \(South\|North\) refused an offer\.$" \
        "$tmp/g$seed.txt" && glory=$((glory + 1))
    want=$(sentence "$tmp/g$seed.txt" "$tmp/g$seed.mcr")
    grep -q "^$want: " "$tmp/g$seed.txt" && ok ||
        bad "gore seed $seed: want '$want', got '$(grep '^Game over' "$tmp/g$seed.txt")'"
    # the record says noglory exactly when the sentence says so
    if grep -q '^\[Detail ".*noglory' "$tmp/g$seed.mcr"; then
        grep -q "without glory" "$tmp/g$seed.txt" && ok || bad "gore seed $seed: noglory not told"
    else
        grep -q "without glory" "$tmp/g$seed.txt" && bad "gore seed $seed: glory told wrongly" || ok
    fi
    $M replay "$tmp/g$seed.mcr" >"$tmp/r$seed.txt" 2>"$tmp/err" && ok || bad "replay gore $seed: $(cat "$tmp/err")"
    c=$(codes "$tmp/r$seed.txt")
    [ -z "$c" ] && ok || bad "replay gore seed $seed shows codes: $c"
    grep -q "^$want: " "$tmp/r$seed.txt" && ok || bad "replay gore seed $seed: no '$want'"
done
# the checks above saw what they look for
[ $offers -ge 2 ] && ok || bad "only $offers gore games with offers: the test checks nothing"
[ $glory -ge 1 ] && ok || bad "no gore game ended as a victory without glory"

# Oware and Sadeqa II: the scores, and "no legal move" (S7) in words
for g in oware sadeqa2; do
    $M play $g --south random --north random --seed 1 --plain \
        --save "$tmp/$g.mcr" </dev/null >"$tmp/$g.txt" 2>"$tmp/err"
    c=$(codes "$tmp/$g.txt")
    [ -z "$c" ] && ok || bad "play $g shows codes: $c"
    grep -q '^Game over: [A-Z]' "$tmp/$g.txt" && ok || bad "play $g: no end sentence"
done
want=$(sentence "$tmp/oware.txt" "$tmp/oware.mcr")
grep -q "^$want: " "$tmp/oware.txt" && ok || bad "oware: want '$want': $(grep '^Game over' "$tmp/oware.txt")"
if grep -q '^\[Termination "nomove"\]' "$tmp/sadeqa2.mcr"; then
    grep -q "^Game over: .* wins: .* has no legal move\.$" "$tmp/sadeqa2.txt" && ok ||
        bad "sadeqa2 nomove: $(grep '^Game over' "$tmp/sadeqa2.txt")"
fi

# resigning (a person at the line mode)
printf 'resign\n' | $M play oware --south human --north random --plain >"$tmp/res.txt" 2>&1
grep -q "Game over: North wins: South resigned\.$" "$tmp/res.txt" && ok ||
    bad "resign: $(grep 'Game over' "$tmp/res.txt")"
c=$(codes "$tmp/res.txt")
[ -z "$c" ] && ok || bad "resign shows codes: $c"

# Omweso: points in words
$M play omweso:match=single --south random --north random --seed 1 --plain </dev/null >"$tmp/om.txt" 2>&1
grep -q "^Game over: \(South\|North\) wins [0-9]* points\?: \|^Game over: The game is annulled: " "$tmp/om.txt" && ok ||
    bad "omweso: $(grep 'Game over' "$tmp/om.txt")"
c=$(codes "$tmp/om.txt")
[ -z "$c" ] && ok || bad "play omweso shows codes: $c"

# solve on a finished position: South takes its last seed (O8c), 24-24
expect_grep "solve: a finished game in words" \
    "^the game is over: Draw 24 to 24: the player to move has no legal move" \
    $M solve oware "0,0,0,0,1,0/0,0,0,0,0,0 S cap=23,24"

finish cli_words.sh
