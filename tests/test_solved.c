/*
 * test_solved.c - the solved games' tables (src/egdb/retro.c,
 * docs/SOLVED.md), Goré with trades=off: values worked out by hand, every
 * value of the small layers against a second, independent method (plain
 * value iteration of the two bounds over the whole layer, with its own
 * enumeration of the boards), random positions against the exact search
 * of mc_solve, the builder resuming, and damaged or foreign files
 * refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "mancala.h"
#include "mancala_egdb.h"

static char tmpdir[256];
static unsigned long long rng_state = 2026;
static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)((rng_state >> 33) % n);
}

/* A Goré position: South to move, pits from a "a,b,c,d/e,f,g,h" board
   and the captures (the other seeds), parsed by the game. */
static int gore_pos(const mc_game *g, const char *board, int side, int capS,
                    int capN, mc_pos *p)
{
    char s[128];
    snprintf(s, sizeof s, "%s %c own=SSSSNNNN cap=%d,%d", board,
             side ? 'N' : 'S', capS, capN);
    mc_error err = {0};
    int rc = mc_pos_parse(g, s, p, &err);
    if (rc)
        fprintf(stderr, "%s: %s\n", s, err.msg);
    return rc;
}

static int probe(const mc_solved *s, const mc_pos *p)
{
    int v = -999;
    CHECK(mc_solved_probe(s, p, &v, NULL) == 1);
    return v;
}

/* By hand (rules G3-G5): each board has one move, which ends the game. */
static void check_by_hand(const mc_game *g, const mc_solved *s)
{
    mc_pos p;
    /* A sows B, C, D: every pit <= 2, South keeps all 3: 45-3 with 42
       captured before (48 in all: the board plus the captures). */
    CHECK(gore_pos(g, "3,0,0,0/0,0,0,0", 0, 42, 3, &p) == 0);
    CHECK(probe(s, &p) == 42 + 3 - 3);
    /* D sows a, b, c: North's 3 (and 1 captured before). */
    CHECK(gore_pos(g, "0,0,0,3/0,0,0,0", 0, 44, 1, &p) == 0);
    CHECK(probe(s, &p) == 44 - (1 + 3));
    /* D sows a (2), b (2), c (1): no capture, North keeps 5. */
    CHECK(gore_pos(g, "0,0,0,3/1,1,0,0", 0, 22, 21, &p) == 0);
    CHECK(probe(s, &p) == 22 - (21 + 5));
    /* C sows D (1), a (2), b (1): South 1, North 3. */
    CHECK(gore_pos(g, "0,0,3,0/1,0,0,0", 0, 22, 22, &p) == 0);
    CHECK(probe(s, &p) == -2);
    /* D sows a (1), b (2), c (2): captures c, then b backwards (4); a
       keeps 1 for North. */
    CHECK(gore_pos(g, "0,0,0,3/0,1,1,0", 0, 20, 23, &p) == 0);
    CHECK(probe(s, &p) == 20 + 4 - (23 + 1));
    /* The same board with North to move, as North sees it (the rows
       swapped): the same value. */
    CHECK(gore_pos(g, "0,1,1,0/0,0,0,3", 1, 23, 20, &p) == 0);
    CHECK(probe(s, &p) == 20 + 4 - (23 + 1));
    /* Every move's value: the one move, best. */
    mc_move mv[MC_MAX_MOVES];
    int val[MC_MAX_MOVES];
    CHECK(gore_pos(g, "0,0,0,3/0,1,1,0", 0, 20, 23, &p) == 0);
    CHECK(mc_solved_move_values(s, &p, mv, val, NULL) == 1);
    CHECK(val[0] == 0);
}

/* ---- the independent method: plain value iteration ------------------- */

/* Boards of up to `max` seeds of k houses, enumerated here, keyed by the
   pits packed 5 bits each and found by binary search. */
typedef struct vi {
    int k, wdl, nb;
    uint64_t *key;
    int *P, *O, *val, *D;
} vi;

static uint64_t pack(const uint8_t *h, int k)
{
    uint64_t key = 0;
    for (int i = 0; i < k; i++)
        key = key << 5 | h[i];
    return key;
}

/* The position of board i, South to move (Goré: South owns A-D). */
static void vi_pos(const vi *v, int i, mc_pos *p)
{
    memset(p, 0, sizeof *p);
    for (int j = 0; j < v->k; j++)
        p->pit[j] = (uint8_t)(v->key[i] >> (5 * (v->k - 1 - j)) & 31);
    p->own = v->k == 8 ? 0xF0 : 0;
    p->side = MC_SOUTH;
}

