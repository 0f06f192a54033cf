/*
 * store.h - where `mancala serve` keeps its games: one SQLite database
 * (Debian's libsqlite3) in WAL mode.  A game is a row holding its record
 * text (the export format, mancala-record(5): every round and every move),
 * its version and times, and two seat rows (token, invitation, owner).  Every
 * change is one transaction, committed (synchronous=FULL) before the caller
 * answers.  Thread-safe: one connection behind a mutex; callers hold their
 * game's lock, so a game's changes reach the database in order.
 */
#ifndef MC_SERVER_STORE_H
#define MC_SERVER_STORE_H

#include "mancala.h"

typedef struct mc_store mc_store;

/* The clocks of a game's current round (the session's
   mc_session_clock_state): each side's time left when the turn began, and
   when it began in seconds since 1970 (< 0: the clocks wait; the game may
   have no clock at all, which the record's TimeControl tag says). */
typedef struct mc_store_clock {
    double bank[2];
    double since;
    int known; /* read: 0 when the game was stored before the clocks */
} mc_store_clock;

/* A game as stored. */
typedef struct mc_store_game {
    const char *id, *record, *addr;
    long long version, created, touched;
    int over;
    const char *token[2];  /* per side (0 South, 1 North); NULL: not taken */
    const char *invite[2]; /* an invitation still open, or NULL */
    int owner;             /* bit s: the creator holds side s */
    mc_store_clock clock;  /* the clocks of the round being played */
} mc_store_game;

/* Open (creating if missing, mode 0600) the database at path; NULL: a
   private database in memory.  NULL with err filled on failure. */
mc_store *mc_store_open(const char *path, mc_error *err);
void mc_store_close(mc_store *s);

/* Each returns 0, or -1 with err filled (MC_ERR_IO) when the change was not
   committed (nothing of it is kept). */
int mc_store_insert(mc_store *s, const mc_store_game *g, mc_error *err);
/* The record, version, over flag, time and clocks of a game (a move, an
   undo ...). */
int mc_store_update(mc_store *s, const char *id, const char *record,
                    long long version, int over, long long touched,
                    const mc_store_clock *clock, mc_error *err);
/* A seat taken through its invitation (the invitation is spent). */
int mc_store_seat(mc_store *s, const char *id, int side, const char *token,
                  long long touched, mc_error *err);
int mc_store_delete(mc_store *s, const char *id, mc_error *err);

/* Every game, in no order: each(ctx, g) is called with strings valid only
   during the call; it returns 0 to go on.  0, or -1 with err filled. */
int mc_store_each(mc_store *s, int (*each)(void *ctx, const mc_store_game *g),
                  void *ctx, mc_error *err);
/* The record, version and clocks (clock may be NULL) of one game (after a
   failed change: what the database holds).  0 with *record malloc'd, 1
   when there is no such game, -1 with err filled. */
int mc_store_get(mc_store *s, const char *id, char **record, long long *version,
                 mc_store_clock *clock, mc_error *err);

/* Tests: refuse every write from now on (PRAGMA query_only), so that the
   callers' error paths run against a real SQLite error. */
void mc_store_set_readonly(mc_store *s, int on);

#endif
