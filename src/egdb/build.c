/*
 * build.c - the layer builder: bounds from the sweep (solve.c), then the
 * stored value (awari: median(P, 0, O); abapa: the exact fresh value F,
 * found where P < O by a history-aware search inside the position's
 * strongly connected component), then the file.  Layers are built
 * bottom-up; a layer already complete on disk, with matching dependency
 * checksums, is kept, so a killed build resumes where it stopped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/util.h"
#include "egdb_int.h"

/* Work (search nodes) one F search may do before the layer falls back to
   the approximation of shared EGDB.md (approx_cycles). */
static uint64_t f_budget(void)
{
    const char *e = getenv("MANCALA_EGDB_BUDGET");
    return e ? strtoull(e, NULL, 10) : 100000;
}

/* Components of more members than this go straight to the approximation:
   the attractors of each search node cost a pass over the component, and
   the searches in the giant components of layers 6 and up (9,412 members
   in layer 6) mostly do not finish within the budget. */
static uint32_t f_maxcomp(void)
{
    const char *e = getenv("MANCALA_EGDB_MAXCOMP");
    return e ? (uint32_t)strtoul(e, NULL, 10) : 2000;
}

/*
 * The history-aware search for F inside one strongly connected component
 * C.  A state is (member of C, parity of the plies since the root): the
 * same position recurs only at an even distance.  With S the states played
 * since the last capture (the current one included), entering a state of
 * S ends the game, each side taking its row.
 *
 * The search answers tests "can the mover at x, with history S, make at
 * least t?" (values have the parity of n, so "more than -t" is "at least
 * 2 - t").  At each node two retrograde attractors on the graph in which S
 * is terminal bracket the children: a child in L_t (its mover makes at
 * most -t whatever the other does) proves the test, a child in A_{2-t}
 * refutes its move.  Attractor strategies never visit a state twice, so
 * these bounds hold with the child added to S as well.  Moves leaving C
 * lead to fresh positions (no state of S is reachable from there): their
 * value is -F(child).  F itself is found by bisection between P and O.
 */
static int own_diff(int n, uint64_t x)
{
    uint8_t h[12];
    mc_egdb_unrank(n, x, h);
    return eg_terminal(h);
}

typedef struct fcomp {
    int n;
    uint32_t s;           /* members; states are 2 * member + parity */
    int8_t *own;          /* own split of each member */
    int8_t *ebc;          /* best exit or move out of C, or EG_NO_EXIT */
    uint32_t *coff, *cto; /* children in C, CSR by member */
    uint32_t *poff, *pfrom; /* parents in C, CSR by member */
    /* Over the 2s states: in S, best known move with S terminal, moves
       into C \ S; attractor work arrays. */
    uint8_t *inS, *cntS, *cnt, *st;
    int8_t *ebS;
    uint32_t *stack;
    int8_t *undo;         /* ebS values saved by s_add */
    uint32_t nundo, undocap;
    uint64_t nodes, budget;
    int depth, aborted;
} fcomp;

/* Recursion depth at which a search gives up (each level is a frame). */
#define FC_MAX_DEPTH 20000

/* Add state z to S: its parents lose a move into C \ S and gain the
   repetition's value -own(z).  s_del undoes it (in reverse order). */
static int s_add(fcomp *f, uint32_t z)
{
    uint32_t m = z >> 1, pp = (z & 1) ^ 1;
    f->inS[z] = 1;
    for (uint32_t k = f->poff[m]; k < f->poff[m + 1]; k++) {
        uint32_t y = 2 * f->pfrom[k] + pp;
        if (f->nundo == f->undocap) {
            uint32_t nc = f->undocap ? 2 * f->undocap : 4096;
            int8_t *nu = realloc(f->undo, nc);
            if (!nu)
                return -1;
            f->undo = nu;
            f->undocap = nc;
        }
        f->undo[f->nundo++] = f->ebS[y];
        f->cntS[y]--;
        if (-f->own[m] > f->ebS[y])
            f->ebS[y] = (int8_t)-f->own[m];
    }
    return 0;
}

static void s_del(fcomp *f, uint32_t z)
{
    uint32_t m = z >> 1, pp = (z & 1) ^ 1;
    f->inS[z] = 0;
    for (uint32_t k = f->poff[m + 1]; k-- > f->poff[m];) {
        uint32_t y = 2 * f->pfrom[k] + pp;
        f->ebS[y] = f->undo[--f->nundo];
        f->cntS[y]++;
    }
}

