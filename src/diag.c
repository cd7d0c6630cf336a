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

void diag_bad(struct diag *d, const char *file, uint64_t line,
	      const char *what)
{
	d->bad++;
	if (d->nfirst >= DIAG_KEEP)
		return;
	if (line)
		d->first[d->nfirst++] = xasprintf("%s:%llu: %s", file,
						  (unsigned long long)line, what);
	else
		d->first[d->nfirst++] = xasprintf("%s: %s", file, what);
}

void diag_badf(struct diag *d, const char *file, uint64_t line,
	       const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	if (d->nfirst >= DIAG_KEEP) {
		d->bad++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	diag_bad(d, file, line, buf);
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
	for (unsigned i = 0; i < d->nwarnings; i++)
		fprintf(out, "%s: %s\n", prefix, d->warnings[i]);
	if (!d->bad)
		return;
	fprintf(out, "%s: skipped %llu bad line%s%s\n", prefix,
		(unsigned long long)d->bad, d->bad == 1 ? "" : "s",
		d->nfirst ? ":" : "");
	for (unsigned i = 0; i < d->nfirst; i++)
		fprintf(out, "%s:   %s\n", prefix, d->first[i]);
	if (d->bad > d->nfirst && d->nfirst)
		fprintf(out, "%s:   ... and %llu more\n", prefix,
			(unsigned long long)(d->bad - d->nfirst));
}
