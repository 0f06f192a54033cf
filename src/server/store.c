/*
 * store.c - the SQLite database of `mancala serve` (store.h).  WAL mode with
 * synchronous=FULL: a committed change survives a crash of the program
 * (kill -9) and of the machine; a change that fails to commit is rolled
 * back whole and reported, so the server never acknowledges a move the
 * database does not hold.  Knows nothing about games: records are text.
 * This file: the database opened and brought to the schema, the
 * statements' helpers (store_int.h) and the games; the accounts, sessions
 * and ratings are store_account.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rating.h"
#include "store_int.h"
#include "store_pg.h"

/* The schema this program writes (meta.schema): 1 the games and seats, 2
   the clocks, 3 the accounts and their sessions, and the account of each
   seat, 4 the ratings, the rated games' results and whether a game is
   rated, 5 the takeback asked for in a game (kept so that every server
   process of a shared store knows it) and an index of the games by
   address (the quota, counted in the store). */
#define SCHEMA 5

/* A new database's tables, as schema 4 has them; in an older one, the
   tables it lacks (its own are then brought up to date by the steps
   below). */
static const char *const schema =
    "CREATE TABLE IF NOT EXISTS games("
    " id TEXT PRIMARY KEY,"
    " record TEXT NOT NULL," /* the export format: every round, every move */
    " version INTEGER NOT NULL,"
    " over INTEGER NOT NULL,"    /* the game (the match) is finished */
    " created INTEGER NOT NULL," /* seconds since 1970 */
    " touched INTEGER NOT NULL,"
    " addr TEXT NOT NULL,"         /* who created it (the per-address quota) */
    " clock_s REAL, clock_n REAL," /* each side's time left at clock_since */
    " clock_since REAL,"           /* when the turn to move began (1970 s) */
    " rated INTEGER NOT NULL DEFAULT 0);" /* ends in a rating (the lobby) */
    "CREATE TABLE IF NOT EXISTS seats("
    " game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
    " side INTEGER NOT NULL CHECK(side IN (0, 1)),"
    " token TEXT,"             /* NULL until the seat is taken */
    " invite TEXT,"            /* an open invitation to the seat */
    " owner INTEGER NOT NULL," /* the creator holds it (may delete) */
    " account INTEGER,"        /* the account holding it: accounts.id, kept
                                  when the account is deleted; NULL: none */
    " PRIMARY KEY(game, side));"
    /* AUTOINCREMENT: an id is never given again, so that a seat of a
       deleted account never names a newer one */
    "CREATE TABLE IF NOT EXISTS accounts("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " name TEXT NOT NULL UNIQUE COLLATE NOCASE,"
    " hash TEXT NOT NULL," /* crypto_pwhash_str: argon2id, salt, limits */
    " created INTEGER NOT NULL,"
    " bot INTEGER NOT NULL DEFAULT 0);" /* a house bot's level (no hash) */
    "CREATE TABLE IF NOT EXISTS sessions("
    " digest TEXT PRIMARY KEY," /* of the token (never the token) */
    " account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,"
    " created INTEGER NOT NULL,"
    " expires INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account);"
    /* an account's rating for one game (kind: the rules' name), as its
       last rated game left it (the time away since grows rd when read) */
    "CREATE TABLE IF NOT EXISTS ratings("
    " account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,"
    " kind TEXT NOT NULL,"
    " r REAL NOT NULL, rd REAL NOT NULL, vol REAL NOT NULL,"
    " last INTEGER NOT NULL," /* the last rated game's end (1970 s) */
    " games INTEGER NOT NULL, wins INTEGER NOT NULL,"
    " draws INTEGER NOT NULL, losses INTEGER NOT NULL,"
    " PRIMARY KEY(account, kind));"
    /* the end of each rated game, written with the ratings it changed;
       kept when the game expires or an account is deleted (its id stays,
       like a seat's), so that a player's last games outlive them */
    "CREATE TABLE IF NOT EXISTS results("
    " game TEXT PRIMARY KEY,"
    " kind TEXT NOT NULL,"
    " ended INTEGER NOT NULL,"
    " south INTEGER NOT NULL, north INTEGER NOT NULL," /* accounts.id */
    " aborted INTEGER NOT NULL," /* ended too soon: not rated */
    " score REAL,"               /* South's: 1, 0.5, 0 (NULL aborted) */
    " s_before REAL, s_rd_before REAL, s_after REAL, s_rd_after REAL,"
    " n_before REAL, n_rd_before REAL, n_after REAL, n_rd_after REAL);"
    "CREATE INDEX IF NOT EXISTS results_south ON results(south, ended);"
    "CREATE INDEX IF NOT EXISTS results_north ON results(north, ended);"
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);"
    "INSERT OR IGNORE INTO meta VALUES('schema', '4');";

