/*
 * tune_oware.c - self-play tuning of the Oware evaluation weights: plays a
 * candidate weight set against the current one at a fixed depth over shared
 * random openings (mc_selfplay) and prints the score.  Built and run by hand:
 *   make && cc -O2 -Iinclude -o build/tune bench/tune_oware.c \
 *       build/libmancala.a -lm && build/tune W1 W2 DEPTH PAIRS
 * Each player's weights are its search's mc_search_tuning.hand_eval (the
 * hand-set evaluation, which it chooses with mc_eval_source while Oware
 * has learned weights).
 */
#include <stdio.h>
#include <stdlib.h>

#include "mancala.h"

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: tune W1 W2 DEPTH PAIRS\n");
        return 2;
    }
    /* The base is the evaluation's own weights (docs/SEARCH.md). */
    int cand[3] = {100, atoi(argv[1]), atoi(argv[2])}, base[3] = {100, 15, 10};
    mc_search_tuning tc, tb;
    mc_search_tuning_init(&tc);
    mc_search_tuning_init(&tb);
    for (int k = 0; k < 3; k++) {
        tc.hand_eval[k] = cand[k];
        tb.hand_eval[k] = base[k];
    }
    int depth = atoi(argv[3]), pairs = atoi(argv[4]);
    mc_eval_source("hand", NULL);
    mc_game *g = mc_game_new("oware", NULL);
    mc_selfplay_player a = {
        .limits = {.depth = depth, .hash_mb = 4, .tuning = &tc}};
    mc_selfplay_player b = a;
    b.limits.tuning = &tb;
    mc_selfplay_score r;
    mc_selfplay(g, &a, &b, pairs, 4, 7777, &r);
    printf("cand %d,%d vs base %d,%d depth %d: +%d =%d -%d score %.3f\n",
           cand[1], cand[2], base[1], base[2], depth, r.wins, r.draws, r.losses,
           r.score);
    mc_game_free(g);
    return 0;
}
