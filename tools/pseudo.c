/*
 * pseudo.c - build tool: the pseudo-language's text (MC_LANG_PSEUDO,
 * en-XA) of its standard input, on its standard output, by the library's
 * own transform (mc_lang_pseudo): the page's en-XA catalog is the .pot run
 * through it by GNU gettext's msgfilter (the Makefile; docs/TRANSLATING.md),
 * so that the page and the library are accented the same way.
 * usage: pseudo < TEXT
 */
#include <stdio.h>
#include <stdlib.h>

#include "mancala.h"

int main(void)
{
    size_t cap = 4096, len = 0;
    char *in = malloc(cap);
    int c;
    while (in && (c = getchar()) != EOF) {
        if (len + 1 == cap) {
            char *grown = realloc(in, cap *= 2);
            if (!grown) {
                free(in);
                in = NULL;
                break;
            }
            in = grown;
        }
        in[len++] = (char)c;
    }
    if (!in) {
        fprintf(stderr, "pseudo: out of memory\n");
        return 1;
    }
    in[len] = 0;
    size_t need = mc_lang_pseudo(in, NULL, 0) + 1;
    char *out = malloc(need);
    if (!out) {
        fprintf(stderr, "pseudo: out of memory\n");
        free(in);
        return 1;
    }
    mc_lang_pseudo(in, out, need);
    fputs(out, stdout);
    free(in);
    free(out);
    return fflush(stdout) == 0 ? 0 : 1;
}
