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
    return n;
}

static double llr(const double *x, const long *count, int k, double elo0,
                  double elo1)
{
    double m, v;
    long n = moments(x, count, k, &m, &v);
    if (n == 0 || v <= 0)
        return 0;
    double s0 = ms_score_of_elo(elo0), s1 = ms_score_of_elo(elo1);
    return (double)n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v);
}

double ms_llr_trinomial(long wins, long draws, long losses, double elo0,
                        double elo1)
{
    static const double x[3] = {1, 0.5, 0};
    long c[3] = {wins, draws, losses};
    return llr(x, c, 3, elo0, elo1);
}

double ms_llr_pentanomial(const ms_penta *p, double elo0, double elo1)
{
    return llr(penta_x, p->pairs, 5, elo0, elo1);
}

void ms_sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = log(beta / (1 - alpha));
    *upper = log((1 - beta) / alpha);
}
