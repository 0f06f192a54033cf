/*
 * search.c - the computer player: negamax alpha-beta with iterative
 * deepening and a transposition table, over the game interface only (no
 * game-specific code here: evaluations live with their game).  History rules
 * are decided through the same line-of-play code as the session, so the
 * search sees repetition exactly as play does.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "../games/game.h"
#include "../session/line.h"
#include "../core/util.h"
#include "search_internal.h"

#define MAX_PLY 128

typedef struct tt_entry {
    uint64_t key;
    int32_t score;
    int8_t depth;
    uint8_t bound; /* 1 upper, 2 lower, 3 exact */
    uint8_t move;  /* index of the best move in the move list */
    uint8_t pad;
} tt_entry;

/* The children of one node, made up front so they can be ordered. */
typedef struct kids {
    mc_pos pos[MC_MAX_MOVES];
    mc_move mv[MC_MAX_MOVES];
    int flags[MC_MAX_MOVES];
    int key[MC_MAX_MOVES];
    int order[MC_MAX_MOVES];
} kids;

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
    kids *kid; /* one per ply */
    int exact; /* proof search: see mc_search_limits.exact */
    int (*oracle)(void *, const mc_pos *, int, int, int *);
    void *oracle_ctx;
    uint64_t oracle_hits;
    mc_move killer[MAX_PLY][2];
    int history[MC_MAX_PITS * 4];
} ctx;

/*
 * The table is allocated on 2 MiB boundaries and, where the system offers
 * it, backed by huge pages: touching 16 MiB of ordinary pages costs 4096
 * page faults, measured at a tenth of a short search's time here.
 */
static tt_entry *tt_alloc(size_t entries)
{
    size_t bytes = entries * sizeof(tt_entry);
    void *mem = NULL;
    if (bytes >= (2u << 20)) {
        if (posix_memalign(&mem, 2u << 20, bytes) != 0)
            mem = NULL;
#ifdef MADV_HUGEPAGE
        if (mem)
            madvise(mem, bytes, MADV_HUGEPAGE);
#endif
    } else {
        mem = malloc(bytes);
    }
    if (mem)
        memset(mem, 0, bytes);
    return mem;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Tuning knob: nonzero ignores the game's evaluation (store difference
   only), to measure what the evaluation is worth (bench/tune_search.c). */
int mc_search_plain_eval = 0;

