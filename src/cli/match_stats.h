/*
 * match_stats.h - the statistics of a strength test (src/cli/match_stats.c):
 * Elo from a score, the pentanomial counts of game pairs, and the
 * sequential probability ratio test (SPRT) that `mancala match --sprt`
 * stops on.  Pure arithmetic: no I/O, no game, so tests/test_match_stats.c
 * checks it against hand-worked values.
 */
#ifndef MC_MATCH_STATS_H
#define MC_MATCH_STATS_H

#include <stddef.h>

/* Expected score of a side that is `elo` stronger (the logistic model:
   1 / (1 + 10^(-elo/400))), and its inverse (infinite at 0 and 1). */
double ms_score_of_elo(double elo);
double ms_elo_of_score(double score);

/* Elo and its interval as text for the summaries: "Elo +35 [+10, +60]";
   an infinite end is written "-inf"/"+inf"; an infinite Elo (a score of 0
   or 1) gives the one-sided bound, "Elo < -477 (95 %)".  Returns buf. */
char *ms_elo_text(double elo, double lo, double hi, char *buf, size_t n);

/* Pentanomial counts: pairs[k] is the number of game pairs (both colours
   of one opening) in which engine 1 scored k half points (0..4). */
typedef struct ms_penta {
    long pairs[5];
} ms_penta;

/* Score per game, Elo and its 95 % interval from the pairs' spread (the
   pair is the unit, so the correlation of its two games is counted);
   returns the number of pairs (0: nothing is set). */
long ms_penta_elo(const ms_penta *p, double *score, double *elo, double *lo,
                  double *hi);

/* Log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0) in the
   generalized SPRT on the logistic model: under each hypothesis the most
   likely distribution of the outcomes (games: win, draw, loss; pairs: 0
   to 2 points) whose expected score per game is s_i = score_of_elo(elo_i)
   (the derivation is in match_stats.c).  0 with no units. */
double ms_llr_trinomial(long wins, long draws, long losses, double elo0,
                        double elo1);
double ms_llr_pentanomial(const ms_penta *p, double elo0, double elo1);
/* Its normal approximation, N (s1 - s0) (2 m - s0 - s1) / (2 v) for N
   units of mean m and variance v (0 when v = 0): close to the above when
   the observed score is near s0 and s1. */
double ms_llr_trinomial_normal(long wins, long draws, long losses, double elo0,
                               double elo1);
double ms_llr_pentanomial_normal(const ms_penta *p, double elo0, double elo1);
/* Wald's bounds: below log(beta / (1 - alpha)) H0 is accepted, above
   log((1 - beta) / alpha) H1. */
void ms_sprt_bounds(double alpha, double beta, double *lower, double *upper);

#endif
