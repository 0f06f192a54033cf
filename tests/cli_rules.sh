#!/bin/sh
# tests/cli_rules.sh - `mancala rules` for players: every game's numbered
# rules are printed (read here from the rule files themselves), the notes
# addressed to implementers (source files, what a parser accepts, how to
# detect cycles, perft figures) are not, and the output ends with where the
# beginner's page is; `mancala rules --list` names the games that have rules.
. tests/lib/harness.sh

# The games with rule files, from the files (not from the program).
games=$(ls docs/rules/*.md | sed 's|.*/||; s|\.md$||' | sort)
[ -n "$games" ] && ok || bad "no rule files in docs/rules"
got=$($M rules --list 2>"$tmp/err" | sort)
[ "$got" = "$games" ] && ok || bad "rules --list: '$got', want '$games'"

for g in $games; do
    md=docs/rules/$g.md
    $M rules "$g" >"$tmp/$g.txt" 2>"$tmp/err"; rc=$?
    [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && ok || bad "rules $g: rc=$rc $(cat "$tmp/err")"
    # the file does name its sources: the test below can fail
    grep -q 'seeds/' "$md" && ok || bad "$md no longer names a source file: update this test"
    for w in 'seeds/' 'Source text' 'A parser' 'Beware the cost' 'Detect it' \
        'Detect this' 'Brent' 'OpenSpiel' 'perft' 'Result line' 'over <S'; do
        if grep -q "$w" "$tmp/$g.txt"; then
            bad "rules $g shows an implementer's note: $(grep "$w" "$tmp/$g.txt" | head -1)"
        else ok; fi
    done
    # every numbered rule, with the first line of its text, Markdown removed
    grep -o '^- \*\*[A-Z][0-9][0-9]*[a-z]* [^*]*\*\*.*' "$md" |
        sed 's/^- //; s/\*\*//g; s/`//g' >"$tmp/$g.rules"
    n=$(wc -l <"$tmp/$g.rules")
    [ "$n" -ge 7 ] && ok || bad "$md: only $n numbered rules found"
    while IFS= read -r line; do
        grep -qF -- "$line" "$tmp/$g.txt" && ok || bad "rules $g lost: $line"
    done <"$tmp/$g.rules"
    grep -q "Game name: $g\." "$tmp/$g.txt" && ok || bad "rules $g: no game name"
    grep -q "mancala serve" "$tmp/$g.txt" && grep -q "/howto-$g.html" "$tmp/$g.txt" &&
        ok || bad "rules $g: the beginner's page is not named"
done

# the sentences around a cut stay (W13 lost its next sentence once)
grep -q "follow. A start pit from which every path is pruned is one" "$tmp/omweso.txt" &&
    ok || bad "rules omweso: W13's text after the cut is gone"
grep -q "the game ends and each player takes the seeds" "$tmp/oware.txt" &&
    ok || bad "rules oware: O8 text"
grep -q "^| .C D E F." "$tmp/oware.txt" || grep -q "C D E F" "$tmp/oware.txt" &&
    ok || bad "rules oware: the worked examples are gone"
grep -q "such a move is not legal\.$" "$tmp/sadeqa2.txt" && ok || bad "rules sadeqa2: S5"

expect_grep "rules with options" "O8 End" $M rules oware:awari
expect_err "rules unknown option" 2 "unknown option '--bogus'" $M rules --bogus
expect_err "rules unknown game" 1 "no rules for 'go'" $M rules go
expect_grep "rules --help names --list" "--list" $M rules --help

# --- the beginner's pages (web/howto-GAME.html): one per game, with
# pictures, a link back to the board, readable on a phone, and nothing
# fetched from elsewhere (no CDN, no web fonts)
for g in $games; do
    f=web/howto-$g.html
    [ -f "$f" ] && ok || { bad "$f missing"; continue; }
    n=$(grep -c '<svg viewBox' "$f")
    [ "$n" -ge 3 ] && ok || bad "$f: $n pictures, want 3 or more"
    grep -q 'href="index.html"' "$f" && ok || bad "$f: no link back to the board"
    grep -q 'name="viewport" content="width=device-width' "$f" && ok || bad "$f: no viewport"
    if grep -Eiq '(src|href)="(https?:)?//|@import|url\((https?:)?//|@font-face' "$f" web/howto.css; then
        bad "$f: an outside resource: $(grep -Eio '(src|href)="(https?:)?//[^"]*' "$f" | head -1)"
    else ok; fi
    # every rule cited in small print exists in the game's rule file
    for r in $(grep -o 'class="rule">([^)]*)' "$f" | sed 's/.*(//; s/)//; s/,//g'); do
        grep -q "^- \*\*$r " docs/rules/$g.md && ok || bad "$f cites $r, which docs/rules/$g.md lacks"
    done
done

finish cli_rules.sh