/* The attractor at threshold t of the graph with S terminal: st bit 1
   for A_t (the mover makes at least t), bit 2 for L_t (at most -t). */
static void attract(fcomp *f, int t)
{
    uint32_t ns = 2 * f->s, sp = 0;
    memcpy(f->cnt, f->cntS, ns);
    memset(f->st, 0, ns);
    for (uint32_t y = 0; y < ns; y++) {
        if (f->inS[y])
            continue;
        if (f->ebS[y] >= t) {
            f->st[y] = 1;
            f->stack[sp++] = y;
        } else if (f->cnt[y] == 0 && f->ebS[y] <= -t) {
            f->st[y] = 2;
            f->stack[sp++] = y;
        }
    }
    while (sp) {
        uint32_t y = f->stack[--sp], m = y >> 1, pp = (y & 1) ^ 1;
        for (uint32_t k = f->poff[m]; k < f->poff[m + 1]; k++) {
            uint32_t q = 2 * f->pfrom[k] + pp;
            if (f->inS[q] || f->st[q])
                continue;
            if (f->st[y] == 2) {
                f->st[q] = 1;
                f->stack[sp++] = q;
            } else if (--f->cnt[q] == 0 && f->ebS[q] <= -t) {
                f->st[q] = 2;
                f->stack[sp++] = q;
            }
        }
    }
}

/* Can the mover at x (in S) make at least t?  1 yes, 0 no (or aborted). */
static int fc_test(fcomp *f, uint32_t x, int t)
{
    if (++f->nodes > f->budget || f->depth >= FC_MAX_DEPTH) {
        f->aborted = 1;
        return 0;
    }
    uint32_t m = x >> 1, cp = (x & 1) ^ 1;
    if (f->ebc[m] >= t)
        return 1;
    uint32_t open[8], no = 0;
    for (uint32_t k = f->coff[m]; k < f->coff[m + 1]; k++) {
        uint32_t z = 2 * f->cto[k] + cp;
        if (f->inS[z]) {
            if (-f->own[z >> 1] >= t)
                return 1;
        } else {
            open[no++] = z;
        }
    }
    if (no == 0)
        return 0;
    /* A child whose mover makes at most -t proves the test; one whose
       mover makes at least 2 - t refutes its move. */
    attract(f, t);
    for (uint32_t i = 0; i < no; i++)
        if (f->st[open[i]] == 2)
            return 1;
    attract(f, 2 - t);
    uint32_t k = 0;
    for (uint32_t i = 0; i < no; i++)
        if (f->st[open[i]] != 1)
            open[k++] = open[i];
    for (uint32_t i = 0; i < k; i++) {
        if (s_add(f, open[i]) != 0) {
            f->aborted = 1;
            return 0;
        }
        f->depth++;
        int r = fc_test(f, open[i], 2 - t);
        f->depth--;
        s_del(f, open[i]);
        if (f->aborted)
            return 0;
        if (!r)
            return 1;
    }
    return 0;
}

