/*
 * mcts.c - the second computer player: Monte Carlo tree search (UCT) with
 * uniform random playouts, over the game interface only.  The tree is kept
 * in one growing array; positions are not stored but replayed from the
 * root along the path, so a node costs a few words.  History rules are
 * counted along the tree path through the same line-of-play code as the
 * session; playouts restart their history at the leaf (an approximation
 * that only matters for repetitions spanning the leaf).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../games/game.h"
#include "../session/line.h"
#include "search_internal.h"
#include "../core/util.h"

typedef struct node {
    mc_move move;     /* the move that led here */
    int32_t parent;   /* -1 at the root */
    int32_t first;    /* first child, -1 until expanded */
    int32_t nkids;    /* children made so far */
    int32_t nmoves;   /* legal moves here (-1 until known) */
    int8_t mover;     /* the side that played `move` */
    int8_t terminal;  /* 1 when the game is over here */
    double visits;
    double wins;      /* from the view of `mover` (draw = 1/2) */
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

int mc_mcts(const mc_session *s, const mc_request *rq, uint64_t seed,
            const atomic_int *stop, mc_search_info *out)
{
    const mc_game *g = mc_session_game(s);
    mc_move rootmv[MC_MAX_MOVES];
    int nroot = mc_session_moves(s, rootmv);
    memset(out, 0, sizeof *out);
    if (nroot == 0)
        return MC_ERR_OVER;
    out->best = rootmv[0];
    /* The line holds the session's history and then the current path. */
    mc_line l = {0};
    int base = mc_session_ply(s);
    if (mc_line_grow(&l, base + 1) != 0)
        return MC_ERR_NOMEM;
    mc_line_root(&l, g, mc_session_pos_at(s, 0));
    for (int k = 0; k < base; k++) {
        mc_pos q = *mc_session_pos_at(s, k);
        int fl = mc_play(g, &q, mc_session_move_at(s, k), NULL);
        l.pos[k + 1] = *mc_session_pos_at(s, k + 1);
        mc_line_link(&l, g, k, fl);
    }
    tree t = {0};
    int root_side = l.pos[base].side;
    if (add_node(&t, 0, -1, 1 - root_side) < 0) {
        mc_line_free(&l);
        return MC_ERR_NOMEM;
    }
    mc_rng rng;
    mc_rng_seed(&rng, seed ^ 0x6d637473ull);
    double t0 = mc_now();
    double deadline = deadline_of(rq, root_side, t0);
    uint64_t limit = rq->nodes ? rq->nodes : (deadline > 0 ? 0 : 100000);
    uint64_t it = 0;
    const double c_uct = 1.4;
    int32_t path[1024];
    for (;;) {
        if (limit && it >= limit)
            break;
        if ((it & 63) == 0 &&
            ((deadline > 0 && mc_now() >= deadline) ||
             (stop && atomic_load_explicit(stop, memory_order_relaxed)) ||
             mc_outside_stop(rq->stop)))
            break;
        it++;
        /* Selection: descend by UCB1, replaying moves into the line. */
        int32_t cur = 0;
        int k = base, depth = 0;
        for (;;) {
            node *x = &t.n[cur];
            if (x->terminal)
                break;
            if (x->nmoves < 0) {
                mc_move mv[MC_MAX_MOVES];
                x->nmoves = mc_moves(g, &l.pos[k], mv);
            }
            if (x->nkids < x->nmoves || depth >= 1000)
                break; /* expand here */
            double best = -1, lnv = log(x->visits + 1);
            int32_t pick = x->first;
            for (int32_t i = 0; i < x->nkids; i++) {
                const node *ch = &t.n[x->first + i];
                double u = ch->wins / ch->visits +
                           c_uct * sqrt(lnv / ch->visits);
                if (u > best) {
                    best = u;
                    pick = x->first + i;
                }
            }
            if (mc_line_grow(&l, k + 1) != 0)
                goto done;
            l.pos[k + 1] = l.pos[k];
            int fl = mc_play(g, &l.pos[k + 1], t.n[pick].move, NULL);
            mc_line_link(&l, g, k, fl);
            k++;
            path[depth++] = cur;
            cur = pick;
        }
        /* Expansion: the next untried move, in list order (children of a
           node are made consecutively, so they are added only while the
           node's block is the last in the array: otherwise add all). */
        node *x = &t.n[cur];
        double result_for_mover;
        if (!x->terminal && x->nkids < x->nmoves && depth < 1000) {
            mc_move mv[MC_MAX_MOVES];
            int n = mc_moves(g, &l.pos[k], mv);
            if (x->first < 0) {
                /* Make every child at once, so they are contiguous. */
                int32_t first = -1;
                for (int i = 0; i < n; i++) {
                    mc_pos q = l.pos[k];
                    mc_play(g, &q, mv[i], NULL);
                    int32_t id = add_node(&t, mv[i], cur, l.pos[k].side);
                    if (id < 0)
                        goto done;
                    if (i == 0)
                        first = id;
                }
                x = &t.n[cur];
                x->first = first;
            }
            /* Visit the children in a random order of first visits. */
            int32_t pickc = x->first + x->nkids;
            int32_t swapc = x->first + x->nkids +
                            (int32_t)mc_rng_below(&rng, (uint32_t)(n - x->nkids));
            node tmp = t.n[pickc];
            t.n[pickc] = t.n[swapc];
            t.n[swapc] = tmp;
            x->nkids++;
            if (mc_line_grow(&l, k + 1) != 0)
                goto done;
            l.pos[k + 1] = l.pos[k];
            int fl = mc_play(g, &l.pos[k + 1], t.n[pickc].move, NULL);
            mc_line_link(&l, g, k, fl);
            k++;
            path[depth++] = cur;
            cur = pickc;
        }
        /* Simulation: the game's end here, or a random playout. */
        mc_hist h;
        mc_result r;
        mc_line_hist(&l, k, &h);
        mc_status(g, &l.pos[k], &h, &r);
        if (r.over) {
            t.n[cur].terminal = 1;
        } else {
            mc_random_game(g, &l.pos[k], &rng, 2000, &r);
        }
        /* Backpropagation. */
        for (int32_t v = cur, d = depth;; v = path[--d]) {
            node *y = &t.n[v];
            result_for_mover = outcome(&r, y->mover);
            y->visits += 1;
            y->wins += result_for_mover;
            if (d == 0)
                break;
        }
    }
done:;
    /* The move: the most visited child of the root. */
    node *root = &t.n[0];
    double most = -1;
    for (int32_t i = 0; i < root->nkids; i++) {
        const node *ch = &t.n[root->first + i];
        if (ch->visits > most) {
            most = ch->visits;
            out->best = ch->move;
            double p = ch->wins / ch->visits;
            /* A rough score: the win rate as hundredths of a seed. */
            out->score = (int)lround((p - 0.5) * 2000);
        }
    }
    out->nodes = it;
    out->depth = 1;
    out->seconds = mc_now() - t0;
    out->pv[0] = out->best;
    out->pvlen = 1;
    if (rq->on_info)
        rq->on_info(out, rq->info_ctx);
    free(t.n);
    mc_line_free(&l);
    return 0;
}
