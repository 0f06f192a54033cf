/*
 * engine.c - `mancala engine [--uci]`: the engine protocol (or, with
 * --uci, the UCI dialect of the Oware GUIs) on standard input and output
 * (docs/PROTOCOL.md).  The protocols are the library's (src/protocol/);
 * this file only moves lines.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int cmd_engine(int argc, char **argv)
{
    int uci = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            printf(
                "usage: mancala engine [--uci]\n\n"
                "Speak the mancala engine protocol on standard input and\n"
                "output (docs/PROTOCOL.md, man mancala-engine): send\n"
                "'hello' for the version and options, 'help' for the\n"
                "commands.\n\n"
                "  --uci   speak the UCI dialect of the Oware GUIs (Aualé)\n"
                "          instead, for Oware: 'uci', 'position startpos\n"
                "          moves CfAb', 'go movetime 1000' (docs/PROTOCOL.md,\n"
                "          \"UCI\")\n");
            return 0;
        }
        if (strcmp(argv[i], "--uci") == 0) {
            uci = 1;
            continue;
        }
        fprintf(stderr, "mancala engine: unexpected argument '%s'\n", argv[i]);
        return EXIT_USAGE;
    }
    signal(SIGPIPE, SIG_IGN);
    mc_engine *e = uci ? mc_engine_new_uci(write_line, stdout)
                       : mc_engine_new(write_line, stdout);
    if (!e) {
        fprintf(stderr, "mancala engine: out of memory\n");
        return 1;
    }
    /* Lines are kept up to one byte past the protocol's limit (so that the
       engine can say the line is too long) and the rest is dropped: no
       input can make the reader grow without bound. */
    char *line = malloc(MC_PROTOCOL_LINE_MAX + 2);
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
