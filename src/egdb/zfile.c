/*
 * zfile.c - compressed layer files (docs/EGDB.md, "Compressed layers"):
 * the plain file's header byte for byte, then a block index and the
 * entries in blocks of a fixed number of entries, each one zstd frame
 * (Debian's libzstd: a fast, well-kept decompressor; what a bespoke code
 * would do by hand).  Opening checks what the plain file's opening checks
 * (header, payload checksum, histogram) by decompressing every block once;
 * a probe then decompresses one block, kept in a small cache per thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "../core/util.h"
#include "egdb_int.h"

static const char zmagic[8] = {'M', 'C', 'E', 'G', 'Z', 'S', 'T', 'D'};

/* The block index header, after the layer header. */
enum {
    ZOFF_MAGIC = 0,
    ZOFF_VERSION = 8,
    ZOFF_BLOCK = 12,
    ZOFF_NBLOCKS = 16,
    ZOFF_LEVEL = 24,
    ZOFF_SUM = 32,
    ZHEAD = 64
};
#define EG_ZVERSION 1

void mc_egdb_zpath(const char *dir, int preset, int n, char *buf, size_t sz)
{
    eg_layer_file(dir ? dir : "", preset, n, EG_ZEXT, buf, sz);
}

int eg_is_zpath(const char *path)
{
    size_t l = strlen(path), e = strlen(EG_ZEXT);
    return l >= e && strcmp(path + l - e, EG_ZEXT) == 0;
}

/* The checksum of the index: its header up to the sum, then the offsets. */
static uint64_t index_sum(const unsigned char *zh, const unsigned char *offs,
                          uint64_t nblocks)
{
    return eg_checksum(offs, (size_t)(nblocks + 1) * 8,
                       eg_checksum(zh, ZOFF_SUM, 0));
}

static uint64_t block_len(const eg_zlayer *z, uint64_t b)
{
    mc_hot_assert(b < z->nblocks);
    uint64_t start = b * z->block;
    return z->entries - start < z->block ? z->entries - start : z->block;
}

static uint64_t off_at(const eg_zlayer *z, uint64_t b)
{
    return eg_get64(z->offs + 8 * b);
}

/* Decompress block b into out (room for z->block); 0, or -1 when the
   frame is damaged. */
static int inflate_block(ZSTD_DCtx *dc, const eg_zlayer *z, uint64_t b,
                         uint8_t *out)
{
    uint64_t lo = off_at(z, b), hi = off_at(z, b + 1);
    /* opening checked the index: offsets rising, inside the file */
    mc_hot_assert(lo <= hi && z->data + hi <= z->base + z->len);
    uint64_t want = block_len(z, b);
    size_t got =
        ZSTD_decompressDCtx(dc, out, z->block, z->data + lo, (size_t)(hi - lo));
    return ZSTD_isError(got) || got != want ? -1 : 0;
}

