/*
 * store_account.c - the SQLite store's accounts, sessions and ratings
 * (store.h), through the statements' helpers of store.c (store_int.h);
 * a PostgreSQL store's calls go to store_pg_account.c.
 */
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rating.h"
#include "store_int.h"
#include "store_pg.h"
#include "store_rate.h"

/* ---- accounts and sessions --------------------------------------------- */

/* A session row for account id. */
static int insert_session(mc_store *s, long long id, const mc_store_session *ss)
{
    sqlite3_stmt *st =
        sq_prep(s, "INSERT INTO sessions(digest, account, created,"
                   " expires) VALUES(?,?,?,?)");
    if (st) {
        sq_bind_text(st, 1, ss->digest);
        sqlite3_bind_int64(st, 2, id);
        sqlite3_bind_int64(st, 3, ss->created);
        sqlite3_bind_int64(st, 4, ss->expires);
    }
    return sq_step_done(st);
}

int mc_store_account_add(mc_store *s, const char *name, const char *hash,
                         long long created, const mc_store_session *first,
                         long long *id, mc_error *err)
{
    if (s->pg)
        return mc_pg_account_add(s->pg, name, hash, created, first, id, err);
    if (sq_begin(s, err, "saving a new account") != 0)
        return -1;
    sqlite3_stmt *st = sq_prep(s, "INSERT INTO accounts(name, hash, created)"
                                  " VALUES(?,?,?)");
    int rc = SQLITE_ERROR;
    if (st) {
        sq_bind_text(st, 1, name);
        sq_bind_text(st, 2, hash);
        sqlite3_bind_int64(st, 3, created);
        rc = sqlite3_step(st);
    }
    int taken = rc == SQLITE_CONSTRAINT &&
                sqlite3_extended_errcode(s->db) == SQLITE_CONSTRAINT_UNIQUE;
    sqlite3_finalize(st);
    if (taken) {
        sq_run(s, "ROLLBACK");
        pthread_mutex_unlock(&s->lock);
        return 1;
    }
    int ok = rc == SQLITE_DONE;
    if (ok)
        *id = sqlite3_last_insert_rowid(s->db);
    if (ok && first)
        ok = insert_session(s, *id, first) == 0;
    return sq_finish(s, ok, err, "saving a new account");
}

/* An account's columns (id, name, hash, created) from column i on. */
static void read_account(sqlite3_stmt *st, int i, mc_store_account *a)
{
    const char *name = sq_col_text(st, i + 1), *hash = sq_col_text(st, i + 2);
    a->id = sqlite3_column_int64(st, i);
    snprintf(a->name, sizeof a->name, "%s", name ? name : "");
    snprintf(a->hash, sizeof a->hash, "%s", hash ? hash : "");
    a->created = sqlite3_column_int64(st, i + 3);
}

/* Step a query of at most one row: 0 when its row is there to read, 1
   when there is none, -1 with err filled. */
static int one_row(mc_store *s, sqlite3_stmt *st, mc_error *err,
                   const char *what)
{
    int rc = st ? sqlite3_step(st) : SQLITE_ERROR;
    return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : sq_fail(s, err, what);
}

int mc_store_account_find(mc_store *s, const char *name, mc_store_account *a,
                          mc_error *err)
{
    if (s->pg)
        return mc_pg_account_find(s->pg, name, a, err);
    pthread_mutex_lock(&s->lock);
    sqlite3_stmt *st = sq_prep(s, "SELECT id, name, hash, created FROM accounts"
                                  " WHERE name=?");
    if (st)
        sq_bind_text(st, 1, name);
    int rc = one_row(s, st, err, "reading an account");
    if (rc == 0)
        read_account(st, 0, a);
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->lock);
    return rc;
}

/* Delete account id's sessions but keep (NULL: all): ok, *ended. */
static int end_sessions(mc_store *s, long long id, const char *keep, int *ended)
{
    sqlite3_stmt *st = sq_prep(s, "DELETE FROM sessions WHERE account=? AND"
                                  " (? IS NULL OR digest<>?)");
    if (st) {
        sqlite3_bind_int64(st, 1, id);
        sq_bind_text(st, 2, keep);
        sq_bind_text(st, 3, keep);
    }
    int ok = sq_step_done(st) == 0;
    if (ok && ended)
        *ended = sqlite3_changes(s->db);
    return ok;
}

