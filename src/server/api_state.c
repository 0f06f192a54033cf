/*
 * api_state.c - a game in JSON: a move as the library describes it, a
 * board, a move's trace and its sentence, and the state of a game as every
 * endpoint on one answers (docs/API.md, "The state"), gathered from the
 * session, the rounds (the match, the set-up's turn) and the seats (the
 * engine's help).  Replies only: nothing here changes a game.
 */
#include <math.h>
#include <stdlib.h>

#include "api_int.h"

/* ---- the state --------------------------------------------------------- */

static const char *const move_kinds[] = {[MC_MOVE_IS_SOW] = "sow",
                                         [MC_MOVE_IS_OFFER] = "offer",
                                         [MC_MOVE_IS_ACCEPT] = "accept",
                                         [MC_MOVE_IS_REFUSE] = "refuse",
                                         [MC_MOVE_IS_PASS] = "pass"};

/* A move as the library describes it: its token, the pit it sows from,
   its kind, an offer's pits and price, a pass's reason. */
json_t *api_move_json(const mc_game *g, const mc_pos *p, mc_move m)
{
    char buf[MC_MOVE_STRLEN];
    mc_move_format(g, p, m, buf, sizeof buf);
    mc_move_facts f;
    if (mc_move_facts_get(g, p, m, &f) != 0)
        return json_pack("{s:s,s:n,s:n,s:n,s:n,s:n}", "move", buf, "pit",
                         "kind", "price", "pits", "why");
    json_t *pits = json_null();
    if (f.kind == MC_MOVE_IS_OFFER || f.kind == MC_MOVE_IS_ACCEPT ||
        f.kind == MC_MOVE_IS_REFUSE) {
        pits = json_array();
        for (int i = 0; i < 32; i++)
            if (f.pits >> i & 1)
                json_array_append_new(pits, json_integer(i));
    }
    int priced = f.kind != MC_MOVE_IS_SOW && f.kind != MC_MOVE_IS_PASS;
    char choice[200];
    mc_move_choice(g, p, m, choice, sizeof choice);
    return json_pack(
        "{s:s,s:o,s:s,s:o,s:o,s:o,s:o}", "move", buf, "pit",
        f.pit >= 0 ? json_integer(f.pit) : json_null(), "kind",
        move_kinds[f.kind], "price",
        priced ? json_integer(f.price) : json_null(), "pits", pits, "why",
        f.kind == MC_MOVE_IS_PASS ? api_safe_str(f.why) : json_null(), "choice",
        api_safe_str(choice));
}

static json_t *result_json(const mc_game *g, const mc_result *r)
{
    if (!r->over)
        return json_null();
    const char *why = mc_end_reason_name(r->reason);
    char text[512];
    mc_result_describe(g, r, text, sizeof text);
    return json_pack("{s:s,s:s,s:o,s:i,s:[f,f],s:o,s:b}", "winner",
                     r->winner == MC_SOUTH   ? "S"
                     : r->winner == MC_NORTH ? "N"
                                             : "draw",
                     "reason", why && *why ? why : "other", "detail",
                     api_safe_str(r->detail), "points", r->points, "score",
                     r->score2[0] / 2.0, r->score2[1] / 2.0, "text",
                     api_safe_str(text), "noglory", r->noglory);
}

/* The clocks at the time of the request: null for a game without a time
   control. */
