/*
 * rules_text.h - the rule files embedded in the library, in every language
 * they are translated into (docs/TRANSLATING.md): docs/rules/<game>.md in
 * English, and each po/rules/<lang>.po's translation made by po4a at build
 * time; tools/embed.c -l writes the table.
 */
#ifndef MC_RULES_TEXT_H
#define MC_RULES_TEXT_H

/* One rule file: its language ("en", "fr"), its game's name, its text. */
typedef struct mc_embedded_text {
    const char *lang;
    const char *name;
    const char *text;
} mc_embedded_text;

/* Every rule file, ended by a NULL lang (the generated rules_text.c). */
extern const mc_embedded_text mc_rules_texts[];

#endif
