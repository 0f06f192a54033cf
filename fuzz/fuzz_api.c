/*
 * fuzz_api.c - libFuzzer target for the JSON API's request handler
 * (src/server/api.c).  The input is "METHOD PATH\n" followed by the body;
 * every request must be answered with a status from 200 to 503 and, apart
 * from a record's text, a JSON body.  Games persist in memory across inputs
 * (no directory), so sequences of requests are explored too; an '@' in the
 * path stands for the id of the last game created.  Engine moves and hints
 * are left out: they are searches, not parsing, and take their time.
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
static char last_id[16] = "000000000000";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!api && !(api = mc_api_new(NULL, NULL)))
        abort();
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
    const char *body = nl ? nl + 1 : NULL;
    size_t len = nl ? size - head - 1 : 0;
    mc_api_reply r;
    mc_api_handle(api, method, path, body, len, &r);
    if (r.status < 200 || r.status > 503 || !r.body)
        abort();
    if (strcmp(r.type, "application/json") == 0) {
        json_t *j = json_loadb(r.body, r.len, 0, NULL);
        if (!j)
            abort();
        json_t *id = json_object_get(json_object_get(j, "state"), "id");
        if (r.status == 201 && json_is_string(id))
            snprintf(last_id, sizeof last_id, "%s", json_string_value(id));
        json_decref(j);
    }
    free(r.body);
    return 0;
}
