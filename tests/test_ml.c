/*
 * test_ml.c - include/mancala_ml.h in C (the Python module's tests,
 * python/tests, cover the same from Python): along random games of every
 * game, the legal moves' action indexes are distinct, in range and map
 * back to the same moves; observations count the board's seeds; batched
 * playouts add up, repeat with their seed and play the same games as
 * mc_random_game.  Under SAN=1 this is what runs ml.c and the games'
 * hooks with the sanitizers.
 */
#include <stdlib.h>

#include "check.h"
#include "mancala.h"
#include "mancala_ml.h"

static void actions_along_games(const char *spec)
{
    mc_error err;
    mc_game *g = mc_game_new(spec, &err);
    CHECK_MSG(g != NULL, "%s: %s", spec, err.msg);
    if (!g)
        return;
    int na = mc_ml_num_actions(g), no = mc_ml_obs_size(g);
    CHECK(na > 0 && no > 0);
    unsigned char *seen = calloc((size_t)na, 1);
    float obs[64];
    CHECK(no <= 64);
    mc_rng rng;
    mc_rng_seed(&rng, 7);
    for (int game = 0; game < 20; game++) {
        mc_pos start;
        mc_start(g, &start);
        mc_session *s = mc_session_new(g, &start);
        while (!mc_session_over(s) && mc_session_ply(s) < 300) {
            const mc_pos *p = mc_session_pos(s);
            mc_move mv[MC_MAX_MOVES];
            long acts[MC_MAX_MOVES];
            int n = mc_session_moves(s, mv), dropped = -1;
            int k = mc_ml_legal_actions(s, acts, &dropped);
            CHECK(k == n && dropped == 0);
            for (int i = 0; i < n; i++) {
                CHECK_MSG(acts[i] >= 0 && acts[i] < na, "%s: %ld", spec,
                          acts[i]);
                if (acts[i] < 0 || acts[i] >= na)
                    continue;
                CHECK_MSG(!seen[acts[i]], "%s: action %ld twice", spec,
                          acts[i]);
                seen[acts[i]] = 1;
                mc_move back = 0;
                CHECK(mc_ml_move(g, p, acts[i], &back) == MC_OK &&
                      back == mv[i]);
            }
            for (int i = 0; i < n; i++)
                if (acts[i] >= 0 && acts[i] < na)
                    seen[acts[i]] = 0;
            /* An index no legal move has is refused. */
            mc_move none;
            int unused = -1;
            for (int a = 0; a < na && unused < 0; a++) {
                int used = 0;
                for (int i = 0; i < n; i++)
                    used |= acts[i] == a;
                if (!used)
                    unused = a;
            }
            if (unused >= 0) {
                CHECK(mc_ml_move(g, p, unused, &none) == MC_ERR_ILLEGAL);
                mc_pos before = *p;
                CHECK(mc_ml_apply(s, unused, &err) == MC_ERR_ILLEGAL);
                CHECK(memcmp(mc_session_pos(s), &before, sizeof before) == 0);
            }
            CHECK(mc_ml_move(g, p, na, &none) == MC_ERR_ILLEGAL);
            /* The observation's pits hold the board's seeds. */
            mc_ml_observe(g, p, obs);
            int npits = mc_game_pits(g), board = 0;
            float sum = 0;
            for (int i = 0; i < npits; i++) {
                board += p->pit[i];
                sum += obs[i];
            }
            CHECK_MSG((int)sum == board, "%s: %g vs %d", spec, sum, board);
            /* mc_ml_apply plays the move of the action, as
               mc_session_play does. */
            int pick = (int)mc_rng_below(&rng, (uint32_t)n);
            mc_pos want = *p;
            mc_play(g, &want, mv[pick], NULL);
            CHECK(mc_ml_apply(s, acts[pick], &err) == MC_OK);
            CHECK(memcmp(mc_session_pos(s), &want, sizeof want) == 0);
        }
        /* Over (or cut at 300 plies): an over game refuses any action. */
        if (mc_session_over(s)) {
            CHECK(mc_ml_apply(s, 0, &err) == MC_ERR_OVER);
            CHECK(strstr(err.msg, "over") != NULL);
        }
        mc_session_free(s);
    }
    free(seen);
    mc_game_free(g);
}

static void playouts(const char *spec, long n)
{
    mc_error err;
    mc_game *g = mc_game_new(spec, &err);
    mc_pos start;
    mc_start(g, &start);
    mc_ml_playouts a, b;
    CHECK(mc_ml_random_playouts(g, &start, n, 1, 0, &a) == MC_OK);
    CHECK(a.games == (uint64_t)n);
    CHECK(a.wins[0] + a.wins[1] + a.draws + a.cut == (uint64_t)n);
    CHECK(a.cut == 0);
    CHECK(mc_ml_random_playouts(g, &start, n, 1, 0, &b) == MC_OK);
    CHECK(a.plies == b.plies && a.wins[0] == b.wins[0]);
    /* mc_random_game with the same stream plays the same games. */
    mc_rng rng;
    mc_rng_seed(&rng, 1);
    uint64_t plies = 0, south = 0;
    for (long i = 0; i < n; i++) {
        mc_result r;
        plies += (uint64_t)mc_random_game(g, &start, &rng, 0, &r);
        south += r.over && r.winner == MC_SOUTH;
    }
    CHECK_MSG(plies == a.plies, "%s: %llu vs %llu", spec,
              (unsigned long long)plies, (unsigned long long)a.plies);
    CHECK(south == a.wins[0]);
    /* Cut after two plies. */
    CHECK(mc_ml_random_playouts(g, &start, 10, 3, 2, &b) == MC_OK);
    CHECK(b.plies == 20 && b.cut == 10);
    CHECK(mc_ml_random_playouts(g, &start, -1, 3, 0, &b) == MC_ERR_ARG);
    mc_game_free(g);
}

int main(void)
{
    const char *specs[] = {"oware",  "sadeqa2",           "gore",
                           "omweso", "omweso:setup=all2", "gore:trades=off"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        actions_along_games(specs[i]);
    playouts("oware", 500);
    playouts("sadeqa2", 500);
    playouts("gore", 100);
    playouts("omweso", 20);
    return check_report("test_ml");
}
