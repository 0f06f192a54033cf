/*
 * build.c - the layer builder: bounds from the sweep (solve.c), then the
 * stored value (awari: median(P, 0, O); abapa: the exact fresh value F,
 * found where P < O by a history-aware search inside the position's
 * strongly connected component), then the file.  Layers are built
 * bottom-up; a layer already complete on disk, with matching dependency
 * checksums, is kept, so a killed build resumes where it stopped.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/util.h"
#include "egdb_int.h"

/* Work (search nodes) one F search may do before the layer falls back to
   the approximation of shared EGDB.md (approx_cycles). */
static uint64_t f_budget(const mc_egdb_build_opts *o)
{
    return o && o->search_budget ? o->search_budget : 100000;
}

/* Components of more members than this go straight to the approximation
   (unless a journal gives their values): layer 7's giant component
   (26,127 members) is searched in about 2.5 minutes on 2 threads, layer
   8's (65,036) took about 2.6 hours (docs/EGDB.md has the figures). */
static uint32_t f_maxcomp(const mc_egdb_build_opts *o)
{
    return o && o->search_maxcomp ? o->search_maxcomp : 30000;
}

/*
 * The history-aware search for F inside one strongly connected component
 * C.  A state is (member of C, parity of the plies since the root): the
 * same position recurs only at an even distance.  With S the states played
 * since the last capture (the current one included), entering a state of
 * S ends the game, each side taking its row.
 *
 * The search answers tests "can the mover at x, with history S, make at
 * least t?" (values have the parity of n, so "more than -t" is "at least
 * 2 - t").  At each node two co-Buchi games (below) on the graph in which
 * S is terminal bracket the children: a child won by the mover here
 * proves the test, a child won by its own mover refutes its move.  The
 * strategies behind them win with the child added to S as well.  Moves
 * leaving C lead to fresh positions (no state of S is reachable from
 * there): their value is -F(child).  F itself is found by tests between
 * P and O (fc_value).
 */
static int own_diff(int n, uint64_t x)
{
    uint8_t h[12];
    mc_egdb_unrank(n, x, h);
    return eg_terminal(h);
}

/* shared EGDB.md's approximation of an open position (approx_cycles):
   clamp(own split, P, O). */
static int clamp_own(int n, uint64_t x, const eg_bounds *b)
{
    int v = own_diff(n, x);
    return v < b->P[x] ? b->P[x] : v > b->O[x] ? b->O[x] : v;
}

typedef struct fc_log {
    uint32_t y, sig;
    uint8_t g, win;
} fc_log;

typedef struct fcomp {
    int n;
    uint32_t s;             /* members; states are 2 * member + parity */
    int8_t *own;            /* own split of each member */
    int8_t *ebc;            /* best exit or move out of C, or EG_NO_EXIT */
    uint32_t *coff, *cto;   /* children in C, CSR by member */
    uint32_t *poff, *pfrom; /* parents in C, CSR by member */
    /* Over the 2s states: in S, best known move with S terminal; work
       arrays of the co-Buchi games. */
    uint8_t *inS, *cnt, *st;
    int8_t *ebS;
    uint32_t *stack, *vl, *wit, *gto;
    uint8_t *cnt2, *gd;
    uint8_t *safe;      /* bit p: in the safe region of the parity-p mover */
    uint32_t *nsl, nns; /* the states outside both safe regions */
    int thr[2];         /* the test's threshold for each parity's mover */
    int safe_t;         /* the threshold safe is for, or INT_MIN */
    /* The two games kept solved (cb_solve), and the log that undoes them
       (lmark: where each inc_add's entries start). */
    uint8_t *win[2];
    uint32_t *sig[2];
    fc_log *log;
    size_t nlog, logcap;
    size_t *lmark, nlmark, lmarkcap;
    int8_t *undo; /* ebS values saved by s_add */
    uint32_t nundo;
    size_t undocap;
    uint64_t nodes, budget;
    int depth, aborted;
} fcomp;

/* Recursion depth at which a search gives up (each level is a frame). */
#define FC_MAX_DEPTH 20000

/* Add state z to S: its parents lose a move into C \ S and gain the
   repetition's value -own(z).  s_del undoes it (in reverse order). */
static int s_add(fcomp *f, uint32_t z)
{
    uint32_t m = z >> 1, pp = (z & 1) ^ 1;
    mc_hot_assert(z < 2 * f->s && !f->inS[z]);
    /* One saved value per parent (mc_grow needs at least one). */
    uint32_t np = f->poff[m + 1] - f->poff[m];
    if (np) {
        size_t cap =
            mc_grow(&f->undo, f->undocap, (size_t)f->nundo + np, 1, 4096);
        if (!cap)
            return -1;
        f->undocap = cap;
    }
    f->inS[z] = 1;
    for (uint32_t k = f->poff[m]; k < f->poff[m + 1]; k++) {
        uint32_t y = 2 * f->pfrom[k] + pp;
        f->undo[f->nundo++] = f->ebS[y];
        if (-f->own[m] > f->ebS[y])
            f->ebS[y] = (int8_t)-f->own[m];
    }
    return 0;
}

static void s_del(fcomp *f, uint32_t z)
{
    uint32_t m = z >> 1, pp = (z & 1) ^ 1;
    /* undone in reverse order: z's parents' saved values are on top */
    mc_hot_assert(f->inS[z] && f->nundo >= f->poff[m + 1] - f->poff[m]);
    f->inS[z] = 0;
    for (uint32_t k = f->poff[m + 1]; k-- > f->poff[m];)
        f->ebS[2 * f->pfrom[k] + pp] = f->undo[--f->nundo];
}

/*
 * The bracket of a search node: the co-Buchi game on the graph in which S
 * is terminal.  Player X (the mover at the states of parity px) wins it
 * when the play ends in a terminal good for X, or goes on forever visiting
 * the states bad for X to close a cycle at only finitely often.  A
 * memoryless winning strategy of that game also wins the first-cycle game:
 * a play following it that closes a cycle at w has gone round a cycle of
 * the strategy's graph through w, which the other player could make it go
 * round forever, so w is not bad for X.  (The retrograde attractor, where
 * any endless play is lost, is the special case without cycles; the
 * co-Buchi region contains it and is much larger where the cycles have
 * only good states.)  Classic algorithm: R is the other player's attractor
 * to the states bad for X and to its own good terminals; from outside R, X
 * keeps the play away from them for ever, so X's attractor B to the rest
 * (and to X's good terminals) is X's; remove B and repeat until B is empty.
 *
 * Within one test the thresholds of the two parities are fixed, so there
 * are two games, game px for X = the parity-px mover, and a search step
 * changes each by one state joining S.  Both games are kept solved: win[px]
 * marks X's winning states of game px (the rest of the arena is the other
 * player's), sig[px] a memoryless winning strategy of the winner at each
 * arena state (a successor, or FC_TERM for a good terminal).  When z joins
 * S, the winners change only where the old winner's strategy could lead
 * to z: from elsewhere the old winner keeps winning as before, the loser
 * as before (its region is a trap that z is not in).  So inc_add solves
 * the game again on that set D alone (backward reach from z over the
 * winner's strategy moves and all the loser's moves), the states around it
 * fixed; and nothing at all when z was already won by the player it is
 * good for.  Measured on layer 8, D averages 1,122 states of the
 * component's 130,072.
 */
#define FC_TERM UINT32_MAX

/* Attractor inside the arena (mark bit 1) of the states seeded on the
   stack: a state of player `who` joins when one successor has joined, one
   of the other player when all its arena successors have and it has no
   good terminal.  Joined states get mark bit `bit`; returns how many.
   wit (or NULL) gets, for each state of `who` that joined, the successor
   it joined by. */
static uint32_t cb_attr(fcomp *f, uint32_t who, uint8_t bit, uint32_t sp,
                        uint32_t *wit)
{
    /* Locals: the byte stores below could alias f's fields. */
    uint8_t *mark = f->st, *cnt = f->cnt;
    const uint8_t *gd = f->gd;
    const uint32_t *poff = f->poff, *pfrom = f->pfrom;
    uint32_t *stack = f->stack;
    uint32_t n = sp;
    while (sp) {
        uint32_t y = stack[--sp], m = y >> 1, pp = (y & 1) ^ 1;
        for (uint32_t k = poff[m]; k < poff[m + 1]; k++) {
            uint32_t q = 2 * pfrom[k] + pp;
            if ((mark[q] & (1 | bit)) != 1)
                continue;
            /* one decrement an arena edge: a count never wraps */
            mc_hot_assert((q & 1) == who || cnt[q] > 0);
            if ((q & 1) == who || (--cnt[q] == 0 && !gd[q])) {
                mark[q] |= bit;
                stack[sp++] = q;
                n++;
                if (wit && (q & 1) == who)
                    wit[q] = y;
            }
        }
    }
    return n;
}

/* Whether state y is bad for X = the parity-px mover to close a cycle at. */
static int cb_bad(const fcomp *f, uint32_t px, uint32_t y)
{
    return (y & 1) == px ? f->own[y >> 1] < f->thr[px]
                         : f->own[y >> 1] >= f->thr[px ^ 1];
}

