/*
 * i18n.c - the players' languages (docs/TRANSLATING.md): message catalogs
 * in GNU gettext's binary format (.mo, made by msgfmt from the po/
 * folders' .po files), looked up per call in the calling thread's
 * language, as POSIX's uselocale() chooses a locale per thread.  Nothing
 * here reads the system's locales: a language needs no generated locale,
 * only a catalog.
 *
 * A thread's language is a chain of up to MAX_CHAIN languages (LANGUAGE's
 * "sw:fr", Accept-Language's "fr-CI, fr;q=0.9"); a message is looked up in
 * each in turn and falls back to its English original, one message at a
 * time: a half-translated catalog shows whole English sentences, never
 * half of one.  "en-XA" is the pseudo-language of the checks: every
 * message that passes through here comes out accented and lengthened, its
 * printf conversions, {placeholders}, <tags> and &entities; kept, so that
 * an English word left on a screen is one that did not.
 *
 * Catalogs are registered once (the library's own are built in; a
 * program adds its own with mc_lang_add) and never removed: lookups read
 * them without a lock.
 */
#include "core/i18n.h"

#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CATALOGS 64
#define MAX_CHAIN 4
#define TAG_MAX 24
#define PLURAL_NODES 48

/* A plural expression (the header's Plural-Forms "plural=..."), compiled
   into a tree of nodes: a C expression over n. */
typedef struct pnode {
    char op; /* 'n', '0' (number), '?', '!', or a binary operator code */
    unsigned long v;
    int a, b, c;
} pnode;

typedef struct catalog {
    char lang[TAG_MAX];
    const unsigned char *mo;
    size_t len;
    int swap; /* the file's words are big-endian */
    uint32_t n, orig, trans;
    int nplurals;
    int nnodes; /* 0: the English rule, n != 1 */
    pnode plural[PLURAL_NODES];
} catalog;

static catalog catalogs[MAX_CATALOGS];
static atomic_int n_catalogs;
static pthread_mutex_t add_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int builtin_done;
static pthread_mutex_t embed_lock = PTHREAD_MUTEX_INITIALIZER;

/* The calling thread's language: the tags as asked, and for each the
   catalogs it found when it was set (found again if a catalog is added
   later: gen counts the additions). */
typedef struct lang_state {
    char want[MAX_CHAIN][TAG_MAX];
    int nwant;
    int gen;
    int cats[MAX_CHAIN * 8];
    int ncats;
    int pseudo;
} lang_state;
static _Thread_local lang_state cur;
static _Thread_local int english; /* mc_i18n_english_begin's depth */

/* err filled (if not NULL) with code and the message: returns code.  (Not
   util.c's mc_err: util.c's messages are translated here, and no two
   files call each other.) */
