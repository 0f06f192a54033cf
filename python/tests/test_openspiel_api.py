"""The calls that give the module OpenSpiel's shape: the game's type,
options, presets and length, the node kinds, the history string, rewards,
information states, serialization, and the opening book switch of the
search.  Expected values come from the rule files (docs/rules/, cited), the
book format (docs/BOOK.md) or are worked out here by a second route."""
import os
import random
import re
from math import comb

import numpy as np
import pytest

import mancala
from conftest import GAMES, ROOT


def rule_file(name):
    with open(os.path.join(ROOT, "docs", "rules", name + ".md"),
              encoding="utf-8") as f:
        return f.read()


def rule_options(name):
    """The rule file's table "| option | values (default first) |":
    {option: its first value, or None when the table names none}."""
    out, inside = {}, False
    for line in rule_file(name).splitlines():
        if line.startswith("| option | values (default first)"):
            inside = True
            continue
        if inside and not line.startswith("|"):
            break
        if inside and not line.startswith("|---"):
            cells = line.split("|")
            key = cells[1].strip().strip("`")
            first = re.match(r"\s*`([^`]*)`", cells[2])
            out[key] = first.group(1) if first else None
    return out


@pytest.mark.parametrize("name", GAMES)
def test_game_type(name):
    g = mancala.load_game(name)
    t = g.get_type()
    assert t.short_name == name and t.long_name == g.title()
    assert (t.dynamics, t.chance_mode, t.information, t.reward_model) == \
        ("sequential", "deterministic", "perfect_information", "terminal")
    assert t.utility == "zero_sum"
    assert t.max_num_players == t.min_num_players == g.num_players() == 2
    assert t.provides_information_state_string
    assert t.provides_information_state_tensor
    assert t.provides_observation_string and t.provides_observation_tensor
    assert (g.min_utility(), g.max_utility(), g.utility_sum()) == (-1, 1, 0)
    assert g.max_chance_outcomes() == 0
    assert g.information_state_tensor_shape() == \
        g.observation_tensor_shape() == [g.information_state_tensor_size()]
    st = g.new_initial_state()
    assert st.num_players() == 2
    assert st.num_distinct_actions() == g.num_distinct_actions()
    # The options and their defaults are the rule file's table.
    spec = t.parameter_specification
    table = rule_options(name)
    assert sorted(spec) == sorted(table)
    for key, first in table.items():
        if first is not None:
            assert str(spec[key]) == first, key
    # A game loaded with options reports its own values, the type its
    # defaults.
    assert g.get_parameters() == spec


def test_parameters_of_a_variant():
    g = mancala.load_game("omweso:max_plies=77,setup=all2")
    p = g.get_parameters()
    assert p["max_plies"] == 77 and p["setup"] == "all2"
    assert g.get_type().parameter_specification["max_plies"] == 2000  # W15
    assert g.option("nosuch") is None
    with pytest.raises(ValueError):
        g.option("max\x00plies")


def test_presets():
    # docs/rules/oware.md: Preset `awari` = `...`.
    m = re.search(r"Preset `awari` = `([^`]*)`", rule_file("oware"))
    presets = mancala.load_game("oware").presets()
    assert presets["awari"] == m.group(1)
    # Each preset is the game with its options.
    for name, opts in presets.items():
        assert mancala.load_game("oware:" + name).spec() == \
            mancala.load_game("oware:" + opts).spec()
    for name in ("gore", "sadeqa2", "omweso"):
        assert mancala.load_game(name).presets() == {}


def test_num_distinct_actions():
    # docs/PYTHON.md, "Actions": 6 houses, 6 holes; Goré 8 pits + pass,
    # accept, refuse + 256 masks from 11; Omweso 16 starts x 2049 slots.
    want = {"oware": 6, "sadeqa2": 6, "gore": 11 + 256,
            "omweso": 16 * (2 + 2 ** 11 - 1)}
    for name, n in want.items():
        assert mancala.load_game(name).num_distinct_actions() == n


# -- max_game_length ----------------------------------------------------------

def test_max_game_length_sadeqa2_is_s8():
    # S8: "the 300th ply of the game ends it".
    assert "the 300th ply of the game" in \
        " ".join(rule_file("sadeqa2").split())
    assert mancala.load_game("sadeqa2").max_game_length() == 300


