/*
 * search.c - one thread of the computer player: negamax alpha-beta with
 * iterative deepening over the shared transposition table, over the game
 * interface only (no game-specific code here: evaluations live with their
 * game).  History rules are decided through the same line-of-play code as
 * the session, so the search sees repetition exactly as play does.  The
 * player (player.c) runs one worker per thread; worker 0 keeps the time
 * and reports, the others (Lazy SMP) fill the table.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../games/game.h"
#include "../core/util.h"
#include "search_internal.h"

#define EV_NONE INT_MIN

/* The tuning knobs (mc_search_tuning: late-move reductions, pruning,
   the evaluation's weights) come with each search in t->tune; their
   defaults, chosen by self-play (docs/SEARCH.md), are
   mc_search_tuning_init's. */
/* The relay budget of the nodes below the root (mc_relay_budget_set):
   the longest chain that ended in 25,000 random Omweso games and in 40 s
   of searches took 282 laps; the never-ending ones, up to 1.4 billion. */
static const uint64_t search_relay_budget = 65536;

static int evaluate(const mc_worker *w, const mc_pos *p)
{
    if (!w->t->tune.plain_eval)
        return mc_game_eval_w(w->g, p, w->t->tune.hand_eval);
    return 100 * ((int)p->cap[p->side] - (int)p->cap[1 - p->side]);
}

/* Score of a finished game from the view of the side to move at ply k. */
static int terminal(const mc_result *r, int side, int ply)
{
    if (r->winner == MC_DRAW)
        return 0;
    return r->winner == side ? MC_SCORE_WIN - ply : -(MC_SCORE_WIN - ply);
}

/* Proven scores count plies from the root; the table keeps them relative
   to the node so that an entry is right wherever it is found. */
static int to_tt(int v, int ply)
{
    return v >= MC_SCORE_PROVEN ? v + ply : v <= -MC_SCORE_PROVEN ? v - ply : v;
}

static int from_tt(int v, int ply)
{
    return v >= MC_SCORE_PROVEN ? v - ply : v <= -MC_SCORE_PROVEN ? v + ply : v;
}

static int hist_slot(mc_move m)
{
    return (int)(m % (MC_MAX_PITS * 4));
}

/* ---- workers ---- */

mc_worker *mc_worker_new(mc_game *g, int own_game)
{
    mc_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->g = g;
    w->own_game = own_game;
    w->kid = malloc(MC_MAX_PLY * sizeof *w->kid);
    if (!w->kid) {
        free(w);
        return NULL;
    }
    return w;
}

void mc_worker_free(mc_worker *w)
{
    if (!w)
        return;
    free(w->kid);
    mc_line_free(&w->l);
    if (w->own_game)
        mc_game_free(w->g);
    free(w);
}

void mc_worker_clear(mc_worker *w)
{
    memset(w->killer, 0, sizeof w->killer);
    memset(w->history, 0, sizeof w->history);
}

/* Rebuild the session's history as a line, replaying for the play flags. */
int mc_worker_load(mc_worker *w, const mc_session *s)
{
    int n = mc_session_ply(s);
    assert(n >= 0);
    if (mc_line_grow(&w->l, n + MC_MAX_PLY + 2) != 0)
        return -1;
    mc_line_root(&w->l, w->g, mc_session_pos_at(s, 0));
    for (int k = 0; k < n; k++) {
        mc_pos q = *mc_session_pos_at(s, k);
        int fl = mc_play(w->g, &q, mc_session_move_at(s, k), NULL);
        w->l.pos[k + 1] = *mc_session_pos_at(s, k + 1);
        mc_line_link(&w->l, w->g, k, fl);
    }
    w->root = n;
    /* the line ends where the session does, its hash the position's */
    assert(w->l.hash[n] == mc_hash(w->g, mc_session_pos(s)));
    return 0;
}

/* ---- limits ---- */

static uint64_t total_nodes(const mc_worker *w)
{
    uint64_t n = w->nodes;
    assert(w->t->nthreads >= 1 && w->t->nthreads <= MC_MAX_THREADS);
    for (int i = 1; i < w->t->nthreads; i++)
        n += atomic_load_explicit(&w->t->workers[i]->shared_nodes,
                                  memory_order_relaxed);
    return n;
}

/* Worker 0, while pondering: has the ponderhit come?  Then the clock
   starts at the moment it came. */
static int still_pondering(mc_worker *w)
{
    mc_think *t = w->t;
    if (!atomic_load_explicit(&t->ponder, memory_order_relaxed))
        return 0;
    long long hit =
        atomic_load_explicit(&t->ponderhit_ns, memory_order_relaxed);
    if (hit == 0)
        return 1;
    t->tm.start = (double)hit * 1e-9;
    atomic_store_explicit(&t->ponder, 0, memory_order_relaxed);
    return 0;
}

