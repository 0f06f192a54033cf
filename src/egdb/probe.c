/*
 * probe.c - opening a directory of layer files (mapped, every checksum and
 * dependency checked) and probing them: the raw entry of a position, and
 * what the search may conclude from it (shared EGDB.md, "How the search
 * uses it").
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "../core/util.h"
#include "egdb_int.h"

struct mc_egdb {
    int preset;
    int max;
    /* A plain layer's entries (mapped), or NULL for a compressed one,
       read through z (and, for eg_layer_data, whole into inflated). */
    const uint8_t *data[MC_EGDB_MAX_SEEDS + 1];
    void *map[MC_EGDB_MAX_SEEDS + 1];
    size_t maplen[MC_EGDB_MAX_SEEDS + 1];
    eg_zlayer z[MC_EGDB_MAX_SEEDS + 1];
    uint8_t *inflated[MC_EGDB_MAX_SEEDS + 1];
    pthread_mutex_t mu; /* inflating */
    mc_egdb_info info[MC_EGDB_MAX_SEEDS + 1];
};

int eg_layer_file_any(const char *dir, int preset, int n, char *path, size_t sz)
{
    struct stat st;
    mc_egdb_zpath(dir, preset, n, path, sz);
    if (stat(path, &st) == 0) {
        char plain[4096];
        mc_egdb_path(dir, preset, n, plain, sizeof plain);
        if (stat(plain, &st) != 0)
            return 1;
    }
    /* The plain file where both are (a compression that stopped before
       removing it), and its name in messages where neither is. */
    mc_egdb_path(dir, preset, n, path, sz);
    return stat(path, &st) == 0 ? 0 : -1;
}

void mc_egdb_close(mc_egdb *db)
{
    if (!db)
        return;
    for (int n = 0; n <= MC_EGDB_MAX_SEEDS; n++) {
        if (db->map[n])
            munmap(db->map[n], db->maplen[n]);
        eg_zunmap(&db->z[n]);
        free(db->inflated[n]);
    }
    pthread_mutex_destroy(&db->mu);
    free(db);
}

