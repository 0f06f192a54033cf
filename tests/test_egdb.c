/*
 * test_egdb.c - the Oware endgame databases against independent checks:
 * the index against a plain enumeration, layer sizes against Pascal's
 * triangle and the published Awari position count, the built tables
 * (layers 0..12 of both presets) against plain value iteration computed
 * here from the public rules API, brute-force minimax with the real
 * history rules (sessions) on the smallest layers, golden histograms,
 * verify, and the refusal of damaged, truncated and mismatched files.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "egdb/egdb_int.h"
#include "mancala_egdb.h"

#if defined(__SANITIZE_ADDRESS__)
#define SAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SAN 1
#endif
#endif
#ifndef SAN
#define SAN 0
#endif

static int top_layer(void)
{
    /* Sanitizer builds are ~10x slower: fewer layers, same checks. */
    return SAN || getenv("MANCALA_SAN") ? 9 : 12;
}

/* ---- index ----------------------------------------------------------------
 */

static uint64_t binom(int n, int k)
{
    uint64_t r = 1;
    for (int i = 1; i <= k; i++)
        r = r * (uint64_t)(n - k + i) / (uint64_t)i;
    return r;
}

/* Every configuration of n seeds in lexicographic order, by recursion. */
static uint64_t enum_next;
static int enum_ok;
static void enum_rec(uint8_t *h, int i, int left)
{
    if (i == 11) {
        h[11] = (uint8_t)left;
        uint8_t u[12];
        uint64_t r = mc_egdb_rank(h);
        mc_egdb_unrank(left + 0, 0, u); /* exercised below */
        if (r != enum_next)
            enum_ok = 0;
        enum_next++;
        return;
    }
    for (int v = 0; v <= left; v++) {
        h[i] = (uint8_t)v;
        enum_rec(h, i + 1, left - v);
    }
}

static void test_index(void)
{
    for (int n = 0; n <= 48; n++)
        CHECK_MSG(mc_egdb_layer_size(n) == binom(n + 11, 11), "n=%d", n);
    for (int n = 0; n <= 5; n++) {
        uint8_t h[12];
        enum_next = 0;
        enum_ok = 1;
        enum_rec(h, 0, n);
        CHECK_MSG(enum_ok && enum_next == mc_egdb_layer_size(n),
                  "lexicographic ranks of layer %d", n);
    }
    mc_rng rng;
    mc_rng_seed(&rng, 7);
    int bad = 0;
    for (int k = 0; k < 20000; k++) {
        int n = (int)mc_rng_below(&rng, 49);
        uint64_t r = mc_rng_next(&rng) % mc_egdb_layer_size(n);
        uint8_t h[12];
        mc_egdb_unrank(n, r, h);
        int s = 0;
        for (int i = 0; i < 12; i++)
            s += h[i];
        bad += s != n || mc_egdb_rank(h) != r;
    }
    CHECK_MSG(bad == 0, "%d rank/unrank round trips failed", bad);
    /* rules/oware.md: positions reachable under Awari rules (the player
       not to move has an empty house, except at the start; no 47-seed
       positions) number 889,063,398,406 over n = 0..48, 203,648,015,936
       of them with 48 seeds.  With our layer sizes: the configurations
       whose second row has no empty house are those of n - 6 seeds. */
    uint64_t total = 0, c48 = 0;
    for (int n = 0; n <= 48; n++) {
        if (n == 47)
            continue;
        uint64_t c = mc_egdb_layer_size(n) -
                     (n >= 6 ? mc_egdb_layer_size(n - 6) : 0) + (n == 48);
        total += c;
        if (n == 48)
            c48 = c;
    }
    CHECK(c48 == 203648015936ull);
    CHECK(total == 889063398406ull);
}

/* ---- value iteration: a second, independent algorithm ----------------------
 */

typedef struct vi_layer {
    int n;
    uint64_t N;
    int8_t *P, *O, *v; /* v: the value as the preset defines it */
    uint8_t *hp;
    uint64_t open;
} vi_layer;

/* One move of a configuration, from the public rules API. */
typedef struct vi_move {
    int exit;
    int val;
    uint64_t child;
    int all;
} vi_move;

static int vi_moves(const mc_game *g, const vi_layer *L, int n,
                    const uint8_t h[12], vi_move *out)
{
    mc_pos p;
    memset(&p, 0, sizeof p);
    memcpy(p.pit, h, 12);
    p.side = MC_SOUTH;
    mc_move mv[MC_MAX_MOVES];
    int k = mc_moves(g, &p, mv);
    for (int i = 0; i < k; i++) {
        mc_pos q = p;
        mc_play(g, &q, mv[i], NULL);
        uint8_t c[12];
        for (int j = 0; j < 12; j++)
            c[j] = q.pit[(j + 6) % 12];
        int cap = q.cap[0];
        out[i].all = cap == n;
        if (cap) {
            out[i].exit = 1;
            out[i].val = cap - L[n - cap].v[mc_egdb_rank(c)];
        } else {
            out[i].exit = 0;
            out[i].child = mc_egdb_rank(c);
        }
    }
    return k;
}

/* P and O by plain value iteration from (P, O) = (-n, +n), the awari
   value as median(P, 0, O), and history_proof by iterating "every child
   is acyclic" to a fixed point.  For abapa, positions with P < O take the
   builder's value (tab), since F needs the history search. */
static int vi_layer_build(const mc_game *g, vi_layer *L, int n, int awari,
                          const uint8_t *tab)
{
    vi_layer *me = &L[n];
    me->n = n;
    me->N = mc_egdb_layer_size(n);
    uint64_t N = me->N;
    me->P = malloc(N);
    me->O = malloc(N);
    me->v = malloc(N);
    me->hp = malloc(N);
    uint32_t *off = malloc((N + 1) * sizeof *off);
    vi_move *mv = malloc(N * 6 * sizeof *mv);
    int8_t *term = malloc(N);
    if (!me->P || !me->O || !me->v || !me->hp || !off || !mv || !term)
        return -1;
    uint32_t len = 0;
    for (uint64_t i = 0; i < N; i++) {
        uint8_t h[12];
        mc_egdb_unrank(n, i, h);
        off[i] = len;
        int k = vi_moves(g, L, n, h, mv + len);
        len += (uint32_t)k;
        int d = 0;
        for (int j = 0; j < 6; j++)
            d += h[j] - h[j + 6];
        term[i] = (int8_t)d;
        me->P[i] = (int8_t)-n;
        me->O[i] = (int8_t)n;
        me->hp[i] = 0;
    }
    off[N] = len;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint64_t i = 0; i < N; i++) {
            int p = -1000, o = -1000, acyc = 1, all = 0;
            if (off[i] == off[i + 1])
                p = o = term[i];
            for (uint32_t k = off[i]; k < off[i + 1]; k++) {
                int ep, eo;
                if (mv[k].exit) {
                    ep = eo = mv[k].val;
                    all |= mv[k].all;
                } else {
                    ep = -me->O[mv[k].child];
                    eo = -me->P[mv[k].child];
                    acyc &= me->hp[mv[k].child] & 1;
                }
                p = ep > p ? ep : p;
                o = eo > o ? eo : o;
            }
            int hp = acyc | (all << 1);
            if (p != me->P[i] || o != me->O[i] || hp != me->hp[i]) {
                me->P[i] = (int8_t)p;
                me->O[i] = (int8_t)o;
                me->hp[i] = (uint8_t)hp;
                changed = 1;
            }
        }
    }
    me->open = 0;
    for (uint64_t i = 0; i < N; i++) {
        int P = me->P[i], O = me->O[i];
        me->hp[i] = me->hp[i] != 0;
        me->open += P < O;
        if (awari)
            me->v[i] = (int8_t)(P > 0 ? P : O < 0 ? O : 0);
        else
            me->v[i] = (int8_t)(P == O ? P : eg_val(tab[i]));
    }
    free(off);
    free(mv);
    free(term);
    return 0;
}

static void vi_free(vi_layer *L, int top)
{
    for (int n = 0; n <= top; n++) {
        free(L[n].P);
        free(L[n].O);
        free(L[n].v);
        free(L[n].hp);
    }
}

/* ---- brute force with the real history rules --------------------------------
 */

static uint64_t bf_nodes, bf_limit;
static int bf_aborted;

/* Final seed difference for the side to move at the session's position
   (stores start at 0: every seed still counts), by full minimax. */
static int brute(mc_session *s, int alpha, int beta)
{
    if (++bf_nodes > bf_limit) {
        bf_aborted = 1;
        return 0;
    }
    if (mc_session_over(s)) {
        mc_result r;
        mc_session_result(s, &r);
        int me = mc_session_pos(s)->side;
        return (r.score2[me] - r.score2[1 - me]) / 2;
    }
    mc_move mv[MC_MAX_MOVES];
    int k = mc_session_moves(s, mv), best = -1000;
    for (int i = 0; i < k; i++) {
        mc_error err;
        mc_session_play(s, mv[i], NULL, &err);
        int a = best > alpha ? best : alpha;
        int v = -brute(s, -beta, -a);
        mc_session_undo(s);
        if (bf_aborted)
            return 0;
        if (v > best)
            best = v;
        if (best >= beta)
            break;
    }
    return best;
}

