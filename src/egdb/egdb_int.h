/*
 * egdb_int.h - internals shared by the endgame-database files: move
 * generation in the mover-first frame (forward and backward), the bounds
 * sweep, the file layout.  Not installed; the API is mancala_egdb.h.
 */
#ifndef MC_EGDB_INT_H
#define MC_EGDB_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "mancala_egdb.h"

#define EG_FORMAT_VERSION 1
#define EG_BUILDER_VERSION 1
#define EG_INDEX_SCHEME 1 /* lexicographic, mover-first */
#define EG_ENCODING 1     /* byte: value + 64, bit 7 history_proof */
#define EG_HEADER_SIZE 4096
/* The best exit of a position that has none: below every threshold, and
   0 once biased by 64 as entries are. */
#define EG_NO_EXIT (-64)
/* Layers from this size up are built by the compact sweep. */
#define EG_COMPACT_FROM 13

/* The rules of one preset plus the lower layers' entries (exits). */
typedef struct eg_rules {
    mc_game *g;
    int preset;
    const uint8_t *lower[MC_EGDB_MAX_SEEDS + 1];
    /* The builder's file mappings of the lower layers (may be NULL):
       released from memory once a layer's forward pass has read them. */
    void *map[MC_EGDB_MAX_SEEDS + 1];
    size_t maplen[MC_EGDB_MAX_SEEDS + 1];
    /* The build's knobs and diagnostics (mc_egdb_build's options), or
       NULL: the defaults, nothing logged. */
    const mc_egdb_build_opts *opts;
} eg_rules;

/* A line of the build's diagnostics to o->log, when o asks for that kind
   (EG_LOG_SEARCHES: o->log_searches, EG_LOG_TIMING: o->log_timing). */
