/*
 * review.c - `mancala analyze --game FILE`: the review of a recorded game
 * (docs/WASM.md, "Whole-game analysis"): every position valued by the
 * engine, every move with its player's chance to win before and after it,
 * the library's verdict (inaccuracy, mistake, blunder) and the engine's
 * better move.  The same judgement as the page's and the full screen's.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "mancala_record.h"

/* xgettext:no-c-format */
static const char *const usage =
    N_("usage: mancala analyze --game FILE [--round N] [--time S|--depth "
       "D|--nodes N]\n\n"
       "Review a recorded game: the engine values every position (default\n"
       "0.5 s each), then each move is printed with the position's value in\n"
       "words, its player's chance to win before and after it, and, when it\n"
       "gave away 10 % or more of it, the verdict (inaccuracy 10 %, mistake\n"
       "20 %, blunder 30 %) and the engine's better move:\n"
       "  PLY SIDE MOVE: VALUE; CHANCE% -> CHANCE%[; VERDICT, better BEST]\n"
       "then a count of each side's verdicts.  --round N: the N-th game of\n"
       "the file (default 1).  Progress goes to stderr.\n");

static void on_progress(int done, int total, void *ctx)
{
    (void)ctx;
    if (isatty(2)) {
        fputc('\r', stderr);
        fprintf(stderr, _("reviewing: %d/%d positions"), done, total);
        if (done == total)
            fputc('\n', stderr);
    } else if (done == total) {
        fprintf(stderr, _("reviewed %d positions\n"), total);
    }
}

/* What `mancala analyze --game` was asked: the file, the game in it, the
   search's budget for every position. */
typedef struct review_args {
    const char *file;
    long round, depth, nodes;
    double secs;
} review_args;

/* Read the arguments into a; -1 when they are good, else the exit code
   (0 after --help). */
static int parse_args(int argc, char **argv, review_args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (cli_is_help(o)) {
            fputs(_(usage), stdout);
            return 0;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, _("mancala analyze: %s needs a value\n"), o);
            return EXIT_USAGE;
        }
        const char *v = argv[++i];
        if (strcmp(o, "--game") == 0) {
            a->file = v;
        } else if (strcmp(o, "--round") == 0 &&
                   (a->round = cli_number(v, 100000)) >= 1) {
        } else if (strcmp(o, "--depth") == 0 &&
                   (a->depth = cli_number(v, 100)) >= 1) {
        } else if (strcmp(o, "--nodes") == 0 &&
                   (a->nodes = cli_number(v, 1000000000L)) >= 1) {
        } else if (strcmp(o, "--time") == 0) {
            char *end;
            a->secs = strtod(v, &end);
            if (*end || end == v || !(a->secs > 0 && a->secs <= 3600)) {
                fprintf(stderr,
                        _("mancala analyze: --time takes seconds, not '%s'\n"),
                        v);
                return EXIT_USAGE;
            }
        } else {
            fprintf(stderr, _("mancala analyze: bad option or value: %s %s\n"),
                    o, v);
            return EXIT_USAGE;
        }
    }
    if (!a->file) {
        fprintf(stderr, _("mancala analyze: --game FILE names the record\n"));
        return EXIT_USAGE;
    }
    return -1;
}

/* The player that values every position: one thread, the tables where
   they are, never the book.  NULL with the reason in err. */
static mc_player *reviewer(const mc_game *g, mc_error *err)
{
    mc_player_opts o = {0};
    o.threads = 1;
    char tables[4096];
    const char *tdir =
        cli_default_tables(g, "analyze", 0, tables, sizeof tables);
    o.tables = tdir ? tdir : "none";
    o.book = "none"; /* a search of every position, never the book */
    return mc_player_new(g, &o, err);
}

