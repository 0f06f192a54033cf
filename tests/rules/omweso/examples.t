# The worked examples of rules/omweso.md, section 4, in order.
# South's pits are given in own-index order I J K L M N O P H G F E D C B A.

# First turn, standard set-up: 8 starts, no captures (W9), so no choice
# point, and no pit holds 3 (W12).
rule: W3 W4 W9
game: omweso
legal: I J K L M N O P

# I (index 0): 4 seeds into 1..4; index 4 held 4 -> relay its 5 into 5..9;
# index 9 was empty -> end.  2 laps.
rule: W5 W6
game: omweso
moves: I
expect: 0,5,5,5,0,5,5,5,1,1,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 N first=N captures=0,0
over: no

# M (index 4): 4 seeds into 5..8; index 8 (H) was empty -> end.  1 lap.
rule: W5 W6
game: omweso
moves: M
expect: 4,4,4,4,0,5,5,5,1,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 N first=N captures=0,0

# P (index 7): 4 seeds into 8..11, all empty -> end.  1 lap.
rule: W5 W6
game: omweso
moves: P
expect: 4,4,4,4,4,4,4,0,1,1,1,1,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 N first=N captures=0,0

# The published example (Wernham 2001) on a board of our own that fits it.
# South: I=3 M=4 H=1 F=1 C=1 (10 seeds).  North (own order i..p, h..a):
# i=4 j=8 k=2 l=8 m=8 n=3 o=7 p=7, f=2 c=3 a=2 (54).  South's inner pits
# facing two occupied pits: H (a,i), F (c,k), C (f,n).  After the first
# turns (first=-), no three-seed sowing (captures=1,1).
# Starts: I (3 seeds: I and, as a choice point, I-), M.  I sown clockwise
# goes into A, B, C and C held 1 with f, n occupied: it captures, so I has a
# choice point (W10).  Order: I, I-, M.
rule: W10 W11
game: omweso
position: 3,0,0,0,4,0,0,0,1,0,1,0,0,1,0,0/4,8,2,8,8,3,7,7,0,0,2,0,0,3,0,2 S first=- captures=1,1
legal: I I- M

# M: 4 seeds into N O P H (5..8); H held 1 and a=2, i=4: capture 6, sown
# from M's next pit: N O P H G F (5..10); F held 1+0 and faces c=3, k=2:
# capture 5, sown again from M: N O P H G (5..9); G held 1 (from the first
# re-sowing), faces b=0: relay its 2 into F E; E was empty: end.
# South I=3 N=3 O=3 P=3 H=4 G=0 F=3 E=1 C=1 (21 = 10+6+5); North loses a,i,c,k.
rule: W7 W8
game: omweso
position: 3,0,0,0,4,0,0,0,1,0,1,0,0,1,0,0/4,8,2,8,8,3,7,7,0,0,2,0,0,3,0,2 S first=- captures=1,1
moves: M
expect: 3,0,0,0,0,3,3,3,4,0,3,1,0,1,0,0/0,8,0,8,8,3,7,7,0,0,2,0,0,0,0,0 N first=- captures=2,1
over: no

# I-: the 3 seeds of I clockwise into A, B, C (15, 14, 13); C held 1 and
# faces f=2, n=3: capture 5, sown from I (the capturing lap's origin).
# That lap from I: clockwise it would end in E (empty): no choice; counter-
# clockwise into J K L M N; N was empty: end.  M=5 now.
rule: W8 W10
game: omweso
position: 3,0,0,0,4,0,0,0,1,0,1,0,0,1,0,0/4,8,2,8,8,3,7,7,0,0,2,0,0,3,0,2 S first=- captures=1,1
moves: I-
expect: 0,1,1,1,5,1,0,0,1,0,1,0,0,2,1,1/4,8,2,8,8,0,7,7,0,0,0,0,0,3,0,2 N first=- captures=2,1

# I counter-clockwise: J K L, L was empty: end; no capture.
rule: W10 W11
game: omweso
position: 3,0,0,0,4,0,0,0,1,0,1,0,0,1,0,0/4,8,2,8,8,3,7,7,0,0,2,0,0,3,0,2 S first=- captures=1,1
moves: I
expect: 0,1,1,1,4,0,0,0,1,0,1,0,0,1,0,0/4,8,2,8,8,3,7,7,0,0,2,0,0,3,0,2 N first=- captures=1,1

# Never-ending move: B (3 seeds) relays for ever, the lap state recurring
# after 128 laps (checked by a plain simulation in tests/test_omweso.c).
# B is one move written as its letter; B* (W12) is the other.
rule: W13 W12
game: omweso
position: 0,1,0,1,0,1,0,1,0,1,0,1,0,1,3,1/7,7,7,7,7,6,6,6,0,0,0,0,0,0,0,0 S first=- captures=0,0
legal: B B*

# Playing B annuls the game; the position is left as it was.
rule: W13
game: omweso
position: 0,1,0,1,0,1,0,1,0,1,0,1,0,1,3,1/7,7,7,7,7,6,6,6,0,0,0,0,0,0,0,0 S first=- captures=0,0
moves: B
expect: 0,1,0,1,0,1,0,1,0,1,0,1,0,1,3,1/7,7,7,7,7,6,6,6,0,0,0,0,0,0,0,0 S first=- captures=0,0
over: draw annulled never_ending

# never_ending=exclude: B is no move; B* still is.
rule: W13
game: omweso:never_ending=exclude
position: 0,1,0,1,0,1,0,1,0,1,0,1,0,1,3,1/7,7,7,7,7,6,6,6,0,0,0,0,0,0,0,0 S first=- captures=0,0
legal: B*

# ... and without the three-seed sowing nothing is legal: annulled.
rule: W13
game: omweso:never_ending=exclude,three_seed=off
position: 0,1,0,1,0,1,0,1,0,1,0,1,0,1,3,1/7,7,7,7,7,6,6,6,0,0,0,0,0,0,0,0 S first=- captures=0,0
over: draw annulled no_legal_move

# B* instead: 2 seeds into A (1 -> 3), 1 into I (0 -> 1); the move ends.
rule: W12
game: omweso
position: 0,1,0,1,0,1,0,1,0,1,0,1,0,1,3,1/7,7,7,7,7,6,6,6,0,0,0,0,0,0,0,0 S first=- captures=0,0
moves: B*
expect: 1,1,0,1,0,1,0,1,0,1,0,1,0,1,0,3/7,7,7,7,7,6,6,6,0,0,0,0,0,0,0,0 N first=- captures=0,0
