/*
 * solved.c - the solved games' tables from the command line
 * (docs/SOLVED.md): `mancala solve --build|--verify|--info GAME` and
 * `mancala probe GAME [POSITION]`.  The library builds, checks and
 * probes; this file parses, shows progress and prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

typedef struct sopts {
    const char *game, *dir, *pos;
    long seeds, threads, positions, seed;
    double seconds;
    int quiet, from_start, line;
} sopts;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The directory named, else where tables are kept (cli_tables_dir);
   NULL after a message. */
static const char *tables_dir(const char *cmd, const sopts *o, char *buf,
                              size_t n)
{
    return o->dir ? o->dir : cli_tables_dir(cmd, buf, n);
}

/* Options after the game (and, for probe, the position). */
static int parse(const char *cmd, int argc, char **argv, int i, sopts *o,
                 int want_pos)
{
    o->seeds = -1;
    o->threads = 2;
    o->positions = 20;
    o->seconds = 5;
    o->seed = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--dir") && i + 1 < argc) {
            o->dir = argv[++i];
        } else if (!strcmp(a, "--seeds") && i + 1 < argc) {
            if ((o->seeds = cli_number(argv[++i], 48)) < 0) {
                fprintf(stderr, _("mancala %s: --seeds takes 0 to 48\n"), cmd);
                return -1;
            }
        } else if (!strcmp(a, "--threads") && i + 1 < argc) {
            if ((o->threads = cli_number(argv[++i], 16)) < 1) {
                fprintf(stderr, _("mancala %s: --threads takes 1 to 16\n"),
                        cmd);
                return -1;
            }
        } else if (!strcmp(a, "--positions") && i + 1 < argc) {
            if ((o->positions = cli_number(argv[++i], 1000000)) < 1) {
                fprintf(stderr, _("mancala %s: --positions takes 1 or more\n"),
                        cmd);
                return -1;
            }
        } else if (!strcmp(a, "--seed") && i + 1 < argc) {
            if ((o->seed = cli_number(argv[++i], 1L << 30)) < 0) {
                fprintf(stderr, _("mancala %s: --seed takes a number\n"), cmd);
                return -1;
            }
        } else if (!strcmp(a, "--time") && i + 1 < argc) {
            char *end;
            o->seconds = strtod(argv[++i], &end);
            if (*end || !(o->seconds > 0 && o->seconds <= 3600)) {
                fprintf(stderr,
                        _("mancala %s: --time takes seconds (0 to "
                          "3600)\n"),
                        cmd);
                return -1;
            }
        } else if (!strcmp(a, "--quiet")) {
            o->quiet = 1;
        } else if (!strcmp(a, "--from-start") && !want_pos) {
            o->from_start = 1;
        } else if (!strcmp(a, "--line") && want_pos) {
            o->line = 1;
        } else if (a[0] != '-' && !o->game) {
            o->game = a;
        } else if (a[0] != '-' && want_pos && !o->pos) {
            o->pos = a;
        } else {
            fprintf(stderr,
                    _("mancala %s: unexpected argument '%s' (see "
                      "--help)\n"),
                    cmd, a);
            return -1;
        }
    }
    if (!o->game) {
        fprintf(stderr, _("mancala %s: which game? (see --help)\n"), cmd);
        return -1;
    }
    return 0;
}

/* The game of o, solvable, or NULL after a message. */
static mc_game *solvable_game(const char *cmd, const sopts *o)
{
    mc_game *g = cli_game(o->game);
    if (!g)
        return NULL;
    char name[32];
    mc_error err = {0};
    if (mc_solved_name(g, name, sizeof name, &err) != 0) {
        fprintf(stderr, "mancala %s: %s\n", cmd, err.msg);
        mc_game_free(g);
        return NULL;
    }
    return g;
}

/* ---- build ---------------------------------------------------------- */

typedef struct sbar {
    int quiet, tty, max, top;
    double t0, last;
    /* Work in position-passes: the moves and the links (the rules played
       twice) and the sweep's thresholds (a lighter pass each). */
    double work[MC_EGDB_MAX_SEEDS + 1], before[MC_EGDB_MAX_SEEDS + 1];
    double total, shown;
    cli_meter *meter;
    long peak_kb[MC_EGDB_MAX_SEEDS + 1];
} sbar;

static double passes(int n)
{
    return 2.0 + 0.1 * n;
}

