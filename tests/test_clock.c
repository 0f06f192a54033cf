/*
 * test_clock.c - time controls and the session's clocks: the text forms
 * (parse, errors, format), Omweso's W16 modes from the game, and the clocks
 * at exact times passed in (no clock is read): charging, increments, flag
 * falls as a loss on time or a passed turn, contract's refused undo, undo
 * and redo, the state kept and restored, and the TimeControl tag of a
 * record.  Every expected time is worked out by hand in the comments.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mancala.h"
#include "mancala_record.h"

static mc_move move_of(const mc_game *g, const mc_session *s, const char *tok)
{
    mc_move m = 0;
    mc_error err = {0, ""};
    CHECK_MSG(mc_move_parse(g, mc_session_pos(s), tok, &m, &err) == 0, "%s: %s",
              tok, err.msg);
    return m;
}

/* The first legal move of the session's position. */
static mc_move first_move(const mc_session *s)
{
    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(s, mv);
    CHECK(n > 0);
    return n > 0 ? mv[0] : 0;
}

static void test_parse(void)
{
    mc_game *ow = mc_game_new("oware", NULL), *om = mc_game_new("omweso", NULL);
    mc_time_control tc;
    mc_error err = {0, ""};
    char b[200];

    CHECK(mc_time_parse(ow, "none", &tc, &err) == 0);
    CHECK(tc.kind == MC_TIME_NONE && !tc.no_undo && !tc.mode[0]);
    mc_time_format(&tc, b, sizeof b);
    CHECK_STR(b, "none");

    CHECK(mc_time_parse(ow, "move:30", &tc, &err) == 0);
    CHECK(tc.kind == MC_TIME_MOVE && tc.seconds == 30 &&
          tc.on_flag == MC_FLAG_LOSS);
    mc_time_format(&tc, b, sizeof b);
    CHECK_STR(b, "move:30");

    CHECK(mc_time_parse(ow, "game:300+5", &tc, &err) == 0);
    CHECK(tc.kind == MC_TIME_GAME && tc.seconds == 300 && tc.increment == 5);
    mc_time_format(&tc, b, sizeof b);
    CHECK_STR(b, "game:300+5");
    mc_time_describe(ow, &tc, b, sizeof b);
    CHECK_STR(b, "5:00 each for the game, plus 5 s a move; running out of "
                 "time loses the game");

    /* no increment: written without one */
    CHECK(mc_time_parse(NULL, "game:90", &tc, &err) == 0);
    CHECK(tc.kind == MC_TIME_GAME && tc.seconds == 90 && tc.increment == 0);
    mc_time_format(&tc, b, sizeof b);
    CHECK_STR(b, "game:90");
    /* decimals: 0.5 s a move, and 1.25 s read back as written */
    CHECK(mc_time_parse(NULL, "move:0.5", &tc, &err) == 0 && tc.seconds == 0.5);
    mc_time_format(&tc, b, sizeof b);
    CHECK_STR(b, "move:0.5");
    CHECK(mc_time_parse(NULL, "game:60+1.25", &tc, &err) == 0);
    mc_time_format(&tc, b, sizeof b);
    CHECK_STR(b, "game:60+1.25");

    /* errors name the text and what is wrong */
    static const char *const wrong[] = {"",
                                        "move:",
                                        "move:0",
                                        "move:-1",
                                        "move:1e3",
                                        "move:30s",
                                        "move:nan",
                                        "game:300+",
                                        "game:+5",
                                        "game:0+5",
                                        "game:300+5+1",
                                        "game:700000",
                                        "fast",
                                        "Move:30",
                                        " none",
                                        "move:86400.5",
                                        "game:60+3601",
                                        NULL};
    for (int i = 0; wrong[i]; i++) {
        err.code = 0;
        err.msg[0] = 0;
        CHECK_MSG(mc_time_parse(ow, wrong[i], &tc, &err) != 0, "'%s' accepted",
                  wrong[i]);
        char want[80];
        snprintf(want, sizeof want, "'%s'", wrong[i]);
        CHECK_MSG(err.code == MC_ERR_ARG && strstr(err.msg, want), "'%s': %s",
                  wrong[i], err.msg);
    }
    /* the W16 modes are Omweso's, not Oware's */
    CHECK(mc_time_parse(ow, "blitz", &tc, &err) != 0);
    CHECK(strstr(err.msg, "'blitz'") && !strstr(err.msg, "contract"));
    CHECK(mc_time_parse(NULL, "contract", &tc, &err) != 0);
    CHECK(mc_time_mode(ow, 0, NULL) == NULL);

    /* Omweso's modes (W16) */
    const char *help = NULL;
    CHECK_STR(mc_time_mode(om, 0, &help), "classic");
    CHECK(help && strstr(help, "W16"));
    CHECK_STR(mc_time_mode(om, 1, NULL), "contract");
    CHECK_STR(mc_time_mode(om, 2, NULL), "blitz");
    CHECK_STR(mc_time_mode(om, 3, NULL), "blitz:loss");
    CHECK(mc_time_mode(om, 4, NULL) == NULL);
    CHECK(mc_time_parse(om, "classic", &tc, &err) == 0);
    CHECK(tc.kind == MC_TIME_NONE && !tc.no_undo);
    CHECK(mc_time_parse(om, "contract", &tc, &err) == 0);
    CHECK(tc.kind == MC_TIME_NONE && tc.no_undo);
    mc_time_format(&tc, b, sizeof b);
    CHECK_STR(b, "contract");
    CHECK(mc_time_parse(om, "blitz", &tc, &err) == 0);
    CHECK(tc.kind == MC_TIME_MOVE && tc.seconds == 3 &&
          tc.on_flag == MC_FLAG_PASS);
    CHECK(mc_time_parse(om, "blitz,blitz_timeout=pass", &tc, &err) == 0);
    CHECK(tc.on_flag == MC_FLAG_PASS);
    mc_time_format(&tc, b, sizeof b);
    CHECK_STR(b, "blitz");
    CHECK(mc_time_parse(om, "blitz:loss", &tc, &err) == 0);
    CHECK(tc.kind == MC_TIME_MOVE && tc.seconds == 3 &&
          tc.on_flag == MC_FLAG_LOSS);
    CHECK(mc_time_parse(om, "blitz,blitz_timeout=loss", &tc, &err) == 0);
    mc_time_format(&tc, b, sizeof b);
    CHECK_STR(b, "blitz:loss");
    /* the common forms work for Omweso too; a wrong one lists its modes */
    CHECK(mc_time_parse(om, "move:10", &tc, &err) == 0);
    CHECK(mc_time_parse(om, "blitz:fast", &tc, &err) != 0);
    CHECK_MSG(strstr(err.msg, "'blitz:fast'") && strstr(err.msg, "contract") &&
                  strstr(err.msg, "blitz:loss"),
              "%s", err.msg);
    mc_game_free(ow);
    mc_game_free(om);
}

