/*
 * game.h - the game interface: the table of functions every game provides.
 *
 * One file per game implements one mc_rules table.  Rules never print, read
 * files or allocate per move; history-dependent end rules get their facts in
 * an mc_hist from the session layer.
 */
#ifndef MC_GAME_H
#define MC_GAME_H

#include "mancala.h"
#include "../core/i18n.h"

#define MC_MAX_OPTS 16

struct mc_sb; /* core/util.h */

/* One variant option: a key with named values, or a number in [min, max]. */
typedef struct mc_optdef {
    const char *key;
    const char *const *values; /* NULL-terminated names; NULL = numeric */
    int def;                   /* index of the default name, or the number */
    int min, max;              /* numeric range */
    const char *help;
} mc_optdef;

/* A named time mode a game offers besides the forms every game has (none,
   move:S, game:S+I): Omweso's W16 modes.  control is one of those forms;
   aliases are other spellings, '|'-separated (may be NULL). */
typedef struct mc_time_mode_def {
    const char *name;
    const char *aliases;
    const char *control;
    int on_flag; /* MC_FLAG_LOSS or MC_FLAG_PASS */
    int no_undo; /* take-backs refused */
    const char *help;
} mc_time_mode_def;

typedef struct mc_preset {
    const char *name;
    const char *opts; /* "k=v,k=v" */
} mc_preset;

/* Features come in named groups laid end to end (mc_rules.feat_groups):
   a game lists them in a table ended by a NULL name. */
typedef struct mc_feat_group {
    const char *name;
    int count;
} mc_feat_group;

/* Optional: what a game whose positions can all be solved by retrograde
   analysis (src/egdb/retro.c, docs/SOLVED.md) tells the solver.  The
   solver plays the game's own moves; these only map boards to positions.
   A board is the `houses` pits of the position with the mover's first
   (the mover-first frame): the tables hold one value per board, the
   mover's, whatever the captures so far. */
typedef struct mc_retro {
    int houses;
    int max_seeds;
    int wdl; /* 1: values win 1, draw 0, loss -1; 0: the final margin of
                the board's seeds (captures to come and seeds kept) */
    /* 0 when g's options make such tables exact; else an MC_ERR_SPEC in
       err, saying why.  name: the tables' name ("notrades"). */
    int (*solvable)(const mc_game *g, char *name, size_t n, mc_error *err);
    /* The options that decide the values (NULL-terminated): the tables'
       header spells them out, and games that differ only in the others
       (who starts ...) share the tables. */
    const char *const *keys;
    /* The position of board h with the side to move to move (captures
       set so that the totals are right; the margin is measured from
       them). */
    void (*from_board)(const mc_game *g, const uint8_t *h, mc_pos *p);
    /* The board of p in the mover's frame; 0 when p's value does not
       follow from its board alone (an offer pending, a first move to
       make ...). */
    int (*to_board)(const mc_game *g, const mc_pos *p, uint8_t *h);
} mc_retro;

/* How the games of a match are scored (Oware O10, Omweso W2): the kind and
   its target (games won, wins in a row, points). */
enum {
    MC_FMT_SINGLE,
    MC_FMT_FIRST_TO,
    MC_FMT_ANTIGUA,
    MC_FMT_YORUBA,
    MC_FMT_POINTS
};
typedef struct mc_match_fmt {
    int kind, target;
} mc_match_fmt;

/* The match format of g (its rules' match_format; one game without). */
mc_match_fmt mc_game_match_format(const mc_game *g);

