/*
 * api.c - the JSON API of `mancala serve` (docs/API.md) over sessions and
 * records.  JSON is read and written with Jansson (Debian's libjansson):
 * strict parsing (duplicate keys refused, one value, nothing after it) with
 * line and column in its errors, which a hand-written parser would have to
 * re-implement and fuzz; every body must be an object and unknown keys are
 * refused.  A game is a list of records (the rounds of a match, one record
 * for a single game) saved to <dir>/<id>.mcr after every change.  Front-end
 * code: it never knows a rule, it asks the library for moves, names,
 * notation and traces.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "api.h"
#include "../core/util.h"
#include "mancala_record.h"

#define ID_LEN 12
#define TRACE_CAP 20000 /* events kept for a move's animation */

typedef struct game_entry {
    char id[ID_LEN + 1];
    mc_record **recs; /* the rounds; the last one is being played */
    int n, cap;
    unsigned long version; /* bumped by every change (clients poll it) */
} game_entry;

/* The computer players: a few, kept between requests (each with its table
   and the endgame tables open), lent to one search at a time. */
#define API_PLAYERS 4

typedef struct api_player {
    mc_player *pl;
    char spec[MC_SPEC_STRLEN];
    int busy;
} api_player;

struct mc_api {
    pthread_mutex_t lock;
    char *dir;
    game_entry **games;
    int n, cap;
    mc_rng rng;
    api_player players[API_PLAYERS];
    int book_off, book_variety; /* mc_api_set_book */
};

static const char *const kind_names[] = {
    "",        "lift", "drop", "skip",   "lap",     "capture", "nocapture",
    "end",     "trade", "pass", "resow", "opening", "annul"};

static const char *const reason_names[] = {
    "none",     "captures", "repetition", "nomove", "stuck",  "plies",
    "board",    "points",   "annulled",   "resign", "time"};

/* ---- replies ---------------------------------------------------------- */

/* A JSON string of s with every byte that is not part of valid UTF-8 (a
   message cut in the middle of a character, a tag read from a file) turned
   into '?': Jansson refuses invalid UTF-8. */
static json_t *safe_str(const char *s)
{
    size_t n = strlen(s);
    char *t = malloc(n + 1);
    if (!t)
        return NULL;
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        int len = u[i] < 0x80 ? 1 : (u[i] >> 5) == 6 ? 2 : (u[i] >> 4) == 14 ? 3
                                  : (u[i] >> 3) == 30 ? 4 : 0;
        int ok = len > 0 && i + (size_t)len <= n;
        for (int k = 1; ok && k < len; k++)
            ok = (u[i + (size_t)k] >> 6) == 2;
        if (ok && len > 1) {
            memcpy(t + i, s + i, (size_t)len);
            i += (size_t)len;
        } else {
            t[i] = ok ? s[i] : '?';
            i++;
        }
    }
    t[n] = 0;
    json_t *j = json_string(t);
    if (!j) /* overlong forms or surrogates: keep the ASCII only */
        for (i = 0; i < n; i++)
            if ((unsigned char)t[i] >= 0x80)
                t[i] = '?';
    if (!j)
        j = json_string(t);
    free(t);
    return j;
}

static void reply_json(mc_api_reply *out, int status, json_t *j)
{
    out->status = status;
    out->type = "application/json";
    out->body = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (!out->body) {
        out->status = 500;
        out->body = strdup("{\"error\":{\"code\":\"memory\","
                           "\"message\":\"out of memory\"}}");
    }
    out->len = out->body ? strlen(out->body) : 0;
}

