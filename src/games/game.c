/*
 * game.c - the registry of games, spec parsing ("name:k=v,preset"), and the
 * public wrappers around each game's table of functions.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "game.h"
#include "learned.h"

static const mc_rules *const all_rules[] = {
    &mc_rules_oware, &mc_rules_gore, &mc_rules_sadeqa2, &mc_rules_omweso, NULL,
};

static const char *const *names_cache(void)
{
    static const char *names[sizeof all_rules / sizeof all_rules[0]];
    for (size_t i = 0; all_rules[i]; i++)
        names[i] = all_rules[i]->name;
    return names;
}

const char *const *mc_game_names(void)
{
    return names_cache();
}

const char *mc_version(void)
{
    return MC_VERSION_STRING;
}

unsigned mc_version_hex(void)
{
    return MC_VERSION_HEX;
}

const char *mc_strerror(int err)
{
    switch (err) {
    case MC_OK:
        return _("no error");
    case MC_ERR_SPEC:
        return _("bad game name or option");
    case MC_ERR_POSITION:
        return _("bad position");
    case MC_ERR_MOVE:
        return _("bad move");
    case MC_ERR_ILLEGAL:
        return _("move not allowed by the rules");
    case MC_ERR_OVER:
        return _("the game is over");
    case MC_ERR_IO:
        return _("file or stream error");
    case MC_ERR_ARG:
        return _("bad argument");
    case MC_ERR_NOMEM:
        return _("out of memory");
    default:
        return _("unknown error");
    }
}

static const mc_rules *find_rules(const char *name, size_t len)
{
    for (size_t i = 0; all_rules[i]; i++)
        if (strlen(all_rules[i]->name) == len &&
            memcmp(all_rules[i]->name, name, len) == 0)
            return all_rules[i];
    return NULL;
}

static void list_games(mc_sb *b)
{
    for (size_t i = 0; all_rules[i]; i++)
        mc_sb_printf(b, "%s%s", i ? ", " : "", all_rules[i]->name);
}

static int opt_count(const mc_rules *r)
{
    int n = 0;
    while (r->opts && r->opts[n].key)
        n++;
    return n;
}

static int set_option(mc_game *g, const char *item, size_t len, int depth,
                      mc_error *err);

/* Apply a comma-separated list of items to g. */
static int apply_list(mc_game *g, const char *s, int depth, mc_error *err)
{
    while (*s) {
        const char *c = strchr(s, ',');
        size_t len = c ? (size_t)(c - s) : strlen(s);
        if (len == 0)
            return mc_err(err, MC_ERR_SPEC, _("%s: empty option in the list"),
                          g->rules->name);
        int rc = set_option(g, s, len, depth, err);
        if (rc)
            return rc;
        s += len;
        if (*s == ',') {
            s++;
            if (!*s)
                return mc_err(err, MC_ERR_SPEC,
                              _("%s: empty option at the end of the list"),
                              g->rules->name);
        }
    }
    return 0;
}

