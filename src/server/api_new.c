/*
 * api_new.c - games made: POST /api/new (a game from its spec, a start
 * position, a time control), POST /api/load (from a record), and the
 * import of a folder of record files (mancala serve --import).  Each new
 * game gets its id, its creator's token and an invitation to the other
 * seat, under the server's limits (games held, per address, per minute),
 * and is committed before it is visible.  Then its invitation taken (POST
 * join), and the game deleted by its creator (DELETE).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api_int.h"

void api_set_date(mc_record *r)
{
    time_t now = time(NULL);
    struct tm tm;
    char b[32];
    gmtime_r(&now, &tm);
    strftime(b, sizeof b, "%Y.%m.%d", &tm);
    mc_record_set_tag(r, "Event", "mancala serve", NULL);
    mc_record_set_tag(r, "Date", b, NULL);
}

/* The record's time control (its TimeControl tag, none for "none"), with
   full clocks from now. */
void api_set_time(mc_api *a, mc_record *r, const mc_time_control *tc)
{
    char t[64];
    mc_time_format(tc, t, sizeof t);
    mc_record_set_tag(r, "TimeControl",
                      tc->kind == MC_TIME_NONE && !tc->mode[0] ? NULL : t,
                      NULL);
    mc_session_set_time(mc_record_session(r), tc, clock_now(a));
}

/* The seats the creator takes: "both" (default), "S" or "N"; a bit mask,
   or 0 after replying. */
static int seats_of(json_t *j, mc_api_reply *out)
{
    const char *v;
    if (api_opt_str(j, "seats", &v, 8, out))
        return 0;
    if (!v || strcmp(v, "both") == 0)
        return 3;
    if (strcmp(v, "S") == 0 || strcmp(v, "N") == 0)
        return v[0] == 'S' ? 1 : 2;
    api_reply_error(out, 400, "json",
                    _("'seats' must be \"both\", \"S\" or \"N\""));
    return 0;
}

/* A new game's entry, not yet in the table: its n records (taken over;
   freed on failure), created by addr holding the seats of mask (with the
   account of rq's session, if any: rq may be NULL), the creator's token
   drawn into tok and the invitation to the other seat.  NULL after
   replying. */
static game_entry *new_entry(mc_api *a, mc_record **recs, int n, int mask,
                             const char *addr, const api_req *rq,
                             char tok[ID_LEN + 1], mc_api_reply *out)
{
    game_entry *e = api_entry_new();
    if (!e) {
        mc_records_free(recs, n);
        api_reply_error(out, 500, "memory", _("out of memory"));
        return NULL;
    }
    e->recs = recs;
    e->n = e->cap = n;
    snprintf(e->addr, sizeof e->addr, "%s", addr ? addr : "");
    e->owner = mask;
    e->created = e->touched = now_s();
    e->now = clock_now(a);
    if (api_random_hex(tok) != 0 ||
        api_random_hex(e->invite[mask == 1 ? 1 : 0]) != 0) {
        api_entry_free(e);
        api_reply_error(out, 503, "io", _("no random numbers from the system"));
        return NULL;
    }
    for (int s = 0; s < 2; s++)
        if (mask >> s & 1) {
            memcpy(e->token[s], tok, ID_LEN + 1);
            if (rq && rq->account > 0) {
                e->acct[s] = rq->account;
                snprintf(e->player[s], sizeof e->player[s], "%s", rq->name);
            }
        }
    if (mask == 3)
        e->invite[0][0] = 0;
    return e;
}

/* Why a new game has no place: MC_STORE_FULL, MC_STORE_QUOTA, 0 the
   address's rate, else out of memory. */
static void refused(const mc_api *a, int why, mc_api_reply *out)
{
    if (why == MC_STORE_FULL)
        api_reply_error(out, 503, "full",
                        _("this server holds %d games already"),
                        a->o.max_games);
    else if (why == 0)
        api_reply_error(out, 429, "rate",
                        _("your address made %d games this minute: wait a "
                          "little"),
                        a->o.rate);
    else if (why == MC_STORE_QUOTA)
        api_reply_error(out, 429, "quota",
                        _("your address holds %d games already: finish or "
                          "delete one"),
                        a->o.quota);
    else
        api_reply_error(out, 500, "memory", _("out of memory"));
}

