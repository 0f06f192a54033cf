/*
 * protocol.c - the engine protocol (docs/PROTOCOL.md): parses command lines,
 * keeps the engine's game, position and options, and runs the search in a
 * thread so that `stop`, `isready` and the queries are answered while it
 * thinks.  Every command gets an answer: its final line starts with `ok`,
 * `error` or (for `go`) `bestmove`.  Knows no rule: everything goes through
 * the public API.  The UCI dialect (uci.c) shares this file's machinery:
 * the engine's state, its output and its search thread (engine.h).
 */
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "../search/player.h"
#include "mancala_egdb.h"

/* A bounded search may finish after the end of input, but no longer than
   this: the engine is gone within a second of its input. */
#define FINISH_GRACE 0.5

/* ---- output ---- */

void proto_say_locked(mc_engine *e, const char *fmt, ...)
{
    char b[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    e->out(b, e->ctx);
}

void proto_say(mc_engine *e, const char *fmt, ...)
{
    char b[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&e->lock);
    e->out(b, e->ctx);
    pthread_mutex_unlock(&e->lock);
}

/* ---- the search thread ---- */

void proto_format_pv(const mc_game *g, const mc_pos *root,
                     const mc_search_info *in, const char *sep, char *buf,
                     size_t n)
{
    mc_pos p = *root;
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < in->pvlen; i++) {
        char m[MC_MOVE_STRLEN];
        mc_move list[MC_MAX_MOVES];
        int k = mc_moves(g, &p, list), ok = 0;
        for (int j = 0; j < k && !ok; j++)
            ok = list[j] == in->pv[i];
        if (!ok)
            break; /* a stale hash move: the line ends here */
        mc_move_format(g, &p, in->pv[i], m, sizeof m);
        int w = snprintf(buf + len, n - len, "%s%s", i ? sep : "", m);
        if (w < 0 || (size_t)w >= n - len)
            break;
        len += (size_t)w;
        mc_play(g, &p, in->pv[i], NULL);
    }
}

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

