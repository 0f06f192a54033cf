/*
 * test_book.c - opening books (docs/BOOK.md): the text format read
 * strictly (every kind of bad line refused with its line number and what
 * is wrong, never a crash), written back, the book built into the library,
 * and the player's use of a book: only legal moves, the best one at
 * variety 0 whatever the seed, only moves within the margin above it,
 * none with "none", at lower levels, in infinite searches or at a position
 * seen before; a search where the book has nothing.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "mancala.h"

/* The start with six book moves, C the best; then the position after C
   with two. */
static const char small[] =
    "# a test book\n"
    "book 1\n"
    "game oware\n"
    "leaf depth 6\n"
    "width 50\n"
    "\n"
    "4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 | B 0 8 | C 10 9 | E -5 8 "
    "| F -30 8 | A -50 8 | D -60 9\n"
    "4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0 | b 150 8 | a 30 7\n";

static mc_move move_of(const mc_game *g, const mc_pos *p, const char *tok)
{
    mc_move m = 0;
    mc_error err = {0, ""};
    CHECK_MSG(mc_move_parse(g, p, tok, &m, &err) == 0, "%s: %s", tok, err.msg);
    return m;
}

static void test_read(void)
{
    mc_error err = {0, ""};
    mc_book *b = mc_book_read(small, strlen(small), "small.book", &err);
    CHECK_MSG(b != NULL, "%s", err.msg);
    if (!b)
        return;
    mc_game *g = mc_game_new("oware", NULL);
    mc_pos p;
    mc_start(g, &p);
    CHECK_STR(mc_book_spec(b), "oware");
    CHECK(mc_book_size(b) == 2);
    CHECK_STR(mc_book_info(b, "leaf"), "depth 6");
    CHECK_STR(mc_book_info(b, "width"), "50");
    CHECK(mc_book_info(b, "searches") == NULL);
    mc_book_move bm[MC_MAX_MOVES];
    /* best first, whatever the file's order */
    CHECK(mc_book_moves(b, g, &p, bm) == 6);
    CHECK(bm[0].move == move_of(g, &p, "C") && bm[0].score == 10 &&
          bm[0].depth == 9);
    CHECK(bm[1].move == move_of(g, &p, "B") && bm[5].score == -60);
    /* a position not in the book; another game's position is not looked
       up in it */
    mc_pos q = p;
    mc_play(g, &q, move_of(g, &p, "A"), NULL);
    CHECK(mc_book_moves(b, g, &q, bm) == 0);
    mc_game *aw = mc_game_new("oware:awari", NULL);
    CHECK(mc_book_moves(b, aw, &p, bm) == 0);
    mc_game_free(aw);
    /* the position after C, found by playing C */
    q = p;
    mc_play(g, &q, move_of(g, &p, "C"), NULL);
    CHECK(mc_book_moves(b, g, &q, bm) == 2 && bm[0].score == 150);
    mc_book_free(b);
    mc_game_free(g);
}

