/*
 * main.c - the `mancala` program: command dispatch and top-level help.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"play", cmd_play, N_("play a game in the terminal (people or computer)")},
    {"moves", cmd_moves, N_("list the legal moves of a position")},
    {"apply", cmd_apply, N_("play moves from a position and print the result")},
    {"perft", cmd_perft, N_("count the leaves of the game tree to a depth")},
    {"rules", cmd_rules, N_("print the rules of a game")},
    {"games", cmd_games, N_("list the games and their options")},
    {"analyze", cmd_analyze, N_("search a position and print the best line")},
    {"solve", cmd_solve, N_("prove who wins a position with perfect play")},
    {"probe", cmd_probe,
     N_("a solved game's value of a position and its moves")},
    {"selfplay", cmd_selfplay,
     N_("games between two built-in players, with Elo")},
    {"tune", cmd_tune, N_("train a learned evaluation (self-play data, fit)")},
    {"bench", cmd_bench, N_("search signature; rules speed with --rules")},
    {"replay", cmd_replay, N_("step through a recorded game with the board")},
    {"check", cmd_check, N_("validate game record files")},
    {"engine", cmd_engine, N_("speak the engine protocol on stdin/stdout")},
    {"match", cmd_match, N_("play two protocol engines against each other")},
    {"openings", cmd_openings, N_("balanced openings files for match")},
    {"egdb", cmd_egdb,
     N_("Oware endgame databases: build, verify, info, probe")},
    {"book", cmd_book, N_("the opening book: show a position's moves, build")},
#ifndef MC_NO_SERVER /* the WebAssembly build has no web server */
    {"serve", cmd_serve, N_("the browser board: a web server on localhost")},
#endif
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(
        f, _("usage: mancala <command> [arguments]\n"
             "       mancala --help | --version\n"
             "       mancala --lang <language> <command> [arguments]\n\n"
             "Traditional mancala games, played and analysed exactly as their\n"
             "rule files say.  Games:"));
    for (const char *const *n = mc_game_names(); *n; n++)
        fprintf(f, " %s", *n);
    fprintf(f, _("\nA game is named with its options: oware, oware:awari,\n"
                 "oware:grand_slam=win25,repetition=threefold.\n\n"
                 "commands:\n"));
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-9s %s\n", commands[i].name, _(commands[i].summary));
    fprintf(f, _("\n'mancala <command> --help' explains a command.\n"
                 "Exit status: 0 success, 1 bad input (game, position, move),"
                 " 2 bad usage.\n"));
}

/* The evaluation's weights from the environment (man/mancala.1):
   MANCALA_EVAL=hand, else MANCALA_EVAL_DIR=DIR; chosen before any game is
   made.  A file that does not parse is told, and its game keeps the
   hand-set evaluation. */
static void eval_from_env(void)
{
    const char *mode = getenv("MANCALA_EVAL");
    const char *dir = getenv("MANCALA_EVAL_DIR");
    const char *src = mode && strcmp(mode, "hand") == 0 ? "hand"
                      : dir && *dir                     ? dir
                                                        : NULL;
    mc_error err = {0, ""};
    if (src && mc_eval_source(src, &err) != 0)
        fprintf(stderr, _("mancala: %s (using the hand-set one)\n"), err.msg);
}

int main(int argc, char **argv)
{
    eval_from_env();
    int rc = cli_main_prologue(&argc, argv, "mancala", usage);
    if (rc >= 0)
        return rc;
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, _("mancala: unknown command '%s' (try 'mancala --help')\n"),
            argv[1]);
    return EXIT_USAGE;
}
