/*
 * selfplay.c - automatic games between two computer players (levels, node or
 * time budgets) with varied openings and alternating sides, and the Elo
 * difference with its error margin.  Used by `mancala selfplay` and to tune
 * evaluations.
 */
#include <math.h>
#include <string.h>

#include "mancala.h"
#include "search_internal.h"

/* A player for one selfplay seat: its table and workers kept for all the
   games it plays (cleared between games). */
static void seat_opts(const mc_selfplay_player *sp, uint64_t seed,
                      mc_player_opts *o)
{
    memset(o, 0, sizeof *o);
    o->level = sp->limits.level;
    o->hash_mb = sp->limits.hash_mb;
    o->algo = sp->limits.algo;
    o->threads = 1;
    o->tables = "none";
    o->book = "none"; /* the players' searches are what is measured */
    o->tuning = sp->limits.tuning;
    o->seed = seed;
}

static mc_player *seat_player(const mc_game *g, const mc_selfplay_player *sp)
{
    if (sp->random)
        return NULL;
    mc_player_opts o;
    seat_opts(sp, 0, &o);
    return mc_player_new(g, &o, NULL);
}

/* One game; players[s] plays side s (or random when its `random` is set)
   through ai[s]. */
static void play_one(const mc_game *g, const mc_pos *start,
                     const mc_selfplay_player players[2], mc_player *ai[2],
                     int opening_plies, uint64_t seed, mc_result *r)
{
    mc_session *s = mc_session_new(g, start);
    mc_rng rng;
    mc_rng_seed(&rng, seed);
    memset(r, 0, sizeof *r);
    if (!s)
        return;
    for (int i = 0; i < 2; i++)
        if (ai[i])
            mc_player_newgame(ai[i]);
    int ply = 0;
    while (!mc_session_over(s)) {
        mc_move mv[MC_MAX_MOVES], m;
        int n = mc_session_moves(s, mv);
        int side = mc_session_pos(s)->side;
        const mc_selfplay_player *pl = &players[side];
        if (ply < opening_plies || pl->random || !ai[side]) {
            m = mv[mc_rng_below(&rng, (uint32_t)n)];
        } else {
            mc_player_opts o;
            seat_opts(pl, mc_rng_next(&rng), &o);
            if (pl->prepare)
                pl->prepare(pl->ctx);
            mc_search_info info;
            if (mc_player_set_opts(ai[side], &o, NULL) != 0 ||
                mc_player_sync(ai[side], s, NULL) != 0)
                break;
            /* The seat's limits, the clock from now. */
            mc_request rq;
            mc_request_of_limits(&pl->limits, &rq);
            if (mc_player_think(ai[side], &rq, &info) != 0)
                break;
            m = info.best;
        }
        if (mc_session_play(s, m, NULL, NULL) != 0)
            break;
        ply++;
    }
    mc_session_result(s, r);
    mc_session_free(s);
}

/* Elo difference of a score fraction: infinite at 0 and 1 (no finite
   difference explains a score of 0 or 1), never a made-up clamp. */
static double elo_of(double x)
{
    if (x <= 0)
        return -INFINITY;
    if (x >= 1)
        return INFINITY;
    double e = round(-400.0 * log10(1.0 / x - 1.0));
    return e == 0 ? 0 : e; /* no "-0" */
}

void mc_selfplay(const mc_game *g, const mc_selfplay_player *a,
                 const mc_selfplay_player *b, int pairs, int opening_plies,
                 uint64_t seed, mc_selfplay_score *out)
{
    memset(out, 0, sizeof *out);
    mc_pos start;
    mc_start(g, &start);
    mc_player *pa = seat_player(g, a), *pb = seat_player(g, b);
    for (int i = 0; i < pairs; i++) {
        /* The same opening twice, A first as South, then as North. */
        uint64_t game_seed = seed * 1000003u + (uint64_t)i;
        for (int swap = 0; swap < 2; swap++) {
            mc_selfplay_player pl[2];
            mc_player *ai[2];
            pl[swap] = *a;
            pl[1 - swap] = *b;
            ai[swap] = pa;
            ai[1 - swap] = pb;
            mc_result r;
            play_one(g, &start, pl, ai, opening_plies, game_seed, &r);
            out->games++;
            if (!r.over || r.winner == MC_DRAW)
                out->draws++;
            else if (r.winner == swap)
                out->wins++;
            else
                out->losses++;
        }
    }
    mc_player_free(pa);
    mc_player_free(pb);
    mc_score_elo(out);
}

void mc_score_elo(mc_selfplay_score *out)
{
    out->games = out->wins + out->draws + out->losses;
    double n = out->games;
    double p = n > 0 ? (out->wins + 0.5 * out->draws) / n : 0.5;
    out->score = p;
    double var =
        n > 0 ? (out->wins * (1 - p) * (1 - p) +
                 out->draws * (0.5 - p) * (0.5 - p) + out->losses * p * p) /
                    n
              : 0;
    double se = n > 0 ? sqrt(var / n) : 0;
    out->elo = elo_of(p);
    out->elo_low = elo_of(p - 1.96 * se);
    out->elo_high = elo_of(p + 1.96 * se);
    /* When every game had the same result (all lost, all drawn, all
       won) there is no spread, and the interval above is one point (at
       infinity for 0 and 1).  The honest answer: with a chance q of any
       other result, n games alike have chance (1 - q)^n >= 0.05 at 95 %
       confidence, so q <= 1 - 0.05^(1/n) (about 3/n, the rule of three),
       and the score lies between (1 - q) x and (1 - q) x + q for the
       result x (1, 1/2 or 0) that was seen. */
    int same = out->wins == n || out->draws == n || out->losses == n;
    if (n > 0 && same) {
        double q = 1.0 - pow(0.05, 1.0 / n);
        out->elo_low = elo_of((1 - q) * p);
        out->elo_high = elo_of((1 - q) * p + q);
    }
}
