# Rule cases for W1-W16 (rules/omweso.md).  South's pits in own-index order
# I J K L M N O P H G F E D C B A, North's i j k l m n o p h g f e d c b a.
# Every expectation is worked out by hand in the comment above it.

# W1: 64 seeds, never fewer or more.
rule: W1
game: omweso
position: 4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,1 S first=SN captures=0,0
error: not 64

rule: W1
game: omweso
position: 4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,0,0,0,0,0,0,0,0,0 S first=SN captures=0,0
error: hold 60 seeds

# W2: the match option exists with its two values; scoring is tested in
# tests/test_omweso.c (test_match).
rule: W2
game: omweso:match=single
legal: I J K L M N O P

rule: W2
game: omweso:match=7
error: bad value '7'

# W3: all2 puts 2 in every pit: 16 starts (no 3s, no choice on a first turn).
rule: W3
game: omweso:setup=all2
legal: I J K L M N O P H G F E D C B A

# all2, I: 2 seeds into J, K; K held 2 -> relay 3 into L M N; N held 2 ->
# relay 3 into O P H; H held 2 (inner, but captures are off, W9) -> relay 3
# into G F E; E held 2 -> relay 3 into D C B; B held 2 -> relay 3 into A I J;
# J held 3 -> relay 4 into K L M N; N was 0 -> end.
# I J K L M N O P H G F E D C B A =
# 1 0 1 4 4 1 3 3 0 3 3 0 3 3 0 3
rule: W3 W5 W6 W9
game: omweso:setup=all2
moves: I
expect: 1,0,1,4,4,1,3,3,0,3,3,0,3,3,0,3/2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2 N first=N captures=0,0

# custom: the start is the standard set-up until the players arrange it;
# a set-up is given as a position with first=SN: 32 seeds a side, at most
# 10 in a pit.
rule: W3
game: omweso:setup=custom
legal: I J K L M N O P

rule: W3
game: omweso:setup=custom
position: 10,10,10,2,0,0,0,0,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0,0
legal: I J K L

rule: W3
game: omweso:setup=custom
position: 11,10,9,2,0,0,0,0,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0,0
error: at most 10

rule: W3
game: omweso:setup=custom,setup_cap=none
position: 11,10,9,2,0,0,0,0,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0,0
legal: I J K L

rule: W3
game: omweso:setup=custom
position: 10,10,10,3,0,0,0,0,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,3,0,0,0,0,0,0,0,0 S first=SN captures=0,0
error: 32 seeds

# W4: a start needs 2 or more seeds.
rule: W4
game: omweso
position: 4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0,0
moves: H
error: H holds 0 seeds

# W4, W14d: North to move with no pit of 2 or more has lost: South wins 1.
rule: W4 W14
game: omweso
position: 4,4,4,4,4,4,4,4,0,3,3,3,3,3,3,6/1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0 N first=- captures=3,3
over: S 1 ordinary
legal: 

# W14d after a move: M: 4 into N O P H; H was empty: end.  North still has
# only single seeds: South wins 1 point.
rule: W14
game: omweso
position: 4,4,4,4,4,4,4,4,0,3,3,3,3,3,3,6/1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0 S first=- captures=3,3
moves: M
expect: 4,4,4,4,0,5,5,5,1,3,3,3,3,3,3,6/1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0 N first=- captures=3,3
over: S 1 ordinary

# W5: a lap of 17 from I goes once round, into I itself (the origin is not
# skipped), and on into J: J (0 + 1, then the 17th seed) held 1 -> relay 2
# into K L; L held 1 -> relay 2 into M N; ... each odd pit relays 2 into the
# next two; relay from A (2) into I, J: J was 0 (lifted) -> end.
# I J K L M N O P H G F E D C B A = 2 1 2 0 2 0 2 0 2 0 2 0 2 0 2 0
# (North's inner row is empty: no capture is possible.)
rule: W5 W6
game: omweso
position: 17,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0/6,6,6,6,6,6,6,5,0,0,0,0,0,0,0,0 S first=- captures=0,0
moves: I
expect: 2,1,2,0,2,0,2,0,2,0,2,0,2,0,2,0/6,6,6,6,6,6,6,5,0,0,0,0,0,0,0,0 N first=- captures=0,0

# W7: H faces a=2 and i=0: no capture.  M: 4 into N O P H; H held 1 ->
# relay 2 into G F; F was empty: end.
rule: W6 W7
game: omweso
position: 0,0,0,0,4,0,0,0,1,0,0,0,0,0,0,0/0,8,8,8,8,8,8,9,0,0,0,0,0,0,0,2 S first=- captures=1,1
moves: M
expect: 0,0,0,0,0,1,1,1,0,1,1,0,0,0,0,0/0,8,8,8,8,8,8,9,0,0,0,0,0,0,0,2 N first=- captures=1,1
over: no

