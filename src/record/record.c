/*
 * record.c - game records (docs/RECORDS.md): reading with every move checked
 * through the session, writing, and atomic saving.  Uses the public API only
 * (no rule is known here): the game tag makes the game, the Start tag is
 * parsed by the game, each move token is played by the session.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mancala_record.h"
#include "../core/file.h"
#include "../core/i18n.h"
#include "../core/util.h"

#define TAG_NAME_MAX 64
#define TAG_VALUE_MAX 1024
#define COMMENT_MAX 4096
#define WRAP 79
/* Room for any derived tag: a spec (MC_SPEC_STRLEN), a position, a match
   score. */
#define DERIVED_LEN 320

typedef struct tag {
    char *name, *value;
} tag;

struct mc_record {
    mc_game *g;
    mc_session *s;
    char *start; /* NULL when the standard start */
    tag *tags;
    int ntags, tags_cap;
    /* An index of tags by name (open addressing, -1 empty; hcap a power of
       two, at least twice ntags) and the writing order, made when asked
       for (order_ok), so that a record of 17,000 tags costs linear time to
       read, write and list. */
    int *hidx, hcap;
    int *order, order_ok;
    char **comment; /* comment[k]: after ply k (0: before the first move) */
    int ncomment;
    char *match; /* the Match tag as read or as the match walk left it;
                    NULL when none */
    /* the derived tags for mc_record_tag, made when it asks (NULL until
       then): a record read or written needs none, so 10,000 games of a
       file cost a few hundred bytes each, not 2.5 KB */
    char (*derived)[DERIVED_LEN];
};

/* Derived tags: follow from the moves; written from the session. */
static const char *const derived_names[] = {
    "Game", "Start", "Result", "Termination", "Detail", "Glory", "Match"};
enum { D_GAME, D_START, D_RESULT, D_TERM, D_DETAIL, D_GLORY, D_MATCH, ND };
_Static_assert(sizeof derived_names / sizeof *derived_names == ND,
               "a name for every derived tag");
typedef char dtags[ND][DERIVED_LEN];

/* Free tags written first, in this order; the rest follow as added. */
static const char *const seven[] = {"Event", "Site",  "Date",       "Round",
                                    "South", "North", "TimeControl"};

static int fail(mc_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(mc_error *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* ---- records ---- */

/*
 * A record's invariants: its game and session, the session playing that
 * game; the tags within their array, the index (when made) a power of two
 * at least twice their number, so that a probe meets an empty slot; one
 * comment slot at most per ply played or to be played.
 */
static void check(const mc_record *r)
{
    assert(r->g && r->s && mc_session_game(r->s) == r->g);
    assert(r->ntags >= 0 && r->ntags <= r->tags_cap);
    assert(r->hcap == 0 ||
           ((r->hcap & (r->hcap - 1)) == 0 && r->hcap >= 2 * r->ntags));
    assert(r->ncomment >= 0 && (r->ncomment == 0 || r->comment));
}

mc_record *mc_record_new(const char *spec, const mc_pos *start, mc_error *err)
{
    mc_record *r = calloc(1, sizeof *r);
    if (!r) {
        fail(err, MC_ERR_NOMEM, _("out of memory"));
        return NULL;
    }
    r->g = mc_game_new(spec, err);
    if (!r->g) {
        free(r);
        return NULL;
    }
    mc_pos std;
    mc_start(r->g, &std);
    if (start) {
        char a[MC_POS_STRLEN], b[MC_POS_STRLEN];
        mc_pos_format(r->g, start, a, sizeof a);
        mc_pos_format(r->g, &std, b, sizeof b);
        if (strcmp(a, b) != 0 && !(r->start = dup_str(a))) {
            mc_record_free(r);
            fail(err, MC_ERR_NOMEM, _("out of memory"));
            return NULL;
        }
    }
    r->s = mc_session_new(r->g, start ? start : &std);
    if (!r->s) {
        mc_record_free(r);
        fail(err, MC_ERR_NOMEM, _("out of memory"));
        return NULL;
    }
    check(r);
    return r;
}

void mc_record_free(mc_record *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->ntags; i++) {
        free(r->tags[i].name);
        free(r->tags[i].value);
    }
    free(r->tags);
    free(r->hidx);
    free(r->order);
    free(r->start);
    free(r->match);
    free(r->derived);
    for (int i = 0; i < r->ncomment; i++)
        free(r->comment[i]);
    free(r->comment);
    mc_session_free(r->s);
    mc_game_free(r->g);
    free(r);
}

const mc_game *mc_record_game(const mc_record *r)
{
    return r->g;
}
mc_session *mc_record_session(mc_record *r)
{
    return r->s;
}

static int derived_index(const char *name)
{
    for (int i = 0; i < ND; i++)
        if (strcmp(name, derived_names[i]) == 0)
            return i;
    return -1;
}

static int check_text(const char *what, const char *v, size_t max,
                      int allow_newline, mc_error *err)
{
    size_t n = strlen(v);
    if (n > max)
        return fail(err, MC_ERR_ARG, _("%s is longer than %zu bytes"), what,
                    max);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)v[i];
        if (c == '\n' && allow_newline)
            continue;
        if (c < 32 || c == 127)
            return fail(err, MC_ERR_ARG,
                        _("%s contains a control character (byte %zu)"), what,
                        i + 1);
    }
    return 0;
}

