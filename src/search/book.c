/*
 * book.c - opening books (docs/BOOK.md): the text format read strictly and
 * written back, positions found by their bytes through a hash index, the
 * books shipped in the library (data/book/, embedded), and the book a
 * player takes its moves from.  Knows no rule: positions and moves go
 * through the game's own parsing, formatting and move lists.  It never
 * searches; the book is made by `mancala book build` (src/cli/book.c).
 */
#include "book.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/file.h"
#include "../core/posmap.h"
#include "../core/i18n.h"
#include "../core/util.h"

/* The format this file reads and writes (the `book` line). */
#define BOOK_FORMAT 1
/* Deepest look-ahead a book line may claim. */
#define BOOK_MAX_DEPTH 1000
/* Largest book file read. */
#define BOOK_MAX_BYTES ((size_t)256 << 20)

typedef struct entry {
    mc_pos pos; /* compared up to `last` (mancala.h) */
    char *key;  /* its position string */
    int n;
    mc_book_move *mv; /* best first */
} entry;

/* The directives besides `book` and `game`, in the order they are
   written. */
static const char *const info_keys[] = {"leaf", "width", "searches", "seconds"};
#define NINFO (sizeof info_keys / sizeof info_keys[0])

struct mc_book {
    mc_game *g;
    entry *e;
    int n, cap;
    mc_posmap index; /* positions to entry numbers */
    char *info[NINFO];
};

/* ---- the index ---- */

static const mc_pos *entry_pos(const void *ctx, int k)
{
    return &((const mc_book *)ctx)->e[k].pos;
}

static int find(const mc_book *b, const mc_pos *p)
{
    return mc_posmap_find(&b->index, p);
}

/* ---- making and reading ---- */

static mc_book *book_of_spec(const char *spec, mc_error *err)
{
    mc_book *b = calloc(1, sizeof *b);
    if (!b) {
        mc_err(err, MC_ERR_NOMEM, _("out of memory"));
        return NULL;
    }
    b->g = mc_game_new(spec, err);
    if (!b->g) {
        free(b);
        return NULL;
    }
    mc_posmap_init(&b->index, entry_pos, b);
    return b;
}

mc_book *mc_book_new(const mc_game *g)
{
    return book_of_spec(mc_game_spec(g), NULL);
}

void mc_book_free(mc_book *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->n; i++) {
        free(b->e[i].key);
        free(b->e[i].mv);
    }
    for (size_t i = 0; i < NINFO; i++)
        free(b->info[i]);
    free(b->e);
    mc_posmap_free(&b->index);
    mc_game_free(b->g);
    free(b);
}

const char *mc_book_spec(const mc_book *b)
{
    return mc_game_spec(b->g);
}

int mc_book_size(const mc_book *b)
{
    return b->n;
}

static int info_slot(const char *key)
{
    for (size_t i = 0; i < NINFO; i++)
        if (strcmp(key, info_keys[i]) == 0)
            return (int)i;
    return -1;
}

const char *mc_book_info(const mc_book *b, const char *key)
{
    int i = info_slot(key);
    return i < 0 ? NULL : b->info[i];
}

/* A whole number of at most 12 digits, '-' allowed when `sign`; -1 when
   s is not one (*v is then untouched). */
static int whole(const char *s, int sign, long long *v)
{
    int neg = sign && *s == '-';
    const char *d = s + neg;
    size_t n = strlen(d);
    if (n == 0 || n > 12 || strspn(d, "0123456789") != n)
        return -1;
    long long x = 0;
    for (; *d; d++)
        x = x * 10 + (*d - '0');
    *v = neg ? -x : x;
    return 0;
}

static int unknown_directive(mc_error *err, const char *key)
{
    return mc_err(err, MC_ERR_ARG,
                  _("unknown directive '%.40s' (directives: book, game, leaf, "
                    "width, searches, seconds)"),
                  key);
}

