/*
 * store_pg.c - the PostgreSQL store of `mancala serve` (store_pg.h): the
 * tables of store.c's SQLite database in a PostgreSQL one, each change one
 * transaction (BEGIN ... COMMIT, synchronous_commit on) committed before
 * the caller answers; a change that fails is rolled back whole and
 * reported.  Every value reaches the server as a parameter of
 * PQexecParams, never in the text of a statement.  A game's update
 * carries its version and is refused when the database holds that version
 * or a later one (another process wrote it first): no update is lost.
 * libpq is loaded with dlopen the first time a PostgreSQL store is
 * opened; built without libpq-fe.h (Debian: libpq-dev), the store refuses
 * to open and says why.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_pg.h"
#include "store_rate.h"

/* ---- connection strings (whether libpq is there or not) ---------------- */

int mc_pg_is_conninfo(const char *db)
{
    return db &&
           (strncmp(db, "postgresql://", 13) == 0 ||
            strncmp(db, "postgres://", 11) == 0 || strncmp(db, "pg:", 3) == 0);
}

/* The secrets of a connection string, as written in it: where each
   starts and its length (at most 4 kept). */
typedef struct secrets {
    int n;
    const char *at[4];
    size_t len[4];
} secrets;

static void keep_secret(secrets *sec, const char *from, const char *to)
{
    if (sec && sec->n < 4 && to > from) {
        sec->at[sec->n] = from;
        sec->len[sec->n++] = (size_t)(to - from);
    }
}

/* Copy db into buf with the value after each "password" keyword (the
   URI's query or a keyword string) and the URI's user:password@ part
   hidden; sec (may be NULL) says where they were. */
static void hide(const char *db, char *buf, size_t n, secrets *sec)
{
    size_t o = 0;
#define PUT(c)                                                                 \
    do {                                                                       \
        if (o + 1 < n)                                                         \
            buf[o++] = (c);                                                    \
    } while (0)
    const char *p = db;
    int uri = strncmp(db, "pg:", 3) != 0;
    if (uri) {
        const char *rest = strstr(db, "://") + 3;
        /* userinfo: up to the last '@' before the path or query */
        size_t hostpart = strcspn(rest, "/?");
        const char *at = NULL;
        for (const char *q = rest; q < rest + hostpart; q++)
            if (*q == '@')
                at = q;
        const char *colon = at ? memchr(rest, ':', (size_t)(at - rest)) : NULL;
        for (; p < (colon ? colon : rest); p++)
            PUT(*p);
        if (colon) {
            for (const char *s = ":***"; *s; s++)
                PUT(*s);
            keep_secret(sec, colon + 1, at);
            p = at;
        }
    }
    while (*p) {
        /* a "password" keyword, at the start of a key */
        int key_start =
            p == db || (uri ? (p[-1] == '?' || p[-1] == '&')
                            : (isspace((unsigned char)p[-1]) || p == db + 3));
        if (key_start && strncmp(p, "password", 8) == 0) {
            const char *q = p + 8;
            while (!uri && isspace((unsigned char)*q))
                q++;
            if (*q == '=') {
                for (const char *s = "password=***"; *s; s++)
                    PUT(*s);
                q++;
                const char *from = q;
                if (uri) {
                    while (*q && *q != '&')
                        q++;
                } else {
                    while (isspace((unsigned char)*q))
                        q++;
                    if (*q == '\'') {
                        for (q++; *q && *q != '\''; q++)
                            if (*q == '\\' && q[1])
                                q++;
                        if (*q)
                            q++;
                    } else {
                        while (*q && !isspace((unsigned char)*q))
                            q++;
                    }
                }
                keep_secret(sec, from, q);
                p = q;
                continue;
            }
        }
        PUT(*p);
        p++;
    }
#undef PUT
    buf[o] = 0;
}

const char *mc_pg_shown(const char *db, char *buf, size_t n)
{
    if (!n)
        return "";
    if (!mc_pg_is_conninfo(db))
        snprintf(buf, n, "%s", db ? db : "");
    else
        hide(db, buf, n, NULL);
    return buf;
}

#if defined(__has_include)
#if __has_include(<libpq-fe.h>)
#define MC_HAVE_LIBPQ 1
#endif
#endif

#ifndef MC_HAVE_LIBPQ

/* ---- built without libpq-fe.h: PostgreSQL refused ----------------------- */

struct mc_pg {
    int unused;
};

mc_pg *mc_pg_open(const char *conninfo, mc_error *err)
{
    (void)conninfo;
    if (err) {
        err->code = MC_ERR_IO;
        snprintf(err->msg, sizeof err->msg,
                 "this mancala was built without PostgreSQL (libpq-fe.h, "
                 "Debian's libpq-dev, was missing): rebuild it with "
                 "libpq-dev installed, or use a SQLite file");
    }
    return NULL;
}

void mc_pg_close(mc_pg *p)
{
    free(p);
}

/* Never called: no store of this build is a PostgreSQL one. */
static int none(mc_error *err)
{
    if (err) {
        err->code = MC_ERR_IO;
        snprintf(err->msg, sizeof err->msg, "no PostgreSQL in this build");
    }
    return -1;
}

int mc_pg_insert(mc_pg *p, const mc_store_game *g, mc_error *err)
{
    (void)p, (void)g;
    return none(err);
}

int mc_pg_update(mc_pg *p, const char *id, const char *record,
                 long long version, int over, long long touched,
                 const mc_store_clock *clock, mc_error *err)
{
    (void)p, (void)id, (void)record, (void)version, (void)over, (void)touched,
        (void)clock;
    return none(err);
}

int mc_pg_seat(mc_pg *p, const char *id, int side, const char *token,
               long long account, long long touched, mc_error *err)
{
    (void)p, (void)id, (void)side, (void)token, (void)account, (void)touched;
    return none(err);
}

int mc_pg_delete(mc_pg *p, const char *id, mc_error *err)
{
    (void)p, (void)id;
    return none(err);
}

int mc_pg_each(mc_pg *p, int (*each)(void *ctx, const mc_store_game *g),
               void *ctx, mc_error *err)
{
    (void)p, (void)each, (void)ctx;
    return none(err);
}

int mc_pg_get(mc_pg *p, const char *id, char **record, long long *version,
              mc_store_clock *clock, mc_error *err)
{
    (void)p, (void)id, (void)version, (void)clock;
    *record = NULL;
    return none(err);
}

int mc_pg_account_add(mc_pg *p, const char *name, const char *hash,
                      long long created, const mc_store_session *first,
                      long long *id, mc_error *err)
{
    (void)p, (void)name, (void)hash, (void)created, (void)first, (void)id;
    return none(err);
}

int mc_pg_account_find(mc_pg *p, const char *name, mc_store_account *a,
                       mc_error *err)
{
    (void)p, (void)name, (void)a;
    return none(err);
}

int mc_pg_account_password(mc_pg *p, long long id, const char *hash,
                           const char *keep, int *ended, mc_error *err)
{
    (void)p, (void)id, (void)hash, (void)keep, (void)ended;
    return none(err);
}

