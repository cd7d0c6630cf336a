/*
 * test-diff.c - the top table of a comparison (diff_top_rows): per
 * function the self and total weights and shares of each side, how each
 * changed (new, gone, grew, shrank, the same), the same rows from the
 * swapped profile (--negate, B), and the four orders; the colors follow
 * the points of share changed, scaled to the largest change.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "diff.h"
#include "profile.h"
#include "stacks.h"
#include "symtab.h"
#include "theme.h"

struct stack {
	const char *stack;
	uint64_t weight;
};

/* The comparison of BEFORE b[0..nb) and AFTER a[0..na), finished. */
static struct profile *compare(const struct stack *b, size_t nb,
			       const struct stack *a, size_t na)
{
	struct profile *side[2] = { profile_create(), profile_create() };
	struct profile *d = diff_create();

	for (size_t i = 0; i < nb; i++)
		add(side[0], b[i].stack, b[i].weight);
	for (size_t i = 0; i < na; i++)
		add(side[1], a[i].stack, a[i].weight);
	for (int k = 1; k >= 0; k--) {
		profile_finish(side[k]);
		assert_int_equal(diff_add(d, side[k], k == 1, NULL), 0);
		profile_destroy(side[k]);
	}
	profile_finish(d);
	return d;
}

/*
 * BEFORE: lex 40, tree 20, loop 30, old_path 10 (of 100);
 * AFTER:  lex 40, tree 20, loop 60, new_path 20 (of 140).
 */
static struct profile *comparison(void)
{
	static const struct stack b[] = {
		{ "main;parse;lex", 40 }, { "main;parse;tree", 20 },
		{ "main;eval;loop", 30 }, { "main;old_path", 10 },
	}, a[] = {
		{ "main;parse;lex", 40 }, { "main;parse;tree", 20 },
		{ "main;eval;loop", 60 }, { "main;new_path", 20 },
	};

	return compare(b, 4, a, 4);
}

static const char *name(const struct profile *p, const struct diff_top_row *r)
{
	return symtab_name(profile_symtab(p), r->sym);
}

static const struct diff_top_row *row(const struct profile *p,
				      const struct diff_top_row *r, size_t n,
				      const char *fn)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(name(p, &r[i]), fn) == 0)
			return &r[i];
	fail_msg("no row %s", fn);
	return NULL;
}

static enum diff_change kind(const struct diff_top_row *r, bool total)
{
	struct diff_info di;

	diff_top_info(r, total, &di);
	return di.kind;
}

static void rows_and_changes(void **state)
{
	struct profile *p = comparison();
	struct diff_top_row *r;
	size_t n = diff_top_rows(p, false, &r);
	const struct diff_top_row *x;
	struct diff_info di;

	(void)state;
	assert_int_equal(n, 8);
	/* The largest self change first: new_path +14.29, loop +12.86. */
	assert_string_equal(name(p, &r[0]), "new_path");
	assert_string_equal(name(p, &r[1]), "loop");
	x = row(p, r, n, "loop");
	assert_int_equal(x->self[0], 30);
	assert_int_equal(x->self[1], 60);
	assert_int_equal(x->all[0], 100);
	assert_int_equal(x->all[1], 140);
	assert_float_equal(x->self_pct[0], 30.0, 1e-9);
	assert_float_equal(x->self_pct[1], 600.0 / 14, 1e-9);
	assert_int_equal(kind(x, false), DIFF_GREW);
	x = row(p, r, n, "new_path");
	assert_int_equal(kind(x, false), DIFF_NEW);
	assert_int_equal(kind(x, true), DIFF_NEW);
	x = row(p, r, n, "old_path");
	assert_int_equal(kind(x, false), DIFF_GONE);
	assert_int_equal(x->self[1], 0);
	x = row(p, r, n, "parse");     /* no self; total 60% -> 42.86% */
	assert_int_equal(kind(x, false), DIFF_SAME);
	assert_int_equal(kind(x, true), DIFF_SHRANK);
	assert_int_equal(x->total[0], 60);
	assert_int_equal(x->total[1], 60);
	diff_top_info(x, true, &di);
	assert_float_equal(di.change, 600.0 / 14 - 60, 1e-9);
	/* parse's -17.14 points is the largest change of any frame. */
	assert_float_equal(profile_max_change(p), 60 - 600.0 / 14, 1e-9);
	assert_float_equal(di.intensity, 1, 1e-9);
	/* loop's self, +12.86 points: 0.75 of it. */
	diff_top_info(row(p, r, n, "loop"), false, &di);
	assert_float_equal(di.intensity, 0.75, 1e-9);
	assert_int_equal(kind(row(p, r, n, "main"), true), DIFF_SAME);
	free(r);
	profile_destroy(p);
}

