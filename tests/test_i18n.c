/*
 * test_i18n.c - the players' languages (src/core/i18n.c,
 * docs/TRANSLATING.md): catalogs in GNU gettext's .mo format, written here
 * by hand from the format's description (GNU gettext manual, "The Format
 * of GNU MO Files": a header of seven 32-bit words, then the originals'
 * and the translations' tables of {length, offset}, originals sorted), so
 * that the reader is checked against the format and not against itself.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mancala.h"

typedef struct pair {
    const char *o, *t;
    size_t olen, tlen; /* 0: strlen (a plural's forms hold NULs) */
} pair;

/* A .mo of n pairs, already in order, little- or big-endian. */
static unsigned char *make_mo(const pair *p, int n, int big, size_t *len)
{
    size_t size = 28 + 16 * (size_t)n;
    for (int i = 0; i < n; i++)
        size += (p[i].olen ? p[i].olen : strlen(p[i].o)) + 1 +
                (p[i].tlen ? p[i].tlen : strlen(p[i].t)) + 1;
    unsigned char *b = calloc(1, size);
    uint32_t words[7] = {0x950412de, 0, (uint32_t)n, 28, 28 + 8 * (uint32_t)n,
                         0,          0};
    size_t at = 0;
#define PUT(v)                                                                 \
    do {                                                                       \
        uint32_t w_ = (v);                                                     \
        for (int k_ = 0; k_ < 4; k_++)                                         \
            b[at + (size_t)k_] =                                               \
                (unsigned char)(big ? w_ >> (24 - 8 * k_) : w_ >> (8 * k_));   \
        at += 4;                                                               \
    } while (0)
    for (int i = 0; i < 7; i++)
        PUT(words[i]);
    size_t str = 28 + 16 * (size_t)n;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            const char *s = pass ? p[i].t : p[i].o;
            size_t l = pass ? (p[i].tlen ? p[i].tlen : strlen(s))
                            : (p[i].olen ? p[i].olen : strlen(s));
            at = 28 + (size_t)pass * 8 * (size_t)n + 8 * (size_t)i;
            PUT((uint32_t)l);
            PUT((uint32_t)str);
            memcpy(b + str, s, l);
            str += l + 1;
        }
#undef PUT
    *len = size;
    return b;
}

static const char fr_header[] = "Content-Type: text/plain; charset=UTF-8\n"
                                "Plural-Forms: nplurals=2; plural=(n > 1);\n";

static void test_lookup(void)
{
    pair fr[] = {
        {"", fr_header, 0, 0},
        {"%d seed\0%d seeds", "%d graine\0%d graines", 16, 20},
        {"North", "Nord", 0, 0},
        {"South to move.", "Au Sud de jouer.", 0, 0},
        {"pit\004Sow", "Semer", 0, 0},
    };
    size_t len;
    unsigned char *mo = make_mo(fr, 5, 0, &len);
    mc_error err = {0, ""};
    CHECK(mc_lang_add("fr", mo, len, &err) == 0);
    free(mo); /* mc_lang_add keeps a copy */

    /* a thread starts in English */
    CHECK_STR(mc_tr("North"), "North");
    CHECK_STR(mc_lang_get(), "en");
    CHECK(mc_lang_use("fr_FR.UTF-8") == 1);
    CHECK_STR(mc_lang_get(), "fr-FR");
    CHECK_STR(mc_tr("North"), "Nord");
    CHECK_STR(mc_tr("South to move."), "Au Sud de jouer.");
    /* per message: what the catalog lacks stays English, whole */
    CHECK_STR(mc_tr("East"), "East");
    CHECK_STR(mc_trc("pit", "Sow"), "Semer");
    CHECK_STR(mc_tr("Sow"), "Sow");
    /* French plurals: 0 and 1 are singular (plural=(n > 1)) */
    CHECK_STR(mc_ntr("%d seed", "%d seeds", 0), "%d graine");
    CHECK_STR(mc_ntr("%d seed", "%d seeds", 1), "%d graine");
    CHECK_STR(mc_ntr("%d seed", "%d seeds", 2), "%d graines");
    /* English's rule: 0 is plural */
    mc_lang_use(NULL);
    CHECK_STR(mc_ntr("%d seed", "%d seeds", 0), "%d seeds");
    CHECK_STR(mc_ntr("%d seed", "%d seeds", 1), "%d seed");
    CHECK_STR(mc_tr("North"), "North");
    /* "C", "en" and unknown languages are English */
    CHECK(mc_lang_use("C") == 0);
    CHECK(mc_lang_use("de") == 0);
    CHECK_STR(mc_tr("North"), "North");
    /* a list: the first language that has the message */
    CHECK(mc_lang_use("de:fr") == 1);
    CHECK_STR(mc_tr("North"), "Nord");
    /* English ends a list: what follows is never read */
    mc_lang_use("en:fr");
    CHECK_STR(mc_tr("North"), "North");
    /* Accept-Language: by weight */
    mc_lang_use("en;q=0.4, fr-CI;q=0.8");
    CHECK_STR(mc_tr("North"), "Nord");
    mc_lang_use(NULL);
}