/* Schema 1 (before the clocks) lacks the three clock columns: they are
   added, NULL (no clock kept: the clocks of such games wait for their next
   move). */
static const char *const migrate_1_2 =
    "BEGIN IMMEDIATE;"
    "ALTER TABLE games ADD COLUMN clock_s REAL;"
    "ALTER TABLE games ADD COLUMN clock_n REAL;"
    "ALTER TABLE games ADD COLUMN clock_since REAL;"
    "UPDATE meta SET value='2' WHERE key='schema';"
    "COMMIT;";

/* Schema 2 (before the accounts) lacks the seats' account (the tables of
   accounts and sessions are made by `schema`): added, NULL (no seat of an
   older game is an account's). */
static const char *const migrate_2_3 =
    "BEGIN IMMEDIATE;"
    "ALTER TABLE seats ADD COLUMN account INTEGER;"
    "UPDATE meta SET value='3' WHERE key='schema';"
    "COMMIT;";

/* Schema 3 (before the ratings) lacks the games' rated flag (the tables
   of ratings and results are made by `schema`): added, 0 (no older game
   was rated); and the accounts' bot column (0: a person), added apart
   (an older database whose accounts table `schema` just made has it). */
static const char *const migrate_3_4 =
    "BEGIN IMMEDIATE;"
    "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;"
    "UPDATE meta SET value='4' WHERE key='schema';"
    "COMMIT;";

/* Schema 4 lacks the takeback asked for: none (a takeback asked before
   the upgrade was in the memory of the server that stopped). */
static const char *const migrate_4_5 =
    "BEGIN IMMEDIATE;"
    "ALTER TABLE games ADD COLUMN tb_side INTEGER NOT NULL DEFAULT -1;"
    "ALTER TABLE games ADD COLUMN tb_declined INTEGER NOT NULL DEFAULT 0;"
    "UPDATE meta SET value='5' WHERE key='schema';"
    "COMMIT;";

/* After the steps, whatever the version was. */
static const char *const schema_end =
    "CREATE INDEX IF NOT EXISTS seats_account ON seats(account);"
    "CREATE INDEX IF NOT EXISTS games_addr ON games(addr);"
    "UPDATE meta SET value='5' WHERE key='schema' AND"
    " CAST(value AS INTEGER) < 5;";

/* Does table have the column? */
static int has_column(sqlite3 *db, const char *table, const char *col)
{
    sqlite3_stmt *st = NULL;
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA table_info(%s)", table);
    int found = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK)
        while (!found && sqlite3_step(st) == SQLITE_ROW) {
            const unsigned char *n = sqlite3_column_text(st, 1);
            found = n && strcmp((const char *)n, col) == 0;
        }
    sqlite3_finalize(st);
    return found;
}

