/*
 * test_player.c - the player object (mancala.h, "the player"): it keeps its
 * table between moves and forgets it on a new game, stops when told from
 * another thread, ponders until the ponderhit, searches with two threads,
 * refuses another game's session, and its time manager gives the limits
 * worked out by hand below.
 */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "mancala.h"
#include "search/search_internal.h"

static mc_player *new_player(mc_game *g, int threads)
{
    mc_player_opts o = {0};
    o.threads = threads;
    o.tables = "none";
    o.book = "none"; /* these tests are about the search (test_book.c) */
    mc_error err = {0, ""};
    mc_player *pl = mc_player_new(g, &o, &err);
    CHECK_MSG(pl != NULL, "%s", err.msg);
    return pl;
}

static int legal(const mc_session *s, mc_move m)
{
    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(s, mv);
    for (int i = 0; i < n; i++)
        if (mv[i] == m)
            return 1;
    return 0;
}

/* The same depth-10 search twice: the second finds the first one's table
   and needs fewer nodes; after mc_player_newgame it needs exactly the
   first one's count again (one thread: deterministic). */
static void test_table_kept(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_session *s = mc_session_new(g, NULL);
    mc_player *pl = new_player(g, 1);
    mc_go go = {0};
    go.depth = 10;
    mc_search_info a, b, c;
    CHECK(mc_player_sync(pl, s, NULL) == 0);
    CHECK(mc_player_go(pl, &go, &a) == 0);
    CHECK(mc_player_go(pl, &go, &b) == 0);
    CHECK_MSG(b.nodes < a.nodes, "again: %llu nodes, first %llu",
              (unsigned long long)b.nodes, (unsigned long long)a.nodes);
    mc_player_newgame(pl);
    CHECK(mc_player_go(pl, &go, &c) == 0);
    CHECK(c.nodes == a.nodes && c.best == a.best && c.score == a.score);
    CHECK(a.depth == 10 && legal(s, a.best));
    /* the principal variation is as long as the search was deep, here */
    CHECK_MSG(a.pvlen >= 8, "pv of %d moves at depth 10", a.pvlen);
    /* a changed option that is not the table keeps it */
    mc_player_opts o = {0};
    o.tables = "none";
    o.book = "none";
    o.level = 10;
    CHECK(mc_player_set_opts(pl, &o, NULL) == 0);
    CHECK(mc_player_go(pl, &go, &b) == 0);
    CHECK(b.nodes < a.nodes);
    /* a new table size starts empty */
    o.hash_mb = 2;
    CHECK(mc_player_set_opts(pl, &o, NULL) == 0);
    CHECK(mc_player_go(pl, &go, &b) == 0);
    CHECK(b.nodes >= c.nodes / 2);
    mc_player_free(pl);
    mc_session_free(s);
    mc_game_free(g);
}

/* The player thinks about its copy: the caller's session can change (or
   go) after mc_player_sync. */
static void test_own_copy(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_session *s = mc_session_new(g, NULL);
    mc_player *pl = new_player(g, 1);
    CHECK(mc_player_sync(pl, s, NULL) == 0);
    CHECK(mc_session_play_str(s, "C", NULL, NULL) == 0);
    mc_session_free(s);
    mc_game_free(g); /* the player's game is its own */
    mc_go go = {0};
    go.depth = 4;
    mc_search_info info;
    CHECK(mc_player_go(pl, &go, &info) == 0);
    const mc_session *mine = mc_player_session(pl);
    CHECK(mc_session_ply(mine) == 0 && legal(mine, info.best));
    /* another game's session is refused */
    mc_game *g2 = mc_game_new("oware:awari", NULL);
    mc_session *s2 = mc_session_new(g2, NULL);
    mc_error err = {0, ""};
    CHECK(mc_player_sync(pl, s2, &err) == MC_ERR_ARG);
    CHECK(strstr(err.msg, "the player plays oware") != NULL);
    /* a finished game has no move */
    mc_session_forfeit(s2, MC_SOUTH, MC_END_RESIGN);
    mc_session_free(s2);
    mc_game_free(g2);
    mc_player_free(pl);
}

typedef struct stopper {
    int *flag;
    mc_player *pl;
    double after;
    int ponderhit;
} stopper;

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

static void *stop_later(void *arg)
{
    stopper *st = arg;
    sleep_s(st->after);
    if (st->ponderhit)
        mc_player_ponderhit(st->pl);
    else if (st->flag)
        __atomic_store_n(st->flag, 1, __ATOMIC_SEQ_CST);
    else
        mc_player_stop(st->pl);
    return NULL;
}

/* An infinite search ends when another thread raises the stop flag, or
   calls mc_player_stop, with a legal move; with two threads too. */
static void test_stop_and_threads(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_session *s = mc_session_new(g, NULL);
    for (int threads = 1; threads <= 2; threads++)
        for (int how = 0; how < 2; how++) {
            mc_player *pl = new_player(g, threads);
            CHECK(mc_player_sync(pl, s, NULL) == 0);
            int flag = 0;
            stopper st = {how ? NULL : &flag, pl, 0.1, 0};
            mc_go go = {0};
            go.infinite = 1;
            go.stop = &flag;
            pthread_t th;
            double t0 = mc_clock();
            pthread_create(&th, NULL, stop_later, &st);
            mc_search_info info;
            CHECK(mc_player_go(pl, &go, &info) == 0);
            double took = mc_clock() - t0;
            pthread_join(th, NULL);
            CHECK_MSG(took >= 0.09 && took < 2.0, "stopped after %.3f s", took);
            CHECK(legal(s, info.best) && info.depth >= 1);
            CHECK(info.threads == threads);
            CHECK(mc_cores() >= 1 && mc_cores() <= MC_MAX_THREADS);
            mc_player_free(pl);
        }
    mc_session_free(s);
    mc_game_free(g);
}