/* The search's one stop flag (mc_think.stop), as every thread reads it. */
static int think_stopped(const mc_think *t)
{
    return atomic_load_explicit(t->stop, memory_order_relaxed);
}

static void raise_stop(mc_worker *w)
{
    w->stop = 1;
    atomic_store_explicit(w->t->stop, 1, memory_order_relaxed);
}

/* Every thread: has the search been stopped?  Helpers publish their node
   counts; worker 0 keeps the limits, and folds the caller's stop flag
   into the search's own. */
static void check_limits(mc_worker *w)
{
    mc_think *t = w->t;
    if (think_stopped(t)) {
        w->stop = 1;
        return;
    }
    if (w->id != 0) {
        atomic_store_explicit(&w->shared_nodes, w->nodes, memory_order_relaxed);
        return;
    }
    if (mc_outside_stop(t->outside_stop) ||
        (t->node_limit && total_nodes(w) >= t->node_limit)) {
        raise_stop(w);
        return;
    }
    if (t->timed && t->tm.hard > 0 && !still_pondering(w) &&
        mc_now() >= t->tm.start + t->tm.hard)
        raise_stop(w);
}

/* ---- children ---- */

/* Make child i of line position k (at `ply`) without evaluating it. */
static void make_one(mc_worker *w, int k, int ply, int i)
{
    mc_hot_assert(ply >= 0 && ply < MC_MAX_PLY);
    mc_hot_assert(i >= 0 && i < MC_MAX_MOVES);
    mc_kids *kd = &w->kid[ply];
    kd->pos[i] = w->l.pos[k];
    kd->flags[i] = mc_play(w->g, &kd->pos[i], kd->mv[i], NULL);
    kd->hash[i] = mc_hash(w->g, &kd->pos[i]);
    kd->ev[i] = EV_NONE;
    mc_tt_prefetch(w->t->tt, kd->hash[i]);
}

/* Make and order the children of line position k (its n moves are in
   kid[ply].mv) except `skip` (already searched, or -1); returns how many
   are in kid[ply].order. */
static int make_kids(mc_worker *w, int k, int ply, int n, int skip)
{
    const mc_pos *p = &w->l.pos[k];
    mc_kids *kd = &w->kid[ply];
    int m = 0;
    mc_hot_assert(n >= 0 && n <= MC_MAX_MOVES && skip >= -1 && skip < n);
    for (int i = 0; i < n; i++) {
        if (i == skip)
            continue;
        make_one(w, k, ply, i);
        /* Static gain from the mover's view: captures first, biggest
           first.  The evaluation is kept: the child needs it at a leaf. */
        int e = evaluate(w, &kd->pos[i]);
        kd->ev[i] = e;
        int gain = kd->pos[i].side == p->side ? e : -e;
        int key = gain * 64;
        if (kd->mv[i] == w->killer[ply][0] || kd->mv[i] == w->killer[ply][1])
            key += 32;
        int h = w->history[hist_slot(kd->mv[i])];
        key += h > 31 ? 31 : h;
        kd->key[i] = key;
        kd->order[m++] = i;
    }
    for (int a = 1; a < m; a++) {
        int o = kd->order[a], v = kd->key[o], j = a;
        while (j > 0 && kd->key[kd->order[j - 1]] < v) {
            kd->order[j] = kd->order[j - 1];
            j--;
        }
        kd->order[j] = o;
    }
    /* best first */
    mc_hot_assert(m < 2 || kd->key[kd->order[0]] >= kd->key[kd->order[m - 1]]);
    return m;
}

static int negamax(mc_worker *w, int k, int depth, int alpha, int beta, int ev);

#define QS_PLIES 6
#define QS_GAIN 50

/* What every node does first: count itself (and now and then check the
   limits), ask the rules whether the game is over there, and the oracle
   whether it knows the score.  Returns 1 with *score when the node is
   decided (or the search must stop: *score 0, w->stop set), else 0 with
   *pathdep: the oracle's answer here depends on the line's history; *h:
   the history facts of the node. */
static int node_enter(mc_worker *w, int k, int *score, int *pathdep, mc_hist *h)
{
    mc_think *t = w->t;
    const mc_pos *p = &w->l.pos[k];
    int ply = k - w->root;
    mc_hot_assert(ply >= 0 && k < w->l.cap);
    *score = 0;
    *pathdep = 0;
    /* Checked often: a node of a relay game can cost a long cycle walk. */
    if ((++w->nodes & 63) == 0)
        check_limits(w);
    if (w->stop)
        return 1;
    mc_result r;
    mc_line_hist(&w->l, k, h);
    mc_status(w->g, p, h, &r);
    if (mc_deadline_fired()) {
        w->stop = 1; /* the rules gave up on a long computation */
        return 1;
    }
    if (r.over) {
        *score = terminal(&r, p->side, ply);
        return 1;
    }
    if (t->oracle) {
        int v, o = t->oracle(t->oracle_ctx, p, w->l.wstart[k] == k, ply, &v);
        if (o > 0) {
            w->oracle_hits++;
            *score = v;
            return 1;
        }
        /* In the oracle's range but path-dependent (shared EGDB.md): a
           transposition entry here would carry one line's history to
           another. */
        *pathdep = o < 0;
    }
    return 0;
}

