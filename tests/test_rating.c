/*
 * test_rating.c - the ratings of rated games (src/server/rating.c):
 * Glickman's worked example from "Example of the Glicko-2 system" (2013)
 * to the paper's published figures, and cases worked by hand (the working
 * is in the comment above each; S = 173.7178, the Glicko-2 scale).
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "server/rating.h"

#define S MC_RATING_SCALE
#define NEAR(a, b, eps) (fabs((a) - (b)) <= (eps))
/* x rounds to the paper's figure `fig` given to `places` decimals */
#define ROUNDS_TO(x, fig, places)                                              \
    (fabs((x) - (fig)) <= 0.5 * pow(10, -(places)) + 1e-12)

/* The paper's example: a player rated 1500, RD 200, sigma 0.06, tau 0.5,
   wins against 1400 (RD 30), loses to 1550 (RD 100) and to 1700 (RD 300)
   in one rating period. */
static const mc_rating paper_player = {1500, 200, 0.06};
static const mc_rating_game paper_games[3] = {
    {{1400, 30, 0.06}, 1},
    {{1550, 100, 0.06}, 0},
    {{1700, 300, 0.06}, 0},
};

/* The whole period at full precision, every step against the paper.  The
   paper rounds as it goes (E to three decimals, then v, delta and the
   rest from the rounded figures), so the exact values agree with its
   figures to their last decimal where that rounding does not reach them
   (mu, phi, g, E, phi', mu', RD'), and otherwise within what it carries
   (v, delta, phi*, r'), worked out below. */
