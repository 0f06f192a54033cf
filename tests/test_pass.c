/*
 * test_pass.c - a passed turn (mc_session_pass_turn, MC_MOVE_PASS): Omweso
 * blitz's "the turn passes to the opponent" when the time runs out (W16).
 * The position stays but for the side to move, undo and redo treat it as a
 * ply, the search and game records see it like any other ply ("--").
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mancala.h"
#include "mancala_record.h"

static void test_session(const char *spec)
{
    mc_game *g = mc_game_new(spec, NULL);
    CHECK(g != NULL);
    if (!g)
        return;
    mc_session *s = mc_session_new(g, NULL);
    mc_pos before = *mc_session_pos(s);
    mc_error err = {0, ""};
    CHECK(mc_session_pass_turn(s, &err) == 0);
    const mc_pos *p = mc_session_pos(s);
    CHECK(p->side == 1 - before.side);
    CHECK(memcmp(p->pit, before.pit, sizeof p->pit) == 0);
    CHECK(mc_session_ply(s) == 1);
    CHECK(mc_session_move_at(s, 0) == MC_MOVE_PASS);
    char tok[MC_MOVE_STRLEN];
    mc_move_format(g, &before, MC_MOVE_PASS, tok, sizeof tok);
    CHECK_STR(tok, "--");
    CHECK(!mc_session_over(s));
    /* the other side moves next: its moves are the session's moves */
    mc_move mv[MC_MAX_MOVES], mv2[MC_MAX_MOVES];
    int n = mc_session_moves(s, mv);
    CHECK(n == mc_moves(g, p, mv2) && n > 0);
    /* the search replays the history with the pass in it */
    mc_search_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.nodes = 2000;
    mc_search_info info;
    CHECK(mc_search(s, &lim, &info) == 0);
    int legal = 0;
    for (int i = 0; i < n; i++)
        legal |= mv[i] == info.best;
    CHECK_MSG(legal, "%s: search after a pass", spec);
    CHECK(mc_session_play(s, info.best, NULL, &err) == 0);
    /* undo takes back the move and the pass, redo brings them back */
    CHECK(mc_session_undo(s) == 0 && mc_session_undo(s) == 0);
    CHECK(mc_session_pos(s)->side == before.side);
    CHECK(mc_session_redo(s) == 0 &&
          mc_session_pos(s)->side == 1 - before.side);
    /* a record keeps the pass as "--" and reads it back */
    mc_record *r = mc_record_new(spec, NULL, &err);
    CHECK(r != NULL);
    if (r) {
        mc_session *rs = mc_record_session(r);
        CHECK(mc_session_pass_turn(rs, &err) == 0);
        CHECK(mc_session_play(rs, info.best, NULL, &err) == 0);
        size_t len;
        char *text = mc_records_format(&r, 1, &len);
        CHECK(text && strstr(text, "1. -- "));
        mc_record **back = NULL;
        int nb = 0;
        mc_record_loc loc;
        CHECK_MSG(text &&
                      mc_records_read(text, len, &back, &nb, &loc, &err) == 0 &&
                      nb == 1,
                  "%s: %s", spec, err.msg);
        if (nb == 1) {
            mc_session *bs = mc_record_session(back[0]);
            CHECK(mc_session_ply(bs) == 2);
            CHECK(mc_session_move_at(bs, 0) == MC_MOVE_PASS);
            CHECK(memcmp(mc_session_pos(bs), mc_session_pos(rs),
                         sizeof(mc_pos)) == 0);
        }
        mc_records_free(back, nb);
        free(text);
        mc_record_free(r);
    }
    /* a pass is not a move token: the engine protocol and move parsing
       refuse it; only records (and mc_session_pass_turn) hold passes */
    mc_move m;
    CHECK(mc_move_parse(g, mc_session_pos(s), "--", &m, &err) != 0);
    CHECK(mc_session_play_str(s, "--", NULL, &err) != 0);
    /* no pass once the game is over */
    mc_session_forfeit(s, MC_SOUTH, MC_END_RESIGN);
    CHECK(mc_session_pass_turn(s, &err) == MC_ERR_OVER);
    mc_session_free(s);
    mc_game_free(g);
}

int main(void)
{
    test_session("omweso");
    test_session("oware");
    return check_report("test_pass");
}