/* Member arrays of component C (members mem[0..s)) and the state arrays. */
static int fc_init(fcomp *f, int n, uint32_t s, const uint32_t *mem,
                   const uint32_t *loc, const uint32_t *comp, uint32_t id,
                   const uint32_t *off, const eg_move *mv, const int8_t *F)
{
    memset(f, 0, sizeof *f);
    f->n = n;
    f->s = s;
    size_t ns = 2 * (size_t)s, ne = 0;
    for (uint32_t j = 0; j < s; j++)
        ne += off[mem[j] + 1] - off[mem[j]];
    f->own = malloc(s);
    f->ebc = malloc(s);
    f->coff = calloc((size_t)s + 1, sizeof *f->coff);
    f->cto = malloc((ne + 1) * sizeof *f->cto);
    f->poff = calloc((size_t)s + 2, sizeof *f->poff);
    f->pfrom = malloc((ne + 1) * sizeof *f->pfrom);
    f->inS = calloc(ns, 1);
    f->cntS = malloc(ns);
    f->cnt = malloc(ns);
    f->st = malloc(ns);
    f->ebS = malloc(ns);
    f->stack = malloc((ns + 1) * sizeof *f->stack);
    if (!f->own || !f->ebc || !f->coff || !f->cto || !f->poff || !f->pfrom ||
        !f->inS || !f->cntS || !f->cnt || !f->st || !f->ebS || !f->stack)
        return -1;
    uint32_t e = 0;
    for (uint32_t j = 0; j < s; j++) {
        uint32_t y = mem[j];
        f->own[j] = (int8_t)own_diff(n, y);
        int best = off[y] == off[y + 1] ? f->own[j] : EG_NO_EXIT;
        f->coff[j] = e;
        for (uint32_t k = off[y]; k < off[y + 1]; k++) {
            const eg_move *m = &mv[k];
            int v;
            if (m->exit)
                v = m->val;
            else if (comp[m->child] != id)
                v = -F[m->child];
            else {
                f->cto[e++] = loc[m->child];
                f->poff[loc[m->child] + 2]++;
                continue;
            }
            if (v > best)
                best = v;
        }
        f->ebc[j] = (int8_t)best;
    }
    f->coff[s] = e;
    for (uint32_t j = 0; j < s; j++)
        f->poff[j + 2] += f->poff[j + 1];
    for (uint32_t j = 0; j < s; j++)
        for (uint32_t k = f->coff[j]; k < f->coff[j + 1]; k++)
            f->pfrom[f->poff[f->cto[k] + 1]++] = j;
    for (size_t y = 0; y < ns; y++) {
        uint32_t j = (uint32_t)(y >> 1);
        f->ebS[y] = f->ebc[j];
        f->cntS[y] = (uint8_t)(f->coff[j + 1] - f->coff[j]);
    }
    return 0;
}

static void fc_free(fcomp *f)
{
    free(f->own), free(f->ebc), free(f->coff), free(f->cto);
    free(f->poff), free(f->pfrom), free(f->inS), free(f->cntS);
    free(f->cnt), free(f->st), free(f->ebS), free(f->stack), free(f->undo);
}

/* F of member j (fresh start) between its bounds P <= F <= O, by
   bisection over tests; *aborted when the budget ran out. */
static int fc_value(fcomp *f, uint32_t j, int P, int O, uint64_t budget,
                    int *aborted)
{
    uint32_t x = 2 * j;
    f->nodes = 0;
    f->budget = budget;
    f->aborted = 0;
    f->depth = 0;
    if (s_add(f, x) != 0)
        return *aborted = 1, P;
    int lo = P, hi = O; /* F >= lo is known; F <= hi */
    while (lo < hi && !f->aborted) {
        int mid = lo + 2 * ((hi - lo) / 4 + 1); /* parity of n, > lo */
        if (fc_test(f, x, mid))
            lo = mid;
        else if (!f->aborted)
            hi = mid - 2;
    }
    s_del(f, x);
    *aborted = f->aborted;
    return lo;
}

/* Tarjan's algorithm without recursion; components are numbered in the
   order they complete (every edge leaving a component goes to one with a
   smaller number). */
static int tarjan(uint64_t N, const uint32_t *off, const eg_move *mv,
                  uint32_t *comp, uint32_t *ncomp)
{
    uint32_t *idx = malloc(N * sizeof *idx), *low = malloc(N * sizeof *low);
    uint32_t *stk = malloc(N * sizeof *stk), *cs = malloc(N * sizeof *cs);
    uint32_t *it = malloc(N * sizeof *it);
    uint8_t *on = calloc(N, 1);
    if (!idx || !low || !stk || !cs || !it || !on) {
        free(idx), free(low), free(stk), free(cs), free(it), free(on);
        return -1;
    }
    const uint32_t UNSEEN = 0xffffffffu;
    for (uint64_t i = 0; i < N; i++)
        idx[i] = UNSEEN;
    uint32_t counter = 0, sp = 0, nc = 0;
    for (uint64_t root = 0; root < N; root++) {
        if (idx[root] != UNSEEN)
            continue;
        uint32_t csp = 0;
        cs[csp++] = (uint32_t)root;
        idx[root] = low[root] = counter++;
        it[root] = off[root];
        stk[sp++] = (uint32_t)root;
        on[root] = 1;
        while (csp) {
            uint32_t v = cs[csp - 1];
            if (it[v] < off[v + 1]) {
                const eg_move *k = &mv[it[v]++];
                if (k->exit)
                    continue;
                uint32_t w = (uint32_t)k->child;
                if (idx[w] == UNSEEN) {
                    idx[w] = low[w] = counter++;
                    it[w] = off[w];
                    stk[sp++] = w;
                    on[w] = 1;
                    cs[csp++] = w;
                } else if (on[w] && idx[w] < low[v]) {
                    low[v] = idx[w];
                }
                continue;
            }
            csp--;
            if (csp && low[v] < low[cs[csp - 1]])
                low[cs[csp - 1]] = low[v];
            if (low[v] == idx[v]) {
                uint32_t w;
                do {
                    w = stk[--sp];
                    on[w] = 0;
                    comp[w] = nc;
                } while (w != v);
                nc++;
            }
        }
    }
    *ncomp = nc;
    free(idx), free(low), free(stk), free(cs), free(it), free(on);
    return 0;
}