/* A big-endian file and a three-form rule (Polish's, from the gettext
   manual's table of plural forms). */
static void test_plural_rule(void)
{
    static const char pl_header[] =
        "Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && "
        "(n%100<10 || n%100>=20) ? 1 : 2);\n";
    pair pl[] = {
        {"", pl_header, 0, 0},
        {"%d seed\0%d seeds", "A\0B\0C", 16, 5},
    };
    size_t len;
    unsigned char *mo = make_mo(pl, 2, 1, &len);
    mc_error err = {0, ""};
    CHECK_MSG(mc_lang_add("pl", mo, len, &err) == 0, "%s", err.msg);
    free(mo);
    mc_lang_use("pl");
    /* worked from the rule: 1 -> 0; 2,3,4,22 -> 1; 5,11,12,13,14,25 -> 2 */
    const unsigned long n[] = {1, 2, 3, 4, 22, 5, 11, 12, 14, 25, 0};
    const char *want[] = {"A", "B", "B", "B", "B", "C",
                          "C", "C", "C", "C", "C"};
    for (int i = 0; i < 11; i++)
        CHECK_STR(mc_ntr("%d seed", "%d seeds", n[i]), want[i]);
    mc_lang_use(NULL);
}

static void test_bad_catalogs(void)
{
    mc_error err = {0, ""};
    unsigned char junk[64] = {1, 2, 3};
    CHECK(mc_lang_add("xx", junk, sizeof junk, &err) != 0);
    CHECK(strstr(err.msg, "not a .mo") != NULL);
    CHECK(mc_lang_add("xx", junk, 10, &err) != 0);
    CHECK(mc_lang_add(NULL, junk, 10, &err) != 0);
    CHECK(mc_lang_add("", junk, 10, &err) != 0);
    /* originals out of order: not msgfmt's, refused */
    pair bad[] = {{"b", "B", 0, 0}, {"a", "A", 0, 0}};
    size_t len;
    unsigned char *mo = make_mo(bad, 2, 0, &len);
    CHECK(mc_lang_add("xx", mo, len, &err) != 0);
    /* a string past the file's end */
    free(mo);
    pair one[] = {{"a", "A", 0, 0}};
    mo = make_mo(one, 1, 0, &len);
    mo[28 + 8 + 4] = 0xff; /* the translation's offset */
    CHECK(mc_lang_add("xx", mo, len, &err) != 0);
    /* cut short: every length below the whole is refused */
    free(mo);
    mo = make_mo(one, 1, 0, &len);
    for (size_t l = 0; l < len; l++)
        CHECK(mc_lang_add("xx", mo, l, &err) != 0);
    free(mo);
    /* a plural rule that does not parse */
    pair badrule[] = {{"", "Plural-Forms: nplurals=2; plural=n >;\n", 0, 0}};
    mo = make_mo(badrule, 1, 0, &len);
    CHECK(mc_lang_add("xx", mo, len, &err) != 0);
    free(mo);
    CHECK(mc_lang_use("xx") == 0);
    mc_lang_use(NULL);
}

static void *other_thread(void *arg)
{
    (void)arg;
    /* a new thread speaks English whatever the others chose */
    const char *r = mc_tr("North");
    mc_lang_use("fr");
    return (void *)(strcmp(r, "North") == 0 &&
                            strcmp(mc_tr("North"), "Nord") == 0
                        ? (void *)1
                        : NULL);
}

static void test_threads(void)
{
    mc_lang_use("pl");
    pthread_t t;
    void *ok = NULL;
    CHECK(pthread_create(&t, NULL, other_thread, NULL) == 0);
    CHECK(pthread_join(t, &ok) == 0);
    CHECK(ok != NULL);
    /* this thread's choice is its own */
    CHECK_STR(mc_lang_get(), "pl");
    CHECK_STR(mc_tr("North"), "North");
    mc_lang_use(NULL);
}

