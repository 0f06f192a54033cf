/*
 * store_copy.c - `mancala serve --copy-from` (store_copy.h): a store's
 * rows into another, SQLite or PostgreSQL on either side.  Both are first
 * opened as stores (their tables made or brought to this program's
 * schema), then read and written row by row as text, each value a bound
 * parameter, the destination in one transaction (all of it or nothing).
 * Reals go as 17 significant digits and are bound back as doubles, so
 * ratings and clocks arrive bit for bit.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store.h"
#include "store_copy.h"
#include "store_pg.h"

/* The tables in the order they are written (accounts before what names
   them), each with its columns and their kinds (T text, I integer, R
   real) and its order (the order rows were made in, which sessions and
   results are sorted by). */
static const struct table {
    const char *name, *cols, *kinds, *sqlite_order, *pg_order;
} tables[] = {
    {"accounts", "id, name, hash, created, bot", "ITTII", "id", "id"},
    {"games",
     "id, record, version, over, created, touched, addr, clock_s, clock_n,"
     " clock_since, rated, tb_side, tb_declined",
     "TTIIIITRRRIII", "id", "id"},
    {"seats", "game, side, token, invite, owner, account", "TITTII",
     "game, side", "game, side"},
    {"sessions", "digest, account, created, expires", "TIII", "rowid", "seq"},
    {"ratings", "account, kind, r, rd, vol, last, games, wins, draws, losses",
     "ITRRRIIIII", "account, kind", "account, kind"},
    {"results",
     "game, kind, ended, south, north, aborted, score, s_before, s_rd_before,"
     " s_after, s_rd_after, n_before, n_rd_before, n_after, n_rd_after",
     "TTIIIIRRRRRRRRR", "rowid", "seq"},
};
#define NTABLES (int)(sizeof tables / sizeof *tables)

/* One side of the copy. */
typedef struct side {
    const char *name; /* as shown (no password) */
    char shown[256];
    sqlite3 *db;
    mc_pg *pg;
} side;

static int sq_fail(side *x, mc_error *err, const char *what)
{
    if (err) {
        err->code = MC_ERR_IO;
        snprintf(err->msg, sizeof err->msg, "%s: %s: %s", x->name, what,
                 x->db ? sqlite3_errmsg(x->db) : "cannot open");
    }
    return -1;
}

/* Open one side: a store first (tables made or upgraded), then the rows'
   connection; the source must exist. */
static int open_side(side *x, const char *db, int source, mc_error *err)
{
    x->name = mc_pg_shown(db, x->shown, sizeof x->shown);
    if (mc_pg_is_conninfo(db)) {
        x->pg = mc_pg_open(db, err);
        return x->pg ? 0 : -1;
    }
    if (source && access(db, F_OK) != 0) {
        if (err) {
            err->code = MC_ERR_IO;
            snprintf(err->msg, sizeof err->msg, "%s: no such database",
                     x->name);
        }
        return -1;
    }
    mc_store *s = mc_store_open(db, err);
    if (!s)
        return -1;
    mc_store_close(s);
    if (sqlite3_open_v2(db, &x->db,
                        source ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE,
                        NULL) != SQLITE_OK)
        return sq_fail(x, err, "cannot open");
    sqlite3_busy_timeout(x->db, 5000);
    return 0;
}

static void close_side(side *x)
{
    if (x->db)
        sqlite3_close(x->db);
    mc_pg_close(x->pg);
}

static int sq_exec(side *x, const char *sql, mc_error *err)
{
    return sqlite3_exec(x->db, sql, NULL, NULL, NULL) == SQLITE_OK
               ? 0
               : sq_fail(x, err, "copying");
}

/* A copy under way: where rows go, the statement that puts them there. */
typedef struct copy {
    side *to;
    const struct table *t;
    char sql[640];
    long long rows;
    mc_error *err;
    int failed;
} copy;

