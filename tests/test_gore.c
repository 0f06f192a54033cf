/*
 * test_gore.c - property and exhaustive tests of Goré (rules/gore.md)
 * through the public API: random games with trades (stones conserved, the
 * board even, every game ends, and every end matches an independent count
 * of repetitions and quiet plies), captures against a set-based reading of
 * G4, every possible offer against G6, the end rules of G5/G7/G8 from given
 * history facts, and round trips of position strings and move tokens.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mancala.h"

static const char letters[] = "ABCDabcd";

static mc_game *game(const char *spec)
{
    mc_error err = {0, ""};
    mc_game *g = mc_game_new(spec, &err);
    CHECK_MSG(g != NULL, "%s: %s", spec, err.msg);
    return g;
}

static int parse(const mc_game *g, const char *s, mc_pos *p)
{
    mc_error err = {0, ""};
    int rc = mc_pos_parse(g, s, p, &err);
    CHECK_MSG(rc == 0, "'%s': %s", s, err.msg);
    return rc;
}

static int board(const mc_pos *p)
{
    int s = 0;
    for (int i = 0; i < 8; i++)
        s += p->pit[i];
    return s;
}

static int same_pos(const mc_pos *a, const mc_pos *b)
{
    return memcmp(a, b, offsetof(mc_pos, last)) == 0;
}

static int popcount(unsigned m)
{
    int c = 0;
    for (; m; m &= m - 1)
        c++;
    return c;
}

static uint64_t fnv(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* ---- random games through the session, checked against own counts ---- */

typedef struct stats {
    long games, plies, offers, accepts, refuses, passes, captures;
    long end_board, end_rep, end_cap, noglory;
} stats;

static void random_games(const char *spec, int ngames, uint64_t seed, stats *st)
{
    mc_game *g = game(spec);
    if (!g)
        return;
    int trades = strcmp(mc_game_option(g, "trades"), "on") == 0;
    mc_rng rng;
    mc_rng_seed(&rng, seed);
    enum { MAXPLY = 20000 };
    uint64_t *hist = malloc(MAXPLY * sizeof *hist);
    char(*text)[MC_POS_STRLEN] = malloc((size_t)MAXPLY * MC_POS_STRLEN);
    int bad = 0;
    for (int gi = 0; gi < ngames && !bad; gi++) {
        mc_pos start;
        mc_start(g, &start);
        mc_session *s = mc_session_new(g, &start);
        int ply = 0, quiet = 0, refused[2] = {0, 0};
        mc_pos_format(g, &start, text[0], MC_POS_STRLEN);
        hist[0] = fnv(text[0]);
        for (;;) {
            const mc_pos *p = mc_session_pos(s);
            /* G1: 48 stones; captures come in 2s and 4s and payments in
               6s, so from the start the board is always even. */
            if (board(p) + p->cap[0] + p->cap[1] != 48 || board(p) % 2 ||
                p->own == 0 || p->own == 0xFF) {
                CHECK_MSG(0, "game %d ply %d: %s", gi, ply, text[ply]);
                bad = 1;
                break;
            }
            int occ = 0, low = 1;
            for (int k = 0; k <= ply; k++)
                occ += hist[k] == hist[ply] && !strcmp(text[k], text[ply]);
            for (int i = 0; i < 8; i++)
                low &= p->pit[i] <= 2;
            mc_result r;
            mc_session_result(s, &r);
            /* G5 first, then repetition, then the 200-ply count. */
            int want = low            ? MC_END_BOARD
                       : occ >= 3     ? MC_END_REPETITION
                       : quiet >= 200 ? MC_END_PLIES
                                      : MC_END_NONE;
            if (r.reason != want || r.over != (want != MC_END_NONE)) {
                CHECK_MSG(0, "game %d ply %d: reason %d, want %d (%s)", gi, ply,
                          r.reason, want, text[ply]);
                bad = 1;
                break;
            }
            if (r.over) {
                st->end_board += want == MC_END_BOARD;
                st->end_rep += want == MC_END_REPETITION;
                st->end_cap += want == MC_END_PLIES;
                int glory = r.winner != MC_DRAW && refused[r.winner];
                st->noglory += glory;
                CHECK_MSG((strstr(r.detail, " noglory") != NULL) == glory,
                          "game %d: '%s'", gi, r.detail);
                int s2 = 2 * p->cap[0], n2 = 2 * p->cap[1];
                CHECK(r.score2[0] + r.score2[1] == 96);
                CHECK(r.score2[0] >= s2 && r.score2[1] >= n2);
                break;
            }
            if (ply + 1 >= MAXPLY) {
                CHECK_MSG(0, "game %d did not end in %d plies", gi, MAXPLY);
                bad = 1;
                break;
            }
            mc_move mv[MC_MAX_MOVES];
            int n = mc_session_moves(s, mv);
            CHECK(n > 0);
            if (n <= 0) {
                bad = 1;
                break;
            }
            mc_move m = mv[mc_rng_below(&rng, (uint32_t)n)];
            char tok[MC_MOVE_STRLEN];
            mc_move_format(g, p, m, tok, sizeof tok);
            mc_pos before = *p;
            mc_error err = {0, ""};
            if (mc_session_play_str(s, tok, NULL, &err) != 0) {
                CHECK_MSG(0, "'%s' in %s: %s", tok, text[ply], err.msg);
                bad = 1;
                break;
            }
            const mc_pos *after = mc_session_pos(s);
            int capsum0 = before.cap[0] + before.cap[1];
            int capsum1 = after->cap[0] + after->cap[1];
            /* an accepted offer lowers the captures; only a capture
               raises them */
            int captured = capsum1 > capsum0;
            if (!strcmp(tok, "accept")) {
                st->accepts++;
                quiet = 0;
            } else if (captured) {
                st->captures++;
                quiet = 0;
            } else {
                quiet++;
            }
            if (!strcmp(tok, "refuse")) {
                st->refuses++;
                refused[before.side] = 1;
            }
            st->offers += !strncmp(tok, "offer:", 6);
            st->passes += !strcmp(tok, "pass");
            CHECK(trades || (after->offer == 0 && after->flags == 0));
            ply++;
            st->plies++;
            mc_pos_format(g, after, text[ply], MC_POS_STRLEN);
            hist[ply] = fnv(text[ply]);
        }
        st->games++;
        mc_session_free(s);
    }
    free(hist);
    free(text);
    mc_game_free(g);
}

