/*
 * tune_oware.c - self-play tuning of the Oware evaluation weights: plays a
 * candidate weight set against the current one at a fixed depth over shared
 * random openings (mc_selfplay) and prints the score.  Built and run by hand:
 *   make && cc -O2 -Iinclude -o build/tune bench/tune_oware.c \
 *       build/libmancala.a -lm && build/tune W1 W2 DEPTH PAIRS
 * The evaluation is global state, so each player sets its weights before
 * each of its searches.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mancala.h"

extern int mc_oware_eval_w[3];

static void set_weights(void *ctx)
{
    const int *w = ctx;
    for (int k = 0; k < 3; k++)
        mc_oware_eval_w[k] = w[k];
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: tune W1 W2 DEPTH PAIRS\n");
        return 2;
    }
    int cand[3] = {100, atoi(argv[1]), atoi(argv[2])};
    int base[3] = {mc_oware_eval_w[0], mc_oware_eval_w[1], mc_oware_eval_w[2]};
    int depth = atoi(argv[3]), pairs = atoi(argv[4]);
    mc_game *g = mc_game_new("oware", NULL);
    mc_selfplay_player a = {.limits = {.depth = depth, .hash_mb = 4},
                            .prepare = set_weights, .ctx = cand};
    mc_selfplay_player b = a;
    b.ctx = base;
    mc_selfplay_score r;
    mc_selfplay(g, &a, &b, pairs, 4, 7777, &r);
    printf("cand %d,%d vs base %d,%d depth %d: +%d =%d -%d score %.3f\n",
           cand[1], cand[2], base[1], base[2], depth, r.wins, r.draws,
           r.losses, r.score);
    mc_game_free(g);
    return 0;
}
