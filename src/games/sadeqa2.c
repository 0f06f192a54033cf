/*
 * sadeqa2.c - Sadeqa II (rules/sadeqa2.md, S1-S8) with every option.
 *
 * Holes 0..5 are South's (A..F), 6..11 North's (a..f); a move is the index
 * of the hole emptied.  A move is a relay of laps that may never end (S5):
 * every candidate move is sown to its end during move generation, with
 * Brent's cycle detection on lap-start states (exact, constant memory, no lap
 * cap) and whole laps added arithmetically from a per-game table, so a lap
 * costs the same whatever the size of the hand.  Outcomes are cached per
 * position in g->data (a seqlock per entry keeps concurrent readers safe).
 * History rules (S8) are decided from the mc_hist the session passes in.
 * Nothing here prints, allocates per move or loops without bound.
 */
#include <stdio.h>
#include <assert.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "game.h"

enum { OPT_FIRST_RULE, OPT_SKIP_ORIGIN, OPT_STUCK, OPT_REPETITION, OPT_FIRST };
enum { FR_BOTH, FR_STARTER, FR_NONE };

static const char *const v_first_rule[] = {"both", "starter", "none", NULL};
static const char *const v_skip_origin[] = {"off", "on", NULL};
static const char *const v_stuck[] = {"loss", "draw", NULL};
static const char *const v_repetition[] = {"draw", "more_seeds", NULL};
static const char *const v_first[] = {"south", "north", NULL};

static const mc_optdef sq_opts[] = {
    {"first_rule", v_first_rule, 0, 0, 0,
     N_("S2: whose first move must be from the rightmost hole")},
    {"skip_origin", v_skip_origin, 0, 0, 0,
     N_("S3: skip, in each lap, the hole that lap was lifted from")},
    {"stuck", v_stuck, 0, 0, 0,
     N_("S7: a player whose every move never ends loses, or draws")},
    {"repetition", v_repetition, 0, 0, 0,
     N_("S8: third repetition / 300th ply is a draw, or won on seeds")},
    {"first", v_first, 0, 0, 0, N_("S1: who moves first")},
    {NULL, NULL, 0, 0, 0, NULL},
};

#define NH 12
/* Most seeds a board may hold (S1: 3 in each of 12 holes; never more). */
#define MAXS 36
/* S8 */
#define PLY_LIMIT 300
#define REPEATS 3

static const char *const letters[NH] = {"A", "B", "C", "D", "E", "F",
                                        "a", "b", "c", "d", "e", "f"};

/* ---- boards as two words: holes 0..7 in w[0], 8..11 in w[1] ------------ */

/* No byte can carry into the next: a hole holds at most MAXS < 256. */
static inline int hole(const uint64_t *w, int i)
{
    return (int)((w[i >> 3] >> ((i & 7) * 8)) & 0xff);
}

/* Byte i of the words is hole i: on a little-endian machine that is the
   memory layout of pit[], so a copy does. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SQ_LITTLE_ENDIAN 1
#else
#define SQ_LITTLE_ENDIAN 0
#endif

static inline void board_load(const uint8_t *pit, uint64_t *w)
{
    if (SQ_LITTLE_ENDIAN) {
        uint32_t hi;
        memcpy(&w[0], pit, 8);
        memcpy(&hi, pit + 8, 4);
        w[1] = hi;
        return;
    }
    w[0] = w[1] = 0;
    for (int i = 0; i < NH; i++)
        w[i >> 3] |= (uint64_t)pit[i] << ((i & 7) * 8);
}

static inline void board_store(const uint64_t *w, uint8_t *pit)
{
    if (SQ_LITTLE_ENDIAN) {
        uint32_t hi = (uint32_t)w[1];
        memcpy(pit, &w[0], 8);
        memcpy(pit + 8, &hi, 4);
        return;
    }
    for (int i = 0; i < NH; i++)
        pit[i] = (uint8_t)hole(w, i);
}

/* ---- per-game data: lap tables and the outcome cache -------------------- */

/*
 * One cache entry: the outcomes of the six moves of one side on one board.
 * out[k][0..1] is the board after move k (capture done); out[k][1] also
 * carries in bits 32.. the verdict (OC_*), the end hole and the seeds
 * removed.  Entries are guarded by a seqlock (seq odd while written) so that
 * a game may be shared by threads; every field is an atomic so there is no
 * data race, and on common hardware relaxed atomics are plain loads.
 */
enum { OC_EMPTY = 0, OC_ENDS = 1, OC_NEVER = 2 };
#define CACHE_BITS 12
#define CACHE_SIZE (1u << CACHE_BITS)

typedef struct centry {
    _Atomic uint64_t seq;
    _Atomic uint64_t key[2];
    _Atomic uint64_t out[6][2];
} centry;

