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

/* Why a seek that is no longer open cannot be taken, in words. */
static const char *seek_gone_words(int status)
{
    switch (status) {
    case SEEK_TAKEN:
    case SEEK_TAKING:
        return _("this seek was taken");
    case SEEK_WITHDRAWN:
        return _("this seek was withdrawn");
    default:
        return _("this seek has ended");
    }
}

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
            a->lobby_gen++;
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
        "title", mc_tr(k->title), "time", k->time, "rated", k->rated, "side",
        k->side < 0 ? "random"
        : k->side   ? "N"
                    : "S",
        "player", k->account > 0 ? json_string(k->name) : json_null(), "rating",
        k->account > 0 ? json_pack("{s:i,s:b}", "shown", k->shown,
                                   "provisional", k->provisional)
                       : json_null(),
        "age", (int)(now - k->created), "mine", holds_seek(k, rq));
    json_object_set_new(j, "pool", json_boolean(k->pool));
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
                        _("your address posted %d seeks this minute: wait a "
                          "little"),
                        MC_API_SEEKS_MINUTE);
    return ok ? 0 : -1;
}

/* A seek from the request's body (keys: its members; side: whether it
   may say one): checked, the creator's rating read, its id and token
   drawn.  0, or -1 after replying. */
static int read_seek(mc_api *a, const api_req *rq, const char *const *keys,
                     api_seek *k, mc_api_reply *out)
{
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return -1;
    const char *spec, *time_text, *side_text = NULL;
    json_t *rj = json_object_get(j, "rated");
    if (api_opt_str(j, "game", &spec, MC_SPEC_STRLEN, out) ||
        api_opt_str(j, "time", &time_text, 100, out) ||
        api_opt_str(j, "side", &side_text, 16, out)) {
        json_decref(j);
        return -1;
    }
    memset(k, 0, sizeof *k);
    k->rated = json_is_true(rj);
    k->side = !side_text || !strcmp(side_text, "random") ? -1
              : !strcmp(side_text, "S")                  ? 0
              : !strcmp(side_text, "N")                  ? 1
                                                         : -2;
    mc_error err;
    mc_game *g = NULL;
    mc_time_control tc;
    if (rj && !json_is_boolean(rj)) {
        api_reply_error(out, 400, "json", _("'rated' must be true or false"));
    } else if (k->side == -2) {
        api_reply_error(out, 400, "json",
                        _("'side' must be \"S\", \"N\" or \"random\""));
    } else if (!spec) {
        api_reply_error(out, 400, "json",
                        _("'game' is required (e.g. \"oware\")"));
    } else if (k->rated && rq->account <= 0) {
        api_reply_error(out, 401, "session",
                        _("a rated seek needs an account's session token "
                          "(sign in first)"));
    } else if (!(g = mc_game_new(spec, &err))) {
        api_reply_error(out, 422, api_err_code(err.code), "%s", err.msg);
    } else if (k->rated && mc_game_is_match(g)) {
        api_reply_error(out, 422, "rated",
                        _("a rated game is one game, not a match (for "
                          "Omweso: \"omweso:match=single\")"));
    } else if (mc_time_parse(g, time_text ? time_text : "none", &tc, &err) !=
               0) {
        api_reply_error(out, 422, "time", "%s", err.msg);
    } else if (k->rated && tc.kind == MC_TIME_NONE) {
        api_reply_error(out, 422, "time",
                        _("a rated game needs a time control (e.g. "
                          "\"game:300+2\"), so that the clock decides a game "
                          "a player leaves"));
    } else {
        snprintf(k->spec, sizeof k->spec, "%s", mc_game_spec(g));
        snprintf(k->kind, sizeof k->kind, "%s", mc_game_name(g));
        /* kept in English, shown in each reader's language (seek_json) */
        mc_lang_use(NULL);
        snprintf(k->title, sizeof k->title, "%s", mc_game_title(g));
        mc_lang_use(rq->lang);
        mc_time_format(&tc, k->time, sizeof k->time);
    }
    mc_game_free(g);
    json_decref(j);
    if (!k->kind[0])
        return -1;
    if (rq->account > 0) {
        mc_store_standing st;
        if (mc_store_standing_of(a->store, rq->account, k->kind,
                                 (long long)clock_now(a), &st, &err) != 0) {
            api_reply_error(out, 503, "io",
                            _("the ratings cannot be read (%s)"), err.msg);
            return -1;
        }
        k->account = rq->account;
        snprintf(k->name, sizeof k->name, "%s", rq->name);
        k->shown = st.shown;
        k->provisional = st.provisional;
    }
    snprintf(k->addr, sizeof k->addr, "%s", rq->addr ? rq->addr : "");
    if (api_random_hex(k->id) != 0 || api_random_hex(k->secret) != 0) {
        api_reply_error(out, 503, "io", _("no random numbers from the system"));
        return -1;
    }
    return 0;
}

