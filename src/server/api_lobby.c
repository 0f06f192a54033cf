/*
 * api_lobby.c - the lobby (docs/API.md, "The lobby"): open challenges,
 * called seeks.  POST /api/seek posts one (a game, a time control, rated
 * or not, the creator's side), GET /api/seeks lists the open ones, GET
 * /api/seek/ID shows one (to its creator, once taken, the game and the
 * creator's seat token), DELETE /api/seek/ID withdraws it, POST
 * /api/seek/ID/accept takes it: the game starts with both seats held
 * (api_new_seated), committed like every game.
 *
 * Seeks live in memory only, in a fixed table (MC_API_MAX_SEEKS): they
 * are ephemeral by the lobby's own rule, "a player's seeks end when they
 * leave", which the server knows only by the creator no longer looking
 * (GET /api/seek/ID or GET /api/seeks with the creator's token) for
 * SEEK_IDLE seconds; a restart forgets them the same way.  What a taken
 * seek made, the game, is stored as every game is.
 *
 * Who a seek's creator is: the account of its session when it was posted
 * with one (a rated seek needs one), else whoever holds the seek's own
 * token (128 bits from getrandom, answered once at its creation).  Limits:
 * MC_API_SEEKS_MINUTE posted per address a minute, MC_API_SEEKS_ADDR open
 * per address, one open seek per kind of game per player (an account; an
 * address for seeks without one), MC_API_MAX_SEEKS in all.  The lobby's
 * lock is never held while any other is taken.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_int.h"

#define SEEK_PATH "/api/seek/"

static const char *const status_name[] = {"free",  "open",      "open",
                                          "taken", "withdrawn", "ended"};

/* Does the request hold seek k: its token, or the session of the account
   that posted it? */
static int holds_seek(const api_seek *k, const api_req *rq)
{
    int same = rq->token && strlen(rq->token) == ID_LEN;
    unsigned d = 0;
    for (int i = 0; same && i < ID_LEN; i++)
        d |= (unsigned char)(k->secret[i] ^ rq->token[i]);
    return (same && d == 0) || (rq->account > 0 && rq->account == k->account);
}

/* The seeks whose creator stopped looking end; those ended long enough
   ago free their slot (lobby lock held). */
static void sweep(mc_api *a, double now)
{
    for (int i = 0; i < MC_API_MAX_SEEKS; i++) {
        api_seek *k = &a->seeks[i];
        if (k->status == SEEK_OPEN && now - k->seen > SEEK_IDLE) {
            k->status = SEEK_ENDED;
            k->ended = now;
        }
        if ((k->status == SEEK_TAKEN || k->status == SEEK_WITHDRAWN ||
             k->status == SEEK_ENDED) &&
            now - k->ended > SEEK_KEEP)
            memset(k, 0, sizeof *k);
    }
}

static api_seek *find_seek(mc_api *a, const char *id)
{
    for (int i = 0; i < MC_API_MAX_SEEKS; i++)
        if (a->seeks[i].status != SEEK_FREE && !strcmp(a->seeks[i].id, id))
            return &a->seeks[i];
    return NULL;
}

/* A seek as anyone sees it (never its token, nor its game's). */
static json_t *seek_json(const api_seek *k, const api_req *rq, double now)
{
    json_t *j = json_pack(
        "{s:s,s:s,s:s,s:s,s:s,s:s,s:b,s:s,s:o,s:o,s:i,s:b}", "id", k->id,
        "status", status_name[k->status], "game", k->spec, "kind", k->kind,
        "title", k->title, "time", k->time, "rated", k->rated, "side",
        k->side < 0 ? "random"
        : k->side   ? "N"
                    : "S",
        "player", k->account > 0 ? json_string(k->name) : json_null(), "rating",
        k->account > 0 ? json_pack("{s:i,s:b}", "shown", k->shown,
                                   "provisional", k->provisional)
                       : json_null(),
        "age", (int)(now - k->created), "mine", holds_seek(k, rq));
    if (k->status == SEEK_TAKEN)
        json_object_set_new(j, "game_id", json_string(k->game));
    return j;
}

static int rate_seek(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    if (!rq->addr)
        return 0;
    api_table_lock(a);
    rate_slot *rs = api_rate_of(a, rq->addr);
    int ok = rs && rs->seeks < MC_API_SEEKS_MINUTE;
    if (ok)
        rs->seeks++;
    api_table_unlock(a);
    if (!ok)
        api_reply_error(out, 429, "rate",
                        "your address posted %d seeks this minute: wait a "
                        "little",
                        MC_API_SEEKS_MINUTE);
    return ok ? 0 : -1;
}

