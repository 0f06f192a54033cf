/*
 * session.c - one game with its history: the single place where repetition
 * and ply limits are counted (for play, tools and perft alike), plus undo,
 * redo and forfeits.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "../games/game.h"
#include "clock.h"
#include "line.h"

struct mc_session {
    const mc_game *g;
    mc_line l;   /* l.pos[k]: position before move k; l.pos[n]: now */
    mc_move *mv; /* mv[k]: move k */
    int mv_cap;
    int n, top;    /* moves played, moves that redo can restore */
    mc_result res; /* status of the current position */
    int forced;    /* res was set by a forfeit */
    mc_clocks clk; /* both clocks (untimed: kind MC_TIME_NONE) */
};

static int grow(mc_session *s, int need)
{
    if (mc_line_grow(&s->l, need + 1) != 0)
        return -1;
    if (need >= s->mv_cap) {
        int cap = s->l.cap;
        mc_move *mv = realloc(s->mv, (size_t)cap * sizeof *mv);
        if (!mv)
            return -1;
        s->mv = mv;
        s->mv_cap = cap;
    }
    return 0;
}

/*
 * The session's invariants: the current ply within the moves redo can
 * restore, all of them with a position in the line and a move in mv[];
 * the current position's history windows start at or before it; its
 * hash is the line's.
 */
static void check(const mc_session *s)
{
    assert(s->n >= 0 && s->n <= s->top);
    assert(s->top < s->l.cap && s->top <= s->mv_cap);
    assert(s->l.wstart[s->n] <= s->n && s->l.qstart[s->n] <= s->n);
    assert(s->l.hash[s->n] == mc_hash(s->g, &s->l.pos[s->n]));
}

static void refresh(mc_session *s)
{
    mc_hist h;
    check(s);
    mc_line_hist(&s->l, s->n, &h);
    mc_status(s->g, &s->l.pos[s->n], &h, &s->res);
    s->forced = 0;
}

mc_session *mc_session_new(const mc_game *g, const mc_pos *start)
{
    mc_session *s = calloc(1, sizeof *s);
    if (!s || grow(s, 0) != 0) {
        mc_session_free(s);
        return NULL;
    }
    s->g = g;
    mc_pos p0;
    if (start)
        p0 = *start;
    else
        mc_start(g, &p0);
    mc_line_root(&s->l, g, &p0);
    refresh(s);
    return s;
}

void mc_session_free(mc_session *s)
{
    if (!s)
        return;
    mc_line_free(&s->l);
    free(s->mv);
    free(s);
}

const mc_game *mc_session_game(const mc_session *s)
{
    return s->g;
}
const mc_pos *mc_session_pos(const mc_session *s)
{
    return &s->l.pos[s->n];
}
int mc_session_ply(const mc_session *s)
{
    return s->n;
}
int mc_session_over(const mc_session *s)
{
    return s->res.over;
}

void mc_session_result(const mc_session *s, mc_result *r)
{
    *r = s->res;
}

int mc_session_fresh(const mc_session *s)
{
    return s->l.wstart[s->n] == s->n;
}

void mc_session_hist(const mc_session *s, mc_hist *h)
{
    mc_line_hist(&s->l, s->n, h);
}

int mc_session_moves(const mc_session *s, mc_move *out)
{
    if (s->res.over)
        return 0;
    return mc_moves(s->g, &s->l.pos[s->n], out);
}

mc_move mc_session_move_at(const mc_session *s, int n)
{
    return n >= 0 && n < s->n ? s->mv[n] : 0;
}

const mc_pos *mc_session_pos_at(const mc_session *s, int n)
{
    return n >= 0 && n <= s->n ? &s->l.pos[n] : NULL;
}

int mc_session_play(mc_session *s, mc_move m, mc_trace *trace, mc_error *err)
{
    if (s->res.over)
        return mc_err(err, MC_ERR_OVER, _("the game is over"));
    mc_move list[MC_MAX_MOVES];
    int n = m == MC_MOVE_PASS ? 0 : mc_moves(s->g, &s->l.pos[s->n], list);
    int ok = m == MC_MOVE_PASS; /* replaying a passed turn */
    for (int i = 0; i < n && !ok; i++)
        ok = list[i] == m;
    if (!ok)
        return mc_err(err, MC_ERR_ILLEGAL, _("not a legal move here"));
    if (grow(s, s->n + 1) != 0)
        return mc_err(err, MC_ERR_NOMEM, _("out of memory"));
    s->l.pos[s->n + 1] = s->l.pos[s->n];
    int fl = mc_play(s->g, &s->l.pos[s->n + 1], m, trace);
    /* No game adds seeds: they are conserved (Oware, Omweso, Gore: with
       the captures) or leave the board (Sadeqa II). */
    assert(mc_total(s->g, &s->l.pos[s->n + 1]) <=
           mc_total(s->g, &s->l.pos[s->n]));
    mc_line_link(&s->l, s->g, s->n, fl);
    s->mv[s->n] = m;
    s->n++;
    s->top = s->n;
    refresh(s);
    return 0;
}