/* ---- the tables
 * --------------------------------------------------------------- */

static char tmpdir[256];

static void rm_tree(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

static void hist_line(char *buf, size_t sz, const char *preset, int n,
                      const uint64_t *hist)
{
    size_t len = (size_t)snprintf(buf, sz, "%s %d", preset, n);
    for (int v = -64; v < 64; v++)
        if (hist[v + 64] && len < sz)
            len += (size_t)snprintf(buf + len, sz - len, " %d:%llu", v,
                                    (unsigned long long)hist[v + 64]);
}

/* The golden line of layer n, or "" if the file has none. */
static void golden_line(const char *preset, int n, char *out, size_t sz)
{
    char path[300], line[8192], want[32];
    out[0] = 0;
    snprintf(path, sizeof path, "tests/egdb/golden-%s.txt", preset);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    snprintf(want, sizeof want, "%s %d ", preset, n);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (strncmp(line, want, strlen(want)) == 0) {
            snprintf(out, sz, "%s", line);
            break;
        }
    }
    fclose(f);
}

/* Options of a build of layers 0..n of a preset into dir, on 2 threads. */
/* The builder's knobs every build and search of these tests uses (the
   history search's largest component, the shipped journals: main and
   test_shipped set them). */
static mc_egdb_build_opts knobs;

/* eg_rules_init, with the tests' knobs. */
static int rules_init(eg_rules *r, int preset)
{
    int rc = eg_rules_init(r, preset, NULL);
    r->opts = &knobs;
    return rc;
}

static void build_opts(mc_egdb_build_opts *o, const char *dir, int preset,
                       int n)
{
    *o = knobs;
    o->dir = dir;
    o->preset = preset;
    o->max_seeds = n;
    o->threads = 2;
}

static void test_preset(int preset, int write_golden)
{
    const char *pn = mc_egdb_preset_name(preset);
    int top = top_layer();
    char dir[300];
    snprintf(dir, sizeof dir, "%s/%s", tmpdir, pn);
    mkdir(dir, 0777);
    mc_egdb_build_opts o;
    build_opts(&o, dir, preset, top);
    mc_error err = {0, ""};
    int rc = mc_egdb_build(&o, &err);
    CHECK_MSG(rc == 0, "build %s: %s", pn, err.msg);
    if (rc)
        return;
    CHECK(o.first_built == 0);
    mc_egdb *db = mc_egdb_open(dir, preset, -1, &err);
    CHECK_MSG(db != NULL, "open: %s", err.msg);
    if (!db)
        return;
    CHECK(mc_egdb_max_seeds(db) == top);

    /* A complete layer leaves no search journal behind. */
    for (int n = 0; n <= top; n++) {
        char jp[600];
        mc_egdb_journal_path(dir, preset, n, jp, sizeof jp);
        CHECK_MSG(access(jp, F_OK) != 0, "%s left behind", jp);
    }

    /* A second build finds every layer complete (resume). */
    mc_egdb_build_opts o2 = o;
    CHECK(mc_egdb_build(&o2, &err) == 0 && o2.first_built == top + 1);

    mc_game *g = mc_game_new(preset == MC_EGDB_AWARI ? "oware:awari,seeds=any"
                                                     : "oware:seeds=any",
                             NULL);
    vi_layer L[MC_EGDB_MAX_SEEDS + 1];
    memset(L, 0, sizeof L);
    for (int n = 0; n <= top; n++) {
        const uint8_t *tab = eg_layer_data(db, n);
        if (vi_layer_build(g, L, n, preset == MC_EGDB_AWARI, tab) != 0) {
            CHECK(!"out of memory");
            break;
        }
        const mc_egdb_info *in = mc_egdb_layer_info(db, n);
        uint64_t bad_v = 0, bad_hp = 0, bad_par = 0, bad_term = 0;
        uint64_t hist[128] = {0};
        for (uint64_t i = 0; i < L[n].N; i++) {
            int v = eg_val(tab[i]), P = L[n].P[i], O = L[n].O[i];
            hist[L[n].v[i] + 64]++;
            bad_v += v != L[n].v[i] || v < P || v > O;
            bad_hp += (tab[i] >> 7) != L[n].hp[i];
            if (preset == MC_EGDB_ABAPA)
                bad_par += ((v - n) & 1) != 0;
            uint8_t h[12];
            mc_egdb_unrank(n, i, h);
            int mine = 0, theirs = 0;
            for (int j = 0; j < 6; j++)
                mine += h[j], theirs += h[j + 6];
            if (mine == 0)
                bad_term += v != -n; /* empty mover */
            else if (theirs == 0) {
                /* the mover must feed; if no house reaches, +n */
                int feeds = 0;
                for (int j = 0; j < 6; j++)
                    feeds |= h[j] >= 6 - j;
                if (!feeds)
                    bad_term += v != n;
            }
        }
        CHECK_MSG(bad_v == 0,
                  "%s layer %d: %llu values differ from value "
                  "iteration",
                  pn, n, (unsigned long long)bad_v);
        CHECK_MSG(bad_hp == 0,
                  "%s layer %d: %llu history_proof bits "
                  "differ",
                  pn, n, (unsigned long long)bad_hp);
        CHECK_MSG(bad_par == 0, "%s layer %d: parity", pn, n);
        CHECK_MSG(bad_term == 0, "%s layer %d: empty / cannot feed", pn, n);
        CHECK_MSG(L[n].open == o.open_bounds[n],
                  "%s layer %d: P<O %llu vs "
                  "builder %llu",
                  pn, n, (unsigned long long)L[n].open,
                  (unsigned long long)o.open_bounds[n]);
        if (preset == MC_EGDB_ABAPA && n >= 12)
            CHECK_MSG(L[n].open == 0, "abapa layer %d has P < O", n);
        /* The compact sweep, the builder's path from EG_COMPACT_FROM seeds
           up, gives the same entries (threshold by threshold on 2
           threads, awari stopping at 1) and under abapa counts the same
           positions with P < O. */
        {
            eg_rules rr;
            CHECK(rules_init(&rr, preset) == 0);
            for (int m = 0; m < n; m++)
                rr.lower[m] = eg_layer_data(db, m);
            uint8_t *cmp = malloc(L[n].N);
            uint64_t open = 0;
            int crc =
                cmp ? eg_compute_entries(&rr, n, 2, cmp, &open, NULL, NULL)
                    : -1;
            CHECK_MSG(crc == 0, "compact sweep of layer %d", n);
            if (crc == 0 && preset == MC_EGDB_AWARI)
                CHECK_MSG(memcmp(cmp, tab, L[n].N) == 0,
                          "awari layer %d: compact entries differ", n);
            if (crc == 0 && preset == MC_EGDB_ABAPA) {
                CHECK_MSG(open == L[n].open,
                          "abapa layer %d: compact "
                          "counts %llu open, value iteration %llu",
                          n, (unsigned long long)open,
                          (unsigned long long)L[n].open);
                if (open == 0)
                    CHECK_MSG(memcmp(cmp, tab, L[n].N) == 0,
                              "abapa layer %d: compact entries differ", n);
            }
            free(cmp);
            eg_rules_free(&rr);
        }
        CHECK(memcmp(hist, in->hist, sizeof hist) == 0);
        char line[8192], gold[8192];
        hist_line(line, sizeof line, pn, n, hist);
        if (write_golden) {
            printf("%s\n", line);
        } else {
            golden_line(pn, n, gold, sizeof gold);
            CHECK_MSG(strcmp(line, gold) == 0,
                      "golden %s layer %d:\n got "
                      "%s\nwant %s",
                      pn, n, line, gold);
        }
    }

    /* Probing a position and its mirror (North to move) agree; lookup is
       exact when fresh, and with history only when history-proof. */
    {
        mc_pos p;
        memset(&p, 0, sizeof p);
        mc_egdb_unrank(6, 4321, p.pit);
        p.side = MC_SOUTH;
        p.cap[0] = 20;
        p.cap[1] = 22;
        mc_pos q = p;
        for (int j = 0; j < 12; j++)
            q.pit[j] = p.pit[(j + 6) % 12];
        q.side = MC_NORTH;
        q.cap[0] = 22;
        q.cap[1] = 20;
        int v1, v2, h1, h2, d1, d2;
        CHECK(mc_egdb_probe(db, &p, &v1, &h1) == 1);
        CHECK(mc_egdb_probe(db, &q, &v2, &h2) == 1);
        CHECK(v1 == v2 && h1 == h2);
        CHECK(v1 == L[6].v[4321]);
        CHECK(mc_egdb_lookup(db, &p, 1, &d1) == MC_EGDB_EXACT);
        CHECK(mc_egdb_lookup(db, &q, 1, &d2) == MC_EGDB_EXACT);
        CHECK(d1 == -2 + v1 && d2 == d1);
        CHECK(mc_egdb_lookup(db, &p, 0, &d1) ==
              (h1 ? MC_EGDB_EXACT : MC_EGDB_HISTORY));
        int sc = 12345, d = -2 + v1;
        CHECK(mc_egdb_search_probe(db, &p, 1, 3, &sc) == MC_EGDB_EXACT);
        CHECK(d > 0   ? sc >= MC_SCORE_PROVEN && sc < MC_SCORE_WIN - 100
              : d < 0 ? sc <= -MC_SCORE_PROVEN && sc > -MC_SCORE_WIN + 100
                      : sc == 0);
        CHECK(mc_egdb_search_probe(db, &p, 0, 3, &sc) ==
              (h1 ? MC_EGDB_EXACT : MC_EGDB_HISTORY));
        /* The oracle of the search: exact when fresh or history-proof,
           path-dependent (-1) otherwise, nothing beyond the tables. */
        int seen[2] = {0, 0};
        const uint8_t *t6 = eg_layer_data(db, 6);
        for (uint64_t i = 0; i < L[6].N && !(seen[0] && seen[1]); i++) {
            int hp = t6[i] >> 7;
            if (seen[hp])
                continue;
            seen[hp] = 1;
            mc_pos op;
            memset(&op, 0, sizeof op);
            mc_egdb_unrank(6, i, op.pit);
            op.side = MC_SOUTH;
            CHECK(mc_egdb_oracle(db, &op, 0, 3, &sc) == (hp ? 1 : -1));
            CHECK(mc_egdb_oracle(db, &op, 1, 3, &sc) == 1);
        }
        CHECK(seen[0] && seen[1]);
        /* Table scores decode to the margin whatever the probe's depth;
           other scores decode to 0. */
        {
            int margins_ok = 1;
            for (int ply = 0; ply < 150; ply++) {
                mc_pos m2;
                memset(&m2, 0, sizeof m2);
                /* 1 seed, in North's last house: South, to move, has
                   none and scores -1; the stores give margins -48..42. */
                mc_egdb_unrank(1, 0, m2.pit);
                m2.side = MC_SOUTH;
                for (int c0 = 0; c0 <= 47 && margins_ok; c0 += 5) {
                    m2.cap[0] = (uint8_t)c0;
                    m2.cap[1] = (uint8_t)(47 - c0);
                    int dif, s2;
                    if (mc_egdb_lookup(db, &m2, 1, &dif) != MC_EGDB_EXACT ||
                        mc_egdb_search_probe(db, &m2, 1, ply, &s2) !=
                            MC_EGDB_EXACT ||
                        mc_egdb_score_margin(s2) != dif)
                        margins_ok = 0;
                }
            }
            CHECK(margins_ok);
        }
        CHECK(mc_egdb_score_margin(0) == 0);
        CHECK(mc_egdb_score_margin(250) == 0);
        CHECK(mc_egdb_score_margin(MC_SCORE_WIN - 7) == 0);
        CHECK(mc_egdb_score_margin(-(MC_SCORE_WIN - 30)) == 0);
        CHECK(mc_egdb_score_margin(MC_SCORE_PROVEN) == 0);
        mc_pos big;
        memset(&big, 0, sizeof big);
        big.pit[0] = (uint8_t)(top + 1);
        CHECK(mc_egdb_probe(db, &big, &v1, &h1) == 0);
        CHECK(mc_egdb_oracle(db, &big, 0, 3, &sc) == 0);
    }

    /* The history search on layer 6's giant component (9,412 positions),
       which the test's builds leave to the approximation (main): a few
       positions against values found by an independent search, the
       attractor-only search this project used before (docs/EGDB.md),
       which took 61,000-167,527 nodes on them. */
    if (preset == MC_EGDB_ABAPA && top >= 6 && !write_golden) {
        static const uint64_t pick[] = {470, 472, 473};
        static const int want[] = {0, 0, 0};
        size_t np = sizeof pick / sizeof *pick;
        eg_rules rr;
        eg_bounds b6;
        CHECK(rules_init(&rr, preset) == 0);
        for (int m = 0; m < 6; m++)
            rr.lower[m] = eg_layer_data(db, m);
        int8_t *F6 = malloc(L[6].N);
        CHECK(F6 && eg_compute_bounds(&rr, 6, 2, &b6, 0, NULL, NULL) == 0);
        if (F6) {
            /* With every node's kept games checked against a full
               solve (the search's exactness rests on them). */
            eg_games_check = 1;
            CHECK(eg_fresh_search(&rr, 6, &b6, pick, np, F6, &err) == 0);
            eg_games_check = 0;
            CHECK(eg_games_checked > 50);
            CHECK_MSG(eg_games_mismatch == 0,
                      "%llu winners differ from a "
                      "full solve",
                      (unsigned long long)eg_games_mismatch);
            for (size_t i = 0; i < np; i++) {
                CHECK_MSG(b6.P[pick[i]] < b6.O[pick[i]],
                          "layer 6 position "
                          "%llu has P = O",
                          (unsigned long long)pick[i]);
                CHECK_MSG(F6[pick[i]] == want[i],
                          "layer 6 position %llu: "
                          "F %d, want %d",
                          (unsigned long long)pick[i], F6[pick[i]], want[i]);
            }
            eg_bounds_free(&b6);
        }
        free(F6);
        eg_rules_free(&rr);
    }

    /* verify re-derives P and O and checks the tables (layers up to 9). */
    mc_egdb_verify_report rep[MC_EGDB_MAX_SEEDS + 1];
    int vtop = top < 9 ? top : 9;
    CHECK(mc_egdb_verify(db, 0, vtop, rep, NULL, NULL) == 0);
    for (int n = 0; n <= vtop; n++)
        CHECK(rep[n].open_bounds == L[n].open);

    vi_free(L, top);
    mc_game_free(g);
    mc_egdb_close(db);
}