/* abapa: F where P < O (layers of few seeds only). */
static int fresh_values(const eg_rules *r, int n, const eg_bounds *b,
                        int8_t *F, int *approx, mc_error *err)
{
    uint64_t N = mc_egdb_layer_size(n);
    if (N > 0xfffffff0u)
        return mc_err(err, MC_ERR_ARG, "layer %d too large for the search",
                      n);
    uint32_t *off = malloc((N + 1) * sizeof *off);
    uint32_t *comp = malloc(N * sizeof *comp);
    size_t cap = N * 4 + 16, len = 0;
    eg_move *mv = malloc(cap * sizeof *mv);
    uint32_t *order = NULL;
    int rc = MC_ERR_IO;
    if (!off || !comp || !mv)
        goto oom;
    uint8_t h[12];
    for (uint64_t i = 0; i < N; i++) {
        mc_egdb_unrank(n, i, h);
        if (len + 6 > cap) {
            cap *= 2;
            eg_move *nm = realloc(mv, cap * sizeof *mv);
            if (!nm)
                goto oom;
            mv = nm;
        }
        off[i] = (uint32_t)len;
        len += (size_t)eg_expand(r, n, h, mv + len);
    }
    off[N] = (uint32_t)len;
    uint32_t nc;
    if (tarjan(N, off, mv, comp, &nc) != 0)
        goto oom;
    /* Positions with P < O, by component number (children's components
       first), so that every child outside the component is known. */
    uint64_t nopen = 0;
    for (uint64_t i = 0; i < N; i++) {
        F[i] = b->P[i];
        nopen += b->P[i] < b->O[i];
    }
    order = malloc((nopen + 1) * sizeof *order);
    if (!order)
        goto oom;
    uint64_t k = 0;
    for (uint64_t i = 0; i < N; i++)
        if (b->P[i] < b->O[i])
            order[k++] = (uint32_t)i;
    /* Sort by component (insertion via counting would be faster; the
       open positions are few). */
    {
        uint32_t *cnt = calloc((size_t)nc + 1, sizeof *cnt);
        uint32_t *tmp = malloc((nopen + 1) * sizeof *tmp);
        if (!cnt || !tmp) {
            free(cnt);
            free(tmp);
            goto oom;
        }
        for (uint64_t i = 0; i < nopen; i++)
            cnt[comp[order[i]] + 1]++;
        for (uint32_t c = 0; c < nc; c++)
            cnt[c + 1] += cnt[c];
        for (uint64_t i = 0; i < nopen; i++)
            tmp[cnt[comp[order[i]]]++] = order[i];
        free(order);
        free(cnt);
        order = tmp;
    }
    /* Members of each component holding open positions. */
    uint32_t *loc = malloc(N * sizeof *loc);
    uint32_t *cstart = calloc((size_t)nc + 2, sizeof *cstart);
    uint32_t *members = malloc(N * sizeof *members);
    if (!loc || !cstart || !members) {
        free(loc), free(cstart), free(members);
        goto oom;
    }
    for (uint64_t i = 0; i < N; i++)
        cstart[comp[i] + 1]++;
    for (uint32_t c = 0; c < nc; c++)
        cstart[c + 1] += cstart[c];
    /* Members of c: members[cstart[c] .. cstart[c + 1]); loc is the
       place of a position among its component's members. */
    {
        uint32_t *cur = malloc(((size_t)nc + 1) * sizeof *cur);
        if (!cur) {
            free(loc), free(cstart), free(members);
            goto oom;
        }
        memcpy(cur, cstart, ((size_t)nc + 1) * sizeof *cur);
        for (uint64_t i = 0; i < N; i++) {
            uint32_t c = comp[i];
            loc[i] = cur[c] - cstart[c];
            members[cur[c]++] = (uint32_t)i;
        }
        free(cur);
    }
    uint64_t budget = f_budget();
    uint32_t maxcomp = f_maxcomp();
    for (uint64_t i = 0; i < nopen;) {
        uint32_t c = comp[order[i]];
        uint32_t s = cstart[c + 1] - cstart[c];
        fcomp f;
        if (fc_init(&f, n, s, members + cstart[c], loc, comp, c, off, mv,
                    F) != 0) {
            fc_free(&f);
            free(loc), free(cstart), free(members);
            goto oom;
        }
        for (; i < nopen && comp[order[i]] == c; i++) {
            uint64_t x = order[i];
            int aborted;
            int v = fc_value(&f, loc[x], b->P[x], b->O[x],
                             s > maxcomp ? 0 : budget, &aborted);
            if (aborted) {
                /* shared EGDB.md: clamp(own split, P, O), flagged. */
                v = own_diff(n, x);
                *approx = 1;
                if (v < b->P[x])
                    v = b->P[x];
                if (v > b->O[x])
                    v = b->O[x];
            }
            if (getenv("MANCALA_EGDB_DEBUG"))
                fprintf(stderr, "n=%d x=%llu P=%d O=%d F=%d nodes=%llu "
                        "comp=%u size=%u%s\n", n, (unsigned long long)x,
                        b->P[x], b->O[x], v, (unsigned long long)f.nodes,
                        c, s, aborted ? " ABORTED" : "");
            F[x] = (int8_t)v;
        }
        fc_free(&f);
    }
    free(loc), free(cstart), free(members);
    rc = 0;
    goto out;
oom:
    rc = mc_err(err, MC_ERR_IO, "out of memory in the search of layer %d",
                n);
out:
    free(off);
    free(comp);
    free(mv);
    free(order);
    return rc;
}

