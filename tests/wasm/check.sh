#!/bin/sh
# tests/wasm/check.sh NATIVE WASMDIR - the WebAssembly build against the
# native program (make check-wasm): the same bench signature, node for
# node, then the JavaScript module's tests (tests/wasm/*.test.mjs, node's
# test runner) on the package as make wasm lays it out.
native=${1:-./mancala}
wb=${2:-build/wasm}
fail=0
want=$("$native" bench | sed -n 's/^bench: \([0-9]*\) nodes.*/\1/p')
got=$(node "$wb/mancala.js" bench | sed -n 's/^bench: \([0-9]*\) nodes.*/\1/p')
if [ -n "$want" ] && [ "$want" = "$got" ]; then
    echo "ok   bench signature: $got nodes, the native one's"
else
    echo "FAILED: bench signature: WebAssembly '$got', native '$want'"
    fail=1
fi
MANCALA_PKG=$wb/pkg node --test tests/wasm/ || fail=1
sh tests/wasm/npm.sh "$wb/pkg" || fail=1
exit $fail