/* Brute force: full minimax through sessions, the real rules with
   history, from every position of the smallest layers (0-4, built here
   on their own, so that this part runs beside test_preset).  abapa: the
   exact fresh value F where the builder's layer is exact (no
   approx_cycles); awari: the value wherever it is history-proof. */
static void test_brute(int preset)
{
    const char *pn = mc_egdb_preset_name(preset);
    char dir[300];
    snprintf(dir, sizeof dir, "%s/brute-%s", tmpdir, pn);
    mkdir(dir, 0777);
    mc_egdb_build_opts o;
    build_opts(&o, dir, preset, 4);
    mc_error err = {0, ""};
    int rc = mc_egdb_build(&o, &err);
    CHECK_MSG(rc == 0, "build %s 0-4: %s", pn, err.msg);
    mc_egdb *db = rc ? NULL : mc_egdb_open(dir, preset, 4, &err);
    CHECK_MSG(db != NULL, "open: %s", err.msg);
    if (!db)
        return;
    mc_game *gr = mc_game_new(preset == MC_EGDB_AWARI ? "oware:awari,seeds=any"
                                                      : "oware:seeds=any",
                              NULL);
    vi_layer L[5];
    memset(L, 0, sizeof L);
    for (int n = 0; n <= 4; n++)
        if (vi_layer_build(gr, L, n, preset == MC_EGDB_AWARI,
                           eg_layer_data(db, n)) != 0) {
            CHECK(!"out of memory");
            vi_free(L, n);
            mc_game_free(gr);
            mc_egdb_close(db);
            return;
        }
    uint64_t checked = 0, bad = 0, skipped = 0, open_checked = 0;
    for (int n = 0; n <= 4; n++) {
        const mc_egdb_info *in = mc_egdb_layer_info(db, n);
        for (uint64_t i = 0; i < mc_egdb_layer_size(n); i++) {
            uint8_t e = eg_layer_data(db, n)[i];
            if (preset == MC_EGDB_AWARI ? !(e >> 7) : in->approx_cycles)
                continue;
            mc_pos p;
            memset(&p, 0, sizeof p);
            mc_egdb_unrank(n, i, p.pit);
            p.side = MC_SOUTH;
            mc_session *s = mc_session_new(gr, &p);
            bf_nodes = 0;
            bf_aborted = 0;
            /* Layer 4's cycles are long: a node cap keeps the test fast;
               the positions it leaves out are counted. */
            bf_limit = n <= 3 ? UINT64_MAX : 20000;
            int v = brute(s, -n - 1, n + 1);
            mc_session_free(s);
            if (bf_aborted) {
                skipped++;
                continue;
            }
            checked++;
            open_checked += L[n].P[i] < L[n].O[i];
            if (v != eg_val(e)) {
                bad++;
                if (bad < 5)
                    fprintf(stderr, "%s n=%d rank %llu: brute %d table %d\n",
                            pn, n, (unsigned long long)i, v, eg_val(e));
            }
        }
    }
    CHECK_MSG(bad == 0, "%s: %llu of %llu brute-force values differ", pn,
              (unsigned long long)bad, (unsigned long long)checked);
    CHECK(checked > 300);
    if (preset == MC_EGDB_ABAPA)
        CHECK_MSG(open_checked >= 77,
                  "only %llu positions with P < O "
                  "brute-forced",
                  (unsigned long long)open_checked);
    if (getenv("MANCALA_TEST_VERBOSE"))
        printf("%s brute force: %llu positions (%llu with P < O), %llu "
               "over the node cap\n",
               pn, (unsigned long long)checked,
               (unsigned long long)open_checked, (unsigned long long)skipped);

    vi_free(L, 4);
    mc_game_free(gr);
    mc_egdb_close(db);
}

