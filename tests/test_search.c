/*
 * test_search.c - the computer player: finds a win in one, sees a proven
 * result, is deterministic for a fixed node budget, respects repetition
 * through the session history, and beats uniform random play.
 */
#include <string.h>

#include "check.h"
#include "mancala.h"

static mc_session *session_at(mc_game *g, const char *pos)
{
    mc_pos p;
    CHECK(mc_pos_parse(g, pos, &p, NULL) == 0);
    return mc_session_new(g, &p);
}

static void test_win_in_one(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    /* F makes 2 in a: South reaches 26 and wins (O8a); every other move
       lets North's f keep the game going. */
    mc_session *s = session_at(g, "0,0,0,1,0,1/1,0,0,0,0,1 S cap=24,20");
    mc_search_limits lim = {.depth = 6, .level = 10};
    mc_search_info info;
    CHECK(mc_search(s, &lim, &info) == 0);
    char b[16];
    mc_move_format(g, mc_session_pos(s), info.best, b, sizeof b);
    CHECK_STR(b, "F");
    CHECK(info.score == MC_SCORE_WIN - 1);
    mc_session_free(s);
    mc_game_free(g);
}

static void test_over_and_deterministic(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_session *s = session_at(g, "0,0,0,0,1,0/0,0,0,0,0,0 S cap=23,24");
    mc_search_limits lim = {.depth = 4, .level = 10};
    mc_search_info info;
    CHECK(mc_search(s, &lim, &info) == MC_ERR_OVER);
    mc_session_free(s);
    s = mc_session_new(g, NULL);
    mc_search_limits nl = {.nodes = 20000, .level = 10};
    mc_search_info a, b2;
    CHECK(mc_search(s, &nl, &a) == 0);
    CHECK(mc_search(s, &nl, &b2) == 0);
    CHECK(a.best == b2.best && a.score == b2.score && a.nodes == b2.nodes &&
          a.depth == b2.depth);
    CHECK(a.depth >= 4);
    mc_session_free(s);
    mc_game_free(g);
}

/* The cycle of rules/oware.md: after A a B b C c D d E e F the position
   before f recurs if North plays f (O8b, a 24-24 draw); search must see the
   draw through the session's history, not as an ordinary move. */
static void test_repetition_seen(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_session *s = session_at(g, "1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23");
    const char *mv[] = {"A", "a", "B", "b", "C", "c", "D", "d", "E", "e", "F"};
    for (size_t i = 0; i < sizeof mv / sizeof mv[0]; i++)
        CHECK(mc_session_play_str(s, mv[i], NULL, NULL) == 0);
    mc_search_limits lim = {.depth = 3, .level = 10};
    mc_search_info info;
    CHECK(mc_search(s, &lim, &info) == 0);
    /* South's row is empty, so O7 leaves North only f (a would not feed);
       f repeats the start: a draw, score 0. */
    CHECK(info.score == 0);
    mc_session_free(s);
    mc_game_free(g);
}

static void test_beats_random(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_rng rng;
    mc_rng_seed(&rng, 99);
    int won = 0;
    for (int gi = 0; gi < 20; gi++) {
        int engine = gi % 2;
        mc_session *s = mc_session_new(g, NULL);
        while (!mc_session_over(s)) {
            mc_move m;
            if (mc_session_pos(s)->side == engine) {
                mc_search_limits lim = {.nodes = 3000, .level = 10};
                mc_search_info info;
                mc_search(s, &lim, &info);
                m = info.best;
            } else {
                mc_move mv[MC_MAX_MOVES];
                int n = mc_session_moves(s, mv);
                m = mv[mc_rng_below(&rng, (uint32_t)n)];
            }
            mc_session_play(s, m, NULL, NULL);
        }
        mc_result r;
        mc_session_result(s, &r);
        won += r.winner == engine;
        mc_session_free(s);
    }
    CHECK_MSG(won == 20, "won %d of 20", won);
    mc_game_free(g);
}

static int info_calls, info_last_depth, info_monotone = 1;

static void on_info(const mc_search_info *info, void *ctx)
{
    (void)ctx;
    info_calls++;
    info_monotone &= info->depth == info_last_depth + 1 && info->pvlen >= 1;
    info_last_depth = info->depth;
}

/* on_info reports every completed iteration; a raised stop flag ends the
   search at once with a legal move. */
static void test_info_and_stop(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_session *s = mc_session_new(g, NULL);
    mc_search_limits lim = {.depth = 5, .on_info = on_info};
    mc_search_info info;
    CHECK(mc_search(s, &lim, &info) == 0);
    CHECK(info_calls == 5 && info_monotone && info_last_depth == 5);
    volatile int stop = 1;
    mc_search_limits st = {.depth = 30, .stop = &stop};
    CHECK(mc_search(s, &st, &info) == 0);
    CHECK(info.depth == 0 && info.nodes <= 1024);
    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(s, mv), legal = 0;
    for (int i = 0; i < n; i++)
        legal |= mv[i] == info.best;
    CHECK(legal);
    mc_session_free(s);
    mc_game_free(g);
}

/* mc_solve proves short wins and names every winning move; it does not
   claim a proof it has not got. */
