/*
 * serve.c - `mancala serve`: the browser board.  Starts the HTTP server of
 * src/server/ on localhost (unless --bind says otherwise), prints the address
 * to open and runs until interrupted.  Games are kept in a SQLite database
 * (--db, default $XDG_DATA_HOME/mancala/serve.db or
 * ~/.local/share/mancala/serve.db); --import brings record folders of
 * earlier versions into it.  docs/SERVER.md says how to run it for a club.
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
#include "server/server.h"

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

static const char usage[] =
    "usage: mancala serve [--port N] [--bind ADDR] [--db FILE] [--host NAME]...\n"
    "                     [--proxy ADDR] [--per-ip N] [--max-conns N]\n"
    "                     [--deadline S] [--max-games N] [--quota N] [--rate N]\n"
    "                     [--keep-days D] [--keep-finished-days D]\n"
    "                     [--no-book] [--book-variety N] [--site DIR|none]\n"
    "       mancala serve --import DIR [--db FILE]\n\n"
    "Serve the browser board: open the printed address.  The server\n"
    "listens on 127.0.0.1 (this machine only) unless --bind names another\n"
    "IPv4 address (0.0.0.0: every one).  Port 8080 by default (0: any free\n"
    "port).  Games are kept in the SQLite database FILE (default\n"
    "~/.local/share/mancala/serve.db), each change committed before it is\n"
    "answered.  --import DIR adds the records DIR/*.mcr (the game folders\n"
    "of earlier versions) as new games, prints each one's id and token, and\n"
    "exits.  The JSON API is in docs/API.md; running it for a club (behind a\n"
    "reverse proxy, limits, backups) in docs/SERVER.md.\n"
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
    "  --site DIR        the WebAssembly engine's files (make site:\n"
    "                    build/site): games on one device then run in the\n"
    "                    browser, the server's time left to online games\n"
    "                    (default: the installed site, if any; none: off)\n"
    "At level 10 the computer plays Oware's opening book (docs/BOOK.md),\n"
    "choosing at random among the moves within N hundredths of a seed of\n"
    "the best (default 20; 0: always the best; hints always take the best);\n"
    "--no-book: it searches every move.\n";

/* A number option's value (0..max); -1 after the message. */
static long num_arg(const char *opt, const char *v, long max)
{
    long x = strcmp(v, "0") == 0 ? 0 : cli_number(v, max);
    if (x < 0)
        fprintf(stderr, "mancala serve: %s takes a number from 0 to %ld, not "
                        "'%s'\n", opt, max, v);
    return x;
}

