/*
 * export-annotate.c - --annotate NAME: a function's source lines, each
 * with its self and total weight and share, as text.
 *
 *   spin (/tmp/prog) self 1.20 s 45.0%, total 1.60 s 60.0%
 *   /src/prog.c
 *          self  self%     total total%   line
 *             .      .    1.60 s  60.0%     30  void spin(int n) {
 *   *    1.18 s  44.1%    1.18 s  44.1%     31      x += step(n);
 *
 * A '*' marks the hottest lines by self weight (the three heaviest, and
 * any line of at least a tenth of the function's self weight).  Runs of
 * lines without weight or code are kept to two lines of context around
 * those that have either; longer gaps print as "...".  Source text is
 * escaped like frame names, tabs expanded.
 */
#include "export.h"

#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "diag.h"
#include "export-annotate-priv.h"
#include "profile-addr.h"
#include "textfmt.h"
#include "util.h"

#define CONTEXT 2u

void export_weight_cell(FILE *out, const struct profile *p, uint64_t w,
			uint64_t grand)
{
	char fig[32], cellbuf[48], pct[16];

	if (!w) {
		fprintf(out, " %9s %6s", ".", ".");
		return;
	}
	profile_format_figure(p, w, fig, sizeof(fig));
	snprintf(pct, sizeof(pct), "%.1f%%",
		 grand ? 100.0 * (double)w / (double)grand : 0.0);
	textfmt_rjust(fig, 9, cellbuf, sizeof(cellbuf));
	fprintf(out, " %s %6s", cellbuf, pct);
}

void export_print_text(FILE *out, const char *s, size_t n)
{
	size_t col = 0, i = 0;
	char esc[256];

	while (i < n) {
		size_t j = i;

		while (j < n && s[j] != '\t' && j - i < 32)
			j++;
		if (j > i) {
			textfmt_escape(s + i, j - i, esc, sizeof(esc));
			fputs(esc, out);
			col += textfmt_width(s + i, j - i);
			i = j;
			continue;
		}
		do
			fputc(' ', out);
		while (++col % 8);
		i++;
	}
}

uint64_t export_hot_floor(const uint64_t *w, size_t n, uint64_t self)
{
	uint64_t top[3] = { 0, 0, 0 };

	for (size_t i = 0; i < n; i++) {
		uint64_t s = w[i];

		if (s > top[0]) {
			top[2] = top[1];
			top[1] = top[0];
			top[0] = s;
		} else if (s > top[1]) {
			top[2] = top[1];
			top[1] = s;
		} else if (s > top[2]) {
			top[2] = s;
		}
	}
	if (self / 10 && self / 10 < top[2])
		return self / 10;
	return top[2] ? top[2] : 1;
}

/* The weight above which a line is marked hot. */
static uint64_t hot_floor(const struct annotation *an)
{
	uint64_t *w = xmalloc((an->nlines ? an->nlines : 1) * sizeof(*w));
	uint64_t hot;

	for (size_t i = 0; i < an->nlines; i++)
		w[i] = an->lines[i].self;
	hot = export_hot_floor(w, an->nlines, an->self);
	free(w);
	return hot;
}

static void print_line(FILE *out, const struct profile *p,
		       const struct annotation *an, const struct ann_line *l,
		       uint64_t hot)
{
	const char *t;
	size_t n = 0;

	fputc(l->self >= hot ? '*' : ' ', out);
	export_weight_cell(out, p, l->self, an->grand);
	export_weight_cell(out, p, l->total, an->grand);
	fprintf(out, " %6u  ", l->line);
	if ((t = ann_text(an, l, &n)) != NULL)
		export_print_text(out, t, n);
	fputc('\n', out);
}

static void print_file(FILE *out, const struct profile *p,
		       const struct annotation *an, uint32_t file,
		       size_t first, size_t end, uint64_t hot)
{
	const struct ann_file *f = &an->files[file];
	char esc[1024];
	unsigned shown = 0;   /* the last line printed, 0: none */

	textfmt_escape(f->path, strlen(f->path), esc, sizeof(esc));
	fprintf(out, "%s\n  %9s %6s %9s %6s %6s\n", esc, "self", "self%",
		"total", "total%", "line");
	for (size_t i = first; i < end; i++) {
		const struct ann_line *l = &an->lines[i];
		unsigned from = !f->text ? l->line
			      : l->line > CONTEXT ? l->line - CONTEXT : 1;
		struct ann_line ctx = { file, 0, 0, 0, false };

		/* A gap of one line prints the line: "..." says no more. */
		if (shown && f->text && from == shown + 2)
			from = shown + 1;
		if (shown && from <= shown)
			from = shown + 1;
		else if (shown && from > shown + 1)
			fputs("  ...\n", out);
		/* Context before, without weight. */
		for (ctx.line = from; ctx.line < l->line; ctx.line++)
			print_line(out, p, an, &ctx, hot);
		print_line(out, p, an, l, hot);
		shown = l->line;
		/* Context after, up to the next line listed. */
		{
			unsigned next = i + 1 < end ? an->lines[i + 1].line
						    : UINT32_MAX;
			unsigned last = l->line + CONTEXT;

			if (f->text && last > f->nlines)
				last = (unsigned)f->nlines;
			if (!f->text)
				last = l->line;
			for (ctx.line = l->line + 1;
			     ctx.line <= last && ctx.line < next; ctx.line++) {
				print_line(out, p, an, &ctx, hot);
				shown = ctx.line;
			}
		}
	}
}

