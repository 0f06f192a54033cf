/*
 * store_rate.c - the ratings' arithmetic the two stores share (store_rate.h).
 */
#include "server/store_rate.h"

#include <string.h>

mc_rating mc_store_grown(mc_rating x, long long last, long long now)
{
    mc_rating y = x;
    double days = last > 0 && now > last ? (double)(now - last) / 86400 : 0;
    return mc_rating_idle(&x, days, NULL, &y, NULL) == 0 ? y : x;
}

void mc_store_standing_fill(mc_store_standing *st, mc_rating x, long long last,
                            const int c[4], long long now)
{
    mc_rating y = mc_store_grown(x, last, now);
    st->r = y.r;
    st->rd = y.rd;
    st->shown = mc_rating_shown(y.r);
    st->provisional = mc_rating_provisional(&y, NULL);
    st->games = c[0];
    st->wins = c[1];
    st->draws = c[2];
    st->losses = c[3];
    st->last = last;
}

int mc_store_rate(const mc_store_rated *rg, const mc_rating x[2],
                  const long long last[2], long long now, int counts[2][4],
                  mc_rating after[2], mc_store_change *ch)
{
    memset(ch, 0, sizeof *ch);
    ch->aborted = rg->aborted;
    ch->score = rg->score;
    if (rg->aborted)
        return 0;
    mc_rating before[2];
    for (int side = 0; side < 2; side++)
        before[side] = mc_store_grown(x[side], last[side], now);
    mc_rating_result res;
    if (mc_rating_rate_game(before, rg->score, NULL, &res, NULL) != 0)
        return -1;
    for (int side = 0; side < 2; side++) {
        double mine = side ? 1 - rg->score : rg->score;
        int *c = counts[side];
        c[0]++;
        c[mine == 1 ? 1 : mine == 0 ? 3 : 2]++;
        after[side] = res.after[side];
        ch->before[side] = before[side].r;
        ch->rd_before[side] = before[side].rd;
        ch->after[side] = res.after[side].r;
        ch->rd_after[side] = res.after[side].rd;
        ch->shown_before[side] = res.shown_before[side];
        ch->shown_after[side] = res.shown_after[side];
        ch->change[side] = res.change[side];
        ch->prov_before[side] = mc_rating_provisional(&before[side], NULL);
        ch->prov_after[side] = mc_rating_provisional(&res.after[side], NULL);
    }
    return 0;
}
