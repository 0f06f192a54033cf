#!/bin/sh
# cli_solved.sh - the solved games' tables from the command line
# (docs/SOLVED.md): mancala solve --build|--verify|--info and mancala probe
# on Goré (trades=off) and Sadeqa II, with values worked out by hand from
# the rules, and clear errors (stderr only, exit status 1) for games that
# cannot be solved, missing or damaged tables and positions outside them.
# Run by `make check` with $MANCALA.
. tests/lib/harness.sh
dir=$tmp

# fx TEXT: TEXT as a basic regular expression that matches it alone:
# its dots escaped, and no other character special to grep allowed
fx() {
    case $1 in
    *[\[\]*^\$\\]*) bad "fx: '$1' holds a character special to grep" ;;
    esac
    printf '%s\n' "$1" | sed 's/\./\\./g'
}
# has DESC TEXT CMD...: exit 0 and the text TEXT somewhere in stdout
has() { d=$1 t=$2; shift 2; expect_grep "$d" "$(fx "$t")" "$@"; }
# reject DESC TEXT CMD...: exit 1, nothing on stdout, the text TEXT on stderr
reject() { d=$1 t=$2; shift 2; expect_err "$d" 1 "$(fx "$t")" "$@"; }
# expect DESC EXPECTED CMD...: exit 0, stdout exactly EXPECTED, no stderr
expect() {
    expect_out "$@"
    [ ! -s "$tmp/err" ] || bad "$1: stderr='$(cat "$tmp/err")'"
}

G=gore:trades=off
has "build" "solved $G layers 0-12 in $dir/g" \
    $M solve --build $G --dir "$dir/g" --seeds 12
if [ -f "$dir/g/gore-notrades-12.egdb" ]; then ok; else bad "layer file"; fi
has "build again: found" "layers 0-12 found complete" \
    $M solve --build $G --dir "$dir/g" --seeds 12
has "verify" "layers 0-12 in $dir/g: verified" \
    $M solve --verify $G --dir "$dir/g" --quiet
has "info" "| 12 | 50388 |" $M solve --info $G --dir "$dir/g"

# By hand (G3-G5): D sows a (1), b (2), c (2): c and b captured (4), a
# keeps 1 for North: 24-24 once the game ends, the next ply.
expect "probe a draw" "a draw, 24-24, with perfect play, settled in 1 ply
  D      +0  best, 1 ply (perfect play's)" \
    $M probe $G '0,0,0,3/0,1,1,0 S own=SSSSNNNN cap=20,23' --dir "$dir/g"
# North has no stone: it passes, South sows A (B, C, D) and keeps 3.
expect "probe a loss" "North loses 3-45 with perfect play, settled in 2 plies
  pass   -42  best, 2 plies (perfect play's)" \
    $M probe $G '3,0,0,0/0,0,0,0 N own=SSSSNNNN cap=42,3' --dir "$dir/g"

reject "trades on" "only without trades" $M probe gore start --dir "$dir/g"
reject "owner" "cannot be solved board by board" \
    $M solve --build gore:trades=off,repetition=owner --dir "$dir/g"
reject "oware" "no solved tables" $M probe oware start --dir "$dir/g"
reject "no tables" "no solved tables in $dir/none" \
    $M probe $G start --dir "$dir/none"
reject "outside" "not in the tables" $M probe $G start --dir "$dir/g"

# A damaged layer: refused by name.
cp -r "$dir/g" "$dir/bad"
printf 'X' | dd of="$dir/bad/gore-notrades-07.egdb" bs=1 seek=5000 \
    conv=notrunc 2>/dev/null
reject "damaged" "gore-notrades-07.egdb: payload checksum mismatch" \
    $M solve --verify $G --dir "$dir/bad"
reject "damaged probe" "checksum" \
    $M probe $G '0,0,0,3/0,1,1,0 S own=SSSSNNNN cap=20,23' --dir "$dir/bad"

# Sadeqa II (S4-S7): A's seed ends in B, empty; North has nothing to move.
has "sadeqa2 build" "solved sadeqa2 layers 0-6" \
    $M solve --build sadeqa2 --dir "$dir/s" --seeds 6
expect "sadeqa2 win" "South wins in 1 ply with perfect play
  A      +1  best, 1 ply (perfect play's)" \
    $M probe sadeqa2 '1,0,0,0,0,0/0,0,0,0,0,0 S first=-' --dir "$dir/s"
# F's seed ends in a (empty); North's a ends in b; South has no move.
expect "sadeqa2 loss" "South loses in 2 plies with perfect play
  F      -1  best, 2 plies (perfect play's)" \
    $M probe sadeqa2 '0,0,0,0,0,1/0,0,0,0,0,0 S first=-' --dir "$dir/s"
# A first move to make has no board: valued from its moves (S2: F is
# empty, so A; then North has nothing to move).
expect "first move" "South wins in 1 ply with perfect play
  A      +1  best, 1 ply (perfect play's)" \
    $M probe sadeqa2 '1,0,0,0,0,0/0,0,0,0,0,0 S first=SN' --dir "$dir/s"
# Perfect play to the end: F, North's a, and South has no move.
expect "line" "South loses in 2 plies with perfect play
  1. South F     loses in 2 (the only move)
  2. North a     wins in 1 (the only move)
the game is over: North wins" \
    $M probe sadeqa2 '0,0,0,0,0,1/0,0,0,0,0,0 S first=-' --dir "$dir/s" --line
# Usage errors (exit 2): each flag where it belongs.
expect_err "probe --from-start" 2 "unexpected argument '--from-start'" \
    $M probe sadeqa2 start --from-start --dir "$dir/s"
expect_err "build --line" 2 "unexpected argument '--line'" \
    $M solve --build sadeqa2 --line --dir "$dir/s"
reject "line beyond" "not in the tables" \
    $M probe sadeqa2 '3,3,3,3,3,3/3,3,3,3,3,3 S first=-' --dir "$dir/s" --line

# Random boards against the exact search (no tables behind it).
has "check" "4 positions, 4 proven by exact search (2 s each at most), 4 agree" \
    $M solve --check sadeqa2 --dir "$dir/s" --seeds 6 --positions 4 --time 2 --quiet

# The engine plays from the tables: perfect play's move, its line.
printf 'set game %s\nset database %s\nposition 0,0,0,3/0,1,1,0 S own=SSSSNNNN cap=20,23\ngo movetime 50\nquit\n' \
    "$G" "$dir/g" | $M engine >"$tmp/eng" 2>&1
if grep -q '^info solved score 0 plies 1 pv D' "$tmp/eng" &&
    grep -q '^bestmove D' "$tmp/eng"; then ok; else
    bad "engine: $(cat "$tmp/eng")"
fi

finish cli_solved
