#!/bin/sh
# tools/build-at.sh COMMIT DIR - build the mancala program as it was at
# COMMIT (any name git knows: a hash, a tag, HEAD~3) into DIR/mancala, for
# strength tests against an old version (docs/STRENGTH.md):
#   tools/build-at.sh HEAD~1 /tmp/old
#   ./mancala match --engine1 './mancala engine' --engine2 '/tmp/old/mancala engine' \
#       --openings data/openings/oware.txt --tc 10+0.1
# The tree of COMMIT is exported with git archive into a temporary
# directory (the working tree and its build are not touched), built with
# make -j2 and removed again.  Extra make variables may follow (NATIVE=1).
set -eu
if [ $# -lt 2 ]; then
    echo "usage: tools/build-at.sh COMMIT DIR [MAKEVAR=VALUE...]" >&2
    exit 2
fi
commit=$1 dir=$2
shift 2
top=$(git rev-parse --show-toplevel)
rev=$(git -C "$top" rev-parse --verify --quiet "$commit^{commit}") || {
    echo "tools/build-at.sh: '$commit' is not a commit of $top" >&2
    exit 1
}
src=$(mktemp -d "${TMPDIR:-/tmp}/mancala-build.XXXXXX")
trap 'rm -rf "$src"' EXIT
git -C "$top" archive --format=tar "$rev" | tar -x -C "$src"
echo "tools/build-at.sh: building $rev in $src" >&2
make -C "$src" -j2 mancala "$@" >"$src/build.log" 2>&1 || {
    tail -20 "$src/build.log" >&2
    echo "tools/build-at.sh: the build of $rev failed" >&2
    exit 1
}
mkdir -p "$dir"
cp "$src/mancala" "$dir/mancala"
echo "$rev" >"$dir/mancala.commit"
echo "tools/build-at.sh: $dir/mancala is $rev ($("$dir/mancala" --version))" >&2
