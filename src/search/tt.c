/*
 * tt.c - the transposition table (tt.h).  An entry's data word:
 * bits 0-31 score, 32-39 depth, 40-41 bound, 42-51 move index, 52-57
 * generation.  A slot whose bound is MC_TT_EMPTY (0) is empty.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tt.h"
#include "../core/util.h"

#define GEN_MASK 63u

_Static_assert(sizeof(mc_tt_slot) * MC_TT_BUCKET == 64,
               "a bucket is one cache line");
#define BOUND_SHIFT 40
#define BOUND_MASK 3u

static mc_tt_bound bound_of(uint64_t d)
{
    return (mc_tt_bound)((d >> BOUND_SHIFT) & BOUND_MASK);
}

static uint64_t pack(int score, int depth, mc_tt_bound bound, int move,
                     unsigned gen)
{
    /* every field fits its bits: nothing spills into the next */
    mc_hot_assert(depth >= 0 && depth <= MC_TT_DEPTH_MAX);
    mc_hot_assert(bound >= MC_TT_EMPTY && bound <= MC_TT_EXACT);
    mc_hot_assert(move >= 0 && move <= MC_TT_NOMOVE);
    mc_hot_assert(gen <= GEN_MASK);
    return (uint64_t)(uint32_t)score | (uint64_t)(uint8_t)depth << 32 |
           (uint64_t)(bound & BOUND_MASK) << BOUND_SHIFT |
           (uint64_t)(move & 1023) << 42 | (uint64_t)(gen & GEN_MASK) << 52;
}

static void unpack(uint64_t d, mc_tt_entry *e)
{
    e->score = (int32_t)(uint32_t)d;
    e->depth = (int)(uint8_t)(d >> 32);
    e->bound = bound_of(d);
    e->move = (int)(d >> 42) & 1023;
}

static unsigned gen_of(uint64_t d)
{
    return (unsigned)(d >> 52) & GEN_MASK;
}

void mc_tt_free(mc_tt *t)
{
    free(t->slot);
    memset(t, 0, sizeof *t);
}

/*
 * The table is allocated on 2 MiB boundaries and, where the system offers
 * it, backed by huge pages: touching 16 MiB of ordinary pages costs 4096
 * page faults.  It is zeroed here, once, so that no search pays for it.
 */
int mc_tt_resize(mc_tt *t, int mb)
{
    mc_tt_free(t);
    if (mb < 1)
        mb = 1;
    size_t want = (size_t)mb << 20, bytes = 64;
    while (bytes * 2 <= want)
        bytes *= 2;
    void *mem = NULL;
    if (posix_memalign(&mem, (size_t)2 << 20, bytes) != 0)
        return -1;
#ifdef MADV_HUGEPAGE
    madvise(mem, bytes, MADV_HUGEPAGE);
#endif
    memset(mem, 0, bytes);
    t->slot = mem;
    t->bytes = bytes;
    t->mask = bytes / (sizeof(mc_tt_slot) * MC_TT_BUCKET) - 1;
    t->gen = 0;
    /* a power of two of buckets, each one cache line */
    assert(((t->mask + 1) & t->mask) == 0);
    return 0;
}

void mc_tt_clear(mc_tt *t)
{
    if (t->slot)
        memset((void *)t->slot, 0, t->bytes);
    t->gen = 0;
}

void mc_tt_new_search(mc_tt *t)
{
    t->gen = (t->gen + 1) & GEN_MASK;
}

int mc_tt_probe(const mc_tt *t, uint64_t key, mc_tt_entry *e)
{
    if (!t->slot)
        return 0;
    mc_tt_slot *b = mc_tt_bucket(t, key);
    for (int i = 0; i < MC_TT_BUCKET; i++) {
        uint64_t d = atomic_load_explicit(&b[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b[i].check, memory_order_relaxed);
        if ((c ^ d) == key && bound_of(d) != MC_TT_EMPTY) {
            unpack(d, e);
            return 1;
        }
    }
    return 0;
}

/*
 * Where to write: the slot of the same key, else an empty one, else the
 * least valuable: shallow, and old (each generation of age counts as 8
 * plies of depth).  An entry of the same key keeps its move when the new
 * result has none, and a deeper result of this search is not replaced by
 * a much shallower bound.
 */
void mc_tt_store(mc_tt *t, uint64_t key, int score, int depth,
                 mc_tt_bound bound, int move)
{
    /* an entry says something about the node: never "empty" */
    mc_hot_assert(bound == MC_TT_UPPER || bound == MC_TT_LOWER ||
                  bound == MC_TT_EXACT);
    mc_hot_assert(move == MC_TT_NOMOVE || (move >= 0 && move < MC_TT_NOMOVE));
    if (!t->slot)
        return;
    if (depth < 0)
        depth = 0;
    if (depth > MC_TT_DEPTH_MAX)
        depth = MC_TT_DEPTH_MAX;
    mc_tt_slot *b = mc_tt_bucket(t, key), *w = NULL;
    int worst = 1 << 30, empty = 0;
    for (int i = 0; i < MC_TT_BUCKET; i++) {
        uint64_t d = atomic_load_explicit(&b[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b[i].check, memory_order_relaxed);
        if (bound_of(d) == MC_TT_EMPTY) {
            if (!empty) {
                w = &b[i];
                empty = 1;
            }
            continue;
        }
        if ((c ^ d) == key) {
            mc_tt_entry old;
            unpack(d, &old);
            if (move == MC_TT_NOMOVE)
                move = old.move;
            if (bound != MC_TT_EXACT && gen_of(d) == t->gen &&
                depth + 2 < old.depth)
                return;
            w = &b[i];
            break;
        }
        int age = (int)((t->gen - gen_of(d)) & GEN_MASK);
        int value = (int)(uint8_t)(d >> 32) - 8 * age;
        if (!empty && value < worst) {
            worst = value;
            w = &b[i];
        }
    }
    mc_hot_assert(w != NULL); /* a bucket always has a slot to give */
    uint64_t d = pack(score, depth, bound, move, t->gen);
    atomic_store_explicit(&w->data, d, memory_order_relaxed);
    atomic_store_explicit(&w->check, key ^ d, memory_order_relaxed);
}

int mc_tt_hashfull(const mc_tt *t)
{
    if (!t->slot)
        return 0;
    size_t buckets = t->mask + 1 < 250 ? t->mask + 1 : 250, used = 0;
    for (size_t i = 0; i < buckets * MC_TT_BUCKET; i++) {
        uint64_t d =
            atomic_load_explicit(&t->slot[i].data, memory_order_relaxed);
        used += bound_of(d) != MC_TT_EMPTY && gen_of(d) == t->gen;
    }
    assert(used <= buckets * MC_TT_BUCKET);
    return (int)(used * 1000 / (buckets * MC_TT_BUCKET));
}
