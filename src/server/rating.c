/*
 * rating.c - Glicko-2 (rating.h, docs/RATINGS.md), step by step as
 * Glickman's "Example of the Glicko-2 system" (2013) numbers them.  Only
 * arithmetic: it never reads a clock, a file or the store.
 */
#include <math.h>
#include <stdio.h>

#include "core/util.h"
#include "rating.h"

const mc_rating_params mc_rating_defaults = {
    .tau = 0.5,
    .start = {.r = 1500, .rd = 350, .vol = 0.06},
    .rd_max = 350,
    .rd_provisional = 110,
    .vol_min = 0.01,
    .vol_max = 0.1,
    .r_min = 400,
    .r_max = 4000,
    .period_days = 5,
};

/* Bounds on loops that always end well before them (a guard, not a
   tolerance: reaching one is an error, never a result). */
#define VOL_MAX_ITERATIONS 200
#define VOL_MAX_K 10000

/* lo <= x <= hi, false for NaN. */
static int within(double x, double lo, double hi)
{
    return x >= lo && x <= hi;
}

static double clamp(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

int mc_rating_params_check(const mc_rating_params *p, mc_error *err)
{
    if (!p)
        return mc_err(err, MC_ERR_ARG, "rating: no parameters");
    if (!(p->tau > 0 && p->tau <= 10))
        return mc_err(err, MC_ERR_ARG, "rating: tau %g is not in (0, 10]",
                      p->tau);
    if (!(p->rd_max > 0 && isfinite(p->rd_max)))
        return mc_err(err, MC_ERR_ARG,
                      "rating: the RD ceiling %g is not a positive number",
                      p->rd_max);
    if (!(p->rd_provisional > 0 && p->rd_provisional <= p->rd_max))
        return mc_err(err, MC_ERR_ARG,
                      "rating: the provisional RD %g is not in (0, %g]",
                      p->rd_provisional, p->rd_max);
    if (!(p->vol_min > 0 && p->vol_min <= p->vol_max && p->vol_max <= 1))
        return mc_err(err, MC_ERR_ARG,
                      "rating: the volatility's bounds [%g, %g] are not "
                      "inside (0, 1]",
                      p->vol_min, p->vol_max);
    /* Within [0, 10000], so that E stays well away from 0 and 1
       (|mu - mu_j| < 58), v finite and a rating shown fits an int. */
    if (!(p->r_min >= 0 && p->r_min < p->r_max && p->r_max <= 10000))
        return mc_err(err, MC_ERR_ARG,
                      "rating: the ratings' bounds [%g, %g] are not a range "
                      "within [0, 10000]",
                      p->r_min, p->r_max);
    if (!(p->period_days > 0 && isfinite(p->period_days)))
        return mc_err(err, MC_ERR_ARG,
                      "rating: the rating period of %g days is not positive",
                      p->period_days);
    return mc_rating_check(&p->start, p, "a new player", err);
}

int mc_rating_check(const mc_rating *x, const mc_rating_params *p,
                    const char *who, mc_error *err)
{
    if (!p)
        p = &mc_rating_defaults;
    if (!x)
        return mc_err(err, MC_ERR_ARG, "rating: no rating for %s", who);
    if (!within(x->r, p->r_min, p->r_max))
        return mc_err(err, MC_ERR_ARG,
                      "rating: %s's rating %g is not in [%g, %g]", who, x->r,
                      p->r_min, p->r_max);
    if (!(x->rd > 0 && x->rd <= p->rd_max))
        return mc_err(err, MC_ERR_ARG,
                      "rating: %s's rating deviation %g is not in (0, %g]", who,
                      x->rd, p->rd_max);
    if (!within(x->vol, p->vol_min, p->vol_max))
        return mc_err(err, MC_ERR_ARG,
                      "rating: %s's volatility %g is not in [%g, %g]", who,
                      x->vol, p->vol_min, p->vol_max);
    return 0;
}

/* Step 2. */
void mc_rating_to_glicko2(double r, double rd, double *mu, double *phi)
{
    *mu = (r - 1500) / MC_RATING_SCALE;
    *phi = rd / MC_RATING_SCALE;
}

/* Step 8. */
void mc_rating_from_glicko2(double mu, double phi, double *r, double *rd)
{
    *r = MC_RATING_SCALE * mu + 1500;
    *rd = MC_RATING_SCALE * phi;
}

/* Step 3's two functions. */
double mc_rating_g(double phi)
{
    return 1 / sqrt(1 + 3 * phi * phi / (M_PI * M_PI));
}

double mc_rating_e(double mu, double mu_j, double phi_j)
{
    return 1 / (1 + exp(-mc_rating_g(phi_j) * (mu - mu_j)));
}

/* Step 5.1's f(x), with a = ln(sigma^2). */
static double vol_f(double x, double delta, double phi, double v, double a,
                    double tau)
{
    double ex = exp(x), d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2 * d * d) -
           (x - a) / (tau * tau);
}

