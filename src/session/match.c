/*
 * match.c - match scoring: Oware's formats (O10: the winner starts the next
 * game, a draw keeps the starter) and Omweso's points matches (W2: the loser
 * starts the next game, an annulled game is replayed).
 */
#include <string.h>

#include "../core/util.h"
#include "../games/game.h"

/* m->format keeps the game's format (mc_game_match_format): kind and
   target in one number. */
static mc_match_fmt fmt_of(const mc_match *m)
{
    mc_match_fmt f = {m->format & 0xff, m->format >> 8};
    return f;
}

void mc_match_init(const mc_game *g, mc_match *m)
{
    memset(m, 0, sizeof *m);
    m->streak_side = -1;
    m->winner = -1;
    mc_match_fmt f = mc_game_match_format(g);
    /* Kind and target each fit their byte of m->format (fmt_of). */
    assert(f.kind >= MC_FMT_SINGLE && f.kind <= MC_FMT_POINTS &&
           f.target >= 1 && f.target < 1 << 23);
    m->format = f.kind | f.target << 8;
    mc_pos p;
    mc_start(g, &p);
    m->next_first = p.side;
    m->by_lot = f.kind == MC_FMT_POINTS;
}

void mc_match_start(const mc_game *g, const mc_match *m, mc_pos *p)
{
    mc_start(g, p);
    p->side = (uint8_t)m->next_first;
    if (g->rules->match_start)
        g->rules->match_start(g, m->games, p);
}

void mc_match_record(const mc_game *g, mc_match *m, const mc_result *r)
{
    (void)g;
    const mc_match_fmt f = fmt_of(m);
    if (m->winner >= 0 || !r->over)
        return;
    if (r->reason == MC_END_ANNULLED) {
        m->annulled++;
        return; /* replayed with the same starter */
    }
    m->games++;
    assert(r->winner == MC_SOUTH || r->winner == MC_NORTH ||
           r->winner == MC_DRAW);
    if (r->winner == MC_DRAW) {
        m->draws++;
        m->streak_side = -1;
        m->streak = 0;
        if (f.kind == MC_FMT_SINGLE)
            m->winner = MC_DRAW;
        return;
    }
    int w = r->winner;
    if (f.kind == MC_FMT_POINTS)
        m->wins[w] += r->points > 0 ? r->points : 1;
    else
        m->wins[w]++;
    if (m->streak_side == w) {
        m->streak++;
    } else {
        m->streak_side = w;
        m->streak = 1;
    }
    /* Oware: the winner starts the next game; Omweso: the loser does. */
    m->next_first = f.kind == MC_FMT_POINTS ? 1 - w : w;
    switch (f.kind) {
    case MC_FMT_SINGLE:
        m->winner = w;
        break;
    case MC_FMT_FIRST_TO:
    case MC_FMT_POINTS:
        if (m->wins[w] >= f.target)
            m->winner = w;
        break;
    case MC_FMT_ANTIGUA:
        if (m->wins[w] >= f.target || m->wins[w] - m->wins[1 - w] >= 3)
            m->winner = w;
        break;
    case MC_FMT_YORUBA:
        if (m->streak >= f.target)
            m->winner = w;
        break;
    }
    /* A streak is of games won; the next game has a starter. */
    assert(m->streak >= 1 && m->streak <= m->games);
    assert(m->next_first == MC_SOUTH || m->next_first == MC_NORTH);
}

size_t mc_match_describe(const mc_game *g, const mc_match *m, char *buf,
                         size_t n)
{
    (void)g;
    static const char *const goal[] = {
        N_("single game"), N_("first to %d wins"),
        N_("first to %d wins or 3 ahead"), N_("first to %d wins in a row"),
        N_("first to %d points")};
    const mc_match_fmt f = fmt_of(m);
    mc_sb b;
    mc_sb_init(&b, buf, n);
    mc_sb_printf(&b, _("South %d, North %d"), m->wins[0], m->wins[1]);
    if (m->draws)
        mc_sb_printf(&b, _(", %d drawn"), m->draws);
    mc_sb_printf(&b, " (");
    mc_sb_printf(&b, _(goal[f.kind]), f.target);
    mc_sb_printf(&b, ")");
    if (m->winner == MC_SOUTH || m->winner == MC_NORTH)
        /* TRANSLATORS: after the match's score; %s South or North */
        mc_sb_printf(&b, _(": %s wins the match"),
                     m->winner == MC_SOUTH ? _("South") : _("North"));
    else if (m->winner == MC_DRAW)
        mc_sb_printf(&b, _(": drawn"));
    return b.len;
}