/* ---- damaged files
 * ----------------------------------------------------------- */

static int copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    int ok = a && b;
    char buf[65536];
    size_t k;
    while (ok && (k = fread(buf, 1, sizeof buf, a)) > 0)
        ok = fwrite(buf, 1, k, b) == k;
    if (a)
        fclose(a);
    if (b)
        fclose(b);
    return ok ? 0 : -1;
}

/* Copy layers 0..5 of abapa into dir d. */
static void fresh_copy(const char *d)
{
    rm_tree(d);
    mkdir(d, 0777);
    char src[300], dst[300], a[600], b[600];
    snprintf(src, sizeof src, "%s/abapa", tmpdir);
    snprintf(dst, sizeof dst, "%s", d);
    for (int n = 0; n <= 5; n++) {
        mc_egdb_path(src, MC_EGDB_ABAPA, n, a, sizeof a);
        mc_egdb_path(dst, MC_EGDB_ABAPA, n, b, sizeof b);
        copy_file(a, b);
    }
}

static void poke(const char *path, long off, int xor_mask)
{
    FILE *f = fopen(path, "r+b");
    if (!f)
        return;
    fseek(f, off, SEEK_SET);
    int c = fgetc(f);
    fseek(f, off, SEEK_SET);
    fputc(c ^ xor_mask, f);
    fclose(f);
}

static void expect_refusal(const char *d, const char *what)
{
    mc_error err = {0, ""};
    mc_egdb *db = mc_egdb_open(d, MC_EGDB_ABAPA, 5, &err);
    CHECK_MSG(db == NULL, "opened despite: %s", what);
    CHECK_MSG(strstr(err.msg, what) != NULL, "message '%s' lacks '%s'", err.msg,
              what);
    mc_egdb_close(db);
}

static void test_damage(void)
{
    char d[300], p3[600], p4[600];
    snprintf(d, sizeof d, "%s/damaged", tmpdir);
    mc_egdb_path(d, MC_EGDB_ABAPA, 3, p3, sizeof p3);
    mc_egdb_path(d, MC_EGDB_ABAPA, 4, p4, sizeof p4);
    mc_error err = {0, ""};

    fresh_copy(d);
    mc_egdb *db = mc_egdb_open(d, MC_EGDB_ABAPA, 5, &err);
    CHECK_MSG(db != NULL, "intact copy: %s", err.msg);
    mc_egdb_close(db);

    fresh_copy(d);
    poke(p3, EG_HEADER_SIZE + 100, 0x01); /* one entry bit */
    expect_refusal(d, "payload checksum");

    fresh_copy(d);
    poke(p3, 200, 0x01); /* histogram, header checksum not updated */
    expect_refusal(d, "header checksum");

    fresh_copy(d);
    if (truncate(p4, EG_HEADER_SIZE + 1000) != 0)
        CHECK(!"truncate");
    expect_refusal(d, "truncated");

    fresh_copy(d);
    if (truncate(p4, 100) != 0)
        CHECK(!"truncate");
    expect_refusal(d, "truncated");

    /* An awari layer in place of an abapa one. */
    fresh_copy(d);
    {
        char a[600], awdir[300];
        snprintf(awdir, sizeof awdir, "%s/awari", tmpdir);
        mc_egdb_path(awdir, MC_EGDB_AWARI, 3, a, sizeof a);
        copy_file(a, p3);
        expect_refusal(d, "not layer 3 of abapa");
    }

    /* A valid layer 3 that differs from the one layer 4 was built from. */
    fresh_copy(d);
    {
        mc_egdb_info in;
        CHECK(mc_egdb_file_info(p3, &in, &err) == 0);
        uint8_t *data = malloc(in.entries);
        FILE *f = fopen(p3, "rb");
        if (f && data) {
            fseek(f, EG_HEADER_SIZE, SEEK_SET);
            CHECK(fread(data, 1, in.entries, f) == in.entries);
            fclose(f);
            /* Swap two entries of different value: still a valid file. */
            uint64_t j = 1;
            while (j < in.entries && data[j] == data[0])
                j++;
            uint8_t t = data[0];
            data[0] = data[j];
            data[j] = t;
            CHECK(eg_write_layer(d, &in, data, &err) == 0);
            CHECK(mc_egdb_file_info(p3, &in, &err) == 0);
        }
        free(data);
        expect_refusal(d, "dependency checksum mismatch");
    }

    /* An unknown format version with a consistent header checksum. */
    fresh_copy(d);
    {
        FILE *f = fopen(p3, "r+b");
        unsigned char h[EG_HEADER_SIZE];
        if (f && fread(h, 1, sizeof h, f) == sizeof h) {
            h[8] = 99;
            uint64_t s = eg_checksum(h, 1632, 0);
            for (int i = 0; i < 8; i++)
                h[1632 + i] = (unsigned char)(s >> (8 * i));
            fseek(f, 0, SEEK_SET);
            fwrite(h, 1, sizeof h, f);
        }
        if (f)
            fclose(f);
        expect_refusal(d, "unknown format version 99");
    }

    /* Another rules string (e.g. repetition=threefold) with a consistent
       header checksum. */
    fresh_copy(d);
    {
        FILE *f = fopen(p3, "r+b");
        unsigned char h[EG_HEADER_SIZE];
        if (f && fread(h, 1, sizeof h, f) == sizeof h) {
            const char *other = "oware:grand_slam=forfeit,repetition="
                                "threefold,cycle_split=ownership";
            memset(h + 48, 0, 128);
            memcpy(h + 48, other, strlen(other));
            uint64_t s = eg_checksum(h, 1632, 0);
            for (int i = 0; i < 8; i++)
                h[1632 + i] = (unsigned char)(s >> (8 * i));
            fseek(f, 0, SEEK_SET);
            fwrite(h, 1, sizeof h, f);
        }
        if (f)
            fclose(f);
        expect_refusal(d, "built for the rules 'oware:grand_slam=forfeit,"
                          "repetition=threefold");
    }

    /* A killed build: layer 4 missing; the build resumes there. */
    fresh_copy(d);
    remove(p4);
    {
        mc_egdb_build_opts o;
        memset(&o, 0, sizeof o);
        o.dir = d;
        o.preset = MC_EGDB_ABAPA;
        o.max_seeds = 5;
        o.threads = 1;
        CHECK(mc_egdb_build(&o, &err) == 0);
        CHECK(o.first_built == 4);
        db = mc_egdb_open(d, MC_EGDB_ABAPA, 5, &err);
        CHECK(db != NULL);
        mc_egdb_close(db);
    }
    rm_tree(d);
}

/* Positions with P < O from 12 seeds up: the contract's measurement (none)
   is on exact lower layers, and the builder stops there.  Approximated
   lower layers (approx_cycles) can open some (exact layer 7 under
   approximated 8-11 opens 134 of layer 13): each then gets the
   approximation clamp(own split, P, O). */
