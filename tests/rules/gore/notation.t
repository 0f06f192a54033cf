# Position strings and move tokens (rules/gore.md section 1): the parser
# accepts the documented form and names the field that is wrong.

rule: G1
game: gore
position: 6,6,6,6/6,6,6,6 S own=SSSSNNNN cap=0,0
expect: 6,6,6,6/6,6,6,6 S own=SSSSNNNN cap=0,0

# offer= and answered round-trip (the expect check parses them back).
rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 offer=ABD
expect: 0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 offer=ABD
legal: accept refuse

rule: G6
game: gore
position: 6,0,6,0/0,2,0,6 N own=NSNSNNNN cap=20,8 answered
expect: 6,0,6,0/0,2,0,6 N own=NSNSNNNN cap=20,8 answered
legal: A C b d

rule: G1
game: gore
position: 6,6,6/6,6,6,6,6 S own=SSSSNNNN cap=0,0
error: pits A-D (field 1, South's row)

rule: G1
game: gore
position: 6,6,6,6/6,6,6 S own=SSSSNNNN cap=0,0
error: pits a-d (field 1, North's row)

rule: G1
game: gore
position: 6,6,6,6/6,6,6,6 X own=SSSSNNNN cap=0,0
error: field 2 (side to move)

rule: G1
game: gore
position: 6,6,6,6/6,6,6,6 S
error: field 3 (own=<8 letters S|N>) is missing

rule: G1
game: gore
position: 6,6,6,6/6,6,6,6 S cap=0,0
error: field 3: expected 'own='

rule: G1
game: gore
position: 6,6,6,6/6,6,6,6 S own=SSSXNNNN cap=0,0
error: letter 4 is neither S nor N

rule: G1
game: gore
position: 6,6,6,6/6,6,6,6 S own=SSSSNNN cap=0,0
error: letter 8 is neither S nor N

rule: G6
game: gore
position: 6,6,6,6/6,6,6,6 S own=SSSSSSSS cap=0,0
error: North owns no pit

rule: G1
game: gore
position: 6,6,6,6/6,6,6,6 S own=SSSSNNNN
error: field 3 (own=) must have exactly 8 letters, followed by one space and cap=

rule: G1
game: gore
position: 6,6,6,6/6,6,6,6 S own=SSSSNNNN cap=0
error: captures (field 4, cap=)

rule: G1
game: gore
position: 6,6,6,6/6,6,6,7 S own=SSSSNNNN cap=0,0
error: total 49 stones, not 48

rule: G1
game: gore
position: 6,6,6,6/6,6,6,6 S own=SSSSNNNN cap=0,0 x
error: field 5: expected 'offer=<pits>' or 'answered'

rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 offer=a
error: may only name pits South owns

rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 offer=CA
error: in index order

rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=38,2 offer=A
error: 1 pit costs 6 captured stones, but North has only 2

rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 N own=SSNNNNNN cap=20,20 offer=AB
error: cede every pit South owns

rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 offer=
error: an offer names 1 to 3 pits

rule: G6
game: gore:trades=off
position: 0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 offer=A
error: cannot occur with trades=off

rule: G6
game: gore:trades=off
position: 0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 answered
error: cannot occur with trades=off

rule: G1
game: gore:first=east
error: option first: bad value 'east'

rule: G1
game: gore:colour=red
error: unknown option 'colour'

# Move tokens.
rule: G2
game: gore
moves: E
error: 'E' is not a move

rule: G6
game: gore
moves: offer:AX
error: 'X' is not a pit letter

rule: G6
game: gore
moves: offer:AA
error: names pit A twice

rule: G6
game: gore
moves: offerA
error: write an offer as offer:<pits>
