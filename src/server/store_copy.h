/*
 * store_copy.h - `mancala serve --copy-from`: every row of one store (a
 * SQLite file or a PostgreSQL database, store.h) into another that holds
 * no game and no account yet, in one transaction.  docs/SERVER.md,
 * "PostgreSQL".
 */
#ifndef MC_SERVER_STORE_COPY_H
#define MC_SERVER_STORE_COPY_H

#include <stdio.h>

#include "mancala.h"

/* Copy the store from into the store to (each a SQLite file or a
   PostgreSQL connection string, store_pg.h): the games, seats, accounts
   (their ids kept, and the ids never given again), sessions, ratings and
   results.  from must exist; to is made when missing, and must be empty.
   One line of counts to report (may be NULL).  0, or -1 with err filled
   (nothing of it kept in to). */
int mc_store_copy(const char *from, const char *to, FILE *report,
                  mc_error *err);

#endif
