"""Game.max_game_length(): a true upper bound on the plies of a game from
its start, per game, with how each is derived from the rule files
(docs/rules/*.md, rule numbers cited) and from what the library's
repetition count compares (src/session/line.h: the whole position but its
`last` byte, since the last irreversible move).

The library states a ply limit for two games only (Sadeqa II's 300th ply,
Omweso's max_plies option); for Goré without trades G8's 200 quiet plies
give one.  Oware and Goré with trades end only by their repetition rules,
so their bound is a count of positions: true, and far beyond any game
played (random games last about 100 and 400 plies; docs/PYTHON.md).
No guess is used: a guessed cap (OpenSpiel takes 1000 for Oware) is not a
bound.  Nothing here is a rule the module applies: the library ends every
game; these numbers only bound where it can end."""

from math import comb

# Sadeqa II, S8: the game ends at its 300th ply (src/games/sadeqa2.c
# PLY_LIMIT: the status is over once 300 plies are played).
SADEQA2_PLIES = 300
# Goré, G8: 200 consecutive plies without a capture or an accepted offer
# end the game (src/games/gore.c QUIET_LIMIT).
GORE_QUIET = 200
# Goré's board: 8 pits; an offer names 1 to 3 of them (G6).
GORE_PITS = 8
GORE_MAX_OFFER = 3
# Oware's board: 12 houses.
OWARE_HOUSES = 12


def oware(total, repetition):
    """Oware: captures are the only irreversible moves (O5) and each takes
    seeds off the board for good, so the positions between two captures
    share one board count B and one pair of stores, and B falls from one
    such stretch to the next.  Inside a stretch a position may occur once
    (repetition=first, O8b: the first recurrence ends the game) or twice
    (threefold) before the occurrence that ends the game.  A stretch of B
    board seeds has at most 2 * C(B + 11, 11) positions (12 houses, the
    side to move), so a game has at most (k - 1) * sum over B = 0..total
    of those, plus the last, positions (k = 2 or 3), and one ply fewer:
    (k - 1) * 2 * C(total + 12, 12) plies (the hockey-stick identity).
    total is the seeds of the start, 48."""
    k = 3 if repetition == "threefold" else 2
    return (k - 1) * 2 * comb(total + OWARE_HOUSES, OWARE_HOUSES)


def gore(total, trades):
    """Goré.  Without trades (trades=off) a capture takes a whole pit of 2
    or 4 stones off the board for good (G4), so a game has at most
    total / 2 captures, and before the first, between two and after the
    last at most 200 plies (G8): 200 * (total / 2 + 1) plies.

    With trades an accepted offer puts captured stones back on the board
    (G6), so only the repetition rule ends a long game: the third
    occurrence of a position ends it (G8), and a position may occur twice
    before.  A position is the stones of the 8 pits and the 2 stores
    (total of them: C(total + 9, 9) ways), the owner of each pit (not all
    one player's: 254), the side to move (2), and a pending offer of 1 to
    3 pits, or none with or without an answered offer (92 + 2 = 94).  A
    game has at most twice that many positions, plus the last, and one
    ply fewer."""
    if trades == "off":
        return GORE_QUIET * (total // 2 + 1)
    pits_and_stores = comb(total + GORE_PITS + 1, GORE_PITS + 1)
    owners = 2 ** GORE_PITS - 2
    offers = sum(comb(GORE_PITS, k) for k in range(1, GORE_MAX_OFFER + 1))
    positions = pits_and_stores * owners * 2 * (offers + 2)
    return 2 * positions


def max_game_length(name, option, total):
    """The bound for the game called name; option(key) is its option's
    value as text, total the seeds (stones) of its start."""
    if name == "sadeqa2":
        return SADEQA2_PLIES
    if name == "omweso":
        # W15: the game is annulled at ply max_plies (the library's own
        # option, 2000 by default).
        return int(option("max_plies"))
    if name == "gore":
        return gore(total, option("trades"))
    if name == "oware":
        return oware(total, option("repetition"))
    raise NotImplementedError("max_game_length: no bound known for %r "
                              "(python/mancala/_bounds.py)" % name)
