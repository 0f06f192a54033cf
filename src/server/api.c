/*
 * api.c - the JSON API of `mancala serve` (docs/API.md) over sessions and
 * records.  JSON is read and written with Jansson (Debian's libjansson):
 * strict parsing (duplicate keys refused, one value, nothing after it) with
 * line and column in its errors; every body must be an object and unknown
 * keys are refused.  A game is a list of records (the rounds of a match, one
 * record for a single game) and two seats; every change is committed to the
 * store (store.h) before it is answered.  Ids and seat tokens are 128 bits
 * from getrandom(2).  Locks: one for the table of games (lookups, counts),
 * one per game (its records and seats, held while a change is committed),
 * one for the computer players; never the table's while a game's is taken.
 * Front-end code: it never knows a rule, it asks the library for moves,
 * names, notation and traces.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api.h"
#include "store.h"
#include "../core/util.h"
#include "mancala_egdb.h"
#include "mancala_record.h"

#define ID_LEN MC_API_ID_LEN
#define TRACE_CAP 20000 /* events kept for a move's animation */
#define ADDR_LEN 64

typedef struct game_entry {
    char id[ID_LEN + 1];
    char addr[ADDR_LEN];     /* the creator's address (fixed) */
    struct game_entry *next; /* in its hash bucket (table lock) */
    int refs;                /* the table's and each request's (table lock) */
    int pending;             /* not yet committed: not found (table lock) */
    pthread_mutex_t lock;    /* everything below */
    int gone;                /* deleted or expired */
    int stale;               /* a change failed to commit: reload first */
    mc_record **recs;        /* the rounds; the last one is being played */
    int n, cap;
    unsigned long version;   /* bumped by every change (clients poll it) */
    char token[2][ID_LEN + 1];  /* per side; "" while the seat is free */
    char invite[2][ID_LEN + 1]; /* an open invitation to the seat, or "" */
    int owner;               /* bit s: the creator holds side s */
    /* A takeback asked for in a game between two people: the side that
       asked (-1: none) and whether the other declined; in memory only
       (a restart forgets it), cleared by every committed change. */
    int tb_side, tb_declined;
    long long created, touched;
    double now;              /* the time of the request being answered */
} game_entry;

/* The computer players: a few, kept between requests (each with its table
   and the endgame tables open), lent to one search at a time. */
#define API_PLAYERS 4

typedef struct api_player {
    mc_player *pl;
    char spec[MC_SPEC_STRLEN];
    int busy;
    int help;             /* lent to an analysis or a hint */
    char addr[ADDR_LEN];  /* ... for this address */
} api_player;

/* Sharing the computer players (issue 44): a search for a game's move may
   take any player; the engine's help (an analysis, a hint) at most one per
   address and API_PLAYERS - 1 in all, so that strangers' analyses never
   leave a game without a player.  A request waits its turn for a player
   (a move up to PLAYER_WAIT_MOVE seconds, help PLAYER_WAIT_HELP) rather
   than being turned away at once, and help thinks MC_API_MAX_HELP_SECONDS
   at most. */
#define PLAYER_WAIT_MOVE 10.0
#define PLAYER_WAIT_HELP 5.0

/* What each address did in the current minute: games created and CPU
   seconds of its requests (exact per address: RATE_SLOTS addresses a
   minute; beyond them an address is not counted, and the quota, the game
   limit and the per-request bounds still hold). */
#define RATE_SLOTS 1024
typedef struct rate_slot {
    char addr[ADDR_LEN];
    long long minute;
    int count;
    double work;
} rate_slot;

struct mc_api {
    mc_api_opts o;
    rate_slot rate[RATE_SLOTS]; /* table lock */
    mc_store *store;
    pthread_mutex_t table;  /* bucket, n, refs, pending, last_sweep */
    game_entry **bucket;
    size_t nbucket;         /* a power of two */
    int n;
    long long last_sweep;
    pthread_mutex_t players_lock; /* players, book_off, book_variety, stopping */
    pthread_cond_t player_freed;
    api_player players[API_PLAYERS];
    int book_off, book_variety;
    int stopping; /* the server is going down: no new search */
    _Atomic double fake_now; /* tests: the time instead of the real one */
    /* Live events: bumped and broadcast after every request, so that the
       streams waiting in mc_api_wait look at their game again. */
    pthread_mutex_t ev_lock;
    pthread_cond_t ev_cond;
    unsigned long ev_gen;
    int ev_stop;
};


/* ---- replies ---------------------------------------------------------- */

/* A JSON string of s with every byte that is not part of valid UTF-8 (a
   message cut in the middle of a character, a tag read from a file) turned
   into '?': Jansson refuses invalid UTF-8. */
static json_t *api_safe_str(const char *s)
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

static void api_reply_json(mc_api_reply *out, int status, json_t *j)
{
    out->status = status;
    out->type = "application/json";
    out->body = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(15));
    json_decref(j);
    if (!out->body) {
        out->status = 500;
        out->body = strdup("{\"error\":{\"code\":\"memory\","
                           "\"message\":\"out of memory\"}}");
    }
    out->len = out->body ? strlen(out->body) : 0;
}

static void api_reply_error(mc_api_reply *out, int status, const char *code,
                            const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void api_reply_error(mc_api_reply *out, int status, const char *code,
                            const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    api_reply_json(out, status,
                   json_pack("{s:{s:s,s:o}}", "error", "code", code, "message",
                             api_safe_str(msg)));
}

static const char *api_err_code(int code)
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
static json_t *api_parse_body(const char *body, size_t len,
                              const char *const *allowed, mc_api_reply *out)
{
    json_t *j;
    if (len == 0) {
        j = json_object();
    } else {
        json_error_t e;
        j = json_loadb(body, len, JSON_REJECT_DUPLICATES, &e);
        if (!j) {
            api_reply_error(out, 400, "json",
                            "bad JSON at line %d, column %d: %s", e.line,
                            e.column, e.text);
            return NULL;
        }
    }
    if (!json_is_object(j)) {
        json_decref(j);
        api_reply_error(out, 400, "json",
                        "the request body must be a JSON object");
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
            api_reply_error(out, 400, "json", "unknown key '%.100s'", key);
            json_decref(j);
            return NULL;
        }
    }
    return j;
}

/* An optional string member: 0 and *s (NULL if absent), or -1 after
   replying.  Strings may not hold NUL bytes. */
static int api_opt_str(json_t *j, const char *key, const char **s, size_t max,
                       mc_api_reply *out)
{
    json_t *v = json_object_get(j, key);
    *s = NULL;
    if (!v)
        return 0;
    if (!json_is_string(v) || strlen(json_string_value(v)) != json_string_length(v)) {
        api_reply_error(out, 400, "json", "'%s' must be a string", key);
        return -1;
    }
    if (json_string_length(v) > max) {
        api_reply_error(out, 400, "json", "'%s' is longer than %zu bytes", key, max);
        return -1;
    }
    *s = json_string_value(v);
    return 0;
}

/* An optional number member within [lo, hi]; *x keeps its default when
   absent. */
static int api_opt_num(json_t *j, const char *key, double lo, double hi,
                       double *x, mc_api_reply *out)
{
    json_t *v = json_object_get(j, key);
    if (!v)
        return 0;
    if (!json_is_number(v) || json_number_value(v) < lo ||
        json_number_value(v) > hi) {
        api_reply_error(out, 400, "json", "'%s' must be a number from %g to %g",
                        key, lo, hi);
        return -1;
    }
    *x = json_number_value(v);
    return 0;
}

/* ---- secrets ------------------------------------------------------------ */

/* 128 bits from the system's random source, in hex; -1 if it fails (never
   a weaker source). */
static int api_random_hex(char out[ID_LEN + 1])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char b[ID_LEN / 2];
    if (mc_system_random(b, sizeof b) != 0)
        return -1;
    for (size_t i = 0; i < sizeof b; i++) {
        out[2 * i] = hex[b[i] >> 4];
        out[2 * i + 1] = hex[b[i] & 15];
    }
    out[ID_LEN] = 0;
    return 0;
}

static uint64_t api_random_u64(void)
{
    uint64_t x = 0;
    if (mc_system_random(&x, sizeof x) != 0)
        x = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    return x;
}

/* Does token t equal the secret s?  In time independent of where they
   differ; an empty secret (a free seat) matches nothing. */
static int same_secret(const char *s, const char *t)
{
    if (!t || !s[0] || strlen(t) != ID_LEN)
        return 0;
    unsigned d = 0;
    for (int i = 0; i < ID_LEN; i++)
        d |= (unsigned char)(s[i] ^ t[i]);
    return d == 0;
}

static long long now_s(void) { return (long long)time(NULL); }

/* The clocks' time: seconds since 1970 with a fraction (a test's own time
   when it set one). */
