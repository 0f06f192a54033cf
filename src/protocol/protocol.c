/*
 * protocol.c - the engine protocol (docs/PROTOCOL.md): its commands and
 * its words.  Every command gets an answer: its final line starts with
 * `ok`, `error` or (for `go`) `bestmove`.  The machinery (the engine's
 * state, its output, the search thread that lets `stop`, `isready` and
 * the queries be answered while it thinks) is engine_common.c's, shared
 * with the UCI dialect (uci.c) through engine.h; this file is one
 * dialect of it and never calls the other.  Knows no rule: everything
 * goes through the public API.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "mancala_egdb.h"

/* A score as info lines give it: hundredths, win N, tablewin D ... */
static void format_score(int sc, char *score, size_t n)
{
    int margin = mc_egdb_score_margin(sc);
    if (margin > 0)
        snprintf(score, n, "tablewin %d", margin);
    else if (margin < 0)
        snprintf(score, n, "tableloss %d", -margin);
    else if (sc >= MC_SCORE_PROVEN)
        snprintf(score, n, "win %d", MC_SCORE_WIN - sc);
    else if (sc <= -MC_SCORE_PROVEN)
        snprintf(score, n, "loss %d", MC_SCORE_WIN + sc);
    else
        snprintf(score, n, "%d", sc);
}
/* An iteration's line (on the search's thread). */

static void mancala_info(mc_engine *e, const mc_search_info *in)
{
    char pv[4096], score[48];
    /* On the search's thread: the player's own game (a game keeps caches,
       and the engine's answers `moves` meanwhile). */
    const mc_session *ps = mc_player_session(e->pl);
    proto_format_pv(mc_session_game(ps), mc_session_pos(ps), in, " ", pv,
                    sizeof pv);
    format_score(in->score, score, sizeof score);
    if (in->book) {
        proto_say(e, "info book score %s depth %d pv %s", score, in->depth, pv);
        return;
    }
    if (in->solved) {
        proto_say(e, "info solved score %s plies %d pv %s", score, in->plies,
                  pv);
        return;
    }
    long ms = (long)(in->seconds * 1000.0);
    unsigned long long nps =
        in->seconds > 0 ? (unsigned long long)((double)in->nodes / in->seconds)
                        : 0;
    proto_say(e,
              "info depth %d score %s nodes %llu time %ld nps %llu hashfull %d "
              "pv %s",
              in->depth, score, (unsigned long long)in->nodes, ms, nps,
              in->hashfull, pv);
}

/* The answer to a finished search (e->lock held). */

/* The answer to a finished search (e->lock held): its best move, or why
   there is none. */
static void mancala_best_locked(mc_engine *e, int rc,
                                const mc_search_info *info)
{
    char m[MC_MOVE_STRLEN] = "";
    if (rc == 0)
        mc_move_format(mc_session_game(mc_player_session(e->pl)),
                       mc_session_pos(mc_player_session(e->pl)), info->best, m,
                       sizeof m);
    if (rc == 0)
        proto_say_locked(e, "bestmove %s", m);
    else
        proto_say_locked(e, "error go: the search failed (%s)",
                         rc == MC_ERR_OVER ? "the game is over"
                                           : "out of memory");
}
/* ---- commands ---- */

/* rest: the whole line, unsplit (ws->w[i] - ws->base is a word's offset) */
typedef int (*cmd_fn)(mc_engine *e, proto_words *ws, const char *rest);

static int cmd_hello(mc_engine *e, proto_words *ws, const char *rest);
static int cmd_set(mc_engine *e, proto_words *ws, const char *rest);
static int cmd_newgame(mc_engine *e, proto_words *ws, const char *rest);
static int cmd_position(mc_engine *e, proto_words *ws, const char *rest);
static int cmd_play(mc_engine *e, proto_words *ws, const char *rest);
static int cmd_go(mc_engine *e, proto_words *ws, const char *rest);
static int cmd_stop(mc_engine *e, proto_words *ws, const char *rest);
static int cmd_ponderhit(mc_engine *e, proto_words *ws, const char *rest);
static int cmd_isready(mc_engine *e, proto_words *ws, const char *rest);
static int cmd_moves(mc_engine *e, proto_words *ws, const char *rest);
static int cmd_board(mc_engine *e, proto_words *ws, const char *rest);
static int cmd_result(mc_engine *e, proto_words *ws, const char *rest);
static int cmd_help(mc_engine *e, proto_words *ws, const char *rest);
static int cmd_quit(mc_engine *e, proto_words *ws, const char *rest);

