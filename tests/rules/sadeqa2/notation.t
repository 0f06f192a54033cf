# Position strings and move tokens (rules/sadeqa2.md section 1): the
# parser accepts exactly the documented form and names the field at fault.

rule: S1
game: sadeqa2
position: 3,3,3,3,3/3,3,3,3,3,3,3 S first=SN
error: South's holes

rule: S1
game: sadeqa2
position: 3,3,3,3,3,3/3,3,3,3,3 S first=SN
error: North's holes

rule: S1
game: sadeqa2
position: 3,3,3,3,3,3,3,3,3,3,3,3 S first=SN
error: more than 6 seed counts

rule: S1
game: sadeqa2
position: 3,3,3,3,3,3/3,3,3,3,3,3 X first=SN
error: field 2

rule: S1
game: sadeqa2
position: 3,3,3,3,3,3/3,3,3,3,3,3 S
error: field 3 (first=<SN|S|N|->) is missing

rule: S1
game: sadeqa2
position: 3,3,3,3,3,3/3,3,3,3,3,3 S cap=0,0
error: field 3: expected 'first='

rule: S1
game: sadeqa2
position: 3,3,3,3,3,3/3,3,3,3,3,3 S first=NS
error: bad value 'NS'

rule: S1
game: sadeqa2
position: 3,3,3,3,3,3/3,3,3,3,3,3 S first=
error: bad value ''

rule: S1
game: sadeqa2
position: 3,3,3,3,3,3/3,3,3,3,3,3 S first=SN extra
error: unexpected text after field 3

rule: S1
game: sadeqa2
position: 3,3,3,x,3,3/3,3,3,3,3,3 S first=SN
error: item 4

# 37 seeds: more than the 36 a game starts with.
rule: S1
game: sadeqa2
position: 3,3,3,3,3,3/3,3,3,3,3,4 S first=SN
error: at most 36

rule: S1
game: sadeqa2
position: 37,0,0,0,0,0/0,0,0,0,0,0 S first=-
error: out of range 0..36

rule: S1
game: sadeqa2
position: 0,0,0,0,0,0/0,0,0,0,0,0 S first=-
error: no seeds

# Fewer seeds than the start are fine (captures remove seeds); every
# first= value parses and formats back unchanged.
rule: S1
game: sadeqa2
position: 0,0,0,0,0,1/0,0,0,0,0,0 N first=-
expect: 0,0,0,0,0,1/0,0,0,0,0,0 N first=-

rule: S1
game: sadeqa2
position: 36,0,0,0,0,0/0,0,0,0,0,0 S first=S
expect: 36,0,0,0,0,0/0,0,0,0,0,0 S first=S

rule: S1
game: sadeqa2
position: 0,0,0,0,0,0/0,0,0,0,0,36 N first=N
expect: 0,0,0,0,0,0/0,0,0,0,0,36 N first=N

rule: S1
game: sadeqa2
position: start
expect: 3,3,3,3,3,3/3,3,3,3,3,3 S first=SN

# Move tokens.
rule: S2
game: sadeqa2
moves: FF
error: is not a move

rule: S2
game: sadeqa2
moves: G
error: is not a move

rule: S2
game: sadeqa2
moves: f
error: one of North's holes

# Bad game specs name the option.
rule: S1
game: sadeqa2:skip_origin=maybe
error: option skip_origin: bad value 'maybe'

rule: S1
game: sadeqa2:laps=100
error: unknown option 'laps'

rule: S1
game: sadeqa2:first_rule=starter,stuck=draw,repetition=more_seeds,skip_origin=on,first=north
expect: 3,3,3,3,3,3/3,3,3,3,3,3 N first=SN
legal: f

rule: S1
game: sadeqa2
position: 3,3,3,3,3,3 3,3,3,3,3,3 S first=SN
error: expected '/'
