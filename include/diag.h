/*
 * diag.h - what went wrong while reading: bad lines (skipped and counted,
 * the first few kept as "file:line: what is wrong") and warnings (a
 * truncated file, lost samples), reported to the user once at the end.
 */
#ifndef FLAMETOP_DIAG_H
#define FLAMETOP_DIAG_H

#include <stdint.h>
#include <stdio.h>

#define DIAG_KEEP 5

struct diag {
	uint64_t bad;                /* bad lines or records skipped */
	char *first[DIAG_KEEP];      /* the first messages, "file:line: what" */
	unsigned nfirst;
	char **warnings;             /* other messages, each once */
	unsigned nwarnings, capwarnings;
};

void diag_init(struct diag *d);
void diag_free(struct diag *d);

/* A bad line of file (line 0: no line number, e.g. a byte offset in what). */
void diag_bad(struct diag *d, const char *file, uint64_t line,
	      const char *what);
void diag_badf(struct diag *d, const char *file, uint64_t line,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A warning; the same text twice is kept once. */
void diag_warn(struct diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Print the summary to out, each line prefixed by "prefix: ". */
void diag_print(const struct diag *d, FILE *out, const char *prefix);

#endif
