/*
 * uci.c - the UCI dialect of `mancala engine --uci` (docs/PROTOCOL.md,
 * "UCI"): what the Oware GUIs (Aualé and the engines it drives) speak, so
 * that such a GUI can drive our engine.  It runs on the machinery both
 * dialects share (engine.h, engine_common.c): the same state, player,
 * output lock and search thread; only the words differ.  Unlike the
 * engines we know, it refuses an illegal move or a bad position with an
 * `info string error` and keeps the position it had, instead of searching
 * a corrupted game.  It calls engine_common.c and nothing of protocol.c.
 *
 * +-------------+--------------------------------------+-------+----------+
 * | command     | arguments                            | busy? | answer   |
 * +-------------+--------------------------------------+-------+----------+
 * | uci         |                                      | yes   | id*,     |
 * |             |                                      |       | option*, |
 * |             |                                      |       | uciok    |
 * | debug       | [on|off]                             | yes   |          |
 * | isready     |                                      | yes   | readyok  |
 * | setoption   | name N [value V]                     | no    |          |
 * | ucinewgame  |                                      | no    |          |
 * | position    | startpos|fen F [moves M...]          | no    |          |
 * | go          | [wtime|btime|winc|binc|movestogo|    | no    | info*,   |
 * |             |  movetime|depth|nodes N]...          |       | bestmove |
 * |             |  [infinite|ponder]                   |       |          |
 * | stop        |                                      | yes   | bestmove |
 * | ponderhit   |                                      | yes   |          |
 * | d           |                                      | yes   | info     |
 * |             |                                      |       | string*  |
 * | quit        |                                      | yes   |          |
 * +-------------+--------------------------------------+-------+----------+
 * busy?: allowed while a search runs (the others get an error then).  Any
 * refused command answers `info string error <command>: <why>` and changes
 * nothing; a refused `go` also answers `bestmove 0000`, so that a GUI
 * waiting for a move is not left waiting.
 */
#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine.h"
#include "mancala_egdb.h"

/* The dialect's variants: its option Variant's values and their specs. */
static const struct {
    const char *name, *spec;
} variants[] = {{"abapa", "oware"}, {"awari", "oware:awari"}};
#define NVARIANTS (sizeof variants / sizeof variants[0])

/* ---- what the search says ---- */

/* A score as UCI gives it: `cp` in hundredths of a seed (a GUI shows
   cp/100: seeds), `mate N` for a win proven N of the mover's moves ahead
   (`mate -N` a loss), and cp +-(10000 + 100 D) for a result the endgame
   tables proved, won or lost by D seeds (they know no distance). */
static void uci_score(int sc, char *b, size_t n)
{
    int margin = mc_egdb_score_margin(sc);
    if (margin > 0)
        snprintf(b, n, "cp %d", 10000 + 100 * margin);
    else if (margin < 0)
        snprintf(b, n, "cp %d", -10000 + 100 * margin);
    else if (sc >= MC_SCORE_PROVEN || sc <= -MC_SCORE_PROVEN) {
        int plies = MC_SCORE_WIN - (sc > 0 ? sc : -sc);
        int moves = (plies + 1) / 2; /* the mover's moves among them */
        snprintf(b, n, "mate %d", (sc > 0 ? 1 : -1) * (moves > 0 ? moves : 1));
    } else
        snprintf(b, n, "cp %d", sc);
}

static void uci_info(mc_engine *e, const mc_search_info *in)
{
    char pv[1024], score[48];
    /* On the search's thread: the player's own game (engine.h).  Aualé
       reads a line as one word of move letters: no spaces. */
    const mc_session *ps = mc_player_session(e->pl);
    proto_format_pv(mc_session_game(ps), mc_session_pos(ps), in, "", pv,
                    sizeof pv);
    uci_score(in->score, score, sizeof score);
    if (in->book) {
        pthread_mutex_lock(&e->lock);
        proto_say_locked(e, "info string book move");
        proto_say_locked(e, "info depth %d score %s nodes 0 time 0 pv %s",
                         in->depth, score, pv);
        pthread_mutex_unlock(&e->lock);
        return;
    }
    long ms = (long)(in->seconds * 1000.0);
    unsigned long long nps =
        in->seconds > 0 ? (unsigned long long)((double)in->nodes / in->seconds)
                        : 0;
    proto_say(e,
              "info depth %d score %s nodes %llu time %ld nps %llu "
              "hashfull %d pv %s",
              in->depth, score, (unsigned long long)in->nodes, ms, nps,
              in->hashfull, pv);
}