static int find(const vi *v, uint64_t key)
{
    int lo = 0, hi = v->nb - 1;
    while (lo <= hi) {
        int m = (lo + hi) / 2;
        if (v->key[m] == key)
            return m;
        if (v->key[m] < key)
            lo = m + 1;
        else
            hi = m - 1;
    }
    return -1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void enumerate(vi *v, uint8_t *h, int i, int left)
{
    if (i == v->k - 1) {
        h[i] = (uint8_t)left;
        v->key[v->nb++] = pack(h, v->k);
        return;
    }
    for (int c = 0; c <= left; c++) {
        h[i] = (uint8_t)c;
        enumerate(v, h, i + 1, left - c);
    }
}

/* The board of position q as its mover sees it. */
static void board_of(const vi *v, const mc_pos *q, uint8_t *h)
{
    int o = q->side == MC_SOUTH ? 0 : v->k / 2;
    for (int i = 0; i < v->k; i++)
        h[i] = q->pit[(i + o) % v->k];
}

/* A finished game's value for South (the boards' mover). */
static int outcome(const vi *v, const mc_result *r)
{
    if (v->wdl)
        return r->winner == MC_SOUTH ? 1 : r->winner == MC_NORTH ? -1 : 0;
    return (r->score2[0] - r->score2[1]) / 2;
}

/* Each move of board i: its value for the mover from the children's
   (child: the board's index, -1 when the game ends, with *end its value;
   gain: the mover's captures). */
typedef struct vi_move {
    int child, end, gain;
} vi_move;

static int vi_moves(const mc_game *g, const vi *v, int i, vi_move *out,
                    int *over, int *end)
{
    mc_pos p;
    vi_pos(v, i, &p);
    mc_hist hist;
    memset(&hist, 0, sizeof hist);
    hist.occurrences = 1;
    mc_result r;
    memset(&r, 0, sizeof r);
    mc_status(g, &p, &hist, &r);
    *over = r.over;
    if (r.over) {
        *end = outcome(v, &r);
        return 0;
    }
    mc_move mv[MC_MAX_MOVES];
    int nm = mc_moves(g, &p, mv);
    for (int k = 0; k < nm; k++) {
        mc_pos q = p;
        mc_play(g, &q, mv[k], NULL);
        memset(&r, 0, sizeof r);
        mc_status(g, &q, &hist, &r);
        out[k].gain = v->wdl ? 0 : q.cap[0] - q.cap[1];
        if (r.over) {
            out[k].child = -1;
            out[k].end = outcome(v, &r);
        } else {
            uint8_t hc[16];
            board_of(v, &q, hc);
            out[k].child = find(v, pack(hc, v->k));
        }
    }
    return nm;
}

/* Values of every board of 0..max seeds by Jacobi iteration of the two
   bounds (P: endless play worst for the mover, O: best) from the extremes
   to their fixed points, then median(P, 0, O); then the plies to settle by
   iteration from 0.  Moves and captures come from the game's own play. */
static void value_iteration(const mc_game *g, vi *v, int k, int wdl, int max)
{
    v->k = k;
    v->wdl = wdl;
    int total = 0;
    for (int n = 0; n <= max; n++) {
        uint64_t c = 1; /* C(n + k - 1, k - 1) boards of n seeds */
        for (int i = 1; i <= k - 1; i++)
            c = c * (uint64_t)(n + i) / (uint64_t)i;
        total += (int)c;
    }
    v->key = malloc(sizeof *v->key * (size_t)total);
    v->P = malloc(sizeof(int) * (size_t)total);
    v->O = malloc(sizeof(int) * (size_t)total);
    v->val = malloc(sizeof(int) * (size_t)total);
    v->D = calloc((size_t)total, sizeof(int));
    int *nP = malloc(sizeof(int) * (size_t)total);
    int *nO = malloc(sizeof(int) * (size_t)total);
    vi_move *mv = malloc(sizeof *mv * (size_t)total * 8);
    int *nmv = malloc(sizeof(int) * (size_t)total);
    int *over = malloc(sizeof(int) * (size_t)total);
    int *end = malloc(sizeof(int) * (size_t)total);
    v->nb = 0;
    uint8_t h[16];
    for (int n = 0; n <= max; n++)
        enumerate(v, h, 0, n);
    qsort(v->key, (size_t)v->nb, sizeof *v->key, cmp_u64);
    int lim = wdl ? 1 : 49;
    for (int i = 0; i < v->nb; i++) {
        v->P[i] = -lim;
        v->O[i] = lim;
        nmv[i] = vi_moves(g, v, i, mv + 8 * i, &over[i], &end[i]);
    }
    for (int changed = 1, it = 0; changed && it < 10000; it++) {
        changed = 0;
        for (int i = 0; i < v->nb; i++) {
            int bp = -1000, bo = -1000;
            if (over[i])
                bp = bo = end[i];
            for (int j = 0; j < nmv[i]; j++) {
                const vi_move *m = &mv[8 * i + j];
                int xp = m->child < 0 ? m->end : m->gain - v->O[m->child];
                int xo = m->child < 0 ? m->end : m->gain - v->P[m->child];
                if (xp > bp)
                    bp = xp;
                if (xo > bo)
                    bo = xo;
            }
            nP[i] = bp;
            nO[i] = bo;
        }
        for (int i = 0; i < v->nb; i++) {
            changed |= nP[i] != v->P[i] || nO[i] != v->O[i];
            v->P[i] = nP[i];
            v->O[i] = nO[i];
        }
    }
    for (int i = 0; i < v->nb; i++)
        v->val[i] = v->P[i] > 0 ? v->P[i] : v->O[i] < 0 ? v->O[i] : 0;
    /* The plies to settle, from 0 up to the fixed point: 0 where the game
       is over or the board is worth 0; a winner 1 + the fewest of its
       best moves' children, a loser 1 + the most. */
    for (int changed = 1, it = 0; changed && it < 10000; it++) {
        changed = 0;
        for (int i = 0; i < v->nb; i++) {
            int d = 0, V = v->val[i];
            if (!over[i] && V != 0) {
                d = V > 0 ? 1 << 20 : 0;
                for (int j = 0; j < nmv[i]; j++) {
                    const vi_move *m = &mv[8 * i + j];
                    int mvv =
                        m->child < 0 ? m->end : m->gain - v->val[m->child];
                    int dd = m->child < 0 ? 1 : 1 + v->D[m->child];
                    if (mvv == V && ((V > 0 && dd < d) || (V < 0 && dd > d)))
                        d = dd;
                }
            }
            nP[i] = d;
        }
        for (int i = 0; i < v->nb; i++) {
            changed |= nP[i] != v->D[i];
            v->D[i] = nP[i];
        }
    }
    free(nP);
    free(nO);
    free(mv);
    free(nmv);
    free(over);
    free(end);
}

static void check_value_iteration(const mc_game *g, const mc_solved *s, int k,
                                  int wdl, int max, int want_open)
{
    vi v;
    value_iteration(g, &v, k, wdl, max);
    int bad = 0, open = 0, longest = 0;
    for (int i = 0; i < v.nb; i++) {
        mc_pos p;
        vi_pos(&v, i, &p);
        int tv = -999, td = -1;
        if (!mc_solved_probe(s, &p, &tv, &td) || tv != v.val[i] ||
            td != v.D[i]) {
            if (bad++ < 5)
                fprintf(stderr,
                        "board %016llx: tables %d in %d, iteration "
                        "%d in %d (P %d, O %d)\n",
                        (unsigned long long)v.key[i], tv, td, v.val[i], v.D[i],
                        v.P[i], v.O[i]);
        }
        open += v.P[i] < v.O[i];
        if (v.D[i] > longest)
            longest = v.D[i];
    }
    CHECK_MSG(bad == 0, "%d of %d boards differ", bad, v.nb);
    /* The bounds do differ somewhere: endless play is really tested. */
    if (want_open)
        CHECK(open > 0);
    printf("value iteration: %d boards of 0-%d seeds agree (values and "
           "plies), %d with P < O, longest %d plies\n",
           v.nb, max, open, longest);
    CHECK(longest > 4);
    free(v.key);
    free(v.P);
    free(v.O);
    free(v.val);
    free(v.D);
}

/* A random Goré position of lo..max stones on the board, an even number
   as real boards hold, the other stones captured in even numbers, either
   side to move. */
static void random_gore(int lo, int max, mc_pos *p)
{
    memset(p, 0, sizeof *p);
    int n = (lo + (int)rnd((unsigned)(max - lo + 1))) & ~1;
    for (int i = 0; i < n; i++)
        p->pit[rnd(8)]++;
    int capS = (int)rnd((unsigned)(48 - n + 1) / 2) * 2;
    p->cap[0] = (uint16_t)capS;
    p->cap[1] = (uint16_t)(48 - n - capS);
    p->own = 0xF0;
    p->side = (uint8_t)rnd(2);
}

/* Perfect play by both sides in real games (the session's rules, G8
   included) ends with the margin the tables promise, a won game within
   the plies they give. */
static void check_play(const mc_game *g, const mc_solved *s, int max)
{
    int played = 0, long_ones = 0;
    for (int k = 0; k < 30; k++) {
        mc_pos p;
        random_gore(8, max, &p);
        int v, d;
        CHECK(mc_solved_probe(s, &p, &v, &d) == 1);
        mc_session *se = mc_session_new(g, &p);
        int plies = 0, settled = -1, me = p.side;
        while (!mc_session_over(se) && plies < 2000) {
            const mc_pos *c = mc_session_pos(se);
            int cv, cd;
            mc_move m;
            CHECK(mc_solved_probe(s, c, &cv, &cd) == 1);
            if (settled < 0 && cd == 0)
                settled = plies;
            if (!mc_solved_best(s, c, &m, NULL, NULL))
                break;
            mc_error err;
            CHECK(mc_session_play(se, m, NULL, &err) == 0);
            plies++;
        }
        if (settled < 0)
            settled = plies;
        mc_result r;
        mc_session_result(se, &r);
        CHECK(r.over);
        int got = (r.score2[me] - r.score2[1 - me]) / 2;
        CHECK_MSG(got == v, "value %d, played %d (%s)", v, got, r.detail);
        CHECK_MSG(settled == d, "settled in %d plies, tables say %d", settled,
                  d);
        long_ones += d > 4;
        played++;
        mc_session_free(se);
    }
    printf("perfect play: %d games end as the tables say\n", played);
    CHECK(long_ones > 0);
}

/* The exact search of the session's position, to depth plies or half a
   second: 1 when it proves a winner, which must be the one the tables'
   value v says; 0 when it proves nothing. */
static int search_agrees(const mc_session *se, int v, int depth)
{
    mc_solve_info info;
    memset(&info, 0, sizeof info);
    mc_solve(se, depth, 0.5, &info);
    if (!info.proven)
        return 0;
    int side = mc_session_pos(se)->side;
    int want = v > 0 ? side : v < 0 ? 1 - side : MC_DRAW;
    CHECK_MSG(info.winner == want, "value %d, search says %d", v, info.winner);
    return 1;
}

/* Random positions against the exact search: where it proves a winner,
   the sign of the tables' value agrees. */
static void check_search(const mc_game *g, const mc_solved *s, int max)
{
    int proven = 0, tried = 0;
    for (int k = 0; k < 40; k++) {
        mc_pos p;
        random_gore(6, max, &p);
        mc_result r;
        mc_hist hist;
        memset(&hist, 0, sizeof hist);
        hist.occurrences = 1;
        mc_status(g, &p, &hist, &r);
        if (r.over)
            continue;
        int v = probe(s, &p);
        mc_session *se = mc_session_new(g, &p);
        tried++;
        proven += search_agrees(se, v, 40);
        mc_session_free(se);
    }
    printf("exact search: %d of %d random positions proven, all agree\n",
           proven, tried);
    CHECK(proven >= tried / 4);
}

/* Sadeqa II (won by survival): random boards of 6-10 seeds, both first
   moves made: the exact search agrees where it proves a winner, and
   perfect play by both sides ends the game with the promised winner in
   exactly the promised plies. */
static void check_sadeqa(const mc_game *g, const mc_solved *s, int max)
{
    int proven = 0, played = 0, draws = 0;
    for (int k = 0; k < 30; k++) {
        mc_pos p;
        memset(&p, 0, sizeof p);
        int n = 6 + (int)rnd((unsigned)(max - 5));
        for (int i = 0; i < n; i++)
            p.pit[rnd(12)]++;
        p.side = (uint8_t)rnd(2);
        int v, d;
        CHECK(mc_solved_probe(s, &p, &v, &d) == 1);
        mc_session *se = mc_session_new(g, &p);
        proven += search_agrees(se, v, 60);
        int plies = 0;
        while (!mc_session_over(se) && plies < 400) {
            mc_move m;
            if (!mc_solved_best(s, mc_session_pos(se), &m, NULL, NULL))
                break;
            mc_error err;
            CHECK(mc_session_play(se, m, NULL, &err) == 0);
            plies++;
        }
        mc_result r;
        mc_session_result(se, &r);
        CHECK(r.over);
        if (v == 0) {
            draws++;
            CHECK(r.winner == MC_DRAW);
        } else {
            CHECK(r.winner == (v > 0 ? p.side : 1 - p.side));
            CHECK_MSG(plies == d, "won in %d plies, tables say %d", plies, d);
        }
        played++;
        mc_session_free(se);
    }
    printf("sadeqa2: %d of 30 proven by search, all agree; %d games of "
           "perfect play end as the tables say\n",
           proven, played);
    CHECK(proven >= 10);
    /* A first move to make (North's, after South's move): no board, so
       its value comes from the moves (S2 may bind them), here two plies
       down to the boards, worked out by hand. */
    mc_pos p;
    mc_error err = {0};
    CHECK(mc_pos_parse(g, "3,0,0,0,0,1/0,0,0,0,2,0 S first=N", &p, &err) == 0);
    mc_hist hist;
    memset(&hist, 0, sizeof hist);
    hist.occurrences = 1;
    mc_move m1[MC_MAX_MOVES], m2[MC_MAX_MOVES];
    int n1 = mc_moves(g, &p, m1), best = -2, known = 1;
    for (int i = 0; i < n1; i++) {
        mc_pos q = p;
        mc_play(g, &q, m1[i], NULL);
        mc_result r;
        mc_status(g, &q, &hist, &r);
        int vq = -2; /* q's value for North */
        if (r.over) {
            vq = r.winner == MC_DRAW ? 0 : r.winner == MC_NORTH ? 1 : -1;
        } else {
            int n2 = mc_moves(g, &q, m2);
            for (int j = 0; j < n2; j++) {
                mc_pos u = q;
                mc_play(g, &u, m2[j], NULL);
                mc_status(g, &u, &hist, &r);
                int vu;
                if (r.over)
                    vu = r.winner == MC_DRAW    ? 0
                         : r.winner == MC_SOUTH ? 1
                                                : -1;
                else if (!mc_solved_probe(s, &u, &vu, NULL))
                    known = 0;
                if (-vu > vq)
                    vq = -vu;
            }
        }
        if (-vq > best)
            best = -vq;
    }
    int vp = -9;
    CHECK(known);
    CHECK(mc_solved_probe(s, &p, &vp, NULL) == 1);
    CHECK(vp == best);
    (void)draws;
}

static void copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    int c;
    while (a && b && (c = getc(a)) != EOF)
        putc(c, b);
    if (a)
        fclose(a);
    if (b)
        fclose(b);
}

