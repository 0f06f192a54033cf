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
 * opened.  This file: libpq's loading, the connection, the schema, the
 * statements' helpers (store_pg_int.h), the games and the copy's rows;
 * the accounts, sessions and ratings are store_pg_account.c's, the
 * connection strings store_pg_name.c's, and a build without libpq-fe.h
 * has store_pg_none.c instead.
 */
#include "store_pg_int.h"

#ifdef MC_HAVE_LIBPQ

#include <ctype.h>
#include <dlfcn.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    X(PQclear)                                                                 \
    X(PQsocket)                                                                \
    X(PQconsumeInput)                                                          \
    X(PQnotifies)                                                              \
    X(PQfreemem)                                                               \
    X(PQescapeIdentifier)
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

/* libpq's PQntuples and PQclear, for store_pg_account.c (the pointers
   stay here). */
int pg_rows(const PGresult *r)
{
    return pq_PQntuples(r);
}

void pg_clear(PGresult *r)
{
    pq_PQclear(r);
}

/* ---- the store ----------------------------------------------------------- */

/* The schema this program writes (meta.schema), the SQLite store's
   numbering: 4 (the games and seats, their clocks, the accounts and their
   sessions, the ratings and results) is the first that PostgreSQL holds.
   5 adds the takeback asked for, an index of the games by address and
   the trigger that announces every change of a game to the other
   processes (upgrade() takes a schema-4 database there). */
#define SCHEMA 5

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

/* Schema 4 to 5: the takeback asked for (none in a game of schema 4: it
   was in the memory of the server that stopped), the games by address
   (the quota, counted here), and every change of a game announced on the
   channel "mancala.SCHEMA" (the store's schema: several stores in one
   database do not hear each other) as "ID VERSION", "ID -1" when it is
   deleted, at its commit (NOTIFY; mc_pg_listen hears them). */
static const char *const step_4_5 =
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS"
    " tb_side INTEGER NOT NULL DEFAULT -1;"
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS"
    " tb_declined INTEGER NOT NULL DEFAULT 0;"
    "CREATE INDEX IF NOT EXISTS games_addr ON games(addr);"
    "CREATE OR REPLACE FUNCTION mancala_game_changed() RETURNS trigger"
    " LANGUAGE plpgsql AS $f$ BEGIN"
    " IF TG_OP = 'DELETE' THEN"
    "  PERFORM pg_notify('mancala.' || TG_TABLE_SCHEMA, OLD.id || ' -1');"
    " ELSE"
    "  PERFORM pg_notify('mancala.' || TG_TABLE_SCHEMA,"
    "                    NEW.id || ' ' || NEW.version);"
    " END IF;"
    " RETURN NULL; END $f$;"
    "DROP TRIGGER IF EXISTS games_changed ON games;"
    "CREATE TRIGGER games_changed AFTER INSERT OR UPDATE OR DELETE ON games"
    " FOR EACH ROW EXECUTE FUNCTION mancala_game_changed();"
    "UPDATE meta SET value='5' WHERE key='schema';";

void pg_a_text(pg_args *a, const char *s)
{
    a->v[a->n++] = s;
}

void pg_a_int(pg_args *a, long long x)
{
    snprintf(a->num[a->n], sizeof a->num[0], "%lld", x);
    a->v[a->n] = a->num[a->n];
    a->n++;
}

/* Exactly: 17 significant digits read back to the same double. */
void pg_a_real(pg_args *a, double x)
{
    snprintf(a->num[a->n], sizeof a->num[0], "%.17g", x);
    a->v[a->n] = a->num[a->n];
    a->n++;
}

/* An account's id, NULL for none (0). */
static void pg_a_account(pg_args *a, long long id)
{
    if (id > 0)
        pg_a_int(a, id);
    else
        pg_a_text(a, NULL);
}

/* The three clock columns' values (NULL without a clock). */
static void pg_a_clock(pg_args *a, const mc_store_clock *c)
{
    for (int i = 0; i < 3; i++)
        if (c)
            pg_a_real(a, i < 2 ? c->bank[i] : c->since);
        else
            pg_a_text(a, NULL);
}

