/*
 * server.c - the HTTP layer of `mancala serve` on libmicrohttpd.
 *
 * Who may ask: the Host header must name this server (its address,
 * localhost, a --host name; any IPv4 address when it listens on all), else
 * 421, so that a page whose name was rebound to this address reads nothing;
 * a request that changes anything (any method but GET and HEAD) must come
 * from the page's own origin (Origin, Sec-Fetch-Site; 403) and, for POST,
 * be JSON (415), so that no other site's page can post a form or a
 * text/plain body.  The seat token (Authorization: Bearer) and the
 * client's address go to the API, which decides what the token allows.
 *
 * Limits: connections per address and in all (libmicrohttpd's options), an
 * idle timeout, and a deadline for receiving each request that a trickle of
 * bytes does not reset (a watchdog thread shuts the sockets of requests
 * older than it); bodies are gathered up to MC_API_MAX_BODY (a larger
 * Content-Length or upload is answered 413 without being kept).  /api/
 * requests go to the JSON API, every other GET is looked up by exact name
 * among the embedded page files, so no URL can reach the file system.
 * Knows nothing about games.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "server.h"
#include "mime.h"
#include "../core/i18n.h"
#include "../core/util.h"

/* A connection as the watchdog sees it. */
typedef struct watch {
    int fd;
    double start;        /* when its current request began (connect, or the end
                            of the previous answer) */
    int receiving;       /* the request is not yet whole */
    struct in_addr peer; /* the address it comes from */
    int counted;         /* counted among its address's request connections */
    int excess;          /* over its address's limit: refused, closed */
    struct watch *prev, *next;
} watch;

struct mc_server {
    struct MHD_Daemon *d;
    mc_api *api;
    char bind[INET_ADDRSTRLEN];
    int any; /* listening on 0.0.0.0 */
    char **hosts;
    int nhosts;
    struct in_addr proxy;
    int has_proxy;
    double deadline;
    pthread_mutex_t lock; /* the watch list, stop */
    watch *conns;
    int stop;
    pthread_t dog;
    int dog_started;
    mc_web_file *site; /* the site folder's files (--site) */
    int nsite;
    unsigned per_ip;    /* request connections per address (not streams) */
    unsigned max_conns; /* request connections in all */
    /* Live event streams open, per client address (s->lock). */
    struct {
        char addr[64];
        int n;
    } sse_addr[MC_SSE_MAX];
    int sse_total;
};

/* One request's body as it arrives. */
typedef struct upload {
    char *buf;
    size_t len, cap;
    int too_big;
    int refused; /* answered at the headers already */
} upload;

static double now_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static enum MHD_Result send_buf(struct MHD_Connection *c, int status,
                                const char *type, const void *data, size_t len,
                                int copy)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(
        len, (void *)data,
        copy ? MHD_RESPMEM_MUST_COPY : MHD_RESPMEM_PERSISTENT);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "X-Frame-Options", "DENY");
    /* wasm-unsafe-eval: the engine's worker compiles its WebAssembly
       (never JavaScript from strings). */
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'; img-src 'self' data:; "
                            "script-src 'self' 'wasm-unsafe-eval'; "
                            "worker-src 'self'; frame-ancestors 'none'");
    enum MHD_Result ret = MHD_queue_response(c, (unsigned)status, r);
    MHD_destroy_response(r);
    return ret;
}

/* The language a request asks for: its lang query parameter (?lang=fr),
   else its Accept-Language header; NULL: English. */
static const char *request_lang(struct MHD_Connection *c)
{
    const char *l =
        MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "lang");
    if (!l || !*l)
        l = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept-Language");
    return l && *l ? l : NULL;
}

/* s as the inside of a JSON string, into out (cut to fit; a translation
   may hold any character). */
static void json_inside(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    for (; *s && k + 7 < cap; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') {
            out[k++] = '\\';
            out[k++] = (char)ch;
        } else if (ch < 0x20) {
            k += (size_t)snprintf(out + k, cap - k, "\\u%04x", ch);
        } else {
            out[k++] = (char)ch;
        }
    }
    out[k] = 0;
}

/* An error answered by the HTTP layer: msg (marked N_) in the request's
   language; the code as it is. */