static int mkdir_p_ok(const char *d)
{
    mc_error err = {0};
    return mc_egdb_ensure_dir(d, &err) == 0;
}

static void check_files(const mc_game *g, const char *dir, int max)
{
    mc_error err = {0};
    char path[4096], bad[4096], tmp[4200];
    /* A damaged entry: refused, the file named. */
    snprintf(bad, sizeof bad, "%s/bad", tmpdir);
    CHECK(mkdir_p_ok(bad));
    for (int n = 0; n <= max; n++) {
        mc_solved_path(g, dir, n, path, sizeof path);
        mc_solved_path(g, bad, n, tmp, sizeof tmp);
        copy_file(path, tmp);
    }
    mc_solved_path(g, bad, 5, tmp, sizeof tmp);
    FILE *f = fopen(tmp, "r+b");
    CHECK(f != NULL);
    if (f) {
        fseek(f, 4096 + 100, SEEK_SET);
        int c = getc(f);
        fseek(f, 4096 + 100, SEEK_SET);
        putc(c ^ 1, f);
        fclose(f);
    }
    mc_solved *s = mc_solved_open(g, bad, -1, &err);
    CHECK(s == NULL);
    CHECK(strstr(err.msg, "checksum") != NULL);
    CHECK(strstr(err.msg, "-05.egdb") != NULL);
    /* A layer in another's place: refused. */
    mc_solved_path(g, dir, 5, path, sizeof path);
    copy_file(path, tmp);
    mc_solved_path(g, bad, 6, tmp, sizeof tmp);
    copy_file(path, tmp);
    s = mc_solved_open(g, bad, -1, &err);
    CHECK(s == NULL);
    /* Truncated: refused. */
    mc_solved_path(g, dir, 6, path, sizeof path);
    copy_file(path, tmp);
    CHECK(truncate(tmp, 4096 + 10) == 0);
    s = mc_solved_open(g, bad, -1, &err);
    CHECK(s == NULL);
    CHECK(strstr(err.msg, "truncated") != NULL);
    /* The other rules' tables (skip_origin=on) do not read these. */
    mc_game *g2 = mc_game_new("gore:trades=off,skip_origin=on", &err);
    CHECK(g2 != NULL);
    mc_solved_path(g2, bad, 0, tmp, sizeof tmp);
    mc_solved_path(g, dir, 0, path, sizeof path);
    copy_file(path, tmp);
    s = mc_solved_open(g2, bad, 0, &err);
    CHECK(s == NULL);
    CHECK_MSG(strstr(err.msg, "not of gore notrades-skip") != NULL, "%s",
              err.msg);
    mc_game_free(g2);
}

