/*
 * api.c - the JSON API of `mancala serve` (docs/API.md) over sessions and
 * records: a request in, its answer out.  This file routes each request
 * to its endpoint by a table of {method, path, handler} (routes[]), counts
 * its work (api_work.c), tells the live event streams that something may
 * have changed, and makes and frees the API.
 * The endpoints and what they share live beside it, one concern a file,
 * around api_int.h (the shared types: a game of the table, struct mc_api).
 * The files are in layers, listed here from the top: each calls only files
 * below it, never one above, so that no two call each other (issue 45):
 *
 *   api.c         the routes; the API made and freed, live events
 *   api_lobby.c   the lobby: seeks posted, listed, withdrawn, taken (a
 *                 taken seek's game made by api_new.c)
 *   api_players.c players (ratings, results, last games) and the games
 *                 played now
 *   api_account.c accounts and their sessions: register, sign in and
 *                 out, password, delete; the session a token names
 *   api_engine.c  the computer players: moves, hints, analysis, review
 *                 (an engine's move is played by api_play.c)
 *   api_play.c    the endpoints that play: moves, undo and takebacks,
 *                 resign, next round (its record made with api_new.c's
 *                 date and time control)
 *   api_new.c     games made (POST /api/new, /api/load, mc_api_import),
 *                 joined (POST join), deleted
 *   api_setup.c   the custom set-up of Omweso (W3)
 *   api_read.c    the endpoints that only read: games, records, positions
 *   ----          what the endpoints share:
 *   api_state.c   a game in JSON: moves, boards, traces, the state (which
 *                 reads the rounds and the seats)
 *   api_table.c   the table of games: ids, references, the store's copy
 *                 (commit, reload), expiry
 *   api_work.c    the bounds of a request's work and of an address's minute
 *   api_rounds.c  a game's rounds: read, added, the match they make,
 *                 whose turn it is in a custom set-up
 *   api_seats.c   secrets, seats and their tokens, the help allowed
 *   ----          the bottom, calling none of the others:
 *   api_lock.c    the locks of the table and of each game, their order
 *   api_reply.c   JSON in and out: request bodies, errors, replies
 *
 * JSON is read and written with Jansson (Debian's libjansson): strict
 * parsing (duplicate keys refused, one value, nothing after it) with line
 * and column in its errors; every body must be an object and unknown keys
 * are refused.  A game is a list of records (the rounds of a match, one
 * record for a single game) and two seats; every change is committed to the
 * store (store.h) before it is answered.  Ids and seat tokens are 128 bits
 * from getrandom(2), accounts' session tokens 256.  A request's token is
 * looked up first (api_session_of): an account's session names the
 * account, whose session then acts for the seats it holds.  Locks: one for the
 * table of games (lookups, counts), one per game (its records and seats, held
 * while a change is committed), one for the computer players, one for the
 * lobby's seeks (api_lobby.c: never held while another is taken); never the
 * table's while a game's is taken. Front-end code: it never knows a rule, it
 * asks the library for moves, names, notation and traces.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api_int.h"

/* ---- routing ------------------------------------------------------------ */

/* Every endpoint of docs/API.md: its method (a GET route answers HEAD
   too), its path, and its handler: run for the requests outside a game,
   run_game for those on one game (/api/game/ID...), which find their
   game first, hold its lock and apply a flag fall that is due. */
typedef struct api_route {
    const char *method;
    const char *path;
    void (*run)(mc_api *a, const api_req *rq, mc_api_reply *out);
    void (*run_game)(mc_api *a, game_entry *e, const api_req *rq,
                     mc_api_reply *out);
} api_route;

#define GAME_PATH "/api/game/"
#define GAME_ID GAME_PATH "ID"

