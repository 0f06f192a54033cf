/*
 * password_none.c - password.h for the JSON API when it runs in a page
 * (the WebAssembly build, make wasm, over store_none.c): a page keeps no
 * accounts, so every hash fails with that message and no token has a
 * session.  The same interface as password.c, so the API (api*.c) is the
 * server's, unchanged.
 */
#include <string.h>

#include "password.h"
#include "../core/util.h"

int mc_pw_hash(const char *pw, size_t len, char out[MC_PW_HASH_MAX],
               double wait, mc_error *err)
{
    (void)pw;
    (void)len;
    (void)wait;
    out[0] = 0;
    mc_err(err, MC_ERR_IO, "accounts are kept by mancala serve, not here");
    return MC_PW_FAIL;
}

int mc_pw_verify(const char *hash, const char *pw, size_t len, double wait,
                 mc_error *err)
{
    (void)hash;
    (void)pw;
    (void)len;
    (void)wait;
    mc_err(err, MC_ERR_IO, "accounts are kept by mancala serve, not here");
    return MC_PW_FAIL;
}

uint64_t mc_pw_shorthash(const char *s)
{
    uint64_t h = 14695981039346656037u; /* FNV-1a: no account asks */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

void mc_pw_digest(const char *token, char out[65])
{
    (void)token;
    memset(out, '0', 64);
    out[64] = 0;
}

int mc_pw_random(char *out, size_t n)
{
    (void)out;
    (void)n;
    return -1;
}

void mc_pw_stats(int *most, long *count)
{
    *most = 0;
    *count = 0;
}
