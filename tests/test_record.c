/*
 * test_record.c - game records: round trips (write, read, write gives the
 * same text and the same games), several games in a file, matches, errors
 * with line and column, the atomic save (a failed write leaves the good
 * file in place), and costs linear in the size: 17,000 tags, 10,000 games
 * read one at a time.
 */
#include <dirent.h>
#include <time.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <utime.h>
#include <unistd.h>

#include "check.h"
#include "mancala.h"
#include "mancala_record.h"

/* Play random legal moves until the game ends (or `limit` plies). */
static void random_moves(mc_record *r, mc_rng *rng, int limit)
{
    mc_session *s = mc_record_session(r);
    for (int i = 0; i < limit && !mc_session_over(s); i++) {
        mc_move mv[MC_MAX_MOVES];
        int n = mc_session_moves(s, mv);
        if (n == 0)
            break;
        mc_session_play(s, mv[mc_rng_below(rng, (uint32_t)n)], NULL, NULL);
    }
}

static int same_games(mc_record *a, mc_record *b)
{
    mc_session *sa = mc_record_session(a), *sb = mc_record_session(b);
    if (mc_session_ply(sa) != mc_session_ply(sb))
        return 0;
    for (int i = 0; i < mc_session_ply(sa); i++)
        if (mc_session_move_at(sa, i) != mc_session_move_at(sb, i))
            return 0;
    mc_result ra, rb;
    mc_session_result(sa, &ra);
    mc_session_result(sb, &rb);
    return ra.over == rb.over && ra.winner == rb.winner &&
           ra.reason == rb.reason && strcmp(ra.detail, rb.detail) == 0 &&
           memcmp(mc_session_pos_at(sa, 0), mc_session_pos_at(sb, 0),
                  sizeof(mc_pos)) == 0;
}

static void test_round_trip(void)
{
    mc_rng rng;
    mc_rng_seed(&rng, 7);
    for (int k = 0; k < 20; k++) {
        mc_error e = {0, ""};
        mc_record *r = mc_record_new(k % 2 ? "oware:awari" : "oware", NULL, &e);
        CHECK(r != NULL);
        if (!r)
            return;
        CHECK(mc_record_set_tag(r, "Event", "Test \"quoted\" \\ event", &e) ==
              0);
        CHECK(mc_record_set_tag(r, "South", "Ama", &e) == 0);
        CHECK(mc_record_set_tag(r, "North", "Kofi", &e) == 0);
        CHECK(mc_record_set_tag(r, "Zeta", "custom tag", &e) == 0);
        CHECK(mc_record_set_tag(r, "Date", "2026.11.29", &e) == 0);
        random_moves(r, &rng, k == 3 ? 9 : 100000);
        CHECK(mc_record_set_comment(r, 0, "before the first move", &e) == 0);
        CHECK(mc_record_set_comment(r, 3, "a comment\non two lines", &e) == 0);
        size_t len;
        char *t1 = mc_records_format(&r, 1, &len);
        CHECK(t1 != NULL && strlen(t1) == len);
        mc_record **back;
        int n;
        mc_record_loc loc;
        int rc = mc_records_read(t1, len, &back, &n, &loc, &e);
        CHECK_MSG(rc == 0 && n == 1, "read: %s\n%s", e.msg, t1);
        if (rc == 0 && n == 1) {
            CHECK(same_games(r, back[0]));
            char *t2 = mc_records_format(back, 1, NULL);
            CHECK_STR(t2, t1);
            CHECK_STR(mc_record_tag(back[0], "Event"),
                      "Test \"quoted\" \\ event");
            CHECK_STR(mc_record_tag(back[0], "Zeta"), "custom tag");
            CHECK_STR(mc_record_comment(back[0], 3), "a comment\non two lines");
            CHECK_STR(mc_record_comment(back[0], 0), "before the first move");
            free(t2);
        }
        /* Tags come out in the documented order: Game first, Date before
           South, Result after the free tags. */
        const char *g = strstr(t1, "[Game "), *d = strstr(t1, "[Date ");
        const char *so = strstr(t1, "[South "), *re = strstr(t1, "[Result ");
        CHECK(g == t1 && d && so && re && d < so && so < re);
        /* the unfinished game ends with '*', a finished one does not */
        CHECK((k == 3) == (len >= 2 && strcmp(t1 + len - 2, "*\n") == 0));
        mc_records_free(back, n);
        free(t1);
        mc_record_free(r);
    }
}

