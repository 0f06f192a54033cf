/*
 * selfplay.c - `mancala selfplay`: automatic games between two built-in
 * players (levels, depths, node or time budgets, or random play), sides
 * alternating over shared random openings; prints wins, draws, losses and
 * the Elo difference with its 95 % interval.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "match_stats.h"

/* Parse "level=3,nodes=5000,depth=8,time=0.1" or "random". */
static int parse_player(const char *spec, mc_selfplay_player *p)
{
    memset(p, 0, sizeof *p);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", spec);
    char *save = NULL;
    for (char *item = strtok_r(buf, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        if (strcmp(item, "random") == 0) {
            p->random = 1;
            continue;
        }
        char *eq = strchr(item, '=');
        if (!eq) {
            fprintf(stderr,
                    _("mancala selfplay: player item '%s' is not "
                      "key=value or 'random'\n"),
                    item);
            return -1;
        }
        *eq = '\0';
        const char *v = eq + 1;
        long n = cli_number(v, 1000000000L);
        if (strcmp(item, "level") == 0 && n >= 1 && n <= 10)
            p->limits.level = (int)n;
        else if (strcmp(item, "depth") == 0 && n >= 1 && n <= 100)
            p->limits.depth = (int)n;
        else if (strcmp(item, "nodes") == 0 && n >= 1)
            p->limits.nodes = (uint64_t)n;
        else if (strcmp(item, "time") == 0 && atof(v) > 0)
            p->limits.seconds = atof(v);
        else if (strcmp(item, "algo") == 0 && strcmp(v, "ab") == 0)
            p->limits.algo = MC_ALGO_AB;
        else if (strcmp(item, "algo") == 0 && strcmp(v, "mcts") == 0)
            p->limits.algo = MC_ALGO_MCTS;
        else {
            fprintf(stderr,
                    _("mancala selfplay: bad player setting '%s=%s' (keys: "
                      "level 1-10, depth, nodes, time, algo=ab|mcts, or "
                      "'random')\n"),
                    item, v);
            return -1;
        }
    }
    if (!p->random && !p->limits.depth && !p->limits.nodes &&
        p->limits.seconds <= 0)
        p->limits.seconds = 0.1;
    return 0;
}

int cmd_selfplay(int argc, char **argv)
{
    const char *spec = NULL, *sa = "level=10", *sb = "level=3";
    long pairs = 50, opening = 2, seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            printf(
                _("usage: mancala selfplay <game> [--a P] [--b P] "
                  "[--pairs N] [--opening K] [--seed S]\n\n"
                  "Play N pairs of games between player A and player B "
                  "(default 50 pairs):\neach pair shares K random opening "
                  "plies (default 2), A is South in one\ngame and North in "
                  "the other.  A player P is 'random' or settings\n"
                  "key=value,... with level (1-10), depth, nodes, time "
                  "(seconds a move),\nalgo (ab or mcts);\ndefault A level=10, "
                  "B level=3, 0.1 s "
                  "a move.  Prints A's wins, draws,\nlosses, score and Elo "
                  "difference with its 95 %% interval.\n"));
            return 0;
        }
        if (a[0] != '-') {
            if (spec) {
                fprintf(stderr, _("mancala selfplay: unexpected '%s'\n"), a);
                return EXIT_USAGE;
            }
            spec = a;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, _("mancala selfplay: %s needs a value\n"), a);
            return EXIT_USAGE;
        }
        const char *v = argv[++i];
        long *num = strcmp(a, "--pairs") == 0     ? &pairs
                    : strcmp(a, "--opening") == 0 ? &opening
                    : strcmp(a, "--seed") == 0    ? &seed
                                                  : NULL;
        if (strcmp(a, "--a") == 0)
            sa = v;
        else if (strcmp(a, "--b") == 0)
            sb = v;
        else if (num) {
            *num = cli_number(v, 1000000000L);
            if (*num < 0 || (num == &pairs && *num == 0)) {
                fprintf(stderr, _("mancala selfplay: bad number '%s' for %s\n"),
                        v, a);
                return EXIT_USAGE;
            }
        } else {
            fprintf(stderr, _("mancala selfplay: unknown option '%s'\n"), a);
            return EXIT_USAGE;
        }
    }
    if (!spec) {
        fprintf(stderr, _("usage: mancala selfplay <game> [--a P] [--b P] "
                          "[--pairs N]\n"));
        return EXIT_USAGE;
    }
    return cli_builtin_match(spec, sa, sb, pairs, opening, seed);
}

int cli_builtin_match(const char *spec, const char *sa, const char *sb,
                      long pairs, long opening, long seed)
{
    mc_selfplay_player pa, pb;
    if (parse_player(sa, &pa) || parse_player(sb, &pb))
        return EXIT_USAGE;
    mc_game *g = cli_game(spec);
    if (!g)
        return EXIT_BAD_INPUT;
    mc_selfplay_score r;
    mc_selfplay(g, &pa, &pb, (int)pairs, (int)opening, (uint64_t)seed, &r);
    char elo[96];
    printf(_("%s: A (%s) vs B (%s): %d games, A won %d, drew %d, lost %d; "
             "score %.3f; %s\n"),
           mc_game_spec(g), sa, sb, r.games, r.wins, r.draws, r.losses, r.score,
           ms_elo_text(r.elo, r.elo_low, r.elo_high, elo, sizeof elo));
    mc_game_free(g);
    return 0;
}
