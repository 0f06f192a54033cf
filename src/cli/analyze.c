/*
 * analyze.c - `mancala analyze` (streaming search lines for a position) and
 * `mancala bench` (the search signature over fixed positions, and the
 * rules' speed: perft and random games).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "mancala_egdb.h"

/* "+1.25" seeds, "win in 3" / "loss in 4" plies for proven results, or
   "win by 3 (tables)" for results the endgame tables proved. */
void cli_format_score(char *buf, size_t n, int score)
{
    int margin = mc_egdb_score_margin(score);
    if (margin > 0)
        snprintf(buf, n, "win by %d (tables)", margin);
    else if (margin < 0)
        snprintf(buf, n, "loss by %d (tables)", -margin);
    else if (score >= MC_SCORE_PROVEN)
        snprintf(buf, n, "win in %d", MC_SCORE_WIN - score);
    else if (score <= -MC_SCORE_PROVEN)
        snprintf(buf, n, "loss in %d", MC_SCORE_WIN + score);
    else
        snprintf(buf, n, "%+.2f", score / 100.0);
}

typedef struct analyze_ctx {
    const mc_game *g;
    const mc_pos *root;
} analyze_ctx;

static void print_pv(const mc_game *g, const mc_pos *root,
                     const mc_search_info *info)
{
    mc_pos p = *root;
    for (int i = 0; i < info->pvlen; i++) {
        char b[MC_MOVE_STRLEN];
        mc_move_format(g, &p, info->pv[i], b, sizeof b);
        printf(" %s", b);
        mc_play(g, &p, info->pv[i], NULL);
    }
}

static void on_info(const mc_search_info *info, void *vctx)
{
    const analyze_ctx *a = vctx;
    char sc[32];
    cli_format_score(sc, sizeof sc, info->score);
    double nps = info->seconds > 0 ? info->nodes / info->seconds : 0;
    printf("depth %d score %s nodes %llu nps %.0f time %.3f pv", info->depth,
           sc, (unsigned long long)info->nodes, nps, info->seconds);
    print_pv(a->g, a->root, info);
    printf("\n");
    fflush(stdout);
}

/* Parse --depth/--time/--nodes/--level/--hash into lim; returns the index of
   the first unused argument or -1 after printing an error. */
static int parse_limits(int argc, char **argv, int i, mc_search_limits *lim,
                        const char *cmd, const char **egdb_dir, int *no_egdb)
{
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0)
            return i;
        if (strcmp(a, "--no-egdb") == 0 && no_egdb) {
            *no_egdb = 1;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, _("mancala %s: %s needs a value\n"), cmd, a);
            return -1;
        }
        const char *v = argv[++i];
        if (strcmp(a, "--egdb") == 0 && egdb_dir) {
            *egdb_dir = v;
            continue;
        }
        long n = cli_number(v, 1000000000L);
        if (strcmp(a, "--depth") == 0 && n >= 1 && n <= 100) {
            lim->depth = (int)n;
        } else if (strcmp(a, "--nodes") == 0 && n >= 1) {
            lim->nodes = (uint64_t)n;
        } else if (strcmp(a, "--level") == 0 && n >= 1 && n <= 10) {
            lim->level = (int)n;
        } else if (strcmp(a, "--hash") == 0 && n >= 1 && n <= 65536) {
            lim->hash_mb = (int)n;
        } else if (strcmp(a, "--time") == 0) {
            char *end;
            double t = strtod(v, &end);
            if (*end || end == v || !(t > 0 && t <= 86400)) {
                fprintf(stderr,
                        _("mancala %s: --time takes seconds, not '%s'\n"), cmd,
                        v);
                return -1;
            }
            lim->seconds = t;
        } else if (strcmp(a, "--depth") == 0 || strcmp(a, "--nodes") == 0 ||
                   strcmp(a, "--level") == 0 || strcmp(a, "--hash") == 0) {
            fprintf(stderr, _("mancala %s: bad value '%s' for %s\n"), cmd, v,
                    a);
            return -1;
        } else {
            fprintf(stderr, _("mancala %s: unknown option '%s'\n"), cmd, a);
            return -1;
        }
    }
    return i;
}

