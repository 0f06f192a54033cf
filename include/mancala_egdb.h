/*
 * mancala_egdb.h - Oware endgame databases (the contract: shared EGDB.md,
 * described in docs/EGDB.md): build, open, probe and verify the tables of
 * every position with few seeds on the board.
 *
 * Layer n holds the C(n+11, 11) configurations of n seeds, stored
 * mover-first (the mover's houses are 0..5), ranked lexicographically.
 * An entry is the mover's best future seed difference (-n..n) plus a
 * `history_proof` bit.  Two presets have tables: abapa (the default rules:
 * the exact value of a fresh start) and awari (cycles count as an even
 * split).  Nothing here prints: progress goes through a callback.
 */
#ifndef MANCALA_EGDB_H
#define MANCALA_EGDB_H

#include <stdint.h>

#include "mancala.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { MC_EGDB_ABAPA = 0, MC_EGDB_AWARI = 1 };
/* Deepest layer the format and index support. */
#define MC_EGDB_MAX_SEEDS 48
#define MC_EGDB_NOT_COUNTED UINT64_MAX

/* The preset whose tables serve game g (oware with the abapa or awari rules
   for grand_slam, repetition and cycle_split), or -1 with a message. */
MC_API int mc_egdb_preset_of(const mc_game *g, mc_error *err);
MC_API const char *mc_egdb_preset_name(int preset);
/* "oware" -> abapa, "oware:awari" -> awari, ...; -1 with a message. */
MC_API int mc_egdb_preset_parse(const char *spec, mc_error *err);

/* ---- index: configurations of n seeds in 12 houses -------------------- */

/* C(n+11, 11): the entries of layer n. */
MC_API uint64_t mc_egdb_layer_size(int n);
/* Lexicographic rank of h[0..11] among the configurations of its seeds. */
MC_API uint64_t mc_egdb_rank(const uint8_t h[12]);
/* Inverse of mc_egdb_rank for layer n. */
MC_API void mc_egdb_unrank(int n, uint64_t r, uint8_t h[12]);

/* ---- files ------------------------------------------------------------ */

typedef struct mc_egdb_info {
    uint32_t format_version;
    uint32_t builder_version;
    int preset;
    int n;
    char spec[128]; /* the full rules string the layer obeys */
    uint64_t entries;
    uint64_t hist[128];     /* hist[v + 64]: entries of value v */
    uint64_t history_proof; /* entries with the history_proof bit */
    uint32_t approx_cycles; /* 1: some abapa value is approximated */
    uint32_t ndeps;         /* lower layers it was built from (0..n-1) */
    uint64_t dep_sum[MC_EGDB_MAX_SEEDS];
    uint64_t payload_sum, header_sum;
    uint64_t file_size;
    uint64_t reserved[4]; /* room to grow (zero) */
} mc_egdb_info;

/* The file name of layer n of a preset inside dir (buf of size sz). */
MC_API void mc_egdb_path(const char *dir, int preset, int n, char *buf,
                         size_t sz);
/* The same for its compressed form (".egdbz", docs/EGDB.md "Compressed
   layers"), which opening, probing, building and verifying read where the
   plain file is not there. */
MC_API void mc_egdb_zpath(const char *dir, int preset, int n, char *buf,
                          size_t sz);

/* Compress layer n of dir: block entries a block (0: 1024, a multiple of
   16), zstd level (0: 9); keep_plain 0 removes the plain file once the
   compressed one is written and checked.  A layer found compressed
   already is left as it is.  *zsize (may be NULL): the compressed file's
   bytes. */
typedef struct mc_egdb_compress_opts {
    uint32_t block;
    int level;
    int keep_plain;
} mc_egdb_compress_opts;
MC_API int mc_egdb_compress(const char *dir, int preset, int n,
                            const mc_egdb_compress_opts *o, uint64_t *zsize,
                            mc_error *err);
/* The search journal of layer n inside dir: the exact values the abapa
   history search has found while the layer is being built, which a
   resumed build takes back (docs/EGDB.md); removed once the layer is
   written. */
