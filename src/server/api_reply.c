/*
 * api_reply.c - JSON in and out for the API's endpoints: a request's body
 * read (an object with known keys only), a reply made (a JSON value, an
 * error with its code).  The bottom of the API's files: it knows no game
 * and calls none of them (a game's state is api_state.c's).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_int.h"

/* ---- replies ------------------------------------------------------------ */

/* A JSON string of s with every byte that is not part of valid UTF-8 (a
   message cut in the middle of a character, a tag read from a file) turned
   into '?': Jansson refuses invalid UTF-8. */
json_t *api_safe_str(const char *s)
{
    size_t n = strlen(s);
    char *t = malloc(n + 1);
    if (!t)
        return NULL;
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        int len = u[i] < 0x80         ? 1
                  : (u[i] >> 5) == 6  ? 2
                  : (u[i] >> 4) == 14 ? 3
                  : (u[i] >> 3) == 30 ? 4
                                      : 0;
        int ok = len > 0 && i + (size_t)len <= n;
        for (int k = 1; ok && k < len; k++)
            ok = (u[i + (size_t)k] >> 6) == 2;
        if (ok && len > 1) {
            memcpy(t + i, s + i, (size_t)len);
            i += (size_t)len;
        } else {
            t[i] = ok ? s[i] : '?';
            i++;
        }
    }
    t[n] = 0;
    json_t *j = json_string(t);
    if (!j) /* overlong forms or surrogates: keep the ASCII only */
        for (i = 0; i < n; i++)
            if ((unsigned char)t[i] >= 0x80)
                t[i] = '?';
    if (!j)
        j = json_string(t);
    free(t);
    return j;
}

void api_reply_json(mc_api_reply *out, int status, json_t *j)
{
    out->status = status;
    out->type = "application/json";
    out->body = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(15));
    json_decref(j);
    if (!out->body) {
        out->status = 500;
        out->body = strdup("{\"error\":{\"code\":\"memory\","
                           "\"message\":\"out of memory\"}}");
    }
    out->len = out->body ? strlen(out->body) : 0;
}

void api_reply_error(mc_api_reply *out, int status, const char *code,
                     const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    api_reply_json(out, status,
                   json_pack("{s:{s:s,s:o}}", "error", "code", code, "message",
                             api_safe_str(msg)));
}

const char *api_err_code(int code)
{
    switch (code) {
    case MC_ERR_SPEC:
        return "spec";
    case MC_ERR_POSITION:
        return "position";
    case MC_ERR_MOVE:
        return "move";
    case MC_ERR_ILLEGAL:
        return "illegal";
    case MC_ERR_OVER:
        return "over";
    case MC_ERR_IO:
        return "io";
    default:
        return "bad_request";
    }
}

/* ---- request bodies ---------------------------------------------------- */

/* Parse body as a JSON object whose keys are all in allowed (NULL-ended).
   An empty body is an empty object.  NULL after replying with the error. */
json_t *api_parse_body(const char *body, size_t len, const char *const *allowed,
                       mc_api_reply *out)
{
    json_t *j;
    if (len == 0) {
        j = json_object();
    } else {
        json_error_t e;
        j = json_loadb(body, len, JSON_REJECT_DUPLICATES, &e);
        if (!j) {
            api_reply_error(out, 400, "json",
                            _("bad JSON at line %d, column %d: %s"), e.line,
                            e.column, e.text);
            return NULL;
        }
    }
    if (!json_is_object(j)) {
        json_decref(j);
        api_reply_error(out, 400, "json",
                        _("the request body must be a JSON object"));
        return NULL;
    }
    const char *key;
    json_t *v;
    json_object_foreach(j, key, v)
    {
        int ok = 0;
        for (int i = 0; allowed[i]; i++)
            if (strcmp(key, allowed[i]) == 0)
                ok = 1;
        if (!ok) {
            api_reply_error(out, 400, "json", _("unknown key '%.100s'"), key);
            json_decref(j);
            return NULL;
        }
    }
    return j;
}

int api_no_body(const char *body, size_t len, mc_api_reply *out)
{
    static const char *const none[] = {NULL};
    json_t *j = api_parse_body(body, len, none, out);
    if (!j)
        return -1;
    json_decref(j);
    return 0;
}

/* An optional string member: 0 and *s (NULL if absent), or -1 after
   replying.  Strings may not hold NUL bytes. */
int api_opt_str(json_t *j, const char *key, const char **s, size_t max,
                mc_api_reply *out)
{
    json_t *v = json_object_get(j, key);
    *s = NULL;
    if (!v)
        return 0;
    if (!json_is_string(v) ||
        strlen(json_string_value(v)) != json_string_length(v)) {
        api_reply_error(out, 400, "json", _("'%s' must be a string"), key);
        return -1;
    }
    if (json_string_length(v) > max) {
        api_reply_error(out, 400, "json", _("'%s' is longer than %zu bytes"),
                        key, max);
        return -1;
    }
    *s = json_string_value(v);
    return 0;
}

/* An optional number member within [lo, hi]; *x keeps its default when
   absent. */
int api_opt_num(json_t *j, const char *key, double lo, double hi, double *x,
                mc_api_reply *out)
{
    json_t *v = json_object_get(j, key);
    if (!v)
        return 0;
    if (!json_is_number(v) || json_number_value(v) < lo ||
        json_number_value(v) > hi) {
        api_reply_error(out, 400, "json",
                        _("'%s' must be a number from %g to %g"), key, lo, hi);
        return -1;
    }
    *x = json_number_value(v);
    return 0;
}
