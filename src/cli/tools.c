/*
 * tools.c - the scriptable commands (moves, apply, perft, games,
 * bench) and helpers shared by the subcommands.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

int cli_is_help(const char *a)
{
    return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 ||
           strcmp(a, "help") == 0;
}

/* The language of the program's words (docs/TRANSLATING.md): --lang TAG
   (or --lang=TAG) anywhere before "--", taken out of argv, else what the
   environment asks (LANGUAGE, LC_ALL, LC_MESSAGES, LANG); no system
   locale is needed.  Returns 0, or EXIT_USAGE for a --lang without a
   value. */
static int choose_language(int *argc, char **argv, const char *prog)
{
    mc_i18n_add_embedded(mc_catalogs_cli);
    char env[128];
    mc_lang_use(mc_lang_from_env(env, sizeof env));
    const char *lang = NULL;
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        if (strcmp(argv[i], "--lang") == 0) {
            if (i + 1 >= *argc) {
                fprintf(stderr,
                        _("%s: --lang needs a language (fr, en, ...)\n"), prog);
                return EXIT_USAGE;
            }
            lang = argv[++i];
        } else if (strncmp(argv[i], "--lang=", 7) == 0) {
            lang = argv[i] + 7;
        } else {
            argv[out++] = argv[i];
        }
    }
    argv[out] = NULL;
    *argc = out;
    if (lang)
        mc_lang_use(lang);
    return 0;
}

int cli_main_prologue(int *argc, char **argv, const char *prog,
                      void (*usage)(FILE *))
{
    int rc = choose_language(argc, argv, prog);
    if (rc)
        return rc;
    if (*argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (cli_is_help(argv[1])) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("%s %s\n", prog, mc_version());
        return 0;
    }
    return -1;
}

static int wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}

long cli_number(const char *s, long max)
{
    if (!s || !*s)
        return -1;
    long v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (*p - '0');
        if (v > max)
            return -1;
    }
    return v;
}

mc_game *cli_game(const char *spec)
{
    mc_error err = {0, ""};
    mc_game *g = mc_game_new(spec, &err);
    if (!g)
        fprintf(stderr, "mancala: %s\n", err.msg);
    return g;
}