static void test_several_games(void)
{
    mc_rng rng;
    mc_rng_seed(&rng, 11);
    mc_record *r[3];
    const char *specs[3] = {"oware", "oware:grand_slam=win25",
                            "oware:repetition=threefold"};
    for (int i = 0; i < 3; i++) {
        r[i] = mc_record_new(specs[i], NULL, NULL);
        random_moves(r[i], &rng, i == 2 ? 20 : 100000);
    }
    size_t len;
    char *t = mc_records_format(r, 3, &len);
    mc_record **back;
    int n;
    mc_error e = {0, ""};
    int rc = mc_records_read(t, len, &back, &n, NULL, &e);
    CHECK_MSG(rc == 0 && n == 3, "%s", e.msg);
    for (int i = 0; rc == 0 && i < 3 && i < n; i++) {
        CHECK(same_games(r[i], back[i]));
        CHECK_STR(mc_game_spec(mc_record_game(back[i])),
                  mc_game_spec(mc_record_game(r[i])));
    }
    if (rc == 0) {
        char *t2 = mc_records_format(back, n, NULL);
        CHECK_STR(t2, t);
        free(t2);
        mc_records_free(back, n);
    }
    free(t);
    for (int i = 0; i < 3; i++)
        mc_record_free(r[i]);
}

/* The worked example of the Oware rule file (O8b): a draw by repetition
   from a given start; the record carries the Start and result tags. */
static void test_known_game(void)
{
    const char *text =
        "; a comment line before the game\n"
        "[Game \"oware\"]\n"
        "[Start \"1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23\"]\n"
        "[Result \"1/2-1/2\"]\n"
        "\n"
        "1. A a 2. B b 3. C c 4. D d {after E e the game goes on} 5. E e\n"
        "6.F f 1/2-1/2\n";
    mc_record **recs;
    int n;
    mc_error e = {0, ""};
    int rc = mc_records_read(text, strlen(text), &recs, &n, NULL, &e);
    CHECK_MSG(rc == 0 && n == 1, "%s", e.msg);
    if (rc || n != 1)
        return;
    mc_result r;
    mc_session_result(mc_record_session(recs[0]), &r);
    CHECK(r.over && r.winner == MC_DRAW && r.reason == MC_END_REPETITION);
    CHECK_STR(mc_record_tag(recs[0], "Detail"), "24-24");
    CHECK_STR(mc_record_tag(recs[0], "Termination"), "repetition");
    CHECK_STR(mc_record_tag(recs[0], "Start"),
              "1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23");
    CHECK_STR(mc_record_comment(recs[0], 8), "after E e the game goes on");
    char *t = mc_records_format(recs, 1, NULL);
    CHECK_STR(t, "[Game \"oware\"]\n"
                 "[Start \"1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23\"]\n"
                 "[Result \"1/2-1/2\"]\n"
                 "[Termination \"repetition\"]\n"
                 "[Detail \"24-24\"]\n"
                 "\n"
                 "1. A a 2. B b 3. C c 4. D d {after E e the game goes on} 5. "
                 "E e 6. F f 1/2-1/2\n");
    free(t);
    mc_records_free(recs, n);
}

/* Move numbers: "1..." when North begins, and again after a comment. */
static void test_numbering(void)
{
    static const char *const texts[] = {
        "[Game \"oware\"]\n"
        "[Start \"4,4,4,4,4,4/4,4,4,4,4,4 N cap=0,0\"]\n"
        "[Result \"*\"]\n\n"
        "1... a 2. A b *\n",
        "[Game \"oware\"]\n"
        "[Result \"*\"]\n\n"
        "1. C {South opens} 1... d 2. E *\n",
    };
    for (int i = 0; i < 2; i++) {
        mc_record **recs;
        int n;
        mc_error e = {0, ""};
        int rc =
            mc_records_read(texts[i], strlen(texts[i]), &recs, &n, NULL, &e);
        CHECK_MSG(rc == 0 && n == 1, "%s", e.msg);
        if (rc)
            continue;
        char *t = mc_records_format(recs, n, NULL);
        CHECK_STR(t, texts[i]);
        free(t);
        mc_records_free(recs, n);
    }
}

