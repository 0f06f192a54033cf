/*
 * gore.c - Goré (rules/gore.md, G1-G8) with every option: single-lap
 * sowing on a 2x4 board, captures of 2s and 4s chained both ways round the
 * whole board, per-pit ownership and territory trading (offers of 1-3 pits
 * paid 6 captured stones a pit).
 *
 * Pits 0..3 are A..D, 4..7 a..d (letters fixed to the board, not to the
 * owner).  mc_pos.own bit i = North owns pit i; mc_pos.offer = pits offered
 * to the side to move; flags bit 0 = the side to move has answered an offer
 * and must now sow or pass.  mc_pos.last holds the G7 refusal record (see
 * LAST_REFUSED): history, so it stays out of the position string, the hash
 * and repetition.  Like every rules file: no printing, no allocation.
 */
#include <stdio.h>
#include <string.h>

#include "../core/util.h"
#include "game.h"

enum { OPT_SKIP_ORIGIN, OPT_REPETITION, OPT_TRADES, OPT_FIRST };
/* Value indexes, in the order of the name lists below. */
enum { REP_EQUAL, REP_OWNER };
enum { TRADES_ON, TRADES_OFF };
enum { FIRST_SOUTH, FIRST_NORTH };

static const char *const v_off_on[] = {"off", "on", NULL};
static const char *const v_repetition[] = {"equal", "owner", NULL};
static const char *const v_on_off[] = {"on", "off", NULL};
static const char *const v_first[] = {"south", "north", NULL};

static const mc_optdef gr_opts[] = {
    {"skip_origin", v_off_on, 0, 0, 0,
     N_("G3: with 8 or more stones, skip the emptied pit on each lap")},
    {"repetition", v_repetition, 0, 0, 0,
     N_("G8: board stones at an endless game: half each, or to the pits' "
        "owners")},
    {"trades", v_on_off, 0, 0, 0,
     N_("G6: territory trading (off: no offers at all)")},
    {"first", v_first, 0, 0, 0, N_("G1: who moves first")},
    {NULL, NULL, 0, 0, 0, NULL},
};

#define NP 8
#define PRICE 6         /* captured stones paid for each ceded pit (G6) */
#define MAX_OFFER 3     /* pits in one offer (G6) */
#define QUIET_LIMIT 200 /* G8 */

/* Moves: 0..7 sow that pit; the others are codes above the pits; an offer
   is OFFER_BASE + the mask of its pits (bit i = pit i). */
enum { MV_PASS = 8, MV_ACCEPT = 9, MV_REFUSE = 10, MV_OFFER_BASE = 256 };

#define FLAG_ANSWERED 1
/* G7 record in mc_pos.last: bit 6 South has refused an offer in this game,
   bit 7 North has; never cleared, copied along with the position. */
#define LAST_REFUSED(side) (uint8_t)(0x40u << (side))

/* Trade events: aux = side | kind << 1, pit = mask, n = payment. */
enum { TRADE_OFFER = 0, TRADE_ACCEPT = 1, TRADE_REFUSE = 2 };

static const char letters[NP + 1] = "ABCDabcd";
static const char *const pit_names[NP] = {"A", "B", "C", "D",
                                          "a", "b", "c", "d"};

/* The pits `side` owns, as a mask. */
static inline unsigned owned(const mc_pos *p, int side)
{
    return side == MC_NORTH ? p->own : (unsigned)(~p->own & 0xFFu);
}

static inline int popcount8(unsigned m)
{
    int c = 0;
    for (; m; m &= m - 1)
        c++;
    return c;
}

/* Stones in the pits of mask m. */
static int stones_in(const mc_pos *p, unsigned m)
{
    int s = 0;
    for (int i = 0; i < NP; i++)
        if (m >> i & 1)
            s += p->pit[i];
    return s;
}

static int board_total(const mc_pos *p)
{
    return stones_in(p, 0xFFu);
}

static int gr_total(const mc_game *g, const mc_pos *p)
{
    (void)g;
    return board_total(p) + p->cap[0] + p->cap[1];
}

/* How many pits the answerer could pay for (G6), capped at 3. */
static int affordable(const mc_pos *p, int answerer)
{
    int k = p->cap[answerer] / PRICE;
    return k > MAX_OFFER ? MAX_OFFER : k;
}

/* Letters of the pits of mask m in index order, separated by sep. */
static void mask_letters(mc_sb *b, unsigned m, const char *sep)
{
    int k = 0;
    for (int i = 0; i < NP; i++)
        if (m >> i & 1) {
            if (k++)
                mc_sb_printf(b, "%s", sep);
            mc_sb_putc(b, letters[i]);
        }
}

static void gr_start(const mc_game *g, mc_pos *p)
{
    for (int i = 0; i < NP; i++)
        p->pit[i] = 6;
    p->own = 0xF0;
    p->side = g->opt[OPT_FIRST] == FIRST_NORTH ? MC_NORTH : MC_SOUTH;
}

/* Offers `side` may make (G6), by number of pits, then in index order of
   their letters; returns how many were written. */
static int offer_moves(const mc_pos *p, int side, mc_move *out)
{
    unsigned mine = owned(p, side);
    int k = affordable(p, 1 - side);
    int m = 0, n = 0;
    int o[NP];
    for (int i = 0; i < NP; i++)
        if (mine >> i & 1)
            o[m++] = i;
    if (m < 2 || k == 0)
        return 0; /* a player keeps at least one pit */
    for (int a = 0; a < m; a++)
        out[n++] = MV_OFFER_BASE + (1u << o[a]);
    if (k >= 2)
        for (int a = 0; a < m; a++)
            for (int b = a + 1; b < m; b++) {
                unsigned mask = 1u << o[a] | 1u << o[b];
                if (mask != mine)
                    out[n++] = MV_OFFER_BASE + mask;
            }
    if (k >= 3)
        for (int a = 0; a < m; a++)
            for (int b = a + 1; b < m; b++)
                for (int c = b + 1; c < m; c++) {
                    unsigned mask = 1u << o[a] | 1u << o[b] | 1u << o[c];
                    if (mask != mine)
                        out[n++] = MV_OFFER_BASE + mask;
                }
    return n;
}

/* G2, G6: sowings in index order, then offers, then pass; an answer
   (accept, refuse) when an offer is pending. */
