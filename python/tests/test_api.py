"""The OpenSpiel-shaped API for every game: actions, notation, positions,
history, undo, clone, returns and observations.  Expected values are worked
out by hand from docs/rules/ (cited) or are properties that could fail."""
import random

import numpy as np
import pytest

import mancala
from conftest import GAMES


def random_state(name, plies, seed):
    st = mancala.load_game(name).new_initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if st.is_terminal():
            break
        st.apply_action(rng.choice(st.legal_actions()))
    return st


def test_game_names():
    assert sorted(mancala.game_names()) == sorted(GAMES)


def test_bad_spec_and_position():
    with pytest.raises(mancala.MancalaError, match="nosuch"):
        mancala.load_game("nosuch")
    with pytest.raises(mancala.MancalaError):
        mancala.load_game("oware:grand_slam=banana")
    g = mancala.load_game("oware")
    with pytest.raises(mancala.MancalaError, match="house"):
        g.new_initial_state(position="1,2,3")


def test_variant_spec():
    g = mancala.load_game("omweso:setup=all2")
    assert g.spec() == "omweso:setup=all2"
    # W3, setup=all2 (rules/omweso.md): 2 in every pit.
    obs = g.new_initial_state().observation_tensor()
    assert obs[:16].tolist() == [2.0] * 16


def test_oware_start_by_hand():
    # O3/O4: South to move, 4 seeds a house; a move is the house A..F.
    st = mancala.load_game("oware").new_initial_state()
    assert st.position() == "4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0"
    assert st.current_player() == 0
    assert st.legal_actions() == [0, 1, 2, 3, 4, 5]
    assert [st.action_to_string(a) for a in range(6)] == list("ABCDEF")
    st.apply_action(2)  # C: one seed into D, E, F, a
    assert str(st) == "4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0"
    assert st.current_player() == 1
    # North's actions count from its own a: 'd' is 3.
    assert st.string_to_action("d") == 3
    assert st.action_to_string(3) == "d"
    obs = st.observation_tensor()
    assert obs.dtype == np.float32
    assert obs.tolist() == [5, 4, 4, 4, 4, 4, 4, 4, 0, 5, 5, 5, 0, 0]
    # From South's view: South's row first.
    assert st.observation_tensor(0).tolist()[:6] == [4, 4, 0, 5, 5, 5]
    st.apply_action(3)  # d: e, f, A, B
    assert str(st) == "5,5,0,5,5,5/5,4,4,0,5,5 S cap=0,0"
    assert st.history() == [2, 3]
    assert st.history_moves() == ["C", "d"]
    assert st.history_str() == "2, 3"
    assert st.undo() and str(st) == "4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0"
    assert st.history() == [2]


def test_oware_capture_win_by_hand():
    # South F (1 seed) lands in a, making 2: captured (O6), 26 >= 25 wins.
    st = mancala.load_game("oware").new_initial_state(
        position="0,0,0,0,1,1/1,0,0,0,0,1 S cap=24,20")
    assert st.legal_actions() == [4, 5]
    st.apply_action(5)
    assert st.is_terminal()
    assert st.current_player() == mancala.TERMINAL_PLAYER_ID == -4
    assert st.returns() == [1.0, -1.0]
    assert st.legal_actions() == []
    assert st.result()["winner"] == 0
    assert st.result()["reason"] == "captures"


def test_sadeqa2_first_move_by_hand():
    # S2/first move: the first mover must play its rightmost hole F.
    st = mancala.load_game("sadeqa2").new_initial_state()
    assert st.legal_actions() == [5]
    assert st.action_to_string(5) == "F"
    assert st.observation_tensor().tolist()[12:] == [1, 1]


def test_gore_start_by_hand():
    # G2: South sows one of its pits A-D; G1: 6 stones each.
    st = mancala.load_game("gore").new_initial_state()
    assert st.legal_actions() == [0, 1, 2, 3]
    obs = st.observation_tensor()
    assert obs[:8].tolist() == [6] * 8
    assert obs[8:16].tolist() == [1, 1, 1, 1, 0, 0, 0, 0]
    st.apply_action(0)
    # North's pits a..d are its relative 0..3.
    assert st.current_player() == 1
    assert [st.action_to_string(a) for a in st.legal_actions()] == \
        ["a", "b", "c", "d"]
    assert st.observation_tensor()[8:12].tolist() == [1, 1, 1, 1]