enum { EG_LOG_SEARCHES, EG_LOG_TIMING };
void eg_log(const mc_egdb_build_opts *o, int kind, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* One legal move of a mover-first configuration. */
typedef struct eg_move {
    int8_t house;   /* 0..5 */
    int8_t exit;    /* 1: captures (leaves the layer); 0: stays in it */
    int8_t val;     /* exit: c - v_m(child), the mover's difference */
    int8_t all;     /* exit that captures every seed on the board */
    uint64_t child; /* in-layer: rank of the child (its mover first) */
} eg_move;

static inline int eg_val(uint8_t e)
{
    return (int)(e & 0x7f) - 64;
}
static inline uint8_t eg_entry(int v, int hp)
{
    return (uint8_t)((v + 64) | (hp ? 0x80 : 0));
}

int eg_rules_init(eg_rules *r, int preset, mc_error *err);
void eg_rules_free(eg_rules *r);

/* The presets and the rules options (spec.c: the one file here that reads
   a game's options by name; mc_egdb_preset_of, _parse and _name too).
   The rules string stored in an Oware layer's header: every option that
   decides the values, spelled out ("oware:grand_slam=forfeit,
   repetition=first,cycle_split=ownership"). */
void eg_full_spec(const mc_game *g, char *buf, size_t sz);
/* The same for the options keys (NULL-terminated) of any game, "?" for
   a key it does not have: "<name>:k=v,k=v" (the solved games' headers). */
void eg_spell_spec(const mc_game *g, const char *const *keys, char *buf,
                   size_t sz);
/* The spec the builder plays with (seeds=any included). */
const char *eg_preset_spec(int preset);
/* The preset named name in a header ("abapa"), or -1. */
int eg_preset_by_name(const char *name);
/* The name of layer n's files, "oware-<preset>-NN" then ext, inside dir
   ("." when empty), or alone when dir is NULL (file.c): the one place the
   layer files, their journals and the shipped journals are named. */
void eg_layer_file(const char *dir, int preset, int n, const char *ext,
                   char *buf, size_t sz);

/* Legal moves of h (n seeds, mover-first); 0 when the mover has none. */
int eg_expand(const eg_rules *r, int n, const uint8_t h[12], eg_move *out);
/* Terminal value of a configuration with no legal move: own - other. */
int eg_terminal(const uint8_t h[12]);
/* Predecessors inside layer n of configuration x: one rank per (position,
   move) edge, and its board when boards is not NULL.  Returns the count
   (out and boards must hold EG_MAX_PREDS). */
#define EG_MAX_PREDS 320
int eg_unmove(const eg_rules *r, int n, const uint8_t x[12], uint64_t *out,
              uint8_t (*boards)[12]);
/* Swap the two rows (change of mover). */
static inline void eg_swap(const uint8_t *a, uint8_t *b)
{
    for (int i = 0; i < 6; i++) {
        b[i] = a[i + 6];
        b[i + 6] = a[i];
    }
}

/* The bounds of layer n (lower layers in r): P and O, per position, and
   flags: bit 0 history_proof (no cycle reachable, or a move takes all).
   rank_a / rank_l (may be NULL): the sweep rank at which P resp. O was
   decided (0: never decided, the clamped default).  Returns 0, or -1 when
   out of memory. */
typedef struct eg_bounds {
    int8_t *P, *O;
    uint8_t *hp;
    uint32_t *rank_a, *rank_l;
    uint64_t open; /* positions with P < O */
} eg_bounds;
int eg_compute_bounds(const eg_rules *r, int n, int threads, eg_bounds *b,
                      int want_ranks, mc_egdb_progress progress, void *ctx);
void eg_bounds_free(eg_bounds *b);
/* The entries of layer n straight from the sweep, in 3 bytes a position
   (the builder's path for large layers): awari median(P, 0, O), the sweep
   stopping at 1; abapa P where P = O, *open counting the positions where
   the bounds differ (the entries are then not valid).  Returns 0, or -1
   when out of memory. */
int eg_compute_entries(const eg_rules *r, int n, int threads, uint8_t *out,
                       uint64_t *open, mc_egdb_progress progress, void *ctx);

/* The sweeps' bytes (solve.c, dist.c).  Best exit byte: bits 0-6 the
   best exit (or terminal) value + 64, 0 when the position has no exit
   (EG_NO_EXIT); bit 7: some move takes every seed. */
#define EB_ALL 0x80
static inline int eb_best(uint8_t e)
{
    return (int)(e & 0x7f) + EG_NO_EXIT;
}
/* One state byte per position: in-layer moves whose child is not yet in A
   (bits 0-2), all in-layer moves (bits 3-5, for the cycle peel), in A
   (bit 6), in L (bit 7).  Threads share these bytes: a count is changed
   by an atomic decrement and a flag is claimed by an atomic or, so each
   position is decided, pushed and propagated by exactly one thread. */
#define CNT(x) ((x)&7)
#define CNT0(x) (((x) >> 3) & 7)
#define IN_A 0x40
#define IN_L 0x80
#define PEELED 8
/* The thresholds of layer n's compact sweep: abapa n, n-2, ..., -n;
   awari n, n-1, ..., 1 (median(P, 0, O)). */
static inline int eg_thresholds(int preset, int n)
{
    return preset == MC_EGDB_AWARI ? n : n + 1;
}
/* abapa, compact (solve.c, dist.c): the positions among cs/val[0..M) of
   layer n where P = O fails (a position in A only has O = n, so P = O
   needs P = n; one in L only has P = -n; one in neither is open). */
uint64_t eg_count_open(const uint8_t *cs, const uint8_t *val, uint64_t M,
                       int n);
/* The compact sweep's values val[0..M) made entries: awari's undecided
   positions 0, the move-that-takes-all flag of eb. */
void eg_finish_entries(uint8_t *val, const uint8_t *eb, uint64_t M);
/* The positions lo..hi-1 of layer n: best exits into eb[0..hi-lo), counts
   of in-layer moves into cnt (solve.c), on 1..EG_MAX_THREADS threads. */
void eg_forward_range(const eg_rules *r, int n, int threads, uint64_t lo,
                      uint64_t hi, uint8_t *eb, uint8_t *cnt,
                      mc_egdb_progress progress, void *ctx);

/* The builder's work arrays (work.c): in memory (path NULL), or in a
   scratch file at path mapped shared, removed again by eg_array_free.
   0, or -1 (errno says why). */
typedef struct eg_array {
    uint8_t *p;
    uint64_t len;
    int fd; /* -1: in memory */
    char path[4096];
} eg_array;
int eg_array_alloc(eg_array *a, uint64_t len, const char *path);
/* The machine's MemAvailable in bytes, 0 when not known (work.c). */
uint64_t eg_mem_available(void);
/* Check layer n of db (verify.c): compact 0 by the full sweep with its
   ranks (13 bytes a position), 1 by the compact sweep's re-derivation
   (3 bytes) and the Bellman identity of the stored values; r->lower
   holds the layers' entries (a test may give other ones). */
void eg_verify_layer(const mc_egdb *db, eg_rules *r, int n,
                     mc_egdb_verify_report *rep, int compact,
                     mc_egdb_progress progress, void *ctx);
void eg_array_free(eg_array *a);

/* The compact sweep's arrays (N bytes each, the caller's: memory or
   scratch files) and its checkpoints (work.c): ckpt the checkpoint file,
   or NULL for none; head the identity of the layer (preset, layer, lower
   layers' checksums) that a checkpoint must carry to be taken up;
   ckpt_secs the time between checkpoints; stop_after (tests) ends the
   sweep with -2 after that many checkpoints, as if the build were
   killed.  resumed: out, the phase a checkpoint gave (-1: none). */
typedef struct eg_work {
    uint8_t *cs, *eb, *val;
    const char *ckpt, *head;
    double ckpt_secs;
    int stop_after;
    int resumed;
    int saved; /* out: checkpoints written */
} eg_work;
/* Tests only (tests/test_egdb.c): a build stops its large layers after
   this many checkpoints (0: never), as a killed build would. */
extern int eg_test_stop_after;
/* An existing file of len bytes mapped shared into a (removed by
   eg_array_free); 0 or -1. */
int eg_array_open(eg_array *a, uint64_t len, const char *path);
/* len bytes at offset off of the file at path (created when missing);
   0 or -1 (errno). */
int eg_file_put(const char *path, uint64_t off, const uint8_t *p, uint64_t len);
/* The compact sweep of layer n shared by the processes of d (dist.c):
   this rank's part of the entries (eg_dist_range) into wk->val; *open as
   for eg_compute_entries, summed over the ranks.  wk->ckpt (this rank's
   file), head, ckpt_secs and stop_after as for eg_compute_entries_w,
   rank 0's clock deciding for all.  0, -1, or -2 (stop_after). */
int eg_dist_entries(const eg_rules *r, int n, int threads,
                    const mc_egdb_dist *d, eg_work *wk, uint64_t *open,
                    mc_egdb_progress progress, void *ctx);
void eg_dist_range(const mc_egdb_dist *d, int n, uint64_t *lo, uint64_t *hi);
int eg_ckpt_save(const eg_work *wk, uint64_t N, int phase, uint64_t clash);
int eg_ckpt_load(const eg_work *wk, uint64_t N, int *phase, uint64_t *clash);
void eg_ckpt_remove(const eg_work *wk);
/* eg_compute_entries over wk's arrays, taking up and writing checkpoints;
   -2 when stopped by wk->stop_after. */
int eg_compute_entries_w(const eg_rules *r, int n, int threads, eg_work *wk,
                         uint64_t *open, mc_egdb_progress progress, void *ctx);

/* Little-endian fields of the files (file.c, zfile.c). */
static inline void eg_put32(unsigned char *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (unsigned char)(v >> (8 * i));
}
static inline void eg_put64(unsigned char *b, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
}
static inline uint32_t eg_get32(const unsigned char *b)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}
static inline uint64_t eg_get64(const unsigned char *b)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

