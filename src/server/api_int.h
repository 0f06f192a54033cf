/*
 * api_int.h - what the files of the JSON API (api*.c, listed in api.c)
 * share, and nothing outside them sees: a game of the table (game_entry),
 * the computer players, the API itself (struct mc_api), and the functions
 * each file gives the others.  Endpoints are named ep_*, the other shared
 * functions api_*; what one file alone uses stays static there.  The
 * files are in layers (api.c says which): a file calls only the functions
 * of the sections before its own, and none of the files after it.
 */
#ifndef MC_SERVER_API_INT_H
#define MC_SERVER_API_INT_H

#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "api.h"
#include "store.h"
#include "../core/i18n.h"
#include "../core/util.h"
#include "mancala_record.h"

#define ID_LEN MC_API_ID_LEN
#define TRACE_CAP 20000 /* events kept for a move's animation */
#define ADDR_LEN 64
#define NAME_MAX_LEN MC_API_NAME_MAX
/* What a game's state shows for a seat whose account was deleted. */
#define DELETED_PLAYER "deleted player"

/* A request as the endpoints see it: what the caller sent (mc_api_req),
   and who its token names when it is an account's session token, which
   the API looks up before routing (api_session_of), never the caller. */
typedef struct api_req {
    const char *method;
    const char *path;
    const char *body;
    size_t len;
    const char *token; /* the Bearer token sent, or NULL */
    const char *addr;  /* the client's address, or NULL */
    const char *lang;  /* the player's language (mc_api_req), or NULL */
    long long account; /* the session's account (0: no session sent) */
    char name[NAME_MAX_LEN + 1]; /* ... its name */
    long long expires;           /* ... when the session ends (1970 s) */
    char digest[MC_API_TOKEN_DIGEST + 1]; /* ... the token's digest */
} api_req;

typedef struct game_entry {
    char id[ID_LEN + 1];
    char addr[ADDR_LEN];     /* the creator's address (fixed) */
    struct game_entry *next; /* in its hash bucket (table lock) */
    int refs;                /* the table's and each request's (table lock) */
    int pending;             /* not yet committed: not found (table lock) */
    pthread_mutex_t lock;    /* everything below (api_game_lock) */
    int held;                /* lock is held, by holder (asserts) */
    pthread_t holder;
    int gone;  /* deleted or expired */
    int stale; /* a change failed to commit: reload first */
    /* The latest version another server process committed, as heard
       (mc_store_listen; 0: none): above version, the copy is behind and
       is read again at its next use (api_behind).  Set without the
       game's lock, so that hearing never waits for a busy game. */
    _Atomic unsigned long heard;
    mc_record **recs; /* the rounds; the last one is being played */
    int n, cap;
    unsigned long version;      /* bumped by every change (clients poll it) */
    char token[2][ID_LEN + 1];  /* per side; "" while the seat is free */
    char invite[2][ID_LEN + 1]; /* an open invitation to the seat, or "" */
    int owner;                  /* bit s: the creator holds side s */
    /* The account holding each seat (0: none; its session token acts for
       the seat beside the seat's token), and its name ("" for an account
       deleted since: the state shows DELETED_PLAYER). */
    long long acct[2];
    char player[2][NAME_MAX_LEN + 1];
    /* A takeback asked for in a game between two people: the side that
       asked (-1: none) and whether the other declined; in memory only
       (a restart forgets it), cleared by every committed change. */
    int tb_side, tb_declined;
    /* A game of the lobby (a seek taken) whose end is rated (kept in the
       store's games.rated), and once it ended what that did (store.h);
       a lobby game, rated or not, has owner 0: nobody may delete it and
       neither player asks the engine for a move. */
    int rated, ended;
    mc_store_change change;
    int bot[2]; /* the level of the house bot holding a seat (0: none): its
                   moves are the server's computer player's (api_engine.c) */
    long long created, touched;
    double now; /* the time of the request being answered */
} game_entry;

/* The computer players: a few, kept between requests (each with its table
   and the endgame tables open), lent to one search at a time. */
#define API_PLAYERS 4
/* A house bot's thinking time a move (api_lobby.c offers them, api_engine.c
   plays their moves, within the clock as every engine move): a page's
   computer player's at that level. */
#define API_BOT_SECONDS(level) ((level) <= 2 ? 0.2 : (level) <= 5 ? 0.5 : 1.0)

