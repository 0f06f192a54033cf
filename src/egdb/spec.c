/*
 * spec.c - where the endgame tables meet a game's rules options: which
 * Oware option values make a preset (abapa, awari), the preset's names,
 * the game the builder plays, and the rules strings the layer headers
 * carry (the solved games' too, retro.c).  The one file outside
 * src/games that reads options by name (mc_game_option): a new preset or
 * a renamed option is a change to the table below, nowhere else.
 */
#include <stdio.h>
#include <string.h>

#include "../core/util.h"
#include "egdb_int.h"

/* The Oware options that decide a table's values, in the order of the
   rules string of a layer's header (docs/EGDB.md, "Files"). */
static const char *const oware_keys[] = {"grand_slam", "repetition",
                                         "cycle_split", NULL};
#define OWARE_NKEYS 3

/* A preset with tables: its name (files, headers, messages), the game
   the builder plays (any seed total) and the values of oware_keys that
   make a game this preset's. */
typedef struct preset_def {
    int preset;
    const char *name;
    const char *build_spec;
    const char *values[OWARE_NKEYS];
} preset_def;

static const preset_def presets[] = {
    {MC_EGDB_ABAPA,
     "abapa",
     "oware:abapa,seeds=any",
     {"forfeit", "first", "ownership"}},
    {MC_EGDB_AWARI,
     "awari",
     "oware:awari,seeds=any",
     {"illegal_unless_only", "threefold", "even"}},
};
#define NPRESETS (sizeof presets / sizeof presets[0])

/* The definition of a preset; any other number is taken for abapa, the
   default rules (as the callers always have). */
static const preset_def *def_of(int preset)
{
    for (size_t i = 1; i < NPRESETS; i++)
        if (presets[i].preset == preset)
            return &presets[i];
    return &presets[0];
}

const char *mc_egdb_preset_name(int preset)
{
    const preset_def *d = def_of(preset);
    /* the names tell the presets apart: a header's name reads back */
    assert(eg_preset_by_name(d->name) == d->preset);
    return d->name;
}

int eg_preset_by_name(const char *name)
{
    assert(name);
    for (size_t i = 0; i < NPRESETS; i++)
        if (strcmp(name, presets[i].name) == 0)
            return presets[i].preset;
    return -1;
}

const char *eg_preset_spec(int preset)
{
    return def_of(preset)->build_spec;
}

void eg_spell_spec(const mc_game *g, const char *const *keys, char *buf,
                   size_t sz)
{
    assert(g && buf && sz > 0);
    mc_sb b;
    mc_sb_init(&b, buf, sz);
    mc_sb_printf(&b, "%s:", mc_game_name(g));
    for (const char *const *k = keys; k && *k; k++) {
        const char *v = mc_game_option(g, *k);
        mc_sb_printf(&b, "%s%s=%s", k == keys ? "" : ",", *k, v ? v : "?");
    }
}

void eg_full_spec(const mc_game *g, char *buf, size_t sz)
{
    eg_spell_spec(g, oware_keys, buf, sz);
}

/* Whether g's options are the values of preset d. */
static int has_values(const mc_game *g, const preset_def *d)
{
    for (int i = 0; i < OWARE_NKEYS; i++) {
        const char *v = mc_game_option(g, oware_keys[i]);
        if (!v || strcmp(v, d->values[i]) != 0)
            return 0;
    }
    return 1;
}

int mc_egdb_preset_of(const mc_game *g, mc_error *err)
{
    if (strcmp(mc_game_name(g), "oware") != 0)
        return mc_err(err, MC_ERR_SPEC,
                      "endgame tables exist for oware only, not %s",
                      mc_game_name(g)),
               -1;
    for (size_t i = 0; i < NPRESETS; i++)
        if (has_values(g, &presets[i]))
            return presets[i].preset;
    mc_err(err, MC_ERR_SPEC,
           "no endgame tables for these rules (%s): tables exist for the "
           "presets abapa (oware) and awari (oware:awari)",
           mc_game_spec(g));
    return -1;
}

int mc_egdb_preset_parse(const char *spec, mc_error *err)
{
    mc_game *g = mc_game_new(spec, err);
    if (!g)
        return -1;
    int p = mc_egdb_preset_of(g, err);
    mc_game_free(g);
    return p;
}