static void reply_error(mc_api_reply *out, int status, const char *code,
                        const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void reply_error(mc_api_reply *out, int status, const char *code,
                        const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    reply_json(out, status,
               json_pack("{s:{s:s,s:o}}", "error", "code", code, "message",
                         safe_str(msg)));
}

static const char *err_code(int code)
{
    switch (code) {
    case MC_ERR_SPEC: return "spec";
    case MC_ERR_POSITION: return "position";
    case MC_ERR_MOVE: return "move";
    case MC_ERR_ILLEGAL: return "illegal";
    case MC_ERR_OVER: return "over";
    case MC_ERR_IO: return "io";
    default: return "bad_request";
    }
}

/* ---- request bodies ----------------------------------------------------- */

/* Parse body as a JSON object whose keys are all in allowed (NULL-ended).
   An empty body is an empty object.  NULL after replying with the error. */
static json_t *parse_body(const char *body, size_t len,
                          const char *const *allowed, mc_api_reply *out)
{
    json_t *j;
    if (len == 0) {
        j = json_object();
    } else {
        json_error_t e;
        j = json_loadb(body, len, JSON_REJECT_DUPLICATES, &e);
        if (!j) {
            reply_error(out, 400, "json", "bad JSON at line %d, column %d: %s",
                        e.line, e.column, e.text);
            return NULL;
        }
    }
    if (!json_is_object(j)) {
        json_decref(j);
        reply_error(out, 400, "json", "the request body must be a JSON object");
        return NULL;
    }
    const char *key;
    json_t *v;
    json_object_foreach(j, key, v) {
        int ok = 0;
        for (int i = 0; allowed[i]; i++)
            if (strcmp(key, allowed[i]) == 0)
                ok = 1;
        if (!ok) {
            reply_error(out, 400, "json", "unknown key '%.100s'", key);
            json_decref(j);
            return NULL;
        }
    }
    return j;
}

/* An optional string member: 0 and *s (NULL if absent), or -1 after
   replying.  Strings may not hold NUL bytes. */
static int opt_str(json_t *j, const char *key, const char **s, size_t max,
                   mc_api_reply *out)
{
    json_t *v = json_object_get(j, key);
    *s = NULL;
    if (!v)
        return 0;
    if (!json_is_string(v) || strlen(json_string_value(v)) != json_string_length(v)) {
        reply_error(out, 400, "json", "'%s' must be a string", key);
        return -1;
    }
    if (json_string_length(v) > max) {
        reply_error(out, 400, "json", "'%s' is longer than %zu bytes", key, max);
        return -1;
    }
    *s = json_string_value(v);
    return 0;
}

/* An optional number member within [lo, hi]; *x keeps its default when
   absent. */
static int opt_num(json_t *j, const char *key, double lo, double hi, double *x,
                   mc_api_reply *out)
{
    json_t *v = json_object_get(j, key);
    if (!v)
        return 0;
    if (!json_is_number(v) || json_number_value(v) < lo ||
        json_number_value(v) > hi) {
        reply_error(out, 400, "json", "'%s' must be a number from %g to %g",
                    key, lo, hi);
        return -1;
    }
    *x = json_number_value(v);
    return 0;
}

/* ---- games ------------------------------------------------------------ */

static mc_record *cur_rec(const game_entry *e) { return e->recs[e->n - 1]; }
static mc_session *cur_session(const game_entry *e)
{
    return mc_record_session(cur_rec(e));
}

static int valid_id(const char *s)
{
    if (strlen(s) != ID_LEN)
        return 0;
    for (int i = 0; i < ID_LEN; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return 1;
}

static game_entry *find_game(mc_api *a, const char *id)
{
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->games[i]->id, id) == 0)
            return a->games[i];
    return NULL;
}

static void entry_free(game_entry *e)
{
    if (!e)
        return;
    mc_records_free(e->recs, e->n);
    free(e);
}

static int add_round(game_entry *e, mc_record *r)
{
    size_t cap = mc_grow(&e->recs, (size_t)e->cap, (size_t)e->n + 1,
                         sizeof *e->recs, 4);
    if (!cap)
        return -1;
    e->cap = (int)cap;
    e->recs[e->n++] = r;
    return 0;
}

static int add_game(mc_api *a, game_entry *e)
{
    size_t cap = mc_grow(&a->games, (size_t)a->cap, (size_t)a->n + 1,
                         sizeof *a->games, 16);
    if (!cap)
        return -1;
    a->cap = (int)cap;
    a->games[a->n++] = e;
    return 0;
}

static void new_id(mc_api *a, char *id)
{
    static const char hex[] = "0123456789abcdef";
    do {
        uint64_t x = mc_rng_next(&a->rng);
        for (int i = 0; i < ID_LEN; i++, x >>= 4)
            id[i] = hex[x & 15];
        id[ID_LEN] = 0;
    } while (find_game(a, id));
}

static int save_game(mc_api *a, game_entry *e)
{
    if (!a->dir)
        return 0;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.mcr", a->dir, e->id);
    mc_error err;
    if (mc_records_save(path, e->recs, e->n, &err) != 0) {
        fprintf(stderr, "mancala serve: saving %s: %s\n", path, err.msg);
        return -1;
    }
    return 0;
}

/* The match as the finished rounds left it. */
static void match_of(const game_entry *e, mc_match *m)
{
    const mc_game *g = mc_record_game(e->recs[0]);
    mc_match_init(g, m);
    m->next_first = mc_session_pos_at(mc_record_session(e->recs[0]), 0)->side;
    for (int i = 0; i < e->n; i++) {
        mc_result r;
        mc_session_result(mc_record_session(e->recs[i]), &r);
        if (r.over)
            mc_match_record(g, m, &r);
    }
}

static int is_match(const mc_game *g)
{
    const char *f = mc_game_option(g, "match");
    return f && strcmp(f, "single") != 0;
}

