/*
 * solve.c - proof by exact search (mc_solve): the player's alpha-beta with
 * no reductions and table cuts only where history cannot matter, so that a
 * proven score is a proof; then every root move searched on its own for
 * the winning ones.
 */
#include <string.h>

#include "mancala.h"
#include "mancala_egdb.h"

static int solve_with(const mc_session *s, const mc_search_limits *lim,
                      double seconds, mc_solve_info *out);

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
    /* A solved game's tables, where they are, are exact leaves (only
       where no history is behind a position: a proof stays a proof). */
    const mc_game *g = mc_session_game(s);
    mc_solved *tabs = NULL;
    char name[32];
    if (mc_solved_name(g, name, sizeof name, NULL) == 0)
        tabs = mc_solved_open_default(g, NULL, 0, NULL);
    if (tabs) {
        lim.oracle = mc_solved_oracle;
        lim.oracle_ctx = tabs;
    }
    int rc = solve_with(s, &lim, seconds, out);
    mc_solved_close(tabs);
    return rc;
}

static int solve_with(const mc_session *s, const mc_search_limits *limp,
                      double seconds, mc_solve_info *out)
{
    mc_search_limits lim = *limp;
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
            return MC_ERR_NOMEM;
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