static void test_paper_period(void)
{
    mc_rating out;
    mc_rating_steps st;
    mc_error err = {0};
    CHECK(mc_rating_period(&paper_player, paper_games, 3, NULL, &out, &st,
                           &err) == 0);
    CHECK_MSG(err.code == 0, "%s", err.msg);

    /* Step 2: mu = 0, phi = 200 / 173.7178 = 1.1513. */
    CHECK(NEAR(st.mu, 0, 1e-12));
    CHECK(ROUNDS_TO(st.phi, 1.1513, 4));

    /* Step 3: g(phi_j) = 0.9955, 0.9531, 0.7242; E = 0.639, 0.432, 0.303. */
    const double g_paper[3] = {0.9955, 0.9531, 0.7242};
    const double e_paper[3] = {0.639, 0.432, 0.303};
    for (int j = 0; j < 3; j++) {
        double mu_j, phi_j;
        mc_rating_to_glicko2(paper_games[j].opp.r, paper_games[j].opp.rd, &mu_j,
                             &phi_j);
        double g = mc_rating_g(phi_j), e = mc_rating_e(st.mu, mu_j, phi_j);
        CHECK_MSG(ROUNDS_TO(g, g_paper[j], 4), "g(phi_%d) = %.6f", j + 1, g);
        CHECK_MSG(ROUNDS_TO(e, e_paper[j], 3), "E_%d = %.6f", j + 1, e);
    }

    /* Step 3: v = 1.7785 in the paper, from the rounded g and E: 1 /
       (0.228608 + 0.222899 + 0.110762) = 1 / 0.562269 = 1.77851.  Any g
       and E that round to the paper's figures give a v within 0.0012 of
       that (the extremes of g +- 0.00005 and E +- 0.0005).  Unrounded (g
       = 0.995498, 0.953149, 0.724235; E = 0.639468, 0.431842, 0.302841):
       1 / (0.228478 + 0.222903 + 0.110740) = 1 / 0.562121 = 1.77898. */
    CHECK_MSG(NEAR(st.v, 1.7785, 0.0012), "v = %.6f", st.v);
    CHECK_MSG(NEAR(st.v, 1.77898, 0.00001), "v = %.6f", st.v);

    /* Step 4: delta = 1.7785 (0.9955 (1 - 0.639) + 0.9531 (0 - 0.432) +
       0.7242 (0 - 0.303)) = 1.7785 (-0.271796) = -0.4834; within 0.0025 of
       it for any g, E that round to the paper's.  Unrounded: 1.77898
       (0.358909 - 0.411610 - 0.219328) = 1.77898 (-0.272029) = -0.48393. */
    CHECK_MSG(NEAR(st.delta, -0.4834, 0.0025), "delta = %.6f", st.delta);
    CHECK_MSG(NEAR(st.delta, -0.48393, 0.00001), "delta = %.6f", st.delta);

    /* Step 5: sigma' = 0.05999.  The paper cuts it to five decimals rather
       than rounding it (its phi* below is sqrt(1.1513^2 + 0.05999^2));
       the Illinois iteration gives 0.0599960 from its rounded inputs and
       from the exact ones alike (test_paper_steps), so it lies in
       [0.05999, 0.06000). */
    CHECK_MSG(st.vol >= 0.05999 && st.vol < 0.06, "sigma' = %.8f", st.vol);
    CHECK(out.vol == st.vol);

    /* Step 6: phi* = sqrt(1.1513^2 + 0.05999^2) = 1.152862 in the paper;
       phi's rounding (+-0.00005) moves it by phi / phi* times as much, so
       the exact phi* = sqrt(1.151292^2 + 0.059996^2) = 1.152855 is within
       0.000051 of the paper's. */
    CHECK_MSG(NEAR(st.phi_star, 1.152862, 0.000051), "phi* = %.7f",
              st.phi_star);
    CHECK(NEAR(st.phi_star, sqrt(st.phi * st.phi + st.vol * st.vol), 1e-15));

    /* Step 7: phi' = 0.8722, mu' = -0.2069 (to the paper's decimals). */
    CHECK_MSG(ROUNDS_TO(st.phi_new, 0.8722, 4), "phi' = %.6f", st.phi_new);
    CHECK_MSG(ROUNDS_TO(st.mu_new, -0.2069, 4), "mu' = %.6f", st.mu_new);

    /* Step 8: RD' = 151.52.  r' = 173.7178 (-0.2069) + 1500 = 1464.06 in
       the paper, from mu' rounded to four decimals (+-0.00005, that is
       +-0.0087 points), so the exact r' is within 0.0087 + 0.005 of
       1464.06: it is 1464.0507 (mu' = -0.206941). */
    CHECK_MSG(ROUNDS_TO(out.rd, 151.52, 2), "RD' = %.4f", out.rd);
    CHECK_MSG(NEAR(out.r, 1464.06, 0.0137), "r' = %.4f", out.r);
    CHECK(NEAR(out.r, S * st.mu_new + 1500, 1e-9));
    CHECK(NEAR(out.rd, S * st.phi_new, 1e-9));
}

/* The paper's own arithmetic through the module's steps 5 and 8, from the
   paper's rounded figures: its published sigma', r' and RD' exactly. */
static void test_paper_steps(void)
{
    mc_error err = {0};
    double vol = 0;
    int it = -1;
    /* Step 5 from delta = -0.4834, phi = 1.1513, v = 1.7785, sigma 0.06,
       tau 0.5: sigma' = 0.05999 (cut, as above). */
    CHECK(mc_rating_volatility(-0.4834, 1.1513, 1.7785, 0.06, 0.5, &vol, &it,
                               &err) == 0);
    CHECK_MSG(vol >= 0.05999 && vol < 0.06, "sigma' = %.8f", vol);
    CHECK(it > 0 && it < 50);
    /* Step 8 from mu' = -0.2069, phi' = 0.8722: 173.7178 (-0.2069) + 1500
       = 1464.0578 -> 1464.06; 173.7178 * 0.8722 = 151.5167 -> 151.52. */
    double r, rd;
    mc_rating_from_glicko2(-0.2069, 0.8722, &r, &rd);
    CHECK_MSG(ROUNDS_TO(r, 1464.06, 2), "r' = %.4f", r);
    CHECK_MSG(ROUNDS_TO(rd, 151.52, 2), "RD' = %.4f", rd);
    /* Step 2 back: 1464.0578 -> -0.2069, 151.5167 -> 0.8722. */
    double mu, phi;
    mc_rating_to_glicko2(r, rd, &mu, &phi);
    CHECK(NEAR(mu, -0.2069, 1e-12) && NEAR(phi, 0.8722, 1e-12));
}