static int set_option(mc_game *g, const char *item, size_t len, int depth,
                      mc_error *err)
{
    const mc_rules *r = g->rules;
    const char *eq = memchr(item, '=', len);
    if (!eq) {
        for (const mc_preset *p = r->presets; p && p->name; p++)
            if (strlen(p->name) == len && memcmp(p->name, item, len) == 0)
                return depth > 2 ? 0 : apply_list(g, p->opts, depth + 1, err);
        char buf[200];
        mc_sb b;
        mc_sb_init(&b, buf, sizeof buf);
        for (const mc_preset *p = r->presets; p && p->name; p++)
            mc_sb_printf(&b, "%s%s", b.len ? ", " : "", p->name);
        if (!b.len)
            return mc_err(err, MC_ERR_SPEC,
                          _("%s: '%.*s' is neither key=value nor a preset"),
                          r->name, (int)(len > 40 ? 40 : len), item);
        return mc_err(err, MC_ERR_SPEC,
                      _("%s: '%.*s' is neither key=value nor a preset "
                        "(presets: %s)"),
                      r->name, (int)(len > 40 ? 40 : len), item, buf);
    }
    size_t klen = (size_t)(eq - item);
    const char *val = eq + 1;
    size_t vlen = len - klen - 1;
    int n = opt_count(r);
    for (int i = 0; i < n; i++) {
        const mc_optdef *o = &r->opts[i];
        if (strlen(o->key) != klen || memcmp(o->key, item, klen) != 0)
            continue;
        if (o->values) {
            for (int v = 0; o->values[v]; v++)
                if (strlen(o->values[v]) == vlen &&
                    memcmp(o->values[v], val, vlen) == 0) {
                    g->opt[i] = v;
                    return 0;
                }
            char buf[200];
            mc_sb b;
            mc_sb_init(&b, buf, sizeof buf);
            for (int v = 0; o->values[v]; v++)
                mc_sb_printf(&b, "%s%s", v ? ", " : "", o->values[v]);
            return mc_err(err, MC_ERR_SPEC,
                          _("%s: option %s: bad value '%.*s' (expected one of: "
                            "%s)"),
                          r->name, o->key, (int)(vlen > 40 ? 40 : vlen), val,
                          buf);
        }
        long v = mc_parse_uint(val, vlen, o->max);
        if (v < o->min)
            return mc_err(err, MC_ERR_SPEC,
                          _("%s: option %s: bad value '%.*s' (expected a whole "
                            "number from %d to %d)"),
                          r->name, o->key, (int)(vlen > 40 ? 40 : vlen), val,
                          o->min, o->max);
        g->opt[i] = (int)v;
        return 0;
    }
    char buf[300];
    mc_sb b;
    mc_sb_init(&b, buf, sizeof buf);
    for (int i = 0; i < n; i++)
        mc_sb_printf(&b, "%s%s", i ? ", " : "", r->opts[i].key);
    return mc_err(err, MC_ERR_SPEC,
                  _("%s: unknown option '%.*s' (options: %s)"), r->name,
                  (int)(klen > 40 ? 40 : klen), item, buf);
}

static void canonical_spec(mc_game *g)
{
    mc_sb b;
    mc_sb_init(&b, g->spec, sizeof g->spec);
    mc_sb_printf(&b, "%s", g->rules->name);
    int n = opt_count(g->rules), k = 0;
    for (int i = 0; i < n; i++) {
        const mc_optdef *o = &g->rules->opts[i];
        if (g->opt[i] == o->def)
            continue;
        mc_sb_putc(&b, k++ ? ',' : ':');
        if (o->values)
            mc_sb_printf(&b, "%s=%s", o->key, o->values[g->opt[i]]);
        else
            mc_sb_printf(&b, "%s=%d", o->key, g->opt[i]);
    }
}

mc_game *mc_game_new(const char *spec, mc_error *err)
{
    if (!spec)
        spec = "";
    if (strlen(spec) >= MC_SPEC_STRLEN) {
        mc_err(err, MC_ERR_SPEC, _("game spec too long (%zu characters)"),
               strlen(spec));
        return NULL;
    }
    const char *colon = strchr(spec, ':');
    size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
    const mc_rules *r = find_rules(spec, nlen);
    if (!r) {
        char buf[200];
        mc_sb b;
        mc_sb_init(&b, buf, sizeof buf);
        list_games(&b);
        mc_err(err, MC_ERR_SPEC, _("unknown game '%.*s' (games: %s)"),
               (int)(nlen > 40 ? 40 : nlen), spec, buf);
        return NULL;
    }
    mc_game *g = calloc(1, sizeof *g);
    if (!g) {
        mc_err(err, MC_ERR_NOMEM, _("out of memory"));
        return NULL;
    }
    g->rules = r;
    g->evalw = mc_learned_model(r);
    int n = opt_count(r);
    assert(n <= MC_MAX_OPTS); /* the table fits the game's opt[] */
    for (int i = 0; i < n; i++)
        g->opt[i] = r->opts[i].def;
    if (colon) {
        if (!colon[1] || apply_list(g, colon + 1, 0, err) != 0) {
            if (!colon[1])
                mc_err(err, MC_ERR_SPEC, _("%s: nothing after ':'"), r->name);
            free(g);
            return NULL;
        }
    }
    if (r->init && r->init(g, err) != 0) {
        free(g);
        return NULL;
    }
    canonical_spec(g);
    return g;
}

