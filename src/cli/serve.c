/*
 * serve.c - `mancala serve`: the browser board.  Starts the HTTP server of
 * src/server/ on localhost (unless --bind says otherwise), prints the address
 * to open and runs until interrupted.  Games are kept in a SQLite database
 * (--db, default $XDG_DATA_HOME/mancala/serve.db or
 * ~/.local/share/mancala/serve.db) or a PostgreSQL one (--db
 * postgresql://...); --copy-from copies one store into another; --import
 * brings record folders of earlier versions into it; --reset-password and
 * --delete-account are the operator's hand on its accounts.  docs/SERVER.md
 * says how to run it for a club.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "server/password.h"
#include "server/server.h"
#include "server/store_copy.h"
#include "server/store_pg.h"

/* mkdir -p of the directories above a file. */
static int make_dirs_for(const char *file)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", file);
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            int bad = mkdir(path, 0700) != 0 && errno != EEXIST;
            *p = '/';
            if (bad)
                return -1;
        }
    return 0;
}

static const char *const usage = N_(
    "usage: mancala serve [--port N] [--bind ADDR] [--db FILE] [--host "
    "NAME]...\n"
    "                     [--proxy ADDR] [--per-ip N] [--max-conns N]\n"
    "                     [--deadline S] [--max-games N] [--quota N] [--rate "
    "N]\n"
    "                     [--keep-days D] [--keep-finished-days D] [--bot-wait "
    "S]\n"
    "                     [--no-book] [--book-variety N] [--site DIR|none]\n"
    "       mancala serve --import DIR [--db FILE]\n"
    "       mancala serve --copy-from FROM [--db FILE]\n"
    "       mancala serve --reset-password NAME [--password-stdin] [--db "
    "FILE]\n"
    "       mancala serve --delete-account NAME [--db FILE]\n\n"
    "Serve the browser board: open the printed address.  The server\n"
    "listens on 127.0.0.1 (this machine only) unless --bind names another\n"
    "IPv4 address (0.0.0.0: every one).  Port 8080 by default (0: any free\n"
    "port).  Games are kept in the SQLite database FILE (default\n"
    "~/.local/share/mancala/serve.db), or in PostgreSQL when FILE is a\n"
    "connection string (postgresql://USER@HOST/DB, postgres://..., or\n"
    "pg:KEYWORDS such as pg:'host=/run/postgresql dbname=mancala'; libpq5\n"
    "needed), each change committed before it is\n"
    "answered.  --import DIR adds the records DIR/*.mcr (the game folders\n"
    "of earlier versions) as new games, prints each one's id and token, and\n"
    "exits.  --copy-from FROM copies every game, account, session and\n"
    "rating of the store FROM (a SQLite file or a PostgreSQL connection\n"
    "string) into --db, which must hold none yet, and exits.\n"
    "--reset-password NAME gives the account NAME a new password,\n"
    "printed (or read from the first line of the standard input with\n"
    "--password-stdin), and ends its sessions; --delete-account NAME deletes\n"
    "the account (its games stay, shown as \"deleted player\").  The JSON API\n"
    "is in docs/API.md; running it for a club (behind a reverse proxy,\n"
    "limits, accounts, backups) in docs/SERVER.md.\n"
    "  --host NAME       a name the server is reached by (the proxy's public\n"
    "                    name); requests naming another host get 421\n"
    "  --proxy ADDR      the reverse proxy's address: its X-Forwarded-For\n"
    "                    names the client\n"
    "  --per-ip N        connections per client address (default 8)\n"
    "  --max-conns N     connections in all (default 128)\n"
    "  --deadline S      seconds to send a whole request (default 10)\n"
    "  --max-games N     games kept at most (default 10000)\n"
    "  --quota N         games kept per creating address (default 200)\n"
    "  --rate N          games an address may create a minute (default 30)\n"
    "  --keep-days D     an untouched game is deleted after D days (default\n"
    "                    30; 0: never)\n"
    "  --keep-finished-days D   a finished one after D days (default 7)\n"
    "  --session-days D  an account's sign-in lasts D days (default 30)\n"
    "  --bot-wait S      seconds alone in a quick-pairing pool before the\n"
    "                    house bot is offered (default 20)\n"
    "  --site DIR        the WebAssembly engine's files (make site:\n"
    "                    build/site): games on one device then run in the\n"
    "                    browser, the server's time left to online games\n"
    "                    (default: the installed site, if any; none: off)\n"
    "At level 10 the computer plays Oware's opening book (docs/BOOK.md),\n"
    "choosing at random among the moves within N hundredths of a seed of\n"
    "the best (default 20; 0: always the best; hints always take the best);\n"
    "--no-book: it searches every move.\n");