/* Whether state y seeds R, the other player's attractor in game px: bad
   for X, a good terminal of the other player's (g: the mover's), or a
   state of X's with neither a good terminal nor a move in the arena
   (c). */
static int cb_rseed(const fcomp *f, uint32_t px, uint32_t y, int g, uint32_t c)
{
    int xs = (y & 1) == px;
    return cb_bad(f, px, y) || (!xs && g) || (xs && !g && !c);
}

/*
 * The safe regions of a test, found once with S empty: the states from
 * which a player can keep the play, for ever, on states good for it to
 * close a cycle at (or end it in a good terminal).  Such a player wins
 * whatever the history: every state its play enters is good for it, in S
 * or not.  So the co-Buchi games of the test leave these states out,
 * which halves their arena.  Each region is the complement of the other
 * player's attractor to the states bad for the first.  nsl lists the
 * states outside both.
 */
static void cb_safe(fcomp *f)
{
    uint32_t ns = 2 * f->s;
    uint8_t *mark = f->st;
    memset(f->safe, 0, ns);
    for (uint32_t px = 0; px < 2; px++) {
        uint32_t sp = 0;
        for (uint32_t y = 0; y < ns; y++) {
            uint32_t m = y >> 1;
            int g = f->ebc[m] >= f->thr[y & 1];
            mark[y] = 1;
            f->gd[y] = (uint8_t)g;
            f->cnt[y] = (uint8_t)(f->coff[m + 1] - f->coff[m]);
            if (cb_rseed(f, px, y, g, f->cnt[y])) {
                mark[y] |= 2;
                f->stack[sp++] = y;
            }
        }
        cb_attr(f, px ^ 1, 2, sp, NULL);
        for (uint32_t y = 0; y < ns; y++)
            if (!(mark[y] & 2))
                f->safe[y] |= (uint8_t)(1u << px);
    }
    memset(mark, 0, ns);
    f->nns = 0;
    for (uint32_t y = 0; y < ns; y++)
        if (!f->safe[y])
            f->nsl[f->nns++] = y;
}

/* The first successor of y inside the arena and outside mark bits `out`
   (one exists where the callers ask). */
static uint32_t cb_succ(const fcomp *f, uint32_t y, uint8_t out)
{
    uint32_t m = y >> 1, cp = (y & 1) ^ 1;
    for (uint32_t k = f->coff[m]; k < f->coff[m + 1]; k++) {
        uint32_t w = 2 * f->cto[k] + cp;
        if ((f->st[w] & (1 | out)) == 1)
            return w;
    }
    return FC_TERM;
}

/* Save win and sig of game px at the arena's states (vl[0..nv)) in the
   log, for inc_del. */
static int cb_log(fcomp *f, uint32_t px, uint32_t nv)
{
    size_t cap =
        mc_grow(&f->log, f->logcap, (size_t)f->nlog + nv, sizeof *f->log, 4096);
    if (!cap)
        return -1;
    f->logcap = cap;
    for (uint32_t i = 0; i < nv; i++) {
        uint32_t y = f->vl[i];
        f->log[f->nlog++] =
            (fc_log){y, f->sig[px][y], (uint8_t)px, f->win[px][y]};
    }
    return 0;
}

/* The arena's states before the rounds: X loses them all for now
   (win), acnt their successors in the arena, gd whether a state has a
   good terminal for its mover (a move to a state of S or out of C worth
   its threshold, into its own safe region, or to an outside state its
   mover's side wins), gto the move to that state. */
static void cb_arena(fcomp *f, uint32_t px, uint32_t nv)
{
    const uint8_t *mark = f->st, *inS = f->inS, *safe = f->safe;
    uint8_t *acnt = f->cnt2, *gd = f->gd, *win = f->win[px];
    const int8_t *ebS = f->ebS;
    const uint32_t *coff = f->coff, *cto = f->cto, *vl = f->vl;
    uint32_t *gto = f->gto;
    for (uint32_t i = 0; i < nv; i++)
        win[vl[i]] = 0;
    for (uint32_t i = 0; i < nv; i++) {
        uint32_t y = vl[i], m = y >> 1, mv = y & 1, cp = mv ^ 1, c = 0;
        uint8_t me = (uint8_t)(1u << mv), wx = mv == px;
        int g = ebS[y] >= f->thr[mv];
        uint32_t to = FC_TERM;
        for (uint32_t k = coff[m]; k < coff[m + 1]; k++) {
            uint32_t w = 2 * cto[k] + cp;
            if (inS[w])
                continue;
            if (safe[w])
                g |= (safe[w] & me) != 0;
            else if (mark[w] & 1)
                c++;
            else if (win[w] == wx && to == FC_TERM)
                to = w;
        }
        acnt[y] = (uint8_t)c;
        gd[y] = (uint8_t)(g || to != FC_TERM);
        gto[y] = g ? FC_TERM : to;
    }
}

/* R: the other player's attractor to the states bad for X to close at,
   and to its own good terminals (mark bit 2; wit: the move each of the
   other player's states joined by). */
static void cb_round_r(fcomp *f, uint32_t px, uint32_t nv)
{
    uint8_t *mark = f->st, *cnt = f->cnt;
    const uint8_t *acnt = f->cnt2, *gd = f->gd;
    const uint32_t *vl = f->vl;
    uint32_t *stack = f->stack, *wit = f->wit, sp = 0;
    for (uint32_t i = 0; i < nv; i++) {
        uint32_t y = vl[i];
        cnt[y] = acnt[y];
        wit[y] = FC_TERM;
        if (cb_rseed(f, px, y, gd[y], acnt[y])) {
            mark[y] |= 2;
            stack[sp++] = y;
        }
    }
    cb_attr(f, px ^ 1, 2, sp, wit);
}

/* B: X's attractor to the rest and to X's own good terminals (mark bit
   4), X keeping to the rest by a move outside R (or a good terminal);
   sig gets X's moves.  Returns the size of B. */
static uint32_t cb_round_b(fcomp *f, uint32_t px, uint32_t nv)
{
    uint8_t *mark = f->st, *cnt = f->cnt;
    const uint8_t *acnt = f->cnt2, *gd = f->gd;
    const uint32_t *vl = f->vl, *gto = f->gto;
    uint32_t *stack = f->stack, *sig = f->sig[px], sp = 0;
    for (uint32_t i = 0; i < nv; i++) {
        uint32_t y = vl[i];
        int xs = (y & 1) == px, g = gd[y];
        cnt[y] = acnt[y];
        if (!(mark[y] & 2) || (xs && g) || (!xs && !g && !acnt[y])) {
            mark[y] |= 4;
            stack[sp++] = y;
            sig[y] = !xs ? FC_TERM : g ? gto[y] : cb_succ(f, y, 2);
        }
    }
    return cb_attr(f, px, 4, sp, sig);
}

/* B is X's: out of the arena, which keeps the rest (R's states, marks
   back to 1).  Returns the arena's new size. */
static uint32_t cb_take_b(fcomp *f, uint32_t px, uint32_t nv)
{
    uint8_t *mark = f->st, *acnt = f->cnt2, *win = f->win[px];
    const uint32_t *poff = f->poff, *pfrom = f->pfrom;
    uint32_t *vl = f->vl, *sig = f->sig[px], k = 0;
    for (uint32_t i = 0; i < nv; i++) {
        uint32_t y = vl[i];
        if (mark[y] & 4) {
            win[y] = 1;
            mark[y] = 0;
            if ((y & 1) != px)
                sig[y] = FC_TERM;
            uint32_t m = y >> 1, pp = (y & 1) ^ 1;
            for (uint32_t j = poff[m]; j < poff[m + 1]; j++)
                acnt[2 * pfrom[j] + pp]--;
        } else {
            mark[y] = 1;
            vl[k++] = y;
        }
    }
    return k;
}

/* Whether another round is needed.  What is left was all in R; if no
   state of the other player there joined R by a state of B, R's
   derivations stand without B: the next round's R is the whole arena
   and its B empty.  (The states of X there had no move into B.) */
static int cb_again(const fcomp *f, uint32_t px, uint32_t nv)
{
    const uint8_t *win = f->win[px];
    const uint32_t *vl = f->vl, *wit = f->wit;
    for (uint32_t i = 0; i < nv; i++) {
        uint32_t y = vl[i];
        if ((y & 1) != px && wit[y] != FC_TERM && win[wit[y]])
            return 1;
    }
    return 0;
}

/* The rest is the other player's: it keeps to R by its attractor moves,
   and from the states bad for X by any move (all of the rest is R) or a
   good terminal.  Its marks cleared after. */
static void cb_rest(fcomp *f, uint32_t px, uint32_t nv)
{
    uint8_t *mark = f->st;
    const uint8_t *gd = f->gd;
    const uint32_t *vl = f->vl, *wit = f->wit, *gto = f->gto;
    uint32_t *sig = f->sig[px];
    for (uint32_t i = 0; i < nv; i++)
        mark[vl[i]] = 1;
    for (uint32_t i = 0; i < nv; i++) {
        uint32_t y = vl[i];
        if ((y & 1) == px)
            sig[y] = FC_TERM;
        else if (wit[y] != FC_TERM)
            sig[y] = wit[y];
        else
            sig[y] = gd[y] ? gto[y] : cb_succ(f, y, 0);
    }
    for (uint32_t i = 0; i < nv; i++)
        mark[vl[i]] = 0;
}

