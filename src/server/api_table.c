/*
 * api_table.c - the table of games: entries found by id (a hash of the
 * random ids), each kept alive by references while requests use it; a
 * game's copy in the store, committed after every change and read back
 * after a failed one; games taken out of the table, expired, and loaded
 * from the store at start.  Locks: the table's for the buckets, counts
 * and references, never taken while a game's is held.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_int.h"

/* ---- the table ---------------------------------------------------------- */

int api_valid_id(const char *s)
{
    if (strlen(s) != ID_LEN)
        return 0;
    for (int i = 0; i < ID_LEN; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return 1;
}

static size_t bucket_of(const mc_api *a, const char *id)
{
    /* ids are random: their first 16 hex digits are a fine hash */
    assert(api_valid_id(id));
    uint64_t h = 0;
    for (int i = 0; i < 16; i++)
        h = h << 4 | (uint64_t)(id[i] <= '9' ? id[i] - '0' : id[i] - 'a' + 10);
    return (size_t)h & (a->nbucket - 1);
}

/* The entry of id in the table (the table lock held), pending ones too. */
game_entry *api_table_find(mc_api *a, const char *id)
{
    assert(api_table_locked(a));
    for (game_entry *e = a->bucket[bucket_of(a, id)]; e; e = e->next)
        if (strcmp(e->id, id) == 0)
            return e;
    return NULL;
}

/* Add e to the table (lock held); -1 when out of memory. */
int api_table_add(mc_api *a, game_entry *e)
{
    assert(api_table_locked(a) && e->refs == 1 && !api_table_find(a, e->id));
    if ((size_t)a->n + 1 > a->nbucket) {
        size_t nb = a->nbucket * 2;
        game_entry **b = calloc(nb, sizeof *b);
        if (!b)
            return -1;
        game_entry **old = a->bucket;
        size_t on = a->nbucket;
        a->bucket = b;
        a->nbucket = nb;
        for (size_t i = 0; i < on; i++)
            for (game_entry *x = old[i], *nx; x; x = nx) {
                nx = x->next;
                size_t k = bucket_of(a, x->id);
                x->next = b[k];
                b[k] = x;
            }
        free(old);
    }
    size_t k = bucket_of(a, e->id);
    e->next = a->bucket[k];
    a->bucket[k] = e;
    a->n++;
    return 0;
}

void api_entry_free(game_entry *e)
{
    if (!e)
        return;
    mc_records_free(e->recs, e->n);
    pthread_mutex_destroy(&e->lock);
    free(e);
}

/* Drop a reference (the table lock held); the last one frees. */
static void unref_locked(mc_api *a, game_entry *e)
{
    assert(api_table_locked(a) && e->refs > 0);
    if (--e->refs == 0)
        api_entry_free(e);
}

void api_release(mc_api *a, game_entry *e)
{
    api_table_lock(a);
    unref_locked(a, e);
    api_table_unlock(a);
}

/* Take e out of the table (it stays alive while requests hold it). */
void api_table_remove(mc_api *a, game_entry *e)
{
    api_table_lock(a);
    game_entry **p = &a->bucket[bucket_of(a, e->id)];
    while (*p && *p != e)
        p = &(*p)->next;
    if (*p) {
        *p = e->next;
        a->n--;
        assert(a->n >= 0);
        unref_locked(a, e);
    }
    api_table_unlock(a);
}

static game_entry *acquire(mc_api *a, const char *id)
{
    api_table_lock(a);
    game_entry *e = api_table_find(a, id);
    if (e && e->pending)
        e = NULL;
    if (e) {
        assert(e->refs > 0); /* the table's at least */
        e->refs++;
    }
    api_table_unlock(a);
    return e;
}

static int load_one(void *ctx, const mc_store_game *g);

/* The game id with a reference taken, or NULL.  A store shared with other
   server processes may hold a game made by another one that this one has
   not heard of yet: it is read from there. */
game_entry *api_acquire(mc_api *a, const char *id)
{
    game_entry *e = acquire(a, id);
    mc_error err;
    if (!e && a->shared && mc_store_one(a->store, id, load_one, a, &err) == 0)
        e = acquire(a, id);
    return e;
}

game_entry *api_entry_new(void)
{
    game_entry *e = calloc(1, sizeof *e);
    if (e) {
        pthread_mutex_init(&e->lock, NULL);
        e->refs = 1; /* the table's */
        e->tb_side = -1;
    }
    return e;
}

/* ---- the store's copy -------------------------------------------------- */

/* The clocks of e as the store keeps them. */
void api_clock_of(const game_entry *e, mc_store_clock *c)
{
    mc_session_clock_state(cur_session(e), c->bank, &c->since);
}

/* The store refused a change of e as behind (MC_STORE_CHANGED: another
   server process changed the game first): 409 changed. */
void api_reply_changed(mc_api_reply *out)
{
    api_reply_error(out, 409, "changed",
                    _("the game was changed meanwhile (through another "
                      "server): look at it again"));
}

/* Commit e as it is now (the game's lock held), its takeback asked for
   with it when keep_tb, else answered by the change (cleared).  On
   failure the memory is ahead of the store: the game is marked stale
   (read again from the store before its next use), the reply is the io
   error (or 409 changed when another server process changed the game
   first) and -1 returned. */
static int commit(mc_api *a, game_entry *e, int keep_tb, mc_api_reply *out)
{
    assert(api_game_locked(e) && !e->gone && !e->stale);
    if (api_costly(a, e, out) != 0) {
        e->stale = 1; /* the memory is ahead: back to the store's */
        return -1;
    }
    if (!keep_tb) {
        e->tb_side = -1; /* a change answers any takeback asked for */
        e->tb_declined = 0;
    }
    assert(e->tb_side >= -1 && e->tb_side <= 1);
    size_t len;
    char *t = mc_records_format(e->recs, e->n, &len);
    mc_error err = {MC_ERR_IO, "out of memory"};
    long long now = now_s();
    mc_store_clock clock;
    api_clock_of(e, &clock);
    mc_store_takeback tb = {e->tb_side, e->tb_declined};
    /* A rated game's end: its ratings in the same transaction */
    int rate = e->rated && !e->ended && api_game_finished(e);
    mc_store_rated rg = {mc_game_name(mc_record_game(e->recs[0])),
                         {e->acct[0], e->acct[1]},
                         0,
                         0};
    if (rate)
        rg.aborted = api_rated_end(e, &rg.score);
    int rc = -1;
    if (t)
        rc = rate ? mc_store_update_rated(a->store, e->id, t,
                                          (long long)e->version, now, &clock,
                                          &rg, &e->change, &err)
                  : mc_store_update(a->store, e->id, t, (long long)e->version,
                                    api_game_finished(e), now, &clock, &tb,
                                    &err);
    free(t);
    if (rc == 0) {
        e->ended |= rate;
        e->touched = now;
        return 0;
    }
    e->stale = 1;
    if (rc == MC_STORE_CHANGED) {
        api_reply_changed(out);
        return -1;
    }
    fprintf(stderr, "mancala serve: game %s: %s\n", e->id, err.msg);
    api_reply_error(out, 503, "io",
                    _("the change was not saved (%s); try again"), err.msg);
    return -1;
}

int api_commit(mc_api *a, game_entry *e, mc_api_reply *out)
{
    return commit(a, e, 0, out);
}

int api_commit_takeback(mc_api *a, game_entry *e, mc_api_reply *out)
{
    return commit(a, e, 1, out);
}

/* e (its lock held; new: not in the table yet) as the store holds g: 0,
   or -1 when its record cannot be read (e unchanged). */
static int fill(game_entry *e, const mc_store_game *g)
{
    mc_record **recs = NULL;
    int n = 0;
    mc_error err = {0, ""};
    if (!api_valid_id(g->id) ||
        api_read_rounds(g->record, NULL, &recs, &n, &err) != 0)
        return -1;
    mc_records_free(e->recs, e->n);
    memcpy(e->id, g->id, sizeof e->id);
    snprintf(e->addr, sizeof e->addr, "%s", g->addr ? g->addr : "");
    e->recs = recs;
    e->n = e->cap = n;
    if (g->clock.known) /* else: the clocks wait for the next move */
        mc_session_clock_restore(cur_session(e), g->clock.bank, g->clock.since);
    e->version = (unsigned long)g->version;
    e->created = g->created;
    e->touched = g->touched;
    e->owner = g->owner;
    e->rated = g->rated;
    e->ended = g->ended;
    e->change = g->change;
    e->tb_side = g->tb.side >= 0 && g->tb.side <= 1 ? g->tb.side : -1;
    e->tb_declined = e->tb_side >= 0 && g->tb.declined;
    for (int s = 0; s < 2; s++) {
        snprintf(e->token[s], sizeof e->token[s], "%s",
                 g->token[s] ? g->token[s] : "");
        snprintf(e->invite[s], sizeof e->invite[s], "%s",
                 g->invite[s] ? g->invite[s] : "");
        /* an account deleted since: its id stays, its name is gone */
        e->acct[s] = g->account[s];
        e->bot[s] = g->bot[s];
        snprintf(e->player[s], sizeof e->player[s], "%.*s", NAME_MAX_LEN,
                 g->account[s] > 0 && g->player[s] ? g->player[s] : "");
    }
    e->stale = 0;
    return 0;
}

static int refill(void *ctx, const mc_store_game *g)
{
    game_entry *e = ctx;
    return fill(e, g) == 0 ? 0 : -1;
}

/* Bring a stale game back to what the store holds (a failed change, or
   one made by another server process); -1 after replying (404 when the
   game is gone from the store: e->gone set). */
int api_reload(mc_api *a, game_entry *e, mc_api_reply *out)
{
    assert(api_game_locked(e) && api_behind(e));
    mc_error err;
    int rc = mc_store_one(a->store, e->id, refill, e, &err);
    if (rc == 1) {
        e->gone = 1;
        api_reply_error(out, 404, "not_found", _("no such game: %s"), e->id);
        return -1;
    }
    if (rc != 0 || e->stale) {
        api_reply_error(out, 503, "io",
                        _("the game cannot be read back from the "
                          "store: try again"));
        return -1;
    }
    return 0;
}

/* ---- expiry, loading --------------------------------------------------- */

/* Every game of the table (pending ones apart), each with a reference
   taken (the caller gives them back with api_release and frees the
   list); *n of them.  NULL when out of memory. */
game_entry **api_table_all(mc_api *a, int *n)
{
    api_table_lock(a);
    game_entry **all = malloc(((size_t)a->n + 1) * sizeof *all);
    int k = 0;
    for (size_t i = 0; all && i < a->nbucket; i++)
        for (game_entry *x = a->bucket[i]; x; x = x->next)
            if (!x->pending) {
                x->refs++;
                all[k++] = x;
            }
    assert(!all || k <= a->n);
    api_table_unlock(a);
    *n = k;
    return all;
}

int mc_api_expire(mc_api *a, long long now)
{
    api_table_lock(a);
    a->last_sweep = now_s();
    api_table_unlock(a);
    mc_store_sessions_expire(a->store, (long long)clock_now(a), NULL);
    int k;
    game_entry **all = api_table_all(a, &k);
    if (!all)
        return 0;
    int removed = 0;
    for (int i = 0; i < k; i++) {
        game_entry *e = all[i];
        api_game_lock(e);
        long long keep = api_behind(e)          ? a->o.keep
                         : api_game_finished(e) ? a->o.keep_over
                                                : a->o.keep;
        mc_error err;
        /* changed by another process since read here: played, not
           idle (that process expires it, or this one once read) */
        int played = atomic_load(&e->heard) > e->version;
        int go = !e->gone && !played && keep >= 0 && e->touched + keep <= now &&
                 mc_store_delete(a->store, e->id, &err) == 0;
        if (go)
            e->gone = 1;
        api_game_unlock(e);
        if (go) {
            api_table_remove(a, e);
            removed++;
        }
        api_release(a, e);
    }
    free(all);
    return removed;
}

/* A game of the store into the table (at start, or made by another
   server process), unless it is there already. */
static int load_one(void *ctx, const mc_store_game *g)
{
    mc_api *a = ctx;
    game_entry *e = api_entry_new();
    if (!e)
        return 1;
    if (fill(e, g) != 0) {
        fprintf(stderr,
                "mancala serve: game %.40s in the store cannot be "
                "read (kept, not served)\n",
                g->id);
        api_entry_free(e);
        return 0;
    }
    api_table_lock(a);
    int known = api_table_find(a, e->id) != NULL;
    int bad = !known && api_table_add(a, e) != 0;
    api_table_unlock(a);
    if (known || bad)
        api_entry_free(e);
    return bad; /* out of memory: stop */
}

/* The games of the store into the table (at start). */
int api_table_load(mc_api *a, mc_error *err)
{
    return mc_store_each(a->store, load_one, a, err);
}

int mc_api_count(mc_api *a)
{
    api_table_lock(a);
    int n = a->n;
    api_table_unlock(a);
    return n;
}

/* ---- the changes of other server processes ------------------------------ */

void api_ev_broadcast(mc_api *a)
{
    pthread_mutex_lock(&a->ev_lock);
    a->ev_gen++;
    pthread_cond_broadcast(&a->ev_cond);
    pthread_mutex_unlock(&a->ev_lock);
}

/* The game id is at version in the store (-1: deleted there): a copy
   behind it learns the version (e->heard; nothing read here and no
   game's lock taken: the listening thread keeps up with any rate of
   changes) and is read again at its next use; its event streams, which
   look at the version, send it at once.  One this process has not heard
   of is read. */
static void heard_one(mc_api *a, const char *id, long long version)
{
    if (!api_valid_id(id))
        return;
    api_table_lock(a);
    game_entry *e = api_table_find(a, id);
    int found = e != NULL;
    /* pending: this process's own new game, not answered yet */
    int pending = e && e->pending;
    if (e && !pending && version >= 0) {
        /* heard = max(heard, version): the game's lock is not needed */
        unsigned long h = atomic_load(&e->heard);
        while ((unsigned long)version > h &&
               !atomic_compare_exchange_weak(&e->heard, &h,
                                             (unsigned long)version))
            ;
        e = NULL;
    } else if (e && !pending) {
        e->refs++;
    }
    api_table_unlock(a);
    if (pending)
        return;
    if (!e) {
        mc_error err;
        if (version >= 0 && !found)
            mc_store_one(a->store, id, load_one, a, &err);
        return;
    }
    api_game_lock(e); /* deleted */
    int gone = !e->gone;
    e->gone = 1;
    api_game_unlock(e);
    if (gone)
        api_table_remove(a, e);
    api_release(a, e);
}

/* The ids and versions of the store's games (the resync's list). */
typedef struct heard_list {
    int n, cap, bad;
    char (*id)[ID_LEN + 1];
    long long *version;
} heard_list;

static int list_one(void *ctx, const char *id, long long version)
{
    heard_list *l = ctx;
    if (!api_valid_id(id))
        return 0;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 256;
        void *ids = realloc(l->id, (size_t)cap * sizeof *l->id);
        if (ids)
            l->id = ids;
        void *v =
            ids ? realloc(l->version, (size_t)cap * sizeof *l->version) : NULL;
        if (v)
            l->version = v;
        if (!ids || !v)
            return l->bad = 1;
        l->cap = cap;
    }
    memcpy(l->id[l->n], id, ID_LEN + 1);
    l->version[l->n++] = version;
    return 0;
}