/* The pit a move starts from, found from its trace; -1 for moves that sow
   nothing (offers, answers, passes). */
static int move_pit(const mc_game *g, const mc_pos *p, mc_move m)
{
    mc_trace_event ev[4];
    mc_trace tr = {ev, 4, 0, 0};
    mc_pos q = *p;
    mc_play(g, &q, m, &tr);
    for (size_t i = 0; i < tr.len; i++)
        if (ev[i].kind == MC_TR_LIFT || ev[i].kind == MC_TR_LAP ||
            ev[i].kind == MC_TR_OPENING)
            return ev[i].pit;
    return -1;
}

static json_t *result_json(const mc_result *r)
{
    if (!r->over)
        return json_null();
    return json_pack("{s:s,s:s,s:o,s:i,s:[f,f]}", "winner",
                     r->winner == MC_SOUTH ? "S" : r->winner == MC_NORTH ? "N"
                                                                        : "draw",
                     "reason",
                     r->reason >= 0 && r->reason <= MC_END_TIME
                         ? reason_names[r->reason] : "other",
                     "detail", safe_str(r->detail), "points", r->points, "score",
                     r->score2[0] / 2.0, r->score2[1] / 2.0);
}

static json_t *state_json(const game_entry *e)
{
    mc_record *rec = cur_rec(e);
    mc_session *s = mc_record_session(rec);
    const mc_game *g = mc_record_game(rec);
    const mc_pos *p = mc_session_pos(s);
    char buf[MC_POS_STRLEN + MC_SPEC_STRLEN];
    int np = mc_game_pits(g);

    json_t *st = json_object();
    json_object_set_new(st, "id", json_string(e->id));
    json_object_set_new(st, "version", json_integer((json_int_t)e->version));
    json_object_set_new(st, "game", json_string(mc_game_name(g)));
    json_object_set_new(st, "spec", json_string(mc_game_spec(g)));
    mc_pos_format(g, p, buf, sizeof buf);
    json_object_set_new(st, "position", json_string(buf));
    json_object_set_new(st, "side", json_string(p->side ? "N" : "S"));
    json_object_set_new(st, "ply", json_integer(mc_session_ply(s)));

    json_t *pits = json_array(), *owner = json_array(), *names = json_array();
    for (int i = 0; i < np; i++) {
        json_array_append_new(pits, json_integer(p->pit[i]));
        json_array_append_new(owner,
                              json_string(mc_pit_owner(g, p, i) ? "N" : "S"));
        json_array_append_new(names, json_string(mc_pit_name(g, i)));
    }
    json_object_set_new(st, "pits", pits);
    json_object_set_new(st, "owner", owner);
    json_object_set_new(st, "names", names);
    json_object_set_new(st, "captured", json_pack("[i,i]", p->cap[0], p->cap[1]));

    mc_layout l;
    mc_layout_get(g, &l);
    json_t *rows = json_array();
    for (int r = 0; r < l.rows; r++) {
        json_t *row = json_array();
        for (int c = 0; c < l.cols; c++)
            json_array_append_new(row, json_integer(l.pit[r][c]));
        json_array_append_new(rows, row);
    }
    json_object_set_new(st, "layout",
                        json_pack("{s:o,s:b,s:s}", "rows", rows, "stores",
                                  l.stores, "store_name",
                                  l.store_name ? l.store_name : ""));

    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(s, mv);
    json_t *moves = json_array();
    for (int i = 0; i < n; i++) {
        mc_move_format(g, p, mv[i], buf, sizeof buf);
        int pit = move_pit(g, p, mv[i]);
        json_array_append_new(moves, json_pack("{s:s,s:o}", "move", buf, "pit",
                                               pit < 0 ? json_null()
                                                       : json_integer(pit)));
    }
    json_object_set_new(st, "moves", moves);

    json_t *hist = json_array();
    for (int i = 0; i < mc_session_ply(s); i++) {
        mc_move_format(g, mc_session_pos_at(s, i), mc_session_move_at(s, i), buf,
                       sizeof buf);
        json_array_append_new(hist, json_string(buf));
    }
    json_object_set_new(st, "history", hist);

    mc_result r;
    mc_session_result(s, &r);
    json_object_set_new(st, "over", json_boolean(r.over));
    json_object_set_new(st, "result", result_json(&r));

    json_t *tags = json_object();
    const char *tn, *tv;
    for (int i = 0; mc_record_tag_at(rec, i, &tn, &tv); i++)
        json_object_set_new(tags, tn, safe_str(tv));
    json_object_set_new(st, "tags", tags);

    mc_match m;
    match_of(e, &m);
    mc_match_describe(g, &m, buf, sizeof buf);
    json_object_set_new(
        st, "match",
        json_pack("{s:b,s:i,s:[i,i],s:i,s:i,s:s,s:o,s:s}", "on", is_match(g),
                  "round", e->n, "wins", m.wins[0], m.wins[1], "draws", m.draws,
                  "games", m.games, "next_first", m.next_first ? "N" : "S",
                  "winner",
                  m.winner < 0 ? json_null()
                               : json_string(m.winner ? "N" : "S"),
                  "score", buf));
    return st;
}

