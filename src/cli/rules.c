/*
 * rules.c - `mancala rules`: the rule files (docs/rules/<game>.md, embedded
 * in the library) printed for players.  The files are the project's
 * contract and also speak to implementers (where the text came from, what a
 * parser must accept, how to detect a cycle, perft figures); those passages
 * are left out here, when printing, so that the files stay the one source.
 * The text is in the thread's language (mc_rules_text: the French rules
 * are po/rules/fr.po's translation).  Knows no rule: it only cuts text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifndef MC_DOCDIR
#define MC_DOCDIR "/usr/local/share/doc/mancala"
#endif

/* How far a cut reaches from its first words. */
enum cut_end {
    CUT_PHRASE,   /* just the words */
    CUT_SENTENCE, /* to the end of the sentence ('.' then a space or line end)
                   */
    CUT_UNTIL,    /* up to (not including) the text of `until` */
    CUT_ITEM,     /* to the end of the list item or paragraph */
    CUT_PARA,     /* the paragraph and the blank line after it */
    CUT_REST      /* to the end of the file */
};

typedef struct cut {
    const char *start;
    int end;
    const char *until;
} cut;

/* Passages addressed to implementers or citing source files, by their
   first words.  A cut whose words no file holds does nothing, so a
   changed rule file can only leave more text in, never lose a rule (the
   tests check that the numbered rules are all printed and that no source
   file is named). */
static const cut cuts[] = {
    {"Source text", CUT_UNTIL, "Game name:"},
    {"A parser ", CUT_ITEM, NULL},
    {"Detect this exactly.", CUT_SENTENCE, NULL},
    {"Detect it exactly;", CUT_ITEM, NULL},
    {"**Beware the cost**", CUT_ITEM, NULL},
    {" (independent references)", CUT_PHRASE, NULL},
    {"Mechanics from OpenSpiel", CUT_PARA, NULL},
    {"The first two examples mirror", CUT_SENTENCE, NULL},
    {"Perft from the start position", CUT_REST, NULL},
    /* the tools' output format (mancala apply --help, the files) */
    {"- **Result line** of `mancala apply`", CUT_ITEM, NULL},
    /* the same passages in the French rules (po/rules/fr.po, whose
       translations begin them with these words) */
    {"Texte source", CUT_UNTIL, "Nom du jeu"},
    {"Textes sources", CUT_UNTIL, "Nom du jeu"},
    {"Un analyseur ", CUT_ITEM, NULL},
    {"Ce cas se détecte exactement.", CUT_SENTENCE, NULL},
    {"Le détecter exactement ;", CUT_ITEM, NULL},
    {"**Attention au coût**", CUT_ITEM, NULL},
    {" (références indépendantes)", CUT_PHRASE, NULL},
    {"Mécanique tirée des tests", CUT_PARA, NULL},
    {"Les deux premiers exemples reprennent", CUT_SENTENCE, NULL},
    {"Perft depuis la position de départ", CUT_REST, NULL},
    {"- **Ligne de résultat** de `mancala apply`", CUT_ITEM, NULL},
};

typedef struct buf {
    char *s;
    size_t n, cap;
} buf;

static void put(buf *b, char c)
{
    if (b->n + 2 > b->cap) {
        size_t cap = b->cap * 2;
        char *s = realloc(b->s, cap);
        if (!s)
            return; /* out of memory: the text comes out shorter */
        b->s = s;
        b->cap = cap;
    }
    b->s[b->n++] = c;
    b->s[b->n] = 0;
}

/* Where a cut starting at t stops (the first character kept). */
static const char *cut_stop(const cut *c, const char *t)
{
    const char *p = t + strlen(c->start);
    switch (c->end) {
    case CUT_PHRASE:
        return p;
    case CUT_SENTENCE: /* the start may hold the sentence's own '.' */
        for (p = t; *p; p++)
            if (p[0] == '.' && (p[1] == ' ' || p[1] == '\n' || !p[1])) {
                p++;
                while (*p == ' ')
                    p++;
                return p;
            }
        return p;
    case CUT_UNTIL: {
        const char *u = strstr(p, c->until);
        return u ? u : p;
    }
    case CUT_ITEM:
    case CUT_PARA:
        for (; *p; p++)
            if (p[0] == '\n' &&
                (p[1] == '\n' || p[1] == '-' || p[1] == '#' || !p[1]))
                return c->end == CUT_PARA && p[1] == '\n' ? p + 2 : p;
        return p;
    default:
        return p + strlen(p);
    }
}