static void uci_best_locked(mc_engine *e, int rc, const mc_search_info *in)
{
    if (rc != 0) {
        if (rc != MC_ERR_OVER)
            proto_say_locked(e, "info string error go: the search failed "
                                "(out of memory)");
        proto_say_locked(e, "bestmove 0000");
        return;
    }
    const mc_session *ps = mc_player_session(e->pl);
    const mc_game *g = mc_session_game(ps);
    mc_pos p = *mc_session_pos(ps);
    char best[MC_MOVE_STRLEN], reply[MC_MOVE_STRLEN] = "";
    mc_move_format(g, &p, in->best, best, sizeof best);
    /* The move the search expects in reply, for the GUI's `go ponder`:
       the principal variation's second move, when it is a legal one. */
    if (in->pvlen >= 2 && in->pv[0] == in->best) {
        mc_play(g, &p, in->best, NULL);
        mc_move list[MC_MAX_MOVES];
        int k = mc_moves(g, &p, list);
        for (int j = 0; j < k; j++)
            if (list[j] == in->pv[1])
                mc_move_format(g, &p, in->pv[1], reply, sizeof reply);
    }
    if (reply[0])
        proto_say_locked(e, "bestmove %s ponder %s", best, reply);
    else
        proto_say_locked(e, "bestmove %s", best);
}

/* ---- commands ---- */

static void cmd_uci(mc_engine *e)
{
    pthread_mutex_lock(&e->lock);
    proto_say_locked(e, "id name mancala %s", mc_version());
    proto_say_locked(e, "id author the mancala authors");
    proto_say_locked(e, "option name Hash type spin default 16 min 1 max %d",
                     MC_PROTOCOL_HASH_MAX);
    proto_say_locked(e,
                     "option name Threads type spin default 1 min 1 "
                     "max %d",
                     mc_cores());
    proto_say_locked(e, "option name Level type spin default 10 min 1 "
                        "max 10");
    proto_say_locked(e, "option name OwnBook type check default true");
    proto_say_locked(e, "option name Tables type check default true");
    proto_say_locked(e, "option name TablesPath type string default "
                        "<empty>");
    proto_say_locked(e, "option name Variant type combo default abapa "
                        "var abapa var awari");
    proto_say_locked(e, "option name Ponder type check default true");
    proto_say_locked(e, "uciok");
    pthread_mutex_unlock(&e->lock);
}

/* The tables the options Tables and TablesPath ask for, opened now. */
static int set_tables(mc_engine *e, int off, const char *path, mc_error *err)
{
    const char *db = off ? "none" : path[0] ? path : "default";
    mc_player_opts o = e->opts;
    if (proto_apply_opts(e, &o, db, e->book, err) != 0) {
        proto_apply_opts(e, &o, e->database, e->book, err);
        return -1;
    }
    snprintf(e->database, sizeof e->database, "%s", db);
    const char *dir = mc_player_tables(e->pl);
    if (dir)
        proto_say(e, "info string tables %s", dir);
    else
        proto_say(e, "info string tables not used");
    return 0;
}

/* "true" 1, "false" 0, else -1 */
static int check_value(const char *v)
{
    return strcmp(v, "true") == 0 ? 1 : strcmp(v, "false") == 0 ? 0 : -1;
}

/* The name and value of a setoption line: the name runs to `value`, the
   value to the end of the line (a path may have spaces), both as written,
   from the unsplit line.  0, or -1 after the error line. */
