/*
 * mancala.h - the public API of libmancala.
 *
 * Four traditional mancala games behind one game interface: a game is created
 * from a spec string ("oware", "oware:awari", "omweso:setup=all2"), positions
 * are small plain structs copied by value, moves are integers whose meaning
 * belongs to the game.  The session layer adds what depends on history
 * (repetition, ply limits), undo/redo and match scoring.
 *
 * The rules every call follows (docs/LIBRARY.md says more):
 *
 * Returns: a call that can fail returns int: 0 on success, else an MC_ERR_*
 * code (mc_strerror names it), with the mc_error it was given (may be NULL)
 * holding a sentence.  A call that makes an object returns NULL on failure.
 * Counts and sizes (mc_moves, the *_format and *_describe calls) are
 * values, never errors; the writers are snprintf-like: they return the
 * length they needed and truncate to n.
 *
 * Ownership: every mc_x_new / _load / _read has one mc_x_free; free(NULL)
 * is allowed.  Returned strings and const pointers belong to their object
 * and live until it is freed (or changed, where a call says so).  A
 * session keeps a pointer to the game it was made with: free the sessions
 * of a game before the game.  Books, records and players make their own
 * game (a record's session is the record's).  malloc'd results (mc_book_format,
 * mc_records_format) are the caller's to free().
 *
 * Threads: no global state changes after first use; separate objects may
 * be used from separate threads at once.  A game keeps caches, so one
 * game (and the sessions on it) is used by one thread at a time; books and
 * endgame tables are read-only once made and may be shared; a player is
 * used from one thread, but for mc_player_stop and mc_player_ponderhit.
 *
 * ABI: the soname is libmancala.so.MAJOR.  Within a major version calls
 * and enum values are only added, never changed or removed, and no public
 * struct changes its size: the structs a caller allocates end in reserved
 * space, which the caller zeroes (= {0} or memset) and which a later minor
 * version may give a meaning whose zero is the old behaviour.  A change
 * that breaks this bumps MAJOR; additions bump MINOR; fixes bump PATCH.
 * mc_game, mc_session, mc_player and the other typedef'd incomplete types
 * are opaque.  Nothing in the library prints, exits or aborts on bad input.
 */
#ifndef MANCALA_H
#define MANCALA_H

#include <stddef.h>
#include <stdint.h>

/*
 * MC_API marks the library's public functions.  The library is built with
 * -fvisibility=hidden and MC_BUILDING defined, so that only what these
 * headers declare is exported from libmancala.so; a program that uses the
 * library defines nothing.
 */
#ifndef MC_API
#if defined(MC_BUILDING) && (defined(__GNUC__) || defined(__clang__))
#define MC_API __attribute__((visibility("default")))
#else
#define MC_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The version of these headers; mc_version() is the library's at run time
   (they differ when a program built against one version runs with a later
   shared library of the same major version).  MC_VERSION_HEX compares as
   a number: 0xMMmmpp. */
#define MC_VERSION_MAJOR 1
#define MC_VERSION_MINOR 7
#define MC_VERSION_PATCH 0
#define MC_VERSION_STRING "1.7.0"
#define MC_VERSION_HEX                                                         \
    ((MC_VERSION_MAJOR << 16) | (MC_VERSION_MINOR << 8) | MC_VERSION_PATCH)

/* "MAJOR.MINOR.PATCH" of the library the program runs with. */
MC_API const char *mc_version(void);
/* The same as a number, compared with MC_VERSION_HEX. */
MC_API unsigned mc_version_hex(void);

/* ---- basic types -------------------------------------------------------- */

enum { MC_SOUTH = 0, MC_NORTH = 1, MC_DRAW = 2 };

#define MC_MAX_PITS 32
/* Upper bound on the legal moves of any position of any game. */
#define MC_MAX_MOVES 512
/* Longest position string, move token and option spec the library writes. */
#define MC_POS_STRLEN 192
#define MC_MOVE_STRLEN 96
#define MC_SPEC_STRLEN 256

typedef uint64_t mc_move;

/* A passed turn: not a move of any game's rules.  Only the session plays
   it (mc_session_pass_turn: time ran out in Omweso's blitz, W16); mc_play
   then just hands the turn over, and it is written "--". */
#define MC_MOVE_PASS ((mc_move)UINT64_MAX)
#define MC_PASS_TOKEN "--"

/*
 * A position: everything that decides the legal moves except history.
 * Field meaning per game is documented in docs/GAMES.md; unused fields are 0
 * so that positions compare with memcmp.
 */
typedef struct mc_pos {
    uint8_t pit[MC_MAX_PITS]; /* seeds per pit, in the game's index order */
    uint16_t cap[2];          /* captured seeds (Oware, Goré) or capturing
                                 turns (Omweso), South then North */
    uint8_t side;             /* MC_SOUTH or MC_NORTH to move */
    uint8_t first;            /* bit 0 South, bit 1 North: first move pending */
    uint8_t own;              /* Goré: bit i set = North owns pit i */
    uint8_t offer;            /* Goré: pits offered to the side to move */
    uint8_t flags;            /* game-specific state bits */
    uint8_t last;             /* game-specific facts about the last move
                                 (not part of the position string) */
    uint8_t pad[2];
} mc_pos;

/* Errors: every parser fills one of these with a sentence naming the culprit.
 */
typedef struct mc_error {
    int code; /* 0 = no error */
    char msg[256];
} mc_error;

enum {
    MC_OK = 0,
    MC_ERR_SPEC,     /* bad game name or option */
    MC_ERR_POSITION, /* malformed or impossible position string */
    MC_ERR_MOVE,     /* malformed move token */
    MC_ERR_ILLEGAL,  /* well-formed move that the rules forbid here */
    MC_ERR_OVER,     /* the game is already over */
    MC_ERR_IO,       /* file or stream error */
    MC_ERR_ARG,      /* bad argument to an API call */
    MC_ERR_NOMEM     /* out of memory (nothing changed) */
};
/* Codes keep their values across versions; new ones are added at the end. */
/* A short English phrase for an error code ("out of memory"), static and
   never NULL ("unknown error" for a code the library does not have). */
MC_API const char *mc_strerror(int err);

/* ---- trace: what a move did, for UIs that animate and explain ------------ */

