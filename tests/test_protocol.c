/*
 * test_protocol.c - replays the recorded engine sessions in tests/protocol/
 * against `mancala engine` (the program named by $MANCALA, default
 * ./mancala), one engine process per transcript.
 *
 * Transcript lines (see tests/protocol/README):
 *   > TEXT   send TEXT to the engine (a line of its input)
 *   < TEXT   the next line of output must be exactly TEXT
 *   ~ RE     the next line must match the POSIX extended regular expression
 *            RE as a whole (for lines that vary: timings, speeds)
 *   * RE     skip any number of output lines (zero or more) matching RE
 *   # ...    a comment; blank lines are ignored
 *   ! args A...  (before the first line sent) run `mancala engine A...`,
 *            e.g. "! args --uci" for the UCI dialect
 * At the end of a transcript the engine's input is closed; it must then
 * exit with status 0 and write nothing more than the transcript expects.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

typedef struct proc {
    pid_t pid;
    int to, from;
    char buf[1 << 16];
    size_t len;
    int eof;
    char ahead[1 << 16]; /* a line read but not yet consumed */
    int has_ahead;
} proc;

#define MAX_ARGS 8

/* Start `prog engine args...` (args: NULL-terminated). */
static int start(proc *p, const char *prog, char *const *args)
{
    int in[2], out[2];
    memset(p, 0, sizeof *p);
    if (pipe(in) || pipe(out))
        return -1;
    fflush(NULL);
    p->pid = fork();
    if (p->pid < 0)
        return -1;
    if (p->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        char *argv[MAX_ARGS + 3];
        int n = 0;
        argv[n++] = (char *)prog;
        argv[n++] = "engine";
        for (int i = 0; args[i] && i < MAX_ARGS; i++)
            argv[n++] = args[i];
        argv[n] = NULL;
        execv(prog, argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    p->to = in[1];
    p->from = out[0];
    return 0;
}

/* The next output line (10 s at most); 0 on success, -1 at EOF/timeout. */
static int next_line(proc *p, char *line, size_t n)
{
    if (p->has_ahead) {
        snprintf(line, n, "%s", p->ahead);
        p->has_ahead = 0;
        return 0;
    }
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->len);
        if (nl) {
            size_t k = (size_t)(nl - p->buf);
            size_t m = k < n - 1 ? k : n - 1;
            memcpy(line, p->buf, m);
            line[m] = '\0';
            memmove(p->buf, nl + 1, p->len - k - 1);
            p->len -= k + 1;
            return 0;
        }
        if (p->eof || p->len == sizeof p->buf)
            return -1;
        struct pollfd pf = {p->from, POLLIN, 0};
        int r = poll(&pf, 1, 10000);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        ssize_t k = read(p->from, p->buf + p->len, sizeof p->buf - p->len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            p->eof = 1;
            continue;
        }
        p->len += (size_t)k;
    }
}

static int full_match(const char *re, const char *s, const char *where)
{
    regex_t rx;
    char anchored[4096];
    snprintf(anchored, sizeof anchored, "^(%s)$", re);
    if (regcomp(&rx, anchored, REG_EXTENDED | REG_NOSUB) != 0) {
        fprintf(stderr, "%s: bad regular expression '%s'\n", where, re);
        return 0;
    }
    int ok = regexec(&rx, s, 0, NULL, 0) == 0;
    regfree(&rx);
    return ok;
}

