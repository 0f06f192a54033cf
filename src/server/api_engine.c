/*
 * api_engine.c - the computer players of the API: a few players kept
 * between requests and lent to one search at a time, shared fairly between
 * games' moves and the engine's help; the endpoints that search (an engine
 * move, a hint, the analysis of a position of a game or of any position)
 * and the review of a whole game from the values an analysis gave.  A
 * search runs without its game's lock held: a change meanwhile is 409.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api_int.h"
#include "mancala_egdb.h"

/* Sharing the computer players (issue 44): a search for a game's move may
   take any player; the engine's help (an analysis, a hint) at most one per
   address and API_PLAYERS - 1 in all, so that strangers' analyses never
   leave a game without a player.  A request waits its turn for a player
   (a move up to PLAYER_WAIT_MOVE seconds, help PLAYER_WAIT_HELP) rather
   than being turned away at once, and help thinks MC_API_MAX_HELP_SECONDS
   at most. */
#define PLAYER_WAIT_MOVE 10.0
#define PLAYER_WAIT_HELP 5.0

/* A player for game g that no other search uses (players_lock held): one
   made for these rules before, else a free one remade, else a new one;
   NULL when all are busy. */
static api_player *lend_player(mc_api *a, const mc_game *g)
{
    api_player *free_slot = NULL, *idle = NULL;
    for (int i = 0; i < API_PLAYERS; i++) {
        api_player *p = &a->players[i];
        if (p->busy)
            continue;
        if (p->pl && strcmp(p->spec, mc_game_spec(g)) == 0) {
            p->busy = 1;
            return p;
        }
        if (!p->pl && !free_slot)
            free_slot = p;
        if (p->pl && !idle)
            idle = p;
    }
    api_player *p = free_slot ? free_slot : idle;
    if (!p)
        return NULL;
    mc_player_free(p->pl);
    mc_player_opts o = {0};
    o.threads = mc_cores();
    o.book = a->book_off ? "none" : NULL;
    p->pl = mc_player_new(g, &o, NULL);
    if (!p->pl)
        return NULL;
    snprintf(p->spec, sizeof p->spec, "%s", mc_game_spec(g));
    p->busy = 1;
    return p;
}

/* May this request take a player now (players_lock held)? */
static int may_take(const mc_api *a, int help, const char *addr)
{
    if (!help)
        return 1;
    int total = 0, mine = 0;
    for (int i = 0; i < API_PLAYERS; i++)
        if (a->players[i].busy && a->players[i].help) {
            total++;
            mine += strcmp(a->players[i].addr, addr) == 0;
        }
    return total < API_PLAYERS - 1 && mine == 0;
}

/* A player for one search: help (an analysis, a hint) or a game's move,
   for addr; waits its turn (the caller may hold a game's lock: only
   briefly).  NULL with the answer in out. */
static api_player *borrow_player(mc_api *a, const mc_game *g, int help,
                                 const char *addr, mc_api_reply *out)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    double wait = help ? PLAYER_WAIT_HELP : PLAYER_WAIT_MOVE;
    long long ns = until.tv_nsec + (long long)(wait * 1e9);
    until.tv_sec += (time_t)(ns / 1000000000);
    until.tv_nsec = (long)(ns % 1000000000);
    if (!addr)
        addr = "";
    pthread_mutex_lock(&a->players_lock);
    api_player *ap = NULL;
    int timed_out = 0;
    while (!a->stopping && !timed_out &&
           !(may_take(a, help, addr) && (ap = lend_player(a, g))))
        timed_out = pthread_cond_timedwait(&a->player_freed, &a->players_lock,
                                           &until) != 0;
    if (ap) {
        ap->help = help;
        snprintf(ap->addr, sizeof ap->addr, "%s", addr);
    }
    int stopping = a->stopping;
    pthread_mutex_unlock(&a->players_lock);
    if (!ap)
        api_reply_error(out, 503, "busy", "%s",
                        stopping ? _("the server is stopping")
                        : help
                            ? _("the engine's help is in use (yours, or every "
                                "player it may have): try again")
                            : _("every computer player is thinking: try "
                                "again"));
    return ap;
}

