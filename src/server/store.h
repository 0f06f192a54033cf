/*
 * store.h - where `mancala serve` keeps its games and accounts: one SQLite
 * database (Debian's libsqlite3) in WAL mode.  A game is a row holding its
 * record text (the export format, mancala-record(5): every round and every
 * move), its version and times, and two seat rows (token, invitation,
 * owner, the account holding it).  An account is a row (name, password
 * hash), a session a row keyed by its token's digest.  Every change is one
 * transaction, committed (synchronous=FULL) before the caller answers.
 * Thread-safe: one connection behind a mutex; callers hold their game's
 * lock, so a game's changes reach the database in order.  This interface
 * is the whole of what the API asks of a store: another store (PostgreSQL)
 * implements it and nothing else (store_pg.c, which store.c hands every
 * call to when mc_store_open is given a PostgreSQL connection string;
 * store_none.c is the page's, which keeps nothing).  The database has a
 * schema version (meta.schema): one of an older version is brought up to
 * this one when it is opened, one of a newer version is refused.
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

/* ---- ratings (the types first: a game as stored carries its change) ----
   An account has one rating per kind of game (the rules' name: "oware",
   "omweso", "gore", "sadeqa2"), Glicko-2 (rating.h, docs/RATINGS.md),
   changed by its rated games' results only, in the transaction that
   writes the result (mc_store_update_rated). */

/* What a rated game's end did to each side's rating (0 South, 1 North):
   the ratings before it (time away applied) and after, as shown (to the
   nearest point) with their change (shown after - shown before) and
   whether each was provisional; or, aborted, nothing (ended before each
   side made two moves). */
typedef struct mc_store_change {
    int aborted;
    double score; /* South's: 1, 0.5, 0 */
    double before[2], rd_before[2], after[2], rd_after[2];
    int shown_before[2], shown_after[2], change[2];
    int prov_before[2], prov_after[2];
} mc_store_change;

/* A takeback asked for in a game between two people: the side that asked
   (-1: none) and whether the other declined it.  Kept with the game, so
   that every server process (and a restart) knows it. */
typedef struct mc_store_takeback {
    int side, declined;
} mc_store_takeback;

/* A game as stored. */
typedef struct mc_store_game {
    const char *id, *record, *addr;
    long long version, created, touched;
    int over;
    const char *token[2];   /* per side (0 South, 1 North); NULL: not taken */
    const char *invite[2];  /* an invitation still open, or NULL */
    int owner;              /* bit s: the creator holds side s */
    mc_store_clock clock;   /* the clocks of the round being played */
    long long account[2];   /* the account holding each seat; 0: none */
    const char *player[2];  /* read: that account's name, NULL when it was
                               deleted (ignored when written) */
    int rated;              /* its end is rated (a game of the lobby) */
    int bot[2];             /* read: the level of a house bot holding a seat
                               (its account's), else 0 */
    int ended;              /* read: its end was rated (or aborted) ... */
    mc_store_change change; /* ... and that did this */
    mc_store_takeback tb;   /* read: the takeback asked for */
} mc_store_game;

/* Open (creating if missing, mode 0600) the database at path; NULL: a
   private database in memory; a PostgreSQL connection string
   (store_pg.h): that database.  NULL with err filled on failure. */
mc_store *mc_store_open(const char *path, mc_error *err);
void mc_store_close(mc_store *s);

/* Each returns 0, or -1 with err filled (MC_ERR_IO) when the change was not
   committed (nothing of it is kept), or one of these (err filled, nothing
   kept): */
#define MC_STORE_CHANGED                                                       \
    2                    /* the game holds that version or a later one         \
                            (another server process changed it first), or      \
                            is gone: read it again (mc_store_one) */
#define MC_STORE_QUOTA 3 /* mc_store_insert: g->addr holds quota games */
#define MC_STORE_FULL 4  /* mc_store_insert: the store holds most games */

/* A new game and its two seats; when quota > 0, refused (MC_STORE_QUOTA)
   if the store holds quota games of g->addr already, when most > 0
   (MC_STORE_FULL) if it holds most games: counted in the transaction, so
   that the limits hold for every server process of a shared store. */