static int gr_moves(const mc_game *g, const mc_pos *p, mc_move *out)
{
    if (p->offer) {
        out[0] = MV_ACCEPT;
        out[1] = MV_REFUSE;
        return 2;
    }
    int side = p->side, n = 0;
    unsigned mine = owned(p, side);
    for (int i = 0; i < NP; i++)
        if ((mine >> i & 1) && p->pit[i])
            out[n++] = (mc_move)i;
    int sowings = n;
    if (g->opt[OPT_TRADES] == TRADES_ON && !(p->flags & FLAG_ANSWERED))
        n += offer_moves(p, side, out + n);
    if (sowings == 0)
        out[n++] = MV_PASS;
    /* G2: there is always a move (a pass at least); at most 8 sowings and
       the 7 + 21 + 35 offers of 1 to 3 of 7 pits. */
    mc_hot_assert(n >= 1 && n <= NP + 63);
    return n;
}

/* G3: sow pit i; returns the pit that got the last stone. */
static int sow(uint8_t *h, int i, int skip, mc_trace *t)
{
    int n = h[i];
    mc_hot_assert(i >= 0 && i < NP && n > 0);
    h[i] = 0;
    if (t) {
        mc_trace_add(t, MC_TR_LIFT, i, (uint32_t)n, 0);
        int j = i;
        while (n > 0) {
            j = (j + 1) & 7;
            if (j == i && skip) {
                mc_trace_add(t, MC_TR_SKIP, j, 0, 0);
                continue;
            }
            h[j]++;
            n--;
            mc_trace_add(t, MC_TR_DROP, j, h[j], 0);
        }
        return j;
    }
    if (!skip) {
        /* Every pit, the origin too, gets n / 8; the next n % 8 one more. */
        int q = n >> 3, r = n & 7;
        if (q)
            for (int j = 0; j < NP; j++)
                h[j] = (uint8_t)(h[j] + q);
        for (int k = 1; k <= r; k++)
            h[(i + k) & 7]++;
        return (i + n) & 7;
    }
    int q = n / 7, r = n % 7;
    if (q) {
        for (int j = 0; j < NP; j++)
            h[j] = (uint8_t)(h[j] + q);
        h[i] = 0;
    }
    for (int k = 1; k <= r; k++)
        h[(i + k) & 7]++;
    return r ? (i + r) & 7 : (i + 7) & 7;
}

static inline int takes(int c)
{
    return c == 2 || c == 4;
}

/* G4: the capture of `side` whose sowing ended in e; returns the stones. */
static int capture(mc_pos *p, int side, int e, mc_trace *t)
{
    uint8_t *h = p->pit;
    if (((p->own >> e) & 1u) == (unsigned)side || !takes(h[e]))
        return 0;
    int sum = h[e];
    if (t)
        mc_trace_add(t, MC_TR_CAPTURE, e, h[e], side);
    h[e] = 0;
    /* Emptying each captured pit stops a run that comes round the board to
       pits already taken. */
    for (int j = (e + 1) & 7; takes(h[j]); j = (j + 1) & 7) {
        if (t)
            mc_trace_add(t, MC_TR_CAPTURE, j, h[j], side);
        sum += h[j];
        h[j] = 0;
    }
    for (int j = (e + 7) & 7; takes(h[j]); j = (j + 7) & 7) {
        if (t)
            mc_trace_add(t, MC_TR_CAPTURE, j, h[j], side);
        sum += h[j];
        h[j] = 0;
    }
    /* The runs took whole pits of 2 or 4, from a board of 48 stones. */
    mc_hot_assert(sum % 2 == 0 && sum <= 48);
    p->cap[side] = (uint16_t)(p->cap[side] + sum);
    return sum;
}

/* A sowing, a pass, an offer or an answer (gr_play). */
static int play_action(const mc_game *g, mc_pos *p, mc_move m, mc_trace *t)
{
    int side = p->side;
    if (m < NP) {
        /* G2: a pit the mover owns (no offer pending: it answers first). */
        mc_hot_assert((owned(p, side) >> m & 1) && !p->offer);
        int e = sow(p->pit, (int)m, g->opt[OPT_SKIP_ORIGIN], t);
        /* The last stone lands (what e holds then), then the capture. */
        if (t)
            mc_trace_add(t, MC_TR_END, e, p->pit[e], side);
        int took = capture(p, side, e, t);
        p->side = (uint8_t)(1 - side);
        p->flags = 0;
        if (!took)
            return 0;
        /* Without trades stones only ever leave the board, so nothing from
           before a capture can come back.  With trades an accepted offer
           returns stones to the board, and an earlier position may recur. */
        return g->opt[OPT_TRADES] == TRADES_OFF
                   ? MC_PLAY_IRREVERSIBLE | MC_PLAY_RESET_QUIET
                   : MC_PLAY_RESET_QUIET;
    }
    if (m == MV_PASS) {
        if (t)
            mc_trace_add(t, MC_TR_PASS, 0, 0, side);
        p->side = (uint8_t)(1 - side);
        p->flags = 0;
        return 0;
    }
    if (m == MV_ACCEPT) {
        unsigned mask = p->offer;
        int k = popcount8(mask);
        /* G6: the answerer can pay 6 stones a pit (no wrap-around of cap). */
        mc_hot_assert(k >= 1 && k <= MAX_OFFER && p->cap[side] >= PRICE * k);
        for (int i = 0; i < NP; i++)
            if (mask >> i & 1)
                p->pit[i] = (uint8_t)(p->pit[i] + PRICE);
        if (side == MC_NORTH)
            p->own = (uint8_t)(p->own | mask);
        else
            p->own = (uint8_t)(p->own & ~mask);
        p->cap[side] = (uint16_t)(p->cap[side] - PRICE * k);
        p->offer = 0;
        p->flags = FLAG_ANSWERED;
        if (t)
            mc_trace_add(t, MC_TR_TRADE, (int)mask, (uint32_t)(PRICE * k),
                         side | TRADE_ACCEPT << 1);
        return MC_PLAY_RESET_QUIET;
    }
    if (m == MV_REFUSE) {
        if (t)
            mc_trace_add(t, MC_TR_TRADE, p->offer,
                         (uint32_t)(PRICE * popcount8(p->offer)),
                         side | TRADE_REFUSE << 1);
        p->offer = 0;
        p->flags = FLAG_ANSWERED;
        p->last |= LAST_REFUSED(side);
        return 0;
    }
    /* an offer */
    unsigned mask = (unsigned)(m - MV_OFFER_BASE) & 0xFFu;
    /* G6: 1 to 3 of the mover's pits, keeping one. */
    mc_hot_assert(m >= MV_OFFER_BASE && mask && !(mask & ~owned(p, side)) &&
                  mask != owned(p, side) && popcount8(mask) <= MAX_OFFER);
    if (t)
        mc_trace_add(t, MC_TR_TRADE, (int)mask,
                     (uint32_t)(PRICE * popcount8(mask)),
                     side | TRADE_OFFER << 1);
    p->offer = (uint8_t)mask;
    p->side = (uint8_t)(1 - side);
    p->flags = 0;
    return 0;
}

