/*
 * test_rules.c - runs the rule cases in tests/rules/<game>/<name>.t.
 *
 * A .t file holds cases separated by blank lines; '#' starts a comment.
 * Each case is a set of "key: value" lines:
 *   rule:     the rule number(s) the case pins down (required: O5, S4 G6)
 *   game:     the game spec (required)
 *   position: a position string or "start" (default start)
 *   moves:    move tokens played in order through the session layer
 * and one or more expectations about the state after the moves:
 *   expect:   the position string
 *   legal:    the legal moves, space-separated (may be empty)
 *   over:     the `mancala apply` result line without "over " ("N 17-27",
 *             "draw 24-24"), or "no" when the game goes on
 *   error:    the last move (or the position, or the game spec) is rejected
 *             with a message containing this text
 *   perft:    "<depth> <count>" from the position after the moves
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mancala.h"

typedef struct tcase {
    char rule[64], game[256], position[512], moves[4096];
    char expect[512], legal[4096], over[128], error[256], perft[64];
    int has_expect, has_legal, has_over, has_error, has_perft;
    const char *file;
    int line;
} tcase;

static int cases_run;

static void fail(const tcase *c, const char *fmt, const char *a, const char *b)
{
    check_failed++;
    fprintf(stderr, "%s:%d (rule %s): ", c->file, c->line, c->rule);
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\n");
}

static void ok(void)
{
    check_passed++;
}

static void run_case(tcase *c)
{
    cases_run++;
    if (!c->rule[0] || !c->game[0]) {
        fail(c, "case lacks %s%s",
             c->rule[0] ? "" : "rule: ", c->game[0] ? "" : "game:");
        return;
    }
    mc_error err = {0, ""};
    mc_game *g = mc_game_new(c->game, &err);
    if (!g) {
        if (c->has_error && strstr(err.msg, c->error))
            ok();
        else
            fail(c, "game spec rejected: %s%s", err.msg, "");
        return;
    }
    mc_pos p;
    if (mc_pos_parse(g, c->position[0] ? c->position : "start", &p, &err)) {
        if (c->has_error && strstr(err.msg, c->error))
            ok();
        else
            fail(c, "position rejected: %s%s", err.msg, "");
        mc_game_free(g);
        return;
    }
    mc_session *s = mc_session_new(g, &p);
    char *save = NULL, *tok = strtok_r(c->moves, " ", &save);
    int nmove = 0;
    while (tok) {
        nmove++;
        char *next = strtok_r(NULL, " ", &save);
        if (mc_session_play_str(s, tok, NULL, &err) != 0) {
            if (c->has_error && !next && strstr(err.msg, c->error))
                ok();
            else if (c->has_error && !next)
                fail(c, "error '%s' does not contain '%s'", err.msg, c->error);
            else
                fail(c, "move %s rejected: %s", tok, err.msg);
            goto out;
        }
        tok = next;
    }
    if (c->has_error) {
        fail(c, "expected an error containing '%s'%s", c->error, "");
        goto out;
    }
    const mc_pos *now = mc_session_pos(s);
    if (c->has_expect) {
        char buf[MC_POS_STRLEN];
        mc_pos_format(g, now, buf, sizeof buf);
        if (strcmp(buf, c->expect) == 0)
            ok();
        else
            fail(c, "position is '%s', expected '%s'", buf, c->expect);
        /* The expected string must also parse back to the same position. */
        mc_pos back;
        if (mc_pos_parse(g, c->expect, &back, &err) == 0) {
            char b2[MC_POS_STRLEN];
            mc_pos_format(g, &back, b2, sizeof b2);
            if (strcmp(b2, c->expect) == 0)
                ok();
            else
                fail(c, "round trip gives '%s' for '%s'", b2, c->expect);
        } else {
            fail(c, "expected position does not parse: %s%s", err.msg, "");
        }
    }
    if (c->has_legal) {
        mc_move mv[MC_MAX_MOVES];
        int n = mc_session_moves(s, mv);
        char buf[4096] = "";
        size_t len = 0;
        for (int i = 0; i < n; i++) {
            char m[MC_MOVE_STRLEN];
            mc_move_format(g, now, mv[i], m, sizeof m);
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s",
                                    i ? " " : "", m);
            if (len >= sizeof buf)
                break;
        }
        if (strcmp(buf, c->legal) == 0)
            ok();
        else
            fail(c, "legal moves '%s', expected '%s'", buf, c->legal);
    }
    if (c->has_over) {
        mc_result r;
        mc_session_result(s, &r);
        char buf[160];
        if (!r.over)
            snprintf(buf, sizeof buf, "no");
        else
            snprintf(buf, sizeof buf, "%s %s",
                     r.winner == MC_DRAW    ? "draw"
                     : r.winner == MC_SOUTH ? "S"
                                            : "N",
                     r.detail);
        if (strcmp(buf, c->over) == 0)
            ok();
        else
            fail(c, "result '%s', expected '%s'", buf, c->over);
    }
    if (c->has_perft) {
        int d = 0;
        unsigned long long want = 0;
        if (sscanf(c->perft, "%d %llu", &d, &want) != 2) {
            fail(c, "bad perft line '%s'%s", c->perft, "");
        } else {
            unsigned long long got = mc_perft(g, now, d);
            char a[32], b[32];
            snprintf(a, sizeof a, "%llu", got);
            snprintf(b, sizeof b, "%llu", want);
            if (got == want)
                ok();
            else
                fail(c, "perft %s, expected %s", a, b);
        }
    }
    (void)nmove;
