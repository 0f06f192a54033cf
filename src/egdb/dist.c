/*
 * dist.c - the compact sweep of one layer shared by several processes
 * (docs/EGDB.md, "Over MPI"; Romein and Bal's design for Awari, in bulk
 * synchronous rounds).
 *
 * Rank k owns the positions [N k / K, N (k + 1) / K) of the layer and
 * their three bytes (state, best exit, value).  It runs the forward pass
 * over them, and each threshold of the sweep and the peel as rounds: it
 * propagates from its own stack; an update for a predecessor that another
 * rank owns (a count to decrement, a position to put in A) is a word in
 * that rank's outbox; the outboxes go out in one exchange a round, and
 * what comes in is applied as the owner's own updates.  A phase ends when
 * a round leaves no rank with work on its stack or words sent.  The sets
 * A_t and L_t are fixed points, which do not depend on the order of the
 * updates, so the values are those of the one-process sweep.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "egdb_int.h"

/* An update's kind, in the low 2 bits of its word (the rank above). */
enum { UP_DEC = 0, UP_TO_A = 1, UP_PEEL = 2 };

/* Words a rank collects for the others before it stops propagating and
   waits for the round's exchange (8 MiB): what bounds the messages'
   memory; the rest waits on the stack. */
#define DIST_ROUND_WORDS (1u << 20)

typedef struct dentry {
    uint64_t e; /* rank << 1 | entered L (sweep); rank (peel) */
    uint8_t h[12];
} dentry;

typedef struct words {
    uint64_t *v;
    size_t len, cap;
} words;

typedef struct dsweep {
    const eg_rules *r;
    const mc_egdb_dist *d;
    int n, t, peel;
    uint64_t N, lo, hi;
    uint8_t *cs, *eb, *val; /* [position - lo] */
    dentry *st;
    size_t slen, scap;
    words *out; /* one per rank */
    uint64_t clash, rounds, sent;
    size_t pending; /* words in the outboxes */
    uint64_t scan;  /* the phase's scan of the owned seeds: next index */
    int scanning;   /* ... not finished yet */
    uint64_t pred[EG_MAX_PREDS];
    uint8_t board[EG_MAX_PREDS][12];
} dsweep;

/* The first position of part k of K of a layer of N. */
static uint64_t range_at(uint64_t N, int k, int K)
{
    return (uint64_t)((unsigned __int128)N * (unsigned)k / (unsigned)K);
}

static uint64_t part_lo(const dsweep *w, int k)
{
    return range_at(w->N, k, w->d->size);
}

/* The rank that owns position q. */
static int owner(const dsweep *w, uint64_t q)
{
    mc_hot_assert(q < w->N);
    int k = (int)((unsigned __int128)q * (unsigned)w->d->size / w->N);
    while (k + 1 < w->d->size && part_lo(w, k + 1) <= q)
        k++;
    while (k > 0 && part_lo(w, k) > q)
        k--;
    mc_hot_assert(part_lo(w, k) <= q && q < part_lo(w, k + 1));
    return k;
}

static int dpush(dsweep *w, uint64_t e, const uint8_t *h, uint64_t q)
{
    size_t cap = mc_grow(&w->st, w->scap, w->slen + 1, sizeof *w->st, 1 << 14);
    if (!cap)
        return -1;
    w->scap = cap;
    w->st[w->slen].e = e;
    if (h)
        memcpy(w->st[w->slen].h, h, 12);
    else
        mc_egdb_unrank(w->n, q, w->st[w->slen].h);
    w->slen++;
    return 0;
}

static int wpush(words *o, uint64_t x)
{
    size_t cap = mc_grow(&o->v, o->cap, o->len + 1, sizeof *o->v, 1 << 12);
    if (!cap)
        return -1;
    o->cap = cap;
    o->v[o->len++] = x;
    return 0;
}

/* The first bound decided is the value; a second that differs is a
   clash (P < O, counted). */
static void note(dsweep *w, uint64_t i, int v)
{
    uint8_t e = (uint8_t)(v + 64);
    if (!w->val[i])
        w->val[i] = e;
    else if ((w->val[i] & 0x7f) != e)
        w->clash++;
}

