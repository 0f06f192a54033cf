/*
 * retro.c - strong solutions of the games that say how (mc_rules.retro):
 * a layer per number of seeds on the board, one value per board of the
 * mover's frame, built bottom-up by retrograde analysis over the game's
 * own moves (docs/SOLVED.md).
 *
 * A layer: the forward pass plays every move of every board through the
 * rules (so tables and game cannot disagree): moves that capture or end
 * the game are exits, valued from the layers below; the others stay in
 * the layer and become links, stored reversed (each board's
 * predecessors).  Then the threshold sweep: for t = T .. 1, W_t (the
 * mover forces a margin of t or more in finite play) and L_t (the
 * opponent forces -t or less) grow as attractors, seeded by the exits and
 * propagated along the reversed links.  Endless play is worth 0 (an
 * endless game divides the board equally, or is a draw), so a board's
 * value is t where it first enters W, -t where it first enters L, else 0
 * (median(P, 0, O) of shared/EGDB.md).  Last the plies to settle: from
 * a board worth t != 0, how long perfect play takes until the game ends
 * or reaches a board worth nothing more (the winner taking the fastest of
 * its best moves, the loser the slowest), by Dijkstra's method over the
 * same reversed links; it is what makes the won positions progress.  The
 * files are the Oware layers' format (file.c) with the game's kind and 3
 * bytes an entry: the value + 64, then the plies (16 bits, little-endian).
 *
 * Above the complete layers, start layers (`<game>-<name>-start-NN.egdb`)
 * hold only the boards that play from the game's start reaches: found
 * top-down first (a bitmap of each layer's boards, the rules played from
 * the start), then solved bottom-up like a complete layer over that
 * subset, which is closed under the moves.  Their entries are 8 bytes:
 * value + 64, plies, and the board's rank in its layer (40 bits,
 * little-endian), in increasing order of rank.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../core/util.h"
#include "../games/game.h"
#include "egdb_int.h"

#define RT_BUILDER_VERSION 1
#define RT_SCHEME 2   /* lexicographic over the retro's houses, mover-first */
#define RT_ENCODING 3 /* value + 64, then plies to settle (uint16 LE) */
#define RT_WIDTH 3
#define RT_SENCODING 4 /* start layers: value, plies, rank (40 bits LE) */
#define RT_SWIDTH 8
#define RT_MAX_PLIES 65534
#define ST_DONE 0x40
#define ST_W 0x40
#define ST_L 0x80
#define ST_CNT 0x3f

struct mc_solved {
    mc_game *g;
    const mc_retro *rt;
    char name[32], spec[128];
    eg_kind kind, skind; /* complete layers, start layers */
    int max;             /* layers 0..max open */
    int full;            /* of which 0..full complete; above, start layers */
    /* The start layer being built: its ranks, in order. */
    int curn;
    const uint64_t *cur;
    uint64_t ncur;
    const uint8_t *data[MC_EGDB_MAX_SEEDS + 1];
    void *map[MC_EGDB_MAX_SEEDS + 1];
    size_t maplen[MC_EGDB_MAX_SEEDS + 1];
    mc_egdb_info info[MC_EGDB_MAX_SEEDS + 1];
};

/* ---- names ------------------------------------------------------------ */

static const mc_retro *retro_of(const mc_game *g)
{
    return g && g->rules ? g->rules->retro : NULL;
}

int mc_solved_name(const mc_game *g, char *name, size_t n, mc_error *err)
{
    const mc_retro *rt = retro_of(g);
    if (!rt)
        return mc_err(err, MC_ERR_SPEC,
                      "%s has no solved tables (the solvable games: gore "
                      "with trades=off)",
                      g ? mc_game_name(g) : "(no game)");
    return rt->solvable(g, name, n, err);
}

int mc_solved_max_seeds(const mc_game *g)
{
    const mc_retro *rt = retro_of(g);
    return rt ? rt->max_seeds : -1;
}

int mc_solved_wdl(const mc_game *g)
{
    const mc_retro *rt = retro_of(g);
    return rt ? rt->wdl : 0;
}

uint64_t mc_solved_layer_size(const mc_game *g, int n)
{
    const mc_retro *rt = retro_of(g);
    return rt && n <= rt->max_seeds ? eg_layer_size_k(rt->houses, n) : 0;
}

void mc_solved_path(const mc_game *g, const char *dir, int n, char *buf,
                    size_t sz)
{
    char name[32] = "?";
    if (mc_solved_name(g, name, sizeof name, NULL) != 0)
        snprintf(name, sizeof name, "?");
    snprintf(buf, sz, "%s/%s-%s-%02d.egdb", dir && *dir ? dir : ".",
             mc_game_name(g), name, n);
}

/* The kind (file.c) of g's tables; the strings live in s. */
static int solved_init(mc_solved *s, const mc_game *g, mc_error *err)
{
    memset(s, 0, sizeof *s);
    if (mc_solved_name(g, s->name, sizeof s->name, err) != 0)
        return MC_ERR_SPEC;
    s->g = mc_game_new(mc_game_spec(g), err);
    if (!s->g)
        return MC_ERR_SPEC;
    s->rt = retro_of(s->g);
    /* The rules string: every option, spelled out. */
    eg_spell_spec(g, s->rt->keys, s->spec, sizeof s->spec);
    s->kind.game = mc_game_name(g);
    s->kind.preset = s->name;
    s->kind.scheme = RT_SCHEME;
    s->kind.houses = s->rt->houses;
    s->kind.spec = s->spec;
    s->kind.width = RT_WIDTH;
    s->kind.encoding = RT_ENCODING;
    s->skind = s->kind;
    s->skind.width = RT_SWIDTH;
    s->skind.encoding = RT_SENCODING;
    s->skind.sparse = 1;
    s->max = s->full = s->curn = -1;
    return 0;
}

static void solved_unmap(mc_solved *s)
{
    for (int n = 0; n <= MC_EGDB_MAX_SEEDS; n++) {
        if (s->map[n])
            munmap(s->map[n], s->maplen[n]);
        s->map[n] = NULL;
        s->data[n] = NULL;
    }
}

static inline int rt_width(const mc_solved *s, int n)
{
    return n > s->full ? RT_SWIDTH : RT_WIDTH;
}

static inline int rt_value(const mc_solved *s, int n, uint64_t x)
{
    return eg_val(s->data[n][(uint64_t)rt_width(s, n) * x]);
}

static inline int rt_plies(const mc_solved *s, int n, uint64_t x)
{
    const uint8_t *e = s->data[n] + (uint64_t)rt_width(s, n) * x;
    return e[1] | e[2] << 8;
}

static inline uint64_t srank(const uint8_t *e)
{
    uint64_t r = 0;
    for (int i = 4; i >= 0; i--)
        r = r << 8 | e[3 + i];
    return r;
}

/* The rank of entry x of layer n. */
static inline uint64_t rt_rank(const mc_solved *s, int n, uint64_t x)
{
    return n > s->full ? srank(s->data[n] + RT_SWIDTH * x) : x;
}

/* The entry of the board of rank r in layer n: r in a complete layer;
   in a start layer (or the one being built), found by bisection; -1
   when the layer does not hold it. */
static int64_t rt_find(const mc_solved *s, int n, uint64_t r)
{
    if (n <= s->full)
        return (int64_t)r;
    uint64_t lo = 0, hi;
    if (n == s->curn) {
        hi = s->ncur;
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (s->cur[mid] < r)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo < s->ncur && s->cur[lo] == r ? (int64_t)lo : -1;
    }
    if (n > s->max || !s->data[n])
        return -1;
    hi = s->info[n].entries;
    uint64_t N = hi;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (srank(s->data[n] + RT_SWIDTH * mid) < r)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < N && srank(s->data[n] + RT_SWIDTH * lo) == r ? (int64_t)lo : -1;
}

static void start_path(const mc_solved *s, const char *dir, int n, char *buf,
                       size_t sz)
{
    snprintf(buf, sz, "%s/%s-%s-start-%02d.egdb", dir && *dir ? dir : ".",
             mc_game_name(s->g), s->name, n);
}

