/*
 * words.c - what the line-mode outputs (play, replay) tell players about a
 * move and about the end of a game, in the library's words: a sowing is
 * "South plays C: ...", an offer, an answer or a pass is told without its
 * move token ("offer:a", "pass" are notation, not words), and the end is
 * mc_result_describe's sentence, never a record's codes ("45-3 noglory",
 * "nomove").  Knows no rule: the facts come from the library.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

void cli_move_words(const mc_game *g, const mc_pos *before, mc_move m,
                    const mc_trace *t, char *buf, size_t n)
{
    static const char *const side[2] = {"South", "North"};
    const char *who = side[before->side == MC_NORTH];
    mc_move_facts f;
    int sow = mc_move_facts_get(g, before, m, &f) != 0 ||
              f.kind == MC_MOVE_IS_SOW;
    size_t k = 0;
    buf[0] = 0;
    if (sow) {
        char tok[MC_MOVE_STRLEN];
        mc_move_format(g, before, m, tok, sizeof tok);
        k = (size_t)snprintf(buf, n, "%s plays %s:", who, tok);
    }
    const char *sep = sow ? " " : "";
    for (size_t i = 0; t && i < t->len && k < n; i++) {
        if (t->ev[i].kind == MC_TR_DROP)
            continue;
        char b[160];
        mc_trace_describe(g, &t->ev[i], b, sizeof b);
        k += (size_t)snprintf(buf + k, n - k, "%s%s", sep, b);
        sep = "; ";
    }
    if (k < n && !sow && !*sep) /* nothing told: say what it was */
        k += (size_t)snprintf(buf + k, n - k, "%s %s%s%s", who,
                              f.kind == MC_MOVE_IS_PASS     ? "passes"
                              : f.kind == MC_MOVE_IS_OFFER  ? "makes an offer"
                              : f.kind == MC_MOVE_IS_ACCEPT ? "accepts the offer"
                                                         : "refuses the offer",
                              f.kind == MC_MOVE_IS_PASS && f.why[0] ? ": " : "",
                              f.kind == MC_MOVE_IS_PASS ? f.why : "");
    if (k < n && (k == 0 || buf[k - 1] != '.'))
        snprintf(buf + k, n - k, ".");
}

void cli_describe_result(FILE *f, const mc_game *g, const mc_result *r)
{
    char b[300];
    mc_result_describe(g, r, b, sizeof b);
    fprintf(f, "Game over: %s\n", b);
}
