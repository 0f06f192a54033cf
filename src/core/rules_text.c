/*
 * rules_text.c - mc_rules_text: a game's rule file in the calling thread's
 * language, else in English.  The languages the thread asked for are tried
 * in order (LANGUAGE=sw:fr reads the French rules while there are no
 * Swahili ones), each by its primary subtag: "fr", "fr-CI" and
 * "fr_FR.UTF-8" all read the French rules.  A paragraph a translation lacks is
 * English in it (po4a keeps the original of an untranslated or outdated
 * paragraph), so a translated file never holds an outdated rule.  The
 * pseudo-language MC_LANG_PSEUDO reads the English file (mancala rules
 * shows it through mc_lang_pseudo).
 */
#include "core/rules_text.h"

#include <string.h>

#include "core/i18n.h"
#include "mancala.h"

/* The text of game name in language lang (a primary subtag), or NULL. */
static const char *find(const char *lang, size_t n, const char *name)
{
    for (const mc_embedded_text *t = mc_rules_texts; t->lang; t++)
        if (strlen(t->lang) == n && strncmp(t->lang, lang, n) == 0 &&
            strcmp(t->name, name) == 0)
            return t->text;
    return NULL;
}

const char *mc_rules_text(const char *name)
{
    if (!name)
        return NULL;
    const char *want[4];
    int k = mc_i18n_wanted(want, 4);
    for (int i = 0; i < k && i < 4; i++) {
        size_t n = strcspn(want[i], "-_.@");
        const char *t = n == 2 || n == 3 ? find(want[i], n, name) : NULL;
        if (t)
            return t;
    }
    return find("en", 2, name);
}
