"""mancala: Oware, Omweso, Goré and Sadeqa II from Python, on libmancala.

An OpenSpiel-shaped interface (load_game, Game, State), a PettingZoo-style
AEC environment (env, Env), the library's search, endgame tables and game
records, and batched random playouts in C.  The module knows no rule: every
move, position, result and observation comes from the library.
docs/PYTHON.md documents the API, the action numbering and the observation
layout of each game.
"""

import collections
import ctypes
import math
import numbers
import operator
import os

import numpy as np

from . import _bounds, _capi
from ._capi import lib

__all__ = ["MancalaError", "Game", "GameType", "State", "Record", "Env",
           "env", "load_game", "game_names", "state_from_position",
           "read_records", "load_records", "write_records", "save_records",
           "version", "TERMINAL_PLAYER_ID", "RECORDS_MAX_BYTES"]

# OpenSpiel's kTerminalPlayerId.
TERMINAL_PLAYER_ID = -4
_SIDE_NAMES = ("S", "N")

# The most bytes of records text read_records and load_records (and
# deserialize_state) take unless given max_bytes: reading keeps about 16
# times the text in memory (the records' sessions), so 16 MiB of records
# (some 40,000 Oware games) need about 256 MiB.
RECORDS_MAX_BYTES = 16 << 20

_C_INT_MAX = (1 << 31) - 1
_C_LONG_MAX = (1 << 63) - 1
_U64_MAX = (1 << 64) - 1


class MancalaError(ValueError):
    """Bad input for the library: the message is the library's sentence."""

    def __init__(self, message, code=0):
        super().__init__(message)
        self.code = code


def _raise(err, default="error"):
    msg = err.msg.decode("utf-8", "replace") or default
    raise MancalaError(msg, err.code)


# -- what crosses into C ------------------------------------------------------
# Every Python value handed to the library goes through one of these first:
# ctypes would wrap a too large int (2**64 becomes 0), truncate a float,
# take True for 1, and end a string at its first NUL ("oware\x00:awari" is
# "oware"), so each is checked for its type and range instead.

def _int(value, what, lo, hi):
    """value as an int in lo..hi: an int or a numpy integer, not a bool;
    TypeError for another type, MancalaError (a ValueError) out of
    range."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError("%s must be an int, not a bool" % what)
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError("%s must be an int, not %s"
                        % (what, type(value).__name__)) from None
    if not lo <= v <= hi:
        raise MancalaError("%s %d is out of range (%d..%d)" % (what, v, lo, hi),
                           _capi.ERR_ARG)
    return v


def _seconds(value, what):
    """A positive, finite number of seconds (int or float, not a bool)."""
    if isinstance(value, (bool, np.bool_)) or \
            not isinstance(value, numbers.Real):
        raise TypeError("%s must be a number of seconds, not %s"
                        % (what, type(value).__name__))
    v = float(value)
    if not (math.isfinite(v) and v > 0):
        raise MancalaError("%s must be more than 0 and finite, not %r"
                           % (what, value), _capi.ERR_ARG)
    return v


def _text(value, what):
    """A str for the library as UTF-8 bytes: TypeError for another type,
    ValueError for a NUL (C would stop reading there)."""
    if not isinstance(value, str):
        raise TypeError("%s must be a str, not %s"
                        % (what, type(value).__name__))
    if "\x00" in value:
        raise MancalaError("%s contains a NUL character: %r" % (what, value),
                           _capi.ERR_ARG)
    return value.encode()


def _path(value, what):
    """A file or directory name (str, bytes or os.PathLike) as bytes."""
    try:
        p = os.fsencode(value)
    except TypeError:
        raise TypeError("%s must be a path, not %s"
                        % (what, type(value).__name__)) from None
    if b"\x00" in p:
        raise MancalaError("%s contains a NUL character: %r" % (what, value),
                           _capi.ERR_ARG)
    return p


def _player(value):
    """None, or a player: 0 (South) or 1 (North)."""
    return None if value is None else _int(value, "player", 0, 1)


def _records_bytes(text, max_bytes):
    """Records text (str or bytes-like) as bytes, at most max_bytes."""
    limit = _int(max_bytes, "max_bytes", 0, _C_LONG_MAX)
    if isinstance(text, str):
        if len(text) > limit:  # a character is 1 byte or more
            raise _too_long(limit)
        data = text.encode()
    elif isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
    else:
        raise TypeError("records text must be str or bytes, not %s"
                        % type(text).__name__)
    if len(data) > limit:
        raise _too_long(limit)
    return data


def _too_long(limit):
    return MancalaError("records text of more than %d bytes: over the limit "
                        "(max_bytes=, mancala.RECORDS_MAX_BYTES)" % limit,
                        _capi.ERR_ARG)


def version():
    """The library's version string."""
    return lib.mc_version().decode()


