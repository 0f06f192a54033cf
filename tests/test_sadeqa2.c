/*
 * test_sadeqa2.c - Sadeqa II beyond the rule cases: an independent
 * reference (seed-by-seed sowing, Floyd's cycle finding, no tables, no
 * cache) checked against the library on every board of up to 9 seeds and
 * on every position of many random games; the worked example's 72-lap
 * cycle; end rules (S7, S8) through mc_status; round trips of position and
 * move strings; traces; perft from the start.
 *
 * usage: test_sadeqa2 [tests-dir] [--full]
 * --full adds the heavy checks (every board of 10..13 seeds, more random
 * games); `make check` runs the quick set only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mancala.h"

#define NH 12

/* ---- the reference: the rule text, literally --------------------------- */

typedef struct rstate {
    uint8_t b[NH];
    int o; /* the hole the next lap is lifted from */
} rstate;

static int rsame(const rstate *a, const rstate *b)
{
    return a->o == b->o && memcmp(a->b, b->b, NH) == 0;
}

/* Sow one lap (S3) seed by seed.  Returns 1 and the next lap-start state in
   s if the last hole was occupied before the last seed (S4), else 0 with s
   holding the final board and s->o the last hole. */
static int rlap(rstate *s, int skip)
{
    int o = s->o, n = s->b[o], j = o;
    s->b[o] = 0;
    while (n > 0) {
        j = (j + 1) % NH;
        if (skip && j == o)
            continue;
        s->b[j]++;
        n--;
    }
    s->o = j;
    return s->b[j] > 1;
}

typedef struct rresult {
    int ends;         /* 0: never ends (S5) */
    uint8_t b[NH];    /* board after the move, capture done */
    int end, removed; /* last hole, seeds removed (S6) */
    long laps;        /* laps sown (ends) */
    long mu, lam;     /* first repeated state, cycle length (never) */
} rresult;

static void rmove(const uint8_t *b0, int hole, int skip, rresult *r)
{
    rstate x0, t, h;
    memcpy(x0.b, b0, NH);
    x0.o = hole;
    memset(r, 0, sizeof *r);
    /* Floyd: the hare takes two laps for the tortoise's one; if the hare's
       relay ends, the move ends. */
    t = h = x0;
    for (;;) {
        if (!rlap(&h, skip) || !rlap(&h, skip)) {
            r->ends = 1;
            break;
        }
        rlap(&t, skip);
        if (rsame(&t, &h))
            break;
    }
    if (r->ends) {
        rstate s = x0;
        r->laps = 1;
        while (rlap(&s, skip))
            r->laps++;
        r->end = s.o;
        int f = NH - 1 - s.o;
        r->removed = s.b[f];
        s.b[f] = 0;
        memcpy(r->b, s.b, NH);
        return;
    }
    t = x0;
    while (!rsame(&t, &h)) {
        rlap(&t, skip);
        rlap(&h, skip);
        r->mu++;
    }
    h = t;
    do {
        rlap(&h, skip);
        r->lam++;
    } while (!rsame(&t, &h));
}

/* Legal moves by S2, from the reference's verdicts. */
static int rmoves(const mc_pos *p, int skip, int first_rule, mc_move *out)
{
    int side = p->side, base = 6 * side, n = 0;
    int pending = p->first >> side & 1;
    int bound =
        pending && (first_rule == 0 || (first_rule == 1 && p->first == 3));
    rresult r;
    if (bound && p->pit[base + 5]) {
        rmove(p->pit, base + 5, skip, &r);
        if (r.ends) {
            out[0] = (mc_move)(base + 5);
            return 1;
        }
    }
    for (int i = base; i < base + 6; i++) {
        if (!p->pit[i])
            continue;
        rmove(p->pit, i, skip, &r);
        if (r.ends)
            out[n++] = (mc_move)i;
    }
    return n;
}

static int board_sum(const mc_pos *p)
{
    int s = 0;
    for (int i = 0; i < NH; i++)
        s += p->pit[i];
    return s;
}

static void fmt(const mc_game *g, const mc_pos *p, char *buf)
{
    mc_pos_format(g, p, buf, MC_POS_STRLEN);
}