static double clock_now(const mc_api *a)
{
    double fake = atomic_load(&a->fake_now);
    if (fake > 0)
        return fake;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- games ------------------------------------------------------------ */

static mc_record *cur_rec(const game_entry *e) { return e->recs[e->n - 1]; }
static mc_session *cur_session(const game_entry *e)
{
    return mc_record_session(cur_rec(e));
}

static int api_valid_id(const char *s)
{
    if (strlen(s) != ID_LEN)
        return 0;
    for (int i = 0; i < ID_LEN; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return 1;
}

static size_t bucket_of(const mc_api *a, const char *id)
{
    /* ids are random: their first 16 hex digits are a fine hash */
    uint64_t h = 0;
    for (int i = 0; i < 16; i++)
        h = h << 4 | (uint64_t)(id[i] <= '9' ? id[i] - '0' : id[i] - 'a' + 10);
    return (size_t)h & (a->nbucket - 1);
}

/* The entry of id in the table (the table lock held), pending ones too. */
static game_entry *api_table_find(mc_api *a, const char *id)
{
    for (game_entry *e = a->bucket[bucket_of(a, id)]; e; e = e->next)
        if (strcmp(e->id, id) == 0)
            return e;
    return NULL;
}

/* Add e to the table (lock held); -1 when out of memory. */
static int api_table_add(mc_api *a, game_entry *e)
{
    if ((size_t)a->n + 1 > a->nbucket) {
        size_t nb = a->nbucket * 2;
        game_entry **b = calloc(nb, sizeof *b);
        if (!b)
            return -1;
        game_entry **old = a->bucket;
        size_t on = a->nbucket;
        a->bucket = b;
        a->nbucket = nb;
        for (size_t i = 0; i < on; i++)
            for (game_entry *x = old[i], *nx; x; x = nx) {
                nx = x->next;
                size_t k = bucket_of(a, x->id);
                x->next = b[k];
                b[k] = x;
            }
        free(old);
    }
    size_t k = bucket_of(a, e->id);
    e->next = a->bucket[k];
    a->bucket[k] = e;
    a->n++;
    return 0;
}

static void api_entry_free(game_entry *e)
{
    if (!e)
        return;
    mc_records_free(e->recs, e->n);
    pthread_mutex_destroy(&e->lock);
    free(e);
}

/* Drop a reference (the table lock held); the last one frees. */
static void unref_locked(game_entry *e)
{
    if (--e->refs == 0)
        api_entry_free(e);
}

static void api_release(mc_api *a, game_entry *e)
{
    pthread_mutex_lock(&a->table);
    unref_locked(e);
    pthread_mutex_unlock(&a->table);
}

/* Take e out of the table (it stays alive while requests hold it). */
static void api_table_remove(mc_api *a, game_entry *e)
{
    pthread_mutex_lock(&a->table);
    game_entry **p = &a->bucket[bucket_of(a, e->id)];
    while (*p && *p != e)
        p = &(*p)->next;
    if (*p) {
        *p = e->next;
        a->n--;
        unref_locked(e);
    }
    pthread_mutex_unlock(&a->table);
}

/* The game id with a reference taken, or NULL. */
static game_entry *api_acquire(mc_api *a, const char *id)
{
    pthread_mutex_lock(&a->table);
    game_entry *e = api_table_find(a, id);
    if (e && e->pending)
        e = NULL;
    if (e)
        e->refs++;
    pthread_mutex_unlock(&a->table);
    return e;
}

static game_entry *api_entry_new(void)
{
    game_entry *e = calloc(1, sizeof *e);
    if (e) {
        pthread_mutex_init(&e->lock, NULL);
        e->refs = 1; /* the table's */
        e->tb_side = -1;
    }
    return e;
}

static int api_add_round(game_entry *e, mc_record *r)
{
    size_t cap = mc_grow(&e->recs, (size_t)e->cap, (size_t)e->n + 1,
                         sizeof *e->recs, 4);
    if (!cap)
        return -1;
    e->cap = (int)cap;
    e->recs[e->n++] = r;
    return 0;
}

/* The match as the finished rounds left it. */
static void api_match_of(const game_entry *e, mc_match *m)
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

static const char *const move_kinds[] = {
    [MC_MOVE_IS_SOW] = "sow",       [MC_MOVE_IS_OFFER] = "offer",
    [MC_MOVE_IS_ACCEPT] = "accept", [MC_MOVE_IS_REFUSE] = "refuse",
    [MC_MOVE_IS_PASS] = "pass"};

/* A move as the library describes it: its token, the pit it sows from,
   its kind, an offer's pits and price, a pass's reason. */
static json_t *api_move_json(const mc_game *g, const mc_pos *p, mc_move m)
{
    char buf[MC_MOVE_STRLEN];
    mc_move_format(g, p, m, buf, sizeof buf);
    mc_move_facts f;
    if (mc_move_facts_get(g, p, m, &f) != 0)
        return json_pack("{s:s,s:n,s:n,s:n,s:n,s:n}", "move", buf, "pit",
                         "kind", "price", "pits", "why");
    json_t *pits = json_null();
    if (f.kind == MC_MOVE_IS_OFFER || f.kind == MC_MOVE_IS_ACCEPT ||
        f.kind == MC_MOVE_IS_REFUSE) {
        pits = json_array();
        for (int i = 0; i < 32; i++)
            if (f.pits >> i & 1)
                json_array_append_new(pits, json_integer(i));
    }
    int priced = f.kind != MC_MOVE_IS_SOW && f.kind != MC_MOVE_IS_PASS;
    char choice[200];
    mc_move_choice(g, p, m, choice, sizeof choice);
    return json_pack("{s:s,s:o,s:s,s:o,s:o,s:o,s:o}", "move", buf, "pit",
                     f.pit >= 0 ? json_integer(f.pit) : json_null(), "kind",
                     move_kinds[f.kind],
                     "price", priced ? json_integer(f.price) : json_null(),
                     "pits", pits, "why",
                     f.kind == MC_MOVE_IS_PASS ? api_safe_str(f.why)
                                               : json_null(),
                     "choice", api_safe_str(choice));
}

static json_t *result_json(const mc_game *g, const mc_result *r)
{
    if (!r->over)
        return json_null();
    const char *why = mc_end_reason_name(r->reason);
    char text[512];
    mc_result_describe(g, r, text, sizeof text);
    return json_pack("{s:s,s:s,s:o,s:i,s:[f,f],s:o,s:b}", "winner",
                     r->winner == MC_SOUTH ? "S" : r->winner == MC_NORTH ? "N"
                                                                        : "draw",
                     "reason", why && *why ? why : "other",
                     "detail", api_safe_str(r->detail), "points", r->points, "score",
                     r->score2[0] / 2.0, r->score2[1] / 2.0, "text",
                     api_safe_str(text), "noglory", r->noglory);
}

/* The clocks at the time of the request: null for a game without a time
   control. */
static json_t *clock_json(const game_entry *e)
{
    mc_session *s = cur_session(e);
    mc_time_control tc;
    mc_session_time(s, &tc);
    if (tc.kind == MC_TIME_NONE && !tc.mode[0])
        return json_null();
    char ctl[64], text[256];
    mc_time_format(&tc, ctl, sizeof ctl);
    mc_time_describe(mc_record_game(cur_rec(e)), &tc, text, sizeof text);
    double left[2];
    int run = mc_session_clock(s, e->now, left);
    json_t *l = json_array();
    for (int i = 0; i < 2; i++) /* to the millisecond */
        json_array_append_new(l, left[i] < 0 ? json_null()
                                             : json_real(floor(left[i] * 1000 + 0.5) / 1000));
    return json_pack("{s:s,s:o,s:o,s:o,s:o,s:s,s:b}", "control", ctl, "left", l,
                     "running", run < 0 ? json_null() : json_string(run ? "N" : "S"),
                     "mode", tc.mode[0] ? json_string(tc.mode) : json_null(),
                     "on_flag", tc.kind == MC_TIME_NONE ? json_null()
                                : json_string(tc.on_flag == MC_FLAG_PASS ? "pass" : "loss"),
                     "text", text, "no_undo", tc.no_undo);
}

/* A position as the state and the review show it: its string, the side
   to move, the pits with their owners, the captures. */
static json_t *api_board_json(const mc_game *g, const mc_pos *p)
{
    char buf[MC_POS_STRLEN];
    mc_pos_format(g, p, buf, sizeof buf);
    json_t *pits = json_array(), *owner = json_array();
    for (int i = 0; i < mc_game_pits(g); i++) {
        json_array_append_new(pits, json_integer(p->pit[i]));
        json_array_append_new(owner,
                              json_string(mc_pit_owner(g, p, i) ? "N" : "S"));
    }
    return json_pack("{s:s,s:s,s:o,s:o,s:[i,i]}", "position", buf, "side",
                     p->side ? "N" : "S", "pits", pits, "owner", owner,
                     "captured", p->cap[0], p->cap[1]);
}

/* A custom set-up (Omweso W3): open before a game's first move until both
   players have arranged their seeds, the starter first, the other seeing
   it.  Who has arranged is kept in the record's "Arranged" tag ("S", "N",
   "SN"), so it survives a restart.  Returns the side whose turn it is to
   arrange, or -1 when no set-up is open. */
static int api_setup_turn(const game_entry *e)
{
    mc_record *rec = cur_rec(e);
    mc_session *s = mc_record_session(rec);
    if (!mc_game_custom_setup(mc_record_game(rec), NULL) ||
        mc_session_ply(s) != 0)
        return -1;
    const char *done = mc_record_tag(rec, "Arranged");
    int starter = mc_session_pos(s)->side;
    const char *names = "SN";
    for (int k = 0; k < 2; k++) {
        int side = k ? 1 - starter : starter;
        if (!done || !strchr(done, names[side]))
            return side;
    }
    return -1;
}

static int api_help_allowed(const game_entry *e);

static json_t *state_json(const game_entry *e)
{
    mc_record *rec = cur_rec(e);
    mc_session *s = mc_record_session(rec);
    const mc_game *g = mc_record_game(rec);
    const mc_pos *p = mc_session_pos(s);
    char buf[MC_POS_STRLEN + MC_SPEC_STRLEN];

    /* position, side, pits, owner, captured */
    json_t *st = api_board_json(g, p);
    json_object_set_new(st, "id", json_string(e->id));
    json_object_set_new(st, "version", json_integer((json_int_t)e->version));
    json_object_set_new(st, "game", json_string(mc_game_name(g)));
    json_object_set_new(st, "spec", json_string(mc_game_spec(g)));
    json_object_set_new(st, "ply", json_integer(mc_session_ply(s)));
    json_t *names = json_array();
    for (int i = 0; i < mc_game_pits(g); i++)
        json_array_append_new(names, json_string(mc_pit_name(g, i)));
    json_object_set_new(st, "names", names);

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
    for (int i = 0; i < n; i++)
        json_array_append_new(moves, api_move_json(g, p, mv[i]));
    json_object_set_new(st, "title", json_string(mc_game_title(g)));
    json_object_set_new(st, "unit", json_pack("[s,s]", mc_game_unit(g, 0),
                                              mc_game_unit(g, 1)));
    json_object_set_new(st, "moves", moves);
    /* The last move played: who played it and the pit it sowed from. */
    int ply = mc_session_ply(s);
    json_t *last = json_null();
    if (ply > 0) {
        const mc_pos *q = mc_session_pos_at(s, ply - 1);
        mc_move lm = mc_session_move_at(s, ply - 1);
        mc_move_format(g, q, lm, buf, sizeof buf);
        int pit = mc_move_pit(g, q, lm);
        last = json_pack("{s:s,s:s,s:o}", "move", buf, "side",
                         q->side ? "N" : "S", "pit",
                         pit >= 0 ? json_integer(pit) : json_null());
    }
    json_object_set_new(st, "last", last);

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
    json_object_set_new(st, "result", result_json(g, &r));
    json_object_set_new(st, "clock", clock_json(e));

    json_t *tags = json_object();
    const char *tn, *tv;
    for (int i = 0; mc_record_tag_at(rec, i, &tn, &tv); i++)
        json_object_set_new(tags, tn, api_safe_str(tv));
    json_object_set_new(st, "tags", tags);
    /* A takeback asked for (games between two people). */
    json_object_set_new(st, "takeback",
                        e->tb_side < 0 ? json_null()
                                       : json_pack("{s:s,s:s}", "by", e->tb_side ? "N" : "S",
                                                   "status", e->tb_declined ? "declined" : "asked"));
    /* Whether the engine's help (hints, evaluations) is open to the
       players now. */
    json_object_set_new(st, "help", json_boolean(api_help_allowed(e)));
    /* Whether each seat is taken (never its token). */
    json_object_set_new(st, "seats",
                        json_pack("{s:s,s:s}", "S", e->token[0][0] ? "taken" : "open",
                                  "N", e->token[1][0] ? "taken" : "open"));

    /* A custom set-up (Omweso W3) is open until the first move: the
       editor of the page learns the most seeds a pit may get (null: any). */
    int cap = 0, turn = api_setup_turn(e);
    mc_game_custom_setup(g, &cap);
    json_object_set_new(
        st, "setup",
        turn < 0 ? json_null()
                 : json_pack("{s:s,s:o}", "turn", turn ? "N" : "S", "cap",
                             cap > 0 ? json_integer(cap) : json_null()));

    mc_match m;
    api_match_of(e, &m);
    mc_match_describe(g, &m, buf, sizeof buf);
    json_object_set_new(
        st, "match",
        json_pack("{s:b,s:i,s:[i,i],s:i,s:i,s:s,s:o,s:s}", "on", mc_game_is_match(g),
                  "round", e->n, "wins", m.wins[0], m.wins[1], "draws", m.draws,
                  "games", m.games, "next_first", m.next_first ? "N" : "S",
                  "winner",
                  m.winner < 0 ? json_null()
                               : json_string(m.winner ? "N" : "S"),
                  "score", buf));
    return st;
}

static json_t *api_trace_json(const mc_game *g, const mc_trace *tr)
{
    json_t *a = json_array();
    char buf[256];
    for (size_t i = 0; i < tr->len; i++) {
        const mc_trace_event *ev = &tr->ev[i];
        const char *kind = mc_trace_kind_name(ev->kind);
        mc_trace_describe(g, ev, buf, sizeof buf);
        json_array_append_new(
            a, json_pack("{s:s,s:i,s:i,s:i,s:o}", "kind",
                         kind ? kind : "other",
                         "pit", ev->pit, "aux", ev->aux, "n", (json_int_t)ev->n,
                         "text", api_safe_str(buf)));
    }
    return a;
}

/* The whole move in words (mc_move_explain), the same sentence the
   program's play and replay print: the page logs it. */
static json_t *api_explain_json(const mc_game *g, const mc_pos *before,
                                mc_move m, const mc_trace *tr)
{
    size_t n = mc_move_explain(g, before, m, tr, NULL, 0) + 1;
    char *buf = malloc(n);
    if (!buf)
        return json_null();
    mc_move_explain(g, before, m, tr, buf, n);
    json_t *j = api_safe_str(buf);
    free(buf);
    return j ? j : json_null();
}

/* The state, with the move just played and its trace when given. */
static void api_reply_state(mc_api_reply *out, int status, const game_entry *e,
                            const char *move, const mc_trace *tr, json_t *extra)
{
    json_t *j = json_pack("{s:o}", "state", state_json(e));
    if (move)
        json_object_set_new(j, "move", json_string(move));
    if (tr) {
        json_object_set_new(j, "trace", api_trace_json(mc_record_game(cur_rec(e)), tr));
        json_object_set_new(j, "trace_dropped", json_integer((json_int_t)tr->dropped));
    }
    if (extra)
        json_object_update(j, extra), json_decref(extra);
    api_reply_json(out, status, j);
}

static void api_set_date(mc_record *r)
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
static void api_set_time(mc_api *a, mc_record *r, const mc_time_control *tc)
{
    char t[64];
    mc_time_format(tc, t, sizeof t);
    mc_record_set_tag(r, "TimeControl",
                      tc->kind == MC_TIME_NONE && !tc->mode[0] ? NULL : t, NULL);
    mc_session_set_time(mc_record_session(r), tc, clock_now(a));
}

/* Reading a record for a game: its rounds, at most MC_API_MAX_ROUNDS. */
typedef struct rounds {
    mc_record **recs;
    int n, cap;
} rounds;

#define TOO_MANY_ROUNDS (-100)

static int take_round(void *ctx, mc_record *r)
{
    rounds *c = ctx;
    if (c->n >= MC_API_MAX_ROUNDS) {
        mc_record_free(r);
        return TOO_MANY_ROUNDS;
    }
    size_t nc = mc_grow(&c->recs, (size_t)c->cap, (size_t)c->n + 1,
                        sizeof *c->recs, 4);
    if (!nc) {
        mc_record_free(r);
        return MC_ERR_ARG;
    }
    c->cap = (int)nc;
    c->recs[c->n++] = r;
    return 0;
}

/* The rounds of text (or of the file path when text is NULL) in *recs,
   *n; 0, or -1 with err filled (nothing to free). */
static int api_read_rounds(const char *text, const char *path,
                           mc_record ***recs, int *n, mc_error *err)
{
    rounds c = {NULL, 0, 0};
    mc_record_loc loc;
    int rc = text ? mc_records_scan(text, strlen(text), take_round, &c, &loc, err)
                  : mc_records_scan_file(path, take_round, &c, &loc, err);
    if (rc == 0 && c.n == 0) {
        snprintf(err->msg, sizeof err->msg, "the record holds no game");
        rc = -1;
    } else if (rc == TOO_MANY_ROUNDS) {
        snprintf(err->msg, sizeof err->msg,
                 "a game here is one match of at most %d games; this record "
                 "holds more (load its games one by one)", MC_API_MAX_ROUNDS);
    } else if (rc != 0 && !err->msg[0]) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
    }
    if (rc != 0) {
        mc_records_free(c.recs, c.n);
        return -1;
    }
    *recs = c.recs;
    *n = c.n;
    return 0;
}

/* Over for good: the game, and the match when it is one. */
static int api_game_finished(const game_entry *e)
{
    if (!mc_session_over(cur_session(e)))
        return 0;
    if (!mc_game_is_match(mc_record_game(cur_rec(e))))
        return 1;
    mc_match m;
    api_match_of(e, &m);
    return m.winner >= 0;
}

/* Commit e as it is now (the game's lock held).  On failure the memory is
   ahead of the store: the game is marked stale (reloaded from the store
   before its next use), the reply is the io error and -1 returned. */
static void api_clock_of(const game_entry *e, mc_store_clock *c)
{
    mc_session_clock_state(cur_session(e), c->bank, &c->since);
}

/* ---- the rules' work of a request ------------------------------------

   Each request's thread works under a limit (mc_work_limit_set): the rules
   stop short at it, and whatever they answered since is thrown away: a
   change is not kept, a reply is replaced by 503 costly.  A search gets its
   own seconds on top (api_player_go); the CPU a request took apart from its
   searches is counted against its address (mc_api_handle). */
static _Thread_local double tl_search_cpu;

static double thread_cpu(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void api_reply_costly(const mc_api *a, mc_api_reply *out)
{
    free(out->body);
    memset(out, 0, sizeof *out);
    api_reply_error(out, 503, "costly",
                    "working out this request's moves took longer than the "
                    "server allows one request (%g s); nothing was changed",
                    a->o.work);
}

/* Before a change is kept: the rule work its reply needs (the moves of the
   position now) done within the request's limit.  0, or -1 after replying
   503 costly. */
static int api_costly(const mc_api *a, game_entry *e, mc_api_reply *out)
{
    mc_move mv[MC_MAX_MOVES];
    (void)mc_session_moves(cur_session(e), mv);
    if (!mc_work_limit_hit())
        return 0;
    api_reply_costly(a, out);
    return -1;
}

/* mc_player_go with the search's own seconds added to the request's work
   limit, and its CPU kept apart from the request's.  sure: a search that
   finished no iteration within its time (a new player's table made, a
   loaded machine, a long root) searches one ply more, so that the answer
   is never a blind move. */
static int api_player_go(const mc_api *a, api_player *ap, const mc_go *go,
                         int sure, mc_search_info *info)
{
    double limit = mc_work_limit(), cpu = thread_cpu();
    if (!mc_work_limit_hit())
        mc_work_limit_set(mc_now() + a->o.work +
                          (go->movetime > 0 ? go->movetime : 0));
    int rc = mc_player_go(ap->pl, go, info);
    if (sure && rc == 0 && info->depth == 0 && !info->book &&
        !info->solved && !mc_work_limit_hit()) {
        mc_go one;
        memset(&one, 0, sizeof one);
        one.depth = 1;
        rc = mc_player_go(ap->pl, &one, info);
    }
    int hit = mc_work_limit_hit();
    if (!hit)
        mc_work_limit_set(limit > 0 ? mc_now() + a->o.work : 0);
    tl_search_cpu += thread_cpu() - cpu;
    return hit ? MC_ERR_ARG : rc;
}

static int api_commit(mc_api *a, game_entry *e, mc_api_reply *out)
{
    if (api_costly(a, e, out) != 0) {
        e->stale = 1; /* the memory is ahead: back to the store's */
        return -1;
    }
    size_t len;
    char *t = mc_records_format(e->recs, e->n, &len);
    mc_error err = {MC_ERR_IO, "out of memory"};
    long long now = now_s();
    mc_store_clock clock;
    api_clock_of(e, &clock);
    if (t && mc_store_update(a->store, e->id, t, (long long)e->version,
                             api_game_finished(e), now, &clock, &err) == 0) {
        free(t);
        e->touched = now;
        e->tb_side = -1; /* a change answers any takeback asked for */
        e->tb_declined = 0;
        return 0;
    }
    free(t);
    e->stale = 1;
    fprintf(stderr, "mancala serve: game %s: %s\n", e->id, err.msg);
    api_reply_error(out, 503, "io", "the change was not saved (%s); try again",
                    err.msg);
    return -1;
}

/* Bring a stale game back to what the store holds; -1 after replying. */
static int api_reload(mc_api *a, game_entry *e, mc_api_reply *out)
{
    char *t;
    long long version;
    mc_error err;
    mc_store_clock clock;
    int rc = mc_store_get(a->store, e->id, &t, &version, &clock, &err);
    mc_record **recs = NULL;
    int n = 0;
    if (rc == 0 && api_read_rounds(t, NULL, &recs, &n, &err) != 0)
        rc = -1;
    free(t);
    if (rc != 0) {
        api_reply_error(out, 503, "io", "the game cannot be read back from the "
                                        "store: try again");
        return -1;
    }
    mc_records_free(e->recs, e->n);
    e->recs = recs;
    e->n = e->cap = n;
    e->version = (unsigned long)version;
    e->stale = 0;
    if (clock.known)
        mc_session_clock_restore(cur_session(e), clock.bank, clock.since);
    return 0;
}

/* Does the request's token hold side? */
static int api_holds(const game_entry *e, const char *tok, int side)
{
    return same_secret(e->token[side], tok);
}

static int api_holds_any(const game_entry *e, const char *tok)
{
    return api_holds(e, tok, 0) | api_holds(e, tok, 1);
}

/* A game between two people: the creator took one seat, the other is (or
   will be) someone else's.  The engine's help (hints, evaluations of the
   game's positions) is off there until the game ends, unless the game was
   made with "assist": true (the first round's Assist tag). */
static int api_help_allowed(const game_entry *e)
{
    const char *t = mc_record_tag(e->recs[0], "Assist");
    return e->owner == 3 || (t && strcmp(t, "on") == 0) ||
           mc_session_over(cur_session(e));
}

static int api_help_refused(const game_entry *e, mc_api_reply *out)
{
    if (api_help_allowed(e))
        return 0;
    api_reply_error(out, 403, "assist",
                    "the engine's help is off in a game between two people until "
                    "it ends (unless the game was made with \"assist\": true)");
    return 1;
}

static void api_deny(mc_api_reply *out, const char *tok, const char *what)
{
    api_reply_error(out, 403, "seat", "%s needs the token of %s (%s)", "this",
                    what, tok ? "the token sent is not it" : "none was sent");
}

static const char *api_side_seat(int side)
{
    return side ? "North's seat" : "South's seat";
}

/* The game is over: why, in the library's words. */
static void over_error(mc_api_reply *out, const mc_session *s)
{
    mc_result r;
    mc_session_result(s, &r);
    api_reply_error(out, 409, "over", "the game is over (%s)", r.detail);
}

/* side's flag fell before its move arrived. */
static void time_ran_out(mc_api_reply *out, const mc_session *s, int side)
{
    if (mc_session_over(s))
        over_error(out, s);
    else
        api_reply_error(out, 409, "time",
                        "%s's time ran out before the move arrived: the turn "
                        "passed", side ? "North" : "South");
}

/* Play a move token on the game, with its trace; replies. */
static void api_play_token(mc_api *a, game_entry *e, const char *tok,
                           mc_api_reply *out, json_t *extra)
{
    mc_session *s = cur_session(e);
    mc_trace tr = {NULL, TRACE_CAP, 0, 0};
    tr.ev = malloc(TRACE_CAP * sizeof *tr.ev);
    if (!tr.ev) {
        json_decref(extra);
        api_reply_error(out, 500, "memory", "out of memory");
        return;
    }
    const mc_game *g = mc_record_game(cur_rec(e));
    char canon[MC_MOVE_STRLEN];
    mc_error err;
    mc_move m;
    /* The move's time is now (after an engine's search: its thinking
       counts); a flag that fell meanwhile is applied and kept first. */
    e->now = clock_now(a);
    int side = mc_session_pos(s)->side;
    if (mc_session_check_time(s, e->now)) {
        json_decref(extra);
        free(tr.ev);
        e->version++;
        if (api_commit(a, e, out) == 0)
            time_ran_out(out, s, side);
        return;
    }
    mc_pos before = *mc_session_pos(s);
    int arranging = api_setup_turn(e);
    if (mc_session_over(s)) {
        json_decref(extra);
        over_error(out, s);
    } else if (arranging >= 0) {
        json_decref(extra);
        api_reply_error(out, 409, "setup", "the set-up is not finished: %s "
                        "arranges its seeds first (W3)", arranging ? "North" : "South");
    } else if (mc_move_parse(g, &before, tok, &m, &err) != 0) {
        json_decref(extra);
        api_reply_error(out, 422, api_err_code(err.code), "%s", err.msg);
    } else if (mc_session_play_at(s, m, e->now, &tr, &err) != 0) {
        json_decref(extra);
        api_reply_error(out, 422, api_err_code(err.code), "%s", err.msg);
    } else {
        mc_move_format(g, &before, m, canon, sizeof canon);
        if (!extra)
            extra = json_object();
        json_object_set_new(extra, "explain",
                            api_explain_json(g, &before, m, &tr));
        e->version++;
        if (api_commit(a, e, out) == 0)
            api_reply_state(out, 200, e, canon, &tr, extra);
        else
            json_decref(extra);
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
        json_t *modes = json_array();
        const char *mh;
        for (int i = 0; mc_time_mode(g, i, &mh); i++)
            json_array_append_new(modes,
                                  json_pack("{s:s,s:s}", "name",
                                            mc_time_mode(g, i, NULL), "text", mh));
        json_array_append_new(list, json_pack("{s:s,s:s,s:s,s:o}", "name", *n,
                                              "title", mc_game_title(g),
                                              "options", help, "time_modes",
                                              modes));
        mc_game_free(g);
    }
    api_reply_json(out, 200, json_pack("{s:o,s:s,s:[s,s,s]}", "games", list,
                                       "version", mc_version(), "time_forms",
                                       "none", "move:SECONDS",
                                       "game:SECONDS+INCREMENT"));
}

/* addr's slot of the current minute (the table lock held): its own, past
   the slots of other addresses of this minute; a slot of an earlier minute
   is free.  NULL when every slot is taken this minute. */
static rate_slot *api_rate_of(mc_api *a, const char *addr)
{
    unsigned h = 2166136261u;
    for (const char *c = addr; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    long long minute = now_s() / 60;
    for (int k = 0; k < RATE_SLOTS; k++) {
        rate_slot *x = &a->rate[(h + (unsigned)k) % RATE_SLOTS];
        if (x->minute != minute) {
            x->minute = minute;
            x->count = 0;
            x->work = 0;
            snprintf(x->addr, sizeof x->addr, "%s", addr);
            return x;
        }
        if (strcmp(x->addr, addr) == 0)
            return x;
    }
    return NULL;
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
                    "'seats' must be \"both\", \"S\" or \"N\"");
    return 0;
}

/* Keep a new game of n records (taken over; freed on failure), created by
   addr holding the seats of mask: ids and tokens drawn, limits checked,
   committed, then visible.  Replies 201 with the creator's token and the
   invitation to the other seat.  quota: count it against addr's quota. */
static game_entry *create_game(mc_api *a, mc_record **recs, int n, int mask,
                               const char *addr, int quota,
                               mc_api_reply *out)
{
    pthread_mutex_lock(&a->table);
    int sweep = now_s() - a->last_sweep >= 60;
    pthread_mutex_unlock(&a->table);
    if (sweep)
        mc_api_expire(a, now_s());
    game_entry *e = api_entry_new();
    if (!e) {
        mc_records_free(recs, n);
        api_reply_error(out, 500, "memory", "out of memory");
        return NULL;
    }
    e->recs = recs;
    e->n = e->cap = n;
    snprintf(e->addr, sizeof e->addr, "%s", addr ? addr : "");
    e->owner = mask;
    e->created = e->touched = now_s();
    e->now = clock_now(a);
    char tok[ID_LEN + 1];
    if (api_random_hex(tok) != 0 ||
        api_random_hex(e->invite[mask == 1 ? 1 : 0]) != 0) {
        api_entry_free(e);
        api_reply_error(out, 503, "io", "no random numbers from the system");
        return NULL;
    }
    for (int s = 0; s < 2; s++)
        if (mask >> s & 1)
            memcpy(e->token[s], tok, sizeof tok);
    if (mask == 3)
        e->invite[0][0] = 0;
    if (api_costly(a, e, out) != 0) {
        api_entry_free(e);
        return NULL;
    }
    /* A place in the table, under the limits. */
    pthread_mutex_lock(&a->table);
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
    pthread_mutex_unlock(&a->table);
    if (ok != 1) {
        api_entry_free(e);
        if (full)
            api_reply_error(out, 503, "full",
                            "this server holds %d games already",
                            a->o.max_games);
        else if (fast)
            api_reply_error(out, 429, "rate",
                            "your address made %d games this minute: wait a "
                            "little", a->o.rate);
        else if (ok == 0)
            api_reply_error(out, 429, "quota",
                            "your address holds %d games already: finish or "
                            "delete one", a->o.quota);
        else
            api_reply_error(out, 500, "memory", "out of memory");
        return NULL;
    }
    size_t len;
    char *t = mc_records_format(e->recs, e->n, &len);
    mc_store_game sg = {e->id, t, e->addr, 0, e->created, e->touched,
                        api_game_finished(e),
                        {e->token[0][0] ? e->token[0] : NULL,
                         e->token[1][0] ? e->token[1] : NULL},
                        {e->invite[0][0] ? e->invite[0] : NULL,
                         e->invite[1][0] ? e->invite[1] : NULL},
                        e->owner, {{0, 0}, -1, 1}};
    api_clock_of(e, &sg.clock);
    mc_error err = {MC_ERR_IO, "out of memory"};
    if (!t || mc_store_insert(a->store, &sg, &err) != 0) {
        free(t);
        fprintf(stderr, "mancala serve: a new game: %s\n", err.msg);
        api_table_remove(a, e); /* frees it */
        api_reply_error(out, 503, "io", "the game was not saved (%s)", err.msg);
        return NULL;
    }
    free(t);
    char sides[3] = "";
    if (mask & 1)
        strcat(sides, "S");
    if (mask & 2)
        strcat(sides, "N");
    json_t *extra = json_pack("{s:s,s:s}", "token", tok, "sides", sides);
    int other = mask == 1 ? 1 : 0;
    if (mask != 3)
        json_object_set_new(
            extra, "invite",
            json_pack("{s:s,s:s}", "side", other ? "N" : "S", "code",
                      e->invite[other]));
    else
        json_object_set_new(extra, "invite", json_null());
    api_reply_state(out, 201, e, NULL, NULL, extra);
    pthread_mutex_lock(&a->table);
    e->pending = 0;
    pthread_mutex_unlock(&a->table);
    return e;
}

static void ep_new(mc_api *a, const mc_api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"game", "position", "south", "north",
                                       "seats", "time", "assist", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    const char *spec, *pos, *names[2], *time_text;
    int mask;
    if (api_opt_str(j, "game", &spec, MC_SPEC_STRLEN, out) ||
        api_opt_str(j, "position", &pos, 1024, out) ||
        api_opt_str(j, "time", &time_text, 100, out) ||
        api_opt_str(j, "south", &names[0], 200, out) ||
        api_opt_str(j, "north", &names[1], 200, out) || !(mask = seats_of(j, out))) {
        json_decref(j);
        return;
    }
    if (!spec) {
        json_decref(j);
        api_reply_error(out, 400, "json",
                        "'game' is required (e.g. \"oware\")");
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
        if (names[i] && mc_record_set_tag(r, i ? "North" : "South", names[i],
                                          &err) != 0) {
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
        api_reply_error(out, 400, "json", "'assist' must be true or false");
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
        api_reply_error(out, 500, "memory", "out of memory");
        return;
    }
    recs[0] = r;
    create_game(a, recs, 1, mask, rq->addr, 1, out);
}

static void ep_load(mc_api *a, const mc_api_req *rq, mc_api_reply *out)
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
        api_reply_error(out, 400, "json", "'record' is required");
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
    create_game(a, recs, n, mask, rq->addr, 1, out);
}

/* Take the seat of an invitation: its token is drawn and returned. */
static void ep_join(mc_api *a, game_entry *e, const mc_api_req *rq,
                    mc_api_reply *out)
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
    int side = -1;
    for (int s = 0; s < 2; s++)
        if (code && same_secret(e->invite[s], code))
            side = s;
    json_decref(j);
    char tok[ID_LEN + 1];
    mc_error err;
    if (side < 0) {
        api_reply_error(out, 403, "seat",
                        "no open invitation to this game has that code (was it "
                        "used already?)");
    } else if (api_random_hex(tok) != 0) {
        api_reply_error(out, 503, "io", "no random numbers from the system");
    } else if (mc_store_seat(a->store, e->id, side, tok, now_s(), &err) != 0) {
        api_reply_error(out, 503, "io", "the seat was not saved (%s)", err.msg);
    } else {
        memcpy(e->token[side], tok, sizeof tok);
        e->invite[side][0] = 0;
        e->touched = now_s();
        e->version++; /* the other browser sees the seat taken */
        api_reply_state(out, 200, e, NULL, NULL,
                        json_pack("{s:s,s:s}", "token", tok, "side",
                                  side ? "N" : "S"));
    }
}

/* A player for game g that no other search uses (players_lock held): one
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

/* A computer player for g, or NULL after answering 503 busy. */
/* May this request take a player now (players_lock held)? */
static int may_take(const mc_api *a, int help, const char *addr)
{
    if (!help)
        return 1;
    int total = 0, mine = 0;
    for (int i = 0; i < API_PLAYERS; i++)
        if (a->players[i].busy && a->players[i].help) {
            total++;
            mine += strcmp(a->players[i].addr, addr) == 0;
        }
    return total < API_PLAYERS - 1 && mine == 0;
}

/* A player for one search: help (an analysis, a hint) or a game's move,
   for addr; waits its turn (the caller may hold a game's lock: only
   briefly).  NULL with the answer in out. */
static api_player *borrow_player(mc_api *a, const mc_game *g, int help,
                                 const char *addr, mc_api_reply *out)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    double wait = help ? PLAYER_WAIT_HELP : PLAYER_WAIT_MOVE;
    long long ns = until.tv_nsec + (long long)(wait * 1e9);
    until.tv_sec += (time_t)(ns / 1000000000);
    until.tv_nsec = (long)(ns % 1000000000);
    if (!addr)
        addr = "";
    pthread_mutex_lock(&a->players_lock);
    api_player *ap = NULL;
    int timed_out = 0;
    while (!a->stopping && !timed_out &&
           !(may_take(a, help, addr) && (ap = lend_player(a, g))))
        timed_out = pthread_cond_timedwait(&a->player_freed, &a->players_lock,
                                           &until) != 0;
    if (ap) {
        ap->help = help;
        snprintf(ap->addr, sizeof ap->addr, "%s", addr);
    }
    int stopping = a->stopping;
    pthread_mutex_unlock(&a->players_lock);
    if (!ap)
        api_reply_error(out, 503, "busy",
                        stopping ? "the server is stopping"
                        : help   ? "the engine's help is in use (yours, or every "
                                   "player it may have): try again"
                                 : "every computer player is thinking: try again");
    return ap;
}

