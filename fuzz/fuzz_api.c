/*
 * fuzz_api.c - libFuzzer target for the JSON API's request handler
 * (src/server/api*.c).  The input is "METHOD PATH\n" followed by the body;
 * every request must be answered with a status from 200 to 503 and, apart
 * from a record's text, a JSON body.  Games persist in memory across inputs
 * (a store in memory), so sequences of requests are explored too; an '@' in
 * the path stands for the id of the last game created, and requests carry
 * its creator's token, or the last session token an account's sign-in
 * answered (or the last token a seek's posting answered; a '%' stands for
 * the id of the last seek posted) (an input whose line starts with '!' sends
 * none; the password hashes of accounts are slow, and bounded per address a
 * minute). The API is made anew every 256 games, so that creation (the limits,
 * quotas) keeps being exercised instead of answering "full" for ever.
 * Engine moves and hints are left out: they are searches, not parsing, and
 * take their time.
 *   make fuzz && build-fuzz/fuzz_api -max_total_time=20 DIR fuzz/seeds/api
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/api.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static mc_api *api;
static char last_id[40] = "00000000000000000000000000000000";
static char last_seek[40] = "00000000000000000000000000000000";
static char last_tok[80]; /* a seat's token, or an account's session */
static int made;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (made >= 256) {
        mc_api_free(api);
        api = NULL;
        made = 0;
    }
    if (!api) {
        mc_api_opts o = {.max_games = 300,
                         .quota = 200,
                         .rate = 1000000,
                         .keep = -1,
                         .keep_over = -1};
        if (!(api = mc_api_new(&o, NULL)))
            abort();
    }
    int anonymous = size > 0 && data[0] == '!';
    if (anonymous)
        data++, size--;
    const char *nl = memchr(data, '\n', size);
    size_t head = nl ? (size_t)(nl - (const char *)data) : size;
    if (head > 200)
        return 0;
    char line[256], method[32] = "GET", path[224] = "/";
    memcpy(line, data, head);
    line[head] = 0;
    const char *sp = strchr(line, ' ');
    if (sp && (size_t)(sp - line) < sizeof method) {
        memcpy(method, line, (size_t)(sp - line));
        method[sp - line] = 0;
        strcpy(path, sp + 1);
    }
    if (strstr(path, "engine") || strstr(path, "hint"))
        return 0;
    char *at = strchr(path, '@');
    if (at && strlen(path) + sizeof last_id < sizeof path) {
        char tail[224];
        strcpy(tail, at + 1);
        strcpy(at, last_id);
        strcat(at, tail);
    }
    char *pc = strchr(path, '%');
    if (pc && strlen(path) + sizeof last_seek < sizeof path) {
        char tail[224];
        strcpy(tail, pc + 1);
        strcpy(pc, last_seek);
        strcat(pc, tail);
    }
    const char *body = nl ? nl + 1 : NULL;
    size_t len = nl ? size - head - 1 : 0;
    mc_api_reply r;
    mc_api_req rq = {method, path, body, len, anonymous ? NULL : last_tok,
                     "fuzz", NULL};
    mc_api_handle(api, &rq, &r);
    if (r.status < 200 || r.status > 503 || !r.body)
        abort();
    if (strcmp(r.type, "application/json") == 0) {
        json_t *j = json_loadb(r.body, r.len, 0, NULL);
        if (!j)
            abort();
        json_t *id = json_object_get(json_object_get(j, "state"), "id");
        json_t *tok = json_object_get(j, "token");
        json_t *sk = json_object_get(json_object_get(j, "seek"), "id");
        if (json_is_string(sk))
            snprintf(last_seek, sizeof last_seek, "%s", json_string_value(sk));
        if (r.status == 201 && json_is_string(id)) {
            snprintf(last_id, sizeof last_id, "%s", json_string_value(id));
            made++;
        }
        if (json_is_string(tok))
            snprintf(last_tok, sizeof last_tok, "%s", json_string_value(tok));
        json_decref(j);
    }
    free(r.body);
    return 0;
}
