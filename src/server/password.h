/*
 * password.h - the secrets of accounts for `mancala serve`: passwords
 * hashed with libsodium's crypto_pwhash (argon2id at its INTERACTIVE
 * limits: 64 MiB, a few passes; the hash string holds its salt and
 * limits), checked in constant time, never kept in clear; the digest of a
 * session token (BLAKE2b, crypto_generichash), the only form a token is
 * kept in; a keyed hash for the tables of the limits.  A hash is costly by
 * design: at most MC_PW_AT_ONCE run at once in the process, and a caller waits
 * its turn a bounded time.  Knows nothing of accounts or requests.
 * password_none.c is the page's (make wasm), which keeps no accounts.
 */
#ifndef MC_SERVER_PASSWORD_H
#define MC_SERVER_PASSWORD_H

#include <stddef.h>
#include <stdint.h>

#include "mancala.h"

#define MC_PW_HASH_MAX 128 /* crypto_pwhash_STRBYTES, its NUL included */
#define MC_PW_AT_ONCE 2

enum {
    MC_PW_OK = 0,    /* done; the password matches */
    MC_PW_WRONG = 1, /* the password does not match */
    MC_PW_BUSY = 2,  /* MC_PW_AT_ONCE hashes ran for the whole wait */
    MC_PW_FAIL = -1  /* the library failed (out of memory); err says */
};

/* The hash string of the password pw (len bytes) into out, after waiting
   at most wait seconds for a turn. */
int mc_pw_hash(const char *pw, size_t len, char out[MC_PW_HASH_MAX],
               double wait, mc_error *err);
/* Does pw match the hash string?  hash NULL: checked against a hash of a
   random password made once, at the same cost, so that an unknown
   account's answer takes as long as a wrong password's (MC_PW_WRONG). */
int mc_pw_verify(const char *hash, const char *pw, size_t len, double wait,
                 mc_error *err);
/* A hash of s under a key drawn at random for the process (SipHash,
   crypto_shorthash): nobody outside can choose strings that collide. */
uint64_t mc_pw_shorthash(const char *s);
/* The digest of a token, in hex (the key a session is kept under). */
void mc_pw_digest(const char *token, char out[65]);
/* A new random password of n - 1 letters and digits (about 5.8 bits
   each, from the system's random source); -1 if it has none. */
int mc_pw_random(char *out, size_t n);
/* Tests: the most hashes (and checks) that ran at once so far, and how
   many ran in all. */
void mc_pw_stats(int *most, long *count);

#endif