/* A place in the table for e, under the limits (games held; with quota,
   addr's games this minute and held), with a new id; e is pending there
   (not found) until committed.  0, or -1 after replying (e freed). */
static int take_place(mc_api *a, game_entry *e, int quota, mc_api_reply *out)
{
    api_table_lock(a);
    int mine = 0, full = a->n >= a->o.max_games, fast = 0;
    if (quota && !full) {
        rate_slot *rs = api_rate_of(a, e->addr);
        fast = rs && rs->count >= a->o.rate;
        if (rs && !fast)
            rs->count++;
    }
    if (quota && !full)
        for (size_t i = 0; i < a->nbucket; i++)
            for (game_entry *x = a->bucket[i]; x; x = x->next)
                mine += strcmp(x->addr, e->addr) == 0;
    int ok = !full && !fast && !(quota && mine >= a->o.quota);
    while (ok && (api_random_hex(e->id) != 0 || api_table_find(a, e->id)))
        ; /* a repeat of 128 random bits: never, in practice */
    if (ok && api_table_add(a, e) != 0)
        ok = -1;
    if (ok == 1)
        e->pending = 1;
    api_table_unlock(a);
    if (ok == 1)
        return 0;
    api_entry_free(e);
    refused(a,
            full      ? MC_STORE_FULL
            : fast    ? 0
            : ok == 0 ? MC_STORE_QUOTA
                      : -1,
            out);
    return -1;
}

/* The new game e into the store, seats and invitation with it, under the
   limits counted there too (with quota, addr's games; the games held):
   other server processes of a shared store make games as well.  0, or -1
   after replying (e out of the table, freed). */
static int store_new(mc_api *a, game_entry *e, int quota, mc_api_reply *out)
{
    size_t len;
    char *t = mc_records_format(e->recs, e->n, &len);
    mc_store_game sg = {e->id,
                        t,
                        e->addr,
                        0,
                        e->created,
                        e->touched,
                        api_game_finished(e),
                        {e->token[0][0] ? e->token[0] : NULL,
                         e->token[1][0] ? e->token[1] : NULL},
                        {e->invite[0][0] ? e->invite[0] : NULL,
                         e->invite[1][0] ? e->invite[1] : NULL},
                        e->owner,
                        {{0, 0}, -1, 1},
                        {e->acct[0], e->acct[1]},
                        {NULL, NULL},
                        e->rated,
                        {e->bot[0], e->bot[1]},
                        0,
                        {0},
                        {-1, 0}};
    api_clock_of(e, &sg.clock);
    mc_error err = {MC_ERR_IO, "out of memory"};
    int rc = t ? mc_store_insert(a->store, &sg, quota ? a->o.quota : 0,
                                 a->o.max_games, &err)
               : -1;
    if (rc != 0) {
        free(t);
        api_table_remove(a, e); /* frees it */
        if (rc == MC_STORE_QUOTA || rc == MC_STORE_FULL) {
            refused(a, rc, out);
            return -1;
        }
        fprintf(stderr, "mancala serve: a new game: %s\n", err.msg);
        api_reply_error(out, 503, "io", _("the game was not saved (%s)"),
                        err.msg);
        return -1;
    }
    free(t);
    return 0;
}

/* What the creator of e learns beside the state: its token, the sides it
   holds, and the invitation to the other seat (null: it holds both). */
static json_t *creator_json(const game_entry *e, const char *tok, int mask)
{
    char sides[3] = "";
    if (mask & 1)
        strcat(sides, "S");
    if (mask & 2)
        strcat(sides, "N");
    json_t *extra = json_pack("{s:s,s:s}", "token", tok, "sides", sides);
    int other = mask == 1 ? 1 : 0;
    if (mask != 3)
        json_object_set_new(extra, "invite",
                            json_pack("{s:s,s:s}", "side", other ? "N" : "S",
                                      "code", e->invite[other]));
    else
        json_object_set_new(extra, "invite", json_null());
    return extra;
}