static void on_info(const mc_search_info *in, void *ctx)
{
    mc_engine *e = ctx;
    if (e->uci) {
        proto_uci_info(e, in);
        return;
    }
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

static int stopped(mc_engine *e)
{
    return __atomic_load_n(&e->stop, __ATOMIC_SEQ_CST);
}

/* The answer to a finished search (e->lock held): its best move, or why
   there is none. */
static void say_best_locked(mc_engine *e, int rc, const mc_search_info *info)
{
    char m[MC_MOVE_STRLEN] = "";
    if (rc == 0)
        mc_move_format(mc_session_game(mc_player_session(e->pl)),
                       mc_session_pos(mc_player_session(e->pl)), info->best, m,
                       sizeof m);
    if (e->uci)
        proto_uci_best_locked(e, rc, info);
    else if (rc == 0)
        proto_say_locked(e, "bestmove %s", m);
    else
        proto_say_locked(e, "error go: the search failed (%s)",
                         rc == MC_ERR_OVER ? "the game is over"
                                           : "out of memory");
}

static void *search_main(void *arg)
{
    mc_engine *e = arg;
    mc_search_info info;
    int rc = mc_player_go(e->pl, &e->go, &info);
    if (rc == 0 && info.book)
        on_info(&info, e); /* a book move: no iteration reported it */
    pthread_mutex_lock(&e->lock);
    /* `go infinite` reports only when told to stop, `go ponder` when told
       to stop or that the pondered move was played. */
    while ((e->infinite || e->ponder) && !stopped(e))
        pthread_cond_wait(&e->cond, &e->lock);
    say_best_locked(e, rc, &info);
    e->running = 0;
    pthread_cond_broadcast(&e->cond);
    pthread_mutex_unlock(&e->lock);
    return NULL;
}

/* ---- searches without threads (MC_NO_THREADS) ----------------------------
   A bounded search runs on the caller's thread inside `go`.  An open-ended
   one (infinite, ponder) runs in steps, each one iteration deeper than the
   last (the transposition table makes the shallower ones cheap), which the
   host asks for between input lines (mc_engine_step): meanwhile the engine
   is "searching" for every command, as with a thread, and stop, quit or the
   end of input answer with the deepest finished step's move. */

#ifdef MC_NO_THREADS
/* A step's lines: only the iterations not reported by an earlier step. */
static void step_info(const mc_search_info *in, void *ctx)
{
    mc_engine *e = ctx;
    if (in->depth > e->step_shown || in->book || in->solved) {
        on_info(in, e);
        if (in->depth > e->step_shown)
            e->step_shown = in->depth;
    }
}

/* The search as asked (infinite: no book, no time; ponder: the clock
   waits for the ponderhit), its clock from now, its lines through
   step_info. */
static mc_go step_go(mc_engine *e)
{
    mc_go go = e->go;
    go.start = mc_clock();
    go.on_info = step_info;
    go.info_ctx = e;
    go.stop = NULL;
    return go;
}
#endif

int mc_engine_step(mc_engine *e)
{
#ifdef MC_NO_THREADS
    if (!e->live || !e->running || e->step_done)
        return 0;
    /* one iteration deeper than the last step */
    mc_go go = step_go(e);
    go.depth = e->steps + 1;
    mc_search_info info;
    int rc = mc_player_go(e->pl, &go, &info);
    if (rc == 0 && info.book && e->steps == 0)
        on_info(&info, e); /* a book move: no iteration reported it */
    e->step_rc = rc;
    if (rc == 0)
        e->step_best = info;
    e->steps++;
    /* Nothing deeper to find: a book or table move, a proven result, the
       depth asked for, the deepest search there is. */
    if (rc != 0 || info.book || info.solved || info.depth < go.depth ||
        (e->go.depth > 0 && e->steps >= e->go.depth) ||
        e->steps >= 126) /* the search's deepest (MC_MAX_PLY - 2) */
        e->step_done = 1;
    return !e->step_done;
#else
    (void)e;
    return 0;
#endif
}

/* The pondered move was played (e->ponder already 0): without threads,
   the search goes on now, on the clock, and answers (at once when the
   steps found all there was to find). */
void proto_ponderhit_now(mc_engine *e)
{
#ifdef MC_NO_THREADS
    int rc = e->step_rc;
    mc_search_info info = e->step_best;
    if (!e->step_done) {
        mc_go go = step_go(e);
        go.ponder = 0;
        rc = mc_player_go(e->pl, &go, &info);
        if (rc != 0 || info.depth < e->steps) {
            rc = e->step_rc; /* no deeper than the steps: theirs */
            info = e->step_best;
        }
    }
    say_best_locked(e, rc, &info);
    e->running = 0;
    e->live = 0;
#else
    (void)e;
#endif
}

/* Ask the search to end: the flag its mc_go watches (set again to 0 by
   the next go, so a stop for a search that is over has no effect on a
   later one). */
void proto_raise_stop_locked(mc_engine *e)
{
    __atomic_store_n(&e->stop, 1, __ATOMIC_SEQ_CST);
    pthread_cond_broadcast(&e->cond);
}

int proto_running(mc_engine *e)
{
    pthread_mutex_lock(&e->lock);
    int r = e->running;
    pthread_mutex_unlock(&e->lock);
    return r;
}

void proto_join_search(mc_engine *e, int now)
{
    if (!e->live)
        return;
#ifdef MC_NO_THREADS
    /* Only an open-ended search is ever live here: it answers now. */
    (void)now;
    if (e->running)
        say_best_locked(e, e->step_rc, &e->step_best);
    e->running = 0;
    e->live = 0;
    return;
#endif
    pthread_mutex_lock(&e->lock);
    if (now)
        proto_raise_stop_locked(e);
    pthread_mutex_unlock(&e->lock);
    pthread_join(e->th, NULL);
    e->live = 0;
}

/* ---- words ---- */

int proto_split(char *s, proto_words *ws)
{
    ws->n = 0;
    char *p = s;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            return 0;
        if (ws->n == PROTO_MAX_WORDS)
            return -1;
        ws->w[ws->n++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = '\0';
    }
}

long long proto_number(const char *w, long long lo, long long hi)
{
    if (!w || !*w || strlen(w) > 15)
        return -1;
    long long v = 0;
    for (const char *p = w; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (*p - '0');
    }
    return v >= lo && v <= hi ? v : -1;
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
 * | stop      |                                         | yes    | bestmove or ok
 * | ponderhit |                                         | yes    | (bestmove) or error
 * | isready   |                                         | yes    | ok     |
 * | moves     |                                         | yes    | ok     |
 * | board     |                                         | yes    | #*, ok |
 * | result    |                                         | yes    | ok     |
 * | help      |                                         | yes    | #*, ok |
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


/* The player's options with `database` as its tables option and `book`
   as its book. */
static void file_opts(mc_player_opts *o, const char *database,
                      const char *book)
{
    o->tables = strcmp(database, "default") == 0 ? NULL : database;
    o->book = strcmp(book, "default") == 0 ? NULL : book;
}

int proto_apply_opts(mc_engine *e, mc_player_opts *o, const char *database,
                     const char *book, mc_error *err)
{
    file_opts(o, database, book);
    return mc_player_set_opts(e->pl, o, err);
}

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

void proto_reset_session(mc_engine *e, mc_session *s)
{
    mc_session_free(e->s);
    e->s = s;
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

int proto_set_game(mc_engine *e, const char *spec, mc_error *err)
{
    mc_game *g = mc_game_new(spec, err);
    if (!g)
        return -1;
    mc_session *s = mc_session_new(g, NULL);
    mc_player_opts o = e->opts;
    file_opts(&o, e->database, e->book);
    mc_player *pl = s ? mc_player_new(g, &o, err) : NULL;
    if (!pl) {
        if (!s)
            snprintf(err->msg, sizeof err->msg, "out of memory");
        mc_session_free(s);
        mc_game_free(g);
        return -1;
    }
    mc_player_free(e->pl);
    e->pl = pl;
    proto_reset_session(e, s);
    mc_game_free(e->g);
    e->g = g;
    return 0;
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
    const char *v = rest + (ws->w[1] - ws->base) + strlen(name);
    while (*v == ' ' || *v == '\t')
        v++;
    char val[1024];
    if (strlen(v) >= sizeof val) {
        proto_say(e, "error set: the value of %.40s is longer than %zu bytes",
                  name, sizeof val - 1);
        return 0;
    }
    snprintf(val, sizeof val, "%s", v);
    size_t vl = strlen(val);
    while (vl && (val[vl - 1] == ' ' || val[vl - 1] == '\t'))
        val[--vl] = '\0';
    if (strcmp(name, "game") == 0) {
        mc_error err = {0, ""};
        if (ws->n != 3) {
            proto_say(
                e, "error set: game takes one word (a game and its options)");
            return 0;
        }
        if (proto_set_game(e, val, &err) != 0) {
            proto_say(e, "error set: game: %s", err.msg);
            return 0;
        }
        proto_say(e, "ok set game %s", mc_game_spec(e->g));
    } else if (strcmp(name, "hash") == 0 || strcmp(name, "threads") == 0 ||
               strcmp(name, "level") == 0 ||
               strcmp(name, "bookvariety") == 0) {
        long long hi = name[0] == 'h'   ? MC_PROTOCOL_HASH_MAX
                       : name[0] == 't' ? mc_cores()
                       : name[0] == 'b' ? MC_PROTOCOL_VARIETY_MAX
                                        : 10;
        long long lo = name[0] == 'b' ? 0 : 1;
        long long n = ws->n == 3 ? proto_number(val, lo, hi) : -1;
        if (n < 0) {
            proto_say(e,
                      "error set: %s takes a whole number from %lld to %lld%s, "
                      "not '%s'",
                      name, lo, hi,
                      name[0] == 't' ? " (the cores of this machine)" : "",
                      val);
            return 0;
        }
        mc_player_opts o = e->opts;
        if (name[0] == 'h')
            o.hash_mb = (int)n; /* allocated now, not at the next go */
        else if (name[0] == 't')
            o.threads = (int)n;
        else if (name[0] == 'b')
            o.book_variety = (int)n;
        else
            o.level = (int)n;
        mc_error err = {0, ""};
        if (proto_apply_opts(e, &o, e->database, e->book, &err) != 0) {
            proto_say(e, "error set: %s: %s", name, err.msg);
            return 0;
        }
        e->opts = o;
        proto_say(e, "ok set %s %lld", name, n);
    } else if (strcmp(name, "database") == 0) {
        if (vl >= sizeof e->database - 1) {
            proto_say(e, "error set: database: path too long");
            return 0;
        }
        /* Opened (and every checksum verified) now, not inside the time
           of the next move. */
        mc_error err = {0, ""};
        mc_player_opts o = e->opts;
        if (proto_apply_opts(e, &o, val, e->book, &err) != 0) {
            proto_say(e, "error set: database: %s", err.msg);
            proto_apply_opts(e, &o, e->database, e->book, &err);
            return 0;
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
    } else if (strcmp(name, "book") == 0) {
        set_book(e, val);
    } else {
        proto_say(e,
                  "error set: unknown option '%s' (options: game, hash, "
                  "threads, level, database, book, bookvariety)",
                  name);
    }
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

int proto_go_words(const proto_words *ws,
                   const char *const keys[PROTO_GO_NKEYS],
                   long long v[PROTO_GO_NKEYS], int *infinite, int *ponder,
                   proto_go_bad *bad)
{
    for (int k = 0; k < PROTO_GO_NKEYS; k++)
        v[k] = -1;
    *infinite = *ponder = 0;
    for (int i = 1; i < ws->n; i++) {
        if (strcmp(ws->w[i], "infinite") == 0) {
            *infinite = 1;
            continue;
        }
        if (strcmp(ws->w[i], "ponder") == 0) {
            *ponder = 1;
            continue;
        }
        int k = 0;
        while (k < PROTO_GO_NKEYS && strcmp(ws->w[i], keys[k]) != 0)
            k++;
        if (k == PROTO_GO_NKEYS) {
            bad->what = PROTO_GO_UNKNOWN;
            bad->word = ws->w[i];
            return -1;
        }
        long long hi = k == PROTO_GO_DEPTH ? 64
                       : k == PROTO_GO_MTG ? 1000
                                           : 1000000000000LL;
        long long lo =
            k == PROTO_GO_DEPTH || k == PROTO_GO_MTG || k == PROTO_GO_NODES
                ? 1
                : 0;
        long long n = i + 1 < ws->n ? proto_number(ws->w[i + 1], lo, hi) : -1;
        if (n < 0) {
            bad->what = PROTO_GO_NUMBER;
            bad->key = k;
            bad->lo = lo;
            bad->hi = hi;
            bad->word = i + 1 < ws->n ? ws->w[i + 1] : NULL;
            return -1;
        }
        v[k] = n;
        i++;
    }
    if (*infinite && *ponder) {
        bad->what = PROTO_GO_BOTH;
        return -1;
    }
    return 0;
}

void proto_go_make(const long long v[PROTO_GO_NKEYS], int infinite,
                   int ponder, mc_go *go)
{
    memset(go, 0, sizeof *go);
    if (v[PROTO_GO_DEPTH] > 0)
        go->depth = (int)v[PROTO_GO_DEPTH];
    if (v[PROTO_GO_NODES] > 0)
        go->nodes = (uint64_t)v[PROTO_GO_NODES];
    if (v[PROTO_GO_MOVETIME] >= 0)
        go->movetime = v[PROTO_GO_MOVETIME] > 0
                           ? (double)v[PROTO_GO_MOVETIME] / 1000.0
                           : 0.0005;
    for (int sd = 0; sd < 2; sd++) {
        long long c = v[sd == MC_SOUTH ? PROTO_GO_STIME : PROTO_GO_NTIME];
        long long in = v[sd == MC_SOUTH ? PROTO_GO_SINC : PROTO_GO_NINC];
        /* a clock at 0 still asks for a move: as fast as can be */
        go->clock[sd] = c > 0 ? (double)c / 1000.0 : c == 0 ? 0.0005 : 0;
        go->inc[sd] = in > 0 ? (double)in / 1000.0 : 0;
    }
    go->movestogo = v[PROTO_GO_MTG] > 0 ? (int)v[PROTO_GO_MTG] : 0;
    go->infinite = infinite;
    go->ponder = ponder;
    /* Nothing limits the mover (plain `go`, or only the other side's
       clock): the player's default for an mc_go that asks nothing (one
       second), decided there. */
}

static int cmd_go(mc_engine *e, proto_words *ws, const char *rest)
{
    (void)rest;
    static const char *const keys[PROTO_GO_NKEYS] = {
        "stime", "ntime", "sinc", "ninc", "movestogo", "movetime", "depth",
        "nodes"};
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

int proto_start_search(mc_engine *e, const mc_go *limits, char *why, size_t n)
{
    mc_error err = {0, ""};
    if (mc_player_sync(e->pl, e->s, &err) != 0) {
        snprintf(why, n, "%s", err.msg);
        return -1;
    }
    mc_go go = *limits;
    /* The clock started when the command arrived. */
    go.start = e->line_start;
    go.on_info = on_info;
    go.info_ctx = e;
    __atomic_store_n(&e->stop, 0, __ATOMIC_SEQ_CST);
    go.stop = &e->stop;
    /* Each search its own randomness; the options stay as they are (kept
       in e->opts for a player made anew by `set game`). */
    e->opts.seed = ++e->searches;
    mc_player_set_seed(e->pl, e->opts.seed);
    e->go = go;
    e->infinite = go.infinite;
    e->ponder = go.ponder;
    e->running = 1;
#ifdef MC_NO_THREADS
    /* No threads (the WebAssembly build for pages): the search runs on
       the caller's thread and has written its best move when this
       returns, so it must end by itself.  A host that wants an open-ended
       analysis asks for deeper searches one after another (web/engine-
       worker.js does), reading its input in between. */
    if (go.infinite || go.ponder) {
        e->steps = e->step_shown = e->step_done = 0;
        e->live = 1;
        mc_engine_step(e); /* a first move to answer a stop with */
        return 0;
    }
    search_main(e);
    return 0;
#endif
    if (pthread_create(&e->th, NULL, search_main, e) != 0) {
        e->running = 0;
        snprintf(why, n, "cannot start the search thread");
        return -1;
    }
    e->live = 1;
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
    pthread_mutex_lock(&e->lock);
    if (!e->running || !e->ponder) {
        proto_say_locked(e, "error ponderhit: no search is pondering");
        pthread_mutex_unlock(&e->lock);
        return 0;
    }
    /* The search goes on, now on the clock; its bestmove is the answer. */
    mc_player_ponderhit(e->pl);
    e->ponder = 0;
    pthread_cond_broadcast(&e->cond);
    proto_ponderhit_now(e);
    pthread_mutex_unlock(&e->lock);
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
                len += (size_t)snprintf(line + len, sizeof line - len,
                                        "      ");
            else
                len += (size_t)snprintf(line + len, sizeof line - len,
                                        " %2s:%-2d", mc_pit_name(e->g, pit),
                                        p->pit[pit]);
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
    const char *why = mc_end_reason_name(r.reason) &&
                              *mc_end_reason_name(r.reason)
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

/* ---- the engine ---- */

mc_engine *mc_engine_new(mc_engine_out out, void *ctx)
{
    mc_engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->out = out;
    e->ctx = ctx;
    e->opts.hash_mb = 16;
    e->opts.threads = 1;
    e->opts.level = 10;
    /* Tables from the default places (mancala_egdb.h) unless told. */
    snprintf(e->database, sizeof e->database, "default");
    /* The built-in book (Oware) unless told; always its best move. */
    snprintf(e->book, sizeof e->book, "default");
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->cond, NULL);
    e->g = mc_game_new("oware", NULL);
    e->s = e->g ? mc_session_new(e->g, NULL) : NULL;
    mc_player_opts o = e->opts;
    e->pl = e->s ? mc_player_new(e->g, &o, NULL) : NULL;
    if (!e->pl) {
        mc_engine_free(e);
        return NULL;
    }
    return e;
}

void mc_engine_free(mc_engine *e)
{
    if (!e)
        return;
    proto_join_search(e, 1);
    mc_player_free(e->pl); /* after the search that uses it */
    mc_session_free(e->s);
    mc_game_free(e->g);
    pthread_mutex_destroy(&e->lock);
    pthread_cond_destroy(&e->cond);
    free(e);
}

void mc_engine_finish(mc_engine *e)
{
    if (!e->live)
        return;
    /* An infinite or pondering search is stopped at once; a bounded one
       may finish, within FINISH_GRACE: nobody may be reading any more
       (the input is closed, and so may the output be). */
    pthread_mutex_lock(&e->lock);
    if (e->infinite || e->ponder) {
        proto_raise_stop_locked(e);
    } else {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        long long ns = until.tv_nsec + (long long)(FINISH_GRACE * 1e9);
        until.tv_sec += (time_t)(ns / 1000000000);
        until.tv_nsec = (long)(ns % 1000000000);
        while (e->running &&
               pthread_cond_timedwait(&e->cond, &e->lock, &until) == 0)
            ;
        if (e->running)
            proto_raise_stop_locked(e);
    }
    pthread_mutex_unlock(&e->lock);
    proto_join_search(e, 0);
}

int mc_engine_line(mc_engine *e, const char *line, size_t len)
{
    /* UCI has no error answer: its errors are info strings. */
    const char *error = e->uci ? "info string error" : "error";
    e->line_start = mc_clock();
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    if (len > MC_PROTOCOL_LINE_MAX) {
        proto_say(e, "%s line too long (more than %d bytes)", error,
                  MC_PROTOCOL_LINE_MAX);
        return 0;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if ((c < 32 && c != '\t') || c == 127) {
            proto_say(e, "%s control character (byte %u) at column %zu", error,
                      c, i + 1);
            return 0;
        }
    }
    char *buf = malloc(len + 1), *rest = malloc(len + 1);
    proto_words *ws = malloc(sizeof *ws);
    int rc = 0;
    if (!buf || !rest || !ws) {
        proto_say(e, "%s out of memory", error);
        goto out;
    }
    memcpy(buf, line, len);
    buf[len] = '\0';
    memcpy(rest, buf, len + 1);
    if (proto_split(buf, ws) != 0) {
        proto_say(e, "%s too many words on one line (at most %d)", error,
                  PROTO_MAX_WORDS);
        goto out;
    }
    if (ws->n == 0 || ws->w[0][0] == '#')
        goto out; /* blank lines and comments are not commands */
    ws->base = buf;
    if (e->uci) {
        rc = proto_uci_command(e, ws, rest);
        goto out;
    }
    size_t i = 0;
    while (i < NCOMMANDS && strcmp(commands[i].name, ws->w[0]) != 0)
        i++;
    if (i == NCOMMANDS) {
        char name[40];
        snprintf(name, sizeof name, "%s", ws->w[0]);
        proto_say(e, "error unknown command '%s%s' (try 'help')", name,
                  strlen(ws->w[0]) >= sizeof name ? "..." : "");
        goto out;
    }
    if (e->live && !proto_running(e))
        proto_join_search(e, 0); /* the last search is over: reap its thread */
    if (e->live && !commands[i].while_busy) {
        proto_say(e, "error %s: a search is running (send stop first)",
                  commands[i].name);
        goto out;
    }
    rc = commands[i].fn(e, ws, rest);
out:
    free(buf);
    free(rest);
    free(ws);
    return rc;
}