static unsigned name_hash(const char *s)
{
    unsigned h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The slot of name in the index: its tag's or the empty one to fill. */
static int *hslot(const mc_record *r, const char *name)
{
    assert(r->hcap > r->ntags); /* an empty slot ends the probe */
    unsigned m = (unsigned)r->hcap - 1, k = name_hash(name) & m;
    while (r->hidx[k] >= 0 && strcmp(r->tags[r->hidx[k]].name, name) != 0)
        k = (k + 1) & m;
    return &r->hidx[k];
}

/* Index every tag anew in a table of cap slots; -1 when out of memory. */
static int rehash(mc_record *r, int cap)
{
    int *h = malloc((size_t)cap * sizeof *h);
    if (!h)
        return -1;
    for (int i = 0; i < cap; i++)
        h[i] = -1;
    free(r->hidx);
    r->hidx = h;
    r->hcap = cap;
    for (int i = 0; i < r->ntags; i++)
        *hslot(r, r->tags[i].name) = i;
    return 0;
}

static int find_tag(const mc_record *r, const char *name)
{
    int at = r->hcap ? *hslot(r, name) : -1;
    assert(at < r->ntags && (at < 0 || strcmp(r->tags[at].name, name) == 0));
    return at;
}

int mc_record_set_tag(mc_record *r, const char *name, const char *value,
                      mc_error *err)
{
    size_t n = strlen(name);
    if (n == 0 || n > TAG_NAME_MAX)
        return fail(err, MC_ERR_ARG, _("a tag name has 1 to %d characters"),
                    TAG_NAME_MAX);
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_'))
            return fail(err, MC_ERR_ARG,
                        _("tag name '%s': only letters, digits and '_'"), name);
    }
    if (derived_index(name) >= 0)
        return fail(err, MC_ERR_ARG,
                    _("the %s tag follows from the game and cannot be set"),
                    name);
    if (value && check_text("tag value", value, TAG_VALUE_MAX, 0, err))
        return MC_ERR_ARG;
    if (strcmp(name, "TimeControl") == 0) {
        /* A control the library knows is the session's (its clocks wait
           for the first timed call); other text (a PGN "40/7200") stays a
           free tag of an untimed game. */
        mc_time_control tc;
        if (!value || mc_time_parse(r->g, value, &tc, NULL) != 0)
            memset(&tc, 0, sizeof tc);
        mc_session_set_time(r->s, &tc, -1);
    }
    int at = find_tag(r, name);
    if (!value) {
        if (at >= 0) {
            free(r->tags[at].name);
            free(r->tags[at].value);
            memmove(&r->tags[at], &r->tags[at + 1],
                    (size_t)(r->ntags - at - 1) * sizeof(tag));
            r->ntags--;
            r->order_ok = 0;
            if (rehash(r, r->hcap) != 0) {
                free(r->hidx);
                r->hidx = NULL;
                r->hcap = 0;
                return fail(err, MC_ERR_NOMEM, _("out of memory"));
            }
        }
        return 0;
    }
    char *v = dup_str(value);
    if (!v)
        return fail(err, MC_ERR_NOMEM, _("out of memory"));
    if (at >= 0) {
        free(r->tags[at].value);
        r->tags[at].value = v;
        return 0;
    }
    size_t cap = mc_grow(&r->tags, (size_t)r->tags_cap, (size_t)r->ntags + 1,
                         sizeof *r->tags, 8);
    if (!cap || (2 * (r->ntags + 1) > r->hcap &&
                 rehash(r, r->hcap ? 2 * r->hcap : 16) != 0)) {
        free(v);
        return fail(err, MC_ERR_NOMEM, _("out of memory"));
    }
    r->tags_cap = (int)cap;
    char *k = dup_str(name);
    if (!k) {
        free(v);
        return fail(err, MC_ERR_NOMEM, _("out of memory"));
    }
    r->tags[r->ntags].name = k;
    r->tags[r->ntags].value = v;
    *hslot(r, k) = r->ntags;
    r->ntags++;
    r->order_ok = 0;
    check(r);
    return 0;
}

/* The Match tag: m, or none when m is empty; -1 when out of memory. */
static int set_match(mc_record *r, const char *m)
{
    free(r->match);
    r->match = NULL;
    return m[0] && !(r->match = dup_str(m)) ? -1 : 0;
}

/* The derived tags, from the session (and the Match tag kept). */
static void derive_into(const mc_record *r, dtags dv)
{
    mc_result res;
    mc_session_result(r->s, &res);
    snprintf(dv[D_GAME], DERIVED_LEN, "%s", mc_game_spec(r->g));
    snprintf(dv[D_START], DERIVED_LEN, "%s", r->start ? r->start : "");
    snprintf(dv[D_MATCH], DERIVED_LEN, "%s", r->match ? r->match : "");
    const char *t = "*";
    if (res.over)
        t = res.winner == MC_SOUTH   ? "1-0"
            : res.winner == MC_NORTH ? "0-1"
                                     : "1/2-1/2";
    snprintf(dv[D_RESULT], DERIVED_LEN, "%s", t);
    const char *why = "";
    if (res.over && mc_end_reason_name(res.reason))
        why = mc_end_reason_name(res.reason);
    snprintf(dv[D_TERM], DERIVED_LEN, "%s", why);
    snprintf(dv[D_DETAIL], DERIVED_LEN, "%s", res.over ? res.detail : "");
    /* Goré G7. */
    snprintf(dv[D_GLORY], DERIVED_LEN, "%s",
             res.over && res.noglory ? "victory without glory" : "");
}

const char *mc_record_tag(const mc_record *r, const char *name)
{
    int d = derived_index(name);
    if (d >= 0) {
        mc_record *w = (mc_record *)r; /* the block is a cache */
        if (!w->derived && !(w->derived = calloc(ND, sizeof *w->derived)))
            return NULL;
        derive_into(w, w->derived);
        return w->derived[d][0] ? w->derived[d] : NULL;
    }
    int at = find_tag(r, name);
    return at >= 0 ? r->tags[at].value : NULL;
}

