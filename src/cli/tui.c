/*
 * tui.c - the full-screen board of `mancala play`, with ncurses.
 *
 * The board is drawn from mc_layout_get, mc_pit_name and mc_pit_owner;
 * moves come from the session and are typed as their tokens (a pit's
 * letter) or picked with the arrow keys; a move's trace is replayed seed by
 * seed and explained with mc_trace_describe.  No rule lives here: what is
 * legal, what an offer costs and what a capture took all come from the
 * library.  This file must not print to stdout (the screen is ncurses').
 */
#include <ctype.h>
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "tui.h"
#include "mancala_egdb.h"

static const char *const side_name[2] = {"South", "North"};

#define NMSG 9
static struct {
    SCREEN *screen;
    int on;
    int speed;
    char msg[NMSG][200];
    int nmsg;
    int show_list;  /* the move list panel is shown */
    int cursor;     /* index into the legal pit moves, -1: none yet */
    mc_player *hint; /* the player behind hints and evaluations */
} ui = {NULL, 0, 2, {{0}}, 0, 0, -1, NULL};

static const int speed_ms[5] = {0, 25, 70, 160, 350};

int tui_active(void) { return ui.on; }

void tui_set_speed(int speed)
{
    ui.speed = speed < 0 ? 0 : speed > 4 ? 4 : speed;
}

/* Ctrl-C or a kill: give the terminal back before leaving (every move is
   already saved).  endwin here is the usual curses practice. */
static void on_signal(int sig)
{
    endwin();
    _exit(128 + sig);
}

