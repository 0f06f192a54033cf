#!/bin/sh
# tools/deps.sh - install what building and testing mancala needs on a
# Debian machine, and nothing when it is already there.  Uses sudo when not
# run as root.
set -e
need=""
command -v make >/dev/null 2>&1 || need="$need make"
command -v gcc >/dev/null 2>&1 || need="$need gcc libc6-dev"
# mancala serve: HTTP (libmicrohttpd) and JSON (Jansson).
dpkg -s libmicrohttpd-dev >/dev/null 2>&1 || need="$need libmicrohttpd-dev"
dpkg -s libjansson-dev >/dev/null 2>&1 || need="$need libjansson-dev"
# make check's browser tests (tests/e2e): Chromium driven by playwright-core.
command -v chromium >/dev/null 2>&1 || need="$need chromium"
command -v node >/dev/null 2>&1 || need="$need nodejs"
command -v npm >/dev/null 2>&1 || need="$need npm"
# CI also compiles with clang and checks the installed pkg-config file.
if [ "${MANCALA_CI:-0}" = 1 ]; then
    command -v clang >/dev/null 2>&1 || need="$need clang"
    command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
    # libFuzzer's runtime for clang (make fuzz): libclang-rt-<major>-dev
    v=$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1)
    v=${v:-14}
    dpkg -s "libclang-rt-$v-dev" >/dev/null 2>&1 || need="$need libclang-rt-$v-dev"
fi
if [ -n "$need" ]; then
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    echo "tools/deps.sh: installing$need" >&2
    $SUDO apt-get update -q
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $need
fi
# playwright-core for tests/e2e, exactly as package-lock.json pins it (no
# browser download: the tests use Debian's chromium).
if [ ! -d "$(dirname "$0")/../tests/e2e/node_modules/playwright-core" ]; then
    (cd "$(dirname "$0")/../tests/e2e" && npm ci --no-audit --no-fund)
fi
