/*
 * index.c - ranking of seed configurations: layer n lists the C(n+11, 11)
 * ways to put n seeds in 12 houses, in lexicographic order of
 * (h0, h1, ..., h11); rank 0 is (0, ..., 0, n).
 */
#include "egdb_int.h"

/* ways[k][r]: r seeds in k houses = C(r + k - 1, k - 1) (ways[0][0] = 1). */
static uint64_t ways[14][MC_EGDB_MAX_SEEDS + 2];

/* Filled when the library is loaded: ranking is on the builder's hottest
   path and should not test for it. */
__attribute__((constructor)) static void ways_init(void)
{
    for (int r = 0; r <= MC_EGDB_MAX_SEEDS + 1; r++)
        ways[0][r] = r == 0;
    for (int k = 1; k < 14; k++) {
        uint64_t s = 0;
        for (int r = 0; r <= MC_EGDB_MAX_SEEDS + 1; r++) {
            s += ways[k - 1][r]; /* the last house takes 0..r */
            ways[k][r] = s;
        }
    }
}

uint64_t mc_egdb_layer_size(int n)
{
    if (n < 0 || n > MC_EGDB_MAX_SEEDS)
        return 0;
    return ways[12][n];
}

uint64_t mc_egdb_rank(const uint8_t h[12])
{
    int r = 0;
    for (int i = 0; i < 12; i++)
        r += h[i];
    uint64_t rank = 0;
    for (int i = 0; i < 11; i++) {
        /* Configurations with the same prefix and fewer seeds in house i:
           the remaining houses after i (11 - i of them) hold the rest. */
        int k = 11 - i;
        rank += ways[k + 1][r] - ways[k + 1][r - h[i]];
        r -= h[i];
    }
    return rank;
}

void mc_egdb_unrank(int n, uint64_t rank, uint8_t h[12])
{
    int r = n;
    for (int i = 0; i < 11; i++) {
        int k = 11 - i;
        int v = 0;
        /* Largest v with ways[k+1][r] - ways[k+1][r - v] <= rank. */
        while (v < r && ways[k + 1][r] - ways[k + 1][r - v - 1] <= rank)
            v++;
        rank -= ways[k + 1][r] - ways[k + 1][r - v];
        h[i] = (uint8_t)v;
        r -= v;
    }
    h[11] = (uint8_t)r;
}