/* Step 5's sign: with delta^2 <= phi^2 + v, f(a) = -e^a / (2 (phi^2 + v +
   e^a)) - 0 < 0 at a = ln sigma^2, so the root and sigma' lie below sigma;
   with delta^2 > phi^2 + v by more than e^a, f(a) > 0 and sigma' > sigma
   (the second bracket of 5.2). */
static void test_volatility_direction(void)
{
    double vol;
    mc_error err;
    /* delta = 0 (an expected result) */
    CHECK(mc_rating_volatility(0, 1.0, 4.0, 0.06, 0.5, &vol, NULL, &err) == 0);
    CHECK(vol < 0.06 && vol > 0.059);
    /* delta = -18.22, v = 19.65, phi = 0.3454: the 2000 (RD 60) who loses
       to a 1500 (RD 60) below */
    CHECK(mc_rating_volatility(-18.22, 0.3454, 19.65, 0.06, 0.5, &vol, NULL,
                               &err) == 0);
    CHECK(vol > 0.06 && vol < 0.061);
    /* a larger tau lets sigma move further on the same evidence */
    double v1, v2;
    CHECK(mc_rating_volatility(-18.22, 0.3454, 19.65, 0.06, 0.3, &v1, NULL,
                               &err) == 0);
    CHECK(mc_rating_volatility(-18.22, 0.3454, 19.65, 0.06, 1.2, &v2, NULL,
                               &err) == 0);
    CHECK(v1 > 0.06 && v1 < vol && vol < v2);
}

/* Two equal players, a draw: E = 1/2 = s, so delta = 0 and mu' = mu:
   both stay at 1500.  Their RD shrinks: phi = 1.151292, g(phi) = 1 /
   sqrt(1 + 3 (1.325474) / 9.869604) = 0.844282, v = 1 / (0.844282^2 /
   4) = 5.611584, phi* = sqrt(1.325474 + 0.0036) = 1.152854 (sigma' is a
   hair under 0.06), phi' = 1 / sqrt(1 / 1.329074 + 1 / 5.611584) = 1 /
   sqrt(0.930606) = 1.036614, RD' = 180.08. */
static void test_draw(void)
{
    const mc_rating two[2] = {{1500, 200, 0.06}, {1500, 200, 0.06}};
    mc_rating_result res;
    mc_error err;
    CHECK(mc_rating_rate_game(two, 0.5, NULL, &res, &err) == 0);
    for (int i = 0; i < 2; i++) {
        CHECK(NEAR(res.after[i].r, 1500, 1e-9));
        CHECK_MSG(NEAR(res.after[i].rd, 180.08, 0.01), "RD' %.4f",
                  res.after[i].rd);
        CHECK(res.after[i].vol < 0.06);
        CHECK(res.change[i] == 0);
        CHECK(res.shown_before[i] == 1500 && res.shown_after[i] == 1500);
    }
    CHECK(memcmp(&res.after[0], &res.after[1], sizeof res.after[0]) == 0);
}

/* A win between equal settled players (1500, RD 60): phi = 0.345388, g =
   1 / sqrt(1 + 3 (0.119293) / 9.869604) = 0.982348, E = 1/2, v = 1 /
   (0.982348^2 / 4) = 4.145043, phi* = sqrt(0.119293 + 0.0036) =
   0.350561, phi' = 1 / sqrt(1 / 0.122893 + 1 / 4.145043) = 0.345477,
   mu' = +-0.345477^2 (0.982348) (1/2) = +-0.058624, +-10.18 points: the
   winner 1510.18 (+10), the loser 1489.82 (-10), both RD 60.02. */
