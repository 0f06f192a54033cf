/*
 * solve.c - the retrograde core of the endgame databases: moves of a
 * mover-first configuration (through the Oware rules engine, so tables and
 * game can never disagree), un-moves (predecessors, verified forward), and
 * the threshold sweep that yields the bounds P and O of a layer together
 * (shared EGDB.md, "The history problem, and the two bounds").
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "egdb_int.h"

const char *eg_preset_spec(int preset)
{
    return preset == MC_EGDB_AWARI ? "oware:awari,seeds=any"
                                   : "oware:abapa,seeds=any";
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

enum { IN_A = 1, IN_L = 2 };

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

int eg_compute_bounds(const eg_rules *r, int n, int threads, eg_bounds *b,
                      int want_ranks, mc_egdb_progress progress, void *ctx)
{
    uint64_t N = mc_egdb_layer_size(n);
    memset(b, 0, sizeof *b);
    int8_t *eb = malloc(N);
    uint8_t *cnt = malloc(N), *st = calloc(N, 1), *cnt0 = malloc(N);
    b->P = malloc(N);
    b->O = malloc(N);
    b->hp = malloc(N);
    if (want_ranks) {
        b->rank_a = calloc(N, sizeof *b->rank_a);
        b->rank_l = calloc(N, sizeof *b->rank_l);
    }
    stack s = {0};
    int rc = -1;
    uint32_t *border = NULL;
    uint64_t bstart[2 * MC_EGDB_MAX_SEEDS + 2] = {0};
    if (!eb || !cnt || !st || !cnt0 || !b->P || !b->O || !b->hp ||
        (want_ranks && (!b->rank_a || !b->rank_l)))
        goto out;
    forward_pass(r, n, threads, eb, cnt, b->hp, progress, ctx);
    memcpy(cnt0, cnt, N);
    /* Positions by best exit value (counting sort): the seeds of each
       threshold without scanning the layer. */
    border = malloc(N * sizeof *border);
    if (!border)
        goto out;
    for (uint64_t i = 0; i < N; i++)
        if (eb[i] != EG_NO_EXIT)
            bstart[eb[i] + n + 1]++;
    for (int v = 0; v <= 2 * n; v++)
        bstart[v + 1] += bstart[v];
    {
        uint64_t cur[2 * MC_EGDB_MAX_SEEDS + 2];
        memcpy(cur, bstart, sizeof cur);
        for (uint64_t i = 0; i < N; i++)
            if (eb[i] != EG_NO_EXIT)
                border[cur[eb[i] + n]++] = (uint32_t)i;
    }

    uint64_t rank = 0, decided = 0;
    uint8_t h[12];
    uint64_t pred[EG_MAX_PREDS];
    for (int t = n; t >= -n; t--) {
        /* Seeds: an exit (or a terminal value) reaching t puts p in A_t;
           all children already in A and every exit <= -t put p in L_t.
           The positions whose best exit is t (or -t) are one bucket. */
        for (uint64_t j = bstart[t + n]; j < bstart[t + n + 1]; j++) {
            uint64_t i = border[j];
            if (!(st[i] & IN_A)) {
                st[i] |= IN_A;
                b->P[i] = (int8_t)t;
                if (want_ranks)
                    b->rank_a[i] = (uint32_t)++rank;
                if (push(&s, i << 1))
                    goto out;
            }
        }
        for (uint64_t j = bstart[-t + n]; j < bstart[-t + n + 1]; j++) {
            uint64_t i = border[j];
            if (!(st[i] & IN_L) && cnt[i] == 0) {
                st[i] |= IN_L;
                b->O[i] = (int8_t)-t;
                if (want_ranks)
                    b->rank_l[i] = (uint32_t)++rank;
                if (push(&s, i << 1 | 1))
                    goto out;
            }
        }
        while (s.len) {
            uint64_t e = s.v[--s.len], x = e >> 1;
            decided++;
            mc_egdb_unrank(n, x, h);
            int np = eg_unmove(r, n, h, pred);
            for (int k = 0; k < np; k++) {
                uint64_t q = pred[k];
                if (!(e & 1)) {
                    /* x entered A_t: one more child of q is in A. */
                    cnt[q]--;
                    if (cnt[q] == 0 && !(st[q] & IN_L) && eb[q] <= -t) {
                        st[q] |= IN_L;
                        b->O[q] = (int8_t)-t;
                        if (want_ranks)
                            b->rank_l[q] = (uint32_t)++rank;
                        if (push(&s, q << 1 | 1))
                            goto out;
                    }
                } else if (!(st[q] & IN_A)) {
                    /* x entered L_t: q can move there and get >= t. */
                    st[q] |= IN_A;
                    b->P[q] = (int8_t)t;
                    if (want_ranks)
                        b->rank_a[q] = (uint32_t)++rank;
                    if (push(&s, q << 1))
                        goto out;
                }
            }
            if (progress && (decided & 0xfffff) == 0)
                progress(ctx, n, "sweep", decided, 2 * N);
        }
    }
    for (uint64_t i = 0; i < N; i++) {
        if (!(st[i] & IN_A))
            b->P[i] = (int8_t)-n;
        if (!(st[i] & IN_L))
            b->O[i] = (int8_t)n;
        b->open += b->P[i] < b->O[i];
    }

    /* history_proof: peel the positions from which no cycle is reachable
       (all in-layer children peeled first). */
    memcpy(cnt, cnt0, N);
    s.len = 0;
    for (uint64_t i = 0; i < N; i++)
        if (cnt[i] == 0 && push(&s, i))
            goto out;
    uint64_t peeled = 0;
    while (s.len) {
        uint64_t x = s.v[--s.len];
        b->hp[x] |= 1;
        if (progress && (++peeled & 0xfffff) == 0)
            progress(ctx, n, "cycles", peeled, N);
        mc_egdb_unrank(n, x, h);
        int np = eg_unmove(r, n, h, pred);
        for (int k = 0; k < np; k++)
            if (--cnt[pred[k]] == 0 && push(&s, pred[k]))
                goto out;
    }
    for (uint64_t i = 0; i < N; i++)
        b->hp[i] = (uint8_t)((b->hp[i] & 1) || (b->hp[i] & 2));
    rc = 0;
out:
    free(eb);
    free(cnt);
    free(cnt0);
    free(st);
    free(s.v);
    free(border);
    if (rc)
        eg_bounds_free(b);
    return rc;
}
