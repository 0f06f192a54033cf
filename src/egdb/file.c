/*
 * file.c - the layer file format (docs/EGDB.md): a fixed little-endian
 * header of EG_HEADER_SIZE bytes (magic, versions, rules string, n, index
 * scheme, encoding, entry count, histogram, history-proof count,
 * approx_cycles, the checksums of the lower layers it was built from, the
 * payload checksum and the header checksum), then one byte per entry.
 * Writing goes to a temporary name renamed into place, so a killed build
 * never leaves a complete-looking file.  The compressed files build on
 * this one (zfile.c); it knows nothing of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/util.h"
#include "egdb_int.h"

static const char magic[8] = {'M', 'C', 'E', 'G', 'D', 'B', '\r', '\n'};

enum {
    OFF_MAGIC = 0,
    OFF_VERSION = 8,
    OFF_HSIZE = 12,
    OFF_GAME = 16,
    OFF_PRESET = 32,
    OFF_SPEC = 48,
    OFF_N = 176,
    OFF_SCHEME = 180,
    OFF_ENC = 184,
    OFF_BUILDER = 188,
    OFF_ENTRIES = 192,
    OFF_HIST = 200,
    OFF_HP = 1224,
    OFF_APPROX = 1232,
    OFF_NDEPS = 1236,
    OFF_DEPS = 1240,
    OFF_PSUM = 1624,
    OFF_HSUM = 1632
};

/* 16 bytes into the two lanes. */
static void sum_chunk(eg_sum *s, const unsigned char *b)
{
    uint64_t w, w2;
    memcpy(&w, b, 8);
    memcpy(&w2, b + 8, 8);
    s->h = (s->h ^ w) * 0x9e3779b97f4a7c15ull;
    s->h = (s->h << 29) | (s->h >> 35);
    s->h2 = (s->h2 ^ w2) * 0xc2b2ae3d27d4eb4full;
    s->h2 = (s->h2 << 31) | (s->h2 >> 33);
}

void eg_sum_init(eg_sum *s, uint64_t len, uint64_t seed)
{
    s->h = seed ^ 0x243f6a8885a308d3ull ^ len;
    s->h2 = 0x13198a2e03707344ull;
    s->nt = 0;
}

void eg_sum_add(eg_sum *s, const void *p, size_t len)
{
    const unsigned char *b = p;
    size_t i = 0;
    while (s->nt && i < len) { /* fill the pending chunk first */
        s->tail[s->nt++] = b[i++];
        if (s->nt == 16) {
            sum_chunk(s, s->tail);
            s->nt = 0;
        }
    }
    for (; i + 16 <= len; i += 16)
        sum_chunk(s, b + i);
    for (; i < len; i++)
        s->tail[s->nt++] = b[i];
}

uint64_t eg_sum_end(eg_sum *s)
{
    /* The last len % 16 bytes, one at a time. */
    for (size_t i = 0; i < s->nt; i++)
        s->h = (s->h ^ s->tail[i]) * 0x100000001b3ull;
    return mc_mix64(s->h ^ mc_mix64(s->h2));
}

uint64_t eg_checksum(const void *p, size_t len, uint64_t seed)
{
    eg_sum s;
    eg_sum_init(&s, (uint64_t)len, seed);
    eg_sum_add(&s, p, len);
    return eg_sum_end(&s);
}

void eg_layer_file(const char *dir, int preset, int n, const char *ext,
                   char *buf, size_t sz)
{
    snprintf(buf, sz, "%s%soware-%s-%02d%s", dir ? (*dir ? dir : ".") : "",
             dir ? "/" : "", mc_egdb_preset_name(preset), n, ext);
}

void mc_egdb_path(const char *dir, int preset, int n, char *buf, size_t sz)
{
    eg_layer_file(dir ? dir : "", preset, n, ".egdb", buf, sz);
}

/* The kind of the Oware layers of a preset. */
static void oware_kind(eg_kind *k, int preset)
{
    memset(k, 0, sizeof *k);
    k->game = "oware";
    k->preset = mc_egdb_preset_name(preset);
    k->scheme = EG_INDEX_SCHEME;
    k->houses = 12;
}