static int gr_play(const mc_game *g, mc_pos *p, mc_move m, mc_trace *t)
{
    const int total = gr_total(g, p);
    int fl = play_action(g, p, m, t);
    /* Stones move between the board and the captures (G4, G6), never
       more or fewer. */
    mc_hot_assert(gr_total(g, p) == total);
    return fl;
}

/* Scores (doubled: an odd board split in two gives halves) and the `over`
   details: "<South>-<North>[ noglory][ repetition| cap]". */
static void set_result(const mc_pos *p, mc_result *r, int reason, int s2,
                       int n2, const char *suffix)
{
    r->over = 1;
    r->reason = reason;
    r->score2[0] = s2;
    r->score2[1] = n2;
    r->winner = s2 > n2 ? MC_SOUTH : n2 > s2 ? MC_NORTH : MC_DRAW;
    mc_sb b;
    mc_sb_init(&b, r->detail, sizeof r->detail);
    mc_sb_printf(&b, "%d%s-%d%s", s2 / 2, s2 % 2 ? ".5" : "", n2 / 2,
                 n2 % 2 ? ".5" : "");
    r->noglory = r->winner != MC_DRAW && (p->last & LAST_REFUSED(r->winner));
    if (r->noglory)
        mc_sb_printf(&b, " noglory");
    mc_sb_printf(&b, "%s", suffix);
}

static void gr_status(const mc_game *g, const mc_pos *p, const mc_hist *h,
                      mc_result *r)
{
    int high = 0;
    for (int i = 0; i < NP; i++)
        high |= p->pit[i] > 2;
    int c2s = 2 * p->cap[0], c2n = 2 * p->cap[1];
    if (!high) {
        /* G5: each player takes the stones in the pits they own. */
        int north = stones_in(p, p->own);
        int south = board_total(p) - north;
        set_result(p, r, MC_END_BOARD, c2s + 2 * south, c2n + 2 * north, "");
        return;
    }
    int rep = h->occurrences >= 3;
    if (!rep && h->quiet < QUIET_LIMIT)
        return;
    /* G8: the board is shared equally, or as in G5 (repetition=owner). */
    int s2, n2;
    if (g->opt[OPT_REPETITION] == REP_OWNER) {
        int north = stones_in(p, p->own);
        int south = board_total(p) - north;
        s2 = c2s + 2 * south;
        n2 = c2n + 2 * north;
    } else {
        int board = board_total(p);
        s2 = c2s + board;
        n2 = c2n + board;
    }
    set_result(p, r, rep ? MC_END_REPETITION : MC_END_PLIES, s2, n2,
               rep ? " repetition" : " cap");
}

/* G8's words (G5's are the generic ones). */
static int gr_result_words(const mc_game *g, const mc_result *r, mc_sb *b)
{
    if (r->reason != MC_END_REPETITION && r->reason != MC_END_PLIES)
        return 0;
    int owner = g->opt[OPT_REPETITION] == REP_OWNER;
    const char *w;
    if (r->reason == MC_END_REPETITION)
        w = owner ? _("the same position occurred for the third time, so the "
                      "stones on the board are taken by the owners of their "
                      "pits.")
                  : _("the same position occurred for the third time, so the "
                      "stones on the board are divided equally.");
    else
        w = owner ? _("200 plies passed without a capture or an accepted "
                      "offer, so the stones on the board are taken by the "
                      "owners of their pits.")
                  : _("200 plies passed without a capture or an accepted "
                      "offer, so the stones on the board are divided "
                      "equally.");
    mc_sb_printf(b, "%s", w);
    return 1;
}

/* An offer and its answers in words, when their trace says nothing (G6). */
static int gr_move_words(const mc_game *g, const mc_move_facts *f,
                         const char *who, mc_sb *b)
{
    (void)g;
    /* TRANSLATORS: %s is the side (South, North) */
    const char *what =
        f->kind == MC_MOVE_IS_OFFER    ? _("%s makes an offer")
        : f->kind == MC_MOVE_IS_ACCEPT ? _("%s accepts the offer")
        : f->kind == MC_MOVE_IS_REFUSE ? _("%s refuses the offer")
                                       : NULL;
    if (!what)
        return 0;
    mc_sb_printf(b, what, who);
    return 1;
}

/* G2 and G6: passes, offers and the answers to them. */
static int gr_move_facts(const mc_game *g, const mc_pos *p, mc_move m,
                         mc_move_facts *f)
{
    (void)g;
    if (m == MV_PASS) {
        f->kind = MC_MOVE_IS_PASS;
        snprintf(f->why, sizeof f->why, _("%s owns no stones to sow"),
                 mc_side_word(p->side));
        return 1;
    }
    if (m == MV_ACCEPT || m == MV_REFUSE) {
        f->kind = m == MV_ACCEPT ? MC_MOVE_IS_ACCEPT : MC_MOVE_IS_REFUSE;
        f->pits = p->offer;
        f->price = PRICE * popcount8(p->offer);
        return 1;
    }
    if (m >= MV_OFFER_BASE) {
        f->kind = MC_MOVE_IS_OFFER;
        f->pits = (uint32_t)(m - MV_OFFER_BASE) & 0xFFu;
        f->price = PRICE * popcount8(f->pits);
        return 1;
    }
    return 0;
}

