/*
 * learned.c - learned evaluations: each game that has features
 * (mc_rules.features) and a weights file (data/eval/<game>.txt, embedded)
 * is evaluated as the sum of its active features' weights, or, when the file
 * says `hidden H`, by a network of H clipped-ReLU units over them.  The weights
 * are parsed once per game, on first use.  MANCALA_EVAL=hand turns them off
 * (the hand-set evaluation of the game's file is used), MANCALA_EVAL_DIR=DIR
 * reads DIR/<game>.txt instead of the embedded file: both for training and
 * strength tests (docs/SEARCH.md).  Knows no rule: the features come from the
 * game.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../core/util.h"
#include "learned.h"

/* Up to n numbers of a weights line into v; the count read, or -1 when
   something else follows or a number is not finite and moderate. */
static int numbers(const char *p, double *v, int n)
{
    int k = 0;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (!*p)
            return k;
        char *q;
        double x = strtod(p, &q);
        if (q == p || k == n || !isfinite(x) || fabs(x) > 1e6)
            return -1;
        v[k++] = x;
        p = q;
    }
}

/* The next line of a weights text from *s into buf[n], its comment cut:
   the start of its content ("" for a blank or comment line), or NULL when
   the line does not fit. */
static char *weights_line(const char **s, char *buf, size_t n)
{
    const char *start = *s, *end = strchr(start, '\n');
    size_t len = end ? (size_t)(end - start) : strlen(start);
    *s += len + (end ? 1 : 0);
    if (len >= n)
        return NULL;
    memcpy(buf, start, len);
    buf[len] = 0;
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = 0;
    char *p = buf;
    while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
    return p;
}

void mc_learned_clear(mc_learned *m)
{
    free(m->w);
    free(m->w1);
    memset(m, 0, sizeof *m);
}

mc_learned *mc_learned_copy(const mc_rules *r, const mc_learned *m)
{
    mc_learned *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *m;
    c->w = NULL;
    c->w1 = NULL;
    size_t nw = (size_t)r->nfeat * sizeof *m->w,
           nw1 = (size_t)r->nfeat * (size_t)m->hidden * sizeof *m->w1;
    if ((m->w && !(c->w = malloc(nw))) || (m->w1 && !(c->w1 = malloc(nw1)))) {
        mc_learned_clear(c);
        free(c);
        return NULL;
    }
    if (m->w)
        memcpy(c->w, m->w, nw);
    if (m->w1)
        memcpy(c->w1, m->w1, nw1);
    return c;
}

int mc_learned_parse_model(const mc_rules *r, const char *text, mc_learned *m,
                           mc_error *err)
{
    memset(m, 0, sizeof *m);
    const char *h = text;
    /* `hidden H` before any weight: a network; else a linear model. */
    int hidden = 0, net = 0;
    char buf[2048];
    while (*h) {
        const char *p = weights_line(&h, buf, sizeof buf);
        if (p && strncmp(p, "hidden ", 7) == 0) {
            hidden = atoi(p + 7);
            net = 1;
            break;
        }
        if (!p || (*p && strncmp(p, "features ", 9) != 0))
            break;
    }
    if (!net) {
        m->w = malloc((size_t)r->nfeat * sizeof *m->w);
        if (!m->w)
            return mc_err(err, MC_ERR_NOMEM, _("out of memory"));
        if (mc_learned_parse(r, text, m->w, err) != 0) {
            mc_learned_clear(m);
            return -1;
        }
        return 0;
    }
    if (hidden < 1 || hidden > MC_NET_MAX)
        return mc_err(err, MC_ERR_ARG, _("weights: hidden %d is not 1..%d"),
                      hidden, MC_NET_MAX);
    m->hidden = hidden;
    m->w1 = calloc((size_t)r->nfeat * (size_t)hidden, sizeof *m->w1);
    if (!m->w1)
        return mc_err(err, MC_ERR_NOMEM, _("out of memory"));
    int line = 0, have_count = 0, have_hidden = 0, have_bias = 0, have_out = 0;
    const char *s = text;
    double v[MC_NET_MAX + 2];
    while (*s) {
        line++;
        char *p = weights_line(&s, buf, sizeof buf);
        if (!p) {
            mc_learned_clear(m);
            return mc_err(err, MC_ERR_ARG, _("weights line %d is too long"),
                          line);
        }
        if (!*p)
            continue;
        const char *bad = NULL;
        if (strncmp(p, "features ", 9) == 0) {
            if (strtol(p + 9, NULL, 10) != r->nfeat)
                bad = "a count of features other than the game's";
            have_count = 1;
        } else if (!have_count) {
            bad = "expected 'features N' first";
        } else if (strncmp(p, "hidden ", 7) == 0) {
            have_hidden = 1;
        } else if (!have_hidden) {
            bad = "expected 'hidden H' after 'features N'";
        } else if (strncmp(p, "bias ", 5) == 0) {
            if (have_bias++ || numbers(p + 5, v, hidden) != hidden)
                bad = "expected one 'bias' line of H numbers";
            else
                for (int k = 0; k < hidden; k++)
                    m->b1[k] = (float)v[k];
        } else if (strncmp(p, "output ", 7) == 0) {
            if (have_out++ || numbers(p + 7, v, hidden + 1) != hidden + 1)
                bad = "expected one 'output' line of H + 1 numbers";
            else {
                for (int k = 0; k < hidden; k++)
                    m->w2[k] = (float)v[k];
                m->b2 = (float)v[hidden];
            }
        } else {
            char *q;
            long idx = strtol(p, &q, 10);
            if (q == p || idx < 0 || idx >= r->nfeat)
                bad = "feature index out of range";
            else if (numbers(q, v, hidden) != hidden)
                bad = "expected H weights after the index";
            else
                for (int k = 0; k < hidden; k++)
                    m->w1[(size_t)idx * (size_t)hidden + (size_t)k] =
                        (float)v[k];
        }
        if (bad) {
            mc_learned_clear(m);
            return mc_err(err, MC_ERR_ARG, _("weights line %d: %s"), line, bad);
        }
    }
    if (!have_bias || !have_out) {
        mc_learned_clear(m);
        return mc_err(err, MC_ERR_ARG,
                      _("weights: a network needs its 'bias' and 'output'"));
    }
    return 0;
}