static void print_rows(FILE *out, const struct profile *p,
		       const struct annotation *an)
{
	fprintf(out, "  %9s %6s %9s %6s  %s\n", "self", "self%", "total",
		"total%", "address");
	for (size_t i = 0; i < an->nrows; i++) {
		fputc(' ', out);
		export_weight_cell(out, p, an->rows[i].self, an->grand);
		export_weight_cell(out, p, an->rows[i].total, an->grand);
		fprintf(out, "  %#llx\n", (unsigned long long)an->rows[i].addr);
	}
}

void export_annotate_header(FILE *out, const struct profile *p,
			    const char *fname, const char *module,
			    uint64_t self, uint64_t total, uint64_t grand)
{
	char name[1024], mod[1024], s1[32], s2[32];

	textfmt_escape(fname, strlen(fname), name, sizeof(name));
	textfmt_escape(module, strlen(module), mod, sizeof(mod));
	profile_format_amount(p, self, s1, sizeof(s1));
	profile_format_amount(p, total, s2, sizeof(s2));
	/* The module in parentheses, when the input named one. */
	fprintf(out, "%s%s%s%s self %s %.1f%%, total %s %.1f%%\n", name,
		*mod ? " (" : "", mod, *mod ? ")" : "", s1,
		grand ? 100.0 * (double)self / (double)grand : 0.0, s2,
		grand ? 100.0 * (double)total / (double)grand : 0.0);
}

static void print_one(FILE *out, const struct profile *p,
		      const struct annotation *an, struct diag *d)
{
	export_annotate_header(out, p, an->name, an->module, an->self,
			       an->total, an->grand);
	if (an->refused) {
		diag_warn(d, "%s", an->why);
		fputc('\n', out);
		return;
	}
	if (!an->has_lines) {
		diag_warn(d, "%s: by address", an->why);
		print_rows(out, p, an);
		fputc('\n', out);
		return;
	}
	{
		uint64_t hot = hot_floor(an);
		size_t i = 0;

		while (i < an->nlines) {
			size_t j = i;

			while (j < an->nlines &&
			       an->lines[j].file == an->lines[i].file)
				j++;
			print_file(out, p, an, an->lines[i].file, i, j, hot);
			i = j;
		}
	}
	if (an->unplaced) {
		fputc(' ', out);
		export_weight_cell(out, p, 0, an->grand);
		export_weight_cell(out, p, an->unplaced, an->grand);
		fputs("      ?  (addresses without a line)\n", out);
	}
	fputc('\n', out);
}

int export_annotate(FILE *out, struct profile *p, const char *name,
		    const struct ann_opts *o, struct diag *d)
{
	struct paddr *a = profile_paddr(p, false);
	uint32_t *ids = NULL;
	char err[256];
	long n;
	int rc = 0;

	if (!a) {
		diag_warn(d, "--annotate: this input has no addresses (folded "
			  "stacks carry names only): record perf.data, or read "
			  "perf script output with addresses, or pprof");
		return 1;
	}
	n = ann_find(a, name, &ids, err, sizeof(err));
	if (n < 0) {
		diag_warn(d, "--annotate: %s", err);
		return 1;
	}
	if (n == 0) {
		char esc[512];

		textfmt_escape(name, strlen(name), esc, sizeof(esc));
		diag_warn(d, "--annotate: no function named or matching '%s' "
			  "has samples", esc);
		free(ids);
		return 1;
	}
	for (long i = 0; i < n; i++) {
		struct annotation *an = ann_build(p, ids[i], o, d);

		/* --disasm: a function not disassembled makes the status 1. */
		if (an->self || an->total) {
			if (o->disasm)
				rc |= export_disasm_one(out, p, a, an, o,
						       d);
			else
				print_one(out, p, an, d);
		}
		ann_free(an);
	}
	free(ids);
	return rc;
}
