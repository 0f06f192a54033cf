/*
 * engine.h - what the two dialects of `mancala engine` share: the engine's
 * state (its game, position, player and options), its output, its search
 * thread and the word splitter, all in engine_common.c.  protocol.c speaks
 * the mancala engine protocol, uci.c the UCI dialect of the Oware GUIs
 * (docs/PROTOCOL.md, "UCI"); each gives engine_common.c a table of its
 * words (proto_dialect) when the engine is made, so calls run one way:
 *
 *     protocol.c ----\
 *                     >---> engine_common.c ---> (through e->dialect)
 *     uci.c ---------/
 *
 * and neither dialect calls the other.  None knows a rule: everything goes
 * through the public API.
 */
#ifndef MC_PROTOCOL_ENGINE_H
#define MC_PROTOCOL_ENGINE_H

#include <pthread.h>

#include "mancala_protocol.h"

/* Words on a line: a position string and the moves of a long game. */
#define PROTO_MAX_WORDS 8192

/* Words on a line, split. */
typedef struct proto_words {
    const char *base; /* the split copy of the line */
    int n;
    char *w[PROTO_MAX_WORDS];
} proto_words;

/* A dialect: what the machinery asks of it.  Set once, when the engine
   is made (mc_engine_new, mc_engine_new_uci). */
typedef struct proto_dialect {
    const char *error; /* how its error lines begin */
    /* One command line, split (rest: the whole line, unsplit: ws->w[i] -
       ws->base is a word's offset in it); 1 after quit. */
    int (*command)(mc_engine *e, proto_words *ws, const char *rest);
    /* An iteration's info line (on the search's thread). */
    void (*info)(mc_engine *e, const mc_search_info *in);
    /* A finished search's answer, e->lock held: its best move, or why
       there is none. */
    void (*best_locked)(mc_engine *e, int rc, const mc_search_info *in);
} proto_dialect;

struct mc_engine {
    mc_engine_out out;
    void *ctx;
    const proto_dialect *dialect;
    pthread_mutex_t lock; /* output, and the search state below */
    pthread_cond_t cond;
    mc_game *g; /* the engine's game: the commands read it */
    mc_session *s;
    /* The player thinks on its own copy of the game and history, so the
       commands answered during a search never share state with it. */
    mc_player *pl;
    mc_player_opts opts;
    char database[1024];        /* "default", "none" or a directory */
    char book[1024];            /* "default", "none" or a book file */
    double line_start;          /* when the current command arrived */
    int uci_tables_off;         /* UCI: option Tables false */
    char uci_tables_path[1024]; /* UCI: option TablesPath ("" = default) */
    /* search */
    pthread_t th;
    int live;     /* a thread to join */
    int running;  /* it has not written its best move yet */
    int infinite; /* hold the best move until stop */
    int ponder;   /* pondering: hold the best move until ponderhit or stop */
    int stop;     /* atomic: set by stop, quit, the end of input */
    /* atomic: the default places gained tables (mc_engine_tables_ready) */
    int tables_ready;
    mc_go go;
    uint64_t searches;
    /* Without threads (MC_NO_THREADS): the open-ended search's steps
       (protocol.c, mc_engine_step). */
    int steps, step_shown, step_done, step_rc;
    mc_search_info step_best;
};

/* ---- output: one line at a time, under e->lock ---- */

void proto_say(mc_engine *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The same with e->lock already held (several lines that stay together). */
void proto_say_locked(mc_engine *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The legal prefix of the principal variation from root, its moves
   separated by sep ("" or " "). */
void proto_format_pv(const mc_game *g, const mc_pos *root,
                     const mc_search_info *in, const char *sep, char *buf,
                     size_t n);

/* ---- the search thread ---- */

/* Start a search of the engine's position with *go (its start, on_info,
   stop and the seed are filled here).  0, or -1 with the reason in why. */
int proto_start_search(mc_engine *e, const mc_go *go, char *why, size_t n);
/* 1 while the search has not written its best move. */
int proto_running(mc_engine *e);
/* Stop the search (if `now`) and wait for its thread. */
void proto_join_search(mc_engine *e, int now);
/* The last search is over: reap its thread (before a command that may
   start another). */
void proto_reap(mc_engine *e);
/* The pondered move was played: the search goes on, on the clock, and its
   bestmove is the answer (without threads: now).  0, or -1 after writing
   `refusal` when no search is pondering. */
int proto_ponderhit(mc_engine *e, const char *refusal);
/* Ask the search to end (e->lock held). */
void proto_raise_stop_locked(mc_engine *e);

/* ---- state ---- */

/* An engine speaking `dialect`: Oware at its start position, the default
   options; NULL when out of memory. */
mc_engine *proto_engine_new(mc_engine_out out, void *ctx,
                            const proto_dialect *dialect);

/* The player's options o with `database` as its tables and `book` as its
   book; 0 or an error in err (the player keeps its old options). */
int proto_apply_opts(mc_engine *e, mc_player_opts *o, const char *database,
                     const char *book, mc_error *err);
/* The engine plays game `spec` from its start position, with a new
   player (same options); 0, or -1 with err filled (nothing changed). */
int proto_set_game(mc_engine *e, const char *spec, mc_error *err);
/* The engine's session becomes s (the old one is freed). */
void proto_reset_session(mc_engine *e, mc_session *s);

/* ---- words ---- */

/* The parameters of go, in the order both dialects name them (ours:
   stime ntime sinc ninc movestogo movetime depth nodes; UCI: wtime btime
   winc binc ...), plus the words infinite and ponder. */
enum {
    PROTO_GO_STIME,
    PROTO_GO_NTIME,
    PROTO_GO_SINC,
    PROTO_GO_NINC,
    PROTO_GO_MTG,
    PROTO_GO_MOVETIME,
    PROTO_GO_DEPTH,
    PROTO_GO_NODES,
    PROTO_GO_NKEYS
};
/* What was wrong with a go line, for the dialect to say in its words. */
typedef struct proto_go_bad {
    enum { PROTO_GO_UNKNOWN, PROTO_GO_NUMBER, PROTO_GO_BOTH } what;
    const char *word; /* UNKNOWN: the word; NUMBER: the value, or NULL */
    int key;          /* NUMBER: the parameter */
    long long lo, hi; /* NUMBER: its range */
} proto_go_bad;
/* Read ws->w[1..] of a go line with the dialect's names keys: v[k] the
   number given for key k (-1: none), *infinite and *ponder.  0, or -1
   with *bad told (an unknown word, a number out of range or missing,
   infinite with ponder). */
int proto_go_words(const proto_words *ws,
                   const char *const keys[PROTO_GO_NKEYS],
                   long long v[PROTO_GO_NKEYS], int *infinite, int *ponder,
                   proto_go_bad *bad);
/* The search's limits from them: milliseconds to seconds, a 0 ms clock
   or movetime as fast as can be.  When nothing limits the mover, the
   player's default applies (mc_go: one second). */
void proto_go_make(const long long v[PROTO_GO_NKEYS], int infinite, int ponder,
                   mc_go *go);

/* Split s (modified in place) at spaces and tabs; -1 if too many words. */
int proto_split(char *s, proto_words *ws);
/* The rest of the line after word i (a value that may have spaces, as a
   path), without the blanks around it, into buf; 0, or -1 when it is n
   bytes or longer (blanks after it counted). */
int proto_line_after(const proto_words *ws, const char *rest, int i, char *buf,
                     size_t n);
/* A whole number in [lo, hi]; -1 if w is not one. */
long long proto_number(const char *w, long long lo, long long hi);

#endif