/*
 * Solve game px on the arena vl[0..nv) (mark bit 1 set there, clear
 * elsewhere); every other state outside S and the safe regions keeps its
 * winner, a move into it ending the play in that winner's favour.  Sets
 * win and sig on the arena and clears its marks.  The steps keep their
 * arrays in locals: the byte stores could alias f's fields.
 */
static void cb_solve(fcomp *f, uint32_t px, uint32_t nv)
{
    cb_arena(f, px, nv);
    for (;;) {
        cb_round_r(f, px, nv);
        if (!cb_round_b(f, px, nv))
            break;
        nv = cb_take_b(f, px, nv);
        if (!cb_again(f, px, nv))
            break;
    }
    cb_rest(f, px, nv);
}

/* A test's thresholds: t for the parity-0 mover (the root's), 2 - t for
   the other; the safe regions follow. */
static void fc_thr(fcomp *f, int t)
{
    f->thr[0] = t;
    f->thr[1] = 2 - t;
    if (f->safe_t != t) {
        f->safe_t = t;
        cb_safe(f);
    }
}

/* Both games solved from scratch, with the current S (at a test's root,
   and for the bracket).  f->thr is the test's. */
static void cb_full(fcomp *f)
{
    uint32_t ns = 2 * f->s;
    for (uint32_t px = 0; px < 2; px++) {
        for (uint32_t y = 0; y < ns; y++) {
            f->win[px][y] = (f->safe[y] >> px) & 1;
            f->sig[px][y] = FC_TERM;
        }
        uint32_t nv = 0;
        for (uint32_t i = 0; i < f->nns; i++) {
            uint32_t y = f->nsl[i];
            if (!f->inS[y]) {
                f->st[y] = 1;
                f->vl[nv++] = y;
            }
        }
        cb_solve(f, px, nv);
    }
}

/* Undo the last inc_add. */
static void inc_del(fcomp *f)
{
    mc_hot_assert(f->nlmark > 0 && f->lmark[f->nlmark - 1] <= f->nlog);
    uint32_t to = f->lmark[--f->nlmark];
    while (f->nlog > to) {
        fc_log e = f->log[--f->nlog];
        f->win[e.g][e.y] = e.win;
        f->sig[e.g][e.y] = e.sig;
    }
}

/* z has just joined S: both games solved again where they may change
   (above).  inc_del undoes it; -1 when out of memory (nothing changed). */
static int inc_add(fcomp *f, uint32_t z)
{
    size_t cap = mc_grow(&f->lmark, f->lmarkcap, (size_t)f->nlmark + 1,
                         sizeof *f->lmark, 256);
    if (!cap)
        return -1;
    f->lmarkcap = cap;
    f->lmark[f->nlmark++] = f->nlog;
    if (f->safe[z])
        return 0;
    uint8_t *mark = f->st;
    const uint8_t *inS = f->inS, *safe = f->safe;
    const uint32_t *poff = f->poff, *pfrom = f->pfrom;
    uint32_t *vl = f->vl, *stack = f->stack;
    for (uint32_t px = 0; px < 2; px++) {
        const uint8_t *win = f->win[px];
        const uint32_t *sig = f->sig[px];
        uint8_t wz = win[z];
        if (wz == !cb_bad(f, px, z))
            continue;
        uint32_t wp = wz ? px : px ^ 1, nv = 0, sp = 0;
        stack[sp++] = z;
        while (sp) {
            uint32_t v = stack[--sp], m = v >> 1, pp = (v & 1) ^ 1;
            for (uint32_t k = poff[m]; k < poff[m + 1]; k++) {
                uint32_t u = 2 * pfrom[k] + pp;
                if (mark[u] || inS[u] || safe[u] || win[u] != wz ||
                    ((u & 1) == wp && sig[u] != v))
                    continue;
                mark[u] = 1;
                vl[nv++] = u;
                stack[sp++] = u;
            }
        }
        if (!nv)
            continue;
        if (cb_log(f, px, nv) != 0) {
            for (uint32_t i = 0; i < nv; i++)
                mark[vl[i]] = 0;
            inc_del(f);
            return -1;
        }
        cb_solve(f, px, nv);
    }
    return 0;
}

/*
 * Children are searched in the order of the size their proofs are likely
 * to have (a proof-number estimate three plies deep).  The child's mover
 * must lose every reply, so a child costs the sum over its replies; at a
 * reply our side needs one good option, so a reply costs 1 plus its
 * cheapest option; an option costs the replies it leaves.  States of S,
 * replies inside our region and options inside the other's are settled
 * and cost nothing.  A reply with no option left costs 1,000: that child
 * is probably lost.  Measured against children in move order, when the
 * games were still solved at every node: layer 6's 1,528 open positions
 * took 253,613 nodes instead of 878,208, layer 7's first 337 took 161,539
 * instead of 661,383 (docs/EGDB.md).
 */
static int fc_settled(const fcomp *f, uint32_t y, const uint8_t *reg)
{
    return f->inS[y] || reg[y];
}

static int32_t fc_cost(const fcomp *f, uint32_t z, const uint8_t *mine,
                       const uint8_t *theirs)
{
    uint32_t us = (z & 1) ^ 1, them = z & 1;
    int32_t sum = 0;
    for (uint32_t a = f->coff[z >> 1]; a < f->coff[(z >> 1) + 1]; a++) {
        uint32_t w = 2 * f->cto[a] + us;
        if (fc_settled(f, w, mine))
            continue;
        int32_t best = 1000;
        for (uint32_t b = f->coff[w >> 1]; b < f->coff[(w >> 1) + 1]; b++) {
            uint32_t v = 2 * f->cto[b] + them, c = 0;
            if (fc_settled(f, v, theirs))
                continue;
            for (uint32_t e = f->coff[v >> 1]; e < f->coff[(v >> 1) + 1]; e++)
                c += !fc_settled(f, 2 * f->cto[e] + us, mine);
            if ((int32_t)c < best)
                best = (int32_t)c;
        }
        sum += 1 + best;
    }
    return sum;
}

/* Sort open[0..k) by fc_cost, cheapest first (a stable insertion sort:
   ties keep the move order). */
static void fc_order(const fcomp *f, uint32_t *open, uint32_t k,
                     const uint8_t *mine, const uint8_t *theirs)
{
    int32_t cost[8];
    for (uint32_t i = 0; i < k; i++) {
        cost[i] = fc_cost(f, open[i], mine, theirs);
        for (uint32_t j = i; j > 0 && cost[j] < cost[j - 1]; j--) {
            int32_t c = cost[j];
            uint32_t z = open[j];
            cost[j] = cost[j - 1], open[j] = open[j - 1];
            cost[j - 1] = c, open[j - 1] = z;
        }
    }
}

/*
 * Can the mover M at x (in S) make at least t?  1 yes, 0 no (or aborted).
 * A child won by M in M's game proves it; a child won by the other player
 * O in O's game refutes its move (at threshold 2 - t for O).
 */
static int fc_test(fcomp *f, uint32_t x, int t, int upd);

static int fc_children(fcomp *f, uint32_t x, int t, uint32_t *open, uint32_t no)
{
    const uint8_t *wm = f->win[x & 1], *wo = f->win[(x & 1) ^ 1];
    uint32_t k = 0;
    for (uint32_t i = 0; i < no; i++) {
        if (wm[open[i]])
            return 1;
        if (!wo[open[i]])
            open[k++] = open[i];
    }
    if (k > 1)
        fc_order(f, open, k, wm, wo);
    for (uint32_t i = 0; i < k; i++) {
        if (s_add(f, open[i]) != 0) {
            f->aborted = 1;
            return 0;
        }
        f->depth++;
        int r = fc_test(f, open[i], 2 - t, 1);
        f->depth--;
        s_del(f, open[i]);
        if (f->aborted)
            return 0;
        if (!r)
            return 1;
    }
    return 0;
}

/* Tests (egdb_int.h): the kept games against a full solve. */
_Atomic uint64_t eg_games_checked, eg_games_mismatch;
int eg_games_check;

static void fc_check(fcomp *f)
{
    size_t ns = 2 * (size_t)f->s;
    uint8_t *w = malloc(2 * ns);
    uint32_t *g = malloc(2 * ns * sizeof *g);
    if (w && g) {
        for (int p = 0; p < 2; p++) {
            memcpy(w + p * ns, f->win[p], ns);
            memcpy(g + p * ns, f->sig[p], ns * sizeof *g);
        }
        cb_full(f);
        uint64_t bad = 0;
        for (int p = 0; p < 2; p++)
            for (size_t y = 0; y < ns; y++)
                bad += !f->inS[y] && w[p * ns + y] != f->win[p][y];
        for (int p = 0; p < 2; p++) {
            memcpy(f->win[p], w + p * ns, ns);
            memcpy(f->sig[p], g + p * ns, ns * sizeof *g);
        }
        eg_games_checked++;
        eg_games_mismatch += bad;
    }
    free(w);
    free(g);
}

/* upd: x has just joined S and the games are still to be updated (done
   only past the checks that need no game). */