/*
 * A lap of n seeds lifted from hole o, as one addition per word: d[] is the
 * seeds it drops minus the n it lifts (modular arithmetic gives the exact
 * board since the origin holds exactly n and no hole goes out of 0..255).
 */
typedef struct lapent {
    uint64_t d[2];
    uint64_t end; /* the hole the lap's last seed falls in */
    uint64_t pad;
} lapent;

typedef struct sq_data {
    lapent lap[NH][MAXS + 1];
    centry cache[CACHE_SIZE];
} sq_data;

static int sq_init(mc_game *g, mc_error *err)
{
    sq_data *d = calloc(1, sizeof *d);
    if (!d)
        return mc_err(err, MC_ERR_NOMEM, _("sadeqa2: out of memory"));
    int skip = g->opt[OPT_SKIP_ORIGIN];
    int ring = skip ? NH - 1 : NH; /* holes a full lap feeds */
    for (int o = 0; o < NH; o++)
        for (int n = 1; n <= MAXS; n++) {
            uint8_t b[NH] = {0};
            uint64_t add[2], lift[2];
            int q = n / ring, r = n % ring;
            for (int j = 0; j < NH; j++)
                b[j] = (uint8_t)q;
            if (skip)
                b[o] = 0;
            /* The rest follow the origin in order; r < ring, so with
               skipping they never reach the origin again. */
            for (int k = 1; k <= r; k++)
                b[(o + k) % NH]++;
            board_load(b, add);
            memset(b, 0, sizeof b);
            b[o] = (uint8_t)n;
            board_load(b, lift);
            lapent *l = &d->lap[o][n];
            l->d[0] = add[0] - lift[0];
            l->d[1] = add[1] - lift[1];
            l->end =
                (uint64_t)(skip ? (o + (n - 1) % ring + 1) % NH : (o + n) % NH);
        }
    g->data = d;
    return 0;
}

static void sq_fini(mc_game *g)
{
    free(g->data);
    g->data = NULL;
}

/* The seeds in hole i of the board (w0, w1). */
static inline int hole2(uint64_t w0, uint64_t w1, int i)
{
    return (int)(((i < 8 ? w0 : w1) >> ((i & 7) * 8)) & 0xff);
}

/* The seeds of board (w0, w1): its bytes summed by one multiplication
   each (the sum, at most MAXS, never carries out of the top byte). */
static inline int board_seeds(const uint64_t *w)
{
    return (int)(((w[0] * 0x0101010101010101ull) >> 56) +
                 ((w[1] * 0x0101010101010101ull) >> 56));
}

/* One lap from hole o (S3): lift, sow, return the last hole. */
static inline int lap2(const sq_data *d, uint64_t *w0, uint64_t *w1, int o)
{
    const lapent *l = &d->lap[o][hole2(*w0, *w1, o)];
    *w0 += l->d[0];
    *w1 += l->d[1];
    return (int)l->end;
}

static inline int lap(const sq_data *d, uint64_t *w, int o)
{
    return lap2(d, &w[0], &w[1], o);
}

/*
 * Sow hole o of board w to the end of its relay (S3, S4).  Returns the hole
 * the move ends in, with w the board before any capture, or -1 when a
 * lap-start state (board, origin; the hand is the origin's content) recurs:
 * the move never ends (S5).  Brent's algorithm: the tortoise waits at lap
 * 2^k while the hare runs up to 2^k laps past it, so a cycle of any length is
 * found within a few times (tail + cycle) laps, in constant memory.
 */
static int relay(const sq_data *d, uint64_t *w, int o)
{
    mc_hot_assert(o >= 0 && o < NH && hole(w, o) > 0);
    uint64_t w0 = w[0], w1 = w[1];
    uint64_t t0 = w0, t1 = w1, power = 1, lam = 1;
    int to = o;
    for (;;) {
        int e = lap2(d, &w0, &w1, o);
        if (hole2(w0, w1, e) <= 1) {
            w[0] = w0;
            w[1] = w1;
            return e;
        }
        o = e;
        if (w0 == t0 && w1 == t1 && o == to)
            return -1;
        if (power == lam) {
            t0 = w0;
            t1 = w1;
            to = o;
            power <<= 1;
            lam = 0;
        }
        lam++;
    }
}

static inline int same(const uint64_t *a, int ao, const uint64_t *b, int bo)
{
    return a[0] == b[0] && a[1] == b[1] && ao == bo;
}

/* For a never-ending relay from (w0, o0): the first lap-start state that
   recurs is the one after `*first` laps, and it recurs after `*again` laps.
   Brent's two phases; used only to explain an illegal move. */
