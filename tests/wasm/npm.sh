#!/bin/sh
# tests/wasm/npm.sh PKGDIR - the npm package as a site or a script would
# take it: `npm pack` in the package's folder (make wasm: build/wasm/pkg),
# then a scratch project that installs the tarball (no registry: the
# tarball has no dependencies) and uses it from an ES module.
pkg=${1:-build/wasm/pkg}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*"; }
tgz=$(cd "$pkg" && npm pack --silent --pack-destination "$tmp" 2>"$tmp/pack.err" | tail -n 1)
if [ -n "$tgz" ] && [ -f "$tmp/$tgz" ]; then ok; else bad "npm pack: $(cat "$tmp/pack.err")"; fi
# What the tarball holds: the module, its faces, the worker, the types.
for f in mancala-web.js mancala-web.mjs mancala-core.js mancala.mjs engine-worker.js mancala.d.ts README.md package.json; do
    if tar -tzf "$tmp/$tgz" "package/$f" >/dev/null 2>&1; then ok; else bad "the tarball lacks $f"; fi
done
mkdir -p "$tmp/app"
cd "$tmp/app" || exit 1
echo '{"name": "scratch", "version": "1.0.0", "private": true, "type": "module"}' > package.json
if npm install --offline --no-audit --no-fund "$tmp/$tgz" >"$tmp/install.log" 2>&1; then ok; else
    bad "npm install of the tarball: $(tail -5 "$tmp/install.log")"; fi
cat > use.mjs <<'JS'
import { load } from 'mancala-wasm';
const m = await load();
const s = m.loadGame('oware').newInitialState();
s.applyMove('C');
const e = m.engine({ uci: true });
const lines = ['uci', 'position startpos moves FaB', 'go depth 3'].flatMap((l) => e.send(l));
console.log(s.toString());
console.log(lines[lines.length - 1]);
JS
out=$(node use.mjs 2>&1)
want='4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0
bestmove e ponder F'
if [ "$out" = "$want" ]; then ok; else bad "the installed package: got '$out'"; fi
# CommonJS: require gives the emscripten factory.
out=$(node -e "require('mancala-wasm')().then((M) => console.log(typeof M._mc_wasm_call))" 2>&1)
if [ "$out" = "function" ]; then ok; else bad "require('mancala-wasm'): $out"; fi
echo "npm.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
