/*
 * solve.c - the retrograde core of the endgame databases: moves of a
 * mover-first configuration (through the Oware rules engine, so tables and
 * game can never disagree), un-moves (predecessors, verified forward), and
 * the threshold sweep that yields the bounds P and O of a layer together
 * (shared EGDB.md, "The history problem, and the two bounds").
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "egdb_int.h"
#include "../core/util.h"

void eg_log(const mc_egdb_build_opts *o, int kind, const char *fmt, ...)
{
    if (!o || !o->log ||
        !(kind == EG_LOG_SEARCHES ? o->log_searches : o->log_timing))
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    o->log(o->log_ctx, line);
}

int eg_rules_init(eg_rules *r, int preset, mc_error *err)
{
    memset(r, 0, sizeof *r);
    r->preset = preset;
    r->g = mc_game_new(eg_preset_spec(preset), err);
    return r->g ? 0 : MC_ERR_SPEC;
}

void eg_rules_free(eg_rules *r)
{
    mc_game_free(r->g);
    r->g = NULL;
}

int eg_terminal(const uint8_t h[12])
{
    int d = 0;
    for (int i = 0; i < 6; i++)
        d += h[i] - h[i + 6];
    return d;
}

/* The seeds on a board of 12 houses. */
static inline int seeds_of(const uint8_t h[12])
{
    int s = 0;
    for (int i = 0; i < 12; i++)
        s += h[i];
    return s;
}

int eg_expand(const eg_rules *r, int n, const uint8_t h[12], eg_move *out)
{
    mc_pos p;
    memset(&p, 0, sizeof p);
    memcpy(p.pit, h, 12);
    p.side = MC_SOUTH;
    mc_move mv[MC_MAX_MOVES];
    int k = mc_moves(r->g, &p, mv);
    /* the mover's six houses: at most six moves (the sweep counts a
       position's in-layer moves in 3 bits) */
    mc_hot_assert(k >= 0 && k <= 6);
    for (int i = 0; i < k; i++) {
        mc_pos q = p;
        mc_play(r->g, &q, mv[i], NULL);
        uint8_t c[12];
        eg_swap(q.pit, c);
        int cap = q.cap[MC_SOUTH];
        mc_hot_assert(mv[i] < 6 && cap >= 0 && cap <= n);
        /* a move only moves seeds or captures them */
        mc_hot_assert(seeds_of(c) == n - cap);
        eg_move *m = &out[i];
        m->house = (int8_t)mv[i];
        m->all = (int8_t)(cap == n);
        if (cap > 0) {
            m->exit = 1;
            m->val = (int8_t)(cap - eg_val(r->lower[n - cap][mc_egdb_rank(c)]));
            m->child = 0;
        } else {
            m->exit = 0;
            m->val = 0;
            m->child = mc_egdb_rank(c);
        }
    }
    return k;
}

int eg_unmove(const eg_rules *r, int n, const uint8_t x[12], uint64_t *out,
              uint8_t (*boards)[12])
{
    /* In the predecessor's frame the board after its move is b = swap(x):
       its mover sowed from an origin o in 0..5 that is now empty.  The
       move stayed in the layer, so it captured nothing.  Legality: if the
       other row (x's own) is empty after the move, the move did not feed
       an empty row and did not capture: no predecessor.  Otherwise O7 is
       met.  A last seed making a chain of 2s and 3s in the other row is a
       capture, except an abapa grand slam (forfeited, O6): under awari a
       grand slam is illegal or captures, never stays in the layer.
       test_egdb checks the results against the rules engine. */
    if ((x[0] | x[1] | x[2] | x[3] | x[4] | x[5]) == 0)
        return 0;
    uint8_t b[12];
    eg_swap(x, b);
    int other = b[6] + b[7] + b[8] + b[9] + b[10] + b[11];
    int cnt = 0;
    for (int o = 0; o < 6; o++) {
        if (b[o] != 0)
            continue;
        uint8_t t[12];
        memcpy(t, b, 12);
        int pos = o;
        for (int s = 1; s <= n; s++) {
            if (++pos == 12)
                pos = 0;
            if (pos == o && ++pos == 12)
                pos = 0;
            if (t[pos] == 0)
                break; /* every longer sowing passes here too */
            t[pos]--;
            if (pos >= 6 && (b[pos] == 2 || b[pos] == 3)) {
                int c = 0;
                for (int j = pos; j >= 6 && (b[j] == 2 || b[j] == 3); j--)
                    c += b[j];
                if (r->preset == MC_EGDB_AWARI || c != other)
                    continue; /* a capture: the move left the layer */
            }
            t[o] = (uint8_t)s;
            /* at most n sowings from each of 6 origins: 6 * 48 < 320,
               so no predecessor is ever left out */
            mc_hot_assert(cnt < EG_MAX_PREDS);
            if (cnt < EG_MAX_PREDS) {
                if (boards)
                    memcpy(boards[cnt], t, 12);
                out[cnt++] = mc_egdb_rank(t);
            }
            t[o] = 0;
        }
    }
    return cnt;
}