static enum MHD_Result send_error(struct MHD_Connection *c, int status,
                                  const char *code, const char *msg)
{
    char m[768], b[1024];
    mc_lang_use(request_lang(c));
    json_inside(_(msg), m, sizeof m);
    mc_lang_use(NULL);
    int n =
        snprintf(b, sizeof b,
                 "{\"error\":{\"code\":\"%s\",\"message\":\"%s\"}}", code, m);
    if (n < 0 || (size_t)n >= sizeof b)
        n = (int)strlen(b);
    return send_buf(c, status, "application/json", b, (size_t)n, 1);
}

static enum MHD_Result serve_static(const mc_server *s,
                                    struct MHD_Connection *c, const char *url,
                                    const char *method)
{
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return send_error(c, 405, "method", N_("only GET here"));
    const char *name = url[0] == '/' ? url + 1 : url;
    if (!*name)
        name = "index.html";
    const mc_web_file *f = mc_web_find(name);
    for (int i = 0; !f && i < s->nsite; i++)
        if (strcmp(s->site[i].name, name) == 0)
            f = &s->site[i];
    if (!f)
        return send_error(c, 404, "not_found", N_("no such file"));
    return send_buf(c, 200, f->type, f->data, f->len, 0);
}

static const char *header(struct MHD_Connection *c, const char *name)
{
    return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}

/* The name part of a Host value ("name", "name:port", "[v6]:port") into
   out; 0 if it does not fit or is malformed. */
static int host_name(const char *host, char *out, size_t cap)
{
    size_t n;
    if (host[0] == '[') {
        const char *e = strchr(host, ']');
        if (!e || (e[1] && e[1] != ':'))
            return 0;
        n = (size_t)(e - host) + 1;
    } else {
        n = strcspn(host, ":");
    }
    if (n == 0 || n >= cap)
        return 0;
    memcpy(out, host, n);
    out[n] = 0;
    return 1;
}

/* May a request with this Host header reach us? */
static int host_ok(const mc_server *s, const char *host)
{
    if (!host)
        return 1; /* HTTP/1.0 without one: no browser sends that */
    char name[256];
    if (!host_name(host, name, sizeof name))
        return 0;
    for (int i = 0; i < s->nhosts; i++)
        if (strcasecmp(name, s->hosts[i]) == 0)
            return 1;
    struct in_addr ia;
    int ip = inet_pton(AF_INET, name, &ia) == 1;
    if (s->any)
        return ip || strcasecmp(name, "localhost") == 0;
    if (strcmp(name, s->bind) == 0)
        return 1;
    /* on a loopback address: localhost is this machine too */
    return strncmp(s->bind, "127.", 4) == 0 &&
           (strcasecmp(name, "localhost") == 0 || strcmp(name, "[::1]") == 0);
}

/* Does this state-changing request come from our own page (or from no
   page at all: curl and scripts send no Origin)? */
static int origin_ok(struct MHD_Connection *c)
{
    const char *site = header(c, "Sec-Fetch-Site");
    if (site && strcmp(site, "same-origin") != 0 && strcmp(site, "none") != 0)
        return 0;
    const char *origin = header(c, "Origin"), *host = header(c, "Host");
    if (!origin)
        return 1;
    if (!host)
        return 0;
    const char *rest = strncmp(origin, "http://", 7) == 0    ? origin + 7
                       : strncmp(origin, "https://", 8) == 0 ? origin + 8
                                                             : NULL;
    return rest && strcasecmp(rest, host) == 0;
}

static int json_type(const char *ct)
{
    if (!ct)
        return 0;
    while (*ct == ' ')
        ct++;
    size_t n = strlen("application/json");
    return strncasecmp(ct, "application/json", n) == 0 &&
           (ct[n] == 0 || ct[n] == ';' || ct[n] == ' ');
}

/* The client's address: the peer's, or behind our proxy the last
   X-Forwarded-For entry (the one the proxy added). */
