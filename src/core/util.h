/*
 * util.h - small shared helpers: errors, bounded string building, parsing of
 * comma-separated numbers, hashing of a position, a cooperative deadline.
 */
#ifndef MC_UTIL_H
#define MC_UTIL_H

#include <assert.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "mancala.h"

/*
 * Invariants (docs/HACKING.md): assert() for the cheap ones, on in every
 * build; mc_hot_assert() for those on the search's hot paths (the seeds
 * conserved after every move), on in the checking builds (make SAN=1,
 * make tsan, the fuzzers: -DMC_CHECKS) and not evaluated in the others,
 * so that the bench's speed holds.
 */
#ifdef MC_CHECKS
#define mc_hot_assert(x) assert(x)
#else
#define mc_hot_assert(x) ((void)(0 && (x)))
#endif

#if defined(__GNUC__)
#define MC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define MC_PRINTF(a, b)

#endif

/* n bytes from the system's random source (getrandom; getentropy under
   emscripten, whose libc has no getrandom): 0, or -1 when it fails (the
   caller decides: never a weaker source for a secret). */
int mc_system_random(void *buf, size_t n);

/* Fill err (if not NULL) and return code. */
int mc_err(mc_error *err, int code, const char *fmt, ...) MC_PRINTF(3, 4);

/* Bounded appending writer: never overflows, always NUL-terminates, counts
   the length it would have had. */
typedef struct mc_sb {
    char *buf;
    size_t cap, len;
} mc_sb;
void mc_sb_init(mc_sb *b, char *buf, size_t cap);
void mc_sb_printf(mc_sb *b, const char *fmt, ...) MC_PRINTF(2, 3);
void mc_sb_putc(mc_sb *b, char c);

/*
 * Make room in a growable array: *(T **)arr holds cap elements of elem
 * bytes; if need > cap, it grows (doubling, from `first`) to hold need
 * (at least 1: a result of 0 means failure).  Returns the capacity, at
 * least need, or 0 when out of memory (the array is then unchanged).  The
 * new elements are not initialised.
 */
size_t mc_grow(void *arr, size_t cap, size_t need, size_t elem, size_t first);

/*
 * Parse exactly `count` comma-separated decimal numbers in [0, max] from s up
 * to the end of s or the first character in `stop`.  On error, fills err
 * mentioning `what` and returns nonzero.  *end receives the position after.
 */
int mc_parse_counts(const char *s, int count, int max, uint8_t *out,
                    const char **end, const char *what, mc_error *err);
/*
 * The head every two-sided position string shares:
 * "<South's pits>/<North's pits> <S|N> ", per_side counts in [0, max] into
 * p->pit[0 .. 2 * per_side) and the side into p->side.  Errors name the
 * field: row[] label the two lists of counts, after0 says what the '/'
 * follows, next names the field after the side (for "is missing"), form
 * shows the whole string.  On success *rest points to the third field.
 */
typedef struct mc_head_fmt {
    int per_side, max;
    const char *row[2];
    const char *after0;
    const char *next;
    const char *form;
} mc_head_fmt;
int mc_parse_head(const char *s, const mc_head_fmt *f, mc_pos *p,
                  const char **rest, mc_error *err);

/* Write the same head, "<South's pits>/<North's pits> <S|N>". */
void mc_format_head(mc_sb *b, const mc_pos *p, int per_side);

/* Parse a decimal number in [0, max]; returns -1 if s is not one. */
long mc_parse_uint(const char *s, size_t len, long max);

/* Hash of pits[0..npits) and the scalar fields of a position (not `last`). */
uint64_t mc_pos_hash(const mc_pos *p, int npits);

/* splitmix64 step, for seeding and mixing. */
static inline uint64_t mc_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Split the next whitespace-separated field of *s into buf; 0 if none. */
int mc_next_field(const char **s, char *buf, size_t n);

/*
 * The one exception to "the search reaches the rules through the game
 * interface only" (docs/HACKING.md, "The one way past the game
 * interface"): the deadline, the work limit and the relay budget below
 * pass from the search (search.c, player.c) and the server (api.c) to
 * Omweso's rules (omweso.c) as thread-locals, outside struct mc_rules.
 * The rules need them deep inside move generation, play and status (a
 * relay chain walked lap by lap inside mc_moves, mc_play and mc_status,
 * and its cycle verdicts cached), below calls whose signatures every game
 * shares: passing them through the interface would put one game's and one
 * caller's concern into every game's functions and every call of them.
 * A thread-local keeps the rules' signatures free of search concerns, and
 * is right with threads because each search thread plays on its own copy
 * of the game and sets its own (a helper takes its caller's work limit:
 * mc_work_limit).  Only the rules read them; only the search and the
 * server's request threads set them.  Nothing else may be passed this way.
 */

/*
 * A cooperative deadline for long rule computations (an Omweso relay can
 * walk tens of millions of laps before its cycle shows): the search sets it
 * for its own thread (when: an absolute mc_now() time, 0 none; stop: a flag
 * another thread may set, or NULL); the game polls mc_deadline_check() every
 * few million laps and, when it fires, gives up with a result the search
 * discards (mc_deadline_fired() stays true until the next mc_deadline_set).
 */
void mc_deadline_set(double when, const _Atomic int *stop);
int mc_deadline_check(void);
int mc_deadline_fired(void);

/*
 * A bound on all the rule work of this thread, above any search's deadline
 * (a server's request: issue 44): mc_deadline_check fires at it too, and a
 * search's mc_deadline_set does not lift it; 0 none.  mc_work_limit_hit()
 * says it fired since it was set: whatever the rules answered since may be
 * cut short, and the caller throws it away.  A search's helper threads take
 * their caller's (mc_work_limit()).
 */
void mc_work_limit_set(double when);
double mc_work_limit(void);
int mc_work_limit_hit(void);

/*
 * A search's leave to cut a long rule computation short and guess, for its
 * own thread: laps > 0 lets Omweso take a relay chain still going after that
 * many laps for a never-ending one (W13) below the root; 0, the default, is
 * exact.  The guess is never cached for exact use.  (No chain that ends has
 * been seen to take more than 282 laps; never-ending ones take from a few
 * hundred to over a billion before they come round: docs/SEARCH.md.)
 */
void mc_relay_budget_set(uint64_t laps);
uint64_t mc_relay_budget(void);
double mc_now(void);

#endif
