"""The C library behind the module: finding libmancala and declaring the
functions the module calls (include/mancala.h, mancala_ml.h,
mancala_record.h, mancala_egdb.h).  Nothing here knows a rule."""

import ctypes
import ctypes.util
import glob
import os

MAX_PITS = 32
MAX_MOVES = 512
POS_STRLEN = 192
MOVE_STRLEN = 96
MOVE_PASS = (1 << 64) - 1
ERR_ARG = 7  # MC_ERR_ARG: a bad argument to an API call


class Pos(ctypes.Structure):
    _fields_ = [("pit", ctypes.c_uint8 * MAX_PITS),
                ("cap", ctypes.c_uint16 * 2),
                ("side", ctypes.c_uint8),
                ("first", ctypes.c_uint8),
                ("own", ctypes.c_uint8),
                ("offer", ctypes.c_uint8),
                ("flags", ctypes.c_uint8),
                ("last", ctypes.c_uint8),
                ("pad", ctypes.c_uint8 * 2)]


class Error(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("msg", ctypes.c_char * 256)]


class Result(ctypes.Structure):
    _fields_ = [("over", ctypes.c_int), ("winner", ctypes.c_int),
                ("reason", ctypes.c_int), ("score2", ctypes.c_int * 2),
                ("points", ctypes.c_int), ("detail", ctypes.c_char * 64),
                ("noglory", ctypes.c_int), ("reserved", ctypes.c_int * 4)]


class SearchInfo(ctypes.Structure):
    _fields_ = [("best", ctypes.c_uint64), ("score", ctypes.c_int),
                ("depth", ctypes.c_int), ("nodes", ctypes.c_uint64),
                ("seconds", ctypes.c_double), ("pvlen", ctypes.c_int),
                ("pv", ctypes.c_uint64 * 64), ("hashfull", ctypes.c_int),
                ("threads", ctypes.c_int), ("book", ctypes.c_int),
                ("reserved", ctypes.c_int * 8)]


class PlayerOpts(ctypes.Structure):
    _fields_ = [("level", ctypes.c_int), ("threads", ctypes.c_int),
                ("hash_mb", ctypes.c_int), ("algo", ctypes.c_int),
                ("seed", ctypes.c_uint64), ("tables", ctypes.c_char_p),
                ("book", ctypes.c_char_p), ("book_variety", ctypes.c_int),
                ("tuning", ctypes.c_void_p), ("reserved", ctypes.c_int * 5)]


class Go(ctypes.Structure):
    _fields_ = [("depth", ctypes.c_int), ("nodes", ctypes.c_uint64),
                ("movetime", ctypes.c_double),
                ("clock", ctypes.c_double * 2), ("inc", ctypes.c_double * 2),
                ("movestogo", ctypes.c_int), ("infinite", ctypes.c_int),
                ("ponder", ctypes.c_int), ("start", ctypes.c_double),
                ("on_info", ctypes.c_void_p), ("info_ctx", ctypes.c_void_p),
                ("stop", ctypes.c_void_p), ("reserved", ctypes.c_int * 8)]


class Playouts(ctypes.Structure):
    _fields_ = [("games", ctypes.c_uint64), ("wins", ctypes.c_uint64 * 2),
                ("draws", ctypes.c_uint64), ("cut", ctypes.c_uint64),
                ("plies", ctypes.c_uint64), ("reserved", ctypes.c_int * 4)]


class RecordLoc(ctypes.Structure):
    _fields_ = [("line", ctypes.c_int), ("col", ctypes.c_int)]


def _candidates():
    """Where libmancala may be, in the order the module tries them."""
    here = os.path.dirname(os.path.abspath(__file__))
    found = [sorted(glob.glob(os.path.join(here, "libmancala.so.*.*.*")))]
    # Installed: `make install` writes _installed.py with the library it
    # installed ($(LIBDIR)); under a DESTDIR that name is not there yet, so
    # $(PREFIX)/lib seen from $(PREFIX)/lib/python3/dist-packages/mancala
    # comes next.
    try:
        from . import _installed
        found.append([_installed.LIBRARY])
        up = os.path.normpath(os.path.join(here, "..", "..", ".."))
        found.append(sorted(glob.glob(os.path.join(up,
                                                   "libmancala.so.*.*.*"))))
    except ImportError:
        pass
    env = os.environ.get("MANCALA_LIB")
    if env:
        found.append([env])
    # The build tree: python/mancala beside build/.
    tree = os.path.normpath(os.path.join(here, "..", "..", "build"))
    found.append(sorted(glob.glob(os.path.join(tree, "libmancala.so.*.*.*"))))
    lib = ctypes.util.find_library("mancala")
    if lib:
        found.append([lib])
    return [p for group in found for p in group[-1:]]


