/*
 * oware.c - Oware, Abapa rules (rules/oware.md, O1-O10) with every option.
 *
 * Houses 0..5 are South's (A..F), 6..11 North's (a..f); a move is the index
 * of the house emptied.  History rules (O8b repetition) are decided from the
 * mc_hist the session passes in; the rest depends on the position only.
 */
#include <string.h>

#include "../core/util.h"
#include "game.h"

enum {
    OPT_GRAND_SLAM,
    OPT_REPETITION,
    OPT_CYCLE_SPLIT,
    OPT_POST_WIN,
    OPT_FIRST,
    OPT_MATCH,
    OPT_SEEDS
};
enum { GS_FORFEIT, GS_WIN25, GS_ILLEGAL_UNLESS_ONLY, GS_ILLEGAL };

static const char *const v_grand_slam[] = {
    "forfeit", "win25", "illegal_unless_only", "illegal", NULL};
static const char *const v_repetition[] = {"first", "threefold", NULL};
static const char *const v_cycle_split[] = {"ownership", "even", NULL};
static const char *const v_post_win[] = {"none", "ownership", NULL};
static const char *const v_first[] = {"south", "north", NULL};
static const char *const v_match[] = {"single", "bo3",    "bo5", "antigua",
                                      "kumasi", "yoruba", NULL};
static const char *const v_seeds[] = {"48", "any", NULL};

/* O10: the match formats, in v_match's order. */
static mc_match_fmt ow_match_format(const mc_game *g)
{
    static const mc_match_fmt fmts[] = {
        {MC_FMT_SINGLE, 1},  {MC_FMT_FIRST_TO, 2}, {MC_FMT_FIRST_TO, 3},
        {MC_FMT_ANTIGUA, 6}, {MC_FMT_FIRST_TO, 5}, {MC_FMT_YORUBA, 3}};
    return fmts[g->opt[OPT_MATCH]];
}

static const mc_optdef ow_opts[] = {
    {"grand_slam", v_grand_slam, 0, 0, 0,
     N_("O6: a capture that would take all the opponent's seeds")},
    {"repetition", v_repetition, 0, 0, 0,
     N_("O8b: end at the first recurrence of a position, or the third")},
    {"cycle_split", v_cycle_split, 0, 0, 0,
     N_("O8b: remaining seeds to the row's owner, or half each")},
    {"post_win_collect", v_post_win, 0, 0, 0,
     N_("O9: after a 25+ win, leave the board seeds or give them to the "
        "owners")},
    {"first", v_first, 0, 0, 0, N_("O1: who moves first")},
    {"match", v_match, 0, 0, 0, N_("O10: match format")},
    {"seeds", v_seeds, 0, 0, 0,
     N_("accept positions whose total is not 48 (tests, databases)")},
    {NULL, NULL, 0, 0, 0, NULL},
};

static const mc_preset ow_presets[] = {
    {"awari", "grand_slam=illegal_unless_only,repetition=threefold,"
              "cycle_split=even"},
    {"abapa", "grand_slam=forfeit,repetition=first,cycle_split=ownership"},
    {NULL, NULL},
};

#define NH 12
static const char *const letters[NH] = {"A", "B", "C", "D", "E", "F",
                                        "a", "b", "c", "d", "e", "f"};

static void ow_start(const mc_game *g, mc_pos *p)
{
    for (int i = 0; i < NH; i++)
        p->pit[i] = 4;
    p->side = g->opt[OPT_FIRST] == 1 ? MC_NORTH : MC_SOUTH;
}

static inline int row_empty(const uint8_t *h, int side)
{
    const uint8_t *r = h + 6 * side;
    return (r[0] | r[1] | r[2] | r[3] | r[4] | r[5]) == 0;
}

static int row_sum(const uint8_t *h, int side)
{
    const uint8_t *r = h + 6 * side;
    return r[0] + r[1] + r[2] + r[3] + r[4] + r[5];
}

static int ow_total(const mc_game *g, const mc_pos *p)
{
    (void)g;
    return row_sum(p->pit, 0) + row_sum(p->pit, 1) + p->cap[0] + p->cap[1];
}

