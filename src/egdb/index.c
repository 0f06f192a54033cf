/*
 * index.c - ranking of seed configurations: layer n lists the C(n+11, 11)
 * ways to put n seeds in 12 houses, in lexicographic order of
 * (h0, h1, ..., h11); rank 0 is (0, ..., 0, n).  The solved tables of
 * the other games (retro.c) rank their boards of k houses the same way.
 */
#include "../core/util.h"
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

/* The same ranking over k houses (2..13): the solved tables' boards. */
uint64_t eg_layer_size_k(int k, int n)
{
    if (k < 1 || k > 13 || n < 0 || n > MC_EGDB_MAX_SEEDS)
        return 0;
    return ways[k][n];
}

static inline uint64_t rank_k(const uint8_t *h, int k)
{
    int r = 0;
    for (int i = 0; i < k; i++)
        r += h[i];
    /* ways has rows for 1..13 houses and columns for 0..MAX + 1 seeds */
    mc_hot_assert(k >= 1 && k <= 13 && r <= MC_EGDB_MAX_SEEDS);
    uint64_t rank = 0;
    for (int i = 0; i < k - 1; i++) {
        int rest = k - 1 - i;
        rank += ways[rest + 1][r] - ways[rest + 1][r - h[i]];
        r -= h[i];
    }
    return rank;
}

/* A rank is a place in its layer: below the layer's size. */
static inline int rank_in_layer(uint64_t rank, const uint8_t *h, int k)
{
    int n = 0;
    for (int i = 0; i < k; i++)
        n += h[i];
    return rank < ways[k][n];
}

static inline void unrank_k(int n, uint64_t rank, uint8_t *h, int k)
{
    mc_hot_assert(k >= 1 && k <= 13 && n >= 0 && n <= MC_EGDB_MAX_SEEDS);
    mc_hot_assert(rank < ways[k][n]);
    int r = n;
    for (int i = 0; i < k - 1; i++) {
        int rest = k - 1 - i;
        int v = 0;
        while (v < r && ways[rest + 1][r] - ways[rest + 1][r - v - 1] <= rank)
            v++;
        rank -= ways[rest + 1][r] - ways[rest + 1][r - v];
        h[i] = (uint8_t)v;
        r -= v;
    }
    mc_hot_assert(rank == 0 && r >= 0); /* the rank is used up exactly */
    h[k - 1] = (uint8_t)r;
}

/* Inlined with k a constant for Oware, on the builder's hottest path. */
uint64_t mc_egdb_rank(const uint8_t h[12])
{
    uint64_t x = rank_k(h, 12);
    mc_hot_assert(rank_in_layer(x, h, 12));
    return x;
}
void mc_egdb_unrank(int n, uint64_t rank, uint8_t h[12])
{
    unrank_k(n, rank, h, 12);
}
uint64_t eg_rank_k(const uint8_t *h, int k)
{
    uint64_t x = rank_k(h, k);
    mc_hot_assert(rank_in_layer(x, h, k));
    return x;
}
void eg_unrank_k(int n, uint64_t rank, uint8_t *h, int k)
{
    unrank_k(n, rank, h, k);
}
