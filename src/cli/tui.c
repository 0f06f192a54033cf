/*
 * tui.c - the full-screen board of `mancala play`, with ncurses.
 *
 * The board is drawn from mc_layout_get, mc_pit_name and mc_pit_owner;
 * moves are typed on the move line as their notation (any legal move: `C`,
 * `I-`, `i++-`, `K*`, `offer:AC`) or picked with the arrow keys and Enter
 * (a list when one pit starts several moves); commands sit behind keys
 * that no notation uses (`?` opens the list of them), so a pit's letter
 * is always a move.  A move's trace is replayed seed by seed and explained
 * with mc_trace_describe; the explanations and notes form a log that is
 * word-wrapped and scrolled to the size of the terminal, and loses the
 * moves that are undone.  No rule lives here: what is legal, which pit a
 * move starts from, what an offer costs and how a game ended all come from
 * the library.  This file must not print to stdout (the screen is
 * ncurses').
 */
#include <assert.h>
#include <ctype.h>
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "tui.h"
#include "mancala_egdb.h"

/* One line of the log: a move's explanation or a note, with the ply of the
   position it belongs to (undoing below that ply drops it; -1: kept). */
typedef struct log_entry {
    int ply;
    char *text;
} log_entry;

static struct {
    SCREEN *screen;
    int on;
    int speed;
    log_entry *log;
    size_t nlog, caplog;
    int scroll;     /* log lines scrolled back from the newest */
    int cur_ply;    /* the ply last drawn, -1: none yet this game */
    char note[200]; /* a passing note (the computer thinks), "" none */
    int show_list;  /* the move list is shown */
    int flip;       /* 1: North's side at the bottom */
    int flip_set;   /* the board was flipped by hand this run */
    int cursor;     /* pit under the cursor, -1: none yet */
    char line[MC_MOVE_STRLEN]; /* the move line */
    int best;                  /* pit of the engine's move to show, -1 none */
    int best_ply;              /* the ply that suggestion is for */
    int small;                 /* the terminal is too small for the board */
    mc_player *hint;           /* the player behind hints and evaluations */
} ui = {NULL, 0, 2, NULL, 0, 0, 0, -1, "", 0, 0, 0, -1, "", -1, -1, 0, NULL};

static const int speed_ms[5] = {0, 25, 70, 160, 350};

int tui_active(void)
{
    return ui.on;
}

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
    /* The screen's text is UTF-8 (French needs accents): the terminal's
       own locale when it is UTF-8, else C.UTF-8, which every glibc system
       has (no French locale needs to be generated). */
    const char *loc = setlocale(LC_CTYPE, "");
    if (!loc || strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
        setlocale(LC_CTYPE, "C.UTF-8");
    ui.screen = newterm(NULL, stdout, stdin);
    if (!ui.screen)
        return -1;
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    curs_set(0);
#ifdef NCURSES_VERSION
    set_escdelay(60); /* Esc alone, not the start of an arrow key */
#endif
    if (has_colors()) {
        start_color();
        use_default_colors();
        init_pair(1, COLOR_YELLOW, -1); /* side to move, cursor */
        init_pair(2, COLOR_RED, -1);    /* captures */
        init_pair(3, COLOR_CYAN, -1);   /* pits owned across the board */
        init_pair(4, COLOR_GREEN, -1);  /* the pit being sown, best move */
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    ui.on = 1;
    return 0;
}

static void log_clear(void)
{
    for (size_t i = 0; i < ui.nlog; i++)
        free(ui.log[i].text);
    free(ui.log);
    ui.log = NULL;
    ui.nlog = ui.caplog = 0;
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
    log_clear();
}

/* ---- the columns text takes ---- */

/* The program's words are UTF-8 (its catalogs are): a character is one
   column (the games' languages have no wide or combining ones), so the
   columns of len bytes of s are its code points. */
static int cols_of(const char *s, int len)
{
    int c = 0;
    for (int i = 0; i < len && s[i]; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* The bytes of the longest start of s (len bytes at most) that takes at
   most cols columns, never ending inside a character. */
static int bytes_for_cols(const char *s, int len, int cols)
{
    int i = 0, c = 0;
    while (i < len && s[i]) {
        if (c == cols)
            break;
        c++;
        i++;
        while (i < len && ((unsigned char)s[i] & 0xC0) == 0x80)
            i++;
    }
    return i;
}

/* s at (y, x), cut to cols columns. */
static void put_cols(int y, int x, const char *s, int cols)
{
    if (cols > 0)
        mvaddnstr(y, x, s, bytes_for_cols(s, (int)strlen(s), cols));
}

/* ---- text that grows as needed ---- */

typedef struct text {
    char *p;
    size_t len, cap;
} text;

static void text_vadd(text *t, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n < 0)
        return;
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 128;
        while (cap < t->len + (size_t)n + 1)
            cap *= 2;
        char *q = realloc(t->p, cap);
        if (!q)
            return;
        t->p = q;
        t->cap = cap;
    }
    vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap);
    t->len += (size_t)n;
}

static void text_add(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    text_vadd(t, fmt, ap);
    va_end(ap);
}

/* ---- the log ---- */

static void log_add(int ply, char *owned)
{
    if (!owned)
        return;
    if (ui.nlog == ui.caplog) {
        size_t cap = ui.caplog ? 2 * ui.caplog : 32;
        log_entry *q = realloc(ui.log, cap * sizeof *q);
        if (!q) {
            free(owned);
            return;
        }
        ui.log = q;
        ui.caplog = cap;
    }
    ui.log[ui.nlog].ply = ply;
    ui.log[ui.nlog++].text = owned;
    ui.scroll = 0; /* news: show the newest */
}

/* Drop what was said about positions after `ply` (they were undone). */
static void log_prune(int ply)
{
    size_t k = 0;
    for (size_t i = 0; i < ui.nlog; i++) {
        if (ui.log[i].ply > ply)
            free(ui.log[i].text);
        else
            ui.log[k++] = ui.log[i];
    }
    ui.nlog = k;
    ui.scroll = 0;
}

void tui_say(const char *fmt, ...)
{
    text t = {0};
    va_list ap;
    va_start(ap, fmt);
    text_vadd(&t, fmt, ap);
    va_end(ap);
    log_add(ui.cur_ply, t.p);
}

void tui_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ui.note, sizeof ui.note, fmt, ap);
    va_end(ap);
}

void tui_new_game(void)
{
    for (size_t i = 0; i < ui.nlog; i++)
        ui.log[i].ply = -1; /* the last game's news stays */
    ui.cur_ply = -1;
    ui.best = -1;
    ui.cursor = -1;
    ui.line[0] = '\0';
}

/* Word-wrap t to width w: the start and length of each line into st/ln
   (up to max of them); returns the number of lines. */
