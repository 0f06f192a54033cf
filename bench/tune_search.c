/*
 * tune_search.c - self-play of one search setting against another at an
 * equal node budget over shared random openings (mc_selfplay; each player's
 * setting is its mc_search_tuning).  Built and run by hand:
 *   cc -O2 -Iinclude -o build/tune_search bench/tune_search.c \
 *       build/libmancala.a -lm && build/tune_search GAME LMR_A LMR_B NODES
 * PAIRS (LMR -1: scheme 2 with the plain store difference as evaluation)
 */
#include <stdio.h>
#include <stdlib.h>

#include "mancala.h"

/* A setting below 0 means "LMR 2 with the plain store difference as
   evaluation". */
static mc_search_tuning with_lmr(int v)
{
    mc_search_tuning t;
    mc_search_tuning_init(&t);
    t.lmr = v < 0 ? 2 : v;
    t.plain_eval = v < 0;
    return t;
}

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
    mc_search_tuning tune[2] = {with_lmr(set[0]), with_lmr(set[1])};
    mc_selfplay_player a = {
        .limits = {.nodes = (uint64_t)nodes, .tuning = &tune[0]}};
    mc_selfplay_player b = a;
    b.limits.tuning = &tune[1];
    mc_selfplay_score r;
    mc_selfplay(g, &a, &b, pairs, 4, 4242, &r);
    printf("%s lmr %d vs %d at %ld nodes: +%d =%d -%d score %.3f\n", argv[1],
           set[0], set[1], nodes, r.wins, r.draws, r.losses, r.score);
    mc_game_free(g);
    return 0;
}
