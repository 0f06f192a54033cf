"""Shared set-up of the Python tests: the module from this tree, the
program to compare with, and no endgame tables or user files unless a test
asks for them (as the Makefile's TEST_ENV does for the C tests)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("MANCALA_EGDB_DIR", "none")
os.environ.setdefault("XDG_DATA_HOME", os.path.join(ROOT, "build", "xdg",
                                                    "data"))
os.environ.setdefault("XDG_STATE_HOME", os.path.join(ROOT, "build", "xdg",
                                                     "state"))
MANCALA = os.path.abspath(os.environ.get("MANCALA",
                                         os.path.join(ROOT, "mancala")))
GAMES = ["oware", "sadeqa2", "gore", "omweso"]
