/*
 * diff.c - differential profiles (diff.h).
 *
 * A side is merged in one forward pass over its nodes: a parent's id is
 * smaller than its children's, so each node's counterpart in the merged
 * tree is the child, named alike, of its parent's counterpart.  Names are
 * interned once per symbol, not once per node.
 */
#include "diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"
#include "options.h"
#include "read.h"
#include "textfmt.h"
#include "timerange.h"
#include "util.h"
#include "view.h"

static const uint64_t pow10_u64[] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL,
};

struct profile *diff_create(void)
{
	struct profile *d = profile_create();

	profile_set_differential(d, true);
	return d;
}

/*
 * v * num / den in whole units, the fraction dropped (difffolded.pl -n
 * truncates; it does not round); den > 0.  Saturates.
 */
static uint64_t scale_trunc(uint64_t v, uint64_t num, unsigned __int128 den)
{
	unsigned __int128 q = (unsigned __int128)v * num / den;

	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

enum side { SIDE_AFTER, SIDE_BEFORE, SIDE_SWAP };

static int merge(struct profile *d, const struct profile *src, enum side side,
		 const struct weight *norm);

int diff_add(struct profile *d, const struct profile *src, bool after,
	     const struct weight *norm)
{
	return merge(d, src, after ? SIDE_AFTER : SIDE_BEFORE, norm);
}

struct profile *diff_swap(const struct profile *p)
{
	struct profile *d = diff_create();

	profile_set_order(d, profile_order(p));
	merge(d, p, SIDE_SWAP, NULL);
	profile_finish(d);
	return d;
}

static int merge(struct profile *d, const struct profile *src, enum side side,
		 const struct weight *norm)
{
	bool after = side == SIDE_AFTER;
	const struct symtab *st = profile_symtab(src);
	size_t nn = profile_node_count(src);
	uint32_t nsym = symtab_count(st), *map, *symmap;
	unsigned dec = profile_decimals(src);
	uint64_t tot = profile_total(src, NODE_ROOT);
	unsigned __int128 den = 0;
	int rc = 0;

	if (!after && norm && tot) {
		/*
		 * value(w) * value(norm) / value(tot)
		 *   = w * norm / (tot * 10^norm->decimals), in whole units.
		 */
		unsigned nd = norm->decimals > WEIGHT_MAX_DECIMALS
			      ? WEIGHT_MAX_DECIMALS : norm->decimals;

		den = (unsigned __int128)tot * pow10_u64[nd];
	}
	profile_copy_unit(d, src);
	map = xmalloc((nn ? nn : 1) * sizeof(*map));
	symmap = xmalloc((nsym ? nsym : 1) * sizeof(*symmap));
	memset(symmap, 0xff, (nsym ? nsym : 1) * sizeof(*symmap));
	map[NODE_ROOT] = NODE_ROOT;
	for (uint32_t n = 1; n < nn; n++) {
		const struct pnode *pn = profile_node(src, n);
		uint32_t up = map[pn->parent];
		uint64_t self;
		struct weight w = { 0, 0, dec };

		map[n] = NODE_NONE;
		if (up == NODE_NONE || (profile_total(src, n) == 0 &&
					profile_total2(src, n) == 0))
			continue;   /* no weight here or below */
		if (symmap[pn->sym] == UINT32_MAX)
			symmap[pn->sym] = profile_intern(d, symtab_name(st, pn->sym),
							 symtab_len(st, pn->sym));
		map[n] = profile_child(d, up, symmap[pn->sym]);
		self = profile_self(src, n);
		if (side == SIDE_SWAP) {
			w.v = profile_self2(src, n);
			w.v2 = self;
			if ((w.v || w.v2) &&
			    profile_add_at(d, map[n], &w, NULL) != ADD_OK)
				rc = -1;
			continue;
		}
		if (!self)
			continue;
		if (after) {
			w.v = self;
		} else if (den) {
			w.v2 = scale_trunc(self, norm->v, den);
			w.decimals = 0;
		} else {
			w.v2 = self;
		}
		if (profile_add_at(d, map[n], &w, NULL) != ADD_OK)
			rc = -1;
	}
	free(map);
	free(symmap);
	return rc;
}

struct profile *diff_normalize(const struct profile *p)
{
	struct profile *d = diff_create();
	size_t nn = profile_node_count(p);
	uint32_t *map = xmalloc((nn ? nn : 1) * sizeof(*map));
	uint64_t ta = profile_total(p, NODE_ROOT), tb = profile_total2(p, NODE_ROOT);
	uint64_t unit = pow10_u64[profile_decimals(p)];

	profile_set_order(d, profile_order(p));
	profile_copy_unit(d, p);
	profile_reserve(d, nn);
	map[NODE_ROOT] = NODE_ROOT;
	for (uint32_t n = 1; n < nn; n++) {
		const struct pnode *pn = profile_node(p, n);
		struct weight w = { profile_self(p, n), 0, profile_decimals(p) };
		uint64_t b = profile_self2(p, n);

		map[n] = NODE_NONE;
		if (map[pn->parent] == NODE_NONE ||
		    (!profile_total(p, n) && !profile_total2(p, n)))
			continue;
		map[n] = profile_child(d, map[pn->parent],
				       profile_intern(d, profile_name(p, n),
						      profile_name_len(p, n)));
		if (ta == tb) {
			/* Equal totals: the counts stay as they are, fractions
			 * and all (difffolded.pl scales only when they differ). */
			w.v2 = b;
		} else if (b) {
			/* value(b) * ta / tb, the fraction dropped, whole in the
			 * tree's scale (tb > 0: b is part of it). */
			uint64_t q = scale_trunc(b, ta, (unsigned __int128)tb * unit);

			w.v2 = q > UINT64_MAX / unit ? UINT64_MAX : q * unit;
		}
		if ((w.v || w.v2) && profile_add_at(d, map[n], &w, NULL) != ADD_OK)
			fprintf(stderr, "flametop: --normalize: weights overflow; "
				"some stacks were skipped\n");
	}
	free(map);
	profile_finish(d);
	return d;
}

/*
 * --time on both sides: each side's range from its own samples (a
 * percentage is of that recording's span; seconds count from its first
 * sample, where both sides start once aligned).  Returns 0 or an exit
 * status after printing why.
 */
static int apply_time(struct profile *p, const struct config *c)
{
	uint64_t f[2], l[2], t0[2], t1[2];
	char msg[256];

	for (int s = 0; s < 2; s++) {
		const char *path = c->files[s ? 0 : 1];

		if (!profile_column_bounds(p, s == 1, &f[s], &l[s])) {
			fprintf(stderr, "flametop: --time: %s: the profile has "
				"no timestamps (perf script and perf.data "
				"samples have them, folded stacks do not)\n",
				path);
			return 1;
		}
		if (timerange_parse(c->time, f[s], l[s], &t0[s], &t1[s], msg,
				    sizeof(msg)) < 0) {
			fprintf(stderr, "flametop: --time: %s\n", msg);
			return 2;
		}
	}
	profile_set_ranges(p, t0[0], t1[0], t0[1], t1[1]);
	for (int s = 0; s < 2; s++) {
		char want[64], span[64];

		if (s ? profile_total2(p, NODE_ROOT) : profile_total(p, NODE_ROOT))
			continue;
		timerange_describe(want, sizeof(want), f[s], t0[s], t1[s]);
		timerange_describe(span, sizeof(span), f[s], f[s], l[s]);
		fprintf(stderr, "flametop: --time: %s: no samples in %s (the "
			"samples span %s)\n", c->files[s ? 0 : 1], want, span);
	}
	return 0;
}

int diff_reload(struct profile *p, const struct config *c, struct diag *d)
{
	int rc = 0;

	if (read_profile(p, c->files[1], &c->read, d) != 0)
		rc = -1;
	profile_set_before_column(p, true);
	if (read_profile(p, c->files[0], &c->read, d) != 0)
		rc = -1;
	profile_set_before_column(p, false);
	profile_align_columns(p);
	return rc;
}

int diff_load(struct config *c, struct diag *d, struct profile **out)
{
	struct profile *p = profile_create();
	int rc;

	*out = NULL;
	/*
	 * AFTER is read as it would be alone; BEFORE is read into the same
	 * tree as its first count (profile_set_before_column), so --diff costs
	 * what loading both files into one profile does.
	 */
	if (read_profile(p, c->files[1], &c->read, d) != 0) {
		profile_destroy(p);
		return 1;
	}
	if (profile_is_differential(p)) {
		/* A two-column AFTER: its AFTER counts only. */
		struct profile *dp = diff_create();

		profile_finish(p);
		profile_set_order(dp, profile_order(p));
		profile_reserve(dp, profile_node_count(p));
		if (diff_add(dp, p, true, NULL) < 0)
			fprintf(stderr, "flametop: %s: weights overflow; some "
				"stacks were skipped\n", c->files[1]);
		profile_destroy(p);
		p = dp;
	}
	profile_set_before_column(p, true);
	if (read_profile(p, c->files[0], &c->read, d) != 0) {
		profile_destroy(p);
		return 1;
	}
	profile_set_before_column(p, false);
	/* Two recordings: both start at the first sample. */
	profile_align_columns(p);
	if (c->time && (rc = apply_time(p, c)) != 0) {
		profile_destroy(p);
		return rc;
	}
	*out = p;
	return 0;
}

/* ---- Reading a differential profile ----------------------------------- */

static double dabs(double x)
{
	return x < 0 ? -x : x;
}

/*
 * Does a change of share show where it is printed ("%+.2f pts")?  Smaller
 * changes (rounding noise, one sample in millions) count as the same.
 */
static bool shows(double change)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.2f", change < 0 ? -change : change);
	return strcmp(buf, "0.00") != 0;
}