static void run(const char *prog, const char *path)
{
    FILE *f = fopen(path, "r");
    CHECK_MSG(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    proc *p = malloc(sizeof *p);
    if (!p) {
        CHECK_MSG(0, "out of memory");
        fclose(f);
        return;
    }
    /* The engine starts at the first line that is not a directive, with
       the arguments the directives gave. */
    char t[8192], got[1 << 16], where[8400], argbuf[8192] = "";
    char *args[MAX_ARGS + 1] = {NULL};
    int lineno = 0, broken = 0, started = 0;
    while (!broken && fgets(t, sizeof t, f)) {
        lineno++;
        size_t n = strlen(t);
        while (n && (t[n - 1] == '\n' || t[n - 1] == '\r'))
            t[--n] = '\0';
        if (n == 0 || t[0] == '#')
            continue;
        snprintf(where, sizeof where, "%s:%d", path, lineno);
        if (strncmp(t, "! args ", 7) == 0 && !started) {
            snprintf(argbuf, sizeof argbuf, "%s", t + 7);
            int na = 0;
            for (char *w = strtok(argbuf, " "); w && na < MAX_ARGS;
                 w = strtok(NULL, " "))
                args[na++] = w;
            args[na] = NULL;
            continue;
        }
        if (!started) {
            if (start(p, prog, args) != 0) {
                CHECK_MSG(0, "cannot start %s", prog);
                fclose(f);
                free(p);
                return;
            }
            started = 1;
        }
        const char *arg = n > 2 ? t + 2 : "";
        if (n == 1 && t[0] == '>') {
            t[1] = ' '; /* ">" alone sends an empty line */
            t[2] = '\0';
            n = 2;
            arg = "";
        }
        if (n < 2 || t[1] != ' ') {
            CHECK_MSG(0, "%s: malformed transcript line '%s'", where, t);
            broken = 1;
        } else if (t[0] == '>') {
            char line[8200];
            int k = snprintf(line, sizeof line, "%s\n", arg);
            if (write(p->to, line, (size_t)k) != k) {
                CHECK_MSG(0, "%s: the engine does not read its input", where);
                broken = 1;
            }
        } else if (t[0] == '<' || t[0] == '~') {
            if (next_line(p, got, sizeof got) != 0) {
                CHECK_MSG(0, "%s: no output line (want '%s')", where, arg);
                broken = 1;
            } else if (t[0] == '<') {
                CHECK_MSG(strcmp(got, arg) == 0, "%s: got '%s', want '%s'",
                          where, got, arg);
            } else {
                CHECK_MSG(full_match(arg, got, where),
                          "%s: got '%s', want a match of '%s'", where, got,
                          arg);
            }
        } else if (t[0] == '*') {
            while (next_line(p, got, sizeof got) == 0) {
                if (!full_match(arg, got, where)) {
                    snprintf(p->ahead, sizeof p->ahead, "%s", got);
                    p->has_ahead = 1;
                    break;
                }
            }
        } else {
            CHECK_MSG(0, "%s: unknown transcript line '%s'", where, t);
            broken = 1;
        }
    }
    fclose(f);
    if (!started) {
        CHECK_MSG(0, "%s: no line for the engine", path);
        free(p);
        return;
    }
    close(p->to);
    /* nothing more may come, and the engine must exit cleanly */
    if (!broken) {
        int extra = next_line(p, got, sizeof got) == 0;
        CHECK_MSG(!extra, "%s: unexpected output at the end: '%s'", path, got);
    }
    int st = 0;
    for (int i = 0; i < 1000 && waitpid(p->pid, &st, WNOHANG) == 0; i++) {
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    if (waitpid(p->pid, &st, WNOHANG) == 0) {
        kill(p->pid, SIGKILL);
        waitpid(p->pid, &st, 0);
        CHECK_MSG(0, "%s: the engine did not exit after its input ended", path);
    } else {
        CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0,
                  "%s: the engine exited with status %d", path,
                  WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    }
    close(p->from);
    free(p);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests";
    const char *prog = getenv("MANCALA") ? getenv("MANCALA") : "./mancala";
    signal(SIGPIPE, SIG_IGN);
    /* The transcripts expect no endgame tables in the default places,
       whatever the user running them has built. */
    setenv("MANCALA_EGDB_DIR", "none", 1);
    char path[4096];
    snprintf(path, sizeof path, "%s/protocol", dir);
    DIR *d = opendir(path);
    CHECK_MSG(d != NULL, "no directory %s", path);
    char *names[256];
    int n = 0;
    struct dirent *de;
    while (d && (de = readdir(d)) && n < 256) {
        size_t l = strlen(de->d_name);
        if (l > 4 && strcmp(de->d_name + l - 4, ".txt") == 0)
            names[n++] = strdup(de->d_name);
    }
    if (d)
        closedir(d);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    CHECK_MSG(n > 0, "no transcripts in %s", path);
    for (int i = 0; i < n; i++) {
        char file[8192];
        snprintf(file, sizeof file, "%s/%s", path, names[i]);
        int before = check_failed;
        run(prog, file);
        printf("  %s: %s\n", names[i],
               check_failed == before ? "ok" : "FAILED");
        free(names[i]);
    }
    return check_report("test_protocol");
}
