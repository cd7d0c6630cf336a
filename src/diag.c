/*
 * diag.c - collecting and printing what the readers skipped.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void diag_init(struct diag *d)
{
	memset(d, 0, sizeof(*d));
}

void diag_free(struct diag *d)
{
	for (unsigned i = 0; i < d->nfirst; i++)
		free(d->first[i]);
	for (unsigned i = 0; i < d->nwarnings; i++)
		free(d->warnings[i]);
	free(d->warnings);
	memset(d, 0, sizeof(*d));
}

static void skip(struct diag *d, enum diag_unit u, uint64_t n,
		 const char *file, uint64_t line, const char *fmt, va_list ap)
	__attribute__((format(printf, 6, 0)));

/* n of unit u skipped, told by one message (kept while there is room). */
static void skip(struct diag *d, enum diag_unit u, uint64_t n,
		 const char *file, uint64_t line, const char *fmt, va_list ap)
{
	char buf[512];

	d->bad += n;
	d->nbad[u] += n;
	d->nmsg++;
	if (d->nfirst >= DIAG_KEEP)
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (line)
		d->first[d->nfirst++] = xasprintf("%s:%llu: %s", file,
						  (unsigned long long)line, buf);
	else
		d->first[d->nfirst++] = xasprintf("%s: %s", file, buf);
}

void diag_bad(struct diag *d, const char *file, uint64_t line,
	      const char *what)
{
	diag_badf(d, file, line, "%s", what);
}

void diag_badf(struct diag *d, const char *file, uint64_t line,
	       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	skip(d, DIAG_LINE, 1, file, line, fmt, ap);
	va_end(ap);
}

void diag_skip(struct diag *d, enum diag_unit u, uint64_t n, const char *file,
	       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	skip(d, u, n, file, 0, fmt, ap);
	va_end(ap);
}

bool diag_skipped(const struct diag *d, const uint64_t *before, char *buf,
		  size_t cap)
{
	static const char *const noun[DIAG_UNITS] = { "line", "record",
						      "sample" };
	uint64_t n[DIAG_UNITS];
	unsigned k = 0, done = 0;
	size_t len = 0;

	if (cap)
		buf[0] = '\0';
	for (unsigned u = 0; u < DIAG_UNITS; u++) {
		n[u] = d->nbad[u] - (before ? before[u] : 0);
		k += n[u] != 0;
	}
	for (unsigned u = 0; u < DIAG_UNITS && len < cap; u++) {
		if (!n[u])
			continue;
		done++;
		len += (size_t)snprintf(buf + len, cap - len, "%s%llu bad %s%s",
					done == 1 ? "" : done == k ? " and " : ", ",
					(unsigned long long)n[u], noun[u],
					n[u] == 1 ? "" : "s");
	}
	return k > 0;
}

void diag_warn(struct diag *d, const char *fmt, ...)
{
	va_list ap;
	char buf[1024];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (unsigned i = 0; i < d->nwarnings; i++)
		if (strcmp(d->warnings[i], buf) == 0)
			return;
	if (d->nwarnings == d->capwarnings) {
		d->capwarnings = d->capwarnings ? d->capwarnings * 2 : 4;
		d->warnings = xreallocarray(d->warnings, d->capwarnings,
					    sizeof(*d->warnings));
	}
	d->warnings[d->nwarnings++] = xstrdup(buf);
}

void diag_print(const struct diag *d, FILE *out, const char *prefix)
{
	char what[128];

	for (unsigned i = 0; i < d->nwarnings; i++)
		fprintf(out, "%s: %s\n", prefix, d->warnings[i]);
	if (!diag_skipped(d, NULL, what, sizeof(what)))
		return;
	fprintf(out, "%s: skipped %s%s\n", prefix, what, d->nfirst ? ":" : "");
	for (unsigned i = 0; i < d->nfirst; i++)
		fprintf(out, "%s:   %s\n", prefix, d->first[i]);
	if (d->nmsg > d->nfirst && d->nfirst)
		fprintf(out, "%s:   ... and %llu more\n", prefix,
			(unsigned long long)(d->nmsg - d->nfirst));
}
