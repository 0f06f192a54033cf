/*
 * store_pg_account.c - the PostgreSQL store's accounts, sessions and
 * ratings (store_pg.h), through the statements' helpers of store_pg.c
 * (store_pg_int.h); the same contracts as store.c's.
 */
#include "store_pg_int.h"

#ifdef MC_HAVE_LIBPQ

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rating.h"
#include "store_rate.h"

/* ---- accounts and sessions ----------------------------------------------- */

static int insert_session(mc_pg *p, long long id, const mc_store_session *ss)
{
    pg_args a = {0};
    pg_a_text(&a, ss->digest);
    pg_a_int(&a, id);
    pg_a_int(&a, ss->created);
    pg_a_int(&a, ss->expires);
    return pg_cmd(p,
                  "INSERT INTO sessions(digest, account, created, expires)"
                  " VALUES($1,$2,$3,$4)",
                  &a, NULL);
}

int mc_pg_account_add(mc_pg *p, const char *name, const char *hash,
                      long long created, const mc_store_session *first,
                      long long *id, mc_error *err)
{
    const char *what = "saving a new account";
    if (pg_begin(p, err, what) != 0)
        return -1;
    pg_args a = {0};
    pg_a_text(&a, name);
    pg_a_text(&a, hash);
    pg_a_int(&a, created);
    /* a name taken (ignoring case): no row */
    PGresult *r =
        pg_run(p,
               "INSERT INTO accounts(name, hash, created)"
               " VALUES($1,$2,$3) ON CONFLICT (lower(name)) DO NOTHING"
               " RETURNING id",
               &a);
    int ok = r != NULL, taken = r && pg_rows(r) == 0;
    if (ok && !taken)
        *id = pg_v_int(r, 0, 0);
    pg_clear(r);
    if (taken) {
        pg_cmd(p, "ROLLBACK", NULL, NULL);
        pthread_mutex_unlock(&p->lock);
        return 1;
    }
    if (ok && first)
        ok = insert_session(p, *id, first) == 0;
    return pg_finish(p, ok, err, what);
}

/* An account's columns (id, name, hash, created) from col on. */
static void read_account(const PGresult *r, int row, int col,
                         mc_store_account *a)
{
    const char *name = pg_val(r, row, col + 1), *hash = pg_val(r, row, col + 2);
    a->id = pg_v_int(r, row, col);
    snprintf(a->name, sizeof a->name, "%s", name ? name : "");
    snprintf(a->hash, sizeof a->hash, "%s", hash ? hash : "");
    a->created = pg_v_int(r, row, col + 3);
}

/* A query of at most one row: r, or NULL after filling err (*rc: 0 a row,
   1 none, -1 an error). */
static PGresult *one_row(mc_pg *p, const char *sql, const pg_args *a, int *rc,
                         mc_error *err, const char *what)
{
    PGresult *r = pg_run(p, sql, a);
    *rc = !r ? pg_fail(p, err, what) : pg_rows(r) > 0 ? 0 : 1;
    return r;
}

/* The account named name (ignoring case) into *acc, its hash too when
   hash (the lock held): 0, 1 when there is none, -1 with err filled. */
static int find_account(mc_pg *p, const char *name, int hash,
                        mc_store_account *acc, mc_error *err)
{
    pg_args a = {0};
    pg_a_text(&a, name);
    int rc;
    PGresult *r = one_row(p,
                          hash ? "SELECT id, name, hash, created FROM accounts"
                                 " WHERE lower(name)=lower($1)"
                               : "SELECT id, name, '', created FROM accounts"
                                 " WHERE lower(name)=lower($1)",
                          &a, &rc, err, "reading an account");
    if (rc == 0)
        read_account(r, 0, 0, acc);
    pg_clear(r);
    return rc;
}

int mc_pg_account_find(mc_pg *p, const char *name, mc_store_account *acc,
                       mc_error *err)
{
    if (pg_reading(p, err, "reading an account") != 0)
        return -1;
    int rc = find_account(p, name, 1, acc, err);
    pthread_mutex_unlock(&p->lock);
    return rc;
}