static void cycle_info(const sq_data *d, const uint64_t *w0, int o0,
                       uint64_t *first, uint64_t *again)
{
    uint64_t t[2] = {w0[0], w0[1]}, h[2] = {w0[0], w0[1]};
    uint64_t power = 1, lam = 1, mu = 0;
    int to = o0, ho = lap(d, h, o0);
    while (!same(h, ho, t, to)) {
        if (power == lam) {
            t[0] = h[0];
            t[1] = h[1];
            to = ho;
            power <<= 1;
            lam = 0;
        }
        ho = lap(d, h, ho);
        lam++;
    }
    /* A hare lam laps ahead meets the tortoise where the cycle starts. */
    t[0] = h[0] = w0[0];
    t[1] = h[1] = w0[1];
    to = ho = o0;
    for (uint64_t k = 0; k < lam; k++)
        ho = lap(d, h, ho);
    while (!same(h, ho, t, to)) {
        to = lap(d, t, to);
        ho = lap(d, h, ho);
        mu++;
    }
    *first = mu;
    *again = mu + lam;
}

/* The outcome of sowing hole o for `side` from board w (S3-S6): OC_* in
   bits 32..39, end hole in 40..47, seeds removed in 48..55, over out[1]. */
static void outcome(const sq_data *d, const uint64_t *w, int o, uint64_t *out)
{
    if (hole(w, o) == 0) {
        out[0] = w[0];
        out[1] = w[1] | (uint64_t)OC_EMPTY << 32;
        return;
    }
    uint64_t b[2] = {w[0], w[1]};
    int e = relay(d, b, o);
    if (e < 0) {
        out[0] = w[0];
        out[1] = w[1] | (uint64_t)OC_NEVER << 32;
        return;
    }
    /* S4: the move ends where the last seed fell into an empty hole; the
       laps moved seeds, never lost one. */
    mc_hot_assert(e < NH && hole(b, e) == 1);
    mc_hot_assert(board_seeds(b) == board_seeds(w));
    /* S6: the seeds facing the last hole leave the game. */
    int f = NH - 1 - e, c = hole(b, f);
    b[f >> 3] &= ~(0xffull << ((f & 7) * 8));
    mc_hot_assert(board_seeds(b) == board_seeds(w) - c);
    out[0] = b[0];
    out[1] =
        b[1] | (uint64_t)OC_ENDS << 32 | (uint64_t)e << 40 | (uint64_t)c << 48;
}

static inline uint32_t cache_index(uint64_t k0, uint64_t k1)
{
    uint64_t h = k0 * 0x9e3779b97f4a7c15ull ^
                 (k1 + 0x632be59bd9b4e019ull) * 0xd6e8feb86659fd93ull;
    return (uint32_t)(h >> (64 - CACHE_BITS));
}

/* The outcomes of the six holes of `side` on board w: from the cache, or
   sown now and stored. */
static void outcomes(const mc_game *g, const uint64_t *w, int side,
                     uint64_t out[6][2])
{
    sq_data *d = g->data;
    uint64_t k0 = w[0], k1 = w[1] | (uint64_t)side << 63;
    centry *ce = &d->cache[cache_index(k0, k1)];
    uint64_t s1 = atomic_load_explicit(&ce->seq, memory_order_acquire);
    if (!(s1 & 1) &&
        atomic_load_explicit(&ce->key[0], memory_order_relaxed) == k0 &&
        atomic_load_explicit(&ce->key[1], memory_order_relaxed) == k1) {
        for (int k = 0; k < 6; k++) {
            out[k][0] =
                atomic_load_explicit(&ce->out[k][0], memory_order_relaxed);
            out[k][1] =
                atomic_load_explicit(&ce->out[k][1], memory_order_relaxed);
        }
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&ce->seq, memory_order_relaxed) == s1)
            return;
    }
    /* The lap table stops at MAXS seeds; parsed and played positions
       never exceed it. */
    assert(board_seeds(w) <= MAXS);
    for (int k = 0; k < 6; k++)
        outcome(d, w, 6 * side + k, out[k]);
    /* Store unless another thread is writing this entry right now. */
    uint64_t s = atomic_load_explicit(&ce->seq, memory_order_relaxed);
    if ((s & 1) ||
        !atomic_compare_exchange_strong_explicit(
            &ce->seq, &s, s + 1, memory_order_relaxed, memory_order_relaxed))
        return;
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&ce->key[0], k0, memory_order_relaxed);
    atomic_store_explicit(&ce->key[1], k1, memory_order_relaxed);
    for (int k = 0; k < 6; k++) {
        atomic_store_explicit(&ce->out[k][0], out[k][0], memory_order_relaxed);
        atomic_store_explicit(&ce->out[k][1], out[k][1], memory_order_relaxed);
    }
    atomic_store_explicit(&ce->seq, s + 2, memory_order_release);
}

static inline int oc_kind(const uint64_t *o)
{
    return (int)(o[1] >> 32 & 0xff);
}
static inline int oc_removed(const uint64_t *o)
{
    return (int)(o[1] >> 48 & 0xff);
}