int mc_learned_net_eval(const mc_learned *m, const mc_feature *f, int n)
{
    const int h = m->hidden;
    float acc[MC_NET_MAX];
    memcpy(acc, m->b1, (size_t)h * sizeof *acc);
    for (int i = 0; i < n; i++) {
        const float *col = m->w1 + (size_t)f[i].index * (size_t)h;
        const float x = (float)f[i].value;
        for (int k = 0; k < h; k++)
            acc[k] += x * col[k];
    }
    float out = m->b2;
    for (int k = 0; k < h; k++) {
        float a = acc[k] < 0 ? 0 : acc[k] > 1 ? 1 : acc[k];
        out += a * m->w2[k];
    }
    return (int)lrintf(out);
}

int mc_learned_parse(const mc_rules *r, const char *text, int32_t *w,
                     mc_error *err)
{
    memset(w, 0, (size_t)r->nfeat * sizeof *w);
    int line = 0, have_count = 0;
    const char *s = text;
    while (*s) {
        line++;
        char buf[256];
        char *p = weights_line(&s, buf, sizeof buf);
        if (!p)
            return mc_err(err, MC_ERR_ARG, _("weights line %d is too long"),
                          line);
        if (!*p)
            continue;
        if (strncmp(p, "features ", 9) == 0) {
            long n = strtol(p + 9, NULL, 10);
            if (n != r->nfeat)
                return mc_err(err, MC_ERR_ARG,
                              _("weights line %d: %ld features, but %s has %d"),
                              line, n, r->name, r->nfeat);
            have_count = 1;
            continue;
        }
        if (!have_count)
            return mc_err(err, MC_ERR_ARG,
                          _("weights line %d: expected 'features N' first"),
                          line);
        char *q;
        errno = 0;
        long idx = strtol(p, &q, 10);
        if (q == p || idx < 0 || idx >= r->nfeat)
            return mc_err(err, MC_ERR_ARG,
                          _("weights line %d: feature index out of 0..%d"),
                          line, r->nfeat - 1);
        char *q2;
        double v = strtod(q, &q2);
        if (q2 == q || !isfinite(v) || fabs(v) > 1e6)
            return mc_err(
                err, MC_ERR_ARG,
                _("weights line %d: expected a weight after the index"), line);
        while (*q2 == ' ' || *q2 == '\t' || *q2 == '\r')
            q2++;
        if (*q2)
            return mc_err(err, MC_ERR_ARG,
                          _("weights line %d: unexpected '%.20s'"), line, q2);
        w[idx] = (int32_t)lround(v * MC_LEARNED_ONE);
    }
    if (!have_count)
        return mc_err(err, MC_ERR_ARG, _("weights: no 'features N' line"));
    return 0;
}

/* One slot per game, filled once. */
#define SLOTS 8
static struct {
    const mc_rules *r;
    mc_learned *m;
} slot[SLOTS];
static int nslots;
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;
/* Where the weights come from (mc_eval_source): the built-in files, none
   (hand: the hand-set evaluations), or the files of a directory. */
static int src_hand;
static char src_dir[4096];

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

/* A new model of r from text into *out (NULL on an error, told in err
   as "what: ..."): 0 or an MC_ERR_* code. */
