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
	profile_format_amount(p, total, num, sizeof(num));
	fprintf(out, "\n");
	if (o->title) {
		textfmt_escape(o->title, strlen(o->title), cell,
			       (size_t)width * 8 + 1);
		fprintf(out, "%s: ", cell);
	}
	fprintf(out, "%s, %zu distinct stacks, depth %u", num,
		profile_distinct_stacks(p), profile_max_depth(p));
	if (profile_is_differential(p)) {
		uint64_t t2 = profile_total2(p, NODE_ROOT);

		profile_format_amount(p, t2, cell, (size_t)width * 8 + 1);
		fprintf(out, "; %s %s", o->negated ? "sized by before, after"
			: "before", cell);
	}
	if (o->zoom != NODE_ROOT) {
		uint64_t z = profile_total(p, o->zoom);

		textfmt_escape(profile_name(p, o->zoom),
			       profile_name_len(p, o->zoom), cell,
			       (size_t)width * 8 + 1);
		fprintf(out, "; zoomed to %s (%.2f%%)", cell,
			total ? 100.0 * (double)z / (double)total : 0.0);
	}
	fprintf(out, "\n");
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