/*
 * Fill di from the weights b of tb before and a of ta after, whose shares
 * (%) are bp and ap as they are shown; scale is the largest change shown
 * (profile_max_change), which gets the deepest color.
 */
static void classify(uint64_t b, uint64_t tb, uint64_t a, uint64_t ta,
		     double bp, double ap, double scale, struct diff_info *di)
{
	unsigned __int128 x, y;

	di->before = b;
	di->after = a;
	di->before_pct = bp;
	di->after_pct = ap;
	di->change = ap - bp;
	/* Shares compared exactly: a / ta against b / tb. */
	x = (unsigned __int128)a * tb;
	y = (unsigned __int128)b * ta;
	if (a && !b)
		di->kind = DIFF_NEW;
	else if (b && !a)
		di->kind = DIFF_GONE;
	else if (x == y || !shows(di->change))
		di->kind = DIFF_SAME;
	else
		di->kind = x > y ? DIFF_GREW : DIFF_SHRANK;
	/*
	 * The color follows the points of share changed, scaled to the
	 * largest change (flamegraph.pl's rule), not the ratio of the shares:
	 * 1% -> 3% is a smaller change than 49% -> 57%.  A top table's total
	 * can change more than any one frame: it takes the deepest color.
	 */
	di->intensity = scale > 0 ? dabs(di->change) / scale : 0;
	if (di->intensity > 1)
		di->intensity = 1;
	if (di->kind == DIFF_SAME)
		di->intensity = 0;
}