int mc_store_account_password(mc_store *s, long long id, const char *hash,
                              const char *keep, int *ended, mc_error *err)
{
    if (s->pg)
        return mc_pg_account_password(s->pg, id, hash, keep, ended, err);
    if (sq_begin(s, err, "saving a password") != 0)
        return -1;
    sqlite3_stmt *st = sq_prep(s, "UPDATE accounts SET hash=? WHERE id=?");
    if (st) {
        sq_bind_text(st, 1, hash);
        sqlite3_bind_int64(st, 2, id);
    }
    int ok = sq_step_done(st) == 0, none = ok && sqlite3_changes(s->db) == 0;
    if (ok && !none)
        ok = end_sessions(s, id, keep, ended);
    int rc = sq_finish(s, ok, err, "saving a password");
    return rc == 0 && none ? 1 : rc;
}

int mc_store_account_delete(mc_store *s, long long id, mc_error *err)
{
    if (s->pg)
        return mc_pg_account_delete(s->pg, id, err);
    if (sq_begin(s, err, "deleting an account") != 0)
        return -1;
    int ok = end_sessions(s, id, NULL, NULL), none = 0;
    sqlite3_stmt *st =
        ok ? sq_prep(s, "DELETE FROM accounts WHERE id=?") : NULL;
    if (st)
        sqlite3_bind_int64(st, 1, id);
    ok = ok && sq_step_done(st) == 0;
    none = ok && sqlite3_changes(s->db) == 0;
    int rc = sq_finish(s, ok, err, "deleting an account");
    return rc == 0 && none ? 1 : rc;
}

int mc_store_session_add(mc_store *s, long long id, const mc_store_session *ss,
                         int most, long long now, mc_error *err)
{
    if (s->pg)
        return mc_pg_session_add(s->pg, id, ss, most, now, err);
    if (sq_begin(s, err, "saving a session") != 0)
        return -1;
    sqlite3_stmt *st = sq_prep(s, "DELETE FROM sessions WHERE account=? AND"
                                  " expires<=?");
    if (st) {
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int64(st, 2, now);
    }
    int ok = sq_step_done(st) == 0 && insert_session(s, id, ss) == 0;
    /* the account's newest `most` are kept */
    st = ok ? sq_prep(s,
                      "DELETE FROM sessions WHERE account=?1 AND digest NOT IN"
                      " (SELECT digest FROM sessions WHERE account=?1"
                      " ORDER BY created DESC, rowid DESC LIMIT ?2)")
            : NULL;
    if (st) {
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int(st, 2, most);
    }
    ok = ok && sq_step_done(st) == 0;
    return sq_finish(s, ok, err, "saving a session");
}

int mc_store_session_find(mc_store *s, const char *digest, long long now,
                          mc_store_account *a, long long *expires,
                          mc_error *err)
{
    if (s->pg)
        return mc_pg_session_find(s->pg, digest, now, a, expires, err);
    pthread_mutex_lock(&s->lock);
    sqlite3_stmt *st =
        sq_prep(s, "SELECT a.id, a.name, '', a.created, x.expires"
                   " FROM sessions x JOIN accounts a"
                   " ON a.id = x.account"
                   " WHERE x.digest=? AND x.expires>?");
    if (st) {
        sq_bind_text(st, 1, digest);
        sqlite3_bind_int64(st, 2, now);
    }
    int rc = one_row(s, st, err, "reading a session");
    if (rc == 0) {
        read_account(st, 0, a);
        *expires = sqlite3_column_int64(st, 4);
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->lock);
    return rc;
}

int mc_store_session_end(mc_store *s, const char *digest, int all, int *ended,
                         mc_error *err)
{
    if (s->pg)
        return mc_pg_session_end(s->pg, digest, all, ended, err);
    if (sq_begin(s, err, "ending a session") != 0)
        return -1;
    sqlite3_stmt *st =
        sq_prep(s, all ? "DELETE FROM sessions WHERE account IN"
                         " (SELECT account FROM sessions WHERE digest=?)"
                       : "DELETE FROM sessions WHERE digest=?");
    if (st)
        sq_bind_text(st, 1, digest);
    int ok = sq_step_done(st) == 0;
    if (ok && ended)
        *ended = sqlite3_changes(s->db);
    return sq_finish(s, ok, err, "ending a session");
}

