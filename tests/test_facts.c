/*
 * test_facts.c - what the library says about moves and results so that
 * front-ends need not know a rule: mc_move_facts_get / mc_move_pit,
 * mc_end_reason_name / _parse, mc_trace_kind_name, mc_result_describe,
 * mc_move_explain and mc_session_fresh.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../include/mancala.h"
#include "check.h"

static mc_game *game(const char *spec)
{
    mc_error err = {0, ""};
    mc_game *g = mc_game_new(spec, &err);
    if (!g) {
        fprintf(stderr, "%s: %s\n", spec, err.msg);
        exit(1);
    }
    return g;
}

static void parse(const mc_game *g, const char *s, mc_pos *p)
{
    mc_error err = {0, ""};
    if (mc_pos_parse(g, s, p, &err) != 0) {
        fprintf(stderr, "%s: %s\n", s, err.msg);
        exit(1);
    }
}

static mc_move move(const mc_game *g, const mc_pos *p, const char *tok)
{
    mc_move m = 0;
    mc_error err = {0, ""};
    CHECK_MSG(mc_move_parse(g, p, tok, &m, &err) == 0, "%s: %s", tok, err.msg);
    return m;
}

/* Every legal sowing of random games of every game: the pit the library
   names is the pit the move's trace first lifts from (an independent
   reading of the move), a pit of the mover, and the pit whose name the
   move's notation begins with. */
static void test_pits_of_random_games(void)
{
    static const char *const specs[] = {"oware", "gore", "sadeqa2", "omweso",
                                        "omweso:setup=all2"};
    for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
        mc_game *g = game(specs[s]);
        mc_rng rng;
        mc_rng_seed(&rng, 7 + s);
        int checked = 0, bad = 0;
        for (int gm = 0; gm < 20; gm++) {
            mc_session *se = mc_session_new(g, NULL);
            for (int ply = 0; ply < 120 && !mc_session_over(se); ply++) {
                const mc_pos *p = mc_session_pos(se);
                mc_move mv[MC_MAX_MOVES];
                int n = mc_session_moves(se, mv);
                for (int i = 0; i < n; i++) {
                    mc_move_facts f;
                    CHECK(mc_move_facts_get(g, p, mv[i], &f) == 0);
                    char tok[MC_MOVE_STRLEN];
                    mc_move_format(g, p, mv[i], tok, sizeof tok);
                    mc_trace_event ev[8];
                    mc_trace tr = {ev, 8, 0, 0};
                    mc_pos q = *p;
                    mc_play(g, &q, mv[i], &tr);
                    int lift = -1;
                    for (size_t k = 0; k < tr.len && lift < 0; k++)
                        if (ev[k].kind == MC_TR_LIFT ||
                            ev[k].kind == MC_TR_LAP ||
                            ev[k].kind == MC_TR_OPENING ||
                            ev[k].kind == MC_TR_ANNUL)
                            lift = ev[k].pit;
                    if (f.kind != MC_MOVE_IS_SOW) {
                        /* offers, answers and passes sow nothing */
                        bad += lift >= 0 || f.pit != -1 ||
                               mc_move_pit(g, p, mv[i]) != -1;
                        continue;
                    }
                    const char *name = mc_pit_name(g, f.pit);
                    bad += f.pit != lift || mc_move_pit(g, p, mv[i]) != lift ||
                           mc_pit_owner(g, p, f.pit) != p->side ||
                           strncmp(tok, name, strlen(name)) != 0;
                    checked++;
                }
                mc_session_play(se, mv[mc_rng_below(&rng, (uint32_t)n)], NULL,
                                NULL);
            }
            mc_session_free(se);
        }
        CHECK_MSG(bad == 0 && checked > 500, "%s: %d of %d", specs[s], bad,
                  checked);
        mc_game_free(g);
    }
    /* a move that is not legal is refused */
    mc_game *g = game("oware");
    mc_pos p;
    parse(g, "0,4,4,4,4,4/4,4,4,4,4,4 S cap=4,0", &p);
    mc_move_facts f;
    CHECK(mc_move_facts_get(g, &p, 0, &f) == MC_ERR_ARG);
    CHECK(mc_move_pit(g, &p, 0) == -1);
    CHECK(mc_move_pit(g, &p, move(g, &p, "C")) == 2);
    mc_game_free(g);
}

/* Goré G2 and G6: offers with their pits and price (6 captured stones a
   pit), the answers, and a pass with its reason. */