int mc_api_searching(mc_api *a)
{
    pthread_mutex_lock(&a->players_lock);
    int n = 0;
    for (int i = 0; i < API_PLAYERS; i++)
        n += a->players[i].busy;
    pthread_mutex_unlock(&a->players_lock);
    return n;
}

void mc_api_stop_searches(mc_api *a)
{
    pthread_mutex_lock(&a->players_lock);
    a->stopping = 1;
    pthread_cond_broadcast(&a->player_freed);
    for (int i = 0; i < API_PLAYERS; i++)
        if (a->players[i].busy && a->players[i].pl)
            mc_player_stop(a->players[i].pl);
    pthread_mutex_unlock(&a->players_lock);
}

static void give_back(mc_api *a, api_player *ap)
{
    pthread_mutex_lock(&a->players_lock);
    ap->busy = 0;
    ap->help = 0;
    pthread_cond_broadcast(&a->player_freed);
    pthread_mutex_unlock(&a->players_lock);
}

/* Search the current game through a lent player without the game's lock
   held (other requests on it go on; a change meanwhile makes it 409). */
/* The search modes of search_copy. */
enum {
    SEARCH_HELP = 1, /* the engine's help (a hint, an analysis): its share */
    SEARCH_SURE = 2, /* never a blind move (api_player_go's sure) */
    SEARCH_OWN_CLOCK = 4 /* the time counts once a player is ready (an
                            analysis), not from the request (a move) */
};

