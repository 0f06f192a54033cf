/*
 * test_lang_lib.c - the library's words in French (po/lib/fr.po): a move's
 * explanation, an illegal move's message, result sentences and the options'
 * help come out as the French sentences written below by hand; two threads
 * speak two languages at once; and nothing a script reads (positions, move
 * tokens, mc_move_parse) changes with the language, checked under the
 * pseudo-language, which changes every text that passes through a catalog.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mancala.h"
#include "mancala_protocol.h"

/* South opens Oware with C: its explanation, in the thread's language. */
static void oware_c(char *buf, size_t n)
{
    mc_error err;
    mc_game *g = mc_game_new("oware", &err);
    mc_pos p, q;
    mc_start(g, &p);
    mc_move m;
    mc_move_parse(g, &p, "C", &m, &err);
    mc_trace_event ev[64];
    mc_trace t = {ev, 64, 0, 0};
    q = p;
    mc_play(g, &q, m, &t);
    mc_move_explain(g, &p, m, &t, buf, n);
    mc_game_free(g);
}

static const char *const explain_en =
    "South plays C: lifts 4 seeds from C; the last seed falls in a (now 5).";
static const char *const explain_fr =
    "Sud joue C : ramasse 4 graines dans C ; la dernière graine tombe dans "
    "a (maintenant 5).";

static void test_french_words(void)
{
    char buf[512];
    CHECK(mc_lang_use("fr") == 1);
    oware_c(buf, sizeof buf);
    CHECK_STR(buf, explain_fr);

    mc_error err;
    mc_game *g = mc_game_new("oware", &err);
    mc_pos p;
    mc_start(g, &p);
    mc_move m;
    CHECK(mc_move_parse(g, &p, "a", &m, &err) == MC_ERR_ILLEGAL);
    CHECK_STR(err.msg, "a est une case de Nord ; Sud joue depuis A-F");
    CHECK(mc_move_parse(g, &p, "Z", &m, &err) == MC_ERR_MOVE);
    CHECK_STR(err.msg, "« Z » n'est pas un coup : un coup est une lettre de "
                       "case, A-F pour Sud ou a-f pour Nord");

    /* results: a win on captures with its score, a resignation, a draw
       with a half seed */
    mc_result r;
    memset(&r, 0, sizeof r);
    r.over = 1;
    r.winner = MC_SOUTH;
    r.reason = MC_END_CAPTURES;
    r.score2[0] = 50;
    r.score2[1] = 20;
    mc_result_describe(g, &r, buf, sizeof buf);
    CHECK_STR(buf, "Sud gagne 25 à 10 : Sud a pris plus de la moitié des "
                   "graines.");
    r.winner = MC_NORTH;
    r.reason = MC_END_RESIGN;
    mc_result_describe(g, &r, buf, sizeof buf);
    CHECK_STR(buf, "Nord gagne : Sud a abandonné.");
    r.winner = MC_DRAW;
    r.reason = MC_END_REPETITION;
    r.score2[0] = r.score2[1] = 47;
    mc_result_describe(g, &r, buf, sizeof buf);
    CHECK_STR(buf, "Partie nulle, 23,5 à 23,5 : la même position est revenue : "
                   "chaque joueur prend les graines de sa propre rangée.");
    CHECK_STR(mc_game_title(g), "Awalé (règles abapa)");
    CHECK_STR(mc_game_unit(g, 1), "graines");
    char help[4096];
    mc_game_options_help(g, help, sizeof help);
    CHECK(strstr(help, "O1 : qui joue en premier") != NULL);
    CHECK(strstr(help, "grand_slam") != NULL); /* option keys stay */
    mc_game_free(g);

    /* Goré says stones, and plural forms follow French (0 and 1 singular) */
    g = mc_game_new("gore", &err);
    CHECK_STR(mc_game_unit(g, 1), "pierres");
    mc_trace_event e = {MC_TR_LIFT, 0, 0, 0, 1};
    mc_trace_describe(g, &e, buf, sizeof buf);
    CHECK_STR(buf, "ramasse 1 pierre dans A");
    e.n = 6;
    mc_trace_describe(g, &e, buf, sizeof buf);
    CHECK_STR(buf, "ramasse 6 pierres dans A");
    mc_game_free(g);

    /* Omweso keeps its Luganda terms; W14 points in words */
    g = mc_game_new("omweso", &err);
    memset(&r, 0, sizeof r);
    r.over = 1;
    r.winner = MC_SOUTH;
    r.reason = MC_END_POINTS;
    r.points = 2;
    snprintf(r.detail, sizeof r.detail, "2 okutema");
    mc_result_describe(g, &r, buf, sizeof buf);
    CHECK_STR(buf, "Sud gagne 2 points : okutema : Sud a pris dans les deux "
                   "colonnes d'extrémité de Nord ou a vidé d'une prise toutes "
                   "les cases intérieures de Nord.");
    mc_game_free(g);

    /* the clock's words, the time control's token as it is */
    mc_time_control tc;
    CHECK(mc_time_parse(NULL, "game:300+2", &tc, &err) == 0);
    mc_time_describe(NULL, &tc, buf, sizeof buf);
    CHECK_STR(buf, "5:00 chacun pour la partie, plus 2 s par coup ; dépasser "
                   "son temps fait perdre la partie");
    mc_time_format(&tc, buf, sizeof buf);
    CHECK_STR(buf, "game:300+2");
    CHECK(mc_time_parse(NULL, "move:0", &tc, &err) != 0);
    CHECK(strncmp(err.msg, "cadence « move:0 » : le temps d'un coup", 40) == 0);

    CHECK_STR(mc_strerror(MC_ERR_ILLEGAL), "coup interdit par les règles");

    /* back to English: the same calls in English */
    mc_lang_use(NULL);
    oware_c(buf, sizeof buf);
    CHECK_STR(buf, explain_en);
    CHECK_STR(mc_strerror(MC_ERR_ILLEGAL), "move not allowed by the rules");
}

