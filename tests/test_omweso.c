/*
 * test_omweso.c - property tests of the Omweso rules engine (W1-W16).
 *
 * The centre of it is a second, deliberately naive move generator written
 * from the rule file alone: seeds sown one at a time, every lap-start state
 * of a path kept in a table, every choice explored.  It shares no code with
 * src/games/omweso.c; positions from many random games of every set-up must
 * give the same moves, in the same order, with the same results.  Then:
 * seed conservation and termination in random games, traced and untraced
 * play, round trips of position and move strings, the end rules, match
 * scoring (W2) and the worked never-ending example (W13).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mancala.h"

int mc_omweso_stats(const mc_game *g, long *out, int n);
void mc_relay_budget_set(uint64_t laps);

static const char *const names[32] = {"I", "J", "K", "L", "M", "N", "O", "P",
                                      "H", "G", "F", "E", "D", "C", "B", "A",
                                      "i", "j", "k", "l", "m", "n", "o", "p",
                                      "h", "g", "f", "e", "d", "c", "b", "a"};

/* ---- the naive reference ----------------------------------------------- */

enum { R_EVERY, R_FIRST, R_NONE };

typedef struct rkey {
    uint8_t me[16], op[16];
    uint8_t o, hand, dir;
} rkey;

#define RMAX_PATH 300000
#define RMAX_MOVES 600

typedef struct rmove {
    char tok[80];
    uint8_t me[16], op[16];
    int captured;
} rmove;

typedef struct rgen {
    int capt, rev, start;
    rkey path[RMAX_PATH];
    int len;
    int head[1 << 16], next[RMAX_PATH];
    char marks[RMAX_PATH];
    int too_long;
    rmove mv[RMAX_MOVES];
    int n, leaves;
} rgen;

static unsigned rhash(const rkey *k)
{
    unsigned h = 2166136261u;
    const uint8_t *b = (const uint8_t *)k;
    for (size_t i = 0; i < sizeof *k; i++)
        h = (h ^ b[i]) * 16777619u;
    return h & ((1 << 16) - 1);
}

static int rseen(rgen *r, const rkey *k)
{
    for (int i = r->head[rhash(k)]; i >= 0; i = r->next[i])
        if (memcmp(&r->path[i], k, sizeof *k) == 0)
            return 1;
    return 0;
}

static void rpush(rgen *r, const rkey *k)
{
    unsigned h = rhash(k);
    r->path[r->len] = *k;
    r->next[r->len] = r->head[h];
    r->head[h] = r->len++;
}

static void rpop(rgen *r)
{
    r->len--;
    r->head[rhash(&r->path[r->len])] = r->next[r->len];
}

/* Sow hand seeds one by one from o; returns the last pit. */
static int rsow(uint8_t *me, int o, int hand, int dir)
{
    int j = o;
    for (int k = 0; k < hand; k++) {
        j = (j + (dir ? 15 : 1)) & 15;
        me[j]++;
    }
    return j;
}

static int rcaptures(const uint8_t *me, const uint8_t *op, int L, int capt)
{
    return capt && L >= 8 && me[L] >= 2 && op[23 - L] && op[L - 8];
}

/* Every path from a lap start (seeds in hand, not in me) on.  dir < 0:
   the direction is still to be chosen; 0 or 1: chosen by the caller.  Laps
   are a loop; only choice points recurse (a path can be 300000 laps). */
static void rpaths(rgen *r, const uint8_t *me0, const uint8_t *op0, int o,
                   int hand, int lap, char *marks, int nm, int captured,
                   int dir)
{
    uint8_t me[16], op[16];
    memcpy(me, me0, 16);
    memcpy(op, op0, 16);
    int pushed = 0;
    while (!r->too_long) {
        int d = 0;
        if (dir >= 0) {
            d = dir;
            dir = -1;
        } else if (r->capt && (o <= 1 || o >= 14) &&
                   (r->rev == R_EVERY || (r->rev == R_FIRST && lap == 0))) {
            uint8_t t[16];
            memcpy(t, me, 16);
            int L = rsow(t, o, hand, 1);
            if (rcaptures(t, op, L, 1)) {
                /* A choice point (W10): both ways, + first. */
                marks[nm] = '+';
                rpaths(r, me, op, o, hand, lap, marks, nm + 1, captured, 0);
                marks[nm] = '-';
                rpaths(r, me, op, o, hand, lap, marks, nm + 1, captured, 1);
                break;
            }
        }
        rkey k;
        memcpy(k.me, me, 16);
        memcpy(k.op, op, 16);
        k.o = (uint8_t)o;
        k.hand = (uint8_t)hand;
        k.dir = (uint8_t)d;
        if (rseen(r, &k))
            break; /* W13: this path never ends */
        if (r->len >= RMAX_PATH) {
            r->too_long = 1;
            break;
        }
        rpush(r, &k);
        pushed++;
        int L = rsow(me, o, hand, d);
        if (me[L] == 1) {
            r->leaves++;
            if (r->n < RMAX_MOVES) {
                rmove *m = &r->mv[r->n++];
                int t = nm;
                while (t > 0 && marks[t - 1] == '+')
                    t--;
                snprintf(m->tok, sizeof m->tok, "%s%.*s", names[r->start], t,
                         marks);
                memcpy(m->me, me, 16);
                memcpy(m->op, op, 16);
                m->captured = captured;
            }
            break;
        }
        if (rcaptures(me, op, L, r->capt)) {
            hand = op[23 - L] + op[L - 8];
            op[23 - L] = op[L - 8] = 0;
            captured |= 1 | (L == 8) << 1 | (L == 15) << 2;
        } else {
            hand = me[L];
            me[L] = 0;
            o = L;
        }
        lap++;
    }
    while (pushed-- > 0)
        rpop(r);
}

/* The reference moves of a position as tokens; -1 if a path was too long
   for the naive method. */