/* ---- every board of n seeds --------------------------------------------- */

typedef void (*board_fn)(const uint8_t *b, void *ctx);

static void each_board(uint8_t *b, int i, int left, board_fn fn, void *ctx)
{
    if (i == NH - 1) {
        b[i] = (uint8_t)left;
        fn(b, ctx);
        return;
    }
    for (int v = 0; v <= left; v++) {
        b[i] = (uint8_t)v;
        each_board(b, i + 1, left - v, fn, ctx);
    }
}

typedef struct enum_ctx {
    const mc_game *g;
    long boards, never, mismatches, ref_checked;
    int with_ref;  /* also compare every move with the reference */
    rstate *cycle; /* the worked example's cycle (9 seeds) */
    long ncycle, off_cycle;
} enum_ctx;

static void check_board(const uint8_t *b, void *vctx)
{
    enum_ctx *c = vctx;
    c->boards++;
    for (int side = 0; side < 2; side++) {
        mc_pos p;
        memset(&p, 0, sizeof p);
        memcpy(p.pit, b, NH);
        p.side = (uint8_t)side;
        mc_move mv[MC_MAX_MOVES];
        int n = mc_moves(c->g, &p, mv), k = 0;
        for (int i = 6 * side; i < 6 * side + 6; i++) {
            if (!b[i])
                continue;
            int legal = k < n && (int)mv[k] == i;
            k += legal;
            if (!legal) {
                c->never++;
                if (c->cycle) {
                    rstate s;
                    memcpy(s.b, b, NH);
                    s.o = i;
                    int found = 0;
                    for (long j = 0; j < c->ncycle && !found; j++)
                        found = rsame(&s, &c->cycle[j]);
                    c->off_cycle += !found;
                }
            }
            if (c->with_ref) {
                rresult r;
                rmove(b, i, 0, &r);
                c->ref_checked++;
                if (r.ends != legal) {
                    c->mismatches++;
                    continue;
                }
                if (legal) {
                    mc_pos q = p;
                    mc_play(c->g, &q, (mc_move)i, NULL);
                    if (memcmp(q.pit, r.b, NH) != 0)
                        c->mismatches++;
                }
            }
        }
        if (k != n)
            c->mismatches++; /* a listed move that is not an occupied hole */
    }
}

