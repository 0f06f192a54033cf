/*
 * fuzz_book.c - libFuzzer target for the opening-book reader (docs/BOOK.md).
 * Any input must be read or refused with an error that names the book and
 * a line ("fuzz:LINE: ..."); whatever is read must survive a round trip:
 * written, read again and written again it gives the same text.
 *   make fuzz && build-fuzz/fuzz_book -max_total_time=20 DIR fuzz/seeds/book
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mancala.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_error err = {0, ""};
    mc_book *b = mc_book_read((const char *)data, size, "fuzz", &err);
    if (!b) {
        if (err.code == 0 || strncmp(err.msg, "fuzz:", 5) != 0)
            abort();
        return 0;
    }
    size_t len;
    char *t1 = mc_book_format(b, "a comment", &len);
    if (!t1)
        abort();
    mc_book *back = mc_book_read(t1, len, "again", &err);
    if (!back || mc_book_size(back) != mc_book_size(b))
        abort();
    char *t2 = mc_book_format(back, "a comment", NULL);
    if (!t2 || strcmp(t1, t2) != 0)
        abort();
    free(t1);
    free(t2);
    mc_book_free(b);
    mc_book_free(back);
    return 0;
}