/* Every kind of bad line: refused, the message names the line. */
static void test_bad_lines(void)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"", "small.book:0: not a mancala book (no 'book 1' line)"},
        {"# only a comment\n", "no 'book 1' line"},
        {"game oware\n", "small.book:1: not a mancala book: the first line"},
        {"book 2\ngame oware\n", "small.book:1: book format '2' is not known"},
        {"book 1\n", "no 'game' line"},
        {"book 1\ngame chess\n", "small.book:2: game: unknown game 'chess'"},
        {"book 1\ngame oware:grand_slam=maybe\n", ":2: game: oware: option"},
        {"book 1\ngame oware\ngame oware\n", ":3: a second 'game' line"},
        {"book 1\nbook 1\n", ":2: a second 'book' line"},
        {"book 1\nleaf depth 4\ngame oware\n", ":2: 'leaf' before the 'game'"},
        {"book 1\ngame oware\ncolour blue\n", ":3: unknown directive 'colour'"},
        {"book 1\ngame oware\nleaf depth\n", ":3: leaf: expected 'depth D'"},
        {"book 1\ngame oware\nleaf speed 4\n", ":3: leaf: expected"},
        {"book 1\ngame oware\nleaf depth 0\n", ":3: leaf: expected"},
        {"book 1\ngame oware\nwidth wide\n", ":3: width: expected a whole"},
        {"book 1\ngame oware\nwidth 5\nwidth 6\n", ":4: a second 'width'"},
        {"4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 | A 1 1\n",
         ":1: not a mancala book"},
        {"book 1\n4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 | A 1 1\n",
         ":2: a position before the 'game' line"},
        {"book 1\ngame oware\n4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 | A 1 1\n",
         ":3: position: "},
        {"book 1\ngame oware\n4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 | a 1 1\n",
         ":3: move 'a': "},
        {"book 1\ngame oware\n4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 | Q 1 1\n",
         ":3: move 'Q': "},
        {"book 1\ngame oware\n4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 | A x 1\n",
         ":3: move A: the score 'x' is not a whole number"},
        {"book 1\ngame oware\n4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 | A 2000000 "
         "1\n",
         ":3: move A: the score '2000000' is not"},
        {"book 1\ngame oware\n4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 | A 5 0\n",
         ":3: move A: the depth '0' is not a whole number from 1"},
        {"book 1\ngame oware\n4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 | A 5\n",
         ":3: expected 'MOVE SCORE DEPTH', not 'A 5'"},
        {"book 1\ngame oware\n4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 | A 5 1 2\n",
         ":3: expected 'MOVE SCORE DEPTH'"},
        {"book 1\ngame oware\n4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 |\n",
         ":3: expected 'MOVE SCORE DEPTH'"},
        {"book 1\ngame oware\n4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 | A 1 1 | A 2 "
         "2\n",
         ":3: move A is given twice"},
        {"book 1\ngame oware\n4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 | A 1 1\n"
         "4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 | B 1 1\n",
         ":4: the position 4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 is given twice"},
        /* a finished game has no book moves */
        {"book 1\ngame oware\n4,4,4,4,4,3/0,0,0,0,0,0 S cap=25,0 | F 1 1\n",
         ":3: the game is over in this position"},
        {"book 1\ngame oware\n4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 | A 1 1\n"
         "\0\n",
         ":4: a NUL byte"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mc_error err = {0, ""};
        size_t len = strlen(cases[i].text);
        if (strstr(cases[i].want, "NUL"))
            len += 2; /* the NUL byte and the newline after it */
        mc_book *b = mc_book_read(cases[i].text, len, "small.book", &err);
        CHECK_MSG(b == NULL, "case %zu was read", i);
        CHECK_MSG(err.code != 0 && strstr(err.msg, cases[i].want) != NULL,
                  "case %zu: got '%s', want '%s'", i, err.msg, cases[i].want);
        CHECK_MSG(strncmp(err.msg, "small.book:", 11) == 0,
                  "case %zu: '%s' does not name the file", i, err.msg);
        mc_book_free(b);
    }
}

/* Written back and read again: the same book; the comment is kept as
   "# " lines. */
static void test_round_trip(void)
{
    mc_book *b = mc_book_read(small, strlen(small), "small.book", NULL);
    CHECK(b != NULL);
    if (!b)
        return;
    size_t len = 0;
    char *t = mc_book_format(b, "made by a test\nsecond line", &len);
    CHECK(t != NULL && strlen(t) == len);
    const char *head = "# made by a test\n# second line\nbook 1\n"
                       "game oware\nleaf depth 6\nwidth 50\n";
    CHECK(t && strncmp(t, head, strlen(head)) == 0);
    CHECK(strstr(t, "4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 | C 10 9 | B 0 8 | "
                    "E -5 8 | F -30 8 | A -50 8 | D -60 9\n") != NULL);
    mc_error err = {0, ""};
    mc_book *c = mc_book_read(t, len, "again", &err);
    CHECK_MSG(c != NULL, "%s", err.msg);
    char *t2 =
        c ? mc_book_format(c, "made by a test\nsecond line", NULL) : NULL;
    CHECK(t2 && strcmp(t, t2) == 0);
    free(t);
    free(t2);
    mc_book_free(c);
    mc_book_free(b);
}