int mc_session_play_str(mc_session *s, const char *tok, mc_trace *trace,
                        mc_error *err)
{
    mc_move m;
    if (s->res.over)
        return mc_err(err, MC_ERR_OVER,
                      _("the game is over; %s cannot be played"), tok);
    int rc = mc_move_parse(s->g, &s->l.pos[s->n], tok, &m, err);
    if (rc)
        return rc;
    return mc_session_play(s, m, trace, err);
}

int mc_session_pass_turn(mc_session *s, mc_error *err)
{
    if (s->res.over)
        return mc_err(err, MC_ERR_OVER, _("the game is over: no turn to pass"));
    return mc_session_play(s, MC_MOVE_PASS, NULL, err);
}

int mc_session_undo(mc_session *s)
{
    if (s->clk.tc.no_undo)
        return MC_ERR_ILLEGAL;
    if (s->forced) {
        refresh(s);
        return 0;
    }
    if (s->n == 0)
        return MC_ERR_ARG;
    s->n--;
    refresh(s);
    return 0;
}

int mc_session_redo(mc_session *s)
{
    if (s->n >= s->top)
        return MC_ERR_ARG;
    s->n++;
    refresh(s);
    return 0;
}

void mc_session_forfeit(mc_session *s, int side, int reason)
{
    assert(side == MC_SOUTH || side == MC_NORTH);
    memset(&s->res, 0, sizeof s->res);
    s->res.over = 1;
    s->res.winner = side == MC_SOUTH ? MC_NORTH : MC_SOUTH;
    s->res.reason = reason;
    mc_sb b;
    mc_sb_init(&b, s->res.detail, sizeof s->res.detail);
    mc_sb_printf(&b, "%s %s", side == MC_SOUTH ? "South" : "North",
                 reason == MC_END_TIME ? "lost on time" : "resigned");
    s->forced = 1;
}

/* ---- clocks (the arithmetic is clock.c's) ---- */

int mc_session_set_time(mc_session *s, const mc_time_control *tc, double now)
{
    if (!tc || tc->kind < MC_TIME_NONE || tc->kind > MC_TIME_GAME ||
        (tc->kind != MC_TIME_NONE && !(tc->seconds > 0)) ||
        !(tc->increment >= 0))
        return MC_ERR_ARG;
    mc_clocks_init(&s->clk, tc, now);
    return 0;
}

void mc_session_time(const mc_session *s, mc_time_control *tc)
{
    *tc = s->clk.tc;
}

int mc_session_clock(const mc_session *s, double now, double left[2])
{
    if (!mc_clocks_timed(&s->clk)) {
        left[0] = left[1] = -1;
        return -1;
    }
    left[0] = s->clk.bank[0];
    left[1] = s->clk.bank[1];
    if (s->res.over || s->clk.since < 0)
        return -1;
    int side = s->l.pos[s->n].side;
    left[side] = mc_clocks_left(&s->clk, side, now);
    return side;
}

int mc_session_check_time(mc_session *s, double now)
{
    int happened = 0;
    /* Each pass is a ply: the game's ply limit ends a game nobody plays,
       and the count bounds the work of one check whatever the gap. */
    for (int k = 0; k < 100000 && !s->res.over && mc_clocks_timed(&s->clk);
         k++) {
        int side = s->l.pos[s->n].side;
        double due = mc_clocks_due(&s->clk, side);
        if (now < due)
            break;
        happened = 1;
        if (s->clk.tc.on_flag == MC_FLAG_PASS &&
            mc_session_pass_turn(s, NULL) == 0) {
            mc_clocks_turn(&s->clk, side, due, 0);
            continue;
        }
        s->clk.bank[side] = 0;
        mc_session_forfeit(s, side, MC_END_TIME);
    }
    return happened;
}

static const char *side_word(int side)
{
    return mc_side_word(side);
}

int mc_session_play_at(mc_session *s, mc_move m, double now, mc_trace *trace,
                       mc_error *err)
{
    int side = s->l.pos[s->n].side;
    if (mc_session_check_time(s, now)) {
        if (s->res.over)
            return mc_err(err, MC_ERR_OVER,
                          _("%s's time ran out: the game is "
                            "over, lost on time"),
                          side_word(side));
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s's time ran out: the turn "
                        "passed to %s"),
                      side_word(side), side_word(1 - side));
    }
    int rc = mc_session_play(s, m, trace, err);
    if (rc == 0)
        mc_clocks_turn(&s->clk, side, now, 1);
    return rc;
}