/* Seek k into the lobby (lobby lock held) under its limits, answered
   with status (and extra members): 0, or -1 after replying. */
static int place_seek(mc_api *a, const api_req *rq, api_seek *k, double now,
                      int status, json_t *extra, mc_api_reply *out)
{
    k->status = SEEK_OPEN;
    k->created = k->seen = now;
    int mine = 0, same = 0;
    api_seek *slot = NULL;
    for (int i = 0; i < MC_API_MAX_SEEKS; i++) {
        api_seek *x = &a->seeks[i];
        if (x->status == SEEK_FREE && !slot)
            slot = x;
        if (x->status != SEEK_OPEN && x->status != SEEK_TAKING)
            continue;
        mine += !strcmp(x->addr, k->addr);
        same += !strcmp(x->kind, k->kind) &&
                (k->account > 0 ? x->account == k->account
                                : !x->account && !strcmp(x->addr, k->addr));
    }
    if (same)
        api_reply_error(out, 409, "one_seek",
                        _("you have a seek for %s open already: one per game "
                          "at a time (withdraw it first)"),
                        k->kind);
    else if (rq->addr && mine >= MC_API_SEEKS_ADDR)
        api_reply_error(out, 429, "quota",
                        _("your address has %d seeks open already"),
                        MC_API_SEEKS_ADDR);
    else if (!slot)
        api_reply_error(out, 503, "full",
                        _("the lobby holds %d seeks already: try again soon"),
                        MC_API_MAX_SEEKS);
    if (same || (rq->addr && mine >= MC_API_SEEKS_ADDR) || !slot) {
        json_decref(extra);
        return -1;
    }
    *slot = *k;
    a->lobby_gen++;
    json_t *j = json_pack("{s:o,s:s}", "seek", seek_json(slot, rq, now),
                          "token", k->secret);
    if (extra)
        json_object_update(j, extra), json_decref(extra);
    api_reply_json(out, status, j);
    return 0;
}

/* POST /api/seek {"game", "time", "rated", "side"?}: a new seek. */
void ep_seek_new(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"game", "time", "rated", "side", NULL};
    api_seek k;
    if (read_seek(a, rq, keys, &k, out) != 0 || rate_seek(a, rq, out) != 0)
        return;
    double now = clock_now(a);
    pthread_mutex_lock(&a->lobby_lock);
    sweep(a, now);
    place_seek(a, rq, &k, now, 201, NULL, out);
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
        api_reply_error(out, 500, "memory", _("the seek's game: %s"), err.msg);
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

/* The game of seek copy (status TAKING in the lobby, id), against the
   player (acct, name: 0 and "" for a guest; bot: a house bot's level)
   whose request is rq: made and answered 201 with the state, and, to
   the taker (the bot's: to the creator) its side and token; the seek
   then TAKEN (the creator's seat kept for its look), or open again when
   the game could not be made.  mine: the id of the taker's own pool seek
   (TAKING) that this game answers too, or NULL. */
