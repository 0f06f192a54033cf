/*
 * play.c - `mancala play`: a game in the terminal, line by line.  Either side
 * may be a person or a program (a player is a function that picks a move);
 * matches (Oware O10) are played game after game with the score between.
 */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "mancala_egdb.h"
#include "mancala_record.h"
#include "tui.h"
#include "../core/util.h"

/* The endgame databases of --egdb (Oware), or NULL; the directory named. */
static mc_egdb *play_db;
static const char *play_egdb_dir;
/* The opening book: --no-book, --book-variety, and whether --seed was
   given. */
static struct {
    int off, variety, seeded;
} play_book = {0, 20, 0};

/* ---- board drawing (from the game's layout; knows no rule) ---- */

static void letters_line(FILE *f, const mc_game *g, const mc_layout *l, int r)
{
    fprintf(f, "         ");
    for (int c = 0; c < l->cols; c++) {
        int pit = l->pit[r][c];
        fprintf(f, " %3s ", pit >= 0 ? mc_pit_name(g, pit) : "");
    }
    fprintf(f, "\n");
}

void cli_draw_board(FILE *f, const mc_game *g, const mc_pos *p)
{
    mc_layout l;
    mc_layout_get(g, &l);
    int foreign = 0;
    fprintf(f, "\n");
    for (int r = 0; r < l.rows; r++) {
        int home = r < l.rows / 2 ? MC_NORTH : MC_SOUTH;
        if (home == MC_NORTH)
            letters_line(f, g, &l, r);
        fputs("  ", f);
        cli_pad(
            f,
            (r == 0 || r == l.rows - 1 || (r == l.rows / 2 - 1 && l.rows > 2))
                ? cli_side(home)
                : "",
            6);
        fputc(' ', f);
        for (int c = 0; c < l.cols; c++) {
            int pit = l.pit[r][c];
            if (pit < 0) {
                fprintf(f, "     ");
                continue;
            }
            int other = mc_pit_owner(g, p, pit) != home;
            foreign |= other;
            fprintf(f, " %c%2d%c", other ? '<' : '[', p->pit[pit],
                    other ? '>' : ']');
        }
        if (l.stores && (r == 0 || r == l.rows - 1))
            fprintf(f, "   %s %d", l.store_name, p->cap[home]);
        if (p->side == home && (r == 0 || r == l.rows - 1))
            fprintf(f, _("   <- to move"));
        fprintf(f, "\n");
        if (home == MC_SOUTH)
            letters_line(f, g, &l, r);
    }
    if (foreign)
        fprintf(f,
                _("  <n> marks a pit owned by the player across the board\n"));
    fprintf(f, "\n");
}

/* ---- the full screen (tui.c) or the line mode ---- */

static struct {
    int on;           /* the full screen is in use */
    tui_view view;    /* what it shows besides the board */
    double game_time; /* seconds a player has for the game, 0: none */
    double increment; /* seconds added to a game's clock after a move */
    int on_flag;      /* MC_FLAG_LOSS, or MC_FLAG_PASS (Omweso blitz) */
    char control[64]; /* the time control's text for the record, or "" */
} screen;

/* A line of news: printed in line mode, shown on the full screen. */
static void say(const char *fmt, ...)
{
    char b[1024]; /* translations run longer than English */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    if (screen.on)
        tui_say("%s", b);
    else
        printf("%s\n", b);
}

/* ---- players ---- */

typedef struct player player;
/* Returns 0 with a move, 1 to quit, 2 after undo (re-read the position). */
typedef int (*choose_fn)(player *pl, mc_session *s, mc_move *m);

struct player {
    const char *kind; /* "human", "random", "computer" */
    choose_fn choose;
    mc_rng rng;
    int side;
    int level;       /* computer: 1..10 */
    double seconds;  /* computer: time a move */
    uint64_t nodes;  /* computer: node budget a move (0: none) */
    int *undo_plies; /* plies to undo for a person's take-back */
    mc_player *ai;   /* computer: made at its first move, kept */
};

static void show_moves(const mc_session *s)
{
    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(s, mv);
    printf(_("Legal moves:"));
    for (int i = 0; i < n; i++) {
        char b[MC_MOVE_STRLEN];
        mc_move_format(mc_session_game(s), mc_session_pos(s), mv[i], b,
                       sizeof b);
        printf(" %s", b);
    }
    printf("\n");
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' ||
                 s[n - 1] == '\t'))
        s[--n] = '\0';
    size_t k = strspn(s, " \t");
    memmove(s, s + k, strlen(s + k) + 1);
}

/* A person's turn on the full screen: 3 means the clock ran out. */
static int choose_screen(player *pl, mc_session *s, mc_move *m)
{
    double elapsed = 0;
    for (;;) {
        int rc = tui_choose(s, &screen.view, m, &elapsed);
        if (screen.view.clock[pl->side] >= 0)
            screen.view.clock[pl->side] -= elapsed;
        switch (rc) {
        case TUI_MOVE:
            return 0;
        case TUI_QUIT:
            return 1;
        case TUI_TIMEOUT:
            return 3;
        case TUI_RESIGN:
            mc_session_forfeit(s, pl->side, MC_END_RESIGN);
            return 2;
        default: {
            int undo = rc == TUI_UNDO, k = 0;
            int plies = pl->undo_plies ? *pl->undo_plies : 1;
            for (int i = 0; i < plies; i++)
                k += (undo ? mc_session_undo(s) : mc_session_redo(s)) == 0;
            if (k)
                return 2;
            tui_say("%s", undo ? _("Nothing to undo.") : _("Nothing to redo."));
            elapsed = 0;
        }
        }
    }
}