static void test_open_above(void)
{
    eg_rules rr;
    CHECK(rules_init(&rr, MC_EGDB_ABAPA) == 0);
    int n = 12;
    uint64_t N = mc_egdb_layer_size(n);
    eg_bounds b;
    memset(&b, 0, sizeof b);
    b.P = malloc(N), b.O = malloc(N), b.hp = calloc(N, 1);
    uint8_t *out = malloc(N);
    CHECK(b.P && b.O && b.hp && out);
    if (!b.P || !b.O || !b.hp || !out) {
        free(b.P), free(b.O), free(b.hp), free(out);
        eg_rules_free(&rr);
        return;
    }
    memset(b.P, 2, N);
    memset(b.O, 2, N);
    /* Open: rank 0 (all 12 seeds in the other player's last house: own
       split -12), the last rank (all in the mover's first house: +12)
       and one with 6 seeds a side (own split 0). */
    uint8_t h[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    uint64_t mid = mc_egdb_rank(h);
    uint64_t open[3] = {0, N - 1, mid};
    for (int i = 0; i < 3; i++)
        b.P[open[i]] = -4, b.O[open[i]] = 4;
    b.hp[mid] = 1;
    b.open = 3;
    mc_error err;
    int approx = 0;
    CHECK(eg_values(&rr, n, &b, 1, NULL, NULL, out, &approx, NULL, NULL, NULL,
                    &err) != 0);
    CHECK(strstr(err.msg, "3 positions have different bounds") != NULL);
    approx = 1;
    CHECK(eg_values(&rr, n, &b, 1, NULL, NULL, out, &approx, NULL, NULL, NULL,
                    &err) == 0);
    int want[3] = {-4, 4, 0};
    for (int i = 0; i < 3; i++) {
        uint8_t g[12];
        mc_egdb_unrank(n, open[i], g);
        int own = 0;
        for (int k = 0; k < 12; k++)
            own += k < 6 ? g[k] : -g[k];
        CHECK_MSG(own == 3 * want[i], "position %d: own split %d", i, own);
        CHECK_MSG((out[open[i]] & 0x7f) == want[i] + 64,
                  "open position %d: value %d, want %d", i,
                  (out[open[i]] & 0x7f) - 64, want[i]);
    }
    CHECK(out[mid] >> 7 == 1 && out[0] >> 7 == 0);
    CHECK((out[1] & 0x7f) == 2 + 64);
    CHECK(approx == 1);
    free(b.P), free(b.O), free(b.hp), free(out);
    eg_rules_free(&rr);
}

/* ---- the search journal
 * ------------------------------------------------------ */

/* Open abapa layers 0..n-1 of dir, rr's lower layers pointing at them:
   the tables, or NULL (a failed check). */
static mc_egdb *open_lower(const char *dir, int n, eg_rules *rr)
{
    mc_error err = {0, ""};
    mc_egdb *db = mc_egdb_open(dir, MC_EGDB_ABAPA, n - 1, &err);
    CHECK_MSG(db != NULL, "open: %s", err.msg);
    if (!db)
        return NULL;
    CHECK(rules_init(rr, MC_EGDB_ABAPA) == 0);
    for (int m = 0; m < n; m++)
        rr->lower[m] = eg_layer_data(db, m);
    return db;
}

/* Lines of a file, -1 when it is missing or does not end in a newline. */
static long file_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long n = 0;
    int c, last = '\n';
    while ((c = fgetc(f)) != EOF) {
        n += c == '\n';
        last = c;
    }
    fclose(f);
    return last == '\n' ? n : -1;
}

/* The journal's lines after head that give an open position (each once)
   the value of out; -1 when head differs. */
static long journal_good(const char *path, const char *head, const eg_bounds *b,
                         const uint8_t *out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    uint64_t N = mc_egdb_layer_size(4);
    uint8_t *seen = calloc(N, 1);
    char line[600];
    long good = -1;
    if (seen && fgets(line, sizeof line, f) && strcmp(line, head) == 0) {
        good = 0;
        while (fgets(line, sizeof line, f)) {
            unsigned long long x;
            int v, len;
            if (sscanf(line, "%llu %d%n", &x, &v, &len) == 2 &&
                strcmp(line + len, "\n") == 0 && x < N && !seen[x] &&
                b->P[x] < b->O[x] && v == eg_val(out[x])) {
                seen[x] = 1;
                good++;
            }
        }
    }
    free(seen);
    fclose(f);
    return good;
}

/* eg_values on abapa layer 4 (246 positions with P < O, all searched)
   with the journal at jp; 0 when it ran. */
static int journal_values(eg_rules *rr, const eg_bounds *b, const char *jp,
                          const char *head, const char *shipped, uint8_t *out)
{
    mc_error err = {0, ""};
    int approx = 0;
    int rc = eg_values(rr, 4, b, 1, NULL, NULL, out, &approx, jp, head, shipped,
                       &err);
    CHECK_MSG(rc == 0, "eg_values: %s", err.msg);
    CHECK(approx == 0);
    return rc;
}

/* A killed search resumes from its journal: the journal's values are
   taken as they stand (a planted one shows it), a line cut short is
   dropped, and a journal with a value outside the bounds or another first
   line is started again. */
static void test_journal(void)
{
    char dir[300], jp[600], head[512], other[512];
    snprintf(dir, sizeof dir, "%s/abapa", tmpdir);
    eg_rules rr;
    eg_bounds b;
    mc_egdb *db = open_lower(dir, 4, &rr);
    if (!db)
        return;
    uint64_t N = mc_egdb_layer_size(4);
    uint8_t *want = malloc(N), *out = malloc(N);
    int ok =
        want && out && eg_compute_bounds(&rr, 4, 1, &b, 0, NULL, NULL) == 0;
    CHECK(ok);
    if (!ok) {
        free(want), free(out);
        eg_rules_free(&rr);
        mc_egdb_close(db);
        return;
    }
    CHECK(b.open == 246);
    snprintf(jp, sizeof jp, "%s/layer4.journal", tmpdir);
    uint64_t deps[4] = {1, 2, 3, 4}, deps2[4] = {1, 2, 3, 5};
    eg_journal_head("oware:test", 4, deps, head, sizeof head);
    eg_journal_head("oware:test", 4, deps2, other, sizeof other);
    CHECK(strcmp(head, other) != 0);
    int mc = journal_values(&rr, &b, NULL, NULL, NULL, want);
    /* Written: the first line and one line a search. */
    mc |= journal_values(&rr, &b, jp, head, NULL, out);
    CHECK(memcmp(out, want, N) == 0);
    CHECK(file_lines(jp) == 1 + 246);
    CHECK(journal_good(jp, head, &b, out) == 246);
    /* The first two open positions; x2 gets a value it does not have, in
       its bounds. */
    uint64_t x1 = 0, x2 = 0;
    while (b.P[x1] == b.O[x1])
        x1++;
    for (x2 = x1 + 1; b.P[x2] == b.O[x2];)
        x2++;
    int v1 = eg_val(want[x1]), v2 = eg_val(want[x2]);
    int planted = v2 == b.P[x2] ? v2 + 2 : v2 - 2;
    FILE *f = fopen(jp, "w");
    if (f) {
        fprintf(f, "%s%llu %d\n%llu %d\n%llu", head, (unsigned long long)x1, v1,
                (unsigned long long)x2, planted, (unsigned long long)x1);
        fclose(f);
    }
    mc |= journal_values(&rr, &b, jp, head, NULL, out);
    CHECK_MSG(eg_val(out[x2]) == planted, "planted %d, got %d", planted,
              eg_val(out[x2]));
    uint64_t differ = 0;
    for (uint64_t i = 0; i < N; i++)
        differ += i != x2 && out[i] != want[i];
    CHECK(differ == 0);
    /* The cut line went; the others were searched and added. */
    CHECK(file_lines(jp) == 1 + 246);
    CHECK(journal_good(jp, head, &b, out) == 246);
    /* A value outside the bounds: stale, every value searched again. */
    f = fopen(jp, "w");
    if (f) {
        fprintf(f, "%s%llu %d\n%llu %d\n", head, (unsigned long long)x2,
                planted, (unsigned long long)x1, b.O[x1] + 2);
        fclose(f);
    }
    mc |= journal_values(&rr, &b, jp, head, NULL, out);
    CHECK(memcmp(out, want, N) == 0);
    CHECK(file_lines(jp) == 1 + 246);
    CHECK(journal_good(jp, head, &b, out) == 246);
    /* Another first line (other lower layers): stale. */
    f = fopen(jp, "w");
    if (f) {
        fprintf(f, "%s%llu %d\n", other, (unsigned long long)x2, planted);
        fclose(f);
    }
    mc |= journal_values(&rr, &b, jp, head, NULL, out);
    CHECK(memcmp(out, want, N) == 0);
    /* A shipped journal (data/egdb, embedded): taken first, so nothing is
       left to search; ignored under another first line or with a value
       outside the bounds. */
    size_t cap = 600 + 16 * (size_t)b.open, len = 0;
    char *text = malloc(cap);
    CHECK(text != NULL);
    for (int pass = 0; text && pass < 3; pass++) {
        len = (size_t)snprintf(text, cap, "%s", pass == 1 ? other : head);
        for (uint64_t i = 0; i < N; i++)
            if (b.P[i] < b.O[i])
                len += (size_t)snprintf(
                    text + len, cap - len, "%llu %d\n", (unsigned long long)i,
                    i == x2                ? planted
                    : pass == 2 && i == x1 ? b.O[i] + 2
                                           : eg_val(want[i]));
        remove(jp);
        mc |= journal_values(&rr, &b, jp, head, text, out);
        differ = 0;
        for (uint64_t i = 0; i < N; i++)
            differ += i != x2 && out[i] != want[i];
        CHECK(differ == 0);
        if (pass == 0) {
            CHECK(eg_val(out[x2]) == planted);
            CHECK(file_lines(jp) == 1);
        } else {
            CHECK(out[x2] == want[x2]);
            CHECK(file_lines(jp) == 1 + 246);
        }
    }
    free(text);
    CHECK(mc == 0);
    remove(jp);
    eg_bounds_free(&b);
    free(want), free(out);
    eg_rules_free(&rr);
    mc_egdb_close(db);
}