def _load():
    tried = _candidates()
    for path in tried:
        if os.path.isabs(path) and not os.path.exists(path):
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError:
            continue
    raise ImportError("mancala: libmancala not found (%s); build it with "
                      "make and set MANCALA_LIB to build/libmancala.so.X.Y.Z, "
                      "or install it (make install) where the system's "
                      "loader finds it"
                      % ("tried " + ", ".join(tried) if tried else
                         "none beside the package or in a build tree, "
                         "MANCALA_LIB unset, none on the system"))


lib, LIB_PATH = _load()

_P = ctypes.POINTER
_c = ctypes
_SIGS = {
    "mc_version": (_c.c_char_p, []),
    "mc_game_names": (_P(_c.c_char_p), []),
    "mc_game_new": (_c.c_void_p, [_c.c_char_p, _P(Error)]),
    "mc_game_free": (None, [_c.c_void_p]),
    "mc_game_set_eval": (_c.c_int, [_c.c_void_p, _c.c_char_p, _P(Error)]),
    "mc_eval_kind": (_c.c_char_p, [_c.c_void_p]),
    "mc_game_name": (_c.c_char_p, [_c.c_void_p]),
    "mc_game_title": (_c.c_char_p, [_c.c_void_p]),
    "mc_game_spec": (_c.c_char_p, [_c.c_void_p]),
    "mc_game_pits": (_c.c_int, [_c.c_void_p]),
    "mc_game_option": (_c.c_char_p, [_c.c_void_p, _c.c_char_p]),
    "mc_game_options_help": (_c.c_size_t, [_c.c_void_p, _c.c_char_p,
                                           _c.c_size_t]),
    "mc_total": (_c.c_int, [_c.c_void_p, _P(Pos)]),
    "mc_start": (None, [_c.c_void_p, _P(Pos)]),
    "mc_moves": (_c.c_int, [_c.c_void_p, _P(Pos), _P(_c.c_uint64)]),
    "mc_play": (_c.c_int, [_c.c_void_p, _P(Pos), _c.c_uint64, _c.c_void_p]),
    "mc_pos_parse": (_c.c_int, [_c.c_void_p, _c.c_char_p, _P(Pos), _P(Error)]),
    "mc_pos_format": (_c.c_size_t, [_c.c_void_p, _P(Pos), _c.c_char_p,
                                    _c.c_size_t]),
    "mc_move_parse": (_c.c_int, [_c.c_void_p, _P(Pos), _c.c_char_p,
                                 _P(_c.c_uint64), _P(Error)]),
    "mc_move_format": (_c.c_size_t, [_c.c_void_p, _P(Pos), _c.c_uint64,
                                     _c.c_char_p, _c.c_size_t]),
    "mc_result_describe": (_c.c_size_t, [_c.c_void_p, _P(Result),
                                         _c.c_char_p, _c.c_size_t]),
    "mc_end_reason_name": (_c.c_char_p, [_c.c_int]),
    "mc_session_new": (_c.c_void_p, [_c.c_void_p, _P(Pos)]),
    "mc_session_free": (None, [_c.c_void_p]),
    "mc_session_pos": (_P(Pos), [_c.c_void_p]),
    "mc_session_moves": (_c.c_int, [_c.c_void_p, _P(_c.c_uint64)]),
    "mc_session_play": (_c.c_int, [_c.c_void_p, _c.c_uint64, _c.c_void_p,
                                   _P(Error)]),
    "mc_session_result": (None, [_c.c_void_p, _P(Result)]),
    "mc_session_over": (_c.c_int, [_c.c_void_p]),
    "mc_session_ply": (_c.c_int, [_c.c_void_p]),
    "mc_session_move_at": (_c.c_uint64, [_c.c_void_p, _c.c_int]),
    "mc_session_pos_at": (_P(Pos), [_c.c_void_p, _c.c_int]),
    "mc_session_undo": (_c.c_int, [_c.c_void_p]),
    "mc_session_fresh": (_c.c_int, [_c.c_void_p]),
    "mc_player_new": (_c.c_void_p, [_c.c_void_p, _P(PlayerOpts), _P(Error)]),
    "mc_player_free": (None, [_c.c_void_p]),
    "mc_player_sync": (_c.c_int, [_c.c_void_p, _c.c_void_p, _P(Error)]),
    "mc_player_go": (_c.c_int, [_c.c_void_p, _P(Go), _P(SearchInfo)]),
    "mc_ml_num_actions": (_c.c_int, [_c.c_void_p]),
    "mc_ml_action": (_c.c_long, [_c.c_void_p, _P(Pos), _c.c_uint64]),
    "mc_ml_move": (_c.c_int, [_c.c_void_p, _P(Pos), _c.c_long,
                              _P(_c.c_uint64)]),
    "mc_ml_legal_actions": (_c.c_int, [_c.c_void_p, _P(_c.c_long),
                                       _P(_c.c_int)]),
    "mc_ml_apply": (_c.c_int, [_c.c_void_p, _c.c_long, _P(Error)]),
    "mc_ml_obs_size": (_c.c_int, [_c.c_void_p]),
    "mc_ml_observe": (None, [_c.c_void_p, _P(Pos), _c.c_void_p]),
    "mc_ml_random_playouts": (_c.c_int, [_c.c_void_p, _P(Pos), _c.c_long,
                                         _c.c_uint64, _c.c_int,
                                         _P(Playouts)]),
    "mc_egdb_preset_of": (_c.c_int, [_c.c_void_p, _P(Error)]),
    "mc_egdb_open": (_c.c_void_p, [_c.c_char_p, _c.c_int, _c.c_int,
                                   _P(Error)]),
    "mc_egdb_open_default": (_c.c_void_p, [_c.c_int, _c.c_char_p,
                                           _c.c_size_t, _P(Error)]),
    "mc_egdb_close": (None, [_c.c_void_p]),
    "mc_egdb_max_seeds": (_c.c_int, [_c.c_void_p]),
    "mc_egdb_lookup": (_c.c_int, [_c.c_void_p, _P(Pos), _c.c_int,
                                  _P(_c.c_int)]),
    "mc_solved_name": (_c.c_int, [_c.c_void_p, _c.c_char_p, _c.c_size_t,
                                  _P(Error)]),
    "mc_solved_open": (_c.c_void_p, [_c.c_void_p, _c.c_char_p, _c.c_int,
                                     _P(Error)]),
    "mc_solved_open_default": (_c.c_void_p, [_c.c_void_p, _c.c_char_p,
                                             _c.c_size_t, _P(Error)]),
    "mc_solved_close": (None, [_c.c_void_p]),
    "mc_solved_best": (_c.c_int, [_c.c_void_p, _P(Pos), _P(_c.c_uint64),
                                  _P(_c.c_int), _P(_c.c_int)]),
    "mc_record_new": (_c.c_void_p, [_c.c_char_p, _P(Pos), _P(Error)]),
    "mc_record_free": (None, [_c.c_void_p]),
    "mc_record_game": (_c.c_void_p, [_c.c_void_p]),
    "mc_record_session": (_c.c_void_p, [_c.c_void_p]),
    "mc_record_set_tag": (_c.c_int, [_c.c_void_p, _c.c_char_p, _c.c_char_p,
                                     _P(Error)]),
    "mc_record_tag": (_c.c_char_p, [_c.c_void_p, _c.c_char_p]),
    "mc_record_tag_at": (_c.c_int, [_c.c_void_p, _c.c_int,
                                    _P(_c.c_char_p), _P(_c.c_char_p)]),
    "mc_records_read": (_c.c_int, [_c.c_char_p, _c.c_size_t,
                                   _P(_P(_c.c_void_p)), _P(_c.c_int),
                                   _P(RecordLoc), _P(Error)]),
    "mc_records_free": (None, [_P(_c.c_void_p), _c.c_int]),
    "mc_records_format": (_c.c_void_p, [_P(_c.c_void_p), _c.c_int,
                                        _P(_c.c_size_t)]),
}

for _name, (_res, _args) in _SIGS.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args

libc = ctypes.CDLL(None)
libc.free.argtypes = [ctypes.c_void_p]
libc.free.restype = None