static void test_put(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_book *b = mc_book_new(g);
    mc_pos p;
    mc_start(g, &p);
    mc_book_move m[2] = {{move_of(g, &p, "A"), 5, 3}, {0, 0, 1}};
    mc_error err = {0, ""};
    CHECK(mc_book_put(b, &p, m, 1, &err) == 0 && mc_book_size(b) == 1);
    /* a North move at South's turn is not legal */
    mc_pos q = p;
    q.side = MC_NORTH;
    m[1].move = move_of(g, &q, "a");
    CHECK(mc_book_put(b, &p, m, 2, &err) == MC_ERR_ILLEGAL);
    CHECK(strstr(err.msg, "move 2 is not legal") != NULL);
    m[1] = m[0];
    CHECK(mc_book_put(b, &p, m, 2, &err) != 0 &&
          strstr(err.msg, "given twice"));
    m[1].move = move_of(g, &p, "B");
    m[1].score = MC_SCORE_WIN + 1;
    CHECK(mc_book_put(b, &p, m, 2, &err) != 0 &&
          strstr(err.msg, "out of range"));
    m[1].score = 7;
    m[1].depth = 0;
    CHECK(mc_book_put(b, &p, m, 2, &err) != 0 && strstr(err.msg, "depth"));
    /* replacing */
    m[1].depth = 4;
    CHECK(mc_book_put(b, &p, m, 2, &err) == 0 && mc_book_size(b) == 1);
    mc_book_move bm[MC_MAX_MOVES];
    CHECK(mc_book_moves(b, g, &p, bm) == 2 && bm[0].score == 7);
    CHECK(mc_book_set_info(b, "leaf", "movetime 300", &err) == 0);
    CHECK(mc_book_set_info(b, "leaf", "300", &err) != 0);
    CHECK(mc_book_set_info(b, "seconds", "-3", &err) != 0);
    CHECK_STR(mc_book_info(b, "leaf"), "movetime 300");
    mc_book_free(b);
    mc_game_free(g);
}

/* The book in the library: Oware's, for its default options only, every
   move legal. */
static void test_builtin(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    const mc_book *b = mc_book_builtin(g);
    CHECK_MSG(b != NULL && mc_book_size(b) >= 100,
              "the shipped book has %d positions", b ? mc_book_size(b) : -1);
    CHECK(mc_book_builtin(g) == b); /* read once */
    for (int i = 0; b && i < mc_book_size(b); i++) {
        mc_pos p;
        mc_book_move bm[MC_MAX_MOVES];
        mc_move legal[MC_MAX_MOVES];
        int n = mc_book_at(b, i, &p, bm), nl = mc_moves(g, &p, legal);
        CHECK(n >= 1);
        for (int k = 0; k < n; k++) {
            int ok = 0;
            for (int j = 0; j < nl; j++)
                ok |= legal[j] == bm[k].move;
            CHECK_MSG(ok, "position %d, move %d is not legal", i, k);
        }
    }
    mc_pos start;
    mc_start(g, &start);
    mc_book_move bm[MC_MAX_MOVES];
    CHECK(b && mc_book_moves(b, g, &start, bm) == 6);
    static const char *const others[] = {"oware:awari", "oware:first=north",
                                         "omweso", "gore", "sadeqa2"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        mc_game *o = mc_game_new(others[i], NULL);
        CHECK_MSG(o && mc_book_builtin(o) == NULL, "%s has a book", others[i]);
        mc_game_free(o);
    }
    mc_game_free(g);
}

/* The text in a file of its own; the name is written into path. */
static void write_file(char *path, const char *text)
{
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    size_t n = strlen(text);
    CHECK(write(fd, text, n) == (ssize_t)n);
    close(fd);
}

static int is_legal(const mc_session *s, mc_move m)
{
    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(s, mv);
    for (int i = 0; i < n; i++)
        if (mv[i] == m)
            return 1;
    return 0;
}

