/*
 * test_server.c - the browser board's server, spoken to over HTTP: the
 * server runs in this process on an ephemeral port of 127.0.0.1 and a tiny
 * client sends raw requests.  Every endpoint of docs/API.md, its errors,
 * size limits, path traversal, and a restart that must lose nothing.
 */
#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "server/server.h"

static int port;

typedef struct resp {
    int status;
    char *body; /* malloc'd, NUL-terminated */
    json_t *json;
} resp;

/* Send raw bytes, read the whole answer (the request says Connection:
   close). */
static resp raw(const char *req, size_t len)
{
    resp r = {0, NULL, NULL};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        if (fd >= 0)
            close(fd);
        return r;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = send(fd, req + off, len - off, MSG_NOSIGNAL);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    ssize_t got;
    while ((got = recv(fd, buf + n, cap - n - 1, 0)) > 0) {
        n += (size_t)got;
        if (n + 1 >= cap)
            buf = realloc(buf, cap *= 2);
    }
    close(fd);
    buf[n] = 0;
    sscanf(buf, "HTTP/1.%*d %d", &r.status);
    char *b = strstr(buf, "\r\n\r\n");
    r.body = strdup(b ? b + 4 : "");
    free(buf);
    r.json = json_loads(r.body, 0, NULL);
    return r;
}

static resp req(const char *method, const char *path, const char *body)
{
    size_t bl = body ? strlen(body) : 0;
    char *m = malloc(bl + 512);
    int n = sprintf(m,
                    "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                    "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n",
                    method, path, bl);
    memcpy(m + n, body ? body : "", bl);
    resp r = raw(m, (size_t)n + bl);
    free(m);
    return r;
}

static void done(resp *r)
{
    free(r->body);
    json_decref(r->json);
}

static const char *jstr(json_t *j, const char *path)
{
    /* "state.position" */
    char key[64];
    while (j && *path) {
        size_t k = strcspn(path, ".");
        snprintf(key, sizeof key, "%.*s", (int)k, path);
        j = json_object_get(j, key);
        path += k + (path[k] == '.');
    }
    return json_is_string(j) ? json_string_value(j) : "";
}

static json_t *jget(json_t *j, const char *a, const char *b)
{
    j = json_object_get(j, a);
    return b ? json_object_get(j, b) : j;
}

/* A new game; returns its id in id. */
static int new_game(const char *body, char *id)
{
    resp r = req("POST", "/api/new", body);
    int st = r.status;
    snprintf(id, 13, "%s", jstr(r.json, "state.id"));
    done(&r);
    return st;
}

static void post_game(const char *id, const char *act, const char *body,
                      resp *out)
{
    char p[128];
    snprintf(p, sizeof p, "/api/game/%s/%s", id, act);
    *out = req("POST", p, body);
}

static void test_static(void)
{
    resp r = req("GET", "/", NULL);
    CHECK(r.status == 200 && strstr(r.body, "<html") != NULL);
    done(&r);
    r = req("GET", "/app.js", NULL);
    CHECK(r.status == 200 && strlen(r.body) > 100);
    done(&r);
    /* path traversal: only embedded names answer */
    const char *bad[] = {"/../../../etc/passwd", "/..%2f..%2fetc%2fpasswd",
                         "/web/index.html", "/%2e%2e/Makefile", "//etc/passwd",
                         "/index.html/../../Makefile"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        r = req("GET", bad[i], NULL);
        CHECK_MSG(r.status == 404 || r.status == 400, "%s: %d", bad[i], r.status);
        CHECK(strstr(r.body, "root:") == NULL);
        done(&r);
    }
    r = req("POST", "/index.html", "{}");
    CHECK(r.status == 405);
    done(&r);
}

