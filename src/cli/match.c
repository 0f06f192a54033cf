/*
 * match.c - `mancala match`: two programs that speak the engine protocol
 * (docs/PROTOCOL.md) play each other, game after game, sides alternating;
 * or two built-in players (--player1/--player2, as selfplay).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "mancala_record.h"

/* ---- match: two engines over the protocol ---- */

typedef struct client {
    const char *cmd;
    pid_t pid;
    int to, from; /* pipe ends: its stdin, its stdout */
    char buf[65536];
    size_t len;
    int dead;
} client;

static int spawn(client *c, const char *cmd)
{
    int in[2], out[2];
    memset(c, 0, sizeof *c);
    c->cmd = cmd;
    c->to = c->from = -1;
    if (pipe(in) != 0)
        return -1;
    if (pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        return -1;
    }
    fflush(NULL);
    c->pid = fork();
    if (c->pid < 0) {
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        return -1;
    }
    if (c->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    c->to = in[1];
    c->from = out[0];
    return 0;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec * 1e-6;
}

static int send_line(client *c, const char *line)
{
    size_t n = strlen(line);
    char *b = malloc(n + 2);
    if (!b)
        return -1;
    memcpy(b, line, n);
    b[n++] = '\n';
    const char *p = b;
    while (n > 0) {
        ssize_t k = write(c->to, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            free(b);
            c->dead = 1;
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    free(b);
    return 0;
}

/* Next line from the engine within the deadline; -1 on EOF or timeout. */
static int read_line(client *c, char *line, size_t n, double deadline)
{
    for (;;) {
        char *nl = memchr(c->buf, '\n', c->len);
        if (nl) {
            size_t k = (size_t)(nl - c->buf);
            size_t m = k < n - 1 ? k : n - 1;
            memcpy(line, c->buf, m);
            line[m] = '\0';
            if (m && line[m - 1] == '\r')
                line[m - 1] = '\0';
            memmove(c->buf, nl + 1, c->len - k - 1);
            c->len -= k + 1;
            return 0;
        }
        if (c->len == sizeof c->buf)
            c->len = 0; /* a line longer than the buffer: dropped */
        double left = deadline - now_ms();
        if (left <= 0 || c->dead)
            return -1;
        struct pollfd pf = {c->from, POLLIN, 0};
        int r = poll(&pf, 1, (int)(left + 1));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        ssize_t k = read(c->from, c->buf + c->len, sizeof c->buf - c->len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            c->dead = 1;
            return -1;
        }
        c->len += (size_t)k;
    }
}

/* Send a command and wait for its final line (ok, error, bestmove);
   returns 0 with that line in `last`, -1 on EOF or timeout. */
static int ask(client *c, const char *cmd, char *last, size_t n,
               double timeout_ms)
{
    if (send_line(c, cmd) != 0)
        return -1;
    double deadline = now_ms() + timeout_ms;
    for (;;) {
        if (read_line(c, last, n, deadline) != 0)
            return -1;
        if (strncmp(last, "ok", 2) == 0 || strncmp(last, "error", 5) == 0 ||
            strncmp(last, "bestmove", 8) == 0)
            return 0;
    }
}

static void finish_client(client *c)
{
    if (c->pid <= 0)
        return;
    char last[256];
    if (!c->dead)
        ask(c, "quit", last, sizeof last, 2000);
    close(c->to);
    close(c->from);
    double deadline = now_ms() + 2000;
    int st;
    while (waitpid(c->pid, &st, WNOHANG) == 0) {
        if (now_ms() > deadline) {
            kill(c->pid, SIGKILL);
            waitpid(c->pid, &st, 0);
            break;
        }
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    c->pid = 0;
}

/* Handshake and game choice; prints the problem and returns -1 on failure. */
static int start_engine(client *c, const char *name, const char *spec)
{
    char last[1024], cmd[MC_SPEC_STRLEN + 16];
    if (ask(c, "hello", last, sizeof last, 10000) != 0 ||
        strcmp(last, "ok hello") != 0) {
        fprintf(stderr, "mancala match: %s ('%s') does not answer 'hello'\n",
                name, c->cmd);
        return -1;
    }
    snprintf(cmd, sizeof cmd, "set game %s", spec);
    if (ask(c, cmd, last, sizeof last, 10000) != 0 ||
        strncmp(last, "ok", 2) != 0) {
        fprintf(stderr, "mancala match: %s cannot play %s: %s\n", name, spec,
                last);
        return -1;
    }
    return 0;
}

static const char match_usage[] =
    "usage: mancala match --engine1 CMD --engine2 CMD [--game G] [--games N]\n"
    "                     [--movetime MS | --depth D] [--save FILE]\n\n"
    "Play N games (default 2) between two programs that speak the engine\n"
    "protocol (for example \"./mancala engine\"), each started with sh -c.\n"
    "Engine 1 is South in odd games and North in even ones.  Each move is\n"
    "asked with 'position ... moves ...' and 'go movetime MS' (default 100)\n"
    "or 'go depth D'.  A program that plays an illegal move, answers with an\n"
    "error, stops answering or exits loses that game.  Prints each result\n"
    "and engine 1's wins, draws, losses, score and Elo difference with its\n"
    "95 % interval; --save writes the games as a record file\n"
    "(docs/RECORDS.md).\n\n"
    "       mancala match --player1 P --player2 P [--game G] [--games N]\n\n"
    "Built-in players instead of programs: P is 'random' or settings\n"
    "level=1..10,depth=D,nodes=N,time=S (as for 'mancala selfplay'); N games\n"
    "(default 20) in pairs over shared random openings, sides alternating.\n";

/* One game; returns the result's winner (MC_SOUTH/MC_NORTH/MC_DRAW). */
static int match_game(const mc_game *g, client *south, client *north,
                      long movetime, long depth, mc_record *rec)
{
    mc_session *s = mc_record_session(rec);
    char *cmd = malloc(1 << 16);
    if (!cmd)
        return MC_DRAW;
    while (!mc_session_over(s)) {
        const mc_pos *p = mc_session_pos(s);
        int side = p->side;
        client *c = side == MC_SOUTH ? south : north;
        size_t len = 0;
        char ps[MC_POS_STRLEN];
        mc_pos_format(g, mc_session_pos_at(s, 0), ps, sizeof ps);
        len += (size_t)snprintf(cmd, 1 << 16, "position %s", ps);
        if (mc_session_ply(s) > 0)
            len += (size_t)snprintf(cmd + len, (1 << 16) - len, " moves");
        for (int i = 0; i < mc_session_ply(s) && len < (1 << 16) - 128; i++) {
            char m[MC_MOVE_STRLEN];
            mc_move_format(g, mc_session_pos_at(s, i), mc_session_move_at(s, i),
                           m, sizeof m);
            len += (size_t)snprintf(cmd + len, (1 << 16) - len, " %s", m);
        }
        char last[1024];
        int reason = MC_END_RESIGN;
        const char *why = NULL;
        if (ask(c, cmd, last, sizeof last, 10000) != 0) {
            why = "does not answer 'position'";
        } else if (strncmp(last, "ok", 2) != 0) {
            why = "refuses the position";
        } else {
            char go[64];
            double limit;
            if (depth > 0) {
                snprintf(go, sizeof go, "go depth %ld", depth);
                limit = 600000;
            } else {
                snprintf(go, sizeof go, "go movetime %ld", movetime);
                limit = (double)movetime + 5000;
            }
            if (ask(c, go, last, sizeof last, limit) != 0) {
                why = "gave no move in time";
                reason = MC_END_TIME;
            } else if (strncmp(last, "bestmove ", 9) != 0) {
                why = "answered 'go' with an error";
            } else {
                mc_error err = {0, ""};
                if (mc_session_play_str(s, last + 9, NULL, &err) != 0) {
                    fprintf(stdout, "  %s plays %s: %s\n",
                            side == MC_SOUTH ? "South" : "North", last + 9,
                            err.msg);
                    why = "played an illegal move";
                }
            }
        }
        if (why) {
            printf("  %s ('%s') %s%s%s: it loses the game\n",
                   side == MC_SOUTH ? "South" : "North", c->cmd, why,
                   strncmp(last, "error", 5) == 0 ? ": " : "",
                   strncmp(last, "error", 5) == 0 ? last : "");
            mc_session_forfeit(s, side, reason);
        }
    }
    free(cmd);
    mc_result r;
    mc_session_result(s, &r);
    return r.winner;
}

/* match --player1 P --player2 P [--game G] [--games N]: built-in players
   (see selfplay) instead of protocol engines. */
static int builtin_match(int argc, char **argv)
{
    const char *p1 = NULL, *p2 = NULL, *spec = "oware";
    long games = 20;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (strcmp(a, "--player1") == 0)
            p1 = v;
        else if (strcmp(a, "--player2") == 0)
            p2 = v;
        else if (strcmp(a, "--game") == 0)
            spec = v;
        else if (strcmp(a, "--games") == 0 &&
                 (games = cli_number(v, 100000)) >= 2)
            ;
        else {
            fprintf(stderr, "mancala match: with --player1/--player2 the "
                            "options are --game G and --games N (N >= 2), "
                            "not '%s %s'\n", a, v);
            return EXIT_USAGE;
        }
    }
    if (argc % 2 == 0 || !p1 || !p2) {
        fprintf(stderr, "mancala match: --player1 and --player2 are both "
                        "needed, each with a value\n");
        return EXIT_USAGE;
    }
    return cli_builtin_match(spec, p1, p2, games / 2, 2, 1);
}

int cmd_match(int argc, char **argv)
{
    const char *e1 = NULL, *e2 = NULL, *spec = "oware", *save = NULL;
    long games = 2, movetime = 100, depth = 0;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--player1") == 0 ||
            strcmp(argv[i], "--player2") == 0)
            return builtin_match(argc, argv);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(match_usage, stdout);
            return 0;
        }
        static const char *const valued[] = {"--engine1", "--engine2",
                                             "--game",    "--games",
                                             "--movetime", "--depth",
                                             "--save"};
        int k = 0;
        while (k < 7 && strcmp(a, valued[k]) != 0)
            k++;
        if (k == 7) {
            fprintf(stderr, "mancala match: unknown argument '%s'\n%s", a,
                    match_usage);
            return EXIT_USAGE;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "mancala match: %s needs a value\n", a);
            return EXIT_USAGE;
        }
        const char *v = argv[++i];
        long n = 0;
        if (k >= 3 && k <= 5) {
            n = cli_number(v, k == 3 ? 100000 : k == 4 ? 3600000 : 64);
            if (n < 1) {
                fprintf(stderr, "mancala match: %s takes a positive whole "
                                "number, not '%s'\n",
                        a, v);
                return EXIT_USAGE;
            }
        }
        switch (k) {
        case 0: e1 = v; break;
        case 1: e2 = v; break;
        case 2: spec = v; break;
        case 3: games = n; break;
        case 4: movetime = n; break;
        case 5: depth = n; break;
        default: save = v; break;
        }
    }
    if (!e1 || !e2) {
        fprintf(stderr, "mancala match: --engine1 and --engine2 are needed\n");
        return EXIT_USAGE;
    }
    mc_game *g = cli_game(spec);
    if (!g)
        return EXIT_BAD_INPUT;
    signal(SIGPIPE, SIG_IGN);
    client c[2];
    int rc = 0;
    if (spawn(&c[0], e1) != 0 || spawn(&c[1], e2) != 0) {
        fprintf(stderr, "mancala match: cannot start the engines\n");
        mc_game_free(g);
        return 1;
    }
    if (start_engine(&c[0], "engine 1", mc_game_spec(g)) != 0 ||
        start_engine(&c[1], "engine 2", mc_game_spec(g)) != 0) {
        rc = 1;
        goto out;
    }
    int won = 0, drawn = 0, lost = 0;
    mc_record **recs = calloc((size_t)games, sizeof *recs);
    int nrec = 0;
    if (!recs) {
        rc = 1;
        goto out;
    }
    for (long i = 0; i < games; i++) {
        int e1_south = i % 2 == 0;
        client *south = e1_south ? &c[0] : &c[1];
        client *north = e1_south ? &c[1] : &c[0];
        mc_error err = {0, ""};
        mc_record *rec = mc_record_new(mc_game_spec(g), NULL, &err);
        if (!rec) {
            fprintf(stderr, "mancala match: %s\n", err.msg);
            rc = 1;
            break;
        }
        recs[nrec++] = rec;
        char round[24];
        snprintf(round, sizeof round, "%ld", i + 1);
        mc_record_set_tag(rec, "Event", "mancala match", NULL);
        mc_record_set_tag(rec, "Round", round, NULL);
        mc_record_set_tag(rec, "South", south->cmd, NULL);
        mc_record_set_tag(rec, "North", north->cmd, NULL);
        printf("game %ld: South '%s', North '%s'\n", i + 1, south->cmd,
               north->cmd);
        fflush(stdout);
        int w = match_game(g, south, north, movetime, depth, rec);
        mc_result r;
        mc_session_result(mc_record_session(rec), &r);
        printf("game %ld: %s %s, %s, %d plies\n", i + 1,
               mc_record_tag(rec, "Result"), r.detail,
               w == MC_DRAW ? "draw"
               : (w == MC_SOUTH) == e1_south ? "engine 1 wins"
                                             : "engine 2 wins",
               mc_session_ply(mc_record_session(rec)));
        if (w == MC_DRAW)
            drawn++;
        else if ((w == MC_SOUTH) == e1_south)
            won++;
        else
            lost++;
        if (save && mc_records_save(save, recs, nrec, &err) != 0) {
            fprintf(stderr, "mancala match: %s\n", err.msg);
            rc = 1;
        }
        fflush(stdout);
        if (c[0].dead || c[1].dead) {
            fprintf(stderr, "mancala match: engine %d has exited\n",
                    c[0].dead ? 1 : 2);
            rc = 1;
            break;
        }
    }
    printf("engine 1: %d wins, %d draws, %d losses\n", won, drawn, lost);
    mc_selfplay_score sc = {0};
    sc.wins = won;
    sc.draws = drawn;
    sc.losses = lost;
    mc_score_elo(&sc);
    printf("engine 1 score %.3f, Elo %+.0f [%+.0f, %+.0f]\n", sc.score, sc.elo,
           sc.elo_low, sc.elo_high);
    mc_records_free(recs, nrec);
out:
    finish_client(&c[0]);
    finish_client(&c[1]);
    mc_game_free(g);
    return rc;
}