static int choose_human(player *pl, mc_session *s, mc_move *m)
{
    const mc_game *g = mc_session_game(s);
    if (screen.on)
        return choose_screen(pl, s, m);
    for (;;) {
        printf(_("%s to move (a move, or: moves, undo, redo, board, resign, "
                 "quit, help)> "),
               cli_side(pl->side));
        fflush(stdout);
        char line[256];
        if (!fgets(line, sizeof line, stdin)) {
            printf(_("\nEnd of input: leaving the game.\n"));
            return 1;
        }
        trim(line);
        if (!*line)
            continue;
        if (strcmp(line, "quit") == 0 || strcmp(line, "exit") == 0)
            return 1;
        if (strcmp(line, "help") == 0 || strcmp(line, "?") == 0) {
            printf(_("Type the letter of one of your pits to sow it.\n"
                     "  moves   list your legal moves\n"
                     "  undo    take back your last move (and the reply)\n"
                     "  redo    play an undone move again\n"
                     "  board   draw the board again\n"
                     "  resign  give up this game\n"
                     "  quit    leave the program\n"));
            continue;
        }
        if (strcmp(line, "moves") == 0) {
            show_moves(s);
            continue;
        }
        if (strcmp(line, "board") == 0) {
            cli_draw_board(stdout, g, mc_session_pos(s));
            continue;
        }
        if ((strcmp(line, "undo") == 0 || strcmp(line, "redo") == 0) &&
            screen.view.no_undo) {
            printf(_("Refused: this is a contract game, without take-backs "
                     "(W16).\n"));
            continue;
        }
        if (strcmp(line, "undo") == 0 || strcmp(line, "redo") == 0) {
            int undo = line[0] == 'u', k = 0;
            int plies = pl->undo_plies ? *pl->undo_plies : 1;
            for (int i = 0; i < plies; i++)
                k += (undo ? mc_session_undo(s) : mc_session_redo(s)) == 0;
            if (!k) {
                printf("%s\n",
                       undo ? _("Nothing to undo.") : _("Nothing to redo."));
                continue;
            }
            return 2;
        }
        if (strcmp(line, "resign") == 0) {
            mc_session_forfeit(s, pl->side, MC_END_RESIGN);
            return 2;
        }
        mc_error err = {0, ""};
        if (mc_move_parse(g, mc_session_pos(s), line, m, &err) == 0)
            return 0;
        printf(_("Not possible: %s.\n"), err.msg);
    }
}

static int choose_random(player *pl, mc_session *s, mc_move *m)
{
    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(s, mv);
    if (n == 0)
        return 1;
    *m = mv[mc_rng_below(&pl->rng, (uint32_t)n)];
    return 0;
}

/* The computer's player, made at its first move: the table, the threads
   (the cores, at full strength) and the endgame tables (--egdb, or the
   default places) are kept for the whole run. */
static mc_player *computer_of(player *pl, const mc_session *s)
{
    if (pl->ai)
        return pl->ai;
    mc_player_opts o = {0};
    o.level = pl->level;
    /* A node budget is for a computer that plays the same moves every
       time (--nodes is documented so): one thread. */
    o.threads = pl->nodes ? 1 : mc_cores();
    o.tables = play_egdb_dir;
    o.seed = mc_rng_next(&pl->rng);
    o.book = play_book.off ? "none" : NULL;
    o.book_variety = play_book.variety;
    /* At full strength the seed only picks among close book moves: without
       --seed the system's random source does, so that games differ from
       run to run. */
    if (pl->level >= 10 && !play_book.seeded)
        o.seed = 0;
    mc_error err = {0, ""};
    pl->ai = mc_player_new(mc_session_game(s), &o, &err);
    if (!pl->ai)
        say(_("The computer cannot play: %s"), err.msg);
    return pl->ai;
}

static int choose_computer(player *pl, mc_session *s, mc_move *m)
{
    mc_go go = {0};
    double seconds = pl->nodes ? 0 : pl->seconds;
    go.nodes = pl->nodes;
    /* the clocks bound the thinking time too */
    double left = screen.view.clock[pl->side];
    if (screen.view.move_limit > 0 && seconds > 0 &&
        seconds > 0.8 * screen.view.move_limit)
        seconds = 0.8 * screen.view.move_limit;
    if (screen.game_time > 0 && left >= 0 && seconds > left / 20)
        seconds = left / 20 > 0.01 ? left / 20 : 0.01;
    go.movetime = seconds;
    if (!go.nodes && go.movetime <= 0)
        go.movetime = 1.0;
    if (screen.on) {
        tui_note(_("%s (computer) is thinking..."), cli_side(pl->side));
        tui_draw(s, &screen.view);
    }
    go.start = mc_clock();
    mc_player *ai = computer_of(pl, s);
    mc_search_info info;
    if (!ai || mc_player_sync(ai, s, NULL) != 0 ||
        mc_player_go(ai, &go, &info) != 0)
        return 1;
    if (left >= 0)
        screen.view.clock[pl->side] -= info.seconds;
    *m = info.best;
    return 0;
}

static int make_player(player *pl, const char *kind, int side, uint64_t seed,
                       int level, double seconds)
{
    memset(pl, 0, sizeof *pl);
    pl->level = level;
    pl->seconds = seconds;
    pl->side = side;
    mc_rng_seed(&pl->rng, seed + (uint64_t)side);
    if (strcmp(kind, "human") == 0) {
        pl->kind = "human";
        pl->choose = choose_human;
    } else if (strcmp(kind, "random") == 0) {
        pl->kind = "random";
        pl->choose = choose_random;
    } else if (strcmp(kind, "computer") == 0) {
        pl->kind = "computer";
        pl->choose = choose_computer;
    } else {
        fprintf(stderr,
                _("mancala play: unknown player '%s' (players: human, "
                  "computer, random)\n"),
                kind);
        return -1;
    }
    return 0;
}

