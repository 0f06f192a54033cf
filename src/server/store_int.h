/*
 * store_int.h - what the files of the SQLite store share (store.c,
 * store_account.c): the store's state and the helpers that run
 * statements.  Not for other files: they use store.h.
 */
#ifndef MC_SERVER_STORE_INT_H
#define MC_SERVER_STORE_INT_H

#include <pthread.h>
#include <sqlite3.h>
#include <sys/types.h>

#include "store.h"
#include "store_pg.h"
#include "store_sql.h"

struct mc_store {
    sqlite3 *db;
    pthread_mutex_t lock;
    char *path;    /* NULL: in memory */
    dev_t dev;     /* the file opened: a change to a file that is no */
    ino_t ino;     /* longer at path would be lost at the next start */
    char *wal;     /* its write-ahead log (path-wal), once it exists: */
    int wal_known; /* its removal loses what it holds as surely */
    dev_t wal_dev;
    ino_t wal_ino;
    mc_pg *pg; /* a PostgreSQL store instead (store_pg.c) */
};

/* err filled from SQLite's last error ("the game store: WHAT: ..."): -1. */
int sq_fail(mc_store *s, mc_error *err, const char *what);
/* Fixed statements (no parameters): 0, or -1. */
int sq_run(mc_store *s, const char *sql);
/* sql prepared (NULL on failure); binding is the caller's. */
sqlite3_stmt *sq_prep(mc_store *s, const char *sql);
/* Text bound at i, NULL as SQL NULL. */
void sq_bind_text(sqlite3_stmt *st, int i, const char *v);
/* Step a statement to its end and finalize it: 0 when done. */
int sq_step_done(sqlite3_stmt *st);
/* A column as text (NULL when SQL NULL). */
const char *sq_col_text(sqlite3_stmt *st, int i);
/* The start of a change: the lock taken, the database file checked (not
   removed or replaced), BEGIN IMMEDIATE.  0, or -1 with err filled and the
   lock given back. */
int sq_begin(mc_store *s, mc_error *err, const char *what);
/* The end of a change: COMMIT when ok, else ROLLBACK and the error; the
   lock given back.  0, or -1. */
int sq_finish(mc_store *s, int ok, mc_error *err, const char *what);
/* A game's update within a change (mc_store_update's columns, tb NULL:
   none asked): 1 done, 0 when the store holds that version or a later
   one (or no such game), -1 on error. */
int sq_update_game(mc_store *s, const char *id, const char *record,
                   long long version, int over, long long touched,
                   const mc_store_clock *clock, const mc_store_takeback *tb);
/* A change refused: ROLLBACK, the lock given back, err saying why; code
   returned.  sq_changed: MC_STORE_CHANGED, in words. */
int sq_refuse(mc_store *s, int code, mc_error *err, const char *why);
int sq_changed(mc_store *s, mc_error *err);

/* What a kept result did (the results' columns from i on, as
   mc_store_each reads them): 1, or 0 when there is none. */
int sq_read_change(sqlite3_stmt *st, int i, mc_store_change *ch);

#endif