/*
 * The invariants of every position (game.h: pos_ok): 12 houses, the other
 * pits and the fields Oware does not use zero (positions compare with
 * memcmp), and houses + stores = 48 (O1; seeds only move from the houses to
 * the stores), or with seeds=any the houses hold at most 127 (the parser's
 * bound; seeds only leave them).
 */
static int ow_pos_ok(const mc_game *g, const mc_pos *p)
{
    assert(p->side == MC_SOUTH || p->side == MC_NORTH);
    for (int i = NH; i < MC_MAX_PITS; i++)
        assert(p->pit[i] == 0);
    assert(p->first == 0 && p->own == 0 && p->offer == 0 && p->flags == 0);
    if (g->opt[OPT_SEEDS] == 0)
        assert(ow_total(g, p) == 48);
    else
        assert(row_sum(p->pit, 0) + row_sum(p->pit, 1) <= 127);
    return 1;
}

/* Sow house i (O3, O4); returns the house of the last seed. */
static int sow(uint8_t *h, int i, mc_trace *t)
{
    int n = h[i];
    h[i] = 0;
    if (t)
        mc_trace_add(t, MC_TR_LIFT, i, (uint32_t)n, 0);
    if (n < NH && !t) {
        /* i+1 .. i+n without a modulo in the loop: up to the end of the
           ring, then from house 0. */
        int end = i + n;
        int stop = end < NH ? end : NH - 1;
        for (int j = i + 1; j <= stop; j++)
            h[j]++;
        for (int j = 0; j <= end - NH; j++)
            h[j]++;
        return end < NH ? end : end - NH;
    }
    if (!t) {
        /* n >= 12: every other house gets n / 11, the next n % 11 one more. */
        int q = n / 11, r = n % 11;
        for (int j = 0; j < NH; j++)
            h[j] = (uint8_t)(h[j] + q);
        h[i] = 0;
        int j = i;
        for (int k = 0; k < r; k++) {
            if (++j == NH)
                j = 0;
            h[j]++;
        }
        return (i + (n - 1) % 11 + 1) % NH;
    }
    int j = i;
    while (n > 0) {
        if (++j == NH)
            j = 0;
        if (j == i) {
            mc_trace_add(t, MC_TR_SKIP, j, 0, 0);
            continue;
        }
        h[j]++;
        n--;
        mc_trace_add(t, MC_TR_DROP, j, h[j], 0);
    }
    return j;
}

/* The O5 chain ending at `last` for `side`: seeds it would capture and the
   first house of the chain (lowest index); 0 if none. */
static int chain(const uint8_t *h, int side, int last, int *from)
{
    int lo = 6 * (1 - side);
    if (last < lo || last >= lo + 6)
        return 0;
    int sum = 0, j = last;
    while (j >= lo && (h[j] == 2 || h[j] == 3)) {
        sum += h[j];
        j--;
    }
    *from = j + 1;
    /* O5: the chain stays in the opponent's row and never wraps. */
    mc_hot_assert(*from >= lo && *from <= last + 1);
    return sum;
}

/* Would sowing house i capture every seed of the opponent's row? */
static int is_grand_slam(const uint8_t *h0, int side, int i)
{
    uint8_t h[NH];
    memcpy(h, h0, NH);
    int last = sow(h, i, NULL), from;
    int c = chain(h, side, last, &from);
    return c > 0 && c == row_sum(h, 1 - side);
}

/* Moves allowed by O7 (feeding) alone. */
static int feeding_moves(const uint8_t *h, int side, mc_move *out)
{
    int n = 0, base = 6 * side;
    if (row_empty(h, 1 - side)) {
        for (int k = 0; k < 6; k++)
            if (h[base + k] >= 6 - k)
                out[n++] = (mc_move)(base + k);
    } else {
        /* Branch-free: write every house, advance past the non-empty. */
        for (int k = 0; k < 6; k++) {
            out[n] = (mc_move)(base + k);
            n += h[base + k] != 0;
        }
    }
    mc_hot_assert(n <= 6);
    return n;
}