/* Sized by BEFORE (diff_swap, negated): the same rows, sides kept. */
static void negated_same_rows(void **state)
{
	struct profile *p = comparison(), *sw = diff_swap(p);
	struct diff_top_row *r, *s;
	size_t n = diff_top_rows(p, false, &r);

	(void)state;
	assert_int_equal(diff_top_rows(sw, true, &s), n);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(name(p, &r[i]), name(sw, &s[i]));
		for (int k = 0; k < 2; k++) {
			assert_int_equal(r[i].self[k], s[i].self[k]);
			assert_int_equal(r[i].total[k], s[i].total[k]);
			assert_int_equal(r[i].all[k], s[i].all[k]);
			assert_true(r[i].self_pct[k] == s[i].self_pct[k]);
			assert_true(r[i].total_pct[k] == s[i].total_pct[k]);
		}
	}
	free(r);
	free(s);
	profile_destroy(sw);
	profile_destroy(p);
}

static void orders(void **state)
{
	struct profile *p = comparison();
	struct diff_top_row *r;
	size_t n = diff_top_rows(p, false, &r);

	(void)state;
	diff_top_sort(p, r, n, TOP_BY_SELF);     /* loop 42.86% after */
	assert_string_equal(name(p, &r[0]), "loop");
	assert_string_equal(name(p, &r[1]), "lex");
	/* Equal self after (0): the larger before first, then by name. */
	assert_string_equal(name(p, &r[4]), "old_path");
	assert_string_equal(name(p, &r[5]), "eval");
	/* main; eval and parse 42.86% after, parse 60% before first. */
	diff_top_sort(p, r, n, TOP_BY_TOTAL);
	assert_string_equal(name(p, &r[0]), "main");
	assert_string_equal(name(p, &r[1]), "parse");
	assert_string_equal(name(p, &r[2]), "eval");
	diff_top_sort(p, r, n, TOP_BY_NAME);
	assert_string_equal(name(p, &r[0]), "eval");
	assert_string_equal(name(p, &r[7]), "tree");
	diff_top_sort(p, r, n, TOP_BY_CHANGE);
	assert_string_equal(name(p, &r[0]), "new_path");
	/* No self change: by the total change, parse's -17.14 first. */
	assert_string_equal(name(p, &r[5]), "parse");
	assert_string_equal(name(p, &r[7]), "main");
	free(r);
	profile_destroy(p);
}

static uint32_t node_of(const struct profile *p, const char *fn)
{
	for (uint32_t n = 1; n < profile_node_count(p); n++)
		if (strcmp(profile_name(p, n), fn) == 0)
			return n;
	fail_msg("no node %s", fn);
	return NODE_NONE;
}

/*
 * BEFORE m;p 50, m;q 1, m;r 49; AFTER m;p 40, m;q 3, m;r 57: q +2 points
 * (a threefold share) is paler than r +8, and p -10, the largest change,
 * is the deepest blue; the ratio of shares would make q the deepest red.
 */
static void colors_follow_points(void **state)
{
	static const struct stack before[] = {
		{ "m;p", 50 }, { "m;q", 1 }, { "m;r", 49 },
	}, after[] = {
		{ "m;p", 40 }, { "m;q", 3 }, { "m;r", 57 },
	};
	struct profile *d = compare(before, 3, after, 3), *sw;
	struct theme th;
	struct diff_info di;
	struct diff_top_row *r;
	size_t n;

	(void)state;
	assert_float_equal(profile_max_change(d), 10.0, 1e-9);
	memset(&th, 0, sizeof(th));
	th.slot[TS_SAME].bg = 0xffffff;
	th.slot[TS_GREW].bg = 0xff2828;
	th.slot[TS_SHRANK].bg = 0x2828ff;
	diff_info(d, node_of(d, "q"), false, &di);
	assert_float_equal(di.intensity, 0.2, 1e-9);
	diff_info(d, node_of(d, "r"), false, &di);
	assert_float_equal(di.intensity, 0.8, 1e-9);
	diff_info(d, node_of(d, "p"), false, &di);
	assert_float_equal(di.intensity, 1.0, 1e-9);
	/* 0xff - 0.2 * (0xff - 0x28) = 0xd4; 0xff - 0.8 * 0xd7 = 0x53. */
	assert_int_equal(diff_color(&th, d, node_of(d, "q"), false), 0xffd4d4);
	assert_int_equal(diff_color(&th, d, node_of(d, "r"), false), 0xff5353);
	assert_int_equal(diff_color(&th, d, node_of(d, "p"), false), 0x2828ff);
	assert_int_equal(diff_color(&th, d, node_of(d, "m"), false), 0xffffff);
	/* Sized by BEFORE: the same colors. */
	sw = diff_swap(d);
	assert_int_equal(diff_color(&th, sw, node_of(sw, "q"), true), 0xffd4d4);
	assert_int_equal(diff_color(&th, sw, node_of(sw, "p"), true), 0x2828ff);
	profile_destroy(sw);
	/* The top table's cells: the same scale. */
	n = diff_top_rows(d, false, &r);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(name(d, &r[i]), "q") != 0)
			continue;
		diff_top_info(&r[i], false, &di);
		assert_int_equal(diff_color_of(&th, &di), 0xffd4d4);
	}
	free(r);
	profile_destroy(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_and_changes),
		cmocka_unit_test(negated_same_rows),
		cmocka_unit_test(orders),
		cmocka_unit_test(colors_follow_points),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