static void test_random_games(void)
{
    stats st;
    memset(&st, 0, sizeof st);
    random_games("gore", 1500, 42, &st);
    printf("gore: %ld games, %ld plies; %ld offers, %ld accepted, %ld "
           "refused, %ld passes, %ld captures; ends: G5 %ld, repetition "
           "%ld, 200 plies %ld; noglory %ld\n",
           st.games, st.plies, st.offers, st.accepts, st.refuses, st.passes,
           st.captures, st.end_board, st.end_rep, st.end_cap, st.noglory);
    CHECK(st.games == 1500);
    /* The run must exercise what it claims to check. */
    CHECK(st.offers > 0 && st.accepts > 0 && st.refuses > 0);
    CHECK(st.passes > 0 && st.noglory > 0);
    CHECK(st.end_board > 0 && st.end_rep > 0);

    stats off;
    memset(&off, 0, sizeof off);
    random_games("gore:trades=off", 1500, 7, &off);
    CHECK(off.games == 1500 && off.offers == 0 && off.accepts == 0);
    CHECK(off.end_board > 0);
    stats sk;
    memset(&sk, 0, sizeof sk);
    random_games("gore:skip_origin=on,repetition=owner,first=north", 500, 9,
                 &sk);
    CHECK(sk.games == 500 && sk.accepts > 0);
}

/* ---- G4 against a set-based reading: the circular run of 2s and 4s
   that holds e, when e qualifies ---- */