static void drop_own_eval(mc_game *g)
{
    if (g->evalw_own) {
        mc_learned_clear(g->evalw_own);
        free(g->evalw_own);
        g->evalw_own = NULL;
    }
}

void mc_game_free(mc_game *g)
{
    if (!g)
        return;
    if (g->rules->fini)
        g->rules->fini(g);
    drop_own_eval(g);
    free(g);
}

const char *mc_game_name(const mc_game *g)
{
    return g->rules->name;
}
const char *mc_game_title(const mc_game *g)
{
    return _(g->rules->title);
}
const char *mc_game_spec(const mc_game *g)
{
    return g->spec;
}

mc_match_fmt mc_game_match_format(const mc_game *g)
{
    mc_match_fmt single = {MC_FMT_SINGLE, 1};
    return g->rules->match_format ? g->rules->match_format(g) : single;
}

int mc_game_is_match(const mc_game *g)
{
    return mc_game_match_format(g).kind != MC_FMT_SINGLE;
}

int mc_game_custom_setup(const mc_game *g, int *cap)
{
    int c = 0, on = g->rules->custom_setup && g->rules->custom_setup(g, &c);
    if (cap)
        *cap = on ? c : 0;
    return on;
}

const char *mc_game_unit(const mc_game *g, int plural)
{
    const mc_rules *r = g->rules;
    if (plural)
        return r->units ? _(r->units) : _("seeds");
    return r->unit ? _(r->unit) : _("seed");
}

int mc_offer_move(const mc_game *g, const mc_pos *p, uint32_t pits, mc_move *m,
                  mc_error *err)
{
    if (!g->rules->offer_move)
        return mc_err(err, MC_ERR_ILLEGAL, _("there are no offers in %s"),
                      _(g->rules->title));
    int rc = g->rules->offer_move(g, p, pits, m, err);
    if (rc)
        return rc;
    mc_move mv[MC_MAX_MOVES];
    int n = mc_moves(g, p, mv);
    for (int i = 0; i < n; i++)
        if (mv[i] == *m)
            return 0;
    return mc_err(err, MC_ERR_ILLEGAL, _("not an offer that may be made now"));
}

size_t mc_move_choice(const mc_game *g, const mc_pos *p, mc_move m, char *buf,
                      size_t n)
{
    if (!g->rules->choice_words)
        return mc_move_format(g, p, m, buf, n);
    mc_sb b;
    mc_sb_init(&b, buf, n);
    g->rules->choice_words(g, p, m, &b);
    return b.len;
}
int mc_game_pits(const mc_game *g)
{
    return g->rules->npits;
}

const char *mc_game_option(const mc_game *g, const char *key)
{
    static _Thread_local char num[16];
    int n = opt_count(g->rules);
    for (int i = 0; i < n; i++) {
        const mc_optdef *o = &g->rules->opts[i];
        if (strcmp(o->key, key) != 0)
            continue;
        if (o->values)
            return o->values[g->opt[i]];
        mc_sb b;
        mc_sb_init(&b, num, sizeof num);
        mc_sb_printf(&b, "%d", g->opt[i]);
        return num;
    }
    return NULL;
}

size_t mc_game_options_help(const mc_game *g, char *buf, size_t n)
{
    mc_sb b;
    mc_sb_init(&b, buf, n);
    const mc_rules *r = g->rules;
    for (int i = 0; r->opts && r->opts[i].key; i++) {
        const mc_optdef *o = &r->opts[i];
        mc_sb_printf(&b, "  %-18s ", o->key);
        if (o->values) {
            for (int v = 0; o->values[v]; v++)
                mc_sb_printf(&b, "%s%s%s", v ? "|" : "", o->values[v],
                             v == o->def ? "*" : "");
        } else {
            mc_sb_printf(&b, _("%d..%d (default %d)"), o->min, o->max, o->def);
        }
        mc_sb_printf(&b, "\n  %-18s %s\n", "", o->help ? _(o->help) : "");
    }
    /* a preset's line is a key and its value as the options' are, for
       scripts as much as for people: the same in every language */
    for (const mc_preset *p = r->presets; p && p->name; p++)
        mc_sb_printf(&b, "  preset %-11s %s\n", p->name, p->opts);
    return b.len;
}

