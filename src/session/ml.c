/*
 * ml.c - the learning programs' view of a game (include/mancala_ml.h):
 * action indexes and observations through each game's own hooks (no rule
 * here), and batched random playouts that keep one line of history for
 * all their games instead of allocating one a game.
 */
#include <stdio.h>
#include <string.h>

#include "../games/game.h"
#include "line.h"
#include "mancala_ml.h"

int mc_ml_num_actions(const mc_game *g)
{
    return g->rules->nactions;
}

long mc_ml_action(const mc_game *g, const mc_pos *p, mc_move m)
{
    long a = g->rules->action_index(g, p, m);
    return a >= 0 && a < g->rules->nactions ? a : -1;
}

int mc_ml_move(const mc_game *g, const mc_pos *p, long a, mc_move *m)
{
    mc_move mv[MC_MAX_MOVES];
    int n = mc_moves(g, p, mv);
    for (int i = 0; i < n; i++)
        if (mc_ml_action(g, p, mv[i]) == a) {
            *m = mv[i];
            return MC_OK;
        }
    return MC_ERR_ILLEGAL;
}

int mc_ml_legal_actions(const mc_session *s, long *out, int *dropped)
{
    const mc_game *g = mc_session_game(s);
    const mc_pos *p = mc_session_pos(s);
    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(s, mv), k = 0, lost = 0;
    for (int i = 0; i < n; i++) {
        long a = mc_ml_action(g, p, mv[i]);
        if (a < 0)
            lost++;
        else
            out[k++] = a;
    }
    if (dropped)
        *dropped = lost;
    return k;
}

int mc_ml_apply(mc_session *s, long a, mc_error *err)
{
    if (mc_session_over(s)) {
        err->code = MC_ERR_OVER;
        snprintf(err->msg, sizeof err->msg, "action %ld: the game is over", a);
        return MC_ERR_OVER;
    }
    const mc_game *g = mc_session_game(s);
    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(s, mv);
    for (int i = 0; i < n; i++)
        if (mc_ml_action(g, mc_session_pos(s), mv[i]) == a)
            return mc_session_play(s, mv[i], NULL, err);
    err->code = MC_ERR_ILLEGAL;
    snprintf(err->msg, sizeof err->msg,
             "action %ld is not legal here (%d legal moves)", a, n);
    return MC_ERR_ILLEGAL;
}

int mc_ml_obs_size(const mc_game *g)
{
    return g->rules->obs_size;
}

void mc_ml_observe(const mc_game *g, const mc_pos *p, float *out)
{
    g->rules->observe(g, p, out);
}

/* One game from l.pos[0], its result into r; the plies played. */
static int playout(const mc_game *g, mc_line *l, mc_rng *rng, int max_plies,
                   mc_result *r)
{
    int k = 0;
    for (;;) {
        mc_hist h;
        mc_line_hist(l, k, &h);
        mc_status(g, &l->pos[k], &h, r);
        if (r->over || (max_plies > 0 && k >= max_plies))
            return k;
        mc_move mv[MC_MAX_MOVES];
        int n = mc_moves(g, &l->pos[k], mv);
        if (n == 0 || mc_line_grow(l, k + 1) != 0)
            return -1; /* no move while going on, or out of memory */
        l->pos[k + 1] = l->pos[k];
        int fl = mc_play(g, &l->pos[k + 1], mv[mc_rng_below(rng, (uint32_t)n)],
                         NULL);
        mc_line_link(l, g, k, fl);
        k++;
    }
}

int mc_ml_random_playouts(const mc_game *g, const mc_pos *p, long n,
                          uint64_t seed, int max_plies, mc_ml_playouts *out)
{
    memset(out, 0, sizeof *out);
    if (n < 0)
        return MC_ERR_ARG;
    mc_line l = {0};
    if (mc_line_grow(&l, 256) != 0)
        return MC_ERR_ARG;
    mc_line_root(&l, g, p);
    mc_rng rng;
    mc_rng_seed(&rng, seed);
    int rc = MC_OK;
    for (long i = 0; i < n; i++) {
        mc_result r;
        int k = playout(g, &l, &rng, max_plies, &r);
        if (k < 0) {
            rc = MC_ERR_ARG;
            break;
        }
        out->games++;
        out->plies += (uint64_t)k;
        if (!r.over)
            out->cut++;
        else if (r.winner == MC_DRAW)
            out->draws++;
        else
            out->wins[r.winner]++;
    }
    mc_line_free(&l);
    return rc;
}