/* Account id's sessions but keep's (NULL: all) deleted: ok, *ended. */
static int end_sessions(mc_pg *p, long long id, const char *keep, int *ended)
{
    pg_args a = {0};
    pg_a_int(&a, id);
    pg_a_text(&a, keep);
    long long n = 0;
    int ok = pg_cmd(p,
                    "DELETE FROM sessions WHERE account=$1 AND"
                    " ($2::text IS NULL OR digest<>$2::text)",
                    &a, &n) == 0;
    if (ok && ended)
        *ended = (int)n;
    return ok;
}

int mc_pg_account_password(mc_pg *p, long long id, const char *hash,
                           const char *keep, int *ended, mc_error *err)
{
    const char *what = "saving a password";
    if (pg_begin(p, err, what) != 0)
        return -1;
    pg_args a = {0};
    pg_a_text(&a, hash);
    pg_a_int(&a, id);
    long long n = 0;
    int ok = pg_cmd(p, "UPDATE accounts SET hash=$1 WHERE id=$2", &a, &n) == 0;
    int none = ok && n == 0;
    if (ok && !none)
        ok = end_sessions(p, id, keep, ended);
    int rc = pg_finish(p, ok, err, what);
    return rc == 0 && none ? 1 : rc;
}

int mc_pg_account_delete(mc_pg *p, long long id, mc_error *err)
{
    const char *what = "deleting an account";
    if (pg_begin(p, err, what) != 0)
        return -1;
    pg_args a = {0};
    pg_a_int(&a, id);
    long long n = 0;
    int ok = end_sessions(p, id, NULL, NULL) &&
             pg_cmd(p, "DELETE FROM accounts WHERE id=$1", &a, &n) == 0;
    int rc = pg_finish(p, ok, err, what);
    return rc == 0 && n == 0 ? 1 : rc;
}

int mc_pg_session_add(mc_pg *p, long long id, const mc_store_session *ss,
                      int most, long long now, mc_error *err)
{
    const char *what = "saving a session";
    if (pg_begin(p, err, what) != 0)
        return -1;
    pg_args a = {0};
    pg_a_int(&a, id);
    pg_a_int(&a, now);
    int ok = pg_cmd(p, "DELETE FROM sessions WHERE account=$1 AND expires<=$2",
                    &a, NULL) == 0 &&
             insert_session(p, id, ss) == 0;
    /* the account's newest `most` are kept */
    pg_args b = {0};
    pg_a_int(&b, id);
    pg_a_int(&b, most);
    ok = ok && pg_cmd(p,
                      "DELETE FROM sessions WHERE account=$1 AND digest NOT IN"
                      " (SELECT digest FROM sessions WHERE account=$1"
                      " ORDER BY created DESC, seq DESC LIMIT $2)",
                      &b, NULL) == 0;
    return pg_finish(p, ok, err, what);
}

int mc_pg_session_find(mc_pg *p, const char *digest, long long now,
                       mc_store_account *acc, long long *expires, mc_error *err)
{
    const char *what = "reading a session";
    if (pg_reading(p, err, what) != 0)
        return -1;
    pg_args a = {0};
    pg_a_text(&a, digest);
    pg_a_int(&a, now);
    int rc;
    PGresult *r = one_row(p,
                          "SELECT a.id, a.name, '', a.created, x.expires"
                          " FROM sessions x JOIN accounts a"
                          " ON a.id = x.account"
                          " WHERE x.digest=$1 AND x.expires>$2",
                          &a, &rc, err, what);
    if (rc == 0) {
        read_account(r, 0, 0, acc);
        *expires = pg_v_int(r, 0, 4);
    }
    pg_clear(r);
    pthread_mutex_unlock(&p->lock);
    return rc;
}

int mc_pg_session_end(mc_pg *p, const char *digest, int all, int *ended,
                      mc_error *err)
{
    const char *what = "ending a session";
    if (pg_begin(p, err, what) != 0)
        return -1;
    pg_args a = {0};
    pg_a_text(&a, digest);
    long long n = 0;
    int ok = pg_cmd(p,
                    all ? "DELETE FROM sessions WHERE account IN"
                          " (SELECT account FROM sessions WHERE digest=$1)"
                        : "DELETE FROM sessions WHERE digest=$1",
                    &a, &n) == 0;
    if (ok && ended)
        *ended = (int)n;
    return pg_finish(p, ok, err, what);
}

