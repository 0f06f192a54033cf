/*
 * api_rounds.c - a game's rounds (the records of a match, the last one
 * being played) and what they tell: the rounds read from a record's text
 * or file, a round added, the match the finished rounds make, whether the
 * game is over for good, and whose turn it is to arrange its seeds in a
 * custom set-up (Omweso W3).  Facts only: nothing here replies, commits
 * or takes a lock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_int.h"

/* ---- the rounds -------------------------------------------------------- */

int api_add_round(game_entry *e, mc_record *r)
{
    assert(api_game_locked(e) && e->n < MC_API_MAX_ROUNDS);
    size_t cap =
        mc_grow(&e->recs, (size_t)e->cap, (size_t)e->n + 1, sizeof *e->recs, 4);
    if (!cap)
        return -1;
    e->cap = (int)cap;
    e->recs[e->n++] = r;
    return 0;
}

/* The match as the finished rounds left it. */
void api_match_of(const game_entry *e, mc_match *m)
{
    const mc_game *g = mc_record_game(e->recs[0]);
    mc_match_init(g, m);
    m->next_first = mc_session_pos_at(mc_record_session(e->recs[0]), 0)->side;
    for (int i = 0; i < e->n; i++) {
        mc_result r;
        mc_session_result(mc_record_session(e->recs[i]), &r);
        if (r.over)
            mc_match_record(g, m, &r);
    }
}

/* Over for good: the game, and the match when it is one. */
int api_game_finished(const game_entry *e)
{
    if (!mc_session_over(cur_session(e)))
        return 0;
    if (!mc_game_is_match(mc_record_game(cur_rec(e))))
        return 1;
    mc_match m;
    api_match_of(e, &m);
    return m.winner >= 0;
}

/* A finished game's end for its ratings: South's score (1, 0.5, 0) in
   *score, and 1 when it is aborted rather than rated: it ended before
   each side had made two moves (of its first round). */
int api_rated_end(const game_entry *e, double *score)
{
    assert(api_game_finished(e));
    int winner;
    if (mc_game_is_match(mc_record_game(e->recs[0]))) {
        mc_match m;
        api_match_of(e, &m);
        winner = m.winner;
    } else {
        mc_result r;
        mc_session_result(cur_session(e), &r);
        winner = r.winner;
    }
    *score = winner == MC_SOUTH ? 1 : winner == MC_NORTH ? 0 : 0.5;
    const mc_session *s = mc_record_session(e->recs[0]);
    int moves[2] = {0, 0}, ply = mc_session_ply(s);
    for (int k = 0; k < ply; k++)
        moves[mc_session_pos_at(s, k)->side & 1]++;
    return e->n == 1 && (moves[0] < 2 || moves[1] < 2);
}

/* Reading a record for a game: its rounds, at most MC_API_MAX_ROUNDS. */
typedef struct rounds {
    mc_record **recs;
    int n, cap;
} rounds;

#define TOO_MANY_ROUNDS (-100)

static int take_round(void *ctx, mc_record *r)
{
    rounds *c = ctx;
    if (c->n >= MC_API_MAX_ROUNDS) {
        mc_record_free(r);
        return TOO_MANY_ROUNDS;
    }
    size_t nc =
        mc_grow(&c->recs, (size_t)c->cap, (size_t)c->n + 1, sizeof *c->recs, 4);
    if (!nc) {
        mc_record_free(r);
        return MC_ERR_ARG;
    }
    c->cap = (int)nc;
    c->recs[c->n++] = r;
    return 0;
}

/* The rounds of text (or of the file path when text is NULL) in *recs,
 *n; 0, or -1 with err filled (nothing to free). */
int api_read_rounds(const char *text, const char *path, mc_record ***recs,
                    int *n, mc_error *err)
{
    rounds c = {NULL, 0, 0};
    mc_record_loc loc;
    int rc =
        text ? mc_records_scan(text, strlen(text), take_round, &c, &loc, err)
             : mc_records_scan_file(path, take_round, &c, &loc, err);
    if (rc == 0 && c.n == 0) {
        snprintf(err->msg, sizeof err->msg, _("the record holds no game"));
        rc = -1;
    } else if (rc == TOO_MANY_ROUNDS) {
        snprintf(err->msg, sizeof err->msg,
                 _("a game here is one match of at most %d games; this record "
                   "holds more (load its games one by one)"),
                 MC_API_MAX_ROUNDS);
    } else if (rc != 0 && !err->msg[0]) {
        snprintf(err->msg, sizeof err->msg, _("out of memory"));
    }
    if (rc != 0) {
        mc_records_free(c.recs, c.n);
        return -1;
    }
    assert(c.n > 0 && c.n <= MC_API_MAX_ROUNDS);
    *recs = c.recs;
    *n = c.n;
    return 0;
}

/* ---- the set-up -------------------------------------------------------- */

/* A custom set-up (Omweso W3): open before a game's first move until both
   players have arranged their seeds, the starter first, the other seeing
   it.  Who has arranged is kept in the record's "Arranged" tag ("S", "N",
   "SN"), so it survives a restart.  Returns the side whose turn it is to
   arrange, or -1 when no set-up is open. */
int api_setup_turn(const game_entry *e)
{
    mc_record *rec = cur_rec(e);
    mc_session *s = mc_record_session(rec);
    if (!mc_game_custom_setup(mc_record_game(rec), NULL) ||
        mc_session_ply(s) != 0)
        return -1;
    const char *done = mc_record_tag(rec, "Arranged");
    int starter = mc_session_pos(s)->side;
    const char *names = "SN";
    for (int k = 0; k < 2; k++) {
        int side = k ? 1 - starter : starter;
        if (!done || !strchr(done, names[side]))
            return side;
    }
    return -1;
}