static int fc_test(fcomp *f, uint32_t x, int t, int upd)
{
    if (++f->nodes > f->budget || f->depth >= FC_MAX_DEPTH) {
        f->aborted = 1;
        return 0;
    }
    uint32_t m = x >> 1, cp = (x & 1) ^ 1;
    if (f->ebc[m] >= t)
        return 1;
    uint32_t open[8], no = 0;
    for (uint32_t k = f->coff[m]; k < f->coff[m + 1]; k++) {
        uint32_t z = 2 * f->cto[k] + cp;
        if (f->inS[z]) {
            if (-f->own[z >> 1] >= t)
                return 1;
        } else {
            mc_hot_assert(no < 8); /* at most 6 moves */
            open[no++] = z;
        }
    }
    if (no == 0)
        return 0;
    /* x good for M to close at: M's region can only have grown, so a
       child in it before x joined S still proves the test (as the
       updated games would). */
    if (upd && !cb_bad(f, x & 1, x))
        for (uint32_t i = 0; i < no; i++)
            if (f->win[x & 1][open[i]])
                return 1;
    if (upd && inc_add(f, x) != 0) {
        f->aborted = 1;
        return 0;
    }
    if (eg_games_check)
        fc_check(f);
    int r = fc_children(f, x, t, open, no);
    if (upd)
        inc_del(f);
    return r;
}

/* Member arrays of component C (members mem[0..s)) and the state arrays. */
static int fc_init(fcomp *f, int n, uint32_t s, const uint32_t *mem,
                   const uint32_t *loc, const uint32_t *comp, uint32_t id,
                   const uint32_t *off, const eg_move *mv, const int8_t *F)
{
    memset(f, 0, sizeof *f);
    f->n = n;
    f->s = s;
    size_t ns = 2 * (size_t)s, ne = 0;
    for (uint32_t j = 0; j < s; j++)
        ne += off[mem[j] + 1] - off[mem[j]];
    f->own = malloc(s);
    f->ebc = malloc(s);
    f->coff = calloc((size_t)s + 1, sizeof *f->coff);
    f->cto = malloc((ne + 1) * sizeof *f->cto);
    f->poff = calloc((size_t)s + 2, sizeof *f->poff);
    f->pfrom = malloc((ne + 1) * sizeof *f->pfrom);
    f->inS = calloc(ns, 1);
    f->cnt = malloc(ns);
    f->st = calloc(ns, 1);
    f->ebS = malloc(ns);
    f->stack = malloc((ns + 1) * sizeof *f->stack);
    f->vl = malloc((ns + 1) * sizeof *f->vl);
    f->wit = malloc((ns + 1) * sizeof *f->wit);
    f->gto = malloc((ns + 1) * sizeof *f->gto);
    f->cnt2 = malloc(ns);
    f->gd = malloc(ns);
    f->safe = malloc(ns);
    f->nsl = malloc((ns + 1) * sizeof *f->nsl);
    for (int p = 0; p < 2; p++) {
        f->win[p] = malloc(ns);
        f->sig[p] = malloc((ns + 1) * sizeof *f->sig[p]);
    }
    f->safe_t = INT_MIN;
    if (!f->own || !f->ebc || !f->coff || !f->cto || !f->poff || !f->pfrom ||
        !f->inS || !f->cnt || !f->st || !f->ebS || !f->stack || !f->vl ||
        !f->wit || !f->gto || !f->cnt2 || !f->gd || !f->safe || !f->nsl ||
        !f->win[0] || !f->win[1] || !f->sig[0] || !f->sig[1])
        return -1;
    uint32_t e = 0;
    for (uint32_t j = 0; j < s; j++) {
        uint32_t y = mem[j];
        f->own[j] = (int8_t)own_diff(n, y);
        int best = off[y] == off[y + 1] ? f->own[j] : EG_NO_EXIT;
        f->coff[j] = e;
        for (uint32_t k = off[y]; k < off[y + 1]; k++) {
            const eg_move *m = &mv[k];
            int v;
            if (m->exit)
                v = m->val;
            else if (comp[m->child] != id)
                v = -F[m->child];
            else {
                f->cto[e++] = loc[m->child];
                f->poff[loc[m->child] + 2]++;
                continue;
            }
            if (v > best)
                best = v;
        }
        f->ebc[j] = (int8_t)best;
    }
    f->coff[s] = e;
    for (uint32_t j = 0; j < s; j++)
        f->poff[j + 2] += f->poff[j + 1];
    for (uint32_t j = 0; j < s; j++)
        for (uint32_t k = f->coff[j]; k < f->coff[j + 1]; k++)
            f->pfrom[f->poff[f->cto[k] + 1]++] = j;
    /* the parents' lists hold every in-component edge, once */
    assert(e <= ne && f->poff[0] == 0 && f->poff[s] == e);
    for (size_t y = 0; y < ns; y++)
        f->ebS[y] = f->ebc[y >> 1];
    return 0;
}

static void fc_free(fcomp *f)
{
    free(f->own), free(f->ebc), free(f->coff), free(f->cto);
    free(f->poff), free(f->pfrom), free(f->inS), free(f->cnt), free(f->st);
    free(f->ebS), free(f->stack), free(f->undo), free(f->vl), free(f->wit);
    free(f->gto);
    free(f->cnt2), free(f->gd), free(f->safe), free(f->nsl);
    for (int p = 0; p < 2; p++)
        free(f->win[p]), free(f->sig[p]);
    free(f->log), free(f->lmark);
}

/* F of member j (fresh start) between its bounds P <= F <= O, by tests;
   *aborted when the budget ran out.  Most open positions (84% in layer 6)
   have F = 0 (or 1 with an odd number of seeds): the first two tests
   bracket that value, then bisection. */
static int fc_value(fcomp *f, uint32_t j, int P, int O, uint64_t budget,
                    int *aborted)
{
    uint32_t x = 2 * j;
    /* the bounds of a fresh start, of the parity of n */
    assert(j < f->s && P <= O && ((O - P) & 1) == 0);
    f->nodes = 0;
    f->budget = budget;
    f->aborted = 0;
    f->depth = 0;
    if (s_add(f, x) != 0)
        return *aborted = 1, P;
    int lo = P, hi = O; /* F >= lo is known; F <= hi */
    int z = f->n & 1;   /* the value nearest an even split */
    for (int k = 0; lo < hi && !f->aborted; k++) {
        int mid = lo + 2 * ((hi - lo) / 4 + 1); /* parity of n, > lo */
        if (k < 2 && lo < z + 2 * k && z + 2 * k <= hi)
            mid = z + 2 * k;
        if (f->nodes >= f->budget) {
            f->aborted = 1; /* as fc_test would, before solving the games */
            break;
        }
        fc_thr(f, mid);
        cb_full(f);
        if (fc_test(f, x, mid, 0))
            lo = mid;
        else if (!f->aborted)
            hi = mid - 2;
    }
    s_del(f, x);
    assert(lo >= P && lo <= O && (f->aborted || lo == hi));
    *aborted = f->aborted;
    return lo;
}

/* Tarjan's algorithm without recursion; components are numbered in the
   order they complete (every edge leaving a component goes to one with a
   smaller number). */
static int tarjan(uint64_t N, const uint32_t *off, const eg_move *mv,
                  uint32_t *comp, uint32_t *ncomp)
{
    uint32_t *idx = malloc(N * sizeof *idx), *low = malloc(N * sizeof *low);
    uint32_t *stk = malloc(N * sizeof *stk), *cs = malloc(N * sizeof *cs);
    uint32_t *it = malloc(N * sizeof *it);
    uint8_t *on = calloc(N, 1);
    if (!idx || !low || !stk || !cs || !it || !on) {
        free(idx), free(low), free(stk), free(cs), free(it), free(on);
        return -1;
    }
    const uint32_t UNSEEN = 0xffffffffu;
    for (uint64_t i = 0; i < N; i++)
        idx[i] = UNSEEN;
    uint32_t counter = 0, sp = 0, nc = 0;
    for (uint64_t root = 0; root < N; root++) {
        if (idx[root] != UNSEEN)
            continue;
        uint32_t csp = 0;
        cs[csp++] = (uint32_t)root;
        idx[root] = low[root] = counter++;
        it[root] = off[root];
        stk[sp++] = (uint32_t)root;
        on[root] = 1;
        while (csp) {
            uint32_t v = cs[csp - 1];
            if (it[v] < off[v + 1]) {
                const eg_move *k = &mv[it[v]++];
                if (k->exit)
                    continue;
                uint32_t w = (uint32_t)k->child;
                if (idx[w] == UNSEEN) {
                    idx[w] = low[w] = counter++;
                    it[w] = off[w];
                    stk[sp++] = w;
                    on[w] = 1;
                    cs[csp++] = w;
                } else if (on[w] && idx[w] < low[v]) {
                    low[v] = idx[w];
                }
                continue;
            }
            csp--;
            if (csp && low[v] < low[cs[csp - 1]])
                low[cs[csp - 1]] = low[v];
            if (low[v] == idx[v]) {
                uint32_t w;
                do {
                    w = stk[--sp];
                    on[w] = 0;
                    comp[w] = nc;
                } while (w != v);
                nc++;
            }
        }
    }
    /* every position in one component, the stack empty */
    assert(sp == 0 && (N == 0 || (nc >= 1 && nc <= N)));
    *ncomp = nc;
    free(idx), free(low), free(stk), free(cs), free(it), free(on);
    return 0;
}