/* A match: Round tags 1, 2, ...; the winner starts the next game (O10). */
static void test_match(void)
{
    mc_rng rng;
    mc_rng_seed(&rng, 5);
    mc_game *g = mc_game_new("oware:match=bo3", NULL);
    mc_match m;
    mc_match_init(g, &m);
    mc_record *r[16];
    int n = 0;
    while (m.winner < 0 && n < 16) {
        mc_pos p;
        mc_start(g, &p);
        p.side = (uint8_t)m.next_first;
        r[n] = mc_record_new("oware:match=bo3", &p, NULL);
        char round[8];
        snprintf(round, sizeof round, "%d", n + 1);
        mc_record_set_tag(r[n], "Round", round, NULL);
        random_moves(r[n], &rng, 100000);
        mc_result res;
        mc_session_result(mc_record_session(r[n]), &res);
        mc_match_record(g, &m, &res);
        n++;
    }
    CHECK(m.winner >= 0 && n >= 2);
    char want[160];
    mc_match_describe(g, &m, want, sizeof want);
    size_t len;
    char *t = mc_records_format(r, n, &len);
    char tagline[200];
    snprintf(tagline, sizeof tagline, "[Match \"%s\"]", want);
    CHECK_MSG(strstr(t, tagline) != NULL, "%s not in\n%s", tagline, t);
    mc_record **back;
    int nb;
    mc_error e = {0, ""};
    int rc = mc_records_read(t, len, &back, &nb, NULL, &e);
    CHECK_MSG(rc == 0 && nb == n, "%s", e.msg);
    if (rc == 0) {
        CHECK_STR(mc_record_tag(back[nb - 1], "Match"), want);
        mc_records_free(back, nb);
    }
    /* A wrong score in the last Match tag is caught. */
    char *bad = malloc(len + 8);
    memcpy(bad, t, len + 1);
    char *at = strstr(bad, tagline);
    at[strlen("[Match \"South ")] ^= 1; /* a digit changes */
    mc_record_loc loc;
    rc = mc_records_read(bad, len, &back, &nb, &loc, &e);
    CHECK(rc != 0 && strstr(e.msg, "Match tag") != NULL && loc.line > 1);
    free(bad);
    /* Round 2 started by the wrong player is caught. */
    mc_record *w[2];
    w[0] = mc_record_new("oware:match=bo3", NULL, NULL);
    mc_record_set_tag(w[0], "Round", "1", NULL);
    mc_session_forfeit(mc_record_session(w[0]), MC_SOUTH, MC_END_RESIGN);
    w[1] = mc_record_new("oware:match=bo3", NULL, NULL); /* South starts */
    mc_record_set_tag(w[1], "Round", "2", NULL);
    char *t2 = mc_records_format(w, 2, &len);
    rc = mc_records_read(t2, len, &back, &nb, &loc, &e);
    CHECK_MSG(rc != 0 && strstr(e.msg, "North should start"), "%s", e.msg);
    free(t2);
    mc_record_free(w[0]);
    mc_record_free(w[1]);
    free(t);
    for (int i = 0; i < n; i++)
        mc_record_free(r[i]);
    mc_game_free(g);
}

