/*
 * review.c - the review of a whole game (mc_review_game, mc_review_fill):
 * each position valued by the engine, each move judged by how much of its
 * player's chance to win it gave away (the drop, from mc_win_chance: 0.10
 * an inaccuracy, 0.20 a mistake, 0.30 a blunder, the thresholds chess
 * sites use on their win percentages), with the engine's better move.  The
 * page, the full screen and `mancala analyze --game` all show this one
 * judgement; none of them decides anything.  And a value in words for
 * players (mc_score_describe), in the game's own unit.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mancala.h"
#include "mancala_egdb.h"
#include "../games/game.h"

size_t mc_score_describe(const mc_game *g, int side, int score, char *buf,
                         size_t n)
{
    int south = side == MC_SOUTH ? score : -score;
    const char *lead = mc_side_word(south > 0 ? MC_SOUTH : MC_NORTH);
    int a = south < 0 ? -south : south;
    /* an endgame table's value: the final margin, not plies */
    int margin = mc_egdb_score_margin(a);
    if (margin > 0)
        /* TRANSLATORS: %1$s the side, %2$d the final margin */
        return (size_t)snprintf(buf, n,
                                P_("%1$s wins by %2$d seed with perfect play",
                                   "%1$s wins by %2$d seeds with perfect play",
                                   margin),
                                lead, margin);
    if (a >= MC_SCORE_PROVEN)
        /* TRANSLATORS: %1$s the side, %2$d plies (half moves) */
        return (size_t)snprintf(buf, n,
                                P_("%1$s wins by force in %2$d ply",
                                   "%1$s wins by force in %2$d plies",
                                   MC_SCORE_WIN - a),
                                lead, MC_SCORE_WIN - a);
    if (g->rules->score_in_seeds) {
        if (a < 5) /* under a twentieth of a seed: even */
            return (size_t)snprintf(buf, n, "%s", _("level"));
        return (size_t)snprintf(buf, n, _("%s ahead by %.1f seeds"), lead,
                                a / 100.0);
    }
    int pct = (int)(mc_win_chance(g, a) * 100.0 + 0.5);
    if (pct <= 50)
        return (size_t)snprintf(buf, n, "%s", _("level"));
    return (size_t)snprintf(buf, n, _("%s ahead: %d %% to win"), lead, pct);
}

static int verdict_of(double drop)
{
    return drop >= 0.30   ? MC_VERDICT_BLUNDER
           : drop >= 0.20 ? MC_VERDICT_MISTAKE
           : drop >= 0.10 ? MC_VERDICT_INACCURACY
                          : MC_VERDICT_NONE;
}

int mc_review_fill(const mc_session *s, const int *score, const mc_move *best,
                   mc_review *out)
{
    const mc_game *g = mc_session_game(s);
    int n = mc_session_ply(s);
    mc_result r;
    mc_session_result(s, &r);
    for (int k = 0; k < n; k++) {
        const mc_pos *p = mc_session_pos_at(s, k);
        mc_review *v = &out[k];
        v->side = p->side;
        v->played = mc_session_move_at(s, k);
        v->best = best[k];
        v->score = score[k];
        v->before = mc_win_chance(g, score[k]);
        if (k + 1 == n && r.over) {
            /* the last move: what the game's end gave its player */
            v->after = r.winner == MC_DRAW   ? 0.5
                       : r.winner == p->side ? 1.0
                                             : 0.0;
        } else {
            double c = mc_win_chance(g, score[k + 1]);
            v->after =
                mc_session_pos_at(s, k + 1)->side == p->side ? c : 1.0 - c;
        }
        v->verdict = verdict_of(v->before - v->after);
        for (int i = 0; i < 4; i++)
            v->reserved[i] = 0;
    }
    return n;
}

int mc_review_game(mc_player *pl, const mc_session *s, const mc_go *go,
                   mc_review *out,
                   void (*progress)(int done, int total, void *ctx), void *ctx)
{
    const mc_game *g = mc_session_game(s);
    int n = mc_session_ply(s);
    int over = mc_session_over(s);
    int total = over ? n : n + 1;
    int *score = calloc((size_t)n + 1, sizeof *score);
    mc_move *best = calloc((size_t)n + 1, sizeof *best);
    mc_session *c = mc_session_new(g, mc_session_pos_at(s, 0));
    int rc = score && best && c ? 0 : MC_ERR_NOMEM;
    for (int k = 0; k < total && rc == 0; k++) {
        /* the history up to position k, so that repetitions count */
        if (k > 0 &&
            mc_session_play(c, mc_session_move_at(s, k - 1), NULL, NULL) != 0) {
            rc = MC_ERR_ARG;
            break;
        }
        mc_search_info info;
        if (mc_player_sync(pl, c, NULL) != 0 ||
            mc_player_go(pl, go, &info) != 0) {
            rc = MC_ERR_NOMEM;
            break;
        }
        score[k] = info.score;
        best[k] = info.best;
        if (progress)
            progress(k + 1, total, ctx);
    }
    if (rc == 0)
        mc_review_fill(s, score, best, out);
    mc_session_free(c);
    free(score);
    free(best);
    return rc;
}