/* The searches of one component's open positions, shared by threads: each
   thread builds its own search arrays and takes the next position.  A
   position's F does not depend on which thread finds it, nor on when. */
typedef struct fjob {
    int n;
    uint32_t c, s;
    const uint32_t *mem, *loc, *comp, *off;
    const eg_move *mv;
    int8_t *F;
    const eg_bounds *b;
    const uint32_t *order;
    _Atomic uint64_t next;
    uint64_t end, budget;
    uint64_t full_budget;           /* f_budget: a picked position's */
    const mc_egdb_build_opts *opts; /* for eg_log, or NULL */
    _Atomic uint64_t done;
    _Atomic int approx, oom;
    mc_egdb_progress progress;
    void *ctx;
    uint64_t total;
    int8_t *lo, *hi;      /* by member: the fresh bracket (fc_bracket) */
    const uint64_t *pick; /* searched whatever their component's size */
    size_t npick;
    eg_journal *jn; /* or NULL */
} fjob;

/*
 * The co-Buchi games with S empty bracket every fresh start of the
 * component at once: the argument above holds for the root itself (a play
 * that comes back to the root has gone round a cycle through it).  So a
 * member whose state at parity 0 is won by the mover at threshold t has
 * F >= t, one won by the other player has F <= t - 2.  This settles a
 * sixth of layer 6's open positions for almost nothing, and narrows the
 * bisection of others.
 */
static void fc_bracket(fcomp *f, int8_t *lo, int8_t *hi)
{
    int n = f->n;
    for (uint32_t j = 0; j < f->s; j++)
        lo[j] = (int8_t)-n, hi[j] = (int8_t)n;
    for (int t = 2 - n; t <= n; t += 2) {
        fc_thr(f, t);
        cb_full(f);
        for (uint32_t j = 0; j < f->s; j++) {
            if (f->win[0][2 * j] && lo[j] < t)
                lo[j] = (int8_t)t;
            if (f->win[1][2 * j] && hi[j] > t - 2)
                hi[j] = (int8_t)(t - 2);
        }
    }
}

static void fc_one(fjob *J, fcomp *f, uint64_t x)
{
    const eg_bounds *b = J->b;
    uint32_t j = J->loc[x];
    int P = b->P[x] > J->lo[j] ? b->P[x] : J->lo[j];
    int O = b->O[x] < J->hi[j] ? b->O[x] : J->hi[j];
    /* the bracket and the bounds both hold F: they meet */
    assert(P <= O);
    uint64_t budget = J->budget;
    for (size_t i = 0; !budget && i < J->npick; i++)
        if (J->pick[i] == x)
            budget = J->full_budget;
    int aborted;
    int v = fc_value(f, j, P, O, budget, &aborted);
    if (aborted) {
        v = clamp_own(J->n, x, b);
        atomic_store(&J->approx, 1);
    } else {
        assert(v >= b->P[x] && v <= b->O[x]);
        eg_journal_add(J->jn, x, v);
    }
    eg_log(J->opts, EG_LOG_SEARCHES,
           "n=%d x=%llu P=%d O=%d F=%d nodes=%llu comp=%u size=%u%s", J->n,
           (unsigned long long)x, b->P[x], b->O[x], v,
           (unsigned long long)f->nodes, J->c, J->s, aborted ? " ABORTED" : "");
    J->F[x] = (int8_t)v;
}

typedef struct fthread {
    fjob *J;
    fcomp *f; /* search arrays made already (the bracket's), or NULL */
    int first;
} fthread;

static void *fc_thread(void *arg)
{
    fthread *t = arg;
    fjob *J = t->J;
    fcomp own, *f = t->f;
    if (!f) {
        f = &own;
        if (fc_init(f, J->n, J->s, J->mem, J->loc, J->comp, J->c, J->off, J->mv,
                    J->F) != 0) {
            atomic_store(&J->oom, 1);
            fc_free(f);
            return NULL;
        }
    }
    for (;;) {
        uint64_t i = atomic_fetch_add(&J->next, 1);
        if (i >= J->end)
            break;
        fc_one(J, f, J->order[i]);
        uint64_t d = atomic_fetch_add(&J->done, 1) + 1;
        if (t->first && J->progress)
            J->progress(J->ctx, J->n, "cycles", d, J->total);
    }
    if (f == &own)
        fc_free(f);
    return NULL;
}

/* Run the job on k threads (the caller's among them): the fresh bracket
   first, whose search arrays the caller's thread then keeps. */
static int fc_run(fjob *J, int k)
{
    pthread_t tid[EG_MAX_THREADS];
    fthread ts[EG_MAX_THREADS];
    int started = 0;
    fcomp f;
    memset(&f, 0, sizeof f);
    J->lo = malloc(J->s);
    J->hi = malloc(J->s);
    if (!J->lo || !J->hi ||
        fc_init(&f, J->n, J->s, J->mem, J->loc, J->comp, J->c, J->off, J->mv,
                J->F) != 0) {
        fc_free(&f);
        free(J->lo), free(J->hi);
        return -1;
    }
    fc_bracket(&f, J->lo, J->hi);
    for (int i = 0; i < k; i++)
        ts[i] = (fthread){J, i == 0 ? &f : NULL, i == 0};
    for (int i = 1; i < k; i++) {
        if (pthread_create(&tid[i], NULL, fc_thread, &ts[i]) != 0)
            break;
        started = i;
    }
    fc_thread(&ts[0]);
    for (int i = 1; i <= started; i++)
        pthread_join(tid[i], NULL);
    fc_free(&f);
    free(J->lo), free(J->hi);
    return atomic_load(&J->oom) ? -1 : 0;
}

/* Layer n's in-layer graph for the searches: every position's moves
   (mv[off[i] .. off[i + 1])), its strongly connected components (comp[i],
   numbered children first: nc of them) and their members
   (members[cstart[c] .. cstart[c + 1]), a position's place among them
   loc[i]). */
typedef struct fgraph {
    uint64_t N;
    uint32_t *off, *comp, nc;
    eg_move *mv;
    uint32_t *loc, *cstart, *members;
} fgraph;

static void fgraph_free(fgraph *G)
{
    free(G->off), free(G->comp), free(G->mv);
    free(G->loc), free(G->cstart), free(G->members);
    memset(G, 0, sizeof *G);
}

/* The moves of every position of layer n: 0, or -1 when out of memory. */
static int fgraph_moves(fgraph *G, const eg_rules *r, int n)
{
    uint64_t N = G->N;
    size_t cap = N * 4 + 16, len = 0;
    G->off = malloc((N + 1) * sizeof *G->off);
    G->mv = malloc(cap * sizeof *G->mv);
    if (!G->off || !G->mv)
        return -1;
    uint8_t h[12];
    for (uint64_t i = 0; i < N; i++) {
        mc_egdb_unrank(n, i, h);
        if (len + 6 > cap) {
            cap *= 2;
            eg_move *nm = realloc(G->mv, cap * sizeof *G->mv);
            if (!nm)
                return -1;
            G->mv = nm;
        }
        G->off[i] = (uint32_t)len;
        len += (size_t)eg_expand(r, n, h, G->mv + len);
    }
    /* the offsets are 32 bits (layers of 11 seeds and fewer) */
    assert(len <= UINT32_MAX);
    G->off[N] = (uint32_t)len;
    return 0;
}

/* The components' members (after tarjan): 0, or -1 when out of memory. */
static int fgraph_members(fgraph *G)
{
    uint64_t N = G->N;
    uint32_t nc = G->nc;
    G->loc = malloc(N * sizeof *G->loc);
    G->cstart = calloc((size_t)nc + 2, sizeof *G->cstart);
    G->members = malloc(N * sizeof *G->members);
    uint32_t *cur = malloc(((size_t)nc + 1) * sizeof *cur);
    if (!G->loc || !G->cstart || !G->members || !cur) {
        free(cur);
        return -1;
    }
    for (uint64_t i = 0; i < N; i++)
        G->cstart[G->comp[i] + 1]++;
    for (uint32_t c = 0; c < nc; c++)
        G->cstart[c + 1] += G->cstart[c];
    assert(G->cstart[nc] == N); /* every position in one component */
    memcpy(cur, G->cstart, ((size_t)nc + 1) * sizeof *cur);
    for (uint64_t i = 0; i < N; i++) {
        uint32_t c = G->comp[i];
        G->loc[i] = cur[c] - G->cstart[c];
        G->members[cur[c]++] = (uint32_t)i;
    }
    free(cur);
    return 0;
}

/* The positions with P < O still to search, by component number
   (children's components first, so that every child outside a component
   is known when it is searched): *order (malloc'd), *nopen of them.
   Those done already (the journal's, done[i]) keep their values in F and
   are left out; the others start at P.  0, or -1 when out of memory. */