enum mc_trace_kind {
    MC_TR_LIFT = 1,  /* pit: seeds lifted from it, n: how many */
    MC_TR_DROP,      /* pit: one seed dropped (n: count after the drop) */
    MC_TR_SKIP,      /* pit: skipped (the origin, on a full lap) */
    MC_TR_LAP,       /* a lap starts: pit = origin, n = seeds, aux = dir */
    MC_TR_CAPTURE,   /* pit: its n seeds captured by aux (side) */
    MC_TR_NOCAPTURE, /* pit: captures forfeited (Oware grand slam), n seeds */
    MC_TR_END,       /* pit: where the move ended */
    MC_TR_TRADE,     /* game-specific: offer/accept/refuse, pit = mask */
    MC_TR_PASS,
    MC_TR_RESOW,   /* Omweso: n captured seeds sown from pit (the origin
                      of the capturing lap), aux = dir (0 ccw, 1 cw) */
    MC_TR_OPENING, /* Omweso: three-seed opening sowing from pit */
    MC_TR_ANNUL    /* Omweso: the move from pit never ends (annulled) */
};

typedef struct mc_trace_event {
    uint8_t kind;
    uint8_t pit;
    uint8_t aux;
    uint8_t pad;
    uint32_t n;
} mc_trace_event;

typedef struct mc_trace {
    mc_trace_event *ev; /* caller's buffer */
    size_t cap;         /* its capacity */
    size_t len;         /* events written */
    size_t dropped;     /* events that did not fit */
} mc_trace;

/* ---- results ------------------------------------------------------------ */

enum mc_end_reason {
    MC_END_NONE = 0,
    MC_END_CAPTURES,   /* Oware O8a: 25 or more captured */
    MC_END_REPETITION, /* repeated position */
    MC_END_NOMOVE,     /* the player to move has no legal move */
    MC_END_STUCK,      /* Sadeqa II: every move never ends */
    MC_END_PLIES,      /* ply limit */
    MC_END_BOARD,      /* Goré G5: every pit 2 or fewer */
    MC_END_POINTS,     /* Omweso W14 */
    MC_END_ANNULLED,   /* Omweso: game annulled */
    MC_END_RESIGN,     /* session: a player resigned */
    MC_END_TIME        /* session: a flag fell */
};

typedef struct mc_result {
    int over;        /* 0: the game goes on */
    int winner;      /* MC_SOUTH, MC_NORTH or MC_DRAW */
    int reason;      /* enum mc_end_reason */
    int score2[2];   /* final scores times two (halves possible) */
    int points;      /* Omweso points of the win */
    char detail[64]; /* the details of the `over` line, e.g. "25-23":
                        a tool's words, not a player's (mc_result_describe) */
    int noglory;     /* Goré G7: the winner refused an offer */
    int reserved[4]; /* room to grow (zero) */
} mc_result;

/* The end reason's name as records, the protocol and the JSON API write it
   ("captures", "time"), or NULL for an unknown reason (MC_END_NONE: ""). */
MC_API const char *mc_end_reason_name(int reason);
/* The reason of a name mc_end_reason_name gives; -1 when unknown. */
MC_API int mc_end_reason_parse(const char *name);

/* History facts the session passes to the game's end rules. */
typedef struct mc_hist {
    int occurrences; /* times the current position occurred, this one included
                      */
    int plies;       /* plies played in this game */
    int quiet;       /* plies since the game's last "reset" event */
} mc_hist;

/* Flags returned by mc_play. */
enum {
    MC_PLAY_IRREVERSIBLE = 1, /* no earlier position can recur */
    MC_PLAY_RESET_QUIET = 2   /* restart the game's quiet-ply count */
};

/* ---- games -------------------------------------------------------------- */

typedef struct mc_game mc_game;

/* The names of the games, NULL-terminated. */
MC_API const char *const *mc_game_names(void);

/* Create a game from a spec "<name>[:k=v,k=v|preset,...]"; NULL on error. */
MC_API mc_game *mc_game_new(const char *spec, mc_error *err);
MC_API void mc_game_free(mc_game *g);
MC_API const char *mc_game_name(const mc_game *g);
/* The game's name for people, with its source ("Oware (Abapa rules)"). */
MC_API const char *mc_game_title(const mc_game *g);
/* Whether a game of g is one of a match of several (Oware O10's formats
   but single, Omweso's match to 12 points, W2). */
MC_API int mc_game_is_match(const mc_game *g);
/* Whether each player arranges its own seeds before the first move
   (Omweso W3, setup=custom): 1, with *cap (may be NULL) the most seeds a
   pit may get then (0: any); else 0. */
MC_API int mc_game_custom_setup(const mc_game *g, int *cap);
/* What the game's pieces are called, for players: "seed" or "stone"
   (plural: "seeds", "stones"). */
MC_API const char *mc_game_unit(const mc_game *g, int plural);
/* The canonical spec: name plus every option that differs from its default. */
MC_API const char *mc_game_spec(const mc_game *g);
/* The value of an option as text ("forfeit"), or NULL if no such key. */
MC_API const char *mc_game_option(const mc_game *g, const char *key);
/* A multi-line description of every option, its values and default. */
MC_API size_t mc_game_options_help(const mc_game *g, char *buf, size_t n);
MC_API int mc_game_pits(const mc_game *g);

MC_API void mc_start(const mc_game *g, mc_pos *p);
/* Legal moves by the rules of the position alone (no history), in the rule
   file's order, into out (room for MC_MAX_MOVES); returns the count (0
   when none).  Only an Omweso position could have more moves than that
   (none is known: its many-lap choices multiply them); mc_moves would
   give the first MC_MAX_MOVES, and mc_moves_all says so. */
MC_API int mc_moves(const mc_game *g, const mc_pos *p, mc_move *out);
/* The same into out with room for cap moves, *n receiving how many legal
   moves there are: 0, or MC_ERR_ARG when they are more than cap (the
   first cap written; call again with room for *n). */
MC_API int mc_moves_all(const mc_game *g, const mc_pos *p, mc_move *out,
                        int cap, int *n, mc_error *err);
/* Play a legal move in place; returns MC_PLAY_* flags.  trace may be NULL. */
MC_API int mc_play(const mc_game *g, mc_pos *p, mc_move m, mc_trace *trace);
/* End rules after a move, given history facts (NULL: a fresh game). */
MC_API void mc_status(const mc_game *g, const mc_pos *p, const mc_hist *h,
                      mc_result *r);
MC_API uint64_t mc_hash(const mc_game *g, const mc_pos *p);
/* Total seeds the game accounts for (board + stores), for invariant checks. */
MC_API int mc_total(const mc_game *g, const mc_pos *p);

MC_API int mc_pos_parse(const mc_game *g, const char *s, mc_pos *p,
                        mc_error *err);
MC_API size_t mc_pos_format(const mc_game *g, const mc_pos *p, char *buf,
                            size_t n);