static int setoption_words(mc_engine *e, const proto_words *ws,
                           const char *rest, char *name, size_t nn, char *val,
                           size_t nv)
{
    if (ws->n < 3 || strcmp(ws->w[1], "name") != 0) {
        proto_say(e, "info string error setoption: usage: setoption name "
                     "<name> [value <value>]");
        return -1;
    }
    int vi = 2;
    while (vi < ws->n && strcmp(ws->w[vi], "value") != 0)
        vi++;
    if (vi == 2) {
        proto_say(e, "info string error setoption: no option name");
        return -1;
    }
    const char *last = ws->w[vi - 1];
    size_t from = (size_t)(ws->w[2] - ws->base);
    size_t to = (size_t)(last - ws->base) + strlen(last);
    assert(to > from);
    if (to - from >= nn) {
        proto_say(e, "info string error setoption: unknown option '%.40s...'",
                  rest + from);
        return -1;
    }
    memcpy(name, rest + from, to - from);
    name[to - from] = '\0';
    val[0] = '\0';
    if (vi < ws->n && proto_line_after(ws, rest, vi, val, nv) != 0) {
        proto_say(e,
                  "info string error setoption: the value of %s is "
                  "longer than %zu bytes",
                  name, nv - 1);
        return -1;
    }
    return 0;
}

/* Hash, Threads, Level: a whole number, taken by the player now (the
   table is allocated here, not at the next go). */
static void set_spin(mc_engine *e, const char *name, const char *val)
{
    int which = tolower((unsigned char)name[0]);
    long long hi = which == 'h'   ? MC_PROTOCOL_HASH_MAX
                   : which == 't' ? mc_cores()
                                  : 10;
    long long n = proto_number(val, 1, hi);
    if (n < 0) {
        proto_say(e,
                  "info string error setoption: %s takes a whole "
                  "number from 1 to %lld, not '%.40s'",
                  name, hi, val);
        return;
    }
    assert(n >= 1 && n <= hi);
    mc_player_opts o = e->opts;
    if (which == 'h')
        o.hash_mb = (int)n;
    else if (which == 't')
        o.threads = (int)n;
    else
        o.level = (int)n;
    mc_error err = {0, ""};
    if (proto_apply_opts(e, &o, e->database, e->book, &err) != 0) {
        proto_say(e, "info string error setoption: %s: %s", name, err.msg);
        return;
    }
    e->opts = o;
}

/* OwnBook, Tables, Ponder: true or false. */
static void set_check(mc_engine *e, const char *name, int on)
{
    mc_error err = {0, ""};
    if (strcasecmp(name, "OwnBook") == 0) {
        const char *book = on ? "default" : "none";
        mc_player_opts o = e->opts;
        if (proto_apply_opts(e, &o, e->database, book, &err) != 0) {
            proto_say(e, "info string error setoption: OwnBook: %s", err.msg);
            proto_apply_opts(e, &o, e->database, e->book, &err);
            return;
        }
        snprintf(e->book, sizeof e->book, "%s", book);
    } else if (strcasecmp(name, "Tables") == 0) {
        if (set_tables(e, !on, e->uci_tables_path, &err) != 0) {
            proto_say(e, "info string error setoption: Tables: %s", err.msg);
            return;
        }
        e->uci_tables_off = !on;
    }
    /* Ponder: the GUI says whether it will ever send `go ponder`: nothing
       to set up. */
}

/* TablesPath: a directory of tables, or <empty> for the default places. */
static void set_tables_path(mc_engine *e, const char *val)
{
    const char *path = strcmp(val, "<empty>") == 0 ? "" : val;
    if (strlen(path) >= sizeof e->uci_tables_path) {
        proto_say(e, "info string error setoption: TablesPath: path "
                     "too long");
        return;
    }
    mc_error err = {0, ""};
    if (set_tables(e, e->uci_tables_off, path, &err) != 0) {
        proto_say(e, "info string error setoption: TablesPath: %s", err.msg);
        return;
    }
    snprintf(e->uci_tables_path, sizeof e->uci_tables_path, "%s", path);
}

/* Variant: abapa or awari, a new game at its start. */
static void set_variant(mc_engine *e, const char *val)
{
    size_t i = 0;
    while (i < NVARIANTS && strcasecmp(val, variants[i].name) != 0)
        i++;
    if (i == NVARIANTS) {
        proto_say(e,
                  "info string error setoption: Variant takes abapa "
                  "or awari, not '%.40s'",
                  val);
        return;
    }
    mc_error err = {0, ""};
    if (proto_set_game(e, variants[i].spec, &err) != 0)
        proto_say(e, "info string error setoption: Variant: %s", err.msg);
}

