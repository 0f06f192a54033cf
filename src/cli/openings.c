/*
 * openings.c - openings files for strength tests (docs/STRENGTH.md):
 * `mancala openings` makes one (random lines of P plies whose search score
 * is near 0, and, if asked, whose games between two searches go either way),
 * and cli_read_openings reads one for `mancala match`, every
 * move checked by the rules.  Knows no rule: moves come from the library.
 */
#define _POSIX_C_SOURCE 200809L
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

void cli_openings_free(char **o, int n)
{
    for (int i = 0; i < n; i++)
        free(o[i]);
    free(o);
}

/* Check one line's moves from the start position and write them back to
   `norm` one space apart; nonzero with the reason in err. */
static int check_line(const mc_game *g, char *text, char *norm, size_t nn,
                      mc_error *err)
{
    mc_session *s = mc_session_new(g, NULL);
    if (!s) {
        snprintf(err->msg, sizeof err->msg, _("out of memory"));
        return -1;
    }
    size_t len = 0;
    int k = 0, rc = 0;
    norm[0] = '\0';
    char *save = NULL;
    for (char *t = strtok_r(text, " \t\r", &save); t && rc == 0;
         t = strtok_r(NULL, " \t\r", &save)) {
        k++;
        mc_error e = {0, ""};
        if (mc_session_over(s)) {
            snprintf(err->msg, sizeof err->msg,
                     _("move %d '%s': the game is already over"), k, t);
            rc = -1;
        } else if (mc_session_play_str(s, t, NULL, &e) != 0) {
            snprintf(err->msg, sizeof err->msg, _("move %d: %.200s"), k, e.msg);
            rc = -1;
        } else if (len + strlen(t) + 2 > nn) {
            snprintf(err->msg, sizeof err->msg, _("the line is too long"));
            rc = -1;
        } else {
            len += (size_t)snprintf(norm + len, nn - len, "%s%s",
                                    len ? " " : "", t);
        }
    }
    if (rc == 0 && mc_session_over(s)) {
        snprintf(err->msg, sizeof err->msg,
                 _("the game is over after this opening"));
        rc = -1;
    }
    mc_session_free(s);
    return rc;
}

int cli_read_openings(const mc_game *g, const char *path, const char *cmd,
                      char ***out)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, _("%s: cannot read %s: %s\n"), cmd, path,
                strerror(errno));
        return -1;
    }
    char **list = NULL, *line = NULL;
    size_t cap = 0;
    int n = 0, lineno = 0, rc = 0;
    while (rc == 0 && getline(&line, &cap, f) >= 0) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        line[strcspn(line, "\n")] = '\0';
        if (line[strspn(line, " \t\r")] == '\0')
            continue;
        size_t nn = strlen(line) + 1;
        char *norm = malloc(nn);
        char **more = realloc(list, (size_t)(n + 1) * sizeof *list);
        mc_error err = {0, ""};
        if (!norm || !more) {
            free(norm);
            fprintf(stderr, _("%s: out of memory\n"), cmd);
            rc = -1;
            break;
        }
        list = more;
        if (check_line(g, line, norm, nn, &err) != 0) {
            fprintf(stderr, "%s: %s:%d: %s\n", cmd, path, lineno, err.msg);
            free(norm);
            rc = -1;
            break;
        }
        list[n++] = norm;
    }
    if (rc == 0 && ferror(f)) {
        fprintf(stderr, _("%s: cannot read %s: %s\n"), cmd, path,
                strerror(errno));
        rc = -1;
    }
    if (rc == 0 && n == 0) {
        fprintf(stderr, _("%s: %s: no openings in the file\n"), cmd, path);
        rc = -1;
    }
    free(line);
    fclose(f);
    if (rc != 0) {
        cli_openings_free(list, n);
        return -1;
    }
    *out = list;
    return n;
}

/* ---- mancala openings: balanced random openings ---- */

/* Play game j of an opening's playouts from the opening's moves: both sides
   search N or 2N nodes a move (j's two low bits say which), so the K games
   of a candidate differ and are symmetric between the sides.  Returns
   South's points times two (2 win, 1 draw, 0 loss); -1 on failure. */
static int playout(const mc_game *g, const mc_move *line, long plies,
                   long nodes, int j)
{
    mc_session *s = mc_session_new(g, NULL);
    if (!s)
        return -1;
    for (long k = 0; k < plies; k++)
        mc_session_play(s, line[k], NULL, NULL);
    for (int ply = 0; ply < 2000 && !mc_session_over(s); ply++) {
        int side = mc_session_pos(s)->side;
        mc_search_limits lim = {0};
        lim.nodes = (uint64_t)nodes * (uint64_t)(1 + ((j >> side) & 1));
        lim.hash_mb = 1; /* a small table: a search is a few thousand nodes */
        mc_search_info info;
        if (mc_search(s, &lim, &info) != 0 ||
            mc_session_play(s, info.best, NULL, NULL) != 0) {
            mc_session_free(s);
            return -1;
        }
    }
    mc_result r;
    mc_session_result(s, &r);
    mc_session_free(s);
    if (!r.over || r.winner == MC_DRAW)
        return 1;
    return r.winner == MC_SOUTH ? 2 : 0;
}