/* go ponder with a move time: no answer before the ponderhit, then the
   move time counts from it. */
static void test_ponder(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_session *s = mc_session_new(g, NULL);
    mc_player *pl = new_player(g, 1);
    CHECK(mc_player_sync(pl, s, NULL) == 0);
    stopper st = {NULL, pl, 0.3, 1};
    mc_go go = {0};
    go.ponder = 1;
    go.movetime = 0.05;
    pthread_t th;
    double t0 = mc_clock();
    pthread_create(&th, NULL, stop_later, &st);
    mc_search_info info;
    CHECK(mc_player_go(pl, &go, &info) == 0);
    double took = mc_clock() - t0;
    pthread_join(th, NULL);
    CHECK_MSG(took >= 0.3 && took < 2.0, "answered after %.3f s", took);
    CHECK(legal(s, info.best));
    /* A ponderhit that comes when no search runs (the engine held a book
       move until it came) is not the next search's: that one ponders
       until its own ponderhit. */
    mc_player_ponderhit(pl);
    sleep_s(0.01);
    go.start = 0;
    t0 = mc_clock();
    pthread_create(&th, NULL, stop_later, &st);
    CHECK(mc_player_go(pl, &go, &info) == 0);
    took = mc_clock() - t0;
    pthread_join(th, NULL);
    CHECK_MSG(took >= 0.3 && took < 2.0,
              "after a stale ponderhit: answered after %.3f s", took);
    mc_player_free(pl);
    mc_session_free(s);
    mc_game_free(g);
}

/* The time manager's limits, worked by hand from timeman.c's rules:
   movetime T: T less 3 ms, spent in full; a clock C with increment I and
   M moves to go (30 when unknown): soft = (C - 10 ms) / M + 3/4 I, hard =
   min(4 soft, 40 % of C - 10 ms), or 85 % when M = 1. */
static void test_time_manager(void)
{
    mc_timeman tm;
    mc_go go = {0};
    go.movetime = 0.5;
    mc_tm_init(&tm, &go, MC_SOUTH, 100.0, 1.0);
    CHECK(tm.fixed && tm.soft > 0.4969 && tm.soft < 0.4971 &&
          tm.hard == tm.soft && tm.start == 100.0);
    CHECK(mc_tm_go_on(&tm, 100.45, 0, 0, 0)); /* spent in full */
    memset(&go, 0, sizeof go);
    go.clock[MC_NORTH] = 10.0;
    go.inc[MC_NORTH] = 0.1;
    mc_tm_init(&tm, &go, MC_NORTH, 0.0, 1.0);
    /* soft = 9.99 / 30 + 0.075 = 0.408, hard = 1.632 (< 3.996) */
    CHECK(!tm.fixed && tm.soft > 0.4079 && tm.soft < 0.4081);
    CHECK(tm.hard > 1.6319 && tm.hard < 1.6321);
    /* South's clock is not given: no limit for South */
    mc_tm_init(&tm, &go, MC_SOUTH, 0.0, 1.0);
    CHECK(tm.hard == 0 && tm.soft == 0);
    /* stable best move: stop once 0.55 x 0.7 x soft is spent (0.157 s) */
    mc_tm_init(&tm, &go, MC_NORTH, 0.0, 1.0);
    CHECK(mc_tm_go_on(&tm, 0.150, 6, 0, 0));
    CHECK(!mc_tm_go_on(&tm, 0.160, 6, 0, 0));
    /* a best move that changed goes on longer: target 0.408 x 2 */
    CHECK(mc_tm_go_on(&tm, 0.40, 0, 1.0, 0));
    CHECK(!mc_tm_go_on(&tm, 0.46, 0, 1.0, 0));
    /* one move to go: 85 % of 9.99 = 8.4915 for both */
    go.movestogo = 1;
    mc_tm_init(&tm, &go, MC_NORTH, 0.0, 1.0);
    CHECK(tm.hard > 8.4914 && tm.hard < 8.4916 && tm.soft == tm.hard);
    /* a lower level's scale halves both */
    go.movestogo = 0;
    mc_tm_init(&tm, &go, MC_NORTH, 0.0, 0.5);
    CHECK(tm.soft > 0.2039 && tm.soft < 0.2041);
}

/* A move time is kept: the answer comes after the time, and not long
   after (a loose bound: this is a unit test, not the benchmark). */
static void test_movetime(void)
{
    mc_game *g = mc_game_new("oware", NULL);
    mc_session *s = mc_session_new(g, NULL);
    mc_player *pl = new_player(g, 1);
    CHECK(mc_player_sync(pl, s, NULL) == 0);
    mc_go go = {0};
    go.movetime = 0.2;
    go.start = mc_clock();
    mc_search_info info;
    CHECK(mc_player_go(pl, &go, &info) == 0);
    double took = mc_clock() - go.start;
    CHECK_MSG(took > 0.19 && took < 0.4, "movetime 0.2 took %.3f s", took);
    /* time before the search counts: a start 0.15 s ago leaves 0.05 s */
    go.start = mc_clock() - 0.15;
    CHECK(mc_player_go(pl, &go, &info) == 0);
    took = mc_clock() - go.start;
    CHECK_MSG(took > 0.19 && took < 0.4, "took %.3f s from the start", took);
    mc_player_free(pl);
    mc_session_free(s);
    mc_game_free(g);
}

int main(void)
{
    test_table_kept();
    test_own_copy();
    test_stop_and_threads();
    test_ponder();
    test_time_manager();
    test_movetime();
    return check_report("test_player");
}