int mc_pg_sessions_expire(mc_pg *p, long long now, mc_error *err)
{
    const char *what = "deleting old sessions";
    if (pg_begin(p, err, what) != 0)
        return -1;
    pg_args a = {0};
    pg_a_int(&a, now);
    int ok = pg_cmd(p, "DELETE FROM sessions WHERE expires<=$1", &a, NULL) == 0;
    return pg_finish(p, ok, err, what);
}

/* ---- ratings ------------------------------------------------------------- */

/* Account id's rating in kind: 0 with *x, *last and the counts c, 1 when
   there is none (a new player's start values), -1 on an error. */
static int read_rating(mc_pg *p, long long id, const char *kind, mc_rating *x,
                       long long *last, int c[4])
{
    pg_args a = {0};
    pg_a_int(&a, id);
    pg_a_text(&a, kind);
    PGresult *r = pg_run(p,
                         "SELECT r, rd, vol, last, games, wins, draws, losses"
                         " FROM ratings WHERE account=$1 AND kind=$2",
                         &a);
    *x = mc_rating_defaults.start;
    *last = 0;
    c[0] = c[1] = c[2] = c[3] = 0;
    int ret = !r ? -1 : pg_rows(r) == 0 ? 1 : 0;
    if (ret == 0) {
        x->r = pg_v_real(r, 0, 0);
        x->rd = pg_v_real(r, 0, 1);
        x->vol = pg_v_real(r, 0, 2);
        *last = pg_v_int(r, 0, 3);
        for (int k = 0; k < 4; k++)
            c[k] = (int)pg_v_int(r, 0, 4 + k);
    }
    pg_clear(r);
    return ret;
}

/* The kept result of game id: 0 with *ch, 1 none, -1 an error. */
static int read_result(mc_pg *p, const char *id, mc_store_change *ch)
{
    pg_args a = {0};
    pg_a_text(&a, id);
    PGresult *r =
        pg_run(p, "SELECT " RESULT_COLS " FROM results r WHERE r.game=$1", &a);
    int ret = !r                            ? -1
              : pg_rows(r) == 0             ? 1
              : pg_read_change(r, 0, 0, ch) ? 0
                                            : -1;
    pg_clear(r);
    return ret;
}

/* Game rg rated at now (both ratings read, rated, written back) and its
   result kept, in the transaction: ok. */
static int rate_and_keep(mc_pg *p, const char *id, const mc_store_rated *rg,
                         long long now, mc_store_change *ch)
{
    mc_rating x[2], after[2];
    long long last[2];
    int counts[2][4];
    for (int side = 0; side < 2; side++)
        if (read_rating(p, rg->account[side], rg->kind, &x[side], &last[side],
                        counts[side]) < 0)
            return 0;
    if (mc_store_rate(rg, x, last, now, counts, after, ch) != 0)
        return 0;
    for (int side = 0; !rg->aborted && side < 2; side++) {
        const int *c = counts[side];
        pg_args a = {0};
        pg_a_int(&a, rg->account[side]);
        pg_a_text(&a, rg->kind);
        pg_a_real(&a, after[side].r);
        pg_a_real(&a, after[side].rd);
        pg_a_real(&a, after[side].vol);
        pg_a_int(&a, now);
        for (int k = 0; k < 4; k++)
            pg_a_int(&a, c[k]);
        if (pg_cmd(
                p,
                "INSERT INTO ratings(account, kind, r, rd, vol, last, games,"
                " wins, draws, losses) VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)"
                " ON CONFLICT(account, kind) DO UPDATE SET r=EXCLUDED.r,"
                " rd=EXCLUDED.rd, vol=EXCLUDED.vol, last=EXCLUDED.last,"
                " games=EXCLUDED.games, wins=EXCLUDED.wins,"
                " draws=EXCLUDED.draws, losses=EXCLUDED.losses",
                &a, NULL) != 0)
            return 0;
    }
    pg_args a = {0};
    pg_a_text(&a, id);
    pg_a_text(&a, rg->kind);
    pg_a_int(&a, now);
    pg_a_int(&a, rg->account[0]);
    pg_a_int(&a, rg->account[1]);
    pg_a_int(&a, rg->aborted != 0);
    if (rg->aborted) {
        for (int k = 7; k <= 15; k++)
            pg_a_text(&a, NULL);
    } else {
        pg_a_real(&a, rg->score);
        for (int side = 0; side < 2; side++) {
            pg_a_real(&a, ch->before[side]);
            pg_a_real(&a, ch->rd_before[side]);
            pg_a_real(&a, ch->after[side]);
            pg_a_real(&a, ch->rd_after[side]);
        }
    }
    return pg_cmd(
               p,
               "INSERT INTO results(game, kind, ended, south, north, aborted,"
               " score, s_before, s_rd_before, s_after, s_rd_after, n_before,"
               " n_rd_before, n_after, n_rd_after)"
               " VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15)",
               &a, NULL) == 0;
}

