/*
 * server.c - the HTTP layer of `mancala serve` on libmicrohttpd.  Bodies are
 * gathered up to MC_API_MAX_BODY (a larger Content-Length or upload is
 * answered 413 without being kept), /api/ requests go to the JSON API, and
 * every other GET is looked up by exact name among the embedded page files,
 * so no URL can reach the file system.  Knows nothing about games.
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "server.h"
#include "../core/util.h"

struct mc_server {
    struct MHD_Daemon *d;
    mc_api *api;
};

/* One request's body as it arrives. */
typedef struct upload {
    char *buf;
    size_t len, cap;
    int too_big;
} upload;

static enum MHD_Result send_buf(struct MHD_Connection *c, int status,
                                const char *type, const void *data, size_t len,
                                int copy)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(
        len, (void *)data, copy ? MHD_RESPMEM_MUST_COPY : MHD_RESPMEM_PERSISTENT);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'; img-src 'self' data:");
    enum MHD_Result ret = MHD_queue_response(c, (unsigned)status, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result send_error(struct MHD_Connection *c, int status,
                                  const char *code, const char *msg)
{
    char b[512];
    int n = snprintf(b, sizeof b,
                     "{\"error\":{\"code\":\"%s\",\"message\":\"%s\"}}", code,
                     msg);
    return send_buf(c, status, "application/json", b, (size_t)n, 1);
}

static enum MHD_Result serve_static(struct MHD_Connection *c, const char *url,
                                    const char *method)
{
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return send_error(c, 405, "method", "only GET here");
    const char *name = url[0] == '/' ? url + 1 : url;
    if (!*name)
        name = "index.html";
    const mc_web_file *f = mc_web_find(name);
    if (!f)
        return send_error(c, 404, "not_found", "no such file");
    return send_buf(c, 200, f->type, f->data, f->len, 0);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c,
                              const char *url, const char *method,
                              const char *version, const char *data,
                              size_t *size, void **con_cls)
{
    mc_server *s = cls;
    (void)version;
    upload *u = *con_cls;
    if (!u) {
        /* First call: headers only.  Refuse oversized bodies at once. */
        u = calloc(1, sizeof *u);
        if (!u)
            return MHD_NO;
        *con_cls = u;
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                     "Content-Length");
        if (cl && strtoull(cl, NULL, 10) > MC_API_MAX_BODY) {
            u->too_big = 1;
            return send_error(c, 413, "too_large",
                              "the request body is too large");
        }
        return MHD_YES;
    }
    if (*size) {
        if (!u->too_big && u->len + *size <= MC_API_MAX_BODY) {
            size_t cap = mc_grow(&u->buf, u->cap, u->len + *size, 1, 1024);
            if (!cap)
                return MHD_NO;
            u->cap = cap;
            memcpy(u->buf + u->len, data, *size);
            u->len += *size;
        } else {
            u->too_big = 1;
        }
        *size = 0;
        return MHD_YES;
    }
    if (u->too_big)
        return send_error(c, 413, "too_large", "the request body is too large");
    if (strncmp(url, "/api/", 5) != 0 && strcmp(url, "/api") != 0)
        return serve_static(c, url, method);
    mc_api_reply r;
    mc_api_handle(s->api, method, url, u->buf, u->len, &r);
    struct MHD_Response *resp = MHD_create_response_from_buffer(
        r.len, r.body, MHD_RESPMEM_MUST_FREE);
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

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode toe)
{
    (void)cls, (void)c, (void)toe;
    upload *u = *con_cls;
    if (u) {
        free(u->buf);
        free(u);
        *con_cls = NULL;
    }
}

mc_server *mc_server_start(mc_api *api, const char *bind, int port, int *bound,
                           mc_error *err)
{
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    if (port < 0 || port > 65535 ||
        inet_pton(AF_INET, bind ? bind : "127.0.0.1", &sa.sin_addr) != 1) {
        err->code = MC_ERR_ARG;
        snprintf(err->msg, sizeof err->msg, "bad address or port: %s:%d",
                 bind ? bind : "127.0.0.1", port);
        return NULL;
    }
    mc_server *s = calloc(1, sizeof *s);
    if (!s) {
        err->code = MC_ERR_IO;
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    s->api = api;
    s->d = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION, 0,
        NULL, NULL, handle, s, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
        MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)64,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)60,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
        MHD_OPTION_END);
    if (!s->d) {
        err->code = MC_ERR_IO;
        snprintf(err->msg, sizeof err->msg,
                 "cannot listen on %s port %d (in use?)",
                 bind ? bind : "127.0.0.1", port);
        free(s);
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
    MHD_stop_daemon(s->d);
    free(s);
}
