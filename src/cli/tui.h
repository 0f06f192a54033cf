/*
 * tui.h - the full-screen terminal front-end of `mancala play` (ncurses).
 * It draws boards from the game's layout, reads a person's moves and
 * commands, and animates traces; play.c keeps the game loop, players,
 * matches and saving.  Like every front-end it knows no rule.
 */
#ifndef MC_TUI_H
#define MC_TUI_H

#include <stdarg.h>

#include "mancala.h"

/* What a person chose at the board. */
enum {
    TUI_MOVE = 0, /* *m holds a legal move */
    TUI_QUIT,     /* leave the program (the game stays saved) */
    TUI_UNDO,
    TUI_REDO,
    TUI_RESIGN,
    TUI_TIMEOUT /* the clock ran out before a move */
};

/* What the screen shows besides the board. */
typedef struct tui_view {
    const char *player[2]; /* "human", "computer level 5" ... */
    char score[160];       /* match score line, "" for a single game */
    double clock[2];       /* seconds left in the game, < 0: no game clock */
    double move_limit;     /* seconds a move, 0: none */
    int no_undo;           /* contract mode: undo refused */
    const char *mode;      /* "classic", "contract", "blitz" */
    unsigned long long hint_nodes; /* node budget of hints and evaluations */
    int no_book;                   /* hints and evaluations without the book */
} tui_view;

/* Start the full screen; 0 on success, -1 if the terminal cannot do it
   (the caller then plays in line mode). */
int tui_begin(void);
void tui_end(void);
/* Whether the full screen is active. */
int tui_active(void);
/* Animation speed 0 (instant) .. 4 (slow); default 2. */
void tui_set_speed(int speed);
/* Add a line to the message area. */
void tui_say(const char *fmt, ...);
/* A passing note in the status line (the computer thinks), cleared by
   the next move. */
void tui_note(const char *fmt, ...);
/* A new game starts: what was said so far stays in the log, but undo in
   the new game never takes it away. */
void tui_new_game(void);
/* Draw North's side at the bottom (1) or South's (0), unless the player
   has flipped the board by hand. */
void tui_set_flip(int flip);
/* Draw the session's current position with everything in the view. */
void tui_draw(const mc_session *s, const tui_view *v);
/* A person's turn: keys until a move or a command.  `elapsed` counts the
   seconds this turn has taken (for the clocks). */
int tui_choose(mc_session *s, tui_view *v, mc_move *m, double *elapsed);
/* Show a move seed by seed from `before`, then explain it in words. */
void tui_animate(const mc_session *s, const tui_view *v, const mc_pos *before,
                 int side, const char *tok, const mc_trace *t);
/* Let `side` arrange its seeds in p (Omweso's custom set-up): the library
   checks the result (mc_pos_parse).  0 when done, 1 to quit. */
int tui_setup(const mc_game *g, mc_pos *p, int side, const tui_view *v);
/* Wait for a key with a prompt; returns the key. */
int tui_wait_key(const mc_session *s, const tui_view *v, const char *prompt);
/* A key pressed meanwhile (computer against computer), or -1. */
int tui_poll_key(void);
/* Ask a yes/no question before a game is on the screen. */
int tui_ask_yes(const char *question);

#endif