/* What a table file holds (file.c): the game and preset its header
   names, its index scheme, the houses its boards rank (index.c), and the
   rules string it must carry (NULL for Oware: the preset's). */
typedef struct eg_kind {
    const char *game, *preset;
    uint32_t scheme;
    int houses;
    const char *spec;
    /* Bytes an entry (0: 1), the value byte first; the header's encoding
       (0: EG_ENCODING). */
    int width;
    uint32_t encoding;
    /* 1: a subset of the layer's boards (the solved games' start layers,
       retro.c), any number of entries up to the layer's size */
    int sparse;
} eg_kind;
static inline int eg_kind_width(const eg_kind *k)
{
    return k && k->width > 1 ? k->width : 1;
}
/* Ranking over k houses (index.c): layer sizes C(n+k-1, k-1). */
uint64_t eg_layer_size_k(int k, int n);
uint64_t eg_rank_k(const uint8_t *h, int k);
void eg_unrank_k(int n, uint64_t rank, uint8_t *h, int k);

/* Files (file.c). */
/* A layer of kind k written to path (a temporary name renamed). */
int eg_write_file(const char *path, const eg_kind *k, mc_egdb_info *in,
                  const uint8_t *data, mc_error *err);
/* eg_map_layer for a file of kind k (NULL: an Oware layer). */
int eg_map_file(const char *path, const eg_kind *k, mc_egdb_info *info,
                const uint8_t **data, void **map, size_t *maplen,
                mc_error *err);
int eg_write_layer(const char *dir, mc_egdb_info *in, const uint8_t *data,
                   mc_error *err);
/* Map a layer file and check header, size, payload checksum, histogram
   (not the dependencies). */
int eg_map_layer(const char *path, mc_egdb_info *info, const uint8_t **data,
                 void **map, size_t *maplen, mc_error *err);

/* Threads a build uses at most. */
#define EG_MAX_THREADS 16

/* The values of layer n from its bounds (build.c): abapa F, awari
   median(P, 0, O); the abapa searches on `threads` threads, reporting
   progress as phase "cycles".  *approx set when some abapa value is
   approximated. */
int eg_values(const eg_rules *r, int n, const eg_bounds *b, int threads,
              mc_egdb_progress progress, void *ctx, uint8_t *out, int *approx,
              const char *journal, const char *head, const char *shipped,
              mc_error *err);

/* The search journal of a layer (journal.c): the abapa search's exact
   values, a line each, so that a killed build resumes inside the layer.
   eg_values(journal = path, head = eg_journal_head, shipped =
   eg_shipped_journal or NULL) keeps it. */
