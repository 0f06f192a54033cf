/*
 * api_players.c - players and the games to watch (docs/API.md): GET
 * /api/player/NAME (an account's ratings per game, its results, its last
 * rated games with links to their review) and GET /api/live (the games
 * being played now between two seats, the latest move first).  Reads
 * the store's ratings (store.h) and the table of games; changes one thing
 * only: GET /api/live applies the flag fall that is due in a rated game
 * (as any request on the game would), so that a game both players left
 * is rated without anyone opening it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_int.h"

#define PLAYER_PATH "/api/player/"
#define PLAYER_GAMES 20 /* last games shown */
#define PLAYER_KINDS 8
#define LIVE_MAX 100        /* games listed at most */
#define LIVE_IDLE (15 * 60) /* a game untouched this long is not live */

static json_t *score_json(int aborted, double score)
{
    if (aborted)
        return json_string("aborted");
    return json_string(score == 1 ? "win" : score == 0 ? "loss" : "draw");
}

/* GET /api/player/NAME */
void ep_player(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    const char *name = rq->path + strlen(PLAYER_PATH);
    size_t n = strlen(name);
    int ok = n >= MC_API_NAME_MIN && n <= MC_API_NAME_MAX;
    for (const char *p = name; ok && *p; p++)
        ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
             (*p >= '0' && *p <= '9') || *p == '_' || *p == '-';
    if (!ok) {
        api_reply_error(out, 404, "not_found", _("no such player"));
        return;
    }
    mc_store_account acc;
    mc_store_standing st[PLAYER_KINDS];
    mc_store_past past[PLAYER_GAMES];
    int nst, npast;
    mc_error err;
    int rc =
        mc_store_player(a->store, name, (long long)clock_now(a), &acc, st,
                        PLAYER_KINDS, &nst, past, PLAYER_GAMES, &npast, &err);
    if (rc < 0) {
        api_reply_error(out, 503, "io", _("the player cannot be read (%s)"),
                        err.msg);
        return;
    }
    if (rc > 0) {
        api_reply_error(out, 404, "not_found", _("no player is named %s"),
                        name);
        return;
    }
    json_t *ratings = json_object();
    for (int i = 0; i < nst; i++)
        json_object_set_new(
            ratings, st[i].kind,
            json_pack("{s:i,s:i,s:b,s:i,s:i,s:i,s:i,s:I}", "rating",
                      st[i].shown, "deviation", (int)(st[i].rd + 0.5),
                      "provisional", st[i].provisional, "games", st[i].games,
                      "wins", st[i].wins, "draws", st[i].draws, "losses",
                      st[i].losses, "last", (json_int_t)st[i].last));
    json_t *games = json_array();
    for (int i = 0; i < npast; i++) {
        const mc_store_past *p = &past[i];
        char review[80];
        snprintf(review, sizeof review, "/#g=%s", p->game);
        json_t *g = json_pack("{s:s,s:s,s:I,s:s,s:o,s:o,s:s}", "id", p->game,
                              "kind", p->kind, "ended", (json_int_t)p->ended,
                              "side", p->side ? "N" : "S", "opponent",
                              p->opponent[0] ? json_string(p->opponent)
                                             : json_string(DELETED_PLAYER),
                              "result", score_json(p->aborted, p->score),
                              "review", review);
        if (!p->aborted) {
            json_object_set_new(g, "rating", json_integer(p->shown_after));
            json_object_set_new(g, "change", json_integer(p->change));
        }
        json_array_append_new(games, g);
    }
    api_reply_json(out, 200,
                   json_pack("{s:s,s:I,s:o,s:o}", "name", acc.name, "created",
                             (json_int_t)acc.created, "ratings", ratings,
                             "games", games));
}

typedef struct live_game {
    char id[ID_LEN + 1];
    char spec[MC_SPEC_STRLEN];
    char player[2][NAME_MAX_LEN + 1];
    int has[2], rated, ply;
    long long touched;
} live_game;

static int by_touched(const void *x, const void *y)
{
    const live_game *p = x, *q = y;
    return (p->touched < q->touched) - (p->touched > q->touched);
}

/* GET /api/live: games between two seats held (people, or a person and
   a bot), not over, touched in the last LIVE_IDLE seconds. */
void ep_live(mc_api *a, const api_req *rq, mc_api_reply *out)
{
    (void)rq;
    int n, k = 0;
    long long now = now_s();
    game_entry **all = api_table_all(a, &n);
    live_game *live = all ? malloc(((size_t)n + 1) * sizeof *live) : NULL;
    for (int i = 0; i < n; i++) {
        game_entry *e = all[i];
        api_game_lock(e);
        /* changed by another server process: read again first */
        if (api_behind(e) && !e->gone) {
            mc_api_reply scratch = {0};
            api_reload(a, e, &scratch);
            free(scratch.body);
        }
        /* A rated game whose players both left ends by the clock here
           too (else at its next look): its ratings need no visitor of
           the game itself. */
        if (e->rated && !e->gone && !e->stale && !api_game_finished(e)) {
            mc_api_reply scratch;
            memset(&scratch, 0, sizeof scratch);
            api_flag_first(a, e, &scratch);
            free(scratch.body);
        }
        if (live && !e->gone && !e->stale && e->owner != 3 && e->token[0][0] &&
            e->token[1][0] && !api_game_finished(e) &&
            now - e->touched <= LIVE_IDLE) {
            live_game *g = &live[k++];
            memcpy(g->id, e->id, sizeof g->id);
            snprintf(g->spec, sizeof g->spec, "%s",
                     mc_game_spec(mc_record_game(cur_rec(e))));
            for (int s = 0; s < 2; s++) {
                g->has[s] = e->acct[s] > 0;
                snprintf(g->player[s], sizeof g->player[s], "%s",
                         e->player[s][0] ? e->player[s] : DELETED_PLAYER);
            }
            g->rated = e->rated;
            g->ply = mc_session_ply(cur_session(e));
            g->touched = e->touched;
        }
        api_game_unlock(e);
        api_release(a, e);
    }
    free(all);
    if (live)
        qsort(live, (size_t)k, sizeof *live, by_touched);
    json_t *list = json_array();
    for (int i = 0; i < k && i < LIVE_MAX; i++) {
        live_game *g = &live[i];
        json_array_append_new(
            list,
            json_pack("{s:s,s:s,s:{s:o,s:o},s:b,s:i,s:I}", "id", g->id, "game",
                      g->spec, "players", "S",
                      g->has[0] ? json_string(g->player[0]) : json_null(), "N",
                      g->has[1] ? json_string(g->player[1]) : json_null(),
                      "rated", g->rated, "ply", g->ply, "touched",
                      (json_int_t)g->touched));
    }
    free(live);
    api_reply_json(out, 200, json_pack("{s:o}", "games", list));
}
