/*
 * api.h - the JSON API of `mancala serve` over the session layer, apart from
 * any HTTP: a request (method, path, body, seat token, client address) in, a
 * reply (status, type, body) out.  Games live in memory and in a SQLite
 * store (store.h): every change is committed before it is answered, so a
 * restarted or killed server loses nothing it acknowledged.  A game has two
 * seats; acting for a seat needs its secret token (docs/SERVER.md).
 * Thread-safe with a lock per game: requests on different games never wait
 * for each other.
 */
#ifndef MC_SERVER_API_H
#define MC_SERVER_API_H

#include <stddef.h>
#include <stdio.h>

#include "mancala.h"

typedef struct mc_api mc_api;

/* Requests larger than this are refused (413) by the HTTP layer. */
#define MC_API_MAX_BODY (256 * 1024)
/* A game is one match: at most this many rounds (records); a record file
   with more games is refused after reading that many, so the work and the
   memory of a load stay bounded whatever its size. */
#define MC_API_MAX_ROUNDS 200
/* Longest engine move the API grants, in seconds; and the engine's help
   (an analysis, a hint): longer asks are cut to it. */
#define MC_API_MAX_SECONDS 30.0
#define MC_API_MAX_HELP_SECONDS 10.0
/* The rules' work for a request (an Omweso relay chain can run for hundreds
   of millions of laps before it repeats): a request whose rule work (its
   searches apart, which their own seconds bound) takes longer than this is
   answered 503 costly and changes nothing; an address whose requests took
   more CPU than MC_API_WORK_MINUTE in the current minute is answered 429
   rate until the next. */
#define MC_API_WORK_SECONDS 2.0
#define MC_API_WORK_MINUTE 20.0
/* Ids and tokens: 128 random bits from getrandom(2), in hex. */
#define MC_API_ID_LEN 32

/* Accounts (docs/API.md, "Accounts"): optional; a game needs none.  A name
   is 2 to 20 letters, digits, '_' and '-', unique ignoring case; a
   password 8 to 200 bytes, kept only as its argon2id hash (libsodium's
   crypto_pwhash at its INTERACTIVE limits).  Signing in gives a session
   token of 256 random bits (64 hex digits), kept only as its digest; a
   session lasts session_days (default 30) from the sign-in, an account
   holds at most MC_API_SESSIONS of them (a new one ends the oldest). */
#define MC_API_NAME_MIN 2
#define MC_API_NAME_MAX 20
#define MC_API_PASSWORD_MIN 8
#define MC_API_PASSWORD_MAX 200
#define MC_API_SESSION_LEN 64
#define MC_API_TOKEN_DIGEST 64 /* hex digits of a session token's digest */
#define MC_API_SESSION_DAYS 30
#define MC_API_SESSIONS 20
/* What a password hash may cost (each takes 64 MiB and about 0.1 s of a
   core): at most MC_API_HASHES_AT_ONCE run at once in the process, a
   request waits hash_wait seconds (default MC_API_HASH_WAIT) for its turn
   before 503 busy; an address begins at most hashes_minute (default
   MC_API_HASHES_MINUTE) a minute (429 rate) and their CPU counts in its minute
   (work_minute). Failed tries: MC_API_FAILS_ADDR a minute per address (429
   tries); per account name, known or not, the MC_API_FAILS_NAME-th failure
   since the name's last quiet MC_API_FAILS_QUIET seconds makes it wait 60 s
   before the next try, each further one twice as long, up to MC_API_FAILS_QUIET
   (429 tries; a sign-in that succeeds clears it).  An address makes at most
   MC_API_ACCOUNTS_MINUTE accounts a minute (429 rate). */
#define MC_API_HASHES_AT_ONCE 2
#define MC_API_HASH_WAIT 2.0
#define MC_API_HASHES_MINUTE 30
#define MC_API_FAILS_ADDR 10
#define MC_API_FAILS_NAME 5
#define MC_API_FAILS_QUIET (15 * 60)
#define MC_API_ACCOUNTS_MINUTE 3

/* The lobby (docs/API.md, "The lobby"): open challenges (seeks), kept in
   memory; at most MC_API_MAX_SEEKS in all (taken and withdrawn ones for a
   while too), MC_API_SEEKS_ADDR open ones per address, one per kind of game
   per player, MC_API_SEEKS_MINUTE posted per address a minute.  A seek
   whose creator has not looked at it (GET /api/seek/ID, GET /api/seeks
   with its token) for MC_API_SEEK_IDLE seconds ends; a seek taken,
   withdrawn or ended is told as such for MC_API_SEEK_KEEP seconds more. */
#define MC_API_SEEK_IDLE 30.0
/* Quick pairing (POST /api/pair): a player waiting this long in a pool is
   offered the house bot. */
#define MC_API_POOL_BOT_WAIT 20.0
#define MC_API_SEEK_KEEP 120.0
#define MC_API_MAX_SEEKS 512
#define MC_API_SEEKS_ADDR 4
#define MC_API_SEEKS_MINUTE 20