int mc_rating_volatility(double delta, double phi, double v, double vol,
                         double tau, double *vol_new, int *iterations,
                         mc_error *err)
{
    if (!isfinite(delta) || !(phi > 0 && isfinite(phi)) ||
        !(v > 0 && isfinite(v)) || !(vol > 0 && isfinite(vol)) ||
        !(tau > 0 && isfinite(tau)))
        return mc_err(err, MC_ERR_ARG,
                      "rating: step 5 needs finite delta and positive phi, "
                      "v, sigma, tau (got %g, %g, %g, %g, %g)",
                      delta, phi, v, vol, tau);
    /* 5.1 and 5.2: the bracket [A, B] of the root of f. */
    double a = log(vol * vol), A = a, B;
    double excess = delta * delta - phi * phi - v;
    if (excess > 0) {
        B = log(excess);
    } else {
        int k = 1;
        while (vol_f(a - k * tau, delta, phi, v, a, tau) < 0)
            if (++k > VOL_MAX_K)
                return mc_err(err, MC_ERR_ARG,
                              "rating: step 5 found no bracket");
        B = a - k * tau;
    }
    /* 5.3 and 5.4: the Illinois algorithm.  A zero f(C) counts as a
       change of sign (f(C) f(B) <= 0): C is then the root, and it ends
       the loop at the next pass, where "< 0" would halve f(A) for ever. */
    double fa = vol_f(A, delta, phi, v, a, tau);
    double fb = vol_f(B, delta, phi, v, a, tau);
    int it = 0;
    while (fabs(B - A) > MC_RATING_EPSILON) {
        if (fb == fa) /* both 0 (the bracket keeps their signs apart) */
            break;
        if (++it > VOL_MAX_ITERATIONS)
            return mc_err(err, MC_ERR_ARG,
                          "rating: step 5 did not converge in %d iterations",
                          VOL_MAX_ITERATIONS);
        double C = A + (A - B) * fa / (fb - fa);
        double fc = vol_f(C, delta, phi, v, a, tau);
        if (fc * fb <= 0) {
            A = B;
            fa = fb;
        } else {
            fa /= 2;
        }
        B = C;
        fb = fc;
    }
    /* 5.5 */
    double s = exp(A / 2);
    if (!(s > 0 && isfinite(s)))
        return mc_err(err, MC_ERR_ARG, "rating: step 5 gave sigma' = %g", s);
    *vol_new = s;
    if (iterations)
        *iterations = it;
    return 0;
}

int mc_rating_period(const mc_rating *player, const mc_rating_game *games,
                     int n, const mc_rating_params *p, mc_rating *out,
                     mc_rating_steps *steps, mc_error *err)
{
    if (!p)
        p = &mc_rating_defaults;
    int rc = mc_rating_params_check(p, err);
    if (!rc)
        rc = mc_rating_check(player, p, "the player", err);
    if (rc)
        return rc;
    if (n < 0 || (n > 0 && !games))
        return mc_err(err, MC_ERR_ARG, "rating: %d games", n);
    for (int j = 0; j < n; j++) {
        char who[48];
        snprintf(who, sizeof who, "opponent %d", j + 1);
        if ((rc = mc_rating_check(&games[j].opp, p, who, err)))
            return rc;
        double s = games[j].score;
        if (s != 0 && s != 0.5 && s != 1)
            return mc_err(err, MC_ERR_ARG,
                          "rating: the result %g of game %d is not 1, 0.5 "
                          "or 0",
                          s, j + 1);
    }

    mc_rating_steps st = {0};
    mc_rating_to_glicko2(player->r, player->rd, &st.mu, &st.phi);
    st.vol = player->vol;
    double phi_max = p->rd_max / MC_RATING_SCALE;
    if (n == 0) {
        /* Step 6 alone: only the deviation grows. */
        st.phi_star = sqrt(st.phi * st.phi + st.vol * st.vol);
        st.phi_new = st.phi_star; /* the ceiling: below, on RD itself */
        st.mu_new = st.mu;
    } else {
        /* Steps 3 and 4: v, and the sum that makes delta and mu'. */
        double info = 0, sum = 0;
        for (int j = 0; j < n; j++) {
            double mu_j, phi_j;
            mc_rating_to_glicko2(games[j].opp.r, games[j].opp.rd, &mu_j,
                                 &phi_j);
            double g = mc_rating_g(phi_j);
            double e = mc_rating_e(st.mu, mu_j, phi_j);
            info += g * g * e * (1 - e);
            sum += g * (games[j].score - e);
        }
        /* info > 0: within the ratings' bounds |mu - mu_j| < 21 (58 at
           most), so E is at least 1e-9 (1e-25) away from 0 and 1. */
        st.v = 1 / info;
        st.delta = st.v * sum;
        /* Step 5, then the volatility's bounds. */
        double vol;
        rc = mc_rating_volatility(st.delta, st.phi, st.v, player->vol, p->tau,
                                  &vol, &st.iterations, err);
        if (rc)
            return rc;
        st.vol = vol;
        vol = clamp(vol, p->vol_min, p->vol_max);
        /* Step 6, under the ceiling; step 7. */
        st.phi_star = sqrt(st.phi * st.phi + vol * vol);
        double phi_star = fmin(st.phi_star, phi_max);
        st.phi_new = 1 / sqrt(1 / (phi_star * phi_star) + 1 / st.v);
        st.mu_new = st.mu + st.phi_new * st.phi_new * sum;
    }
    /* Step 8, and the bounds. */
    mc_rating r = {0};
    mc_rating_from_glicko2(st.mu_new, st.phi_new, &r.r, &r.rd);
    r.r = clamp(r.r, p->r_min, p->r_max);
    r.rd = fmin(r.rd, p->rd_max);
    r.vol = clamp(st.vol, p->vol_min, p->vol_max);
    /* Never out of range by the arguments above; checked all the same,
       since the caller stores what it gets. */
    if ((rc = mc_rating_check(&r, p, "the result", err)))
        return rc;
    *out = r;
    if (steps)
        *steps = st;
    return 0;
}

