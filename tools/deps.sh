#!/bin/sh
# tools/deps.sh - install what building, playing and (with the argument
# `test`) testing mancala needs on a Debian machine, and nothing when it is
# already there: each package named, none of apt's recommended ones
# (--no-install-recommends).  Uses sudo when not run as root.
#   sh tools/deps.sh          build and play: compiler, make, libraries
#   sh tools/deps.sh test     also what make check drives: tmux, chromium,
#                             python3-numpy, python3-pytest, Open MPI,
#                             node and npm, emscripten (make wasm), and
#                             tests/e2e's npm packages
# MANCALA_CI=1 adds what CI builds with: clang, clang-format, pkg-config,
# libFuzzer, and what make deb needs: debhelper, dh-python, lintian.
set -e
mode=${1:-build}
case $mode in
build | test) ;;
*)
    echo "usage: sh tools/deps.sh [test]" >&2
    exit 2
    ;;
esac
need=""
have_pkg() { dpkg -s "$1" >/dev/null 2>&1; }
command -v make >/dev/null 2>&1 || need="$need make"
command -v gcc >/dev/null 2>&1 || need="$need gcc libc6-dev"
# mancala serve: HTTP (libmicrohttpd), JSON (Jansson) and its store of
# games (SQLite); play: ncurses.
have_pkg libmicrohttpd-dev || need="$need libmicrohttpd-dev"
have_pkg libjansson-dev || need="$need libjansson-dev"
have_pkg libsqlite3-dev || need="$need libsqlite3-dev"
# mancala serve's accounts: the password hash (argon2id) and the session
# tokens' digests of libsodium.
have_pkg libsodium-dev || need="$need libsodium-dev"
have_pkg libncurses-dev || need="$need libncurses-dev"
# The compressed endgame tables: zstd.
have_pkg libzstd-dev || need="$need libzstd-dev"
# The players' languages: msgfmt makes the catalogs built in
# (docs/TRANSLATING.md); xgettext and msgmerge keep them current.
command -v msgfmt >/dev/null 2>&1 || need="$need gettext"
# The beginner's pages and the rules in the players' languages: po4a
# (po/howto, po/rules).
command -v po4a >/dev/null 2>&1 || need="$need po4a"
if [ "$mode" = test ]; then
    # The full-screen game's tests run it in tmux; the browser tests drive
    # Debian's Chromium with playwright-core from npm.
    command -v tmux >/dev/null 2>&1 || need="$need tmux"
    command -v chromium >/dev/null 2>&1 || need="$need chromium"
    # The font the pages are laid out in under test (chromium only
    # recommends it; without it the text falls back to another font).
    have_pkg fonts-liberation || need="$need fonts-liberation"
    command -v node >/dev/null 2>&1 || need="$need nodejs"
    command -v npm >/dev/null 2>&1 || need="$need npm"
    # npm ci reaches the registry over TLS (nodejs only recommends them).
    have_pkg ca-certificates || need="$need ca-certificates"
    # tools/net-fit.py (tests/cli_tune.sh): Debian's numpy for its python3.
    have_pkg python3-numpy || need="$need python3-numpy"
    # The Python module's tests (make check-python): pytest and numpy.
    have_pkg python3-pytest || need="$need python3-pytest"
    # Its test of `pip install ./python` into a virtual environment,
    # offline: venv, and setuptools and wheel to build it.
    have_pkg python3-venv || need="$need python3-venv"
    have_pkg python3-setuptools || need="$need python3-setuptools"
    have_pkg python3-wheel || need="$need python3-wheel"
    # Table builds shared by processes under mpirun (tests/mpi.sh): Open
    # MPI, which the build finds by its mpicc.
    have_pkg libopenmpi-dev || need="$need libopenmpi-dev"
    command -v mpirun >/dev/null 2>&1 || need="$need openmpi-bin"
    # The WebAssembly build (make wasm, make check-wasm, make site):
    # Debian's emscripten; it compiles Jansson and zstd from their Debian
    # sources (tools/wasm/fetch-sources.sh, apt-get source).
    command -v emcc >/dev/null 2>&1 || need="$need emscripten"
fi
if [ "${MANCALA_CI:-0}" = 1 ]; then
    command -v clang >/dev/null 2>&1 || need="$need clang"
    # make check-format: the layout of .clang-format
    command -v clang-format >/dev/null 2>&1 || need="$need clang-format"
    command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
    # libFuzzer's runtime for clang (make fuzz): libclang-rt-<major>-dev
    v=$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1)
    v=${v:-14}
    have_pkg "libclang-rt-$v-dev" || need="$need libclang-rt-$v-dev"
    # make deb and its checks (debian/README.Debian): dpkg-buildpackage
    # with debhelper and dh-python, lintian.
    have_pkg debhelper || need="$need debhelper"
    have_pkg dh-python || need="$need dh-python"
    command -v lintian >/dev/null 2>&1 || need="$need lintian"
fi
if [ -n "$need" ]; then
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    echo "tools/deps.sh: installing$need" >&2
    $SUDO apt-get update -q
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $need
fi
# playwright-core for tests/e2e, exactly as package-lock.json pins it (no
# browser download: the tests use Debian's chromium).
if [ "$mode" = test ] &&
    [ ! -d "$(dirname "$0")/../tests/e2e/node_modules/playwright-core" ]; then
    (cd "$(dirname "$0")/../tests/e2e" && npm ci --no-audit --no-fund)
fi