/* Update kind for the owned position q (board h, or NULL: unranked). */
static int apply(dsweep *w, uint64_t q, int kind, const uint8_t *h)
{
    /* updates go to the rank that owns the position */
    mc_hot_assert(q >= w->lo && q < w->hi);
    uint64_t i = q - w->lo;
    uint8_t *c = &w->cs[i];
    int t = w->t;
    if (kind == UP_DEC) {
        /* bits 0-2 never go below 0: one decrement an edge */
        mc_hot_assert(CNT(*c) != 0);
        (*c)--;
        if (CNT(*c) == 0 && !(*c & IN_L) && eb_best(w->eb[i]) <= -t) {
            *c |= IN_L;
            note(w, i, -t);
            return dpush(w, q << 1 | 1, h, q);
        }
    } else if (kind == UP_TO_A) {
        if (!(*c & IN_A)) {
            *c |= IN_A;
            note(w, i, t);
            return dpush(w, q << 1, h, q);
        }
    } else if (--(*c) == 0) {
        *c = PEELED;
        return dpush(w, q, h, q);
    }
    return 0;
}

/* Propagate from the stack: owned predecessors at once, the others into
   their owners' outboxes. */
static int drain(dsweep *w)
{
    while (w->slen && w->pending < DIST_ROUND_WORDS) {
        dentry de = w->st[--w->slen];
        int kind;
        if (w->peel) {
            w->val[de.e - w->lo] |= 0x80;
            kind = UP_PEEL;
        } else {
            kind = de.e & 1 ? UP_TO_A : UP_DEC;
        }
        int np = eg_unmove(w->r, w->n, de.h, w->pred, w->board);
        for (int j = 0; j < np; j++) {
            uint64_t q = w->pred[j];
            int mine = q >= w->lo && q < w->hi;
            int rc = mine
                         ? apply(w, q, kind, w->board[j])
                         : wpush(&w->out[owner(w, q)], q << 2 | (uint64_t)kind);
            w->pending += !mine;
            if (rc)
                return -1;
        }
    }
    return 0;
}

static int scan_some(dsweep *w);

/* Rounds of local propagation (and of the phase's scan) and one
   exchange, until no rank has work, seeds left to scan or words in
   flight. */
static int rounds(dsweep *w)
{
    const mc_egdb_dist *d = w->d;
    int K = d->size;
    uint64_t **outv = malloc((size_t)K * sizeof *outv);
    size_t *outn = malloc((size_t)K * sizeof *outn);
    int rc = outv && outn ? 0 : -1;
    while (rc == 0) {
        w->rounds++;
        if (drain(w) != 0 || (w->scanning && scan_some(w) != 0)) {
            rc = -1;
            break;
        }
        uint64_t sent = 0;
        for (int k = 0; k < K; k++) {
            outv[k] = w->out[k].v;
            outn[k] = k == d->rank ? 0 : w->out[k].len;
            sent += outn[k];
        }
        uint64_t *in = NULL;
        size_t inn = 0;
        if (d->exchange(d->ctx, outv, outn, &in, &inn) != 0) {
            rc = -1;
            break;
        }
        for (int k = 0; k < K; k++)
            w->out[k].len = 0;
        w->pending = 0;
        for (size_t i = 0; i < inn && rc == 0; i++) {
            uint64_t q = in[i] >> 2;
            if (q < w->lo || q >= w->hi)
                rc = -1; /* not ours: a broken transport */
            else
                rc = apply(w, q, (int)(in[i] & 3), NULL);
        }
        free(in);
        w->sent += sent;
        uint64_t more = sent + w->slen + (uint64_t)w->scanning;
        if (rc == 0 && d->sum(d->ctx, &more, 1) != 0)
            rc = -1;
        if (rc == 0 && more == 0)
            break;
    }
    free(outv);
    free(outn);
    return rc;
}

/* The owned seeds of the phase, from w->scan on, each propagated at
   once, until the outboxes are full for this round (the scan goes on in
   the next) or the scan ends.  Threshold t: an exit reaching t for A_t;
   all children in A and every exit at most -t for L_t.  Peel: the
   positions with no in-layer child left. */