/* One row (its values as text) into the destination: 0 to go on. */
static int put_row(void *ctx, const char *const *vals)
{
    copy *c = ctx;
    int n = (int)strlen(c->t->kinds);
    if (c->to->pg) {
        c->failed = mc_pg_raw_exec(c->to->pg, c->sql, n, vals, c->err) != 0;
    } else {
        sqlite3_stmt *st = NULL;
        int ok =
            sqlite3_prepare_v2(c->to->db, c->sql, -1, &st, NULL) == SQLITE_OK;
        for (int i = 0; ok && i < n; i++) {
            if (!vals[i])
                sqlite3_bind_null(st, i + 1);
            else if (c->t->kinds[i] == 'R')
                sqlite3_bind_double(st, i + 1, strtod(vals[i], NULL));
            else if (c->t->kinds[i] == 'I')
                sqlite3_bind_int64(st, i + 1, strtoll(vals[i], NULL, 10));
            else
                sqlite3_bind_text(st, i + 1, vals[i], -1, SQLITE_STATIC);
        }
        ok = ok && sqlite3_step(st) == SQLITE_DONE;
        sqlite3_finalize(st);
        c->failed = !ok && sq_fail(c->to, c->err, "copying");
    }
    c->rows += !c->failed;
    return c->failed;
}

/* Every row of sql on the source x (a SQLite one: its reals as 17
   digits) to row(c, vals): 0, or -1 with err. */
static int each_row(side *x, const char *sql, copy *c)
{
    if (x->pg)
        return mc_pg_raw_rows(x->pg, sql, put_row, c, c->err) != 0 || c->failed
                   ? -1
                   : 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(x->db, sql, -1, &st, NULL) != SQLITE_OK)
        return sq_fail(x, c->err, "copying");
    int n = (int)strlen(c->t->kinds), rc = SQLITE_DONE;
    char num[16][32];
    const char *vals[16];
    while (!c->failed && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int i = 0; i < n && i < 16; i++) {
            int type = sqlite3_column_type(st, i);
            if (type == SQLITE_NULL) {
                vals[i] = NULL;
            } else if (type == SQLITE_FLOAT) {
                snprintf(num[i], sizeof num[i], "%.17g",
                         sqlite3_column_double(st, i));
                vals[i] = num[i];
            } else {
                vals[i] = (const char *)sqlite3_column_text(st, i);
            }
        }
        put_row(c, vals);
    }
    sqlite3_finalize(st);
    if (c->failed)
        return -1;
    return rc == SQLITE_DONE ? 0 : sq_fail(x, c->err, "copying");
}

/* A number of one row (the first column) of sql on side x: *v (0 for
   NULL or no row).  0, or -1. */
static int one_number(void *ctx, const char *const *vals)
{
    long long *v = ctx;
    *v = vals[0] ? strtoll(vals[0], NULL, 10) : 0;
    return 1;
}

static int number(side *x, const char *sql, long long *v, mc_error *err)
{
    *v = 0;
    if (x->pg)
        return mc_pg_raw_rows(x->pg, sql, one_number, v, err);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(x->db, sql, -1, &st, NULL) == SQLITE_OK
                 ? sqlite3_step(st)
                 : SQLITE_ERROR;
    if (rc == SQLITE_ROW)
        *v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0
                                                 : sq_fail(x, err, "copying");
}

/* The last account id given (deleted ones included): never again. */
static int last_id(side *x, long long *v, mc_error *err)
{
    long long seq = 0;
    if (number(x, "SELECT max(id) FROM accounts", v, err) != 0)
        return -1;
    if (x->pg) {
        if (number(x,
                   "SELECT pg_sequence_last_value("
                   "pg_get_serial_sequence('accounts', 'id')::regclass)",
                   &seq, err) != 0)
            return -1;
    } else if (number(x,
                      "SELECT seq FROM sqlite_sequence WHERE "
                      "name='accounts'",
                      &seq, err) != 0) {
        return -1;
    }
    if (seq > *v)
        *v = seq;
    return 0;
}