/* Say in words what a move did: lifts, skips, captures (the library's
   mc_move_explain). */
static void narrate(const mc_game *g, const mc_pos *before, mc_move m,
                    const mc_trace *t)
{
    size_t n = mc_move_explain(g, before, m, t, NULL, 0) + 1;
    char *b = malloc(n); /* a long relay says much: as long as it takes */
    if (!b)
        return;
    mc_move_explain(g, before, m, t, b, n);
    printf("%s\n", b);
    free(b);
}

/* ---- --save / --resume: the games of this run kept as records ---- */

static char saving_path_shown[4096]; /* told after the full screen ends */

static struct {
    const char *path; /* NULL: not saving */
    mc_record **recs;
    int n, cap;
} saving;

/* Write every game so far, atomically (docs/RECORDS.md). */
static void save_now(void)
{
    mc_error err = {0, ""};
    if (saving.path &&
        mc_records_save(saving.path, saving.recs, saving.n, &err) != 0) {
        if (screen.on)
            tui_say(_("Cannot save: %s"), err.msg);
        else
            fprintf(stderr, _("mancala play: cannot save: %s\n"), err.msg);
    }
}

/* A new game's session: a record when saving, else a plain session. */
static mc_session *new_game(const mc_game *g, const mc_pos *start, player pl[2])
{
    if (!saving.path)
        return mc_session_new(g, start);
    mc_error err = {0, ""};
    mc_record *r = mc_record_new(mc_game_spec(g), start, &err);
    if (!r) {
        fprintf(stderr, "mancala play: %s\n", err.msg);
        return NULL;
    }
    size_t cap = mc_grow(&saving.recs, (size_t)saving.cap, (size_t)saving.n + 1,
                         sizeof *saving.recs, 8);
    if (!cap) {
        mc_record_free(r);
        return NULL;
    }
    saving.cap = (int)cap;
    saving.recs[saving.n++] = r;
    time_t now = time(NULL);
    struct tm tm;
    char b[64];
    gmtime_r(&now, &tm);
    strftime(b, sizeof b, "%Y.%m.%d", &tm);
    mc_record_set_tag(r, "Event", "mancala play", NULL);
    if (screen.control[0])
        mc_record_set_tag(r, "TimeControl", screen.control, NULL);
    mc_record_set_tag(r, "Date", b, NULL);
    for (int i = 0; i < 2; i++) {
        if (pl[i].choose == choose_computer)
            snprintf(b, sizeof b, "computer level %d, %.1f s a move",
                     pl[i].level, pl[i].seconds);
        else
            snprintf(b, sizeof b, "%s", pl[i].kind);
        mc_record_set_tag(r, i ? "North" : "South", b, NULL);
    }
    if (mc_game_is_match(g)) {
        int round = 1;
        if (saving.n > 1) {
            const char *prev =
                mc_record_tag(saving.recs[saving.n - 2], "Round");
            round = prev ? atoi(prev) + 1 : 1;
        }
        snprintf(b, sizeof b, "%d", round);
        mc_record_set_tag(r, "Round", b, NULL);
    }
    save_now();
    return mc_record_session(r);
}

/* One game in session s; returns 1 if the user quit, else 0 with the
   result in r. */
/* With --egdb: say when the tables solve the position to move from.  Exact
   at the start and right after a capture (no history can matter then);
   otherwise only where the entry is history-proof. */
static void report_solved(const mc_session *s)
{
    int diff;
    const mc_pos *p = mc_session_pos(s);
    if (mc_egdb_lookup(play_db, p, mc_session_fresh(s), &diff) != MC_EGDB_EXACT)
        return;
    int south = p->side == MC_SOUTH ? diff : -diff;
    if (south == 0)
        say(_("perfect play: a draw."));
    else
        say(_("perfect play: %s wins by %d."),
            cli_side(south > 0 ? MC_SOUTH : MC_NORTH),
            south > 0 ? south : -south);
}

