/*
 * player.c - the computer player that keeps its mind between moves
 * (mancala.h, "the player"): its own copy of the game and history, one
 * transposition table allocated once, one search worker per thread (Lazy
 * SMP: every thread searches the same root over the shared table, worker 0
 * keeps the time and chooses), the clock, and the Oware endgame tables,
 * which also decide the root moves where they know the value.  mc_search
 * is a player made for one search.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mancala_egdb.h"
#include "../games/game.h"
#include "../core/util.h"
#include "search_internal.h"
#include "book.h"
#include "player.h"

struct mc_player {
    mc_game *g;
    mc_session *s;
    mc_player_opts o;
    mc_search_tuning tune; /* o.tuning's copy, or the defaults */
    int tt_mb;
    mc_tt tt;
    mc_worker *w[MC_MAX_THREADS];
    int nworkers;
    /* tables */
    char tables_opt[4096]; /* o.tables as given ("" for NULL) */
    char tables_dir[4096]; /* where the open tables are */
    mc_egdb *db;
    mc_solved *solved; /* a solved game's tables (retro.c) */
    mc_book_use book;  /* the opening book (book.c) */
    /* one search */
    atomic_int stop;
    mc_think think;
    unsigned char allow[MC_MAX_MOVES];
};

double mc_clock(void)
{
    return mc_now();
}

int mc_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MC_MAX_THREADS ? MC_MAX_THREADS : (int)n;
}

/* ---- tables ---- */

static void close_tables(mc_player *pl)
{
    mc_egdb_close(pl->db);
    pl->db = NULL;
    mc_solved_close(pl->solved);
    pl->solved = NULL;
    pl->tables_dir[0] = '\0';
}

/* Open the tables o->tables asks for (for a game that has them). */
static int open_tables(mc_player *pl, const char *want, mc_error *err)
{
    close_tables(pl);
    snprintf(pl->tables_opt, sizeof pl->tables_opt, "%s", want ? want : "");
    if (want && strcmp(want, "none") == 0)
        return 0;
    mc_error e2 = {0, ""};
    char name[32];
    if (mc_solved_name(pl->g, name, sizeof name, NULL) == 0) {
        /* A solved game: its tables where they are, none is no error. */
        if (!want) {
            pl->solved = mc_solved_open_default(pl->g, pl->tables_dir,
                                                sizeof pl->tables_dir, &e2);
            if (!pl->solved)
                pl->tables_dir[0] = '\0';
            return 0;
        }
        pl->solved = mc_solved_open(pl->g, want, -1, err);
        if (!pl->solved)
            return err ? err->code : MC_ERR_IO;
        snprintf(pl->tables_dir, sizeof pl->tables_dir, "%s", want);
        return 0;
    }
    int preset = mc_egdb_preset_of(pl->g, &e2);
    if (preset < 0)
        return 0; /* no tables for these rules: nothing to use */
    if (!want) {
        pl->db = mc_egdb_open_default(preset, pl->tables_dir,
                                      sizeof pl->tables_dir, &e2);
        if (!pl->db)
            pl->tables_dir[0] = '\0';
        return 0; /* none in the default places is no error */
    }
    pl->db = mc_egdb_open(want, preset, -1, err);
    if (!pl->db)
        return err ? err->code : MC_ERR_IO;
    snprintf(pl->tables_dir, sizeof pl->tables_dir, "%s", want);
    return 0;
}

void mc_player_look_again(mc_player *pl)
{
    if (pl->tables_opt[0] == '\0')
        open_tables(pl, NULL, NULL);
}

const char *mc_player_tables(const mc_player *pl)
{
    return pl->db || pl->solved ? pl->tables_dir : NULL;
}

const struct mc_solved *mc_player_solved(const mc_player *pl)
{
    return pl->solved;
}

/* Perfect play from a solved game's tables: the move, its score, and its
   line (perfect play on, until the game ends or 64 plies). */
