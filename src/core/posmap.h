/*
 * posmap.h - positions to numbers: an open-addressing index over positions
 * that its owner keeps (an array of entries, reallocated as it grows), so
 * the index holds only their numbers and asks the owner for a number's
 * position.  Positions are the same when their bytes up to `last` are
 * (mancala.h).  Used by the opening books and their builder.
 */
#ifndef MC_POSMAP_H
#define MC_POSMAP_H

#include <stddef.h>

#include "mancala.h"

typedef struct mc_posmap {
    int *slot; /* numbers, -1 empty; a power of two of them */
    size_t size;
    int count;
    /* the position of number k, from the owner ctx */
    const mc_pos *(*at)(const void *ctx, int k);
    const void *ctx;
} mc_posmap;

/* An empty map whose positions at() gives. */
void mc_posmap_init(mc_posmap *m, const mc_pos *(*at)(const void *, int),
                    const void *ctx);
void mc_posmap_free(mc_posmap *m);
/* The number of position p, or -1. */
int mc_posmap_find(const mc_posmap *m, const mc_pos *p);
/* Add number k (whose position is not in the map yet); -1 when out of
   memory (the map is then unchanged). */
int mc_posmap_add(mc_posmap *m, int k);

#endif
