/*
 * rules_text.c - mc_rules_text: a game's rule file in the calling thread's
 * language (mc_lang_get), else in English.  The first language the thread
 * asked for decides, by its primary subtag: "fr", "fr-CI" and "fr_FR.UTF-8"
 * all read the French rules.  A paragraph a translation lacks is English
 * in it (po4a keeps the original of an untranslated or outdated
 * paragraph), so a translated file never holds an outdated rule.  The
 * pseudo-language MC_LANG_PSEUDO reads the English file (mancala rules
 * shows it through mc_lang_pseudo).
 */
#include "core/rules_text.h"

#include <string.h>

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
    const char *lang = mc_lang_get();
    size_t n = strcspn(lang, "-_.@");
    const char *t = NULL;
    if (n == 2 || n == 3)
        t = find(lang, n, name);
    return t ? t : find("en", 2, name);
}
