/*
 * clock.c - time controls (their text form, parsed and written) and the
 * arithmetic of the two clocks a session keeps under one (clock.h).
 *
 * The forms every game has: "none", "move:S" (S seconds a move, nothing
 * carried over), "game:S+I" (S seconds each for the game, I more after each
 * move; "game:S" is "game:S+0").  A game may offer named modes on top (its
 * mc_rules.time_modes: Omweso's W16 classic, contract, blitz, blitz:loss):
 * they belong to the game, this file only looks them up.  Nothing here reads
 * a clock: every time is the caller's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/util.h"
#include "../games/game.h"
#include "clock.h"

#define MAX_MOVE_SECONDS 86400.0  /* a day a move */
#define MAX_GAME_SECONDS 604800.0 /* a week a game */
#define MAX_INCREMENT 3600.0

/* A number of seconds: digits, optionally a point and up to 3 decimals
   (no signs, exponents, hex or infinities: what a person types). */
static int parse_secs(const char *s, const char **end, double *out)
{
    const char *p = s;
    double v = 0;
    int digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 12) {
        v = v * 10 + (*p++ - '0');
        digits++;
    }
    if (!digits)
        return -1;
    if (*p == '.') {
        p++;
        double f = 0.1;
        int dec = 0;
        while (*p >= '0' && *p <= '9' && dec < 3) {
            v += f * (*p++ - '0');
            f /= 10;
            dec++;
        }
        if (!dec)
            return -1;
    }
    *end = p;
    *out = v;
    return 0;
}

/* TRANSLATORS: the time controls' forms: keep none, move:S and game:S+I
   as they are (they are typed so) */
static const char forms[] =
    N_("none, move:S (S seconds a move), game:S+I (S seconds each, I more "
       "after each move)");

/* The game's modes, as "classic, contract, ..." (empty when none). */
static void mode_list(const mc_game *g, char *buf, size_t n)
{
    mc_sb b;
    mc_sb_init(&b, buf, n);
    const mc_time_mode_def *m = g ? g->rules->time_modes : NULL;
    for (int i = 0; m && m[i].name; i++)
        mc_sb_printf(&b, "%s%s", i ? ", " : "", m[i].name);
}

static int bad(const mc_game *g, mc_error *err, const char *text,
               const char *why)
{
    char modes[256];
    mode_list(g, modes, sizeof modes);
    if (modes[0])
        return mc_err(err, MC_ERR_ARG,
                      _("time control '%.40s': %s (time controls: %s; "
                        "%s's modes: %s)"),
                      text, why, _(forms), _(g->rules->title), modes);
    return mc_err(err, MC_ERR_ARG,
                  _("time control '%.40s': %s (time controls: %s)"), text, why,
                  _(forms));
}

/* Does text name mode m (its name or one of its '|'-separated aliases)? */
static int names_mode(const mc_time_mode_def *m, const char *text)
{
    if (strcmp(m->name, text) == 0)
        return 1;
    size_t tl = strlen(text);
    for (const char *a = m->aliases; a && *a;) {
        const char *bar = strchr(a, '|');
        size_t len = bar ? (size_t)(bar - a) : strlen(a);
        if (len == tl && strncmp(a, text, len) == 0)
            return 1;
        a = bar ? bar + 1 : a + len;
    }
    return 0;
}

static int parse_generic(const mc_game *g, const char *text,
                         mc_time_control *tc, mc_error *err)
{
    memset(tc, 0, sizeof *tc);
    if (strcmp(text, "none") == 0)
        return 0;
    const char *p, *end;
    double v;
    if (strncmp(text, "move:", 5) == 0) {
        p = text + 5;
        if (parse_secs(p, &end, &v) != 0 || *end)
            return bad(
                g, err, text,
                _("after 'move:' comes a number of seconds, e.g. move:30"));
        if (!(v > 0 && v <= MAX_MOVE_SECONDS))
            return bad(g, err, text,
                       _("a move's time must be more than 0 and at most 86400 "
                         "seconds"));
        tc->kind = MC_TIME_MOVE;
        tc->seconds = v;
        return 0;
    }
    if (strncmp(text, "game:", 5) == 0) {
        p = text + 5;
        if (parse_secs(p, &end, &v) != 0 || (*end && *end != '+'))
            return bad(g, err, text,
                       _("after 'game:' comes a number of seconds and "
                         "optionally +INCREMENT, e.g. game:300+5"));
        if (!(v > 0 && v <= MAX_GAME_SECONDS))
            return bad(g, err, text,
                       _("a game's time must be more than 0 and at most 604800 "
                         "seconds (a week)"));
        tc->kind = MC_TIME_GAME;
        tc->seconds = v;
        if (*end == '+') {
            p = end + 1;
            if (parse_secs(p, &end, &v) != 0 || *end)
                return bad(g, err, text,
                           _("after '+' comes the increment in seconds, e.g. "
                             "game:300+5"));
            if (v > MAX_INCREMENT)
                return bad(g, err, text,
                           _("the increment must be at most 3600 seconds"));
            tc->increment = v;
        }
        return 0;
    }
    return bad(g, err, text,
               g ? _("no such time control for this game")
                 : _("no such time control"));
}

int mc_time_parse(const mc_game *g, const char *text, mc_time_control *tc,
                  mc_error *err)
{
    if (!text || !tc)
        return mc_err(err, MC_ERR_ARG, _("no time control given"));
    const mc_time_mode_def *m = g ? g->rules->time_modes : NULL;
    for (int i = 0; m && m[i].name; i++)
        if (names_mode(&m[i], text)) {
            int rc = parse_generic(NULL, m[i].control, tc, err);
            if (rc)
                return rc; /* a mistake in the game's table */
            tc->on_flag = m[i].on_flag;
            tc->no_undo = m[i].no_undo;
            snprintf(tc->mode, sizeof tc->mode, "%s", m[i].name);
            return 0;
        }
    if (strlen(text) > 64)
        return bad(g, err, text, _("too long"));
    return parse_generic(g, text, tc, err);
}