/*
 * +-----------+-----------------------------------------+--------+--------+
 * | command   | arguments                               | busy?  | answer |
 * +-----------+-----------------------------------------+--------+--------+
 * | hello     |                                         | yes    | ok     |
 * | set       | game|hash|threads|level|database|       | no     | ok     |
 * |           |  book|bookvariety VALUE                 |        |        |
 * | newgame   |                                         | no     | ok     |
 * | position  | start|POSITION [moves M...]             | no     | ok     |
 * | play      | M...                                    | no     | ok     |
 * | go        | [stime|ntime|sinc|ninc|movestogo|       | no     | info*, |
 * |           |  movetime|depth|nodes N]...             |        | bestmove
 * |           |  [infinite|ponder]                      |        |        |
 * | stop      |                                         | yes    | bestmove or
 * ok | ponderhit |                                         | yes    |
 * (bestmove) or error | isready   |                                         |
 * yes    | ok     | | moves     |                                         | yes
 * | ok     | | board     |                                         | yes    |
 * #*, ok | | result    |                                         | yes    | ok
 * | | help      |                                         | yes    | #*, ok |
 * | quit      |                                         | yes    | ok     |
 * +-----------+-----------------------------------------+--------+--------+
 * busy?: allowed while a search runs (the others get an error then).
 */
static const struct {
    const char *name;
    cmd_fn fn;
    int while_busy;
    const char *help;
} commands[] = {
    {"hello", cmd_hello, 1, "hello: protocol version, engine name, options"},
    {"set", cmd_set, 0,
     "set <game|hash|threads|level|database|book|bookvariety> <value>"},
    {"newgame", cmd_newgame, 0, "newgame: the start position, a fresh game"},
    {"position", cmd_position, 0, "position <start|position> [moves <m>...]"},
    {"play", cmd_play, 0, "play <m>...: play moves on the current position"},
    {"go", cmd_go, 0,
     "go [stime|ntime|sinc|ninc|movestogo|movetime|depth|nodes <n>]... "
     "[infinite|ponder]"},
    {"stop", cmd_stop, 1, "stop: end the search, answer its best move"},
    {"ponderhit", cmd_ponderhit, 1,
     "ponderhit: the move pondered on was played: think on the clock"},
    {"isready", cmd_isready, 1, "isready: answered at once"},
    {"moves", cmd_moves, 1, "moves: the legal moves"},
    {"board", cmd_board, 1, "board: the board drawn, and its position"},
    {"result", cmd_result, 1, "result: ongoing, or the result"},
    {"help", cmd_help, 1, "help: this list"},
    {"quit", cmd_quit, 1, "quit: stop any search and leave"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])
static int cmd_hello(mc_engine *e, proto_words *ws, const char *rest)
{
    (void)rest;
    if (ws->n > 1) {
        proto_say(e, "error hello: no arguments expected");
        return 0;
    }
    pthread_mutex_lock(&e->lock);
    proto_say_locked(e, "id name mancala %s", mc_version());
    proto_say_locked(e, "id protocol %d", MC_PROTOCOL_VERSION);
    char games[512] = "";
    size_t len = 0;
    for (const char *const *n = mc_game_names(); *n; n++) {
        int w = snprintf(games + len, sizeof games - len, " %s", *n);
        if (w > 0 && (size_t)w < sizeof games - len)
            len += (size_t)w;
    }
    proto_say_locked(e, "id games%s", games);
    proto_say_locked(e, "option game type string default oware");
    proto_say_locked(e, "option hash type spin default 16 min 1 max %d",
                     MC_PROTOCOL_HASH_MAX);
    proto_say_locked(e, "option threads type spin default 1 min 1 max %d",
                     mc_cores());
    proto_say_locked(e, "option level type spin default 10 min 1 max 10");
    proto_say_locked(e, "option database type string default default");
    proto_say_locked(e, "option book type string default default");
    proto_say_locked(e, "option bookvariety type spin default 0 min 0 max %d",
                     MC_PROTOCOL_VARIETY_MAX);
    proto_say_locked(e, "ok hello");
    pthread_mutex_unlock(&e->lock);
    return 0;
}