static void test_small_boards(int full)
{
    mc_game *g = mc_game_new("sadeqa2", NULL);
    uint8_t b[NH];
    /* Up to 8 seeds: every move of every board ends (rule file, sec. 4). */
    enum_ctx c;
    memset(&c, 0, sizeof c);
    c.g = g;
    c.with_ref = 1;
    for (int n = 1; n <= 8; n++)
        each_board(b, 0, n, check_board, &c);
    CHECK_MSG(c.boards == 125969, "boards of 1..8 seeds: %ld", c.boards);
    CHECK_MSG(c.never == 0, "%ld never-ending moves with 8 or fewer seeds",
              c.never);
    CHECK_MSG(c.mismatches == 0, "%ld disagreements with the reference",
              c.mismatches);

    /* The worked example's B: the lap-start state recurs after 72 laps,
       and it is the very first one (the cycle has no tail). */
    static const uint8_t ex[NH] = {1, 3, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0};
    rresult r;
    rmove(ex, 1, 0, &r);
    CHECK(!r.ends);
    CHECK_MSG(r.mu + r.lam == 72 && r.mu == 0, "mu %ld lam %ld", r.mu, r.lam);

    /* Its 72 lap-start states, all distinct. */
    rstate cyc[72], s;
    memcpy(s.b, ex, NH);
    s.o = 1;
    for (int i = 0; i < 72; i++) {
        cyc[i] = s;
        CHECK(rlap(&s, 0));
    }
    CHECK(rsame(&s, &cyc[0]));
    int distinct = 1;
    for (int i = 0; i < 72; i++)
        for (int j = i + 1; j < 72; j++)
            distinct &= !rsame(&cyc[i], &cyc[j]);
    CHECK(distinct);

    /* 9 seeds: never-ending moves exist, exactly those 72: every 9-seed
       relay that never ends runs round the example's cycle. */
    memset(&c, 0, sizeof c);
    c.g = g;
    c.with_ref = 1;
    c.cycle = cyc;
    c.ncycle = 72;
    each_board(b, 0, 9, check_board, &c);
    CHECK_MSG(c.boards == 167960, "boards of 9 seeds: %ld", c.boards);
    CHECK_MSG(c.never == 72, "%ld never-ending moves with 9 seeds", c.never);
    CHECK_MSG(c.off_cycle == 0,
              "%ld never-ending 9-seed moves off the "
              "example's cycle",
              c.off_cycle);
    CHECK_MSG(c.mismatches == 0, "%ld disagreements with the reference",
              c.mismatches);

    if (full) {
        /* The long cycle of tests/rules/sadeqa2/rules.t (S5): 1 241 796
           laps back to its own start. */
        static const uint8_t big[NH] = {5, 4, 5, 2, 5, 1, 0, 4, 3, 2, 3, 2};
        rmove(big, 3, 0, &r);
        CHECK_MSG(!r.ends && r.mu == 0 && r.lam == 1241796,
                  "long cycle: ends %d mu %ld lam %ld", r.ends, r.mu, r.lam);
        /* Never-ending moves per seed count (docs/sadeqa2S-sadeqa2.md). */
        static const long want[] = {0, 732, 252, 4212};
        for (int n = 10; n <= 13; n++) {
            memset(&c, 0, sizeof c);
            c.g = g;
            c.with_ref = 1;
            each_board(b, 0, n, check_board, &c);
            printf("  %d seeds: %ld boards, %ld never-ending moves, %ld "
                   "moves checked against the reference\n",
                   n, c.boards, c.never, c.ref_checked);
            CHECK_MSG(c.never == want[n - 10], "%d seeds: %ld never-ending", n,
                      c.never);
            CHECK_MSG(c.mismatches == 0, "%d seeds: %ld disagreements", n,
                      c.mismatches);
        }
    }
    mc_game_free(g);
}

/* ---- the 170-lap relay -------------------------------------------------- */

static void test_long_relay(void)
{
    mc_game *g = mc_game_new("sadeqa2", NULL);
    mc_pos p, q;
    char buf[MC_POS_STRLEN];
    CHECK(mc_pos_parse(g, "4,2,1,5,1,0/8,0,2,1,0,3 S first=-", &p, NULL) == 0);
    rresult r;
    rmove(p.pit, 0, 0, &r);
    CHECK(r.ends);
    CHECK_MSG(r.laps == 170, "laps %ld", r.laps);
    q = p;
    static mc_trace_event ev[20000];
    mc_trace t = {ev, 20000, 0, 0};
    int fl = mc_play(g, &q, 0, &t);
    CHECK(memcmp(q.pit, r.b, NH) == 0);
    fmt(g, &q, buf);
    CHECK_STR(buf, "2,1,2,1,5,0/1,5,0,5,0,1 N first=-");
    long laps = 0;
    for (size_t i = 0; i < t.len; i++)
        laps += ev[i].kind == MC_TR_LAP;
    /* Each relay lap, the 2nd to the 170th, is announced in the trace. */
    CHECK_MSG(laps == 169 && t.dropped == 0, "trace relay laps %ld", laps);
    CHECK(r.removed == 4 && (fl & MC_PLAY_IRREVERSIBLE));
    mc_game_free(g);
}

/* ---- random games against the reference -------------------------------- */

static const char *const specs[] = {
    "sadeqa2",
    "sadeqa2:skip_origin=on",
    "sadeqa2:first_rule=starter,first=north",
    "sadeqa2:first_rule=none,skip_origin=on",
    "sadeqa2:stuck=draw,repetition=more_seeds",
};

