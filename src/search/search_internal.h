/*
 * search_internal.h - what the search modules share inside the library.
 */
#ifndef MC_SEARCH_INTERNAL_H
#define MC_SEARCH_INTERNAL_H

#include "mancala.h"

/* Monte Carlo tree search (mcts.c), called by mc_search. */
int mc_mcts(const mc_session *s, const mc_search_limits *lim,
            mc_search_info *out);

#endif
