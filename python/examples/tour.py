"""A tour of the mancala module, notebook style: each block is a cell.
docs/PYTHON.md shows it; python/tests/test_example.py runs it, so every
assert below stays true.

    PYTHONPATH=python /usr/bin/python3 python/examples/tour.py
"""
import random

import mancala

# %% A game and its start.
game = mancala.load_game("oware")
state = game.new_initial_state()
print(game.spec(), game.num_distinct_actions(), game.observation_tensor_shape())
print(state)                                  # 4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0
assert state.legal_actions() == [0, 1, 2, 3, 4, 5]

# %% Actions, notation and positions.
state.apply_action(state.string_to_action("C"))
print(state.current_player(), state, state.action_to_string(3))
assert str(state) == "4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0"
assert state.action_to_string(3) == "d"        # North counts from its a
print(state.observation_tensor())             # the mover's row first
state.undo()
assert state.history() == []

# %% A random game to the end.
rng = random.Random(0)
while not state.is_terminal():
    state.apply_action(rng.choice(state.legal_actions()))
print(len(state.history()), "plies:", state.result()["text"])
assert state.current_player() == mancala.TERMINAL_PLAYER_ID
assert sum(state.returns()) == 0

# %% The engine: a move and its line.
puzzle = mancala.state_from_position("oware",
                                     "0,0,0,0,1,1/1,0,0,0,0,1 S cap=24,20")
info = puzzle.analyze(depth=4, tables="none")
print(info["best_str"], info["score"], info["pv_str"])
assert info["best_str"] == "F"                # captures 2: 26 seeds win

# %% Batched random playouts in C.
counts = game.random_playouts(10000, seed=1)
print(counts)
assert counts["games"] == 10000

# %% The AEC environment.
env = mancala.env("gore")
env.reset(seed=3)
while env.agents:
    obs, reward, term, trunc, info = env.last()
    env.step(None if term or trunc else env.sample_action())
print("gore:", env.rewards, env.state.result()["reason"])

# %% A record of a game, written and read back.
omweso = mancala.load_game("omweso").new_initial_state()
for _ in range(6):
    omweso.apply_action(rng.choice(omweso.legal_actions()))
text = omweso.record(Event="tour").text()
back = mancala.read_records(text)[0].state()
assert back.position() == omweso.position()
print(text)
