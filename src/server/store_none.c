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

int mc_store_insert(mc_store *s, const mc_store_game *g, mc_error *err)
{
    (void)s;
    (void)g;
    (void)err;
    return 0;
}

int mc_store_update(mc_store *s, const char *id, const char *record,
                    long long version, int over, long long touched,
                    const mc_store_clock *clock, mc_error *err)
{
    (void)s;
    (void)id;
    (void)record;
    (void)version;
    (void)over;
    (void)touched;
    (void)clock;
    (void)err;
    return 0;
}

int mc_store_seat(mc_store *s, const char *id, int side, const char *token,
                  long long touched, mc_error *err)
{
    (void)s;
    (void)id;
    (void)side;
    (void)token;
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

int mc_store_get(mc_store *s, const char *id, char **record, long long *version,
                 mc_store_clock *clock, mc_error *err)
{
    (void)s;
    (void)id;
    (void)record;
    (void)version;
    (void)clock;
    (void)err;
    return 1; /* nothing kept: a change never fails, so never asked */
}

void mc_store_set_readonly(mc_store *s, int on)
{
    (void)s;
    (void)on;
}