static int ref_moves(const mc_pos *p, int capt, int rev, int three, int annul,
                     rgen *r, char out[][80], int *nout)
{
    const uint8_t *me0 = p->pit + 16 * p->side;
    const uint8_t *op0 = p->pit + 16 * (1 - p->side);
    int n = 0;
    r->capt = capt;
    r->rev = rev;
    r->n = 0;
    for (int s = 0; s < 16; s++) {
        if (me0[s] >= 2) {
            uint8_t me[16], op[16];
            memcpy(me, me0, 16);
            memcpy(op, op0, 16);
            int hand = me[s];
            me[s] = 0;
            r->start = s + 16 * p->side;
            int first = r->n;
            r->leaves = r->len = r->too_long = 0;
            memset(r->head, -1, sizeof r->head);
            rpaths(r, me, op, s, hand, 0, r->marks, 0, 0, -1);
            if (r->too_long)
                return -1;
            for (int i = first; i < r->n && n < RMAX_MOVES; i++)
                snprintf(out[n++], 80, "%s", r->mv[i].tok);
            if (r->leaves == 0 && annul)
                snprintf(out[n++], 80, "%s", names[r->start]);
        }
        if (three && me0[s] == 3)
            snprintf(out[n++], 80, "%s*", names[s + 16 * p->side]);
    }
    *nout = n;
    return 0;
}

/* Perft by the reference: its moves, its boards, and the end rules of W14
   written again (nothing repeats or reaches max_plies in a few plies). */
static int ref_perft_unknown; /* a path was too long for the reference */
static uint64_t ref_perft(const mc_pos *p, int depth, rgen *r)
{
    if (depth == 0)
        return 1;
    const uint8_t *me0 = p->pit + 16 * p->side;
    const uint8_t *op0 = p->pit + 16 * (1 - p->side);
    int capt = !(p->first >> p->side & 1);
    int three = p->cap[0] == 0 && p->cap[1] == 0;
    uint64_t total = 0;
    for (int s = 0; s < 16; s++) {
        mc_pos kids[RMAX_MOVES + 1];
        int nk = 0;
        if (me0[s] >= 2) {
            uint8_t me[16], op[16];
            memcpy(me, me0, 16);
            memcpy(op, op0, 16);
            int hand = me[s];
            me[s] = 0;
            r->capt = capt;
            r->rev = R_EVERY;
            r->n = r->leaves = r->len = r->too_long = 0;
            r->start = s;
            memset(r->head, -1, sizeof r->head);
            rpaths(r, me, op, s, hand, 0, r->marks, 0, 0, -1);
            if (r->too_long)
                ref_perft_unknown = 1;
            if (r->leaves == 0)
                total += depth == 1; /* annuls: a leaf, no children */
            for (int i = 0; i < r->n; i++) {
                mc_pos *k = &kids[nk++];
                *k = *p;
                memcpy(k->pit + 16 * p->side, r->mv[i].me, 16);
                memcpy(k->pit + 16 * (1 - p->side), r->mv[i].op, 16);
                int c = r->mv[i].captured;
                int over = (c & 6) == 6;
                int inner = 0, big = 0;
                for (int j = 0; j < 16; j++) {
                    inner += j >= 8 ? r->mv[i].op[j] : 0;
                    big |= r->mv[i].op[j] >= 2;
                }
                over |= ((c & 1) && inner == 0) || !big;
                if (c & 1)
                    k->cap[p->side]++;
                k->last = (uint8_t)over; /* 1: the game is over */
            }
        }
        if (three && me0[s] == 3) {
            mc_pos *k = &kids[nk++];
            *k = *p;
            uint8_t *me = k->pit + 16 * p->side;
            me[s] = 0;
            me[(s + 1) & 15] += 2;
            me[(s + 2) & 15] += 1;
            int big = 0;
            for (int j = 0; j < 16; j++)
                big |= op0[j] >= 2;
            k->last = (uint8_t)!big;
        }
        for (int i = 0; i < nk; i++) {
            mc_pos *k = &kids[i];
            k->side = (uint8_t)(1 - p->side);
            k->first = (uint8_t)(k->first & ~(1u << p->side));
            if (depth == 1)
                total++;
            else if (!k->last)
                total += ref_perft(k, depth - 1, r);
        }
    }
    return total;
}

/* ---- helpers ------------------------------------------------------------ */

static void fmt_moves(const mc_game *g, const mc_pos *p, const mc_move *mv,
                      int n, char *buf, size_t sz)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len < sz; i++) {
        char t[MC_MOVE_STRLEN];
        mc_move_format(g, p, mv[i], t, sizeof t);
        len += (size_t)snprintf(buf + len, sz - len, "%s%s", i ? " " : "", t);
    }
}

static int board_total(const mc_pos *p)
{
    int t = 0;
    for (int i = 0; i < 32; i++)
        t += p->pit[i];
    return t;
}