static int parse_new(const mc_rules *r, const char *text, const char *what,
                     mc_learned **out, mc_error *err)
{
    *out = NULL;
    mc_learned *m = malloc(sizeof *m);
    if (!m)
        return mc_err(err, MC_ERR_NOMEM, _("out of memory"));
    mc_error e = {0, ""};
    if (mc_learned_parse_model(r, text, m, &e) != 0) {
        free(m);
        return mc_err(err, MC_ERR_ARG, "%.200s: %s", what, e.msg);
    }
    *out = m;
    return 0;
}

/* The model of r from the chosen source, or NULL (the hand-set
   evaluation); a text that does not parse is an error in err (when not
   NULL), and NULL. */
static mc_learned *load(const mc_rules *r, mc_error *err)
{
    if (src_hand)
        return NULL;
    const char *dir = src_dir;
    char *owned = NULL;
    const char *text = NULL;
    if (dir && *dir) {
        char path[sizeof src_dir + 64];
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
    char what[64];
    snprintf(what, sizeof what, "%s evaluation", r->name);
    mc_learned *m = NULL;
    parse_new(r, text, what, &m, err);
    free(owned);
    return m;
}

int mc_learned_source(const char *src, const mc_rules *const *rules,
                      mc_error *err)
{
    int hand = src && strcmp(src, "hand") == 0;
    const char *dir = src && !hand ? src : "";
    if (strlen(dir) >= sizeof src_dir)
        return mc_err(err, MC_ERR_ARG, _("evaluation directory name too long"));
    pthread_mutex_lock(&slot_lock);
    int rc = 0;
    if (hand == src_hand && strcmp(dir, src_dir) == 0) {
        /* the source in use */
    } else if (nslots > 0) {
        rc = mc_err(err, MC_ERR_ARG,
                    _("the evaluation is chosen before the "
                      "first game is made"));
    } else {
        src_hand = hand;
        snprintf(src_dir, sizeof src_dir, "%s", dir);
        /* Every game's weights now, so that a file that does not parse
           is told to the caller (that game keeps its hand-set one). */
        for (size_t i = 0; rules[i] && nslots < SLOTS; i++) {
            if (!rules[i]->features || rules[i]->nfeat <= 0)
                continue;
            slot[nslots].r = rules[i];
            mc_error e = {0, ""};
            slot[nslots].m = load(rules[i], &e);
            if (e.code && !rc) {
                rc = e.code;
                if (err)
                    *err = e;
            }
            nslots++;
        }
    }
    pthread_mutex_unlock(&slot_lock);
    return rc;
}

int mc_learned_load(const mc_rules *r, const char *src, mc_learned **out,
                    mc_error *err)
{
    *out = NULL;
    if (strcmp(src, "hand") == 0)
        return 0;
    if (!r->features || r->nfeat <= 0)
        return mc_err(err, MC_ERR_ARG,
                      _("%s has no learned evaluation "
                        "(only \"hand\")"),
                      r->name);
    char path[4200];
    struct stat st;
    if (stat(src, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (strlen(src) > 4096)
            return mc_err(err, MC_ERR_ARG,
                          _("evaluation directory name too "
                            "long"));
        snprintf(path, sizeof path, "%s/%s.txt", src, r->name);
    } else {
        snprintf(path, sizeof path, "%s", src);
    }
    errno = 0;
    char *text = read_file(path);
    if (!text) {
        if (errno == ENOMEM || errno == 0)
            return mc_err(err, MC_ERR_NOMEM, _("out of memory reading %.200s"),
                          path);
        return mc_err(err, MC_ERR_IO, "%.200s: %s", path, strerror(errno));
    }
    int rc = parse_new(r, text, path, out, err);
    free(text);
    return rc;
}

const mc_learned *mc_learned_model(const mc_rules *r)
{
    if (!r->features || r->nfeat <= 0)
        return NULL;
    pthread_mutex_lock(&slot_lock);
    const mc_learned *w = NULL;
    int i;
    for (i = 0; i < nslots; i++)
        if (slot[i].r == r)
            break;
    if (i < nslots) {
        w = slot[i].m;
    } else if (nslots < SLOTS) {
        slot[nslots].r = r;
        slot[nslots].m = load(r, NULL);
        w = slot[nslots++].m;
    }
    pthread_mutex_unlock(&slot_lock);
    return w;
}

size_t mc_feat_group_name(const mc_feat_group *gr, int i, char *buf, size_t n)
{
    for (; gr->name; gr++) {
        if (i < gr->count)
            return (size_t)snprintf(buf, n, "%s %d", gr->name, i);
        i -= gr->count;
    }
    return (size_t)snprintf(buf, n, "?");
}