static json_t *clock_json(const game_entry *e)
{
    mc_session *s = cur_session(e);
    mc_time_control tc;
    mc_session_time(s, &tc);
    if (tc.kind == MC_TIME_NONE && !tc.mode[0])
        return json_null();
    char ctl[64], text[256];
    mc_time_format(&tc, ctl, sizeof ctl);
    mc_time_describe(mc_record_game(cur_rec(e)), &tc, text, sizeof text);
    double left[2];
    int run = mc_session_clock(s, e->now, left);
    json_t *l = json_array();
    for (int i = 0; i < 2; i++) /* to the millisecond */
        json_array_append_new(
            l, left[i] < 0 ? json_null()
                           : json_real(floor(left[i] * 1000 + 0.5) / 1000));
    return json_pack(
        "{s:s,s:o,s:o,s:o,s:o,s:s,s:b}", "control", ctl, "left", l, "running",
        run < 0 ? json_null() : json_string(run ? "N" : "S"), "mode",
        tc.mode[0] ? json_string(tc.mode) : json_null(), "on_flag",
        tc.kind == MC_TIME_NONE
            ? json_null()
            : json_string(tc.on_flag == MC_FLAG_PASS ? "pass" : "loss"),
        "text", text, "no_undo", tc.no_undo);
}

/* A position as the state and the review show it: its string, the side
   to move, the pits with their owners, the captures. */
json_t *api_board_json(const mc_game *g, const mc_pos *p)
{
    char buf[MC_POS_STRLEN];
    mc_pos_format(g, p, buf, sizeof buf);
    json_t *pits = json_array(), *owner = json_array();
    for (int i = 0; i < mc_game_pits(g); i++) {
        json_array_append_new(pits, json_integer(p->pit[i]));
        json_array_append_new(owner,
                              json_string(mc_pit_owner(g, p, i) ? "N" : "S"));
    }
    return json_pack("{s:s,s:s,s:o,s:o,s:[i,i]}", "position", buf, "side",
                     p->side ? "N" : "S", "pits", pits, "owner", owner,
                     "captured", p->cap[0], p->cap[1]);
}

/* The pits' names, in index order ("A", "a"). */
static json_t *names_json(const mc_game *g)
{
    json_t *names = json_array();
    for (int i = 0; i < mc_game_pits(g); i++)
        json_array_append_new(names, json_string(mc_pit_name(g, i)));
    return names;
}

/* How the board is drawn: rows of pit indices, and its stores. */
static json_t *layout_json(const mc_game *g)
{
    mc_layout l;
    mc_layout_get(g, &l);
    json_t *rows = json_array();
    for (int r = 0; r < l.rows; r++) {
        json_t *row = json_array();
        for (int c = 0; c < l.cols; c++)
            json_array_append_new(row, json_integer(l.pit[r][c]));
        json_array_append_new(rows, row);
    }
    return json_pack("{s:o,s:b,s:s}", "rows", rows, "stores", l.stores,
                     "store_name", l.store_name ? l.store_name : "");
}

/* The legal moves of the position now, each as api_move_json says it. */
static json_t *moves_json(const mc_game *g, const mc_session *s)
{
    const mc_pos *p = mc_session_pos(s);
    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(s, mv);
    json_t *moves = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(moves, api_move_json(g, p, mv[i]));
    return moves;
}

/* The last move played: who played it and the pit it sowed from. */
static json_t *last_json(const mc_game *g, const mc_session *s)
{
    int ply = mc_session_ply(s);
    if (ply == 0)
        return json_null();
    char buf[MC_MOVE_STRLEN];
    const mc_pos *q = mc_session_pos_at(s, ply - 1);
    mc_move lm = mc_session_move_at(s, ply - 1);
    mc_move_format(g, q, lm, buf, sizeof buf);
    int pit = mc_move_pit(g, q, lm);
    return json_pack("{s:s,s:s,s:o}", "move", buf, "side", q->side ? "N" : "S",
                     "pit", pit >= 0 ? json_integer(pit) : json_null());
}

/* The moves played, in order. */
static json_t *history_json(const mc_game *g, const mc_session *s)
{
    char buf[MC_MOVE_STRLEN];
    json_t *hist = json_array();
    for (int i = 0; i < mc_session_ply(s); i++) {
        mc_move_format(g, mc_session_pos_at(s, i), mc_session_move_at(s, i),
                       buf, sizeof buf);
        json_array_append_new(hist, json_string(buf));
    }
    return hist;
}