typedef struct mc_api_opts {
    const char *db;      /* the SQLite file; NULL: in memory only */
    int max_games;       /* games held at most (0: 10000) */
    int quota;           /* games held per creating address (0: 200) */
    int rate;            /* games an address may create a minute (0: 30) */
    long long keep;      /* seconds an untouched game is kept (0: 30 days;
                            -1: for ever) */
    long long keep_over; /* ... a finished one (0: 7 days; -1: for ever) */
    double work;         /* seconds of rule work a request may take beyond
                            its search (0: MC_API_WORK_SECONDS) */
    double work_minute;  /* ... an address a minute, in CPU seconds (0:
                            MC_API_WORK_MINUTE) */
    int session_days;    /* days a session lasts (0: MC_API_SESSION_DAYS) */
    double hash_wait;    /* seconds a request waits for its password hash's
                            turn (0: MC_API_HASH_WAIT) */
    int hashes_minute;   /* password hashes an address may begin a minute
                            (0: MC_API_HASHES_MINUTE) */
    int bot_wait;        /* seconds alone in a quick-pairing pool before
                            the house bot is offered (0:
                            MC_API_POOL_BOT_WAIT) */
} mc_api_opts;

typedef struct mc_api_req {
    const char *method;
    const char *path; /* the URL path without the query string */
    const char *body; /* may be NULL when len is 0 */
    size_t len;
    const char *token; /* the token sent (Authorization: Bearer): a seat's,
                          or an account's session token; or NULL */
    const char *addr;  /* the client's address (quotas), or NULL */
    const char *lang;  /* the player's language: the lang query parameter
                          (?lang=fr), else the Accept-Language header;
                          NULL for English.  Only the words of the answer
                          (messages, explanations) change with it, never
                          a JSON key or an error code. */
} mc_api_req;

typedef struct mc_api_reply {
    int status;       /* HTTP status */
    const char *type; /* content type */
    char *body;       /* malloc'd; the caller frees it */
    size_t len;
} mc_api_reply;

/* A new API over the store o->db (created if missing; its games are
   loaded).  o may be NULL (defaults, memory only).  NULL with err filled on
   failure. */
mc_api *mc_api_new(const mc_api_opts *o, mc_error *err);
void mc_api_free(mc_api *a);
/* The opening book of the computer players (docs/BOOK.md): on (the
   built-in one, for level 10) or off, and its variety in hundredths of a
   seed (mc_player_opts.book_variety).  Default: on, 20. */
void mc_api_set_book(mc_api *a, int on, int variety);
/* Number of games held. */
int mc_api_count(mc_api *a);
/* Answer one request.  Always fills out (never fails).  The calling
   thread speaks rq->lang while it answers (mc_lang_use), and English
   again when it returns. */
void mc_api_handle(mc_api *a, const mc_api_req *rq, mc_api_reply *out);
/* The server is going down: every running search ends now with what it
   has (its request is answered), and no new one starts (503 busy). */
void mc_api_stop_searches(mc_api *a);
/* The computer players thinking now. */
int mc_api_searching(mc_api *a);
/* Live events (GET /api/game/ID/events, served by server.c): the game's
   version now; 0, or -1 when there is no such game.  The id MC_API_LOBBY
   names the lobby (GET /api/seeks/events): its version changes with every
   seek posted, taken, withdrawn or ended. */
#define MC_API_LOBBY "lobby"
int mc_api_version(mc_api *a, const char *id, unsigned long *version);
/* Wait until game id's version is no longer `since` (or it is gone), at
   most timeout seconds: 1 it changed, 0 the time ran out, -1 the events
   are stopped (the server is going down). */
int mc_api_wait(mc_api *a, const char *id, unsigned long since, double timeout);
/* Events off (before the server stops: every waiter wakes and its stream
   ends) or on again (a server started on this API). */
void mc_api_events(mc_api *a, int on);
/* Remove the games expired at time now (seconds since 1970): finished ones
   untouched for keep_over seconds, others for keep.  Returns how many.
   Also run by game creations, at most once a minute. */
int mc_api_expire(mc_api *a, long long now);
/* Import every <name>.mcr record file of dir as a new game (new id; the
   creator's token, for both seats, is reported).  One line a file on
   report: "<file> <id> <token>" or "<file> skipped: <why>".  Returns the
   number imported, or -1 with err filled when dir cannot be read. */
int mc_api_import(mc_api *a, const char *dir, FILE *report, mc_error *err);
/* The operator's commands on accounts (mancala serve --reset-password,
   --delete-account): a new password for the account name (every session
   of it ends), or the account deleted (its sessions end, its name is free
   again, its games stay, their seat shown as "deleted player").  0, or -1
   with err filled (no such account, a bad password, the store). */
int mc_api_reset_password(mc_api *a, const char *name, const char *password,
                          mc_error *err);
int mc_api_delete_account(mc_api *a, const char *name, mc_error *err);
/* Tests: the clocks' time (seconds since 1970) from now on instead of the
   real one, so that a test needs no sleep; 0: the real time again. */
void mc_api_set_now(mc_api *a, double now);
/* Tests: make the store refuse every write (1) or accept them again (0). */
void mc_api_store_readonly(mc_api *a, int on);

#endif