/* ---- rules -------------------------------------------------------------- */

static void sq_start(const mc_game *g, mc_pos *p)
{
    for (int i = 0; i < NH; i++)
        p->pit[i] = 3;
    p->side = g->opt[OPT_FIRST] == 1 ? MC_NORTH : MC_SOUTH;
    p->first = 3;
}

static int row_sum(const uint8_t *h, int side)
{
    const uint8_t *r = h + 6 * side;
    return r[0] + r[1] + r[2] + r[3] + r[4] + r[5];
}

/*
 * Does S2's first-move restriction bind the side to move?  Under `starter`
 * it binds only the player who opens the game: the side to move when
 * neither player has moved yet (both `first` bits set), so the legal moves
 * depend on the position string and the rules, not on who the `first`
 * option names.
 */
static int restricted(const mc_game *g, const mc_pos *p)
{
    if (!(p->first >> p->side & 1))
        return 0;
    switch (g->opt[OPT_FIRST_RULE]) {
    case FR_BOTH:
        return 1;
    case FR_STARTER:
        return p->first == 3;
    default:
        return 0;
    }
}

/* Legal moves (S2) from the outcomes of the side's six holes. */
static int legal_from(const mc_game *g, const mc_pos *p, uint64_t oc[6][2],
                      mc_move *out)
{
    int base = 6 * p->side, n = 0;
    if (restricted(g, p) && oc_kind(oc[5]) == OC_ENDS) {
        out[0] = (mc_move)(base + 5);
        return 1;
    }
    /* Otherwise (or when the restriction lapses) every hole that ends. */
    for (int k = 0; k < 6; k++)
        if (oc_kind(oc[k]) == OC_ENDS)
            out[n++] = (mc_move)(base + k);
    mc_hot_assert(n <= 6);
    return n;
}

static int sq_moves(const mc_game *g, const mc_pos *p, mc_move *out)
{
    uint64_t w[2], oc[6][2];
    board_load(p->pit, w);
    outcomes(g, w, p->side, oc);
    return legal_from(g, p, oc, out);
}

/* Replay a move seed by seed for the trace; it is known to end.  Every lap
   lifts (MC_TR_LIFT); each relay lap, the second onwards, is announced by
   MC_TR_LAP (pit: its origin, n: the seeds it lifts). */
static int traced_sowing(const mc_game *g, uint8_t *h, int o, mc_trace *t)
{
    int skip = g->opt[OPT_SKIP_ORIGIN];
    for (int lapno = 0;; lapno++) {
        int n = h[o];
        if (lapno)
            mc_trace_add(t, MC_TR_LAP, o, (uint32_t)n, 0);
        mc_trace_add(t, MC_TR_LIFT, o, (uint32_t)n, 0);
        h[o] = 0;
        int j = o;
        while (n > 0) {
            if (++j == NH)
                j = 0;
            if (skip && j == o) {
                mc_trace_add(t, MC_TR_SKIP, j, 0, 0);
                continue;
            }
            h[j]++;
            n--;
            mc_trace_add(t, MC_TR_DROP, j, h[j], 0);
        }
        if (h[j] <= 1)
            return j;
        o = j; /* S4: relay */
    }
}

static int sq_play(const mc_game *g, mc_pos *p, mc_move m, mc_trace *t)
{
    int side = p->side, i = (int)m;
    if (i < 6 * side || i >= 6 * side + 6)
        return 0; /* not a move of this side: leave p alone */
    uint64_t w[2], oc[6][2];
    board_load(p->pit, w);
    outcomes(g, w, side, oc);
    const uint64_t *o = oc[i - 6 * side];
    if (oc_kind(o) != OC_ENDS)
        return 0; /* empty or never-ending: not a move; leave p alone */
    int flags = 0;
    int removed = oc_removed(o);
    const int before = row_sum(p->pit, 0) + row_sum(p->pit, 1);
    mc_hot_assert(p->pit[i] > 0); /* S2 */
    if (t) {
        uint8_t h[NH];
        memcpy(h, p->pit, NH);
        int e = traced_sowing(g, h, i, t);
        int f = NH - 1 - e;
        assert(e == (int)(o[1] >> 40 & 0xff) && h[f] == removed);
        mc_trace_add(t, MC_TR_END, e, h[e], side);
        if (h[f])
            mc_trace_add(t, MC_TR_CAPTURE, f, h[f], side);
    }
    board_store(o, p->pit);
    /* Sowing conserves seeds; only the capture (S6) removes any, and the
       last seed stays on the board. */
    mc_hot_assert(row_sum(p->pit, 0) + row_sum(p->pit, 1) == before - removed);
    mc_hot_assert(before - removed >= 1);
    if (removed)
        flags |= MC_PLAY_IRREVERSIBLE | MC_PLAY_RESET_QUIET;
    if (p->first >> side & 1) {
        /* The first move is made, restricted or not (S2); the earlier
           positions all had this bit set, so none can recur. */
        p->first = (uint8_t)(p->first & ~(1u << side));
        flags |= MC_PLAY_IRREVERSIBLE | MC_PLAY_RESET_QUIET;
    }
    p->side = (uint8_t)(1 - side);
    return flags;
}