/* The destination's next account id after last. */
static int set_last_id(side *x, long long last, mc_error *err)
{
    char num[32];
    snprintf(num, sizeof num, "%lld", last);
    const char *vals[] = {num};
    if (last <= 0)
        return 0;
    if (x->pg)
        return mc_pg_raw_exec(x->pg,
                              "SELECT setval(pg_get_serial_sequence("
                              "'accounts', 'id'), $1::bigint)",
                              1, vals, err);
    /* the rows copied set it to their largest id already */
    sqlite3_stmt *st = NULL;
    int ok = sqlite3_prepare_v2(x->db,
                                "UPDATE sqlite_sequence SET seq=max(seq, ?) "
                                "WHERE name='accounts'",
                                -1, &st, NULL) == SQLITE_OK;
    if (ok)
        sqlite3_bind_int64(st, 1, last);
    ok = ok && sqlite3_step(st) == SQLITE_DONE;
    sqlite3_finalize(st);
    if (ok && sqlite3_changes(x->db) == 0) {
        ok = sqlite3_prepare_v2(x->db,
                                "INSERT INTO sqlite_sequence(name, seq) "
                                "VALUES('accounts', ?)",
                                -1, &st, NULL) == SQLITE_OK;
        if (ok)
            sqlite3_bind_int64(st, 1, last);
        ok = ok && sqlite3_step(st) == SQLITE_DONE;
        sqlite3_finalize(st);
    }
    return ok ? 0 : sq_fail(x, err, "copying");
}

int mc_store_copy(const char *from, const char *to, FILE *report, mc_error *err)
{
    side src = {0}, dst = {0};
    int ok =
        open_side(&src, from, 1, err) == 0 && open_side(&dst, to, 0, err) == 0;
    int src_open = 0, dst_open = 0;
    /* one snapshot of the source; the destination in one transaction */
    if (ok)
        ok = (src.pg ? mc_pg_raw_begin(src.pg, err)
                     : sq_exec(&src, "BEGIN", err)) == 0;
    src_open = ok;
    if (ok)
        ok = (dst.pg ? mc_pg_raw_begin(dst.pg, err)
                     : sq_exec(&dst, "BEGIN IMMEDIATE", err)) == 0;
    dst_open = ok;
    long long there = 0, last = 0, counts[NTABLES] = {0};
    if (ok)
        ok = number(&dst,
                    "SELECT (SELECT count(*) FROM games) + (SELECT count(*) "
                    "FROM accounts) + (SELECT count(*) FROM results)",
                    &there, err) == 0;
    if (ok && there > 0) {
        if (err) {
            err->code = MC_ERR_IO;
            snprintf(err->msg, sizeof err->msg,
                     "%s holds games or accounts already: copy into an "
                     "empty one",
                     dst.name);
        }
        ok = 0;
    }
    for (int k = 0; ok && k < NTABLES; k++) {
        const struct table *t = &tables[k];
        copy c = {&dst, t, "", 0, err, 0};
        int n = (int)strlen(t->kinds), o;
        o = snprintf(c.sql, sizeof c.sql, "INSERT INTO %s(%s)%s VALUES(",
                     t->name, t->cols,
                     dst.pg && k == 0 ? " OVERRIDING SYSTEM VALUE" : "");
        for (int i = 0; i < n; i++)
            o += dst.pg ? snprintf(c.sql + o, sizeof c.sql - (size_t)o, "%s$%d",
                                   i ? "," : "", i + 1)
                        : snprintf(c.sql + o, sizeof c.sql - (size_t)o, "%s?",
                                   i ? "," : "");
        snprintf(c.sql + o, sizeof c.sql - (size_t)o, ")");
        char sel[640];
        snprintf(sel, sizeof sel, "SELECT %s FROM %s ORDER BY %s", t->cols,
                 t->name, src.pg ? t->pg_order : t->sqlite_order);
        ok = each_row(&src, sel, &c) == 0;
        counts[k] = c.rows;
    }
    ok = ok && last_id(&src, &last, err) == 0 &&
         set_last_id(&dst, last, err) == 0;
    if (dst_open) {
        if (dst.pg)
            ok = mc_pg_raw_end(dst.pg, ok, ok ? err : NULL) == 0 && ok;
        else if (!ok || sq_exec(&dst, "COMMIT", err) != 0)
            ok = 0, sqlite3_exec(dst.db, "ROLLBACK", NULL, NULL, NULL);
    }
    if (src_open) {
        if (src.pg)
            mc_pg_raw_end(src.pg, 0, NULL); /* it read only */
        else
            sqlite3_exec(src.db, "ROLLBACK", NULL, NULL, NULL);
    }
    if (ok && report)
        fprintf(report,
                "%lld accounts, %lld games (%lld seats), %lld sessions, "
                "%lld ratings, %lld results copied from %s into %s\n",
                counts[0], counts[1], counts[2], counts[3], counts[4],
                counts[5], src.name, dst.name);
    close_side(&src);
    close_side(&dst);
    return ok ? 0 : -1;
}
