/*
 * book.c - `mancala book`: show the opening book's moves of a position, and
 * `mancala book build`, which makes a book by drop-out expansion from the
 * start (docs/BOOK.md): a tree of positions whose leaves are searched by
 * the player (the public API) and whose scores are backed up by minimax;
 * the leaf that the cheapest line leads to is expanded next, a line's
 * cost being its plies plus how far each of its moves falls short of the
 * best.  The book file is the whole state of the build: it is rewritten
 * atomically every so often, and a rerun with the same leaf budget goes on
 * from it.  Front-end code: it never knows a rule.
 */
#define _POSIX_C_SOURCE 200809L
#include <assert.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "../core/posmap.h"
#include "../core/util.h"

/* ---- show ---- */

static const char *const show_usage =
    N_("usage: mancala book [show] [<position>|start] [--moves M...]\n"
       "                    [--book FILE] [--game SPEC]\n"
       "       mancala book build [options]   ('mancala book build --help')\n\n"
       "Show the opening book's moves for a position (the start by default,\n"
       "then the moves after --moves), best first, with their score (seeds,\n"
       "from the view of the side to move: deep searches backed up through\n"
       "the book) and depth (the plies of look-ahead behind the score), and\n"
       "the book's line from there; or say 'not in book'.  The book is the one "
       "built into the program for the\n"
       "game (Oware with its default options: --game oware) unless --book\n"
       "names a book file (docs/BOOK.md).  The computer plays from the book\n"
       "at level 10 unless told not to (play --no-book, serve --no-book,\n"
       "the engine's 'set book off').\n");

static void show_moves(const mc_game *g, const mc_pos *p,
                       const mc_book_move *bm, int n)
{
    printf(_("  move  score     depth\n")); /* seeds, plies: --help */
    for (int i = 0; i < n; i++) {
        char tok[MC_MOVE_STRLEN], sc[32];
        mc_move_format(g, p, bm[i].move, tok, sizeof tok);
        cli_format_score(sc, sizeof sc, bm[i].score);
        printf("  %-5s %-9s %d\n", tok, sc, bm[i].depth);
    }
}

/* The book's line from p: its best moves while it has them. */
static void show_line(const mc_book *b, const mc_game *g, const mc_pos *p)
{
    mc_pos q = *p;
    printf(_("book line:"));
    for (int i = 0; i < 64; i++) {
        mc_book_move bm[MC_MAX_MOVES];
        mc_result r;
        mc_status(g, &q, NULL, &r);
        if (r.over || mc_book_moves(b, g, &q, bm) == 0)
            break;
        char tok[MC_MOVE_STRLEN];
        mc_move_format(g, &q, bm[0].move, tok, sizeof tok);
        printf(" %s", tok);
        mc_play(g, &q, bm[0].move, NULL);
    }
    printf("\n");
}