MC_API void mc_egdb_journal_path(const char *dir, int preset, int n, char *buf,
                                 size_t sz);
/* The values a layer's journal holds (its complete lines after the
   first), or -1 when it has none. */
MC_API long long mc_egdb_journal_values(const char *dir, int preset, int n);
/* The checkpoint of layer n inside dir (a one-process build stopped in
   the layer, docs/EGDB.md "Memory budget and checkpoints"): 1 and the
   thresholds it had finished of how many the layer has, or 0 when there
   is none (or it is not one).  Whether it fits the lower layers is told
   when a build takes it up.  Since 1.1. */
MC_API int mc_egdb_checkpoint_phase(const char *dir, int preset, int n,
                                    int *done, int *total);
/* 1 when the library ships the journal of layer n of a preset (the
   builder takes its values where the lower layers are the ones they were
   found over, unless told no_shipped), else 0. */
MC_API int mc_egdb_shipped(int preset, int n);
/* Read and check one layer file (header, sizes, both checksums); the
   dependency checks need the lower layers: see mc_egdb_open. */
MC_API int mc_egdb_file_info(const char *path, mc_egdb_info *info,
                             mc_error *err);

/* ---- building --------------------------------------------------------- */

/* Progress of a build: layer n, phase name, work done of total (phase
   units), for a progress bar.  Called often; keep it cheap.  Phases:
   "moves" (the forward pass), "sweep" (thresholds), "cycles", "check"
   (verify), "done"; and, since 1.1, "resumed" once when a layer takes up
   a checkpoint (done: the thresholds it had finished, of total). */
typedef void (*mc_egdb_progress)(void *ctx, int n, const char *phase,
                                 uint64_t done, uint64_t total);

/* A build shared by several processes (docs/EGDB.md, "Over MPI"): the
   transport between them, which the caller provides (the program's, over
   MPI, when it is built with Open MPI).  Every process calls
   mc_egdb_build with the same options and its own rank; they share dir.
   Each call below is made by every rank at the same point. */
typedef struct mc_egdb_dist {
    int rank, size; /* this process, and how many there are (1..) */
    void *ctx;
    /* out[k][0..outn[k]) go to rank k (out[rank] is not used); *in gets
       what the others sent to this rank (malloc'd, the caller frees it),
       *inn words.  0, or -1 on failure. */
    int (*exchange)(void *ctx, uint64_t *const *out, const size_t *outn,
                    uint64_t **in, size_t *inn);
    /* v[0..n) summed over the ranks, in place.  0, or -1. */
    int (*sum)(void *ctx, uint64_t *v, int n);
    void *reserved[4]; /* NULL */
} mc_egdb_dist;

typedef struct mc_egdb_build_opts {
    const char *dir;           /* where the layer files go (must exist) */
    int preset;                /* MC_EGDB_ABAPA or MC_EGDB_AWARI */
    int max_seeds;             /* build layers 0..max_seeds */
    int threads;               /* 1 or more (the forward pass is shared) */
    mc_egdb_progress progress; /* may be NULL */
    void *progress_ctx;
    /* Filled on return: the first layer built by this call (layers below it
       were found complete on disk), or max_seeds + 1 if none. */
    int first_built;
    /* Per layer: seconds spent (0 for layers found on disk). */
    double seconds[MC_EGDB_MAX_SEEDS + 1];
    /* Per layer: positions whose bounds differ (P < O);
       MC_EGDB_NOT_COUNTED for awari layers built by the compact sweep,
       which stops at 1 and never sees the bounds below it. */
    uint64_t open_bounds[MC_EGDB_MAX_SEEDS + 1];
    /* The abapa history search (docs/EGDB.md): the nodes one search of a
       position may spend before it is approximated (0: 100,000), and the
       largest strongly connected component searched (0: 30,000; larger
       ones take the approximation unless a journal has their values). */
    uint64_t search_budget;
    uint32_t search_maxcomp;
    /* Nonzero: leave out the journals shipped with the library (values
       the same search found before, mc_egdb_shipped) and search again. */
    int no_shipped;
    /* Nonzero: keep each layer's search journal once the layer is
       written (to ship it), instead of removing it. */
    int keep_journal;
    /* Optional: the builder's diagnostics, one line at a time (without a
       newline): each history search's bounds, result and nodes when
       log_searches is set, each layer's pass times when log_timing is.
       Called from the builder's threads, possibly at once. */
    void (*log)(void *ctx, const char *line);
    void *log_ctx;
    int log_searches, log_timing;
    /* The memory budget of the large layers' work (docs/EGDB.md, "Memory
       budget"), in MiB: the sweep's three bytes a position stay in memory
       as far as it allows, the rest in scratch files of dir mapped shared
       (the same values either way).  0: the memory available (MemAvailable)
       less a margin.  Since 1.1. */
    uint32_t memory_mb;
    /* Seconds between checkpoints inside a large layer (0: 60; negative:
       none): a build stopped in a layer takes up its last checkpoint
       (<layer>.ckpt in dir).  Since 1.1. */
    int checkpoint_secs;
    /* NULL: one process.  Else the build is shared by dist->size
       processes: rank 0 builds the small layers and writes every file,
       the large layers (13 seeds and up) are split between the ranks
       (each rank checkpoints its part).  Since 1.1. */
    const mc_egdb_dist *dist;
    int reserved[4]; /* zero */
} mc_egdb_build_opts;

