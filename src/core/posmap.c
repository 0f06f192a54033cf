/*
 * posmap.c - an index from positions to their owner's numbers (posmap.h).
 */
#include "posmap.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static size_t pos_bytes(void)
{
    return offsetof(mc_pos, last);
}

static uint64_t key_of(const mc_pos *p)
{
    const unsigned char *b = (const unsigned char *)p;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < pos_bytes(); i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return mc_mix64(h);
}

void mc_posmap_init(mc_posmap *m, const mc_pos *(*at)(const void *, int),
                    const void *ctx)
{
    memset(m, 0, sizeof *m);
    m->at = at;
    m->ctx = ctx;
}

void mc_posmap_free(mc_posmap *m)
{
    free(m->slot);
    m->slot = NULL;
    m->size = 0;
    m->count = 0;
}

int mc_posmap_find(const mc_posmap *m, const mc_pos *p)
{
    if (!m->size)
        return -1;
    /* A power of two at most half full: the probe meets an empty slot. */
    assert((m->size & (m->size - 1)) == 0 && (size_t)m->count * 2 <= m->size);
    size_t mask = m->size - 1;
    for (size_t i = (size_t)key_of(p) & mask; m->slot[i] >= 0;
         i = (i + 1) & mask)
        if (memcmp(m->at(m->ctx, m->slot[i]), p, pos_bytes()) == 0)
            return m->slot[i];
    return -1;
}

static void put(mc_posmap *m, int k)
{
    assert(k >= 0 && (size_t)m->count < m->size);
    size_t mask = m->size - 1;
    size_t i = (size_t)key_of(m->at(m->ctx, k)) & mask;
    while (m->slot[i] >= 0)
        i = (i + 1) & mask;
    m->slot[i] = k;
}

int mc_posmap_add(mc_posmap *m, int k)
{
    if ((size_t)(m->count + 1) * 2 > m->size) {
        /* at most half full: rebuilt twice as large */
        size_t size = m->size ? m->size * 2 : 256;
        int *slot = malloc(size * sizeof *slot), *old = m->slot;
        if (!slot)
            return -1;
        size_t old_size = m->size;
        m->slot = slot;
        m->size = size;
        for (size_t i = 0; i < size; i++)
            slot[i] = -1;
        for (size_t i = 0; i < old_size; i++)
            if (old[i] >= 0)
                put(m, old[i]);
        free(old);
    }
    put(m, k);
    m->count++;
    assert((size_t)m->count * 2 <= m->size);
    return 0;
}