static const api_route routes[] = {
    {"GET", "/api/games", ep_games, NULL},
    {"POST", "/api/seek", ep_seek_new, NULL},
    {"POST", "/api/pair", ep_pair, NULL},
    {"GET", "/api/seeks", ep_seeks, NULL},
    {"GET", "/api/live", ep_live, NULL},
    {"POST", "/api/account", ep_register, NULL},
    {"DELETE", "/api/account", ep_unregister, NULL},
    {"POST", "/api/login", ep_login, NULL},
    {"POST", "/api/logout", ep_logout, NULL},
    {"GET", "/api/me", ep_me, NULL},
    {"POST", "/api/password", ep_password, NULL},
    {"POST", "/api/new", ep_new, NULL},
    {"POST", "/api/load", ep_load, NULL},
    {"POST", "/api/analyze", ep_analyze, NULL},
    {"GET", GAME_ID, NULL, ep_state},
    {"DELETE", GAME_ID, NULL, ep_delete},
    {"GET", GAME_ID "/record", NULL, ep_record},
    {"GET", GAME_ID "/positions", NULL, ep_positions},
    {"GET", GAME_ID "/trace", NULL, ep_last_trace},
    {"POST", GAME_ID "/play", NULL, ep_play},
    {"POST", GAME_ID "/engine", NULL, ep_engine},
    {"POST", GAME_ID "/hint", NULL, ep_hint},
    {"POST", GAME_ID "/undo", NULL, ep_undo},
    {"POST", GAME_ID "/redo", NULL, ep_redo},
    {"POST", GAME_ID "/resign", NULL, ep_resign},
    {"POST", GAME_ID "/next", NULL, ep_next},
    {"POST", GAME_ID "/join", NULL, ep_join},
    {"POST", GAME_ID "/setup", NULL, ep_setup},
    {"POST", GAME_ID "/analysis", NULL, ep_analysis},
    {"POST", GAME_ID "/review", NULL, ep_review},
    {"POST", GAME_ID "/takeback", NULL, ep_takeback},
    {"POST", GAME_ID "/offer", NULL, ep_offer},
};

