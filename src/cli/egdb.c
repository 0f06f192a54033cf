/*
 * egdb.c - `mancala egdb build|verify|info|probe|default|stats|compress`:
 * the Oware endgame databases from the command line (docs/EGDB.md).
 * Front-end code: the tables, their checks and their meaning live in
 * src/egdb/; the default places and the first use are tables.c's.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "mancala_egdb.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Options common to the subcommands. */
typedef struct eopts {
    const char *game;
    const char *pos;
    const char *dir;
    long seeds;
    long threads;
    int quiet;
    int bench;
    int no_build;
    int keep;       /* compress: keep the plain files */
    long level;     /* compress: zstd level (0: the library's default) */
    long block;     /* compress: entries a block (0: the default) */
    long from;      /* compress: the first layer compressed */
    long memory_mb; /* build: --memory (0: the library's default) */
    long ckpt;      /* build: --checkpoint seconds (0 default, -1 none) */
} eopts;

/* "256M", "8G", "512K", "1T" or a number of bytes, in MiB (at least 1);
   -1 when it is not such a size. */
static long memory_mib(const char *v)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || end == v || !(x > 0))
        return -1;
    double mult = 1.0 / (1 << 20);
    if (*end) {
        switch (*end == 'k'   ? 'K'
                : *end == 'm' ? 'M'
                : *end == 'g' ? 'G'
                : *end == 't' ? 'T'
                              : *end) {
        case 'K':
            mult = 1.0 / 1024;
            break;
        case 'M':
            mult = 1;
            break;
        case 'G':
            mult = 1024;
            break;
        case 'T':
            mult = 1024.0 * 1024;
            break;
        default:
            return -1;
        }
        end++;
        if (*end == 'i')
            end++;
        if (*end == 'B')
            end++;
        if (*end)
            return -1;
    }
    double mib = x * mult;
    if (mib < 1 || mib > 4e9)
        return -1;
    return (long)mib;
}

/* --dir, --seeds or --threads (argv[*i]) and its value, after it: 0, or
   1 after a message. */
static int common_opt(const char *cmd, int argc, char **argv, int *i, eopts *o)
{
    const char *a = argv[*i];
    if (*i + 1 >= argc) {
        fprintf(stderr, _("mancala egdb %s: %s needs a value\n"), cmd, a);
        return 1;
    }
    const char *v = argv[++*i];
    if (!strcmp(a, "--dir")) {
        o->dir = v;
        return 0;
    }
    int seeds = !strcmp(a, "--seeds");
    long x = cli_number(v, seeds ? MC_EGDB_MAX_SEEDS : 64);
    if (x < 0 || (!seeds && x < 1)) {
        fprintf(stderr, _("mancala egdb %s: %s '%s': expected a number %s\n"),
                cmd, a, v, seeds ? "from 0 to 48" : "from 1 to 64");
        return 1;
    }
    if (seeds)
        o->seeds = x;
    else
        o->threads = x;
    return 0;
}

/* The options of some subcommands with their values (argv[*i], then
   argv[*i + 1]): 1 taken, or -1 after a message.  --from L (compress,
   verify). */
static int from_opt(const char *cmd, int argc, char **argv, int *i, eopts *o)
{
    long x = *i + 1 < argc ? cli_number(argv[*i + 1], MC_EGDB_MAX_SEEDS) : -1;
    if (x < 0) {
        fprintf(stderr,
                _("mancala egdb %s: --from needs a layer from 0 to "
                  "%d\n"),
                cmd, MC_EGDB_MAX_SEEDS);
        return -1;
    }
    ++*i;
    o->from = x;
    return 1;
}

/* --level L or --block B (compress). */
static int level_block_opt(int argc, char **argv, int *i, eopts *o)
{
    const char *a = argv[*i];
    int lv = !strcmp(a, "--level");
    long x = *i + 1 < argc ? cli_number(argv[*i + 1], lv ? 22 : 1 << 24) : -1;
    if (x < 1 || (!lv && x % 16)) {
        fprintf(stderr, _("mancala egdb compress: %s needs %s\n"), a,
                lv ? "a zstd level from 1 to 22"
                   : "a multiple of 16 up to 16777216");
        return -1;
    }
    ++*i;
    if (lv)
        o->level = x;
    else
        o->block = x;
    return 1;
}

/* --memory SIZE (build). */
static int memory_opt(int argc, char **argv, int *i, eopts *o)
{
    long x = *i + 1 < argc ? memory_mib(argv[*i + 1]) : -1;
    if (x < 0) {
        fprintf(stderr, _("mancala egdb build: --memory needs a size such as "
                          "256M or 8G (at least 1M)\n"));
        return -1;
    }
    ++*i;
    o->memory_mb = x;
    return 1;
}

/* --checkpoint SECS|none (build). */
static int checkpoint_opt(int argc, char **argv, int *i, eopts *o)
{
    const char *v = *i + 1 < argc ? argv[*i + 1] : "";
    int none = !strcmp(v, "none");
    long x = none ? -1 : cli_number(v, 86400);
    if (!none && x < 1) {
        fprintf(stderr, _("mancala egdb build: --checkpoint needs seconds "
                          "from 1 to 86400, or none\n"));
        return -1;
    }
    ++*i;
    o->ckpt = x;
    return 1;
}

/* An option that only some subcommands take, argv[*i] (and its value
   after it): 1 taken, 0 when it is not one of cmd's, -1 after a
   message.  --bench makes the position optional (*npos). */