/* Reading errors: message and exact line and column. */
static void expect_error(const char *text, int line, int col, const char *msg)
{
    mc_record **recs = (mc_record **)1;
    int n = -1;
    mc_error e = {0, ""};
    mc_record_loc loc = {0, 0};
    int rc = mc_records_read(text, strlen(text), &recs, &n, &loc, &e);
    char where[48];
    snprintf(where, sizeof where, "line %d, column %d: ", line, col);
    CHECK_MSG(rc != 0 && recs == NULL && n == 0 && loc.line == line &&
                  loc.col == col && strncmp(e.msg, where, strlen(where)) == 0 &&
                  strstr(e.msg, msg) != NULL,
              "text '%s': rc=%d at %d:%d '%s' (want %d:%d '%s')", text, rc,
              loc.line, loc.col, e.msg, line, col, msg);
}

static void test_errors(void)
{
    expect_error("[Game \"oware\"]\n\n1. C d 2. Z e *\n", 3, 11, "move 3 (Z)");
    expect_error("[Game \"oware\"]\n\n1. C d 2. a *\n", 3, 11, "move 3 (a)");
    expect_error("[Game \"chess\"]\n1. e4 *\n", 1, 1, "Game tag");
    expect_error("[Game \"oware:grand_slam=maybe\"]\n*\n", 1, 1, "grand_slam");
    expect_error("[Event \"x\"]\n\n1. C *\n", 1, 1, "no [Game");
    expect_error("[Game \"oware\"]\n1. C d\n", 3, 1, "without a result");
    expect_error("[Game \"oware\"]\n1. C d 3. E *\n", 2, 8, "expected 2.");
    expect_error("[Game \"oware\"]\n1. C 1. d *\n", 2, 6, "expected 1...");
    expect_error("[Game \"oware\"]\n1. C d 1-0\n", 2, 8, "does not match");
    expect_error("[Game \"oware\"]\n[Event Foo]\n*\n", 2, 8, "double quotes");
    expect_error("[Game \"oware\"]\n[Event \"Foo]\n*\n", 2, 8, "not closed");
    expect_error("[Game \"oware\"]\n1. C {never closed\n*\n", 2, 6,
                 "never closed");
    expect_error("[Game \"oware\"]\n[Start \"4,4,4 S\"]\n*\n", 2, 1,
                 "Start tag");
    expect_error("[Game \"oware\"]\n[Result \"1-0\"]\n1. C *\n", 3, 6,
                 "Result tag");
    expect_error("[Game \"oware\"]\n[Detail \"25-0\"]\n*\n", 2, 1,
                 "Detail tag");
    expect_error("[Game \"oware\"]\n1. C [Event \"x\"]\n", 2, 6,
                 "tag inside the moves");
    expect_error("[Game \"oware\"]\n[Game \"oware\"]\n*\n", 2, 1, "twice");
    expect_error("[Game \"oware\"]\n1. C d *\nstray\n", 3, 1,
                 "expected the tags of game 2");
    expect_error("[Game \"oware\"]\n[Termination \"resign\"]\n1. C d *\n", 3, 8,
                 "needs a game still going");
    expect_error("[Game \"oware\"]\n1x. C *\n", 2, 1, "neither a move number");
    /* the second game's error names the second game */
    expect_error("[Game \"oware\"]\n*\n\n[Game \"oware\"]\n1. F f 2. q *\n", 5,
                 11, "game 2, move 3 (q)");
    /* NUL bytes and control characters are reported, not read past */
    expect_error("[Game \"oware\"]\n1. C\001 *\n", 2, 5, "control character");
    static const char nul[] = "[Game \"oware\"]\n1. C {a\0b} *\n";
    mc_record **recs;
    int n;
    mc_error e = {0, ""};
    mc_record_loc loc;
    CHECK(mc_records_read(nul, sizeof nul - 1, &recs, &n, &loc, &e) != 0 &&
          loc.line == 2 && loc.col == 8 && strstr(e.msg, "NUL"));
    /* A resignation: the moves leave the game going, the tag ends it. */
    const char *res =
        "[Game \"oware\"]\n[Termination \"resign\"]\n1. C d 0-1\n";
    int rc = mc_records_read(res, strlen(res), &recs, &n, &loc, &e);
    CHECK_MSG(rc == 0 && n == 1, "%s", e.msg);
    if (rc == 0) {
        CHECK_STR(mc_record_tag(recs[0], "Detail"), "South resigned");
        CHECK_STR(mc_record_tag(recs[0], "Result"), "0-1");
        char *t = mc_records_format(recs, 1, NULL);
        CHECK(
            strstr(t, "[Termination \"resign\"]\n[Detail \"South resigned\"]"));
        free(t);
        mc_records_free(recs, n);
    }
    /* Derived tags cannot be set; bad tag names and comments are refused. */
    mc_record *r = mc_record_new("oware", NULL, NULL);
    CHECK(mc_record_set_tag(r, "Result", "1-0", &e) != 0);
    CHECK(mc_record_set_tag(r, "Bad name", "x", &e) != 0);
    CHECK(mc_record_set_tag(r, "Event", "line\nbreak", &e) != 0);
    CHECK(mc_record_set_comment(r, 1, "a } inside", &e) != 0);
    CHECK(mc_record_set_tag(r, "Event", "ok", &e) == 0);
    CHECK(mc_record_set_tag(r, "Event", NULL, &e) == 0 &&
          mc_record_tag(r, "Event") == NULL);
    mc_record_free(r);
}