/* Keep a new game of n records (taken over; freed on failure), created by
   addr holding the seats of mask (for the account of rq's session, if any;
   rq may be NULL): ids and tokens drawn, limits checked, committed, then
   visible.  Replies 201 with the creator's token and the invitation to the
   other seat.  quota: count it against addr's quota. */
static game_entry *create_game(mc_api *a, mc_record **recs, int n, int mask,
                               const char *addr, const api_req *rq, int quota,
                               mc_api_reply *out)
{
    api_table_lock(a);
    int sweep = now_s() - a->last_sweep >= 60;
    api_table_unlock(a);
    if (sweep)
        mc_api_expire(a, now_s());
    char tok[ID_LEN + 1];
    game_entry *e = new_entry(a, recs, n, mask, addr, rq, tok, out);
    if (!e)
        return NULL;
    if (api_costly(a, e, out) != 0) {
        api_entry_free(e);
        return NULL;
    }
    if (take_place(a, e, quota, out) != 0 || store_new(a, e, quota, out) != 0)
        return NULL;
    api_game_lock(e); /* pending: nobody else sees it yet */
    api_reply_state(out, 201, e, NULL, NULL, creator_json(e, tok, mask));
    api_game_unlock(e);
    api_table_lock(a);
    e->pending = 0;
    api_table_unlock(a);
    return e;
}

/* A game of the lobby: record r (taken over; freed on failure), both
   seats taken at once by the accounts acct (0: none) named names, their
   tokens drawn into tok; nobody's to delete (owner 0); rated or not.
   Under addr's limits (the taker's); committed, then visible.  Replies
   201 with the state and South's and North's tokens (for the caller to
   hand out).  NULL after replying. */
int api_new_seated(mc_api *a, mc_record *r, const char *addr,
                   const long long acct[2],
                   const char names[2][NAME_MAX_LEN + 1], const int bot[2],
                   int rated, const char tok[2][ID_LEN + 1], json_t *extra,
                   char id[ID_LEN + 1], mc_api_reply *out)
{
    game_entry *e = api_entry_new();
    mc_record **recs = malloc(sizeof *recs);
    if (!e || !recs) {
        api_entry_free(e);
        free(recs);
        mc_record_free(r);
        json_decref(extra);
        api_reply_error(out, 500, "memory", _("out of memory"));
        return -1;
    }
    recs[0] = r;
    e->recs = recs;
    e->n = e->cap = 1;
    snprintf(e->addr, sizeof e->addr, "%s", addr ? addr : "");
    e->owner = 0;
    e->rated = rated;
    e->created = e->touched = now_s();
    e->now = clock_now(a);
    for (int s = 0; s < 2; s++) {
        memcpy(e->token[s], tok[s], ID_LEN + 1);
        e->acct[s] = acct[s];
        e->bot[s] = bot[s];
        snprintf(e->player[s], sizeof e->player[s], "%s",
                 acct[s] > 0 ? names[s] : "");
    }
    if (api_costly(a, e, out) != 0) {
        api_entry_free(e);
        json_decref(extra);
        return -1;
    }
    if (take_place(a, e, 1, out) != 0 || store_new(a, e, 1, out) != 0) {
        json_decref(extra);
        return -1;
    }
    api_game_lock(e); /* pending: nobody else sees it yet */
    api_reply_state(out, 201, e, NULL, NULL, extra);
    api_game_unlock(e);
    memcpy(id, e->id, ID_LEN + 1);
    api_table_lock(a);
    e->pending = 0;
    api_table_unlock(a);
    return 0;
}

