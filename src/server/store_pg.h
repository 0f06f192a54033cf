/*
 * store_pg.h - the PostgreSQL store of `mancala serve` (store_pg.c): the
 * operations of store.h against a PostgreSQL database, which store.c hands
 * over to when --db is a PostgreSQL connection string.  libpq is loaded at
 * run time (dlopen of libpq.so.5, Debian's libpq5) only then: no
 * PostgreSQL library is needed to run mancala otherwise.  docs/SERVER.md,
 * "PostgreSQL".
 */
#ifndef MC_SERVER_STORE_PG_H
#define MC_SERVER_STORE_PG_H

#include <stddef.h>

#include "store.h"

typedef struct mc_pg mc_pg;

/* Is db a PostgreSQL connection string: a URI (postgresql://...,
   postgres://...) or "pg:" before libpq's keywords ("pg:host=/run/x
   dbname=mancala")? */
int mc_pg_is_conninfo(const char *db);
/* db as it may be shown (printed, logged): a connection string's password
   replaced by "***"; any other name as it is.  buf of n bytes. */
const char *mc_pg_shown(const char *db, char *buf, size_t n);

/* Connect (libpq loaded the first time), bring the tables to this
   program's schema (made when missing; a newer one refused).  NULL with
   err filled on failure. */
mc_pg *mc_pg_open(const char *conninfo, mc_error *err);
void mc_pg_close(mc_pg *p);

/* The operations of store.h, the same contracts. */
int mc_pg_insert(mc_pg *p, const mc_store_game *g, int quota, int most,
                 mc_error *err);
int mc_pg_update(mc_pg *p, const char *id, const char *record,
                 long long version, int over, long long touched,
                 const mc_store_clock *clock, const mc_store_takeback *tb,
                 mc_error *err);
int mc_pg_seat(mc_pg *p, const char *id, int side, const char *token,
               long long account, long long version, long long touched,
               mc_error *err);
int mc_pg_delete(mc_pg *p, const char *id, mc_error *err);
/* mc_store_each (id NULL) or mc_store_one (id). */
int mc_pg_each(mc_pg *p, const char *id,
               int (*each)(void *ctx, const mc_store_game *g), void *ctx,
               mc_error *err);
/* mc_store_versions. */
int mc_pg_versions(mc_pg *p,
                   int (*each)(void *ctx, const char *id, long long version),
                   void *ctx, mc_error *err);
/* mc_store_listen: a thread of its own, on a connection of its own
   (LISTEN on the channel of step_4_5's trigger), made again when lost. */
int mc_pg_listen(mc_pg *p,
                 int (*changed)(void *ctx, const char *id, long long version),
                 void *ctx, mc_error *err);
int mc_pg_account_add(mc_pg *p, const char *name, const char *hash,
                      long long created, const mc_store_session *first,
                      long long *id, mc_error *err);
int mc_pg_account_find(mc_pg *p, const char *name, mc_store_account *a,
                       mc_error *err);
int mc_pg_account_password(mc_pg *p, long long id, const char *hash,
                           const char *keep, int *ended, mc_error *err);
int mc_pg_account_delete(mc_pg *p, long long id, mc_error *err);
int mc_pg_session_add(mc_pg *p, long long id, const mc_store_session *ss,
                      int most, long long now, mc_error *err);
int mc_pg_session_find(mc_pg *p, const char *digest, long long now,
                       mc_store_account *a, long long *expires, mc_error *err);
int mc_pg_session_end(mc_pg *p, const char *digest, int all, int *ended,
                      mc_error *err);
int mc_pg_sessions_expire(mc_pg *p, long long now, mc_error *err);
int mc_pg_update_rated(mc_pg *p, const char *id, const char *record,
                       long long version, long long touched,
                       const mc_store_clock *clock, const mc_store_rated *rg,
                       mc_store_change *ch, mc_error *err);
int mc_pg_standing_of(mc_pg *p, long long id, const char *kind, long long now,
                      mc_store_standing *st, mc_error *err);
int mc_pg_player(mc_pg *p, const char *name, long long now,
                 mc_store_account *acc, mc_store_standing *st, int nst,
                 int *got_st, mc_store_past *past, int npast, int *got_past,
                 mc_error *err);
int mc_pg_bot(mc_pg *p, int level, mc_store_account *acc, mc_error *err);
/* Tests: every transaction read-only from now on
   (default_transaction_read_only), a real PostgreSQL error for writes. */
void mc_pg_set_readonly(mc_pg *p, int on);

/* ---- rows as text, for the copy between stores (store_copy.c) ----
   mc_pg_raw_begin takes the store's lock and begins a transaction
   (repeatable read: one snapshot for a copy's reads); mc_pg_raw_end
   commits it when ok, else rolls it back, and gives the lock back.
   Between them, mc_pg_raw_exec runs sql (fixed text) with n parameters
   (NULL: SQL NULL) and mc_pg_raw_rows calls row(ctx, vals) for each row
   of sql, its columns as text (NULL: SQL NULL), until row returns
   non-zero.  Each returns 0, or -1 with err filled. */
int mc_pg_raw_begin(mc_pg *p, mc_error *err);
int mc_pg_raw_end(mc_pg *p, int ok, mc_error *err);
int mc_pg_raw_exec(mc_pg *p, const char *sql, int n, const char *const *vals,
                   mc_error *err);
int mc_pg_raw_rows(mc_pg *p, const char *sql,
                   int (*row)(void *ctx, const char *const *vals), void *ctx,
                   mc_error *err);

#endif