int cli_position(const mc_game *g, const char *s, mc_pos *p)
{
    mc_error err = {0, ""};
    if (mc_pos_parse(g, s, p, &err) != 0) {
        fprintf(stderr, _("mancala: bad position '%s': %s\n"), s, err.msg);
        return 1;
    }
    return 0;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- moves ---- */

int cmd_moves(int argc, char **argv)
{
    if (wants_help(argc, argv)) {
        printf(_("usage: mancala moves <game> [<position>|start]\n\n"
                 "Print the legal moves of the position (default: the start)\n"
                 "on one line, separated by spaces, in the rule file's order.\n"
                 "An empty line means there are none (the game is over).\n"));
        return 0;
    }
    if (argc < 2 || argc > 3) {
        fprintf(stderr, _("usage: mancala moves <game> [<position>]\n"));
        return EXIT_USAGE;
    }
    mc_game *g = cli_game(argv[1]);
    if (!g)
        return EXIT_BAD_INPUT;
    mc_pos p;
    if (cli_position(g, argc == 3 ? argv[2] : "start", &p)) {
        mc_game_free(g);
        return EXIT_BAD_INPUT;
    }
    mc_session *s = mc_session_new(g, &p);
    mc_move mv[MC_MAX_MOVES];
    int n = s ? mc_session_moves(s, mv) : 0;
    for (int i = 0; i < n; i++) {
        char buf[MC_MOVE_STRLEN];
        mc_move_format(g, &p, mv[i], buf, sizeof buf);
        printf("%s%s", i ? " " : "", buf);
    }
    printf("\n");
    mc_session_free(s);
    mc_game_free(g);
    return 0;
}

/* ---- apply ---- */

static char side_letter(int w)
{
    return w == MC_SOUTH ? 'S' : w == MC_NORTH ? 'N' : '?';
}

int cmd_apply(int argc, char **argv)
{
    if (wants_help(argc, argv)) {
        printf(_("usage: mancala apply [--trace] <game> <position|start> "
                 "<move>...\n\n"
                 "Play the moves in order from the position, tracking history\n"
                 "(repetition) from there, and print the resulting position.\n"
                 "If the game is over, a second line says\n"
                 "  over <S|N|draw> <details>\n"
                 "--trace first prints, for each move, a line '<n>. <move>'\n"
                 "and then one indented line for each thing the move did\n"
                 "(seeds lifted and dropped, laps, captures).\n"
                 "An illegal move or a malformed position is reported on\n"
                 "stderr with the move's number; exit status 1, no output.\n"));
        return 0;
    }
    int trace = argc > 1 && strcmp(argv[1], "--trace") == 0;
    if (trace) {
        argc--;
        argv++;
    }
    if (argc > 1 && argv[1][0] == '-' && argv[1][1] == '-') {
        fprintf(stderr,
                _("mancala apply: unknown option '%s' (--trace is the "
                  "only one, before the game)\n"),
                argv[1]);
        return EXIT_USAGE;
    }
    if (argc < 3) {
        fprintf(stderr, _("usage: mancala apply [--trace] <game> "
                          "<position|start> <move>...\n"));
        return EXIT_USAGE;
    }
    mc_game *g = cli_game(argv[1]);
    if (!g)
        return EXIT_BAD_INPUT;
    mc_pos p;
    int rc = EXIT_BAD_INPUT;
    mc_session *s = NULL;
    if (cli_position(g, argv[2], &p))
        goto out;
    s = mc_session_new(g, &p);
    if (!s)
        goto out;
    /* Trace lines are collected first: on an error nothing reaches stdout. */
    size_t cap = trace ? 1u << 16 : 0;
    mc_trace_event *ev = trace ? malloc(cap * sizeof *ev) : NULL;
    FILE *lines = trace ? tmpfile() : NULL;
    if (trace && (!ev || !lines)) {
        fprintf(stderr, _("mancala: out of memory\n"));
        free(ev);
        if (lines)
            fclose(lines);
        goto out;
    }
    for (int i = 3; i < argc; i++) {
        mc_error err = {0, ""};
        mc_trace t = {ev, cap, 0, 0};
        if (mc_session_play_str(s, argv[i], trace ? &t : NULL, &err) != 0) {
            fprintf(stderr, _("mancala: move %d (%s): %s\n"), i - 2, argv[i],
                    err.msg);
            free(ev);
            if (lines)
                fclose(lines);
            goto out;
        }
        if (trace) {
            fprintf(lines, "%d. %s\n", i - 2, argv[i]);
            for (size_t k = 0; k < t.len; k++) {
                char b[256];
                mc_trace_describe(g, &ev[k], b, sizeof b);
                fprintf(lines, "   %s\n", b);
            }
            if (t.dropped)
                fprintf(lines, _("   (%zu more events not shown)\n"),
                        t.dropped);
        }
    }
    free(ev);
    if (lines) {
        rewind(lines);
        int ch;
        while ((ch = fgetc(lines)) != EOF)
            putchar(ch);
        fclose(lines);
    }
    char buf[MC_POS_STRLEN];
    mc_pos_format(g, mc_session_pos(s), buf, sizeof buf);
    printf("%s\n", buf);
    mc_result r;
    mc_session_result(s, &r);
    if (r.over) {
        if (r.winner == MC_DRAW)
            printf("over draw %s\n", r.detail);
        else
            printf("over %c %s\n", side_letter(r.winner), r.detail);
    }
    rc = 0;
out:
    mc_session_free(s);
    mc_game_free(g);
    return rc;
}

/* ---- perft ---- */

int cmd_perft(int argc, char **argv)
{
    if (wants_help(argc, argv)) {
        printf(
            _("usage: mancala perft <game> <depth> [<position>|start]\n\n"
              "For each depth 1..depth print 'perft <d> <count>': the number\n"
              "of lines of play of exactly d plies (a finished game has no\n"
              "children; repetition is tracked from the position).\n"));
        return 0;
    }
    if (argc < 3 || argc > 4) {
        fprintf(stderr,
                _("usage: mancala perft <game> <depth> [<position>]\n"));
        return EXIT_USAGE;
    }
    long depth = cli_number(argv[2], 60);
    if (depth < 1) {
        fprintf(stderr,
                _("mancala: perft depth '%s' is not a whole number 1..60\n"),
                argv[2]);
        return EXIT_USAGE;
    }
    mc_game *g = cli_game(argv[1]);
    if (!g)
        return EXIT_BAD_INPUT;
    mc_pos p;
    if (cli_position(g, argc == 4 ? argv[3] : "start", &p)) {
        mc_game_free(g);
        return EXIT_BAD_INPUT;
    }
    for (int d = 1; d <= depth; d++) {
        printf("perft %d %llu\n", d, (unsigned long long)mc_perft(g, &p, d));
        fflush(stdout);
    }
    mc_game_free(g);
    return 0;
}

/* ---- games (rules: rules.c) ---- */

int cmd_games(int argc, char **argv)
{
    if (wants_help(argc, argv)) {
        printf(_("usage: mancala games\n\nList the games, their options (the "
                 "default marked *), presets and own time modes (every game\n"
                 "also has the clocks none, move:S and game:S+I, "
                 "docs/CLOCKS.md).\n"));
        return 0;
    }
    (void)argc;
    for (const char *const *n = mc_game_names(); *n; n++) {
        mc_game *g = mc_game_new(*n, NULL);
        if (!g)
            continue;
        char buf[4096];
        mc_game_options_help(g, buf, sizeof buf);
        printf("%s\n%s", *n, buf);
        /* the game's own time modes (play --mode, serve's "time") */
        const char *mode, *help;
        for (int i = 0; (mode = mc_time_mode(g, i, &help)); i++)
            printf("  clock %-12s %s\n", mode, help);
        printf("\n");
        mc_game_free(g);
    }
    return 0;
}

/* ---- bench --rules ---- */

int cli_bench_rules(const char *spec, int depth, long games)
{
    mc_game *g = cli_game(spec);
    if (!g)
        return EXIT_BAD_INPUT;
    mc_pos p;
    mc_start(g, &p);
    if (depth > 0) {
        double t0 = now_seconds();
        uint64_t n = mc_perft(g, &p, depth);
        double dt = now_seconds() - t0;
        printf(_("perft %d: %llu leaves in %.3f s (%.1f M leaves/s)\n"), depth,
               (unsigned long long)n, dt, (double)n / dt / 1e6);
    }
    if (games > 0) {
        mc_rng rng;
        mc_rng_seed(&rng, 1);
        uint64_t plies = 0, wins[3] = {0, 0, 0};
        double t0 = now_seconds();
        for (long i = 0; i < games; i++) {
            mc_result r;
            plies += (uint64_t)mc_random_game(g, &p, &rng, 0, &r);
            wins[r.winner < 3 ? r.winner : 2]++;
        }
        double dt = now_seconds() - t0;
        printf(_("random: %ld games, %llu plies in %.3f s: %.0f plies/s, "
                 "%.0f games/s, %.1f plies/game; South %.1f%%, North %.1f%%, "
                 "draw %.1f%%\n"),
               games, (unsigned long long)plies, dt, (double)plies / dt,
               (double)games / dt, (double)plies / (double)games,
               100.0 * (double)wins[0] / (double)games,
               100.0 * (double)wins[1] / (double)games,
               100.0 * (double)wins[2] / (double)games);
    }
    mc_game_free(g);
    return 0;
}