void diff_info(const struct profile *p, uint32_t node, bool negated,
	       struct diff_info *di)
{
	uint64_t a = profile_total(p, node), b = profile_total2(p, node);
	uint64_t ta = profile_total(p, NODE_ROOT);
	uint64_t tb = profile_total2(p, NODE_ROOT);

	if (negated) {
		uint64_t t = a;

		a = b;
		b = t;
		t = ta;
		ta = tb;
		tb = t;
	}
	classify(b, tb, a, ta, tb ? 100.0 * (double)b / (double)tb : 0,
		 ta ? 100.0 * (double)a / (double)ta : 0,
		 profile_max_change(p), di);
}

char diff_mark(enum diff_change k)
{
	return k == DIFF_GREW || k == DIFF_NEW ? '+'
	       : k == DIFF_SHRANK || k == DIFF_GONE ? '-' : 0;
}

size_t diff_change_text(const struct diff_info *di, char *buf, size_t cap)
{
	int n;

	if (di->kind == DIFF_NEW)
		n = snprintf(buf, cap, "new");
	else if (di->kind == DIFF_GONE)
		n = snprintf(buf, cap, "gone");
	else if (di->kind == DIFF_SAME)
		n = snprintf(buf, cap, "0.00");
	else
		n = snprintf(buf, cap, "%+.2f", di->change);
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap ? cap - 1 : 0;
}