static void test_captures(void)
{
    static const char *const specs[] = {"gore:trades=off",
                                        "gore:skip_origin=on"};
    mc_rng rng;
    mc_rng_seed(&rng, 4);
    for (int sp = 0; sp < 2; sp++) {
        mc_game *g = game(specs[sp]);
        int skip = sp == 1;
        for (int iter = 0; iter < 50000; iter++) {
            mc_pos p;
            mc_start(g, &p);
            int left = 48;
            for (int i = 0; i < 8; i++) {
                int v = (int)mc_rng_below(&rng, i == 0 ? 20 : 6);
                if (v > left)
                    v = left;
                p.pit[i] = (uint8_t)v;
                left -= v;
            }
            p.cap[0] = (uint16_t)(left / 2);
            p.cap[1] = (uint16_t)(left - left / 2);
            p.side = (uint8_t)mc_rng_below(&rng, 2);
            do
                p.own = (uint8_t)mc_rng_below(&rng, 256);
            while (p.own == 0 || p.own == 0xFF);
            int from = (int)mc_rng_below(&rng, 8);
            if (!p.pit[from] || ((p.own >> from) & 1) != p.side)
                continue;
            /* Sow by hand, one stone at a time. */
            int h[8], n = p.pit[from], e = from;
            for (int i = 0; i < 8; i++)
                h[i] = p.pit[i];
            h[from] = 0;
            while (n) {
                e = (e + 1) % 8;
                if (skip && e == from)
                    continue;
                h[e]++;
                n--;
            }
            int take[8] = {0}, want = 0;
            if (((p.own >> e) & 1) != p.side && (h[e] == 2 || h[e] == 4)) {
                /* Mark the run through e, walking both ways without
                   stopping at e again. */
                take[e] = 1;
                for (int d = 1; d < 8; d++) {
                    int j = (e + d) % 8;
                    if (h[j] != 2 && h[j] != 4)
                        break;
                    take[j] = 1;
                }
                for (int d = 1; d < 8; d++) {
                    int j = (e - d + 8) % 8;
                    if (h[j] != 2 && h[j] != 4)
                        break;
                    take[j] = 1;
                }
                for (int i = 0; i < 8; i++)
                    if (take[i]) {
                        want += h[i];
                        h[i] = 0;
                    }
            }
            mc_pos q = p;
            mc_move mv[MC_MAX_MOVES];
            int nm = mc_moves(g, &p, mv), found = 0;
            for (int k = 0; k < nm; k++)
                found |= mv[k] == (mc_move)from;
            CHECK(found);
            mc_trace_event ev[128];
            mc_trace t = {ev, 128, 0, 0};
            int fl = mc_play(g, &q, (mc_move)from, &t);
            int ok = q.cap[p.side] == p.cap[p.side] + want &&
                     q.cap[1 - p.side] == p.cap[1 - p.side] &&
                     q.side == 1 - p.side && q.own == p.own;
            for (int i = 0; i < 8; i++)
                ok &= q.pit[i] == h[i];
            /* the trace: one drop per stone, captures summing to want */
            int drops = 0, caps = 0;
            for (size_t k = 0; k < t.len; k++) {
                drops += ev[k].kind == MC_TR_DROP;
                caps += ev[k].kind == MC_TR_CAPTURE ? (int)ev[k].n : 0;
            }
            ok &= drops == p.pit[from] && caps == want && t.dropped == 0;
            /* flags: captures reset the quiet count; without trades they
               are irreversible too. */
            int wantfl =
                want ? (skip ? MC_PLAY_RESET_QUIET
                             : MC_PLAY_RESET_QUIET | MC_PLAY_IRREVERSIBLE)
                     : 0;
            ok &= fl == wantfl;
            if (!ok) {
                char b[MC_POS_STRLEN];
                mc_pos_format(g, &p, b, sizeof b);
                CHECK_MSG(0, "%s sowing %c: capture %d, flags %d", b,
                          letters[from], want, fl);
                break;
            }
            check_passed++;
        }
        mc_game_free(g);
    }
}

/* ---- G6: every offer of every ownership, against the rule ---- */

