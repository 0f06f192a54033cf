/*
 * verify.c - `egdb verify`: re-derive the bounds of each layer and check
 * the stored tables against them (shared EGDB.md, "Checking" 1, 2 and 4):
 * Bellman identities by direct maximisation over the moves (not by the
 * sweep), well-foundedness from the sweep ranks, the stored value against
 * P and O, the history_proof bit, and the invariants.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "egdb_int.h"

/* The invariants of entry v of configuration h with no legal move: an
   empty mover scores -n, a mover who cannot feed (the other row is
   empty) +n. */
static int terminal_ok(const uint8_t h[12], int n, int v)
{
    int mine = 0;
    for (int j = 0; j < 6; j++)
        mine += h[j];
    return v == (mine == 0 ? -n : n);
}

/* The layer's header against its size. */
static void check_header(const mc_egdb *db, int n, mc_egdb_verify_report *rep)
{
    const mc_egdb_info *in = mc_egdb_layer_info(db, n);
    if (!in || in->entries != rep->entries)
        rep->invariant_errors++;
}

/* The compact check: the layer's entries re-derived by the builder's
   sweep (3 bytes a position) and compared byte for byte, and the Bellman
   identity of the stored values by direct maximisation over the moves
   (every value of a layer built this way has P = O).  0, or -1 when the
   sweep cannot be made (out of memory) or the layer has positions with
   P < O (abapa above approximated layers), for the full check. */
static int verify_compact(const mc_egdb *db, eg_rules *r, int n,
                          mc_egdb_verify_report *rep, mc_egdb_progress progress,
                          void *ctx)
{
    uint64_t N = mc_egdb_layer_size(n), open = 0;
    uint8_t *out = malloc(N ? N : 1);
    if (!out || eg_compute_entries(r, n, 2, out, &open, progress, ctx) != 0 ||
        open) {
        free(out);
        return -1;
    }
    rep->compact = 1;
    check_header(db, n, rep);
    const uint8_t *d = r->lower[n];
    uint8_t h[12];
    eg_move mv[MC_MAX_MOVES];
    for (uint64_t i = 0; i < N; i++) {
        int v = eg_val(d[i]);
        rep->value_errors += out[i] != d[i];
        mc_egdb_unrank(n, i, h);
        int k = eg_expand(r, n, h, mv), best = -1000, all = 0;
        if (k == 0) {
            best = eg_terminal(h);
            rep->invariant_errors += !terminal_ok(h, n, v);
        }
        for (int j = 0; j < k; j++) {
            int e = mv[j].exit ? mv[j].val : -eg_val(d[mv[j].child]);
            all |= mv[j].exit && mv[j].all;
            best = e > best ? e : best;
        }
        rep->bellman_errors += best != v;
        if (all && !(d[i] >> 7))
            rep->value_errors++;
        if (r->preset == MC_EGDB_ABAPA && ((v - n) & 1) != 0)
            rep->invariant_errors++;
        if (progress && (i & 0xfffff) == 0)
            progress(ctx, n, "check", i, N);
    }
    free(out);
    return 0;
}

