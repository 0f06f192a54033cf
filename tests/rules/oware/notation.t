# Position strings and move tokens (rules/oware.md section 1): the parser
# accepts exactly the documented form and names the field that is wrong.

rule: O1
game: oware
position: 4,4,4,4,4/4,4,4,4,4,4,4 S cap=0,0
error: South's houses

rule: O1
game: oware
position: 4,4,4,4,4,4/4,4,4,4,4 S cap=0,0
error: North's houses

rule: O1
game: oware
position: 4,4,4,4,4,4/4,4,4,4,4,4 X cap=0,0
error: field 2

rule: O1
game: oware
position: 4,4,4,4,4,4/4,4,4,4,4,4 S
error: field 3

rule: O1
game: oware
position: 4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 extra
error: unexpected text

rule: O1
game: oware
position: 4,4,4,4,4,4/4,4,4,4,4,5 S cap=0,0
error: not 48

rule: O1
game: oware
position: 4,4,4,x,4,4/4,4,4,4,4,4 S cap=0,0
error: item 4

rule: O1
game: oware:seeds=any
position: 1,0,0,0,0,0/1,0,0,0,0,0 S cap=0,0
expect: 1,0,0,0,0,0/1,0,0,0,0,0 S cap=0,0

rule: O3
game: oware
moves: G
error: not a move

rule: O3
game: oware
moves: AB
error: not a move

rule: O1
game: oware:grand_slam=sometimes
error: bad value 'sometimes'

rule: O1
game: oware:colour=red
error: unknown option 'colour'

rule: O1
game: owari
error: unknown game
