/*
 * solve.c - the retrograde core of the endgame databases: moves of a
 * mover-first configuration (through the Oware rules engine, so tables and
 * game can never disagree), un-moves (predecessors, verified forward), and
 * the threshold sweep that yields the bounds P and O of a layer together
 * (shared EGDB.md, "The history problem, and the two bounds").
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egdb_int.h"

const char *eg_preset_spec(int preset)
{
    return preset == MC_EGDB_AWARI ? "oware:awari,seeds=any"
                                   : "oware:abapa,seeds=any";
}

void eg_full_spec(const mc_game *g, char *buf, size_t sz)
{
    const char *gs = mc_game_option(g, "grand_slam");
    const char *rep = mc_game_option(g, "repetition");
    const char *cs = mc_game_option(g, "cycle_split");
    snprintf(buf, sz, "%s:grand_slam=%s,repetition=%s,cycle_split=%s",
             mc_game_name(g), gs ? gs : "?", rep ? rep : "?",
             cs ? cs : "?");
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

int eg_expand(const eg_rules *r, int n, const uint8_t h[12], eg_move *out)
{
    mc_pos p;
    memset(&p, 0, sizeof p);
    memcpy(p.pit, h, 12);
    p.side = MC_SOUTH;
    mc_move mv[MC_MAX_MOVES];
    int k = mc_moves(r->g, &p, mv);
    for (int i = 0; i < k; i++) {
        mc_pos q = p;
        mc_play(r->g, &q, mv[i], NULL);
        uint8_t c[12];
        eg_swap(q.pit, c);
        int cap = q.cap[MC_SOUTH];
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

int eg_unmove(const eg_rules *r, int n, const uint8_t x[12], uint64_t *out)
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
            if (cnt < EG_MAX_PREDS)
                out[cnt++] = mc_egdb_rank(t);
            t[o] = 0;
        }
    }
    return cnt;
}

/* ---- the forward pass, shared by threads ------------------------------ */

