#ifndef MC_LINE_H
#define MC_LINE_H

#include <stddef.h>
#include <string.h>

#include "mancala.h"
#include "../core/util.h"

/*
 * A line of play: positions with their hashes, and for each position the
 * index where its repetition window starts (after the last irreversible
 * move) and where its quiet-ply count starts.  Session, perft and random
 * games all keep one, so every caller counts history the same way.
 */
typedef struct mc_line {
    mc_pos *pos;
    uint64_t *hash;
    int *wstart, *qstart;
    int cap; /* room for positions 0..cap-1 */
} mc_line;

void mc_line_free(mc_line *l);
/* Make room for position index `need`; 0 on success. */
int mc_line_grow(mc_line *l, int need);
/* Start the line at p (position 0). */
void mc_line_root(mc_line *l, const mc_game *g, const mc_pos *p);

/* Inline: perft and search call these at every node. */
/* pos[k + 1] has been set by playing a move with play flags `fl` at k, and
   its hash is known. */
static inline void mc_line_link_hash(mc_line *l, int k, int fl, uint64_t h)
{
    mc_hot_assert(k >= 0 && k + 1 < l->cap); /* mc_line_grow made room */
    l->hash[k + 1] = h;
    l->wstart[k + 1] = (fl & MC_PLAY_IRREVERSIBLE) ? k + 1 : l->wstart[k];
    l->qstart[k + 1] = (fl & MC_PLAY_RESET_QUIET) ? k + 1 : l->qstart[k];
    /* Windows start at or before their position and never move back. */
    mc_hot_assert(l->wstart[k] <= l->wstart[k + 1] &&
                  l->qstart[k] <= l->qstart[k + 1]);
}

/* pos[k + 1] has been set by playing a move with play flags `fl` at k. */
static inline void mc_line_link(mc_line *l, const mc_game *g, int k, int fl)
{
    mc_line_link_hash(l, k, fl, mc_hash(g, &l->pos[k + 1]));
}

/* History facts for position k of the line. */
static inline void mc_line_hist(const mc_line *l, int k, mc_hist *h)
{
    mc_hot_assert(k >= 0 && k < l->cap && l->wstart[k] >= 0 &&
                  l->wstart[k] <= k && l->qstart[k] >= 0 && l->qstart[k] <= k);
    h->occurrences = 1;
    h->plies = k;
    h->quiet = k - l->qstart[k];
    const uint64_t key = l->hash[k];
    for (int j = k - 1; j >= l->wstart[k]; j--)
        if (l->hash[j] == key &&
            memcmp(&l->pos[j], &l->pos[k], offsetof(mc_pos, last)) == 0)
            h->occurrences++;
}

#endif
