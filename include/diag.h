/*
 * diag.h - what went wrong while reading: bad lines, records and samples
 * (skipped and counted, the first few messages kept as "file:line: what is
 * wrong") and warnings (a
 * truncated file, lost samples), reported to the user once at the end.
 */
#ifndef FLAMETOP_DIAG_H
#define FLAMETOP_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define DIAG_KEEP 5

/* What a reader skips: lines of text, records of perf.data, samples. */
enum diag_unit { DIAG_LINE, DIAG_RECORD, DIAG_SAMPLE, DIAG_UNITS };

struct diag {
	uint64_t bad;                /* lines, records and samples skipped */
	uint64_t nbad[DIAG_UNITS];   /* of each unit */
	uint64_t nmsg;               /* messages about them, kept or not */
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
/* n records or samples of file skipped, for one reason: "file: what". */
void diag_skip(struct diag *d, enum diag_unit u, uint64_t n, const char *file,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * What was skipped since the counts in before (NULL: all along), as
 * "2 bad lines and 1 bad sample" into buf; false when nothing was.
 */
bool diag_skipped(const struct diag *d, const uint64_t *before, char *buf,
		  size_t cap);
/* A warning; the same text twice is kept once. */
void diag_warn(struct diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Print the summary to out, each line prefixed by "prefix: ". */
void diag_print(const struct diag *d, FILE *out, const char *prefix);

#endif