static void check_trace(const mc_game *g, const mc_trace *t, const rresult *r,
                        int *bad)
{
    long laps = 0, drops = 0, end = -1, removed = 0;
    char d[160];
    for (size_t i = 0; i < t->len; i++) {
        const mc_trace_event *e = &t->ev[i];
        laps += e->kind == MC_TR_LAP;
        drops += e->kind == MC_TR_DROP;
        if (e->kind == MC_TR_END)
            end = e->pit;
        if (e->kind == MC_TR_CAPTURE)
            removed += e->n;
        if (mc_trace_describe(g, e, d, sizeof d) == 0 || strchr(d, '?'))
            *bad |= 1;
    }
    if (t->dropped == 0 && (laps + 1 != r->laps || end != r->end ||
                            removed != r->removed || drops < laps))
        *bad |= 2;
}

static void test_random_games(int ngames)
{
    mc_rng rng;
    mc_rng_seed(&rng, 20261129);
    static mc_trace_event ev[4096];
    for (size_t si = 0; si < sizeof specs / sizeof specs[0]; si++) {
        mc_game *g = mc_game_new(specs[si], NULL);
        int skip = strcmp(mc_game_option(g, "skip_origin"), "on") == 0;
        const char *fr = mc_game_option(g, "first_rule");
        int first_rule = fr[0] == 'b' ? 0 : fr[0] == 's' ? 1 : 2;
        long plies = 0, move_bad = 0, seeds_up = 0, flag_bad = 0, end_bad = 0,
             unended = 0, trace_bad = 0, rt_bad = 0;
        long ends[16] = {0};
        for (int gi = 0; gi < ngames; gi++) {
            /* Half the games start from a random position, some with a
               heavy hole (laps of 12 and more, where skip_origin matters),
               most with few seeds (where repetitions happen). */
            mc_pos start;
            mc_start(g, &start);
            if (gi & 1) {
                memset(&start, 0, sizeof start);
                int total = 2 + (int)mc_rng_below(&rng, gi & 2 ? 35 : 8);
                int heavy = (int)mc_rng_below(&rng, NH);
                for (int k = 0; k < total; k++)
                    start
                        .pit[mc_rng_below(&rng, 3) ? (int)mc_rng_below(&rng, NH)
                                                   : heavy]++;
                start.side = (uint8_t)mc_rng_below(&rng, 2);
                start.first = (uint8_t)mc_rng_below(&rng, 4);
            }
            mc_session *s = mc_session_new(g, &start);
            int guard = 0;
            while (!mc_session_over(s) && guard++ < 1000) {
                const mc_pos *p = mc_session_pos(s);
                mc_move mv[MC_MAX_MOVES], rm[MC_MAX_MOVES];
                int n = mc_session_moves(s, mv);
                int rn = rmoves(p, skip, first_rule, rm);
                if (n != rn || memcmp(mv, rm, (size_t)n * sizeof mv[0]))
                    move_bad++;
                if (n == 0)
                    break;
                /* Every legal move against the reference, and its token. */
                for (int k = 0; k < n; k++) {
                    rresult r;
                    rmove(p->pit, (int)mv[k], skip, &r);
                    mc_pos q = *p;
                    mc_trace t = {ev, 4096, 0, 0};
                    int fl = mc_play(g, &q, mv[k], &t);
                    int tb = 0;
                    check_trace(g, &t, &r, &tb);
                    trace_bad += tb != 0;
                    if (memcmp(q.pit, r.b, NH) != 0 || q.side == p->side)
                        move_bad++;
                    if (board_sum(&q) != board_sum(p) - r.removed ||
                        board_sum(&q) > board_sum(p))
                        seeds_up++;
                    int irr = r.removed > 0 || (p->first >> p->side & 1);
                    if (!!(fl & MC_PLAY_IRREVERSIBLE) != irr ||
                        (q.first >> p->side & 1))
                        flag_bad++;
                    char tok[MC_MOVE_STRLEN];
                    mc_move back;
                    mc_move_format(g, p, mv[k], tok, sizeof tok);
                    if (mc_move_parse(g, p, tok, &back, NULL) != 0 ||
                        back != mv[k])
                        rt_bad++;
                }
                mc_move m = mv[mc_rng_below(&rng, (uint32_t)n)];
                mc_session_play(s, m, NULL, NULL);
                plies++;
                char a[MC_POS_STRLEN], b2[MC_POS_STRLEN];
                mc_pos back;
                fmt(g, mc_session_pos(s), a);
                if (mc_pos_parse(g, a, &back, NULL) != 0 ||
                    memcmp(&back, mc_session_pos(s), sizeof back) != 0)
                    rt_bad++;
                fmt(g, &back, b2);
                rt_bad += strcmp(a, b2) != 0;
            }
            mc_result res;
            mc_session_result(s, &res);
            const mc_pos *p = mc_session_pos(s);
            int ply = mc_session_ply(s);
            if (!res.over) {
                unended++;
            } else {
                ends[res.reason & 15]++;
                mc_move mv[MC_MAX_MOVES];
                int n = mc_moves(g, p, mv);
                int own = 0;
                for (int i = 6 * p->side; i < 6 * p->side + 6; i++)
                    own += p->pit[i];
                mc_hist h;
                mc_session_hist(s, &h);
                switch (res.reason) {
                case MC_END_NOMOVE: /* S7: the mover has no seeds, loses */
                    end_bad += n != 0 || own != 0 ||
                               res.winner != 1 - p->side ||
                               strcmp(res.detail, "nomove") != 0;
                    break;
                case MC_END_STUCK:
                    end_bad +=
                        n != 0 || own == 0 || strcmp(res.detail, "stuck") != 0;
                    break;
                case MC_END_REPETITION:
                    end_bad += n == 0 || h.occurrences < 3 ||
                               strcmp(res.detail, "repetition") != 0;
                    break;
                case MC_END_PLIES:
                    end_bad += n == 0 || ply != 300 || h.occurrences >= 3 ||
                               strcmp(res.detail, "plies") != 0;
                    break;
                default:
                    end_bad++;
                }
                end_bad += ply > 300;
            }
            mc_session_free(s);
        }
        printf("  %s: %d games, %ld plies; ends nomove %ld stuck %ld "
               "repetition %ld plies %ld\n",
               specs[si], ngames, plies, ends[MC_END_NOMOVE],
               ends[MC_END_STUCK], ends[MC_END_REPETITION], ends[MC_END_PLIES]);
        CHECK_MSG(move_bad == 0, "%s: %ld disagreements with the reference",
                  specs[si], move_bad);
        CHECK_MSG(seeds_up == 0, "%s: %ld moves changed the seeds wrongly",
                  specs[si], seeds_up);
        CHECK_MSG(flag_bad == 0, "%s: %ld wrong play flags / first bits",
                  specs[si], flag_bad);
        CHECK_MSG(end_bad == 0, "%s: %ld games ended wrongly", specs[si],
                  end_bad);
        CHECK_MSG(unended == 0, "%s: %ld games did not end", specs[si],
                  unended);
        CHECK_MSG(trace_bad == 0, "%s: %ld traces disagree", specs[si],
                  trace_bad);
        CHECK_MSG(rt_bad == 0, "%s: %ld notation round trips failed", specs[si],
                  rt_bad);
        mc_game_free(g);
    }
}