static int book_show(int argc, char **argv)
{
    const char *file = NULL, *spec = NULL;
    char pos[MC_POS_STRLEN * 2] = "";
    int moves_from = -1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(_(show_usage), stdout);
            return 0;
        }
        if (strcmp(a, "--moves") == 0) {
            moves_from = i + 1;
            break;
        }
        if (strcmp(a, "--book") == 0 || strcmp(a, "--game") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, _("mancala book: %s needs a value\n"), a);
                return EXIT_USAGE;
            }
            *(a[2] == 'b' ? &file : &spec) = argv[++i];
            continue;
        }
        if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr,
                    _("mancala book: unknown option '%s' (try 'mancala "
                      "book --help')\n"),
                    a);
            return EXIT_USAGE;
        }
        /* a position string has spaces: its words may come apart */
        size_t len = strlen(pos);
        if (len + strlen(a) + 2 > sizeof pos) {
            fprintf(stderr, _("mancala book: the position is too long\n"));
            return EXIT_BAD_INPUT;
        }
        snprintf(pos + len, sizeof pos - len, "%s%s", len ? " " : "", a);
    }
    mc_book *own = NULL;
    if (file) {
        mc_error err = {0, ""};
        if (!(own = mc_book_load(file, &err))) {
            fprintf(stderr, "mancala book: %s\n", err.msg);
            return EXIT_BAD_INPUT;
        }
    }
    int rc = EXIT_BAD_INPUT;
    mc_game *g = cli_game(spec ? spec : own ? mc_book_spec(own) : "oware");
    mc_session *s = NULL;
    if (!g)
        goto out;
    const mc_book *b = own ? own : mc_book_builtin(g);
    if (own && strcmp(mc_book_spec(own), mc_game_spec(g)) != 0) {
        fprintf(stderr, _("mancala book: %s is a book of %s, not %s\n"), file,
                mc_book_spec(own), mc_game_spec(g));
        goto out;
    }
    if (!b) {
        fprintf(stderr,
                _("mancala book: no book is built in for %s (the "
                  "built-in book is Oware's, default options)\n"),
                mc_game_spec(g));
        goto out;
    }
    mc_pos p;
    if (cli_position(g, pos[0] ? pos : "start", &p))
        goto out;
    s = mc_session_new(g, &p);
    for (int i = moves_from; s && i >= 0 && i < argc; i++) {
        mc_error err = {0, ""};
        if (mc_session_play_str(s, argv[i], NULL, &err) != 0) {
            fprintf(stderr, _("mancala book: move %d '%s': %s\n"),
                    i - moves_from + 1, argv[i], err.msg);
            goto out;
        }
    }
    if (!s)
        goto out;
    p = *mc_session_pos(s);
    const char *leaf = mc_book_info(b, "leaf");
    printf(_("book: %s, %s, %d positions%s%s%s\n"), file ? file : "built in",
           mc_book_spec(b), mc_book_size(b),
           leaf ? " (leaves searched to " : "", leaf ? leaf : "",
           leaf ? ")" : "");
    char ps[MC_POS_STRLEN];
    mc_pos_format(g, &p, ps, sizeof ps);
    printf(_("position: %s (%s to move)\n"), ps, cli_side(p.side));
    mc_book_move bm[MC_MAX_MOVES];
    int n = mc_session_over(s) ? 0 : mc_book_moves(b, g, &p, bm);
    if (n == 0) {
        printf(_("not in book\n"));
    } else {
        show_moves(g, &p, bm, n);
        show_line(b, g, &p);
    }
    rc = 0;
out:
    mc_session_free(s);
    mc_game_free(g);
    mc_book_free(own);
    return rc;
}

/* ---- build: the tree ---- */

enum { LEAF, INNER, OVER };

typedef struct node {
    mc_pos pos;
    int state;
    int leaf_score, leaf_depth; /* LEAF: its search; OVER: the result */
    int nk;
    mc_move *mv; /* INNER: the moves and their children */
    int *kid;
    /* of the last pass over the tree (eval) */
    int pass;         /* = the pass when done, -pass in progress */
    int value, depth; /* the backed-up score and its look-ahead */
    double cost;      /* of the cheapest line to a leaf below */
} node;

typedef struct build {
    mc_game *g;
    node *n;
    int nn, cap;
    mc_posmap map; /* positions to node numbers */
    int inner;     /* nodes expanded: the book's positions */
    int pass;
    double width; /* hundredths of a seed that cost one ply */
    /* the leaf searches */
    mc_player *pl;
    int depth, movetime;
    long long searches; /* this run's and the earlier runs' */
    double seconds_before;
} build;

static const mc_pos *node_pos(const void *ctx, int k)
{
    return &((const build *)ctx)->n[k].pos;
}

static int find_node(const build *b, const mc_pos *p)
{
    return mc_posmap_find(&b->map, p);
}

/* A new node for p (not in the tree yet); -1 when out of memory. */
static int add_node(build *b, const mc_pos *p)
{
    if (b->nn + 1 > b->cap) {
        int cap = b->cap ? b->cap * 2 : 256;
        node *nn = realloc(b->n, (size_t)cap * sizeof *nn);
        if (!nn)
            return -1;
        b->n = nn;
        b->cap = cap;
    }
    node *n = &b->n[b->nn];
    memset(n, 0, sizeof *n);
    n->pos = *p;
    n->pos.last = 0;
    if (mc_posmap_add(&b->map, b->nn) != 0)
        return -1;
    return b->nn++;
}

/* Scores one ply up: a win or loss is a ply further away. */
static int up(int s)
{
    return s >= MC_SCORE_PROVEN ? s - 1 : s <= -MC_SCORE_PROVEN ? s + 1 : s;
}

static int down(int s)
{
    return s >= MC_SCORE_PROVEN - 1    ? s + 1
           : s <= -MC_SCORE_PROVEN + 1 ? s - 1
                                       : s;
}