/* What went wrong (r's error, else the connection's) into p->msg: the
   primary message only (the detail may quote a row's values). */
static void pg_note(mc_pg *p, const PGresult *r)
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

int pg_fail(mc_pg *p, mc_error *err, const char *what)
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
static int pg_connected(mc_pg *p);

static PGresult *exec(mc_pg *p, const char *sql, const pg_args *a)
{
    PGresult *r = pq_PQexecParams(p->conn, sql, a ? a->n : 0, NULL,
                                  a ? a->v : NULL, NULL, NULL, 0);
    ExecStatusType st = r ? pq_PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
        return r;
    pg_note(p, r);
    pq_PQclear(r);
    return NULL;
}

PGresult *pg_run(mc_pg *p, const char *sql, const pg_args *a)
{
    PGresult *r = exec(p, sql, a);
    /* a read (pg_reading: nothing it sends changes anything) that finds
       the connection lost, as the first use after the database restarted
       does, is sent again once on a new connection */
    if (!r && p->reading && pq_PQstatus(p->conn) != CONNECTION_OK &&
        pg_connected(p) == 0)
        r = exec(p, sql, a);
    return r;
}

/* A statement whose rows are not read: 0 (*changed: the rows it changed,
   when not NULL), or -1. */
int pg_cmd(mc_pg *p, const char *sql, const pg_args *a, long long *changed)
{
    PGresult *r = pg_run(p, sql, a);
    if (!r)
        return -1;
    if (changed)
        *changed = atoll(pq_PQcmdTuples(r));
    pq_PQclear(r);
    return 0;
}

/* Fixed statements, several in one text (no parameters): 0, or -1. */
static int pg_script(mc_pg *p, const char *sql)
{
    PGresult *r = pq_PQexec(p->conn, sql);
    ExecStatusType st = r ? pq_PQresultStatus(r) : PGRES_FATAL_ERROR;
    int ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
    if (!ok)
        pg_note(p, r);
    pq_PQclear(r);
    return ok ? 0 : -1;
}

/* A column of a row: NULL when SQL NULL. */
const char *pg_val(const PGresult *r, int row, int col)
{
    return pq_PQgetisnull(r, row, col) ? NULL : pq_PQgetvalue(r, row, col);
}

long long pg_v_int(const PGresult *r, int row, int col)
{
    const char *v = pg_val(r, row, col);
    return v ? strtoll(v, NULL, 10) : 0;
}

double pg_v_real(const PGresult *r, int row, int col)
{
    const char *v = pg_val(r, row, col);
    return v ? strtod(v, NULL) : 0;
}

/* A boolean column ('t'). */
int pg_v_bool(const PGresult *r, int row, int col)
{
    const char *v = pg_val(r, row, col);
    return v && *v == 't';
}

/* The settings of each new connection (and after a reset): no notices
   on the standard error (CREATE ... IF NOT EXISTS), every commit flushed
   before it is answered whatever the server's default, the tests'
   read-only mode. */
static int pg_setup(mc_pg *p)
{
    return pg_script(p, p->readonly
                            ? "SET client_min_messages = warning;"
                              "SET synchronous_commit = on;"
                              "SET default_transaction_read_only = on"
                            : "SET client_min_messages = warning;"
                              "SET synchronous_commit = on;"
                              "SET default_transaction_read_only = off");
}

/* The connection usable, made again once when it was lost (the database
   restarted): 0, or -1 with p->msg. */
static int pg_connected(mc_pg *p)
{
    if (pq_PQstatus(p->conn) == CONNECTION_OK)
        return 0;
    pq_PQreset(p->conn);
    if (pq_PQstatus(p->conn) != CONNECTION_OK) {
        pg_note(p, NULL);
        return -1;
    }
    return pg_setup(p);
}

/* The start of a change: the lock taken and a transaction begun; a
   connection found lost then is made again once (nothing was sent).  0,
   or -1 with err filled and the lock given back. */