/* Build every missing layer from 0 to max_seeds, bottom-up, resuming at
   the first layer not complete on disk.  0 or an MC_ERR_* with a message. */
MC_API int mc_egdb_build(mc_egdb_build_opts *o, mc_error *err);

/* ---- opening and probing ---------------------------------------------- */

typedef struct mc_egdb mc_egdb;

/* Open layers 0..max_seeds (-1: as many as are complete and consistent,
   stopping at the first missing one) of a preset from dir: each is mapped,
   its checksums and the dependency checksums are verified. */
MC_API mc_egdb *mc_egdb_open(const char *dir, int preset, int max_seeds,
                             mc_error *err);
MC_API void mc_egdb_close(mc_egdb *db);
/* The deepest layer open (-1 when none). */
MC_API int mc_egdb_max_seeds(const mc_egdb *db);
MC_API int mc_egdb_preset(const mc_egdb *db);
/* The info of an open layer, or NULL. */
MC_API const mc_egdb_info *mc_egdb_layer_info(const mc_egdb *db, int n);
/* Raw entry of a configuration (mover-first houses) of layer n. */
MC_API int mc_egdb_entry(const mc_egdb *db, int n, const uint8_t h[12]);

/* The entry of position p (board seeds only; the stores are ignored):
   1 and *value (the mover's best future seed difference) and
   *history_proof when the layer is open, 0 when it is not. */
MC_API int mc_egdb_probe(const mc_egdb *db, const mc_pos *p, int *value,
                         int *history_proof);

/* What the search may conclude at p (see shared EGDB.md, "How the search
   uses it").  fresh: no position has been played since the last capture
   (p is the root of a game, a position right after a capture, or a root
   whose history since the last capture is empty).  Returns MC_EGDB_EXACT
   with *diff = the final seed difference from the mover's view, stores
   included (cap[mover] - cap[other] + value); MC_EGDB_HISTORY: p is in
   the tables but its value depends on the positions played since the
   last capture (not fresh, entry not history-proof): keep searching, and
   do not store or use path-independent results (transposition entries)
   at p; MC_EGDB_UNKNOWN: p is deeper than the tables.
   An abapa layer with approx_cycles=1 (see mc_egdb_layer_info) holds
   clamp(own split, P, O) where its history search gave up: the lookup
   still answers EXACT there; a caller that wants certainty checks the
   flag. */
enum { MC_EGDB_UNKNOWN = 0, MC_EGDB_EXACT = 1, MC_EGDB_HISTORY = 2 };
MC_API int mc_egdb_lookup(const mc_egdb *db, const mc_pos *p, int fresh,
                          int *diff);