static int proven(int s)
{
    return s >= MC_SCORE_PROVEN || s <= -MC_SCORE_PROVEN;
}

/* The score of a finished game from the view of the side to move. */
static int over_score(const mc_session *s)
{
    mc_result r;
    mc_session_result(s, &r);
    int me = mc_session_pos(s)->side;
    return r.winner == MC_DRAW ? 0
           : r.winner == me    ? MC_SCORE_WIN
                               : -MC_SCORE_WIN;
}

/* Value, look-ahead and cost of node i and everything below it (once a
   pass).  A child that is an ancestor (a cycle) counts as a draw that
   cannot be expanded. */
static void eval(build *b, int i)
{
    node *n = &b->n[i];
    if (n->pass == b->pass || n->pass == -b->pass)
        return;
    if (n->state != INNER) {
        n->value = n->leaf_score;
        n->depth = n->leaf_depth;
        n->cost = n->state == LEAF && !proven(n->leaf_score) ? 0 : INFINITY;
        n->pass = b->pass;
        return;
    }
    n->pass = -b->pass;
    for (int k = 0; k < n->nk; k++)
        eval(b, n->kid[k]);
    n = &b->n[i];
    int best = -MC_SCORE_WIN - 1, depth = 0;
    for (int k = 0; k < n->nk; k++) {
        const node *c = &b->n[n->kid[k]];
        int s = c->pass == -b->pass ? 0 : up(-c->value);
        if (s > best) {
            best = s;
            depth = c->pass == -b->pass ? 1 : 1 + c->depth;
        }
    }
    double cost = INFINITY;
    for (int k = 0; k < n->nk; k++) {
        const node *c = &b->n[n->kid[k]];
        if (c->pass == -b->pass)
            continue;
        double d = c->cost + 1 + (best - up(-c->value)) / b->width;
        if (d < cost)
            cost = d;
    }
    n->value = best;
    n->depth = depth;
    n->cost = cost;
    n->pass = b->pass;
}

static void eval_all(build *b)
{
    b->pass++;
    eval(b, 0);
    for (int i = 1; i < b->nn; i++)
        if (b->n[i].state == INNER)
            eval(b, i); /* positions the start does not lead to */
}

/* The book of the tree: every expanded position with its moves. */
static mc_book *book_of(build *b, double seconds, mc_error *err)
{
    eval_all(b);
    mc_book *bk = mc_book_new(b->g);
    if (!bk) {
        mc_err(err, MC_ERR_NOMEM, "out of memory");
        return NULL;
    }
    char v[64];
    if (b->depth)
        snprintf(v, sizeof v, "depth %d", b->depth);
    else
        snprintf(v, sizeof v, "movetime %d", b->movetime);
    int rc = mc_book_set_info(bk, "leaf", v, err);
    snprintf(v, sizeof v, "%.0f", b->width);
    rc = rc ? rc : mc_book_set_info(bk, "width", v, err);
    snprintf(v, sizeof v, "%lld", b->searches);
    rc = rc ? rc : mc_book_set_info(bk, "searches", v, err);
    snprintf(v, sizeof v, "%.0f", seconds);
    rc = rc ? rc : mc_book_set_info(bk, "seconds", v, err);
    mc_book_move *bm = malloc(MC_MAX_MOVES * sizeof *bm);
    if (!bm)
        rc = mc_err(err, MC_ERR_NOMEM, "out of memory");
    for (int i = 0; i < b->nn && rc == 0; i++) {
        const node *n = &b->n[i];
        if (n->state != INNER)
            continue;
        for (int k = 0; k < n->nk; k++) {
            const node *c = &b->n[n->kid[k]];
            bm[k].move = n->mv[k];
            bm[k].score = up(-c->value);
            bm[k].depth = 1 + c->depth;
        }
        rc = mc_book_put(bk, &n->pos, bm, n->nk, err);
    }
    free(bm);
    if (rc) {
        mc_book_free(bk);
        return NULL;
    }
    return bk;
}

/* ---- build: going on from a book file ---- */

static int result_score(const mc_result *r, int side)
{
    return r->winner == MC_DRAW ? 0
           : r->winner == side  ? MC_SCORE_WIN
                                : -MC_SCORE_WIN;
}

/* The tree of book bk: its positions expanded; the children that are not
   in it are leaves, scored by the move to them.  The start must be in it
   (unless it is empty). */
