/*
 * test_eval.c - the learned evaluations' machinery (src/games/learned.c and
 * each game's features): every feature index in range and named, features
 * seen from the mover (a position and its mirror, the sides swapped, have
 * the same features), the weights parser's errors, and the evaluation as
 * the sum of the active features' weights, checked against weights this
 * test writes itself (MANCALA_EVAL_DIR).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "games/game.h"
#include "games/learned.h"
#include "mancala.h"

static unsigned long long rng_state = 12345;
static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)((rng_state >> 33) % n);
}

/* The position with the sides swapped: each game's own layout. */
static void mirror(const mc_game *g, const mc_pos *p, mc_pos *q)
{
    *q = *p;
    const char *name = mc_game_name(g);
    int half = g->rules->npits / 2;
    if (strcmp(name, "gore") == 0) {
        /* Pits are fixed to the board: turn it half way round, and each
           pit's owner with it. */
        q->own = 0;
        q->offer = 0;
        for (int i = 0; i < 8; i++) {
            int j = (i + 4) % 8;
            q->pit[j] = p->pit[i];
            if (!((p->own >> i) & 1))
                q->own |= (uint8_t)(1u << j);
            if ((p->offer >> i) & 1)
                q->offer |= (uint8_t)(1u << j);
        }
    } else {
        for (int i = 0; i < 2 * half; i++)
            q->pit[(i + half) % (2 * half)] = p->pit[i];
    }
    q->cap[0] = p->cap[1];
    q->cap[1] = p->cap[0];
    q->side = (uint8_t)(1 - p->side);
    q->first = (uint8_t)(((p->first & 1) << 1) | ((p->first >> 1) & 1));
}

static int cmp_feat(const void *a, const void *b)
{
    const mc_feature *x = a, *y = b;
    return x->index != y->index ? (int)x->index - (int)y->index
                                : x->value - y->value;
}

static void check_game_features(const char *spec)
{
    mc_game *g = mc_game_new(spec, NULL);
    CHECK(g != NULL);
    if (!g)
        return;
    int nf = mc_eval_nfeatures(g);
    CHECK_MSG(nf > 0 && nf < 65536, "%s: %d features", spec, nf);
    char name[64];
    mc_eval_feature_name(g, nf - 1, name, sizeof name);
    CHECK_MSG(strcmp(name, "?") != 0 && name[0], "%s: last feature unnamed",
              spec);
    mc_eval_feature_name(g, 0, name, sizeof name);
    CHECK_MSG(strncmp(name, "bias", 4) == 0, "%s: feature 0 is '%s'", spec,
              name);
    int bad_range = 0, bad_mirror = 0, positions = 0, max_n = 0;
    for (int game = 0; game < 30; game++) {
        mc_session *s = mc_session_new(g, NULL);
        for (int ply = 0; ply < 120 && !mc_session_over(s); ply++) {
            const mc_pos *p = mc_session_pos(s);
            mc_feature f[MC_MAX_FEATURES], h[MC_MAX_FEATURES];
            int n = mc_eval_features(g, p, f);
            positions++;
            if (n > max_n)
                max_n = n;
            for (int i = 0; i < n; i++)
                bad_range += f[i].index >= nf;
            mc_pos q;
            mirror(g, p, &q);
            int m = mc_eval_features(g, &q, h);
            qsort(f, (size_t)n, sizeof *f, cmp_feat);
            qsort(h, (size_t)m, sizeof *h, cmp_feat);
            if (m != n || memcmp(f, h, (size_t)n * sizeof *f) != 0)
                bad_mirror++;
            mc_move mv[MC_MAX_MOVES];
            int k = mc_moves(g, p, mv);
            if (k <= 0 ||
                mc_session_play(s, mv[rnd((unsigned)k)], NULL, NULL) != 0)
                break;
        }
        mc_session_free(s);
    }
    CHECK_MSG(positions > 100, "%s: %d positions", spec, positions);
    CHECK_MSG(bad_range == 0, "%s: %d features out of range", spec, bad_range);
    CHECK_MSG(bad_mirror == 0,
              "%s: %d of %d positions differ from their "
              "mirror",
              spec, bad_mirror, positions);
    CHECK(max_n <= MC_MAX_FEATURES);
    mc_game_free(g);
}