static int by_id(const void *x, const void *y)
{
    return strcmp(x, y);
}

/* mc_store_one's call when only whether the game is there matters. */
typedef struct one_seen {
    int seen;
} one_seen;

static int seen_one(void *ctx, const mc_store_game *g)
{
    (void)g;
    ((one_seen *)ctx)->seen = 1;
    return 0;
}

/* Every game's version read again (the store's connection was lost and
   made again, or is new: changes may have been missed): the versions
   compared (the games changed elsewhere read again), the games made
   elsewhere read, the ones deleted elsewhere dropped.  0, or -1 when the
   store could not be read (said on the standard error). */
static int heard_all(mc_api *a)
{
    /* the games held before the store is listed: one made after (by this
       process, while the list was read) is not in the list, and stays */
    int n;
    game_entry **all = api_table_all(a, &n);
    heard_list l = {0};
    mc_error err = {MC_ERR_IO, "out of memory"};
    /* listed first, handled after: no game's lock is taken while the
       store's is held */
    int ok =
        all && mc_store_versions(a->store, list_one, &l, &err) == 0 && !l.bad;
    if (!ok)
        fprintf(stderr,
                "mancala serve: the games' versions cannot be read again "
                "(%s): tried again in half a second\n",
                err.msg);
    for (int i = 0; ok && i < l.n; i++)
        heard_one(a, l.id[i], l.version[i]);
    char(*sorted)[ID_LEN + 1] =
        ok ? malloc((size_t)(l.n + 1) * sizeof *sorted) : NULL;
    if (sorted && l.n > 0) { /* (l.id is NULL for none) */
        memcpy(sorted, l.id, (size_t)l.n * sizeof *sorted);
        qsort(sorted, (size_t)l.n, sizeof *sorted, by_id);
    }
    for (int i = 0; all && i < n; i++) {
        game_entry *e = all[i];
        one_seen seen = {0};
        /* not listed: gone, once the store says so for that game alone */
        if (sorted &&
            !bsearch(e->id, sorted, (size_t)l.n, sizeof *sorted, by_id) &&
            mc_store_one(a->store, e->id, seen_one, &seen, &err) == 1)
            heard_one(a, e->id, -1);
        api_release(a, e);
    }
    free(all);
    free(sorted);
    free(l.id);
    free(l.version);
    return ok ? 0 : -1;
}

/* mc_store_listen's call (the store's thread): a change committed by
   some server process; the event streams look again. */
static int heard(void *ctx, const char *id, long long version)
{
    mc_api *a = ctx;
    int rc = 0;
    if (id)
        heard_one(a, id, version);
    else
        rc = heard_all(a);
    api_ev_broadcast(a);
    return rc;
}

/* Listen to the other processes of a shared store; a->shared set when
   there can be any.  0, or -1 with err filled. */
int api_table_listen(mc_api *a, mc_error *err)
{
    int rc = mc_store_listen(a->store, heard, a, err);
    a->shared = rc == 0;
    return rc < 0 ? -1 : 0;
}
