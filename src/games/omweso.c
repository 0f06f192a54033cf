/*
 * omweso.c - Omweso (rules/omweso.md, W1-W16) with every option.
 *
 * pit[0..15] are South's own indices 0..15, pit[16..31] North's.  A move is
 * a chain of laps round the mover's 16 pits: relays, captures of both facing
 * pits re-sown from the capturing lap's origin, reverse (clockwise) laps from
 * the four leftmost pits when they capture.  Every choice point (W10) splits
 * a move in two (W11); paths that come back to a lap-start state are pruned
 * (W13), detected exactly with Brent's algorithm on arithmetic laps.
 *
 * The unit of work is a "chain": the laps that follow from one lap start
 * while every choice is taken counter-clockwise.  Between two captures the
 * opponent's pits do not change, so a chain is deterministic, and a path can
 * only repeat a state inside one chain.  A chain ends (last seed in an empty
 * pit), captures (a new chain starts from the re-sowing), or cycles; the
 * choice points met on the way are the places where a path can branch off
 * clockwise (always into a capture).  Long chains are cached in g->data.
 *
 * Rules never print, read files or allocate per move.  The cache makes a
 * game object unsafe to share between threads (one game per thread); it is
 * allocated at the first long chain a game meets (once in its life), so
 * that a game that never searches (one of 10,000 records read) costs a few
 * hundred bytes, and the laps' sowing table is one for every game.
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "game.h"

enum {
    OPT_SETUP,
    OPT_SETUP_CAP,
    OPT_FTC,
    OPT_REVERSE,
    OPT_THREE,
    OPT_NEVER,
    OPT_AKAKYALA,
    OPT_FRONT,
    OPT_MATCH,
    OPT_MAX_PLIES
};
enum { SETUP_STANDARD, SETUP_CUSTOM, SETUP_ALL2 };
enum { FTC_EACH, FTC_FIRST_GAME, FTC_ALLOWED };
enum { REV_EVERY, REV_FIRST, REV_NONE };

static const char *const v_setup[] = {"standard", "custom", "all2", NULL};
static const char *const v_cap[] = {"10", "none", NULL};
static const char *const v_ftc[] = {"off_each_game", "off_first_game",
                                    "allowed", NULL};
static const char *const v_rev[] = {"every_lap", "first_lap", "none", NULL};
static const char *const v_three[] = {"per_game", "off", NULL};
static const char *const v_never[] = {"annul", "exclude", NULL};
static const char *const v_offon[] = {"off", "on", NULL};
static const char *const v_onoff[] = {"on", "off", NULL};
static const char *const v_match[] = {"12", "single", NULL};

static const mc_optdef om_opts[] = {
    {"setup", v_setup, 0, 0, 0,
     N_("W3: 4 in each outer pit, arranged by the players, or 2 everywhere")},
    {"setup_cap", v_cap, 0, 0, 0,
     N_("W3: most seeds one pit may get in a custom set-up")},
    {"first_turn_capture", v_ftc, 0, 0, 0,
     N_("W9: captures on each player's first turn")},
    {"reverse", v_rev, 0, 0, 0,
     N_("W10: which laps may be sown clockwise when they capture")},
    {"three_seed", v_three, 0, 0, 0,
     N_("W12: the three-seed opening sowing until the first capture")},
    {"never_ending", v_never, 0, 0, 0,
     N_("W13: a start whose every path never ends annuls, or is not a move")},
    {"akakyala", v_offon, 0, 0, 0,
     N_("W14c: 2 points for a second capturing turn before any reply")},
    {"front_row_win", v_onoff, 0, 0, 0,
     N_("W14b: 2 points for a capture that empties the opponent's inner row")},
    {"match", v_match, 0, 0, 0, N_("W2: a match to 12 points, or one game")},
    {"max_plies", NULL, 2000, 1, 100000000,
     N_("W15: the game is annulled at this ply")},
    {NULL, NULL, 0, 0, 0, NULL},
};

/* ---- board helpers ------------------------------------------------------ */

/* The mover's 16 own pits as two words, pit i in byte i & 7 (from the low
   end) of word i >> 3, so that a whole lap is two additions (a byte never
   carries: there are 64 seeds in all) and the lap loop stays in registers. */
typedef struct row16 {
    uint64_t w[2];
} row16;

/* The opponent's 16 own pits: they change only by captures. */
typedef struct opp {
    uint8_t b[16];
} opp;

static inline unsigned rget(const row16 *r, int i)
{
    return (unsigned)(r->w[i >> 3] >> (8 * (i & 7))) & 0xff;
}

static inline void rset(row16 *r, int i, unsigned v)
{
    int sh = 8 * (i & 7);
    r->w[i >> 3] = (r->w[i >> 3] & ~(0xffull << sh)) | (uint64_t)v << sh;
}

/* The seeds in pits w0, w1: the bytes summed by one multiplication each
   (at most 64 seeds, so the sum never carries out of the top byte).  A
   macro: only the checking builds' asserts use it. */
#define SEEDS2(w0, w1)                                                         \
    ((unsigned)((((uint64_t)(w0)*0x0101010101010101ull) >> 56) +               \
                (((uint64_t)(w1)*0x0101010101010101ull) >> 56)))

/* A lap start: the mover's pits once the origin is lifted, origin, hand. */
typedef struct node {
    row16 me;
    uint8_t o, n;
} node;

#define LEFT(o) ((o) <= 1 || (o) >= 14) /* own indices 0, 1, 14, 15 */
#define MAXMARKS 52                     /* marks a move can encode */
#define MAXC 56                         /* choice points kept per chain */
#define CACHE_SIZE 4096
#define CACHE_MIN_LAPS 32
#define CACHE_CHOICES 4

/* last: facts about the move just played, for status(). */
enum { LAST_CAPTURE = 1, LAST_COL0 = 2, LAST_COL7 = 4, LAST_ANNUL = 8 };

/* Move encoding: bits 0-3 start, 4 three-seed '*', 5 never-ending (annuls),
   6-11 number of marks up to the last '-', 12.. one bit per mark (1 = '-'). */
#define MV_STAR ((mc_move)1 << 4)
#define MV_ANNUL ((mc_move)1 << 5)
#define MV_START(m) ((int)((m)&15))
#define MV_COUNT(m) ((int)(((m) >> 6) & 63))
#define MV_BITS(m) ((m) >> 12)

static mc_move mv_make(int start, int count, uint64_t bits)
{
    return (mc_move)start | (mc_move)count << 6 | (mc_move)bits << 12;
}

enum { CH_END, CH_CAPTURE, CH_CYCLE };

typedef struct choice {
    node x;
    uint64_t idx; /* lap number in the chain */
} choice;

/* Outcome of a chain of counter-clockwise laps from one lap start. */
typedef struct chain_res {
    int kind;      /* CH_END, CH_CAPTURE or CH_CYCLE */
    uint64_t laps; /* laps sown (for a cycle: until it was detected) */
    row16 me;      /* END, CAPTURE: the mover's pits after the last lap */
    int o, L;      /* origin and last pit of the last lap */
    int nc;        /* choice points, in path order (distinct lap states) */
    int overflow;  /* more choice points than MAXC */
    int approx;    /* a CYCLE guessed: still going at the relay budget */
    choice c[MAXC];
} chain_res;

typedef struct cache_ent {
    node key;
    uint16_t mask;
    uint8_t rev, used, approx;
    uint8_t kind, o, L, nc;
    uint64_t laps;
    row16 me;
    node c[CACHE_CHOICES];
} cache_ent;

/* Counters for tests and reports (see mc_omweso_stats). */
enum {
    ST_MARK_OVERFLOW,
    ST_MOVE_OVERFLOW,
    ST_CYCLES,
    ST_LONGEST,
    ST_CACHE_HITS,
    ST_MAX_MOVES,
    ST_MAX_MARKS,
    ST_CYCLE_CHOICES,
    ST_SECOND_VISIT,
    ST_APPROX,
    ST_N
};

typedef struct om_data {
    const row16 (*add)[65][16]; /* [dir][n][origin]: what a lap of n seeds
                                   adds (om_add, shared) */
    cache_ent *cache;           /* NULL until the first long chain */
    long st[ST_N];
} om_data;

/* Sow n seeds from o (dir 0 counter-clockwise, 1 clockwise), the origin
   included when n >= 16 (W5); returns the last pit sown. */
static inline int sow(const om_data *d, row16 *me, int o, int n, int dir)
{
    mc_hot_assert(o >= 0 && o < 16 && n >= 1 && n <= 64); /* W1, W5 */
    const row16 *a = &d->add[dir][n][o];
    me->w[0] += a->w[0];
    me->w[1] += a->w[1];
    return dir ? (o - n) & 15 : (o + n) & 15;
}

