/*
 * engine.c - `mancala engine`: the engine protocol on standard input and
 * output (docs/PROTOCOL.md).  The protocol itself is the library's
 * (src/protocol/protocol.c); this file only moves lines.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "mancala_protocol.h"

static void write_line(const char *line, void *ctx)
{
    FILE *f = ctx;
    fputs(line, f);
    fputc('\n', f);
    fflush(f);
}

int cmd_engine(int argc, char **argv)
{
    if (argc > 1) {
        if (cli_is_help(argv[1])) {
            printf("usage: mancala engine\n\n"
                   "Speak the mancala engine protocol on standard input and\n"
                   "output (docs/PROTOCOL.md, man mancala-engine): send\n"
                   "'hello' for the version and options, 'help' for the\n"
                   "commands.\n");
            return 0;
        }
        fprintf(stderr, "mancala engine: unexpected argument '%s'\n", argv[1]);
        return EXIT_USAGE;
    }
    signal(SIGPIPE, SIG_IGN);
    mc_engine *e = mc_engine_new(write_line, stdout);
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