/* mc_random_game (the bench's loop): every game ends, within 300 plies. */
static void test_mc_random_game(int ngames)
{
    mc_game *g = mc_game_new("sadeqa2", NULL);
    mc_pos start;
    mc_start(g, &start);
    mc_rng rng;
    mc_rng_seed(&rng, 7);
    long bad = 0, wins[3] = {0, 0, 0};
    for (int i = 0; i < ngames; i++) {
        mc_result r;
        int plies = mc_random_game(g, &start, &rng, 0, &r);
        bad += !r.over || plies < 3 || plies > 300 || r.winner < 0 ||
               r.winner > 2 || !r.detail[0];
        wins[r.winner >= 0 && r.winner <= 2 ? r.winner : 2]++;
    }
    CHECK_MSG(bad == 0, "%ld random games unfinished or odd", bad);
    /* Both sides win some: a one-sided result would mean a broken rule. */
    CHECK(wins[0] > ngames / 10 && wins[1] > ngames / 10);
    mc_game_free(g);
}

/* ---- round trips of random position strings ----------------------------- */

static void test_round_trips(void)
{
    mc_game *g = mc_game_new("sadeqa2", NULL);
    mc_rng rng;
    mc_rng_seed(&rng, 3);
    long bad = 0;
    for (int i = 0; i < 20000; i++) {
        mc_pos p, back;
        memset(&p, 0, sizeof p);
        int total = 1 + (int)mc_rng_below(&rng, 36);
        for (int k = 0; k < total; k++)
            p.pit[mc_rng_below(&rng, NH)]++;
        p.side = (uint8_t)mc_rng_below(&rng, 2);
        p.first = (uint8_t)mc_rng_below(&rng, 4);
        char a[MC_POS_STRLEN], b[MC_POS_STRLEN];
        fmt(g, &p, a);
        if (mc_pos_parse(g, a, &back, NULL) != 0 ||
            memcmp(&p, &back, sizeof p) != 0) {
            bad++;
            continue;
        }
        fmt(g, &back, b);
        bad += strcmp(a, b) != 0;
        bad += mc_total(g, &p) != total;
    }
    CHECK_MSG(bad == 0, "%ld position round trips failed", bad);
    mc_game_free(g);
}

