/*
 * match.c - `mancala match`, the strength harness (docs/STRENGTH.md): two
 * programs that speak the engine protocol (docs/PROTOCOL.md) play each
 * other over an openings file, each opening with both colours, several
 * games at once, under equal clocks kept here; Elo, pentanomial pairs and
 * an SPRT that can stop the match.  An engine that misses its time is
 * stopped (or killed and started again) so that it can play the next game.
 * Or two built-in players (--player1/--player2, as selfplay).  Knows no
 * rule: moves are checked by the library's session.
 */
#define _POSIX_C_SOURCE 200809L
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "mancala_record.h"
#include "match_stats.h"

/* An answer to `go movetime MS` may come this late before it loses. */
#define MOVETIME_MARGIN_MS 1000
/* Without a clock or a move time (depth or nodes only): a hung engine
   loses after this long. */
#define NO_CLOCK_LIMIT_MS 600000
/* Answers that need no thinking (hello, set, position, isready). */
#define ANSWER_MS 10000
/* After a missed time: how long `stop` may take to bring the answer. */
#define STOP_GRACE_MS 1000

/* ---- one engine process over two pipes ---- */

#define MAX_SETS 16

typedef struct client {
    const char *cmd;
    const char *name;       /* "engine 1" */
    const char *const *set; /* NAME=VALUE options, sent after the game */
    int nset;
    pid_t pid;    /* also its process group */
    int to, from; /* pipe ends: its stdin, its stdout */
    char buf[65536];
    size_t len;
    int dead; /* exited, killed or its pipe broke */
} client;

/* Engines are started from several threads: the pipes are made
   close-on-exec under this lock, so that no engine inherits another
   engine's pipe ends (which would hide that engine's exit). */
static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;