static int qsearch(mc_worker *w, int k, int alpha, int beta, int ev, int qd,
                   int checked);

/* Child i of line position k in the quiescence search. */
static int qchild(mc_worker *w, int k, int ply, int i, int alpha, int beta,
                  int qd)
{
    mc_kids *kd = &w->kid[ply];
    mc_hot_assert(ply == k - w->root && k + 1 < w->l.cap);
    mc_hot_assert(qd >= 0 && qd < QS_PLIES);
    w->l.pos[k + 1] = kd->pos[i];
    mc_line_link_hash(&w->l, k, kd->flags[i], kd->hash[i]);
    if (kd->pos[i].side == w->l.pos[k].side)
        return qsearch(w, k + 1, alpha, beta, kd->ev[i], qd, 0);
    return -qsearch(w, k + 1, -beta, -alpha, kd->ev[i], qd, 0);
}

/* At the horizon: the static evaluation, unless a move gains material
   (its child's evaluation is QS_GAIN above it), then the best of those
   too, a few plies deep. */
static int qsearch(mc_worker *w, int k, int alpha, int beta, int ev, int qd,
                   int checked)
{
    const mc_pos *p = &w->l.pos[k];
    int ply = k - w->root, decided, pathdep;
    mc_hot_assert(ply >= 0 && ply < MC_MAX_PLY);
    mc_hot_assert(alpha < beta);
    w->pvlen[ply] = 0;
    /* (negamax has entered the first node of a quiescence search) */
    mc_hist h;
    if (!checked && node_enter(w, k, &decided, &pathdep, &h))
        return decided;
    int stand = ev != EV_NONE ? ev : evaluate(w, p);
    if (qd <= 0 || ply >= MC_MAX_PLY - 1 || stand >= beta)
        return stand;
    if (stand > alpha)
        alpha = stand;
    if (mc_line_grow(&w->l, k + 1) != 0) {
        w->stop = 1;
        return 0;
    }
    mc_kids *kd = &w->kid[ply];
    int n = mc_moves(w->g, p, kd->mv);
    int m = make_kids(w, k, ply, n, -1);
    if (mc_deadline_fired()) {
        w->stop = 1;
        return 0;
    }
    int best = stand;
    for (int oi = 0; oi < m; oi++) {
        int i = kd->order[oi];
        int gain = kd->pos[i].side == p->side ? kd->ev[i] : -kd->ev[i];
        if (gain < stand + QS_GAIN)
            continue;
        int v = qchild(w, k, ply, i, alpha, beta, qd - 1);
        if (w->stop)
            return 0;
        if (v > best)
            best = v;
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    return best;
}

static int lmr_amount(const mc_search_tuning *tune, int depth, int oi, int key)
{
    if (key > 31 || depth < 3)
        return 0;
    switch (tune->lmr) {
    case 1:
        return oi >= 3;
    case 2:
        if (oi < 2)
            return 0;
        if ((tune->prune & MC_PRUNE_LMR3) && depth >= 10 && oi >= 4)
            return 3;
        return depth >= 6 && oi >= 3 ? 2 : 1;
    default:
        return 0;
    }
}

/* Search child i of line position k; the score is from k's mover's view. */
static int child(mc_worker *w, int k, int ply, int i, int depth, int alpha,
                 int beta)
{
    mc_kids *kd = &w->kid[ply];
    /* the line has room for the child (negamax grew it), and the child
       was made (its hash is the one its position has) */
    mc_hot_assert(ply == k - w->root && k + 1 < w->l.cap);
    mc_hot_assert(kd->hash[i] == mc_hash(w->g, &kd->pos[i]));
    w->l.pos[k + 1] = kd->pos[i];
    mc_line_link_hash(&w->l, k, kd->flags[i], kd->hash[i]);
    /* Sides alternate in most games but not all (a Goré answer is followed
       by the same side's sowing): negate only on a change. */
    if (kd->pos[i].side == w->l.pos[k].side)
        return negamax(w, k + 1, depth, alpha, beta, kd->ev[i]);
    return -negamax(w, k + 1, depth, -beta, -alpha, kd->ev[i]);
}

/* The principal variation at ply: m, then the child's. */
static void update_pv(mc_worker *w, int ply, mc_move m)
{
    int n = ply + 1 < MC_MAX_PLY ? w->pvlen[ply + 1] : 0;
    if (n > MC_MAX_PLY - 1)
        n = MC_MAX_PLY - 1;
    mc_hot_assert(ply >= 0 && ply < MC_MAX_PLY && n >= 0);
    w->pv[ply][0] = m;
    memcpy(&w->pv[ply][1], w->pv[ply + 1], (size_t)n * sizeof(mc_move));
    w->pvlen[ply] = n + 1;
    mc_hot_assert(w->pvlen[ply] <= MC_MAX_PLY);
}

static void cutoff_stats(mc_worker *w, int ply, int depth, mc_move m)
{
    w->history[hist_slot(m)] += depth * depth;
    if (w->history[hist_slot(m)] > 1 << 20)
        for (int j = 0; j < MC_MAX_PITS * 4; j++)
            w->history[j] /= 2;
    if (w->killer[ply][0] != m) {
        w->killer[ply][1] = w->killer[ply][0];
        w->killer[ply][0] = m;
    }
    mc_hot_assert(w->history[hist_slot(m)] > 0);
}

/* At the horizon: the quiescence search, or the static evaluation (ev,
   or computed) where there is none (an exact search, the deepest ply). */
static int horizon(mc_worker *w, int k, int ply, int alpha, int beta, int ev)
{
    const mc_think *t = w->t;
    if ((t->tune.prune & MC_PRUNE_QS) && !t->exact && ply < MC_MAX_PLY - 1)
        return qsearch(w, k, alpha, beta, ev, QS_PLIES, 1);
    return ev != EV_NONE ? ev : evaluate(w, &w->l.pos[k]);
}

/* The table's word on the node (key, at ply, to `depth`): 1 with *v when
   an entry decides it within [alpha, beta] and may_cut allows a cut;
   *tt_move: the entry's move (an index in the move list), or -1. */
static int tt_cut(mc_worker *w, uint64_t key, int ply, int depth, int alpha,
                  int beta, int may_cut, int *tt_move, int *v)
{
    mc_tt_entry e;
    *tt_move = -1;
    if (!mc_tt_probe(w->t->tt, key, &e))
        return 0;
    mc_hot_assert(e.bound != MC_TT_EMPTY);
    mc_hot_assert(e.depth >= 0 && e.depth <= MC_TT_DEPTH_MAX);
    /* an index some position's move list had (a key collision may bring
       another position's: checked against n by the caller) */
    mc_hot_assert(e.move == MC_TT_NOMOVE ||
                  (e.move >= 0 && e.move < MC_MAX_MOVES));
    *tt_move = e.move != MC_TT_NOMOVE ? e.move : -1;
    if (!may_cut || e.depth < depth)
        return 0;
    *v = from_tt(e.score, ply);
    mc_hot_assert(*v > -MC_SCORE_WIN - 2 * MC_MAX_PLY &&
                  *v < MC_SCORE_WIN + 2 * MC_MAX_PLY);
    return e.bound == MC_TT_EXACT || (e.bound == MC_TT_LOWER && *v >= beta) ||
           (e.bound == MC_TT_UPPER && *v <= alpha);
}

/* Reverse futility: a quiet node (off the principal variation, its
   score's meaning independent of the path) far above beta at a small
   depth is not searched: 1 with *v, its static evaluation. */
static int rfp_cut(mc_worker *w, int k, int ply, int depth, int beta, int ev,
                   int *v)
{
    const mc_think *t = w->t;
    if (!(t->tune.prune & MC_PRUNE_RFP) || t->exact ||
        depth > t->tune.rfp_depth || ply == 0 || beta >= MC_SCORE_PROVEN ||
        beta <= -MC_SCORE_PROVEN)
        return 0;
    int sev = ev != EV_NONE ? ev : evaluate(w, &w->l.pos[k]);
    *v = sev;
    return sev - t->tune.rfp_margin * depth >= beta;
}

/* Search the n children of line position k (at ply, to depth - 1 plies)
   within [alpha, beta]: the table's move tt_move (or -1) first, before
   the others are made and scored (it often refutes the node alone), then
   the others in order, by principal variation search (a null window after
   the first move, late quiet moves first at reduced depth).  Returns the
   best score with *best_i its child (-1: none), or 0 with w->stop set. */
static int search_kids(mc_worker *w, int k, int ply, int depth, int alpha,
                       int beta, int tt_move, int n, int *best_i)
{
    mc_think *t = w->t;
    mc_kids *kd = &w->kid[ply];
    int best = -MC_SCORE_WIN - 1, searched = 0;
    *best_i = -1;
    mc_hot_assert(tt_move >= -1 && tt_move < n);
    if (tt_move >= 0) {
        make_one(w, k, ply, tt_move);
        int v = child(w, k, ply, tt_move, depth - 1, alpha, beta);
        if (w->stop)
            return 0;
        searched = 1;
        best = v;
        *best_i = tt_move;
        if (v > alpha) {
            alpha = v;
            update_pv(w, ply, kd->mv[tt_move]);
        }
        if (alpha >= beta) {
            cutoff_stats(w, ply, depth, kd->mv[tt_move]);
            return best;
        }
    }
    int m = make_kids(w, k, ply, n, tt_move);
    if (mc_deadline_fired()) {
        w->stop = 1;
        return 0;
    }
    mc_hot_assert(m == n - (tt_move >= 0));
    for (int oi = 0; oi < m; oi++) {
        int i = kd->order[oi], v;
        if (!searched) {
            v = child(w, k, ply, i, depth - 1, alpha, beta);
        } else {
            int reduce =
                t->exact ? 0
                         : lmr_amount(&t->tune, depth, searched, kd->key[i]);
            v = child(w, k, ply, i, depth - 1 - reduce, alpha, alpha + 1);
            if (v > alpha && !w->stop && (reduce || v < beta))
                v = child(w, k, ply, i, depth - 1, alpha, beta);
        }
        searched++;
        if (w->stop)
            return 0;
        if (v > best) {
            best = v;
            *best_i = i;
        }
        if (v > alpha) {
            alpha = v;
            update_pv(w, ply, kd->mv[i]);
        }
        if (alpha >= beta) {
            cutoff_stats(w, ply, depth, kd->mv[i]);
            break;
        }
    }
    return best;
}

static int negamax(mc_worker *w, int k, int depth, int alpha, int beta, int ev)
{
    mc_think *t = w->t;
    const mc_pos *p = &w->l.pos[k];
    int ply = k - w->root;
    const int pvnode = beta - alpha > 1;
    mc_hot_assert(ply >= 0 && ply < MC_MAX_PLY);
    mc_hot_assert(alpha < beta);
    w->pvlen[ply] = 0;
    int decided, pathdep;
    mc_hist h;
    if (node_enter(w, k, &decided, &pathdep, &h))
        return decided;
    int fresh = w->l.wstart[k] == k;
    if (depth <= 0 || ply >= MC_MAX_PLY - 1)
        return horizon(w, k, ply, alpha, beta, ev);
    uint64_t key = w->l.hash[k];
    int tt_move, v;
    /* Cut on an entry only where history cannot change the verdict here:
       this position has not occurred before in the line; in an exact
       search, only right after an irreversible move, where no earlier
       position can recur below (entries are stored only there too).  Not
       at a principal-variation node of an ordinary search, so that the
       line shown is the line searched. */
    int may_cut = (!pvnode || t->exact) && h.occurrences == 1 && !pathdep &&
                  (!t->exact || fresh);
    if (tt_cut(w, key, ply, depth, alpha, beta, may_cut, &tt_move, &v))
        return v;
    if (!pvnode && !pathdep && rfp_cut(w, k, ply, depth, beta, ev, &v))
        return v;
    /* Internal iterative reduction: a deep node with no table move is
       searched a ply less (its move ordering is poor anyway). */
    if ((t->tune.prune & MC_PRUNE_IIR) && tt_move < 0 && depth >= 5 &&
        !t->exact)
        depth--;
    if (mc_line_grow(&w->l, k + 1) != 0) {
        w->stop = 1;
        return 0;
    }
    int n = mc_moves(w->g, p, w->kid[ply].mv);
    mc_hot_assert(n >= 0 && n <= MC_MAX_MOVES);
    if (tt_move >= n)
        tt_move = -1;
    int a0 = alpha, best_i;
    int best = search_kids(w, k, ply, depth, alpha, beta, tt_move, n, &best_i);
    if (w->stop)
        return 0;
    mc_hot_assert(best >= -MC_SCORE_WIN - 1 && best <= MC_SCORE_WIN + 1);
    if ((t->exact && !fresh) || pathdep)
        return best;
    mc_tt_store(t->tt, key, to_tt(best, ply), depth,
                best <= a0     ? MC_TT_UPPER
                : best >= beta ? MC_TT_LOWER
                               : MC_TT_EXACT,
                best_i >= 0 ? best_i : MC_TT_NOMOVE);
    return best;
}

/* ---- the principal variation ---- */

/* Extend the line of out->pv (cut short where a table entry or the
   oracle ended a line) with the table's moves, up to the depth searched,
   while they are legal and no position repeats along it. */
static void extend_pv(const mc_worker *w, const mc_pos *root,
                      mc_search_info *out)
{
    mc_pos p = *root;
    uint64_t seen[64];
    int nseen = 0;
    for (int i = 0; i < out->pvlen; i++) {
        seen[nseen++] = mc_hash(w->g, &p);
        mc_play(w->g, &p, out->pv[i], NULL);
    }
    /* Never past the depth searched: a line from an older search is no
       line of this one. */
    int most = out->depth < 64 ? out->depth : 64;
    assert(out->pvlen >= 0 && out->pvlen <= 64 && nseen == out->pvlen);
    while (out->pvlen < most) {
        uint64_t key = mc_hash(w->g, &p);
        for (int j = 0; j < nseen; j++)
            if (seen[j] == key)
                return;
        mc_result r;
        mc_status(w->g, &p, NULL, &r);
        if (r.over)
            return;
        mc_tt_entry e;
        mc_move m2[MC_MAX_MOVES];
        int n2 = mc_moves(w->g, &p, m2);
        if (!mc_tt_probe(w->t->tt, key, &e) || e.move >= n2)
            return;
        seen[nseen++] = key;
        out->pv[out->pvlen++] = m2[e.move];
        mc_play(w->g, &p, m2[e.move], NULL);
    }
}

static void lengthen_pv(const mc_worker *w, const mc_pos *root,
                        mc_search_info *out)
{
    extend_pv(w, root, out);
    if (w->t->pv_more && out->pvlen < 64)
        w->t->pv_more(w->t->pv_ctx, w->g, root, out);
}

/* ---- iterative deepening ---- */

/* Lazy SMP's spread of depths: helper i searches only some depths, in
   blocks of skip_size[k] with phase skip_phase[k] (k = (i - 1) % 20), so
   that half the helpers are an iteration ahead of the others; none
   searches a depth some thread has already finished. */
static int skip_depth(const mc_worker *w, int d)
{
    static const int size[20] = {1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                                 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
    static const int phase[20] = {0, 1, 0, 1, 2, 3, 0, 1, 2, 3,
                                  4, 5, 0, 1, 2, 3, 4, 5, 6, 7};
    assert(w->id >= 1); /* worker 0 searches every depth */
    if (d <= atomic_load_explicit(&w->t->done_depth, memory_order_relaxed))
        return 1;
    int k = (w->id - 1) % 20;
    return ((d + w->root + phase[k]) / size[k]) % 2 != 0;
}

/* Iterative deepening's state from one iteration to the next. */
typedef struct deepening {
    int n, nall;              /* root moves searched (allowed), all */
    int scores[MC_MAX_MOVES]; /* each root move's last score, by index */
    int prev;                 /* the last finished iteration's score */
    int stability;            /* iterations the best move has stayed */
    int fall;                 /* how much the score fell in the last */
    double changes;           /* recent changes of best move, decayed */
    mc_move pv[64];           /* this iteration's best line so far */
    int pvlen;
} deepening;

/* What one pass over the root moves found. */
typedef struct root_pass_result {
    int lo, hi;        /* the aspiration window (unclamped) */
    int best, best_oi; /* the best score, its place in the order */
    int first_done;    /* the first move was searched in full */
    int first_score;
} root_pass_result;

#define FIRST_DEPTH 1

/* A new search: the counts cleared, the killers forgotten, the last
   move's history faded. */
static void think_reset(mc_worker *w)
{
    memset(&w->out, 0, sizeof w->out);
    w->nodes = 0;
    w->oracle_hits = 0;
    w->stop = 0;
    atomic_store_explicit(&w->shared_nodes, 0, memory_order_relaxed);
    memset(w->killer, 0, sizeof w->killer);
    for (int j = 0; j < MC_MAX_PITS * 4; j++)
        w->history[j] /= 4; /* the last move's statistics, faded */
}

/* The root's children: kid[0] belongs to the root alone, since the nodes
   below it are at ply 1 and deeper.  They are made in full, whatever the
   search's time (an Omweso move may take long to sow), within the
   thread's work limit only (a server's request): cut short there, they
   may be wrong, and the search gives up (MC_ERR_ARG).  Only the moves the
   tables allow (t->root_allow) are kept.  0, MC_ERR_OVER or MC_ERR_ARG. */
static int root_moves(mc_worker *w, deepening *dp)
{
    const mc_think *t = w->t;
    mc_kids *const rk = &w->kid[0];
    mc_deadline_set(0, NULL);
    dp->nall = mc_moves(w->g, &w->l.pos[w->root], rk->mv);
    if (mc_work_limit_hit())
        return MC_ERR_ARG;
    if (dp->nall == 0)
        return MC_ERR_OVER;
    assert(dp->nall > 0 && dp->nall <= MC_MAX_MOVES);
    int n = make_kids(w, w->root, 0, dp->nall, -1);
    if (mc_work_limit_hit())
        return MC_ERR_ARG;
    assert(n == dp->nall);
    if (t->root_allow) {
        int m = 0;
        for (int oi = 0; oi < n; oi++)
            if (t->root_allow[rk->order[oi]])
                rk->order[m++] = rk->order[oi];
        if (m > 0)
            n = m;
    }
    dp->n = n;
    return 0;
}

/* The rules' deadline (the hard limit, unless pondering, and the stop
   flag) and, below the root, an Omweso relay still going after this many
   laps taken for a never-ending one (the root's moves above are exact). */
static void rules_limits(const mc_think *t)
{
    int pondering = atomic_load(&t->ponder);
    mc_deadline_set(
        t->timed && !pondering && t->tm.hard > 0 ? t->tm.start + t->tm.hard : 0,
        t->stop);
    mc_relay_budget_set(t->exact ? 0 : search_relay_budget);
}

/* One pass over the root moves at depth d within [r->lo, r->hi] (clamped
   to the scores there are): each move's score in dp->scores, the best in
   r and its line in dp->pv.  Full strength raises alpha as it goes and
   searches the moves after the first with a null window; the lower
   levels need every move's score. */
static void root_pass(mc_worker *w, deepening *dp, int d, root_pass_result *r)
{
    const mc_think *t = w->t;
    mc_kids *const rk = &w->kid[0];
    int alpha = r->lo < -MC_SCORE_WIN - 1 ? -MC_SCORE_WIN - 1 : r->lo;
    int beta = r->hi > MC_SCORE_WIN + 1 ? MC_SCORE_WIN + 1 : r->hi;
    assert(alpha < beta);
    r->best = -MC_SCORE_WIN - 1;
    r->best_oi = 0;
    r->first_done = 0;
    for (int oi = 0; oi < dp->n && !w->stop; oi++) {
        check_limits(w);
        if (w->stop)
            break;
        int i = rk->order[oi], v;
        if (oi == 0 || t->level < 10) {
            v = child(w, w->root, 0, i, d - 1, alpha, beta);
        } else {
            v = child(w, w->root, 0, i, d - 1, alpha, alpha + 1);
            if (v > alpha && v < beta && !w->stop)
                v = child(w, w->root, 0, i, d - 1, alpha, beta);
        }
        if (w->stop)
            break;
        dp->scores[i] = v;
        if (oi == 0) {
            r->first_done = 1;
            r->first_score = v;
        }
        if (v > r->best) {
            r->best = v;
            r->best_oi = oi;
            dp->pv[0] = rk->mv[i];
            int len = w->pvlen[1] < 63 ? w->pvlen[1] : 63;
            memcpy(dp->pv + 1, w->pv[1], (size_t)len * sizeof(mc_move));
            dp->pvlen = len + 1;
        }
        if (v > alpha && t->level == 10)
            alpha = v; /* lower levels need every move's score */
    }
}

/* Iteration d: the root in an aspiration window around the last score
   (half a seed at full strength from depth 4), searched again with the
   failed side opened until the score falls inside; r says what the last
   pass found (w->stop: the iteration is unfinished). */
static void iterate(mc_worker *w, deepening *dp, int d, root_pass_result *r)
{
    const mc_think *t = w->t;
    int window = d >= 4 && t->level == 10 && !t->exact ? 50 : MC_SCORE_WIN + 1;
    r->lo = dp->prev - window;
    r->hi = dp->prev + window;
    r->first_score = 0;
    for (;;) {
        root_pass(w, dp, d, r);
        if (w->stop)
            return;
        if (r->best <= r->lo && r->lo > -MC_SCORE_WIN - 1) {
            r->lo = -MC_SCORE_WIN - 1; /* failed low: search again */
            continue;
        }
        if (r->best >= r->hi && r->hi < MC_SCORE_WIN + 1) {
            r->hi = MC_SCORE_WIN + 1;
            continue;
        }
        return;
    }
}

/* A stopped iteration: a move that beat the first one was searched in
   full and is better than the last iteration's choice: keep it. */
static void keep_unfinished(mc_worker *w, const deepening *dp, int d,
                            const root_pass_result *r)
{
    mc_search_info *out = &w->out;
    if (w->t->level == 10 && r->first_done && r->best_oi > 0 &&
        r->best > r->first_score && r->best > r->lo && r->best < r->hi &&
        d > 1) {
        out->best = w->kid[0].mv[w->kid[0].order[r->best_oi]];
        out->score = r->best;
        assert(dp->pvlen >= 1 && dp->pvlen <= 64);
        memcpy(out->pv, dp->pv, (size_t)dp->pvlen * sizeof(mc_move));
        out->pvlen = dp->pvlen;
    }
}

/* A finished iteration d: its best move first next time, the stability
   of the choice for the time manager, the answer so far, and the depth
   every thread may now skip. */
static void finish_iteration(mc_worker *w, deepening *dp, int d,
                             const root_pass_result *r)
{
    mc_think *t = w->t;
    mc_kids *const rk = &w->kid[0];
    mc_search_info *out = &w->out;
    assert(r->best_oi >= 0 && r->best_oi < dp->n);
    int bi = rk->order[r->best_oi];
    memmove(rk->order + 1, rk->order, (size_t)r->best_oi * sizeof(int));
    rk->order[0] = bi;
    if (d > FIRST_DEPTH && rk->mv[bi] != out->best) {
        dp->changes += 1;
        dp->stability = 0;
    } else {
        dp->stability++;
    }
    dp->changes *= 0.5;
    dp->fall = d > FIRST_DEPTH ? dp->prev - r->best : 0;
    dp->prev = r->best;
    out->best = rk->mv[bi];
    out->score = r->best;
    out->depth = d;
    assert(dp->pvlen >= 0 && dp->pvlen <= 64);
    memcpy(out->pv, dp->pv, (size_t)dp->pvlen * sizeof(mc_move));
    out->pvlen = dp->pvlen;
    int done = atomic_load_explicit(&t->done_depth, memory_order_relaxed);
    while (d > done && !atomic_compare_exchange_weak_explicit(
                           &t->done_depth, &done, d, memory_order_relaxed,
                           memory_order_relaxed))
        ;
}

/* Worker 0 after a finished iteration: report it, and whether to stop
   (a proven score, or the time manager's verdict). */
static int worker0_stops(mc_worker *w, const deepening *dp)
{
    mc_think *t = w->t;
    mc_search_info *out = &w->out;
    if (t->on_info) {
        out->nodes = total_nodes(w);
        out->seconds = mc_now() - t->tm.start;
        out->hashfull = mc_tt_hashfull(t->tt);
        out->threads = t->nthreads;
        mc_search_info shown = *out;
        lengthen_pv(w, &w->l.pos[w->root], &shown);
        t->on_info(&shown, t->info_ctx);
    }
    if (out->score >= MC_SCORE_PROVEN || out->score <= -MC_SCORE_PROVEN)
        return 1; /* proven: deeper search cannot change the verdict */
    return t->timed && !still_pondering(w) &&
           !mc_tm_go_on(&t->tm, mc_now(), dp->stability, dp->changes, dp->fall);
}

/* Human-like mistakes of the lower levels: a move at random among those
   within a margin of the best that grows as the level falls. */
static void weaker_choice(mc_worker *w, const deepening *dp)
{
    const mc_think *t = w->t;
    const mc_kids *rk = &w->kid[0];
    mc_search_info *out = &w->out;
    mc_rng rng;
    mc_rng_seed(&rng, t->seed ^ w->l.hash[w->root]);
    int margin = (10 - t->level) * 60, cand = 0;
    for (int oi = 0; oi < dp->n; oi++)
        cand += dp->scores[rk->order[oi]] >= out->score - margin;
    int pick = (int)mc_rng_below(&rng, (uint32_t)cand);
    for (int i = 0, seen = 0; i < dp->nall; i++) {
        int ok = 0;
        for (int oi = 0; oi < dp->n && !ok; oi++)
            ok = rk->order[oi] == i;
        if (ok && dp->scores[i] >= out->score - margin && seen++ == pick) {
            out->best = rk->mv[i];
            out->score = dp->scores[i];
            out->pv[0] = out->best;
            out->pvlen = 1;
            break;
        }
    }
}

int mc_worker_think(mc_worker *w)
{
    mc_think *t = w->t;
    mc_search_info *out = &w->out;
    assert(t->level >= 1 && t->level <= 10);
    assert(t->max_depth >= 1 && t->max_depth <= MC_MAX_PLY - 2);
    think_reset(w);
    deepening dp;
    dp.prev = dp.stability = dp.fall = 0;
    dp.changes = 0;
    dp.pvlen = 0;
    int rc = root_moves(w, &dp);
    if (rc != 0)
        return rc;
    rules_limits(t);
    out->best = w->kid[0].mv[w->kid[0].order[0]];
    out->pv[0] = out->best;
    out->pvlen = 1;
    for (int d = FIRST_DEPTH; d <= t->max_depth; d++) {
        if (w->id != 0 && skip_depth(w, d))
            continue;
        root_pass_result r;
        iterate(w, &dp, d, &r);
        if (w->stop) {
            keep_unfinished(w, &dp, d, &r);
            break;
        }
        finish_iteration(w, &dp, d, &r);
        if (w->id == 0 && worker0_stops(w, &dp))
            break;
        if (think_stopped(t))
            break;
    }
    if (t->level < 10 && out->depth > 0)
        weaker_choice(w, &dp);
    mc_deadline_set(0, NULL);
    mc_relay_budget_set(0);
    out->nodes = w->nodes;
    assert(out->pvlen >= 0 && out->pvlen <= 64);
    lengthen_pv(w, &w->l.pos[w->root], out);
    return 0;
}
