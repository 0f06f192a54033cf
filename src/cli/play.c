/*
 * play.c - `mancala play`: a game in the terminal, line by line.  Either side
 * may be a person or a program (a player is a function that picks a move);
 * matches (Oware O10) are played game after game with the score between.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "mancala_record.h"

static const char *const side_name[2] = {"South", "North"};

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
        fprintf(f, "  %-6s ", (r == 0 || r == l.rows - 1 ||
                               (r == l.rows / 2 - 1 && l.rows > 2))
                                  ? side_name[home]
                                  : "");
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
            fprintf(f, "   <- to move");
        fprintf(f, "\n");
        if (home == MC_SOUTH)
            letters_line(f, g, &l, r);
    }
    if (foreign)
        fprintf(f, "  <n> marks a pit owned by the player across the board\n");
    fprintf(f, "\n");
}

void cli_describe_result(FILE *f, const mc_result *r)
{
    static const char *const why[] = {
        [MC_END_NONE] = "",
        [MC_END_CAPTURES] = "a player has captured 25 or more",
        [MC_END_REPETITION] = "a position was repeated",
        [MC_END_NOMOVE] = "the player to move has no legal move",
        [MC_END_STUCK] = "every move of the player to move would never end",
        [MC_END_PLIES] = "the ply limit was reached",
        [MC_END_BOARD] = "every pit holds 2 or fewer",
        [MC_END_POINTS] = "points were won",
        [MC_END_ANNULLED] = "the game was annulled",
        [MC_END_RESIGN] = "resignation",
        [MC_END_TIME] = "time ran out",
    };
    const char *reason =
        r->reason >= 0 && r->reason <= MC_END_TIME ? why[r->reason] : "";
    if (r->winner == MC_DRAW)
        fprintf(f, "Game over: draw, %s (%s).\n", r->detail, reason);
    else
        fprintf(f, "Game over: %s wins, %s (%s).\n", side_name[r->winner],
                r->detail, reason);
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
    int *undo_plies; /* plies to undo for a person's take-back */
};

