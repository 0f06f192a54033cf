/*
 * test_oware.c - Oware properties that are easier to state in C than as rule
 * cases: random-game invariants and the random-play statistics of
 * rules/oware.md, end-rule splits (O8b, O9), match formats (O10), option
 * specs, traces and notation round trips.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mancala.h"

static mc_game *game(const char *spec)
{
    mc_error err = {0, ""};
    mc_game *g = mc_game_new(spec, &err);
    CHECK_MSG(g != NULL, "%s: %s", spec, err.msg);
    return g;
}

/* O3-O8 invariants along 2000 random games played through the session. */
static void test_random_invariants(void)
{
    mc_game *g = game("oware");
    mc_rng rng;
    mc_rng_seed(&rng, 20261129);
    int bad_total = 0, bad_range = 0, bad_cap = 0, bad_side = 0, unended = 0;
    int bad_trace = 0, bad_roundtrip = 0;
    for (int gi = 0; gi < 2000; gi++) {
        mc_session *s = mc_session_new(g, NULL);
        int plies = 0;
        while (!mc_session_over(s) && plies < 5000) {
            mc_move mv[MC_MAX_MOVES];
            int n = mc_session_moves(s, mv);
            const mc_pos before = *mc_session_pos(s);
            mc_trace_event ev[128];
            mc_trace t = {ev, 128, 0, 0};
            mc_error err;
            mc_move m = mv[mc_rng_below(&rng, (uint32_t)n)];
            if (mc_session_play(s, m, &t, &err) != 0)
                break;
            const mc_pos *p = mc_session_pos(s);
            plies++;
            bad_total += mc_total(g, p) != 48;
            for (int i = 0; i < 12; i++)
                bad_range += p->pit[i] > 48;
            bad_cap += p->cap[0] < before.cap[0] || p->cap[1] < before.cap[1];
            bad_side += p->side == before.side;
            /* Trace: drops add up to the seeds lifted, captures to the
               growth of the mover's store. */
            uint32_t lifted = 0, dropped = 0, captured = 0;
            for (size_t i = 0; i < t.len; i++) {
                if (ev[i].kind == MC_TR_LIFT)
                    lifted += ev[i].n;
                if (ev[i].kind == MC_TR_DROP)
                    dropped++;
                if (ev[i].kind == MC_TR_CAPTURE)
                    captured += ev[i].n;
            }
            bad_trace += t.dropped != 0 || lifted != before.pit[m] ||
                         dropped != lifted ||
                         captured != (uint32_t)(p->cap[before.side] -
                                                before.cap[before.side]);
            char buf[MC_POS_STRLEN];
            mc_pos q;
            mc_pos_format(g, p, buf, sizeof buf);
            bad_roundtrip +=
                mc_pos_parse(g, buf, &q, NULL) != 0 || memcmp(&q, p, 40) != 0;
        }
        unended += !mc_session_over(s);
        mc_session_free(s);
    }
    CHECK(bad_total == 0);
    CHECK(bad_range == 0);
    CHECK(bad_cap == 0);
    CHECK(bad_side == 0);
    CHECK(unended == 0);
    CHECK(bad_trace == 0);
    CHECK(bad_roundtrip == 0);
    mc_game_free(g);
}

/* Within `k` standard errors of the reference (rounded to 0.1 %). */
static int near_share(double got, double want, double n1, double n2, double k)
{
    double se = sqrt(want * (1 - want) * (1 / n1 + 1 / n2));
    return fabs(got - want) <= k * se + 0.0005;
}

/* rules/oware.md: uniform random play over 100,000 games gives 104.0 plies
   on average; South 45.8 %, North 48.5 %, draws 5.7 %; about 76 % end by
   25+, 15 % because a player cannot feed, 9 % by repetition. */
static void test_random_statistics(void)
{
    mc_game *g = game("oware");
    mc_pos start;
    mc_start(g, &start);
    mc_rng rng;
    mc_rng_seed(&rng, 42);
    const int n = 40000;
    const double ref_n = 100000;
    double sum = 0, sum2 = 0;
    int win[3] = {0, 0, 0}, why[16] = {0};
    for (int i = 0; i < n; i++) {
        mc_result r;
        int plies = mc_random_game(g, &start, &rng, 0, &r);
        CHECK_MSG(r.over, "game %d did not end", i);
        sum += plies;
        sum2 += (double)plies * plies;
        win[r.winner]++;
        why[r.reason & 15]++;
    }
    double mean = sum / n, sd = sqrt(sum2 / n - mean * mean);
    double se = sd * sqrt(1.0 / n + 1.0 / ref_n);
    CHECK_MSG(fabs(mean - 104.0) <= 4 * se + 0.05, "mean length %.2f", mean);
    CHECK_MSG(near_share(win[0] / (double)n, 0.458, n, ref_n, 4), "South %.4f",
              win[0] / (double)n);
    CHECK_MSG(near_share(win[1] / (double)n, 0.485, n, ref_n, 4), "North %.4f",
              win[1] / (double)n);
    CHECK_MSG(near_share(win[2] / (double)n, 0.057, n, ref_n, 4), "draws %.4f",
              win[2] / (double)n);
    /* The end reasons are given to whole percents: allow 1 % of rounding. */
    double cap = why[MC_END_CAPTURES] / (double)n;
    double nomove = why[MC_END_NOMOVE] / (double)n;
    double rep = why[MC_END_REPETITION] / (double)n;
    CHECK_MSG(fabs(cap - 0.76) <= 0.01 + 4 * sqrt(0.76 * 0.24 / n), "25+ %.4f",
              cap);
    CHECK_MSG(fabs(nomove - 0.15) <= 0.01 + 4 * sqrt(0.15 * 0.85 / n),
              "cannot feed %.4f", nomove);
    CHECK_MSG(fabs(rep - 0.09) <= 0.01 + 4 * sqrt(0.09 * 0.91 / n),
              "repetition %.4f", rep);
    CHECK(why[MC_END_CAPTURES] + why[MC_END_NOMOVE] + why[MC_END_REPETITION] ==
          n);
    mc_game_free(g);
}

