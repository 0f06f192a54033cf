"""OpenSpiel's generic game checks (its random simulation tests), written
for this module: random games of every game and preset, and at every
state the node kind, the legal actions and their mask, the history as the
test played it, information state = observation, rewards and returns by
the game's type, a serialize / deserialize round trip, and a clone that
goes its own way.  At the end the returns follow the type's utility and
the library's result, and the game is within max_game_length()."""
import random

import numpy as np
import pytest

import mancala
from conftest import GAMES


def specs():
    """Every game, every preset the library lists, and two options that
    change the game's length: Goré without trades, and an Omweso ply limit
    that random games reach."""
    out = []
    for name in mancala.game_names():
        out.append(name)
        out += ["%s:%s" % (name, p)
                for p in mancala.load_game(name).presets()]
    return out + ["gore:trades=off", "omweso:max_plies=12"]


def test_specs_cover_every_game():
    assert sorted(set(s.split(":")[0] for s in specs())) == sorted(GAMES)
    assert "oware:awari" in specs()  # docs/rules/oware.md: preset awari


GAMES_PER_SPEC = 2


def check_state(game, st, played, gtype):
    over = st.is_terminal()
    assert st.is_chance_node() is False
    assert st.is_simultaneous_node() is False
    assert st.is_player_node() is (not over)
    cp = st.current_player()
    if over:
        assert cp == mancala.TERMINAL_PLAYER_ID
    else:
        assert cp in (0, 1)

    legal = st.legal_actions()
    if over:
        assert legal == []
    else:
        assert legal and legal == sorted(set(legal))
        assert 0 <= legal[0] and legal[-1] < game.num_distinct_actions()
    mask = st.legal_actions_mask()
    assert mask.shape == (game.num_distinct_actions(),)
    assert set(np.unique(mask)) <= {0, 1}
    assert np.flatnonzero(mask).tolist() == legal
    assert st.legal_actions(mancala.TERMINAL_PLAYER_ID) == []

    for p in (0, 1):
        assert st.legal_actions(p) == (legal if p == cp else [])
        assert st.information_state_string(p) == st.observation_string(p)
        obs = st.observation_tensor(p)
        assert list(obs.shape) == game.observation_tensor_shape()
        assert np.array_equal(st.information_state_tensor(p), obs)

    # The history is what this test played.
    assert st.history() == played
    assert st.move_number() == len(played)
    assert st.history_str() == ", ".join("%d" % a for a in played)

    ret, rew = st.returns(), st.rewards()
    assert len(ret) == len(rew) == game.num_players()
    if not over:
        assert ret == [0, 0] and rew == [0, 0]  # reward_model "terminal"
    else:
        assert rew == ret
        assert all(game.min_utility() <= r <= game.max_utility()
                   for r in ret)
        if gtype.utility in ("zero_sum", "constant_sum"):
            assert sum(ret) == game.utility_sum()
        winner = st.result()["winner"]
        assert ret == {0: [1, -1], 1: [-1, 1], None: [0, 0]}[winner]


def round_trip(game, spec, st, fresh):
    """serialize, then deserialize by the game, and when fresh also by a
    game loaded anew from its spec (as another process would): the same
    state."""
    text = st.serialize()
    for g in (game, mancala.load_game(spec)) if fresh else (game,):
        back = g.deserialize_state(text)
        assert back.initial_position() == st.initial_position()
        assert back.position() == st.position()
        assert back.history() == st.history()
        assert back.is_terminal() == st.is_terminal()
        assert back.returns() == st.returns()
        assert back.legal_actions() == st.legal_actions()
        assert np.array_equal(back.observation_tensor(),
                              st.observation_tensor())
    assert back.serialize() == text


@pytest.mark.parametrize("spec", specs())
def test_random_simulation(spec):
    game = mancala.load_game(spec)
    gtype = game.get_type()
    assert gtype.short_name == spec.split(":")[0]
    assert gtype.dynamics == "sequential"
    assert gtype.chance_mode == "deterministic"
    assert gtype.reward_model == "terminal"
    bound = game.max_game_length()
    rng = random.Random("generic " + spec)
    for _ in range(GAMES_PER_SPEC):
        st = game.new_initial_state()
        played = []
        while True:
            check_state(game, st, played, gtype)
            round_trip(game, spec, st,
                       len(played) % 25 == 0 or st.is_terminal())
            if st.is_terminal():
                break
            a = rng.choice(st.legal_actions())
            # A clone goes its own way: playing on it leaves st as it was.
            before = st.position()
            c = st.clone()
            c.apply_action(a)
            assert c.history() == played + [a]
            assert st.history() == played and st.position() == before
            st.apply_action(a)
            played.append(a)
            assert st.position() == c.position()
        assert len(played) <= bound
        with pytest.raises(mancala.MancalaError):
            st.apply_action(0)