static int count_tmp(const char *dir)
{
    DIR *d = opendir(dir);
    int k = 0;
    struct dirent *de;
    while (d && (de = readdir(d)))
        k += strstr(de->d_name, ".tmp") != NULL;
    if (d)
        closedir(d);
    return k;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char b[1 << 16];
    size_t n = fread(b, 1, sizeof b - 1, f);
    b[n] = '\0';
    fclose(f);
    return b;
}

static void test_atomic_save(void)
{
    char dir[] = "/tmp/mc_record_XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(0);
        return;
    }
    char path[64];
    snprintf(path, sizeof path, "%s/game.mcr", dir);
    mc_record *r = mc_record_new("oware", NULL, NULL);
    mc_session_play_str(mc_record_session(r), "C", NULL, NULL);
    mc_error e = {0, ""};
    CHECK(mc_records_save(path, &r, 1, &e) == 0);
    char good[4096];
    snprintf(good, sizeof good, "%s", slurp(path) ? slurp(path) : "");
    CHECK(strstr(good, "1. C *") != NULL);
    /* A long game whose text cannot be written: a child process with a
       file-size limit of 64 bytes (the write fails with EFBIG). */
    mc_rng rng;
    mc_rng_seed(&rng, 3);
    random_moves(r, &rng, 100000);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit rl = {64, 64};
        signal(SIGXFSZ, SIG_IGN);
        setrlimit(RLIMIT_FSIZE, &rl);
        mc_error ce = {0, ""};
        int rc = mc_records_save(path, &r, 1, &ce);
        _exit(rc != 0 && strstr(ce.msg, "cannot write") ? 0 : 1);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK_STR(slurp(path) ? slurp(path) : "", good);
    CHECK(count_tmp(dir) == 0);
    /* A missing directory: an error naming the file, nothing created. */
    char nodir[96];
    snprintf(nodir, sizeof nodir, "%s/missing/game.mcr", dir);
    CHECK(mc_records_save(nodir, &r, 1, &e) == MC_ERR_IO &&
          strstr(e.msg, "missing/game.mcr"));
    /* And a successful save replaces the file with the whole game. */
    CHECK(mc_records_save(path, &r, 1, &e) == 0);
    mc_record **back;
    int n;
    CHECK(mc_records_load(path, &back, &n, NULL, &e) == 0 && n == 1 &&
          same_games(back[0], r));
    mc_records_free(back, n);
    CHECK(count_tmp(dir) == 0);
    /* A temporary file an earlier save left (killed) is removed once an
       hour old; a fresh one (a save in progress elsewhere) is kept. */
    char old_tmp[96], new_tmp[96];
    snprintf(old_tmp, sizeof old_tmp, "%s.tmpAbC123", path);
    snprintf(new_tmp, sizeof new_tmp, "%s.tmpXyZ789", path);
    FILE *tf = fopen(old_tmp, "w");
    if (tf)
        fclose(tf);
    tf = fopen(new_tmp, "w");
    if (tf)
        fclose(tf);
    struct utimbuf past = {time(NULL) - 7200, time(NULL) - 7200};
    utime(old_tmp, &past);
    CHECK(count_tmp(dir) == 2);
    CHECK(mc_records_save(path, &r, 1, &e) == 0);
    CHECK(access(old_tmp, F_OK) != 0 && access(new_tmp, F_OK) == 0);
    unlink(new_tmp);
    /* A file made private stays private when saved again (it was reset
       to 0644); a new file is 0644. */
    struct stat sb;
    CHECK(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0644);
    chmod(path, 0600);
    CHECK(mc_records_save(path, &r, 1, &e) == 0);
    CHECK(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0600);
    CHECK(mc_records_load(nodir, &back, &n, NULL, &e) == MC_ERR_IO);
    unlink(path);
    rmdir(dir);
    mc_record_free(r);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* 17,000 tags: read, listed and written in linear time (it was quadratic:
   7.9 s to read, seconds for every listing).  The bound is loose (a
   loaded machine); the linear code takes milliseconds. */