/* K playouts of an opening: 1 if South's points, times two, are within
   [K/2, 3K/2] (a quarter to three quarters); 0 if not or a playout failed. */
static int open_in_playouts(const mc_game *g, const mc_move *line, long plies,
                            long k, long nodes)
{
    long pts = 0;
    for (int j = 0; j < k; j++) {
        int r = playout(g, line, plies, nodes, j);
        if (r < 0)
            return 0;
        pts += r;
    }
    return pts * 2 >= k && pts * 2 <= 3 * k;
}

static const char *const openings_usage = N_(
    "usage: mancala openings <game> [--count N] [--plies P] [--max-score CP]\n"
    "                        [--depth D] [--seed S] [--playouts K]\n"
    "                        [--playout-nodes N]\n\n"
    "Print an openings file for 'mancala match --openings' "
    "(docs/STRENGTH.md):\n"
    "up to N (default 100) distinct openings of P random plies (default 4)\n"
    "from the start, each kept only if a search of depth D (default 8)\n"
    "scores it within CP hundredths of a seed of 0 (default 50).  Distinct:\n"
    "no two lines reach the same position.  S (default 1) seeds the random\n"
    "moves; the same arguments give the same file.  The header comments\n"
    "record the command.\n"
    "--playouts K (default 0: none): also play K games from each opening\n"
    "that passes, both sides searching N or 2N nodes a move\n"
    "(--playout-nodes, default 2000; the budgets differ between the games),\n"
    "and keep it only if South scores from a quarter to three quarters of\n"
    "them: for games whose search scores say little about who wins.\n");

/* What `mancala openings` was asked. */
typedef struct openings_args {
    const char *spec;
    long count, plies, cp, depth, seed, playouts, pnodes;
} openings_args;

/* Read the arguments into a; -1 when they are good, else the exit code
   (0 after --help). */
static int parse_args(int argc, char **argv, openings_args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (cli_is_help(o)) {
            fputs(_(openings_usage), stdout);
            return 0;
        }
        if (o[0] != '-') {
            if (a->spec) {
                fprintf(stderr, _("mancala openings: unexpected '%s'\n"), o);
                return EXIT_USAGE;
            }
            a->spec = o;
            continue;
        }
        static const char *const keys[] = {
            "--count", "--plies",    "--max-score",    "--depth",
            "--seed",  "--playouts", "--playout-nodes"};
        static const long max[] = {100000,      200,  100000,    64,
                                   1000000000L, 1000, 100000000L};
        long *dst[] = {&a->count, &a->plies,    &a->cp,    &a->depth,
                       &a->seed,  &a->playouts, &a->pnodes};
        int k = 0;
        while (k < 7 && strcmp(o, keys[k]) != 0)
            k++;
        if (k == 7) {
            fprintf(stderr, _("mancala openings: unknown option '%s'\n%s"), o,
                    _(openings_usage));
            return EXIT_USAGE;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, _("mancala openings: %s needs a value\n"), o);
            return EXIT_USAGE;
        }
        long v = cli_number(argv[++i], max[k]);
        int zero_ok = k == 2 || k == 4 || k == 5;
        if (v < 0 || (v == 0 && !zero_ok)) {
            fprintf(stderr,
                    _("mancala openings: %s takes a whole number "
                      "from %d to %ld, not '%s'\n"),
                    o, zero_ok ? 0 : 1, max[k], argv[i]);
            return EXIT_USAGE;
        }
        *dst[k] = v;
    }
    if (!a->spec) {
        fprintf(stderr, _("mancala openings: which game? (%s)\n"),
                "usage: mancala openings <game> [options]");
        return EXIT_USAGE;
    }
    return -1;
}

/* The file's header: the game, the command that makes it, what a line
   passed. */
static void print_header(const mc_game *g, const openings_args *a)
{
    char pextra[64] = "";
    if (a->playouts)
        snprintf(pextra, sizeof pextra, " --playouts %ld --playout-nodes %ld",
                 a->playouts, a->pnodes);
    printf("# %s: openings for mancala match --openings (docs/STRENGTH.md)\n"
           "# made by: mancala openings %s --count %ld --plies %ld "
           "--max-score %ld --depth %ld --seed %ld%s\n"
           "# each line: %ld plies from the start, distinct positions, "
           "|score| <= %ld at depth %ld\n",
           mc_game_spec(g), a->spec, a->count, a->plies, a->cp, a->depth,
           a->seed, pextra, a->plies, a->cp, a->depth);
    if (a->playouts)
        printf("# and South scored 1/4 to 3/4 of %ld games between searches "
               "of %ld or %ld nodes a move\n",
               a->playouts, a->pnodes, 2 * a->pnodes);
}

