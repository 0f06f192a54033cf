/*
 * test_review.c - values for players and the review of a game (1.4):
 * mc_win_chance against the logistic formula worked by hand, the words of
 * mc_score_describe in each game's unit, and mc_review_fill's verdicts at
 * drops chosen on either side of each threshold (0.10, 0.20, 0.30).
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "mancala.h"

/* The score whose chance is p in a game of scale k: k ln(p / (1 - p)). */
static int score_of(double k, double p)
{
    return (int)lround(k * log(p / (1 - p)));
}

static void test_chance(void)
{
    mc_game *o = mc_game_new("oware", NULL);
    mc_game *w = mc_game_new("omweso", NULL);
    CHECK(fabs(mc_win_chance(o, 0) - 0.5) < 1e-9);
    /* sigmoid(ln 3) = 3/4: Oware's K is 811.5, so 811.5 ln 3 = 891.5 */
    CHECK_MSG(fabs(mc_win_chance(o, 892) - 0.75) < 0.001, "%f",
              mc_win_chance(o, 892));
    CHECK(fabs(mc_win_chance(o, -892) - 0.25) < 0.001);
    CHECK(mc_win_chance(o, MC_SCORE_WIN - 3) == 1.0);
    CHECK(mc_win_chance(o, -(MC_SCORE_WIN - 3)) == 0.0);
    char b[160];
    mc_score_describe(o, MC_SOUTH, 250, b, sizeof b);
    CHECK_STR(b, "South ahead by 2.5 seeds");
    mc_score_describe(o, MC_NORTH, 250, b, sizeof b); /* North's view */
    CHECK_STR(b, "North ahead by 2.5 seeds");
    mc_score_describe(o, MC_SOUTH, 0, b, sizeof b);
    CHECK_STR(b, "level");
    mc_score_describe(o, MC_NORTH, MC_SCORE_WIN - 7, b, sizeof b);
    CHECK_STR(b, "North wins by force in 7 plies");
    /* Omweso: a chance, never seeds; K 861.1 ln 3 = 946 is 75 % */
    mc_score_describe(w, MC_SOUTH, 946, b, sizeof b);
    CHECK_STR(b, "South ahead: 75 % to win");
    mc_score_describe(w, MC_SOUTH, -946, b, sizeof b);
    CHECK_STR(b, "North ahead: 75 % to win");
    /* an endgame table's win by 3 seeds, found 5 plies down:
       MC_SCORE_PROVEN + 10 + 150 * 3 - 5 (mancala_egdb.h) */
    mc_score_describe(o, MC_SOUTH, MC_SCORE_PROVEN + 10 + 150 * 3 - 5, b,
                      sizeof b);
    CHECK_STR(b, "South wins by 3 seeds with perfect play");
    mc_score_describe(o, MC_SOUTH, -(MC_SCORE_PROVEN + 10 + 150 * 1 - 5), b,
                      sizeof b);
    CHECK_STR(b, "North wins by 1 seed with perfect play");
    CHECK_STR(mc_verdict_name(MC_VERDICT_BLUNDER), "blunder");
    CHECK_STR(mc_verdict_name(MC_VERDICT_NONE), "");
    mc_game_free(o);
    mc_game_free(w);
}

static void test_fill(void)
{
    /* Oware from the start, four moves (the sides alternate).  Position
       k's value for its side to move is set from chances chosen by hand,
       so that the mover's chance (before) and its chance after its move
       (1 - the next mover's) fall by 0.15, 0.25, 0.35 and 0.25. */
    mc_game *g = mc_game_new("oware", NULL);
    mc_pos p;
    mc_start(g, &p);
    mc_session *s = mc_session_new(g, &p);
    const char *moves[] = {"C", "d", "A", "f"};
    for (int i = 0; i < 4; i++)
        CHECK(mc_session_play_str(s, moves[i], NULL, NULL) == 0);
    const double k = 811.5;
    const double chance[5] = {0.60, 0.55, 0.70, 0.65, 0.60};
    const double after[4] = {0.45, 0.30, 0.35, 0.40};
    const int want[4] = {MC_VERDICT_INACCURACY, MC_VERDICT_MISTAKE,
                         MC_VERDICT_BLUNDER, MC_VERDICT_MISTAKE};
    int score[5];
    mc_move best[5];
    for (int i = 0; i < 5; i++) {
        score[i] = score_of(k, chance[i]);
        best[i] = mc_session_move_at(s, i < 4 ? i : 3); /* any move will do */
    }
    mc_review r[4];
    CHECK(mc_review_fill(s, score, best, r) == 4);
    for (int i = 0; i < 4; i++) {
        CHECK_MSG(fabs(r[i].before - chance[i]) < 0.001 &&
                      fabs(r[i].after - after[i]) < 0.001,
                  "move %d: %f -> %f, want %f -> %f", i, r[i].before,
                  r[i].after, chance[i], after[i]);
        CHECK_MSG(r[i].verdict == want[i], "move %d: verdict %d, want %d", i,
                  r[i].verdict, want[i]);
        CHECK(r[i].side == (i % 2 ? MC_NORTH : MC_SOUTH));
        CHECK(r[i].played == mc_session_move_at(s, i));
    }
    /* Just under each threshold: 0.09, 0.19, 0.29 */
    const double c2[4] = {0.60, 0.49, 0.60, 0.69};
    for (int i = 0; i < 4; i++)
        score[i] = score_of(k, c2[i]);
    score[4] = score_of(k, 0.60);
    mc_review_fill(s, score, best, r);
    /* drops: 0.60 - 0.51 = 0.09, 0.49 - 0.40 = 0.09, 0.60 - 0.31 = 0.29,
       0.69 - 0.40 = 0.29 */
    CHECK_MSG(r[0].verdict == MC_VERDICT_NONE, "%d", r[0].verdict);
    CHECK_MSG(r[1].verdict == MC_VERDICT_NONE, "%d", r[1].verdict);
    CHECK_MSG(r[2].verdict == MC_VERDICT_MISTAKE, "%d", r[2].verdict);
    CHECK_MSG(r[3].verdict == MC_VERDICT_MISTAKE, "%d", r[3].verdict);
    mc_session_free(s);
    mc_game_free(g);
}

/* A finished game: the last move is judged by the result. */
static void test_end(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_pos p;
    CHECK(mc_pos_parse(g, "0,0,8,0,0,1/1,1,1,1,2,3 S cap=14,16", &p, NULL) ==
          0);
    mc_session *s = mc_session_new(g, &p);
    CHECK(mc_session_play_str(s, "C", NULL, NULL) ==
          0); /* 25: South wins (O8a) */
    CHECK(mc_session_over(s));
    int sc[2] = {MC_SCORE_WIN - 1, 0};
    mc_move best[2] = {mc_session_move_at(s, 0), 0};
    mc_review r[1];
    CHECK(mc_review_fill(s, sc, best, r) == 1);
    CHECK(r[0].before == 1.0 && r[0].after == 1.0 &&
          r[0].verdict == MC_VERDICT_NONE);
    mc_session_free(s);
    mc_game_free(g);
}

int main(void)
{
    test_chance();
    test_fill();
    test_end();
    return check_report("test_review");
}
