/*
 * api_play.c - the endpoints that play: a move (from its token, or the
 * engine's), undo and redo, a takeback asked for and answered between two
 * people (POST undo, POST takeback), resignation, the next round of a
 * match, and the flag fall that every request on a game applies first.
 * Each change is committed (api_commit) before the new state is answered.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_int.h"

/* The game is over: why, in the library's words. */
static void over_error(mc_api_reply *out, const mc_session *s)
{
    mc_result r;
    mc_session_result(s, &r);
    api_reply_error(out, 409, "over", _("the game is over (%s)"), r.detail);
}

/* side's flag fell before its move arrived. */
static void time_ran_out(mc_api_reply *out, const mc_session *s, int side)
{
    if (mc_session_over(s))
        over_error(out, s);
    else
        api_reply_error(out, 409, "time",
                        _("%s's time ran out before the move arrived: the turn "
                          "passed"),
                        side ? _("North") : _("South"));
}

/* Play a move token on the game, with its trace; replies. */
void api_play_token(mc_api *a, game_entry *e, const char *tok,
                    mc_api_reply *out, json_t *extra)
{
    assert(api_game_locked(e));
    mc_session *s = cur_session(e);
    mc_trace tr = {NULL, TRACE_CAP, 0, 0};
    tr.ev = malloc(TRACE_CAP * sizeof *tr.ev);
    if (!tr.ev) {
        json_decref(extra);
        api_reply_error(out, 500, "memory", _("out of memory"));
        return;
    }
    const mc_game *g = mc_record_game(cur_rec(e));
    char canon[MC_MOVE_STRLEN];
    mc_error err;
    mc_move m;
    /* The move's time is now (after an engine's search: its thinking
       counts); a flag that fell meanwhile is applied and kept first. */
    e->now = clock_now(a);
    int side = mc_session_pos(s)->side;
    if (mc_session_check_time(s, e->now)) {
        json_decref(extra);
        free(tr.ev);
        e->version++;
        if (api_commit(a, e, out) == 0)
            time_ran_out(out, s, side);
        return;
    }
    mc_pos before = *mc_session_pos(s);
    int arranging = api_setup_turn(e);
    if (mc_session_over(s)) {
        json_decref(extra);
        over_error(out, s);
    } else if (arranging >= 0) {
        json_decref(extra);
        api_reply_error(out, 409, "setup",
                        _("the set-up is not finished: %s "
                          "arranges its seeds first (W3)"),
                        arranging ? _("North") : _("South"));
    } else if (mc_move_parse(g, &before, tok, &m, &err) != 0) {
        json_decref(extra);
        api_reply_error(out, 422, api_err_code(err.code), "%s", err.msg);
    } else if (mc_session_play_at(s, m, e->now, &tr, &err) != 0) {
        json_decref(extra);
        api_reply_error(out, 422, api_err_code(err.code), "%s", err.msg);
    } else {
        mc_move_format(g, &before, m, canon, sizeof canon);
        if (!extra)
            extra = json_object();
        json_object_set_new(extra, "explain",
                            api_explain_json(g, &before, m, &tr));
        e->version++;
        if (api_commit(a, e, out) == 0)
            api_reply_state(out, 200, e, canon, &tr, extra);
        else
            json_decref(extra);
    }
    free(tr.ev);
}

/* Every request on a game first applies a flag fall that is due (a game
   whose flag fell while nobody asked is over, on time, the next time
   anyone looks), committed like a move.  0 after replying (the change was
   not saved). */
int api_flag_first(mc_api *a, game_entry *e, mc_api_reply *out)
{
    assert(api_game_locked(e));
    e->now = clock_now(a);
    if (!mc_session_check_time(cur_session(e), e->now))
        return 1;
    e->version++;
    return api_commit(a, e, out) == 0;
}

void ep_play(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"move", "version", NULL};
    int side = mc_session_pos(cur_session(e))->side;
    if (!api_holds(e, rq, side)) {
        api_deny(out, rq->token, api_side_seat(side));
        return;
    }
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    const char *tok;
    double version = -1;
    if (api_opt_str(j, "move", &tok, MC_MOVE_STRLEN, out) ||
        api_opt_num(j, "version", 0, 9e15, &version, out)) {
        json_decref(j);
        return;
    }
    if (!tok) {
        api_reply_error(out, 400, "json", _("'move' is required"));
    } else if (version >= 0 && (unsigned long)version != e->version) {
        api_reply_error(out, 409, "changed",
                        _("the game has changed since version %.0f (now %lu)"),
                        version, e->version);
    } else {
        api_play_token(a, e, tok, out, NULL);
    }
    json_decref(j);
}