/* A line a move, then each side's verdicts counted, then the result. */
static void print_review(const mc_game *g, const mc_session *s,
                         const mc_review *rv)
{
    int plies = mc_session_ply(s);
    int count[2][4] = {{0}};
    for (int k = 0; k < plies; k++) {
        const mc_review *v = &rv[k];
        const mc_pos *p = mc_session_pos_at(s, k);
        char mv[MC_MOVE_STRLEN], best[MC_MOVE_STRLEN], words[160];
        mc_move_format(g, p, v->played, mv, sizeof mv);
        mc_move_format(g, p, v->best, best, sizeof best);
        mc_score_describe(g, p->side, v->score, words, sizeof words);
        printf("%d %s %s: %s; %d%% -> %d%%", k + 1, v->side ? "N" : "S", mv,
               words, (int)(v->before * 100 + 0.5),
               (int)(v->after * 100 + 0.5));
        if (v->verdict != MC_VERDICT_NONE)
            printf(_("; %s, better %s"), cli_verdict(v->verdict), best);
        printf("\n");
        /* the library's: the mover of ply k, one of the four verdicts */
        assert(v->side == p->side);
        assert(v->verdict >= MC_VERDICT_NONE &&
               v->verdict <= MC_VERDICT_BLUNDER);
        count[v->side][v->verdict]++;
    }
    for (int side = 0; side < 2; side++) {
        int *c = count[side];
        char in[64], mi[64], bl[64];
        int ni = c[MC_VERDICT_INACCURACY], nm = c[MC_VERDICT_MISTAKE],
            nb = c[MC_VERDICT_BLUNDER];
        snprintf(in, sizeof in, P_("%d inaccuracy", "%d inaccuracies", ni), ni);
        snprintf(mi, sizeof mi, P_("%d mistake", "%d mistakes", nm), nm);
        snprintf(bl, sizeof bl, P_("%d blunder", "%d blunders", nb), nb);
        /* TRANSLATORS: a side, then its inaccuracies, mistakes and
           blunders counted ("South: 0 inaccuracies, 1 mistake, 0 blunders") */
        printf(_("%s: %s, %s, %s\n"), cli_side(side), in, mi, bl);
    }
    if (mc_session_over(s)) {
        mc_result r;
        mc_session_result(s, &r);
        char words[512];
        mc_result_describe(g, &r, words, sizeof words);
        printf("%s\n", words);
    }
}

int cli_review(int argc, char **argv)
{
    review_args a = {NULL, 1, 0, 0, 0};
    int prc = parse_args(argc, argv, &a);
    if (prc >= 0)
        return prc;
    mc_record **recs = NULL;
    int n = 0;
    mc_record_loc loc;
    mc_error err = {0, ""};
    if (mc_records_load(a.file, &recs, &n, &loc, &err) != 0) {
        fprintf(stderr, "mancala analyze: %s: %s\n", a.file, err.msg);
        return EXIT_BAD_INPUT;
    }
    if (a.round > n) {
        fprintf(stderr,
                P_("mancala analyze: %s holds %d game, not %ld\n",
                   "mancala analyze: %s holds %d games, not %ld\n", n),
                a.file, n, a.round);
        mc_records_free(recs, n);
        return EXIT_BAD_INPUT;
    }
    assert(a.round >= 1); /* parse_args takes 1 and up only */
    mc_record *rec = recs[a.round - 1];
    const mc_game *g = mc_record_game(rec);
    const mc_session *s = mc_record_session(rec);
    int plies = mc_session_ply(s);
    mc_player *pl = reviewer(g, &err);
    mc_review *rv = calloc((size_t)plies + 1, sizeof *rv);
    int rc = EXIT_BAD_INPUT;
    if (!pl || !rv) {
        fprintf(stderr, "mancala analyze: %s\n",
                pl ? _("out of memory") : err.msg);
        goto out;
    }
    mc_go go = {0};
    go.depth = (int)a.depth;
    go.nodes = (uint64_t)a.nodes;
    go.movetime = a.secs;
    if (!a.depth && !a.nodes && a.secs <= 0)
        go.movetime = 0.5;
    if (plies == 0) {
        printf(_("%s: no move to review\n"), mc_game_spec(g));
        rc = 0;
        goto out;
    }
    if (mc_review_game(pl, s, &go, rv, on_progress, NULL) != 0) {
        fprintf(stderr, _("mancala analyze: out of memory\n"));
        goto out;
    }
    printf(P_("review of %s, game %ld of %s: %d move\n",
              "review of %s, game %ld of %s: %d moves\n", plies),
           mc_game_spec(g), a.round, a.file, plies);
    print_review(g, s, rv);
    rc = 0;
out:
    free(rv);
    mc_player_free(pl);
    mc_records_free(recs, n);
    return rc;
}
