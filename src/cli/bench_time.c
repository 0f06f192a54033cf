/*
 * bench_time.c - `mancala bench --time`: is the move time kept?  Drives the
 * engine protocol (the same code `mancala engine` runs) in this process:
 * sets the table size and the endgame tables, then sends `go movetime T`
 * for T cycling over 20..1000 ms, each from a position a few random plies
 * into the game, and measures from the moment the command is handed to the
 * engine to the moment its `bestmove` line comes back.  Prints the
 * overshoot past T (median, 99th percentile, worst) and how many answers
 * came later than T + 10 ms.
 */
#define _POSIX_C_SOURCE 200809L
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "mancala_protocol.h"

typedef struct waiter {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
    double at;
    char last[256];
} waiter;

static void on_line(const char *line, void *ctx)
{
    waiter *w = ctx;
    int final = strncmp(line, "bestmove", 8) == 0 ||
                strncmp(line, "ok", 2) == 0 || strncmp(line, "error", 5) == 0;
    if (!final)
        return;
    double t = mc_clock();
    pthread_mutex_lock(&w->lock);
    snprintf(w->last, sizeof w->last, "%s", line);
    w->at = t;
    w->done = 1;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->lock);
}

/* Send a line and wait for its final answer; returns when it came. */
static double send_wait(mc_engine *e, waiter *w, const char *line)
{
    pthread_mutex_lock(&w->lock);
    w->done = 0;
    pthread_mutex_unlock(&w->lock);
    mc_engine_line(e, line, strlen(line));
    pthread_mutex_lock(&w->lock);
    while (!w->done)
        pthread_cond_wait(&w->cond, &w->lock);
    double at = w->at;
    pthread_mutex_unlock(&w->lock);
    return at;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* What `mancala bench --time` was asked. */
typedef struct bench_args {
    const char *spec, *tables;
    long searches, hash, threads, lo, hi; /* move times lo..hi ms */
} bench_args;

/* Read the arguments into a; -1 when they are good, else the exit code. */
static int parse_args(int argc, char **argv, bench_args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (strcmp(o, "--time") == 0)
            continue;
        if (i + 1 >= argc) {
            fprintf(stderr, _("mancala bench: %s needs a value\n"), o);
            return EXIT_USAGE;
        }
        const char *v = argv[++i];
        long *num = strcmp(o, "--searches") == 0  ? &a->searches
                    : strcmp(o, "--hash") == 0    ? &a->hash
                    : strcmp(o, "--threads") == 0 ? &a->threads
                    : strcmp(o, "--min") == 0     ? &a->lo
                    : strcmp(o, "--max") == 0     ? &a->hi
                                                  : NULL;
        if (num) {
            *num = cli_number(v, 100000000L);
            if (*num < 1) {
                fprintf(stderr,
                        _("mancala bench: %s takes a positive whole "
                          "number, not '%s'\n"),
                        o, v);
                return EXIT_USAGE;
            }
        } else if (strcmp(o, "--game") == 0) {
            a->spec = v;
        } else if (strcmp(o, "--tables") == 0) {
            a->tables = v;
        } else {
            fprintf(stderr, _("mancala bench --time: unknown option '%s'\n"),
                    o);
            return EXIT_USAGE;
        }
    }
    if (a->lo > a->hi) {
        fprintf(stderr, _("mancala bench: --min is above --max\n"));
        return EXIT_USAGE;
    }
    return -1;
}

/* The engine's game, table, threads and tables, each answered 'ok';
   -1 after saying which was refused. */
static int engine_setup(mc_engine *e, waiter *w, const bench_args *a)
{
    char c0[MC_SPEC_STRLEN + 16], c1[64], c2[64], c3[4200];
    snprintf(c0, sizeof c0, "set game %s", a->spec);
    snprintf(c1, sizeof c1, "set hash %ld", a->hash);
    snprintf(c2, sizeof c2, "set threads %ld", a->threads);
    snprintf(c3, sizeof c3, "set database %s", a->tables);
    const char *setup[4] = {c0, c1, c2, c3};
    for (int i = 0; i < 4; i++) {
        send_wait(e, w, setup[i]);
        if (strncmp(w->last, "ok", 2) != 0) {
            fprintf(stderr, "mancala bench: '%s': %s\n", setup[i], w->last);
            return -1;
        }
    }
    return 0;
}

/* The engine's position command for a few random plies into the game, so
   that no search is the same; 1 when the game is over there (or no
   session could be made): not a position to search. */