static void test_offers_exhaustive(void)
{
    mc_game *g = game("gore");
    static const int caps[] = {0, 5, 6, 11, 12, 17, 18, 30};
    long legal = 0;
    for (int own = 1; own < 255; own++)
        for (int ci = 0; ci < 8; ci++)
            for (int side = 0; side < 2; side++) {
                mc_pos p;
                mc_start(g, &p);
                memset(p.pit, 0, 8);
                p.pit[0] = p.pit[7] = 3; /* keep the game going */
                p.own = (uint8_t)own;
                p.side = (uint8_t)side;
                p.cap[1 - side] = (uint16_t)caps[ci];
                p.cap[side] = (uint16_t)(48 - 6 - caps[ci]);
                unsigned mine = side ? (unsigned)own : (~(unsigned)own & 255);
                mc_move mv[MC_MAX_MOVES];
                int nm = mc_moves(g, &p, mv);
                int listed = 0;
                for (int k = 0; k < nm; k++) {
                    char tok[MC_MOVE_STRLEN];
                    mc_move_format(g, &p, mv[k], tok, sizeof tok);
                    listed += !strncmp(tok, "offer:", 6);
                }
                int expected = 0;
                for (unsigned m = 1; m < 256; m++) {
                    int k = popcount(m);
                    int ok = (m & ~mine) == 0 && k <= 3 && m != mine &&
                             caps[ci] >= 6 * k;
                    expected += ok;
                    char tok[32] = "offer:";
                    size_t len = 6;
                    for (int i = 0; i < 8; i++)
                        if (m >> i & 1)
                            tok[len++] = letters[i];
                    tok[len] = '\0';
                    mc_move got = 0;
                    mc_error err = {0, ""};
                    int rc = mc_move_parse(g, &p, tok, &got, &err);
                    if (ok != (rc == 0)) {
                        CHECK_MSG(0, "own %02x side %d cap %d %s: rc %d %s",
                                  own, side, caps[ci], tok, rc, err.msg);
                        mc_game_free(g);
                        return;
                    }
                    if (ok) {
                        /* accepting pays 6 a pit into the pits */
                        mc_pos q = p;
                        mc_play(g, &q, got, NULL);
                        mc_move acc;
                        CHECK(mc_move_parse(g, &q, "accept", &acc, NULL) == 0);
                        int fl = mc_play(g, &q, acc, NULL);
                        CHECK(fl == MC_PLAY_RESET_QUIET);
                        CHECK(q.cap[1 - side] == caps[ci] - 6 * k);
                        CHECK(q.side == 1 - side && q.flags == 1);
                        unsigned theirs = side ? (~q.own & 255u) : q.own;
                        CHECK((theirs & m) == m);
                        CHECK(board(&q) == board(&p) + 6 * k);
                        continue;
                    }
                    /* The reason is given in words. */
                    const char *why = (m & ~mine)
                                          ? "can only offer pits it owns"
                                      : k > 3 ? "an offer is of 1, 2 or 3 pits"
                                      : m == mine ? "would cede every pit"
                                                  : "cannot be paid";
                    if (!strstr(err.msg, why)) {
                        CHECK_MSG(0, "%s: '%s' lacks '%s'", tok, err.msg, why);
                        mc_game_free(g);
                        return;
                    }
                    if (!strcmp(why, "cannot be paid")) {
                        char want[64];
                        snprintf(want, sizeof want, "would cost %s %d",
                                 side ? "South" : "North", 6 * k);
                        CHECK_MSG(strstr(err.msg, want) != NULL, "%s", err.msg);
                    }
                }
                if (listed != expected) {
                    CHECK_MSG(0,
                              "own %02x side %d cap %d: %d offers listed, "
                              "%d expected",
                              own, side, caps[ci], listed, expected);
                    mc_game_free(g);
                    return;
                }
                legal += expected;
                check_passed++;
            }
    CHECK(legal > 0);
    mc_game_free(g);
}

/* ---- G5, G7, G8 from given history facts ---- */

static void result(const mc_game *g, const char *pos, int occ, int quiet,
                   uint8_t last, const char *want, int reason)
{
    mc_pos p;
    if (parse(g, pos, &p))
        return;
    p.last = last;
    mc_hist h = {occ, quiet + 5, quiet};
    mc_result r;
    mc_status(g, &p, &h, &r);
    char buf[96];
    if (!r.over)
        snprintf(buf, sizeof buf, "no");
    else
        snprintf(buf, sizeof buf, "%s %s",
                 r.winner == MC_DRAW ? "draw"
                 : r.winner          ? "N"
                                     : "S",
                 r.detail);
    CHECK_MSG(strcmp(buf, want) == 0, "%s occ %d quiet %d: '%s', want '%s'",
              pos, occ, quiet, buf, want);
    CHECK(r.reason == reason);
}