/*
 * The invariants of every position (game.h: pos_ok): 8 pits, the others
 * and `first` zero; pits + captures at most 48 (G1: captures take stones
 * off the board, an accepted offer puts them back, gr_play checks the sum
 * stays; a parsed position has all 48, the solver's tests play smaller
 * boards); each player owns a pit (G6);
 * a pending offer names 1 to 3 of the offerer's pits, not all of them,
 * that the side to move can pay for, and excludes `answered`; without
 * trades neither occurs; `last` holds only the G7 refusal bits.
 */
static int gr_pos_ok(const mc_game *g, const mc_pos *p)
{
    assert(p->side == MC_SOUTH || p->side == MC_NORTH);
    for (int i = NP; i < MC_MAX_PITS; i++)
        assert(p->pit[i] == 0);
    assert(p->first == 0);
    assert(gr_total(g, p) <= 48);
    assert(p->own != 0 && p->own != 0xFF);
    assert(!(p->flags & ~FLAG_ANSWERED));
    assert(!(p->last & ~(LAST_REFUSED(0) | LAST_REFUSED(1))));
    if (p->offer) {
        unsigned theirs = owned(p, 1 - p->side);
        int k = popcount8(p->offer);
        assert(g->opt[OPT_TRADES] == TRADES_ON && !p->flags);
        assert(!(p->offer & ~theirs) && p->offer != theirs);
        assert(k <= MAX_OFFER && p->cap[p->side] >= PRICE * k);
    }
    if (g->opt[OPT_TRADES] == TRADES_OFF)
        assert(p->flags == 0);
    return 1;
}

/* ---- notation ---- */

static int letter_index(char c)
{
    const char *q = c ? strchr(letters, c) : NULL;
    return q ? (int)(q - letters) : -1;
}

static const char pos_form[] =
    N_("expected '<A,B,C,D>/<a,b,c,d> <S|N> own=<8 letters S|N> "
       "cap=<South>,<North>' and, while an offer awaits an answer, "
       "' offer=<pits>', or ' answered' after one; e.g. "
       "'6,6,6,6/6,6,6,6 S own=SSSSNNNN cap=0,0'");

/* Field 3, "own=" and the owner of each pit (G6: each keeps one), into
   p->own; *rest: the field after it. */
static int parse_owners(const char *e, mc_pos *p, const char **rest,
                        mc_error *err)
{
    if (strncmp(e, "own=", 4) != 0)
        return mc_err(err, MC_ERR_POSITION,
                      _("field 3: expected 'own=' and 8 letters S or N, the "
                        "owner of each pit A,B,C,D,a,b,c,d (start: "
                        "own=SSSSNNNN)"));
    e += 4;
    p->own = 0;
    for (int i = 0; i < NP; i++) {
        if (e[i] != 'S' && e[i] != 'N')
            return mc_err(err, MC_ERR_POSITION,
                          _("field 3 (own=): expected 8 letters S or N, one "
                            "per pit A,B,C,D,a,b,c,d; letter %d is %s"),
                          i + 1, e[i] ? "neither S nor N" : "missing");
        if (e[i] == 'N')
            p->own = (uint8_t)(p->own | 1u << i);
    }
    e += NP;
    if (*e != ' ')
        return mc_err(err, MC_ERR_POSITION,
                      _("field 3 (own=) must have exactly 8 letters, followed "
                        "by one space and cap=<South>,<North>"));
    if (p->own == 0 || p->own == 0xFF)
        return mc_err(err, MC_ERR_POSITION,
                      _("field 3 (own=): %s owns no pit, but a player always "
                        "keeps at least one (G6)"),
                      p->own ? "South" : "North");
    *rest = e + 1;
    return 0;
}

/* Field 4, "cap=<South>,<North>", and the total of G1; *rest: what
   follows it. */
static int parse_captures(const char *e, mc_pos *p, const char **rest,
                          mc_error *err)
{
    if (strncmp(e, "cap=", 4) != 0)
        return mc_err(err, MC_ERR_POSITION,
                      _("field 4: expected 'cap=<South>,<North>', the stones "
                        "each player has captured"));
    uint8_t c[2];
    if (mc_parse_counts(e + 4, 2, 48, c, rest, N_("captures (field 4, cap=)"),
                        err))
        return MC_ERR_POSITION;
    p->cap[0] = c[0];
    p->cap[1] = c[1];
    int total = board_total(p) + c[0] + c[1];
    if (total != 48)
        return mc_err(err, MC_ERR_POSITION,
                      _("pits and captures total %d stones, not 48 (G1)"),
                      total);
    return 0;
}

/* Field 5's pits after "offer=": 1 to 3 of the offerer's (the side not
   to move), not all of them, that the side to move can pay for (G6). */
static int parse_offer(const char *e, mc_pos *p, mc_error *err)
{
    unsigned mask = 0;
    int last = -1, k = 0;
    for (; *e; e++, k++) {
        int i = letter_index(*e);
        if (i < 0)
            return mc_err(err, MC_ERR_POSITION,
                          _("field 5 (offer=): '%c' is not a pit letter "
                            "(A-D, a-d)"),
                          *e);
        if (i <= last)
            return mc_err(err, MC_ERR_POSITION,
                          _("field 5 (offer=): the pits must be listed once "
                            "each, in index order A,B,C,D,a,b,c,d"));
        last = i;
        mask |= 1u << i;
    }
    int offerer = 1 - p->side;
    unsigned theirs = owned(p, offerer);
    if (k < 1 || k > MAX_OFFER)
        return mc_err(err, MC_ERR_POSITION,
                      _("field 5 (offer=): an offer names 1 to 3 pits, not %d"),
                      k);
    if (mask & ~theirs)
        return mc_err(err, MC_ERR_POSITION,
                      _("field 5 (offer=): the offer is %s's (the side not to "
                        "move) and may only name pits %s owns"),
                      mc_side_word(offerer), mc_side_word(offerer));
    if (mask == theirs)
        return mc_err(err, MC_ERR_POSITION,
                      _("field 5 (offer=): it would cede every pit %s owns; "
                        "a player keeps at least one (G6)"),
                      mc_side_word(offerer));
    if (p->cap[p->side] < PRICE * k)
        return mc_err(err, MC_ERR_POSITION,
                      P_("field 5 (offer=): %1$d pit costs %2$d captured "
                         "stones, but %3$s has only %4$d (G6)",
                         "field 5 (offer=): %1$d pits cost %2$d captured "
                         "stones, but %3$s has only %4$d (G6)",
                         k),
                      k, PRICE * k, mc_side_word(p->side), p->cap[p->side]);
    p->offer = (uint8_t)mask;
    return 0;
}