typedef struct api_player {
    mc_player *pl;
    char spec[MC_SPEC_STRLEN];
    int busy;
    int help;            /* lent to an analysis or a hint */
    char addr[ADDR_LEN]; /* ... for this address */
} api_player;

/* What each address did in the current minute: games created, CPU
   seconds of its requests, and for the accounts (api_account.c) accounts
   made, password hashes begun and failed sign-ins (exact per address:
   RATE_SLOTS addresses a minute; beyond them an address is not counted,
   and the quota, the game limit and the per-request bounds still hold;
   an address with no slot makes no password hash). */
#define RATE_SLOTS 1024
typedef struct rate_slot {
    char addr[ADDR_LEN];
    long long minute;
    int count;
    double work;
    int accounts, hashes, fails;
    int seeks; /* seeks posted (api_lobby.c) */
} rate_slot;

/* An open challenge of the lobby (api_lobby.c), in memory only: a seek
   ends when its creator stops looking at it (SEEK_IDLE), so a restart
   that forgets them forgets only seeks whose creators must look again.
   Once taken, withdrawn or ended it stays SEEK_KEEP seconds, so that its
   creator learns the game and a late taker hears why it is gone. */
#define SEEK_IDLE MC_API_SEEK_IDLE
#define SEEK_KEEP MC_API_SEEK_KEEP
enum {
    SEEK_FREE,
    SEEK_OPEN,
    SEEK_TAKING,
    SEEK_TAKEN,
    SEEK_WITHDRAWN,
    SEEK_ENDED
};
typedef struct api_seek {
    int status;
    char id[ID_LEN + 1];
    char secret[ID_LEN + 1]; /* the creator's token for the seek */
    char addr[ADDR_LEN];
    long long account; /* the creator's (0: none) */
    char name[NAME_MAX_LEN + 1];
    char spec[MC_SPEC_STRLEN], kind[16], time[64], title[96];
    int rated;
    int pool;                    /* waits in a pool (POST /api/pair) */
    int side;                    /* the creator's: 0 S, 1 N, -1 by lot */
    int shown, provisional;      /* the creator's rating for the kind */
    double created, seen, ended; /* seen: the creator's last look */
    char game[ID_LEN + 1];       /* taken: the game ... */
    int game_side;               /* ... the creator's seat ... */
    char game_token[ID_LEN + 1]; /* ... and its token */
} api_seek;

/* The failed sign-ins of each account name tried lately, known or not
   (api_account.c): how many since the name's last quiet spell, the last
   one, and until when the name is refused without a try. */
#define NAME_SLOTS 4096
typedef struct name_slot {
    char key[NAME_MAX_LEN + 1]; /* the name in lower case; "" free */
    int fails;
    double last, until;
} name_slot;

struct mc_api {
    mc_api_opts o;
    rate_slot rate[RATE_SLOTS];  /* table lock */
    name_slot names[NAME_SLOTS]; /* table lock */
    mc_store *store;
    int shared; /* other server processes change the store (PostgreSQL):
                   a game not in the table may be there, and their changes
                   are heard (api_table_listen) */
    pthread_mutex_t table; /* bucket, n, refs, pending, last_sweep, rate,
                              names (api_table_lock) */
    int table_held;        /* table is held, by table_holder (asserts) */
    pthread_t table_holder;
    game_entry **bucket;
    size_t nbucket; /* a power of two */
    int n;
    long long last_sweep;
    pthread_mutex_t
        players_lock; /* players, book_off, book_variety, stopping */
    pthread_cond_t player_freed;
    api_player players[API_PLAYERS];
    int book_off, book_variety;
    int stopping;            /* the server is going down: no new search */
    _Atomic double fake_now; /* tests: the time instead of the real one */
    /* Live events: bumped and broadcast after every request, so that the
       streams waiting in mc_api_wait look at their game again. */
    pthread_mutex_t ev_lock;
    pthread_cond_t ev_cond;
    unsigned long ev_gen;
    int ev_stop;
    /* The lobby's seeks (api_lobby.c): lobby_lock, never held while any
       other lock is taken. */
    pthread_mutex_t lobby_lock;
    api_seek seeks[MC_API_MAX_SEEKS];
    unsigned long lobby_gen; /* bumped by every change of a seek (the
                                lobby's stream follows it) */
};

/* e (its lock held) must be read again from the store before use: a
   change of its failed to commit, or another process committed a later
   one. */