static json_t *trace_json(const mc_game *g, const mc_trace *tr)
{
    json_t *a = json_array();
    char buf[256];
    for (size_t i = 0; i < tr->len; i++) {
        const mc_trace_event *ev = &tr->ev[i];
        mc_trace_describe(g, ev, buf, sizeof buf);
        json_array_append_new(
            a, json_pack("{s:s,s:i,s:i,s:i,s:o}", "kind",
                         ev->kind < sizeof kind_names / sizeof *kind_names
                             ? kind_names[ev->kind] : "other",
                         "pit", ev->pit, "aux", ev->aux, "n", (json_int_t)ev->n,
                         "text", safe_str(buf)));
    }
    return a;
}

/* The state, with the move just played and its trace when given. */
static void reply_state(mc_api_reply *out, int status, const game_entry *e,
                        const char *move, const mc_trace *tr, json_t *extra)
{
    json_t *j = json_pack("{s:o}", "state", state_json(e));
    if (move)
        json_object_set_new(j, "move", json_string(move));
    if (tr) {
        json_object_set_new(j, "trace", trace_json(mc_record_game(cur_rec(e)), tr));
        json_object_set_new(j, "trace_dropped", json_integer((json_int_t)tr->dropped));
    }
    if (extra)
        json_object_update(j, extra), json_decref(extra);
    reply_json(out, status, j);
}

static void set_date(mc_record *r)
{
    time_t now = time(NULL);
    struct tm tm;
    char b[32];
    gmtime_r(&now, &tm);
    strftime(b, sizeof b, "%Y.%m.%d", &tm);
    mc_record_set_tag(r, "Event", "mancala serve", NULL);
    mc_record_set_tag(r, "Date", b, NULL);
}

/* Play a move token on the game, with its trace; replies. */
static void play_token(mc_api *a, game_entry *e, const char *tok,
                       mc_api_reply *out, json_t *extra)
{
    mc_session *s = cur_session(e);
    mc_trace tr = {NULL, TRACE_CAP, 0, 0};
    tr.ev = malloc(TRACE_CAP * sizeof *tr.ev);
    if (!tr.ev) {
        json_decref(extra);
        reply_error(out, 500, "memory", "out of memory");
        return;
    }
    const mc_game *g = mc_record_game(cur_rec(e));
    char canon[MC_MOVE_STRLEN];
    mc_error err;
    mc_move m;
    mc_pos before = *mc_session_pos(s);
    if (mc_session_over(s)) {
        json_decref(extra);
        reply_error(out, 409, "over", "the game is over");
    } else if (mc_move_parse(g, &before, tok, &m, &err) != 0) {
        json_decref(extra);
        reply_error(out, 422, err_code(err.code), "%s", err.msg);
    } else if (mc_session_play(s, m, &tr, &err) != 0) {
        json_decref(extra);
        reply_error(out, 422, err_code(err.code), "%s", err.msg);
    } else {
        mc_move_format(g, &before, m, canon, sizeof canon);
        e->version++;
        save_game(a, e);
        reply_state(out, 200, e, canon, &tr, extra);
    }
    free(tr.ev);
}

/* ---- endpoints -------------------------------------------------------- */

static void ep_games(mc_api_reply *out)
{
    json_t *list = json_array();
    char help[8192];
    for (const char *const *n = mc_game_names(); *n; n++) {
        mc_game *g = mc_game_new(*n, NULL);
        if (!g)
            continue;
        mc_game_options_help(g, help, sizeof help);
        json_array_append_new(list, json_pack("{s:s,s:s}", "name", *n,
                                              "options", help));
        mc_game_free(g);
    }
    reply_json(out, 200, json_pack("{s:o,s:s}", "games", list, "version",
                                   mc_version()));
}