void ep_new(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"game",  "position", "south",  "north",
                                       "seats", "time",     "assist", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    const char *spec, *pos, *names[2], *time_text;
    int mask;
    if (api_opt_str(j, "game", &spec, MC_SPEC_STRLEN, out) ||
        api_opt_str(j, "position", &pos, 1024, out) ||
        api_opt_str(j, "time", &time_text, 100, out) ||
        api_opt_str(j, "south", &names[0], 200, out) ||
        api_opt_str(j, "north", &names[1], 200, out) ||
        !(mask = seats_of(j, out))) {
        json_decref(j);
        return;
    }
    if (!spec) {
        json_decref(j);
        api_reply_error(out, 400, "json",
                        _("'game' is required (e.g. \"oware\")"));
        return;
    }
    mc_error err;
    mc_game *g = mc_game_new(spec, &err);
    if (!g) {
        json_decref(j);
        api_reply_error(out, 422, api_err_code(err.code), "%s", err.msg);
        return;
    }
    mc_pos start;
    mc_match m;
    mc_match_init(g, &m);
    if (m.by_lot && !pos)
        m.next_first = (int)(api_random_u64() & 1); /* W2: by lot */
    mc_match_start(g, &m, &start);
    if (pos && mc_pos_parse(g, pos, &start, &err) != 0) {
        mc_game_free(g);
        json_decref(j);
        api_reply_error(out, 422, api_err_code(err.code), "%s", err.msg);
        return;
    }
    mc_time_control tc;
    if (mc_time_parse(g, time_text ? time_text : "none", &tc, &err) != 0) {
        mc_game_free(g);
        json_decref(j);
        api_reply_error(out, 422, "time", "%s", err.msg);
        return;
    }
    mc_record *r = mc_record_new(mc_game_spec(g), &start, &err);
    mc_game_free(g);
    if (!r) {
        json_decref(j);
        api_reply_error(out, 422, api_err_code(err.code), "%s", err.msg);
        return;
    }
    api_set_date(r);
    api_set_time(a, r, &tc);
    /* A set-up given whole is arranged (W3: the set-up editor of one browser
       for both players, a script). */
    if (pos && mc_game_custom_setup(mc_record_game(r), NULL))
        mc_record_set_tag(r, "Arranged", "SN", NULL);
    for (int i = 0; i < 2; i++)
        if (names[i] &&
            mc_record_set_tag(r, i ? "North" : "South", names[i], &err) != 0) {
            mc_record_free(r);
            json_decref(j);
            api_reply_error(out, 422, "tag", "%s", err.msg);
            return;
        }
    if (mc_game_is_match(mc_record_game(r)))
        mc_record_set_tag(r, "Round", "1", NULL);
    json_t *as = json_object_get(j, "assist");
    if (as && !json_is_boolean(as)) {
        mc_record_free(r);
        json_decref(j);
        api_reply_error(out, 400, "json", _("'assist' must be true or false"));
        return;
    }
    /* The engine's help during a game between two people, agreed at the
       creation (the invited player sees it before joining). */
    if (json_is_true(as))
        mc_record_set_tag(r, "Assist", "on", NULL);
    json_decref(j);
    mc_record **recs = malloc(sizeof *recs);
    if (!recs) {
        mc_record_free(r);
        api_reply_error(out, 500, "memory", _("out of memory"));
        return;
    }
    recs[0] = r;
    create_game(a, recs, 1, mask, rq->addr, rq, 1, out);
}

void ep_load(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"record", "seats", "time", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    const char *text, *time_text;
    int mask;
    if (api_opt_str(j, "record", &text, MC_API_MAX_BODY, out) ||
        api_opt_str(j, "time", &time_text, 100, out) ||
        !(mask = seats_of(j, out))) {
        json_decref(j);
        return;
    }
    if (!text) {
        json_decref(j);
        api_reply_error(out, 400, "json", _("'record' is required"));
        return;
    }
    mc_record **recs;
    int n;
    mc_error err = {0, ""};
    int bad = api_read_rounds(text, NULL, &recs, &n, &err);
    if (bad) {
        json_decref(j);
        api_reply_error(out, 422, "record", "%s", err.msg);
        return;
    }
    /* The clocks: the time given, else the record's TimeControl; full
       from now (a record keeps no times). */
    mc_time_control tc;
    mc_session_time(mc_record_session(recs[n - 1]), &tc);
    if (time_text &&
        mc_time_parse(mc_record_game(recs[n - 1]), time_text, &tc, &err) != 0) {
        json_decref(j);
        mc_records_free(recs, n);
        api_reply_error(out, 422, "time", "%s", err.msg);
        return;
    }
    json_decref(j);
    api_set_time(a, recs[n - 1], &tc);
    create_game(a, recs, n, mask, rq->addr, rq, 1, out);
}

/* Take the seat of an invitation: its token is drawn and returned; the
   seat is the account's when the request sent its session. */