/* Inner pits (bits 8..15) of the mover that face two occupied pits (W7). */
static unsigned cap_mask(const uint8_t *op)
{
    unsigned m = 0;
    for (int i = 8; i < 16; i++)
        if (op[23 - i] && op[i - 8])
            m |= 1u << i;
    return m;
}

/* Would the lap from x sown clockwise end in a capture (W10)? */
static inline int cw_captures(const node *x, unsigned mask)
{
    int n = x->n, L = (x->o - n) & 15;
    if (!(mask >> L & 1))
        return 0;
    int dist = ((n - 1) & 15) + 1;
    return rget(&x->me, L) + (n - dist) / 16 > 0;
}

/* Take both pits facing the mover's inner pit L (W8). */
static int take(opp *op, int L)
{
    /* W7: an inner pit facing two occupied pits. */
    mc_hot_assert(L >= 8 && L < 16 && op->b[23 - L] && op->b[L - 8]);
    int got = op->b[23 - L] + op->b[L - 8];
    op->b[23 - L] = 0;
    op->b[L - 8] = 0;
    return got;
}

static inline int node_eq(const node *a, const node *b)
{
    return a->me.w[0] == b->me.w[0] && a->me.w[1] == b->me.w[1] &&
           a->o == b->o && a->n == b->n;
}

/* One relay lap of a chain known not to end (used to measure a cycle). */
static inline void relay_step(const om_data *d, node *x)
{
    int L = sow(d, &x->me, x->o, x->n, 0);
    x->n = (uint8_t)rget(&x->me, L);
    x->o = (uint8_t)L;
    rset(&x->me, L, 0);
}

/*
 * The choice points of a chain from x0 that came back to a lap-start state
 * after idx laps: at its start (home), or where Brent's tortoise waited
 * (lam: the laps since).  Only those before the first repeated state count,
 * plus the repeated state itself when it is a choice point (rev 1): there
 * the path has been counter-clockwise before, and going clockwise is a new
 * lap state.  ov_idx: the lap of the first choice point not kept (r's
 * overflow).  Off chain_run's loop: a cycle with choice points is rare.
 */
static void cycle_choices(om_data *d, const node *x0, int home, uint64_t idx,
                          uint64_t lam, uint64_t ov_idx, int rev, chain_res *r)
{
    /* Find mu, the first lap of the cycle, and lam, its length. */
    uint64_t mu = 0;
    node a = *x0, b = *x0;
    if (home) {
        lam = idx;
    } else {
        for (uint64_t k = 0; k < lam; k++)
            relay_step(d, &b);
        while (!node_eq(&a, &b)) {
            relay_step(d, &a);
            relay_step(d, &b);
            mu++;
        }
    }
    d->st[ST_CYCLE_CHOICES]++;
    int k = 0, again = -1;
    for (int i = 0; i < r->nc; i++) {
        if (r->c[i].idx >= mu + lam)
            break;
        if (r->c[i].idx == mu)
            again = i;
        r->c[k++] = r->c[i];
    }
    if (r->overflow && ov_idx >= mu + lam)
        r->overflow = 0;
    r->nc = k;
    if (again >= 0 && rev == 1) {
        d->st[ST_SECOND_VISIT]++;
        if (r->nc < MAXC) {
            r->c[r->nc] = r->c[again];
            r->c[r->nc++].idx = mu + lam;
        } else {
            r->overflow = 1;
        }
    }
}

/*
 * The chain from x0: laps sown counter-clockwise until one ends or captures,
 * or until a lap-start state recurs (Brent).  rev: 0 no reverse laps, 1 any
 * lap may branch clockwise, 2 only the first.  Choice points are recorded in
 * order; for a cycle, cycle_choices keeps those that count.
 * Under a relay budget (mc_relay_budget_set: the search below its root) a
 * chain still going after that many laps is taken for a cycle (approx), its
 * choice points those met so far.
 */
static void chain_run(om_data *d, const node *x0, unsigned mask, int rev,
                      chain_res *r)
{
    uint64_t w0 = x0->me.w[0], w1 = x0->me.w[1];
    unsigned o = x0->o, n = x0->n;
    /* Brent's tortoise; and the start, because the chains met so far all
       come back to their first state (mu = 0): comparing with it finds
       such a cycle after exactly lambda laps, not up to 2.5 lambda. */
    uint64_t t0 = w0, t1 = w1, s0 = w0, s1 = w1;
    unsigned to = o, tn = n;
    uint64_t idx = 0, power = 1, lam = 0, ov_idx = 0;
    uint64_t budget = mc_relay_budget(), lim = budget ? budget : UINT64_MAX;
    /* A lap start: an origin, and a hand of 1 to 64 seeds (W1). */
    mc_hot_assert(o < 16 && n >= 1 && n <= 64);
    r->nc = 0;
    r->overflow = 0;
    r->approx = 0;
    for (;;) {
        if (rev && LEFT(o) && (rev == 1 || idx == 0)) {
            node x = {{{w0, w1}}, (uint8_t)o, (uint8_t)n};
            if (cw_captures(&x, mask)) {
                if (r->nc < MAXC) {
                    r->c[r->nc].x = x;
                    r->c[r->nc++].idx = idx;
                } else if (!r->overflow) {
                    r->overflow = 1;
                    ov_idx = idx;
                }
            }
        }
        /* The last pit's count comes from the board before the lap (plus
           the seeds the lap drops there), so the next lap need not wait
           for this lap's table load: two laps overlap in the pipeline. */
        unsigned L = (o + n) & 15, sh = 8 * (L & 7);
        unsigned v =
            ((unsigned)(((L & 8) ? w1 : w0) >> sh) & 0xff) + ((n - 1) >> 4) + 1;
        const row16 *a = &d->add[0][n][o];
        w0 += a->w[0];
        w1 += a->w[1];
        if (v == 1 || (mask >> L & 1)) {
            /* The laps moved the mover's seeds round its own pits, never
               losing one (W5); a capture lands in an inner pit (W7). */
            mc_hot_assert(SEEDS2(w0, w1) == SEEDS2(s0, s1) + x0->n);
            mc_hot_assert(v == 1 || L >= 8);
            r->kind = v == 1 ? CH_END : CH_CAPTURE;
            r->me.w[0] = w0;
            r->me.w[1] = w1;
            r->o = (int)o;
            r->L = (int)L;
            r->laps = idx + 1;
            return;
        }
        /* Lift pit L without a branch: which word holds it is a coin toss
           the branch predictor would lose half the time. */
        uint64_t clr = 0xffull << sh, hi = (uint64_t)0 - (L >> 3);
        w0 &= ~(clr & ~hi);
        w1 &= ~(clr & hi);
        o = L;
        n = v;
        idx++;
        lam++;
        /* A search with a deadline may not wait for a cycle of hundreds of
           millions of laps: give up (as a pruned path, never cached); the
           search discards everything computed after the deadline fired. */
        if ((idx & 0x3fffff) == 0 && mc_deadline_check()) {
            r->kind = CH_CYCLE;
            r->laps = idx;
            r->nc = 0;
            r->overflow = 0;
            return;
        }
        if (idx >= lim) {
            r->kind = CH_CYCLE;
            r->laps = idx;
            r->approx = 1;
            d->st[ST_APPROX]++;
            return;
        }
        if ((w0 == t0 && w1 == t1 && o == to && n == tn) ||
            (w0 == s0 && w1 == s1 && o == x0->o && n == x0->n))
            break;
        if (lam == power) {
            t0 = w0;
            t1 = w1;
            to = o;
            tn = n;
            power <<= 1;
            lam = 0;
        }
    }
    r->kind = CH_CYCLE;
    r->laps = idx;
    d->st[ST_CYCLES]++;
    if (r->nc || r->overflow)
        cycle_choices(d, x0, w0 == s0 && w1 == s1 && o == x0->o && n == x0->n,
                      idx, lam, ov_idx, rev, r);
}

static size_t cache_slot(const node *x, unsigned mask, int rev)
{
    uint64_t h = mc_mix64(x->me.w[0] ^ mc_mix64(x->me.w[1]) ^
                          ((uint64_t)x->o << 56 | (uint64_t)x->n << 48 |
                           (uint64_t)mask << 8 | (uint64_t)rev));
    return (size_t)(h & (CACHE_SIZE - 1));
}

/* chain_run with a cache of long chains: a never-ending chain can take tens
   of millions of laps, and the same one is met again and again. */