/* Free tags in writing order (the seven first, then the others as
   added) into r->order, once per change; -1 when out of memory. */
static int tag_order(mc_record *r)
{
    if (r->order_ok)
        return 0;
    free(r->order);
    r->order = malloc(((size_t)r->ntags + 1) * sizeof *r->order);
    if (!r->order)
        return -1;
    int k = 0;
    for (size_t j = 0; j < sizeof seven / sizeof seven[0]; j++) {
        int at = find_tag(r, seven[j]);
        if (at >= 0)
            r->order[k++] = at;
    }
    for (int i = 0; i < r->ntags; i++) {
        int known = 0;
        for (size_t j = 0; j < sizeof seven / sizeof seven[0] && !known; j++)
            known = strcmp(r->tags[i].name, seven[j]) == 0;
        if (!known)
            r->order[k++] = i;
    }
    assert(k == r->ntags); /* each tag once: names are unique */
    r->order_ok = 1;
    return 0;
}

int mc_record_tag_at(const mc_record *r, int i, const char **name,
                     const char **value)
{
    if (i < 0 || i >= r->ntags || tag_order((mc_record *)r) != 0)
        return 0;
    *name = r->tags[r->order[i]].name;
    *value = r->tags[r->order[i]].value;
    return 1;
}

int mc_record_set_comment(mc_record *r, int ply, const char *text,
                          mc_error *err)
{
    if (ply < 0 || ply > 1 << 24)
        return fail(err, MC_ERR_ARG, _("no ply %d"), ply);
    if (text) {
        if (check_text("comment", text, COMMENT_MAX, 1, err))
            return MC_ERR_ARG;
        if (strchr(text, '}'))
            return fail(err, MC_ERR_ARG, _("a comment cannot contain '}'"));
    }
    if (ply >= r->ncomment) {
        if (!text)
            return 0;
        char **c = realloc(r->comment, (size_t)(ply + 1) * sizeof *c);
        if (!c)
            return fail(err, MC_ERR_NOMEM, _("out of memory"));
        memset(c + r->ncomment, 0, (size_t)(ply + 1 - r->ncomment) * sizeof *c);
        r->comment = c;
        r->ncomment = ply + 1;
    }
    char *d = NULL;
    if (text && !(d = dup_str(text)))
        return fail(err, MC_ERR_NOMEM, _("out of memory"));
    free(r->comment[ply]);
    r->comment[ply] = d;
    return 0;
}

const char *mc_record_comment(const mc_record *r, int ply)
{
    return ply >= 0 && ply < r->ncomment ? r->comment[ply] : NULL;
}

/* ---- matches: consecutive games with Round 1, 2, ... ---- */

typedef struct match_walk {
    int active; /* the previous record belongs to a running match */
    int round;  /* its round */
    char spec[MC_SPEC_STRLEN];
    mc_match m;
} match_walk;

static long round_of(const mc_record *r)
{
    const char *v = mc_record_tag(r, "Round");
    if (!v || !*v || strlen(v) > 6)
        return -1;
    long n = 0;
    for (const char *p = v; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        n = n * 10 + (*p - '0');
    }
    return n;
}

/*
 * Step the match through record r: sets its Match tag to the score after
 * it (none when r is not part of a match).  Returns 0, or nonzero with a
 * message when r breaks the match (wrong starter, a round after an
 * unfinished game).
 */
static int match_step(match_walk *w, mc_record *r, mc_error *err)
{
    set_match(r, "");
    long rd = round_of(r);
    if (!mc_game_is_match(r->g) || rd < 1) {
        w->active = 0;
        return 0;
    }
    const mc_pos *p0 = mc_session_pos_at(r->s, 0);
    if (rd == 1) {
        mc_match_init(r->g, &w->m);
        w->active = 1;
        snprintf(w->spec, sizeof w->spec, "%s", mc_game_spec(r->g));
    } else if (!w->active || rd != w->round + 1 ||
               strcmp(w->spec, mc_game_spec(r->g)) != 0) {
        return fail(err, MC_ERR_ARG,
                    _("round %ld of a match must follow round %ld of the same "
                      "game"),
                    rd, rd - 1);
    } else if (w->m.winner >= 0) {
        return fail(err, MC_ERR_ARG,
                    _("round %ld: the match was already decided"), rd);
    }
    if (rd > 1 && p0->side != w->m.next_first)
        return fail(err, MC_ERR_ARG,
                    _("round %ld: %s should start (the match rules say who "
                      "starts the next game)"),
                    rd, w->m.next_first == MC_SOUTH ? _("South") : _("North"));
    assert(rd == 1 || rd == w->round + 1);
    w->round = (int)rd;
    mc_result res;
    mc_session_result(r->s, &res);
    if (res.over)
        mc_match_record(r->g, &w->m, &res);
    else
        w->active = 0; /* an unfinished game ends the walk */
    char score[DERIVED_LEN];
    mc_match_describe(r->g, &w->m, score, sizeof score);
    if (set_match(r, score) != 0)
        return fail(err, MC_ERR_NOMEM, _("out of memory"));
    return 0;
}

/* ---- writing ---- */

typedef struct dstr {
    char *b;
    size_t len, cap;
    int oom;
    size_t line_start;
} dstr;

static void ds_put(dstr *d, const char *s, size_t n)
{
    if (d->oom)
        return;
    if (d->len + n + 1 > d->cap) {
        size_t cap = mc_grow(&d->b, d->cap, d->len + n + 1, 1, 1024);
        if (!cap) {
            d->oom = 1;
            return;
        }
        d->cap = cap;
    }
    memcpy(d->b + d->len, s, n);
    d->len += n;
    assert(d->len < d->cap);
    d->b[d->len] = '\0';
}