static void status_of(const char *spec, const char *pos, int occurrences,
                      mc_result *r)
{
    mc_game *g = game(spec);
    mc_pos p;
    CHECK(mc_pos_parse(g, pos, &p, NULL) == 0);
    mc_hist h = {occurrences, 10, 10};
    mc_status(g, &p, &h, r);
    mc_game_free(g);
}

/* O8b with both cycle_split values, O9 half seeds, repetition counts. */
static void test_end_splits(void)
{
    mc_result r;
    /* South can feed with F, so only repetition can end the game here. */
    const char *pos = "0,0,0,0,0,3/0,0,0,0,0,0 S cap=22,23";
    status_of("oware", pos, 2, &r);
    CHECK(r.over && r.reason == MC_END_REPETITION);
    CHECK_STR(r.detail, "25-23");
    CHECK(r.winner == MC_SOUTH);
    status_of("oware:cycle_split=even", pos, 2, &r);
    CHECK_STR(r.detail, "23.5-24.5");
    CHECK(r.winner == MC_NORTH);
    CHECK(r.score2[0] == 47 && r.score2[1] == 49);
    /* An even split of an even board keeps whole numbers. */
    status_of("oware:cycle_split=even", "3,0,0,0,0,1/0,0,0,0,0,0 S cap=22,22",
              2, &r);
    CHECK_STR(r.detail, "24-24");
    CHECK(r.winner == MC_DRAW);
    /* repetition=threefold: the second occurrence does not end the game. */
    status_of("oware:repetition=threefold", pos, 2, &r);
    CHECK(!r.over);
    status_of("oware:repetition=threefold", pos, 3, &r);
    CHECK(r.over && r.reason == MC_END_REPETITION);
    /* O8c goes by ownership even with cycle_split=even: South cannot feed. */
    status_of("oware:cycle_split=even", "0,1,1,1,1,0/0,0,0,0,0,0 S cap=21,23",
              1, &r);
    CHECK(r.over && r.reason == MC_END_NOMOVE);
    CHECK_STR(r.detail, "25-23");
    /* O8a is checked before repetition. */
    status_of("oware", "0,0,0,0,0,0/0,0,0,0,0,1 N cap=26,21", 2, &r);
    CHECK(r.over && r.reason == MC_END_CAPTURES);
    CHECK_STR(r.detail, "26-21");
}

static mc_result result_for(int winner)
{
    mc_result r;
    memset(&r, 0, sizeof r);
    r.over = 1;
    r.winner = winner;
    r.reason = MC_END_CAPTURES;
    return r;
}

/* Play a sequence of results ('S', 'N', 'D') into a match; return the game
   count at which the match was decided (0 if never), and the winner. */
static int run_match(const char *spec, const char *seq, int *winner,
                     int *first_after)
{
    mc_game *g = game(spec);
    mc_match m;
    mc_match_init(g, &m);
    int decided = 0;
    for (int i = 0; seq[i]; i++) {
        mc_result r = result_for(seq[i] == 'S'   ? MC_SOUTH
                                 : seq[i] == 'N' ? MC_NORTH
                                                 : MC_DRAW);
        mc_match_record(g, &m, &r);
        if (first_after && i == 0)
            *first_after = m.next_first;
        if (m.winner >= 0 && !decided)
            decided = i + 1;
    }
    *winner = m.winner;
    mc_game_free(g);
    return decided;
}

