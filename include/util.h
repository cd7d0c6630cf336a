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
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

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

/*
 * n bytes of fd at offset off into buf, with pread (again after EINTR and
 * short reads): how many it read, fewer at the end of the file or on an
 * error.
 */
size_t pread_full(int fd, void *buf, size_t n, uint64_t off);

/* ---- Memory ---------------------------------------------------------- */

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
/*
 * Structs that threads write at once, side by side in one array (one a
 * thread): THREAD_OWNED before a struct's first member starts each on a
 * boundary of THREAD_ALIGN bytes (two cache lines: a CPU fetches lines in
 * pairs), so that no cache line holds two threads' writes; otherwise each
 * write by one thread takes the line from the other's cache (false
 * sharing).  xcalloc_owned: zeroed, on that boundary (stack arrays are).
 */
#define THREAD_ALIGN 128
#define THREAD_OWNED _Alignas(THREAD_ALIGN)
void *xcalloc_owned(size_t n, size_t size);
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
/*
 * A hash table's pages faulted in writable at once.  A new table's first
 * touch is a probe, a read: each page is first mapped to the shared zero
 * page, then copied on the first insert into it, and that copy flushes
 * the old page from the TLB of every CPU the process's other threads run
 * on (an interrupt each).  xcalloc_table is xcalloc so populated;
 * populate_table does it for a table made otherwise (ARR_GROW).
 */
void *xcalloc_table(size_t n, size_t size);
void populate_table(void *a, size_t bytes);
#define ARR_GROW(a, oldn, newn) ((a) = arr_resize((a), (oldn), (newn), sizeof(*(a))))
/* GROW for ARR arrays: a of *cap elements made to hold need, doubling. */
void arr_need(void **a, size_t *cap, size_t need, size_t sz);
#define ARR_NEED(a, cap, need) arr_need((void **)&(a), &(cap), (need), sizeof(*(a)))
#define ARR_FREE(a, n) (arr_free((a), (n), sizeof(*(a))), (a) = NULL)

/* ---- Sorting --------------------------------------------------------- */

/* A key and what it belongs to, for keyed_sort. */
struct keyed {
	uint64_t key;
	uint32_t id;
};

/*
 * Sort a[0..n) by key, equal keys kept in their order: a radix sort a byte
 * at a time from the last, a byte all keys share skipped.  Returns the
 * sorted array: a, or a new one in its place (a then freed).
 */
struct keyed *keyed_sort(struct keyed *a, size_t n);

/* ---- Hashing --------------------------------------------------------- */

uint64_t hash_bytes(const void *p, size_t n);   /* fast, non-cryptographic */
uint64_t hash_bytes_seed(const void *p, size_t n, uint64_t seed);
/*
 * The last n <= 8 bytes s[0..n) as a little-endian word padded with zeros
 * (what memcpy into a zeroed word gives), without a byte loop and a store
 * to memory read back whole (a stalled load): one 8-byte load ending at
 * s + n when the 8 bytes before s are the input's (after), else loads of
 * 4 or single bytes inside s[0..n).
 */
static inline uint64_t hash_tail_word(const unsigned char *s, size_t n, bool after)
{
	uint64_t w;
	uint32_t lo, hi;

	if (n == 0)
		return 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (after) {
		memcpy(&w, s + n - 8, 8);
		return w >> (8 * (8 - n));
	}
	if (n >= 4) {
		memcpy(&lo, s, 4);
		memcpy(&hi, s + n - 4, 4);
		return lo | (uint64_t)hi << (8 * (n - 4));
	}
	w = s[0];
	if (n > 1)
		w |= (uint64_t)s[1] << 8;
	if (n > 2)
		w |= (uint64_t)s[2] << 16;
	return w;
#else
	(void)lo;
	(void)hi;
	(void)after;
	w = 0;
	memcpy(&w, s, n);
	return w;
#endif
}

/*
 * The hash of an interned name (symtab.c): one multiply per 8 bytes, mixed
 * once at the end.  Names are short and hashed for every frame of every
 * line read, so this is leaner than hash_bytes.
 */
static inline uint32_t hash_name(const char *name, size_t n)
{
	const unsigned char *s = (const unsigned char *)name;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, w;

	while (n > 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
		s += 8;
		n -= 8;
	}
	h = (h ^ hash_tail_word(s, n, s != (const unsigned char *)name)) *
	    0x94d049bb133111ebULL;
	h ^= h >> 32;
	h *= 0xbf58476d1ce4e5b9ULL;
	return (uint32_t)(h ^ (h >> 32));
}

static inline uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* ---- Whole files ----------------------------------------------------- */

/*
 * A file written so that it is whole or not there: atomic_file_open
 * creates a new file beside PATH (".NAME.XXXXXX" in its directory, with
 * O_EXCL, the mode umask gives a new file or the mode of the file it is
 * to replace), atomic_file_commit flushes, syncs and closes it and only
 * then renames it into place.  A failed write (a full disk) thus leaves
 * no partial file and an older one untouched.
 *
 * With replace, a PATH that is a symbolic link to a regular file is
 * replaced at the link's end, and one that exists and is not a regular
 * file (a terminal, a pipe, /dev/null) is written directly, as it cannot
 * be renamed over; so is a file in a directory we may not create files
 * in.  Without replace, nothing that exists is replaced or followed:
 * commit fails with EEXIST and the file stays ready for a commit under
 * another name.
 *
 * After atomic_file_commit fails, call atomic_file_abort: it removes the
 * temporary file (commit removes it itself after a failed write).  The
 * struct is the stream's cookie: it must not move while f is open.
 */
struct atomic_file {
	FILE *f;        /* write here; NULL once closed */
	int fd;         /* what f writes to (f's cookie is this struct) */
	int err;        /* errno of the first write that failed */
	char *dest;     /* the file it becomes; NULL: nothing left to do */
	char *tmp;      /* the file written; NULL: dest itself (not renamed) */
	bool replace;   /* may replace a file that exists */
};

FILE *atomic_file_open(struct atomic_file *af, const char *path, bool replace);
/* Into place: as the PATH opened (name NULL) or as name in its directory. */
int atomic_file_commit(struct atomic_file *af, const char *name);
void atomic_file_abort(struct atomic_file *af);

/* ---- Time ------------------------------------------------------------ */

double now_seconds(void);          /* CLOCK_MONOTONIC */

/*
 * A title without its directories, for a narrow line: "DIR/FILE" gives
 * "FILE", "DIR/BEFORE vs DIR/AFTER" (a comparison, two) "BEFORE vs AFTER".
 * Into buf (cap bytes).
 */
void title_base_names(const char *title, bool two, char *buf, size_t cap);

#endif