static void test_end_rules(void)
{
    mc_game *g = game("gore");
    mc_game *go = game("gore:repetition=owner");
    const char *mid = "0,0,3,0/4,1,0,0 S own=SSSSNNNN cap=20,20";
    /* G8: the 200-ply count */
    result(g, mid, 1, 199, 0, "no", MC_END_NONE);
    result(g, mid, 1, 200, 0, "draw 24-24 cap", MC_END_PLIES);
    result(go, mid, 1, 200, 0, "N 23-25 cap", MC_END_PLIES);
    /* G8: third occurrence; repetition is checked before the count */
    result(g, mid, 2, 0, 0, "no", MC_END_NONE);
    result(g, mid, 3, 0, 0, "draw 24-24 repetition", MC_END_REPETITION);
    result(g, mid, 3, 250, 0, "draw 24-24 repetition", MC_END_REPETITION);
    result(go, mid, 3, 0, 0, "N 23-25 repetition", MC_END_REPETITION);
    /* an odd board splits into halves */
    const char *odd = "0,0,3,0/4,0,0,0 S own=SSSSNNNN cap=21,20";
    result(g, odd, 3, 0, 0, "S 24.5-23.5 repetition", MC_END_REPETITION);
    /* G5 comes first */
    const char *low = "2,0,1,0/0,0,2,1 S own=SSSSNNNN cap=20,22";
    result(g, low, 3, 300, 0, "N 23-25", MC_END_BOARD);
    /* G7: noglory only for a winner who refused (bit 6 South, 7 North) */
    result(g, low, 1, 0, 0x80, "N 23-25 noglory", MC_END_BOARD);
    result(g, low, 1, 0, 0x40, "N 23-25", MC_END_BOARD);
    result(go, mid, 3, 0, 0xC0, "N 23-25 noglory repetition",
           MC_END_REPETITION);
    result(g, mid, 3, 0, 0xC0, "draw 24-24 repetition", MC_END_REPETITION);

    /* refusing sets the record; it is not part of the position */
    mc_pos p, q;
    parse(g, "0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 offer=AC", &p);
    q = p;
    mc_move m;
    CHECK(mc_move_parse(g, &q, "refuse", &m, NULL) == 0);
    CHECK(mc_play(g, &q, m, NULL) == 0);
    CHECK(q.last == 0x80);
    char b1[MC_POS_STRLEN];
    mc_pos_format(g, &q, b1, sizeof b1);
    CHECK_STR(b1, "0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 answered");
    mc_pos r2 = q;
    r2.last = 0;
    CHECK(mc_hash(g, &q) == mc_hash(g, &r2));
    /* passes, offers and quiet sowings reset nothing */
    CHECK(mc_move_parse(g, &q, "b", &m, NULL) == 0);
    CHECK(mc_play(g, &q, m, NULL) == 0 && q.last == 0x80 && q.flags == 0);
    mc_game_free(g);
    mc_game_free(go);
}

/* ---- real games ended by the 200-ply count (G8) ---- */

/* Extend the game by `plies` sowings or passes that capture nothing and
   do not end the game (no third occurrence), chosen at random; 0 if the
   walk got stuck. */
static int quiet_walk(mc_session *s, mc_rng *rng, int plies)
{
    const mc_game *g = mc_session_game(s);
    for (int k = 0; k < plies; k++) {
        mc_move mv[MC_MAX_MOVES];
        int n = mc_session_moves(s, mv), done = 0;
        for (int tries = 0; tries < 4 * n && !done; tries++) {
            mc_move m = mv[mc_rng_below(rng, (uint32_t)n)];
            char t[MC_MOVE_STRLEN];
            const mc_pos *p = mc_session_pos(s);
            mc_move_format(g, p, m, t, sizeof t);
            if (strlen(t) != 1 && strcmp(t, "pass") != 0)
                continue; /* no trades here */
            int caps = p->cap[0] + p->cap[1];
            mc_session_play(s, m, NULL, NULL);
            const mc_pos *q = mc_session_pos(s);
            if (q->cap[0] + q->cap[1] != caps || mc_session_over(s))
                mc_session_undo(s);
            else
                done = 1;
        }
        if (!done)
            return 0;
    }
    return 1;
}

