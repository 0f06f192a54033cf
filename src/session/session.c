/*
 * session.c - one game with its history: the single place where repetition
 * and ply limits are counted (for play, tools and perft alike), plus undo,
 * redo and forfeits.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "../games/game.h"

struct mc_session {
    const mc_game *g;
    mc_pos *pos;     /* pos[k]: position before move k; pos[n]: now */
    uint64_t *hash;  /* hash[k] of pos[k] */
    mc_move *mv;     /* mv[k]: move k */
    uint8_t *flags;  /* MC_PLAY_* of move k */
    int n, top, cap; /* moves played, moves that redo can restore, room */
    mc_result res;   /* status of pos[n] */
    int forced;      /* res was set by a forfeit at ply `n` */
};

static int grow(mc_session *s, int need)
{
    if (need < s->cap)
        return 0;
    int cap = s->cap ? s->cap * 2 : 64;
    while (cap <= need)
        cap *= 2;
    mc_pos *pos = realloc(s->pos, (size_t)(cap + 1) * sizeof *pos);
    if (!pos)
        return -1;
    s->pos = pos;
    uint64_t *hash = realloc(s->hash, (size_t)(cap + 1) * sizeof *hash);
    if (!hash)
        return -1;
    s->hash = hash;
    mc_move *mv = realloc(s->mv, (size_t)(cap + 1) * sizeof *mv);
    if (!mv)
        return -1;
    s->mv = mv;
    uint8_t *fl = realloc(s->flags, (size_t)(cap + 1) * sizeof *fl);
    if (!fl)
        return -1;
    s->flags = fl;
    s->cap = cap;
    return 0;
}

/* History facts for position k of a line: occurrences of pos[k] since the
   last irreversible move, and plies since the last quiet-count reset. */
static void hist_scan(const mc_pos *pos, const uint64_t *hash,
                      const uint8_t *flags, int k, mc_hist *h)
{
    h->occurrences = 1;
    h->plies = k;
    h->quiet = k;
    int quiet_found = 0, window = 1;
    for (int j = k - 1; j >= 0 && (window || !quiet_found); j--) {
        if (!quiet_found && (flags[j] & MC_PLAY_RESET_QUIET)) {
            h->quiet = k - 1 - j;
            quiet_found = 1;
        }
        if (flags[j] & MC_PLAY_IRREVERSIBLE)
            window = 0;
        if (window && hash[j] == hash[k] &&
            memcmp(&pos[j], &pos[k], offsetof(mc_pos, last)) == 0)
            h->occurrences++;
    }
}

static void compute_hist(const mc_session *s, int k, mc_hist *h)
{
    hist_scan(s->pos, s->hash, s->flags, k, h);
}

static void refresh(mc_session *s)
{
    mc_hist h;
    compute_hist(s, s->n, &h);
    mc_status(s->g, &s->pos[s->n], &h, &s->res);
    s->forced = 0;
}

mc_session *mc_session_new(const mc_game *g, const mc_pos *start)
{
    mc_session *s = calloc(1, sizeof *s);
    if (!s || grow(s, 0) != 0) {
        mc_session_free(s);
        return NULL;
    }
    s->g = g;
    if (start)
        s->pos[0] = *start;
    else
        mc_start(g, &s->pos[0]);
    s->hash[0] = mc_hash(g, &s->pos[0]);
    refresh(s);
    return s;
}

void mc_session_free(mc_session *s)
{
    if (!s)
        return;
    free(s->pos);
    free(s->hash);
    free(s->mv);
    free(s->flags);
    free(s);
}

const mc_game *mc_session_game(const mc_session *s) { return s->g; }
const mc_pos *mc_session_pos(const mc_session *s) { return &s->pos[s->n]; }
int mc_session_ply(const mc_session *s) { return s->n; }
int mc_session_over(const mc_session *s) { return s->res.over; }

void mc_session_result(const mc_session *s, mc_result *r) { *r = s->res; }

void mc_session_hist(const mc_session *s, mc_hist *h)
{
    compute_hist(s, s->n, h);
}

int mc_session_moves(const mc_session *s, mc_move *out)
{
    if (s->res.over)
        return 0;
    return mc_moves(s->g, &s->pos[s->n], out);
}

mc_move mc_session_move_at(const mc_session *s, int n)
{
    return n >= 0 && n < s->n ? s->mv[n] : 0;
}

const mc_pos *mc_session_pos_at(const mc_session *s, int n)
{
    return n >= 0 && n <= s->n ? &s->pos[n] : NULL;
}

int mc_session_play(mc_session *s, mc_move m, mc_trace *trace, mc_error *err)
{
    if (s->res.over)
        return mc_err(err, MC_ERR_OVER, "the game is over");
    mc_move list[MC_MAX_MOVES];
    int n = mc_moves(s->g, &s->pos[s->n], list), ok = 0;
    for (int i = 0; i < n && !ok; i++)
        ok = list[i] == m;
    if (!ok)
        return mc_err(err, MC_ERR_ILLEGAL, "not a legal move here");
    if (grow(s, s->n + 1) != 0)
        return mc_err(err, MC_ERR_ARG, "out of memory");
    mc_pos next = s->pos[s->n];
    int fl = mc_play(s->g, &next, m, trace);
    s->mv[s->n] = m;
    s->flags[s->n] = (uint8_t)fl;
    s->n++;
    s->top = s->n;
    s->pos[s->n] = next;
    s->hash[s->n] = mc_hash(s->g, &next);
    refresh(s);
    return 0;
}

