/*
 * wasm.c - the face of the WebAssembly module for pages (make wasm:
 * build/wasm/mancala-web.js): one exported function, mc_wasm_call, takes a
 * JSON request and returns a JSON answer, so that the JavaScript side
 * (js/mancala.mjs, web/engine-worker.js) needs no knowledge of the
 * library's structs.  What it offers:
 *   - the JSON API of `mancala serve` (src/server/api*.c, unchanged), its
 *     games in memory: the page's "device" back end;
 *   - engines speaking the protocol or the UCI dialect, a line at a time;
 *   - games for scripts in the shape of the Python module: a state, its
 *     legal actions, apply, undo, the move in words, terminal and returns.
 * Like every front-end it knows no rule: it asks the library.  One thread:
 * each call returns when its work is done (searches are bounded).
 */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mancala.h"
#include "mancala_ml.h"
#include "mancala_protocol.h"
#include "server/api.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#define WASM_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define WASM_EXPORT
#endif

/* Handles: small numbers for JavaScript, slots here. */
#define MAX_HANDLES 256

typedef struct wstate {
    mc_game *g;
    mc_session *s;
} wstate;

static mc_api *api;
static mc_engine *engines[MAX_HANDLES];
static json_t *engine_out[MAX_HANDLES]; /* the lines of the current call */
static wstate *states[MAX_HANDLES];

char *mc_wasm_call(const char *req);

static json_t *fail(const char *code, const char *msg)
{
    return json_pack("{s:{s:s,s:s}}", "error", "code", code, "message", msg);
}

static int handle_of(json_t *rq, void **slots)
{
    json_int_t id = json_integer_value(json_object_get(rq, "id"));
    if (id < 1 || id > MAX_HANDLES || !slots[id - 1])
        return -1;
    return (int)id - 1;
}

static int free_slot(void **slots)
{
    for (int i = 0; i < MAX_HANDLES; i++)
        if (!slots[i])
            return i;
    return -1;
}

/* ---- the JSON API ---------------------------------------------------------
 */

static json_t *op_api(json_t *rq)
{
    if (!api) {
        mc_error err = {0, ""};
        mc_api_opts o = {0};
        o.keep = -1; /* a page's games go when the page goes */
        o.keep_over = -1;
        o.rate = 100000; /* one person on their own device */
        api = mc_api_new(&o, &err);
        if (!api)
            return fail("memory", err.msg);
    }
    const char *body = json_string_value(json_object_get(rq, "body"));
    mc_api_req r = {0};
    r.method = json_string_value(json_object_get(rq, "method"));
    r.path = json_string_value(json_object_get(rq, "path"));
    r.body = body;
    r.len = body ? strlen(body) : 0;
    r.token = json_string_value(json_object_get(rq, "token"));
    r.addr = "device";
    /* the player's language (the page's): only the answer's words */
    r.lang = json_string_value(json_object_get(rq, "lang"));
    if (!r.method || !r.path)
        return fail("json", "api: method and path are needed");
    mc_api_reply out = {0};
    mc_api_handle(api, &r, &out);
    json_t *j = json_pack("{s:i,s:s,s:s%}", "status", out.status, "type",
                          out.type ? out.type : "application/json", "body",
                          out.body ? out.body : "", out.len);
    free(out.body);
    return j ? j : fail("memory", "out of memory");
}

/* ---- engines --------------------------------------------------------------
 */

static void engine_say(const char *line, void *ctx)
{
    int i = (int)(intptr_t)ctx;
    if (engine_out[i])
        json_array_append_new(engine_out[i], json_string(line));
}

static json_t *op_engine_new(json_t *rq)
{
    int i = free_slot((void **)engines);
    if (i < 0)
        return fail("full", "too many engines");
    int uci = json_is_true(json_object_get(rq, "uci"));
    engine_out[i] = json_array();
    engines[i] = uci ? mc_engine_new_uci(engine_say, (void *)(intptr_t)i)
                     : mc_engine_new(engine_say, (void *)(intptr_t)i);
    if (!engines[i]) {
        json_decref(engine_out[i]);
        engine_out[i] = NULL;
        return fail("memory", "cannot make an engine");
    }
    json_t *lines = engine_out[i];
    engine_out[i] = NULL;
    return json_pack("{s:i,s:o}", "id", i + 1, "lines", lines);
}

static json_t *op_engine_line(json_t *rq)
{
    int i = handle_of(rq, (void **)engines);
    const char *line = json_string_value(json_object_get(rq, "line"));
    if (i < 0 || !line)
        return fail("arg", "engine_line: a live engine id and a line");
    engine_out[i] = json_array();
    int quit = mc_engine_line(engines[i], line, strlen(line));
    if (quit)
        mc_engine_finish(engines[i]);
    json_t *lines = engine_out[i];
    engine_out[i] = NULL;
    return json_pack("{s:o,s:b}", "lines", lines, "quit", quit);
}

/* An open-ended search one iteration deeper (mc_engine_step): its lines,
   and whether it has more to do. */
