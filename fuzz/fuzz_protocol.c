/*
 * fuzz_protocol.c - libFuzzer target for the engine protocol's command
 * parser and state machine: the input is split into lines and fed to an
 * engine.  Every output line must be one of the protocol's kinds.  `go`
 * lines get " nodes 2000" appended (the last value of a parameter wins) and
 * `set hash` is held at 1 MiB so that searches stay short and small; the
 * parser still sees every byte the fuzzer wrote.  An input whose first line
 * is "uci" is fed to the UCI dialect (mancala engine --uci) instead, with
 * `setoption name Hash` held at 1 MiB the same way.
 *   make fuzz && build-fuzz/fuzz_protocol -max_total_time=20 DIR
 * fuzz/seeds/protocol
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mancala_protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_line(const char *line, void *ctx)
{
    (void)ctx;
    static const char *const kinds[] = {"ok",    "error ", "info ", "bestmove ",
                                        "# ",    "#",      "id ",   "option ",
                                        "uciok", "readyok"};
    size_t n = strlen(line);
    if (n == 0 || memchr(line, '\n', n))
        abort();
    int known = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        known |= strncmp(line, kinds[i], strlen(kinds[i])) == 0;
    if (!known)
        abort();
}

/* UCI option names are read in any case: "hash", "HASH" ... */
static int names_hash(const char *line, size_t len)
{
    for (size_t i = 0; i + 4 <= len; i++)
        if ((line[i] | 0x20) == 'h' && (line[i + 1] | 0x20) == 'a' &&
            (line[i + 2] | 0x20) == 's' && (line[i + 3] | 0x20) == 'h')
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int uci = size >= 3 && memcmp(data, "uci", 3) == 0 &&
              (size == 3 || data[3] == '\n');
    mc_engine *e = uci ? mc_engine_new_uci(check_line, NULL)
                       : mc_engine_new(check_line, NULL);
    if (!e)
        return 0;
    /* small tables: fast searches */
    if (uci)
        mc_engine_line(e, "setoption name Hash value 1", 27);
    else
        mc_engine_line(e, "set hash 1", 10);
    char *line = malloc(size + 32);
    size_t i = 0;
    while (line && i < size) {
        const uint8_t *nl = memchr(data + i, '\n', size - i);
        size_t len = nl ? (size_t)(nl - (data + i)) : size - i;
        memcpy(line, data + i, len);
        line[len] = '\0';
        i += len + 1;
        if (len >= 2 && memcmp(line, "go", 2) == 0) {
            memcpy(line + len, " nodes 2000", 12);
            len += 11;
        } else if (len >= 8 && memcmp(line, "set hash", 8) == 0) {
            memcpy(line, "set hash 1", 11);
            len = 10;
        } else if (len >= 9 && memcmp(line, "setoption", 9) == 0 &&
                   names_hash(line, len)) {
            memcpy(line, "setoption name Hash value 1", 28);
            len = 27;
        }
        if (mc_engine_line(e, line, len))
            break;
    }
    free(line);
    mc_engine_finish(e);
    mc_engine_free(e);
    return 0;
}