int mc_book_set_info(mc_book *b, const char *key, const char *value,
                     mc_error *err)
{
    int i = info_slot(key);
    if (i < 0)
        return unknown_directive(err, key);
    long long v;
    if (i == 0) {
        /* leaf depth D | leaf movetime MS */
        char kind[16];
        const char *rest = value;
        int ok = mc_next_field(&rest, kind, sizeof kind) &&
                 (strcmp(kind, "depth") == 0 || strcmp(kind, "movetime") == 0);
        while (*rest == ' ' || *rest == '\t')
            rest++;
        if (!ok || whole(rest, 0, &v) != 0 || v < 1)
            return mc_err(err, MC_ERR_ARG,
                          _("leaf: expected 'depth D' or 'movetime MS' "
                            "(whole numbers from 1), not '%.60s'"),
                          value);
    } else if (whole(value, 0, &v) != 0) {
        return mc_err(err, MC_ERR_ARG,
                      _("%s: expected a whole number, not '%.60s'"), key,
                      value);
    }
    char *copy = malloc(strlen(value) + 1);
    if (!copy)
        return mc_err(err, MC_ERR_NOMEM, _("out of memory"));
    strcpy(copy, value);
    free(b->info[i]);
    b->info[i] = copy;
    return 0;
}

int mc_book_put(mc_book *b, const mc_pos *p, const mc_book_move *m, int n,
                mc_error *err)
{
    if (n < 1 || n > MC_MAX_MOVES)
        return mc_err(err, MC_ERR_ARG,
                      _("a book position has 1 to %d moves, "
                        "not %d"),
                      MC_MAX_MOVES, n);
    mc_result r;
    mc_status(b->g, p, NULL, &r);
    if (r.over)
        return mc_err(err, MC_ERR_ARG, _("the game is over in this position"));
    mc_move legal[MC_MAX_MOVES];
    int nl = mc_moves(b->g, p, legal);
    for (int i = 0; i < n; i++) {
        int ok = 0;
        for (int j = 0; j < nl && !ok; j++)
            ok = legal[j] == m[i].move;
        if (!ok)
            return mc_err(err, MC_ERR_ILLEGAL,
                          _("move %d is not legal in this position"), i + 1);
        char tok[MC_MOVE_STRLEN];
        mc_move_format(b->g, p, m[i].move, tok, sizeof tok);
        for (int j = 0; j < i; j++)
            if (m[j].move == m[i].move)
                return mc_err(err, MC_ERR_ARG, _("move %s is given twice"),
                              tok);
        if (m[i].score < -MC_SCORE_WIN || m[i].score > MC_SCORE_WIN)
            return mc_err(
                err, MC_ERR_ARG,
                _("move %s: the score %d is out of range (-%d to %d)"), tok,
                m[i].score, MC_SCORE_WIN, MC_SCORE_WIN);
        if (m[i].depth < 1 || m[i].depth > BOOK_MAX_DEPTH)
            return mc_err(err, MC_ERR_ARG,
                          _("move %s: the depth %d is out of range (1 to %d)"),
                          tok, m[i].depth, BOOK_MAX_DEPTH);
    }
    mc_book_move *mv = malloc((size_t)n * sizeof *mv);
    char key[MC_POS_STRLEN];
    mc_pos_format(b->g, p, key, sizeof key);
    char *ks = malloc(strlen(key) + 1);
    if (!mv || !ks) {
        free(mv);
        free(ks);
        return mc_err(err, MC_ERR_NOMEM, _("out of memory"));
    }
    strcpy(ks, key);
    /* best first; equal scores keep the order given */
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && mv[j - 1].score < m[i].score) {
            mv[j] = mv[j - 1];
            j--;
        }
        mv[j] = m[i];
    }
    int k = find(b, p);
    if (k >= 0) {
        free(b->e[k].key);
        free(b->e[k].mv);
    } else {
        size_t cap =
            mc_grow(&b->e, (size_t)b->cap, (size_t)b->n + 1, sizeof *b->e, 64);
        if (cap)
            b->cap = (int)cap;
        k = b->n;
        if (cap) {
            memset(&b->e[k].pos, 0, sizeof b->e[k].pos);
            memcpy(&b->e[k].pos, p, offsetof(mc_pos, last));
        }
        if (!cap || mc_posmap_add(&b->index, k) != 0) {
            free(mv);
            free(ks);
            return mc_err(err, MC_ERR_NOMEM, _("out of memory"));
        }
        b->n++;
    }
    b->e[k].key = ks;
    b->e[k].n = n;
    b->e[k].mv = mv;
    return 0;
}