int mc_store_sessions_expire(mc_store *s, long long now, mc_error *err)
{
    if (s->pg)
        return mc_pg_sessions_expire(s->pg, now, err);
    if (sq_begin(s, err, "deleting old sessions") != 0)
        return -1;
    sqlite3_stmt *st = sq_prep(s, "DELETE FROM sessions WHERE expires<=?");
    if (st)
        sqlite3_bind_int64(st, 1, now);
    return sq_finish(s, sq_step_done(st) == 0, err, "deleting old sessions");
}

/* ---- ratings ----------------------------------------------------------- */

/* An account's row of ratings for kind, in the transaction or not: 0 with
   *x, *last and the counts (c may be NULL), 1 when there is none (a new
   player's start), -1 on an error. */
static int read_rating(mc_store *s, long long id, const char *kind,
                       mc_rating *x, long long *last, int c[4])
{
    sqlite3_stmt *st = sq_prep(s, "SELECT r, rd, vol, last, games, wins, draws,"
                                  " losses FROM ratings WHERE account=? AND"
                                  " kind=?");
    if (st) {
        sqlite3_bind_int64(st, 1, id);
        sq_bind_text(st, 2, kind);
    }
    int rc = st ? sqlite3_step(st) : SQLITE_ERROR, ret = -1;
    *x = mc_rating_defaults.start;
    *last = 0;
    if (c)
        c[0] = c[1] = c[2] = c[3] = 0;
    if (rc == SQLITE_ROW) {
        x->r = sqlite3_column_double(st, 0);
        x->rd = sqlite3_column_double(st, 1);
        x->vol = sqlite3_column_double(st, 2);
        *last = sqlite3_column_int64(st, 3);
        for (int k = 0; c && k < 4; k++)
            c[k] = sqlite3_column_int(st, 4 + k);
        ret = 0;
    } else if (rc == SQLITE_DONE) {
        ret = 1;
    }
    sqlite3_finalize(st);
    return ret;
}

/* The result row of game id, if kept: 0 with *ch, 1 none, -1 error. */
static int read_result(mc_store *s, const char *id, mc_store_change *ch)
{
    sqlite3_stmt *st =
        sq_prep(s, "SELECT " RESULT_COLS " FROM results r WHERE r.game=?");
    if (st)
        sq_bind_text(st, 1, id);
    int rc = st ? sqlite3_step(st) : SQLITE_ERROR, ret = -1;
    if (rc == SQLITE_ROW)
        ret = sq_read_change(st, 0, ch) ? 0 : -1;
    else if (rc == SQLITE_DONE)
        ret = 1;
    sqlite3_finalize(st);
    return ret;
}

/* Rate the game rg ending at now, written into ratings and results (in
   the transaction): ok. */
static int rate_and_keep(mc_store *s, const char *id, const mc_store_rated *rg,
                         long long now, mc_store_change *ch)
{
    mc_rating x[2], after[2];
    long long last[2];
    int counts[2][4];
    for (int side = 0; side < 2; side++)
        if (read_rating(s, rg->account[side], rg->kind, &x[side], &last[side],
                        counts[side]) < 0)
            return 0;
    if (mc_store_rate(rg, x, last, now, counts, after, ch) != 0)
        return 0;
    for (int side = 0; !rg->aborted && side < 2; side++) {
        const int *c = counts[side];
        sqlite3_stmt *st = sq_prep(
            s, "INSERT OR REPLACE INTO ratings(account, kind, r, rd, vol,"
               " last, games, wins, draws, losses)"
               " VALUES(?,?,?,?,?,?,?,?,?,?)");
        if (st) {
            sqlite3_bind_int64(st, 1, rg->account[side]);
            sq_bind_text(st, 2, rg->kind);
            sqlite3_bind_double(st, 3, after[side].r);
            sqlite3_bind_double(st, 4, after[side].rd);
            sqlite3_bind_double(st, 5, after[side].vol);
            sqlite3_bind_int64(st, 6, now);
            for (int k = 0; k < 4; k++)
                sqlite3_bind_int(st, 7 + k, c[k]);
        }
        if (sq_step_done(st) != 0)
            return 0;
    }
    sqlite3_stmt *st = sq_prep(
        s, "INSERT INTO results(game, kind, ended, south, north, aborted,"
           " score, s_before, s_rd_before, s_after, s_rd_after, n_before,"
           " n_rd_before, n_after, n_rd_after)"
           " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    if (st) {
        sq_bind_text(st, 1, id);
        sq_bind_text(st, 2, rg->kind);
        sqlite3_bind_int64(st, 3, now);
        sqlite3_bind_int64(st, 4, rg->account[0]);
        sqlite3_bind_int64(st, 5, rg->account[1]);
        sqlite3_bind_int(st, 6, rg->aborted != 0);
        if (rg->aborted) {
            for (int k = 7; k <= 15; k++)
                sqlite3_bind_null(st, k);
        } else {
            sqlite3_bind_double(st, 7, rg->score);
            for (int side = 0; side < 2; side++) {
                sqlite3_bind_double(st, 8 + 4 * side, ch->before[side]);
                sqlite3_bind_double(st, 9 + 4 * side, ch->rd_before[side]);
                sqlite3_bind_double(st, 10 + 4 * side, ch->after[side]);
                sqlite3_bind_double(st, 11 + 4 * side, ch->rd_after[side]);
            }
        }
    }
    return sq_step_done(st) == 0;
}