/* POST /api/seek {"game", "time", "rated", "side"?}: a new seek. */
void ep_seek_new(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"game", "time", "rated", "side", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    const char *spec, *time_text, *side_text;
    json_t *rj = json_object_get(j, "rated");
    if (api_opt_str(j, "game", &spec, MC_SPEC_STRLEN, out) ||
        api_opt_str(j, "time", &time_text, 100, out) ||
        api_opt_str(j, "side", &side_text, 16, out)) {
        json_decref(j);
        return;
    }
    api_seek k;
    memset(&k, 0, sizeof k);
    k.rated = json_is_true(rj);
    k.side = !side_text || !strcmp(side_text, "random") ? -1
             : !strcmp(side_text, "S")                  ? 0
             : !strcmp(side_text, "N")                  ? 1
                                                        : -2;
    mc_error err;
    mc_game *g = NULL;
    mc_time_control tc;
    if (rj && !json_is_boolean(rj)) {
        api_reply_error(out, 400, "json", "'rated' must be true or false");
    } else if (k.side == -2) {
        api_reply_error(out, 400, "json",
                        "'side' must be \"S\", \"N\" or \"random\"");
    } else if (!spec) {
        api_reply_error(out, 400, "json",
                        "'game' is required (e.g. \"oware\")");
    } else if (k.rated && rq->account <= 0) {
        api_reply_error(out, 401, "session",
                        "a rated seek needs an account's session token "
                        "(sign in first)");
    } else if (!(g = mc_game_new(spec, &err))) {
        api_reply_error(out, 422, api_err_code(err.code), "%s", err.msg);
    } else if (k.rated && mc_game_is_match(g)) {
        api_reply_error(out, 422, "rated",
                        "a rated game is one game, not a match (for "
                        "Omweso: \"omweso:match=single\")");
    } else if (mc_time_parse(g, time_text ? time_text : "none", &tc, &err) !=
               0) {
        api_reply_error(out, 422, "time", "%s", err.msg);
    } else if (k.rated && tc.kind == MC_TIME_NONE) {
        api_reply_error(out, 422, "time",
                        "a rated game needs a time control (e.g. "
                        "\"game:300+2\"), so that the clock decides a game "
                        "a player leaves");
    } else {
        snprintf(k.spec, sizeof k.spec, "%s", mc_game_spec(g));
        snprintf(k.kind, sizeof k.kind, "%s", mc_game_name(g));
        snprintf(k.title, sizeof k.title, "%s", mc_game_title(g));
        mc_time_format(&tc, k.time, sizeof k.time);
    }
    mc_game_free(g);
    json_decref(j);
    if (!k.kind[0])
        return;
    if (rq->account > 0) {
        mc_store_standing st;
        if (mc_store_standing_of(a->store, rq->account, k.kind,
                                 (long long)clock_now(a), &st, &err) != 0) {
            api_reply_error(out, 503, "io", "the ratings cannot be read (%s)",
                            err.msg);
            return;
        }
        k.account = rq->account;
        snprintf(k.name, sizeof k.name, "%s", rq->name);
        k.shown = st.shown;
        k.provisional = st.provisional;
    }
    snprintf(k.addr, sizeof k.addr, "%s", rq->addr ? rq->addr : "");
    if (api_random_hex(k.id) != 0 || api_random_hex(k.secret) != 0) {
        api_reply_error(out, 503, "io", "no random numbers from the system");
        return;
    }
    if (rate_seek(a, rq, out) != 0)
        return;
    double now = clock_now(a);
    k.status = SEEK_OPEN;
    k.created = k.seen = now;
    pthread_mutex_lock(&a->lobby_lock);
    sweep(a, now);
    int mine = 0, same = 0;
    api_seek *slot = NULL;
    for (int i = 0; i < MC_API_MAX_SEEKS; i++) {
        api_seek *x = &a->seeks[i];
        if (x->status == SEEK_FREE && !slot)
            slot = x;
        if (x->status != SEEK_OPEN && x->status != SEEK_TAKING)
            continue;
        mine += !strcmp(x->addr, k.addr);
        same += !strcmp(x->kind, k.kind) &&
                (k.account > 0 ? x->account == k.account
                               : !x->account && !strcmp(x->addr, k.addr));
    }
    if (same)
        api_reply_error(out, 409, "one_seek",
                        "you have a seek for %s open already: one per game "
                        "at a time (withdraw it first)",
                        k.kind);
    else if (rq->addr && mine >= MC_API_SEEKS_ADDR)
        api_reply_error(out, 429, "quota",
                        "your address has %d seeks open already",
                        MC_API_SEEKS_ADDR);
    else if (!slot)
        api_reply_error(out, 503, "full",
                        "the lobby holds %d seeks already: try again soon",
                        MC_API_MAX_SEEKS);
    else {
        *slot = k;
        api_reply_json(out, 201,
                       json_pack("{s:o,s:s}", "seek", seek_json(slot, rq, now),
                                 "token", k.secret));
    }
    pthread_mutex_unlock(&a->lobby_lock);
}