/* ---- the forward pass, shared by threads ------------------------------ */

/* Threads of the forward pass and the sweep (sweep_init clamps to it). */

typedef struct fwd_job {
    const eg_rules *r;
    int n;
    uint64_t lo, hi;
    uint8_t *eb;  /* best exit, see above; eb[i - base] for position i */
    uint8_t *cnt; /* in-layer moves, the same way */
    uint64_t base;
    volatile uint64_t *done;
} fwd_job;

static void *fwd_run(void *arg)
{
    fwd_job *j = arg;
    uint8_t h[12];
    eg_move mv[MC_MAX_MOVES];
    if (j->lo >= j->hi)
        return NULL;
    mc_egdb_unrank(j->n, j->lo, h);
    for (uint64_t i = j->lo; i < j->hi; i++) {
        int k = eg_expand(j->r, j->n, h, mv);
        int best = EG_NO_EXIT, in = 0, all = 0;
        if (k == 0)
            best = eg_terminal(h);
        for (int m = 0; m < k; m++) {
            if (mv[m].exit) {
                if (mv[m].val > best)
                    best = mv[m].val;
                all |= mv[m].all;
            } else {
                in++;
            }
        }
        /* 3 bits of the state byte count the in-layer moves */
        mc_hot_assert(in <= 6);
        j->eb[i - j->base] =
            (uint8_t)((best - EG_NO_EXIT) | (all ? EB_ALL : 0));
        j->cnt[i - j->base] = (uint8_t)in;
        if (((i - j->lo) & 0xffff) == 0xffff)
            __atomic_add_fetch(j->done, 0x10000, __ATOMIC_RELAXED);
        /* Next configuration in lexicographic order: move one seed from
           the last non-empty house j to house j-1, the rest to house 11. */
        int z = 11;
        while (z > 0 && h[z] == 0)
            z--;
        if (z == 0)
            break;
        int s = h[z];
        h[z] = 0;
        h[z - 1]++;
        h[11] = (uint8_t)(s - 1);
    }
    return NULL;
}

/* The positions lo..hi-1 of layer n into eb[0..hi-lo) and cnt;
   threads: 1..EG_MAX_THREADS. */