static void start_game(mc_api *a, const api_seek *copy, long long acct,
                       const char *name, int bot, const char *mine,
                       const api_req *rq, mc_api_reply *out)
{
    /* the creator's side: chosen, or by lot */
    int cs = copy->side >= 0 ? copy->side : (int)(api_random_u64() & 1);
    long long accts[2];
    int bots[2] = {0, 0};
    char names[2][NAME_MAX_LEN + 1], tok[2][ID_LEN + 1], game[ID_LEN + 1];
    accts[cs] = copy->account;
    accts[!cs] = acct;
    bots[!cs] = bot;
    snprintf(names[cs], sizeof names[cs], "%s", copy->name);
    snprintf(names[!cs], sizeof names[!cs], "%s", name);
    mc_record *r = NULL;
    int ok = api_random_hex(tok[0]) == 0 && api_random_hex(tok[1]) == 0;
    int you = bot ? cs : !cs; /* whose side and token the answer gives */
    if (!ok)
        api_reply_error(out, 503, "io", _("no random numbers from the system"));
    else if (!(r = seek_record(a, copy, names, accts, out)))
        ok = 0;
    else
        ok =
            api_new_seated(a, r, rq->addr, accts, names, bots, copy->rated,
                           (const char(*)[ID_LEN + 1]) tok,
                           json_pack("{s:s,s:s,s:s}", "token", tok[you], "side",
                                     you ? "N" : "S", "seek", copy->id),
                           game, out) == 0;
    pthread_mutex_lock(&a->lobby_lock);
    a->lobby_gen++;
    api_seek *k = find_seek(a, copy->id);
    if (k && k->status == SEEK_TAKING) {
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
    /* the taker's own pool seek, matched with this one: taken too */
    if (mine && (k = find_seek(a, mine)) && k->status == SEEK_TAKING) {
        if (ok) {
            k->status = SEEK_TAKEN;
            memcpy(k->game, game, sizeof k->game);
            k->game_side = !cs;
            memcpy(k->game_token, tok[!cs], sizeof k->game_token);
            k->ended = clock_now(a);
        } else {
            k->status = SEEK_OPEN;
        }
    }
    pthread_mutex_unlock(&a->lobby_lock);
}

/* May rq take seek k (lobby lock held)?  1, or 0 after replying. */
static int may_take_seek(const api_seek *k, const api_req *rq,
                         mc_api_reply *out)
{
    if (!k)
        api_reply_error(out, 404, "not_found", _("no such seek (it ended)"));
    else if (k->status == SEEK_TAKEN || k->status == SEEK_TAKING)
        api_reply_error(out, 409, "taken", _("this seek was taken already"));
    else if (k->status != SEEK_OPEN)
        api_reply_error(out, 409, "gone", "%s", seek_gone_words(k->status));
    else if (holds_seek(k, rq))
        api_reply_error(out, 403, "own",
                        _("this is your own seek: another player takes it"));
    else if (k->rated && rq->account <= 0)
        api_reply_error(out, 401, "session",
                        _("a rated seek is taken with an account's session "
                          "token (sign in first)"));
    else
        return 1;
    return 0;
}

/* POST /api/seek/ID/accept: the seek taken, its game made. */
static void accept_seek(mc_api *a, const char *id, const api_req *rq,
                        mc_api_reply *out)
{
    if (api_no_body(rq->body, rq->len, out) != 0)
        return;
    api_seek copy;
    pthread_mutex_lock(&a->lobby_lock);
    sweep(a, clock_now(a));
    api_seek *k = find_seek(a, id);
    int taking = may_take_seek(k, rq, out);
    if (taking) {
        k->status = SEEK_TAKING; /* nobody else takes it meanwhile */
        copy = *k;
    }
    pthread_mutex_unlock(&a->lobby_lock);
    if (taking)
        start_game(a, &copy, rq->account, rq->name, 0, NULL, rq, out);
}

/* ---- quick pairing ------------------------------------------------------ */

/* The pools' time controls (the blitz and rapid controls played online
   and at the Mind Sports Olympiad: 3+2, 5+2, 15+5). */
static const char *const pool_times[] = {"game:180+2", "game:300+2",
                                         "game:900+5", NULL};

/* The rating gap a pool bridges for a seek that has waited `waited`
   seconds: 100 points at once, 10 more a second (the whole range after
   six minutes). */
static double pool_window(double waited)
{
    return 100 + 10 * (waited > 0 ? waited : 0);
}

/* The house bot offered to a player rated `shown` (a guest: 1500): the
   engine's level 1 + (rating - 1000) / 150, within 1 to 10. */
static int bot_level(int shown)
{
    int l = 1 + (shown - 1000) / 150;
    return l < 1 ? 1 : l > 10 ? 10 : l;
}

/* The waiting pool seek that k (of rq, waiting since k->created) pairs
   with at now (lobby lock held): the same game, time control and rated
   or not, another player's, with a rating gap the longer wait of the two
   bridges (guests: any); the closest rating, then the longest wait.
   NULL: none. */
static api_seek *pool_best(mc_api *a, const api_seek *k, const api_req *rq,
                           double now)
{
    api_seek *best = NULL;
    for (int i = 0; i < MC_API_MAX_SEEKS; i++) {
        api_seek *x = &a->seeks[i];
        if (x == k || x->status != SEEK_OPEN || !x->pool ||
            strcmp(x->spec, k->spec) || strcmp(x->time, k->time) ||
            x->rated != k->rated || holds_seek(x, rq) ||
            (k->account > 0 && x->account == k->account))
            continue;
        int gap = abs(x->shown - k->shown);
        double waited =
            now - (x->created < k->created ? x->created : k->created);
        if (k->account > 0 && x->account > 0 && gap > pool_window(waited))
            continue;
        if (!best || gap < abs(best->shown - k->shown) ||
            (gap == abs(best->shown - k->shown) && x->created < best->created))
            best = x;
    }
    return best;
}

/* POST /api/pair {"game", "time", "rated"?}: the next waiting player of
   the pool (the same game, time control and rated or not) whose rating is
   close enough is the opponent, and the game starts (201, as accept);
   else the caller waits in the pool (202, as a seek) and after
   a->o.bot_wait seconds is offered the house bot. */
void ep_pair(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"game", "time", "rated", NULL};
    api_seek k;
    if (read_seek(a, rq, keys, &k, out) != 0)
        return;
    int pool = 0;
    for (int i = 0; pool_times[i]; i++)
        pool |= !strcmp(k.time, pool_times[i]);
    if (!pool) {
        api_reply_error(out, 422, "time",
                        _("the pools' time controls are game:180+2, "
                          "game:300+2 and game:900+5"));
        return;
    }
    k.pool = 1;
    if (rate_seek(a, rq, out) != 0)
        return;
    double now = clock_now(a);
    k.created = now;
    api_seek copy;
    pthread_mutex_lock(&a->lobby_lock);
    sweep(a, now);
    api_seek *best = pool_best(a, &k, rq, now);
    if (best) {
        best->status = SEEK_TAKING;
        copy = *best;
    } else {
        place_seek(a, rq, &k, now, 202,
                   json_pack("{s:f}", "bot_after", (double)a->o.bot_wait), out);
    }
    pthread_mutex_unlock(&a->lobby_lock);
    if (best)
        start_game(a, &copy, rq->account, rq->name, 0, NULL, rq, out);
}

