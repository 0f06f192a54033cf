#!/bin/sh
# tests/e2e/run.sh - make check's browser tests: start `mancala serve` on an
# ephemeral port of 127.0.0.1 with a fresh game store (the house bot offered
# after 2 s alone in a pool, not 20), play a full game of
# each kind against the computer at 1280x800 and 400x800 and check each
# item of the page by clicking in headless Chromium (play.mjs; about two
# minutes), stop the server.
# usage: sh tests/e2e/run.sh ./mancala [play|full|features|howto|site|i18n]
# (site: the static site of make site, served without mancala serve;
# i18n: the same site in French and in the pseudo-language)
# (MANCALA_SHOTS=docs/img: keep the screenshots there, as `make
# screenshots` does)
M=${1:-./mancala}
# The second argument picks one part (play, or its halves full and
# features, or howto; each with a server of its own, so that make check
# can run them side by side); none: play and howto.
parts=${2:-play howto}
case $parts in
    play|howto|"play howto") ;;
    site|i18n)
        # The static site: no server of ours (site.mjs, i18n.mjs serve the folder).
        here=$(dirname "$0")
        if [ ! -d "$here/node_modules/playwright-core" ]; then
            (cd "$here" && npm ci --no-audit --no-fund >/dev/null) || {
                echo "e2e: npm ci failed (run sh tools/deps.sh test)"; echo "0 passed, 1 failed"; exit 1; }
        fi
        tmp=$(mktemp -d)
        MANCALA="$(cd "$(dirname "$M")" && pwd)/$(basename "$M")" MANCALA_TMP=$tmp \
            node "$here/$parts.mjs" build/site
        rc=$?
        rm -rf "$tmp"
        exit $rc ;;
    full|features) export MANCALA_E2E_PART=$parts; parts=play ;;
    *) echo "e2e: unknown part '$parts' (play, full, features, howto, site, i18n)"; echo "0 passed, 1 failed"; exit 1 ;;
esac
here=$(dirname "$0")
if [ ! -d "$here/node_modules/playwright-core" ]; then
    (cd "$here" && npm ci --no-audit --no-fund >/dev/null) || {
        echo "e2e: npm ci failed (run sh tools/deps.sh test)"; echo "0 passed, 1 failed"; exit 1; }
fi
if ! command -v chromium >/dev/null 2>&1; then
    echo "e2e: chromium is not installed (run sh tools/deps.sh test)"
    echo "0 passed, 1 failed"
    exit 1
fi
tmp=$(mktemp -d)
: >"$tmp/out"
# The server's data in the scratch directory, and no endgame tables: the
# games here do not depend on what is built or installed.
XDG_DATA_HOME=$tmp/xdg/data XDG_STATE_HOME=$tmp/xdg/state MANCALA_EGDB_DIR=none \
"$M" serve --port 0 --site none --db "$tmp/serve.db" --bot-wait 2 >"$tmp/out" 2>"$tmp/err" &
pid=$!
i=0
while ! grep -q 'http://' "$tmp/out" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
url=$(sed -n 's|.*\(http://127\.0\.0\.1:[0-9]*/\).*|\1|p' "$tmp/out")
if [ -z "$url" ]; then
    echo "e2e: the server did not start: $(cat "$tmp/err")"
    kill "$pid" 2>/dev/null
    rm -rf "$tmp"
    echo "0 passed, 1 failed"
    exit 1
fi
rc=0
for t in $parts; do
    MANCALA_URL=$url MANCALA_TMP=$tmp node "$here/$t.mjs" || rc=1
done
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
rm -rf "$tmp"
exit $rc
