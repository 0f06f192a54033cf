/*
 * tables.c - the Oware endgame tables the program uses when no directory
 * is named: found by mc_egdb_open_default (MANCALA_EGDB_DIR, the user
 * directory, the installed share folder), and on first use a small set
 * built into the user directory behind one progress line; where builds
 * go without --dir (cli_tables_dir) and the lock of a directory's builds
 * (cli_lock_tables).  Front-end code: it prints; the library finds,
 * checks and builds.  The egdb command (egdb.c) calls here, never the
 * other way; what both builds share is egdb_eta.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "mancala_egdb.h"

/* The first-use set: layers 0-10, about 6 s on the 2-core development
   machine (layer 6's history search is most of it; 0-12 took 10-12 s,
   docs/EGDB.md "Where the tables are"). */
#define FIRST_SEEDS 10

int cli_first_seeds(void)
{
    const char *s = getenv("MANCALA_EGDB_FIRST_SEEDS");
    long v = s && *s ? cli_number(s, MC_EGDB_MAX_SEEDS) : -1;
    return v >= 0 ? (int)v : FIRST_SEEDS;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *cli_tables_dir(const char *cmd, char *buf, size_t n)
{
    const char *env = getenv("MANCALA_EGDB_DIR");
    if (env && *env && strcmp(env, "none") != 0)
        snprintf(buf, n, "%s", env);
    else if (mc_egdb_user_dir(buf, n) != 0) {
        fprintf(stderr,
                _("mancala %s: no home directory for the "
                  "tables (set HOME or XDG_DATA_HOME, or give --dir)\n"),
                cmd);
        return NULL;
    }
    return buf;
}

/* One helper at a time: a second caller (a server's other game) waits for
   the first one's build and then finds the tables. */
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;
/* Under tables_lock: a failure was reported (report it once), a build
   failed (do not try again in this process), builds finished. */
static int warned, build_failed, builds;

int cli_tables_built(void)
{
    pthread_mutex_lock(&tables_lock);
    int n = builds;
    pthread_mutex_unlock(&tables_lock);
    return n;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
fail(const char *cmd, const char *fmt, ...);
static void fail(const char *cmd, const char *fmt, ...)
{
    if (warned)
        return;
    warned = 1;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "mancala %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

typedef struct first_bar {
    int tty, pct;
    const char *label;
    cli_build_eta eta;
} first_bar;

static void on_first(void *ctx, int n, const char *phase, uint64_t done,
                     uint64_t total)
{
    first_bar *b = ctx;
    int pct = (int)(100 * cli_build_fraction(&b->eta, n, phase, done, total));
    if (!b->tty || pct == b->pct || pct >= 100)
        return;
    b->pct = pct;
    fprintf(stderr, "\r%s ... %d%%", b->label, pct);
}

static int build_threads(void)
{
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c < 1 ? 1 : c > 8 ? 8 : (int)c;
}

int cli_lock_tables(const char *dir, int *busy)
{
    char lock[4200];
    *busy = 0;
    snprintf(lock, sizeof lock, "%s/.build-lock", dir);
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        *busy = errno == EWOULDBLOCK;
        close(fd);
        return -1;
    }
    return fd;
}

/* Build layers 0..top of the preset into dir (created), under its lock
   so that two programs starting at once build once; when another
   program is building there, this one does not wait (a big build takes
   hours).  0, -1 after a message, -2 (after one) when another program
   holds the lock. */
static int first_build(int preset, const char *dir, int top, const char *cmd)
{
    mc_error err = {0, ""};
    if (mc_egdb_ensure_dir(dir, &err) != 0) {
        fail(cmd, "endgame tables not built: %s", err.msg);
        return -1;
    }
    int busy, fd = cli_lock_tables(dir, &busy);
    if (busy) {
        fail(cmd,
             "endgame tables not built: another program is building "
             "them in %s",
             dir);
        return -2;
    }
    /* Another program may have finished them since this one looked. */
    mc_egdb *db = mc_egdb_open(dir, preset, top, NULL);
    if (db) {
        mc_egdb_close(db);
        if (fd >= 0)
            close(fd);
        return 0;
    }
    char label[160];
    snprintf(label, sizeof label,
             _("Building Oware %sendgame tables (layers 0-%d, first use only)"),
             preset == MC_EGDB_AWARI ? "(awari) " : "", top);
    first_bar b = {isatty(2), 0, label, {0}}; /* 0%: printed below */
    cli_build_eta_init(&b.eta, preset, top);
    if (b.tty)
        fprintf(stderr, "%s ... 0%%", label);
    else
        fprintf(stderr, "%s ...\n", label);
    mc_egdb_build_opts bo;
    memset(&bo, 0, sizeof bo);
    bo.dir = dir;
    bo.preset = preset;
    bo.max_seeds = top;
    bo.threads = build_threads();
    bo.progress = on_first;
    bo.progress_ctx = &b;
    cli_egdb_build_knobs(&bo);
    double t0 = now_s();
    int rc = mc_egdb_build(&bo, &err);
    if (fd >= 0)
        close(fd);
    if (rc != 0) {
        if (b.tty)
            fprintf(stderr, "\n");
        fail(cmd, "endgame tables not built: %s", err.msg);
        return -1;
    }
    if (b.tty)
        fputc('\r', stderr);
    fprintf(stderr, _("%s ... done in %.1f s (%s)\n"), label, now_s() - t0,
            dir);
    builds++;
    return 0;
}

static const char *copy_dir(char *dir, size_t n, const char *from)
{
    int len = snprintf(dir, n, "%s", from);
    return len >= 0 && (size_t)len < n ? dir : NULL;
}

const char *cli_egdb_game(int preset, char *buf, size_t n)
{
    /* The library knows which preset the default rules are. */
    if (mc_egdb_preset_parse("oware", NULL) == preset)
        snprintf(buf, n, "oware");
    else
        snprintf(buf, n, "oware:%s", mc_egdb_preset_name(preset));
    return buf;
}

static const char *locate(int preset, const char *cmd, int build, char *dir,
                          size_t n)
{
    mc_error err = {0, ""};
    char found[4096], user[4096], game[64];
    int have_user = mc_egdb_user_dir(user, sizeof user) == 0;
    mc_egdb *db = mc_egdb_open_default(preset, found, sizeof found, &err);
    if (!db && found[0]) {
        fail(cmd,
             "endgame tables not used: %s; 'mancala egdb build %s --seeds "
             "N --dir %s' rebuilds the damaged layers",
             err.msg, cli_egdb_game(preset, game, sizeof game), found);
        return NULL;
    }
    int top = mc_egdb_max_seeds(db), want = cli_first_seeds();
    int have = db != NULL;
    mc_egdb_close(db);
    if (have) {
        /* A first use that was interrupted leaves fewer layers in the
           user directory: finish the set (the layers there are kept; if
           that fails, the ones there serve). */
        if (build && !build_failed && have_user && !strcmp(found, user) &&
            top < want && first_build(preset, user, want, cmd) == -1)
            build_failed = 1;
        return copy_dir(dir, n, found);
    }
    if (!build || build_failed)
        return NULL;
    if (!have_user) {
        fail(cmd, "endgame tables not built: no home directory (set HOME "
                  "or XDG_DATA_HOME)");
        build_failed = 1;
        return NULL;
    }
    int rc = first_build(preset, user, want, cmd);
    if (rc != 0) {
        build_failed = rc == -1; /* busy: try again at the next call */
        return NULL;
    }
    return copy_dir(dir, n, user);
}

const char *cli_default_tables(const mc_game *g, const char *cmd,
                               int build_if_missing, char *dir, size_t n)
{
    int preset = mc_egdb_preset_of(g, NULL);
    const char *env = getenv("MANCALA_EGDB_DIR");
    if (preset < 0 || (env && !strcmp(env, "none")) || !dir || n == 0)
        return NULL;
    pthread_mutex_lock(&tables_lock);
    const char *r = locate(preset, cmd, build_if_missing, dir, n);
    pthread_mutex_unlock(&tables_lock);
    return r;
}