static const char *const analyze_usage = N_(
    "usage: mancala analyze <game> [<position>|start] [--depth N] [--time S] "
    "[--nodes N]\n"
    "       mancala analyze --game FILE [--round N] [--time S]: review a "
    "recorded game\n"
    "                       [--hash MB] [--egdb DIR|--no-egdb]\n\n"
    "Search the position and print a line per completed depth:\n"
    "  depth D score S nodes N nps R time T pv MOVES\n"
    "(S in seeds from the mover's view, or 'win in P' / 'loss in P' plies),\n"
    "then 'bestmove M'.  Default: 5 seconds.\n"
    "Oware endgame tables (mancala egdb build) are probed when found in\n"
    "$MANCALA_EGDB_DIR, ~/.local/share/mancala/egdb or the installed ones\n"
    "('endgame tables: ...' names them); a position they solve is first\n"
    "reported as 'perfect play: ...'.\n"
    "--egdb DIR: the tables in DIR instead; --no-egdb: none.\n");

/* Name the tables found, and say when they solve the position. */
static void report_tables(const mc_egdb *db, const char *dir, const mc_pos *p)
{
    printf(_("endgame tables: %s layers 0-%d in %s\n"),
           mc_egdb_preset_name(mc_egdb_preset(db)), mc_egdb_max_seeds(db), dir);
    int diff;
    if (mc_egdb_lookup(db, p, 1, &diff) == MC_EGDB_EXACT) {
        /* diff: the final seed difference from the mover's view */
        int south = p->side == MC_SOUTH ? diff : -diff;
        if (south == 0)
            printf(_("perfect play: a draw\n"));
        else
            printf(_("perfect play: %s wins by %d\n"),
                   cli_side(south > 0 ? MC_SOUTH : MC_NORTH),
                   south > 0 ? south : -south);
    }
}

/* Search p with the player until the limits, a line a depth, then the
   best move (or the result when p is over); the exit code. */
static int analyze_search(const mc_game *g, const mc_pos *p,
                          const mc_search_limits *lim, const char *egdb_dir)
{
    mc_session *s = mc_session_new(g, p);
    analyze_ctx a = {g, p};
    /* The player probes the same tables, and where they know the root's
       value it chooses only among the moves that keep it. */
    mc_player_opts o = {0};
    o.level = lim->level;
    o.hash_mb = lim->hash_mb;
    o.threads = 1;
    o.tables = egdb_dir ? egdb_dir : "none";
    o.book = "none"; /* analysis: a search, never the book (mancala book) */
    o.seed = lim->seed;
    mc_error perr = {0, ""};
    mc_player *pl = s ? mc_player_new(g, &o, &perr) : NULL;
    if (s && !pl) {
        fprintf(stderr, "mancala analyze: %s\n", perr.msg);
        mc_session_free(s);
        return EXIT_BAD_INPUT;
    }
    mc_go go = {0};
    go.depth = lim->depth;
    go.nodes = lim->nodes;
    go.movetime = lim->seconds;
    go.on_info = on_info;
    go.info_ctx = &a;
    if (!go.depth && !go.nodes && go.movetime <= 0)
        go.depth = 64;
    mc_search_info info;
    if (!s || mc_player_sync(pl, s, NULL) != 0 ||
        mc_player_go(pl, &go, &info) != 0) {
        mc_player_free(pl);
        mc_result r;
        if (s) {
            mc_session_result(s, &r);
            printf("over %s %s\n",
                   r.winner == MC_DRAW    ? "draw"
                   : r.winner == MC_SOUTH ? "S"
                                          : "N",
                   r.detail);
        }
        mc_session_free(s);
        return 0;
    }
    char b[MC_MOVE_STRLEN];
    mc_move_format(g, p, info.best, b, sizeof b);
    printf("bestmove %s\n", b);
    mc_player_free(pl);
    mc_session_free(s);
    return 0;
}