static int play_game(const mc_game *g, mc_session *s, player pl[2],
                     mc_result *r)
{
    int quit = 0, humans = 0;
    for (int i = 0; i < 2; i++)
        humans += pl[i].choose == choose_human;
    int undo_plies = humans == 1 ? 2 : 1;
    pl[0].undo_plies = pl[1].undo_plies = &undo_plies;
    for (int i = 0; i < 2; i++)
        if (pl[i].ai)
            mc_player_newgame(pl[i].ai); /* a new game of a match */
    if (screen.on) {
        for (int i = 0; i < 2; i++)
            screen.view.clock[i] = screen.game_time > 0 ? screen.game_time : -1;
        tui_new_game();
        /* the person's side at the bottom when only North is a person */
        tui_set_flip(pl[MC_NORTH].choose == choose_human &&
                     pl[MC_SOUTH].choose != choose_human);
        tui_draw(s, &screen.view);
    } else {
        cli_draw_board(stdout, g, mc_session_pos(s));
    }
    int told = -1; /* the ply whose solved position was last reported */
    while (!mc_session_over(s)) {
        const mc_pos *p = mc_session_pos(s);
        player *cur = &pl[p->side];
        mc_move m;
        if (play_db && told != mc_session_ply(s)) {
            told = mc_session_ply(s);
            report_solved(s);
        }
        if (screen.on && cur->choose != choose_human) {
            int k = tui_poll_key(); /* q stops the programs' game */
            if (k == 'q' || k == 'Q') {
                quit = 1;
                break;
            }
        }
        int rc = cur->choose(cur, s, &m);
        if (rc == 1) {
            quit = 1;
            break;
        }
        if (rc == 3) { /* a person's flag fell */
            mc_error err = {0, ""};
            int side = p->side;
            if (screen.on_flag == MC_FLAG_PASS &&
                mc_session_pass_turn(s, &err) == 0) {
                /* W16: the turn passes to the opponent */
                say(_("%s's time ran out: the turn passes to %s (W16)."),
                    cli_side(side), cli_side(1 - side));
            } else {
                say(_("%s's time ran out."), cli_side(side));
                mc_session_forfeit(s, side, MC_END_TIME);
            }
            rc = 2;
        }
        if (rc == 2) {
            save_now();
            if (mc_session_over(s))
                ;
            else if (screen.on)
                tui_draw(s, &screen.view);
            else
                cli_draw_board(stdout, g, mc_session_pos(s));
            continue;
        }
        mc_pos before = *p;
        char tok[MC_MOVE_STRLEN];
        mc_move_format(g, p, m, tok, sizeof tok);
        int side = p->side;
        mc_trace_event ev[256];
        mc_trace t = {ev, 256, 0, 0};
        mc_error err = {0, ""};
        if (mc_session_play(s, m, &t, &err) != 0) {
            fprintf(stderr, "mancala play: %s: %s\n", tok, err.msg);
            quit = 1;
            break;
        }
        save_now();
        if (screen.increment > 0 && screen.view.clock[side] >= 0)
            screen.view.clock[side] += screen.increment;
        if (screen.on) {
            tui_animate(s, &screen.view, &before, side, tok, &t);
        } else {
            narrate(g, &before, m, &t);
            cli_draw_board(stdout, g, mc_session_pos(s));
        }
    }
    mc_session_result(s, r);
    if (!quit) {
        char b[300];
        mc_result_describe(g, r, b, sizeof b);
        say(_("Game over: %s"), b);
    }
    return quit;
}

static const char *const play_usage = N_(
    "usage: mancala play [<game>] [--you south|north] [--south P] "
    "[--north P]\n"
    "                    [--level N] [--time S] [--seed N]\n"
    "                    [--save FILE] [--resume FILE]\n\n"
    "Play a game in the terminal.  Default: oware, you as South against\n"
    "the computer as North (level 5, 1 second a move).  P is a player:\n"
    "  human     a person at this terminal\n"
    "  computer  the engine (--level 1 beginner .. 10 full strength,\n"
    "            --time seconds a move)\n"
    "  random    a program that plays uniformly random moves\n"
    "--you north: you play North against the computer (South moves\n"
    "first unless the game says first=north).\n"
    "Type a pit letter to move; 'help' at the prompt lists the other\n"
    "commands (moves, undo, redo, board, resign, quit).  A game with a\n"
    "match option (oware:match=bo3) is played as a match.\n"
    "--save FILE writes the game record (docs/RECORDS.md) after every\n"
    "move, atomically; --resume FILE goes on with the saved game (or the\n"
    "next game of a saved match) and keeps saving to FILE.\n\n"
    "On a terminal the game is played full screen: type any move in its\n"
    "notation on the move line (C, I-, i++-, K*, offer:AC) and Enter - it\n"
    "plays at once when only one move can be meant - or pick a pit with\n"
    "the arrows (Up/Down change rows) and Enter (a list when the pit\n"
    "starts several moves).  Letters are always moves; commands: ? (or\n"
    "Esc, F1) lists them, < undo, > redo, F2 hint, = evaluation, # move\n"
    "list, F5 review (step through the game, evaluate any position),\n"
    "F6 flip the board, PgUp/PgDn scroll the log, ! resign (asks first),\n"
    "q quit; in Gore, 'offer' and Enter picks pits to offer and shows the\n"
    "price.  Without a terminal, or with --plain, the line mode above is\n"
    "used.  The full screen saves every move to\n"
    "$XDG_STATE_HOME/mancala/autosave.mcr (~/.local/state/mancala) unless\n"
    "--save is given, and offers to resume an unfinished game of the same\n"
    "game with a move played (another one is kept as autosave.old.mcr).\n"
    "  --mode CONTROL  (or --clock) a time control: move:S (S seconds a\n"
    "        move), game:S+I (S seconds each, I more after each move), or a\n"
    "        mode of the game: Omweso's (W16) classic, contract (undo\n"
    "        refused), blitz (3 s a move, when the time runs out the turn\n"
    "        passes), blitz:loss (or blitz,blitz_timeout=loss: it loses)\n"
    "  --move-time S   seconds a move      --game-time S  seconds a game\n"
    "  --nodes N       computer: N nodes a move, one thread (deterministic)\n"
    "  --speed 0..4    animation speed (0 instant)\n"
    "  --hint-nodes N  node budget of hints and evaluations\n"
    "  --no-book       the computer does not play from the opening book\n"
    "                  (at level 10 it plays Oware's built-in book,\n"
    "                  docs/BOOK.md; the lower levels never do)\n"
    "  --book-variety N  the book's moves within N hundredths of a seed\n"
    "                  of the best are chosen at random (default 20;\n"
    "                  0: always the best)\n"
    "  --egdb DIR      Oware endgame databases (mancala egdb build): the\n"
    "                  computer plays them, and a solved position is\n"
    "                  reported ('perfect play: South wins by 4').\n"
    "                  Without it the computer plays with the tables of\n"
    "                  the default places (built on first use: layers\n"
    "                  0-10, a few seconds); --egdb none: no tables.\n"
    "                  For a solved game (gore:trades=off, sadeqa2) the\n"
    "                  tables of mancala solve --build: the computer\n"
    "                  plays perfectly at level 10 and the hint says so.\n"
    "The computer thinks with every core of the machine at level 10.\n");

/* $XDG_STATE_HOME/mancala/autosave.mcr or ~/.local/state/mancala/...;
   the directories are created.  NULL if there is no home. */