static int eg_open_error(int n, uint64_t open, mc_error *err)
{
    return mc_err(err, MC_ERR_ARG,
                  "layer %d: %llu positions have different bounds (P < O); "
                  "the contract says this never happens from 12 seeds up: "
                  "stopping",
                  n, (unsigned long long)open);
}

int eg_values(const eg_rules *r, int n, const eg_bounds *b, uint8_t *out,
              int *approx, mc_error *err)
{
    uint64_t N = mc_egdb_layer_size(n);
    if (r->preset == MC_EGDB_AWARI) {
        for (uint64_t i = 0; i < N; i++) {
            int v = b->P[i] > 0 ? b->P[i] : b->O[i] < 0 ? b->O[i] : 0;
            out[i] = eg_entry(v, b->hp[i]);
        }
        return 0;
    }
    if (b->open && n >= 12)
        return eg_open_error(n, b->open, err);
    if (!b->open) {
        for (uint64_t i = 0; i < N; i++)
            out[i] = eg_entry(b->P[i], b->hp[i]);
        return 0;
    }
    int8_t *F = malloc(N);
    if (!F)
        return mc_err(err, MC_ERR_IO, "out of memory");
    int rc = fresh_values(r, n, b, F, approx, err);
    if (rc == 0)
        for (uint64_t i = 0; i < N; i++)
            out[i] = eg_entry(F[i], b->hp[i]);
    free(F);
    return rc;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#include <sys/mman.h>

static int eg_oom(int n, mc_error *err)
{
    return mc_err(err, MC_ERR_IO, "out of memory building layer %d", n);
}

/* The entries of layer n into out: the compact sweep from EG_COMPACT_FROM
   seeds up (3 bytes a position, P = O asserted under abapa), the full
   sweep and the history search below. */
static int layer_entries(eg_rules *r, int n, mc_egdb_build_opts *o,
                         uint8_t *out, int *approx, mc_error *err)
{
    if (n >= EG_COMPACT_FROM) {
        uint64_t open;
        if (eg_compute_entries(r, n, o->threads, out, &open, o->progress,
                               o->progress_ctx) != 0)
            return eg_oom(n, err);
        if (o->preset == MC_EGDB_AWARI) {
            o->open_bounds[n] = MC_EGDB_NOT_COUNTED;
            return 0;
        }
        o->open_bounds[n] = open;
        return open ? eg_open_error(n, open, err) : 0;
    }
    eg_bounds b;
    if (eg_compute_bounds(r, n, o->threads, &b, 0, o->progress,
                          o->progress_ctx) != 0)
        return eg_oom(n, err);
    o->open_bounds[n] = b.open;
    int rc = eg_values(r, n, &b, out, approx, err);
    eg_bounds_free(&b);
    return rc;
}

int mc_egdb_build(mc_egdb_build_opts *o, mc_error *err)
{
    if (o->max_seeds < 0 || o->max_seeds > MC_EGDB_MAX_SEEDS)
        return mc_err(err, MC_ERR_ARG, "--seeds must be 0..%d",
                      MC_EGDB_MAX_SEEDS);
    eg_rules r;
    int rc = eg_rules_init(&r, o->preset, err);
    if (rc)
        return rc;
    uint8_t *own[MC_EGDB_MAX_SEEDS + 1] = {0};
    uint64_t hsum[MC_EGDB_MAX_SEEDS + 1];
    int approx_below = 0;
    o->first_built = o->max_seeds + 1;
    for (int n = 0; n <= o->max_seeds && rc == 0; n++) {
        char path[4096];
        mc_egdb_path(o->dir, o->preset, n, path, sizeof path);
        o->seconds[n] = 0;
        o->open_bounds[n] = 0;
        mc_egdb_info info;
        const uint8_t *d;
        if (o->first_built > o->max_seeds &&
            eg_map_layer(path, &info, &d, &r.map[n], &r.maplen[n], NULL) ==
                0) {
            int ok = info.preset == o->preset;
            for (int m = 0; m < n && ok; m++)
                ok = info.dep_sum[m] == hsum[m];
            if (ok) {
                r.lower[n] = d;
                hsum[n] = info.header_sum;
                approx_below |= (int)info.approx_cycles;
                continue;
            }
            munmap(r.map[n], r.maplen[n]);
            r.map[n] = NULL;
            r.maplen[n] = 0;
        }
        if (o->first_built > n)
            o->first_built = n;
        double t0 = now();
        uint64_t N = mc_egdb_layer_size(n);
        own[n] = malloc(N);
        int approx = approx_below;
        rc = own[n] ? layer_entries(&r, n, o, own[n], &approx, err)
                    : eg_oom(n, err);
        if (rc)
            break;
        memset(&info, 0, sizeof info);
        info.preset = o->preset;
        info.n = n;
        eg_full_spec(r.g, info.spec, sizeof info.spec);
        info.entries = N;
        info.builder_version = EG_BUILDER_VERSION;
        for (uint64_t i = 0; i < N; i++) {
            info.hist[own[n][i] & 0x7f]++;
            info.history_proof += own[n][i] >> 7;
        }
        info.approx_cycles = (uint32_t)approx;
        approx_below |= approx;
        info.ndeps = (uint32_t)n;
        for (int m = 0; m < n; m++)
            info.dep_sum[m] = hsum[m];
        rc = eg_write_layer(o->dir, &info, own[n], err);
        hsum[n] = info.header_sum;
        r.lower[n] = own[n];
        if (rc == 0) {
            /* Lower layers are read from the mapped files: the page cache
               holds them, not the build's own memory. */
            mc_egdb_info chk;
            const uint8_t *d2;
            rc = eg_map_layer(path, &chk, &d2, &r.map[n], &r.maplen[n], err);
            if (rc == 0 && chk.header_sum != info.header_sum)
                rc = mc_err(err, MC_ERR_IO, "%s changed while building",
                            path);
            if (rc == 0) {
                r.lower[n] = d2;
                free(own[n]);
                own[n] = NULL;
            }
        }
        o->seconds[n] = now() - t0;
        if (o->progress)
            o->progress(o->progress_ctx, n, "done", N, N);
    }
    for (int n = 0; n <= MC_EGDB_MAX_SEEDS; n++) {
        if (r.map[n])
            munmap(r.map[n], r.maplen[n]);
        free(own[n]);
    }
    eg_rules_free(&r);
    return rc;
}