static int scan_some(dsweep *w)
{
    uint8_t h[12];
    int t = w->t;
    uint64_t M = w->hi - w->lo, i = w->scan;
    for (; i < M && w->pending < DIST_ROUND_WORDS; i++) {
        uint64_t q = w->lo + i;
        if (w->peel) {
            if (w->cs[i] != 0)
                continue;
            w->cs[i] = PEELED;
            mc_egdb_unrank(w->n, q, h);
            if (dpush(w, q, h, 0) || drain(w))
                return -1;
            continue;
        }
        int e = eb_best(w->eb[i]);
        if (e != t && e != -t)
            continue;
        mc_egdb_unrank(w->n, q, h);
        if (e == t && !(w->cs[i] & IN_A)) {
            w->cs[i] |= IN_A;
            note(w, i, t);
            if (dpush(w, q << 1, h, q) || drain(w))
                return -1;
        }
        uint8_t c = w->cs[i];
        if (e == -t && !(c & IN_L) && CNT(c) == 0) {
            w->cs[i] |= IN_L;
            note(w, i, -t);
            if (dpush(w, q << 1 | 1, h, q) || drain(w))
                return -1;
        }
    }
    w->scan = i;
    w->scanning = i < M;
    return 0;
}

/* Threshold t: its seeds and their propagation, in rounds. */
static int threshold(dsweep *w, int t)
{
    w->t = t;
    w->peel = 0;
    w->scan = 0;
    w->scanning = 1;
    return rounds(w);
}

/* The peel: positions from which no cycle is reachable. */
static int peel(dsweep *w)
{
    w->peel = 1;
    w->scan = 0;
    w->scanning = 1;
    return rounds(w);
}

/* Whether every rank holds the same phase p (-1: none): all resume
   from it, or none does. */
static int same_phase(const mc_egdb_dist *d, int p)
{
    uint64_t v[3] = {p >= 0, (uint64_t)(p + 1),
                     (uint64_t)(p + 1) * (uint64_t)(p + 1)};
    if (d->sum(d->ctx, v, 3) != 0)
        return 0;
    /* all equal: K * sum(x^2) == sum(x)^2 */
    return v[0] == (uint64_t)d->size && (uint64_t)d->size * v[2] == v[1] * v[1];
}

/* A checkpoint of every rank's part after phase (thresholds done), when
   rank 0's clock says one is due; -2 when the test hook stops the
   build there. */
static int dist_checkpoint(dsweep *w, eg_work *wk, int phase, double *last)
{
    if (!wk->ckpt)
        return 0;
    uint64_t due = w->d->rank == 0 && mc_now() - *last >= wk->ckpt_secs;
    if (w->d->sum(w->d->ctx, &due, 1) != 0 || !due)
        return 0;
    eg_ckpt_save(wk, w->hi - w->lo, phase, w->clash);
    *last = mc_now();
    wk->saved++;
    return wk->stop_after && wk->saved >= wk->stop_after ? -2 : 0;
}

/* The phase the sweep starts at: a checkpoint's, when every rank holds
   one of the same phase (its arrays then taken up), else 0 after the
   forward pass over this rank's positions (a checkpoint after it when
   one is due).  0 and *from, or -1, or -2 (stop_after). */
static int dist_start(dsweep *w, eg_work *wk, int threads, int *from,
                      double *last, mc_egdb_progress progress, void *ctx)
{
    const eg_rules *r = w->r;
    uint64_t M = w->hi - w->lo, clash = 0;
    int ph = -1;
    if (wk->ckpt && eg_ckpt_load(wk, M, &ph, &clash) != 0)
        ph = -1;
    if (!same_phase(w->d, ph))
        ph = -1;
    *last = mc_now();
    if (ph >= 0) {
        wk->resumed = ph;
        w->clash = clash;
        if (progress)
            progress(ctx, w->n, "resumed", (uint64_t)ph,
                     (uint64_t)eg_thresholds(r->preset, w->n));
        *from = ph;
        return 0;
    }
    *from = 0;
    memset(w->val, 0, M);
    eg_forward_range(r, w->n, threads, w->lo, w->hi, w->eb, w->cs, progress,
                     ctx);
    for (uint64_t i = 0; i < M; i++)
        w->cs[i] = (uint8_t)(w->cs[i] | w->cs[i] << 3);
    return dist_checkpoint(w, wk, 0, last);
}

/* The thresholds of eg_compute_entries from phase from on: abapa n,
   n-2, ..., -n; awari n, n-1, ..., 1 (median(P, 0, O)); a checkpoint
   after each when one is due.  0, -1, or -2 (stop_after). */