int mc_store_update_rated(mc_store *s, const char *id, const char *record,
                          long long version, long long touched,
                          const mc_store_clock *clock, const mc_store_rated *rg,
                          mc_store_change *ch, mc_error *err)
{
    if (s->pg)
        return mc_pg_update_rated(s->pg, id, record, version, touched, clock,
                                  rg, ch, err);
    const char *what = "saving a rated game's end";
    if (sq_begin(s, err, what) != 0)
        return -1;
    int rc = sq_update_game(s, id, record, version, 1, touched, clock, NULL);
    if (rc == 0)
        return sq_changed(s, err);
    int ok = rc == 1;
    sqlite3_stmt *st;
    int kept = ok ? read_result(s, id, ch) : -1;
    if (ok && kept == 1) {
        /* two accounts, both still there; else nothing to rate (an
           account deleted during the game): kept as aborted */
        mc_store_rated r = *rg;
        r.aborted |= !(r.account[0] > 0 && r.account[1] > 0 &&
                       r.account[0] != r.account[1]);
        st = sq_prep(s, "SELECT count(*) FROM accounts WHERE id IN (?, ?)");
        if (st) {
            sqlite3_bind_int64(st, 1, r.account[0]);
            sqlite3_bind_int64(st, 2, r.account[1]);
        }
        ok = st && sqlite3_step(st) == SQLITE_ROW;
        r.aborted |= ok && sqlite3_column_int(st, 0) != 2;
        sqlite3_finalize(st);
        ok = ok && rate_and_keep(s, id, &r, touched, ch);
    }
    return sq_finish(s, ok && kept >= 0, err, what);
}

int mc_store_standing_of(mc_store *s, long long id, const char *kind,
                         long long now, mc_store_standing *st, mc_error *err)
{
    if (s->pg)
        return mc_pg_standing_of(s->pg, id, kind, now, st, err);
    pthread_mutex_lock(&s->lock);
    mc_rating x;
    long long last;
    int c[4];
    int rc = read_rating(s, id, kind, &x, &last, c);
    if (rc >= 0) {
        snprintf(st->kind, sizeof st->kind, "%s", kind);
        mc_store_standing_fill(st, x, last, c, now);
    } else {
        sq_fail(s, err, "reading a rating");
    }
    pthread_mutex_unlock(&s->lock);
    return rc < 0 ? -1 : 0;
}