static int fail(mc_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int fail(mc_error *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

static uint32_t word(const catalog *c, uint32_t off)
{
    const unsigned char *p = c->mo + off;
    if (c->swap)
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
               (uint32_t)p[2] << 8 | p[3];
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 |
           p[0];
}

/* String i of the originals' (tab = c->orig) or translations' table: its
   address and length, or NULL when the entry points outside the file. */
static const char *mo_string(const catalog *c, uint32_t tab, uint32_t i,
                             uint32_t *len)
{
    uint32_t e = tab + 8 * i;
    uint32_t l = word(c, e), off = word(c, e + 4);
    if (off >= c->len || l >= c->len - off || c->mo[off + l] != 0)
        return NULL;
    if (len)
        *len = l;
    return (const char *)c->mo + off;
}

/* ---- the plural expression ---------------------------------------------- */

typedef struct pparse {
    const char *s;
    catalog *c;
    int err;
} pparse;

static int pnew(pparse *p, char op, unsigned long v, int a, int b, int c)
{
    if (p->c->nnodes >= PLURAL_NODES) {
        p->err = 1;
        return 0;
    }
    pnode *nd = &p->c->plural[p->c->nnodes];
    nd->op = op;
    nd->v = v;
    nd->a = a;
    nd->b = b;
    nd->c = c;
    return p->c->nnodes++;
}

static void pspace(pparse *p)
{
    while (*p->s == ' ' || *p->s == '\t' || *p->s == '\n')
        p->s++;
}

static int pternary(pparse *p, int depth);

static int pprimary(pparse *p, int depth)
{
    pspace(p);
    if (depth > 200) {
        p->err = 1;
        return 0;
    }
    if (*p->s == '(') {
        p->s++;
        int e = pternary(p, depth + 1);
        pspace(p);
        if (*p->s != ')')
            p->err = 1;
        else
            p->s++;
        return e;
    }
    if (*p->s == '!') {
        p->s++;
        return pnew(p, '!', 0, pprimary(p, depth + 1), 0, 0);
    }
    if (*p->s == 'n') {
        p->s++;
        return pnew(p, 'n', 0, 0, 0, 0);
    }
    if (isdigit((unsigned char)*p->s)) {
        char *end;
        unsigned long v = strtoul(p->s, &end, 10);
        p->s = end;
        return pnew(p, '0', v, 0, 0, 0);
    }
    p->err = 1;
    return 0;
}

/* Binary operators by level, lowest first; two-character ones by a code. */
static const char *const levels[] = {"|", "&", "=N", "<>lg", "+-", "*/%"};

static int pop(pparse *p, int level)
{
    pspace(p);
    const char *s = p->s;
    char op = 0;
    int w = 1;
    if (s[0] == '|' && s[1] == '|')
        op = '|', w = 2;
    else if (s[0] == '&' && s[1] == '&')
        op = '&', w = 2;
    else if (s[0] == '=' && s[1] == '=')
        op = '=', w = 2;
    else if (s[0] == '!' && s[1] == '=')
        op = 'N', w = 2;
    else if (s[0] == '<' && s[1] == '=')
        op = 'l', w = 2;
    else if (s[0] == '>' && s[1] == '=')
        op = 'g', w = 2;
    else if (strchr("<>+-*/%", s[0]) && s[0])
        op = s[0];
    if (!op || !strchr(levels[level], op))
        return 0;
    p->s += w;
    return op;
}

static int pbinary(pparse *p, int level, int depth)
{
    if (level == 6)
        return pprimary(p, depth);
    int l = pbinary(p, level + 1, depth + 1);
    char op;
    while (!p->err && (op = (char)pop(p, level)))
        l = pnew(p, op, 0, l, pbinary(p, level + 1, depth + 1), 0);
    return l;
}

static int pternary(pparse *p, int depth)
{
    int c = pbinary(p, 0, depth + 1);
    pspace(p);
    if (*p->s != '?')
        return c;
    p->s++;
    int a = pternary(p, depth + 1);
    pspace(p);
    if (*p->s != ':') {
        p->err = 1;
        return 0;
    }
    p->s++;
    return pnew(p, '?', 0, c, a, pternary(p, depth + 1));
}

static unsigned long peval(const catalog *c, int i, unsigned long n, int depth)
{
    const pnode *nd = &c->plural[i];
    if (depth > PLURAL_NODES)
        return 0;
    unsigned long a = 0, b = 0;
    switch (nd->op) {
    case 'n':
        return n;
    case '0':
        return nd->v;
    case '!':
        return !peval(c, nd->a, n, depth + 1);
    case '?':
        return peval(c, nd->a, n, depth + 1) ? peval(c, nd->b, n, depth + 1)
                                             : peval(c, nd->c, n, depth + 1);
    case '|':
        return peval(c, nd->a, n, depth + 1) || peval(c, nd->b, n, depth + 1);
    case '&':
        return peval(c, nd->a, n, depth + 1) && peval(c, nd->b, n, depth + 1);
    default:
        a = peval(c, nd->a, n, depth + 1);
        b = peval(c, nd->b, n, depth + 1);
    }
    switch (nd->op) {
    case '=':
        return a == b;
    case 'N':
        return a != b;
    case '<':
        return a < b;
    case '>':
        return a > b;
    case 'l':
        return a <= b;
    case 'g':
        return a >= b;
    case '+':
        return a + b;
    case '-':
        return a - b;
    case '*':
        return a * b;
    case '/':
        return b ? a / b : 0;
    case '%':
        return b ? a % b : 0;
    }
    return 0;
}

/* The header's "Plural-Forms: nplurals=N; plural=EXPR;" (the translation
   of the empty message); English's rule when there is none. */
static int read_plural(catalog *c, const char *header, mc_error *err)
{
    c->nplurals = 2;
    c->nnodes = 0;
    const char *pf = header ? strstr(header, "Plural-Forms:") : NULL;
    if (!pf)
        return 0;
    const char *np = strstr(pf, "nplurals=");
    const char *ex = strstr(pf, "plural=");
    while (ex && ex > pf && ex[-1] == 'n') /* "nplurals=" holds "plural=" */
        ex = strstr(ex + 1, "plural=");
    if (!np || !ex)
        return fail(err, MC_ERR_ARG,
                    "Plural-Forms without nplurals or "
                    "plural");
    c->nplurals = atoi(np + 9);
    if (c->nplurals < 1 || c->nplurals > 6)
        return fail(err, MC_ERR_ARG, "Plural-Forms: nplurals=%d", c->nplurals);
    pparse p = {ex + 7, c, 0};
    pternary(&p, 0);
    pspace(&p);
    if (p.err || (*p.s != ';' && *p.s != 0)) {
        c->nnodes = 0;
        return fail(err, MC_ERR_ARG, "Plural-Forms: cannot read %.40s", ex);
    }
    return 0;
}

/* ---- catalogs ----------------------------------------------------------- */

/* A tag in one form: "fr_FR.UTF-8@euro" and "fr-fr" are "fr-FR"; a
   script subtag is title case ("sr-Latn"). */
static void norm_tag(const char *in, size_t n, char out[TAG_MAX])
{
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= n && k + 1 < TAG_MAX; i++) {
        char ch = i < n ? in[i] : 0;
        int sep = ch == '_' || ch == '-';
        if (!sep && !isalnum((unsigned char)ch)) {
            ch = 0; /* ".UTF-8", "@euro", ";q=", the end */
        }
        if (sep || !ch) {
            size_t l = k - start;
            for (size_t j = start; j < k && start > 0; j++)
                if (l == 2 || (l == 4 && j == start))
                    out[j] = (char)toupper((unsigned char)out[j]);
            if (!ch)
                break;
            out[k++] = '-';
            start = k;
            continue;
        }
        out[k++] = (char)tolower((unsigned char)ch);
    }
    if (k && out[k - 1] == '-')
        k--;
    out[k] = 0;
}

static int add_catalog(const char *lang, const void *mo, size_t len, int copy,
                       mc_error *err)
{
    if (!lang || !mo)
        return fail(err, MC_ERR_ARG, "no language or no catalog");
    char tag[TAG_MAX];
    norm_tag(lang, strlen(lang), tag);
    if (!tag[0])
        return fail(err, MC_ERR_ARG, "not a language tag: %.40s", lang);
    if (len < 28)
        return fail(err, MC_ERR_ARG, "%s: too short for a catalog", tag);
    catalog c;
    memset(&c, 0, sizeof c);
    memcpy(c.lang, tag, sizeof tag);
    c.mo = mo;
    c.len = len;
    const unsigned char *b = mo;
    if (b[0] == 0xde && b[1] == 0x12 && b[2] == 0x04 && b[3] == 0x95)
        c.swap = 0;
    else if (b[0] == 0x95 && b[1] == 0x04 && b[2] == 0x12 && b[3] == 0xde)
        c.swap = 1;
    else
        return fail(err, MC_ERR_ARG, "%s: not a .mo catalog", tag);
    if (word(&c, 4) >> 16)
        return fail(err, MC_ERR_ARG, "%s: unknown .mo revision", tag);
    c.n = word(&c, 8);
    c.orig = word(&c, 12);
    c.trans = word(&c, 16);
    if (c.n > len / 16 || c.orig > len || c.trans > len ||
        len - c.orig < 8 * (size_t)c.n || len - c.trans < 8 * (size_t)c.n)
        return fail(err, MC_ERR_ARG, "%s: tables outside the file", tag);
    const char *prev = NULL;
    const char *header = NULL;
    for (uint32_t i = 0; i < c.n; i++) {
        const char *o = mo_string(&c, c.orig, i, NULL);
        const char *t = mo_string(&c, c.trans, i, NULL);
        if (!o || !t)
            return fail(err, MC_ERR_ARG, "%s: string %u outside the file", tag,
                        i);
        if (prev && strcmp(prev, o) >= 0)
            return fail(err, MC_ERR_ARG,
                        "%s: messages not in order (not msgfmt's)", tag);
        if (!*o)
            header = t;
        prev = o;
    }
    if (read_plural(&c, header, err))
        return MC_ERR_ARG;
    if (copy) {
        void *own = malloc(len);
        if (!own)
            return fail(err, MC_ERR_NOMEM, "out of memory");
        memcpy(own, mo, len);
        c.mo = own;
    }
    pthread_mutex_lock(&add_lock);
    int k = atomic_load(&n_catalogs);
    if (k == MAX_CATALOGS) {
        pthread_mutex_unlock(&add_lock);
        if (copy)
            free((void *)c.mo);
        return fail(err, MC_ERR_NOMEM, "more than %d catalogs", MAX_CATALOGS);
    }
    catalogs[k] = c;
    atomic_store_explicit(&n_catalogs, k + 1, memory_order_release);
    pthread_mutex_unlock(&add_lock);
    return 0;
}

int mc_lang_add(const char *lang, const void *mo, size_t len, mc_error *err)
{
    return add_catalog(lang, mo, len, 1, err);
}

void mc_i18n_add_embedded(const mc_embedded_catalog *list)
{
    pthread_mutex_lock(&embed_lock);
    for (const mc_embedded_catalog *e = list; e && e->lang; e++) {
        int k = atomic_load(&n_catalogs), seen = 0;
        for (int i = 0; i < k; i++)
            seen |= catalogs[i].mo == (const unsigned char *)e->mo;
        if (!seen) {
            int rc = add_catalog(e->lang, e->mo, e->len, 0, NULL);
            assert(rc == 0); /* msgfmt's output, checked by make check-po */
            (void)rc;
        }
    }
    pthread_mutex_unlock(&embed_lock);
}

/* The library's own catalogs (build/gen/catalogs_lib.c, from the .po files of
   po/lib), registered on first use. */
static void add_builtin(void)
{
    if (atomic_load_explicit(&builtin_done, memory_order_acquire))
        return;
    mc_i18n_add_embedded(mc_catalogs_lib);
    atomic_store_explicit(&builtin_done, 1, memory_order_release);
}

/* The catalogs of the chain, in order: for each tag asked, those of that
   exact tag, then those of its language alone ("fr" for "fr-CI"). */
static void resolve(void)
{
    int k = atomic_load_explicit(&n_catalogs, memory_order_acquire);
    cur.ncats = 0;
    cur.gen = k;
    for (int w = 0; w < cur.nwant; w++) {
        char base[TAG_MAX];
        memcpy(base, cur.want[w], TAG_MAX);
        char *d = strchr(base, '-');
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 1) {
                if (!d)
                    break;
                *d = 0;
            }
            const char *t = pass ? base : cur.want[w];
            for (int i = 0; i < k; i++) {
                if (strcmp(catalogs[i].lang, t))
                    continue;
                int dup = 0;
                for (int j = 0; j < cur.ncats; j++)
                    dup |= cur.cats[j] == i;
                if (!dup &&
                    cur.ncats < (int)(sizeof cur.cats / sizeof *cur.cats))
                    cur.cats[cur.ncats++] = i;
            }
        }
    }
}