static void chain_get(om_data *d, const node *x0, unsigned mask, int rev,
                      chain_res *r)
{
    cache_ent *e = d->cache ? &d->cache[cache_slot(x0, mask, rev)] : NULL;
    /* A guess (approx) serves only under a budget again: no exact use of
       the rules may see it. */
    if (e && e->used && e->mask == mask && e->rev == rev &&
        (!e->approx || mc_relay_budget()) && node_eq(&e->key, x0)) {
        d->st[ST_CACHE_HITS]++;
        r->kind = e->kind;
        r->laps = e->laps;
        r->me = e->me;
        r->o = e->o;
        r->L = e->L;
        r->nc = e->nc;
        r->overflow = 0;
        r->approx = e->approx;
        for (int i = 0; i < e->nc; i++) {
            r->c[i].x = e->c[i];
            r->c[i].idx = 0;
        }
        return;
    }
    chain_run(d, x0, mask, rev, r);
    if ((long)r->laps > d->st[ST_LONGEST])
        d->st[ST_LONGEST] = (long)r->laps;
    int keep = r->laps >= CACHE_MIN_LAPS && r->nc <= CACHE_CHOICES &&
               !r->overflow && !mc_deadline_fired();
    if (keep && !d->cache && (d->cache = calloc(CACHE_SIZE, sizeof *d->cache)))
        e = &d->cache[cache_slot(x0, mask, rev)];
    if (e && keep) {
        e->key = *x0;
        e->mask = (uint16_t)mask;
        e->rev = (uint8_t)rev;
        e->kind = (uint8_t)r->kind;
        e->laps = r->laps;
        e->me = r->me;
        e->o = (uint8_t)r->o;
        e->L = (uint8_t)r->L;
        e->nc = (uint8_t)r->nc;
        for (int i = 0; i < r->nc; i++)
            e->c[i] = r->c[i].x;
        e->approx = (uint8_t)r->approx;
        e->used = 1;
    }
}

/* ---- position facts ----------------------------------------------------- */

static int captures_on(const mc_game *g, const mc_pos *p)
{
    if (g->opt[OPT_FTC] == FTC_ALLOWED)
        return 1;
    return !(p->first >> p->side & 1);
}

static int three_seed_on(const mc_game *g, const mc_pos *p)
{
    return g->opt[OPT_THREE] == 0 && p->cap[0] == 0 && p->cap[1] == 0;
}

/* Reverse mode of a chain: 1 every lap, 2 only its first, 0 none. */
static int rev_mode(const mc_game *g, unsigned mask, int first_lap)
{
    if (!mask)
        return 0;
    switch (g->opt[OPT_REVERSE]) {
    case REV_EVERY:
        return 1;
    case REV_FIRST:
        return first_lap ? 2 : 0;
    default:
        return 0;
    }
}

static void load_rows(const mc_pos *p, row16 *me, opp *op)
{
    me->w[0] = me->w[1] = 0;
    for (int i = 0; i < 16; i++)
        rset(me, i, p->pit[16 * p->side + i]);
    memcpy(op->b, p->pit + 16 * (1 - p->side), 16);
}

static void store_rows(mc_pos *p, const row16 *me, const opp *op)
{
    for (int i = 0; i < 16; i++)
        p->pit[16 * p->side + i] = (uint8_t)rget(me, i);
    memcpy(p->pit + 16 * (1 - p->side), op->b, 16);
}

/* ---- move generation ---------------------------------------------------- */

typedef struct gen {
    const mc_game *g;
    om_data *d;
    mc_move *out; /* NULL: count only */
    int cap;      /* room in out */
    int n;        /* legal moves found (written while n < cap) */
    int start;
    int leaves; /* moves found for this start, written or not */
    int lost;   /* paths of this start that cannot be encoded */
    int capt;
} gen;

static void emit(gen *e, uint64_t bits)
{
    int count = 0;
    for (uint64_t b = bits; b; b >>= 1)
        count++;
    mc_hot_assert(count <= MAXMARKS); /* gen_seg marks no further */
    e->leaves++;
    if (count > e->d->st[ST_MAX_MARKS])
        e->d->st[ST_MAX_MARKS] = count;
    if (e->out && e->n < e->cap)
        e->out[e->n] = mv_make(e->start, count, bits);
    e->n++;
}

/* One more move that is not a sowing path (an annulled start, a
   three-seed opening). */
static void emit_move(gen *e, mc_move m)
{
    if (e->out && e->n < e->cap)
        e->out[e->n] = m;
    e->n++;
}

/* Every path on from lap start x (the opponent's pits op), nm marks so far
   with '-' where bits has a 1; in the rule file's order. */
static void gen_seg(gen *e, const node *x, const opp *op, int first_lap, int nm,
                    uint64_t bits)
{
    unsigned mask = e->capt ? cap_mask(op->b) : 0;
    chain_res r;
    chain_get(e->d, x, mask, rev_mode(e->g, mask, first_lap), &r);
    if (r.kind == CH_END) {
        emit(e, bits);
    } else if (r.kind == CH_CAPTURE) {
        node y;
        opp op2 = *op;
        y.me = r.me;
        y.o = (uint8_t)r.o;
        y.n = (uint8_t)take(&op2, r.L);
        gen_seg(e, &y, &op2, 0, nm + r.nc, bits);
    }
    for (int k = r.nc - 1; k >= 0; k--) {
        int pos = nm + k;
        if (pos >= MAXMARKS) {
            e->d->st[ST_MARK_OVERFLOW]++;
            e->lost++;
            continue;
        }
        node y = r.c[k].x;
        opp op2 = *op;
        int L = sow(e->d, &y.me, y.o, y.n, 1);
        y.n = (uint8_t)take(&op2, L);
        gen_seg(e, &y, &op2, 0, pos + 1, bits | (uint64_t)1 << pos);
    }
    if (r.overflow) {
        e->d->st[ST_MARK_OVERFLOW]++;
        e->lost++;
    }
}

/* The legal moves into out (room for cap); returns how many there are,
   which may be more than cap (only cap are written). */
static int om_moves_all(const mc_game *g, const mc_pos *p, mc_move *out,
                        int cap)
{
    gen e;
    memset(&e, 0, sizeof e);
    e.g = g;
    e.d = g->data;
    e.out = out;
    e.cap = cap;
    e.capt = captures_on(g, p);
    row16 me;
    opp op;
    load_rows(p, &me, &op);
    int three = three_seed_on(g, p);
    for (int s = 0; s < 16; s++) {
        unsigned seeds = rget(&me, s);
        if (seeds >= 2) {
            node x;
            x.me = me;
            x.o = (uint8_t)s;
            x.n = (uint8_t)seeds;
            rset(&x.me, s, 0);
            e.start = s;
            e.leaves = e.lost = 0;
            gen_seg(&e, &x, &op, 1, 0, 0);
            if (!e.leaves && !e.lost && g->opt[OPT_NEVER] == 0)
                emit_move(&e, (mc_move)s | MV_ANNUL);
        }
        if (three && seeds == 3)
            emit_move(&e, (mc_move)s | MV_STAR);
    }
    if (e.n > e.d->st[ST_MAX_MOVES])
        e.d->st[ST_MAX_MOVES] = e.n;
    return e.n;
}

/* The interface's fixed buffer: no position is known to have more than
   MC_MAX_MOVES moves (ST_MAX_MOVES keeps the most seen); one that had
   would be counted in ST_MOVE_OVERFLOW and be reported by mc_moves_all. */
static int om_moves(const mc_game *g, const mc_pos *p, mc_move *out)
{
    int n = om_moves_all(g, p, out, MC_MAX_MOVES);
    if (n > MC_MAX_MOVES) {
        ((om_data *)g->data)->st[ST_MOVE_OVERFLOW]++;
        n = MC_MAX_MOVES;
    }
    return n;
}

/* ---- playing a move ----------------------------------------------------- */

static int bd(int side, int own)
{
    return 16 * side + own;
}

/* Capture at the mover's inner pit L: trace, take, remember end columns. */
static int do_capture(opp *op, int L, int side, int *last, mc_trace *t)
{
    if (t) {
        mc_trace_add(t, MC_TR_CAPTURE, bd(1 - side, 23 - L), op->b[23 - L],
                     side);
        mc_trace_add(t, MC_TR_CAPTURE, bd(1 - side, L - 8), op->b[L - 8], side);
    }
    *last |=
        LAST_CAPTURE | (L == 8 ? LAST_COL0 : 0) | (L == 15 ? LAST_COL7 : 0);
    return take(op, L);
}