static inline int api_behind(game_entry *e)
{
    return e->stale || atomic_load(&e->heard) > e->version;
}

/* Seconds since 1970 (created, touched, expiry). */
static inline long long now_s(void)
{
    return (long long)time(NULL);
}

/* The clocks' time: seconds since 1970 with a fraction (a test's own time
   when it set one). */
static inline double clock_now(const mc_api *a)
{
    double fake = atomic_load(&a->fake_now);
    if (fake > 0)
        return fake;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The round being played, and its session. */
static inline mc_record *cur_rec(const game_entry *e)
{
    assert(e->n > 0 && e->n <= e->cap);
    return e->recs[e->n - 1];
}
static inline mc_session *cur_session(const game_entry *e)
{
    return mc_record_session(cur_rec(e));
}

/* ---- api_lock.c: the locks (never the table's while a game's is held) -- */
void api_game_lock(game_entry *e);
int api_game_locked(const game_entry *e);
void api_game_unlock(game_entry *e);
void api_table_lock(mc_api *a);
int api_table_locked(const mc_api *a);
void api_table_unlock(mc_api *a);

/* ---- api_reply.c: JSON in and out -------------------------------------- */
json_t *api_safe_str(const char *s);
void api_reply_json(mc_api_reply *out, int status, json_t *j);
void api_reply_error(mc_api_reply *out, int status, const char *code,
                     const char *fmt, ...) MC_PRINTF(4, 5);
const char *api_err_code(int code);
json_t *api_parse_body(const char *body, size_t len, const char *const *allowed,
                       mc_api_reply *out);
/* A body that must say nothing: none, or an empty JSON object.  0, or -1
   with the error of api_parse_body in out. */
int api_no_body(const char *body, size_t len, mc_api_reply *out);
int api_opt_str(json_t *j, const char *key, const char **s, size_t max,
                mc_api_reply *out);
int api_opt_num(json_t *j, const char *key, double lo, double hi, double *x,
                mc_api_reply *out);

/* ---- api_seats.c: secrets, seats, invitations -------------------------- */
int api_random_hex(char out[ID_LEN + 1]);
int api_random_session(char out[MC_API_SESSION_LEN + 1]);
uint64_t api_random_u64(void);
int api_holds(const game_entry *e, const api_req *rq, int side);
int api_holds_any(const game_entry *e, const api_req *rq);
int api_invited_side(const game_entry *e, const char *code);
void api_deny(mc_api_reply *out, const char *tok, const char *what);
const char *api_side_seat(int side);
int api_help_allowed(const game_entry *e);
int api_help_refused(const game_entry *e, mc_api_reply *out);

/* ---- api_rounds.c: a game's rounds, its match, its set-up's turn ------- */
int api_read_rounds(const char *text, const char *path, mc_record ***recs,
                    int *n, mc_error *err);
int api_add_round(game_entry *e, mc_record *r);
void api_match_of(const game_entry *e, mc_match *m);
int api_game_finished(const game_entry *e);
int api_rated_end(const game_entry *e, double *score);
int api_setup_turn(const game_entry *e);

/* ---- api_work.c: the bounds of a request's work ------------------------ */
int api_costly(const mc_api *a, game_entry *e, mc_api_reply *out);
int api_player_go(const mc_api *a, api_player *ap, const mc_go *go, int sure,
                  mc_search_info *info);
rate_slot *api_rate_of(mc_api *a, const char *addr);
double api_work_begin(mc_api *a, const char *addr, mc_api_reply *out);
void api_work_end(mc_api *a, const char *addr, double cpu, mc_api_reply *out);

/* ---- api_table.c: the table of games, the store's copy ----------------- */
int api_valid_id(const char *s);
game_entry *api_table_find(mc_api *a, const char *id);
int api_table_add(mc_api *a, game_entry *e);
void api_entry_free(game_entry *e);
void api_release(mc_api *a, game_entry *e);
void api_table_remove(mc_api *a, game_entry *e);
game_entry *api_acquire(mc_api *a, const char *id);
game_entry **api_table_all(mc_api *a, int *n);
game_entry *api_entry_new(void);
void api_clock_of(const game_entry *e, mc_store_clock *c);
int api_commit(mc_api *a, game_entry *e, mc_api_reply *out);
int api_commit_takeback(mc_api *a, game_entry *e, mc_api_reply *out);
void api_reply_changed(mc_api_reply *out);
int api_reload(mc_api *a, game_entry *e, mc_api_reply *out);
int api_table_load(mc_api *a, mc_error *err);
int api_table_listen(mc_api *a, mc_error *err);
void api_ev_broadcast(mc_api *a);

/* ---- api_state.c: a game in JSON, its state ---------------------------- */
json_t *api_move_json(const mc_game *g, const mc_pos *p, mc_move m);
json_t *api_board_json(const mc_game *g, const mc_pos *p);
json_t *api_trace_json(const mc_game *g, const mc_trace *tr);
json_t *api_explain_json(const mc_game *g, const mc_pos *before, mc_move m,
                         const mc_trace *tr);
void api_reply_state(mc_api_reply *out, int status, const game_entry *e,
                     const char *move, const mc_trace *tr, json_t *extra);

/* ---- api_read.c: the endpoints that only read -------------------------- */
void ep_games(mc_api *a, const api_req *rq, mc_api_reply *out);
void ep_state(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out);
void ep_record(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out);
void ep_positions(mc_api *a, game_entry *e, const api_req *rq,
                  mc_api_reply *out);
void ep_last_trace(mc_api *a, game_entry *e, const api_req *rq,
                   mc_api_reply *out);
void ep_offer(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out);

/* ---- api_setup.c: the custom set-up (Omweso W3) ------------------------ */
void ep_setup(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out);

/* ---- api_new.c: games made, joined, deleted ---------------------------- */
void api_set_date(mc_record *r);
void api_set_time(mc_api *a, mc_record *r, const mc_time_control *tc);
void ep_new(mc_api *a, const api_req *rq, mc_api_reply *out);
void ep_load(mc_api *a, const api_req *rq, mc_api_reply *out);
void ep_join(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out);
int api_new_seated(mc_api *a, mc_record *r, const char *addr,
                   const long long acct[2],
                   const char names[2][NAME_MAX_LEN + 1], const int bot[2],
                   int rated, const char tok[2][ID_LEN + 1], json_t *extra,
                   char id[ID_LEN + 1], mc_api_reply *out);
void ep_delete(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out);

/* ---- api_play.c: the endpoints that play ------------------------------- */
void api_play_token(mc_api *a, game_entry *e, const char *tok,
                    mc_api_reply *out, json_t *extra);
int api_flag_first(mc_api *a, game_entry *e, mc_api_reply *out);
void ep_play(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out);
void ep_undo(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out);
void ep_redo(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out);
void ep_takeback(mc_api *a, game_entry *e, const api_req *rq,
                 mc_api_reply *out);
void ep_resign(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out);
void ep_next(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out);

/* ---- api_account.c: accounts and sessions ------------------------------ */
int api_session_of(mc_api *a, api_req *rq, mc_api_reply *out);
void ep_register(mc_api *a, const api_req *rq, mc_api_reply *out);
void ep_unregister(mc_api *a, const api_req *rq, mc_api_reply *out);
void ep_login(mc_api *a, const api_req *rq, mc_api_reply *out);
void ep_logout(mc_api *a, const api_req *rq, mc_api_reply *out);
void ep_me(mc_api *a, const api_req *rq, mc_api_reply *out);
void ep_password(mc_api *a, const api_req *rq, mc_api_reply *out);

/* ---- api_players.c: players and the games played now ------------------- */
void ep_player(mc_api *a, const api_req *rq, mc_api_reply *out);
void ep_live(mc_api *a, const api_req *rq, mc_api_reply *out);

/* ---- api_engine.c: the computer players -------------------------------- */
void ep_engine(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out);
void ep_hint(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out);
void ep_analysis(mc_api *a, game_entry *e, const api_req *rq,
                 mc_api_reply *out);
void ep_review(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out);
void ep_analyze(mc_api *a, const api_req *rq, mc_api_reply *out);

/* ---- api_lobby.c: seeks ------------------------------------------------ */
void ep_seek_new(mc_api *a, const api_req *rq, mc_api_reply *out);
void ep_seeks(mc_api *a, const api_req *rq, mc_api_reply *out);
void ep_seek(mc_api *a, const api_req *rq, mc_api_reply *out);
void ep_pair(mc_api *a, const api_req *rq, mc_api_reply *out);
void api_lobby_left(mc_api *a, long long id);

#endif
