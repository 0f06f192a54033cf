# tests/cli_symbols.sh - libmancala as another project sees it: the public
# headers alone (copied as make install lays them out, without src/), a C
# program and a C++ program built against them and linked with the shared
# library, run; and the library's exported symbols, which must be exactly
# the functions the headers declare (docs/LIBRARY.md: nothing internal
# leaks, nothing declared is missing).
. tests/lib/harness.sh

# The build tree of the program under test (make SAN=1 check: build-san,
# whose library needs the sanitizers' runtime in the programs too).
case $M in
*build-san*) B=build-san SAN="-fsanitize=address,undefined" ;;
*) B=build SAN= ;;
esac
so=$(ls $B/libmancala.so.*.*.* 2>/dev/null | head -n 1)
if [ -z "$so" ]; then
    bad "no shared library in $B (make $B/libmancala.so.VERSION)"
    finish cli_symbols.sh
    exit
fi
soname=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
major=$(sed -n 's/^#define MC_VERSION_MAJOR \([0-9]*\)/\1/p' include/mancala.h)
expect_out "the soname carries the major version" "libmancala.so.$major" \
    echo "$soname"

# An installed tree: headers in include/, the library under its file name
# with the soname and development links.
mkdir -p "$tmp/inst/include" "$tmp/inst/lib"
cp include/*.h "$tmp/inst/include/"
cp "$so" "$tmp/inst/lib/"
ln -s "$(basename "$so")" "$tmp/inst/lib/$soname"
ln -s "$soname" "$tmp/inst/lib/libmancala.so"

cat > "$tmp/user.c" <<'EOF'
#include <mancala.h>
#include <mancala_egdb.h>
#include <mancala_protocol.h>
#include <mancala_record.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    mc_error err;
    char buf[MC_POS_STRLEN];
    memset(&err, 0, sizeof err);
    if (strcmp(mc_version(), MC_VERSION_STRING) != 0 ||
        mc_version_hex() != (unsigned)MC_VERSION_HEX)
        return 10;
    if (strcmp(mc_strerror(MC_ERR_NOMEM), "out of memory") != 0)
        return 11;
    mc_game *g = mc_game_new("oware", &err);
    if (!g)
        return 12;
    mc_session *s = mc_session_new(g, NULL);
    if (!s || mc_session_play_str(s, "C", NULL, &err) != 0)
        return 13;
    mc_pos_format(g, mc_session_pos(s), buf, sizeof buf);
    printf("%s\n", buf);
    if (mc_game_new("no-such-game", &err) != NULL || err.code != MC_ERR_SPEC)
        return 14;
    printf("%s\n", mc_strerror(err.code));
    /* the endgame tables' code (and with it libzstd) linked in too */
    mc_egdb_close(mc_egdb_open("/nonexistent", 0, -1, NULL));
    mc_session_free(s);
    mc_game_free(g);
    return 0;
}
EOF
cp "$tmp/user.c" "$tmp/user.cpp"

# South plays C from the Oware start: its 4 seeds go to d, e, f and North's
# first house (O3), North to move, nothing captured.
user_want="4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0
bad game name or option"
want=$user_want
for lang in c cpp; do
    if [ $lang = c ]; then
        cc=${CC:-cc}
        flags="-std=c11 -Wall -Wextra -Werror -pedantic"
    else
        cc=${CXX:-g++}
        flags="-std=c++11 -Wall -Wextra -Werror -pedantic"
    fi
    if $cc $flags $SAN -I"$tmp/inst/include" -o "$tmp/user_$lang" \
        "$tmp/user.$lang" -L"$tmp/inst/lib" -lmancala 2>"$tmp/cc.err"; then
        ok
        expect_out "the $lang program runs with the shared library" "$user_want" \
            env LD_LIBRARY_PATH="$tmp/inst/lib" "$tmp/user_$lang"
        # It runs with the installed library, not a static copy.
        if LD_LIBRARY_PATH="$tmp/inst/lib" ldd "$tmp/user_$lang" |
            grep -q "$soname => $tmp/inst/lib/"; then ok; else
            bad "the $lang program does not load $soname from the install"
        fi
    else
        bad "the $lang program does not build against the headers:
$(cat "$tmp/cc.err")"
    fi
done

