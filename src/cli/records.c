/*
 * records.c - `mancala check` (validate record files) and `mancala replay`
 * (step through a recorded game with the board), plus the record helpers
 * of `mancala play --save/--resume`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mancala_record.h"

/* mancala check's count: games, finished games. */
static int count_game(void *ctx, mc_record *r)
{
    int *count = ctx;
    count[0]++;
    count[1] += mc_session_over(mc_record_session(r)) != 0;
    mc_record_free(r);
    return 0;
}

int cmd_check(int argc, char **argv)
{
    if (argc < 2 || cli_is_help(argv[1])) {
        FILE *f = argc < 2 ? stderr : stdout;
        fprintf(f, _("usage: mancala check FILE...\n\n"
                     "Read each game record file (docs/RECORDS.md), checking\n"
                     "every tag and every move against the rules.  Prints\n"
                     "'FILE: N games' for a good file, 'FILE:LINE:COLUMN:\n"
                     "problem' on stderr for a bad one; exit status 1 if any\n"
                     "file is bad.\n"));
        return argc < 2 ? EXIT_USAGE : 0;
    }
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        /* One game at a time: memory stays that of one game, however many
           the file holds. */
        int count[2] = {0, 0};
        mc_record_loc loc;
        mc_error err = {0, ""};
        if (mc_records_scan_file(argv[i], count_game, count, &loc, &err) != 0) {
            bad = 1;
            if (loc.line > 0) {
                /* "line L, column C: " is replaced by the file:L:C form */
                const char *m = strstr(err.msg, ": ");
                fprintf(stderr, "%s:%d:%d: %s\n", argv[i], loc.line, loc.col,
                        m ? m + 2 : err.msg);
            } else {
                fprintf(stderr, "mancala check: %s\n", err.msg);
            }
            continue;
        }
        printf(P_("%s: %d game (%d finished)\n", "%s: %d games (%d finished)\n",
                  count[0]),
               argv[i], count[0], count[1]);
    }
    return bad ? EXIT_BAD_INPUT : 0;
}

static const char *const replay_usage = N_(
    "usage: mancala replay FILE [--game N] [--step]\n\n"
    "Show a recorded game (the first, or game N of the file): its tags, the\n"
    "board at the start and after every move, what each move did, the\n"
    "comments and the result.  --step waits after each move: Enter (or n)\n"
    "for the next, b to go back one move, q to stop.\n");

static void narrate_move(const mc_game *g, const mc_pos *before, mc_move m,
                         int ply)
{
    mc_pos p = *before;
    mc_trace_event ev[512];
    mc_trace t = {ev, 512, 0, 0};
    mc_play(g, &p, m, &t);
    char b[4096];
    mc_move_explain(g, before, m, &t, b, sizeof b);
    printf("%d. %s\n", ply, b);
}

int cmd_replay(int argc, char **argv)
{
    const char *file = NULL;
    long which = 1;
    int step = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(_(replay_usage), stdout);
            return 0;
        }
        if (strcmp(argv[i], "--step") == 0) {
            step = 1;
        } else if (strcmp(argv[i], "--game") == 0) {
            which = i + 1 < argc ? cli_number(argv[++i], 1000000) : -1;
            if (which < 1) {
                fprintf(stderr, _("mancala replay: --game takes a game number "
                                  "from 1\n"));
                return EXIT_USAGE;
            }
        } else if (argv[i][0] == '-' || file) {
            fprintf(stderr, _("mancala replay: unexpected argument '%s'\n%s"),
                    argv[i], _(replay_usage));
            return EXIT_USAGE;
        } else {
            file = argv[i];
        }
    }
    if (!file) {
        fputs(_(replay_usage), stderr);
        return EXIT_USAGE;
    }
    mc_record **recs;
    int n;
    mc_record_loc loc;
    mc_error err = {0, ""};
    if (mc_records_load(file, &recs, &n, &loc, &err) != 0) {
        fprintf(stderr, "mancala replay: %s: %s\n", file, err.msg);
        return EXIT_BAD_INPUT;
    }
    if (which > n) {
        fprintf(stderr,
                P_("mancala replay: %s holds %d game, not %ld\n",
                   "mancala replay: %s holds %d games, not %ld\n", n),
                file, n, which);
        mc_records_free(recs, n);
        return EXIT_BAD_INPUT;
    }
    mc_record *r = recs[which - 1];
    const mc_game *g = mc_record_game(r);
    mc_session *s = mc_record_session(r);
    printf(_("Game %ld of %d: %s\n"), which, n, mc_game_spec(g));
    const char *name, *value;
    for (int i = 0; mc_record_tag_at(r, i, &name, &value); i++)
        printf("  %s: %s\n", name, value);
    int plies = mc_session_ply(s);
    if (mc_record_comment(r, 0))
        printf("{%s}\n", mc_record_comment(r, 0));
    cli_draw_board(stdout, g, mc_session_pos_at(s, 0));
    for (int k = 0; k < plies;) {
        if (step) {
            printf(_("[%d/%d] Enter: next, b: back, q: quit> "), k, plies);
            fflush(stdout);
            char line[64];
            if (!fgets(line, sizeof line, stdin)) {
                printf("\n");
                break;
            }
            if (line[0] == 'q')
                break;
            if (line[0] == 'b') {
                if (k > 0)
                    k--;
                cli_draw_board(stdout, g, mc_session_pos_at(s, k));
                continue;
            }
        }
        narrate_move(g, mc_session_pos_at(s, k), mc_session_move_at(s, k),
                     k + 1);
        if (mc_record_comment(r, k + 1))
            printf("{%s}\n", mc_record_comment(r, k + 1));
        k++;
        cli_draw_board(stdout, g, mc_session_pos_at(s, k));
    }
    mc_result res;
    mc_session_result(s, &res);
    if (res.over)
        cli_describe_result(stdout, g, &res);
    else
        printf(_("The game goes on (result '*').\n"));
    /* (a victory without glory, G7, is in the sentence above) */
    if (mc_record_tag(r, "Match"))
        printf(_("Match: %s\n"), mc_record_tag(r, "Match"));
    mc_records_free(recs, n);
    return 0;
}