static void client_addr(const mc_server *s, struct MHD_Connection *c, char *out,
                        size_t cap)
{
    snprintf(out, cap, "?");
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!ci || !ci->client_addr || ci->client_addr->sa_family != AF_INET)
        return;
    const struct sockaddr_in *sin = (const struct sockaddr_in *)ci->client_addr;
    inet_ntop(AF_INET, &sin->sin_addr, out, (socklen_t)cap);
    if (!s->has_proxy || sin->sin_addr.s_addr != s->proxy.s_addr)
        return;
    const char *xff = header(c, "X-Forwarded-For");
    if (!xff)
        return;
    const char *last = strrchr(xff, ',');
    last = last ? last + 1 : xff;
    while (*last == ' ')
        last++;
    size_t n = strcspn(last, " ");
    if (n > 0 && n < cap && n < 64) {
        memcpy(out, last, n);
        out[n] = 0;
    }
}

static watch *watch_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

static void set_receiving(mc_server *s, struct MHD_Connection *c, int on)
{
    watch *w = watch_of(c);
    if (!w)
        return;
    pthread_mutex_lock(&s->lock);
    w->receiving = on;
    if (on)
        w->start = now_mono();
    pthread_mutex_unlock(&s->lock);
}

/* ---- live events: GET /api/game/ID/events (Server-Sent Events) ----------
   Each change of the game (a move, an undo, a takeback asked, a join, the
   result) is sent as it is committed (and GET /api/seeks/events, the
   lobby's: "event: seeks" with the open seeks as GET /api/seeks gives them
   to a stranger, at each change of a seek): "id: VERSION", "event: state", and
   the state as GET /api/game/ID gives it (never a token: what anyone may
   read).  A reconnecting client sends Last-Event-ID and gets the state
   at once if it has changed meanwhile.  A comment every MC_SSE_BEAT
   seconds keeps the connection's idle timeout away.  An address holds at
   most MC_SSE_PER_ADDR streams and the server MC_SSE_MAX, so that streams
   can never take the slots other clients need. */

typedef struct sse {
    mc_server *s;
    int fd; /* the connection's socket: is the client still there? */
    char id[MC_API_ID_LEN + 1];
    char addr[64];
    char lang[64]; /* the language of the request that opened it */
    unsigned long since;
    int have_since, first, done;
    char *buf;
    size_t len, off;
} sse;

/* Count a stream for addr: 0, or -1 when the address or the server holds
   its most already. */