/* The game's invariants of p (game.h: pos_ok); 1 when it has none. */
static int pos_ok(const mc_game *g, const mc_pos *p)
{
    return !g->rules->pos_ok || g->rules->pos_ok(g, p);
}

void mc_start(const mc_game *g, mc_pos *p)
{
    memset(p, 0, sizeof *p);
    g->rules->start(g, p);
    assert(pos_ok(g, p));
}

int mc_moves(const mc_game *g, const mc_pos *p, mc_move *out)
{
    int n = g->rules->moves(g, p, out);
    mc_hot_assert(n >= 0 && n <= MC_MAX_MOVES);
    return n;
}

int mc_moves_all(const mc_game *g, const mc_pos *p, mc_move *out, int cap,
                 int *n, mc_error *err)
{
    if (!out || cap < 0 || !n)
        return mc_err(err, MC_ERR_ARG, "mc_moves_all: no buffer");
    if (g->rules->moves_all) {
        *n = g->rules->moves_all(g, p, out, cap);
    } else {
        mc_move all[MC_MAX_MOVES];
        *n = g->rules->moves(g, p, all);
        memcpy(out, all, (size_t)(*n < cap ? *n : cap) * sizeof *out);
    }
    assert(*n >= 0);
    if (*n > cap)
        return mc_err(err, MC_ERR_ARG,
                      _("%d legal moves do not fit in room for %d"), *n, cap);
    return 0;
}

int mc_play(const mc_game *g, mc_pos *p, mc_move m, mc_trace *t)
{
    mc_hot_assert(p->side == MC_SOUTH || p->side == MC_NORTH);
    if (m == MC_MOVE_PASS) { /* a passed turn (the session's, W16) */
        p->side ^= 1;
        return 0;
    }
    int fl = g->rules->play(g, p, m, t);
    /* Every game checks its seeds and pits after every move. */
    mc_hot_assert(pos_ok(g, p));
    mc_hot_assert(!(fl & ~(MC_PLAY_IRREVERSIBLE | MC_PLAY_RESET_QUIET)));
    return fl;
}

void mc_status(const mc_game *g, const mc_pos *p, const mc_hist *h,
               mc_result *r)
{
    static const mc_hist fresh = {1, 0, 0};
    /* Cheaper than clearing the whole struct: this runs at every node. */
    r->over = 0;
    r->winner = MC_DRAW;
    r->reason = MC_END_NONE;
    r->score2[0] = r->score2[1] = 0;
    r->points = 0;
    r->noglory = 0;
    r->detail[0] = '\0';
    g->rules->status(g, p, h ? h : &fresh, r);
    mc_hot_assert(r->over ? r->winner == MC_SOUTH || r->winner == MC_NORTH ||
                                r->winner == MC_DRAW
                          : r->reason == MC_END_NONE);
}

uint64_t mc_hash(const mc_game *g, const mc_pos *p)
{
    if (g->rules->hash)
        return g->rules->hash(g, p);
    return mc_pos_hash(p, g->rules->npits);
}

int mc_total(const mc_game *g, const mc_pos *p)
{
    return g->rules->total(g, p);
}

int mc_pos_parse(const mc_game *g, const char *s, mc_pos *p, mc_error *err)
{
    mc_pos tmp;
    memset(&tmp, 0, sizeof tmp);
    if (!s)
        return mc_err(err, MC_ERR_POSITION, _("no position given"));
    if (strcmp(s, "start") == 0) {
        mc_start(g, p);
        return 0;
    }
    int rc = g->rules->pos_parse(g, s, &tmp, err);
    if (rc == 0) {
        /* What the parser accepts is well formed: it rejects the rest. */
        assert(pos_ok(g, &tmp));
        *p = tmp;
    }
    return rc;
}

size_t mc_pos_format(const mc_game *g, const mc_pos *p, char *buf, size_t n)
{
    return g->rules->pos_format(g, p, buf, n);
}