static void test_many_tags(void)
{
    size_t cap = 17000 * 24 + 64, len = 0;
    char *t = malloc(cap);
    len += (size_t)sprintf(t, "[Game \"oware\"]\n");
    for (int i = 0; i < 17000; i++)
        len += (size_t)sprintf(t + len, "[T%d \"%d\"]\n", i, i);
    len += (size_t)sprintf(t + len, "\n1. C *\n");
    double t0 = now_s();
    mc_record **recs;
    int n;
    mc_record_loc loc;
    mc_error e;
    CHECK(mc_records_read(t, len, &recs, &n, &loc, &e) == 0 && n == 1);
    if (n == 1) {
        const char *name, *value;
        int k = 0;
        while (mc_record_tag_at(recs[0], k, &name, &value))
            k++;
        CHECK(k == 17000);
        CHECK_STR(mc_record_tag(recs[0], "T16999"), "16999");
        CHECK(mc_record_tag_at(recs[0], 3, &name, &value) &&
              strcmp(name, "T3") == 0);
        size_t wl;
        char *w = mc_records_format(recs, n, &wl);
        CHECK(w && strstr(w, "[T16999 \"16999\"]"));
        free(w);
        /* removing one keeps the others found */
        CHECK(mc_record_set_tag(recs[0], "T5", NULL, NULL) == 0);
        CHECK(mc_record_tag(recs[0], "T5") == NULL);
        CHECK_STR(mc_record_tag(recs[0], "T6"), "6");
        mc_records_free(recs, n);
    }
    double dt = now_s() - t0;
    CHECK_MSG(dt < 1.0, "17,000 tags took %.2f s", dt);
    /* a tag given twice is still named, at its second place */
    strcpy(t + len - 8, "[T7 \"x\"]\n\n1. C *\n");
    int line = 17000 + 2;
    char want[64];
    snprintf(want, sizeof want, "line %d, column 1: the T7 tag appears twice",
             line);
    CHECK(mc_records_read(t, strlen(t), &recs, &n, &loc, &e) != 0);
    CHECK_STR(e.msg, want);
    free(t);
}

static int count_and_free(void *ctx, mc_record *r)
{
    int *c = ctx;
    mc_record_free(r);
    return ++*c == 7000 ? 42 : 0;
}

/* mc_records_scan: one game at a time, stopped when asked. */
static void test_scan(void)
{
    size_t len = 0;
    char *t = malloc(10000 * 20);
    for (int i = 0; i < 10000; i++)
        len += (size_t)sprintf(t + len, "[Game \"omweso\"]\n*\n");
    int c = 0;
    mc_record_loc loc;
    mc_error e;
    CHECK(mc_records_scan(t, len, count_and_free, &c, &loc, &e) == 42 &&
          c == 7000);
    free(t);
}

int main(void)
{
    test_many_tags();
    test_scan();
    test_round_trip();
    test_several_games();
    test_known_game();
    test_numbering();
    test_match();
    test_errors();
    test_atomic_save();
    return check_report("test_record");
}
