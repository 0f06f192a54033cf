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

/* Work (states scanned by bound sweeps) a single F search may do before the layer falls back to
   the approximation of shared EGDB.md (approx_cycles). */
static uint64_t f_budget(void)
{
    const char *e = getenv("MANCALA_EGDB_BUDGET");
    return e ? strtoull(e, NULL, 10) : 50000000;
}

/*
 * The history-aware search for F inside one strongly connected component
 * C.  A state is (member of C, parity of the plies since the root): the
 * same position recurs only at an even distance.  With S the states played
 * since the last capture, the game from the current state is bracketed by
 * the bounds of the graph in which entering a state of S ends the game
 * (each side takes its row): an attractor strategy never repeats a state,
 * so P_S <= value <= O_S exactly as for a fresh start.  Where the bounds of
 * a move meet, its value is known; otherwise the search plays it and adds
 * the child to S.  Moves leaving C lead to fresh positions (no position of
 * S is reachable from there): their value is -F(child).
 */
static int own_diff(int n, uint64_t x)
{
    uint8_t h[12];
    mc_egdb_unrank(n, x, h);
    return eg_terminal(h);
}

typedef struct fcomp {
    const eg_rules *r;
    int n;
    const uint32_t *off;
    const eg_move *mv;
    const uint32_t *comp;
    const int8_t *F;
    uint32_t id;          /* the component */
    uint32_t s;           /* members */
    const uint32_t *mem;  /* members, global ranks */
    const uint32_t *loc;  /* global rank -> local index (members only) */
    int8_t *own;          /* own split of each member */
    /* Work arrays over the 2s states. */
    uint8_t *inS, *st, *cnt;
    int8_t *eb, *P, *O;
    uint32_t *poff, *pred, *stack;
    uint64_t sweeps, budget;
    int aborted;
} fcomp;

/* Bounds of every state with S terminal on entry. */
static void fc_bounds(fcomp *f)
{
    uint32_t ns = 2 * f->s, E = 0;
    f->sweeps += (uint64_t)(2 * f->n + 2) * 2 * f->s;
    for (uint32_t x = 0; x < ns; x++)
        f->poff[x] = 0;
    for (uint32_t x = 0; x < ns; x++) {
        uint32_t y = f->mem[x >> 1], par = x & 1;
        int best = EG_NO_EXIT, c = 0;
        for (uint32_t k = f->off[y]; k < f->off[y + 1]; k++) {
            const eg_move *m = &f->mv[k];
            int v;
            if (m->exit)
                v = m->val;
            else if (f->comp[m->child] != f->id)
                v = -f->F[m->child];
            else {
                uint32_t cs = 2 * f->loc[m->child] + (1 - par);
                if (f->inS[cs])
                    v = -f->own[cs >> 1];
                else {
                    c++;
                    f->poff[cs]++;
                    continue;
                }
            }
            if (v > best)
                best = v;
        }
        f->eb[x] = (int8_t)best;
        f->cnt[x] = (uint8_t)c;
        f->st[x] = 0;
        E += (uint32_t)c;
    }
    /* Predecessor lists (CSR) of the edges inside the graph. */
    uint32_t acc = 0;
    for (uint32_t x = 0; x < ns; x++) {
        uint32_t c = f->poff[x];
        f->poff[x] = acc;
        acc += c;
    }
    f->poff[ns] = acc;
    for (uint32_t x = 0; x < ns; x++) {
        uint32_t y = f->mem[x >> 1], par = x & 1;
        for (uint32_t k = f->off[y]; k < f->off[y + 1]; k++) {
            const eg_move *m = &f->mv[k];
            if (m->exit || f->comp[m->child] != f->id)
                continue;
            uint32_t cs = 2 * f->loc[m->child] + (1 - par);
            if (!f->inS[cs])
                f->pred[f->poff[cs]++] = x;
        }
    }
    for (uint32_t x = ns; x > 0; x--)
        f->poff[x] = f->poff[x - 1];
    f->poff[0] = 0;
    (void)E;
    int n = f->n;
    for (int t = n; t >= -n; t--) {
        uint32_t sp = 0;
        for (uint32_t x = 0; x < ns; x++) {
            if (!(f->st[x] & 1) && f->eb[x] == t) {
                f->st[x] |= 1;
                f->P[x] = (int8_t)t;
                f->stack[sp++] = x << 1;
            }
            if (!(f->st[x] & 2) && f->cnt[x] == 0 && f->eb[x] == -t) {
                f->st[x] |= 2;
                f->O[x] = (int8_t)-t;
                f->stack[sp++] = x << 1 | 1;
            }
        }
        while (sp) {
            uint32_t e = f->stack[--sp], x = e >> 1;
            for (uint32_t k = f->poff[x]; k < f->poff[x + 1]; k++) {
                uint32_t q = f->pred[k];
                if (!(e & 1)) {
                    if (--f->cnt[q] == 0 && !(f->st[q] & 2) &&
                        f->eb[q] <= -t) {
                        f->st[q] |= 2;
                        f->O[q] = (int8_t)-t;
                        f->stack[sp++] = q << 1 | 1;
                    }
                } else if (!(f->st[q] & 1)) {
                    f->st[q] |= 1;
                    f->P[q] = (int8_t)t;
                    f->stack[sp++] = q << 1;
                }
            }
        }
    }
    for (uint32_t x = 0; x < ns; x++) {
        if (!(f->st[x] & 1))
            f->P[x] = (int8_t)-n;
        if (!(f->st[x] & 2))
            f->O[x] = (int8_t)n;
    }
}