static int solved_go(mc_player *pl, mc_search_info *out)
{
    const mc_pos *p = mc_session_pos(pl->s);
    int v, d;
    mc_move m;
    if (!mc_solved_best(pl->solved, p, &m, &v, &d))
        return 0;
    out->best = m;
    out->score = mc_solved_score(pl->solved, v, d, 0);
    out->solved = 1;
    out->plies = d;
    out->value = v;
    out->depth = 0;
    out->nodes = 0;
    out->threads = 1;
    mc_pos q = *p;
    out->pvlen = 0;
    while (out->pvlen < 64) {
        mc_move b;
        if (!mc_solved_best(pl->solved, &q, &b, NULL, NULL))
            break;
        out->pv[out->pvlen++] = b;
        mc_play(pl->g, &q, b, NULL);
        mc_result r;
        mc_hist h = {1, 0, 0};
        mc_status(pl->g, &q, &h, &r);
        if (r.over)
            break;
    }
    assert(out->pvlen >= 1 && out->pvlen <= 64 && out->pv[0] == m);
    return 1;
}

const struct mc_egdb *mc_player_egdb(const mc_player *pl)
{
    return pl->db;
}

const struct mc_book *mc_player_book(const mc_player *pl)
{
    return pl->book.book;
}

/* ---- making and setting ---- */

static int clamp_threads(int n)
{
    return n < 1 ? 1 : n > MC_MAX_THREADS ? MC_MAX_THREADS : n;
}

mc_player *mc_player_new(const mc_game *g, const mc_player_opts *o,
                         mc_error *err)
{
    mc_player *pl = calloc(1, sizeof *pl);
    if (!pl) {
        mc_err(err, MC_ERR_NOMEM, _("out of memory"));
        return NULL;
    }
    mc_player_opts zero = {0};
    if (!o)
        o = &zero;
    pl->g = mc_game_dup(g, err);
    pl->s = pl->g ? mc_session_new(pl->g, NULL) : NULL;
    pl->w[0] = pl->s ? mc_worker_new(pl->g, 0) : NULL;
    if (!pl->w[0]) {
        mc_err(err, MC_ERR_NOMEM, _("out of memory"));
        mc_player_free(pl);
        return NULL;
    }
    pl->nworkers = 1;
    pl->tt_mb = -1;
    /* tables_opt starts unlike any request, so that they are opened */
    snprintf(pl->tables_opt, sizeof pl->tables_opt, "\001");
    mc_book_use_init(&pl->book);
    if (mc_player_set_opts(pl, o, err) != 0) {
        mc_player_free(pl);
        return NULL;
    }
    return pl;
}

void mc_player_free(mc_player *pl)
{
    if (!pl)
        return;
    for (int i = 0; i < pl->nworkers; i++)
        mc_worker_free(pl->w[i]);
    mc_tt_free(&pl->tt);
    close_tables(pl);
    mc_book_use_free(&pl->book);
    mc_session_free(pl->s);
    mc_game_free(pl->g);
    free(pl);
}

int mc_player_set_opts(mc_player *pl, const mc_player_opts *o, mc_error *err)
{
    int mb = o->hash_mb > 0 ? o->hash_mb : 16;
    if (o->level < 0 || o->level > 10)
        return mc_err(err, MC_ERR_ARG, _("the level is 1 to 10, not %d"),
                      o->level);
    if (o->threads < 0 || o->threads > MC_MAX_THREADS)
        return mc_err(err, MC_ERR_ARG, _("threads are 1 to %d, not %d"),
                      MC_MAX_THREADS, o->threads);
    if (o->book_variety < 0)
        return mc_err(err, MC_ERR_ARG,
                      _("the book variety is 0 or more, "
                        "not %d"),
                      o->book_variety);
    int brc = mc_book_use_set(&pl->book, pl->g, o->book, o->seed, err);
    if (brc != 0)
        return brc;
    const char *want = o->tables;
    if (strcmp(want ? want : "", pl->tables_opt) != 0 ||
        (want == NULL) != (pl->tables_opt[0] == '\0')) {
        int rc = open_tables(pl, want, err);
        if (rc != 0)
            return rc;
    }
    if (mb != pl->tt_mb) {
        if (mc_tt_resize(&pl->tt, mb) != 0) {
            pl->tt_mb = -1;
            return mc_err(err, MC_ERR_NOMEM,
                          _("out of memory for a %d MiB table"), mb);
        }
        pl->tt_mb = mb;
    }
    assert(pl->tt_mb == mb && pl->tt.slot != NULL);
    pl->o = *o;
    pl->o.tables = NULL; /* not kept: the caller's strings */
    pl->o.book = NULL;
    if (o->tuning)
        pl->tune = *o->tuning;
    else
        mc_search_tuning_init(&pl->tune);
    pl->o.tuning = NULL;
    return 0;
}

