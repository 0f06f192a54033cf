/*
 * jansson_config.h - Jansson's build configuration for the WebAssembly
 * build (make wasm), where Jansson is compiled from Debian's source with
 * emscripten instead of configured by its own build: what its configure
 * would find on emscripten's libc (wasm32, clang).
 */
#ifndef JANSSON_CONFIG_H
#define JANSSON_CONFIG_H
#define JSON_INLINE inline
#define JSON_INTEGER_IS_LONG_LONG 1
#define JSON_HAVE_LOCALECONV 1
#define JSON_HAVE_ATOMIC_BUILTINS 1
#define JSON_HAVE_SYNC_BUILTINS 1
#define JSON_PARSER_MAX_DEPTH 2048
#endif