/* The house bot offered for pool seek k at now (lobby lock held): its
   level, or 0 while the seek has not waited long enough. */
static int bot_offer(const mc_api *a, const api_seek *k, double now)
{
    if (!k->pool || k->status != SEEK_OPEN || now - k->created < a->o.bot_wait)
        return 0;
    return bot_level(k->account > 0 ? k->shown : 1500);
}

/* POST /api/seek/ID/bot: the creator of a pool seek that waited takes
   the house bot offered instead. */
static void take_bot(mc_api *a, const char *id, const api_req *rq,
                     mc_api_reply *out)
{
    if (api_no_body(rq->body, rq->len, out) != 0)
        return;
    api_seek copy;
    int level = 0;
    pthread_mutex_lock(&a->lobby_lock);
    double now = clock_now(a);
    sweep(a, now);
    api_seek *k = find_seek(a, id);
    if (!k)
        api_reply_error(out, 404, "not_found", _("no such seek (it ended)"));
    else if (!holds_seek(k, rq))
        api_reply_error(out, 403, "seat",
                        _("the house bot is offered to the seek's creator"));
    else if (k->status != SEEK_OPEN)
        api_reply_error(out, 409, k->status == SEEK_TAKEN ? "taken" : "gone",
                        "%s", seek_gone_words(k->status));
    else if (!(level = bot_offer(a, k, now)))
        api_reply_error(out, 409, "wait",
                        k->pool ? _("the house bot is offered after %.0f s in "
                                    "a pool")
                                : _("the house bot is offered in the pools "
                                    "(POST /api/pair), after %.0f s"),
                        (double)a->o.bot_wait);
    else {
        k->status = SEEK_TAKING;
        copy = *k;
    }
    pthread_mutex_unlock(&a->lobby_lock);
    if (!level || out->body)
        return;
    mc_store_account bot;
    mc_error err;
    if (mc_store_bot(a->store, level, &bot, &err) != 0) {
        pthread_mutex_lock(&a->lobby_lock);
        if ((k = find_seek(a, id)) && k->status == SEEK_TAKING)
            k->status = SEEK_OPEN;
        pthread_mutex_unlock(&a->lobby_lock);
        api_reply_error(out, 503, "io", _("the house bot cannot be had (%s)"),
                        err.msg);
        return;
    }
    start_game(a, &copy, bot.id, bot.name, level, NULL, rq, out);
}

/* The creator of pool seek id looks at it (GET): a waiting player its
   rating now bridges is paired with it, the game made, both seeks taken
   (the creator learns its seat as the look's answer says). */
