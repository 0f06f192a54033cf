/*
 * file.c - whole files read and written atomically (file.h).  The only
 * file I/O of the core; nothing here knows what the text means.
 */
#include "file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

/* Temporary files of earlier saves of path that a crash (kill -9, a power
   cut) left in dir: "<name>.tmpXXXXXX" untouched for an hour (a save in
   progress elsewhere is seconds old), removed. */
static void sweep_stale(const char *dir, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t bl = strlen(base);
    DIR *d = opendir(dir);
    if (!d)
        return;
    time_t now = time(NULL);
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *n = de->d_name;
        if (strlen(n) != bl + 10 || strncmp(n, base, bl) != 0 ||
            strncmp(n + bl, ".tmp", 4) != 0)
            continue;
        char full[4096];
        struct stat st;
        if (snprintf(full, sizeof full, "%s/%s", dir, n) < (int)sizeof full &&
            lstat(full, &st) == 0 && S_ISREG(st.st_mode) &&
            now - st.st_mtime > 3600)
            unlink(full);
    }
    closedir(d);
}

int mc_file_read(const char *path, size_t max, char **out, size_t *len,
                 mc_error *err)
{
    *out = NULL;
    *len = 0;
    /* Opened without waiting (a FIFO named like a record would hang the
       reader until someone writes to it), and only a plain file read. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return mc_err(err, MC_ERR_IO, "%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return mc_err(err, MC_ERR_IO, "%s: not a plain file", path);
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return mc_err(err, MC_ERR_IO, "%s: %s", path, strerror(errno));
    }
    char *b = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        size_t nc = mc_grow(&b, cap, n + 65536 + 1, 1, 65536);
        if (!nc) {
            free(b);
            fclose(f);
            return mc_err(err, MC_ERR_IO, "%s: out of memory", path);
        }
        cap = nc;
        size_t k = fread(b + n, 1, cap - n - 1, f);
        n += k;
        if (k == 0 || n > max)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad || n > max) {
        free(b);
        if (bad)
            return mc_err(err, MC_ERR_IO, "%s: read error", path);
        if (max >= (1u << 20))
            return mc_err(err, MC_ERR_IO, "%s: larger than %zu MiB", path,
                          max >> 20);
        return mc_err(err, MC_ERR_IO, "%s: larger than %zu bytes", path, max);
    }
    assert(n < cap); /* room for the terminator */
    b[n] = '\0';
    *out = b;
    *len = n;
    return 0;
}

static int write_all(int fd, const char *b, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, b, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

int mc_file_save(const char *path, const char *text, size_t len, mc_error *err)
{
    size_t pl = strlen(path);
    char *tmp = malloc(pl + 16), *dir = malloc(pl + 2);
    if (!tmp || !dir) {
        free(tmp);
        free(dir);
        return mc_err(err, MC_ERR_IO, "out of memory");
    }
    /* The temporary file sits beside the target so that rename is atomic. */
    snprintf(tmp, pl + 16, "%s.tmpXXXXXX", path);
    memcpy(dir, path, pl + 1);
    char *slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    int rc = 0;
    sweep_stale(dir, path);
    /* A file replaced keeps its mode (a record kept private stays so); a
       new one is 0644. */
    struct stat old;
    mode_t mode = stat(path, &old) == 0 ? old.st_mode & 07777 : 0644;
    int fd = mkstemp(tmp);
    if (fd < 0) {
        rc = mc_err(err, MC_ERR_IO, "%s: cannot create a temporary file: %s",
                    path, strerror(errno));
        goto out;
    }
    if (write_all(fd, text, len) != 0 || fsync(fd) != 0) {
        rc = mc_err(err, MC_ERR_IO, "%s: cannot write: %s", path,
                    strerror(errno));
        close(fd);
        unlink(tmp);
        goto out;
    }
    fchmod(fd, mode);
    if (close(fd) != 0) {
        rc = mc_err(err, MC_ERR_IO, "%s: cannot write: %s", path,
                    strerror(errno));
        unlink(tmp);
        goto out;
    }
    if (rename(tmp, path) != 0) {
        rc = mc_err(err, MC_ERR_IO, "%s: cannot replace: %s", path,
                    strerror(errno));
        unlink(tmp);
        goto out;
    }
    /* Make the rename itself durable. */
    int dfd = open(dir, O_RDONLY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
out:
    free(tmp);
    free(dir);
    return rc;
}