size_t diff_describe(const struct profile *p, uint32_t node, bool negated,
		     unsigned terse, char *buf, size_t cap)
{
	struct diff_info di;
	char b[64], a[64], c[64], pts[16];
	const char *sb = profile_side(p, false), *sa = profile_side(p, true);
	int n;

	diff_info(p, node, negated, &di);
	diff_change_text(&di, pts, sizeof(pts));
	profile_format_figure(p, di.before, b, sizeof(b));
	profile_format_figure(p, di.after, a, sizeof(a));
	profile_format_figure(p, di.after >= di.before ? di.after - di.before
			      : di.before - di.after, c, sizeof(c));
	if (di.kind == DIFF_NEW)
		n = terse ? snprintf(buf, cap, "new: %s", a) :
		    snprintf(buf, cap, "new: %s 0, %s %s (%.2f%%)", sb, sa, a,
			     di.after_pct);
	else if (di.kind == DIFF_GONE)
		n = terse ? snprintf(buf, cap, "gone: %s", b) :
		    snprintf(buf, cap, "gone: %s %s (%.2f%%), %s 0", sb, b,
			     di.before_pct, sa);
	else if (terse >= 3)
		n = snprintf(buf, cap, "%s -> %s, %s pts", b, a, pts);
	else if (terse == 2)
		n = snprintf(buf, cap, "%s %s, %s %s, %s pts", sb, b, sa, a, pts);
	else if (terse)
		n = snprintf(buf, cap, "%s %s, %s %s, %s%s, %s pts", sb, b, sa,
			     a, di.after >= di.before ? "+" : "-", c, pts);
	else
		n = snprintf(buf, cap, "%s %s (%.2f%%), %s %s (%.2f%%), %s%s, "
			     "%s pts", sb, b, di.before_pct, sa, a, di.after_pct,
			     di.after >= di.before ? "+" : "-", c, pts);
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap ? cap - 1 : 0;
}

/* ---- The top table of a comparison -------------------------------------- */

static int cmp_top_name(const struct diff_top_row *a,
			const struct diff_top_row *b, const struct symtab *st)
{
	size_t la = symtab_len(st, a->sym), lb = symtab_len(st, b->sym);
	int c = memcmp(symtab_name(st, a->sym), symtab_name(st, b->sym),
		       la < lb ? la : lb);

	return c ? c : (la > lb) - (la < lb);
}

/* Larger first: 1 when x < y, -1 when x > y, else 0. */
static int desc(double x, double y)
{
	return x < y ? 1 : x > y ? -1 : 0;
}

struct top_sort_ctx {
	const struct symtab *st;
	enum view_top_sort by;
};

static int cmp_top(const void *x, const void *y, void *ctx)
{
	const struct diff_top_row *a = x, *b = y;
	const struct top_sort_ctx *c = ctx;
	int r = 0;

	switch (c->by) {
	case TOP_BY_NAME:
		break;
	case TOP_BY_SELF:
		if (!(r = desc(a->self_pct[1], b->self_pct[1])))
			r = desc(a->self_pct[0], b->self_pct[0]);
		break;
	case TOP_BY_TOTAL:
		if (!(r = desc(a->total_pct[1], b->total_pct[1])))
			r = desc(a->total_pct[0], b->total_pct[0]);
		break;
	default:   /* the change: self, then total */
		if (!(r = desc(dabs(a->self_pct[1] - a->self_pct[0]),
			       dabs(b->self_pct[1] - b->self_pct[0]))))
			r = desc(dabs(a->total_pct[1] - a->total_pct[0]),
				 dabs(b->total_pct[1] - b->total_pct[0]));
		break;
	}
	return r ? r : cmp_top_name(a, b, c->st);
}

void diff_top_sort(const struct profile *p, struct diff_top_row *rows,
		   size_t n, enum view_top_sort by)
{
	struct top_sort_ctx c = { profile_symtab(p), by };

	qsort_r(rows, n, sizeof(*rows), cmp_top, &c);
}

size_t diff_top_rows(const struct profile *p, bool negated,
		     struct diff_top_row **out)
{
	const struct symtab *st = profile_symtab(p);
	uint32_t nsym = symtab_count(st);
	struct diff_top_row *rows = xcalloc(nsym ? nsym : 1, sizeof(*rows));
	uint32_t *at = xmalloc((nsym ? nsym : 1) * sizeof(*at));
	struct profile *sides[2];
	size_t k = 0;