typedef struct mc_rules {
    const char *name;
    const char *title;
    const char *unit, *units; /* the pieces' names; NULL: "seed", "seeds" */
    int npits;
    const mc_optdef *opts;    /* terminated by a NULL key */
    const mc_preset *presets; /* terminated by a NULL name; may be NULL */

    /* Called once the options are parsed: check combinations, set up tables. */
    int (*init)(mc_game *g, mc_error *err);
    void (*fini)(mc_game *g);

    void (*start)(const mc_game *g, mc_pos *p);
    int (*moves)(const mc_game *g, const mc_pos *p, mc_move *out);
    /* Optional, for games whose positions might have more than
       MC_MAX_MOVES moves (Omweso): the moves into out, room for cap,
       returning how many there are (more than cap: only cap written). */
    int (*moves_all)(const mc_game *g, const mc_pos *p, mc_move *out, int cap);
    int (*play)(const mc_game *g, mc_pos *p, mc_move m, mc_trace *t);
    void (*status)(const mc_game *g, const mc_pos *p, const mc_hist *h,
                   mc_result *r);
    int (*total)(const mc_game *g, const mc_pos *p);
    /* Optional: the invariants every position the game makes or accepts
       keeps (its seeds' total, pits in range, the fields it does not use
       zero), each an assert(); returns 1.  game.c asserts it after
       mc_start and mc_pos_parse, and after mc_play in the checking builds
       (mc_hot_assert, util.h).  Never called on unchecked input: the
       parser rejects what breaks them. */
    int (*pos_ok)(const mc_game *g, const mc_pos *p);

    int (*pos_parse)(const mc_game *g, const char *s, mc_pos *p, mc_error *e);
    size_t (*pos_format)(const mc_game *g, const mc_pos *p, char *buf,
                         size_t n);
    /* Parse a token; when it is well formed but illegal in p, say why. */
    int (*move_parse)(const mc_game *g, const mc_pos *p, const char *s,
                      mc_move *m, mc_error *e);
    size_t (*move_format)(const mc_game *g, const mc_pos *p, mc_move m,
                          char *buf, size_t n);

    void (*layout)(const mc_game *g, mc_layout *l);
    const char *(*pit_name)(const mc_game *g, int pit);
    int (*pit_owner)(const mc_game *g, const mc_pos *p, int pit);
    size_t (*describe)(const mc_game *g, const mc_trace_event *e, char *buf,
                       size_t n);
    /* Optional: a hash of the position string's content (default:
       mc_pos_hash over the game's pits and the scalar fields). */
    uint64_t (*hash)(const mc_game *g, const mc_pos *p);
    /* Optional: static evaluation in hundredths of a seed from the view of
       the side to move (default: the difference of the stores).  w: the
       weights a tuning tool tries (mc_search_tuning.hand_eval), or NULL or
       all zero for the game's own. */
    int (*eval)(const mc_game *g, const mc_pos *p, const int *w);
    /* Optional: the features of the learned evaluation (learned.c): writes
       the active features of p, from the view of the side to move, as
       indexes below nfeat with small integer values; returns how many (at
       most MC_MAX_FEATURES).  feat_groups names them, for the weights file
       and `mancala tune`. */
    int (*features)(const mc_game *g, const mc_pos *p, mc_feature *f);
    int nfeat;
    const mc_feat_group *feat_groups;
    /* Optional: what a move other than a plain sowing is (offers, answers,
       passes): fill f and return 1, or return 0 for a sowing (whose pit
       the library then finds from the move's trace). */
    int (*move_facts)(const mc_game *g, const mc_pos *p, mc_move m,
                      mc_move_facts *f);
    /* Optional: the words of mc_move_explain for a move whose trace tells
       nothing (offers, answers: f from move_facts), after the mover's
       name `who`, appended to b; return 0 to leave them to the generic
       words ("South passes: ..."). */
    int (*move_words)(const mc_game *g, const mc_move_facts *f, const char *who,
                      struct mc_sb *b);
    /* Optional: the match format the game's options ask for; NULL: one
       game. */
    mc_match_fmt (*match_format)(const mc_game *g);
    /* Optional: the start p (already the game's start, its starter set) of
       a match's game after games_before completed ones. */
    void (*match_start)(const mc_game *g, int games_before, mc_pos *p);
    /* Optional: whether each player arranges its own seeds before the
       first move, and the most a pit may get then (0: any). */
    int (*custom_setup)(const mc_game *g, int *cap);
    /* Optional: mc_offer_move (games with offers); NULL: no offers. */
    int (*offer_move)(const mc_game *g, const mc_pos *p, uint32_t pits,
                      mc_move *m, mc_error *err);
    /* Optional: mc_move_choice's words for m (legal in p), appended to
       b; NULL: the move's token. */
    void (*choice_words)(const mc_game *g, const mc_pos *p, mc_move m,
                         struct mc_sb *b);
    /* Optional: the words after "South wins ...: " for the game's own end
       reasons (captures, points, annulment ...), as a sentence ending in
       a full stop, appended to b; return 0 (writing nothing) to leave
       them to the generic words. */
    int (*result_words)(const mc_game *g, const mc_result *r, struct mc_sb *b);
    /* Nonzero when Monte Carlo tree search beat alpha-beta in self-play
       for this game, making it the default computer player. */
    int prefer_mcts;
    /* Optional: the game's named time modes, ended by a NULL name
       (session/clock.c). */
    const mc_time_mode_def *time_modes;
    /* Machine learning (include/mancala_ml.h, docs/PYTHON.md).  A fixed
       action space of nactions indexes: action_index gives the index of a
       legal move m of p, or -1 when m has none (the documented limits of
       the game's numbering).  observe writes the obs_size numbers of the
       game's observation of p, from the view of the side to move. */
    int nactions;
    long (*action_index)(const mc_game *g, const mc_pos *p, mc_move m);
    int obs_size;
    void (*observe)(const mc_game *g, const mc_pos *p, float *out);
    /* Optional: the solved tables' mapping (NULL: not solvable). */
    const mc_retro *retro;
    /* How players read the engine's values (mc_win_chance,
       mc_score_describe): K, in hundredths of a seed, such that
       1 / (1 + exp(-score / K)) best predicts the side to move's result
       (fitted by `mancala tune ... fit` on self-play data, the figure
       and its data named where each game sets it; 0: 800); and whether a
       value is told in seeds (games decided by captured seeds: Oware,
       Goré) or only as a chance to win (games won by survival, where a
       seed count means little to a player: Omweso, Sadeqa II). */
    double win_scale;
    int score_in_seeds;
} mc_rules;