/* A number option's value (0..max); -1 after the message. */
static long num_arg(const char *opt, const char *v, long max)
{
    long x = strcmp(v, "0") == 0 ? 0 : cli_number(v, max);
    if (x < 0)
        fprintf(stderr,
                _("mancala serve: %s takes a number from 0 to %ld, not "
                  "'%s'\n"),
                opt, max, v);
    return x;
}

/* What the command line asks for. */
typedef struct serve_args {
    long port;
    const char *bind, *db, *import, *site, *copy;
    const char *reset, *remove; /* --reset-password, --delete-account */
    int pw_stdin;
    int book;
    long variety;
    const char *hosts[33]; /* NULL-ended */
    int nhosts;
    mc_server_opts so;
    mc_api_opts ao;
} serve_args;

/* A number option of a counted limit (at least 1), or of days to keep
   games (0: for ever): 1 when o is one and its value v is good, 0 when o
   is none of them, -1 after the message. */
static int limit_arg(serve_args *sa, const char *o, const char *v)
{
    struct {
        const char *name;
        int *to;
    } counts[] = {{"--per-ip", &sa->so.per_ip},
                  {"--max-conns", &sa->so.max_conns},
                  {"--deadline", &sa->so.deadline},
                  {"--max-games", &sa->ao.max_games},
                  {"--quota", &sa->ao.quota},
                  {"--rate", &sa->ao.rate},
                  {"--session-days", &sa->ao.session_days},
                  {"--bot-wait", &sa->ao.bot_wait}};
    struct {
        const char *name;
        long long *to;
    } days[] = {{"--keep-days", &sa->ao.keep},
                {"--keep-finished-days", &sa->ao.keep_over}};
    long x;
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++)
        if (strcmp(o, counts[k].name) == 0) {
            if ((x = num_arg(o, v, 1000000)) < 1) {
                if (x == 0)
                    fprintf(stderr, _("mancala serve: %s must be at least 1\n"),
                            o);
                return -1;
            }
            *counts[k].to = (int)x;
            return 1;
        }
    for (size_t k = 0; k < sizeof days / sizeof *days; k++)
        if (strcmp(o, days[k].name) == 0) {
            if ((x = num_arg(o, v, 100000)) < 0)
                return -1;
            *days[k].to = x == 0 ? -1 : x * 86400LL;
            return 1;
        }
    return 0;
}

/* The command line into *sa: -1, or the exit status when the command is
   done (its help printed: 0; a bad argument, after its message). */