static int ow_moves(const mc_game *g, const mc_pos *p, mc_move *out)
{
    int side = p->side;
    int n = feeding_moves(p->pit, side, out);
    int gs = g->opt[OPT_GRAND_SLAM];
    if (gs == GS_ILLEGAL || gs == GS_ILLEGAL_UNLESS_ONLY) {
        int k = 0;
        for (int i = 0; i < n; i++)
            if (!is_grand_slam(p->pit, side, (int)out[i]))
                out[k++] = out[i];
        if (k > 0 || gs == GS_ILLEGAL)
            n = k;
    }
    return n;
}

/* Does the player to move have a legal move?  (O8c, without listing.) */
static int has_move(const mc_game *g, const mc_pos *p)
{
    int gs = g->opt[OPT_GRAND_SLAM];
    if (gs == GS_ILLEGAL) {
        mc_move mv[6];
        return ow_moves(g, p, mv) > 0;
    }
    /* Otherwise a move is legal whenever O7 allows it. */
    const uint8_t *h = p->pit + 6 * p->side;
    if (row_empty(p->pit, 1 - p->side))
        return h[0] >= 6 || h[1] >= 5 || h[2] >= 4 || h[3] >= 3 || h[4] >= 2 ||
               h[5] >= 1;
    return (h[0] | h[1] | h[2] | h[3] | h[4] | h[5]) != 0;
}

static int ow_play(const mc_game *g, mc_pos *p, mc_move m, mc_trace *t)
{
    int side = p->side, i = (int)m;
    uint8_t *h = p->pit;
    const int total = ow_total(g, p);
    /* O3: one of the mover's own houses, holding seeds. */
    mc_hot_assert(i >= 6 * side && i < 6 * side + 6 && h[i] > 0);
    int last = sow(h, i, t), from = 0;
    /* O4: the emptied house never receives a seed of its own sowing. */
    mc_hot_assert(h[i] == 0 && last != i && last >= 0 && last < NH);
    if (t)
        mc_trace_add(t, MC_TR_END, last, h[last], side);
    int c = chain(h, side, last, &from);
    int flags = 0;
    if (c > 0) {
        int capture = 1;
        if (c == row_sum(h, 1 - side)) {
            /* O6 grand slam. */
            switch (g->opt[OPT_GRAND_SLAM]) {
            case GS_FORFEIT:
                capture = 0;
                break;
            case GS_WIN25:
                capture = p->cap[side] + c >= 25;
                break;
            default: /* illegal variants: legal only when it must capture */
                break;
            }
        }
        if (capture) {
            for (int j = last; j >= from; j--) {
                mc_hot_assert(h[j] == 2 || h[j] == 3); /* O5 */
                if (t)
                    mc_trace_add(t, MC_TR_CAPTURE, j, h[j], side);
                h[j] = 0;
            }
            p->cap[side] = (uint16_t)(p->cap[side] + c);
            flags = MC_PLAY_IRREVERSIBLE | MC_PLAY_RESET_QUIET;
        } else if (t) {
            mc_trace_add(t, MC_TR_NOCAPTURE, last, (uint32_t)c, side);
        }
    }
    p->side = (uint8_t)(1 - side);
    /* Seeds only move from the houses to the mover's store. */
    mc_hot_assert(ow_total(g, p) == total);
    return flags;
}

static void set_scores(mc_result *r, int s2, int n2)
{
    r->score2[0] = s2;
    r->score2[1] = n2;
    r->winner = s2 > n2 ? MC_SOUTH : n2 > s2 ? MC_NORTH : MC_DRAW;
    mc_sb b;
    mc_sb_init(&b, r->detail, sizeof r->detail);
    mc_sb_printf(&b, "%d%s-%d%s", s2 / 2, s2 % 2 ? ".5" : "", n2 / 2,
                 n2 % 2 ? ".5" : "");
}