/* game:300+5 on Oware from t = 1000. */
static void test_game_clock(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_session *s = mc_session_new(g, NULL);
    mc_time_control tc;
    mc_error err = {0, ""};
    double left[2];
    CHECK(mc_time_parse(g, "game:300+5", &tc, &err) == 0);
    CHECK(mc_session_set_time(s, &tc, 1000) == 0);
    /* South runs from 1000: at 1010, 290 and 300 */
    CHECK(mc_session_clock(s, 1010, left) == MC_SOUTH);
    CHECK(left[0] == 290 && left[1] == 300);
    /* South plays at 1030: 300 - 30 + 5 = 275; North runs from 1030 */
    CHECK(mc_session_play_at(s, move_of(g, s, "C"), 1030, NULL, &err) == 0);
    CHECK(mc_session_clock(s, 1040, left) == MC_NORTH);
    CHECK(left[0] == 275 && left[1] == 290);
    /* North plays at 1100: 300 - 70 + 5 = 235; South's flag is due at
       1100 + 275 = 1375 */
    CHECK(mc_session_play_at(s, first_move(s), 1100, NULL, &err) == 0);
    CHECK(mc_session_clock(s, 1100, left) == MC_SOUTH);
    CHECK(left[0] == 275 && left[1] == 235);
    CHECK(mc_session_check_time(s, 1374.5) == 0 && !mc_session_over(s));
    CHECK(mc_session_clock(s, 1374.5, left) == MC_SOUTH && left[0] == 0.5);
    /* past the flag the clock shows 0, and nothing happens until a check */
    CHECK(mc_session_clock(s, 1400, left) == MC_SOUTH && left[0] == 0);
    CHECK(mc_session_check_time(s, 1375) == 1);
    mc_result r;
    mc_session_result(s, &r);
    CHECK(r.over && r.winner == MC_NORTH && r.reason == MC_END_TIME);
    CHECK_STR(r.detail, "South lost on time");
    /* the clocks stopped: none runs, South's shows 0 */
    CHECK(mc_session_clock(s, 2000, left) == -1);
    CHECK(left[0] == 0 && left[1] == 235);
    CHECK(mc_session_check_time(s, 3000) == 0);
    /* a loss on time is not taken back */
    CHECK(mc_session_undo_at(s, 2000, &err) == MC_ERR_OVER &&
          err.code == MC_ERR_OVER);
    CHECK(mc_session_over(s));
    mc_session_free(s);
    mc_game_free(g);
}

