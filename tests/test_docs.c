/*
 * test_docs.c - the documents name what the library writes: every end
 * reason of mc_end_reason_name (the records' Termination values) is listed
 * in man/mancala-record.5 and docs/RECORDS.md, and the names read back;
 * every trace kind of mc_trace_kind_name in docs/API.md.
 * Run from the source tree (make check does).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mancala.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    size_t k;
    while (b && (k = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (n + 1 >= cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb)
                free(b);
            b = nb;
        }
    }
    fclose(f);
    if (b)
        b[n] = 0;
    return b;
}

/* word w in text t, not part of a longer word */
static int has_word(const char *t, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = strstr(t, w); p; p = strstr(p + 1, w)) {
        int before = p > t && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        int after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after)
            return 1;
    }
    return 0;
}

int main(void)
{
    char *man = slurp("man/mancala-record.5");
    char *doc = slurp("docs/RECORDS.md");
    CHECK(man != NULL && doc != NULL);
    if (!man || !doc)
        return check_report("test_docs");
    /* the Termination row of RECORDS.md's tag table */
    const char *row = strstr(doc, "| `Termination` |");
    CHECK(row != NULL);
    char line[1024] = "";
    if (row)
        snprintf(line, sizeof line, "%.*s", (int)strcspn(row, "\n"), row);
    int n = 0;
    for (int r = MC_END_NONE + 1; mc_end_reason_name(r); r++) {
        const char *name = mc_end_reason_name(r);
        n++;
        CHECK_MSG(*name && mc_end_reason_parse(name) == r, "reason %d '%s'", r,
                  name);
        CHECK_MSG(has_word(man, name), "man/mancala-record.5 lacks '%s'", name);
        CHECK_MSG(has_word(line, name),
                  "docs/RECORDS.md's Termination lacks '%s'", name);
    }
    CHECK_MSG(n >= 10, "only %d end reasons", n);
    /* every trace kind in docs/API.md's section on the trace */
    char *api = slurp("docs/API.md");
    const char *sect = api ? strstr(api, "## The trace") : NULL;
    CHECK(sect != NULL);
    for (int k = MC_TR_LIFT; sect && mc_trace_kind_name(k); k++)
        CHECK_MSG(has_word(sect, mc_trace_kind_name(k)),
                  "docs/API.md's trace lacks '%s'", mc_trace_kind_name(k));
    free(api);
    free(man);
    free(doc);
    return check_report("test_docs");
}