/* O8b and O8c: where the seeds left on the board go. */
static int ow_result_words(const mc_game *g, const mc_result *r, mc_sb *b)
{
    if (r->reason == MC_END_REPETITION)
        mc_sb_printf(b, "%s",
                     g->opt[OPT_CYCLE_SPLIT] == 1
                         ? _("the same position came back, so the seeds on "
                             "the board are shared equally.")
                         : _("the same position came back, so each player "
                             "takes the seeds in their own row."));
    else if (r->reason == MC_END_NOMOVE)
        mc_sb_printf(b, "%s",
                     _("the player to move has no legal move, so each "
                       "player takes the seeds in their own row."));
    else
        return 0;
    return 1;
}

static void ow_status(const mc_game *g, const mc_pos *p, const mc_hist *h,
                      mc_result *r)
{
    int s = 2 * p->cap[0], n = 2 * p->cap[1];
    if (p->cap[0] >= 25 || p->cap[1] >= 25) {
        /* O8a; O9 says whether the board seeds go to their owners. */
        r->over = 1;
        r->reason = MC_END_CAPTURES;
        if (g->opt[OPT_POST_WIN] == 1)
            set_scores(r, s + 2 * row_sum(p->pit, 0),
                       n + 2 * row_sum(p->pit, 1));
        else
            set_scores(r, s, n);
        return;
    }
    int need = g->opt[OPT_REPETITION] == 1 ? 3 : 2;
    if (h->occurrences >= need) {
        /* O8b */
        r->over = 1;
        r->reason = MC_END_REPETITION;
        int own_s = 2 * row_sum(p->pit, 0), own_n = 2 * row_sum(p->pit, 1);
        if (g->opt[OPT_CYCLE_SPLIT] == 1) {
            int half = (own_s + own_n) / 2;
            set_scores(r, s + half, n + half);
        } else {
            set_scores(r, s + own_s, n + own_n);
        }
        /* Every seed goes to someone (scores are doubled). */
        mc_hot_assert(r->score2[0] + r->score2[1] == 2 * ow_total(g, p));
        return;
    }
    if (!has_move(g, p)) {
        /* O8c: always by ownership */
        r->over = 1;
        r->reason = MC_END_NOMOVE;
        set_scores(r, s + 2 * row_sum(p->pit, 0), n + 2 * row_sum(p->pit, 1));
        mc_hot_assert(r->score2[0] + r->score2[1] == 2 * ow_total(g, p));
    }
}

static int ow_pos_parse(const mc_game *g, const char *s, mc_pos *p,
                        mc_error *err)
{
    const int any = g->opt[OPT_SEEDS] == 1;
    const int max = any ? 127 : 48;
    const char *e;
    static const char form[] =
        N_("expected '<A..F>/<a..f> <S|N> cap=<South>,<North>', e.g. "
           "'4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0'");
    const mc_head_fmt head = {
        6,
        max,
        {N_("South's houses (field 1)"), N_("North's houses (field 1)")},
        N_("South's 6 houses"),
        "cap=<South>,<North>",
        form};
    if (mc_parse_head(s, &head, p, &e, err))
        return MC_ERR_POSITION;
    if (strncmp(e, "cap=", 4) != 0)
        return mc_err(err, MC_ERR_POSITION,
                      _("field 3: expected 'cap=<South>,<North>'"));
    e += 4;
    uint8_t c[2];
    const char *f;
    if (mc_parse_counts(e, 2, any ? 255 : 48, c, &f,
                        N_("captures (field 3, cap=)"), err))
        return MC_ERR_POSITION;
    if (*f)
        return mc_err(err, MC_ERR_POSITION,
                      _("unexpected text after field 3: '%.20s'"), f);
    p->cap[0] = c[0];
    p->cap[1] = c[1];
    int board = row_sum(p->pit, 0) + row_sum(p->pit, 1);
    int total = board + c[0] + c[1];
    if (!any && total != 48)
        return mc_err(err, MC_ERR_POSITION,
                      _("houses and captures total %d seeds, not 48 (the "
                        "option seeds=any accepts other totals)"),
                      total);
    if (any && board > 127)
        return mc_err(err, MC_ERR_POSITION,
                      _("the houses hold %d seeds; at most 127 are supported"),
                      board);
    return 0;
}