def test_max_game_length_omweso_is_its_ply_limit():
    # W15: the max_plies-th ply annuls the game.  Random games of a
    # 12-ply limit reach it and end there.
    assert mancala.load_game("omweso").max_game_length() == 2000
    g = mancala.load_game("omweso:max_plies=12")
    assert g.max_game_length() == 12
    rng = random.Random(0)
    lengths = []
    for _ in range(6):
        st = g.new_initial_state()
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
        lengths.append(st.move_number())
        if st.move_number() == 12:
            assert st.result()["reason"] == "annulled"
    assert max(lengths) == 12


def compositions(total, parts):
    """Ways to put total seeds into parts pits, counted by a table rather
    than by the binomial formula the module uses."""
    ways = [1] + [0] * total  # no pit: only 0 seeds
    for _ in range(parts):
        for s in range(1, total + 1):
            ways[s] += ways[s - 1]
    return ways[total]


def test_compositions_by_hand():
    # 2 seeds in 2 pits: 2+0, 1+1, 0+2; 3 in 3 pits: 10 (stars and bars
    # by hand: 3 of one pit 3, 2+1 in 6 orders, 1+1+1).
    assert compositions(2, 2) == 3 and compositions(3, 3) == 10


def test_max_game_length_oware_counts_positions():
    # _bounds.oware: each board count B between captures has at most
    # 2 * (ways of B seeds in 12 houses) positions, each seen once
    # (first recurrence ends, O8b) or twice (threefold) before the end.
    per_first = sum(2 * compositions(b, 12) for b in range(49))
    assert mancala.load_game("oware").max_game_length() == per_first
    assert mancala.load_game("oware:awari").max_game_length() == \
        2 * per_first
    assert per_first > 10 ** 12  # no small cap is a bound for Oware


def test_max_game_length_gore():
    # Without trades: at most 24 captures (2 or 4 stones each, G4, of 48)
    # and 200 quiet plies around each (G8).
    assert mancala.load_game("gore:trades=off").max_game_length() == \
        200 * 25
    # With trades, twice the positions: 48 stones in 8 pits and 2 stores,
    # pit owners (not all one side's), side to move, offer state.
    owners = sum(1 for m in range(256) if m not in (0, 255))
    offers = sum(1 for m in range(256) if 1 <= bin(m).count("1") <= 3)
    positions = compositions(48, 10) * owners * 2 * (offers + 2)
    assert mancala.load_game("gore").max_game_length() == 2 * positions


# -- states -------------------------------------------------------------------

def test_node_kinds_rewards_history_str():
    # docs/rules/oware.md O8a: F wins at once from this position.
    st = mancala.state_from_position(
        "oware", "0,0,0,0,1,1/1,0,0,0,0,1 S cap=24,20")
    assert st.is_player_node() and not st.is_chance_node()
    assert not st.is_simultaneous_node()
    assert st.rewards() == [0, 0] and st.returns() == [0, 0]
    assert st.history_str() == ""
    st.apply_action(5)
    assert st.is_terminal() and not st.is_player_node()
    assert st.rewards() == [1, -1] == st.returns()
    assert st.history_str() == "5"
    s2 = mancala.load_game("oware").new_initial_state()
    for a in (2, 3, 0):  # C d A
        s2.apply_action(a)
    assert s2.history_str() == "2, 3, 0"
    assert s2.history_moves() == ["C", "d", "A"]
    assert s2.undo() and s2.history_str() == "2, 3"


def test_information_state_is_the_observation():
    st = mancala.load_game("gore").new_initial_state()
    st.apply_action(1)  # B: its 6 stones into C D a b c d (G3)
    for p in (0, 1):
        assert st.information_state_string(p) == st.position()
        assert np.array_equal(st.information_state_tensor(p),
                              st.observation_tensor(p))
    # Each side's view counts the pits from its own first pit
    # (docs/PYTHON.md): South A B C D a b c d, North a b c d A B C D.
    assert st.information_state_tensor(0)[:8].tolist() == \
        [6, 0, 7, 7, 7, 7, 7, 7]
    assert st.information_state_tensor(1)[:8].tolist() == \
        [7, 7, 7, 7, 6, 0, 7, 7]


