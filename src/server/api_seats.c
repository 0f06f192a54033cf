/*
 * api_seats.c - who may act for a seat: the secrets (ids, tokens,
 * invitation codes: 128 bits from the system's random source, compared in
 * constant time; accounts' session tokens, 256 bits), the seats a token,
 * an account's session or an invitation code holds, the denial, the
 * seats' names, and the engine's help between two people.
 * Facts only, for the endpoints: taking a seat (POST join) is api_new.c's,
 * the takebacks between two people are api_play.c's.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api_int.h"

/* ---- secrets ------------------------------------------------------------ */

/* n random bytes from the system's random source, in 2n hex digits; -1
   if it fails (never a weaker source). */
static int random_hex(char *out, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    unsigned char b[MC_API_SESSION_LEN / 2];
    assert(n <= sizeof b);
    if (mc_system_random(b, n) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hex[b[i] >> 4];
        out[2 * i + 1] = hex[b[i] & 15];
    }
    out[2 * n] = 0;
    return 0;
}

/* 128 bits: ids, seat tokens, invitation codes. */
int api_random_hex(char out[ID_LEN + 1])
{
    return random_hex(out, ID_LEN / 2);
}

/* 256 bits: an account's session token. */
int api_random_session(char out[MC_API_SESSION_LEN + 1])
{
    return random_hex(out, MC_API_SESSION_LEN / 2);
}

uint64_t api_random_u64(void)
{
    uint64_t x = 0;
    if (mc_system_random(&x, sizeof x) != 0)
        x = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    return x;
}

/* Does token t equal the secret s?  In time independent of where they
   differ; an empty secret (a free seat) matches nothing. */
static int same_secret(const char *s, const char *t)
{
    if (!t || !s[0] || strlen(t) != ID_LEN)
        return 0;
    unsigned d = 0;
    for (int i = 0; i < ID_LEN; i++)
        d |= (unsigned char)(s[i] ^ t[i]);
    return d == 0;
}

/* ---- seats ------------------------------------------------------------- */

/* Does the request hold side: its token is the seat's, or the session of
   the account that holds the seat? */
int api_holds(const game_entry *e, const api_req *rq, int side)
{
    assert(side == 0 || side == 1);
    return same_secret(e->token[side], rq->token) |
           (rq->account > 0 && e->acct[side] == rq->account);
}

int api_holds_any(const game_entry *e, const api_req *rq)
{
    return api_holds(e, rq, 0) | api_holds(e, rq, 1);
}

/* The seat an invitation code opens (compared as a secret); -1: none. */
int api_invited_side(const game_entry *e, const char *code)
{
    int side = -1;
    for (int s = 0; s < 2; s++)
        if (code && same_secret(e->invite[s], code))
            side = s;
    return side;
}

void api_deny(mc_api_reply *out, const char *tok, const char *what)
{
    /* TRANSLATORS: %1$s says which token a request needs ("this needs
       the token of a seat"), %2$s why it was refused */
    api_reply_error(out, 403, "seat", _("%1$s (%2$s)"), _(what),
                    tok ? _("the token sent is not it") : _("none was sent"));
}

const char *api_side_seat(int side)
{
    return side ? N_("this needs the token of North's seat")
                : N_("this needs the token of South's seat");
}

/* A game between two people: the creator took one seat, the other is (or
   will be) someone else's.  The engine's help (hints, evaluations of the
   game's positions) is off there until the game ends, unless the game was
   made with "assist": true (the first round's Assist tag). */
int api_help_allowed(const game_entry *e)
{
    const char *t = mc_record_tag(e->recs[0], "Assist");
    return e->owner == 3 || (t && strcmp(t, "on") == 0) ||
           mc_session_over(cur_session(e));
}

int api_help_refused(const game_entry *e, mc_api_reply *out)
{
    if (api_help_allowed(e))
        return 0;
    api_reply_error(
        out, 403, "assist",
        _("the engine's help is off in a game between two people until "
          "it ends (unless the game was made with \"assist\": true)"));
    return 1;
}