int eg_zcompress(const char *plain, const char *zpath, uint32_t block,
                 int level, uint64_t *zsize, mc_error *err)
{
    if (block < 16 || block % 16 || block > (1u << 24))
        return mc_err(err, MC_ERR_ARG,
                      "block size %u: a multiple of 16 from 16 to %u", block,
                      1u << 24);
    mc_egdb_info in;
    const uint8_t *d;
    void *map;
    size_t maplen;
    int rc = eg_map_layer(plain, &in, &d, &map, &maplen, err);
    if (rc)
        return rc;
    uint64_t nb = (in.entries + block - 1) / block;
    /* every entry in one block, the last one not empty */
    assert(nb * block >= in.entries &&
           (nb == 0 || (nb - 1) * block < in.entries));
    size_t bound = ZSTD_compressBound(block);
    unsigned char *offs = calloc((size_t)nb + 1, 8);
    unsigned char *buf = malloc(bound);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", zpath);
    FILE *f = NULL;
    if (!offs || !buf || !cc) {
        rc = mc_err(err, MC_ERR_NOMEM, "out of memory");
        goto done;
    }
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
    f = fopen(tmp, "wb");
    if (!f) {
        rc = mc_err(err, MC_ERR_IO, "cannot create %s: %s", tmp,
                    strerror(errno));
        goto done;
    }
    unsigned char zh[ZHEAD] = {0};
    memcpy(zh + ZOFF_MAGIC, zmagic, 8);
    eg_put32(zh + ZOFF_VERSION, EG_ZVERSION);
    eg_put32(zh + ZOFF_BLOCK, block);
    eg_put64(zh + ZOFF_NBLOCKS, nb);
    eg_put32(zh + ZOFF_LEVEL, (uint32_t)level);
    /* Header and index first (the index filled in at the end). */
    int ok = fwrite(map, 1, EG_HEADER_SIZE, f) == EG_HEADER_SIZE &&
             fwrite(zh, 1, ZHEAD, f) == ZHEAD &&
             fwrite(offs, 8, (size_t)nb + 1, f) == (size_t)nb + 1;
    uint64_t pos = 0;
    for (uint64_t b = 0; ok && b < nb; b++) {
        uint64_t start = b * block;
        size_t len =
            in.entries - start < block ? (size_t)(in.entries - start) : block;
        size_t k = ZSTD_compress2(cc, buf, bound, d + start, len);
        if (ZSTD_isError(k)) {
            rc = mc_err(err, MC_ERR_IO, "%s: zstd: %s", plain,
                        ZSTD_getErrorName(k));
            ok = 0;
            break;
        }
        ok = fwrite(buf, 1, k, f) == k;
        pos += k;
        eg_put64(offs + 8 * (b + 1), pos);
    }
    if (ok) {
        eg_put64(zh + ZOFF_SUM, index_sum(zh, offs, nb));
        ok = fseek(f, EG_HEADER_SIZE, SEEK_SET) == 0 &&
             fwrite(zh, 1, ZHEAD, f) == ZHEAD &&
             fwrite(offs, 8, (size_t)nb + 1, f) == (size_t)nb + 1;
    }
    ok = (fflush(f) == 0) && ok;
    ok = (fsync(fileno(f)) == 0) && ok;
    ok = (fclose(f) == 0) && ok;
    f = NULL;
    if (!ok || rename(tmp, zpath) != 0) {
        int e = errno;
        remove(tmp);
        if (!rc)
            rc = mc_err(err, MC_ERR_IO, "cannot write %s: %s", zpath,
                        strerror(e));
        goto done;
    }
    if (zsize)
        *zsize = EG_HEADER_SIZE + ZHEAD + 8 * (nb + 1) + pos;
done:
    if (f) {
        fclose(f);
        remove(tmp);
    }
    ZSTD_freeCCtx(cc);
    free(buf);
    free(offs);
    munmap(map, maplen);
    return rc;
}

static _Atomic uint64_t next_id = 1;

void eg_zunmap(eg_zlayer *z)
{
    if (z->base)
        munmap((void *)z->base, z->len);
    memset(z, 0, sizeof *z);
}

/* Every block decompressed once: the payload checksum and the histogram
   against the header, as the plain file's opening checks them; with out,
   the entries are kept there too. */
static int check_blocks(const eg_zlayer *z, const mc_egdb_info *info,
                        const char *path, uint8_t *out, mc_error *err)
{
    uint8_t *buf = out ? NULL : malloc(z->block);
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    if ((!out && !buf) || !dc) {
        free(buf);
        ZSTD_freeDCtx(dc);
        return mc_err(err, MC_ERR_NOMEM, "out of memory");
    }
    eg_sum s;
    eg_sum_init(&s, info->entries, 0);
    uint64_t hist[256] = {0};
    int rc = 0;
    for (uint64_t b = 0; b < z->nblocks && !rc; b++) {
        uint8_t *dst = out ? out + b * z->block : buf;
        if (out && block_len(z, b) < z->block) {
            /* The last block: a full-size frame buffer would overrun. */
            uint8_t *tail = malloc(z->block);
            if (!tail) {
                rc = mc_err(err, MC_ERR_NOMEM, "out of memory");
                break;
            }
            if (inflate_block(dc, z, b, tail) == 0)
                memcpy(dst, tail, block_len(z, b));
            else
                rc = -1;
            free(tail);
        } else if (inflate_block(dc, z, b, dst) != 0) {
            rc = -1;
        }
        if (rc == -1) {
            rc = mc_err(err, MC_ERR_IO,
                        "%s: block %llu does not decompress (damaged "
                        "entries)",
                        path, (unsigned long long)b);
            break;
        }
        uint64_t len = block_len(z, b);
        eg_sum_add(&s, dst, (size_t)len);
        for (uint64_t i = 0; i < len; i++)
            hist[dst[i]]++;
    }
    if (!rc && eg_sum_end(&s) != info->payload_sum)
        rc = mc_err(err, MC_ERR_IO,
                    "%s: payload checksum mismatch (damaged entries)", path);
    if (!rc) {
        uint64_t hp = 0;
        for (int v = 0; v < 128; v++) {
            hp += hist[v + 128];
            if (hist[v] + hist[v + 128] != info->hist[v])
                rc = 1;
        }
        if (rc || hp != info->history_proof)
            rc = mc_err(err, MC_ERR_IO,
                        "%s: the header's histogram does not match the "
                        "entries",
                        path);
    }
    free(buf);
    ZSTD_freeDCtx(dc);
    return rc;
}