static void ds_puts(dstr *d, const char *s)
{
    ds_put(d, s, strlen(s));
}

static void ds_tag(dstr *d, const char *name, const char *value)
{
    ds_puts(d, "[");
    ds_puts(d, name);
    ds_puts(d, " \"");
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\')
            ds_put(d, "\\", 1);
        ds_put(d, p, 1);
    }
    ds_puts(d, "\"]\n");
}

/* Append a movetext word, wrapping lines at WRAP columns. */
static void ds_word(dstr *d, const char *w)
{
    size_t col = d->len - d->line_start, n = strlen(w);
    if (col > 0 && col + 1 + n > WRAP) {
        ds_puts(d, "\n");
        d->line_start = d->len;
    } else if (col > 0) {
        ds_puts(d, " ");
    }
    ds_puts(d, w);
    /* a comment may hold line breaks: the line restarts after the last */
    const char *nl = strrchr(w, '\n');
    if (nl)
        d->line_start = d->len - strlen(nl + 1);
    assert(d->oom || d->line_start <= d->len);
}

static void ds_comment(dstr *d, const char *c)
{
    size_t n = strlen(c);
    char *w = malloc(n + 3);
    if (!w) {
        d->oom = 1;
        return;
    }
    w[0] = '{';
    memcpy(w + 1, c, n);
    w[n + 1] = '}';
    w[n + 2] = '\0';
    ds_word(d, w);
    free(w);
}

static void write_one(dstr *d, mc_record *r)
{
    dtags dv;
    derive_into(r, dv);
    ds_tag(d, "Game", dv[D_GAME]);
    if (tag_order(r) != 0) {
        d->oom = 1;
        return;
    }
    for (int i = 0; i < r->ntags; i++)
        ds_tag(d, r->tags[r->order[i]].name, r->tags[r->order[i]].value);
    for (int i = D_START; i < ND; i++)
        if (dv[i][0])
            ds_tag(d, derived_names[i], dv[i]);
    ds_puts(d, "\n");
    d->line_start = d->len;
    int n = mc_session_ply(r->s), number = 1, prev = -1;
    if (mc_record_comment(r, 0))
        ds_comment(d, mc_record_comment(r, 0));
    int after_comment = mc_record_comment(r, 0) != NULL;
    for (int i = 0; i < n; i++) {
        const mc_pos *p = mc_session_pos_at(r->s, i);
        char w[MC_MOVE_STRLEN + 32];
        if (p->side == MC_SOUTH && prev != MC_SOUTH) {
            snprintf(w, sizeof w, "%d.", number);
            ds_word(d, w);
        } else if (p->side == MC_NORTH && (prev < 0 || after_comment)) {
            snprintf(w, sizeof w, "%d...", number);
            ds_word(d, w);
        }
        mc_move_format(r->g, p, mc_session_move_at(r->s, i), w, sizeof w);
        ds_word(d, w);
        const mc_pos *q = mc_session_pos_at(r->s, i + 1);
        if (p->side == MC_NORTH && q->side == MC_SOUTH)
            number++;
        prev = p->side;
        const char *c = mc_record_comment(r, i + 1);
        after_comment = c != NULL;
        if (c)
            ds_comment(d, c);
    }
    ds_word(d, dv[D_RESULT]);
    ds_puts(d, "\n");
}

char *mc_records_format(mc_record *const *recs, int n, size_t *len)
{
    dstr d = {0};
    match_walk w = {0};
    ds_puts(&d, "");
    for (int i = 0; i < n; i++) {
        if (i)
            ds_puts(&d, "\n");
        if (match_step(&w, recs[i], NULL) != 0)
            set_match(recs[i], "");
        write_one(&d, recs[i]);
    }
    if (d.oom) {
        free(d.b);
        return NULL;
    }
    if (len)
        *len = d.len;
    return d.b;
}

/* ---- atomic save ---- */

int mc_records_save(const char *path, mc_record *const *recs, int n,
                    mc_error *err)
{
    size_t len;
    char *text = mc_records_format(recs, n, &len);
    if (!text)
        return fail(err, MC_ERR_IO, _("out of memory"));
    int rc = mc_file_save(path, text, len, err);
    free(text);
    return rc;
}

void mc_records_free(mc_record **recs, int n)
{
    if (!recs)
        return;
    for (int i = 0; i < n; i++)
        mc_record_free(recs[i]);
    free(recs);
}

/* ---- reading ---- */

typedef struct lexer {
    const char *t;
    size_t len, i;
    int line, col;
    mc_record_loc *loc;
    mc_error *err;
} lexer;

static int lx_peek(const lexer *x)
{
    return x->i < x->len ? (unsigned char)x->t[x->i] : -1;
}

static void lx_next(lexer *x)
{
    assert(x->i <= x->len && x->line >= 1 && x->col >= 1);
    if (x->i >= x->len)
        return;
    if (x->t[x->i] == '\n') {
        x->line++;
        x->col = 1;
    } else {
        x->col++;
    }
    x->i++;
}

/* An error at (line, col). */
static int lx_fail_at(lexer *x, int line, int col, int code, const char *fmt,
                      ...) __attribute__((format(printf, 5, 6)));
static int lx_fail_at(lexer *x, int line, int col, int code, const char *fmt,
                      ...)
{
    char m[sizeof x->err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    if (x->loc) {
        x->loc->line = line;
        x->loc->col = col;
    }
    return fail(x->err, code, _("line %d, column %d: %.200s"), line, col, m);
}

/* Skip blanks, and comments when comments is NULL; else stop at them. */
static int lx_blank(lexer *x)
{
    for (;;) {
        int c = lx_peek(x);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
            c == '\v')
            lx_next(x);
        else
            return c;
    }
}