static const char *autosave_path(void)
{
    static char path[4096];
    char dir[4000];
    const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    if (x && *x)
        snprintf(dir, sizeof dir, "%s", x);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/.local/state", home);
    else
        return NULL;
    /* mkdir -p of dir, then dir/mancala */
    for (char *q = dir + 1; *q; q++)
        if (*q == '/') {
            *q = '\0';
            mkdir(dir, 0700);
            *q = '/';
        }
    mkdir(dir, 0700);
    size_t n = strlen(dir);
    snprintf(dir + n, sizeof dir - n, "/mancala");
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return NULL;
    snprintf(path, sizeof path, "%s/autosave.mcr", dir);
    return path;
}

/* Whether the game, the players and the file to resume are fine, checked
   quietly before the full screen starts: when they are not, the line mode
   reports the error where it can be read. */
static int inputs_ok(const char *spec, const char *kind[2], const char *resume)
{
    mc_game *g = mc_game_new(spec ? spec : "oware", NULL);
    int ok = g != NULL;
    mc_game_free(g);
    for (int i = 0; i < 2; i++)
        ok &= strcmp(kind[i], "human") == 0 ||
              strcmp(kind[i], "computer") == 0 ||
              strcmp(kind[i], "random") == 0;
    if (ok && resume) {
        mc_record **recs = NULL;
        int n = 0;
        mc_record_loc loc;
        mc_error err = {0, ""};
        ok = mc_records_load(resume, &recs, &n, &loc, &err) == 0 && n > 0;
        mc_records_free(recs, n);
    }
    return ok;
}

/* Whether a saved file holds a game or match that goes on: 1 when it is
   one of `want` (a canonical spec) with a move played, 2 when it is
   another game (not offered, but kept), 3 when no move was played (nothing
   to keep), 0 when there is none. */
static int unfinished(const char *path, const char *want, char *what, size_t n)
{
    mc_record **recs = NULL;
    int nrec = 0, open = 0;
    mc_record_loc loc;
    mc_error err = {0, ""};
    if (access(path, R_OK) != 0 ||
        mc_records_load(path, &recs, &nrec, &loc, &err) != 0 || nrec == 0)
        return 0;
    mc_session *last = mc_record_session(recs[nrec - 1]);
    const mc_game *g = mc_record_game(recs[nrec - 1]);
    mc_match m;
    mc_match_init(g, &m);
    for (int i = 0; i < nrec; i++) {
        mc_result r;
        mc_session_result(mc_record_session(recs[i]), &r);
        if (r.over)
            mc_match_record(g, &m, &r);
    }
    open = !mc_session_over(last) || m.winner < 0;
    int plies = 0;
    for (int i = 0; i < nrec; i++)
        plies += mc_session_ply(mc_record_session(recs[i]));
    if (open && plies == 0)
        open = 3;
    else if (open && strcmp(mc_game_spec(g), want) != 0)
        open = 2;
    snprintf(what, n,
             P_("%s, game %d, %d move played", "%s, game %d, %d moves played",
                mc_session_ply(last)),
             mc_game_spec(g), nrec, mc_session_ply(last));
    mc_records_free(recs, nrec);
    return open;
}

/* What `mancala play` was asked (--save, --egdb and the book's options go
   straight to saving, play_egdb_dir and play_book). */
typedef struct play_args {
    const char *spec, *kind[2], *resume, *mode;
    uint64_t seed, nodes;
    long level, speed;
    double seconds, move_time, game_time;
    int plain;
    unsigned long long hint_nodes;
} play_args;

/* The options with a number: -1 when v is good for option o, else the
   exit code after saying why not. */
static int number_option(play_args *pa, const char *o, const char *v)
{
    if (strcmp(o, "--move-time") == 0 || strcmp(o, "--game-time") == 0) {
        char *end;
        double t = strtod(v, &end);
        if (*end || end == v || !(t > 0 && t <= 360000)) {
            fprintf(stderr, _("mancala play: %s takes seconds, not '%s'\n"), o,
                    v);
            return EXIT_USAGE;
        }
        *(o[2] == 'm' ? &pa->move_time : &pa->game_time) = t;
    } else if (strcmp(o, "--nodes") == 0 || strcmp(o, "--hint-nodes") == 0) {
        long n = cli_number(v, 2000000000L);
        if (n < 1) {
            fprintf(stderr,
                    _("mancala play: %s takes a node count, not '%s'\n"), o, v);
            return EXIT_USAGE;
        }
        if (o[2] == 'n')
            pa->nodes = (uint64_t)n;
        else
            pa->hint_nodes = (unsigned long long)n;
    } else if (strcmp(o, "--speed") == 0) {
        pa->speed = cli_number(v, 4);
        if (pa->speed < 0) {
            fprintf(stderr, _("mancala play: --speed takes 0..4, not '%s'\n"),
                    v);
            return EXIT_USAGE;
        }
    } else if (strcmp(o, "--seed") == 0) {
        long n = cli_number(v, 2000000000L);
        if (n < 0) {
            fprintf(stderr, _("mancala play: bad seed '%s'\n"), v);
            return EXIT_USAGE;
        }
        pa->seed = (uint64_t)n;
        play_book.seeded = 1;
    } else if (strcmp(o, "--level") == 0) {
        pa->level = cli_number(v, 10);
        if (pa->level < 1) {
            fprintf(stderr, _("mancala play: --level takes 1..10, not '%s'\n"),
                    v);
            return EXIT_USAGE;
        }
    } else { /* --time */
        char *end;
        pa->seconds = strtod(v, &end);
        if (*end || end == v || !(pa->seconds > 0 && pa->seconds <= 3600)) {
            fprintf(stderr,
                    _("mancala play: --time takes seconds (0 < S <= "
                      "3600), not '%s'\n"),
                    v);
            return EXIT_USAGE;
        }
    }
    return -1;
}