static int is(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

/* A game route's action: its path after /api/game/ID/ ("" for the game). */
static const char *action(const api_route *r)
{
    assert(r->run_game && strncmp(r->path, GAME_ID, strlen(GAME_ID)) == 0);
    const char *act = r->path + strlen(GAME_ID);
    return act[0] == '/' ? act + 1 : act;
}

/* The route for method on path: a path outside a game, or, with game, the
   action after /api/game/ID/ ("" for the game itself).  NULL when there is
   none, with *known set when a route has that path for another method. */
static const api_route *find_route(int game, const char *path,
                                   const char *method, int *known)
{
    *known = 0;
    for (size_t i = 0; i < sizeof routes / sizeof *routes; i++) {
        const api_route *r = &routes[i];
        if (game ? !r->run_game || !is(action(r), path)
                 : !r->run || !is(r->path, path))
            continue;
        *known = 1;
        if (is(method, r->method) ||
            (is(r->method, "GET") && is(method, "HEAD")))
            return r;
    }
    return NULL;
}

static void not_allowed(const api_req *rq, mc_api_reply *out)
{
    api_reply_error(out, 405, "method", _("%s is not allowed on %.200s"),
                    rq->method, rq->path);
}

/* A request on one game, its lock held: act is the path after
   /api/game/ID/. */
static void route_game(mc_api *a, game_entry *e, const char *act,
                       const api_req *rq, mc_api_reply *out)
{
    assert(api_game_locked(e) && !e->gone && !e->stale);
    int known;
    const api_route *r = find_route(1, act, rq->method, &known);
    if (r)
        r->run_game(a, e, rq, out);
    else if (known)
        not_allowed(rq, out);
    else
        api_reply_error(out, 404, "not_found", _("no such endpoint: %.200s"),
                        rq->path);
}

/* A request on the game of rest (the path after /api/game/): the game
   found and locked, brought back from the store if a change failed, its
   flag fall applied, then its route. */
static void route_to_game(mc_api *a, const char *rest, const api_req *rq,
                          mc_api_reply *out)
{
    char id[ID_LEN + 1];
    const char *slash = strchr(rest, '/');
    size_t idlen = slash ? (size_t)(slash - rest) : strlen(rest);
    if (idlen != ID_LEN) {
        api_reply_error(out, 404, "not_found", _("no such game"));
        return;
    }
    memcpy(id, rest, ID_LEN);
    id[ID_LEN] = 0;
    game_entry *e = api_valid_id(id) ? api_acquire(a, id) : NULL;
    if (!e) {
        api_reply_error(out, 404, "not_found", _("no such game: %s"),
                        api_valid_id(id) ? id : "(malformed id)");
        return;
    }
    api_game_lock(e);
    int gone = e->gone;
    if (gone)
        api_reply_error(out, 404, "not_found", _("no such game: %s"), id);
    else if ((!api_behind(e) || api_reload(a, e, out) == 0) &&
             api_flag_first(a, e, out))
        route_game(a, e, slash ? slash + 1 : "", rq, out);
    gone = !gone && e->gone; /* deleted by this request */
    api_game_unlock(e);
    if (gone)
        api_table_remove(a, e);
    api_release(a, e);
}

static void route(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    int known;
    const api_route *r = find_route(0, rq->path, rq->method, &known);
    if (r)
        r->run(a, rq, out);
    else if (known)
        not_allowed(rq, out);
    else if (strncmp(rq->path, GAME_PATH, strlen(GAME_PATH)) == 0)
        route_to_game(a, rq->path + strlen(GAME_PATH), rq, out);
    else if (strncmp(rq->path, "/api/seek/", 10) == 0)
        ep_seek(a, rq, out); /* /api/seek/ID[/accept] */
    else if (strncmp(rq->path, "/api/player/", 12) == 0 &&
             (is(rq->method, "GET") || is(rq->method, "HEAD")))
        ep_player(a, rq, out);
    else
        api_reply_error(out, 404, "not_found", _("no such endpoint: %.200s"),
                        rq->path);
}

/* ---- live events ------------------------------------------------------- */

int mc_api_version(mc_api *a, const char *id, unsigned long *version)
{
    if (strcmp(id, MC_API_LOBBY) == 0) {
        pthread_mutex_lock(&a->lobby_lock);
        *version = a->lobby_gen;
        pthread_mutex_unlock(&a->lobby_lock);
        return 0;
    }
    if (!api_valid_id(id))
        return -1;
    game_entry *e = api_acquire(a, id);
    if (!e)
        return -1;
    api_game_lock(e);
    int gone = e->gone;
    /* a later version another process committed: the streams send it */
    unsigned long heard = atomic_load(&e->heard);
    *version = heard > e->version ? heard : e->version;
    api_game_unlock(e);
    api_release(a, e);
    return gone ? -1 : 0;
}

int mc_api_wait(mc_api *a, const char *id, unsigned long since, double timeout)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    long long ns = until.tv_nsec + (long long)(timeout * 1e9);
    until.tv_sec += (time_t)(ns / 1000000000);
    until.tv_nsec = (long)(ns % 1000000000);
    pthread_mutex_lock(&a->ev_lock);
    for (;;) {
        if (a->ev_stop) {
            pthread_mutex_unlock(&a->ev_lock);
            return -1;
        }
        unsigned long gen = a->ev_gen;
        pthread_mutex_unlock(&a->ev_lock);
        unsigned long v;
        if (mc_api_version(a, id, &v) != 0 || v != since)
            return 1;
        pthread_mutex_lock(&a->ev_lock);
        while (a->ev_gen == gen && !a->ev_stop)
            if (pthread_cond_timedwait(&a->ev_cond, &a->ev_lock, &until) != 0) {
                pthread_mutex_unlock(&a->ev_lock);
                return 0;
            }
    }
}

void mc_api_events(mc_api *a, int on)
{
    pthread_mutex_lock(&a->ev_lock);
    a->ev_stop = !on;
    pthread_cond_broadcast(&a->ev_cond);
    pthread_mutex_unlock(&a->ev_lock);
}

/* ---- answering --------------------------------------------------------- */

void mc_api_handle(mc_api *a, const mc_api_req *in, mc_api_reply *out)
{
    api_req r = {.method = in->method,
                 .path = in->path,
                 .body = in->body,
                 .len = in->len,
                 .token = in->token,
                 .addr = in->addr,
                 .lang = in->lang};
    const api_req *rq = &r;
    memset(out, 0, sizeof *out);
    /* The answer's words in the player's language; the thread is reused
       for other players' requests: English again before returning. */
    mc_lang_use(in->lang);
    if (rq->len > MC_API_MAX_BODY) {
        api_reply_error(out, 413, "too_large",
                        _("the request body exceeds %d bytes"),
                        MC_API_MAX_BODY);
        mc_lang_use(NULL);
        return;
    }
    if (rq->body && memchr(rq->body, 0, rq->len)) {
        api_reply_error(out, 400, "json",
                        _("the request body contains a NUL byte"));
        mc_lang_use(NULL);
        return;
    }
    double cpu = api_work_begin(a, rq->addr, out);
    if (cpu < 0) {
        mc_lang_use(NULL);
        return;
    }
    if (api_session_of(a, &r, out) == 0) {
        route(a, rq, out);
        /* a player who signs out or deletes the account leaves the lobby:
           their seeks end */
        if (out->status == 200 && r.account > 0 &&
            ((is(rq->method, "POST") && is(rq->path, "/api/logout")) ||
             (is(rq->method, "DELETE") && is(rq->path, "/api/account"))))
            api_lobby_left(a, r.account);
    }
    api_work_end(a, rq->addr, cpu, out);
    if (strcmp(rq->method, "GET") != 0 && strcmp(rq->method, "HEAD") != 0)
        api_ev_broadcast(a); /* something may have changed: the streams look */
    mc_lang_use(NULL);
}