int mc_move_parse(const mc_game *g, const mc_pos *p, const char *s, mc_move *m,
                  mc_error *err)
{
    mc_move mv = 0;
    if (!s || !*s)
        return mc_err(err, MC_ERR_MOVE, _("empty move"));
    int rc = g->rules->move_parse(g, p, s, &mv, err);
    if (rc)
        return rc;
    /* The game said the move is legal: hold it to its own move list. */
    mc_move list[MC_MAX_MOVES];
    int n = g->rules->moves(g, p, list);
    for (int i = 0; i < n; i++)
        if (list[i] == mv) {
            *m = mv;
            return 0;
        }
    return mc_err(err, MC_ERR_ILLEGAL, _("%s is not a legal move here"), s);
}

size_t mc_move_format(const mc_game *g, const mc_pos *p, mc_move m, char *buf,
                      size_t n)
{
    if (m == MC_MOVE_PASS) {
        size_t len = strlen(MC_PASS_TOKEN);
        if (n) {
            size_t k = len < n ? len : n - 1;
            memcpy(buf, MC_PASS_TOKEN, k);
            buf[k] = '\0';
        }
        return len;
    }
    return g->rules->move_format(g, p, m, buf, n);
}

void mc_layout_get(const mc_game *g, mc_layout *l)
{
    memset(l, 0, sizeof *l);
    memset(l->pit, -1, sizeof l->pit);
    g->rules->layout(g, l);
    /* The grid fits its array and shows every pit. */
    assert(l->rows <= 4 && l->cols <= 8 &&
           l->rows * l->cols >= g->rules->npits);
}

const char *mc_pit_name(const mc_game *g, int pit)
{
    if (pit < 0 || pit >= g->rules->npits)
        return "?";
    return g->rules->pit_name(g, pit);
}

int mc_pit_owner(const mc_game *g, const mc_pos *p, int pit)
{
    return g->rules->pit_owner(g, p, pit);
}

size_t mc_trace_describe(const mc_game *g, const mc_trace_event *e, char *buf,
                         size_t n)
{
    return g->rules->describe(g, e, buf, n);
}

static const char *const trace_kind_names[] = {
    [MC_TR_LIFT] = "lift",       [MC_TR_DROP] = "drop",
    [MC_TR_SKIP] = "skip",       [MC_TR_LAP] = "lap",
    [MC_TR_CAPTURE] = "capture", [MC_TR_NOCAPTURE] = "nocapture",
    [MC_TR_END] = "end",         [MC_TR_TRADE] = "trade",
    [MC_TR_PASS] = "pass",       [MC_TR_RESOW] = "resow",
    [MC_TR_OPENING] = "opening", [MC_TR_ANNUL] = "annul",
};

const char *mc_trace_kind_name(int kind)
{
    int n = (int)(sizeof trace_kind_names / sizeof *trace_kind_names);
    return kind > 0 && kind < n ? trace_kind_names[kind] : NULL;
}

/* ---- what a move is, how a game ended ---- */

int mc_move_facts_get(const mc_game *g, const mc_pos *p, mc_move m,
                      mc_move_facts *out)
{
    memset(out, 0, sizeof *out);
    out->pit = -1;
    if (m == MC_MOVE_PASS) {
        out->kind = MC_MOVE_IS_PASS;
        snprintf(out->why, sizeof out->why, "%s",
                 _("the time for the move ran out"));
        return 0;
    }
    mc_move list[MC_MAX_MOVES];
    int n = g->rules->moves(g, p, list), legal = 0;
    for (int i = 0; i < n && !legal; i++)
        legal = list[i] == m;
    if (!legal)
        return MC_ERR_ARG;
    if (g->rules->move_facts && g->rules->move_facts(g, p, m, out))
        return 0;
    /* A sowing: its first lift (or lap, or opening sowing) names the pit. */
    out->kind = MC_MOVE_IS_SOW;
    mc_trace_event ev[4];
    mc_trace tr = {ev, 4, 0, 0};
    mc_pos q = *p;
    g->rules->play(g, &q, m, &tr);
    for (size_t i = 0; i < tr.len && out->pit < 0; i++)
        if (ev[i].kind == MC_TR_LIFT || ev[i].kind == MC_TR_LAP ||
            ev[i].kind == MC_TR_OPENING || ev[i].kind == MC_TR_ANNUL)
            out->pit = ev[i].pit;
    assert(out->pit < g->rules->npits);
    return 0;
}