# W7, W8: with i=1 H captures a+i = 3, sown from M: N O P; P held 1 (outer)
# -> relay 2 into H G; G was empty: end.  H keeps its seeds.  North's inner
# row is now empty after a capture: okutema, 2 points (W14b).
# North also holds d=1 in the next case.
rule: W7 W8 W14
game: omweso
position: 0,0,0,0,4,0,0,0,1,0,0,0,0,0,0,0/1,8,8,8,8,8,8,8,0,0,0,0,0,0,0,2 S first=- captures=1,1
moves: M
expect: 0,0,0,0,0,2,2,0,3,1,0,0,0,0,0,0/0,8,8,8,8,8,8,8,0,0,0,0,0,0,0,0 N first=- captures=2,1
over: S 2 okutema

# W14b front_row_win=off: the same move wins nothing.
rule: W14
game: omweso:front_row_win=off
position: 0,0,0,0,4,0,0,0,1,0,0,0,0,0,0,0/1,8,8,8,8,8,8,8,0,0,0,0,0,0,0,2 S first=- captures=1,1
moves: M
over: no

# W14c akakyala=on: the same capture with North's d=1 left (inner row not
# empty): South's second capturing turn, North has not captured: 2 points.
rule: W14
game: omweso:akakyala=on
position: 0,0,0,0,4,0,0,0,1,0,0,0,0,0,0,0/1,8,8,8,8,8,8,7,0,0,0,0,1,0,0,2 S first=- captures=1,0
moves: M
expect: 0,0,0,0,0,2,2,0,3,1,0,0,0,0,0,0/0,8,8,8,8,8,8,7,0,0,0,0,1,0,0,0 N first=- captures=2,0
over: S 2 akakyala

# ... off by default.
rule: W14
game: omweso
position: 0,0,0,0,4,0,0,0,1,0,0,0,0,0,0,0/1,8,8,8,8,8,8,7,0,0,0,0,1,0,0,2 S first=- captures=1,0
moves: M
over: no

# ... and when okutema applies too, okutema is reported (d=0 here).
rule: W14
game: omweso:akakyala=on
position: 0,0,0,0,4,0,0,0,1,0,0,0,0,0,0,0/1,8,8,8,8,8,8,8,0,0,0,0,0,0,0,2 S first=- captures=1,0
moves: M
over: S 2 okutema

# W9: on South's first turn the landing in H relays instead of capturing:
# H (2) into G F; F was empty: end.  Nothing captured.
rule: W9
game: omweso
position: 0,0,0,0,4,0,0,0,1,0,0,0,0,0,0,0/1,8,8,8,8,8,8,8,0,0,0,0,0,0,0,2 S first=S captures=0,0
moves: M
expect: 0,0,0,0,0,1,1,1,0,1,1,0,0,0,0,0/1,8,8,8,8,8,8,8,0,0,0,0,0,0,0,2 N first=- captures=0,0
over: no

# first_turn_capture=allowed: the capture happens on the first turn.
rule: W9
game: omweso:first_turn_capture=allowed
position: 0,0,0,0,4,0,0,0,1,0,0,0,0,0,0,0/1,8,8,8,8,8,8,8,0,0,0,0,0,0,0,2 S first=S captures=0,0
moves: M
expect: 0,0,0,0,0,2,2,0,3,1,0,0,0,0,0,0/0,8,8,8,8,8,8,8,0,0,0,0,0,0,0,0 N first=- captures=1,0

# W9: no reverse lap on a first turn (the Wernham board with first=SN).
rule: W9 W10
game: omweso
position: 3,0,0,0,4,0,0,0,1,0,1,0,0,1,0,0/4,8,2,8,8,3,7,7,0,0,2,0,0,3,0,2 S first=SN captures=0,0
legal: I I* M

# W10 on a relay lap.  South O=9 A=1; North n=3 f=2 (C faces f, n), h=0.
# O: 9 into P H G F E D C B A; A held 1, faces h=0, p: relay 2 from A, a
# choice point: clockwise into B, C, and C held 1 with f, n occupied.
# O (counter-clockwise): I, J; J was empty: end.
rule: W10 W11
game: omweso
position: 0,0,0,0,0,0,9,0,0,0,0,0,0,0,0,1/8,8,8,8,8,3,6,3,0,0,2,0,0,0,0,0 S first=- captures=1,1
legal: O O-

rule: W10
game: omweso
position: 0,0,0,0,0,0,9,0,0,0,0,0,0,0,0,1/8,8,8,8,8,3,6,3,0,0,2,0,0,0,0,0 S first=- captures=1,1
moves: O
expect: 1,1,0,0,0,0,0,1,1,1,1,1,1,1,1,0/8,8,8,8,8,3,6,3,0,0,2,0,0,0,0,0 N first=- captures=1,1