static int sub_opt(const char *cmd, int argc, char **argv, int *i, eopts *o,
                   int *npos)
{
    const char *a = argv[*i];
    int build = !strcmp(cmd, "build"), compress = !strcmp(cmd, "compress");
    if ((compress || !strcmp(cmd, "verify")) && !strcmp(a, "--from"))
        return from_opt(cmd, argc, argv, i, o);
    if (compress && (!strcmp(a, "--level") || !strcmp(a, "--block")))
        return level_block_opt(argc, argv, i, o);
    if (build && !strcmp(a, "--memory"))
        return memory_opt(argc, argv, i, o);
    if (build && !strcmp(a, "--checkpoint"))
        return checkpoint_opt(argc, argv, i, o);
    if (compress && !strcmp(a, "--keep"))
        return o->keep = 1;
    if (!strcmp(cmd, "default") && !strcmp(a, "--no-build"))
        return o->no_build = 1;
    if (!strcmp(cmd, "probe") && !strcmp(a, "--bench")) {
        *npos = 1;
        return o->bench = 1;
    }
    return 0;
}

/* Parse argv[1..]: one or two positional arguments and the options;
   nonzero (and a message) on bad usage. */
static int parse_opts(const char *cmd, int argc, char **argv, int npos,
                      eopts *o)
{
    int k = 0, rc;
    o->dir = NULL; /* the default places (mc_egdb_open_default) */
    o->seeds = -1;
    o->threads = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--dir") || !strcmp(a, "--seeds") ||
            !strcmp(a, "--threads")) {
            if (common_opt(cmd, argc, argv, &i, o))
                return 1;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            o->quiet = 1;
        } else if ((rc = sub_opt(cmd, argc, argv, &i, o, &npos)) != 0) {
            if (rc < 0)
                return 1;
        } else if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr, _("mancala egdb %s: unknown option '%s'\n"), cmd,
                    a);
            return 1;
        } else if (k < npos) {
            if (k == 0)
                o->game = a;
            else
                o->pos = a;
            k++;
        } else {
            fprintf(stderr, _("mancala egdb %s: unexpected argument '%s'\n"),
                    cmd, a);
            return 1;
        }
    }
    if (k < npos) {
        fprintf(stderr,
                _("mancala egdb %s: missing %s (try 'mancala egdb %s "
                  "--help')\n"),
                cmd,
                k == 0 ? "the game (oware or oware:awari)" : "the position",
                cmd);
        return 1;
    }
    return 0;
}

static int preset_or_die(const char *spec)
{
    mc_error err = {0, ""};
    int p = mc_egdb_preset_parse(spec, &err);
    if (p < 0)
        fprintf(stderr, "mancala: %s\n", err.msg);
    return p;
}

/* Open layers 0..seeds (-1: all there are) of the preset from --dir, or
   else from the default places; the directory used goes into dir.  NULL
   after a message. */
static mc_egdb *open_tables(const eopts *o, int preset, int seeds, char *dir,
                            size_t n)
{
    mc_error err = {0, ""};
    mc_egdb *db;
    if (o->dir) {
        snprintf(dir, n, "%s", o->dir);
        db = mc_egdb_open(o->dir, preset, seeds, &err);
    } else {
        db = mc_egdb_open_default(preset, dir, n, &err);
        if (db && seeds >= 0) {
            /* exactly the layers asked for, as with --dir */
            mc_egdb_close(db);
            db = mc_egdb_open(dir, preset, seeds, &err);
        }
    }
    if (!db)
        fprintf(stderr, "mancala: %s\n", err.msg);
    return db;
}

/* The preset of o->game and its layers 0..o->seeds (all there are when
   -1) as open_tables finds them; NULL after a message. */
static mc_egdb *open_game_tables(const eopts *o, int *preset, char *dir,
                                 size_t n)
{
    *preset = preset_or_die(o->game);
    return *preset < 0 ? NULL : open_tables(o, *preset, (int)o->seeds, dir, n);
}

/* ---- build -------------------------------------------------------------- */

typedef struct bar {
    int quiet, tty, max;
    double t0, last, frac0;
    cli_build_eta eta;
    cli_meter *meter;
    long peak_kb[MC_EGDB_MAX_SEEDS + 1];
} bar;

static void on_progress(void *ctx, int n, const char *phase, uint64_t done,
                        uint64_t total)
{
    bar *b = ctx;
    if (b->quiet)
        return;
    if (!strcmp(phase, "resumed")) {
        fprintf(stderr,
                _("%slayer %d: taking up its checkpoint (%llu of "
                  "%llu thresholds done)\n"),
                b->tty ? "\r" : "", n, (unsigned long long)done,
                (unsigned long long)total);
        return;
    }
    double t = now_s();
    int first = b->eta.first < 0;
    if (first)
        b->t0 = t;
    double frac = cli_build_fraction(&b->eta, n, phase, done, total);
    /* A build that takes up a checkpoint starts part of the way: the
       rate is that of this run's own work. */
    if (first)
        b->frac0 = frac;
    int isdone = !strcmp(phase, "done");
    if (isdone && b->meter && n >= 0 && n <= MC_EGDB_MAX_SEEDS)
        b->peak_kb[n] = cli_meter_take(b->meter);
    if (!isdone && t - b->last < 0.25)
        return;
    b->last = t;
    double el = t - b->t0, dfrac = frac - b->frac0,
           eta = dfrac > 0.001 ? el * (1 - frac) / dfrac : -1;
    cli_layer_bar(b->tty, n, b->max, isdone ? "done" : phase, frac, eta);
}

/* Lock the build's directory (rank 0's lock, every process agreeing):
   the descriptor (-1: none), or -2 after a message when another program
   is building there. */
static int lock_for_build(const char *dir, const mc_egdb_dist *dist, int many)
{
    int busy = 0, lock = dist->rank == 0 ? cli_lock_tables(dir, &busy) : -1;
    if (busy)
        fprintf(stderr,
                _("mancala egdb build: another program is building "
                  "tables in %s\n"),
                dir);
    if (many) {
        uint64_t any = (uint64_t)busy;
        if (dist->sum(dist->ctx, &any, 1) != 0)
            any = 1;
        busy = any != 0;
    }
    if (!busy)
        return lock;
    if (lock >= 0)
        close(lock);
    return -2;
}

