/*
 * match_stats.c - the statistics of a strength test: Elo from a score,
 * pentanomial pairs and the SPRT (match_stats.h).  Arithmetic only.
 */
#include <math.h>
#include <stdio.h>

#include "match_stats.h"

double ms_score_of_elo(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

double ms_elo_of_score(double score)
{
    if (score <= 0)
        return -INFINITY;
    if (score >= 1)
        return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

static void elo_end(double e, char *buf, size_t n)
{
    if (isinf(e))
        snprintf(buf, n, "%s", e < 0 ? "-inf" : "+inf");
    else
        snprintf(buf, n, "%+.0f", e == 0 ? 0.0 : e);
}

char *ms_elo_text(double elo, double lo, double hi, char *buf, size_t n)
{
    char a[32], b[32];
    if (isinf(elo) && isinf(elo < 0 ? hi : lo)) {
        snprintf(buf, n, "Elo %s (no finite bound from these games)",
                 elo < 0 ? "-inf" : "+inf");
    } else if (isinf(elo)) {
        elo_end(elo < 0 ? hi : lo, a, sizeof a);
        snprintf(buf, n, "Elo %s %s (95 %%)", elo < 0 ? "<" : ">", a);
    } else {
        elo_end(lo, a, sizeof a);
        elo_end(hi, b, sizeof b);
        snprintf(buf, n, "Elo %+.0f [%s, %s]", elo == 0 ? 0.0 : elo, a, b);
    }
    return buf;
}

/* Mean and variance of k outcomes x[i] seen count[i] times; returns the
   number of units. */
static long moments(const double *x, const long *count, int k, double *mean,
                    double *var)
{
    long n = 0;
    double sum = 0;
    for (int i = 0; i < k; i++) {
        n += count[i];
        sum += x[i] * (double)count[i];
    }
    *mean = n > 0 ? sum / (double)n : 0.5;
    double v = 0;
    for (int i = 0; i < k; i++)
        v += (double)count[i] * (x[i] - *mean) * (x[i] - *mean);
    *var = n > 0 ? v / (double)n : 0;
    return n;
}

static const double penta_x[5] = {0, 0.25, 0.5, 0.75, 1};

long ms_penta_elo(const ms_penta *p, double *score, double *elo, double *lo,
                  double *hi)
{
    double m, v;
    long n = moments(penta_x, p->pairs, 5, &m, &v);
    if (n == 0)
        return 0;
    double se = sqrt(v / (double)n);
    *score = m;
    *elo = ms_elo_of_score(m);
    *lo = ms_elo_of_score(m - 1.96 * se);
    *hi = ms_elo_of_score(m + 1.96 * se);
    /* Every pair alike: no spread.  As in mc_score_elo, a chance q of
       any other pair result has (1 - q)^n >= 0.05, so q <= 1 -
       0.05^(1/n), and the score per game lies between (1 - q) m and
       (1 - q) m + q. */
    for (int j = 0; j < 5; j++)
        if (p->pairs[j] == n) {
            double q = 1 - pow(0.05, 1.0 / (double)n);
            *lo = ms_elo_of_score((1 - q) * m);
            *hi = ms_elo_of_score((1 - q) * m + q);
        }
    return n;
}

/* The normal approximation of the GSPRT's log-likelihood ratio: the
   observed mean per unit, m, with variance v, is normal about s_i under
   H_i, so LLR = N ((m - s0)^2 - (m - s1)^2) / (2 v) = N (s1 - s0)
   (2 m - s0 - s1) / (2 v).  Good when the true score is near s0 and s1;
   it has nothing to go on while every unit is alike (v = 0). */
static double llr_normal(const double *x, const long *count, int k, double elo0,
                         double elo1)
{
    double m, v;
    long n = moments(x, count, k, &m, &v);
    if (n == 0 || v <= 0)
        return 0;
    double s0 = ms_score_of_elo(elo0), s1 = ms_score_of_elo(elo1);
    return (double)n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v);
}

/*
 * The generalized SPRT, as fishtest computes it: each hypothesis fixes
 * only the expected score s per unit, so its likelihood is that of the
 * most likely distribution p over the k outcomes with mean s.  Maximizing
 * sum n_j log p_j subject to sum p_j = 1 and sum p_j x_j = s (Lagrange)
 * gives p_j = q_j / (1 + lambda (x_j - s)), q the observed frequencies,
 * with lambda the root of
 *     f(lambda) = sum q_j (x_j - s) / (1 + lambda (x_j - s)) = 0,
 * which falls strictly from +inf to -inf on the interval where every
 * denominator is positive, -1 / (x_max - s) < lambda < 1 / (s - x_min):
 * bisection finds it.  Outcomes not seen yet get a tiny count (1e-3) so
 * that the support is every outcome (the mean can move towards s even
 * when all units so far were alike); their log terms are weighted by the
 * real count 0.  LLR = sum n_j log(p1_j / p0_j).
 */
static double loglik(const double *x, const long *count, int k, double s)
{
    double q[5], total = 0, lo = -INFINITY, hi = INFINITY;
    for (int j = 0; j < k; j++)
        total += q[j] = count[j] > 0 ? (double)count[j] : 1e-3;
    for (int j = 0; j < k; j++) {
        q[j] /= total;
        if (x[j] > s && -1 / (x[j] - s) > lo)
            lo = -1 / (x[j] - s);
        if (x[j] < s && 1 / (s - x[j]) < hi)
            hi = 1 / (s - x[j]);
    }
    for (int it = 0; it < 200; it++) {
        double mid = (lo + hi) / 2, f = 0;
        for (int j = 0; j < k; j++)
            f += q[j] * (x[j] - s) / (1 + mid * (x[j] - s));
        if (f > 0)
            lo = mid;
        else
            hi = mid;
    }
    double lambda = (lo + hi) / 2, ll = 0;
    for (int j = 0; j < k; j++)
        if (count[j] > 0)
            ll += (double)count[j] * log(q[j] / (1 + lambda * (x[j] - s)));
    return ll;
}

static double llr(const double *x, const long *count, int k, double elo0,
                  double elo1)
{
    long n = 0;
    for (int j = 0; j < k; j++)
        n += count[j];
    if (n == 0)
        return 0;
    return loglik(x, count, k, ms_score_of_elo(elo1)) -
           loglik(x, count, k, ms_score_of_elo(elo0));
}

static const double tri_x[3] = {1, 0.5, 0};

double ms_llr_trinomial(long wins, long draws, long losses, double elo0,
                        double elo1)
{
    long c[3] = {wins, draws, losses};
    return llr(tri_x, c, 3, elo0, elo1);
}

double ms_llr_pentanomial(const ms_penta *p, double elo0, double elo1)
{
    return llr(penta_x, p->pairs, 5, elo0, elo1);
}

double ms_llr_trinomial_normal(long wins, long draws, long losses, double elo0,
                               double elo1)
{
    long c[3] = {wins, draws, losses};
    return llr_normal(tri_x, c, 3, elo0, elo1);
}

double ms_llr_pentanomial_normal(const ms_penta *p, double elo0, double elo1)
{
    return llr_normal(penta_x, p->pairs, 5, elo0, elo1);
}

void ms_sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = log(beta / (1 - alpha));
    *upper = log((1 - beta) / alpha);
}