/* Compare the engine with the reference on one position. */
static int ref_skipped, ref_compared, boards_compared, perft_compared;
static void compare_with_ref(const mc_game *g, const mc_pos *p, int rev,
                             int annul, rgen *r)
{
    static char want[RMAX_MOVES][80];
    int capt = !(p->first >> p->side & 1);
    int three = p->cap[0] == 0 && p->cap[1] == 0;
    int nw = 0;
    if (ref_moves(p, capt, rev, three, annul, r, want, &nw) < 0) {
        ref_skipped++;
        return;
    }
    ref_compared++;
    mc_move mv[MC_MAX_MOVES];
    int n = mc_moves(g, p, mv);
    static char got[8192], exp[8192];
    fmt_moves(g, p, mv, n, got, sizeof got);
    size_t len = 0;
    exp[0] = '\0';
    for (int i = 0; i < nw && len < sizeof exp; i++)
        len += (size_t)snprintf(exp + len, sizeof exp - len, "%s%s",
                                i ? " " : "", want[i]);
    if (strcmp(got, exp) != 0) {
        char ps[MC_POS_STRLEN];
        mc_pos_format(g, p, ps, sizeof ps);
        CHECK_MSG(0, "%s: moves '%s', reference '%s'", ps, got, exp);
        return;
    }
    check_passed++;
    /* The boards each move leaves (the reference keeps every move that
       ends, in order; the annulling and three-seed moves are not in it). */
    int bad = 0, k = 0;
    for (int i = 0; i < n; i++) {
        char t[MC_MOVE_STRLEN];
        mc_move_format(g, p, mv[i], t, sizeof t);
        if (strchr(t, '*') || k >= r->n || strcmp(t, r->mv[k].tok) != 0)
            continue;
        mc_pos a = *p;
        mc_play(g, &a, mv[i], NULL);
        const rmove *rm = &r->mv[k++];
        if (memcmp(a.pit + 16 * p->side, rm->me, 16) != 0 ||
            memcmp(a.pit + 16 * (1 - p->side), rm->op, 16) != 0 ||
            !!(a.last & 1) != !!(rm->captured & 1))
            bad++;
        boards_compared++;
    }
    CHECK_MSG(bad == 0 && k == r->n,
              "%d boards differ from the reference, %d of %d compared", bad, k,
              r->n);
}

/* ---- random games ------------------------------------------------------- */

static void random_games(const char *spec, int rev, int annul, int games,
                         uint64_t seed, rgen *r, const mc_pos *start_or_null)
{
    mc_error err;
    mc_game *g = mc_game_new(spec, &err);
    CHECK_MSG(g != NULL, "%s: %s", spec, err.msg);
    if (!g)
        return;
    mc_rng rng;
    mc_rng_seed(&rng, seed);
    int bad_total = 0, bad_trace = 0, bad_round = 0, unended = 0;
    int sampled = 0;
    int kinds[5] = {0};
    for (int k = 0; k < games; k++) {
        mc_pos start;
        if (start_or_null) {
            start = start_or_null[k];
        } else {
            mc_start(g, &start);
            start.side = (uint8_t)(k & 1);
        }
        mc_session *s = mc_session_new(g, &start);
        while (!mc_session_over(s)) {
            const mc_pos *p = mc_session_pos(s);
            if (r)
                compare_with_ref(g, p, rev, annul, r);
            if (r && rev == R_EVERY && annul && ++sampled % 40 == 0) {
                /* The end rules too: perft 2 by the reference. */
                ref_perft_unknown = 0;
                unsigned long long a = mc_perft(g, p, 2),
                                   b = ref_perft(p, 2, r);
                if (!ref_perft_unknown) {
                    CHECK_MSG(a == b, "perft 2: %llu, reference %llu", a, b);
                    perft_compared++;
                }
            }
            mc_move mv[MC_MAX_MOVES];
            int n = mc_session_moves(s, mv);
            if (n == 0) {
                unended++;
                break;
            }
            mc_move m = mv[mc_rng_below(&rng, (uint32_t)n)];
            /* Round trips: the move string parses back to the move, the
               position string to the position. */
            char tok[MC_MOVE_STRLEN], ps[MC_POS_STRLEN];
            mc_move_format(g, p, m, tok, sizeof tok);
            mc_move back;
            if (mc_move_parse(g, p, tok, &back, &err) != 0 || back != m)
                bad_round++;
            mc_pos_format(g, p, ps, sizeof ps);
            mc_pos q;
            if (mc_pos_parse(g, ps, &q, &err) != 0 ||
                memcmp(&q, p, offsetof(mc_pos, last)) != 0)
                bad_round++;
            /* Played with and without a trace: the same position. */
            mc_pos a = *p, b = *p;
            mc_trace_event ev[64];
            mc_trace t = {ev, 64, 0, 0};
            mc_play(g, &a, m, NULL);
            mc_play(g, &b, m, &t);
            if (memcmp(&a, &b, sizeof a) != 0)
                bad_trace++;
            mc_session_play(s, m, NULL, &err);
            if (board_total(mc_session_pos(s)) != 64)
                bad_total++;
        }
        mc_result res;
        mc_session_result(s, &res);
        if (!res.over)
            unended++;
        else if (res.reason == MC_END_ANNULLED)
            kinds[0]++;
        else if (res.reason == MC_END_POINTS && res.points == 1)
            kinds[1]++;
        else if (res.reason == MC_END_POINTS && res.points == 2)
            kinds[2]++;
        else if (res.reason == MC_END_POINTS && res.points == 12)
            kinds[3]++;
        else
            kinds[4]++;
        mc_session_free(s);
    }
    CHECK_MSG(bad_total == 0, "%s: %d positions without 64 seeds (W1)", spec,
              bad_total);
    CHECK_MSG(bad_trace == 0, "%s: %d traced plays differ", spec, bad_trace);
    CHECK_MSG(bad_round == 0, "%s: %d string round trips failed", spec,
              bad_round);
    CHECK_MSG(unended == 0, "%s: %d games neither ended nor annulled", spec,
              unended);
    CHECK_MSG(kinds[4] == 0, "%s: %d games ended for another reason", spec,
              kinds[4]);
    long st[7];
    mc_omweso_stats(g, st, 7);
    CHECK_MSG(st[0] == 0 && st[1] == 0,
              "%s: %ld branches, %ld moves dropped for lack of room", spec,
              st[0], st[1]);
    printf("  %-40s %d games: annulled %d, 1 pt %d, 2 pts %d, 12 pts %d; "
           "cycles %ld, longest chain %ld laps, most moves %ld, most marks "
           "%ld\n",
           spec, games, kinds[0], kinds[1], kinds[2], kinds[3], st[2], st[3],
           st[5], st[6]);
    mc_game_free(g);
}

