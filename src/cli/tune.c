/*
 * tune.c - `mancala tune`: the training pipeline of the learned evaluations
 * (docs/SEARCH.md, "Learned evaluations").
 *
 *   gen: self-play games with noise (random opening plies, then a random
 *        move now and then), every position after the opening written with
 *        the search's score, the game's result and, for Oware, the exact
 *        result from the endgame tables where they know it.  Games are
 *        appended one block at a time, so an interrupted run loses at most
 *        the games in flight; a rerun continues (each game's randomness comes
 *        from the seed and its number, so the data do not depend on when the
 *        run stopped).
 *   fit: logistic regression of the results on the game's features
 *        ("Texel tuning"): the target is a blend of the result and of the
 *        search's score, the exact result where known; written as a weights
 *        file (data/eval/<game>.txt) with what made it in its header.
 *
 * Front-end code: features, positions and moves come from the library.
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "mancala_egdb.h"

#define SCORE_CLIP 3000 /* search scores beyond are wins or losses */

typedef struct gen_opts {
    const char *spec, *data;
    long games, nodes, seed;
    int jobs, random_plies;
    double epsilon;
} gen_opts;

/* splitmix64: the randomness of game i comes from (seed, i) alone. */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

typedef struct gen_shared {
    const gen_opts *o;
    mc_game *g;
    const char *tables;
    FILE *out;
    pthread_mutex_t lock;
    unsigned char *done; /* games already in the file */
    atomic_long next;
    long written, positions, todo;
    int failed;
} gen_shared;

/* A growing text buffer for one game's block. */
typedef struct tbuf {
    char *s;
    size_t len, cap;
} tbuf;

static int tb_add(tbuf *b, const char *text)
{
    size_t n = strlen(text);
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s)
            return -1;
        b->s = s;
        b->cap = cap;
    }
    memcpy(b->s + b->len, text, n + 1);
    b->len += n;
    return 0;
}

typedef struct rec {
    int side, score, exact; /* exact: 0 loss 1 draw 2 win, -1 unknown */
    char pos[MC_POS_STRLEN];
} rec;

static int play_one(gen_shared *sh, mc_player *pl, const mc_egdb *db, long gi,
                    tbuf *b, long *npos)
{
    const gen_opts *o = sh->o;
    uint64_t rs = (uint64_t)o->seed * 0x100000001B3ull + (uint64_t)gi;
    mix(&rs);
    mc_session *s = mc_session_new(sh->g, NULL);
    if (!s)
        return -1;
    mc_player_newgame(pl);
    rec *recs = NULL;
    int nrec = 0, cap = 0, ply = 0, rc = 0;
    int opening = o->random_plies > 0
                      ? 1 + (int)(mix(&rs) % (uint64_t)o->random_plies)
                      : 0;
    while (!mc_session_over(s) && ply < 1000) {
        const mc_pos *p = mc_session_pos(s);
        mc_move mv[MC_MAX_MOVES];
        int n = mc_moves(sh->g, p, mv);
        if (n <= 0)
            break;
        mc_move m;
        if (ply < opening) {
            m = mv[mix(&rs) % (uint64_t)n];
        } else {
            mc_error err = {0};
            mc_search_info info;
            mc_go go = {0};
            go.nodes = (uint64_t)o->nodes;
            if (mc_player_sync(pl, s, &err) != 0 ||
                mc_player_go(pl, &go, &info) != 0) {
                rc = -1;
                break;
            }
            if (nrec == cap) {
                cap = cap ? 2 * cap : 256;
                rec *r2 = realloc(recs, (size_t)cap * sizeof *recs);
                if (!r2) {
                    rc = -1;
                    break;
                }
                recs = r2;
            }
            rec *r = &recs[nrec++];
            r->side = p->side;
            r->score = info.score > SCORE_CLIP    ? SCORE_CLIP
                       : info.score < -SCORE_CLIP ? -SCORE_CLIP
                                                  : info.score;
            r->exact = -1;
            int diff;
            if (db && mc_egdb_lookup(db, p, 1, &diff) == MC_EGDB_EXACT)
                r->exact = diff > 0 ? 2 : diff == 0 ? 1 : 0;
            mc_pos_format(sh->g, p, r->pos, sizeof r->pos);
            m = info.best;
            if (o->epsilon > 0 &&
                (double)(mix(&rs) >> 11) * 0x1.0p-53 < o->epsilon)
                m = mv[mix(&rs) % (uint64_t)n];
        }
        mc_error err = {0};
        if (mc_session_play(s, m, NULL, &err) != 0) {
            rc = -1;
            break;
        }
        ply++;
    }
    mc_result res;
    mc_session_result(s, &res);
    char line[MC_POS_STRLEN + 64];
    snprintf(line, sizeof line, "# game %ld\n", gi);
    rc = rc ? rc : tb_add(b, line);
    for (int i = 0; i < nrec && rc == 0; i++) {
        const rec *r = &recs[i];
        int result = !res.over || res.winner == MC_DRAW ? 1
                     : res.winner == r->side            ? 2
                                                        : 0;
        char ex[12] = "-";
        if (r->exact >= 0)
            snprintf(ex, sizeof ex, "%d", r->exact);
        snprintf(line, sizeof line, "%d %d %s %s\n", result, r->score, ex,
                 r->pos);
        rc = tb_add(b, line);
    }
    snprintf(line, sizeof line, "# end %ld\n", gi);
    rc = rc ? rc : tb_add(b, line);
    *npos = nrec;
    free(recs);
    mc_session_free(s);
    return rc;
}