def game_names():
    """The names of the games, as load_game accepts them."""
    names = lib.mc_game_names()
    out, i = [], 0
    while names[i]:
        out.append(names[i].decode())
        i += 1
    return out


def load_game(spec, eval=None):
    """A game from a spec (a str): "oware", "oware:awari",
    "omweso:setup=all2".  eval chooses its evaluation (Game.set_eval)."""
    g = Game(spec)
    if eval is not None:
        g.set_eval(eval)
    return g


def state_from_position(game, position):
    """The state of a position string of game (a Game or a spec)."""
    if not isinstance(game, Game):
        game = Game(game)
    return game.new_initial_state(position=position)


def _format_pos(g, pos):
    buf = ctypes.create_string_buffer(_capi.POS_STRLEN)
    lib.mc_pos_format(g, ctypes.byref(pos), buf, len(buf))
    return buf.value.decode()


def _format_move(g, pos, move):
    buf = ctypes.create_string_buffer(_capi.MOVE_STRLEN)
    lib.mc_move_format(g, ctypes.byref(pos), move, buf, len(buf))
    return buf.value.decode()


def _counts(po):
    return {"games": po.games, "wins": [po.wins[0], po.wins[1]],
            "draws": po.draws, "cut": po.cut, "plies": po.plies}


# OpenSpiel's GameType, with its enumerations as their names in lower case.
GameType = collections.namedtuple("GameType", [
    "short_name", "long_name", "dynamics", "chance_mode", "information",
    "utility", "reward_model", "max_num_players", "min_num_players",
    "provides_information_state_string", "provides_information_state_tensor",
    "provides_observation_string", "provides_observation_tensor",
    "provides_factored_observation_string", "parameter_specification",
    "default_loadable"])


def _options(g):
    """The game's options and presets from the library's listing
    (mc_game_options_help): ({name: (values, lo, hi, default)}, {preset:
    its options}).  values is the list of an option's words with lo, hi
    None, or None for a number in lo..hi; default as the listing marks
    it, a str or an int."""
    n = lib.mc_game_options_help(g, None, 0)
    buf = ctypes.create_string_buffer(n + 1)
    lib.mc_game_options_help(g, buf, len(buf))
    opts, presets = {}, {}
    for line in buf.value.decode().splitlines():
        if not line.startswith("  ") or line.startswith("   "):
            continue  # an option's help, under its line
        words = line.split()
        if words[0] == "preset" and len(words) == 3:
            presets[words[1]] = words[2]
            continue
        name, values = words[0], words[1]
        if ".." in values and "|" not in values:
            # "1..100000000 (default 2000)"
            lo, hi = (int(x) for x in values.split(".."))
            default = int(line.rsplit("default", 1)[1].strip(" )"))
            opts[name] = (None, lo, hi, default)
        else:
            words = values.split("|")
            marked = [w[:-1] for w in words if w.endswith("*")]
            if len(marked) != 1:
                raise MancalaError("option %s: no default in %r"
                                   % (name, values))
            opts[name] = ([w.rstrip("*") for w in words], None, None,
                          marked[0])
    return opts, presets