/* The schema version the database says it has (0: none said). */
static int schema_of(sqlite3 *db)
{
    sqlite3_stmt *st = NULL;
    int v = 0;
    if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key='schema'", -1,
                           &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* The database brought to SCHEMA: 0, or -1 with *msg (sqlite3_malloc'd)
   or *why (static) saying why not. */
static int upgrade(sqlite3 *db, char **msg, const char **why)
{
    /* a newer program's database is left as it is */
    if (schema_of(db) > SCHEMA) {
        *why = "it was written by a newer mancala (a later schema): "
               "use that one";
        return -1;
    }
    if (sqlite3_exec(db, schema, NULL, NULL, msg) != SQLITE_OK)
        return -1;
    /* each step where its columns are missing, whatever meta says */
    if (!has_column(db, "games", "clock_since") &&
        sqlite3_exec(db, migrate_1_2, NULL, NULL, msg) != SQLITE_OK)
        return -1;
    if (!has_column(db, "seats", "account") &&
        sqlite3_exec(db, migrate_2_3, NULL, NULL, msg) != SQLITE_OK)
        return -1;
    if (!has_column(db, "games", "rated") &&
        sqlite3_exec(db, migrate_3_4, NULL, NULL, msg) != SQLITE_OK)
        return -1;
    if (!has_column(db, "games", "tb_side") &&
        sqlite3_exec(db, migrate_4_5, NULL, NULL, msg) != SQLITE_OK)
        return -1;
    if (!has_column(db, "accounts", "bot") &&
        sqlite3_exec(db,
                     "ALTER TABLE accounts ADD COLUMN bot INTEGER NOT NULL"
                     " DEFAULT 0",
                     NULL, NULL, msg) != SQLITE_OK)
        return -1;
    return sqlite3_exec(db, schema_end, NULL, NULL, msg) == SQLITE_OK ? 0 : -1;
}

int sq_fail(mc_store *s, mc_error *err, const char *what)
{
    if (err) {
        err->code = MC_ERR_IO;
        snprintf(err->msg, sizeof err->msg, "the game store: %s: %s", what,
                 s && s->db ? sqlite3_errmsg(s->db) : "cannot open");
    }
    return -1;
}

mc_store *mc_store_open(const char *path, mc_error *err)
{
    mc_store *s = calloc(1, sizeof *s);
    if (!s) {
        if (err)
            err->code = MC_ERR_IO,
            snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    if (mc_pg_is_conninfo(path)) {
        if (!(s->pg = mc_pg_open(path, err)))
            mc_store_close(s), s = NULL;
        return s;
    }
    if (path) {
        /* Created private: the seats' tokens are in it.  SQLite gives its
           -wal and -shm files the database's mode. */
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        /* and made private when it was not (an older or copied file):
           group and others lose every right */
        struct stat st;
        if (fd >= 0 && fstat(fd, &st) == 0 && (st.st_mode & 077))
            fchmod(fd, st.st_mode & 0700);
        if (fd < 0) {
            if (err) {
                err->code = MC_ERR_IO;
                snprintf(err->msg, sizeof err->msg, "cannot open %s: %s", path,
                         strerror(errno));
            }
            mc_store_close(s);
            return NULL;
        }
        close(fd);
    }
    int rc = sqlite3_open_v2(path ? path : ":memory:", &s->db,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                 SQLITE_OPEN_FULLMUTEX,
                             NULL);
    char *msg = NULL;
    const char *why = NULL;
    if (rc == SQLITE_OK)
        sqlite3_busy_timeout(s->db, 5000);
    if (rc != SQLITE_OK ||
        sqlite3_exec(s->db,
                     "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                     "PRAGMA foreign_keys=ON;",
                     NULL, NULL, &msg) != SQLITE_OK ||
        upgrade(s->db, &msg, &why) != 0) {
        if (s->db)
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        if (err) {
            err->code = MC_ERR_IO;
            snprintf(err->msg, sizeof err->msg,
                     "cannot open the game store %s: %s",
                     path ? path : "(memory)",
                     why     ? why
                     : msg   ? msg
                     : s->db ? sqlite3_errmsg(s->db)
                             : "failed");
        }
        sqlite3_free(msg);
        mc_store_close(s);
        return NULL;
    }
    struct stat st;
    if (path && (!(s->path = strdup(path)) || stat(path, &st) != 0)) {
        if (err) {
            err->code = MC_ERR_IO;
            snprintf(err->msg, sizeof err->msg, "cannot open %s", path);
        }
        mc_store_close(s);
        return NULL;
    }
    if (path) {
        s->dev = st.st_dev;
        s->ino = st.st_ino;
        size_t n = strlen(path) + 5;
        s->wal = malloc(n);
        if (s->wal)
            snprintf(s->wal, n, "%s-wal", path);
    }
    return s;
}

void mc_store_close(mc_store *s)
{
    if (!s)
        return;
    if (s->db)
        sqlite3_close(s->db);
    mc_pg_close(s->pg);
    free(s->path);
    free(s->wal);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

int sq_run(mc_store *s, const char *sql)
{
    return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

/* Prepare sql; bind is done by the caller. */
sqlite3_stmt *sq_prep(mc_store *s, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
        return NULL;
    return st;
}

void sq_bind_text(sqlite3_stmt *st, int i, const char *v)
{
    if (v)
        sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

/* An account's id, NULL for none (0). */
static void bind_account(sqlite3_stmt *st, int i, long long id)
{
    if (id > 0)
        sqlite3_bind_int64(st, i, id);
    else
        sqlite3_bind_null(st, i);
}

/* Step a statement to its end and finalize it: 0 when done. */
int sq_step_done(sqlite3_stmt *st)
{
    int rc = st ? sqlite3_step(st) : SQLITE_ERROR;
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* The end of a transaction: COMMIT when ok, else ROLLBACK and the error. */
int sq_finish(mc_store *s, int ok, mc_error *err, const char *what)
{
    int rc = 0;
    if (ok && sq_run(s, "COMMIT") == 0) {
        rc = 0;
    } else {
        rc = sq_fail(s, err, what);
        sq_run(s, "ROLLBACK");
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

int sq_begin(mc_store *s, mc_error *err, const char *what)
{
    pthread_mutex_lock(&s->lock);
    /* SQLite writes on through its open descriptor when the file (or its
       folder) is removed or replaced: such changes would be gone at the
       next start, so they are refused instead. */
    struct stat st;
    const char *gone = NULL, *which = NULL; /* the file gone, in words */
    /* The write-ahead log, the same: known once it exists, refused if it
       goes or is replaced (its moves not yet in the main file would be lost
       at the next kill). */
    if (s->wal) {
        if (stat(s->wal, &st) == 0) {
            if (!s->wal_known) {
                s->wal_known = 1;
                s->wal_dev = st.st_dev;
                s->wal_ino = st.st_ino;
            } else if (st.st_dev != s->wal_dev || st.st_ino != s->wal_ino) {
                gone = s->wal, which = "the database's log";
            }
        } else if (s->wal_known) {
            gone = s->wal, which = "the database's log";
        }
    }
    if (!gone && s->path &&
        (stat(s->path, &st) != 0 || st.st_dev != s->dev || st.st_ino != s->ino))
        gone = s->path, which = "the database";
    if (gone) {
        if (err) {
            err->code = MC_ERR_IO;
            snprintf(err->msg, sizeof err->msg,
                     "the game store: %s: %s %s was removed or replaced "
                     "while the server ran",
                     what, which, gone);
        }
        pthread_mutex_unlock(&s->lock);
        return -1;
    }
    if (sq_run(s, "BEGIN IMMEDIATE") != 0) {
        sq_fail(s, err, what);
        pthread_mutex_unlock(&s->lock);
        return -1;
    }
    return 0;
}

/* The games the store holds, of addr when not NULL: >= 0, or -1. */
static long long count_games(mc_store *s, const char *addr)
{
    sqlite3_stmt *st = sq_prep(s, addr ? "SELECT count(*) FROM games"
                                         " WHERE addr=?"
                                       : "SELECT count(*) FROM games");
    if (st && addr)
        sq_bind_text(st, 1, addr);
    long long n =
        st && sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return n;
}

int sq_refuse(mc_store *s, int code, mc_error *err, const char *why)
{
    sq_run(s, "ROLLBACK");
    pthread_mutex_unlock(&s->lock);
    if (err) {
        err->code = MC_ERR_IO;
        snprintf(err->msg, sizeof err->msg, "%s", why);
    }
    return code;
}

int mc_store_insert(mc_store *s, const mc_store_game *g, int quota, int most,
                    mc_error *err)
{
    if (s->pg)
        return mc_pg_insert(s->pg, g, quota, most, err);
    if (sq_begin(s, err, "saving a new game") != 0)
        return -1;
    long long mine = quota > 0 ? count_games(s, g->addr ? g->addr : "") : 0;
    long long all = most > 0 ? count_games(s, NULL) : 0;
    if (mine < 0 || all < 0)
        return sq_finish(s, 0, err, "saving a new game");
    if (quota > 0 && mine >= quota)
        return sq_refuse(s, MC_STORE_QUOTA, err,
                         "the address holds its quota of games");
    if (most > 0 && all >= most)
        return sq_refuse(s, MC_STORE_FULL, err, "the store is full");
    sqlite3_stmt *st = sq_prep(s, "INSERT INTO games(id, record, version, over,"
                                  " created, touched, addr, clock_s, clock_n,"
                                  " clock_since, rated)"
                                  " VALUES(?,?,?,?,?,?,?,?,?,?,?)");
    if (st) {
        sq_bind_text(st, 1, g->id);
        sq_bind_text(st, 2, g->record);
        sqlite3_bind_int64(st, 3, g->version);
        sqlite3_bind_int(st, 4, g->over);
        sqlite3_bind_int64(st, 5, g->created);
        sqlite3_bind_int64(st, 6, g->touched);
        sq_bind_text(st, 7, g->addr ? g->addr : "");
        sqlite3_bind_double(st, 8, g->clock.bank[0]);
        sqlite3_bind_double(st, 9, g->clock.bank[1]);
        sqlite3_bind_double(st, 10, g->clock.since);
        sqlite3_bind_int(st, 11, g->rated != 0);
    }
    int ok = sq_step_done(st) == 0;
    for (int side = 0; ok && side < 2; side++) {
        st = sq_prep(s, "INSERT INTO seats(game, side, token, invite, owner,"
                        " account) VALUES(?,?,?,?,?,?)");
        if (st) {
            sq_bind_text(st, 1, g->id);
            sqlite3_bind_int(st, 2, side);
            sq_bind_text(st, 3, g->token[side]);
            sq_bind_text(st, 4, g->invite[side]);
            sqlite3_bind_int(st, 5, (g->owner >> side) & 1);
            bind_account(st, 6, g->account[side]);
        }
        ok = sq_step_done(st) == 0;
    }
    return sq_finish(s, ok, err, "saving a new game");
}

/* One statement changing exactly one row of games, in a transaction. */
static int change_one(mc_store *s, sqlite3_stmt *st, mc_error *err,
                      const char *what)
{
    int ok = sq_step_done(st) == 0 && sqlite3_changes(s->db) == 1;
    return sq_finish(s, ok, err, what);
}

int sq_update_game(mc_store *s, const char *id, const char *record,
                   long long version, int over, long long touched,
                   const mc_store_clock *clock, const mc_store_takeback *tb)
{
    sqlite3_stmt *st =
        sq_prep(s, "UPDATE games SET record=?, version=?, over=?, touched=?,"
                   " clock_s=?, clock_n=?, clock_since=?, tb_side=?,"
                   " tb_declined=? WHERE id=? AND version<?2");
    if (st) {
        sq_bind_text(st, 1, record);
        sqlite3_bind_int64(st, 2, version);
        sqlite3_bind_int(st, 3, over);
        sqlite3_bind_int64(st, 4, touched);
        for (int i = 0; i < 3; i++)
            if (clock)
                sqlite3_bind_double(st, 5 + i,
                                    i < 2 ? clock->bank[i] : clock->since);
            else
                sqlite3_bind_null(st, 5 + i);
        sqlite3_bind_int(st, 8, tb ? tb->side : -1);
        sqlite3_bind_int(st, 9, tb ? tb->declined : 0);
        sq_bind_text(st, 10, id);
    }
    if (sq_step_done(st) != 0)
        return -1;
    return sqlite3_changes(s->db) == 1;
}

int sq_changed(mc_store *s, mc_error *err)
{
    return sq_refuse(s, MC_STORE_CHANGED, err,
                     "the game was changed by another server process, or "
                     "deleted");
}

int mc_store_update(mc_store *s, const char *id, const char *record,
                    long long version, int over, long long touched,
                    const mc_store_clock *clock, const mc_store_takeback *tb,
                    mc_error *err)
{
    if (s->pg)
        return mc_pg_update(s->pg, id, record, version, over, touched, clock,
                            tb, err);
    if (sq_begin(s, err, "saving a move") != 0)
        return -1;
    int rc = sq_update_game(s, id, record, version, over, touched, clock, tb);
    if (rc == 0)
        return sq_changed(s, err);
    return sq_finish(s, rc == 1, err, "saving a move");
}

int mc_store_seat(mc_store *s, const char *id, int side, const char *token,
                  long long account, long long version, long long touched,
                  mc_error *err)
{
    if (s->pg)
        return mc_pg_seat(s->pg, id, side, token, account, version, touched,
                          err);
    if (sq_begin(s, err, "saving a seat") != 0)
        return -1;
    sqlite3_stmt *st =
        sq_prep(s, "UPDATE games SET version=?, touched=? WHERE id=? AND"
                   " version<?1");
    if (st) {
        sqlite3_bind_int64(st, 1, version);
        sqlite3_bind_int64(st, 2, touched);
        sq_bind_text(st, 3, id);
    }
    if (sq_step_done(st) != 0)
        return sq_finish(s, 0, err, "saving a seat");
    if (sqlite3_changes(s->db) != 1)
        return sq_changed(s, err);
    st = sq_prep(s, "UPDATE seats SET token=?, invite=NULL,"
                    " account=? WHERE game=? AND side=?");
    if (st) {
        sq_bind_text(st, 1, token);
        bind_account(st, 2, account);
        sq_bind_text(st, 3, id);
        sqlite3_bind_int(st, 4, side);
    }
    int ok = sq_step_done(st) == 0 && sqlite3_changes(s->db) == 1;
    return sq_finish(s, ok, err, "saving a seat");
}

int mc_store_delete(mc_store *s, const char *id, mc_error *err)
{
    if (s->pg)
        return mc_pg_delete(s->pg, id, err);
    if (sq_begin(s, err, "deleting a game") != 0)
        return -1;
    sqlite3_stmt *st = sq_prep(s, "DELETE FROM games WHERE id=?");
    if (st)
        sq_bind_text(st, 1, id);
    return change_one(s, st, err, "deleting a game");
}

const char *sq_col_text(sqlite3_stmt *st, int i)
{
    return (const char *)sqlite3_column_text(st, i);
}

/* The three clock columns from column i on; NULL (a game stored before
   the clocks were) reads as not known. */
static void read_clock(sqlite3_stmt *st, int i, mc_store_clock *c)
{
    c->known = 1;
    for (int k = 0; k < 3; k++)
        c->known &= sqlite3_column_type(st, i + k) != SQLITE_NULL;
    for (int k = 0; k < 2; k++)
        c->bank[k] = c->known ? sqlite3_column_double(st, i + k) : 0;
    c->since = c->known ? sqlite3_column_double(st, i + 2) : -1;
}

/* What a kept result did (its columns from i on, RESULT_COLS): 1, or 0
   when there is none (a NULL game: no row joined). */
int sq_read_change(sqlite3_stmt *st, int i, mc_store_change *ch)
{
    memset(ch, 0, sizeof *ch);
    if (sqlite3_column_type(st, i) == SQLITE_NULL)
        return 0;
    ch->aborted = sqlite3_column_int(st, i + 1);
    if (ch->aborted)
        return 1;
    ch->score = sqlite3_column_double(st, i + 2);
    for (int side = 0; side < 2; side++) {
        int c = i + 3 + 4 * side;
        ch->before[side] = sqlite3_column_double(st, c);
        ch->rd_before[side] = sqlite3_column_double(st, c + 1);
        ch->after[side] = sqlite3_column_double(st, c + 2);
        ch->rd_after[side] = sqlite3_column_double(st, c + 3);
        mc_rating x = {ch->before[side], ch->rd_before[side], 0.06};
        mc_rating y = {ch->after[side], ch->rd_after[side], 0.06};
        ch->shown_before[side] = mc_rating_shown(x.r);
        ch->shown_after[side] = mc_rating_shown(y.r);
        ch->change[side] = ch->shown_after[side] - ch->shown_before[side];
        ch->prov_before[side] = mc_rating_provisional(&x, NULL);
        ch->prov_after[side] = mc_rating_provisional(&y, NULL);
    }
    return 1;
}

/* Every game, or the game id (not NULL): each(ctx, g) for each.  0 (*n:
   how many), or -1 with err filled. */
static int read_games(mc_store *s, const char *id,
                      int (*each)(void *ctx, const mc_store_game *g), void *ctx,
                      int *n, mc_error *err)
{
    *n = 0;
    pthread_mutex_lock(&s->lock);
    /* The two seats joined to their game, and their accounts' names: one
       row a game. */
    sqlite3_stmt *st = sq_prep(s, id ? GAMES_SELECT_ONE : GAMES_SELECT);
    if (st && id)
        sq_bind_text(st, 1, id);
    int rc = st ? SQLITE_ROW : SQLITE_ERROR, stop = 0;
    while (st && !stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        mc_store_game g;
        g.id = sq_col_text(st, 0);
        g.record = sq_col_text(st, 1);
        g.version = sqlite3_column_int64(st, 2);
        g.over = sqlite3_column_int(st, 3);
        g.created = sqlite3_column_int64(st, 4);
        g.touched = sqlite3_column_int64(st, 5);
        g.addr = sq_col_text(st, 6);
        g.owner = 0;
        for (int side = 0; side < 2; side++) {
            g.token[side] = sq_col_text(st, 7 + 3 * side);
            g.invite[side] = sq_col_text(st, 8 + 3 * side);
            g.owner |= (sqlite3_column_int(st, 9 + 3 * side) & 1) << side;
        }
        read_clock(st, 13, &g.clock);
        for (int side = 0; side < 2; side++) {
            g.account[side] = sqlite3_column_int64(st, 16 + 2 * side);
            g.player[side] = sq_col_text(st, 17 + 2 * side);
        }
        g.rated = sqlite3_column_int(st, 20);
        g.ended = sq_read_change(st, 21, &g.change);
        for (int side = 0; side < 2; side++)
            g.bot[side] = sqlite3_column_int(st, 32 + side);
        g.tb.side = sqlite3_column_int(st, 34);
        g.tb.declined = sqlite3_column_int(st, 35);
        if (g.id && g.record) {
            ++*n;
            stop = each(ctx, &g);
        }
    }
    int bad = !stop && rc != SQLITE_DONE;
    if (bad)
        sq_fail(s, err, "reading the games");
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->lock);
    return bad ? -1 : 0;
}

int mc_store_each(mc_store *s, int (*each)(void *ctx, const mc_store_game *g),
                  void *ctx, mc_error *err)
{
    if (s->pg)
        return mc_pg_each(s->pg, NULL, each, ctx, err);
    int n;
    return read_games(s, NULL, each, ctx, &n, err);
}

int mc_store_one(mc_store *s, const char *id,
                 int (*each)(void *ctx, const mc_store_game *g), void *ctx,
                 mc_error *err)
{
    if (s->pg)
        return mc_pg_each(s->pg, id, each, ctx, err);
    int n;
    int rc = read_games(s, id, each, ctx, &n, err);
    return rc != 0 ? rc : n == 0;
}

int mc_store_versions(mc_store *s,
                      int (*each)(void *ctx, const char *id, long long version),
                      void *ctx, mc_error *err)
{
    if (s->pg)
        return mc_pg_versions(s->pg, each, ctx, err);
    pthread_mutex_lock(&s->lock);
    sqlite3_stmt *st = sq_prep(s, GAMES_VERSIONS);
    int rc = st ? SQLITE_ROW : SQLITE_ERROR, stop = 0;
    while (st && !stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *id = sq_col_text(st, 0);
        if (id)
            stop = each(ctx, id, sqlite3_column_int64(st, 1));
    }
    int bad = !stop && rc != SQLITE_DONE;
    if (bad)
        sq_fail(s, err, "reading the games' versions");
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->lock);
    return bad ? -1 : 0;
}

int mc_store_listen(mc_store *s,
                    int (*changed)(void *ctx, const char *id,
                                   long long version),
                    void *ctx, mc_error *err)
{
    if (s->pg)
        return mc_pg_listen(s->pg, changed, ctx, err);
    return 1; /* this process's alone */
}

void mc_store_set_readonly(mc_store *s, int on)
{
    if (s->pg) {
        mc_pg_set_readonly(s->pg, on);
        return;
    }
    pthread_mutex_lock(&s->lock);
    sq_run(s, on ? "PRAGMA query_only=1" : "PRAGMA query_only=0");
    pthread_mutex_unlock(&s->lock);
}