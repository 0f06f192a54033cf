#!/bin/sh
# tests/cli_egdb.sh - `mancala egdb`: build a small table set, probe
# positions whose values follow from the rules by hand, info, verify,
# resume, a missing middle layer reported by every loader, and clear errors
# (message on stderr, exit 1 or 2).
. tests/lib/harness.sh

# The builds here leave layer 6's giant component to the approximation
# (its search takes minutes; test_egdb checks it on chosen positions).
MANCALA_EGDB_MAXCOMP=2000
export MANCALA_EGDB_MAXCOMP

D=$tmp/tables
expect_grep "build abapa 0-6" "built abapa layers 0-6" $M egdb build oware --seeds 6 --dir "$D"
expect_grep "build awari 0-6" "built awari layers 0-6" $M egdb build oware:awari --seeds 6 --dir "$D"
n=0
for f in "$D"/oware-abapa-0[0-6].egdb "$D"/oware-awari-0[0-6].egdb; do
    [ -f "$f" ] && n=$((n + 1))
done
if [ $n -eq 14 ]; then ok; else bad "expected 14 layer files, found $n"; fi
# The search and its front-ends use the tables: analyze reports a root the
# tables solve, in agreement with `egdb probe` (the tables ignore the 25
# rule, so F's capture and the seeds left give 28-20), and the engine
# protocol probes them after `set database`.
expect_grep "analyze reports perfect play" "perfect play: South wins by 8" \
    $M analyze oware "0,0,0,1,0,1/1,0,0,0,0,1 S cap=24,20" --depth 3 --egdb "$D"
expect_grep "probe agrees" "perfect play: South wins by 8 (28-20)" \
    $M egdb probe oware "0,0,0,1,0,1/1,0,0,0,0,1 S cap=24,20" --dir "$D"
# A table score reads as the final margin: F captures 2 (24-21), the
# tables then say South gets the 3 seeds left (27-21).
expect_grep "analyze shows a table score as the margin" "score win by 6 (tables)" \
    $M analyze oware "2,0,0,0,0,1/1,0,0,1,0,0 S cap=22,21" --depth 2 --egdb "$D"
# where the tables know the root, the best move keeps the table's value
# (egdb probe: C keeps South's win, A and B give some of it away; the
# search alone at depth 2 chose A and B)
expect_grep "analyze plays the tables' move" "bestmove C" \
    $M analyze oware "1,0,1,0,0,0/0,0,0,1,3,0 S cap=20,22" --depth 2 --egdb "$D"
expect_grep "analyze plays the tables' move again" "bestmove C" \
    $M analyze oware "0,1,1,0,0,2/1,0,0,0,0,0 S cap=24,19" --depth 2 --egdb "$D"
expect_grep "and agrees with the root's probe" "perfect play: South wins by 6" \
    $M analyze oware "2,0,0,0,0,1/1,0,0,1,0,0 S cap=22,21" --depth 2 --egdb "$D"
expect_grep "the engine reports it as tablewin" "score tablewin 6" sh -c \
    "printf 'set database $D\\nposition 2,0,0,0,0,1/1,0,0,1,0,0 S cap=22,21\\ngo depth 2\\n' | $M engine"
# the line of a table win goes on with moves that keep the table's value
# to the end or 64 moves: here more than the first two
expect_grep "a tablewin line is longer than its first move" "score tablewin 6 .* pv F d [A-F]" sh -c \
    "printf 'set database $D\\nposition 2,0,0,0,0,1/1,0,0,1,0,0 S cap=22,21\\ngo depth 2\\n' | $M engine"
expect_grep "and a lost one as tableloss" "score tableloss 2" sh -c \
    "printf 'set database $D\\nposition 0,0,0,0,1,1/2,1,0,0,0,0 S cap=20,23\\ngo depth 2\\n' | $M engine"
expect_err "analyze with rules that have no tables" 1 "no endgame tables for these rules" \
    $M analyze oware:grand_slam=win25 --depth 2 --egdb "$D"
expect_grep "engine probes the tables" "bestmove F" sh -c \
    "printf 'set database $D\\nposition 0,0,0,1,0,1/1,0,0,0,0,1 S cap=24,20\\ngo depth 2\\n' | $M engine"
expect_grep "engine refuses a folder without tables at once" "error set: database: no tables in" sh -c \
    "printf 'set database $tmp\\ngo depth 1\\n' | $M engine"