/* The error of line `line` of `name`, with the message of e after it. */
static int line_err(mc_error *err, const char *name, int line, const char *what,
                    const mc_error *e)
{
    return mc_err(err, e->code ? e->code : MC_ERR_ARG, "%.80s:%d: %s%s%.160s",
                  name, line, what ? what : "", what ? ": " : "", e->msg);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* One "MOVE SCORE DEPTH" field of a position line. */
static int read_move(const mc_game *g, const mc_pos *p, char *field,
                     mc_book_move *m, mc_error *e)
{
    char tok[3][MC_MOVE_STRLEN], extra[8];
    const char *s = field;
    int k = 0;
    while (k < 3 && mc_next_field(&s, tok[k], sizeof tok[k]))
        k++;
    if (k < 3 || mc_next_field(&s, extra, sizeof extra))
        return mc_err(e, MC_ERR_ARG,
                      _("expected 'MOVE SCORE DEPTH', not '%.60s'"),
                      trim(field));
    mc_error me = {0, ""};
    if (mc_move_parse(g, p, tok[0], &m->move, &me) != 0)
        return mc_err(e, me.code, _("move '%.20s': %s"), tok[0], me.msg);
    long long v;
    if (whole(tok[1], 1, &v) != 0 || v < -MC_SCORE_WIN || v > MC_SCORE_WIN)
        return mc_err(e, MC_ERR_ARG,
                      _("move %.20s: the score '%.20s' is not a whole number "
                        "from -%d to %d (hundredths of a seed)"),
                      tok[0], tok[1], MC_SCORE_WIN, MC_SCORE_WIN);
    m->score = (int)v;
    if (whole(tok[2], 0, &v) != 0 || v < 1 || v > BOOK_MAX_DEPTH)
        return mc_err(e, MC_ERR_ARG,
                      _("move %.20s: the depth '%.20s' is not a whole number "
                        "from 1 to %d (plies)"),
                      tok[0], tok[2], BOOK_MAX_DEPTH);
    m->depth = (int)v;
    return 0;
}

/* One line (NUL-terminated, modified) of a book; b is made by its `game`
   line. */
static int read_line(mc_book **bp, char *line, int *seen_format,
                     const char *name, int lineno, mc_error *err)
{
    mc_error e = {0, ""};
    char *s = trim(line);
    if (!*s || *s == '#')
        return 0;
    char *bar = strchr(s, '|');
    if (!*seen_format) {
        char w[16];
        const char *r = s;
        if (bar || !mc_next_field(&r, w, sizeof w) || strcmp(w, "book") != 0) {
            mc_err(&e, MC_ERR_ARG,
                   _("not a mancala book: the first line that "
                     "is not a comment must be 'book %d'"),
                   BOOK_FORMAT);
            return line_err(err, name, lineno, NULL, &e);
        }
        long long v;
        if (whole(trim((char *)r), 0, &v) != 0 || v != BOOK_FORMAT) {
            mc_err(&e, MC_ERR_ARG,
                   _("book format '%.20s' is not known (this "
                     "program reads format %d)"),
                   trim((char *)r), BOOK_FORMAT);
            return line_err(err, name, lineno, NULL, &e);
        }
        *seen_format = 1;
        return 0;
    }
    mc_book *b = *bp;
    if (!bar) {
        char key[16];
        const char *r = s;
        mc_next_field(&r, key, sizeof key);
        char *value = trim((char *)r);
        if (strcmp(key, "game") == 0) {
            if (b) {
                mc_err(&e, MC_ERR_ARG, _("a second 'game' line"));
                return line_err(err, name, lineno, NULL, &e);
            }
            if (!(*bp = book_of_spec(value, &e)))
                return line_err(err, name, lineno, "game", &e);
            return 0;
        }
        if (strcmp(key, "book") == 0)
            mc_err(&e, MC_ERR_ARG, _("a second 'book' line"));
        else if (info_slot(key) < 0)
            unknown_directive(&e, key);
        else if (!b)
            mc_err(&e, MC_ERR_ARG, _("'%s' before the 'game' line"), key);
        else if (mc_book_info(b, key))
            mc_err(&e, MC_ERR_ARG, _("a second '%s' line"), key);
        else
            mc_book_set_info(b, key, value, &e);
        return e.code ? line_err(err, name, lineno, NULL, &e) : 0;
    }
    if (!b) {
        mc_err(&e, MC_ERR_ARG, _("a position before the 'game' line"));
        return line_err(err, name, lineno, NULL, &e);
    }
    *bar = '\0';
    char *ps = trim(s);
    mc_pos p;
    if (mc_pos_parse(b->g, ps, &p, &e) != 0)
        return line_err(err, name, lineno, "position", &e);
    if (find(b, &p) >= 0) {
        mc_err(&e, MC_ERR_ARG, _("the position %.80s is given twice"), ps);
        return line_err(err, name, lineno, NULL, &e);
    }
    mc_book_move mv[MC_MAX_MOVES];
    int n = 0;
    for (char *f = bar + 1; f; n++) {
        char *next = strchr(f, '|');
        if (next)
            *next++ = '\0';
        if (n == MC_MAX_MOVES) {
            mc_err(&e, MC_ERR_ARG, _("more than %d moves"), MC_MAX_MOVES);
            return line_err(err, name, lineno, NULL, &e);
        }
        if (read_move(b->g, &p, f, &mv[n], &e) != 0)
            return line_err(err, name, lineno, NULL, &e);
        f = next;
    }
    if (mc_book_put(b, &p, mv, n, &e) != 0)
        return line_err(err, name, lineno, NULL, &e);
    return 0;
}

mc_book *mc_book_read(const char *text, size_t len, const char *name,
                      mc_error *err)
{
    mc_book *b = NULL;
    int seen_format = 0, lineno = 0, rc = 0;
    for (size_t i = 0, start = 0; i <= len && rc == 0; i++) {
        if (i < len && text[i] == '\0') {
            mc_error e = {MC_ERR_ARG, "a NUL byte"};
            rc = line_err(err, name, lineno + 1, NULL, &e);
            break;
        }
        if (i < len && text[i] != '\n')
            continue;
        if (i == len && i == start)
            break; /* no last line after the final newline */
        lineno++;
        size_t n = i - start;
        char small[1024], *line = n < sizeof small ? small : malloc(n + 1);
        if (!line) {
            rc = mc_err(err, MC_ERR_NOMEM, _("out of memory"));
            break;
        }
        memcpy(line, text + start, n);
        line[n] = '\0';
        rc = read_line(&b, line, &seen_format, name, lineno, err);
        if (line != small)
            free(line);
        start = i + 1;
    }
    if (rc == 0 && (!seen_format || !b)) {
        mc_error e = {MC_ERR_ARG, ""};
        snprintf(e.msg, sizeof e.msg, "%s",
                 !seen_format ? "not a mancala book (no 'book 1' line)"
                              : "no 'game' line");
        rc = line_err(err, name, lineno, NULL, &e);
    }
    if (rc != 0) {
        mc_book_free(b);
        return NULL;
    }
    return b;
}

mc_book *mc_book_load(const char *path, mc_error *err)
{
    char *text;
    size_t len;
    if (mc_file_read(path, BOOK_MAX_BYTES, &text, &len, err) != 0)
        return NULL;
    mc_book *b = mc_book_read(text, len, path, err);
    free(text);
    return b;
}

/* ---- looking up ---- */

int mc_book_moves(const mc_book *b, const mc_game *g, const mc_pos *p,
                  mc_book_move *out)
{
    if (!b || strcmp(mc_game_spec(g), mc_game_spec(b->g)) != 0)
        return 0;
    int k = find(b, p);
    if (k < 0)
        return 0;
    memcpy(out, b->e[k].mv, (size_t)b->e[k].n * sizeof *out);
    return b->e[k].n;
}

int mc_book_at(const mc_book *b, int i, mc_pos *p, mc_book_move *out)
{
    if (i < 0 || i >= b->n)
        return 0;
    *p = b->e[i].pos;
    memcpy(out, b->e[i].mv, (size_t)b->e[i].n * sizeof *out);
    return b->e[i].n;
}

/* ---- writing ---- */

typedef struct text {
    char *b;
    size_t len, cap;
    int oom;
} text;

static void put(text *t, const char *s, size_t n)
{
    if (t->oom)
        return;
    size_t cap = mc_grow(&t->b, t->cap, t->len + n + 1, 1, 4096);
    if (!cap) {
        t->oom = 1;
        return;
    }
    t->cap = cap;
    memcpy(t->b + t->len, s, n);
    t->len += n;
    t->b[t->len] = '\0';
}

static void puts_(text *t, const char *s)
{
    put(t, s, strlen(s));
}

static int by_key(const void *a, const void *b)
{
    const entry *x = *(const entry *const *)a, *y = *(const entry *const *)b;
    return strcmp(x->key, y->key);
}

char *mc_book_format(const mc_book *b, const char *comment, size_t *len)
{
    text t = {0};
    for (const char *c = comment; c && *c;) {
        size_t n = strcspn(c, "\n");
        puts_(&t, n ? "# " : "#");
        put(&t, c, n);
        puts_(&t, "\n");
        c += n + (c[n] == '\n');
    }
    char line[64];
    snprintf(line, sizeof line, "book %d\ngame ", BOOK_FORMAT);
    puts_(&t, line);
    puts_(&t, mc_game_spec(b->g));
    puts_(&t, "\n");
    for (size_t i = 0; i < NINFO; i++)
        if (b->info[i]) {
            puts_(&t, info_keys[i]);
            puts_(&t, " ");
            puts_(&t, b->info[i]);
            puts_(&t, "\n");
        }
    const entry **order = malloc(((size_t)b->n + 1) * sizeof *order);
    if (!order) {
        free(t.b);
        return NULL;
    }
    for (int i = 0; i < b->n; i++)
        order[i] = &b->e[i];
    qsort(order, (size_t)b->n, sizeof *order, by_key);
    for (int i = 0; i < b->n; i++) {
        const entry *e = order[i];
        puts_(&t, e->key);
        for (int j = 0; j < e->n; j++) {
            char tok[MC_MOVE_STRLEN], f[MC_MOVE_STRLEN + 40];
            mc_move_format(b->g, &e->pos, e->mv[j].move, tok, sizeof tok);
            snprintf(f, sizeof f, " | %s %d %d", tok, e->mv[j].score,
                     e->mv[j].depth);
            puts_(&t, f);
        }
        puts_(&t, "\n");
    }
    free(order);
    if (t.oom) {
        free(t.b);
        return NULL;
    }
    if (len)
        *len = t.len;
    return t.b;
}

int mc_book_save(const mc_book *b, const char *path, const char *comment,
                 mc_error *err)
{
    size_t len;
    char *t = mc_book_format(b, comment, &len);
    if (!t)
        return mc_err(err, MC_ERR_IO, _("out of memory"));
    int rc = mc_file_save(path, t, len, err);
    free(t);
    return rc;
}

/* ---- the books shipped in the library ---- */

static pthread_mutex_t builtin_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    char name[32];
    mc_book *book;
} builtin[8];