/* ---- the API made and freed -------------------------------------------- */

mc_api *mc_api_new(const mc_api_opts *o, mc_error *err)
{
    mc_error dummy;
    if (!err)
        err = &dummy;
    mc_api *a = calloc(1, sizeof *a);
    if (!a) {
        err->code = MC_ERR_IO;
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    if (o)
        a->o = *o;
    if (a->o.max_games <= 0)
        a->o.max_games = 10000;
    if (a->o.quota <= 0)
        a->o.quota = 200;
    if (a->o.rate <= 0)
        a->o.rate = 30;
    if (a->o.work <= 0)
        a->o.work = MC_API_WORK_SECONDS;
    if (a->o.work_minute <= 0)
        a->o.work_minute = MC_API_WORK_MINUTE;
    if (a->o.keep == 0)
        a->o.keep = 30LL * 86400;
    if (a->o.keep_over == 0)
        a->o.keep_over = 7LL * 86400;
    if (a->o.session_days <= 0)
        a->o.session_days = MC_API_SESSION_DAYS;
    if (a->o.hash_wait <= 0)
        a->o.hash_wait = MC_API_HASH_WAIT;
    if (a->o.hashes_minute <= 0)
        a->o.hashes_minute = MC_API_HASHES_MINUTE;
    if (a->o.bot_wait <= 0)
        a->o.bot_wait = (int)MC_API_POOL_BOT_WAIT;
    pthread_mutex_init(&a->table, NULL);
    pthread_mutex_init(&a->players_lock, NULL);
    pthread_mutex_init(&a->ev_lock, NULL);
    pthread_mutex_init(&a->lobby_lock, NULL);
    pthread_cond_init(&a->player_freed, NULL);
    pthread_cond_init(&a->ev_cond, NULL);
    a->book_variety = 20;
    a->nbucket = 64;
    a->bucket = calloc(a->nbucket, sizeof *a->bucket);
    a->store = a->bucket ? mc_store_open(a->o.db, err) : NULL;
    if (!a->store || api_table_load(a, err) != 0 ||
        api_table_listen(a, err) != 0) {
        mc_api_free(a);
        return NULL;
    }
    a->o.db = NULL; /* not kept: the caller's string */
    mc_api_expire(a, now_s());
    return a;
}

void mc_api_free(mc_api *a)
{
    if (!a)
        return;
    /* first: its thread that hears other processes calls into the table */
    mc_store_close(a->store);
    for (size_t i = 0; a->bucket && i < a->nbucket; i++)
        for (game_entry *x = a->bucket[i], *nx; x; x = nx) {
            nx = x->next;
            api_entry_free(x);
        }
    for (int i = 0; i < API_PLAYERS; i++)
        mc_player_free(a->players[i].pl);
    free(a->bucket);
    pthread_mutex_destroy(&a->table);
    pthread_mutex_destroy(&a->players_lock);
    pthread_mutex_destroy(&a->ev_lock);
    pthread_mutex_destroy(&a->lobby_lock);
    pthread_cond_destroy(&a->player_freed);
    pthread_cond_destroy(&a->ev_cond);
    free(a);
}

void mc_api_set_book(mc_api *a, int on, int variety)
{
    pthread_mutex_lock(&a->players_lock);
    a->book_off = !on;
    a->book_variety = variety;
    pthread_mutex_unlock(&a->players_lock);
}

void mc_api_store_readonly(mc_api *a, int on)
{
    mc_store_set_readonly(a->store, on);
}

void mc_api_set_now(mc_api *a, double now)
{
    atomic_store(&a->fake_now, now);
}