static void test_win(void)
{
    const mc_rating two[2] = {{1500, 60, 0.06}, {1500, 60, 0.06}};
    mc_rating_result res;
    mc_error err;
    CHECK(mc_rating_rate_game(two, 1, NULL, &res, &err) == 0);
    CHECK_MSG(NEAR(res.after[0].r, 1510.18, 0.01), "%.4f", res.after[0].r);
    CHECK_MSG(NEAR(res.after[1].r, 1489.82, 0.01), "%.4f", res.after[1].r);
    CHECK(NEAR(res.after[0].rd, 60.02, 0.01));
    CHECK(NEAR(res.after[1].rd, 60.02, 0.01));
    CHECK(res.change[0] == 10 && res.change[1] == -10);
    /* the same game seen from the other side */
    mc_rating_result back;
    CHECK(mc_rating_rate_game(two, 0, NULL, &back, &err) == 0);
    CHECK(back.change[0] == -10 && back.change[1] == 10);
    CHECK(NEAR(back.after[1].r, res.after[0].r, 1e-9));

    /* The change shown is the difference of the ratings shown: from
       1500.4 (shown 1500) the winner goes to 1510.58 (shown 1511): +11,
       though the rating rose by 10.18; the loser to 1490.22: 1490, -10. */
    const mc_rating odd[2] = {{1500.4, 60, 0.06}, {1500.4, 60, 0.06}};
    CHECK(mc_rating_rate_game(odd, 1, NULL, &res, &err) == 0);
    CHECK(res.shown_before[0] == 1500 && res.shown_after[0] == 1511);
    CHECK(res.change[0] == 11 && res.change[1] == -10);

    /* A settled 2000 (RD 60) who loses to a settled 1500: E = 1 / (1 +
       exp(-0.982348 (500 / 173.7178))) = 1 / (1 + exp(-2.827428)) =
       0.944140 for the 2000, v = 1 / (0.965008 (0.944140) (0.055860)) =
       19.6486, mu' = 2.878231 - phi'^2 0.982348 (0.944140), with phi' =
       1 / sqrt(1 / 0.122894 + 1 / 19.6486) = 0.349471 (sigma' =
       0.06001): 2.878231 -
       0.113273 = 2.764958, 1980.32; the loser's volatility rises. */
    const mc_rating upset[2] = {{2000, 60, 0.06}, {1500, 60, 0.06}};
    CHECK(mc_rating_rate_game(upset, 0, NULL, &res, &err) == 0);
    CHECK_MSG(NEAR(res.after[0].r, 1980.32, 0.01), "%.4f", res.after[0].r);
    CHECK(res.change[0] == -20 && res.change[1] == 20);
    CHECK(res.after[0].vol > 0.06);
}

/* A new player (1500, RD 350) beats another: the ceiling holds phi* at
   2.014762 (not sqrt(2.014762^2 + 0.06^2) = 2.015655); g = 1 / sqrt(1 +
   3 (4.059265) / 9.869604) = 0.669069, v = 1 / (0.669069^2 / 4) =
   8.935475, phi' = 1 / sqrt(1 / 4.059265 + 1 / 8.935475) = 1.670701,
   RD' = 290.23 (290.32 without the ceiling); mu' = 1.670701^2 (0.669069)
   (1/2) = 0.933767: 1662.21, +162. */
