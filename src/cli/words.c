/*
 * words.c - what the line-mode outputs (play, replay) tell players about
 * the end of a game, in the library's words: mc_result_describe's
 * sentence, never a record's codes ("45-3 noglory", "nomove").  A move's
 * words are the library's too (mc_move_explain, called where it is
 * shown).  Knows no rule: the facts come from the library.
 */
#include <stdio.h>

#include "cli.h"

void cli_describe_result(FILE *f, const mc_game *g, const mc_result *r)
{
    char b[300];
    mc_result_describe(g, r, b, sizeof b);
    fprintf(f, _("Game over: %s\n"), b);
}

const char *cli_side(int side)
{
    /* TRANSLATORS: the two sides of the board, as players are named */
    return side == MC_NORTH ? _("North") : _("South");
}

const char *cli_verdict(int verdict)
{
    /* TRANSLATORS: a review's verdict on a move, as chess players say */
    switch (verdict) {
    case MC_VERDICT_INACCURACY:
        return _("inaccuracy");
    case MC_VERDICT_MISTAKE:
        return _("mistake");
    case MC_VERDICT_BLUNDER:
        return _("blunder");
    }
    return "";
}

void cli_pad(FILE *f, const char *s, int width)
{
    /* a character is one column: count the UTF-8 sequences' first bytes */
    int cols = 0;
    for (const char *p = s; *p; p++)
        cols += ((unsigned char)*p & 0xC0) != 0x80;
    fputs(s, f);
    for (; cols < width; cols++)
        fputc(' ', f);
}