static void bar_init(sbar *b, const mc_game *g, int max)
{
    b->max = max;
    for (int n = 0; n <= max; n++) {
        b->before[n] = b->total;
        b->work[n] = (double)mc_solved_layer_size(g, n) * passes(n);
        b->total += b->work[n];
    }
}

static void bar_progress(void *ctx, int n, const char *phase, uint64_t done,
                         uint64_t total)
{
    sbar *b = ctx;
    if (n < 0 || n > b->top)
        return;
    int isdone = !strcmp(phase, "done");
    if (isdone && b->meter)
        b->peak_kb[n] = cli_meter_take(b->meter);
    if (b->quiet)
        return;
    double t = now_s();
    if (n > b->max) {
        /* A start layer: its boards are found first, so its own
           fraction only (no estimate of the whole). */
        if (!isdone && t - b->last < 0.25)
            return;
        b->last = t;
        cli_layer_bar(b->tty, n, b->top, isdone ? "done" : phase,
                      total ? (double)done / (double)total : 0, -1);
        return;
    }
    if (b->t0 == 0) {
        /* Layers found on disk are not this run's work. */
        b->t0 = t;
        b->total -= b->before[n];
        for (int k = b->max; k >= 0; k--)
            b->before[k] -= b->before[n];
    }
    double part = total ? (double)done / (double)total : 0;
    double f = isdone                    ? passes(n)
               : !strcmp(phase, "moves") ? part
               : !strcmp(phase, "links") ? 1 + part
                                         : 2 + 0.1 * n * part;
    double frac = b->total > 0
                      ? (b->before[n] + f / passes(n) * b->work[n]) / b->total
                      : 1;
    if (frac > 1)
        frac = 1;
    if (frac < b->shown)
        frac = b->shown;
    b->shown = frac;
    if (!isdone && t - b->last < 0.25)
        return;
    b->last = t;
    double el = t - b->t0, eta = frac > 0.001 ? el * (1 - frac) / frac : -1;
    cli_layer_bar(b->tty, n, b->max, isdone ? "done" : phase, frac, eta);
}

static int solved_build(const sopts *o)
{
    mc_game *g = solvable_game("solve --build", o);
    if (!g)
        return EXIT_BAD_INPUT;
    char dbuf[4096];
    const char *dir = tables_dir("solve --build", o, dbuf, sizeof dbuf);
    mc_error err = {0};
    if (!dir) {
        mc_game_free(g);
        return EXIT_BAD_INPUT;
    }
    if (mc_egdb_ensure_dir(dir, &err) != 0) {
        fprintf(stderr, _("mancala solve --build: %s\n"), err.msg);
        mc_game_free(g);
        return EXIT_BAD_INPUT;
    }
    int max = o->seeds >= 0 ? (int)o->seeds : mc_solved_max_seeds(g);
    int busy = 0, lock = cli_lock_tables(dir, &busy);
    if (lock < 0 && busy) {
        fprintf(stderr,
                _("mancala solve --build: another program is "
                  "building tables in %s\n"),
                dir);
        mc_game_free(g);
        return EXIT_BAD_INPUT;
    }
    static sbar b;
    memset(&b, 0, sizeof b);
    b.quiet = o->quiet;
    b.tty = isatty(2);
    bar_init(&b, g, max);
    b.top = o->from_start ? mc_solved_max_seeds(g) : max;
    cli_meter meter;
    cli_meter_start(&meter);
    b.meter = &meter;
    mc_solved_build_opts bo;
    memset(&bo, 0, sizeof bo);
    bo.dir = dir;
    bo.max_seeds = max;
    bo.threads = (int)o->threads;
    bo.from_start = o->from_start;
    bo.progress = bar_progress;
    bo.progress_ctx = &b;
    double t0 = now_s();
    cli_meter_take(&meter);
    int rc = mc_solved_build(g, &bo, &err);
    cli_meter_stop(&meter);
    if (lock >= 0)
        close(lock);
    if (rc) {
        if (b.tty && !o->quiet)
            fprintf(stderr, "\n");
        fprintf(stderr, _("mancala: solve --build: %s\n"), err.msg);
        mc_game_free(g);
        return EXIT_BAD_INPUT;
    }
    long peak = -1;
    if (!o->quiet) {
        if (bo.first_built > 0)
            printf(_("layers 0-%d found complete in %s\n"),
                   bo.first_built - 1 < max ? bo.first_built - 1 : max, dir);
        mc_solved *s = b.top > max ? mc_solved_open(g, dir, max, NULL) : NULL;
        int last = s ? mc_solved_seeds(s) : max;
        for (int n = bo.first_built; n <= last; n++) {
            const mc_egdb_info *in =
                n > max ? mc_solved_layer_info(s, n) : NULL;
            printf(_("layer %2d: %12llu %s  %8.2f s"), n,
                   (unsigned long long)(in ? in->entries
                                           : mc_solved_layer_size(g, n)),
                   n > max ? "reached  " : "positions", bo.seconds[n]);
            if (b.peak_kb[n] > 0)
                printf(_("  peak RssAnon %7.1f MiB"), b.peak_kb[n] / 1024.0);
            if (b.peak_kb[n] > peak)
                peak = b.peak_kb[n];
            printf("\n");
        }
        mc_solved_close(s);
        printf(_("solved %s layers 0-%d"), mc_game_spec(g), max);
        if (last > max)
            printf(_(" and the boards of %d-%d seeds reached from the start"),
                   max + 1, last);
        printf(" in %s: %.1f s", dir, now_s() - t0);
        if (peak > 0)
            printf(_(", peak RssAnon %.1f MiB"), peak / 1024.0);
        printf("\n");
    }
    mc_game_free(g);
    return 0;
}

