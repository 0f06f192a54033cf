/*
 * api.h - the JSON API of `mancala serve` over the session layer, apart from
 * any HTTP: a request (method, path, body) in, a reply (status, type, body)
 * out.  Games live in memory and, when a directory is given, in one record
 * file per game (<id>.mcr, written atomically after every change), so a
 * restarted server loses nothing.  Thread-safe: one lock around every call.
 */
#ifndef MC_SERVER_API_H
#define MC_SERVER_API_H

#include <stddef.h>

#include "mancala.h"

typedef struct mc_api mc_api;

/* Requests larger than this are refused (413) by the HTTP layer. */
#define MC_API_MAX_BODY (256 * 1024)
/* At most this many games are kept; the oldest finished ones go first. */
#define MC_API_MAX_GAMES 1024
/* Longest engine move or hint the API grants, in seconds. */
#define MC_API_MAX_SECONDS 30.0

typedef struct mc_api_reply {
    int status;       /* HTTP status */
    const char *type; /* content type */
    char *body;       /* malloc'd; the caller frees it */
    size_t len;
} mc_api_reply;

/* A new API; dir (may be NULL: memory only) is created if missing and the
   games saved there are loaded.  NULL with err filled on failure. */
mc_api *mc_api_new(const char *dir, mc_error *err);
void mc_api_free(mc_api *a);
/* The opening book of the computer players (docs/BOOK.md): on (the
   built-in one, for level 10) or off, and its variety in hundredths of a
   seed (mc_player_opts.book_variety).  Default: on, 20.  Call before
   serving. */
void mc_api_set_book(mc_api *a, int on, int variety);
/* Number of games held. */
int mc_api_count(mc_api *a);
/* Answer one request.  path is the URL path without the query string;
   body may be NULL when len is 0.  Always fills out (never fails). */
void mc_api_handle(mc_api *a, const char *method, const char *path,
                   const char *body, size_t len, mc_api_reply *out);

#endif