void ep_join(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"invite", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    const char *code;
    if (api_opt_str(j, "invite", &code, 64, out)) {
        json_decref(j);
        return;
    }
    int side = api_invited_side(e, code);
    json_decref(j);
    char tok[ID_LEN + 1];
    mc_error err;
    int rc;
    if (side < 0) {
        api_reply_error(
            out, 403, "seat",
            _("no open invitation to this game has that code (was it "
              "used already?)"));
    } else if (api_random_hex(tok) != 0) {
        api_reply_error(out, 503, "io", _("no random numbers from the system"));
    } else if ((rc = mc_store_seat(a->store, e->id, side, tok, rq->account,
                                   (long long)e->version + 1, now_s(), &err)) ==
               MC_STORE_CHANGED) {
        e->stale = 1; /* another server process changed it: read again */
        api_reply_changed(out);
    } else if (rc != 0) {
        api_reply_error(out, 503, "io", _("the seat was not saved (%s)"),
                        err.msg);
    } else {
        memcpy(e->token[side], tok, sizeof tok);
        e->acct[side] = rq->account;
        snprintf(e->player[side], sizeof e->player[side], "%s",
                 rq->account > 0 ? rq->name : "");
        e->invite[side][0] = 0;
        e->touched = now_s();
        e->version++; /* the other browser sees the seat taken */
        api_reply_state(
            out, 200, e, NULL, NULL,
            json_pack("{s:s,s:s}", "token", tok, "side", side ? "N" : "S"));
    }
}

/* DELETE /api/game/ID: by the token of the creator's seat (or its
   account's session). */
void ep_delete(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out)
{
    int own = 0;
    for (int s = 0; s < 2; s++)
        if (e->owner >> s & 1)
            own |= api_holds(e, rq, s);
    if (!own) {
        api_deny(out, rq->token,
                 N_("this needs the token of the seat of the game's creator"));
        return;
    }
    mc_error err;
    if (mc_store_delete(a->store, e->id, &err) != 0) {
        api_reply_error(out, 503, "io", _("the game was not deleted (%s)"),
                        err.msg);
        return;
    }
    e->gone = 1;
    api_reply_json(out, 200, json_pack("{s:s}", "deleted", e->id));
}

int mc_api_import(mc_api *a, const char *dir, FILE *report, mc_error *err)
{
    DIR *d = opendir(dir);
    if (!d) {
        err->code = MC_ERR_IO;
        snprintf(err->msg, sizeof err->msg, "cannot read %s: %s", dir,
                 strerror(errno));
        return -1;
    }
    int count = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t nl = strlen(de->d_name);
        if (nl < 5 || strcmp(de->d_name + nl - 4, ".mcr") != 0)
            continue;
        char path[4096], shown[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        /* The report's lines are one a file: a name's control characters
           (a newline would forge a line) are shown as '?'. */
        snprintf(shown, sizeof shown, "%s", path);
        for (char *q = shown; *q; q++)
            if ((unsigned char)*q < 0x20 || *q == 0x7f)
                *q = '?';
        mc_record **recs;
        int n;
        mc_error e = {0, ""};
        if (api_read_rounds(NULL, path, &recs, &n, &e) != 0) {
            if (report)
                fprintf(report, "%s skipped: %s\n", shown,
                        strstr(e.msg, path) == e.msg ? e.msg + strlen(path) + 2
                                                     : e.msg);
            continue;
        }
        mc_api_reply out;
        memset(&out, 0, sizeof out);
        game_entry *g = create_game(a, recs, n, 3, "import", NULL, 0, &out);
        json_t *j = json_loadb(out.body ? out.body : "", out.len, 0, NULL);
        if (g && j) {
            count++;
            if (report)
                fprintf(report, "%s %s %s\n", shown,
                        json_string_value(
                            json_object_get(json_object_get(j, "state"), "id")),
                        json_string_value(json_object_get(j, "token")));
        } else if (report) {
            json_t *m = json_object_get(json_object_get(j, "error"), "message");
            fprintf(report, "%s skipped: %s\n", shown,
                    json_is_string(m) ? json_string_value(m) : "failed");
        }
        json_decref(j);
        free(out.body);
    }
    closedir(d);
    return count;
}