/* The move lap by lap, with a trace: what a player would watch. */
static void play_traced(const mc_game *g, om_data *d, row16 *me, opp *op,
                        int side, int capt, mc_move m, int *last, mc_trace *t)
{
    int cnt = MV_COUNT(m), pos = 0, lap = 0, resow = 0;
    uint64_t bits = MV_BITS(m);
    node x;
    x.me = *me;
    x.o = (uint8_t)MV_START(m);
    x.n = (uint8_t)rget(&x.me, x.o);
    rset(&x.me, x.o, 0);
    mc_trace_add(t, MC_TR_LIFT, bd(side, x.o), x.n, 0);
    for (;;) {
        unsigned mask = capt ? cap_mask(op->b) : 0;
        int rev = rev_mode(g, mask, lap == 0);
        int dir = 0;
        if (pos < cnt && rev && LEFT(x.o) && cw_captures(&x, mask))
            dir = (int)(bits >> pos++ & 1);
        mc_trace_add(t, resow ? MC_TR_RESOW : MC_TR_LAP, bd(side, x.o), x.n,
                     dir);
        int L = sow(d, &x.me, x.o, x.n, dir);
        unsigned v = rget(&x.me, L);
        assert(v >= 1); /* the lap's last seed is there */
        lap++;
        if (v == 1) {
            mc_trace_add(t, MC_TR_END, bd(side, L), 1, side);
            break;
        }
        if (mask >> L & 1) {
            x.n = (uint8_t)do_capture(op, L, side, last, t);
            resow = 1;
            continue;
        }
        /* aux 2: it would have captured but for the first-turn rule. */
        int would = L >= 8 && op->b[23 - L] && op->b[L - 8];
        mc_trace_add(t, MC_TR_LIFT, bd(side, L), v, would ? 2 : 1);
        x.o = (uint8_t)L;
        x.n = (uint8_t)v;
        rset(&x.me, L, 0);
        resow = 0;
    }
    *me = x.me;
}

/* The move by chains (cached): no trace, long relays cost nothing twice. */
static void play_fast(const mc_game *g, om_data *d, row16 *me, opp *op,
                      int side, int capt, mc_move m, int *last)
{
    int cnt = MV_COUNT(m), pos = 0, first = 1;
    uint64_t bits = MV_BITS(m);
    node x;
    x.me = *me;
    x.o = (uint8_t)MV_START(m);
    x.n = (uint8_t)rget(&x.me, x.o);
    rset(&x.me, x.o, 0);
    chain_res r;
    for (;;) {
        unsigned mask = capt ? cap_mask(op->b) : 0;
        chain_get(d, &x, mask, rev_mode(g, mask, first), &r);
        if (r.approx) {
            /* A move made exactly (the search's root) played under a
               budget: its chains end, so they are worth following. */
            uint64_t budget = mc_relay_budget();
            mc_relay_budget_set(0);
            chain_get(d, &x, mask, rev_mode(g, mask, first), &r);
            mc_relay_budget_set(budget);
        }
        first = 0;
        if (pos < cnt) {
            int next = pos;
            while (!(bits >> next & 1))
                next++;
            if (next - pos < r.nc) {
                node y = r.c[next - pos].x;
                int L = sow(d, &y.me, y.o, y.n, 1);
                y.n = (uint8_t)do_capture(op, L, side, last, NULL);
                x = y;
                pos = next + 1;
                continue;
            }
        }
        pos += r.nc;
        if (r.kind == CH_CAPTURE) {
            x.me = r.me;
            x.o = (uint8_t)r.o;
            x.n = (uint8_t)do_capture(op, r.L, side, last, NULL);
            continue;
        }
        /* A legal move never cycles: mc_play's contract. */
        mc_hot_assert(r.kind == CH_END);
        *me = r.me;
        return;
    }
}

static int om_total(const mc_game *g, const mc_pos *p);

static int om_play(const mc_game *g, mc_pos *p, mc_move m, mc_trace *t)
{
    om_data *d = g->data;
    int side = p->side, s = MV_START(m), last = 0;
    const int total = om_total(g, p);
    p->last = 0;
    if (m & MV_ANNUL) {
        /* W13: the game is annulled and the position left as it was. */
        if (t)
            mc_trace_add(t, MC_TR_ANNUL, bd(side, s), p->pit[bd(side, s)],
                         side);
        p->last = LAST_ANNUL;
        return 0;
    }
    row16 me;
    opp op;
    load_rows(p, &me, &op);
    if (m & MV_STAR) {
        /* W12: 2 seeds into the next pit, 1 into the one after. */
        mc_hot_assert(rget(&me, s) == 3);
        rset(&me, s, 0);
        rset(&me, (s + 1) & 15, rget(&me, (s + 1) & 15) + 2);
        rset(&me, (s + 2) & 15, rget(&me, (s + 2) & 15) + 1);
        if (t)
            mc_trace_add(t, MC_TR_OPENING, bd(side, s), 3, side);
    } else if (t) {
        play_traced(g, d, &me, &op, side, captures_on(g, p), m, &last, t);
    } else {
        play_fast(g, d, &me, &op, side, captures_on(g, p), m, &last);
    }
    store_rows(p, &me, &op);
    /* W1: seeds never leave the board; a capture moves them across. */
    mc_hot_assert(om_total(g, p) == total);
    int flags = 0;
    if (last & LAST_CAPTURE) {
        p->cap[side]++;
        flags = MC_PLAY_IRREVERSIBLE;
    }
    if (p->first >> side & 1) {
        /* `first` only ever loses players: no earlier position recurs. */
        p->first = (uint8_t)(p->first & ~(1u << side));
        flags = MC_PLAY_IRREVERSIBLE;
    }
    p->last = (uint8_t)last;
    p->side = (uint8_t)(1 - side);
    return flags;
}

/* ---- start, status, totals ---------------------------------------------- */

static void om_start(const mc_game *g, mc_pos *p)
{
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 16; i++)
            p->pit[bd(s, i)] = g->opt[OPT_SETUP] == SETUP_ALL2 ? 2
                               : i < 8                         ? 4
                                                               : 0;
    p->side = MC_SOUTH;
    p->first = 3;
}

static int row_total(const mc_pos *p, int side)
{
    int n = 0;
    for (int i = 0; i < 16; i++)
        n += p->pit[bd(side, i)];
    return n;
}

static int can_start(const mc_pos *p, int side)
{
    for (int i = 0; i < 16; i++)
        if (p->pit[bd(side, i)] >= 2)
            return 1;
    return 0;
}

static void annul(mc_result *r, int reason_text_index)
{
    static const char *const why[] = {"never_ending", "repetition", "max_plies",
                                      "no_legal_move"};
    mc_sb b;
    r->over = 1;
    r->winner = MC_DRAW;
    r->reason = MC_END_ANNULLED;
    r->points = 0;
    mc_sb_init(&b, r->detail, sizeof r->detail);
    mc_sb_printf(&b, "annulled %s", why[reason_text_index]);
}

/* W13-W15 in words, from the details annul() and om_status() write. */
static int om_result_words(const mc_game *g, const mc_result *r, mc_sb *b)
{
    int w = r->winner, o = 1 - (w & 1);
    const char *W = mc_side_word(w & 1), *O = mc_side_word(o);
    const char *d = r->detail;
    if (r->reason == MC_END_ANNULLED) {
        const char *cause = strchr(d, ' ') ? strchr(d, ' ') + 1 : "";
        if (strcmp(cause, "never_ending") == 0)
            mc_sb_printf(b, _("a move would never end (W13)."));
        else if (strcmp(cause, "repetition") == 0)
            mc_sb_printf(b, _("the same position occurred for the third "
                              "time (W15)."));
        else if (strcmp(cause, "max_plies") == 0)
            mc_sb_printf(b, _("the game reached its limit of %d plies (W15)."),
                         g->opt[OPT_MAX_PLIES]);
        else
            mc_sb_printf(b, _("the player to move has no legal move."));
        return 1;
    }
    if (r->reason != MC_END_POINTS)
        return 0;
    const char *kind = strchr(d, ' ') ? strchr(d, ' ') + 1 : "";
    if (strcmp(kind, "akawumbi") == 0)
        mc_sb_printf(b,
                     _("akawumbi, %s has no seeds left and %s captured from "
                       "both of %s's end columns; it wins the match at "
                       "once."),
                     O, W, O);
    else if (strcmp(kind, "okutema") == 0)
        mc_sb_printf(b,
                     _("okutema, %s captured from both of %s's end columns "
                       "or emptied all of %s's inner pits with a capture."),
                     W, O, O);
    else if (strcmp(kind, "akakyala") == 0)
        mc_sb_printf(b,
                     _("akakyala, %s's second capturing turn before %s "
                       "captured at all."),
                     W, O);
    else
        mc_sb_printf(b, _("%s has no pit holding 2 or more seeds."), O);
    return 1;
}