/* Random custom set-ups: 32 seeds a side, at most 10 in a pit (W3). */
static void custom_setups(mc_pos *out, int n, uint64_t seed)
{
    mc_rng rng;
    mc_rng_seed(&rng, seed);
    for (int k = 0; k < n; k++) {
        mc_pos *p = &out[k];
        memset(p, 0, sizeof *p);
        for (int s = 0; s < 2; s++)
            for (int left = 32; left > 0;) {
                int i = (int)mc_rng_below(&rng, 16);
                if (p->pit[16 * s + i] < 10) {
                    p->pit[16 * s + i]++;
                    left--;
                }
            }
        p->first = 3;
        p->side = (uint8_t)(k & 1);
    }
}

/* ---- single checks ------------------------------------------------------ */

static mc_game *game(const char *spec)
{
    mc_error err;
    mc_game *g = mc_game_new(spec, &err);
    if (!g)
        fprintf(stderr, "%s: %s\n", spec, err.msg);
    return g;
}

static void test_never_ending_example(void)
{
    /* W13 worked example: the lap state recurs after 128 laps; checked
       against a plain seed-by-seed simulation here. */
    const char *ps = "0,1,0,1,0,1,0,1,0,1,0,1,0,1,3,1/7,7,7,7,7,6,6,6,0,0,0,"
                     "0,0,0,0,0 S first=- captures=0,0";
    uint8_t me[16] = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 1};
    static uint8_t seen[200][18];
    int o = 14, hand = me[14], lap, rep = -1;
    me[14] = 0;
    for (lap = 0; lap < 200 && rep < 0; lap++) {
        memcpy(seen[lap], me, 16);
        seen[lap][16] = (uint8_t)o;
        seen[lap][17] = (uint8_t)hand;
        for (int j = 0; j < lap; j++)
            if (memcmp(seen[j], seen[lap], 18) == 0)
                rep = j;
        if (rep >= 0)
            break;
        int L = rsow(me, o, hand, 0);
        CHECK(me[L] > 1); /* never ends */
        o = L;
        hand = me[L];
        me[L] = 0;
    }
    CHECK_MSG(lap == 128 && rep == 0, "state recurs at lap %d (as lap %d)", lap,
              rep);
    mc_game *g = game("omweso");
    mc_pos p;
    mc_error err;
    CHECK(mc_pos_parse(g, ps, &p, &err) == 0);
    mc_move mv[MC_MAX_MOVES];
    char buf[256];
    int n = mc_moves(g, &p, mv);
    fmt_moves(g, &p, mv, n, buf, sizeof buf);
    CHECK_STR(buf, "B B*");
    mc_session *s = mc_session_new(g, &p);
    CHECK(mc_session_play_str(s, "B", NULL, &err) == 0);
    mc_result r;
    mc_session_result(s, &r);
    CHECK(r.over && r.reason == MC_END_ANNULLED && r.points == 0);
    CHECK_STR(r.detail, "annulled never_ending");
    CHECK(memcmp(mc_session_pos(s), &p, offsetof(mc_pos, last)) == 0);
    mc_session_free(s);
    mc_game_free(g);
}

static void test_status(void)
{
    mc_game *g = game("omweso:max_plies=10");
    mc_pos p;
    mc_result r;
    mc_start(g, &p);
    /* W15: the third occurrence annuls, the second does not. */
    mc_hist h = {2, 4, 4};
    mc_status(g, &p, &h, &r);
    CHECK(!r.over);
    h.occurrences = 3;
    mc_status(g, &p, &h, &r);
    CHECK(r.over && r.reason == MC_END_ANNULLED && r.winner == MC_DRAW);
    CHECK_STR(r.detail, "annulled repetition");
    /* W15: the max_plies-th ply annuls. */
    h.occurrences = 1;
    h.plies = 9;
    mc_status(g, &p, &h, &r);
    CHECK(!r.over);
    h.plies = 10;
    mc_status(g, &p, &h, &r);
    CHECK_STR(r.detail, "annulled max_plies");
    /* W14 before W15: points are checked first. */
    mc_error err;
    CHECK(mc_pos_parse(g,
                       "4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,3/1,0,0,0,0,0,0,0,0,0,"
                       "0,0,0,0,0,0 N first=- captures=3,2",
                       &p, &err) == 0);
    h.occurrences = 3;
    mc_status(g, &p, &h, &r);
    CHECK(r.over && r.winner == MC_SOUTH && r.points == 1 &&
          r.reason == MC_END_POINTS);
    CHECK_STR(r.detail, "1 ordinary");
    mc_game_free(g);
}

static void test_match(void)
{
    /* W2: points to 12; the loser starts the next game; an annulled game
       is replayed with the same starter. */
    mc_game *g = game("omweso");
    mc_match m;
    mc_match_init(g, &m);
    CHECK(m.next_first == MC_SOUTH && m.winner < 0);
    mc_result r;
    memset(&r, 0, sizeof r);
    r.over = 1;
    r.winner = MC_SOUTH;
    r.reason = MC_END_POINTS;
    r.points = 2;
    mc_match_record(g, &m, &r);
    CHECK(m.wins[MC_SOUTH] == 2 && m.next_first == MC_NORTH && m.winner < 0);
    r.winner = MC_DRAW;
    r.reason = MC_END_ANNULLED;
    r.points = 0;
    mc_match_record(g, &m, &r);
    CHECK(m.wins[0] == 2 && m.wins[1] == 0 && m.next_first == MC_NORTH);
    CHECK(m.games == 1 && m.winner < 0);
    r.winner = MC_NORTH;
    r.reason = MC_END_POINTS;
    r.points = 1;
    mc_match_record(g, &m, &r);
    CHECK(m.wins[MC_NORTH] == 1 && m.next_first == MC_SOUTH);
    for (int i = 0; i < 4; i++) {
        r.winner = MC_SOUTH;
        r.points = 2;
        mc_match_record(g, &m, &r);
    }
    CHECK(m.wins[MC_SOUTH] == 10 && m.winner < 0);
    r.points = 2;
    mc_match_record(g, &m, &r);
    CHECK(m.wins[MC_SOUTH] == 12 && m.winner == MC_SOUTH);
    /* Akawumbi: 12 points win the match at once. */
    mc_match_init(g, &m);
    r.winner = MC_NORTH;
    r.points = 12;
    mc_match_record(g, &m, &r);
    CHECK(m.winner == MC_NORTH);
    mc_game_free(g);
    /* match=single: one game; an annulled one is replayed. */
    g = game("omweso:match=single");
    mc_match_init(g, &m);
    r.winner = MC_DRAW;
    r.reason = MC_END_ANNULLED;
    r.points = 0;
    mc_match_record(g, &m, &r);
    CHECK(m.winner < 0);
    r.winner = MC_NORTH;
    r.reason = MC_END_POINTS;
    r.points = 1;
    mc_match_record(g, &m, &r);
    CHECK(m.winner == MC_NORTH);
    mc_game_free(g);
}