size_t mc_move_explain(const mc_game *g, const mc_pos *before, mc_move m,
                       const mc_trace *t, char *buf, size_t n)
{
    static const char *const side[2] = {N_("South"), N_("North")};
    const char *who = _(side[before->side == MC_NORTH]);
    mc_sb b;
    mc_sb_init(&b, buf, n);
    mc_move_facts f;
    int sow =
        mc_move_facts_get(g, before, m, &f) != 0 || f.kind == MC_MOVE_IS_SOW;
    char last = 0; /* the text's last character, kept past truncation */
    const char *sep = "";
    if (sow) {
        char tok[MC_MOVE_STRLEN];
        mc_move_format(g, before, m, tok, sizeof tok);
        /* TRANSLATORS: the start of a move's explanation: who plays
           which move (its letters, as the rules write it); what the
           move does follows */
        mc_sb_printf(&b, _("%s plays %s"), who, tok);
        /* TRANSLATORS: between "South plays C" and what the move does */
        sep = _(": ");
    }
    int told = 0;
    for (size_t i = 0; t && i < t->len; i++) {
        if (t->ev[i].kind == MC_TR_DROP)
            continue;
        char e[160];
        size_t k = mc_trace_describe(g, &t->ev[i], e, sizeof e);
        mc_sb_printf(&b, "%s%s", sep, e);
        if (k > 0)
            last = e[(k < sizeof e ? k : sizeof e - 1) - 1];
        /* TRANSLATORS: between two steps of a move's explanation */
        sep = _("; ");
        told = 1;
    }
    if (!sow && !told) { /* nothing told: say what it was */
        /* Into a buffer of its own, so that the full stop's test sees the
           words' last character even when buf is too small for them (the
           length returned must not depend on n). */
        char w[200];
        mc_sb wb;
        mc_sb_init(&wb, w, sizeof w);
        if (!g->rules->move_words || !g->rules->move_words(g, &f, who, &wb)) {
            if (f.kind == MC_MOVE_IS_PASS && f.why[0])
                /* TRANSLATORS: %1$s the side, %2$s why it passes */
                mc_sb_printf(&wb, _("%1$s passes: %2$s"), who, f.why);
            else if (f.kind == MC_MOVE_IS_PASS)
                mc_sb_printf(&wb, _("%s passes"), who);
            else
                mc_sb_printf(&wb, _("%s plays a move"), who);
        }
        size_t k = strlen(w);
        mc_sb_printf(&b, "%s", w);
        if (k > 0)
            last = w[k - 1];
    }
    if (last != '.')
        mc_sb_putc(&b, '.');
    return b.len;
}

int mc_move_pit(const mc_game *g, const mc_pos *p, mc_move m)
{
    mc_move_facts f;
    if (mc_move_facts_get(g, p, m, &f) != 0 || f.kind != MC_MOVE_IS_SOW)
        return -1;
    return f.pit;
}

static const char *const reason_names[] = {
    [MC_END_NONE] = "",
    [MC_END_CAPTURES] = "captures",
    [MC_END_REPETITION] = "repetition",
    [MC_END_NOMOVE] = "nomove",
    [MC_END_STUCK] = "stuck",
    [MC_END_PLIES] = "plies",
    [MC_END_BOARD] = "board",
    [MC_END_POINTS] = "points",
    [MC_END_ANNULLED] = "annulled",
    [MC_END_RESIGN] = "resign",
    [MC_END_TIME] = "time",
};
#define NREASONS ((int)(sizeof reason_names / sizeof *reason_names))

const char *mc_end_reason_name(int reason)
{
    return reason >= 0 && reason < NREASONS ? reason_names[reason] : NULL;
}

int mc_end_reason_parse(const char *name)
{
    for (int i = 0; name && i < NREASONS; i++)
        if (strcmp(name, reason_names[i]) == 0)
            return i;
    return -1;
}