/* Build abapa layers 0..n of dir (those on disk kept); 0 when it did. */
static int build_to(const char *dir, int n)
{
    mc_egdb_build_opts o;
    build_opts(&o, dir, MC_EGDB_ABAPA, n);
    mc_error err = {0, ""};
    int rc = mc_egdb_build(&o, &err);
    CHECK_MSG(rc == 0, "build 0-%d: %s", n, err.msg);
    return rc;
}

/* approx_cycles of layer n in dir, -1 when it does not open. */
static int layer_approx(const char *dir, int n)
{
    mc_error err = {0, ""};
    mc_egdb *db = mc_egdb_open(dir, MC_EGDB_ABAPA, n, &err);
    int a = db ? (int)mc_egdb_layer_info(db, n)->approx_cycles : -1;
    mc_egdb_close(db);
    return a;
}

/* The journal shipped for abapa layer n, over the exact layers 0..n-1 in
   dir: its first line is the one the builder writes over them, it holds
   every position with P < O once, each value fits its bounds, and the
   search finds the same values again on the positions of pick (mask: the
   values among them, bit v + n); a build then takes them, searching
   nothing, exact although the giant component is over the test's limit of
   2,000 positions, and MANCALA_EGDB_SHIPPED=0 leaves them out (the
   component approximated).  Leaves layer n exact in dir. */
static void shipped_layer(const char *dir, int n, const uint64_t *pick,
                          size_t np, int mask)
{
    mc_error err = {0, ""};
    eg_rules rr;
    eg_bounds b;
    mc_egdb *db = open_lower(dir, n, &rr);
    if (!db)
        return;
    uint64_t deps[MC_EGDB_MAX_SEEDS];
    for (int m = 0; m < n; m++) {
        deps[m] = mc_egdb_layer_info(db, m)->header_sum;
        CHECK(mc_egdb_layer_info(db, m)->approx_cycles == 0);
    }
    char spec[256], head[512], name[64];
    eg_full_spec(rr.g, spec, sizeof spec);
    eg_journal_head(spec, n, deps, head, sizeof head);
    snprintf(name, sizeof name, "oware-abapa-%02d", n);
    const char *text = eg_shipped_journal(name);
    uint64_t N = mc_egdb_layer_size(n);
    uint8_t *seen = calloc(N, 1);
    int8_t *want = malloc(N), *F = malloc(N);
    int ok = text && seen && want && F &&
             eg_compute_bounds(&rr, n, 2, &b, 0, NULL, NULL) == 0;
    CHECK_MSG(ok, "no shipped journal of layer %d, or out of memory", n);
    if (!ok) {
        free(seen), free(want), free(F);
        eg_rules_free(&rr);
        mc_egdb_close(db);
        return;
    }
    size_t hl = strlen(head);
    CHECK_MSG(strncmp(text, head, hl) == 0,
              "layer %d: shipped first line "
              "differs from the builder's: %.200s",
              n, text);
    uint64_t lines = 0, bad = 0;
    for (const char *t = text + hl; *t;) {
        unsigned long long x;
        int v, len;
        if (sscanf(t, "%llu %d%n", &x, &v, &len) != 2 || t[len] != '\n' ||
            x >= N || seen[x] || b.P[x] >= b.O[x] || v < b.P[x] || v > b.O[x] ||
            ((v - n) & 1)) {
            bad++;
            break;
        }
        seen[x] = 1;
        want[x] = (int8_t)v;
        lines++;
        t += len + 1;
    }
    CHECK_MSG(bad == 0 && lines == b.open,
              "shipped layer %d: %llu good "
              "lines of %llu open positions",
              n, (unsigned long long)lines, (unsigned long long)b.open);
    int vals = 0;
    CHECK(eg_fresh_search(&rr, n, &b, pick, np, F, &err) == 0);
    for (size_t i = 0; i < np; i++) {
        CHECK_MSG(seen[pick[i]] && F[pick[i]] == want[pick[i]],
                  "layer %d position %llu: searched %d, shipped %d", n,
                  (unsigned long long)pick[i], F[pick[i]], want[pick[i]]);
        vals |= 1 << (want[pick[i]] + n);
    }
    CHECK_MSG(vals == mask, "layer %d: picked values 0x%x", n, vals);
    CHECK(mc_egdb_shipped(MC_EGDB_ABAPA, n) == 1);
    /* A build takes them. */
    if (build_to(dir, n) == 0) {
        mc_egdb *dn = mc_egdb_open(dir, MC_EGDB_ABAPA, n, &err);
        CHECK(dn != NULL);
        if (dn) {
            const uint8_t *e = eg_layer_data(dn, n);
            uint64_t differ = 0;
            for (uint64_t x = 0; x < N; x++)
                differ += seen[x] && eg_val(e[x]) != want[x];
            CHECK(differ == 0);
            CHECK(mc_egdb_layer_info(dn, n)->approx_cycles == 0);
            mc_egdb_close(dn);
        }
    }
    /* Left out, the giant component takes the approximation. */
    char pn[600];
    mc_egdb_path(dir, MC_EGDB_ABAPA, n, pn, sizeof pn);
    remove(pn);
    knobs.no_shipped = 1;
    CHECK(mc_egdb_shipped(MC_EGDB_ABAPA, n) == 1); /* shipped, not taken */
    if (build_to(dir, n) == 0)
        CHECK(layer_approx(dir, n) == 1);
    knobs.no_shipped = 0;
    remove(pn);
    if (build_to(dir, n) == 0)
        CHECK(layer_approx(dir, n) == 0);
    eg_bounds_free(&b);
    free(seen), free(want), free(F);
    eg_rules_free(&rr);
    mc_egdb_close(db);
}

/* The journals shipped with the library (data/egdb, embedded), over the
   exact layers a default build makes.  Layer 7's picks: values -5 to 7,
   20 to 930 nodes each when searched; layer 8's: -4 to 4, 0 (settled by
   the fresh bracket) to 1,101 nodes. */
static void test_shipped(void)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/exact", tmpdir);
    mkdir(dir, 0777);
    knobs.search_maxcomp = 30000; /* layer 6 exact */
    int rc = build_to(dir, 6);
    knobs.search_maxcomp = 2000;
    if (rc)
        return;
    static const uint64_t pick7[] = {947,   1788,  6580,  11203, 13591, 15811,
                                     21749, 24887, 25448, 26994, 27864, 30621};
    shipped_layer(dir, 7, pick7, sizeof pick7 / sizeof *pick7,
                  0x5554); /* -5 -3 -1 1 3 5 7 */
    static const uint64_t pick8[] = {1326,  1331,  1371,  3882,  6852, 9462,
                                     11388, 13785, 20936, 22897, 28939};
    shipped_layer(dir, 8, pick8, sizeof pick8 / sizeof *pick8,
                  0x1550); /* -4 -2 0 2 4 */
    CHECK(mc_egdb_shipped(MC_EGDB_ABAPA, 9) == 0);
    CHECK(mc_egdb_shipped(MC_EGDB_AWARI, 7) == 0);
}

/* The layers the tests after test_preset read (abapa 0-5, awari 0-3),
   when they run without it. */
static void small_builds(void)
{
    static const int presets[2] = {MC_EGDB_ABAPA, MC_EGDB_AWARI};
    static const int tops[2] = {5, 3};
    for (int i = 0; i < 2; i++) {
        char dir[300];
        snprintf(dir, sizeof dir, "%s/%s", tmpdir,
                 mc_egdb_preset_name(presets[i]));
        mkdir(dir, 0777);
        mc_egdb_build_opts o;
        build_opts(&o, dir, presets[i], tops[i]);
        mc_error err = {0, ""};
        CHECK_MSG(mc_egdb_build(&o, &err) == 0, "build %s: %s",
                  mc_egdb_preset_name(presets[i]), err.msg);
    }
}

/* The builder's diagnostics go to the caller's log, never to stderr: one
   line of pass times per layer built (log_timing), and nothing for
   layers found on disk or without the flag. */
typedef struct log_seen {
    int forward[8], other;
} log_seen;

static void on_log(void *ctx, const char *line)
{
    log_seen *ls = ctx;
    int n;
    char word[16];
    if (sscanf(line, "n=%d %15s", &n, word) == 2 && n >= 0 && n < 8 &&
        strcmp(word, "forward") == 0)
        ls->forward[n]++;
    else if (sscanf(line, "n=%d", &n) != 1)
        ls->other++;
}

static void test_log(void)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/log", tmpdir);
    mkdir(dir, 0777);
    log_seen ls;
    memset(&ls, 0, sizeof ls);
    mc_egdb_build_opts o;
    build_opts(&o, dir, MC_EGDB_ABAPA, 4);
    o.log = on_log;
    o.log_ctx = &ls;
    o.log_timing = 1;
    mc_error err = {0, ""};
    CHECK_MSG(mc_egdb_build(&o, &err) == 0, "%s", err.msg);
    for (int n = 0; n <= 4; n++)
        CHECK_MSG(ls.forward[n] == 1, "layer %d: %d forward lines", n,
                  ls.forward[n]);
    CHECK(ls.forward[5] == 0 && ls.other == 0);
    /* found complete: nothing built, nothing told */
    memset(&ls, 0, sizeof ls);
    CHECK(mc_egdb_build(&o, &err) == 0 && o.first_built == 5);
    o.max_seeds = 5;
    o.log_timing = 0;
    CHECK(mc_egdb_build(&o, &err) == 0 && o.first_built == 5);
    for (int n = 0; n < 8; n++)
        CHECK(ls.forward[n] == 0);
}