static void check_parser(void)
{
    const mc_rules *r = &mc_rules_oware;
    int32_t *w = calloc((size_t)r->nfeat, sizeof *w);
    mc_error err = {0};
    char text[512];
    snprintf(text, sizeof text,
             "# comment\nfeatures %d\n0 1.5  # bias\n 3 -2\n\n%d 0.0625\n",
             r->nfeat, r->nfeat - 1);
    CHECK(mc_learned_parse(r, text, w, &err) == 0);
    CHECK(w[0] == (int32_t)(1.5 * MC_LEARNED_ONE));
    CHECK(w[3] == -2 * MC_LEARNED_ONE);
    CHECK(w[1] == 0);
    CHECK(w[r->nfeat - 1] == 1);
    const char *bad[] = {
        "0 1.5\n",                /* no count first */
        "features 7\n0 1\n",      /* wrong count */
        NULL,                     /* index out of range: made below */
        "features %d\n-1 2\n",    /* negative index */
        "features %d\n4\n",       /* no weight */
        "features %d\n4 1 2\n",   /* trailing junk */
        "features %d\n4 nan\n",   /* not a number */
        "features %d\n4 1e300\n", /* absurd */
        "",                       /* empty */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (bad[i])
            snprintf(text, sizeof text, bad[i], r->nfeat);
        else
            snprintf(text, sizeof text, "features %d\n%d 1\n", r->nfeat,
                     r->nfeat);
        err.code = 0;
        CHECK_MSG(mc_learned_parse(r, text, w, &err) != 0 && err.msg[0],
                  "weights text %zu accepted", i);
    }
    free(w);
}

/* Weights written here, read through MANCALA_EVAL_DIR: the evaluation must
   be their sum over the active features, whatever the built-in ones. */
static void check_sum(const char *dir)
{
    mc_game *g = mc_game_new("oware", NULL);
    CHECK_STR(mc_eval_kind(g), "learned");
    int nf = mc_eval_nfeatures(g);
    int *wt = malloc((size_t)nf * sizeof *wt);
    for (int i = 0; i < nf; i++)
        wt[i] = (int)rnd(201) - 100;
    int bad = 0;
    mc_session *s = mc_session_new(g, NULL);
    for (int ply = 0; ply < 80 && !mc_session_over(s); ply++) {
        const mc_pos *p = mc_session_pos(s);
        mc_feature f[MC_MAX_FEATURES];
        int n = mc_eval_features(g, p, f), want = 0;
        for (int i = 0; i < n; i++)
            want += wt[f[i].index] * f[i].value;
        bad += mc_eval(g, p) != want;
        mc_move mv[MC_MAX_MOVES];
        int k = mc_moves(g, p, mv);
        mc_session_play(s, mv[rnd((unsigned)k)], NULL, NULL);
    }
    CHECK_MSG(bad == 0, "%d evaluations are not the sum of the weights", bad);
    mc_session_free(s);
    mc_game_free(g);
    (void)dir;
    free(wt);
}

/* A network written here (H = 3, weights that floats hold exactly), read
   through MANCALA_EVAL_DIR: the evaluation must be the network's value
   computed here, unit by unit. */
#define NET_H 3
static int net_w1[MC_MAX_FEATURES * 8][NET_H]; /* sixteenths */
static const int net_b1[NET_H] = {4, 8, -2};   /* sixteenths */
static const int net_w2[NET_H] = {150, -90, 40};
static const int net_b2 = 7;

static void write_net(const char *path, int nf)
{
    FILE *f = fopen(path, "w");
    fprintf(f, "# a test network\nfeatures %d\nhidden %d\n", nf, NET_H);
    fprintf(f, "bias %g %g %g\n", net_b1[0] / 16.0, net_b1[1] / 16.0,
            net_b1[2] / 16.0);
    fprintf(f, "output %d %d %d %d\n", net_w2[0], net_w2[1], net_w2[2], net_b2);
    for (int i = 0; i < nf; i++) {
        for (int k = 0; k < NET_H; k++)
            net_w1[i][k] = (int)rnd(9) - 4;
        fprintf(f, "%d %g %g %g  # feature %d\n", i, net_w1[i][0] / 16.0,
                net_w1[i][1] / 16.0, net_w1[i][2] / 16.0, i);
    }
    fclose(f);
}

static void check_net(void)
{
    mc_game *g = mc_game_new("sadeqa2", NULL);
    CHECK_STR(mc_eval_kind(g), "network");
    int bad = 0, varied = 0, last = 0;
    mc_session *s = mc_session_new(g, NULL);
    for (int ply = 0; ply < 60 && !mc_session_over(s); ply++) {
        const mc_pos *p = mc_session_pos(s);
        mc_feature f[MC_MAX_FEATURES];
        int n = mc_eval_features(g, p, f);
        int acc[NET_H]; /* sixteenths */
        for (int k = 0; k < NET_H; k++)
            acc[k] = net_b1[k];
        for (int i = 0; i < n; i++)
            for (int k = 0; k < NET_H; k++)
                acc[k] += f[i].value * net_w1[f[i].index][k];
        double out = net_b2;
        for (int k = 0; k < NET_H; k++) {
            int a = acc[k] < 0 ? 0 : acc[k] > 16 ? 16 : acc[k];
            out += a / 16.0 * net_w2[k];
        }
        int want = (int)lrint(out), got = mc_eval(g, p);
        bad += got != want;
        varied += ply > 0 && got != last;
        last = got;
        mc_move mv[MC_MAX_MOVES];
        int k = mc_moves(g, p, mv);
        mc_session_play(s, mv[rnd((unsigned)k)], NULL, NULL);
    }
    CHECK_MSG(bad == 0, "%d evaluations are not the network's value", bad);
    CHECK_MSG(varied > 10, "the network's value changed %d times", varied);
    mc_session_free(s);
    mc_game_free(g);
}

