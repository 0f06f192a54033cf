/*
 * tune_search.c - self-play of one search setting against another at an
 * equal node budget over shared random openings (settings are global
 * tuning knobs, switched before each search).  Built and run by hand:
 *   cc -O2 -Iinclude -o build/tune_search bench/tune_search.c \
 *       build/libmancala.a -lm && build/tune_search GAME LMR_A LMR_B NODES PAIRS
 * (LMR -1: scheme 2 with the plain store difference as evaluation)
 */
#include <stdio.h>
#include <stdlib.h>

#include "mancala.h"

extern int mc_search_lmr;
extern int mc_search_plain_eval;

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: tune_search GAME LMR_A LMR_B NODES PAIRS\n");
        return 2;
    }
    int set[2] = {atoi(argv[2]), atoi(argv[3])};
    long nodes = atol(argv[4]);
    int pairs = atoi(argv[5]);
    mc_game *g = mc_game_new(argv[1], NULL);
    if (!g)
        return 2;
    int w = 0, d = 0, l = 0;
    for (int i = 0; i < pairs; i++) {
        for (int swap = 0; swap < 2; swap++) {
            mc_session *s = mc_session_new(g, NULL);
            mc_rng rng;
            mc_rng_seed(&rng, 4242 + (uint64_t)i);
            int ply = 0;
            while (!mc_session_over(s)) {
                mc_move mv[MC_MAX_MOVES], m;
                int n = mc_session_moves(s, mv);
                if (ply < 4) {
                    m = mv[mc_rng_below(&rng, (uint32_t)n)];
                } else {
                    /* A setting below 0 means "LMR 2 with the plain store
                       difference as evaluation". */
                    int v = set[mc_session_pos(s)->side == swap ? 0 : 1];
                    mc_search_lmr = v < 0 ? 2 : v;
                    mc_search_plain_eval = v < 0;
                    mc_search_limits lim = {0};
                    lim.nodes = (uint64_t)nodes;
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
    printf("%s lmr %d vs %d at %ld nodes: +%d =%d -%d score %.3f\n", argv[1],
           set[0], set[1], nodes, w, d, l, (w + 0.5 * d) / (w + d + l));
    mc_game_free(g);
    return 0;
}