/* Parse a move token and check it is legal in p; the error explains why not. */
MC_API int mc_move_parse(const mc_game *g, const mc_pos *p, const char *s,
                         mc_move *m, mc_error *err);
MC_API size_t mc_move_format(const mc_game *g, const mc_pos *p, mc_move m,
                             char *buf, size_t n);

/* Board shape for drawing, seen from South: rows top to bottom, pits left to
   right (-1 = no pit).  Front-ends draw from this and never know a rule. */
typedef struct mc_layout {
    int rows, cols;
    int8_t pit[4][8];
    int stores;             /* 1: draw cap[] as stores/captures */
    const char *store_name; /* "captured", "store" ... */
    int reserved[4];        /* room to grow (zero) */
} mc_layout;
MC_API void mc_layout_get(const mc_game *g, mc_layout *l);
/* Pit label ("A", "d") and owner of a pit in a position. */
MC_API const char *mc_pit_name(const mc_game *g, int pit);
MC_API int mc_pit_owner(const mc_game *g, const mc_pos *p, int pit);

/* Plain-words explanation of one trace event ("a gets its last seed: 3"). */
MC_API size_t mc_trace_describe(const mc_game *g, const mc_trace_event *e,
                                char *buf, size_t n);
/* A trace event kind's name, as the JSON API writes it: "lift", "drop",
   "skip", "lap", "capture", "nocapture", "end", "trade", "pass", "resow",
   "opening", "annul" (enum mc_trace_kind); NULL for any other number. */
MC_API const char *mc_trace_kind_name(int kind);

/* What a legal move of p is, before it is played: the pit it starts from,
   or the pits and price of an offer, or why passing is the move. */
enum mc_move_kind {
    MC_MOVE_IS_SOW = 0, /* a sowing (every game) */
    MC_MOVE_IS_OFFER,   /* Goré G6: pits offered to the opponent */
    MC_MOVE_IS_ACCEPT,  /* Goré G6: the answer to an offer */
    MC_MOVE_IS_REFUSE,
    MC_MOVE_IS_PASS /* Goré G2 (no stones), or the session's
                       MC_MOVE_PASS (time ran out, W16) */
};
typedef struct mc_move_facts {
    int kind;      /* enum mc_move_kind */
    int pit;       /* a sowing: the pit it starts from; else -1 */
    uint32_t pits; /* an offer or its acceptance: bit i = pit i offered */
    int price;     /* an offer or its acceptance: captured seeds the
                      answering side pays if it accepts; else 0 */
    char why[96];  /* a pass: why passing is the move, in words */
    int reserved[4];
} mc_move_facts;
/* Fill out for move m of p (m legal in p, or MC_MOVE_PASS); 0, or
   MC_ERR_ARG when m is not a legal move of p. */
MC_API int mc_move_facts_get(const mc_game *g, const mc_pos *p, mc_move m,
                             mc_move_facts *out);
/* The whole move in words for players, the same in every front-end:
   "South plays C: lifts 4 seeds from C; ...; the move ends in a." from
   the trace t of m played from before (mc_play's; NULL: the move alone,
   "South plays C."), an offer, answer or pass told without its token
   ("North makes an offer.", "South passes: ...").  Returns the length it
   needed, as snprintf (buf always NUL-terminated when n > 0; buf may be
   NULL when n is 0, to ask for the length). */
MC_API size_t mc_move_explain(const mc_game *g, const mc_pos *before, mc_move m,
                              const mc_trace *t, char *buf, size_t n);
/* What sets move m apart from the other moves of its pit, in words for a
   player choosing among them ("clockwise at the first reverse choice,
   then counter-clockwise (W10)"; Omweso's directions and three-seed
   opening sowing); for a game with one move a pit, the move's token.
   Returns the length it needed, as snprintf. */
MC_API size_t mc_move_choice(const mc_game *g, const mc_pos *p, mc_move m,
                             char *buf, size_t n);
/* The offer of the pits of mask (bit i: pit i; Goré G6): 0 with *m the
   move when it is legal in p, else an MC_ERR_* code with err saying why in
   words ("North cannot pay: ...", "there are no offers in this game"). */
MC_API int mc_offer_move(const mc_game *g, const mc_pos *p, uint32_t pits,
                         mc_move *m, mc_error *err);
/* The pit the sowing of m starts from; -1 when m is not a sowing. */
MC_API int mc_move_pit(const mc_game *g, const mc_pos *p, mc_move m);

/* A sentence for players on how a game ended ("South wins 27 to 21: South
   has captured more than half of the seeds."), never an internal code; ""
   while the game goes on.  Returns the length it needed, as snprintf. */
MC_API size_t mc_result_describe(const mc_game *g, const mc_result *r,
                                 char *buf, size_t n);

/* The rules of a game (Markdown-ish), in the thread's language, or NULL. */
MC_API const char *mc_rules_text(const char *name);

/* ---- languages (docs/TRANSLATING.md) ----------------------------------- */

/* Every text for players (explanations, results, errors in words, the
   rules) comes in the calling thread's language, chosen per thread as
   POSIX's uselocale() does: two threads may speak two languages at once.
   A thread starts in English.  Nothing a script reads changes with it:
   moves, positions, records, the engine protocol, JSON keys and codes.
   Catalogs are GNU gettext's .mo files; the library has its own built in,
   and a language falls back to English one message at a time.  The
   pseudo-language MC_LANG_PSEUDO shows every translated text accented and
   lengthened, for checking that nothing is left untranslated. */
#define MC_LANG_PSEUDO "en-XA"

/* Sets the calling thread's language: a tag ("fr", "fr-CI", "fr_FR.UTF-8"),
   a LANGUAGE-style list ("sw:fr") or an Accept-Language value ("fr-CI,
   fr;q=0.9, en;q=0.5"); NULL, "", "C" or "en" for English.  Returns 1 when
   a catalog serves it (or it is MC_LANG_PSEUDO), 0 when English is used. */
MC_API int mc_lang_use(const char *lang);
/* The first tag the thread asked for ("en" when none). */
MC_API const char *mc_lang_get(void);
/* The text of msgid in the thread's language (msgid itself when no
   catalog has it); valid for the process's life. */
MC_API const char *mc_tr(const char *msgid)
#if defined(__GNUC__)
    __attribute__((format_arg(1)))
#endif
    ;
/* The same with a context (a .po's msgctxt). */
MC_API const char *mc_trc(const char *context, const char *msgid)
#if defined(__GNUC__)
    __attribute__((format_arg(2)))
#endif
    ;
/* The plural form for n (the catalog's Plural-Forms rule; English: msgid
   for 1, plural otherwise). */
