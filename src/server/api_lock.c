/*
 * api_lock.c - the API's locks, taken and released through these so that
 * a function that needs one held can assert it, and so that their order
 * is kept: never the table's lock while this thread holds a game's.  One
 * for the table of games (its buckets, counts, references, the minute's
 * rate slots), one per game (its records and seats).  Nothing here knows
 * what the locks guard: the files above use them.
 */
#include <pthread.h>

#include "api_int.h"

/* The games' locks this thread holds (the order's check). */
static _Thread_local int api_held;

void api_game_lock(game_entry *e)
{
    pthread_mutex_lock(&e->lock);
    e->holder = pthread_self();
    e->held = 1;
    api_held++;
}

/* Does this thread hold e's lock? */
int api_game_locked(const game_entry *e)
{
    return e->held && pthread_equal(e->holder, pthread_self());
}

void api_game_unlock(game_entry *e)
{
    assert(api_game_locked(e) && api_held > 0);
    e->held = 0;
    api_held--;
    pthread_mutex_unlock(&e->lock);
}

void api_table_lock(mc_api *a)
{
    assert(api_held == 0);
    pthread_mutex_lock(&a->table);
    a->table_holder = pthread_self();
    a->table_held = 1;
}

/* Does this thread hold the table's lock? */
int api_table_locked(const mc_api *a)
{
    return a->table_held && pthread_equal(a->table_holder, pthread_self());
}

void api_table_unlock(mc_api *a)
{
    assert(api_table_locked(a));
    a->table_held = 0;
    pthread_mutex_unlock(&a->table);
}
