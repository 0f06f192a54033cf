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

int cli_bench_time(int argc, char **argv)
{
    const char *spec = "oware", *tables = "none";
    long searches = 1000, hash = 16, threads = 1, lo = 20, hi = 1000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--time") == 0)
            continue;
        if (i + 1 >= argc) {
            fprintf(stderr, "mancala bench: %s needs a value\n", a);
            return EXIT_USAGE;
        }
        const char *v = argv[++i];
        long *num = strcmp(a, "--searches") == 0  ? &searches
                    : strcmp(a, "--hash") == 0    ? &hash
                    : strcmp(a, "--threads") == 0 ? &threads
                    : strcmp(a, "--min") == 0     ? &lo
                    : strcmp(a, "--max") == 0     ? &hi
                                                  : NULL;
        if (num) {
            *num = cli_number(v, 100000000L);
            if (*num < 1) {
                fprintf(stderr, "mancala bench: %s takes a positive whole "
                                "number, not '%s'\n", a, v);
                return EXIT_USAGE;
            }
        } else if (strcmp(a, "--game") == 0) {
            spec = v;
        } else if (strcmp(a, "--tables") == 0) {
            tables = v;
        } else {
            fprintf(stderr, "mancala bench --time: unknown option '%s'\n", a);
            return EXIT_USAGE;
        }
    }
    if (lo > hi) {
        fprintf(stderr, "mancala bench: --min is above --max\n");
        return EXIT_USAGE;
    }
    mc_game *g = cli_game(spec);
    if (!g)
        return EXIT_BAD_INPUT;
    waiter w;
    memset(&w, 0, sizeof w);
    pthread_mutex_init(&w.lock, NULL);
    pthread_cond_init(&w.cond, NULL);
    mc_engine *e = mc_engine_new(on_line, &w);
    double *over = malloc((size_t)searches * sizeof *over);
    int rc = 1;
    if (!e || !over) {
        fprintf(stderr, "mancala bench: out of memory\n");
        goto out;
    }
    char cmd[4200];
    const char *setup[4];
    char c0[MC_SPEC_STRLEN + 16], c1[64], c2[64];
    snprintf(c0, sizeof c0, "set game %s", spec);
    snprintf(c1, sizeof c1, "set hash %ld", hash);
    snprintf(c2, sizeof c2, "set threads %ld", threads);
    snprintf(cmd, sizeof cmd, "set database %s", tables);
    setup[0] = c0, setup[1] = c1, setup[2] = c2, setup[3] = cmd;
    for (int i = 0; i < 4; i++) {
        send_wait(e, &w, setup[i]);
        if (strncmp(w.last, "ok", 2) != 0) {
            fprintf(stderr, "mancala bench: '%s': %s\n", setup[i], w.last);
            goto out;
        }
    }
    mc_rng rng;
    mc_rng_seed(&rng, 1);
    long late = 0;
    double total = 0;
    for (long k = 0; k < searches; k++) {
        /* a position a few random plies in, so that no search is the
           same */
        mc_session *s = mc_session_new(g, NULL);
        int plies = (int)mc_rng_below(&rng, 12);
        char pos[8192];
        size_t len = (size_t)snprintf(pos, sizeof pos, "position start");
        for (int p = 0; p < plies && s && !mc_session_over(s); p++) {
            mc_move mv[MC_MAX_MOVES];
            int n = mc_session_moves(s, mv);
            mc_move m = mv[mc_rng_below(&rng, (uint32_t)n)];
            char tok[MC_MOVE_STRLEN];
            mc_move_format(g, mc_session_pos(s), m, tok, sizeof tok);
            mc_session_play(s, m, NULL, NULL);
            len += (size_t)snprintf(pos + len, sizeof pos - len, "%s %s",
                                    p == 0 ? " moves" : "", tok);
        }
        int over_now = !s || mc_session_over(s);
        mc_session_free(s);
        if (over_now) {
            k--;
            continue;
        }
        send_wait(e, &w, pos);
        long t = hi > lo ? lo + (long)mc_rng_below(&rng, (uint32_t)(hi - lo + 1))
                         : lo;
        if (k == 0)
            t = hi; /* the first search at the longest time */
        snprintf(cmd, sizeof cmd, "go movetime %ld", t);
        double t0 = mc_clock();
        double at = send_wait(e, &w, cmd);
        if (strncmp(w.last, "bestmove", 8) != 0) {
            fprintf(stderr, "mancala bench: go: %s\n", w.last);
            goto out;
        }
        over[k] = (at - t0) * 1000.0 - (double)t;
        total += at - t0;
        late += over[k] > 10.0;
        if (isatty(2))
            fprintf(stderr, "\rsearch %ld/%ld", k + 1, searches);
    }
    if (isatty(2))
        fprintf(stderr, "\r\033[K");
    qsort(over, (size_t)searches, sizeof *over, cmp_double);
    printf("%ld searches of %ld..%ld ms (hash %ld MiB, %ld thread%s, tables "
           "%s): %.1f s in all\n",
           searches, lo, hi, hash, threads, threads == 1 ? "" : "s", tables,
           total);
    printf("past the move time: median %+.2f ms, 99th percentile %+.2f ms, "
           "worst %+.2f ms; %ld later than +10 ms\n",
           over[searches / 2], over[(searches * 99) / 100], over[searches - 1],
           late);
    rc = late ? 1 : 0;
out:
    mc_engine_free(e);
    free(over);
    mc_game_free(g);
    pthread_cond_destroy(&w.cond);
    pthread_mutex_destroy(&w.lock);
    return rc;
}
