/*
 * learned.c - learned evaluations: each game that has features
 * (mc_rules.features) and a weights file (data/eval/<game>.txt, embedded)
 * is evaluated as the sum of its active features' weights.  The weights are
 * parsed once per game, on first use.  MANCALA_EVAL=hand turns them off (the
 * hand-set evaluation of the game's file is used), MANCALA_EVAL_DIR=DIR reads
 * DIR/<game>.txt instead of the embedded file: both for training and strength
 * tests (docs/SEARCH.md).  Knows no rule: the features come from the game.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "learned.h"

int mc_learned_parse(const mc_rules *r, const char *text, int32_t *w,
                     mc_error *err)
{
    memset(w, 0, (size_t)r->nfeat * sizeof *w);
    int line = 0, have_count = 0;
    const char *s = text;
    while (*s) {
        line++;
        const char *end = strchr(s, '\n');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        char buf[256];
        if (len >= sizeof buf)
            return mc_err(err, MC_ERR_ARG, "weights line %d is too long", line);
        memcpy(buf, s, len);
        buf[len] = 0;
        s += len + (end ? 1 : 0);
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        char *p = buf;
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (!*p)
            continue;
        if (strncmp(p, "features ", 9) == 0) {
            long n = strtol(p + 9, NULL, 10);
            if (n != r->nfeat)
                return mc_err(err, MC_ERR_ARG,
                              "weights line %d: %ld features, but %s has %d",
                              line, n, r->name, r->nfeat);
            have_count = 1;
            continue;
        }
        if (!have_count)
            return mc_err(err, MC_ERR_ARG,
                          "weights line %d: expected 'features N' first",
                          line);
        char *q;
        errno = 0;
        long idx = strtol(p, &q, 10);
        if (q == p || idx < 0 || idx >= r->nfeat)
            return mc_err(err, MC_ERR_ARG,
                          "weights line %d: feature index out of 0..%d",
                          line, r->nfeat - 1);
        char *q2;
        double v = strtod(q, &q2);
        if (q2 == q || !isfinite(v) || fabs(v) > 1e6)
            return mc_err(err, MC_ERR_ARG,
                          "weights line %d: expected a weight after the index",
                          line);
        while (*q2 == ' ' || *q2 == '\t' || *q2 == '\r')
            q2++;
        if (*q2)
            return mc_err(err, MC_ERR_ARG,
                          "weights line %d: unexpected '%.20s'", line, q2);
        w[idx] = (int32_t)lround(v * MC_LEARNED_ONE);
    }
    if (!have_count)
        return mc_err(err, MC_ERR_ARG, "weights: no 'features N' line");
    return 0;
}

/* One slot per game, filled once. */
#define SLOTS 8
static struct {
    const mc_rules *r;
    int32_t *w;
} slot[SLOTS];
static int nslots;
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (n + 1 < cap)
            break;
        char *b2 = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;
        if (!b2) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = b2;
        cap *= 2;
    }
    fclose(f);
    if (buf)
        buf[n] = 0;
    return buf;
}

static int32_t *load(const mc_rules *r)
{
    const char *mode = getenv("MANCALA_EVAL");
    if (mode && strcmp(mode, "hand") == 0)
        return NULL;
    const char *dir = getenv("MANCALA_EVAL_DIR");
    char *owned = NULL;
    const char *text = NULL;
    if (dir && *dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.txt", dir, r->name);
        owned = read_file(path);
        text = owned;
        if (!text)
            return NULL; /* no file there: the hand-set evaluation */
    } else {
        text = mc_eval_text(r->name);
    }
    if (!text)
        return NULL;
    int32_t *w = malloc((size_t)r->nfeat * sizeof *w);
    mc_error err = {0};
    if (w && mc_learned_parse(r, text, w, &err) != 0) {
        fprintf(stderr, "mancala: %s evaluation: %s (using the hand-set one)\n",
                r->name, err.msg);
        free(w);
        w = NULL;
    }
    free(owned);
    return w;
}

const int32_t *mc_learned_weights(const mc_rules *r)
{
    if (!r->features || r->nfeat <= 0)
        return NULL;
    pthread_mutex_lock(&slot_lock);
    const int32_t *w = NULL;
    int i;
    for (i = 0; i < nslots; i++)
        if (slot[i].r == r)
            break;
    if (i < nslots) {
        w = slot[i].w;
    } else if (nslots < SLOTS) {
        slot[nslots].r = r;
        slot[nslots].w = load(r);
        w = slot[nslots++].w;
    }
    pthread_mutex_unlock(&slot_lock);
    return w;
}

size_t mc_feat_group_name(const mc_feat_group *gr, int i, char *buf,
                          size_t n)
{
    for (; gr->name; gr++) {
        if (i < gr->count)
            return (size_t)snprintf(buf, n, "%s %d", gr->name, i);
        i -= gr->count;
    }
    return (size_t)snprintf(buf, n, "?");
}