static int gr_pos_parse(const mc_game *g, const char *s, mc_pos *p,
                        mc_error *err)
{
    const char *e;
    const mc_head_fmt head = {4,
                              48,
                              {N_("pits A-D (field 1, South's row)"),
                               N_("pits a-d (field 1, North's row)")},
                              N_("the 4 pits A-D"),
                              "own=<8 letters S|N>",
                              pos_form};
    if (mc_parse_head(s, &head, p, &e, err) || parse_owners(e, p, &e, err) ||
        parse_captures(e, p, &e, err))
        return MC_ERR_POSITION;
    if (*e == '\0')
        return 0;
    if (*e != ' ')
        return mc_err(err, MC_ERR_POSITION,
                      _("field 4 (cap=): unexpected text '%.20s'"), e);
    e++;
    if (strcmp(e, "answered") == 0) {
        if (g->opt[OPT_TRADES] == TRADES_OFF)
            return mc_err(err, MC_ERR_POSITION,
                          _("field 5: 'answered' cannot occur with trades=off "
                            "(there are no offers)"));
        p->flags = FLAG_ANSWERED;
        return 0;
    }
    if (strncmp(e, "offer=", 6) != 0)
        return mc_err(err, MC_ERR_POSITION,
                      _("field 5: expected 'offer=<pits>' or 'answered' (or "
                        "nothing), found '%.20s'"),
                      e);
    if (g->opt[OPT_TRADES] == TRADES_OFF)
        return mc_err(err, MC_ERR_POSITION,
                      _("field 5: an offer cannot occur with trades=off"));
    return parse_offer(e + 6, p, err);
}

static size_t gr_pos_format(const mc_game *g, const mc_pos *p, char *buf,
                            size_t n)
{
    (void)g;
    mc_sb b;
    mc_sb_init(&b, buf, n);
    mc_format_head(&b, p, 4);
    mc_sb_printf(&b, " own=");
    for (int i = 0; i < NP; i++)
        mc_sb_putc(&b, (p->own >> i & 1) ? 'N' : 'S');
    mc_sb_printf(&b, " cap=%d,%d", p->cap[0], p->cap[1]);
    if (p->offer) {
        mc_sb_printf(&b, " offer=");
        mask_letters(&b, p->offer, "");
    } else if (p->flags & FLAG_ANSWERED) {
        mc_sb_printf(&b, " answered");
    }
    return b.len;
}

/* The legal moves as text, for error messages. */
static void legal_list(const mc_game *g, const mc_pos *p, char *buf, size_t n);

/* Explain why `side` may not offer the pits of mask, or return 0. */
static int offer_error(const mc_game *g, const mc_pos *p, unsigned mask,
                       const char *tok, mc_error *err)
{
    int side = p->side, other = 1 - side;
    unsigned mine = owned(p, side);
    int k = popcount8(mask);
    char mine_s[32];
    mc_sb b;
    mc_sb_init(&b, mine_s, sizeof mine_s);
    mask_letters(&b, mine, " ");
    if (g->opt[OPT_TRADES] == TRADES_OFF)
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("there are no offers in this game (trades=off)"));
    if (p->flags & FLAG_ANSWERED)
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s has just answered an offer and must now sow (or "
                        "pass); no offer in the same turn (G6)"),
                      mc_side_word(side));
    if (mask & ~mine) {
        int i = 0;
        while (!((mask & ~mine) >> i & 1))
            i++;
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s: pit %c is %s's; %s can only offer pits it owns "
                        "(%s)"),
                      tok, letters[i], mc_side_word(other), mc_side_word(side),
                      mine_s);
    }
    if (k > MAX_OFFER)
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s names %d pits; an offer is of 1, 2 or 3 pits (G6)"),
                      tok, k);
    if (mask == mine)
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s would cede every pit %s owns (%s); a player must "
                        "keep at least one (G6)"),
                      tok, mc_side_word(side), mine_s);
    if (p->cap[other] < PRICE * k) {
        int can = affordable(p, other);
        return mc_err(err, MC_ERR_ILLEGAL,
                      /* TRANSLATORS: %1$s the offer (its token, or "the
                         offer of A, C"), %2$d its pits, %3$s the side that
                         would pay %4$d, %5$d what it has, %6$s how many
                         pits that pays for */
                      P_("%1$s cannot be paid: %2$d pit would cost %3$s %4$d "
                         "captured stones (6 a pit), but %3$s has only %5$d, "
                         "%6$s (G6)",
                         "%1$s cannot be paid: %2$d pits would cost %3$s %4$d "
                         "captured stones (6 a pit), but %3$s has only %5$d, "
                         "%6$s (G6)",
                         k),
                      tok, k, mc_side_word(other), PRICE * k, p->cap[other],
                      can == 0   ? _("not enough for any offer")
                      : can == 1 ? _("enough for 1 pit")
                                 : _("enough for 2 pits"));
    }
    return 0;
}

/* Parse the pits of an offer: letters, optionally separated by spaces or
   commas, any order; returns the mask, or -1 with err filled. */
static int parse_offer_pits(const char *s, const char *tok, mc_error *err)
{
    unsigned mask = 0;
    for (; *s; s++) {
        if (*s == ' ' || *s == ',')
            continue;
        int i = letter_index(*s);
        if (i < 0) {
            mc_err(err, MC_ERR_MOVE,
                   _("'%.30s': '%c' is not a pit letter; an offer names pits "
                     "A-D, a-d, e.g. offer:AC"),
                   tok, *s);
            return -1;
        }
        if (mask >> i & 1) {
            mc_err(err, MC_ERR_MOVE, _("'%.30s' names pit %c twice"), tok, *s);
            return -1;
        }
        mask |= 1u << i;
    }
    return (int)mask;
}

/* What `side` may offer now, in words, for a bare "offer": the pits, how
   many, and what the opponent would pay. */