typedef struct fwd_job {
    const eg_rules *r;
    int n;
    uint64_t lo, hi;
    int8_t *eb;     /* best exit (or terminal value), EG_NO_EXIT if none */
    uint8_t *cnt;   /* in-layer moves */
    uint8_t *hp;    /* bit 1: some move takes every seed */
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
        j->eb[i] = (int8_t)best;
        j->cnt[i] = (uint8_t)in;
        j->hp[i] = (uint8_t)(all ? 2 : 0);
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

static int forward_pass(const eg_rules *r, int n, int threads, int8_t *eb,
                        uint8_t *cnt, uint8_t *hp, mc_egdb_progress progress,
                        void *ctx)
{
    uint64_t N = mc_egdb_layer_size(n);
    if (threads < 1)
        threads = 1;
    if (threads > 16)
        threads = 16;
    if (N < 4096)
        threads = 1;
    fwd_job jobs[16];
    pthread_t tid[16];
    volatile uint64_t done = 0;
    for (int t = 0; t < threads; t++) {
        jobs[t] = (fwd_job){r, n, N * (uint64_t)t / (uint64_t)threads,
                            N * (uint64_t)(t + 1) / (uint64_t)threads,
                            eb, cnt, hp, &done};
    }
    int started = 0;
    for (int t = 1; t < threads; t++) {
        if (pthread_create(&tid[t], NULL, fwd_run, &jobs[t]) != 0)
            break;
        started = t;
    }
    /* The calling thread does job 0, then any job whose thread did not
       start, reporting progress between chunks is left to the workers'
       counter. */
    if (progress && threads > 1) {
        /* Run job 0 in slices so that progress can be reported. */
        uint64_t lo = jobs[0].lo, hi = jobs[0].hi, step = 1u << 20;
        for (uint64_t a = lo; a < hi; a += step) {
            fwd_job s = jobs[0];
            s.lo = a;
            s.hi = a + step < hi ? a + step : hi;
            fwd_run(&s);
            progress(ctx, n, "moves", done, N);
        }
    } else if (progress) {
        uint64_t lo = jobs[0].lo, hi = jobs[0].hi, step = 1u << 20;
        for (uint64_t a = lo; a < hi; a += step) {
            fwd_job s = jobs[0];
            s.lo = a;
            s.hi = a + step < hi ? a + step : hi;
            fwd_run(&s);
            progress(ctx, n, "moves", s.hi, N);
        }
    } else {
        fwd_run(&jobs[0]);
    }
    for (int t = started + 1; t < threads; t++)
        fwd_run(&jobs[t]);
    for (int t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
    return 0;
}

/* ---- the threshold sweep ---------------------------------------------- */

/* One state byte per position: in-layer moves whose child is not yet in A
   (bits 0-2), all in-layer moves (bits 3-5, for the cycle peel), in A
   (bit 6), in L (bit 7).  With the best exit, P, O and the flags: 5 bytes
   a position. */
#define CNT(x) ((x) & 7)
#define CNT0(x) (((x) >> 3) & 7)
#define IN_A 0x40
#define IN_L 0x80

typedef struct stack {
    uint64_t *v;
    size_t len, cap;
} stack;

static int push(stack *s, uint64_t x)
{
    if (s->len == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 1 << 16;
        uint64_t *nv = realloc(s->v, nc * sizeof *nv);
        if (!nv)
            return -1;
        s->v = nv;
        s->cap = nc;
    }
    s->v[s->len++] = x;
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

typedef struct sweep {
    const eg_rules *r;
    int n;
    uint8_t *cs;
    const int8_t *eb;
    eg_bounds *b;
    int want_ranks;
    uint64_t rank, decided, N;
    stack s;
    mc_egdb_progress progress;
    void *ctx;
} sweep;

static void set_a(sweep *w, uint64_t q, int t)
{
    w->cs[q] |= IN_A;
    w->b->P[q] = (int8_t)t;
    if (w->want_ranks)
        w->b->rank_a[q] = (uint32_t)++w->rank;
}

static void set_l(sweep *w, uint64_t q, int t)
{
    w->cs[q] |= IN_L;
    w->b->O[q] = (int8_t)-t;
    if (w->want_ranks)
        w->b->rank_l[q] = (uint32_t)++w->rank;
}

/* Propagate from the entries on the stack at threshold t (retrograde
   attractor): a position entering A decrements its predecessors' counts;
   one entering L puts every predecessor in A. */
static int drain(sweep *w, int t)
{
    uint8_t h[12];
    uint64_t pred[EG_MAX_PREDS];
    while (w->s.len) {
        uint64_t e = w->s.v[--w->s.len], x = e >> 1;
        w->decided++;
        mc_egdb_unrank(w->n, x, h);
        int np = eg_unmove(w->r, w->n, h, pred);
        for (int k = 0; k < np; k++) {
            uint64_t q = pred[k];
            if (!(e & 1)) {
                w->cs[q]--; /* bits 0-2: never below 0 (one per edge) */
                if (CNT(w->cs[q]) == 0 && !(w->cs[q] & IN_L) &&
                    w->eb[q] <= -t) {
                    set_l(w, q, t);
                    if (push(&w->s, q << 1 | 1))
                        return -1;
                }
            } else if (!(w->cs[q] & IN_A)) {
                set_a(w, q, t);
                if (push(&w->s, q << 1))
                    return -1;
            }
        }
        if (w->progress && (w->decided & 0xfffff) == 0)
            w->progress(w->ctx, w->n, "sweep", w->decided, 2 * w->N);
    }
    return 0;
}

int eg_compute_bounds(const eg_rules *r, int n, int threads, eg_bounds *b,
                      int want_ranks, mc_egdb_progress progress, void *ctx)
{
    uint64_t N = mc_egdb_layer_size(n);
    memset(b, 0, sizeof *b);
    int8_t *eb = malloc(N);
    uint8_t *cs = malloc(N);
    b->P = malloc(N);
    b->O = malloc(N);
    b->hp = malloc(N);
    if (want_ranks) {
        b->rank_a = calloc(N, sizeof *b->rank_a);
        b->rank_l = calloc(N, sizeof *b->rank_l);
    }
    sweep w = {r, n, cs, eb, b, want_ranks, 0, 0, N, {0}, progress, ctx};
    int rc = -1;
    if (!eb || !cs || !b->P || !b->O || !b->hp ||
        (want_ranks && (!b->rank_a || !b->rank_l)))
        goto out;
    forward_pass(r, n, threads, eb, cs, b->hp, progress, ctx);
    for (uint64_t i = 0; i < N; i++)
        cs[i] = (uint8_t)(cs[i] | cs[i] << 3);

    for (int t = n; t >= -n; t--) {
        /* Seeds: an exit (or a terminal value) reaching t puts p in A_t;
           all children already in A and every exit <= -t put p in L_t.
           Each seed is propagated at once, which keeps the stack small. */
        for (uint64_t i = 0; i < N; i++) {
            int e = eb[i];
            if (e != t && e != -t)
                continue;
            if (e == t && !(cs[i] & IN_A)) {
                set_a(&w, i, t);
                if (push(&w.s, i << 1) || drain(&w, t))
                    goto out;
            }
            if (e == -t && !(cs[i] & IN_L) && CNT(cs[i]) == 0) {
                set_l(&w, i, t);
                if (push(&w.s, i << 1 | 1) || drain(&w, t))
                    goto out;
            }
        }
    }
    for (uint64_t i = 0; i < N; i++) {
        if (!(cs[i] & IN_A))
            b->P[i] = (int8_t)-n;
        if (!(cs[i] & IN_L))
            b->O[i] = (int8_t)n;
        b->open += b->P[i] < b->O[i];
    }

    /* history_proof: peel the positions from which no cycle is reachable
       (all in-layer children peeled first); bits 0-2 count again. */
    for (uint64_t i = 0; i < N; i++)
        cs[i] = (uint8_t)CNT0(cs[i]);
    w.s.len = 0;
    uint8_t h[12];
    uint64_t pred[EG_MAX_PREDS], peeled = 0;
    for (uint64_t i = 0; i < N; i++) {
        if (cs[i] != 0)
            continue;
        if (push(&w.s, i))
            goto out;
        while (w.s.len) {
            uint64_t x = w.s.v[--w.s.len];
            b->hp[x] |= 1;
            cs[x] = 8; /* peeled: never pushed again */
            if (progress && (++peeled & 0xfffff) == 0)
                progress(ctx, n, "cycles", peeled, N);
            mc_egdb_unrank(n, x, h);
            int np = eg_unmove(r, n, h, pred);
            for (int k = 0; k < np; k++)
                if (--cs[pred[k]] == 0 && push(&w.s, pred[k]))
                    goto out;
        }
    }
    for (uint64_t i = 0; i < N; i++)
        b->hp[i] = (uint8_t)(b->hp[i] != 0);
    rc = 0;
out:
    free(eb);
    free(cs);
    free(w.s.v);
    if (rc)
        eg_bounds_free(b);
    return rc;
}