static void test_perft(rgen *r)
{
    /* Depths 1 and 2 by hand: first turns have no captures, so no choice
       points, and no pit holds 3 seeds: 8 moves, then 8 replies. */
    mc_game *g = game("omweso");
    mc_pos p;
    mc_start(g, &p);
    CHECK(mc_perft(g, &p, 1) == 8);
    CHECK(mc_perft(g, &p, 2) == 64);
    mc_game_free(g);
    g = game("omweso:setup=all2");
    mc_start(g, &p);
    /* all2: 16 pits of 2, every one a start. */
    CHECK(mc_perft(g, &p, 1) == 16);
    CHECK(mc_perft(g, &p, 2) == 256);
    mc_game_free(g);
    /* Deeper, against the naive reference generator. */
    static const char *const specs[] = {"omweso", "omweso:setup=all2"};
    /* (all2 at depth 4 meets a cycle of 198 million laps: too long for
       the reference, which keeps every lap of a path.) */
    static const int depth[] = {4, 3};
    for (int k = 0; k < 2; k++) {
        g = game(specs[k]);
        mc_start(g, &p);
        for (int d = 3; d <= depth[k]; d++) {
            ref_perft_unknown = 0;
            unsigned long long a = mc_perft(g, &p, d), b = ref_perft(&p, d, r);
            CHECK_MSG(a == b && !ref_perft_unknown,
                      "%s perft %d: %llu, reference %llu%s", specs[k], d, a, b,
                      ref_perft_unknown ? " (incomplete)" : "");
        }
        mc_game_free(g);
    }
}

/* Every position string of random play parses back (done above); here the
   parser's refusals. */
static void test_bad_positions(void)
{
    mc_game *g = game("omweso:setup=custom");
    mc_pos p;
    mc_error err;
    CHECK(mc_pos_parse(g,
                       "4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,"
                       "0,0,0,0,0,0,0,1 S first=SN captures=0,0",
                       &p, &err) != 0);
    CHECK(strstr(err.msg, "not 64") != NULL);
    CHECK(mc_pos_parse(g,
                       "11,3,3,3,4,4,4,0,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,"
                       "0,0,0,0,0,0,0,0 S first=SN captures=0,0",
                       &p, &err) != 0);
    CHECK(strstr(err.msg, "at most 10") != NULL);
    CHECK(mc_pos_parse(g,
                       "11,3,3,3,4,4,4,0,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,"
                       "0,0,0,0,0,0,0,0 S first=- captures=0,0",
                       &p, &err) == 0);
    mc_game_free(g);
    g = game("omweso:setup=custom,setup_cap=none");
    CHECK(mc_pos_parse(g,
                       "11,3,3,3,4,4,4,0,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,"
                       "0,0,0,0,0,0,0,0 S first=SN captures=0,0",
                       &p, &err) == 0);
    mc_game_free(g);
}

static void test_trace(void)
{
    /* The published example, M (worked by hand in rules/omweso/examples.t):
       every lap, capture, re-sowing and relay, in words. */
    static const char *const want[] = {
        "lifts the 4 seeds of M",
        "sows 4 from M counter-clockwise into N, O, P, H",
        "South captures the 2 seeds of a, facing H",
        "South captures the 4 seeds of i, facing H",
        "sows the 6 captured seeds from M counter-clockwise into N, O, P, H, "
        "G, F",
        "South captures the 3 seeds of c, facing F",
        "South captures the 2 seeds of k, facing F",
        "sows the 5 captured seeds from M counter-clockwise into N, O, P, H, "
        "G",
        "the last seed falls in G, which held seeds: relay, lifting its 2 "
        "seeds",
        "sows 2 from G counter-clockwise into F, E",
        "the last seed falls in E, which was empty: the move ends",
    };
    mc_game *g = game("omweso");
    mc_pos p;
    mc_error err;
    CHECK(mc_pos_parse(g,
                       "3,0,0,0,4,0,0,0,1,0,1,0,0,1,0,0/4,8,2,8,8,3,7,7,0,0,"
                       "2,0,0,3,0,2 S first=- captures=1,1",
                       &p, &err) == 0);
    mc_move m;
    CHECK(mc_move_parse(g, &p, "M", &m, &err) == 0);
    mc_trace_event ev[32];
    mc_trace t = {ev, 32, 0, 0};
    mc_play(g, &p, m, &t);
    CHECK(t.len == sizeof want / sizeof want[0] && t.dropped == 0);
    for (size_t i = 0; i < t.len && i < sizeof want / sizeof want[0]; i++) {
        char b[200];
        mc_trace_describe(g, &ev[i], b, sizeof b);
        CHECK_STR(b, want[i]);
    }
    /* A reverse lap says so; a small trace buffer counts what it drops. */
    CHECK(mc_pos_parse(g,
                       "0,0,0,0,0,0,9,0,0,0,0,0,0,0,0,1/8,8,8,8,8,3,6,3,0,0,"
                       "2,0,0,0,0,0 S first=- captures=1,1",
                       &p, &err) == 0);
    CHECK(mc_move_parse(g, &p, "O-", &m, &err) == 0);
    mc_trace small = {ev, 4, 0, 0};
    mc_play(g, &p, m, &small);
    char b[200];
    mc_trace_describe(g, &ev[3], b, sizeof b);
    CHECK_STR(b, "sows 2 from A clockwise (a reverse lap) into B, C");
    CHECK(small.len == 4 && small.dropped == 4);
    mc_game_free(g);
}