void eg_forward_range(const eg_rules *r, int n, int threads, uint64_t lo,
                      uint64_t hi, uint8_t *eb, uint8_t *cnt,
                      mc_egdb_progress progress, void *ctx)
{
    assert(n >= 0 && n <= MC_EGDB_MAX_SEEDS);
    assert(lo <= hi && hi <= mc_egdb_layer_size(n));
    uint64_t N = hi - lo;
    if (threads < 1 || threads > EG_MAX_THREADS)
        threads = threads < 1 ? 1 : EG_MAX_THREADS;
    fwd_job jobs[EG_MAX_THREADS];
    pthread_t tid[EG_MAX_THREADS];
    volatile uint64_t done = 0;
    for (int t = 0; t < threads; t++) {
        jobs[t] = (fwd_job){r,
                            n,
                            lo + N * (uint64_t)t / (uint64_t)threads,
                            lo + N * (uint64_t)(t + 1) / (uint64_t)threads,
                            eb,
                            cnt,
                            lo,
                            &done};
    }
    int started = 0;
    for (int t = 1; t < threads; t++) {
        if (pthread_create(&tid[t], NULL, fwd_run, &jobs[t]) != 0)
            break;
        started = t;
    }
    /* The calling thread does job 0 in slices, reporting progress between
       them, then any job whose thread did not start. */
    uint64_t j0 = jobs[0].lo, j1 = jobs[0].hi, step = 1u << 20;
    for (uint64_t a = j0; a < j1; a += step) {
        fwd_job s = jobs[0];
        s.lo = a;
        s.hi = a + step < j1 ? a + step : j1;
        fwd_run(&s);
        if (progress)
            progress(ctx, n, "moves", threads > 1 ? done : s.hi - lo, N);
    }
    for (int t = started + 1; t < threads; t++)
        fwd_run(&jobs[t]);
    for (int t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
}

/* ---- the threshold sweep ---------------------------------------------- */

/* A stack entry carries the position's board, so that popping it needs
   no unranking. */
typedef struct sentry {
    uint64_t e;
    uint8_t h[12];
} sentry;

typedef struct stack {
    sentry *v;
    size_t len, cap;
} stack;

static int push(stack *s, uint64_t x, const uint8_t h[12])
{
    size_t cap = mc_grow(&s->v, s->cap, s->len + 1, sizeof *s->v, 1 << 14);
    if (!cap)
        return -1;
    s->cap = cap;
    s->v[s->len].e = x;
    memcpy(s->v[s->len++].h, h, 12);
    return 0;
}

void eg_bounds_free(eg_bounds *b)
{
    free(b->P);
    free(b->O);
    free(b->hp);
    free(b->rank_a);
    free(b->rank_l);
    memset(b, 0, sizeof *b);
}

/* Un-moves are generated for a batch of popped positions at once and
   their predecessors' state bytes prefetched: the sweep is bound by the
   latency of those scattered reads. */
#define BATCH 32

/* The sweep of one layer.  Full mode records P and O (and the sweep
   ranks, single-threaded); compact mode (val) keeps one byte a position:
   the value + 64 of the first bound decided, counting the positions whose
   second bound differs from it (clash). */
typedef struct sweep {
    const eg_rules *r;
    int n, threads;
    uint8_t *cs;
    const uint8_t *eb;
    int8_t *P, *O;
    uint8_t *val, *hp;
    uint32_t *rank_a, *rank_l;
    uint64_t rank, N, clash;
    mc_egdb_progress progress;
    void *ctx;
    int own;     /* cs and eb are the sweep's (malloc), not a work's */
    eg_work *wk; /* checkpoints (compact mode), or NULL */
} sweep;

/* One thread's part: its chunks of the scans (the first at lo) and its own
   stack. */
typedef struct worker {
    sweep *w;
    uint64_t lo, clash;
    stack s;
    uint64_t (*pred)[EG_MAX_PREDS];
    uint8_t (*board)[EG_MAX_PREDS][12];
    int t, peel, rc;
} worker;

/* The scans deal the positions out in chunks, round robin: the work of a
   threshold is not spread evenly over the ranks. */
#define CHUNK 4096

static uint64_t next_index(const worker *k, uint64_t i)
{
    i++;
    if (i % CHUNK == 0)
        i += (uint64_t)(k->w->threads - 1) * CHUNK;
    return i;
}

static int claim(uint8_t *p, uint8_t bit)
{
    return !(__atomic_fetch_or(p, bit, __ATOMIC_RELAXED) & bit);
}

static uint8_t load(const uint8_t *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static void note(worker *k, uint64_t q, int v)
{
    uint8_t e = (uint8_t)(v + 64), cur = 0;
    if (!__atomic_compare_exchange_n(&k->w->val[q], &cur, e, 0,
                                     __ATOMIC_RELAXED, __ATOMIC_RELAXED) &&
        cur != e)
        k->clash++;
}

/* Position q (claimed for A, resp. L, at threshold t) gets its bound. */
static void set_a(worker *k, uint64_t q, int t)
{
    sweep *w = k->w;
    mc_hot_assert(q < w->N && t >= -w->n && t <= w->n);
    if (w->P)
        w->P[q] = (int8_t)t;
    else
        note(k, q, t);
    if (w->rank_a)
        w->rank_a[q] = (uint32_t)++w->rank;
}

static void set_l(worker *k, uint64_t q, int t)
{
    sweep *w = k->w;
    mc_hot_assert(q < w->N && t >= -w->n && t <= w->n);
    if (w->O)
        w->O[q] = (int8_t)-t;
    else
        note(k, q, -t);
    if (w->rank_l)
        w->rank_l[q] = (uint32_t)++w->rank;
}

/* Pop up to BATCH entries, generate their predecessors into k->pred and
   k->board and prefetch the state bytes. */
static int pop_batch(worker *k, uint64_t *ent, int *np)
{
    int nb = 0;
    while (nb < BATCH && k->s.len) {
        const sentry *se = &k->s.v[--k->s.len];
        ent[nb] = se->e;
        np[nb] = eg_unmove(k->w->r, k->w->n, se->h, k->pred[nb], k->board[nb]);
        for (int j = 0; j < np[nb]; j++)
            __builtin_prefetch(&k->w->cs[k->pred[nb][j]], 1, 0);
        nb++;
    }
    return nb;
}

/* Propagate from the entries on the stack at threshold t (retrograde
   attractor): a position entering A decrements its predecessors' counts;
   one entering L puts every predecessor in A. */
static int drain(worker *k)
{
    sweep *w = k->w;
    uint8_t *cs = w->cs;
    int t = k->t;
    uint64_t ent[BATCH];
    int np[BATCH];
    while (k->s.len) {
        int nb = pop_batch(k, ent, np);
        for (int b = 0; b < nb; b++) {
            uint64_t e = ent[b];
            const uint64_t *pred = k->pred[b];
            for (int j = 0; j < np[b]; j++) {
                uint64_t q = pred[j];
                if (!(e & 1)) {
                    /* bits 0-2 never go below 0: one decrement an edge */
                    uint8_t c = __atomic_sub_fetch(&cs[q], 1, __ATOMIC_RELAXED);
                    mc_hot_assert(CNT((uint8_t)(c + 1)) != 0);
                    if (CNT(c) == 0 && !(c & IN_L) && eb_best(w->eb[q]) <= -t &&
                        claim(&cs[q], IN_L)) {
                        set_l(k, q, t);
                        if (push(&k->s, q << 1 | 1, k->board[b][j]))
                            return -1;
                    }
                } else if (!(load(&cs[q]) & IN_A) && claim(&cs[q], IN_A)) {
                    set_a(k, q, t);
                    if (push(&k->s, q << 1, k->board[b][j]))
                        return -1;
                }
            }
        }
    }
    return 0;
}

/* Threshold k->t over the worker's chunks: seeds are an exit (or a terminal
   value) reaching t, for A_t, and all children already in A with every exit at
   most -t, for L_t.  Each seed is propagated at once, which keeps the
   stack small. */
static int seed_scan(worker *k)
{
    sweep *w = k->w;
    uint8_t *cs = w->cs, h[12];
    int t = k->t;
    for (uint64_t i = k->lo; i < w->N; i = next_index(k, i)) {
        int e = eb_best(w->eb[i]);
        if (e != t && e != -t)
            continue;
        mc_egdb_unrank(w->n, i, h);
        if (e == t && !(load(&cs[i]) & IN_A) && claim(&cs[i], IN_A)) {
            set_a(k, i, t);
            if (push(&k->s, i << 1, h) || drain(k))
                return -1;
        }
        uint8_t c = load(&cs[i]);
        if (e == -t && !(c & IN_L) && CNT(c) == 0 && claim(&cs[i], IN_L)) {
            set_l(k, i, t);
            if (push(&k->s, i << 1 | 1, h) || drain(k))
                return -1;
        }
    }
    return 0;
}

/* history_proof: peel the positions from which no cycle is reachable (all
   in-layer children peeled first).  Bits 0-2 count the children not yet
   peeled; PEELED is claimed by one thread, which marks the position:
   hp[x] |= 1 (full mode) or val[x] |= 0x80 (compact). */
static int peel_scan(worker *k)
{
    sweep *w = k->w;
    uint8_t *cs = w->cs, h[12];
    uint64_t ent[BATCH];
    int np[BATCH];
    for (uint64_t i = k->lo; i < w->N; i = next_index(k, i)) {
        uint8_t zero = 0;
        if (load(&cs[i]) != 0 ||
            !__atomic_compare_exchange_n(&cs[i], &zero, PEELED, 0,
                                         __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            continue;
        mc_egdb_unrank(w->n, i, h);
        if (push(&k->s, i, h))
            return -1;
        while (k->s.len) {
            int nb = pop_batch(k, ent, np);
            for (int b = 0; b < nb; b++) {
                if (w->hp)
                    w->hp[ent[b]] |= 1;
                else
                    w->val[ent[b]] |= 0x80;
                for (int j = 0; j < np[b]; j++) {
                    uint64_t q = k->pred[b][j];
                    zero = 0;
                    if (__atomic_sub_fetch(&cs[q], 1, __ATOMIC_RELAXED) == 0 &&
                        __atomic_compare_exchange_n(&cs[q], &zero, PEELED, 0,
                                                    __ATOMIC_RELAXED,
                                                    __ATOMIC_RELAXED) &&
                        push(&k->s, q, k->board[b][j]))
                        return -1;
                }
            }
        }
    }
    return 0;
}

static void *work_run(void *arg)
{
    worker *k = arg;
    k->rc = k->peel ? peel_scan(k) : seed_scan(k);
    return NULL;
}

/* Run one phase (a threshold, or the peel) on every worker. */
static int run_workers(sweep *w, worker *ks, int t, int peel, const char *phase,
                       uint64_t done, uint64_t total)
{
    pthread_t tid[EG_MAX_THREADS];
    int started = 0;
    for (int i = 0; i < w->threads; i++) {
        ks[i].t = t;
        ks[i].peel = peel;
        ks[i].rc = 0;
    }
    for (int i = 1; i < w->threads; i++) {
        if (pthread_create(&tid[i], NULL, work_run, &ks[i]) != 0)
            break;
        started = i;
    }
    work_run(&ks[0]);
    for (int i = started + 1; i < w->threads; i++)
        work_run(&ks[i]);
    int rc = ks[0].rc;
    for (int i = 1; i <= started; i++)
        pthread_join(tid[i], NULL);
    for (int i = 1; i < w->threads; i++)
        rc |= ks[i].rc;
    if (w->progress)
        w->progress(w->ctx, w->n, phase, done, total);
    return rc;
}

/* A checkpoint of the compact sweep at phase (thresholds done) when one
   is due; -2 when the work asks to stop there (tests), -1 when it cannot
   be written. */
static int checkpoint(sweep *w, int phase, double *last)
{
    eg_work *wk = w->wk;
    if (!wk || !wk->ckpt || mc_now() - *last < wk->ckpt_secs)
        return 0;
    if (eg_ckpt_save(wk, w->N, phase, w->clash) != 0) {
        eg_log(w->r->opts, EG_LOG_TIMING, "n=%d checkpoint not written", w->n);
        return 0; /* the build goes on without it */
    }
    *last = mc_now();
    wk->saved++;
    return wk->stop_after && wk->saved >= wk->stop_after ? -2 : 0;
}

/* The thresholds n, n-1, ..., tmin, then the peel.  abapa values have the
   parity of n (so have its exits: c - v with v of the parity of n - c),
   and the other thresholds decide nothing; awari ones do not (a cycle
   counts 0).  between (may be NULL) runs after the thresholds, while the
   A and L flags are still there. */
static int run_sweep(sweep *w, int tmin, void (*between)(sweep *), int from)
{
    worker ks[EG_MAX_THREADS];
    int rc = -1;
    double last = mc_now();
    /* down to -n (P and O), or to 1 (awari's median) */
    assert((tmin == -w->n || tmin == 1) && from >= 0);
    assert(w->threads >= 1 && w->threads <= EG_MAX_THREADS);
    memset(ks, 0, sizeof ks);
    for (int i = 0; i < w->threads; i++) {
        ks[i].w = w;
        ks[i].lo = (uint64_t)i * CHUNK;
        ks[i].pred = malloc(BATCH * sizeof *ks[i].pred);
        ks[i].board = malloc(BATCH * sizeof *ks[i].board);
        if (!ks[i].pred || !ks[i].board)
            goto out;
    }
    int step = w->r->preset == MC_EGDB_AWARI ? 1 : 2;
    double T0 = mc_now();
    int phase = 0;
    for (int t = w->n; t >= tmin; t -= step, phase++) {
        if (phase < from)
            continue; /* done before the checkpoint */
        if (run_workers(w, ks, t, 0, "sweep", (uint64_t)(w->n - t + 1),
                        (uint64_t)(w->n - tmin + 1)) != 0)
            goto out;
        for (int i = 0; i < w->threads; i++) {
            w->clash += ks[i].clash;
            ks[i].clash = 0;
        }
        int c = checkpoint(w, phase + 1, &last);
        if (c) {
            rc = c;
            goto out;
        }
    }
    if (between)
        between(w);
    for (uint64_t i = 0; i < w->N; i++)
        w->cs[i] = (uint8_t)CNT0(w->cs[i]);
    double T1 = mc_now();
    if (run_workers(w, ks, 0, 1, "cycles", 1, 1) != 0)
        goto out;
    eg_log(w->r->opts, EG_LOG_TIMING, "n=%d sweep %.2f peel %.2f", w->n,
           T1 - T0, mc_now() - T1);
    rc = 0;
out:
    for (int i = 0; i < w->threads; i++) {
        free(ks[i].pred);
        free(ks[i].board);
        free(ks[i].s.v);
    }
    return rc;
}

/* The sweep of layer n over wk's arrays (NULL: its own), with the
   forward pass done unless skip (a checkpoint gave the arrays). */
static int sweep_init(sweep *w, const eg_rules *r, int n, int threads,
                      mc_egdb_progress progress, void *ctx, eg_work *wk,
                      int skip)
{
    assert(n >= 0 && n <= MC_EGDB_MAX_SEEDS);
    /* the sweep reads the exits of the layers below (eg_expand) */
    for (int m = 0; m < n; m++)
        assert(r->lower[m]);
    memset(w, 0, sizeof *w);
    w->r = r;
    w->n = n;
    w->N = mc_egdb_layer_size(n);
    w->threads = threads < 1                ? 1
                 : threads > EG_MAX_THREADS ? EG_MAX_THREADS
                                            : threads;
    if (w->N < 4096)
        w->threads = 1;
    w->progress = progress;
    w->ctx = ctx;
    w->wk = wk;
    uint8_t *eb;
    if (wk) {
        w->cs = wk->cs;
        eb = wk->eb;
    } else {
        w->own = 1;
        w->cs = malloc(w->N);
        eb = malloc(w->N);
    }
    w->eb = eb;
    if (!w->cs || !eb)
        return -1;
    if (skip)
        return 0;
    double T0 = mc_now();
    eg_forward_range(r, n, w->threads, 0, w->N, eb, w->cs, progress, ctx);
    /* The sweep reads no lower layer: drop their pages from this
       process (the page cache keeps them for the next layer). */
    for (int m = 0; m < n; m++)
        if (r->map[m])
            madvise(r->map[m], r->maplen[m], MADV_DONTNEED);
    eg_log(r->opts, EG_LOG_TIMING, "n=%d forward %.2f", n, mc_now() - T0);
    for (uint64_t i = 0; i < w->N; i++)
        w->cs[i] = (uint8_t)(w->cs[i] | w->cs[i] << 3);
    return 0;
}

static void sweep_free(sweep *w)
{
    if (w->own) {
        free(w->cs);
        free((void *)w->eb);
    }
}

int eg_compute_bounds(const eg_rules *r, int n, int threads, eg_bounds *b,
                      int want_ranks, mc_egdb_progress progress, void *ctx)
{
    uint64_t N = mc_egdb_layer_size(n);
    memset(b, 0, sizeof *b);
    sweep w;
    int rc = -1;
    if (sweep_init(&w, r, n, threads, progress, ctx, NULL, 0) != 0)
        goto out;
    b->P = w.P = malloc(N);
    b->O = w.O = malloc(N);
    b->hp = w.hp = calloc(N, 1);
    if (want_ranks) {
        /* Ranks are one global order: a single thread. */
        w.threads = 1;
        b->rank_a = w.rank_a = calloc(N, sizeof *b->rank_a);
        b->rank_l = w.rank_l = calloc(N, sizeof *b->rank_l);
    }
    if (!b->P || !b->O || !b->hp || (want_ranks && (!b->rank_a || !b->rank_l)))
        goto out;
    /* Defaults of the positions a bound never reaches (the clamp). */
    memset(b->P, -n, N);
    memset(b->O, n, N);
    if (run_sweep(&w, -n, NULL, 0) != 0)
        goto out;
    for (uint64_t i = 0; i < N; i++) {
        /* least and greatest fixed points: -n <= P <= O <= n, and under
           abapa both of the parity of n */
        mc_hot_assert(-n <= b->P[i] && b->P[i] <= b->O[i] && b->O[i] <= n);
        mc_hot_assert(r->preset != MC_EGDB_ABAPA ||
                      ((b->P[i] - n) % 2 == 0 && (b->O[i] - n) % 2 == 0));
        b->open += b->P[i] < b->O[i];
        b->hp[i] = (uint8_t)((b->hp[i] | w.eb[i] >> 7) != 0);
    }
    rc = 0;
out:
    sweep_free(&w);
    if (rc)
        eg_bounds_free(b);
    return rc;
}

/* (egdb_int.h) One in both A and L clashed if its bounds differ: the
   sweep counts those as it decides them. */
uint64_t eg_count_open(const uint8_t *cs, const uint8_t *val, uint64_t M, int n)
{
    uint64_t bad = 0;
    for (uint64_t i = 0; i < M; i++) {
        int f = cs[i] & (IN_A | IN_L);
        if ((f == IN_A && val[i] != n + 64) ||
            (f == IN_L && val[i] != 64 - n) || f == 0)
            bad++;
    }
    return bad;
}

/* abapa, compact: P = O everywhere, or count where not. */
static void count_open(sweep *w)
{
    w->clash += eg_count_open(w->cs, w->val, w->N, w->n);
}

void eg_finish_entries(uint8_t *val, const uint8_t *eb, uint64_t M)
{
    for (uint64_t i = 0; i < M; i++) {
        uint8_t v = val[i] & 0x7f;
        if (!v)
            v = 64; /* awari: median(P, 0, O) = 0 */
        val[i] = (uint8_t)(v | (val[i] & 0x80) | (eb[i] & EB_ALL));
    }
}

int eg_compute_entries_w(const eg_rules *r, int n, int threads, eg_work *wk,
                         uint64_t *open, mc_egdb_progress progress, void *ctx)
{
    uint64_t N = mc_egdb_layer_size(n);
    sweep w;
    int rc = -1, from = 0;
    uint64_t clash = 0;
    assert(wk->cs && wk->eb && wk->val);
    *open = 0;
    wk->resumed = -1;
    wk->saved = 0;
    if (wk->ckpt && eg_ckpt_load(wk, N, &from, &clash) == 0) {
        wk->resumed = from;
        if (progress) {
            progress(ctx, n, "resumed", (uint64_t)from,
                     (uint64_t)eg_thresholds(r->preset, n));
        }
    }
    int skip = wk->resumed >= 0;
    double t0 = mc_now();
    if (sweep_init(&w, r, n, threads, progress, ctx, wk, skip) != 0)
        goto out;
    w.val = wk->val;
    w.clash = clash;
    if (!skip) {
        memset(w.val, 0, N);
        /* after the forward pass, when it took long enough */
        rc = checkpoint(&w, 0, &t0);
        if (rc != 0)
            goto out;
        rc = -1;
    }
    /* awari stores median(P, 0, O): only the bounds beyond 0 matter, and
       a position has at most one of them. */
    int awari = r->preset == MC_EGDB_AWARI;
    rc = run_sweep(&w, awari ? 1 : -n, awari ? NULL : count_open, from);
    if (rc != 0)
        goto out;
    eg_finish_entries(wk->val, w.eb, N);
    *open = awari ? 0 : w.clash;
    eg_ckpt_remove(wk);
    rc = 0;
out:
    sweep_free(&w);
    return rc;
}

int eg_compute_entries(const eg_rules *r, int n, int threads, uint8_t *out,
                       uint64_t *open, mc_egdb_progress progress, void *ctx)
{
    uint64_t N = mc_egdb_layer_size(n);
    eg_work wk = {0};
    wk.val = out;
    wk.cs = malloc(N ? N : 1);
    wk.eb = malloc(N ? N : 1);
    int rc = wk.cs && wk.eb
                 ? eg_compute_entries_w(r, n, threads, &wk, open, progress, ctx)
                 : -1;
    free(wk.cs);
    free(wk.eb);
    return rc;
}