int tui_begin(void)
{
    const char *term = getenv("TERM");
    if (!term || !*term || strcmp(term, "dumb") == 0)
        return -1;
    ui.screen = newterm(NULL, stdout, stdin);
    if (!ui.screen)
        return -1;
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    curs_set(0);
    if (has_colors()) {
        start_color();
        use_default_colors();
        init_pair(1, COLOR_YELLOW, -1); /* side to move, cursor */
        init_pair(2, COLOR_RED, -1);    /* captures */
        init_pair(3, COLOR_CYAN, -1);   /* pits owned across the board */
        init_pair(4, COLOR_GREEN, -1);  /* the pit being sown */
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    ui.on = 1;
    return 0;
}

void tui_end(void)
{
    if (!ui.on)
        return;
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    endwin();
    delscreen(ui.screen);
    ui.screen = NULL;
    ui.on = 0;
    mc_player_free(ui.hint);
    ui.hint = NULL;
}

void tui_say(const char *fmt, ...)
{
    char b[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    /* wrapped at spaces to the width of the screen */
    int width = ui.on && COLS > 20 ? COLS - 1 : 79;
    if (width > (int)sizeof ui.msg[0] - 1)
        width = (int)sizeof ui.msg[0] - 1;
    const char *q = b;
    while (*q) {
        int len = (int)strlen(q);
        if (len > width) {
            len = width;
            while (len > width / 2 && q[len] != ' ')
                len--;
            if (q[len] != ' ')
                len = width;
        }
        if (ui.nmsg == NMSG) {
            memmove(ui.msg[0], ui.msg[1], sizeof ui.msg[0] * (NMSG - 1));
            ui.nmsg--;
        }
        snprintf(ui.msg[ui.nmsg++], sizeof ui.msg[0], "%.*s", len, q);
        q += len;
        while (*q == ' ')
            q++;
    }
}

/* ---- drawing ---- */

/* Extra marks on the board while animating or choosing. */
typedef struct marks {
    const uint8_t *seeds; /* counts to show (NULL: the position's) */
    uint32_t capture;     /* pits highlighted as captured (bits) */
    int active;           /* pit being sown, -1 none */
    int cursor;           /* pit under the cursor, -1 none */
    uint32_t picked;      /* pits picked for an offer */
} marks;

static void fmt_clock(char *b, size_t n, double s)
{
    if (s < 0) {
        snprintf(b, n, "--:--");
        return;
    }
    int t = (int)(s + 0.999);
    snprintf(b, n, "%d:%02d", t / 60, t % 60);
}

static int board_bottom; /* first screen line below the board */

static void draw_all(const mc_session *s, const tui_view *v, const marks *mk,
                     const char *status)
{
    const mc_game *g = mc_session_game(s);
    const mc_pos *p = mc_session_pos(s);
    mc_layout l;
    mc_layout_get(g, &l);
    erase();
    attron(A_BOLD);
    mvprintw(0, 0, "mancala %s: %s", mc_version(), mc_game_spec(g));
    attroff(A_BOLD);
    printw("   [%s]", v->mode ? v->mode : "classic");
    mvprintw(1, 0, "South: %s   North: %s", v->player[0], v->player[1]);
    if (v->score[0])
        mvprintw(2, 0, "Match: %s", v->score);
    int y = 4, foreign = 0;
    for (int r = 0; r < l.rows; r++) {
        int home = r < l.rows / 2 ? MC_NORTH : MC_SOUTH;
        if (home == MC_SOUTH && r == l.rows / 2)
            y++; /* a gap between the two sides */
        int pit_y = home == MC_NORTH ? y + 1 : y;
        int name_y = home == MC_NORTH ? y : y + 1;
        if (r == 0 || r == l.rows - 1) {
            if (p->side == home && !mc_session_over(s))
                attron(COLOR_PAIR(1) | A_BOLD);
            mvprintw(pit_y, 0, "%s", side_name[home]);
            attroff(COLOR_PAIR(1) | A_BOLD);
        }
        for (int c = 0; c < l.cols; c++) {
            int pit = l.pit[r][c];
            int x = 8 + 6 * c;
            if (pit < 0)
                continue;
            mvprintw(name_y, x + 1, "%2s", mc_pit_name(g, pit));
            int n = mk && mk->seeds ? mk->seeds[pit] : p->pit[pit];
            int other = mc_pit_owner(g, p, pit) != home;
            foreign |= other;
            attr_t a = A_NORMAL;
            if (other)
                a |= COLOR_PAIR(3);
            if (mk && (mk->capture >> pit & 1))
                a = COLOR_PAIR(2) | A_BOLD | A_REVERSE;
            else if (mk && mk->active == pit)
                a = COLOR_PAIR(4) | A_BOLD | A_REVERSE;
            else if (mk && mk->cursor == pit)
                a = COLOR_PAIR(1) | A_BOLD | A_REVERSE;
            else if (mk && (mk->picked >> pit & 1))
                a = COLOR_PAIR(1) | A_BOLD;
            attron(a);
            mvprintw(pit_y, x, "%c%2d%c", other ? '<' : '[', n,
                     other ? '>' : ']');
            attroff(a);
        }
        if (l.stores && (r == 0 || r == l.rows - 1))
            mvprintw(pit_y, 10 + 6 * l.cols, "%s %d", l.store_name,
                     p->cap[home]);
        y += 2;
    }
    if (foreign) /* Goré's trades have moved pits across the board */
        mvprintw(y++, 0, "<n> marks a pit owned by the player across the "
                         "board");
    y++;
    /* clocks */
    char c0[16], c1[16];
    fmt_clock(c0, sizeof c0, v->clock[0]);
    fmt_clock(c1, sizeof c1, v->clock[1]);
    if (v->clock[0] >= 0 || v->move_limit > 0) {
        mvprintw(y, 0, "Clock  South %s  North %s", c0, c1);
        if (v->move_limit > 0)
            printw("   (%.0f s a move)", v->move_limit);
        y++;
    }
    if (status) {
        attron(A_BOLD);
        mvprintw(y, 0, "%s", status);
        attroff(A_BOLD);
        for (const char *q = status; *q; q++)
            y += *q == '\n';
    }
    y++;
    board_bottom = y;
    for (int i = 0; i < ui.nmsg; i++)
        mvprintw(y + 1 + i, 0, "%.*s", COLS > 0 ? COLS - 1 : 79, ui.msg[i]);
    if (ui.show_list) {
        int x = 12 + 6 * l.cols + 16;
        mvprintw(4, x, "Moves");
        int n = mc_session_ply(s), first = n > 2 * (LINES - 8) ? n - 2 * (LINES - 8) : 0;
        first -= first % 2;
        for (int i = first; i < n; i++) {
            char tok[MC_MOVE_STRLEN];
            const mc_pos *b = mc_session_pos_at(s, i);
            mc_move_format(g, b, mc_session_move_at(s, i), tok, sizeof tok);
            int row = 5 + (i - first) / 2;
            if (row >= LINES - 2)
                break;
            mvprintw(row, x + (i % 2 ? 14 : 0), "%s%3d. %s",
                     i % 2 ? "" : "", i + 1, tok);
        }
    }
    mvprintw(LINES - 2, 0,
             "Move: a pit's letter, or arrows and Enter.  o: make an offer "
             "(Gore)");
    mvprintw(LINES - 1, 0,
             "u undo  r redo  ? hint  = evaluation  # move list  +/- speed  "
             "! resign  q quit");
    refresh();
}

void tui_draw(const mc_session *s, const tui_view *v)
{
    if (ui.on)
        draw_all(s, v, NULL, NULL);
}

/* ---- a person's turn ---- */

/* The pit a move token names, or -1 (offers, accept ...). */
static int token_pit(const mc_game *g, const char *tok)
{
    for (int i = 0; i < mc_game_pits(g); i++)
        if (strcmp(mc_pit_name(g, i), tok) == 0)
            return i;
    return -1;
}

/* The legal move whose token is key's letter (exact case first). */
static int key_move(const mc_session *s, int key, mc_move *m)
{
    const mc_game *g = mc_session_game(s);
    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(s, mv);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            char tok[MC_MOVE_STRLEN];
            mc_move_format(g, mc_session_pos(s), mv[i], tok, sizeof tok);
            if (tok[1] != '\0')
                continue;
            if (pass == 0 ? tok[0] == key
                          : tolower((unsigned char)tok[0]) ==
                                tolower(key)) {
                *m = mv[i];
                return 1;
            }
        }
    return 0;
}

/* The pits of the legal sowing moves, in move order. */
static int pit_moves(const mc_session *s, int *pits, mc_move *moves)
{
    const mc_game *g = mc_session_game(s);
    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(s, mv), k = 0;
    for (int i = 0; i < n; i++) {
        char tok[MC_MOVE_STRLEN];
        mc_move_format(g, mc_session_pos(s), mv[i], tok, sizeof tok);
        int pit = token_pit(g, tok);
        if (pit >= 0) {
            pits[k] = pit;
            moves[k++] = mv[i];
        }
    }
    return k;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The player behind hints and evaluations: one thread and a node budget,
   so that the same position gets the same hint; kept while the game's
   rules stay the same. */
static mc_player *hint_player(const mc_game *g, int no_book)
{
    static char spec[MC_SPEC_STRLEN];
    if (ui.hint && strcmp(spec, mc_game_spec(g)) == 0)
        return ui.hint;
    mc_player_free(ui.hint);
    mc_player_opts o = {0};
    o.threads = 1;
    o.book = no_book ? "none" : NULL; /* the book's best move, if any */
    ui.hint = mc_player_new(g, &o, NULL);
    snprintf(spec, sizeof spec, "%s", mc_game_spec(g));
    return ui.hint;
}

static void search_say(mc_session *s, const tui_view *v, int eval)
{
    const mc_game *g = mc_session_game(s);
    mc_go go = {0};
    go.nodes = v->hint_nodes ? v->hint_nodes : 20000;
    mc_player *pl = hint_player(g, v->no_book);
    mc_search_info info;
    if (!pl || mc_player_sync(pl, s, NULL) != 0 ||
        mc_player_go(pl, &go, &info) != 0) {
        tui_say("The game is over: nothing to search.");
        return;
    }
    char tok[MC_MOVE_STRLEN];
    mc_move_format(g, mc_session_pos(s), info.best, tok, sizeof tok);
    if (!eval) {
        tui_say("Hint: the engine would play %s.", tok);
        return;
    }
    int margin = mc_egdb_score_margin(info.score);
    if (margin != 0)
        tui_say("Evaluation: %s %s by %d seeds with perfect play (the "
                "endgame tables; best %s).",
                side_name[mc_session_pos(s)->side],
                margin > 0 ? "wins" : "loses", margin > 0 ? margin : -margin,
                tok);
    else if (info.score >= MC_SCORE_PROVEN)
        tui_say("Evaluation: %s wins in %d plies (best %s, depth %d).",
                side_name[mc_session_pos(s)->side],
                MC_SCORE_WIN - info.score, tok, info.depth);
    else if (info.score <= -MC_SCORE_PROVEN)
        tui_say("Evaluation: %s loses in %d plies (best %s, depth %d).",
                side_name[mc_session_pos(s)->side],
                MC_SCORE_WIN + info.score, tok, info.depth);
    else
        tui_say("Evaluation: %+.2f seeds for %s (best %s, depth %d).",
                info.score / 100.0, side_name[mc_session_pos(s)->side], tok,
                info.depth);
}

/* Goré: pick pits for an offer; the library says what it would cost. */
static int offer_dialog(mc_session *s, tui_view *v, mc_move *m)
{
    const mc_game *g = mc_session_game(s);
    const mc_pos *p = mc_session_pos(s);
    mc_error err = {0, ""};
    mc_move dummy;
    if (mc_move_parse(g, p, "offer", &dummy, &err) == 0 ||
        err.code == MC_ERR_MOVE) {
        /* a game without offers answers with a plain move error */
    }
    uint32_t picked = 0;
    for (;;) {
        char tok[MC_MOVE_STRLEN] = "offer:";
        for (int i = 0; i < mc_game_pits(g); i++)
            if (picked >> i & 1)
                strncat(tok, mc_pit_name(g, i), sizeof tok - strlen(tok) - 1);
        char status[400];
        mc_error e2 = {0, ""};
        if (!picked)
            snprintf(status, sizeof status,
                     "Offer: pick your pits by letter, Enter to offer, "
                     "Esc/x to cancel.  %s", err.msg);
        else if (mc_move_parse(g, p, tok, &dummy, &e2) == 0)
            snprintf(status, sizeof status, "Offer %s: Enter to make it.",
                     tok);
        else
            snprintf(status, sizeof status, "Offer %s: %s", tok, e2.msg);
        marks mk = {NULL, 0, -1, -1, picked};
        draw_all(s, v, &mk, status);
        int k = getch();
        if (k == 27 || k == 'x')
            return 0;
        if (k == '\n' || k == '\r' || k == KEY_ENTER) {
            if (picked && e2.code == 0 &&
                mc_move_parse(g, p, tok, m, &e2) == 0)
                return 1;
            continue;
        }
        for (int i = 0; i < mc_game_pits(g); i++) {
            const char *nm = mc_pit_name(g, i);
            if (nm[1] == '\0' && (nm[0] == k ||
                                  (mc_pit_owner(g, p, i) == p->side &&
                                   tolower((unsigned char)nm[0]) ==
                                       tolower(k))))
                if (mc_pit_owner(g, p, i) == p->side) {
                    picked ^= 1u << i;
                    break;
                }
        }
    }
}

/* An offer waits for an answer: show it and ask. */
static int answer_dialog(mc_session *s, tui_view *v, mc_move *m)
{
    const mc_game *g = mc_session_game(s);
    const mc_pos *p = mc_session_pos(s);
    char status[700];
    char what[200] = "";
    /* what the offer is: the trace of the offering move says it */
    int n = mc_session_ply(s);
    if (n > 0) {
        mc_pos before = *mc_session_pos_at(s, n - 1);
        mc_trace_event ev[64];
        mc_trace t = {ev, 64, 0, 0};
        mc_play(g, &before, mc_session_move_at(s, n - 1), &t);
        for (size_t i = 0; i < t.len; i++)
            if (ev[i].kind == MC_TR_TRADE)
                mc_trace_describe(g, &ev[i], what, sizeof what);
    }
    uint32_t offered = p->offer;
    char names[64] = "", pay[200] = "";
    for (int i = 0; i < mc_game_pits(g); i++)
        if (offered >> i & 1)
            snprintf(names + strlen(names), sizeof names - strlen(names),
                     "%s%s", names[0] ? " " : "", mc_pit_name(g, i));
    /* the payment, in the library's words: accept on a copy */
    mc_move am;
    mc_error e0 = {0, ""};
    if (mc_move_parse(g, p, "accept", &am, &e0) == 0) {
        mc_pos copy = *p;
        mc_trace_event ev[64];
        mc_trace t = {ev, 64, 0, 0};
        mc_play(g, &copy, am, &t);
        for (size_t i = 0; i < t.len; i++)
            if (ev[i].kind == MC_TR_TRADE)
                mc_trace_describe(g, &ev[i], pay, sizeof pay);
    }
    for (;;) {
        snprintf(status, sizeof status,
                 "%s offers %s%s%s.  Accept it (y) or refuse it (n)?",
                 side_name[1 - p->side], names, what[0] ? ": " : "", what);
        if (pay[0])
            snprintf(status + strlen(status), sizeof status - strlen(status),
                     "\nIf you accept: %s.", pay);
        marks mk = {NULL, 0, -1, -1, offered};
        draw_all(s, v, &mk, status);
        int k = getch();
        const char *tok = k == 'y' || k == 'Y'   ? "accept"
                          : k == 'n' || k == 'N' ? "refuse"
                                                 : NULL;
        if (k == 'q')
            return TUI_QUIT;
        if (k == 'u' || k == '<')
            return TUI_UNDO;
        if (!tok)
            continue;
        mc_error err = {0, ""};
        if (mc_move_parse(g, p, tok, m, &err) == 0)
            return TUI_MOVE;
        tui_say("Not possible: %s.", err.msg);
    }
}

int tui_choose(mc_session *s, tui_view *v, mc_move *m, double *elapsed)
{
    const mc_game *g = mc_session_game(s);
    const mc_pos *p = mc_session_pos(s);
    int pits[MC_MAX_MOVES];
    mc_move pm[MC_MAX_MOVES];
    int np = pit_moves(s, pits, pm);
    if (ui.cursor >= np)
        ui.cursor = np ? np - 1 : -1;
    if (ui.cursor < 0 && np)
        ui.cursor = 0;
    if (p->offer) {
        int rc = answer_dialog(s, v, m);
        return rc;
    }
    double t0 = now_s() - *elapsed;
    timeout(100);
    int rc = -1;
    while (rc < 0) {
        double used = now_s() - t0;
        *elapsed = used;
        tui_view shown = *v;
        if (shown.clock[p->side] >= 0)
            shown.clock[p->side] -= used;
        double left_move = v->move_limit > 0 ? v->move_limit - used : 1e9;
        if ((v->clock[p->side] >= 0 && shown.clock[p->side] <= 0) ||
            left_move <= 0) {
            rc = TUI_TIMEOUT;
            break;
        }
        char status[160];
        if (v->move_limit > 0)
            snprintf(status, sizeof status, "%s to move (%.0f s left)",
                     side_name[p->side], left_move);
        else
            snprintf(status, sizeof status, "%s to move", side_name[p->side]);
        marks mk = {NULL, 0, -1, np ? pits[ui.cursor] : -1, 0};
        draw_all(s, &shown, &mk, status);
        int k = getch();
        if (k == ERR)
            continue;
        if (k == KEY_RESIZE)
            continue;
        if (k != 'q' && k != 'u' && k != 'r' && key_move(s, k, m)) {
            rc = TUI_MOVE;
            break;
        }
        switch (k) {
        case KEY_LEFT:
        case KEY_UP:
            if (np)
                ui.cursor = (ui.cursor + np - 1) % np;
            break;
        case KEY_RIGHT:
        case KEY_DOWN:
        case '\t':
            if (np)
                ui.cursor = (ui.cursor + 1) % np;
            break;
        case '\n':
        case '\r':
        case KEY_ENTER:
        case ' ':
            if (np) {
                *m = pm[ui.cursor];
                rc = TUI_MOVE;
            }
            break;
        case 'q':
        case 'Q':
            rc = TUI_QUIT;
            break;
        case 'u':
        case '<':
        case KEY_BACKSPACE:
            if (v->no_undo)
                tui_say("Undo is refused: this is a contract game (W16).");
            else
                rc = TUI_UNDO;
            break;
        case 'r':
        case '>':
            if (v->no_undo)
                tui_say("Redo is refused: this is a contract game (W16).");
            else
                rc = TUI_REDO;
            break;
        case '?':
        case 'h':
            search_say(s, v, 0);
            break;
        case '=':
        case 'e':
            search_say(s, v, 1);
            break;
        case '#':
        case 'l':
            ui.show_list = !ui.show_list;
            break;
        case '+':
            tui_set_speed(ui.speed + 1);
            tui_say("Animation speed %d (0 instant .. 4 slow).", ui.speed);
            break;
        case '-':
            tui_set_speed(ui.speed - 1);
            tui_say("Animation speed %d (0 instant .. 4 slow).", ui.speed);
            break;
        case '!':
            rc = TUI_RESIGN;
            break;
        case 'o':
        case 'O': {
            mc_error err = {0, ""};
            mc_move dummy;
            mc_move_parse(g, p, "offer", &dummy, &err);
            if (strstr(err.msg, "offer") == NULL) {
                tui_say("There are no offers in this game.");
                break;
            }
            timeout(-1);
            if (offer_dialog(s, v, m))
                rc = TUI_MOVE;
            timeout(100);
            break;
        }
        default: {
            if (isprint(k)) {
                char tok[2] = {(char)k, 0};
                mc_error err = {0, ""};
                if (mc_move_parse(g, p, tok, m, &err) != 0)
                    tui_say("Not possible: %s.", err.msg);
            }
        }
        }
    }
    *elapsed = now_s() - t0;
    timeout(-1);
    return rc;
}

/* ---- animation ---- */

void tui_animate(const mc_session *s, const tui_view *v, const mc_pos *before,
                 int side, const char *tok, const mc_trace *t)
{
    const mc_game *g = mc_session_game(s);
    char words[1200];
    size_t w = (size_t)snprintf(words, sizeof words, "%s plays %s",
                                side_name[side], tok);
    const char *sep = ": ";
    for (size_t i = 0; i < t->len && w < sizeof words; i++) {
        const mc_trace_event *e = &t->ev[i];
        if (e->kind == MC_TR_DROP)
            continue;
        char b[160];
        mc_trace_describe(g, e, b, sizeof b);
        w += (size_t)snprintf(words + w, sizeof words - w, "%s%s", sep, b);
        sep = "; ";
    }
    if (!ui.on)
        return;
    int ms = speed_ms[ui.speed];
    uint8_t seeds[MC_MAX_PITS];
    memcpy(seeds, before->pit, sizeof seeds);
    uint32_t captured = 0;
    int skip = ms == 0;
    timeout(0);
    for (size_t i = 0; i < t->len && !skip; i++) {
        const mc_trace_event *e = &t->ev[i];
        int active = -1;
        char status[200];
        snprintf(status, sizeof status, "%s plays %s  (space: skip)",
                 side_name[side], tok);
        switch (e->kind) {
        case MC_TR_LIFT:
            seeds[e->pit] = (uint8_t)(seeds[e->pit] >= e->n
                                          ? seeds[e->pit] - e->n
                                          : 0);
            active = e->pit;
            break;
        case MC_TR_DROP:
            seeds[e->pit] = (uint8_t)e->n;
            active = e->pit;
            break;
        case MC_TR_CAPTURE:
            captured |= 1u << e->pit;
            break;
        default:
            break;
        }
        if (e->kind != MC_TR_DROP && e->kind != MC_TR_LIFT) {
            char b[160];
            mc_trace_describe(g, e, b, sizeof b);
            snprintf(status, sizeof status, "%s plays %s: %s",
                     side_name[side], tok, b);
        }
        if (e->kind == MC_TR_CAPTURE) /* shown before it is taken */
            active = -1;
        marks mk = {seeds, captured, active, -1, 0};
        draw_all(s, v, &mk, status);
        int pause = e->kind == MC_TR_CAPTURE || e->kind == MC_TR_LAP ? 4 * ms
                                                                     : ms;
        napms(pause);
        int k = getch();
        if (k != ERR) { /* any key skips; other than space it counts too */
            skip = 1;
            if (k != ' ')
                ungetch(k);
        }
        if (e->kind == MC_TR_CAPTURE)
            seeds[e->pit] = 0;
    }
    timeout(-1);
    tui_say("%s.", words);
    marks mk = {NULL, captured, -1, -1, 0};
    draw_all(s, v, &mk, NULL);
}

int tui_wait_key(const mc_session *s, const tui_view *v, const char *prompt)
{
    draw_all(s, v, NULL, prompt);
    timeout(-1);
    return getch();
}

int tui_poll_key(void)
{
    if (!ui.on)
        return -1;
    timeout(0);
    int k = getch();
    timeout(-1);
    return k == ERR ? -1 : k;
}

int tui_ask_yes(const char *question)
{
    erase();
    mvprintw(2, 0, "%s", question);
    mvprintw(4, 0, "y: yes   n: no");
    refresh();
    timeout(-1);
    for (;;) {
        int k = getch();
        if (k == 'y' || k == 'Y')
            return 1;
        if (k == 'n' || k == 'N')
            return 0;
    }
}

/* ---- a custom set-up (Omweso setup=custom) ---- */

int tui_setup(const mc_game *g, mc_pos *p, int side, const tui_view *v)
{
    int pits[MC_MAX_PITS], n = 0;
    mc_layout l;
    mc_layout_get(g, &l);
    for (int r = 0; r < l.rows; r++) /* screen order: cursor moves as seen */
        for (int c = 0; c < l.cols; c++)
            if (l.pit[r][c] >= 0 && mc_pit_owner(g, p, l.pit[r][c]) == side)
                pits[n++] = l.pit[r][c];
    if (n == 0)
        return 0;
    mc_pos work = *p;
    int hand = 0, cur = 0;
    while (cur < n - 1 && work.pit[pits[cur]] == 0)
        cur++; /* start on the first pit with seeds */
    char status[400];
    snprintf(status, sizeof status, "%s", "");
    for (;;) {
        mc_session *s = mc_session_new(g, &work);
        if (!s)
            return -1;
        char b[MC_POS_STRLEN];
        mc_pos q;
        mc_error err = {0, ""};
        mc_pos_format(g, &work, b, sizeof b);
        int valid = hand == 0 && mc_pos_parse(g, b, &q, &err) == 0;
        snprintf(status, sizeof status,
                 "%s's set-up: arrows: pit, -: take a seed, +: put one, "
                 "Enter: start.  In hand %d.  %s",
                 side_name[side], hand,
                 hand ? "" : valid ? "Ready." : err.msg);
        marks mk = {NULL, 0, -1, pits[cur], 0};
        draw_all(s, v, &mk, status);
        mc_session_free(s);
        timeout(-1);
        int k = getch();
        switch (k) {
        case KEY_LEFT:
        case KEY_UP:
            cur = (cur + n - 1) % n;
            break;
        case KEY_RIGHT:
        case KEY_DOWN:
        case '\t':
            cur = (cur + 1) % n;
            break;
        case '+':
            if (hand > 0 && work.pit[pits[cur]] < 255) {
                work.pit[pits[cur]]++;
                hand--;
            }
            break;
        case '-':
            if (work.pit[pits[cur]] > 0) {
                work.pit[pits[cur]]--;
                hand++;
            }
            break;
        case '\n':
        case '\r':
        case KEY_ENTER:
            if (valid) {
                *p = q;
                return 0;
            }
            break;
        case 'q':
            return 1;
        default:
            break;
        }
    }
}