static void test_pruned_counter_clockwise(rgen *r)
{
    /* W13: D's counter-clockwise path comes back to a lap state after
       279,360 laps, but it passes a choice point whose clockwise branch
       ends: D- is a move, the bare D is not.  Checked here against the
       reference, which walks those laps one seed at a time. */
    mc_game *g = game("omweso");
    mc_pos p;
    mc_error err;
    CHECK(mc_pos_parse(g,
                       "5,2,1,0,1,2,1,0,2,1,5,4,5,9,6,6/0,1,2,0,2,0,1,0,2,1,"
                       "1,0,1,0,0,3 S first=- captures=5,5",
                       &p, &err) == 0);
    int before = ref_compared;
    compare_with_ref(g, &p, R_EVERY, 1, r);
    CHECK(ref_compared == before + 1);
    mc_move mv[MC_MAX_MOVES];
    char buf[256];
    int n = mc_moves(g, &p, mv);
    fmt_moves(g, &p, mv, n, buf, sizeof buf);
    CHECK_STR(buf, "I J N H F E D- C B A");
    mc_move m;
    CHECK(mc_move_parse(g, &p, "D", &m, &err) == MC_ERR_ILLEGAL);
    CHECK(strstr(err.msg, "never ends (W13)") != NULL);
    mc_game_free(g);
}

static void test_random_from_never_ending(void)
{
    /* Random games from the W13 example: B annuls, B* plays on; every game
       must end by points or be annulled, and some must be annulled. */
    mc_game *g = game("omweso");
    mc_pos p;
    mc_error err;
    CHECK(mc_pos_parse(g,
                       "0,1,0,1,0,1,0,1,0,1,0,1,0,1,3,1/7,7,7,7,7,6,6,6,0,0,0,"
                       "0,0,0,0,0 S first=- captures=0,0",
                       &p, &err) == 0);
    mc_rng rng;
    mc_rng_seed(&rng, 99);
    int annulled = 0, points = 0, other = 0;
    for (int k = 0; k < 200; k++) {
        mc_result r;
        mc_random_game(g, &p, &rng, 0, &r);
        if (r.over && r.reason == MC_END_ANNULLED)
            annulled++;
        else if (r.over && r.reason == MC_END_POINTS)
            points++;
        else
            other++;
    }
    CHECK_MSG(annulled > 50 && points > 0 && other == 0,
              "annulled %d, points %d, other %d", annulled, points, other);
    mc_game_free(g);
}

static int same_moves(const mc_move *a, int na, const mc_move *b, int nb)
{
    return na == nb && memcmp(a, b, (size_t)na * sizeof *a) == 0;
}

/* The search's relay budget (mc_relay_budget_set): a guess below the root,
   never seen by exact uses of the rules. */
static void test_relay_budget(void)
{
    mc_game *g = game("omweso");
    mc_pos p;
    mc_error err;
    /* A start here relays for millions of laps and never ends (W13). */
    CHECK(mc_pos_parse(g,
                       "1,4,1,5,4,3,2,3,12,0,1,8,3,6,7,2/0,0,0,0,0,0,0,0,0,0,"
                       "0,1,1,0,0,0 S first=- captures=3,1",
                       &p, &err) == 0);
    static mc_move m0[MC_MAX_MOVES], m1[MC_MAX_MOVES], m2[MC_MAX_MOVES];
    long st1[10], st2[10];
    int n0 = mc_moves(g, &p, m0);
    mc_game *g2 = game("omweso");
    mc_relay_budget_set(65536);
    int n1 = mc_moves(g2, &p, m1);
    mc_omweso_stats(g2, st1, 10);
    CHECK_MSG(same_moves(m0, n0, m1, n1),
              "a budget of 65536 laps changes the moves (%d, %d)", n0, n1);
    CHECK_MSG(st1[9] >= 1, "no chain was cut at the budget (%ld)", st1[9]);
    CHECK_MSG(st1[3] <= 65536, "a chain ran %ld laps under the budget", st1[3]);
    /* Exact again on the same game object: the guess cached above must not
       serve; the chain is followed to its cycle (ST_CYCLES counts). */
    mc_relay_budget_set(0);
    int n2 = mc_moves(g2, &p, m2);
    mc_omweso_stats(g2, st2, 10);
    CHECK(same_moves(m0, n0, m2, n2));
    CHECK_MSG(st2[2] > st1[2] && st2[9] == st1[9],
              "exact moves used a guess: cycles %ld -> %ld, cut %ld -> %ld",
              st1[2], st2[2], st1[9], st2[9]);
    CHECK_MSG(st2[3] > 65536, "the never-ending chain took %ld laps", st2[3]);
    mc_game_free(g2);

    /* A tiny budget is wrong somewhere: find a position of random play
       whose moves it changes, then check the exact moves there (before and
       after the guesses), and that every exact move plays the same under
       the budget (mc_play then follows the chain exactly). */
    mc_rng rng;
    mc_rng_seed(&rng, 5);
    int found = 0, differ_play = 0, exact_after = 1;
    for (int game_i = 0; game_i < 50 && found < 20; game_i++) {
        mc_start(g, &p);
        for (int ply = 0; ply < 200; ply++) {
            int n = mc_moves(g, &p, m0);
            if (n == 0)
                break;
            mc_relay_budget_set(8);
            int nb = mc_moves(g, &p, m1);
            int diff = !same_moves(m0, n, m1, nb);
            if (diff) {
                found++;
                for (int i = 0; i < n; i++) {
                    mc_pos a = p, b = p;
                    mc_play(g, &b, m0[i], NULL);
                    mc_relay_budget_set(0);
                    mc_play(g, &a, m0[i], NULL);
                    mc_relay_budget_set(8);
                    differ_play += memcmp(a.pit, b.pit, sizeof a.pit) != 0;
                }
            }
            mc_relay_budget_set(0);
            if (diff) {
                int n3 = mc_moves(g, &p, m2);
                exact_after &= same_moves(m0, n, m2, n3);
            }
            mc_result r;
            mc_play(g, &p, m0[mc_rng_below(&rng, (uint32_t)n)], NULL);
            mc_status(g, &p, NULL, &r);
            if (r.over)
                break;
        }
    }
    mc_relay_budget_set(0);
    CHECK_MSG(found >= 20,
              "a budget of 8 laps changed the moves of %d "
              "positions only",
              found);
    CHECK_MSG(exact_after, "exact moves changed after guesses");
    CHECK_MSG(differ_play == 0,
              "%d exact moves played differently under a budget", differ_play);
    mc_game_free(g);
}

