# Notation (rules/omweso.md section 1): letters, marks, order, positions,
# and the errors that explain why a move or a position is refused.

# North's letters are lower case, listed in own-index order i..p, h..a.
rule: W4
game: omweso
moves: I
legal: i j k l m n o p

# Trailing + marks may be left out: I+ is the move I (written I).
rule: W10
game: omweso
position: 3,0,0,0,4,0,0,0,1,0,1,0,0,1,0,0/4,8,2,8,8,3,7,7,0,0,2,0,0,3,0,2 S first=- captures=1,1
moves: I+
expect: 0,1,1,1,4,0,0,0,1,0,1,0,0,1,0,0/4,8,2,8,8,3,7,7,0,0,2,0,0,3,0,2 N first=- captures=1,1

# A mark past the move's last choice point is refused.
rule: W10
game: omweso
position: 3,0,0,0,4,0,0,0,1,0,1,0,0,1,0,0/4,8,2,8,8,3,7,7,0,0,2,0,0,3,0,2 S first=- captures=1,1
moves: I--
error: is not one of the moves from I (I I-)

# M is not one of the four leftmost pits.
rule: W10
game: omweso
position: 3,0,0,0,4,0,0,0,1,0,1,0,0,1,0,0/4,8,2,8,8,3,7,7,0,0,2,0,0,3,0,2 S first=- captures=1,1
moves: M-
error: four leftmost pits

# After the first turns, from the standard set-up: I clockwise puts its 4
# seeds into A B C D; D was empty (and faces e, m: e is empty): no capture.
rule: W10
game: omweso
position: 4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=- captures=0,0
moves: I-
error: do not both hold seeds

# On a first turn no lap may go clockwise.
rule: W9 W10
game: omweso
moves: I-
error: first turn

# B in the never-ending example: clockwise its 3 seeds would end in E,
# facing d=0 and l=7: no reverse lap.
rule: W10 W13
game: omweso
position: 0,1,0,1,0,1,0,1,0,1,0,1,0,1,3,1/7,7,7,7,7,6,6,6,0,0,0,0,0,0,0,0 S first=- captures=0,0
moves: B-
error: do not both hold seeds

# A pit of the other player.
rule: W4
game: omweso
moves: i
error: one of North's pits

# Not a move at all.
rule: W4
game: omweso
moves: Q
error: is not a move

rule: W4
game: omweso
moves: I+x
error: is not a move

# * needs exactly 3 seeds.
rule: W12
game: omweso
moves: K*
error: needs exactly 3 seeds

# Option errors name the key.
rule: W3
game: omweso:setup=weird
error: option setup: bad value 'weird'

rule: W3
game: omweso:seeds=48
error: unknown option 'seeds'

# Position errors name the field.
rule: W1
game: omweso
position: 4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0,0
error: expected '/' after South's 16 pits

rule: W1
game: omweso
position: 4,4,4,4,4,4,4,4,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0,4 S first=SN captures=0,0
error: South's pits (field 1): expected 16 comma-separated seed counts

rule: W1
game: omweso
position: 4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 X first=SN captures=0,0
error: field 2 (side to move)

rule: W9
game: omweso
position: 4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=NS captures=0,0
error: field 3 (first=): 'NS' is not one of SN, S, N, -

rule: W9
game: omweso
position: 4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN
error: field 4 (captures=<South>,<North>) is missing

rule: W12
game: omweso
position: 4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0
error: field 4 (captures=): expected two whole numbers

rule: W12
game: omweso
position: 4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0,0 x
error: unexpected text after field 4

# The start position string, as the rule file gives it.
rule: W3
game: omweso
position: 4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0,0
expect: 4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0,0
legal: I J K L M N O P

# A start whose counter-clockwise path never ends but whose clockwise
# branch does is written with its marks only (rule file, section 1): D's
# counter-clockwise path comes back to a lap state after 279,360 laps,
# passing a choice point whose clockwise branch ends.  Too long to walk by
# hand: the naive generator of tests/test_omweso.c walks it seed by seed
# and finds the same list (test_pruned_counter_clockwise).
rule: W13
game: omweso
position: 5,2,1,0,1,2,1,0,2,1,5,4,5,9,6,6/0,1,2,0,2,0,1,0,2,1,1,0,1,0,0,3 S first=- captures=5,5
legal: I J N H F E D- C B A

rule: W13
game: omweso
position: 5,2,1,0,1,2,1,0,2,1,5,4,5,9,6,6/0,1,2,0,2,0,1,0,2,1,1,0,1,0,0,3 S first=- captures=5,5
moves: D
error: never ends (W13); its moves are: D-