static void check_net_parser(void)
{
    const mc_rules *r = &mc_rules_sadeqa2;
    char text[1024];
    mc_learned m;
    mc_error err = {0};
    snprintf(text, sizeof text,
             "features %d\nhidden 2\nbias 0.5 -1\noutput 10 20 3\n"
             "4 0.25 -0.5\n",
             r->nfeat);
    CHECK(mc_learned_parse_model(r, text, &m, &err) == 0);
    CHECK(m.hidden == 2 && m.w == NULL && m.w1[4 * 2 + 1] == -0.5f &&
          m.b1[1] == -1.0f && m.w2[1] == 20.0f && m.b2 == 3.0f);
    mc_learned_clear(&m);
    const char *bad[] = {
        "features %d\nhidden 0\nbias\noutput 1\n",              /* width */
        "features %d\nhidden 65\n",                             /* width */
        "features %d\nhidden 2\noutput 1 2 3\n",                /* no bias */
        "features %d\nhidden 2\nbias 1 2\n",                    /* no output */
        "features %d\nhidden 2\nbias 1\noutput 1 2 3\n",        /* short */
        "features %d\nhidden 2\nbias 1 2\noutput 1 2\n",        /* short */
        "features %d\nhidden 2\nbias 1 2\noutput 1 2 3\n4 1\n", /* short */
        "features %d\nhidden 2\nbias 1 2\noutput 1 2 3\n4 1 2 3\n",
        "features %d\nhidden 2\nbias 1 2\noutput 1 2 3\n9999 1 2\n",
        "features %d\nhidden 2\nbias 1 2\nbias 1 2\noutput 1 2 3\n",
        "features %d\nhidden 2\nbias 1 nan\noutput 1 2 3\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(text, sizeof text, bad[i], r->nfeat);
        err.msg[0] = 0;
        int rc = mc_learned_parse_model(r, text, &m, &err);
        CHECK_MSG(rc != 0 && err.msg[0], "network text %zu accepted", i);
        if (rc == 0)
            mc_learned_clear(&m);
    }
}

/* Oware weights all equal to k in path (a linear model). */
static void write_flat(const char *path, int k)
{
    FILE *f = fopen(path, "w");
    int nf = mc_rules_oware.nfeat;
    fprintf(f, "features %d\n", nf);
    for (int i = 0; i < nf; i++)
        fprintf(f, "%d %d\n", i, k);
    fclose(f);
}

/* How many positions of a random game of g evaluate other than k times
   the sum of their features' values (k 0: counts those that do not). */
static int off_flat(mc_game *g, int k, int *nonzero)
{
    int bad = 0;
    *nonzero = 0;
    mc_session *s = mc_session_new(g, NULL);
    for (int ply = 0; ply < 60 && !mc_session_over(s); ply++) {
        const mc_pos *p = mc_session_pos(s);
        mc_feature f[MC_MAX_FEATURES];
        int n = mc_eval_features(g, p, f), sum = 0;
        for (int i = 0; i < n; i++)
            sum += f[i].value;
        bad += mc_eval(g, p) != k * sum;
        *nonzero += sum != 0;
        mc_move mv[MC_MAX_MOVES];
        int m = mc_moves(g, p, mv);
        mc_session_play(s, mv[rnd((unsigned)m)], NULL, NULL);
    }
    mc_session_free(s);
    return bad;
}

/* mc_game_set_eval: one game's evaluation, whatever the process's (here
   the directory of check_sum's random Oware weights). */