/* ---- start layers --------------------------------------------------- */

/* A set of boards (pack's keys) grown by hand: sorted at the end. */
typedef struct kset {
    uint64_t *k;
    size_t n, cap;
} kset;

static void kset_add(kset *s, uint64_t key)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->k = realloc(s->k, s->cap * sizeof *s->k);
    }
    s->k[s->n++] = key;
}

/* Every board (Sadeqa II, the mover's frame) with more than lo seeds that
   play reaches from the positions of roots, by a search of its own: the
   moves played through the public API, duplicates removed by sorting. */
static void reach_by_hand(const mc_game *g, const mc_pos *roots, int nroots,
                          int lo, kset *out)
{
    vi fr = {.k = 12};
    kset todo = {0}, seen = {0};
    /* An open-addressed table of the keys seen (key + 1; 0: empty). */
    size_t cap = (size_t)1 << 22;
    uint64_t *tab = calloc(cap, sizeof *tab);
    mc_hist hist;
    memset(&hist, 0, sizeof hist);
    hist.occurrences = 1;
    for (int i = 0; i < nroots; i++) {
        uint8_t h[12];
        board_of(&fr, &roots[i], h);
        kset_add(&todo, pack(h, 12));
    }
    while (todo.n) {
        uint64_t key = todo.k[--todo.n];
        int c = 0;
        for (int j = 0; j < 12; j++)
            c += (int)(key >> (5 * j) & 31);
        if (c <= lo)
            continue;
        size_t at = (size_t)(key * 0x9e3779b97f4a7c15ull >> 40) & (cap - 1);
        while (tab[at] && tab[at] != key + 1)
            at = (at + 1) & (cap - 1);
        if (tab[at])
            continue;
        tab[at] = key + 1;
        kset_add(&seen, key);
        CHECK(seen.n < cap / 2);
        vi one = {.k = 12, .nb = 1, .key = &key};
        mc_pos p;
        vi_pos(&one, 0, &p);
        mc_result r;
        mc_status(g, &p, &hist, &r);
        if (r.over)
            continue;
        mc_move mv[MC_MAX_MOVES];
        int nm = mc_moves(g, &p, mv);
        for (int m = 0; m < nm; m++) {
            mc_pos q = p;
            mc_play(g, &q, mv[m], NULL);
            mc_status(g, &q, &hist, &r);
            if (r.over)
                continue;
            uint8_t h[12];
            board_of(&fr, &q, h);
            kset_add(&todo, pack(h, 12));
        }
    }
    free(todo.k);
    free(tab);
    *out = seen;
}