static void test_games_and_new(void)
{
    resp r = req("GET", "/api/games", NULL);
    CHECK(r.status == 200);
    CHECK(json_array_size(jget(r.json, "games", NULL)) == 4);
    done(&r);

    char id[13];
    CHECK(new_game("{\"game\":\"oware\",\"south\":\"Ama\"}", id) == 201);
    CHECK(strlen(id) == 12);
    char p[64];
    snprintf(p, sizeof p, "/api/game/%s", id);
    r = req("GET", p, NULL);
    CHECK(r.status == 200);
    CHECK_STR(jstr(r.json, "state.position"), "4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0");
    CHECK_STR(jstr(r.json, "state.tags.South"), "Ama");
    CHECK(json_array_size(jget(r.json, "state", "moves")) == 6);
    CHECK(json_array_size(jget(r.json, "state", "pits")) == 12);
    done(&r);

    /* options and a start position */
    CHECK(new_game("{\"game\":\"oware:awari\"}", id) == 201);
    CHECK(new_game("{\"game\":\"omweso:setup=all2\"}", id) == 201);
    CHECK(new_game("{\"game\":\"gore\",\"position\":\"1,0,1,9/0,1,0,1 S "
                   "own=SSSSNNNN cap=20,15\"}", id) == 201);
    /* errors name the culprit */
    r = req("POST", "/api/new", "{\"game\":\"owary\"}");
    CHECK(r.status == 422 && strstr(jstr(r.json, "error.message"), "owary"));
    done(&r);
    r = req("POST", "/api/new", "{\"game\":\"oware:grand_slam=maybe\"}");
    CHECK(r.status == 422 && strstr(jstr(r.json, "error.message"), "grand_slam"));
    done(&r);
    r = req("POST", "/api/new", "{\"game\":\"oware\",\"position\":\"1,2,3\"}");
    CHECK(r.status == 422 && strcmp(jstr(r.json, "error.code"), "position") == 0);
    done(&r);
}

static void test_json_errors(void)
{
    const char *bad[] = {"{", "[]", "{\"game\":\"oware\",}", "{\"game\":1}",
                         "{\"game\":\"oware\",\"game\":\"gore\"}",
                         "{\"game\":\"oware\"} x", "{\"gmae\":\"oware\"}", "{}",
                         "nul", "\"oware\""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        resp r = req("POST", "/api/new", bad[i]);
        CHECK_MSG(r.status == 400, "%s: %d", bad[i], r.status);
        CHECK(strcmp(jstr(r.json, "error.code"), "json") == 0);
        CHECK(*jstr(r.json, "error.message"));
        done(&r);
    }
    /* a NUL byte inside the body */
    char m[] = "POST /api/new HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
               "Content-Length: 17\r\n\r\n{\"game\":\"ow\0are\"}";
    resp r = raw(m, sizeof m - 1);
    CHECK(r.status == 400);
    done(&r);
}

static void test_limits(void)
{
    size_t n = MC_API_MAX_BODY + 100;
    char *big = malloc(n + 1);
    memset(big, ' ', n);
    big[n] = 0;
    big[0] = '{';
    big[n - 1] = '}';
    resp r = req("POST", "/api/new", big);
    CHECK(r.status == 413);
    done(&r);
    /* a Content-Length larger than the limit is refused before the body */
    char h[256];
    snprintf(h, sizeof h,
             "POST /api/new HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
             "Content-Length: 99999999\r\n\r\n{}");
    r = raw(h, strlen(h));
    CHECK(r.status == 413 || r.status == 0);
    done(&r);
    free(big);
    r = req("GET", "/api/nothing", NULL);
    CHECK(r.status == 404);
    done(&r);
    r = req("GET", "/api/game/zzzzzzzzzzzz", NULL);
    CHECK(r.status == 404);
    done(&r);
    r = req("GET", "/api/game/../../etc", NULL);
    CHECK(r.status == 404);
    done(&r);
    r = req("DELETE", "/api/games", NULL);
    CHECK(r.status == 405);
    done(&r);
}

