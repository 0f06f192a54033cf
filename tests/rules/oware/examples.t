# The worked examples of rules/oware.md, section 4, in order.

rule: O3 O7
game: oware
position: 1,0,9,0,0,1/1,0,0,0,0,0 S cap=18,18
legal: A C F

rule: O7
game: oware
position: 1,0,0,0,0,1/0,0,0,0,0,0 S cap=23,23
legal: F

# chain of 5 houses
rule: O5
game: oware
position: 0,0,8,0,0,1/1,1,1,1,2,3 S cap=10,20
moves: C
expect: 0,0,0,1,1,2/0,0,0,0,0,3 N cap=21,20

# chain stops at a 4
rule: O5
game: oware
position: 0,0,8,0,0,1/3,1,1,1,2,0 S cap=12,19
moves: C
expect: 0,0,0,1,1,2/4,0,0,0,0,0 N cap=21,19

# last seed makes 1: no capture
rule: O5
game: oware
position: 3,1,1,1,0,0/0,0,8,0,0,1 N cap=16,17
moves: c
expect: 4,2,2,2,1,0/0,0,0,1,1,2 S cap=16,17

# last seed makes 4
rule: O5
game: oware
position: 0,0,8,0,0,1/3,1,1,1,3,0 S cap=15,15
moves: C
expect: 0,0,0,1,1,2/4,2,2,2,4,0 N cap=15,15

# grand slam forfeited
rule: O6
game: oware
position: 1,1,1,1,1,0/0,0,8,0,0,1 N cap=17,17
moves: c
expect: 2,2,2,2,2,0/0,0,0,1,1,2 S cap=17,17
over: no

rule: O6 O8a
game: oware:grand_slam=win25
position: 1,1,1,1,1,0/0,0,8,0,0,1 N cap=17,17
moves: c
expect: 0,0,0,0,0,0/0,0,0,1,1,2 S cap=17,27
over: N 17-27

rule: O6
game: oware:grand_slam=illegal_unless_only
position: 1,1,1,1,1,0/0,0,8,0,0,1 N cap=17,17
legal: f

# E feeds, and its capture would take every seed it gave: a grand slam
rule: O6 O7
game: oware
position: 1,0,4,4,18,2/0,0,0,0,0,0 S cap=7,12
legal: C D E F

rule: O4 O6
game: oware
position: 1,0,4,4,18,2/0,0,0,0,0,0 S cap=7,12
moves: E
expect: 2,1,5,5,0,4/2,2,2,2,2,2 N cap=7,12

# origin skipped, 12th seed makes a 2
rule: O4 O5
game: oware
position: 1,1,1,1,1,12/0,2,2,2,2,2 S cap=10,11
moves: F
expect: 2,2,2,2,2,0/0,3,3,3,3,3 N cap=12,11

rule: O8b
game: oware
position: 1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23
moves: A a B b C c D d E e
expect: 0,0,0,0,0,1/0,0,0,0,0,1 S cap=23,23
over: no

rule: O8b O9
game: oware
position: 1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23
moves: A a B b C c D d E e F f
expect: 1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23
over: draw 24-24

# perft from the start, depths 1-9 (the table of section 4)
rule: O1 O3
game: oware
perft: 1 6

rule: O1 O3
game: oware
perft: 2 36

rule: O1 O3
game: oware
perft: 3 190

rule: O1 O3
game: oware
perft: 4 1014

rule: O1 O3
game: oware
perft: 5 5219

rule: O1 O3
game: oware
perft: 6 27332

rule: O1 O3
game: oware
perft: 7 139157

rule: O1 O3
game: oware
perft: 8 711414

rule: O1 O3 O5 O6 O7
game: oware
perft: 9 3592872