/* GET /api/seeks: the open seeks, the oldest first; the caller's own are
   marked (and seen: their creator is here). */
void ep_seeks(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    double now = clock_now(a);
    json_t *list = json_array();
    pthread_mutex_lock(&a->lobby_lock);
    sweep(a, now);
    const api_seek *order[MC_API_MAX_SEEKS];
    int n = 0;
    for (int i = 0; i < MC_API_MAX_SEEKS; i++) {
        api_seek *k = &a->seeks[i];
        if (k->status != SEEK_OPEN)
            continue;
        if (holds_seek(k, rq))
            k->seen = now;
        int at = n++;
        while (at > 0 && order[at - 1]->created > k->created) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = k;
    }
    for (int i = 0; i < n; i++)
        json_array_append_new(list, seek_json(order[i], rq, now));
    pthread_mutex_unlock(&a->lobby_lock);
    api_reply_json(out, 200, json_pack("{s:o}", "seeks", list));
}

/* The record of a seek's game (its spec and time checked when posted):
   start, date, clock, the players' names, the Rated tag.  NULL after
   replying. */
static mc_record *seek_record(mc_api *a, const api_seek *k,
                              const char names[2][NAME_MAX_LEN + 1],
                              const long long acct[2], mc_api_reply *out)
{
    mc_error err;
    mc_game *g = mc_game_new(k->spec, &err);
    mc_time_control tc;
    if (!g || mc_time_parse(g, k->time, &tc, &err) != 0) {
        mc_game_free(g);
        api_reply_error(out, 500, "memory", "the seek's game: %s", err.msg);
        return NULL;
    }
    mc_pos start;
    mc_match m;
    mc_match_init(g, &m);
    if (m.by_lot)
        m.next_first = (int)(api_random_u64() & 1); /* W2: by lot */
    mc_match_start(g, &m, &start);
    mc_record *r = mc_record_new(mc_game_spec(g), &start, &err);
    int match = mc_game_is_match(g);
    mc_game_free(g);
    if (!r) {
        api_reply_error(out, 500, "memory", "%s", err.msg);
        return NULL;
    }
    api_set_date(r);
    api_set_time(a, r, &tc);
    for (int s = 0; s < 2; s++)
        if (acct[s] > 0)
            mc_record_set_tag(r, s ? "North" : "South", names[s], NULL);
    mc_record_set_tag(r, "Rated", k->rated ? "yes" : "no", NULL);
    if (match)
        mc_record_set_tag(r, "Round", "1", NULL);
    return r;
}

/* POST /api/seek/ID/accept: the seek taken, its game made. */
static void accept_seek(mc_api *a, const char *id, const api_req *rq,
                        mc_api_reply *out)
{
    json_t *j =
        api_parse_body(rq->body, rq->len, (const char *const[]){NULL}, out);
    if (!j)
        return;
    json_decref(j);
    double now = clock_now(a);
    pthread_mutex_lock(&a->lobby_lock);
    sweep(a, now);
    api_seek *k = find_seek(a, id), copy;
    if (!k)
        api_reply_error(out, 404, "not_found", "no such seek (it ended)");
    else if (k->status == SEEK_TAKEN || k->status == SEEK_TAKING)
        api_reply_error(out, 409, "taken", "this seek was taken already");
    else if (k->status != SEEK_OPEN)
        api_reply_error(out, 409, "gone", "this seek was %s",
                        status_name[k->status]);
    else if (holds_seek(k, rq))
        api_reply_error(out, 403, "own",
                        "this is your own seek: another player takes it");
    else if (k->rated && rq->account <= 0)
        api_reply_error(out, 401, "session",
                        "a rated seek is taken with an account's session "
                        "token (sign in first)");
    else {
        k->status = SEEK_TAKING; /* nobody else takes it meanwhile */
        copy = *k;
    }
    int taking = k && k->status == SEEK_TAKING && !out->body;
    pthread_mutex_unlock(&a->lobby_lock);
    if (!taking)
        return;
    /* the creator's side: chosen, or by lot */
    int cs = copy.side >= 0 ? copy.side : (int)(api_random_u64() & 1);
    long long acct[2];
    char names[2][NAME_MAX_LEN + 1], tok[2][ID_LEN + 1], game[ID_LEN + 1];
    acct[cs] = copy.account;
    acct[!cs] = rq->account;
    snprintf(names[cs], sizeof names[cs], "%s", copy.name);
    snprintf(names[!cs], sizeof names[!cs], "%s", rq->name);
    mc_record *r = NULL;
    int ok = api_random_hex(tok[0]) == 0 && api_random_hex(tok[1]) == 0;
    if (!ok)
        api_reply_error(out, 503, "io", "no random numbers from the system");
    else if (!(r = seek_record(a, &copy, names, acct, out)))
        ok = 0;
    else
        ok = api_new_seated(a, r, rq->addr, acct, names, copy.rated, tok,
                            json_pack("{s:s,s:s,s:s}", "token", tok[!cs],
                                      "side", cs ? "S" : "N", "seek", copy.id),
                            game, out) == 0;
    pthread_mutex_lock(&a->lobby_lock);
    if ((k = find_seek(a, id)) && k->status == SEEK_TAKING) {
        if (ok) {
            k->status = SEEK_TAKEN;
            memcpy(k->game, game, sizeof k->game);
            k->game_side = cs;
            memcpy(k->game_token, tok[cs], sizeof k->game_token);
            k->ended = clock_now(a);
        } else {
            k->status = SEEK_OPEN; /* open again */
        }
    }
    pthread_mutex_unlock(&a->lobby_lock);
}