void mc_player_set_seed(mc_player *pl, uint64_t seed)
{
    pl->o.seed = seed;
    mc_book_use_seed(&pl->book, seed);
}

void mc_player_newgame(mc_player *pl)
{
    mc_tt_clear(&pl->tt);
    for (int i = 0; i < pl->nworkers; i++)
        mc_worker_clear(pl->w[i]);
}

int mc_player_sync(mc_player *pl, const mc_session *s, mc_error *err)
{
    if (strcmp(mc_game_spec(mc_session_game(s)), mc_game_spec(pl->g)) != 0)
        return mc_err(err, MC_ERR_ARG, _("the player plays %s, not %s"),
                      mc_game_spec(pl->g), mc_game_spec(mc_session_game(s)));
    mc_session *c = mc_session_new(pl->g, mc_session_pos_at(s, 0));
    if (!c)
        return mc_err(err, MC_ERR_NOMEM, _("out of memory"));
    for (int i = 0; i < mc_session_ply(s); i++) {
        mc_move m = mc_session_move_at(s, i);
        int rc = m == MC_MOVE_PASS ? mc_session_pass_turn(c, err)
                                   : mc_session_play(c, m, NULL, err);
        if (rc != 0) {
            mc_session_free(c);
            return rc;
        }
    }
    mc_result r;
    mc_session_result(s, &r);
    if (r.over && (r.reason == MC_END_RESIGN || r.reason == MC_END_TIME))
        mc_session_forfeit(c, r.winner == MC_SOUTH ? MC_NORTH : MC_SOUTH,
                           r.reason);
    mc_session_free(pl->s);
    pl->s = c;
    /* the copy is the caller's game: the same position, the same moves */
    assert(mc_session_ply(c) == mc_session_ply(s) &&
           mc_hash(pl->g, mc_session_pos(c)) ==
               mc_hash(pl->g, mc_session_pos(s)));
    return 0;
}

const mc_session *mc_player_session(const mc_player *pl)
{
    return pl->s;
}

void mc_player_stop(mc_player *pl)
{
    atomic_store(&pl->stop, 1);
}

void mc_player_ponderhit(mc_player *pl)
{
    long long ns = (long long)(mc_now() * 1e9);
    atomic_store(&pl->think.ponderhit_ns, ns > 0 ? ns : 1);
}

/* ---- the root moves the tables choose ---- */

/* The final seed difference after child position c (from the view of
   `me`), as far as the tables or the game's end tell; 0 when unknown. */
static int child_value(mc_player *pl, mc_worker *w, int i, int me, int *diff)
{
    mc_kids *rk = &w->kid[0];
    int k = w->root;
    w->l.pos[k + 1] = rk->pos[i];
    mc_line_link(&w->l, w->g, k, rk->flags[i]);
    mc_hist h;
    mc_result r;
    mc_line_hist(&w->l, k + 1, &h);
    mc_status(w->g, &rk->pos[i], &h, &r);
    if (r.over) {
        *diff = (r.score2[me] - r.score2[1 - me]) / 2;
        return 1;
    }
    /* Its value for a fresh start (exact right after a capture or where
       the entry is history-proof, else right unless the line comes back
       to a position played before). */
    const mc_pos *c = &rk->pos[i];
    int v, hp;
    if (!mc_egdb_probe(pl->db, c, &v, &hp))
        return 0;
    int cm = c->side == MC_NORTH;
    int d = (int)c->cap[cm] - (int)c->cap[1 - cm] + v;
    *diff = c->side == me ? d : -d;
    return 1;
}

