/*
 * tune_oware.c - self-play tuning of the Oware evaluation weights: plays a
 * candidate weight set against the current one at a fixed depth over shared
 * random openings and prints the score.  Built and run by hand:
 *   make && cc -O2 -Iinclude -o build/tune bench/tune_oware.c \
 *       build/libmancala.a -lm && build/tune W1 W2 DEPTH PAIRS
 * The evaluation is global state, so both players are run in turns by
 * switching the weights before each search.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mancala.h"

extern int mc_oware_eval_w[3];

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
    int w = 0, d = 0, l = 0;
    for (int i = 0; i < pairs; i++) {
        for (int swap = 0; swap < 2; swap++) {
            mc_session *s = mc_session_new(g, NULL);
            mc_rng rng;
            mc_rng_seed(&rng, 7777 + (uint64_t)i);
            int ply = 0;
            while (!mc_session_over(s)) {
                mc_move mv[MC_MAX_MOVES];
                int n = mc_session_moves(s, mv);
                mc_move m;
                int side = mc_session_pos(s)->side;
                if (ply < 4) {
                    m = mv[mc_rng_below(&rng, (uint32_t)n)];
                } else {
                    const int *wt = side == swap ? cand : base;
                    for (int k = 0; k < 3; k++)
                        mc_oware_eval_w[k] = wt[k];
                    mc_search_limits lim = {0};
                    lim.depth = depth;
                    lim.hash_mb = 4;
                    mc_search_info info;
                    mc_search(s, &lim, &info);
                    m = info.best;
                }
                mc_session_play(s, m, NULL, NULL);
                ply++;
            }
            mc_result r;
            mc_session_result(s, &r);
            if (r.winner == MC_DRAW)
                d++;
            else if (r.winner == swap)
                w++;
            else
                l++;
            mc_session_free(s);
        }
    }
    printf("cand %d,%d vs base %d,%d depth %d: +%d =%d -%d score %.3f\n",
           cand[1], cand[2], base[1], base[2], depth, w, d, l,
           (w + 0.5 * d) / (w + d + l));
    mc_game_free(g);
    return 0;
}
