/*
 * jansson_private_config.h - what Jansson's configure would find on
 * emscripten's libc, for the WebAssembly build (make wasm): the headers,
 * gettimeofday, and /dev/urandom (emscripten's, from the host's random
 * source) for the hash tables' seed.
 */
#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_UNISTD_H 1
#define HAVE_FCNTL_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_GETTIMEOFDAY 1
#define HAVE_LOCALE_H 1
#define HAVE_SETLOCALE 1
#define HAVE_ATOMIC_BUILTINS 1
#define HAVE_SYNC_BUILTINS 1
#define USE_URANDOM 1
#define INITIAL_HASHTABLE_ORDER 3