int mc_pg_account_delete(mc_pg *p, long long id, mc_error *err)
{
    (void)p, (void)id;
    return none(err);
}

int mc_pg_session_add(mc_pg *p, long long id, const mc_store_session *ss,
                      int most, long long now, mc_error *err)
{
    (void)p, (void)id, (void)ss, (void)most, (void)now;
    return none(err);
}

int mc_pg_session_find(mc_pg *p, const char *digest, long long now,
                       mc_store_account *a, long long *expires, mc_error *err)
{
    (void)p, (void)digest, (void)now, (void)a, (void)expires;
    return none(err);
}

int mc_pg_session_end(mc_pg *p, const char *digest, int all, int *ended,
                      mc_error *err)
{
    (void)p, (void)digest, (void)all, (void)ended;
    return none(err);
}

int mc_pg_sessions_expire(mc_pg *p, long long now, mc_error *err)
{
    (void)p, (void)now;
    return none(err);
}

int mc_pg_update_rated(mc_pg *p, const char *id, const char *record,
                       long long version, long long touched,
                       const mc_store_clock *clock, const mc_store_rated *rg,
                       mc_store_change *ch, mc_error *err)
{
    (void)p, (void)id, (void)record, (void)version, (void)touched, (void)clock,
        (void)rg, (void)ch;
    return none(err);
}

int mc_pg_standing_of(mc_pg *p, long long id, const char *kind, long long now,
                      mc_store_standing *st, mc_error *err)
{
    (void)p, (void)id, (void)kind, (void)now, (void)st;
    return none(err);
}

int mc_pg_player(mc_pg *p, const char *name, long long now,
                 mc_store_account *acc, mc_store_standing *st, int nst,
                 int *got_st, mc_store_past *past, int npast, int *got_past,
                 mc_error *err)
{
    (void)p, (void)name, (void)now, (void)acc, (void)st, (void)nst, (void)past,
        (void)npast;
    *got_st = *got_past = 0;
    return none(err);
}

int mc_pg_bot(mc_pg *p, int level, mc_store_account *acc, mc_error *err)
{
    (void)p, (void)level, (void)acc;
    return none(err);
}

void mc_pg_set_readonly(mc_pg *p, int on)
{
    (void)p, (void)on;
}

int mc_pg_raw_begin(mc_pg *p, mc_error *err)
{
    (void)p;
    return none(err);
}

int mc_pg_raw_end(mc_pg *p, int ok, mc_error *err)
{
    (void)p, (void)ok;
    return none(err);
}

int mc_pg_raw_exec(mc_pg *p, const char *sql, int n, const char *const *vals,
                   mc_error *err)
{
    (void)p, (void)sql, (void)n, (void)vals;
    return none(err);
}

int mc_pg_raw_rows(mc_pg *p, const char *sql,
                   int (*row)(void *ctx, const char *const *vals), void *ctx,
                   mc_error *err)
{
    (void)p, (void)sql, (void)row, (void)ctx;
    return none(err);
}

#else /* MC_HAVE_LIBPQ */

#include <dlfcn.h>
#include <libpq-fe.h>
#include <pthread.h>
#include <time.h>

#include "rating.h"

/* ---- libpq, loaded at run time ------------------------------------------ */

/* The functions used, each called through a pointer of its own type
   (libpq-fe.h's declaration) set by dlsym. */
#define PQ_FUNCS(X)                                                            \
    X(PQconnectdbParams)                                                       \
    X(PQstatus)                                                                \
    X(PQerrorMessage)                                                          \
    X(PQfinish)                                                                \
    X(PQreset)                                                                 \
    X(PQexec)                                                                  \
    X(PQexecParams)                                                            \
    X(PQresultStatus)                                                          \
    X(PQresultErrorField)                                                      \
    X(PQntuples)                                                               \
    X(PQnfields)                                                               \
    X(PQgetvalue)                                                              \
    X(PQgetisnull)                                                             \
    X(PQcmdTuples)                                                             \
    X(PQcmdStatus)                                                             \
    X(PQclear)
#define PQ_DECLARE(f) static __typeof__(f) *pq_##f;
PQ_FUNCS(PQ_DECLARE)

static pthread_once_t pq_once = PTHREAD_ONCE_INIT;
static char pq_why[200]; /* "" once loaded */

static void pq_load(void)
{
    /* MANCALA_LIBPQ names another file (the tests: one that is missing) */
    const char *lib = getenv("MANCALA_LIBPQ");
    if (!lib || !*lib)
        lib = "libpq.so.5";
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(pq_why, sizeof pq_why,
                 "PostgreSQL's client library %s cannot be loaded (Debian: "
                 "apt install libpq5): %s",
                 lib, dlerror());
        return;
    }