const mc_book *mc_book_builtin(const mc_game *g)
{
    const char *name = mc_game_name(g);
    mc_book *b = NULL;
    pthread_mutex_lock(&builtin_lock);
    size_t i = 0;
    while (i < sizeof builtin / sizeof builtin[0] && builtin[i].name[0] &&
           strcmp(builtin[i].name, name) != 0)
        i++;
    if (i < sizeof builtin / sizeof builtin[0]) {
        if (!builtin[i].name[0]) {
            /* read once; a shipped book that does not read is no book
               (tests/test_book.c reads it) */
            snprintf(builtin[i].name, sizeof builtin[i].name, "%s", name);
            const char *t = mc_book_shipped(name);
            if (t)
                builtin[i].book =
                    mc_book_read(t, strlen(t), "built-in book", NULL);
        }
        b = builtin[i].book;
    }
    pthread_mutex_unlock(&builtin_lock);
    return b && strcmp(mc_book_spec(b), mc_game_spec(g)) == 0 ? b : NULL;
}

/* ---- a player's book ---- */

void mc_book_use_init(mc_book_use *u)
{
    memset(u, 0, sizeof *u);
    /* unlike any option, so that the first one is read */
    snprintf(u->opt, sizeof u->opt, "\001");
}

void mc_book_use_free(mc_book_use *u)
{
    mc_book_free(u->own);
    u->own = NULL;
    u->book = NULL;
}

