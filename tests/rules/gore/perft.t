# perft from the start.  Depths 1-3 by hand: depth 1 = A B C D (no capture
# yet, so no offer can be paid, and South owns stones: no pass); South's 6
# stones reach the next six pits and empty only the origin, so North has 4
# moves (16); North's sowing has 6 or 7 stones, and the only pit 6 stones
# miss is the one just before the origin, which is the South pit that
# South's own sowing just filled, so South again has 4 moves (64).  The
# deeper counts agree with a separate model of the rule file written in
# Python for this check (not derived from gore.c): see docs/GAMES-gore.md.
# Trades first matter at depth 6 (a capture of 6 or more makes offers
# affordable), where trades=off has fewer leaves.

rule: G1 G2 G3 G4 G6
game: gore
perft: 1 4

rule: G1 G2 G3 G4 G6
game: gore
perft: 2 16

rule: G1 G2 G3 G4 G6
game: gore
perft: 3 64

rule: G1 G2 G3 G4 G6
game: gore
perft: 4 241

rule: G1 G2 G3 G4 G6
game: gore
perft: 5 947

rule: G1 G2 G3 G4 G6
game: gore
perft: 6 3701

rule: G1 G2 G3 G4 G6
game: gore
perft: 7 13970

rule: G1 G2 G3 G4 G6
game: gore
perft: 8 54132

rule: G1 G2 G3 G4 G6
game: gore
perft: 9 204224

rule: G1 G2 G3 G4 G6
game: gore
perft: 10 785067

rule: G1 G2 G3 G4
game: gore:trades=off
perft: 1 4

rule: G1 G2 G3 G4
game: gore:trades=off
perft: 2 16

rule: G1 G2 G3 G4
game: gore:trades=off
perft: 3 64

rule: G1 G2 G3 G4
game: gore:trades=off
perft: 4 241

rule: G1 G2 G3 G4
game: gore:trades=off
perft: 5 947

rule: G1 G2 G3 G4
game: gore:trades=off
perft: 6 3609

rule: G1 G2 G3 G4
game: gore:trades=off
perft: 7 13316

rule: G1 G2 G3 G4
game: gore:trades=off
perft: 8 48656

rule: G1 G2 G3 G4
game: gore:trades=off
perft: 9 174135

rule: G1 G2 G3 G4
game: gore:trades=off
perft: 10 629010

rule: G3
game: gore:skip_origin=on
perft: 4 238

rule: G3
game: gore:skip_origin=on
perft: 6 3205

rule: G3
game: gore:skip_origin=on
perft: 8 42838

rule: G3
game: gore:skip_origin=on
perft: 10 594638

# first=north mirrors the start: the same counts.

rule: G1
game: gore:first=north
perft: 4 241

rule: G1
game: gore:first=north
perft: 8 54132