static void test_mangled_input(void)
{
    /* Positions and moves with random characters changed: each is either
       refused with a message or parses to something that formats back to
       the same string (under the sanitizers: no overrun anywhere). */
    static const char alphabet[] = "0123456789,/ SNfirstcaptures=-+*AIaiPpQ";
    const char *base = "4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,"
                       "0,0,0,0,0 S first=SN captures=0,0";
    mc_game *g = game("omweso");
    mc_rng rng;
    mc_rng_seed(&rng, 5);
    int bad = 0;
    for (int k = 0; k < 3000; k++) {
        char buf[160];
        snprintf(buf, sizeof buf, "%s", base);
        size_t len = strlen(buf);
        for (int e = 0; e < 1 + (int)mc_rng_below(&rng, 3); e++) {
            size_t at = mc_rng_below(&rng, (uint32_t)len);
            buf[at] = alphabet[mc_rng_below(&rng, sizeof alphabet - 1)];
        }
        if (mc_rng_below(&rng, 4) == 0)
            buf[mc_rng_below(&rng, (uint32_t)len)] = '\0';
        mc_pos p;
        mc_error err = {0, ""};
        if (mc_pos_parse(g, buf, &p, &err) != 0) {
            bad += err.msg[0] == '\0';
            continue;
        }
        char back[MC_POS_STRLEN];
        mc_pos_format(g, &p, back, sizeof back);
        mc_pos q;
        bad += mc_pos_parse(g, back, &q, &err) != 0 ||
               memcmp(&p, &q, sizeof p) != 0;
        /* Random move tokens on whatever parsed. */
        char tok[8];
        for (int t = 0; t < 4; t++) {
            int n = 1 + (int)mc_rng_below(&rng, 6);
            for (int i = 0; i < n; i++)
                tok[i] = alphabet[mc_rng_below(&rng, sizeof alphabet - 1)];
            tok[n] = '\0';
            mc_move m;
            err.msg[0] = '\0';
            if (mc_move_parse(g, &p, tok, &m, &err) != 0)
                bad += err.msg[0] == '\0';
        }
    }
    CHECK_MSG(bad == 0, "%d mangled inputs without a message or round trip",
              bad);
    mc_game_free(g);
}

static void test_layout_and_names(void)
{
    /* Section 1: seen from South, North's outer row on top (p..i from
       South's left), North's inner row (h..a), South's inner row (A..H),
       South's outer row (I..P). */
    mc_game *g = game("omweso");
    mc_layout l;
    mc_layout_get(g, &l);
    CHECK(l.rows == 4 && l.cols == 8);
    static const char *const rows[4] = {"ponmlkji", "hgfedcba", "ABCDEFGH",
                                        "IJKLMNOP"};
    int bad = 0;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 8; c++)
            bad += mc_pit_name(g, l.pit[r][c])[0] != rows[r][c] ||
                   mc_pit_owner(g, NULL, l.pit[r][c]) !=
                       (r < 2 ? MC_NORTH : MC_SOUTH);
    CHECK_MSG(bad == 0, "%d pits misplaced", bad);
    /* Facing pits: South's H (8) faces North's a and i (W7). */
    CHECK_STR(mc_pit_name(g, 8), "H");
    CHECK_STR(mc_pit_name(g, 16 + 15), "a");
    CHECK_STR(mc_pit_name(g, 16 + 0), "i");
    CHECK(l.pit[1][7] == 16 + 15 && l.pit[2][7] == 8 && l.pit[0][7] == 16);
    char help[4096];
    mc_game_options_help(g, help, sizeof help);
    static const char *const keys[] = {
        "setup",      "setup_cap",    "first_turn_capture", "reverse",
        "three_seed", "never_ending", "akakyala",           "front_row_win",
        "match",      "max_plies"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        CHECK_MSG(strstr(help, keys[k]) != NULL, "option %s", keys[k]);
    CHECK_STR(mc_game_spec(g), "omweso");
    mc_game_free(g);
    g = game("omweso:akakyala=on,setup=all2,max_plies=300");
    CHECK_STR(mc_game_spec(g), "omweso:setup=all2,akakyala=on,max_plies=300");
    mc_game_free(g);
}

/* mc_moves_all: a buffer too small for the moves is an error that says
   how many there are, never a silent cut (the fixed MC_MAX_MOVES buffer of
   mc_moves has room for every position known).  Checked against mc_moves
   for Omweso (whose generator counts past the room) and Oware (which the
   library wraps: its start has one move per house, A to F, O3). */
