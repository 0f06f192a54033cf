#!/bin/sh
# tools/wasm/fetch-sources.sh DIR - the C libraries that the WebAssembly
# build (make wasm) compiles with emscripten beside libmancala: Jansson (the
# JSON of the server's API, which the page's device back end runs in the
# browser) and zstd (the compressed endgame tables).  Debian ships them
# built for the machine only, so their Debian source packages are fetched
# with apt-get source (Debian's own sources, the registry this project
# uses), into a private apt state under DIR: the system's apt settings are
# not touched.  Leaves DIR/jansson and DIR/zstd; does nothing when both
# are there.
set -e
dir=${1:?usage: sh tools/wasm/fetch-sources.sh DIR}
[ -f "$dir/jansson/src/value.c" ] && [ -f "$dir/zstd/lib/zstd.h" ] && exit 0
mkdir -p "$dir/apt/lists/partial" "$dir/apt/sources" "$dir/apt/cache/archives/partial" "$dir/dl"
dir=$(cd "$dir" && pwd)
# The machine's Debian sources, with their source packages.
for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    sed 's/^Types: deb$/Types: deb deb-src/' "$f" >"$dir/apt/sources/$(basename "$f")"
done
if [ -f /etc/apt/sources.list ]; then
    sed -n 's/^deb \(.*\)/deb-src \1/p' /etc/apt/sources.list >"$dir/apt/sources/list.list"
fi
# As any user: every file apt writes is under DIR.
aptopts() {
    echo -o Dir::Etc::sourcelist=/dev/null -o Dir::Etc::sourceparts="$dir/apt/sources" \
        -o Dir::State::Lists="$dir/apt/lists" -o Dir::Cache="$dir/apt/cache" \
        -o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)"
}
apt() {
    # shellcheck disable=SC2046
    apt-get -q $(aptopts) "$@"
}
echo "tools/wasm/fetch-sources.sh: fetching the sources of jansson and libzstd" >&2
apt update >/dev/null
# A package's newest source that downloads (a security update's files
# may be gone from the mirror while its index still names them).
fetch() {
    # shellcheck disable=SC2046
    for v in $(apt-cache $(aptopts) showsrc "$1" | sed -n 's/^Version: //p'); do
        if (cd "$dir/dl" && apt source --download-only "$1=$v" >/dev/null 2>&1); then
            return 0
        fi
    done
    echo "tools/wasm/fetch-sources.sh: cannot fetch the source of $1" >&2
    return 1
}
fetch jansson
fetch libzstd
rm -rf "$dir/jansson" "$dir/zstd"
mkdir -p "$dir/jansson" "$dir/zstd"
tar -xzf "$(ls "$dir"/dl/jansson_*.orig.tar.gz | tail -n 1)" -C "$dir/jansson" --strip-components=1
tar -xJf "$(ls "$dir"/dl/libzstd_*.orig.tar.xz | tail -n 1)" -C "$dir/zstd" --strip-components=1
