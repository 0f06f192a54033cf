/*
 * engine_common.c - the machinery both dialects of `mancala engine` run
 * on (engine.h): the engine's state and options, its output, its search
 * thread (or, without threads, its steps), the word splitter and the go
 * line's reader, and the line loop that checks a line and hands it to the
 * dialect.  It calls a dialect only through the table the engine was made
 * with (proto_dialect: its commands, its info lines, its answer), so that
 * protocol.c and uci.c call this file and never each other.  Knows no
 * rule: everything goes through the public API.
 */
#include <assert.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/i18n.h"
#include "engine.h"
#include "../search/player.h"

/* A bounded search may finish after the end of input, but no longer than
   this: the engine is gone within a second of its input. */
#define FINISH_GRACE 0.5

/* ---- output ---- */

/* One line out (the engine's lock held). */
static void say_v(mc_engine *e, const char *fmt, va_list ap)
{
    char b[8192];
    vsnprintf(b, sizeof b, fmt, ap);
    e->out(b, e->ctx);
}

void proto_say_locked(mc_engine *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_v(e, fmt, ap);
    va_end(ap);
}

void proto_say(mc_engine *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&e->lock);
    say_v(e, fmt, ap);
    pthread_mutex_unlock(&e->lock);
    va_end(ap);
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

/* An iteration's line, in the dialect's words (on the search's thread). */
static void on_info(const mc_search_info *in, void *ctx)
{
    mc_engine *e = ctx;
    e->dialect->info(e, in);
}

static int stopped(mc_engine *e)
{
    return __atomic_load_n(&e->stop, __ATOMIC_SEQ_CST);
}

/* The answer to a finished search (e->lock held), in the dialect's words:
   its best move, or why there is none. */
static void say_best_locked(mc_engine *e, int rc, const mc_search_info *info)
{
    e->dialect->best_locked(e, rc, info);
}

static void *search_main(void *arg)
{
    mc_engine *e = arg;
    mc_search_info info;
    assert(e->running);
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

static int engine_step(mc_engine *e)
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
static void ponderhit_now(mc_engine *e)
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

int proto_ponderhit(mc_engine *e, const char *refusal)
{
    pthread_mutex_lock(&e->lock);
    int pondering = e->running && e->ponder;
    if (!pondering) {
        proto_say_locked(e, "%s", refusal);
    } else {
        assert(e->live); /* a pondering search has its thread (or steps) */
        /* The search goes on, now on the clock; its bestmove is the
           answer. */
        mc_player_ponderhit(e->pl);
        e->ponder = 0;
        pthread_cond_broadcast(&e->cond);
        ponderhit_now(e);
    }
    pthread_mutex_unlock(&e->lock);
    return pondering ? 0 : -1;
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
    assert(!e->running); /* the thread wrote its answer before it ended */
}

void proto_reap(mc_engine *e)
{
    if (e->live && !proto_running(e))
        proto_join_search(e, 0);
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
        assert(ws->n >= 0 && ws->n < PROTO_MAX_WORDS);
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

int proto_line_after(const proto_words *ws, const char *rest, int i, char *buf,
                     size_t n)
{
    assert(i >= 0 && i < ws->n && n > 0);
    const char *v = rest + (ws->w[i] - ws->base) + strlen(ws->w[i]);
    while (*v == ' ' || *v == '\t')
        v++;
    if (strlen(v) >= n)
        return -1;
    snprintf(buf, n, "%s", v);
    size_t len = strlen(buf);
    while (len && (buf[len - 1] == ' ' || buf[len - 1] == '\t'))
        buf[--len] = '\0';
    return 0;
}

/* ---- state ---- */

/* The player's options with `database` as its tables option and `book`
   as its book. */
static void file_opts(mc_player_opts *o, const char *database, const char *book)
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

void proto_reset_session(mc_engine *e, mc_session *s)
{
    mc_session_free(e->s);
    e->s = s;
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

/* ---- go ---- */

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
            k == PROTO_GO_DEPTH || k == PROTO_GO_MTG || k == PROTO_GO_NODES ? 1
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
    /* every number given is in its range; depth within the search's */
    assert(v[PROTO_GO_DEPTH] == -1 ||
           (v[PROTO_GO_DEPTH] >= 1 && v[PROTO_GO_DEPTH] <= 64));
    assert(v[PROTO_GO_NODES] == -1 || v[PROTO_GO_NODES] >= 1);
    return 0;
}

void proto_go_make(const long long v[PROTO_GO_NKEYS], int infinite, int ponder,
                   mc_go *go)
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

void mc_engine_tables_ready(mc_engine *e)
{
    __atomic_store_n(&e->tables_ready, 1, __ATOMIC_RELEASE);
}

int proto_start_search(mc_engine *e, const mc_go *limits, char *why, size_t n)
{
    mc_error err = {0, ""};
    if (mc_player_sync(e->pl, e->s, &err) != 0) {
        snprintf(why, n, "%s", err.msg);
        return -1;
    }
    /* Both dialects refuse go while a search is live. */
    assert(!e->live);
    /* The player is this thread's to change: tables built since it
       looked (mc_engine_tables_ready). */
    if (__atomic_exchange_n(&e->tables_ready, 0, __ATOMIC_ACQ_REL) &&
        strcmp(e->database, "default") == 0)
        mc_player_look_again(e->pl);
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

/* ---- the engine ---- */

mc_engine *proto_engine_new(mc_engine_out out, void *ctx,
                            const proto_dialect *dialect)
{
    mc_engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->out = out;
    e->ctx = ctx;
    e->dialect = dialect;
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

static void engine_finish(mc_engine *e)
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

/* Why a line is no command: too long or with a control character (the
   error line is written); 0 when it may be split. */
static int bad_line(mc_engine *e, const char *line, size_t len)
{
    const char *error = e->dialect->error;
    if (len > MC_PROTOCOL_LINE_MAX) {
        proto_say(e, "%s line too long (more than %d bytes)", error,
                  MC_PROTOCOL_LINE_MAX);
        return -1;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if ((c < 32 && c != '\t') || c == 127) {
            proto_say(e, "%s control character (byte %u) at column %zu", error,
                      c, i + 1);
            return -1;
        }
    }
    return 0;
}

static int engine_line(mc_engine *e, const char *line, size_t len)
{
    const char *error = e->dialect->error;
    e->line_start = mc_clock();
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    if (bad_line(e, line, len) != 0)
        return 0;
    assert(len <= MC_PROTOCOL_LINE_MAX);
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
    assert(ws->n >= 1 && ws->n <= PROTO_MAX_WORDS);
    rc = e->dialect->command(e, ws, rest);
out:
    free(buf);
    free(rest);
    free(ws);
    return rc;
}

/* The protocol's lines are read by programs: English whatever language the
   calling thread chose for players (its search thread starts in English). */
int mc_engine_line(mc_engine *e, const char *line, size_t len)
{
    mc_i18n_english_begin();
    int rc = engine_line(e, line, len);
    mc_i18n_english_end();
    return rc;
}

int mc_engine_step(mc_engine *e)
{
    mc_i18n_english_begin();
    int rc = engine_step(e);
    mc_i18n_english_end();
    return rc;
}

void mc_engine_finish(mc_engine *e)
{
    mc_i18n_english_begin();
    engine_finish(e);
    mc_i18n_english_end();
}