/* O10 */
static void test_matches(void)
{
    int w, first = -1;
    CHECK(run_match("oware", "N", &w, NULL) == 1 && w == MC_NORTH);
    CHECK(run_match("oware", "D", &w, NULL) == 1 && w == MC_DRAW);
    CHECK(run_match("oware:match=bo3", "SNS", &w, NULL) == 3 && w == MC_SOUTH);
    CHECK(run_match("oware:match=bo3", "SDDS", &w, NULL) == 4 && w == MC_SOUTH);
    CHECK(run_match("oware:match=bo5", "SSNNN", &w, NULL) == 5 &&
          w == MC_NORTH);
    CHECK(run_match("oware:match=kumasi", "SSSSNNNNN", &w, NULL) == 9 &&
          w == MC_NORTH);
    CHECK(run_match("oware:match=kumasi", "SSSS", &w, NULL) == 0 && w == -1);
    /* antigua: a lead of 3 ends it early; otherwise first to 6 */
    CHECK(run_match("oware:match=antigua", "SSS", &w, NULL) == 3 &&
          w == MC_SOUTH);
    CHECK(run_match("oware:match=antigua", "SNSNSNSNSNS", &w, NULL) == 11 &&
          w == MC_SOUTH);
    CHECK(run_match("oware:match=antigua", "NSNSNSNSNS", &w, NULL) == 0);
    /* yoruba: three wins in a row; a draw breaks a streak */
    CHECK(run_match("oware:match=yoruba", "SSDSSS", &w, NULL) == 6 &&
          w == MC_SOUTH);
    CHECK(run_match("oware:match=yoruba", "SSNNDNN", &w, NULL) == 0);
    CHECK(run_match("oware:match=yoruba", "SSNNN", &w, NULL) == 5 &&
          w == MC_NORTH);
    /* The winner starts the next game; a draw keeps the starter. */
    run_match("oware:match=bo3", "N", &w, &first);
    CHECK(first == MC_NORTH);
    run_match("oware:match=bo3", "D", &w, &first);
    CHECK(first == MC_SOUTH);
    run_match("oware:match=bo3,first=north", "D", &w, &first);
    CHECK(first == MC_NORTH);
}

static void test_specs(void)
{
    mc_game *g = game("oware:awari");
    CHECK_STR(mc_game_spec(g), "oware:grand_slam=illegal_unless_only,"
                               "repetition=threefold,cycle_split=even");
    CHECK_STR(mc_game_option(g, "grand_slam"), "illegal_unless_only");
    CHECK(mc_game_option(g, "nonsense") == NULL);
    mc_game_free(g);
    g = game("oware:awari,repetition=first");
    CHECK_STR(mc_game_spec(g),
              "oware:grand_slam=illegal_unless_only,cycle_split=even");
    mc_game_free(g);
    g = game("oware:grand_slam=forfeit");
    CHECK_STR(mc_game_spec(g), "oware");
    mc_game_free(g);
    mc_error err = {0, ""};
    CHECK(mc_game_new("oware:awari,", &err) == NULL);
    CHECK(strstr(err.msg, "empty option") != NULL);
    CHECK(mc_game_new("oware:,", &err) == NULL);
    CHECK(mc_game_new("oware:seeds=47", &err) == NULL);
    CHECK(strstr(err.msg, "expected one of: 48, any") != NULL);
    CHECK(mc_game_new("oware:awar", &err) == NULL);
    CHECK(strstr(err.msg, "presets: awari") != NULL);
    CHECK(mc_game_new("", &err) == NULL);
    CHECK(mc_game_new(NULL, &err) == NULL);
    char longspec[400];
    memset(longspec, 'x', sizeof longspec - 1);
    longspec[sizeof longspec - 1] = '\0';
    CHECK(mc_game_new(longspec, &err) == NULL);
    CHECK(strstr(err.msg, "too long") != NULL);
}

/* Malformed input never yields a position or a move. */
static void test_bad_input(void)
{
    mc_game *g = game("oware");
    mc_pos p, start;
    mc_start(g, &start);
    const char *bad[] = {
        "",
        " 4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0",
        "4,4,4,4,4,4/4,4,4,4,4,4  S cap=0,0",
        "4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0 ",
        "4,4,4,4,4,4/4,4,4,4,4,4 s cap=0,0",
        "4,4,4,4,4,4/4,4,4,4,4,4 S cap=0",
        "4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0,0",
        "4,4,4,4,4,4,4,4,4,4,4,4 S cap=0,0",
        "4,4,4,4,4,4/4,4,4,4,4,4,4 S cap=0,0",
        "-4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0",
        "99999999999,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0",
        "4,4,4,4,4,4/4,4,4,4,4,4 S cap=,",
        "4,4,4,4,4,4/4,4,4,4,4,4 S caps=0,0",
        "48,0,0,0,0,0/0,0,0,0,0,0 S cap=0,1",
        NULL,
    };
    for (int i = 0; bad[i]; i++) {
        mc_error err = {0, ""};
        p = start;
        int rc = mc_pos_parse(g, bad[i], &p, &err);
        CHECK_MSG(rc == MC_ERR_POSITION && err.msg[0], "'%s' accepted (rc %d)",
                  bad[i], rc);
        CHECK(memcmp(&p, &start, sizeof p) == 0); /* untouched on error */
    }
    const char *badmoves[] = {"", "AA", "g", "1", " A", "A ", "@", NULL};
    for (int i = 0; badmoves[i]; i++) {
        mc_error err = {0, ""};
        mc_move m;
        CHECK_MSG(mc_move_parse(g, &start, badmoves[i], &m, &err) != 0,
                  "move '%s' accepted", badmoves[i]);
    }
    mc_game_free(g);
}

int main(void)
{
    test_random_invariants();
    test_random_statistics();
    test_end_splits();
    test_matches();
    test_specs();
    test_bad_input();
    return check_report("test_oware");
}