static void test_play(void)
{
    char id[13];
    new_game("{\"game\":\"oware\"}", id);
    resp r;
    post_game(id, "play", "{\"move\":\"C\"}", &r);
    CHECK(r.status == 200);
    CHECK_STR(jstr(r.json, "move"), "C");
    CHECK_STR(jstr(r.json, "state.position"), "4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0");
    json_t *tr = json_object_get(r.json, "trace");
    CHECK(json_array_size(tr) >= 5); /* a lift and four drops at least */
    CHECK_STR(jstr(json_array_get(tr, 0), "kind"), "lift");
    CHECK(*jstr(json_array_get(tr, 1), "text"));
    done(&r);
    /* illegal and malformed moves, with the reason */
    post_game(id, "play", "{\"move\":\"C\"}", &r);
    CHECK(r.status == 422);
    CHECK(*jstr(r.json, "error.message"));
    done(&r);
    post_game(id, "play", "{\"move\":\"zz\"}", &r);
    CHECK(r.status == 422);
    done(&r);
    post_game(id, "play", "{}", &r);
    CHECK(r.status == 400);
    done(&r);
    /* a stale version is refused */
    post_game(id, "play", "{\"move\":\"a\",\"version\":0}", &r);
    CHECK(r.status == 409);
    done(&r);
    post_game(id, "play", "{\"move\":\"a\",\"version\":1}", &r);
    CHECK(r.status == 200);
    done(&r);
    /* undo, redo */
    post_game(id, "undo", NULL, &r);
    CHECK(r.status == 200 && json_integer_value(jget(r.json, "state", "ply")) == 1);
    done(&r);
    post_game(id, "redo", NULL, &r);
    CHECK(r.status == 200 && json_integer_value(jget(r.json, "state", "ply")) == 2);
    done(&r);
    post_game(id, "redo", NULL, &r);
    CHECK(r.status == 409);
    done(&r);
    /* hint and engine move at a level, with a budget */
    post_game(id, "hint", "{\"level\":2,\"seconds\":0.2}", &r);
    CHECK(r.status == 200 && strlen(jstr(r.json, "hint")) == 1);
    CHECK(json_integer_value(jget(r.json, "state", "ply")) == 2);
    done(&r);
    post_game(id, "engine", "{\"level\":5,\"nodes\":2000}", &r);
    CHECK(r.status == 200 && *jstr(r.json, "move"));
    CHECK(json_integer_value(jget(r.json, "state", "ply")) == 3);
    done(&r);
    post_game(id, "engine", "{\"level\":11}", &r);
    CHECK(r.status == 400);
    done(&r);
    post_game(id, "engine", "{\"seconds\":1000}", &r);
    CHECK(r.status == 400);
    done(&r);
    /* record */
    char p[64];
    snprintf(p, sizeof p, "/api/game/%s/record", id);
    r = req("GET", p, NULL);
    CHECK(r.status == 200 && strstr(r.body, "[Game \"oware\"]") &&
          strstr(r.body, "1. C a"));
    /* load it back as a new game */
    json_t *lb = json_pack("{s:s}", "record", r.body);
    char *lbs = json_dumps(lb, 0);
    done(&r);
    r = req("POST", "/api/load", lbs);
    CHECK(r.status == 201);
    CHECK(json_integer_value(jget(r.json, "state", "ply")) == 3);
    CHECK(strcmp(jstr(r.json, "state.id"), id) != 0);
    done(&r);
    free(lbs);
    json_decref(lb);
    r = req("POST", "/api/load", "{\"record\":\"[Game \\\"oware\\\"]\\n1. Q *\"}");
    CHECK(r.status == 422 && strstr(jstr(r.json, "error.message"), "line"));
    done(&r);
    /* resign */
    post_game(id, "resign", "{\"side\":\"X\"}", &r);
    CHECK(r.status == 400);
    done(&r);
    post_game(id, "resign", "{\"side\":\"N\"}", &r);
    CHECK(r.status == 200 && json_is_true(jget(r.json, "state", "over")));
    CHECK_STR(jstr(r.json, "state.result.winner"), "S");
    CHECK_STR(jstr(r.json, "state.result.reason"), "resign");
    done(&r);
    post_game(id, "play", "{\"move\":\"a\"}", &r);
    CHECK(r.status == 409);
    done(&r);
    post_game(id, "next", NULL, &r); /* oware: a single game by default */
    CHECK(r.status == 409);
    done(&r);
    post_game(id, "bogus", NULL, &r);
    CHECK(r.status == 404);
    done(&r);
    snprintf(p, sizeof p, "/api/game/%s/play", id);
    r = req("GET", p, NULL);
    CHECK(r.status == 405);
    done(&r);
}

/* At level 10 the start is answered from the opening book (docs/BOOK.md):
   a hint takes the book's best move, the engine one close to it; off
   (mancala serve --no-book), a search. */
static void test_book(mc_api *api)
{
    char id[13];
    new_game("{\"game\":\"oware\"}", id);
    resp r;
    post_game(id, "hint", "{\"level\":10,\"seconds\":0.2}", &r);
    CHECK(r.status == 200 && json_is_true(json_object_get(r.json, "book")));
    CHECK(json_integer_value(json_object_get(r.json, "nodes")) == 0);
    char hint[8];
    snprintf(hint, sizeof hint, "%s", jstr(r.json, "hint"));
    done(&r);
    mc_game *g = mc_game_new("oware", NULL);
    mc_pos p;
    mc_start(g, &p);
    mc_book_move bm[MC_MAX_MOVES];
    char best[MC_MOVE_STRLEN] = "";
    if (mc_book_moves(mc_book_builtin(g), g, &p, bm) > 0)
        mc_move_format(g, &p, bm[0].move, best, sizeof best);
    CHECK_STR(hint, best);
    mc_game_free(g);
    post_game(id, "engine", "{\"level\":10,\"seconds\":0.2}", &r);
    CHECK(r.status == 200 && json_is_true(json_object_get(r.json, "book")));
    CHECK(json_integer_value(jget(r.json, "state", "ply")) == 1);
    done(&r);
    /* a lower level searches */
    post_game(id, "hint", "{\"level\":9,\"nodes\":500}", &r);
    CHECK(r.status == 200 && json_is_false(json_object_get(r.json, "book")));
    done(&r);
    mc_api_set_book(api, 0, 20);
    post_game(id, "hint", "{\"level\":10,\"nodes\":500}", &r);
    CHECK(r.status == 200 && json_is_false(json_object_get(r.json, "book")));
    CHECK(json_integer_value(json_object_get(r.json, "nodes")) > 0);
    done(&r);
    mc_api_set_book(api, 1, 20);
}