static void cmd_setoption(mc_engine *e, proto_words *ws, const char *rest)
{
    char name[64], val[1024];
    if (setoption_words(e, ws, rest, name, sizeof name, val, sizeof val) != 0)
        return;
    int is_check = strcasecmp(name, "OwnBook") == 0 ||
                   strcasecmp(name, "Tables") == 0 ||
                   strcasecmp(name, "Ponder") == 0;
    if (strcasecmp(name, "Hash") == 0 || strcasecmp(name, "Threads") == 0 ||
        strcasecmp(name, "Level") == 0) {
        set_spin(e, name, val);
    } else if (is_check) {
        int on = check_value(val);
        if (on < 0)
            proto_say(e,
                      "info string error setoption: %s takes true or false, "
                      "not '%.40s'",
                      name, val);
        else
            set_check(e, name, on);
    } else if (strcasecmp(name, "TablesPath") == 0) {
        set_tables_path(e, val);
    } else if (strcasecmp(name, "Variant") == 0) {
        set_variant(e, val);
    } else {
        proto_say(e,
                  "info string error setoption: unknown option '%s' "
                  "(options: Hash, Threads, Level, OwnBook, Tables, "
                  "TablesPath, Variant, Ponder)",
                  name);
    }
}

static void cmd_ucinewgame(mc_engine *e)
{
    mc_session *s = mc_session_new(e->g, NULL);
    if (!s) {
        proto_say(e, "info string error ucinewgame: out of memory");
        return;
    }
    proto_reset_session(e, s);
    mc_player_newgame(e->pl);
}

/*
 * A fen of Aualé's: the seeds of the 12 houses in sowing order (South's
 * A-F from South's left, then North's a-f from North's left), South's
 * store, North's store, and the side to move, S or N.  Aualé writes it as
 * one word, each number followed by a dash ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
 * the same fields as separate words are taken too.  The library checks
 * the position (48 seeds in all, and the rest) when it parses the
 * position string built from them.
 */
static int parse_fen(mc_engine *e, proto_words *ws, int from, int to, mc_pos *p)
{
    int pits = mc_game_pits(e->g);
    char buf[256], *field[MC_MAX_PITS + 4];
    int nf = 0;
    if (to - from == 1) {
        snprintf(buf, sizeof buf, "%s", ws->w[from]);
        for (char *q = buf; nf < MC_MAX_PITS + 4;) {
            field[nf++] = q;
            q = strchr(q, '-');
            if (!q)
                break;
            *q++ = '\0';
        }
    } else {
        for (int i = from; i < to && nf < MC_MAX_PITS + 4; i++)
            field[nf++] = ws->w[i];
    }
    if (to == from || nf != pits + 3 || to - from > pits + 3) {
        proto_say(e,
                  "info string error position: a fen is %d numbers (the "
                  "houses, South's store, North's store) and the side "
                  "to move, S or N (4-4-4-4-4-4-4-4-4-4-4-4-0-0-S)",
                  pits + 2);
        return -1;
    }
    assert(nf == pits + 3 && pits + 3 <= MC_MAX_PITS + 4);
    long long v[MC_MAX_PITS + 2];
    for (int i = 0; i < pits + 2; i++) {
        v[i] = proto_number(field[i], 0, 999);
        if (v[i] < 0) {
            proto_say(e,
                      "info string error position: fen field %d is '%.20s', "
                      "not a count of seeds",
                      i + 1, field[i]);
            return -1;
        }
    }
    const char *side = field[pits + 2];
    if (strcmp(side, "S") != 0 && strcmp(side, "N") != 0) {
        proto_say(e,
                  "info string error position: the side to move is S or "
                  "N, not '%.20s'",
                  side);
        return -1;
    }
    /* the position string of the rule file: houses/houses side cap=S,N */
    char ps[MC_POS_STRLEN];
    size_t len = 0;
    for (int i = 0; i < pits; i++)
        len += (size_t)snprintf(ps + len, sizeof ps - len, "%s%lld",
                                i == 0          ? ""
                                : i == pits / 2 ? "/"
                                                : ",",
                                v[i]);
    snprintf(ps + len, sizeof ps - len, " %s cap=%lld,%lld", side, v[pits],
             v[pits + 1]);
    mc_error err = {0, ""};
    if (mc_pos_parse(e->g, ps, p, &err) != 0) {
        proto_say(e, "info string error position: %s", err.msg);
        return -1;
    }
    return 0;
}

