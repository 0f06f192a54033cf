/*
 * mancala_protocol.h - the engine protocol (docs/PROTOCOL.md,
 * mancala-engine(6)): a line-based command interpreter that other programs
 * drive over standard input and output.  The caller feeds it input lines;
 * it answers through a callback, one line at a time, from the caller's
 * thread or from its search thread (never both at once).
 */
#ifndef MANCALA_PROTOCOL_H
#define MANCALA_PROTOCOL_H

#include <stddef.h>

#include "mancala.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MC_PROTOCOL_VERSION 1
/* The largest transposition table `set hash` takes, MiB. */
#define MC_PROTOCOL_HASH_MAX 4096
/* The largest `set bookvariety`, hundredths of a seed. */
#define MC_PROTOCOL_VARIETY_MAX 10000
/* Longest input line accepted (longer ones get an error line). */
#define MC_PROTOCOL_LINE_MAX 65536

typedef struct mc_engine mc_engine;

/* Receives one answer line, without its line break. */
typedef void (*mc_engine_out)(const char *line, void *ctx);

MC_API mc_engine *mc_engine_new(mc_engine_out out, void *ctx);
/* Stop and wait for any search, then free. */
MC_API void mc_engine_free(mc_engine *e);
/* Handle one input line (len bytes, any content; a trailing CR or LF is
   ignored).  Returns 1 after `quit`, else 0. */
MC_API int mc_engine_line(mc_engine *e, const char *line, size_t len);
/* End of input: an infinite or pondering search is stopped, a bounded one
   may finish within half a second and is then stopped; returns when its
   best move has been written. */
MC_API void mc_engine_finish(mc_engine *e);
/* The default places of the endgame tables gained tables since the engine
   looked (the program's first-use build has finished): an engine whose
   database is `default` opens them before its next search.  Any thread may
   call it, also while a search runs; it writes nothing. */
MC_API void mc_engine_tables_ready(mc_engine *e);

/* Builds without threads (the WebAssembly module for pages): an
   open-ended search (`go infinite`, `go ponder`) goes one iteration deeper
   and writes what it found; returns 1 while it has more to do.  The host
   calls it between input lines until it returns 0 or a line stops the
   search.  A bounded search has answered within mc_engine_line.  With
   threads: does nothing, returns 0. */
MC_API int mc_engine_step(mc_engine *e);

#ifndef MC_API
#define MC_API
#endif
/* An engine that speaks the UCI dialect of the Oware GUIs (Aualé) instead
   (docs/PROTOCOL.md, "UCI"): Oware only, its errors are `info string
   error` lines.  mc_engine_line, mc_engine_finish and mc_engine_free work
   on it as on the other. */
MC_API mc_engine *mc_engine_new_uci(mc_engine_out out, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
