/*
 * util.c - errors, bounded strings, number parsing, hashing, PRNG.
 * Nothing here allocates or prints.
 */
#include "util.h"
#include "i18n.h"

#include <ctype.h>
#include <errno.h>
#ifdef __EMSCRIPTEN__
#include <unistd.h>
#else
#include <sys/random.h>
#endif
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mc_err(mc_error *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

void mc_sb_init(mc_sb *b, char *buf, size_t cap)
{
    b->buf = buf;
    b->cap = cap;
    b->len = 0;
    if (cap)
        buf[0] = '\0';
}

void mc_sb_printf(mc_sb *b, const char *fmt, ...)
{
    va_list ap;
    size_t room = b->len < b->cap ? b->cap - b->len : 0;
    va_start(ap, fmt);
    int k = vsnprintf(room ? b->buf + b->len : NULL, room, fmt, ap);
    va_end(ap);
    if (k > 0)
        b->len += (size_t)k;
    /* Never past the end, always terminated (a cut text at cap - 1). */
    assert(!b->cap || b->buf[b->len < b->cap ? b->len : b->cap - 1] == '\0');
}

size_t mc_grow(void *arr, size_t cap, size_t need, size_t elem, size_t first)
{
    if (need <= cap)
        return cap;
    size_t nc = cap ? cap : first ? first : 1;
    while (nc < need) {
        if (nc > SIZE_MAX / 2 / elem)
            return 0;
        nc *= 2;
    }
    void *old, *nw;
    memcpy(&old, arr, sizeof old);
    if (nc > SIZE_MAX / elem || !(nw = realloc(old, nc * elem)))
        return 0;
    memcpy(arr, &nw, sizeof nw);
    assert(nc >= need && nc > cap);
    return nc;
}

void mc_sb_putc(mc_sb *b, char c)
{
    if (b->len + 1 < b->cap) {
        b->buf[b->len] = c;
        b->buf[b->len + 1] = '\0';
    }
    b->len++;
    assert(!b->cap || b->buf[b->len < b->cap ? b->len : b->cap - 1] == '\0');
}

long mc_parse_uint(const char *s, size_t len, long max)
{
    long v = 0;
    if (len == 0 || len > 9)
        return -1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v > max ? -1 : v;
}

int mc_parse_counts(const char *s, int count, int max, uint8_t *out,
                    const char **end, const char *what, mc_error *err)
{
    assert(count >= 1 && max >= 0 && max <= 255); /* counts fit out[] */
    const char *p = s;
    for (int i = 0; i < count; i++) {
        const char *q = p;
        while (*q >= '0' && *q <= '9')
            q++;
        if (q == p)
            return mc_err(err, MC_ERR_POSITION,
                          *p ? _("%s: expected %d comma-separated seed "
                                 "counts, item %d is not a number")
                             : _("%s: expected %d comma-separated seed "
                                 "counts, item %d is missing"),
                          _(what), count, i + 1);
        long v = mc_parse_uint(p, (size_t)(q - p), max);
        if (v < 0)
            return mc_err(err, MC_ERR_POSITION,
                          _("%s: item %d (%.*s) is out of range 0..%d"),
                          _(what), i + 1, (int)(q - p > 12 ? 12 : q - p), p,
                          max);
        out[i] = (uint8_t)v;
        p = q;
        if (i + 1 < count) {
            if (*p != ',')
                return mc_err(err, MC_ERR_POSITION,
                              P_("%s: expected %d comma-separated seed "
                                 "counts, found %d",
                                 "%s: expected %d comma-separated seed "
                                 "counts, found %d",
                                 i + 1),
                              _(what), count, i + 1);
            p++;
        }
    }
    if (*p == ',')
        return mc_err(err, MC_ERR_POSITION, _("%s: more than %d seed counts"),
                      _(what), count);
    *end = p;
    return 0;
}

int mc_parse_head(const char *s, const mc_head_fmt *f, mc_pos *p,
                  const char **rest, mc_error *err)
{
    assert(f->per_side >= 1 && 2 * f->per_side <= MC_MAX_PITS);
    const char *e;
    if (mc_parse_counts(s, f->per_side, f->max, p->pit, &e, f->row[0], err))
        return MC_ERR_POSITION;
    if (*e != '/')
        return mc_err(err, MC_ERR_POSITION,
                      _("field 1: expected '/' after %s; %s"), _(f->after0),
                      _(f->form));
    if (mc_parse_counts(e + 1, f->per_side, f->max, p->pit + f->per_side, &e,
                        f->row[1], err))
        return MC_ERR_POSITION;
    if (*e != ' ')
        return mc_err(err, MC_ERR_POSITION,
                      _("field 1 must be followed by one space and the side "
                        "to move; %s"),
                      _(f->form));
    e++;
    if ((*e == 'S' || *e == 'N') && e[1] == '\0')
        return mc_err(err, MC_ERR_POSITION, _("field 3 (%s) is missing; %s"),
                      f->next, _(f->form));
    if ((*e != 'S' && *e != 'N') || e[1] != ' ')
        return mc_err(err, MC_ERR_POSITION,
                      _("field 2 (side to move): expected 'S' or 'N' "
                        "followed by one space; %s"),
                      _(f->form));
    p->side = *e == 'S' ? MC_SOUTH : MC_NORTH;
    *rest = e + 2;
    return 0;
}

void mc_format_head(mc_sb *b, const mc_pos *p, int per_side)
{
    assert(per_side >= 1 && 2 * per_side <= MC_MAX_PITS);
    for (int i = 0; i < 2 * per_side; i++)
        mc_sb_printf(b, "%d%s", p->pit[i],
                     i == per_side - 1       ? "/"
                     : i == 2 * per_side - 1 ? ""
                                             : ",");
    mc_sb_printf(b, " %c", p->side ? 'N' : 'S');
}

/*
 * Position hash: the pits read as 64-bit words and the scalar fields, each
 * folded in through the splitmix64 finaliser.  Measured at about a fifth of
 * the instructions of a table-driven zobrist hash over 12 pits, and search
 * never needs incremental updates because positions are copied, not unmade.
 * Unused pits and fields are 0 by convention, so whole words can be read.
 */
/* The 8 bytes read from cap on are cap[2], side, first, own and offer. */
_Static_assert(offsetof(mc_pos, flags) == offsetof(mc_pos, cap) + 8,
               "mc_pos_hash reads the scalar fields as one word");
uint64_t mc_pos_hash(const mc_pos *p, int npits)
{
    /* Whole words of pit[], all inside it. */
    mc_hot_assert(npits >= 1 && npits <= MC_MAX_PITS);
    uint64_t scal;
    memcpy(&scal, p->cap, sizeof scal); /* cap[2], side, first, own, offer */
    uint64_t h = mc_mix64(scal ^ ((uint64_t)p->flags << 32 | p->flags));
    for (int i = 0; i < npits; i += 8) {
        uint64_t w;
        memcpy(&w, p->pit + i, sizeof w);
        h = mc_mix64(h ^ w);
    }
    return h;
}

int mc_next_field(const char **s, char *buf, size_t n)
{
    assert(n >= 1); /* room for the terminator */
    const char *p = *s;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p)
        return 0;
    size_t k = 0;
    while (*p && *p != ' ' && *p != '\t') {
        if (k + 1 < n)
            buf[k++] = *p;
        p++;
    }
    buf[k] = '\0';
    *s = p;
    return 1;
}