/* set book on|default|off|none|FILE: the book is read (and every line
   checked) now, not at the next go. */
static void set_book(mc_engine *e, const char *val)
{
    const char *v = strcmp(val, "on") == 0    ? "default"
                    : strcmp(val, "off") == 0 ? "none"
                                              : val;
    if (strlen(v) >= sizeof e->book) {
        proto_say(e, "error set: book: path too long");
        return;
    }
    mc_error err = {0, ""};
    mc_player_opts o = e->opts;
    if (proto_apply_opts(e, &o, e->database, v, &err) != 0) {
        proto_say(e, "error set: book: %s", err.msg);
        proto_apply_opts(e, &o, e->database, e->book, &err);
        return;
    }
    snprintf(e->book, sizeof e->book, "%s", v);
    const mc_book *b = mc_player_book(e->pl);
    if (b)
        proto_say(e, "info string book %s, %d positions",
                  strcmp(v, "default") == 0 ? "built in" : v, mc_book_size(b));
    else if (strcmp(v, "default") == 0)
        proto_say(e, "info string book not used: no book is built in for %s",
                  mc_game_spec(e->g));
    else if (strcmp(v, "none") != 0)
        proto_say(e, "info string book not used: %s is not a book of %s", v,
                  mc_game_spec(e->g));
    proto_say(e, "ok set book %s", v);
}

/* set game SPEC: a new game at its start, a new player. */
static void set_game(mc_engine *e, const proto_words *ws, const char *val)
{
    mc_error err = {0, ""};
    if (ws->n != 3) {
        proto_say(e, "error set: game takes one word (a game and its options)");
        return;
    }
    if (proto_set_game(e, val, &err) != 0) {
        proto_say(e, "error set: game: %s", err.msg);
        return;
    }
    proto_say(e, "ok set game %s", mc_game_spec(e->g));
}

/* The options that are whole numbers, and their ranges. */
static const struct {
    const char *name;
    long long lo, hi; /* hi 0: the cores of this machine */
} numbers[] = {{"hash", 1, MC_PROTOCOL_HASH_MAX},
               {"threads", 1, 0},
               {"level", 1, 10},
               {"bookvariety", 0, MC_PROTOCOL_VARIETY_MAX}};
#define NNUMBERS (sizeof numbers / sizeof numbers[0])

/* set hash|threads|level|bookvariety N (numbers[i]): the player takes it
   now (the table is allocated here, not at the next go). */
static void set_number(mc_engine *e, const proto_words *ws, size_t i,
                       const char *val)
{
    const char *name = numbers[i].name;
    long long lo = numbers[i].lo;
    long long hi = numbers[i].hi ? numbers[i].hi : mc_cores();
    long long n = ws->n == 3 ? proto_number(val, lo, hi) : -1;
    if (n < 0) {
        proto_say(e,
                  "error set: %s takes a whole number from %lld to %lld%s, "
                  "not '%s'",
                  name, lo, hi,
                  numbers[i].hi ? "" : " (the cores of this machine)", val);
        return;
    }
    assert(n >= lo && n <= hi);
    mc_player_opts o = e->opts;
    if (name[0] == 'h')
        o.hash_mb = (int)n;
    else if (name[0] == 't')
        o.threads = (int)n;
    else if (name[0] == 'b')
        o.book_variety = (int)n;
    else
        o.level = (int)n;
    mc_error err = {0, ""};
    if (proto_apply_opts(e, &o, e->database, e->book, &err) != 0) {
        proto_say(e, "error set: %s: %s", name, err.msg);
        return;
    }
    e->opts = o;
    proto_say(e, "ok set %s %lld", name, n);
}

/* set database default|none|DIR: opened (and every checksum verified)
   now, not inside the time of the next move. */