/* When the tables know the root's value, allow only the moves that keep
   it (none filtered when no move provably does). */
static const unsigned char *root_filter(mc_player *pl, const mc_request *rq,
                                        mc_worker *w)
{
    if (!pl->db || rq->exact || (pl->o.level > 0 && pl->o.level < 10))
        return NULL;
    const mc_pos *p = &w->l.pos[w->root];
    int fresh = w->l.wstart[w->root] == w->root, best;
    if (mc_egdb_lookup(pl->db, p, fresh, &best) != MC_EGDB_EXACT)
        return NULL;
    mc_kids *rk = &w->kid[0];
    int n = mc_moves(w->g, p, rk->mv), kept = 0;
    assert(n >= 0 && n <= MC_MAX_MOVES);
    if (mc_line_grow(&w->l, w->root + 2) != 0)
        return NULL;
    for (int i = 0; i < n; i++) {
        rk->pos[i] = *p;
        rk->flags[i] = mc_play(w->g, &rk->pos[i], rk->mv[i], NULL);
        int d;
        pl->allow[i] = child_value(pl, w, i, p->side, &d) && d == best;
        kept += pl->allow[i];
    }
    return kept ? pl->allow : NULL;
}

/* The final seed difference from the view of p's mover as the tables
   tell it (the stores and the value of the seeds on the board), or the
   game's end; 0 when the tables do not hold p. */
static int table_value(const mc_egdb *db, const mc_game *g, const mc_pos *p,
                       int *diff)
{
    mc_result r;
    mc_status(g, p, NULL, &r);
    int me = p->side;
    if (r.over) {
        *diff = (r.score2[me] - r.score2[1 - me]) / 2;
        return 1;
    }
    int v, hp;
    if (!mc_egdb_probe(db, p, &v, &hp))
        return 0;
    *diff = (int)p->cap[me] - (int)p->cap[1 - me] + v;
    return 1;
}

/* A line that ends in the tables goes on with the moves that keep the
   table's value, until the game ends, a position repeats, or 64 moves
   (the distance to the end is not in the tables: the line is one way to
   get there, not the fastest). */
static void table_pv(void *ctx, const mc_game *g, const mc_pos *root,
                     mc_search_info *out)
{
    const mc_egdb *db = ctx;
    mc_pos p = *root;
    uint64_t seen[64];
    int nseen = 0;
    for (int i = 0; i < out->pvlen; i++) {
        seen[nseen++] = mc_hash(g, &p);
        mc_play(g, &p, out->pv[i], NULL);
    }
    int here;
    while (out->pvlen < 64 && table_value(db, g, &p, &here)) {
        mc_result r;
        mc_status(g, &p, NULL, &r);
        if (r.over)
            return;
        uint64_t key = mc_hash(g, &p);
        for (int j = 0; j < nseen; j++)
            if (seen[j] == key)
                return;
        seen[nseen++] = key;
        mc_move mv[MC_MAX_MOVES];
        int n = mc_moves(g, &p, mv), pick = -1, best = -1000;
        for (int i = 0; i < n; i++) {
            mc_pos c = p;
            mc_play(g, &c, mv[i], NULL);
            int d;
            if (!table_value(db, g, &c, &d))
                continue;
            d = c.side == p.side ? d : -d;
            if (d > best) {
                best = d;
                pick = i;
            }
        }
        if (pick < 0)
            return;
        out->pv[out->pvlen++] = mv[pick];
        mc_play(g, &p, mv[pick], NULL);
    }
    assert(out->pvlen <= 64);
}

/* ---- one request, made at the public edge ---- */

