/*
 * search.c - the computer player: negamax alpha-beta with iterative
 * deepening and a transposition table, over the game interface only (no
 * game-specific code here: evaluations live with their game).  History rules
 * are decided through the same line-of-play code as the session, so the
 * search sees repetition exactly as play does.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../games/game.h"
#include "../session/line.h"

#define MAX_PLY 128

typedef struct tt_entry {
    uint64_t key;
    int32_t score;
    int8_t depth;
    uint8_t bound; /* 1 upper, 2 lower, 3 exact */
    uint8_t move;  /* index of the best move in the move list */
    uint8_t pad;
} tt_entry;

typedef struct ctx {
    const mc_game *g;
    mc_line l;
    int root; /* index of the root position in the line */
    tt_entry *tt;
    size_t tt_mask;
    uint64_t nodes, node_limit;
    double deadline;
    int stop;
    volatile int *ext_stop;
    int history[MC_MAX_PITS * 4];
} ctx;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int evaluate(const ctx *c, const mc_pos *p)
{
    if (c->g->rules->eval)
        return c->g->rules->eval(c->g, p);
    return 100 * ((int)p->cap[p->side] - (int)p->cap[1 - p->side]);
}

/* Score of a finished game from the view of the side to move at ply k. */
static int terminal(const mc_result *r, int side, int ply)
{
    if (r->winner == MC_DRAW)
        return 0;
    return r->winner == side ? MC_SCORE_WIN - ply : -(MC_SCORE_WIN - ply);
}

static int hist_slot(mc_move m)
{
    return (int)(m % (MC_MAX_PITS * 4));
}

static int negamax(ctx *c, int k, int depth, int alpha, int beta)
{
    const mc_pos *p = &c->l.pos[k];
    int ply = k - c->root;
    c->nodes++;
    if ((c->nodes & 1023) == 0) {
        if ((c->node_limit && c->nodes >= c->node_limit) ||
            (c->deadline > 0 && now_seconds() >= c->deadline) ||
            (c->ext_stop && *c->ext_stop))
            c->stop = 1;
    }
    if (c->stop)
        return 0;
    mc_hist h;
    mc_result r;
    mc_line_hist(&c->l, k, &h);
    mc_status(c->g, p, &h, &r);
    if (r.over)
        return terminal(&r, p->side, ply);
    if (depth <= 0 || ply >= MAX_PLY - 1)
        return evaluate(c, p);

    uint64_t key = c->l.hash[k];
    tt_entry *e = &c->tt[key & c->tt_mask];
    int tt_move = -1;
    /* Entries are trusted only at nodes whose history cannot matter: no
       position since the last irreversible move lies before the root. */
    if (e->key == key) {
        tt_move = e->move;
        if (e->depth >= depth && ply > 0 && h.occurrences == 1) {
            if (e->bound == 3 || (e->bound == 2 && e->score >= beta) ||
                (e->bound == 1 && e->score <= alpha))
                return e->score;
        }
    }
    mc_move mv[MC_MAX_MOVES];
    int n = mc_moves(c->g, p, mv);
    /* Order: the hash move first, then by history score. */
    int order[MC_MAX_MOVES], key_of[MC_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        order[i] = i;
        key_of[i] = i == tt_move ? 1 << 30 : c->history[hist_slot(mv[i])];
    }
    for (int i = 1; i < n; i++) {
        int o = order[i], v = key_of[o], j = i;
        while (j > 0 && key_of[order[j - 1]] < v) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = o;
    }
    if (mc_line_grow(&c->l, k + 1) != 0) {
        c->stop = 1;
        return 0;
    }
    int best = -MC_SCORE_WIN - 1, best_i = 0, a0 = alpha;
    for (int oi = 0; oi < n; oi++) {
        int i = order[oi];
        c->l.pos[k + 1] = c->l.pos[k];
        int fl = mc_play(c->g, &c->l.pos[k + 1], mv[i], NULL);
        mc_line_link(&c->l, c->g, k, fl);
        /* Sides alternate in most games but not all (a Goré answer is
           followed by the same side's sowing): negate only on a change. */
        int same = c->l.pos[k + 1].side == p->side;
        int v = same ? negamax(c, k + 1, depth - 1, alpha, beta)
                     : -negamax(c, k + 1, depth - 1, -beta, -alpha);
        if (c->stop)
            return 0;
        if (v > best) {
            best = v;
            best_i = i;
        }
        if (v > alpha)
            alpha = v;
        if (alpha >= beta) {
            c->history[hist_slot(mv[i])] += depth * depth;
            break;
        }
    }
    e->key = key;
    e->score = best;
    e->depth = (int8_t)depth;
    e->bound = best <= a0 ? 1 : best >= beta ? 2 : 3;
    e->move = (uint8_t)(best_i < 256 ? best_i : 0);
    return best;
}

/* Principal variation: the chosen move, then the hash moves after it. */
static void build_pv(const ctx *c, const mc_pos *root, mc_search_info *out)
{
    mc_pos p = *root;
    out->pv[0] = out->best;
    out->pvlen = 1;
    mc_play(c->g, &p, out->best, NULL);
    while (out->pvlen < 64) {
        uint64_t key = mc_hash(c->g, &p);
        const tt_entry *e = &c->tt[key & c->tt_mask];
        mc_move m2[MC_MAX_MOVES];
        int n2 = mc_moves(c->g, &p, m2);
        if (e->key != key || e->move >= n2)
            break;
        out->pv[out->pvlen++] = m2[e->move];
        mc_play(c->g, &p, m2[e->move], NULL);
    }
}

