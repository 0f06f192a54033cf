/*
 * search_internal.h - what the search modules share inside the library:
 * the state of one search (a "think", shared by its threads), one thread's
 * alpha-beta worker, and the time manager.
 */
#ifndef MC_SEARCH_INTERNAL_H
#define MC_SEARCH_INTERNAL_H

#include <stdatomic.h>

#include "mancala.h"
#include "../session/line.h"
#include "tt.h"

#define MC_MAX_PLY 128

/* The bits of mc_search_tuning.prune (mancala.h; default RFP | QS, chosen
   by self-play: docs/SEARCH.md, "Pruning: what was tried"). */
enum {
    MC_PRUNE_RFP = 1,  /* reverse futility pruning */
    MC_PRUNE_IIR = 2,  /* internal iterative reduction */
    MC_PRUNE_LMR3 = 4, /* a third ply of late-move reduction, depth 10+ */
    MC_PRUNE_QS = 8    /* a quiescence search of the moves that gain */
};

/* What mc_search_limits adds to a player (player.c): exact proof search,
   an oracle instead of the player's tables, a legacy stop flag. */
void mc_player_limits(mc_player *pl, const mc_search_limits *lim);
/* The search request of a mc_search_limits. */
void mc_go_of_limits(const mc_search_limits *lim, mc_go *go);

/* Monte Carlo tree search (mcts.c). */
int mc_mcts(const mc_session *s, const mc_search_limits *lim,
            mc_search_info *out);

/* ---- time (timeman.c) ---- */

/* Soft and hard limits of one move, as absolute mc_now() times (0: none). */
typedef struct mc_timeman {
    double start; /* when the move was asked for */
    double soft;  /* ideal: stop after an iteration that ends past it */
    double hard;  /* never searched past */
    int fixed;    /* movetime: spend it all (soft = hard) */
} mc_timeman;

/* Limits for the side to move from a request; `scale` shrinks them (the
   lower levels).  start: go->start or now. */
void mc_tm_init(mc_timeman *tm, const mc_go *go, int side, double start,
                double scale);
/* Whether to begin another iteration after one that ended at `now`:
   `stability` counts the iterations the best move has stayed the same,
   `changes` the recent changes of best move (decayed), `fall` how much
   the score fell since the last iterations (hundredths of a seed). */
int mc_tm_go_on(const mc_timeman *tm, double now, int stability,
                double changes, int fall);

/* ---- one search, shared by its threads ---- */

typedef struct mc_think {
    mc_tt *tt;
    atomic_int *stop;           /* the player's: stop everything */
    volatile int *legacy_stop;  /* mc_search_limits.stop, or NULL */
    int *ext_stop;              /* mc_go.stop, or NULL */
    double work_limit;          /* the caller's mc_work_limit(), for helpers */
    atomic_int ponder;          /* 1 while pondering */
    atomic_llong ponderhit_ns;  /* when the ponderhit came (0: not yet) */
    mc_timeman tm;
    int timed;                  /* the time manager applies */
    int infinite;               /* no time limit at all */
    int level, max_depth, exact;
    mc_search_tuning tune;      /* the player's knobs (mc_player_opts) */
    uint64_t node_limit;
    int (*oracle)(void *, const mc_pos *, int, int, int *);
    void *oracle_ctx;
    /* Root moves the search may choose (from the tables), or NULL. */
    const unsigned char *root_allow;
    uint64_t seed;
    int nthreads;
    atomic_int done_depth;      /* deepest iteration any thread finished */
    struct mc_worker **workers;
    void (*on_info)(const mc_search_info *, void *);
    void *info_ctx;
    /* Optional: lengthen a principal variation that ends where the
       endgame tables know the value (player.c), with game g. */
    void (*pv_more)(void *ctx, const mc_game *g, const mc_pos *root,
                    mc_search_info *out);
    void *pv_ctx;
} mc_think;

/* The children of one node, made up front so they can be ordered. */
typedef struct mc_kids {
    mc_pos pos[MC_MAX_MOVES];
    mc_move mv[MC_MAX_MOVES];
    uint64_t hash[MC_MAX_MOVES];
    int flags[MC_MAX_MOVES];
    int ev[MC_MAX_MOVES]; /* static evaluation, from the child's mover */
    int key[MC_MAX_MOVES];
    int order[MC_MAX_MOVES];
} mc_kids;

/* One thread's search state; kept by the player between moves. */
typedef struct mc_worker {
    int id;
    mc_game *g;       /* this thread's copy of the game (caches inside) */
    int own_game;
    mc_line l;
    int root;
    mc_kids *kid;     /* one per ply */
    mc_move killer[MC_MAX_PLY][2];
    int history[MC_MAX_PITS * 4];
    mc_move pv[MC_MAX_PLY][MC_MAX_PLY];
    int pvlen[MC_MAX_PLY];
    uint64_t nodes;
    atomic_ullong shared_nodes; /* published every few nodes */
    uint64_t oracle_hits;
    int stop;         /* this thread saw the stop */
    mc_think *t;
    mc_search_info out;
    int rc;
} mc_worker;

/* Make a worker for game g (not copied: the caller gives it its own). */
mc_worker *mc_worker_new(mc_game *g, int own_game);
void mc_worker_free(mc_worker *w);
/* Forget the move-ordering statistics (a new game). */
void mc_worker_clear(mc_worker *w);
/* Load the session's history into the worker's line; 0 or -1. */
int mc_worker_load(mc_worker *w, const mc_session *s);
/* One thread's iterative deepening (worker 0 manages time and reports).
   Returns 0, MC_ERR_OVER or MC_ERR_ARG; the result is in w->out. */
int mc_worker_think(mc_worker *w);

#endif