/* Start layers from a few random boards of top seeds over the complete
   layers 0..lo, against the complete layers 0..top in full (built
   before): the same boards as a search by hand, the same values and
   plies, checked, resumed, and refused when damaged. */
static void check_start_layers(const mc_game *g, const char *full, int lo,
                               int top)
{
    mc_error err = {0};
    char dir[512];
    snprintf(dir, sizeof dir, "%s/start", tmpdir);
    CHECK(mc_egdb_ensure_dir(dir, &err) == 0);
    mc_pos roots[3];
    for (int i = 0; i < 3; i++) {
        memset(&roots[i], 0, sizeof roots[i]);
        for (int c = 0; c < top; c++)
            roots[i].pit[rnd(12)]++;
        roots[i].side = MC_SOUTH;
    }
    mc_solved_build_opts o;
    memset(&o, 0, sizeof o);
    o.dir = dir;
    o.max_seeds = lo;
    o.threads = 2;
    CHECK(mc_solved_build_from(g, roots, 3, &o, &err) == 0);
    mc_solved *a = mc_solved_open(g, full, -1, &err);
    mc_solved *b = mc_solved_open(g, dir, -1, &err);
    CHECK(a && b);
    if (!a || !b)
        return;
    CHECK(mc_solved_full_seeds(b) == lo);
    CHECK(mc_solved_seeds(b) == top);
    CHECK(mc_solved_full_seeds(a) == mc_solved_seeds(a));
    CHECK(mc_solved_verify(b, 0, top, 2, NULL, NULL) == 0);
    /* The same boards as the search by hand. */
    kset want;
    reach_by_hand(g, roots, 3, lo, &want);
    uint64_t entries = 0;
    for (int n = lo + 1; n <= top; n++)
        entries += mc_solved_layer_info(b, n)->entries;
    CHECK(entries == want.n);
    CHECK(want.n > 1000);
    qsort(want.k, want.n, sizeof *want.k, cmp_u64);
    vi wv = {.k = 12, .nb = (int)want.n, .key = want.k};
    size_t same = 0, found = 0;
    for (int n = lo + 1; n <= top; n++) {
        const mc_egdb_info *in = mc_solved_layer_info(b, n);
        for (uint64_t x = 0; x < in->entries; x++) {
            uint8_t h[12];
            int v, d, va = -9, da = -9, vb = -9, db = -9;
            CHECK(mc_solved_entry(b, n, x, h, &v, &d) == 1);
            found += find(&wv, pack(h, 12)) >= 0;
            mc_pos p;
            mc_solved_position(b, h, &p);
            mc_solved_probe(a, &p, &va, &da);
            mc_solved_probe(b, &p, &vb, &db);
            same += v == va && d == da && v == vb && d == db;
        }
        CHECK(mc_solved_entry(b, n, in->entries, NULL, NULL, NULL) == 0);
    }
    CHECK(found == want.n);
    CHECK(same == want.n);
    printf("start layers: %zu boards of %d-%d seeds reached from 3 boards, "
           "the same as a search by hand, %zu valued as the complete "
           "layers\n",
           want.n, lo + 1, top, same);
    /* A board of the layers that no root reaches: not in b. */
    size_t missing = 0;
    for (int t = 0; t < 200; t++) {
        uint8_t h[12] = {0};
        for (int c = 0; c < top; c++)
            h[rnd(12)]++;
        mc_pos p;
        mc_solved_position(b, h, &p);
        int in_b = mc_solved_probe(b, &p, NULL, NULL);
        CHECK(in_b == (find(&wv, pack(h, 12)) >= 0));
        missing += !in_b;
    }
    CHECK(missing > 0);
    uint64_t sum = mc_solved_layer_info(b, top)->payload_sum;
    mc_solved_close(b);
    mc_solved_close(a);
    free(want.k);

    /* Resumed: the top start layer removed and built again, the same. */
    char path[4096];
    snprintf(path, sizeof path, "%s/sadeqa2-plain-start-%02d.egdb", dir, top);
    CHECK(remove(path) == 0);
    memset(&o, 0, sizeof o);
    o.dir = dir;
    o.max_seeds = lo;
    o.threads = 1;
    CHECK(mc_solved_build_from(g, roots, 3, &o, &err) == 0);
    CHECK(o.first_built == top);
    b = mc_solved_open(g, dir, -1, &err);
    CHECK(b && mc_solved_layer_info(b, top)->payload_sum == sum);
    mc_solved_close(b);
    /* A damaged start layer is refused. */
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (f) {
        fseek(f, -5, SEEK_END);
        int c = fgetc(f);
        fseek(f, -5, SEEK_END);
        fputc(c ^ 0x10, f);
        fclose(f);
    }
    b = mc_solved_open(g, dir, -1, &err);
    CHECK(b == NULL);
    CHECK(strstr(err.msg, "checksum") != NULL);
    mc_solved_close(b);
}