static void test_new_players(void)
{
    const mc_rating two[2] = {{1500, 350, 0.06}, {1500, 350, 0.06}};
    mc_rating_result res;
    mc_error err;
    CHECK(mc_rating_rate_game(two, 1, NULL, &res, &err) == 0);
    CHECK_MSG(NEAR(res.after[0].rd, 290.23, 0.01), "%.4f", res.after[0].rd);
    CHECK_MSG(NEAR(res.after[0].r, 1662.21, 0.01), "%.4f", res.after[0].r);
    CHECK(res.change[0] == 162 && res.change[1] == -162);
    /* A new player moves much more than a settled one. */
    const mc_rating mixed[2] = {{1500, 350, 0.06}, {1500, 60, 0.06}};
    CHECK(mc_rating_rate_game(mixed, 1, NULL, &res, &err) == 0);
    CHECK(res.change[0] > 150 && res.change[1] < 0 && res.change[1] > -10);
}

/* The volatility's bounds hold sigma' before step 6: from sigma = 0.1
   (the ceiling) the 2000's loss above pushes sigma' over it (f(a) > 0, as
   in test_volatility_direction), so phi* = sqrt(phi^2 + 0.1^2) and the
   result keeps 0.1; from 0.01 (the floor) a draw pulls it under (f(a) <
   0), so phi* = sqrt(phi^2 + 0.01^2). */
static void test_volatility_bounds(void)
{
    mc_rating out;
    mc_rating_steps st;
    mc_error err;
    const mc_rating high = {2000, 60, 0.1}, low = {1500, 60, 0.01};
    const mc_rating_game loss = {{1500, 60, 0.06}, 0};
    const mc_rating_game draw = {{1500, 60, 0.06}, 0.5};
    CHECK(mc_rating_period(&high, &loss, 1, NULL, &out, &st, &err) == 0);
    CHECK(st.vol > 0.1 && out.vol == 0.1);
    CHECK(st.phi_star == sqrt(st.phi * st.phi + 0.1 * 0.1));
    CHECK(mc_rating_period(&low, &draw, 1, NULL, &out, &st, &err) == 0);
    CHECK(st.vol < 0.01 && out.vol == 0.01);
    CHECK(st.phi_star == sqrt(st.phi * st.phi + 0.01 * 0.01));
}

/* No game: step 6 alone, phi' = sqrt(phi^2 + sigma^2), that is RD' =
   sqrt(RD^2 + (0.06 * 173.7178)^2) = sqrt(40000 + 108.6403) = 200.2714;
   r and sigma stay. */
static void test_no_game(void)
{
    mc_rating out;
    mc_rating_steps st;
    mc_error err;
    CHECK(mc_rating_period(&paper_player, NULL, 0, NULL, &out, &st, &err) == 0);
    CHECK_MSG(NEAR(out.rd, 200.2714, 0.0001), "%.6f", out.rd);
    CHECK(out.r == 1500 && out.vol == 0.06);
    CHECK(NEAR(st.phi_new, sqrt(st.phi * st.phi + 0.06 * 0.06), 1e-15));
    CHECK(st.v == 0 && st.delta == 0 && st.mu_new == st.mu);
}

/* The ceiling: 350 stays 350 (sqrt(350^2 + 108.6403) = 350.155), 349.9
   becomes 350 (350.055).  Ten years away (730 periods) take a settled 60
   to sqrt(3600 + 730 (108.6403)) = sqrt(82907.4) = 287.94, twenty years
   (1460) past the ceiling (sqrt(162208.8) = 402.75), to 350. */
static void test_ceiling(void)
{
    mc_rating out, in = {1500, 350, 0.06};
    mc_error err;
    CHECK(mc_rating_period(&in, NULL, 0, NULL, &out, NULL, &err) == 0);
    CHECK(out.rd == 350);
    in.rd = 349.9;
    CHECK(mc_rating_period(&in, NULL, 0, NULL, &out, NULL, &err) == 0);
    CHECK(out.rd == 350);
    in.rd = 60;
    CHECK(mc_rating_idle(&in, 3650, NULL, &out, &err) == 0);
    CHECK(NEAR(out.rd, 287.94, 0.01));
    CHECK(mc_rating_idle(&in, 7300, NULL, &out, &err) == 0);
    CHECK(out.rd == 350);
    /* a lower ceiling of the caller's */
    mc_rating_params p = mc_rating_defaults;
    p.rd_max = 300;
    p.start.rd = 300;
    in.rd = 299.9; /* sqrt(299.9^2 + 108.6403) = 300.08 */
    CHECK(mc_rating_period(&in, NULL, 0, &p, &out, NULL, &err) == 0);
    CHECK(out.rd == 300);
    in.rd = 299; /* sqrt(299^2 + 108.6403) = 299.18 */
    CHECK(mc_rating_period(&in, NULL, 0, &p, &out, NULL, &err) == 0);
    CHECK(NEAR(out.rd, 299.18, 0.01));
}