void mc_request_of_go(const mc_go *go, int side, mc_request *rq)
{
    assert(side == MC_SOUTH || side == MC_NORTH);
    memset(rq, 0, sizeof *rq);
    rq->depth = go->depth;
    rq->nodes = go->nodes;
    rq->movetime = go->movetime;
    for (int sd = 0; sd < 2; sd++) {
        rq->clock[sd] = go->clock[sd];
        rq->inc[sd] = go->inc[sd];
    }
    rq->movestogo = go->movestogo;
    rq->infinite = go->infinite;
    rq->ponder = go->ponder;
    rq->start = go->start > 0 ? go->start : mc_now();
    rq->on_info = go->on_info;
    rq->info_ctx = go->info_ctx;
    rq->stop = go->stop;
    /* Nothing limits the mover (a zeroed mc_go, or only the other side's
       clock): mc_go's default. */
    if (!rq->depth && !rq->nodes && rq->movetime <= 0 && rq->clock[side] <= 0 &&
        !rq->infinite && !rq->ponder)
        rq->movetime = MC_GO_DEFAULT_MOVETIME;
}

void mc_request_of_limits(const mc_search_limits *lim, mc_request *rq)
{
    memset(rq, 0, sizeof *rq);
    rq->depth = lim->depth;
    rq->nodes = lim->nodes;
    rq->movetime = lim->seconds;
    rq->start = mc_now();
    rq->on_info = lim->on_info;
    rq->info_ctx = lim->info_ctx;
    rq->stop = lim->stop;
    rq->exact = lim->exact;
    rq->oracle = lim->oracle;
    rq->oracle_ctx = lim->oracle_ctx;
}

/* ---- thinking ---- */

static void *helper_main(void *arg)
{
    mc_worker *w = arg;
    mc_work_limit_set(w->t->work_limit);
    w->rc = mc_worker_think(w);
    return NULL;
}

/* Workers 0..n-1, each helper with its own game (caches are per game). */
static int ensure_workers(mc_player *pl, int n)
{
    while (pl->nworkers < n) {
        mc_game *g = mc_game_dup(pl->g, NULL);
        mc_worker *w = g ? mc_worker_new(g, 1) : NULL;
        if (!w) {
            mc_game_free(g);
            return -1;
        }
        w->id = pl->nworkers;
        pl->w[pl->nworkers++] = w;
    }
    assert(pl->nworkers >= n && pl->nworkers <= MC_MAX_THREADS);
    assert(pl->w[0]->id == 0 &&
           pl->w[pl->nworkers - 1]->id == pl->nworkers - 1);
    return 0;
}

/* The level searched: 1..9, or 10 for full strength (0 and 10). */
static int level_of(const mc_player *pl)
{
    return pl->o.level > 0 && pl->o.level < 10 ? pl->o.level : 10;
}

/* A move without a search: from the opening book, or perfect play from a
   solved game's tables at full strength (an infinite analysis searches
   on, with the tables inside the tree).  1 with *out, else 0. */
static int answer_unsearched(mc_player *pl, const mc_request *rq,
                             mc_search_info *out)
{
    if (rq->exact)
        return 0;
    if (mc_book_use_go(&pl->book, pl->g, pl->s, &pl->o, rq->infinite, out)) {
        out->seconds = mc_now() - rq->start;
        return 1;
    }
    if (pl->solved && !rq->infinite && !rq->ponder && level_of(pl) == 10 &&
        solved_go(pl, out)) {
        out->seconds = mc_now() - rq->start;
        if (rq->on_info)
            rq->on_info(out, rq->info_ctx);
        return 1;
    }
    return 0;
}

/* The limits of an alpha-beta search at `level`: depth, nodes and time,
   each level below full strength also halving the budget of the one
   above, so that a level is stronger than the one below under any limit
   (depth caps alone do not bite under a small node or time budget). */
static void think_limits(mc_think *t, const mc_request *rq, int side, int level)
{
    t->max_depth = rq->depth > 0 ? rq->depth : 64;
    if (t->max_depth > MC_MAX_PLY - 2)
        t->max_depth = MC_MAX_PLY - 2;
    if (level < 10 && t->max_depth > 2 * level - 1)
        t->max_depth = 2 * level - 1;
    double scale = level < 10 ? 1.0 / (double)(1u << (10 - level)) : 1.0;
    t->node_limit = rq->nodes;
    if (level < 10 && rq->nodes) {
        t->node_limit >>= 10 - level;
        if (t->node_limit < 64)
            t->node_limit = 64;
    }
    mc_tm_of_request(&t->tm, rq, side, scale);
    t->timed = !rq->infinite && t->tm.hard > 0;
    atomic_store(&t->ponder, rq->ponder ? 1 : 0);
    assert(t->max_depth >= 1 && t->max_depth <= MC_MAX_PLY - 2);
}