static json_t *op_engine_step(json_t *rq)
{
    int i = handle_of(rq, (void **)engines);
    if (i < 0)
        return fail("arg", "engine_step: no such engine");
    engine_out[i] = json_array();
    int more = mc_engine_step(engines[i]);
    json_t *lines = engine_out[i];
    engine_out[i] = NULL;
    return json_pack("{s:o,s:b}", "lines", lines, "more", more);
}

/* The end of input: an open-ended search answers (mc_engine_finish). */
static json_t *op_engine_finish(json_t *rq)
{
    int i = handle_of(rq, (void **)engines);
    if (i < 0)
        return fail("arg", "engine_finish: no such engine");
    engine_out[i] = json_array();
    mc_engine_finish(engines[i]);
    json_t *lines = engine_out[i];
    engine_out[i] = NULL;
    return json_pack("{s:o}", "lines", lines);
}

static json_t *op_engine_free(json_t *rq)
{
    int i = handle_of(rq, (void **)engines);
    if (i < 0)
        return fail("arg", "engine_free: no such engine");
    mc_engine_free(engines[i]);
    engines[i] = NULL;
    return json_object();
}

/* ---- games for scripts (the Python module's shape) ------------------------
 */

static json_t *result_of(const mc_game *g, const mc_session *s)
{
    mc_result r;
    mc_session_result(s, &r);
    if (!r.over)
        return json_null();
    char text[512];
    mc_result_describe(g, &r, text, sizeof text);
    const char *why = mc_end_reason_name(r.reason);
    return json_pack("{s:o,s:s,s:[f,f],s:s}", "winner",
                     r.winner == MC_DRAW ? json_null() : json_integer(r.winner),
                     "reason", why && *why ? why : "other", "scores",
                     r.score2[0] / 2.0, r.score2[1] / 2.0, "text", text);
}

static json_t *state_json(int i)
{
    wstate *w = states[i];
    const mc_pos *p = mc_session_pos(w->s);
    char buf[MC_POS_STRLEN];
    mc_pos_format(w->g, p, buf, sizeof buf);
    int over = mc_session_over(w->s);
    long acts[MC_MAX_MOVES];
    mc_move mv[MC_MAX_MOVES];
    int na = mc_ml_legal_actions(w->s, acts, NULL);
    int nm = over ? 0 : mc_session_moves(w->s, mv);
    json_t *la = json_array(), *lm = json_array(), *hist = json_array();
    for (int k = 0; k < na; k++)
        json_array_append_new(la, json_integer(acts[k]));
    char tok[MC_MOVE_STRLEN];
    for (int k = 0; k < nm; k++) {
        mc_move_format(w->g, p, mv[k], tok, sizeof tok);
        json_array_append_new(lm, json_string(tok));
    }
    for (int k = 0; k < mc_session_ply(w->s); k++) {
        mc_move_format(w->g, mc_session_pos_at(w->s, k),
                       mc_session_move_at(w->s, k), tok, sizeof tok);
        json_array_append_new(hist, json_string(tok));
    }
    mc_result r;
    mc_session_result(w->s, &r);
    double ret[2] = {0, 0};
    if (r.over && r.winner != MC_DRAW) {
        ret[r.winner] = 1;
        ret[1 - r.winner] = -1;
    }
    return json_pack(
        "{s:i,s:s,s:s,s:s,s:i,s:o,s:o,s:b,s:[f,f],s:o,s:i,s:o,s:i}", "id",
        i + 1, "game", mc_game_name(w->g), "spec", mc_game_spec(w->g),
        "position", buf, "current_player", over ? -4 : p->side, "legal_actions",
        la, "legal_moves", lm, "terminal", over, "returns", ret[0], ret[1],
        "result", result_of(w->g, w->s), "ply", mc_session_ply(w->s), "history",
        hist, "num_actions", mc_ml_num_actions(w->g));
}

/* A new state of game spec from start (NULL: the game's start) in a free
   slot: its index, or -1 with *why the answer to give. */
static int state_add(const char *spec, const char *pos, const mc_pos *start,
                     json_t **why)
{
    int i = free_slot((void **)states);
    if (i < 0) {
        *why = fail("full", "too many states");
        return -1;
    }
    mc_error err = {0, ""};
    mc_game *g = mc_game_new(spec, &err);
    if (!g) {
        *why = fail("spec", err.msg);
        return -1;
    }
    mc_pos p;
    if (start) {
        p = *start;
    } else if (pos && strcmp(pos, "start") != 0) {
        if (mc_pos_parse(g, pos, &p, &err) != 0) {
            mc_game_free(g);
            *why = fail("position", err.msg);
            return -1;
        }
    } else {
        mc_start(g, &p);
    }
    wstate *w = calloc(1, sizeof *w);
    mc_session *s = w ? mc_session_new(g, &p) : NULL;
    if (!s) {
        free(w);
        mc_game_free(g);
        *why = fail("memory", "out of memory");
        return -1;
    }
    w->g = g;
    w->s = s;
    states[i] = w;
    return i;
}