static void test_moves_all(void)
{
    const char *specs[] = {"omweso", "oware"};
    for (int k = 0; k < 2; k++) {
        mc_game *g = mc_game_new(specs[k], NULL);
        mc_pos p;
        mc_start(g, &p);
        mc_move all[MC_MAX_MOVES], some[MC_MAX_MOVES];
        int n = mc_moves(g, &p, all), got = -1;
        CHECK(n > 3);
        mc_error err = {0, ""};
        CHECK(mc_moves_all(g, &p, some, MC_MAX_MOVES, &got, &err) == 0);
        CHECK(got == n && memcmp(some, all, (size_t)n * sizeof *all) == 0);
        memset(some, 0, sizeof some);
        CHECK(mc_moves_all(g, &p, some, 3, &got, &err) == MC_ERR_ARG);
        CHECK(err.code == MC_ERR_ARG && strstr(err.msg, "room for 3"));
        CHECK(got == n && memcmp(some, all, 3 * sizeof *all) == 0 &&
              some[3] == 0);
        CHECK(mc_moves_all(g, &p, some, n, &got, NULL) == 0 && got == n);
        mc_game_free(g);
    }
    mc_game *g = mc_game_new("oware", NULL);
    mc_pos p;
    mc_start(g, &p);
    mc_move m[6];
    int n = 0;
    CHECK(mc_moves_all(g, &p, m, 6, &n, NULL) == 0 && n == 6);
    char tok[MC_MOVE_STRLEN];
    mc_move_format(g, &p, m[0], tok, sizeof tok);
    CHECK(strcmp(tok, "A") == 0);
    mc_move_format(g, &p, m[5], tok, sizeof tok);
    CHECK(strcmp(tok, "F") == 0);
    mc_game_free(g);
}

/* mc_move_choice (issue 44: the page's picker showed "A-" with nothing to
   say what '-' is): the words are checked against the token as the rule
   file's notation reads it (a '-' per reverse choice taken clockwise, '+'
   counter-clockwise, '*' the three-seed opening sowing), over the moves of
   random play; and the pieces are seeds. */
static void test_choice_words(void)
{
    static const char *const nth[] = {"first", "second", "third", "fourth"};
    mc_game *g = game("omweso");
    CHECK_STR(mc_game_unit(g, 0), "seed");
    CHECK_STR(mc_game_unit(g, 1), "seeds");
    mc_rng rng;
    mc_rng_seed(&rng, 44);
    int marked = 0, starred = 0;
    static mc_move mv[MC_MAX_MOVES];
    for (int game_i = 0; game_i < 20; game_i++) {
        mc_pos p;
        mc_start(g, &p);
        for (int ply = 0; ply < 150; ply++) {
            int n = mc_moves(g, &p, mv);
            if (n == 0)
                break;
            for (int i = 0; i < n; i++) {
                char tok[MC_MOVE_STRLEN], w[300], want[300] = "";
                mc_move_format(g, &p, mv[i], tok, sizeof tok);
                size_t len = mc_move_choice(g, &p, mv[i], w, sizeof w);
                CHECK(len == strlen(w));
                const char *marks = tok + 1;
                if (*marks == '*') {
                    strcpy(want, "the three-seed opening sowing (W12)");
                    starred++;
                } else if (!*marks) {
                    strcpy(want, "counter-clockwise all the way");
                } else if (strlen(marks) <= 4) {
                    for (int k = 0; marks[k]; k++)
                        sprintf(want + strlen(want),
                                "%s%s at the %s reverse choice", k ? ", " : "",
                                marks[k] == '-' ? "clockwise"
                                                : "counter-clockwise",
                                nth[k]);
                    strcat(want, ", then counter-clockwise (W10)");
                    marked++;
                } else {
                    continue;
                }
                CHECK_MSG(strcmp(w, want) == 0, "%s: '%s', want '%s'", tok, w,
                          want);
            }
            mc_play(g, &p, mv[mc_rng_below(&rng, (uint32_t)n)], NULL);
        }
    }
    CHECK_MSG(marked > 10 && starred > 0,
              "%d moves with marks, %d '*': the test saw too few", marked,
              starred);
    mc_game_free(g);
    mc_game *o = game("oware"), *gr = game("gore");
    mc_pos p;
    mc_start(o, &p);
    char w[32];
    CHECK(mc_move_choice(o, &p, mv[0] = 2, w, sizeof w) == 1);
    CHECK_STR(w, "C");
    CHECK_STR(mc_game_unit(gr, 0), "stone");
    CHECK_STR(mc_game_unit(gr, 1), "stones");
    CHECK_STR(mc_game_unit(o, 1), "seeds");
    mc_game_free(o);
    mc_game_free(gr);
}

int main(void)
{
    static rgen r;
    test_moves_all();
    test_never_ending_example();
    test_pruned_counter_clockwise(&r);
    test_status();
    test_match();
    test_perft(&r);
    test_bad_positions();
    test_trace();
    test_layout_and_names();
    test_mangled_input();
    test_random_from_never_ending();
    test_relay_budget();
    test_choice_words();
    /* The engine against the naive reference, positions from random play
       of every set-up and every option that changes the moves. */
    random_games("omweso", R_EVERY, 1, 150, 1, &r, NULL);
    random_games("omweso:setup=all2", R_EVERY, 1, 150, 2, &r, NULL);
    static mc_pos setups[150];
    custom_setups(setups, 150, 3);
    random_games("omweso:setup=custom", R_EVERY, 1, 150, 3, &r, setups);
    random_games("omweso:reverse=first_lap", R_FIRST, 1, 60, 4, &r, NULL);
    random_games("omweso:reverse=none", R_NONE, 1, 60, 5, &r, NULL);
    random_games("omweso:never_ending=exclude", R_EVERY, 0, 60, 6, &r, NULL);
    printf("  reference: %d positions and %d boards compared, %d skipped "
           "(a path too long for the naive method); perft 2 from %d\n",
           ref_compared, boards_compared, ref_skipped, perft_compared);
    /* More games without the slow reference: every set-up ends. */
    random_games("omweso", 0, 1, 300, 11, NULL, NULL);
    random_games("omweso:setup=all2", 0, 1, 300, 12, NULL, NULL);
    return check_report("test_omweso");
}