/* Every Omweso move is a sowing from its start pit. */
static int om_move_facts(const mc_game *g, const mc_pos *p, mc_move m,
                         mc_move_facts *f)
{
    (void)g;
    f->kind = MC_MOVE_IS_SOW;
    f->pit = bd(p->side, MV_START(m));
    return 1;
}

static void om_status(const mc_game *g, const mc_pos *p, const mc_hist *h,
                      mc_result *r)
{
    /* The order of checks of the rule file: W13, W14, W15, no move. */
    if (p->last & LAST_ANNUL) {
        annul(r, 0);
        return;
    }
    int o = p->side, mv = 1 - o;
    int capt = p->last & LAST_CAPTURE;
    int heads = (p->last & (LAST_COL0 | LAST_COL7)) == (LAST_COL0 | LAST_COL7);
    int inner_empty = 1;
    for (int i = 8; i < 16; i++)
        inner_empty &= p->pit[bd(o, i)] == 0;
    int points = 0;
    const char *kind = NULL;
    if (heads && row_total(p, o) == 0) {
        points = 12;
        kind = "akawumbi";
    } else if (heads || (g->opt[OPT_FRONT] == 0 && capt && inner_empty)) {
        points = 2;
        kind = "okutema";
    } else if (g->opt[OPT_AKAKYALA] == 1 && capt && p->cap[mv] == 2 &&
               p->cap[o] == 0) {
        points = 2;
        kind = "akakyala";
    } else if (!can_start(p, o)) {
        points = 1;
        kind = "ordinary";
    }
    if (points) {
        mc_sb b;
        r->over = 1;
        r->winner = mv;
        r->reason = MC_END_POINTS;
        r->points = points;
        mc_sb_init(&b, r->detail, sizeof r->detail);
        mc_sb_printf(&b, "%d %s", points, kind);
        return;
    }
    if (h->occurrences >= 3) {
        annul(r, 1);
        return;
    }
    if (h->plies >= g->opt[OPT_MAX_PLIES]) {
        annul(r, 2);
        return;
    }
    if (g->opt[OPT_NEVER] == 1) {
        mc_move mvs[MC_MAX_MOVES];
        if (om_moves(g, p, mvs) == 0)
            annul(r, 3);
    }
}

static int om_total(const mc_game *g, const mc_pos *p)
{
    (void)g;
    return row_total(p, 0) + row_total(p, 1);
}

/*
 * The invariants of every position (game.h: pos_ok): 64 seeds on the 32
 * pits (W1), `first` two bits, the fields Omweso does not use zero, and
 * `last` only the LAST_* facts.
 */
static int om_pos_ok(const mc_game *g, const mc_pos *p)
{
    assert(p->side == MC_SOUTH || p->side == MC_NORTH);
    assert(om_total(g, p) == 64);
    assert(p->first <= 3 && p->own == 0 && p->offer == 0 && p->flags == 0);
    assert(p->last <= (LAST_CAPTURE | LAST_COL0 | LAST_COL7 | LAST_ANNUL));
    return 1;
}

/* ---- names -------------------------------------------------------------- */

static const char *const pit_names[32] = {
    "I", "J", "K", "L", "M", "N", "O", "P", "H", "G", "F",
    "E", "D", "C", "B", "A", "i", "j", "k", "l", "m", "n",
    "o", "p", "h", "g", "f", "e", "d", "c", "b", "a"};

static const char *om_pit_name(const mc_game *g, int pit)
{
    (void)g;
    return pit >= 0 && pit < 32 ? pit_names[pit] : "?";
}

static int om_pit_owner(const mc_game *g, const mc_pos *p, int pit)
{
    (void)g;
    (void)p;
    return pit < 16 ? MC_SOUTH : MC_NORTH;
}

static void om_layout(const mc_game *g, mc_layout *l)
{
    (void)g;
    l->rows = 4;
    l->cols = 8;
    for (int x = 0; x < 8; x++) {
        l->pit[0][x] = (int8_t)bd(1, 7 - x);  /* North's outer row */
        l->pit[1][x] = (int8_t)bd(1, 8 + x);  /* North's inner row */
        l->pit[2][x] = (int8_t)bd(0, 15 - x); /* South's inner row */
        l->pit[3][x] = (int8_t)bd(0, x);      /* South's outer row */
    }
    l->stores = 0;
    l->store_name = _("capturing turns");
}

/* ---- position strings --------------------------------------------------- */

static const char pos_form[] =
    N_("expected '<South's 16 pits>/<North's 16 pits> <S|N> first=<SN|S|N|-> "
       "captures=<South>,<North>', e.g. the start '4,4,4,4,4,4,4,4,0,0,0,0,0,"
       "0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0,0'");

/* A count of capturing turns: a whole number up to 65535. */
static const char *parse_turns(const char *s, uint16_t *v)
{
    long n = 0;
    const char *q = s;
    while (*q >= '0' && *q <= '9' && q - s < 6)
        n = n * 10 + (*q++ - '0');
    if (q == s || n > 65535 || (*q >= '0' && *q <= '9'))
        return NULL;
    *v = (uint16_t)n;
    return q;
}

static int om_pos_parse(const mc_game *g, const char *s, mc_pos *p,
                        mc_error *err)
{
    const char *e;
    const mc_head_fmt head = {
        16,
        64,
        {N_("South's pits (field 1)"), N_("North's pits (field 1)")},
        N_("South's 16 pits"),
        "first=<SN|S|N|->",
        pos_form};
    if (mc_parse_head(s, &head, p, &e, err))
        return MC_ERR_POSITION;
    if (strncmp(e, "first=", 6) != 0)
        return mc_err(err, MC_ERR_POSITION,
                      _("field 3: expected 'first=' and the players who have "
                        "not finished their first turn (SN, S, N or -)"));
    e += 6;
    size_t k = strcspn(e, " ");
    if (k == 2 && strncmp(e, "SN", 2) == 0)
        p->first = 3;
    else if (k == 1 && *e == 'S')
        p->first = 1;
    else if (k == 1 && *e == 'N')
        p->first = 2;
    else if (k == 1 && *e == '-')
        p->first = 0;
    else
        return mc_err(err, MC_ERR_POSITION,
                      _("field 3 (first=): '%.*s' is not one of SN, S, N, -"),
                      (int)(k > 20 ? 20 : k), e);
    e += k;
    if (*e != ' ')
        return mc_err(err, MC_ERR_POSITION,
                      _("field 4 (captures=<South>,<North>) is missing; %s"),
                      _(pos_form));
    e++;
    if (strncmp(e, "captures=", 9) != 0)
        return mc_err(err, MC_ERR_POSITION,
                      _("field 4: expected 'captures=<South>,<North>' (each "
                        "player's capturing turns this game)"));
    e += 9;
    const char *q = parse_turns(e, &p->cap[0]);
    if (!q || *q != ',' || !(q = parse_turns(q + 1, &p->cap[1])))
        return mc_err(err, MC_ERR_POSITION,
                      _("field 4 (captures=): expected two whole numbers "
                        "0..65535 separated by a comma, e.g. captures=0,0"));
    if (*q)
        return mc_err(err, MC_ERR_POSITION,
                      _("unexpected text after field 4: '%.20s'"), q);
    int south = row_total(p, 0), north = row_total(p, 1);
    if (south + north != 64)
        return mc_err(err, MC_ERR_POSITION,
                      _("the pits hold %d seeds (South %d, North %d), not 64 "
                        "(W1: the 64 seeds never leave the board)"),
                      south + north, south, north);
    if (g->opt[OPT_SETUP] == SETUP_CUSTOM && p->first == 3 && p->cap[0] == 0 &&
        p->cap[1] == 0) {
        /* Before anyone has moved, a custom game's position is a set-up. */
        if (south != 32 || north != 32)
            return mc_err(err, MC_ERR_POSITION,
                          _("setup=custom: a set-up (first=SN) gives each "
                            "player 32 seeds (W3); South has %d, North %d"),
                          south, north);
        if (g->opt[OPT_SETUP_CAP] == 0)
            for (int i = 0; i < 32; i++)
                if (p->pit[i] > 10)
                    return mc_err(err, MC_ERR_POSITION,
                                  _("setup=custom: pit %s holds %d seeds; a "
                                    "set-up puts at most 10 in a pit (W3, "
                                    "setup_cap=10)"),
                                  pit_names[i], p->pit[i]);
    }
    return 0;
}

