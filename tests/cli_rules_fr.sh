#!/bin/sh
# tests/cli_rules_fr.sh - `mancala rules` in French (po/rules/fr.po,
# translated at build time by po4a): chosen by --lang or the environment
# (LANGUAGE, LANG), every numbered rule of the English file is there under
# its number, the sentences are the French ones written for them (checked
# here against fragments written by hand), no paragraph is left in English,
# the implementers' notes are left out as in English; without a language
# the rules stay English; the pseudo-language shows them transformed.  And
# the French manual page (man/fr/mancala.1) is valid roff.
. tests/lib/harness.sh
unset LANGUAGE LC_ALL LC_MESSAGES LANG

games=$(ls docs/rules/*.md | sed 's|.*/||; s|\.md$||' | sort)
[ "$(echo $games)" = "gore omweso oware sadeqa2" ] && ok || bad "games: $games"

# one line of words: the translation's line breaks are its own
flat() { tr '\n' ' ' <"$1" | tr -s ' '; }

for g in $games; do
    md=docs/rules/$g.md
    $M --lang fr rules "$g" >"$tmp/$g.fr" 2>"$tmp/err"; rc=$?
    [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && ok || bad "--lang fr rules $g: rc=$rc $(cat "$tmp/err")"
    $M rules "$g" >"$tmp/$g.en" 2>"$tmp/err"; rc=$?
    [ $rc -eq 0 ] && ok || bad "rules $g: rc=$rc"
    # every numbered rule of the English file, in the same order, each a
    # list item of the French text under the same number
    grep -o '^- \*\*[A-Z][0-9][0-9]*[a-z]* ' "$md" | sed 's/^- \*\*//; s/ $//' >"$tmp/$g.nums"
    n=$(wc -l <"$tmp/$g.nums")
    [ "$n" -ge 7 ] && ok || bad "$md: only $n numbered rules"
    grep -o '^- [A-Z][0-9][0-9]*[a-z]* ' "$tmp/$g.fr" | sed 's/^- //; s/ $//' >"$tmp/$g.frnums"
    cmp -s "$tmp/$g.nums" "$tmp/$g.frnums" && ok ||
        bad "rules $g in French: rule numbers $(echo $(cat "$tmp/$g.frnums")), want $(echo $(cat "$tmp/$g.nums"))"
    # the French text, not the English one
    cmp -s "$tmp/$g.fr" "$tmp/$g.en" && bad "rules $g: French is English" || ok
    # (the rules: the closing paragraph, where the beginner's page is, is
    # the program's message, translated with the others in po/cli)
    awk '{ line[NR] = $0 } $0 == "" { last = NR }
        END { for (i = 1; i < last; i++) print line[i] }' "$tmp/$g.fr" >"$tmp/$g.frrules"
    [ "$(wc -l <"$tmp/$g.frrules")" -ge 30 ] && ok || bad "rules $g in French: too short"
    for w in ' the ' ' which ' ' of ' ' and ' ' move ' ' player '; do
        if grep -qi -- "$w" "$tmp/$g.frrules"; then
            bad "rules $g in French holds English ('$w'): $(grep -i -- "$w" "$tmp/$g.frrules" | head -1)"
        else ok; fi
    done
    # the implementers' notes are left out, as in English
    for w in 'seeds/' 'Texte source' 'Textes sources' 'Un analyseur' 'Attention au co' \
        'Ce cas se d' 'Le détecter' 'Brent' 'OpenSpiel' 'Perft' 'perft' \
        'Ligne de résultat' 'over <S' 'références indépendantes'; do
        if grep -q -- "$w" "$tmp/$g.fr"; then
            bad "rules $g in French shows an implementer's note: $(grep -- "$w" "$tmp/$g.fr" | head -1)"
        else ok; fi
    done
    flat "$tmp/$g.fr" | grep -q "Nom du jeu : $g\." && ok || bad "rules $g in French: no game name"
    grep -q "/howto-$g.html" "$tmp/$g.fr" && ok || bad "rules $g in French: the beginner's page is not named"
done

# The passages cut above are in the French files (po/rules/fr.po) under
# the first words src/cli/rules.c cuts them by: a translation that begins
# one otherwise would print it
# (a list item's "- " is po4a's, not the message's)
for w in 'Texte source' 'Textes sources' 'Un analyseur ' 'Ce cas se détecte exactement.' \
    'Le détecter exactement ;' '**Attention au coût**' ' (références indépendantes)' \
    'Mécanique tirée des tests' 'Les deux premiers exemples reprennent' \
    'Perft depuis la position de départ' '- **Ligne de résultat** de `mancala apply`'; do
    msgcat --no-wrap po/rules/fr.po 2>/dev/null | grep '^msgstr\|^"' | grep -qF -- "${w#- }" && ok ||
        bad "po/rules/fr.po no longer holds '$w' (update src/cli/rules.c's cuts)"
    grep -qF -- "$w" src/cli/rules.c && ok || bad "src/cli/rules.c does not cut '$w'"
done

# The French sentences, as written for the rules (a fragment of each
# checked game's key rules; the line breaks are left out)
has() { # game text
    flat "$tmp/$1.fr" | grep -qF -- "$2" && ok || bad "rules $1 in French lacks: $2"
}
has oware "O5 Prise. Soit L la case qui a reçu la dernière graine."
has oware "O6 Grand chelem. Si les prises de O5 devaient vider la rangée adverse, rien n'est pris"
has oware "O7 Nourrir. Si la rangée adverse est vide au début du tour du joueur, seuls les coups qui déposent au moins une graine dans la rangée adverse sont permis (on ne peut pas affamer l'adversaire)."
has oware "la prise multiple s'arrête à la première case qui contient un autre nombre"
has oware "a) un joueur a pris 25 graines ou plus : la partie s'arrête aussitôt ;"
has oware "Deux greniers reçoivent les graines prises ; on n'y sème jamais."
has omweso "W10 Tours à rebours. Un tour de semis dont l'origine est l'une des quatre cases de gauche du joueur peut être semé dans le sens horaire"
has omweso "a) akawumbi, 12 points, gagne aussitôt le match"
has omweso "(emitwe-ebiri, « les deux têtes »)"
has omweso "quels que soient les choix qui pourraient suivre. Une case de départ dont tous les chemins sont élagués est un coup permis"
has gore "G6 Offre. Au lieu de semer, P peut offrir 1, 2 ou 3 cases qu'il possède (même vides)"
has gore "G7 Victoire sans gloire. Refuser est permis mais mal vu"
has gore "six « vaches » (pierres) prises"
has sadeqa2 "S2 Coups permis. Toute case du joueur contenant au moins une graine dont le semis se termine (S5)."
has sadeqa2 "S6 Prise. Quand le coup s'arrête en e et que la case d'en face 11-e contient des graines, ces graines sont retirées du jeu."
has sadeqa2 "un tel coup n'est pas permis. - S6 Prise."
# notation and option values stay as they are in every language
has oware "Sud A B C D E F = 0..5, Nord a b c d e f = 6..11."
has oware "grand_slam=forfeit"
has gore "Départ : 6,6,6,6/6,6,6,6 S own=SSSSNNNN cap=0,0."

# the environment chooses French as --lang does, a region too
LANGUAGE=fr $M rules oware >"$tmp/env.fr" 2>&1
cmp -s "$tmp/env.fr" "$tmp/oware.fr" && ok || bad "LANGUAGE=fr rules oware is not the --lang fr text"
LANG=fr_FR.UTF-8 $M rules gore >"$tmp/env.fr" 2>&1
cmp -s "$tmp/env.fr" "$tmp/gore.fr" && ok || bad "LANG=fr_FR.UTF-8 rules gore is not the French text"
$M --lang fr-CI rules sadeqa2 >"$tmp/env.fr" 2>&1
cmp -s "$tmp/env.fr" "$tmp/sadeqa2.fr" && ok || bad "--lang fr-CI rules sadeqa2 is not the French text"

# without a language, and in English, the English rules
LANGUAGE= LANG=C $M rules oware >"$tmp/c.en" 2>&1
$M --lang en rules oware >"$tmp/lang.en" 2>&1
cmp -s "$tmp/c.en" "$tmp/oware.en" && cmp -s "$tmp/lang.en" "$tmp/oware.en" && ok ||
    bad "rules oware differs between no language, LANG=C and --lang en"
grep -q "^- O6 Grand slam\. If the captures of O5 would leave the opponent's row" "$tmp/oware.en" &&
    ok || bad "rules oware in English: O6 is not the English text"
grep -q "chelem\|graines" "$tmp/oware.en" && bad "rules oware in English holds French" || ok

# the pseudo-language: the English rules transformed, no ASCII word left
$M --lang en-XA rules oware >"$tmp/xa" 2>&1; rc=$?
[ $rc -eq 0 ] && ok || bad "--lang en-XA rules oware: rc=$rc"
# (<placeholders> are kept as they are, as in every pseudo text)
# (and the closing paragraph, the program's message, left to po/cli's checks)
awk '{ line[NR] = $0 } $0 == "" { last = NR }
    END { for (i = 1; i < last; i++) print line[i] }' "$tmp/xa" |
    sed 's/<[^>]*>//g' >"$tmp/xa.words"
if grep -Eq '(^| )(the|seeds|move|Grand|slam)( |$)' "$tmp/xa.words"; then
    bad "rules oware in en-XA: an English word left: $(grep -E '(^| )(the|seeds|move|Grand|slam)( |$)' "$tmp/xa.words" | head -1)"
else ok; fi
[ "$(wc -l <"$tmp/xa")" -eq "$(wc -l <"$tmp/oware.en")" ] && ok ||
    bad "rules oware in en-XA: $(wc -l <"$tmp/xa") lines, English $(wc -l <"$tmp/oware.en")"

# the French manual page: valid roff, its sections there
page=man/fr/mancala.1
[ -f "$page" ] && ok || bad "$page missing"
if command -v groff >/dev/null 2>&1; then
    groff -man -Tutf8 -ww "$page" >"$tmp/man.txt" 2>"$tmp/man.err"; rc=$?
    [ $rc -eq 0 ] && [ ! -s "$tmp/man.err" ] && ok ||
        bad "groff -man -ww $page: rc=$rc $(head -5 "$tmp/man.err")"
    # bold headings come out overstruck: strip the backspaces
    sed 's/.\x08//g' "$tmp/man.txt" | tr '\n' ' ' | tr -s ' ' >"$tmp/man.plain"
    for w in NOM SYNOPSIS DESCRIPTION COMMANDES ENVIRONNEMENT 'LANGUAGE, LC_ALL' \
        'jouer et analyser des jeux de mancala' 'choisit la langue des textes' \
        'rules jeu | --list'; do
        grep -qF -- "$w" "$tmp/man.plain" && ok || bad "$page rendered lacks '$w'"
    done
    if command -v man >/dev/null 2>&1; then
        MANWIDTH=80 man -l "$page" >"$tmp/man2.txt" 2>"$tmp/man2.err"; rc=$?
        [ $rc -eq 0 ] && grep -q "ENVIRONNEMENT" "$tmp/man2.txt" && ok ||
            bad "man -l $page: rc=$rc $(head -3 "$tmp/man2.err")"
    else
        skip "man -l $page" "man is not installed"
    fi
else
    skip "groff -man -ww $page" "groff is not installed (Debian: groff-base)"
fi

finish cli_rules_fr.sh