static void set_database(mc_engine *e, const char *val)
{
    if (strlen(val) >= sizeof e->database - 1) {
        proto_say(e, "error set: database: path too long");
        return;
    }
    mc_error err = {0, ""};
    mc_player_opts o = e->opts;
    if (proto_apply_opts(e, &o, val, e->book, &err) != 0) {
        proto_say(e, "error set: database: %s", err.msg);
        proto_apply_opts(e, &o, e->database, e->book, &err);
        return;
    }
    snprintf(e->database, sizeof e->database, "%s", val);
    const char *dir = mc_player_tables(e->pl);
    if (dir && strcmp(val, "default") == 0)
        proto_say(e, "info string database %s", dir);
    else if (!dir && strcmp(val, "default") == 0)
        proto_say(e,
                  "info string database not used: no tables for %s in "
                  "the default places",
                  mc_game_spec(e->g));
    else if (!dir && strcmp(val, "none") != 0)
        proto_say(e,
                  "info string database not used: the game %s has no "
                  "tables",
                  mc_game_spec(e->g));
    proto_say(e, "ok set database %s", val);
}

static int cmd_set(mc_engine *e, proto_words *ws, const char *rest)
{
    if (ws->n < 3) {
        proto_say(e, "error set: usage: set <game|hash|threads|level|database|"
                     "book|bookvariety> <value>");
        return 0;
    }
    const char *name = ws->w[1];
    /* the value is the rest of the line after the name (paths may have
       spaces) */
    char val[1024];
    if (proto_line_after(ws, rest, 1, val, sizeof val) != 0) {
        proto_say(e, "error set: the value of %.40s is longer than %zu bytes",
                  name, sizeof val - 1);
        return 0;
    }
    size_t i = 0;
    while (i < NNUMBERS && strcmp(name, numbers[i].name) != 0)
        i++;
    if (strcmp(name, "game") == 0)
        set_game(e, ws, val);
    else if (i < NNUMBERS)
        set_number(e, ws, i, val);
    else if (strcmp(name, "database") == 0)
        set_database(e, val);
    else if (strcmp(name, "book") == 0)
        set_book(e, val);
    else
        proto_say(e,
                  "error set: unknown option '%s' (options: game, hash, "
                  "threads, level, database, book, bookvariety)",
                  name);
    return 0;
}

static int cmd_newgame(mc_engine *e, proto_words *ws, const char *rest)
{
    (void)rest;
    if (ws->n > 1) {
        proto_say(e, "error newgame: no arguments expected");
        return 0;
    }
    mc_session *s = mc_session_new(e->g, NULL);
    if (!s) {
        proto_say(e, "error newgame: out of memory");
        return 0;
    }
    proto_reset_session(e, s);
    mc_player_newgame(e->pl);
    proto_say(e, "ok newgame");
    return 0;
}

/* Play ws->w[from..] on s; on error writes the error line for `cmd`. */
static int play_words(mc_engine *e, mc_session *s, proto_words *ws, int from,
                      const char *cmd)
{
    for (int i = from; i < ws->n; i++) {
        mc_error err = {0, ""};
        if (mc_session_play_str(s, ws->w[i], NULL, &err) != 0) {
            proto_say(e, "error %s: move %d '%s': %s", cmd, i - from + 1,
                      ws->w[i], err.msg);
            return -1;
        }
    }
    return 0;
}

static int cmd_position(mc_engine *e, proto_words *ws, const char *rest)
{
    (void)rest;
    if (ws->n < 2) {
        proto_say(e, "error position: usage: position <start|position> [moves "
                     "<m>...]");
        return 0;
    }
    int mv = ws->n;
    for (int i = 1; i < ws->n; i++)
        if (strcmp(ws->w[i], "moves") == 0) {
            mv = i;
            break;
        }
    mc_pos p;
    if (mv == 1) {
        proto_say(e, "error position: a position or 'start' must come before "
                     "'moves'");
        return 0;
    }
    if (strcmp(ws->w[1], "start") == 0) {
        if (mv != 2) {
            proto_say(e,
                      "error position: 'start' is followed by 'moves' or "
                      "nothing, not '%s'",
                      ws->w[2]);
            return 0;
        }
        mc_start(e->g, &p);
    } else {
        char ps[MC_POS_STRLEN * 2];
        size_t len = 0;
        for (int i = 1; i < mv; i++) {
            int w = snprintf(ps + len, sizeof ps - len, "%s%s",
                             i > 1 ? " " : "", ws->w[i]);
            if (w < 0 || (size_t)w >= sizeof ps - len) {
                proto_say(e, "error position: the position is too long");
                return 0;
            }
            len += (size_t)w;
        }
        mc_error err = {0, ""};
        if (mc_pos_parse(e->g, ps, &p, &err) != 0) {
            proto_say(e, "error position: %s", err.msg);
            return 0;
        }
    }
    mc_session *s = mc_session_new(e->g, &p);
    if (!s) {
        proto_say(e, "error position: out of memory");
        return 0;
    }
    if (play_words(e, s, ws, mv + 1, "position") != 0) {
        mc_session_free(s);
        return 0;
    }
    proto_reset_session(e, s);
    proto_say(e, "ok position");
    return 0;
}