static void ep_new(mc_api *a, const char *body, size_t len, mc_api_reply *out)
{
    static const char *const keys[] = {"game", "position", "south", "north",
                                       NULL};
    json_t *j = parse_body(body, len, keys, out);
    if (!j)
        return;
    const char *spec, *pos, *names[2];
    if (opt_str(j, "game", &spec, MC_SPEC_STRLEN, out) ||
        opt_str(j, "position", &pos, 1024, out) ||
        opt_str(j, "south", &names[0], 200, out) ||
        opt_str(j, "north", &names[1], 200, out)) {
        json_decref(j);
        return;
    }
    if (!spec) {
        json_decref(j);
        reply_error(out, 400, "json", "'game' is required (e.g. \"oware\")");
        return;
    }
    if (a->n >= MC_API_MAX_GAMES) {
        json_decref(j);
        reply_error(out, 503, "full", "this server holds %d games already",
                    MC_API_MAX_GAMES);
        return;
    }
    mc_error err;
    mc_game *g = mc_game_new(spec, &err);
    if (!g) {
        json_decref(j);
        reply_error(out, 422, err_code(err.code), "%s", err.msg);
        return;
    }
    mc_pos start;
    mc_match m;
    mc_match_init(g, &m);
    if (m.by_lot && !pos)
        m.next_first = (int)mc_rng_below(&a->rng, 2); /* W2: by lot */
    mc_match_start(g, &m, &start);
    if (pos && mc_pos_parse(g, pos, &start, &err) != 0) {
        mc_game_free(g);
        json_decref(j);
        reply_error(out, 422, err_code(err.code), "%s", err.msg);
        return;
    }
    mc_record *r = mc_record_new(mc_game_spec(g), &start, &err);
    mc_game_free(g);
    game_entry *e = calloc(1, sizeof *e);
    if (e)
        new_id(a, e->id);
    if (!r || !e || add_round(e, r) != 0 || add_game(a, e) != 0) {
        if (e && e->n == 0)
            mc_record_free(r);
        entry_free(e);
        json_decref(j);
        reply_error(out, r ? 500 : 422, r ? "memory" : err_code(err.code), "%s",
                    r ? "out of memory" : err.msg);
        return;
    }
    set_date(r);
    for (int i = 0; i < 2; i++)
        if (names[i] && mc_record_set_tag(r, i ? "North" : "South", names[i],
                                          &err) != 0) {
            a->n--;
            entry_free(e);
            json_decref(j);
            reply_error(out, 422, "tag", "%s", err.msg);
            return;
        }
    if (is_match(mc_record_game(r)))
        mc_record_set_tag(r, "Round", "1", NULL);
    json_decref(j);
    save_game(a, e);
    reply_state(out, 201, e, NULL, NULL, NULL);
}

static void ep_load(mc_api *a, const char *body, size_t len, mc_api_reply *out)
{
    static const char *const keys[] = {"record", NULL};
    json_t *j = parse_body(body, len, keys, out);
    if (!j)
        return;
    const char *text;
    if (opt_str(j, "record", &text, MC_API_MAX_BODY, out)) {
        json_decref(j);
        return;
    }
    if (!text) {
        json_decref(j);
        reply_error(out, 400, "json", "'record' is required");
        return;
    }
    if (a->n >= MC_API_MAX_GAMES) {
        json_decref(j);
        reply_error(out, 503, "full", "this server holds %d games already",
                    MC_API_MAX_GAMES);
        return;
    }
    mc_record **recs;
    int n;
    mc_record_loc loc;
    mc_error err;
    if (mc_records_read(text, strlen(text), &recs, &n, &loc, &err) != 0) {
        json_decref(j);
        reply_error(out, 422, "record", "%s", err.msg);
        return;
    }
    json_decref(j);
    if (n == 0) {
        mc_records_free(recs, n);
        reply_error(out, 422, "record", "the record holds no game");
        return;
    }
    game_entry *e = calloc(1, sizeof *e);
    if (e)
        new_id(a, e->id);
    if (!e || add_game(a, e) != 0) {
        free(e);
        mc_records_free(recs, n);
        reply_error(out, 500, "memory", "out of memory");
        return;
    }
    e->recs = recs;
    e->n = e->cap = n;
    save_game(a, e);
    reply_state(out, 201, e, NULL, NULL, NULL);
}

/* A player for game g that no other search uses (the lock is held): one
   made for these rules before, else a free one remade, else a new one;
   NULL when all are busy. */
static api_player *lend_player(mc_api *a, const mc_game *g)
{
    api_player *free_slot = NULL, *idle = NULL;
    for (int i = 0; i < API_PLAYERS; i++) {
        api_player *p = &a->players[i];
        if (p->busy)
            continue;
        if (p->pl && strcmp(p->spec, mc_game_spec(g)) == 0) {
            p->busy = 1;
            return p;
        }
        if (!p->pl && !free_slot)
            free_slot = p;
        if (p->pl && !idle)
            idle = p;
    }
    api_player *p = free_slot ? free_slot : idle;
    if (!p)
        return NULL;
    mc_player_free(p->pl);
    mc_player_opts o = {0};
    o.threads = mc_cores();
    o.book = a->book_off ? "none" : NULL;
    p->pl = mc_player_new(g, &o, NULL);
    if (!p->pl)
        return NULL;
    snprintf(p->spec, sizeof p->spec, "%s", mc_game_spec(g));
    p->busy = 1;
    return p;
}