static void give_back(mc_api *a, api_player *ap)
{
    pthread_mutex_lock(&a->players_lock);
    assert(ap->busy && ap->pl);
    ap->busy = 0;
    ap->help = 0;
    pthread_cond_broadcast(&a->player_freed);
    pthread_mutex_unlock(&a->players_lock);
}

int mc_api_searching(mc_api *a)
{
    pthread_mutex_lock(&a->players_lock);
    int n = 0;
    for (int i = 0; i < API_PLAYERS; i++)
        n += a->players[i].busy;
    pthread_mutex_unlock(&a->players_lock);
    return n;
}

void mc_api_stop_searches(mc_api *a)
{
    pthread_mutex_lock(&a->players_lock);
    a->stopping = 1;
    pthread_cond_broadcast(&a->player_freed);
    for (int i = 0; i < API_PLAYERS; i++)
        if (a->players[i].busy && a->players[i].pl)
            mc_player_stop(a->players[i].pl);
    pthread_mutex_unlock(&a->players_lock);
}

/* ---- searches ---------------------------------------------------------- */

/* The search modes of search_copy. */
enum {
    SEARCH_HELP = 1, /* the engine's help (a hint, an analysis): its share */
    SEARCH_SURE = 2, /* never a blind move (api_player_go's sure) */
    SEARCH_OWN_CLOCK = 4 /* the time counts once a player is ready (an
                            analysis), not from the request (a move) */
};

/* Search s (the game's session, or a copy of it at an earlier ply) of game
   e, whose lock is held, through a lent player without the lock held
   (other requests on the game go on; a change meanwhile makes it 409).
   0, or -1 after replying. */
static int search_copy(mc_api *a, game_entry *e, const mc_session *s,
                       const mc_player_opts *o, mc_go *go, int mode,
                       const char *addr, mc_search_info *info,
                       mc_api_reply *out)
{
    assert(api_game_locked(e));
    const mc_game *g0 = mc_record_game(cur_rec(e));
    if (mc_session_over(s)) {
        api_reply_error(out, 409, "over", _("the game is over"));
        return -1;
    }
    api_player *ap = borrow_player(a, g0, mode & SEARCH_HELP, addr, out);
    if (!ap)
        return -1;
    /* The player copies the game now, under the game's lock. */
    if (mc_player_sync(ap->pl, s, NULL) != 0) {
        give_back(a, ap);
        api_reply_error(out, 500, "memory", _("cannot copy the game"));
        return -1;
    }
    unsigned long version = e->version;
    api_game_unlock(e);
    int rc = mc_player_set_opts(ap->pl, o, NULL);
    if (mode & SEARCH_OWN_CLOCK)
        go->start = mc_clock(); /* waiting, or a new player's table, do
                                   not eat the search's time */
    if (rc == 0)
        rc = api_player_go(a, ap, go, (mode & SEARCH_SURE) != 0, info);
    give_back(a, ap);
    api_game_lock(e);
    if (e->gone) {
        api_reply_error(out, 404, "not_found",
                        _("the game was deleted meanwhile"));
        return -1;
    }
    if (rc == MC_ERR_OVER) {
        api_reply_error(out, 409, "over", _("the game is over"));
        return -1;
    }
    if (rc != 0) {
        api_reply_error(out, 500, "memory", _("the engine could not search"));
        return -1;
    }
    if (e->version != version || api_behind(e)) {
        api_reply_error(out, 409, "changed",
                        _("the game changed while the engine was thinking"));
        return -1;
    }
    return 0;
}