static void test_solve(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    /* F wins at once (see test_win_in_one), so it must be among the
       winning moves, with a forced win of 1 ply. */
    mc_session *s = session_at(g, "0,0,0,1,0,1/1,0,0,0,0,1 S cap=24,20");
    mc_solve_info info;
    CHECK(mc_solve(s, 1, 10, &info) == 0);
    CHECK(info.proven && info.winner == MC_SOUTH && info.plies == 1);
    int has_f = 0;
    for (int i = 0; i < info.nwins; i++)
        has_f |= info.wins[i] == 5;
    CHECK(has_f);
    mc_session_free(s);
    /* The start cannot be proven at depth 4. */
    s = mc_session_new(g, NULL);
    CHECK(mc_solve(s, 4, 10, &info) == 0);
    CHECK(!info.proven && info.winner == MC_DRAW);
    mc_session_free(s);
    mc_game_free(g);
    /* Sadeqa II: North to move holds no seeds: S7 has ended the game, and
       the solver says so instead of searching. */
    g = mc_game_new("sadeqa2", NULL);
    s = session_at(g, "0,0,0,0,0,1/0,0,0,0,0,0 N first=-");
    CHECK(mc_solve(s, 3, 10, &info) == MC_ERR_OVER);
    mc_session_free(s);
    mc_game_free(g);
}

/* mc_selfplay_player.prepare for the tests: counts its calls. */
static void count_call(void *ctx)
{
    ++*(int *)ctx;
}

/* The second player: Monte Carlo tree search finds the win in one, is
   deterministic for a fixed playout count, and beats random play. */
static void test_mcts(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_session *s = session_at(g, "0,0,0,1,0,1/1,0,0,0,0,1 S cap=24,20");
    mc_search_limits lim = {.nodes = 2000, .algo = MC_ALGO_MCTS};
    mc_search_info a, b;
    CHECK(mc_search(s, &lim, &a) == 0);
    CHECK(a.best == 5); /* F */
    CHECK(mc_search(s, &lim, &b) == 0);
    CHECK(a.best == b.best && a.score == b.score && a.nodes == 2000);
    mc_session_free(s);
    int prepared[2] = {0, 0};
    mc_selfplay_player mcts = {.limits = {.nodes = 2000, .algo = MC_ALGO_MCTS},
                               .prepare = count_call,
                               .ctx = &prepared[0]};
    mc_selfplay_player rnd = {
        .random = 1, .prepare = count_call, .ctx = &prepared[1]};
    mc_selfplay_score sc;
    mc_selfplay(g, &mcts, &rnd, 5, 2, 3, &sc);
    CHECK_MSG(sc.wins == 10, "MCTS won %d of 10 against random", sc.wins);
    /* prepare comes before each search (at least one a game), never for
       a random move. */
    CHECK(prepared[0] >= 10 && prepared[1] == 0);
    mc_game_free(g);
}

static int oracle_calls;

/* A fake database: every position with North to move is lost for North. */
static int north_loses(void *ctx, const mc_pos *p, int fresh, int ply,
                       int *score)
{
    (void)ctx;
    (void)fresh;
    oracle_calls++;
    if (p->side != MC_NORTH)
        return 0;
    *score = -(MC_SCORE_WIN - 5000 - ply);
    return 1;
}

/* The oracle hook: consulted below the root, and its verdict is final. */
static void test_oracle(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_session *s = mc_session_new(g, NULL);
    mc_search_limits lim = {.depth = 3, .oracle = north_loses};
    mc_search_info info;
    CHECK(mc_search(s, &lim, &info) == 0);
    CHECK(oracle_calls >= 6);
    CHECK(info.score >= MC_SCORE_PROVEN); /* South wins whatever it plays */
    mc_session_free(s);
    mc_game_free(g);
}

/* The knobs of mc_search_tuning reach the search: no tuning and the
   explicit defaults search the same tree; without late-move reductions a
   fixed depth costs more nodes; with the plain store difference every
   one-ply line of the Oware start scores 0 (no first move can capture:
   every sowing of 4 makes the opponent's houses 5, O5). */
static void test_tuning(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_session *s = mc_session_new(g, NULL);
    mc_search_tuning def, nolmr, plain;
    mc_search_tuning_init(&def);
    CHECK(def.lmr == 2 && def.prune == 9 && def.rfp_margin == 150 &&
          def.rfp_depth == 3 && def.plain_eval == 0);
    nolmr = def;
    nolmr.lmr = 0;
    plain = def;
    plain.plain_eval = 1;
    mc_search_limits lim = {.depth = 9, .level = 10, .algo = MC_ALGO_AB};
    mc_search_info a, b, c;
    CHECK(mc_search(s, &lim, &a) == 0);
    lim.tuning = &def;
    CHECK(mc_search(s, &lim, &b) == 0);
    CHECK(a.nodes == b.nodes && a.best == b.best && a.score == b.score);
    lim.tuning = &nolmr;
    CHECK(mc_search(s, &lim, &c) == 0);
    CHECK_MSG(c.nodes > a.nodes, "%llu vs %llu", (unsigned long long)c.nodes,
              (unsigned long long)a.nodes);
    mc_search_limits one = {
        .depth = 1, .level = 10, .algo = MC_ALGO_AB, .tuning = &plain};
    CHECK(mc_search(s, &one, &c) == 0 && c.score == 0);
    one.tuning = NULL;
    CHECK(mc_search(s, &one, &c) == 0 && c.score != 0);
    mc_session_free(s);
    mc_game_free(g);
}

int main(void)
{
    test_tuning();
    test_oracle();
    test_mcts();
    test_solve();
    test_info_and_stop();
    test_win_in_one();
    test_over_and_deterministic();
    test_repetition_seen();
    test_beats_random();
    return check_report("test_search");
}