MC_API const char *mc_ntr(const char *msgid, const char *plural,
                          unsigned long n)
#if defined(__GNUC__)
    __attribute__((format_arg(1))) __attribute__((format_arg(2)))
#endif
    ;
/* Adds a catalog (a .mo file's bytes, copied) for lang: 0, or MC_ERR_ARG
   with err saying why when it is not a well-formed catalog. */
MC_API int mc_lang_add(const char *lang, const void *mo, size_t len,
                       mc_error *err);
/* The tags that have a catalog: their count; up to max written to tags. */
MC_API int mc_lang_list(const char **tags, int max);
/* The best tag served for an Accept-Language or LANGUAGE-style list, into
   buf ("en" when none is): returns buf. */
MC_API const char *mc_lang_negotiate(const char *accept, char *buf, size_t n);
/* What the environment asks, as GNU gettext reads it (LANGUAGE, else the
   first set of LC_ALL, LC_MESSAGES, LANG; "" for C/POSIX), into buf; no
   system locale needs to exist.  Returns buf. */
MC_API const char *mc_lang_from_env(char *buf, size_t n);
/* The pseudo-language's text of in (what mc_tr gives under
   MC_LANG_PSEUDO); returns the length it needed, as snprintf. */
MC_API size_t mc_lang_pseudo(const char *in, char *out, size_t n);

/* ---- sessions: one game with its history -------------------------------- */

typedef struct mc_session mc_session;

/* A session of game g (which must outlive it) from start (NULL: the
   game's start); NULL when out of memory. */
MC_API mc_session *mc_session_new(const mc_game *g, const mc_pos *start);
MC_API void mc_session_free(mc_session *s);
MC_API const mc_game *mc_session_game(const mc_session *s);
MC_API const mc_pos *mc_session_pos(const mc_session *s);
/* Legal moves now: none when the game is over. */
MC_API int mc_session_moves(const mc_session *s, mc_move *out);
/* Play a move after checking it is legal and the game goes on. */
MC_API int mc_session_play(mc_session *s, mc_move m, mc_trace *trace,
                           mc_error *err);
/* Parse, check and play a move token; errors name the move. */
MC_API int mc_session_play_str(mc_session *s, const char *tok, mc_trace *trace,
                               mc_error *err);
MC_API void mc_session_result(const mc_session *s, mc_result *r);
MC_API int mc_session_over(const mc_session *s);
MC_API int mc_session_ply(const mc_session *s);
/* The n-th move played (0-based) and the position before it. */
MC_API mc_move mc_session_move_at(const mc_session *s, int n);
MC_API const mc_pos *mc_session_pos_at(const mc_session *s, int n);
/* Take back (play again) a move or a forfeit: 0 when done, MC_ERR_ARG
   when there is nothing to take back (play again), MC_ERR_ILLEGAL for
   undo under a control with no take-backs (like every call that can fail:
   0 or an MC_ERR_* code). */
MC_API int mc_session_undo(mc_session *s);
MC_API int mc_session_redo(mc_session *s);
/* Hand the turn to the other player without a move (Omweso blitz, W16:
   the time ran out and blitz_timeout=pass).  The position stays as it is
   but for the side to move; undo takes it back like a move.  Returns 0, or
   MC_ERR_OVER when the game is over. */
MC_API int mc_session_pass_turn(mc_session *s, mc_error *err);
/* End the game by resignation or flag fall of `side`. */
MC_API void mc_session_forfeit(mc_session *s, int side, int reason);
/* The history facts for the current position (for search and tools). */
MC_API void mc_session_hist(const mc_session *s, mc_hist *h);
/* 1 when no position has occurred since the last irreversible move (or the
   start), so that history cannot matter: the current position's value is
   its fresh value (an endgame table's exact answer). */
MC_API int mc_session_fresh(const mc_session *s);

/* ---- time controls and the session's clocks (docs/CLOCKS.md) ----------- */

/*
 * A time control, written "none", "move:S" (S seconds a move, nothing
 * carried over), "game:S+I" (S seconds each for the game, I added after
 * each move; "game:S" is "game:S+0"), or the name of one of the game's own
 * modes (mc_time_mode: Omweso's W16 "classic", "contract", "blitz",
 * "blitz:loss").  Seconds have at most 3 decimals.
 */
enum mc_time_kind { MC_TIME_NONE = 0, MC_TIME_MOVE, MC_TIME_GAME };
/* What a flag fall does: the game is lost on time, or (Omweso blitz) the
   turn passes to the opponent. */
enum { MC_FLAG_LOSS = 0, MC_FLAG_PASS = 1 };

typedef struct mc_time_control {
    int kind;         /* enum mc_time_kind */
    double seconds;   /* MOVE: a move's time; GAME: each side's time */
    double increment; /* GAME: seconds added after each move */
    int on_flag;      /* MC_FLAG_LOSS or MC_FLAG_PASS */
    int no_undo;      /* take-backs refused (Omweso's contract) */
    char mode[32];    /* the game's mode name, or "" */
    int reserved[4];
} mc_time_control;

/* Parse a time control for game g (NULL: the common forms only); an error
   names the text and lists what the game accepts. */
MC_API int mc_time_parse(const mc_game *g, const char *text,
                         mc_time_control *tc, mc_error *err);
/* The text form (the mode's name for a mode), which mc_time_parse reads. */
MC_API size_t mc_time_format(const mc_time_control *tc, char *buf, size_t n);
/* In words for players ("5:00 each for the game, plus 5 s a move; running
   out of time loses the game"). */
MC_API size_t mc_time_describe(const mc_game *g, const mc_time_control *tc,
                               char *buf, size_t n);
/* The i-th of the game's own modes and its help (help may be NULL);
   NULL past the last. */
MC_API const char *mc_time_mode(const mc_game *g, int i, const char **help);

/*
 * The session keeps both clocks from the times its caller passes (seconds
 * on one clock of the caller's: wall-clock time for the server, a monotonic
 * clock for a terminal; the library never reads one).  The clock of the
 * side to move runs from the last move (or from mc_session_set_time).
 * Undo and redo give no time back and add no increment: the side whose
 * clock ran is charged up to the undo, and the clock of the side to move
 * afterwards starts then (with a move's whole time under "move:S").  The
 * untimed calls (mc_session_play, _undo, _redo, _pass_turn) leave the
 * clocks as they are; a timed front-end uses the _at calls.
 */
/* Set the control with full clocks, the turn of the side to move beginning
   at now (now < 0: the clocks wait for the first timed call, which starts
   them).  0, or MC_ERR_ARG for a bad control. */