int mc_rating_idle(const mc_rating *in, double days, const mc_rating_params *p,
                   mc_rating *out, mc_error *err)
{
    if (!p)
        p = &mc_rating_defaults;
    int rc = mc_rating_params_check(p, err);
    if (!rc)
        rc = mc_rating_check(in, p, "the player", err);
    if (rc)
        return rc;
    if (!(days >= 0 && isfinite(days)))
        return mc_err(err, MC_ERR_ARG,
                      "rating: %g days away is not a time (>= 0)", days);
    /* phi' = sqrt(phi^2 + t sigma^2), times 173.7178 on both sides (so
       that no time away gives back RD itself, to the last bit). */
    double t = days / p->period_days, c = MC_RATING_SCALE * in->vol;
    mc_rating r = *in;
    r.rd = fmin(sqrt(in->rd * in->rd + t * c * c), p->rd_max);
    if ((rc = mc_rating_check(&r, p, "the result", err)))
        return rc;
    *out = r;
    return 0;
}

int mc_rating_provisional(const mc_rating *x, const mc_rating_params *p)
{
    if (!p)
        p = &mc_rating_defaults;
    /* !(<): a NaN deviation (refused everywhere else) is provisional. */
    return !(x->rd < p->rd_provisional);
}

int mc_rating_shown(double r)
{
    return (int)lround(r);
}

int mc_rating_rate_game(const mc_rating before[2], double score,
                        const mc_rating_params *p, mc_rating_result *res,
                        mc_error *err)
{
    if (!before)
        return mc_err(err, MC_ERR_ARG, "rating: no players");
    mc_rating_result out;
    for (int i = 0; i < 2; i++) {
        /* Each player's period: the one game, against the other's rating
           before it (not after: the game is one event for both). */
        mc_rating_game g = {.opp = before[1 - i],
                            .score = i == 0 ? score : 1 - score};
        int rc =
            mc_rating_period(&before[i], &g, 1, p, &out.after[i], NULL, err);
        if (rc)
            return rc;
        out.shown_before[i] = mc_rating_shown(before[i].r);
        out.shown_after[i] = mc_rating_shown(out.after[i].r);
        out.change[i] = out.shown_after[i] - out.shown_before[i];
    }
    *res = out;
    return 0;
}

char *mc_rating_text(const mc_rating *x, const mc_rating_params *p, char *buf,
                     size_t n)
{
    if (n)
        snprintf(buf, n, "%d%s", mc_rating_shown(x->r),
                 mc_rating_provisional(x, p) ? "?" : "");
    return buf;
}

char *mc_rating_change_text(int change, char *buf, size_t n)
{
    if (!n)
        return buf;
    if (change > 0)
        snprintf(buf, n, "+%d", change);
    else if (change < 0) /* U+2212 MINUS SIGN, then the magnitude */
        snprintf(buf, n, "\xe2\x88\x92%u", 0u - (unsigned)change);
    else
        snprintf(buf, n, "0");
    return buf;
}