/* Seconds with at most 3 decimals, trailing zeros dropped. */
static void put_secs(mc_sb *b, double v)
{
    char t[48];
    snprintf(t, sizeof t, "%.3f", v);
    char *dot = strchr(t, '.');
    if (dot) {
        char *e = t + strlen(t);
        while (e > dot + 1 && e[-1] == '0')
            *--e = 0;
        if (e == dot + 1)
            *dot = 0;
    }
    mc_sb_printf(b, "%s", t);
}

size_t mc_time_format(const mc_time_control *tc, char *buf, size_t n)
{
    mc_sb b;
    mc_sb_init(&b, buf, n);
    if (tc->mode[0]) {
        mc_sb_printf(&b, "%s", tc->mode);
    } else if (tc->kind == MC_TIME_MOVE) {
        mc_sb_printf(&b, "move:");
        put_secs(&b, tc->seconds);
    } else if (tc->kind == MC_TIME_GAME) {
        mc_sb_printf(&b, "game:");
        put_secs(&b, tc->seconds);
        if (tc->increment > 0) {
            mc_sb_putc(&b, '+');
            put_secs(&b, tc->increment);
        }
    } else {
        mc_sb_printf(&b, "none");
    }
    return b.len;
}

/* m:ss for a minute or more, else seconds. */
static void put_span(mc_sb *b, double v)
{
    if (v >= 60 && v == floor(v)) {
        long s = (long)v;
        if (s >= 3600)
            mc_sb_printf(b, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
        else
            mc_sb_printf(b, "%ld:%02ld", s / 60, s % 60);
    } else {
        put_secs(b, v);
        mc_sb_printf(b, " s");
    }
}

size_t mc_time_describe(const mc_game *g, const mc_time_control *tc, char *buf,
                        size_t n)
{
    mc_sb b;
    mc_sb_init(&b, buf, n);
    const mc_time_mode_def *m = g ? g->rules->time_modes : NULL;
    for (int i = 0; tc->mode[0] && m && m[i].name; i++)
        if (strcmp(m[i].name, tc->mode) == 0) {
            mc_sb_printf(&b, "%s: %s", m[i].name, _(m[i].help));
            return b.len;
        }
    char span[32], inc[32];
    mc_sb x;
    mc_sb_init(&x, span, sizeof span);
    put_span(&x, tc->seconds);
    mc_sb_init(&x, inc, sizeof inc);
    put_secs(&x, tc->increment);
    if (tc->kind == MC_TIME_MOVE) {
        /* TRANSLATORS: %s a time (30 s, 1:30) */
        mc_sb_printf(&b, _("%s a move"), span);
    } else if (tc->kind == MC_TIME_GAME) {
        if (tc->increment > 0)
            /* TRANSLATORS: %1$s a time (5:00), %2$s seconds (2) */
            mc_sb_printf(&b, _("%1$s each for the game, plus %2$s s a move"),
                         span, inc);
        else
            /* TRANSLATORS: %s a time (5:00) */
            mc_sb_printf(&b, _("%s each for the game"), span);
    } else {
        mc_sb_printf(&b, "%s", _("no clock"));
    }
    if (tc->kind != MC_TIME_NONE)
        mc_sb_printf(&b, "%s",
                     tc->on_flag == MC_FLAG_PASS
                         ? _("; when the time runs out the turn passes")
                         : _("; running out of time loses the game"));
    if (tc->no_undo)
        mc_sb_printf(&b, "%s", _("; no take-backs"));
    return b.len;
}

const char *mc_time_mode(const mc_game *g, int i, const char **help)
{
    const mc_time_mode_def *m = g ? g->rules->time_modes : NULL;
    for (int k = 0; m && m[k].name; k++)
        if (k == i) {
            if (help)
                *help = _(m[k].help);
            return m[k].name;
        }
    return NULL;
}

/* ---- the clocks ---- */

void mc_clocks_init(mc_clocks *c, const mc_time_control *tc, double now)
{
    /* mc_time_parse and mc_session_set_time let through no other. */
    assert(tc->kind == MC_TIME_NONE || tc->seconds > 0);
    c->tc = *tc;
    c->bank[0] = c->bank[1] = tc->kind == MC_TIME_NONE ? 0 : tc->seconds;
    c->since = now;
}

int mc_clocks_timed(const mc_clocks *c)
{
    return c->tc.kind != MC_TIME_NONE;
}

double mc_clocks_left(const mc_clocks *c, int side, double now)
{
    double left = c->bank[side];
    if (c->since >= 0 && now > c->since)
        left -= now - c->since;
    return left > 0 ? left : 0;
}

double mc_clocks_due(const mc_clocks *c, int side)
{
    if (!mc_clocks_timed(c) || c->since < 0)
        return HUGE_VAL;
    return c->since + c->bank[side];
}

void mc_clocks_turn(mc_clocks *c, int mover, double now, int moved)
{
    if (!mc_clocks_timed(c))
        return;
    if (c->since >= 0) {
        c->bank[mover] = mc_clocks_left(c, mover, now);
        if (moved && c->tc.kind == MC_TIME_GAME)
            c->bank[mover] += c->tc.increment;
    }
    if (c->tc.kind == MC_TIME_MOVE) /* every turn has the whole time */
        c->bank[0] = c->bank[1] = c->tc.seconds;
    c->since = now;
    assert(c->bank[0] >= 0 && c->bank[1] >= 0); /* time never owed */
}