static int open_order(const fgraph *G, const eg_bounds *b, const uint8_t *done,
                      int8_t *F, uint32_t **order, uint64_t *nopen)
{
    uint64_t N = G->N, no = 0;
    for (uint64_t i = 0; i < N; i++) {
        if (done && done[i])
            continue;
        F[i] = b->P[i];
        no += b->P[i] < b->O[i];
    }
    uint32_t *o = malloc((no + 1) * sizeof *o);
    /* Sorted by component by counting. */
    uint32_t *cnt = calloc((size_t)G->nc + 1, sizeof *cnt);
    uint32_t *tmp = malloc((no + 1) * sizeof *tmp);
    if (!o || !cnt || !tmp) {
        free(o), free(cnt), free(tmp);
        return -1;
    }
    uint64_t k = 0;
    for (uint64_t i = 0; i < N; i++)
        if (b->P[i] < b->O[i] && !(done && done[i]))
            o[k++] = (uint32_t)i;
    assert(k == no);
    for (uint64_t i = 0; i < no; i++)
        cnt[G->comp[o[i]] + 1]++;
    for (uint32_t c = 0; c < G->nc; c++)
        cnt[c + 1] += cnt[c];
    for (uint64_t i = 0; i < no; i++)
        tmp[cnt[G->comp[o[i]]]++] = o[i];
    free(o);
    free(cnt);
    *order = tmp;
    *nopen = no;
    return 0;
}

/* The searches of the open positions order[0..nopen), a component at a
   time, the small ones on one thread; J holds what every component's
   searches share.  0, or -1 when out of memory. */
static int search_components(fjob *J, const fgraph *G, uint64_t nopen,
                             int threads, uint32_t maxcomp)
{
    const uint32_t *order = J->order;
    int nt = threads < 1                ? 1
             : threads > EG_MAX_THREADS ? EG_MAX_THREADS
                                        : threads;
    for (uint64_t i = 0; i < nopen;) {
        uint32_t c = G->comp[order[i]];
        uint64_t end = i;
        while (end < nopen && G->comp[order[end]] == c)
            end++;
        assert(end > i && G->cstart[c + 1] > G->cstart[c]);
        J->c = c;
        J->s = G->cstart[c + 1] - G->cstart[c];
        J->mem = G->members + G->cstart[c];
        J->budget = J->s > maxcomp ? 0 : J->full_budget;
        atomic_store(&J->next, i);
        J->end = end;
        /* Small components are quick: one thread. */
        if (fc_run(J, J->s > 100 && end - i > 1 ? nt : 1) != 0)
            return -1;
        i = end;
    }
    return 0;
}

/* abapa: F where P < O (layers of few seeds only). */
static int fresh_values(const eg_rules *r, int n, const eg_bounds *b,
                        int threads, mc_egdb_progress progress, void *ctx,
                        const uint64_t *pick, size_t npick, int8_t *F,
                        int *approx, eg_journal *jn, uint8_t *done,
                        mc_error *err)
{
    fgraph G;
    memset(&G, 0, sizeof G);
    G.N = mc_egdb_layer_size(n);
    if (G.N > 0xfffffff0u)
        return mc_err(err, MC_ERR_ARG, "layer %d too large for the search", n);
    uint32_t *order = NULL;
    uint64_t nopen = 0;
    G.comp = malloc(G.N * sizeof *G.comp);
    int rc = !G.comp || fgraph_moves(&G, r, n) != 0 ||
                     tarjan(G.N, G.off, G.mv, G.comp, &G.nc) != 0 ||
                     open_order(&G, b, done, F, &order, &nopen) != 0 ||
                     fgraph_members(&G) != 0
                 ? -1
                 : 0;
    if (rc == 0) {
        fjob J = {.n = n,
                  .loc = G.loc,
                  .comp = G.comp,
                  .off = G.off,
                  .mv = G.mv,
                  .F = F,
                  .b = b,
                  .order = order,
                  .progress = progress,
                  .ctx = ctx,
                  .total = nopen,
                  .pick = pick,
                  .npick = npick,
                  .jn = jn,
                  .full_budget = f_budget(r->opts),
                  .opts = r->opts};
        rc = search_components(&J, &G, nopen, threads, f_maxcomp(r->opts));
        *approx |= atomic_load(&J.approx);
    }
    free(order);
    fgraph_free(&G);
    if (rc != 0)
        return mc_err(err, MC_ERR_NOMEM,
                      "out of memory in the search of layer %d", n);
    return 0;
}

int eg_fresh_search(const eg_rules *r, int n, const eg_bounds *b,
                    const uint64_t *pick, size_t npick, int8_t *F,
                    mc_error *err)
{
    int approx = 0;
    return fresh_values(r, n, b, 1, NULL, NULL, pick, npick, F, &approx, NULL,
                        NULL, err);
}

static int eg_open_error(int n, uint64_t open, mc_error *err)
{
    return mc_err(err, MC_ERR_ARG,
                  "layer %d: %llu positions have different bounds (P < O); "
                  "the contract says this never happens from 12 seeds up: "
                  "stopping",
                  n, (unsigned long long)open);
}