/* ---- end rules through mc_status ---------------------------------------- */

static void status_of(const char *spec, const char *pos, int occ, int plies,
                      mc_result *r)
{
    mc_game *g = mc_game_new(spec, NULL);
    mc_pos p;
    CHECK(mc_pos_parse(g, pos, &p, NULL) == 0);
    mc_hist h = {occ, plies, 0};
    mc_status(g, &p, &h, r);
    mc_game_free(g);
}

static void test_status(void)
{
    mc_result r;
    const char *mid = "2,1,0,0,0,0/0,0,0,1,0,0 S first=-";
    /* S8: the 300th ply ends the game, the 299th does not. */
    status_of("sadeqa2", mid, 1, 299, &r);
    CHECK(!r.over);
    status_of("sadeqa2", mid, 1, 300, &r);
    CHECK(r.over && r.winner == MC_DRAW && r.reason == MC_END_PLIES);
    CHECK_STR(r.detail, "plies");
    /* ... and the third occurrence, not the second. */
    status_of("sadeqa2", mid, 2, 10, &r);
    CHECK(!r.over);
    status_of("sadeqa2", mid, 3, 10, &r);
    CHECK(r.over && r.winner == MC_DRAW && r.reason == MC_END_REPETITION);
    CHECK_STR(r.detail, "repetition");
    /* more_seeds: South 3, North 1 -> South, for both endings. */
    status_of("sadeqa2:repetition=more_seeds", mid, 3, 10, &r);
    CHECK(r.over && r.winner == MC_SOUTH);
    status_of("sadeqa2:repetition=more_seeds", mid, 1, 300, &r);
    CHECK(r.over && r.winner == MC_SOUTH && r.reason == MC_END_PLIES);
    status_of("sadeqa2:repetition=more_seeds",
              "1,0,0,0,0,0/0,0,2,0,0,0 S first=-", 1, 300, &r);
    CHECK(r.over && r.winner == MC_NORTH);
    status_of("sadeqa2:repetition=more_seeds",
              "1,0,0,0,0,0/0,0,1,0,0,0 S first=-", 3, 20, &r);
    CHECK(r.over && r.winner == MC_DRAW);
    /* S7 is checked first: no move at the 300th ply is a loss. */
    status_of("sadeqa2", "0,0,0,0,0,0/0,0,1,0,0,0 S first=-", 3, 300, &r);
    CHECK(r.over && r.winner == MC_NORTH && r.reason == MC_END_NOMOVE);
    CHECK_STR(r.detail, "nomove");
    status_of("sadeqa2", "0,0,0,0,0,0/0,0,1,0,0,0 N first=-", 1, 0, &r);
    CHECK(!r.over);
    /* The fresh-game status of the start. */
    status_of("sadeqa2", "3,3,3,3,3,3/3,3,3,3,3,3 S first=SN", 1, 0, &r);
    CHECK(!r.over);
}

/* ---- errors ------------------------------------------------------------- */