static int is_blank(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
           c == '\v';
}

/* A ';' comment to the end of the line, or a '{' comment to '}'. */
static int lx_comment(lexer *x, dstr *out)
{
    int line = x->line, col = x->col;
    int c = lx_peek(x);
    lx_next(x);
    if (c == ';') {
        while ((c = lx_peek(x)) >= 0 && c != '\n') {
            if (c == 0)
                return lx_fail_at(x, x->line, x->col, MC_ERR_ARG,
                                  _("NUL byte in a comment"));
            if (out)
                ds_put(out, &x->t[x->i], 1);
            lx_next(x);
        }
        return 0;
    }
    while ((c = lx_peek(x)) != '}') {
        if (c < 0)
            return lx_fail_at(
                x, line, col, MC_ERR_ARG,
                _("comment opened here is never closed with '}'"));
        if (c == 0)
            return lx_fail_at(x, x->line, x->col, MC_ERR_ARG,
                              _("NUL byte in a comment"));
        if (out && c != '\r')
            ds_put(out, &x->t[x->i], 1);
        lx_next(x);
    }
    lx_next(x);
    if (out && out->len > COMMENT_MAX)
        return lx_fail_at(x, line, col, MC_ERR_ARG,
                          _("comment longer than %d bytes"), COMMENT_MAX);
    return 0;
}

/* Parse one [Name "value"] tag into name/value buffers. */
static int lx_tag(lexer *x, char *name, char *value)
{
    int line = x->line, col = x->col;
    lx_next(x); /* '[' */
    while (lx_peek(x) == ' ' || lx_peek(x) == '\t')
        lx_next(x);
    size_t n = 0;
    int c;
    while ((c = lx_peek(x)) >= 0 &&
           ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
            (c >= '0' && c <= '9') || c == '_')) {
        if (n >= TAG_NAME_MAX)
            return lx_fail_at(x, line, col, MC_ERR_ARG,
                              _("tag name longer than %d characters"),
                              TAG_NAME_MAX);
        name[n++] = (char)c;
        lx_next(x);
    }
    name[n] = '\0';
    if (n == 0)
        return lx_fail_at(
            x, x->line, x->col, MC_ERR_ARG,
            _("a tag name (letters, digits, '_') must follow '['"));
    if (lx_peek(x) != ' ' && lx_peek(x) != '\t')
        return lx_fail_at(
            x, x->line, x->col, MC_ERR_ARG,
            _("tag %s: a space and a quoted value must follow the "
              "name"),
            name);
    while (lx_peek(x) == ' ' || lx_peek(x) == '\t')
        lx_next(x);
    if (lx_peek(x) != '"')
        return lx_fail_at(x, x->line, x->col, MC_ERR_ARG,
                          _("tag %s: the value must be in double quotes"),
                          name);
    int vline = x->line, vcol = x->col;
    lx_next(x);
    n = 0;
    for (;;) {
        c = lx_peek(x);
        if (c < 0 || c == '\n' || c == '\r')
            return lx_fail_at(x, vline, vcol, MC_ERR_ARG,
                              _("tag %s: the value is not closed with '\"' on "
                                "its line"),
                              name);
        if (c == '"')
            break;
        if (c == '\\') {
            lx_next(x);
            c = lx_peek(x);
            if (c != '"' && c != '\\')
                return lx_fail_at(x, x->line, x->col, MC_ERR_ARG,
                                  _("tag %s: only \\\" and \\\\ are escapes"),
                                  name);
        }
        if (c < 32 || c == 127)
            return lx_fail_at(x, x->line, x->col, MC_ERR_ARG,
                              _("tag %s: control character in the value"),
                              name);
        if (n >= TAG_VALUE_MAX)
            return lx_fail_at(x, vline, vcol, MC_ERR_ARG,
                              _("tag %s: value longer than %d bytes"), name,
                              TAG_VALUE_MAX);
        value[n++] = (char)c;
        lx_next(x);
    }
    value[n] = '\0';
    lx_next(x); /* closing quote */
    while (lx_peek(x) == ' ' || lx_peek(x) == '\t')
        lx_next(x);
    if (lx_peek(x) != ']')
        return lx_fail_at(x, x->line, x->col, MC_ERR_ARG,
                          _("tag %s: ']' must follow the value"), name);
    lx_next(x);
    return 0;
}

typedef struct tagpos {
    int line, col;
} tagpos;

static int is_result(const char *w)
{
    return strcmp(w, "1-0") == 0 || strcmp(w, "0-1") == 0 ||
           strcmp(w, "1/2-1/2") == 0 || strcmp(w, "*") == 0;
}

/* Check the derived tags read from the file against the replayed game. */
static int check_derived(lexer *x, mc_record *r,
                         char (*read)[TAG_VALUE_MAX + 1], const tagpos *at,
                         int game)
{
    dtags dv;
    derive_into(r, dv);
    for (int i = D_RESULT; i <= D_GLORY; i++) {
        if (!read[i][0] && !at[i].line)
            continue;
        if (strcmp(read[i], dv[i]) != 0)
            return lx_fail_at(x, at[i].line, at[i].col, MC_ERR_ARG,
                              _("game %d: the %s tag says \"%s\" but the moves "
                                "give \"%s\""),
                              game, derived_names[i], read[i], dv[i]);
    }
    return 0;
}

/* A free tag read before its game exists. */
typedef struct pend_tag {
    char *n, *v;
    int line, col;
} pend_tag;

/*
 * One game being read: its number and where it starts, its derived tags
 * as read (at[i].line 0: not read), its free tags until the game exists,
 * then the record, the moves read and the next move number.
 */