/* The search: the candidates found and tried, and why the others were
   dropped; the positions reached by those found, the line in the making. */
typedef struct finder {
    long found, tried, over, dup, unbalanced, lopsided;
    char (*seen)[MC_POS_STRLEN];
    char *line;     /* the candidate's moves as text */
    mc_move *moves; /* and as moves: done of them */
    long done;
} finder;

/* Up to `plies` random moves from the start (fewer when the game ends) in
   a new session, written to f->line and f->moves; NULL when no session
   could be made. */
static mc_session *random_line(const mc_game *g, mc_rng *rng, long plies,
                               finder *f)
{
    mc_session *s = mc_session_new(g, NULL);
    if (!s)
        return NULL;
    size_t len = 0;
    f->line[0] = '\0';
    f->done = 0;
    for (long k = 0; k < plies && !mc_session_over(s); k++) {
        mc_move mv[MC_MAX_MOVES], m;
        int n = mc_session_moves(s, mv);
        m = mv[mc_rng_below(rng, (uint32_t)n)];
        char t[MC_MOVE_STRLEN];
        mc_move_format(g, mc_session_pos(s), m, t, sizeof t);
        len += (size_t)sprintf(f->line + len, "%s%s", len ? " " : "", t);
        mc_session_play(s, m, NULL, NULL);
        f->moves[f->done++] = m;
    }
    assert(f->done <= plies); /* the room made for the line */
    return s;
}

/* Keep the line ending in s, printed, or count why not. */
static void judge(const mc_game *g, const openings_args *a, finder *f,
                  mc_session *s)
{
    char ps[MC_POS_STRLEN];
    mc_pos_format(g, mc_session_pos(s), ps, sizeof ps);
    int known = 0;
    for (long i = 0; i < f->found && !known; i++)
        known = strcmp(f->seen[i], ps) == 0;
    mc_search_info info;
    mc_search_limits lim = {0};
    lim.depth = (int)a->depth;
    if (mc_session_over(s)) {
        f->over++;
    } else if (known) {
        f->dup++;
    } else if (mc_search(s, &lim, &info) != 0 || info.score > a->cp ||
               info.score < -a->cp) {
        f->unbalanced++;
    } else if (a->playouts && !open_in_playouts(g, f->moves, f->done,
                                                a->playouts, a->pnodes)) {
        f->lopsided++;
    } else {
        assert(f->found < a->count); /* the room made for the positions */
        snprintf(f->seen[f->found++], MC_POS_STRLEN, "%s", ps);
        printf("%s\n", f->line);
        fflush(stdout); /* a stopped run keeps the lines it found */
    }
}

/* Random lines until enough are kept or the tries run out. */
static void find_openings(const mc_game *g, const openings_args *a, finder *f)
{
    mc_rng rng;
    mc_rng_seed(&rng, (uint64_t)a->seed);
    long limit = a->count * 200 + 1000;
    while (f->found < a->count && f->tried < limit) {
        f->tried++;
        mc_session *s = random_line(g, &rng, a->plies, f);
        if (!s)
            break;
        judge(g, a, f, s);
        mc_session_free(s);
    }
}

int cmd_openings(int argc, char **argv)
{
    openings_args a = {NULL, 100, 4, 50, 8, 1, 0, 2000};
    int prc = parse_args(argc, argv, &a);
    if (prc >= 0)
        return prc;
    mc_game *g = cli_game(a.spec);
    if (!g)
        return EXIT_BAD_INPUT;
    finder f = {0};
    f.seen = malloc((size_t)a.count * sizeof *f.seen);
    f.line = malloc((size_t)a.plies * MC_MOVE_STRLEN + 1);
    f.moves = malloc((size_t)a.plies * sizeof *f.moves);
    if (!f.seen || !f.line || !f.moves) {
        fprintf(stderr, _("mancala openings: out of memory\n"));
        free(f.seen);
        free(f.line);
        free(f.moves);
        mc_game_free(g);
        return 1;
    }
    print_header(g, &a);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    find_openings(g, &a, &f);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) +
                  (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    fprintf(stderr,
            _("mancala openings: %ld openings from %ld random lines (%ld ended "
              "the game, %ld repeated a position, %ld scored beyond %ld, "
              "%ld lopsided in playouts) in %.1f s\n"),
            f.found, f.tried, f.over, f.dup, f.unbalanced, a.cp, f.lopsided,
            secs);
    free(f.seen);
    free(f.line);
    free(f.moves);
    mc_game_free(g);
    if (f.found < a.count) {
        fprintf(stderr,
                _("mancala openings: only %ld of %ld found: allow more "
                  "plies or a larger --max-score\n"),
                f.found, a.count);
        return f.found > 0 ? 0 : 1;
    }
    return 0;
}