static void show_moves(const mc_session *s)
{
    mc_move mv[MC_MAX_MOVES];
    int n = mc_session_moves(s, mv);
    printf("Legal moves:");
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

static int choose_human(player *pl, mc_session *s, mc_move *m)
{
    const mc_game *g = mc_session_game(s);
    for (;;) {
        printf("%s to move (a move, or: moves, undo, redo, board, resign, "
               "quit, help)> ",
               side_name[pl->side]);
        fflush(stdout);
        char line[256];
        if (!fgets(line, sizeof line, stdin)) {
            printf("\nEnd of input: leaving the game.\n");
            return 1;
        }
        trim(line);
        if (!*line)
            continue;
        if (strcmp(line, "quit") == 0 || strcmp(line, "exit") == 0)
            return 1;
        if (strcmp(line, "help") == 0 || strcmp(line, "?") == 0) {
            printf("Type the letter of one of your pits to sow it.\n"
                   "  moves   list your legal moves\n"
                   "  undo    take back your last move (and the reply)\n"
                   "  redo    play an undone move again\n"
                   "  board   draw the board again\n"
                   "  resign  give up this game\n"
                   "  quit    leave the program\n");
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
        if (strcmp(line, "undo") == 0 || strcmp(line, "redo") == 0) {
            int undo = line[0] == 'u', k = 0;
            int plies = pl->undo_plies ? *pl->undo_plies : 1;
            for (int i = 0; i < plies; i++)
                k += undo ? mc_session_undo(s) : mc_session_redo(s);
            if (!k) {
                printf("Nothing to %s.\n", line);
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
        printf("Not possible: %s.\n", err.msg);
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

static int choose_computer(player *pl, mc_session *s, mc_move *m)
{
    mc_search_limits lim = {0};
    lim.seconds = pl->seconds;
    lim.level = pl->level;
    lim.seed = mc_rng_next(&pl->rng);
    mc_search_info info;
    if (mc_search(s, &lim, &info) != 0)
        return 1;
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
                "mancala play: unknown player '%s' (players: human, "
                "computer, random)\n",
                kind);
        return -1;
    }
    return 0;
}

/* Say in words what a move did: lifts, skips, captures. */
static void narrate(const mc_game *g, int side, const char *mv,
                    const mc_trace *t)
{
    printf("%s plays %s:", side_name[side], mv);
    const char *sep = " ";
    for (size_t i = 0; i < t->len; i++) {
        const mc_trace_event *e = &t->ev[i];
        if (e->kind == MC_TR_DROP)
            continue;
        char b[160];
        mc_trace_describe(g, e, b, sizeof b);
        printf("%s%s", sep, b);
        sep = "; ";
    }
    printf(".\n");
}

/* ---- --save / --resume: the games of this run kept as records ---- */

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
        mc_records_save(saving.path, saving.recs, saving.n, &err) != 0)
        fprintf(stderr, "mancala play: cannot save: %s\n", err.msg);
}

/* A new game's session: a record when saving, else a plain session. */
static mc_session *new_game(const mc_game *g, const mc_pos *start,
                            player pl[2])
{
    if (!saving.path)
        return mc_session_new(g, start);
    mc_error err = {0, ""};
    mc_record *r = mc_record_new(mc_game_spec(g), start, &err);
    if (!r) {
        fprintf(stderr, "mancala play: %s\n", err.msg);
        return NULL;
    }
    if (saving.n == saving.cap) {
        int cap = saving.cap ? 2 * saving.cap : 8;
        mc_record **nr = realloc(saving.recs, (size_t)cap * sizeof *nr);
        if (!nr) {
            mc_record_free(r);
            return NULL;
        }
        saving.recs = nr;
        saving.cap = cap;
    }
    saving.recs[saving.n++] = r;
    time_t now = time(NULL);
    struct tm tm;
    char b[64];
    gmtime_r(&now, &tm);
    strftime(b, sizeof b, "%Y.%m.%d", &tm);
    mc_record_set_tag(r, "Event", "mancala play", NULL);
    mc_record_set_tag(r, "Date", b, NULL);
    for (int i = 0; i < 2; i++) {
        if (pl[i].choose == choose_computer)
            snprintf(b, sizeof b, "computer level %d, %.1f s a move",
                     pl[i].level, pl[i].seconds);
        else
            snprintf(b, sizeof b, "%s", pl[i].kind);
        mc_record_set_tag(r, i ? "North" : "South", b, NULL);
    }
    const char *f = mc_game_option(g, "match");
    if (f && strcmp(f, "single") != 0) {
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
static int play_game(const mc_game *g, mc_session *s, player pl[2],
                     mc_result *r)
{
    int quit = 0, humans = 0;
    for (int i = 0; i < 2; i++)
        humans += pl[i].choose == choose_human;
    int undo_plies = humans == 1 ? 2 : 1;
    pl[0].undo_plies = pl[1].undo_plies = &undo_plies;
    cli_draw_board(stdout, g, mc_session_pos(s));
    while (!mc_session_over(s)) {
        const mc_pos *p = mc_session_pos(s);
        player *cur = &pl[p->side];
        mc_move m;
        int rc = cur->choose(cur, s, &m);
        if (rc == 1) {
            quit = 1;
            break;
        }
        if (rc == 2) {
            save_now();
            if (!mc_session_over(s))
                cli_draw_board(stdout, g, mc_session_pos(s));
            continue;
        }
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
        narrate(g, side, tok, &t);
        save_now();
        cli_draw_board(stdout, g, mc_session_pos(s));
    }
    mc_session_result(s, r);
    if (!quit)
        cli_describe_result(stdout, r);
    return quit;
}

static const char play_usage[] =
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
    "next game of a saved match) and keeps saving to FILE.\n";

int cmd_play(int argc, char **argv)
{
    const char *spec = NULL, *kind[2] = {"human", "computer"};
    const char *resume = NULL;
    uint64_t seed = 0;
    long level = 5;
    double seconds = 1.0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(play_usage, stdout);
            return 0;
        }
        if (a[0] == '-' && a[1] == '-') {
            static const char *const valued[] = {
                "--south", "--north", "--you",  "--seed",
                "--level", "--time",  "--save", "--resume"};
            int known = 0;
            for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
                known |= strcmp(a, valued[k]) == 0;
            if (!known) {
                fprintf(stderr, "mancala play: unknown option '%s'\n", a);
                return EXIT_USAGE;
            }
            if (i + 1 >= argc) {
                fprintf(stderr, "mancala play: %s needs a value\n", a);
                return EXIT_USAGE;
            }
            const char *v = argv[++i];
            if (strcmp(a, "--save") == 0) {
                saving.path = v;
            } else if (strcmp(a, "--resume") == 0) {
                resume = v;
            } else if (strcmp(a, "--south") == 0) {
                kind[MC_SOUTH] = v;
            } else if (strcmp(a, "--north") == 0) {
                kind[MC_NORTH] = v;
            } else if (strcmp(a, "--you") == 0) {
                int you = strcmp(v, "south") == 0   ? MC_SOUTH
                          : strcmp(v, "north") == 0 ? MC_NORTH
                                                    : -1;
                if (you < 0) {
                    fprintf(stderr,
                            "mancala play: --you takes south or north, not "
                            "'%s'\n",
                            v);
                    return EXIT_USAGE;
                }
                kind[you] = "human";
                kind[1 - you] = "computer";
            } else if (strcmp(a, "--seed") == 0) {
                long n = cli_number(v, 2000000000L);
                if (n < 0) {
                    fprintf(stderr, "mancala play: bad seed '%s'\n", v);
                    return EXIT_USAGE;
                }
                seed = (uint64_t)n;
            } else if (strcmp(a, "--level") == 0) {
                level = cli_number(v, 10);
                if (level < 1) {
                    fprintf(stderr,
                            "mancala play: --level takes 1..10, not '%s'\n",
                            v);
                    return EXIT_USAGE;
                }
            } else {
                char *end;
                seconds = strtod(v, &end);
                if (*end || end == v || !(seconds > 0 && seconds <= 3600)) {
                    fprintf(stderr,
                            "mancala play: --time takes seconds (0 < S <= "
                            "3600), not '%s'\n",
                            v);
                    return EXIT_USAGE;
                }
            }
        } else if (a[0] == '-') {
            fprintf(stderr, "mancala play: unknown option '%s'\n", a);
            return EXIT_USAGE;
        } else if (!spec) {
            spec = a;
        } else {
            fprintf(stderr, "mancala play: unexpected argument '%s'\n", a);
            return EXIT_USAGE;
        }
    }
    mc_record **old = NULL;
    int nold = 0;
    if (resume) {
        /* the saved games: the game comes from them; saving goes on into
           the same file unless --save names another */
        mc_record_loc loc;
        mc_error err = {0, ""};
        if (mc_records_load(resume, &old, &nold, &loc, &err) != 0) {
            fprintf(stderr, "mancala play: %s: %s\n", resume, err.msg);
            return EXIT_BAD_INPUT;
        }
        if (nold == 0) {
            fprintf(stderr, "mancala play: %s holds no game\n", resume);
            return EXIT_BAD_INPUT;
        }
        const char *saved = mc_game_spec(mc_record_game(old[nold - 1]));
        mc_game *given = spec ? cli_game(spec) : NULL;
        if (spec && (!given || strcmp(mc_game_spec(given), saved) != 0)) {
            if (given)
                fprintf(stderr,
                        "mancala play: %s holds a game of %s, not %s\n",
                        resume, saved, mc_game_spec(given));
            mc_game_free(given);
            mc_records_free(old, nold);
            return EXIT_BAD_INPUT;
        }
        mc_game_free(given);
        spec = saved;
        if (!saving.path)
            saving.path = resume;
    }
    mc_game *g = cli_game(spec ? spec : "oware");
    if (!g) {
        mc_records_free(old, nold);
        return EXIT_BAD_INPUT;
    }
    player pl[2];
    if (make_player(&pl[0], kind[0], MC_SOUTH, seed, (int)level, seconds) ||
        make_player(&pl[1], kind[1], MC_NORTH, seed, (int)level, seconds)) {
        mc_records_free(old, nold);
        mc_game_free(g);
        return EXIT_USAGE;
    }
    printf("mancala %s: %s. South: %s, North: %s", mc_version(),
           mc_game_spec(g), pl[0].kind, pl[1].kind);
    if (pl[0].choose == choose_computer || pl[1].choose == choose_computer)
        printf(" (computer: level %ld, %.1f s a move)", level, seconds);
    printf(".\n");
    mc_match match;
    mc_match_init(g, &match);
    if (match.by_lot && !resume) {
        mc_rng lot;
        mc_rng_seed(&lot, seed ^ 0x6c6f74ull);
        match.next_first = (int)mc_rng_below(&lot, 2);
        printf("Drawn by lot: %s starts the first game.\n",
               side_name[match.next_first]);
    }
    mc_session *cont = NULL; /* a saved game to go on with */
    if (resume) {
        saving.recs = old;
        saving.n = saving.cap = nold;
        for (int i = 0; i < nold; i++) {
            mc_session *os = mc_record_session(old[i]);
            mc_result r;
            mc_session_result(os, &r);
            if (r.over)
                mc_match_record(g, &match, &r);
            else if (i == nold - 1)
                cont = os;
        }
        printf("Resuming %s: %d game%s saved%s.\n", resume, nold,
               nold == 1 ? "" : "s",
               cont ? ", the last one goes on" : "");
        if (!cont && match.winner >= 0)
            printf("The saved %s is over.\n",
                   match.games > 1 ? "match" : "game");
    }
    while (match.winner < 0) {
        mc_pos start;
        mc_match_start(g, &match, &start);
        mc_result r;
        mc_session *s = cont ? cont : new_game(g, &start, pl);
        if (!s) {
            fprintf(stderr, "mancala play: out of memory\n");
            break;
        }
        cont = NULL;
        int quit = play_game(g, s, pl, &r);
        if (!saving.path)
            mc_session_free(s);
        if (quit) {
            printf("Goodbye.\n");
            break;
        }
        mc_match_record(g, &match, &r);
        char b[160];
        mc_match_describe(g, &match, b, sizeof b);
        if (match.games > 1 || match.winner < 0)
            printf("Match: %s\n", b);
        if (match.winner < 0)
            printf("Next game: %s starts.\n", side_name[match.next_first]);
    }
    mc_records_free(saving.recs, saving.n);
    saving.recs = NULL;
    saving.n = saving.cap = 0;
    mc_game_free(g);
    return 0;
}