void eg_verify_layer(const mc_egdb *db, eg_rules *r, int n,
                     mc_egdb_verify_report *rep, int compact,
                     mc_egdb_progress progress, void *ctx)
{
    assert(n >= 0 && n <= mc_egdb_max_seeds(db));
    memset(rep, 0, sizeof *rep);
    rep->n = n;
    uint64_t N = mc_egdb_layer_size(n);
    rep->entries = N;
    /* (verify_compact leaves rep as it is when it cannot check) */
    if (compact && n >= EG_COMPACT_FROM &&
        verify_compact(db, r, n, rep, progress, ctx) == 0)
        return;
    eg_bounds b;
    if (eg_compute_bounds(r, n, 2, &b, 1, progress, ctx) != 0) {
        rep->invariant_errors = N; /* could not check: count as errors */
        return;
    }
    /* the well-foundedness check reads the sweep's ranks */
    assert(b.rank_a && b.rank_l);
    rep->open_bounds = b.open;
    check_header(db, n, rep);
    const uint8_t *d = r->lower[n];
    uint8_t h[12];
    eg_move mv[MC_MAX_MOVES];
    for (uint64_t i = 0; i < N; i++) {
        mc_egdb_unrank(n, i, h);
        int k = eg_expand(r, n, h, mv);
        int P = b.P[i], O = b.O[i], v = eg_val(d[i]);
        int pb = -1000, ob = -1000, vb = -1000, all = 0;
        int wa = 0, wl = 1;
        if (k == 0) {
            pb = ob = vb = eg_terminal(h);
            wa = 1;
            if (!terminal_ok(h, n, v))
                rep->invariant_errors++;
        }
        for (int j = 0; j < k; j++) {
            int ep, eo, ev;
            if (mv[j].exit) {
                ep = eo = ev = mv[j].val;
                all |= mv[j].all;
                if (ev >= P)
                    wa = 1;
                if (ev > O)
                    wl = 0;
            } else {
                uint64_t c = mv[j].child;
                ep = -b.O[c];
                eo = -b.P[c];
                ev = -eg_val(d[c]);
                if (b.rank_l[c] && b.rank_l[c] < b.rank_a[i] && ep >= P)
                    wa = 1;
                if (!(b.rank_a[c] && b.rank_a[c] < b.rank_l[i] && eo <= O))
                    wl = 0;
            }
            pb = ep > pb ? ep : pb;
            ob = eo > ob ? eo : ob;
            vb = ev > vb ? ev : vb;
        }
        if (pb != P || ob != O || P > O)
            rep->bellman_errors++;
        if (r->preset == MC_EGDB_AWARI && vb != v)
            rep->bellman_errors++;
        /* Well-founded: a decided P has a witness decided earlier (an exit
           or a child whose O was decided before); a decided O has every
           child's P decided before it. */
        if ((b.rank_a[i] && !wa) || (b.rank_l[i] && !wl))
            rep->wf_errors++;
        int want_hp = b.hp[i] != 0;
        if ((d[i] >> 7) != want_hp || (all && !want_hp))
            rep->value_errors++;
        if (r->preset == MC_EGDB_AWARI) {
            int med = P > 0 ? P : O < 0 ? O : 0;
            if (v != med)
                rep->value_errors++;
        } else {
            if (v < P || v > O || (P == O && v != P))
                rep->value_errors++;
            if (((v - n) & 1) != 0)
                rep->invariant_errors++;
        }
        if (progress && (i & 0xfffff) == 0)
            progress(ctx, n, "check", i, N);
    }
    eg_bounds_free(&b);
}

uint64_t mc_egdb_verify(const mc_egdb *db, int lo, int hi,
                        mc_egdb_verify_report *report,
                        mc_egdb_progress progress, void *ctx)
{
    eg_rules r;
    if (!db || eg_rules_init(&r, mc_egdb_preset(db), NULL) != 0)
        return 1;
    if (hi > mc_egdb_max_seeds(db))
        hi = mc_egdb_max_seeds(db);
    uint64_t bad = 0;
    for (int n = 0; n <= hi; n++)
        r.lower[n] = eg_layer_data(db, n);
    uint64_t avail = eg_mem_available();
    for (int n = lo < 0 ? 0 : lo; n <= hi; n++) {
        /* the full check while its 13 bytes a position fit in what the
           machine has available, else the compact one */
        int compact = avail && mc_egdb_layer_size(n) * 13 > avail;
        eg_verify_layer(db, &r, n, &report[n], compact, progress, ctx);
        bad += report[n].bellman_errors + report[n].wf_errors +
               report[n].value_errors + report[n].invariant_errors;
    }
    eg_rules_free(&r);
    return bad;
}