/* Header bytes of a layer (h must be EG_HEADER_SIZE, zeroed). */
static void header_encode(unsigned char *h, const mc_egdb_info *in,
                          const eg_kind *k)
{
    /* The fields fit (what is written is what header_check reads back):
       the names and the rules string whole, one dependency a layer
       below. */
    assert(strlen(k->game) < 16 && strlen(k->preset) < 16);
    assert(strlen(in->spec) < 128);
    assert(in->n >= 0 && in->n <= MC_EGDB_MAX_SEEDS);
    assert(in->ndeps == (uint32_t)in->n);
    /* the offsets: each field after the one before, inside the header */
    assert(OFF_HIST + 8 * 128 == OFF_HP && OFF_DEPS + 8 * 48 <= OFF_PSUM &&
           OFF_HSUM + 8 <= EG_HEADER_SIZE);
    memset(h, 0, EG_HEADER_SIZE);
    memcpy(h + OFF_MAGIC, magic, 8);
    eg_put32(h + OFF_VERSION, EG_FORMAT_VERSION);
    eg_put32(h + OFF_HSIZE, EG_HEADER_SIZE);
    memcpy(h + OFF_GAME, k->game, strlen(k->game) < 15 ? strlen(k->game) : 15);
    memcpy(h + OFF_PRESET, k->preset,
           strlen(k->preset) < 15 ? strlen(k->preset) : 15);
    size_t sl = strlen(in->spec);
    memcpy(h + OFF_SPEC, in->spec, sl < 127 ? sl : 127);
    eg_put32(h + OFF_N, (uint32_t)in->n);
    eg_put32(h + OFF_SCHEME, k->scheme);
    eg_put32(h + OFF_ENC, k->encoding ? k->encoding : EG_ENCODING);
    eg_put32(h + OFF_BUILDER, in->builder_version);
    eg_put64(h + OFF_ENTRIES, in->entries);
    for (int i = 0; i < 128; i++)
        eg_put64(h + OFF_HIST + 8 * i, in->hist[i]);
    eg_put64(h + OFF_HP, in->history_proof);
    eg_put32(h + OFF_APPROX, in->approx_cycles);
    eg_put32(h + OFF_NDEPS, in->ndeps);
    for (uint32_t i = 0; i < in->ndeps && i < MC_EGDB_MAX_SEEDS; i++)
        eg_put64(h + OFF_DEPS + 8 * i, in->dep_sum[i]);
    eg_put64(h + OFF_PSUM, in->payload_sum);
    eg_put64(h + OFF_HSUM, eg_checksum(h, OFF_HSUM, 0));
}

int eg_write_layer(const char *dir, mc_egdb_info *in, const uint8_t *data,
                   mc_error *err)
{
    char path[4096];
    mc_egdb_path(dir, in->preset, in->n, path, sizeof path);
    eg_kind k;
    oware_kind(&k, in->preset);
    return eg_write_file(path, &k, in, data, err);
}

int eg_write_file(const char *path, const eg_kind *k, mc_egdb_info *in,
                  const uint8_t *data, mc_error *err)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    /* a full layer holds every board of n seeds, a sparse one some */
    assert(k->sparse ? in->entries <= eg_layer_size_k(k->houses, in->n)
                     : in->entries == eg_layer_size_k(k->houses, in->n));
    in->format_version = EG_FORMAT_VERSION;
    uint64_t bytes = in->entries * (uint64_t)eg_kind_width(k);
    in->payload_sum = eg_checksum(data, bytes, 0);
    unsigned char h[EG_HEADER_SIZE];
    header_encode(h, in, k);
    in->header_sum = eg_get64(h + OFF_HSUM);
    in->file_size = EG_HEADER_SIZE + bytes;
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return mc_err(err, MC_ERR_IO, "cannot create %s: %s", tmp,
                      strerror(errno));
    int ok = fwrite(h, 1, EG_HEADER_SIZE, f) == EG_HEADER_SIZE &&
             fwrite(data, 1, bytes, f) == bytes;
    ok = (fflush(f) == 0) && ok;
    ok = (fsync(fileno(f)) == 0) && ok;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return mc_err(err, MC_ERR_IO, "cannot write %s: %s", path, strerror(e));
    }
    return 0;
}

/* Decode and check a header (everything but the payload and the
   dependencies) against the kind k, or, k NULL, as an Oware layer of
   either preset.  `what` names the file in messages. */
