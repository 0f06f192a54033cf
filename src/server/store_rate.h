/*
 * store_rate.h - the arithmetic of ratings that both stores (store.c's
 * SQLite, store_pg.c's PostgreSQL) do the same way around their reads and
 * writes: the time away applied to a rating, a standing from a rating, and
 * a rated game's change (docs/RATINGS.md).  Nothing here touches a
 * database.
 */
#ifndef MC_SERVER_STORE_RATE_H
#define MC_SERVER_STORE_RATE_H

#include "server/rating.h"
#include "server/store.h"

/* x with the time away from last to now applied (its deviation grown;
   last 0: never rated). */
mc_rating mc_store_grown(mc_rating x, long long last, long long now);

/* The standing at now from a rating x as stored, its last game and its
   counts c (games, wins, draws, losses); st->kind is left as it is. */
void mc_store_standing_fill(mc_store_standing *st, mc_rating x, long long last,
                            const int c[4], long long now);

/* The end of rated game rg at now, from each side's rating x and last
   game as read: *ch says what it does (the ratings before, with the time
   away, and after; shown, changed, provisional), after[] the ratings to
   write back and counts[][] (games, wins, draws, losses) the counts,
   both untouched when rg is aborted.  0, or -1 when the arithmetic
   refuses (nothing to write). */
int mc_store_rate(const mc_store_rated *rg, const mc_rating x[2],
                  const long long last[2], long long now, int counts[2][4],
                  mc_rating after[2], mc_store_change *ch);

#endif
