#!/bin/sh
# tests/cli_egdbz.sh - compressed endgame tables (`mancala egdb compress`,
# docs/EGDB.md "Compressed layers"): every reader gives what it gives over
# the plain files (each entry, probes, info's checksums, stats, verify,
# analyze), a build on top of compressed layers writes the same file as
# over plain ones, and damage anywhere in a compressed file is refused.
. tests/lib/harness.sh

MANCALA_EGDB_MAXCOMP=2000
export MANCALA_EGDB_MAXCOMP

A=$tmp/plain
Z=$tmp/z
expect_grep "build abapa 0-8" "built abapa layers 0-8" $M egdb build oware --seeds 8 --dir "$A"
expect_grep "build awari 0-6" "built awari layers 0-6" $M egdb build oware:awari --seeds 6 --dir "$A"
mkdir -p "$Z"
cp "$A"/*.egdb "$Z"/
# Blocks of 64 entries: layer 8's 75,582 entries make 1,181 blocks, the
# last one short (62 entries), so block edges are everywhere.
expect_grep "compress abapa" "compressed abapa layers 0-8 in $Z" \
    $M egdb compress oware --dir "$Z" --block 64 --level 3
expect_grep "compress awari, keeping the plain files" "plain files kept" \
    $M egdb compress oware:awari --dir "$Z" --keep
n=$(ls "$Z"/oware-abapa-*.egdbz | wc -l)
p=$(ls "$Z"/oware-abapa-*.egdb 2>/dev/null | wc -l)
if [ "$n" -eq 9 ] && [ "$p" -eq 0 ]; then ok; else bad "abapa: $n compressed, $p plain files left"; fi
n=$(ls "$Z"/oware-awari-*.egdbz "$Z"/oware-awari-*.egdb | wc -l)
if [ "$n" -eq 14 ]; then ok; else bad "awari --keep: $n files, want 7 + 7"; fi
expect_grep "compressing again leaves them" "layer  8: .* in " \
    $M egdb compress oware --dir "$Z" --block 64 --level 3

# The same headers and checksums (info), the same statistics, the same
# verification, the same probes.
$M egdb info oware --dir "$A" | grep -v '^/' >"$tmp/ia"
$M egdb info oware --dir "$Z" | grep -v '^/' | sed 's/ [0-9]* bytes$/ bytes/' >"$tmp/iz"
sed 's/ [0-9]* bytes$/ bytes/' "$tmp/ia" >"$tmp/ia2"
if [ -s "$tmp/ia2" ] && cmp -s "$tmp/ia2" "$tmp/iz"; then ok; else bad "info differs: $(diff "$tmp/ia2" "$tmp/iz" | head -5)"; fi
if $M egdb info oware --dir "$Z" | grep -q "oware-abapa-08.egdbz"; then ok; else bad "info does not name the compressed file"; fi
expect_grep "info of one compressed file" "layer 8 of abapa" $M egdb info "$Z/oware-abapa-08.egdbz"
$M egdb stats oware --dir "$A" >"$tmp/sa"
$M egdb stats oware --dir "$Z" >"$tmp/sz"
if [ -s "$tmp/sa" ] && cmp -s "$tmp/sa" "$tmp/sz"; then ok; else bad "stats differ"; fi
expect_grep "verify the compressed layers" "verify: ok (abapa layers 0-8" $M egdb verify oware --dir "$Z"
for pos in "0,0,0,1,0,1/1,0,0,0,0,1 S cap=24,20" "2,0,0,0,0,1/1,0,0,1,0,0 S cap=22,21" \
    "1,0,1,0,0,0/0,0,0,1,3,0 N cap=20,22" "0,1,2,0,1,0/1,1,0,1,0,1 S cap=19,21" \
    "3,0,0,0,0,0/0,0,0,0,0,5 N cap=20,20"; do
    a=$($M egdb probe oware "$pos" --dir "$A" 2>&1)
    z=$($M egdb probe oware "$pos" --dir "$Z" 2>&1)
    if [ -n "$a" ] && [ "$a" = "$z" ]; then ok; else bad "probe $pos: '$a' vs '$z'"; fi
done
P="1,2,0,1,1,0/0,1,1,0,0,1 S cap=20,20"
# (the same lines but for the speed)
a=$($M analyze oware "$P" --depth 8 --egdb "$A" 2>&1 | grep -v "endgame tables:" | sed 's/ nps .* pv / pv /')
z=$($M analyze oware "$P" --depth 8 --egdb "$Z" 2>&1 | grep -v "endgame tables:" | sed 's/ nps .* pv / pv /')
if echo "$a" | grep -q bestmove && [ "$a" = "$z" ]; then ok; else bad "analyze differs: '$a' vs '$z'"; fi

# A mixed set: layers 0-5 plain, 6-8 compressed (--from 6), read as one.
X=$tmp/mixed
mkdir -p "$X"
cp "$A"/oware-abapa-0[0-8].egdb "$X"/
expect_grep "compress from layer 6" "compressed abapa layers 6-8 in $X" \
    $M egdb compress oware --dir "$X" --from 6
p=$(ls "$X"/oware-abapa-0[0-5].egdb | wc -l)
n=$(ls "$X"/oware-abapa-0[6-8].egdbz | wc -l)
q=$(ls "$X"/oware-abapa-0[6-8].egdb "$X"/oware-abapa-0[0-5].egdbz 2>/dev/null | wc -l)
if [ "$p" -eq 6 ] && [ "$n" -eq 3 ] && [ "$q" -eq 0 ]; then ok; else bad "--from 6: $p plain, $n compressed, $q misplaced"; fi
expect_grep "verify the mixed set" "verify: ok (abapa layers 0-8" $M egdb verify oware --dir "$X"
$M egdb stats oware --dir "$X" >"$tmp/sx"
if cmp -s "$tmp/sa" "$tmp/sx"; then ok; else bad "stats of the mixed set differ"; fi
expect_err "--from past the last layer" 2 "end at layer 8" $M egdb compress oware --dir "$X" --from 9

# A build reads compressed lower layers: layer 9 over them is the same
# file as over the plain ones.
$M egdb build oware --seeds 9 --dir "$A" --quiet >/dev/null 2>&1
expect_grep "build on compressed layers" "built abapa layers 0-9" $M egdb build oware --seeds 9 --dir "$Z"
if cmp -s "$A/oware-abapa-09.egdb" "$Z/oware-abapa-09.egdb"; then ok; else bad "layer 9 over compressed layers differs"; fi

# Damage: a bit in the entries' frames, in the block index, in the header,
# a truncated file; each refused by opening with what is wrong.
for what in data index header truncated; do
    D=$tmp/d-$what
    rm -rf "$D"
    mkdir -p "$D"
    cp "$Z"/oware-abapa-0[0-8].egdbz "$D"/
    f=$D/oware-abapa-08.egdbz
    size=$(wc -c <"$f")
    case $what in
    data) off=$((size - 300)) msg="does not decompress" ;;
    index) off=$((4096 + 64 + 8 * 5 + 1)) msg="block index checksum mismatch" ;;
    header) off=100 msg="header checksum mismatch" ;;
    truncated) off=-1 msg="truncated" ;;
    esac
    if [ $off -ge 0 ]; then
        # a byte other than the one there
        was=$(od -An -tu1 -j $off -N1 "$f" | tr -d ' ')
        if [ "$was" = 85 ]; then b='\252'; else b='\125'; fi
        printf "$b" | dd of="$f" bs=1 seek=$off conv=notrunc 2>/dev/null
    else
        head -c $((size - 10)) "$Z/oware-abapa-08.egdbz" >"$f"
    fi
    expect_err "damaged $what" 1 "oware-abapa-08.egdbz: .*$msg" $M egdb info oware --dir "$D"
done
expect_err "a block size not a multiple of 16" 2 "multiple of 16" \
    $M egdb compress oware --dir "$Z" --block 100
expect_err "compress without tables" 1 "no tables in" $M egdb compress oware --dir "$tmp/none"

finish cli_egdbz.sh
