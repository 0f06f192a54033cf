/*
 * engine.c - `mancala engine [--uci]`: the engine protocol (or, with
 * --uci, the UCI dialect of the Oware GUIs) on standard input and output
 * (docs/PROTOCOL.md).  The protocols are the library's (src/protocol/);
 * this file only moves lines, and on the program's first use builds the
 * small set of Oware endgame tables beside the protocol (as play and serve
 * do before they start), telling the engine when they are there.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "cli.h"
#include "mancala_protocol.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
/* Under Node (make wasm) a thread's writes to stdout go through the main
   thread, which is blocked reading stdin until the next line comes: the
   search's lines would wait for it.  They are written to fd 1 by the
   thread itself instead. */
EM_JS(void, node_write_line, (const char *s, int n),
      { require('fs').writeSync(1, Buffer.from(HEAPU8.slice(s, s + n))); });
#endif

static void write_line(const char *line, void *ctx)
{
    FILE *f = ctx;
#ifdef __EMSCRIPTEN__
    if (f == stdout) {
        size_t n = strlen(line);
        char *b = malloc(n + 1);
        if (b) {
            memcpy(b, line, n);
            b[n] = '\n';
            node_write_line(b, (int)n + 1);
            free(b);
            return;
        }
    }
#endif
    fputs(line, f);
    fputc('\n', f);
    fflush(f);
}

#ifndef __EMSCRIPTEN__
/* The first-use tables (cli_default_tables), built on a thread of their
   own so that the engine answers at once: a GUI's first `go` is searched
   without them, the searches after the build use them.  The build runs at
   the lowest priority (Linux: a thread's nice value, which its helper
   threads inherit) so that it takes no time from a search. */
static void *first_tables(void *arg)
{
    mc_engine *e = arg;
#ifdef __linux__
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
#endif
    mc_game *g = mc_game_new("oware", NULL);
    char dir[4096];
    int before = cli_tables_built();
    if (g && cli_default_tables(g, "engine", 1, dir, sizeof dir) &&
        cli_tables_built() > before)
        mc_engine_tables_ready(e);
    mc_game_free(g);
    return NULL;
}

static void start_first_tables(mc_engine *e)
{
    pthread_t th;
    if (pthread_create(&th, NULL, first_tables, e) == 0)
        pthread_detach(th);
}
#endif

int cmd_engine(int argc, char **argv)
{
    int uci = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            printf(_(
                "usage: mancala engine [--uci]\n\n"
                "Speak the mancala engine protocol on standard input and\n"
                "output (docs/PROTOCOL.md, man mancala-engine): send\n"
                "'hello' for the version and options, 'help' for the\n"
                "commands.\n\n"
                "  --uci   speak the UCI dialect of the Oware GUIs (Aualé)\n"
                "          instead, for Oware: 'uci', 'position startpos\n"
                "          moves CfAb', 'go movetime 1000' (docs/PROTOCOL.md,\n"
                "          \"UCI\")\n"));
            return 0;
        }
        if (strcmp(argv[i], "--uci") == 0) {
            uci = 1;
            continue;
        }
        fprintf(stderr, _("mancala engine: unexpected argument '%s'\n"),
                argv[i]);
        return EXIT_USAGE;
    }
    signal(SIGPIPE, SIG_IGN);
    mc_engine *e = uci ? mc_engine_new_uci(write_line, stdout)
                       : mc_engine_new(write_line, stdout);
    if (!e) {
        fprintf(stderr, _("mancala engine: out of memory\n"));
        return 1;
    }
    /* Lines are kept up to one byte past the protocol's limit (so that the
       engine can say the line is too long) and the rest is dropped: no
       input can make the reader grow without bound. */
    char *line = malloc(MC_PROTOCOL_LINE_MAX + 2);
#ifndef __EMSCRIPTEN__
    start_first_tables(e);
#endif
    int quit = 0, c = 0;
    while (line && !quit && c != EOF) {
        size_t n = 0;
        while ((c = getchar()) != EOF && c != '\n')
            if (n <= MC_PROTOCOL_LINE_MAX)
                line[n++] = (char)c;
        if (c == EOF && n == 0)
            break;
        quit = mc_engine_line(e, line, n);
    }
    if (!quit)
        mc_engine_finish(e);
    free(line);
    mc_engine_free(e);
    return 0;
}