/* In the pseudo-language, s (malloc'd) as it writes it, in a new string
   (s is freed); else s.  mc_rules_text gives the English rules there:
   this shows them transformed, so that the language's checks see them
   translated. */
static char *pseudo_text(char *s)
{
    if (strcmp(mc_lang_get(), MC_LANG_PSEUDO) != 0)
        return s;
    size_t n = mc_lang_pseudo(s, NULL, 0) + 1;
    char *p = malloc(n);
    if (p)
        mc_lang_pseudo(s, p, n);
    free(s);
    return p;
}

/* The rule text t without the cuts, and without Markdown's backticks and
   bold markers (in the pseudo-language, transformed); malloc'd (NULL if
   out of memory). */
static char *players_text(const char *t)
{
    buf b = {malloc(4096), 0, 4096};
    if (!b.s)
        return NULL;
    b.s[0] = 0;
    while (*t) {
        const cut *c = NULL;
        for (size_t i = 0; i < sizeof cuts / sizeof cuts[0] && !c; i++)
            if (strncmp(t, cuts[i].start, strlen(cuts[i].start)) == 0)
                c = &cuts[i];
        if (!c) {
            put(&b, *t++);
            continue;
        }
        const char *stop = cut_stop(c, t);
        if (c->end != CUT_PHRASE) {
            while (b.n && b.s[b.n - 1] == ' ')
                b.s[--b.n] = 0;
            int line_start = b.n == 0 || b.s[b.n - 1] == '\n';
            if (c->end == CUT_REST) {
                while (b.n > 1 && b.s[b.n - 1] == '\n' && b.s[b.n - 2] == '\n')
                    b.s[--b.n] = 0;
            } else if (line_start && *stop == '\n') {
                stop++; /* the whole line went: no empty line for it */
            } else if (!line_start && *stop && *stop != '\n' && *stop != ' ') {
                put(&b, ' ');
            }
        }
        t = stop;
    }
    /* Markdown for a terminal */
    size_t k = 0;
    for (size_t i = 0; i < b.n; i++) {
        if (b.s[i] == '`')
            continue;
        if (b.s[i] == '*' && b.s[i + 1] == '*') {
            i++;
            continue;
        }
        b.s[k++] = b.s[i];
    }
    b.s[k] = 0;
    return pseudo_text(b.s);
}

/* The games, each followed by sep but the last, which is followed by end. */
static void list_games(FILE *f, const char *sep, const char *end)
{
    for (const char *const *n = mc_game_names(); *n; n++)
        fprintf(f, "%s%s", *n, n[1] ? sep : end);
}

int cmd_rules(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        list_games(stdout, "\n", "\n");
        return 0;
    }
    if (argc != 2 || cli_is_help(argv[1])) {
        FILE *f = argc == 2 ? stdout : stderr;
        fprintf(f, _("usage: mancala rules <game>\n"
                     "       mancala rules --list\n\n"
                     "Print the rules of a game, as the program plays them:\n"
                     "numbered rules, options, notation and worked examples,\n"
                     "and where the illustrated beginner's guide is.\n"
                     "--list: the games, one a line.  Games: "));
        list_games(f, " ", "\n");
        return argc == 2 ? 0 : EXIT_USAGE;
    }
    const char *name = argv[1];
    if (name[0] == '-') {
        fprintf(stderr,
                _("mancala rules: unknown option '%s' (try 'mancala "
                  "rules --help')\n"),
                name);
        return EXIT_USAGE;
    }
    char base[64];
    size_t k = strcspn(name, ":");
    snprintf(base, sizeof base, "%.*s", (int)(k < 63 ? k : 63), name);
    const char *t = mc_rules_text(base);
    if (!t) {
        fprintf(stderr, _("mancala: no rules for '%s' (games: "), name);
        list_games(stderr, " ", ")\n");
        return EXIT_BAD_INPUT;
    }
    char *text = players_text(t);
    fputs(text ? text : t, stdout);
    free(text);
    printf(_("\nFor beginners: the rules in plain words, with pictures, are on "
             "the page\n/howto-%s.html of 'mancala serve' (open "
             "http://127.0.0.1:8080/howto-%s.html\nwhile it runs)"),
           base, base);
    char doc[4200];
    snprintf(doc, sizeof doc, "%s/howto-%s.html", MC_DOCDIR, base);
    if (access(doc, R_OK) == 0)
        printf(_(", and in the file\n%s"), doc);
    printf(".\n");
    return 0;
}