/* Search s (the game's session, or a copy of it at an earlier ply) of game
   e, whose lock is held, through a lent player without the lock held
   (other requests on the game go on; a change meanwhile makes it 409).
   0, or -1 after replying. */
static int search_copy(mc_api *a, game_entry *e, const mc_session *s,
                       const mc_player_opts *o, mc_go *go, int mode,
                       const char *addr, mc_search_info *info,
                       mc_api_reply *out)
{
    const mc_game *g0 = mc_record_game(cur_rec(e));
    if (mc_session_over(s)) {
        api_reply_error(out, 409, "over", "the game is over");
        return -1;
    }
    api_player *ap = borrow_player(a, g0, mode & SEARCH_HELP, addr, out);
    if (!ap)
        return -1;
    /* The player copies the game now, under the game's lock. */
    if (mc_player_sync(ap->pl, s, NULL) != 0) {
        give_back(a, ap);
        api_reply_error(out, 500, "memory", "cannot copy the game");
        return -1;
    }
    unsigned long version = e->version;
    pthread_mutex_unlock(&e->lock);
    int rc = mc_player_set_opts(ap->pl, o, NULL);
    if (mode & SEARCH_OWN_CLOCK)
        go->start = mc_clock(); /* waiting, or a new player's table, do
                                   not eat the search's time */
    if (rc == 0)
        rc = api_player_go(a, ap, go, (mode & SEARCH_SURE) != 0, info);
    give_back(a, ap);
    pthread_mutex_lock(&e->lock);
    if (e->gone) {
        api_reply_error(out, 404, "not_found",
                        "the game was deleted meanwhile");
        return -1;
    }
    if (rc == MC_ERR_OVER) {
        api_reply_error(out, 409, "over", "the game is over");
        return -1;
    }
    if (rc != 0) {
        api_reply_error(out, 500, "memory", "the engine could not search");
        return -1;
    }
    if (e->version != version || e->stale) {
        api_reply_error(out, 409, "changed",
                        "the game changed while the engine was thinking");
        return -1;
    }
    return 0;
}