static size_t om_pos_format(const mc_game *g, const mc_pos *p, char *buf,
                            size_t n)
{
    static const char *const first[4] = {"-", "S", "N", "SN"};
    (void)g;
    mc_sb b;
    mc_sb_init(&b, buf, n);
    mc_format_head(&b, p, 16);
    mc_sb_printf(&b, " first=%s captures=%d,%d", first[p->first & 3], p->cap[0],
                 p->cap[1]);
    return b.len;
}

/* ---- move strings ------------------------------------------------------- */

static size_t om_move_format(const mc_game *g, const mc_pos *p, mc_move m,
                             char *buf, size_t n)
{
    (void)g;
    mc_sb b;
    mc_sb_init(&b, buf, n);
    mc_sb_printf(&b, "%s", pit_names[bd(p->side, MV_START(m))]);
    if (m & MV_STAR) {
        mc_sb_putc(&b, '*');
    } else if (!(m & MV_ANNUL)) {
        int cnt = MV_COUNT(m);
        for (int k = 0; k < cnt; k++)
            mc_sb_putc(&b, MV_BITS(m) >> k & 1 ? '-' : '+');
    }
    return b.len;
}

/* W2: a match to 12 points, or one game (v_match's order). */
static mc_match_fmt om_match_format(const mc_game *g)
{
    mc_match_fmt points = {MC_FMT_POINTS, 12}, single = {MC_FMT_SINGLE, 1};
    return g->opt[OPT_MATCH] == 0 ? points : single;
}

/* W9 with first_turn_capture=off_first_game: the first-turn ban holds in
   the match's first game only.  An annulled game is replayed (W2), so its
   replay is still the first game (games_before counts completed ones). */
static void om_match_start(const mc_game *g, int games_before, mc_pos *p)
{
    if (g->opt[OPT_FTC] == FTC_FIRST_GAME && games_before > 0)
        p->first = 0;
}

/* W3: setup=custom, at most 10 seeds a pit unless setup_cap=none. */
static int om_custom_setup(const mc_game *g, int *cap)
{
    *cap = g->opt[OPT_SETUP_CAP] == 0 ? 10 : 0;
    return g->opt[OPT_SETUP] == SETUP_CUSTOM;
}

/* mc_move_choice: the directions of the move's reverse choices (W10), or
   the three-seed opening sowing (W12), or a path that never ends (W13). */
static void om_choice_words(const mc_game *g, const mc_pos *p, mc_move m,
                            mc_sb *b)
{
    (void)g;
    (void)p;
    /* TRANSLATORS: ordinals of a move's reverse choices, as in "clockwise
       at the first reverse choice" */
    static const char *const nth[] = {N_("first"),   N_("second"), N_("third"),
                                      N_("fourth"),  N_("fifth"),  N_("sixth"),
                                      N_("seventh"), N_("eighth")};
    if (m & MV_STAR) {
        mc_sb_printf(b, _("the three-seed opening sowing (W12)"));
        return;
    }
    if (m & MV_ANNUL) {
        mc_sb_printf(b, _("a path that never ends: it annuls the game (W13)"));
        return;
    }
    int cnt = MV_COUNT(m);
    if (cnt == 0) {
        mc_sb_printf(b, _("counter-clockwise all the way"));
        return;
    }
    for (int k = 0; k < cnt; k++) {
        int cw = (int)(MV_BITS(m) >> k & 1);
        if (k < 8)
            /* TRANSLATORS: %1$s clockwise or counter-clockwise, %2$s an
               ordinal (first, second...) */
            mc_sb_printf(
                b, _("%1$s%2$s at the %3$s reverse choice"), k ? ", " : "",
                cw ? _("clockwise") : _("counter-clockwise"), _(nth[k]));
        else
            mc_sb_printf(b, _(", %s at choice %d"),
                         cw ? _("clockwise") : _("counter-clockwise"), k + 1);
    }
    mc_sb_printf(b, "%s", _(", then counter-clockwise (W10)"));
}

static size_t list_start_moves(const mc_pos *p, const mc_move *mv, int n, int s,
                               char *buf, size_t sz)
{
    mc_sb b;
    mc_sb_init(&b, buf, sz);
    for (int i = 0; i < n; i++) {
        if (MV_START(mv[i]) != s || (mv[i] & MV_STAR))
            continue;
        char t[MC_MOVE_STRLEN];
        om_move_format(NULL, p, mv[i], t, sizeof t);
        mc_sb_printf(&b, "%s%s", b.len ? " " : "", t);
    }
    return b.len;
}

/* Why no reverse lap can start the move from s (it is not a choice point). */
static int why_not_reverse(const mc_game *g, const mc_pos *p, int s,
                           const char *tok, mc_error *err)
{
    const char *nm = pit_names[bd(p->side, s)];
    if (!LEFT(s))
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s: %s cannot be sown clockwise: a reverse lap starts "
                        "only from one of the four leftmost pits (%s) (W10)"),
                      tok, nm, p->side ? "i, j, a, b" : "I, J, A, B");
    if (g->opt[OPT_REVERSE] == REV_NONE)
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s: reverse laps are off in this game (reverse=none)"),
                      tok);
    if (!captures_on(g, p))
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s: no capture is possible on a player's first turn "
                        "(W9), so no lap may be sown clockwise (W10)"),
                      tok);
    row16 me;
    opp op;
    load_rows(p, &me, &op);
    int n = (int)rget(&me, s), L = (s - n) & 15;
    const char *ln = pit_names[bd(p->side, L)];
    if (L < 8)
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s: sown clockwise, the %d seeds of %s would end in "
                        "%s, an outer pit, which cannot capture; a reverse lap "
                        "must capture (W10)"),
                      tok, n, nm, ln);
    if (!op.b[23 - L] || !op.b[L - 8])
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s: sown clockwise, the %d seeds of %s would end in "
                        "%s, facing %s and %s, which do not both hold seeds: "
                        "no capture, so no reverse lap (W7, W10)"),
                      tok, n, nm, ln, pit_names[bd(1 - p->side, 23 - L)],
                      pit_names[bd(1 - p->side, L - 8)]);
    return mc_err(err, MC_ERR_ILLEGAL,
                  _("%s: sown clockwise, the %d seeds of %s would end in %s, "
                    "which was empty: no capture, so no reverse lap (W7, W10)"),
                  tok, n, nm, ln);
}

/* The three-seed opening sowing "X*" from pit (W12), or why not. */
static int star_move(const mc_game *g, const mc_pos *p, const char *s, int pit,
                     mc_move *m, mc_error *err)
{
    char c = s[0];
    int seeds = p->pit[bd(p->side, pit)];
    if (g->opt[OPT_THREE] == 1)
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s: the three-seed opening sowing is off in this "
                        "game (three_seed=off)"),
                      s);
    if (seeds != 3)
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s: the three-seed opening sowing needs exactly 3 "
                        "seeds in %c, which holds %d (W12)"),
                      s, c, seeds);
    if (!three_seed_on(g, p))
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s: the three-seed opening sowing is allowed only "
                        "until the game's first capture (W12), and there "
                        "have been captures (captures=%d,%d)"),
                      s, p->cap[0], p->cap[1]);
    *m = (mc_move)pit | MV_STAR;
    return 0;
}

/*
 * Why the well-formed sowing s from pit (marks up to the last '-': cnt) is
 * none of the legal moves mv[0..n): a first lap that cannot go clockwise,
 * a start that never ends (W13), or marks that match no path (W10).
 */
static int why_illegal(const mc_game *g, const mc_pos *p, const char *s,
                       int pit, size_t cnt, const mc_move *mv, int n,
                       mc_error *err)
{
    int side = p->side;
    char c = s[0];
    char legal[300];
    size_t nl = list_start_moves(p, mv, n, pit, legal, sizeof legal);
    if (cnt > 0 && s[1] == '-') {
        /* The commonest slip: a first lap that cannot go clockwise. */
        row16 me;
        opp op;
        load_rows(p, &me, &op);
        node x;
        x.me = me;
        x.o = (uint8_t)pit;
        x.n = (uint8_t)rget(&me, pit);
        rset(&x.me, pit, 0);
        unsigned mask = captures_on(g, p) ? cap_mask(op.b) : 0;
        if (!rev_mode(g, mask, 1) || !LEFT(pit) || !cw_captures(&x, mask)) {
            why_not_reverse(g, p, pit, s, err);
            if (err && nl) {
                size_t used = strlen(err->msg);
                mc_sb b;
                mc_sb_init(&b, err->msg + used, sizeof err->msg - used);
                mc_sb_printf(&b, _(" (moves from %c: %s)"), c, legal);
            }
            return MC_ERR_ILLEGAL;
        }
    }
    int annuls = 0;
    for (int i = 0; i < n; i++)
        annuls |= mv[i] == ((mc_move)pit | MV_ANNUL);
    if (annuls)
        return mc_err(
            err, MC_ERR_ILLEGAL,
            _("%s: every way of playing %c comes back to a lap it has "
              "already played and never ends (W13): %c is one move, "
              "written %c, and it annuls the game"),
            s, c, c, c);
    if (!nl && g->opt[OPT_NEVER] == 1)
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s: every way of playing %c never ends (W13), and "
                        "never_ending=exclude makes it no move"),
                      s, c);
    if (cnt == 0)
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s: sown counter-clockwise at every choice, %c comes "
                        "back to a lap it has already played and never ends "
                        "(W13); its moves are: %s"),
                      s, c, legal);
    return mc_err(err, MC_ERR_ILLEGAL,
                  _("%s is not one of the moves from %c (%s): a mark stands "
                    "for a choice point, a lap from %s that can capture "
                    "clockwise (W10), and a path that never ends is no move "
                    "(W13)"),
                  s, c, nl ? legal : _("none"),
                  side ? _("i, j, a or b") : _("I, J, A or B"));
}

