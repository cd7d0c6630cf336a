/*
 * util.h - allocation that never returns NULL, fatal errors, small helpers.
 *
 * Out of memory is fatal: xmalloc and friends print a message and exit(1),
 * after running the teardown hook a front end registered (the TUI restores
 * the terminal there), so no caller threads ENOMEM through its code.
 */
#ifndef FLAMETOP_UTIL_H
#define FLAMETOP_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- Fatal errors ---------------------------------------------------- */

typedef void (*util_teardown_fn)(void);

void util_set_program(const char *name);       /* prefix of messages */
void util_set_teardown(util_teardown_fn fn);   /* run before a fatal exit */
void util_run_teardown(void);                  /* run it now (once) */
_Noreturn void fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));     /* "flametop: ...", exit 1 */
void warnx_(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));     /* "flametop: ..." to stderr */

/* ---- Memory ---------------------------------------------------------- */

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t n, size_t size);  /* checks n*size */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *p (of *cap elements of size sz) to hold at least need elements. */
void grow_array(void **p, size_t *cap, size_t need, size_t sz);
#define GROW(p, cap, need) grow_array((void **)&(p), &(cap), (need), sizeof(*(p)))

/*
 * Large arrays as mappings of their own: grown with mremap (never copied),
 * new elements zero, transparent huge pages asked for from 2 MB (a 4 KB
 * page fault is costly, in a VM above all).  ARR_GROW(a, oldn, newn) takes
 * a from oldn to newn elements (a NULL: a new array); ARR_FREE(a, n).
 */
void *arr_resize(void *a, size_t oldn, size_t newn, size_t sz);
void arr_free(void *a, size_t n, size_t sz);
void advise_huge(void *a, size_t bytes);    /* a hint for any large block */
#define ARR_GROW(a, oldn, newn) ((a) = arr_resize((a), (oldn), (newn), sizeof(*(a))))
#define ARR_FREE(a, n) (arr_free((a), (n), sizeof(*(a))), (a) = NULL)

/* ---- Hashing --------------------------------------------------------- */

uint64_t hash_bytes(const void *p, size_t n);   /* fast, non-cryptographic */
uint64_t hash_bytes_seed(const void *p, size_t n, uint64_t seed);
static inline uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* ---- Time ------------------------------------------------------------ */

double now_seconds(void);          /* CLOCK_MONOTONIC */

#endif