static int search_limits(json_t *j, mc_player_opts *o, mc_go *go,
                         mc_api_reply *out)
{
    double level = 3, seconds = 1, nodes = 0;
    if (api_opt_num(j, "level", 1, 10, &level, out) ||
        api_opt_num(j, "seconds", 0.01, MC_API_MAX_SECONDS, &seconds, out) ||
        api_opt_num(j, "nodes", 0, 1e9, &nodes, out))
        return -1;
    memset(o, 0, sizeof *o);
    memset(go, 0, sizeof *go);
    go->start = mc_clock(); /* the time counts from the request */
    o->level = (int)level;
    o->threads = mc_cores();
    o->seed = (uint64_t)time(NULL);
    go->nodes = (uint64_t)nodes;
    go->movetime = seconds; /* with nodes too: the first limit reached */
    return 0;
}

/* POST engine (hint 0): the engine's move, played; POST hint: the move
   it would play, for a seat holder. */
static void engine_move(mc_api *a, game_entry *e, const api_req *rq, int hint,
                        mc_api_reply *out)
{
    static const char *const keys[] = {"level", "seconds", "nodes", NULL};
    /* The engine plays for the side to move; a hint is for a seat holder
       (a search costs the server: spectators do not get one). */
    int side = mc_session_pos(cur_session(e))->side;
    /* A house bot's move (a game of the lobby against it): either seat
       holder asks for it, at the bot's own level and time. */
    int bot = !hint && e->owner == 0 ? e->bot[side] : 0;
    if (bot    ? !api_holds_any(e, rq)
        : hint ? !api_holds_any(e, rq)
               : !api_holds(e, rq, side)) {
        api_deny(out, rq->token,
                 hint || bot ? N_("this needs the token of a seat")
                             : api_side_seat(side));
        return;
    }
    if (hint && api_help_refused(e, out))
        return;
    /* A game of the lobby is between its two players: neither asks the
       engine to play for them. */
    if (!hint && e->owner == 0 && !bot) {
        api_reply_error(out, 403, "lobby",
                        _("in a game of the lobby each player makes their own "
                          "moves"));
        return;
    }
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    mc_player_opts o;
    mc_go go;
    int bad = search_limits(j, &o, &go, out);
    json_decref(j);
    if (bad)
        return;
    pthread_mutex_lock(&a->players_lock);
    o.book = a->book_off ? "none" : NULL;
    o.book_variety = hint ? 0 : a->book_variety; /* a hint: the best */
    pthread_mutex_unlock(&a->players_lock);
    if (bot) {
        /* the bot's own strength, whatever was asked */
        o.level = bot;
        go.nodes = 0;
        go.movetime = API_BOT_SECONDS(bot);
    }
    if (o.level == 10)
        o.seed = api_random_u64(); /* it only picks among book moves */
    if (!hint) {
        /* The engine's thinking counts on its clock: it never oversteps
           (a move's time: 4/5 of it; a game's: a twentieth, and most of
           the increment). */
        mc_session *s = cur_session(e);
        mc_time_control tc;
        double left[2];
        mc_session_time(s, &tc);
        int run = mc_session_clock(s, e->now, left);
        if (run >= 0) {
            double cap = tc.kind == MC_TIME_MOVE
                             ? 0.8 * left[run]
                             : left[run] / 20 + 0.8 * tc.increment;
            if (cap > 0.8 * left[run])
                cap = 0.8 * left[run];
            if (cap < 0.01)
                cap = 0.01;
            if (go.movetime > cap)
                go.movetime = cap;
        }
    }
    mc_search_info info;
    if (hint && go.movetime > MC_API_MAX_HELP_SECONDS)
        go.movetime = MC_API_MAX_HELP_SECONDS;
    if (search_copy(a, e, cur_session(e), &o, &go,
                    SEARCH_SURE | (hint ? SEARCH_HELP : 0), rq->addr, &info,
                    out) != 0)
        return;
    const mc_game *g = mc_record_game(cur_rec(e));
    const mc_pos *p = mc_session_pos(cur_session(e));
    char tok[MC_MOVE_STRLEN];
    mc_move_format(g, p, info.best, tok, sizeof tok);
    json_t *extra =
        json_pack("{s:i,s:i,s:I,s:b}", "score", info.score, "depth", info.depth,
                  "nodes", (json_int_t)info.nodes, "book", info.book);
    if (info.solved) {
        /* Perfect play: the tables' words for the position. */
        char words[200];
        mc_solved_describe(g, p, info.value, info.plies, words, sizeof words);
        json_object_set_new(extra, "solved", json_true());
        json_object_set_new(extra, "plies", json_integer(info.plies));
        json_object_set_new(extra, "perfect", json_string(words));
    }
    if (hint) {
        json_object_set_new(extra, "hint", json_string(tok));
        api_reply_state(out, 200, e, NULL, NULL, extra);
        return;
    }
    api_play_token(a, e, tok, out, extra);
}