static void test_gore_offer(void)
{
    /* G6: South offers A with North holding 6 captured; North accepts. */
    char id[13];
    CHECK(new_game("{\"game\":\"gore\",\"position\":\"1,1,1,1/1,1,1,3 S "
                   "own=SSSSNNNN cap=20,18\"}", id) == 201);
    resp r;
    post_game(id, "play", "{\"move\":\"offer:A\"}", &r);
    CHECK(r.status == 200);
    json_t *mv = jget(r.json, "state", "moves");
    int accept = 0;
    for (size_t i = 0; i < json_array_size(mv); i++)
        if (strcmp(jstr(json_array_get(mv, i), "move"), "accept") == 0) {
            accept = 1;
            CHECK(json_is_null(json_object_get(json_array_get(mv, i), "pit")));
        }
    CHECK(accept);
    done(&r);
    post_game(id, "play", "{\"move\":\"accept\"}", &r);
    CHECK(r.status == 200);
    CHECK_STR(json_string_value(json_array_get(jget(r.json, "state", "owner"), 0)),
              "N");
    done(&r);
}

static void test_match(void)
{
    /* Oware best of 3 (O10): resign the first game, then start the next */
    char id[13];
    CHECK(new_game("{\"game\":\"oware:match=bo3\"}", id) == 201);
    resp r;
    post_game(id, "resign", "{\"side\":\"S\"}", &r);
    CHECK(r.status == 200);
    CHECK_STR(jstr(r.json, "state.match.winner"), ""); /* not decided yet */
    done(&r);
    post_game(id, "next", NULL, &r);
    CHECK_MSG(r.status == 200, "%d %s", r.status, r.body);
    CHECK(json_integer_value(jget(jget(r.json, "state", "match"), "round", NULL)) == 2);
    CHECK(json_integer_value(json_array_get(
              jget(jget(r.json, "state", "match"), "wins", NULL), 1)) == 1);
    done(&r);
}

static char saved_id[13], saved_pos[MC_POS_STRLEN];

static void play_before_restart(void)
{
    CHECK(new_game("{\"game\":\"sadeqa2\"}", saved_id) == 201);
    resp r;
    post_game(saved_id, "engine", "{\"level\":1,\"nodes\":100}", &r);
    CHECK(r.status == 200);
    snprintf(saved_pos, sizeof saved_pos, "%s", jstr(r.json, "state.position"));
    done(&r);
}

static void check_after_restart(void)
{
    char p[64];
    snprintf(p, sizeof p, "/api/game/%s", saved_id);
    resp r = req("GET", p, NULL);
    CHECK(r.status == 200);
    CHECK_STR(jstr(r.json, "state.position"), saved_pos);
    CHECK(json_integer_value(jget(r.json, "state", "ply")) == 1);
    done(&r);
}

int main(void)
{
    char dir[] = "/tmp/mancala-test-server-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    mc_error err;
    mc_api *api = mc_api_new(dir, &err);
    mc_server *s = api ? mc_server_start(api, "127.0.0.1", 0, &port, &err) : NULL;
    CHECK_MSG(s != NULL, "%s", err.msg);
    if (!s)
        return check_report("test_server");
    test_static();
    test_games_and_new();
    test_json_errors();
    test_limits();
    test_play();
    test_book(api);
    test_gore_offer();
    test_match();
    play_before_restart();
    int before = mc_api_count(api);
    mc_server_stop(s);
    mc_api_free(api);

    /* restart on the same directory: every game is back */
    api = mc_api_new(dir, &err);
    s = api ? mc_server_start(api, "127.0.0.1", 0, &port, &err) : NULL;
    CHECK(s != NULL);
    if (s) {
        CHECK_MSG(mc_api_count(api) == before, "%d games, had %d",
                  mc_api_count(api), before);
        check_after_restart();
        mc_server_stop(s);
    }
    mc_api_free(api);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "test_server: could not remove %s\n", dir);
    return check_report("test_server");
}
