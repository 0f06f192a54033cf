/*
 * api_setup.c - the custom set-up of Omweso (W3, setup=custom): before the
 * first move each player arranges its own seeds, the starter first, the
 * other seeing it.  Who has arranged is kept in the record's "Arranged"
 * tag, so that a restart forgets nothing (whose turn it is:
 * api_setup_turn, api_rounds.c); the library checks each arrangement (32
 * seeds a side, the pit limit).
 */
#include <stdio.h>
#include <string.h>

#include "api_int.h"

/* The side a set-up request of body j arranges: "side" given, its seat's
   token sent, and its turn to arrange now.  -1 after replying. */
static int setup_side(const game_entry *e, json_t *j, const api_req *rq,
                      mc_api_reply *out)
{
    const char *sv;
    if (api_opt_str(j, "side", &sv, 2, out))
        return -1;
    if (!sv || (strcmp(sv, "S") != 0 && strcmp(sv, "N") != 0)) {
        api_reply_error(out, 400, "json", _("'side' must be \"S\" or \"N\""));
        return -1;
    }
    int side = sv[0] == 'N';
    if (!api_holds(e, rq, side)) {
        api_deny(out, rq->token, api_side_seat(side));
        return -1;
    }
    int turn = api_setup_turn(e);
    if (turn < 0) {
        api_reply_error(out, 409, "setup",
                        _("no set-up is open: the game is not "
                          "setup=custom or has begun (W3)"));
        return -1;
    }
    if (turn != side) {
        const char *done = mc_record_tag(cur_rec(e), "Arranged");
        if (done && strchr(done, side ? 'N' : 'S'))
            api_reply_error(out, 409, "setup",
                            _("%s has arranged its seeds already (W3)"),
                            side ? _("North") : _("South"));
        else
            api_reply_error(
                out, 409, "setup", _("%s arranges first, then %s (W3)"),
                turn ? _("North") : _("South"), side ? _("North") : _("South"));
        return -1;
    }
    return side;
}

/* The board pits (an array of every pit's seeds, as state.pits) laid on
   p, where only side's pits may differ; null or absent: p as it is.  0,
   or -1 after replying. */
static int arrange(const mc_game *g, mc_pos *p, int side, json_t *pits,
                   mc_api_reply *out)
{
    int np = mc_game_pits(g);
    if (!pits || json_is_null(pits))
        return 0;
    if (!json_is_array(pits) || (int)json_array_size(pits) != np) {
        api_reply_error(out, 400, "json",
                        _("'pits' must be an array of %d seed counts"), np);
        return -1;
    }
    for (int i = 0; i < np; i++) {
        json_t *v = json_array_get(pits, (size_t)i);
        json_int_t n = json_is_integer(v) ? json_integer_value(v) : -1;
        if (n < 0 || n > 255) {
            api_reply_error(out, 400, "json",
                            _("'pits' item %d must be a whole number 0..255"),
                            i);
            return -1;
        }
        if (n != p->pit[i] && mc_pit_owner(g, p, i) != side) {
            api_reply_error(out, 422, "position",
                            _("pit %s is not %s's: each player arranges only "
                              "its own pits (W3)"),
                            mc_pit_name(g, i), side ? _("North") : _("South"));
            return -1;
        }
        p->pit[i] = (uint8_t)n;
    }
    return 0;
}

/* Side's arrangement p kept: checked by the library (its position read
   back), the round's record made anew from it with the same tags and
   side added to "Arranged", committed; replies. */
static void keep_arrangement(mc_api *a, game_entry *e, int side,
                             const mc_pos *p, mc_api_reply *out)
{
    mc_record *rec = cur_rec(e);
    const mc_game *g = mc_record_game(rec);
    char buf[MC_POS_STRLEN];
    mc_error err;
    mc_pos q;
    mc_pos_format(g, p, buf, sizeof buf);
    if (mc_pos_parse(g, buf, &q, &err) != 0) {
        api_reply_error(out, 422, api_err_code(err.code), "%s", err.msg);
        return;
    }
    mc_record *r = mc_record_new(mc_game_spec(g), &q, &err);
    if (!r) {
        api_reply_error(out, 422, api_err_code(err.code), "%s", err.msg);
        return;
    }
    const char *tn, *tv;
    for (int i = 0; mc_record_tag_at(rec, i, &tn, &tv); i++)
        if (strcmp(tn, "Arranged") != 0)
            mc_record_set_tag(r, tn, tv, NULL); /* derived ones are refused */
    const char *done = mc_record_tag(rec, "Arranged");
    char arr[4];
    snprintf(arr, sizeof arr, "%s%s", done ? done : "", side ? "N" : "S");
    mc_record_set_tag(r, "Arranged", arr, NULL);
    e->recs[e->n - 1] = r;
    mc_record_free(rec);
    e->version++;
    if (api_commit(a, e, out) == 0)
        api_reply_state(out, 200, e, NULL, NULL, NULL);
}

/* A player arranges its seeds in a custom set-up (W3): "pits" is the whole
   board (as state.pits) in which only that side's pits may differ, or null
   to keep the library's arrangement (the computer's side).  The library
   checks the result (32 seeds each, the pit limit). */
void ep_setup(mc_api *a, game_entry *e, const api_req *rq, mc_api_reply *out)
{
    static const char *const keys[] = {"side", "pits", NULL};
    json_t *j = api_parse_body(rq->body, rq->len, keys, out);
    if (!j)
        return;
    int side = setup_side(e, j, rq, out);
    mc_pos p = *mc_session_pos(cur_session(e));
    int bad = side < 0 || arrange(mc_record_game(cur_rec(e)), &p, side,
                                  json_object_get(j, "pits"), out) != 0;
    json_decref(j);
    if (!bad)
        keep_arrangement(a, e, side, &p, out);
}
