/*
 * clock.h - the arithmetic of two players' clocks under one time control
 * (clock.c), kept apart from the session that owns them: times are passed
 * in (seconds on any clock the caller keeps), never read here.
 */
#ifndef MC_SESSION_CLOCK_H
#define MC_SESSION_CLOCK_H

#include "mancala.h"

typedef struct mc_clocks {
    mc_time_control tc;
    double bank[2]; /* time left of each side when the running turn began */
    double since;   /* when the turn of the side to move began; < 0: the
                       clocks wait for the first timed call */
} mc_clocks;

/* Full clocks under tc, the turn beginning at now (< 0: waiting). */
void mc_clocks_init(mc_clocks *c, const mc_time_control *tc, double now);
/* Whether the clocks run at all (a time control with a limit). */
int mc_clocks_timed(const mc_clocks *c);
/* Seconds left to `side` (whose turn it is) at now, not below 0. */
double mc_clocks_left(const mc_clocks *c, int side, double now);
/* When the flag of `side` (to move) falls; a large number when never. */
double mc_clocks_due(const mc_clocks *c, int side);
/* The turn of `mover` ends at now: its time is charged, its increment
   added when it made a move (moved != 0), and the next turn begins. */
void mc_clocks_turn(mc_clocks *c, int mover, double now, int moved);

#endif