static int offer_menu(const mc_game *g, const mc_pos *p, mc_error *err)
{
    int side = p->side, other = 1 - side;
    unsigned mine = owned(p, side);
    if (g->opt[OPT_TRADES] == TRADES_OFF || (p->flags & FLAG_ANSWERED))
        return offer_error(g, p, mine & (0u - mine), _("an offer"), err);
    if (popcount8(mine) < 2)
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s owns only one pit and must keep it, so it cannot "
                        "offer (G6)"),
                      mc_side_word(side));
    int k = affordable(p, other);
    if (k == 0)
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("no offer is possible: %s would pay 6 captured "
                        "stones a pit but has only %d (G6)"),
                      mc_side_word(other), p->cap[other]);
    char mine_s[32];
    mc_sb b;
    mc_sb_init(&b, mine_s, sizeof mine_s);
    mask_letters(&b, mine, " ");
    int first = 0;
    while (!(mine >> first & 1))
        first++;
    int most = popcount8(mine) - 1 < k ? popcount8(mine) - 1 : k;
    return mc_err(err, MC_ERR_MOVE,
                  _("name the pits to offer, e.g. offer:%c: %s owns %s and "
                    "may offer %s of them, keeping at least one; %s has %d "
                    "captured stones and would pay 6 a pit if it accepts "
                    "(1 pit: 6%s%s)"),
                  letters[first], mc_side_word(side), mine_s,
                  most >= 3   ? _("1 to 3")
                  : most == 2 ? _("1 or 2")
                              : "1",
                  mc_side_word(other), p->cap[other],
                  most >= 2 ? ", 2: 12" : "", most >= 3 ? ", 3: 18" : "");
}

static int gr_move_parse(const mc_game *g, const mc_pos *p, const char *s,
                         mc_move *m, mc_error *err);

/* mc_offer_move: why the offer may not be made, as a player's token is
   read, but told as "the offer of A, C" (a player's words, not a token). */
static int gr_offer_move(const mc_game *g, const mc_pos *p, uint32_t pits,
                         mc_move *m, mc_error *err)
{
    if (pits == 0 || pits >> NP)
        return mc_err(err, MC_ERR_ARG, _("an offer names pits A-D, a-d"));
    if (p->offer)
        return gr_move_parse(g, p, "offer", m, err); /* answer first */
    char letters_s[24], words[96];
    mc_sb b;
    mc_sb_init(&b, letters_s, sizeof letters_s);
    mask_letters(&b, pits, ", ");
    /* TRANSLATORS: an offer named in an error message: its pits */
    snprintf(words, sizeof words, _("the offer of %s"), letters_s);
    int rc = offer_error(g, p, pits, words, err);
    if (rc)
        return rc;
    *m = MV_OFFER_BASE + pits;
    return 0;
}

static int gr_move_parse(const mc_game *g, const mc_pos *p, const char *s,
                         mc_move *m, mc_error *err)
{
    int side = p->side, other = 1 - side;
    unsigned mine = owned(p, side);
    char legal[256];
    if (p->offer) {
        if (strcmp(s, "accept") == 0) {
            *m = MV_ACCEPT;
            return 0;
        }
        if (strcmp(s, "refuse") == 0) {
            *m = MV_REFUSE;
            return 0;
        }
        char pits[16];
        mc_sb b;
        mc_sb_init(&b, pits, sizeof pits);
        mask_letters(&b, p->offer, ", ");
        int k = popcount8(p->offer);
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s has offered %s %s: answer first with accept "
                        "(%s pays %d of its %d captured stones, 6 into each "
                        "pit) or refuse, then sow or pass"),
                      mc_side_word(other), mc_side_word(side), pits,
                      mc_side_word(side), PRICE * k, p->cap[side]);
    }
    if (strcmp(s, "accept") == 0 || strcmp(s, "refuse") == 0)
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("there is no offer to %s: %s has not offered any pit"),
                      s, mc_side_word(other));
    if (strcmp(s, "pass") == 0) {
        if (stones_in(p, mine) == 0) {
            *m = MV_PASS;
            return 0;
        }
        legal_list(g, p, legal, sizeof legal);
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%s cannot pass while owning stones (%d in its "
                        "pits); passing is only for a player whose pits are "
                        "all empty (G2) (legal: %s)"),
                      mc_side_word(side), stones_in(p, mine), legal);
    }
    if (strncmp(s, "offer", 5) == 0) {
        const char *q = s + 5;
        if (*q == '\0')
            return offer_menu(g, p, err);
        if (*q != ':' && *q != ' ')
            return mc_err(err, MC_ERR_MOVE,
                          _("'%.30s' is not a move: write an offer as "
                            "offer:<pits>, e.g. offer:AC"),
                          s);
        int mask = parse_offer_pits(q + 1, s, err);
        if (mask < 0)
            return MC_ERR_MOVE;
        if (mask == 0)
            return offer_menu(g, p, err);
        int rc = offer_error(g, p, (unsigned)mask, s, err);
        if (rc)
            return rc;
        *m = MV_OFFER_BASE + (unsigned)mask;
        return 0;
    }
    int i = s[1] == '\0' ? letter_index(s[0]) : -1;
    if (i < 0)
        return mc_err(err, MC_ERR_MOVE,
                      _("'%.30s' is not a move: a move is a pit letter to sow "
                        "(A-D, a-d), offer:<pits> (e.g. offer:AC), accept, "
                        "refuse or pass"),
                      s);
    if (!(mine >> i & 1)) {
        char mine_s[32];
        mc_sb b;
        mc_sb_init(&b, mine_s, sizeof mine_s);
        mask_letters(&b, mine, " ");
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("pit %s is %s's; %s sows only the pits it owns (%s)"),
                      s, mc_side_word(other), mc_side_word(side), mine_s);
    }
    if (p->pit[i] == 0) {
        legal_list(g, p, legal, sizeof legal);
        return mc_err(err, MC_ERR_ILLEGAL, _("pit %s is empty (legal: %s)"), s,
                      legal);
    }
    *m = (mc_move)i;
    return 0;
}