static int sse_take(mc_server *s, const char *addr)
{
    pthread_mutex_lock(&s->lock);
    int rc = -1, free_i = -1;
    for (int i = 0; i < MC_SSE_MAX; i++) {
        if (s->sse_addr[i].n && strcmp(s->sse_addr[i].addr, addr) == 0) {
            if (s->sse_addr[i].n < MC_SSE_PER_ADDR &&
                s->sse_total < MC_SSE_MAX) {
                s->sse_addr[i].n++;
                s->sse_total++;
                rc = 0;
            }
            pthread_mutex_unlock(&s->lock);
            return rc;
        }
        if (!s->sse_addr[i].n && free_i < 0)
            free_i = i;
    }
    if (free_i >= 0 && s->sse_total < MC_SSE_MAX) {
        snprintf(s->sse_addr[free_i].addr, sizeof s->sse_addr[free_i].addr,
                 "%s", addr);
        s->sse_addr[free_i].n = 1;
        s->sse_total++;
        rc = 0;
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

static void sse_free(void *cls)
{
    sse *e = cls;
    mc_server *s = e->s;
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < MC_SSE_MAX; i++)
        if (s->sse_addr[i].n && strcmp(s->sse_addr[i].addr, e->addr) == 0) {
            s->sse_addr[i].n--;
            s->sse_total--;
            break;
        }
    pthread_mutex_unlock(&s->lock);
    free(e->buf);
    free(e);
}

/* Has the client of a stream gone (closed its end)?  The stream's thread
   waits for the game, not on the socket: it looks every second, so that a
   closed page gives its address's stream back at once, not at the next
   heartbeat's failed write (issue 44: a reloaded page was refused 20 s). */
static int peer_gone(int fd)
{
    struct pollfd p = {fd, POLLIN, 0};
    if (fd < 0 || poll(&p, 1, 0) <= 0)
        return 0;
    if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
        return 1;
    char c;
    return recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0; /* end of file */
}

/* Wait up to MC_SSE_BEAT seconds for the game to change (mc_api_wait's
   answer), a second at a time; -2 when the client has gone. */
static int sse_wait(sse *e)
{
    for (double waited = 0; waited < MC_SSE_BEAT; waited += 1.0) {
        int rc = mc_api_wait(e->s->api, e->id, e->since, 1.0);
        if (rc != 0)
            return rc;
        if (peer_gone(e->fd))
            return -2;
    }
    return 0;
}

/* The next bytes of the stream; blocks (this connection's own thread)
   until there is something to send. */
static ssize_t sse_read(void *cls, uint64_t pos, char *out, size_t max)
{
    sse *e = cls;
    (void)pos;
    for (;;) {
        if (e->off < e->len) {
            size_t k = e->len - e->off < max ? e->len - e->off : max;
            memcpy(out, e->buf + e->off, k);
            e->off += k;
            return (ssize_t)k;
        }
        if (e->done)
            return MHD_CONTENT_READER_END_OF_STREAM;
        free(e->buf);
        e->buf = NULL;
        e->len = e->off = 0;
        int rc = e->first ? 1 : sse_wait(e);
        e->first = 0;
        if (rc == -2)
            return MHD_CONTENT_READER_END_WITH_ERROR;
        if (rc < 0)
            return MHD_CONTENT_READER_END_OF_STREAM;
        if (rc == 0) {
            e->buf = strdup(": ping\n\n");
            e->len = e->buf ? strlen(e->buf) : 0;
            if (!e->buf)
                return MHD_CONTENT_READER_END_WITH_ERROR;
            continue;
        }
        unsigned long v;
        if (mc_api_version(e->s->api, e->id, &v) != 0) {
            e->buf = strdup("event: gone\ndata: {}\n\n");
            e->len = e->buf ? strlen(e->buf) : 0;
            e->done = 1;
            continue;
        }
        if (e->have_since && v == e->since)
            continue;
        char path[64 + MC_API_ID_LEN];
        int lobby = strcmp(e->id, MC_API_LOBBY) == 0;
        if (lobby)
            snprintf(path, sizeof path, "/api/seeks");
        else
            snprintf(path, sizeof path, "/api/game/%s", e->id);
        mc_api_req rq = {
            "GET", path, NULL, 0, NULL, e->addr, e->lang[0] ? e->lang : NULL};
        mc_api_reply r;
        mc_api_handle(e->s->api, &rq, &r);
        if (r.status != 200 || !r.body || memchr(r.body, '\n', r.len)) {
            free(r.body);
            e->done = 1;
            continue;
        }
        size_t cap = r.len + 64;
        e->buf = malloc(cap);
        if (!e->buf) {
            free(r.body);
            return MHD_CONTENT_READER_END_WITH_ERROR;
        }
        e->len =
            (size_t)snprintf(e->buf, cap, "id: %lu\nevent: %s\ndata: %.*s\n\n",
                             v, lobby ? "seeks" : "state", (int)r.len, r.body);
        free(r.body);
        e->since = v;
        e->have_since = 1;
    }
}

/* "/api/game/ID/events": ID into id; "/api/seeks/events": MC_API_LOBBY;
   0 if the URL is neither. */
static int events_url(const char *url, char id[MC_API_ID_LEN + 1])
{
    if (strcmp(url, "/api/seeks/events") == 0) {
        snprintf(id, MC_API_ID_LEN + 1, "%s", MC_API_LOBBY);
        return 1;
    }
    const char *p = "/api/game/", *q = "/events";
    size_t lp = strlen(p), lq = strlen(q), n = strlen(url);
    if (n != lp + MC_API_ID_LEN + lq || strncmp(url, p, lp) != 0 ||
        strcmp(url + lp + MC_API_ID_LEN, q) != 0)
        return 0;
    memcpy(id, url + lp, MC_API_ID_LEN);
    id[MC_API_ID_LEN] = 0;
    return 1;
}

static enum MHD_Result serve_events(mc_server *s, struct MHD_Connection *c,
                                    const char *id)
{
    unsigned long v;
    if (mc_api_version(s->api, id, &v) != 0)
        return send_error(c, 404, "not_found", N_("no such game"));
    sse *e = calloc(1, sizeof *e);
    if (!e)
        return MHD_NO;
    e->s = s;
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    e->fd = ci ? ci->connect_fd : -1;
    snprintf(e->id, sizeof e->id, "%s", id);
    client_addr(s, c, e->addr, sizeof e->addr);
    const char *lang = request_lang(c);
    if (lang) { /* a long Accept-Language: its first whole entries */
        snprintf(e->lang, sizeof e->lang, "%s", lang);
        char *cut =
            strlen(lang) >= sizeof e->lang ? strrchr(e->lang, ',') : NULL;
        if (cut)
            *cut = 0;
    }
    e->first = 1;
    const char *last = header(c, "Last-Event-ID");
    if (last && *last) {
        char *end;
        unsigned long x = strtoul(last, &end, 10);
        if (!*end) {
            e->since = x;
            e->have_since = 1;
        }
    }
    if (sse_take(s, e->addr) != 0) {
        free(e);
        /* refused, and the connection closed: it does not stay to hold
           one of the address's request connections */
        char msg[1024], m[768];
        mc_lang_use(request_lang(c));
        json_inside(_("too many live streams from your address (close a "
                      "page, or watch fewer games)"),
                    m, sizeof m);
        mc_lang_use(NULL);
        int n =
            snprintf(msg, sizeof msg,
                     "{\"error\":{\"code\":\"rate\",\"message\":\"%s\"}}", m);
        if (n < 0 || (size_t)n >= sizeof msg)
            n = (int)strlen(msg);
        struct MHD_Response *r = MHD_create_response_from_buffer(
            (size_t)n, msg, MHD_RESPMEM_MUST_COPY);
        if (!r)
            return MHD_NO;
        MHD_add_response_header(r, "Content-Type", "application/json");
        MHD_add_response_header(r, "Connection", "close");
        enum MHD_Result ret = MHD_queue_response(c, 429, r);
        MHD_destroy_response(r);
        return ret;
    }
    /* A stream no longer takes one of its address's request connections. */
    watch *w = watch_of(c);
    pthread_mutex_lock(&s->lock);
    if (w)
        w->counted = 0;
    pthread_mutex_unlock(&s->lock);
    struct MHD_Response *r = MHD_create_response_from_callback(
        MHD_SIZE_UNKNOWN, 4096, sse_read, e, sse_free);
    if (!r) {
        sse_free(e);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", "text/event-stream");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Accel-Buffering",
                            "no"); /* nginx: no buffering */
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    enum MHD_Result ret = MHD_queue_response(c, 200, r);
    MHD_destroy_response(r);
    return ret;
}

/* Counts the Content-Length headers of a request. */
static enum MHD_Result count_length(void *cls, enum MHD_ValueKind kind,
                                    const char *key, const char *value)
{
    (void)kind;
    (void)value;
    if (strcasecmp(key, "Content-Length") == 0)
        ++*(int *)cls;
    return MHD_YES;
}

/* A request's headers: refuse at once what may not come in (a foreign
   Host, a change from another site's page, a POST that is not JSON, two
   lengths) and bodies announced larger than the API takes. */
static enum MHD_Result admit(const mc_server *s, struct MHD_Connection *c,
                             const char *method, upload *u)
{
    int reads = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    u->refused = 1;
    if (!host_ok(s, header(c, "Host")))
        return send_error(c, 421, "host",
                          N_("this server is not reached by that name "
                             "(mancala serve --host NAME allows one)"));
    if (!reads && !origin_ok(c))
        return send_error(c, 403, "origin",
                          N_("a request from another site's page is refused"));
    if (strcmp(method, "POST") == 0 && !json_type(header(c, "Content-Type")))
        return send_error(c, 415, "content_type",
                          N_("requests that change something are JSON "
                             "(Content-Type: application/json)"));
    int ncl = 0;
    MHD_get_connection_values(c, MHD_HEADER_KIND, count_length, &ncl);
    if (ncl > 1)
        return send_error(c, 400, "request",
                          N_("two Content-Length headers: the body's length "
                             "is not known"));
    const char *cl = header(c, "Content-Length");
    if (cl && strtoull(cl, NULL, 10) > MC_API_MAX_BODY) {
        u->too_big = 1;
        return send_error(c, 413, "too_large",
                          N_("the request body is too large"));
    }
    u->refused = 0;
    return MHD_YES;
}

/* A piece of the body (*size bytes of data), kept up to MC_API_MAX_BODY. */
static enum MHD_Result gather(struct MHD_Connection *c, upload *u,
                              const char *data, size_t *size)
{
    if (!u->too_big && !u->refused && u->len + *size <= MC_API_MAX_BODY) {
        size_t cap = mc_grow(&u->buf, u->cap, u->len + *size, 1, 1024);
        if (!cap)
            return MHD_NO;
        u->cap = cap;
        memcpy(u->buf + u->len, data, *size);
        u->len += *size;
    } else if (!u->too_big && !u->refused) {
        /* a body without a length (chunked) grown past the limit: the
           answer now, the rest not read (the connection then closes) */
        u->too_big = u->refused = 1;
        *size = 0;
        return send_error(c, 413, "too_large",
                          N_("the request body is too large"));
    }
    *size = 0;
    return MHD_YES;
}

/* A whole request to the JSON API: the seat token (Authorization: Bearer)
   and the client's address go with it; the answer is sent as it is. */
static enum MHD_Result answer_api(mc_server *s, struct MHD_Connection *c,
                                  const char *url, const char *method,
                                  const upload *u)
{
    char addr[64];
    client_addr(s, c, addr, sizeof addr);
    const char *auth = header(c, "Authorization");
    const char *token = NULL;
    if (auth && strncasecmp(auth, "Bearer ", 7) == 0)
        for (token = auth + 7; *token == ' ';)
            token++;
    mc_api_req rq = {method, url, u->buf, u->len, token, addr, request_lang(c)};
    mc_api_reply r;
    mc_api_handle(s->api, &rq, &r);
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(r.len, r.body, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(r.body);
        return MHD_NO;
    }
    MHD_add_response_header(resp, "Content-Type", r.type);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    enum MHD_Result ret = MHD_queue_response(c, (unsigned)r.status, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* libmicrohttpd's handler, called for a request's headers (first), each
   piece of its body, then once it is whole. */
static enum MHD_Result handle(void *cls, struct MHD_Connection *c,
                              const char *url, const char *method,
                              const char *version, const char *data,
                              size_t *size, void **con_cls)
{
    mc_server *s = cls;
    (void)version;
    upload *u = *con_cls;
    if (!u) {
        /* A connection over its address's limit: no answer, closed. */
        const watch *cw = watch_of(c);
        pthread_mutex_lock(&s->lock);
        int excess = cw && cw->excess;
        pthread_mutex_unlock(&s->lock);
        if (excess)
            return MHD_NO;
        u = calloc(1, sizeof *u);
        if (!u)
            return MHD_NO;
        *con_cls = u;
        return admit(s, c, method, u);
    }
    if (*size)
        return gather(c, u, data, size);
    set_receiving(s, c, 0); /* the request is whole: its answer may take time */
    if (u->refused)
        return MHD_YES;
    if (u->too_big)
        return send_error(c, 413, "too_large",
                          N_("the request body is too large"));
    if (strncmp(url, "/api/", 5) != 0 && strcmp(url, "/api") != 0)
        return serve_static(s, c, url, method);
    char eid[MC_API_ID_LEN + 1];
    if (strcmp(method, "GET") == 0 && events_url(url, eid))
        return serve_events(s, c, eid);
    return answer_api(s, c, url, method, u);
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode toe)
{
    (void)toe;
    upload *u = *con_cls;
    if (u) {
        free(u->buf);
        free(u);
        *con_cls = NULL;
    }
    set_receiving(cls, c, 1); /* the next request's deadline starts now */
}

/* The request connections open from peer (s->lock held). */
static unsigned conns_from(const mc_server *s, struct in_addr peer)
{
    unsigned n = 0;
    for (const watch *w = s->conns; w; w = w->next)
        n += w->counted && w->peer.s_addr == peer.s_addr;
    return n;
}

static void notify_conn(void *cls, struct MHD_Connection *c,
                        void **socket_context,
                        enum MHD_ConnectionNotificationCode toe)
{
    mc_server *s = cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        watch *w = calloc(1, sizeof *w);
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        if (!w || !ci) {
            free(w);
            *socket_context = NULL;
            return;
        }
        w->fd = ci->connect_fd;
        w->start = now_mono();
        w->receiving = 1;
        const union MHD_ConnectionInfo *ai =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        if (ai && ai->client_addr && ai->client_addr->sa_family == AF_INET)
            w->peer = ((const struct sockaddr_in *)ai->client_addr)->sin_addr;
        pthread_mutex_lock(&s->lock);
        /* An address's request connections past the limit are refused:
           nothing they send is answered, and the watchdog closes them (its
           event streams have room of their own). */
        if (conns_from(s, w->peer) >= s->per_ip)
            w->excess = 1;
        else
            w->counted = 1;
        w->next = s->conns;
        if (s->conns)
            s->conns->prev = w;
        s->conns = w;
        pthread_mutex_unlock(&s->lock);
        *socket_context = w;
    } else if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
        watch *w = *socket_context;
        if (!w)
            return;
        /* Out of the list before libmicrohttpd closes the socket: the
           watchdog never touches a closed (or reused) descriptor. */
        pthread_mutex_lock(&s->lock);
        if (w->prev)
            w->prev->next = w->next;
        else
            s->conns = w->next;
        if (w->next)
            w->next->prev = w->prev;
        pthread_mutex_unlock(&s->lock);
        free(w);
        *socket_context = NULL;
    }
}

/* Every quarter second: shut the sockets of requests still arriving after
   the deadline; their threads see the end and close them.  When three
   quarters of the connections are taken, a connection waiting for its
   request (an idle keep-alive one, or one trickling) gets a second, not
   the whole deadline: idle strangers cannot keep others out (issue 44). */
#define PRESSURE_IDLE 1.0
static void *watchdog(void *arg)
{
    mc_server *s = arg;
    struct timespec q = {0, 250 * 1000 * 1000};
    for (;;) {
        pthread_mutex_lock(&s->lock);
        int stop = s->stop;
        double now = now_mono();
        unsigned open = 0;
        for (watch *w = s->conns; w; w = w->next)
            open += w->counted;
        double limit =
            open * 4 >= s->max_conns * 3 ? PRESSURE_IDLE : s->deadline;
        for (watch *w = s->conns; !stop && w; w = w->next)
            if ((w->receiving && now - w->start > limit) || w->excess == 1) {
                shutdown(w->fd, SHUT_RDWR);
                w->receiving = 0; /* once */
                if (w->excess)
                    w->excess = 2;
            }
        pthread_mutex_unlock(&s->lock);
        if (stop)
            return NULL;
        nanosleep(&q, NULL);
    }
}

static void free_site(mc_server *s)
{
    for (int i = 0; i < s->nsite; i++) {
        free((char *)s->site[i].name);
        free((unsigned char *)s->site[i].data);
    }
    free(s->site);
    s->site = NULL;
    s->nsite = 0;
}

/* A file name a site may hold: letters, digits, '.', '-', '_', not
   starting with '.'. */
static int site_name_ok(const char *n)
{
    if (!*n || *n == '.' || strlen(n) > 100)
        return 0;
    for (const char *p = n; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '.' || *p == '-' || *p == '_'))
            return 0;
    return 1;
}