/* Two threads, two languages, at once and many times over. */
typedef struct worker {
    const char *lang;
    const char *want;
    int bad;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    mc_lang_use(w->lang);
    char buf[512];
    for (int i = 0; i < 300; i++) {
        oware_c(buf, sizeof buf);
        w->bad += strcmp(buf, w->want) != 0;
    }
    return NULL;
}

static void test_two_threads(void)
{
    worker w[2] = {{"fr-CI, fr;q=0.9", explain_fr, 0}, {"en", explain_en, 0}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, work, &w[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    CHECK_MSG(w[0].bad == 0, "%d French explanations were wrong", w[0].bad);
    CHECK_MSG(w[1].bad == 0, "%d English explanations were wrong", w[1].bad);
}

/* Everything a script reads, for a few plies of each game: the position
   strings, the move tokens, and what mc_move_parse makes of each token and
   of a bad one (its code). */
static void script_text(const char *spec, char *out, size_t n)
{
    mc_error err;
    mc_game *g = mc_game_new(spec, &err);
    size_t at = 0;
    out[0] = 0;
    if (!g)
        return;
    mc_pos p;
    mc_start(g, &p);
    for (int ply = 0; ply < 12; ply++) {
        char pos[MC_POS_STRLEN];
        mc_pos_format(g, &p, pos, sizeof pos);
        at += (size_t)snprintf(out + at, n - at, "%s\n", pos);
        mc_move mv[MC_MAX_MOVES];
        int k = mc_moves(g, &p, mv);
        if (k == 0)
            break;
        for (int i = 0; i < k && at < n - 200; i++) {
            char tok[MC_MOVE_STRLEN];
            mc_move_format(g, &p, mv[i], tok, sizeof tok);
            mc_move back = 0;
            int rc = mc_move_parse(g, &p, tok, &back, &err);
            at += (size_t)snprintf(out + at, n - at, "%s=%d,%d ", tok, rc,
                                   rc == 0 && back == mv[i]);
        }
        mc_move junk;
        at += (size_t)snprintf(out + at, n - at, "bad=%d\n",
                               mc_move_parse(g, &p, "zz9", &junk, &err));
        mc_play(g, &p, mv[(ply * 7) % k], NULL);
    }
    mc_game_free(g);
    /* the time controls as written, the names of end reasons and of trace
       events, the result's details */
    mc_error e2;
    mc_game *om = mc_game_new("omweso", &e2);
    static const char *const tcs[] = {"game:300+2", "move:3",   "none",
                                      "blitz",      "contract", NULL};
    for (int i = 0; tcs[i]; i++) {
        mc_time_control tc;
        char t[64];
        if (mc_time_parse(om, tcs[i], &tc, &e2) == 0) {
            mc_time_format(&tc, t, sizeof t);
            at += (size_t)snprintf(out + at, n - at, "%s ", t);
        }
    }
    mc_game_free(om);
    for (int r = 0; r <= MC_END_TIME; r++)
        at += (size_t)snprintf(out + at, n - at, "%s ", mc_end_reason_name(r));
    for (int k = 1; mc_trace_kind_name(k); k++)
        at += (size_t)snprintf(out + at, n - at, "%s ", mc_trace_kind_name(k));
}

static void test_scriptable_unchanged(void)
{
    static const char *const specs[] = {"oware", "gore", "omweso", "sadeqa2",
                                        NULL};
    static char en[1 << 16], ps[1 << 16];
    for (int i = 0; specs[i]; i++) {
        mc_lang_use(NULL);
        script_text(specs[i], en, sizeof en);
        CHECK(mc_lang_use(MC_LANG_PSEUDO) == 1);
        script_text(specs[i], ps, sizeof ps);
        CHECK_MSG(strcmp(en, ps) == 0, "%s: scriptable text changed", specs[i]);
        CHECK(strlen(en) > 100);
        /* and the words did change */
        char a[512];
        oware_c(a, sizeof a);
        CHECK(strcmp(a, explain_en) != 0);
    }
    mc_lang_use(NULL);
}

static void collect(const char *line, void *ctx)
{
    char *buf = ctx;
    size_t n = strlen(buf);
    snprintf(buf + n, 4096 - n, "%s\n", line);
}

/* The engine protocol is read by programs: its lines are English whatever
   language the thread that feeds it chose (the library's words in its
   error lines included). */
static void test_protocol_english(void)
{
    static char out[2][4096];
    for (int k = 0; k < 2; k++) {
        mc_lang_use(k ? "fr" : NULL);
        out[k][0] = 0;
        mc_engine *e = mc_engine_new(collect, out[k]);
        CHECK(e != NULL);
        const char *lines[] = {"position start moves Z",
                               "position oware 4,4,4/4 S", "set game nope"};
        for (int i = 0; i < 3; i++)
            mc_engine_line(e, lines[i], strlen(lines[i]));
        mc_engine_finish(e);
        mc_engine_free(e);
        /* French is still this thread's after the engine's calls */
        CHECK_STR(mc_lang_get(), k ? "fr" : "en");
    }
    mc_lang_use(NULL);
    CHECK(strstr(out[0], "'Z' is not a move") != NULL);
    CHECK(strstr(out[0], "expected 6 comma-separated seed counts") != NULL);
    CHECK_STR(out[1], out[0]);
}

int main(void)
{
    test_protocol_english();
    test_french_words();
    test_two_threads();
    test_scriptable_unchanged();
    return check_report("test_lang_lib");
}