static int header_check(const unsigned char *h, size_t avail, mc_egdb_info *out,
                        const eg_kind *k, const char *what, mc_error *err)
{
    memset(out, 0, sizeof *out);
    if (avail < EG_HEADER_SIZE)
        return mc_err(err, MC_ERR_IO,
                      "%s: truncated: %zu bytes, shorter than the %d-byte "
                      "header",
                      what, avail, EG_HEADER_SIZE);
    if (memcmp(h, magic, 8) != 0)
        return mc_err(err, MC_ERR_IO,
                      "%s: not an endgame table (bad magic number)", what);
    out->format_version = eg_get32(h + OFF_VERSION);
    if (out->format_version != EG_FORMAT_VERSION)
        return mc_err(err, MC_ERR_IO,
                      "%s: unknown format version %u (this program reads "
                      "version %d)",
                      what, out->format_version, EG_FORMAT_VERSION);
    if (eg_get64(h + OFF_HSUM) != eg_checksum(h, OFF_HSUM, 0))
        return mc_err(err, MC_ERR_IO,
                      "%s: header checksum mismatch (damaged header)", what);
    char game[17] = {0}, preset[17] = {0};
    memcpy(game, h + OFF_GAME, 16);
    memcpy(preset, h + OFF_PRESET, 16);
    eg_kind ow;
    if (!k) {
        out->preset = eg_preset_by_name(preset);
        if (strcmp(game, "oware") != 0 || out->preset < 0)
            return mc_err(err, MC_ERR_IO, "%s: unknown preset '%s'", what,
                          preset);
        oware_kind(&ow, out->preset);
        k = &ow;
    } else if (strcmp(game, k->game) != 0 || strcmp(preset, k->preset) != 0) {
        return mc_err(err, MC_ERR_IO, "%s: a table of %s %s, not of %s %s",
                      what, game, preset, k->game, k->preset);
    }
    if (eg_get32(h + OFF_HSIZE) != EG_HEADER_SIZE ||
        eg_get32(h + OFF_SCHEME) != k->scheme ||
        eg_get32(h + OFF_ENC) != (k->encoding ? k->encoding : EG_ENCODING))
        return mc_err(err, MC_ERR_IO,
                      "%s: unknown header size, index scheme or entry "
                      "encoding",
                      what);
    memcpy(out->spec, h + OFF_SPEC, 127);
    out->spec[127] = 0;
    out->n = (int)eg_get32(h + OFF_N);
    out->builder_version = eg_get32(h + OFF_BUILDER);
    out->entries = eg_get64(h + OFF_ENTRIES);
    for (int i = 0; i < 128; i++)
        out->hist[i] = eg_get64(h + OFF_HIST + 8 * i);
    out->history_proof = eg_get64(h + OFF_HP);
    out->approx_cycles = eg_get32(h + OFF_APPROX);
    out->ndeps = eg_get32(h + OFF_NDEPS);
    for (uint32_t i = 0; i < out->ndeps && i < MC_EGDB_MAX_SEEDS; i++)
        out->dep_sum[i] = eg_get64(h + OFF_DEPS + 8 * i);
    out->payload_sum = eg_get64(h + OFF_PSUM);
    out->header_sum = eg_get64(h + OFF_HSUM);
    if (out->n < 0 || out->n > MC_EGDB_MAX_SEEDS ||
        (k->sparse ? out->entries > eg_layer_size_k(k->houses, out->n)
                   : out->entries != eg_layer_size_k(k->houses, out->n)) ||
        out->ndeps != (uint32_t)out->n)
        return mc_err(err, MC_ERR_IO,
                      "%s: inconsistent header (n=%d, %llu entries)", what,
                      out->n, (unsigned long long)out->entries);
    char want[128] = "?";
    int same;
    if (k == &ow) {
        mc_game *g = mc_game_new(eg_preset_spec(out->preset), NULL);
        if (g)
            eg_full_spec(g, want, sizeof want);
        same = g && strcmp(want, out->spec) == 0;
        mc_game_free(g);
    } else {
        snprintf(want, sizeof want, "%s", k->spec);
        same = strcmp(want, out->spec) == 0;
    }
    if (!same)
        return mc_err(err, MC_ERR_IO, "%s: built for the rules '%s', not '%s'",
                      what, out->spec, want);
    return 0;
}

int eg_header_decode(const unsigned char *h, size_t avail, mc_egdb_info *out,
                     const char *what, mc_error *err)
{
    return header_check(h, avail, out, NULL, what, err);
}

int eg_map_layer(const char *path, mc_egdb_info *info, const uint8_t **data,
                 void **map, size_t *maplen, mc_error *err)
{
    return eg_map_file(path, NULL, info, data, map, maplen, err);
}

int eg_map_file(const char *path, const eg_kind *k, mc_egdb_info *info,
                const uint8_t **data, void **map, size_t *maplen, mc_error *err)
{
    *map = NULL;
    *data = NULL;
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
    if (len < EG_HEADER_SIZE) {
        close(fd);
        return mc_err(err, MC_ERR_IO,
                      "%s: truncated: %zu bytes, shorter than the %d-byte "
                      "header",
                      path, len, EG_HEADER_SIZE);
    }
    void *m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return mc_err(err, MC_ERR_IO, "cannot map %s: %s", path,
                      strerror(errno));
    int rc = header_check(m, len, info, k, path, err);
    uint64_t w = (uint64_t)eg_kind_width(k);
    uint64_t want = EG_HEADER_SIZE + info->entries * w;
    if (rc == 0 && len != want)
        rc =
            mc_err(err, MC_ERR_IO,
                   "%s: %s: %zu bytes, expected %llu (header + %llu "
                   "entries)",
                   path, len < want ? "truncated" : "too long", len,
                   (unsigned long long)want, (unsigned long long)info->entries);
    const uint8_t *d = (const uint8_t *)m + EG_HEADER_SIZE;
    if (rc == 0 && eg_checksum(d, info->entries * w, 0) != info->payload_sum)
        rc = mc_err(err, MC_ERR_IO,
                    "%s: payload checksum mismatch (damaged entries)", path);
    if (rc == 0) {
        /* The histogram in the header must describe the payload (the
           value byte of each entry). */
        uint64_t hist[256] = {0}, hp = 0;
        for (uint64_t i = 0; i < info->entries; i++)
            hist[d[i * w]]++;
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
    if (rc) {
        munmap(m, len);
        return rc;
    }
    /* checked: the header and exactly its entries */
    assert(len == EG_HEADER_SIZE + info->entries * w);
    info->file_size = len;
    *map = m;
    *maplen = len;
    *data = d;
    return 0;
}
