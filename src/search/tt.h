/*
 * tt.h - the transposition table: allocated once, kept between moves,
 * shared by the search threads of one player.  Buckets of four entries fill
 * one 64-byte cache line; every entry carries the generation (search
 * number) that wrote it, so a new search prefers to overwrite entries of
 * old searches and shallow ones.  Entries are two 64-bit words read and
 * written with relaxed atomics: the first is the key xor the data, so a
 * torn entry (two threads writing at once) fails its key check instead of
 * giving another position's data.
 */
#ifndef MC_TT_H
#define MC_TT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define MC_TT_BUCKET 4
#define MC_TT_NOMOVE 1023

typedef struct mc_tt_slot {
    _Atomic uint64_t check; /* key ^ data */
    _Atomic uint64_t data;
} mc_tt_slot;

typedef struct mc_tt {
    mc_tt_slot *slot;
    size_t mask;  /* buckets - 1 */
    size_t bytes; /* allocated */
    unsigned gen; /* 0..63, the current search's */
} mc_tt;

/* What an entry's score says about the node's value v: the search
   failed low (v <= score), high (v >= score), or found it.  Two bits of
   the data word; 0 marks an empty slot. */
typedef enum mc_tt_bound {
    MC_TT_EMPTY = 0,
    MC_TT_UPPER = 1, /* failed low: at most score */
    MC_TT_LOWER = 2, /* failed high: at least score */
    MC_TT_EXACT = 3
} mc_tt_bound;

/* The deepest draft an entry records (8 bits of the data word). */
#define MC_TT_DEPTH_MAX 255

/* An entry as the search sees it. */
typedef struct mc_tt_entry {
    int score;
    int depth;         /* 0..MC_TT_DEPTH_MAX */
    mc_tt_bound bound; /* never MC_TT_EMPTY in a probe's answer */
    int move;          /* index in the move list, or MC_TT_NOMOVE */
} mc_tt_entry;

/* Allocate a table of about mb MiB (a power of two of buckets, at least
   one MiB), zeroed; 0, or -1 when out of memory (the table is then
   empty but usable: every probe misses). */
int mc_tt_resize(mc_tt *t, int mb);
void mc_tt_free(mc_tt *t);
/* Forget everything (a new game). */
void mc_tt_clear(mc_tt *t);
/* A new search: entries written from now on are of a new generation. */
void mc_tt_new_search(mc_tt *t);

static inline mc_tt_slot *mc_tt_bucket(const mc_tt *t, uint64_t key)
{
    return &t->slot[(size_t)(key & t->mask) * MC_TT_BUCKET];
}

static inline void mc_tt_prefetch(const mc_tt *t, uint64_t key)
{
#if defined(__GNUC__)
    if (t->slot)
        __builtin_prefetch(mc_tt_bucket(t, key));
#else
    (void)t;
    (void)key;
#endif
}

/* 1 and *e when the table holds key. */
int mc_tt_probe(const mc_tt *t, uint64_t key, mc_tt_entry *e);
void mc_tt_store(mc_tt *t, uint64_t key, int score, int depth,
                 mc_tt_bound bound, int move);
/* Permille of the first thousand buckets' entries written this search
   (the protocol's hashfull). */
int mc_tt_hashfull(const mc_tt *t);

#endif
