/*
 * mcts.c - the second computer player: Monte Carlo tree search (UCT) with
 * uniform random playouts, over the game interface only.  The tree is kept
 * in one growing array; positions are not stored but replayed from the
 * root along the path, so a node costs a few words.  History rules are
 * counted along the tree path through the same line-of-play code as the
 * session; playouts restart their history at the leaf (an approximation
 * that only matters for repetitions spanning the leaf).
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../games/game.h"
#include "../session/line.h"
#include "search_internal.h"
#include "../core/util.h"

typedef struct node {
    mc_move move;    /* the move that led here */
    int32_t parent;  /* -1 at the root */
    int32_t first;   /* first child, -1 until expanded */
    int32_t nkids;   /* children made so far */
    int32_t nmoves;  /* legal moves here (-1 until known) */
    int8_t mover;    /* the side that played `move` */
    int8_t terminal; /* 1 when the game is over here */
    double visits;
    double wins; /* from the view of `mover` (draw = 1/2) */
} node;

typedef struct tree {
    node *n;
    size_t len, cap;
} tree;

static int32_t add_node(tree *t, mc_move m, int32_t parent, int mover)
{
    size_t cap = mc_grow(&t->n, t->cap, t->len + 1, sizeof *t->n, 4096);
    if (!cap)
        return -1;
    t->cap = cap;
    node *x = &t->n[t->len];
    memset(x, 0, sizeof *x);
    x->move = m;
    x->parent = parent;
    x->first = -1;
    x->nmoves = -1;
    x->mover = (int8_t)mover;
    return (int32_t)t->len++;
}

/* When to stop, from the request (0: no time limit): a move time, or the
   time manager's aim for the mover's clock, counted from the request's
   start; at least a millisecond from now (t0). */
static double deadline_of(const mc_request *rq, int side, double t0)
{
    double budget = 0;
    if (rq->movetime > 0) {
        budget = rq->movetime;
    } else if (!rq->infinite && !rq->ponder && rq->clock[side] > 0) {
        mc_timeman tm;
        mc_tm_of_request(&tm, rq, side, 1.0);
        budget = tm.soft;
    } else {
        return 0;
    }
    double when = rq->start + budget;
    return when > t0 + 0.001 ? when : t0 + 0.001;
}

/* 1, 1/2 or 0 for `side` from a finished game's result. */
static double outcome(const mc_result *r, int side)
{
    if (!r->over || r->winner == MC_DRAW)
        return 0.5;
    return r->winner == side ? 1.0 : 0.0;
}

/* The deepest a path goes (the selection stops there and plays out). */
#define MAX_PATH 1000
#define C_UCT 1.4

/* One search: the tree, the line of play (the session's history, then
   the current path), and the path's nodes. */
typedef struct mcts {
    const mc_game *g;
    tree t;
    mc_line l;
    int base; /* the root's place in the line */
    mc_rng rng;
    int32_t path[MAX_PATH + 1];
    int depth;   /* nodes on the path above cur */
    int k;       /* cur's place in the line */
    int32_t cur; /* the node reached */
} mcts;

/* The session's history as a line, replayed for the play flags. */
static int load_line(mcts *m, const mc_session *s)
{
    m->base = mc_session_ply(s);
    if (mc_line_grow(&m->l, m->base + 1) != 0)
        return -1;
    mc_line_root(&m->l, m->g, mc_session_pos_at(s, 0));
    for (int k = 0; k < m->base; k++) {
        mc_pos q = *mc_session_pos_at(s, k);
        int fl = mc_play(m->g, &q, mc_session_move_at(s, k), NULL);
        m->l.pos[k + 1] = *mc_session_pos_at(s, k + 1);
        mc_line_link(&m->l, m->g, k, fl);
    }
    return 0;
}

/* Go down to child `to` of cur, playing its move into the line. */
static int descend(mcts *m, int32_t to)
{
    assert(m->depth < MAX_PATH && to > m->cur);
    if (mc_line_grow(&m->l, m->k + 1) != 0)
        return -1;
    m->l.pos[m->k + 1] = m->l.pos[m->k];
    int fl = mc_play(m->g, &m->l.pos[m->k + 1], m->t.n[to].move, NULL);
    mc_line_link(&m->l, m->g, m->k, fl);
    m->k++;
    m->path[m->depth++] = m->cur;
    m->cur = to;
    return 0;
}

/* Selection: from the root down by UCB1 while every child of the node
   has been visited (and the game goes on). */
static int select_leaf(mcts *m)
{
    m->cur = 0;
    m->k = m->base;
    m->depth = 0;
    for (;;) {
        node *x = &m->t.n[m->cur];
        if (x->terminal)
            return 0;
        if (x->nmoves < 0) {
            mc_move mv[MC_MAX_MOVES];
            x->nmoves = mc_moves(m->g, &m->l.pos[m->k], mv);
        }
        /* Expand here; or play out from a node without moves (the rules
           cut short by a deadline) rather than descend into none. */
        if (x->nkids < x->nmoves || x->nmoves == 0 || m->depth >= MAX_PATH)
            return 0;
        assert(x->nkids == x->nmoves && x->first > 0);
        double best = -1, lnv = log(x->visits + 1);
        int32_t pick = x->first;
        for (int32_t i = 0; i < x->nkids; i++) {
            const node *ch = &m->t.n[x->first + i];
            double u = ch->wins / ch->visits + C_UCT * sqrt(lnv / ch->visits);
            if (u > best) {
                best = u;
                pick = x->first + i;
            }
        }
        if (descend(m, pick) != 0)
            return -1;
    }
}