int mc_session_play_str(mc_session *s, const char *tok, mc_trace *trace,
                        mc_error *err)
{
    mc_move m;
    if (s->res.over)
        return mc_err(err, MC_ERR_OVER, "the game is over; %s cannot be played",
                      tok);
    int rc = mc_move_parse(s->g, &s->pos[s->n], tok, &m, err);
    if (rc)
        return rc;
    return mc_session_play(s, m, trace, err);
}

int mc_session_undo(mc_session *s)
{
    if (s->forced) {
        refresh(s);
        return 1;
    }
    if (s->n == 0)
        return 0;
    s->n--;
    refresh(s);
    return 1;
}

int mc_session_redo(mc_session *s)
{
    if (s->n >= s->top)
        return 0;
    s->n++;
    refresh(s);
    return 1;
}

void mc_session_forfeit(mc_session *s, int side, int reason)
{
    memset(&s->res, 0, sizeof s->res);
    s->res.over = 1;
    s->res.winner = side == MC_SOUTH ? MC_NORTH : MC_SOUTH;
    s->res.reason = reason;
    mc_sb b;
    mc_sb_init(&b, s->res.detail, sizeof s->res.detail);
    mc_sb_printf(&b, "%s %s", side == MC_SOUTH ? "South" : "North",
                 reason == MC_END_TIME ? "lost on time" : "resigned");
    s->forced = 1;
}

/* ---- perft: leaves at exactly depth d, with the session's end rules ---- */

typedef struct perft_ctx {
    const mc_game *g;
    mc_pos stack[128];
    uint64_t hash[128];
    uint8_t flags[128];
} perft_ctx;

static uint64_t perft_rec(perft_ctx *c, int k, int depth)
{
    if (depth == 0)
        return 1;
    mc_hist h;
    mc_result r;
    hist_scan(c->stack, c->hash, c->flags, k, &h);
    mc_status(c->g, &c->stack[k], &h, &r);
    if (r.over)
        return 0;
    mc_move mv[MC_MAX_MOVES];
    int n = mc_moves(c->g, &c->stack[k], mv);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        c->stack[k + 1] = c->stack[k];
        c->flags[k] = (uint8_t)mc_play(c->g, &c->stack[k + 1], mv[i], NULL);
        c->hash[k + 1] = mc_hash(c->g, &c->stack[k + 1]);
        total += perft_rec(c, k + 1, depth - 1);
    }
    return total;
}

uint64_t mc_perft(const mc_game *g, const mc_pos *p, int depth)
{
    if (depth < 0 || depth > 100)
        return 0;
    perft_ctx *c = malloc(sizeof *c);
    if (!c)
        return 0;
    c->g = g;
    c->stack[0] = *p;
    c->hash[0] = mc_hash(g, p);
    uint64_t r = perft_rec(c, 0, depth);
    free(c);
    return r;
}

/* ---- uniform random games ---- */

int mc_random_game(const mc_game *g, const mc_pos *start, mc_rng *rng,
                   int max_plies, mc_result *res)
{
    int cap = 256;
    mc_pos *pos = malloc((size_t)cap * sizeof *pos);
    uint64_t *hash = malloc((size_t)cap * sizeof *hash);
    uint8_t *flags = malloc((size_t)cap);
    int k = 0;
    memset(res, 0, sizeof *res);
    if (!pos || !hash || !flags)
        goto out;
    pos[0] = *start;
    hash[0] = mc_hash(g, start);
    for (;;) {
        mc_hist h;
        hist_scan(pos, hash, flags, k, &h);
        mc_status(g, &pos[k], &h, res);
        if (res->over || (max_plies > 0 && k >= max_plies))
            break;
        mc_move mv[MC_MAX_MOVES];
        int n = mc_moves(g, &pos[k], mv);
        if (n == 0)
            break; /* cannot happen when status is consistent */
        if (k + 1 >= cap) {
            int ncap = cap * 2;
            mc_pos *np = realloc(pos, (size_t)ncap * sizeof *np);
            if (np)
                pos = np;
            uint64_t *nh = realloc(hash, (size_t)ncap * sizeof *nh);
            if (nh)
                hash = nh;
            uint8_t *nf = realloc(flags, (size_t)ncap);
            if (nf)
                flags = nf;
            if (!np || !nh || !nf)
                break;
            cap = ncap;
        }
        pos[k + 1] = pos[k];
        flags[k] = (uint8_t)mc_play(g, &pos[k + 1], mv[mc_rng_below(rng, (uint32_t)n)],
                                    NULL);
        k++;
        hash[k] = mc_hash(g, &pos[k]);
    }
out:
    free(pos);
    free(hash);
    free(flags);
    return k;
}