static int parse_args(int argc, char **argv, serve_args *sa)
{
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(_(usage), stdout);
            return 0;
        }
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int lim;
        if (v && (lim = limit_arg(sa, o, v)) != 0) {
            if (lim < 0)
                return EXIT_USAGE;
        } else if (v && strcmp(o, "--port") == 0) {
            sa->port = strcmp(v, "0") == 0 ? 0 : cli_number(v, 65535);
            if (sa->port < 0) {
                fprintf(stderr, _("mancala serve: bad port '%s'\n"), v);
                return EXIT_USAGE;
            }
        } else if (v && strcmp(o, "--bind") == 0) {
            sa->bind = v;
        } else if (v && strcmp(o, "--db") == 0) {
            sa->db = v;
        } else if (strcmp(o, "--dir") == 0) {
            fprintf(stderr,
                    _("mancala serve: --dir is gone: games are kept in a "
                      "database (--db FILE); bring a folder of records in "
                      "with 'mancala serve --import DIR' (docs/SERVER.md)\n"));
            return EXIT_USAGE;
        } else if (v && strcmp(o, "--import") == 0) {
            sa->import = v;
        } else if (v && strcmp(o, "--copy-from") == 0) {
            sa->copy = v;
        } else if (v && strcmp(o, "--reset-password") == 0) {
            sa->reset = v;
        } else if (v && strcmp(o, "--delete-account") == 0) {
            sa->remove = v;
        } else if (strcmp(o, "--password-stdin") == 0) {
            sa->pw_stdin = 1;
            continue;
        } else if (v && strcmp(o, "--host") == 0) {
            if (sa->nhosts == 32) {
                fprintf(stderr, _("mancala serve: at most 32 --host names\n"));
                return EXIT_USAGE;
            }
            sa->hosts[sa->nhosts++] = v;
        } else if (v && strcmp(o, "--proxy") == 0) {
            sa->so.proxy = v;
        } else if (v && strcmp(o, "--site") == 0) {
            sa->site = v;
        } else if (strcmp(o, "--no-book") == 0) {
            sa->book = 0;
            continue;
        } else if (v && strcmp(o, "--book-variety") == 0) {
            sa->variety = cli_number(v, 10000);
            if (sa->variety < 0) {
                fprintf(stderr,
                        _("mancala serve: --book-variety takes 0..10000 "
                          "(hundredths of a seed), not '%s'\n"),
                        v);
                return EXIT_USAGE;
            }
        } else {
            fprintf(stderr,
                    _("mancala serve: unknown argument '%s' (try "
                      "'mancala serve --help')\n"),
                    o);
            return EXIT_USAGE;
        }
        i++;
    }
    sa->hosts[sa->nhosts] = NULL;
    return -1;
}

/* The database when --db is not given: $XDG_DATA_HOME/mancala/serve.db,
   else ~/.local/share/mancala/serve.db. */
static const char *default_db(char *buf, size_t n)
{
    const char *x = getenv("XDG_DATA_HOME"), *h = getenv("HOME");
    if (x && *x)
        snprintf(buf, n, "%s/mancala/serve.db", x);
    else
        snprintf(buf, n, "%s/.local/share/mancala/serve.db", h && *h ? h : ".");
    return buf;
}

/* The installed site (make install: beside the installed tables, in the
   library's share folder) in buf, or NULL when there is none. */
static const char *installed_site(char *buf, size_t n)
{
    struct stat sst;
    snprintf(buf, n, "%s", mc_egdb_share_dir());
    char *slash = strrchr(buf, '/');
    if (!slash)
        return NULL;
    snprintf(slash, n - (size_t)(slash - buf), "/site");
    char probe_path[4200];
    snprintf(probe_path, sizeof probe_path, "%s/engine-worker.js", buf);
    return stat(probe_path, &sst) == 0 ? buf : NULL;
}

/* --import: the records of dir into the database, then exit. */
static int import_games(mc_api *api, const char *dir, const char *db)
{
    mc_error err;
    int n = mc_api_import(api, dir, stdout, &err);
    mc_api_free(api);
    if (n < 0) {
        fprintf(stderr, "mancala serve: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    printf(P_("mancala serve: %d game imported into %s\n",
              "mancala serve: %d games imported into %s\n", n),
           n, db);
    return 0;
}

/* --reset-password NAME: a new password, drawn and printed, or the first
   line of the standard input; frees api. */
static int reset_password(mc_api *api, const serve_args *sa)
{
    char pw[MC_API_PASSWORD_MAX + 2] = "";
    mc_error err;
    int rc = 0;
    if (sa->pw_stdin) {
        if (!fgets(pw, sizeof pw, stdin)) {
            fprintf(stderr, _("mancala serve: no password on the standard "
                              "input\n"));
            rc = EXIT_BAD_INPUT;
        }
        pw[strcspn(pw, "\r\n")] = 0;
    } else if (mc_pw_random(pw, 21) != 0) {
        fprintf(stderr,
                _("mancala serve: no random numbers from the system\n"));
        rc = EXIT_BAD_INPUT;
    }
    if (rc == 0 && mc_api_reset_password(api, sa->reset, pw, &err) != 0) {
        fprintf(stderr, "mancala serve: %s\n", err.msg);
        rc = EXIT_BAD_INPUT;
    } else if (rc == 0 && !sa->pw_stdin) {
        printf("%s\n", pw);
    } else if (rc == 0) {
        printf(_("mancala serve: %s has a new password; its sessions ended\n"),
               sa->reset);
    }
    memset(pw, 0, sizeof pw);
    mc_api_free(api);
    return rc;
}