typedef struct game_reader {
    lexer *x;
    int game, gline, gcol;
    char (*read)[TAG_VALUE_MAX + 1];
    tagpos at[ND];
    pend_tag *pend;
    int npend, pcap;
    mc_record *r;
    int moves, number;
} game_reader;

/* Keep a free tag until the game exists (a tag given twice is found when
   the tags are set: make_record). */
static int pend_add(game_reader *gr, const char *name, const char *value,
                    int line, int col)
{
    void *np = gr->npend == gr->pcap
                   ? realloc(gr->pend, (size_t)(gr->pcap = 2 * gr->pcap + 8) *
                                           sizeof *gr->pend)
                   : gr->pend;
    if (!np)
        return lx_fail_at(gr->x, line, col, MC_ERR_NOMEM, _("out of memory"));
    gr->pend = np;
    pend_tag *t = &gr->pend[gr->npend++];
    t->n = dup_str(name);
    t->v = dup_str(value);
    t->line = line;
    t->col = col;
    if (!t->n || !t->v)
        return lx_fail_at(gr->x, line, col, MC_ERR_NOMEM, _("out of memory"));
    return 0;
}

/* The game's tags, up to its movetext: the derived ones into gr->read
   (each once), the free ones kept (pend_add). */
static int read_tags(game_reader *gr)
{
    lexer *x = gr->x;
    char name[TAG_NAME_MAX + 1];
    char value[TAG_VALUE_MAX + 1];
    int rc;
    while (lx_blank(x) == '[' || lx_peek(x) == ';') {
        if (lx_peek(x) == ';') {
            if ((rc = lx_comment(x, NULL)))
                return rc;
            continue;
        }
        int line = x->line, col = x->col;
        if ((rc = lx_tag(x, name, value)))
            return rc;
        int d = derived_index(name);
        if (d < 0) {
            if ((rc = pend_add(gr, name, value, line, col)))
                return rc;
            continue;
        }
        if (gr->at[d].line)
            return lx_fail_at(x, line, col, MC_ERR_ARG,
                              _("the %s tag appears twice"), name);
        gr->at[d].line = line;
        gr->at[d].col = col;
        memcpy(gr->read[d], value, strlen(value) + 1);
    }
    return 0;
}

/* The record the tags describe: its game (Game), its start (Start), its
   free tags. */
static int make_record(game_reader *gr)
{
    lexer *x = gr->x;
    const tagpos *at = gr->at;
    if (!at[D_GAME].line)
        return lx_fail_at(
            x, gr->gline, gr->gcol, MC_ERR_ARG,
            _("game %d has no [Game \"...\"] tag naming the game"), gr->game);
    mc_error e = {0, ""};
    mc_game *g = mc_game_new(gr->read[D_GAME], &e);
    if (!g)
        return lx_fail_at(x, at[D_GAME].line, at[D_GAME].col, MC_ERR_SPEC,
                          _("Game tag: %s"), e.msg);
    mc_pos p0;
    mc_start(g, &p0);
    if (at[D_START].line && mc_pos_parse(g, gr->read[D_START], &p0, &e) != 0) {
        mc_game_free(g);
        return lx_fail_at(x, at[D_START].line, at[D_START].col, MC_ERR_POSITION,
                          _("Start tag: %s"), e.msg);
    }
    gr->r = mc_record_new(gr->read[D_GAME], &p0, &e);
    mc_game_free(g);
    if (!gr->r)
        return lx_fail_at(x, gr->gline, gr->gcol, MC_ERR_ARG, "%s", e.msg);
    for (int i = 0; i < gr->npend; i++) {
        const pend_tag *t = &gr->pend[i];
        mc_error te = {0, ""};
        if (find_tag(gr->r, t->n) >= 0)
            return lx_fail_at(x, t->line, t->col, MC_ERR_ARG,
                              _("the %s tag appears twice"), t->n);
        if (mc_record_set_tag(gr->r, t->n, t->v, &te) != 0)
            return lx_fail_at(x, t->line, t->col, MC_ERR_ARG, "%s", te.msg);
    }
    return 0;
}

/* A comment in the movetext (c: its '{' or ';', at line, col): a '{'
   comment is kept after the moves read so far, joined to one already
   there. */
static int read_comment(game_reader *gr, int c, int line, int col)
{
    lexer *x = gr->x;
    dstr cm = {0};
    int rc = lx_comment(x, &cm);
    if (!rc && cm.oom)
        rc = lx_fail_at(x, line, col, MC_ERR_NOMEM, _("out of memory"));
    if (!rc && c == '{') {
        /* several comments after one move are joined */
        const char *old = mc_record_comment(gr->r, gr->moves);
        mc_error e = {0, ""};
        if (old) {
            dstr j = {0};
            ds_puts(&j, old);
            ds_puts(&j, " ");
            ds_puts(&j, cm.b ? cm.b : "");
            if (j.len > COMMENT_MAX)
                rc = lx_fail_at(x, line, col, MC_ERR_ARG,
                                _("comment longer than %d bytes"), COMMENT_MAX);
            else if (mc_record_set_comment(gr->r, gr->moves, j.b ? j.b : "",
                                           &e))
                rc = lx_fail_at(x, line, col, MC_ERR_ARG, "%s", e.msg);
            free(j.b);
        } else if (mc_record_set_comment(gr->r, gr->moves, cm.b ? cm.b : "",
                                         &e)) {
            rc = lx_fail_at(x, line, col, MC_ERR_ARG, "%s", e.msg);
        }
    }
    free(cm.b);
    return rc;
}

/* The movetext word at line, col into w (room for MC_MOVE_STRLEN + 1):
   up to a blank, a comment or a tag, or after a move number's dots
   ("12." or "12..." glued to the move that follows). */
