/*
 * timeman.c - how long to think about one move.  A fixed move time is
 * spent in full, less a few milliseconds for stopping the threads and
 * answering.  With a clock, the ideal (soft) time is the clock's share for
 * the moves to go plus most of the increment; the search may run past it
 * when the best move is unstable or the score falls, and never past the
 * hard limit, which leaves most of the clock for later moves.
 */
#include <assert.h>

#include "search_internal.h"

/* Kept in hand for stopping, joining the threads and writing the move. */
#define MOVE_OVERHEAD 0.003
/* Kept in hand of a clock, for the answer's way back to the clock. */
#define CLOCK_OVERHEAD 0.010

/* The mover's share: its move time, or its clock, increment and moves to
   go (0: none). */
static void tm_set(mc_timeman *tm, double movetime, double clock, double inc,
                   int movestogo, double start, double scale)
{
    tm->start = start;
    tm->soft = tm->hard = 0;
    tm->fixed = 0;
    if (movetime > 0) {
        double t = movetime * scale - MOVE_OVERHEAD;
        tm->soft = tm->hard = t > 0.0005 ? t : 0.0005;
        tm->fixed = 1;
        return;
    }
    if (clock <= 0)
        return;
    double avail = clock - CLOCK_OVERHEAD;
    if (avail < 0.001)
        avail = 0.001;
    int mtg = movestogo > 0 ? movestogo : 30;
    if (mtg > 50)
        mtg = 50;
    double soft = avail / mtg + 0.75 * inc;
    /* The last move before the control may use most of what is left;
       otherwise no move takes more than 40 % of it. */
    double cap = mtg == 1 ? 0.85 * avail : 0.4 * avail;
    double hard = 4 * soft;
    if (hard > cap)
        hard = cap;
    if (soft > hard)
        soft = hard;
    tm->soft = soft * scale;
    tm->hard = hard * scale;
    assert(!(tm->soft > tm->hard)); /* the aim within the limit */
}

void mc_tm_of_request(mc_timeman *tm, const mc_request *rq, int side,
                      double scale)
{
    assert(side == MC_SOUTH || side == MC_NORTH);
    assert(scale > 0 && scale <= 1);
    tm_set(tm, rq->movetime, rq->clock[side], rq->inc[side], rq->movestogo,
           rq->start, scale);
}

void mc_tm_init(mc_timeman *tm, const mc_go *go, int side, double start,
                double scale)
{
    tm_set(tm, go->movetime, go->clock[side], go->inc[side], go->movestogo,
           start, scale);
}

int mc_tm_go_on(const mc_timeman *tm, double now, int stability, double changes,
                int fall)
{
    if (tm->hard <= 0 || tm->fixed)
        return 1; /* no clock, or a move time that is spent in full */
    double target = tm->soft;
    /* An unstable best move or a falling score deserve more time; a move
       that has stayed best for many iterations less. */
    target *= 1.0 + changes;
    if (fall > 30)
        target *= fall > 100 ? 1.6 : 1.3;
    if (stability >= 6 && changes < 0.05)
        target *= 0.7;
    if (target > tm->hard)
        target = tm->hard;
    /* The next iteration costs more than all before it together: begin it
       only when there is a fair chance to finish it. */
    return now - tm->start < 0.55 * target;
}