int mc_pg_update_rated(mc_pg *p, const char *id, const char *record,
                       long long version, long long touched,
                       const mc_store_clock *clock, const mc_store_rated *rg,
                       mc_store_change *ch, mc_error *err)
{
    const char *what = "saving a rated game's end";
    if (pg_begin(p, err, what) != 0)
        return -1;
    int rc = pg_update_game(p, id, record, version, 1, touched, clock, NULL);
    if (rc == 0)
        return pg_changed(p, err);
    int ok = rc == 1;
    int kept = ok ? read_result(p, id, ch) : -1;
    if (ok && kept == 1) {
        /* two accounts, both still there (else kept as aborted); their
           rows locked, so that two processes rating games of one player
           at once rate them one after the other */
        mc_store_rated x = *rg;
        x.aborted |= !(x.account[0] > 0 && x.account[1] > 0 &&
                       x.account[0] != x.account[1]);
        pg_args a = {0};
        pg_a_int(&a, x.account[0]);
        pg_a_int(&a, x.account[1]);
        PGresult *r = pg_run(p,
                             "SELECT id FROM accounts WHERE id IN ($1, $2)"
                             " ORDER BY id FOR UPDATE",
                             &a);
        ok = r != NULL;
        x.aborted |= ok && pg_rows(r) != 2;
        pg_clear(r);
        ok = ok && rate_and_keep(p, id, &x, touched, ch);
    }
    return pg_finish(p, ok && kept >= 0, err, what);
}

int mc_pg_standing_of(mc_pg *p, long long id, const char *kind, long long now,
                      mc_store_standing *st, mc_error *err)
{
    const char *what = "reading a rating";
    if (pg_reading(p, err, what) != 0)
        return -1;
    mc_rating x;
    long long last;
    int c[4];
    int rc = read_rating(p, id, kind, &x, &last, c);
    if (rc >= 0) {
        snprintf(st->kind, sizeof st->kind, "%s", kind);
        mc_store_standing_fill(st, x, last, c, now);
    } else {
        pg_fail(p, err, what);
    }
    pthread_mutex_unlock(&p->lock);
    return rc < 0 ? -1 : 0;
}

/* The last results of account id, from its side, into past. */
static int read_past(mc_pg *p, long long id, mc_store_past *past, int npast,
                     int *got)
{
    pg_args a = {0};
    pg_a_int(&a, id);
    pg_a_int(&a, npast);
    PGresult *r =
        pg_run(p,
               "SELECT r.game, r.kind, r.ended, r.south = $1,"
               " o.name, r.aborted, r.score, r.s_before, r.s_after,"
               " r.n_before, r.n_after"
               " FROM results r LEFT JOIN accounts o ON o.id ="
               " (CASE WHEN r.south = $1 THEN r.north ELSE r.south END)"
               " WHERE r.south = $1 OR r.north = $1"
               " ORDER BY r.ended DESC, r.seq DESC LIMIT $2",
               &a);
    int rows = r ? pg_rows(r) : 0;
    for (int i = 0; i < rows && *got < npast; i++) {
        mc_store_past *x = &past[(*got)++];
        memset(x, 0, sizeof *x);
        const char *g = pg_val(r, i, 0), *k = pg_val(r, i, 1),
                   *o = pg_val(r, i, 4);
        snprintf(x->game, sizeof x->game, "%s", g ? g : "");
        snprintf(x->kind, sizeof x->kind, "%s", k ? k : "");
        x->ended = pg_v_int(r, i, 2);
        x->side = pg_v_bool(r, i, 3) ? 0 : 1;
        snprintf(x->opponent, sizeof x->opponent, "%s", o ? o : "");
        x->aborted = (int)pg_v_int(r, i, 5);
        if (!x->aborted) {
            double sc = pg_v_real(r, i, 6);
            x->score = x->side ? 1 - sc : sc;
            double b = pg_v_real(r, i, 7 + 2 * x->side),
                   aft = pg_v_real(r, i, 8 + 2 * x->side);
            x->shown_after = mc_rating_shown(aft);
            x->change = x->shown_after - mc_rating_shown(b);
        }
    }
    pg_clear(r);
    return r != NULL;
}