static void test_gore_offers(void)
{
    mc_game *g = game("gore");
    mc_pos p;
    mc_move_facts f;
    /* North has captured 15: South may offer one or two of A..D */
    parse(g, "0,0,0,9/0,2,0,6 S own=SSSSNNNN cap=16,15", &p);
    CHECK(mc_move_facts_get(g, &p, move(g, &p, "offer:AC"), &f) == 0);
    CHECK(f.kind == MC_MOVE_IS_OFFER && f.pits == 0x5 && f.price == 12 &&
          f.pit == -1);
    CHECK(mc_move_facts_get(g, &p, move(g, &p, "offer:B"), &f) == 0);
    CHECK(f.kind == MC_MOVE_IS_OFFER && f.pits == 0x2 && f.price == 6);
    CHECK(mc_move_facts_get(g, &p, move(g, &p, "D"), &f) == 0);
    CHECK(f.kind == MC_MOVE_IS_SOW && f.pit == 3);
    /* the answer to an offer of a and c (pits 4 and 6) */
    parse(g, "0,0,0,9/0,2,0,6 S own=SSSSNNNN cap=16,15 offer=ac", &p);
    CHECK(mc_move_facts_get(g, &p, move(g, &p, "accept"), &f) == 0);
    CHECK(f.kind == MC_MOVE_IS_ACCEPT && f.pits == 0x50 && f.price == 12);
    CHECK(mc_move_facts_get(g, &p, move(g, &p, "refuse"), &f) == 0);
    CHECK(f.kind == MC_MOVE_IS_REFUSE && f.pits == 0x50);
    /* South owns no stones: pass, and it says why */
    parse(g, "0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20", &p);
    CHECK(mc_move_facts_get(g, &p, move(g, &p, "pass"), &f) == 0);
    CHECK(f.kind == MC_MOVE_IS_PASS && f.pit == -1);
    CHECK_MSG(strstr(f.why, "South owns no stones") != NULL, "%s", f.why);
    /* the session's pass (time ran out, W16) */
    CHECK(mc_move_facts_get(g, &p, MC_MOVE_PASS, &f) == 0);
    CHECK(f.kind == MC_MOVE_IS_PASS && strstr(f.why, "time") != NULL);
    mc_game_free(g);
}

static void describe(const mc_game *g, const char *pos, int occ, int plies,
                     int last, const char *want)
{
    mc_pos p;
    parse(g, pos, &p);
    p.last = (uint8_t)last;
    mc_hist h = {occ, plies, plies};
    mc_result r;
    mc_status(g, &p, &h, &r);
    char buf[400];
    size_t len = mc_result_describe(g, &r, buf, sizeof buf);
    CHECK_STR(buf, want);
    CHECK(len == strlen(want));
    /* a short buffer is cut but says how long the sentence is */
    char small[8];
    CHECK(mc_result_describe(g, &r, small, sizeof small) == strlen(want));
    CHECK(strlen(small) == 7);
}

/* The sentences for players, checked against the rule files' results: the
   scores are worked out by hand from the positions. */
static void test_sentences(void)
{
    mc_game *ow = game("oware");
    /* O8a: North has 25 (48 - 20 - 3 on the board) */
    describe(ow, "1,0,0,0,0,0/1,0,0,0,0,1 N cap=20,25", 1, 0, 0,
             "North wins 25 to 20: North has captured more than half of "
             "the seeds.");
    /* O8b: the position recurs; each takes its own row (1 and 2 seeds) */
    describe(ow, "1,0,0,0,0,0/1,0,0,0,0,1 N cap=22,23", 2, 0, 0,
             "North wins 25 to 23: the same position came back, so each "
             "player takes the seeds in their own row.");
    mc_game *gr = game("gore");
    /* G5 with G7: South 20 + 3, North 22 + 3, North refused an offer */
    describe(gr, "2,0,1,0/0,0,2,1 S own=SSSSNNNN cap=20,22", 1, 0, 0x80,
             "North wins 25 to 23: every pit holds 2 or fewer, so each "
             "player adds the stones of the pits they own. A victory "
             "without glory: North refused an offer.");
    /* G8: the board's 8 stones shared equally */
    describe(gr, "0,0,3,0/4,1,0,0 S own=SSSSNNNN cap=20,20", 3, 0, 0,
             "Draw 24 to 24: the same position occurred for the third time, "
             "so the stones on the board are divided equally.");
    mc_game *sq = game("sadeqa2");
    /* S7: North to move with no seeds loses */
    describe(sq, "1,0,0,0,0,35/0,0,0,0,0,0 N first=-", 1, 0, 0,
             "South wins: North has no legal move.");
    /* S8: the 300th ply, a draw */
    describe(sq, "3,3,3,3,3,3/3,3,3,3,3,3 S first=-", 1, 300, 0,
             "Draw: the game reached its 300th ply.");
    mc_game_free(ow);
    mc_game_free(gr);
    mc_game_free(sq);

    /* forfeits, from the session */
    mc_game *g = game("oware");
    mc_session *s = mc_session_new(g, NULL);
    mc_result r;
    char buf[200];
    mc_session_forfeit(s, MC_SOUTH, MC_END_RESIGN);
    mc_session_result(s, &r);
    mc_result_describe(g, &r, buf, sizeof buf);
    CHECK_STR(buf, "North wins: South resigned.");
    mc_session_forfeit(s, MC_NORTH, MC_END_TIME);
    mc_session_result(s, &r);
    mc_result_describe(g, &r, buf, sizeof buf);
    CHECK_STR(buf, "South wins: North ran out of time.");
    /* a game that goes on has no sentence */
    mc_session_undo(s);
    memset(&r, 0, sizeof r);
    CHECK(mc_result_describe(g, &r, buf, sizeof buf) == 0 && buf[0] == 0);
    mc_session_free(s);
    mc_game_free(g);
}

