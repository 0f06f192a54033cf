/*
 * store_pg_name.c - PostgreSQL connection strings (store_pg.h): whether a
 * --db names one, and the string as it may be shown, its password
 * hidden; whether libpq is there or not.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "store_pg_int.h"

int mc_pg_is_conninfo(const char *db)
{
    return db &&
           (strncmp(db, "postgresql://", 13) == 0 ||
            strncmp(db, "postgres://", 11) == 0 || strncmp(db, "pg:", 3) == 0);
}

/* The secrets of a connection string, as written in it: where each
   starts and its length (at most 4 kept). */
typedef struct secrets {
    int n;
    const char *at[4];
    size_t len[4];
} secrets;

static void keep_secret(secrets *sec, const char *from, const char *to)
{
    if (sec && sec->n < 4 && to > from) {
        sec->at[sec->n] = from;
        sec->len[sec->n++] = (size_t)(to - from);
    }
}

/* Copy db into buf with the value after each "password" keyword (the
   URI's query or a keyword string) and the URI's user:password@ part
   hidden; sec (may be NULL) says where they were. */
static void hide(const char *db, char *buf, size_t n, secrets *sec)
{
    size_t o = 0;
#define PUT(c)                                                                 \
    do {                                                                       \
        if (o + 1 < n)                                                         \
            buf[o++] = (c);                                                    \
    } while (0)
    const char *p = db;
    int uri = strncmp(db, "pg:", 3) != 0;
    if (uri) {
        const char *rest = strstr(db, "://") + 3;
        /* userinfo: up to the last '@' before the path or query */
        size_t hostpart = strcspn(rest, "/?");
        const char *at = NULL;
        for (const char *q = rest; q < rest + hostpart; q++)
            if (*q == '@')
                at = q;
        const char *colon = at ? memchr(rest, ':', (size_t)(at - rest)) : NULL;
        for (; p < (colon ? colon : rest); p++)
            PUT(*p);
        if (colon) {
            for (const char *s = ":***"; *s; s++)
                PUT(*s);
            keep_secret(sec, colon + 1, at);
            p = at;
        }
    }
    while (*p) {
        /* a "password" keyword, at the start of a key */
        int key_start =
            p == db || (uri ? (p[-1] == '?' || p[-1] == '&')
                            : (isspace((unsigned char)p[-1]) || p == db + 3));
        if (key_start && strncmp(p, "password", 8) == 0) {
            const char *q = p + 8;
            while (!uri && isspace((unsigned char)*q))
                q++;
            if (*q == '=') {
                for (const char *s = "password=***"; *s; s++)
                    PUT(*s);
                q++;
                const char *from = q;
                if (uri) {
                    while (*q && *q != '&')
                        q++;
                } else {
                    while (isspace((unsigned char)*q))
                        q++;
                    if (*q == '\'') {
                        for (q++; *q && *q != '\''; q++)
                            if (*q == '\\' && q[1])
                                q++;
                        if (*q)
                            q++;
                    } else {
                        while (*q && !isspace((unsigned char)*q))
                            q++;
                    }
                }
                keep_secret(sec, from, q);
                p = q;
                continue;
            }
        }
        PUT(*p);
        p++;
    }
#undef PUT
    buf[o] = 0;
}

const char *mc_pg_shown(const char *db, char *buf, size_t n)
{
    if (!n)
        return "";
    if (!mc_pg_is_conninfo(db))
        snprintf(buf, n, "%s", db ? db : "");
    else
        hide(db, buf, n, NULL);
    return buf;
}

/* Every copy of a secret of db in msg (of n bytes) replaced by "***":
   libpq's messages about a malformed string quote it whole. */
void pg_scrub(char *msg, size_t n, const char *db)
{
    char tmp[8], out[512];
    secrets sec = {0};
    hide(db, tmp, sizeof tmp, &sec);
    if (!sec.n)
        return;
    size_t o = 0;
    for (const char *p = msg; *p && o + 1 < sizeof out;) {
        int k = -1;
        for (int i = 0; i < sec.n && k < 0; i++)
            if (strncmp(p, sec.at[i], sec.len[i]) == 0)
                k = i;
        if (k < 0) {
            out[o++] = *p++;
            continue;
        }
        for (const char *r = "***"; *r && o + 1 < sizeof out; r++)
            out[o++] = *r;
        p += sec.len[k];
    }
    if (o >= n)
        o = n - 1;
    memcpy(msg, out, o);
    msg[o] = 0;
}