/* What knows exact values inside the tree: the request's oracle, else the
   player's endgame tables (whose lines then go on in the tables), or a
   solved game's at full strength. */
static void think_oracle(mc_player *pl, mc_think *t, const mc_request *rq,
                         int level)
{
    t->oracle = rq->oracle;
    t->oracle_ctx = rq->oracle_ctx;
    if (pl->db && !rq->oracle) {
        t->oracle = mc_egdb_oracle;
        t->oracle_ctx = pl->db;
    }
    if (pl->solved && !rq->oracle && level == 10) {
        t->oracle = mc_solved_oracle;
        t->oracle_ctx = pl->solved;
    }
    t->pv_more = pl->db && !rq->oracle ? table_pv : NULL;
    t->pv_ctx = pl->db;
}

/* The think of one alpha-beta search, shared by its threads. */
static void think_setup(mc_player *pl, const mc_request *rq, int level,
                        int threads)
{
    mc_think *t = &pl->think;
    t->tt = &pl->tt;
    t->stop = &pl->stop;
    t->outside_stop = rq->stop;
    t->work_limit = mc_work_limit();
    t->level = level;
    t->exact = rq->exact;
    t->tune = pl->tune;
    think_limits(t, rq, mc_session_pos(pl->s)->side, level);
    think_oracle(pl, t, rq, level);
    t->seed = pl->o.seed;
    t->nthreads = threads;
    t->workers = pl->w;
    t->on_info = rq->on_info;
    t->info_ctx = rq->info_ctx;
    mc_tt_new_search(&pl->tt);
    atomic_store(&t->done_depth, 0);
}

/* Worker 0 thinks on this thread, helpers 1..threads-1 on their own;
   when worker 0 is done, the others are stopped and joined.  Returns
   worker 0's code; *started: the threads that searched; *nodes: all
   their nodes. */
static int run_workers(mc_player *pl, int threads, int *started,
                       uint64_t *nodes)
{
    mc_think *t = &pl->think;
    pthread_t th[MC_MAX_THREADS];
    int n = 1;
    assert(threads >= 1 && threads <= pl->nworkers);
    for (int i = 1; i < threads; i++) {
        if (pthread_create(&th[i], NULL, helper_main, pl->w[i]) != 0)
            break;
        n++;
    }
    t->nthreads = n;
    int rc = mc_worker_think(pl->w[0]);
    atomic_store(&pl->stop, 1);
    *nodes = pl->w[0]->nodes;
    for (int i = 1; i < n; i++) {
        pthread_join(th[i], NULL);
        *nodes += pl->w[i]->nodes;
    }
    *started = n;
    return rc;
}

/* The answer is the deepest finished iteration's, the main thread's on a
   tie (a helper's lines are not shown as it goes: show it). */
static void pick_answer(mc_player *pl, const mc_request *rq, int started,
                        uint64_t nodes, mc_search_info *out)
{
    int pick = 0;
    assert(started >= 1 && started <= pl->nworkers);
    for (int i = 1; i < started; i++)
        if (pl->w[i]->rc == 0 && pl->w[i]->out.depth > pl->w[pick]->out.depth)
            pick = i;
    *out = pl->w[pick]->out;
    out->nodes = nodes;
    out->seconds = mc_now() - rq->start;
    out->threads = started;
    out->hashfull = mc_tt_hashfull(&pl->tt);
    if (pick != 0 && rq->on_info)
        rq->on_info(out, rq->info_ctx);
}

/* Alpha-beta on one thread per worker (Lazy SMP; one below full strength
   and in proofs). */
