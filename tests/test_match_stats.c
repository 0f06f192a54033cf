/*
 * test_match_stats.c - the statistics of `mancala match` (src/cli/
 * match_stats.c) and the library's mc_score_elo, against values worked
 * by hand (the working is in the comment above each case; logs and powers
 * to six places).
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "cli/match_stats.h"
#include "mancala.h"

#define NEAR(a, b, eps) (fabs((a) - (b)) <= (eps))

static void test_logistic(void)
{
    /* 10^(-10/400) = 10^-0.025 = e^(-0.025 * 2.302585) = 0.944061, so
       the score of +10 Elo is 1 / 1.944061 = 0.514387. */
    CHECK(NEAR(ms_score_of_elo(10), 0.514387, 1e-6));
    CHECK(NEAR(ms_score_of_elo(0), 0.5, 1e-12));
    /* 0.75: 1/0.75 - 1 = 1/3, -400 log10(1/3) = 400 * 0.477121 = 190.849 */
    CHECK(NEAR(ms_elo_of_score(0.75), 190.849, 1e-3));
    CHECK(isinf(ms_elo_of_score(0)) && ms_elo_of_score(0) < 0);
    CHECK(isinf(ms_elo_of_score(1)) && ms_elo_of_score(1) > 0);
}

static void test_score_elo(void)
{
    char t[96];
    /* 60 wins, 20 draws, 20 losses: p = 70/100 = 0.7; the variance per
       game 0.6 * 0.3^2 + 0.2 * 0.2^2 + 0.2 * 0.7^2 = 0.054 + 0.008 +
       0.098 = 0.16, se = sqrt(0.16 / 100) = 0.04, p -+ 1.96 se = 0.6216,
       0.7784.  Elo: -400 log10(0.3 / 0.7) = 147.19; -400 log10(0.3784 /
       0.6216) = 86.22; -400 log10(0.2216 / 0.7784) = 218.25. */
    mc_selfplay_score s = {.wins = 60, .draws = 20, .losses = 20};
    mc_score_elo(&s);
    CHECK(s.games == 100 && NEAR(s.score, 0.7, 1e-12));
    CHECK(s.elo == 147 && s.elo_low == 86 && s.elo_high == 218);
    CHECK_STR(ms_elo_text(s.elo, s.elo_low, s.elo_high, t, sizeof t),
              "Elo +147 [+86, +218]");
    /* 10 losses, nothing else: no finite Elo (it used to print -1200).
       With a chance q of not losing, all 10 lost has chance (1-q)^10;
       >= 0.05 means q <= 1 - 0.05^0.1 = 1 - e^(0.1 ln 0.05) = 1 -
       e^-0.299573 = 1 - 0.741134 = 0.258866, Elo -400 log10(0.741134 /
       0.258866) = -400 * 0.456823 = -182.7. */
    mc_selfplay_score z = {.losses = 10};
    mc_score_elo(&z);
    CHECK(z.score == 0 && isinf(z.elo) && z.elo < 0 && isinf(z.elo_low));
    CHECK(z.elo_high == -183);
    CHECK_STR(ms_elo_text(z.elo, z.elo_low, z.elo_high, t, sizeof t),
              "Elo < -183 (95 %)");
    /* 10 wins: the mirror image. */
    mc_selfplay_score w = {.wins = 10};
    mc_score_elo(&w);
    CHECK(w.score == 1 && isinf(w.elo) && w.elo > 0 && w.elo_low == 183);
    CHECK_STR(ms_elo_text(w.elo, w.elo_low, w.elo_high, t, sizeof t),
              "Elo > +183 (95 %)");
    /* 10 draws: no spread either, and no certainty: q <= 0.258866 as
       above, the score between 0.741134 * 0.5 = 0.370567 and 0.370567 +
       0.258866 = 0.629433: -400 log10(0.629433 / 0.370567) = -400 *
       0.230085 = -92.0, and +92.0 */
    mc_selfplay_score d = {.draws = 10};
    mc_score_elo(&d);
    CHECK_STR(ms_elo_text(d.elo, d.elo_low, d.elo_high, t, sizeof t),
              "Elo +0 [-92, +92]");
    /* 1 win, 1 loss: p = 0.5, variance 0.25, se = sqrt(0.25/2) = 0.3536,
       p + 1.96 se = 1.19 > 1: the upper end is unbounded. */
    mc_selfplay_score h = {.wins = 1, .losses = 1};
    mc_score_elo(&h);
    CHECK_STR(ms_elo_text(h.elo, h.elo_low, h.elo_high, t, sizeof t),
              "Elo +0 [-inf, +inf]");
    /* one loss: 1 - 0.05 = 0.95 bounds the score: Elo < -400 log10(0.05 /
       0.95) = 400 * 1.278754 = +511.5 */
    mc_selfplay_score o = {.losses = 1};
    mc_score_elo(&o);
    CHECK_STR(ms_elo_text(o.elo, o.elo_low, o.elo_high, t, sizeof t),
              "Elo < +512 (95 %)");
}