static size_t ow_pos_format(const mc_game *g, const mc_pos *p, char *buf,
                            size_t n)
{
    (void)g;
    mc_sb b;
    mc_sb_init(&b, buf, n);
    mc_format_head(&b, p, 6);
    mc_sb_printf(&b, " cap=%d,%d", p->cap[0], p->cap[1]);
    return b.len;
}

static size_t list_moves(const mc_move *mv, int n, char *buf, size_t sz)
{
    mc_sb b;
    mc_sb_init(&b, buf, sz);
    for (int i = 0; i < n; i++)
        mc_sb_printf(&b, "%s%s", i ? " " : "", letters[mv[i]]);
    return b.len;
}

static int ow_move_parse(const mc_game *g, const mc_pos *p, const char *s,
                         mc_move *m, mc_error *err)
{
    const char *side_name[2] = {mc_side_word(MC_SOUTH), mc_side_word(MC_NORTH)};
    int side = p->side;
    if (strlen(s) != 1 ||
        !((s[0] >= 'A' && s[0] <= 'F') || (s[0] >= 'a' && s[0] <= 'f')))
        return mc_err(err, MC_ERR_MOVE,
                      _("'%.20s' is not a move: a move is one house letter, "
                        "A-F for South or a-f for North"),
                      s);
    int i = s[0] >= 'a' ? 6 + (s[0] - 'a') : s[0] - 'A';
    if (i / 6 != side)
        return mc_err(err, MC_ERR_ILLEGAL,
                      side ? _("%s is one of South's houses; North moves from "
                               "a-f")
                           : _("%s is one of North's houses; South moves from "
                               "A-F"),
                      s);
    if (p->pit[i] == 0)
        return mc_err(err, MC_ERR_ILLEGAL, _("house %s is empty"), s);
    mc_move mv[MC_MAX_MOVES];
    int n = ow_moves(g, p, mv);
    for (int k = 0; k < n; k++)
        if ((int)mv[k] == i) {
            *m = (mc_move)i;
            return 0;
        }
    char legal[64];
    list_moves(mv, n, legal, sizeof legal);
    if (row_sum(p->pit, 1 - side) == 0) {
        mc_move fm[MC_MAX_MOVES];
        int nf = feeding_moves(p->pit, side, fm);
        int feeds = 0;
        for (int k = 0; k < nf; k++)
            feeds |= (int)fm[k] == i;
        if (!feeds)
            return mc_err(err, MC_ERR_ILLEGAL,
                          /* TRANSLATORS: %1$s the side without seeds,
                             %2$s the side to move, %3$s the move, %4$s
                             the legal moves */
                          _("%1$s has no seeds, so %2$s must play a house "
                            "whose seeds reach %1$s's row (O7); %3$s does "
                            "not (legal: %4$s)"),
                          side_name[1 - side], side_name[side], s,
                          n ? legal : _("none"));
    }
    if (g->opt[OPT_GRAND_SLAM] == GS_ILLEGAL_UNLESS_ONLY)
        /* TRANSLATORS: %1$s the move, %2$s the opponent, %3$s the
           option's value (as it is written), %4$s the legal moves */
        return mc_err(err, MC_ERR_ILLEGAL,
                      _("%1$s would capture every seed %2$s has (a grand "
                        "slam), which grand_slam=%3$s forbids while another "
                        "move is possible (legal: %4$s)"),
                      s, side_name[1 - side],
                      v_grand_slam[g->opt[OPT_GRAND_SLAM]],
                      n ? legal : _("none"));
    /* TRANSLATORS: %1$s the move, %2$s the opponent, %3$s the option's
       value (as it is written), %4$s the legal moves */
    return mc_err(err, MC_ERR_ILLEGAL,
                  _("%1$s would capture every seed %2$s has (a grand slam), "
                    "which grand_slam=%3$s forbids (legal: %4$s)"),
                  s, side_name[1 - side], v_grand_slam[g->opt[OPT_GRAND_SLAM]],
                  n ? legal : _("none"));
}

static size_t ow_move_format(const mc_game *g, const mc_pos *p, mc_move m,
                             char *buf, size_t n)
{
    (void)g;
    (void)p;
    mc_sb b;
    mc_sb_init(&b, buf, n);
    mc_sb_printf(&b, "%s", m < NH ? letters[m] : "?");
    return b.len;
}

