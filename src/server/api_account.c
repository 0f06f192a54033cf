/*
 * api_account.c - accounts and their sessions (docs/API.md, "Accounts"):
 * POST /api/account (register), POST /api/login, POST /api/logout, GET
 * /api/me, POST /api/password, DELETE /api/account; the session a
 * request's token names (api_session_of, before any route); and the
 * operator's commands (mc_api_reset_password, mc_api_delete_account).
 *
 * Accounts are optional: a game needs none.  A password is kept only as
 * its hash (password.c: argon2id), a session token only as its digest, so
 * a copy of the database gives no password and no live session.  What a
 * password costs is bounded: hashes at once in the process (password.c),
 * per address a minute (hashes begun, failed tries, accounts made; their
 * CPU counts in the address's minute like any request's), per name failed
 * tries with a growing wait (name_slot, known names and unknown alike, so
 * that the answers say nothing of which names exist).  A sign-in with an
 * unknown name checks a dummy hash: its answer and its time are a wrong
 * password's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api_int.h"
#include "password.h"

/* ---- names ------------------------------------------------------------- */

/* 2 to 20 letters, digits, '_' and '-' (ASCII: its case is the only one
   ignored). */
static int name_ok(const char *n)
{
    size_t len = strlen(n);
    if (len < MC_API_NAME_MIN || len > MC_API_NAME_MAX)
        return 0;
    for (const char *p = n; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
            return 0;
    return 1;
}

/* A house bot's name (api_lobby.c): "bot-" in any case, which no person
   may register. */
static int is_bot_name(const char *n)
{
    return strncasecmp(n, "bot-", 4) == 0;
}

/* A good name in lower case: what the limits know it by. */
static void name_key(const char *n, char key[NAME_MAX_LEN + 1])
{
    size_t i = 0;
    for (; n[i] && i < NAME_MAX_LEN; i++)
        key[i] = n[i] >= 'A' && n[i] <= 'Z' ? (char)(n[i] - 'A' + 'a') : n[i];
    key[i] = 0;
}

/* ---- the limits of password tries ------------------------------------- */

#define NAME_PROBES 16

/* The seconds a name waits after its k-th failure in a row (k >=
   MC_API_FAILS_NAME): 60, doubled for each further one, at most
   MC_API_FAILS_QUIET. */
static double name_wait(int k)
{
    int shift = k - MC_API_FAILS_NAME;
    double w = 60.0 * (double)(1u << (shift < 10 ? shift : 10));
    return w < MC_API_FAILS_QUIET ? w : MC_API_FAILS_QUIET;
}

/* Has the slot nothing to remember at now? */
static int slot_quiet(const name_slot *x, double now)
{
    return !x->key[0] ||
           (x->until <= now && now - x->last >= MC_API_FAILS_QUIET);
}

/* The slot of name key (the table lock held): its own, else a quiet one
   of its window, else the one of its window with the fewest failures
   (the oldest among them), taken over; a name whose failures were quiet
   long enough starts again from none.  The window is found by a keyed
   hash (mc_pw_shorthash), so that nobody can choose names that crowd out
   another's slot. */
static name_slot *name_slot_of(mc_api *a, const char *key, double now)
{
    assert(api_table_locked(a));
    uint64_t h = mc_pw_shorthash(key);
    name_slot *take = NULL;
    for (int k = 0; k < NAME_PROBES; k++) {
        name_slot *x = &a->names[(h + (uint64_t)k) % NAME_SLOTS];
        if (strcmp(x->key, key) == 0) {
            if (slot_quiet(x, now))
                x->fails = 0, x->until = 0;
            return x;
        }
        if (!take || (!slot_quiet(take, now) &&
                      (slot_quiet(x, now) || x->fails < take->fails ||
                       (x->fails == take->fails && x->last < take->last))))
            take = x;
    }
    snprintf(take->key, sizeof take->key, "%s", key);
    take->fails = 0;
    take->last = take->until = 0;
    return take;
}

/* A password try begins: `hashes` hashes for rq's address, a possible
   failure for it and for the name key when key is not NULL (fails: a try
   that may fail), an account made when made.  Counted before it runs, so
   that tries at once cannot pass the limits together: a try that succeeds
   gives its failure back (try_ok), one that never ran all of it
   (try_undo).  0, or -1 after replying 429 (the program itself, addr
   NULL, is not limited). */
static int try_begin(mc_api *a, const api_req *rq, const char *key, int hashes,
                     int fails, int made, mc_api_reply *out)
{
    double now = clock_now(a);
    api_table_lock(a);
    rate_slot *rs = rq->addr ? api_rate_of(a, rq->addr) : NULL;
    name_slot *ns = key ? name_slot_of(a, key, now) : NULL;
    const char *code = NULL;
    char why[200] = "";
    if (rq->addr && !rs) {
        code = "rate";
        snprintf(why, sizeof why,
                 _("the server is answering too many addresses this minute: "
                   "try again in a minute"));
    } else if (rs && fails && rs->fails >= MC_API_FAILS_ADDR) {
        code = "tries";
        snprintf(why, sizeof why,
                 _("your address made %d failed tries this minute: wait a "
                   "minute"),
                 MC_API_FAILS_ADDR);
    } else if (ns && ns->until > now) {
        code = "tries";
        snprintf(why, sizeof why,
                 _("too many failed tries for this name: wait %.0f s"),
                 ns->until - now + 0.5);
    } else if (rs && rs->hashes + hashes > a->o.hashes_minute) {
        code = "rate";
        snprintf(why, sizeof why,
                 _("your address asked for %d password checks this minute: "
                   "wait a minute"),
                 a->o.hashes_minute);
    } else if (rs && made && rs->accounts >= MC_API_ACCOUNTS_MINUTE) {
        code = "rate";
        snprintf(why, sizeof why,
                 _("your address made %d accounts this minute: wait a minute"),
                 MC_API_ACCOUNTS_MINUTE);
    } else {
        if (rs) {
            rs->hashes += hashes;
            rs->fails += fails;
            rs->accounts += made;
        }
        if (ns && fails) {
            ns->fails++;
            ns->last = now;
            if (ns->fails >= MC_API_FAILS_NAME)
                ns->until = now + name_wait(ns->fails);
        }
    }
    api_table_unlock(a);
    if (!code)
        return 0;
    api_reply_error(out, 429, code, "%s", why);
    return -1;
}

/* The try succeeded: its failure given back, the name's failures
   forgotten. */
static void try_ok(mc_api *a, const api_req *rq, const char *key)
{
    api_table_lock(a);
    rate_slot *rs = rq->addr ? api_rate_of(a, rq->addr) : NULL;
    if (rs && rs->fails > 0)
        rs->fails--;
    if (key) {
        name_slot *ns = name_slot_of(a, key, clock_now(a));
        ns->fails = 0;
        ns->until = 0;
    }
    api_table_unlock(a);
}

/* The try never ran (no turn for its hash, the store failed): all of it
   given back. */
static void try_undo(mc_api *a, const api_req *rq, const char *key, int hashes,
                     int fails)
{
    api_table_lock(a);
    rate_slot *rs = rq->addr ? api_rate_of(a, rq->addr) : NULL;
    if (rs) {
        rs->hashes -= rs->hashes >= hashes ? hashes : rs->hashes;
        rs->fails -= rs->fails >= fails ? fails : rs->fails;
    }
    if (key && fails) {
        name_slot *ns = name_slot_of(a, key, clock_now(a));
        if (ns->fails > 0)
            ns->fails--;
        if (ns->fails < MC_API_FAILS_NAME)
            ns->until = 0;
    }
    api_table_unlock(a);
}

/* ---- replies ----------------------------------------------------------- */

static void reply_busy(mc_api_reply *out)
{
    api_reply_error(out, 503, "busy",
                    _("the server is checking other passwords: try again in a "
                      "moment"));
}

static void reply_io(mc_api_reply *out, const mc_error *err)
{
    fprintf(stderr, "mancala serve: accounts: %s\n", err->msg);
    api_reply_error(out, 503, "io",
                    _("the change was not saved (%s); try again"), err->msg);
}

static int need_session(const api_req *rq, mc_api_reply *out)
{
    if (rq->account > 0)
        return 0;
    api_reply_error(out, 401, "session",
                    _("this needs an account's session token (sign in first)"));
    return -1;
}

/* A password member: required, 8 to 200 bytes (checked before any hash;
   at sign-in only the longest, since a shorter one is simply wrong).
   0, or -1 after replying. */
static int password_of(json_t *j, const char *key, int at_least,
                       const char **pw, mc_api_reply *out)
{
    if (api_opt_str(j, key, pw, 64 * 1024, out))
        return -1;
    if (!*pw) {
        api_reply_error(out, 400, "json", _("'%s' is required"), key);
        return -1;
    }
    size_t n = strlen(*pw);
    if (n > MC_API_PASSWORD_MAX || (at_least && n < MC_API_PASSWORD_MIN)) {
        api_reply_error(out, 422, "password",
                        _("a password has %d to %d bytes (this one %zu)"),
                        MC_API_PASSWORD_MIN, MC_API_PASSWORD_MAX, n);
        return -1;
    }
    return 0;
}

/* A new session's token drawn into tok, its digest and times into *ss
   (over digest).  0, or -1 after replying. */
static int draw_session(mc_api *a, char tok[MC_API_SESSION_LEN + 1],
                        char digest[MC_API_TOKEN_DIGEST + 1],
                        mc_store_session *ss, mc_api_reply *out)
{
    if (api_random_session(tok) != 0) {
        api_reply_error(out, 503, "io", _("no random numbers from the system"));
        return -1;
    }
    mc_pw_digest(tok, digest);
    ss->digest = digest;
    ss->created = (long long)clock_now(a);
    ss->expires = ss->created + a->o.session_days * 86400LL;
    return 0;
}

/* The answer of a sign-in (status): the name, the token, its end. */
static void reply_session(mc_api_reply *out, int status, const char *name,
                          const char *tok, const mc_store_session *ss)
{
    api_reply_json(out, status,
                   json_pack("{s:s,s:s,s:I}", "name", name, "token", tok,
                             "expires", (json_int_t)ss->expires));
}

/* A new session for account id (name), committed, then answered. */
static void new_session(mc_api *a, long long id, const char *name,
                        mc_api_reply *out)
{
    char tok[MC_API_SESSION_LEN + 1], digest[MC_API_TOKEN_DIGEST + 1];
    mc_store_session ss;
    mc_error err;
    if (draw_session(a, tok, digest, &ss, out) != 0)
        return;
    if (mc_store_session_add(a->store, id, &ss, MC_API_SESSIONS, ss.created,
                             &err) != 0)
        reply_io(out, &err);
    else
        reply_session(out, 200, name, tok, &ss);
}

/* ---- the session of a request ------------------------------------------ */

static int session_shaped(const char *t)
{
    if (!t || strlen(t) != MC_API_SESSION_LEN)
        return 0;
    for (const char *p = t; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
            return 0;
    return 1;
}

int api_session_of(mc_api *a, api_req *rq, mc_api_reply *out)
{
    if (!session_shaped(rq->token))
        return 0; /* a seat's token, or none */
    mc_pw_digest(rq->token, rq->digest);
    mc_store_account acc;
    long long expires;
    mc_error err;
    int rc = mc_store_session_find(
        a->store, rq->digest, (long long)clock_now(a), &acc, &expires, &err);
    if (rc < 0) {
        api_reply_error(out, 503, "io", _("the sessions cannot be read (%s)"),
                        err.msg);
        return -1;
    }
    if (rc > 0) {
        api_reply_error(out, 401, "session",
                        _("this session has ended (signed out, expired or its "
                          "password changed): sign in again"));
        return -1;
    }
    rq->account = acc.id;
    snprintf(rq->name, sizeof rq->name, "%.*s", NAME_MAX_LEN, acc.name);
    rq->expires = expires;
    return 0;
}

/* ---- the endpoints ----------------------------------------------------- */

/* POST /api/account {"name", "password"}: a new account, signed in. */
void ep_register(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"name", "password", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    const char *name, *pw;
    if (api_opt_str(j, "name", &name, 1024, out) ||
        password_of(j, "password", 1, &pw, out)) {
        json_decref(j);
        return;
    }
    if (!name || !name_ok(name)) {
        json_decref(j);
        api_reply_error(out, 422, "name",
                        _("a name has %d to %d letters, digits, '_' and '-'"),
                        MC_API_NAME_MIN, MC_API_NAME_MAX);
        return;
    }
    if (is_bot_name(name)) {
        json_decref(j);
        api_reply_error(out, 422, "name",
                        _("names beginning with \"bot-\" are the house "
                          "bots'"));
        return;
    }
    mc_store_account acc;
    mc_error err;
    char hash[MC_PW_HASH_MAX];
    int rc;
    if (try_begin(a, rq, NULL, 1, 0, 1, out) != 0) {
        json_decref(j);
        return;
    }
    /* A taken name is told before the hash: registering says which names
       exist anyway (and the account made counts against the address). */
    rc = mc_store_account_find(a->store, name, &acc, &err);
    if (rc == 0) {
        try_undo(a, rq, NULL, 1, 0);
        api_reply_error(out, 409, "taken", _("the name %s is taken"), name);
    } else if (rc < 0) {
        try_undo(a, rq, NULL, 1, 0);
        reply_io(out, &err);
    } else if ((rc = mc_pw_hash(pw, strlen(pw), hash, a->o.hash_wait, &err)) !=
               MC_PW_OK) {
        try_undo(a, rq, NULL, 1, 0);
        if (rc == MC_PW_BUSY)
            reply_busy(out);
        else
            reply_io(out, &err);
    } else {
        /* the account and its first session: one commit */
        char tok[MC_API_SESSION_LEN + 1], digest[MC_API_TOKEN_DIGEST + 1];
        mc_store_session ss;
        long long id;
        if (draw_session(a, tok, digest, &ss, out) != 0)
            ;
        else if ((rc = mc_store_account_add(a->store, name, hash, ss.created,
                                            &ss, &id, &err)) < 0)
            reply_io(out, &err);
        else if (rc > 0)
            api_reply_error(out, 409, "taken", _("the name %s is taken"), name);
        else
            reply_session(out, 201, name, tok, &ss);
    }
    json_decref(j);
}

/* The password pw of the account named name checked, under the limits of
   rq's address and the name: 0 when it is right (*acc filled), else -1
   after replying (401 login with the message wrong, for a wrong password
   and an unknown name alike).  extra: more hashes the caller will make
   on success. */
static int check_password(mc_api *a, const api_req *rq, const char *name,
                          const char *pw, int extra, const char *wrong,
                          mc_store_account *acc, mc_api_reply *out)
{
    char key[NAME_MAX_LEN + 1];
    if (!name_ok(name)) {
        /* no such name can exist: a failed try for the address alone */
        if (try_begin(a, rq, NULL, 0, 1, 0, out) == 0)
            api_reply_error(out, 401, "login", "%s", wrong);
        return -1;
    }
    name_key(name, key);
    if (try_begin(a, rq, key, 1 + extra, 1, 0, out) != 0)
        return -1;
    mc_error err;
    int rc = mc_store_account_find(a->store, name, acc, &err);
    if (rc < 0) {
        try_undo(a, rq, key, 1 + extra, 1);
        reply_io(out, &err);
        return -1;
    }
    /* an unknown name: a dummy's hash, the time of a wrong password */
    rc = mc_pw_verify(rc == 0 ? acc->hash : NULL, pw, strlen(pw),
                      a->o.hash_wait, &err);
    if (rc == MC_PW_OK) {
        try_ok(a, rq, key);
        return 0;
    }
    if (rc == MC_PW_WRONG) {
        api_reply_error(out, 401, "login", "%s", wrong);
        return -1;
    }
    try_undo(a, rq, key, 1 + extra, 1);
    if (rc == MC_PW_BUSY)
        reply_busy(out);
    else
        reply_io(out, &err);
    return -1;
}

/* POST /api/login {"name", "password"}: a new session. */
void ep_login(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"name", "password", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    const char *name, *pw;
    mc_store_account acc;
    if (api_opt_str(j, "name", &name, 1024, out) ||
        password_of(j, "password", 0, &pw, out)) {
        json_decref(j);
        return;
    }
    if (!name)
        api_reply_error(out, 400, "json", _("'name' is required"));
    else if (check_password(a, rq, name, pw, 0, _("wrong name or password"),
                            &acc, out) == 0)
        new_session(a, acc.id, acc.name, out);
    json_decref(j);
}

/* POST /api/logout {"all"?: BOOL}: the request's session ends (all: every
   session of its account). */
void ep_logout(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"all", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    json_t *all = json_object_get(j, "all");
    int every = json_is_true(all), bad = all && !json_is_boolean(all);
    json_decref(j);
    if (bad) {
        api_reply_error(out, 400, "json", _("'all' must be true or false"));
        return;
    }
    if (need_session(rq, out))
        return;
    int ended = 0;
    mc_error err;
    if (mc_store_session_end(a->store, rq->digest, every, &ended, &err) != 0)
        reply_io(out, &err);
    else
        api_reply_json(out, 200, json_pack("{s:i}", "ended", ended));
}

/* The games with a seat of account id, the last touched first. */
typedef struct my_game {
    char id[ID_LEN + 1];
    char sides[3];
    int over;
    long long touched;
} my_game;

static int by_touched(const void *x, const void *y)
{
    const my_game *p = x, *q = y;
    return (p->touched < q->touched) - (p->touched > q->touched);
}

#define ME_GAMES 100

static json_t *games_of(mc_api *a, long long id)
{
    int n, k = 0;
    game_entry **all = api_table_all(a, &n);
    my_game *mine = all ? malloc(((size_t)n + 1) * sizeof *mine) : NULL;
    for (int i = 0; i < n; i++) {
        game_entry *e = all[i];
        api_game_lock(e);
        if (mine && !e->gone && (e->acct[0] == id || e->acct[1] == id)) {
            my_game *g = &mine[k++];
            memcpy(g->id, e->id, sizeof g->id);
            snprintf(g->sides, sizeof g->sides, "%s%s",
                     e->acct[0] == id ? "S" : "", e->acct[1] == id ? "N" : "");
            g->over = api_game_finished(e);
            g->touched = e->touched;
        }
        api_game_unlock(e);
        api_release(a, e);
    }
    free(all);
    json_t *list = json_array();
    if (mine)
        qsort(mine, (size_t)k, sizeof *mine, by_touched);
    for (int i = 0; i < k && i < ME_GAMES; i++)
        json_array_append_new(list, json_pack("{s:s,s:s,s:b}", "id", mine[i].id,
                                              "sides", mine[i].sides, "over",
                                              mine[i].over));
    free(mine);
    return list;
}

/* GET /api/me: who the session is, until when, and its games. */
void ep_me(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    if (need_session(rq, out))
        return;
    api_reply_json(out, 200,
                   json_pack("{s:s,s:I,s:o}", "name", rq->name, "expires",
                             (json_int_t)rq->expires, "games",
                             games_of(a, rq->account)));
}

/* POST /api/password {"old", "new"}: the session's account gets a new
   password; its other sessions end. */
void ep_password(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"old", "new", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    const char *old, *pw;
    mc_store_account acc;
    char hash[MC_PW_HASH_MAX];
    mc_error err;
    int rc, ended = 0;
    if (need_session(rq, out) || password_of(j, "old", 0, &old, out) ||
        password_of(j, "new", 1, &pw, out) ||
        check_password(a, rq, rq->name, old, 1, _("the password is wrong"),
                       &acc, out) != 0) {
        json_decref(j);
        return;
    }
    if (acc.id != rq->account) {
        /* the session's name belongs to another account now: never */
        api_reply_error(out, 401, "session", _("sign in again"));
    } else if ((rc = mc_pw_hash(pw, strlen(pw), hash, a->o.hash_wait, &err)) !=
               MC_PW_OK) {
        if (rc == MC_PW_BUSY)
            reply_busy(out);
        else
            reply_io(out, &err);
    } else if ((rc = mc_store_account_password(a->store, acc.id, hash,
                                               rq->digest, &ended, &err)) < 0) {
        reply_io(out, &err);
    } else if (rc > 0) {
        api_reply_error(out, 401, "session", _("the account was deleted"));
    } else {
        api_reply_json(out, 200, json_pack("{s:i}", "ended", ended));
    }
    json_decref(j);
}

/* The games of the account id, held in memory, show its seats as
   DELETED_PLAYER from now on (the store keeps the seats' id, and no
   name for it): each such game gets a new version, committed, so that
   the event streams of every server process show it. */
static void forget_player(mc_api *a, long long id)
{
    int n;
    game_entry **all = api_table_all(a, &n);
    for (int i = 0; all && i < n; i++) {
        game_entry *e = all[i];
        api_game_lock(e);
        mc_api_reply scratch = {0};
        int mine = 0;
        if (!e->gone && (!api_behind(e) || api_reload(a, e, &scratch) == 0))
            for (int s = 0; s < 2; s++)
                if (e->acct[s] == id) {
                    e->player[s][0] = 0;
                    mine = 1;
                }
        if (mine) {
            e->version++; /* the streams show it */
            api_commit_takeback(a, e, &scratch);
        }
        free(scratch.body);
        api_game_unlock(e);
        api_release(a, e);
    }
    free(all);
}

/* DELETE /api/account {"password"}: the session's account is deleted. */
void ep_unregister(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"password", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    const char *pw;
    mc_store_account acc;
    mc_error err;
    int rc;
    if (need_session(rq, out) || password_of(j, "password", 0, &pw, out) ||
        check_password(a, rq, rq->name, pw, 0, _("the password is wrong"), &acc,
                       out) != 0) {
        json_decref(j);
        return;
    }
    json_decref(j);
    if (acc.id != rq->account) {
        api_reply_error(out, 401, "session", _("sign in again"));
    } else if ((rc = mc_store_account_delete(a->store, acc.id, &err)) < 0) {
        reply_io(out, &err);
    } else {
        forget_player(a, acc.id);
        api_reply_json(out, 200, json_pack("{s:s}", "deleted", acc.name));
    }
}

/* ---- the operator's commands -------------------------------------------- */

/* The account named name into *acc: 0, or -1 with err filled. */
static int find_named(mc_api *a, const char *name, mc_store_account *acc,
                      mc_error *err)
{
    int rc =
        name_ok(name) ? mc_store_account_find(a->store, name, acc, err) : 1;
    if (rc > 0)
        mc_err(err, MC_ERR_ARG, _("no account is named '%.40s'"), name);
    return rc == 0 ? 0 : -1;
}

int mc_api_reset_password(mc_api *a, const char *name, const char *password,
                          mc_error *err)
{
    mc_store_account acc;
    char hash[MC_PW_HASH_MAX];
    size_t n = strlen(password);
    if (n < MC_API_PASSWORD_MIN || n > MC_API_PASSWORD_MAX)
        return mc_err(err, MC_ERR_ARG, _("a password has %d to %d bytes"),
                      MC_API_PASSWORD_MIN, MC_API_PASSWORD_MAX);
    if (is_bot_name(name))
        return mc_err(err, MC_ERR_ARG,
                      _("'%.40s' is a house bot's name: it has no password"),
                      name);
    if (find_named(a, name, &acc, err) != 0)
        return -1;
    /* the program's own hash waits for its turn as long as it takes */
    int rc = mc_pw_hash(password, n, hash, 3600, err);
    if (rc == MC_PW_BUSY)
        return mc_err(err, MC_ERR_IO, _("no turn for the password's hash"));
    if (rc != MC_PW_OK)
        return -1;
    rc = mc_store_account_password(a->store, acc.id, hash, NULL, NULL, err);
    if (rc > 0)
        mc_err(err, MC_ERR_ARG, _("no account is named '%.40s'"), name);
    return rc == 0 ? 0 : -1;
}

int mc_api_delete_account(mc_api *a, const char *name, mc_error *err)
{
    mc_store_account acc;
    if (find_named(a, name, &acc, err) != 0)
        return -1;
    int rc = mc_store_account_delete(a->store, acc.id, err);
    if (rc > 0)
        mc_err(err, MC_ERR_ARG, _("no account is named '%.40s'"), name);
    if (rc == 0)
        forget_player(a, acc.id);
    return rc == 0 ? 0 : -1;
}