/* ---- the memory budget and checkpoints inside a layer ------------------- */

/* What a budgeted build said: its work arrays' places and resumption. */
typedef struct budget_log {
    int files, memory, resumed;
} budget_log;

static void on_budget_log(void *ctx, const char *line)
{
    budget_log *bl = ctx;
    if (strstr(line, " work: ")) {
        bl->files += strstr(line, "file") != NULL;
        bl->memory += strstr(line, "memory") != NULL;
    }
    bl->resumed += strstr(line, "resumed at phase") != NULL;
}

/* Layers 0..12 of awari from src into d (fresh), then layer 13 built
   there with the given budget; 0 or the build's error code. */
static int budget_build(const char *src, const char *d, uint32_t mb,
                        budget_log *bl, mc_error *err)
{
    rm_tree(d);
    mkdir(d, 0777);
    for (int n = 0; n <= 12; n++) {
        char a[600], b[600];
        mc_egdb_path(src, MC_EGDB_AWARI, n, a, sizeof a);
        mc_egdb_path(d, MC_EGDB_AWARI, n, b, sizeof b);
        copy_file(a, b);
    }
    mc_egdb_build_opts o;
    build_opts(&o, d, MC_EGDB_AWARI, 13);
    o.memory_mb = mb;
    o.log = on_budget_log;
    o.log_ctx = bl;
    o.log_timing = 1;
    memset(bl, 0, sizeof *bl);
    return mc_egdb_build(&o, err);
}

static int same_file(const char *a, const char *b)
{
    FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
    int same = f && g;
    while (same) {
        int c = fgetc(f), d = fgetc(g);
        same = c == d;
        if (c == EOF)
            break;
    }
    if (f)
        fclose(f);
    if (g)
        fclose(g);
    return same;
}

static int exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* Layer 13, the first of the compact sweep (docs/EGDB.md, "Memory
   budget"): built with its work in memory, in scratch files (a budget of
   1 MiB), and stopped after checkpoints and taken up again, the files are
   the same bytes; a damaged checkpoint is not taken up. */
static void test_budget(void)
{
    char src[300], mem[300], fil[300], stop[300];
    snprintf(src, sizeof src, "%s/budget-src", tmpdir);
    snprintf(mem, sizeof mem, "%s/budget-mem", tmpdir);
    snprintf(fil, sizeof fil, "%s/budget-file", tmpdir);
    snprintf(stop, sizeof stop, "%s/budget-stop", tmpdir);
    /* test_preset's layers when it built 0-12, else built here */
    if (top_layer() >= 12)
        snprintf(src, sizeof src, "%s/awari", tmpdir);
    mkdir(src, 0777);
    mc_egdb_build_opts o;
    build_opts(&o, src, MC_EGDB_AWARI, 12);
    mc_error err = {0, ""};
    CHECK_MSG(mc_egdb_build(&o, &err) == 0, "%s", err.msg);
    budget_log bl;
    CHECK_MSG(budget_build(src, mem, 4096, &bl, &err) == 0, "%s", err.msg);
    CHECK(bl.memory == 1 && bl.files == 0);
    CHECK_MSG(budget_build(src, fil, 1, &bl, &err) == 0, "%s", err.msg);
    CHECK(bl.files == 1 && bl.memory == 0);
    char a[600], b[600], ck[600], work[600];
    mc_egdb_path(mem, MC_EGDB_AWARI, 13, a, sizeof a);
    mc_egdb_path(fil, MC_EGDB_AWARI, 13, b, sizeof b);
    CHECK_MSG(same_file(a, b), "layer 13 with its work in files differs");
    eg_layer_file(fil, MC_EGDB_AWARI, 13, ".work-state", work, sizeof work);
    CHECK_MSG(!exists(work), "%s left behind", work);

    /* Stopped after 3 checkpoints (the forward pass, two thresholds):
       no layer, a checkpoint; the next build takes it up. */
    eg_test_stop_after = 3;
    int rc = budget_build(src, stop, 1, &bl, &err);
    eg_test_stop_after = 0;
    mc_egdb_path(stop, MC_EGDB_AWARI, 13, b, sizeof b);
    eg_layer_file(stop, MC_EGDB_AWARI, 13, ".ckpt", ck, sizeof ck);
    CHECK(rc != 0 && strstr(err.msg, "stopped after 3"));
    CHECK(!exists(b) && exists(ck));
    /* what egdb info tells of it: after the forward pass (phase 0) and
       two of awari layer 13's 13 thresholds */
    int done = -1, total = -1;
    CHECK(mc_egdb_checkpoint_phase(stop, MC_EGDB_AWARI, 13, &done, &total) ==
              1 &&
          done == 2 && total == 13);
    CHECK(mc_egdb_checkpoint_phase(stop, MC_EGDB_AWARI, 12, NULL, NULL) == 0);
    o.dir = stop;
    o.max_seeds = 13;
    o.memory_mb = 1;
    o.log = on_budget_log;
    o.log_ctx = &bl;
    o.log_timing = 1;
    memset(&bl, 0, sizeof bl);
    CHECK_MSG(mc_egdb_build(&o, &err) == 0, "%s", err.msg);
    CHECK_MSG(bl.resumed == 1, "the checkpoint was not taken up");
    CHECK_MSG(same_file(a, b), "layer 13 taken up from a checkpoint differs");
    CHECK(!exists(ck));
    CHECK(mc_egdb_checkpoint_phase(stop, MC_EGDB_AWARI, 13, NULL, NULL) == 0);

    /* In memory, stopped after 2; the checkpoint damaged: a build from
       the start, the same bytes. */
    eg_test_stop_after = 2;
    rc = budget_build(src, stop, 4096, &bl, &err);
    eg_test_stop_after = 0;
    CHECK(rc != 0 && exists(ck));
    poke(ck, 4096 + 1000, 0x10);
    memset(&bl, 0, sizeof bl);
    o.memory_mb = 4096;
    CHECK_MSG(mc_egdb_build(&o, &err) == 0, "%s", err.msg);
    CHECK_MSG(bl.resumed == 0, "a damaged checkpoint was taken up");
    CHECK_MSG(same_file(a, b), "layer 13 after a damaged checkpoint differs");
    CHECK(!exists(ck));
}

/* egdb verify's compact check (for layers whose full check does not fit
   in memory), on layer 13 of awari: no errors on the built layer; a
   changed entry is a re-derived value that differs and a Bellman error
   at it (or at a parent), and the full check agrees there is one. */
static void test_verify_compact(void)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/budget-mem", tmpdir); /* 0-13 */
    mc_error err = {0, ""};
    mc_egdb *db = mc_egdb_open(dir, MC_EGDB_AWARI, 13, &err);
    CHECK_MSG(db != NULL, "%s", err.msg);
    if (!db)
        return;
    eg_rules rr;
    CHECK(rules_init(&rr, MC_EGDB_AWARI) == 0);
    for (int m = 0; m <= 13; m++)
        rr.lower[m] = eg_layer_data(db, m);
    mc_egdb_verify_report rep;
    eg_verify_layer(db, &rr, 13, &rep, 1, NULL, NULL);
    CHECK(rep.compact == 1 && rep.entries == mc_egdb_layer_size(13));
    CHECK_MSG(rep.bellman_errors + rep.value_errors + rep.invariant_errors == 0,
              "compact check of a good layer: %llu %llu %llu",
              (unsigned long long)rep.bellman_errors,
              (unsigned long long)rep.value_errors,
              (unsigned long long)rep.invariant_errors);
    uint64_t N = mc_egdb_layer_size(13), at = N / 3;
    uint8_t *bad = malloc(N);
    memcpy(bad, rr.lower[13], N);
    bad[at] = eg_entry(eg_val(bad[at]) + 2, bad[at] >> 7);
    rr.lower[13] = bad;
    eg_verify_layer(db, &rr, 13, &rep, 1, NULL, NULL);
    CHECK(rep.compact == 1 && rep.value_errors == 1);
    CHECK(rep.bellman_errors >= 1);
    eg_verify_layer(db, &rr, 13, &rep, 0, NULL, NULL);
    CHECK(rep.compact == 0 && rep.value_errors + rep.bellman_errors >= 1);
    free(bad);
    eg_rules_free(&rr);
    mc_egdb_close(db);
}

/* ---- a build shared by several processes, here threads ---------------- */