/* ---- open, verify, info ------------------------------------------------ */

/* g's tables (layers 0..o->seeds, -1: all there) in the directory of o,
   written into dir; NULL after a message. */
static mc_solved *open_tables(const char *cmd, const mc_game *g, const sopts *o,
                              char *dir, size_t n)
{
    const char *d = tables_dir(cmd, o, dir, n);
    if (!d)
        return NULL;
    if (d != dir)
        snprintf(dir, n, "%s", d);
    mc_error err = {0};
    mc_solved *s = mc_solved_open(g, dir, (int)o->seeds, &err);
    if (!s)
        fprintf(stderr, "mancala %s: %s\n", cmd, err.msg);
    return s;
}

/* The game of o (solvable) into *gp and its tables (open_tables); NULL
   after a message, *gp then NULL too. */
static mc_solved *open_or_die(const char *cmd, const sopts *o, mc_game **gp,
                              char *dir, size_t n)
{
    mc_game *g = *gp = solvable_game(cmd, o);
    mc_solved *s = g ? open_tables(cmd, g, o, dir, n) : NULL;
    if (!s) {
        mc_game_free(g);
        *gp = NULL;
    }
    return s;
}

static int solved_verify(const sopts *o)
{
    mc_game *g;
    char dir[4096];
    mc_solved *s = open_or_die("solve --verify", o, &g, dir, sizeof dir);
    if (!s)
        return EXIT_BAD_INPUT;
    int top = mc_solved_seeds(s);
    uint64_t bad = 0;
    for (int n = 0; n <= top; n++) {
        double t0 = now_s();
        uint64_t b1 = mc_solved_verify(s, n, n, (int)o->threads, NULL, NULL);
        bad += b1;
        if (!o->quiet)
            printf(_("layer %2d: %12llu %s  %s  %.2f s\n"), n,
                   (unsigned long long)mc_solved_layer_info(s, n)->entries,
                   n > mc_solved_full_seeds(s) ? "reached  " : "positions",
                   b1 ? "WRONG" : "ok", now_s() - t0);
        if (b1)
            printf(_("layer %d: %llu entries fail\n"), n,
                   (unsigned long long)b1);
        fflush(stdout); /* a layer at a time, even into a file */
    }
    printf(_("%s layers 0-%d in %s: %s\n"), mc_game_spec(g), top, dir,
           bad ? "WRONG" : "verified");
    mc_solved_close(s);
    mc_game_free(g);
    return bad ? EXIT_BAD_INPUT : 0;
}