void ep_engine(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out)
{
    engine_move(a, e, rq, 0, out);
}

void ep_hint(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out)
{
    engine_move(a, e, rq, 1, out);
}

/* ---- analysis and review ----------------------------------------------- */

/* A value for players: its side's chance to win and the words (the
   game's unit: seeds, or a chance to win). */
static void add_value(json_t *j, const mc_game *g, int side, int score)
{
    char words[160];
    mc_score_describe(g, side, score, words, sizeof words);
    json_object_set_new(
        j, "chance",
        json_real(floor(mc_win_chance(g, score) * 1000 + 0.5) / 1000));
    json_object_set_new(j, "words", json_string(words));
}

/* POST /api/game/ID/analysis {ply, level, seconds, nodes}: the engine's
   value of position `ply` of the round (0 .. the ply played), with the
   history up to it (repetitions count as in the game): one step of a
   whole-game review.  A seat holder may ask at any time; anyone once the
   game is over (it tells nothing then that could help a player). */
void ep_analysis(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"ply", "level", "seconds", "nodes",
                                       NULL};
    mc_session *s = cur_session(e);
    if (!mc_session_over(s) && !api_holds_any(e, rq)) {
        api_deny(out, rq->token,
                 N_("this needs the token of a seat (or the game's end)"));
        return;
    }
    if (api_help_refused(e, out))
        return;
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    double ply = -1;
    mc_player_opts o;
    mc_go go;
    int n = mc_session_ply(s);
    int bad = api_opt_num(j, "ply", 0, n, &ply, out) ||
              search_limits(j, &o, &go, out);
    json_decref(j);
    if (bad)
        return;
    if (ply < 0 || ply != (int)ply) {
        api_reply_error(out, 400, "json",
                        _("'ply' must be a whole number from 0 to %d"), n);
        return;
    }
    int k = (int)ply;
    assert(k >= 0 && k <= n);
    const mc_game *g = mc_record_game(cur_rec(e));
    if (k == n && mc_session_over(s)) {
        api_reply_error(out, 409, "over",
                        _("the game is over in that position"));
        return;
    }
    mc_session *c = mc_session_new(g, mc_session_pos_at(s, 0));
    for (int i = 0; c && i < k; i++)
        if (mc_session_play(c, mc_session_move_at(s, i), NULL, NULL) != 0) {
            mc_session_free(c);
            c = NULL;
        }
    if (!c) {
        api_reply_error(out, 500, "memory", _("cannot copy the game"));
        return;
    }
    o.book = "none"; /* a value, not the book's move */
    o.book_variety = 0;
    if (go.movetime > MC_API_MAX_HELP_SECONDS)
        go.movetime = MC_API_MAX_HELP_SECONDS;
    const mc_pos p = *mc_session_pos(c);
    mc_search_info info;
    int rc = search_copy(a, e, c, &o, &go, SEARCH_HELP | SEARCH_OWN_CLOCK,
                         rq->addr, &info, out);
    mc_session_free(c);
    if (rc != 0)
        return;
    if (info.depth == 0 && !info.book && !info.solved) {
        /* not one iteration within the time: no value to give */
        api_reply_error(out, 503, "busy",
                        _("the engine had no time to value the "
                          "position; ask again"));
        return;
    }
    char tok[MC_MOVE_STRLEN];
    mc_move_format(g, &p, info.best, tok, sizeof tok);
    int pit = mc_move_pit(g, &p, info.best);
    json_t *r = json_pack("{s:i,s:s,s:o,s:s,s:i,s:i,s:I}", "ply", k, "best",
                          tok, "pit", pit < 0 ? json_null() : json_integer(pit),
                          "side", p.side ? "N" : "S", "score", info.score,
                          "depth", info.depth, "nodes", (json_int_t)info.nodes);
    add_value(r, g, p.side, info.score);
    api_reply_json(out, 200, r);
}