/* Omweso W14: the points and their kind in words; W15: annulled. */
static void test_omweso_sentences(void)
{
    mc_game *g = game("omweso");
    mc_result r;
    memset(&r, 0, sizeof r);
    r.over = 1;
    r.winner = MC_NORTH;
    r.reason = MC_END_POINTS;
    r.points = 2;
    snprintf(r.detail, sizeof r.detail, "2 okutema");
    char buf[400];
    mc_result_describe(g, &r, buf, sizeof buf);
    CHECK_MSG(strncmp(buf, "North wins 2 points: okutema", 28) == 0, "%s", buf);
    r.points = 1;
    snprintf(r.detail, sizeof r.detail, "1 ordinary");
    mc_result_describe(g, &r, buf, sizeof buf);
    CHECK_STR(buf, "North wins 1 point: South has no pit holding 2 or more "
                   "seeds.");
    r.winner = MC_DRAW;
    r.reason = MC_END_ANNULLED;
    r.points = 0;
    snprintf(r.detail, sizeof r.detail, "annulled repetition");
    mc_result_describe(g, &r, buf, sizeof buf);
    CHECK_STR(buf, "The game is annulled: the same position occurred for the "
                   "third time (W15).");
    mc_game_free(g);
}

/* The names records and the API write, and back. */
static void test_reason_names(void)
{
    static const char *const want[] = {
        "",      "captures", "repetition", "nomove", "stuck", "plies",
        "board", "points",   "annulled",   "resign", "time"};
    for (int i = 0; i <= MC_END_TIME; i++) {
        CHECK_STR(mc_end_reason_name(i), want[i]);
        CHECK(mc_end_reason_parse(want[i]) == i);
    }
    CHECK(mc_end_reason_name(-1) == NULL);
    CHECK(mc_end_reason_name(MC_END_TIME + 1) == NULL);
    CHECK(mc_end_reason_parse("resignation") == -1);
    CHECK(mc_end_reason_parse(NULL) == -1);
}

/* The trace kinds' names the JSON API writes (docs/API.md, "The trace"). */
static void test_trace_kind_names(void)
{
    static const char *const want[] = {
        NULL,  "lift",  "drop", "skip",  "lap",     "capture", "nocapture",
        "end", "trade", "pass", "resow", "opening", "annul"};
    for (int i = 1; i <= MC_TR_ANNUL; i++)
        CHECK_STR(mc_trace_kind_name(i), want[i]);
    CHECK(mc_trace_kind_name(0) == NULL);
    CHECK(mc_trace_kind_name(-1) == NULL);
    CHECK(mc_trace_kind_name(MC_TR_ANNUL + 1) == NULL);
}

/* Fresh: the start, and right after a capture (an irreversible move). */
static void test_fresh(void)
{
    mc_game *g = game("oware");
    mc_pos p;
    /* South's F (5 seeds) ends in North's e (1 -> 2): a capture */
    parse(g, "4,4,4,4,4,5/4,4,4,4,1,3 S cap=0,3", &p);
    mc_session *s = mc_session_new(g, &p);
    CHECK(mc_session_fresh(s) == 1);
    CHECK(mc_session_play_str(s, "A", NULL, NULL) == 0);
    CHECK(mc_session_fresh(s) == 0);
    CHECK(mc_session_undo(s) == 0);
    CHECK(mc_session_fresh(s) == 1);
    CHECK(mc_session_play_str(s, "F", NULL, NULL) == 0);
    CHECK(mc_session_pos(s)->cap[0] == 2);
    CHECK(mc_session_fresh(s) == 1);
    CHECK(mc_session_play_str(s, "a", NULL, NULL) == 0);
    CHECK(mc_session_fresh(s) == 0);
    mc_session_free(s);
    mc_game_free(g);
}