/* Map layer n (a start layer when start), checking its file and that it
   was built over the layers mapped below it. */
static int map_layer(mc_solved *s, const char *dir, int n, int start,
                     mc_error *err)
{
    char path[4096];
    if (start)
        start_path(s, dir, n, path, sizeof path);
    else
        mc_solved_path(s->g, dir, n, path, sizeof path);
    mc_egdb_info *in = &s->info[n];
    int rc = eg_map_file(path, start ? &s->skind : &s->kind, in, &s->data[n],
                         &s->map[n], &s->maplen[n], err);
    if (rc)
        return rc;
    if (in->n != n)
        rc = mc_err(err, MC_ERR_IO, "%s: holds layer %d", path, in->n);
    /* A start layer's boards: in increasing order, each in the layer. */
    uint64_t N = eg_layer_size_k(s->rt->houses, n);
    for (uint64_t x = 0; start && rc == 0 && x < in->entries; x++) {
        uint64_t r = srank(s->data[n] + RT_SWIDTH * x);
        if (r >= N || (x && r <= srank(s->data[n] + RT_SWIDTH * (x - 1))))
            rc = mc_err(err, MC_ERR_IO,
                        "%s: entry %llu: its board is out of order or not "
                        "in the layer",
                        path, (unsigned long long)x);
    }
    for (int i = 0; rc == 0 && i < n; i++)
        if (in->dep_sum[i] != s->info[i].payload_sum)
            rc = mc_err(err, MC_ERR_IO,
                        "%s: built over another layer %d (dependency "
                        "checksum mismatch)",
                        path, i);
    if (rc) {
        munmap(s->map[n], s->maplen[n]);
        s->map[n] = NULL;
        s->data[n] = NULL;
    }
    return rc;
}

/* ---- the forward pass ------------------------------------------------- */

typedef struct rt_move {
    int exit;       /* 1: leaves the layer (or ends the game) */
    int val;        /* exit: the mover's value */
    int plies;      /* exit: plies to settle through it (1 + the child's) */
    uint64_t child; /* in-layer: the child's rank */
} rt_move;

/* g's verdict on p with no history behind it (a fresh position). */
static void fresh_status(const mc_game *g, const mc_pos *p, mc_result *r)
{
    mc_hist hist;
    memset(&hist, 0, sizeof hist);
    hist.occurrences = 1;
    memset(r, 0, sizeof *r);
    g->rules->status(g, p, &hist, r);
}

/* A finished game's value for side me: 1, 0 or -1, or the final margin. */
static int over_value(const mc_retro *rt, const mc_result *r, int me)
{
    return rt->wdl ? (r->winner == MC_DRAW ? 0
                      : r->winner == me    ? 1
                                           : -1)
                   : (r->score2[me] - r->score2[1 - me]) / 2;
}

/* The moves of board h (n seeds), played in g (a game of s's spec that
   this thread alone uses: games keep caches): how many, or -1 with err when the
   game does something its retro says it cannot (seeds coming back, a
   position without a board).  *term: the board's own value when the game
   is already over there (then no moves). */
static int expand(const mc_solved *s, const mc_game *g, int n, const uint8_t *h,
                  rt_move *out, int *term, int *over, mc_error *err)
{
    const mc_retro *rt = s->rt;
    int k = rt->houses;
    mc_pos p;
    rt->from_board(g, h, &p);
    mc_result r;
    fresh_status(g, &p, &r);
    int me = p.side;
    int base = (int)p.cap[me] - (int)p.cap[1 - me];
    *over = r.over;
    if (r.over) {
        *term = over_value(rt, &r, me) - (rt->wdl ? 0 : base);
        return 0;
    }
    mc_move mv[MC_MAX_MOVES];
    int nm = g->rules->moves(g, &p, mv);
    for (int i = 0; i < nm; i++) {
        mc_pos q = p;
        g->rules->play(g, &q, mv[i], NULL);
        fresh_status(g, &q, &r);
        rt_move *m = &out[i];
        if (r.over) {
            m->exit = 1;
            m->val = over_value(rt, &r, me) - (rt->wdl ? 0 : base);
            m->plies = 1;
            continue;
        }
        uint8_t h2[MC_MAX_PITS];
        if (!rt->to_board(g, &q, h2))
            return mc_err(err, MC_ERR_ARG,
                          "a move leads out of the solved positions");
        int n2 = 0;
        for (int j = 0; j < k; j++)
            n2 += h2[j];
        uint64_t rank = eg_rank_k(h2, k);
        if (n2 > n || (n2 < n && !s->data[n2]))
            return mc_err(err, MC_ERR_ARG,
                          "a move from %d seeds leaves %d on the board", n, n2);
        int64_t c = rt_find(s, n2, rank);
        if (c < 0)
            return mc_err(err, MC_ERR_ARG,
                          "a move from %d seeds leads to a board of %d "
                          "seeds that the start layers do not hold",
                          n, n2);
        if (n2 == n) {
            m->exit = 0;
            m->child = (uint64_t)c;
            continue;
        }
        int gain = (int)q.cap[me] - (int)q.cap[1 - me] - base;
        int v = rt_value(s, n2, (uint64_t)c);
        m->exit = 1;
        m->val = rt->wdl ? -v : gain - v;
        m->plies = 1 + rt_plies(s, n2, (uint64_t)c);
    }
    return nm;
}

/* ---- the build of one layer ------------------------------------------- */

typedef struct rt_layer {
    const mc_solved *s;
    int n;
    uint64_t N;
    const uint64_t *ranks; /* a start layer's boards (NULL: every one) */
    int8_t *e;             /* best exit (EG_NO_EXIT: none) */
    _Atomic uint8_t *st;   /* in-layer links not yet in W, ST_W, ST_L */
    _Atomic uint64_t *off; /* predecessors: off[x-1] .. off[x] */
    uint32_t *pred;
    uint64_t E;            /* links */
    uint8_t *val;          /* entries: value + 64 */
    uint16_t *dmin, *dmax; /* plies through the best exits (0: over) */
    uint16_t *plies;       /* plies to settle */
    int t;                 /* the sweep's threshold */
    int threads;
    _Atomic uint64_t done;
    _Atomic int failed;
    mc_error err;
    pthread_mutex_t mu;
    mc_egdb_progress progress;
    void *ctx;
    const char *phase;
} rt_layer;

/* A growable list of positions (a layer indexes fewer than 2^32): a
   thread's stack in the sweep, a bucket of Dijkstra's method. */
typedef struct rt_vec {
    uint32_t *x;
    size_t n, cap;
} rt_vec;

/* The list x of n elements of sz bytes (*cap allocated) with room for
   one more: x itself or its reallocation, NULL out of memory (x kept). */
static void *vec_room(void *x, size_t n, size_t *cap, size_t sz)
{
    if (n < *cap)
        return x;
    size_t nc = *cap ? 2 * *cap : 4096;
    void *nx = realloc(x, nc * sz);
    if (nx)
        *cap = nc;
    return nx;
}

static int vec_push(rt_vec *v, uint64_t x)
{
    mc_hot_assert(x <= UINT32_MAX); /* build_layer refuses larger layers */
    uint32_t *nx = vec_room(v->x, v->n, &v->cap, sizeof *v->x);
    if (!nx)
        return -1;
    v->x = nx;
    v->x[v->n++] = (uint32_t)x;
    return 0;
}

typedef struct rt_job {
    rt_layer *L;
    mc_game *g; /* this thread's */
    int id;
    int pass; /* 0: exits and counts, 1: links, 2: sweep */
    rt_vec stack;
} rt_job;

static void job_fail(rt_layer *L, const mc_error *e)
{
    pthread_mutex_lock(&L->mu);
    if (!atomic_exchange(&L->failed, 1))
        L->err = *e;
    pthread_mutex_unlock(&L->mu);
}

static inline uint64_t pred_lo(const rt_layer *L, uint64_t x)
{
    return x ? atomic_load_explicit(&L->off[x - 1], memory_order_relaxed) : 0;
}

