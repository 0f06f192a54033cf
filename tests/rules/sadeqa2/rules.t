# Cases for each rule S1-S8 beyond the worked examples.  Every expected
# position below was worked out by hand (the laps are spelt out); where a
# relay is too long for that, the comment says which independent check in
# tests/test_sadeqa2.c backs the expectation.

# ---- S1 set-up ----

rule: S1
game: sadeqa2
expect: 3,3,3,3,3,3/3,3,3,3,3,3 S first=SN
over: no

# first=north: North opens, and its first move must be f.  f mirrors the
# worked example's F (the board is symmetric under a half turn).
rule: S1 S2
game: sadeqa2:first=north
expect: 3,3,3,3,3,3/3,3,3,3,3,3 N first=SN
legal: f

rule: S1 S2
game: sadeqa2:first=north
moves: f
expect: 5,5,1,4,4,4/0,4,4,0,0,1 S first=S

# ---- S2 legal moves and the first-move restriction ----

rule: S2
game: sadeqa2
moves: A
error: must be from F, the rightmost hole

# F empty: the restriction lapses.  A (2): B 1, C 2; C held 1: relay, 2
# into D E; E was empty: end (facing b empty).  C (1): into D, empty: end.
rule: S2
game: sadeqa2
position: 2,0,1,0,0,0/0,0,0,1,0,0 S first=SN
legal: A C

# first_rule=starter binds the opener only: with both first moves pending,
# the side to move opens.  F (1) into a, empty: ends.  C (1) into D: ends.
rule: S2
game: sadeqa2:first_rule=starter
position: 0,0,1,0,0,1/0,0,0,1,0,0 S first=SN
legal: F

rule: S2
game: sadeqa2:first_rule=none
position: 0,0,1,0,0,1/0,0,0,1,0,0 S first=SN
legal: C F

# The second player under first_rule=starter moves freely; under both, f
# only.  a (1) into b, empty: end.  c (1) into d, empty: end.  f (1) into A,
# empty: end.
rule: S2
game: sadeqa2:first_rule=starter
position: 0,0,0,0,0,1/1,0,1,0,0,1 N first=N
legal: a c f

rule: S2
game: sadeqa2
position: 0,0,0,0,0,1/1,0,1,0,0,1 N first=N
legal: f

rule: S2
game: sadeqa2:first_rule=none
position: 0,0,0,0,0,1/1,0,1,0,0,1 N first=N
legal: a c f

# A first move made under first_rule=none still counts as made.  C: into
# D, empty: end; facing D is c, empty.
rule: S2
game: sadeqa2:first_rule=none
position: 0,0,1,0,0,1/0,0,0,1,0,0 S first=SN
moves: C
expect: 0,0,0,1,0,1/0,0,0,1,0,0 N first=N

# F never ends here (it is a lap-start state of the 72-lap cycle of the
# worked example; test_sadeqa2.c checks that), so the restriction lapses.
# B (1): into C, empty: end.  D (2): E 2, F 3; F held 2: relay, 3 into
# a b c; c was empty: end.  E (1): F 3: relay, 3 into a b c: end.
rule: S2 S5
game: sadeqa2:first=north
position: 0,1,0,2,1,2/0,1,0,1,0,1 S first=S
legal: B D E

rule: S2 S5
game: sadeqa2:first=north
position: 0,1,0,2,1,2/0,1,0,1,0,1 S first=S
moves: F
error: never ends

# ... and B, made under the lapsed restriction, is South's first move.
# B into C (empty): end; facing C is d, holding 1: removed.
rule: S2 S6
game: sadeqa2:first=north
position: 0,1,0,2,1,2/0,1,0,1,0,1 S first=S
moves: B
expect: 0,0,1,2,1,2/0,1,0,0,0,1 N first=-

rule: S2
game: sadeqa2
position: 0,3,3,3,3,3/3,3,3,3,3,3 S first=-
moves: A
error: hole A is empty

# ---- S3 sowing, S4 relay ----

# B (2): C 1, D 1; D was empty: end; facing D is c, empty.
rule: S3 S4
game: sadeqa2
position: 0,2,0,0,0,0/0,0,0,0,0,1 S first=-
moves: B
expect: 0,0,1,1,0,0/0,0,0,0,0,1 N first=-

# 13 seeds from F, origin not skipped: a..f, A..E, F (12th), a (13th).
#   lap 1: 1,1,1,1,1,1/2,1,1,1,1,1; a held 1: relay
#   lap 2 (a, 2): b 2, c 2: relay from c
#   lap 3 (c, 2): d 2, e 2: relay from e
#   lap 4 (e, 2): f 2, A 2: relay from A
#   lap 5 (A, 2): B 2, C 2: relay from C
#   lap 6 (C, 2): D 2, E 2: relay from E
#   lap 7 (E, 2): F 2, a 1; a was emptied in lap 2: end in a.
#   Board 0,2,0,2,0,2/1,2,0,2,0,2; facing a is F (South's own): 2 removed.
rule: S3 S4 S6
game: sadeqa2
position: 0,0,0,0,0,13/0,0,0,0,0,0 S first=-
moves: F
expect: 0,2,0,2,0,0/1,2,0,2,0,2 N first=-