/* The whole of the search's use at one node, in one call.  Call it only
   at a node whose game is not over (mc_status first), with fresh as for
   mc_egdb_lookup (in a mc_line: fresh = (l->wstart[k] == k)).  Returns
   MC_EGDB_EXACT and a search score from the mover's view: 0 for a draw, a
   win within the proven range (>= MC_SCORE_PROVEN, so iterative
   deepening may stop) but below any win the search itself proves (it
   knows the distance; the table does not), a larger margin scoring
   higher: MC_SCORE_PROVEN + 10 + 150 * diff - min(ply, 149); a loss the
   negative.  mc_egdb_score_margin turns it back into the margin.
   MC_EGDB_HISTORY or MC_EGDB_UNKNOWN as for mc_egdb_lookup: search on. */
MC_API int mc_egdb_search_probe(const mc_egdb *db, const mc_pos *p, int fresh,
                                int ply, int *score);

/* The final seed margin a score from mc_egdb_search_probe stands for
   (> 0 a win, < 0 a loss; exact when the probe was fewer than 150 plies
   below the root), or 0 for any other score (a draw, an evaluation, a
   win the search proved itself, in plies). */
MC_API int mc_egdb_score_margin(int score);

/* mc_egdb_search_probe in the shape of mc_search_limits.oracle, with the
   open database (mc_egdb *) as its context. */
MC_API int mc_egdb_oracle(void *db, const mc_pos *p, int fresh, int ply,
                          int *score);

/* ---- verifying -------------------------------------------------------- */

typedef struct mc_egdb_verify_report {
    int n;
    uint64_t entries;
    uint64_t bellman_errors;   /* P, O (and awari v) identities */
    uint64_t wf_errors;        /* decided values without an earlier witness */
    uint64_t value_errors;     /* stored value inconsistent with P and O */
    uint64_t invariant_errors; /* parity, empty mover, cannot feed, header */
    uint64_t open_bounds;      /* positions with P < O */
    /* Since 1.1: 1 when the layer was checked by the compact
       re-derivation (a layer whose full check, 13 bytes a position, does
       not fit in the memory available): its values re-derived by the
       builder's sweep and compared, and the Bellman identity of the
       stored values; no sweep ranks, so wf_errors stays 0, and under
       awari open_bounds is not counted. */
    uint64_t compact;
    uint64_t reserved[1]; /* room to grow (zero) */
} mc_egdb_verify_report;

/* Re-derive the bounds P and O of each open layer of db (lowest first,
   layers lo..hi) and check: Bellman identities, well-foundedness (every
   decided value has a witness decided earlier), the stored value against
   P and O, the invariants and the header's histogram.  A layer too large
   for that in the memory available is checked the compact way (see
   `compact` above).  report[n] is filled per layer; returns the total
   number of errors found. */
MC_API uint64_t mc_egdb_verify(const mc_egdb *db, int lo, int hi,
                               mc_egdb_verify_report *report,
                               mc_egdb_progress progress, void *ctx);

/* ---- where tables live ------------------------------------------------ */

/* The per-user directory of tables: $XDG_DATA_HOME/mancala/egdb, or
   $HOME/.local/share/mancala/egdb when XDG_DATA_HOME is unset, empty or
   relative (the XDG base-directory rules).  0, or -1 when neither is
   known or the name does not fit in buf (n bytes). */
MC_API int mc_egdb_user_dir(char *buf, size_t n);
/* The installed tables: MC_SHAREDIR/egdb, MC_SHAREDIR fixed when the
   library is built (the Makefile's PREFIX/share/mancala; default
   /usr/local/share/mancala). */
MC_API const char *mc_egdb_share_dir(void);
/* Open the tables of a preset (mc_egdb_open with every layer there, every
   checksum verified) from the first of these places that holds layer 0
   of the preset: $MANCALA_EGDB_DIR when set and not empty, the user
   directory, the share directory.  MANCALA_EGDB_DIR=none means no tables
   at all.  Looking costs a stat call per place.  The directory used is
   written into dir (n bytes; dir may be NULL).  NULL with a message when
   no place holds tables (dir is then ""), when they are turned off (""
   too) or when the tables found do not open (dir names them). */
MC_API mc_egdb *mc_egdb_open_default(int preset, char *dir, size_t n,
                                     mc_error *err);