/* An option o with its value v (o is one of the known ones): -1 when v is
   good, else the exit code after saying why not. */
static int play_option(play_args *pa, const char *o, const char *v)
{
    if (strcmp(o, "--egdb") == 0) {
        play_egdb_dir = v;
    } else if (strcmp(o, "--book-variety") == 0) {
        long n = cli_number(v, 10000);
        if (n < 0) {
            fprintf(stderr,
                    _("mancala play: --book-variety takes 0..10000 "
                      "(hundredths of a seed), not '%s'\n"),
                    v);
            return EXIT_USAGE;
        }
        play_book.variety = (int)n;
    } else if (strcmp(o, "--mode") == 0 || strcmp(o, "--clock") == 0) {
        pa->mode = v; /* read by the library once the game is known */
    } else if (strcmp(o, "--save") == 0) {
        saving.path = v;
    } else if (strcmp(o, "--resume") == 0) {
        pa->resume = v;
    } else if (strcmp(o, "--south") == 0) {
        pa->kind[MC_SOUTH] = v;
    } else if (strcmp(o, "--north") == 0) {
        pa->kind[MC_NORTH] = v;
    } else if (strcmp(o, "--you") == 0) {
        int you = strcmp(v, "south") == 0   ? MC_SOUTH
                  : strcmp(v, "north") == 0 ? MC_NORTH
                                            : -1;
        if (you < 0) {
            fprintf(stderr,
                    _("mancala play: --you takes south or north, not "
                      "'%s'\n"),
                    v);
            return EXIT_USAGE;
        }
        pa->kind[you] = "human";
        pa->kind[1 - you] = "computer";
    } else {
        return number_option(pa, o, v);
    }
    return -1;
}

/* Read the arguments into pa; -1 when they are good, else the exit code
   (0 after --help). */
static int parse_args(int argc, char **argv, play_args *pa)
{
    static const char *const valued[] = {
        "--south",        "--north", "--you",    "--seed",       "--level",
        "--time",         "--save",  "--resume", "--mode",       "--move-time",
        "--game-time",    "--nodes", "--speed",  "--hint-nodes", "--egdb",
        "--book-variety", "--clock"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(_(play_usage), stdout);
            return 0;
        }
        if (strcmp(a, "--plain") == 0) {
            pa->plain = 1;
            continue;
        }
        if (strcmp(a, "--no-book") == 0) {
            play_book.off = 1;
            continue;
        }
        if (a[0] == '-' && a[1] == '-') {
            int known = 0;
            for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
                known |= strcmp(a, valued[k]) == 0;
            if (!known) {
                fprintf(stderr, _("mancala play: unknown option '%s'\n"), a);
                return EXIT_USAGE;
            }
            if (i + 1 >= argc) {
                fprintf(stderr, _("mancala play: %s needs a value\n"), a);
                return EXIT_USAGE;
            }
            int rc = play_option(pa, a, argv[++i]);
            if (rc >= 0)
                return rc;
        } else if (a[0] == '-') {
            fprintf(stderr, _("mancala play: unknown option '%s'\n"), a);
            return EXIT_USAGE;
        } else if (!pa->spec) {
            pa->spec = a;
        } else {
            fprintf(stderr, _("mancala play: unexpected argument '%s'\n"), a);
            return EXIT_USAGE;
        }
    }
    return -1;
}

/* The time control, in the library's words (Omweso's W16 modes come from
   the game), and what the screen shows of it; -1, or the exit code after
   saying why --mode is refused. */
static int time_control(play_args *pa)
{
    mc_time_control tc;
    memset(&tc, 0, sizeof tc);
    if (pa->mode) {
        mc_game *tg = mc_game_new(pa->spec ? pa->spec : "oware", NULL);
        mc_error err = {0, ""};
        if (tg && mc_time_parse(tg, pa->mode, &tc, &err) != 0) {
            fprintf(stderr, _("mancala play: --mode: %s\n"), err.msg);
            mc_game_free(tg);
            return EXIT_USAGE;
        }
        mc_game_free(tg);
        mc_time_format(&tc, screen.control, sizeof screen.control);
    } else if (pa->move_time > 0 || pa->game_time > 0) {
        snprintf(screen.control, sizeof screen.control, "%s:%g",
                 pa->game_time > 0 ? "game" : "move",
                 pa->game_time > 0 ? pa->game_time : pa->move_time);
    }
    if (tc.kind == MC_TIME_MOVE)
        pa->move_time = tc.seconds;
    else if (tc.kind == MC_TIME_GAME) {
        pa->game_time = tc.seconds;
        screen.increment = tc.increment;
    }
    static char shown_mode[64];
    snprintf(shown_mode, sizeof shown_mode, "%s",
             tc.mode[0]                ? tc.mode
             : tc.kind == MC_TIME_NONE ? "classic"
                                       : screen.control);
    screen.view.mode = shown_mode;
    screen.view.no_undo = tc.no_undo;
    screen.on_flag = tc.on_flag;
    screen.view.hint_nodes = pa->hint_nodes;
    screen.view.no_book = play_book.off;
    screen.view.move_limit = pa->move_time;
    screen.game_time = pa->game_time;
    screen.view.clock[0] = screen.view.clock[1] = -1;
    return -1;
}

/* The endgame tables the computer plays with: the small set is built on
   first use (seconds, one progress line) before the full screen starts;
   the computer's player then finds them where they are. */