/* Search the current game through a lent player without the lock held. */
static int search_copy(mc_api *a, game_entry *e, const mc_player_opts *o,
                       const mc_go *go, mc_search_info *info,
                       unsigned long *version, mc_api_reply *out)
{
    mc_session *s = cur_session(e);
    const mc_game *g0 = mc_record_game(cur_rec(e));
    if (mc_session_over(s)) {
        reply_error(out, 409, "over", "the game is over");
        return -1;
    }
    api_player *ap = lend_player(a, g0);
    if (!ap) {
        reply_error(out, 503, "busy",
                    "every computer player is thinking: try again");
        return -1;
    }
    /* The player copies the game now, under the lock. */
    if (mc_player_sync(ap->pl, s, NULL) != 0) {
        ap->busy = 0;
        reply_error(out, 500, "memory", "cannot copy the game");
        return -1;
    }
    *version = e->version;
    pthread_mutex_unlock(&a->lock);
    int rc = mc_player_set_opts(ap->pl, o, NULL);
    if (rc == 0)
        rc = mc_player_go(ap->pl, go, info);
    pthread_mutex_lock(&a->lock);
    ap->busy = 0;
    if (rc != 0) {
        reply_error(out, 409, "over", "the game is over");
        return -1;
    }
    if (e->version != *version) {
        reply_error(out, 409, "changed",
                    "the game changed while the engine was thinking");
        return -1;
    }
    return 0;
}

static int search_limits(json_t *j, mc_player_opts *o, mc_go *go,
                         mc_api_reply *out)
{
    double level = 3, seconds = 1, nodes = 0;
    if (opt_num(j, "level", 1, 10, &level, out) ||
        opt_num(j, "seconds", 0.01, MC_API_MAX_SECONDS, &seconds, out) ||
        opt_num(j, "nodes", 0, 1e9, &nodes, out))
        return -1;
    memset(o, 0, sizeof *o);
    memset(go, 0, sizeof *go);
    go->start = mc_clock(); /* the time counts from the request */
    o->level = (int)level;
    o->threads = mc_cores();
    o->seed = (uint64_t)time(NULL);
    go->nodes = (uint64_t)nodes;
    go->movetime = seconds; /* with nodes too: the first limit reached */
    return 0;
}

static void ep_engine(mc_api *a, game_entry *e, const char *body, size_t len,
                      int hint, mc_api_reply *out)
{
    static const char *const keys[] = {"level", "seconds", "nodes", NULL};
    json_t *j = parse_body(body, len, keys, out);
    if (!j)
        return;
    mc_player_opts o;
    mc_go go;
    int bad = search_limits(j, &o, &go, out);
    json_decref(j);
    if (bad)
        return;
    o.book = a->book_off ? "none" : NULL;
    o.book_variety = hint ? 0 : a->book_variety; /* a hint: the best */
    if (o.level == 10)
        o.seed = mc_rng_next(&a->rng); /* it only picks among book moves */
    mc_search_info info;
    unsigned long version;
    if (search_copy(a, e, &o, &go, &info, &version, out) != 0)
        return;
    const mc_game *g = mc_record_game(cur_rec(e));
    const mc_pos *p = mc_session_pos(cur_session(e));
    char tok[MC_MOVE_STRLEN];
    mc_move_format(g, p, info.best, tok, sizeof tok);
    json_t *extra = json_pack("{s:i,s:i,s:I,s:b}", "score", info.score,
                              "depth", info.depth, "nodes",
                              (json_int_t)info.nodes, "book", info.book);
    if (hint) {
        json_object_set_new(extra, "hint", json_string(tok));
        reply_state(out, 200, e, NULL, NULL, extra);
        return;
    }
    play_token(a, e, tok, out, extra);
}

static void ep_play(mc_api *a, game_entry *e, const char *body, size_t len,
                    mc_api_reply *out)
{
    static const char *const keys[] = {"move", "version", NULL};
    json_t *j = parse_body(body, len, keys, out);
    if (!j)
        return;
    const char *tok;
    double version = -1;
    if (opt_str(j, "move", &tok, MC_MOVE_STRLEN, out) ||
        opt_num(j, "version", 0, 9e15, &version, out)) {
        json_decref(j);
        return;
    }
    if (!tok) {
        reply_error(out, 400, "json", "'move' is required");
    } else if (version >= 0 && (unsigned long)version != e->version) {
        reply_error(out, 409, "changed",
                    "the game has changed since version %.0f (now %lu)",
                    version, e->version);
    } else {
        play_token(a, e, tok, out, NULL);
    }
    json_decref(j);
}