MC_API int mc_session_set_time(mc_session *s, const mc_time_control *tc,
                               double now);
MC_API void mc_session_time(const mc_session *s, mc_time_control *tc);
/* Each side's time left at now (-1: no clock) into left; returns the side
   whose clock runs, or -1 (untimed, waiting, or the game is over). */
MC_API int mc_session_clock(const mc_session *s, double now, double left[2]);
/* Apply a flag fall that is due at now: the side to move loses on time
   (mc_session_forfeit, MC_END_TIME), or under MC_FLAG_PASS the turn passes
   (as often as the time allows, each pass at the moment its flag fell).
   Returns 1 when something happened, else 0. */
MC_API int mc_session_check_time(mc_session *s, double now);
/* Play m at time now: a flag fall due first ends the game (MC_ERR_OVER,
   "South's time ran out") or passes the turn (MC_ERR_ILLEGAL: the move is
   not played); else the mover's time is charged, its increment added. */
MC_API int mc_session_play_at(mc_session *s, mc_move m, double now,
                              mc_trace *trace, mc_error *err);
/* Undo and redo at time now: 0 done, or the code with err filled:
   MC_ERR_ARG nothing to undo (redo), MC_ERR_ILLEGAL take-backs refused
   (no_undo), MC_ERR_OVER a loss on time (the time is spent). */
MC_API int mc_session_undo_at(mc_session *s, double now, mc_error *err);
MC_API int mc_session_redo_at(mc_session *s, double now, mc_error *err);
/* The clocks as they stand, for keeping them elsewhere: each side's time
   left when the current turn began, and when it began (< 0: waiting);
   mc_session_clock_restore puts them back (after reading a record). */
MC_API void mc_session_clock_state(const mc_session *s, double bank[2],
                                   double *since);
MC_API int mc_session_clock_restore(mc_session *s, const double bank[2],
                                    double since);

/* ---- matches: series of games with their scoring ------------------------ */

typedef struct mc_match {
    int format;  /* game-specific format code */
    int wins[2]; /* games won (Oware) or points (Omweso) */
    int draws;
    int games;       /* games completed (annulled ones not counted) */
    int annulled;    /* games annulled (and replayed) */
    int streak_side; /* Oware yoruba: side on a streak, -1 none */
    int streak;
    int next_first;  /* who starts the next game */
    int winner;      /* -1 while undecided, else MC_SOUTH/MC_NORTH */
    int by_lot;      /* the starter of game 1 is drawn by lot (Omweso W2) */
    int reserved[4]; /* room to grow (zero) */
} mc_match;

MC_API void mc_match_init(const mc_game *g, mc_match *m);
/* The start position of the match's next game: its starter, and the
   first-turn state the game's options give games after the first. */
MC_API void mc_match_start(const mc_game *g, const mc_match *m, mc_pos *p);
/* Record a finished game (South/North as seated in that game). */
MC_API void mc_match_record(const mc_game *g, mc_match *m, const mc_result *r);
/* A one-line score ("South 2, North 1 (first to 3)"). */
MC_API size_t mc_match_describe(const mc_game *g, const mc_match *m, char *buf,
                                size_t n);

/* ---- perft and random play --------------------------------------------- */

/* Leaves at exactly `depth` plies, with history-aware ends. */
MC_API uint64_t mc_perft(const mc_game *g, const mc_pos *p, int depth);

/* A small deterministic PRNG (xoshiro256**). */
typedef struct mc_rng {
    uint64_t s[4];
} mc_rng;
MC_API void mc_rng_seed(mc_rng *r, uint64_t seed);
MC_API uint64_t mc_rng_next(mc_rng *r);
/* Uniform in [0, n). */
MC_API uint32_t mc_rng_below(mc_rng *r, uint32_t n);

/* Play uniformly random legal moves from p until the game ends (or after
   max_plies plies when max_plies > 0); returns the plies played and the
   result in r (r->over is 0 if the game was cut off). */
MC_API int mc_random_game(const mc_game *g, const mc_pos *p, mc_rng *rng,
                          int max_plies, mc_result *r);

/* ---- the computer player ---------------------------------------------- */

/* Scores are in hundredths of a seed from the mover's view; a proven win is
   MC_SCORE_WIN minus the plies to it (a loss the negative). */
#define MC_SCORE_WIN 1000000
#define MC_SCORE_PROVEN (MC_SCORE_WIN - 10000)

struct mc_search_info;

/*
 * The knobs of the alpha-beta search and of the hand-set evaluations, for
 * tuning tools (bench/tune_*.c): a front-end leaves them alone (a NULL
 * tuning pointer in mc_search_limits or mc_player_opts means the defaults
 * mc_search_tuning_init sets, chosen by self-play: docs/SEARCH.md).
 */
typedef struct mc_search_tuning {
    /* Late-move reductions of quiet moves (no static gain, not a killer):
       0 none, 1 one ply from the 4th move, 2 (default) one ply from the
       3rd and two from the 4th at depth 6+. */
    int lmr;
    /* Nonzero: the plain store difference instead of the game's
       evaluation, to measure what the evaluation is worth. */
    int plain_eval;
    /* Bits: 1 reverse futility pruning, 2 internal iterative reduction,
       4 a third ply of late-move reduction at depth 10+, 8 a quiescence
       search of the moves that gain material; default 9. */
    int prune;
    /* Reverse futility: the margin a ply (hundredths of a seed, default
       150) and the deepest depth it applies at (default 3). */
    int rfp_margin, rfp_depth;
    /* The weights of the game's hand-set evaluation (used when the game
       has no learned one, or with mc_eval_source("hand")), all zero for the
       game's own.  Oware: store difference, seeds on one's side, the
       opponent's houses of 1-2 seeds (its own: 100, 15, 10). */
    int hand_eval[4];
    int reserved[8]; /* zero */
} mc_search_tuning;

/* The defaults, the search's behaviour when no tuning is given. */
MC_API void mc_search_tuning_init(mc_search_tuning *t);