int mc_store_insert(mc_store *s, const mc_store_game *g, int quota, int most,
                    mc_error *err);
/* The record, version, over flag, time, clocks and takeback asked for (tb
   NULL: none) of a game (a move, an undo ...): written only while the
   store holds an older version (else MC_STORE_CHANGED). */
int mc_store_update(mc_store *s, const char *id, const char *record,
                    long long version, int over, long long touched,
                    const mc_store_clock *clock, const mc_store_takeback *tb,
                    mc_error *err);
/* A seat taken through its invitation (the invitation is spent), by the
   account (0: none); the game's version becomes version (as
   mc_store_update: MC_STORE_CHANGED when it is not newer). */
int mc_store_seat(mc_store *s, const char *id, int side, const char *token,
                  long long account, long long version, long long touched,
                  mc_error *err);
int mc_store_delete(mc_store *s, const char *id, mc_error *err);

/* Every game, in no order: each(ctx, g) is called with strings valid only
   during the call; it returns 0 to go on.  0, or -1 with err filled. */
int mc_store_each(mc_store *s, int (*each)(void *ctx, const mc_store_game *g),
                  void *ctx, mc_error *err);
/* One game as mc_store_each gives it (after a failed change, or a change
   made by another process: what the database holds): each(ctx, g) called
   once.  0, 1 when there is no such game, -1 with err filled. */
int mc_store_one(mc_store *s, const char *id,
                 int (*each)(void *ctx, const mc_store_game *g), void *ctx,
                 mc_error *err);

/* Every game's id and version alone, in no order (what a process that
   may have missed changes compares with what it holds): each(ctx, id,
   version), id valid only during the call, returns 0 to go on.  0, or -1
   with err filled. */
int mc_store_versions(mc_store *s,
                      int (*each)(void *ctx, const char *id, long long version),
                      void *ctx, mc_error *err);

/* Several server processes on one store (PostgreSQL): changed(ctx, id,
   version) is called, from a thread of the store's, after every change of
   a game committed by any process (this one too): its new version, or -1
   when it was deleted; id NULL after the store's connection was lost and
   made again (changes may have been missed: read every game again; when
   changed returns non-zero, it could not: it is called so again half a
   second later, until it returns 0).
   0 when listening; 1 when the store is no other process's (SQLite, the
   page's): nothing is called; -1 with err filled.  Stopped by
   mc_store_close. */
int mc_store_listen(mc_store *s,
                    int (*changed)(void *ctx, const char *id,
                                   long long version),
                    void *ctx, mc_error *err);

/* ---- accounts and sessions --------------------------------------------
   Names are unique ignoring ASCII case (the API allows no other letters);
   an account's id is never given again, even after it is deleted, so a
   seat that names a deleted account never names another.  A session is
   kept under its token's digest, never the token. */
#define MC_STORE_NAME_MAX 32
#define MC_STORE_HASH_MAX 160

typedef struct mc_store_account {
    long long id; /* > 0 */
    char name[MC_STORE_NAME_MAX + 1];
    char hash[MC_STORE_HASH_MAX + 1]; /* the password's hash string */
    long long created;                /* seconds since 1970 */
} mc_store_account;

typedef struct mc_store_session {
    const char *digest;         /* of the token */
    long long created, expires; /* seconds since 1970 */
} mc_store_session;

/* A new account, with its first session (may be NULL): *id.  0, 1 when
   the name is taken (ignoring case), -1 with err filled. */
int mc_store_account_add(mc_store *s, const char *name, const char *hash,
                         long long created, const mc_store_session *first,
                         long long *id, mc_error *err);
/* The account named name (ignoring case) into *a.  0, 1 when there is
   none, -1 with err filled. */
int mc_store_account_find(mc_store *s, const char *name, mc_store_account *a,
                          mc_error *err);
/* A new password hash for account id; every session of it but the one of
   digest keep (NULL: every one) ends; *ended (may be NULL) counts them.
   0, 1 when there is no such account, -1 with err filled. */
int mc_store_account_password(mc_store *s, long long id, const char *hash,
                              const char *keep, int *ended, mc_error *err);