/* move:10 on Oware from t = 0: each turn has 10 s, nothing carried over. */
static void test_move_clock(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_session *s = mc_session_new(g, NULL);
    mc_time_control tc;
    mc_error err = {0, ""};
    double left[2];
    mc_time_parse(g, "move:10", &tc, &err);
    mc_session_set_time(s, &tc, 0);
    CHECK(mc_session_play_at(s, first_move(s), 9.5, NULL, &err) == 0);
    /* North from 9.5: at 15, 4.5 left; South's is whole again */
    CHECK(mc_session_clock(s, 15, left) == MC_NORTH);
    CHECK(left[1] == 4.5 && left[0] == 10);
    /* a move at 19.25 is in time (9.75 s) */
    CHECK(mc_session_play_at(s, first_move(s), 19.25, NULL, &err) == 0);
    CHECK(mc_session_ply(s) == 2);
    /* South's flag at 29.25: a move at 30 comes too late */
    mc_move m = first_move(s);
    CHECK(mc_session_play_at(s, m, 30, NULL, &err) == MC_ERR_OVER);
    CHECK(strstr(err.msg, "South's time ran out") != NULL);
    CHECK(mc_session_ply(s) == 2);
    mc_result r;
    mc_session_result(s, &r);
    CHECK(r.over && r.winner == MC_NORTH && r.reason == MC_END_TIME);
    mc_session_free(s);
    mc_game_free(g);
}