static int zopen(const char *path, mc_egdb_info *info, eg_zlayer *z,
                 uint8_t **all, mc_error *err)
{
    memset(z, 0, sizeof *z);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return mc_err(err, MC_ERR_IO, "cannot open %s: %s", path,
                      strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        close(fd);
        return mc_err(err, MC_ERR_IO, "cannot stat %s", path);
    }
    size_t len = (size_t)sb.st_size;
    if (len < EG_HEADER_SIZE + ZHEAD) {
        close(fd);
        return mc_err(err, MC_ERR_IO,
                      "%s: truncated: %zu bytes, shorter than the headers",
                      path, len);
    }
    void *m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return mc_err(err, MC_ERR_IO, "cannot map %s: %s", path,
                      strerror(errno));
    z->base = m;
    z->len = len;
    int rc = eg_header_decode(m, len, info, path, err);
    const unsigned char *zh = z->base + EG_HEADER_SIZE;
    if (!rc && (memcmp(zh, zmagic, 8) != 0 ||
                eg_get32(zh + ZOFF_VERSION) != EG_ZVERSION))
        rc = mc_err(err, MC_ERR_IO, "%s: not a compressed layer of version %d",
                    path, EG_ZVERSION);
    if (!rc) {
        z->entries = info->entries;
        z->block = eg_get32(zh + ZOFF_BLOCK);
        z->nblocks = eg_get64(zh + ZOFF_NBLOCKS);
        uint64_t room = (len - EG_HEADER_SIZE - ZHEAD) / 8;
        if (z->block < 16 || z->block % 16 || z->block > (1u << 24) ||
            z->nblocks != (z->entries + z->block - 1) / z->block ||
            z->nblocks + 1 > room)
            rc = mc_err(err, MC_ERR_IO, "%s: inconsistent block index", path);
    }
    if (!rc) {
        z->offs = zh + ZHEAD;
        z->data = z->offs + 8 * (z->nblocks + 1);
        if (eg_get64(zh + ZOFF_SUM) != index_sum(zh, z->offs, z->nblocks))
            rc = mc_err(err, MC_ERR_IO,
                        "%s: block index checksum mismatch (damaged index)",
                        path);
    }
    if (!rc) {
        uint64_t avail = len - (uint64_t)(z->data - z->base), prev = 0;
        for (uint64_t b = 0; b <= z->nblocks && !rc; b++) {
            uint64_t o = off_at(z, b);
            if (o < prev || o > avail || (b == 0 && o != 0))
                rc = 1;
            prev = o;
        }
        if (rc || prev != avail)
            rc = mc_err(err, MC_ERR_IO,
                        "%s: %s (the block index does not fit the file)", path,
                        prev < avail ? "too long" : "truncated");
    }
    if (!rc && all) {
        *all = malloc(z->entries ? z->entries : 1);
        if (!*all)
            rc = mc_err(err, MC_ERR_NOMEM,
                        "out of memory for layer %d (%llu bytes)", info->n,
                        (unsigned long long)z->entries);
    }
    if (!rc)
        rc = check_blocks(z, info, path, all ? *all : NULL, err);
    if (rc) {
        if (all) {
            free(*all);
            *all = NULL;
        }
        eg_zunmap(z);
        return rc;
    }
    /* checked: the last block ends the file; the header's entries in
       nblocks blocks */
    assert(z->data + off_at(z, z->nblocks) == z->base + len);
    assert(z->nblocks * z->block >= z->entries);
    info->file_size = len;
    z->id = atomic_fetch_add(&next_id, 1);
    return 0;
}

int eg_zmap(const char *path, mc_egdb_info *info, eg_zlayer *z, mc_error *err)
{
    return zopen(path, info, z, NULL, err);
}

int eg_zload(const char *path, mc_egdb_info *info, uint8_t **entries,
             mc_error *err)
{
    eg_zlayer z;
    int rc = zopen(path, info, &z, entries, err);
    if (rc == 0)
        eg_zunmap(&z);
    return rc;
}

int eg_zinflate(const eg_zlayer *z, uint8_t *out)
{
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    uint8_t *tail = malloc(z->block);
    int rc = dc && tail ? 0 : -1;
    for (uint64_t b = 0; b < z->nblocks && !rc; b++) {
        uint64_t len = block_len(z, b);
        if (len == z->block) {
            rc = inflate_block(dc, z, b, out + b * z->block);
        } else {
            rc = inflate_block(dc, z, b, tail);
            if (!rc)
                memcpy(out + b * z->block, tail, (size_t)len);
        }
    }
    free(tail);
    ZSTD_freeDCtx(dc);
    return rc;
}

/* ---- probing: a few decompressed blocks per thread ----------------------- */

#define ZC_WAYS 256

typedef struct zcache {
    ZSTD_DCtx *dc;
    uint64_t id[ZC_WAYS], blk[ZC_WAYS];
    uint8_t *buf[ZC_WAYS];
    uint32_t size; /* bytes of each buf */
} zcache;