static int solved_info(const sopts *o)
{
    mc_game *g;
    char dir[4096];
    mc_solved *s = open_or_die("solve --info", o, &g, dir, sizeof dir);
    if (!s)
        return EXIT_BAD_INPUT;
    int top = mc_solved_seeds(s);
    int full = mc_solved_full_seeds(s);
    printf(_("%s: layers 0-%d in %s"), mc_solved_layer_info(s, 0)->spec, full,
           dir);
    if (top > full)
        printf(_("; %d-%d: the boards reached from the start"), full + 1, top);
    printf("\n");
    printf("| seeds | positions | wins | draws | losses | best | worst | "
           "longest (plies) | its board |\n"
           "|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    /* Totals: the complete layers [0], the start layers [1]. */
    uint64_t tw[2] = {0}, td[2] = {0}, tl[2] = {0}, tn[2] = {0};
    for (int n = 0; n <= top; n++) {
        const mc_egdb_info *in = mc_solved_layer_info(s, n);
        uint64_t w = 0, d = in->hist[64], l = 0;
        int best = -64, worst = 64;
        for (int v = -64; v < 64; v++) {
            if (!in->hist[v + 64])
                continue;
            if (v > 0)
                w += in->hist[v + 64];
            if (v < 0)
                l += in->hist[v + 64];
            if (v > best)
                best = v;
            if (v < worst)
                worst = v;
        }
        uint8_t h[64] = {0};
        int far = mc_solved_longest(s, n, h);
        char board[200];
        mc_pos q;
        memset(&q, 0, sizeof q);
        /* The board as South to move sees it: its position string. */
        mc_solved_position(s, h, &q);
        mc_pos_format(g, &q, board, sizeof board);
        if (far < 0)
            snprintf(board, sizeof board, "-");
        char bw[32] = "-", ww[32] = "-", fw[32] = "-";
        if (in->entries) {
            snprintf(bw, sizeof bw, "%+d", best);
            snprintf(ww, sizeof ww, "%+d", worst);
            snprintf(fw, sizeof fw, "%d", far);
        }
        printf("| %d | %llu | %llu | %llu | %llu | %s | %s | %s | `%s` |\n", n,
               (unsigned long long)in->entries, (unsigned long long)w,
               (unsigned long long)d, (unsigned long long)l, bw, ww, fw, board);
        int k = n > full;
        tw[k] += w;
        td[k] += d;
        tl[k] += l;
        tn[k] += in->entries;
    }
    for (int k = 0; k < 2; k++) {
        if (k && top <= full)
            break;
        char what[48];
        if (top > full)
            snprintf(what, sizeof what, k ? "%d-%d (reached)" : "0-%d",
                     k ? full + 1 : full, top);
        else
            snprintf(what, sizeof what, "all");
        printf("| %s | %llu | %llu | %llu | %llu | | | | |\n", what,
               (unsigned long long)tn[k], (unsigned long long)tw[k],
               (unsigned long long)td[k], (unsigned long long)tl[k]);
    }
    if (mc_solved_wdl(g))
        printf("(values of the board for its mover: 1 a win, 0 a draw, -1 "
               "a loss)\n");
    else
        printf("(values of the board for its mover: the margin of the "
               "seeds on the board to come; wins > 0, draws 0, losses < "
               "0)\n");
    mc_solved_close(s);
    mc_game_free(g);
    return 0;
}

/* Random boards of the tables (a layer at random among those open, or
   --seeds N, then a board of it at random) against the exact search: where
   mc_solve proves a winner, the tables must say the same. */
static int solved_check(const sopts *o)
{
    mc_game *g;
    char dir[4096];
    sopts o2 = *o;
    o2.seeds = -1; /* --seeds picks the layer: every layer opened */
    mc_solved *s = open_or_die("solve --check", &o2, &g, dir, sizeof dir);
    if (!s)
        return EXIT_BAD_INPUT;
    int top = mc_solved_seeds(s);
    if (o->seeds > top) {
        fprintf(stderr,
                _("mancala solve --check: the tables in %s go up to "
                  "%d seeds\n"),
                dir, top);
        mc_solved_close(s);
        mc_game_free(g);
        return EXIT_BAD_INPUT;
    }
    /* The search must not read these tables (nor any): it is the other
       method. */
    setenv("MANCALA_EGDB_DIR", "none", 1);
    unsigned long long rng =
        0x9e3779b97f4a7c15ull * (unsigned long long)(o->seed + 1);
    int proven = 0, agree = 0, tried = 0;
    for (long k = 0; k < o->positions; k++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        int n = o->seeds >= 0 ? (int)o->seeds
                              : (int)((rng >> 33) % (unsigned)(top + 1));
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t N = mc_solved_layer_info(s, n)->entries;
        if (N == 0)
            continue;
        uint64_t x = (rng >> 11) % N;
        uint8_t h[64];
        mc_solved_entry(s, n, x, h, NULL, NULL);
        mc_pos p;
        mc_solved_position(s, h, &p);
        int v, d;
        if (!mc_solved_probe(s, &p, &v, &d))
            continue;
        mc_session *se = mc_session_new(g, &p);
        mc_result r;
        mc_session_result(se, &r);
        if (r.over) {
            mc_session_free(se);
            continue;
        }
        tried++;
        mc_solve_info info;
        mc_solve(se, 200, o->seconds, &info);
        char ps[200], words[200];
        mc_pos_format(g, &p, ps, sizeof ps);
        mc_solved_describe(g, &p, v, d, words, sizeof words);
        const char *verdict = "not proven";
        if (info.proven) {
            proven++;
            int want = v > 0 ? p.side : v < 0 ? 1 - p.side : MC_DRAW;
            int ok = info.winner == want;
            agree += ok;
            verdict = ok ? "agrees" : "DISAGREES";
        }
        if (!o->quiet || (info.proven && !strcmp(verdict, "DISAGREES")))
            printf(_("%s: %s; search: %s (%s)\n"), ps, words,
                   info.proven
                       ? (info.winner == MC_SOUTH ? "South wins" : "North wins")
                       : "-",
                   verdict);
        mc_session_free(se);
    }
    printf(_("%d positions, %d proven by exact search (%.0f s each at most), "
             "%d agree\n"),
           tried, proven, o->seconds, agree);
    mc_solved_close(s);
    mc_game_free(g);
    return agree == proven ? 0 : EXIT_BAD_INPUT;
}

static const char *const solve_tables_help = N_(
    "usage: mancala solve --build GAME [--dir D] [--seeds N] [--threads T] "
    "[--from-start]\n                             [--quiet]\n"
    "       mancala solve --verify GAME [--dir D] [--seeds N]\n"
    "       mancala solve --info GAME [--dir D]\n"
    "       mancala solve --check GAME [--dir D] [--seeds N] [--positions "
    "K]\n                             [--time S] [--seed R]\n\n"
    "The strong solution of a game that can be solved by retrograde "
    "analysis\n(gore:trades=off, sadeqa2): every board's value for its mover, "
    "a "
    "layer file per\nnumber of seeds on the board (GAME-NAME-NN.egdb, "
    "docs/SOLVED.md).\n"
    "--build solves layers 0..N (default: all 48) into D (default: "
    "$MANCALA_EGDB_DIR,\nelse the user directory of tables), with a "
    "progress bar, resuming after\nthe layers complete on disk; T threads "
    "(default 2); --from-start then solves\nevery board with more "
    "seeds that play from the start reaches (the start\nlayers, "
    "GAME-NAME-start-NN.egdb).  --verify re-derives\nevery value from the "
    "moves "
    "(exit status 1 when one is wrong); --info\nprints each layer's wins, "
    "draws and losses as Markdown; --check plays K\nrandom boards (of N "
    "seeds, or any layer) against the exact search of\nmancala solve, S "
    "seconds each (default 20 boards, 5 s): where the search\nproves a "
    "winner it must agree (exit status 1 when it does not).\n");

int cli_solve_tables(int argc, char **argv)
{
    const char *mode = argv[1];
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            fputs(_(solve_tables_help), stdout);
            return 0;
        }
    sopts o = {0};
    if (parse("solve", argc, argv, 2, &o, 0))
        return EXIT_USAGE;
    if (!strcmp(mode, "--build"))
        return solved_build(&o);
    if (!strcmp(mode, "--verify"))
        return solved_verify(&o);
    if (!strcmp(mode, "--check"))
        return solved_check(&o);
    return solved_info(&o);
}