static void end_game(mc_result *r, const mc_pos *p, int winner, int reason,
                     const char *detail)
{
    r->over = 1;
    r->winner = winner;
    r->reason = reason;
    r->score2[0] = 2 * row_sum(p->pit, 0);
    r->score2[1] = 2 * row_sum(p->pit, 1);
    mc_sb b;
    mc_sb_init(&b, r->detail, sizeof r->detail);
    mc_sb_printf(&b, "%s", detail);
}

/* S8's words (S7's are the generic ones). */
static int sq_result_words(const mc_game *g, const mc_result *r, mc_sb *b)
{
    if (r->reason != MC_END_REPETITION && r->reason != MC_END_PLIES)
        return 0;
    int rep = r->reason == MC_END_REPETITION;
    const char *w;
    if (g->opt[OPT_REPETITION] != 1)
        w = rep ? _("the same position occurred for the third time.")
                : _("the game reached its 300th ply.");
    else if (r->winner == MC_DRAW)
        w = rep ? _("the same position occurred for the third time, and both "
                    "sides hold as many seeds.")
                : _("the game reached its 300th ply, and both sides hold as "
                    "many seeds.");
    else
        w = rep ? _("the same position occurred for the third time, and the "
                    "winner holds more seeds.")
                : _("the game reached its 300th ply, and the winner holds "
                    "more seeds.");
    mc_sb_printf(b, "%s", w);
    return 1;
}

static void sq_status(const mc_game *g, const mc_pos *p, const mc_hist *h,
                      mc_result *r)
{
    int side = p->side;
    mc_move mv[MC_MAX_MOVES];
    /* S7 first. */
    if (sq_moves(g, p, mv) == 0) {
        if (row_sum(p->pit, side) == 0)
            end_game(r, p, 1 - side, MC_END_NOMOVE, "nomove");
        else
            end_game(r, p, g->opt[OPT_STUCK] == 1 ? MC_DRAW : 1 - side,
                     MC_END_STUCK, "stuck");
        return;
    }
    /* S8 */
    int rep = h->occurrences >= REPEATS;
    if (rep || h->plies >= PLY_LIMIT) {
        int winner = MC_DRAW;
        if (g->opt[OPT_REPETITION] == 1) {
            int s = row_sum(p->pit, 0), n = row_sum(p->pit, 1);
            winner = s > n ? MC_SOUTH : n > s ? MC_NORTH : MC_DRAW;
        }
        end_game(r, p, winner, rep ? MC_END_REPETITION : MC_END_PLIES,
                 rep ? "repetition" : "plies");
    }
}

static int sq_total(const mc_game *g, const mc_pos *p)
{
    (void)g;
    return row_sum(p->pit, 0) + row_sum(p->pit, 1);
}

/*
 * The invariants of every position (game.h: pos_ok): 12 holes, the other
 * pits and the fields Sadeqa II does not use zero (positions compare with
 * memcmp; no stores: removed seeds leave the game), `first` two bits, and
 * at most MAXS seeds (S1: 36 at the start; seeds only ever leave the
 * board, S6), the bound of the lap table.
 */
static int sq_pos_ok(const mc_game *g, const mc_pos *p)
{
    assert(p->side == MC_SOUTH || p->side == MC_NORTH);
    for (int i = NH; i < MC_MAX_PITS; i++)
        assert(p->pit[i] == 0);
    assert(p->cap[0] == 0 && p->cap[1] == 0);
    assert(p->first <= 3 && p->own == 0 && p->offer == 0 && p->flags == 0);
    assert(sq_total(g, p) <= MAXS);
    return 1;
}

/* The hash of everything in the position string (holes, side, first bits):
   the board's two words mixed (splitmix64 finalizer), a few instructions
   instead of twelve table look-ups.  Any well-mixed 64-bit hash serves the
   session's repetition scan and search tables. */
static uint64_t sq_hash(const mc_game *g, const mc_pos *p)
{
    (void)g;
    uint64_t w[2];
    board_load(p->pit, w);
    uint64_t x = w[1] | (uint64_t)p->side << 32 | (uint64_t)p->first << 40;
    return mc_mix64(w[0] ^ mc_mix64(x + 0x5ade9a2ull));
}

/* ---- notation ----------------------------------------------------------- */