static int dist_thresholds(dsweep *w, eg_work *wk, int from, double *last,
                           mc_egdb_progress progress, void *ctx)
{
    int n = w->n, awari = w->r->preset == MC_EGDB_AWARI;
    int step = awari ? 1 : 2, tmin = awari ? 1 : -n, phase = 0;
    for (int t = n; t >= tmin; t -= step, phase++) {
        if (phase < from)
            continue;
        if (threshold(w, t) != 0)
            return -1;
        if (progress)
            progress(ctx, n, "sweep", (uint64_t)(n - t + 1),
                     (uint64_t)(n - tmin + 1));
        int c = dist_checkpoint(w, wk, phase + 1, last);
        if (c)
            return c;
    }
    return 0;
}

/* After the thresholds: *open (abapa: where P = O fails, summed over the
   ranks), the peel, and the entries made.  0 or -1. */
static int dist_finish(dsweep *w, uint64_t *open)
{
    uint64_t M = w->hi - w->lo;
    int awari = w->r->preset == MC_EGDB_AWARI;
    uint64_t bad =
        w->clash + (awari ? 0 : eg_count_open(w->cs, w->val, M, w->n));
    if (w->d->sum(w->d->ctx, &bad, 1) != 0)
        return -1;
    for (uint64_t i = 0; i < M; i++)
        w->cs[i] = (uint8_t)CNT0(w->cs[i]);
    if (peel(w) != 0)
        return -1;
    eg_finish_entries(w->val, w->eb, M);
    *open = awari ? 0 : bad;
    return 0;
}

int eg_dist_entries(const eg_rules *r, int n, int threads,
                    const mc_egdb_dist *d, eg_work *wk, uint64_t *open,
                    mc_egdb_progress progress, void *ctx)
{
    dsweep *w = calloc(1, sizeof *w);
    if (!w)
        return -1;
    w->r = r;
    w->d = d;
    w->n = n;
    w->N = mc_egdb_layer_size(n);
    assert(d->size >= 1 && d->rank >= 0 && d->rank < d->size);
    w->lo = part_lo(w, d->rank);
    w->hi = part_lo(w, d->rank + 1);
    assert(w->lo <= w->hi && w->hi <= w->N);
    uint64_t M = w->hi - w->lo;
    w->val = wk->val;
    /* the caller's arrays (its budget), else the sweep's own */
    int own = !wk->cs || !wk->eb;
    w->cs = own ? malloc(M ? M : 1) : wk->cs;
    w->eb = own ? malloc(M ? M : 1) : wk->eb;
    w->out = calloc((size_t)d->size, sizeof *w->out);
    int rc = -1, from;
    double last;
    if (w->cs && w->eb && w->out) {
        /* This rank's checkpoint: wk->ckpt, one file a rank. */
        wk->cs = w->cs;
        wk->eb = w->eb;
        wk->resumed = -1;
        wk->saved = 0;
        rc = dist_start(w, wk, threads, &from, &last, progress, ctx);
        if (rc == 0)
            rc = dist_thresholds(w, wk, from, &last, progress, ctx);
        if (rc == 0)
            rc = dist_finish(w, open);
    }
    if (rc == 0) {
        eg_ckpt_remove(wk);
        eg_log(r->opts, EG_LOG_TIMING,
               "n=%d rank %d of %d: %llu rounds, %llu words sent", n, d->rank,
               d->size, (unsigned long long)w->rounds,
               (unsigned long long)w->sent);
    }
    if (w->out)
        for (int k = 0; k < d->size; k++)
            free(w->out[k].v);
    free(w->out);
    free(w->st);
    if (own) {
        free(w->cs);
        free(w->eb);
        wk->cs = wk->eb = NULL;
    }
    free(w);
    return rc;
}

void eg_dist_range(const mc_egdb_dist *d, int n, uint64_t *lo, uint64_t *hi)
{
    assert(d->size >= 1 && d->rank >= 0 && d->rank < d->size);
    uint64_t N = mc_egdb_layer_size(n);
    *lo = range_at(N, d->rank, d->size);
    *hi = range_at(N, d->rank + 1, d->size);
    assert(*lo <= *hi && *hi <= N);
}