/* Undo or redo at now: charge the side whose clock ran, then its turn
   ends without a move. */
static int undo_redo_at(mc_session *s, double now, int redo, mc_error *err)
{
    if (s->clk.tc.no_undo) {
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("no take-backs under this time control (%s)"),
                      s->clk.tc.mode[0] ? s->clk.tc.mode : "no_undo");
    }
    mc_session_check_time(s, now);
    if (s->forced && s->res.reason == MC_END_TIME && !redo)
        return mc_err(
            err, MC_ERR_OVER,
            _("a loss on time cannot be taken back: the time is spent"));
    int side = s->l.pos[s->n].side, running = !s->res.over;
    int rc = redo ? mc_session_redo(s) : mc_session_undo(s);
    if (rc != 0)
        return mc_err(err, rc,
                      redo ? "there is no move to redo"
                           : "there is no move to undo");
    if (!running) /* the game was over: no clock ran, none is charged */
        s->clk.since = -1;
    mc_clocks_turn(&s->clk, side, now, 0);
    return 0;
}

int mc_session_undo_at(mc_session *s, double now, mc_error *err)
{
    return undo_redo_at(s, now, 0, err);
}

int mc_session_redo_at(mc_session *s, double now, mc_error *err)
{
    return undo_redo_at(s, now, 1, err);
}

void mc_session_clock_state(const mc_session *s, double bank[2], double *since)
{
    bank[0] = s->clk.bank[0];
    bank[1] = s->clk.bank[1];
    *since = s->clk.since;
}

int mc_session_clock_restore(mc_session *s, const double bank[2], double since)
{
    if (!(bank[0] >= 0) || !(bank[1] >= 0))
        return MC_ERR_ARG;
    s->clk.bank[0] = bank[0];
    s->clk.bank[1] = bank[1];
    s->clk.since = since;
    return 0;
}

/* ---- perft: leaves at exactly depth d, with the session's end rules ---- */

typedef struct perft_ctx {
    const mc_game *g;
    mc_line l;
} perft_ctx;

static uint64_t perft_rec(perft_ctx *c, int k, int depth)
{
    if (depth == 0)
        return 1;
    mc_hist h;
    mc_result r;
    mc_line_hist(&c->l, k, &h);
    mc_status(c->g, &c->l.pos[k], &h, &r);
    if (r.over)
        return 0;
    mc_move mv[MC_MAX_MOVES];
    int n = mc_moves(c->g, &c->l.pos[k], mv);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    mc_hot_assert(k + depth < c->l.cap); /* mc_perft made room */
    for (int i = 0; i < n; i++) {
        c->l.pos[k + 1] = c->l.pos[k];
        int fl = mc_play(c->g, &c->l.pos[k + 1], mv[i], NULL);
        mc_line_link(&c->l, c->g, k, fl);
        total += perft_rec(c, k + 1, depth - 1);
    }
    return total;
}

uint64_t mc_perft(const mc_game *g, const mc_pos *p, int depth)
{
    if (depth < 0 || depth > 1000)
        return 0;
    perft_ctx c = {g, {0}};
    if (mc_line_grow(&c.l, depth + 1) != 0) {
        mc_line_free(&c.l);
        return 0;
    }
    mc_line_root(&c.l, g, p);
    uint64_t r = perft_rec(&c, 0, depth);
    mc_line_free(&c.l);
    return r;
}

/* ---- uniform random games ---- */

int mc_random_game(const mc_game *g, const mc_pos *start, mc_rng *rng,
                   int max_plies, mc_result *res)
{
    mc_line l = {0};
    int k = 0;
    memset(res, 0, sizeof *res);
    if (mc_line_grow(&l, 256) != 0)
        goto out;
    mc_line_root(&l, g, start);
    for (;;) {
        mc_hist h;
        mc_line_hist(&l, k, &h);
        mc_status(g, &l.pos[k], &h, res);
        if (res->over || (max_plies > 0 && k >= max_plies))
            break;
        mc_move mv[MC_MAX_MOVES];
        int n = mc_moves(g, &l.pos[k], mv);
        if (n == 0 || mc_line_grow(&l, k + 1) != 0)
            break; /* n == 0 cannot happen when status is consistent */
        l.pos[k + 1] = l.pos[k];
        int fl =
            mc_play(g, &l.pos[k + 1], mv[mc_rng_below(rng, (uint32_t)n)], NULL);
        mc_line_link(&l, g, k, fl);
        k++;
    }
out:
    mc_line_free(&l);
    return k;
}
