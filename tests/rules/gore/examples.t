# The worked examples of rules/gore.md, section 4, in order.  The rule file
# gives only the boards; the captures (cap=) are chosen to make the total
# 48 (G1) and the results below were worked out by hand from G3-G5.

# Row 1: B (4 stones) -> C 1, D 2, a 2, b 4.  b is North's and holds 4:
# South captures it; forwards c (5) stops; backwards a (2), D (2, South's
# own pit) are taken, C (1) stops: 4+2+2 = 8, cap 10 -> 18.
rule: G3 G4
game: gore
position: 0,4,0,1/1,3,5,5 S own=SSSSNNNN cap=10,19
moves: B
expect: 0,0,1,0/0,0,5,5 N own=SSSSNNNN cap=18,19
over: no

# Row 2: B (6) -> C 1, D 1, a 1, b 2, c 2, d 2.  d is North's with 2:
# taken; forwards round the board A (2, South's, not sown) is taken, B (0)
# stops; backwards c 2, b 2 taken, a (1) stops: 8, cap 20 -> 28.  Every
# pit now holds 2 or fewer (G5): South owns A-D with 0+0+1+1 = 2, North
# a-d with 1: 28+2 = 30 to 17+1 = 18.
rule: G3 G4 G5
game: gore
position: 2,6,0,0/0,1,1,1 S own=SSSSNNNN cap=20,17
moves: B
expect: 0,0,1,1/1,0,0,0 N own=SSSSNNNN cap=28,17
over: S 30-18

# Row 3: D (9) -> a b c d A B C D a: D, emptied, gets 1 as the sowing
# passes it; a ends with 0+1+1 = 2 and is North's: taken; forwards b
# (1+1 = 2) taken, c (1) stops; backwards D (1) stops: 4, cap 15 -> 19.
# Board 2,1,2,1/0,0,1,2: all 2 or fewer (G5): South 19 + 6 = 25, North
# 20 + 3 = 23.
rule: G3 G4 G5
game: gore
position: 1,0,1,9/0,1,0,1 S own=SSSSNNNN cap=15,20
moves: D
expect: 2,1,2,1/0,0,1,2 N own=SSSSNNNN cap=19,20
over: S 25-23

# Row 4: the same with skip_origin=on: a b c d A B C (skip D) a b; the last
# stone makes b 1+1+1 = 3: no capture, and b holds 3 so the game goes on.
rule: G3 G4
game: gore:skip_origin=on
position: 1,0,1,9/0,1,0,1 S own=SSSSNNNN cap=15,20
moves: D
expect: 2,1,2,0/2,3,1,2 N own=SSSSNNNN cap=15,20
over: no

# Row 5: from the start no first move captures: 6 stones from any pit
# make the next six pits 7 (the pit the last stone falls in too).
rule: G1 G3 G4
game: gore
moves: A
expect: 0,7,7,7/7,7,7,6 N own=SSSSNNNN cap=0,0

rule: G1 G3 G4
game: gore
moves: B
expect: 6,0,7,7/7,7,7,7 N own=SSSSNNNN cap=0,0

rule: G1 G3 G4
game: gore
moves: C
expect: 7,6,0,7/7,7,7,7 N own=SSSSNNNN cap=0,0

rule: G1 G3 G4
game: gore
moves: D
expect: 7,7,6,0/7,7,7,7 N own=SSSSNNNN cap=0,0

# The capture-free 20-ply cycle (checked by hand, ply by ply):
#  1 N a: b 2 (own)          0,0,0,0/0,2,0,6    11 N c: d 2 (own)        1,0,0,4/0,1,0,2
#  2 S pass (owns nothing)                      12 S D: a b c d, d 3     1,0,0,0/1,2,1,3
#  3 N d: A..D a b, b 3      1,1,1,1/1,3,0,0    13 N c: d 4 (own)        1,0,0,0/1,2,0,4
#  4 S A: B 2 (own)          0,2,1,1/1,3,0,0    14 S A: B 1              0,1,0,0/1,2,0,4
#  5 N a: b 4 (own)          0,2,1,1/0,4,0,0    15 N b: c d, d 5         0,1,0,0/1,0,1,5
#  6 S C: D 2 (own)          0,2,0,2/0,4,0,0    16 S B: C 1              0,0,1,0/1,0,1,5
#  7 N b: c d A B, B 3       1,3,0,2/0,0,1,1    17 N a: b 1              0,0,1,0/0,1,1,5
#  8 S B: C D a, a 1         1,0,1,3/1,0,1,1    18 S C: D 1              0,0,0,1/0,1,1,5
#  9 N a: b 1                1,0,1,3/0,1,1,1    19 N c: d 6 (own)        0,0,0,1/0,1,0,6
# 10 S C: D 4 (own)          1,0,0,4/0,1,1,1    20 S D: a 1              0,0,0,0/1,1,0,6
# Every board keeps a pit above 2, so G5 never ends it.
rule: G2 G8
game: gore
position: 0,0,0,0/1,1,0,6 N own=SSSSNNNN cap=20,20
moves: a pass d A a C b B a C c D c A b B a C c D
expect: 0,0,0,0/1,1,0,6 N own=SSSSNNNN cap=20,20
over: no

# One ply short of the third occurrence: not over.
rule: G8
game: gore
position: 0,0,0,0/1,1,0,6 N own=SSSSNNNN cap=20,20
moves: a pass d A a C b B a C c D c A b B a C c D a pass d A a C b B a C c D c A b B a C c
expect: 0,0,0,1/0,1,0,6 S own=SSSSNNNN cap=20,20
over: no

# Twice round: the third occurrence (the start counts); 8 on the board
# split 4-4: 24-24.
rule: G8
game: gore
position: 0,0,0,0/1,1,0,6 N own=SSSSNNNN cap=20,20
moves: a pass d A a C b B a C c D c A b B a C c D a pass d A a C b B a C c D c A b B a C c D
expect: 0,0,0,0/1,1,0,6 N own=SSSSNNNN cap=20,20
over: draw 24-24 repetition

# repetition=owner: as in G5, South owns A-D holding 0, North a-d holding
# 8: 20 to 28.
rule: G8
game: gore:repetition=owner
position: 0,0,0,0/1,1,0,6 N own=SSSSNNNN cap=20,20
moves: a pass d A a C b B a C c D c A b B a C c D a pass d A a C b B a C c D c A b B a C c D
over: N 20-28 repetition

# The cycle is the same without trades.
rule: G8
game: gore:trades=off
position: 0,0,0,0/1,1,0,6 N own=SSSSNNNN cap=20,20
moves: a pass d A a C b B a C c D c A b B a C c D a pass d A a C b B a C c D c A b B a C c D
over: draw 24-24 repetition