/* ---- probe ------------------------------------------------------------- */

/* Perfect play from p to the end (or 400 plies): each ply's move, and at
   the winner's turns every move that keeps the win, with its plies. */
static int probe_line(const mc_game *g, const mc_solved *s, mc_pos p)
{
    mc_move mv[MC_MAX_MOVES];
    int val[MC_MAX_MOVES], pl[MC_MAX_MOVES];
    for (int ply = 1; ply <= 400; ply++) {
        mc_result r;
        mc_hist hist;
        memset(&hist, 0, sizeof hist);
        hist.occurrences = 1;
        mc_status(g, &p, &hist, &r);
        if (r.over) {
            if (r.winner == MC_DRAW)
                printf("%s\n", _("the game is over: a draw"));
            else
                printf(_("the game is over: %s wins\n"), cli_side(r.winner));
            return 0;
        }
        mc_move best;
        int v, d;
        if (!mc_solved_best(s, &p, &best, &v, &d)) {
            printf(_("%3d. the position is not in the tables\n"), ply);
            return EXIT_BAD_INPUT;
        }
        if (v == 0) {
            printf(_("%3d. a draw: nothing more to win\n"), ply);
            return 0;
        }
        char mb[MC_MOVE_STRLEN];
        mc_move_format(g, &p, best, mb, sizeof mb);
        const char *who = cli_side(p.side);
        int k = mc_solved_move_values(s, &p, mv, val, pl);
        printf(v > 0 ? _("%3d. %-5s %-5s wins in %d")
                     : _("%3d. %-5s %-5s loses in %d"),
               ply, who, mb, d);
        if (k == 1)
            printf(_(" (the only move)"));
        else if (v > 0) {
            printf(_("; winning moves:"));
            for (int i = 0; i < k; i++)
                if (val[i] == v) {
                    char m2[MC_MOVE_STRLEN];
                    mc_move_format(g, &p, mv[i], m2, sizeof m2);
                    printf(" %s (%d)", m2, pl[i]);
                }
        }
        printf("\n");
        mc_play(g, &p, best, NULL);
    }
    printf(_("(400 plies shown)\n"));
    return 0;
}

