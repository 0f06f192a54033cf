/*
 * egdb_eta.c - what every build of the Oware endgame tables that the
 * program starts shares (mancala egdb build, egdb.c; the first use of
 * the default tables, tables.c): the builder's knobs from the
 * environment, and the share of the build done, for the progress lines.
 * Front-end code below both: it calls neither.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mancala_egdb.h"

/* A line of the builder's diagnostics (MANCALA_EGDB_DEBUG, _TIMING). */
static void log_line(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "%s\n", line);
}

void cli_egdb_build_knobs(mc_egdb_build_opts *o)
{
    const char *e = getenv("MANCALA_EGDB_BUDGET");
    if (e)
        o->search_budget = strtoull(e, NULL, 10);
    e = getenv("MANCALA_EGDB_MAXCOMP");
    if (e)
        o->search_maxcomp = (uint32_t)strtoul(e, NULL, 10);
    e = getenv("MANCALA_EGDB_SHIPPED");
    o->no_shipped = e && strcmp(e, "0") == 0;
    e = getenv("MANCALA_EGDB_KEEP_JOURNAL");
    o->keep_journal = e && strcmp(e, "1") == 0;
    o->log_searches = getenv("MANCALA_EGDB_DEBUG") != NULL;
    o->log_timing = getenv("MANCALA_EGDB_TIMING") != NULL;
    o->log = log_line;
    o->log_ctx = NULL;
}

/* The history search's share of layer n (abapa), in the same units as
   layer_work's: layer 6's 3.4 s, layer 7's 150 s where its component
   (26,127 positions) is searched, layer 8's 2.6 hours where its
   component (65,036) is (docs/EGDB.md); none where the library ships the
   layer's values. */
static double search_work(const cli_build_eta *e, int n)
{
    mc_egdb_build_opts knobs;
    memset(&knobs, 0, sizeof knobs);
    cli_egdb_build_knobs(&knobs);
    unsigned long maxcomp = knobs.search_maxcomp ? knobs.search_maxcomp : 30000;
    if (!e->abapa || (!knobs.no_shipped && mc_egdb_shipped(MC_EGDB_ABAPA, n)))
        return 0;
    if (n == 6)
        return 2.5e7;
    if (n == 7 && maxcomp >= 26127)
        return 1.05e9;
    if (n == 8 && maxcomp >= 65036)
        return 6.5e10;
    return 0;
}

/* Work units of a layer for the time estimate (6-8 million a second on 2
   threads at 24 seeds), with search_work's. */
static double layer_work(const cli_build_eta *e, int n)
{
    return (double)mc_egdb_layer_size(n) * (1.0 + n / 8.0) + search_work(e, n);
}

void cli_build_eta_init(cli_build_eta *e, int preset, int max_seeds)
{
    memset(e, 0, sizeof *e);
    e->max = max_seeds;
    e->abapa = preset == MC_EGDB_ABAPA;
    e->first = -1;
}

double cli_build_fraction(cli_build_eta *e, int n, const char *phase,
                          uint64_t done, uint64_t total)
{
    if (e->first < 0) {
        e->first = n;
        e->cur = n;
        for (int m = n; m <= e->max; m++)
            e->work_total += layer_work(e, m);
    }
    while (e->cur < n)
        e->work_before += layer_work(e, e->cur++);
    double f = total ? (double)done / (double)total : 1;
    double lf = !strcmp(phase, "moves")   ? 0.25 * f
                : !strcmp(phase, "sweep") ? 0.25 + 0.6 * f
                : !strcmp(phase, "cycles")
                    ? (search_work(e, n) > 0 ? 0.02 + 0.97 * f : 0.85 + 0.1 * f)
                    : 1.0;
    double frac = e->work_total > 0
                      ? (e->work_before + lf * layer_work(e, n)) / e->work_total
                      : 1;
    /* Never backwards: the phases' shares are estimates, and a phase may
       report its start after another's end. */
    if (frac > 1)
        frac = 1;
    if (frac < e->shown)
        frac = e->shown;
    e->shown = frac;
    return frac;
}