/* Claim x for W (flag ST_W) or L at threshold t; 1 when this call did. */
static inline int claim(rt_layer *L, uint64_t x, uint8_t flag, int v)
{
    uint8_t old = atomic_fetch_or(&L->st[x], flag);
    if (old & (ST_W | ST_L))
        return 0;
    L->val[x] = (uint8_t)(v + 64);
    return 1;
}

/* Everything that follows from the claimed positions on j's stack. */
static int drain(rt_job *j)
{
    rt_layer *L = j->L;
    int t = L->t;
    while (j->stack.n) {
        uint64_t x = j->stack.x[--j->stack.n];
        int won = (atomic_load(&L->st[x]) & ST_W) != 0;
        uint64_t lo = pred_lo(L, x), hi = L->off[x];
        for (uint64_t i = lo; i < hi; i++) {
            uint64_t q = L->pred[i];
            if (won) {
                /* One more of q's links reaches W: when none is left
                   and q's exits are all -t or worse, q is lost. */
                uint8_t old = atomic_fetch_sub(&L->st[q], 1);
                mc_hot_assert((old & ST_CNT) != 0); /* one an edge */
                if ((old & ST_CNT) == 1 && !(old & (ST_W | ST_L)) &&
                    L->e[q] <= -t && claim(L, q, ST_L, -t) &&
                    vec_push(&j->stack, q))
                    return -1;
            } else if (!(atomic_load(&L->st[q]) & (ST_W | ST_L)) &&
                       claim(L, q, ST_W, t) && vec_push(&j->stack, q)) {
                return -1;
            }
        }
    }
    return 0;
}

static void *worker(void *arg)
{
    rt_job *j = arg;
    rt_layer *L = j->L;
    const mc_solved *s = L->s;
    int k = s->rt->houses;
    uint64_t lo = L->N * (uint64_t)j->id / (uint64_t)L->threads;
    uint64_t hi = L->N * (uint64_t)(j->id + 1) / (uint64_t)L->threads;
    uint8_t h[MC_MAX_PITS];
    rt_move mv[MC_MAX_MOVES];
    mc_error err = {0};
    uint64_t tick = 0;
    for (uint64_t x = lo; x < hi && !atomic_load(&L->failed); x++) {
        if (j->pass < 2) {
            eg_unrank_k(L->n, L->ranks ? L->ranks[x] : x, h, k);
            int term = 0, over = 0;
            int nm = expand(s, j->g, L->n, h, mv, &term, &over, &err);
            if (nm < 0) {
                job_fail(L, &err);
                break;
            }
            if (j->pass == 0) {
                int best = over ? term : EG_NO_EXIT, cnt = 0;
                int dlo = over ? 0 : RT_MAX_PLIES + 1, dhi = 0;
                for (int i = 0; i < nm; i++) {
                    if (mv[i].exit) {
                        if (mv[i].val > best) {
                            best = mv[i].val;
                            dlo = dhi = mv[i].plies;
                        } else if (mv[i].val == best) {
                            if (mv[i].plies < dlo)
                                dlo = mv[i].plies;
                            if (mv[i].plies > dhi)
                                dhi = mv[i].plies;
                        }
                    } else {
                        cnt++;
                        atomic_fetch_add_explicit(&L->off[mv[i].child], 1,
                                                  memory_order_relaxed);
                    }
                }
                /* the links not yet in W count in ST_CNT's 6 bits */
                mc_hot_assert(cnt <= ST_CNT);
                L->e[x] = (int8_t)best;
                L->dmin[x] =
                    (uint16_t)(dlo > RT_MAX_PLIES ? RT_MAX_PLIES : dlo);
                L->dmax[x] =
                    (uint16_t)(dhi > RT_MAX_PLIES ? RT_MAX_PLIES : dhi);
                atomic_store_explicit(&L->st[x], (uint8_t)cnt,
                                      memory_order_relaxed);
            } else {
                for (int i = 0; i < nm; i++)
                    if (!mv[i].exit) {
                        uint64_t at = atomic_fetch_add_explicit(
                            &L->off[mv[i].child], 1, memory_order_relaxed);
                        mc_hot_assert(at < L->E);
                        L->pred[at] = (uint32_t)x;
                    }
            }
        } else {
            uint8_t st = atomic_load_explicit(&L->st[x], memory_order_relaxed);
            int ok = 0;
            if (st & (ST_W | ST_L))
                ok = 0;
            else if (L->e[x] >= L->t)
                ok = claim(L, x, ST_W, L->t);
            else if (L->e[x] <= -L->t && (st & ST_CNT) == 0)
                ok = claim(L, x, ST_L, -L->t);
            if (ok && vec_push(&j->stack, x)) {
                mc_err(&err, MC_ERR_NOMEM, "out of memory in the sweep");
                job_fail(L, &err);
                break;
            }
            if (j->stack.n >= 65536 && drain(j)) {
                mc_err(&err, MC_ERR_NOMEM, "out of memory in the sweep");
                job_fail(L, &err);
                break;
            }
        }
        if (++tick == 65536) {
            uint64_t d = atomic_fetch_add(&L->done, tick) + tick;
            tick = 0;
            if (L->progress && j->id == 0 && j->pass < 2)
                L->progress(L->ctx, L->n, L->phase, d, L->N);
        }
    }
    if (j->pass == 2 && !atomic_load(&L->failed) && drain(j)) {
        mc_err(&err, MC_ERR_NOMEM, "out of memory in the sweep");
        job_fail(L, &err);
    }
    atomic_fetch_add(&L->done, tick);
    return NULL;
}

static int clamp_threads(int t)
{
    return t < 1 ? 1 : t > EG_MAX_THREADS ? EG_MAX_THREADS : t;
}

/* fn on each of the n jobs (stride bytes apart from jobs), a thread
   each, the first on this one; a job whose thread does not start runs
   here after the first. */
static void run_jobs(void *(*fn)(void *), void *jobs, size_t stride, int n)
{
    pthread_t th[EG_MAX_THREADS];
    int started[EG_MAX_THREADS] = {0};
    for (int i = 1; i < n; i++)
        started[i] = pthread_create(&th[i], NULL, fn,
                                    (char *)jobs + (size_t)i * stride) == 0;
    fn(jobs);
    for (int i = 1; i < n; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        else
            fn((char *)jobs + (size_t)i * stride);
    }
}

static int run_pass(rt_layer *L, int pass, rt_job *jobs)
{
    atomic_store(&L->done, 0);
    for (int i = 0; i < L->threads; i++) {
        jobs[i].L = L;
        jobs[i].id = i;
        jobs[i].pass = pass;
    }
    run_jobs(worker, jobs, sizeof *jobs, L->threads);
    return atomic_load(&L->failed) ? -1 : 0;
}