static const char form[] =
    N_("expected '<A..F>/<a..f> <S|N> first=<SN|S|N|->', e.g. "
       "'3,3,3,3,3,3/3,3,3,3,3,3 S first=SN'");

static int sq_pos_parse(const mc_game *g, const char *s, mc_pos *p,
                        mc_error *err)
{
    (void)g;
    const char *e;
    const mc_head_fmt head = {
        6,
        MAXS,
        {N_("South's holes (field 1)"), N_("North's holes (field 1)")},
        N_("South's 6 holes"),
        "first=<SN|S|N|->",
        form};
    if (mc_parse_head(s, &head, p, &e, err))
        return MC_ERR_POSITION;
    if (strncmp(e, "first=", 6) != 0)
        return mc_err(err, MC_ERR_POSITION,
                      _("field 3: expected 'first=' and the players yet to "
                        "make their first move (SN, S, N or -)"));
    e += 6;
    size_t len = strcspn(e, " ");
    if (len == 2 && strncmp(e, "SN", 2) == 0)
        p->first = 3;
    else if (len == 1 && *e == 'S')
        p->first = 1;
    else if (len == 1 && *e == 'N')
        p->first = 2;
    else if (len == 1 && *e == '-')
        p->first = 0;
    else
        return mc_err(err, MC_ERR_POSITION,
                      _("field 3 (first=): bad value '%.*s' (expected SN, S, "
                        "N or -)"),
                      (int)(len > 20 ? 20 : len), e);
    e += len;
    if (*e)
        return mc_err(err, MC_ERR_POSITION,
                      _("unexpected text after field 3: '%.20s'"), e);
    int total = row_sum(p->pit, 0) + row_sum(p->pit, 1);
    if (total > MAXS)
        return mc_err(err, MC_ERR_POSITION,
                      _("the holes hold %d seeds; at most %d (3 in each hole "
                        "at the start, and seeds are never added)"),
                      total, MAXS);
    if (total == 0)
        return mc_err(err, MC_ERR_POSITION,
                      _("the holes hold no seeds, which no game reaches (every "
                        "move leaves its last seed on the board)"));
    return 0;
}

static size_t sq_pos_format(const mc_game *g, const mc_pos *p, char *buf,
                            size_t n)
{
    (void)g;
    static const char *const first[4] = {"-", "S", "N", "SN"};
    mc_sb b;
    mc_sb_init(&b, buf, n);
    mc_format_head(&b, p, 6);
    mc_sb_printf(&b, " first=%s", first[p->first & 3]);
    return b.len;
}

static size_t list_moves(const mc_move *mv, int n, char *buf, size_t sz)
{
    mc_sb b;
    mc_sb_init(&b, buf, sz);
    for (int i = 0; i < n; i++)
        mc_sb_printf(&b, "%s%s", i ? " " : "", letters[mv[i]]);
    if (n == 0)
        mc_sb_printf(&b, "%s", _("none"));
    return b.len;
}

static int sq_move_parse(const mc_game *g, const mc_pos *p, const char *s,
                         mc_move *m, mc_error *err)
{
    int side = p->side;
    if (strlen(s) != 1 ||
        !((s[0] >= 'A' && s[0] <= 'F') || (s[0] >= 'a' && s[0] <= 'f')))
        return mc_err(err, MC_ERR_MOVE,
                      _("'%.20s' is not a move: a move is one hole letter, "
                        "A-F for South or a-f for North"),
                      s);
    int i = s[0] >= 'a' ? 6 + (s[0] - 'a') : s[0] - 'A';
    if (i / 6 != side)
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s is one of %s's holes; %s moves from %s"), s,
                      mc_side_word(1 - side), mc_side_word(side),
                      side ? "a-f" : "A-F");
    if (p->pit[i] == 0)
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("hole %s is empty; a move lifts the seeds of an own "
                        "hole holding 1 or more (S2)"),
                      s);
    uint64_t w[2], oc[6][2];
    mc_move mv[MC_MAX_MOVES];
    board_load(p->pit, w);
    outcomes(g, w, side, oc);
    int n = legal_from(g, p, oc, mv);
    for (int k = 0; k < n; k++)
        if ((int)mv[k] == i) {
            *m = (mc_move)i;
            return 0;
        }
    char legal[64];
    list_moves(mv, n, legal, sizeof legal);
    if (oc_kind(oc[i - 6 * side]) == OC_NEVER) {
        uint64_t first, again;
        cycle_info(g->data, w, i, &first, &again);
        char when[64];
        mc_sb b;
        mc_sb_init(&b, when, sizeof when);
        if (first)
            mc_sb_printf(&b, _("the state after %llu laps comes back"),
                         (unsigned long long)first);
        else
            mc_sb_printf(&b, _("the relay is back where it started"));
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("sowing %s never ends: the lap-start state recurs "
                        "after %llu laps (%s), so the relay would go round "
                        "forever (S5) (legal: %s)"),
                      s, (unsigned long long)again, when, legal);
    }
    /* It ends, so only the first-move restriction can forbid it. */
    /* the rule in words, never the option's internal name */
    return mc_err(
        err, MC_ERR_ILLEGAL,
        _("this is %s's first move, which must be from %s, the "
          "rightmost hole, while that hole can be sown (S2) (legal: %s)"),
        mc_side_word(side), letters[6 * side + 5], legal);
}

