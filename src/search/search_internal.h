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

/* ---- one search request ---- */

/*
 * What one search is asked, in the one form the search knows.  The public
 * structs stay for the ABI and are converted once, where they come in:
 * an mc_go by mc_player_go (mc_request_of_go), an mc_search_limits by
 * mc_search and mc_selfplay (mc_request_of_limits).  A request limits
 * nothing unless told: the defaults are the public structs' own.
 */
typedef struct mc_request {
    int depth;       /* deepest iteration; 0 = no limit */
    uint64_t nodes;  /* node budget; 0 = none */
    double movetime; /* seconds, spent in full; 0 = none */
    double clock[2]; /* South's and North's clocks, seconds; 0 = none */
    double inc[2];   /* their increments */
    int movestogo;   /* 0 = unknown */
    int infinite;    /* until stopped */
    int ponder;      /* as infinite until the ponderhit */
    double start;    /* mc_now() when the move was asked for */
    void (*on_info)(const mc_search_info *, void *);
    void *info_ctx;
    /* The caller's stop flag (mc_go.stop, mc_search_limits.stop), or NULL:
       read by mc_outside_stop only. */
    const volatile int *stop;
    /* Proof search and an oracle (mc_search_limits: exact, oracle). */
    int exact;
    int (*oracle)(void *, const mc_pos *, int, int, int *);
    void *oracle_ctx;
} mc_request;

/* What an mc_go asks when nothing limits the mover ("a zeroed struct
   means one second": mancala.h): this move time.  The only place the
   default is decided is mc_request_of_go. */
#define MC_GO_DEFAULT_MOVETIME 1.0

/* The request of an mc_go, side to move `side`: start now when go->start
   is 0, and MC_GO_DEFAULT_MOVETIME when nothing limits the mover. */
void mc_request_of_go(const mc_go *go, int side, mc_request *rq);
/* The request of an mc_search_limits (zero limits: as deep as it goes),
   starting now. */
void mc_request_of_limits(const mc_search_limits *lim, mc_request *rq);

/* The caller's stop flag: a plain int another thread sets with an atomic
   store, read here and nowhere else, with a relaxed atomic load.  Inside
   an alpha-beta search worker 0 folds it into the search's own flag
   (mc_think.stop), the only one its threads and the rules' deadline
   read. */
static inline int mc_outside_stop(const volatile int *flag)
{
    return flag && __atomic_load_n(flag, __ATOMIC_RELAXED);
}

/* A player's answer to a request (mc_player_go after the conversion). */
int mc_player_think(mc_player *pl, const mc_request *rq, mc_search_info *out);

/* Monte Carlo tree search (mcts.c) of the session's position: within the
   request's node or time budget (100,000 playouts when it has neither),
   random by seed, until *stop (the player's flag; may be NULL) or the
   request's stop flag is raised. */
int mc_mcts(const mc_session *s, const mc_request *rq, uint64_t seed,
            const atomic_int *stop, mc_search_info *out);

/* ---- time (timeman.c) ---- */

/* Soft and hard limits of one move, as absolute mc_now() times (0: none). */
typedef struct mc_timeman {
    double start; /* when the move was asked for */
    double soft;  /* ideal: stop after an iteration that ends past it */
    double hard;  /* never searched past */
    int fixed;    /* movetime: spend it all (soft = hard) */
} mc_timeman;

/* Limits for the side to move from a request, counted from rq->start;
   `scale` shrinks them (the lower levels). */
void mc_tm_of_request(mc_timeman *tm, const mc_request *rq, int side,
                      double scale);
/* The same from the time fields of a public mc_go as given (no default),
   counted from start: the time manager's unit test (tests/test_player.c). */
void mc_tm_init(mc_timeman *tm, const mc_go *go, int side, double start,
                double scale);
/* Whether to begin another iteration after one that ended at `now`:
   `stability` counts the iterations the best move has stayed the same,
   `changes` the recent changes of best move (decayed), `fall` how much
   the score fell since the last iterations (hundredths of a seed). */
int mc_tm_go_on(const mc_timeman *tm, double now, int stability, double changes,
                int fall);

/* ---- one search, shared by its threads ---- */

typedef struct mc_think {
    mc_tt *tt;
    /* The one stop flag of the search (the player's): raised by
       mc_player_stop, by worker 0 at a limit or when the caller's flag
       is up, and when worker 0 ends; read with relaxed atomic loads. */
    atomic_int *stop;
    const volatile int *outside_stop; /* the request's: worker 0 polls it */
    double work_limit;         /* the caller's mc_work_limit(), for helpers */
    atomic_int ponder;         /* 1 while pondering */
    atomic_llong ponderhit_ns; /* when the ponderhit came (0: not yet) */
    mc_timeman tm;
    int timed; /* the time manager applies */
    int level, max_depth, exact;
    mc_search_tuning tune; /* the player's knobs (mc_player_opts) */
    uint64_t node_limit;
    int (*oracle)(void *, const mc_pos *, int, int, int *);
    void *oracle_ctx;
    /* Root moves the search may choose (from the tables), or NULL. */
    const unsigned char *root_allow;
    uint64_t seed;
    int nthreads;
    atomic_int done_depth; /* deepest iteration any thread finished */
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
    mc_game *g; /* this thread's copy of the game (caches inside) */
    int own_game;
    mc_line l;
    int root;
    mc_kids *kid; /* one per ply */
    mc_move killer[MC_MAX_PLY][2];
    int history[MC_MAX_PITS * 4];
    mc_move pv[MC_MAX_PLY][MC_MAX_PLY];
    int pvlen[MC_MAX_PLY];
    uint64_t nodes;
    atomic_ullong shared_nodes; /* published every few nodes */
    uint64_t oracle_hits;
    int stop; /* this thread saw the stop */
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