static void pool_look(mc_api *a, const char *id, const api_req *rq)
{
    double now = clock_now(a);
    api_seek copy, *x = NULL;
    pthread_mutex_lock(&a->lobby_lock);
    sweep(a, now);
    api_seek *k = find_seek(a, id);
    if (k && k->pool && k->status == SEEK_OPEN && holds_seek(k, rq) &&
        (x = pool_best(a, k, rq, now)) != NULL) {
        x->status = k->status = SEEK_TAKING;
        copy = *x;
    }
    long long acct = k ? k->account : 0;
    char name[NAME_MAX_LEN + 1];
    snprintf(name, sizeof name, "%s", k ? k->name : "");
    pthread_mutex_unlock(&a->lobby_lock);
    if (!x)
        return;
    mc_api_reply scratch;
    memset(&scratch, 0, sizeof scratch);
    start_game(a, &copy, acct, name, 0, id, rq, &scratch);
    free(scratch.body);
}

/* GET /api/seek/ID: the seek; its creator (whose look keeps it open)
   learns, once it is taken, its game, seat and seat token.  DELETE: its
   creator withdraws it. */
static void one_seek(mc_api *a, const char *id, const api_req *rq, int del,
                     mc_api_reply *out)
{
    if (!del)
        pool_look(a, id, rq);
    double now = clock_now(a);
    pthread_mutex_lock(&a->lobby_lock);
    sweep(a, now);
    api_seek *k = find_seek(a, id);
    int mine = k && holds_seek(k, rq);
    if (!k) {
        api_reply_error(out, 404, "not_found", _("no such seek (it ended)"));
    } else if (del) {
        if (!mine)
            api_reply_error(out, 403, "seat",
                            _("only the seek's creator withdraws it (with its "
                              "token or session)"));
        else if (k->status == SEEK_OPEN) {
            k->status = SEEK_WITHDRAWN;
            k->ended = now;
            a->lobby_gen++;
            api_reply_json(out, 200, json_pack("{s:s}", "withdrawn", k->id));
        } else
            api_reply_error(out, 409,
                            k->status == SEEK_WITHDRAWN ? "gone" : "taken",
                            "%s", seek_gone_words(k->status));
    } else {
        if (mine && k->status == SEEK_OPEN)
            k->seen = now;
        json_t *j = seek_json(k, rq, now);
        int level = mine ? bot_offer(a, k, now) : 0;
        if (level) {
            char bn[NAME_MAX_LEN + 1];
            snprintf(bn, sizeof bn, "bot-level-%d", level);
            json_object_set_new(
                j, "bot", json_pack("{s:s,s:i}", "name", bn, "level", level));
        }
        if (mine && k->status == SEEK_TAKEN)
            json_object_set_new(j, "play",
                                json_pack("{s:s,s:s,s:s}", "game", k->game,
                                          "side", k->game_side ? "N" : "S",
                                          "token", k->game_token));
        api_reply_json(out, 200, json_pack("{s:o}", "seek", j));
    }
    pthread_mutex_unlock(&a->lobby_lock);
}

/* The open seeks of account id end: its player left (signed out, or
   deleted the account). */
void api_lobby_left(mc_api *a, long long id)
{
    double now = clock_now(a);
    pthread_mutex_lock(&a->lobby_lock);
    for (int i = 0; id > 0 && i < MC_API_MAX_SEEKS; i++) {
        api_seek *k = &a->seeks[i];
        if (k->status == SEEK_OPEN && k->account == id) {
            k->status = SEEK_ENDED;
            k->ended = now;
            a->lobby_gen++;
        }
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
        api_reply_error(out, 404, "not_found", _("no such seek"));
        return;
    }
    memcpy(id, rest, ID_LEN);
    id[ID_LEN] = 0;
    if (!api_valid_id(id)) {
        api_reply_error(out, 404, "not_found", _("no such seek"));
    } else if (slash && (!strcmp(slash, "/accept") || !strcmp(slash, "/bot"))) {
        if (strcmp(rq->method, "POST") != 0)
            api_reply_error(out, 405, "method",
                            _("%s is not allowed on %.200s"), rq->method,
                            rq->path);
        else if (!strcmp(slash, "/accept"))
            accept_seek(a, id, rq, out);
        else
            take_bot(a, id, rq, out);
    } else if (slash) {
        api_reply_error(out, 404, "not_found", _("no such endpoint: %.200s"),
                        rq->path);
    } else if (!strcmp(rq->method, "GET") || !strcmp(rq->method, "HEAD")) {
        one_seek(a, id, rq, 0, out);
    } else if (!strcmp(rq->method, "DELETE")) {
        one_seek(a, id, rq, 1, out);
    } else {
        api_reply_error(out, 405, "method", _("%s is not allowed on %.200s"),
                        rq->method, rq->path);
    }
}
