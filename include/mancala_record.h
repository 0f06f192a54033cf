/*
 * mancala_record.h - game records: a PGN-like text format (docs/RECORDS.md,
 * mancala-record(5)) read with every move checked against the rules, and
 * written atomically.
 *
 * A record is one game: its game and options, a session holding the moves
 * (play them with mc_session_play_str on mc_record_session), free tags
 * (Event, Date, South, North, TimeControl, Round, ...) and comments.  The
 * tags that follow from the moves (Game, Start, Result, Termination, Detail,
 * Glory, Match) are written from the session and checked on reading; they
 * cannot be set by hand.  Several records make a file; consecutive records
 * with Round tags 1, 2, ... are the games of one match.
 */
#ifndef MANCALA_RECORD_H
#define MANCALA_RECORD_H

#include "mancala.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mc_record mc_record;

/* Where a reading error is: 1-based line and column (bytes); 0 if none. */
typedef struct mc_record_loc {
    int line, col;
} mc_record_loc;

/* A new record of a game created from spec, starting at start (NULL: the
   standard start).  NULL on error (bad spec or position), with err filled. */
MC_API mc_record *mc_record_new(const char *spec, const mc_pos *start,
                                mc_error *err);
MC_API void mc_record_free(mc_record *r);
MC_API const mc_game *mc_record_game(const mc_record *r);
/* The session of the game: play, undo and forfeit through it. */
MC_API mc_session *mc_record_session(mc_record *r);

/* Set a free tag (NULL value removes it).  Names are letters, digits and
   '_' (at most 64); values at most 1024 bytes of printable text, no line
   breaks.  The derived tags are refused. */
MC_API int mc_record_set_tag(mc_record *r, const char *name, const char *value,
                             mc_error *err);
/* The value of a tag, derived tags included; NULL if absent. */
MC_API const char *mc_record_tag(const mc_record *r, const char *name);
/* Free tags in writing order: name and value of the i-th; 0 if none. */
MC_API int mc_record_tag_at(const mc_record *r, int i, const char **name,
                            const char **value);

/* The comment after ply `ply` (0: before the first move); NULL removes.
   Comments cannot contain '}' (it ends a comment) or NUL. */
MC_API int mc_record_set_comment(mc_record *r, int ply, const char *text,
                                 mc_error *err);
MC_API const char *mc_record_comment(const mc_record *r, int ply);

/* Read every game of a text.  On success returns 0 with *out a new array
   of *n records (free with mc_records_free).  On error returns the error
   code with err->msg beginning "line L, column C: " and loc filled; *out is
   NULL. */
MC_API int mc_records_read(const char *text, size_t len, mc_record ***out,
                           int *n, mc_record_loc *loc, mc_error *err);
/* Read the games of a text one by one: each(ctx, r) receives every game
   once it is read and checked (r is the callee's to keep or free) and
   returns 0 to go on; memory is that of one game at a time.  Returns 0 at
   the end of the text, the error code (err and loc filled as above) on a
   bad game, or the first nonzero value each returned. */
MC_API int mc_records_scan(const char *text, size_t len,
                           int (*each)(void *ctx, mc_record *r), void *ctx,
                           mc_record_loc *loc, mc_error *err);
/* mc_records_scan of a file (read whole, at most 1 GB). */
MC_API int mc_records_scan_file(const char *path,
                                int (*each)(void *ctx, mc_record *r), void *ctx,
                                mc_record_loc *loc, mc_error *err);
/* mc_records_read of a file. */
MC_API int mc_records_load(const char *path, mc_record ***out, int *n,
                           mc_record_loc *loc, mc_error *err);
MC_API void mc_records_free(mc_record **recs, int n);

/* The text of n records (malloc'd, NUL-terminated), or NULL (out of
   memory).  *len (if not NULL) receives its length.  Records that break a
   match's rules (a round started by the wrong player) are written without
   a Match tag; reading them back reports the problem. */
MC_API char *mc_records_format(mc_record *const *recs, int n, size_t *len);
/* Write the records to path atomically: a temporary file in the same
   directory, flushed to disk, renamed over path, then the directory
   flushed.  A failure at any step leaves the old file as it was. */
MC_API int mc_records_save(const char *path, mc_record *const *recs, int n,
                           mc_error *err);

#ifdef __cplusplus
}
#endif
#endif