/* Play one word of moves on s: a move, or moves written together without
   spaces ("CfAb"), split where the library reads a move.  0, or -1 after
   the error line; *ply counts the moves played. */
static int play_word(mc_engine *e, mc_session *s, const char *w, int *ply)
{
    size_t len = strlen(w);
    for (size_t at = 0; at < len;) {
        const mc_game *g = mc_session_game(s);
        mc_error err = {0, ""}, first = {0, ""};
        mc_move m = 0;
        size_t k = 1;
        for (; at + k <= len && k < MC_MOVE_STRLEN; k++) {
            char tok[MC_MOVE_STRLEN];
            memcpy(tok, w + at, k);
            tok[k] = '\0';
            if (mc_move_parse(g, mc_session_pos(s), tok, &m, &err) == 0)
                break;
            if (k == 1)
                first = err;
        }
        if (at + k > len || k == MC_MOVE_STRLEN) {
            proto_say(e,
                      "info string error position: move %d ('%.1s' in "
                      "'%.40s'): %s",
                      *ply + 1, w + at, w, first.msg);
            return -1;
        }
        if (mc_session_play(s, m, NULL, &err) != 0) {
            proto_say(e,
                      "info string error position: move %d ('%.*s' in "
                      "'%.40s'): %s",
                      *ply + 1, (int)k, w + at, w, err.msg);
            return -1;
        }
        assert(k >= 1 && k < MC_MOVE_STRLEN && at + k <= len);
        ++*ply;
        at += k;
    }
    return 0;
}

static void cmd_position(mc_engine *e, proto_words *ws)
{
    int mv = ws->n;
    for (int i = 1; i < ws->n; i++)
        if (strcmp(ws->w[i], "moves") == 0) {
            mv = i;
            break;
        }
    mc_pos p;
    if (ws->n >= 2 && strcmp(ws->w[1], "startpos") == 0) {
        if (mv != 2) {
            proto_say(e,
                      "info string error position: 'startpos' is "
                      "followed by 'moves' or nothing, not '%.40s'",
                      ws->w[2]);
            return;
        }
        mc_start(e->g, &p);
    } else if (ws->n >= 2 && strcmp(ws->w[1], "fen") == 0) {
        if (parse_fen(e, ws, 2, mv, &p) != 0)
            return;
    } else {
        proto_say(e, "info string error position: usage: position "
                     "<startpos|fen <fen>> [moves <moves>]");
        return;
    }
    /* all or nothing: the moves are played on a new session, which
       replaces the engine's only when every one is legal */
    mc_session *s = mc_session_new(e->g, &p);
    if (!s) {
        proto_say(e, "info string error position: out of memory");
        return;
    }
    int ply = 0;
    for (int i = mv + 1; i < ws->n; i++)
        if (play_word(e, s, ws->w[i], &ply) != 0) {
            mc_session_free(s);
            return;
        }
    proto_reset_session(e, s);
}

