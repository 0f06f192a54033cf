/*
 * api_work.c - the bounds of a request's work: the rules' work limit of
 * each request (an Omweso relay chain can run for hundreds of millions of
 * laps), a search's own seconds on top of it, and what each address did
 * in the current minute (games created, CPU seconds).
 *
 * Each request's thread works under a limit (mc_work_limit_set): the rules
 * stop short at it, and whatever they answered since is thrown away: a
 * change is not kept, a reply is replaced by 503 costly.  A search gets its
 * own seconds on top (api_player_go); the CPU a request took apart from its
 * searches is counted against its address (api_work_end).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api_int.h"

/* The CPU of this thread's searches in the request being answered. */
static _Thread_local double tl_search_cpu;

static double thread_cpu(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void reply_costly(const mc_api *a, mc_api_reply *out)
{
    free(out->body);
    memset(out, 0, sizeof *out);
    api_reply_error(out, 503, "costly",
                    _("working out this request's moves took longer than the "
                      "server allows one request (%g s); nothing was changed"),
                    a->o.work);
}

/* Before a change is kept: the rule work its reply needs (the moves of the
   position now) done within the request's limit.  0, or -1 after replying
   503 costly. */
int api_costly(const mc_api *a, game_entry *e, mc_api_reply *out)
{
    mc_move mv[MC_MAX_MOVES];
    (void)mc_session_moves(cur_session(e), mv);
    if (!mc_work_limit_hit())
        return 0;
    reply_costly(a, out);
    return -1;
}

/* mc_player_go with the search's own seconds added to the request's work
   limit, and its CPU kept apart from the request's.  sure: a search that
   finished no iteration within its time (a new player's table made, a
   loaded machine, a long root) searches one ply more, so that the answer
   is never a blind move. */
int api_player_go(const mc_api *a, api_player *ap, const mc_go *go, int sure,
                  mc_search_info *info)
{
    double limit = mc_work_limit(), cpu = thread_cpu();
    if (!mc_work_limit_hit())
        mc_work_limit_set(mc_now() + a->o.work +
                          (go->movetime > 0 ? go->movetime : 0));
    int rc = mc_player_go(ap->pl, go, info);
    if (sure && rc == 0 && info->depth == 0 && !info->book && !info->solved &&
        !mc_work_limit_hit()) {
        mc_go one;
        memset(&one, 0, sizeof one);
        one.depth = 1;
        rc = mc_player_go(ap->pl, &one, info);
    }
    int hit = mc_work_limit_hit();
    if (!hit)
        mc_work_limit_set(limit > 0 ? mc_now() + a->o.work : 0);
    tl_search_cpu += thread_cpu() - cpu;
    return hit ? MC_ERR_ARG : rc;
}

/* addr's slot of the current minute (the table lock held): its own, past
   the slots of other addresses of this minute; a slot of an earlier minute
   is free.  NULL when every slot is taken this minute. */
rate_slot *api_rate_of(mc_api *a, const char *addr)
{
    assert(api_table_locked(a));
    unsigned h = 2166136261u;
    for (const char *c = addr; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    long long minute = now_s() / 60;
    for (int k = 0; k < RATE_SLOTS; k++) {
        rate_slot *x = &a->rate[(h + (unsigned)k) % RATE_SLOTS];
        if (x->minute != minute) {
            x->minute = minute;
            x->count = 0;
            x->work = 0;
            snprintf(x->addr, sizeof x->addr, "%s", addr);
            return x;
        }
        if (strcmp(x->addr, addr) == 0)
            return x;
    }
    return NULL;
}

/* A request's work begins: its address's CPU this minute first (over its
   share, nothing: 429 rate and -1), then the request's limit.  Returns
   the thread's CPU time now.  addr NULL: the program itself, not
   counted. */
double api_work_begin(mc_api *a, const char *addr, mc_api_reply *out)
{
    api_table_lock(a);
    rate_slot *rs = addr ? api_rate_of(a, addr) : NULL;
    double used = rs ? rs->work : 0;
    api_table_unlock(a);
    if (used >= a->o.work_minute) {
        api_reply_error(out, 429, "rate",
                        _("your address's requests took %.1f s of the server's "
                          "time this minute: wait a little"),
                        used);
        return -1;
    }
    double cpu = thread_cpu();
    tl_search_cpu = 0;
    mc_work_limit_set(mc_now() + a->o.work);
    return cpu;
}

/* ... and ends: a reply the limit cut short becomes 503 costly, and the
   CPU since cpu, its searches apart, is counted against addr. */
void api_work_end(mc_api *a, const char *addr, double cpu, mc_api_reply *out)
{
    if (mc_work_limit_hit())
        reply_costly(a, out); /* whatever the rules said was cut short */
    mc_work_limit_set(0);
    assert(tl_search_cpu >= 0);
    double spent = thread_cpu() - cpu - tl_search_cpu;
    rate_slot *rs;
    api_table_lock(a);
    if (addr && (rs = api_rate_of(a, addr)) != NULL && spent > 0)
        rs->work += spent;
    api_table_unlock(a);
}