/* The summary of a build that succeeded: the layers found complete, a
   line for each layer built, the whole (seconds since t0). */
static void build_summary(const mc_egdb_build_opts *bo, const bar *b, double t0,
                          const mc_egdb_dist *dist, int many)
{
    long peak_all = -1;
    for (int n = bo->first_built; n <= bo->max_seeds; n++)
        if (b->peak_kb[n] > peak_all)
            peak_all = b->peak_kb[n];
    if (bo->first_built > 0)
        printf(_("layers 0-%d found complete in %s\n"),
               bo->first_built - 1 < bo->max_seeds ? bo->first_built - 1
                                                   : bo->max_seeds,
               bo->dir);
    for (int n = bo->first_built; n <= bo->max_seeds; n++) {
        printf(_("layer %2d: %12llu positions  %8.2f s"), n,
               (unsigned long long)mc_egdb_layer_size(n), bo->seconds[n]);
        if (b->peak_kb[n] > 0)
            printf(_("  peak RssAnon %6.1f MiB"), b->peak_kb[n] / 1024.0);
        if (bo->open_bounds[n] != MC_EGDB_NOT_COUNTED)
            printf(_("  %llu with P < O"),
                   (unsigned long long)bo->open_bounds[n]);
        printf("\n");
    }
    printf(_("built %s layers 0-%d in %s: %.1f s"),
           mc_egdb_preset_name(bo->preset), bo->max_seeds, bo->dir,
           now_s() - t0);
    if (peak_all > 0)
        printf(_(", peak RssAnon %.1f MiB"), peak_all / 1024.0);
    if (many)
        printf(_(", %d processes (rank 0's figures)"), dist->size);
    printf("\n");
}