static pthread_key_t zc_key;
static pthread_once_t zc_once = PTHREAD_ONCE_INIT;

static void zc_free(void *p)
{
    zcache *c = p;
    ZSTD_freeDCtx(c->dc);
    for (int i = 0; i < ZC_WAYS; i++)
        free(c->buf[i]);
    free(c);
}

static void zc_init(void)
{
    pthread_key_create(&zc_key, zc_free);
}

/* The calling thread's cache, with buffers of at least block bytes. */
static zcache *zc_get(uint32_t block)
{
    pthread_once(&zc_once, zc_init);
    zcache *c = pthread_getspecific(zc_key);
    if (!c) {
        c = calloc(1, sizeof *c);
        if (!c || !(c->dc = ZSTD_createDCtx())) {
            free(c);
            return NULL;
        }
        pthread_setspecific(zc_key, c);
    }
    if (c->size < block) {
        for (int i = 0; i < ZC_WAYS; i++) {
            free(c->buf[i]);
            c->buf[i] = malloc(block);
            c->id[i] = 0;
            if (!c->buf[i]) {
                for (int j = 0; j <= i; j++) {
                    free(c->buf[j]);
                    c->buf[j] = NULL;
                }
                c->size = 0;
                return NULL;
            }
        }
        c->size = block;
    }
    return c;
}

int eg_zentry(const eg_zlayer *z, uint64_t rank)
{
    if (rank >= z->entries)
        return -1;
    zcache *c = zc_get(z->block);
    if (!c)
        return -1;
    uint64_t b = rank / z->block;
    mc_hot_assert(b < z->nblocks && c->size >= z->block);
    int w = (int)((b ^ (z->id * 0x9e3779b97f4a7c15ull >> 40)) % ZC_WAYS);
    if (c->id[w] != z->id || c->blk[w] != b) {
        c->id[w] = 0;
        if (inflate_block(c->dc, z, b, c->buf[w]) != 0)
            return -1;
        c->id[w] = z->id;
        c->blk[w] = b;
    }
    return c->buf[w][rank % z->block];
}

/* A layer file's header, checked as opening checks it, whichever its
   kind: here, above the plain format (file.c), which knows nothing of
   the compressed one. */
int mc_egdb_file_info(const char *path, mc_egdb_info *info, mc_error *err)
{
    if (eg_is_zpath(path)) {
        eg_zlayer z;
        int rc = eg_zmap(path, info, &z, err);
        if (rc == 0)
            eg_zunmap(&z);
        return rc;
    }
    const uint8_t *d;
    void *m;
    size_t len;
    int rc = eg_map_layer(path, info, &d, &m, &len, err);
    if (rc == 0)
        munmap(m, len);
    return rc;
}

/* ---- compressing a directory's layer ----------------------------------- */

int mc_egdb_compress(const char *dir, int preset, int n,
                     const mc_egdb_compress_opts *o, uint64_t *zsize,
                     mc_error *err)
{
    if (n < 0 || n > MC_EGDB_MAX_SEEDS)
        return mc_err(err, MC_ERR_ARG, "layer %d: must be 0..%d", n,
                      MC_EGDB_MAX_SEEDS);
    uint32_t block = o && o->block ? o->block : 1024;
    int level = o && o->level ? o->level : 9;
    if (level < 1 || level > ZSTD_maxCLevel())
        return mc_err(err, MC_ERR_ARG, "zstd level %d: must be 1..%d", level,
                      ZSTD_maxCLevel());
    char plain[4096], zpath[4096];
    mc_egdb_path(dir, preset, n, plain, sizeof plain);
    mc_egdb_zpath(dir, preset, n, zpath, sizeof zpath);
    struct stat st;
    mc_egdb_info pi, zi;
    if (stat(plain, &st) != 0) {
        if (stat(zpath, &st) != 0)
            return mc_err(err, MC_ERR_IO, "no layer %d in %s (no %s)", n, dir,
                          plain);
        if (zsize)
            *zsize = (uint64_t)st.st_size;
        return 0; /* compressed already */
    }
    int rc = eg_zcompress(plain, zpath, block, level, zsize, err);
    /* Read back, every block against the plain file's checksums. */
    if (rc == 0)
        rc = mc_egdb_file_info(plain, &pi, err);
    if (rc == 0)
        rc = mc_egdb_file_info(zpath, &zi, err);
    if (rc == 0 && zi.header_sum != pi.header_sum)
        rc = mc_err(err, MC_ERR_IO, "%s changed while compressing", plain);
    if (rc == 0 && !(o && o->keep_plain) && remove(plain) != 0)
        rc = mc_err(err, MC_ERR_IO, "cannot remove %s: %s", plain,
                    strerror(errno));
    return rc;
}
