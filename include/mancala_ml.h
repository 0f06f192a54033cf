/*
 * mancala_ml.h - what learning programs need from libmancala: a fixed
 * action space per game (moves as small integers), an observation of a
 * position as numbers, and fast batched random playouts.  The Python
 * module (python/mancala, docs/PYTHON.md) is built on these; the
 * per-game numbering and layouts are documented there.
 *
 * Actions and observations are seen from the side to move (docs/PYTHON.md
 * gives each game's numbering).  Nothing here allocates per move.
 */
#ifndef MANCALA_ML_H
#define MANCALA_ML_H

#include "mancala.h"

#ifndef MC_API
#define MC_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The size of the game's action space: every legal move of every position
   has an index below it (but for the limits docs/PYTHON.md states). */
MC_API int mc_ml_num_actions(const mc_game *g);
/* The action index of move m of p (m legal in p), or -1 when it has none. */
MC_API long mc_ml_action(const mc_game *g, const mc_pos *p, mc_move m);
/* The legal move of p whose index is a: 0 with *m set, or MC_ERR_ILLEGAL
   when no legal move of p (by its rules alone) has that index. */
MC_API int mc_ml_move(const mc_game *g, const mc_pos *p, long a, mc_move *m);
/* The action indexes of the session's legal moves now (none when the game
   is over), in the order of the moves; out has room for MC_MAX_MOVES.
   Returns the count; a move without an index is left out and counted in
   *dropped (may be NULL). */
MC_API int mc_ml_legal_actions(const mc_session *s, long *out, int *dropped);

/* Play the session's legal move whose index is a (one call for a learning
   loop's step): 0, MC_ERR_OVER when the game is over, MC_ERR_ILLEGAL when
   no legal move has that index; err names the action. */
MC_API int mc_ml_apply(mc_session *s, long a, mc_error *err);

/* The numbers of the game's observation of a position. */
MC_API int mc_ml_obs_size(const mc_game *g);
/* Write mc_ml_obs_size(g) numbers for p into out. */
MC_API void mc_ml_observe(const mc_game *g, const mc_pos *p, float *out);

/* The outcome of batched random playouts. */
typedef struct mc_ml_playouts {
    uint64_t games;   /* games played */
    uint64_t wins[2]; /* won by South, by North */
    uint64_t draws;
    uint64_t cut;   /* stopped at max_plies with the game going on */
    uint64_t plies; /* plies played in all the games */
    int reserved[4];
} mc_ml_playouts;

/* Play n games of uniformly random legal moves from p (history counted
   from p, as `mancala apply` does), each stopped after max_plies plies
   when max_plies > 0, with the random stream of seed; the same seed gives
   the same counts.  0, or MC_ERR_ARG (n < 0, out of memory). */
MC_API int mc_ml_random_playouts(const mc_game *g, const mc_pos *p, long n,
                                 uint64_t seed, int max_plies,
                                 mc_ml_playouts *out);

#ifdef __cplusplus
}
#endif
#endif