static int search_limits(json_t *j, mc_player_opts *o, mc_go *go,
                         mc_api_reply *out)
{
    double level = 3, seconds = 1, nodes = 0;
    if (api_opt_num(j, "level", 1, 10, &level, out) ||
        api_opt_num(j, "seconds", 0.01, MC_API_MAX_SECONDS, &seconds, out) ||
        api_opt_num(j, "nodes", 0, 1e9, &nodes, out))
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

static void ep_engine(mc_api *a, game_entry *e, const mc_api_req *rq, int hint,
                      mc_api_reply *out)
{
    static const char *const keys[] = {"level", "seconds", "nodes", NULL};
    /* The engine plays for the side to move; a hint is for a seat holder
       (a search costs the server: spectators do not get one). */
    int side = mc_session_pos(cur_session(e))->side;
    if (hint ? !api_holds_any(e, rq->token) : !api_holds(e, rq->token, side)) {
        api_deny(out, rq->token, hint ? "a seat" : api_side_seat(side));
        return;
    }
    if (hint && api_help_refused(e, out))
        return;
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    mc_player_opts o;
    mc_go go;
    int bad = search_limits(j, &o, &go, out);
    json_decref(j);
    if (bad)
        return;
    pthread_mutex_lock(&a->players_lock);
    o.book = a->book_off ? "none" : NULL;
    o.book_variety = hint ? 0 : a->book_variety; /* a hint: the best */
    pthread_mutex_unlock(&a->players_lock);
    if (o.level == 10)
        o.seed = api_random_u64(); /* it only picks among book moves */
    if (!hint) {
        /* The engine's thinking counts on its clock: it never oversteps
           (a move's time: 4/5 of it; a game's: a twentieth, and most of
           the increment). */
        mc_session *s = cur_session(e);
        mc_time_control tc;
        double left[2];
        mc_session_time(s, &tc);
        int run = mc_session_clock(s, e->now, left);
        if (run >= 0) {
            double cap = tc.kind == MC_TIME_MOVE
                             ? 0.8 * left[run]
                             : left[run] / 20 + 0.8 * tc.increment;
            if (cap > 0.8 * left[run])
                cap = 0.8 * left[run];
            if (cap < 0.01)
                cap = 0.01;
            if (go.movetime > cap)
                go.movetime = cap;
        }
    }
    mc_search_info info;
    if (hint && go.movetime > MC_API_MAX_HELP_SECONDS)
        go.movetime = MC_API_MAX_HELP_SECONDS;
    if (search_copy(a, e, cur_session(e), &o, &go,
                    SEARCH_SURE | (hint ? SEARCH_HELP : 0), rq->addr, &info,
                    out) != 0)
        return;
    const mc_game *g = mc_record_game(cur_rec(e));
    const mc_pos *p = mc_session_pos(cur_session(e));
    char tok[MC_MOVE_STRLEN];
    mc_move_format(g, p, info.best, tok, sizeof tok);
    json_t *extra = json_pack("{s:i,s:i,s:I,s:b}", "score", info.score,
                              "depth", info.depth, "nodes",
                              (json_int_t)info.nodes, "book", info.book);
    if (info.solved) {
        /* Perfect play: the tables' words for the position. */
        char words[200];
        mc_solved_describe(g, p, info.value, info.plies, words,
                           sizeof words);
        json_object_set_new(extra, "solved", json_true());
        json_object_set_new(extra, "plies", json_integer(info.plies));
        json_object_set_new(extra, "perfect", json_string(words));
    }
    if (hint) {
        json_object_set_new(extra, "hint", json_string(tok));
        api_reply_state(out, 200, e, NULL, NULL, extra);
        return;
    }
    api_play_token(a, e, tok, out, extra);
}

static void ep_play(mc_api *a, game_entry *e, const mc_api_req *rq,
                    mc_api_reply *out)
{
    static const char *const keys[] = {"move", "version", NULL};
    int side = mc_session_pos(cur_session(e))->side;
    if (!api_holds(e, rq->token, side)) {
        api_deny(out, rq->token, api_side_seat(side));
        return;
    }
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    const char *tok;
    double version = -1;
    if (api_opt_str(j, "move", &tok, MC_MOVE_STRLEN, out) ||
        api_opt_num(j, "version", 0, 9e15, &version, out)) {
        json_decref(j);
        return;
    }
    if (!tok) {
        api_reply_error(out, 400, "json", "'move' is required");
    } else if (version >= 0 && (unsigned long)version != e->version) {
        api_reply_error(out, 409, "changed",
                        "the game has changed since version %.0f (now %lu)",
                        version, e->version);
    } else {
        api_play_token(a, e, tok, out, NULL);
    }
    json_decref(j);
}

/* Undo takes back a move: its mover's seat; redo plays the next one again:
   the seat of the side to move. */
/* Two people hold the seats (the creator took one, the invited friend the
   other): a takeback is then a request the other accepts or declines. */
static int api_two_players(const game_entry *e)
{
    return e->owner != 3 && e->token[0][0] && e->token[1][0];
}

/* The seat a token holds in a game between two people; -1: none. */
static int seat_of(const game_entry *e, const char *tok)
{
    return api_holds(e, tok, 0) ? 0 : api_holds(e, tok, 1) ? 1 : -1;
}

/* The plies a takeback by side takes: back to before its last move (the
   other's reply, if any, goes too); 0 when it has made none. */
static int takeback_plies(const mc_session *s, int side)
{
    int ply = mc_session_ply(s);
    for (int k = ply - 1; k >= 0; k--)
        if (mc_session_pos_at(s, k)->side == side)
            return ply - k;
    return 0;
}

/* POST undo by one of two people: a request, answered by POST takeback. */
static void api_ask_takeback(game_entry *e, const mc_api_req *rq,
                             mc_api_reply *out)
{
    int side = seat_of(e, rq->token);
    mc_session *s = cur_session(e);
    if (side < 0) {
        api_deny(out, rq->token, "a seat");
        return;
    }
    if (mc_session_over(s)) {
        api_reply_error(out, 409, "over",
                        "the game is over: nothing to take back");
        return;
    }
    if (takeback_plies(s, side) == 0) {
        api_reply_error(out, 409, "no_undo", "%s has made no move to take back",
                        side ? "North" : "South");
        return;
    }
    if (e->tb_side >= 0 && !e->tb_declined) {
        api_reply_error(out, 409, "takeback",
                        "a takeback is already asked for");
        return;
    }
    e->tb_side = side;
    e->tb_declined = 0;
    e->version++; /* the other browser sees the request */
    api_reply_state(out, 202, e, NULL, NULL, NULL);
}

/* POST takeback {accept}: the other player's answer to a takeback asked
   for; accepted, the asking side's last move (and the reply to it) is
   taken back. */
static void ep_takeback(mc_api *a, game_entry *e, const mc_api_req *rq,
                        mc_api_reply *out)
{
    static const char *const keys[] = {"accept", NULL};
    int side = seat_of(e, rq->token);
    if (side < 0) {
        api_deny(out, rq->token, "a seat");
        return;
    }
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    json_t *acc = json_object_get(j, "accept");
    int ok = json_is_boolean(acc), accept = json_is_true(acc);
    json_decref(j);
    if (!ok) {
        api_reply_error(out, 400, "json", "'accept' must be true or false");
        return;
    }
    if (e->tb_side < 0 || e->tb_declined) {
        api_reply_error(out, 409, "takeback", "no takeback is asked for");
        return;
    }
    if (e->tb_side == side) {
        api_reply_error(out, 403, "seat",
                        "the other player answers a takeback, "
                        "not the one who asked");
        return;
    }
    if (!accept) {
        e->tb_declined = 1;
        e->version++;
        api_reply_state(out, 200, e, NULL, NULL, NULL);
        return;
    }
    mc_session *s = cur_session(e);
    int n = takeback_plies(s, e->tb_side);
    mc_error err = {0, ""};
    for (int i = 0; i < n; i++)
        if (mc_session_undo_at(s, e->now, &err) != 0) {
            api_reply_error(out, 409, "no_undo", "%s", err.msg[0] ? err.msg : "cannot take back");
            return;
        }
    e->version++;
    if (api_commit(a, e, out) == 0)
        api_reply_state(out, 200, e, NULL, NULL, NULL);
}

static void ep_undo_redo(mc_api *a, game_entry *e, const mc_api_req *rq,
                         int redo, mc_api_reply *out)
{
    mc_session *s = cur_session(e);
    int ply = mc_session_ply(s);
    if (!redo && api_two_players(e)) {
        api_ask_takeback(e, rq, out);
        return;
    }
    if (!redo && ply == 0) {
        api_reply_error(out, 409, "no_undo", "there is no move to undo");
        return;
    }
    int side = redo ? mc_session_pos(s)->side : mc_session_pos_at(s, ply - 1)->side;
    if (!api_holds(e, rq->token, side)) {
        api_deny(out, rq->token, api_side_seat(side));
        return;
    }
    mc_error err = {0, ""};
    int rc = redo ? mc_session_redo_at(s, e->now, &err)
                  : mc_session_undo_at(s, e->now, &err);
    if (rc == MC_ERR_ARG) { /* nothing to take back or play again */
        api_reply_error(out, 409, redo ? "no_redo" : "no_undo",
                        redo ? "there is no move to redo" : "there is no move to undo");
        return;
    }
    if (rc != 0) {
        api_reply_error(out, 409, rc == MC_ERR_OVER ? "over" : "no_undo",
                        "%s", err.msg);
        return;
    }
    e->version++;
    if (api_commit(a, e, out) == 0)
        api_reply_state(out, 200, e, NULL, NULL, NULL);
}

static void ep_resign(mc_api *a, game_entry *e, const mc_api_req *rq,
                      mc_api_reply *out)
{
    static const char *const keys[] = {"side", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    const char *side;
    if (api_opt_str(j, "side", &side, 8, out)) {
        json_decref(j);
        return;
    }
    mc_session *s = cur_session(e);
    if (!side || (strcmp(side, "S") != 0 && strcmp(side, "N") != 0))
        api_reply_error(out, 400, "json", "'side' must be \"S\" or \"N\"");
    else if (!api_holds(e, rq->token, side[0] == 'N'))
        api_deny(out, rq->token, api_side_seat(side[0] == 'N'));
    else if (mc_session_over(s))
        api_reply_error(out, 409, "over", "the game is over");
    else {
        mc_session_forfeit(s, side[0] == 'N', MC_END_RESIGN);
        e->version++;
        if (api_commit(a, e, out) == 0)
            api_reply_state(out, 200, e, NULL, NULL, NULL);
    }
    json_decref(j);
}

static void ep_next(mc_api *a, game_entry *e, const mc_api_req *rq,
                    mc_api_reply *out)
{
    const mc_game *g = mc_record_game(cur_rec(e));
    if (!api_holds_any(e, rq->token)) {
        api_deny(out, rq->token, "a seat");
        return;
    }
    mc_match m;
    api_match_of(e, &m);
    if (!mc_session_over(cur_session(e))) {
        api_reply_error(out, 409, "not_over", "the current game is not over");
        return;
    }
    if (!mc_game_is_match(g) || m.winner >= 0) {
        api_reply_error(out, 409, "match_over", "the match is over");
        return;
    }
    if (e->n >= MC_API_MAX_ROUNDS) {
        api_reply_error(out, 409, "match_over",
                        "this match has reached %d games: no more here",
                        MC_API_MAX_ROUNDS);
        return;
    }
    mc_pos start;
    mc_match_start(g, &m, &start);
    mc_error err;
    mc_time_control tc; /* the next round under the same control */
    mc_session_time(cur_session(e), &tc);
    mc_record *r = mc_record_new(mc_game_spec(g), &start, &err);
    if (!r || api_add_round(e, r) != 0) {
        mc_record_free(r);
        api_reply_error(out, 500, "memory", "out of memory");
        return;
    }
    api_set_date(r);
    const char *v;
    for (int i = 0; i < 2; i++)
        if ((v = mc_record_tag(e->recs[0], i ? "North" : "South")))
            mc_record_set_tag(r, i ? "North" : "South", v, NULL);
    char b[16];
    snprintf(b, sizeof b, "%d", e->n);
    mc_record_set_tag(r, "Round", b, NULL);
    api_set_time(a, r, &tc);
    e->version++;
    if (api_commit(a, e, out) == 0)
        api_reply_state(out, 200, e, NULL, NULL, NULL);
}

static void ep_delete(mc_api *a, game_entry *e, const mc_api_req *rq,
                      mc_api_reply *out)
{
    int own = 0;
    for (int s = 0; s < 2; s++)
        if (e->owner >> s & 1)
            own |= api_holds(e, rq->token, s);
    if (!own) {
        api_deny(out, rq->token, "the seat of the game's creator");
        return;
    }
    mc_error err;
    if (mc_store_delete(a->store, e->id, &err) != 0) {
        api_reply_error(out, 503, "io", "the game was not deleted (%s)",
                        err.msg);
        return;
    }
    e->gone = 1;
    api_reply_json(out, 200, json_pack("{s:s}", "deleted", e->id));
}

static void ep_record(game_entry *e, mc_api_reply *out)
{
    size_t len;
    char *t = mc_records_format(e->recs, e->n, &len);
    if (!t) {
        api_reply_error(out, 500, "memory", "out of memory");
        return;
    }
    out->status = 200;
    out->type = "text/plain; charset=utf-8";
    out->body = t;
    out->len = len;
}

/* Every position of the current game, ply 0 to now, each with the move
   played from it as state.moves describes moves (review mode steps
   through them). */
static void ep_positions(game_entry *e, mc_api_reply *out)
{
    mc_session *s = cur_session(e);
    const mc_game *g = mc_record_game(cur_rec(e));
    int n = mc_session_ply(s);
    json_t *list = json_array();
    for (int i = 0; i <= n; i++) {
        const mc_pos *p = i < n ? mc_session_pos_at(s, i) : mc_session_pos(s);
        json_t *b = api_board_json(g, p);
        json_object_set_new(b, "played",
                            i < n
                                ? api_move_json(g, p, mc_session_move_at(s, i))
                                : json_null());
        json_array_append_new(list, b);
    }
    api_reply_json(out, 200, json_pack("{s:s,s:I,s:o}", "id", e->id, "version",
                                       (json_int_t)e->version, "positions", list));
}

/* The last move played with its trace, replayed from the position before
   it: a second browser on the game animates the other player's move. */
static void ep_last_trace(game_entry *e, mc_api_reply *out)
{
    mc_session *s = cur_session(e);
    const mc_game *g = mc_record_game(cur_rec(e));
    int n = mc_session_ply(s);
    if (n == 0) {
        api_reply_json(out, 200,
                       json_pack("{s:i,s:n,s:[],s:i}", "ply", 0, "move",
                                 "trace", "trace_dropped", 0));
        return;
    }
    mc_trace tr = {NULL, TRACE_CAP, 0, 0};
    tr.ev = malloc(TRACE_CAP * sizeof *tr.ev);
    if (!tr.ev) {
        api_reply_error(out, 500, "memory", "out of memory");
        return;
    }
    mc_pos p = *mc_session_pos_at(s, n - 1);
    mc_move m = mc_session_move_at(s, n - 1);
    char tok[MC_MOVE_STRLEN];
    mc_move_format(g, &p, m, tok, sizeof tok);
    json_t *before = api_board_json(g, &p);
    mc_pos after = p;
    mc_play(g, &after, m, &tr);
    api_reply_json(out, 200,
                   json_pack("{s:i,s:s,s:o,s:o,s:o,s:I}", "ply", n, "move", tok,
                             "before", before, "explain",
                             api_explain_json(g, &p, m, &tr), "trace",
                             api_trace_json(g, &tr), "trace_dropped",
                             (json_int_t)tr.dropped));
    free(tr.ev);
}

/* The engine's view of any position of a game (review mode): the best move,
   its pit and the score, without touching any game.  The same limits and
   busy answer as a hint; the position alone is searched (no history). */
/* A value for players: its side's chance to win and the words (the
   game's unit: seeds, or a chance to win). */
static void add_value(json_t *j, const mc_game *g, int side, int score)
{
    char words[160];
    mc_score_describe(g, side, score, words, sizeof words);
    json_object_set_new(j, "chance", json_real(floor(mc_win_chance(g, score) * 1000 + 0.5) / 1000));
    json_object_set_new(j, "words", json_string(words));
}

/* POST /api/game/ID/analysis {ply, level, seconds, nodes}: the engine's
   value of position `ply` of the round (0 .. the ply played), with the
   history up to it (repetitions count as in the game): one step of a
   whole-game review.  A seat holder may ask at any time; anyone once the
   game is over (it tells nothing then that could help a player). */
static void ep_analysis(mc_api *a, game_entry *e, const mc_api_req *rq,
                        mc_api_reply *out)
{
    static const char *const keys[] = {"ply", "level", "seconds", "nodes", NULL};
    mc_session *s = cur_session(e);
    if (!mc_session_over(s) && !api_holds_any(e, rq->token)) {
        api_deny(out, rq->token, "a seat (or the game's end)");
        return;
    }
    if (api_help_refused(e, out))
        return;
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    double ply = -1;
    mc_player_opts o;
    mc_go go;
    int n = mc_session_ply(s);
    int bad = api_opt_num(j, "ply", 0, n, &ply, out) || search_limits(j, &o, &go, out);
    json_decref(j);
    if (bad)
        return;
    if (ply < 0 || ply != (int)ply) {
        api_reply_error(out, 400, "json", "'ply' must be a whole number from 0 to %d", n);
        return;
    }
    int k = (int)ply;
    const mc_game *g = mc_record_game(cur_rec(e));
    if (k == n && mc_session_over(s)) {
        api_reply_error(out, 409, "over", "the game is over in that position");
        return;
    }
    mc_session *c = mc_session_new(g, mc_session_pos_at(s, 0));
    for (int i = 0; c && i < k; i++)
        if (mc_session_play(c, mc_session_move_at(s, i), NULL, NULL) != 0) {
            mc_session_free(c);
            c = NULL;
        }
    if (!c) {
        api_reply_error(out, 500, "memory", "cannot copy the game");
        return;
    }
    o.book = "none"; /* a value, not the book's move */
    o.book_variety = 0;
    if (go.movetime > MC_API_MAX_HELP_SECONDS)
        go.movetime = MC_API_MAX_HELP_SECONDS;
    const mc_pos p = *mc_session_pos(c);
    mc_search_info info;
    int rc = search_copy(a, e, c, &o, &go, SEARCH_HELP | SEARCH_OWN_CLOCK,
                         rq->addr, &info, out);
    mc_session_free(c);
    if (rc != 0)
        return;
    if (info.depth == 0 && !info.book && !info.solved) {
        /* not one iteration within the time: no value to give */
        api_reply_error(out, 503, "busy", "the engine had no time to value the "
                                          "position; ask again");
        return;
    }
    char tok[MC_MOVE_STRLEN];
    mc_move_format(g, &p, info.best, tok, sizeof tok);
    int pit = mc_move_pit(g, &p, info.best);
    json_t *r = json_pack("{s:i,s:s,s:o,s:s,s:i,s:i,s:I}", "ply", k, "best", tok,
                          "pit", pit < 0 ? json_null() : json_integer(pit), "side",
                          p.side ? "N" : "S", "score", info.score, "depth",
                          info.depth, "nodes", (json_int_t)info.nodes);
    add_value(r, g, p.side, info.score);
    api_reply_json(out, 200, r);
}

/* POST /api/game/ID/review {scores, best}: the review of the round from
   its positions' values (scores[k]: position k's value for its side to
   move, best[k]: the engine's move there, as /analysis gave them; for
   k = 0 .. ply, or .. ply-1 when the game is over): each move's verdict
   (the library's: mc_review_fill) and South's chance to win at each
   position, for the page's graph.  No search: anyone may ask. */
/* POST /api/game/ID/offer {"pits": [i, ...]}: may the side to move offer
   these pits now?  The library's answer (mc_offer_move): {"legal", "move",
   "why"}; nothing changes, and anyone may ask. */
static void ep_offer(game_entry *e, const mc_api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"pits", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    json_t *list = json_object_get(j, "pits");
    const mc_game *g = mc_record_game(cur_rec(e));
    const mc_pos *p = mc_session_pos(cur_session(e));
    uint32_t mask = 0;
    size_t i;
    json_t *v;
    int bad = !json_is_array(list) || json_array_size(list) == 0;
    json_array_foreach(list, i, v) {
        json_int_t k = json_is_integer(v) ? json_integer_value(v) : -1;
        if (k < 0 || k >= mc_game_pits(g) || k >= 32 || (mask >> k & 1))
            bad = 1;
        else
            mask |= (uint32_t)1 << k;
    }
    json_decref(j);
    if (bad) {
        api_reply_error(out, 400, "json", "'pits' must list distinct pit "
                                          "indices (0..%d)", mc_game_pits(g) - 1);
        return;
    }
    mc_move m;
    mc_error err = {0, ""};
    if (mc_session_over(cur_session(e)) ||
        mc_offer_move(g, p, mask, &m, &err) != 0) {
        api_reply_json(out, 200,
                       json_pack("{s:b,s:n,s:o}", "legal", 0, "move", "why",
                                 api_safe_str(mc_session_over(cur_session(e))
                                                  ? "the game is over"
                                                  : err.msg)));
        return;
    }
    char tok[MC_MOVE_STRLEN];
    mc_move_format(g, p, m, tok, sizeof tok);
    api_reply_json(out, 200, json_pack("{s:b,s:s,s:n}", "legal", 1, "move", tok,
                                       "why"));
}

static void ep_review(game_entry *e, const mc_api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"scores", "best", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    mc_session *s = cur_session(e);
    const mc_game *g = mc_record_game(cur_rec(e));
    int n = mc_session_ply(s), over = mc_session_over(s);
    int want = over ? n : n + 1;
    json_t *js = json_object_get(j, "scores"), *jb = json_object_get(j, "best");
    if (!json_is_array(js) || !json_is_array(jb) || (int)json_array_size(js) != want ||
        (int)json_array_size(jb) != want) {
        json_decref(j);
        api_reply_error(out, 400, "json", "'scores' and 'best' must be arrays of %d values "
                        "(one for each position valued)", want);
        return;
    }
    int *score = calloc((size_t)n + 1, sizeof *score);
    mc_move *best = calloc((size_t)n + 1, sizeof *best);
    mc_review *rv = calloc((size_t)n + 1, sizeof *rv);
    if (!score || !best || !rv) {
        free(score), free(best), free(rv);
        json_decref(j);
        api_reply_error(out, 500, "memory", "out of memory");
        return;
    }
    for (int k = 0; k < want; k++) {
        json_t *v = json_array_get(js, (size_t)k);
        const char *t = json_string_value(json_array_get(jb, (size_t)k));
        mc_error err;
        if (!json_is_integer(v) || json_integer_value(v) < -MC_SCORE_WIN ||
            json_integer_value(v) > MC_SCORE_WIN || !t ||
            mc_move_parse(g, mc_session_pos_at(s, k), t, &best[k], &err) != 0) {
            free(score), free(best), free(rv);
            json_decref(j);
            api_reply_error(out, 422, "move", "position %d: a score within +-%d and a "
                            "legal move are needed", k, MC_SCORE_WIN);
            return;
        }
        score[k] = (int)json_integer_value(v);
    }
    json_decref(j);
    mc_review_fill(s, score, best, rv);
    json_t *moves = json_array(), *graph = json_array();
    for (int k = 0; k <= n; k++) {
        double south;
        if (k < want)
            south = mc_session_pos_at(s, k)->side == MC_SOUTH
                        ? mc_win_chance(g, score[k]) : 1.0 - mc_win_chance(g, score[k]);
        else /* the end: the result */
            south = rv[n - 1].side == MC_SOUTH ? rv[n - 1].after : 1.0 - rv[n - 1].after;
        json_array_append_new(graph, json_real(floor(south * 1000 + 0.5) / 1000));
    }
    for (int k = 0; k < n; k++) {
        const mc_pos *p = mc_session_pos_at(s, k);
        char mv[MC_MOVE_STRLEN], bt[MC_MOVE_STRLEN];
        mc_move_format(g, p, rv[k].played, mv, sizeof mv);
        mc_move_format(g, p, rv[k].best, bt, sizeof bt);
        json_t *m = json_pack("{s:i,s:s,s:s,s:s,s:f,s:f,s:s}", "ply", k + 1, "side",
                              rv[k].side ? "N" : "S", "move", mv, "best", bt,
                              "before", floor(rv[k].before * 1000 + 0.5) / 1000,
                              "after", floor(rv[k].after * 1000 + 0.5) / 1000,
                              "verdict", mc_verdict_name(rv[k].verdict));
        add_value(m, g, p->side, score[k]);
        json_array_append_new(moves, m);
    }
    free(score), free(best), free(rv);
    api_reply_json(out, 200, json_pack("{s:o,s:o}", "moves", moves, "graph", graph));
}

static void ep_analyze(mc_api *a, const mc_api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"game", "position", "level", "seconds",
                                       "nodes", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    const char *spec, *pos;
    mc_player_opts o;
    mc_go go;
    if (api_opt_str(j, "game", &spec, MC_SPEC_STRLEN, out) ||
        api_opt_str(j, "position", &pos, 1024, out) ||
        search_limits(j, &o, &go, out)) {
        json_decref(j);
        return;
    }
    if (!spec || !pos) {
        json_decref(j);
        api_reply_error(out, 400, "json", "'game' and 'position' are required");
        return;
    }
    mc_error err;
    mc_game *g = mc_game_new(spec, &err);
    mc_pos p;
    if (!g || mc_pos_parse(g, pos, &p, &err) != 0) {
        json_decref(j);
        mc_game_free(g);
        api_reply_error(out, 422, api_err_code(err.code), "%s", err.msg);
        return;
    }
    json_decref(j);
    mc_session *s = mc_session_new(g, &p);
    if (!s) {
        mc_game_free(g);
        api_reply_error(out, 500, "memory", "out of memory");
        return;
    }
    if (mc_session_over(s)) {
        mc_session_free(s);
        mc_game_free(g);
        api_reply_error(out, 409, "over", "the game is over in that position");
        return;
    }
    pthread_mutex_lock(&a->players_lock);
    o.book = a->book_off ? "none" : NULL;
    o.book_variety = 0;
    pthread_mutex_unlock(&a->players_lock);
    if (go.movetime > MC_API_MAX_HELP_SECONDS)
        go.movetime = MC_API_MAX_HELP_SECONDS;
    api_player *ap = borrow_player(a, g, 1, rq->addr, out);
    if (!ap) {
        mc_session_free(s);
        mc_game_free(g);
        return;
    }
    mc_search_info info;
    int rc = mc_player_sync(ap->pl, s, NULL);
    if (rc == 0)
        rc = mc_player_set_opts(ap->pl, &o, NULL);
    go.start = mc_clock(); /* the search's own time, as for /analysis */
    if (rc == 0)
        rc = api_player_go(a, ap, &go, 1, &info);
    give_back(a, ap);
    if (rc != 0) {
        api_reply_error(out, 500, "memory", "the engine could not search");
    } else {
        char tok[MC_MOVE_STRLEN];
        mc_move_format(g, &p, info.best, tok, sizeof tok);
        int pit = mc_move_pit(g, &p, info.best);
        json_t *r = json_pack("{s:s,s:o,s:s,s:i,s:i,s:I,s:b}", "best", tok, "pit",
                              pit < 0 ? json_null() : json_integer(pit), "side",
                              p.side ? "N" : "S", "score", info.score, "depth",
                              info.depth, "nodes", (json_int_t)info.nodes,
                              "book", info.book);
        add_value(r, g, p.side, info.score);
        api_reply_json(out, 200, r);
    }
    mc_session_free(s);
    mc_game_free(g);
}

/* A player arranges its seeds in a custom set-up (W3): "pits" is the whole
   board (as state.pits) in which only that side's pits may differ, or null
   to keep the library's arrangement (the computer's side).  The library
   checks the result (32 seeds each, the pit limit). */
static void ep_setup(mc_api *a, game_entry *e, const mc_api_req *rq,
                     mc_api_reply *out)
{
    static const char *const keys[] = {"side", "pits", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    const char *sv;
    if (api_opt_str(j, "side", &sv, 2, out)) {
        json_decref(j);
        return;
    }
    if (!sv || (strcmp(sv, "S") != 0 && strcmp(sv, "N") != 0)) {
        json_decref(j);
        api_reply_error(out, 400, "json", "'side' must be \"S\" or \"N\"");
        return;
    }
    int side = sv[0] == 'N';
    if (!api_holds(e, rq->token, side)) {
        json_decref(j);
        api_deny(out, rq->token, api_side_seat(side));
        return;
    }
    int turn = api_setup_turn(e);
    if (turn < 0) {
        json_decref(j);
        api_reply_error(out, 409, "setup", "no set-up is open: the game is not "
                                           "setup=custom or has begun (W3)");
        return;
    }
    if (turn != side) {
        json_decref(j);
        const char *done = mc_record_tag(cur_rec(e), "Arranged");
        if (done && strchr(done, side ? 'N' : 'S'))
            api_reply_error(out, 409, "setup",
                            "%s has arranged its seeds already "
                            "(W3)",
                            side ? "North" : "South");
        else
            api_reply_error(out, 409, "setup",
                            "%s arranges first, then %s (W3)",
                            turn ? "North" : "South", side ? "North" : "South");
        return;
    }
    mc_record *rec = cur_rec(e);
    const mc_game *g = mc_record_game(rec);
    mc_pos p = *mc_session_pos(mc_record_session(rec));
    json_t *pits = json_object_get(j, "pits");
    int np = mc_game_pits(g);
    if (pits && !json_is_null(pits)) {
        if (!json_is_array(pits) || (int)json_array_size(pits) != np) {
            json_decref(j);
            api_reply_error(out, 400, "json",
                            "'pits' must be an array of %d seed "
                            "counts",
                            np);
            return;
        }
        for (int i = 0; i < np; i++) {
            json_t *v = json_array_get(pits, (size_t)i);
            json_int_t n = json_is_integer(v) ? json_integer_value(v) : -1;
            if (n < 0 || n > 255) {
                json_decref(j);
                api_reply_error(out, 400, "json",
                                "'pits' item %d must be a whole "
                                "number 0..255",
                                i);
                return;
            }
            if (n != p.pit[i] && mc_pit_owner(g, &p, i) != side) {
                json_decref(j);
                api_reply_error(out, 422, "position",
                                "pit %s is not %s's: each player arranges only "
                                "its own pits (W3)", mc_pit_name(g, i),
                                side ? "North" : "South");
                return;
            }
            p.pit[i] = (uint8_t)n;
        }
    }
    json_decref(j);
    char buf[MC_POS_STRLEN];
    mc_error err;
    mc_pos q;
    mc_pos_format(g, &p, buf, sizeof buf);
    if (mc_pos_parse(g, buf, &q, &err) != 0) {
        api_reply_error(out, 422, api_err_code(err.code), "%s", err.msg);
        return;
    }
    mc_record *r = mc_record_new(mc_game_spec(g), &q, &err);
    if (!r) {
        api_reply_error(out, 422, api_err_code(err.code), "%s", err.msg);
        return;
    }
    const char *tn, *tv;
    for (int i = 0; mc_record_tag_at(rec, i, &tn, &tv); i++)
        if (strcmp(tn, "Arranged") != 0)
            mc_record_set_tag(r, tn, tv, NULL); /* derived ones are refused */
    const char *done = mc_record_tag(rec, "Arranged");
    char arr[4];
    snprintf(arr, sizeof arr, "%s%s", done ? done : "", side ? "N" : "S");
    mc_record_set_tag(r, "Arranged", arr, NULL);
    e->recs[e->n - 1] = r;
    mc_record_free(rec);
    e->version++;
    if (api_commit(a, e, out) == 0)
        api_reply_state(out, 200, e, NULL, NULL, NULL);
}

/* ---- routing ---------------------------------------------------------- */

/* Every request on a game first applies a flag fall that is due (a game
   whose flag fell while nobody asked is over, on time, the next time
   anyone looks), committed like a move.  0 after replying (the change was
   not saved). */
static int api_flag_first(mc_api *a, game_entry *e, mc_api_reply *out)
{
    e->now = clock_now(a);
    if (!mc_session_check_time(cur_session(e), e->now))
        return 1;
    e->version++;
    return api_commit(a, e, out) == 0;
}

static int is(const char *a, const char *b) { return strcmp(a, b) == 0; }

/* A request on one game, its lock held. */
static void route_game(mc_api *a, game_entry *e, const char *act,
                       const mc_api_req *rq, mc_api_reply *out)
{
    const char *method = rq->method;
    int get = is(method, "GET") || is(method, "HEAD"), post = is(method, "POST");
    if (is(act, "")) {
        if (is(method, "DELETE"))
            ep_delete(a, e, rq, out);
        else if (get)
            api_reply_state(out, 200, e, NULL, NULL, NULL);
        else
            goto method;
        return;
    }
    if (is(act, "record")) {
        if (!get)
            goto method;
        ep_record(e, out);
        return;
    }
    if (is(act, "positions") || is(act, "trace")) {
        if (!get)
            goto method;
        if (act[0] == 'p')
            ep_positions(e, out);
        else
            ep_last_trace(e, out);
        return;
    }
    static const char *const acts[] = {"play", "engine", "hint", "undo", "redo",
                                       "resign", "next", "join", "setup",
                                       "analysis", "review", "takeback",
                                       "offer", NULL};
    int known = 0;
    for (int i = 0; acts[i]; i++)
        known |= is(act, acts[i]);
    if (!known) {
        api_reply_error(out, 404, "not_found", "no such endpoint: %.200s", rq->path);
        return;
    }
    if (!post)
        goto method;
    if (is(act, "play"))
        ep_play(a, e, rq, out);
    else if (is(act, "engine") || is(act, "hint"))
        ep_engine(a, e, rq, act[0] == 'h', out);
    else if (is(act, "undo") || is(act, "redo"))
        ep_undo_redo(a, e, rq, act[0] == 'r', out);
    else if (is(act, "resign"))
        ep_resign(a, e, rq, out);
    else if (is(act, "next"))
        ep_next(a, e, rq, out);
    else if (is(act, "setup"))
        ep_setup(a, e, rq, out);
    else if (is(act, "analysis"))
        ep_analysis(a, e, rq, out);
    else if (is(act, "review"))
        ep_review(e, rq, out);
    else if (is(act, "takeback"))
        ep_takeback(a, e, rq, out);
    else if (is(act, "offer"))
        ep_offer(e, rq, out);
    else
        ep_join(a, e, rq, out);
    return;
method:
    api_reply_error(out, 405, "method", "%s is not allowed on %.200s", method,
                    rq->path);
}

static void route(mc_api *a, const mc_api_req *rq, mc_api_reply *out)
{
    const char *method = rq->method, *path = rq->path;
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
            ep_new(a, rq, out);
        else
            ep_load(a, rq, out);
        return;
    }
    if (is(path, "/api/analyze")) {
        if (!post)
            goto method;
        ep_analyze(a, rq, out);
        return;
    }
    if (strncmp(path, "/api/game/", 10) != 0) {
        api_reply_error(out, 404, "not_found", "no such endpoint: %.200s",
                        path);
        return;
    }
    char id[ID_LEN + 1];
    const char *rest = path + 10, *slash = strchr(rest, '/');
    size_t idlen = slash ? (size_t)(slash - rest) : strlen(rest);
    if (idlen != ID_LEN) {
        api_reply_error(out, 404, "not_found", "no such game");
        return;
    }
    memcpy(id, rest, ID_LEN);
    id[ID_LEN] = 0;
    game_entry *e = api_valid_id(id) ? api_acquire(a, id) : NULL;
    if (!e) {
        api_reply_error(out, 404, "not_found", "no such game: %s",
                        api_valid_id(id) ? id : "(malformed id)");
        return;
    }
    pthread_mutex_lock(&e->lock);
    int gone = e->gone;
    if (gone)
        api_reply_error(out, 404, "not_found", "no such game: %s", id);
    else if ((!e->stale || api_reload(a, e, out) == 0) &&
             api_flag_first(a, e, out))
        route_game(a, e, slash ? slash + 1 : "", rq, out);
    gone = !gone && e->gone; /* deleted by this request */
    pthread_mutex_unlock(&e->lock);
    if (gone)
        api_table_remove(a, e);
    api_release(a, e);
    return;
method:
    api_reply_error(out, 405, "method", "%s is not allowed on %.200s", method, path);
}

static void ev_broadcast(mc_api *a)
{
    pthread_mutex_lock(&a->ev_lock);
    a->ev_gen++;
    pthread_cond_broadcast(&a->ev_cond);
    pthread_mutex_unlock(&a->ev_lock);
}

/* A request's work begins: its address's CPU this minute first (over its
   share, nothing: 429 rate and -1), then the request's limit.  Returns
   the thread's CPU time now.  addr NULL: the program itself, not
   counted. */
static double api_work_begin(mc_api *a, const char *addr, mc_api_reply *out)
{
    pthread_mutex_lock(&a->table);
    rate_slot *rs = addr ? api_rate_of(a, addr) : NULL;
    double used = rs ? rs->work : 0;
    pthread_mutex_unlock(&a->table);
    if (used >= a->o.work_minute) {
        api_reply_error(out, 429, "rate",
                        "your address's requests took %.1f s of the server's "
                        "time this minute: wait a little", used);
        return -1;
    }
    double cpu = thread_cpu();
    tl_search_cpu = 0;
    mc_work_limit_set(mc_now() + a->o.work);
    return cpu;
}

/* ... and ends: a reply the limit cut short becomes 503 costly, and the
   CPU since cpu, its searches apart, is counted against addr. */
static void api_work_end(mc_api *a, const char *addr, double cpu,
                         mc_api_reply *out)
{
    if (mc_work_limit_hit())
        api_reply_costly(a, out); /* whatever the rules said was cut short */
    mc_work_limit_set(0);
    double spent = thread_cpu() - cpu - tl_search_cpu;
    rate_slot *rs;
    pthread_mutex_lock(&a->table);
    if (addr && (rs = api_rate_of(a, addr)) != NULL && spent > 0)
        rs->work += spent;
    pthread_mutex_unlock(&a->table);
}

void mc_api_handle(mc_api *a, const mc_api_req *rq, mc_api_reply *out)
{
    memset(out, 0, sizeof *out);
    if (rq->len > MC_API_MAX_BODY) {
        api_reply_error(out, 413, "too_large",
                        "the request body exceeds %d bytes", MC_API_MAX_BODY);
        return;
    }
    if (rq->body && memchr(rq->body, 0, rq->len)) {
        api_reply_error(out, 400, "json",
                        "the request body contains a NUL byte");
        return;
    }
    double cpu = api_work_begin(a, rq->addr, out);
    if (cpu < 0)
        return;
    route(a, rq, out);
    api_work_end(a, rq->addr, cpu, out);
    if (strcmp(rq->method, "GET") != 0 && strcmp(rq->method, "HEAD") != 0)
        ev_broadcast(a); /* something may have changed: the streams look */
}

int mc_api_version(mc_api *a, const char *id, unsigned long *version)
{
    if (!api_valid_id(id))
        return -1;
    game_entry *e = api_acquire(a, id);
    if (!e)
        return -1;
    pthread_mutex_lock(&e->lock);
    int gone = e->gone;
    *version = e->version;
    pthread_mutex_unlock(&e->lock);
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

/* ---- expiry, loading, import ---------------------------------------- */

int mc_api_expire(mc_api *a, long long now)
{
    pthread_mutex_lock(&a->table);
    a->last_sweep = now_s();
    game_entry **all = malloc(((size_t)a->n + 1) * sizeof *all);
    int k = 0;
    for (size_t i = 0; all && i < a->nbucket; i++)
        for (game_entry *x = a->bucket[i]; x; x = x->next)
            if (!x->pending) {
                x->refs++;
                all[k++] = x;
            }
    pthread_mutex_unlock(&a->table);
    if (!all)
        return 0;
    int removed = 0;
    for (int i = 0; i < k; i++) {
        game_entry *e = all[i];
        pthread_mutex_lock(&e->lock);
        long long keep = e->stale ? a->o.keep
                         : api_game_finished(e) ? a->o.keep_over : a->o.keep;
        mc_error err;
        int go = !e->gone && keep >= 0 && e->touched + keep <= now &&
                 mc_store_delete(a->store, e->id, &err) == 0;
        if (go)
            e->gone = 1;
        pthread_mutex_unlock(&e->lock);
        if (go) {
            api_table_remove(a, e);
            removed++;
        }
        api_release(a, e);
    }
    free(all);
    return removed;
}

static int load_one(void *ctx, const mc_store_game *g)
{
    mc_api *a = ctx;
    mc_record **recs = NULL;
    int n = 0;
    mc_error err = {0, ""};
    if (!api_valid_id(g->id) || api_read_rounds(g->record, NULL, &recs, &n, &err) != 0) {
        fprintf(stderr, "mancala serve: game %.40s in the store cannot be "
                        "read (kept, not served)\n", g->id);
        return 0;
    }
    game_entry *e = api_entry_new();
    if (!e) {
        mc_records_free(recs, n);
        return 1;
    }
    memcpy(e->id, g->id, sizeof e->id);
    snprintf(e->addr, sizeof e->addr, "%s", g->addr ? g->addr : "");
    e->recs = recs;
    e->n = e->cap = n;
    if (g->clock.known) /* else: the clocks wait for the next move */
        mc_session_clock_restore(cur_session(e), g->clock.bank, g->clock.since);
    e->version = (unsigned long)g->version;
    e->created = g->created;
    e->touched = g->touched;
    e->owner = g->owner;
    for (int s = 0; s < 2; s++) {
        snprintf(e->token[s], sizeof e->token[s], "%s", g->token[s] ? g->token[s] : "");
        snprintf(e->invite[s], sizeof e->invite[s], "%s", g->invite[s] ? g->invite[s] : "");
    }
    pthread_mutex_lock(&a->table);
    int bad = api_table_add(a, e);
    pthread_mutex_unlock(&a->table);
    if (bad)
        api_entry_free(e);
    return bad;
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
                        strstr(e.msg, path) == e.msg ? e.msg + strlen(path) + 2 : e.msg);
            continue;
        }
        mc_api_reply out;
        memset(&out, 0, sizeof out);
        game_entry *g = create_game(a, recs, n, 3, "import", 0, &out);
        json_t *j = json_loadb(out.body ? out.body : "", out.len, 0, NULL);
        if (g && j) {
            count++;
            if (report)
                fprintf(report, "%s %s %s\n", shown,
                        json_string_value(json_object_get(
                            json_object_get(j, "state"), "id")),
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

/* ---- set-up ----------------------------------------------------------- */

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
    pthread_mutex_init(&a->table, NULL);
    pthread_mutex_init(&a->players_lock, NULL);
    pthread_mutex_init(&a->ev_lock, NULL);
    pthread_cond_init(&a->player_freed, NULL);
    pthread_cond_init(&a->ev_cond, NULL);
    a->book_variety = 20;
    a->nbucket = 64;
    a->bucket = calloc(a->nbucket, sizeof *a->bucket);
    a->store = a->bucket ? mc_store_open(a->o.db, err) : NULL;
    if (!a->store || mc_store_each(a->store, load_one, a, err) != 0) {
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
    for (size_t i = 0; a->bucket && i < a->nbucket; i++)
        for (game_entry *x = a->bucket[i], *nx; x; x = nx) {
            nx = x->next;
            api_entry_free(x);
        }
    for (int i = 0; i < API_PLAYERS; i++)
        mc_player_free(a->players[i].pl);
    free(a->bucket);
    mc_store_close(a->store);
    pthread_mutex_destroy(&a->table);
    pthread_mutex_destroy(&a->players_lock);
    pthread_mutex_destroy(&a->ev_lock);
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

int mc_api_count(mc_api *a)
{
    pthread_mutex_lock(&a->table);
    int n = a->n;
    pthread_mutex_unlock(&a->table);
    return n;
}

void mc_api_store_readonly(mc_api *a, int on)
{
    mc_store_set_readonly(a->store, on);
}

void mc_api_set_now(mc_api *a, double now)
{
    atomic_store(&a->fake_now, now);
}
