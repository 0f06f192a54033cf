/*
 * work.c - the builder's work arrays and its checkpoints inside a layer.
 *
 * An array lives in memory (malloc) while the memory budget allows it,
 * else in a scratch file of the build directory mapped shared: its pages
 * are then the kernel's page cache, which it writes back and drops under
 * pressure, not the process's anonymous memory.  The values computed are
 * the same either way.
 *
 * A checkpoint is the compact sweep's state at the end of a phase (the
 * forward pass, a threshold): the three arrays and the phase, written to
 * <layer>.ckpt.tmp, synced and renamed over <layer>.ckpt, with a header
 * naming the layer and the checksums of the lower layers it was built on
 * and a checksum of the whole.  A build that starts the layer again
 * continues from it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/util.h"
#include "egdb_int.h"

int eg_test_stop_after;

uint64_t eg_mem_available(void)
{
    uint64_t avail = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        unsigned long long kb;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
                avail = (uint64_t)kb << 10;
        fclose(f);
    }
    return avail;
}

int eg_array_alloc(eg_array *a, uint64_t len, const char *path)
{
    memset(a, 0, sizeof *a);
    a->fd = -1;
    a->len = len;
    if (!path) {
        a->p = malloc(len ? len : 1);
        return a->p ? 0 : -1;
    }
    snprintf(a->path, sizeof a->path, "%s", path);
    a->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (a->fd < 0)
        return -1;
    /* The blocks reserved now: a full disk is an error here, not a
       SIGBUS when the mapping is written. */
    int e = posix_fallocate(a->fd, 0, (off_t)(len ? len : 1));
    if (e != 0 && e != EOPNOTSUPP && e != EINVAL) {
        eg_array_free(a);
        errno = e;
        return -1;
    }
    if (e != 0 && ftruncate(a->fd, (off_t)(len ? len : 1)) != 0) {
        eg_array_free(a);
        return -1;
    }
    void *p =
        mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE, MAP_SHARED, a->fd, 0);
    if (p == MAP_FAILED) {
        eg_array_free(a);
        return -1;
    }
    a->p = p;
    return 0;
}

int eg_array_open(eg_array *a, uint64_t len, const char *path)
{
    memset(a, 0, sizeof *a);
    a->len = len;
    snprintf(a->path, sizeof a->path, "%s", path);
    a->fd = open(path, O_RDWR | O_CLOEXEC);
    if (a->fd < 0)
        return -1;
    struct stat st;
    if (fstat(a->fd, &st) != 0 || (uint64_t)st.st_size < len) {
        close(a->fd);
        a->fd = -1;
        errno = errno ? errno : EIO;
        return -1;
    }
    void *p =
        mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE, MAP_SHARED, a->fd, 0);
    if (p == MAP_FAILED) {
        close(a->fd);
        a->fd = -1;
        return -1;
    }
    a->p = p;
    return 0;
}

int eg_file_put(const char *path, uint64_t off, const uint8_t *p, uint64_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    int rc = 0;
    while (len && rc == 0) {
        size_t k = len > (1u << 24) ? (1u << 24) : (size_t)len;
        ssize_t w = pwrite(fd, p, k, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = -1;
            break;
        }
        p += w;
        off += (uint64_t)w;
        len -= (uint64_t)w;
    }
    if (close(fd) != 0)
        rc = -1;
    return rc;
}

void eg_array_free(eg_array *a)
{
    if (a->fd >= 0) {
        if (a->p)
            munmap(a->p, a->len ? a->len : 1);
        close(a->fd);
        unlink(a->path);
    } else {
        free(a->p);
    }
    memset(a, 0, sizeof *a);
    a->fd = -1;
}

/* ---- checkpoints ------------------------------------------------------- */

#define CK_MAGIC "mancala egdb checkpoint 1\n"
#define CK_HEAD 4096

static int write_all(int fd, const uint8_t *p, uint64_t len, eg_sum *s)
{
    while (len) {
        size_t k = len > (1u << 24) ? (1u << 24) : (size_t)len;
        ssize_t w = write(fd, p, k);
        if (w <= 0) {
            if (w < 0 && errno == EINTR)
                continue;
            return -1;
        }
        if (s)
            eg_sum_add(s, p, (size_t)w);
        p += w;
        len -= (uint64_t)w;
    }
    return 0;
}

static int read_all(int fd, uint8_t *p, uint64_t len, eg_sum *s)
{
    while (len) {
        size_t k = len > (1u << 24) ? (1u << 24) : (size_t)len;
        ssize_t r = read(fd, p, k);
        if (r <= 0) {
            if (r < 0 && errno == EINTR)
                continue;
            return -1;
        }
        if (s)
            eg_sum_add(s, p, (size_t)r);
        p += r;
        len -= (uint64_t)r;
    }
    return 0;
}

