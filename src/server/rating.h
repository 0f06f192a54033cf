/*
 * rating.h - the ratings of the server's rated games (docs/RATINGS.md):
 * Glicko-2 as Mark E. Glickman's "Example of the Glicko-2 system" (Boston
 * University, 2013 revision) defines it, steps 1 to 8, each game rated at
 * once as a rating period of its own (as lichess does), and the deviation's
 * growth while a player is away.  Pure arithmetic: no I/O, no store, no
 * clock, no allocation.  The caller (the accounts' store) reads both
 * players' ratings for the game, calls mc_rating_rate_game and writes the
 * results back in the transaction that records the game's result.
 *
 * Every call that returns int checks its input and refuses with
 * MC_ERR_ARG, and a sentence in err, what is out of range (NaN, infinities, a
 * deviation <= 0, a volatility <= 0, a rating outside the system's bounds, a
 * result other than 1, 0.5, 0): no NaN or infinity ever comes out, and what
 * comes out is always accepted back in.
 */
#ifndef MC_SERVER_RATING_H
#define MC_SERVER_RATING_H

#include <stddef.h>

#include "mancala.h"

/* Glicko points per unit of the Glicko-2 scale (step 2 of the paper):
   mu = (r - 1500) / 173.7178, phi = RD / 173.7178. */
#define MC_RATING_SCALE 173.7178
/* Step 5's convergence tolerance (the paper's epsilon). */
#define MC_RATING_EPSILON 0.000001

/* A player's rating for one game, on the Glicko scale shown to players. */
typedef struct mc_rating {
    double r;   /* rating (a new player: 1500) */
    double rd;  /* rating deviation RD, one standard deviation of r */
    double vol; /* volatility sigma (on the Glicko-2 scale, as the paper) */
} mc_rating;

/* The system's parameters (docs/RATINGS.md says why these values). */
typedef struct mc_rating_params {
    double tau;            /* tau, the system constant: 0.5 */
    mc_rating start;       /* a new player's rating: 1500, RD 350, 0.06 */
    double rd_max;         /* RD ceiling: 350 */
    double rd_provisional; /* RD at or above: provisional, shown "?": 110 */
    double vol_min;        /* volatility floor: 0.01 */
    double vol_max;        /* and ceiling: 0.1 */
    double r_min, r_max;   /* ratings stay in [400, 4000] */
    double period_days;    /* a rating period without games: 5 days */
} mc_rating_params;

/* The defaults above; every call takes NULL for them. */
extern const mc_rating_params mc_rating_defaults;

/* 0, or MC_ERR_ARG when a parameter is out of range (each must be finite;
   0 < tau <= 10; 0 < rd_provisional <= rd_max; 0 < vol_min <= vol_max
   <= 1; 0 <= r_min < r_max <= 10000; period_days > 0; the start inside
   those bounds). */
int mc_rating_params_check(const mc_rating_params *p, mc_error *err);

/* 0, or MC_ERR_ARG when x is not a rating of the system p (NULL: the
   defaults): r in [r_min, r_max], 0 < rd <= rd_max, vol in [vol_min,
   vol_max].  `who` names it in the message ("the player"). */
int mc_rating_check(const mc_rating *x, const mc_rating_params *p,
                    const char *who, mc_error *err);

/* Steps 2 and 8: the Glicko scale to the Glicko-2 scale and back. */
void mc_rating_to_glicko2(double r, double rd, double *mu, double *phi);
void mc_rating_from_glicko2(double mu, double phi, double *r, double *rd);

/* Step 3's g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2), and E(mu, mu_j, phi_j) =
   1 / (1 + exp(-g(phi_j) (mu - mu_j))), the expected score against an
   opponent at mu_j with deviation phi_j (Glicko-2 scale). */
double mc_rating_g(double phi);
double mc_rating_e(double mu, double mu_j, double phi_j);

/* Step 5: the new volatility sigma' from delta, phi, v, sigma and tau by
   the Illinois algorithm to the tolerance MC_RATING_EPSILON.  0 with
   *vol_new set (and *iterations, if not NULL), or MC_ERR_ARG for an input
   out of range (phi, v, vol and tau must be finite and > 0, delta finite)
   or an iteration that does not converge (never seen; bounded all the
   same). */