static size_t sq_move_format(const mc_game *g, const mc_pos *p, mc_move m,
                             char *buf, size_t n)
{
    (void)g;
    (void)p;
    mc_sb b;
    mc_sb_init(&b, buf, n);
    mc_sb_printf(&b, "%s", m < NH ? letters[m] : "?");
    return b.len;
}

static void sq_layout(const mc_game *g, mc_layout *l)
{
    (void)g;
    mc_layout_two_rows(l, 6);
    l->stores = 0; /* removed seeds leave the game: nothing to show */
    l->store_name = _("removed");
}

static const char *sq_pit_name(const mc_game *g, int pit)
{
    (void)g;
    return letters[pit];
}

static int sq_pit_owner(const mc_game *g, const mc_pos *p, int pit)
{
    (void)g;
    (void)p;
    return pit < 6 ? MC_SOUTH : MC_NORTH;
}

static size_t sq_describe(const mc_game *g, const mc_trace_event *e, char *buf,
                          size_t n)
{
    mc_sb b;
    mc_sb_init(&b, buf, n);
    const char *h = e->pit < NH ? sq_pit_name(g, e->pit) : "?";
    switch (e->kind) {
    case MC_TR_LAP:
        mc_sb_printf(&b, _("%s was occupied: relay"), h);
        break;
    case MC_TR_LIFT:
        mc_sb_printf(
            &b, P_("lifts %u seed from %s", "lifts %u seeds from %s", e->n),
            e->n, h);
        break;
    case MC_TR_DROP:
        mc_sb_printf(&b, _("drops a seed in %s (now %u)"), h, e->n);
        break;
    case MC_TR_SKIP:
        mc_sb_printf(&b, _("skips %s, the hole this lap was lifted from"), h);
        break;
    case MC_TR_END:
        mc_sb_printf(&b,
                     _("the last seed falls in %s, which was empty: the "
                       "move ends"),
                     h);
        break;
    case MC_TR_CAPTURE:
        mc_sb_printf(&b,
                     P_("the %u seed in %s, facing the last hole, leaves "
                        "the game",
                        "the %u seeds in %s, facing the last hole, leave "
                        "the game",
                        e->n),
                     e->n, h);
        break;
    default:
        mc_sb_printf(&b, "?");
    }
    return b.len;
}

/*
 * Evaluation for the search, in hundredths of a seed from the mover's view.
 * Sadeqa II is won by survival (S7): seeds on one's own side and occupied
 * holes (the moves one may still have) against the opponent's.
 */
static int sq_eval(const mc_game *g, const mc_pos *p, const int *w)
{
    (void)g;
    (void)w; /* no tuned weights */
    const uint8_t *mine = p->pit + 6 * p->side;
    const uint8_t *theirs = p->pit + 6 * (1 - p->side);
    int seeds = 0, holes = 0;
    for (int i = 0; i < 6; i++) {
        seeds += mine[i] - theirs[i];
        holes += (mine[i] > 0) - (theirs[i] > 0);
    }
    return 100 * seeds + 50 * holes;
}

/*
 * Features of the learned evaluation (learned.c), from the mover's view:
 * each hole's seed count (0..12+), the occupied holes and the seeds on each
 * side (0..36).
 */
enum {
    SF_BIAS = 0,
    SF_HOLE = 1,                /* 2 sides x 6 holes x 13 */
    SF_MOB = SF_HOLE + 12 * 13, /* 2 x 7 */
    SF_SIDE = SF_MOB + 2 * 7,   /* 2 x 37 */
    SF_N = SF_SIDE + 2 * 37
};

static const mc_feat_group sq_groups[] = {
    {"bias", 1},
    {"hole.mine", 78},
    {"hole.theirs", 78},
    {"occupied.mine", 7},
    {"occupied.theirs", 7},
    {"side.mine", 37},
    {"side.theirs", 37},
    {NULL, 0},
};

