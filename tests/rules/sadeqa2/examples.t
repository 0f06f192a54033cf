# The worked examples of rules/sadeqa2.md, section 4, in order, plus the
# closing claim about boards of 8 or fewer seeds (checked exhaustively in
# tests/test_sadeqa2.c).

# Start: South's first move must be from F, its rightmost hole (S2).
rule: S1 S2
game: sadeqa2
position: 3,3,3,3,3,3/3,3,3,3,3,3 S first=SN
legal: F

# F: 3 seeds into a b c; c had 3 (now 4): relay, 4 into d e f A; A had 3:
# relay, 4 into B C D E; E had 3: relay, 4 into F a b c; c was emptied in
# lap 2, so the move ends there.  Facing c is D, holding 4: removed.
#   after lap 1: 3,3,3,3,3,0/4,4,4,3,3,3
#   after lap 2: 4,3,3,3,3,0/4,4,0,4,4,4
#   after lap 3: 0,4,4,4,4,0/4,4,0,4,4,4
#   after lap 4: 0,4,4,4,0,1/5,5,1,4,4,4; D removed.
rule: S3 S4 S6
game: sadeqa2
position: 3,3,3,3,3,3/3,3,3,3,3,3 S first=SN
moves: F
expect: 0,4,4,0,0,1/5,5,1,4,4,4 N first=N
over: no

# f: 4 seeds into A B C D; D was empty: the move ends; facing D is c,
# holding 1: removed.  North's first move is made: first=-.
rule: S2 S3 S6
game: sadeqa2
position: 0,4,4,0,0,1/5,5,1,4,4,4 N first=N
moves: f
expect: 1,5,5,1,0,1/5,5,0,4,4,0 S first=-

rule: S5
game: sadeqa2
position: 1,3,1,0,1,0/1,0,1,0,1,0 S first=-
moves: B
error: the lap-start state recurs after 72 laps

# The same position: A, C and E end (A: 1 into B, which held 3: relay, 4
# into C D E F; F was empty: end.  C: 1 into D, empty: end.  E: 1 into F,
# empty: end), B never ends.
rule: S2 S5
game: sadeqa2
position: 1,3,1,0,1,0/1,0,1,0,1,0 S first=-
legal: A C E