/* The transport of mc_egdb_dist between threads of this process: what
   MPI does for the program (src/cli/mpi.c), with a barrier and shared
   slots. */
#define DIST_MAX 4
typedef struct dist_hub {
    int size;
    pthread_barrier_t bar;
    uint64_t *const *out[DIST_MAX];
    const size_t *outn[DIST_MAX];
    uint64_t sum[DIST_MAX][4];
} dist_hub;

typedef struct dist_rank {
    dist_hub *hub;
    mc_egdb_dist d;
    mc_egdb_build_opts o;
    mc_error err;
    int rc;
} dist_rank;

static int hub_exchange(void *ctx, uint64_t *const *out, const size_t *outn,
                        uint64_t **in, size_t *inn)
{
    dist_rank *me = ctx;
    dist_hub *h = me->hub;
    int r = me->d.rank;
    h->out[r] = out;
    h->outn[r] = outn;
    pthread_barrier_wait(&h->bar);
    size_t tot = 0;
    for (int k = 0; k < h->size; k++)
        if (k != r)
            tot += h->outn[k][r];
    *in = malloc(tot ? tot * sizeof **in : 1);
    *inn = tot;
    size_t at = 0;
    for (int k = 0; k < h->size; k++)
        if (k != r && h->outn[k][r]) {
            memcpy(*in + at, h->out[k][r], h->outn[k][r] * sizeof **in);
            at += h->outn[k][r];
        }
    pthread_barrier_wait(&h->bar);
    return *in ? 0 : -1;
}

static int hub_sum(void *ctx, uint64_t *v, int n)
{
    dist_rank *me = ctx;
    dist_hub *h = me->hub;
    if (n > 4)
        return -1;
    memcpy(h->sum[me->d.rank], v, (size_t)n * sizeof *v);
    pthread_barrier_wait(&h->bar);
    for (int i = 0; i < n; i++) {
        v[i] = 0;
        for (int k = 0; k < h->size; k++)
            v[i] += h->sum[k][i];
    }
    pthread_barrier_wait(&h->bar);
    return 0;
}

static void *dist_main(void *arg)
{
    dist_rank *me = arg;
    me->rc = mc_egdb_build(&me->o, &me->err);
    return NULL;
}

/* Layers 0..top of preset built into dir by k ranks (threads); 0 or the
   first rank's error. */
static int dist_build(const char *dir, int preset, int top, int k,
                      budget_log *bl)
{
    dist_hub hub;
    dist_rank rk[DIST_MAX];
    pthread_t tid[DIST_MAX];
    memset(&hub, 0, sizeof hub);
    hub.size = k;
    pthread_barrier_init(&hub.bar, NULL, (unsigned)k);
    for (int i = 0; i < k; i++) {
        memset(&rk[i], 0, sizeof rk[i]);
        rk[i].hub = &hub;
        rk[i].d.rank = i;
        rk[i].d.size = k;
        rk[i].d.ctx = &rk[i];
        rk[i].d.exchange = hub_exchange;
        rk[i].d.sum = hub_sum;
        build_opts(&rk[i].o, dir, preset, top);
        rk[i].o.threads = 1;
        rk[i].o.dist = &rk[i].d;
        if (bl) {
            rk[i].o.log = on_budget_log;
            rk[i].o.log_ctx = &bl[i];
            rk[i].o.log_timing = 1;
            memset(&bl[i], 0, sizeof bl[i]);
        }
    }
    for (int i = 0; i < k; i++)
        pthread_create(&tid[i], NULL, dist_main, &rk[i]);
    int rc = 0;
    for (int i = 0; i < k; i++) {
        pthread_join(tid[i], NULL);
        if (rk[i].rc && !rc) {
            rc = rk[i].rc;
            fprintf(stderr, "rank %d of %d: %s\n", i, k, rk[i].err.msg);
        }
    }
    pthread_barrier_destroy(&hub.bar);
    return rc;
}

/* docs/EGDB.md, "Over MPI": 2 and 3 ranks give the files of one process,
   from nothing (the small layers, rank 0's) and for layers 13-14 (the
   compact sweep split between the ranks), over this transport. */
static void test_dist(void)
{
    char ref[300], dir[300], a[600], b[600];
    snprintf(ref, sizeof ref, "%s/budget-mem", tmpdir); /* 0-13, test_budget */
    for (int k = 2; k <= 3; k++) {
        snprintf(dir, sizeof dir, "%s/dist-%d", tmpdir, k);
        rm_tree(dir);
        mkdir(dir, 0777);
        int top = 13;
        /* from nothing up to 8 with 3 ranks; with 2, from layer 13 on */
        if (k == 2)
            for (int n = 0; n <= 12; n++) {
                mc_egdb_path(ref, MC_EGDB_AWARI, n, a, sizeof a);
                mc_egdb_path(dir, MC_EGDB_AWARI, n, b, sizeof b);
                copy_file(a, b);
            }
        else
            top = 8;
        int rc = dist_build(dir, MC_EGDB_AWARI, top, k, NULL);
        CHECK_MSG(rc == 0, "%d ranks: the build failed", k);
        for (int n = k == 2 ? 13 : 0; n <= top && rc == 0; n++) {
            mc_egdb_path(ref, MC_EGDB_AWARI, n, a, sizeof a);
            mc_egdb_path(dir, MC_EGDB_AWARI, n, b, sizeof b);
            CHECK_MSG(same_file(a, b), "%d ranks: layer %d differs", k, n);
        }
        eg_layer_file(dir, MC_EGDB_AWARI, 13, ".dist-values", b, sizeof b);
        CHECK_MSG(!exists(b), "%s left behind", b);
    }
    /* 2 ranks stopped after 3 checkpoints (the forward pass, two
       thresholds): a checkpoint each; started again, both take theirs
       up, and the layer is the same. */
    snprintf(dir, sizeof dir, "%s/dist-2", tmpdir);
    mc_egdb_path(dir, MC_EGDB_AWARI, 13, b, sizeof b);
    unlink(b);
    budget_log bl[DIST_MAX];
    eg_test_stop_after = 3;
    int rc = dist_build(dir, MC_EGDB_AWARI, 13, 2, bl);
    eg_test_stop_after = 0;
    char ck0[700], ck1[700], base[600];
    eg_layer_file(dir, MC_EGDB_AWARI, 13, ".ckpt", base, sizeof base);
    snprintf(ck0, sizeof ck0, "%s.2-0", base);
    snprintf(ck1, sizeof ck1, "%s.2-1", base);
    CHECK(rc != 0 && !exists(b) && exists(ck0) && exists(ck1));
    rc = dist_build(dir, MC_EGDB_AWARI, 13, 2, bl);
    CHECK_MSG(rc == 0, "2 ranks after a stop: the build failed");
    CHECK_MSG(bl[0].resumed == 1 && bl[1].resumed == 1,
              "the ranks' checkpoints were not taken up (%d, %d)",
              bl[0].resumed, bl[1].resumed);
    mc_egdb_path(ref, MC_EGDB_AWARI, 13, a, sizeof a);
    CHECK_MSG(same_file(a, b), "layer 13 after a stop with 2 ranks differs");
    CHECK(!exists(ck0) && !exists(ck1));
}

int main(int argc, char **argv)
{
    int golden = argc > 1 && strcmp(argv[1], "--golden") == 0;
    /* Searching layer 6's giant component takes minutes (more under the
       sanitizers): the builds here leave components of more than 2,000
       positions to the approximation, and test_preset checks the search
       there on chosen positions. */
    knobs.search_maxcomp = 2000;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/mancala-egdb-test-XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    /* A part alone (argv[2]: abapa, awari, brute or rest) so that make check
       can run the parts side by side; none: all of them. */
    const char *part = argc > 2 ? argv[2] : "";
    int all = !*part;
    if (!all && strcmp(part, "abapa") && strcmp(part, "awari") &&
        strcmp(part, "brute") && strcmp(part, "rest")) {
        fprintf(stderr,
                "test_egdb: unknown part '%s' (abapa, awari, brute, "
                "rest)\n",
                part);
        return 2;
    }
    if (!golden && (all || !strcmp(part, "rest")))
        test_index();
    if (all || !strcmp(part, "abapa"))
        test_preset(MC_EGDB_ABAPA, golden);
    if (all || !strcmp(part, "awari"))
        test_preset(MC_EGDB_AWARI, golden);
    if (!golden && (all || !strcmp(part, "awari"))) {
        test_budget();
        test_verify_compact();
        test_dist();
    }
    if (!golden && (all || !strcmp(part, "brute"))) {
        test_brute(MC_EGDB_ABAPA);
        test_brute(MC_EGDB_AWARI);
    }
    if (!golden && !all && !strcmp(part, "rest"))
        small_builds();
    if (!golden && (all || !strcmp(part, "rest"))) {
        test_damage();
        test_open_above();
        test_journal();
        test_log();
        test_shipped();
    }
    rm_tree(tmpdir);
    if (golden)
        return 0;
    return check_report("test_egdb");
}
