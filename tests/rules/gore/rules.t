# Rules G1-G5 and G8 of rules/gore.md, one behaviour per case; the
# expected values are worked out by hand in the comment above each case.

# G1: 6 in every pit, captures 0, South first and South owns A-D.
rule: G1
game: gore
expect: 6,6,6,6/6,6,6,6 S own=SSSSNNNN cap=0,0
legal: A B C D
over: no

rule: G1
game: gore:first=north
expect: 6,6,6,6/6,6,6,6 N own=SSSSNNNN cap=0,0
legal: a b c d

# G1 G2: no capture yet, so no offer can be paid: sowings only.
rule: G1 G2 G6
game: gore
moves: A
legal: a b c d

# G2: a player sows the pits it owns, on either row, in index order (here
# South owns a after a trade); trades=off keeps the list to sowings.
rule: G2
game: gore:trades=off
position: 3,0,0,0/5,0,0,0 S own=SSSSSNNN cap=20,20
legal: A a

# G2: North sows A, a pit it owns in South's row: A's 4 stones go to
# B C D a; the last makes a 1, North's own pit: no capture.
rule: G2 G3
game: gore:trades=off
position: 4,0,0,0/0,0,0,3 N own=NSSSNNNN cap=21,20
moves: A
expect: 0,1,1,1/1,0,0,3 S own=NSSSNNNN cap=21,20

# G2: a pit owned by the other player cannot be sown.
rule: G2
game: gore
moves: a
error: pit a is North's

rule: G2
game: gore
position: 0,6,6,6/6,6,6,6 S own=SSSSNNNN cap=3,3
moves: A
error: pit A is empty

# G2: South owns no stones: pass is legal (the only move without trades).
rule: G2
game: gore:trades=off
position: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20
legal: pass

rule: G2
game: gore:trades=off
position: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20
moves: pass
expect: 0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20
over: no

# G2: pass is illegal while the player owns a stone.
rule: G2
game: gore
moves: pass
error: cannot pass while owning stones

# G3: two full laps, origin not skipped: 16 stones from A put 2 in every
# pit (A too), the last in A, South's own: no capture.  Every pit then
# holds 2 (G5): South 16 + 8 = 24, North 16 + 8 = 24: a draw.
rule: G3 G5
game: gore
position: 16,0,0,0/0,0,0,0 S own=SSSSNNNN cap=16,16
moves: A
expect: 2,2,2,2/2,2,2,2 N own=SSSSNNNN cap=16,16
over: draw 24-24

# G3 skip_origin=on: 16 = 2 laps of 7 + 2: B..d get 2, A none, then B and
# C one more; the last in C (3), South's: no capture; not over (3s).
rule: G3
game: gore:skip_origin=on
position: 16,0,0,0/0,0,0,0 S own=SSSSNNNN cap=16,16
moves: A
expect: 0,3,3,2/2,2,2,2 N own=SSSSNNNN cap=16,16
over: no

# G3 skip_origin=on, exactly 7: one stone in every other pit, the last in
# the pit just before the origin (D from a): D 0 -> 1, South's pit, but
# North does not own D: D holds 1, no capture.
rule: G3
game: gore:skip_origin=on
position: 0,0,0,0/7,0,0,3 N own=SSSSNNNN cap=19,19
moves: a
expect: 1,1,1,1/0,1,1,4 S own=SSSSNNNN cap=19,19

# G3 without skip: 8 stones from a go round to a itself (1), North's own.
rule: G3
game: gore
position: 0,0,0,0/8,0,0,3 N own=SSSSNNNN cap=19,18
moves: a
expect: 1,1,1,1/1,1,1,4 S own=SSSSNNNN cap=19,18

# G4: the last stone makes 2 in South's own B: nothing, although C next
# to it holds 2 (the chain needs e to qualify).
rule: G4
game: gore
position: 1,1,2,3/0,0,0,0 S own=SSSSNNNN cap=20,21
moves: A
expect: 0,2,2,3/0,0,0,0 N own=SSSSNNNN cap=20,21

