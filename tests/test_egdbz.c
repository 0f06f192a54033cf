/*
 * test_egdbz.c - compressed layers (src/egdb/zfile.c) against the plain
 * files they come from: the checksum over pieces equals the checksum of
 * the whole for any cut, every entry of every layer read through the
 * per-thread block caches (two threads at once, and blocks of several
 * sizes, the last one short) equals the plain entry, a whole compressed
 * layer decompresses to the plain payload, and compressing twice leaves
 * the file as it is.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "egdb/egdb_int.h"
#include "mancala_egdb.h"

#define TOP 7

static char tmpdir[256];

static void rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char p[600];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
            rm_tree(p);
        else
            remove(p);
    }
    closedir(d);
    rmdir(dir);
}

static void test_sum_pieces(void)
{
    /* Lengths around the 16-byte chunks, cut at every point and in
       random pieces. */
    unsigned char buf[300];
    uint64_t x = 12345;
    for (size_t i = 0; i < sizeof buf; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        buf[i] = (unsigned char)(x >> 56);
    }
    int bad = 0;
    for (size_t len = 0; len <= 70; len++) {
        uint64_t whole = eg_checksum(buf, len, 7);
        for (size_t cut = 0; cut <= len; cut++) {
            eg_sum s;
            eg_sum_init(&s, len, 7);
            eg_sum_add(&s, buf, cut);
            eg_sum_add(&s, buf + cut, len - cut);
            bad += eg_sum_end(&s) != whole;
        }
    }
    for (int t = 0; t < 200; t++) {
        eg_sum s;
        eg_sum_init(&s, sizeof buf, 0);
        size_t at = 0;
        while (at < sizeof buf) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            size_t k = (size_t)(x >> 59); /* 0..31 */
            if (k > sizeof buf - at)
                k = sizeof buf - at;
            eg_sum_add(&s, buf + at, k);
            at += k;
        }
        bad += eg_sum_end(&s) != eg_checksum(buf, sizeof buf, 0);
    }
    CHECK_MSG(bad == 0, "%d checksums over pieces differ from the whole", bad);
    /* and a checksum that sees the bytes: one changed byte changes it */
    unsigned char c[40];
    memcpy(c, buf, sizeof c);
    c[33] ^= 1;
    CHECK(eg_checksum(c, sizeof c, 0) != eg_checksum(buf, sizeof c, 0));
}

typedef struct job {
    const mc_egdb *plain, *z;
    int reverse;
    long bad, unreadable;
} job;

/* Every entry of every layer, in rank order or backwards. */
static void *read_all(void *arg)
{
    job *j = arg;
    for (int n = 0; n <= TOP; n++) {
        uint64_t N = mc_egdb_layer_size(n);
        for (uint64_t i = 0; i < N; i++) {
            uint64_t x = j->reverse ? N - 1 - i : i;
            uint8_t h[12];
            mc_egdb_unrank(n, x, h);
            int a = mc_egdb_entry(j->plain, n, h);
            int b = mc_egdb_entry(j->z, n, h);
            if (b < 0)
                j->unreadable++;
            else if (a != b)
                j->bad++;
        }
    }
    return NULL;
}

static void test_blocks(const char *plain, uint32_t block)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/z%u", tmpdir, block);
    mkdir(dir, 0777);
    mc_error err = {0, ""};
    for (int n = 0; n <= TOP; n++) {
        char a[600], b[600];
        mc_egdb_path(plain, MC_EGDB_ABAPA, n, a, sizeof a);
        mc_egdb_path(dir, MC_EGDB_ABAPA, n, b, sizeof b);
        FILE *in = fopen(a, "rb"), *out = fopen(b, "wb");
        int c;
        while (in && out && (c = fgetc(in)) != EOF)
            fputc(c, out);
        if (in)
            fclose(in);
        if (out)
            fclose(out);
        mc_egdb_compress_opts o = {block, 3, 0};
        uint64_t zs = 0;
        CHECK_MSG(mc_egdb_compress(dir, MC_EGDB_ABAPA, n, &o, &zs, &err) == 0,
                  "compress layer %d: %s", n, err.msg);
        struct stat st;
        CHECK(stat(b, &st) != 0); /* the plain file removed */
        mc_egdb_zpath(dir, MC_EGDB_ABAPA, n, b, sizeof b);
        CHECK(stat(b, &st) == 0 && (uint64_t)st.st_size == zs);
        /* compressing again leaves it */
        uint64_t zs2 = 0;
        CHECK(mc_egdb_compress(dir, MC_EGDB_ABAPA, n, &o, &zs2, &err) == 0 &&
              zs2 == zs);
    }
    mc_egdb *p = mc_egdb_open(plain, MC_EGDB_ABAPA, TOP, &err);
    CHECK_MSG(p != NULL, "open plain: %s", err.msg);
    mc_egdb *z = mc_egdb_open(dir, MC_EGDB_ABAPA, TOP, &err);
    CHECK_MSG(z != NULL, "open compressed: %s", err.msg);
    if (!p || !z) {
        mc_egdb_close(p);
        mc_egdb_close(z);
        return;
    }
    job j[2] = {{p, z, 0, 0, 0}, {p, z, 1, 0, 0}};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, read_all, &j[1]) == 0);
    read_all(&j[0]);
    pthread_join(t, NULL);
    CHECK_MSG(j[0].bad + j[1].bad == 0 &&
                  j[0].unreadable + j[1].unreadable == 0,
              "block %u: %ld entries differ, %ld unreadable", block,
              j[0].bad + j[1].bad, j[0].unreadable + j[1].unreadable);
    /* whole layers, as the builder and verify read them */
    for (int n = 0; n <= TOP; n++) {
        const uint8_t *a = eg_layer_data(p, n), *b = eg_layer_data(z, n);
        CHECK_MSG(a && b && !memcmp(a, b, mc_egdb_layer_size(n)),
                  "block %u: layer %d decompressed whole differs", block, n);
        CHECK(mc_egdb_layer_info(z, n)->payload_sum ==
              mc_egdb_layer_info(p, n)->payload_sum);
    }
    mc_egdb_close(p);
    mc_egdb_close(z);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/mancala-egdbz-test-XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_sum_pieces();
    char plain[300];
    snprintf(plain, sizeof plain, "%s/plain", tmpdir);
    mkdir(plain, 0777);
    mc_egdb_build_opts o;
    memset(&o, 0, sizeof o);
    o.dir = plain;
    o.preset = MC_EGDB_ABAPA;
    o.max_seeds = TOP;
    o.threads = 2;
    /* layer 6's giant component to the approximation (a search of
       minutes): the values do not matter here, only that they are kept */
    o.search_maxcomp = 2000;
    mc_error err = {0, ""};
    CHECK_MSG(mc_egdb_build(&o, &err) == 0, "build: %s", err.msg);
    /* 16: the smallest; 80: layer 7's 31,824 entries end in a short
       block; 1024: the default; 1 << 20: one block a layer. */
    static const uint32_t blocks[] = {16, 80, 1024, 4096, 1u << 20};
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++)
        test_blocks(plain, blocks[i]);
    mc_egdb_compress_opts bad = {100, 3, 0};
    CHECK(mc_egdb_compress(plain, MC_EGDB_ABAPA, 3, &bad, NULL, &err) ==
          MC_ERR_ARG);
    rm_tree(tmpdir);
    return check_report("test_egdbz");
}