int mc_rating_volatility(double delta, double phi, double v, double vol,
                         double tau, double *vol_new, int *iterations,
                         mc_error *err);

/* One game of a rating period: the opponent's rating at the start of the
   period and the player's result, 1 (a win), 0.5 (a draw) or 0 (a loss). */
typedef struct mc_rating_game {
    mc_rating opp;
    double score;
} mc_rating_game;

/* What the steps computed (the paper's names, the Glicko-2 scale): vol is
   sigma' as step 5 finds it, phi_star is step 6's from sigma' within its
   bounds, phi_new and mu_new step 7's from phi_star under the ceiling.  In
   the paper's example no bound binds: they are its figures. */
typedef struct mc_rating_steps {
    double mu, phi;  /* step 2 */
    double v, delta; /* steps 3 and 4 (0 with no games) */
    double vol;      /* step 5's sigma' (sigma with no games) */
    int iterations;  /* step 5's iterations of the Illinois loop */
    double phi_star; /* step 6 */
    double phi_new;  /* step 7's phi' (phi_star with no games) */
    double mu_new;   /* step 7's mu' (mu with no games) */
} mc_rating_steps;

/* One rating period: the player's rating after the n games of `games`
   (steps 2 to 8), or, with n == 0, after a period without games (step 6
   alone: only the deviation grows, phi' = sqrt(phi^2 + sigma^2)).  Then
   the bounds: sigma' kept in [vol_min, vol_max] before step 6, phi* at
   most rd_max (the ceiling applies to the deviation before the period's
   games, as in Glicko), r' kept in [r_min, r_max].  None of them binds in
   the paper's example.
   steps (may be NULL) receives the steps' values.  0, or MC_ERR_ARG (out
   and steps are then left as they were). */
int mc_rating_period(const mc_rating *player, const mc_rating_game *games,
                     int n, const mc_rating_params *p, mc_rating *out,
                     mc_rating_steps *steps, mc_error *err);

/* The deviation after `days` without a rated game: days / period_days
   rating periods of step 6 with no games, phi' = sqrt(phi^2 + t sigma^2)
   (t need not be whole: t periods of step 6 add t sigma^2, as sigma does
   not change without games), at most rd_max; r and sigma unchanged.
   days must be finite and >= 0.  0, or MC_ERR_ARG. */
int mc_rating_idle(const mc_rating *in, double days, const mc_rating_params *p,
                   mc_rating *out, mc_error *err);

/* 1 when x's deviation is at or above rd_provisional (its rating is shown
   with a "?"), else 0.  For the rating of an absent player, apply
   mc_rating_idle first. */
int mc_rating_provisional(const mc_rating *x, const mc_rating_params *p);

/* The rating as shown: r to the nearest integer. */
int mc_rating_shown(double r);

/* A rated game, rated at once as a rating period of its own for each
   player, both from the ratings they had before it. */
typedef struct mc_rating_result {
    mc_rating after[2];  /* the new ratings */
    int shown_before[2]; /* mc_rating_shown of the ratings before */
    int shown_after[2];  /* and after */
    int change[2];       /* shown_after - shown_before: what the end of the game
                            shows, so that before + change = after on screen */
} mc_rating_result;

/* Rate the game between players 0 and 1 (before[0], before[1]) that
   player 0 scored `score` in: 1 (won), 0.5 (a draw), 0 (lost).  0 with
   *res set, or MC_ERR_ARG (*res unchanged). */
int mc_rating_rate_game(const mc_rating before[2], double score,
                        const mc_rating_params *p, mc_rating_result *res,
                        mc_error *err);

/* Text for players: the rating "1512", or "1512?" when provisional; a
   change "+12", "-8" with a minus sign (U+2212, in UTF-8: e2 88 92),
   or "0".  The text is cut to fit n bytes (n >= 16 always fits).
   Returns buf. */
char *mc_rating_text(const mc_rating *x, const mc_rating_params *p, char *buf,
                     size_t n);
char *mc_rating_change_text(int change, char *buf, size_t n);

#endif
