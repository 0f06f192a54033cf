/*
 * test_util.c - the small shared helpers of src/core/util.c that no other
 * test reaches directly: mc_grow, the growable-array helper every module
 * uses for its stacks and lists.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/util.h"

static void test_grow(void)
{
    int *a = NULL;
    /* From nothing: the first capacity, at least what is needed. */
    size_t cap = mc_grow(&a, 0, 1, sizeof *a, 8);
    CHECK(cap == 8 && a != NULL);
    for (int i = 0; i < 8; i++)
        a[i] = i;
    /* Enough room already: nothing moves. */
    int *before = a;
    CHECK(mc_grow(&a, cap, 8, sizeof *a, 8) == 8 && a == before);
    /* Doubling until the need fits; the old elements are kept. */
    cap = mc_grow(&a, cap, 9, sizeof *a, 8);
    CHECK(cap == 16);
    cap = mc_grow(&a, cap, 100, sizeof *a, 8);
    CHECK(cap == 128);
    int kept = 1;
    for (int i = 0; i < 8; i++)
        kept &= a[i] == i;
    CHECK(kept);
    /* A size that cannot be allocated: 0, and the array is unchanged. */
    before = a;
    CHECK(mc_grow(&a, cap, SIZE_MAX / 2, sizeof *a, 8) == 0);
    CHECK(a == before && a[7] == 7);
    free(a);
    /* No first capacity given: starts at one element. */
    char *b = NULL;
    CHECK(mc_grow(&b, 0, 3, 1, 0) == 4 && b != NULL);
    free(b);
}

int main(void)
{
    test_grow();
    return check_report("test_util");
}