static json_t *tags_json(const mc_record *rec)
{
    json_t *tags = json_object();
    const char *tn, *tv;
    for (int i = 0; mc_record_tag_at(rec, i, &tn, &tv); i++)
        json_object_set_new(tags, tn, api_safe_str(tv));
    return tags;
}

/* A takeback asked for (games between two people), or null. */
static json_t *takeback_json(const game_entry *e)
{
    if (e->tb_side < 0)
        return json_null();
    return json_pack("{s:s,s:s}", "by", e->tb_side ? "N" : "S", "status",
                     e->tb_declined ? "declined" : "asked");
}

/* A custom set-up (Omweso W3) is open until the first move: whose turn it
   is to arrange, and for the page's editor the most seeds a pit may get
   (null: any); null when no set-up is open. */
static json_t *setup_json(const game_entry *e, const mc_game *g)
{
    int cap = 0, turn = api_setup_turn(e);
    mc_game_custom_setup(g, &cap);
    if (turn < 0)
        return json_null();
    return json_pack("{s:s,s:o}", "turn", turn ? "N" : "S", "cap",
                     cap > 0 ? json_integer(cap) : json_null());
}

/* The match as the finished rounds left it (a single game is one too). */
static json_t *match_json(const game_entry *e, const mc_game *g)
{
    char buf[MC_POS_STRLEN + MC_SPEC_STRLEN];
    mc_match m;
    api_match_of(e, &m);
    mc_match_describe(g, &m, buf, sizeof buf);
    return json_pack(
        "{s:b,s:i,s:[i,i],s:i,s:i,s:s,s:o,s:s}", "on", mc_game_is_match(g),
        "round", e->n, "wins", m.wins[0], m.wins[1], "draws", m.draws, "games",
        m.games, "next_first", m.next_first ? "N" : "S", "winner",
        m.winner < 0 ? json_null() : json_string(m.winner ? "N" : "S"), "score",
        buf);
}

/* The name of the account holding side's seat: null when none does, and
   DELETED_PLAYER when it was deleted since. */
static json_t *player_json(const game_entry *e, int side)
{
    if (e->acct[side] <= 0)
        return json_null();
    return json_string(e->player[side][0] ? e->player[side] : DELETED_PLAYER);
}

/* A rated game's ratings once it ended: null before (and in a game not
   rated), {"aborted": true} when it ended too soon to be rated, else each
   side's rating before and after as shown (provisional ones marked) and
   the change. */
static json_t *ratings_json(const game_entry *e)
{
    const mc_store_change *c = &e->change;
    if (!e->rated || !e->ended)
        return json_null();
    if (c->aborted)
        return json_pack("{s:b}", "aborted", 1);
    json_t *j = json_pack("{s:b}", "aborted", 0);
    for (int s = 0; s < 2; s++)
        json_object_set_new(
            j, s ? "N" : "S",
            json_pack("{s:i,s:b,s:i,s:b,s:i}", "before", c->shown_before[s],
                      "before_provisional", c->prov_before[s], "after",
                      c->shown_after[s], "provisional", c->prov_after[s],
                      "change", c->change[s]));
    return j;
}

/* The state of a game (docs/API.md, "The state"), its members in the
   order the page has always received them. */