/* Value of state x (already in S) for its mover; fail-soft alpha-beta. */
static int fc_search(fcomp *f, uint32_t x, int alpha, int beta)
{
    if (f->sweeps >= f->budget) {
        f->aborted = 1;
        return 0;
    }
    fc_bounds(f);
    uint32_t y = f->mem[x >> 1], par = x & 1;
    int lo[MC_MAX_MOVES / 8], hi[MC_MAX_MOVES / 8], k = 0, best = -1000;
    uint32_t child[MC_MAX_MOVES / 8];
    for (uint32_t j = f->off[y]; j < f->off[y + 1]; j++, k++) {
        const eg_move *m = &f->mv[j];
        child[k] = 0xffffffffu;
        if (m->exit)
            lo[k] = hi[k] = m->val;
        else if (f->comp[m->child] != f->id)
            lo[k] = hi[k] = -f->F[m->child];
        else {
            uint32_t cs = 2 * f->loc[m->child] + (1 - par);
            if (f->inS[cs])
                lo[k] = hi[k] = -f->own[cs >> 1];
            else {
                lo[k] = -f->O[cs];
                hi[k] = -f->P[cs];
                child[k] = cs;
            }
        }
        if (lo[k] > best)
            best = lo[k];
    }
    if (best >= beta)
        return best;
    /* Open moves, most promising (highest upper bound) first. */
    for (;;) {
        int pick = -1;
        for (int i = 0; i < k; i++)
            if (lo[i] < hi[i] && hi[i] > best &&
                (pick < 0 || hi[i] > hi[pick]))
                pick = i;
        if (pick < 0)
            break;
        uint32_t cs = child[pick];
        int a = best > alpha ? best : alpha;
        f->inS[cs] = 1;
        int v = -fc_search(f, cs, -beta, -a);
        f->inS[cs] = 0;
        if (f->aborted)
            return 0;
        lo[pick] = hi[pick] = v;
        if (v > best)
            best = v;
        if (best >= beta)
            return best;
    }
    return best;
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
    const char *mce = getenv("MANCALA_EGDB_MAXCOMP");
    uint32_t maxcomp = mce ? (uint32_t)strtoul(mce, NULL, 10) : 2000;
    for (uint64_t i = 0; i < nopen;) {
        uint32_t c = comp[order[i]];
        uint32_t s = cstart[c + 1] - cstart[c];
        fcomp f;
        memset(&f, 0, sizeof f);
        f.r = r, f.n = n, f.off = off, f.mv = mv, f.comp = comp, f.F = F;
        f.id = c, f.s = s, f.mem = members + cstart[c], f.loc = loc;
        size_t ns = 2 * (size_t)s, ne = 0;
        for (uint32_t j = 0; j < s; j++)
            ne += off[f.mem[j] + 1] - off[f.mem[j]];
        f.own = malloc(s);
        f.inS = calloc(ns, 1);
        f.st = malloc(ns);
        f.cnt = malloc(ns);
        f.eb = malloc(ns);
        f.P = malloc(ns);
        f.O = malloc(ns);
        f.poff = malloc((ns + 1) * sizeof *f.poff);
        f.pred = malloc((2 * ne + 1) * sizeof *f.pred);
        f.stack = malloc((2 * ns + 1) * sizeof *f.stack);
        int ok = f.own && f.inS && f.st && f.cnt && f.eb && f.P && f.O &&
                 f.poff && f.pred && f.stack;
        for (uint32_t j = 0; ok && j < s; j++)
            f.own[j] = (int8_t)own_diff(n, f.mem[j]);
        for (; ok && i < nopen && comp[order[i]] == c; i++) {
            uint64_t x = order[i];
            uint32_t xs = 2 * loc[x];
            f.sweeps = 0;
            /* Large components: straight to the approximation (the
               search does not finish there in reasonable time). */
            f.budget = s > maxcomp ? 0 : budget;
            f.aborted = 0;
            f.inS[xs] = 1;
            int v = fc_search(&f, xs, b->P[x] - 1, b->O[x] + 1);
            f.inS[xs] = 0;
            if (f.aborted) {
                /* shared EGDB.md: clamp(own split, P, O), flagged. */
                v = own_diff(n, x);
                *approx = 1;
            }
            if (v < b->P[x])
                v = b->P[x];
            if (v > b->O[x])
                v = b->O[x];
            if (getenv("EG_DEBUG"))
                fprintf(stderr, "n=%d x=%llu P=%d O=%d F=%d sweeps=%llu "
                        "comp=%u size=%u%s\n", n, (unsigned long long)x,
                        b->P[x], b->O[x], v, (unsigned long long)f.sweeps,
                        c, s, f.aborted ? " ABORTED" : "");
            F[x] = (int8_t)v;
        }
        free(f.own), free(f.inS), free(f.st), free(f.cnt), free(f.eb);
        free(f.P), free(f.O), free(f.poff), free(f.pred), free(f.stack);
        if (!ok) {
            free(loc), free(cstart), free(members);
            goto oom;
        }
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

int mc_egdb_build(mc_egdb_build_opts *o, mc_error *err)
{
    if (o->max_seeds < 0 || o->max_seeds > MC_EGDB_MAX_SEEDS)
        return mc_err(err, MC_ERR_ARG, "--seeds must be 0..%d",
                      MC_EGDB_MAX_SEEDS);
    eg_rules r;
    int rc = eg_rules_init(&r, o->preset, err);
    if (rc)
        return rc;
    void *map[MC_EGDB_MAX_SEEDS + 1] = {0};
    size_t maplen[MC_EGDB_MAX_SEEDS + 1] = {0};
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
            eg_map_layer(path, &info, &d, &map[n], &maplen[n], NULL) == 0) {
            int ok = info.preset == o->preset;
            for (int m = 0; m < n && ok; m++)
                ok = info.dep_sum[m] == hsum[m];
            if (ok) {
                r.lower[n] = d;
                hsum[n] = info.header_sum;
                approx_below |= (int)info.approx_cycles;
                continue;
            }
            munmap(map[n], maplen[n]);
            map[n] = NULL;
        }
        if (o->first_built > n)
            o->first_built = n;
        double t0 = now();
        uint64_t N = mc_egdb_layer_size(n);
        own[n] = malloc(N);
        int approx = approx_below;
        if (!own[n]) {
            rc = mc_err(err, MC_ERR_IO, "out of memory building layer %d", n);
            break;
        }
        if (n >= EG_COMPACT_FROM) {
            /* 3 bytes a position; P = O asserted under abapa. */
            uint64_t open;
            if (eg_compute_entries(&r, n, o->threads, own[n], &open,
                                   o->progress, o->progress_ctx) != 0) {
                rc = mc_err(err, MC_ERR_IO, "out of memory building layer %d",
                            n);
                break;
            }
            if (o->preset == MC_EGDB_AWARI) {
                o->open_bounds[n] = MC_EGDB_NOT_COUNTED;
            } else if ((o->open_bounds[n] = open) != 0) {
                rc = eg_open_error(n, open, err);
                break;
            }
        } else {
            eg_bounds b;
            if (eg_compute_bounds(&r, n, o->threads, &b, 0, o->progress,
                                  o->progress_ctx) != 0) {
                rc = mc_err(err, MC_ERR_IO, "out of memory building layer %d",
                            n);
                break;
            }
            o->open_bounds[n] = b.open;
            rc = eg_values(&r, n, &b, own[n], &approx, err);
            eg_bounds_free(&b);
            if (rc)
                break;
        }
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
            rc = eg_map_layer(path, &chk, &d2, &map[n], &maplen[n], err);
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
        if (map[n])
            munmap(map[n], maplen[n]);
        free(own[n]);
    }
    eg_rules_free(&r);
    return rc;
}