printf '[Game "oware"]\n[Start "0,0,0,1,0,1/1,0,0,0,0,1 S cap=24,20"]\n\n*\n' >"$tmp/end.mcr"
expect_grep "play reports perfect play" "perfect play: South wins by 8" sh -c \
    "printf 'quit\\n' | $M play --plain --resume '$tmp/end.mcr' --egdb '$D'"
expect_err "play with a directory without tables" 1 "no tables in" \
    $M play --plain --egdb "$tmp/none"
expect_grep "resume finds the layers" "layers 0-6 found complete" $M egdb build oware --seeds 6 --dir "$D"
rm "$D/oware-abapa-05.egdb"
# A layer missing under another is reported, not read as "layers 0-4".
expect_err "verify: a missing middle layer" 1 "layer 5 is missing but layer 6" \
    $M egdb verify oware --dir "$D"
expect_err "info: a missing middle layer" 1 "layer 5 is missing but layer 6" \
    $M egdb info oware --dir "$D"
expect_err "play: a missing middle layer" 1 "layer 5 is missing" \
    sh -c "printf 'quit\\n' | $M play --plain --egdb '$D'"
expect_grep "resume at layer 5" "layer  5:" $M egdb build oware --seeds 6 --dir "$D"

# O8c: South to move has no seeds: North takes its 3 (value -3 for South).
expect_out "probe empty mover" "layer 3 (abapa): value -3 for South, the side to move (history_proof yes)
future seeds: South 0, North 3
perfect play: North wins by 14 (31-17)
no legal move: the game ends (each side takes its row)" \
    $M egdb probe oware "0,0,0,0,0,0/0,0,0,0,1,2 S cap=17,28" --dir "$D"
expect_grep "probe empty mover, layer 4" "value -4 for South" \
    $M egdb probe oware "0,0,0,0,0,0/0,0,0,1,1,2 S cap=17,27" --dir "$D"
# O7 + O8c: North is empty and South's single seed in A cannot reach it.
expect_grep "probe cannot feed" "value +1 for South" \
    $M egdb probe oware "1,0,0,0,0,0/0,0,0,0,0,0 S cap=23,24" --dir "$D"
expect_grep "probe cannot feed: draw" "perfect play: draw, 24-24" \
    $M egdb probe oware "1,0,0,0,0,0/0,0,0,0,0,0 S cap=23,24" --dir "$D"
# South must feed with F; then North (a=1) cannot feed South and takes
# its seed: 24-24, so F is worth -1 and the child is history-proof.
expect_out "probe one forced move" "layer 1 (abapa): value -1 for South, the side to move (history_proof yes)
future seeds: South 0, North 1
perfect play: draw, 24-24
  F -1  best" \
    $M egdb probe oware "0,0,0,0,0,1/0,0,0,0,0,0 S cap=24,23" --dir "$D"
# North to move: the value is for North (mover-first tables).
expect_grep "probe North to move" "value -4 for North" \
    $M egdb probe oware "0,0,0,1,1,2/0,0,0,0,0,0 N cap=27,17" --dir "$D"
expect_grep "probe awari" "layer 4 (awari): value -4" \
    $M egdb probe oware:awari "0,0,0,0,0,0/0,0,0,1,1,2 S cap=17,27" --dir "$D"
expect_grep "probe via MANCALA_EGDB_DIR" "value -4" \
    env MANCALA_EGDB_DIR="$D" $M egdb probe oware "0,0,0,0,0,0/0,0,0,1,1,2 S cap=17,27"

expect_grep "info layer 2" "entries 78," $M egdb info oware --seeds 2 --dir "$D"
expect_grep "info histogram" "histogram" $M egdb info oware --dir "$D"
expect_grep "info of a file" "layer 3 of awari" $M egdb info "$D/oware-awari-03.egdb"
# egdb stats: layer 1 of abapa worked by hand.  Mover-first houses, one
# seed.  In an opponent's house (6 positions) the mover cannot move: -1.
# In the mover's house 0-4 its only move keeps it home and cannot feed the
# empty opponent, so the mover takes it: +1 (5 positions).  In house 5 it
# must feed; the opponent then holds it in its house 0 and takes it the
# same way: -1.  So 5 ahead, 0 even, 7 behind of 12.
expect_grep "stats abapa layer 1" "| 1 | 12 | 5 | 0 | 7 |" \
    $M egdb stats oware --dir "$D"