int mc_pg_player(mc_pg *p, const char *name, long long now,
                 mc_store_account *acc, mc_store_standing *st, int nst,
                 int *got_st, mc_store_past *past, int npast, int *got_past,
                 mc_error *err)
{
    const char *what = "reading a player";
    *got_st = *got_past = 0;
    if (pg_reading(p, err, what) != 0)
        return -1;
    int rc = find_account(p, name, 0, acc, err);
    if (rc != 0) {
        pthread_mutex_unlock(&p->lock);
        return rc;
    }
    pg_args b = {0};
    pg_a_int(&b, acc->id);
    PGresult *r =
        pg_run(p,
               "SELECT kind, r, rd, vol, last, games, wins, draws, losses"
               " FROM ratings WHERE account=$1 ORDER BY kind COLLATE \"C\"",
               &b);
    int rows = r ? pg_rows(r) : 0;
    for (int i = 0; i < rows && *got_st < nst; i++) {
        mc_store_standing *x = &st[(*got_st)++];
        const char *k = pg_val(r, i, 0);
        snprintf(x->kind, sizeof x->kind, "%s", k ? k : "");
        mc_rating y = {pg_v_real(r, i, 1), pg_v_real(r, i, 2),
                       pg_v_real(r, i, 3)};
        int c[4];
        for (int j = 0; j < 4; j++)
            c[j] = (int)pg_v_int(r, i, 5 + j);
        mc_store_standing_fill(x, y, pg_v_int(r, i, 4), c, now);
    }
    int ok = r != NULL;
    pg_clear(r);
    ok = ok && read_past(p, acc->id, past, npast, got_past);
    if (!ok)
        pg_fail(p, err, what);
    pthread_mutex_unlock(&p->lock);
    return ok ? 0 : -1;
}

int mc_pg_bot(mc_pg *p, int level, mc_store_account *acc, mc_error *err)
{
    const char *what = "saving a house bot";
    char name[MC_STORE_NAME_MAX + 1];
    snprintf(name, sizeof name, "bot-level-%d", level);
    if (pg_begin(p, err, what) != 0)
        return -1;
    pg_args a = {0};
    pg_a_text(&a, name);
    pg_a_int(&a, (long long)time(NULL));
    pg_a_int(&a, level);
    int ok =
        pg_cmd(p,
               "INSERT INTO accounts(name, hash, created, bot)"
               " VALUES($1, '-', $2, $3) ON CONFLICT (lower(name)) DO NOTHING",
               &a, NULL) == 0;
    pg_args b = {0};
    pg_a_text(&b, name);
    pg_a_int(&b, level);
    PGresult *r = ok ? pg_run(p,
                              "SELECT id, name, '', created FROM accounts"
                              " WHERE lower(name)=lower($1) AND bot=$2",
                              &b)
                     : NULL;
    /* a person's account of that name (made before bots were): no bot */
    ok = r && pg_rows(r) == 1;
    if (ok)
        read_account(r, 0, 0, acc);
    else if (r)
        snprintf(p->msg, sizeof p->msg, "a person's account is named %s", name);
    pg_clear(r);
    return pg_finish(p, ok, err, what);
}

#endif /* MC_HAVE_LIBPQ */
