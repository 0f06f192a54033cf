"""Bad input is refused, never wrapped, rounded, cut or read without bound
(docs/PYTHON.md, "Limits on input").  ctypes on its own turns 2**64 into
0, 2.7 into 2 (through int()), True into 1, "oware\\x00:awari" into
"oware", and load_records("/dev/zero") read until the machine ran out of
memory."""
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import mancala
from conftest import ROOT

START = "4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0"
HUGE = [2 ** 64, 2 ** 64 + 2, 2 ** 63, 2 ** 32 + 2, -1, -(2 ** 64) + 2]
NOT_INT = [True, False, np.bool_(True), 2.0, 2.7, "2", None, [2], 2 + 0j]


def fresh():
    return mancala.load_game("oware").new_initial_state()


@pytest.mark.parametrize("bad", HUGE + [6, 1000])
def test_action_out_of_range(bad):
    st = fresh()
    for call in (st.apply_action, st.action_to_string, st.child):
        with pytest.raises(mancala.MancalaError, match="out of range"):
            call(bad)
    with pytest.raises(mancala.MancalaError):
        st.action_to_string(0, bad)  # OpenSpiel's (player, action)
    # Nothing was played (2**64 used to play action 0, A).
    assert st.position() == START and st.history() == []


@pytest.mark.parametrize("bad", NOT_INT)
def test_action_not_an_int(bad):
    st = fresh()
    for call in (st.apply_action, st.action_to_string, st.child):
        with pytest.raises(TypeError):
            call(bad)
    assert st.position() == START and st.history() == []


def test_numpy_integers_are_actions():
    st = fresh()
    st.apply_action(np.int64(2))   # C
    st.apply_action(np.uint8(3))   # d
    assert st.history() == [2, 3]
    assert st.position() == "5,5,0,5,5,5/5,4,4,0,5,5 S cap=0,0"


@pytest.mark.parametrize("bad", [2, -1, 2 ** 64, -3])
def test_player_out_of_range(bad):
    st = fresh()
    for call in (st.legal_actions, st.legal_actions_mask,
                 st.observation_tensor, st.observation_string,
                 st.information_state_tensor, st.information_state_string):
        with pytest.raises(ValueError):
            call(bad)
    # OpenSpiel's terminal player has no legal actions and no view.
    assert st.legal_actions(mancala.TERMINAL_PLAYER_ID) == []
    assert st.legal_actions_mask(-4).sum() == 0
    with pytest.raises(ValueError):
        st.observation_tensor(mancala.TERMINAL_PLAYER_ID)
    with pytest.raises(TypeError):
        st.observation_tensor(True)  # was South's or North's view by luck
    with pytest.raises(TypeError):
        st.legal_actions(0.0)


def test_specs_positions_tokens():
    # A NUL ended the spec in C: "oware\0:awari" was plain oware.
    for spec in ["oware\x00:awari", "\x00", "gore\x00"]:
        with pytest.raises(ValueError, match="NUL"):
            mancala.load_game(spec)
    for spec in [b"oware", None, 42, ["oware"]]:
        with pytest.raises(TypeError):
            mancala.load_game(spec)
    g = mancala.load_game("oware")
    with pytest.raises(ValueError, match="NUL"):
        g.new_initial_state(START + "\x00junk")
    with pytest.raises(TypeError):
        g.new_initial_state(position=48)
    with pytest.raises(ValueError, match="NUL"):
        mancala.state_from_position("oware\x00x", START)
    st = g.new_initial_state()
    with pytest.raises(ValueError, match="NUL"):
        st.string_to_action("C\x00d")
    with pytest.raises(ValueError, match="NUL"):
        st.apply_move("C\x00")
    with pytest.raises(TypeError):
        st.string_to_action(2)
    with pytest.raises(ValueError, match="NUL"):
        g.set_eval("hand\x00")
    with pytest.raises(TypeError):
        g.set_eval(3)
    assert st.history() == []


def test_playout_arguments():
    g = mancala.load_game("sadeqa2")
    for kw in [{"n": -1}, {"n": 2 ** 63}, {"seed": -1}, {"seed": 2 ** 64},
               {"max_plies": -1}, {"max_plies": 2 ** 31}]:
        args = {"n": 1, **kw}
        with pytest.raises(mancala.MancalaError, match="out of range"):
            g.random_playouts(**args)
        with pytest.raises(mancala.MancalaError, match="out of range"):
            g.new_initial_state().random_playouts(**args)
    for kw in [{"n": 1.5}, {"n": True}, {"seed": 1.0}, {"max_plies": "3"}]:
        with pytest.raises(TypeError):
            g.random_playouts(**{"n": 1, **kw})
    # The edges are taken: the largest seed, a one-ply cut.
    assert g.random_playouts(2, seed=2 ** 64 - 1)["games"] == 2
    assert g.random_playouts(3, max_plies=1)["cut"] == 3  # S2: F, on


@pytest.mark.parametrize("kw", [
    {"depth": 0}, {"depth": -1}, {"depth": 2 ** 31}, {"nodes": 0},
    {"nodes": -5}, {"nodes": 2 ** 64}, {"movetime": 0},
    {"movetime": -1.0}, {"movetime": float("nan")},
    {"movetime": float("inf")}, {"level": 0}, {"level": 11},
    {"level": 2 ** 64}, {"tables": "x\x00y"}, {"book": "a\x00.book"}])
