/*
 * store_pg_int.h - what the files of the PostgreSQL store share
 * (store_pg.c, store_pg_account.c, store_pg_name.c, store_pg_none.c):
 * whether libpq-fe.h is there, the connection's state and the helpers
 * that run statements.  Not for other files: they use store_pg.h.
 */
#ifndef MC_SERVER_STORE_PG_INT_H
#define MC_SERVER_STORE_PG_INT_H

#include "store_pg.h"
#include "store_sql.h"

#if defined(__has_include)
#if __has_include(<libpq-fe.h>)
#define MC_HAVE_LIBPQ 1
#endif
#endif

/* Every copy of a secret of db (its password) in msg (of n bytes)
   replaced by "***": libpq's messages about a malformed string quote it
   whole.  store_pg_name.c. */
void pg_scrub(char *msg, size_t n, const char *db);

#ifdef MC_HAVE_LIBPQ

#include <libpq-fe.h>
#include <pthread.h>
#include <stdatomic.h>

struct mc_pg {
    PGconn *conn;
    pthread_mutex_t lock;
    int readonly;  /* the tests' read-only mode, kept across a reset */
    char msg[200]; /* the last error, in words */
    char state[6]; /* its SQLSTATE ("" none) */
    int reading;   /* the operation under way is a read (pg_reading) */
    /* mc_pg_listen: the thread that hears the changes, on a connection
       of its own, until stop */
    char *conninfo;
    pthread_t listener;
    int listening;
    _Atomic int stop;
    int (*changed)(void *ctx, const char *id, long long version);
    void *ctx;
};

/* The parameters of one statement, as text (NULL: SQL NULL). */
typedef struct pg_args {
    int n;
    const char *v[16];
    char num[16][32];
} pg_args;

void pg_a_text(pg_args *a, const char *s);
void pg_a_int(pg_args *a, long long x);
/* Exactly: 17 significant digits read back to the same double. */
void pg_a_real(pg_args *a, double x);

/* Run sql with a's parameters: its result (rows, or a command done), or
   NULL with p->msg. */
PGresult *pg_run(mc_pg *p, const char *sql, const pg_args *a);
/* A statement whose rows are not read: 0 (*changed: the rows it changed,
   when not NULL), or -1. */
int pg_cmd(mc_pg *p, const char *sql, const pg_args *a, long long *changed);
/* A result's rows; a result freed (NULL: nothing). */
int pg_rows(const PGresult *r);
void pg_clear(PGresult *r);
/* A column of a row: NULL when SQL NULL; as a number; a boolean ('t'). */
const char *pg_val(const PGresult *r, int row, int col);
long long pg_v_int(const PGresult *r, int row, int col);
double pg_v_real(const PGresult *r, int row, int col);
int pg_v_bool(const PGresult *r, int row, int col);

/* err filled from p->msg ("the game store: WHAT: ..."): -1. */
int pg_fail(mc_pg *p, mc_error *err, const char *what);
/* The start of a change: the lock taken, the connection made again once
   if it was lost, a transaction begun.  0, or -1 with err filled and the
   lock given back. */
int pg_begin(mc_pg *p, mc_error *err, const char *what);
/* The start of a read outside a transaction: the lock, the connection as
   pg_begin's. */
int pg_reading(mc_pg *p, mc_error *err, const char *what);
/* The end of a change: COMMIT when ok (and the server says it committed),
   else ROLLBACK and the error; the lock given back.  0, or -1. */
int pg_finish(mc_pg *p, int ok, mc_error *err, const char *what);

/* A game's record, version, over flag, time, clocks and takeback asked
   for (tb NULL: none), within a change: 1 done, 0 when the database holds
   that version or a later one (another process wrote it first, its row
   lock making the second wait for the first's commit) or no such game,
   -1 on error (p->msg). */
int pg_update_game(mc_pg *p, const char *id, const char *record,
                   long long version, int over, long long touched,
                   const mc_store_clock *clock, const mc_store_takeback *tb);
/* A change refused because of that: ROLLBACK, the lock given back, err
   in words: MC_STORE_CHANGED. */
int pg_changed(mc_pg *p, mc_error *err);
/* What a kept result did (RESULT_COLS from col on): 1, or 0 when there is
   none (no row joined). */
int pg_read_change(const PGresult *r, int row, int col, mc_store_change *ch);

#endif /* MC_HAVE_LIBPQ */

#endif