static void *gen_worker(void *arg)
{
    gen_shared *sh = arg;
    mc_player_opts po = {0};
    po.level = 10;
    po.threads = 1;
    po.hash_mb = 16;
    po.tables = sh->tables ? sh->tables : "none";
    mc_error err = {0};
    mc_player *pl = mc_player_new(sh->g, &po, &err);
    if (!pl) {
        fprintf(stderr, "mancala tune: %s\n", err.msg);
        sh->failed = 1;
        return NULL;
    }
    const mc_egdb *db = mc_player_egdb(pl);
    tbuf b = {0};
    for (;;) {
        long gi = atomic_fetch_add(&sh->next, 1);
        if (gi >= sh->o->games || sh->failed)
            break;
        if (sh->done[gi])
            continue;
        b.len = 0;
        long npos = 0;
        if (play_one(sh, pl, db, gi, &b, &npos) != 0) {
            fprintf(stderr, _("mancala tune: game %ld failed\n"), gi);
            sh->failed = 1;
            break;
        }
        pthread_mutex_lock(&sh->lock);
        if (fwrite(b.s, 1, b.len, sh->out) != b.len || fflush(sh->out) != 0) {
            fprintf(stderr, "mancala tune: %s: %s\n", sh->o->data,
                    strerror(errno));
            sh->failed = 1;
        }
        sh->written++;
        sh->positions += npos;
        fputc('\r', stderr);
        fprintf(stderr, _("mancala tune: %s: %ld/%ld games, %ld positions "),
                mc_game_name(sh->g), sh->written, sh->todo, sh->positions);
        pthread_mutex_unlock(&sh->lock);
    }
    free(b.s);
    mc_player_free(pl);
    return NULL;
}

/* Keep the complete game blocks of an existing data file (a run killed
   while writing leaves at most a partial last block) and mark their games
   done.  Returns the number of games kept, or -1. */