def test_search_arguments_out_of_range(kw):
    st = fresh()
    with pytest.raises(ValueError):
        st.bestmove(**kw)
    with pytest.raises(ValueError):
        st.analyze(**kw)


@pytest.mark.parametrize("kw", [
    {"depth": True}, {"depth": 2.5}, {"nodes": 1e3}, {"movetime": True},
    {"movetime": "1"}, {"level": 5.0}, {"tables": 3}, {"book": 1}])
def test_search_arguments_of_a_wrong_type(kw):
    with pytest.raises(TypeError):
        fresh().bestmove(**kw)


def test_tables_argument_of_probe():
    st = fresh()
    with pytest.raises(ValueError, match="NUL"):
        st.probe(tables="dir\x00")
    with pytest.raises(TypeError):
        st.perfect_play(tables=7)


# -- records ------------------------------------------------------------------

def record_text():
    return fresh().child(2).record().text()


def test_read_records_types_and_limit():
    # bytes(5) is five NULs and bytes(10**12) a terabyte: ints are refused.
    for bad in [5, 10 ** 12, None, ["x"]]:
        with pytest.raises(TypeError):
            mancala.read_records(bad)
    text = record_text()
    n = len(text.encode())
    assert len(mancala.read_records(text, max_bytes=n)) == 1
    assert len(mancala.read_records(text.encode(), max_bytes=n)) == 1
    for t in (text, text.encode(), bytearray(text.encode())):
        with pytest.raises(mancala.MancalaError, match="limit"):
            mancala.read_records(t, max_bytes=n - 1)
    # The default limit holds too.
    big = text + " " * (mancala.RECORDS_MAX_BYTES - n + 1)
    with pytest.raises(mancala.MancalaError, match="limit"):
        mancala.read_records(big)
    with pytest.raises(ValueError):
        mancala.read_records("[Game \"oware\"]\x00\n\n1. C *\n")


def test_load_records_file_limit(tmp_path):
    text = record_text()
    n = len(text.encode())
    path = tmp_path / "g.mcr"
    path.write_text(text)
    assert len(mancala.load_records(str(path), max_bytes=n)) == 1
    with pytest.raises(mancala.MancalaError, match="limit"):
        mancala.load_records(str(path), max_bytes=n - 1)
    # A (sparse) file over the default limit is refused by its size.
    big = tmp_path / "big.mcr"
    with open(big, "wb") as f:
        f.truncate(mancala.RECORDS_MAX_BYTES + 1)
    with pytest.raises(mancala.MancalaError, match="limit"):
        mancala.load_records(big)


def test_load_records_dev_zero_bounded():
    """/dev/zero grew the old reader to 24 GB.  In a process that may not
    map more than 1 GB, it is refused quickly (a MemoryError or a time-out
    would fail)."""
    code = ("import resource, mancala\n"
            "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
            "try:\n"
            "    mancala.load_records('/dev/zero')\n"
            "except mancala.MancalaError as e:\n"
            "    print('refused:', e)\n")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    t = time.time()
    out = subprocess.run([sys.executable, "-c", code], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("refused:") and "limit" in out.stdout
    assert time.time() - t < 30


def test_load_records_endless_pipe(tmp_path):
    # A pipe whose writer never stops: read up to the limit, then refused.
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    stop = threading.Event()

    def writer():
        try:
            with open(fifo, "wb") as f:
                while not stop.is_set():
                    f.write(b"1. C d " * 1000)
        except (BrokenPipeError, OSError):
            pass

    w = threading.Thread(target=writer, daemon=True)
    w.start()
    try:
        with pytest.raises(mancala.MancalaError, match="limit"):
            mancala.load_records(fifo, max_bytes=1 << 16)
    finally:
        stop.set()
        w.join(10)
    assert not w.is_alive()


def test_record_tags():
    rec = fresh().record()
    with pytest.raises(ValueError, match="NUL"):
        rec.set_tag("Event", "a\x00b")
    with pytest.raises(ValueError, match="NUL"):
        rec.set_tag("Ev\x00ent", "x")
    with pytest.raises(TypeError):
        rec.set_tag(3, "x")
    with pytest.raises(TypeError):
        rec.set_tag("Event", True)
    with pytest.raises(ValueError, match="NUL"):
        rec.tag("Game\x00")
    rec.set_tag("Round", 3)  # a number is written as text
    assert rec.tag("Round") == "3"
    with pytest.raises(TypeError):
        mancala.write_records([rec, "text"])
    with pytest.raises(TypeError):
        mancala.write_records([1])
    with pytest.raises(TypeError):
        mancala.Record(state="4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0")


def test_env_step_takes_no_rounded_action():
    e = mancala.env("oware")
    e.reset()
    for bad in (2.7, True, "2"):
        with pytest.raises(TypeError):
            e.step(bad)
    with pytest.raises(mancala.MancalaError):
        e.step(2 ** 64)
    assert e.state.history() == []
    e.step(np.int64(2))
    assert e.state.history() == [2]
