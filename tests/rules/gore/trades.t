# Territory trading (G6), victory without glory (G7) and how trades meet
# the end rules (G5, G8).  Expected values worked out by hand.

# G6 order of the moves: sowings, then offers by number of pits and in
# index order of their letters, then pass.  South owns A-D (all empty);
# North has 20 captured, enough for 3 pits: 4 singles, 6 pairs, 4 triples.
rule: G2 G6
game: gore
position: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20
legal: offer:A offer:B offer:C offer:D offer:AB offer:AC offer:AD offer:BC offer:BD offer:CD offer:ABC offer:ABD offer:ACD offer:BCD pass

# North has 12: 2 pits at most.
rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=28,12
legal: offer:A offer:B offer:C offer:D offer:AB offer:AC offer:AD offer:BC offer:BD offer:CD pass

# North has 5: no offer can be paid.
rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=35,5
legal: pass

# South owns A and B only: offering both would cede every pit.
rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 S own=SSNNNNNN cap=20,20
legal: offer:A offer:B pass

# One pit: nothing to offer.
rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 S own=SNNNNNNN cap=20,20
legal: pass

# With stones to sow: sowings first, and empty pits may be offered too.
# North owns a b c d with b 2 and d 6; South has 20: up to 3 pits.
rule: G2 G6
game: gore
position: 0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20
legal: b d offer:a offer:b offer:c offer:d offer:ab offer:ac offer:ad offer:bc offer:bd offer:cd offer:abc offer:abd offer:acd offer:bcd

# trades=off: no offers at all.
rule: G6
game: gore:trades=off
position: 0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20
legal: b d

# An offer ends the turn: North must answer.
rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20
moves: offer:AC
expect: 0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 offer=AC
legal: accept refuse

# accept: A and C become North's with 6 each, paid from North's 20 (8
# left); North, having answered, sows (A C b d) and may not offer.
rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20
moves: offer:AC accept
expect: 6,0,6,0/0,2,0,6 N own=NSNSNNNN cap=20,8 answered
legal: A C b d
over: no

# ...then North sows A (6): B C D a b c get 1; the last in c (1), North's:
# no capture.  South owns B (1) and D (1); North has 8: one pit at most.
rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20
moves: offer:AC accept A
expect: 0,1,7,1/1,3,1,6 S own=NSNSNNNN cap=20,8
legal: B D offer:B offer:D

# refuse: nothing changes hands; North sows b or d, no offer.
rule: G6 G7
game: gore
position: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20
moves: offer:AC refuse
expect: 0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 answered
legal: b d

rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20
moves: offer:AC refuse offer:b
error: no offer in the same turn

# Only an answer while an offer is pending.
rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20
moves: offer:AC b
error: answer first with accept (North pays 12 of its 20

rule: G6
game: gore
moves: accept
error: there is no offer to accept

# Illegal offers, rejected with the reason.
rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=34,6
moves: offer:AB
error: 2 pits would cost North 12 captured stones (6 a pit), but North has only 6

rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 S own=SSNNNNNN cap=20,20
moves: offer:AB
error: would cede every pit South owns

rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20
moves: offer:ABCD
error: an offer is of 1, 2 or 3 pits

rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20
moves: offer:Ab
error: pit b is North's

rule: G6
game: gore:trades=off
position: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20
moves: offer:A
error: no offers in this game

rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 S own=SNNNNNNN cap=20,20
moves: offer:A
error: would cede every pit South owns

# Letters in any order are the same offer (written in index order).
rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20
moves: offer:CA
expect: 0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 offer=AC

# A bare "offer" lists what may be offered and what it would cost.
rule: G6
game: gore
position: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=28,12
moves: offer
error: may offer 1 or 2 of them, keeping at least one; North has 12 captured stones

# Refused, the answerer owns no stones: it passes (G2, G6).
rule: G2 G6
game: gore
position: 3,0,0,0/0,0,0,0 S own=SSSSNNNN cap=25,20
moves: offer:B refuse
legal: pass

# G7 + G8: South offers B, North refuses and passes, twice: the position
# 3,0,0,0/0,0,0,0 S recurs for the third time (the refusals are not part
# of it).  Board 3 split equally: 25 + 1.5 = 26.5, 20 + 1.5 = 21.5.
# South wins; the refuser was North, so no "noglory".
rule: G6 G7 G8
game: gore
position: 3,0,0,0/0,0,0,0 S own=SSSSNNNN cap=25,20
moves: offer:B refuse pass offer:B refuse pass
expect: 3,0,0,0/0,0,0,0 S own=SSSSNNNN cap=25,20
over: S 26.5-21.5 repetition

# G7: North offers a, South refuses and sows D (3): a b c 1 each, the last
# in c (1): no capture.  Board 0,0,0,0/1,1,1,0, all 2 or fewer (G5):
# South 28 + 0, North 17 + 3 = 20.  South won after refusing: noglory.
rule: G6 G7 G5
game: gore
position: 0,0,0,3/0,0,0,0 N own=SSSSNNNN cap=28,17
moves: offer:a refuse
expect: 0,0,0,3/0,0,0,0 S own=SSSSNNNN cap=28,17 answered
legal: D

rule: G7 G5
game: gore
position: 0,0,0,3/0,0,0,0 N own=SSSSNNNN cap=28,17
moves: offer:a refuse D
expect: 0,0,0,0/1,1,1,0 N own=SSSSNNNN cap=28,17
over: S 28-20 noglory

# The same offer accepted: South pays 6 (28 -> 22), a gets 6 and is
# South's; South sows D (3): a 7, b 1, c 1, last in c (1, North's): no
# capture.  a holds 7: the game goes on.
rule: G6
game: gore
position: 0,0,0,3/0,0,0,0 N own=SSSSNNNN cap=28,17
moves: offer:a accept
legal: D a

rule: G6
game: gore
position: 0,0,0,3/0,0,0,0 N own=SSSSNNNN cap=28,17
moves: offer:a accept D
expect: 0,0,0,0/7,1,1,0 N own=SSSSSNNN cap=22,17
over: no

# G7 + G8 with the cycle of section 4: South (no stones) offers A, North
# refuses and sows a, reaching Y = 0,0,0,0/0,2,0,6 S (ply 1 of the cycle).
# The rest of the cycle (19 plies) reaches X, the cycle's start, then each
# lap of 20 passes Y again: Y occurs after plies 3, 23 and 43 (the third
# time), before X's third (ply 61).  Equal split: a draw, and no noglory
# for a draw; repetition=owner: North 20 + 8 = 28 wins, South 20, and
# North refused: noglory.
rule: G7 G8
game: gore
position: 0,0,0,0/1,1,0,6 S own=SSSSNNNN cap=20,20
moves: offer:A refuse a pass d A a C b B a C c D c A b B a C c D a pass d A a C b B a C c D c A b B a C c D
expect: 0,0,0,0/1,1,0,6 N own=SSSSNNNN cap=20,20
over: no

rule: G7 G8
game: gore
position: 0,0,0,0/1,1,0,6 S own=SSSSNNNN cap=20,20
moves: offer:A refuse a pass d A a C b B a C c D c A b B a C c D a pass d A a C b B a C c D c A b B a C c D a
expect: 0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20
over: draw 24-24 repetition

rule: G7 G8
game: gore:repetition=owner
position: 0,0,0,0/1,1,0,6 S own=SSSSNNNN cap=20,20
moves: offer:A refuse a pass d A a C b B a C c D c A b B a C c D a pass d A a C b B a C c D c A b B a C c D a
over: N 20-28 noglory repetition