static json_t *op_state_new(json_t *rq)
{
    const char *spec = json_string_value(json_object_get(rq, "game"));
    json_t *why = NULL;
    int i = state_add(spec ? spec : "oware",
                      json_string_value(json_object_get(rq, "position")), NULL,
                      &why);
    return i < 0 ? why : state_json(i);
}

static json_t *op_clone(json_t *rq)
{
    int i = handle_of(rq, (void **)states);
    if (i < 0)
        return fail("arg", "no such state");
    /* A new session from the same start, the same moves replayed: the
       history (repetitions) comes along. */
    const mc_session *s = states[i]->s;
    json_t *why = NULL;
    int k = state_add(mc_game_spec(states[i]->g), NULL, mc_session_pos_at(s, 0),
                      &why);
    if (k < 0)
        return why;
    for (int n = 0; n < mc_session_ply(s); n++)
        mc_session_play(states[k]->s, mc_session_move_at(s, n), NULL, NULL);
    return state_json(k);
}

static json_t *op_apply(json_t *rq)
{
    int i = handle_of(rq, (void **)states);
    if (i < 0)
        return fail("arg", "no such state");
    wstate *w = states[i];
    mc_error err = {0, ""};
    const mc_pos before = *mc_session_pos(w->s);
    mc_move m;
    json_t *a = json_object_get(rq, "action");
    const char *tok = json_string_value(json_object_get(rq, "move"));
    int rc;
    if (mc_session_over(w->s))
        return fail("over", "the game is over");
    if (json_is_integer(a))
        rc = mc_ml_move(w->g, &before, (long)json_integer_value(a), &m);
    else if (tok)
        rc = mc_move_parse(w->g, &before, tok, &m, &err);
    else
        return fail("arg", "apply: an action (number) or a move (text)");
    if (rc != 0)
        return fail("illegal",
                    err.msg[0] ? err.msg : "no legal move has that action");
    mc_trace_event ev[4096];
    mc_trace tr = {ev, sizeof ev / sizeof *ev, 0, 0};
    if (mc_session_play(w->s, m, &tr, &err) != 0)
        return fail("illegal", err.msg);
    size_t n = mc_move_explain(w->g, &before, m, &tr, NULL, 0) + 1;
    char *words = malloc(n);
    if (words)
        mc_move_explain(w->g, &before, m, &tr, words, n);
    json_t *j = state_json(i);
    json_object_set_new(j, "explain", json_string(words ? words : ""));
    free(words);
    return j;
}

static json_t *op_undo(json_t *rq)
{
    int i = handle_of(rq, (void **)states);
    if (i < 0)
        return fail("arg", "no such state");
    if (mc_session_undo(states[i]->s) != 0)
        return fail("no_undo", "nothing to undo");
    return state_json(i);
}

static json_t *op_state(json_t *rq)
{
    int i = handle_of(rq, (void **)states);
    return i < 0 ? fail("arg", "no such state") : state_json(i);
}

static json_t *op_free(json_t *rq)
{
    int i = handle_of(rq, (void **)states);
    if (i < 0)
        return fail("arg", "no such state");
    mc_session_free(states[i]->s);
    mc_game_free(states[i]->g);
    free(states[i]);
    states[i] = NULL;
    return json_object();
}

static json_t *op_version(json_t *rq)
{
    (void)rq;
    json_t *names = json_array();
    for (const char *const *n = mc_game_names(); *n; n++)
        json_array_append_new(names, json_string(*n));
    return json_pack("{s:s,s:o}", "version", mc_version(), "games", names);
}

typedef struct op {
    const char *name;
    json_t *(*run)(json_t *rq);
} op;

static const op ops[] = {
    {"api", op_api},
    {"engine_new", op_engine_new},
    {"engine_line", op_engine_line},
    {"engine_step", op_engine_step},
    {"engine_finish", op_engine_finish},
    {"engine_free", op_engine_free},
    {"state_new", op_state_new},
    {"state", op_state},
    {"clone", op_clone},
    {"apply", op_apply},
    {"undo", op_undo},
    {"free", op_free},
    {"version", op_version},
};

/* The answer is malloc'd: the caller frees it (JavaScript: _free). */
WASM_EXPORT char *mc_wasm_call(const char *req)
{
    json_error_t jerr;
    json_t *rq = json_loads(req ? req : "", JSON_REJECT_DUPLICATES, &jerr);
    json_t *ans = NULL;
    const char *name = json_string_value(json_object_get(rq, "op"));
    if (!rq || !name) {
        ans = fail("json", "a JSON object with an \"op\"");
    } else {
        for (size_t k = 0; k < sizeof ops / sizeof *ops && !ans; k++)
            if (strcmp(name, ops[k].name) == 0)
                ans = ops[k].run(rq);
        if (!ans)
            ans = fail("op", "no such op");
    }
    json_decref(rq);
    char *s = ans ? json_dumps(ans, JSON_COMPACT) : NULL;
    json_decref(ans);
    return s;
}
