/*
 * serve.c - `mancala serve`: the browser board.  Starts the HTTP server of
 * src/server/ on localhost (unless --bind says otherwise), prints the address
 * to open and runs until interrupted.  Games are kept in --dir (default
 * $XDG_DATA_HOME/mancala/games or ~/.local/share/mancala/games).
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

/* mkdir -p for the default directory. */
static int make_dirs(char *path)
{
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            int bad = mkdir(path, 0700) != 0 && errno != EEXIST;
            *p = '/';
            if (bad)
                return -1;
        }
    return mkdir(path, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

int cmd_serve(int argc, char **argv)
{
    long port = 8080;
    const char *bind = "127.0.0.1", *dir = NULL;
    int book = 1;
    long variety = 20;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            printf("usage: mancala serve [--port N] [--bind ADDR] [--dir D]\n"
                   "                     [--no-book] [--book-variety N]\n\n"
                   "Serve the browser board: open the printed address.  The\n"
                   "server listens on 127.0.0.1 (this machine only) unless\n"
                   "--bind names another IPv4 address (0.0.0.0: every one).\n"
                   "Port 8080 by default (0: any free port).  Games are saved\n"
                   "in D (default ~/.local/share/mancala/games) after every\n"
                   "move, so a restart loses nothing.  The JSON API is in\n"
                   "docs/API.md.\n"
                   "At level 10 the computer plays Oware's opening book\n"
                   "(docs/BOOK.md), choosing at random among the moves\n"
                   "within N hundredths of a seed of the best (default 20;\n"
                   "0: always the best; hints always take the best);\n"
                   "--no-book: it searches every move.\n");
            return 0;
        }
        if (i + 1 < argc && strcmp(argv[i], "--port") == 0) {
            port = strcmp(argv[i + 1], "0") == 0 ? 0 : cli_number(argv[i + 1], 65535);
            if (port < 0) {
                fprintf(stderr, "mancala serve: bad port '%s'\n", argv[i + 1]);
                return EXIT_USAGE;
            }
            i++;
        } else if (i + 1 < argc && strcmp(argv[i], "--bind") == 0) {
            bind = argv[++i];
        } else if (i + 1 < argc && strcmp(argv[i], "--dir") == 0) {
            dir = argv[++i];
        } else if (strcmp(argv[i], "--no-book") == 0) {
            book = 0;
        } else if (i + 1 < argc && strcmp(argv[i], "--book-variety") == 0) {
            variety = cli_number(argv[i + 1], 10000);
            if (variety < 0) {
                fprintf(stderr, "mancala serve: --book-variety takes 0..10000 "
                                "(hundredths of a seed), not '%s'\n",
                        argv[i + 1]);
                return EXIT_USAGE;
            }
            i++;
        } else {
            fprintf(stderr, "mancala serve: unknown argument '%s' (try "
                            "'mancala serve --help')\n", argv[i]);
            return EXIT_USAGE;
        }
    }
    char def[4096];
    if (!dir) {
        const char *x = getenv("XDG_DATA_HOME"), *h = getenv("HOME");
        if (x && *x)
            snprintf(def, sizeof def, "%s/mancala/games", x);
        else
            snprintf(def, sizeof def, "%s/.local/share/mancala/games",
                     h && *h ? h : ".");
        if (make_dirs(def) != 0) {
            fprintf(stderr, "mancala serve: cannot create %s: %s\n", def,
                    strerror(errno));
            return EXIT_BAD_INPUT;
        }
        dir = def;
    }
    /* The computer's Oware endgame tables: the small set built on first
       use (seconds, one progress line), then found by every search. */
    mc_game *tg = mc_game_new("oware", NULL);
    char tdir[4096];
    if (tg)
        cli_default_tables(tg, "serve", 1, tdir, sizeof tdir);
    mc_game_free(tg);
    mc_error err;
    mc_api *api = mc_api_new(dir, &err);
    if (!api) {
        fprintf(stderr, "mancala serve: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    mc_api_set_book(api, book, (int)variety);
    /* SIGINT and SIGTERM are blocked before the server's threads start (they
       inherit the mask) and taken with sigwait below: no handler, no race. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    int bound = 0;
    mc_server *s = mc_server_start(api, bind, (int)port, &bound, &err);
    if (!s) {
        fprintf(stderr, "mancala serve: %s\n", err.msg);
        mc_api_free(api);
        return EXIT_BAD_INPUT;
    }
    printf("mancala serve: open http://%s:%d/ in a browser (%d saved game%s in "
           "%s; Ctrl-C stops)\n",
           strcmp(bind, "0.0.0.0") == 0 ? "localhost" : bind, bound,
           mc_api_count(api), mc_api_count(api) == 1 ? "" : "s", dir);
    fflush(stdout);
    int sig;
    sigwait(&stop, &sig);
    mc_server_stop(s);
    mc_api_free(api);
    printf("mancala serve: stopped\n");
    return 0;
}