# Every row of both presets: C(n+11, 11) positions, split into ahead,
# even and behind.
$M egdb stats all --dir "$D" >"$tmp/stats" 2>&1
rows=$(awk -F'|' '$2 ~ /^ [0-9]+\*? $/ { n = $2 + 0; c = 1;
        for (k = 1; k <= 11; k++) c = c * (n + k) / k;
        if ($3 + 0 == c && $4 + $5 + $6 == c) good++; else print "bad row: " $0 }
        END { print good + 0 }' "$tmp/stats")
[ "$rows" = 14 ] && grep -q "^## abapa" "$tmp/stats" && grep -q "^## awari" "$tmp/stats" &&
    ok || bad "stats all: $rows"
expect_err "stats without tables" 1 "no tables in" $M egdb stats oware --dir "$tmp/none"
# A layer killed while building: info tells how far its search got.
printf 'mancala egdb search journal 1 x n=7\n12 1\n40 -1\n7' > "$D/oware-abapa-07.journal"
expect_grep "info of a journal" "layer 7 not complete: its history search's journal holds 2 values" \
    $M egdb info oware --dir "$D"
rm -f "$D/oware-abapa-07.journal"
expect_grep "verify abapa" "verify: ok" $M egdb verify oware --dir "$D"
expect_grep "verify awari" "verify: ok" $M egdb verify oware:awari --dir "$D"
expect_grep "verify --from" "verify: ok (awari layers 5-" \
    $M egdb verify oware:awari --from 5 --dir "$D"
if grep -q '^layer  4:' "$tmp/out"; then bad "verify --from 5 checked layer 4"; else ok; fi
expect_err "verify --from beyond" 1 "go up to" $M egdb verify oware:awari --from 48 --dir "$D"

for c in build verify info probe default; do
    expect_grep "help $c" "usage: mancala egdb $c" $M egdb $c --help
done
expect_grep "help egdb" "mancala egdb build" $M egdb --help
expect_grep "egdb in the command list" "egdb" $M --help

expect_err "build without --seeds" 2 "seeds N is required" $M egdb build oware --dir "$D"
expect_err "bad --seeds" 2 "expected a number" $M egdb build oware --seeds 99 --dir "$D"
expect_err "unknown option" 2 "unknown option '--fast'" $M egdb build oware --fast
expect_err "bad --memory" 2 "--memory needs a size" $M egdb build oware --seeds 3 --memory 12Q --dir "$D"
expect_err "--memory below 1M" 2 "--memory needs a size" $M egdb build oware --seeds 3 --memory 100K --dir "$D"
expect_err "bad --checkpoint" 2 "--checkpoint needs seconds" $M egdb build oware --seeds 3 --checkpoint 0 --dir "$D"
expect_grep "build help: --memory" "memory SIZE" $M egdb build --help
# A budget: the summary tells each layer's peak anonymous memory (the
# layers here are small: the budget's effect is tested in test_egdb).
mkdir -p "$tmp/budget"
expect_grep "--memory: peak RssAnon per layer" "layer  4: .*peak RssAnon" \
    $M egdb build oware --seeds 4 --memory 64M --checkpoint none --dir "$tmp/budget"
expect_err "unknown subcommand" 2 "unknown subcommand 'make'" $M egdb make
expect_err "rules without tables" 1 "no endgame tables for these rules" \
    $M egdb build oware:grand_slam=win25 --seeds 3 --dir "$D"
expect_err "bad game" 1 "mancala:" $M egdb probe nosuchgame "x" --dir "$D"
expect_err "probe missing position" 2 "missing the position" $M egdb probe oware --dir "$D"
expect_err "probe bad position" 1 "bad position" $M egdb probe oware "1,2,3" --dir "$D"
expect_err "probe too many seeds" 1 "go up to 6" \
    $M egdb probe oware "4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0" --dir "$D"
expect_err "no tables" 1 "no tables in" $M egdb probe oware "1,0,0,0,0,0/0,0,0,0,0,0 S cap=23,24" --dir "$tmp/none"

# Damage: one entry byte of layer 3 flipped; a truncated layer 4.
cp "$D/oware-abapa-03.egdb" "$tmp/l3"
printf '\377' | dd of="$D/oware-abapa-03.egdb" bs=1 seek=4200 conv=notrunc 2>/dev/null
expect_err "damaged payload" 1 "payload checksum mismatch" \
    $M egdb probe oware "1,0,0,0,0,0/0,0,0,0,0,0 S cap=23,24" --dir "$D"