static int om_move_parse(const mc_game *g, const mc_pos *p, const char *s,
                         mc_move *m, mc_error *err)
{
    const char *side_name[2] = {mc_side_word(MC_SOUTH), mc_side_word(MC_NORTH)};
    int side = p->side;
    char c = s[0];
    int lower = c >= 'a' && c <= 'p', upper = c >= 'A' && c <= 'P';
    size_t len = strlen(s);
    int star = len == 2 && s[1] == '*';
    int marks_ok = 1;
    for (size_t i = 1; i < len && !star; i++)
        marks_ok &= s[i] == '+' || s[i] == '-';
    if ((!lower && !upper) || (!star && !marks_ok))
        return mc_err(err, MC_ERR_MOVE,
                      _("'%.20s' is not a move: a move is a pit letter (A-P "
                        "for South, a-p for North), then a + or - for each "
                        "choice point (counter-clockwise, clockwise), or a * "
                        "for the three-seed opening"),
                      s);
    if (lower != (side == MC_NORTH))
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%c is one of %s's pits; %s moves from %s"), c,
                      side_name[lower], side_name[side], side ? "a-p" : "A-P");
    int pit = -1;
    for (int i = 0; i < 16; i++)
        if (pit_names[bd(side, i)][0] == c)
            pit = i;
    assert(pit >= 0); /* c is one of the side's 16 letters */
    if (star)
        return star_move(g, p, s, pit, m, err);
    int seeds = p->pit[bd(side, pit)];
    if (seeds < 2)
        return mc_err(err, MC_ERR_ILLEGAL,
                      P_("%c holds %d seed: a move starts from a pit holding "
                         "2 or more (W4)",
                         "%c holds %d seeds: a move starts from a pit holding "
                         "2 or more (W4)",
                         seeds),
                      c, seeds);
    /* Marks up to the last '-'; trailing '+' may be left out. */
    size_t cnt = len - 1;
    while (cnt && s[cnt] == '+')
        cnt--;
    if (cnt > MAXMARKS)
        return mc_err(err, MC_ERR_MOVE,
                      _("%.20s...: more than %d choice marks up to the last "
                        "'-' cannot be written"),
                      s, MAXMARKS);
    uint64_t bits = 0;
    for (size_t k = 0; k < cnt; k++)
        if (s[k + 1] == '-')
            bits |= (uint64_t)1 << k;
    mc_move want = mv_make(pit, (int)cnt, bits);
    mc_move mv[MC_MAX_MOVES];
    int n = om_moves(g, p, mv);
    for (int i = 0; i < n; i++)
        if (mv[i] == want) {
            *m = want;
            return 0;
        }
    for (int i = 0; i < n; i++)
        if (cnt == 0 && mv[i] == ((mc_move)pit | MV_ANNUL)) {
            *m = mv[i];
            return 0;
        }
    return why_illegal(g, p, s, pit, cnt, mv, n, err);
}

/* ---- trace descriptions ------------------------------------------------- */

/* The pits a lap of n seeds from pit sows, for a player to follow. */
static void lap_pits(mc_sb *b, int pit, unsigned n, int dir)
{
    int side = pit / 16, o = pit % 16;
    const char *way =
        dir ? _("clockwise (a reverse lap)") : _("counter-clockwise");
    int last = dir ? (o - (int)(n & 15)) & 15 : (o + (int)(n & 15)) & 15;
    if (n <= 16) {
        /* TRANSLATORS: the way a lap goes, then the pits it sows */
        mc_sb_printf(b, _("%s into "), way);
        for (unsigned k = 1; k <= n; k++) {
            int j = dir ? (o - (int)k) & 15 : (o + (int)k) & 15;
            mc_sb_printf(b, "%s%s", k > 1 ? ", " : "", pit_names[bd(side, j)]);
        }
    } else {
        static const char *const times[5] = {
            "", N_("once"), N_("twice"), N_("three times"), N_("four times")};
        mc_sb_printf(b,
                     _("%s: %s round all 16 pits and %u more, the last into "
                       "%s"),
                     way, _(times[n / 16 > 4 ? 4 : n / 16]), n % 16,
                     pit_names[bd(side, last)]);
    }
}

static size_t om_describe(const mc_game *g, const mc_trace_event *e, char *buf,
                          size_t n)
{
    (void)g;
    const char *who[2] = {mc_side_word(MC_SOUTH), mc_side_word(MC_NORTH)};
    mc_sb b;
    mc_sb_init(&b, buf, n);
    const char *h = om_pit_name(g, e->pit);
    switch (e->kind) {
    case MC_TR_LIFT:
        if (e->aux == 0)
            mc_sb_printf(&b, _("lifts the %u seeds of %s"), e->n, h);
        else
            mc_sb_printf(&b,
                         e->aux == 2
                             ? _("the last seed falls in %s, which held seeds "
                                 "(it would capture, but not on a player's "
                                 "first turn, W9): relay, lifting its %u "
                                 "seeds")
                             : _("the last seed falls in %s, which held "
                                 "seeds: relay, lifting its %u seeds"),
                         h, e->n);
        break;
    case MC_TR_LAP:
        /* TRANSLATORS: the way and the pits follow ("counter-clockwise
           into B, C") */
        mc_sb_printf(&b, _("sows %u from %s "), e->n, h);
        lap_pits(&b, e->pit, e->n, e->aux & 1);
        break;
    case MC_TR_RESOW:
        mc_sb_printf(&b, _("sows the %u captured seeds from %s "), e->n, h);
        lap_pits(&b, e->pit, e->n, e->aux & 1);
        break;
    case MC_TR_CAPTURE: {
        /* The mover's inner pit that faces the captured one (W7). */
        int own = e->pit % 16, side = e->aux & 1;
        int L = own >= 8 ? 23 - own : own + 8;
        /* TRANSLATORS: %1$s the side, %2$u seeds, %3$s the captured pit,
           %4$s the capturer's pit that faces it */
        mc_sb_printf(&b,
                     P_("%1$s captures the %2$u seed of %3$s, facing %4$s",
                        "%1$s captures the %2$u seeds of %3$s, facing %4$s",
                        e->n),
                     who[side], e->n, h, pit_names[bd(side, L)]);
        break;
    }
    case MC_TR_END:
        mc_sb_printf(&b,
                     _("the last seed falls in %s, which was empty: the "
                       "move ends"),
                     h);
        break;
    case MC_TR_OPENING: {
        int side = e->pit / 16, o = e->pit % 16;
        mc_sb_printf(&b,
                     _("three-seed opening: 2 seeds from %s into %s and 1 "
                       "into %s; the move ends (W12)"),
                     h, pit_names[bd(side, (o + 1) & 15)],
                     pit_names[bd(side, (o + 2) & 15)]);
        break;
    }
    case MC_TR_ANNUL:
        mc_sb_printf(&b,
                     _("%s never ends: every way of sowing it comes back to a "
                       "lap already played (W13); the game is annulled"),
                     h);
        break;
    default:
        mc_sb_printf(&b, "?");
    }
    return b.len;
}

/* ---- set-up ------------------------------------------------------------- */

static row16 om_add[2][65][16];
static pthread_once_t om_add_once = PTHREAD_ONCE_INIT;

