/*
 * cli.h - the `mancala` program's subcommands.  Front-end code: it asks the
 * library for moves, names, notation and traces and never knows a rule.
 */
#ifndef MC_CLI_H
#define MC_CLI_H

#include <pthread.h>
#include <stdio.h>

#include "mancala.h"
#include "mancala_egdb.h"
#include "core/i18n.h"

/* Exit statuses: 0 success, 1 bad input (position, move, option), 2 usage. */
enum { EXIT_BAD_INPUT = 1, EXIT_USAGE = 2 };

int cmd_moves(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_games(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_selfplay(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_probe(int argc, char **argv);
/* Built-in players (specs as for selfplay) in pairs of games, with Elo. */
int cli_builtin_match(const char *spec, const char *a, const char *b,
                      long pairs, long opening, long seed);
/* bench --rules: perft to depth and random games from the start. */
int cli_bench_rules(const char *spec, int depth, long games);
/* bench --time: is the move time kept (bench_time.c) */
int cli_bench_time(int argc, char **argv);
int cmd_engine(int argc, char **argv);   /* engine.c */
int cmd_openings(int argc, char **argv); /* openings.c */
/* Read an openings file for g (docs/STRENGTH.md), every move checked from
   the start; returns the count (>= 1) with the lines, moves one space
   apart, in *out (free with cli_openings_free), or -1 after printing the
   problem, "<cmd>: FILE:LINE: ...", to stderr. */
int cli_read_openings(const mc_game *g, const char *path, const char *cmd,
                      char ***out);
void cli_openings_free(char **o, int n);
int cmd_match(int argc, char **argv);  /* match.c */
int cmd_replay(int argc, char **argv); /* records.c */
int cmd_check(int argc, char **argv);  /* records.c */
int cmd_egdb(int argc, char **argv);
int cmd_serve(int argc, char **argv); /* serve.c */
/* mancala analyze --game FILE: the review of a recorded game (review.c). */
int cli_review(int argc, char **argv);
int cmd_tune(int argc, char **argv); /* tune.c */
int cmd_book(int argc, char **argv); /* book.c */

/* Helpers shared by the subcommands. */
struct mc_egdb;
/* Open the endgame databases in dir for game g, printing the error. */
struct mc_egdb *cli_open_egdb(const mc_game *g, const char *dir,
                              const char *cmd);
/* The directory of the endgame tables game g uses when none is named
   (tables.c): for Oware rules that have tables, the first place of
   mc_egdb_open_default that holds them, written into dir (n bytes) and
   returned.  With build_if_missing, when no place holds them (or the user
   directory holds fewer layers than the small first-use set), the set is
   built into the user directory first, with one progress line on stderr.
   NULL, silently, for games without tables or with MANCALA_EGDB_DIR=none;
   NULL after one message on stderr ("mancala <cmd>: ...") when the tables
   found do not open or the build fails.  Safe to call from several
   threads; concurrent first uses build once. */
const char *cli_default_tables(const mc_game *g, const char *cmd,
                               int build_if_missing, char *dir, size_t n);
/* How many first-use builds this process has finished (tables.c): a
   caller compares before and after cli_default_tables to learn whether
   tables appeared. */
int cli_tables_built(void);
/* Lock a directory of tables against other programs' builds (flock on
   DIR/.build-lock, released when the descriptor returned is closed); -1
   when another program holds it (*busy set) or no lock can be made there
   (*busy clear: build without it). */
int cli_lock_tables(const char *dir, int *busy);
/* The game a user names a preset's tables by, into buf (n bytes) and
   returned (tables.c): "oware" for the preset of the default rules, else
   "oware:<preset>" ("oware:awari"), as the commands take it. */
const char *cli_egdb_game(int preset, char *buf, size_t n);
/* The top layer of the first-use set (MANCALA_EGDB_FIRST_SEEDS, a testing
   knob, overrides it). */
int cli_first_seeds(void);
/* Where tables are built and looked for without --dir: $MANCALA_EGDB_DIR
   (unless "none"), else the user directory (tables.c), into buf; NULL
   after a message naming cmd. */
const char *cli_tables_dir(const char *cmd, char *buf, size_t n);
/* The share of an endgame build done, for progress lines (egdb_eta.c):
   set up for a build of layers up to max_seeds, then fed every progress
   call. */
typedef struct cli_build_eta {
    int max, abapa;
    int first, cur;     /* first layer reported, layer being built */
    double work_total;  /* work of layers first..max */
    double work_before; /* work of finished layers first..cur-1 */
    double shown;       /* the largest fraction returned */
} cli_build_eta;
void cli_build_eta_init(cli_build_eta *e, int preset, int max_seeds);
double cli_build_fraction(cli_build_eta *e, int n, const char *phase,
                          uint64_t done, uint64_t total);
/* The builder's knobs from the environment into o (egdb_eta.c):
   MANCALA_EGDB_BUDGET, _MAXCOMP, _SHIPPED=0, _KEEP_JOURNAL=1, and _DEBUG
   and _TIMING, whose lines go to stderr (man/mancala.1). */
void cli_egdb_build_knobs(mc_egdb_build_opts *o);
/* A build shared by the processes of mpirun (mpi.c, docs/EGDB.md "Over
   MPI"): 1 and d filled when this is one of several processes of
   mancala-mpi; 0 when it runs alone (d: one process); -1 (with a
   message) when MPI cannot be started; -2 (with a message) when several
   processes run the plain mancala, which never links MPI.  cli_mpi_end
   after the build (failed: stops the others too). */
int cli_mpi_start(mc_egdb_dist *d);
/* The program's anonymous memory (RssAnon: heap and work arrays, not
   mapped files), sampled by a thread every 10 ms (meter.c): the peak of
   each layer of a build, for its summary. */
typedef struct cli_meter {
    pthread_t tid;
    pthread_mutex_t lock;
    int stop, running;
    long now_kb, peak_kb; /* since the last cli_meter_take */
} cli_meter;
void cli_meter_start(cli_meter *m);
/* A build's progress line on stderr (meter.c): layer n of max, the phase
   ("done" ends the line), the share done and the seconds left (< 0: not
   known); redrawn in place on a terminal, a line per layer otherwise. */
void cli_layer_bar(int tty, int n, int max, const char *phase, double frac,
                   double eta);
/* The peak since the last call, in kB (-1: not measured), and start
   again. */
long cli_meter_take(cli_meter *m);
void cli_meter_stop(cli_meter *m);
void cli_mpi_end(int failed);
int cli_is_help(const char *arg);
/* What a program's main does before its commands (mancala, mancala-mpi):
   the language (--lang TAG anywhere, taken out of argv, else the
   environment's; docs/TRANSLATING.md), then no command (usage on stderr,
   EXIT_USAGE), help (usage on stdout, 0), --version or version ("<prog>
   <version>", 0).  -1: none of these, go on with argv[1]. */
int cli_main_prologue(int *argc, char **argv, const char *prog,
                      void (*usage)(FILE *));
/* The program's catalogs (po/cli), added to the library's at start. */
extern const mc_embedded_catalog mc_catalogs_cli[];
/* mancala solve --build|--verify|--info (solved.c). */
int cli_solve_tables(int argc, char **argv);
/* Create a game from a spec, printing the error; NULL on failure. */
mc_game *cli_game(const char *spec);
/* Parse a position or "start", printing the error; nonzero on failure. */
int cli_position(const mc_game *g, const char *s, mc_pos *p);
/* Draw the board of p to f, with captures and the side to move. */
void cli_draw_board(FILE *f, const mc_game *g, const mc_pos *p);
/* Print the end of a finished game for players: "Game over: " and the
   library's sentence (words.c). */
void cli_describe_result(FILE *f, const mc_game *g, const mc_result *r);
/* "South" or "North" in the thread's language (words.c). */
const char *cli_side(int side);
/* A review's verdict (MC_VERDICT_*) in words, "" for none (words.c). */
const char *cli_verdict(int verdict);
/* s written to f and padded with spaces to width columns (a UTF-8
   character is one) (words.c). */
void cli_pad(FILE *f, const char *s, int width);
/* Parse a whole positive number argument; -1 if it is not one. */
long cli_number(const char *s, long max);
/* A score for people (analyze.c): "+1.25" seeds, "win in 3" / "loss in 4"
   plies, "win by 3 (tables)". */
void cli_format_score(char *buf, size_t n, int score);

#endif