class Game:
    """A game with its options (mc_game)."""

    def __init__(self, spec):
        err = _capi.Error()
        self._g = lib.mc_game_new(_text(spec, "game spec"), ctypes.byref(err))
        if not self._g:
            _raise(err, "bad game spec %r" % spec)
        self._egdb = {}
        self._num_actions = lib.mc_ml_num_actions(self._g)

    def __del__(self):
        g = getattr(self, "_g", None)
        if g:
            for db in self._egdb.values():
                if db and db[0] == "solved":
                    lib.mc_solved_close(db[1])
                elif db:
                    lib.mc_egdb_close(db[1])
            lib.mc_game_free(g)
            self._g = None

    def __repr__(self):
        return "mancala.load_game(%r)" % self.spec()

    def set_eval(self, source):
        """The evaluation this game's searches use: None the library's
        default (the built-in learned weights), "hand" the hand-set one, a
        directory holding <game>.txt, or a weights file (docs/SEARCH.md).
        Raises MancalaError for a file that cannot be read or parsed."""
        err = _capi.Error()
        src = None if source is None else _path(source, "evaluation")
        if lib.mc_game_set_eval(self._g, src, ctypes.byref(err)) != 0:
            _raise(err, "cannot use the evaluation %r" % source)

    def eval_kind(self):
        """"learned", "network" or "hand": the evaluation in use."""
        return lib.mc_eval_kind(self._g).decode()

    def __str__(self):
        return self.spec()

    def name(self):
        return lib.mc_game_name(self._g).decode()

    def spec(self):
        """The canonical spec: the name and the options that differ."""
        return lib.mc_game_spec(self._g).decode()

    def title(self):
        return lib.mc_game_title(self._g).decode()

    def option(self, key):
        """An option's value as text ("forfeit", "2000"); None for a key
        the game does not have."""
        v = lib.mc_game_option(self._g, _text(key, "option name"))
        return None if v is None else v.decode()

    def get_parameters(self):
        """{option: its value in this game} (OpenSpiel's
        get_parameters): a str, or an int for a numeric option."""
        opts, _ = _options(self._g)
        return {k: (int(self.option(k)) if spec[0] is None
                    else self.option(k))
                for k, spec in opts.items()}

    def presets(self):
        """{preset: the options it sets} from the library's listing:
        "oware:awari" loads the preset awari."""
        return _options(self._g)[1]

    def get_type(self):
        """A GameType as OpenSpiel's (docs/PYTHON.md): every game here is
        sequential, deterministic, of perfect information, zero-sum (the
        returns are +1, -1 or 0 and 0: State.returns) with its reward at
        the end; parameter_specification holds each option's default."""
        opts, _ = _options(self._g)
        return GameType(
            short_name=self.name(), long_name=self.title(),
            dynamics="sequential", chance_mode="deterministic",
            information="perfect_information", utility="zero_sum",
            reward_model="terminal", max_num_players=2, min_num_players=2,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            provides_factored_observation_string=False,
            parameter_specification={k: v[3] for k, v in opts.items()},
            default_loadable=True)

    def num_players(self):
        return 2

    def num_distinct_actions(self):
        """The size of the action space (docs/PYTHON.md, per game)."""
        return self._num_actions

    def max_game_length(self):
        """A true upper bound on the plies of a game from the start
        (docs/PYTHON.md, "Game length"; python/mancala/_bounds.py derives
        each): Sadeqa II 300, Omweso its max_plies, Goré without trades
        5000; Oware and Goré with trades a count of positions, far beyond
        any game played."""
        start = _capi.Pos()
        lib.mc_start(self._g, ctypes.byref(start))
        return _bounds.max_game_length(
            self.name(), self.option,
            lib.mc_total(self._g, ctypes.byref(start)))

    def observation_tensor_shape(self):
        return [lib.mc_ml_obs_size(self._g)]

    def observation_tensor_size(self):
        return lib.mc_ml_obs_size(self._g)

    # Perfect information: the information state is the observation.
    def information_state_tensor_shape(self):
        return self.observation_tensor_shape()

    def information_state_tensor_size(self):
        return self.observation_tensor_size()

    def max_chance_outcomes(self):
        """0: no game here has chance moves."""
        return 0

    def min_utility(self):
        return -1.0

    def max_utility(self):
        return 1.0

    def utility_sum(self):
        return 0.0

    def start_position(self):
        """The position string of the start."""
        pos = _capi.Pos()
        lib.mc_start(self._g, ctypes.byref(pos))
        return _format_pos(self._g, pos)

    def _parse(self, position):
        pos = _capi.Pos()
        if position is None or position == "start":
            lib.mc_start(self._g, ctypes.byref(pos))
            return pos
        err = _capi.Error()
        if lib.mc_pos_parse(self._g, _text(position, "position"),
                            ctypes.byref(pos), ctypes.byref(err)) != 0:
            _raise(err, "bad position %r" % position)
        return pos

    def new_initial_state(self, position=None):
        """A state at the start, or at a position string (history counted
        from there)."""
        return State(self, self._parse(position))

    def deserialize_state(self, text):
        """The state State.serialize() wrote, of this game: exactly the
        same first position and moves.  The text is a game record, read
        and checked by the library (docs/RECORDS.md): one record of this
        game is taken, comments and free tags ignored.  Anything else
        raises MancalaError (a ValueError): another game's or variant's
        record, not one record, a record ended by resignation or time (a
        state has no such end), a bad one (its line and column), one over
        RECORDS_MAX_BYTES.  A non-str raises TypeError."""
        if not isinstance(text, str):
            raise TypeError("deserialize_state takes a str, not %s"
                            % type(text).__name__)
        recs = read_records(text)
        if len(recs) != 1:
            raise MancalaError("a serialized state is one record, not %d"
                               % len(recs), _capi.ERR_ARG)
        rec = recs[0]
        spec = lib.mc_game_spec(lib.mc_record_game(rec._r)).decode()
        if spec != self.spec():
            raise MancalaError("a state of %s, not of %s"
                               % (spec, self.spec()), _capi.ERR_ARG)
        s = lib.mc_record_session(rec._r)
        start = _capi.Pos()
        ctypes.memmove(ctypes.byref(start), lib.mc_session_pos_at(s, 0),
                       ctypes.sizeof(start))
        st = State(self, start)
        for k in range(lib.mc_session_ply(s)):
            st._play(lib.mc_session_move_at(s, k))
        # The moves give the state, but for an end they cannot give.
        ended = _capi.Result()
        lib.mc_session_result(s, ctypes.byref(ended))
        got = st._result()
        if (ended.over, ended.winner, ended.reason) != \
                (got.over, got.winner, got.reason):
            raise MancalaError("the record's game ends by %s, which a state "
                               "cannot hold" % (rec.tag("Termination")
                                                or "a forfeit"),
                               _capi.ERR_ARG)
        return st

    def random_playouts(self, n, seed=0, position=None, max_plies=0):
        """n random games in C from the start (or a position string):
        {"games", "wins": [South, North], "draws", "cut", "plies"}."""
        return _playouts(self, self._parse(position), n, seed, max_plies)

    def _tables(self, directory):
        """The endgame tables for this game: ("egdb", Oware's) or
        ("solved", a solved game's), None when it has none."""
        if directory in self._egdb:
            return self._egdb[directory]
        err = _capi.Error()
        name = ctypes.create_string_buffer(32)
        if lib.mc_solved_name(self._g, name, len(name), None) == 0:
            if directory is None:
                db = lib.mc_solved_open_default(self._g, None, 0,
                                                ctypes.byref(err))
            else:
                db = lib.mc_solved_open(self._g, _path(directory, "tables"),
                                        -1, ctypes.byref(err))
                if not db:
                    _raise(err, "cannot open tables in %s" % directory)
            self._egdb[directory] = ("solved", db) if db else None
            return self._egdb[directory]
        preset = lib.mc_egdb_preset_of(self._g, ctypes.byref(err))
        db = None
        if preset >= 0:
            if directory is None:
                db = lib.mc_egdb_open_default(preset, None, 0,
                                              ctypes.byref(err))
            else:
                db = lib.mc_egdb_open(_path(directory, "tables"), preset, -1,
                                      ctypes.byref(err))
                if not db:
                    _raise(err, "cannot open tables in %s" % directory)
        self._egdb[directory] = ("egdb", db) if db else None
        return self._egdb[directory]