static int tree_of(build *b, const mc_book *bk, const char *file)
{
    mc_book_move *bm = malloc(MC_MAX_MOVES * sizeof *bm);
    if (!bm)
        return -1;
    int size = mc_book_size(bk), rc = 0;
    for (int i = 0; i < size && rc == 0; i++) {
        mc_pos p;
        int n = mc_book_at(bk, i, &p, bm);
        int k = find_node(b, &p);
        if (k < 0)
            k = add_node(b, &p);
        node *nd = k >= 0 ? &b->n[k] : NULL;
        if (nd) {
            nd->mv = malloc((size_t)n * sizeof *nd->mv);
            nd->kid = malloc((size_t)n * sizeof *nd->kid);
        }
        if (!nd || !nd->mv || !nd->kid) {
            rc = -1;
            break;
        }
        /* the children in the game's order, as an expansion makes them
           (ties between lines go the same way after a rerun) */
        mc_move legal[MC_MAX_MOVES];
        int nl = mc_moves(b->g, &p, legal);
        nd->state = INNER;
        nd->nk = 0;
        for (int j = 0; j < nl; j++)
            for (int m = 0; m < n; m++)
                if (bm[m].move == legal[j]) {
                    nd->kid[nd->nk] = -1;
                    nd->mv[nd->nk++] = legal[j];
                }
        b->inner++;
    }
    /* the children, once every expanded position is known */
    for (int i = 0; i < b->nn && rc == 0; i++) {
        if (b->n[i].state != INNER)
            continue;
        mc_pos p = b->n[i].pos;
        mc_book_moves(bk, b->g, &p, bm);
        for (int j = 0; j < b->n[i].nk && rc == 0; j++) {
            int m = 0;
            while (bm[m].move != b->n[i].mv[j])
                m++;
            mc_pos c = p;
            mc_play(b->g, &c, bm[m].move, NULL);
            int k = find_node(b, &c);
            if (k < 0 && (k = add_node(b, &c)) >= 0) {
                mc_result r;
                mc_status(b->g, &c, NULL, &r);
                node *cn = &b->n[k];
                cn->state = r.over ? OVER : LEAF;
                cn->leaf_score =
                    r.over ? result_score(&r, c.side) : -down(bm[m].score);
                cn->leaf_depth = r.over ? 0 : bm[m].depth - 1;
            }
            if (k < 0)
                rc = -1;
            else
                b->n[i].kid[j] = k;
        }
    }
    free(bm);
    if (rc != 0) {
        fprintf(stderr, _("mancala book build: out of memory\n"));
        return -1;
    }
    if (size > 0 && b->n[0].state != INNER) {
        fprintf(stderr,
                _("mancala book build: %s does not hold the start "
                  "position: it was not made by book build (give "
                  "another --out)\n"),
                file);
        return -1;
    }
    return 0;
}

/* ---- build: growing the tree ---- */

static volatile sig_atomic_t interrupted;
static int stop_flag;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
    __atomic_store_n(&stop_flag, 1, __ATOMIC_SEQ_CST);
}

/* Search the session's position with an empty table (so that a build to
   a depth gives the same book at once or in pieces); -1 when stopped. */
static int search_leaf(build *b, const mc_session *s, int *score, int *depth)
{
    mc_player_newgame(b->pl);
    mc_error err = {0, ""};
    if (mc_player_sync(b->pl, s, &err) != 0)
        return -1;
    mc_go go = {0};
    go.depth = b->depth;
    go.movetime = b->movetime / 1000.0;
    go.stop = &stop_flag;
    mc_search_info info;
    if (mc_player_go(b->pl, &go, &info) != 0 || interrupted)
        return -1;
    *score = info.score;
    *depth = info.depth;
    b->searches++;
    return 0;
}

/* Play on s the cheapest line from the start to a leaf; the leaf, or -1
   when every line ends in a proven result (or comes back on itself). */
static int choose_leaf(build *b, mc_session *s)
{
    int i = 0, path[1024], np = 0;
    while (b->n[i].state == INNER && np < 1024) {
        path[np++] = i;
        const node *n = &b->n[i];
        int pick = -1;
        double cost = INFINITY;
        for (int k = 0; k < n->nk; k++) {
            const node *c = &b->n[n->kid[k]];
            int on_path = 0;
            for (int j = 0; j < np && !on_path; j++)
                on_path = path[j] == n->kid[k];
            double d = c->cost + 1 + (n->value - up(-c->value)) / b->width;
            if (!on_path && isfinite(c->cost) && d < cost) {
                cost = d;
                pick = k;
            }
        }
        if (pick < 0 || mc_session_play(s, n->mv[pick], NULL, NULL) != 0)
            return -1;
        i = n->kid[pick];
    }
    return b->n[i].state == LEAF ? i : -1;
}