/* POST /api/game/ID/review {scores, best}: the review of the round from
   its positions' values (scores[k]: position k's value for its side to
   move, best[k]: the engine's move there, as /analysis gave them; for
   k = 0 .. ply, or .. ply-1 when the game is over): each move's verdict
   (the library's: mc_review_fill) and South's chance to win at each
   position, for the page's graph.  No search: anyone may ask. */
void ep_review(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out)
{
    (void)a;
    static const char *const keys[] = {"scores", "best", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    mc_session *s = cur_session(e);
    const mc_game *g = mc_record_game(cur_rec(e));
    int n = mc_session_ply(s), over = mc_session_over(s);
    int want = over ? n : n + 1;
    json_t *js = json_object_get(j, "scores"), *jb = json_object_get(j, "best");
    if (!json_is_array(js) || !json_is_array(jb) ||
        (int)json_array_size(js) != want || (int)json_array_size(jb) != want) {
        json_decref(j);
        api_reply_error(out, 400, "json",
                        _("'scores' and 'best' must be arrays of %d values "
                          "(one for each position valued)"),
                        want);
        return;
    }
    int *score = calloc((size_t)n + 1, sizeof *score);
    mc_move *best = calloc((size_t)n + 1, sizeof *best);
    mc_review *rv = calloc((size_t)n + 1, sizeof *rv);
    if (!score || !best || !rv) {
        free(score), free(best), free(rv);
        json_decref(j);
        api_reply_error(out, 500, "memory", _("out of memory"));
        return;
    }
    for (int k = 0; k < want; k++) {
        json_t *v = json_array_get(js, (size_t)k);
        const char *t = json_string_value(json_array_get(jb, (size_t)k));
        mc_error err;
        if (!json_is_integer(v) || json_integer_value(v) < -MC_SCORE_WIN ||
            json_integer_value(v) > MC_SCORE_WIN || !t ||
            mc_move_parse(g, mc_session_pos_at(s, k), t, &best[k], &err) != 0) {
            free(score), free(best), free(rv);
            json_decref(j);
            api_reply_error(out, 422, "move",
                            _("position %d: a score within +-%d and a "
                              "legal move are needed"),
                            k, MC_SCORE_WIN);
            return;
        }
        score[k] = (int)json_integer_value(v);
    }
    json_decref(j);
    mc_review_fill(s, score, best, rv);
    json_t *moves = json_array(), *graph = json_array();
    for (int k = 0; k <= n; k++) {
        double south;
        if (k < want)
            south = mc_session_pos_at(s, k)->side == MC_SOUTH
                        ? mc_win_chance(g, score[k])
                        : 1.0 - mc_win_chance(g, score[k]);
        else /* the end: the result */
            south = rv[n - 1].side == MC_SOUTH ? rv[n - 1].after
                                               : 1.0 - rv[n - 1].after;
        json_array_append_new(graph,
                              json_real(floor(south * 1000 + 0.5) / 1000));
    }
    for (int k = 0; k < n; k++) {
        const mc_pos *p = mc_session_pos_at(s, k);
        char mv[MC_MOVE_STRLEN], bt[MC_MOVE_STRLEN];
        mc_move_format(g, p, rv[k].played, mv, sizeof mv);
        mc_move_format(g, p, rv[k].best, bt, sizeof bt);
        json_t *m =
            json_pack("{s:i,s:s,s:s,s:s,s:f,s:f,s:s}", "ply", k + 1, "side",
                      rv[k].side ? "N" : "S", "move", mv, "best", bt, "before",
                      floor(rv[k].before * 1000 + 0.5) / 1000, "after",
                      floor(rv[k].after * 1000 + 0.5) / 1000, "verdict",
                      mc_verdict_name(rv[k].verdict));
        add_value(m, g, p->side, score[k]);
        json_array_append_new(moves, m);
    }
    free(score), free(best), free(rv);
    api_reply_json(out, 200,
                   json_pack("{s:o,s:o}", "moves", moves, "graph", graph));
}

/* The engine's view of any position of a game (review mode): the best move,
   its pit and the score, without touching any game.  The same limits and
   busy answer as a hint; the position alone is searched (no history). */
void ep_analyze(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"game",    "position", "level",
                                       "seconds", "nodes",    NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    const char *spec, *pos;
    mc_player_opts o;
    mc_go go;
    if (api_opt_str(j, "game", &spec, MC_SPEC_STRLEN, out) ||
        api_opt_str(j, "position", &pos, 1024, out) ||
        search_limits(j, &o, &go, out)) {
        json_decref(j);
        return;
    }
    if (!spec || !pos) {
        json_decref(j);
        api_reply_error(out, 400, "json",
                        _("'game' and 'position' are required"));
        return;
    }
    mc_error err;
    mc_game *g = mc_game_new(spec, &err);
    mc_pos p;
    if (!g || mc_pos_parse(g, pos, &p, &err) != 0) {
        json_decref(j);
        mc_game_free(g);
        api_reply_error(out, 422, api_err_code(err.code), "%s", err.msg);
        return;
    }
    json_decref(j);
    mc_session *s = mc_session_new(g, &p);
    if (!s) {
        mc_game_free(g);
        api_reply_error(out, 500, "memory", _("out of memory"));
        return;
    }
    if (mc_session_over(s)) {
        mc_session_free(s);
        mc_game_free(g);
        api_reply_error(out, 409, "over",
                        _("the game is over in that position"));
        return;
    }
    pthread_mutex_lock(&a->players_lock);
    o.book = a->book_off ? "none" : NULL;
    o.book_variety = 0;
    pthread_mutex_unlock(&a->players_lock);
    if (go.movetime > MC_API_MAX_HELP_SECONDS)
        go.movetime = MC_API_MAX_HELP_SECONDS;
    api_player *ap = borrow_player(a, g, 1, rq->addr, out);
    if (!ap) {
        mc_session_free(s);
        mc_game_free(g);
        return;
    }
    mc_search_info info;
    int rc = mc_player_sync(ap->pl, s, NULL);
    if (rc == 0)
        rc = mc_player_set_opts(ap->pl, &o, NULL);
    go.start = mc_clock(); /* the search's own time, as for /analysis */
    if (rc == 0)
        rc = api_player_go(a, ap, &go, 1, &info);
    give_back(a, ap);
    if (rc != 0) {
        api_reply_error(out, 500, "memory", _("the engine could not search"));
    } else {
        char tok[MC_MOVE_STRLEN];
        mc_move_format(g, &p, info.best, tok, sizeof tok);
        int pit = mc_move_pit(g, &p, info.best);
        json_t *r = json_pack("{s:s,s:o,s:s,s:i,s:i,s:I,s:b}", "best", tok,
                              "pit", pit < 0 ? json_null() : json_integer(pit),
                              "side", p.side ? "N" : "S", "score", info.score,
                              "depth", info.depth, "nodes",
                              (json_int_t)info.nodes, "book", info.book);
        add_value(r, g, p.side, info.score);
        api_reply_json(out, 200, r);
    }
    mc_session_free(s);
    mc_game_free(g);
}