/* Account id deleted with its sessions; the seats it held keep its id.
   0, 1 when there is no such account, -1 with err filled. */
int mc_store_account_delete(mc_store *s, long long id, mc_error *err);
/* A new session of account id; its sessions ended before now go, and
   beyond `most` sessions the oldest end.  0, or -1 with err filled. */
int mc_store_session_add(mc_store *s, long long id, const mc_store_session *ss,
                         int most, long long now, mc_error *err);
/* The account (its hash left empty) of the session of digest, if it has
   not ended by now; *expires when it ends.  0, 1 when there is no such
   session, -1 with err filled. */
int mc_store_session_find(mc_store *s, const char *digest, long long now,
                          mc_store_account *a, long long *expires,
                          mc_error *err);
/* The session of digest ends; all: every session of its account.  *ended
   (may be NULL) counts them.  0, or -1 with err filled. */
int mc_store_session_end(mc_store *s, const char *digest, int all, int *ended,
                         mc_error *err);
/* Every session ended by now is deleted.  0, or -1 with err filled. */
int mc_store_sessions_expire(mc_store *s, long long now, mc_error *err);

/* ---- ratings ----------------------------------------------------------- */

/* A rated game's end: the kind, the accounts of South and North (two,
   not the same), South's score, or aborted. */
typedef struct mc_store_rated {
    const char *kind;
    long long account[2];
    double score; /* South's: 1, 0.5, 0 */
    int aborted;
} mc_store_rated;

/* mc_store_update and the end of the rated game id, in one transaction:
   both ratings read (a new one: 1500, RD 350; time away since each
   side's last rated game applied), the game rated (Glicko-2, one game a
   period, rating.h), both written back with the time, and the result
   kept; or, aborted, the result alone.  *ch says what it did.  A game
   whose end was kept already is not rated again (*ch: what it did then).
   0, or -1 with err filled (nothing of it kept). */
int mc_store_update_rated(mc_store *s, const char *id, const char *record,
                          long long version, long long touched,
                          const mc_store_clock *clock, const mc_store_rated *rg,
                          mc_store_change *ch, mc_error *err);

/* An account's standing in one kind of game, as of now: the rating with
   the time away applied to its deviation, as shown, provisional or not,
   and its rated games. */
typedef struct mc_store_standing {
    char kind[16];
    double r, rd;
    int shown, provisional;
    int games, wins, draws, losses;
    long long last; /* its last rated game's end (0: none yet) */
} mc_store_standing;

/* The standing of account id in kind at now into *st (a new player's
   when it has no rated game of that kind).  0, or -1 with err filled. */
int mc_store_standing_of(mc_store *s, long long id, const char *kind,
                         long long now, mc_store_standing *st, mc_error *err);

/* A rated game (or aborted one) of an account, from its side. */
typedef struct mc_store_past {
    char game[40]; /* its id (it may have expired since) */
    char kind[16];
    long long ended;
    int side;                             /* 0 South, 1 North */
    char opponent[MC_STORE_NAME_MAX + 1]; /* "" when deleted since */
    int aborted;
    double score;            /* the account's: 1, 0.5, 0 */
    int shown_after, change; /* its rating after, and the change */
} mc_store_past;

/* The account named name (*acc, its hash left empty), its standings in
   each kind it played rated (at most nst into st, *got_st of them) and
   its last rated games, the latest first (at most npast, *got_past).
   0, 1 when there is no such account, -1 with err filled. */
int mc_store_player(mc_store *s, const char *name, long long now,
                    mc_store_account *acc, mc_store_standing *st, int nst,
                    int *got_st, mc_store_past *past, int npast, int *got_past,
                    mc_error *err);

/* The account of the house bot of level (1..10), "bot-level-N", made
   the first time (no password: nobody signs in as it), into *acc.  0,
   or -1 with err filled (also when a person's account has that name). */
int mc_store_bot(mc_store *s, int level, mc_store_account *acc, mc_error *err);

/* Tests: refuse every write from now on (PRAGMA query_only), so that the
   callers' error paths run against a real SQLite error. */
void mc_store_set_readonly(mc_store *s, int on);

#endif
