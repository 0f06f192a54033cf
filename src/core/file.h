/*
 * file.h - whole files: read one into memory, replace one atomically (a
 * temporary file beside it, synced, renamed over it, the directory synced),
 * so that a reader or a crash sees the old text or the new, never a part.
 * Used by the game records and the opening books.
 */
#ifndef MC_FILE_H
#define MC_FILE_H

#include <stddef.h>

#include "mancala.h"

/* The bytes of path, NUL-terminated, in *out (the caller frees it) and
   their count in *len; 0, or MC_ERR_IO with a message naming path (no
   such file, larger than max bytes, a read error, out of memory). */
int mc_file_read(const char *path, size_t max, char **out, size_t *len,
                 mc_error *err);

/* Replace path by text[0..len) atomically; 0 or MC_ERR_IO. */
int mc_file_save(const char *path, const char *text, size_t len, mc_error *err);

#endif
