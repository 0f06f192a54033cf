/*
 * fuzz_record.c - libFuzzer target for the game-record reader.  Any input
 * must be read or rejected with a located error; whatever is read must
 * survive a round trip: written, read again and written again it gives the
 * same text.
 *   make fuzz && build-fuzz/fuzz_record -max_total_time=20 DIR
 * fuzz/seeds/record
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mancala_record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_record **recs;
    int n;
    mc_record_loc loc;
    mc_error err;
    if (mc_records_read((const char *)data, size, &recs, &n, &loc, &err) != 0) {
        /* an error names its place */
        if (loc.line < 1 || loc.col < 1 || strncmp(err.msg, "line ", 5) != 0)
            abort();
        return 0;
    }
    size_t len;
    char *t1 = mc_records_format(recs, n, &len);
    if (!t1)
        abort();
    mc_record **back;
    int nb;
    if (mc_records_read(t1, len, &back, &nb, &loc, &err) != 0 || nb != n)
        abort();
    char *t2 = mc_records_format(back, nb, NULL);
    if (!t2 || strcmp(t1, t2) != 0)
        abort();
    free(t1);
    free(t2);
    mc_records_free(recs, n);
    mc_records_free(back, nb);
    return 0;
}