static void *alloc_big(size_t len)
{
    void *p = mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void free_big(void *p, size_t len)
{
    if (p)
        munmap(p, len ? len : 1);
}

/* ---- plies to settle -------------------------------------------------- */

/* The best links of each loser counted in st (the sweep's counts are
   spent): a loser's best links reach winners, worth minus its value. */
static void count_best_links(rt_layer *L)
{
    const uint8_t *val = L->val;
    for (uint64_t x = 0; x < L->N; x++)
        atomic_store_explicit(&L->st[x], 0, memory_order_relaxed);
    for (uint64_t x = 0; x < L->N; x++) {
        int v = eg_val(val[x]);
        if (v <= 0)
            continue;
        for (uint64_t i = pred_lo(L, x); i < L->off[x]; i++) {
            uint64_t q = L->pred[i];
            if (eg_val(val[q]) == -v)
                atomic_fetch_add_explicit(&L->st[q], 1, memory_order_relaxed);
        }
    }
}

/* The plies each board's own exits give (L->plies), and the first claims
   in the buckets B: a winner by a best exit, a loser without best links;
   boards where the game is over or worth 0 are done at 0.  *top: the
   highest bucket; *left: the boards still to settle.  0 or an error. */
static int seed_plies(rt_layer *L, rt_vec *B, int *top, uint64_t *left,
                      mc_error *err)
{
    const uint8_t *val = L->val;
    uint16_t *D = L->plies;
    for (uint64_t x = 0; x < L->N; x++) {
        int v = eg_val(val[x]);
        int d = -1;
        if (L->dmin[x] == 0 || v == 0) {
            D[x] = 0;
            atomic_store_explicit(&L->st[x], ST_DONE, memory_order_relaxed);
            continue;
        }
        (*left)++;
        if (v > 0) {
            D[x] = UINT16_MAX;
            if (L->e[x] == v)
                D[x] = (uint16_t)(d = L->dmin[x]);
        } else {
            D[x] = L->e[x] == v ? L->dmax[x] : 0;
            if ((L->st[x] & ST_CNT) == 0)
                d = D[x];
        }
        if (d >= 0) {
            if (d > *top)
                *top = d;
            if (vec_push(&B[d], x))
                return mc_err(err, MC_ERR_NOMEM, "out of memory (plies)");
        }
    }
    return 0;
}

/* Board x, settled at d plies, settles the predecessors that take it as
   a best move: a winner at d + 1 unless it has fewer, a loser at the most
   of its best links once every one of them is done.  0 or an error. */
static int settle_preds(rt_layer *L, rt_vec *B, uint64_t x, int d, int *top,
                        mc_error *err)
{
    const uint8_t *val = L->val;
    uint16_t *D = L->plies;
    int v = eg_val(val[x]);
    for (uint64_t i = pred_lo(L, x); i < L->off[x]; i++) {
        uint64_t q = L->pred[i];
        int vq = eg_val(val[q]);
        uint8_t sq = atomic_load_explicit(&L->st[q], memory_order_relaxed);
        if (vq != -v || (sq & ST_DONE))
            continue; /* not a best move of q's, or q is done */
        int push_at = -1;
        if (vq > 0) {
            if (D[q] == UINT16_MAX || d + 1 < D[q])
                D[q] = (uint16_t)(push_at = d + 1);
        } else {
            if (d + 1 > D[q])
                D[q] = (uint16_t)(d + 1);
            atomic_store_explicit(&L->st[q], (uint8_t)(sq - 1),
                                  memory_order_relaxed);
            if (((sq - 1) & ST_CNT) == 0)
                push_at = D[q];
        }
        if (push_at >= 0) {
            if (push_at > *top)
                *top = push_at;
            if (vec_push(&B[push_at], q))
                return mc_err(err, MC_ERR_NOMEM, "out of memory (plies)");
        }
    }
    return 0;
}

/* L->plies from the values: 0 where the game is over or the board is
   worth 0; a winner the fewest plies of its best moves (an exit: its
   plies; a link: 1 + the child's), a loser the most, a loser being done
   once every best link of it is.  The sweep's counts are spent: st is
   reused (low bits: best links not done, ST_DONE).  Dijkstra's method,
   a bucket of boards a number of plies. */
static int settle(rt_layer *L, mc_error *err)
{
    count_best_links(L);
    rt_vec *B = calloc(RT_MAX_PLIES + 2, sizeof *B);
    if (!B)
        return mc_err(err, MC_ERR_NOMEM, "out of memory (plies)");
    int top = 0;
    uint64_t left = 0;
    int rc = seed_plies(L, B, &top, &left, err);
    for (int d = 0; d <= top && rc == 0; d++) {
        for (size_t k = 0; k < B[d].n && rc == 0; k++) {
            uint64_t x = B[d].x[k];
            uint8_t st = atomic_load_explicit(&L->st[x], memory_order_relaxed);
            if ((st & ST_DONE) || L->plies[x] != d)
                continue; /* done already, or a later, longer claim */
            atomic_store_explicit(&L->st[x], (uint8_t)(st | ST_DONE),
                                  memory_order_relaxed);
            left--;
            if (d + 1 > RT_MAX_PLIES) {
                rc = mc_err(err, MC_ERR_ARG,
                            "layer %d: more than %d plies to settle", L->n,
                            RT_MAX_PLIES);
                break;
            }
            rc = settle_preds(L, B, x, d, &top, err);
        }
        free(B[d].x);
        B[d].x = NULL;
    }
    for (int d = 0; d <= RT_MAX_PLIES + 1; d++)
        free(B[d].x);
    free(B);
    if (rc == 0 && left)
        rc = mc_err(err, MC_ERR_ARG,
                    "layer %d: %llu won or lost boards never settle "
                    "(inconsistent values)",
                    L->n, (unsigned long long)left);
    return rc;
}

/* Layer n of s's game into out (N entries), the layers below mapped:
   every board, or (ranks) the boards of a start layer, s->cur. */
static int build_layer(const mc_solved *s, int n, const uint64_t *ranks,
                       uint64_t N, int threads, uint8_t *out, uint16_t *plies,
                       mc_egdb_progress progress, void *ctx, mc_error *err)
{
    rt_layer L;
    memset(&L, 0, sizeof L);
    L.s = s;
    L.n = n;
    L.N = N;
    L.ranks = ranks;
    L.threads = clamp_threads(threads);
    L.progress = progress;
    L.ctx = ctx;
    L.val = out;
    pthread_mutex_init(&L.mu, NULL);
    if (L.N > UINT32_MAX) {
        pthread_mutex_destroy(&L.mu);
        return mc_err(err, MC_ERR_ARG,
                      "layer %d holds %llu positions: more than this "
                      "builder indexes (2^32)",
                      n, (unsigned long long)L.N);
    }
    int rc = 0;
    rt_job jobs[EG_MAX_THREADS];
    memset(jobs, 0, sizeof jobs);
    for (int i = 0; i < L.threads; i++)
        if (!(jobs[i].g = mc_game_dup(s->g, err))) {
            rc = MC_ERR_NOMEM;
            goto out;
        }
    L.e = alloc_big(L.N);
    L.st = alloc_big(L.N);
    L.off = alloc_big(L.N * sizeof *L.off);
    L.dmin = alloc_big(L.N * sizeof *L.dmin);
    L.dmax = alloc_big(L.N * sizeof *L.dmax);
    L.plies = plies;
    if (!L.e || !L.st || !L.off || !L.dmin || !L.dmax) {
        rc = mc_err(err, MC_ERR_NOMEM, "out of memory for layer %d", n);
        goto out;
    }
    memset(out, 64, L.N);
    L.phase = "moves";
    if (run_pass(&L, 0, jobs)) {
        rc = mc_err(err, L.err.code, "%s", L.err.msg);
        goto out;
    }
    /* Counts to the start of each position's predecessors. */
    uint64_t E = 0;
    for (uint64_t x = 0; x < L.N; x++) {
        uint64_t c = L.off[x];
        L.off[x] = E;
        E += c;
    }
    L.E = E;
    L.pred = alloc_big(E * sizeof *L.pred);
    if (!L.pred) {
        rc = mc_err(err, MC_ERR_NOMEM,
                    "out of memory for layer %d's %llu "
                    "links",
                    n, (unsigned long long)E);
        goto out;
    }
    L.phase = "links";
    if (run_pass(&L, 1, jobs)) {
        rc = mc_err(err, L.err.code, "%s", L.err.msg);
        goto out;
    }
    /* Now off[x] is the end of x's predecessors, off[x-1] their start:
       the last one's end is every link's. */
    assert(L.N == 0 || L.off[L.N - 1] == E);
    int T = s->rt->wdl ? 1 : n;
    for (int t = T; t >= 1; t--) {
        L.t = t;
        if (run_pass(&L, 2, jobs)) {
            rc = mc_err(err, L.err.code, "%s", L.err.msg);
            goto out;
        }
        if (progress)
            progress(ctx, n, "sweep", (uint64_t)(T - t + 1), (uint64_t)T);
    }
    if (progress)
        progress(ctx, n, "plies", 0, 1);
    rc = settle(&L, err);
out:
    for (int i = 0; i < EG_MAX_THREADS; i++) {
        free(jobs[i].stack.x);
        mc_game_free(jobs[i].g);
    }
    free_big(L.pred, L.E * sizeof *L.pred);
    free_big(L.dmin, L.N * sizeof *L.dmin);
    free_big(L.dmax, L.N * sizeof *L.dmax);
    free_big(L.e, L.N);
    free_big((void *)L.st, L.N);
    free_big((void *)L.off, L.N * sizeof *L.off);
    pthread_mutex_destroy(&L.mu);
    return rc;
}

/* ---- the start layers' boards ---------------------------------------- */

typedef struct rt_vec64 {
    uint64_t *x;
    size_t n, cap;
} rt_vec64;

static int vec64_push(rt_vec64 *v, uint64_t x)
{
    uint64_t *nx = vec_room(v->x, v->n, &v->cap, sizeof *v->x);
    if (!nx)
        return -1;
    v->x = nx;
    v->x[v->n++] = x;
    return 0;
}

/* The boards of layers lo..hi that play reaches from the roots: a bitmap
   per layer, filled top-down (seeds never come back, so a layer is
   complete once the layers above it and the layer itself are done). */
typedef struct rt_reach {
    const mc_solved *s;
    int lo, hi, n, threads;
    _Atomic uint64_t *bits[MC_EGDB_MAX_SEEDS + 1];
    size_t blen[MC_EGDB_MAX_SEEDS + 1];
    const uint64_t *todo; /* layer n's boards found from above */
    uint64_t ntodo;
    _Atomic uint64_t next, done;
    _Atomic int failed;
    mc_error err;
    pthread_mutex_t mu;
    mc_egdb_progress progress;
    void *ctx;
} rt_reach;

typedef struct rt_rjob {
    rt_reach *R;
    mc_game *g;
    int id;
    rt_vec64 stack;
} rt_rjob;

static void reach_fail(rt_reach *R, const mc_error *e)
{
    pthread_mutex_lock(&R->mu);
    if (!atomic_exchange(&R->failed, 1))
        R->err = *e;
    pthread_mutex_unlock(&R->mu);
}

/* Mark board r of layer n; 1 when this call did. */
static int reach_mark(rt_reach *R, int n, uint64_t r)
{
    _Atomic uint64_t *w = &R->bits[n][r >> 6];
    uint64_t b = (uint64_t)1 << (r & 63);
    if (atomic_load_explicit(w, memory_order_relaxed) & b)
        return 0;
    return !(atomic_fetch_or(w, b) & b);
}

/* A position that play reaches: its board marked (pushed on st when it is
   new and of layer n), or, while it has no board (a first move to make),
   its moves followed, at most depth plies. */
static int reach_pos(rt_reach *R, const mc_game *g, const mc_pos *p,
                     rt_vec64 *st, int depth, mc_error *err)
{
    const mc_retro *rt = R->s->rt;
    uint8_t h[MC_MAX_PITS];
    mc_result r;
    fresh_status(g, p, &r);
    if (r.over)
        return 0;
    if (rt->to_board(g, p, h)) {
        int c = 0;
        for (int i = 0; i < rt->houses; i++)
            c += h[i];
        if (c > R->hi || (st && c > R->n))
            return mc_err(err, MC_ERR_ARG,
                          "a move from %d seeds leaves %d on the board", R->n,
                          c);
        if (c < R->lo)
            return 0; /* in the complete layers */
        uint64_t rank = eg_rank_k(h, rt->houses);
        if (reach_mark(R, c, rank) && st && c == R->n && vec64_push(st, rank))
            return mc_err(err, MC_ERR_NOMEM, "out of memory (start layers)");
        return 0;
    }
    if (depth <= 0)
        return mc_err(err, MC_ERR_ARG,
                      "a start that reaches no solved board within 16 "
                      "plies");
    mc_move mv[MC_MAX_MOVES];
    int nm = g->rules->moves(g, p, mv);
    for (int i = 0; i < nm; i++) {
        mc_pos q = *p;
        g->rules->play(g, &q, mv[i], NULL);
        int rc = reach_pos(R, g, &q, st, depth - 1, err);
        if (rc)
            return rc;
    }
    return 0;
}

static void *reach_worker(void *arg)
{
    rt_rjob *j = arg;
    rt_reach *R = j->R;
    const mc_retro *rt = R->s->rt;
    uint8_t h[MC_MAX_PITS];
    mc_error err = {0};
    while (!atomic_load(&R->failed)) {
        uint64_t at = atomic_fetch_add(&R->next, 1024);
        if (at >= R->ntodo)
            break;
        uint64_t end = at + 1024 < R->ntodo ? at + 1024 : R->ntodo;
        for (uint64_t i = at; i < end; i++) {
            if (vec64_push(&j->stack, R->todo[i])) {
                mc_err(&err, MC_ERR_NOMEM, "out of memory (start layers)");
                reach_fail(R, &err);
                return NULL;
            }
            while (j->stack.n) {
                uint64_t r = j->stack.x[--j->stack.n];
                eg_unrank_k(R->n, r, h, rt->houses);
                mc_pos p;
                rt->from_board(j->g, h, &p);
                mc_result res;
                fresh_status(j->g, &p, &res);
                if (res.over)
                    continue;
                mc_move mv[MC_MAX_MOVES];
                int nm = j->g->rules->moves(j->g, &p, mv);
                for (int m = 0; m < nm; m++) {
                    mc_pos q = p;
                    j->g->rules->play(j->g, &q, mv[m], NULL);
                    if (reach_pos(R, j->g, &q, &j->stack, 0, &err)) {
                        reach_fail(R, &err);
                        return NULL;
                    }
                }
                uint64_t d = atomic_fetch_add(&R->done, 1) + 1;
                if (R->progress && j->id == 0 && (d & 0xffff) == 0)
                    R->progress(R->ctx, R->n, "reach", d, 0);
            }
        }
    }
    return NULL;
}

/* Layer n's marked boards, in order, into *out (*cnt of them). */
static int reach_list(rt_reach *R, int n, uint64_t **out, uint64_t *cnt)
{
    size_t words = R->blen[n] / sizeof(uint64_t);
    uint64_t c = 0;
    for (size_t w = 0; w < words; w++)
        c += (uint64_t)__builtin_popcountll(
            atomic_load_explicit(&R->bits[n][w], memory_order_relaxed));
    uint64_t *v = malloc((c ? c : 1) * sizeof *v);
    if (!v)
        return -1;
    uint64_t k = 0;
    for (size_t w = 0; w < words; w++) {
        uint64_t b = atomic_load_explicit(&R->bits[n][w], memory_order_relaxed);
        while (b) {
            v[k++] = (uint64_t)w * 64 + (uint64_t)__builtin_ctzll(b);
            b &= b - 1;
        }
    }
    *out = v;
    *cnt = c;
    return 0;
}

/* The most seeds on a board that play from p reaches (-1: none; -2: a
   position without a board beyond depth plies). */
static int roots_top(const mc_solved *s, const mc_pos *p, int depth)
{
    const mc_retro *rt = s->rt;
    uint8_t h[MC_MAX_PITS];
    mc_result r;
    fresh_status(s->g, p, &r);
    if (r.over)
        return -1;
    if (rt->to_board(s->g, p, h)) {
        int c = 0;
        for (int i = 0; i < rt->houses; i++)
            c += h[i];
        return c;
    }
    if (depth <= 0)
        return -2;
    mc_move mv[MC_MAX_MOVES];
    int nm = s->g->rules->moves(s->g, p, mv), top = -1;
    for (int i = 0; i < nm; i++) {
        mc_pos q = *p;
        s->g->rules->play(s->g, &q, mv[i], NULL);
        int t = roots_top(s, &q, depth - 1);
        if (t == -2)
            return -2;
        if (t > top)
            top = t;
    }
    return top;
}

/* Every board of layers lo..hi that play from the roots reaches: ranks[n]
   (in order, cnt[n] of them; the caller frees them). */
static int reach_all(const mc_solved *s, const mc_pos *roots, int nroots,
                     int lo, int hi, int threads, uint64_t **ranks,
                     uint64_t *cnt, mc_egdb_progress progress, void *ctx,
                     mc_error *err)
{
    rt_reach R;
    memset(&R, 0, sizeof R);
    R.s = s;
    R.lo = lo;
    R.hi = hi;
    R.n = hi;
    R.threads = clamp_threads(threads);
    R.progress = progress;
    R.ctx = ctx;
    pthread_mutex_init(&R.mu, NULL);
    int rc = 0;
    rt_rjob jobs[EG_MAX_THREADS];
    memset(jobs, 0, sizeof jobs);
    for (int n = lo; n <= hi && rc == 0; n++) {
        uint64_t N = eg_layer_size_k(s->rt->houses, n);
        R.blen[n] = (size_t)((N + 63) / 64 * sizeof(uint64_t));
        if (!(R.bits[n] = alloc_big(R.blen[n])))
            rc = mc_err(err, MC_ERR_NOMEM,
                        "out of memory for the boards "
                        "of layer %d",
                        n);
    }
    for (int i = 0; rc == 0 && i < nroots; i++)
        rc = reach_pos(&R, s->g, &roots[i], NULL, 16, err);
    for (int i = 0; rc == 0 && i < R.threads; i++)
        if (!(jobs[i].g = mc_game_dup(s->g, err)))
            rc = MC_ERR_NOMEM;
    for (int n = hi; n >= lo && rc == 0; n--) {
        uint64_t *todo;
        if (reach_list(&R, n, &todo, &R.ntodo)) {
            rc = mc_err(err, MC_ERR_NOMEM, "out of memory (start layers)");
            break;
        }
        R.todo = todo;
        R.n = n;
        atomic_store(&R.next, 0);
        atomic_store(&R.done, 0);
        for (int i = 0; i < R.threads; i++) {
            jobs[i].R = &R;
            jobs[i].id = i;
        }
        run_jobs(reach_worker, jobs, sizeof *jobs, R.threads);
        free(todo);
        if (atomic_load(&R.failed)) {
            rc = mc_err(err, R.err.code, "%s", R.err.msg);
            break;
        }
        if (reach_list(&R, n, &ranks[n], &cnt[n]))
            rc = mc_err(err, MC_ERR_NOMEM, "out of memory (start layers)");
        free_big((void *)R.bits[n], R.blen[n]);
        R.bits[n] = NULL;
    }
    for (int n = lo; n <= hi; n++)
        free_big((void *)R.bits[n], R.blen[n]);
    for (int i = 0; i < EG_MAX_THREADS; i++) {
        free(jobs[i].stack.x);
        mc_game_free(jobs[i].g);
    }
    pthread_mutex_destroy(&R.mu);
    return rc;
}

/* ---- building, opening, probing --------------------------------------- */

/* Build layer n (a start layer of the boards ranks, N of them, when
   ranks) into its file and map it. */
static int build_file(mc_solved *s, const char *dir, int n,
                      const uint64_t *ranks, uint64_t N, int threads,
                      mc_egdb_progress progress, void *ctx, mc_error *err)
{
    int w = ranks ? RT_SWIDTH : RT_WIDTH;
    uint8_t *val = alloc_big(N * (uint64_t)w);
    uint16_t *plies = alloc_big(N * sizeof *plies);
    if (!val || !plies) {
        free_big(val, N * (uint64_t)w);
        free_big(plies, N * sizeof *plies);
        return mc_err(err, MC_ERR_NOMEM, "out of memory for layer %d", n);
    }
    if (ranks) {
        s->curn = n;
        s->cur = ranks;
        s->ncur = N;
    }
    int rc =
        build_layer(s, n, ranks, N, threads, val, plies, progress, ctx, err);
    s->curn = -1;
    /* The entries: value, plies (and the rank); from the end, in place. */
    for (uint64_t x = N; rc == 0 && x-- > 0;) {
        uint8_t v = val[x];
        uint8_t *e = val + (uint64_t)w * x;
        e[0] = v;
        e[1] = (uint8_t)(plies[x] & 0xff);
        e[2] = (uint8_t)(plies[x] >> 8);
        for (int i = 0; ranks && i < 5; i++)
            e[3 + i] = (uint8_t)(ranks[x] >> (8 * i));
    }
    free_big(plies, N * sizeof *plies);
    if (rc == 0) {
        mc_egdb_info in;
        memset(&in, 0, sizeof in);
        in.preset = -1;
        in.n = n;
        snprintf(in.spec, sizeof in.spec, "%s", s->spec);
        in.builder_version = RT_BUILDER_VERSION;
        in.entries = N;
        for (uint64_t x = 0; x < N; x++)
            in.hist[val[(uint64_t)w * x] & 0x7f]++;
        in.ndeps = (uint32_t)n;
        for (int i = 0; i < n; i++)
            in.dep_sum[i] = s->info[i].payload_sum;
        char path[4096];
        if (ranks)
            start_path(s, dir, n, path, sizeof path);
        else
            mc_solved_path(s->g, dir, n, path, sizeof path);
        rc = eg_write_file(path, ranks ? &s->skind : &s->kind, &in, val, err);
    }
    free_big(val, N * (uint64_t)w);
    if (rc == 0)
        rc = map_layer(s, dir, n, ranks != NULL, err);
    if (rc == 0)
        s->max = n;
    return rc;
}

int mc_solved_build_from(const mc_game *g, const mc_pos *roots, int nroots,
                         mc_solved_build_opts *o, mc_error *err)
{
    if (!o || !o->dir)
        return mc_err(err, MC_ERR_ARG, "no directory for the tables");
    if (nroots < 0 || (nroots && !roots))
        return mc_err(err, MC_ERR_ARG, "no start positions");
    mc_solved s;
    int rc = solved_init(&s, g, err);
    if (rc)
        return rc;
    int top = s.rt->max_seeds;
    int max = o->max_seeds < 0 || o->max_seeds > top ? top : o->max_seeds;
    /* The start layers: up to the most seeds the roots have. */
    int hi = max;
    for (int i = 0; i < nroots; i++) {
        int t = roots_top(&s, &roots[i], 16);
        if (t == -2) {
            mc_game_free(s.g);
            return mc_err(err, MC_ERR_ARG,
                          "a start that reaches no solved board within 16 "
                          "plies");
        }
        if (t > hi)
            hi = t;
    }
    s.full = max;
    o->first_built = hi + 1;
    uint64_t *ranks[MC_EGDB_MAX_SEEDS + 1] = {0};
    uint64_t cnt[MC_EGDB_MAX_SEEDS + 1] = {0};
    int reached = 0;
    for (int n = 0; n <= hi && rc == 0; n++) {
        o->seconds[n] = 0;
        mc_error e2;
        if (map_layer(&s, o->dir, n, n > max, &e2) == 0) {
            s.max = n;
            continue; /* complete on disk */
        }
        if (o->first_built > hi)
            o->first_built = n;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        if (n > max && !reached) {
            /* The boards of every start layer, once, top-down (those
               below n are on disk already). */
            rc = reach_all(&s, roots, nroots, max + 1, hi, o->threads, ranks,
                           cnt, o->progress, o->progress_ctx, err);
            reached = 1;
            for (int k = max + 1; k < n; k++) {
                free(ranks[k]);
                ranks[k] = NULL;
            }
            if (rc)
                break;
        }
        rc = build_file(&s, o->dir, n, ranks[n],
                        n > max ? cnt[n] : eg_layer_size_k(s.rt->houses, n),
                        o->threads, o->progress, o->progress_ctx, err);
        free(ranks[n]);
        ranks[n] = NULL;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        o->seconds[n] = (double)(t1.tv_sec - t0.tv_sec) +
                        1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        if (o->progress)
            o->progress(o->progress_ctx, n, "done", 1, 1);
    }
    for (int n = 0; n <= MC_EGDB_MAX_SEEDS; n++)
        free(ranks[n]);
    solved_unmap(&s);
    mc_game_free(s.g);
    return rc;
}

int mc_solved_build(const mc_game *g, mc_solved_build_opts *o, mc_error *err)
{
    if (!o || !o->from_start)
        return mc_solved_build_from(g, NULL, 0, o, err);
    mc_pos p;
    g->rules->start(g, &p);
    return mc_solved_build_from(g, &p, 1, o, err);
}

mc_solved *mc_solved_open(const mc_game *g, const char *dir, int max_seeds,
                          mc_error *err)
{
    mc_solved *s = malloc(sizeof *s);
    if (!s) {
        mc_err(err, MC_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (solved_init(s, g, err)) {
        free(s);
        return NULL;
    }
    int top = max_seeds < 0 || max_seeds > s->rt->max_seeds ? s->rt->max_seeds
                                                            : max_seeds;
    for (int n = 0; n <= top; n++) {
        mc_error e2;
        char path[4096];
        mc_solved_path(s->g, dir, n, path, sizeof path);
        FILE *f = max_seeds < 0 ? fopen(path, "rb") : NULL;
        if (max_seeds < 0 && !f)
            break; /* as many as there are */
        if (f)
            fclose(f);
        s->full = n; /* before the map: the entries' width */
        if (map_layer(s, dir, n, 0, &e2)) {
            if (err)
                *err = e2;
            mc_solved_close(s);
            return NULL;
        }
        s->max = n;
    }
    s->full = s->max;
    /* The start layers above, as many as there are. */
    for (int n = s->max + 1; s->max >= 0 && n <= s->rt->max_seeds; n++) {
        char path[4096];
        start_path(s, dir, n, path, sizeof path);
        if (access(path, F_OK) != 0)
            break;
        mc_error e2;
        if (map_layer(s, dir, n, 1, &e2)) {
            if (err)
                *err = e2;
            mc_solved_close(s);
            return NULL;
        }
        s->max = n;
    }
    if (s->max < 0) {
        char path[4096];
        mc_solved_path(s->g, dir, 0, path, sizeof path);
        mc_err(err, MC_ERR_IO, "no solved tables in %s (%s is missing)",
               dir && *dir ? dir : ".", path);
        mc_solved_close(s);
        return NULL;
    }
    return s;
}

void mc_solved_close(mc_solved *s)
{
    if (!s)
        return;
    solved_unmap(s);
    mc_game_free(s->g);
    free(s);
}

mc_solved *mc_solved_open_default(const mc_game *g, char *dir, size_t n,
                                  mc_error *err)
{
    if (dir && n)
        dir[0] = '\0';
    char places[3][4096];
    int np = 0;
    const char *env = getenv("MANCALA_EGDB_DIR");
    if (env && strcmp(env, "none") == 0) {
        mc_err(err, MC_ERR_IO, "tables turned off (MANCALA_EGDB_DIR=none)");
        return NULL;
    }
    if (env && *env)
        snprintf(places[np++], sizeof places[0], "%s", env);
    if (mc_egdb_user_dir(places[np], sizeof places[0]) == 0)
        np++;
    snprintf(places[np++], sizeof places[0], "%s", mc_egdb_share_dir());
    for (int i = 0; i < np; i++) {
        char path[4200];
        mc_solved_path(g, places[i], 0, path, sizeof path);
        if (access(path, R_OK) != 0)
            continue;
        if (dir && n)
            snprintf(dir, n, "%s", places[i]);
        return mc_solved_open(g, places[i], -1, err);
    }
    mc_err(err, MC_ERR_IO, "no solved tables of %s in the default places",
           mc_game_spec(g));
    return NULL;
}

size_t mc_solved_describe(const mc_game *g, const mc_pos *p, int value,
                          int plies, char *buf, size_t n)
{
    const char *who = p->side == MC_NORTH ? "North" : "South";
    int r;
    if (mc_solved_wdl(g)) {
        if (value == 0)
            r = snprintf(buf, n, "a draw with perfect play (endless)");
        else
            r = snprintf(buf, n, "%s %s in %d %s with perfect play", who,
                         value > 0 ? "wins" : "loses", plies,
                         plies == 1 ? "ply" : "plies");
    } else {
        int t = mc_total(g, p);
        char score[48];
        snprintf(score, sizeof score, "%g-%g", (t + value) / 2.0,
                 (t - value) / 2.0);
        char settled[48] = "";
        if (plies > 0)
            snprintf(settled, sizeof settled, ", settled in %d %s", plies,
                     plies == 1 ? "ply" : "plies");
        if (value == 0)
            r = snprintf(buf, n, "a draw, %s, with perfect play%s", score,
                         settled);
        else
            r = snprintf(buf, n, "%s %s %s with perfect play%s", who,
                         value > 0 ? "wins" : "loses", score, settled);
    }
    return r < 0 ? 0 : (size_t)r;
}

/* Scores of the endgame tables (probe.c's) for margins. */
#define RT_SCORE_BASE (MC_SCORE_PROVEN + 10)
#define RT_SCORE_STEP 150

int mc_solved_score(const mc_solved *s, int value, int plies, int ply)
{
    if (value == 0)
        return 0;
    if (s && s->rt->wdl) {
        int a = MC_SCORE_WIN - ply - plies;
        return value > 0 ? a : -a;
    }
    if (ply < 0)
        ply = 0;
    if (ply >= RT_SCORE_STEP)
        ply = RT_SCORE_STEP - 1;
    int a = RT_SCORE_BASE + RT_SCORE_STEP * (value > 0 ? value : -value) - ply;
    return value > 0 ? a : -a;
}

int mc_solved_oracle(void *ctx, const mc_pos *p, int fresh, int ply, int *score)
{
    const mc_solved *s = ctx;
    int v, d;
    if (!mc_solved_probe(s, p, &v, &d))
        return 0;
    if (!fresh)
        return -1;
    if (score)
        *score = mc_solved_score(s, v, d, ply);
    return 1;
}

int mc_solved_seeds(const mc_solved *s)
{
    return s ? s->max : -1;
}

int mc_solved_full_seeds(const mc_solved *s)
{
    return s ? s->full : -1;
}

int mc_solved_entry(const mc_solved *s, int n, uint64_t x, uint8_t *h,
                    int *value, int *plies)
{
    if (!s || n < 0 || n > s->max || x >= s->info[n].entries)
        return 0;
    if (h)
        eg_unrank_k(n, rt_rank(s, n, x), h, s->rt->houses);
    if (value)
        *value = rt_value(s, n, x);
    if (plies)
        *plies = rt_plies(s, n, x);
    return 1;
}

const mc_egdb_info *mc_solved_layer_info(const mc_solved *s, int n)
{
    return s && n >= 0 && n <= s->max ? &s->info[n] : NULL;
}

/* The board of p in s: its layer and rank; 0 when not in the tables. */
static int locate(const mc_solved *s, const mc_pos *p, int *n, uint64_t *x)
{
    uint8_t h[MC_MAX_PITS];
    if (!s || !p || !s->rt->to_board(s->g, p, h))
        return 0;
    int k = s->rt->houses, c = 0;
    for (int i = 0; i < k; i++)
        c += h[i];
    if (c > s->max)
        return 0;
    int64_t e = rt_find(s, c, eg_rank_k(h, k));
    if (e < 0)
        return 0; /* not in the start layer */
    *n = c;
    *x = (uint64_t)e;
    return 1;
}

static int probe_at(const mc_solved *s, const mc_pos *p, int *value, int *plies,
                    int depth);

/* The value of p, which has no board (a first move to make), from its
   moves: the best of their values (the fastest win, the slowest loss),
   looking at most depth plies down for boards. */
static int probe_moves(const mc_solved *s, const mc_pos *p, int *value,
                       int *plies, int depth)
{
    if (depth <= 0)
        return 0;
    mc_game *g = mc_game_dup(s->g, NULL); /* games keep caches */
    if (!g)
        return 0;
    mc_result r;
    fresh_status(g, p, &r);
    int me = p->side, ok = !r.over, bv = -1000, bp = 0;
    mc_move mv[MC_MAX_MOVES];
    int nm = ok ? g->rules->moves(g, p, mv) : 0;
    for (int i = 0; i < nm && ok; i++) {
        mc_pos q = *p;
        g->rules->play(g, &q, mv[i], NULL);
        fresh_status(g, &q, &r);
        int v, d = 0;
        if (r.over)
            v = over_value(s->rt, &r, me);
        else if (probe_at(s, &q, &v, &d, depth - 1))
            v = -v;
        else
            ok = 0;
        d += 1;
        if (ok &&
            (v > bv || (v == bv && ((v > 0 && d < bp) || (v < 0 && d > bp)))))
            bv = v, bp = d;
    }
    mc_game_free(g);
    if (!ok || nm == 0)
        return 0;
    if (value)
        *value = bv;
    if (plies)
        *plies = bv == 0 ? 0 : bp;
    return 1;
}

int mc_solved_probe(const mc_solved *s, const mc_pos *p, int *value, int *plies)
{
    return probe_at(s, p, value, plies, 4);
}

static int probe_at(const mc_solved *s, const mc_pos *p, int *value, int *plies,
                    int depth)
{
    int n;
    uint64_t x;
    uint8_t h[MC_MAX_PITS];
    if (s && p && !s->rt->to_board(s->g, p, h))
        return probe_moves(s, p, value, plies, depth);
    if (!locate(s, p, &n, &x))
        return 0;
    int v = rt_value(s, n, x);
    if (!s->rt->wdl)
        v += (int)p->cap[p->side] - (int)p->cap[1 - p->side];
    if (value)
        *value = v;
    if (plies)
        *plies = rt_plies(s, n, x);
    return 1;
}

void mc_solved_board(const mc_game *g, int n, uint64_t x, uint8_t *h)
{
    const mc_retro *rt = retro_of(g);
    if (rt)
        eg_unrank_k(n, x, h, rt->houses);
}

void mc_solved_position(const mc_solved *s, const uint8_t *h, mc_pos *p)
{
    s->rt->from_board(s->g, h, p);
}

int mc_solved_longest(const mc_solved *s, int n, uint8_t *h)
{
    if (!s || n < 0 || n > s->max)
        return -1;
    uint64_t N = s->info[n].entries, at = 0;
    int best = -1;
    if (N == 0)
        return -1; /* an empty start layer */
    for (uint64_t x = 0; x < N; x++) {
        int d = rt_plies(s, n, x);
        if (d > best) {
            best = d;
            at = x;
        }
    }
    if (h)
        eg_unrank_k(n, rt_rank(s, n, at), h, s->rt->houses);
    return best;
}

int mc_solved_move_values(const mc_solved *s, const mc_pos *p, mc_move *mv,
                          int *val, int *plies)
{
    if (!mc_solved_probe(s, p, NULL, NULL))
        return -1;
    mc_game *g = mc_game_dup(s->g, NULL); /* games keep caches */
    if (!g)
        return -1;
    int me = p->side;
    int nm = g->rules->moves(g, p, mv);
    for (int i = 0; i < nm; i++) {
        mc_pos q = *p;
        g->rules->play(g, &q, mv[i], NULL);
        mc_result r;
        fresh_status(g, &q, &r);
        int cv, cp = 0;
        if (r.over)
            val[i] = over_value(s->rt, &r, me);
        else if (mc_solved_probe(s, &q, &cv, &cp))
            val[i] = -cv;
        else
            val[i] = MC_SOLVED_UNKNOWN;
        if (plies)
            plies[i] = 1 + cp;
    }
    mc_game_free(g);
    return nm;
}

int mc_solved_best(const mc_solved *s, const mc_pos *p, mc_move *best,
                   int *value, int *plies)
{
    mc_move mv[MC_MAX_MOVES];
    int val[MC_MAX_MOVES], pl[MC_MAX_MOVES], v0, p0;
    if (!mc_solved_probe(s, p, &v0, &p0))
        return 0;
    int nm = mc_solved_move_values(s, p, mv, val, pl);
    int pick = -1, n;
    uint64_t x;
    /* What the board is worth decides, not the captures before: its
       winner takes the fastest of the best moves, its loser the slowest;
       a board worth 0, any (the first). */
    int bv = locate(s, p, &n, &x)
                 ? rt_value(s, n, x)
                 : v0 - (s->rt->wdl
                             ? 0
                             : (int)p->cap[p->side] - (int)p->cap[1 - p->side]);
    for (int i = 0; i < nm; i++) {
        if (val[i] != v0)
            continue;
        if (pick < 0 || (bv > 0 && pl[i] < pl[pick]) ||
            (bv < 0 && pl[i] > pl[pick]))
            pick = i;
    }
    if (pick < 0)
        return 0;
    if (best)
        *best = mv[pick];
    if (value)
        *value = v0;
    if (plies)
        *plies = p0;
    return 1;
}

/* One thread's share of a layer's check. */
typedef struct rt_vjob {
    const mc_solved *s;
    int n, id, threads;
    uint64_t bad, hist[128];
    mc_egdb_progress progress;
    void *ctx;
} rt_vjob;

static void *verify_part(void *arg)
{
    rt_vjob *j = arg;
    const mc_solved *s = j->s;
    int n = j->n, k = s->rt->houses;
    uint64_t N = s->info[n].entries;
    int w = rt_width(s, n);
    uint64_t lo = N * (uint64_t)j->id / (uint64_t)j->threads;
    uint64_t hi = N * (uint64_t)(j->id + 1) / (uint64_t)j->threads;
    uint8_t h[MC_MAX_PITS];
    rt_move mv[MC_MAX_MOVES];
    mc_game *g = mc_game_dup(s->g, NULL); /* games keep caches */
    if (!g) {
        j->bad = hi - lo + 1;
        return NULL;
    }
    for (uint64_t x = lo; x < hi; x++) {
        eg_unrank_k(n, rt_rank(s, n, x), h, k);
        int term = 0, over = 0;
        mc_error err;
        int nm = expand(s, g, n, h, mv, &term, &over, &err);
        int want = over ? term : -1000;
        for (int i = 0; i < nm; i++) {
            int v = mv[i].exit ? mv[i].val : -rt_value(s, n, mv[i].child);
            if (v > want)
                want = v;
        }
        int have = rt_value(s, n, x), d = rt_plies(s, n, x);
        /* The plies: 0 over or worth 0, else the fastest (winner) or
           slowest (loser) of the best moves. */
        int dw = have > 0 && !over ? RT_MAX_PLIES + 1 : 0;
        for (int i = 0; i < nm && !over && have != 0; i++) {
            int v = mv[i].exit ? mv[i].val : -rt_value(s, n, mv[i].child);
            if (v != have)
                continue;
            int dp = mv[i].exit ? mv[i].plies : 1 + rt_plies(s, n, mv[i].child);
            if ((have > 0 && dp < dw) || (have < 0 && dp > dw))
                dw = dp;
        }
        if (nm < 0 || (s->data[n][(uint64_t)w * x] & 0x80) || have != want ||
            d != dw)
            j->bad++;
        j->hist[s->data[n][(uint64_t)w * x] & 0x7f]++;
        if (j->progress && j->id == 0 && ((x - lo) & 0xffff) == 0)
            j->progress(j->ctx, n, "check", x - lo, hi - lo);
    }
    mc_game_free(g);
    return NULL;
}

uint64_t mc_solved_verify(const mc_solved *s, int lo, int hi, int threads,
                          mc_egdb_progress progress, void *ctx)
{
    if (!s)
        return 1;
    if (hi > s->max)
        hi = s->max;
    threads = clamp_threads(threads);
    uint64_t bad = 0;
    for (int n = lo < 0 ? 0 : lo; n <= hi; n++) {
        rt_vjob jobs[EG_MAX_THREADS];
        memset(jobs, 0, sizeof jobs);
        for (int i = 0; i < threads; i++) {
            jobs[i].s = s;
            jobs[i].n = n;
            jobs[i].id = i;
            jobs[i].threads = threads;
            jobs[i].progress = progress;
            jobs[i].ctx = ctx;
        }
        run_jobs(verify_part, jobs, sizeof *jobs, threads);
        uint64_t hist[128] = {0};
        for (int i = 0; i < threads; i++) {
            bad += jobs[i].bad;
            for (int v = 0; v < 128; v++)
                hist[v] += jobs[i].hist[v];
        }
        for (int v = 0; v < 128; v++)
            if (hist[v] != s->info[n].hist[v])
                bad++;
    }
    return bad;
}