# G4: North captures in South's row, the backward run crossing from A to d
# (North's own pit).  c (2) -> d 2, A 2.  A is South's with 2: taken;
# forwards B (4) taken, C (3) stops; backwards d (2) taken, c (0) stops:
# 2+4+2 = 8, North 14 -> 22.
rule: G4
game: gore
position: 1,4,3,0/5,5,2,1 N own=SSSSNNNN cap=13,14
moves: c
expect: 0,0,3,0/5,5,0,0 S own=SSSSNNNN cap=13,22
over: no

# G4: the pit that counts is the owner, not the row: North owns A; South
# sows D (5): a 6, b 2, c 4, d 4, A 2.  A is North's with 2: taken;
# forwards B (0) stops; backwards d 4, c 4, b 2 taken, a (6) stops:
# 2+4+4+2 = 12, South 15 -> 27.
rule: G4
game: gore
position: 1,0,0,5/5,1,3,3 S own=NSSSNNNN cap=15,15
moves: D
expect: 0,0,0,0/6,0,0,0 N own=NSSSNNNN cap=27,15
over: no

# G4: South owns a (after a trade): the last stone making 2 there takes
# nothing.
rule: G4
game: gore
position: 0,0,0,1/1,2,0,3 S own=SSSSSNNN cap=20,21
moves: D
expect: 0,0,0,0/2,2,0,3 N own=SSSSSNNN cap=20,21

# G4: a run right round the board.  D (17) = two laps + 1: every pit +2
# (D itself 0 -> 2) and a one more: A 2, B 4, C 2, D 2, a 4, b 2, c 4,
# d 2; the last in a (North's, 4): taken, and forwards b c d A B C D all
# hold 2 or 4 up to a, already emptied: all 22 stones, South 13 -> 35.
# Board empty (G5): South 35, North 13.
rule: G3 G4 G5
game: gore
position: 0,2,0,17/1,0,2,0 S own=SSSSNNNN cap=13,13
moves: D
expect: 0,0,0,0/0,0,0,0 N own=SSSSNNNN cap=35,13
over: S 35-13

# G4: a 2 with the origin (0) right behind it: D (1) -> a 2, North's:
# taken; forwards b 2, c 4, d 2, A 2, B 2, C 2, then D (0) stops: 16, and
# backwards D (0) stops at once.  Board empty: South 32-16.
rule: G4 G5
game: gore
position: 2,2,2,1/1,2,4,2 S own=SSSSNNNN cap=16,16
moves: D
expect: 0,0,0,0/0,0,0,0 N own=SSSSNNNN cap=32,16
over: S 32-16

# G4: the last stone makes 3 in an opponent's pit: nothing.
rule: G4
game: gore
position: 0,1,0,0/0,2,0,3 S own=SSSSNNNN cap=21,21
moves: B
expect: 0,0,1,0/0,2,0,3 N own=SSSSNNNN cap=21,21

# G5 with traded pits: North owns A, South owns d.  D (3) -> a 1, b 2,
# c 2; c is North's: taken, forwards d (1) stops, backwards b (2) taken,
# a (1) stops: 4, South 20 -> 24.  Board 1,0,0,0/1,0,0,1: all 2 or fewer.
# South owns B C D d: 1; North owns A a b c: 2.  25-23.
rule: G4 G5
game: gore
position: 1,0,0,3/0,1,1,1 S own=NSSSNNNS cap=20,21
moves: D
expect: 1,0,0,0/1,0,0,1 N own=NSSSNNNS cap=24,21
over: S 25-23

# G5 is decided from the position: a given position with every pit at 2
# or fewer is over, and has no moves.  South 20 + 3, North 22 + 3.
rule: G5
game: gore
position: 2,0,1,0/0,0,2,1 S own=SSSSNNNN cap=20,22
over: N 23-25
legal: 

# G5 equal totals: a draw.  South 22 + 2, North 22 + 2.
rule: G5
game: gore
position: 1,1,0,0/2,0,0,0 N own=SSSSNNNN cap=22,22
over: draw 24-24