def _playouts(game, pos, n, seed, max_plies):
    n = _int(n, "random_playouts: n", 0, _C_LONG_MAX)
    seed = _int(seed, "random_playouts: seed", 0, _U64_MAX)
    max_plies = _int(max_plies, "random_playouts: max_plies", 0, _C_INT_MAX)
    po = _capi.Playouts()
    rc = lib.mc_ml_random_playouts(game._g, ctypes.byref(pos), n, seed,
                                   max_plies, ctypes.byref(po))
    if rc != 0:
        raise MancalaError("random_playouts failed (out of memory?)", rc)
    return _counts(po)


class State:
    """A game in progress: a position with its history (mc_session)."""

    def __init__(self, game, pos, _session=None):
        self._game = game
        if _session is None:
            _session = lib.mc_session_new(game._g, ctypes.byref(pos))
            if not _session:
                raise MemoryError("mancala: out of memory")
        self._s = _session
        self._owner = None  # a Record whose session this is
        self._player = None
        # Buffers of the learning loop's calls, made once per state.
        self._abuf = (ctypes.c_long * _capi.MAX_MOVES)()
        self._dropped = ctypes.c_int(0)
        self._err = _capi.Error()
        # The actions played, kept as they are played and taken back, so
        # that history() costs no call into C per ply.
        self._actions = self._read_history()

    def __del__(self):
        if getattr(self, "_player", None):
            lib.mc_player_free(self._player)
            self._player = None
        if getattr(self, "_s", None) and self._owner is None:
            lib.mc_session_free(self._s)
        self._s = None

    # -- the position -----------------------------------------------------

    def get_game(self):
        return self._game

    def num_players(self):
        return self._game.num_players()

    def num_distinct_actions(self):
        return self._game.num_distinct_actions()

    def _pos(self):
        return lib.mc_session_pos(self._s).contents

    def position(self):
        """The position string, as the CLI and records write it."""
        return _format_pos(self._game._g, self._pos())

    def __str__(self):
        return self.position()

    def __repr__(self):
        return "<mancala.State %s %s>" % (self._game.spec(), self.position())

    def move_number(self):
        return lib.mc_session_ply(self._s)

    def is_terminal(self):
        return bool(lib.mc_session_over(self._s))

    def is_chance_node(self):
        """False: no game here has chance moves."""
        return False

    def is_simultaneous_node(self):
        """False: the players take turns."""
        return False

    def is_player_node(self):
        """True while a player is to move (the game is not over)."""
        return not self.is_terminal()

    def current_player(self):
        """0 (South) or 1 (North) to move; TERMINAL_PLAYER_ID (-4) at the
        end."""
        if self.is_terminal():
            return TERMINAL_PLAYER_ID
        return int(self._pos().side)

    def _result(self):
        r = _capi.Result()
        lib.mc_session_result(self._s, ctypes.byref(r))
        return r

    def returns(self):
        """[South, North]: +1 win, -1 loss, 0 draw or not over."""
        r = self._result()
        if not r.over or r.winner == 2:
            return [0.0, 0.0]
        return [1.0, -1.0] if r.winner == 0 else [-1.0, 1.0]

    def rewards(self):
        """The rewards of the last move, [South, North]: [0, 0] until the
        game ends, then the returns (OpenSpiel's terminal reward model)."""
        if not self.is_terminal():
            return [0.0, 0.0]
        return self.returns()

    def result(self):
        """None while the game goes on; else {"winner": 0, 1 or None (a
        draw), "reason", "scores" (halves possible), "text"}."""
        r = self._result()
        if not r.over:
            return None
        buf = ctypes.create_string_buffer(256)
        lib.mc_result_describe(self._game._g, ctypes.byref(r), buf, len(buf))
        reason = lib.mc_end_reason_name(r.reason)
        return {"winner": None if r.winner == 2 else r.winner,
                "reason": reason.decode() if reason else "",
                "scores": [r.score2[0] / 2, r.score2[1] / 2],
                "detail": r.detail.decode(),
                "text": buf.value.decode()}

    # -- moves and actions ------------------------------------------------

    def _moves(self):
        mv = (ctypes.c_uint64 * _capi.MAX_MOVES)()
        n = lib.mc_session_moves(self._s, mv)
        return list(mv[:n])

    def legal_actions(self, player=None):
        """The legal actions, ascending (empty at the end, or when player
        is given and is not to move: 0, 1, or TERMINAL_PLAYER_ID, whose
        list is always empty, as OpenSpiel's)."""
        if player is not None:
            if player == TERMINAL_PLAYER_ID and \
                    not isinstance(player, (bool, np.bool_)):
                return []
            if _player(player) != self.current_player():
                return []
        dropped = self._dropped
        n = lib.mc_ml_legal_actions(self._s, self._abuf, dropped)
        if dropped.value:
            raise MancalaError("%d legal moves here have no action index "
                               "(docs/PYTHON.md)" % dropped.value)
        return sorted(self._abuf[:n])

    def legal_actions_mask(self, player=None):
        """A uint8 array of num_distinct_actions(), 1 for each legal
        action (all 0 at the end, or for the player not to move)."""
        mask = np.zeros(self._game.num_distinct_actions(), dtype=np.uint8)
        mask[self.legal_actions(player)] = 1
        return mask

    def legal_moves(self):
        """The legal moves as the game writes them, in the rule file's
        order."""
        pos = self._pos()
        return [_format_move(self._game._g, pos, m) for m in self._moves()]

    def _action(self, action):
        """action checked: an int (not a bool) below num_distinct_actions;
        TypeError, or MancalaError out of range."""
        n = self._game._num_actions
        if type(action) is int and 0 <= action < n:
            return action  # the learning loop's case, at once
        return _int(action, "action", 0, n - 1)

    def _move_of(self, action):
        action = self._action(action)
        pos = self._pos()
        m = ctypes.c_uint64()
        if self.is_terminal() or lib.mc_ml_move(
                self._game._g, ctypes.byref(pos), action,
                ctypes.byref(m)) != 0:
            raise MancalaError("action %r is not legal in %s"
                               % (action, self.position()))
        return m.value

    def _play(self, move):
        a = lib.mc_ml_action(self._game._g, lib.mc_session_pos(self._s), move)
        err = _capi.Error()
        if lib.mc_session_play(self._s, move, None, ctypes.byref(err)) != 0:
            _raise(err)
        self._actions.append(a)

    def apply_action(self, action):
        """Play an action (an int of legal_actions): TypeError for a value
        that is not an int, MancalaError for one out of range or not
        legal here."""
        a = self._action(action)
        if lib.mc_ml_apply(self._s, a, self._err) != 0:
            _raise(self._err)
        self._actions.append(a)

    def apply_move(self, token):
        """Play a move written in the game's notation ("C", "K*")."""
        self.apply_action(self.string_to_action(token))

    def child(self, action):
        c = self.clone()
        c.apply_action(action)
        return c

    def action_to_string(self, *args):
        """The game's notation of an action: action_to_string(a) or
        OpenSpiel's action_to_string(player, a)."""
        action = args[-1]
        return _format_move(self._game._g, self._pos(),
                            self._move_of(action))

    def string_to_action(self, *args):
        """The action of a move token: string_to_action(s) or
        string_to_action(player, s)."""
        token = args[-1]
        pos = self._pos()
        m = ctypes.c_uint64()
        err = _capi.Error()
        if lib.mc_move_parse(self._game._g, ctypes.byref(pos),
                             _text(token, "move"), ctypes.byref(m),
                             ctypes.byref(err)) != 0:
            _raise(err, "bad move %r" % token)
        a = lib.mc_ml_action(self._game._g, ctypes.byref(pos), m.value)
        if a < 0:
            raise MancalaError("move %r has no action index" % token)
        return a

    def history(self):
        """The actions played from the first position, in order (-1 for a
        move without an action index, docs/PYTHON.md)."""
        if len(self._actions) != lib.mc_session_ply(self._s):
            self._actions = self._read_history()  # never expected
        return list(self._actions)

    def _read_history(self):
        g = self._game._g
        out = []
        for k in range(lib.mc_session_ply(self._s)):
            m = lib.mc_session_move_at(self._s, k)
            pos = lib.mc_session_pos_at(self._s, k)
            out.append(lib.mc_ml_action(g, pos, m))
        return out

    def history_str(self):
        """The actions played, as OpenSpiel writes a history: "2, 3, 5"
        ("" before the first move)."""
        return ", ".join(str(a) for a in self.history())

    def history_moves(self):
        """The moves played, in the game's notation (["C", "d"])."""
        g = self._game._g
        return [_format_move(g, lib.mc_session_pos_at(self._s, k).contents,
                             lib.mc_session_move_at(self._s, k))
                for k in range(lib.mc_session_ply(self._s))]

    def initial_position(self):
        return _format_pos(self._game._g,
                           lib.mc_session_pos_at(self._s, 0).contents)

    def undo(self):
        """Take back the last move; False when there is none."""
        if lib.mc_session_undo(self._s) != 0:
            return False  # nothing to take back
        self._actions.pop()
        return True

    def undo_action(self, player=None, action=None):
        self.undo()

    def clone(self):
        """An independent copy: same first position and moves."""
        start = _capi.Pos()
        ctypes.memmove(ctypes.byref(start), lib.mc_session_pos_at(self._s, 0),
                       ctypes.sizeof(start))
        c = State(self._game, start)
        for k in range(lib.mc_session_ply(self._s)):
            c._play(lib.mc_session_move_at(self._s, k))
        return c

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    # -- observations -----------------------------------------------------

    def observation_tensor(self, player=None):
        """The observation (float32, docs/PYTHON.md) from the view of the
        side to move, or of player."""
        player = _player(player)
        pos = _capi.Pos()
        ctypes.memmove(ctypes.byref(pos), lib.mc_session_pos(self._s),
                       ctypes.sizeof(pos))
        if player is not None:
            pos.side = player
        out = np.zeros(self._game.observation_tensor_size(), dtype=np.float32)
        lib.mc_ml_observe(self._game._g, ctypes.byref(pos),
                          out.ctypes.data_as(ctypes.c_void_p))
        return out

    def observation_string(self, player=None):
        """The position string (the same for both players: everything is
        seen)."""
        _player(player)
        return self.position()

    # Perfect information: a player's information state is the
    # observation.  Like it, it holds no history: positions met before
    # (repetition, docs/PYTHON.md) are in history(), not here.
    def information_state_string(self, player=None):
        return self.observation_string(player)

    def information_state_tensor(self, player=None):
        return self.observation_tensor(player)

    # -- serialization ----------------------------------------------------

    def serialize(self):
        """The state as text: the game record of its first position and
        moves (docs/RECORDS.md), which game.deserialize_state turns back
        into the same state."""
        return write_records([Record(state=self)])

    # -- the computer player ----------------------------------------------

    def _think(self, movetime, depth, nodes, level, tables, book):
        depth = 0 if depth is None else _int(depth, "depth", 1, _C_INT_MAX)
        nodes = 0 if nodes is None else _int(nodes, "nodes", 1, _U64_MAX)
        movetime = 0.0 if movetime is None else _seconds(movetime, "movetime")
        level = 0 if level is None else _int(level, "level", 1, 10)
        tables = None if tables is None else _path(tables, "tables")
        if book is None or book is True:
            book = None  # the game's built-in book, if it has one
        elif book is False:
            book = b"none"
        else:
            book = _path(book, "book")
        if self.is_terminal():
            raise MancalaError("the game is over")
        key = (tables, level, book)
        if self._player is None or self._player_key != key:
            if self._player:
                lib.mc_player_free(self._player)
                self._player = None
            opts = _capi.PlayerOpts()
            opts.level = level
            opts.tables = tables
            opts.book = book
            err = _capi.Error()
            self._player = lib.mc_player_new(self._game._g,
                                             ctypes.byref(opts),
                                             ctypes.byref(err))
            if not self._player:
                _raise(err)
            self._player_key = key
        err = _capi.Error()
        if lib.mc_player_sync(self._player, self._s, ctypes.byref(err)) != 0:
            _raise(err)
        go = _capi.Go()
        go.depth = depth
        go.nodes = nodes
        go.movetime = movetime
        if not (depth or nodes or movetime):
            go.movetime = 1.0
        info = _capi.SearchInfo()
        rc = lib.mc_player_go(self._player, ctypes.byref(go),
                              ctypes.byref(info))
        if rc != 0:
            raise MancalaError("search failed (%d)" % rc, rc)
        return info

    def bestmove(self, movetime=None, depth=None, nodes=None, level=None,
                 tables=None, book=True):
        """The computer's action here, searched for movetime seconds, to
        depth plies or for nodes nodes (none given: one second).  tables:
        None for the default endgame tables, "none" or a directory.  book:
        True the game's built-in opening book (Oware's), False none (always
        search), or a book file (docs/BOOK.md); used at full strength
        only."""
        info = self._think(movetime, depth, nodes, level, tables, book)
        return lib.mc_ml_action(self._game._g, ctypes.byref(self._pos()),
                                info.best)

    def analyze(self, movetime=None, depth=None, nodes=None, level=None,
                tables=None, book=True):
        """{"best", "best_str", "score" (hundredths of a seed from the
        mover's view; near +-1000000 a proven result), "depth", "nodes",
        "seconds", "pv" (actions), "pv_str" (moves), "book" (True: the move
        is the opening book's, not searched)}.  Arguments as bestmove's."""
        info = self._think(movetime, depth, nodes, level, tables, book)
        g = self._game._g
        pos = _capi.Pos()
        ctypes.memmove(ctypes.byref(pos), lib.mc_session_pos(self._s),
                       ctypes.sizeof(pos))
        pv, pv_str = [], []
        for k in range(info.pvlen):
            m = info.pv[k]
            pv.append(lib.mc_ml_action(g, ctypes.byref(pos), m))
            pv_str.append(_format_move(g, pos, m))
            lib.mc_play(g, ctypes.byref(pos), m, None)
        start = self._pos()
        return {"best": lib.mc_ml_action(g, ctypes.byref(start), info.best),
                "best_str": _format_move(g, start, info.best),
                "score": info.score, "depth": info.depth,
                "nodes": info.nodes, "seconds": info.seconds,
                "pv": pv, "pv_str": pv_str, "book": bool(info.book)}

    def probe(self, tables=None):
        """The tables' value here with perfect play from the mover's view:
        for Oware's endgame tables and Goré without trades the final seed
        difference (stores or captures included), for Sadeqa II 1, 0 or
        -1 (a win, a draw, a loss); None when the game has no tables (Omweso,
        Goré with trades), none are found, the position is beyond them or
        its value depends on the moves before it (repetitions).  tables: a
        directory, or None for the default places (docs/EGDB.md,
        docs/SOLVED.md)."""
        got = self.perfect_play(tables)
        return got["value"] if got else None

    def perfect_play(self, tables=None):
        """Oware's probe() as {"value"}; for a solved game (Goré without
        trades, Sadeqa II) {"value", "plies", "move"}: the plies perfect
        play takes to settle it (0 for a draw) and a move that keeps the
        value (the fastest win, the slowest loss), as mancala probe gives
        them.  None as for probe()."""
        db = self._game._tables(tables)
        if not db or self.is_terminal():
            return None
        pos = ctypes.byref(self._pos())
        fresh = lib.mc_session_fresh(self._s)
        if db[0] == "egdb":
            diff = ctypes.c_int()
            kind = lib.mc_egdb_lookup(db[1], pos, fresh, ctypes.byref(diff))
            return {"value": diff.value} if kind == 1 else None
        if not fresh:
            return None  # a repetition to come could change the value
        move, value, plies = ctypes.c_uint64(), ctypes.c_int(), ctypes.c_int()
        if not lib.mc_solved_best(db[1], pos, ctypes.byref(move),
                                  ctypes.byref(value), ctypes.byref(plies)):
            return None
        return {"value": value.value, "plies": plies.value,
                "move": _format_move(self._game._g, self._pos(), move.value)}

    def random_playouts(self, n, seed=0, max_plies=0):
        """n random games in C from this position (history counted from
        here): {"games", "wins": [South, North], "draws", "cut",
        "plies"}."""
        pos = _capi.Pos()
        ctypes.memmove(ctypes.byref(pos), lib.mc_session_pos(self._s),
                       ctypes.sizeof(pos))
        return _playouts(self._game, pos, n, seed, max_plies)

    def record(self, **tags):
        """A game record of this game (first position and moves), with
        free tags (Event="...", South="...")."""
        return Record(state=self, tags=tags)