/* --delete-account NAME; frees api. */
static int delete_account(mc_api *api, const char *name)
{
    mc_error err;
    int rc = mc_api_delete_account(api, name, &err);
    mc_api_free(api);
    if (rc != 0) {
        fprintf(stderr, "mancala serve: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    printf(_("mancala serve: the account %s is deleted (its sessions ended, "
             "its games kept under \"deleted player\")\n"),
           name);
    return 0;
}

/* Serve api as sa says until SIGINT or SIGTERM; frees api. */
static int serve(mc_api *api, serve_args *sa)
{
    /* A file-size limit reached is a write that fails (SQLite's error,
       a 503 io answered, nothing of the change kept), not the end of the
       server. */
    signal(SIGXFSZ, SIG_IGN);
    /* SIGINT and SIGTERM are blocked before the server's threads start (they
       inherit the mask) and taken with sigwait below: no handler, no race. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    int bound = 0;
    mc_error err;
    mc_server *s = mc_server_start(api, &sa->so, &bound, &err);
    if (!s) {
        fprintf(stderr, "mancala serve: %s\n", err.msg);
        mc_api_free(api);
        return EXIT_BAD_INPUT;
    }
    printf(P_("mancala serve: open http://%s:%d/ in a browser (%d game in "
              "%s; Ctrl-C stops)\n",
              "mancala serve: open http://%s:%d/ in a browser (%d games in "
              "%s; Ctrl-C stops)\n",
              mc_api_count(api)),
           strcmp(sa->bind, "0.0.0.0") == 0 ? "localhost" : sa->bind, bound,
           mc_api_count(api), sa->db);
    fflush(stdout);
    int sig;
    sigwait(&stop, &sig);
    /* Searches running (an analysis of 30 s) answer now with what they
       have, so the stop does not wait for them. */
    mc_api_stop_searches(api);
    for (int k = 0; k < 40 && mc_api_searching(api) > 0; k++)
        usleep(50 * 1000);
    usleep(200 * 1000); /* their answers on their way out */
    mc_server_stop(s);
    mc_api_free(api);
    printf(_("mancala serve: stopped\n"));
    return 0;
}

int cmd_serve(int argc, char **argv)
{
    serve_args sa = {0};
    sa.port = 8080;
    sa.bind = "127.0.0.1";
    sa.book = 1;
    sa.variety = 20;
    int rc = parse_args(argc, argv, &sa);
    if (rc >= 0)
        return rc;
    char def[4096];
    if (!sa.db)
        sa.db = default_db(def, sizeof def);
    char shown[512];
    mc_pg_shown(sa.db, shown, sizeof shown); /* no password printed */
    if (!mc_pg_is_conninfo(sa.db) && make_dirs_for(sa.db) != 0) {
        fprintf(stderr,
                _("mancala serve: cannot create the folder of %s: %s\n"), sa.db,
                strerror(errno));
        return EXIT_BAD_INPUT;
    }
    sa.ao.db = sa.db;
    mc_error err;
    if (sa.copy && mc_store_copy(sa.copy, sa.db, stdout, &err) != 0) {
        fprintf(stderr, "mancala serve: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    if (sa.copy)
        return 0;
    mc_api *api = mc_api_new(&sa.ao, &err);
    if (!api) {
        fprintf(stderr, "mancala serve: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    if (sa.import)
        return import_games(api, sa.import, shown);
    if (sa.reset)
        return reset_password(api, &sa);
    if (sa.remove)
        return delete_account(api, sa.remove);
    mc_api_set_book(api, sa.book, (int)sa.variety);
    /* The computer's Oware endgame tables: the small set built on first
       use (seconds, one progress line), then found by every search. */
    mc_game *tg = mc_game_new("oware", NULL);
    char tdir[4096];
    if (tg)
        cli_default_tables(tg, "serve", 1, tdir, sizeof tdir);
    mc_game_free(tg);
    char installed[4096];
    if (!sa.site)
        sa.site = installed_site(installed, sizeof installed);
    sa.so.bind = sa.bind;
    sa.so.port = (int)sa.port;
    sa.so.hosts = sa.hosts;
    sa.so.site = sa.site && strcmp(sa.site, "none") != 0 ? sa.site : NULL;
    sa.db = shown;
    return serve(api, &sa);
}