typedef struct mc_search_limits {
    int depth;      /* deepest iteration; 0 = up to 64 plies */
    double seconds; /* time budget; 0 = none */
    uint64_t nodes; /* node budget; 0 = none (deterministic when set) */
    int level;      /* 1 (beginner) .. 10 (full strength); 0 = 10 */
    uint64_t seed;  /* randomness of the lower levels */
    /* Optional: set *stop to nonzero (from another thread) to end the search
       with the best move so far. */
    volatile int *stop;
    /* Optional: called after each completed iteration. */
    void (*on_info)(const struct mc_search_info *info, void *ctx);
    void *info_ctx;
    int hash_mb; /* transposition table size in MiB; 0 = 16 */
    /* Nonzero: exact search for proofs (mc_solve): no reductions, and the
       table is used only at positions whose history cannot matter (right
       after an irreversible move), so a proven score is a proof. */
    int exact;
    /* The algorithm: MC_ALGO_AUTO (the game's stronger one), MC_ALGO_AB
       (alpha-beta) or MC_ALGO_MCTS (Monte Carlo tree search; nodes counts
       playouts). */
    int algo;
    /* Optional oracle (an endgame database): asked at every node below the
       root whose game goes on; returns 1 with *score (from the mover's
       view, in the search's units) when it knows the exact result, 0 when
       it knows nothing, -1 when its answer at p depends on the line's
       history: the search then neither stores nor cuts on transposition
       entries at p.  fresh: no position has occurred since the last
       irreversible move. */
    int (*oracle)(void *ctx, const mc_pos *p, int fresh, int ply, int *score);
    void *oracle_ctx;
    /* Optional: the search's knobs (NULL: the defaults); copied. */
    const mc_search_tuning *tuning;
    int reserved[8]; /* zero */
} mc_search_limits;

enum { MC_ALGO_AUTO = 0, MC_ALGO_AB = 1, MC_ALGO_MCTS = 2 };

typedef struct mc_search_info {
    mc_move best;
    int score; /* of the best move, from the mover's view */
    int depth; /* deepest completed iteration */
    uint64_t nodes;
    double seconds;
    int pvlen;
    mc_move pv[64]; /* principal variation from the root */
    int hashfull;   /* permille of the table written by this search */
    int threads;    /* threads that searched */
    int book;       /* 1: the move came from the opening book (no search:
                       score and depth are the book's, nodes 0, pv the
                       book's line) */
    /* Since 1.2: 1 when the move came from a solved game's tables
       (mancala_egdb.h, "solved games"; no search: nodes 0, pv perfect
       play's line), with plies the plies perfect play takes to settle
       the position (0 for a draw).  The score is then a proven win or
       loss in those plies (MC_SCORE_WIN - plies) for a game won by
       survival, or the endgame tables' score of the final margin
       (mc_egdb_score_margin) for a game won on seeds; value is the
       position's value (mc_solved_probe's: the final margin, or 1, 0,
       -1), mc_solved_describe's words. */
    int solved;
    int plies;
    int value;
    int reserved[5]; /* room to grow (zero) */
} mc_search_info;

/* Choose a move for the side to move in the session's current position
   (history included), with a player made for this one search (its table
   is allocated and freed here: a front-end that plays more than one move
   keeps an mc_player instead).  Returns 0, or MC_ERR_OVER if the game is
   over. */
MC_API int mc_search(const mc_session *s, const mc_search_limits *lim,
                     mc_search_info *out);

/* ---- evaluation -----------------------------------------------------------
 */

/*
 * The static evaluation the search uses, in hundredths of a seed from the
 * view of the side to move.  Where a game has learned weights (data/eval,
 * docs/SEARCH.md) it is a linear model over the game's features: the sum of
 * the weights of the active features times their values.  mc_eval_source
 * can choose the hand-set evaluation instead, or weights read from files
 * (the program's MANCALA_EVAL=hand and MANCALA_EVAL_DIR=DIR).
 */
typedef struct mc_feature {
    uint16_t index; /* below mc_eval_nfeatures */
    int16_t value;
} mc_feature;
#define MC_MAX_FEATURES 128

MC_API int mc_eval(const mc_game *g, const mc_pos *p);
/* Where every game's evaluation weights come from, for the whole process:
   NULL or "" the built-in ones, "hand" none (the hand-set evaluations),
   else a directory whose <game>.txt replace the built-in weights (a game
   without a file there: its hand-set evaluation).  Called before the
   first game is made (later, only the source in use is accepted; else
   MC_ERR_ARG).  Each game's file is read at once: one that does not parse
   is the error returned ("oware evaluation: ..."), and that game uses its
   hand-set evaluation. */
MC_API int mc_eval_source(const char *src, mc_error *err);
/* The evaluation of one game, whatever the process's source: src NULL or
   "" the process's (mc_eval_source), "hand" the hand-set one, a directory
   its <game>.txt, else a weights file (docs/SEARCH.md, "Learned
   evaluations").  The game owns what it loads and frees it with
   mc_game_free.  A player made from g (mc_player_new) takes the
   evaluation g has then and keeps it.  0; MC_ERR_IO a file that cannot be read,
   MC_ERR_ARG one that does not parse or a game without learned features,
   MC_ERR_NOMEM; on an error g keeps the evaluation it had.  Since 1.1. */
MC_API int mc_game_set_eval(mc_game *g, const char *src, mc_error *err);
/* "learned" or "hand": which evaluation g uses. */
MC_API const char *mc_eval_kind(const mc_game *g);
/* The features of the game's learned evaluation: how many there are (0
   when it has none), the active ones of p (returns how many, at most
   MC_MAX_FEATURES), and what feature i is (a short name). */
MC_API int mc_eval_nfeatures(const mc_game *g);
MC_API int mc_eval_features(const mc_game *g, const mc_pos *p, mc_feature *f);
MC_API size_t mc_eval_feature_name(const mc_game *g, int i, char *buf,
                                   size_t n);

/* ---- the player: a computer opponent that keeps its mind --------------- */

/*
 * A player is made once per game or engine and asked for a move again and
 * again.  It owns its copy of the game and of the history, its
 * transposition table (allocated when the player is made or its size
 * changes, kept between moves, cleared by mc_player_newgame), its search
 * threads and their buffers, its clock, and the Oware endgame tables it
 * probes.  Every front-end (line play, the full screen, the web server,
 * the engine protocol, selfplay and match, analyze) thinks through one.
 *
 * Threads: a player is used from one thread at a time, except that
 * mc_player_stop and mc_player_ponderhit may be called from any thread
 * while mc_player_go runs.  Games (mc_game) and sessions are not safe to
 * share between threads that use them at once (a game keeps caches);
 * the player never touches the caller's game or session after
 * mc_player_new and mc_player_sync return.  Endgame tables (mc_egdb) are
 * read-only once open and may be shared.
 */
typedef struct mc_player mc_player;

/* The most search threads a player runs. */
#define MC_MAX_THREADS 64