/* Omweso blitz (W16): 3 s a move, then the turn passes. */
static void test_blitz(void)
{
    mc_game *g = mc_game_new("omweso", NULL);
    mc_session *s = mc_session_new(g, NULL);
    mc_time_control tc;
    mc_error err = {0, ""};
    double left[2];
    mc_time_parse(g, "blitz", &tc, &err);
    mc_session_set_time(s, &tc, 0);
    int first = mc_session_pos(s)->side;
    CHECK(mc_session_check_time(s, 2.999) == 0 && mc_session_ply(s) == 0);
    /* at 7.5: passes at 3 and at 6; the first side's turn again since 6 */
    CHECK(mc_session_check_time(s, 7.5) == 1);
    CHECK(mc_session_ply(s) == 2 && !mc_session_over(s));
    CHECK(mc_session_move_at(s, 0) == MC_MOVE_PASS &&
          mc_session_move_at(s, 1) == MC_MOVE_PASS);
    CHECK(mc_session_pos(s)->side == first);
    CHECK(mc_session_clock(s, 7.5, left) == first && left[first] == 1.5);
    /* a move after the next pass (due at 9) is refused: the turn passed */
    mc_move m = first_move(s);
    CHECK(mc_session_play_at(s, m, 9.25, NULL, &err) == MC_ERR_ILLEGAL);
    CHECK(strstr(err.msg, "the turn passed") != NULL);
    CHECK(mc_session_ply(s) == 3 && mc_session_pos(s)->side == 1 - first);
    /* in time (1.75 s into the turn that began at 9): played, and the
       next turn has 3 s from 10.75 */
    CHECK(mc_session_play_at(s, first_move(s), 10.75, NULL, &err) == 0);
    CHECK(mc_session_clock(s, 11, left) == first && left[first] == 2.75);
    mc_session_free(s);

    /* blitz:loss: the flag loses */
    s = mc_session_new(g, NULL);
    mc_time_parse(g, "blitz:loss", &tc, &err);
    mc_session_set_time(s, &tc, 100);
    first = mc_session_pos(s)->side;
    CHECK(mc_session_check_time(s, 103) == 1);
    mc_result r;
    mc_session_result(s, &r);
    CHECK(r.over && r.reason == MC_END_TIME && r.winner == 1 - first);
    CHECK(mc_session_ply(s) == 0);
    mc_session_free(s);

    /* contract: untimed, undo refused */
    s = mc_session_new(g, NULL);
    mc_time_parse(g, "contract", &tc, &err);
    mc_session_set_time(s, &tc, 0);
    CHECK(mc_session_clock(s, 5, left) == -1 && left[0] == -1 && left[1] == -1);
    CHECK(mc_session_play_at(s, first_move(s), 5, NULL, &err) == 0);
    CHECK(mc_session_undo_at(s, 6, &err) == MC_ERR_ILLEGAL &&
          err.code == MC_ERR_ILLEGAL);
    CHECK(strstr(err.msg, "contract") != NULL);
    CHECK(mc_session_undo(s) == MC_ERR_ILLEGAL && mc_session_ply(s) == 1);
    /* a week later nothing has happened: no clock */
    CHECK(mc_session_check_time(s, 604800) == 0 && !mc_session_over(s));
    mc_session_free(s);
    mc_game_free(g);
}

/* Undo and redo charge the side whose clock ran and give nothing back. */
static void test_undo(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_session *s = mc_session_new(g, NULL);
    mc_time_control tc;
    mc_error err = {0, ""};
    double left[2];
    mc_time_parse(g, "game:60", &tc, &err);
    mc_session_set_time(s, &tc, 0);
    mc_session_play_at(s, first_move(s), 10, NULL, &err); /* South 50 */
    mc_session_play_at(s, first_move(s), 30, NULL, &err); /* North 40 */
    /* undo at 35: South (running) is charged 5: 45; North's move is taken
       back and North's clock runs from 35 */
    CHECK(mc_session_undo_at(s, 35, &err) == 0);
    CHECK(mc_session_ply(s) == 1);
    CHECK(mc_session_clock(s, 45, left) == MC_NORTH);
    CHECK(left[0] == 45 && left[1] == 30);
    /* redo at 50: North charged 15 (25), South runs from 50 */
    CHECK(mc_session_redo_at(s, 50, &err) == 0);
    CHECK(mc_session_clock(s, 50, left) == MC_SOUTH);
    CHECK(left[0] == 45 && left[1] == 25);
    /* nothing to redo: the clocks are left alone */
    CHECK(mc_session_redo_at(s, 51, &err) == MC_ERR_ARG);
    /* the state kept elsewhere and put back gives the same clocks */
    double bank[2], since;
    mc_session_clock_state(s, bank, &since);
    CHECK(since == 50 && bank[0] == 45 && bank[1] == 25);
    mc_session *t = mc_session_new(g, NULL);
    mc_session_play(t, mc_session_move_at(s, 0), NULL, &err);
    mc_session_play(t, mc_session_move_at(s, 1), NULL, &err);
    mc_session_set_time(t, &tc, -1);
    CHECK(mc_session_clock_restore(t, bank, since) == 0);
    CHECK(mc_session_clock(t, 60, left) == MC_SOUTH);
    CHECK(left[0] == 35 && left[1] == 25);
    double badbank[2] = {-1, 3};
    CHECK(mc_session_clock_restore(t, badbank, 0) == MC_ERR_ARG);
    mc_session_free(t);
    /* a resignation taken back: the clock of the side to move starts again
       at the undo, uncharged for the time the game was over */
    mc_session_forfeit(s, MC_SOUTH, MC_END_RESIGN);
    CHECK(mc_session_clock(s, 70, left) == -1);
    CHECK(mc_session_undo_at(s, 80, &err) == 0 && !mc_session_over(s));
    CHECK(mc_session_clock(s, 90, left) == MC_SOUTH);
    CHECK(left[0] == 35 && left[1] == 25);
    mc_session_free(s);
    mc_game_free(g);
}

