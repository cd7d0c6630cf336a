/*
 * export-text.c - the flame graph as plain text (--text).
 *
 * Drawn from the same layout as the TUI: one line per stack depth, each
 * frame as wide as its share, "[name....]" with the name escaped and cut to
 * fit; frames of two columns are "[]", of one column "|".  Frames matching
 * the search are drawn with braces, "{name}".  Icicle (root on top) by
 * default, root at the bottom with --flame.
 */
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "export.h"
#include "layout.h"
#include "textfmt.h"
#include "util.h"

/* Render one row of the layout into line (8*cols+1 bytes). */
static void render_row(const struct profile *p, const struct layout *l,
		       unsigned depth, struct search *s, bool negated,
		       char *line, char *cell)
{
	bool diff = profile_is_differential(p);

	size_t len = 0;
	unsigned col = 0;

	for (size_t i = l->row_start[depth]; i < l->row_start[depth + 1]; i++) {
		const struct layout_rect *r = &l->rects[i];
		bool hit = s && search_node_matches(s, p, r->node);
		char open = hit ? '{' : '[', close = hit ? '}' : ']';
		size_t k;

		while (col < r->col) {
			line[len++] = ' ';
			col++;
		}
		if (r->width == 1) {
			line[len++] = hit ? '!' : '|';
		} else {
			unsigned room = r->width - 2;

			line[len++] = open;
			if (diff && room > 0) {
				/* Differential: '+' grew or new, '-' shrank or gone. */
				struct diff_info di;
				char m;

				diff_info(p, r->node, negated, &di);
				m = diff_mark(di.kind);
				if (m) {
					line[len++] = m;
					room--;
				}
			}
			k = textfmt_fit(profile_name(p, r->node),
					profile_name_len(p, r->node),
					room, ' ', cell);
			memcpy(line + len, cell, k);
			len += k;
			line[len++] = close;
		}
		col += r->width;
	}
	while (len > 0 && line[len - 1] == ' ')
		len--;
	line[len] = '\0';
}

/*
 * The summary line under the graph: "TITLE: AMOUNT, N distinct stacks,
 * depth D[; before B][; zoomed to NAME (P%)]", at most width columns.  When
 * it is wider, it is shortened step by step: the title's directories go,
 * then the words ("N stacks"), then the zoomed frame's name and the title
 * are cut with ".." (to 8 columns at the least), then the second figures
 * go (the depth, the count of stacks), and what still does not fit is
 * cut.
 */