int cmd_analyze(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--game") == 0)
        return cli_review(argc, argv);
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(_(analyze_usage), stdout);
            return 0;
        }
    if (argc < 2) {
        fprintf(stderr, _("usage: mancala analyze <game> [<position>] "
                          "[--depth N|--time S|--nodes N]\n"));
        return EXIT_USAGE;
    }
    mc_game *g = cli_game(argv[1]);
    if (!g)
        return EXIT_BAD_INPUT;
    int i = 2;
    const char *pos = "start";
    if (i < argc && strncmp(argv[i], "--", 2) != 0)
        pos = argv[i++];
    mc_search_limits lim = {0};
    const char *egdb_dir = NULL;
    int no_egdb = 0;
    mc_egdb *db = NULL;
    int rest =
        parse_limits(argc, argv, i, &lim, "analyze", &egdb_dir, &no_egdb);
    mc_pos p;
    int rc = EXIT_USAGE;
    if (rest < 0)
        goto out;
    if (rest < argc) {
        fprintf(stderr, _("mancala analyze: unexpected argument '%s'\n"),
                argv[rest]);
        goto out;
    }
    rc = EXIT_BAD_INPUT;
    if (cli_position(g, pos, &p))
        goto out;
    if (!lim.depth && !lim.nodes && lim.seconds <= 0)
        lim.seconds = 5;
    if (egdb_dir && no_egdb) {
        fprintf(stderr, _("mancala analyze: --egdb and --no-egdb together\n"));
        rc = EXIT_USAGE;
        goto out;
    }
    char tables[4096];
    if (!egdb_dir && !no_egdb)
        egdb_dir = cli_default_tables(g, "analyze", 0, tables, sizeof tables);
    if (egdb_dir && !(db = cli_open_egdb(g, egdb_dir, "analyze")))
        goto out;
    assert(!db || egdb_dir); /* tables are open only where they were named */
    if (db)
        report_tables(db, egdb_dir, &p);
    rc = analyze_search(g, &p, &lim, egdb_dir);
out:
    mc_egdb_close(db);
    mc_game_free(g);
    return rc;
}

mc_egdb *cli_open_egdb(const mc_game *g, const char *dir, const char *cmd)
{
    mc_error err = {0, ""};
    int preset = mc_egdb_preset_of(g, &err);
    if (preset < 0) {
        fprintf(stderr, "mancala %s: --egdb: %s\n", cmd, err.msg);
        return NULL;
    }
    mc_egdb *db = mc_egdb_open(dir, preset, -1, &err);
    if (!db)
        fprintf(stderr, "mancala %s: --egdb %s: %s\n", cmd, dir, err.msg);
    return db;
}

/* ---- bench ---- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Fixed positions (from the rule files' examples and play) and depths. */
typedef struct bench_pos {
    const char *game, *pos;
    int depth;
} bench_pos;

static const bench_pos bench_positions[] = {
    {"oware", "start", 16},
    {"oware", "0,0,8,0,0,1/1,1,1,1,2,3 S cap=10,20", 16},
    {"oware", "1,0,4,4,18,2/0,0,0,0,0,0 S cap=7,12", 16},
    {"oware", "4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0", 16},
    {"oware", "2,1,5,5,0,4/2,2,2,2,2,2 N cap=7,12", 16},
    {"gore", "start", 16},
    {"gore:trades=off", "start", 18},
    {"gore", "0,0,0,0/1,1,0,6 N own=SSSSNNNN cap=20,20", 16},
    {"sadeqa2", "start", 20},
    {"sadeqa2", "0,4,4,0,0,1/5,5,1,4,4,4 N first=N", 20},
    {"omweso", "start", 9},
    {"omweso:setup=all2", "start", 6},
};