#define PQ_LOAD(f)                                                             \
    if (!pq_why[0]) {                                                          \
        void *sym = dlsym(h, #f);                                              \
        if (sym)                                                               \
            memcpy(&pq_##f, &sym, sizeof sym);                                 \
        else                                                                   \
            snprintf(pq_why, sizeof pq_why,                                    \
                     "%s has no %s: a libpq of version 5 is needed (Debian: "  \
                     "libpq5)",                                                \
                     lib, #f);                                                 \
    }
    PQ_FUNCS(PQ_LOAD)
}

/* Every copy of a secret of db in msg (of n bytes) replaced by "***":
   libpq's messages about a malformed string quote it whole. */
static void scrub(char *msg, size_t n, const char *db)
{
    char tmp[8], out[512];
    secrets sec = {0};
    hide(db, tmp, sizeof tmp, &sec);
    if (!sec.n)
        return;
    size_t o = 0;
    for (const char *p = msg; *p && o + 1 < sizeof out;) {
        int k = -1;
        for (int i = 0; i < sec.n && k < 0; i++)
            if (strncmp(p, sec.at[i], sec.len[i]) == 0)
                k = i;
        if (k < 0) {
            out[o++] = *p++;
            continue;
        }
        for (const char *r = "***"; *r && o + 1 < sizeof out; r++)
            out[o++] = *r;
        p += sec.len[k];
    }
    if (o >= n)
        o = n - 1;
    memcpy(msg, out, o);
    msg[o] = 0;
}

/* ---- the store ----------------------------------------------------------- */

struct mc_pg {
    PGconn *conn;
    pthread_mutex_t lock;
    int readonly;  /* the tests' read-only mode, kept across a reset */
    char msg[200]; /* the last error, in words */
    char state[6]; /* its SQLSTATE ("" none) */
};

/* The schema this program writes (meta.schema), the SQLite store's
   numbering: 4 (the games and seats, their clocks, the accounts and their
   sessions, the ratings and results) is the first that PostgreSQL holds.
   A later one adds its steps in upgrade(). */
#define SCHEMA 4

/* The tables, in the first schema of the connection's search_path (a
   connection string's options=-csearch_path=NAME chooses another). */
static const char *const schema =
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);"
    "CREATE TABLE IF NOT EXISTS games("
    " id TEXT PRIMARY KEY,"
    " record TEXT NOT NULL," /* the export format: every round, every move */
    " version BIGINT NOT NULL,"
    " over INTEGER NOT NULL,"
    " created BIGINT NOT NULL," /* seconds since 1970 */
    " touched BIGINT NOT NULL,"
    " addr TEXT NOT NULL,"
    " clock_s DOUBLE PRECISION, clock_n DOUBLE PRECISION,"
    " clock_since DOUBLE PRECISION,"
    " rated INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE IF NOT EXISTS seats("
    " game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
    " side INTEGER NOT NULL CHECK(side IN (0, 1)),"
    " token TEXT, invite TEXT,"
    " owner INTEGER NOT NULL,"
    " account BIGINT," /* accounts.id, kept when the account goes */
    " PRIMARY KEY(game, side));"
    "CREATE INDEX IF NOT EXISTS seats_account ON seats(account);"
    /* an identity never gives an id twice (a seat of a deleted account
       never names a newer one); names unique ignoring case */
    "CREATE TABLE IF NOT EXISTS accounts("
    " id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
    " name TEXT NOT NULL,"
    " hash TEXT NOT NULL,"
    " created BIGINT NOT NULL,"
    " bot INTEGER NOT NULL DEFAULT 0);"
    "CREATE UNIQUE INDEX IF NOT EXISTS accounts_name ON accounts(lower(name));"
    "CREATE TABLE IF NOT EXISTS sessions("
    " digest TEXT PRIMARY KEY," /* of the token (never the token) */
    " account BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,"
    " created BIGINT NOT NULL,"
    " expires BIGINT NOT NULL,"
    " seq BIGINT GENERATED ALWAYS AS IDENTITY);" /* the order made */
    "CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account);"
    "CREATE TABLE IF NOT EXISTS ratings("
    " account BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,"
    " kind TEXT NOT NULL,"
    " r DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL,"
    " vol DOUBLE PRECISION NOT NULL,"
    " last BIGINT NOT NULL,"
    " games INTEGER NOT NULL, wins INTEGER NOT NULL,"
    " draws INTEGER NOT NULL, losses INTEGER NOT NULL,"
    " PRIMARY KEY(account, kind));"
    "CREATE TABLE IF NOT EXISTS results("
    " game TEXT PRIMARY KEY,"
    " kind TEXT NOT NULL,"
    " ended BIGINT NOT NULL,"
    " south BIGINT NOT NULL, north BIGINT NOT NULL,"
    " aborted INTEGER NOT NULL,"
    " score DOUBLE PRECISION,"
    " s_before DOUBLE PRECISION, s_rd_before DOUBLE PRECISION,"
    " s_after DOUBLE PRECISION, s_rd_after DOUBLE PRECISION,"
    " n_before DOUBLE PRECISION, n_rd_before DOUBLE PRECISION,"
    " n_after DOUBLE PRECISION, n_rd_after DOUBLE PRECISION,"
    " seq BIGINT GENERATED ALWAYS AS IDENTITY);"
    "CREATE INDEX IF NOT EXISTS results_south ON results(south, ended);"
    "CREATE INDEX IF NOT EXISTS results_north ON results(north, ended);"
    "INSERT INTO meta VALUES('schema', '4') ON CONFLICT DO NOTHING;";

/* The parameters of one statement, as text (NULL: SQL NULL). */
typedef struct args {
    int n;
    const char *v[16];
    char num[16][32];
} args;

static void a_text(args *a, const char *s)
{
    a->v[a->n++] = s;
}

static void a_int(args *a, long long x)
{
    snprintf(a->num[a->n], sizeof a->num[0], "%lld", x);
    a->v[a->n] = a->num[a->n];
    a->n++;
}

/* Exactly: 17 significant digits read back to the same double. */
static void a_real(args *a, double x)
{
    snprintf(a->num[a->n], sizeof a->num[0], "%.17g", x);
    a->v[a->n] = a->num[a->n];
    a->n++;
}

/* An account's id, NULL for none (0). */
static void a_account(args *a, long long id)
{
    if (id > 0)
        a_int(a, id);
    else
        a_text(a, NULL);
}

/* The three clock columns' values (NULL without a clock). */
static void a_clock(args *a, const mc_store_clock *c)
{
    for (int i = 0; i < 3; i++)
        if (c)
            a_real(a, i < 2 ? c->bank[i] : c->since);
        else
            a_text(a, NULL);
}

/* What went wrong (r's error, else the connection's) into p->msg: the
   primary message only (the detail may quote a row's values). */
static void note(mc_pg *p, const PGresult *r)
{
    const char *m =
        r ? pq_PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    const char *st = r ? pq_PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    if (!m && p->conn)
        m = pq_PQerrorMessage(p->conn);
    snprintf(p->msg, sizeof p->msg, "%s", m && *m ? m : "failed");
    for (size_t n = strlen(p->msg);
         n > 0 && isspace((unsigned char)p->msg[n - 1]);)
        p->msg[--n] = 0;
    snprintf(p->state, sizeof p->state, "%s", st ? st : "");
}

static int fail(mc_pg *p, mc_error *err, const char *what)
{
    if (err) {
        err->code = MC_ERR_IO;
        snprintf(err->msg, sizeof err->msg, "the game store: %s: %s", what,
                 p->msg[0] ? p->msg : "failed");
    }
    return -1;
}

/* Run sql with a's parameters: its result (rows, or a command done), or
   NULL with p->msg. */
static PGresult *run(mc_pg *p, const char *sql, const args *a)
{
    PGresult *r = pq_PQexecParams(p->conn, sql, a ? a->n : 0, NULL,
                                  a ? a->v : NULL, NULL, NULL, 0);
    ExecStatusType st = r ? pq_PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
        return r;
    note(p, r);
    pq_PQclear(r);
    return NULL;
}

/* A statement whose rows are not read: 0 (*changed: the rows it changed,
   when not NULL), or -1. */
static int cmd(mc_pg *p, const char *sql, const args *a, long long *changed)
{
    PGresult *r = run(p, sql, a);
    if (!r)
        return -1;
    if (changed)
        *changed = atoll(pq_PQcmdTuples(r));
    pq_PQclear(r);
    return 0;
}

/* Fixed statements, several in one text (no parameters): 0, or -1. */
static int script(mc_pg *p, const char *sql)
{
    PGresult *r = pq_PQexec(p->conn, sql);
    ExecStatusType st = r ? pq_PQresultStatus(r) : PGRES_FATAL_ERROR;
    int ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
    if (!ok)
        note(p, r);
    pq_PQclear(r);
    return ok ? 0 : -1;
}

/* A column of a row: NULL when SQL NULL. */
static const char *val(const PGresult *r, int row, int col)
{
    return pq_PQgetisnull(r, row, col) ? NULL : pq_PQgetvalue(r, row, col);
}

static long long v_int(const PGresult *r, int row, int col)
{
    const char *v = val(r, row, col);
    return v ? strtoll(v, NULL, 10) : 0;
}

static double v_real(const PGresult *r, int row, int col)
{
    const char *v = val(r, row, col);
    return v ? strtod(v, NULL) : 0;
}

/* A boolean column ('t'). */
static int v_bool(const PGresult *r, int row, int col)
{
    const char *v = val(r, row, col);
    return v && *v == 't';
}

/* The settings of each new connection (and after a reset): no notices
   on the standard error (CREATE ... IF NOT EXISTS), every commit flushed
   before it is answered whatever the server's default, the tests'
   read-only mode. */
static int setup(mc_pg *p)
{
    return script(p, p->readonly ? "SET client_min_messages = warning;"
                                   "SET synchronous_commit = on;"
                                   "SET default_transaction_read_only = on"
                                 : "SET client_min_messages = warning;"
                                   "SET synchronous_commit = on;"
                                   "SET default_transaction_read_only = off");
}

/* The connection usable, made again once when it was lost (the database
   restarted): 0, or -1 with p->msg. */
static int connected(mc_pg *p)
{
    if (pq_PQstatus(p->conn) == CONNECTION_OK)
        return 0;
    pq_PQreset(p->conn);
    if (pq_PQstatus(p->conn) != CONNECTION_OK) {
        note(p, NULL);
        return -1;
    }
    return setup(p);
}

/* The start of a change: the lock taken and a transaction begun; a
   connection found lost then is made again once (nothing was sent).  0,
   or -1 with err filled and the lock given back. */
static int begin(mc_pg *p, mc_error *err, const char *what)
{
    pthread_mutex_lock(&p->lock);
    p->msg[0] = 0;
    int ok = connected(p) == 0;
    if (ok && cmd(p, "BEGIN", NULL, NULL) != 0)
        ok = pq_PQstatus(p->conn) != CONNECTION_OK && connected(p) == 0 &&
             cmd(p, "BEGIN", NULL, NULL) == 0;
    if (!ok) {
        fail(p, err, what);
        pthread_mutex_unlock(&p->lock);
        return -1;
    }
    return 0;
}

/* The start of a read (no transaction: each is one statement, or reads
   whose order does not matter): the lock, and the connection as begin. */
static int reading(mc_pg *p, mc_error *err, const char *what)
{
    pthread_mutex_lock(&p->lock);
    p->msg[0] = 0;
    if (connected(p) == 0)
        return 0;
    fail(p, err, what);
    pthread_mutex_unlock(&p->lock);
    return -1;
}

/* The end of a change: COMMIT when ok (and the server says it committed),
   else ROLLBACK and the error; the lock given back. */
static int finish(mc_pg *p, int ok, mc_error *err, const char *what)
{
    int rc = 0;
    if (ok) {
        PGresult *r = run(p, "COMMIT", NULL);
        /* a transaction that had failed ends "ROLLBACK" */
        ok = r && strcmp(pq_PQcmdStatus(r), "COMMIT") == 0;
        if (r && !ok)
            snprintf(p->msg, sizeof p->msg, "the transaction was rolled back");
        pq_PQclear(r);
        if (ok) {
            pthread_mutex_unlock(&p->lock);
            return 0;
        }
    }
    rc = fail(p, err, what);
    if (pq_PQstatus(p->conn) == CONNECTION_OK)
        cmd(p, "ROLLBACK", NULL, NULL);
    pthread_mutex_unlock(&p->lock);
    return rc;
}

/* The schema made or checked, in one transaction under an advisory lock
   (two servers starting at once): 0, or -1 with p->msg. */
static int upgrade(mc_pg *p)
{
    /* 0x6d616e63616c61: "mancala" */
    if (script(p, "BEGIN; SELECT pg_advisory_xact_lock(30787929920252257)") !=
        0)
        return -1;
    PGresult *r = run(p, "SELECT to_regclass('meta') IS NOT NULL", NULL);
    int have = r && v_bool(r, 0, 0);
    pq_PQclear(r);
    int version = 0;
    if (r && have) {
        r = run(p, "SELECT value FROM meta WHERE key='schema'", NULL);
        if (r && pq_PQntuples(r) == 1)
            version = atoi(pq_PQgetvalue(r, 0, 0));
        pq_PQclear(r);
    }
    if (r && version > SCHEMA)
        snprintf(p->msg, sizeof p->msg,
                 "it was written by a newer mancala (schema %d, this one "
                 "writes %d): use that one",
                 version, SCHEMA);
    int ok = r && version <= SCHEMA;
    /* the tables of this schema, whichever were missing; an older
       PostgreSQL schema's steps will come here (there is none yet) */
    ok = ok && script(p, schema) == 0;
    if (ok) {
        r = run(p, "COMMIT", NULL);
        ok = r && strcmp(pq_PQcmdStatus(r), "COMMIT") == 0;
        pq_PQclear(r);
        if (ok)
            return 0;
    }
    cmd(p, "ROLLBACK", NULL, NULL);
    return -1;
}

mc_pg *mc_pg_open(const char *conninfo, mc_error *err)
{
    pthread_once(&pq_once, pq_load);
    if (pq_why[0]) {
        if (err) {
            err->code = MC_ERR_IO;
            snprintf(err->msg, sizeof err->msg, "%s", pq_why);
        }
        return NULL;
    }
    mc_pg *p = calloc(1, sizeof *p);
    if (!p) {
        if (err)
            err->code = MC_ERR_IO,
            snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&p->lock, NULL);
    /* the string's own settings win over these defaults (they come
       before it): a name in the server's activity, and a bound on a
       connection's wait for an unreachable server */
    const char *keys[] = {"application_name", "connect_timeout", "dbname",
                          NULL};
    const char *vals[] = {
        "mancala serve", "10",
        strncmp(conninfo, "pg:", 3) == 0 ? conninfo + 3 : conninfo, NULL};
    p->conn = pq_PQconnectdbParams(keys, vals, 1);
    int ok = p->conn && pq_PQstatus(p->conn) == CONNECTION_OK;
    if (!ok)
        note(p, NULL);
    ok = ok && setup(p) == 0 && upgrade(p) == 0;
    if (!ok) {
        scrub(p->msg, sizeof p->msg, conninfo);
        if (err) {
            char shown[160];
            err->code = MC_ERR_IO;
            snprintf(err->msg, sizeof err->msg,
                     "cannot open the game store %s: %s",
                     mc_pg_shown(conninfo, shown, sizeof shown), p->msg);
        }
        mc_pg_close(p);
        return NULL;
    }
    return p;
}

void mc_pg_close(mc_pg *p)
{
    if (!p)
        return;
    if (p->conn)
        pq_PQfinish(p->conn);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

void mc_pg_set_readonly(mc_pg *p, int on)
{
    pthread_mutex_lock(&p->lock);
    p->readonly = on;
    if (connected(p) == 0)
        setup(p);
    pthread_mutex_unlock(&p->lock);
}

/* ---- games --------------------------------------------------------------- */

int mc_pg_insert(mc_pg *p, const mc_store_game *g, mc_error *err)
{
    const char *what = "saving a new game";
    if (begin(p, err, what) != 0)
        return -1;
    args a = {0};
    a_text(&a, g->id);
    a_text(&a, g->record);
    a_int(&a, g->version);
    a_int(&a, g->over);
    a_int(&a, g->created);
    a_int(&a, g->touched);
    a_text(&a, g->addr ? g->addr : "");
    a_clock(&a, &g->clock);
    a_int(&a, g->rated != 0);
    int ok = cmd(p,
                 "INSERT INTO games(id, record, version, over, created,"
                 " touched, addr, clock_s, clock_n, clock_since, rated)"
                 " VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)",
                 &a, NULL) == 0;
    for (int side = 0; ok && side < 2; side++) {
        args b = {0};
        a_text(&b, g->id);
        a_int(&b, side);
        a_text(&b, g->token[side]);
        a_text(&b, g->invite[side]);
        a_int(&b, (g->owner >> side) & 1);
        a_account(&b, g->account[side]);
        ok = cmd(p,
                 "INSERT INTO seats(game, side, token, invite, owner,"
                 " account) VALUES($1,$2,$3,$4,$5,$6)",
                 &b, NULL) == 0;
    }
    return finish(p, ok, err, what);
}

/* A game's record, version, over flag, time and clocks, when the database
   holds an older version (in the transaction): ok.  Refused (0 rows) when
   another process wrote that version or a later one first. */
static int update_game(mc_pg *p, const char *id, const char *record,
                       long long version, int over, long long touched,
                       const mc_store_clock *clock)
{
    args a = {0};
    a_text(&a, record);
    a_int(&a, version);
    a_int(&a, over);
    a_int(&a, touched);
    a_clock(&a, clock);
    a_text(&a, id);
    long long n = 0;
    int ok = cmd(p,
                 "UPDATE games SET record=$1, version=$2, over=$3,"
                 " touched=$4, clock_s=$5, clock_n=$6, clock_since=$7"
                 " WHERE id=$8 AND version<$2",
                 &a, &n) == 0;
    if (ok && n != 1)
        snprintf(p->msg, sizeof p->msg,
                 "the game is gone or holds a later version");
    return ok && n == 1;
}

int mc_pg_update(mc_pg *p, const char *id, const char *record,
                 long long version, int over, long long touched,
                 const mc_store_clock *clock, mc_error *err)
{
    const char *what = "saving a move";
    if (begin(p, err, what) != 0)
        return -1;
    int ok = update_game(p, id, record, version, over, touched, clock);
    return finish(p, ok, err, what);
}

int mc_pg_seat(mc_pg *p, const char *id, int side, const char *token,
               long long account, long long touched, mc_error *err)
{
    const char *what = "saving a seat";
    if (begin(p, err, what) != 0)
        return -1;
    args a = {0};
    a_text(&a, token);
    a_account(&a, account);
    a_text(&a, id);
    a_int(&a, side);
    long long n = 0;
    int ok = cmd(p,
                 "UPDATE seats SET token=$1, invite=NULL, account=$2"
                 " WHERE game=$3 AND side=$4",
                 &a, &n) == 0 &&
             n == 1;
    if (!ok && !p->msg[0])
        snprintf(p->msg, sizeof p->msg, "no such seat");
    if (ok) {
        args b = {0};
        a_int(&b, touched);
        a_text(&b, id);
        ok = cmd(p, "UPDATE games SET touched=$1 WHERE id=$2", &b, NULL) == 0;
    }
    return finish(p, ok, err, what);
}

int mc_pg_delete(mc_pg *p, const char *id, mc_error *err)
{
    const char *what = "deleting a game";
    if (begin(p, err, what) != 0)
        return -1;
    args a = {0};
    a_text(&a, id);
    long long n = 0;
    int ok = cmd(p, "DELETE FROM games WHERE id=$1", &a, &n) == 0 && n == 1;
    if (!ok && !p->msg[0])
        snprintf(p->msg, sizeof p->msg, "no such game");
    return finish(p, ok, err, what);
}

/* The clock columns from col on; NULL (none kept) reads as not known. */
static void read_clock(const PGresult *r, int row, int col, mc_store_clock *c)
{
    c->known = 1;
    for (int k = 0; k < 3; k++)
        c->known &= !pq_PQgetisnull(r, row, col + k);
    for (int k = 0; k < 2; k++)
        c->bank[k] = c->known ? v_real(r, row, col + k) : 0;
    c->since = c->known ? v_real(r, row, col + 2) : -1;
}

/* A result's columns, as read_change reads them (r: the results). */
#define RESULT_COLS                                                            \
    "r.game, r.aborted, r.score, r.s_before, r.s_rd_before, r.s_after,"        \
    " r.s_rd_after, r.n_before, r.n_rd_before, r.n_after, r.n_rd_after"

/* What a kept result did (RESULT_COLS from col on): 1, or 0 when there is
   none (no row joined). */
static int read_change(const PGresult *r, int row, int col, mc_store_change *ch)
{
    memset(ch, 0, sizeof *ch);
    if (pq_PQgetisnull(r, row, col))
        return 0;
    ch->aborted = (int)v_int(r, row, col + 1);
    if (ch->aborted)
        return 1;
    ch->score = v_real(r, row, col + 2);
    for (int side = 0; side < 2; side++) {
        int c = col + 3 + 4 * side;
        mc_rating x = {v_real(r, row, c), v_real(r, row, c + 1), 0.06};
        mc_rating y = {v_real(r, row, c + 2), v_real(r, row, c + 3), 0.06};
        ch->before[side] = x.r;
        ch->rd_before[side] = x.rd;
        ch->after[side] = y.r;
        ch->rd_after[side] = y.rd;
        ch->shown_before[side] = mc_rating_shown(x.r);
        ch->shown_after[side] = mc_rating_shown(y.r);
        ch->change[side] = ch->shown_after[side] - ch->shown_before[side];
        ch->prov_before[side] = mc_rating_provisional(&x, NULL);
        ch->prov_after[side] = mc_rating_provisional(&y, NULL);
    }
    return 1;
}

int mc_pg_each(mc_pg *p, int (*each)(void *ctx, const mc_store_game *g),
               void *ctx, mc_error *err)
{
    const char *what = "reading the games";
    if (reading(p, err, what) != 0)
        return -1;
    PGresult *r =
        run(p,
            "SELECT g.id, g.record, g.version, g.over, g.created, g.touched,"
            " g.addr, a.token, a.invite, a.owner, b.token, b.invite, b.owner,"
            " g.clock_s, g.clock_n, g.clock_since, a.account, x.name,"
            " b.account, y.name, g.rated, " RESULT_COLS ", x.bot, y.bot"
            " FROM games g JOIN seats a ON a.game = g.id AND a.side = 0"
            " JOIN seats b ON b.game = g.id AND b.side = 1"
            " LEFT JOIN accounts x ON x.id = a.account"
            " LEFT JOIN accounts y ON y.id = b.account"
            " LEFT JOIN results r ON r.game = g.id",
            NULL);
    if (!r)
        fail(p, err, what);
    int rows = r ? pq_PQntuples(r) : 0;
    for (int i = 0; i < rows; i++) {
        mc_store_game g;
        g.id = val(r, i, 0);
        g.record = val(r, i, 1);
        g.version = v_int(r, i, 2);
        g.over = (int)v_int(r, i, 3);
        g.created = v_int(r, i, 4);
        g.touched = v_int(r, i, 5);
        g.addr = val(r, i, 6);
        g.owner = 0;
        for (int side = 0; side < 2; side++) {
            g.token[side] = val(r, i, 7 + 3 * side);
            g.invite[side] = val(r, i, 8 + 3 * side);
            g.owner |= ((int)v_int(r, i, 9 + 3 * side) & 1) << side;
        }
        read_clock(r, i, 13, &g.clock);
        for (int side = 0; side < 2; side++) {
            g.account[side] = v_int(r, i, 16 + 2 * side);
            g.player[side] = val(r, i, 17 + 2 * side);
        }
        g.rated = (int)v_int(r, i, 20);
        g.ended = read_change(r, i, 21, &g.change);
        for (int side = 0; side < 2; side++)
            g.bot[side] = (int)v_int(r, i, 32 + side);
        if (g.id && g.record && each(ctx, &g) != 0)
            break;
    }
    pq_PQclear(r);
    pthread_mutex_unlock(&p->lock);
    return r ? 0 : -1;
}

int mc_pg_get(mc_pg *p, const char *id, char **record, long long *version,
              mc_store_clock *clock, mc_error *err)
{
    const char *what = "reading a game";
    *record = NULL;
    if (reading(p, err, what) != 0)
        return -1;
    args a = {0};
    a_text(&a, id);
    PGresult *r = run(p,
                      "SELECT record, version, clock_s, clock_n, clock_since"
                      " FROM games WHERE id=$1",
                      &a);
    int ret;
    if (!r) {
        ret = fail(p, err, what);
    } else if (pq_PQntuples(r) == 0) {
        ret = 1;
    } else {
        const char *t = val(r, 0, 0);
        *record = t ? strdup(t) : NULL;
        *version = v_int(r, 0, 1);
        if (clock)
            read_clock(r, 0, 2, clock);
        if (!*record)
            snprintf(p->msg, sizeof p->msg, "out of memory");
        ret = *record ? 0 : fail(p, err, what);
    }
    pq_PQclear(r);
    pthread_mutex_unlock(&p->lock);
    return ret;
}

/* ---- accounts and sessions ----------------------------------------------- */

static int insert_session(mc_pg *p, long long id, const mc_store_session *ss)
{
    args a = {0};
    a_text(&a, ss->digest);
    a_int(&a, id);
    a_int(&a, ss->created);
    a_int(&a, ss->expires);
    return cmd(p,
               "INSERT INTO sessions(digest, account, created, expires)"
               " VALUES($1,$2,$3,$4)",
               &a, NULL);
}

int mc_pg_account_add(mc_pg *p, const char *name, const char *hash,
                      long long created, const mc_store_session *first,
                      long long *id, mc_error *err)
{
    const char *what = "saving a new account";
    if (begin(p, err, what) != 0)
        return -1;
    args a = {0};
    a_text(&a, name);
    a_text(&a, hash);
    a_int(&a, created);
    /* a name taken (ignoring case): no row */
    PGresult *r = run(p,
                      "INSERT INTO accounts(name, hash, created)"
                      " VALUES($1,$2,$3) ON CONFLICT (lower(name)) DO NOTHING"
                      " RETURNING id",
                      &a);
    int ok = r != NULL, taken = r && pq_PQntuples(r) == 0;
    if (ok && !taken)
        *id = v_int(r, 0, 0);
    pq_PQclear(r);
    if (taken) {
        cmd(p, "ROLLBACK", NULL, NULL);
        pthread_mutex_unlock(&p->lock);
        return 1;
    }
    if (ok && first)
        ok = insert_session(p, *id, first) == 0;
    return finish(p, ok, err, what);
}

/* An account's columns (id, name, hash, created) from col on. */
static void read_account(const PGresult *r, int row, int col,
                         mc_store_account *a)
{
    const char *name = val(r, row, col + 1), *hash = val(r, row, col + 2);
    a->id = v_int(r, row, col);
    snprintf(a->name, sizeof a->name, "%s", name ? name : "");
    snprintf(a->hash, sizeof a->hash, "%s", hash ? hash : "");
    a->created = v_int(r, row, col + 3);
}

/* A query of at most one row: r, or NULL after filling err (*rc: 0 a row,
   1 none, -1 an error). */
static PGresult *one_row(mc_pg *p, const char *sql, const args *a, int *rc,
                         mc_error *err, const char *what)
{
    PGresult *r = run(p, sql, a);
    *rc = !r ? fail(p, err, what) : pq_PQntuples(r) > 0 ? 0 : 1;
    return r;
}

/* The account named name (ignoring case) into *acc, its hash too when
   hash (the lock held): 0, 1 when there is none, -1 with err filled. */
static int find_account(mc_pg *p, const char *name, int hash,
                        mc_store_account *acc, mc_error *err)
{
    args a = {0};
    a_text(&a, name);
    int rc;
    PGresult *r = one_row(p,
                          hash ? "SELECT id, name, hash, created FROM accounts"
                                 " WHERE lower(name)=lower($1)"
                               : "SELECT id, name, '', created FROM accounts"
                                 " WHERE lower(name)=lower($1)",
                          &a, &rc, err, "reading an account");
    if (rc == 0)
        read_account(r, 0, 0, acc);
    pq_PQclear(r);
    return rc;
}

int mc_pg_account_find(mc_pg *p, const char *name, mc_store_account *acc,
                       mc_error *err)
{
    if (reading(p, err, "reading an account") != 0)
        return -1;
    int rc = find_account(p, name, 1, acc, err);
    pthread_mutex_unlock(&p->lock);
    return rc;
}

/* Account id's sessions but keep's (NULL: all) deleted: ok, *ended. */
static int end_sessions(mc_pg *p, long long id, const char *keep, int *ended)
{
    args a = {0};
    a_int(&a, id);
    a_text(&a, keep);
    long long n = 0;
    int ok = cmd(p,
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
    if (begin(p, err, what) != 0)
        return -1;
    args a = {0};
    a_text(&a, hash);
    a_int(&a, id);
    long long n = 0;
    int ok = cmd(p, "UPDATE accounts SET hash=$1 WHERE id=$2", &a, &n) == 0;
    int none = ok && n == 0;
    if (ok && !none)
        ok = end_sessions(p, id, keep, ended);
    int rc = finish(p, ok, err, what);
    return rc == 0 && none ? 1 : rc;
}

int mc_pg_account_delete(mc_pg *p, long long id, mc_error *err)
{
    const char *what = "deleting an account";
    if (begin(p, err, what) != 0)
        return -1;
    args a = {0};
    a_int(&a, id);
    long long n = 0;
    int ok = end_sessions(p, id, NULL, NULL) &&
             cmd(p, "DELETE FROM accounts WHERE id=$1", &a, &n) == 0;
    int rc = finish(p, ok, err, what);
    return rc == 0 && n == 0 ? 1 : rc;
}

int mc_pg_session_add(mc_pg *p, long long id, const mc_store_session *ss,
                      int most, long long now, mc_error *err)
{
    const char *what = "saving a session";
    if (begin(p, err, what) != 0)
        return -1;
    args a = {0};
    a_int(&a, id);
    a_int(&a, now);
    int ok = cmd(p, "DELETE FROM sessions WHERE account=$1 AND expires<=$2", &a,
                 NULL) == 0 &&
             insert_session(p, id, ss) == 0;
    /* the account's newest `most` are kept */
    args b = {0};
    a_int(&b, id);
    a_int(&b, most);
    ok = ok && cmd(p,
                   "DELETE FROM sessions WHERE account=$1 AND digest NOT IN"
                   " (SELECT digest FROM sessions WHERE account=$1"
                   " ORDER BY created DESC, seq DESC LIMIT $2)",
                   &b, NULL) == 0;
    return finish(p, ok, err, what);
}

int mc_pg_session_find(mc_pg *p, const char *digest, long long now,
                       mc_store_account *acc, long long *expires, mc_error *err)
{
    const char *what = "reading a session";
    if (reading(p, err, what) != 0)
        return -1;
    args a = {0};
    a_text(&a, digest);
    a_int(&a, now);
    int rc;
    PGresult *r = one_row(p,
                          "SELECT a.id, a.name, '', a.created, x.expires"
                          " FROM sessions x JOIN accounts a"
                          " ON a.id = x.account"
                          " WHERE x.digest=$1 AND x.expires>$2",
                          &a, &rc, err, what);
    if (rc == 0) {
        read_account(r, 0, 0, acc);
        *expires = v_int(r, 0, 4);
    }
    pq_PQclear(r);
    pthread_mutex_unlock(&p->lock);
    return rc;
}

int mc_pg_session_end(mc_pg *p, const char *digest, int all, int *ended,
                      mc_error *err)
{
    const char *what = "ending a session";
    if (begin(p, err, what) != 0)
        return -1;
    args a = {0};
    a_text(&a, digest);
    long long n = 0;
    int ok = cmd(p,
                 all ? "DELETE FROM sessions WHERE account IN"
                       " (SELECT account FROM sessions WHERE digest=$1)"
                     : "DELETE FROM sessions WHERE digest=$1",
                 &a, &n) == 0;
    if (ok && ended)
        *ended = (int)n;
    return finish(p, ok, err, what);
}

int mc_pg_sessions_expire(mc_pg *p, long long now, mc_error *err)
{
    const char *what = "deleting old sessions";
    if (begin(p, err, what) != 0)
        return -1;
    args a = {0};
    a_int(&a, now);
    int ok = cmd(p, "DELETE FROM sessions WHERE expires<=$1", &a, NULL) == 0;
    return finish(p, ok, err, what);
}

/* ---- ratings ------------------------------------------------------------- */

/* Account id's rating in kind: 0 with *x, *last and the counts c, 1 when
   there is none (a new player's start values), -1 on an error. */
static int read_rating(mc_pg *p, long long id, const char *kind, mc_rating *x,
                       long long *last, int c[4])
{
    args a = {0};
    a_int(&a, id);
    a_text(&a, kind);
    PGresult *r = run(p,
                      "SELECT r, rd, vol, last, games, wins, draws, losses"
                      " FROM ratings WHERE account=$1 AND kind=$2",
                      &a);
    *x = mc_rating_defaults.start;
    *last = 0;
    c[0] = c[1] = c[2] = c[3] = 0;
    int ret = !r ? -1 : pq_PQntuples(r) == 0 ? 1 : 0;
    if (ret == 0) {
        x->r = v_real(r, 0, 0);
        x->rd = v_real(r, 0, 1);
        x->vol = v_real(r, 0, 2);
        *last = v_int(r, 0, 3);
        for (int k = 0; k < 4; k++)
            c[k] = (int)v_int(r, 0, 4 + k);
    }
    pq_PQclear(r);
    return ret;
}

/* The kept result of game id: 0 with *ch, 1 none, -1 an error. */
static int read_result(mc_pg *p, const char *id, mc_store_change *ch)
{
    args a = {0};
    a_text(&a, id);
    PGresult *r =
        run(p, "SELECT " RESULT_COLS " FROM results r WHERE r.game=$1", &a);
    int ret = !r                         ? -1
              : pq_PQntuples(r) == 0     ? 1
              : read_change(r, 0, 0, ch) ? 0
                                         : -1;
    pq_PQclear(r);
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
        args a = {0};
        a_int(&a, rg->account[side]);
        a_text(&a, rg->kind);
        a_real(&a, after[side].r);
        a_real(&a, after[side].rd);
        a_real(&a, after[side].vol);
        a_int(&a, now);
        for (int k = 0; k < 4; k++)
            a_int(&a, c[k]);
        if (cmd(p,
                "INSERT INTO ratings(account, kind, r, rd, vol, last, games,"
                " wins, draws, losses) VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)"
                " ON CONFLICT(account, kind) DO UPDATE SET r=EXCLUDED.r,"
                " rd=EXCLUDED.rd, vol=EXCLUDED.vol, last=EXCLUDED.last,"
                " games=EXCLUDED.games, wins=EXCLUDED.wins,"
                " draws=EXCLUDED.draws, losses=EXCLUDED.losses",
                &a, NULL) != 0)
            return 0;
    }
    args a = {0};
    a_text(&a, id);
    a_text(&a, rg->kind);
    a_int(&a, now);
    a_int(&a, rg->account[0]);
    a_int(&a, rg->account[1]);
    a_int(&a, rg->aborted != 0);
    if (rg->aborted) {
        for (int k = 7; k <= 15; k++)
            a_text(&a, NULL);
    } else {
        a_real(&a, rg->score);
        for (int side = 0; side < 2; side++) {
            a_real(&a, ch->before[side]);
            a_real(&a, ch->rd_before[side]);
            a_real(&a, ch->after[side]);
            a_real(&a, ch->rd_after[side]);
        }
    }
    return cmd(p,
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
    if (begin(p, err, what) != 0)
        return -1;
    int ok = update_game(p, id, record, version, 1, touched, clock);
    int kept = ok ? read_result(p, id, ch) : -1;
    if (ok && kept == 1) {
        /* two accounts, both still there (else kept as aborted); their
           rows locked, so that two processes rating games of one player
           at once rate them one after the other */
        mc_store_rated x = *rg;
        x.aborted |= !(x.account[0] > 0 && x.account[1] > 0 &&
                       x.account[0] != x.account[1]);
        args a = {0};
        a_int(&a, x.account[0]);
        a_int(&a, x.account[1]);
        PGresult *r = run(p,
                          "SELECT id FROM accounts WHERE id IN ($1, $2)"
                          " ORDER BY id FOR UPDATE",
                          &a);
        ok = r != NULL;
        x.aborted |= ok && pq_PQntuples(r) != 2;
        pq_PQclear(r);
        ok = ok && rate_and_keep(p, id, &x, touched, ch);
    }
    return finish(p, ok && kept >= 0, err, what);
}

int mc_pg_standing_of(mc_pg *p, long long id, const char *kind, long long now,
                      mc_store_standing *st, mc_error *err)
{
    const char *what = "reading a rating";
    if (reading(p, err, what) != 0)
        return -1;
    mc_rating x;
    long long last;
    int c[4];
    int rc = read_rating(p, id, kind, &x, &last, c);
    if (rc >= 0) {
        snprintf(st->kind, sizeof st->kind, "%s", kind);
        mc_store_standing_fill(st, x, last, c, now);
    } else {
        fail(p, err, what);
    }
    pthread_mutex_unlock(&p->lock);
    return rc < 0 ? -1 : 0;
}

/* The last results of account id, from its side, into past. */
static int read_past(mc_pg *p, long long id, mc_store_past *past, int npast,
                     int *got)
{
    args a = {0};
    a_int(&a, id);
    a_int(&a, npast);
    PGresult *r = run(p,
                      "SELECT r.game, r.kind, r.ended, r.south = $1,"
                      " o.name, r.aborted, r.score, r.s_before, r.s_after,"
                      " r.n_before, r.n_after"
                      " FROM results r LEFT JOIN accounts o ON o.id ="
                      " (CASE WHEN r.south = $1 THEN r.north ELSE r.south END)"
                      " WHERE r.south = $1 OR r.north = $1"
                      " ORDER BY r.ended DESC, r.seq DESC LIMIT $2",
                      &a);
    int rows = r ? pq_PQntuples(r) : 0;
    for (int i = 0; i < rows && *got < npast; i++) {
        mc_store_past *x = &past[(*got)++];
        memset(x, 0, sizeof *x);
        const char *g = val(r, i, 0), *k = val(r, i, 1), *o = val(r, i, 4);
        snprintf(x->game, sizeof x->game, "%s", g ? g : "");
        snprintf(x->kind, sizeof x->kind, "%s", k ? k : "");
        x->ended = v_int(r, i, 2);
        x->side = v_bool(r, i, 3) ? 0 : 1;
        snprintf(x->opponent, sizeof x->opponent, "%s", o ? o : "");
        x->aborted = (int)v_int(r, i, 5);
        if (!x->aborted) {
            double sc = v_real(r, i, 6);
            x->score = x->side ? 1 - sc : sc;
            double b = v_real(r, i, 7 + 2 * x->side),
                   aft = v_real(r, i, 8 + 2 * x->side);
            x->shown_after = mc_rating_shown(aft);
            x->change = x->shown_after - mc_rating_shown(b);
        }
    }
    pq_PQclear(r);
    return r != NULL;
}

int mc_pg_player(mc_pg *p, const char *name, long long now,
                 mc_store_account *acc, mc_store_standing *st, int nst,
                 int *got_st, mc_store_past *past, int npast, int *got_past,
                 mc_error *err)
{
    const char *what = "reading a player";
    *got_st = *got_past = 0;
    if (reading(p, err, what) != 0)
        return -1;
    int rc = find_account(p, name, 0, acc, err);
    if (rc != 0) {
        pthread_mutex_unlock(&p->lock);
        return rc;
    }
    args b = {0};
    a_int(&b, acc->id);
    PGresult *r =
        run(p,
            "SELECT kind, r, rd, vol, last, games, wins, draws, losses"
            " FROM ratings WHERE account=$1 ORDER BY kind COLLATE \"C\"",
            &b);
    int rows = r ? pq_PQntuples(r) : 0;
    for (int i = 0; i < rows && *got_st < nst; i++) {
        mc_store_standing *x = &st[(*got_st)++];
        const char *k = val(r, i, 0);
        snprintf(x->kind, sizeof x->kind, "%s", k ? k : "");
        mc_rating y = {v_real(r, i, 1), v_real(r, i, 2), v_real(r, i, 3)};
        int c[4];
        for (int j = 0; j < 4; j++)
            c[j] = (int)v_int(r, i, 5 + j);
        mc_store_standing_fill(x, y, v_int(r, i, 4), c, now);
    }
    int ok = r != NULL;
    pq_PQclear(r);
    ok = ok && read_past(p, acc->id, past, npast, got_past);
    if (!ok)
        fail(p, err, what);
    pthread_mutex_unlock(&p->lock);
    return ok ? 0 : -1;
}

int mc_pg_bot(mc_pg *p, int level, mc_store_account *acc, mc_error *err)
{
    const char *what = "saving a house bot";
    char name[MC_STORE_NAME_MAX + 1];
    snprintf(name, sizeof name, "bot-level-%d", level);
    if (begin(p, err, what) != 0)
        return -1;
    args a = {0};
    a_text(&a, name);
    a_int(&a, (long long)time(NULL));
    a_int(&a, level);
    int ok =
        cmd(p,
            "INSERT INTO accounts(name, hash, created, bot)"
            " VALUES($1, '-', $2, $3) ON CONFLICT (lower(name)) DO NOTHING",
            &a, NULL) == 0;
    args b = {0};
    a_text(&b, name);
    a_int(&b, level);
    PGresult *r = ok ? run(p,
                           "SELECT id, name, '', created FROM accounts"
                           " WHERE lower(name)=lower($1) AND bot=$2",
                           &b)
                     : NULL;
    /* a person's account of that name (made before bots were): no bot */
    ok = r && pq_PQntuples(r) == 1;
    if (ok)
        read_account(r, 0, 0, acc);
    else if (r)
        snprintf(p->msg, sizeof p->msg, "a person's account is named %s", name);
    pq_PQclear(r);
    return finish(p, ok, err, what);
}

/* ---- rows as text, for the copy ------------------------------------------ */

int mc_pg_raw_begin(mc_pg *p, mc_error *err)
{
    const char *what = "copying";
    if (begin(p, err, what) != 0)
        return -1;
    if (cmd(p, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", NULL, NULL) ==
        0)
        return 0;
    return finish(p, 0, err, what);
}

int mc_pg_raw_end(mc_pg *p, int ok, mc_error *err)
{
    return finish(p, ok, err, "copying");
}

int mc_pg_raw_exec(mc_pg *p, const char *sql, int n, const char *const *vals,
                   mc_error *err)
{
    PGresult *r = n >= 0 && n <= 16 ? pq_PQexecParams(p->conn, sql, n, NULL,
                                                      vals, NULL, NULL, 0)
                                    : NULL;
    ExecStatusType st = r ? pq_PQresultStatus(r) : PGRES_FATAL_ERROR;
    int ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
    if (!ok)
        note(p, r);
    pq_PQclear(r);
    return ok ? 0 : fail(p, err, "copying");
}

int mc_pg_raw_rows(mc_pg *p, const char *sql,
                   int (*row)(void *ctx, const char *const *vals), void *ctx,
                   mc_error *err)
{
    PGresult *r = run(p, sql, NULL);
    if (!r)
        return fail(p, err, "copying");
    const char *vals[32];
    int rows = pq_PQntuples(r), cols = pq_PQnfields(r), stop = 0;
    for (int i = 0; i < rows && cols <= 32 && !stop; i++) {
        for (int c = 0; c < cols; c++)
            vals[c] = val(r, i, c);
        stop = row(ctx, vals);
    }
    pq_PQclear(r);
    return 0;
}

#endif /* MC_HAVE_LIBPQ */
