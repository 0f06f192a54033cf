/*
 * test_egdb_dirs.c - where endgame tables are looked up without a named
 * directory (src/egdb/dirs.c): the user directory from XDG_DATA_HOME and
 * HOME, the search order MANCALA_EGDB_DIR, user directory, share
 * directory, MANCALA_EGDB_DIR=none, damaged tables, and creating
 * directories.  Everything happens in a temporary directory: the test
 * sets XDG_DATA_HOME and HOME itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "mancala_egdb.h"

static char tmp[256];

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static void test_user_dir(void)
{
    char buf[512], want[600];
    setenv("XDG_DATA_HOME", "/data/x", 1);
    setenv("HOME", "/home/u", 1);
    CHECK(mc_egdb_user_dir(buf, sizeof buf) == 0);
    CHECK_STR(buf, "/data/x/mancala/egdb");
    /* Empty or relative XDG_DATA_HOME: as if unset (XDG base dirs). */
    setenv("XDG_DATA_HOME", "", 1);
    CHECK(mc_egdb_user_dir(buf, sizeof buf) == 0);
    CHECK_STR(buf, "/home/u/.local/share/mancala/egdb");
    setenv("XDG_DATA_HOME", "rel/data", 1);
    CHECK(mc_egdb_user_dir(buf, sizeof buf) == 0);
    CHECK_STR(buf, "/home/u/.local/share/mancala/egdb");
    unsetenv("XDG_DATA_HOME");
    CHECK(mc_egdb_user_dir(buf, sizeof buf) == 0);
    CHECK_STR(buf, "/home/u/.local/share/mancala/egdb");
    /* Too small a buffer: -1, not a cut name. */
    CHECK(mc_egdb_user_dir(buf, 10) == -1);
    CHECK(mc_egdb_user_dir(buf, strlen("/home/u/.local/share/mancala/egdb")) ==
          -1);
    CHECK(mc_egdb_user_dir(buf, strlen("/home/u/.local/share/mancala/egdb") +
                                    1) == 0);
    /* Neither known. */
    unsetenv("HOME");
    CHECK(mc_egdb_user_dir(buf, sizeof buf) == -1);
    setenv("HOME", "", 1);
    CHECK(mc_egdb_user_dir(buf, sizeof buf) == -1);
    setenv("XDG_DATA_HOME", tmp, 1);
    CHECK(mc_egdb_user_dir(buf, sizeof buf) == 0);
    snprintf(want, sizeof want, "%s/mancala/egdb", tmp);
    CHECK_STR(buf, want);
    /* The share folder is the Makefile's, with /egdb. */
    const char *sd = mc_egdb_share_dir();
    CHECK(sd[0] == '/' && strlen(sd) > 5 &&
          strcmp(sd + strlen(sd) - 5, "/egdb") == 0);
}

static void test_ensure_dir(void)
{
    char p[512], f[512];
    mc_error err = {0, ""};
    snprintf(p, sizeof p, "%s/a/b//c/", tmp);
    CHECK(mc_egdb_ensure_dir(p, &err) == 0);
    snprintf(p, sizeof p, "%s/a/b/c", tmp);
    CHECK(is_dir(p));
    CHECK(mc_egdb_ensure_dir(p, &err) == 0); /* already there */
    /* A file where a directory should be: refused, with its name. */
    snprintf(f, sizeof f, "%s/a/file", tmp);
    FILE *fp = fopen(f, "w");
    CHECK(fp != NULL);
    if (fp)
        fclose(fp);
    snprintf(p, sizeof p, "%s/a/file/sub", tmp);
    err.code = 0;
    CHECK(mc_egdb_ensure_dir(p, &err) == MC_ERR_IO);
    CHECK(err.code == MC_ERR_IO && strstr(err.msg, "not a directory") &&
          strstr(err.msg, "a/file"));
    CHECK(mc_egdb_ensure_dir(f, &err) == MC_ERR_IO);
    CHECK(mc_egdb_ensure_dir("", &err) == MC_ERR_ARG);
}

/* Layers 0-3 of abapa into dir (created). */
static int build_small(const char *dir)
{
    mc_error err = {0, ""};
    mc_egdb_build_opts o;
    memset(&o, 0, sizeof o);
    if (mc_egdb_ensure_dir(dir, &err) != 0)
        return -1;
    o.dir = dir;
    o.preset = MC_EGDB_ABAPA;
    o.max_seeds = 3;
    o.threads = 1;
    return mc_egdb_build(&o, &err);
}