static int sq_features(const mc_game *g, const mc_pos *p, mc_feature *f)
{
    (void)g;
    int k = 0;
    f[k++] = (mc_feature){SF_BIAS, 1};
    for (int r = 0; r < 2; r++) {
        const uint8_t *h = p->pit + 6 * (r == 0 ? p->side : 1 - p->side);
        int occ = 0, side = 0;
        for (int i = 0; i < 6; i++) {
            int c = h[i] > 12 ? 12 : h[i];
            f[k++] =
                (mc_feature){(uint16_t)(SF_HOLE + 13 * (6 * r + i) + c), 1};
            occ += h[i] > 0;
            side += h[i];
        }
        f[k++] = (mc_feature){(uint16_t)(SF_MOB + 7 * r + occ), 1};
        f[k++] = (mc_feature){
            (uint16_t)(SF_SIDE + 37 * r + (side > MAXS ? MAXS : side)), 1};
    }
    return k;
}

/* Machine learning (docs/PYTHON.md): the action is the hole counted
   from the mover's A or a = 0 .. F or f = 5; the observation is the
   mover's six holes, the opponent's six (each in its owner's letter order),
   then 1 when the mover's first move is pending, 1 when the opponent's is. */
static long sq_action_index(const mc_game *g, const mc_pos *p, mc_move m)
{
    (void)g;
    return (long)m - 6 * p->side;
}

static void sq_observe(const mc_game *g, const mc_pos *p, float *out)
{
    (void)g;
    const int me = 6 * p->side, you = 6 - me;
    for (int i = 0; i < 6; i++) {
        out[i] = p->pit[me + i];
        out[6 + i] = p->pit[you + i];
    }
    out[12] = p->first >> p->side & 1;
    out[13] = p->first >> (1 - p->side) & 1;
}

/* The solved tables (src/egdb/retro.c, docs/SOLVED.md): once both first
   moves are made (S2) a position is its board and the side to move, and
   an endless game is a draw (S8), so each board has one value for its
   mover: win, draw or loss.  With repetition=more_seeds an endless game's
   winner depends on the board it repeats: not solvable board by board. */
static int sq_solvable(const mc_game *g, char *name, size_t n, mc_error *err)
{
    if (g->opt[OPT_REPETITION] != 0)
        return mc_err(err, MC_ERR_SPEC,
                      _("sadeqa2:repetition=more_seeds cannot be solved board "
                        "by board: an endless game's winner depends on the "
                        "board it repeats"));
    int skip = g->opt[OPT_SKIP_ORIGIN], draw = g->opt[OPT_STUCK] == 1;
    snprintf(name, n, "%s%s%s", skip || draw ? "" : "plain", skip ? "skip" : "",
             draw ? (skip ? "-stuckdraw" : "stuckdraw") : "");
    return 0;
}

static void sq_from_board(const mc_game *g, const uint8_t *h, mc_pos *p)
{
    (void)g;
    memset(p, 0, sizeof *p);
    for (int i = 0; i < NH; i++)
        p->pit[i] = h[i];
    p->side = MC_SOUTH;
    p->first = 0;
}

static int sq_to_board(const mc_game *g, const mc_pos *p, uint8_t *h)
{
    (void)g;
    if (p->first)
        return 0; /* a first move to make: S2 may bind it */
    int o = p->side == MC_SOUTH ? 0 : 6;
    for (int i = 0; i < NH; i++)
        h[i] = p->pit[(i + o) % NH];
    return 1;
}

static const char *const sq_retro_keys[] = {"skip_origin", "stuck",
                                            "repetition", NULL};

static const mc_retro sq_retro = {
    .keys = sq_retro_keys,
    .houses = NH,
    .max_seeds = MAXS,
    .wdl = 1,
    .solvable = sq_solvable,
    .from_board = sq_from_board,
    .to_board = sq_to_board,
};

const mc_rules mc_rules_sadeqa2 = {
    .eval = sq_eval,
    .features = sq_features,
    .nfeat = SF_N,
    .feat_groups = sq_groups,
    .name = "sadeqa2",
    .title = N_("Sadeqa II (Dembi Dolo, Pankhurst 1971)"),
    .npits = NH,
    .opts = sq_opts,
    .presets = NULL,
    .init = sq_init,
    .fini = sq_fini,
    .start = sq_start,
    .moves = sq_moves,
    .play = sq_play,
    .status = sq_status,
    .total = sq_total,
    .pos_ok = sq_pos_ok,
    .pos_parse = sq_pos_parse,
    .pos_format = sq_pos_format,
    .move_parse = sq_move_parse,
    .move_format = sq_move_format,
    .layout = sq_layout,
    .pit_name = sq_pit_name,
    .pit_owner = sq_pit_owner,
    .describe = sq_describe,
    .result_words = sq_result_words,
    .hash = sq_hash,
    .nactions = 6,
    .action_index = sq_action_index,
    .obs_size = 14,
    .observe = sq_observe,
    .retro = &sq_retro,
    /* K 878.3: data/eval/sadeqa2.txt's fit (62,521 positions of 3,000 self-play
       games). */
    .win_scale = 878.3,
    .score_in_seeds = 0,
};
