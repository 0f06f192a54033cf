/*
 * check.h - a tiny test harness: CHECK macros that count and report, and a
 * closing line "N passed, N failed" that CI reads.
 */
#ifndef MC_CHECK_H
#define MC_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (cond) {                                                            \
            check_passed++;                                                    \
        } else {                                                               \
            check_failed++;                                                    \
            fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                      \
    } while (0)

#define CHECK_MSG(cond, ...)                                                   \
    do {                                                                       \
        if (cond) {                                                            \
            check_passed++;                                                    \
        } else {                                                               \
            check_failed++;                                                    \
            fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                      \
            fprintf(stderr, "\n");                                             \
        }                                                                      \
    } while (0)

#define CHECK_STR(a, b)                                                        \
    do {                                                                       \
        const char *check_a_ = (a), *check_b_ = (b);                           \
        CHECK_MSG(strcmp(check_a_, check_b_) == 0, "got '%s', want '%s'",      \
                  check_a_, check_b_);                                         \
    } while (0)

static inline int check_report(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