int mc_store_player(mc_store *s, const char *name, long long now,
                    mc_store_account *acc, mc_store_standing *st, int nst,
                    int *got_st, mc_store_past *past, int npast, int *got_past,
                    mc_error *err)
{
    if (s->pg)
        return mc_pg_player(s->pg, name, now, acc, st, nst, got_st, past, npast,
                            got_past, err);
    *got_st = *got_past = 0;
    pthread_mutex_lock(&s->lock);
    sqlite3_stmt *q = sq_prep(s, "SELECT id, name, '', created FROM accounts"
                                 " WHERE name=?");
    if (q)
        sq_bind_text(q, 1, name);
    int rc = one_row(s, q, err, "reading an account");
    if (rc == 0)
        read_account(q, 0, acc);
    sqlite3_finalize(q);
    if (rc != 0) {
        pthread_mutex_unlock(&s->lock);
        return rc;
    }
    q = sq_prep(s, "SELECT kind, r, rd, vol, last, games, wins, draws, losses"
                   " FROM ratings WHERE account=? ORDER BY kind");
    if (q)
        sqlite3_bind_int64(q, 1, acc->id);
    int step = q ? sqlite3_step(q) : SQLITE_ERROR;
    for (; step == SQLITE_ROW; step = sqlite3_step(q)) {
        if (*got_st >= nst)
            continue;
        mc_store_standing *x = &st[(*got_st)++];
        const char *k = sq_col_text(q, 0);
        snprintf(x->kind, sizeof x->kind, "%s", k ? k : "");
        mc_rating y = {sqlite3_column_double(q, 1), sqlite3_column_double(q, 2),
                       sqlite3_column_double(q, 3)};
        int c[4];
        for (int i = 0; i < 4; i++)
            c[i] = sqlite3_column_int(q, 5 + i);
        mc_store_standing_fill(x, y, sqlite3_column_int64(q, 4), c, now);
    }
    sqlite3_finalize(q);
    int ok = step == SQLITE_DONE;
    /* the last results, from the account's side */
    q = ok ? sq_prep(s,
                     "SELECT r.game, r.kind, r.ended, r.south = ?1,"
                     " o.name, r.aborted, r.score, r.s_before, r.s_after,"
                     " r.n_before, r.n_after"
                     " FROM results r LEFT JOIN accounts o ON o.id ="
                     " (CASE WHEN r.south = ?1 THEN r.north ELSE r.south END)"
                     " WHERE r.south = ?1 OR r.north = ?1"
                     " ORDER BY r.ended DESC, r.rowid DESC LIMIT ?2")
           : NULL;
    if (q) {
        sqlite3_bind_int64(q, 1, acc->id);
        sqlite3_bind_int(q, 2, npast);
    }
    step = q ? sqlite3_step(q) : SQLITE_ERROR;
    for (; ok && step == SQLITE_ROW && *got_past < npast;
         step = sqlite3_step(q)) {
        mc_store_past *x = &past[(*got_past)++];
        memset(x, 0, sizeof *x);
        const char *g = sq_col_text(q, 0), *k = sq_col_text(q, 1),
                   *o = sq_col_text(q, 4);
        snprintf(x->game, sizeof x->game, "%s", g ? g : "");
        snprintf(x->kind, sizeof x->kind, "%s", k ? k : "");
        x->ended = sqlite3_column_int64(q, 2);
        x->side = sqlite3_column_int(q, 3) ? 0 : 1;
        snprintf(x->opponent, sizeof x->opponent, "%s", o ? o : "");
        x->aborted = sqlite3_column_int(q, 5);
        if (!x->aborted) {
            double sc = sqlite3_column_double(q, 6);
            x->score = x->side ? 1 - sc : sc;
            double b = sqlite3_column_double(q, 7 + 2 * x->side),
                   a = sqlite3_column_double(q, 8 + 2 * x->side);
            x->shown_after = mc_rating_shown(a);
            x->change = x->shown_after - mc_rating_shown(b);
        }
    }
    ok = ok && (step == SQLITE_DONE || step == SQLITE_ROW);
    sqlite3_finalize(q);
    if (!ok)
        sq_fail(s, err, "reading a player");
    pthread_mutex_unlock(&s->lock);
    return ok ? 0 : -1;
}

int mc_store_bot(mc_store *s, int level, mc_store_account *acc, mc_error *err)
{
    if (s->pg)
        return mc_pg_bot(s->pg, level, acc, err);
    char name[MC_STORE_NAME_MAX + 1];
    snprintf(name, sizeof name, "bot-level-%d", level);
    if (sq_begin(s, err, "saving a house bot") != 0)
        return -1;
    sqlite3_stmt *st = sq_prep(s, "INSERT OR IGNORE INTO accounts(name, hash,"
                                  " created, bot) VALUES(?, '-', ?, ?)");
    if (st) {
        sq_bind_text(st, 1, name);
        sqlite3_bind_int64(st, 2, (long long)time(NULL));
        sqlite3_bind_int(st, 3, level);
    }
    int ok = sq_step_done(st) == 0;
    st = ok ? sq_prep(s, "SELECT id, name, '', created FROM accounts WHERE"
                         " name=? AND bot=?")
            : NULL;
    if (st) {
        sq_bind_text(st, 1, name);
        sqlite3_bind_int(st, 2, level);
    }
    /* a person's account of that name (made before bots were): no bot */
    ok = ok && st && sqlite3_step(st) == SQLITE_ROW;
    if (ok)
        read_account(st, 0, acc);
    sqlite3_finalize(st);
    return sq_finish(s, ok, err, "saving a house bot");
}