/* Accept-Language's weights: "fr-CI, fr;q=0.9, en;q=0.5" in order of q
   (stable), q=0 dropped; LANGUAGE's "sw:fr" in its order. */
static int parse_list(const char *s, char out[MAX_CHAIN][TAG_MAX])
{
    struct {
        char tag[TAG_MAX];
        double q;
    } items[16];
    int n = 0;
    while (s && *s && n < 16) {
        while (*s == ' ' || *s == ',' || *s == ':')
            s++;
        if (!*s)
            break;
        size_t l = strcspn(s, ",:");
        const char *semi = memchr(s, ';', l);
        double q = 1;
        if (semi) {
            const char *qs = strstr(semi, "q=");
            if (qs && qs < s + l)
                q = strtod(qs + 2, NULL);
        }
        norm_tag(s, semi ? (size_t)(semi - s) : l, items[n].tag);
        items[n].q = q;
        if (items[n].tag[0] && q > 0 && strcmp(items[n].tag, "*"))
            n++;
        s += l;
    }
    /* a stable sort by weight, highest first */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && items[j].q > items[j - 1].q; j--) {
            char t[TAG_MAX];
            double q = items[j].q;
            memcpy(t, items[j].tag, TAG_MAX);
            memcpy(items[j].tag, items[j - 1].tag, TAG_MAX);
            items[j].q = items[j - 1].q;
            memcpy(items[j - 1].tag, t, TAG_MAX);
            items[j - 1].q = q;
        }
    int m = 0;
    for (int i = 0; i < n && m < MAX_CHAIN; i++) {
        /* English ends the chain: what follows it would never be read */
        if (!strcmp(items[i].tag, "en") || !strncmp(items[i].tag, "en-", 3)) {
            if (!strcmp(items[i].tag, MC_LANG_PSEUDO))
                memcpy(out[m++], items[i].tag, TAG_MAX);
            break;
        }
        memcpy(out[m++], items[i].tag, TAG_MAX);
    }
    return m;
}