static void ow_layout(const mc_game *g, mc_layout *l)
{
    (void)g;
    mc_layout_two_rows(l, 6);
    l->stores = 1;
    l->store_name = _("captured");
}

static const char *ow_pit_name(const mc_game *g, int pit)
{
    (void)g;
    return letters[pit];
}

static int ow_pit_owner(const mc_game *g, const mc_pos *p, int pit)
{
    (void)g;
    (void)p;
    return pit < 6 ? MC_SOUTH : MC_NORTH;
}

static size_t ow_describe(const mc_game *g, const mc_trace_event *e, char *buf,
                          size_t n)
{
    const char *who[2] = {mc_side_word(MC_SOUTH), mc_side_word(MC_NORTH)};
    mc_sb b;
    mc_sb_init(&b, buf, n);
    const char *h = ow_pit_name(g, e->pit);
    switch (e->kind) {
    case MC_TR_LIFT:
        mc_sb_printf(
            &b, P_("lifts %u seed from %s", "lifts %u seeds from %s", e->n),
            e->n, h);
        break;
    case MC_TR_DROP:
        mc_sb_printf(&b, _("drops a seed in %s (now %u)"), h, e->n);
        break;
    case MC_TR_SKIP:
        mc_sb_printf(&b, _("skips %s, the house the seeds came from"), h);
        break;
    case MC_TR_CAPTURE:
        mc_sb_printf(&b, _("%s captures %u from %s"), who[e->aux & 1], e->n, h);
        break;
    case MC_TR_NOCAPTURE:
        mc_sb_printf(&b,
                     _("grand slam: taking %u seeds would leave %s none, so "
                       "nothing is captured"),
                     e->n, who[1 - (e->aux & 1)]);
        break;
    case MC_TR_END:
        mc_sb_printf(&b, _("the last seed falls in %s (now %u)"), h, e->n);
        break;
    default:
        mc_sb_printf(&b, "?");
    }
    return b.len;
}

/*
 * Evaluation for the search, in hundredths of a seed from the mover's view:
 * the difference of the stores, plus small terms for seeds kept on one's own
 * side (they are still to be won) and for the opponent's houses holding 1 or
 * 2 seeds (targets for a capture of 2s and 3s), minus one's own.  Weights
 * were tuned by self-play (docs/SEARCH.md, bench/tune_oware.c, which
 * passes others in w: mc_search_tuning.hand_eval).
 */
static const int ow_eval_w[3] = {100, 15, 10};

static int ow_eval(const mc_game *g, const mc_pos *p, const int *w)
{
    (void)g;
    if (!w || !(w[0] | w[1] | w[2]))
        w = ow_eval_w;
    int me = p->side, op = 1 - me;
    const uint8_t *mine = p->pit + 6 * me, *theirs = p->pit + 6 * op;
    int board = 0, weak = 0;
    for (int i = 0; i < 6; i++) {
        board += mine[i] - theirs[i];
        weak +=
            (theirs[i] == 1 || theirs[i] == 2) - (mine[i] == 1 || mine[i] == 2);
    }
    return w[0] * ((int)p->cap[me] - (int)p->cap[op]) + w[1] * board +
           w[2] * weak;
}

/*
 * Features of the learned evaluation (learned.c), from the mover's view:
 * each side's store (0..25, one-hot), each house's seed count (1..15+) with
 * how many seeds the house its last seed lands in then holds (1..5+: a 2
 * or 3 there on the other side is a capture), empty houses, the houses one
 * can move, and the seeds on each side (0..23+).
 */
enum {
    OF_BIAS = 0,
    OF_CAP = 1,                  /* 2 x 26 */
    OF_REACH = OF_CAP + 2 * 26,  /* 2 sides x 6 houses x (1 + 15 x 5) */
    OF_MOB = OF_REACH + 12 * 76, /* 2 x 7 */
    OF_SIDE = OF_MOB + 2 * 7,    /* 2 x 24 */
    OF_N = OF_SIDE + 2 * 24
};

