/*
 * api_read.c - the endpoints that only read: the games the server plays
 * (GET /api/games), and a game's record, positions, last move with its
 * trace, and whether an offer may be made.  None of them changes a game
 * or needs a token: the id is enough to watch.
 */
#include <stdlib.h>

#include "api_int.h"

void ep_games(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    (void)a;
    (void)rq;
    json_t *list = json_array();
    char help[8192];
    for (const char *const *n = mc_game_names(); *n; n++) {
        mc_game *g = mc_game_new(*n, NULL);
        if (!g)
            continue;
        mc_game_options_help(g, help, sizeof help);
        json_t *modes = json_array();
        const char *mh;
        for (int i = 0; mc_time_mode(g, i, &mh); i++)
            json_array_append_new(modes, json_pack("{s:s,s:s}", "name",
                                                   mc_time_mode(g, i, NULL),
                                                   "text", mh));
        json_array_append_new(list,
                              json_pack("{s:s,s:s,s:s,s:o}", "name", *n,
                                        "title", mc_game_title(g), "options",
                                        help, "time_modes", modes));
        mc_game_free(g);
    }
    api_reply_json(out, 200,
                   json_pack("{s:o,s:s,s:[s,s,s]}", "games", list, "version",
                             mc_version(), "time_forms", "none", "move:SECONDS",
                             "game:SECONDS+INCREMENT"));
}

/* GET /api/game/ID: the state. */
void ep_state(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out)
{
    (void)a;
    (void)rq;
    api_reply_state(out, 200, e, NULL, NULL, NULL);
}

void ep_record(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out)
{
    (void)a;
    (void)rq;
    size_t len;
    char *t = mc_records_format(e->recs, e->n, &len);
    if (!t) {
        api_reply_error(out, 500, "memory", _("out of memory"));
        return;
    }
    out->status = 200;
    out->type = "text/plain; charset=utf-8";
    out->body = t;
    out->len = len;
}

/* Every position of the current game, ply 0 to now, each with the move
   played from it as state.moves describes moves (review mode steps
   through them). */
void ep_positions(mc_api *a, game_entry *e, const api_req *rq,
                  mc_api_reply *out)
{
    (void)a;
    (void)rq;
    mc_session *s = cur_session(e);
    const mc_game *g = mc_record_game(cur_rec(e));
    int n = mc_session_ply(s);
    json_t *list = json_array();
    for (int i = 0; i <= n; i++) {
        const mc_pos *p = i < n ? mc_session_pos_at(s, i) : mc_session_pos(s);
        json_t *b = api_board_json(g, p);
        json_object_set_new(b, "played",
                            i < n
                                ? api_move_json(g, p, mc_session_move_at(s, i))
                                : json_null());
        json_array_append_new(list, b);
    }
    api_reply_json(out, 200,
                   json_pack("{s:s,s:I,s:o}", "id", e->id, "version",
                             (json_int_t)e->version, "positions", list));
}

/* The last move played with its trace, replayed from the position before
   it: a second browser on the game animates the other player's move. */
void ep_last_trace(mc_api *a, game_entry *e, const api_req *rq,
                   mc_api_reply *out)
{
    (void)a;
    (void)rq;
    mc_session *s = cur_session(e);
    const mc_game *g = mc_record_game(cur_rec(e));
    int n = mc_session_ply(s);
    if (n == 0) {
        api_reply_json(out, 200,
                       json_pack("{s:i,s:n,s:[],s:i}", "ply", 0, "move",
                                 "trace", "trace_dropped", 0));
        return;
    }
    mc_trace tr = {NULL, TRACE_CAP, 0, 0};
    tr.ev = malloc(TRACE_CAP * sizeof *tr.ev);
    if (!tr.ev) {
        api_reply_error(out, 500, "memory", _("out of memory"));
        return;
    }
    mc_pos p = *mc_session_pos_at(s, n - 1);
    mc_move m = mc_session_move_at(s, n - 1);
    char tok[MC_MOVE_STRLEN];
    mc_move_format(g, &p, m, tok, sizeof tok);
    json_t *before = api_board_json(g, &p);
    mc_pos after = p;
    mc_play(g, &after, m, &tr);
    api_reply_json(out, 200,
                   json_pack("{s:i,s:s,s:o,s:o,s:o,s:I}", "ply", n, "move", tok,
                             "before", before, "explain",
                             api_explain_json(g, &p, m, &tr), "trace",
                             api_trace_json(g, &tr), "trace_dropped",
                             (json_int_t)tr.dropped));
    free(tr.ev);
}

/* POST /api/game/ID/offer {"pits": [i, ...]}: may the side to move offer
   these pits now?  The library's answer (mc_offer_move): {"legal", "move",
   "why"}; nothing changes, and anyone may ask. */
void ep_offer(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out)
{
    (void)a;
    static const char *const keys[] = {"pits", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    json_t *list = json_object_get(j, "pits");
    const mc_game *g = mc_record_game(cur_rec(e));
    const mc_pos *p = mc_session_pos(cur_session(e));
    uint32_t mask = 0;
    size_t i;
    json_t *v;
    int bad = !json_is_array(list) || json_array_size(list) == 0;
    json_array_foreach(list, i, v)
    {
        json_int_t k = json_is_integer(v) ? json_integer_value(v) : -1;
        if (k < 0 || k >= mc_game_pits(g) || k >= 32 || (mask >> k & 1))
            bad = 1;
        else
            mask |= (uint32_t)1 << k;
    }
    json_decref(j);
    if (bad) {
        api_reply_error(out, 400, "json",
                        _("'pits' must list distinct pit "
                          "indices (0..%d)"),
                        mc_game_pits(g) - 1);
        return;
    }
    mc_move m;
    mc_error err = {0, ""};
    if (mc_session_over(cur_session(e)) ||
        mc_offer_move(g, p, mask, &m, &err) != 0) {
        api_reply_json(out, 200,
                       json_pack("{s:b,s:n,s:o}", "legal", 0, "move", "why",
                                 api_safe_str(mc_session_over(cur_session(e))
                                                  ? _("the game is over")
                                                  : err.msg)));
        return;
    }
    char tok[MC_MOVE_STRLEN];
    mc_move_format(g, p, m, tok, sizeof tok);
    api_reply_json(out, 200,
                   json_pack("{s:b,s:s,s:n}", "legal", 1, "move", tok, "why"));
}