int mc_lang_use(const char *lang)
{
    add_builtin();
    memset(&cur, 0, sizeof cur);
    if (!lang)
        return 0;
    if (!strcmp(lang, "C") || !strcmp(lang, "POSIX"))
        return 0;
    cur.nwant = parse_list(lang, cur.want);
    cur.pseudo = cur.nwant > 0 && !strcmp(cur.want[0], MC_LANG_PSEUDO);
    resolve();
    return cur.ncats > 0 || cur.pseudo;
}

void mc_i18n_english_begin(void)
{
    english++;
}

void mc_i18n_english_end(void)
{
    assert(english > 0);
    english--;
}

int mc_i18n_wanted(const char **tags, int max)
{
    if (english)
        return 0;
    for (int i = 0; i < cur.nwant && i < max; i++)
        tags[i] = cur.want[i];
    return cur.nwant;
}

const char *mc_lang_get(void)
{
    return cur.nwant ? cur.want[0] : "en";
}

static const char *lookup(const catalog *c, const char *key, uint32_t *tlen)
{
    uint32_t lo = 0, hi = c->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const char *o = mo_string(c, c->orig, mid, NULL);
        int r = o ? strcmp(key, o) : -1;
        if (r == 0)
            return mo_string(c, c->trans, mid, tlen);
        if (r < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* ---- the pseudo-language ------------------------------------------------ */

/* Each ASCII letter's look-alike (UTF-8), so that no word of the pseudo-
   language is an ASCII word. */
static const char *const pseudo_lower[26] = {
    "á", "ƀ", "ç", "đ", "é", "ƒ", "ğ", "ĥ", "í", "ĵ", "ķ", "ļ", "ɱ",
    "ñ", "ö", "ƥ", "ʠ", "ŕ", "š", "ţ", "ü", "ṽ", "ŵ", "ẋ", "ý", "ž"};
static const char *const pseudo_upper[26] = {
    "Å", "Ɓ", "Ç", "Đ", "É", "Ƒ", "Ğ", "Ĥ", "Í", "Ĵ", "Ķ", "Ļ", "Ṁ",
    "Ñ", "Ö", "Ƥ", "Ǫ", "Ŕ", "Š", "Ţ", "Û", "Ṽ", "Ŵ", "Ẋ", "Ý", "Ž"};

/* Length of what is kept as it is at s: a printf conversion ("%-3d",
   "%1$s", "%%"), a {placeholder}, an <tag>, an &entity;, a long option
   (--lang: what a user types stays as it is in every language). */
static size_t pseudo_keep(const char *s)
{
    if (s[0] == '-' && s[1] == '-' && isalpha((unsigned char)s[2])) {
        size_t i = 2; /* an option, typed as it is: --lang */
        while (isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == '_')
            i++;
        return i;
    }
    if (s[0] == '%') {
        size_t i = 1;
        if (s[1] == '%')
            return 2;
        while (s[i] && strchr("0123456789$#-+ '.*hlLqjzt", s[i]))
            i++;
        return s[i] && isalpha((unsigned char)s[i]) ? i + 1 : 1;
    }
    const char *close = s[0] == '{' ? "}" : s[0] == '<' ? ">" : ";";
    if (s[0] == '{' || s[0] == '<' || s[0] == '&') {
        size_t i = 1;
        while (s[i] && s[i] != close[0] && s[i] != ' ' && i < 40)
            i++;
        if (s[0] == '<' && s[i] == ' ')
            while (s[i] && s[i] != '>')
                i++;
        if (s[i] == close[0] && i > 1)
            return i + 1;
    }
    return 0;
}

/* Appends the k bytes at s to out (n bytes) at *len, cut and ended there
   when they do not fit; *len counts them all. */
static void put(char *out, size_t n, size_t *len, const char *s, size_t k)
{
    for (size_t i = 0; i < k; i++, (*len)++)
        if (*len + 1 < n)
            out[*len] = s[i];
    if (n)
        out[*len < n ? *len : n - 1] = 0;
}

size_t mc_lang_pseudo(const char *in, char *out, size_t n)
{
    size_t len = 0;
    if (out && n)
        out[0] = 0;
    else
        n = 0;
    for (const char *s = in; *s;) {
        size_t k = pseudo_keep(s);
        if (k) {
            put(out, n, &len, s, k);
            s += k;
            continue;
        }
        unsigned char ch = (unsigned char)*s++;
        const char *w = ch >= 'a' && ch <= 'z'   ? pseudo_lower[ch - 'a']
                        : ch >= 'A' && ch <= 'Z' ? pseudo_upper[ch - 'A']
                                                 : NULL;
        if (!w) {
            put(out, n, &len, (const char *)&ch, 1);
            continue;
        }
        put(out, n, &len, w, strlen(w));
        if (strchr("aeiou", ch)) /* about a third longer, as German */
            put(out, n, &len, w, strlen(w));
    }
    return len;
}

/* The pseudo-language's texts, made once each and kept for the process
   (a message's address stays valid, as a catalog's does). */
typedef struct pseudo_entry {
    struct pseudo_entry *next;
    const char *key;
    char text[];
} pseudo_entry;
static pseudo_entry *pseudo_table[512];
static pthread_mutex_t pseudo_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *pseudo(const char *msgid)
{
    uint32_t h = 2166136261u;
    for (const char *s = msgid; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    pseudo_entry **slot = &pseudo_table[h % 512];
    pthread_mutex_lock(&pseudo_lock);
    for (pseudo_entry *e = *slot; e; e = e->next)
        if (!strcmp(e->key, msgid)) {
            pthread_mutex_unlock(&pseudo_lock);
            return e->text;
        }
    size_t need = mc_lang_pseudo(msgid, NULL, 0) + 1;
    size_t klen = strlen(msgid) + 1;
    pseudo_entry *e = malloc(sizeof *e + need + klen);
    if (!e) {
        pthread_mutex_unlock(&pseudo_lock);
        return msgid;
    }
    mc_lang_pseudo(msgid, e->text, need);
    e->key = e->text + need;
    memcpy(e->text + need, msgid, klen);
    e->next = *slot;
    *slot = e;
    pthread_mutex_unlock(&pseudo_lock);
    return e->text;
}

/* ---- lookups ------------------------------------------------------------ */

static void refresh(void)
{
    if (cur.nwant &&
        cur.gen != atomic_load_explicit(&n_catalogs, memory_order_acquire))
        resolve();
}

const char *mc_tr(const char *msgid)
{
    if (!msgid || !*msgid || !cur.nwant || english)
        return msgid;
    if (cur.pseudo)
        return pseudo(msgid);
    refresh();
    for (int i = 0; i < cur.ncats; i++) {
        const char *t = lookup(&catalogs[cur.cats[i]], msgid, NULL);
        if (t && *t)
            return t;
    }
    return msgid;
}

const char *mc_trc(const char *context, const char *msgid)
{
    if (!context || !msgid || !*msgid || !cur.nwant || english)
        return msgid;
    if (cur.pseudo)
        return pseudo(msgid);
    refresh();
    char key[512];
    int l = snprintf(key, sizeof key, "%s\004%s", context, msgid);
    if (l < 0 || (size_t)l >= sizeof key)
        return msgid;
    for (int i = 0; i < cur.ncats; i++) {
        const char *t = lookup(&catalogs[cur.cats[i]], key, NULL);
        if (t && *t)
            return t;
    }
    return msgid;
}

const char *mc_ntr(const char *msgid, const char *plural, unsigned long n)
{
    const char *en = n == 1 ? msgid : plural;
    if (!msgid || !plural || !cur.nwant || english)
        return en;
    if (cur.pseudo)
        return pseudo(en);
    refresh();
    for (int i = 0; i < cur.ncats; i++) {
        const catalog *c = &catalogs[cur.cats[i]];
        uint32_t len;
        const char *t = lookup(c, msgid, &len);
        if (!t)
            continue;
        unsigned long form =
            c->nnodes ? peval(c, c->nnodes - 1, n, 0) : (n != 1);
        if (form >= (unsigned long)c->nplurals)
            form = 0;
        /* the forms follow each other, each ended by its NUL */
        const char *end = t + len;
        for (unsigned long f = 0; f < form && t < end; f++)
            t += strlen(t) + 1;
        if (t < end && *t)
            return t;
    }
    return en;
}

/* ---- what the caller asks for ------------------------------------------- */

static const char *const side_word[] = {N_("South"), N_("North")};

const char *mc_side_word(int side)
{
    return mc_tr(side_word[side == MC_NORTH]);
}

const char *mc_lang_from_env(char *buf, size_t n)
{
    /* GNU gettext's order: LANGUAGE (a list) when a locale is asked at all,
       else the first of LC_ALL, LC_MESSAGES, LANG that is set. */
    const char *vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    const char *loc = NULL;
    for (int i = 0; i < 3 && !loc; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            loc = v;
    }
    const char *language = getenv("LANGUAGE");
    const char *pick = language && *language ? language : loc;
    if (!pick || !strcmp(pick, "C") || !strcmp(pick, "POSIX") ||
        !strncmp(pick, "C.", 2))
        pick = "";
    if (buf && n) {
        snprintf(buf, n, "%s", pick);
    }
    return buf;
}

int mc_lang_list(const char **tags, int max)
{
    add_builtin();
    int k = atomic_load_explicit(&n_catalogs, memory_order_acquire), m = 0;
    for (int i = 0; i < k; i++) {
        int dup = 0;
        for (int j = 0; j < i; j++)
            dup |= !strcmp(catalogs[j].lang, catalogs[i].lang);
        if (dup)
            continue;
        if (m < max && tags)
            tags[m] = catalogs[i].lang;
        m++;
    }
    return m;
}

const char *mc_lang_negotiate(const char *accept, char *buf, size_t n)
{
    add_builtin();
    char want[MAX_CHAIN][TAG_MAX];
    int m = parse_list(accept, want);
    int k = atomic_load_explicit(&n_catalogs, memory_order_acquire);
    const char *best = "en";
    for (int w = 0; w < m && !strcmp(best, "en"); w++) {
        if (!strcmp(want[w], MC_LANG_PSEUDO)) {
            best = MC_LANG_PSEUDO;
            break;
        }
        size_t bl = strcspn(want[w], "-");
        for (int i = 0; i < k; i++) {
            const char *t = catalogs[i].lang;
            if (!strcmp(t, want[w])) {
                best = t;
                break;
            }
            if (strlen(t) == bl && !strncmp(t, want[w], bl))
                best = t;
        }
    }
    if (buf && n)
        snprintf(buf, n, "%s", best);
    return buf;
}