static int play_tok(mc_session *s, const char *tok)
{
    mc_error err = {0, ""};
    int rc = mc_session_play_str(s, tok, NULL, &err);
    CHECK_MSG(rc == 0, "%s: %s", tok, err.msg);
    return rc;
}

static void test_quiet_games(void)
{
    mc_game *g = game("gore");
    mc_pos start;
    /* 36 stones stay on the board without captures, so G5 cannot end it;
       each side has 6 captured, enough to pay for one pit. */
    parse(g, "6,6,6,0/6,6,6,0 S own=SSSSNNNN cap=6,6", &start);
    mc_rng rng;
    mc_rng_seed(&rng, 11);
    int done[3] = {0, 0, 0};
    for (int tries = 0; tries < 200; tries++) {
        for (int variant = 0; variant < 3; variant++) {
            if (done[variant])
                continue;
            mc_session *s = mc_session_new(g, &start);
            mc_result r;
            int ok;
            if (variant == 0) {
                /* 199 quiet plies: still on; the 200th ends it. */
                ok = quiet_walk(s, &rng, 199);
                if (ok) {
                    CHECK(!mc_session_over(s));
                    CHECK(mc_session_ply(s) == 199);
                    mc_move mv[MC_MAX_MOVES];
                    int n = mc_session_moves(s, mv);
                    CHECK(n > 0);
                    /* any sowing that captures nothing ends the game now */
                    for (int i = 0; i < n && ok; i++) {
                        const mc_pos *p = mc_session_pos(s);
                        int caps = p->cap[0] + p->cap[1];
                        mc_session_play(s, mv[i], NULL, NULL);
                        const mc_pos *q = mc_session_pos(s);
                        if (q->cap[0] + q->cap[1] == caps && !q->offer &&
                            !q->flags) {
                            mc_session_result(s, &r);
                            CHECK(r.reason == MC_END_PLIES ||
                                  r.reason == MC_END_REPETITION);
                            if (r.reason == MC_END_PLIES) {
                                CHECK(strstr(r.detail, " cap") != NULL);
                                done[0] = 1;
                                break;
                            }
                        }
                        mc_session_undo(s);
                    }
                }
            } else {
                /* 120 quiet plies, then an offer answered: an accepted
                   offer restarts the count, a refused one does not. */
                ok = quiet_walk(s, &rng, 120);
                if (ok) {
                    const mc_pos *p = mc_session_pos(s);
                    unsigned mine = p->side ? p->own : (~p->own & 255u);
                    int i = 0;
                    while (!(mine >> i & 1))
                        i++;
                    char offer[16];
                    snprintf(offer, sizeof offer, "offer:%c", letters[i]);
                    play_tok(s, offer);
                    play_tok(s, variant == 1 ? "accept" : "refuse");
                    int at = mc_session_ply(s); /* 122 */
                    int left = variant == 1 ? 199 : 200 - at - 1;
                    ok = quiet_walk(s, &rng, left);
                    if (ok) {
                        CHECK(!mc_session_over(s));
                        /* the walk takes no move that ends the game, and
                       now every capture-free move does */
                        int extra = quiet_walk(s, &rng, 1);
                        CHECK(extra == 0);
                        ok = extra == 0;
                        /* the walk refuses moves that end the game: every
                           capture-free move now ends it */
                        mc_move mv[MC_MAX_MOVES];
                        int n = mc_session_moves(s, mv);
                        for (int k = 0; k < n && ok; k++) {
                            char t[MC_MOVE_STRLEN];
                            mc_move_format(g, mc_session_pos(s), mv[k], t,
                                           sizeof t);
                            if (strlen(t) != 1 && strcmp(t, "pass"))
                                continue;
                            const mc_pos *q = mc_session_pos(s);
                            int caps = q->cap[0] + q->cap[1];
                            mc_session_play(s, mv[k], NULL, NULL);
                            q = mc_session_pos(s);
                            if (q->cap[0] + q->cap[1] == caps) {
                                mc_session_result(s, &r);
                                CHECK_MSG(r.reason == MC_END_PLIES ||
                                              r.reason == MC_END_REPETITION,
                                          "reason %d", r.reason);
                                if (r.reason == MC_END_PLIES) {
                                    CHECK_MSG(
                                        mc_session_ply(s) ==
                                            (variant == 1 ? at + 200 : 200),
                                        "ended at ply %d", mc_session_ply(s));
                                    done[variant] = 1;
                                }
                            }
                            mc_session_undo(s);
                        }
                    }
                }
            }
            mc_session_free(s);
        }
        if (done[0] && done[1] && done[2])
            break;
    }
    CHECK_MSG(done[0], "no 200-ply quiet game found");
    CHECK_MSG(done[1], "no game with an accepted offer found");
    CHECK_MSG(done[2], "no game with a refused offer found");
    mc_game_free(g);
}

