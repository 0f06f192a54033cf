"""Search, endgame tables and records from Python, for every game."""
import os
import random
import subprocess

import pytest

import mancala
from conftest import GAMES, MANCALA

# South to move; F (1 seed) lands in a making 2, captured (O6): 26 >= 25
# wins at once (O8a).  E instead wins nothing now.
WIN_IN_ONE = "0,0,0,0,1,1/1,0,0,0,0,1 S cap=24,20"


def test_bestmove_finds_the_win():
    st = mancala.state_from_position("oware", WIN_IN_ONE)
    assert st.bestmove(depth=3, tables="none") == 5
    info = st.analyze(depth=3, tables="none")
    assert info["best"] == 5 and info["best_str"] == "F"
    assert info["pv"][0] == 5 and info["pv_str"][0] == "F"
    assert info["score"] > 990000  # a proven win (MC_SCORE_WIN - plies)
    assert info["depth"] >= 1


@pytest.mark.parametrize("name", GAMES)
def test_analyze_every_game(name):
    st = mancala.load_game(name).new_initial_state()
    info = st.analyze(nodes=2000, tables="none")
    assert info["best"] in st.legal_actions()
    assert st.action_to_string(info["best"]) == info["best_str"]
    # The pv is a line of legal moves from here.
    c = st.clone()
    for a, tok in zip(info["pv"], info["pv_str"]):
        assert c.action_to_string(a) == tok
        c.apply_action(a)
    assert st.bestmove(nodes=2000, tables="none") in st.legal_actions()
    assert st.bestmove(movetime=0.05, tables="none") in st.legal_actions()


def test_search_when_over():
    st = mancala.state_from_position("oware", WIN_IN_ONE)
    st.apply_action(5)
    with pytest.raises(mancala.MancalaError, match="over"):
        st.bestmove(depth=2)


def test_probe(tmp_path):
    d = str(tmp_path / "egdb")
    subprocess.run([MANCALA, "egdb", "build", "oware", "--seeds", "4",
                    "--dir", d, "--quiet"], check=True, timeout=120)
    st = mancala.state_from_position("oware", WIN_IN_ONE)
    # The program's own probe of the same tables, for comparison.
    out = subprocess.run([MANCALA, "egdb", "probe", "oware", WIN_IN_ONE,
                          "--dir", d], capture_output=True, text=True,
                         check=True).stdout
    line = [x for x in out.splitlines() if x.startswith("perfect play")][0]
    # "perfect play: South wins by 8 (28-20)"
    by = int(line.split(" by ")[1].split()[0])
    assert st.probe(tables=d) == by
    # Too many seeds for 4-seed tables; the start has 48.
    assert mancala.load_game("oware").new_initial_state().probe(d) is None
    # No tables (MANCALA_EGDB_DIR=none in the tests), and other games.
    assert st.probe() is None
    for name in ("gore", "sadeqa2", "omweso"):
        assert mancala.load_game(name).new_initial_state().probe() is None
    with pytest.raises(mancala.MancalaError):
        mancala.load_game("sadeqa2").new_initial_state().probe(d)


def test_probe_solved(tmp_path):
    """Sadeqa II's solved tables (docs/SOLVED.md), positions worked out by
    hand from the rules (S4-S7), as tests/cli_solved.sh has them."""
    d = str(tmp_path / "solved")
    subprocess.run([MANCALA, "solve", "--build", "sadeqa2", "--seeds", "6",
                    "--dir", d, "--quiet"], check=True, timeout=120)
    # A's seed ends in B: North has nothing to move and loses.
    st = mancala.state_from_position("sadeqa2",
                                     "1,0,0,0,0,0/0,0,0,0,0,0 S first=-")
    assert st.probe(tables=d) == 1
    assert st.perfect_play(tables=d) == {"value": 1, "plies": 1, "move": "A"}
    # F's seed ends in a; North's a ends in b; South has no move.
    st = mancala.state_from_position("sadeqa2",
                                     "0,0,0,0,0,1/0,0,0,0,0,0 S first=-")
    assert st.perfect_play(tables=d) == {"value": -1, "plies": 2,
                                         "move": "F"}
    # Beyond the 6 seeds built, and no tables in the default places.
    big = mancala.state_from_position("sadeqa2",
                                      "3,3,3,3,3,3/3,3,3,3,3,3 S first=-")
    assert big.probe(tables=d) is None
    assert st.probe() is None
    # Goré with trades cannot be solved: no tables, no error.
    assert mancala.load_game("gore").new_initial_state().probe(d) is None


