/*
 * store_none.c - the store of the JSON API when it runs in a page (the
 * WebAssembly build, make wasm): nothing is written anywhere, since the
 * games live in the page's memory and the page keeps their records itself
 * (web/backend.js); every change "commits" at once.  The same interface as
 * store.c (store.h), so the API (api*.c) is the server's, unchanged.
 */
#include <stdlib.h>

#include "../core/util.h"
#include "store.h"

struct mc_store {
    int unused;
};

mc_store *mc_store_open(const char *path, mc_error *err)
{
    if (path) {
        mc_err(err, MC_ERR_IO,
               "this build keeps no database (%s): games "
               "live in memory",
               path);
        return NULL;
    }
    mc_store *s = calloc(1, sizeof *s);
    if (!s)
        mc_err(err, MC_ERR_NOMEM, "out of memory");
    return s;
}

void mc_store_close(mc_store *s)
{
    free(s);
}

int mc_store_insert(mc_store *s, const mc_store_game *g, int quota, int most,
                    mc_error *err)
{
    (void)s;
    (void)g;
    (void)quota;
    (void)most;
    (void)err;
    return 0;
}

int mc_store_update(mc_store *s, const char *id, const char *record,
                    long long version, int over, long long touched,
                    const mc_store_clock *clock, const mc_store_takeback *tb,
                    mc_error *err)
{
    (void)s;
    (void)id;
    (void)record;
    (void)version;
    (void)over;
    (void)touched;
    (void)clock;
    (void)tb;
    (void)err;
    return 0;
}

int mc_store_seat(mc_store *s, const char *id, int side, const char *token,
                  long long account, long long version, long long touched,
                  mc_error *err)
{
    (void)s;
    (void)id;
    (void)side;
    (void)token;
    (void)account;
    (void)version;
    (void)touched;
    (void)err;
    return 0;
}

int mc_store_delete(mc_store *s, const char *id, mc_error *err)
{
    (void)s;
    (void)id;
    (void)err;
    return 0;
}

int mc_store_each(mc_store *s, int (*each)(void *ctx, const mc_store_game *g),
                  void *ctx, mc_error *err)
{
    (void)s;
    (void)each;
    (void)ctx;
    (void)err;
    return 0;
}

int mc_store_one(mc_store *s, const char *id,
                 int (*each)(void *ctx, const mc_store_game *g), void *ctx,
                 mc_error *err)
{
    (void)s;
    (void)id;
    (void)each;
    (void)ctx;
    (void)err;
    return 1; /* nothing kept: a change never fails, so never asked */
}

int mc_store_versions(mc_store *s,
                      int (*each)(void *ctx, const char *id, long long version),
                      void *ctx, mc_error *err)
{
    (void)s;
    (void)each;
    (void)ctx;
    (void)err;
    return 0; /* none kept */
}

int mc_store_listen(mc_store *s,
                    int (*changed)(void *ctx, const char *id,
                                   long long version),
                    void *ctx, mc_error *err)
{
    (void)s;
    (void)changed;
    (void)ctx;
    (void)err;
    return 1; /* the page's alone */
}

/* No accounts here: none is found, none is made (the page never asks:
   web/app.js sends the accounts' requests to the server). */
static int no_accounts(mc_error *err)
{
    return mc_err(err, MC_ERR_IO,
                  "accounts are kept by mancala serve, not here");
}

int mc_store_account_add(mc_store *s, const char *name, const char *hash,
                         long long created, const mc_store_session *first,
                         long long *id, mc_error *err)
{
    (void)s;
    (void)name;
    (void)hash;
    (void)created;
    (void)first;
    (void)id;
    return no_accounts(err);
}

int mc_store_account_find(mc_store *s, const char *name, mc_store_account *a,
                          mc_error *err)
{
    (void)s;
    (void)name;
    (void)a;
    (void)err;
    return 1;
}

int mc_store_account_password(mc_store *s, long long id, const char *hash,
                              const char *keep, int *ended, mc_error *err)
{
    (void)s;
    (void)id;
    (void)hash;
    (void)keep;
    (void)ended;
    (void)err;
    return 1;
}

int mc_store_account_delete(mc_store *s, long long id, mc_error *err)
{
    (void)s;
    (void)id;
    (void)err;
    return 1;
}

int mc_store_session_add(mc_store *s, long long id, const mc_store_session *ss,
                         int most, long long now, mc_error *err)
{
    (void)s;
    (void)id;
    (void)ss;
    (void)most;
    (void)now;
    return no_accounts(err);
}

int mc_store_session_find(mc_store *s, const char *digest, long long now,
                          mc_store_account *a, long long *expires,
                          mc_error *err)
{
    (void)s;
    (void)digest;
    (void)now;
    (void)a;
    (void)expires;
    (void)err;
    return 1;
}

int mc_store_session_end(mc_store *s, const char *digest, int all, int *ended,
                         mc_error *err)
{
    (void)s;
    (void)digest;
    (void)all;
    (void)err;
    if (ended)
        *ended = 0;
    return 0;
}

int mc_store_sessions_expire(mc_store *s, long long now, mc_error *err)
{
    (void)s;
    (void)now;
    (void)err;
    return 0;
}

/* No accounts here, so no rated game and no player. */
int mc_store_update_rated(mc_store *s, const char *id, const char *record,
                          long long version, long long touched,
                          const mc_store_clock *clock, const mc_store_rated *rg,
                          mc_store_change *ch, mc_error *err)
{
    (void)s;
    (void)id;
    (void)record;
    (void)version;
    (void)touched;
    (void)clock;
    (void)rg;
    (void)ch;
    return no_accounts(err);
}

int mc_store_standing_of(mc_store *s, long long id, const char *kind,
                         long long now, mc_store_standing *st, mc_error *err)
{
    (void)s;
    (void)id;
    (void)kind;
    (void)now;
    (void)st;
    return no_accounts(err);
}

int mc_store_player(mc_store *s, const char *name, long long now,
                    mc_store_account *acc, mc_store_standing *st, int nst,
                    int *got_st, mc_store_past *past, int npast, int *got_past,
                    mc_error *err)
{
    (void)s;
    (void)name;
    (void)now;
    (void)acc;
    (void)st;
    (void)nst;
    (void)past;
    (void)npast;
    (void)err;
    *got_st = *got_past = 0;
    return 1;
}

int mc_store_bot(mc_store *s, int level, mc_store_account *acc, mc_error *err)
{
    (void)s;
    (void)level;
    (void)acc;
    return no_accounts(err);
}

void mc_store_set_readonly(mc_store *s, int on)
{
    (void)s;
    (void)on;
}