/* Search every move of leaf i (its line played on s) and make it a book
   position; -1 when stopped or out of memory (the leaf stays a leaf). */
static int expand(build *b, int i, mc_session *s)
{
    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(s, mv);
    int *kid = malloc((size_t)n * sizeof *kid);
    mc_move *mvs = malloc((size_t)n * sizeof *mvs);
    for (int k = 0; k < n && kid && mvs; k++) {
        if (mc_session_play(s, mv[k], NULL, NULL) != 0)
            break;
        mc_pos cp = *mc_session_pos(s);
        int c = find_node(b, &cp);
        if (c < 0) {
            int score = 0, depth = 0, over = mc_session_over(s);
            if (over)
                score = over_score(s);
            else if (search_leaf(b, s, &score, &depth) != 0)
                break;
            if ((c = add_node(b, &cp)) < 0)
                break;
            b->n[c].state = over ? OVER : LEAF;
            b->n[c].leaf_score = score;
            b->n[c].leaf_depth = depth;
        }
        mc_session_undo(s);
        kid[k] = c;
        mvs[k] = mv[k];
        if (k + 1 == n) {
            node *nd = &b->n[i];
            nd->state = INNER;
            nd->nk = n;
            nd->kid = kid;
            nd->mv = mvs;
            b->inner++;
            return 0;
        }
    }
    free(kid);
    free(mvs);
    return -1;
}

/* ---- build: the command ---- */

static const char *const build_usage =
    N_("usage: mancala book build [--out FILE] [--positions N]\n"
       "                          [--depth D | --movetime MS] [--width W]\n"
       "                          [--threads T] [--hash MB] [--save-every S]\n"
       "                          [--game SPEC] [--quiet]\n\n"
       "Build an opening book (docs/BOOK.md) by drop-out expansion from the\n"
       "start position: every move of an expanded position is searched, to\n"
       "depth D (default 20) or for MS milliseconds, with an empty table and\n"
       "T threads (default 1) of MB MiB (default 16), and the scores are\n"
       "backed up through the tree by minimax.  The position expanded next is\n"
       "the leaf at the end of the cheapest line from the start, a line\n"
       "costing 1 a ply plus 1 for every W hundredths of a seed (default 50)\n"
       "by which its moves fall short of the best ones.  N positions are\n"
       "expanded (default 100).\n"
       "The book is written to FILE (default GAME.book, here) atomically at\n"
       "the start, every S seconds (default 30; 0: after every position) and\n"
       "at the end; Ctrl-C saves and stops.  A rerun goes on from FILE: the\n"
       "same command finishes a stopped build, a larger N makes the book\n"
       "grow (the leaves' depth or time must stay the same).  With --depth\n"
       "and one thread a build is deterministic, whether it ran at once or in\n"
       "pieces.  A line of progress goes to standard error (--quiet: none).\n"
       "--game: the variant (default oware; the program's own book is used\n"
       "for oware only, other books through --book or 'set book FILE').\n");

typedef struct build_opts {
    const char *out, *spec;
    long positions, depth, movetime, width, threads, hash, save_every;
    int quiet;
} build_opts;