static int evaluate(const ctx *c, const mc_pos *p)
{
    if (c->g->rules->eval && !mc_search_plain_eval)
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

static void check_limits(ctx *c)
{
    if ((c->node_limit && c->nodes >= c->node_limit) ||
        (c->deadline > 0 && now_seconds() >= c->deadline) ||
        (c->ext_stop && *c->ext_stop))
        c->stop = 1;
}

/* Generate, make and order the children of line position k (at `ply`). */
static int make_kids(ctx *c, int k, int ply, int tt_move)
{
    const mc_pos *p = &c->l.pos[k];
    kids *kd = &c->kid[ply];
    int n = mc_moves(c->g, p, kd->mv);
    for (int i = 0; i < n; i++) {
        kd->pos[i] = *p;
        kd->flags[i] = mc_play(c->g, &kd->pos[i], kd->mv[i], NULL);
        /* Static gain from the mover's view: captures first, biggest first. */
        int e = evaluate(c, &kd->pos[i]);
        int gain = kd->pos[i].side == p->side ? e : -e;
        int key = gain * 64;
        if (kd->mv[i] == c->killer[ply][0] || kd->mv[i] == c->killer[ply][1])
            key += 32;
        int h = c->history[hist_slot(kd->mv[i])];
        key += h > 31 ? 31 : h;
        if (i == tt_move)
            key = 1 << 30;
        kd->key[i] = key;
        kd->order[i] = i;
    }
    for (int i = 1; i < n; i++) {
        int o = kd->order[i], v = kd->key[o], j = i;
        while (j > 0 && kd->key[kd->order[j - 1]] < v) {
            kd->order[j] = kd->order[j - 1];
            j--;
        }
        kd->order[j] = o;
    }
    return n;
}

static int negamax(ctx *c, int k, int depth, int alpha, int beta);

/* Late-move reductions for quiet moves (no static gain, not a killer), by
   scheme: 0 none, 1 one ply from the 4th move, 2 one ply from the 3rd and
   two from the 4th at depth 6+.  Chosen by self-play (docs/SEARCH.md);
   visible to the tuning tool. */
int mc_search_lmr = 2;

static int lmr_amount(int depth, int oi, int key)
{
    if (key > 31 || depth < 3)
        return 0;
    switch (mc_search_lmr) {
    case 1:
        return oi >= 3;
    case 2:
        return oi >= 2 ? (depth >= 6 && oi >= 3 ? 2 : 1) : 0;
    default:
        return 0;
    }
}

/* Search child i of line position k; the score is from k's mover's view. */
static int child(ctx *c, int k, int ply, int i, int depth, int alpha, int beta)
{
    kids *kd = &c->kid[ply];
    c->l.pos[k + 1] = kd->pos[i];
    mc_line_link(&c->l, c->g, k, kd->flags[i]);
    /* Sides alternate in most games but not all (a Goré answer is followed
       by the same side's sowing): negate only on a change. */
    if (kd->pos[i].side == c->l.pos[k].side)
        return negamax(c, k + 1, depth, alpha, beta);
    return -negamax(c, k + 1, depth, -beta, -alpha);
}

static int negamax(ctx *c, int k, int depth, int alpha, int beta)
{
    const mc_pos *p = &c->l.pos[k];
    int ply = k - c->root;
#if defined(__GNUC__)
    /* The table entry is a likely cache miss: start loading it now, while
       the history and the end rules are worked out. */
    __builtin_prefetch(&c->tt[c->l.hash[k] & c->tt_mask]);
#endif
    /* Checked often: a node of a relay game can cost a long cycle walk. */
    if ((++c->nodes & 63) == 0)
        check_limits(c);
    if (c->stop)
        return 0;
    mc_hist h;
    mc_result r;
    mc_line_hist(&c->l, k, &h);
    mc_status(c->g, p, &h, &r);
    if (mc_deadline_fired()) {
        c->stop = 1; /* the rules gave up on a long computation */
        return 0;
    }
    if (r.over)
        return terminal(&r, p->side, ply);
    int fresh = c->l.wstart[k] == k, pathdep = 0;
    if (c->oracle) {
        int v, o = c->oracle(c->oracle_ctx, p, fresh, ply, &v);
        if (o > 0) {
            c->oracle_hits++;
            return v;
        }
        /* In the oracle's range but path-dependent (shared EGDB.md): a
           transposition entry here would carry one line's history to
           another. */
        pathdep = o < 0;
    }
    if (depth <= 0 || ply >= MAX_PLY - 1)
        return evaluate(c, p);

    uint64_t key = c->l.hash[k];
    tt_entry *e = &c->tt[key & c->tt_mask];
    int tt_move = -1;
    /* Cut on an entry only where history cannot change the verdict here:
       this position has not occurred before in the line; in an exact
       search, only right after an irreversible move, where no earlier
       position can recur below (entries are stored only there too). */
    if (e->key == key) {
        tt_move = e->move;
        if (e->depth >= depth && h.occurrences == 1 && !pathdep &&
            (!c->exact || fresh)) {
            int v = from_tt(e->score, ply);
            if (e->bound == 3 || (e->bound == 2 && v >= beta) ||
                (e->bound == 1 && v <= alpha))
                return v;
        }
    }
    if (mc_line_grow(&c->l, k + 1) != 0) {
        c->stop = 1;
        return 0;
    }
    int n = make_kids(c, k, ply, tt_move);
    if (mc_deadline_fired()) {
        c->stop = 1;
        return 0;
    }
    kids *kd = &c->kid[ply];
    int best = -MC_SCORE_WIN - 1, best_i = kd->order[0], a0 = alpha;
    for (int oi = 0; oi < n; oi++) {
        int i = kd->order[oi], v;
        if (oi == 0) {
            v = child(c, k, ply, i, depth - 1, alpha, beta);
        } else {
            /* Principal variation search: prove the move no better with a
               null window; late quiet moves first at reduced depth. */
            int reduce = c->exact ? 0 : lmr_amount(depth, oi, kd->key[i]);
            v = child(c, k, ply, i, depth - 1 - reduce, alpha, alpha + 1);
            if (v > alpha && !c->stop && (reduce || v < beta))
                v = child(c, k, ply, i, depth - 1, alpha, beta);
        }
        if (c->stop)
            return 0;
        if (v > best) {
            best = v;
            best_i = i;
        }
        if (v > alpha)
            alpha = v;
        if (alpha >= beta) {
            mc_move m = kd->mv[i];
            c->history[hist_slot(m)] += depth * depth;
            if (c->history[hist_slot(m)] > 1 << 20)
                for (int j = 0; j < MC_MAX_PITS * 4; j++)
                    c->history[j] /= 2;
            if (c->killer[ply][0] != m) {
                c->killer[ply][1] = c->killer[ply][0];
                c->killer[ply][0] = m;
            }
            break;
        }
    }
    if ((c->exact && !fresh) || pathdep)
        return best;
    e->key = key;
    e->score = to_tt(best, ply);
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
    int algo = lim->algo;
    if (algo == MC_ALGO_AUTO)
        algo = mc_session_game(s)->rules->prefer_mcts ? MC_ALGO_MCTS
                                                      : MC_ALGO_AB;
    if (algo == MC_ALGO_MCTS && !lim->exact)
        return mc_mcts(s, lim, out);
    memset(out, 0, sizeof *out);
    mc_move first[MC_MAX_MOVES];
    if (mc_session_moves(s, first) == 0)
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
    c->exact = lim->exact;
    c->oracle = lim->oracle;
    c->oracle_ctx = lim->oracle_ctx;
    c->tt = tt_alloc(c->tt_mask + 1);
    c->kid = malloc(MAX_PLY * sizeof *c->kid);
    if (!c->tt || !c->kid || load_line(c, s) != 0) {
        free(c->tt);
        free(c->kid);
        mc_line_free(&c->l);
        free(c);
        return MC_ERR_ARG;
    }
    int level = lim->level > 0 && lim->level < 10 ? lim->level : 10;
    int max_depth = lim->depth > 0 ? lim->depth : 64;
    if (max_depth > MAX_PLY - 2)
        max_depth = MAX_PLY - 2;
    if (level < 10 && max_depth > 2 * level - 1)
        max_depth = 2 * level - 1;
    double t0 = now_seconds();
    /* Below full strength each level also halves the budget of the one
       above, so a level is stronger than the one below under any limit
       (depth caps alone do not bite under a small node or time budget). */
    double secs = lim->seconds;
    uint64_t nodes = lim->nodes;
    if (level < 10) {
        secs /= (double)(1u << (10 - level));
        nodes >>= 10 - level;
        if (lim->nodes && nodes < 64)
            nodes = 64;
    }
    c->deadline = secs > 0 ? t0 + secs : 0;
    c->node_limit = nodes;
    const mc_pos *root = &c->l.pos[c->root];
    /* The root's children: kid[0] belongs to the root alone, since the
       nodes below it are at ply 1 and deeper. */
    mc_deadline_set(0, NULL); /* the root's moves must be complete */
    int n = make_kids(c, c->root, 0, -1);
    kids *const rk = &c->kid[0];
    mc_deadline_set(c->deadline, lim->stop);
    out->best = rk->mv[rk->order[0]];
    int scores[MC_MAX_MOVES], prev = 0;
    for (int d = 1; d <= max_depth; d++) {
        /* Aspiration: expect the last score; widen on failure. */
        int window = d >= 4 && level == 10 && !c->exact ? 50 : MC_SCORE_WIN + 1;
        int lo = prev - window, hi = prev + window, best, best_oi;
        for (;;) {
            int alpha = lo < -MC_SCORE_WIN - 1 ? -MC_SCORE_WIN - 1 : lo;
            int beta = hi > MC_SCORE_WIN + 1 ? MC_SCORE_WIN + 1 : hi;
            best = -MC_SCORE_WIN - 1;
            best_oi = 0;
            for (int oi = 0; oi < n && !c->stop; oi++) {
                if (c->ext_stop && *c->ext_stop)
                    c->stop = 1;
                if (c->stop)
                    break;
                int i = rk->order[oi], v;
                if (oi == 0 || level < 10) {
                    v = child(c, c->root, 0, i, d - 1, alpha, beta);
                } else {
                    v = child(c, c->root, 0, i, d - 1, alpha, alpha + 1);
                    if (v > alpha && v < beta && !c->stop)
                        v = child(c, c->root, 0, i, d - 1, alpha, beta);
                }
                if (c->stop)
                    break;
                scores[i] = v;
                if (v > best) {
                    best = v;
                    best_oi = oi;
                }
                if (v > alpha && level == 10)
                    alpha = v; /* lower levels need every move's score */
            }
            if (c->stop)
                break;
            if (best <= lo && lo > -MC_SCORE_WIN - 1) {
                lo = -MC_SCORE_WIN - 1; /* failed low: search again */
                continue;
            }
            if (best >= hi && hi < MC_SCORE_WIN + 1) {
                hi = MC_SCORE_WIN + 1;
                continue;
            }
            break;
        }
        if (c->stop)
            break;
        /* Search the best move first next time. */
        int bi = rk->order[best_oi];
        memmove(rk->order + 1, rk->order, (size_t)best_oi * sizeof(int));
        rk->order[0] = bi;
        prev = best;
        out->best = rk->mv[bi];
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
           grows as the level falls. */
        mc_rng rng;
        mc_rng_seed(&rng, lim->seed ^ c->l.hash[c->root]);
        int margin = (10 - level) * 60, cand = 0;
        for (int i = 0; i < n; i++)
            cand += scores[i] >= out->score - margin;
        int pick = (int)mc_rng_below(&rng, (uint32_t)cand);
        for (int i = 0, seen = 0; i < n; i++)
            if (scores[i] >= out->score - margin && seen++ == pick) {
                out->best = rk->mv[i];
                out->score = scores[i];
                break;
            }
    }
    out->nodes = c->nodes;
    out->seconds = now_seconds() - t0;
    mc_deadline_set(0, NULL);
    build_pv(c, root, out);
    free(c->tt);
    free(c->kid);
    mc_line_free(&c->l);
    free(c);
    return 0;
}

int mc_solve(const mc_session *s, int max_depth, double seconds,
             mc_solve_info *out)
{
    memset(out, 0, sizeof *out);
    out->winner = MC_DRAW;
    mc_search_limits lim = {0};
    lim.depth = max_depth;
    lim.seconds = seconds;
    lim.exact = 1;
    lim.hash_mb = 64;
    mc_search_info info;
    int rc = mc_search(s, &lim, &info);
    if (rc != 0)
        return rc;
    out->depth = info.depth;
    out->nodes = info.nodes;
    out->seconds = info.seconds;
    int side = mc_session_pos(s)->side;
    if (info.score < MC_SCORE_PROVEN && info.score > -MC_SCORE_PROVEN)
        return 0;
    out->proven = 1;
    out->winner = info.score > 0 ? side : 1 - side;
    out->plies = MC_SCORE_WIN - (info.score > 0 ? info.score : -info.score);
    if (out->winner != side)
        return 0;
    /* Every winning move: each root move searched exactly on its own. */
    const mc_game *g = mc_session_game(s);
    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(s, mv);
    for (int i = 0; i < n; i++) {
        mc_session *c = mc_session_new(g, mc_session_pos_at(s, 0));
        if (!c)
            return MC_ERR_ARG;
        for (int k = 0; k < mc_session_ply(s); k++)
            mc_session_play(c, mc_session_move_at(s, k), NULL, NULL);
        mc_session_play(c, mv[i], NULL, NULL);
        mc_result r;
        mc_session_result(c, &r);
        int wins = r.over && r.winner == side;
        if (!r.over) {
            mc_search_limits l2 = lim;
            l2.depth = out->plies + 1;
            l2.seconds = seconds;
            mc_search_info ci;
            if (mc_search(c, &l2, &ci) == 0) {
                int child_side = mc_session_pos(c)->side;
                wins = child_side == side ? ci.score >= MC_SCORE_PROVEN
                                          : ci.score <= -MC_SCORE_PROVEN;
                out->nodes += ci.nodes;
            }
        }
        if (wins)
            out->wins[out->nwins++] = mv[i];
        mc_session_free(c);
    }
    return 0;
}
