"""The AEC environment and the batched random playouts, every game."""
import random

import numpy as np
import pytest

import mancala
from conftest import GAMES


@pytest.mark.parametrize("name", GAMES)
def test_env_full_games(name):
    e = mancala.env(name)
    for seed in range(3):
        e.reset(seed=seed)
        assert e.agents == ["player_0", "player_1"]
        assert e.agent_selection == "player_0"  # South starts
        steps = 0
        while e.agents:
            agent = e.agent_selection
            obs, reward, term, trunc, info = e.last()
            assert obs["observation"].shape == e.observation_shape
            mask = obs["action_mask"]
            assert mask.shape == (e.num_actions,) and mask.dtype == np.uint8
            if term or trunc:
                e.step(None)
                continue
            # The mask is the state's legal actions; the other agent has
            # none.
            legal = np.flatnonzero(mask).tolist()
            assert legal == e.state.legal_actions()
            other = [a for a in e.possible_agents if a != agent][0]
            assert e.observe(other)["action_mask"].sum() == 0
            e.step(e.sample_action())
            steps += 1
        ret = e.state.returns()
        assert sum(e._cumulative_rewards.values()) == 0
        assert e.rewards == {"player_0": ret[0], "player_1": ret[1]}
        assert all(e.terminations.values())
        assert steps == len(e.state.history())


def test_env_seed_repeats():
    e = mancala.env("oware")
    runs = []
    for _ in range(2):
        e.reset(seed=42)
        while not e.terminations[e.agent_selection]:
            e.step(e.sample_action())
        runs.append(e.state.history())
    assert runs[0] == runs[1]


def test_env_truncation_and_bad_step():
    e = mancala.env("gore", max_plies=5)
    e.reset()
    for _ in range(5):
        e.step(e.sample_action())
    assert all(e.truncations.values())
    assert not any(e.terminations.values())
    with pytest.raises(ValueError):
        e.step(0)
    e.step(None)
    e.step(None)
    assert e.agents == []
    e.reset()
    with pytest.raises(mancala.MancalaError):
        e.step(200)  # no such Goré action at the start


def test_env_observation_is_the_agents_view():
    e = mancala.env("oware")
    e.reset()
    e.step(2)  # C
    south = e.observe("player_0")["observation"]
    north = e.observe("player_1")["observation"]
    assert south[:6].tolist() == [4, 4, 0, 5, 5, 5]
    assert north[:6].tolist() == [5, 4, 4, 4, 4, 4]


@pytest.mark.parametrize("name", GAMES)
def test_playouts_counts(name):
    g = mancala.load_game(name)
    n = 40 if name == "omweso" else 200  # Omweso's games meet long cycles
    r = g.random_playouts(n, seed=9)
    assert r["games"] == n
    assert r["wins"][0] + r["wins"][1] + r["draws"] + r["cut"] == n
    assert r["cut"] == 0 and r["plies"] > n
    assert g.random_playouts(n, seed=9) == r
    assert g.random_playouts(n, seed=10) != r
    # Cut after one ply: each game is exactly one ply, none over.
    one = g.random_playouts(50, seed=1, max_plies=1)
    assert one["plies"] == 50 and one["cut"] == 50
    st = g.new_initial_state()
    assert st.random_playouts(n, seed=9) == r


def test_playouts_forced_win():
    # South's only move F lands in a making 2: captured, 26 seeds (O6, O8a).
    st = mancala.state_from_position("oware",
                                     "0,0,0,0,0,1/1,0,0,0,0,1 S cap=24,21")
    r = st.random_playouts(100, seed=3)
    assert r["wins"] == [100, 0] and r["plies"] == 100


def test_playouts_match_the_rule_file():
    # rules/oware.md: uniform random play averages 104.0 plies a game;
    # South wins 45.8 %, North 48.5 %, draws 5.7 %.
    n = 20000
    r = mancala.load_game("oware").random_playouts(n, seed=123)
    assert abs(r["plies"] / n - 104.0) < 1.5
    assert abs(r["wins"][0] / n - 0.458) < 0.015
    assert abs(r["wins"][1] / n - 0.485) < 0.015
    assert abs(r["draws"] / n - 0.057) < 0.01


def test_playouts_agree_with_python_loop():
    # The same statistics from the Python API's own random games.
    g = mancala.load_game("sadeqa2")
    rng = random.Random(5)
    plies = 0
    n = 300
    for _ in range(n):
        st = g.new_initial_state()
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
        plies += st.move_number()
    c = g.random_playouts(20000, seed=5)
    mean_py, mean_c = plies / n, c["plies"] / c["games"]
    assert abs(mean_py - mean_c) < 0.15 * mean_c


def test_playouts_bad_n():
    with pytest.raises(mancala.MancalaError):
        mancala.load_game("oware").random_playouts(-1)


@pytest.mark.parametrize("name,games", [("oware", 3000), ("sadeqa2", 3000),
                                        ("gore", 1000), ("omweso", 100)])
def test_playouts_match_cli_bench(name, games):
    """`mancala bench --rules` plays its random games with seed 1 through
    another loop (mc_random_game); the same stream gives the same games."""
    import re
    import subprocess
    from conftest import MANCALA
    out = subprocess.run([MANCALA, "bench", "--rules", "--game", name,
                          "--perft", "1", "--games", str(games)],
                         capture_output=True, text=True, timeout=120,
                         check=True).stdout
    m = re.search(r"random: (\d+) games, (\d+) plies .*South ([\d.]+)%, "
                  r"North ([\d.]+)%", out)
    assert m, out
    r = mancala.load_game(name).random_playouts(games, seed=1)
    assert r["games"] == int(m.group(1))
    assert r["plies"] == int(m.group(2))
    assert abs(100 * r["wins"][0] / games - float(m.group(3))) < 0.051
    assert abs(100 * r["wins"][1] / games - float(m.group(4))) < 0.051
