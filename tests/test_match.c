/*
 * test_match.c - the session's match layer across games: the start of each
 * game of a match (starter, Omweso's first-turn state under
 * first_turn_capture=off_first_game, W9), the draw by lot of W2, and
 * annulled games replayed with the same starter (W2, W13).
 */
#include <string.h>

#include "check.h"
#include "mancala.h"

static mc_result won(int winner, int points, int reason)
{
    mc_result r;
    memset(&r, 0, sizeof r);
    r.over = 1;
    r.winner = winner;
    r.points = points;
    r.reason = reason;
    return r;
}

static void test_omweso_first_turns(void)
{
    mc_game *g = mc_game_new("omweso:first_turn_capture=off_first_game", NULL);
    CHECK(g != NULL);
    if (!g)
        return;
    mc_match m;
    mc_match_init(g, &m);
    CHECK(m.by_lot == 1); /* W2: match=12 by default */
    mc_pos p;
    mc_match_start(g, &m, &p);
    CHECK(p.first == 3); /* game 1: both first turns pending (W9) */
    /* An annulled game is replayed: still the match's first game. */
    mc_result r = won(MC_DRAW, 0, MC_END_ANNULLED);
    mc_match_record(g, &m, &r);
    CHECK(m.games == 0 && m.annulled == 1 && m.next_first == MC_SOUTH);
    mc_match_start(g, &m, &p);
    CHECK(p.first == 3);
    r = won(MC_SOUTH, 2, MC_END_POINTS);
    mc_match_record(g, &m, &r);
    CHECK(m.wins[MC_SOUTH] == 2 && m.next_first == MC_NORTH); /* loser */
    mc_match_start(g, &m, &p);
    CHECK(p.first == 0 && p.side == MC_NORTH); /* game 2: no ban */
    mc_game_free(g);

    g = mc_game_new("omweso", NULL); /* off_each_game */
    mc_match_init(g, &m);
    r = won(MC_NORTH, 1, MC_END_POINTS);
    mc_match_record(g, &m, &r);
    mc_match_start(g, &m, &p);
    CHECK(p.first == 3 && p.side == MC_SOUTH);
    mc_game_free(g);

    g = mc_game_new("omweso:match=single", NULL);
    mc_match_init(g, &m);
    CHECK(m.by_lot == 0);
    mc_game_free(g);
}

static void test_oware_starts(void)
{
    mc_game *g = mc_game_new("oware:match=bo3", NULL);
    mc_match m;
    mc_match_init(g, &m);
    CHECK(m.by_lot == 0);
    mc_pos p;
    mc_match_start(g, &m, &p);
    CHECK(p.side == MC_SOUTH && p.first == 0);
    mc_result r = won(MC_NORTH, 0, MC_END_CAPTURES);
    mc_match_record(g, &m, &r);
    mc_match_start(g, &m, &p);
    CHECK(p.side == MC_NORTH); /* O10: the winner starts */
    mc_game_free(g);
}

int main(void)
{
    test_omweso_first_turns();
    test_oware_starts();
    return check_report("test_match");
}