int eg_values(const eg_rules *r, int n, const eg_bounds *b, int threads,
              mc_egdb_progress progress, void *ctx, uint8_t *out, int *approx,
              const char *journal, const char *head, const char *shipped,
              mc_error *err)
{
    uint64_t N = mc_egdb_layer_size(n);
    if (r->preset == MC_EGDB_AWARI) {
        for (uint64_t i = 0; i < N; i++) {
            int v = b->P[i] > 0 ? b->P[i] : b->O[i] < 0 ? b->O[i] : 0;
            mc_hot_assert(v >= -n && v <= n);
            out[i] = eg_entry(v, b->hp[i]);
        }
        return 0;
    }
    if (b->open && n >= 12) {
        /* Measured on exact lower layers; approximated ones (*approx on
           entry) can open positions here: the approximation, flagged. */
        if (!*approx)
            return eg_open_error(n, b->open, err);
        for (uint64_t i = 0; i < N; i++)
            out[i] = eg_entry(b->P[i] == b->O[i] ? b->P[i] : clamp_own(n, i, b),
                              b->hp[i]);
        return 0;
    }
    if (!b->open) {
        for (uint64_t i = 0; i < N; i++)
            out[i] = eg_entry(b->P[i], b->hp[i]);
        return 0;
    }
    int8_t *F = malloc(N);
    uint8_t *done = journal ? calloc(N, 1) : NULL;
    if (!F || (journal && !done)) {
        free(F), free(done);
        return mc_err(err, MC_ERR_NOMEM, "out of memory");
    }
    eg_journal jn = {0}, *jp = NULL;
    uint64_t loaded = 0;
    int rc = 0;
    if (journal) {
        rc = eg_journal_open(&jn, journal, head, n, b, shipped, F, done,
                             &loaded, err);
        jp = &jn;
    }
    if (rc == 0)
        rc = fresh_values(r, n, b, threads, progress, ctx, NULL, 0, F, approx,
                          jp, done, err);
    /* The journal is only for resuming: a line it lost costs a search
       again, never a value. */
    if (jp)
        eg_journal_close(jp);
    if (rc == 0)
        for (uint64_t i = 0; i < N; i++)
            out[i] = eg_entry(F[i], b->hp[i]);
    free(F), free(done);
    return rc;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#include <sys/mman.h>

static int eg_oom(int n, mc_error *err)
{
    return mc_err(err, MC_ERR_NOMEM, "out of memory building layer %d", n);
}

/* The memory budget in bytes: the option, else what the machine has
   available less a margin (an eighth, and at least 256 MiB). */
static uint64_t budget_bytes(const mc_egdb_build_opts *o)
{
    if (o->memory_mb)
        return (uint64_t)o->memory_mb << 20;
    uint64_t avail = eg_mem_available();
    if (!avail)
        return UINT64_MAX; /* not Linux: no limit */
    uint64_t margin = avail / 8 > (256ull << 20) ? avail / 8 : 256ull << 20;
    return avail > margin ? avail - margin : 0;
}

/* What the budget keeps for the rest of the build (the program, the
   sweep's stacks, the small layers' work): the arrays get the rest. */
#define EG_RESERVE (64ull << 20)

/* The compact sweep's arrays of layer n (cs, eb, out: N bytes each): in
   memory, the busiest first, while the budget allows; the others in
   scratch files of dir.  Returns 0, or -1 (out of memory, or the scratch
   files cannot be made: err says which). */
static int work_arrays_of(const mc_egdb_build_opts *o, int n, uint64_t N,
                          const char *tag, eg_array a[3], mc_error *err)
{
    static const char *const ext[3] = {".work-state", ".work-exits",
                                       ".work-values"};
    uint64_t B = budget_bytes(o);
    uint64_t room = B > EG_RESERVE ? B - EG_RESERVE : 0;
    for (int i = 0; i < 3; i++)
        a[i].fd = -1, a[i].p = NULL;
    for (int i = 0; i < 3; i++) {
        char path[4096], name[64];
        int mem = N <= room;
        if (mem)
            room -= N;
        snprintf(name, sizeof name, "%s%s", ext[i], tag);
        eg_layer_file(o->dir, o->preset, n, name, path, sizeof path);
        if (eg_array_alloc(&a[i], N, mem ? NULL : path) != 0) {
            int e = errno;
            for (int k = 0; k < i; k++)
                eg_array_free(&a[k]);
            return mem ? eg_oom(n, err)
                       : mc_err(err, MC_ERR_IO, "cannot make %s: %s", path,
                                strerror(e));
        }
    }
    eg_log(o, EG_LOG_TIMING, "n=%d work: state %s, exits %s, values %s", n,
           a[0].fd < 0 ? "memory" : "file", a[1].fd < 0 ? "memory" : "file",
           a[2].fd < 0 ? "memory" : "file");
    return 0;
}

static int work_arrays(const mc_egdb_build_opts *o, int n, eg_array a[3],
                       mc_error *err)
{
    return work_arrays_of(o, n, mc_egdb_layer_size(n), "", a, err);
}

/* The entries of layer n into out: the compact sweep from EG_COMPACT_FROM
   seeds up (3 bytes a position, P = O asserted under abapa; its state and
   exits in a[0], a[1], checkpointed), the full sweep and the history
   search below. */
static int layer_entries(eg_rules *r, int n, mc_egdb_build_opts *o,
                         const uint64_t *dep_sum, uint8_t *out, eg_array *a,
                         int *approx, mc_error *err)
{
    if (n >= EG_COMPACT_FROM) {
        uint64_t open;
        char ckpt[4096], head[512], spec[256];
        eg_layer_file(o->dir, o->preset, n, ".ckpt", ckpt, sizeof ckpt);
        eg_full_spec(r->g, spec, sizeof spec);
        eg_journal_head(spec, n, dep_sum, head, sizeof head);
        eg_work wk = {0};
        wk.cs = a[0].p;
        wk.eb = a[1].p;
        wk.val = out;
        wk.ckpt = o->checkpoint_secs < 0 ? NULL : ckpt;
        wk.head = head;
        wk.ckpt_secs = eg_test_stop_after       ? 0
                       : o->checkpoint_secs > 0 ? o->checkpoint_secs
                                                : 60;
        wk.stop_after = eg_test_stop_after;
        int crc = eg_compute_entries_w(r, n, o->threads, &wk, &open,
                                       o->progress, o->progress_ctx);
        if (wk.resumed >= 0)
            eg_log(o, EG_LOG_TIMING, "n=%d resumed at phase %d", n, wk.resumed);
        if (crc == -2)
            return mc_err(err, MC_ERR_ARG,
                          "stopped after %d checkpoints "
                          "(a test)",
                          wk.saved);
        if (crc != 0)
            return eg_oom(n, err);
        if (o->preset == MC_EGDB_AWARI) {
            o->open_bounds[n] = MC_EGDB_NOT_COUNTED;
            return 0;
        }
        o->open_bounds[n] = open;
        if (!open)
            return 0;
        if (!*approx)
            return eg_open_error(n, open, err);
        /* Approximated layers below opened positions: the full sweep,
           whose bounds the approximation needs (eg_values). */
    }
    eg_bounds b;
    if (eg_compute_bounds(r, n, o->threads, &b, 0, o->progress,
                          o->progress_ctx) != 0)
        return eg_oom(n, err);
    o->open_bounds[n] = b.open;
    char jpath[4096], head[512], spec[256];
    mc_egdb_journal_path(o->dir, o->preset, n, jpath, sizeof jpath);
    eg_full_spec(r->g, spec, sizeof spec);
    eg_journal_head(spec, n, dep_sum, head, sizeof head);
    const char *shipped = o->no_shipped ? NULL : eg_shipped(o->preset, n);
    int rc = eg_values(r, n, &b, o->threads, o->progress, o->progress_ctx, out,
                       approx, b.open ? jpath : NULL, head, shipped, err);
    eg_bounds_free(&b);
    return rc;
}

/* Layer n of dir as the build found it: a plain file mapped, or a
   compressed one decompressed into *own (the build reads every entry). */
static int found_layer(const char *dir, int preset, int n, mc_egdb_info *info,
                       const uint8_t **d, eg_rules *r, uint8_t **own)
{
    char path[4096];
    int zipped = eg_layer_file_any(dir, preset, n, path, sizeof path);
    if (zipped < 0)
        return -1;
    if (zipped == 0)
        return eg_map_layer(path, info, d, &r->map[n], &r->maplen[n], NULL);
    int rc = eg_zload(path, info, own, NULL);
    *d = *own;
    return rc;
}

/* Whether every process of a shared build got here without an error: 0,
   or this one's error, or one saying another failed. */
/* One count summed over the processes of a shared build: 0, or an error
   in err when they cannot be reached. */
static int dist_sum(const mc_egdb_dist *d, uint64_t *v, int n, mc_error *err)
{
    if (d->sum(d->ctx, v, 1) == 0)
        return 0;
    return mc_err(err, MC_ERR_IO,
                  "layer %d: the processes of the build "
                  "lost touch",
                  n);
}

static int dist_agree(const mc_egdb_dist *d, int rc, int n, mc_error *err)
{
    uint64_t bad = rc != 0;
    mc_error e2 = {0, ""};
    if (dist_sum(d, &bad, n, &e2) != 0) {
        if (!rc && err)
            *err = e2;
        return rc ? rc : e2.code;
    }
    if (bad && !rc)
        rc = mc_err(err, MC_ERR_IO,
                    "layer %d: another process of the "
                    "build failed",
                    n);
    return rc;
}

/* A large layer shared by the processes of d (dist.c): each computes its
   part and writes it at its offset into <layer>.dist-values in dir; rank
   0 then has the whole layer in *a (that file, mapped), the others
   nothing.  *redo: some positions have P < O (abapa under approximated
   layers below), for rank 0 to build alone. */
static int dist_layer(eg_rules *r, int n, mc_egdb_build_opts *o,
                      const mc_egdb_dist *d, const uint64_t *hsum, eg_array *a,
                      int *redo, mc_error *err)
{
    uint64_t lo, hi, N = mc_egdb_layer_size(n), open = 0;
    eg_dist_range(d, n, &lo, &hi);
    /* this rank's part, under the budget as a one-process layer is */
    eg_array part[3];
    char tag[32];
    snprintf(tag, sizeof tag, ".%d-%d", d->size, d->rank);
    int rc = work_arrays_of(o, n, hi - lo, tag, part, err);
    uint8_t *val = rc ? NULL : part[2].p;
    /* each rank's checkpoint: <layer>.ckpt.K-k */
    char ckpt[4200], base[4096], head[512], spec[256];
    eg_layer_file(o->dir, o->preset, n, ".ckpt", base, sizeof base);
    snprintf(ckpt, sizeof ckpt, "%s.%d-%d", base, d->size, d->rank);
    eg_full_spec(r->g, spec, sizeof spec);
    eg_journal_head(spec, n, hsum, head, sizeof head);
    eg_work wk = {0};
    wk.val = val;
    wk.cs = rc ? NULL : part[0].p;
    wk.eb = rc ? NULL : part[1].p;
    wk.ckpt = o->checkpoint_secs < 0 ? NULL : ckpt;
    wk.head = head;
    wk.ckpt_secs = eg_test_stop_after       ? 0
                   : o->checkpoint_secs > 0 ? o->checkpoint_secs
                                            : 60;
    wk.stop_after = eg_test_stop_after;
    int drc = rc ? 0
                 : eg_dist_entries(r, n, o->threads, d, &wk, &open,
                                   d->rank == 0 ? o->progress : NULL,
                                   o->progress_ctx);
    if (wk.resumed >= 0)
        eg_log(o, EG_LOG_TIMING, "n=%d rank %d resumed at phase %d", n, d->rank,
               wk.resumed);
    if (drc == -2)
        rc = mc_err(err, MC_ERR_ARG, "stopped after %d checkpoints (a test)",
                    wk.saved);
    else if (drc != 0)
        rc = eg_oom(n, err);
    char path[4096];
    eg_layer_file(o->dir, o->preset, n, ".dist-values", path, sizeof path);
    if (rc == 0 && eg_file_put(path, lo, val, hi - lo) != 0)
        rc = mc_err(err, MC_ERR_IO, "cannot write %s: %s", path,
                    strerror(errno));
    for (int i = 0; i < 3; i++)
        eg_array_free(&part[i]);
    rc = dist_agree(d, rc, n, err);
    if (rc == 0 && open) {
        o->open_bounds[n] = open;
        *redo = 1;
    }
    if (rc == 0 && d->rank == 0 && !*redo && eg_array_open(a, N, path) != 0)
        rc =
            mc_err(err, MC_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    if (d->rank == 0 && (*redo || rc))
        unlink(path);
    return rc;
}

/* Free layer n's entries, own[n]: the built values' array when they are
   its (memory or scratch file), else plain memory. */
static void release_built(eg_array *built, uint8_t **own, int n)
{
    if (built->p && own[n] == built->p) {
        eg_array_free(built);
        own[n] = NULL;
        return;
    }
    free(own[n]);
    own[n] = NULL;
}

/* A build's state from layer to layer: the rules with the lower layers'
   entries, the entries each layer owns (memory or the values' work
   array, built), the header checksums of the layers done, and whether
   any of them is approximated. */
typedef struct bstate {
    mc_egdb_build_opts *o;
    eg_rules r;
    const mc_egdb_dist *dd; /* shared by several processes, or NULL */
    uint8_t *own[MC_EGDB_MAX_SEEDS + 1];
    uint64_t hsum[MC_EGDB_MAX_SEEDS + 1];
    int approx_below;
    eg_array built;
} bstate;

/* Layer n as found on disk, before any layer was built: *kept when it is
   complete and was built on the layers below as they are (every process
   deciding alike, before any writes), its entries then the lower layer
   n.  0, or an error. */
static int keep_found(bstate *B, int n, int *kept, mc_error *err)
{
    mc_egdb_build_opts *o = B->o;
    *kept = 0;
    if (o->first_built <= o->max_seeds)
        return 0;
    mc_egdb_info info;
    const uint8_t *d;
    int found =
        found_layer(o->dir, o->preset, n, &info, &d, &B->r, &B->own[n]) == 0;
    int ok = found && info.preset == o->preset;
    for (int m = 0; m < n && ok; m++)
        ok = info.dep_sum[m] == B->hsum[m];
    if (B->dd) {
        /* kept by all, or built by all */
        uint64_t k = (uint64_t)ok;
        int rc = dist_sum(B->dd, &k, n, err);
        if (rc != 0)
            return rc;
        ok = k == (uint64_t)B->dd->size;
    }
    if (ok) {
        B->r.lower[n] = d;
        B->hsum[n] = info.header_sum;
        B->approx_below |= (int)info.approx_cycles;
        *kept = 1;
        return 0;
    }
    if (found) {
        if (B->r.map[n])
            munmap(B->r.map[n], B->r.maplen[n]);
        B->r.map[n] = NULL;
        B->r.maplen[n] = 0;
        free(B->own[n]);
        B->own[n] = NULL;
    }
    return 0;
}

/* The entries of layer n into B->own[n]: a large layer shared by the
   processes (rank 0 gets them all), else this process's alone (rank 0's
   when shared); the values' work array becomes B->built.  *approx: in,
   whether a layer below is approximated; out, whether this one is. */
static int compute_layer(bstate *B, int n, int *approx, mc_error *err)
{
    mc_egdb_build_opts *o = B->o;
    const mc_egdb_dist *dd = B->dd;
    eg_array a[3] = {{0}};
    int mine = !dd || dd->rank == 0, big = n >= EG_COMPACT_FROM;
    int computed = 0, rc = 0;
    a[0].fd = a[1].fd = a[2].fd = -1;
    if (dd && big) {
        int redo = 0;
        rc = dist_layer(&B->r, n, o, dd, B->hsum, &a[2], &redo, err);
        B->own[n] = a[2].p;
        computed = 1;
        if (rc == 0 && redo) {
            /* positions with P < O under approximated layers below:
               rank 0 builds the layer alone (the full sweep) */
            eg_array_free(&a[2]);
            B->own[n] = NULL;
            computed = 0;
        }
    }
    if (!computed && mine) {
        if (big) {
            rc = work_arrays(o, n, a, err);
            B->own[n] = rc ? NULL : a[2].p;
        } else {
            B->own[n] = malloc(mc_egdb_layer_size(n));
            rc = B->own[n] ? 0 : eg_oom(n, err);
        }
        if (rc == 0)
            rc = layer_entries(&B->r, n, o, B->hsum, B->own[n], a, approx, err);
    }
    /* the state and exits are done with; the values are written */
    eg_array_free(&a[0]);
    eg_array_free(&a[1]);
    if (a[2].p) {
        /* own[n] is a[2]'s: freed with it (release_built) */
        B->built = a[2];
        a[2].p = NULL;
    }
    return rc;
}

/* Layer n's file from its entries B->own[n], with the header info tells
   the rest of (*info: the header written); its search journal removed
   unless the options keep it. */
static int write_built(bstate *B, int n, int approx, mc_egdb_info *info,
                       mc_error *err)
{
    mc_egdb_build_opts *o = B->o;
    const uint8_t *e = B->own[n];
    uint64_t N = mc_egdb_layer_size(n);
    memset(info, 0, sizeof *info);
    info->preset = o->preset;
    info->n = n;
    eg_full_spec(B->r.g, info->spec, sizeof info->spec);
    info->entries = N;
    info->builder_version = EG_BUILDER_VERSION;
    for (uint64_t i = 0; i < N; i++) {
        info->hist[e[i] & 0x7f]++;
        info->history_proof += e[i] >> 7;
    }
    /* Every value of the layer in -n..n, and under abapa of the parity of
       n (an exact value or clamp(own split, P, O)). */
    uint64_t in_range = 0;
    for (int v = -n; v <= n; v++)
        if (o->preset != MC_EGDB_ABAPA || ((v - n) & 1) == 0)
            in_range += info->hist[64 + v];
    assert(in_range == N && info->history_proof <= N);
    info->approx_cycles = (uint32_t)approx;
    info->ndeps = (uint32_t)n;
    for (int m = 0; m < n; m++)
        info->dep_sum[m] = B->hsum[m];
    int rc = eg_write_layer(o->dir, info, e, err);
    if (rc == 0 && !o->keep_journal) {
        /* The layer holds its values now: its journal is done with (kept
           on request, to ship it: tools/ship-journal.sh). */
        char jpath[4096];
        mc_egdb_journal_path(o->dir, o->preset, n, jpath, sizeof jpath);
        remove(jpath);
    }
    return rc;
}

/* Layer n read back from its file for the layers above: the page cache
   holds it then, not the build's own memory.  written (rank 0's: the
   header it wrote, or NULL) must be what the file holds. */
static int map_built(bstate *B, int n, const mc_egdb_info *written,
                     mc_error *err)
{
    char path[4096];
    mc_egdb_info chk;
    const uint8_t *d;
    mc_egdb_path(B->o->dir, B->o->preset, n, path, sizeof path);
    int rc = eg_map_layer(path, &chk, &d, &B->r.map[n], &B->r.maplen[n], err);
    if (rc == 0 && written && chk.header_sum != written->header_sum)
        rc = mc_err(err, MC_ERR_IO, "%s changed while building", path);
    if (rc != 0)
        return rc;
    /* what rank 0 wrote and checked: a layer of n seeds */
    assert(!written || chk.entries == mc_egdb_layer_size(n));
    B->r.lower[n] = d;
    B->hsum[n] = chk.header_sum;
    B->approx_below |= (int)chk.approx_cycles;
    release_built(&B->built, B->own, n);
    return 0;
}

/* Build layer n: its entries, its file (rank 0's), then its entries read
   back from the file; the processes of a shared build agree after each
   step. */
static int build_layer(bstate *B, int n, mc_error *err)
{
    mc_egdb_build_opts *o = B->o;
    const mc_egdb_dist *dd = B->dd;
    int mine = !dd || dd->rank == 0;
    if (o->first_built > n)
        o->first_built = n;
    double t0 = now();
    uint64_t N = mc_egdb_layer_size(n);
    int approx = B->approx_below;
    int rc = compute_layer(B, n, &approx, err);
    if (dd)
        rc = dist_agree(dd, rc, n, err);
    if (rc) {
        release_built(&B->built, B->own, n);
        return rc;
    }
    mc_egdb_info info;
    assert(!mine || B->own[n]); /* rank 0 has the whole layer */
    if (mine)
        rc = write_built(B, n, approx, &info, err);
    if (dd) /* rank 0 has written the file */
        rc = dist_agree(dd, rc, n, err);
    B->r.lower[n] = B->own[n];
    if (rc == 0)
        rc = map_built(B, n, mine ? &info : NULL, err);
    if (dd && rc == 0)
        rc = dist_agree(dd, rc, n, err);
    o->seconds[n] = now() - t0;
    if (o->progress)
        o->progress(o->progress_ctx, n, "done", N, N);
    return rc;
}

int mc_egdb_build(mc_egdb_build_opts *o, mc_error *err)
{
    if (o->max_seeds < 0 || o->max_seeds > MC_EGDB_MAX_SEEDS)
        return mc_err(err, MC_ERR_ARG, "--seeds must be 0..%d",
                      MC_EGDB_MAX_SEEDS);
    bstate B;
    memset(&B, 0, sizeof B);
    B.built.fd = -1;
    B.o = o;
    int rc = eg_rules_init(&B.r, o->preset, err);
    if (rc)
        return rc;
    B.r.opts = o;
    /* Shared by several processes: the large layers by all of them, the
       small ones by rank 0 alone; rank 0 writes every file. */
    B.dd = o->dist && o->dist->size > 1 ? o->dist : NULL;
    o->first_built = o->max_seeds + 1;
    for (int n = 0; n <= o->max_seeds && rc == 0; n++) {
        o->seconds[n] = 0;
        o->open_bounds[n] = 0;
        int kept;
        rc = keep_found(&B, n, &kept, err);
        if (rc == 0 && !kept)
            rc = build_layer(&B, n, err);
    }
    for (int n = 0; n <= MC_EGDB_MAX_SEEDS; n++) {
        if (B.r.map[n])
            munmap(B.r.map[n], B.r.maplen[n]);
        if (B.built.p && B.own[n] == B.built.p)
            release_built(&B.built, B.own, n);
        free(B.own[n]);
    }
    eg_rules_free(&B.r);
    return rc;
}