static size_t gr_move_format(const mc_game *g, const mc_pos *p, mc_move m,
                             char *buf, size_t n)
{
    (void)g;
    (void)p;
    mc_sb b;
    mc_sb_init(&b, buf, n);
    if (m < NP)
        mc_sb_putc(&b, letters[m]);
    else if (m == MV_PASS)
        mc_sb_printf(&b, "pass");
    else if (m == MV_ACCEPT)
        mc_sb_printf(&b, "accept");
    else if (m == MV_REFUSE)
        mc_sb_printf(&b, "refuse");
    else if (m > MV_OFFER_BASE && m < MV_OFFER_BASE + 256) {
        mc_sb_printf(&b, "offer:");
        mask_letters(&b, (unsigned)(m - MV_OFFER_BASE), "");
    } else
        mc_sb_putc(&b, '?');
    return b.len;
}

static void legal_list(const mc_game *g, const mc_pos *p, char *buf, size_t n)
{
    mc_move mv[MC_MAX_MOVES];
    int k = gr_moves(g, p, mv);
    mc_sb b;
    mc_sb_init(&b, buf, n);
    for (int i = 0; i < k && b.len + 12 < n; i++) {
        char tok[MC_MOVE_STRLEN];
        gr_move_format(g, p, mv[i], tok, sizeof tok);
        mc_sb_printf(&b, "%s%s", i ? " " : "", tok);
    }
}

/* ---- drawing and explaining ---- */

static void gr_layout(const mc_game *g, mc_layout *l)
{
    (void)g;
    mc_layout_two_rows(l, 4);
    l->stores = 1;
    l->store_name = _("captured");
}

static const char *gr_pit_name(const mc_game *g, int pit)
{
    (void)g;
    return pit_names[pit & 7];
}

static int gr_pit_owner(const mc_game *g, const mc_pos *p, int pit)
{
    (void)g;
    return (p->own >> (pit & 7)) & 1;
}

static size_t gr_describe(const mc_game *g, const mc_trace_event *e, char *buf,
                          size_t n)
{
    (void)g;
    mc_sb b;
    mc_sb_init(&b, buf, n);
    const char *h = pit_names[e->pit & 7];
    int side = e->aux & 1;
    switch (e->kind) {
    case MC_TR_LIFT:
        mc_sb_printf(
            &b, P_("lifts %u stone from %s", "lifts %u stones from %s", e->n),
            e->n, h);
        break;
    case MC_TR_DROP:
        mc_sb_printf(&b, _("drops a stone in %s (now %u)"), h, e->n);
        break;
    case MC_TR_SKIP:
        mc_sb_printf(&b, _("skips %s, the pit the stones came from"), h);
        break;
    case MC_TR_CAPTURE:
        mc_sb_printf(&b, _("%s captures %u from %s"), mc_side_word(side), e->n,
                     h);
        break;
    case MC_TR_END:
        mc_sb_printf(&b, _("the last stone falls in %s (now %u)"), h, e->n);
        break;
    case MC_TR_PASS:
        mc_sb_printf(&b, _("%s owns no stones and passes"), mc_side_word(side));
        break;
    case MC_TR_TRADE: {
        char pits[16];
        mc_sb pb;
        mc_sb_init(&pb, pits, sizeof pits);
        mask_letters(&pb, e->pit, ", ");
        int kind = e->aux >> 1;
        int one = (e->pit & (e->pit - 1)) == 0;
        if (kind == TRADE_OFFER)
            mc_sb_printf(&b,
                         _("%s offers %s to %s, who may accept, paying %u "
                           "captured stones (6 a pit), or refuse"),
                         mc_side_word(side), pits, mc_side_word(1 - side),
                         e->n);
        else if (kind == TRADE_ACCEPT)
            mc_sb_printf(&b,
                         one ? _("%1$s accepts %2$s, paying %3$u captured "
                                 "stones (6 into it); it is %1$s's now")
                             : _("%1$s accepts %2$s, paying %3$u captured "
                                 "stones (6 into each); they are %1$s's now"),
                         mc_side_word(side), pits, e->n);
        else
            mc_sb_printf(&b,
                         _("%s refuses the offer of %s (recorded: a win by %s "
                           "will be a victory without glory)"),
                         mc_side_word(side), pits, mc_side_word(side));
        break;
    }
    default:
        mc_sb_printf(&b, "?");
    }
    return b.len;
}

/*
 * Evaluation for the search, in hundredths of a stone from the mover's
 * view: captured stones, and half the stones in the pits one owns (G5 gives
 * them to their owner at the end, if they are not captured first).
 */
static int gr_eval(const mc_game *g, const mc_pos *p, const int *w)
{
    (void)g;
    (void)w; /* no tuned weights */
    int me = p->side, owned = 0;
    for (int i = 0; i < 8; i++) {
        int north = (p->own >> i) & 1;
        owned += north == me ? p->pit[i] : -p->pit[i];
    }
    return 100 * ((int)p->cap[me] - (int)p->cap[1 - me]) + 50 * owned;
}

/*
 * Features of the learned evaluation (learned.c), from the mover's view,
 * the board turned so that the mover's first pit comes first: each pit's
 * stones (0..15+) by who owns it, the pits each side owns, each side's
 * captures (0..40+), and whether an offer waits for the mover or has been
 * answered.
 */
enum {
    GF_BIAS = 0,
    GF_PIT = 1,                     /* 8 pits x 2 owners x 16 */
    GF_OWNED = GF_PIT + 8 * 2 * 16, /* 9 */
    GF_CAP = GF_OWNED + 9,          /* 2 x 41 */
    GF_OFFER = GF_CAP + 2 * 41,     /* 2 */
    GF_N = GF_OFFER + 2
};

static const mc_feat_group gr_groups[] = {
    {"bias", 1},
    {"pit", 256},
    {"owned.mine", 9},
    {"captures.mine", 41},
    {"captures.theirs", 41},
    {"offer", 2},
    {NULL, 0},
};

static int gr_features(const mc_game *g, const mc_pos *p, mc_feature *f)
{
    (void)g;
    int k = 0, me = p->side, owned = 0;
    f[k++] = (mc_feature){GF_BIAS, 1};
    for (int j = 0; j < NP; j++) {
        int i = (j + 4 * me) % NP;
        int mine = ((p->own >> i) & 1) == me;
        owned += mine;
        int c = p->pit[i] > 15 ? 15 : p->pit[i];
        f[k++] = (mc_feature){(uint16_t)(GF_PIT + 32 * j + 16 * !mine + c), 1};
    }
    f[k++] = (mc_feature){(uint16_t)(GF_OWNED + owned), 1};
    for (int r = 0; r < 2; r++) {
        int c = p->cap[r == 0 ? me : 1 - me];
        f[k++] =
            (mc_feature){(uint16_t)(GF_CAP + 41 * r + (c > 40 ? 40 : c)), 1};
    }
    if (p->offer)
        f[k++] = (mc_feature){GF_OFFER, 1};
    if (p->flags & FLAG_ANSWERED)
        f[k++] = (mc_feature){GF_OFFER + 1, 1};
    return k;
}