/* ---- xoshiro256** ---- */

void mc_rng_seed(mc_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        seed += 0x9e3779b97f4a7c15ull;
        r->s[i] = mc_mix64(seed);
    }
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t mc_rng_next(mc_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

uint32_t mc_rng_below(mc_rng *r, uint32_t n)
{
    mc_hot_assert(n > 0); /* (-n) % n below divides by n */
    /* Lemire's multiply-shift with rejection: unbiased. */
    uint64_t m = (uint64_t)(uint32_t)(mc_rng_next(r) >> 32) * n;
    uint32_t lo = (uint32_t)m;
    if (lo < n) {
        uint32_t t = (uint32_t)(-n) % n;
        while (lo < t) {
            m = (uint64_t)(uint32_t)(mc_rng_next(r) >> 32) * n;
            lo = (uint32_t)m;
        }
    }
    mc_hot_assert((uint32_t)(m >> 32) < n);
    return (uint32_t)(m >> 32);
}

/* ---- cooperative deadline ---- */

static _Thread_local double dl_when;
static _Thread_local const _Atomic int *dl_stop;
static _Thread_local int dl_fired;
static _Thread_local double wl_when;
static _Thread_local int wl_hit;

double mc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void mc_deadline_set(double when, const _Atomic int *stop)
{
    dl_when = when;
    dl_stop = stop;
    dl_fired = 0;
}

int mc_deadline_check(void)
{
    if (dl_fired || wl_hit)
        return 1;
    double now = dl_when > 0 || wl_when > 0 ? mc_now() : 0;
    if ((dl_when > 0 && now >= dl_when) ||
        (dl_stop && atomic_load_explicit(dl_stop, memory_order_relaxed)))
        dl_fired = 1;
    if (wl_when > 0 && now >= wl_when)
        wl_hit = 1;
    return dl_fired || wl_hit;
}

int mc_deadline_fired(void)
{
    return dl_fired || wl_hit;
}

void mc_work_limit_set(double when)
{
    wl_when = when;
    wl_hit = 0;
}

double mc_work_limit(void)
{
    return wl_when;
}

int mc_work_limit_hit(void)
{
    return wl_hit;
}

static _Thread_local uint64_t relay_budget;

void mc_relay_budget_set(uint64_t laps)
{
    relay_budget = laps;
}

uint64_t mc_relay_budget(void)
{
    return relay_budget;
}

int mc_system_random(void *buf, size_t n)
{
    unsigned char *b = buf;
    size_t got = 0;
    while (got < n) {
#ifdef __EMSCRIPTEN__
        size_t k = n - got > 256 ? 256 : n - got; /* getentropy's most */
        if (getentropy(b + got, k) != 0)
            return -1;
        got += k;
#else
        ssize_t r = getrandom(b + got, n - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
#endif
    }
    return 0;
}