static void test_errors(void)
{
    mc_error err = {0, ""};
    CHECK(mc_game_new("sadeqa2:stuck=lose", &err) == NULL);
    CHECK(err.code == MC_ERR_SPEC && strstr(err.msg, "stuck"));
    CHECK(mc_game_new("sadeqa2:lapcap=100", &err) == NULL);
    CHECK(strstr(err.msg, "unknown option 'lapcap'") != NULL);

    mc_game *g = mc_game_new("sadeqa2", &err);
    mc_pos p;
    mc_move m;
    CHECK(mc_pos_parse(g, "3,3,3/3,3,3 S first=SN", &p, &err) ==
          MC_ERR_POSITION);
    CHECK(strstr(err.msg, "South's holes") != NULL);
    mc_start(g, &p);
    CHECK(mc_move_parse(g, &p, "Z", &m, &err) == MC_ERR_MOVE);
    CHECK(mc_move_parse(g, &p, "a", &m, &err) == MC_ERR_ILLEGAL);
    CHECK(strstr(err.msg, "North's holes") != NULL);
    CHECK(mc_move_parse(g, &p, "C", &m, &err) == MC_ERR_ILLEGAL);
    CHECK(strstr(err.msg, "first move") && strstr(err.msg, "(legal: F)"));
    CHECK(mc_move_parse(g, &p, "F", &m, &err) == 0 && m == 5);
    CHECK(mc_pos_parse(g, "1,3,1,0,1,0/1,0,1,0,1,0 S first=-", &p, &err) == 0);
    CHECK(mc_move_parse(g, &p, "B", &m, &err) == MC_ERR_ILLEGAL);
    CHECK(strstr(err.msg, "72 laps") && strstr(err.msg, "S5"));
    /* mc_play of a never-ending move (API misuse) leaves p alone. */
    mc_pos q = p;
    CHECK(mc_play(g, &q, 1, NULL) == 0 && memcmp(&p, &q, sizeof p) == 0);
    mc_game_free(g);
}

/* ---- perft from the start ----------------------------------------------- */

/* Reference perft (no history: no position recurs a third time this
   shallow, every first move being irreversible). */
static uint64_t rperft(const mc_pos *p, int depth)
{
    mc_move mv[MC_MAX_MOVES];
    int n = rmoves(p, 0, 0, mv);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t t = 0;
    for (int k = 0; k < n; k++) {
        rresult r;
        rmove(p->pit, (int)mv[k], 0, &r);
        mc_pos q = *p;
        memcpy(q.pit, r.b, NH);
        q.first = (uint8_t)(q.first & ~(1u << p->side));
        q.side = (uint8_t)(1 - p->side);
        t += rperft(&q, depth - 1);
    }
    return t;
}

static void test_perft(int full)
{
    /* Depths 1-3 were worked out by hand (tests/rules/sadeqa2/rules.t). */
    static const uint64_t want[] = {1,      1,       5,      21,    101,
                                    443,    1897,    7767,   31370, 122517,
                                    465832, 1731258, 6205976};
    mc_game *g = mc_game_new("sadeqa2", NULL);
    mc_pos p;
    mc_start(g, &p);
    int top = full ? 13 : 10;
    for (int d = 1; d <= top; d++) {
        uint64_t n = mc_perft(g, &p, d);
        CHECK_MSG(n == want[d - 1], "perft %d: %llu", d, (unsigned long long)n);
    }
    /* The reference agrees (it ignores history: no position can occur a
       third time this early, or the two would differ). */
    for (int d = 1; d <= (full ? 11 : 8); d++)
        CHECK_MSG(rperft(&p, d) == want[d - 1], "reference perft %d", d);
    mc_game_free(g);
}

int main(int argc, char **argv)
{
    int full = 0;
    for (int i = 1; i < argc; i++)
        full |= strcmp(argv[i], "--full") == 0;
    test_small_boards(full);
    test_long_relay();
    test_status();
    test_errors();
    test_round_trips();
    test_perft(full);
    test_random_games(full ? 20000 : 400);
    test_mc_random_game(full ? 200000 : 5000);
    return check_report("test_sadeqa2");
}