static json_t *state_json(const game_entry *e)
{
    mc_record *rec = cur_rec(e);
    mc_session *s = mc_record_session(rec);
    const mc_game *g = mc_record_game(rec);

    /* position, side, pits, owner, captured */
    json_t *st = api_board_json(g, mc_session_pos(s));
    json_object_set_new(st, "id", json_string(e->id));
    json_object_set_new(st, "version", json_integer((json_int_t)e->version));
    json_object_set_new(st, "game", json_string(mc_game_name(g)));
    json_object_set_new(st, "spec", json_string(mc_game_spec(g)));
    json_object_set_new(st, "ply", json_integer(mc_session_ply(s)));
    json_object_set_new(st, "names", names_json(g));
    json_object_set_new(st, "layout", layout_json(g));
    json_t *moves = moves_json(g, s);
    json_object_set_new(st, "title", json_string(mc_game_title(g)));
    json_object_set_new(
        st, "unit", json_pack("[s,s]", mc_game_unit(g, 0), mc_game_unit(g, 1)));
    json_object_set_new(st, "moves", moves);
    json_object_set_new(st, "last", last_json(g, s));
    json_object_set_new(st, "history", history_json(g, s));

    mc_result r;
    mc_session_result(s, &r);
    json_object_set_new(st, "over", json_boolean(r.over));
    json_object_set_new(st, "result", result_json(g, &r));
    json_object_set_new(st, "clock", clock_json(e));
    json_object_set_new(st, "tags", tags_json(rec));
    json_object_set_new(st, "takeback", takeback_json(e));
    /* Whether the engine's help (hints, evaluations) is open to the
       players now. */
    json_object_set_new(st, "help", json_boolean(api_help_allowed(e)));
    /* Whether each seat is taken (never its token). */
    json_object_set_new(st, "seats",
                        json_pack("{s:s,s:s}", "S",
                                  e->token[0][0] ? "taken" : "open", "N",
                                  e->token[1][0] ? "taken" : "open"));
    /* The accounts holding the seats (null: none). */
    json_object_set_new(
        st, "players",
        json_pack("{s:o,s:o}", "S", player_json(e, 0), "N", player_json(e, 1)));
    /* A game of the lobby: rated or not, and what its end did. */
    json_object_set_new(st, "rated", json_boolean(e->rated));
    /* The seat of a house bot (its moves: POST engine by the other seat). */
    json_object_set_new(st, "bot",
                        e->bot[0]   ? json_string("S")
                        : e->bot[1] ? json_string("N")
                                    : json_null());
    json_object_set_new(st, "ratings", ratings_json(e));
    json_object_set_new(st, "setup", setup_json(e, g));
    json_object_set_new(st, "match", match_json(e, g));
    return st;
}

json_t *api_trace_json(const mc_game *g, const mc_trace *tr)
{
    json_t *a = json_array();
    char buf[256];
    for (size_t i = 0; i < tr->len; i++) {
        const mc_trace_event *ev = &tr->ev[i];
        const char *kind = mc_trace_kind_name(ev->kind);
        mc_trace_describe(g, ev, buf, sizeof buf);
        json_array_append_new(
            a, json_pack("{s:s,s:i,s:i,s:i,s:o}", "kind", kind ? kind : "other",
                         "pit", ev->pit, "aux", ev->aux, "n", (json_int_t)ev->n,
                         "text", api_safe_str(buf)));
    }
    return a;
}

/* The whole move in words (mc_move_explain), the same sentence the
   program's play and replay print: the page logs it. */
json_t *api_explain_json(const mc_game *g, const mc_pos *before, mc_move m,
                         const mc_trace *tr)
{
    size_t n = mc_move_explain(g, before, m, tr, NULL, 0) + 1;
    char *buf = malloc(n);
    if (!buf)
        return json_null();
    mc_move_explain(g, before, m, tr, buf, n);
    json_t *j = api_safe_str(buf);
    free(buf);
    return j ? j : json_null();
}

/* The state, with the move just played and its trace when given. */
void api_reply_state(mc_api_reply *out, int status, const game_entry *e,
                     const char *move, const mc_trace *tr, json_t *extra)
{
    assert(api_game_locked(e));
    json_t *j = json_pack("{s:o}", "state", state_json(e));
    if (move)
        json_object_set_new(j, "move", json_string(move));
    if (tr) {
        json_object_set_new(j, "trace",
                            api_trace_json(mc_record_game(cur_rec(e)), tr));
        json_object_set_new(j, "trace_dropped",
                            json_integer((json_int_t)tr->dropped));
    }
    if (extra)
        json_object_update(j, extra), json_decref(extra);
    api_reply_json(out, status, j);
}