static int wrap(const char *t, int w, const char **st, int *ln, int max)
{
    int n = 0;
    if (w < 1)
        w = 1;
    while (*t) {
        const char *nl = strchr(t, '\n');
        int len = nl ? (int)(nl - t) : (int)strlen(t);
        int cut = len;
        if (cols_of(t, len) > w) {
            int fit = bytes_for_cols(t, len, w);
            cut = fit;
            while (cut > 0 && t[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = fit; /* a word longer than the line */
        }
        if (n < max) {
            st[n] = t;
            ln[n] = cut;
        }
        n++;
        t += cut;
        if (nl && t == nl)
            t++;
        else
            while (*t == ' ')
                t++;
    }
    return n;
}

/* Draw t wrapped to w columns from (y, x), at most maxl lines; returns the
   lines it needs (drawn or not). */
static int draw_wrapped(int y, int x, int w, int maxl, const char *t)
{
    enum { MAXL = 256 };
    const char *st[MAXL];
    int ln[MAXL];
    int n = wrap(t, w, st, ln, MAXL);
    for (int i = 0; i < n && i < maxl && i < MAXL; i++)
        mvaddnstr(y + i, x, st[i], ln[i]);
    return n;
}

/* ---- what a move did, in words ---- */

/* The explanation of move m from `before` in words (mc_move_explain), as
   long as it is: the whole trace (a long relay can need far more events
   than `given` holds) and a buffer of the length it needs. */
static char *explain(const mc_game *g, const mc_pos *before, mc_move m,
                     const mc_trace *given)
{
    mc_trace t = given ? *given : (mc_trace){NULL, 0, 0, 0};
    mc_trace_event *own = NULL;
    if (m != MC_MOVE_PASS && (!given || given->dropped)) {
        size_t cap = given ? given->len + given->dropped + 16 : 1024;
        for (;;) {
            own = malloc(cap * sizeof *own);
            if (!own)
                break;
            t = (mc_trace){own, cap, 0, 0};
            mc_pos copy = *before;
            mc_play(g, &copy, m, &t);
            if (!t.dropped)
                break;
            cap = t.len + t.dropped + 16;
            free(own);
            own = NULL;
        }
    }
    size_t n = mc_move_explain(g, before, m, &t, NULL, 0) + 1;
    char *buf = malloc(n);
    if (buf)
        mc_move_explain(g, before, m, &t, buf, n);
    free(own);
    return buf;
}

/* Keep the log in step with the session: undone moves leave it, redone
   ones come back in words. */
static void log_sync(const mc_session *s)
{
    int ply = mc_session_ply(s);
    if (ui.cur_ply >= 0 && ply < ui.cur_ply)
        log_prune(ply);
    if (ui.cur_ply >= 0 && ply > ui.cur_ply) {
        const mc_game *g = mc_session_game(s);
        for (int i = ui.cur_ply; i < ply; i++) {
            const mc_pos *b = mc_session_pos_at(s, i);
            mc_move m = mc_session_move_at(s, i);
            if (m == MC_MOVE_PASS)
                continue; /* said when it happened */
            log_add(i + 1, explain(g, b, m, NULL));
        }
    }
    if (ui.best_ply != ply)
        ui.best = -1;
    ui.cur_ply = ply;
}

/* ---- drawing ---- */

/* Extra marks on the board while animating or choosing. */
typedef struct marks {
    const uint8_t *seeds; /* counts to show (NULL: the position's) */
    uint32_t capture;     /* pits highlighted as captured (bits) */
    int active;           /* pit being sown, -1 none */
    int cursor;           /* pit under the cursor, -1 none */
    uint32_t picked;      /* pits picked for an offer */
    int best;             /* the engine's move starts here, -1 none */
} marks;

#define NO_MARKS                                                               \
    {                                                                          \
        NULL, 0, -1, -1, 0, -1                                                 \
    }

static void fmt_clock(char *b, size_t n, double s)
{
    if (s < 0) {
        snprintf(b, n, "--:--");
        return;
    }
    int t = (int)(s + 0.999);
    snprintf(b, n, "%d:%02d", t / 60, t % 60);
}

/* The screen's geometry for a game. */
typedef struct geom {
    int top;    /* first line of the board */
    int width;  /* columns the board needs */
    int height; /* lines the whole screen needs at least */
} geom;

static geom geometry(const mc_game *g, int score)
{
    mc_layout l;
    mc_layout_get(g, &l);
    geom r;
    r.top = score ? 4 : 3;
    r.width = 8 + 6 * l.cols;
    if (l.stores)
        r.width = 10 + 6 * l.cols +
                  cols_of(l.store_name, (int)strlen(l.store_name)) + 4;
    if (r.width < 44)
        r.width = 44;
    /* board, a note line, the status, a blank, 3 lines of log, the move
       line and the keys */
    r.height = r.top + 2 * l.rows + 1 + 1 + 1 + 1 + 3 + 2;
    return r;
}

static int too_small(const mc_game *g, int score)
{
    geom gm = geometry(g, score);
    ui.small = COLS < gm.width || LINES < gm.height;
    if (!ui.small)
        return 0;
    erase();
    char b[200];
    snprintf(b, sizeof b,
             _("Terminal too small: this board needs %dx%d, the terminal is "
               "%dx%d.  Make it larger (q quits, the game stays saved)."),
             gm.width, gm.height, COLS, LINES);
    draw_wrapped(0, 0, COLS > 1 ? COLS - 1 : 1, LINES, b);
    refresh();
    return 1;
}

/* The move list in rows, numbered as records number it (docs/RECORDS.md):
   a full move is South's then North's, "1. C e"; a game North starts reads
   "1... c"; one side's answer and sowing share a number.  A row wider than
   w goes on in an indented row.  Where the move of ply `mark` is (the one
   that led to the position shown; -1: none) is kept, to mark it. */
typedef struct list_rows {
    text t;       /* the rows one after the other */
    int *start;   /* row r is t.p[start[r] .. start[r + 1]) (t.len last) */
    int n, cap;   /* rows */
    int mark_row; /* the marked move's row, -1: none */
    int mark_col; /* its column in the row and its length */
    int mark_len;
} list_rows;

static void list_build(const mc_session *s, int w, int mark, list_rows *lr)
{
    const mc_game *g = mc_session_game(s);
    int plies = mc_session_ply(s), num = 1, col = 0;
    *lr = (list_rows){{NULL, 0, 0}, NULL, 0, 0, -1, 0, 0};
    for (int i = 0; i < plies; i++) {
        const mc_pos *b = mc_session_pos_at(s, i);
        mc_move m = mc_session_move_at(s, i);
        char tok[MC_MOVE_STRLEN], label[32] = "";
        if (m == MC_MOVE_PASS)
            snprintf(tok, sizeof tok, "%s", MC_PASS_TOKEN);
        else
            mc_move_format(g, b, m, tok, sizeof tok);
        int prev = i > 0 ? mc_session_pos_at(s, i - 1)->side : -1;
        if (i == 0)
            snprintf(label, sizeof label, b->side == MC_SOUTH ? "%d." : "%d...",
                     num);
        else if (b->side == MC_SOUTH && prev == MC_NORTH)
            snprintf(label, sizeof label, "%d.", ++num);
        int len = (int)strlen(tok);
        if (label[0] || lr->n == 0 || col + 1 + len > w) {
            if (lr->n == lr->cap) {
                int cap = lr->cap ? 2 * lr->cap : 64;
                int *q = realloc(lr->start, (size_t)cap * sizeof *q);
                if (!q)
                    break;
                lr->start = q;
                lr->cap = cap;
            }
            lr->start[lr->n++] = (int)lr->t.len;
            text_add(&lr->t, "%s", label[0] ? label : "  ");
            col = label[0] ? (int)strlen(label) : 2;
        }
        text_add(&lr->t, " %s", tok);
        if (i == mark) {
            lr->mark_row = lr->n - 1;
            lr->mark_col = col + 1;
            lr->mark_len = len;
        }
        col += 1 + len;
    }
    if (!lr->t.p) /* out of memory: no rows */
        lr->n = 0;
}

/* Draw the move list in h rows of w columns from (top, x) under the title
   "Moves": the move that led to the position shown (ply `shown`) gets a
   '>' before its row and reverse video, and the rows scroll so that it
   stays in sight, as near the middle as the list allows, going forward
   or back (the start: the first rows; the newest move: the last ones). */
static void draw_list(const mc_session *s, int shown, int top, int x, int h,
                      int w)
{
    list_rows lr;
    list_build(s, w - 2, shown - 1, &lr);
    put_cols(top, x, _("Moves"), w);
    if (lr.n == 0)
        put_cols(top + 1, x + 2, _("(no moves yet)"), w - 2);
    int focus = lr.mark_row >= 0 ? lr.mark_row : shown > 0 ? lr.n - 1 : 0;
    int first = focus - h / 2;
    if (first > lr.n - h)
        first = lr.n - h;
    if (first < 0)
        first = 0;
    for (int r = first; r < lr.n && r < first + h; r++) {
        int y = top + 1 + r - first;
        const char *row = lr.t.p + lr.start[r];
        int end = r + 1 < lr.n ? lr.start[r + 1] : (int)lr.t.len;
        int len = end - lr.start[r] < w - 2 ? end - lr.start[r] : w - 2;
        if (len > 0)
            mvaddnstr(y, x + 2, row, len);
        if (r != lr.mark_row)
            continue;
        attron(A_BOLD);
        mvaddch(y, x, '>');
        int ml = lr.mark_len;
        if (lr.mark_col + ml > w - 2)
            ml = w - 2 - lr.mark_col;
        attron(A_REVERSE);
        if (ml > 0)
            mvaddnstr(y, x + 2 + lr.mark_col, row + lr.mark_col, ml);
        attroff(A_REVERSE | A_BOLD);
    }
    free(lr.t.p);
    free(lr.start);
}

/* The lines above the board: the program, the game and its mode, the
   players, the match's score. */
static void draw_header(const mc_game *g, const tui_view *v)
{
    attron(A_BOLD);
    mvprintw(0, 0, "mancala %s: %s", mc_version(), mc_game_spec(g));
    attroff(A_BOLD);
    printw("   [%s]", v->mode ? v->mode : "classic");
    mvprintw(1, 0, _("South: %s   North: %s"), v->player[0], v->player[1]);
    if (v->score[0])
        mvprintw(2, 0, _("Match: %s"), v->score);
}

/* The marks the board showed, which the legend then explains. */
typedef struct seen_marks {
    int foreign; /* a pit owned across the board */
    int best;    /* the engine's move */
    int last;    /* the pit the last move was sown from */
} seen_marks;

/* One pit (its name above or below, its seeds with their marks) at column
   x of the board; `home` is the side whose row it is in, `last` the pit
   the last move was sown from (-1: none). */
static void draw_pit(const mc_game *g, const mc_pos *p, const marks *mk,
                     int pit, int home, int last, int x, int pit_y, int name_y,
                     seen_marks *seen)
{
    assert(pit >= 0 && pit < MC_MAX_PITS); /* the marks' bits */
    mvprintw(name_y, x + 1, "%2s", mc_pit_name(g, pit));
    int n = mk && mk->seeds ? mk->seeds[pit] : p->pit[pit];
    int other = mc_pit_owner(g, p, pit) != home;
    int best = mk && mk->best == pit;
    seen->foreign |= other;
    seen->best |= best;
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
        a = COLOR_PAIR(1) | A_BOLD | A_UNDERLINE;
    else if (best)
        a = COLOR_PAIR(4) | A_BOLD;
    if (pit == last) /* seen without colours too, with the '*' */
        a |= A_UNDERLINE;
    attron(a);
    mvprintw(pit_y, x, "%c%2d%c",
             best    ? '('
             : other ? '<'
                     : '[',
             n,
             best    ? ')'
             : other ? '>'
                     : ']');
    attroff(a);
    if (pit == last) {
        attron(A_BOLD);
        mvaddch(pit_y, x + 4, '*');
        attroff(A_BOLD);
        seen->last = 1;
    }
}

/* The board's rows from line y, North's side on top unless flipped, the
   name of the side to move (`mover`, -1: none) highlighted; returns the
   line below the board. */
static int draw_board(const mc_game *g, const mc_pos *p, int mover, int last,
                      const marks *mk, const mc_layout *l, int y,
                      seen_marks *seen)
{
    for (int sr = 0; sr < l->rows; sr++) {
        int r = ui.flip ? l->rows - 1 - sr : sr;
        int home = r < l->rows / 2 ? MC_NORTH : MC_SOUTH;
        int upper = sr < l->rows / 2;
        if (sr == l->rows / 2)
            y++; /* a gap between the two sides */
        int pit_y = upper ? y + 1 : y;
        int name_y = upper ? y : y + 1;
        if (sr == 0 || sr == l->rows - 1) {
            if (mover == home)
                attron(COLOR_PAIR(1) | A_BOLD);
            mvprintw(pit_y, 0, "%s", cli_side(home));
            attroff(COLOR_PAIR(1) | A_BOLD);
        }
        for (int sc = 0; sc < l->cols; sc++) {
            int c = ui.flip ? l->cols - 1 - sc : sc;
            int pit = l->pit[r][c];
            if (pit >= 0)
                draw_pit(g, p, mk, pit, home, last, 8 + 6 * sc, pit_y, name_y,
                         seen);
        }
        if (l->stores && (sr == 0 || sr == l->rows - 1))
            mvprintw(pit_y, 10 + 6 * l->cols, "%s %d", l->store_name,
                     p->cap[home]);
        y += 2;
    }
    return y;
}

/* What the marks seen mean (Goré's trades move pits across the board), on
   line y in Wt columns, in short words when the long ones do not fit. */
static void draw_legend(int y, int Wt, const seen_marks *seen)
{
    static const char *const legend_words[3][2] = {
        {N_("<n>: a pit owned by the player across the board"),
         N_("<n>: owned across")},
        {N_("(n): the engine's move"), N_("(n): engine's move")},
        {N_("[n]*: the last move was sown from this pit (underlined)"),
         N_("[n]*: last move")}};
    int legend_on[3] = {seen->foreign, seen->best, seen->last};
    char legend[200] = "";
    for (int form = 0; form < 2; form++) {
        legend[0] = '\0';
        for (int i = 0; i < 3; i++)
            if (legend_on[i])
                snprintf(legend + strlen(legend),
                         sizeof legend - strlen(legend), "%s%s",
                         legend[0] ? "   " : "", _(legend_words[i][form]));
        if (cols_of(legend, (int)strlen(legend)) <= Wt)
            break;
    }
    if (legend[0])
        put_cols(y, 0, legend, Wt);
}

/* The clocks on line y, when the game has them; returns the next line. */
static int draw_clocks(int y, const tui_view *v)
{
    char c0[16], c1[16];
    fmt_clock(c0, sizeof c0, v->clock[0]);
    fmt_clock(c1, sizeof c1, v->clock[1]);
    if (v->clock[0] >= 0 || v->move_limit > 0) {
        mvprintw(y, 0, _("Clock  South %s  North %s"), c0, c1);
        if (v->move_limit > 0)
            printw(_("   (%.0f s a move)"), v->move_limit);
        y++;
    }
    return y;
}

/* The status st (NULL: none) wrapped in bold from line y in Wt columns,
   leaving 2 lines of log at least; returns the line below it. */
static int draw_status(int y, int Wt, const char *st)
{
    if (!st)
        return y;
    int room = LINES - 3 - 2 - y; /* keep 2 lines of log at least */
    if (room < 1)
        room = 1;
    attron(A_BOLD);
    int need = draw_wrapped(y, 0, Wt, room, st);
    y += need < room ? need : room;
    attroff(A_BOLD);
    return y;
}

/* The log in h lines from line top, Wt columns: lines from the newest
   entry back, ui.scroll lines skipped, and a hint above when there is
   more. */
static void draw_log(int top, int h, int Wt)
{
    enum { MAXL = 256 };
    const char *lst[MAXL];
    int lln[MAXL];
    int total = 0;
    for (size_t i = 0; i < ui.nlog; i++)
        total += wrap(ui.log[i].text, Wt, lst, lln, 0);
    if (ui.scroll > total - h)
        ui.scroll = total - h > 0 ? total - h : 0;
    int need = h + ui.scroll, got = 0;
    size_t first = ui.nlog;
    while (first > 0 && got < need) {
        first--;
        got += wrap(ui.log[first].text, Wt, lst, lln, 0);
    }
    /* the window of lines [got - need, got - ui.scroll) of the entries
       from `first` on */
    int skip = got - h - ui.scroll, row = 0, seen = 0;
    for (size_t i = first; i < ui.nlog && row < h; i++) {
        int n = wrap(ui.log[i].text, Wt, lst, lln, MAXL);
        for (int k = 0; k < n && k < MAXL && row < h; k++, seen++)
            if (seen >= skip)
                mvaddnstr(top + row++, 0, lst[k], lln[k]);
    }
    if (ui.scroll > 0 || skip > 0 || first > 0) {
        const char *more = ui.scroll > 0 ? _("PgUp/PgDn: scroll (newer below)")
                                         : _("PgUp: earlier");
        int mc = cols_of(more, (int)strlen(more));
        put_cols(top - 1, Wt - mc > 0 ? Wt - mc : 0, more, Wt);
    }
}

/* The move line (input, NULL: none) and the keys, in W columns: the
   longest list of keys that fits. */
static void draw_foot(const char *input, int W)
{
    if (input) {
        move(LINES - 2, 0);
        clrtoeol();
        put_cols(LINES - 2, 0, input, W);
    }
    /* TRANSLATORS: the keys line, from the longest to the shortest; the
       first that fits the terminal's width is shown */
    static const char *const foot[] = {
        N_("Type a move or pick a pit with the arrows; Enter plays.   "
           "?: commands   <: undo   >: redo   PgUp: log   q: quit"),
        N_("Enter: play   arrows: pick   ?: commands   <: undo   >: redo   "
           "q: quit"),
        N_("Enter play  arrows pick  ? commands  < undo  > redo  q quit"),
        N_("? commands  < undo  > redo  q quit")};
    int f = 0;
    while (f < 3 && cols_of(_(foot[f]), (int)strlen(_(foot[f]))) > W)
        f++;
    put_cols(LINES - 1, 0, _(foot[f]), W);
}

/* Draw the position after the first `at` moves of session s (at < 0: the
   current one; review shows the others, with the move list); `status` is
   wrapped above the log, `input` is the move line (NULL: none).  The pit
   the move that led there was sown from is marked (the library's
   mc_move_pit), and that move in the move list, on every drawing. */
static void draw_pos(const mc_session *s, int at, const tui_view *v,
                     const marks *mk, const char *status, const char *input)
{
    const mc_game *g = mc_session_game(s);
    int live = at < 0;
    int shown = live ? mc_session_ply(s) : at;
    assert(shown >= 0 && shown <= mc_session_ply(s));
    const mc_pos *p = live ? mc_session_pos(s) : mc_session_pos_at(s, at);
    int last = shown > 0 ? mc_move_pit(g, mc_session_pos_at(s, shown - 1),
                                       mc_session_move_at(s, shown - 1))
                         : -1;
    log_sync(s);
    if (too_small(g, v->score[0] != 0))
        return;
    mc_layout l;
    mc_layout_get(g, &l);
    geom gm = geometry(g, v->score[0] != 0);
    int W = COLS - 1;
    /* the move list beside the board when there is room (the words below
       the board then keep to its left), else in place of the log */
    int list_x = 12 + 6 * l.cols + 14;
    int list_on = ui.show_list || !live;
    int beside = list_on && COLS - list_x >= 16;
    int Wt = beside ? list_x - 2 : W;
    erase();
    draw_header(g, v);
    seen_marks seen = {0, 0, 0};
    int mover = live && mc_session_over(s) ? -1 : p->side;
    int y = draw_board(g, p, mover, last, mk, &l, gm.top, &seen);
    draw_legend(y, Wt, &seen);
    y++;
    y = draw_clocks(y, v);
    y = draw_status(y, Wt, status ? status : ui.note[0] ? ui.note : NULL);
    y++;
    /* the log (or the move list when there is no room beside the board) */
    int log_top = y, log_h = LINES - 2 - y;
    if (list_on) {
        if (beside)
            draw_list(s, shown, gm.top, list_x, LINES - 2 - gm.top - 1,
                      COLS - 1 - list_x);
        else {
            draw_list(s, shown, log_top, 0, log_h - 1, W);
            log_h = 0;
        }
    }
    if (log_h > 0 && ui.nlog)
        draw_log(log_top, log_h, Wt);
    draw_foot(input, W);
    refresh();
}

static void draw_all(const mc_session *s, const tui_view *v, const marks *mk,
                     const char *status)
{
    draw_pos(s, -1, v, mk, status, NULL);
}

void tui_draw(const mc_session *s, const tui_view *v)
{
    if (ui.on)
        draw_all(s, v, NULL, NULL);
}

/* ---- a person's turn ---- */

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

/* Search the session's position: a hint or an evaluation in words into
   out; *pit gets the pit the best move starts from (-1: none). */
static void search_text(const mc_session *s, const tui_view *v, int eval,
                        char *out, size_t n, int *pit)
{
    const mc_game *g = mc_session_game(s);
    const mc_pos *p = mc_session_pos(s);
    *pit = -1;
    mc_go go = {0};
    go.nodes = v->hint_nodes ? v->hint_nodes : 20000;
    mc_player *pl = hint_player(g, v->no_book);
    mc_search_info info;
    if (!pl || mc_session_over(s) || mc_player_sync(pl, s, NULL) != 0 ||
        mc_player_go(pl, &go, &info) != 0) {
        snprintf(out, n, _("The game is over: nothing to search."));
        return;
    }
    char tok[MC_MOVE_STRLEN];
    mc_move_format(g, p, info.best, tok, sizeof tok);
    *pit = mc_move_pit(g, p, info.best);
    const char *who = cli_side(p->side);
    if (info.solved) {
        char words[96];
        mc_solved_describe(g, p, info.value, info.plies, words, sizeof words);
        if (eval)
            snprintf(out, n, _("Evaluation: %s (the solved tables; best %s)."),
                     words, tok);
        else
            snprintf(out, n, _("Hint: the engine would play %s: %s."), tok,
                     words);
        return;
    }
    if (!eval) {
        snprintf(out, n, _("Hint: the engine would play %s."), tok);
        return;
    }
    int margin = mc_egdb_score_margin(info.score);
    if (margin > 0)
        snprintf(out, n,
                 P_("Evaluation: %s wins by %d seed with perfect play (the "
                    "endgame tables; best %s).",
                    "Evaluation: %s wins by %d seeds with perfect play (the "
                    "endgame tables; best %s).",
                    margin),
                 who, margin, tok);
    else if (margin < 0)
        snprintf(out, n,
                 P_("Evaluation: %s loses by %d seed with perfect play (the "
                    "endgame tables; best %s).",
                    "Evaluation: %s loses by %d seeds with perfect play (the "
                    "endgame tables; best %s).",
                    -margin),
                 who, -margin, tok);
    else if (info.score >= MC_SCORE_PROVEN)
        snprintf(out, n,
                 P_("Evaluation: %s wins in %d ply (best %s, depth %d).",
                    "Evaluation: %s wins in %d plies (best %s, depth %d).",
                    MC_SCORE_WIN - info.score),
                 who, MC_SCORE_WIN - info.score, tok, info.depth);
    else if (info.score <= -MC_SCORE_PROVEN)
        snprintf(out, n,
                 P_("Evaluation: %s loses in %d ply (best %s, depth %d).",
                    "Evaluation: %s loses in %d plies (best %s, depth %d).",
                    MC_SCORE_WIN + info.score),
                 who, MC_SCORE_WIN + info.score, tok, info.depth);
    else {
        /* in the game's unit: seeds, or a chance to win (the library's) */
        char words[160];
        mc_score_describe(g, p->side, info.score, words, sizeof words);
        snprintf(out, n, _("Evaluation: %s (best %s, depth %d)."), words, tok,
                 info.depth);
    }
}

static void search_say(const mc_session *s, const tui_view *v, int eval)
{
    char b[300];
    int pit;
    search_text(s, v, eval, b, sizeof b, &pit);
    tui_say("%s", b);
    ui.best = pit;
    ui.best_ply = mc_session_ply(s);
}

/* The legal moves and their tokens. */
typedef struct legal {
    int n;
    mc_move mv[MC_MAX_MOVES];
    char tok[MC_MAX_MOVES][MC_MOVE_STRLEN];
} legal;

static void legal_get(const mc_session *s, legal *L)
{
    const mc_game *g = mc_session_game(s);
    L->n = mc_session_moves(s, L->mv);
    for (int i = 0; i < L->n; i++)
        mc_move_format(g, mc_session_pos(s), L->mv[i], L->tok[i],
                       sizeof L->tok[i]);
}

static int prefix_ci(const char *pre, const char *s)
{
    for (; *pre; pre++, s++)
        if (tolower((unsigned char)*pre) != tolower((unsigned char)*s))
            return 0;
    return 1;
}

/* The legal moves whose token starts with `typed`: exact case first, else
   either case (South typing c in Oware means C).  Their indices go to
   idx; *whole gets the one equal to `typed` (-1 none). */
static int matching(const legal *L, const char *typed, int *idx, int *whole)
{
    int k = 0;
    *whole = -1;
    for (int pass = 0; pass < 2 && k == 0; pass++)
        for (int i = 0; i < L->n; i++) {
            int ok = pass == 0 ? strncmp(L->tok[i], typed, strlen(typed)) == 0
                               : prefix_ci(typed, L->tok[i]);
            if (!ok)
                continue;
            idx[k++] = i;
            if (strlen(L->tok[i]) == strlen(typed))
                *whole = i;
        }
    return k;
}

/* The pits the cursor may stop on (bits). */
static uint32_t move_pits(const mc_session *s, const legal *L)
{
    uint32_t mask = 0;
    for (int i = 0; i < L->n; i++) {
        int pit = mc_move_pit(mc_session_game(s), mc_session_pos(s), L->mv[i]);
        if (pit >= 0)
            mask |= 1u << pit;
    }
    return mask;
}

/* Move the cursor over the pits in mask as seen on the screen: Left and
   Right in reading order (wrapping), Up and Down to the nearest pit of
   the nearest row above or below. */
static int cursor_step(const mc_game *g, uint32_t mask, int cur, int key)
{
    mc_layout l;
    mc_layout_get(g, &l);
    int order[MC_MAX_PITS], row[MC_MAX_PITS], col[MC_MAX_PITS], n = 0;
    for (int sr = 0; sr < l.rows; sr++)
        for (int sc = 0; sc < l.cols; sc++) {
            int r = ui.flip ? l.rows - 1 - sr : sr;
            int c = ui.flip ? l.cols - 1 - sc : sc;
            int pit = l.pit[r][c];
            if (pit >= 0 && (mask >> pit & 1)) {
                order[n] = pit;
                row[n] = sr;
                col[n++] = sc;
            }
        }
    if (n == 0)
        return -1;
    int at = -1;
    for (int i = 0; i < n; i++)
        if (order[i] == cur)
            at = i;
    if (at < 0)
        return order[0];
    if (key == KEY_RIGHT || key == '\t')
        return order[(at + 1) % n];
    if (key == KEY_LEFT || key == KEY_BTAB)
        return order[(at + n - 1) % n];
    int dir = key == KEY_UP ? -1 : 1, best = -1, bd = 0, bc = 0;
    for (int i = 0; i < n; i++) {
        int d = (row[i] - row[at]) * dir;
        if (d <= 0)
            continue;
        int dc = abs(col[i] - col[at]);
        if (best < 0 || d < bd || (d == bd && dc < bc)) {
            best = i;
            bd = d;
            bc = dc;
        }
    }
    return best < 0 ? cur : order[best];
}

/* A first place for the cursor: the mover's own row nearest the bottom. */
static int cursor_home(const mc_game *g, const mc_pos *p, uint32_t mask)
{
    mc_layout l;
    mc_layout_get(g, &l);
    int bottom_first = (p->side == MC_SOUTH) != ui.flip;
    for (int k = 0; k < l.rows; k++) {
        int sr = bottom_first ? l.rows - 1 - k : k;
        int r = ui.flip ? l.rows - 1 - sr : sr;
        for (int sc = 0; sc < l.cols; sc++) {
            int c = ui.flip ? l.cols - 1 - sc : sc;
            int pit = l.pit[r][c];
            if (pit >= 0 && (mask >> pit & 1))
                return pit;
        }
    }
    return -1;
}

/* Whether key k answers yes: 'y', or the yes key of the player's language
   (French 'o', for "oui"). */
static int yes_key(int k)
{
    /* TRANSLATORS: the key that answers yes to a question, one letter; the
       questions that name it ("y: yes", "Accept it (y)") must name the
       same letter.  'y' always works too. */
    const char *y = C_("key", "y");
    return k == 'y' || k == 'Y' ||
           (y[0] && !y[1] &&
            (k == (unsigned char)y[0] || k == toupper((unsigned char)y[0])));
}

/* Show a question in the status and wait for y (1) or anything else. */
static int confirm(const mc_session *s, const tui_view *v, const char *q)
{
    char b[300];
    snprintf(b, sizeof b, _("%s  y: yes   any other key: no"), q);
    timeout(-1);
    for (;;) {
        draw_pos(s, -1, v, NULL, b, NULL);
        int k = getch();
        if (k == KEY_RESIZE)
            continue;
        return yes_key(k);
    }
}

/* One pit starts several moves (Omweso's marks and three-seed sowing):
   pick one from a list.  1 with *m, 0 when cancelled. */
static int pick_dialog(const mc_session *s, const tui_view *v, const legal *L,
                       const int *idx, int n, int pit, mc_move *m)
{
    const mc_game *g = mc_session_game(s);
    int sel = 0;
    timeout(-1);
    for (;;) {
        text t = {0};
        text_add(&t,
                 _("%s starts %d moves; pick one (arrows, Enter; Esc: "
                   "back):\n"),
                 mc_pit_name(g, pit), n);
        for (int i = 0; i < n; i++)
            text_add(&t, "%s%s%s", i == sel ? " [" : "  ", L->tok[idx[i]],
                     i == sel ? "]" : " ");
        marks mk = NO_MARKS;
        mk.cursor = pit;
        draw_pos(s, -1, v, &mk, t.p, NULL);
        free(t.p);
        int k = getch();
        if (k == KEY_LEFT || k == KEY_UP)
            sel = (sel + n - 1) % n;
        else if (k == KEY_RIGHT || k == KEY_DOWN || k == '\t')
            sel = (sel + 1) % n;
        else if (k == '\n' || k == '\r' || k == KEY_ENTER) {
            *m = L->mv[idx[sel]];
            return 1;
        } else if (k == 27 || k == 'q')
            return 0;
    }
}

/* Whether an offer is among the legal moves (Goré G6). */
static int offer_possible(const mc_session *s, const legal *L)
{
    for (int i = 0; i < L->n; i++) {
        mc_move_facts f;
        if (mc_move_facts_get(mc_session_game(s), mc_session_pos(s), L->mv[i],
                              &f) == 0 &&
            f.kind == MC_MOVE_IS_OFFER)
            return 1;
    }
    return 0;
}

static void pit_list(const mc_game *g, uint32_t pits, char *b, size_t n)
{
    b[0] = '\0';
    int count = 0, total = 0;
    for (int i = 0; i < mc_game_pits(g); i++)
        total += pits >> i & 1;
    for (int i = 0; i < mc_game_pits(g); i++)
        if (pits >> i & 1) {
            count++;
            snprintf(b + strlen(b), n - strlen(b), "%s%s",
                     count == 1 ? ""
                     /* TRANSLATORS: between the last two pits of a
                        list ("A, B and C") */
                     : count == total ? _(" and ")
                                      : ", ",
                     mc_pit_name(g, i));
        }
}

/* Goré: pick pits for an offer among those the mover owns (in either
   row), by cursor and Space or by typing their letters; the price comes
   from the library (mc_move_facts_get). */
static int offer_dialog(const mc_session *s, const tui_view *v, const legal *L,
                        mc_move *m)
{
    const mc_game *g = mc_session_game(s);
    const mc_pos *p = mc_session_pos(s);
    uint32_t own = 0, picked = 0;
    for (int i = 0; i < mc_game_pits(g); i++)
        if (mc_pit_owner(g, p, i) == p->side)
            own |= 1u << i;
    int cur = cursor_home(g, p, own);
    timeout(-1);
    for (;;) {
        /* the legal offer of exactly the picked pits, if any */
        int found = -1;
        mc_move_facts f = {0};
        for (int i = 0; i < L->n && picked; i++) {
            mc_move_facts fi;
            if (mc_move_facts_get(g, p, L->mv[i], &fi) == 0 &&
                fi.kind == MC_MOVE_IS_OFFER && fi.pits == picked) {
                found = i;
                f = fi;
            }
        }
        text t = {0};
        text_add(&t, _("Offer pits: arrows and Space pick (or type a pit's "
                       "letter), Enter offers, Esc cancels.\n"));
        char names[96];
        pit_list(g, picked, names, sizeof names);
        if (!picked)
            text_add(&t, _("No pit picked yet."));
        else if (found >= 0)
            text_add(&t,
                     P_("Offer %s: if %s accepts, %s pays %d captured "
                        "stone.  Enter makes the offer.",
                        "Offer %s: if %s accepts, %s pays %d captured "
                        "stones.  Enter makes the offer.",
                        f.price),
                     names, cli_side(1 - p->side), cli_side(1 - p->side),
                     f.price);
        else {
            char tok[MC_MOVE_STRLEN] = "offer:";
            for (int i = 0; i < mc_game_pits(g); i++)
                if (picked >> i & 1)
                    strncat(tok, mc_pit_name(g, i),
                            sizeof tok - strlen(tok) - 1);
            mc_error e = {0, ""};
            mc_move dummy;
            mc_move_parse(g, p, tok, &dummy, &e);
            text_add(&t, _("%s cannot be offered: %s."), names, e.msg);
        }
        marks mk = NO_MARKS;
        mk.cursor = cur;
        mk.picked = picked;
        draw_pos(s, -1, v, &mk, t.p, NULL);
        free(t.p);
        int k = getch();
        if (k == 27 || k == 'q') {
            return 0;
        } else if (k == '\n' || k == '\r' || k == KEY_ENTER) {
            if (found >= 0) {
                *m = L->mv[found];
                return 1;
            }
        } else if (k == ' ') {
            if (cur >= 0)
                picked ^= 1u << cur;
        } else if (k == KEY_LEFT || k == KEY_RIGHT || k == KEY_UP ||
                   k == KEY_DOWN || k == '\t') {
            cur = cursor_step(g, own, cur, k);
        } else if (k > 0 && k < 256 && isprint(k)) {
            /* a pit's letter, exactly as it is written */
            for (int i = 0; i < mc_game_pits(g); i++) {
                const char *nm = mc_pit_name(g, i);
                if (nm[0] == k && nm[1] == '\0' && (own >> i & 1)) {
                    picked ^= 1u << i;
                    cur = i;
                }
            }
        }
    }
}

/* An offer waits for an answer: show it with its price and ask. */
static int answer_dialog(mc_session *s, tui_view *v, mc_move *m)
{
    const mc_game *g = mc_session_game(s);
    const mc_pos *p = mc_session_pos(s);
    legal *L = malloc(sizeof *L);
    if (!L)
        return TUI_QUIT;
    legal_get(s, L);
    int acc = -1, ref = -1;
    mc_move_facts fa = {0};
    for (int i = 0; i < L->n; i++) {
        mc_move_facts f;
        if (mc_move_facts_get(g, p, L->mv[i], &f) != 0)
            continue;
        if (f.kind == MC_MOVE_IS_ACCEPT) {
            acc = i;
            fa = f;
        } else if (f.kind == MC_MOVE_IS_REFUSE)
            ref = i;
    }
    char names[96];
    pit_list(g, p->offer, names, sizeof names);
    char pay[300] = "";
    if (acc >= 0) { /* the library's words for accepting */
        mc_pos copy = *p;
        mc_trace_event ev[64];
        mc_trace t = {ev, 64, 0, 0};
        mc_play(g, &copy, L->mv[acc], &t);
        for (size_t i = 0; i < t.len; i++)
            if (ev[i].kind == MC_TR_TRADE)
                mc_trace_describe(g, &ev[i], pay, sizeof pay);
    }
    int rc = -1;
    timeout(-1);
    while (rc < 0) {
        text t = {0};
        text_add(&t, _("%s offers %s.  Accept it (y) or refuse it (n)?"),
                 cli_side(1 - p->side), names);
        if (acc >= 0)
            text_add(&t,
                     P_("\nAccepting costs %s %d captured stone: %s.",
                        "\nAccepting costs %s %d captured stones: %s.",
                        fa.price),
                     cli_side(p->side), fa.price, pay);
        marks mk = NO_MARKS;
        mk.picked = p->offer;
        draw_pos(s, -1, v, &mk, t.p, NULL);
        free(t.p);
        int k = getch();
        if (ui.small && k != 'q' && k != 'Q')
            continue; /* nothing to see: only q works */
        if (yes_key(k)) {
            if (acc >= 0) {
                *m = L->mv[acc];
                rc = TUI_MOVE;
            }
        } else if (k == 'n' || k == 'N') {
            if (ref >= 0) {
                *m = L->mv[ref];
                rc = TUI_MOVE;
            }
        } else if (k == 'q' || k == 'Q') {
            rc = TUI_QUIT;
        } else if (k == '<') {
            if (v->no_undo)
                tui_say(_("Undo is refused: this is a contract game (W16)."));
            else
                rc = TUI_UNDO;
        } else if (k == KEY_PPAGE) {
            ui.scroll += 3;
        } else if (k == KEY_NPAGE) {
            ui.scroll = ui.scroll > 3 ? ui.scroll - 3 : 0;
        }
    }
    free(L);
    return rc;
}

/* The list of commands ('?', ':', Esc or F1): a key runs one.  Returns the
   key of the command chosen, or 0. */
static int command_menu(const mc_session *s, const tui_view *v, int offers)
{
    static const char *const items[][2] = {
        {"h F2", N_("a hint: the engine's move, marked on the board")},
        {"e F3 =", N_("the engine's evaluation of the position")},
        {"u <", N_("undo (with one person against the computer: a move and "
                   "its reply)")},
        {"r >", N_("redo")},
        {"l F4 #", N_("the move list, numbered as records number it")},
        {"v F5", N_("review: step through the game's moves; the engine "
                    "evaluates any position and marks its move")},
        {"f F6", N_("flip the board (North's side at the bottom, or back)")},
        {"+ -", N_("animation speed (0 instant .. 4 slow)")},
        {"PgUp PgDn", N_("scroll the log")},
        {"!", N_("resign (asks first)")},
        {"q", N_("quit (the game stays saved)")},
        {"o", N_("make an offer of pits (Gore G6)")},
    };
    (void)s;
    (void)v;
    timeout(-1);
    for (;;) {
        erase();
        int W = COLS - 1;
        attron(A_BOLD);
        put_cols(0, 0, _("Commands: press a key (any other key: back)"), W);
        attroff(A_BOLD);
        int y = 2;
        y += draw_wrapped(y, 0, W, LINES - 1 - y,
                          _("Moves: type a move's notation and Enter (a pit's "
                            "letter is always a move), or pick a pit with the "
                            "arrows and Enter."));
        y++;
        int n = (int)(sizeof items / sizeof items[0]) - (offers ? 0 : 1);
        for (int i = 0; i < n && y < LINES - 1; i++) {
            mvaddnstr(y, 0, items[i][0], 10);
            y += draw_wrapped(y, 11, W - 11, LINES - 1 - y, _(items[i][1]));
        }
        /* the marks, after the commands (a small terminal cuts it first) */
        if (y + 1 < LINES - 1)
            draw_wrapped(y + 1, 0, W, LINES - 2 - y,
                         _("Marks: [n]* (underlined): the pit the last move "
                           "was sown from; in the move list (and review's), "
                           "> and reverse video: the move that led to the "
                           "position shown."));
        refresh();
        int k = getch();
        if (k == KEY_RESIZE)
            continue;
        switch (k) {
        case 'h':
        case KEY_F(2):
            return 'h';
        case 'e':
        case '=':
        case KEY_F(3):
            return 'e';
        case 'u':
        case '<':
            return 'u';
        case 'r':
        case '>':
            return 'r';
        case 'l':
        case '#':
        case KEY_F(4):
            return 'l';
        case 'v':
        case KEY_F(5):
            return 'v';
        case 'f':
        case KEY_F(6):
            return 'f';
        case '+':
            return '+';
        case '-':
            return '-';
        case '!':
            return '!';
        case 'q':
        case 'Q':
            return 'q';
        case 'o':
            return offers ? 'o' : 0;
        case KEY_PPAGE:
            return KEY_PPAGE;
        case KEY_NPAGE:
            return KEY_NPAGE;
        default:
            return 0;
        }
    }
}

/* A session replayed to the n-th position of s (history included, for
   the evaluation of a position under review); NULL if out of memory. */
static mc_session *replay_to(const mc_session *s, int n)
{
    mc_session *t = mc_session_new(mc_session_game(s), mc_session_pos_at(s, 0));
    for (int i = 0; t && i < n; i++)
        if (mc_session_play(t, mc_session_move_at(s, i), NULL, NULL) != 0)
            break;
    return t;
}

/* The whole-game analysis' progress, on the status line. */
static void review_progress(int done, int total, void *ctx)
{
    (void)ctx;
    mvprintw(LINES - 1, 0, _("Analysing the game: position %d of %d ..."), done,
             total);
    clrtoeol();
    refresh();
}

/* Review: step through the game's positions; the engine evaluates the one
   shown on request and its move is marked on the board; `a` analyses the
   whole game (mc_review_game) and each move then tells its verdict. */
static void review(const mc_session *s, const tui_view *v)
{
    const mc_game *g = mc_session_game(s);
    int n = mc_session_ply(s), at = n, best = -1, best_at = -1;
    char said[300] = "";
    mc_review *rv = NULL; /* the analysis, once asked for */
    timeout(-1);
    for (;;) {
        text t = {0};
        if (at == 0)
            text_add(&t,
                     _("Review: position %d of %d (the start).  Left/Right: "
                       "step, Home/End, =: evaluate, a: analyse the game, "
                       "Esc: back to the game.\n"),
                     at, n);
        else
            text_add(&t,
                     _("Review: position %d of %d (after the move below).  "
                       "Left/Right: step, Home/End, =: evaluate, a: analyse "
                       "the game, Esc: back to the game.\n"),
                     at, n);
        if (at > 0) {
            const mc_pos *b = mc_session_pos_at(s, at - 1);
            mc_move m = mc_session_move_at(s, at - 1);
            char *w = explain(g, b, m, NULL);
            text_add(&t, "%s", w ? w : "");
            free(w);
            if (rv) {
                const mc_review *r = &rv[at - 1];
                char words[160], bt[MC_MOVE_STRLEN];
                mc_score_describe(g, r->side, r->score, words, sizeof words);
                mc_move_format(g, b, r->best, bt, sizeof bt);
                int before = (int)(r->before * 100 + 0.5);
                int after = (int)(r->after * 100 + 0.5);
                if (r->verdict)
                    text_add(&t,
                             /* TRANSLATORS: %3$s's chance to win before and
                                after the move, then the verdict on it
                                (inaccuracy, mistake, blunder) and the
                                better move */
                             _("\nAnalysis: before it %s; %s's chance %d %% "
                               "-> %d %%: a %s, better %s."),
                             words, cli_side(r->side), before, after,
                             cli_verdict(r->verdict), bt);
                else
                    text_add(&t,
                             _("\nAnalysis: before it %s; %s's chance %d %% "
                               "-> %d %%."),
                             words, cli_side(r->side), before, after);
            }
        }
        if (said[0] && best_at == at)
            text_add(&t, "\n%s", said);
        marks mk = NO_MARKS;
        mk.best = best_at == at ? best : -1;
        draw_pos(s, at, v, &mk, t.p, NULL);
        free(t.p);
        int k = getch();
        if (k == KEY_LEFT || k == '<')
            at = at > 0 ? at - 1 : 0;
        else if (k == KEY_RIGHT || k == '>')
            at = at < n ? at + 1 : n;
        else if (k == KEY_HOME)
            at = 0;
        else if (k == KEY_END)
            at = n;
        else if (k == '=' || k == 'e' || k == KEY_F(3)) {
            mc_session *r = replay_to(s, at);
            if (r) {
                search_text(r, v, 1, said, sizeof said, &best);
                best_at = at;
                mc_session_free(r);
            }
        } else if (k == 'a' && !rv && n > 0) {
            mc_player *pl = hint_player(g, 1);
            mc_go go = {0};
            go.nodes = v->hint_nodes ? v->hint_nodes : 20000;
            rv = pl ? calloc((size_t)n, sizeof *rv) : NULL;
            if (rv &&
                mc_review_game(pl, s, &go, rv, review_progress, NULL) != 0) {
                free(rv);
                rv = NULL;
            }
        } else if (k == KEY_PPAGE) {
            ui.scroll += 3;
        } else if (k == KEY_NPAGE) {
            ui.scroll = ui.scroll > 3 ? ui.scroll - 3 : 0;
        } else if (k == 27 || k == 'q' || k == 'v' || k == KEY_F(5)) {
            free(rv);
            return;
        }
    }
}

/* A word typed on the move line that is a command (as in the line mode). */
static int command_word(const char *w)
{
    static const struct {
        const char *word;
        int cmd;
    } words[] = {{"undo", 'u'},   {"redo", 'r'}, {"quit", 'q'},
                 {"resign", '!'}, {"hint", 'h'}, {"eval", 'e'},
                 {"moves", 'l'},  {"list", 'l'}, {"review", 'v'},
                 {"flip", 'f'},   {"help", '?'}, {"offer", 'o'}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(w, words[i].word) == 0)
            return words[i].cmd;
    return 0;
}

/* The pit a one-letter name stands for, or -1. */
static int pit_named(const mc_game *g, char c)
{
    for (int i = 0; i < mc_game_pits(g); i++) {
        const char *nm = mc_pit_name(g, i);
        if (nm[0] == c && nm[1] == '\0')
            return i;
    }
    return -1;
}

/* Enter on the move line: 1 with *m when it names a legal move; else the
   reason, in the library's words, goes to the log.  A letter in the other
   case that names one of the mover's pits is explained as that pit (South
   typing b at Sadeqa's start learns that F must be played). */
static int submit(const mc_session *s, const legal *L, const char *typed,
                  mc_move *m)
{
    const mc_game *g = mc_session_game(s);
    const mc_pos *p = mc_session_pos(s);
    mc_error e = {0, ""};
    if (mc_move_parse(g, p, typed, m, &e) == 0)
        return 1;
    int idx[MC_MAX_MOVES], whole;
    matching(L, typed, idx, &whole);
    if (whole >= 0) {
        *m = L->mv[whole];
        return 1;
    }
    char other[MC_MOVE_STRLEN];
    snprintf(other, sizeof other, "%s", typed);
    for (char *c = other; *c; c++)
        *c = (char)(islower((unsigned char)*c) ? toupper((unsigned char)*c)
                                               : tolower((unsigned char)*c));
    mc_error e2 = {0, ""};
    if (mc_move_parse(g, p, other, m, &e2) == 0)
        return 1;
    int mine = pit_named(g, typed[0]), swapped = pit_named(g, other[0]);
    if (swapped >= 0 && mc_pit_owner(g, p, swapped) == p->side &&
        (mine < 0 || mc_pit_owner(g, p, mine) != p->side))
        tui_say(_("Not possible: %s."), e2.msg);
    else
        tui_say(_("Not possible: %s."), e.msg);
    return 0;
}

/* A person's turn at the board: the legal moves, and what the move line
   matched of them when it was last drawn. */
typedef struct turn {
    mc_session *s;
    tui_view *v;
    const mc_game *g;
    const mc_pos *p;
    legal *L;
    uint32_t mask;                    /* the pits the cursor may stop on */
    int offers;                       /* an offer is among the moves */
    int idx[MC_MAX_MOVES], nm, whole; /* matching(ui.line), nm 0: none */
} turn;

/* The status line of the turn: who moves (the seconds left for the move),
   that offers are possible, and the moves when none is a sowing. */
static void turn_status(const turn *t, double left_move, char *status, size_t n)
{
    const legal *L = t->L;
    int side = t->p->side;
    assert(side == MC_SOUTH || side == MC_NORTH);
    if (t->v->move_limit > 0)
        snprintf(status, n, _("%s to move (%.0f s left)"), cli_side(side),
                 left_move);
    else
        snprintf(status, n, _("%s to move"), cli_side(side));
    if (t->offers)
        snprintf(status + strlen(status), n - strlen(status),
                 _("   (offer pits: type offer and Enter, or ? o)"));
    if (t->mask || !L->n || t->offers)
        return;
    /* no sowing: say what there is */
    snprintf(status + strlen(status), n - strlen(status), _("   Moves:"));
    for (int i = 0; i < L->n && i < 8; i++)
        snprintf(status + strlen(status), n - strlen(status), " %s", L->tok[i]);
    if (L->n == 1) {
        mc_move_facts f;
        if (mc_move_facts_get(t->g, t->p, L->mv[0], &f) == 0 && f.why[0])
            snprintf(status + strlen(status), n - strlen(status), " (%s)",
                     f.why);
        snprintf(status + strlen(status), n - strlen(status),
                 _("; Enter plays it"));
    }
}

/* Draw the board with the move line: what Enter would do at the cursor,
   or the moves that match what is typed (kept in t for the next key). */
static void turn_draw(turn *t, const tui_view *shown, const char *status)
{
    const legal *L = t->L;
    text in = {0};
    text_add(&in, _("Move: %s_"), ui.line);
    t->nm = 0;
    t->whole = -1;
    if (!ui.line[0] && ui.cursor >= 0) { /* what Enter would do */
        int at = -1, count = 0;
        for (int i = 0; i < L->n; i++)
            if (mc_move_pit(t->g, t->p, L->mv[i]) == ui.cursor) {
                at = at < 0 ? i : at;
                count++;
            }
        if (count == 1)
            text_add(&in, _("   (Enter plays %s)"), L->tok[at]);
        else if (count > 1)
            text_add(&in, _("   (Enter: the %d moves from %s)"), count,
                     mc_pit_name(t->g, ui.cursor));
    } else if (ui.line[0]) {
        t->nm = matching(L, ui.line, t->idx, &t->whole);
        if (t->nm == 0)
            text_add(&in, _("   (no legal move starts so: Enter explains)"));
        else {
            text_add(&in, "   (");
            for (int i = 0; i < t->nm && i < 12; i++)
                text_add(&in, "%s%s", i ? " " : "", L->tok[t->idx[i]]);
            text_add(&in, "%s)", t->nm > 12 ? " ..." : "");
        }
    }
    assert(t->nm <= L->n && t->whole < L->n);
    marks mk = NO_MARKS;
    mk.cursor = ui.cursor;
    mk.best = ui.best;
    draw_pos(t->s, -1, shown, &mk, status, in.p);
    free(in.p);
}

/* Enter on an empty move line with the cursor on a pit: its move, or a
   list to pick from when it starts several.  TUI_MOVE with *m, or -1. */
static int enter_at_cursor(const turn *t, mc_move *m)
{
    const legal *L = t->L;
    int at[MC_MAX_MOVES], n = 0, rc = -1;
    for (int i = 0; i < L->n; i++)
        if (mc_move_pit(t->g, t->p, L->mv[i]) == ui.cursor)
            at[n++] = i;
    if (n == 1) {
        *m = L->mv[at[0]];
        rc = TUI_MOVE;
    } else if (n > 1) {
        timeout(-1);
        if (pick_dialog(t->s, t->v, L, at, n, ui.cursor, m))
            rc = TUI_MOVE;
        timeout(100);
    }
    return rc;
}

/* Enter: what is typed is a command word, the start of an offer (the
   dialog picks the pits) or a move (else the reason is told); with
   nothing typed, the only move or the cursor's.  Returns the command (0:
   none); *rc gets TUI_MOVE with a move in *m. */
static int turn_enter(turn *t, mc_move *m, int *rc)
{
    const legal *L = t->L;
    if (!ui.line[0]) {
        if (ui.cursor < 0 && L->n == 1) {
            *m = L->mv[0]; /* the only move (a pass) */
            *rc = TUI_MOVE;
        } else if (ui.cursor >= 0) {
            *rc = enter_at_cursor(t, m);
        }
        return 0;
    }
    int cmd = 0, w = command_word(ui.line), offer_only = t->nm > 0;
    mc_error quiet = {0, ""};
    for (int i = 0; i < t->nm; i++) {
        mc_move_facts f;
        offer_only &=
            mc_move_facts_get(t->g, t->p, L->mv[t->idx[i]], &f) == 0 &&
            f.kind == MC_MOVE_IS_OFFER;
    }
    if (w && !(t->nm && t->whole >= 0)) {
        cmd = w;
    } else if (offer_only && t->whole < 0 &&
               mc_move_parse(t->g, t->p, ui.line, m, &quiet) != 0) {
        cmd = 'o'; /* "o", "offer": pick the pits */
    } else if (submit(t->s, L, ui.line, m)) {
        *rc = TUI_MOVE;
    }
    ui.line[0] = '\0';
    return cmd;
}

/* A letter typed on the move line: played at once when only one move can
   be meant (*rc TUI_MOVE), else the cursor goes to the first match. */
static void turn_type(turn *t, int k, mc_move *m, int *rc)
{
    size_t len = strlen(ui.line);
    ui.line[len] = (char)k;
    ui.line[len + 1] = '\0';
    t->nm = matching(t->L, ui.line, t->idx, &t->whole);
    if (t->nm == 1 && t->whole >= 0) { /* only one move can be meant */
        *m = t->L->mv[t->whole];
        ui.line[0] = '\0';
        *rc = TUI_MOVE;
    } else if (t->nm > 0) {
        int pit = mc_move_pit(t->g, t->p, t->L->mv[t->idx[0]]);
        if (pit >= 0)
            ui.cursor = pit;
    }
}

/* The keys that are commands without the menu (no move's notation uses
   them); 0 for the others. */
static int key_command(int k)
{
    static const struct {
        int key, cmd;
    } keys[] = {{KEY_F(2), 'h'}, {'=', 'e'},
                {KEY_F(3), 'e'}, {'#', 'l'},
                {KEY_F(4), 'l'}, {KEY_F(5), 'v'},
                {KEY_F(6), 'f'}, {'<', 'u'},
                {'>', 'r'},      {'!', '!'},
                {'q', 'q'},      {'Q', 'q'}}; /* no move of any game has a q */
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (keys[i].key == k)
            return keys[i].cmd;
    return 0;
}

/* One key of the turn: editing the move line, moving the cursor,
   scrolling, a move (*rc TUI_MOVE, *m) or a command, returned (0:
   none). */
static int turn_key(turn *t, int k, mc_move *m, int *rc)
{
    size_t len = strlen(ui.line);
    int cmd = 0;
    if (k == 27) {
        if (len)
            ui.line[0] = '\0';
        else
            cmd = command_menu(t->s, t->v, t->offers);
    } else if (k == KEY_BACKSPACE || k == 127 || k == 8) {
        if (len)
            ui.line[len - 1] = '\0';
    } else if (k == '\n' || k == '\r' || k == KEY_ENTER) {
        cmd = turn_enter(t, m, rc);
    } else if (k == KEY_LEFT || k == KEY_RIGHT || k == KEY_UP ||
               k == KEY_DOWN || k == '\t' || k == KEY_BTAB) {
        ui.line[0] = '\0';
        ui.cursor = cursor_step(t->g, t->mask, ui.cursor, k);
    } else if (k == KEY_PPAGE) {
        ui.scroll += 3;
    } else if (k == KEY_NPAGE) {
        ui.scroll = ui.scroll > 3 ? ui.scroll - 3 : 0;
    } else if (k == '?' || k == KEY_F(1) || (k == ':' && !len)) {
        cmd = command_menu(t->s, t->v, t->offers);
    } else if (key_command(k)) {
        cmd = key_command(k);
    } else if (k > 0 && k < 256 && isprint(k) && k != ' ' &&
               len + 1 < sizeof ui.line) {
        turn_type(t, k, m, rc);
    }
    return cmd;
}

/* Run command cmd ('?': the menu first); *rc gets what ends the turn. */
static void turn_command(turn *t, int cmd, mc_move *m, int *rc)
{
    if (cmd == '?')
        cmd = command_menu(t->s, t->v, t->offers);
    switch (cmd) {
    case 'q':
        *rc = TUI_QUIT;
        break;
    case 'u':
    case 'r':
        if (t->v->no_undo)
            tui_say("%s",
                    cmd == 'u'
                        ? _("Undo is refused: this is a contract game (W16).")
                        : _("Redo is refused: this is a contract game (W16)."));
        else
            *rc = cmd == 'u' ? TUI_UNDO : TUI_REDO;
        break;
    case 'h':
    case 'e':
        search_say(t->s, t->v, cmd == 'e');
        break;
    case 'l':
        ui.show_list = !ui.show_list;
        break;
    case 'v':
        timeout(-1);
        review(t->s, t->v);
        timeout(100);
        break;
    case 'f':
        ui.flip = !ui.flip;
        ui.flip_set = 1;
        break;
    case '+':
    case '-':
        tui_set_speed(ui.speed + (cmd == '+' ? 1 : -1));
        tui_say(_("Animation speed %d (0 instant .. 4 slow)."), ui.speed);
        break;
    case KEY_PPAGE:
        ui.scroll += 3;
        break;
    case KEY_NPAGE:
        ui.scroll = ui.scroll > 3 ? ui.scroll - 3 : 0;
        break;
    case '!':
        timeout(-1);
        if (confirm(t->s, t->v, _("Resign this game?")))
            *rc = TUI_RESIGN;
        timeout(100);
        break;
    case 'o':
        timeout(-1);
        if (!t->offers)
            tui_say(_("No offer is possible now."));
        else if (offer_dialog(t->s, t->v, t->L, m))
            *rc = TUI_MOVE;
        timeout(100);
        break;
    default: /* 0: none */
        break;
    }
}

int tui_choose(mc_session *s, tui_view *v, mc_move *m, double *elapsed)
{
    const mc_game *g = mc_session_game(s);
    const mc_pos *p = mc_session_pos(s);
    if (p->offer)
        return answer_dialog(s, v, m);
    legal *L = malloc(sizeof *L);
    if (!L)
        return TUI_QUIT;
    legal_get(s, L);
    turn t = {.s = s, .v = v, .g = g, .p = p, .L = L};
    t.mask = move_pits(s, L);
    if (ui.cursor < 0 || !(t.mask >> ui.cursor & 1))
        ui.cursor = cursor_home(g, p, t.mask);
    t.offers = offer_possible(s, L);
    double t0 = now_s() - *elapsed;
    timeout(100);
    int rc = -1;
    while (rc < 0) {
        /* the cursor stays on the pits of the moves */
        assert(ui.cursor < 0 || (t.mask >> ui.cursor & 1));
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
        char status[200];
        turn_status(&t, left_move, status, sizeof status);
        turn_draw(&t, &shown, status);
        int k = getch();
        if (k == ERR || k == KEY_RESIZE)
            continue;
        if (ui.small && k != 'q' && k != 'Q')
            continue; /* nothing to see: only q works */
        ui.note[0] = '\0';
        int cmd = turn_key(&t, k, m, &rc);
        turn_command(&t, cmd, m, &rc);
    }
    *elapsed = now_s() - t0;
    timeout(-1);
    free(L);
    return rc;
}

/* ---- animation ---- */

void tui_animate(const mc_session *s, const tui_view *v, const mc_pos *before,
                 int side, const char *tok, const mc_trace *t)
{
    const mc_game *g = mc_session_game(s);
    int n = mc_session_ply(s);
    mc_move m = n > 0 ? mc_session_move_at(s, n - 1) : MC_MOVE_PASS;
    char *words = explain(g, before, m, t);
    ui.note[0] = '\0';
    if (!ui.on) {
        free(words);
        return;
    }
    /* the log is in step up to the move before this one */
    if (ui.cur_ply >= 0 && ui.cur_ply < n)
        ui.cur_ply = n;
    int ms = speed_ms[ui.speed];
    uint8_t seeds[MC_MAX_PITS];
    memcpy(seeds, before->pit, sizeof seeds);
    uint32_t captured = 0;
    int skip = ms == 0;
    timeout(0);
    for (size_t i = 0; i < t->len && !skip; i++) {
        const mc_trace_event *e = &t->ev[i];
        int active = -1;
        char status[300];
        snprintf(status, sizeof status, _("%s plays %s  (space: skip)"),
                 cli_side(side), tok);
        switch (e->kind) {
        case MC_TR_LIFT:
            seeds[e->pit] =
                (uint8_t)(seeds[e->pit] >= e->n ? seeds[e->pit] - e->n : 0);
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
            char b[256];
            mc_trace_describe(g, e, b, sizeof b);
            snprintf(status, sizeof status, _("%s plays %s: %s"),
                     cli_side(side), tok, b);
        }
        if (e->kind == MC_TR_CAPTURE) /* shown before it is taken */
            active = -1;
        marks mk = NO_MARKS;
        mk.seeds = seeds;
        mk.capture = captured;
        mk.active = active;
        draw_all(s, v, &mk, status);
        int pause =
            e->kind == MC_TR_CAPTURE || e->kind == MC_TR_LAP ? 4 * ms : ms;
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
    log_add(n, words);
    ui.cur_ply = n;
    marks mk = NO_MARKS;
    mk.capture = captured;
    draw_all(s, v, &mk, NULL);
}

int tui_wait_key(const mc_session *s, const tui_view *v, const char *prompt)
{
    timeout(-1);
    for (;;) {
        draw_all(s, v, NULL, prompt);
        int k = getch();
        if (k == KEY_PPAGE)
            ui.scroll += 3;
        else if (k == KEY_NPAGE)
            ui.scroll = ui.scroll > 3 ? ui.scroll - 3 : 0;
        else if (k != KEY_RESIZE)
            return k;
    }
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
    timeout(-1);
    for (;;) {
        erase();
        int n =
            draw_wrapped(2, 0, COLS > 1 ? COLS - 1 : 1, LINES - 4, question);
        mvprintw(n + 3 < LINES ? n + 3 : LINES - 1, 0, _("y: yes   n: no"));
        refresh();
        int k = getch();
        if (yes_key(k))
            return 1;
        if (k == 'n' || k == 'N')
            return 0;
    }
}

void tui_set_flip(int flip)
{
    if (!ui.flip_set)
        ui.flip = flip != 0;
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
                 _("%s's set-up: arrows: pit, -: take a seed, +: put one, "
                   "Enter: start.  In hand %d.  %s"),
                 cli_side(side), hand,
                 hand    ? ""
                 : valid ? _("Ready.")
                         : err.msg);
        marks mk = NO_MARKS;
        mk.cursor = pits[cur];
        int keep = ui.cur_ply;
        ui.cur_ply = -1; /* a scratch session: not the game's log */
        draw_all(s, v, &mk, status);
        ui.cur_ply = keep;
        mc_session_free(s);
        timeout(-1);
        int k = getch();
        switch (k) {
        case KEY_LEFT:
        case KEY_UP:
        case KEY_RIGHT:
        case KEY_DOWN:
        case '\t': { /* as on the board: Up and Down change rows */
            uint32_t mask = 0;
            for (int i = 0; i < n; i++)
                mask |= 1u << pits[i];
            int to = cursor_step(g, mask, pits[cur], k);
            for (int i = 0; i < n; i++)
                if (pits[i] == to)
                    cur = i;
            break;
        }
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