int main(int argc, char **argv)
{
    /* "threads": the builder's threaded parts only (make tsan). */
    int quick = argc > 1 && strcmp(argv[1], "threads") == 0;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/mc-solved-XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    mc_error err = {0};
    /* Which games can be solved. */
    mc_game *on = mc_game_new("gore", &err);
    char name[32];
    CHECK(mc_solved_name(on, name, sizeof name, &err) == MC_ERR_SPEC);
    CHECK(strstr(err.msg, "trades") != NULL);
    mc_game_free(on);
    mc_game *own = mc_game_new("gore:trades=off,repetition=owner", &err);
    CHECK(mc_solved_name(own, name, sizeof name, &err) == MC_ERR_SPEC);
    mc_game_free(own);
    mc_game *ow = mc_game_new("oware", &err);
    CHECK(mc_solved_name(ow, name, sizeof name, &err) == MC_ERR_SPEC);
    mc_game_free(ow);

    mc_game *g = mc_game_new("gore:trades=off", &err);
    CHECK(g != NULL);
    CHECK(mc_solved_name(g, name, sizeof name, &err) == 0);
    CHECK_STR(name, "notrades");
    CHECK(mc_solved_layer_size(g, 48) == 202927725ull); /* C(55, 7) */
    const int max = quick ? 12 : 16;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/gore", tmpdir);
    CHECK(mc_egdb_ensure_dir(dir, &err) == 0);
    mc_solved_build_opts o;
    memset(&o, 0, sizeof o);
    o.dir = dir;
    o.max_seeds = max;
    o.threads = 2;
    CHECK(mc_solved_build(g, &o, &err) == 0);
    CHECK(o.first_built == 0);
    mc_solved *s = mc_solved_open(g, dir, -1, &err);
    CHECK(s != NULL);
    if (!s)
        return check_report("test_solved");
    CHECK(mc_solved_seeds(s) == max);
    CHECK(mc_solved_verify(s, 0, max, 2, NULL, NULL) == 0);
    check_by_hand(g, s);
    if (!quick) {
        check_value_iteration(g, s, 8, 0, 13, 1);
        check_search(g, s, max);
        check_play(g, s, max);
    }
    /* Beyond the layers built: not in the tables. */
    mc_pos p;
    CHECK(gore_pos(g, "3,3,3,3/3,3,3,0", 0, 27, 0, &p) == 0);
    CHECK(mc_solved_probe(s, &p, NULL, NULL) == 0);
    uint64_t sum12 = mc_solved_layer_info(s, 12)->payload_sum;
    mc_solved_close(s);

    /* Resuming: layers 12 and up removed, built again, the same. */
    for (int n = 12; n <= max; n++) {
        char path[4096];
        mc_solved_path(g, dir, n, path, sizeof path);
        CHECK(remove(path) == 0);
    }
    memset(&o, 0, sizeof o);
    o.dir = dir;
    o.max_seeds = max;
    o.threads = 1;
    CHECK(mc_solved_build(g, &o, &err) == 0);
    CHECK(o.first_built == 12);
    s = mc_solved_open(g, dir, max, &err);
    CHECK(s && mc_solved_layer_info(s, 12)->payload_sum == sum12);
    mc_solved_close(s);
    check_files(g, dir, max);
    mc_game_free(g);

    /* Sadeqa II: layers 0-10. */
    g = mc_game_new("sadeqa2", &err);
    CHECK(g && mc_solved_name(g, name, sizeof name, &err) == 0);
    CHECK_STR(name, "plain");
    mc_game *g2 = mc_game_new("sadeqa2:repetition=more_seeds", &err);
    CHECK(mc_solved_name(g2, name, sizeof name, &err) == MC_ERR_SPEC);
    mc_game_free(g2);
    snprintf(dir, sizeof dir, "%s/sadeqa2", tmpdir);
    CHECK(mc_egdb_ensure_dir(dir, &err) == 0);
    memset(&o, 0, sizeof o);
    o.dir = dir;
    o.max_seeds = quick ? 8 : 10;
    o.threads = 2;
    CHECK(mc_solved_build(g, &o, &err) == 0);
    s = mc_solved_open(g, dir, -1, &err);
    CHECK(s != NULL);
    if (s) {
        CHECK(mc_solved_verify(s, 0, o.max_seeds, 2, NULL, NULL) == 0);
        if (!quick) {
            check_value_iteration(g, s, 12, 1, 7, 0);
            check_sadeqa(g, s, 10);
            /* mc_solve takes the tables of the default places as exact
               leaves: the same winner, and a board of 10 seeds proven
               at once. */
            mc_pos p10;
            CHECK(mc_pos_parse(g, "2,1,0,1,0,2/0,1,0,2,0,1 S first=-", &p10,
                               &err) == 0);
            mc_session *se = mc_session_new(g, &p10);
            mc_solve_info a, b;
            setenv("MANCALA_EGDB_DIR", "none", 1);
            mc_solve(se, 60, 5, &a);
            setenv("MANCALA_EGDB_DIR", dir, 1);
            mc_solve(se, 60, 5, &b);
            setenv("MANCALA_EGDB_DIR", "none", 1);
            int v = 0;
            CHECK(mc_solved_probe(s, &p10, &v, NULL) == 1);
            CHECK(b.proven && b.depth <= 2);
            CHECK(b.winner == (v > 0 ? MC_SOUTH : MC_NORTH));
            CHECK(!a.proven || a.winner == b.winner);
            CHECK(b.nodes < a.nodes || !a.proven);
            mc_session_free(se);
        }
        check_start_layers(g, dir, 5, o.max_seeds);
        mc_solved_close(s);
    }
    mc_game_free(g);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    CHECK(system(cmd) == 0);
    return check_report("test_solved");
}