/* The header: magic, the layer's identity line, the phase, the counts. */
static void ck_header(char *h, const eg_work *wk, uint64_t N, int phase,
                      uint64_t clash)
{
    memset(h, 0, CK_HEAD);
    snprintf(h, CK_HEAD, "%sentries %llu phase %d clash %llu\n%.3900s\n",
             CK_MAGIC, (unsigned long long)N, phase, (unsigned long long)clash,
             wk->head ? wk->head : "");
}

int eg_ckpt_save(const eg_work *wk, uint64_t N, int phase, uint64_t clash)
{
    char tmp[4200], h[CK_HEAD];
    assert(wk->ckpt && wk->cs && wk->eb && wk->val && phase >= 0);
    snprintf(tmp, sizeof tmp, "%s.tmp", wk->ckpt);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    /* the identity line fits whole (ck_header keeps 3,900 bytes of it):
       a checkpoint of another layer never reads as this one's */
    assert(!wk->head || strlen(wk->head) <= 3900);
    ck_header(h, wk, N, phase, clash);
    eg_sum s;
    eg_sum_init(&s, CK_HEAD + 3 * N, 0);
    int ok = write_all(fd, (const uint8_t *)h, CK_HEAD, &s) == 0 &&
             write_all(fd, wk->eb, N, &s) == 0 &&
             write_all(fd, wk->cs, N, &s) == 0 &&
             write_all(fd, wk->val, N, &s) == 0;
    unsigned char sum[8];
    eg_put64(sum, eg_sum_end(&s));
    ok = ok && write_all(fd, sum, 8, NULL) == 0;
    ok = (fsync(fd) == 0) && ok;
    ok = (close(fd) == 0) && ok;
    if (!ok || rename(tmp, wk->ckpt) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* Read and parse the header of a checkpoint of N entries from fd into h
   (CK_HEAD + 1 bytes), adding it to s (may be NULL): 0 and its phase and
   clash count, or -1 when it is not one. */
static int ck_read_header(int fd, char *h, uint64_t N, eg_sum *s, int *phase,
                          uint64_t *clash)
{
    if (read_all(fd, (uint8_t *)h, CK_HEAD, s) != 0)
        return -1;
    h[CK_HEAD] = 0;
    unsigned long long n2 = 0, cl = 0;
    int ph = -1;
    if (strncmp(h, CK_MAGIC, strlen(CK_MAGIC)) != 0 ||
        sscanf(h + strlen(CK_MAGIC), "entries %llu phase %d clash %llu", &n2,
               &ph, &cl) != 3 ||
        n2 != N || ph < 0)
        return -1;
    *phase = ph;
    *clash = cl;
    return 0;
}

int eg_ckpt_load(const eg_work *wk, uint64_t N, int *phase, uint64_t *clash)
{
    int fd = open(wk->ckpt, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    char h[CK_HEAD + 1], want[CK_HEAD];
    eg_sum s;
    eg_sum_init(&s, CK_HEAD + 3 * N, 0);
    int rc = -1, ph;
    uint64_t cl;
    if (ck_read_header(fd, h, N, &s, &ph, &cl) != 0)
        goto out;
    ck_header(want, wk, N, ph, cl);
    if (memcmp(h, want, CK_HEAD) != 0)
        goto out; /* another layer, or built on other lower layers */
    unsigned char sum[8];
    if (read_all(fd, wk->eb, N, &s) != 0 || read_all(fd, wk->cs, N, &s) != 0 ||
        read_all(fd, wk->val, N, &s) != 0 || read_all(fd, sum, 8, NULL) != 0 ||
        eg_get64(sum) != eg_sum_end(&s))
        goto out;
    *phase = ph;
    *clash = cl;
    rc = 0;
out:
    close(fd);
    return rc;
}

void eg_ckpt_remove(const eg_work *wk)
{
    char tmp[4200];
    if (!wk->ckpt)
        return;
    snprintf(tmp, sizeof tmp, "%s.tmp", wk->ckpt);
    unlink(tmp);
    unlink(wk->ckpt);
}

int mc_egdb_checkpoint_phase(const char *dir, int preset, int n, int *done,
                             int *total)
{
    char path[4096], h[CK_HEAD + 1];
    if (n < 0 || n > MC_EGDB_MAX_SEEDS)
        return 0;
    eg_layer_file(dir, preset, n, ".ckpt", path, sizeof path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    int ph;
    uint64_t cl;
    int ok = ck_read_header(fd, h, mc_egdb_layer_size(n), NULL, &ph, &cl) == 0;
    close(fd);
    if (!ok)
        return 0;
    if (done)
        *done = ph;
    if (total)
        *total = eg_thresholds(preset, n);
    return 1;
}