static mc_player *player(const mc_game *g, const char *book, int variety,
                         int level, uint64_t seed)
{
    mc_player_opts o = {0};
    o.tables = "none";
    o.book = book;
    o.book_variety = variety;
    o.level = level;
    o.seed = seed;
    mc_error err = {0, ""};
    mc_player *pl = mc_player_new(g, &o, &err);
    CHECK_MSG(pl != NULL, "%s", err.msg);
    return pl;
}

static int go(mc_player *pl, const mc_session *s, mc_search_info *info)
{
    mc_go go = {0};
    go.depth = 3;
    return mc_player_sync(pl, s, NULL) == 0 ? mc_player_go(pl, &go, info) : -1;
}

static void test_player(void)
{
    char path[] = "/tmp/test_book_XXXXXX";
    write_file(path, small);
    mc_game *g = mc_game_new("oware", NULL);
    mc_session *s = mc_session_new(g, NULL);
    const mc_pos *p = mc_session_pos(s);
    mc_move C = move_of(g, p, "C"), B = move_of(g, p, "B"),
            E = move_of(g, p, "E");
    mc_search_info info;
    /* variety 0: the best book move, whatever the seed */
    for (uint64_t seed = 0; seed < 20; seed++) {
        mc_player *pl = player(g, path, 0, 10, seed);
        CHECK(pl && mc_book_size(mc_player_book(pl)) == 2);
        CHECK(pl && go(pl, s, &info) == 0);
        CHECK(info.book == 1 && info.best == C && info.score == 10 &&
              info.depth == 9 && info.nodes == 0);
        /* the line: C, then the book's best answer b, then out of it */
        CHECK(info.pvlen == 2 && info.pv[0] == C && is_legal(s, info.best));
        mc_player_free(pl);
    }
    /* variety 15: C, B or E (10, 0, -5), never F (-30), every one
       sometimes; the same seed, the same choices */
    int seen[3] = {0, 0, 0}, other = 0;
    mc_move first[8];
    for (int round = 0; round < 2; round++) {
        mc_player *pl = player(g, path, 15, 10, 7);
        for (int i = 0; i < 200 && pl; i++) {
            CHECK(go(pl, s, &info) == 0 && info.book == 1);
            seen[0] += info.best == C;
            seen[1] += info.best == B;
            seen[2] += info.best == E;
            other += info.best != C && info.best != B && info.best != E;
            if (i < 8 && round == 0)
                first[i] = info.best;
            else if (i < 8)
                CHECK(first[i] == info.best);
        }
        mc_player_free(pl);
    }
    CHECK_MSG(other == 0 && seen[0] && seen[1] && seen[2],
              "C %d, B %d, E %d, others %d", seen[0], seen[1], seen[2], other);
    /* after C: its best answer b */
    mc_session_play_str(s, "C", NULL, NULL);
    mc_player *pl = player(g, path, 0, 10, 1);
    CHECK(go(pl, s, &info) == 0 && info.book == 1 && info.score == 150);
    CHECK(is_legal(s, info.best) && info.pvlen == 1);
    mc_session_undo(s);
    /* a position not in the book is searched */
    mc_session_play_str(s, "A", NULL, NULL);
    CHECK(go(pl, s, &info) == 0 && info.book == 0 && info.nodes > 0 &&
          info.depth == 3 && is_legal(s, info.best));
    mc_session_undo(s);
    /* an infinite search analyses: no book (stopped before it begins) */
    int stop = 1;
    mc_go inf = {0};
    inf.infinite = 1;
    inf.stop = &stop;
    CHECK(mc_player_sync(pl, s, NULL) == 0 &&
          mc_player_go(pl, &inf, &info) == 0 && info.book == 0);
    /* a bad book file is refused and the book in use stays */
    mc_player_opts o = {0};
    o.tables = "none";
    o.book = "/nonexistent/x.book";
    mc_error err = {0, ""};
    CHECK(mc_player_set_opts(pl, &o, &err) == MC_ERR_IO);
    CHECK(strstr(err.msg, "/nonexistent/x.book") != NULL);
    CHECK(mc_player_book(pl) != NULL && go(pl, s, &info) == 0 && info.book);
    o.book = path;
    o.book_variety = -1;
    CHECK(mc_player_set_opts(pl, &o, &err) == MC_ERR_ARG);
    /* "none": no book, a search */
    o.book = "none";
    o.book_variety = 0;
    CHECK(mc_player_set_opts(pl, &o, &err) == 0 && !mc_player_book(pl));
    CHECK(go(pl, s, &info) == 0 && info.book == 0 && info.nodes > 0);
    /* NULL: the built-in book */
    o.book = NULL;
    CHECK(mc_player_set_opts(pl, &o, &err) == 0);
    CHECK(mc_player_book(pl) == mc_book_builtin(g));
    CHECK(go(pl, s, &info) == 0 && info.book == 1 && is_legal(s, info.best));
    mc_player_free(pl);
    /* the lower levels never play from the book */
    pl = player(g, path, 0, 9, 1);
    CHECK(go(pl, s, &info) == 0 && info.book == 0 && info.nodes > 0);
    mc_player_free(pl);
    /* mc_search (tools, proofs) never either */
    mc_search_limits lim = {0};
    lim.depth = 2;
    CHECK(mc_search(s, &lim, &info) == 0 && info.book == 0);
    unlink(path);
    mc_session_free(s);
    mc_game_free(g);
}

