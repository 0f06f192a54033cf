/*
 * line.c - a line of play with its history facts (see line.h).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "line.h"

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
        return 0;
    int cap = l->cap ? l->cap * 2 : 128;
    while (cap <= need)
        cap *= 2;
    mc_pos *pos = realloc(l->pos, (size_t)cap * sizeof *pos);
    if (pos)
        l->pos = pos;
    uint64_t *hash = realloc(l->hash, (size_t)cap * sizeof *hash);
    if (hash)
        l->hash = hash;
    int *ws = realloc(l->wstart, (size_t)cap * sizeof *ws);
    if (ws)
        l->wstart = ws;
    int *qs = realloc(l->qstart, (size_t)cap * sizeof *qs);
    if (qs)
        l->qstart = qs;
    if (!pos || !hash || !ws || !qs)
        return -1;
    l->cap = cap;
    return 0;
}

void mc_line_root(mc_line *l, const mc_game *g, const mc_pos *p)
{
    l->pos[0] = *p;
    l->hash[0] = mc_hash(g, p);
    l->wstart[0] = l->qstart[0] = 0;
}

