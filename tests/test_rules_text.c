/*
 * test_rules_text.c - mc_rules_text in the calling thread's language
 * (src/core/rules_text.c, docs/TRANSLATING.md): the French rule files
 * (po/rules/fr.po, translated by po4a at build time) for "fr", a region of
 * it and a POSIX locale name, English for every other language, for the
 * pseudo-language and with none; two threads read two languages at once.
 * The French sentences below are written here, not copied from the
 * program's output.
 */
#include <pthread.h>
#include <string.h>

#include "check.h"
#include "mancala.h"

static const char *const games[] = {"oware", "omweso", "gore", "sadeqa2"};

/* Whether the text of game g in the thread's language is the French one,
   -1 when there is none. */
static int is_french(const char *g)
{
    const char *t = mc_rules_text(g);
    if (!t)
        return -1;
    return strstr(t, "## 2. Règles (jeu de règles par défaut") != NULL;
}

static void test_choice(void)
{
    /* a list is read in order: sw has no rules, fr has */
    const char *fr[] = {"fr",         "fr-CI",          "fr_FR.UTF-8",
                        "FR",         "fr-BE,en;q=0.5", "sw:fr",
                        "sw,fr;q=0.8"};
    for (size_t i = 0; i < sizeof fr / sizeof fr[0]; i++) {
        mc_lang_use(fr[i]);
        for (int g = 0; g < 4; g++)
            CHECK_MSG(is_french(games[g]) == 1, "%s in %s: not French",
                      games[g], fr[i]);
    }
    const char *en[] = {NULL,           "",   "C",  "en", "en-GB",
                        MC_LANG_PSEUDO, "sw", "frr"};
    for (size_t i = 0; i < sizeof en / sizeof en[0]; i++) {
        mc_lang_use(en[i]);
        for (int g = 0; g < 4; g++)
            CHECK_MSG(is_french(games[g]) == 0, "%s in %s: not English",
                      games[g], en[i] ? en[i] : "(none)");
    }
    mc_lang_use(NULL);
    CHECK(strstr(mc_rules_text("oware"), "- **O6 Grand slam.** If the "
                                         "captures of O5 would leave") != NULL);
    mc_lang_use("fr");
    const char *t = mc_rules_text("oware");
    CHECK(strstr(t, "- **O6 Grand chelem.** Si les prises de O5 devaient "
                    "vider la rangée adverse") != NULL);
    CHECK(strstr(t, "- **O7 Nourrir.**") != NULL);
    CHECK(strstr(mc_rules_text("gore"), "- **G7 Victoire sans gloire.**") !=
          NULL);
    CHECK(strstr(mc_rules_text("omweso"), "- **W10 Tours à rebours.**") !=
          NULL);
    CHECK(strstr(mc_rules_text("sadeqa2"), "- **S5 Semis sans fin.**") != NULL);
    /* names: only the games', whatever the language */
    CHECK(mc_rules_text("go") == NULL);
    CHECK(mc_rules_text("fr") == NULL);
    CHECK(mc_rules_text(NULL) == NULL);
    mc_lang_use(NULL);
}

/* The French and the English texts of one game hold the same numbered
   rules, in the same order. */
static void test_numbers(void)
{
    for (int g = 0; g < 4; g++) {
        mc_lang_use(NULL);
        const char *en = mc_rules_text(games[g]);
        mc_lang_use("fr");
        const char *fr = mc_rules_text(games[g]);
        CHECK(en && fr && en != fr);
        if (!en || !fr || en == fr)
            continue;
        int n = 0;
        const char *a = en, *b = fr;
        for (;;) {
            a = strstr(a, "\n- **");
            b = strstr(b, "\n- **");
            while (a &&
                   !(a[5] >= 'A' && a[5] <= 'Z' && a[6] >= '0' && a[6] <= '9'))
                a = strstr(a + 1, "\n- **");
            while (b &&
                   !(b[5] >= 'A' && b[5] <= 'Z' && b[6] >= '0' && b[6] <= '9'))
                b = strstr(b + 1, "\n- **");
            if (!a || !b)
                break;
            size_t la = strcspn(a + 5, " "), lb = strcspn(b + 5, " ");
            CHECK_MSG(la == lb && strncmp(a + 5, b + 5, la) == 0,
                      "%s: rule %.*s in English, %.*s in French", games[g],
                      (int)la, a + 5, (int)lb, b + 5);
            n++;
            a++;
            b++;
        }
        CHECK_MSG(!a && !b, "%s: not as many numbered rules", games[g]);
        CHECK_MSG(n >= 7, "%s: %d numbered rules", games[g], n);
    }
    mc_lang_use(NULL);
}

static void *french_thread(void *arg)
{
    (void)arg;
    mc_lang_use("fr");
    int ok = 1;
    for (int i = 0; i < 2000; i++)
        ok &= is_french("oware") == 1;
    return ok ? (void *)1 : NULL;
}

/* Each thread its own language: one reads French while this one reads
   English. */
static void test_threads(void)
{
    mc_lang_use("en");
    pthread_t t;
    CHECK(pthread_create(&t, NULL, french_thread, NULL) == 0);
    int ok = 1;
    for (int i = 0; i < 2000; i++)
        ok &= is_french("oware") == 0;
    void *res = NULL;
    CHECK(pthread_join(t, &res) == 0);
    CHECK(ok);
    CHECK(res != NULL);
}

int main(void)
{
    test_choice();
    test_numbers();
    test_threads();
    return check_report("test_rules_text");
}
