/*
 * book.h - the opening book inside the library (book.c): the book a
 * player uses, chosen by its `book` option, and the move it takes from it.
 * The public half (reading, looking up, writing books) is in mancala.h.
 */
#ifndef MC_BOOK_H
#define MC_BOOK_H

#include "mancala.h"

/* The text of the book shipped for a game name ("oware"), or NULL:
   data/book/NAME.book, embedded by tools/embed.c. */
const char *mc_book_shipped(const char *name);

/* A player's book: the option it was chosen by, the book, and the random
   source of its choices. */
typedef struct mc_book_use {
    char opt[4096];      /* the option as given ("" for NULL) */
    mc_book *own;        /* a book file's book (owned) */
    const mc_book *book; /* the book in use, or NULL */
    mc_rng rng;          /* the choices among close moves */
    uint64_t seed;       /* the seed rng was seeded with */
    int seeded;
} mc_book_use;

void mc_book_use_init(mc_book_use *u);
void mc_book_use_free(mc_book_use *u);
/* The book for option `want` (as mc_player_opts.book) and game g, read
   only when the option changed, and the random source for `seed` (reseeded
   only when the seed changed).  0, or an error (a book file that cannot
   be read; u is then unchanged). */
int mc_book_use_set(mc_book_use *u, const mc_game *g, const char *want,
                    uint64_t seed, mc_error *err);
/* The random source for `seed` alone (reseeded only when it changed). */
void mc_book_use_seed(mc_book_use *u, uint64_t seed);
/* Whether the player with options o answers a request (infinite: an
   analysis, never answered from the book) from its book;
   if so, *out holds the book's move (legal in the session's position),
   score and line, with out->book set, and 1 is returned.  0: search. */
int mc_book_use_go(mc_book_use *u, const mc_game *g, const mc_session *s,
                   const mc_player_opts *o, int infinite, mc_search_info *out);

#endif