/* Create a directory and its missing parents (mode 0755, less the umask);
   0 when it exists or was created, else an MC_ERR_* with a message (a
   file where a directory should be, no permission, ...). */
MC_API int mc_egdb_ensure_dir(const char *path, mc_error *err);

/* ---- solved games (docs/SOLVED.md) ------------------------------------ */

/* Strong solutions of the games whose every position can be solved by
   retrograde analysis (Goré with trades=off; since 1.2): one value per
   board of the mover's frame, a layer file per number of seeds on the
   board, in the layer format of the Oware tables ("<game>-<name>-NN.egdb",
   the header naming the game, the tables' name and the full rules).  The
   value of a position is the final margin its side to move gets with
   perfect play (its captures so far included), or for a game won by
   survival 1, 0 or -1; endless play counts as the rules' division of
   an endless game (docs/SOLVED.md says how). */
typedef struct mc_solved mc_solved;

typedef struct mc_solved_build_opts {
    const char *dir;           /* where the layer files go (must exist) */
    int max_seeds;             /* layers 0..max_seeds; -1: every one */
    int threads;               /* 1 or more */
    mc_egdb_progress progress; /* may be NULL; phases "moves", "links",
                                  "sweep" */
    void *progress_ctx;
    /* Filled on return: the first layer built (those below were found
       complete on disk), and per layer the seconds spent, the positions
       and the positions of each value (hist[v + 64]). */
    int first_built;
    double seconds[MC_EGDB_MAX_SEEDS + 1];
    /* 1 (since 1.3): above layer max_seeds, the start layers: every
       board with more seeds that play from the game's start reaches
       ("<game>-<name>-start-NN.egdb", up to mc_solved_max_seeds), exact
       like the complete layers below them (phase "reach" first). */
    int from_start;
    int reserved[3]; /* zero */
} mc_solved_build_opts;

/* 0 when g's options can be solved (*name: the tables' name, n bytes),
   else MC_ERR_SPEC with the reason. */
MC_API int mc_solved_name(const mc_game *g, char *name, size_t n,
                          mc_error *err);
/* The layer file of n seeds of g's tables inside dir. */
MC_API void mc_solved_path(const mc_game *g, const char *dir, int n, char *buf,
                           size_t sz);
/* The largest number of seeds on g's board (the last layer). */
MC_API int mc_solved_max_seeds(const mc_game *g);
/* 1 when g's values are win 1, draw 0, loss -1; 0 when they are margins. */
MC_API int mc_solved_wdl(const mc_game *g);
/* The boards of layer n of g's tables (its entries), 0 when none. */
MC_API uint64_t mc_solved_layer_size(const mc_game *g, int n);
/* Build every missing layer of g's tables, bottom-up, resuming at the
   first layer not complete on disk.  0 or an MC_ERR_* with a message. */
MC_API int mc_solved_build(const mc_game *g, mc_solved_build_opts *o,
                           mc_error *err);
/* mc_solved_build with start layers of the boards reachable from the
   nroots positions roots (nroots 0: none) instead of g's start (since
   1.3). */
MC_API int mc_solved_build_from(const mc_game *g, const mc_pos *roots,
                                int nroots, mc_solved_build_opts *o,
                                mc_error *err);
/* Open layers 0..max_seeds (-1: as many as are complete, stopping at the
   first missing one) of g's tables in dir, checking each file's header,
   checksums and the lower layers it was built from, then the start
   layers above them that are there (since 1.3).  NULL with err set when
   none opens or one is damaged. */
MC_API mc_solved *mc_solved_open(const mc_game *g, const char *dir,
                                 int max_seeds, mc_error *err);
MC_API void mc_solved_close(mc_solved *s);
/* mc_solved_open (every layer there) from the first of the default places
   of tables (mc_egdb_open_default's: $MANCALA_EGDB_DIR, the user
   directory, the share directory) that holds layer 0 of g's tables; the
   directory into dir (n bytes, may be NULL).  NULL when none does (dir
   "", err saying so), when MANCALA_EGDB_DIR=none, or when they do not
   open (err says why). */