static int random_position(const mc_game *g, mc_rng *rng, char *pos, size_t n)
{
    mc_session *s = mc_session_new(g, NULL);
    int plies = (int)mc_rng_below(rng, 12);
    size_t len = (size_t)snprintf(pos, n, "position start");
    for (int p = 0; p < plies && s && !mc_session_over(s); p++) {
        mc_move mv[MC_MAX_MOVES];
        int nm = mc_session_moves(s, mv);
        mc_move m = mv[mc_rng_below(rng, (uint32_t)nm)];
        char tok[MC_MOVE_STRLEN];
        mc_move_format(g, mc_session_pos(s), m, tok, sizeof tok);
        mc_session_play(s, m, NULL, NULL);
        len += (size_t)snprintf(pos + len, n - len, "%s %s",
                                p == 0 ? " moves" : "", tok);
    }
    int over_now = !s || mc_session_over(s);
    mc_session_free(s);
    return over_now;
}

/* The searches: over[k] the milliseconds past the move time of search k,
   *total the seconds of them all, *late those later than +10 ms; -1
   after saying that the engine answered 'go' without a move. */
static int time_searches(mc_engine *e, waiter *w, const mc_game *g,
                         const bench_args *a, double *over, double *total,
                         long *late)
{
    mc_rng rng;
    mc_rng_seed(&rng, 1);
    long lo = a->lo, hi = a->hi;
    for (long k = 0; k < a->searches; k++) {
        char pos[8192], cmd[64];
        if (random_position(g, &rng, pos, sizeof pos)) {
            k--;
            continue;
        }
        send_wait(e, w, pos);
        long t = hi > lo
                     ? lo + (long)mc_rng_below(&rng, (uint32_t)(hi - lo + 1))
                     : lo;
        if (k == 0)
            t = hi; /* the first search at the longest time */
        assert(t >= lo && t <= hi);
        snprintf(cmd, sizeof cmd, "go movetime %ld", t);
        double t0 = mc_clock();
        double at = send_wait(e, w, cmd);
        if (strncmp(w->last, "bestmove", 8) != 0) {
            fprintf(stderr, "mancala bench: go: %s\n", w->last);
            return -1;
        }
        over[k] = (at - t0) * 1000.0 - (double)t;
        *total += at - t0;
        *late += over[k] > 10.0;
        if (isatty(2)) {
            fputc('\r', stderr);
            fprintf(stderr, _("search %ld/%ld"), k + 1, a->searches);
        }
    }
    if (isatty(2))
        fprintf(stderr, "\r\033[K");
    return 0;
}

/* The overshoots sorted: their median, 99th percentile and worst. */
static void report(const bench_args *a, double *over, double total, long late)
{
    long n = a->searches;
    assert(n >= 1); /* parse_args takes 1 and up only */
    qsort(over, (size_t)n, sizeof *over, cmp_double);
    printf(P_("%ld searches of %ld..%ld ms (hash %ld MiB, %ld thread, tables "
              "%s): %.1f s in all\n",
              "%ld searches of %ld..%ld ms (hash %ld MiB, %ld threads, tables "
              "%s): %.1f s in all\n",
              a->threads),
           n, a->lo, a->hi, a->hash, a->threads, a->tables, total);
    printf(_("past the move time: median %+.2f ms, 99th percentile %+.2f ms, "
             "worst %+.2f ms; %ld later than +10 ms\n"),
           over[n / 2], over[(n * 99) / 100], over[n - 1], late);
}

int cli_bench_time(int argc, char **argv)
{
    bench_args a = {"oware", "none", 1000, 16, 1, 20, 1000};
    int prc = parse_args(argc, argv, &a);
    if (prc >= 0)
        return prc;
    assert(a.lo <= a.hi);
    mc_game *g = cli_game(a.spec);
    if (!g)
        return EXIT_BAD_INPUT;
    waiter w;
    memset(&w, 0, sizeof w);
    pthread_mutex_init(&w.lock, NULL);
    pthread_cond_init(&w.cond, NULL);
    mc_engine *e = mc_engine_new(on_line, &w);
    double *over = malloc((size_t)a.searches * sizeof *over);
    int rc = 1;
    long late = 0;
    double total = 0;
    if (!e || !over) {
        fprintf(stderr, _("mancala bench: out of memory\n"));
        goto out;
    }
    if (engine_setup(e, &w, &a) != 0 ||
        time_searches(e, &w, g, &a, over, &total, &late) != 0)
        goto out;
    report(&a, over, total, late);
    rc = late ? 1 : 0;
out:
    mc_engine_free(e);
    free(over);
    mc_game_free(g);
    pthread_cond_destroy(&w.cond);
    pthread_mutex_destroy(&w.lock);
    return rc;
}
