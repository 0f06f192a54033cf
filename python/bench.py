"""Speed figures of the Python module (docs/PYTHON.md): random games
played by a Python loop over legal_actions/apply_action, and the same
number of plies' worth of batched random playouts in C, for each game.

    make bench-python          (or: PYTHONPATH=python /usr/bin/python3 python/bench.py)
    python/bench.py --seconds 2 --games oware,gore
"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mancala  # noqa: E402


def python_loop(game, seconds, seed):
    """Plies a second of random games driven from Python."""
    rng = random.Random(seed)
    plies, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        st = game.new_initial_state()
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
            plies += 1
    return plies / (time.perf_counter() - t0)


def batched(game, seconds, seed):
    """Plies a second of mc_ml_random_playouts, in growing batches."""
    n, plies, games, t0 = 16, 0, 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        r = game.random_playouts(n, seed=seed + games)
        plies += r["plies"]
        games += r["games"]
        n = min(n * 2, 100000)
    dt = time.perf_counter() - t0
    return plies / dt, games / dt, plies / max(games, 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0,
                    help="time per figure (default 3)")
    ap.add_argument("--games", default="oware,sadeqa2,gore,omweso")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print("%-8s %16s %16s %12s %12s" % ("game", "python plies/s",
                                        "batched plies/s", "games/s",
                                        "plies/game"))
    for name in a.games.split(","):
        g = mancala.load_game(name)
        py = python_loop(g, a.seconds, a.seed)
        c, gps, ppg = batched(g, a.seconds, a.seed)
        print("%-8s %16.0f %16.0f %12.0f %12.1f" % (name, py, c, gps, ppg))


if __name__ == "__main__":
    main()