/* Rebuild the session's history as a line, replaying for the play flags. */
static int load_line(ctx *c, const mc_session *s)
{
    int n = mc_session_ply(s);
    if (mc_line_grow(&c->l, n + MAX_PLY + 2) != 0)
        return -1;
    mc_line_root(&c->l, c->g, mc_session_pos_at(s, 0));
    for (int k = 0; k < n; k++) {
        mc_pos q = *mc_session_pos_at(s, k);
        int fl = mc_play(c->g, &q, mc_session_move_at(s, k), NULL);
        c->l.pos[k + 1] = *mc_session_pos_at(s, k + 1);
        mc_line_link(&c->l, c->g, k, fl);
    }
    c->root = n;
    return 0;
}

int mc_search(const mc_session *s, const mc_search_limits *lim,
              mc_search_info *out)
{
    memset(out, 0, sizeof *out);
    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(s, mv);
    if (n == 0)
        return MC_ERR_OVER;
    ctx *c = calloc(1, sizeof *c);
    if (!c)
        return MC_ERR_ARG;
    c->g = mc_session_game(s);
    size_t entries = (size_t)(lim->hash_mb > 0 ? lim->hash_mb : 16) << 20;
    entries /= sizeof(tt_entry);
    size_t pow2 = 1024;
    while (pow2 * 2 <= entries)
        pow2 *= 2;
    c->tt_mask = pow2 - 1;
    c->ext_stop = lim->stop;
    c->tt = calloc(c->tt_mask + 1, sizeof *c->tt);
    if (!c->tt || load_line(c, s) != 0) {
        free(c->tt);
        mc_line_free(&c->l);
        free(c);
        return MC_ERR_ARG;
    }
    int level = lim->level > 0 && lim->level < 10 ? lim->level : 10;
    int max_depth = lim->depth > 0 ? lim->depth : 64;
    if (level < 10 && max_depth > 2 * level - 1)
        max_depth = 2 * level - 1;
    double t0 = now_seconds();
    c->deadline = lim->seconds > 0 ? t0 + lim->seconds : 0;
    c->node_limit = lim->nodes;
    out->best = mv[0];
    const mc_pos *root = &c->l.pos[c->root];
    int scores[MC_MAX_MOVES];
    for (int d = 1; d <= max_depth; d++) {
        int best = -MC_SCORE_WIN - 1, best_i = 0;
        int alpha = -MC_SCORE_WIN - 1, beta = MC_SCORE_WIN + 1;
        for (int i = 0; i < n; i++) {
            if (c->ext_stop && *c->ext_stop)
                c->stop = 1;
            if (c->stop)
                break;
            int k = c->root;
            c->l.pos[k + 1] = c->l.pos[k];
            int fl = mc_play(c->g, &c->l.pos[k + 1], mv[i], NULL);
            mc_line_link(&c->l, c->g, k, fl);
            int same = c->l.pos[k + 1].side == root->side;
            int v = same ? negamax(c, k + 1, d - 1, alpha, beta)
                         : -negamax(c, k + 1, d - 1, -beta, -alpha);
            if (c->stop)
                break;
            scores[i] = v;
            if (v > best) {
                best = v;
                best_i = i;
            }
            if (v > alpha && level == 10)
                alpha = v; /* lower levels need every move's true score */
        }
        if (c->stop)
            break;
        /* Search the best move first next time. */
        mc_move tmp = mv[best_i];
        int ts = scores[best_i];
        memmove(mv + 1, mv, (size_t)best_i * sizeof mv[0]);
        memmove(scores + 1, scores, (size_t)best_i * sizeof scores[0]);
        mv[0] = tmp;
        scores[0] = ts;
        out->best = mv[0];
        out->score = best;
        out->depth = d;
        if (lim->on_info) {
            out->nodes = c->nodes;
            out->seconds = now_seconds() - t0;
            build_pv(c, root, out);
            lim->on_info(out, lim->info_ctx);
        }
        if (best >= MC_SCORE_PROVEN || best <= -MC_SCORE_PROVEN)
            break; /* proven: deeper search cannot change the verdict */
    }
    if (level < 10 && out->depth > 0) {
        /* Human-like mistakes: choose among the moves within a margin that
           grows as the level falls, weighted towards the better ones. */
        mc_rng rng;
        mc_rng_seed(&rng, lim->seed ^ c->l.hash[c->root]);
        int margin = (10 - level) * 60;
        int cand = 0;
        for (int i = 0; i < n; i++)
            if (scores[i] >= out->score - margin)
                cand++;
        int pick = (int)mc_rng_below(&rng, (uint32_t)cand);
        for (int i = 0, seen = 0; i < n; i++)
            if (scores[i] >= out->score - margin && seen++ == pick) {
                out->best = mv[i];
                out->score = scores[i];
                break;
            }
    }
    out->nodes = c->nodes;
    out->seconds = now_seconds() - t0;
    build_pv(c, root, out);
    free(c->tt);
    mc_line_free(&c->l);
    free(c);
    return 0;
}