/* Read the site folder once: its plain files by name into memory (a file
   the program embeds keeps the embedded copy), within the limits; the
   server never reads the file system after this. */
static int load_site(mc_server *s, const char *dir, mc_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return mc_err(err, MC_ERR_IO, _("cannot read the site folder %s: %s"),
                      dir, strerror(errno));
    size_t total = 0;
    int rc = 0;
    struct dirent *de;
    while (!rc && (de = readdir(d))) {
        const char *n = de->d_name;
        char path[4096];
        struct stat st;
        if (!site_name_ok(n) || mc_web_find(n) ||
            snprintf(path, sizeof path, "%s/%s", dir, n) >= (int)sizeof path ||
            stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        total += (size_t)st.st_size;
        if (s->nsite == MC_SITE_MAX_FILES || total > MC_SITE_MAX_BYTES) {
            rc = mc_err(err, MC_ERR_ARG,
                        _("the site folder %s holds more than "
                          "%d files or %u MiB"),
                        dir, MC_SITE_MAX_FILES, MC_SITE_MAX_BYTES >> 20);
            break;
        }
        FILE *f = fopen(path, "rb");
        unsigned char *buf = malloc((size_t)st.st_size + 1);
        char *name = strdup(n);
        mc_web_file *grown =
            realloc(s->site, (size_t)(s->nsite + 1) * sizeof *grown);
        if (grown)
            s->site = grown;
        if (!f || !buf || !name || !grown ||
            fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
            rc = mc_err(err, MC_ERR_IO, _("cannot read %s"), path);
            free(buf);
            free(name);
        } else {
            s->site[s->nsite++] =
                (mc_web_file){name, mc_mime_type(n), buf, (size_t)st.st_size};
        }
        if (f)
            fclose(f);
    }
    closedir(d);
    return rc;
}

static void free_server(mc_server *s)
{
    free_site(s);
    for (int i = 0; i < s->nhosts; i++)
        free(s->hosts[i]);
    free(s->hosts);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

mc_server *mc_server_start(mc_api *api, const mc_server_opts *o, int *bound,
                           mc_error *err)
{
    const char *bind = o->bind ? o->bind : "127.0.0.1";
    int port = o->port;
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    if (port < 0 || port > 65535 ||
        inet_pton(AF_INET, bind, &sa.sin_addr) != 1) {
        err->code = MC_ERR_ARG;
        snprintf(err->msg, sizeof err->msg, "bad address or port: %s:%d", bind,
                 port);
        return NULL;
    }
    mc_server *s = calloc(1, sizeof *s);
    if (!s) {
        err->code = MC_ERR_IO;
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    s->api = api;
    snprintf(s->bind, sizeof s->bind, "%s", bind);
    s->any = sa.sin_addr.s_addr == htonl(INADDR_ANY);
    if (o->proxy) {
        if (inet_pton(AF_INET, o->proxy, &s->proxy) != 1) {
            err->code = MC_ERR_ARG;
            snprintf(err->msg, sizeof err->msg, "bad proxy address: %s",
                     o->proxy);
            free_server(s);
            return NULL;
        }
        s->has_proxy = 1;
    }
    for (int i = 0; o->hosts && o->hosts[i]; i++) {
        char **h = realloc(s->hosts, (size_t)(s->nhosts + 1) * sizeof *h);
        if (!h || !(h[s->nhosts] = strdup(o->hosts[i]))) {
            if (h)
                s->hosts = h;
            err->code = MC_ERR_IO;
            snprintf(err->msg, sizeof err->msg, "out of memory");
            free_server(s);
            return NULL;
        }
        s->hosts = h;
        s->nhosts++;
    }
    if (o->site && load_site(s, o->site, err) != 0) {
        free_server(s);
        return NULL;
    }
    mc_api_events(api, 1);
    s->deadline = o->deadline > 0 ? o->deadline : 10;
    unsigned per_ip = o->per_ip > 0 ? (unsigned)o->per_ip : 8;
    s->per_ip = per_ip;
    unsigned max_conns = o->max_conns > 0 ? (unsigned)o->max_conns : 128;
    s->max_conns = max_conns;
    unsigned idle = o->idle > 0 ? (unsigned)o->idle : 15;
    if (pthread_create(&s->dog, NULL, watchdog, s) != 0) {
        err->code = MC_ERR_IO;
        snprintf(err->msg, sizeof err->msg, "cannot start a thread");
        free_server(s);
        return NULL;
    }
    s->dog_started = 1;
    s->d = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION, 0,
        NULL, NULL, handle, s, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
        MHD_OPTION_NOTIFY_COMPLETED, completed, s, MHD_OPTION_NOTIFY_CONNECTION,
        notify_conn, s,
        /* event streams have room of their own: they never take the
           connections requests need (their own limits: sse_take) */
        MHD_OPTION_CONNECTION_LIMIT, max_conns + MC_SSE_MAX,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip + MC_SSE_PER_ADDR,
        MHD_OPTION_CONNECTION_TIMEOUT, idle, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)(64 * 1024), MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)128,
        MHD_OPTION_END);
    if (!s->d) {
        err->code = MC_ERR_IO;
        snprintf(err->msg, sizeof err->msg,
                 "cannot listen on %s port %d (in use?)", bind, port);
        mc_server_stop(s);
        return NULL;
    }
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
    if (bound)
        *bound = info ? info->port : port;
    return s;
}

void mc_server_stop(mc_server *s)
{
    if (!s)
        return;
    mc_api_events(s->api, 0); /* the streams end: their threads can go */
    if (s->d)
        MHD_stop_daemon(s->d);
    if (s->dog_started) {
        pthread_mutex_lock(&s->lock);
        s->stop = 1;
        pthread_mutex_unlock(&s->lock);
        pthread_join(s->dog, NULL);
    }
    free_server(s);
}
