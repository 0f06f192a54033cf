/*
 * learned.h - learned evaluations (learned.c): linear models, or small
 * networks, over each game's features (mc_rules.features), with weights from
 * data/eval/<game>.txt embedded in the library.  Internal to the library.
 */
#ifndef MC_LEARNED_H
#define MC_LEARNED_H

#include <stdint.h>

#include "game.h"

/* The model of rules r, or NULL when the game has none or it is turned off
   (mc_eval_source "hand"); loaded once, thread-safe. */
const mc_learned *mc_learned_model(const mc_rules *r);
/* mc_eval_source over the games of rules (NULL-terminated). */
int mc_learned_source(const char *src, const mc_rules *const *rules,
                      mc_error *err);

/* The model of r from src for one game (mc_game_set_eval): "hand" none
   (*out NULL), a directory its <game>.txt, else a weights file.  0, or an
   MC_ERR_* with err filled (*out NULL). */
int mc_learned_load(const mc_rules *r, const char *src, mc_learned **out,
                    mc_error *err);

/* Parse a weights text (docs/SEARCH.md, "Learned evaluations") for rules r
   into w[0..r->nfeat-1].  0, or -1 with a message naming the line. */
int mc_learned_parse(const mc_rules *r, const char *text, int32_t *w,
                     mc_error *err);

/* Parse a weights text of either kind into m (allocated; mc_learned_clear
   frees it).  0, or -1 with a message naming the line. */
int mc_learned_parse_model(const mc_rules *r, const char *text, mc_learned *m,
                           mc_error *err);
void mc_learned_clear(mc_learned *m);
/* A copy of m, a model of r (NULL when out of memory). */
mc_learned *mc_learned_copy(const mc_rules *r, const mc_learned *m);

/* The embedded weight files, by game name (generated from data/eval). */
const char *mc_eval_text(const char *name);

#endif