typedef struct mc_player_opts {
    int level;     /* 1 (beginner) .. 10 (full strength); 0 = 10 */
    int threads;   /* search threads, 1..MC_MAX_THREADS; 0 = 1 */
    int hash_mb;   /* transposition table in MiB; 0 = 16 */
    int algo;      /* MC_ALGO_* */
    uint64_t seed; /* randomness of the lower levels */
    /* Endgame tables (Oware) or a solved game's tables (Goré with
       trades=off, Sadeqa II: mc_solved_open): NULL = the default places
       (mancala_egdb.h, mc_egdb_open_default, mc_solved_open_default),
       "none" = no tables, else a directory.  A solved game's tables
       decide the moves at full strength (level 0 or 10): perfect play. */
    const char *tables;
    /* The opening book (docs/BOOK.md): NULL = the built-in book of the
       game when it has one (Oware with its default options), "none" = no
       book, else a book file.  Used at full strength only (level 0 or
       10), never by `infinite` searches; a position not in the book, or
       whose book moves are not legal there, is searched. */
    const char *book;
    /* 0: always the best book move; N > 0: a random one among the book
       moves within N hundredths of a seed of the best (random by `seed`,
       or by the system's random source when seed is 0). */
    int book_variety;
    /* Optional: the search's knobs (NULL: the defaults), copied by
       mc_player_new and mc_player_set_opts. */
    const mc_search_tuning *tuning;
    int reserved[5]; /* zero */
} mc_player_opts;

/* A player for game g (copied: g may be freed after this call); NULL with
   a message when out of memory, or when `tables` names a directory whose
   tables cannot be opened (the default places are only used when they
   hold tables: none is not an error). */
MC_API mc_player *mc_player_new(const mc_game *g, const mc_player_opts *o,
                                mc_error *err);
MC_API void mc_player_free(mc_player *pl);
/* Change the options between searches: the table is reallocated (and
   cleared) only when hash_mb changes, the tables reopened only when
   `tables` changes, the book reread only when `book` changes.  0, or an
   error (the old settings then stay). */
MC_API int mc_player_set_opts(mc_player *pl, const mc_player_opts *o,
                              mc_error *err);
/* A new game: forget the table and what the search learnt. */
MC_API void mc_player_newgame(mc_player *pl);
/* Think about this game from now on: the player copies the session's
   start and moves (its game must have the player's spec). */
MC_API int mc_player_sync(mc_player *pl, const mc_session *s, mc_error *err);
/* The player's copy of the game it thinks about. */
MC_API const mc_session *mc_player_session(const mc_player *pl);
/* The directory of the endgame tables in use, or NULL. */
MC_API const char *mc_player_tables(const mc_player *pl);
struct mc_egdb;
/* The endgame tables in use, or NULL (owned by the player). */
MC_API const struct mc_egdb *mc_player_egdb(const mc_player *pl);
struct mc_solved;
/* A solved game's tables in use, or NULL (owned by the player). */
MC_API const struct mc_solved *mc_player_solved(const mc_player *pl);
struct mc_book;
/* The opening book in use for the player's game, or NULL (none asked for,
   none built in for this game, or a book file of another game). */
MC_API const struct mc_book *mc_player_book(const mc_player *pl);

/* What a search may spend.  A zeroed struct means "one second". */
typedef struct mc_go {
    int depth;       /* deepest iteration; 0 = no limit */
    uint64_t nodes;  /* node budget; 0 = none (with one thread and
                        nothing else: deterministic) */
    double movetime; /* seconds for this move, used in full; 0 = none */
    double clock[2]; /* remaining time of South and North, seconds;
                        0 = no clock */
    double inc[2];   /* their increments per move, seconds */
    int movestogo;   /* moves to the next time control; 0 = unknown */
    int infinite;    /* search until mc_player_stop */
    int ponder;      /* think on the opponent's time: as infinite until
                        mc_player_ponderhit, then the limits above count
                        from the ponderhit */
    double start;    /* mc_clock() when the move was asked for: time
                        spent before the search counts; 0 = now */
    /* Optional: called after each completed iteration (from the thread
       that called mc_player_go). */
    void (*on_info)(const struct mc_search_info *info, void *ctx);
    void *info_ctx;
    /* Optional: a flag another thread sets (with an atomic store, e.g.
       __atomic_store_n) to end the search; unlike mc_player_stop it
       cannot be missed by a search that has not begun yet. */
    int *stop;
    int reserved[8]; /* zero */
} mc_go;

/* Choose a move in the position of the last mc_player_sync.  Returns 0,
   MC_ERR_OVER when the game is over, MC_ERR_NOMEM when out of memory. */
MC_API int mc_player_go(mc_player *pl, const mc_go *go, mc_search_info *out);
/* End the running search soon; it returns its best move so far.  A call
   while no search runs has no effect (nor on the next search: a caller
   that may stop a search before it has begun passes mc_go.stop). */
MC_API void mc_player_stop(mc_player *pl);
/* The opponent played the move pondered on: the clock starts now. */
MC_API void mc_player_ponderhit(mc_player *pl);
/* Seconds on a monotonic clock (for mc_go.start). */
MC_API double mc_clock(void);
/* The cores online, 1..MC_MAX_THREADS: the threads of a player that uses
   the whole machine. */
MC_API int mc_cores(void);

/* ---- values for players, and the review of a whole game (1.4) --------- */

/* The chance, 0..1, that the side to move wins, from a search's score
   (hundredths of a seed from its view; MC_SCORE_WIN - plies for a proven
   win): 1 / (1 + exp(-score / K)) with the game's own K, fitted on
   self-play results; 1 or 0 for a proven win or loss. */
MC_API double mc_win_chance(const mc_game *g, int score);
/* A value in words for players, from South's view of it: score is from
   the view of side (MC_SOUTH or MC_NORTH).  "South ahead by 2.5 seeds",
   "level", "North wins by force in 7 plies", or for games won by
   survival (Omweso, Sadeqa II), where a seed count means little, a chance
   to win: "South ahead: 73 % to win".  As snprintf. */
MC_API size_t mc_score_describe(const mc_game *g, int side, int score,
                                char *buf, size_t n);

/* How much a move gave away, from the drop in its player's chance to win
   (docs/WASM.md, "Whole-game analysis"): at least 0.10 an inaccuracy,
   0.20 a mistake, 0.30 a blunder. */
enum mc_verdict {
    MC_VERDICT_NONE = 0,
    MC_VERDICT_INACCURACY,
    MC_VERDICT_MISTAKE,
    MC_VERDICT_BLUNDER
};
/* "inaccuracy", "mistake", "blunder", or "" for none. */
MC_API const char *mc_verdict_name(int verdict);