static long resume_data(const char *path, long games, unsigned char *done)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? 0 : -1;
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *out = fopen(tmp, "w");
    if (!out) {
        fclose(f);
        return -1;
    }
    tbuf b = {0};
    char line[MC_POS_STRLEN + 128];
    long kept = 0, cur = -1;
    int bad = 0;
    int in_header = 1;
    while (fgets(line, sizeof line, f)) {
        long gi;
        if (sscanf(line, "# game %ld", &gi) == 1) {
            b.len = 0;
            cur = gi;
            in_header = 0;
        }
        if (in_header && fputs(line, out) == EOF)
            bad = 1;
        if (cur >= 0 && tb_add(&b, line) != 0)
            bad = 1;
        if (sscanf(line, "# end %ld", &gi) == 1 && gi == cur) {
            if (fwrite(b.s, 1, b.len, out) != b.len)
                bad = 1;
            if (gi >= 0 && gi < games)
                done[gi] = 1;
            kept++;
            cur = -1;
        }
    }
    free(b.s);
    fclose(f);
    if (fclose(out) != 0 || bad || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return kept;
}

static int tune_gen(const gen_opts *o)
{
    mc_error err = {0};
    mc_game *g = mc_game_new(o->spec, &err);
    if (!g) {
        fprintf(stderr, "mancala tune: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    gen_shared sh = {0};
    sh.o = o;
    sh.g = g;
    char dir[4096];
    sh.tables = cli_default_tables(g, "tune", 1, dir, sizeof dir);
    sh.done = calloc((size_t)o->games + 1, 1);
    long have = sh.done ? resume_data(o->data, o->games, sh.done) : -1;
    if (have < 0) {
        fprintf(stderr, _("mancala tune: cannot read or rewrite %s\n"),
                o->data);
        free(sh.done);
        mc_game_free(g);
        return EXIT_BAD_INPUT;
    }
    long already = 0;
    for (long i = 0; i < o->games; i++)
        already += sh.done[i];
    sh.todo = o->games - already;
    sh.out = fopen(o->data, "a");
    if (!sh.out) {
        fprintf(stderr, "mancala tune: %s: %s\n", o->data, strerror(errno));
        free(sh.done);
        mc_game_free(g);
        return EXIT_BAD_INPUT;
    }
    if (already)
        fprintf(stderr, _("mancala tune: %s: %ld games already there\n"),
                o->data, already);
    else if (ftell(sh.out) == 0)
        fprintf(sh.out,
                "# gen: mancala tune %s gen --games %ld --nodes %ld "
                "--random-plies %d --epsilon %g --seed %ld\n",
                o->spec, o->games, o->nodes, o->random_plies, o->epsilon,
                o->seed);
    pthread_mutex_init(&sh.lock, NULL);
    pthread_t th[64];
    int jobs = o->jobs < 1 ? 1 : o->jobs > 64 ? 64 : o->jobs, started = 0;
    for (int i = 0; i < jobs; i++)
        if (pthread_create(&th[started], NULL, gen_worker, &sh) == 0)
            started++;
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    if (sh.todo)
        fprintf(stderr, "\n");
    int bad = fclose(sh.out) != 0 || sh.failed || !started;
    pthread_mutex_destroy(&sh.lock);
    free(sh.done);
    mc_game_free(g);
    return bad ? EXIT_BAD_INPUT : 0;
}

/* ---- fitting ---- */

typedef struct sample {
    uint32_t first; /* into the feature arrays */
    uint16_t n;
    uint8_t result, exact; /* exact: 255 = unknown */
    int16_t score;
    uint8_t valid; /* held out for validation */
    int now;       /* held out: the evaluation in use now (mc_eval) */
} sample;

typedef struct dataset {
    sample *s;
    size_t n, cap;
    mc_feature *f;
    size_t nf, fcap;
    long games;
    char gen[512]; /* how the data were made (its '# gen:' line) */
} dataset;

static int ds_load(dataset *d, const mc_game *g, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "mancala tune: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[MC_POS_STRLEN + 128];
    long lineno = 0, cur = -1;
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        long gi;
        if (sscanf(line, "# game %ld", &gi) == 1) {
            cur = gi;
            d->games++;
            continue;
        }
        if (strncmp(line, "# gen: ", 7) == 0 && !d->gen[0]) {
            snprintf(d->gen, sizeof d->gen, "%s", line + 7);
            d->gen[strcspn(d->gen, "\r\n")] = 0;
        }
        if (line[0] == '#' || line[0] == '\n')
            continue;
        int result, score, off = 0;
        char ex[8];
        if (sscanf(line, "%d %d %7s %n", &result, &score, ex, &off) < 3 ||
            off == 0 || result < 0 || result > 2) {
            fprintf(stderr,
                    _("mancala tune: %s:%ld: expected 'RESULT SCORE "
                      "EXACT POSITION'\n"),
                    path, lineno);
            rc = -1;
            break;
        }
        char *pos = line + off;
        pos[strcspn(pos, "\r\n")] = 0;
        mc_pos p;
        mc_error err = {0};
        if (mc_pos_parse(g, pos, &p, &err) != 0) {
            fprintf(stderr, "mancala tune: %s:%ld: %s\n", path, lineno,
                    err.msg);
            rc = -1;
            break;
        }
        if (d->n == d->cap) {
            d->cap = d->cap ? 2 * d->cap : 1 << 16;
            sample *s2 = realloc(d->s, d->cap * sizeof *d->s);
            if (!s2) {
                rc = -1;
                break;
            }
            d->s = s2;
        }
        if (d->nf + MC_MAX_FEATURES > d->fcap) {
            d->fcap = d->fcap ? 2 * d->fcap : 1 << 20;
            mc_feature *f2 = realloc(d->f, d->fcap * sizeof *d->f);
            if (!f2) {
                rc = -1;
                break;
            }
            d->f = f2;
        }
        sample *s = &d->s[d->n++];
        s->first = (uint32_t)d->nf;
        s->n = (uint16_t)mc_eval_features(g, &p, d->f + d->nf);
        d->nf += s->n;
        s->result = (uint8_t)result;
        s->exact = ex[0] >= '0' && ex[0] <= '2' ? (uint8_t)(ex[0] - '0') : 255;
        s->score = (int16_t)(score > SCORE_CLIP    ? SCORE_CLIP
                             : score < -SCORE_CLIP ? -SCORE_CLIP
                                                   : score);
        s->valid = cur >= 0 && cur % 10 == 9;
        s->now = s->valid ? mc_eval(g, &p) : 0;
    }
    fclose(f);
    if (rc == 0 && d->n == 0) {
        fprintf(stderr, _("mancala tune: %s: no positions\n"), path);
        rc = -1;
    }
    return rc;
}

static double sigm(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

/* Cross-entropy of prediction q against target t. */
static double xent(double q, double t)
{
    const double e = 1e-12;
    return -(t * log(q + e) + (1 - t) * log(1 - q + e));
}

/* The scale K (hundredths of a seed) that makes sigmoid(score / K) the
   best predictor of the results: the search's scores then keep their
   meaning, and the learned weights come out in hundredths of a seed. */
static double fit_k(const dataset *d)
{
    double best_k = 100, best = 1e300;
    for (double k = 20; k <= 2000; k *= 1.02) {
        double loss = 0;
        for (size_t i = 0; i < d->n; i++)
            loss += xent(sigm(d->s[i].score / k), d->s[i].result / 2.0);
        if (loss < best) {
            best = loss;
            best_k = k;
        }
    }
    return best_k;
}

static double target(const sample *s, double k, double lambda)
{
    if (s->exact != 255)
        return s->exact / 2.0;
    return lambda * (s->result / 2.0) + (1 - lambda) * sigm(s->score / k);
}

static double eval_of(const double *w, const dataset *d, const sample *s)
{
    double e = 0;
    const mc_feature *f = d->f + s->first;
    for (int j = 0; j < s->n; j++)
        e += w[f[j].index] * f[j].value;
    return e;
}

typedef struct fit_opts {
    const char *spec, *data, *out, *cmdline;
    int epochs;
    double lambda, l2, rate;
} fit_opts;

/* The fit's arrays, one entry a feature: the weights, Adam's moments,
   the gradient, and how many training positions have the feature. */
typedef struct fit_state {
    int nf;
    double *w, *m, *v, *gr, *cnt;
} fit_state;

static void fit_free(fit_state *fs)
{
    free(fs->w);
    free(fs->m);
    free(fs->v);
    free(fs->gr);
    free(fs->cnt);
}

/* The game's features and the data; 0, or the exit code after saying
   what is wrong (nothing is left to free then). */
static int fit_load(const fit_opts *o, mc_game **gp, int *nf, dataset *d)
{
    mc_error err = {0};
    mc_game *g = mc_game_new(o->spec, &err);
    if (!g) {
        fprintf(stderr, "mancala tune: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    *nf = mc_eval_nfeatures(g);
    if (*nf <= 0) {
        fprintf(stderr, _("mancala tune: %s has no features to fit\n"),
                mc_game_name(g));
        mc_game_free(g);
        return EXIT_BAD_INPUT;
    }
    if (ds_load(d, g, o->data) != 0) {
        free(d->s);
        free(d->f);
        mc_game_free(g);
        return EXIT_BAD_INPUT;
    }
    *gp = g;
    return 0;
}

/* One pass over the training positions: the gradient of the mean loss
   (before its division by ntrain) into fs->gr; returns the summed loss. */
static double gradient(const dataset *d, fit_state *fs, double k, double lambda)
{
    memset(fs->gr, 0, (size_t)fs->nf * sizeof *fs->gr);
    double loss = 0;
    for (size_t i = 0; i < d->n; i++) {
        const sample *s = &d->s[i];
        if (s->valid)
            continue;
        double t = target(s, k, lambda);
        double q = sigm(eval_of(fs->w, d, s) / k);
        loss += xent(q, t);
        double gq = (q - t) / k;
        const mc_feature *f = d->f + s->first;
        for (int j = 0; j < s->n; j++)
            fs->gr[f[j].index] += gq * f[j].value;
    }
    return loss;
}

/* Adam on the whole training set each epoch (the data fit in memory and
   the model is linear: a step costs one pass), progress on stderr. */
static void adam(const mc_game *g, const dataset *d, fit_state *fs, double k,
                 size_t ntrain, const fit_opts *o)
{
    const double b1 = 0.9, b2 = 0.999;
    double train_loss = 0;
    for (int ep = 1; ep <= o->epochs; ep++) {
        train_loss = gradient(d, fs, k, o->lambda);
        train_loss /= (double)(ntrain ? ntrain : 1);
        for (int j = 0; j < fs->nf; j++) {
            double gj =
                fs->gr[j] / (double)(ntrain ? ntrain : 1) + o->l2 * fs->w[j];
            fs->m[j] = b1 * fs->m[j] + (1 - b1) * gj;
            fs->v[j] = b2 * fs->v[j] + (1 - b2) * gj * gj;
            double mh = fs->m[j] / (1 - pow(b1, ep)),
                   vh = fs->v[j] / (1 - pow(b2, ep));
            fs->w[j] -= o->rate * mh / (sqrt(vh) + 1e-12);
        }
        if (ep % 50 == 0 || ep == o->epochs) {
            fputc('\r', stderr);
            fprintf(stderr, _("mancala tune: fit %s: epoch %d/%d, loss %.5f "),
                    mc_game_name(g), ep, o->epochs, train_loss);
        }
    }
    fprintf(stderr, "\n");
}

/* The mean losses on the held-out games, on results alone: of the learned
   evaluation, of the evaluation in use now, of the search's scores. */
typedef struct held_out {
    double learned, now, search;
} held_out;

static held_out held_out_loss(const dataset *d, const fit_state *fs, double k,
                              size_t nvalid)
{
    held_out h = {0, 0, 0};
    for (size_t i = 0; i < d->n; i++) {
        const sample *s = &d->s[i];
        if (!s->valid)
            continue;
        double t = s->exact != 255 ? s->exact / 2.0 : s->result / 2.0;
        h.learned += xent(sigm(eval_of(fs->w, d, s) / k), t);
        h.search += xent(sigm(s->score / k), t);
        h.now += xent(sigm(s->now / k), t);
    }
    double nv = (double)(nvalid ? nvalid : 1);
    h.learned /= nv;
    h.now /= nv;
    h.search /= nv;
    return h;
}

/* The weights file: what made it in its header, then the weights of the
   features seen or weighted.  0, or the exit code. */
static int write_weights(const fit_opts *o, const mc_game *g, const dataset *d,
                         const fit_state *fs, double k, const held_out *h)
{
    FILE *out = fopen(o->out, "w");
    if (!out) {
        fprintf(stderr, "mancala tune: %s: %s\n", o->out, strerror(errno));
        return EXIT_BAD_INPUT;
    }
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    fprintf(out,
            "# mancala learned evaluation: %s (docs/SEARCH.md)\n"
            "# data made by: %s\n"
            "# fitted by: %s\n"
            "# on %s from %s: %zu positions of %ld games, K %.1f, "
            "lambda %.2f, %d epochs\n"
            "# held-out loss: learned %.5f, %s evaluation %.5f, search "
            "scores %.5f\n"
            "# index weight (hundredths of a seed)  # feature\n"
            "features %d\n",
            mc_game_name(g), d->gen[0] ? d->gen : "(not recorded)", o->cmdline,
            date, o->data, d->n, d->games, k, o->lambda, o->epochs, h->learned,
            mc_eval_kind(g), h->now, h->search, fs->nf);
    for (int j = 0; j < fs->nf; j++) {
        char name[64];
        mc_eval_feature_name(g, j, name, sizeof name);
        if (fs->cnt[j] > 0 || fs->w[j] != 0)
            fprintf(out, "%d %.2f  # %s (%.0f)\n", j, fs->w[j], name,
                    fs->cnt[j]);
    }
    return fclose(out) != 0 ? EXIT_BAD_INPUT : 0;
}

static int tune_fit(const fit_opts *o)
{
    mc_game *g = NULL;
    dataset d = {0};
    fit_state fs = {0};
    int rc = fit_load(o, &g, &fs.nf, &d);
    if (rc != 0)
        return rc;
    double k = fit_k(&d);
    size_t nf = (size_t)fs.nf;
    fs.w = calloc(nf, sizeof *fs.w);
    fs.m = calloc(nf, sizeof *fs.m);
    fs.v = calloc(nf, sizeof *fs.v);
    fs.gr = calloc(nf, sizeof *fs.gr);
    fs.cnt = calloc(nf, sizeof *fs.cnt);
    if (!fs.w || !fs.m || !fs.v || !fs.gr || !fs.cnt) {
        fprintf(stderr, _("mancala tune: out of memory\n"));
        rc = EXIT_BAD_INPUT;
        goto out;
    }
    size_t ntrain = 0, nvalid = 0;
    for (size_t i = 0; i < d.n; i++) {
        ntrain += !d.s[i].valid;
        nvalid += d.s[i].valid;
        for (int j = 0; j < d.s[i].n; j++) {
            int index = d.f[d.s[i].first + j].index;
            /* the library's features are numbered below its count: the
               fit's arrays are indexed by them */
            assert(index >= 0 && index < fs.nf);
            if (!d.s[i].valid)
                fs.cnt[index] += 1;
        }
    }
    assert(ntrain + nvalid == d.n);
    adam(g, &d, &fs, k, ntrain, o);
    held_out h = held_out_loss(&d, &fs, k, nvalid);
    printf(_("%s: %zu positions from %ld games (%zu held out), K %.1f\n"
             "held-out loss: learned %.5f, evaluation in use (%s) %.5f, "
             "search scores %.5f\n"),
           mc_game_name(g), d.n, d.games, nvalid, k, h.learned, mc_eval_kind(g),
           h.now, h.search);
    rc = write_weights(o, g, &d, &fs, k, &h);
out:
    fit_free(&fs);
    free(d.s);
    free(d.f);
    mc_game_free(g);
    return rc;
}

/* The data's features, for fitting other models outside the program
   (tools/net-fit.py): a line a position, 'HELD RESULT EXACT SCORE' then
   INDEX:VALUE for each active feature. */
static int tune_dump(const fit_opts *o)
{
    mc_error err = {0};
    mc_game *g = mc_game_new(o->spec, &err);
    if (!g) {
        fprintf(stderr, "mancala tune: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    dataset d = {0};
    int rc = mc_eval_nfeatures(g) > 0 ? ds_load(&d, g, o->data) : -1;
    if (mc_eval_nfeatures(g) <= 0)
        fprintf(stderr, _("mancala tune: %s has no features\n"),
                mc_game_name(g));
    FILE *out = rc == 0 ? fopen(o->out, "w") : NULL;
    if (rc == 0 && !out)
        fprintf(stderr, "mancala tune: %s: %s\n", o->out, strerror(errno));
    if (out) {
        fprintf(out,
                "# mancala tune dump: %s, %zu positions of %ld games "
                "from %s\n# HELD RESULT EXACT SCORE INDEX:VALUE...\n"
                "features %d\n",
                mc_game_name(g), d.n, d.games, o->data, mc_eval_nfeatures(g));
        for (size_t i = 0; i < d.n; i++) {
            const sample *sm = &d.s[i];
            fprintf(out, "%d %d %c %d", sm->valid, sm->result,
                    sm->exact == 255 ? '-' : '0' + sm->exact, sm->score);
            for (int j = 0; j < sm->n; j++)
                fprintf(out, " %d:%d", d.f[sm->first + j].index,
                        d.f[sm->first + j].value);
            fputc('\n', out);
        }
    }
    rc = out && fclose(out) == 0 ? 0 : EXIT_BAD_INPUT;
    free(d.s);
    free(d.f);
    mc_game_free(g);
    return rc;
}

static void usage(FILE *f)
{
    fprintf(
        f,
        _("usage: mancala tune GAME [gen|fit|all|dump] [options]\n\n"
          "The training pipeline of the learned evaluations (docs/SEARCH.md).\n"
          "  gen   self-play games written to the data file (resumable: a\n"
          "        rerun adds the games that are missing)\n"
          "  fit   fit the weights to the data file, write the weights file\n"
          "  all   gen then fit (the default)\n"
          "  dump  write the data's features (--out, default GAME.features)\n"
          "        for fitting other models (tools/net-fit.py)\n"
          "options:\n"
          "  --data FILE      positions (default GAME.tune)\n"
          "  --out FILE       weights (default GAME.txt; data/eval/GAME.txt\n"
          "                   is the built-in one)\n"
          "  --games N        games to play (default 4000)\n"
          "  --nodes N        search nodes a move (default 4000)\n"
          "  --random-plies K random moves to open each game: 1..K (default "
          "8)\n"
          "  --epsilon E      chance of a random move after that (default "
          "0.03)\n"
          "  --jobs N         games at once (default: the online cores)\n"
          "  --seed S         randomness of the games (default 1)\n"
          "  --epochs N       passes of the fit (default 800)\n"
          "  --lambda L       weight of the result against the search's score\n"
          "                   in the target (default 0.5)\n"
          "  --l2 X           weight decay (default 0); --rate R: Adam's step "
          "(5)\n"
          "Each data line: RESULT (2 win, 1 draw, 0 loss for the side to "
          "move)\n"
          "SCORE (search, hundredths of a seed) EXACT (from the endgame "
          "tables,\n"
          "or -) POSITION.\n"));
}

int cmd_tune(int argc, char **argv)
{
    if (argc < 2 || cli_is_help(argv[1])) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_USAGE : 0;
    }
    gen_opts go = {0};
    fit_opts fo = {0};
    go.spec = fo.spec = argv[1];
    go.games = 4000;
    go.nodes = 4000;
    go.seed = 1;
    go.random_plies = 8;
    go.epsilon = 0.03;
    go.jobs = mc_cores();
    fo.epochs = 800;
    fo.lambda = 0.5;
    fo.l2 = 0;
    fo.rate = 5;
    const char *what = "all";
    int i = 2;
    if (i < argc && argv[i][0] != '-')
        what = argv[i++];
    if (strcmp(what, "gen") && strcmp(what, "fit") && strcmp(what, "all") &&
        strcmp(what, "dump")) {
        fprintf(stderr, _("mancala tune: '%s' is not gen, fit, all or dump\n"),
                what);
        return EXIT_USAGE;
    }
    static char data_def[256], out_def[256];
    snprintf(data_def, sizeof data_def, "%.200s.tune", argv[1]);
    for (char *c = data_def; *c; c++)
        if (*c == ':' || *c == '/')
            *c = '_';
    /* the weights file: the data file's name, another extension */
    snprintf(out_def, sizeof out_def, "%.*s.%s",
             (int)(strlen(data_def) - strlen(".tune")), data_def,
             strcmp(what, "dump") ? "txt" : "features");
    go.data = fo.data = data_def;
    fo.out = out_def;
    for (; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_is_help(a)) {
            usage(stdout);
            return 0;
        }
        if (!v) {
            fprintf(stderr, _("mancala tune: %s needs a value\n"), a);
            return EXIT_USAGE;
        }
        long n = cli_number(v, 1000000000L);
        double x = atof(v);
        i++;
        if (strcmp(a, "--data") == 0)
            go.data = fo.data = v;
        else if (strcmp(a, "--out") == 0)
            fo.out = v;
        else if (strcmp(a, "--games") == 0 && n >= 1 && n <= 10000000)
            go.games = n;
        else if (strcmp(a, "--nodes") == 0 && n >= 1)
            go.nodes = n;
        else if (strcmp(a, "--random-plies") == 0 && n >= 0 && n <= 100)
            go.random_plies = (int)n;
        else if (strcmp(a, "--epsilon") == 0 && x >= 0 && x <= 1)
            go.epsilon = x;
        else if (strcmp(a, "--jobs") == 0 && n >= 1 && n <= 64)
            go.jobs = (int)n;
        else if (strcmp(a, "--seed") == 0 && n >= 0)
            go.seed = n;
        else if (strcmp(a, "--epochs") == 0 && n >= 1 && n <= 100000)
            fo.epochs = (int)n;
        else if (strcmp(a, "--lambda") == 0 && x >= 0 && x <= 1)
            fo.lambda = x;
        else if (strcmp(a, "--l2") == 0 && x >= 0 && x < 1)
            fo.l2 = x;
        else if (strcmp(a, "--rate") == 0 && x > 0 && x < 1000)
            fo.rate = x;
        else {
            fprintf(stderr,
                    _("mancala tune: bad option or value: %s %s "
                      "(see mancala tune --help)\n"),
                    a, v);
            return EXIT_USAGE;
        }
    }
    char cmdline[1024];
    size_t len = 0;
    cmdline[0] = 0;
    for (int j = 0; j < argc && len + 2 < sizeof cmdline; j++)
        len += (size_t)snprintf(cmdline + len, sizeof cmdline - len, "%s%s",
                                j ? " " : "mancala ", j ? argv[j] : "tune");
    fo.cmdline = cmdline;
    int rc = 0;
    if (strcmp(what, "dump") == 0)
        return tune_dump(&fo);
    if (strcmp(what, "fit") != 0)
        rc = tune_gen(&go);
    if (rc == 0 && strcmp(what, "gen") != 0)
        rc = tune_fit(&fo);
    return rc;
}
