"""Differential test against the program: along random games of every
game, the module's legal moves equal `mancala moves` of the same position,
and `mancala apply` of the whole game gives the module's final position and
result.  The two share the library, but not the path: the program parses
and prints the position and moves itself at every step."""
import random
import subprocess

import pytest

import mancala
from conftest import GAMES, MANCALA

SPECS = GAMES + ["oware:awari", "omweso:setup=all2", "gore:trades=off"]


def run(*args):
    out = subprocess.run([MANCALA] + list(args), capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


@pytest.mark.parametrize("spec", SPECS)
def test_against_cli(spec):
    game = mancala.load_game(spec)
    for seed in range(2):
        st = game.new_initial_state()
        start = st.position()
        rng = random.Random(1000 + seed)
        while not st.is_terminal() and st.move_number() < 400:
            if st.move_number() < 40:
                cli = run("moves", spec, st.position())[0].split()
                assert cli == st.legal_moves(), st.position()
                assert sorted(st.action_to_string(a)
                              for a in st.legal_actions()) == sorted(cli)
            st.apply_action(rng.choice(st.legal_actions()))
        lines = run("apply", spec, start, *st.history_moves())
        assert lines[0] == st.position()
        res = st.result()
        if res is None:
            assert len(lines) == 1
        else:
            who = {0: "S", 1: "N", None: "draw"}[res["winner"]]
            assert lines[1] == ("over %s %s" % (who, res["detail"])).rstrip()
            ret = st.returns()
            assert ret == {"S": [1, -1], "N": [-1, 1], "draw": [0, 0]}[who]