/* The whole move in words from m played from pos (its trace), into buf. */
static size_t explain(const mc_game *g, const char *pos, const char *tok,
                      int traced, char *buf, size_t n)
{
    mc_pos p, q;
    parse(g, pos, &p);
    mc_move m = move(g, &p, tok);
    mc_trace_event ev[64];
    mc_trace t = {ev, 64, 0, 0};
    q = p;
    mc_play(g, &q, m, &t);
    return mc_move_explain(g, &p, m, traced ? &t : NULL, buf, n);
}

/* mc_move_explain on moves worked by hand from the rules: its sentence
   (every event of the trace but the drops, in order, after "South plays
   F:"), an offer and a pass, and snprintf's contract when buf is short. */
static void test_explain(void)
{
    mc_game *g = game("oware");
    char b[256];
    /* O4-O5: F's 2 seeds fall in a (1 -> 2) and b (2 -> 3); b ends with 3,
       captured, then a behind it with 2; North keeps 16 seeds (no grand
       slam, O6) */
    const char *capture = "South plays F: lifts 2 seeds from F; the last seed "
                          "falls in b (now 3); South captures 3 from b; South "
                          "captures 2 from a.";
    const char *pos = "0,0,0,0,0,2/1,2,4,4,4,4 S cap=13,14";
    size_t len = explain(g, pos, "F", 1, b, sizeof b);
    CHECK_MSG(strcmp(b, capture) == 0, "%s", b);
    CHECK(len == strlen(capture));
    /* no trace: the move alone */
    CHECK(explain(g, pos, "F", 0, b, sizeof b) == 14 &&
          strcmp(b, "South plays F.") == 0);
    /* too small: cut and terminated, the length it needed returned (the
       same whatever the room, so a second call with len + 1 fits) */
    char small[16];
    memset(small, 'x', sizeof small);
    CHECK(explain(g, pos, "F", 1, small, sizeof small) == len);
    CHECK_MSG(strcmp(small, "South plays F: ") == 0, "%s", small);
    CHECK(explain(g, pos, "F", 1, NULL, 0) == len);
    CHECK(explain(g, pos, "F", 1, small, 1) == len && small[0] == 0);
    char exact[200];
    CHECK(explain(g, pos, "F", 1, exact, len) == len &&
          strlen(exact) == len - 1 && exact[len - 2] == 'a');
    CHECK(explain(g, pos, "F", 1, exact, len + 1) == len &&
          strcmp(exact, capture) == 0);
    mc_game_free(g);

    g = game("gore");
    /* G6: North has captured 15, so an offer of A and C costs 12 (6 a
       pit); told without its token, from its trace or without one */
    pos = "0,0,0,9/0,2,0,6 S own=SSSSNNNN cap=16,15";
    explain(g, pos, "offer:AC", 1, b, sizeof b);
    CHECK_MSG(strstr(b, "South offers A, C to North") == b &&
                  strstr(b, "12 captured stones") && !strstr(b, "offer:"),
              "%s", b);
    CHECK(explain(g, pos, "offer:AC", 0, b, sizeof b) == 21 &&
          strcmp(b, "South makes an offer.") == 0);
    pos = "0,0,0,9/0,2,0,6 S own=SSSSNNNN cap=16,15 offer=ac";
    explain(g, pos, "refuse", 0, b, sizeof b);
    CHECK_MSG(strcmp(b, "South refuses the offer.") == 0, "%s", b);
    /* G2: South owns no stones, so its move is a pass, with the reason */
    pos = "0,0,0,0/0,2,0,6 S own=SSSSNNNN cap=20,20";
    explain(g, pos, "pass", 0, b, sizeof b);
    CHECK_MSG(strstr(b, "South passes: ") == b && strstr(b, "owns no stones") &&
                  b[strlen(b) - 1] == '.' && b[strlen(b) - 2] != '.',
              "%s", b);
    explain(g, pos, "pass", 1, b, sizeof b);
    CHECK_MSG(strstr(b, "South owns no stones") == b && !strstr(b, "plays"),
              "%s", b);
    /* a pass cut short still counts its one full stop */
    size_t need = explain(g, pos, "pass", 0, NULL, 0);
    CHECK(explain(g, pos, "pass", 0, small, sizeof small) == need &&
          strlen(small) == sizeof small - 1);
    mc_game_free(g);
}

int main(void)
{
    test_pits_of_random_games();
    test_gore_offers();
    test_explain();
    test_sentences();
    test_omweso_sentences();
    test_reason_names();
    test_trace_kind_names();
    test_fresh();
    return check_report("test_facts");
}