static int parse_build(int argc, char **argv, build_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(_(build_usage), stdout);
            return 1;
        }
        if (strcmp(a, "--quiet") == 0) {
            o->quiet = 1;
            continue;
        }
        static const struct {
            const char *name;
            long max;
            size_t at;
        } nums[] = {
            {"--positions", 10000000, offsetof(build_opts, positions)},
            {"--depth", 64, offsetof(build_opts, depth)},
            {"--movetime", 3600000, offsetof(build_opts, movetime)},
            {"--width", 100000, offsetof(build_opts, width)},
            {"--threads", MC_MAX_THREADS, offsetof(build_opts, threads)},
            {"--hash", 4096, offsetof(build_opts, hash)},
            {"--save-every", 86400, offsetof(build_opts, save_every)},
        };
        size_t k = 0;
        while (k < sizeof nums / sizeof nums[0] && strcmp(a, nums[k].name))
            k++;
        int text = strcmp(a, "--out") == 0 || strcmp(a, "--game") == 0;
        if (k == sizeof nums / sizeof nums[0] && !text) {
            fprintf(stderr,
                    _("mancala book build: unknown argument '%s' (try "
                      "'mancala book build --help')\n"),
                    a);
            return -1;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, _("mancala book build: %s needs a value\n"), a);
            return -1;
        }
        const char *v = argv[++i];
        if (text) {
            *(a[2] == 'o' ? &o->out : &o->spec) = v;
            continue;
        }
        long min = strcmp(a, "--save-every") == 0 ? 0 : 1;
        long n = cli_number(v, nums[k].max);
        if (n < min) {
            fprintf(stderr,
                    _("mancala book build: %s takes a whole number "
                      "from %ld to %ld, not '%s'\n"),
                    a, min, nums[k].max, v);
            return -1;
        }
        *(long *)((char *)o + nums[k].at) = n;
    }
    if (o->depth && o->movetime) {
        fprintf(stderr, _("mancala book build: give --depth or --movetime, "
                          "not both\n"));
        return -1;
    }
    if (!o->depth && !o->movetime)
        o->depth = 20;
    return 0;
}

/* "mancala book build ARGS", quoted where a word needs it. */
static void command_line(int argc, char **argv, char *buf, size_t n)
{
    mc_sb sb;
    mc_sb_init(&sb, buf, n);
    mc_sb_printf(&sb, "mancala book");
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (*a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"
                            "VWXYZ0123456789-_./=:,+") == strlen(a))
            mc_sb_printf(&sb, " %s", a);
        else
            mc_sb_printf(&sb, " '%s'", a); /* no quote is in our words */
    }
}

static void fmt_time(char *buf, size_t n, double s)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60)
        snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, n, "%lds", t);
}

static int save_book(build *b, const char *out, const char *cmd, double seconds)
{
    mc_error err = {0, ""};
    mc_book *bk = book_of(b, seconds, &err);
    char comment[4096 + 512], date[64], spent[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &tm);
    fmt_time(spent, sizeof spent, seconds);
    snprintf(comment, sizeof comment,
             "mancala opening book of %s (docs/BOOK.md)\n"
             "built by: %s\n"
             "saved %s: %d positions, %lld leaf searches, %s of building",
             mc_game_spec(b->g), cmd, date, b->inner, b->searches, spent);
    int rc = bk ? mc_book_save(bk, out, comment, &err) : -1;
    mc_book_free(bk);
    if (rc != 0)
        fprintf(stderr, _("mancala book build: %s\n"), err.msg);
    return rc;
}

/* The progress line: positions, searches, time, the line just expanded. */
static void progress(const build *b, const build_opts *o, int tty,
                     const mc_session *s, double run, int done_here)
{
    if (o->quiet)
        return;
    char line[512], t[32], left[48] = "", sc[32];
    mc_sb sb;
    mc_sb_init(&sb, line, sizeof line);
    fmt_time(t, sizeof t, run);
    if (done_here > 0 && b->inner < o->positions) {
        char e[32];
        fmt_time(e, sizeof e, run / done_here * (o->positions - b->inner));
        snprintf(left, sizeof left, _(", %s left"), e);
    }
    cli_format_score(sc, sizeof sc, b->n[0].value);
    mc_sb_printf(&sb,
                 "book: %d/%ld positions, %lld searches, %s%s; "
                 "start %s; expanded %s",
                 b->inner, o->positions, b->searches, t, left, sc,
                 mc_session_ply(s) ? "" : "the start");
    for (int i = 0; i < mc_session_ply(s) && i < 16; i++) {
        char m[MC_MOVE_STRLEN];
        mc_move_format(b->g, mc_session_pos_at(s, i), mc_session_move_at(s, i),
                       m, sizeof m);
        mc_sb_printf(&sb, "%s%s", i ? " " : "", m);
    }
    if (mc_session_ply(s) > 16)
        mc_sb_printf(&sb, " ...");
    if (tty)
        fprintf(stderr, "\r%s\033[K", line);
    else
        fprintf(stderr, "%s\n", line);
}

/* "positions by ply: 1 6 14 ...": the book's positions by their distance
   from the start (the shortest line to them). */