/* Time away, 5 days a period: 5 days is one period of step 6 (60 ->
   sqrt(3600 + 108.6403) = 60.8986), 365 days 73 of them (sqrt(3600 + 73
   (108.6403)) = 107.38, still settled), 400 days 80 (110.87:
   provisional again). */
static void test_idle(void)
{
    const mc_rating in = {1500, 60, 0.06};
    mc_rating out, step;
    mc_error err;
    CHECK(mc_rating_idle(&in, 0, NULL, &out, &err) == 0);
    CHECK(memcmp(&out, &in, sizeof in) == 0);
    CHECK(mc_rating_idle(&in, 5, NULL, &out, &err) == 0);
    CHECK(NEAR(out.rd, 60.8986, 0.0001));
    CHECK(mc_rating_period(&in, NULL, 0, NULL, &step, NULL, &err) == 0);
    CHECK(NEAR(out.rd, step.rd, 1e-9));
    /* three periods away = step 6 three times */
    mc_rating a = in;
    for (int i = 0; i < 3; i++)
        CHECK(mc_rating_period(&a, NULL, 0, NULL, &a, NULL, &err) == 0);
    CHECK(mc_rating_idle(&in, 15, NULL, &out, &err) == 0);
    CHECK(NEAR(out.rd, a.rd, 1e-9));
    CHECK(mc_rating_idle(&in, 365, NULL, &out, &err) == 0);
    CHECK(NEAR(out.rd, 107.38, 0.01) && !mc_rating_provisional(&out, NULL));
    CHECK(mc_rating_idle(&in, 400, NULL, &out, &err) == 0);
    CHECK(NEAR(out.rd, 110.87, 0.01) && mc_rating_provisional(&out, NULL));
    CHECK(out.r == in.r && out.vol == in.vol);
}

/* Provisional from RD 110 up (until the deviation falls below 110). */
static void test_provisional(void)
{
    char buf[32];
    mc_rating x = {1512.4, 110, 0.06};
    CHECK(mc_rating_provisional(&x, NULL));
    CHECK_STR(mc_rating_text(&x, NULL, buf, sizeof buf), "1512?");
    x.rd = 109.99;
    CHECK(!mc_rating_provisional(&x, NULL));
    CHECK_STR(mc_rating_text(&x, NULL, buf, sizeof buf), "1512");
    x.rd = 350;
    CHECK(mc_rating_provisional(&x, NULL));
    CHECK(mc_rating_provisional(&mc_rating_defaults.start, NULL));
    x.r = 1512.5;
    x.rd = 60;
    CHECK_STR(mc_rating_text(&x, NULL, buf, sizeof buf), "1513");
    mc_rating_params p = mc_rating_defaults;
    p.rd_provisional = 50;
    CHECK(mc_rating_provisional(&x, &p));
    CHECK(mc_rating_shown(1464.06) == 1464 && mc_rating_shown(1464.5) == 1465);
}

