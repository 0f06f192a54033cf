/*
 * mime.h - the content type of a page's file by its name, for the files
 * embedded in the program (tools/embed_web.c) and those of a site folder
 * (server.c, mancala serve --site).
 */
#ifndef MC_SERVER_MIME_H
#define MC_SERVER_MIME_H

#include <string.h>

static inline const char *mc_mime_type(const char *name)
{
    static const char *const map[][2] = {
        {".html", "text/html; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".json", "application/json"},
        {".webmanifest", "application/manifest+json"},
        {".txt", "text/plain; charset=utf-8"}};
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < sizeof map / sizeof map[0]; i++)
        if (strcmp(dot, map[i][0]) == 0)
            return map[i][1];
    return "application/octet-stream";
}

#endif