# O-: from A clockwise B (2), C (2): capture f+n = 5, sown from A (the
# capturing lap's origin): clockwise it would end in F, which faces c=0:
# no choice; counter-clockwise into I J K L M; M was empty: end.
# North's inner row is now empty: okutema.
rule: W8 W10 W14
game: omweso
position: 0,0,0,0,0,0,9,0,0,0,0,0,0,0,0,1/8,8,8,8,8,3,6,3,0,0,2,0,0,0,0,0 S first=- captures=1,1
moves: O-
expect: 1,1,1,1,1,0,0,1,1,1,1,1,1,2,2,0/8,8,8,8,8,0,6,3,0,0,0,0,0,0,0,0 N first=- captures=2,1
over: S 2 okutema

# reverse=first_lap: the relay lap from A may not go clockwise.
rule: W10
game: omweso:reverse=first_lap
position: 0,0,0,0,0,0,9,0,0,0,0,0,0,0,0,1/8,8,8,8,8,3,6,3,0,0,2,0,0,0,0,0 S first=- captures=1,1
legal: O

# ... but the first lap may (the Wernham board).
rule: W10
game: omweso:reverse=first_lap
position: 3,0,0,0,4,0,0,0,1,0,1,0,0,1,0,0/4,8,2,8,8,3,7,7,0,0,2,0,0,3,0,2 S first=- captures=1,1
legal: I I- M

rule: W10
game: omweso:reverse=none
position: 3,0,0,0,4,0,0,0,1,0,1,0,0,1,0,0/4,8,2,8,8,3,7,7,0,0,2,0,0,3,0,2 S first=- captures=1,1
legal: I M

# W11: two choice sequences that end on the same board are two moves.
# South I=3 K=11 L=11 C=1 A=1; North f=2 n=1 (only C can capture), h=0.
# I-: I clockwise into A B C; C held 1: capture f+n = 3, sown from I (no
#   choice: C faces nothing now) into J K L; L held 11: relay 12 into
#   M..A; A held 2: relay 3 from A (clockwise it would end in D: no choice).
# I+-: I counter-clockwise into J K L; relay 12 from L into M..A; A held 1:
#   relay 2 from A, a choice point: clockwise into B C, C held 2: capture
#   f+n = 3, sown from A.
# Both now sow 3 from A with the same board (B and C got the same two seeds
# in a different order): into I J K; K held 12: relay 13 into L..A; A was
# empty: end.  I J K L M N O P H G F E D C B A =
# 1 2 0 1 2 2 2 2 2 2 2 2 2 4 3 1, North's inner row empty: okutema.
rule: W11
game: omweso
position: 3,0,11,11,0,0,0,0,0,0,0,0,0,1,0,1/5,5,5,5,5,1,5,4,0,0,2,0,0,0,0,0 S first=- captures=1,1
moves: I-
expect: 1,2,0,1,2,2,2,2,2,2,2,2,2,4,3,1/5,5,5,5,5,0,5,4,0,0,0,0,0,0,0,0 N first=- captures=2,1
over: S 2 okutema

rule: W11
game: omweso
position: 3,0,11,11,0,0,0,0,0,0,0,0,0,1,0,1/5,5,5,5,5,1,5,4,0,0,2,0,0,0,0,0 S first=- captures=1,1
moves: I+-
expect: 1,2,0,1,2,2,2,2,2,2,2,2,2,4,3,1/5,5,5,5,5,0,5,4,0,0,0,0,0,0,0,0 N first=- captures=2,1
over: S 2 okutema

# W12: K holds 3: K and K*; K*: 2 into L, 1 into M.
rule: W12
game: omweso
position: 4,4,3,5,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0,0
legal: I J K K* L M N O P

rule: W12
game: omweso
position: 4,4,3,5,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0,0
moves: K*
expect: 4,4,0,7,5,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 N first=N captures=0,0

# ... not after the game's first capture (by either player) ...
rule: W12
game: omweso
position: 4,4,3,5,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=- captures=0,1
legal: I J K L M N O P

rule: W12
game: omweso
position: 4,4,3,5,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=- captures=0,1
moves: K*
error: until the game's first capture

# ... nor with three_seed=off.
rule: W12
game: omweso:three_seed=off
position: 4,4,3,5,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0,0
legal: I J K L M N O P

# W14a akawumbi.  South I=0 J=0 K..P=4 H..A=2 (40); North i=6 p=7 h=6 a=5.
# M: 4 into N O P H; H held 2, faces a, i: capture 11, sown from M into
# N..A (5..15); A held 2, faces h, p: capture 13, sown from M into N..A, I,
# J; J was empty: end.  North has nothing left and lost both end columns.
rule: W14
game: omweso
position: 0,0,4,4,4,4,4,4,2,2,2,2,2,2,2,2/6,0,0,0,0,0,0,7,6,0,0,0,0,0,0,5 S first=- captures=1,1
moves: M
expect: 1,1,4,4,0,7,7,7,5,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 N first=- captures=2,1
over: S 12 akawumbi

