/*
 * view-top.c - the top table: per function of a profile, its self weight
 * (the stacks whose leaf it is) and its total weight (the stacks that
 * contain it, once per stack even under recursion), perf report's Self and
 * Children; sorted, and printed for --top.  The TUI's table and a
 * comparison's (diff.h) sort with the same orders.
 */
#include "view-top.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textfmt.h"
#include "util.h"

size_t view_top(const struct profile *p, struct view_top_row **rows)
{
	const struct symtab *st = profile_symtab(p);
	uint32_t nsym = symtab_count(st), *on;
	uint64_t *self, *total;
	struct view_top_row *r;
	size_t k = 0;
	uint32_t n;

	self = xcalloc(nsym, sizeof(*self));
	total = xcalloc(nsym, sizeof(*total));
	on = xcalloc(nsym, sizeof(*on));
	/*
	 * Depth first with the parent links: a function's total counts a
	 * subtree only at its outermost occurrence on the path (on[] counts
	 * its frames on the current path).
	 */
	n = profile_node(p, NODE_ROOT)->child;
	while (n != NODE_NONE) {
		const struct pnode *x = profile_node(p, n);
		uint64_t t = profile_total(p, n);

		if (t) {
			if (!on[x->sym]++)
				total[x->sym] += t;
			self[x->sym] += profile_self(p, n);
			if (x->child != NODE_NONE) {
				n = x->child;
				continue;
			}
			on[x->sym]--;
		}
		/* Leave n and every ancestor it was the last child of. */
		while (n != NODE_ROOT && profile_node(p, n)->next == NODE_NONE) {
			n = profile_node(p, n)->parent;
			if (n != NODE_ROOT)
				on[profile_node(p, n)->sym]--;
		}
		if (n == NODE_ROOT)
			break;
		n = profile_node(p, n)->next;
	}
	for (uint32_t y = 0; y < nsym; y++)
		k += total[y] != 0;
	r = xmalloc((k ? k : 1) * sizeof(*r));
	k = 0;
	for (uint32_t y = 0; y < nsym; y++)
		if (total[y])
			r[k++] = (struct view_top_row){ y, self[y], total[y] };
	free(self);
	free(total);
	free(on);
	view_top_sort(p, r, k, TOP_BY_SELF);
	*rows = r;
	return k;
}

static const struct symtab *sort_st;
static enum view_top_sort sort_by;

static int cmp_name(const struct view_top_row *x, const struct view_top_row *y)
{
	size_t a = symtab_len(sort_st, x->sym), b = symtab_len(sort_st, y->sym);
	int c = memcmp(symtab_name(sort_st, x->sym),
		       symtab_name(sort_st, y->sym), a < b ? a : b);

	return c ? c : (a > b) - (a < b);
}

static int cmp_row(const void *a, const void *b)
{
	const struct view_top_row *x = a, *y = b;

	if (sort_by == TOP_BY_NAME)
		return cmp_name(x, y);
	if ((sort_by == TOP_BY_SELF || sort_by == TOP_BY_CHANGE) &&
	    x->self != y->self)
		return x->self < y->self ? 1 : -1;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	return cmp_name(x, y);
}

void view_top_sort(const struct profile *p, struct view_top_row *rows,
		   size_t n, enum view_top_sort by)
{
	sort_st = profile_symtab(p);
	sort_by = by;
	qsort(rows, n, sizeof(*rows), cmp_row);
}

#define FIG_W 9                  /* "366.7 ms", "999.9 kB" and a space */

size_t view_top_titles(char *buf, size_t cap)
{
	int n = snprintf(buf, cap, "%7s %7s %*s %*s  %s", "self%", "total%",
			 FIG_W, "self", FIG_W, "total", "function");

	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap ? cap - 1 : 0;
}

size_t view_top_cells(const struct profile *p, const struct view_top_row *r,
		      char *buf, size_t cap)
{
	double all = profile_weight_value(p, profile_total(p, NODE_ROOT));
	double sp = all > 0 ? 100 * profile_weight_value(p, r->self) / all : 0;
	double tp = all > 0 ? 100 * profile_weight_value(p, r->total) / all : 0;
	char f[2][48], cell[2][64];
	int n;

	profile_format_figure(p, r->self, f[0], sizeof(f[0]));
	profile_format_figure(p, r->total, f[1], sizeof(f[1]));
	for (int k = 0; k < 2; k++)
		textfmt_rjust(f[k], FIG_W, cell[k], sizeof(cell[k]));
	n = snprintf(buf, cap, "%6.2f%% %6.2f%% %s %s  ", sp, tp, cell[0],
		     cell[1]);
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap ? cap - 1 : 0;
}

size_t view_print_top(FILE *out, const struct profile *p,
		      const struct profile *whole, size_t n)
{
	struct view_top_row *rows;
	size_t k = view_top(p, &rows);
	const struct symtab *st = profile_symtab(p);
	char line[256], *name = NULL;
	size_t capname = 0;
	double v, a;

	if (n == 0 || n > k)
		n = k;
	profile_format_amount(p, profile_total(p, NODE_ROOT), line,
			      sizeof(line));
	/* A view that drops samples: its figures are of the view. */
	v = profile_weight_value(p, profile_total(p, NODE_ROOT));
	a = whole ? profile_weight_value(whole, profile_total(whole, NODE_ROOT))
		  : v;
	if (a != v) {
		char all[128];

		profile_format_amount(whole, profile_total(whole, NODE_ROOT),
				      all, sizeof(all));
		fprintf(out, "# view: %s, %.2f%% of all (%s)\n", line,
			a > 0 ? 100 * v / a : 0.0, all);
	} else {
		fprintf(out, "# all: %s\n", line);
	}
	view_top_titles(line, sizeof(line));
	line[0] = '#';
	fprintf(out, "%s\n", line);
	for (size_t i = 0; i < n; i++) {
		const struct view_top_row *r = &rows[i];
		size_t len = symtab_len(st, r->sym);

		view_top_cells(p, r, line, sizeof(line));
		/* An escape is at most 4 bytes per byte of the name. */
		GROW(name, capname, 4 * len + 1);
		textfmt_escape(symtab_name(st, r->sym), len, name, capname);
		fprintf(out, "%s%s\n", line, name);
	}
	free(name);
	free(rows);
	return n;
}