static void default_tables(const play_args *pa)
{
    if (play_egdb_dir || (strcmp(pa->kind[0], "computer") != 0 &&
                          strcmp(pa->kind[1], "computer") != 0))
        return;
    mc_game *tg = mc_game_new(pa->spec ? pa->spec : "oware", NULL);
    char dir[4096];
    if (tg)
        cli_default_tables(tg, "play", 1, dir, sizeof dir);
    mc_game_free(tg);
}

/* The full screen without --save or --resume: an unfinished game of the
   kind asked for, with a move played, in the autosave file is offered
   (another unfinished one is kept aside); saving then goes to that
   file. */
static void offer_autosave(play_args *pa)
{
    const char *auto_path = autosave_path();
    char what[300], q[5000];
    mc_game *want = mc_game_new(pa->spec ? pa->spec : "oware", NULL);
    int open = auto_path && want ? unfinished(auto_path, mc_game_spec(want),
                                              what, sizeof what)
                                 : 0;
    mc_game_free(want);
    if (open == 1 || open == 2) {
        snprintf(q, sizeof q,
                 _("An unfinished game is saved in %s\n(%s).\n\n"
                   "Resume it?  (No keeps it as autosave.old.mcr and "
                   "starts a new game.)"),
                 auto_path, what);
        if (open == 1 && tui_ask_yes(q)) {
            pa->resume = auto_path;
        } else {
            char old_path[4200];
            snprintf(old_path, sizeof old_path, "%.*s.old.mcr",
                     (int)(strlen(auto_path) - 4), auto_path);
            if (rename(auto_path, old_path) == 0 && open == 2)
                say(_("The unfinished game in %s (%s) is kept as %s."),
                    auto_path, what, old_path);
        }
    }
    if (!pa->resume)
        saving.path = auto_path;
}

static int play_run(const play_args *pa);

int cmd_play(int argc, char **argv)
{
    play_args pa = {.kind = {"human", "computer"},
                    .level = 5,
                    .speed = 2,
                    .seconds = 1.0,
                    .hint_nodes = 20000};
    int rc = parse_args(argc, argv, &pa);
    if (rc < 0)
        rc = time_control(&pa);
    if (rc >= 0)
        return rc;
    /* what was accepted */
    assert(pa.level >= 1 && pa.level <= 10 && pa.speed >= 0 && pa.speed <= 4);
    default_tables(&pa);
    if (!pa.plain && isatty(0) && isatty(1) &&
        inputs_ok(pa.spec, pa.kind, pa.resume) && tui_begin() == 0) {
        screen.on = 1;
        tui_set_speed((int)pa.speed);
        if (!saving.path && !pa.resume)
            offer_autosave(&pa);
    }
    rc = play_run(&pa);
    if (screen.on) {
        tui_end();
        screen.on = 0;
        if (saving_path_shown[0])
            printf(_("The game is saved in %s.\n"), saving_path_shown);
    }
    return rc;
}

/* The saved games of --resume FILE into *old, *nold: the game comes from
   them (*spec), and saving goes on into the same file unless --save names
   another.  -1, or the exit code after saying what is wrong. */
static int load_saved(const char *resume, const char **spec, mc_record ***old,
                      int *nold)
{
    mc_record_loc loc;
    mc_error err = {0, ""};
    if (mc_records_load(resume, old, nold, &loc, &err) != 0) {
        fprintf(stderr, "mancala play: %s: %s\n", resume, err.msg);
        return EXIT_BAD_INPUT;
    }
    if (*nold == 0) {
        fprintf(stderr, _("mancala play: %s holds no game\n"), resume);
        return EXIT_BAD_INPUT;
    }
    const char *saved = mc_game_spec(mc_record_game((*old)[*nold - 1]));
    mc_game *given = *spec ? cli_game(*spec) : NULL;
    if (*spec && (!given || strcmp(mc_game_spec(given), saved) != 0)) {
        if (given)
            fprintf(stderr, _("mancala play: %s holds a game of %s, not %s\n"),
                    resume, saved, mc_game_spec(given));
        mc_game_free(given);
        mc_records_free(*old, *nold);
        return EXIT_BAD_INPUT;
    }
    mc_game_free(given);
    *spec = saved;
    if (!saving.path)
        saving.path = resume;
    return -1;
}

/* A kind of player ("human", "computer", "random") as players read it. */
static const char *kind_word(const char *kind)
{
    if (strcmp(kind, "human") == 0)
        return _("human");
    if (strcmp(kind, "computer") == 0)
        return _("computer");
    if (strcmp(kind, "random") == 0)
        return _("random");
    return kind;
}

/* Who plays: the full screen's names of the players, or the line mode's
   first line. */
static void announce(const mc_game *g, const player pl[2], const play_args *pa)
{
    if (screen.on) {
        static char names[2][80];
        for (int i = 0; i < 2; i++) {
            if (pl[i].choose != choose_computer)
                snprintf(names[i], sizeof names[i], "%s",
                         kind_word(pl[i].kind));
            else if (pa->nodes)
                snprintf(names[i], sizeof names[i],
                         _("computer (level %ld, %llu nodes)"), pa->level,
                         (unsigned long long)pa->nodes);
            else
                snprintf(names[i], sizeof names[i],
                         _("computer (level %ld, %.1f s)"), pa->level,
                         pa->seconds);
            screen.view.player[i] = names[i];
        }
        if (saving.path)
            say(_("Every move is saved in %s."), saving.path);
    } else {
        printf(_("mancala %s: %s. South: %s, North: %s"), mc_version(),
               mc_game_spec(g), kind_word(pl[0].kind), kind_word(pl[1].kind));
        if (pl[0].choose == choose_computer || pl[1].choose == choose_computer)
            printf(_(" (computer: level %ld, %.1f s a move)"), pa->level,
                   pa->seconds);
        printf(".\n");
    }
}