static void test_search_order(void)
{
    char user[512], env[512], empty[512], got[512], path[600];
    mc_error err = {0, ""};
    snprintf(user, sizeof user, "%s/xdg/mancala/egdb", tmp);
    snprintf(env, sizeof env, "%s/env", tmp);
    snprintf(empty, sizeof empty, "%s/empty", tmp);
    snprintf(path, sizeof path, "%s/xdg", tmp);
    setenv("XDG_DATA_HOME", path, 1);
    setenv("HOME", tmp, 1);
    unsetenv("MANCALA_EGDB_DIR");
    CHECK(mc_egdb_ensure_dir(empty, &err) == 0);
    /* Whether the installed share folder holds tables on this machine:
       the "nothing anywhere" checks hold only when it does not. */
    mc_egdb_path(mc_egdb_share_dir(), MC_EGDB_ABAPA, 0, path, sizeof path);
    int share = access(path, F_OK) == 0;

    mc_egdb *db = mc_egdb_open_default(MC_EGDB_ABAPA, got, sizeof got, &err);
    if (!share) {
        CHECK(db == NULL);
        CHECK_STR(got, "");
        CHECK(strstr(err.msg, "no abapa endgame tables in") &&
              strstr(err.msg, user) && strstr(err.msg, mc_egdb_share_dir()));
    }
    mc_egdb_close(db);

    CHECK(build_small(user) == 0);
    CHECK(build_small(env) == 0);
    /* The user directory. */
    db = mc_egdb_open_default(MC_EGDB_ABAPA, got, sizeof got, &err);
    CHECK(db != NULL);
    CHECK_STR(got, user);
    CHECK(mc_egdb_max_seeds(db) == 3);
    mc_egdb_close(db);
    /* dir may be NULL. */
    db = mc_egdb_open_default(MC_EGDB_ABAPA, NULL, 0, &err);
    CHECK(db != NULL && mc_egdb_max_seeds(db) == 3);
    mc_egdb_close(db);
    /* No awari tables anywhere (only abapa's were built). */
    db = mc_egdb_open_default(MC_EGDB_AWARI, got, sizeof got, &err);
    if (!share) {
        CHECK(db == NULL);
        CHECK(strstr(err.msg, "no awari endgame tables") != NULL);
    }
    mc_egdb_close(db);
    /* MANCALA_EGDB_DIR comes first ... */
    setenv("MANCALA_EGDB_DIR", env, 1);
    db = mc_egdb_open_default(MC_EGDB_ABAPA, got, sizeof got, &err);
    CHECK(db != NULL);
    CHECK_STR(got, env);
    mc_egdb_close(db);
    /* ... but a directory without the preset's layer 0 is passed over. */
    setenv("MANCALA_EGDB_DIR", empty, 1);
    db = mc_egdb_open_default(MC_EGDB_ABAPA, got, sizeof got, &err);
    CHECK(db != NULL);
    CHECK_STR(got, user);
    mc_egdb_close(db);
    /* A name that does not fit: refused, not cut. */
    db = mc_egdb_open_default(MC_EGDB_ABAPA, got, 8, &err);
    CHECK(db == NULL && got[0] == '\0');
    mc_egdb_close(db);
    /* none: no tables at all, though there are some. */
    setenv("MANCALA_EGDB_DIR", "none", 1);
    db = mc_egdb_open_default(MC_EGDB_ABAPA, got, sizeof got, &err);
    CHECK(db == NULL);
    CHECK_STR(got, "");
    CHECK(strstr(err.msg, "MANCALA_EGDB_DIR=none") != NULL);
    /* Empty: as if unset. */
    setenv("MANCALA_EGDB_DIR", "", 1);
    db = mc_egdb_open_default(MC_EGDB_ABAPA, got, sizeof got, &err);
    CHECK(db != NULL);
    CHECK_STR(got, user);
    mc_egdb_close(db);
    unsetenv("MANCALA_EGDB_DIR");
    /* HOME only: $HOME/.local/share/mancala/egdb is looked at. */
    unsetenv("XDG_DATA_HOME");
    db = mc_egdb_open_default(MC_EGDB_ABAPA, got, sizeof got, &err);
    if (!share)
        CHECK(db == NULL && strstr(err.msg, "/.local/share/mancala/egdb"));
    mc_egdb_close(db);
    snprintf(path, sizeof path, "%s/xdg", tmp);
    setenv("XDG_DATA_HOME", path, 1);
    CHECK(mc_egdb_open_default(7, got, sizeof got, &err) == NULL &&
          err.code == MC_ERR_ARG);

    /* Damaged tables in the first place that has them: a message naming
       the file, the directory reported, and no fallback to another place
       (which would hide the damage). */
    setenv("MANCALA_EGDB_DIR", env, 1);
    mc_egdb_path(env, MC_EGDB_ABAPA, 2, path, sizeof path);
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (f) {
        fseek(f, 4100, SEEK_SET);
        int c = fgetc(f);
        fseek(f, 4100, SEEK_SET);
        fputc(c ^ 0x5a, f);
        fclose(f);
    }
    err.msg[0] = 0;
    db = mc_egdb_open_default(MC_EGDB_ABAPA, got, sizeof got, &err);
    CHECK(db == NULL);
    CHECK_STR(got, env);
    CHECK_MSG(strstr(err.msg, "oware-abapa-02.egdb") &&
                  strstr(err.msg, "checksum"),
              "%s", err.msg);
    /* A directory where layer 0 should be: passed over. */
    mc_egdb_path(empty, MC_EGDB_ABAPA, 0, path, sizeof path);
    CHECK(mc_egdb_ensure_dir(path, &err) == 0);
    setenv("MANCALA_EGDB_DIR", empty, 1);
    db = mc_egdb_open_default(MC_EGDB_ABAPA, got, sizeof got, &err);
    CHECK(db != NULL);
    CHECK_STR(got, user);
    mc_egdb_close(db);
    unsetenv("MANCALA_EGDB_DIR");
}

int main(void)
{
    snprintf(tmp, sizeof tmp, "/tmp/mancala-egdb-dirs-XXXXXX");
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    test_user_dir();
    test_ensure_dir();
    test_search_order();
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    return check_report("test_egdb_dirs");
}