/* ---- notation round trips over random positions ---- */

static void test_round_trips(void)
{
    mc_game *g = game("gore");
    mc_rng rng;
    mc_rng_seed(&rng, 99);
    long moves_checked = 0;
    for (int iter = 0; iter < 20000; iter++) {
        mc_pos p;
        mc_start(g, &p);
        int left = 48;
        for (int i = 0; i < 8; i++) {
            int v = (int)mc_rng_below(&rng, 9);
            if (v > left)
                v = left;
            p.pit[i] = (uint8_t)v;
            left -= v;
        }
        int c0 = (int)mc_rng_below(&rng, (uint32_t)left + 1);
        p.cap[0] = (uint16_t)c0;
        p.cap[1] = (uint16_t)(left - c0);
        p.side = (uint8_t)mc_rng_below(&rng, 2);
        do
            p.own = (uint8_t)mc_rng_below(&rng, 256);
        while (p.own == 0 || p.own == 0xFF);
        int kind = (int)mc_rng_below(&rng, 3);
        if (kind == 1) {
            /* a pending offer: one the other side could have made */
            mc_pos o = p;
            o.side = (uint8_t)(1 - p.side);
            mc_move mv[MC_MAX_MOVES];
            int n = mc_moves(g, &o, mv), k = 0;
            mc_move offers[MC_MAX_MOVES];
            for (int i = 0; i < n; i++) {
                char t[MC_MOVE_STRLEN];
                mc_move_format(g, &o, mv[i], t, sizeof t);
                if (!strncmp(t, "offer:", 6))
                    offers[k++] = mv[i];
            }
            if (k) {
                mc_play(g, &o, offers[mc_rng_below(&rng, (uint32_t)k)], NULL);
                p = o;
            }
        } else if (kind == 2) {
            p.flags = 1;
        }
        char s[MC_POS_STRLEN], s2[MC_POS_STRLEN];
        mc_pos_format(g, &p, s, sizeof s);
        mc_pos q;
        mc_error err = {0, ""};
        if (mc_pos_parse(g, s, &q, &err) != 0 || !same_pos(&p, &q)) {
            CHECK_MSG(0, "'%s' does not round-trip: %s", s, err.msg);
            break;
        }
        mc_pos_format(g, &q, s2, sizeof s2);
        CHECK_STR(s2, s);
        /* every legal move formats and parses back to itself */
        mc_move mv[MC_MAX_MOVES];
        int n = mc_moves(g, &p, mv);
        for (int i = 0; i < n; i++) {
            char t[MC_MOVE_STRLEN];
            mc_move_format(g, &p, mv[i], t, sizeof t);
            mc_move back = ~(mc_move)0;
            if (mc_move_parse(g, &p, t, &back, &err) != 0 || back != mv[i]) {
                CHECK_MSG(0, "move '%s' in '%s': %s", t, s, err.msg);
                mc_game_free(g);
                return;
            }
            moves_checked++;
        }
        /* a random token that is not in the list is rejected with a
           message */
        static const char *const junk[] = {
            "A", "d", "pass", "accept", "refuse", "offer:B", "offer:ab"};
        const char *t = junk[mc_rng_below(&rng, 7)];
        mc_move m;
        err.msg[0] = '\0';
        if (mc_move_parse(g, &p, t, &m, &err) != 0)
            CHECK(err.msg[0] != '\0');
        else {
            int in = 0;
            for (int i = 0; i < n; i++)
                in |= mv[i] == m;
            CHECK(in);
        }
        check_passed++;
    }
    CHECK(moves_checked > 20000);
    mc_game_free(g);
}