	memset(at, 0xff, (nsym ? nsym : 1) * sizeof(*at));
	/* Each side as the weight: BEFORE is p's second count, unless p is
	 * swapped. */
	sides[negated] = diff_swap(p);
	sides[!negated] = (struct profile *)p;   /* only read */
	for (int s = 0; s < 2; s++) {
		const struct profile *q = sides[s];
		const struct symtab *qs = profile_symtab(q);
		struct view_top_row *tr;
		size_t m = view_top(q, &tr);
		uint64_t tw = profile_total(q, NODE_ROOT);
		double all = profile_weight_value(q, tw);

		for (size_t i = 0; i < m; i++) {
			uint32_t y = symtab_find(st, symtab_name(qs, tr[i].sym),
						 symtab_len(qs, tr[i].sym));
			struct diff_top_row *r;

			if (y == UINT32_MAX)
				continue;   /* cannot be: q's names come from p */
			if (at[y] == UINT32_MAX) {
				at[y] = (uint32_t)k;
				rows[k++].sym = y;
			}
			r = &rows[at[y]];
			r->scale = profile_max_change(p);
			r->self[s] = tr[i].self;
			r->total[s] = tr[i].total;
			r->all[s] = tw;
			r->self_pct[s] = all > 0 ? 100 *
				profile_weight_value(q, tr[i].self) / all : 0;
			r->total_pct[s] = all > 0 ? 100 *
				profile_weight_value(q, tr[i].total) / all : 0;
		}
		free(tr);
	}
	profile_destroy(sides[negated]);
	free(at);
	diff_top_sort(p, rows, k, TOP_BY_CHANGE);
	*out = rows;
	return k;
}

void diff_top_info(const struct diff_top_row *r, bool total,
		   struct diff_info *di)
{
	const uint64_t *w = total ? r->total : r->self;
	const double *pc = total ? r->total_pct : r->self_pct;

	classify(w[0], r->all[0], w[1], r->all[1], pc[0], pc[1], r->scale, di);
}

size_t diff_print_top(FILE *out, const struct profile *p, size_t n)
{
	const struct symtab *st = profile_symtab(p);
	struct diff_top_row *rows;
	size_t k = diff_top_rows(p, false, &rows);
	char *name = NULL;
	size_t capname = 0;

	if (n == 0 || n > k)
		n = k;
	fprintf(out, "#%7s %7s %7s  %7s %7s %7s  %s\n", "before", "after",
		"change", "before", "after", "change", "function");
	fprintf(out, "# self: %% of all before and after, change in points; "
		"then the same of total\n");
	for (size_t i = 0; i < n; i++) {
		const struct diff_top_row *r = &rows[i];
		size_t len = symtab_len(st, r->sym);
		struct diff_info di;
		char c[2][16];

		for (int j = 0; j < 2; j++) {
			diff_top_info(r, j == 1, &di);
			diff_change_text(&di, c[j], sizeof(c[j]));
		}
		/* An escape is at most 4 bytes per byte of the name. */
		GROW(name, capname, 4 * len + 1);
		textfmt_escape(symtab_name(st, r->sym), len, name, capname);
		fprintf(out, "%7.2f%% %6.2f%% %7s  %6.2f%% %6.2f%% %7s  %s\n",
			r->self_pct[0], r->self_pct[1], c[0], r->total_pct[0],
			r->total_pct[1], c[1], name);
	}
	free(name);
	free(rows);
	return n;
}

uint32_t diff_color_of(const struct theme *th, const struct diff_info *di)
{
	uint32_t a = th->slot[TS_SAME].bg, b, c = 0;

	b = th->slot[di->kind == DIFF_GREW || di->kind == DIFF_NEW
		     ? TS_GREW : TS_SHRANK].bg;
	if (a == THEME_COLOR_DEFAULT)
		a = 0xffffff;
	if (b == THEME_COLOR_DEFAULT)
		b = a;
	for (int sh = 0; sh <= 16; sh += 8) {
		double x = (double)(a >> sh & 0xff), y = (double)(b >> sh & 0xff);

		c |= (uint32_t)(x + (y - x) * di->intensity + 0.5) << sh;
	}
	return c;
}

uint32_t diff_color(const struct theme *th, const struct profile *p,
		    uint32_t node, bool negated)
{
	struct diff_info di;

	diff_info(p, node, negated, &di);
	return diff_color_of(th, &di);
}