# W14b the two heads: the same with North's j=3 (South's K=1) left over:
# both end columns captured, North not empty: okutema (also with the
# front-row half of the rule switched off).
rule: W14
game: omweso:front_row_win=off
position: 0,0,1,4,4,4,4,4,2,2,2,2,2,2,2,2/6,3,0,0,0,0,0,7,6,0,0,0,0,0,0,5 S first=- captures=1,1
moves: M
expect: 1,1,1,4,0,7,7,7,5,4,4,4,4,4,4,4/0,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0 N first=- captures=2,1
over: S 2 okutema

# W15: the max_plies-th ply annuls.  I then i (North's first turn: relay,
# no capture).
rule: W15
game: omweso:max_plies=2
moves: I i
expect: 0,5,5,5,0,5,5,5,1,1,0,0,0,0,0,0/0,5,5,5,0,5,5,5,1,1,0,0,0,0,0,0 S first=- captures=0,0
over: draw annulled max_plies

rule: W15
game: omweso:max_plies=3
moves: I i
over: no

rule: W15
game: omweso:max_plies=0
error: bad value '0'

# W16: modes belong to the playing program, not to the game's options.
rule: W16
game: omweso:mode=blitz
error: unknown option 'mode'

# W15: the third occurrence annuls.  Staircases turn round the board: South
# 7,6,5,4,3,2,1 from I and North 8,7,...,1 from i (28 + 36 = 64 seeds).  The
# top pit's n seeds go into the next n pits, the last of which was empty:
# the move ends, and the staircase has moved on by one pit (no relay, no
# capture).  After 16 moves each (32 plies) the start recurs: the second
# occurrence, the game goes on; after 64 plies, the third: annulled.
rule: W15
game: omweso
position: 7,6,5,4,3,2,1,0,0,0,0,0,0,0,0,0/8,7,6,5,4,3,2,1,0,0,0,0,0,0,0,0 S first=- captures=1,1
moves: I i
expect: 0,7,6,5,4,3,2,1,0,0,0,0,0,0,0,0/0,8,7,6,5,4,3,2,1,0,0,0,0,0,0,0 S first=- captures=1,1

rule: W15
game: omweso
position: 7,6,5,4,3,2,1,0,0,0,0,0,0,0,0,0/8,7,6,5,4,3,2,1,0,0,0,0,0,0,0,0 S first=- captures=1,1
moves: I i J j K k L l M m N n O o P p H h G g F f E e D d C c B b A a
expect: 7,6,5,4,3,2,1,0,0,0,0,0,0,0,0,0/8,7,6,5,4,3,2,1,0,0,0,0,0,0,0,0 S first=- captures=1,1
over: no

rule: W15
game: omweso
position: 7,6,5,4,3,2,1,0,0,0,0,0,0,0,0,0/8,7,6,5,4,3,2,1,0,0,0,0,0,0,0,0 S first=- captures=1,1
moves: I i J j K k L l M m N n O o P p H h G g F f E e D d C c B b A a I i J j K k L l M m N n O o P p H h G g F f E e D d C c B b A a
expect: 7,6,5,4,3,2,1,0,0,0,0,0,0,0,0,0/8,7,6,5,4,3,2,1,0,0,0,0,0,0,0,0 S first=- captures=1,1
over: draw annulled repetition

# W9 off_first_game: the engine sees one game, the first: the first-turn
# landing in H relays as with off_each_game (a match driver starts later
# games with first=-, see docs/GAMES-omweso.md).
rule: W9
game: omweso:first_turn_capture=off_first_game
position: 0,0,0,0,4,0,0,0,1,0,0,0,0,0,0,0/1,8,8,8,8,8,8,8,0,0,0,0,0,0,0,2 S first=S captures=0,0
moves: M
expect: 0,0,0,0,0,1,1,1,0,1,1,0,0,0,0,0/1,8,8,8,8,8,8,8,0,0,0,0,0,0,0,2 N first=- captures=0,0

rule: W9
game: omweso:first_turn_capture=off_first_game
position: 0,0,0,0,4,0,0,0,1,0,0,0,0,0,0,0/1,8,8,8,8,8,8,8,0,0,0,0,0,0,0,2 S first=- captures=0,0
moves: M
expect: 0,0,0,0,0,2,2,0,3,1,0,0,0,0,0,0/0,8,8,8,8,8,8,8,0,0,0,0,0,0,0,0 N first=- captures=1,0