static void check_set_eval(const char *dir)
{
    char file[300], sub[300], subfile[340];
    snprintf(file, sizeof file, "%s/threes.txt", dir);
    write_flat(file, 3);
    snprintf(sub, sizeof sub, "%s/fives", dir);
    mkdir(sub, 0700);
    snprintf(subfile, sizeof subfile, "%s/oware.txt", sub);
    write_flat(subfile, 5);

    mc_error err = {0, ""};
    mc_game *g = mc_game_new("oware", NULL), *h = mc_game_new("oware", NULL);
    int nz;
    CHECK_MSG(mc_game_set_eval(g, file, &err) == 0, "%s", err.msg);
    CHECK_STR(mc_eval_kind(g), "learned");
    CHECK_MSG(off_flat(g, 3, &nz) == 0 && nz > 0,
              "a weights file: not 3 x the features' sum");
    /* the other game keeps the process's evaluation */
    CHECK(off_flat(h, 3, &nz) > 0);
    CHECK(mc_game_set_eval(g, sub, &err) == 0);
    CHECK_MSG(off_flat(g, 5, &nz) == 0, "a directory: not its oware.txt");
    CHECK(mc_game_set_eval(g, "hand", &err) == 0);
    CHECK_STR(mc_eval_kind(g), "hand");
    CHECK(off_flat(g, 5, &nz) > 0);
    /* errors leave the evaluation the game had */
    char missing[320];
    snprintf(missing, sizeof missing, "%s/none.txt", dir);
    CHECK(mc_game_set_eval(g, missing, &err) == MC_ERR_IO &&
          strstr(err.msg, "none.txt"));
    CHECK_STR(mc_eval_kind(g), "hand");
    CHECK(mc_game_set_eval(g, dir, &err) == 0); /* dir/oware.txt */
    CHECK_STR(mc_eval_kind(g), "learned");
    FILE *f = fopen(file, "w");
    fprintf(f, "features 3\n");
    fclose(f);
    CHECK(mc_game_set_eval(g, file, &err) == MC_ERR_ARG &&
          strstr(err.msg, "threes.txt"));
    CHECK(mc_game_set_eval(g, sub, &err) == 0);
    CHECK(mc_game_set_eval(g, file, &err) == MC_ERR_ARG);
    CHECK(off_flat(g, 5, &nz) == 0);
    /* NULL: back to the process's, the same as the other game's */
    CHECK(mc_game_set_eval(g, NULL, &err) == 0);
    CHECK_STR(mc_eval_kind(g), "learned");
    mc_session *s = mc_session_new(g, NULL);
    mc_session *t = mc_session_new(h, NULL);
    int differ = 0;
    for (int ply = 0; ply < 40 && !mc_session_over(s); ply++) {
        differ +=
            mc_eval(g, mc_session_pos(s)) != mc_eval(h, mc_session_pos(t));
        mc_move mv[MC_MAX_MOVES];
        int m = mc_moves(g, mc_session_pos(s), mv);
        mc_move pick = mv[rnd((unsigned)m)];
        mc_session_play(s, pick, NULL, NULL);
        mc_session_play(t, pick, NULL, NULL);
    }
    CHECK_MSG(differ == 0, "NULL is not the process's evaluation");
    CHECK(mc_game_set_eval(NULL, "hand", &err) == MC_ERR_ARG);
    mc_session_free(s);
    mc_session_free(t);
    mc_game_free(g);
    mc_game_free(h);
    unlink(file);
    unlink(subfile);
    rmdir(sub);
}

int main(void)
{
    /* The weights check_sum expects, written before any game loads its
       weights (they are read once). */
    char dir[] = "/tmp/mc_eval_XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char path[256], npath[256];
    snprintf(npath, sizeof npath, "%s/sadeqa2.txt", dir);
    write_net(npath, mc_rules_sadeqa2.nfeat);
    snprintf(path, sizeof path, "%s/oware.txt", dir);
    FILE *f = fopen(path, "w");
    int nf = mc_rules_oware.nfeat;
    fprintf(f, "features %d\n", nf);
    unsigned long long saved = rng_state;
    for (int i = 0; i < nf; i++)
        fprintf(f, "%d %d\n", i, (int)rnd(201) - 100);
    fclose(f);
    rng_state = saved;
    mc_error err = {0, ""};
    CHECK_MSG(mc_eval_source(dir, &err) == 0, "%s", err.msg);
    check_sum(dir);
    check_net();
    check_set_eval(dir);
    unlink(path);
    unlink(npath);
    rmdir(dir);

    check_game_features("oware");
    check_game_features("sadeqa2");
    check_game_features("gore");
    check_game_features("omweso");
    check_parser();
    check_net_parser();
    /* Games are made: the source is the one in use for good (their
       weights are loaded), another is refused. */
    CHECK(mc_eval_source(dir, &err) == 0);
    CHECK(mc_eval_source("hand", &err) == MC_ERR_ARG &&
          strstr(err.msg, "before the first game"));
    CHECK(mc_eval_source(NULL, NULL) == MC_ERR_ARG);
    return check_report("test_eval");
}
