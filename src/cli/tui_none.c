/*
 * tui_none.c - the full screen's place in a program built without ncurses
 * (the WebAssembly build, make wasm): tui_begin says no, so `mancala play`
 * keeps to its line mode, and nothing else is ever called.
 */
#include "tui.h"

int tui_begin(void)
{
    return -1;
}
void tui_end(void)
{
}
int tui_active(void)
{
    return 0;
}
void tui_set_speed(int speed)
{
    (void)speed;
}
void tui_say(const char *fmt, ...)
{
    (void)fmt;
}
void tui_note(const char *fmt, ...)
{
    (void)fmt;
}
void tui_new_game(void)
{
}
void tui_set_flip(int flip)
{
    (void)flip;
}
void tui_draw(const mc_session *s, const tui_view *v)
{
    (void)s;
    (void)v;
}
int tui_choose(mc_session *s, tui_view *v, mc_move *m, double *elapsed)
{
    (void)s;
    (void)v;
    (void)m;
    (void)elapsed;
    return TUI_QUIT;
}
void tui_animate(const mc_session *s, const tui_view *v, const mc_pos *before,
                 int side, const char *tok, const mc_trace *t)
{
    (void)s;
    (void)v;
    (void)before;
    (void)side;
    (void)tok;
    (void)t;
}
int tui_setup(const mc_game *g, mc_pos *p, int side, const tui_view *v)
{
    (void)g;
    (void)p;
    (void)side;
    (void)v;
    return 1;
}
int tui_wait_key(const mc_session *s, const tui_view *v, const char *prompt)
{
    (void)s;
    (void)v;
    (void)prompt;
    return 'q';
}
int tui_poll_key(void)
{
    return -1;
}
int tui_ask_yes(const char *question)
{
    (void)question;
    return 0;
}