struct mc_game {
    const mc_rules *rules;
    int opt[MC_MAX_OPTS];
    char spec[MC_SPEC_STRLEN];
    void *data;
    const struct mc_learned *evalw; /* learned model (learned.c), or NULL */
    struct mc_learned *evalw_own;   /* mc_game_set_eval's, freed with g */
};

/* A new game of g's spec with g's evaluation (a copy of a model g owns):
   the player's games, so that mc_game_set_eval reaches its searches. */
mc_game *mc_game_dup(const mc_game *g, mc_error *err);

/* "name k" for feature i of the groups (learned.c). */
size_t mc_feat_group_name(const mc_feat_group *gr, int i, char *buf, size_t n);

/* Learned weights are kept in 1/MC_LEARNED_ONE hundredths of a seed. */
#define MC_LEARNED_ONE 16
#define MC_NET_MAX 64 /* widest network */

/* A learned model: linear (hidden 0: the sum of the active features'
   weights w) or a network of `hidden` clipped-ReLU units over the features
   (w1[feature * hidden + unit], in units of the activation 0..1) and one
   output (w2, b2 in hundredths of a seed).  docs/SEARCH.md. */
typedef struct mc_learned {
    int32_t *w;
    int hidden;
    float *w1;
    float b1[MC_NET_MAX], w2[MC_NET_MAX], b2;
} mc_learned;

/* The network's value of the active features f[0..n-1]. */
int mc_learned_net_eval(const mc_learned *m, const mc_feature *f, int n);

/* The evaluation the search uses: learned when the game has weights, else
   the game's hand-set one (with weights hand_w, NULL: the game's own),
   else the difference of the stores. */
static inline int mc_game_eval_w(const mc_game *g, const mc_pos *p,
                                 const int *hand_w)
{
    if (g->evalw) {
        mc_feature f[MC_MAX_FEATURES];
        int n = g->rules->features(g, p, f);
        if (g->evalw->hidden)
            return mc_learned_net_eval(g->evalw, f, n);
        const int32_t *w = g->evalw->w;
        int32_t sum = 0;
        for (int i = 0; i < n; i++)
            sum += w[f[i].index] * f[i].value;
        return sum / MC_LEARNED_ONE;
    }
    if (g->rules->eval)
        return g->rules->eval(g, p, hand_w);
    return 100 * ((int)p->cap[p->side] - (int)p->cap[1 - p->side]);
}

static inline int mc_game_eval(const mc_game *g, const mc_pos *p)
{
    return mc_game_eval_w(g, p, NULL);
}

/* The games, in the order `mancala` lists them. */
extern const mc_rules mc_rules_oware;
extern const mc_rules mc_rules_gore;
extern const mc_rules mc_rules_sadeqa2;
extern const mc_rules mc_rules_omweso;

/* Layout helper for the two-row games: North's row on top, right to left
   as South sees it (indices per_side..2*per_side-1), South's below. */
static inline void mc_layout_two_rows(mc_layout *l, int per_side)
{
    l->rows = 2;
    l->cols = per_side;
    for (int c = 0; c < per_side; c++) {
        l->pit[0][c] = (int8_t)(2 * per_side - 1 - c);
        l->pit[1][c] = (int8_t)c;
    }
}

/* Trace helper: append an event if there is room, else count it dropped. */
static inline void mc_trace_add(mc_trace *t, int kind, int pit, uint32_t n,
                                int aux)
{
    if (!t)
        return;
    if (t->len < t->cap) {
        mc_trace_event *e = &t->ev[t->len++];
        e->kind = (uint8_t)kind;
        e->pit = (uint8_t)pit;
        e->aux = (uint8_t)aux;
        e->pad = 0;
        e->n = n;
    } else {
        t->dropped++;
    }
}

#endif