def test_legal_actions_mask():
    st = mancala.load_game("sadeqa2").new_initial_state()
    # S2: the first move is F, action 5.
    assert st.legal_actions_mask().tolist() == [0, 0, 0, 0, 0, 1]
    assert st.legal_actions_mask(1).tolist() == [0] * 6


# -- serialization ------------------------------------------------------------

def test_serialize_is_a_record():
    st = mancala.state_from_position("oware",
                                     "4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0")
    st.apply_action(3)  # d
    text = st.serialize()
    # docs/RECORDS.md: the game, the start when not the standard one, the
    # moves numbered from North's "1...".
    assert '[Game "oware"]' in text
    assert '[Start "4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0"]' in text
    assert "1... d *" in text
    back = mancala.load_game("oware").deserialize_state(text)
    assert back.initial_position() == "4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0"
    assert back.position() == "5,5,0,5,5,5/5,4,4,0,5,5 S cap=0,0"
    assert back.history() == [3]


def test_deserialize_refuses():
    g = mancala.load_game("oware")
    good = g.new_initial_state().child(2).serialize()
    g.deserialize_state(good)
    for bad in ["", "hello", good.replace("1. C", "1. Z"),
                good + good,                     # two records
                good[:len(good) // 2],           # cut
                good.replace('"oware"', '"oware:awari"'),
                mancala.load_game("gore").new_initial_state().serialize(),
                # A resignation: the moves do not end the game.
                '[Game "oware"]\n[Result "1-0"]\n[Termination "resign"]\n'
                '\n1. C 1-0\n',
                good.replace("\n", "\x00", 1)]:
        with pytest.raises(ValueError):
            g.deserialize_state(bad)
    with pytest.raises(TypeError):
        g.deserialize_state(good.encode())
    with pytest.raises(TypeError):
        g.deserialize_state(None)
    # The state of a variant belongs to that variant only.
    awari = mancala.load_game("oware:awari")
    text = awari.new_initial_state().child(0).serialize()
    assert awari.deserialize_state(text).history() == [0]
    with pytest.raises(ValueError, match="repetition=threefold"):
        g.deserialize_state(text)


def test_deserialize_keeps_history_rules():
    # docs/rules/oware.md, last example: A a ... F f brings the start
    # back, a draw by repetition (O8b).  The deserialized state knows the
    # earlier positions: one move short, the last move still ends it.
    start = "1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23"
    g = mancala.load_game("oware")
    st = g.new_initial_state(start)
    for tok in "A a B b C c D d E e F".split():
        st.apply_move(tok)
    back = g.deserialize_state(st.serialize())
    assert not back.is_terminal()
    back.apply_move("f")
    assert back.is_terminal()
    assert back.result()["reason"] == "repetition"
    assert back.returns() == [0, 0]


# -- the opening book switch --------------------------------------------------

def test_book_switch(tmp_path):
    """Oware's start is in the built-in book (data/book/oware.book, best
    move first).  A book file of ours says A; book=False searches."""
    with open(os.path.join(ROOT, "data", "book", "oware.book")) as f:
        line = next(l for l in f
                    if l.startswith("4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 |"))
    built_in = line.split("|")[1].split()[0]
    st = mancala.load_game("oware").new_initial_state()
    info = st.analyze(depth=1, tables="none")
    assert info["book"] and info["nodes"] == 0
    assert info["best_str"] == built_in
    off = st.analyze(depth=1, tables="none", book=False)
    assert not off["book"] and off["nodes"] > 0
    # docs/BOOK.md's format: one position line with the move A.
    book = tmp_path / "a.book"
    book.write_text("book 1\ngame oware\n"
                    "4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 | A 0 1\n")
    mine = st.analyze(depth=1, tables="none", book=str(book))
    assert mine["book"] and mine["best_str"] == "A"
    assert st.bestmove(depth=1, tables="none", book=book) == 0
    searched = st.bestmove(depth=1, tables="none", book=False)
    assert searched == off["best"] != 0
    with pytest.raises(mancala.MancalaError):
        st.analyze(depth=1, book=str(tmp_path / "missing.book"))