static void ply_counts(const build *b, char *buf, size_t n)
{
    mc_sb sb;
    mc_sb_init(&sb, buf, n);
    int *ply = malloc((size_t)b->nn * sizeof *ply);
    int *queue = malloc((size_t)b->nn * sizeof *queue);
    if (!ply || !queue || b->n[0].state != INNER) {
        free(ply);
        free(queue);
        return;
    }
    for (int i = 0; i < b->nn; i++)
        ply[i] = -1;
    int head = 0, tail = 0, count[256] = {0}, top = 0;
    ply[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        const node *nd = &b->n[queue[head]];
        int p = ply[queue[head++]];
        if (p < 256)
            count[p]++;
        top = p > top ? p : top;
        for (int k = 0; k < nd->nk; k++) {
            int c = nd->kid[k];
            if (ply[c] < 0 && b->n[c].state == INNER) {
                ply[c] = p + 1;
                queue[tail++] = c;
            }
        }
    }
    mc_sb_printf(&sb, "positions by ply:");
    for (int p = 0; p <= top && p < 256; p++)
        mc_sb_printf(&sb, " %d", count[p]);
    free(ply);
    free(queue);
}

static void free_build(build *b)
{
    for (int i = 0; i < b->nn; i++) {
        free(b->n[i].mv);
        free(b->n[i].kid);
    }
    free(b->n);
    mc_posmap_free(&b->map);
    mc_player_free(b->pl);
    mc_game_free(b->g);
}

/* The start as the tree's first node, and the player of the leaves'
   searches (level 10, an empty table each search, no tables, no book);
   -1 after saying why not. */
static int start_build(build *b, const build_opts *o)
{
    mc_pos start;
    mc_start(b->g, &start);
    mc_player_opts po = {0};
    po.level = 10;
    po.threads = (int)o->threads;
    po.hash_mb = (int)o->hash;
    po.tables = "none";
    po.book = "none";
    po.seed = 1;
    mc_error err = {0, ""};
    if (add_node(b, &start) < 0 || !(b->pl = mc_player_new(b->g, &po, &err))) {
        fprintf(stderr, _("mancala book build: %s\n"),
                err.msg[0] ? err.msg : "out of memory");
        return -1;
    }
    assert(b->nn == 1 && b->n[0].state == LEAF); /* the start: node 0 */
    return 0;
}

/* Going on from the book in file `out`: the tree it holds, when it was
   built for the same game with the same budget a leaf; -1 after saying
   why not. */
static int go_on_from(build *b, const build_opts *o, const char *out)
{
    mc_error err = {0, ""};
    mc_book *old = mc_book_load(out, &err);
    if (!old) {
        fprintf(stderr, _("mancala book build: %s\n"), err.msg);
        return -1;
    }
    char want[64];
    if (b->depth)
        snprintf(want, sizeof want, "depth %d", b->depth);
    else
        snprintf(want, sizeof want, "movetime %d", b->movetime);
    const char *leaf = mc_book_info(old, "leaf");
    const char *n = mc_book_info(old, "searches");
    const char *sec = mc_book_info(old, "seconds");
    int bad = 1;
    if (strcmp(mc_book_spec(old), mc_game_spec(b->g)) != 0)
        fprintf(stderr,
                _("mancala book build: %s is a book of %s, not %s "
                  "(give another --out)\n"),
                out, mc_book_spec(old), mc_game_spec(b->g));
    else if (!leaf)
        fprintf(stderr,
                _("mancala book build: %s has no 'leaf' line: it "
                  "was not made by book build (give another "
                  "--out)\n"),
                out);
    else if (strcmp(leaf, want) != 0)
        fprintf(stderr,
                _("mancala book build: %s was built with leaves "
                  "searched to %s, not %s: give the same budget to "
                  "go on with it, or another --out\n"),
                out, leaf, want);
    else
        bad = tree_of(b, old, out);
    if (!bad) {
        b->searches = n ? atoll(n) : 0;
        b->seconds_before = sec ? atof(sec) : 0;
    }
    mc_book_free(old);
    if (bad)
        return -1;
    if (!o->quiet)
        fprintf(stderr,
                _("book: going on from %s: %d positions, %lld "
                  "leaf searches\n"),
                out, b->inner, b->searches);
    return 0;
}

/* Ctrl-C (and a TERM) saves and stops. */
static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* How the growing went: positions expanded in this run, whether every
   line ended in a proven result, whether memory ran out; progress goes
   to a terminal (one line redrawn) or not. */
typedef struct growth {
    int tty, here, complete, failed;
} growth;

