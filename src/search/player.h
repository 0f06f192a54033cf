/*
 * player.h - what the library's own front-ends (the engine protocol) may
 * ask of a player beyond mancala.h.  Internal: not exported, no ABI
 * promise; a program outside the library uses mc_player_set_opts.
 */
#ifndef MC_PLAYER_H
#define MC_PLAYER_H

#include <stdint.h>

#include "mancala.h"

/* The randomness of the next searches (mc_player_opts.seed: the lower
   levels' choices, the book's variety), and nothing else: no option is
   checked or set again. */
void mc_player_set_seed(mc_player *pl, uint64_t seed);

/* A player whose tables option is the default places looks there again
   (tables built since it looked); other players are left as they are. */
void mc_player_look_again(mc_player *pl);

#endif