static int cmd_play(mc_engine *e, proto_words *ws, const char *rest)
{
    (void)rest;
    if (ws->n < 2) {
        proto_say(e, "error play: usage: play <move>...");
        return 0;
    }
    /* all or nothing: try on a copy of the game so far */
    mc_session *s = mc_session_new(e->g, mc_session_pos_at(e->s, 0));
    if (!s) {
        proto_say(e, "error play: out of memory");
        return 0;
    }
    for (int i = 0; i < mc_session_ply(e->s); i++)
        mc_session_play(s, mc_session_move_at(e->s, i), NULL, NULL);
    if (play_words(e, s, ws, 1, "play") != 0) {
        mc_session_free(s);
        return 0;
    }
    proto_reset_session(e, s);
    proto_say(e, "ok play");
    return 0;
}

static int cmd_go(mc_engine *e, proto_words *ws, const char *rest)
{
    (void)rest;
    static const char *const keys[PROTO_GO_NKEYS] = {
        "stime",     "ntime",    "sinc",  "ninc",
        "movestogo", "movetime", "depth", "nodes"};
    long long v[PROTO_GO_NKEYS];
    int infinite, ponder;
    proto_go_bad bad;
    if (proto_go_words(ws, keys, v, &infinite, &ponder, &bad) != 0) {
        if (bad.what == PROTO_GO_UNKNOWN)
            proto_say(e, "error go: unknown parameter '%s'", bad.word);
        else if (bad.what == PROTO_GO_BOTH)
            proto_say(e, "error go: infinite and ponder exclude each other");
        else if (bad.word)
            proto_say(e,
                      "error go: %s takes a whole number from %lld to %lld, "
                      "not '%.40s'",
                      keys[bad.key], bad.lo, bad.hi, bad.word);
        else
            proto_say(e,
                      "error go: %s takes a whole number from %lld to %lld "
                      "(missing)",
                      keys[bad.key], bad.lo, bad.hi);
        return 0;
    }
    if (mc_session_over(e->s)) {
        proto_say(e, "error go: the game is over");
        return 0;
    }
    int side = mc_session_pos(e->s)->side;
    int mine = side == MC_SOUTH ? PROTO_GO_STIME : PROTO_GO_NTIME;
    int theirs = side == MC_SOUTH ? PROTO_GO_NTIME : PROTO_GO_STIME;
    if (v[mine] < 0 && v[theirs] >= 0) {
        proto_say(e, "error go: %s is %s's clock, but %s is to move (give %s)",
                  keys[theirs], side == MC_SOUTH ? "North" : "South",
                  side == MC_SOUTH ? "South" : "North", keys[mine]);
        return 0;
    }
    mc_go go;
    proto_go_make(v, infinite, ponder, &go);
    char why[320];
    if (proto_start_search(e, &go, why, sizeof why) != 0)
        proto_say(e, "error go: %s", why);
    return 0;
}

static int cmd_stop(mc_engine *e, proto_words *ws, const char *rest)
{
    (void)ws;
    (void)rest;
    if (e->live && proto_running(e)) {
        proto_join_search(e, 1); /* the thread writes the best move */
        return 0;
    }
    proto_join_search(e, 0);
    proto_say(e, "ok stop (no search running)");
    return 0;
}

static int cmd_ponderhit(mc_engine *e, proto_words *ws, const char *rest)
{
    (void)ws;
    (void)rest;
    proto_ponderhit(e, "error ponderhit: no search is pondering");
    return 0;
}

static int cmd_isready(mc_engine *e, proto_words *ws, const char *rest)
{
    (void)ws;
    (void)rest;
    proto_say(e, "ok isready");
    return 0;
}

