/*
 * i18n.h - the players' languages inside the library and its programs
 * (docs/TRANSLATING.md).  Every word a player reads is written in English
 * in the source, inside one of these marks, which xgettext finds (make
 * pot):
 *
 *   _("South to move.")            the text in the thread's language
 *   P_("%d seed", "%d seeds", n)   the plural form n takes there
 *   C_("pit", "Sow")               a text whose context tells translators
 *                                  which of two meanings it is
 *   N_("Resign")                   only marked: a table's text, translated
 *                                  where it is shown with _()
 *
 * Nothing a script reads goes through them: moves, positions, records,
 * the engine protocol, JSON keys and error codes stay as they are.
 */
#ifndef MC_I18N_H
#define MC_I18N_H

#include <stddef.h>

#include "mancala.h"

#define _(s) mc_tr(s)
#define P_(s, p, n) mc_ntr(s, p, (unsigned long)(n))
#define C_(c, s) mc_trc(c, s)
#define N_(s) s

/* A side's name in the thread's language ("South" 0, "North" 1), for the
   rules' sentences. */
const char *mc_side_word(int side);

/* A catalog built into a program or the library: the .mo file of a
   po/<domain>/<lang>.po (tools/embed.c -t makes the list, ended by a
   NULL lang). */
typedef struct mc_embedded_catalog {
    const char *lang;
    const void *mo;
    size_t len;
} mc_embedded_catalog;

/* The library's own (po/lib). */
extern const mc_embedded_catalog mc_catalogs_lib[];

/* The languages the calling thread asked for, in order (mc_lang_use's
   list: "sw:fr" is sw then fr; none for English): their count, up to max
   written to tags (valid until the thread's next mc_lang_use). */
int mc_i18n_wanted(const char **tags, int max);

/* English for the calling thread between these two, whatever it chose
   (they nest): the engine protocol's lines are read by programs, never in
   a player's language. */
void mc_i18n_english_begin(void);
void mc_i18n_english_end(void);

/* Registers each catalog of list once (its bytes are kept, not copied). */
void mc_i18n_add_embedded(const mc_embedded_catalog *list);

#endif
