#!/bin/sh
# tests/deb.sh - the Debian packages of `make deb` (debian/README.Debian),
# each tried as installed, unpacked with dpkg -x into a scratch folder
# (nothing is installed on the machine).  Run by CI (.ci/run) after make
# deb; not part of make check.
#   sh tests/deb.sh [DIR]          the .deb files in DIR (default build/deb)
# Checks: mancala plays a whole game in line mode, links no MPI library
# and reads its packaged endgame tables; a C program built with
# pkg-config against libmancala-dev runs on libmancala1; python3-mancala
# imports and loads libmancala.so.1; mancala-mpi builds small tables as
# two processes under mpirun, the same bytes as the packaged ones.
. tests/lib/harness.sh

ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
dir=${1:-build/deb}
root=$tmp/root
mkdir -p "$root"
for p in mancala libmancala1 libmancala-dev python3-mancala mancala-mpi; do
    f=$(ls "$dir"/${p}_*.deb 2>/dev/null | head -n 1)
    if [ -n "$f" ] && dpkg -x "$f" "$root"; then ok; else
        bad "no package $p in $dir (make deb)"
    fi
done
# The unpacked library, found before any installed one.
LD_LIBRARY_PATH=$root/usr/lib/$ma
export LD_LIBRARY_PATH
prog=$root/usr/games/mancala
mpiprog=$root/usr/games/mancala-mpi
tables=$root/usr/share/mancala/egdb

# --- mancala
expect_grep "mancala --version" "mancala [0-9]" "$prog" --version
if ldd "$prog" | grep -qi mpi; then
    bad "mancala links MPI: $(ldd "$prog" | grep -i mpi)"
else ok; fi
# A whole game in line mode (stdin not a terminal), the computer on both
# sides, with the packaged tables.
expect_grep "a game in line mode" "Game over" env MANCALA_EGDB_DIR="$tables" \
    "$prog" play oware --south computer --north computer --level 3 \
    --time 0.05 --seed 1
expect_grep "the packaged tables" "verify: ok (abapa layers 0-10" \
    "$prog" egdb verify oware --dir "$tables"
expect_grep "the packaged awari tables" "verify: ok (awari layers 0-10" \
    "$prog" egdb verify oware:awari --dir "$tables"
for m in man1/mancala.1 man5/mancala-record.5 man6/mancala-engine.6 \
    man1/mancala-mpi.1; do
    if [ -f "$root/usr/share/man/$m.gz" ]; then ok; else bad "no man page $m"; fi
done
# The beginner's pages, in English and in French (fr/, made by po4a).
for g in oware omweso gore sadeqa2; do
    f=$root/usr/share/doc/mancala/howto-$g.html
    [ -f "$f" ] && ok || bad "no beginner's page $f"
    f=$root/usr/share/doc/mancala/fr/howto-$g.html
    grep -q '<html lang="fr">' "$f" 2>/dev/null && ok || bad "no French beginner's page $f"
done

# --- libmancala-dev and libmancala1: a program built with pkg-config
cat >"$tmp/smoke.c" <<'EOF'
#include <mancala.h>
#include <stdio.h>
int main(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_pos p;
    mc_start(g, &p);
    unsigned long long n = mc_perft(g, &p, 3);
    mc_game_free(g);
    printf("perft 3: %llu (mancala %s)\n", n, mc_version());
    return n == 190 ? 0 : 1;
}
EOF
flags=$(PKG_CONFIG_PATH=$root/usr/lib/$ma/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root \
    pkg-config --cflags --libs mancala)
if cc -o "$tmp/smoke" "$tmp/smoke.c" $flags 2>"$tmp/cc.err"; then ok; else
    bad "cc smoke.c $flags: $(cat "$tmp/cc.err")"
fi
expect_grep "a C program on libmancala.so.1" "perft 3: 190" "$tmp/smoke"
if ldd "$tmp/smoke" | grep -q "libmancala.so.1 => $root/usr/lib/$ma/libmancala.so.1"; then
    ok
else bad "smoke does not load the packaged library: $(ldd "$tmp/smoke" | grep mancala)"; fi

# --- python3-mancala: the module loads libmancala.so.1 through the
# dynamic loader (its _installed.py names the soname).
expect_grep "import mancala" "loaded libmancala.so.1 from $root/usr/lib/$ma/" \
    env -u MANCALA_LIB PYTHONPATH="$root/usr/lib/python3/dist-packages" \
    /usr/bin/python3 -c '
import mancala
assert mancala.load_game("oware").new_initial_state().legal_actions() == list(range(6))
maps = [l.split()[-1] for l in open("/proc/self/maps") if "libmancala" in l]
print("loaded", mancala._capi.LIB_PATH, "from", maps[0])'

# --- mancala-mpi: two processes under mpirun (as root and in containers
# without cross-memory attach, as tests/mpi.sh), layers 0-5, the bytes of
# the packaged tables.
OMPI_ALLOW_RUN_AS_ROOT=1
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM \
    OMPI_MCA_btl_vader_single_copy_mechanism
if ldd "$mpiprog" | grep -q libmpi; then ok; else bad "mancala-mpi links no MPI"; fi
expect_grep "mancala-mpi under mpirun" "built abapa layers 0-5.*2 processes" \
    mpirun --oversubscribe -np 2 "$mpiprog" egdb build oware --seeds 5 \
    --dir "$tmp/mpi" --threads 1
for n in 00 01 02 03 04 05; do
    if cmp -s "$tables/oware-abapa-$n.egdb" "$tmp/mpi/oware-abapa-$n.egdb"; then ok; else
        bad "layer $n of mancala-mpi differs from the packaged one"
    fi
done

finish deb.sh
