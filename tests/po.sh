#!/bin/sh
# tests/po.sh - the message catalogs (docs/TRANSLATING.md): every
# po/<domain>/<lang>.po passes msgfmt --check (its format strings agree
# with the English ones, its header and plural forms are well formed), and
# each domain's .pot is the one xgettext makes from the sources today (a
# message added to the code and not to the .pot fails here: run make pot
# or make po-update).  The rule files' translations (po/rules, kept by
# po4a: po/rules/po4a.cfg) pass msgfmt --check too; their .pot is the one
# po4a makes from docs/rules/*.md today, and the French one translates
# every paragraph (the rules are authoritative: none left in English).
# With --stats: how much of each catalog is translated, and nothing
# checked.
cd "$(dirname "$0")/.." || exit 2
stats=0
[ "$1" = "--stats" ] && stats=1
fail=0
if [ $stats -eq 1 ]; then
    printf '%-6s %-8s %8s %8s %8s %6s\n' domain lang done fuzzy todo share
fi
for d in lib cli web howto rules; do
    pot=po/$d/mancala-$d.pot
    [ -f "$pot" ] || continue
    total=$(msgattrib --no-obsolete "$pot" 2>/dev/null | grep -c '^msgid ')
    total=$((total - 1)) # the header
    for po in po/$d/*.po; do
        [ -f "$po" ] || continue
        lang=$(basename "$po" .po)
        if [ $stats -eq 1 ]; then
            out=$(LC_ALL=C msgfmt --statistics -o /dev/null "$po" 2>&1)
            t=$(echo "$out" | sed -n 's/^\([0-9]*\) translated.*/\1/p')
            f=$(echo "$out" | sed -n 's/.* \([0-9]*\) fuzzy.*/\1/p')
            t=${t:-0}
            f=${f:-0}
            todo=$((total - t))
            share=0
            [ "$total" -gt 0 ] && share=$((100 * t / total))
            printf '%-6s %-8s %8d %8d %8d %5d%%\n' "$d" "$lang" "$t" "$f" "$todo" "$share"
            continue
        fi
        if err=$(msgfmt --check -o /dev/null "$po" 2>&1); then
            echo "ok   msgfmt --check $po"
        else
            echo "FAIL msgfmt --check $po: $err"
            fail=1
        fi
    done
done
# The rule files (po/rules, a paragraph a message): checked above with
# the others; here the French one whole, and the .pot docs/rules' today.
rpot=po/rules/mancala-rules.pot
if [ $stats -eq 0 ] && [ -f "$rpot" ]; then
    if out=$(msgcmp po/rules/fr.po "$rpot" 2>&1) &&
        [ -z "$(msgattrib --only-fuzzy po/rules/fr.po)" ]; then
        echo "ok   po/rules/fr.po translates every paragraph"
    else
        echo "FAIL po/rules/fr.po leaves paragraphs in English (untranslated or fuzzy):"
        echo "$out" | head -5
        fail=1
    fi
    # the .pot is docs/rules' today (po4a on a copy of the configuration)
    if command -v po4a >/dev/null 2>&1; then
        rtmp=$(mktemp -d)
        sed "s|po/rules/|$rtmp/|g" po/rules/po4a.cfg >"$rtmp/po4a.cfg"
        if po4a --no-translations "$rtmp/po4a.cfg" >/dev/null 2>"$rtmp/err"; then
            if msgcmp --use-untranslated "$rtmp/mancala-rules.pot" "$rpot" >/dev/null 2>&1 &&
                msgcmp --use-untranslated "$rpot" "$rtmp/mancala-rules.pot" >/dev/null 2>&1; then
                echo "ok   $rpot is current"
            else
                echo "FAIL $rpot is not docs/rules' (run make po-update):"
                msgcmp --use-untranslated "$rtmp/mancala-rules.pot" "$rpot" 2>&1 | head -5
                msgcmp --use-untranslated "$rpot" "$rtmp/mancala-rules.pot" 2>&1 | head -5
                fail=1
            fi
        else
            echo "FAIL po4a: $(cat "$rtmp/err")"
            fail=1
        fi
        rm -rf "$rtmp"
    else
        echo "SKIP $rpot is current: po4a is not installed (Debian: po4a)"
    fi
fi
[ $stats -eq 1 ] && exit 0
# the .pot files are current
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if make --no-print-directory -s pot POT_DIR="$tmp" >/dev/null 2>"$tmp/err"; then
    for d in lib cli web; do
        f=po/$d/mancala-$d.pot
        new=$tmp/$d/mancala-$d.pot
        if [ ! -f "$new" ] && [ ! -f "$f" ]; then
            continue
        elif [ ! -f "$f" ] || [ ! -f "$new" ]; then
            echo "FAIL $f: one of the tree's and the sources' is missing (run make pot)"
            fail=1
        elif diff -q -I '^#:' "$f" "$new" >/dev/null; then
            echo "ok   $f is current"
        else
            echo "FAIL $f is not the sources' (run make pot):"
            diff -I '^#:' "$f" "$new" | head -20
            fail=1
        fi
    done
else
    echo "FAIL make pot: $(cat "$tmp/err")"
    fail=1
fi
# The beginner's pages (po/howto, po4a): each catalog complete (the build
# keeps a paragraph a catalog lacks in English; a shipped language lacks
# none), and the .pot the one po4a makes from the English pages today
# (make po-howto on a copy).
for po in po/howto/*.po; do
    [ -f "$po" ] || continue
    if msgcmp "$po" po/howto/mancala-howto.pot >"$tmp/cmp" 2>&1; then
        echo "ok   $po: every message translated"
    else
        echo "FAIL $po: not every message translated (make po-update, then translate):"
        head -6 "$tmp/cmp"
        fail=1
    fi
done
if [ -f po/howto/po4a.cfg ]; then
    mkdir -p "$tmp/howto/po"
    cp -r po/howto "$tmp/howto/po/"
    ln -s "$PWD/web" "$tmp/howto/web"
    f=po/howto/mancala-howto.pot
    rm -f "$tmp/howto/$f" # made anew, whatever the dates
    if ! make --no-print-directory -s po-howto HOWTO_ROOT="$tmp/howto" >"$tmp/p4" 2>&1; then
        echo "FAIL make po-howto: $(cat "$tmp/p4")"
        fail=1
    elif diff -q -I '^#:' -I '^"POT-Creation-Date:' "$f" "$tmp/howto/$f" >/dev/null; then
        echo "ok   $f is current"
    else
        echo "FAIL $f is not the pages' (run make po-update):"
        diff -I '^#:' -I '^"POT-Creation-Date:' "$f" "$tmp/howto/$f" | head -20
        fail=1
    fi
fi
[ $fail -eq 0 ] && echo "catalogs: all checked" || echo "catalogs: FAILED"
exit $fail