static void test_penta(void)
{
    /* Pairs scoring 0, 1/2, 1, 3/2, 2 points 2, 6, 20, 14, 8 times (50
       pairs): per game (0 .25 .5 .75 1) the mean is (1.5 + 10 + 10.5 +
       8) / 50 = 0.6; the variance per pair (2 * 0.36 + 6 * 0.1225 +
       20 * 0.01 + 14 * 0.0225 + 8 * 0.16) / 50 = 3.25 / 50 = 0.065, se =
       sqrt(0.065 / 50) = 0.036056, so the interval is 0.6 -+ 0.070669:
       Elo -400 log10(0.4/0.6) = 70.44, [-400 log10(0.470669 / 0.529331)
       = 400 * 0.051011 = 20.40, -400 log10(0.329331 / 0.670669) =
       400 * 0.308874 = 123.55]. */
    ms_penta p = {{2, 6, 20, 14, 8}};
    double sc, e, lo, hi;
    CHECK(ms_penta_elo(&p, &sc, &e, &lo, &hi) == 50);
    CHECK(NEAR(sc, 0.6, 1e-12) && NEAR(e, 70.44, 0.01));
    CHECK(NEAR(lo, 20.40, 0.01) && NEAR(hi, 123.55, 0.01));
    /* The normal approximation, SPRT [-5, 5]: s1 = 0.507195, s0 =
       0.492805 (s0 + s1 = 1), so LLR = 50 * 0.014390 * (1.2 - 1) /
       (2 * 0.065) = 0.14390 / 0.13 = 1.10694. */
    CHECK(NEAR(ms_llr_pentanomial_normal(&p, -5, 5), 1.10694, 1e-4));
    /* The exact GSPRT is smaller here (the mean 0.6 is far from both
       hypotheses, where the normal shape overstates the evidence), but
       it points the same way. */
    double exact = ms_llr_pentanomial(&p, -5, 5);
    CHECK(exact > 0.5 && exact < 1.10694);
    /* 5, 10, 20, 10, 5: mean 0.5, variance (2 * 5 * 0.25 + 2 * 10 *
       0.0625) / 50 = 0.075; SPRT [0, 10]: s0 = 0.5, s1 = 0.514387:
       50 * 0.014387 * (1 - 1.014387) / 0.15 = -0.068997. */
    ms_penta q = {{5, 10, 20, 10, 5}};
    CHECK(NEAR(ms_llr_pentanomial_normal(&q, 0, 10), -0.068997, 1e-6));
    /* the mean 0.5 is near s0 and s1: there the two agree closely */
    CHECK(NEAR(ms_llr_pentanomial(&q, 0, 10), -0.068997, 1e-4));
    /* nothing yet, or no spread: no evidence either way */
    ms_penta none = {{0, 0, 0, 0, 0}}, same = {{0, 0, 7, 0, 0}};
    CHECK(ms_penta_elo(&none, &sc, &e, &lo, &hi) == 0);
    CHECK(ms_llr_pentanomial(&none, 0, 10) == 0);
    CHECK(ms_llr_pentanomial_normal(&same, 0, 10) == 0);
    /* Every pair won (20 of them), SPRT [0, 50]: the best distribution
       with mean s puts p = s on "2 points" (no more: the mean is at
       least p) and the rest on 0, so each pair has likelihood s and
       LLR = 20 ln(s1 / s0); s1 = 1 / (1 + 10^-0.125) = 1 / 1.749894 =
       0.571463, ln(0.571463 / 0.5) = ln 1.142926 = 0.133593: 2.67186
       (a little less: the tiny counts of the unseen outcomes).  The
       normal approximation sees no spread and says nothing. */
    ms_penta won = {{0, 0, 0, 0, 20}};
    CHECK(NEAR(ms_llr_pentanomial(&won, 0, 50), 2.67186, 2e-3));
    CHECK(ms_llr_pentanomial_normal(&won, 0, 50) == 0);
    /* and its Elo is bounded below only: 0.05^(1/20) = e^(-2.995732 /
       20) = e^-0.149787 = 0.860892, -400 log10(0.139108 / 0.860892) =
       400 * 0.791576 = 316.6 */
    CHECK(ms_penta_elo(&won, &sc, &e, &lo, &hi) == 20);
    CHECK(isinf(e) && e > 0 && isinf(hi) && NEAR(lo, 316.6, 0.1));
    /* ten pairs of 1 point each: the same bound as ten drawn games */
    ms_penta even = {{0, 0, 10, 0, 0}};
    CHECK(ms_penta_elo(&even, &sc, &e, &lo, &hi) == 10);
    CHECK(e == 0 && NEAR(lo, -92.03, 0.01) && NEAR(hi, 92.03, 0.01));
    /* three more and it crosses ln 19 = 2.944: 23 * 0.133593 = 3.0726 */
    won.pairs[4] = 23;
    CHECK(ms_llr_pentanomial(&won, 0, 50) > 2.944439);
    /* all draws are evidence for the smaller difference */
    CHECK(ms_llr_pentanomial(&same, 0, 10) < 0);
}