/* GET /api/seek/ID: the seek; its creator (whose look keeps it open)
   learns, once it is taken, its game, seat and seat token.  DELETE: its
   creator withdraws it. */
static void one_seek(mc_api *a, const char *id, const api_req *rq, int del,
                     mc_api_reply *out)
{
    double now = clock_now(a);
    pthread_mutex_lock(&a->lobby_lock);
    sweep(a, now);
    api_seek *k = find_seek(a, id);
    int mine = k && holds_seek(k, rq);
    if (!k) {
        api_reply_error(out, 404, "not_found", "no such seek (it ended)");
    } else if (del) {
        if (!mine)
            api_reply_error(out, 403, "seat",
                            "only the seek's creator withdraws it (with its "
                            "token or session)");
        else if (k->status == SEEK_OPEN) {
            k->status = SEEK_WITHDRAWN;
            k->ended = now;
            api_reply_json(out, 200, json_pack("{s:s}", "withdrawn", k->id));
        } else
            api_reply_error(out, 409,
                            k->status == SEEK_WITHDRAWN ? "gone" : "taken",
                            "this seek was %s", status_name[k->status]);
    } else {
        if (mine && k->status == SEEK_OPEN)
            k->seen = now;
        json_t *j = seek_json(k, rq, now);
        if (mine && k->status == SEEK_TAKEN)
            json_object_set_new(j, "play",
                                json_pack("{s:s,s:s,s:s}", "game", k->game,
                                          "side", k->game_side ? "N" : "S",
                                          "token", k->game_token));
        api_reply_json(out, 200, json_pack("{s:o}", "seek", j));
    }
    pthread_mutex_unlock(&a->lobby_lock);
}

/* /api/seek/ID and /api/seek/ID/accept. */
void ep_seek(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    const char *rest = rq->path + strlen(SEEK_PATH);
    char id[ID_LEN + 1];
    const char *slash = strchr(rest, '/');
    size_t n = slash ? (size_t)(slash - rest) : strlen(rest);
    if (n != ID_LEN) {
        api_reply_error(out, 404, "not_found", "no such seek");
        return;
    }
    memcpy(id, rest, ID_LEN);
    id[ID_LEN] = 0;
    if (!api_valid_id(id)) {
        api_reply_error(out, 404, "not_found", "no such seek");
    } else if (slash && strcmp(slash, "/accept") == 0) {
        if (strcmp(rq->method, "POST") == 0)
            accept_seek(a, id, rq, out);
        else
            api_reply_error(out, 405, "method", "%s is not allowed on %.200s",
                            rq->method, rq->path);
    } else if (slash) {
        api_reply_error(out, 404, "not_found", "no such endpoint: %.200s",
                        rq->path);
    } else if (!strcmp(rq->method, "GET") || !strcmp(rq->method, "HEAD")) {
        one_seek(a, id, rq, 0, out);
    } else if (!strcmp(rq->method, "DELETE")) {
        one_seek(a, id, rq, 1, out);
    } else {
        api_reply_error(out, 405, "method", "%s is not allowed on %.200s",
                        rq->method, rq->path);
    }
}
