/*
 * learned.h - learned evaluations (learned.c): linear models over each
 * game's features (mc_rules.features), with weights from data/eval/<game>.txt
 * embedded in the library.  Internal to the library.
 */
#ifndef MC_LEARNED_H
#define MC_LEARNED_H

#include <stdint.h>

#include "game.h"

/* The weights for rules r (nfeat entries), or NULL when the game has none
   or they are turned off (MANCALA_EVAL=hand); loaded once, thread-safe. */
const int32_t *mc_learned_weights(const mc_rules *r);

/* Parse a weights text (docs/SEARCH.md, "Learned evaluations") for rules r
   into w[0..r->nfeat-1].  0, or -1 with a message naming the line. */
int mc_learned_parse(const mc_rules *r, const char *text, int32_t *w,
                     mc_error *err);

/* The embedded weight files, by game name (generated from data/eval). */
const char *mc_eval_text(const char *name);

#endif