/* Machine learning (docs/PYTHON.md).  Pits are seen from the mover: the
   ring turned so that the mover's first pit of the start (A for South, a
   for North) is 0, i.e. relative index r = (pit - 4 * side) mod 8.  The
   action of a sowing is r (0..7), pass 8, accept 9, refuse 10, an offer
   11 + the mask of its relative pits (12..266).  The observation: the 8
   relative pits' stones, 8 flags "the mover owns it", 8 flags "offered to
   the mover", 1 when the mover has answered an offer (must sow or pass),
   the mover's and the opponent's captured stones. */
static unsigned gr_turn_mask(unsigned mask, int side)
{
    if (!side)
        return mask;
    return ((mask >> 4) | (mask << 4)) & 0xFFu;
}

static long gr_action_index(const mc_game *g, const mc_pos *p, mc_move m)
{
    (void)g;
    if (m < NP)
        return (long)((m + NP - 4 * p->side) % NP);
    if (m == MV_PASS || m == MV_ACCEPT || m == MV_REFUSE)
        return (long)m;
    return 11 +
           (long)gr_turn_mask((unsigned)(m - MV_OFFER_BASE) & 0xFFu, p->side);
}

static void gr_observe(const mc_game *g, const mc_pos *p, float *out)
{
    (void)g;
    const int s = p->side;
    for (int r = 0; r < NP; r++) {
        int i = (r + 4 * s) % NP;
        int north = p->own >> i & 1;
        out[r] = p->pit[i];
        out[NP + r] = north == s;
        out[2 * NP + r] = p->offer >> i & 1;
    }
    out[3 * NP] = (p->flags & FLAG_ANSWERED) != 0;
    out[3 * NP + 1] = p->cap[s];
    out[3 * NP + 2] = p->cap[1 - s];
}

/* The solved tables (src/egdb/retro.c, docs/SOLVED.md): without trades
   ownership never changes (SSSSNNNN), the captures so far decide nothing
   of the play to come, and an endless game divides the board equally, so
   a board's value for its mover is one number, the margin to come.  With
   repetition=owner an endless game's value depends on the board it cycles
   through, and with trades on an offer is always at hand once a player
   has captured 6 (at the least a pass, when refused): neither can be
   solved board by board. */
static int gr_solvable(const mc_game *g, char *name, size_t n, mc_error *err)
{
    if (g->opt[OPT_TRADES] != TRADES_OFF)
        return mc_err(err, MC_ERR_SPEC,
                      _("gore can be solved only without trades "
                        "(gore:trades=off): with trades an offer is at "
                        "hand whenever the other side has 6 captured"));
    if (g->opt[OPT_REPETITION] != REP_EQUAL)
        return mc_err(err, MC_ERR_SPEC,
                      _("gore:repetition=owner cannot be solved board by "
                        "board: an endless game's value depends on the board "
                        "it repeats"));
    snprintf(name, n, "%s",
             g->opt[OPT_SKIP_ORIGIN] ? "notrades-skip" : "notrades");
    return 0;
}

static void gr_from_board(const mc_game *g, const uint8_t *h, mc_pos *p)
{
    (void)g;
    memset(p, 0, sizeof *p);
    int n = 0;
    for (int i = 0; i < NP; i++)
        n += p->pit[i] = h[i];
    /* The other stones captured, half each (the margin to come does not
       depend on them). */
    p->cap[0] = (uint16_t)((48 - n + 1) / 2);
    p->cap[1] = (uint16_t)((48 - n) / 2);
    p->own = 0xF0;
    p->side = MC_SOUTH;
}

static int gr_to_board(const mc_game *g, const mc_pos *p, uint8_t *h)
{
    if (g->opt[OPT_TRADES] != TRADES_OFF || p->own != 0xF0 || p->offer ||
        (p->flags & FLAG_ANSWERED))
        return 0;
    int o = p->side == MC_SOUTH ? 0 : 4;
    for (int i = 0; i < NP; i++)
        h[i] = p->pit[(i + o) & 7];
    return 1;
}

static const char *const gr_retro_keys[] = {"skip_origin", "repetition",
                                            "trades", NULL};

static const mc_retro gr_retro = {
    .keys = gr_retro_keys,
    .houses = NP,
    .max_seeds = 48,
    .wdl = 0,
    .solvable = gr_solvable,
    .from_board = gr_from_board,
    .to_board = gr_to_board,
};

const mc_rules mc_rules_gore = {
    .eval = gr_eval,
    .features = gr_features,
    .nfeat = GF_N,
    .feat_groups = gr_groups,
    .name = "gore",
    .title = N_("Gore (Guro, Cote d'Ivoire; Climent 2009)"),
    .unit = N_("stone"),
    .units = N_("stones"),
    .npits = NP,
    .opts = gr_opts,
    .presets = NULL,
    .start = gr_start,
    .moves = gr_moves,
    .play = gr_play,
    .status = gr_status,
    .total = gr_total,
    .pos_ok = gr_pos_ok,
    .pos_parse = gr_pos_parse,
    .pos_format = gr_pos_format,
    .move_parse = gr_move_parse,
    .offer_move = gr_offer_move,
    .move_format = gr_move_format,
    .layout = gr_layout,
    .pit_name = gr_pit_name,
    .pit_owner = gr_pit_owner,
    .describe = gr_describe,
    .move_facts = gr_move_facts,
    .move_words = gr_move_words,
    .result_words = gr_result_words,
    .nactions = 267,
    .action_index = gr_action_index,
    .obs_size = 27,
    .observe = gr_observe,
    .retro = &gr_retro,
    /* K 591.1: data/eval/gore.txt's fit (303,774 positions of 3,000 self-play
       games). */
    .win_scale = 591.1,
    .score_in_seeds = 1,
};