/* Two people hold the seats (the creator took one, the invited friend the
   other): a takeback is then a request the other accepts or declines. */
static int two_players(const game_entry *e)
{
    return e->owner != 3 && e->token[0][0] && e->token[1][0];
}

/* The seat a request holds in a game between two people; -1: none. */
static int seat_of(const game_entry *e, const api_req *rq)
{
    return api_holds(e, rq, 0) ? 0 : api_holds(e, rq, 1) ? 1 : -1;
}

/* The plies a takeback by side takes: back to before its last move (the
   other's reply, if any, goes too); 0 when it has made none. */
static int takeback_plies(const mc_session *s, int side)
{
    assert(side == 0 || side == 1);
    int ply = mc_session_ply(s);
    for (int k = ply - 1; k >= 0; k--)
        if (mc_session_pos_at(s, k)->side == side)
            return ply - k;
    return 0;
}

/* POST undo by one of two people: a request, answered by POST takeback. */
static void ask_takeback(mc_api *a, game_entry *e, const api_req *rq,
                         mc_api_reply *out)
{
    int side = seat_of(e, rq);
    mc_session *s = cur_session(e);
    if (side < 0) {
        api_deny(out, rq->token, N_("this needs the token of a seat"));
        return;
    }
    if (mc_session_over(s)) {
        api_reply_error(out, 409, "over",
                        _("the game is over: nothing to take back"));
        return;
    }
    if (takeback_plies(s, side) == 0) {
        api_reply_error(out, 409, "no_undo",
                        _("%s has made no move to take back"),
                        side ? _("North") : _("South"));
        return;
    }
    if (e->tb_side >= 0 && !e->tb_declined) {
        api_reply_error(out, 409, "takeback",
                        _("a takeback is already asked for"));
        return;
    }
    e->tb_side = side;
    e->tb_declined = 0;
    e->version++; /* the other browser sees the request */
    if (api_commit_takeback(a, e, out) == 0)
        api_reply_state(out, 202, e, NULL, NULL, NULL);
}

/* Undo takes back a move: its mover's seat; redo plays the next one again:
   the seat of the side to move. */
static void undo_redo(mc_api *a, game_entry *e, const api_req *rq, int redo,
                      mc_api_reply *out)
{
    mc_session *s = cur_session(e);
    int ply = mc_session_ply(s);
    if (!redo && two_players(e)) {
        ask_takeback(a, e, rq, out);
        return;
    }
    if (!redo && ply == 0) {
        api_reply_error(out, 409, "no_undo", _("there is no move to undo"));
        return;
    }
    int side =
        redo ? mc_session_pos(s)->side : mc_session_pos_at(s, ply - 1)->side;
    if (!api_holds(e, rq, side)) {
        api_deny(out, rq->token, api_side_seat(side));
        return;
    }
    mc_error err = {0, ""};
    int rc = redo ? mc_session_redo_at(s, e->now, &err)
                  : mc_session_undo_at(s, e->now, &err);
    if (rc == MC_ERR_ARG) { /* nothing to take back or play again */
        api_reply_error(out, 409, redo ? "no_redo" : "no_undo", "%s",
                        redo ? _("there is no move to redo")
                             : _("there is no move to undo"));
        return;
    }
    if (rc != 0) {
        api_reply_error(out, 409, rc == MC_ERR_OVER ? "over" : "no_undo", "%s",
                        err.msg);
        return;
    }
    e->version++;
    if (api_commit(a, e, out) == 0)
        api_reply_state(out, 200, e, NULL, NULL, NULL);
}

void ep_undo(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out)
{
    undo_redo(a, e, rq, 0, out);
}

void ep_redo(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out)
{
    undo_redo(a, e, rq, 1, out);
}

/* POST takeback {accept}: the other player's answer to a takeback asked
   for; accepted, the asking side's last move (and the reply to it) is
   taken back. */