static void ep_undo_redo(mc_api *a, game_entry *e, int redo, mc_api_reply *out)
{
    mc_session *s = cur_session(e);
    int ok = redo ? mc_session_redo(s) : mc_session_undo(s);
    if (!ok) {
        reply_error(out, 409, redo ? "no_redo" : "no_undo",
                    redo ? "there is no move to redo" : "there is no move to undo");
        return;
    }
    e->version++;
    save_game(a, e);
    reply_state(out, 200, e, NULL, NULL, NULL);
}

static void ep_resign(mc_api *a, game_entry *e, const char *body, size_t len,
                      mc_api_reply *out)
{
    static const char *const keys[] = {"side", NULL};
    json_t *j = parse_body(body, len, keys, out);
    if (!j)
        return;
    const char *side;
    if (opt_str(j, "side", &side, 8, out)) {
        json_decref(j);
        return;
    }
    mc_session *s = cur_session(e);
    if (!side || (strcmp(side, "S") != 0 && strcmp(side, "N") != 0))
        reply_error(out, 400, "json", "'side' must be \"S\" or \"N\"");
    else if (mc_session_over(s))
        reply_error(out, 409, "over", "the game is over");
    else {
        mc_session_forfeit(s, side[0] == 'N', MC_END_RESIGN);
        e->version++;
        save_game(a, e);
        reply_state(out, 200, e, NULL, NULL, NULL);
    }
    json_decref(j);
}

static void ep_next(mc_api *a, game_entry *e, mc_api_reply *out)
{
    const mc_game *g = mc_record_game(cur_rec(e));
    mc_match m;
    match_of(e, &m);
    if (!mc_session_over(cur_session(e))) {
        reply_error(out, 409, "not_over", "the current game is not over");
        return;
    }
    if (!is_match(g) || m.winner >= 0) {
        reply_error(out, 409, "match_over", "the match is over");
        return;
    }
    mc_pos start;
    mc_match_start(g, &m, &start);
    mc_error err;
    mc_record *r = mc_record_new(mc_game_spec(g), &start, &err);
    if (!r || add_round(e, r) != 0) {
        mc_record_free(r);
        reply_error(out, 500, "memory", "out of memory");
        return;
    }
    set_date(r);
    const char *v;
    for (int i = 0; i < 2; i++)
        if ((v = mc_record_tag(e->recs[0], i ? "North" : "South")))
            mc_record_set_tag(r, i ? "North" : "South", v, NULL);
    char b[16];
    snprintf(b, sizeof b, "%d", e->n);
    mc_record_set_tag(r, "Round", b, NULL);
    e->version++;
    save_game(a, e);
    reply_state(out, 200, e, NULL, NULL, NULL);
}

static void ep_record(game_entry *e, mc_api_reply *out)
{
    size_t len;
    char *t = mc_records_format(e->recs, e->n, &len);
    if (!t) {
        reply_error(out, 500, "memory", "out of memory");
        return;
    }
    out->status = 200;
    out->type = "text/plain; charset=utf-8";
    out->body = t;
    out->len = len;
}

/* ---- routing ---------------------------------------------------------- */

static int is(const char *a, const char *b) { return strcmp(a, b) == 0; }

static void route(mc_api *a, const char *method, const char *path,
                  const char *body, size_t len, mc_api_reply *out)
{
    int get = is(method, "GET") || is(method, "HEAD"), post = is(method, "POST");
    if (is(path, "/api/games")) {
        if (!get)
            goto method;
        ep_games(out);
        return;
    }
    if (is(path, "/api/new") || is(path, "/api/load")) {
        if (!post)
            goto method;
        if (path[5] == 'n')
            ep_new(a, body, len, out);
        else
            ep_load(a, body, len, out);
        return;
    }
    if (strncmp(path, "/api/game/", 10) != 0) {
        reply_error(out, 404, "not_found", "no such endpoint: %.200s", path);
        return;
    }
    char id[ID_LEN + 1];
    const char *rest = path + 10, *slash = strchr(rest, '/');
    size_t idlen = slash ? (size_t)(slash - rest) : strlen(rest);
    if (idlen != ID_LEN) {
        reply_error(out, 404, "not_found", "no such game");
        return;
    }
    memcpy(id, rest, ID_LEN);
    id[ID_LEN] = 0;
    game_entry *e = valid_id(id) ? find_game(a, id) : NULL;
    if (!e) {
        reply_error(out, 404, "not_found", "no such game: %s",
                    valid_id(id) ? id : "(malformed id)");
        return;
    }
    const char *act = slash ? slash + 1 : "";
    if (is(act, "")) {
        if (!get)
            goto method;
        reply_state(out, 200, e, NULL, NULL, NULL);
        return;
    }
    if (is(act, "record")) {
        if (!get)
            goto method;
        ep_record(e, out);
        return;
    }
    if (!post) {
        if (is(act, "play") || is(act, "engine") || is(act, "hint") ||
            is(act, "undo") || is(act, "redo") || is(act, "resign") ||
            is(act, "next"))
            goto method;
        reply_error(out, 404, "not_found", "no such endpoint: %.200s", path);
        return;
    }
    if (is(act, "play"))
        ep_play(a, e, body, len, out);
    else if (is(act, "engine") || is(act, "hint"))
        ep_engine(a, e, body, len, act[0] == 'h', out);
    else if (is(act, "undo") || is(act, "redo"))
        ep_undo_redo(a, e, act[0] == 'r', out);
    else if (is(act, "resign"))
        ep_resign(a, e, body, len, out);
    else if (is(act, "next"))
        ep_next(a, e, out);
    else
        reply_error(out, 404, "not_found", "no such endpoint: %.200s", path);
    return;
method:
    reply_error(out, 405, "method", "%s is not allowed on %.200s", method, path);
}

