/*
 * line.c - a line of play with its history facts (see line.h).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "line.h"
#include "../core/util.h"

void mc_line_free(mc_line *l)
{
    free(l->pos);
    free(l->hash);
    free(l->wstart);
    free(l->qstart);
    memset(l, 0, sizeof *l);
}

/* Make room for position index `need`; 0 on success. */
int mc_line_grow(mc_line *l, int need)
{
    if (need < l->cap)
        return 0; /* the search calls this at every node */
    /* The four arrays grow alike (same capacity, need and start). */
    size_t cap = (size_t)l->cap, want = (size_t)need + 1;
    size_t a = mc_grow(&l->pos, cap, want, sizeof *l->pos, 8);
    size_t b = mc_grow(&l->hash, cap, want, sizeof *l->hash, 8);
    size_t c = mc_grow(&l->wstart, cap, want, sizeof *l->wstart, 8);
    size_t d = mc_grow(&l->qstart, cap, want, sizeof *l->qstart, 8);
    if (!a || !b || !c || !d)
        return -1;
    assert(a == b && b == c && c == d && a > (size_t)need);
    l->cap = (int)a;
    return 0;
}

void mc_line_root(mc_line *l, const mc_game *g, const mc_pos *p)
{
    assert(l->cap >= 1); /* mc_line_grow first */
    l->pos[0] = *p;
    l->hash[0] = mc_hash(g, p);
    l->wstart[0] = l->qstart[0] = 0;
}