void ep_takeback(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"accept", NULL};
    int side = seat_of(e, rq);
    if (side < 0) {
        api_deny(out, rq->token, N_("this needs the token of a seat"));
        return;
    }
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    json_t *acc = json_object_get(j, "accept");
    int ok = json_is_boolean(acc), accept = json_is_true(acc);
    json_decref(j);
    if (!ok) {
        api_reply_error(out, 400, "json", _("'accept' must be true or false"));
        return;
    }
    if (e->tb_side < 0 || e->tb_declined) {
        api_reply_error(out, 409, "takeback", _("no takeback is asked for"));
        return;
    }
    if (e->tb_side == side) {
        api_reply_error(out, 403, "seat",
                        _("the other player answers a takeback, "
                          "not the one who asked"));
        return;
    }
    if (!accept) {
        e->tb_declined = 1;
        e->version++;
        if (api_commit_takeback(a, e, out) == 0)
            api_reply_state(out, 200, e, NULL, NULL, NULL);
        return;
    }
    mc_session *s = cur_session(e);
    int n = takeback_plies(s, e->tb_side);
    assert(n > 0 && n <= mc_session_ply(s)); /* checked when asked, and
                                                 every change clears it */
    mc_error err = {0, ""};
    for (int i = 0; i < n; i++)
        if (mc_session_undo_at(s, e->now, &err) != 0) {
            api_reply_error(out, 409, "no_undo", "%s",
                            err.msg[0] ? err.msg : _("cannot take back"));
            return;
        }
    e->version++;
    if (api_commit(a, e, out) == 0)
        api_reply_state(out, 200, e, NULL, NULL, NULL);
}

void ep_resign(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"side", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    const char *side;
    if (api_opt_str(j, "side", &side, 8, out)) {
        json_decref(j);
        return;
    }
    mc_session *s = cur_session(e);
    if (!side || (strcmp(side, "S") != 0 && strcmp(side, "N") != 0))
        api_reply_error(out, 400, "json", _("'side' must be \"S\" or \"N\""));
    else if (!api_holds(e, rq, side[0] == 'N'))
        api_deny(out, rq->token, api_side_seat(side[0] == 'N'));
    else if (mc_session_over(s))
        api_reply_error(out, 409, "over", _("the game is over"));
    else {
        mc_session_forfeit(s, side[0] == 'N', MC_END_RESIGN);
        e->version++;
        if (api_commit(a, e, out) == 0)
            api_reply_state(out, 200, e, NULL, NULL, NULL);
    }
    json_decref(j);
}

void ep_next(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out)
{
    const mc_game *g = mc_record_game(cur_rec(e));
    if (!api_holds_any(e, rq)) {
        api_deny(out, rq->token, N_("this needs the token of a seat"));
        return;
    }
    mc_match m;
    api_match_of(e, &m);
    if (!mc_session_over(cur_session(e))) {
        api_reply_error(out, 409, "not_over",
                        _("the current game is not over"));
        return;
    }
    if (!mc_game_is_match(g) || m.winner >= 0) {
        api_reply_error(out, 409, "match_over", _("the match is over"));
        return;
    }
    if (e->n >= MC_API_MAX_ROUNDS) {
        api_reply_error(out, 409, "match_over",
                        _("this match has reached %d games: no more here"),
                        MC_API_MAX_ROUNDS);
        return;
    }
    mc_pos start;
    mc_match_start(g, &m, &start);
    mc_error err;
    mc_time_control tc; /* the next round under the same control */
    mc_session_time(cur_session(e), &tc);
    mc_record *r = mc_record_new(mc_game_spec(g), &start, &err);
    if (!r || api_add_round(e, r) != 0) {
        mc_record_free(r);
        api_reply_error(out, 500, "memory", _("out of memory"));
        return;
    }
    api_set_date(r);
    const char *v;
    for (int i = 0; i < 2; i++)
        if ((v = mc_record_tag(e->recs[0], i ? "North" : "South")))
            mc_record_set_tag(r, i ? "North" : "South", v, NULL);
    char b[16];
    snprintf(b, sizeof b, "%d", e->n);
    mc_record_set_tag(r, "Round", b, NULL);
    api_set_time(a, r, &tc);
    e->version++;
    if (api_commit(a, e, out) == 0)
        api_reply_state(out, 200, e, NULL, NULL, NULL);
}