void mc_api_handle(mc_api *a, const char *method, const char *path,
                   const char *body, size_t len, mc_api_reply *out)
{
    memset(out, 0, sizeof *out);
    if (len > MC_API_MAX_BODY) {
        reply_error(out, 413, "too_large", "the request body exceeds %d bytes",
                    MC_API_MAX_BODY);
        return;
    }
    if (body && memchr(body, 0, len)) {
        reply_error(out, 400, "json", "the request body contains a NUL byte");
        return;
    }
    pthread_mutex_lock(&a->lock);
    route(a, method, path, body, len, out);
    pthread_mutex_unlock(&a->lock);
}

/* ---- set-up ----------------------------------------------------------- */

static void load_dir(mc_api *a)
{
    DIR *d = opendir(a->dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        char id[ID_LEN + 1];
        if (strlen(de->d_name) != ID_LEN + 4 ||
            strcmp(de->d_name + ID_LEN, ".mcr") != 0)
            continue;
        memcpy(id, de->d_name, ID_LEN);
        id[ID_LEN] = 0;
        if (!valid_id(id) || find_game(a, id))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", a->dir, de->d_name);
        mc_record **recs;
        int n;
        mc_record_loc loc;
        mc_error err;
        if (mc_records_load(path, &recs, &n, &loc, &err) != 0) {
            fprintf(stderr, "mancala serve: %s: %s (skipped)\n", path, err.msg);
            continue;
        }
        game_entry *e = calloc(1, sizeof *e);
        if (n == 0 || !e || add_game(a, e) != 0) {
            free(e);
            mc_records_free(recs, n);
            continue;
        }
        memcpy(e->id, id, sizeof e->id);
        e->recs = recs;
        e->n = e->cap = n;
    }
    closedir(d);
}

mc_api *mc_api_new(const char *dir, mc_error *err)
{
    mc_api *a = calloc(1, sizeof *a);
    if (!a) {
        if (err)
            err->code = MC_ERR_IO, snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&a->lock, NULL);
    uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        uint64_t x;
        if (read(fd, &x, sizeof x) == (ssize_t)sizeof x)
            seed ^= x;
        close(fd);
    }
    mc_rng_seed(&a->rng, seed);
    a->book_variety = 20;
    if (dir) {
        a->dir = strdup(dir);
        if (!a->dir || (mkdir(dir, 0700) != 0 && errno != EEXIST)) {
            if (err) {
                err->code = MC_ERR_IO;
                snprintf(err->msg, sizeof err->msg, "cannot create %s: %s", dir,
                         strerror(errno));
            }
            mc_api_free(a);
            return NULL;
        }
        load_dir(a);
    }
    return a;
}

void mc_api_free(mc_api *a)
{
    if (!a)
        return;
    for (int i = 0; i < a->n; i++)
        entry_free(a->games[i]);
    for (int i = 0; i < API_PLAYERS; i++)
        mc_player_free(a->players[i].pl);
    free(a->games);
    free(a->dir);
    pthread_mutex_destroy(&a->lock);
    free(a);
}

void mc_api_set_book(mc_api *a, int on, int variety)
{
    pthread_mutex_lock(&a->lock);
    a->book_off = !on;
    a->book_variety = variety;
    pthread_mutex_unlock(&a->lock);
}

int mc_api_count(mc_api *a)
{
    pthread_mutex_lock(&a->lock);
    int n = a->n;
    pthread_mutex_unlock(&a->lock);
    return n;
}
