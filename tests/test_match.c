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

/* The rule facts front-ends ask instead of reading options by name (issue
   45): a match or one game (O10's formats, W2's match to 12), and the
   custom set-up of W3 with its cap (10 a pit, or none). */
static void test_rule_facts(void)
{
    static const struct {
        const char *spec;
        int match, setup, cap;
    } cases[] = {{"oware", 0, 0, 0},
                 {"oware:match=bo3", 1, 0, 0},
                 {"oware:match=yoruba", 1, 0, 0},
                 {"omweso", 1, 0, 0},
                 {"omweso:match=single", 0, 0, 0},
                 {"omweso:setup=custom", 1, 1, 10},
                 {"omweso:setup=custom,setup_cap=none,match=single", 0, 1, 0},
                 {"omweso:setup=all2", 1, 0, 0},
                 {"gore", 0, 0, 0},
                 {"sadeqa2", 0, 0, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mc_error err;
        mc_game *g = mc_game_new(cases[i].spec, &err);
        CHECK(g != NULL);
        if (!g)
            continue;
        int cap = -1;
        CHECK_MSG(mc_game_is_match(g) == cases[i].match, "%s: match %d",
                  cases[i].spec, mc_game_is_match(g));
        CHECK_MSG(mc_game_custom_setup(g, &cap) == cases[i].setup &&
                      cap == cases[i].cap,
                  "%s: set-up %d, cap %d", cases[i].spec,
                  mc_game_custom_setup(g, NULL), cap);
        mc_game_free(g);
    }
    /* bo3 is first to 2 (O10): two wins end the match, not one */
    mc_error err;
    mc_game *g = mc_game_new("oware:match=bo3", &err);
    mc_match m;
    mc_match_init(g, &m);
    mc_result r = won(MC_SOUTH, 0, MC_END_CAPTURES);
    mc_match_record(g, &m, &r);
    CHECK(m.winner == -1);
    mc_match_record(g, &m, &r);
    CHECK(m.winner == MC_SOUTH);
    mc_game_free(g);
}

int main(void)
{
    test_omweso_first_turns();
    test_oware_starts();
    test_rule_facts();
    return check_report("test_match");
}