static int cmd_moves(mc_engine *e, proto_words *ws, const char *rest)
{
    (void)ws;
    (void)rest;
    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(e->s, mv);
    char b[MC_MAX_MOVES * 8 + 16];
    size_t len = 0;
    b[0] = '\0';
    for (int i = 0; i < n; i++) {
        char m[MC_MOVE_STRLEN];
        mc_move_format(e->g, mc_session_pos(e->s), mv[i], m, sizeof m);
        int w = snprintf(b + len, sizeof b - len, " %s", m);
        if (w < 0 || (size_t)w >= sizeof b - len)
            break;
        len += (size_t)w;
    }
    proto_say(e, "ok moves%s", b);
    return 0;
}

static int cmd_board(mc_engine *e, proto_words *ws, const char *rest)
{
    (void)ws;
    (void)rest;
    const mc_pos *p = mc_session_pos(e->s);
    mc_layout l;
    mc_layout_get(e->g, &l);
    pthread_mutex_lock(&e->lock);
    for (int r = 0; r < l.rows && r < 4; r++) {
        char line[256];
        size_t len = 0;
        len += (size_t)snprintf(line, sizeof line, "# ");
        for (int c = 0; c < l.cols && c < 8; c++) {
            int pit = l.pit[r][c];
            if (pit < 0)
                len +=
                    (size_t)snprintf(line + len, sizeof line - len, "      ");
            else
                len +=
                    (size_t)snprintf(line + len, sizeof line - len, " %2s:%-2d",
                                     mc_pit_name(e->g, pit), p->pit[pit]);
        }
        proto_say_locked(e, "%s", line);
    }
    char ps[MC_POS_STRLEN];
    mc_pos_format(e->g, p, ps, sizeof ps);
    proto_say_locked(e, "ok board %s", ps);
    pthread_mutex_unlock(&e->lock);
    return 0;
}

static int cmd_result(mc_engine *e, proto_words *ws, const char *rest)
{
    (void)ws;
    (void)rest;
    mc_result r;
    mc_session_result(e->s, &r);
    if (!r.over) {
        proto_say(e, "ok result ongoing");
        return 0;
    }
    const char *w = r.winner == MC_SOUTH   ? "S"
                    : r.winner == MC_NORTH ? "N"
                                           : "draw";
    const char *why =
        mc_end_reason_name(r.reason) && *mc_end_reason_name(r.reason)
            ? mc_end_reason_name(r.reason)
            : "none";
    proto_say(e, "ok result %s %s %s", w, why, r.detail);
    return 0;
}

static int cmd_help(mc_engine *e, proto_words *ws, const char *rest)
{
    (void)ws;
    (void)rest;
    pthread_mutex_lock(&e->lock);
    for (size_t i = 0; i < NCOMMANDS; i++)
        proto_say_locked(e, "# %s", commands[i].help);
    proto_say_locked(e, "ok help");
    pthread_mutex_unlock(&e->lock);
    return 0;
}

static int cmd_quit(mc_engine *e, proto_words *ws, const char *rest)
{
    (void)ws;
    (void)rest;
    proto_join_search(e, 1);
    proto_say(e, "ok quit");
    return 1;
}

/* ---- the dialect ---- */

/* One line of the protocol, split: the command table's. */
static int mancala_command(mc_engine *e, proto_words *ws, const char *rest)
{
    size_t i = 0;
    while (i < NCOMMANDS && strcmp(commands[i].name, ws->w[0]) != 0)
        i++;
    if (i == NCOMMANDS) {
        char name[40];
        snprintf(name, sizeof name, "%s", ws->w[0]);
        proto_say(e, "error unknown command '%s%s' (try 'help')", name,
                  strlen(ws->w[0]) >= sizeof name ? "..." : "");
        return 0;
    }
    assert(i < NCOMMANDS && ws->n >= 1);
    proto_reap(e); /* the last search is over: reap its thread */
    if (e->live && !commands[i].while_busy) {
        proto_say(e, "error %s: a search is running (send stop first)",
                  commands[i].name);
        return 0;
    }
    return commands[i].fn(e, ws, rest);
}

static const proto_dialect mancala_dialect = {
    "error", mancala_command, mancala_info, mancala_best_locked};

mc_engine *mc_engine_new(mc_engine_out out, void *ctx)
{
    return proto_engine_new(out, ctx, &mancala_dialect);
}