# -- records ----------------------------------------------------------------

class Record:
    """A game record (include/mancala_record.h, docs/RECORDS.md)."""

    def __init__(self, state=None, tags=None, _handle=None):
        if _handle is None:
            if not isinstance(state, State):
                raise TypeError("Record needs a State, not %s"
                                % type(state).__name__)
            err = _capi.Error()
            start = _capi.Pos()
            ctypes.memmove(ctypes.byref(start),
                           lib.mc_session_pos_at(state._s, 0),
                           ctypes.sizeof(start))
            _handle = lib.mc_record_new(state._game.spec().encode(),
                                        ctypes.byref(start),
                                        ctypes.byref(err))
            if not _handle:
                _raise(err)
            self._r = _handle
            s = lib.mc_record_session(_handle)
            for k in range(lib.mc_session_ply(state._s)):
                if lib.mc_session_play(s, lib.mc_session_move_at(state._s, k),
                                       None, ctypes.byref(err)) != 0:
                    _raise(err)
        self._r = _handle
        for name, value in (tags or {}).items():
            self.set_tag(name, value)

    def __del__(self):
        if getattr(self, "_r", None):
            lib.mc_record_free(self._r)
            self._r = None

    def set_tag(self, name, value):
        """Set a free tag (a str name; the value a str, or a number
        written as text; None removes it)."""
        err = _capi.Error()
        if isinstance(value, numbers.Number) and not isinstance(value, bool):
            value = str(value)
        v = None if value is None else _text(value, "tag value")
        if lib.mc_record_set_tag(self._r, _text(name, "tag name"), v,
                                 ctypes.byref(err)) != 0:
            _raise(err)

    def tag(self, name):
        """A tag's value (derived tags too: Game, Result ...), or None."""
        v = lib.mc_record_tag(self._r, _text(name, "tag name"))
        return None if v is None else v.decode()

    def tags(self):
        """The free tags in writing order."""
        out, i = {}, 0
        name, value = ctypes.c_char_p(), ctypes.c_char_p()
        while lib.mc_record_tag_at(self._r, i, ctypes.byref(name),
                                   ctypes.byref(value)):
            out[name.value.decode()] = value.value.decode()
            i += 1
        return out

    def state(self):
        """A new State with the record's first position and moves."""
        spec = lib.mc_game_spec(lib.mc_record_game(self._r)).decode()
        game = Game(spec)
        s = lib.mc_record_session(self._r)
        start = _capi.Pos()
        ctypes.memmove(ctypes.byref(start), lib.mc_session_pos_at(s, 0),
                       ctypes.sizeof(start))
        st = State(game, start)
        for k in range(lib.mc_session_ply(s)):
            st._play(lib.mc_session_move_at(s, k))
        return st

    def text(self):
        return write_records([self])