static int think_ab(mc_player *pl, const mc_request *rq, mc_search_info *out)
{
    int level = level_of(pl);
    int threads = level < 10 || rq->exact ? 1 : clamp_threads(pl->o.threads);
    if (ensure_workers(pl, threads) != 0)
        return MC_ERR_NOMEM;
    think_setup(pl, rq, level, threads);
    for (int i = 0; i < threads; i++) {
        pl->w[i]->t = &pl->think;
        if (mc_worker_load(pl->w[i], pl->s) != 0)
            return MC_ERR_NOMEM;
    }
    pl->think.root_allow = root_filter(pl, rq, pl->w[0]);
    int started;
    uint64_t nodes;
    int rc = run_workers(pl, threads, &started, &nodes);
    pick_answer(pl, rq, started, nodes, out);
    return rc;
}

int mc_player_think(mc_player *pl, const mc_request *rq, mc_search_info *out)
{
    /* A stop meant for an earlier search does not end this one, nor does
       a ponderhit that came before this move was asked for: it was for a
       search that had already answered (a book move held until then). */
    atomic_store(&pl->stop, 0);
    long long hit = atomic_load(&pl->think.ponderhit_ns);
    if (hit != 0 && (double)hit * 1e-9 < rq->start)
        atomic_compare_exchange_strong(&pl->think.ponderhit_ns, &hit, 0);
    memset(out, 0, sizeof *out);
    if (mc_session_over(pl->s))
        return MC_ERR_OVER;
    int rc = 0;
    int algo = pl->o.algo;
    if (algo == MC_ALGO_AUTO)
        algo = pl->g->rules->prefer_mcts ? MC_ALGO_MCTS : MC_ALGO_AB;
    if (answer_unsearched(pl, rq, out))
        rc = 0;
    else if (algo == MC_ALGO_MCTS && !rq->exact)
        rc = mc_mcts(pl->s, rq, pl->o.seed, &pl->stop, out);
    else
        rc = think_ab(pl, rq, out);
    assert(rc != 0 || (out->pvlen >= 0 && out->pvlen <= 64));
    /* Nothing of this search reaches the next: its stop, its ponderhit. */
    atomic_store(&pl->stop, 0);
    atomic_store(&pl->think.ponderhit_ns, 0);
    return rc;
}

int mc_player_go(mc_player *pl, const mc_go *go, mc_search_info *out)
{
    mc_request rq;
    mc_request_of_go(go, mc_session_pos(pl->s)->side, &rq);
    return mc_player_think(pl, &rq, out);
}

/* ---- one search ---- */

void mc_search_tuning_init(mc_search_tuning *t)
{
    memset(t, 0, sizeof *t);
    t->lmr = 2;
    t->prune = MC_PRUNE_RFP | MC_PRUNE_QS;
    t->rfp_margin = 150;
    t->rfp_depth = 3;
}

int mc_search(const mc_session *s, const mc_search_limits *lim,
              mc_search_info *out)
{
    memset(out, 0, sizeof *out);
    mc_request rq;
    mc_request_of_limits(lim, &rq);
    int algo = lim->algo;
    if (algo == MC_ALGO_AUTO)
        algo =
            mc_session_game(s)->rules->prefer_mcts ? MC_ALGO_MCTS : MC_ALGO_AB;
    if (algo == MC_ALGO_MCTS && !rq.exact)
        return mc_mcts(s, &rq, lim->seed, NULL, out);
    if (mc_session_over(s))
        return MC_ERR_OVER;
    mc_player_opts o = {0};
    o.level = lim->level;
    o.hash_mb = lim->hash_mb;
    o.threads = 1;
    o.algo = MC_ALGO_AB;
    o.seed = lim->seed;
    o.tables = "none";
    o.book = "none";
    o.tuning = lim->tuning;
    mc_player *pl = mc_player_new(mc_session_game(s), &o, NULL);
    if (!pl)
        return MC_ERR_NOMEM;
    int rc = mc_player_sync(pl, s, NULL);
    if (rc == 0) {
        /* The time counts from now: the table's allocation is not the
           search's. */
        rq.start = mc_now();
        rc = mc_player_think(pl, &rq, out);
    } else {
        rc = MC_ERR_ARG;
    }
    mc_player_free(pl);
    return rc;
}
