/*
 * tune_prune.c - self-play of one pruning setting (the search's
 * mc_search_tuning.prune bits, each player's own) against another at an
 * equal budget: a time a move (seconds, when below 1) or nodes (1 and
 * up), over shared random openings, colours swapped (mc_selfplay).  Built
 * and run by hand, one process per core with different seeds:
 *   cc -O2 -Iinclude -o build/tune_prune bench/tune_prune.c \
 *       build/libmancala.a -lm -pthread
 *   build/tune_prune GAME A B BUDGET PAIRS SEED
 * where a setting is MASK[:RFP_MARGIN[:RFP_DEPTH]] (default 150 and 3).
 */
#include <stdio.h>
#include <stdlib.h>

#include "mancala.h"

/* A setting: MASK[:MARGIN[:DEPTH]] (the reverse futility margin and
   depth; default 150 and 3). */
static mc_search_tuning parse(const char *a)
{
    mc_search_tuning t;
    mc_search_tuning_init(&t);
    t.prune = 0;
    sscanf(a, "%d:%d:%d", &t.prune, &t.rfp_margin, &t.rfp_depth);
    return t;
}

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr,
                "usage: tune_prune GAME MASK_A MASK_B BUDGET PAIRS SEED\n");
        return 2;
    }
    mc_search_tuning set[2] = {parse(argv[2]), parse(argv[3])};
    double budget = atof(argv[4]);
    int pairs = atoi(argv[5]);
    mc_game *g = mc_game_new(argv[1], NULL);
    if (!g)
        return 2;
    mc_selfplay_player a = {.limits = {.tuning = &set[0]}};
    if (budget < 1)
        a.limits.seconds = budget;
    else
        a.limits.nodes = (uint64_t)budget;
    mc_selfplay_player b = a;
    b.limits.tuning = &set[1];
    mc_selfplay_score r;
    mc_selfplay(g, &a, &b, pairs, 4, (uint64_t)atol(argv[6]), &r);
    printf("%s %s vs %s at %g: +%d =%d -%d score %.3f Elo %+.0f "
           "[%+.0f, %+.0f]\n",
           argv[1], argv[2], argv[3], budget, r.wins, r.draws, r.losses,
           r.score, r.elo, r.elo_low, r.elo_high);
    mc_game_free(g);
    return 0;
}