def read_records(text, max_bytes=None):
    """The records of a text (str or bytes; every move checked);
    MancalaError with "line L, column C: ..." on a bad one, or for a text
    over max_bytes (default RECORDS_MAX_BYTES)."""
    data = _records_bytes(text, RECORDS_MAX_BYTES if max_bytes is None
                          else max_bytes)
    arr = ctypes.POINTER(ctypes.c_void_p)()
    n = ctypes.c_int(0)
    loc = _capi.RecordLoc()
    err = _capi.Error()
    if lib.mc_records_read(data, len(data), ctypes.byref(arr),
                           ctypes.byref(n), ctypes.byref(loc),
                           ctypes.byref(err)) != 0:
        _raise(err)
    recs = [Record(_handle=arr[i]) for i in range(n.value)]
    _capi.libc.free(arr)  # the array; each record is now its Record's
    return recs


def load_records(path, max_bytes=None):
    """The records of a file, read_records' way.  At most max_bytes
    (default RECORDS_MAX_BYTES) are read: a longer file, or a device or
    pipe that gives more (/dev/zero), raises MancalaError without being
    read further."""
    limit = _int(RECORDS_MAX_BYTES if max_bytes is None else max_bytes,
                 "max_bytes", 0, _C_LONG_MAX)
    with open(path, "rb") as f:
        st = os.fstat(f.fileno())
        if st.st_size > limit:  # a regular file's size, else 0
            raise _too_long(limit)
        chunks, n = [], 0
        while n <= limit:
            chunk = f.read(min(1 << 20, limit + 1 - n))
            if not chunk:
                break
            chunks.append(chunk)
            n += len(chunk)
    return read_records(b"".join(chunks), limit)


def write_records(records):
    """The text of records (a list of Record)."""
    records = list(records)
    for r in records:
        if not isinstance(r, Record):
            raise TypeError("write_records takes Records, not %s"
                            % type(r).__name__)
    n = len(records)
    arr = (ctypes.c_void_p * max(n, 1))(*[r._r for r in records])
    size = ctypes.c_size_t(0)
    p = lib.mc_records_format(arr, n, ctypes.byref(size))
    if not p:
        raise MemoryError("mancala: out of memory")
    try:
        return ctypes.string_at(p, size.value).decode()
    finally:
        _capi.libc.free(p)


def save_records(path, records):
    text = write_records(records)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


from .env import Env, env  # noqa: E402  (needs the classes above)
