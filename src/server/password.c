/*
 * password.c - password hashes and token digests on libsodium (Debian's
 * libsodium-dev): crypto_pwhash_str (argon2id, INTERACTIVE limits),
 * crypto_pwhash_str_verify (constant-time comparison), crypto_generichash
 * (BLAKE2b-256) for session tokens.  A hash takes 64 MiB and about a
 * tenth of a second of one core: at most MC_PW_AT_ONCE run at once in the
 * process (a counter under a mutex, waited on with a deadline), so that
 * no number of requests can take more memory or cores than that.  What a
 * caller passes in clear (a password) is never copied or kept here.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "password.h"
#include "../core/i18n.h"
#include "../core/util.h"

_Static_assert(MC_PW_HASH_MAX == crypto_pwhash_STRBYTES,
               "a hash string's size");

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t freed = PTHREAD_COND_INITIALIZER;
static int running, most; /* lock */
static long count;        /* lock */

static pthread_once_t key_once = PTHREAD_ONCE_INIT, once = PTHREAD_ONCE_INIT;
static int key_ready, ready; /* sodium_init and the key; the dummy */
static unsigned char key[crypto_shorthash_KEYBYTES];
static char dummy[MC_PW_HASH_MAX];

static void init_key(void)
{
    if (sodium_init() < 0)
        return;
    randombytes_buf(key, sizeof key);
    key_ready = 1;
}

static void init(void)
{
    pthread_once(&key_once, init_key);
    if (!key_ready)
        return;
    /* The dummy: the hash of a random password, with the limits of every
       new hash, so that checking it costs what checking a real one
       does. */
    unsigned char pw[16];
    randombytes_buf(pw, sizeof pw);
    ready = crypto_pwhash_str(dummy, (const char *)pw, sizeof pw,
                              crypto_pwhash_OPSLIMIT_INTERACTIVE,
                              crypto_pwhash_MEMLIMIT_INTERACTIVE) == 0;
    sodium_memzero(pw, sizeof pw);
}

static int not_ready(mc_error *err)
{
    return mc_err(err, MC_ERR_IO, _("the password library cannot start")), -1;
}

/* A turn among the MC_PW_AT_ONCE hashes: 0, or -1 when none came free
   within wait seconds. */
static int take_turn(double wait)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    long long ns = until.tv_nsec + (long long)(wait * 1e9);
    until.tv_sec += (time_t)(ns / 1000000000);
    until.tv_nsec = (long)(ns % 1000000000);
    pthread_mutex_lock(&lock);
    int rc = 0;
    while (running >= MC_PW_AT_ONCE && rc == 0)
        if (pthread_cond_timedwait(&freed, &lock, &until) == ETIMEDOUT)
            rc = running >= MC_PW_AT_ONCE ? -1 : 0;
    if (rc == 0 && ++running > most)
        most = running;
    count += rc == 0;
    pthread_mutex_unlock(&lock);
    return rc;
}

static void end_turn(void)
{
    pthread_mutex_lock(&lock);
    running--;
    pthread_cond_signal(&freed);
    pthread_mutex_unlock(&lock);
}

int mc_pw_hash(const char *pw, size_t len, char out[MC_PW_HASH_MAX],
               double wait, mc_error *err)
{
    pthread_once(&once, init);
    if (!ready)
        return not_ready(err);
    if (take_turn(wait) != 0)
        return MC_PW_BUSY;
    int rc = crypto_pwhash_str(out, pw, len, crypto_pwhash_OPSLIMIT_INTERACTIVE,
                               crypto_pwhash_MEMLIMIT_INTERACTIVE);
    end_turn();
    if (rc != 0)
        return mc_err(err, MC_ERR_IO, _("out of memory for a password's hash")),
               MC_PW_FAIL;
    return MC_PW_OK;
}

int mc_pw_verify(const char *hash, const char *pw, size_t len, double wait,
                 mc_error *err)
{
    pthread_once(&once, init);
    if (!ready)
        return not_ready(err);
    if (take_turn(wait) != 0)
        return MC_PW_BUSY;
    int ok = crypto_pwhash_str_verify(hash ? hash : dummy, pw, len) == 0;
    end_turn();
    /* The dummy's password is random bytes nobody was told: it never
       matches. */
    return ok && hash ? MC_PW_OK : MC_PW_WRONG;
}

uint64_t mc_pw_shorthash(const char *s)
{
    pthread_once(&key_once, init_key);
    unsigned char h[crypto_shorthash_BYTES];
    uint64_t x = 0;
    crypto_shorthash(h, (const unsigned char *)s, strlen(s), key);
    for (size_t i = 0; i < sizeof h; i++)
        x = x << 8 | h[i];
    return x;
}

void mc_pw_digest(const char *token, char out[65])
{
    pthread_once(&key_once, init_key);
    unsigned char d[32];
    crypto_generichash(d, sizeof d, (const unsigned char *)token, strlen(token),
                       NULL, 0);
    sodium_bin2hex(out, 65, d, sizeof d);
}

int mc_pw_random(char *out, size_t n)
{
    static const char set[] =
        "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    const size_t k = sizeof set - 1; /* 57: no 0, O, 1, l, I */
    size_t i = 0;
    while (i + 1 < n) {
        unsigned char b[32];
        if (mc_system_random(b, sizeof b) != 0)
            return -1;
        /* bytes of 228 or more would favour the first letters */
        for (size_t j = 0; j < sizeof b && i + 1 < n; j++)
            if (b[j] < 256 - 256 % k)
                out[i++] = set[b[j] % k];
    }
    if (n)
        out[i] = 0;
    return 0;
}

void mc_pw_stats(int *m, long *n)
{
    pthread_mutex_lock(&lock);
    *m = most;
    *n = count;
    pthread_mutex_unlock(&lock);
}