/* A book for repetition=threefold, whose position recurs: the second time
   it is searched (the book knows no history).  A player of another game
   does not use the book. */
static void test_history(void)
{
    char path[] = "/tmp/test_book_XXXXXX";
    write_file(path, "book 1\ngame oware:repetition=threefold\n"
                     "1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23 | A 0 5\n");
    mc_game *g = mc_game_new("oware:repetition=threefold", NULL);
    mc_pos p;
    mc_error err = {0, ""};
    CHECK(mc_pos_parse(g, "1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23", &p, &err) ==
          0);
    mc_session *s = mc_session_new(g, &p);
    mc_player *pl = player(g, path, 0, 10, 1);
    mc_search_info info;
    CHECK(go(pl, s, &info) == 0 && info.book == 1);
    static const char *const back[] = {"A", "a", "B", "b", "C", "c",
                                       "D", "d", "E", "e", "F", "f"};
    for (int i = 0; i < 12; i++)
        CHECK(mc_session_play_str(s, back[i], NULL, &err) == 0);
    CHECK(!mc_session_over(s) &&
          memcmp(mc_session_pos(s), &p, 32) == 0); /* the pits are back */
    CHECK(go(pl, s, &info) == 0 && info.book == 0 && info.nodes > 0);
    mc_player_free(pl);
    mc_session_free(s);
    mc_game_free(g);
    g = mc_game_new("oware", NULL);
    pl = player(g, path, 0, 10, 1);
    CHECK(pl && mc_player_book(pl) == NULL);
    mc_player_free(pl);
    mc_game_free(g);
    unlink(path);
}

/* What a book move costs the player (docs/BOOK.md gives the figure). */
static void test_cost(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_session *s = mc_session_new(g, NULL);
    mc_player *pl = player(g, NULL, 20, 10, 1);
    mc_go gg = {0};
    gg.depth = 1; /* should the book be missing: a short search */
    mc_search_info info;
    int n = mc_book_builtin(g) ? 20000 : 1, book = 0;
    CHECK(mc_player_sync(pl, s, NULL) == 0);
    double t0 = mc_clock();
    for (int i = 0; i < n; i++)
        book += mc_player_go(pl, &gg, &info) == 0 && info.book;
    double us = (mc_clock() - t0) / n * 1e6;
    printf("a book move of the built-in book: %.2f us\n", us);
    CHECK(book == n);
    CHECK_MSG(us < 1000, "%.1f us a book move", us);
    mc_player_free(pl);
    mc_session_free(s);
    mc_game_free(g);
}

int main(void)
{
    test_read();
    test_bad_lines();
    test_round_trip();
    test_put();
    test_builtin();
    test_player();
    test_history();
    test_cost();
    return check_report("test_book");
}