static uint64_t system_random(void)
{
    uint64_t x = 0;
    if (mc_system_random(&x, sizeof x) != 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        x = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
        x ^= (uint64_t)(uintptr_t)&x;
    }
    return x;
}

int mc_book_use_set(mc_book_use *u, const mc_game *g, const char *want,
                    uint64_t seed, mc_error *err)
{
    const char *w = want ? want : "";
    if (strcmp(w, u->opt) != 0 || (want == NULL) != (u->opt[0] == '\0')) {
        if (want && !*want)
            return mc_err(err, MC_ERR_ARG,
                          _("the book is a file, 'none' or NULL, not ''"));
        if (strlen(w) >= sizeof u->opt)
            return mc_err(err, MC_ERR_ARG, _("the book's path is too long"));
        mc_book *own = NULL;
        const mc_book *use = NULL;
        if (!want) {
            use = mc_book_builtin(g);
        } else if (strcmp(want, "none") != 0) {
            if (!(own = mc_book_load(want, err)))
                return err ? err->code : MC_ERR_IO;
            /* a book of other rules is not used (it is no error) */
            if (strcmp(mc_book_spec(own), mc_game_spec(g)) == 0)
                use = own;
        }
        mc_book_free(u->own);
        u->own = own;
        u->book = use;
        snprintf(u->opt, sizeof u->opt, "%s", w);
    }
    mc_book_use_seed(u, seed);
    return 0;
}