/* Expansion: the next untried move of cur, in a random order of first
   visits.  Every child of a node is made at its first expansion, so that
   a node's children are contiguous in the array. */
static int expand(mcts *m)
{
    node *x = &m->t.n[m->cur];
    if (x->terminal || x->nkids >= x->nmoves || m->depth >= MAX_PATH)
        return 0;
    mc_move mv[MC_MAX_MOVES];
    int n = mc_moves(m->g, &m->l.pos[m->k], mv);
    /* the same list as when they were counted, unless the rules' deadline
       cut this one short */
    assert((n == x->nmoves && n > x->nkids) || mc_deadline_fired());
    if (n <= x->nkids)
        return 0;
    if (x->first < 0) {
        int32_t first = -1;
        for (int i = 0; i < n; i++) {
            mc_pos q = m->l.pos[m->k];
            mc_play(m->g, &q, mv[i], NULL);
            int32_t id = add_node(&m->t, mv[i], m->cur, m->l.pos[m->k].side);
            if (id < 0)
                return -1;
            if (i == 0)
                first = id;
        }
        x = &m->t.n[m->cur]; /* the array may have moved */
        x->first = first;
    }
    int32_t pickc = x->first + x->nkids;
    int32_t swapc = x->first + x->nkids +
                    (int32_t)mc_rng_below(&m->rng, (uint32_t)(n - x->nkids));
    node tmp = m->t.n[pickc];
    m->t.n[pickc] = m->t.n[swapc];
    m->t.n[swapc] = tmp;
    x->nkids++;
    return descend(m, pickc);
}

/* Simulation: the game's end at cur, or a random playout from there. */
static void simulate(mcts *m, mc_result *r)
{
    mc_hist h;
    mc_line_hist(&m->l, m->k, &h);
    mc_status(m->g, &m->l.pos[m->k], &h, r);
    if (r->over)
        m->t.n[m->cur].terminal = 1;
    else
        mc_random_game(m->g, &m->l.pos[m->k], &m->rng, 2000, r);
}

/* Backpropagation: the result counted at cur and every node above it. */
static void backprop(mcts *m, const mc_result *r)
{
    for (int32_t v = m->cur, d = m->depth;; v = m->path[--d]) {
        node *y = &m->t.n[v];
        y->visits += 1;
        y->wins += outcome(r, y->mover);
        assert(y->wins <= y->visits);
        if (d == 0)
            break;
    }
}

/* The move: the most visited child of the root, its win rate as a rough
   score (hundredths of a seed). */
static void answer(const tree *t, mc_search_info *out)
{
    const node *root = &t->n[0];
    double most = -1;
    for (int32_t i = 0; i < root->nkids; i++) {
        const node *ch = &t->n[root->first + i];
        if (ch->visits > most) {
            most = ch->visits;
            out->best = ch->move;
            double p = ch->wins / ch->visits;
            out->score = (int)lround((p - 0.5) * 2000);
        }
    }
    out->depth = 1;
    out->pv[0] = out->best;
    out->pvlen = 1;
}

int mc_mcts(const mc_session *s, const mc_request *rq, uint64_t seed,
            const atomic_int *stop, mc_search_info *out)
{
    mc_move rootmv[MC_MAX_MOVES];
    int nroot = mc_session_moves(s, rootmv);
    memset(out, 0, sizeof *out);
    if (nroot == 0)
        return MC_ERR_OVER;
    out->best = rootmv[0];
    mcts m = {0};
    m.g = mc_session_game(s);
    if (load_line(&m, s) != 0)
        return MC_ERR_NOMEM;
    int root_side = m.l.pos[m.base].side;
    if (add_node(&m.t, 0, -1, 1 - root_side) < 0) {
        mc_line_free(&m.l);
        return MC_ERR_NOMEM;
    }
    mc_rng_seed(&m.rng, seed ^ 0x6d637473ull);
    double t0 = mc_now();
    double deadline = deadline_of(rq, root_side, t0);
    uint64_t limit = rq->nodes ? rq->nodes : (deadline > 0 ? 0 : 100000);
    uint64_t it = 0;
    for (;;) {
        if (limit && it >= limit)
            break;
        if ((it & 63) == 0 &&
            ((deadline > 0 && mc_now() >= deadline) ||
             (stop && atomic_load_explicit(stop, memory_order_relaxed)) ||
             mc_outside_stop(rq->stop)))
            break;
        it++;
        if (select_leaf(&m) != 0 || expand(&m) != 0)
            break; /* out of memory: answer with what there is */
        mc_result r;
        simulate(&m, &r);
        backprop(&m, &r);
    }
    answer(&m.t, out);
    out->nodes = it;
    out->seconds = mc_now() - t0;
    if (rq->on_info)
        rq->on_info(out, rq->info_ctx);
    free(m.t.n);
    mc_line_free(&m.l);
    return 0;
}
