/*
 * store_pg_none.c - the PostgreSQL store of a build without libpq-fe.h
 * (Debian: libpq-dev): every call refuses, saying why.
 */
#include <stdio.h>
#include <stdlib.h>

#include "store_pg_int.h"

#ifndef MC_HAVE_LIBPQ
/* ---- built without libpq-fe.h: PostgreSQL refused ----------------------- */

struct mc_pg {
    int unused;
};

mc_pg *mc_pg_open(const char *conninfo, mc_error *err)
{
    (void)conninfo;
    if (err) {
        err->code = MC_ERR_IO;
        snprintf(err->msg, sizeof err->msg,
                 "this mancala was built without PostgreSQL (libpq-fe.h, "
                 "Debian's libpq-dev, was missing): rebuild it with "
                 "libpq-dev installed, or use a SQLite file");
    }
    return NULL;
}

void mc_pg_close(mc_pg *p)
{
    free(p);
}

/* Never called: no store of this build is a PostgreSQL one. */
static int none(mc_error *err)
{
    if (err) {
        err->code = MC_ERR_IO;
        snprintf(err->msg, sizeof err->msg, "no PostgreSQL in this build");
    }
    return -1;
}

int mc_pg_insert(mc_pg *p, const mc_store_game *g, int quota, int most,
                 mc_error *err)
{
    (void)p, (void)g, (void)quota, (void)most;
    return none(err);
}

int mc_pg_update(mc_pg *p, const char *id, const char *record,
                 long long version, int over, long long touched,
                 const mc_store_clock *clock, const mc_store_takeback *tb,
                 mc_error *err)
{
    (void)p, (void)id, (void)record, (void)version, (void)over, (void)touched,
        (void)clock, (void)tb;
    return none(err);
}

int mc_pg_seat(mc_pg *p, const char *id, int side, const char *token,
               long long account, long long version, long long touched,
               mc_error *err)
{
    (void)p, (void)id, (void)side, (void)token, (void)account, (void)version,
        (void)touched;
    return none(err);
}

int mc_pg_delete(mc_pg *p, const char *id, mc_error *err)
{
    (void)p, (void)id;
    return none(err);
}

int mc_pg_each(mc_pg *p, const char *id,
               int (*each)(void *ctx, const mc_store_game *g), void *ctx,
               mc_error *err)
{
    (void)p, (void)id, (void)each, (void)ctx;
    return none(err);
}

int mc_pg_versions(mc_pg *p,
                   int (*each)(void *ctx, const char *id, long long version),
                   void *ctx, mc_error *err)
{
    (void)p, (void)each, (void)ctx;
    return none(err);
}

int mc_pg_listen(mc_pg *p,
                 int (*changed)(void *ctx, const char *id, long long version),
                 void *ctx, mc_error *err)
{
    (void)p, (void)changed, (void)ctx;
    return none(err);
}

int mc_pg_account_add(mc_pg *p, const char *name, const char *hash,
                      long long created, const mc_store_session *first,
                      long long *id, mc_error *err)
{
    (void)p, (void)name, (void)hash, (void)created, (void)first, (void)id;
    return none(err);
}

int mc_pg_account_find(mc_pg *p, const char *name, mc_store_account *a,
                       mc_error *err)
{
    (void)p, (void)name, (void)a;
    return none(err);
}

int mc_pg_account_password(mc_pg *p, long long id, const char *hash,
                           const char *keep, int *ended, mc_error *err)
{
    (void)p, (void)id, (void)hash, (void)keep, (void)ended;
    return none(err);
}

int mc_pg_account_delete(mc_pg *p, long long id, mc_error *err)
{
    (void)p, (void)id;
    return none(err);
}

int mc_pg_session_add(mc_pg *p, long long id, const mc_store_session *ss,
                      int most, long long now, mc_error *err)
{
    (void)p, (void)id, (void)ss, (void)most, (void)now;
    return none(err);
}

int mc_pg_session_find(mc_pg *p, const char *digest, long long now,
                       mc_store_account *a, long long *expires, mc_error *err)
{
    (void)p, (void)digest, (void)now, (void)a, (void)expires;
    return none(err);
}

int mc_pg_session_end(mc_pg *p, const char *digest, int all, int *ended,
                      mc_error *err)
{
    (void)p, (void)digest, (void)all, (void)ended;
    return none(err);
}

int mc_pg_sessions_expire(mc_pg *p, long long now, mc_error *err)
{
    (void)p, (void)now;
    return none(err);
}

int mc_pg_update_rated(mc_pg *p, const char *id, const char *record,
                       long long version, long long touched,
                       const mc_store_clock *clock, const mc_store_rated *rg,
                       mc_store_change *ch, mc_error *err)
{
    (void)p, (void)id, (void)record, (void)version, (void)touched, (void)clock,
        (void)rg, (void)ch;
    return none(err);
}

int mc_pg_standing_of(mc_pg *p, long long id, const char *kind, long long now,
                      mc_store_standing *st, mc_error *err)
{
    (void)p, (void)id, (void)kind, (void)now, (void)st;
    return none(err);
}

int mc_pg_player(mc_pg *p, const char *name, long long now,
                 mc_store_account *acc, mc_store_standing *st, int nst,
                 int *got_st, mc_store_past *past, int npast, int *got_past,
                 mc_error *err)
{
    (void)p, (void)name, (void)now, (void)acc, (void)st, (void)nst, (void)past,
        (void)npast;
    *got_st = *got_past = 0;
    return none(err);
}

int mc_pg_bot(mc_pg *p, int level, mc_store_account *acc, mc_error *err)
{
    (void)p, (void)level, (void)acc;
    return none(err);
}

void mc_pg_set_readonly(mc_pg *p, int on)
{
    (void)p, (void)on;
}

int mc_pg_raw_begin(mc_pg *p, mc_error *err)
{
    (void)p;
    return none(err);
}

int mc_pg_raw_end(mc_pg *p, int ok, mc_error *err)
{
    (void)p, (void)ok;
    return none(err);
}

int mc_pg_raw_exec(mc_pg *p, const char *sql, int n, const char *const *vals,
                   mc_error *err)
{
    (void)p, (void)sql, (void)n, (void)vals;
    return none(err);
}

int mc_pg_raw_rows(mc_pg *p, const char *sql,
                   int (*row)(void *ctx, const char *const *vals), void *ctx,
                   mc_error *err)
{
    (void)p, (void)sql, (void)row, (void)ctx;
    return none(err);
}

#endif /* !MC_HAVE_LIBPQ */