void mc_book_use_seed(mc_book_use *u, uint64_t seed)
{
    if (!u->seeded || seed != u->seed) {
        mc_rng_seed(&u->rng, seed ? seed : system_random());
        u->seed = seed;
        u->seeded = 1;
    }
}

int mc_book_use_go(mc_book_use *u, const mc_game *g, const mc_session *s,
                   const mc_player_opts *o, int infinite, mc_search_info *out)
{
    /* the lower levels are meant to be weak; infinite searches analyse */
    if (!u->book || infinite || (o->level > 0 && o->level < 10) ||
        mc_session_over(s))
        return 0;
    /* the book knows no history: a position seen before is searched */
    mc_hist h;
    mc_session_hist(s, &h);
    if (h.occurrences > 1)
        return 0;
    const mc_pos *p = mc_session_pos(s);
    mc_book_move bm[MC_MAX_MOVES];
    mc_move legal[MC_MAX_MOVES];
    int n = mc_book_moves(u->book, g, p, bm);
    int nl = mc_session_moves(s, legal), k = 0;
    for (int i = 0; i < n; i++) {
        int ok = 0;
        for (int j = 0; j < nl && !ok; j++)
            ok = legal[j] == bm[i].move;
        if (ok)
            bm[k++] = bm[i];
    }
    if (k == 0)
        return 0;
    int variety = o->book_variety > 0 ? o->book_variety : 0, close = 0;
    while (close < k && bm[close].score >= bm[0].score - variety)
        close++;
    int pick = close > 1 ? (int)mc_rng_below(&u->rng, (uint32_t)close) : 0;
    memset(out, 0, sizeof *out);
    out->best = bm[pick].move;
    out->score = bm[pick].score;
    out->depth = bm[pick].depth;
    out->book = 1;
    /* the line: the book's best moves from there, while it has them */
    mc_pos q = *p;
    mc_move m = out->best;
    while (out->pvlen < 64) {
        out->pv[out->pvlen++] = m;
        mc_play(g, &q, m, NULL);
        mc_result r;
        mc_status(g, &q, NULL, &r);
        mc_book_move next[MC_MAX_MOVES];
        if (r.over || mc_book_moves(u->book, g, &q, next) == 0)
            break;
        m = next[0].move;
    }
    return 1;
}