/* ---- malformed input: mutated position strings never crash and are
   either rejected with a message or parse to a valid position ---- */

static void test_mutations(void)
{
    mc_game *g = game("gore");
    const char *base[] = {
        "6,6,6,6/6,6,6,6 S own=SSSSNNNN cap=0,0",
        "0,0,0,0/0,2,0,6 N own=SSSSNNNN cap=20,20 offer=AC",
        "6,0,6,0/0,2,0,6 N own=NSNSNNNN cap=20,8 answered",
    };
    static const char alphabet[] = "0123456789,/ SNsnown=capofferansweredAd";
    mc_rng rng;
    mc_rng_seed(&rng, 5);
    for (int iter = 0; iter < 30000; iter++) {
        char s[128];
        snprintf(s, sizeof s, "%s", base[iter % 3]);
        int edits = 1 + (int)mc_rng_below(&rng, 3);
        for (int e = 0; e < edits; e++) {
            size_t len = strlen(s);
            size_t at = mc_rng_below(&rng, (uint32_t)len + 1);
            int op = (int)mc_rng_below(&rng, 3);
            char c = alphabet[mc_rng_below(&rng, sizeof alphabet - 1)];
            if (op == 0 && at < len)
                s[at] = c;
            else if (op == 1 && at < len)
                memmove(s + at, s + at + 1, len - at);
            else if (len + 1 < sizeof s) {
                memmove(s + at + 1, s + at, len - at + 1);
                s[at] = c;
            }
        }
        mc_pos p;
        mc_error err = {0, ""};
        if (mc_pos_parse(g, s, &p, &err) != 0) {
            CHECK_MSG(err.msg[0] != '\0', "no message for '%s'", s);
            continue;
        }
        char out[MC_POS_STRLEN];
        mc_pos_format(g, &p, out, sizeof out);
        mc_pos q;
        CHECK_MSG(mc_pos_parse(g, out, &q, &err) == 0 && same_pos(&p, &q),
                  "'%s' -> '%s'", s, out);
        CHECK(mc_total(g, &p) == 48);
    }
    mc_game_free(g);
}

/* ---- every trace event has words ---- */

static void test_describe(void)
{
    mc_game *g = game("gore:skip_origin=on");
    mc_pos p;
    parse(g, "0,0,0,9/0,2,0,6 S own=SSSSNNNN cap=16,15", &p);
    /* D (9, skipping D) captures b 4 and a 2; North offers a, South
       refuses and sows B; North offers b and c, South accepts. */
    const char *const line[] = {"D", "offer:a",  "refuse",
                                "B", "offer:bc", "accept"};
    int kinds = 0;
    for (int i = 0; i < 6; i++) {
        mc_move m;
        mc_error err = {0, ""};
        if (mc_move_parse(g, &p, line[i], &m, &err) != 0) {
            CHECK_MSG(0, "%s: %s", line[i], err.msg);
            break;
        }
        mc_trace_event ev[64];
        mc_trace t = {ev, 64, 0, 0};
        mc_play(g, &p, m, &t);
        CHECK(t.len > 0);
        for (size_t k = 0; k < t.len; k++) {
            char b[200];
            mc_trace_describe(g, &ev[k], b, sizeof b);
            CHECK_MSG(b[0] && strcmp(b, "?") != 0, "event %d", ev[k].kind);
            kinds |= 1 << ev[k].kind;
            if (ev[k].kind == MC_TR_TRADE && !strcmp(line[i], "offer:bc"))
                CHECK_MSG(strstr(b, "paying 12 captured stones") != NULL, "%s",
                          b);
        }
    }
    CHECK(kinds & (1 << MC_TR_SKIP));
    CHECK(kinds & (1 << MC_TR_TRADE));
    mc_game_free(g);
}

int main(void)
{
    test_end_rules();
    test_offers_exhaustive();
    test_captures();
    test_round_trips();
    test_mutations();
    test_describe();
    test_quiet_games();
    test_random_games();
    return check_report("test_gore");
}