/* Clocks that wait: set with now < 0, they start at the first timed move. */
static void test_waiting(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_session *s = mc_session_new(g, NULL);
    mc_time_control tc;
    mc_error err = {0, ""};
    double left[2];
    mc_time_parse(g, "move:5", &tc, &err);
    mc_session_set_time(s, &tc, -1);
    CHECK(mc_session_clock(s, 1e9, left) == -1 && left[0] == 5 && left[1] == 5);
    CHECK(mc_session_check_time(s, 1e9) == 0);
    CHECK(mc_session_play_at(s, first_move(s), 100, NULL, &err) == 0);
    CHECK(mc_session_clock(s, 102, left) == MC_NORTH && left[1] == 3);
    /* bad controls are refused */
    mc_time_control badtc = tc;
    badtc.seconds = 0;
    CHECK(mc_session_set_time(s, &badtc, 0) == MC_ERR_ARG);
    badtc = tc;
    badtc.kind = 7;
    CHECK(mc_session_set_time(s, &badtc, 0) == MC_ERR_ARG);
    mc_session_free(s);
    mc_game_free(g);
}

/* The TimeControl tag: a control the library knows becomes the session's;
   a loss on time is written and read as Termination "time". */
static void test_record(void)
{
    mc_error err = {0, ""};
    mc_record *r = mc_record_new("omweso", NULL, &err);
    CHECK(mc_record_set_tag(r, "TimeControl", "blitz,blitz_timeout=loss",
                            &err) == 0);
    mc_session *s = mc_record_session(r);
    mc_time_control tc;
    mc_session_time(s, &tc);
    CHECK(tc.kind == MC_TIME_MOVE && tc.on_flag == MC_FLAG_LOSS);
    CHECK_STR(tc.mode, "blitz:loss");
    /* the clocks wait (no time is known yet) */
    double left[2];
    CHECK(mc_session_clock(s, 50, left) == -1 && left[0] == 3);
    mc_session_set_time(s, &tc, 10);
    CHECK(mc_session_check_time(s, 13) == 1);
    size_t len;
    char *text = mc_records_format(&r, 1, &len);
    CHECK(text && strstr(text, "[TimeControl \"blitz,blitz_timeout=loss\"]"));
    CHECK(text && strstr(text, "[Termination \"time\"]"));
    mc_record **back = NULL;
    int n = 0;
    mc_record_loc loc;
    CHECK(text && mc_records_read(text, len, &back, &n, &loc, &err) == 0 &&
          n == 1);
    if (n == 1) {
        mc_session *bs = mc_record_session(back[0]);
        mc_result res;
        mc_session_result(bs, &res);
        CHECK(res.over && res.reason == MC_END_TIME);
        mc_session_time(bs, &tc);
        CHECK(tc.kind == MC_TIME_MOVE && tc.seconds == 3);
        CHECK_STR(tc.mode, "blitz:loss");
    }
    mc_records_free(back, n);
    free(text);
    /* a PGN control the library does not know: a free tag, no clock */
    CHECK(mc_record_set_tag(r, "TimeControl", "40/7200", &err) == 0);
    mc_session_time(s, &tc);
    CHECK(tc.kind == MC_TIME_NONE);
    CHECK_STR(mc_record_tag(r, "TimeControl"), "40/7200");
    mc_record_free(r);
}

int main(void)
{
    test_parse();
    test_game_clock();
    test_move_clock();
    test_blitz();
    test_undo();
    test_waiting();
    test_record();
    return check_report("test_clock");
}