expect_err "damaged: verify refuses" 1 "payload checksum mismatch" $M egdb verify oware --dir "$D"
cp "$tmp/l3" "$D/oware-abapa-03.egdb"
head -c 5000 "$D/oware-awari-04.egdb" > "$tmp/l4" && cp "$tmp/l4" "$D/oware-awari-04.egdb"
expect_err "truncated" 1 "truncated" $M egdb info oware:awari --dir "$D"
expect_grep "a damaged layer is rebuilt" "layer  4:" $M egdb build oware:awari --seeds 6 --dir "$D"
expect_grep "rebuilt set verifies" "verify: ok" $M egdb verify oware:awari --dir "$D"

# ---- the default places (docs/EGDB.md "Where the tables are") ----------
# The harness keeps XDG_DATA_HOME in $tmp and turns tables off
# (MANCALA_EGDB_DIR=none); these tests turn them on with env -u.
U=$XDG_DATA_HOME/mancala/egdb
on="env -u MANCALA_EGDB_DIR"
# Tables installed in the share folder would be found where the tests of
# the first use expect none: those are skipped then.
installed=
for p in oware oware:awari; do
    if env -u MANCALA_EGDB_DIR XDG_DATA_HOME="$tmp/nowhere" $M egdb default $p --no-build >/dev/null 2>&1; then
        installed=1
    fi
done
[ -n "$installed" ] && echo "cli_egdb.sh: tables are installed in the share folder: first-use tests skipped"
END="0,0,0,1,0,1/1,0,0,0,0,1 S cap=24,20"
expect_grep "build without --dir writes the user directory" "built abapa layers 0-5 in $U" \
    $on $M egdb build oware --seeds 5
if [ -f "$U/oware-abapa-05.egdb" ]; then ok; else bad "no layer 5 in $U"; fi
expect_grep "analyze finds them and says so" "endgame tables: abapa layers 0-5 in $U" \
    $on $M analyze oware "$END" --depth 3
expect_grep "and uses them" "perfect play: South wins by 8" $on $M analyze oware "$END" --depth 3
# Without tables the search proves the same capture, but says nothing of
# tables (the expected outputs of every other test depend on it).
no_tables() {
    desc=$1
    shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 0 ] && grep -q bestmove "$tmp/out" && ! grep -q "tables\|perfect play" "$tmp/out"; then
        ok; else bad "$desc: rc=$rc $(cat "$tmp/out" "$tmp/err")"; fi
}
no_tables "MANCALA_EGDB_DIR=none turns them off" $M analyze oware "$END" --depth 3
no_tables "--no-egdb turns them off" $on $M analyze oware "$END" --depth 3 --no-egdb
no_tables "games without tables say nothing" $on $M analyze oware:grand_slam=win25 "$END" --depth 3
expect_err "--egdb with --no-egdb" 2 "together" $M analyze oware --egdb "$D" --no-egdb
expect_grep "MANCALA_EGDB_DIR comes first" "endgame tables: abapa layers 0-6 in $D" \
    env MANCALA_EGDB_DIR="$D" $M analyze oware "$END" --depth 3
expect_grep "--egdb DIR comes before the default places" "endgame tables: abapa layers 0-6 in $D" \
    $on $M analyze oware "$END" --depth 3 --egdb "$D"
expect_grep "probe reads the default places" "value -3 for South" \
    $on $M egdb probe oware "0,0,0,0,0,0/0,0,0,0,1,2 S cap=17,28"
expect_grep "verify reads the default places" "verify: ok (abapa layers 0-5 in $U)" \
    $on $M egdb verify oware
expect_grep "info reads the default places" "$U/oware-abapa-04.egdb" $on $M egdb info oware --seeds 4
expect_err "probe with tables turned off" 1 "turned off (MANCALA_EGDB_DIR=none)" \
    $M egdb probe oware "0,0,0,0,0,0/0,0,0,0,1,2 S cap=17,28"
[ -z "$installed" ] && expect_err "no awari tables in the default places" 1 "no awari endgame tables in $U" \
    $on $M egdb info oware:awari
expect_grep "build without --dir writes MANCALA_EGDB_DIR when set" "built abapa layers 0-2 in $tmp/envdir" \
    env MANCALA_EGDB_DIR="$tmp/envdir" $M egdb build oware --seeds 2

# First use: egdb default builds the small set (MANCALA_EGDB_FIRST_SEEDS=4
# here to keep the test fast) into the user directory, with a progress
# line (plain start and end lines when stderr is not a terminal).
if [ -z "$installed" ]; then
F=$tmp/first/mancala/egdb
first="env -u MANCALA_EGDB_DIR XDG_DATA_HOME=$tmp/first MANCALA_EGDB_FIRST_SEEDS=4"
expect_err "nothing there, no build" 1 "no abapa endgame tables in $F" \
    $first $M egdb default oware --no-build