mc_egdb *mc_egdb_open(const char *dir, int preset, int max_seeds, mc_error *err)
{
    if (preset != MC_EGDB_ABAPA && preset != MC_EGDB_AWARI) {
        mc_err(err, MC_ERR_ARG, "unknown preset %d", preset);
        return NULL;
    }
    mc_egdb *db = calloc(1, sizeof *db);
    if (!db) {
        mc_err(err, MC_ERR_NOMEM, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&db->mu, NULL);
    db->preset = preset;
    db->max = -1;
    int hi = max_seeds < 0 ? MC_EGDB_MAX_SEEDS : max_seeds;
    if (hi > MC_EGDB_MAX_SEEDS)
        hi = MC_EGDB_MAX_SEEDS;
    for (int n = 0; n <= hi; n++) {
        char path[4096];
        int zipped = eg_layer_file_any(dir, preset, n, path, sizeof path);
        if (max_seeds < 0) {
            if (zipped < 0) {
                /* As many layers as there are, but a layer missing under
                   others is damage, not the end: using fewer would hide
                   it (the layers above it need it). */
                for (int m = n + 1; m <= MC_EGDB_MAX_SEEDS; m++) {
                    char above[4096];
                    if (eg_layer_file_any(dir, preset, m, above, sizeof above) <
                        0)
                        continue;
                    mc_err(err, MC_ERR_IO,
                           "%s: layer %d is missing but layer %d (%s) is "
                           "there: rebuild from layer %d up",
                           dir, n, m, above, n);
                    mc_egdb_close(db);
                    return NULL;
                }
                break;
            }
        }
        mc_egdb_info *in = &db->info[n];
        if (zipped > 0 ? eg_zmap(path, in, &db->z[n], err) != 0
                       : eg_map_layer(path, in, &db->data[n], &db->map[n],
                                      &db->maplen[n], err) != 0) {
            mc_egdb_close(db);
            return NULL;
        }
        if (in->preset != preset || in->n != n) {
            mc_err(err, MC_ERR_IO,
                   "%s: holds layer %d of %s, not layer %d of %s", path, in->n,
                   mc_egdb_preset_name(in->preset), n,
                   mc_egdb_preset_name(preset));
            mc_egdb_close(db);
            return NULL;
        }
        for (int m = 0; m < n; m++)
            if (in->dep_sum[m] != db->info[m].header_sum) {
                mc_err(err, MC_ERR_IO,
                       "%s: built from a different layer %d (dependency "
                       "checksum mismatch): rebuild from layer %d up",
                       path, m, m);
                mc_egdb_close(db);
                return NULL;
            }
        /* a layer stands on the very layers below it */
        assert(in->n == n && in->ndeps == (uint32_t)n);
        db->max = n;
    }
    if (db->max < 0 && max_seeds < 0) {
        char path[4096];
        mc_egdb_path(dir, preset, 0, path, sizeof path);
        mc_err(err, MC_ERR_IO, "no tables in %s (no %s)", dir, path);
        mc_egdb_close(db);
        return NULL;
    }
    return db;
}

int mc_egdb_max_seeds(const mc_egdb *db)
{
    return db ? db->max : -1;
}
int mc_egdb_preset(const mc_egdb *db)
{
    return db->preset;
}

const mc_egdb_info *mc_egdb_layer_info(const mc_egdb *db, int n)
{
    return db && n >= 0 && n <= db->max ? &db->info[n] : NULL;
}

/* The entry of rank x in layer n (in range), or -1 (a damaged block). */
static int entry_at(const mc_egdb *db, int n, uint64_t x)
{
    /* opening checked each layer's size: a rank of n seeds is inside */
    mc_hot_assert(n >= 0 && n <= db->max && x < db->info[n].entries);
    return db->data[n] ? db->data[n][x] : eg_zentry(&db->z[n], x);
}

int mc_egdb_entry(const mc_egdb *db, int n, const uint8_t h[12])
{
    if (!db || n < 0 || n > db->max)
        return -1;
    return entry_at(db, n, mc_egdb_rank(h));
}

int mc_egdb_probe(const mc_egdb *db, const mc_pos *p, int *value,
                  int *history_proof)
{
    uint8_t h[12];
    int n = 0;
    for (int i = 0; i < 12; i++) {
        h[i] = p->pit[p->side == MC_NORTH ? (i + 6) % 12 : i];
        n += h[i];
    }
    if (!db || n > db->max)
        return 0;
    int x = entry_at(db, n, mc_egdb_rank(h));
    if (x < 0)
        return 0; /* a block damaged since opening: as if not there */
    uint8_t e = (uint8_t)x;
    if (value)
        *value = eg_val(e);
    if (history_proof)
        *history_proof = e >> 7;
    return 1;
}

int mc_egdb_lookup(const mc_egdb *db, const mc_pos *p, int fresh, int *diff)
{
    int v, hp;
    if (!mc_egdb_probe(db, p, &v, &hp))
        return MC_EGDB_UNKNOWN;
    if (!fresh && !hp)
        return MC_EGDB_HISTORY;
    int me = p->side == MC_NORTH;
    if (diff)
        *diff = (int)p->cap[me] - (int)p->cap[1 - me] + v;
    return MC_EGDB_EXACT;
}

const uint8_t *eg_layer_data(const mc_egdb *db, int n)
{
    if (!db || n < 0 || n > db->max)
        return NULL;
    if (db->data[n])
        return db->data[n];
    /* A compressed layer, whole in memory once (the builder and verify
       read every entry). */
    mc_egdb *w = (mc_egdb *)db;
    pthread_mutex_lock(&w->mu);
    if (!w->inflated[n]) {
        uint8_t *all = malloc(w->z[n].entries ? w->z[n].entries : 1);
        if (all && eg_zinflate(&w->z[n], all) != 0) {
            free(all);
            all = NULL;
        }
        w->inflated[n] = all;
    }
    const uint8_t *d = w->inflated[n];
    pthread_mutex_unlock(&w->mu);
    assert(!d || w->z[n].entries == db->info[n].entries);
    return d;
}

/* Table scores: above MC_SCORE_PROVEN, below any win the search proves
   itself (MC_SCORE_WIN minus at most a few hundred plies), a larger
   margin higher, a nearer probe higher among equal margins. */
#define EG_SCORE_BASE (MC_SCORE_PROVEN + 10)
#define EG_SCORE_STEP 150

int mc_egdb_score_margin(int score)
{
    int a = score < 0 ? -score : score;
    if (a <= EG_SCORE_BASE ||
        a > EG_SCORE_BASE + EG_SCORE_STEP * MC_EGDB_MAX_SEEDS)
        return 0;
    int d = (a - EG_SCORE_BASE + EG_SCORE_STEP - 1) / EG_SCORE_STEP;
    return score < 0 ? -d : d;
}

int mc_egdb_search_probe(const mc_egdb *db, const mc_pos *p, int fresh, int ply,
                         int *score)
{
    int diff, rc = mc_egdb_lookup(db, p, fresh, &diff);
    if (rc != MC_EGDB_EXACT)
        return rc;
    int s = 0;
    if (ply < 0)
        ply = 0;
    if (ply >= EG_SCORE_STEP)
        ply = EG_SCORE_STEP - 1;
    if (diff > 0)
        s = EG_SCORE_BASE + EG_SCORE_STEP * diff - ply;
    else if (diff < 0)
        s = -(EG_SCORE_BASE + EG_SCORE_STEP * -diff - ply);
    /* a table score gives its margin back, whatever the ply */
    mc_hot_assert(diff < -MC_EGDB_MAX_SEEDS || diff > MC_EGDB_MAX_SEEDS ||
                  mc_egdb_score_margin(s) == diff);
    if (score)
        *score = s;
    return MC_EGDB_EXACT;
}

int mc_egdb_oracle(void *db, const mc_pos *p, int fresh, int ply, int *score)
{
    int rc = mc_egdb_search_probe(db, p, fresh, ply, score);
    return rc == MC_EGDB_EXACT ? 1 : rc == MC_EGDB_HISTORY ? -1 : 0;
}
