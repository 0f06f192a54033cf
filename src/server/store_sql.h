/*
 * store_sql.h - the SQL text both stores run alike (store.c on SQLite,
 * store_pg.c on PostgreSQL): one statement written once.  $1 is a
 * parameter in both (SQLite: the parameter named "$1", bound as the
 * first).
 */
#ifndef MC_SERVER_STORE_SQL_H
#define MC_SERVER_STORE_SQL_H

/* A result's columns, as each store's read_change reads them (r: the
   results). */
#define RESULT_COLS                                                            \
    "r.game, r.aborted, r.score, r.s_before, r.s_rd_before, r.s_after,"        \
    " r.s_rd_after, r.n_before, r.n_rd_before, r.n_after, r.n_rd_after"

/* The games as mc_store_each and mc_store_one give them: each joined to
   its two seats, their accounts' names and bots, and its result: all of
   them (GAMES_SELECT), or the game $1 (GAMES_SELECT_ONE, a lookup of the
   primary key in both databases).  The columns, in order: id
   record version over created touched addr (0-6), each seat's token
   invite owner (7-12), the clocks (13-15), each seat's account and name
   (16-19), rated (20), RESULT_COLS (21-31), each seat's bot (32-33),
   tb_side tb_declined (34-35). */
#define GAMES_SELECT                                                           \
    "SELECT g.id, g.record, g.version, g.over, g.created, g.touched,"          \
    " g.addr, a.token, a.invite, a.owner, b.token, b.invite, b.owner,"         \
    " g.clock_s, g.clock_n, g.clock_since, a.account, x.name,"                 \
    " b.account, y.name, g.rated, " RESULT_COLS ", x.bot, y.bot,"              \
    " g.tb_side, g.tb_declined"                                                \
    " FROM games g JOIN seats a ON a.game = g.id AND a.side = 0"               \
    " JOIN seats b ON b.game = g.id AND b.side = 1"                            \
    " LEFT JOIN accounts x ON x.id = a.account"                                \
    " LEFT JOIN accounts y ON y.id = b.account"                                \
    " LEFT JOIN results r ON r.game = g.id"
#define GAMES_SELECT_ONE GAMES_SELECT " WHERE g.id = $1"

/* Every game's id and version alone (mc_store_versions). */
#define GAMES_VERSIONS "SELECT id, version FROM games"

#endif
