#!/bin/sh
# tools/deps.sh - install what building and testing mancala needs on a
# Debian machine, and nothing when it is already there.  Uses sudo when not
# run as root.
set -e
need=""
command -v make >/dev/null 2>&1 || need="$need make"
command -v gcc >/dev/null 2>&1 || need="$need gcc libc6-dev"
# The full-screen game links ncurses; make check drives it through tmux.
dpkg -s libncurses-dev >/dev/null 2>&1 || need="$need libncurses-dev"
command -v tmux >/dev/null 2>&1 || need="$need tmux"
# CI also compiles with clang and checks the installed pkg-config file.
if [ "${MANCALA_CI:-0}" = 1 ]; then
    command -v clang >/dev/null 2>&1 || need="$need clang"
    command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
    # libFuzzer's runtime for clang (make fuzz): libclang-rt-<major>-dev
    v=$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1)
    v=${v:-14}
    dpkg -s "libclang-rt-$v-dev" >/dev/null 2>&1 || need="$need libclang-rt-$v-dev"
fi
[ -n "$need" ] || exit 0
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
echo "tools/deps.sh: installing$need" >&2
$SUDO apt-get update -q
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $need