/* The generic words for an end reason; l is the loser, -1 at a draw.
   Each is a sentence that follows a colon ("South wins 25 to 23: ..."). */
static void reason_words(mc_sb *b, const mc_result *r, int l)
{
    const char *L = l >= 0 ? mc_side_word(l) : NULL;
    switch (r->reason) {
    case MC_END_CAPTURES:
        if (l >= 0)
            mc_sb_printf(b, _("%s has captured more than half of the seeds."),
                         mc_side_word(1 - l));
        else
            mc_sb_printf(b, _("a player has captured more than half of the "
                              "seeds."));
        break;
    case MC_END_REPETITION:
        mc_sb_printf(b, "%s", _("the same position came back again."));
        break;
    case MC_END_NOMOVE:
        if (L)
            mc_sb_printf(b, _("%s has no legal move."), L);
        else
            mc_sb_printf(b, "%s", _("the player to move has no legal move."));
        break;
    case MC_END_STUCK:
        if (L)
            mc_sb_printf(b, _("every move %s could make would never end."), L);
        else
            mc_sb_printf(b, "%s",
                         _("every move the player to move could make would "
                           "never end."));
        break;
    case MC_END_PLIES:
        mc_sb_printf(b, "%s", _("the game reached its limit of moves."));
        break;
    case MC_END_BOARD:
        mc_sb_printf(b, "%s",
                     _("every pit holds 2 or fewer, so each player adds the "
                       "stones of the pits they own."));
        break;
    default:
        mc_sb_printf(b, "%s", _("the game is over."));
        break;
    }
}

/* A score counted in half seeds: "24", "24.5". */
static void half(mc_sb *b, int s2)
{
    if (s2 % 2)
        /* TRANSLATORS: a score with a half seed (24.5): the decimal
           separator of the language */
        mc_sb_printf(b, _("%d.5"), s2 / 2);
    else
        mc_sb_printf(b, "%d", s2 / 2);
}

size_t mc_result_describe(const mc_game *g, const mc_result *r, char *buf,
                          size_t n)
{
    mc_sb b;
    mc_sb_init(&b, buf, n);
    if (!r->over)
        return 0;
    int w = r->winner;
    if (r->reason == MC_END_RESIGN || r->reason == MC_END_TIME) {
        int l = w == MC_SOUTH ? MC_NORTH : MC_SOUTH;
        if (r->reason == MC_END_TIME)
            /* TRANSLATORS: %1$s the winner, %2$s the loser (South, North) */
            mc_sb_printf(&b, _("%1$s wins: %2$s ran out of time."),
                         mc_side_word(w & 1), mc_side_word(l));
        else
            /* TRANSLATORS: %1$s the winner, %2$s the loser (South, North) */
            mc_sb_printf(&b, _("%1$s wins: %2$s resigned."),
                         mc_side_word(w & 1), mc_side_word(l));
        return b.len;
    }
    /* Why it ended (a sentence after a colon), then the score. */
    char why[400];
    mc_sb wb;
    mc_sb_init(&wb, why, sizeof why);
    int loser = w == MC_SOUTH ? MC_NORTH : w == MC_NORTH ? MC_SOUTH : -1;
    if (!g->rules->result_words || !g->rules->result_words(g, r, &wb))
        reason_words(&wb, r, loser);
    mc_layout l;
    mc_layout_get(g, &l);
    const char *W = w == MC_DRAW ? NULL : mc_side_word(w);
    if (r->reason == MC_END_ANNULLED) {
        /* TRANSLATORS: %s says why (a sentence) */
        mc_sb_printf(&b, _("The game is annulled: %s"), why);
    } else if (r->reason == MC_END_POINTS && r->points) {
        if (W)
            /* TRANSLATORS: %1$s the winner, %2$d the points won, %3$s why
               the game ended (a sentence) */
            mc_sb_printf(&b,
                         P_("%1$s wins %2$d point: %3$s",
                            "%1$s wins %2$d points: %3$s", r->points),
                         W, r->points, why);
        else
            mc_sb_printf(&b,
                         P_("Draw %1$d point: %2$s", "Draw %1$d points: %2$s",
                            r->points),
                         r->points, why);
    } else if (l.stores) {
        char s1[24], s2[24];
        mc_sb x;
        mc_sb_init(&x, s1, sizeof s1);
        half(&x, r->score2[w == MC_NORTH]);
        mc_sb_init(&x, s2, sizeof s2);
        half(&x, r->score2[w != MC_NORTH]);
        if (W)
            /* TRANSLATORS: %1$s the winner, %2$s to %3$s the score (the
               winner's first), %4$s why the game ended (a sentence) */
            mc_sb_printf(&b, _("%1$s wins %2$s to %3$s: %4$s"), W, s1, s2, why);
        else
            /* TRANSLATORS: %1$s to %2$s the score, %3$s why the game
               ended (a sentence) */
            mc_sb_printf(&b, _("Draw %1$s to %2$s: %3$s"), s1, s2, why);
    } else if (W) {
        /* TRANSLATORS: %1$s the winner, %2$s why (a sentence) */
        mc_sb_printf(&b, _("%1$s wins: %2$s"), W, why);
    } else {
        /* TRANSLATORS: %s why the game ended (a sentence) */
        mc_sb_printf(&b, _("Draw: %s"), why);
    }
    if (r->noglory && w != MC_DRAW) {
        mc_sb_putc(&b, ' ');
        mc_sb_printf(&b, _("A victory without glory: %s refused an offer."), W);
    }
    return b.len;
}