static void om_add_init(void)
{
    for (int o = 0; o < 16; o++)
        for (int r = 0; r < 16; r++)
            for (int k = 1; k <= r; k++) {
                rset(&om_add[0][r][o], (o + k) & 15, 1);
                rset(&om_add[1][r][o], (o - k) & 15, 1);
            }
    /* n >= 16: every pit gets n / 16 (the origin too, W5), then the rest. */
    for (int dir = 0; dir < 2; dir++)
        for (int o = 0; o < 16; o++)
            for (int n = 16; n <= 64; n++)
                for (int w = 0; w < 2; w++)
                    om_add[dir][n][o].w[w] =
                        om_add[dir][n % 16][o].w[w] +
                        (uint64_t)(n / 16) * 0x0101010101010101ull;
}

static int om_init(mc_game *g, mc_error *err)
{
    om_data *d = calloc(1, sizeof *d);
    if (!d)
        return mc_err(err, MC_ERR_NOMEM, _("out of memory"));
    pthread_once(&om_add_once, om_add_init);
    d->add = (const row16(*)[65][16])om_add;
    g->data = d;
    return 0;
}

static void om_fini(mc_game *g)
{
    om_data *d = g->data;
    if (d)
        free(d->cache);
    free(d);
    g->data = NULL;
}

/* Test hook (not in the public header): the engine's counters, in the order
   of ST_*: branches or moves dropped for lack of room, cycles found, the
   longest chain, cache hits, most moves and most marks seen, cycles with
   choice points, and second visits of a choice point (see chain_run). */
int mc_omweso_stats(const mc_game *g, long *out, int n);
int mc_omweso_stats(const mc_game *g, long *out, int n)
{
    const om_data *d = g->data;
    int k = 0;
    for (; k < n && k < ST_N; k++)
        out[k] = d ? d->st[k] : 0;
    return k;
}

/*
 * Evaluation for the search, in hundredths of a seed from the mover's view.
 * Seeds never leave the board, so what counts is where they are: seeds on
 * one's own 16 pits (a capture moves a whole column across), and pits
 * holding 2 or more (the moves one has; W4: a player without one loses).
 */
static int om_eval(const mc_game *g, const mc_pos *p, const int *w)
{
    (void)g;
    (void)w; /* no tuned weights */
    const uint8_t *mine = p->pit + 16 * p->side;
    const uint8_t *theirs = p->pit + 16 * (1 - p->side);
    int seeds = 0, mobile = 0;
    for (int i = 0; i < 16; i++) {
        seeds += mine[i] - theirs[i];
        mobile += (mine[i] >= 2) - (theirs[i] >= 2);
    }
    return 100 * seeds + 50 * mobile;
}

/*
 * Features of the learned evaluation (learned.c), from the mover's view:
 * each pit's seeds (0..9+, by the owner's own index: outer row 0..7, inner
 * row 8..15), the pits of 2 or more (the moves one has), the seeds on each
 * side (0..64), and whose first move is still to come.
 */
enum {
    WF_BIAS = 0,
    WF_PIT = 1,                  /* 2 sides x 16 pits x 10 */
    WF_MOB = WF_PIT + 32 * 10,   /* 2 x 17 */
    WF_SIDE = WF_MOB + 2 * 17,   /* 2 x 65 */
    WF_FIRST = WF_SIDE + 2 * 65, /* 2 */
    WF_N = WF_FIRST + 2
};

static const mc_feat_group om_groups[] = {
    {"bias", 1},          {"pit.mine", 160},      {"pit.theirs", 160},
    {"movable.mine", 17}, {"movable.theirs", 17}, {"side.mine", 65},
    {"side.theirs", 65},  {"first", 2},           {NULL, 0},
};

static int om_features(const mc_game *g, const mc_pos *p, mc_feature *f)
{
    (void)g;
    int k = 0;
    f[k++] = (mc_feature){WF_BIAS, 1};
    for (int r = 0; r < 2; r++) {
        int s = r == 0 ? p->side : 1 - p->side;
        int mob = 0, side = 0;
        for (int i = 0; i < 16; i++) {
            int c = p->pit[bd(s, i)];
            mob += c >= 2;
            side += c;
            f[k++] = (mc_feature){
                (uint16_t)(WF_PIT + 10 * (16 * r + i) + (c > 9 ? 9 : c)), 1};
        }
        f[k++] = (mc_feature){(uint16_t)(WF_MOB + 17 * r + mob), 1};
        f[k++] = (mc_feature){
            (uint16_t)(WF_SIDE + 65 * r + (side > 64 ? 64 : side)), 1};
        if (p->first & (1u << s))
            f[k++] = (mc_feature){(uint16_t)(WF_FIRST + r), 1};
    }
    return k;
}

/* W16: the playing program's modes, as time controls of the session. */
static const mc_time_mode_def om_time_modes[] = {
    {"classic", NULL, "none", MC_FLAG_LOSS, 0, N_("untimed (W16)")},
    {"contract", NULL, "none", MC_FLAG_LOSS, 1,
     N_("untimed, no take-backs: undo is refused (W16)")},
    {"blitz", "blitz,blitz_timeout=pass|blitz:blitz_timeout=pass", "move:3",
     MC_FLAG_PASS, 0,
     N_("3 seconds a move; when the time runs out the turn passes to the "
        "opponent (W16)")},
    {"blitz:loss", "blitz,blitz_timeout=loss|blitz:blitz_timeout=loss",
     "move:3", MC_FLAG_LOSS, 0,
     N_("3 seconds a move; running out of time loses the game (W16, "
        "blitz_timeout=loss)")},
    {NULL, NULL, NULL, 0, 0, NULL}};

/* Machine learning (docs/PYTHON.md).  An action is start + 16 * slot:
   start the own index of the start pit (0..15), slot 0 the three-seed
   opening sowing '*', 1 the never-ending move, else 2 + c for a sowing
   whose marks up to the last '-' are the k-bit pattern b (bit j = mark j
   is '-'): c = 2^k - 1 + b.  Up to ML_MARKS marks have an index; a move
   with more has none (the most seen in random play is 10). */
#define ML_MARKS 10
#define ML_ACTIONS (16 * (2 + (2 << ML_MARKS) - 1))

static long om_action_index(const mc_game *g, const mc_pos *p, mc_move m)
{
    (void)g;
    (void)p;
    long start = MV_START(m);
    if (m & MV_STAR)
        return start;
    if (m & MV_ANNUL)
        return start + 16;
    int k = MV_COUNT(m);
    if (k > ML_MARKS)
        return -1;
    long c = (1L << k) - 1 + (long)MV_BITS(m);
    return start + 16 * (2 + c);
}

/* The observation: the mover's 16 pits then the opponent's, each in its
   owner's own index order (I..P, H..A), then 1 when the mover has its
   first turn to play, 1 when the opponent has, then the capturing turns
   of the mover and of the opponent (W14). */
static void om_observe(const mc_game *g, const mc_pos *p, float *out)
{
    (void)g;
    const int me = 16 * p->side, you = 16 - me;
    for (int i = 0; i < 16; i++) {
        out[i] = p->pit[me + i];
        out[16 + i] = p->pit[you + i];
    }
    out[32] = p->first >> p->side & 1;
    out[33] = p->first >> (1 - p->side) & 1;
    out[34] = p->cap[p->side];
    out[35] = p->cap[1 - p->side];
}

const mc_rules mc_rules_omweso = {
    .time_modes = om_time_modes,
    .eval = om_eval,
    .features = om_features,
    .nfeat = WF_N,
    .feat_groups = om_groups,
    .name = "omweso",
    .title = N_("Omweso"),
    .npits = 32,
    .opts = om_opts,
    .presets = NULL,
    .init = om_init,
    .fini = om_fini,
    .start = om_start,
    .moves = om_moves,
    .moves_all = om_moves_all,
    .play = om_play,
    .status = om_status,
    .total = om_total,
    .pos_ok = om_pos_ok,
    .pos_parse = om_pos_parse,
    .pos_format = om_pos_format,
    .move_parse = om_move_parse,
    .move_format = om_move_format,
    .match_format = om_match_format,
    .match_start = om_match_start,
    .custom_setup = om_custom_setup,
    .choice_words = om_choice_words,
    .layout = om_layout,
    .pit_name = om_pit_name,
    .pit_owner = om_pit_owner,
    .describe = om_describe,
    .result_words = om_result_words,
    .move_facts = om_move_facts,
    .nactions = ML_ACTIONS,
    .action_index = om_action_index,
    .obs_size = 36,
    .observe = om_observe,
    /* K 861.1: `mancala tune omweso gen --games 600 --nodes 3000
       --random-plies 2` then `tune omweso fit` (11,605 positions); no
       learned weights are kept for Omweso (docs/SEARCH.md), only K. */
    .win_scale = 861.1,
    .score_in_seeds = 0,
};