int cmd_serve(int argc, char **argv)
{
    long port = 8080;
    const char *bind = "127.0.0.1", *db = NULL, *import = NULL, *site = NULL;
    int book = 1;
    long variety = 20;
    const char *hosts[33];
    int nhosts = 0;
    mc_server_opts so = {0};
    mc_api_opts ao = {0};
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(usage, stdout);
            return 0;
        }
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long x = 0;
        if (v && strcmp(o, "--port") == 0) {
            port = strcmp(v, "0") == 0 ? 0 : cli_number(v, 65535);
            if (port < 0) {
                fprintf(stderr, "mancala serve: bad port '%s'\n", v);
                return EXIT_USAGE;
            }
        } else if (v && strcmp(o, "--bind") == 0) {
            bind = v;
        } else if (v && strcmp(o, "--db") == 0) {
            db = v;
        } else if (strcmp(o, "--dir") == 0) {
            fprintf(stderr, "mancala serve: --dir is gone: games are kept in a "
                            "database (--db FILE); bring a folder of records in "
                            "with 'mancala serve --import DIR' (docs/SERVER.md)\n");
            return EXIT_USAGE;
        } else if (v && strcmp(o, "--import") == 0) {
            import = v;
        } else if (v && strcmp(o, "--host") == 0) {
            if (nhosts == 32) {
                fprintf(stderr, "mancala serve: at most 32 --host names\n");
                return EXIT_USAGE;
            }
            hosts[nhosts++] = v;
        } else if (v && strcmp(o, "--proxy") == 0) {
            so.proxy = v;
        } else if (v && (strcmp(o, "--per-ip") == 0 ||
                         strcmp(o, "--max-conns") == 0 ||
                         strcmp(o, "--deadline") == 0 ||
                         strcmp(o, "--max-games") == 0 ||
                         strcmp(o, "--quota") == 0 ||
                         strcmp(o, "--rate") == 0)) {
            if ((x = num_arg(o, v, 1000000)) < 1) {
                if (x == 0)
                    fprintf(stderr, "mancala serve: %s must be at least 1\n", o);
                return EXIT_USAGE;
            }
            if (o[2] == 'p')
                so.per_ip = (int)x;
            else if (o[2] == 'd')
                so.deadline = (int)x;
            else if (o[2] == 'q')
                ao.quota = (int)x;
            else if (o[2] == 'r')
                ao.rate = (int)x;
            else if (strcmp(o, "--max-conns") == 0)
                so.max_conns = (int)x;
            else
                ao.max_games = (int)x;
        } else if (v && (strcmp(o, "--keep-days") == 0 ||
                         strcmp(o, "--keep-finished-days") == 0)) {
            if ((x = num_arg(o, v, 100000)) < 0)
                return EXIT_USAGE;
            long long secs = x == 0 ? -1 : x * 86400LL;
            if (o[7] == 'f')
                ao.keep_over = secs;
            else
                ao.keep = secs;
        } else if (v && strcmp(o, "--site") == 0) {
            site = v;
        } else if (strcmp(o, "--no-book") == 0) {
            book = 0;
            continue;
        } else if (v && strcmp(o, "--book-variety") == 0) {
            variety = cli_number(v, 10000);
            if (variety < 0) {
                fprintf(stderr, "mancala serve: --book-variety takes 0..10000 "
                                "(hundredths of a seed), not '%s'\n", v);
                return EXIT_USAGE;
            }
        } else {
            fprintf(stderr, "mancala serve: unknown argument '%s' (try "
                            "'mancala serve --help')\n", o);
            return EXIT_USAGE;
        }
        i++;
    }
    hosts[nhosts] = NULL;
    char def[4096];
    if (!db) {
        const char *x = getenv("XDG_DATA_HOME"), *h = getenv("HOME");
        if (x && *x)
            snprintf(def, sizeof def, "%s/mancala/serve.db", x);
        else
            snprintf(def, sizeof def, "%s/.local/share/mancala/serve.db",
                     h && *h ? h : ".");
        db = def;
    }
    if (make_dirs_for(db) != 0) {
        fprintf(stderr, "mancala serve: cannot create the folder of %s: %s\n",
                db, strerror(errno));
        return EXIT_BAD_INPUT;
    }
    ao.db = db;
    mc_error err;
    mc_api *api = mc_api_new(&ao, &err);
    if (!api) {
        fprintf(stderr, "mancala serve: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    if (import) {
        int n = mc_api_import(api, import, stdout, &err);
        mc_api_free(api);
        if (n < 0) {
            fprintf(stderr, "mancala serve: %s\n", err.msg);
            return EXIT_BAD_INPUT;
        }
        printf("mancala serve: %d game%s imported into %s\n", n,
               n == 1 ? "" : "s", db);
        return 0;
    }
    mc_api_set_book(api, book, (int)variety);
    /* The computer's Oware endgame tables: the small set built on first
       use (seconds, one progress line), then found by every search. */
    mc_game *tg = mc_game_new("oware", NULL);
    char tdir[4096];
    if (tg)
        cli_default_tables(tg, "serve", 1, tdir, sizeof tdir);
    mc_game_free(tg);
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
    so.bind = bind;
    so.port = (int)port;
    so.hosts = hosts;
    /* The installed site (make install: beside the installed tables, in
       the library's share folder), unless told otherwise. */
    char installed[4096];
    struct stat sst;
    snprintf(installed, sizeof installed, "%s", mc_egdb_share_dir());
    char *slash = strrchr(installed, '/');
    if (slash)
        snprintf(slash, sizeof installed - (size_t)(slash - installed), "/site");
    char probe_path[4200];
    snprintf(probe_path, sizeof probe_path, "%s/engine-worker.js", installed);
    if (!site && slash && stat(probe_path, &sst) == 0)
        site = installed;
    so.site = site && strcmp(site, "none") != 0 ? site : NULL;
    mc_server *s = mc_server_start(api, &so, &bound, &err);
    if (!s) {
        fprintf(stderr, "mancala serve: %s\n", err.msg);
        mc_api_free(api);
        return EXIT_BAD_INPUT;
    }
    printf("mancala serve: open http://%s:%d/ in a browser (%d game%s in "
           "%s; Ctrl-C stops)\n",
           strcmp(bind, "0.0.0.0") == 0 ? "localhost" : bind, bound,
           mc_api_count(api), mc_api_count(api) == 1 ? "" : "s", db);
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
    printf("mancala serve: stopped\n");
    return 0;
}