# docs/LIBRARY.md's example, taken from the page (the C block of "A
# complete example"), built the way the page says against the installed
# layout and run: six moves, each with its token and the library's
# sentence for it, then the position, which the program must reach by the
# same moves (an independent path: mancala apply).
awk '/^## A complete example/ {in_ex = 1} in_ex && /^```c$/ {on = 1; next}
     on && /^```$/ {exit} on {print}' docs/LIBRARY.md > "$tmp/six.c"
if [ -s "$tmp/six.c" ] && ${CC:-cc} -std=c11 -Wall -Wextra -Werror $SAN \
    -I"$tmp/inst/include" -o "$tmp/six" "$tmp/six.c" -L"$tmp/inst/lib" \
    -lmancala 2>"$tmp/cc.err"; then
    ok
    if LD_LIBRARY_PATH="$tmp/inst/lib" "$tmp/six" >"$tmp/six.out" 2>"$tmp/err"
    then ok; else bad "the example fails: $(cat "$tmp/err")"; fi
    moves=$(head -n 6 "$tmp/six.out" | cut -f 1 | tr '\n' ' ')
    last=$(tail -n 1 "$tmp/six.out")
    expect_out "the example's position is the program's after $moves" \
        "$last" $M apply oware start $moves
    # the sentences: South and North in turn, each "X plays TOKEN: lifts"
    n=0 side=South
    while IFS="$(printf '\t')" read -r tok words; do
        n=$((n + 1))
        [ $n -le 6 ] || break
        case $words in
        "$side plays $tok: lifts "*.) ok ;;
        *) bad "the example's move $n: '$tok' '$words'" ;;
        esac
        if [ $side = South ]; then side=North; else side=South; fi
    done < "$tmp/six.out"
    if [ $n -eq 7 ]; then ok; else bad "the example printed $n lines"; fi
else
    bad "docs/LIBRARY.md's example does not build: $(cat "$tmp/cc.err")"
fi

# docs/LIBRARY.md's link commands (its "Building and linking" sh block),
# run as written: pkg-config over the installed layout (a mancala.pc made
# from mancala.pc.in as make install makes it), and the static link from
# the build tree (the page once left libzstd out of it).
mkdir -p "$tmp/inst/lib/pkgconfig"
sed -e "s|@PREFIX@|$tmp/inst|" -e "s|@LIBDIR@|$tmp/inst/lib|" \
    -e "s|@INCDIR@|$tmp/inst/include|" -e "s|@VERSION@|$major|" \
    mancala.pc.in > "$tmp/inst/lib/pkgconfig/mancala.pc"
awk '/^## Building and linking/ {in_s = 1} in_s && /^```sh$/ {on = 1; next}
     on && /^```$/ {exit} on {print}' docs/LIBRARY.md > "$tmp/link.sh"
n=0
while read -r line; do
    n=$((n + 1))
    rm -f "$tmp/prog"
    if [ $B = build ] && (cp "$tmp/user.c" "$tmp/prog.c" &&
        PKG_CONFIG_PATH="$tmp/inst/lib/pkgconfig" \
        sh -c "$(echo "$line" | sed "s|prog\.c|$tmp/prog.c|; s|-o prog|-o $tmp/prog|")") \
        2>"$tmp/cc.err"; then
        expect_out "docs/LIBRARY.md's line $n builds a program that runs" "$user_want" \
            env LD_LIBRARY_PATH="$tmp/inst/lib" "$tmp/prog"
    elif [ $B = build ]; then
        bad "docs/LIBRARY.md's link line $n fails: $line: $(cat "$tmp/cc.err")"
    fi
done < "$tmp/link.sh"
if [ $n -ge 2 ]; then ok; else bad "docs/LIBRARY.md has $n link lines"; fi

# The exported symbols against the headers' declarations.
nm -D --defined-only "$so" | awk '{print $3}' | sort > "$tmp/exported"
grep -hv '^#' include/*.h | tr '\n' ' ' | grep -o 'MC_API[^(;]*(' |
    sed 's/.*[ *]\([A-Za-z_0-9]*\)($/\1/' | sort -u > "$tmp/declared"
n=$(wc -l < "$tmp/exported")
if [ "$n" -ge 100 ]; then ok; else bad "only $n exported symbols"; fi
extra=$(comm -23 "$tmp/exported" "$tmp/declared")
if [ -z "$extra" ]; then ok; else
    bad "exported but not declared in include/*.h: $(echo $extra)"
fi
missing=$(comm -13 "$tmp/exported" "$tmp/declared")
if [ -z "$missing" ]; then ok; else
    bad "declared but not exported: $(echo $missing)"
fi
# Every exported name is written in a header as a word, independently of
# the MC_API marks read above.
for sym in $(cat "$tmp/exported"); do
    grep -qw "$sym" include/*.h || echo "$sym"
done > "$tmp/unnamed"
if [ -s "$tmp/unnamed" ]; then
    bad "exported symbols no header names: $(echo $(cat "$tmp/unnamed"))"
else ok; fi
if grep -v '^mc_' "$tmp/exported" > "$tmp/foreign"; then
    bad "exported symbols without the mc_ prefix: $(echo $(cat "$tmp/foreign"))"
else ok; fi
# The static library still holds the internal functions the tests use.
if nm $B/libmancala.a 2>/dev/null | grep -q ' T eg_'; then ok; else
    bad "the static library lost its internal eg_ functions"
fi

finish cli_symbols.sh
