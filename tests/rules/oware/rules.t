# Cases for each rule O1-O10 beyond the worked examples; every expected
# position below was worked out by hand (the sowing is spelt out).

rule: O1
game: oware
expect: 4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0
legal: A B C D E F

rule: O1
game: oware:first=north
expect: 4,4,4,4,4,4/4,4,4,4,4,4 N cap=0,0
legal: a b c d e f

# A: 4 seeds into B C D E; then North moves
rule: O2 O3
game: oware
moves: A
expect: 0,5,5,5,5,4/4,4,4,4,4,4 N cap=0,0
legal: a b c d e f

# C: D E F a; last seed makes 5 in a: no capture
rule: O3 O5
game: oware
moves: C
expect: 4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0

rule: O2
game: oware
moves: A A
error: one of South's houses

rule: O3
game: oware
position: 0,5,5,5,5,4/4,4,4,4,4,4 S cap=0,0
moves: A
error: house A is empty

# 22 seeds from F: a..E (11), skip F, a..E again; last seed in E (own row)
rule: O4
game: oware
position: 0,0,0,0,0,22/4,4,4,4,5,5 S cap=0,0
moves: F
expect: 2,2,2,2,2,0/6,6,6,6,7,7 N cap=0,0

# E: F, a.  a makes 2 and is captured; F (own row) holds 2 but is not.
rule: O5
game: oware
position: 0,0,0,0,2,1/1,4,4,4,4,4 S cap=12,12
moves: E
expect: 0,0,0,0,0,2/0,4,4,4,4,4 N cap=14,12

# North's f sows into A, making 2: captured; the chain does not wrap to f.
rule: O5
game: oware
position: 1,1,1,1,1,1/1,1,1,1,1,1 N cap=18,18
moves: f
expect: 0,1,1,1,1,1/1,1,1,1,1,0 S cap=18,20

# win25: the grand slam brings North only to 22: forfeited
rule: O6
game: oware:grand_slam=win25
position: 1,1,1,1,1,0/0,0,8,0,0,1 N cap=22,12
moves: c
expect: 2,2,2,2,2,0/0,0,0,1,1,2 S cap=22,12
over: no

rule: O6
game: oware:grand_slam=illegal
position: 1,1,1,1,1,0/0,0,8,0,0,1 N cap=17,17
legal: f

rule: O6
game: oware:grand_slam=illegal
position: 1,1,1,1,1,0/0,0,8,0,0,1 N cap=17,17
moves: c
error: grand slam

# North's only move f is a grand slam (A makes 2, South left with none).
rule: O6 O8c
game: oware:grand_slam=illegal
position: 1,0,0,0,0,0/0,0,0,0,0,1 N cap=23,23
legal:
over: draw 24-24

rule: O6
game: oware:awari
position: 1,0,0,0,0,0/0,0,0,0,0,1 N cap=23,23
legal: f

rule: O6 O8a
game: oware:awari
position: 1,0,0,0,0,0/0,0,0,0,0,1 N cap=23,23
moves: f
expect: 0,0,0,0,0,0/0,0,0,0,0,0 S cap=23,25
over: N 23-25

# forfeit: A keeps 2; South then cannot reach North's empty row: O8c.
rule: O6 O8c
game: oware
position: 1,0,0,0,0,0/0,0,0,0,0,1 N cap=23,23
moves: f
expect: 2,0,0,0,0,0/0,0,0,0,0,0 S cap=23,23
legal:
over: S 25-23

rule: O7
game: oware
position: 1,0,0,0,0,1/0,0,0,0,0,0 S cap=23,23
moves: A
error: must play a house whose seeds reach

# F makes 2 in a: South reaches 26 and wins; f's seed stays on the board.
rule: O8a O9
game: oware
position: 0,0,0,0,0,1/1,0,0,0,0,1 S cap=24,21
moves: F
expect: 0,0,0,0,0,0/0,0,0,0,0,1 N cap=26,21
over: S 26-21

rule: O8a O9
game: oware:post_win_collect=ownership
position: 0,0,0,0,0,1/1,0,0,0,0,1 S cap=24,21
moves: F
over: S 26-22

rule: O8a
game: oware
position: 0,0,0,0,0,1/1,0,0,0,0,1 S cap=24,21
moves: F f
error: game is over

# threefold: the 12-ply cycle once is not enough, twice is
rule: O8b
game: oware:repetition=threefold
position: 1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23
moves: A a B b C c D d E e F f
over: no

rule: O8b
game: oware:repetition=threefold
position: 1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23
moves: A a B b C c D d E e F f A a B b C c D d E e F f
over: draw 24-24

# E's seed goes to F: it cannot reach North's empty row; South keeps 1.
rule: O8c O9
game: oware
position: 0,0,0,0,1,0/0,0,0,0,0,0 S cap=23,24
legal:
over: draw 24-24

rule: O8c
game: oware
position: 0,0,0,0,0,0/0,0,0,0,0,2 S cap=22,24
legal:
over: N 22-26