typedef struct eg_journal {
    FILE *f;
    pthread_mutex_t mu;
} eg_journal;
/* The journal's first line: what its values depend on. */
void eg_journal_head(const char *spec, int n, const uint64_t *dep_sum,
                     char *buf, size_t sz);
/* Open the journal at path for appending, after reading its values into
   F (done[x] set for each; *loaded counts them) when its first line is
   head and they all fit the bounds; a missing or stale journal is started
   again.  shipped (or NULL): the text of a journal shipped with the
   library, read first, the same way.  0 or an MC_ERR_* with a message. */
int eg_journal_open(eg_journal *j, const char *path, const char *head, int n,
                    const eg_bounds *b, const char *shipped, int8_t *F,
                    uint8_t *done, uint64_t *loaded, mc_error *err);
/* The journal shipped with the library for name ("oware-abapa-08"), from
   data/egdb/<name>.journal (embedded by tools/embed.c), or NULL. */
const char *eg_shipped_journal(const char *name);
/* The journal the library ships for layer n of a preset, or NULL. */
const char *eg_shipped(int preset, int n);
void eg_journal_add(eg_journal *j, uint64_t x, int v);
/* 0, or -1 when some line could not be written. */
int eg_journal_close(eg_journal *j);

/* Tests: the abapa values F of layer n (N bytes), searching the positions
   of pick whatever the size of their component (the others as the builder
   does).  A picked value is exact when the components below it are. */
int eg_fresh_search(const eg_rules *r, int n, const eg_bounds *b,
                    const uint64_t *pick, size_t npick, int8_t *F,
                    mc_error *err);
/* Tests: with eg_games_check set, every node of the history search
   compares the two games it keeps solved with a full solve; the winners
   that differ add to eg_games_mismatch, the nodes to eg_games_checked. */
extern int eg_games_check;
extern _Atomic uint64_t eg_games_checked, eg_games_mismatch;

/* The entries of an open layer (probe.c). */
const uint8_t *eg_layer_data(const mc_egdb *db, int n);

/* Checksum of a byte range (64-bit, word at a time). */
uint64_t eg_checksum(const void *p, size_t len, uint64_t seed);
/* The same over pieces: init with the whole length, add the bytes in any
   pieces, end gives eg_checksum of their concatenation. */
typedef struct eg_sum {
    uint64_t h, h2;
    unsigned char tail[16];
    size_t nt;
} eg_sum;
void eg_sum_init(eg_sum *s, uint64_t len, uint64_t seed);
void eg_sum_add(eg_sum *s, const void *p, size_t len);
uint64_t eg_sum_end(eg_sum *s);
/* Decode and check a layer header (not the payload, not the
   dependencies); what names the file in messages. */
int eg_header_decode(const unsigned char *h, size_t avail, mc_egdb_info *out,
                     const char *what, mc_error *err);

/* Compressed layers (zfile.c, docs/EGDB.md "Compressed layers"): the
   plain header, a block index, zstd frames of `block` entries each. */
#define EG_ZEXT ".egdbz"
typedef struct eg_zlayer {
    const unsigned char *base; /* the file's mapping */
    size_t len;
    uint64_t entries, nblocks;
    uint32_t block;            /* entries a block (the last: the rest) */
    const unsigned char *offs; /* nblocks + 1 offsets into data */
    const unsigned char *data;
    uint64_t id; /* this opening, for the probe caches */
} eg_zlayer;
/* The file of layer n in dir: 1 and the compressed file's name when only
   it is there, 0 and the plain file's name when that is there, -1 (and
   the plain name) when neither is (probe.c). */
int eg_layer_file_any(const char *dir, int preset, int n, char *path,
                      size_t sz);
/* 1 when path names a compressed layer (by its extension). */
int eg_is_zpath(const char *path);
/* Write zpath from the checked plain layer file plain; *zsize its size. */
int eg_zcompress(const char *plain, const char *zpath, uint32_t block,
                 int level, uint64_t *zsize, mc_error *err);
/* Map and check a compressed layer (every block decompressed once). */
int eg_zmap(const char *path, mc_egdb_info *info, eg_zlayer *z, mc_error *err);
void eg_zunmap(eg_zlayer *z);
/* The same, the entries decompressed into *entries (malloc'd). */
int eg_zload(const char *path, mc_egdb_info *info, uint8_t **entries,
             mc_error *err);
/* All entries into out (z->entries bytes); 0 or -1 (damaged). */
int eg_zinflate(const eg_zlayer *z, uint8_t *out);
/* The entry of rank, or -1 (damaged block, out of memory); thread-safe. */
int eg_zentry(const eg_zlayer *z, uint64_t rank);

#endif
