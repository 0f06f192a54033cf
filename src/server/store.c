/*
 * store.c - the SQLite database of `mancala serve` (store.h).  WAL mode with
 * synchronous=FULL: a committed change survives a crash of the program
 * (kill -9) and of the machine; a change that fails to commit is rolled
 * back whole and reported, so the server never acknowledges a move the
 * database does not hold.  Knows nothing about games: records are text.
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
#include "store.h"
#include "store_rate.h"
#include "store_pg.h"

struct mc_store {
    sqlite3 *db;
    pthread_mutex_t lock;
    char *path;    /* NULL: in memory */
    dev_t dev;     /* the file opened: a change to a file that is no */
    ino_t ino;     /* longer at path would be lost at the next start */
    char *wal;     /* its write-ahead log (path-wal), once it exists: */
    int wal_known; /* its removal loses what it holds as surely */
    dev_t wal_dev;
    ino_t wal_ino;
    mc_pg *pg; /* a PostgreSQL store instead (store_pg.c) */
};

/* The schema this program writes (meta.schema): 1 the games and seats, 2
   the clocks, 3 the accounts and their sessions, and the account of each
   seat, 4 the ratings, the rated games' results and whether a game is
   rated. */
#define SCHEMA 4

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

/* After the steps, whatever the version was. */
static const char *const schema_end =
    "CREATE INDEX IF NOT EXISTS seats_account ON seats(account);"
    "UPDATE meta SET value='4' WHERE key='schema' AND"
    " CAST(value AS INTEGER) < 4;";

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
    if (!has_column(db, "accounts", "bot") &&
        sqlite3_exec(db,
                     "ALTER TABLE accounts ADD COLUMN bot INTEGER NOT NULL"
                     " DEFAULT 0",
                     NULL, NULL, msg) != SQLITE_OK)
        return -1;
    return sqlite3_exec(db, schema_end, NULL, NULL, msg) == SQLITE_OK ? 0 : -1;
}

static int fail(mc_store *s, mc_error *err, const char *what)
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