int pg_begin(mc_pg *p, mc_error *err, const char *what)
{
    pthread_mutex_lock(&p->lock);
    p->msg[0] = 0;
    p->reading = 0;
    int ok = pg_connected(p) == 0;
    if (ok && pg_cmd(p, "BEGIN", NULL, NULL) != 0)
        ok = pq_PQstatus(p->conn) != CONNECTION_OK && pg_connected(p) == 0 &&
             pg_cmd(p, "BEGIN", NULL, NULL) == 0;
    if (!ok) {
        pg_fail(p, err, what);
        pthread_mutex_unlock(&p->lock);
        return -1;
    }
    return 0;
}

/* The start of a read (no transaction: each is one statement, or reads
   whose order does not matter): the lock, and the connection as begin. */
int pg_reading(mc_pg *p, mc_error *err, const char *what)
{
    pthread_mutex_lock(&p->lock);
    p->msg[0] = 0;
    p->reading = 1;
    if (pg_connected(p) == 0)
        return 0;
    pg_fail(p, err, what);
    pthread_mutex_unlock(&p->lock);
    return -1;
}

/* The end of a change: COMMIT when ok (and the server says it committed),
   else ROLLBACK and the error; the lock given back. */
int pg_finish(mc_pg *p, int ok, mc_error *err, const char *what)
{
    int rc = 0;
    if (ok) {
        PGresult *r = pg_run(p, "COMMIT", NULL);
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
    rc = pg_fail(p, err, what);
    if (pq_PQstatus(p->conn) == CONNECTION_OK)
        pg_cmd(p, "ROLLBACK", NULL, NULL);
    pthread_mutex_unlock(&p->lock);
    return rc;
}

/* The schema made or checked, in one transaction under an advisory lock
   (two servers starting at once): 0, or -1 with p->msg. */
static int upgrade(mc_pg *p)
{
    /* 0x6d616e63616c61: "mancala" */
    if (pg_script(
            p, "BEGIN; SELECT pg_advisory_xact_lock(30787929920252257)") != 0)
        return -1;
    PGresult *r = pg_run(p, "SELECT to_regclass('meta') IS NOT NULL", NULL);
    int have = r && pg_v_bool(r, 0, 0);
    pq_PQclear(r);
    int version = 0;
    if (r && have) {
        r = pg_run(p, "SELECT value FROM meta WHERE key='schema'", NULL);
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
    /* the tables of schema 4, whichever were missing (all of them in a
       new database), then the steps from there */
    ok = ok && pg_script(p, schema) == 0;
    ok = ok && (version >= 5 || pg_script(p, step_4_5) == 0);
    if (ok) {
        r = pg_run(p, "COMMIT", NULL);
        ok = r && strcmp(pq_PQcmdStatus(r), "COMMIT") == 0;
        pq_PQclear(r);
        if (ok)
            return 0;
    }
    pg_cmd(p, "ROLLBACK", NULL, NULL);
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
    p->conninfo = strdup(conninfo);
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
        pg_note(p, NULL);
    ok = ok && pg_setup(p) == 0 && upgrade(p) == 0;
    if (!ok) {
        pg_scrub(p->msg, sizeof p->msg, conninfo);
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

/* ---- the changes of other processes (LISTEN) --------------------------- */

/* The listening connection: made, and listening on the store's channel
   ("mancala." and the connection's first schema, as the trigger of
   step_4_5 names it).  NULL when it cannot be (the database down). */
static PGconn *listen_connect(mc_pg *p)
{
    const char *keys[] = {"application_name", "connect_timeout", "dbname",
                          NULL};
    const char *vals[] = {"mancala serve (changes)", "2",
                          strncmp(p->conninfo, "pg:", 3) == 0 ? p->conninfo + 3
                                                              : p->conninfo,
                          NULL};
    PGconn *c = pq_PQconnectdbParams(keys, vals, 1);
    PGresult *r = NULL;
    int ok = c && pq_PQstatus(c) == CONNECTION_OK &&
             (r = pq_PQexec(c, "SELECT current_schema()")) &&
             pq_PQresultStatus(r) == PGRES_TUPLES_OK && pq_PQntuples(r) == 1 &&
             !pq_PQgetisnull(r, 0, 0);
    char channel[200] = "";
    if (ok)
        snprintf(channel, sizeof channel, "mancala.%s", pq_PQgetvalue(r, 0, 0));
    pq_PQclear(r);
    char *quoted =
        ok ? pq_PQescapeIdentifier(c, channel, strlen(channel)) : NULL;
    char sql[512];
    if (quoted)
        snprintf(sql, sizeof sql, "LISTEN %s", quoted);
    ok = quoted && (r = pq_PQexec(c, sql)) &&
         pq_PQresultStatus(r) == PGRES_COMMAND_OK;
    if (quoted) {
        pq_PQclear(r);
        pq_PQfreemem(quoted);
    }
    if (!ok && c) {
        pq_PQfinish(c);
        c = NULL;
    }
    return c;
}

/* Each change announced: "ID VERSION" to changed(). */
static void heard(mc_pg *p, const char *payload)
{
    char id[80];
    long long version;
    if (sscanf(payload, "%79s %lld", id, &version) == 2)
        (void)p->changed(p->ctx, id, version);
}

static void *listen_loop(void *arg)
{
    mc_pg *p = arg;
    PGconn *c = NULL;
    int resync = 0; /* every game's version to read again */
    while (!atomic_load(&p->stop)) {
        if (!c) {
            c = listen_connect(p);
            if (!c) { /* the database down: again in half a second */
                struct timespec half = {0, 500000000};
                nanosleep(&half, NULL);
                continue;
            }
            /* listening now: whatever changed before (while the
               connection was lost, or since the games were read) is read
               again, until that is done */
            resync = 1;
        }
        if (resync && p->changed(p->ctx, NULL, 0) == 0)
            resync = 0;
        struct pollfd fd = {pq_PQsocket(c), POLLIN, 0};
        if (fd.fd < 0 || poll(&fd, 1, resync ? 500 : 250) < 0 ||
            !pq_PQconsumeInput(c)) {
            pq_PQfinish(c); /* lost: made again */
            c = NULL;
            continue;
        }
        PGnotify *n;
        while ((n = pq_PQnotifies(c))) {
            heard(p, n->extra);
            pq_PQfreemem(n);
        }
    }
    if (c)
        pq_PQfinish(c);
    return NULL;
}

int mc_pg_listen(mc_pg *p,
                 int (*changed)(void *ctx, const char *id, long long version),
                 void *ctx, mc_error *err)
{
    if (p->listening)
        return 0;
    p->changed = changed;
    p->ctx = ctx;
    atomic_store(&p->stop, 0);
    if (pthread_create(&p->listener, NULL, listen_loop, p) != 0) {
        if (err) {
            err->code = MC_ERR_IO;
            snprintf(err->msg, sizeof err->msg,
                     "the game store: no thread to hear other processes");
        }
        return -1;
    }
    p->listening = 1;
    return 0;
}

void mc_pg_close(mc_pg *p)
{
    if (!p)
        return;
    if (p->listening) {
        atomic_store(&p->stop, 1);
        pthread_join(p->listener, NULL);
    }
    free(p->conninfo);
    if (p->conn)
        pq_PQfinish(p->conn);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

void mc_pg_set_readonly(mc_pg *p, int on)
{
    pthread_mutex_lock(&p->lock);
    p->readonly = on;
    if (pg_connected(p) == 0)
        pg_setup(p);
    pthread_mutex_unlock(&p->lock);
}

/* ---- games --------------------------------------------------------------- */

/* The games the store holds, of addr when not NULL: >= 0, or -1. */
static long long count_games(mc_pg *p, const char *addr)
{
    pg_args a = {0};
    if (addr)
        pg_a_text(&a, addr);
    PGresult *r = pg_run(p,
                         addr ? "SELECT count(*) FROM games WHERE addr=$1"
                              : "SELECT count(*) FROM games",
                         &a);
    long long n = r ? pg_v_int(r, 0, 0) : -1;
    pq_PQclear(r);
    return n;
}

/* A change refused (not an error of the database): ROLLBACK, the lock
   given back, err saying why; code returned. */
static int refuse(mc_pg *p, int code, mc_error *err, const char *why)
{
    if (pq_PQstatus(p->conn) == CONNECTION_OK)
        pg_cmd(p, "ROLLBACK", NULL, NULL);
    pthread_mutex_unlock(&p->lock);
    if (err) {
        err->code = MC_ERR_IO;
        snprintf(err->msg, sizeof err->msg, "%s", why);
    }
    return code;
}

int pg_changed(mc_pg *p, mc_error *err)
{
    return refuse(p, MC_STORE_CHANGED, err,
                  "the game was changed by another server process, or "
                  "deleted");
}

int mc_pg_insert(mc_pg *p, const mc_store_game *g, int quota, int most,
                 mc_error *err)
{
    const char *what = "saving a new game";
    if (pg_begin(p, err, what) != 0)
        return -1;
    if (quota > 0 || most > 0) {
        /* the counts exact across processes: one new game at a time
           (0x6d616e63616c62) */
        long long mine = 0, all = 0;
        int ok = pg_cmd(p, "SELECT pg_advisory_xact_lock(30787929920252258)",
                        NULL, NULL) == 0;
        if (ok && quota > 0)
            ok = (mine = count_games(p, g->addr ? g->addr : "")) >= 0;
        if (ok && most > 0)
            ok = (all = count_games(p, NULL)) >= 0;
        if (!ok)
            return pg_finish(p, 0, err, what);
        if (quota > 0 && mine >= quota)
            return refuse(p, MC_STORE_QUOTA, err,
                          "the address holds its quota of games");
        if (most > 0 && all >= most)
            return refuse(p, MC_STORE_FULL, err, "the store is full");
    }
    pg_args a = {0};
    pg_a_text(&a, g->id);
    pg_a_text(&a, g->record);
    pg_a_int(&a, g->version);
    pg_a_int(&a, g->over);
    pg_a_int(&a, g->created);
    pg_a_int(&a, g->touched);
    pg_a_text(&a, g->addr ? g->addr : "");
    pg_a_clock(&a, &g->clock);
    pg_a_int(&a, g->rated != 0);
    int ok = pg_cmd(p,
                    "INSERT INTO games(id, record, version, over, created,"
                    " touched, addr, clock_s, clock_n, clock_since, rated)"
                    " VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)",
                    &a, NULL) == 0;
    for (int side = 0; ok && side < 2; side++) {
        pg_args b = {0};
        pg_a_text(&b, g->id);
        pg_a_int(&b, side);
        pg_a_text(&b, g->token[side]);
        pg_a_text(&b, g->invite[side]);
        pg_a_int(&b, (g->owner >> side) & 1);
        pg_a_account(&b, g->account[side]);
        ok = pg_cmd(p,
                    "INSERT INTO seats(game, side, token, invite, owner,"
                    " account) VALUES($1,$2,$3,$4,$5,$6)",
                    &b, NULL) == 0;
    }
    return pg_finish(p, ok, err, what);
}

int pg_update_game(mc_pg *p, const char *id, const char *record,
                   long long version, int over, long long touched,
                   const mc_store_clock *clock, const mc_store_takeback *tb)
{
    pg_args a = {0};
    pg_a_text(&a, record);
    pg_a_int(&a, version);
    pg_a_int(&a, over);
    pg_a_int(&a, touched);
    pg_a_clock(&a, clock);
    pg_a_text(&a, id);
    pg_a_int(&a, tb ? tb->side : -1);
    pg_a_int(&a, tb ? tb->declined : 0);
    long long n = 0;
    /* the row locked by the first of two processes changing it at once:
       the second's WHERE is read again once the first commits */
    if (pg_cmd(p,
               "UPDATE games SET record=$1, version=$2, over=$3,"
               " touched=$4, clock_s=$5, clock_n=$6, clock_since=$7,"
               " tb_side=$9, tb_declined=$10 WHERE id=$8 AND version<$2",
               &a, &n) != 0)
        return -1;
    return n == 1;
}

int mc_pg_update(mc_pg *p, const char *id, const char *record,
                 long long version, int over, long long touched,
                 const mc_store_clock *clock, const mc_store_takeback *tb,
                 mc_error *err)
{
    const char *what = "saving a move";
    if (pg_begin(p, err, what) != 0)
        return -1;
    int rc = pg_update_game(p, id, record, version, over, touched, clock, tb);
    if (rc == 0)
        return pg_changed(p, err);
    return pg_finish(p, rc == 1, err, what);
}

int mc_pg_seat(mc_pg *p, const char *id, int side, const char *token,
               long long account, long long version, long long touched,
               mc_error *err)
{
    const char *what = "saving a seat";
    if (pg_begin(p, err, what) != 0)
        return -1;
    pg_args v = {0};
    pg_a_int(&v, version);
    pg_a_int(&v, touched);
    pg_a_text(&v, id);
    long long changed = 0;
    if (pg_cmd(p,
               "UPDATE games SET version=$1, touched=$2 WHERE id=$3 AND"
               " version<$1",
               &v, &changed) != 0)
        return pg_finish(p, 0, err, what);
    if (changed != 1)
        return pg_changed(p, err);
    pg_args a = {0};
    pg_a_text(&a, token);
    pg_a_account(&a, account);
    pg_a_text(&a, id);
    pg_a_int(&a, side);
    long long n = 0;
    int ok = pg_cmd(p,
                    "UPDATE seats SET token=$1, invite=NULL, account=$2"
                    " WHERE game=$3 AND side=$4",
                    &a, &n) == 0 &&
             n == 1;
    if (!ok && !p->msg[0])
        snprintf(p->msg, sizeof p->msg, "no such seat");
    return pg_finish(p, ok, err, what);
}

int mc_pg_delete(mc_pg *p, const char *id, mc_error *err)
{
    const char *what = "deleting a game";
    if (pg_begin(p, err, what) != 0)
        return -1;
    pg_args a = {0};
    pg_a_text(&a, id);
    long long n = 0;
    int ok = pg_cmd(p, "DELETE FROM games WHERE id=$1", &a, &n) == 0 && n == 1;
    if (!ok && !p->msg[0])
        snprintf(p->msg, sizeof p->msg, "no such game");
    return pg_finish(p, ok, err, what);
}

/* The clock columns from col on; NULL (none kept) reads as not known. */
static void pg_read_clock(const PGresult *r, int row, int col,
                          mc_store_clock *c)
{
    c->known = 1;
    for (int k = 0; k < 3; k++)
        c->known &= !pq_PQgetisnull(r, row, col + k);
    for (int k = 0; k < 2; k++)
        c->bank[k] = c->known ? pg_v_real(r, row, col + k) : 0;
    c->since = c->known ? pg_v_real(r, row, col + 2) : -1;
}

/* What a kept result did (RESULT_COLS from col on): 1, or 0 when there is
   none (no row joined). */
int pg_read_change(const PGresult *r, int row, int col, mc_store_change *ch)
{
    memset(ch, 0, sizeof *ch);
    if (pq_PQgetisnull(r, row, col))
        return 0;
    ch->aborted = (int)pg_v_int(r, row, col + 1);
    if (ch->aborted)
        return 1;
    ch->score = pg_v_real(r, row, col + 2);
    for (int side = 0; side < 2; side++) {
        int c = col + 3 + 4 * side;
        mc_rating x = {pg_v_real(r, row, c), pg_v_real(r, row, c + 1), 0.06};
        mc_rating y = {pg_v_real(r, row, c + 2), pg_v_real(r, row, c + 3),
                       0.06};
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

int mc_pg_each(mc_pg *p, const char *id,
               int (*each)(void *ctx, const mc_store_game *g), void *ctx,
               mc_error *err)
{
    const char *what = id ? "reading a game" : "reading the games";
    if (pg_reading(p, err, what) != 0)
        return -1;
    pg_args q = {0};
    if (id)
        pg_a_text(&q, id);
    PGresult *r = pg_run(p, id ? GAMES_SELECT_ONE : GAMES_SELECT, &q);
    if (!r)
        pg_fail(p, err, what);
    int rows = r ? pq_PQntuples(r) : 0;
    for (int i = 0; i < rows; i++) {
        mc_store_game g;
        g.id = pg_val(r, i, 0);
        g.record = pg_val(r, i, 1);
        g.version = pg_v_int(r, i, 2);
        g.over = (int)pg_v_int(r, i, 3);
        g.created = pg_v_int(r, i, 4);
        g.touched = pg_v_int(r, i, 5);
        g.addr = pg_val(r, i, 6);
        g.owner = 0;
        for (int side = 0; side < 2; side++) {
            g.token[side] = pg_val(r, i, 7 + 3 * side);
            g.invite[side] = pg_val(r, i, 8 + 3 * side);
            g.owner |= ((int)pg_v_int(r, i, 9 + 3 * side) & 1) << side;
        }
        pg_read_clock(r, i, 13, &g.clock);
        for (int side = 0; side < 2; side++) {
            g.account[side] = pg_v_int(r, i, 16 + 2 * side);
            g.player[side] = pg_val(r, i, 17 + 2 * side);
        }
        g.rated = (int)pg_v_int(r, i, 20);
        g.ended = pg_read_change(r, i, 21, &g.change);
        for (int side = 0; side < 2; side++)
            g.bot[side] = (int)pg_v_int(r, i, 32 + side);
        g.tb.side = (int)pg_v_int(r, i, 34);
        g.tb.declined = (int)pg_v_int(r, i, 35);
        if (g.id && g.record && each(ctx, &g) != 0)
            break;
    }
    pq_PQclear(r);
    pthread_mutex_unlock(&p->lock);
    return !r ? -1 : id && rows == 0 ? 1 : 0;
}

int mc_pg_versions(mc_pg *p,
                   int (*each)(void *ctx, const char *id, long long version),
                   void *ctx, mc_error *err)
{
    const char *what = "reading the games' versions";
    if (pg_reading(p, err, what) != 0)
        return -1;
    PGresult *r = pg_run(p, GAMES_VERSIONS, NULL);
    if (!r)
        pg_fail(p, err, what);
    int rows = r ? pq_PQntuples(r) : 0;
    for (int i = 0; i < rows; i++) {
        const char *id = pg_val(r, i, 0);
        if (id && each(ctx, id, pg_v_int(r, i, 1)) != 0)
            break;
    }
    pq_PQclear(r);
    pthread_mutex_unlock(&p->lock);
    return r ? 0 : -1;
}

/* ---- rows as text, for the copy ------------------------------------------ */

int mc_pg_raw_begin(mc_pg *p, mc_error *err)
{
    const char *what = "copying";
    if (pg_begin(p, err, what) != 0)
        return -1;
    if (pg_cmd(p, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", NULL,
               NULL) == 0)
        return 0;
    return pg_finish(p, 0, err, what);
}

int mc_pg_raw_end(mc_pg *p, int ok, mc_error *err)
{
    return pg_finish(p, ok, err, "copying");
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
        pg_note(p, r);
    pq_PQclear(r);
    return ok ? 0 : pg_fail(p, err, "copying");
}

int mc_pg_raw_rows(mc_pg *p, const char *sql,
                   int (*row)(void *ctx, const char *const *vals), void *ctx,
                   mc_error *err)
{
    PGresult *r = pg_run(p, sql, NULL);
    if (!r)
        return pg_fail(p, err, "copying");
    const char *vals[32];
    int rows = pq_PQntuples(r), cols = pq_PQnfields(r), stop = 0;
    for (int i = 0; i < rows && cols <= 32 && !stop; i++) {
        for (int c = 0; c < cols; c++)
            vals[c] = pg_val(r, i, c);
        stop = row(ctx, vals);
    }
    pq_PQclear(r);
    return 0;
}

#endif /* MC_HAVE_LIBPQ */