/* A refused go: the error, and a null move for the GUI that waits. */
static void refuse_go(mc_engine *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void refuse_go(mc_engine *e, const char *fmt, ...)
{
    char why[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&e->lock);
    proto_say_locked(e, "info string error go: %s", why);
    proto_say_locked(e, "bestmove 0000");
    pthread_mutex_unlock(&e->lock);
}

static void cmd_go(mc_engine *e, proto_words *ws)
{
    /* White is the side that moves first: South. */
    static const char *const keys[PROTO_GO_NKEYS] = {
        "wtime",     "btime",    "winc",  "binc",
        "movestogo", "movetime", "depth", "nodes"};
    long long v[PROTO_GO_NKEYS];
    int infinite, ponder;
    proto_go_bad bad;
    if (proto_go_words(ws, keys, v, &infinite, &ponder, &bad) != 0) {
        if (bad.what == PROTO_GO_UNKNOWN)
            refuse_go(e, "unknown parameter '%.40s'", bad.word);
        else if (bad.what == PROTO_GO_BOTH)
            refuse_go(e, "infinite and ponder exclude each other");
        else
            refuse_go(e, "%s takes a whole number from %lld to %lld",
                      keys[bad.key], bad.lo, bad.hi);
        return;
    }
    if (mc_session_over(e->s)) {
        proto_say(e, "bestmove 0000"); /* no legal move */
        return;
    }
    mc_go go;
    proto_go_make(v, infinite, ponder, &go);
    char why[320];
    if (proto_start_search(e, &go, why, sizeof why) != 0)
        refuse_go(e, "%s", why);
}

/* Not UCI: the engine's position, for people and tests. */
static void cmd_d(mc_engine *e)
{
    const mc_pos *p = mc_session_pos(e->s);
    char ps[MC_POS_STRLEN], fen[256], moves[MC_MAX_MOVES * 8 + 1] = "";
    mc_pos_format(e->g, p, ps, sizeof ps);
    size_t len = 0;
    int pits = mc_game_pits(e->g);
    for (int i = 0; i < pits; i++)
        len += (size_t)snprintf(fen + len, sizeof fen - len, "%d-", p->pit[i]);
    snprintf(fen + len, sizeof fen - len, "%d-%d-%s", p->cap[MC_SOUTH],
             p->cap[MC_NORTH], p->side == MC_SOUTH ? "S" : "N");
    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(e->s, mv);
    len = 0;
    for (int i = 0; i < n; i++) {
        char m[MC_MOVE_STRLEN];
        mc_move_format(e->g, p, mv[i], m, sizeof m);
        int w = snprintf(moves + len, sizeof moves - len, " %s", m);
        if (w < 0 || (size_t)w >= sizeof moves - len)
            break;
        len += (size_t)w;
    }
    mc_result r;
    mc_session_result(e->s, &r);
    char result[256] = "ongoing";
    if (r.over)
        mc_result_describe(e->g, &r, result, sizeof result);
    pthread_mutex_lock(&e->lock);
    proto_say_locked(e, "info string game %s", mc_game_spec(e->g));
    proto_say_locked(e, "info string position %s", ps);
    proto_say_locked(e, "info string fen %s", fen);
    proto_say_locked(e, "info string moves%s", n ? moves : " (none)");
    proto_say_locked(e, "info string result %s", result);
    pthread_mutex_unlock(&e->lock);
}

/* One line of UCI, split. */
static int uci_command(mc_engine *e, proto_words *ws, const char *rest)
{
    static const char *const idle_only[] = {"setoption", "ucinewgame",
                                            "position", "go"};
    const char *cmd = ws->w[0];
    proto_reap(e); /* the last search is over: reap it */
    for (size_t i = 0; i < sizeof idle_only / sizeof idle_only[0]; i++)
        if (strcmp(cmd, idle_only[i]) == 0 && e->live) {
            proto_say(e,
                      "info string error %s: a search is running (send "
                      "stop first)",
                      cmd);
            return 0;
        }
    if (strcmp(cmd, "uci") == 0)
        cmd_uci(e);
    else if (strcmp(cmd, "isready") == 0)
        proto_say(e, "readyok");
    else if (strcmp(cmd, "debug") == 0)
        ; /* nothing more is said in debug mode */
    else if (strcmp(cmd, "setoption") == 0)
        cmd_setoption(e, ws, rest);
    else if (strcmp(cmd, "ucinewgame") == 0)
        cmd_ucinewgame(e);
    else if (strcmp(cmd, "position") == 0)
        cmd_position(e, ws);
    else if (strcmp(cmd, "go") == 0)
        cmd_go(e, ws);
    else if (strcmp(cmd, "stop") == 0)
        proto_join_search(e, 1); /* the search writes its best move */
    else if (strcmp(cmd, "ponderhit") == 0)
        proto_ponderhit(e, "info string error ponderhit: no search is "
                           "pondering");
    else if (strcmp(cmd, "d") == 0)
        cmd_d(e);
    else if (strcmp(cmd, "quit") == 0) {
        proto_join_search(e, 1);
        return 1;
    } else
        proto_say(e, "info string error unknown command '%.40s'", cmd);
    return 0;
}

/* UCI has no error answer: its errors are info strings. */
static const proto_dialect uci_dialect = {"info string error", uci_command,
                                          uci_info, uci_best_locked};

mc_engine *mc_engine_new_uci(mc_engine_out out, void *ctx)
{
    return proto_engine_new(out, ctx, &uci_dialect);
}