out:
    mc_session_free(s);
    mc_game_free(g);
}

static void set_field(tcase *c, const char *key, const char *val)
{
#define FIELD(name, has)                                                       \
    if (strcmp(key, #name) == 0) {                                             \
        snprintf(c->name, sizeof c->name, "%s", val);                          \
        has;                                                                   \
        return;                                                                \
    }
    FIELD(rule, (void)0)
    FIELD(game, (void)0)
    FIELD(position, (void)0)
    FIELD(moves, (void)0)
    FIELD(expect, c->has_expect = 1)
    FIELD(legal, c->has_legal = 1)
    FIELD(over, c->has_over = 1)
    FIELD(error, c->has_error = 1)
    FIELD(perft, c->has_perft = 1)
#undef FIELD
    check_failed++;
    fprintf(stderr, "%s:%d: unknown key '%s'\n", c->file, c->line, key);
}

static void run_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        check_failed++;
        fprintf(stderr, "cannot open %s\n", path);
        return;
    }
    tcase c;
    memset(&c, 0, sizeof c);
    c.file = path;
    int started = 0, lineno = 0;
    char line[8192];
    for (;;) {
        char *got = fgets(line, sizeof line, f);
        if (got)
            lineno++;
        size_t n = got ? strlen(line) : 0;
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (!got || n == 0) {
            if (started)
                run_case(&c);
            memset(&c, 0, sizeof c);
            c.file = path;
            started = 0;
            if (!got)
                break;
            continue;
        }
        if (line[0] == '#')
            continue;
        char *colon = strchr(line, ':');
        if (!colon) {
            check_failed++;
            fprintf(stderr, "%s:%d: expected 'key: value'\n", path, lineno);
            continue;
        }
        *colon = '\0';
        char *val = colon + 1;
        while (*val == ' ')
            val++;
        if (!started) {
            c.line = lineno;
            started = 1;
        }
        set_field(&c, line, val);
    }
    fclose(f);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : "tests";
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/rules", root);
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "cannot open %s\n", dir);
        return 1;
    }
    char *files[1024];
    int nf = 0;
    struct dirent *e;
    while ((e = readdir(d)) && nf < 1024) {
        if (e->d_name[0] == '.')
            continue;
        char sub[2048];
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        DIR *d2 = opendir(sub);
        if (!d2)
            continue;
        struct dirent *e2;
        while ((e2 = readdir(d2)) && nf < 1024) {
            size_t n = strlen(e2->d_name);
            if (n > 2 && strcmp(e2->d_name + n - 2, ".t") == 0) {
                char *p = malloc(strlen(sub) + n + 2);
                sprintf(p, "%s/%s", sub, e2->d_name);
                files[nf++] = p;
            }
        }
        closedir(d2);
    }
    closedir(d);
    qsort(files, (size_t)nf, sizeof files[0], cmp_str);
    for (int i = 0; i < nf; i++) {
        run_file(files[i]);
        free(files[i]);
    }
    printf("rule cases: %d in %d files\n", cases_run, nf);
    if (cases_run == 0) {
        check_failed++;
        fprintf(stderr, "no rule cases found under %s\n", dir);
    }
    return check_report("test_rules");
}