static int run(mc_store *s, const char *sql)
{
    return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

/* Prepare sql; bind is done by the caller. */
static sqlite3_stmt *prep(mc_store *s, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
        return NULL;
    return st;
}

static void bind_text(sqlite3_stmt *st, int i, const char *v)
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
static int step_done(sqlite3_stmt *st)
{
    int rc = st ? sqlite3_step(st) : SQLITE_ERROR;
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* The end of a transaction: COMMIT when ok, else ROLLBACK and the error. */
static int finish(mc_store *s, int ok, mc_error *err, const char *what)
{
    int rc = 0;
    if (ok && run(s, "COMMIT") == 0) {
        rc = 0;
    } else {
        rc = fail(s, err, what);
        run(s, "ROLLBACK");
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

static int begin(mc_store *s, mc_error *err, const char *what)
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
    if (run(s, "BEGIN IMMEDIATE") != 0) {
        fail(s, err, what);
        pthread_mutex_unlock(&s->lock);
        return -1;
    }
    return 0;
}

int mc_store_insert(mc_store *s, const mc_store_game *g, mc_error *err)
{
    if (s->pg)
        return mc_pg_insert(s->pg, g, err);
    if (begin(s, err, "saving a new game") != 0)
        return -1;
    sqlite3_stmt *st = prep(s, "INSERT INTO games(id, record, version, over,"
                               " created, touched, addr, clock_s, clock_n,"
                               " clock_since, rated)"
                               " VALUES(?,?,?,?,?,?,?,?,?,?,?)");
    if (st) {
        bind_text(st, 1, g->id);
        bind_text(st, 2, g->record);
        sqlite3_bind_int64(st, 3, g->version);
        sqlite3_bind_int(st, 4, g->over);
        sqlite3_bind_int64(st, 5, g->created);
        sqlite3_bind_int64(st, 6, g->touched);
        bind_text(st, 7, g->addr ? g->addr : "");
        sqlite3_bind_double(st, 8, g->clock.bank[0]);
        sqlite3_bind_double(st, 9, g->clock.bank[1]);
        sqlite3_bind_double(st, 10, g->clock.since);
        sqlite3_bind_int(st, 11, g->rated != 0);
    }
    int ok = step_done(st) == 0;
    for (int side = 0; ok && side < 2; side++) {
        st = prep(s, "INSERT INTO seats(game, side, token, invite, owner,"
                     " account) VALUES(?,?,?,?,?,?)");
        if (st) {
            bind_text(st, 1, g->id);
            sqlite3_bind_int(st, 2, side);
            bind_text(st, 3, g->token[side]);
            bind_text(st, 4, g->invite[side]);
            sqlite3_bind_int(st, 5, (g->owner >> side) & 1);
            bind_account(st, 6, g->account[side]);
        }
        ok = step_done(st) == 0;
    }
    return finish(s, ok, err, "saving a new game");
}

/* One statement changing exactly one row of games, in a transaction. */
static int change_one(mc_store *s, sqlite3_stmt *st, mc_error *err,
                      const char *what)
{
    int ok = step_done(st) == 0 && sqlite3_changes(s->db) == 1;
    return finish(s, ok, err, what);
}

int mc_store_update(mc_store *s, const char *id, const char *record,
                    long long version, int over, long long touched,
                    const mc_store_clock *clock, mc_error *err)
{
    if (s->pg)
        return mc_pg_update(s->pg, id, record, version, over, touched, clock,
                            err);
    if (begin(s, err, "saving a move") != 0)
        return -1;
    sqlite3_stmt *st = prep(s, "UPDATE games SET record=?, version=?, over=?,"
                               " touched=?, clock_s=?, clock_n=?,"
                               " clock_since=? WHERE id=?");
    if (st) {
        bind_text(st, 1, record);
        sqlite3_bind_int64(st, 2, version);
        sqlite3_bind_int(st, 3, over);
        sqlite3_bind_int64(st, 4, touched);
        for (int i = 0; i < 3; i++)
            if (clock)
                sqlite3_bind_double(st, 5 + i,
                                    i < 2 ? clock->bank[i] : clock->since);
            else
                sqlite3_bind_null(st, 5 + i);
        bind_text(st, 8, id);
    }
    return change_one(s, st, err, "saving a move");
}

int mc_store_seat(mc_store *s, const char *id, int side, const char *token,
                  long long account, long long touched, mc_error *err)
{
    if (s->pg)
        return mc_pg_seat(s->pg, id, side, token, account, touched, err);
    if (begin(s, err, "saving a seat") != 0)
        return -1;
    sqlite3_stmt *st = prep(s, "UPDATE seats SET token=?, invite=NULL,"
                               " account=? WHERE game=? AND side=?");
    if (st) {
        bind_text(st, 1, token);
        bind_account(st, 2, account);
        bind_text(st, 3, id);
        sqlite3_bind_int(st, 4, side);
    }
    int ok = step_done(st) == 0 && sqlite3_changes(s->db) == 1;
    if (ok) {
        st = prep(s, "UPDATE games SET touched=? WHERE id=?");
        if (st) {
            sqlite3_bind_int64(st, 1, touched);
            bind_text(st, 2, id);
        }
        ok = step_done(st) == 0;
    }
    return finish(s, ok, err, "saving a seat");
}

int mc_store_delete(mc_store *s, const char *id, mc_error *err)
{
    if (s->pg)
        return mc_pg_delete(s->pg, id, err);
    if (begin(s, err, "deleting a game") != 0)
        return -1;
    sqlite3_stmt *st = prep(s, "DELETE FROM games WHERE id=?");
    if (st)
        bind_text(st, 1, id);
    return change_one(s, st, err, "deleting a game");
}

static const char *col_text(sqlite3_stmt *st, int i)
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

/* A result's columns, as read_change reads them (r: the results). */
#define RESULT_COLS                                                            \
    "r.game, r.aborted, r.score, r.s_before, r.s_rd_before, r.s_after,"        \
    " r.s_rd_after, r.n_before, r.n_rd_before, r.n_after, r.n_rd_after"

/* What a kept result did (its columns from i on, RESULT_COLS): 1, or 0
   when there is none (a NULL game: no row joined). */
static int read_change(sqlite3_stmt *st, int i, mc_store_change *ch)
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

int mc_store_each(mc_store *s, int (*each)(void *ctx, const mc_store_game *g),
                  void *ctx, mc_error *err)
{
    if (s->pg)
        return mc_pg_each(s->pg, each, ctx, err);
    pthread_mutex_lock(&s->lock);
    /* The two seats joined to their game, and their accounts' names: one
       row a game. */
    sqlite3_stmt *st = prep(
        s, "SELECT g.id, g.record, g.version, g.over, g.created, g.touched,"
           " g.addr, a.token, a.invite, a.owner, b.token, b.invite, b.owner,"
           " g.clock_s, g.clock_n, g.clock_since, a.account, x.name,"
           " b.account, y.name, g.rated, " RESULT_COLS ", x.bot, y.bot"
           " FROM games g JOIN seats a ON a.game = g.id AND a.side = 0"
           " JOIN seats b ON b.game = g.id AND b.side = 1"
           " LEFT JOIN accounts x ON x.id = a.account"
           " LEFT JOIN accounts y ON y.id = b.account"
           " LEFT JOIN results r ON r.game = g.id");
    int rc = st ? SQLITE_ROW : SQLITE_ERROR, stop = 0;
    while (st && !stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        mc_store_game g;
        g.id = col_text(st, 0);
        g.record = col_text(st, 1);
        g.version = sqlite3_column_int64(st, 2);
        g.over = sqlite3_column_int(st, 3);
        g.created = sqlite3_column_int64(st, 4);
        g.touched = sqlite3_column_int64(st, 5);
        g.addr = col_text(st, 6);
        g.owner = 0;
        for (int side = 0; side < 2; side++) {
            g.token[side] = col_text(st, 7 + 3 * side);
            g.invite[side] = col_text(st, 8 + 3 * side);
            g.owner |= (sqlite3_column_int(st, 9 + 3 * side) & 1) << side;
        }
        read_clock(st, 13, &g.clock);
        for (int side = 0; side < 2; side++) {
            g.account[side] = sqlite3_column_int64(st, 16 + 2 * side);
            g.player[side] = col_text(st, 17 + 2 * side);
        }
        g.rated = sqlite3_column_int(st, 20);
        g.ended = read_change(st, 21, &g.change);
        for (int side = 0; side < 2; side++)
            g.bot[side] = sqlite3_column_int(st, 32 + side);
        if (g.id && g.record)
            stop = each(ctx, &g);
    }
    int bad = !stop && rc != SQLITE_DONE;
    if (bad)
        fail(s, err, "reading the games");
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->lock);
    return bad ? -1 : 0;
}

int mc_store_get(mc_store *s, const char *id, char **record, long long *version,
                 mc_store_clock *clock, mc_error *err)
{
    if (s->pg)
        return mc_pg_get(s->pg, id, record, version, clock, err);
    *record = NULL;
    pthread_mutex_lock(&s->lock);
    sqlite3_stmt *st = prep(s, "SELECT record, version, clock_s, clock_n,"
                               " clock_since FROM games WHERE id=?");
    int rc = SQLITE_ERROR;
    if (st) {
        bind_text(st, 1, id);
        rc = sqlite3_step(st);
    }
    int ret;
    if (rc == SQLITE_ROW) {
        const char *t = col_text(st, 0);
        *record = t ? strdup(t) : NULL;
        *version = sqlite3_column_int64(st, 1);
        if (clock)
            read_clock(st, 2, clock);
        ret = *record ? 0 : fail(s, err, "reading a game");
    } else if (rc == SQLITE_DONE) {
        ret = 1;
    } else {
        ret = fail(s, err, "reading a game");
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->lock);
    return ret;
}

/* ---- accounts and sessions --------------------------------------------- */

/* A session row for account id. */
static int insert_session(mc_store *s, long long id, const mc_store_session *ss)
{
    sqlite3_stmt *st = prep(s, "INSERT INTO sessions(digest, account, created,"
                               " expires) VALUES(?,?,?,?)");
    if (st) {
        bind_text(st, 1, ss->digest);
        sqlite3_bind_int64(st, 2, id);
        sqlite3_bind_int64(st, 3, ss->created);
        sqlite3_bind_int64(st, 4, ss->expires);
    }
    return step_done(st);
}

int mc_store_account_add(mc_store *s, const char *name, const char *hash,
                         long long created, const mc_store_session *first,
                         long long *id, mc_error *err)
{
    if (s->pg)
        return mc_pg_account_add(s->pg, name, hash, created, first, id, err);
    if (begin(s, err, "saving a new account") != 0)
        return -1;
    sqlite3_stmt *st = prep(s, "INSERT INTO accounts(name, hash, created)"
                               " VALUES(?,?,?)");
    int rc = SQLITE_ERROR;
    if (st) {
        bind_text(st, 1, name);
        bind_text(st, 2, hash);
        sqlite3_bind_int64(st, 3, created);
        rc = sqlite3_step(st);
    }
    int taken = rc == SQLITE_CONSTRAINT &&
                sqlite3_extended_errcode(s->db) == SQLITE_CONSTRAINT_UNIQUE;
    sqlite3_finalize(st);
    if (taken) {
        run(s, "ROLLBACK");
        pthread_mutex_unlock(&s->lock);
        return 1;
    }
    int ok = rc == SQLITE_DONE;
    if (ok)
        *id = sqlite3_last_insert_rowid(s->db);
    if (ok && first)
        ok = insert_session(s, *id, first) == 0;
    return finish(s, ok, err, "saving a new account");
}

/* An account's columns (id, name, hash, created) from column i on. */
static void read_account(sqlite3_stmt *st, int i, mc_store_account *a)
{
    const char *name = col_text(st, i + 1), *hash = col_text(st, i + 2);
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
    return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : fail(s, err, what);
}

int mc_store_account_find(mc_store *s, const char *name, mc_store_account *a,
                          mc_error *err)
{
    if (s->pg)
        return mc_pg_account_find(s->pg, name, a, err);
    pthread_mutex_lock(&s->lock);
    sqlite3_stmt *st = prep(s, "SELECT id, name, hash, created FROM accounts"
                               " WHERE name=?");
    if (st)
        bind_text(st, 1, name);
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
    sqlite3_stmt *st = prep(s, "DELETE FROM sessions WHERE account=? AND"
                               " (? IS NULL OR digest<>?)");
    if (st) {
        sqlite3_bind_int64(st, 1, id);
        bind_text(st, 2, keep);
        bind_text(st, 3, keep);
    }
    int ok = step_done(st) == 0;
    if (ok && ended)
        *ended = sqlite3_changes(s->db);
    return ok;
}

int mc_store_account_password(mc_store *s, long long id, const char *hash,
                              const char *keep, int *ended, mc_error *err)
{
    if (s->pg)
        return mc_pg_account_password(s->pg, id, hash, keep, ended, err);
    if (begin(s, err, "saving a password") != 0)
        return -1;
    sqlite3_stmt *st = prep(s, "UPDATE accounts SET hash=? WHERE id=?");
    if (st) {
        bind_text(st, 1, hash);
        sqlite3_bind_int64(st, 2, id);
    }
    int ok = step_done(st) == 0, none = ok && sqlite3_changes(s->db) == 0;
    if (ok && !none)
        ok = end_sessions(s, id, keep, ended);
    int rc = finish(s, ok, err, "saving a password");
    return rc == 0 && none ? 1 : rc;
}

int mc_store_account_delete(mc_store *s, long long id, mc_error *err)
{
    if (s->pg)
        return mc_pg_account_delete(s->pg, id, err);
    if (begin(s, err, "deleting an account") != 0)
        return -1;
    int ok = end_sessions(s, id, NULL, NULL), none = 0;
    sqlite3_stmt *st = ok ? prep(s, "DELETE FROM accounts WHERE id=?") : NULL;
    if (st)
        sqlite3_bind_int64(st, 1, id);
    ok = ok && step_done(st) == 0;
    none = ok && sqlite3_changes(s->db) == 0;
    int rc = finish(s, ok, err, "deleting an account");
    return rc == 0 && none ? 1 : rc;
}

int mc_store_session_add(mc_store *s, long long id, const mc_store_session *ss,
                         int most, long long now, mc_error *err)
{
    if (s->pg)
        return mc_pg_session_add(s->pg, id, ss, most, now, err);
    if (begin(s, err, "saving a session") != 0)
        return -1;
    sqlite3_stmt *st = prep(s, "DELETE FROM sessions WHERE account=? AND"
                               " expires<=?");
    if (st) {
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int64(st, 2, now);
    }
    int ok = step_done(st) == 0 && insert_session(s, id, ss) == 0;
    /* the account's newest `most` are kept */
    st = ok ? prep(s, "DELETE FROM sessions WHERE account=?1 AND digest NOT IN"
                      " (SELECT digest FROM sessions WHERE account=?1"
                      " ORDER BY created DESC, rowid DESC LIMIT ?2)")
            : NULL;
    if (st) {
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int(st, 2, most);
    }
    ok = ok && step_done(st) == 0;
    return finish(s, ok, err, "saving a session");
}

int mc_store_session_find(mc_store *s, const char *digest, long long now,
                          mc_store_account *a, long long *expires,
                          mc_error *err)
{
    if (s->pg)
        return mc_pg_session_find(s->pg, digest, now, a, expires, err);
    pthread_mutex_lock(&s->lock);
    sqlite3_stmt *st = prep(s, "SELECT a.id, a.name, '', a.created, x.expires"
                               " FROM sessions x JOIN accounts a"
                               " ON a.id = x.account"
                               " WHERE x.digest=? AND x.expires>?");
    if (st) {
        bind_text(st, 1, digest);
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
    if (begin(s, err, "ending a session") != 0)
        return -1;
    sqlite3_stmt *st =
        prep(s, all ? "DELETE FROM sessions WHERE account IN"
                      " (SELECT account FROM sessions WHERE digest=?)"
                    : "DELETE FROM sessions WHERE digest=?");
    if (st)
        bind_text(st, 1, digest);
    int ok = step_done(st) == 0;
    if (ok && ended)
        *ended = sqlite3_changes(s->db);
    return finish(s, ok, err, "ending a session");
}

int mc_store_sessions_expire(mc_store *s, long long now, mc_error *err)
{
    if (s->pg)
        return mc_pg_sessions_expire(s->pg, now, err);
    if (begin(s, err, "deleting old sessions") != 0)
        return -1;
    sqlite3_stmt *st = prep(s, "DELETE FROM sessions WHERE expires<=?");
    if (st)
        sqlite3_bind_int64(st, 1, now);
    return finish(s, step_done(st) == 0, err, "deleting old sessions");
}

/* ---- ratings ----------------------------------------------------------- */

/* An account's row of ratings for kind, in the transaction or not: 0 with
   *x, *last and the counts (c may be NULL), 1 when there is none (a new
   player's start), -1 on an error. */
static int read_rating(mc_store *s, long long id, const char *kind,
                       mc_rating *x, long long *last, int c[4])
{
    sqlite3_stmt *st = prep(s, "SELECT r, rd, vol, last, games, wins, draws,"
                               " losses FROM ratings WHERE account=? AND"
                               " kind=?");
    if (st) {
        sqlite3_bind_int64(st, 1, id);
        bind_text(st, 2, kind);
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
        prep(s, "SELECT " RESULT_COLS " FROM results r WHERE r.game=?");
    if (st)
        bind_text(st, 1, id);
    int rc = st ? sqlite3_step(st) : SQLITE_ERROR, ret = -1;
    if (rc == SQLITE_ROW)
        ret = read_change(st, 0, ch) ? 0 : -1;
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
        sqlite3_stmt *st =
            prep(s, "INSERT OR REPLACE INTO ratings(account, kind, r, rd, vol,"
                    " last, games, wins, draws, losses)"
                    " VALUES(?,?,?,?,?,?,?,?,?,?)");
        if (st) {
            sqlite3_bind_int64(st, 1, rg->account[side]);
            bind_text(st, 2, rg->kind);
            sqlite3_bind_double(st, 3, after[side].r);
            sqlite3_bind_double(st, 4, after[side].rd);
            sqlite3_bind_double(st, 5, after[side].vol);
            sqlite3_bind_int64(st, 6, now);
            for (int k = 0; k < 4; k++)
                sqlite3_bind_int(st, 7 + k, c[k]);
        }
        if (step_done(st) != 0)
            return 0;
    }
    sqlite3_stmt *st =
        prep(s, "INSERT INTO results(game, kind, ended, south, north, aborted,"
                " score, s_before, s_rd_before, s_after, s_rd_after, n_before,"
                " n_rd_before, n_after, n_rd_after)"
                " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    if (st) {
        bind_text(st, 1, id);
        bind_text(st, 2, rg->kind);
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
    return step_done(st) == 0;
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
    if (begin(s, err, what) != 0)
        return -1;
    sqlite3_stmt *st = prep(s, "UPDATE games SET record=?, version=?, over=1,"
                               " touched=?, clock_s=?, clock_n=?,"
                               " clock_since=? WHERE id=?");
    if (st) {
        bind_text(st, 1, record);
        sqlite3_bind_int64(st, 2, version);
        sqlite3_bind_int64(st, 3, touched);
        for (int i = 0; i < 3; i++)
            if (clock)
                sqlite3_bind_double(st, 4 + i,
                                    i < 2 ? clock->bank[i] : clock->since);
            else
                sqlite3_bind_null(st, 4 + i);
        bind_text(st, 7, id);
    }
    int ok = step_done(st) == 0 && sqlite3_changes(s->db) == 1;
    int kept = ok ? read_result(s, id, ch) : -1;
    if (ok && kept == 1) {
        /* two accounts, both still there; else nothing to rate (an
           account deleted during the game): kept as aborted */
        mc_store_rated r = *rg;
        r.aborted |= !(r.account[0] > 0 && r.account[1] > 0 &&
                       r.account[0] != r.account[1]);
        st = prep(s, "SELECT count(*) FROM accounts WHERE id IN (?, ?)");
        if (st) {
            sqlite3_bind_int64(st, 1, r.account[0]);
            sqlite3_bind_int64(st, 2, r.account[1]);
        }
        ok = st && sqlite3_step(st) == SQLITE_ROW;
        r.aborted |= ok && sqlite3_column_int(st, 0) != 2;
        sqlite3_finalize(st);
        ok = ok && rate_and_keep(s, id, &r, touched, ch);
    }
    return finish(s, ok && kept >= 0, err, what);
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
        fail(s, err, "reading a rating");
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
    sqlite3_stmt *q = prep(s, "SELECT id, name, '', created FROM accounts"
                              " WHERE name=?");
    if (q)
        bind_text(q, 1, name);
    int rc = one_row(s, q, err, "reading an account");
    if (rc == 0)
        read_account(q, 0, acc);
    sqlite3_finalize(q);
    if (rc != 0) {
        pthread_mutex_unlock(&s->lock);
        return rc;
    }
    q = prep(s, "SELECT kind, r, rd, vol, last, games, wins, draws, losses"
                " FROM ratings WHERE account=? ORDER BY kind");
    if (q)
        sqlite3_bind_int64(q, 1, acc->id);
    int step = q ? sqlite3_step(q) : SQLITE_ERROR;
    for (; step == SQLITE_ROW; step = sqlite3_step(q)) {
        if (*got_st >= nst)
            continue;
        mc_store_standing *x = &st[(*got_st)++];
        const char *k = col_text(q, 0);
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
    q = ok ? prep(s, "SELECT r.game, r.kind, r.ended, r.south = ?1,"
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
        const char *g = col_text(q, 0), *k = col_text(q, 1),
                   *o = col_text(q, 4);
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
        fail(s, err, "reading a player");
    pthread_mutex_unlock(&s->lock);
    return ok ? 0 : -1;
}

int mc_store_bot(mc_store *s, int level, mc_store_account *acc, mc_error *err)
{
    if (s->pg)
        return mc_pg_bot(s->pg, level, acc, err);
    char name[MC_STORE_NAME_MAX + 1];
    snprintf(name, sizeof name, "bot-level-%d", level);
    if (begin(s, err, "saving a house bot") != 0)
        return -1;
    sqlite3_stmt *st = prep(s, "INSERT OR IGNORE INTO accounts(name, hash,"
                               " created, bot) VALUES(?, '-', ?, ?)");
    if (st) {
        bind_text(st, 1, name);
        sqlite3_bind_int64(st, 2, (long long)time(NULL));
        sqlite3_bind_int(st, 3, level);
    }
    int ok = step_done(st) == 0;
    st = ok ? prep(s, "SELECT id, name, '', created FROM accounts WHERE"
                      " name=? AND bot=?")
            : NULL;
    if (st) {
        bind_text(st, 1, name);
        sqlite3_bind_int(st, 2, level);
    }
    /* a person's account of that name (made before bots were): no bot */
    ok = ok && st && sqlite3_step(st) == SQLITE_ROW;
    if (ok)
        read_account(st, 0, acc);
    sqlite3_finalize(st);
    return finish(s, ok, err, "saving a house bot");
}

void mc_store_set_readonly(mc_store *s, int on)
{
    if (s->pg) {
        mc_pg_set_readonly(s->pg, on);
        return;
    }
    pthread_mutex_lock(&s->lock);
    run(s, on ? "PRAGMA query_only=1" : "PRAGMA query_only=0");
    pthread_mutex_unlock(&s->lock);
}