static const char *const probe_help =
    N_("usage: mancala probe GAME [POSITION|start] [--dir D] [--line]\n\n"
       "The value of a position of a solved game (gore:trades=off, sadeqa2; "
       "docs/SOLVED.md)\nwith perfect play, and the value of each of its "
       "moves, from the tables\nthat `mancala solve --build GAME` made in D "
       "(default: $MANCALA_EGDB_DIR,\nelse the user directory of tables).  "
       "--line plays perfect play to the end\ninstead: each ply's move and, "
       "at the winner's turns, every winning move with\nthe plies it "
       "takes.  For Oware: mancala egdb probe.\n");

int cmd_probe(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            fputs(_(probe_help), stdout);
            return 0;
        }
    sopts o = {0};
    if (parse("probe", argc, argv, 1, &o, 1))
        return EXIT_USAGE;
    mc_game *g = solvable_game("probe", &o);
    if (!g)
        return EXIT_BAD_INPUT;
    mc_pos p;
    if (cli_position(g, o.pos ? o.pos : "start", &p)) {
        mc_game_free(g);
        return EXIT_BAD_INPUT;
    }
    char dir[4096];
    mc_solved *s = open_tables("probe", g, &o, dir, sizeof dir);
    if (!s) {
        mc_game_free(g);
        return EXIT_BAD_INPUT;
    }
    int rc = 0, v, plies;
    mc_move mv[MC_MAX_MOVES];
    int val[MC_MAX_MOVES], pl[MC_MAX_MOVES];
    if (!mc_solved_probe(s, &p, &v, &plies)) {
        fprintf(stderr,
                _("mancala probe: the position is not in the tables "
                  "in %s (layers 0-%d)\n"),
                dir, mc_solved_seeds(s));
        rc = EXIT_BAD_INPUT;
        goto out;
    }
    char words[200];
    mc_solved_describe(g, &p, v, plies, words, sizeof words);
    printf("%s\n", words);
    if (o.line) {
        rc = probe_line(g, s, p);
        goto out;
    }
    mc_move best = 0;
    mc_solved_best(s, &p, &best, NULL, NULL);
    int k = mc_solved_move_values(s, &p, mv, val, pl);
    if (k == 0)
        printf(_("no legal move: the game is over\n"));
    for (int i = 0; i < k; i++) {
        char mb[MC_MOVE_STRLEN];
        mc_move_format(g, &p, mv[i], mb, sizeof mb);
        if (val[i] == MC_SOLVED_UNKNOWN)
            printf("  %-6s ?\n", mb);
        else if (val[i] != v || plies == 0)
            printf(val[i] == v ? _("  %-6s %+d  best\n") : "  %-6s %+d\n", mb,
                   val[i]);
        else if (mv[i] == best)
            printf(P_("  %-6s %+d  best, %d ply (perfect play's)\n",
                      "  %-6s %+d  best, %d plies (perfect play's)\n", pl[i]),
                   mb, val[i], pl[i]);
        else
            printf(P_("  %-6s %+d  best, %d ply\n",
                      "  %-6s %+d  best, %d plies\n", pl[i]),
                   mb, val[i], pl[i]);
    }
out:
    mc_solved_close(s);
    mc_game_free(g);
    return rc;
}