# skip_origin=on: a..f, A..E, (skip F), a, b.
#   lap 1: 1,1,1,1,1,0/2,2,1,1,1,1; b held 1: relay
#   lap 2 (b, 2): c 2, d 2: relay from d
#   lap 3 (d, 2): e 2, f 2: relay from f
#   lap 4 (f, 2): A 2, B 2: relay from B
#   lap 5 (B, 2): C 2, D 2: relay from D
#   lap 6 (D, 2): E 2, F 1; F was emptied in lap 1: end in F.
#   Board 2,0,2,0,2,1/2,0,2,0,2,0; facing F is a: 2 removed.
rule: S3 S4 S6
game: sadeqa2:skip_origin=on
position: 0,0,0,0,0,13/0,0,0,0,0,0 S first=-
moves: F
expect: 2,0,2,0,2,1/0,0,2,0,2,0 N first=-

# 12 seeds, origin not skipped: one in every hole, the last in F itself,
# which was emptied by the lift: end in F.  Facing F is a (1): removed.
rule: S3 S4 S6
game: sadeqa2
position: 0,0,0,0,0,12/0,0,0,0,0,0 S first=-
moves: F
expect: 1,1,1,1,1,1/0,1,1,1,1,1 N first=-

# 12 seeds, skip_origin=on: a..f, A..E, (skip F), a: a held 1: relay.
#   lap 2 (a): b 2, c 2; lap 3 (c): d 2, e 2; lap 4 (e): f 2, A 2;
#   lap 5 (A): B 2, C 2; lap 6 (C): D 2, E 2; lap 7 (E): F 1, a 1, and a
#   was emptied in lap 2: end in a.  Board 0,2,0,2,0,1/1,2,0,2,0,2;
#   facing a is F (1): removed.
rule: S3 S4 S6
game: sadeqa2:skip_origin=on
position: 0,0,0,0,0,12/0,0,0,0,0,0 S first=-
moves: F
expect: 0,2,0,2,0,0/1,2,0,2,0,2 N first=-

# Skipping matters only for laps of 12 or more: the worked example's F is
# the same under skip_origin=on (its laps hold 3 and 4).
rule: S3
game: sadeqa2:skip_origin=on
moves: F
expect: 0,4,4,0,0,1/5,5,1,4,4,4 N first=N

# The move after the example: 1,5,5,1,0,1/5,5,0,4,4,0 S.  All five
# occupied holes end (perft 3 = 5):
#   A (1): B 6: relay 6 into C D E F a b; b held 5: relay 6 into c d e f A
#     B; B was emptied: end.  1,1,6,2,1,2/6,0,1,5,5,1; facing B is e (5).
#   D (1): into E, empty: end; facing E is b (5): removed.
rule: S3 S4 S6
game: sadeqa2
moves: F f A
expect: 1,1,6,2,1,2/6,0,1,5,0,1 N first=-

rule: S3 S6
game: sadeqa2
moves: F f D
expect: 1,5,5,0,1,1/5,0,0,4,4,0 N first=-

#   B (5): C..F a: a held 5: relay 6 into b c d e f A; A held 1: relay 2
#     into B C; C held 6: relay 7 into D E F a b c d; d held 5: relay 6
#     into e f A B C D; D held 3: relay 4 into E F a b; b held 7: relay 8
#     into c d e f A B C D; D was emptied: end.
#     2,3,2,1,3,4/2,0,3,1,7,3; facing D is c (3): removed.
rule: S3 S4 S6
game: sadeqa2
moves: F f B
expect: 2,3,2,1,3,4/2,0,0,1,7,3 N first=-

#   C (5): D E F a b; b held 5: relay 6 into c d e f A B; B held 5: relay
#     6 into C D E F a b; b was emptied: end.  2,0,1,3,2,3/7,1,1,5,5,1;
#     facing b is E (2): removed.
rule: S3 S4 S6
game: sadeqa2
moves: F f C
expect: 2,0,1,3,0,3/7,1,1,5,5,1 N first=-

#   F (1): a 6: relay 6 into b..f A; A held 1: relay 2 into B C; C held 5:
#     relay 6 into D E F a b c; c held 1: relay 2 into d e; e held 5:
#     relay 6 into f A B C D E; E held 1: relay 2 into F a; a held 1:
#     relay 2 into b c; c was emptied: end.  1,7,1,3,0,2/0,8,1,6,0,2;
#     facing c is D (3): removed.
rule: S3 S4 S6
game: sadeqa2
moves: F f F
expect: 1,7,1,0,0,2/0,8,1,6,0,2 N first=-