/* The saved games (now saving's) counted in the match; the last one when
   it goes on, else NULL. */
static mc_session *resume_match(const mc_game *g, mc_match *match,
                                mc_record **old, int nold, const char *resume)
{
    mc_session *cont = NULL;
    saving.recs = old;
    saving.n = saving.cap = nold;
    for (int i = 0; i < nold; i++) {
        mc_session *os = mc_record_session(old[i]);
        mc_result r;
        mc_session_result(os, &r);
        if (r.over)
            mc_match_record(g, match, &r);
        else if (i == nold - 1)
            cont = os;
    }
    if (cont)
        say(P_("Resuming %s: %d game saved, the last one goes on.",
               "Resuming %s: %d games saved, the last one goes on.", nold),
            resume, nold);
    else
        say(P_("Resuming %s: %d game saved.", "Resuming %s: %d games saved.",
               nold),
            resume, nold);
    if (!cont && match->winner >= 0)
        say("%s", match->games > 1 ? _("The saved match is over.")
                                   : _("The saved game is over."));
    if (match->games > 0)
        mc_match_describe(g, match, screen.view.score,
                          sizeof screen.view.score);
    return cont;
}

/* After a game of the match: its result counted and told, who starts the
   next, and on the full screen a key (q: the match stops, winner -2). */
static void next_game(const mc_game *g, mc_match *match, const mc_session *s,
                      const mc_result *r)
{
    mc_match_record(g, match, r);
    char b[160];
    mc_match_describe(g, match, b, sizeof b);
    if (match->games > 1 || match->winner < 0) {
        say(_("Match: %s"), b);
        snprintf(screen.view.score, sizeof screen.view.score, "%s", b);
    }
    if (match->winner < 0)
        say(_("Next game: %s starts."), cli_side(match->next_first));
    if (screen.on) {
        int k = tui_wait_key(s, &screen.view,
                             match->winner < 0
                                 ? _("Any key: the next game.  q: quit.")
                                 : _("Any key: leave."));
        if (k == 'q' || k == 'Q')
            match->winner = match->winner < 0 ? -2 : match->winner;
    }
}

/* The games until the match is won or the user quits; cont: a saved game
   to go on with first (NULL: none). */
static void play_match(const mc_game *g, player pl[2], mc_match *match,
                       mc_session *cont)
{
    while (match->winner < 0) {
        mc_pos start;
        mc_match_start(g, match, &start);
        assert(start.side == MC_SOUTH || start.side == MC_NORTH);
        mc_result r;
        int quit_setup = 0;
        if (!cont && screen.on && mc_game_custom_setup(g, NULL))
            for (int i = 0; i < 2 && !quit_setup; i++)
                if (pl[i].choose == choose_human)
                    quit_setup = tui_setup(g, &start, i, &screen.view);
        if (quit_setup)
            break;
        mc_session *s = cont ? cont : new_game(g, &start, pl);
        if (!s) {
            fprintf(stderr, _("mancala play: out of memory\n"));
            break;
        }
        cont = NULL;
        int quit = play_game(g, s, pl, &r);
        if (quit) {
            if (!saving.path)
                mc_session_free(s);
            if (!screen.on)
                printf(_("Goodbye.\n"));
            break;
        }
        next_game(g, match, s, &r);
        if (!saving.path)
            mc_session_free(s);
        if (match->winner == -2)
            break;
    }
}

/* The games of `mancala play` once the options are read. */
static int play_run(const play_args *pa)
{
    const char *spec = pa->spec, *resume = pa->resume;
    mc_record **old = NULL;
    int nold = 0;
    if (resume) {
        int rc = load_saved(resume, &spec, &old, &nold);
        if (rc >= 0)
            return rc;
        assert(nold > 0 && saving.path);
    }
    mc_game *g = cli_game(spec ? spec : "oware");
    if (!g) {
        mc_records_free(old, nold);
        return EXIT_BAD_INPUT;
    }
    if (play_egdb_dir && strcmp(play_egdb_dir, "none") != 0 &&
        !(play_db = cli_open_egdb(g, play_egdb_dir, "play"))) {
        mc_records_free(old, nold);
        mc_game_free(g);
        return EXIT_BAD_INPUT;
    }
    player pl[2];
    int level = (int)pa->level;
    if (make_player(&pl[0], pa->kind[0], MC_SOUTH, pa->seed, level,
                    pa->seconds) ||
        make_player(&pl[1], pa->kind[1], MC_NORTH, pa->seed, level,
                    pa->seconds)) {
        mc_records_free(old, nold);
        mc_egdb_close(play_db);
        play_db = NULL;
        mc_game_free(g);
        return EXIT_USAGE;
    }
    pl[0].nodes = pl[1].nodes = pa->nodes;
    announce(g, pl, pa);
    mc_match match;
    mc_match_init(g, &match);
    if (match.by_lot && !resume) {
        mc_rng lot;
        mc_rng_seed(&lot, pa->seed ^ 0x6c6f74ull);
        match.next_first = (int)mc_rng_below(&lot, 2);
        say(_("Drawn by lot: %s starts the first game."),
            cli_side(match.next_first));
    }
    mc_session *cont =
        resume ? resume_match(g, &match, old, nold, resume) : NULL;
    play_match(g, pl, &match, cont);
    if (saving.path)
        snprintf(saving_path_shown, sizeof saving_path_shown, "%s",
                 saving.path);
    mc_records_free(saving.recs, saving.n);
    saving.recs = NULL;
    saving.n = saving.cap = 0;
    mc_player_free(pl[0].ai);
    mc_player_free(pl[1].ai);
    mc_egdb_close(play_db);
    play_db = NULL;
    mc_game_free(g);
    return 0;
}