static void test_pseudo(void)
{
    char buf[256];
    mc_lang_pseudo("North", buf, sizeof buf);
    CHECK_STR(buf, "Ñööŕţĥ");
    /* conversions, placeholders, tags and entities are kept */
    mc_lang_pseudo(
        "%s plays %-3d of %1$s, {n} <b class=x>a</b> &amp; 100%% --lang", buf,
        sizeof buf);
    CHECK_STR(
        buf,
        "%s ƥļááýš %-3d ööƒ %1$s, {n} <b class=x>áá</b> &amp; 100%% --lang");
    /* no ASCII letter is left */
    mc_lang_pseudo("The quick brown fox jumps over the lazy dog", buf,
                   sizeof buf);
    int ascii = 0;
    for (const char *s = buf; *s; s++)
        ascii += (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z');
    CHECK(ascii == 0);
    CHECK(strlen(buf) > 43 * 13 / 10); /* longer by at least a third */
    mc_lang_use(MC_LANG_PSEUDO);
    CHECK_STR(mc_tr("North"), "Ñööŕţĥ");
    CHECK(mc_tr("North") == mc_tr("North")); /* kept, not remade */
    CHECK_STR(mc_ntr("%d seed", "%d seeds", 3), "%d šééééđš");
    /* a small buffer: cut, terminated, the length needed returned */
    size_t need = mc_lang_pseudo("North", buf, 4);
    CHECK(need == strlen("Ñööŕţĥ") && strlen(buf) < 4);
    mc_lang_use(NULL);
}

static void test_negotiate(void)
{
    char buf[32];
    CHECK_STR(mc_lang_negotiate("fr-CI,fr;q=0.9,en;q=0.5", buf, sizeof buf),
              "fr");
    CHECK_STR(mc_lang_negotiate("de-DE,de;q=0.9", buf, sizeof buf), "en");
    CHECK_STR(mc_lang_negotiate("de;q=0.9,pl;q=0.95", buf, sizeof buf), "pl");
    CHECK_STR(mc_lang_negotiate("en-US,fr;q=0.5", buf, sizeof buf), "en");
    CHECK_STR(mc_lang_negotiate("", buf, sizeof buf), "en");
    CHECK_STR(mc_lang_negotiate(NULL, buf, sizeof buf), "en");
    CHECK_STR(mc_lang_negotiate("*", buf, sizeof buf), "en");
    CHECK_STR(mc_lang_negotiate("fr;q=0", buf, sizeof buf), "en");
    CHECK_STR(mc_lang_negotiate("en-XA", buf, sizeof buf), MC_LANG_PSEUDO);
    const char *tags[16];
    int n = mc_lang_list(tags, 16);
    int fr = 0, pl = 0;
    for (int i = 0; i < n && i < 16; i++) {
        fr += !strcmp(tags[i], "fr");
        pl += !strcmp(tags[i], "pl");
    }
    CHECK(fr == 1 && pl == 1);
}

static void test_env(void)
{
    char buf[64];
    unsetenv("LANGUAGE");
    unsetenv("LC_ALL");
    unsetenv("LC_MESSAGES");
    setenv("LANG", "fr_FR.UTF-8", 1);
    CHECK_STR(mc_lang_from_env(buf, sizeof buf), "fr_FR.UTF-8");
    setenv("LC_MESSAGES", "pl_PL", 1);
    CHECK_STR(mc_lang_from_env(buf, sizeof buf), "pl_PL");
    setenv("LC_ALL", "C", 1);
    CHECK_STR(mc_lang_from_env(buf, sizeof buf), "");
    setenv("LANGUAGE", "sw:fr", 1);
    CHECK_STR(mc_lang_from_env(buf, sizeof buf), "sw:fr");
    unsetenv("LANGUAGE");
    unsetenv("LC_ALL");
    unsetenv("LC_MESSAGES");
    unsetenv("LANG");
    CHECK_STR(mc_lang_from_env(buf, sizeof buf), "");
}

int main(void)
{
    test_lookup();
    test_plural_rule();
    test_bad_catalogs();
    test_threads();
    test_pseudo();
    test_negotiate();
    test_env();
    return check_report("test_i18n");
}