static void test_change_text(void)
{
    char buf[16];
    CHECK_STR(mc_rating_change_text(12, buf, sizeof buf), "+12");
    CHECK_STR(mc_rating_change_text(-8, buf, sizeof buf), "\xe2\x88\x92"
                                                          "8");
    CHECK_STR(mc_rating_change_text(0, buf, sizeof buf), "0");
    CHECK_STR(mc_rating_change_text(-162, buf, sizeof buf), "\xe2\x88\x92"
                                                            "162");
    CHECK_STR(mc_rating_change_text(-2147483647 - 1, buf, sizeof buf),
              "\xe2\x88\x92"
              "2147483648");
    char small[3] = "zz";
    CHECK_STR(mc_rating_change_text(12, small, sizeof small), "+1");
}

/* Each bad input is refused with MC_ERR_ARG and a message, and leaves the
   output as it was. */
static int refused_period(const mc_rating *x, const mc_rating_game *g, int n,
                          const mc_rating_params *p)
{
    mc_rating out = {-1, -1, -1};
    mc_rating_steps st = {.mu = -7};
    mc_error err = {0};
    int rc = mc_rating_period(x, g, n, p, &out, &st, &err);
    return rc == MC_ERR_ARG && err.code == MC_ERR_ARG && err.msg[0] &&
           out.r == -1 && out.rd == -1 && out.vol == -1 && st.mu == -7;
}

static void test_bad_input(void)
{
    const mc_rating good = {1500, 200, 0.06};
    mc_rating_game g = {{1500, 200, 0.06}, 1};
    CHECK(!refused_period(&good, &g, 1, NULL)); /* the control */
    const mc_rating bad[] = {
        {NAN, 200, 0.06},  {INFINITY, 200, 0.06}, {399, 200, 0.06},
        {4001, 200, 0.06}, {1500, NAN, 0.06},     {1500, -1, 0.06},
        {1500, 0, 0.06},   {1500, 350.01, 0.06},  {1500, INFINITY, 0.06},
        {1500, 200, 0},    {1500, 200, -0.06},    {1500, 200, NAN},
        {1500, 200, 0.2},  {1500, 200, 0.001},    {1500, 200, INFINITY},
    };
    int nb = (int)(sizeof bad / sizeof bad[0]);
    for (int i = 0; i < nb; i++) {
        CHECK_MSG(refused_period(&bad[i], &g, 1, NULL), "player %d", i);
        CHECK_MSG(refused_period(&bad[i], NULL, 0, NULL), "absent %d", i);
        mc_rating_game bg = {bad[i], 1};
        CHECK_MSG(refused_period(&good, &bg, 1, NULL), "opponent %d", i);
        mc_rating out = {-1, -1, -1};
        mc_error err = {0};
        CHECK(mc_rating_idle(&bad[i], 5, NULL, &out, &err) == MC_ERR_ARG &&
              out.r == -1);
        mc_rating two[2] = {good, bad[i]};
        mc_rating_result res = {.change = {77, 77}};
        CHECK(mc_rating_rate_game(two, 1, NULL, &res, &err) == MC_ERR_ARG &&
              res.change[0] == 77);
    }
    const double scores[] = {0.3, -1, 2, NAN, INFINITY};
    for (int i = 0; i < 5; i++) {
        g.score = scores[i];
        CHECK_MSG(refused_period(&good, &g, 1, NULL), "score %g", scores[i]);
        mc_rating_result res = {.change = {77, 77}};
        mc_error err = {0};
        mc_rating two[2] = {good, good};
        CHECK(mc_rating_rate_game(two, scores[i], NULL, &res, &err) ==
                  MC_ERR_ARG &&
              res.change[0] == 77 && err.msg[0]);
    }
    g.score = 1;
    CHECK(refused_period(&good, &g, -1, NULL));
    CHECK(refused_period(&good, NULL, 1, NULL));
    CHECK(refused_period(NULL, &g, 1, NULL));
    /* days away */
    const double days[] = {-1, NAN, INFINITY};
    for (int i = 0; i < 3; i++) {
        mc_rating out = {-1, -1, -1};
        mc_error err = {0};
        CHECK(mc_rating_idle(&good, days[i], NULL, &out, &err) == MC_ERR_ARG &&
              out.rd == -1 && err.msg[0]);
    }
    /* parameters */
    CHECK(mc_rating_params_check(&mc_rating_defaults, NULL) == 0);
    for (int i = 0; i < 11; i++) {
        mc_rating_params p = mc_rating_defaults;
        switch (i) {
        case 0:
            p.tau = 0;
            break;
        case 1:
            p.tau = NAN;
            break;
        case 2:
            p.rd_max = -350;
            break;
        case 3:
            p.rd_provisional = 400;
            break;
        case 4:
            p.vol_min = 0;
            break;
        case 5:
            p.vol_max = 2;
            break;
        case 6:
            p.r_min = 5000;
            break;
        case 7:
            p.r_max = 20000;
            break;
        case 8:
            p.period_days = 0;
            break;
        case 9:
            p.start.rd = 351;
            break;
        case 10:
            p.r_min = -1;
            break;
        }
        mc_error err = {0};
        CHECK_MSG(mc_rating_params_check(&p, &err) == MC_ERR_ARG && err.msg[0],
                  "parameters %d", i);
        CHECK_MSG(refused_period(&good, &g, 1, &p), "parameters %d", i);
    }
    /* step 5 on its own */
    double vol = -1;
    mc_error err = {0};
    CHECK(mc_rating_volatility(NAN, 1, 1, 0.06, 0.5, &vol, NULL, &err) ==
              MC_ERR_ARG &&
          vol == -1);
    CHECK(mc_rating_volatility(0, 1, 0, 0.06, 0.5, &vol, NULL, &err) ==
              MC_ERR_ARG &&
          vol == -1);
    CHECK(mc_rating_volatility(0, 1, 1, 0, 0.5, &vol, NULL, &err) ==
              MC_ERR_ARG &&
          vol == -1);
    CHECK(mc_rating_volatility(0, 1, 1, 0.06, -0.5, &vol, NULL, &err) ==
              MC_ERR_ARG &&
          vol == -1);
}