static int bench_search(void)
{
    uint64_t total = 0;
    double t0 = now_seconds();
    int n = 0;
    for (size_t i = 0; i < sizeof bench_positions / sizeof bench_positions[0];
         i++) {
        const bench_pos *b = &bench_positions[i];
        mc_game *g = mc_game_new(b->game, NULL);
        if (!g)
            continue; /* a game not built into this program */
        mc_pos p;
        if (mc_pos_parse(g, b->pos, &p, NULL) != 0) {
            fprintf(stderr, _("mancala bench: bad bench position %s\n"),
                    b->pos);
            mc_game_free(g);
            return EXIT_BAD_INPUT;
        }
        mc_session *s = mc_session_new(g, &p);
        mc_search_limits lim = {0};
        lim.depth = b->depth;
        mc_search_info info;
        double t = now_seconds();
        int rc = mc_search(s, &lim, &info);
        t = now_seconds() - t;
        char mv[MC_MOVE_STRLEN] = "-";
        if (rc == 0)
            mc_move_format(g, &p, info.best, mv, sizeof mv);
        printf("%2d %-8s depth %2d nodes %10llu  %6.3f s  best %-6s  %s\n", ++n,
               b->game, b->depth, (unsigned long long)info.nodes, t, mv,
               b->pos);
        total += info.nodes;
        mc_session_free(s);
        mc_game_free(g);
    }
    double dt = now_seconds() - t0;
    printf("bench: %llu nodes %.3f s %.0f nps\n", (unsigned long long)total, dt,
           dt > 0 ? total / dt : 0);
    return 0;
}

int cmd_bench(int argc, char **argv)
{
    const char *spec = "oware";
    long depth = -1, games = -1;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--time") == 0)
            return cli_bench_time(argc, argv);
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            printf(
                _("usage: mancala bench\n"
                  "       mancala bench --rules [--game G] [--perft D] "
                  "[--games N]\n\n"
                  "Without options: search fixed positions of every game to "
                  "fixed depths\non one thread and print each position's "
                  "nodes, then the total: the\nsignature of this build "
                  "(the same code gives the same count).\n"
                  "--rules: time perft to depth D from the start (default "
                  "11) and N uniform\nrandom games (default 200000, seed "
                  "1) on one core.\n"
                  "--time [--searches N] [--min MS] [--max MS] [--hash MB] "
                  "[--threads N]\n       [--tables DIR|default|none] "
                  "[--game G]: N searches (default 1000)\nof 'go movetime T', "
                  "T from MIN to MAX (20..1000) through the engine\n"
                  "protocol; prints how far past T the answers came (exit 1 "
                  "when one came\nmore than 10 ms late).\n"));
            return 0;
        }
        if (strcmp(argv[i], "--rules") == 0) {
            if (depth < 0)
                depth = 11;
            if (games < 0)
                games = 200000;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, _("mancala bench: %s needs a value\n"), argv[i]);
            return EXIT_USAGE;
        }
        if (strcmp(argv[i], "--game") == 0) {
            spec = argv[++i];
            if (depth < 0)
                depth = 11;
            if (games < 0)
                games = 200000;
        } else if (strcmp(argv[i], "--perft") == 0) {
            depth = cli_number(argv[++i], 30);
            if (games < 0)
                games = 0;
        } else if (strcmp(argv[i], "--games") == 0) {
            games = cli_number(argv[++i], 1000000000L);
            if (depth < 0)
                depth = 0;
        } else {
            fprintf(stderr, _("mancala bench: unknown option '%s'\n"), argv[i]);
            return EXIT_USAGE;
        }
        if (depth == -1 && games == -1) {
            fprintf(stderr, _("mancala bench: bad number '%s'\n"), argv[i]);
            return EXIT_USAGE;
        }
    }
    if (depth < 0 && games < 0)
        return bench_search();
    if (depth < 0 || games < 0) {
        fprintf(stderr, _("mancala bench: bad number\n"));
        return EXIT_USAGE;
    }
    return cli_bench_rules(spec, (int)depth, games);
}