def test_probe_bad_dir(tmp_path):
    st = mancala.state_from_position("oware", WIN_IN_ONE)
    with pytest.raises(mancala.MancalaError):
        st.probe(tables=str(tmp_path / "none-here"))


@pytest.mark.parametrize("name", GAMES)
def test_record_round_trip(name, tmp_path):
    st = mancala.load_game(name).new_initial_state()
    rng = random.Random(2)
    for _ in range(30):
        if st.is_terminal():
            break
        st.apply_action(rng.choice(st.legal_actions()))
    rec = st.record(Event="test", South="me")
    text = rec.text()
    assert '[Event "test"]' in text and '[South "me"]' in text
    path = str(tmp_path / "g.rec")
    mancala.save_records(path, [rec, rec])
    back = mancala.load_records(path)
    assert len(back) == 2
    assert back[0].tags() == {"Event": "test", "South": "me"}
    assert back[0].tag("Game") == mancala.load_game(name).spec()
    again = back[1].state()
    assert again.position() == st.position()
    assert again.history() == st.history()
    # The program checks the file as a record too.
    out = subprocess.run([MANCALA, "check", path], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_record_errors():
    with pytest.raises(mancala.MancalaError, match="line"):
        mancala.read_records('[Game "oware"]\n\n1. Z *\n')
    rec = mancala.load_game("oware").new_initial_state().record()
    with pytest.raises(mancala.MancalaError):
        rec.set_tag("Result", "1-0")  # derived from the moves
    with pytest.raises(mancala.MancalaError):
        rec.set_tag("Bad name", "x")


def test_record_of_finished_game():
    st = mancala.state_from_position("oware", WIN_IN_ONE)
    st.apply_action(5)
    rec = st.record()
    assert rec.tag("Result") == "1-0"
    assert mancala.read_records(rec.text())[0].state().returns() == [1, -1]



def _weights(path, mult):
    """An Oware linear model: the built-in one's count of features, seeded
    random weights times mult."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "data", "eval", "oware.txt")) as f:
        nf = next(int(l.split()[1]) for l in f if l.startswith("features "))
    rng = random.Random(7)
    with open(path, "w") as f:
        f.write("features %d\n" % nf)
        for i in range(nf):
            f.write("%d %d\n" % (i, mult * rng.randint(-50, 50)))


def test_set_eval(tmp_path):
    """A game's own evaluation: a weights file, "hand", the default.  A
    one-ply search scores max(-eval(child)), so weights twice as large
    must give exactly twice the score (an independent check that the file
    is the evaluation in use)."""
    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    _weights(one, 1)
    _weights(two, 2)
    g = mancala.load_game("oware")
    assert g.eval_kind() == "learned"
    pos = "0,3,5,1,2,6/4,0,2,7,1,3 S cap=10,4"  # out of the book
    s1 = mancala.load_game("oware", eval=str(one)).new_initial_state(pos)
    s2 = mancala.load_game("oware", eval=str(two)).new_initial_state(pos)
    i1 = s1.analyze(depth=1, tables="none")
    i2 = s2.analyze(depth=1, tables="none")
    assert not i1["book"] and i1["score"] != 0
    assert i2["score"] == 2 * i1["score"]
    g.set_eval("hand")
    assert g.eval_kind() == "hand"
    g.set_eval(None)
    assert g.eval_kind() == "learned"
    with pytest.raises(mancala.MancalaError, match="nope.txt") as e:
        g.set_eval(str(tmp_path / "nope.txt"))
    assert g.eval_kind() == "learned"
    (tmp_path / "bad.txt").write_text("features 2\n")
    with pytest.raises(mancala.MancalaError, match="bad.txt"):
        g.set_eval(str(tmp_path / "bad.txt"))
    assert e.value.code != 0