/* Expand the cheapest leaf until the tree holds o->positions positions,
   no leaf is left or a signal came, saving every o->save_every seconds;
   -1 when a save failed (said). */
static int grow_tree(build *b, const build_opts *o, const char *out,
                     const char *cmd, double t0, growth *gw)
{
    double saved = t0;
    while (b->inner < o->positions && !interrupted) {
        eval_all(b);
        mc_session *s = mc_session_new(b->g, NULL);
        int leaf = s ? choose_leaf(b, s) : -1;
        if (!s || leaf < 0) {
            gw->complete = s != NULL;
            gw->failed = !s;
            mc_session_free(s);
            break;
        }
        assert(leaf < b->nn && b->n[leaf].state == LEAF);
        if (expand(b, leaf, s) != 0) {
            gw->failed = !interrupted;
            mc_session_free(s);
            break;
        }
        assert(b->n[leaf].state == INNER && b->inner <= b->nn);
        gw->here++;
        eval_all(b);
        double t = mc_clock();
        progress(b, o, gw->tty, s, t - t0, gw->here);
        mc_session_free(s);
        if (t - saved >= (double)o->save_every && b->inner < o->positions) {
            if (save_book(b, out, cmd, b->seconds_before + t - t0) != 0)
                return -1;
            saved = t;
        }
    }
    return 0;
}

/* The last save and what the run did; the exit code. */
static int finish_build(build *b, const build_opts *o, const char *out,
                        const char *cmd, double t0, const growth *gw)
{
    double run = mc_clock() - t0;
    if (gw->tty && !o->quiet && gw->here)
        fprintf(stderr, "\n");
    if (gw->failed)
        fprintf(stderr, _("mancala book build: out of memory\n"));
    if (save_book(b, out, cmd, b->seconds_before + run) != 0)
        return EXIT_BAD_INPUT;
    char t[32], all[32];
    fmt_time(t, sizeof t, run);
    fmt_time(all, sizeof all, b->seconds_before + run);
    if (interrupted) {
        fprintf(stderr,
                _("book: stopped: %s holds %d positions; the same "
                  "command goes on from there\n"),
                out, b->inner);
        return 130;
    }
    if (gw->failed)
        return EXIT_BAD_INPUT;
    char plies[1024] = "";
    ply_counts(b, plies, sizeof plies);
    if (!o->quiet)
        fprintf(stderr,
                _("book: %s: %d positions%s, %lld leaf searches, "
                  "%s (%s in all); %s\n"),
                out, b->inner,
                gw->complete    ? " (every line ends in a proven result)"
                : gw->here == 0 ? " (nothing to do)"
                                : "",
                b->searches, t, all, plies);
    return 0;
}

static int book_build(int argc, char **argv)
{
    build_opts o = {0};
    o.positions = 100;
    o.width = 50;
    o.threads = 1;
    o.hash = 16;
    o.save_every = 30;
    int prc = parse_build(argc, argv, &o);
    if (prc != 0)
        return prc > 0 ? 0 : EXIT_USAGE;
    build b = {0};
    mc_posmap_init(&b.map, node_pos, &b);
    b.width = (double)o.width;
    b.depth = (int)o.depth;
    b.movetime = (int)o.movetime;
    if (!(b.g = cli_game(o.spec ? o.spec : "oware")))
        return EXIT_BAD_INPUT;
    char out_default[MC_SPEC_STRLEN + 8];
    snprintf(out_default, sizeof out_default, "%s.book", mc_game_name(b.g));
    const char *out = o.out ? o.out : out_default;
    char cmd[4096];
    command_line(argc, argv, cmd, sizeof cmd);
    int rc = EXIT_BAD_INPUT;
    if (start_build(&b, &o) != 0)
        goto out;
    int fresh = access(out, F_OK) != 0;
    if (!fresh && go_on_from(&b, &o, out) != 0)
        goto out;
    catch_signals();
    double t0 = mc_clock();
    if (fresh && save_book(&b, out, cmd, 0) != 0)
        goto out;
    growth gw = {isatty(2), 0, 0, 0};
    if (grow_tree(&b, &o, out, cmd, t0, &gw) == 0)
        rc = finish_build(&b, &o, out, cmd, t0, &gw);
out:
    free_build(&b);
    return rc;
}

int cmd_book(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "build") == 0)
        return book_build(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "show") == 0)
        return book_show(argc - 2, argv + 2);
    return book_show(argc - 1, argv + 1);
}