static int cloexec_pipe(int fd[2])
{
    if (pipe(fd) != 0)
        return -1;
    fcntl(fd[0], F_SETFD, FD_CLOEXEC);
    fcntl(fd[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

static int spawn(client *c)
{
    int in[2], out[2];
    c->pid = 0;
    c->len = 0;
    c->dead = 1;
    c->to = c->from = -1;
    pthread_mutex_lock(&spawn_lock);
    if (cloexec_pipe(in) != 0) {
        pthread_mutex_unlock(&spawn_lock);
        return -1;
    }
    if (cloexec_pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        pthread_mutex_unlock(&spawn_lock);
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        pthread_mutex_unlock(&spawn_lock);
        return -1;
    }
    if (pid == 0) {
        /* Its own process group, so that a hung engine is killed with
           everything it started (sh -c, a script's sleep). */
        setpgid(0, 0);
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execl("/bin/sh", "sh", "-c", c->cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid); /* both sides set it: no race with the kill */
    close(in[0]);
    close(out[1]);
    pthread_mutex_unlock(&spawn_lock);
    c->pid = pid;
    c->to = in[1];
    c->from = out[0];
    c->dead = 0;
    return 0;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec * 1e-6;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int send_line(client *c, const char *line)
{
    if (c->dead)
        return -1;
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
        if (r < 0)
            return -1;
        if (r == 0)
            continue; /* the deadline is checked above */
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

/* Send a command and wait for the line that answers it: one starting with
   `want` or with "error" (other lines, such as info, are skipped).  0 with
   that line in `last`; -1 on EOF or timeout (last: ""). */
static int ask(client *c, const char *cmd, const char *want, char *last,
               size_t n, double timeout_ms)
{
    last[0] = '\0';
    if (send_line(c, cmd) != 0)
        return -1;
    double deadline = now_ms() + timeout_ms;
    size_t w = strlen(want);
    for (;;) {
        if (read_line(c, last, n, deadline) != 0) {
            last[0] = '\0';
            return -1;
        }
        if (strncmp(last, want, w) == 0 || strncmp(last, "error", 5) == 0)
            return 0;
    }
}

/* Kill the engine and everything it started; reap it. */
static void kill_client(client *c)
{
    if (c->pid > 0) {
        kill(-c->pid, SIGKILL);
        kill(c->pid, SIGKILL);
        waitpid(c->pid, NULL, 0);
    }
    if (c->to >= 0)
        close(c->to);
    if (c->from >= 0)
        close(c->from);
    c->to = c->from = -1;
    c->pid = 0;
    c->dead = 1;
}

static void finish_client(client *c)
{
    if (c->pid <= 0)
        return;
    char last[256];
    if (!c->dead)
        ask(c, "quit", "ok quit", last, sizeof last, 2000);
    close(c->to);
    close(c->from);
    c->to = c->from = -1;
    double deadline = now_ms() + 2000;
    while (waitpid(c->pid, NULL, WNOHANG) == 0) {
        if (now_ms() > deadline) {
            kill(-c->pid, SIGKILL);
            kill(c->pid, SIGKILL);
            waitpid(c->pid, NULL, 0);
            break;
        }
        sleep_ms(10);
    }
    c->pid = 0;
    c->dead = 1;
}

/* Handshake and game choice; writes the problem to why and returns -1 on
   failure. */
static int handshake(client *c, const char *spec, char *why, size_t wn)
{
    char last[1024], cmd[MC_SPEC_STRLEN + 16];
    if (ask(c, "hello", "ok hello", last, sizeof last, ANSWER_MS) != 0 ||
        strcmp(last, "ok hello") != 0) {
        snprintf(why, wn, _("%s ('%s') does not answer 'hello'"), c->name,
                 c->cmd);
        return -1;
    }
    snprintf(cmd, sizeof cmd, "set game %s", spec);
    if (ask(c, cmd, "ok", last, sizeof last, ANSWER_MS) != 0 ||
        strncmp(last, "ok", 2) != 0) {
        snprintf(why, wn, _("%s cannot play %s: %.200s"), c->name, spec,
                 last[0] ? last : "no answer");
        return -1;
    }
    for (int i = 0; i < c->nset; i++) {
        const char *eq = strchr(c->set[i], '=');
        snprintf(cmd, sizeof cmd, "set %.*s %s", (int)(eq - c->set[i]),
                 c->set[i], eq + 1);
        if (ask(c, cmd, "ok", last, sizeof last, ANSWER_MS) != 0 ||
            strncmp(last, "ok", 2) != 0) {
            snprintf(why, wn, _("%s refuses '%s': %.200s"), c->name, cmd,
                     last[0] ? last : "no answer");
            return -1;
        }
    }
    return 0;
}

static int start_client(client *c, const char *spec, char *why, size_t wn)
{
    if (spawn(c) != 0) {
        snprintf(why, wn, _("cannot start %s ('%s'): %s"), c->name, c->cmd,
                 strerror(errno));
        return -1;
    }
    if (handshake(c, spec, why, wn) != 0) {
        kill_client(c);
        return -1;
    }
    return 0;
}

/* After a missed time: stop the search and wait (bounded) until the engine
   has answered everything sent so far ('isready' comes after the stopped
   search's bestmove, which is dropped).  An engine that does not come
   back is killed; the next game starts it again.  Returns 1 if killed. */
static int recover(client *c)
{
    char last[1024];
    if (!c->dead && send_line(c, "stop") == 0 &&
        ask(c, "isready", "ok isready", last, sizeof last, STOP_GRACE_MS) ==
            0 &&
        strcmp(last, "ok isready") == 0)
        return 0;
    kill_client(c);
    return 1;
}

/* ---- the match ---- */

typedef struct match_opts {
    const char *engine[2], *spec, *save, *openings;
    long games; /* 0: the default */
    long concurrency;
    long movetime, depth;
    long long nodes;
    long long base_ms, inc_ms; /* --tc; base_ms 0: no clock */
    const char *tc_text;
    const char *set[2][MAX_SETS];
    int nset[2];
    int sprt;
    double elo0, elo1;
} match_opts;

typedef struct shared {
    pthread_mutex_t lock;
    const match_opts *o;
    const mc_game *g;
    char **open;
    int nopen;
    long games, next;
    int stop; /* no new game: SPRT decided, or an engine is gone */
    int rc;
    long won, drawn, lost;
    long time_losses[2], restarts[2];
    signed char *half; /* engine 1's half points per game, -1: not done */
    mc_record **recs;  /* per game, NULL until it is over */
    ms_penta penta;
    double llr, lower, upper;
    const char *decision;
    long decided_at; /* pairs when it was decided */
} shared;

typedef struct slot {
    shared *sh;
    client c[2]; /* engine 1, engine 2 */
    pthread_t th;
} slot;

static const char *const match_usage = N_(
    /* xgettext:no-c-format */
    "usage: mancala match --engine1 CMD --engine2 CMD [--game G]\n"
    "           [--openings FILE] [--games N] [--concurrency N]\n"
    "           [--tc BASE+INC | --movetime MS] [--depth D] [--nodes N]\n"
    "           [--option1 NAME=VALUE]... [--option2 NAME=VALUE]...\n"
    "           [--sprt ELO0,ELO1] [--save FILE]\n\n"
    "The strength harness (docs/STRENGTH.md): play two programs that speak\n"
    "the engine protocol (for example \"./mancala engine\"), each started\n"
    "with sh -c, against each other.\n"
    "  --openings FILE  each opening (data/openings/<game>.txt) twice,\n"
    "                   engine 1 South then North; --games N (default: 2 per\n"
    "                   opening) cycles through them.  Without: the start\n"
    "                   position, sides alternating, 2 games by default.\n"
    "  --concurrency N  games at once, each with its own two engine\n"
    "                   processes (default: the number of online cores).\n"
    "  --tc BASE+INC    equal clocks, in seconds (10+0.1): the match keeps\n"
    "                   them, sends 'go stime S ntime N sinc I ninc I' (ms)\n"
    "                   and a side whose clock runs out loses on time.\n"
    "  --movetime MS    a fixed time per move (default 100 ms when no other\n"
    "                   limit is given); an answer 1 s late loses on time.\n"
    "  --depth D, --nodes N  'go depth D', 'go nodes N' (alone or with a\n"
    "                   clock or move time: the first limit reached ends\n"
    "                   the search).\n"
    "  --sprt ELO0,ELO1 a sequential test of H0 (engine 1 is ELO0 stronger)\n"
    "                   against H1 (ELO1), alpha = beta = 0.05: the log-\n"
    "                   likelihood ratio after each game pair; the match\n"
    "                   stops when it crosses a bound (H0 or H1 accepted).\n"
    "  --option1 NAME=VALUE, --option2 NAME=VALUE  'set NAME VALUE' for\n"
    "                   engine 1 or 2 after 'set game' (level=3, hash=64).\n"
    "  --save FILE      all games as a record file (docs/RECORDS.md).\n"
    "An illegal move, an error, an exit or a missed time loses the game; an\n"
    "engine that misses its time is sent 'stop' and, if it does not answer\n"
    "within 1 s, killed and started again for the next game.  Prints each\n"
    "result, then engine 1's wins, draws, losses, score and Elo with its\n"
    "95 % interval, the pentanomial counts of the game pairs and the SPRT.\n\n"
    "       mancala match --player1 P --player2 P [--game G] [--games N]\n\n"
    "Built-in players instead of programs: P is 'random' or settings\n"
    "level=1..10,depth=D,nodes=N,time=S (as for 'mancala selfplay'); N games\n"
    "(default 20) in pairs over shared random openings, sides alternating.\n");

/* The `position` command for the session's game so far. */
static char *position_command(const mc_game *g, mc_session *s)
{
    size_t cap = 256 + (size_t)mc_session_ply(s) * (MC_MOVE_STRLEN + 1);
    char *cmd = malloc(cap);
    if (!cmd)
        return NULL;
    char ps[MC_POS_STRLEN];
    mc_pos_format(g, mc_session_pos_at(s, 0), ps, sizeof ps);
    size_t len = (size_t)snprintf(cmd, cap, "position %s", ps);
    if (mc_session_ply(s) > 0)
        len += (size_t)snprintf(cmd + len, cap - len, " moves");
    for (int i = 0; i < mc_session_ply(s); i++) {
        char m[MC_MOVE_STRLEN];
        mc_move_format(g, mc_session_pos_at(s, i), mc_session_move_at(s, i), m,
                       sizeof m);
        len += (size_t)snprintf(cmd + len, cap - len, " %s", m);
    }
    return cmd;
}

/* Play one game to its end (forfeits included).  e1_south: engine 1 is
   South.  late[k]: set when engine k lost on time. */
static void match_game(shared *sh, slot *sl, long game, int e1_south,
                       mc_record *rec, int late[2])
{
    const match_opts *o = sh->o;
    const mc_game *g = sh->g;
    mc_session *s = mc_record_session(rec);
    long long clk[2] = {o->base_ms, o->base_ms};
    while (!mc_session_over(s)) {
        int side = mc_session_pos(s)->side;
        int k = (side == MC_SOUTH) == e1_south ? 0 : 1; /* engine index */
        client *c = &sl->c[k];
        char last[1024], go[160], msg[1200];
        const char *why = NULL;
        int reason = MC_END_RESIGN;
        msg[0] = '\0';
        char *pos = position_command(g, s);
        if (!pos) {
            why = "could not be asked (out of memory)";
        } else if (ask(c, pos, "ok", last, sizeof last, ANSWER_MS) != 0) {
            why = c->dead ? "has exited" : "does not answer 'position'";
            kill_client(c);
        } else if (strncmp(last, "ok", 2) != 0) {
            why = "refuses the position";
            snprintf(msg, sizeof msg, ": %s", last);
        }
        free(pos);
        if (!why) {
            size_t len = (size_t)snprintf(go, sizeof go, "go");
            double limit = NO_CLOCK_LIMIT_MS;
            if (o->base_ms > 0) {
                len += (size_t)snprintf(go + len, sizeof go - len,
                                        " stime %lld ntime %lld sinc %lld "
                                        "ninc %lld",
                                        clk[MC_SOUTH], clk[MC_NORTH], o->inc_ms,
                                        o->inc_ms);
                limit = (double)clk[side];
            } else if (o->movetime > 0) {
                len += (size_t)snprintf(go + len, sizeof go - len,
                                        " movetime %ld", o->movetime);
                limit = (double)o->movetime + MOVETIME_MARGIN_MS;
            }
            if (o->depth > 0)
                len += (size_t)snprintf(go + len, sizeof go - len, " depth %ld",
                                        o->depth);
            if (o->nodes > 0)
                snprintf(go + len, sizeof go - len, " nodes %lld", o->nodes);
            double t0 = now_ms();
            int r = ask(c, go, "bestmove", last, sizeof last, limit);
            double used = now_ms() - t0;
            if (r != 0 && c->dead) {
                why = "has exited";
                kill_client(c);
            } else if (r != 0) {
                why = "gave no move in time";
                reason = MC_END_TIME;
                if (recover(c))
                    snprintf(msg, sizeof msg,
                             _(" (it did not answer 'stop' "
                               "within %d ms: killed)"),
                             STOP_GRACE_MS);
                else
                    snprintf(msg, sizeof msg, _(" (stopped)"));
            } else if (o->base_ms > 0 && (clk[side] -= (long long)used) < 0) {
                why = "ran out of time";
                reason = MC_END_TIME;
            } else if (strncmp(last, "bestmove ", 9) != 0) {
                why = "answered 'go' with an error";
                snprintf(msg, sizeof msg, ": %s", last);
            } else {
                mc_error err = {0, ""};
                if (o->base_ms > 0)
                    clk[side] += o->inc_ms;
                if (mc_session_play_str(s, last + 9, NULL, &err) != 0) {
                    why = "played an illegal move";
                    snprintf(msg, sizeof msg, ": %s", err.msg);
                }
            }
        }
        if (why) {
            pthread_mutex_lock(&sh->lock);
            printf(_("game %ld: %s (%s, '%s') %s%s: it loses the game\n"),
                   game + 1, cli_side(side), c->name, c->cmd, why, msg);
            fflush(stdout);
            pthread_mutex_unlock(&sh->lock);
            if (reason == MC_END_TIME)
                late[k] = 1;
            mc_session_forfeit(s, side, reason);
        }
    }
}

/* Under the lock: the SPRT after a completed pair. */
static void sprt_step(shared *sh)
{
    long pairs = 0;
    for (int i = 0; i < 5; i++)
        pairs += sh->penta.pairs[i];
    sh->llr = ms_llr_pentanomial(&sh->penta, sh->o->elo0, sh->o->elo1);
    printf("SPRT [%g, %g] after %ld pair%s: LLR %.2f [%.2f, %.2f]\n",
           sh->o->elo0, sh->o->elo1, pairs, pairs == 1 ? "" : "s", sh->llr,
           sh->lower, sh->upper);
    if (!sh->decision && (sh->llr >= sh->upper || sh->llr <= sh->lower)) {
        sh->decision = sh->llr >= sh->upper ? "H1 accepted" : "H0 accepted";
        sh->decided_at = pairs;
        sh->stop = 1;
        printf(_("SPRT: %s (LLR %.2f %s %.2f) after %ld pairs: no new games\n"),
               sh->decision, sh->llr, sh->llr >= sh->upper ? ">=" : "<=",
               sh->llr >= sh->upper ? sh->upper : sh->lower, pairs);
    }
}

/* Under the lock: write every finished game, in game order. */
static void save_games(shared *sh)
{
    mc_record **list = malloc((size_t)sh->games * sizeof *list);
    int n = 0;
    if (!list) {
        fprintf(stderr, _("mancala match: out of memory\n"));
        sh->rc = 1;
        return;
    }
    for (long i = 0; i < sh->games; i++)
        if (sh->recs[i])
            list[n++] = sh->recs[i];
    mc_error err = {0, ""};
    if (mc_records_save(sh->o->save, list, n, &err) != 0) {
        fprintf(stderr, "mancala match: %s\n", err.msg);
        sh->rc = 1;
    }
    free(list);
}

/* A free tag, or nothing when the record refuses it. */
static void tag(mc_record *rec, const char *name, const char *value)
{
    mc_error err = {0, ""};
    mc_record_set_tag(rec, name, value, &err);
}

/* Start again the slot's engines that exited in its last game; -1 when
   one cannot be started (the match stops). */
static int restart_dead(slot *sl)
{
    shared *sh = sl->sh;
    for (int k = 0; k < 2; k++) {
        if (!sl->c[k].dead)
            continue;
        char why[512];
        finish_client(&sl->c[k]);
        int r = start_client(&sl->c[k], mc_game_spec(sh->g), why, sizeof why);
        pthread_mutex_lock(&sh->lock);
        if (r != 0) {
            fprintf(stderr, _("mancala match: %s: the match stops\n"), why);
            sh->rc = 1;
            sh->stop = 1;
        } else {
            sh->restarts[k]++;
            printf(_("%s ('%s') started again\n"), sl->c[k].name, sl->c[k].cmd);
        }
        pthread_mutex_unlock(&sh->lock);
        if (r != 0)
            return -1;
    }
    return 0;
}

/* Game i's record, its opening's moves played (NULL: none); NULL after
   saying why not (the match stops). */
static mc_record *new_record(shared *sh, long i, const char *opening)
{
    mc_error err = {0, ""};
    mc_record *rec = mc_record_new(mc_game_spec(sh->g), NULL, &err);
    if (rec && opening) {
        /* The file was checked when read; the moves are played again here
           on the game's own session. */
        char *copy = strdup(opening), *save = NULL;
        for (char *t = copy ? strtok_r(copy, " ", &save) : NULL; t;
             t = strtok_r(NULL, " ", &save))
            if (mc_session_play_str(mc_record_session(rec), t, NULL, &err))
                break;
        free(copy);
        if (!copy || err.code) {
            mc_record_free(rec);
            rec = NULL;
        }
    }
    if (!rec) {
        pthread_mutex_lock(&sh->lock);
        fprintf(stderr, _("mancala match: game %ld: %s\n"), i + 1,
                err.msg[0] ? err.msg : "out of memory");
        sh->rc = 1;
        sh->stop = 1;
        pthread_mutex_unlock(&sh->lock);
    }
    return rec;
}

/* The record's free tags: the event, the round, the players, the
   opening, the time control. */
static void tag_record(mc_record *rec, const shared *sh, long i,
                       const client *south, const client *north,
                       const char *opening)
{
    char round[24];
    snprintf(round, sizeof round, "%ld", i + 1);
    tag(rec, "Event", "mancala match");
    /* Round numbers make a match of the games in a game's own match
       format (omweso's 12 points, oware:match=bo3), whose rules the
       harness's independent games do not follow. */
    if (!mc_game_is_match(sh->g))
        tag(rec, "Round", round);
    tag(rec, "South", south->cmd);
    tag(rec, "North", north->cmd);
    if (opening)
        tag(rec, "Opening", opening);
    if (sh->o->tc_text)
        tag(rec, "TimeControl", sh->o->tc_text);
}

/* Under the lock: game i's result counted and told (e1: engine 1's half
   points), its pair's when the other game is done, the file saved. */
static void tally(shared *sh, long i, mc_record *rec, const char *opening,
                  int e1, const char *detail, const int late[2])
{
    assert(e1 >= 0 && e1 <= 2 && sh->half[i] < 0); /* counted once */
    sh->recs[i] = rec;
    sh->half[i] = (signed char)e1;
    sh->won += e1 == 2;
    sh->drawn += e1 == 1;
    sh->lost += e1 == 0;
    sh->time_losses[0] += late[0];
    sh->time_losses[1] += late[1];
    char op[32] = "";
    if (opening)
        snprintf(op, sizeof op, _(", opening %ld"), (i / 2) % sh->nopen + 1);
    printf(_("game %ld: %s %s, %s, %d plies%s\n"), i + 1,
           mc_record_tag(rec, "Result"), detail,
           e1 == 1   ? "draw"
           : e1 == 2 ? "engine 1 wins"
                     : "engine 2 wins",
           mc_session_ply(mc_record_session(rec)), op);
    long partner = i ^ 1;
    if (partner < sh->games && sh->half[partner] >= 0) {
        /* a pair's points: 0..4 half points, the pentanomial's index */
        assert(sh->half[partner] <= 2);
        sh->penta.pairs[e1 + sh->half[partner]]++;
        if (sh->o->sprt)
            sprt_step(sh);
    }
    if (sh->o->save)
        save_games(sh);
}

/* Returns 0 if the game could be played. */
static int play_game(slot *sl, long i)
{
    shared *sh = sl->sh;
    assert(i >= 0 && i < sh->games);
    if (restart_dead(sl) != 0)
        return -1;
    int e1_south = i % 2 == 0;
    client *south = &sl->c[e1_south ? 0 : 1], *north = &sl->c[e1_south ? 1 : 0];
    const char *opening = sh->nopen ? sh->open[(i / 2) % sh->nopen] : NULL;
    mc_record *rec = new_record(sh, i, opening);
    if (!rec)
        return -1;
    tag_record(rec, sh, i, south, north, opening);
    pthread_mutex_lock(&sh->lock);
    printf(_("game %ld: South '%s', North '%s'\n"), i + 1, south->cmd,
           north->cmd);
    fflush(stdout);
    pthread_mutex_unlock(&sh->lock);
    int late[2] = {0, 0};
    match_game(sh, sl, i, e1_south, rec, late);
    mc_result r;
    mc_session_result(mc_record_session(rec), &r);
    int e1 = r.winner == MC_DRAW                  ? 1
             : (r.winner == MC_SOUTH) == e1_south ? 2
                                                  : 0;
    pthread_mutex_lock(&sh->lock);
    tally(sh, i, rec, opening, e1, r.detail, late);
    fflush(stdout);
    pthread_mutex_unlock(&sh->lock);
    return 0;
}

static void *slot_main(void *arg)
{
    slot *sl = arg;
    shared *sh = sl->sh;
    for (;;) {
        pthread_mutex_lock(&sh->lock);
        long i = sh->stop || sh->next >= sh->games ? -1 : sh->next++;
        pthread_mutex_unlock(&sh->lock);
        if (i < 0 || play_game(sl, i) != 0)
            break;
    }
    return NULL;
}

static void print_summary(shared *sh)
{
    const match_opts *o = sh->o;
    char t[128];
    printf(_("engine 1: %ld wins, %ld draws, %ld losses\n"), sh->won, sh->drawn,
           sh->lost);
    mc_selfplay_score sc = {0};
    sc.wins = (int)sh->won;
    sc.draws = (int)sh->drawn;
    sc.losses = (int)sh->lost;
    mc_score_elo(&sc);
    printf(_("engine 1 score %.3f, %s\n"), sc.score,
           ms_elo_text(sc.elo, sc.elo_low, sc.elo_high, t, sizeof t));
    double ps, pe, plo, phi;
    const long *p = sh->penta.pairs;
    if (ms_penta_elo(&sh->penta, &ps, &pe, &plo, &phi) > 0)
        printf(_("pairs by engine 1's points (0, 1/2, 1, 3/2, 2): %ld, %ld, "
                 "%ld, %ld, %ld; pentanomial %s\n"),
               p[0], p[1], p[2], p[3], p[4],
               ms_elo_text(pe, plo, phi, t, sizeof t));
    if (sh->time_losses[0] || sh->time_losses[1] || sh->restarts[0] ||
        sh->restarts[1])
        printf(_("losses on time: engine 1 %ld, engine 2 %ld; restarts: "
                 "engine 1 %ld, engine 2 %ld\n"),
               sh->time_losses[0], sh->time_losses[1], sh->restarts[0],
               sh->restarts[1]);
    if (o->sprt) {
        if (sh->decision)
            printf(_("SPRT [%g, %g]: %s after %ld pairs (LLR %.2f, bounds "
                     "[%.2f, %.2f])\n"),
                   o->elo0, o->elo1, sh->decision, sh->decided_at, sh->llr,
                   sh->lower, sh->upper);
        else
            printf(_("SPRT [%g, %g]: no decision (LLR %.2f, bounds [%.2f, "
                     "%.2f])\n"),
                   o->elo0, o->elo1, sh->llr, sh->lower, sh->upper);
    }
}

/* "10+0.1" or "10" (seconds) into milliseconds; -1 if malformed. */
static int parse_tc(const char *v, long long *base, long long *inc)
{
    char *end;
    errno = 0;
    double b = strtod(v, &end), i = 0;
    if (end == v || errno || !(b > 0) || b > 1e6)
        return -1;
    if (*end == '+') {
        const char *p = end + 1;
        i = strtod(p, &end);
        if (end == p || errno || !(i >= 0) || i > 1e6)
            return -1;
    }
    if (*end != '\0' || v[0] == '-' || v[0] == '+' || v[0] == ' ')
        return -1;
    *base = (long long)llround(b * 1000.0);
    *inc = (long long)llround(i * 1000.0);
    return *base > 0 ? 0 : -1;
}

/* "0,5" into two Elo values; -1 if malformed or elo0 >= elo1. */
static int parse_sprt(const char *v, double *e0, double *e1)
{
    char *end;
    errno = 0;
    *e0 = strtod(v, &end);
    if (end == v || *end != ',' || errno || !isfinite(*e0))
        return -1;
    const char *p = end + 1;
    *e1 = strtod(p, &end);
    if (end == p || *end != '\0' || errno || !isfinite(*e1))
        return -1;
    return *e0 < *e1 && fabs(*e0) < 2000 && fabs(*e1) < 2000 ? 0 : -1;
}

static int usage_error(const char *fmt, const char *a, const char *v)
{
    fprintf(stderr, "mancala match: ");
    fprintf(stderr, fmt, a, v);
    fprintf(stderr, _(" (see mancala match --help)\n"));
    return EXIT_USAGE;
}

/* Parse the engine match's options; 0, or the exit status. */
static int parse_opts(int argc, char **argv, match_opts *o, int *help)
{
    memset(o, 0, sizeof *o);
    o->spec = "oware";
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->concurrency = cores > 0 ? cores : 1;
    int have_movetime = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            *help = 1;
            return 0;
        }
        static const char *const valued[] = {
            "--engine1", "--engine2", "--game",        "--games",  "--movetime",
            "--depth",   "--nodes",   "--concurrency", "--save",   "--openings",
            "--tc",      "--sprt",    "--option1",     "--option2"};
        enum { NV = sizeof valued / sizeof valued[0] };
        int k = 0;
        while (k < NV && strcmp(a, valued[k]) != 0)
            k++;
        if (k == NV)
            return usage_error("unknown argument '%s'%s", a, "");
        if (i + 1 >= argc)
            return usage_error("%s needs a value%s", a, "");
        const char *v = argv[++i];
        long n = 0;
        if (k >= 3 && k <= 7) {
            /* Nodes: 10^12, or what a long holds (WebAssembly: 32 bits). */
            static const long max[] = {1000000, 3600000, 64,
                                       LONG_MAX / 1000 > 1000000000L
                                           ? (long)(1000000000000LL & LONG_MAX)
                                           : LONG_MAX,
                                       1024};
            n = cli_number(v, max[k - 3]);
            if (n < 1)
                return usage_error("%s takes a positive whole number (not "
                                   "too large), not '%s'",
                                   a, v);
        }
        switch (k) {
        case 0:
            o->engine[0] = v;
            break;
        case 1:
            o->engine[1] = v;
            break;
        case 2:
            o->spec = v;
            break;
        case 3:
            o->games = n;
            break;
        case 4:
            o->movetime = n;
            have_movetime = 1;
            break;
        case 5:
            o->depth = n;
            break;
        case 6:
            o->nodes = n;
            break;
        case 7:
            o->concurrency = n;
            break;
        case 8:
            o->save = v;
            break;
        case 9:
            o->openings = v;
            break;
        case 10:
            if (parse_tc(v, &o->base_ms, &o->inc_ms) != 0)
                return usage_error("%s takes BASE+INC in seconds (10+0.1, "
                                   "or 60 without increment), not '%s'",
                                   a, v);
            o->tc_text = v;
            break;
        case 12:
        case 13: {
            int e = k - 12;
            const char *eq = strchr(v, '=');
            if (!eq || eq == v || strchr(v, ' ') || strlen(v) > 200)
                return usage_error("%s takes NAME=VALUE (an engine option, "
                                   "sent as 'set NAME VALUE'), not '%s'",
                                   a, v);
            if (o->nset[e] == MAX_SETS)
                return usage_error("%s: at most 16 of them%s", a, "");
            o->set[e][o->nset[e]++] = v;
            break;
        }
        default:
            if (parse_sprt(v, &o->elo0, &o->elo1) != 0)
                return usage_error("%s takes ELO0,ELO1 with ELO0 < ELO1 (for "
                                   "example 0,5), not '%s'",
                                   a, v);
            o->sprt = 1;
            break;
        }
    }
    if (!o->engine[0] || !o->engine[1])
        return usage_error("--engine1 and --engine2 are needed%s%s", "", "");
    if (o->base_ms > 0 && have_movetime)
        return usage_error("--tc and --movetime are two time controls: give "
                           "one%s%s",
                           "", "");
    if (o->base_ms == 0 && !have_movetime && o->depth == 0 && o->nodes == 0)
        o->movetime = 100;
    return 0;
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
            fprintf(stderr,
                    _("mancala match: with --player1/--player2 the "
                      "options are --game G and --games N (N >= 2), "
                      "not '%s %s'\n"),
                    a, v);
            return EXIT_USAGE;
        }
    }
    if (argc % 2 == 0 || !p1 || !p2) {
        fprintf(stderr, _("mancala match: --player1 and --player2 are both "
                          "needed, each with a value\n"));
        return EXIT_USAGE;
    }
    return cli_builtin_match(spec, p1, p2, games / 2, 2, 1);
}

int cmd_match(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--player1") == 0 ||
            strcmp(argv[i], "--player2") == 0)
            return builtin_match(argc, argv);
    match_opts o;
    int help = 0;
    int rc = parse_opts(argc, argv, &o, &help);
    if (help) {
        fputs(_(match_usage), stdout);
        return 0;
    }
    if (rc)
        return rc;
    mc_game *g = cli_game(o.spec);
    if (!g)
        return EXIT_BAD_INPUT;
    shared sh;
    memset(&sh, 0, sizeof sh);
    sh.o = &o;
    sh.g = g;
    if (o.openings) {
        sh.nopen = cli_read_openings(g, o.openings, "mancala match", &sh.open);
        if (sh.nopen < 0) {
            mc_game_free(g);
            return EXIT_BAD_INPUT;
        }
    }
    sh.games = o.games ? o.games : sh.nopen ? 2L * sh.nopen : 2;
    ms_sprt_bounds(0.05, 0.05, &sh.lower, &sh.upper);
    long nslot = o.concurrency < sh.games ? o.concurrency : sh.games;
    sh.half = malloc((size_t)sh.games);
    sh.recs = calloc((size_t)sh.games, sizeof *sh.recs);
    slot *slots = calloc((size_t)nslot, sizeof *slots);
    pthread_mutex_init(&sh.lock, NULL);
    signal(SIGPIPE, SIG_IGN);
    if (!sh.half || !sh.recs || !slots) {
        fprintf(stderr, _("mancala match: out of memory\n"));
        rc = 1;
        goto out;
    }
    memset(sh.half, -1, (size_t)sh.games);
    /* Every engine is started and greeted before the first game, so that
       a program that is not an engine stops the match at once. */
    for (long s = 0; s < nslot && rc == 0; s++)
        for (int k = 0; k < 2 && rc == 0; k++) {
            client *c = &slots[s].c[k];
            char why[512];
            slots[s].sh = &sh;
            c->cmd = o.engine[k];
            c->name = k == 0 ? "engine 1" : "engine 2";
            c->set = o.set[k];
            c->nset = o.nset[k];
            c->dead = 1;
            c->to = c->from = -1;
            if (start_client(c, mc_game_spec(g), why, sizeof why) != 0) {
                fprintf(stderr, "mancala match: %s\n", why);
                rc = 1;
            }
        }
    if (rc == 0) {
        long run = 0;
        for (; run < nslot; run++)
            if (pthread_create(&slots[run].th, NULL, slot_main, &slots[run]) !=
                0)
                break;
        if (run == 0) {
            fprintf(stderr, _("mancala match: cannot start a thread\n"));
            rc = 1;
        }
        for (long s = 0; s < run; s++)
            pthread_join(slots[s].th, NULL);
        print_summary(&sh);
        if (sh.rc)
            rc = sh.rc;
    }
out:
    for (long s = 0; slots && s < nslot; s++)
        for (int k = 0; k < 2; k++)
            finish_client(&slots[s].c[k]);
    if (sh.recs)
        for (long i = 0; i < sh.games; i++)
            mc_record_free(sh.recs[i]);
    free(sh.recs);
    free(sh.half);
    free(slots);
    cli_openings_free(sh.open, sh.nopen > 0 ? sh.nopen : 0);
    pthread_mutex_destroy(&sh.lock);
    mc_game_free(g);
    return rc;
}