/* ---- solve ---- */

int cmd_solve(int argc, char **argv)
{
    if (argc >= 2 &&
        (!strcmp(argv[1], "--build") || !strcmp(argv[1], "--verify") ||
         !strcmp(argv[1], "--check") || !strcmp(argv[1], "--info")))
        return cli_solve_tables(argc, argv);
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf(_(
                "usage: mancala solve <game> [<position>|start] "
                "[--depth N] [--time S]\n\n"
                "Prove which side wins the position with perfect play by "
                "exact search\n(no reductions; table entries only where "
                "history cannot matter),\ndeepening to N plies (default "
                "100) or for S seconds (default 600).\nPrints the winner, "
                "the longest forced line and every winning move,\nor that "
                "no proof was found within the limits.\n\n"
                "mancala solve --build|--verify|--info|--check GAME [--dir D] "
                "[--seeds N]\n      [--threads T] [--positions K] [--seed R] "
                "[--from-start] [--quiet]: the strong solution of\n      a "
                "game that can "
                "be solved by retrograde analysis (mancala solve --build "
                "--help).\n"));
            return 0;
        }
    if (argc < 2) {
        fprintf(stderr,
                _("usage: mancala solve <game> [<position>] [--depth N] "
                  "[--time S]\n"));
        return EXIT_USAGE;
    }
    mc_game *g = cli_game(argv[1]);
    if (!g)
        return EXIT_BAD_INPUT;
    int i = 2, rc = EXIT_USAGE;
    const char *pos = "start";
    if (i < argc && strncmp(argv[i], "--", 2) != 0)
        pos = argv[i++];
    mc_search_limits lim = {0};
    int rest = parse_limits(argc, argv, i, &lim, "solve", NULL, NULL);
    mc_session *s = NULL;
    mc_pos p;
    if (rest < 0)
        goto out;
    if (rest < argc) {
        fprintf(stderr, _("mancala solve: unexpected argument '%s'\n"),
                argv[rest]);
        goto out;
    }
    rc = EXIT_BAD_INPUT;
    if (cli_position(g, pos, &p))
        goto out;
    s = mc_session_new(g, &p);
    mc_solve_info info;
    double t0 = now_seconds();
    int sr = s ? mc_solve(s, lim.depth ? lim.depth : 100,
                          lim.seconds > 0 ? lim.seconds : 600, &info)
               : MC_ERR_ARG;
    double dt = now_seconds() - t0;
    rc = 0;
    if (sr == MC_ERR_OVER) {
        mc_result r;
        mc_session_result(s, &r);
        char words[300];
        mc_result_describe(g, &r, words, sizeof words);
        printf(_("the game is over: %s\n"), words);
        goto out;
    }
    if (!info.proven) {
        printf(_("%s: not proven within depth %d (%llu nodes, %.1f s)\n"),
               mc_game_spec(g), info.depth, (unsigned long long)info.nodes, dt);
        goto out;
    }
    printf(_("%s: %s wins with perfect play (forced win in at most %d plies; "
             "proven at depth %d, %llu nodes, %.1f s)\n"),
           mc_game_spec(g), cli_side(info.winner), info.plies, info.depth,
           (unsigned long long)info.nodes, dt);
    if (info.winner == p.side) {
        printf(_("winning moves:"));
        for (int k = 0; k < info.nwins; k++) {
            char b[MC_MOVE_STRLEN];
            mc_move_format(g, &p, info.wins[k], b, sizeof b);
            printf(" %s", b);
        }
        printf("\n");
    } else {
        printf(_("every move of %s loses\n"), cli_side(p.side));
    }
out:
    mc_session_free(s);
    mc_game_free(g);
    return rc;
}
