/*
 * journal.c - the search journal of a layer (docs/EGDB.md, "Resuming a
 * layer"): the abapa history search appends each value it finds, exact
 * ones only, as a line "rank value", so a killed build resumes inside the
 * layer instead of searching it again from the start.  The first line
 * names what the values depend on (the rules string, the layer, the
 * builder version and the checksums of the lower layers); a journal whose
 * first line differs, or with a value outside its position's bounds, is
 * stale and started again.  A line cut short by a kill is cut off.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/util.h"
#include "egdb_int.h"

/* Whether line s (without its newline) is "rank value" with a rank below
   N and a value within [-n, n]. */
static int parse_line(const char *s, uint64_t N, int n, uint64_t *x, int *v)
{
    char *end;
    if (*s < '0' || *s > '9')
        return 0;
    errno = 0;
    unsigned long long r = strtoull(s, &end, 10);
    if (errno || *end != ' ' || r >= N)
        return 0;
    s = end + 1;
    if (!(*s == '-' || (*s >= '0' && *s <= '9')))
        return 0;
    long w = strtol(s, &end, 10);
    if (*end != '\0' || w < -n || w > n)
        return 0;
    *x = r;
    *v = (int)w;
    return 1;
}

/* The entries of a journal (stream f) into F and done, marking them
   `mark`; 1 when its first line is head and every entry fits the bounds,
   with *keep the length of its valid lines; 0 when it is stale (then none
   of its entries stays done: the caller sets their F with the others'). */
static int load(FILE *f, const char *head, int n, const eg_bounds *b, int8_t *F,
                uint8_t *done, uint8_t mark, uint64_t *loaded, long *keep)
{
    uint64_t N = mc_egdb_layer_size(n), got = 0;
    char line[512];
    int ok = fgets(line, sizeof line, f) && strcmp(line, head) == 0;
    *keep = ok ? ftell(f) : 0;
    while (ok && fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        if (len == 0 || line[len - 1] != '\n')
            break; /* cut short by a kill: dropped */
        line[len - 1] = '\0';
        uint64_t x;
        int v;
        if (!parse_line(line, N, n, &x, &v))
            break; /* not ours: what follows is dropped */
        if (b->P[x] >= b->O[x] || v < b->P[x] || v > b->O[x] || ((v - n) & 1)) {
            ok = 0; /* a value the bounds rule out: stale */
            break;
        }
        assert(x < N && v >= b->P[x] && v <= b->O[x]); /* checked above */
        if (!done[x]) {
            F[x] = (int8_t)v;
            done[x] = mark;
            got++;
        }
        *keep = ftell(f);
    }
    if (!ok) {
        for (uint64_t x = 0; x < N; x++)
            if (done[x] == mark)
                done[x] = 0; /* its F is set again by the caller */
        got = 0;
    }
    *loaded += got;
    return ok;
}

int eg_journal_open(eg_journal *j, const char *path, const char *head, int n,
                    const eg_bounds *b, const char *shipped, int8_t *F,
                    uint8_t *done, uint64_t *loaded, mc_error *err)
{
    long keep = 0;
    *loaded = 0;
    j->f = NULL;
    if (shipped) {
        FILE *s = fmemopen((void *)(uintptr_t)shipped, strlen(shipped), "r");
        if (s) {
            load(s, head, n, b, F, done, 1, loaded, &keep);
            fclose(s);
        }
    }
    FILE *old = fopen(path, "r");
    int ok = old && load(old, head, n, b, F, done, 2, loaded, &keep);
    if (old)
        fclose(old);
    if (ok) {
        if (truncate(path, keep) == 0)
            j->f = fopen(path, "a");
    } else {
        j->f = fopen(path, "w");
        if (j->f && (fputs(head, j->f) == EOF || fflush(j->f) != 0)) {
            fclose(j->f);
            j->f = NULL;
        }
    }
    if (!j->f)
        return mc_err(err, MC_ERR_IO, "cannot write the search journal %s: %s",
                      path, strerror(errno));
    if (pthread_mutex_init(&j->mu, NULL) != 0) {
        fclose(j->f);
        j->f = NULL;
        return mc_err(err, MC_ERR_IO, "cannot start the search journal");
    }
    return 0;
}

void eg_journal_add(eg_journal *j, uint64_t x, int v)
{
    /* what the searches find: values of a layer, -48..48 */
    assert(v >= -MC_EGDB_MAX_SEEDS && v <= MC_EGDB_MAX_SEEDS);
    if (!j || !j->f)
        return;
    pthread_mutex_lock(&j->mu);
    fprintf(j->f, "%" PRIu64 " %d\n", x, v);
    fflush(j->f);
    pthread_mutex_unlock(&j->mu);
}

int eg_journal_close(eg_journal *j)
{
    if (!j->f)
        return 0;
    int rc = ferror(j->f) ? -1 : 0;
    if (fclose(j->f) != 0)
        rc = -1;
    j->f = NULL;
    pthread_mutex_destroy(&j->mu);
    return rc;
}

void eg_journal_head(const char *spec, int n, const uint64_t *dep_sum,
                     char *buf, size_t sz)
{
    assert(n >= 0 && n <= MC_EGDB_MAX_SEEDS && spec);
    uint64_t key =
        eg_checksum(dep_sum, (size_t)n * sizeof *dep_sum, (uint64_t)n);
    snprintf(buf, sz,
             "mancala egdb search journal 1 %s n=%d builder=%d "
             "deps=%016" PRIx64 "\n",
             spec, n, EG_BUILDER_VERSION, key);
}

void mc_egdb_journal_path(const char *dir, int preset, int n, char *buf,
                          size_t sz)
{
    eg_layer_file(dir ? dir : "", preset, n, ".journal", buf, sz);
}

const char *eg_shipped(int preset, int n)
{
    char name[64];
    eg_layer_file(NULL, preset, n, "", name, sizeof name);
    return eg_shipped_journal(name);
}

int mc_egdb_shipped(int preset, int n)
{
    return eg_shipped(preset, n) != NULL;
}

long long mc_egdb_journal_values(const char *dir, int preset, int n)
{
    char path[4096];
    mc_egdb_journal_path(dir, preset, n, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long long lines = 0;
    int c;
    while ((c = getc(f)) != EOF)
        lines += c == '\n';
    fclose(f);
    return lines > 0 ? lines - 1 : 0;
}