static const mc_feat_group ow_groups[] = {
    {"bias", 1},           {"store.mine", 26},
    {"store.theirs", 26},  {"reach.mine", 456},
    {"reach.theirs", 456}, {"movable.mine", 7},
    {"movable.theirs", 7}, {"side.mine", 24},
    {"side.theirs", 24},   {NULL, 0},
};

static int ow_features(const mc_game *g, const mc_pos *p, mc_feature *f)
{
    (void)g;
    int k = 0;
    f[k++] = (mc_feature){OF_BIAS, 1};
    for (int r = 0; r < 2; r++) {
        int s = r == 0 ? p->side : 1 - p->side;
        int cap = p->cap[s] > 25 ? 25 : p->cap[s];
        f[k++] = (mc_feature){(uint16_t)(OF_CAP + 26 * r + cap), 1};
        int mob = 0, side = 0;
        for (int i = 0; i < 6; i++) {
            int o = 6 * s + i, c = p->pit[o];
            int base = OF_REACH + 76 * (6 * r + i);
            side += c;
            if (c == 0) {
                f[k++] = (mc_feature){(uint16_t)base, 1};
                continue;
            }
            mob++;
            /* Sowing skips the emptied house: 11 houses a lap. */
            int land, after;
            if (c <= 11) {
                land = o + c < 12 ? o + c : o + c - 12;
                after = p->pit[land] + 1;
            } else {
                land = (o + 1 + (c - 1) % 11) % 12;
                after = p->pit[land] + 1 + (c - 1) / 11;
            }
            int cc = c > 15 ? 15 : c;
            int aa = after > 5 ? 5 : after;
            f[k++] =
                (mc_feature){(uint16_t)(base + 1 + (cc - 1) * 5 + (aa - 1)), 1};
        }
        f[k++] = (mc_feature){(uint16_t)(OF_MOB + 7 * r + mob), 1};
        f[k++] = (mc_feature){
            (uint16_t)(OF_SIDE + 24 * r + (side > 23 ? 23 : side)), 1};
    }
    return k;
}

/* Machine learning (docs/PYTHON.md): the action is the house counted
   from the mover's leftmost, A or a = 0 .. F or f = 5; the observation is
   the mover's six houses, the opponent's six (each in its owner's letter
   order), then the mover's and the opponent's captured seeds. */
static long ow_action_index(const mc_game *g, const mc_pos *p, mc_move m)
{
    (void)g;
    return (long)m - 6 * p->side;
}

static void ow_observe(const mc_game *g, const mc_pos *p, float *out)
{
    (void)g;
    const int me = 6 * p->side, you = 6 - me;
    for (int i = 0; i < 6; i++) {
        out[i] = p->pit[me + i];
        out[6 + i] = p->pit[you + i];
    }
    out[12] = p->cap[p->side];
    out[13] = p->cap[1 - p->side];
}

const mc_rules mc_rules_oware = {
    .eval = ow_eval,
    .features = ow_features,
    .nfeat = OF_N,
    .feat_groups = ow_groups,
    .name = "oware",
    .title = N_("Oware (Abapa rules)"),
    .npits = NH,
    .opts = ow_opts,
    .presets = ow_presets,
    .start = ow_start,
    .moves = ow_moves,
    .play = ow_play,
    .status = ow_status,
    .total = ow_total,
    .pos_ok = ow_pos_ok,
    .pos_parse = ow_pos_parse,
    .pos_format = ow_pos_format,
    .move_parse = ow_move_parse,
    .move_format = ow_move_format,
    .match_format = ow_match_format,
    .layout = ow_layout,
    .pit_name = ow_pit_name,
    .pit_owner = ow_pit_owner,
    .describe = ow_describe,
    .result_words = ow_result_words,
    .nactions = 6,
    .action_index = ow_action_index,
    .obs_size = 14,
    .observe = ow_observe,
    /* K 811.5: data/eval/oware.txt's fit (446,244 positions of 3,953 self-play
       games). */
    .win_scale = 811.5,
    .score_in_seeds = 1,
};