/* One move of a reviewed game: the one played from position k. */
typedef struct mc_review {
    int side; /* who played it */
    mc_move played;
    mc_move best;  /* the engine's move in position k */
    int score;     /* position k's value for its side to move */
    double before; /* the mover's chance to win before the move */
    double after;  /* ... after it (position k+1's value, or the result) */
    int verdict;   /* enum mc_verdict */
    int reserved[4];
} mc_review;

/* Fill out[k] for the session's moves k = 0 .. ply-1 from the values of
   its positions: score[k] the value of position k for its side to move
   (k = 0 .. ply; a finished game's last position is valued by its result
   and score[ply] is then not read) and best[k] the engine's move there.
   Returns the number of moves (mc_session_ply). */
MC_API int mc_review_fill(const mc_session *s, const int *score,
                          const mc_move *best, mc_review *out);
/* Review the session's game: search each of its positions with pl within
   go (a fresh copy of the history up to each, so repetitions count as in
   the game), then mc_review_fill.  progress(done, total, ctx), if given,
   after each position.  out has room for mc_session_ply(s) moves; 0, or
   MC_ERR_NOMEM. */
MC_API int mc_review_game(mc_player *pl, const mc_session *s, const mc_go *go,
                          mc_review *out,
                          void (*progress)(int done, int total, void *ctx),
                          void *ctx);

/* ---- opening books (docs/BOOK.md) ------------------------------------ */

/*
 * A book maps positions of one game (its spec) to moves with the scores
 * a deep search backed up through a tree of positions.  The text format is
 * in docs/BOOK.md: one line a position, "POSITION | MOVE SCORE DEPTH | ...".
 * A book is read-only once made and may then be shared between threads;
 * mc_book_put and the directives change it.
 */
typedef struct mc_book mc_book;

typedef struct mc_book_move {
    mc_move move;
    int score; /* after this move, from the mover's view, in hundredths of
                  a seed (MC_SCORE_WIN - plies for a proven win) */
    int depth; /* plies of look-ahead behind the score, this move's
                  included */
} mc_book_move;

/* An empty book for game g's spec; NULL when out of memory. */
MC_API mc_book *mc_book_new(const mc_game *g);
/* A book from its text (len bytes); name (a file name) begins the error
   messages, "NAME:LINE: ...".  NULL with err filled on any bad line. */
MC_API mc_book *mc_book_read(const char *text, size_t len, const char *name,
                             mc_error *err);
/* A book file; NULL with err filled (naming the file and line). */
MC_API mc_book *mc_book_load(const char *path, mc_error *err);
/* The book built into the library for exactly g's spec (Oware with its
   default options), or NULL.  Shared and never freed. */
MC_API const mc_book *mc_book_builtin(const mc_game *g);
MC_API void mc_book_free(mc_book *b);
/* The game spec of the book, and its count of positions. */
MC_API const char *mc_book_spec(const mc_book *b);
MC_API int mc_book_size(const mc_book *b);
/* A directive's value ("leaf": "depth 20"; "width", "searches",
   "seconds"), or NULL when the book has none. */
MC_API const char *mc_book_info(const mc_book *b, const char *key);
MC_API int mc_book_set_info(mc_book *b, const char *key, const char *value,
                            mc_error *err);
/* The book's moves at p (game g must have the book's spec), best first,
   into out (room for MC_MAX_MOVES); the count, 0 when p is not in the
   book.  The moves are legal in p by its rules; history is the caller's
   to check. */
MC_API int mc_book_moves(const mc_book *b, const mc_game *g, const mc_pos *p,
                         mc_book_move *out);
/* The i-th position (0 <= i < size) and its moves, as mc_book_moves. */
MC_API int mc_book_at(const mc_book *b, int i, mc_pos *p, mc_book_move *out);
/* Add position p with n moves, or replace its moves; each move must be
   legal in p, once.  0 or an error. */
MC_API int mc_book_put(mc_book *b, const mc_pos *p, const mc_book_move *m,
                       int n, mc_error *err);
/* The book's text: comment (may be NULL; every line of it is written as
   a "# " line at the top), the directives, the positions in the order of
   their strings.  malloc'd; NULL when out of memory. */
MC_API char *mc_book_format(const mc_book *b, const char *comment, size_t *len);
/* Write the text to path atomically (a temporary file renamed). */
MC_API int mc_book_save(const mc_book *b, const char *path, const char *comment,
                        mc_error *err);

/* Prove the value of the session's position by exact search, deepening up
   to max_depth plies or `seconds`.  proven: 1 if the result is a proof;
   winner: the side that wins with perfect play (MC_DRAW: not proven);
   plies: the length of the longest forced line; wins[]: every move that
   wins for the side to move (when it is the winner). */
typedef struct mc_solve_info {
    int proven, winner, plies, depth;
    int nwins;
    mc_move wins[MC_MAX_MOVES];
    uint64_t nodes;
    double seconds;
    int reserved[4]; /* room to grow (zero) */
} mc_solve_info;
MC_API int mc_solve(const mc_session *s, int max_depth, double seconds,
                    mc_solve_info *out);

/* ---- automatic games between two computer players --------------------- */

typedef struct mc_selfplay_player {
    mc_search_limits limits; /* level, depth, nodes or time */
    int random;              /* nonzero: uniform random moves */
    /* Called (when set) before each of this player's searches, with ctx
       (players that differ in search knobs say so in limits.tuning). */
    void (*prepare)(void *ctx);
    void *ctx;
    int reserved[4]; /* zero */
} mc_selfplay_player;

typedef struct mc_selfplay_score {
    int games, wins, draws, losses; /* from player A's view */
    double score;                   /* (wins + draws / 2) / games */
    double elo, elo_low, elo_high;  /* A minus B, with a 95 % interval;
                                       a score of 0 (1) gives elo and
                                       elo_low -INFINITY (elo, elo_high
                                       +INFINITY), the other end a
                                       one-sided 95 % bound; games all
                                       alike (all drawn) are bounded by
                                       the rule of three, not [0, 0] */
    int reserved[4];                /* room to grow (zero) */
} mc_selfplay_score;

/* Play `pairs` pairs of games of A against B: each pair starts with the same
   `opening_plies` random plies, A plays South in one game and North in the
   other.  Deterministic for a fixed seed when both players use depth or
   node budgets. */
MC_API void mc_selfplay(const mc_game *g, const mc_selfplay_player *a,
                        const mc_selfplay_player *b, int pairs,
                        int opening_plies, uint64_t seed,
                        mc_selfplay_score *out);
/* Fill games, score and the Elo fields from wins, draws and losses. */
MC_API void mc_score_elo(mc_selfplay_score *s);

#ifdef __cplusplus
}
#endif
#endif