/* Never a NaN out: rate many games over the whole accepted range
   (ratings 400 to 4000, RD up to 350, volatility 0.01 to 0.1, each
   result), including its corners; every result is finite, inside the
   bounds, and accepted back in. */
static unsigned long long rng = 0x2545f4914f6cdd1dULL;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static double pick(double lo, double hi)
{
    double u = uniform();
    return u < 0.1 ? lo : u < 0.2 ? hi : lo + (hi - lo) * uniform();
}

static void test_no_nan(void)
{
    const mc_rating_params *p = &mc_rating_defaults;
    int bad = 0, rated = 0;
    for (int i = 0; i < 20000; i++) {
        mc_rating two[2];
        for (int k = 0; k < 2; k++)
            two[k] =
                (mc_rating){pick(400, 4000), pick(1e-6, 350), pick(0.01, 0.1)};
        double score = (double)(i % 3) / 2;
        mc_rating_result res;
        mc_error err;
        if (mc_rating_rate_game(two, score, NULL, &res, &err)) {
            bad++;
            continue;
        }
        rated++;
        for (int k = 0; k < 2; k++) {
            const mc_rating *a = &res.after[k];
            if (!isfinite(a->r) || !isfinite(a->rd) || !isfinite(a->vol) ||
                mc_rating_check(a, p, "after", NULL) != 0)
                bad++;
        }
    }
    CHECK_MSG(bad == 0 && rated == 20000, "%d bad of %d", bad, rated);
}

int main(void)
{
    test_paper_period();
    test_paper_steps();
    test_volatility_direction();
    test_draw();
    test_win();
    test_new_players();
    test_volatility_bounds();
    test_no_game();
    test_ceiling();
    test_idle();
    test_provisional();
    test_change_text();
    test_bad_input();
    test_no_nan();
    return check_report("test_rating");
}