expect_grep "first use builds the small set" "abapa layers 0-4 in $F" $first $M egdb default oware
if grep -q "^Building Oware endgame tables (layers 0-4, first use only) \.\.\.$" "$tmp/err" &&
    grep -q "^Building Oware endgame tables (layers 0-4, first use only) \.\.\. done in .* s ($F)$" "$tmp/err"
then ok; else bad "first-use progress lines: $(cat "$tmp/err")"; fi
expect_grep "second use finds them" "abapa layers 0-4 in $F" $first $M egdb default oware
if [ ! -s "$tmp/err" ]; then ok; else bad "second use printed: $(cat "$tmp/err")"; fi
expect_grep "and analyze uses them" "endgame tables: abapa layers 0-4 in $F" \
    $first $M analyze oware "0,0,0,0,0,0/0,0,0,1,1,2 S cap=17,27" --depth 2
expect_grep "awari's first use" "awari layers 0-4 in $F" $first $M egdb default oware:awari
if grep -q "Building Oware (awari) endgame tables (layers 0-4" "$tmp/err"; then ok; else
    bad "awari progress line: $(cat "$tmp/err")"; fi
# On a terminal (script(1) gives one) the line is updated in place.
if command -v script >/dev/null 2>&1; then
    env -u MANCALA_EGDB_DIR XDG_DATA_HOME="$tmp/tty" MANCALA_EGDB_FIRST_SEEDS=4 \
        script -qec "$M egdb default oware" /dev/null >"$tmp/tty.out" 2>&1
    if grep -q "first use only) \.\.\. [0-9]*%.*$(printf '\r')Building Oware endgame tables (layers 0-4, first use only) \.\.\. done in" "$tmp/tty.out"
    then ok; else bad "progress on a terminal: $(od -c "$tmp/tty.out" | head -20)"; fi
fi
# An interrupted first use (fewer layers) is finished, the rest kept.
expect_grep "a short set is finished" "abapa layers 0-5 in $F" \
    env -u MANCALA_EGDB_DIR XDG_DATA_HOME="$tmp/first" MANCALA_EGDB_FIRST_SEEDS=5 $M egdb default oware
if grep -q "layers 0-5, first use only" "$tmp/err"; then ok; else bad "short set: $(cat "$tmp/err")"; fi
expect_err "egdb default with tables turned off" 1 "turned off" $M egdb default oware
expect_err "egdb default of rules without tables" 1 "no endgame tables for these rules" \
    $on $M egdb default oware:grand_slam=win25
# Another program building in the directory (holding its lock): a build
# there refuses, and a first use goes on without building.
expect_err "build beside another build" 1 "another program is building tables in $D" \
    flock "$D/.build-lock" $M egdb build oware --seeds 6 --dir "$D"
mkdir -p "$tmp/busy/mancala/egdb"
expect_err "first use beside another build" 1 "another program is building them in $tmp/busy/mancala/egdb" \
    flock "$tmp/busy/mancala/egdb/.build-lock" env -u MANCALA_EGDB_DIR XDG_DATA_HOME="$tmp/busy" $M egdb default oware
# A file where the user directory should be: clear messages.
: >"$tmp/file"
expect_err "build into a file" 1 "not a directory" \
    env -u MANCALA_EGDB_DIR XDG_DATA_HOME="$tmp/file" $M egdb build oware --seeds 2
expect_err "first use into a file" 1 "endgame tables not built: .*not a directory" \
    env -u MANCALA_EGDB_DIR XDG_DATA_HOME="$tmp/file" $M egdb default oware
# A damaged default table: analyze says so once and searches without it;
# egdb default refuses with the same message.
printf '\377' | dd of="$F/oware-abapa-03.egdb" bs=1 seek=4200 conv=notrunc 2>/dev/null
$first $M analyze oware "$END" --depth 3 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q bestmove "$tmp/out" && ! grep -q "endgame tables:" "$tmp/out" &&
    [ "$(grep -c "endgame tables not used: .*oware-abapa-03.egdb: payload checksum mismatch" "$tmp/err")" -eq 1 ]
then ok; else bad "analyze over damaged tables: rc=$rc $(cat "$tmp/out" "$tmp/err")"; fi
expect_err "egdb default over damaged tables" 1 "rebuilds the damaged layers" $first $M egdb default oware
fi

finish cli_egdb.sh