static int egdb_build(int argc, char **argv)
{
    eopts o = {0};
    if (parse_opts("build", argc, argv, 1, &o))
        return EXIT_USAGE;
    if (o.seeds < 0) {
        fprintf(stderr, _("mancala egdb build: --seeds N is required\n"));
        return EXIT_USAGE;
    }
    int preset = preset_or_die(o.game);
    if (preset < 0)
        return EXIT_BAD_INPUT;
    char dirbuf[4096];
    if (!o.dir &&
        !(o.dir = cli_tables_dir("egdb build", dirbuf, sizeof dirbuf)))
        return EXIT_BAD_INPUT;
    mc_error err = {0, ""};
    if (mc_egdb_ensure_dir(o.dir, &err) != 0) {
        fprintf(stderr, "mancala: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    /* Under mpirun: one build shared by the processes; rank 0 locks the
       directory, shows the progress and prints the summary. */
    mc_egdb_dist dist;
    int many = cli_mpi_start(&dist);
    if (many < 0)
        return many == -2 ? EXIT_USAGE : EXIT_BAD_INPUT;
    if (dist.rank > 0)
        o.quiet = 1;
    int lock = lock_for_build(o.dir, &dist, many);
    if (lock == -2) {
        cli_mpi_end(0);
        return EXIT_BAD_INPUT;
    }
    mc_egdb_build_opts bo;
    memset(&bo, 0, sizeof bo);
    bar b = {o.quiet, isatty(2), (int)o.seeds, 0, 0, 0, {0}, NULL, {0}};
    cli_meter meter;
    cli_meter_start(&meter);
    b.meter = &meter;
    cli_build_eta_init(&b.eta, preset, (int)o.seeds);
    bo.dir = o.dir;
    bo.preset = preset;
    bo.max_seeds = (int)o.seeds;
    bo.threads = (int)o.threads;
    bo.progress = on_progress;
    bo.progress_ctx = &b;
    bo.memory_mb = (uint32_t)o.memory_mb;
    bo.dist = many ? &dist : NULL;
    bo.checkpoint_secs = (int)o.ckpt;
    cli_egdb_build_knobs(&bo);
    double t0 = now_s();
    cli_meter_take(&meter);
    int rc = mc_egdb_build(&bo, &err);
    cli_meter_stop(&meter);
    if (lock >= 0)
        close(lock);
    if (rc) {
        if (b.tty && !o.quiet)
            fprintf(stderr, "\n");
        if (many)
            fprintf(stderr, _("mancala: egdb build (process %d of %d): %s\n"),
                    dist.rank, dist.size, err.msg);
        else
            fprintf(stderr, _("mancala: egdb build: %s\n"), err.msg);
        cli_mpi_end(1);
        return EXIT_BAD_INPUT;
    }
    cli_mpi_end(0);
    if (!o.quiet)
        build_summary(&bo, &b, t0, &dist, many);
    return 0;
}

/* ---- info --------------------------------------------------------------- */

/* A file's size in bytes, 0 when it is not there. */
static uint64_t file_bytes(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static void print_info(const char *path, const mc_egdb_info *in)
{
    printf("%s\n", path);
    printf(_("  layer %d of %s (%s), format %u, builder %u\n"), in->n,
           mc_egdb_preset_name(in->preset), in->spec, in->format_version,
           in->builder_version);
    printf(_("  entries %llu, history-proof %llu, approx_cycles %u, %llu "
             "bytes\n"),
           (unsigned long long)in->entries,
           (unsigned long long)in->history_proof, in->approx_cycles,
           (unsigned long long)in->file_size);
    printf(_("  checksums: header %016llx payload %016llx\n"),
           (unsigned long long)in->header_sum,
           (unsigned long long)in->payload_sum);
    printf(_("  histogram (value:count):"));
    int k = 0;
    for (int v = -64; v < 64; v++)
        if (in->hist[v + 64]) {
            printf("%s %d:%llu", k % 8 == 0 ? "\n   " : "", v,
                   (unsigned long long)in->hist[v + 64]);
            k++;
        }
    printf("\n");
}

static int egdb_info(int argc, char **argv)
{
    eopts o = {0};
    if (parse_opts("info", argc, argv, 1, &o))
        return EXIT_USAGE;
    mc_error err = {0, ""};
    if (strstr(o.game, ".egdb")) {
        mc_egdb_info in;
        if (mc_egdb_file_info(o.game, &in, &err) != 0) {
            fprintf(stderr, "mancala: %s\n", err.msg);
            return EXIT_BAD_INPUT;
        }
        print_info(o.game, &in);
        return 0;
    }
    int preset;
    char dir[4096];
    mc_egdb *db = open_game_tables(&o, &preset, dir, sizeof dir);
    if (!db)
        return EXIT_BAD_INPUT;
    int top = mc_egdb_max_seeds(db);
    for (int n = 0; n <= top; n++) {
        char path[4096];
        mc_egdb_path(dir, preset, n, path, sizeof path);
        if (!file_bytes(path))
            mc_egdb_zpath(dir, preset, n, path, sizeof path);
        print_info(path, mc_egdb_layer_info(db, n));
    }
    mc_egdb_close(db);
    /* A layer being built (or killed while building): how far its history
       search has got. */
    long long v = top < MC_EGDB_MAX_SEEDS
                      ? mc_egdb_journal_values(dir, preset, top + 1)
                      : -1;
    if (v >= 0) {
        char path[4096];
        mc_egdb_journal_path(dir, preset, top + 1, path, sizeof path);
        printf(_("%s\n  layer %d not complete: its history search's journal "
                 "holds %lld values (a resumed build over the same lower "
                 "layers takes them)\n"),
               path, top + 1, v);
    }
    int done, total;
    if (top < MC_EGDB_MAX_SEEDS &&
        mc_egdb_checkpoint_phase(dir, preset, top + 1, &done, &total)) {
        printf(_("layer %d in %s not complete: a checkpoint after %d of %d "
                 "thresholds (a resumed build over the same lower layers "
                 "takes it up)\n"),
               top + 1, dir, done, total);
    }
    return 0;
}

/* ---- verify ------------------------------------------------------------- */

static void on_verify(void *ctx, int n, const char *phase, uint64_t done,
                      uint64_t total)
{
    (void)ctx, (void)n, (void)phase, (void)done, (void)total;
}

static int egdb_verify(int argc, char **argv)
{
    eopts o = {0};
    if (parse_opts("verify", argc, argv, 1, &o))
        return EXIT_USAGE;
    int preset;
    char dir[4096];
    mc_egdb *db = open_game_tables(&o, &preset, dir, sizeof dir);
    if (!db)
        return EXIT_BAD_INPUT;
    int hi = mc_egdb_max_seeds(db), lo = (int)o.from;
    if (lo > hi) {
        fprintf(stderr,
                _("mancala egdb verify: --from %d: the tables in %s go "
                  "up to %d seeds\n"),
                lo, dir, hi);
        mc_egdb_close(db);
        return EXIT_BAD_INPUT;
    }
    mc_egdb_verify_report rep[MC_EGDB_MAX_SEEDS + 1];
    uint64_t bad = mc_egdb_verify(db, lo, hi, rep, on_verify, NULL);
    for (int n = lo; n <= hi; n++) {
        if (rep[n].compact) {
            /* too large for the full check here: the compact one */
            printf(_("layer %2d: %llu entries (compact check): bellman %llu, "
                     "re-derived values %llu, invariants %llu errors\n"),
                   n, (unsigned long long)rep[n].entries,
                   (unsigned long long)rep[n].bellman_errors,
                   (unsigned long long)rep[n].value_errors,
                   (unsigned long long)rep[n].invariant_errors);
            continue;
        }
        printf(_("layer %2d: %llu entries: bellman %llu, well-founded %llu, "
                 "values %llu, invariants %llu errors; %llu with P < O\n"),
               n, (unsigned long long)rep[n].entries,
               (unsigned long long)rep[n].bellman_errors,
               (unsigned long long)rep[n].wf_errors,
               (unsigned long long)rep[n].value_errors,
               (unsigned long long)rep[n].invariant_errors,
               (unsigned long long)rep[n].open_bounds);
    }
    printf(_("%s (%s layers %d-%d in %s)\n"),
           bad ? "verify: FAILED" : "verify: ok", mc_egdb_preset_name(preset),
           lo, hi, dir);
    mc_egdb_close(db);
    return bad ? EXIT_BAD_INPUT : 0;
}

/* ---- probe -------------------------------------------------------------- */

static void say_result(int mover, int cap_m, int cap_o, int v, int n)
{
    /* Final scores times two (an awari even split may leave halves). */
    int m2 = 2 * cap_m + (n + v), o2 = 2 * cap_o + (n - v);
    if (m2 == o2)
        printf(_("perfect play: draw, %d-%d\n"), m2 / 2, o2 / 2);
    else {
        int w = m2 > o2 ? mover : 1 - mover;
        int ws = m2 > o2 ? m2 : o2, ls = m2 > o2 ? o2 : m2;
        printf(_("perfect play: %s wins by %g (%g-%g)\n"), cli_side(w),
               (ws - ls) / 2.0, ws / 2.0, ls / 2.0);
    }
}

/* Probes a second of random positions of every open layer (mixed sides,
   all layers equally likely): the speed a search sees. */
static int probe_bench(const eopts *o, int preset)
{
    char dir[4096];
    double t0 = now_s();
    mc_egdb *db = open_tables(o, preset, -1, dir, sizeof dir);
    if (!db)
        return EXIT_BAD_INPUT;
    double t1 = now_s();
    int top = mc_egdb_max_seeds(db);
    mc_rng rng;
    mc_rng_seed(&rng, 1);
    uint64_t probes = 0;
    long sum = 0;
    double t = t1;
    while (t - t1 < 1.0) {
        for (int k = 0; k < 4096; k++) {
            mc_pos p;
            memset(&p, 0, sizeof p);
            int n = (int)mc_rng_below(&rng, (uint32_t)top + 1);
            mc_egdb_unrank(n, mc_rng_next(&rng) % mc_egdb_layer_size(n), p.pit);
            p.side = (uint8_t)(k & 1);
            int v, hp;
            if (mc_egdb_probe(db, &p, &v, &hp))
                sum += v;
            probes++;
        }
        t = now_s();
    }
    printf(_("opened layers 0-%d in %.3f s; %.0f probes/s (random positions, "
             "checksum %ld)\n"),
           top, t1 - t0, (double)probes / (t - t1), sum);
    mc_egdb_close(db);
    return 0;
}

static int egdb_probe(int argc, char **argv)
{
    eopts o = {0};
    if (parse_opts("probe", argc, argv, 2, &o))
        return EXIT_USAGE;
    int preset = preset_or_die(o.game);
    if (preset < 0)
        return EXIT_BAD_INPUT;
    if (o.bench)
        return probe_bench(&o, preset);
    /* Positions with any total: the stores only turn values into results. */
    char spec[300];
    snprintf(spec, sizeof spec, "%s%sseeds=any", o.game,
             strchr(o.game, ':') ? "," : ":");
    mc_game *g = cli_game(spec);
    if (!g)
        return EXIT_BAD_INPUT;
    mc_pos p;
    if (cli_position(g, o.pos, &p)) {
        mc_game_free(g);
        return EXIT_BAD_INPUT;
    }
    int n = 0;
    for (int i = 0; i < 12; i++)
        n += p.pit[i];
    char dir[4096];
    mc_egdb *db = open_tables(&o, preset, -1, dir, sizeof dir);
    if (!db) {
        mc_game_free(g);
        return EXIT_BAD_INPUT;
    }
    int rc = 0, v, hp;
    if (!mc_egdb_probe(db, &p, &v, &hp)) {
        fprintf(stderr,
                _("mancala: the position has %d seeds on the board; the %s "
                  "tables in %s go up to %d\n"),
                n, mc_egdb_preset_name(preset), dir, mc_egdb_max_seeds(db));
        rc = EXIT_BAD_INPUT;
        goto out;
    }
    int me = p.side;
    const char *who = cli_side(me);
    printf(_("layer %d (%s): value %+d for %s, the side to move (history_proof "
             "%s)\n"),
           n, mc_egdb_preset_name(preset), v, who, hp ? "yes" : "no");
    printf(_("future seeds: %s %g, %s %g\n"), who, (n + v) / 2.0,
           cli_side(1 - me), (n - v) / 2.0);
    say_result(me, p.cap[me], p.cap[1 - me], v, n);
    if (mc_egdb_layer_info(db, n)->approx_cycles)
        printf(_("note: layer %d is built on approximated cycle values "
                 "(approx_cycles=1): exact only where no cycle matters\n"),
               n);
    mc_move mv[MC_MAX_MOVES];
    int k = mc_moves(g, &p, mv);
    if (k == 0)
        printf(_("no legal move: the game ends (each side takes its row)\n"));
    int approx = 0;
    for (int i = 0; i < k; i++) {
        mc_pos q = p;
        mc_play(g, &q, mv[i], NULL);
        int cap = q.cap[me] - p.cap[me], cv, chp;
        char mb[MC_MOVE_STRLEN];
        mc_move_format(g, &p, mv[i], mb, sizeof mb);
        mc_egdb_probe(db, &q, &cv, &chp);
        int mvv = cap - cv;
        /* Under abapa a move inside the layer leaves history behind: the
           child's fresh value is exact only if it is history-proof. */
        int mark = preset == MC_EGDB_ABAPA && cap == 0 && !chp;
        approx |= mark;
        printf("  %s %+d%s%s\n", mb, mvv, mark ? " ~" : "",
               cap ? (mvv == v ? "  capture, best" : "  capture")
                   : (mvv == v ? "  best" : ""));
    }
    if (approx)
        printf(_("~ : the fresh value of the position reached; with this "
                 "position behind it a repetition may end the game earlier\n"));
out:
    mc_egdb_close(db);
    mc_game_free(g);
    return rc;
}

/* ---- default ------------------------------------------------------------ */

static int egdb_default(int argc, char **argv)
{
    eopts o = {0};
    if (parse_opts("default", argc, argv, 1, &o))
        return EXIT_USAGE;
    if (o.dir || o.seeds >= 0) {
        fprintf(stderr, _("mancala egdb default: takes no --dir or --seeds "
                          "(it reports the default places)\n"));
        return EXIT_USAGE;
    }
    int preset = preset_or_die(o.game);
    if (preset < 0)
        return EXIT_BAD_INPUT;
    const char *env = getenv("MANCALA_EGDB_DIR");
    if (env && !strcmp(env, "none")) {
        fprintf(stderr, _("mancala egdb default: endgame tables are turned "
                          "off (MANCALA_EGDB_DIR=none)\n"));
        return EXIT_BAD_INPUT;
    }
    char dir[4096], found[4096];
    mc_egdb *db;
    if (o.no_build) {
        db = open_tables(&o, preset, -1, dir, sizeof dir);
    } else {
        mc_game *g = cli_game(o.game);
        if (!g)
            return EXIT_BAD_INPUT;
        const char *d =
            cli_default_tables(g, "egdb default", 1, found, sizeof found);
        mc_game_free(g);
        if (!d)
            return EXIT_BAD_INPUT; /* the helper said why */
        db = open_tables(&(eopts){.dir = d}, preset, -1, dir, sizeof dir);
    }
    if (!db)
        return EXIT_BAD_INPUT;
    printf(_("%s layers 0-%d in %s\n"), mc_egdb_preset_name(preset),
           mc_egdb_max_seeds(db), dir);
    mc_egdb_close(db);
    return 0;
}

/* ---- stats -------------------------------------------------------------- */

/* One preset's part of the statistics page: a table of outcomes per
   layer and one of the value histograms.  The counts are the headers'
   histograms, which `egdb verify` recounts from the entries. */
static void print_stats(const mc_egdb *db, int preset)
{
    int top = mc_egdb_max_seeds(db);
    const char *pn = mc_egdb_preset_name(preset);
    char game[64];
    printf("## %s (%s), layers 0-%d\n\n", pn,
           cli_egdb_game(preset, game, sizeof game), top);
    printf("A position of layer n has n seeds on the board; its value is the "
           "mover's best\nfuture seed difference (-n..n) from a fresh start. "
           "Ahead: the mover takes\nmore of the n seeds than the opponent "
           "with best play; even: as many; behind:\nfewer.\n\n");
    printf("| seeds | positions | mover ahead | even | mover behind | "
           "ahead %% | even %% | behind %% | history-proof |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    int approx = 0;
    for (int n = 0; n <= top; n++) {
        const mc_egdb_info *in = mc_egdb_layer_info(db, n);
        uint64_t ahead = 0, even = in->hist[64], behind = 0;
        for (int v = 1; v <= n; v++) {
            ahead += in->hist[64 + v];
            behind += in->hist[64 - v];
        }
        double t = in->entries ? (double)in->entries : 1;
        approx |= in->approx_cycles != 0;
        printf("| %d%s | %llu | %llu | %llu | %llu | %.2f | %.2f | %.2f | "
               "%llu |\n",
               n, in->approx_cycles ? "*" : "", (unsigned long long)in->entries,
               (unsigned long long)ahead, (unsigned long long)even,
               (unsigned long long)behind, 100.0 * (double)ahead / t,
               100.0 * (double)even / t, 100.0 * (double)behind / t,
               (unsigned long long)in->history_proof);
    }
    if (approx)
        printf("\n\\* approx_cycles: some values of the layer are the "
               "contract's approximation\n(docs/EGDB.md).\n");
    printf("\nValues (value: positions), by layer:\n\n```\n");
    for (int n = 0; n <= top; n++) {
        const mc_egdb_info *in = mc_egdb_layer_info(db, n);
        printf("%2d:", n);
        for (int v = -n; v <= n; v++)
            if (in->hist[64 + v])
                printf(" %d:%llu", v, (unsigned long long)in->hist[64 + v]);
        printf("\n");
    }
    printf("```\n\n");
}

/* `egdb stats oware|oware:awari|all`: the page docs/EGDB-RESULTS.md is. */
static int egdb_stats(int argc, char **argv)
{
    eopts o = {0};
    if (parse_opts("stats", argc, argv, 1, &o))
        return EXIT_USAGE;
    int presets[2], np = 0;
    if (!strcmp(o.game, "all")) {
        presets[np++] = MC_EGDB_ABAPA;
        presets[np++] = MC_EGDB_AWARI;
    } else {
        int p = preset_or_die(o.game);
        if (p < 0)
            return EXIT_BAD_INPUT;
        presets[np++] = p;
    }
    /* Every table is opened (and checked) before anything is printed, so
       that a missing one gives a message and no half page. */
    mc_egdb *db[2] = {NULL, NULL};
    char dir[4096];
    for (int i = 0; i < np; i++) {
        db[i] = open_tables(&o, presets[i], (int)o.seeds, dir, sizeof dir);
        if (!db[i]) {
            if (i)
                mc_egdb_close(db[0]);
            return EXIT_BAD_INPUT;
        }
    }
    char seeds[32] = "";
    if (o.seeds >= 0)
        snprintf(seeds, sizeof seeds, " --seeds %ld", o.seeds);
    printf("# What the Oware endgame tables say\n\n"
           "Generated by `mancala egdb stats %s%s` from the tables' "
           "headers (checked\non opening; `mancala egdb verify` recounts "
           "each histogram from the entries).\n"
           "The rules of each preset and the tables' format: docs/EGDB.md.\n\n",
           o.game, seeds);
    for (int i = 0; i < np; i++) {
        print_stats(db[i], presets[i]);
        mc_egdb_close(db[i]);
    }
    return 0;
}

/* ---- compress ------------------------------------------------------------ */

static int egdb_compress(int argc, char **argv)
{
    eopts o = {0};
    if (parse_opts("compress", argc, argv, 1, &o))
        return EXIT_USAGE;
    int preset;
    char dir[4096];
    /* Opening checks every layer first: nothing damaged is compressed. */
    mc_egdb *db = open_game_tables(&o, &preset, dir, sizeof dir);
    if (!db)
        return EXIT_BAD_INPUT;
    int top = mc_egdb_max_seeds(db);
    mc_egdb_close(db);
    if (o.from > top) {
        fprintf(stderr,
                _("mancala egdb compress: --from %ld: the tables in %s "
                  "end at layer %d\n"),
                o.from, dir, top);
        return EXIT_USAGE;
    }
    mc_egdb_compress_opts co = {(uint32_t)o.block, (int)o.level, o.keep};
    uint64_t plain_total = 0, z_total = 0;
    double t0 = now_s();
    for (int n = (int)o.from; n <= top; n++) {
        char path[4096];
        mc_egdb_path(dir, preset, n, path, sizeof path);
        uint64_t before = file_bytes(path), z = 0;
        if (!before) /* compressed already: its entries and a header */
            before = mc_egdb_layer_size(n) + 4096;
        mc_error err = {0, ""};
        double t1 = now_s();
        if (mc_egdb_compress(dir, preset, n, &co, &z, &err) != 0) {
            fprintf(stderr, "mancala: %s\n", err.msg);
            return EXIT_BAD_INPUT;
        }
        plain_total += before;
        z_total += z;
        if (!o.quiet)
            printf(_("layer %2d: %llu -> %llu bytes (%.2fx) in %.1f s\n"), n,
                   (unsigned long long)before, (unsigned long long)z,
                   z ? (double)before / (double)z : 0.0, now_s() - t1);
    }
    printf(_("compressed %s layers %ld-%d in %s: %llu -> %llu bytes (%.2fx), "
             "%.1f s%s\n"),
           mc_egdb_preset_name(preset), o.from, top, dir,
           (unsigned long long)plain_total, (unsigned long long)z_total,
           z_total ? (double)plain_total / (double)z_total : 0.0, now_s() - t0,
           o.keep ? "; plain files kept" : "");
    return 0;
}

/* ---- dispatch ------------------------------------------------------------ */

static const char *const egdb_help =
    N_("usage: mancala egdb <build|verify|info|probe|default|stats|compress> "
       "...\n\n"
       "Oware endgame databases: perfect play once few seeds remain.\n"
       "  mancala egdb build oware[:awari] --seeds N [--threads 2] [--dir D]\n"
       "                     [--memory SIZE] [--checkpoint SECS|none]\n"
       "      build every layer from 0 to N seeds (bottom-up, resuming at the\n"
       "      first layer not complete on disk), with a progress bar\n"
       "  mancala egdb verify oware[:awari] [--seeds N] [--from L] [--dir D]\n"
       "      re-derive the bounds and check Bellman identities,\n"
       "      well-foundedness, values and invariants of the built layers\n"
       "  mancala egdb info oware[:awari] [--seeds N] [--dir D] | <file.egdb>\n"
       "      print the headers and value histograms\n"
       "  mancala egdb probe oware[:awari] <position> [--dir D]\n"
       "      the value, the result with the stores, and every move's value\n"
       "  mancala egdb default oware[:awari] [--no-build]\n"
       "      the tables found without --dir; builds the small first-use set\n"
       "      (layers 0-10, a few seconds) when there are none\n"
       "  mancala egdb stats oware[:awari]|all [--seeds N] [--dir D]\n"
       "      wins, draws and losses for the mover and the values of every\n"
       "      layer, as Markdown (docs/EGDB-RESULTS.md)\n"
       "  mancala egdb compress oware[:awari] [--seeds N] [--dir D] [--keep]\n"
       "      rewrite the layers as compressed files (.egdbz, zstd blocks),\n"
       "      which everything reads in place of the plain ones\n\n"
       "Tables exist for the presets abapa (oware, the default rules) and\n"
       "awari (oware:awari).  A value is the mover's best future seed\n"
       "difference.  Without --dir, tables are read from the first of\n"
       "$MANCALA_EGDB_DIR, the user directory $XDG_DATA_HOME/mancala/egdb\n"
       "(~/.local/share/mancala/egdb) and the installed share/mancala/egdb\n"
       "that holds them, and built into $MANCALA_EGDB_DIR when set, else the\n"
       "user directory.  MANCALA_EGDB_DIR=none: no tables by default.\n");

static const char *const sub_help[] = {
    "build",
    N_("usage: mancala egdb build oware[:awari] --seeds N [--threads T] "
       "[--dir D] [--quiet]\n"
       "                          [--memory SIZE] [--checkpoint SECS|none]\n\n"
       "Build the layers 0..N (N seeds on the board) of the preset's tables\n"
       "into D, one file per layer (oware-<preset>-NN.egdb); without --dir,\n"
       "into $MANCALA_EGDB_DIR when set, else the user directory\n"
       "$XDG_DATA_HOME/mancala/egdb (~/.local/share/mancala/egdb), where\n"
       "play, analyze and serve find them unasked.  Layers already\n"
       "complete on disk with matching checksums are kept: a killed build\n"
       "resumes at the first unfinished layer, and inside it the history\n"
       "search takes back the values in its journal (oware-abapa-NN.journal,\n"
       "removed once the layer is written).  A progress bar with the time\n"
       "left goes to stderr.  T threads share the forward pass, the sweep and\n"
       "the history search (default 2).\n\n"
       "--memory SIZE (256M, 8G; default: the memory available less a\n"
       "margin) bounds the build's own memory: the large layers' work (3\n"
       "bytes a position) stays in memory as far as it fits, the rest in\n"
       "scratch files of D mapped shared (oware-<preset>-NN.work-*), with\n"
       "the same files as a result.  The summary gives each layer's peak\n"
       "RssAnon.  Inside a large layer (13 seeds and up) the build writes a\n"
       "checkpoint (oware-<preset>-NN.ckpt) every --checkpoint seconds\n"
       "(default 60; none: never) and a stopped build takes it up.\n\n"
       "Under abapa, positions whose value depends on cycles (P < O, layers\n"
       "of 11 seeds or fewer; above, only where approximated layers below\n"
       "open some, which take the approximation) get their exact fresh value\n"
       "from a history search, by default in components of up to 30,000\n"
       "positions.  The values of layers 7 and 8 ship with the library\n"
       "(searching them again takes about 2.5 minutes and 2.6 hours on 2\n"
       "threads), so layers 0-8 are exact; larger components, from layer 9\n"
       "up, take the contract's approximation, flagged approx_cycles in the\n"
       "header.\n"
       "MANCALA_EGDB_MAXCOMP=N sets that limit; MANCALA_EGDB_BUDGET=N caps a\n"
       "search's nodes (default 100000).  Journals shipped with the library\n"
       "give values found before; MANCALA_EGDB_SHIPPED=0 searches them "
       "again.\n\n"
       "A build shared by the processes of mpirun is mancala-mpi's, with the\n"
       "same arguments: mpirun -np K mancala-mpi egdb build ... (Open MPI;\n"
       "docs/EGDB.md, \"Over MPI\").\n"),
    "verify",
    N_("usage: mancala egdb verify oware[:awari] [--seeds N] [--from L] "
       "[--dir D]\n\n"
       "Open the layers (checksums, dependencies) and, for each, re-derive "
       "the\n"
       "bounds P and O and check: the Bellman identities of P, O (and of the\n"
       "awari values), well-foundedness, the stored values against P and O,\n"
       "parity (abapa), empty mover = -n, mover who cannot feed = +n, and the\n"
       "histogram.  A layer too large for that check in the memory\n"
       "available (13 bytes a position) is checked the compact way: its\n"
       "values re-derived by the builder's sweep and compared, and the\n"
       "Bellman identity of the stored values.  --from L checks only layers\n"
       "L and up (the lower ones are still opened and their checksums read).\n"
       "Exit status 1 if anything is wrong.  Without --dir: the\n"
       "tables of the default places (mancala egdb --help).\n"),
    "info",
    N_("usage: mancala egdb info oware[:awari] [--seeds N] [--dir D]\n"
       "       mancala egdb info <file.egdb or file.egdbz>\n\n"
       "Print each layer's header: rules, entries, history-proof count,\n"
       "approx_cycles, checksums and the value histogram; and, for a layer\n"
       "being built (or killed while building), how many values its history\n"
       "search's journal holds.  Without --dir: the tables of the default\n"
       "places (mancala egdb --help).\n"),
    "probe",
    N_("usage: mancala egdb probe oware[:awari] <position> [--dir D]\n"
       "       mancala egdb probe oware[:awari] --bench [--dir D]\n\n"
       "The position's value (the mover's best future seed difference), the\n"
       "result of perfect play with the stores, and the value of every move\n"
       "(a capture: the seeds taken minus the opponent's value after it).\n"
       "Any seed total is accepted; the board must hold at most the deepest\n"
       "layer built.  --bench: probes a second of random positions and\n"
       "prints the rate.  Without --dir: the tables of the default places\n"
       "(mancala egdb --help).\n"),
    "default",
    N_("usage: mancala egdb default oware[:awari] [--no-build]\n\n"
       "Print the tables the program uses when no directory is named\n"
       "('abapa layers 0-10 in DIR'): the first of $MANCALA_EGDB_DIR, the\n"
       "user directory $XDG_DATA_HOME/mancala/egdb (~/.local/share/mancala/\n"
       "egdb) and the installed share/mancala/egdb that holds the preset's\n"
       "layer 0, checked.  When none does, build the small first-use set\n"
       "(layers 0-10, a few seconds) into the user directory first, with a\n"
       "progress line on stderr (the program's first use); --no-build: only\n"
       "look (exit status 1 when there are none).  MANCALA_EGDB_DIR=none "
       "turns\n"
       "the default tables off; MANCALA_EGDB_FIRST_SEEDS=N (a testing knob)\n"
       "sets the first-use set's top layer.\n"),
    "stats",
    N_("usage: mancala egdb stats oware[:awari]|all [--seeds N] [--dir D]\n\n"
       "Print, as a Markdown page, what the tables say: for every layer (n\n"
       "seeds on the board) how many positions the mover ends ahead, even or\n"
       "behind on the n seeds with best play from a fresh start, how many are\n"
       "history-proof, and the histogram of values.  'all': both presets\n"
       "(abapa, then awari).  docs/EGDB-RESULTS.md is this page.  Without\n"
       "--dir: the tables of the default places (mancala egdb --help).\n"),
    "compress",
    N_("usage: mancala egdb compress oware[:awari] [--seeds N] [--from M] "
       "[--dir D]\n"
       "                             [--keep] [--level L] [--block B] "
       "[--quiet]\n\n"
       "Rewrite each layer M..N (default: 0 and all there are) as a "
       "compressed\n"
       "file, oware-<preset>-NN.egdbz: the same header, a block index, and\n"
       "the entries in blocks of B entries (default 1024) each compressed\n"
       "with zstd at level L (default 9).  Each is read back and checked\n"
       "against the plain file's checksums, which is then removed (--keep:\n"
       "kept; where both are, the plain file is read).  Play, analysis,\n"
       "probe, info, verify and build read compressed layers in place of\n"
       "plain ones: a probe decompresses one block (256 kept per thread);\n"
       "build and verify decompress a whole lower layer into memory.  Layers\n"
       "compressed already are left as they are.  A probe of a compressed\n"
       "layer costs a block's decompression (microseconds, against a memory\n"
       "read): --from M keeps the small layers, which a search probes most\n"
       "and which take little room, plain.  Without --dir: the tables\n"
       "of the default places (mancala egdb --help).\n"),
    NULL};

int cmd_egdb(int argc, char **argv)
{
    if (argc < 2 || cli_is_help(argv[1])) {
        fputs(_(egdb_help), argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_USAGE : 0;
    }
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            for (int k = 0; sub_help[k]; k += 2)
                if (!strcmp(sub_help[k], argv[1])) {
                    fputs(_(sub_help[k + 1]), stdout);
                    return 0;
                }
        }
    if (!strcmp(argv[1], "build"))
        return egdb_build(argc - 1, argv + 1);
    if (!strcmp(argv[1], "info"))
        return egdb_info(argc - 1, argv + 1);
    if (!strcmp(argv[1], "verify"))
        return egdb_verify(argc - 1, argv + 1);
    if (!strcmp(argv[1], "probe"))
        return egdb_probe(argc - 1, argv + 1);
    if (!strcmp(argv[1], "default"))
        return egdb_default(argc - 1, argv + 1);
    if (!strcmp(argv[1], "stats"))
        return egdb_stats(argc - 1, argv + 1);
    if (!strcmp(argv[1], "compress"))
        return egdb_compress(argc - 1, argv + 1);
    fprintf(stderr,
            _("mancala egdb: unknown subcommand '%s' (build, verify, info, "
              "probe, default, stats, compress)\n"),
            argv[1]);
    return EXIT_USAGE;
}