def test_gore_offer_actions():
    # G6: find offers along random games; their action is 11 + the mask
    # of the offered pits counted from the mover's first pit.
    seen = 0
    for seed in range(40):
        st = mancala.load_game("gore").new_initial_state()
        rng = random.Random(seed)
        while not st.is_terminal() and st.move_number() < 150:
            for a in st.legal_actions():
                tok = st.action_to_string(a)
                if tok.startswith("offer:"):
                    letters = tok[len("offer:"):]
                    base = "abcd" if st.current_player() else "ABCD"
                    other = "ABCD" if st.current_player() else "abcd"
                    mask = 0
                    for ch in letters:
                        r = base.index(ch) if ch in base \
                            else 4 + other.index(ch)
                        mask |= 1 << r
                    assert a == 11 + mask
                    seen += 1
                elif tok in ("pass", "accept", "refuse"):
                    assert a == {"pass": 8, "accept": 9, "refuse": 10}[tok]
            st.apply_action(rng.choice(st.legal_actions()))
    assert seen > 0


def test_omweso_start_by_hand():
    # W4/W7: South starts from any pit of its inner row I..P (own 0..7),
    # a plain sowing with no marks: slot 2, action own + 32.
    st = mancala.load_game("omweso").new_initial_state()
    assert st.legal_actions() == list(range(32, 40))
    assert [st.action_to_string(a) for a in st.legal_actions()] == \
        list("IJKLMNOP")


@pytest.mark.parametrize("name", GAMES)
def test_actions_round_trip(name):
    """Along random games: actions are distinct, below the size, and turn
    into the notation and back; legal_moves says the same moves."""
    game = mancala.load_game(name)
    for seed in range(4):
        st = game.new_initial_state()
        rng = random.Random(seed)
        while not st.is_terminal() and st.move_number() < 120:
            acts = st.legal_actions()
            assert acts == sorted(set(acts))
            assert all(0 <= a < game.num_distinct_actions() for a in acts)
            toks = [st.action_to_string(a) for a in acts]
            assert sorted(toks) == sorted(st.legal_moves())
            assert [st.string_to_action(t) for t in toks] == acts
            mask = st.legal_actions_mask()
            assert mask.sum() == len(acts) and all(mask[acts] == 1)
            st.apply_action(rng.choice(acts))


@pytest.mark.parametrize("name", GAMES)
def test_clone_undo_history(name):
    st = random_state(name, 30, 7)
    c = st.clone()
    assert c.position() == st.position()
    assert c.history() == st.history()
    if not c.is_terminal():
        c.apply_action(c.legal_actions()[0])
        assert c.position() != st.position() or c.history() != st.history()
        assert len(st.history()) + 1 == len(c.history())
    # Replaying the history from the start gives the same position.
    r = mancala.load_game(name).new_initial_state()
    for a in st.history():
        r.apply_action(a)
    assert r.position() == st.position()
    # Undo all the way back.
    n = len(st.history())
    for _ in range(n):
        assert st.undo()
    assert not st.undo()
    assert st.position() == mancala.load_game(name).start_position()


@pytest.mark.parametrize("name", GAMES)
def test_position_round_trip(name):
    st = random_state(name, 25, 3)
    again = mancala.state_from_position(name, st.position())
    assert again.position() == st.position()
    assert again.observation_tensor().tolist() == \
        st.observation_tensor().tolist()
    assert again.legal_actions() == st.legal_actions() or st.is_terminal()


@pytest.mark.parametrize("name", GAMES)
def test_terminal_returns(name):
    st = random_state(name, 100000, 11)
    assert st.is_terminal()
    assert st.current_player() == -4
    ret = st.returns()
    res = st.result()
    assert sum(ret) == 0
    if res["winner"] is None:
        assert ret == [0, 0]
    else:
        assert ret[res["winner"]] == 1 and ret[1 - res["winner"]] == -1
    with pytest.raises(mancala.MancalaError):
        st.apply_action(0)


@pytest.mark.parametrize("name", GAMES)
def test_observation_shape_and_seeds(name):
    """The observation has the documented shape; it counts every seed on
    the board (the sum of the pit entries is the board's total)."""
    game = mancala.load_game(name)
    npits = {"oware": 12, "sadeqa2": 12, "gore": 8, "omweso": 32}[name]
    st = random_state(name, 20, 5)
    obs = st.observation_tensor()
    assert list(obs.shape) == game.observation_tensor_shape()
    board = sum(int(x) for x in
                st.position().split(" ")[0].replace("/", ",").split(","))
    assert obs[:npits].sum() == board


def test_illegal_action():
    st = mancala.load_game("sadeqa2").new_initial_state()
    with pytest.raises(mancala.MancalaError, match="not legal"):
        st.apply_action(0)
    with pytest.raises(mancala.MancalaError):
        st.string_to_action("Q")