/* ---- evaluation ---- */

int mc_eval(const mc_game *g, const mc_pos *p)
{
    return mc_game_eval(g, p);
}

int mc_eval_source(const char *src, mc_error *err)
{
    return mc_learned_source(src, all_rules, err);
}

int mc_game_set_eval(mc_game *g, const char *src, mc_error *err)
{
    if (!g)
        return mc_err(err, MC_ERR_ARG, _("no game"));
    mc_learned *m = NULL;
    if (src && *src) {
        int rc = mc_learned_load(g->rules, src, &m, err);
        if (rc != 0)
            return rc;
    }
    drop_own_eval(g);
    g->evalw_own = m;
    g->evalw = src && *src ? m : mc_learned_model(g->rules);
    return 0;
}

mc_game *mc_game_dup(const mc_game *g, mc_error *err)
{
    mc_game *d = mc_game_new(mc_game_spec(g), err);
    if (d && g->evalw_own) {
        d->evalw_own = mc_learned_copy(g->rules, g->evalw_own);
        if (!d->evalw_own) {
            mc_game_free(d);
            mc_err(err, MC_ERR_NOMEM, _("out of memory"));
            return NULL;
        }
    }
    if (d)
        d->evalw = d->evalw_own ? d->evalw_own : g->evalw;
    return d;
}

const char *mc_eval_kind(const mc_game *g)
{
    return !g->evalw ? "hand" : g->evalw->hidden ? "network" : "learned";
}

int mc_eval_nfeatures(const mc_game *g)
{
    return g->rules->features ? g->rules->nfeat : 0;
}

int mc_eval_features(const mc_game *g, const mc_pos *p, mc_feature *f)
{
    return g->rules->features ? g->rules->features(g, p, f) : 0;
}

size_t mc_eval_feature_name(const mc_game *g, int i, char *buf, size_t n)
{
    if (!g->rules->feat_groups || i < 0 || i >= g->rules->nfeat) {
        if (n)
            buf[0] = 0;
        return 0;
    }
    return mc_feat_group_name(g->rules->feat_groups, i, buf, n);
}

/* ---- values for players ----------------------------------------------------
 */

double mc_win_chance(const mc_game *g, int score)
{
    if (score >= MC_SCORE_PROVEN)
        return 1.0;
    if (score <= -MC_SCORE_PROVEN)
        return 0.0;
    double k = g->rules->win_scale > 0 ? g->rules->win_scale : 800.0;
    return 1.0 / (1.0 + exp(-(double)score / k));
}

const char *mc_verdict_name(int verdict)
{
    static const char *const names[] = {"", "inaccuracy", "mistake", "blunder"};
    return verdict >= 0 && verdict <= MC_VERDICT_BLUNDER ? names[verdict] : "";
}