# ---- S5 never-ending sowing ----

# A relay of 170 laps that ends (met in random play; the expectation is
# the independent seed-by-seed simulator's of test_sadeqa2.c, which also
# counts the 170 laps): no lap cap may cut it short.
rule: S4 S5
game: sadeqa2
position: 4,2,1,5,1,0/8,0,2,1,0,3 S first=-
moves: A
expect: 2,1,2,1,5,0/1,5,0,5,0,1 N first=-

# Never-ending relays can be long: here the first lap-start state comes
# back after 1 241 796 laps (found by sampling random boards; the count is
# confirmed by the reference simulator in `test_sadeqa2 --full`).  Found
# exactly, in constant memory, with no lap cap.
rule: S5
game: sadeqa2
position: 5,4,5,2,5,1/0,4,3,2,3,2 S first=-
moves: D
error: the lap-start state recurs after 1241796 laps (the relay is back where it started)

# ---- S6 capture ----

# E (1): into F, empty: end; facing F is a (1): removed.  North is left
# without seeds: S7 nomove, South wins.
rule: S6 S7
game: sadeqa2
position: 0,0,0,0,1,0/1,0,0,0,0,0 S first=-
moves: E
expect: 0,0,0,0,0,1/0,0,0,0,0,0 N first=-
over: S nomove
legal:

# No capture when the facing hole is empty: f (1) into A, empty; facing A
# is f, just emptied.
rule: S6
game: sadeqa2
position: 0,0,0,0,0,1/0,0,0,0,0,1 N first=-
moves: f
expect: 1,0,0,0,0,1/0,0,0,0,0,0 S first=-

# ---- S7 end ----

rule: S7
game: sadeqa2
position: 0,0,0,0,0,0/0,0,1,0,0,0 S first=-
over: N nomove
legal:

rule: S7
game: sadeqa2:stuck=draw
position: 0,0,0,0,0,0/0,0,1,0,0,0 S first=-
over: N nomove

rule: S7
game: sadeqa2
position: 3,0,0,0,0,0/0,0,0,0,0,0 N first=N
over: S nomove

rule: S7
game: sadeqa2
moves: F
over: no

# The game is over: no move may be played.
rule: S7
game: sadeqa2
position: 0,0,0,0,0,0/0,0,1,0,0,0 S first=-
moves: A
error: the game is over

# ---- S8 endless games ----

# A 6-position cycle (hand-checked, one lap or a short relay each):
#   P2 1,0,0,1,1,0/1,0,0,0,0,0 S  D: E 2: relay 2 into F a; a held 1: relay
#                                    2 into b c; c empty: end (facing D, 0)
#   P3 1,0,0,0,0,1/0,1,1,0,0,0 N  b: c 2: relay 2 into d e; e empty: end
#   P4 1,0,0,0,0,1/0,0,0,1,1,0 S  F: into a, empty: end
#   P5 1,0,0,0,0,0/1,0,0,1,1,0 N  d: e 2: relay 2 into f A; A held 1: relay
#                                    2 into B C; C empty: end
#   P6 0,1,1,0,0,0/1,0,0,0,0,1 S  B: C 2: relay 2 into D E; E empty: end
#   P1 0,0,0,1,1,0/1,0,0,0,0,1 N  f: into A, empty: end (facing f, 0)
# Nothing is ever removed.  Two rounds bring P2 back a third time.
rule: S8
game: sadeqa2
position: 1,0,0,1,1,0/1,0,0,0,0,0 S first=-
moves: D b F d B f D b F d B
expect: 0,0,0,1,1,0/1,0,0,0,0,1 N first=-
over: no

rule: S8
game: sadeqa2
position: 1,0,0,1,1,0/1,0,0,0,0,0 S first=-
moves: D b F d B f D b F d B f
expect: 1,0,0,1,1,0/1,0,0,0,0,0 S first=-
over: draw repetition
legal:

# repetition=more_seeds: South holds 3 (A D E), North 1 (a).
rule: S8
game: sadeqa2:repetition=more_seeds
position: 1,0,0,1,1,0/1,0,0,0,0,0 S first=-
moves: D b F d B f D b F d B f
over: S repetition

# Ended at P1 instead: 2 seeds each, a draw even under more_seeds.
rule: S8
game: sadeqa2:repetition=more_seeds
position: 0,0,0,1,1,0/1,0,0,0,0,1 N first=-
moves: f D b F d B f D b F d B
expect: 0,0,0,1,1,0/1,0,0,0,0,1 N first=-
over: draw repetition

# first= is part of the position string: the same board with a first move
# still pending is a different position, so no third occurrence here.
rule: S8
game: sadeqa2:first_rule=none
position: 1,0,0,1,1,0/1,0,0,0,0,0 S first=S
moves: D b F d B f D b F d B f
expect: 1,0,0,1,1,0/1,0,0,0,0,0 S first=-
over: no