static int read_word(lexer *x, char *w, int line, int col)
{
    size_t n = 0;
    int c;
    while ((c = lx_peek(x)) >= 0 && !is_blank(c) && c != '{' && c != ';' &&
           c != '[') {
        if (c == 0 || c < 0x20 || c == 0x7f)
            return lx_fail_at(x, x->line, x->col, MC_ERR_ARG,
                              _("control character in the moves"));
        if (n >= MC_MOVE_STRLEN)
            return lx_fail_at(x, line, col, MC_ERR_MOVE,
                              _("a word longer than %d bytes"), MC_MOVE_STRLEN);
        w[n++] = (char)c;
        lx_next(x);
        if (c == '.' && w[0] >= '0' && w[0] <= '9' && lx_peek(x) != '.')
            break;
    }
    w[n] = '\0';
    return 0;
}

/* The result w at line, col ends the game: it is the Result tag's and
   the moves' (after the forfeit a Termination tag names), and the other
   derived tags read agree with the game. */
static int finish_game(game_reader *gr, const char *w, int line, int col)
{
    lexer *x = gr->x;
    if (gr->at[D_RESULT].line && strcmp(gr->read[D_RESULT], w) != 0)
        return lx_fail_at(x, line, col, MC_ERR_ARG,
                          _("the result %s differs from the Result tag \"%s\""),
                          w, gr->read[D_RESULT]);
    mc_session *s = gr->r->s;
    mc_result res;
    mc_session_result(s, &res);
    const char *term = gr->read[D_TERM];
    int forfeit = strcmp(term, "resign") == 0 ? MC_END_RESIGN
                  : strcmp(term, "time") == 0 ? MC_END_TIME
                                              : 0;
    if (forfeit) {
        if (res.over || (strcmp(w, "1-0") && strcmp(w, "0-1")))
            return lx_fail_at(x, line, col, MC_ERR_ARG,
                              _("game %d: Termination \"%s\" needs a game "
                                "still going after the moves and a result 1-0 "
                                "or 0-1"),
                              gr->game, term);
        mc_session_forfeit(s, strcmp(w, "1-0") == 0 ? MC_NORTH : MC_SOUTH,
                           forfeit);
    }
    dtags dv;
    derive_into(gr->r, dv);
    if (strcmp(dv[D_RESULT], w) != 0)
        return res.over
                   ? lx_fail_at(x, line, col, MC_ERR_ARG,
                                _("game %d: the result %s does not match the "
                                  "moves, which give %s %s"),
                                gr->game, w, dv[D_RESULT], res.detail)
                   : lx_fail_at(x, line, col, MC_ERR_ARG,
                                _("game %d: the result %s does not match the "
                                  "moves, which give %s (the game is not "
                                  "over)"),
                                gr->game, w, dv[D_RESULT]);
    return check_derived(x, gr->r, gr->read, gr->at, gr->game);
}

/* The move number w at line, col: k. before South's move, k... before
   North's, k the number expected. */
static int check_number(game_reader *gr, const char *w, int line, int col)
{
    char *end;
    long k = strtol(w, &end, 10);
    int dots = (int)strspn(end, ".");
    if (end[dots] != '\0' || (dots != 1 && dots != 3) || k < 1)
        return lx_fail_at(gr->x, line, col, MC_ERR_MOVE,
                          _("'%s' is neither a move number (12. or 12...) nor "
                            "a result"),
                          w);
    int side = mc_session_pos(gr->r->s)->side;
    if (k != gr->number || (dots == 1) != (side == MC_SOUTH))
        return lx_fail_at(gr->x, line, col, MC_ERR_MOVE,
                          _("move number %s: expected %d%s (%s to move)"), w,
                          gr->number, side == MC_SOUTH ? "." : "...",
                          side == MC_SOUTH ? _("South") : _("North"));
    return 0;
}

/* The move w at line, col, played by the session (MC_PASS_TOKEN: a
   passed turn, W16 blitz). */
static int play_word(game_reader *gr, const char *w, int line, int col)
{
    mc_session *s = gr->r->s;
    int side = mc_session_pos(s)->side;
    mc_error e = {0, ""};
    if (strcmp(w, MC_PASS_TOKEN) == 0
            ? mc_session_pass_turn(s, &e) != 0
            : mc_session_play_str(s, w, NULL, &e) != 0)
        return lx_fail_at(gr->x, line, col, e.code ? e.code : MC_ERR_MOVE,
                          _("game %d, move %d (%s): %s"), gr->game,
                          gr->moves + 1, w, e.msg);
    gr->moves++;
    if (side == MC_NORTH && mc_session_pos(s)->side == MC_SOUTH)
        gr->number++;
    return 0;
}

/* The movetext: comments, move numbers and moves, up to the result. */
static int read_movetext(game_reader *gr)
{
    lexer *x = gr->x;
    for (;;) {
        int c = lx_blank(x), rc;
        int line = x->line, col = x->col;
        if (c < 0)
            return lx_fail_at(x, line, col, MC_ERR_ARG,
                              _("game %d ends without a result (1-0, 0-1, "
                                "1/2-1/2 or *)"),
                              gr->game);
        if (c == '{' || c == ';') {
            if ((rc = read_comment(gr, c, line, col)))
                return rc;
            continue;
        }
        if (c == '[')
            return lx_fail_at(x, line, col, MC_ERR_ARG,
                              _("a tag inside the moves of game %d (is the "
                                "result, e.g. '*', missing?)"),
                              gr->game);
        char w[MC_MOVE_STRLEN + 1];
        if ((rc = read_word(x, w, line, col)))
            return rc;
        if (is_result(w))
            return finish_game(gr, w, line, col);
        rc = w[0] >= '0' && w[0] <= '9' ? check_number(gr, w, line, col)
                                        : play_word(gr, w, line, col);
        if (rc)
            return rc;
    }
}