MC_API mc_solved *mc_solved_open_default(const mc_game *g, char *dir, size_t n,
                                         mc_error *err);
/* mc_solved_best's move as the search would score it, for the search's
   oracle (mc_search_limits.oracle with the open tables as ctx): 1 and
   *score when p is in the tables and fresh (no history behind it that a
   repetition could use), -1 when it is there but not fresh, 0 when not
   there. */
MC_API int mc_solved_oracle(void *s, const mc_pos *p, int fresh, int ply,
                            int *score);
/* The value and plies of p (mc_solved_probe's) in words: "South wins in
   23 plies with perfect play", "North wins 27-21 with perfect play,
   settled in 11 plies" ...  The length written (as snprintf). */
MC_API size_t mc_solved_describe(const mc_game *g, const mc_pos *p, int value,
                                 int plies, char *buf, size_t n);
/* The search score of a solved value with its plies, ply plies below
   the root. */
MC_API int mc_solved_score(const mc_solved *s, int value, int plies, int ply);
/* The layers open: 0..this. */
MC_API int mc_solved_seeds(const mc_solved *s);
/* Of them, the complete layers (every board): 0..this; the others are
   start layers (since 1.3). */
MC_API int mc_solved_full_seeds(const mc_solved *s);
/* Entry x of layer n (below its header's entries): its board (the mover's
   frame) into h, its value and plies (either may be NULL); 0 when there
   is no such entry (since 1.3). */
MC_API int mc_solved_entry(const mc_solved *s, int n, uint64_t x, uint8_t *h,
                           int *value, int *plies);
/* A layer's header. */
MC_API const mc_egdb_info *mc_solved_layer_info(const mc_solved *s, int n);
/* 1 with *value (the final margin for p's side to move, its captures
   included; or 1, 0, -1) and *plies (the plies perfect play takes to
   settle it: until the game ends or nothing on the board is worth
   anything more; 0 for a draw) when p is in the tables; 0 when it is not
   (too many seeds, a position whose value needs more than its board).
   value and plies may be NULL. */
MC_API int mc_solved_probe(const mc_solved *s, const mc_pos *p, int *value,
                           int *plies);
/* The board of layer n that takes perfect play the most plies to settle:
   the plies, and its board (the mover's frame) into h (room for the
   game's pits); -1 when layer n is not open. */
MC_API int mc_solved_longest(const mc_solved *s, int n, uint8_t *h);
/* Board x of layer n of g's tables (the mover's frame) into h. */
MC_API void mc_solved_board(const mc_game *g, int n, uint64_t x, uint8_t *h);
/* The position of board h (the mover's frame) with South to move. */
MC_API void mc_solved_position(const mc_solved *s, const uint8_t *h, mc_pos *p);
/* Every legal move of p into mv (room for MC_MAX_MOVES), its value for
   p's side to move into val (the value p has when the move is best),
   MC_SOLVED_UNKNOWN where the position it leads to is not in the tables,
   and into plies (may be NULL) the plies to settle through it: the count
   of moves, -1 when p itself is not in the tables. */
#define MC_SOLVED_UNKNOWN (-1000)
MC_API int mc_solved_move_values(const mc_solved *s, const mc_pos *p,
                                 mc_move *mv, int *val, int *plies);
/* Perfect play: a move that keeps p's value, the fastest of them when p
   is won, the slowest when lost (so a won game is won, not only held),
   with p's value and plies; 0 when p is not in the tables. */
MC_API int mc_solved_best(const mc_solved *s, const mc_pos *p, mc_move *best,
                          int *value, int *plies);
/* Re-derive each value of layers lo..hi from the game's moves: the
   Bellman identity (the best of the moves' values, against the layers
   below and its own) and the histograms; the number of entries that fail
   (0: consistent).  Whether won positions are won and not merely held is
   the builder's (docs/SOLVED.md says how it is checked). */
MC_API uint64_t mc_solved_verify(const mc_solved *s, int lo, int hi,
                                 int threads, mc_egdb_progress progress,
                                 void *ctx);

#ifdef __cplusplus
}
#endif
#endif