static void summary(FILE *out, const struct profile *p,
		    const struct text_opts *o, unsigned width)
{
	uint64_t total = profile_total(p, NODE_ROOT);
	const char *title = o->title;
	char *base = NULL;
	size_t tlen = title ? strlen(title) : 0;
	const char *zname = o->zoom != NODE_ROOT ? profile_name(p, o->zoom) : "";
	size_t zlen = o->zoom != NODE_ROOT ? profile_name_len(p, o->zoom) : 0;
	unsigned tcols = ~0u, zcols = ~0u;
	char num[48], other[48] = "", zpct[32] = "", *buf, *t, *z, *line;
	size_t cap, n, k;
	bool short_words = false;
	int drop = 0;   /* 1: no depth, 2: no count of stacks either */

	profile_format_amount(p, total, num, sizeof(num));
	if (profile_is_differential(p))
		profile_format_amount(p, profile_total2(p, NODE_ROOT), other,
				      sizeof(other));
	if (o->zoom != NODE_ROOT)
		snprintf(zpct, sizeof(zpct), "%.2f",
			 total ? 100.0 * (double)profile_total(p, o->zoom) /
			 (double)total : 0.0);
	cap = 8 * (tlen + zlen + width) + 256;
	buf = xmalloc(cap);
	t = xmalloc(8 * (tlen + width) + 16);
	z = xmalloc(8 * (zlen + width) + 16);
	for (int step = 0;;) {
		size_t tw, zw, w;

		/* The names, escaped, or fitted to their columns. */
		if (tcols == ~0u)
			textfmt_escape(title ? title : "", tlen, t,
				       8 * (tlen + width) + 16);
		else
			textfmt_fit(title, tlen, tcols, ' ', t);
		if (zcols == ~0u)
			textfmt_escape(zname, zlen, z, 8 * (zlen + width) + 16);
		else
			textfmt_fit(zname, zlen, zcols, ' ', z);
		k = (size_t)snprintf(buf, cap, "%s%s%s", t, title ? ": " : "",
				     num);
		if (drop < 2)
			k += (size_t)snprintf(buf + k, cap - k, ", %zu %s",
					      profile_distinct_stacks(p),
					      short_words ? "stacks" :
					      "distinct stacks");
		if (drop < 1)
			k += (size_t)snprintf(buf + k, cap - k, ", depth %u",
					      profile_max_depth(p));
		snprintf(buf + k, cap - k, "%s%s%s%s%s%s%s",
			 other[0] ? "; " : "",
			 other[0] && o->negated ? "sized by before, after " :
			 other[0] ? "before " : "", other,
			 zpct[0] ? "; zoomed to " : "", z,
			 zpct[0] ? " (" : "", zpct[0] ? zpct : "");
		if (zpct[0])
			snprintf(buf + strlen(buf), cap - strlen(buf), "%%)");
		w = textfmt_width(buf, strlen(buf));
		if (w <= width)
			break;
		tw = tcols != ~0u ? tcols : title ? textfmt_width(title, tlen) : 0;
		zw = zcols != ~0u ? zcols : textfmt_width(zname, zlen);
		switch (step++) {
		case 0:
			/* The title's directories. */
			if (title && strchr(title, '/')) {
				base = xmalloc(tlen + 1);
				title_base_names(title,
						 profile_is_differential(p),
						 base, tlen + 1);
				title = base;
				tlen = strlen(base);
			}
			continue;
		case 1:
			short_words = true;
			continue;
		case 2:
			/* The zoomed frame's name, to what is left. */
			if (zw > 8)
				zcols = (unsigned)(zw > w - width + 8 ?
						   zw - (w - width) : 8);
			continue;
		case 3:
			if (tw > 8)
				tcols = (unsigned)(tw > w - width + 8 ?
						   tw - (w - width) : 8);
			continue;
		case 4:
		case 5:
			drop++;   /* the depth, then the count of stacks */
			continue;
		default:
			break;    /* cut below */
		}
		break;
	}
	line = xmalloc(8 * (size_t)width + 1);
	n = textfmt_fit(buf, strlen(buf), width, ' ', line);
	while (n > 0 && line[n - 1] == ' ')
		n--;
	fprintf(out, "%.*s\n", (int)n, line);
	free(line);
	free(z);
	free(t);
	free(buf);
	free(base);
}

unsigned export_text(FILE *out, const struct profile *p,
		     const struct text_opts *o)
{
	struct layout l;
	unsigned width = o->width ? o->width : 100;
	char *line = xmalloc((size_t)width * 8 + 1);
	char *cell = xmalloc((size_t)width * 8 + 1);
	uint64_t total = profile_total(p, NODE_ROOT);
	char num[48];
	unsigned rows;

	layout_init(&l);
	if (o->search)
		search_update(o->search, p);
	layout_build(&l, p, o->zoom, width, o->height, 1);
	for (unsigned i = 0; i < l.rows; i++) {
		unsigned d = o->flame ? l.rows - 1 - i : i;

		render_row(p, &l, d, o->search, o->negated, line, cell);
		fprintf(out, "%s\n", line);
	}
	fprintf(out, "\n");
	summary(out, p, o, width);
	if (o->search && search_active(o->search)) {
		uint64_t m = search_matched_weight(o->search, p, NODE_ROOT);

		profile_format_amount(p, m, num, sizeof(num));
		fprintf(out, "Matched: %s (%.2f%%)\n", num,
			total ? 100.0 * (double)m / (double)total : 0.0);
	}
	rows = l.rows;
	layout_free(&l);
	free(line);
	free(cell);
	return rows;
}