/* One game: its tags, its record, its movetext checked move by move. */
static int read_game(lexer *x, mc_record **out, int game)
{
    game_reader gr;
    memset(&gr, 0, sizeof gr);
    gr.x = x;
    gr.game = game;
    gr.gline = x->line;
    gr.gcol = x->col;
    gr.number = 1;
    gr.read = calloc(ND, sizeof *gr.read);
    if (!gr.read)
        return lx_fail_at(x, gr.gline, gr.gcol, MC_ERR_NOMEM,
                          _("out of memory"));
    int rc = read_tags(&gr);
    if (!rc)
        rc = make_record(&gr);
    if (!rc)
        rc = read_movetext(&gr);
    if (!rc) {
        /* Every move read is in the session. */
        assert(mc_session_ply(gr.r->s) == gr.moves);
        /* keep the Match tag read, for the match check */
        if (set_match(gr.r, gr.at[D_MATCH].line ? gr.read[D_MATCH] : "") != 0)
            rc = lx_fail_at(x, gr.gline, gr.gcol, MC_ERR_NOMEM,
                            _("out of memory"));
    }
    if (!rc) {
        check(gr.r);
        *out = gr.r;
        gr.r = NULL;
    }
    for (int i = 0; i < gr.npend; i++) {
        free(gr.pend[i].n);
        free(gr.pend[i].v);
    }
    free(gr.pend);
    free(gr.read);
    mc_record_free(gr.r);
    return rc;
}

int mc_records_scan(const char *text, size_t len,
                    int (*each)(void *ctx, mc_record *r), void *ctx,
                    mc_record_loc *loc, mc_error *err)
{
    lexer x = {text, len, 0, 1, 1, loc, err};
    int cnt = 0, rc = 0;
    match_walk w = {0};
    if (loc)
        loc->line = loc->col = 0;
    if (err) {
        err->code = 0;
        err->msg[0] = '\0';
    }
    for (;;) {
        int c = lx_blank(&x);
        if (c < 0)
            break;
        if (c == ';' || c == '{') {
            /* comments between games are not kept */
            if ((rc = lx_comment(&x, NULL)))
                return rc;
            continue;
        }
        int line = x.line, col = x.col;
        if (c != '[')
            return lx_fail_at(
                &x, line, col, MC_ERR_ARG,
                _("expected the tags of game %d ('[Game \"...\"]')"), cnt + 1);
        mc_record *r = NULL;
        if ((rc = read_game(&x, &r, cnt + 1)))
            return rc;
        cnt++;
        /* matches: starters and the Match tag */
        char said[DERIVED_LEN];
        snprintf(said, sizeof said, "%s", r->match ? r->match : "");
        mc_error e = {0, ""};
        if (match_step(&w, r, &e) != 0) {
            mc_record_free(r);
            return lx_fail_at(&x, line, col, MC_ERR_ARG, _("game %d: %s"), cnt,
                              e.msg);
        }
        if (said[0] && strcmp(said, r->match ? r->match : "") != 0) {
            rc = lx_fail_at(&x, line, col, MC_ERR_ARG,
                            _("game %d: the Match tag says \"%s\" but the "
                              "games give \"%s\""),
                            cnt, said, r->match ? r->match : "no match");
            mc_record_free(r);
            return rc;
        }
        if ((rc = each(ctx, r)) != 0)
            return rc;
    }
    return 0;
}

typedef struct collect {
    mc_record **recs;
    int n, cap;
} collect;

static int collect_one(void *ctx, mc_record *r)
{
    collect *c = ctx;
    size_t nc =
        mc_grow(&c->recs, (size_t)c->cap, (size_t)c->n + 1, sizeof *c->recs, 4);
    if (!nc) {
        mc_record_free(r);
        return MC_ERR_NOMEM;
    }
    c->cap = (int)nc;
    c->recs[c->n++] = r;
    return 0;
}

/* The records collected by a scan that returned rc, handed over or freed. */
static int collected(collect *cl, int rc, mc_record ***out, int *n,
                     mc_error *err)
{
    collect c = *cl;
    if (rc != 0) {
        if (err && !err->msg[0])
            fail(err, rc, _("out of memory"));
        mc_records_free(c.recs, c.n);
        return rc;
    }
    *out = c.recs;
    *n = c.n;
    return 0;
}

int mc_records_read(const char *text, size_t len, mc_record ***out, int *n,
                    mc_record_loc *loc, mc_error *err)
{
    collect c = {NULL, 0, 0};
    *out = NULL;
    *n = 0;
    int rc = mc_records_scan(text, len, collect_one, &c, loc, err);
    return collected(&c, rc, out, n, err);
}

int mc_records_scan_file(const char *path, int (*each)(void *ctx, mc_record *r),
                         void *ctx, mc_record_loc *loc, mc_error *err)
{
    if (loc)
        loc->line = loc->col = 0;
    char *b;
    size_t len;
    if (mc_file_read(path, (size_t)1 << 30, &b, &len, err) != 0)
        return MC_ERR_IO;
    int rc = mc_records_scan(b, len, each, ctx, loc, err);
    free(b);
    return rc;
}

int mc_records_load(const char *path, mc_record ***out, int *n,
                    mc_record_loc *loc, mc_error *err)
{
    collect c = {NULL, 0, 0};
    *out = NULL;
    *n = 0;
    int rc = mc_records_scan_file(path, collect_one, &c, loc, err);
    return collected(&c, rc, out, n, err);
}