static void test_trinomial(void)
{
    /* 60-20-20 (mean 0.7, variance 0.16, above), SPRT [0, 10]:
       100 * 0.014387 * (1.4 - 1.014387) / (2 * 0.16) = 1.43872 * 0.385613
       / 0.32 = 1.73371. */
    CHECK(NEAR(ms_llr_trinomial_normal(60, 20, 20, 0, 10), 1.73371, 1e-4));
    /* the mirror result gives the mirror evidence */
    CHECK(NEAR(ms_llr_trinomial_normal(20, 20, 60, -10, 0), -1.73371, 1e-4));
    CHECK(NEAR(ms_llr_trinomial(20, 20, 60, -10, 0),
               -ms_llr_trinomial(60, 20, 20, 0, 10), 1e-9));
    /* 2 wins, 2 losses, SPRT [0, 10]: the mean 0.5 is s0, so H0's best
       distribution is the observed one (1/2, 0, 1/2); under H1 only wins
       and losses are seen, so p(win) = s1 = 0.514387.  LLR = 2 ln(2 s1)
       + 2 ln(2 (1 - s1)) = 2 (ln 1.028774 + ln 0.971226) = 2 (0.028368 -
       0.029196) = -0.001656. */
    CHECK(NEAR(ms_llr_trinomial(2, 0, 2, 0, 10), -0.001656, 2e-5));
    /* Wald's bounds at alpha = beta = 0.05: -+ln 19 = -+2.944439 */
    double lo, hi;
    ms_sprt_bounds(0.05, 0.05, &lo, &hi);
    CHECK(NEAR(lo, -2.944439, 1e-6) && NEAR(hi, 2.944439, 1e-6));
}

int main(void)
{
    test_logistic();
    test_score_elo();
    test_penta();
    test_trinomial();
    return check_report("test_match_stats");
}
