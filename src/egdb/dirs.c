/*
 * dirs.c - the places endgame tables live when no directory is named: the
 * user's data directory (XDG base-directory rules), the installed share
 * folder (MC_SHAREDIR, set by the Makefile from PREFIX), and the
 * MANCALA_EGDB_DIR override; opening the first that holds a preset's
 * tables, and creating a directory with its parents.  Like the rest of
 * the library it never prints: every failure is a message in an mc_error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "../core/util.h"
#include "egdb_int.h"

#ifndef MC_SHAREDIR
#define MC_SHAREDIR "/usr/local/share/mancala"
#endif

const char *mc_egdb_share_dir(void)
{
    return MC_SHAREDIR "/egdb";
}

int mc_egdb_user_dir(char *buf, size_t n)
{
    const char *x = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int len;
    /* The base-directory spec: a relative XDG_DATA_HOME is invalid and
       ignored, as if unset. */
    if (x && x[0] == '/')
        len = snprintf(buf, n, "%s/mancala/egdb", x);
    else if (home && *home)
        len = snprintf(buf, n, "%s/.local/share/mancala/egdb", home);
    else
        return -1;
    return len < 0 || (size_t)len >= n ? -1 : 0;
}

/* 1 when dir holds layer 0 of the preset (a file by that name, plain or
   compressed). */
static int holds_layer0(const char *dir, int preset)
{
    char path[4096];
    struct stat st;
    return eg_layer_file_any(dir, preset, 0, path, sizeof path) >= 0 &&
           stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

mc_egdb *mc_egdb_open_default(int preset, char *dir, size_t n, mc_error *err)
{
    if (dir && n)
        dir[0] = '\0';
    if (preset != MC_EGDB_ABAPA && preset != MC_EGDB_AWARI) {
        mc_err(err, MC_ERR_ARG, "unknown preset %d", preset);
        return NULL;
    }
    const char *env = getenv("MANCALA_EGDB_DIR");
    if (env && !strcmp(env, "none")) {
        mc_err(err, MC_ERR_ARG,
               "endgame tables are turned off (MANCALA_EGDB_DIR=none)");
        return NULL;
    }
    char user[4096];
    const char *place[3];
    int k = 0;
    if (env && *env)
        place[k++] = env;
    if (mc_egdb_user_dir(user, sizeof user) == 0)
        place[k++] = user;
    place[k++] = mc_egdb_share_dir();
    for (int i = 0; i < k; i++) {
        if (!holds_layer0(place[i], preset))
            continue;
        if (dir && n) {
            int len = snprintf(dir, n, "%s", place[i]);
            if (len < 0 || (size_t)len >= n) {
                dir[0] = '\0';
                mc_err(err, MC_ERR_ARG,
                       "the directory name %s does not fit in %zu bytes",
                       place[i], n);
                return NULL;
            }
        }
        /* The first place that holds the tables is the one used, damaged
           or not: falling back to another would hide the damage. */
        return mc_egdb_open(place[i], preset, -1, err);
    }
    char places[3 * 4096 + 16];
    mc_sb sb;
    mc_sb_init(&sb, places, sizeof places);
    for (int i = 0; i < k; i++)
        mc_sb_printf(&sb, "%s%s",
                     i == 0       ? ""
                     : i == k - 1 ? " or "
                                  : ", ",
                     place[i]);
    mc_err(err, MC_ERR_IO, "no %s endgame tables in %s",
           mc_egdb_preset_name(preset), places);
    return NULL;
}

int mc_egdb_ensure_dir(const char *path, mc_error *err)
{
    char buf[4096];
    struct stat st;
    if (!path || !*path)
        return mc_err(err, MC_ERR_ARG, "empty directory name");
    int len = snprintf(buf, sizeof buf, "%s", path);
    if (len < 0 || (size_t)len >= sizeof buf)
        return mc_err(err, MC_ERR_ARG, "directory name too long: %.200s", path);
    /* Each parent in turn, then the directory itself (the loop's last
       round, at the terminating NUL). */
    for (char *q = buf + 1;; q++) {
        if (*q != '/' && *q != '\0')
            continue;
        char c = *q;
        *q = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) {
            int e = errno;
            return mc_err(err, MC_ERR_IO, "cannot create directory %s: %s", buf,
                          strerror(e));
        }
        if (stat(buf, &st) != 0) {
            int e = errno;
            return mc_err(err, MC_ERR_IO, "cannot create directory %s: %s", buf,
                          strerror(e));
        }
        if (!S_ISDIR(st.st_mode))
            return mc_err(err, MC_ERR_IO,
                          "cannot create directory %s: %s is not a "
                          "directory",
                          path, buf);
        *q = c;
        if (c == '\0')
            break;
        while (q[1] == '/')
            q++; /* "a//b" */
    }
    return 0;
}
