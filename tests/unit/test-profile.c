/*
 * test-profile.c - the call tree: building, merging, totals, sorting,
 * fixed-point weights, overflow, differential weights and time ranges.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "profile.h"
#include "stacks.h"

/* The child of parent called name, or NODE_NONE. */
static uint32_t child(const struct profile *p, uint32_t parent,
		      const char *name)
{
	for (uint32_t c = profile_node(p, parent)->child; c != NODE_NONE;
	     c = profile_node(p, c)->next)
		if (strcmp(profile_name(p, c), name) == 0)
			return c;
	return NODE_NONE;
}

static void totals_and_self(void **state)
{
	struct profile *p = profile_create();
	uint32_t m, f;

	(void)state;
	stack_add_full(p, "main;foo", 3, 0, -1);
	stack_add_full(p, "main", 2, 0, -1);
	stack_add_full(p, "main;bar", 5, 0, -1);
	stack_add_full(p, "main;foo", 1, 0, -1);
	profile_finish(p);
	m = child(p, NODE_ROOT, "main");
	f = child(p, m, "foo");
	assert_int_not_equal(m, NODE_NONE);
	assert_int_equal(profile_total(p, NODE_ROOT), 11);
	assert_int_equal(profile_total(p, m), 11);
	assert_int_equal(profile_self(p, m), 2);
	assert_int_equal(profile_total(p, f), 4);
	assert_int_equal(profile_self(p, f), 4);
	assert_int_equal(profile_depth(p, f), 2);
	assert_int_equal(profile_samples(p), 4);
	assert_int_equal(profile_distinct_stacks(p), 3);
	assert_int_equal(profile_max_depth(p), 2);
	assert_string_equal(profile_name(p, NODE_ROOT), "all");
	profile_destroy(p);
}

static void siblings_sorted_by_name(void **state)
{
	struct profile *p = profile_create();
	const char *want[] = { "Zeta", "alpha", "alpha2", "beta" };
	uint32_t c;
	int i = 0;

	(void)state;
	stack_add_full(p, "beta", 1, 0, -1);
	stack_add_full(p, "alpha2", 1, 0, -1);
	stack_add_full(p, "Zeta", 1, 0, -1);
	stack_add_full(p, "alpha", 1, 0, -1);
	profile_finish(p);
	for (c = profile_node(p, NODE_ROOT)->child; c != NODE_NONE;
	     c = profile_node(p, c)->next)
		assert_string_equal(profile_name(p, c), want[i++]);
	assert_int_equal(i, 4);
	profile_destroy(p);
}

static void fractional_weights_exact(void **state)
{
	struct profile *p = profile_create();
	char buf[64];

	(void)state;
	stack_add_full(p, "a", 1, 0, -1);          /* 1 */
	stack_add_full(p, "a", 15, 1, -1);         /* 1.5 */
	stack_add_full(p, "b", 25, 2, -1);         /* 0.25 */
	profile_finish(p);
	assert_int_equal(profile_decimals(p), 2);
	profile_format_weight(p, profile_total(p, child(p, NODE_ROOT, "a")),
			      buf, sizeof(buf));
	assert_string_equal(buf, "2.5");
	profile_format_weight(p, profile_total(p, NODE_ROOT), buf, sizeof(buf));
	assert_string_equal(buf, "2.75");
	profile_format_weight(p, 300, buf, sizeof(buf));
	assert_string_equal(buf, "3");
	profile_destroy(p);
}

/*
 * Whole weights as snprintf would write them: every digit of the largest,
 * and in a buffer too small the digits that fit, the full length returned.
 */
static void whole_weights_formatted(void **state)
{
	struct profile *p = profile_create();
	char buf[64], small[4];
	static const uint64_t ws[] = { 0, 1, 9, 10, 99, 100, 1234567890123ULL,
				       UINT64_MAX };

	(void)state;
	for (size_t i = 0; i < sizeof(ws) / sizeof(ws[0]); i++) {
		char want[64];
		int n = snprintf(want, sizeof(want), "%llu",
				 (unsigned long long)ws[i]);

		assert_int_equal(profile_format_weight(p, ws[i], buf, sizeof(buf)),
				 (size_t)n);
		assert_string_equal(buf, want);
	}
	assert_int_equal(profile_format_weight(p, 123456, small, sizeof(small)),
			 6);
	assert_string_equal(small, "123");
	small[0] = 'x';
	assert_int_equal(profile_format_weight(p, 42, small, 0), 2);
	assert_int_equal(small[0], 'x');
	profile_destroy(p);
}

static void overflow_rejected(void **state)
{
	struct profile *p = profile_create();

	(void)state;
	assert_int_equal(stack_add_full(p, "a", UINT64_MAX - 1, 0, -1), ADD_OK);
	assert_int_equal(stack_add_full(p, "b", 2, 0, -1), ADD_OVERFLOW);
	assert_int_equal(stack_add_full(p, "b", 1, 0, -1), ADD_OK);
	/* A decimal would need every weight times ten: no room. */
	assert_int_equal(stack_add_full(p, "c", 5, 1, -1), ADD_OVERFLOW);
	profile_finish(p);
	assert_int_equal(profile_total(p, NODE_ROOT), UINT64_MAX);
	assert_int_equal(profile_decimals(p), 0);
	profile_destroy(p);
}

static void empty_and_too_deep(void **state)
{
	struct profile *p = profile_create();
	struct weight w = { 1, 0, 0 };

	(void)state;
	assert_int_equal(profile_add_stack(p, NULL, 0, &w, NULL), ADD_EMPTY);
	assert_int_equal(profile_add_stack(p, NULL, PROFILE_MAX_DEPTH, &w, NULL),
			 ADD_TOO_DEEP);
	profile_destroy(p);
}

static void differential_weights(void **state)
{
	struct profile *p = profile_create();
	uint32_t s = profile_intern(p, "x", 1);
	struct weight w = { 7, 3, 0 };
	uint32_t n;

	(void)state;
	profile_set_differential(p, true);
	profile_add_stack(p, &s, 1, &w, NULL);
	profile_finish(p);
	n = child(p, NODE_ROOT, "x");
	assert_int_equal(profile_total(p, n), 7);
	assert_int_equal(profile_total2(p, n), 3);
	assert_int_equal(profile_self2(p, n), 3);
	assert_int_equal(profile_total2(p, NODE_ROOT), 3);
	profile_destroy(p);
}

static void time_ranges(void **state)
{
	struct profile *p = profile_create();
	uint64_t a, b, w;
	uint32_t x, y;

	(void)state;
	stack_add_full(p, "x", 1, 0, 300);
	stack_add_full(p, "y", 2, 0, 100);    /* out of order on purpose */
	stack_add_full(p, "x", 4, 0, 200);
	profile_finish(p);
	assert_true(profile_has_timeline(p));
	assert_true(profile_time_bounds(p, &a, &b));
	assert_int_equal(a, 100);
	assert_int_equal(b, 300);
	assert_int_equal(profile_count_range(p, 150, 300, &w), 2);
	assert_int_equal(w, 5);
	profile_set_range(p, 150, 250);
	x = child(p, NODE_ROOT, "x");
	y = child(p, NODE_ROOT, "y");
	assert_int_equal(profile_total(p, NODE_ROOT), 4);
	assert_int_equal(profile_total(p, x), 4);
	assert_int_equal(profile_total(p, y), 0);
	assert_int_equal(profile_distinct_stacks(p), 1);
	/* A sample arriving inside the selected range counts at once. */
	stack_add_full(p, "y", 8, 0, 240);
	profile_finish(p);
	assert_int_equal(profile_total(p, y), 8);
	profile_clear_range(p);
	assert_int_equal(profile_total(p, NODE_ROOT), 15);
	profile_reset_weights(p);
	assert_int_equal(profile_total(p, NODE_ROOT), 0);
	assert_false(profile_has_timeline(p));
	/* The shape stays: ids are stable. */
	assert_int_equal(child(p, NODE_ROOT, "x"), x);
	profile_destroy(p);
}

/*
 * --diff: AFTER's samples, then BEFORE's into the first count; the
 * timeline keeps both, aligned at their starts, with a range per side.
 */
static void before_column(void **state)
{
	struct profile *p = profile_create();
	uint64_t a, b;
	uint32_t x, y;

	(void)state;
	stack_add_full(p, "x", 5, 0, 1000);
	stack_add_full(p, "y", 1, 0, 1010);
	profile_set_before_column(p, true);
	/* Readers see a fresh profile of one count. */
	assert_false(profile_is_differential(p));
	assert_int_equal(profile_samples(p), 0);
	stack_add_full(p, "x", 2, 0, 50);
	stack_add_full(p, "z", 3, 0, 70);
	stack_add_full(p, "y", 4, 0, -1);    /* untimed */
	profile_set_before_column(p, false);
	assert_true(profile_is_differential(p));
	assert_int_equal(profile_samples(p), 5);
	assert_true(profile_column_bounds(p, true, &a, &b));
	assert_int_equal(a, 50);
	assert_int_equal(b, 70);
	profile_align_columns(p);
	assert_true(profile_column_bounds(p, true, &a, &b));
	assert_int_equal(a, 1000);
	assert_int_equal(b, 1020);
	assert_true(profile_column_bounds(p, false, &a, &b));
	assert_int_equal(a, 1000);
	assert_int_equal(b, 1010);
	profile_finish(p);
	x = child(p, NODE_ROOT, "x");
	y = child(p, NODE_ROOT, "y");
	assert_int_equal(profile_total(p, NODE_ROOT), 6);
	assert_int_equal(profile_total2(p, NODE_ROOT), 9);
	assert_int_equal(profile_self2(p, x), 2);
	assert_int_equal(profile_self2(p, y), 4);
	assert_int_equal(profile_timeline_len(p), 4);
	/* One range for both: BEFORE's x (moved to 1000) and AFTER's x. */
	profile_set_range(p, 1000, 1005);
	assert_int_equal(profile_total(p, x), 5);
	assert_int_equal(profile_total2(p, x), 2);
	assert_int_equal(profile_total2(p, NODE_ROOT), 2);
	/* A range per side. */
	profile_set_ranges(p, 1010, 1010, 1020, 1020);
	assert_int_equal(profile_total(p, NODE_ROOT), 1);
	assert_int_equal(profile_total(p, y), 1);
	assert_int_equal(profile_total2(p, NODE_ROOT), 3);
	assert_int_equal(profile_total2(p, x), 0);
	profile_clear_range(p);
	assert_int_equal(profile_total2(p, NODE_ROOT), 9);
	profile_destroy(p);
}

static void child_ids_stable_across_finish(void **state)
{
	struct profile *p = profile_create();
	uint32_t a = profile_child(p, NODE_ROOT, profile_intern(p, "a", 1));
	uint32_t b;

	(void)state;
	profile_finish(p);
	b = profile_child(p, NODE_ROOT, profile_intern(p, "a", 1));
	assert_int_equal(a, b);
	assert_int_equal(profile_node(p, a)->parent, NODE_ROOT);
	profile_destroy(p);
}

/*
 * A subtree built in a profile of its own (with the first's names), then
 * grafted under a childless node: the same tree, depths and lookups as
 * one built in place, weights added at its nodes, and the second profile
 * left a lone root for the next subtree.
 */
static void graft_subtree(void **state)
{
	struct profile *p = profile_create(), *q = profile_create();
	uint32_t a = profile_intern(p, "a", 1), b = profile_intern(p, "b", 1);
	uint32_t c = profile_intern(p, "c", 1), syms[2] = { b, c };
	uint32_t top, x, y, first, base, last;
	struct weight w = { .v = 4 };

	(void)state;
	stack_add_full(p, "main;other", 1, 0, -1);
	top = profile_child(p, NODE_ROOT, profile_intern(p, "main", 4));
	x = profile_append_child_ordered(q, NODE_ROOT, NODE_NONE, a);
	first = profile_append_chain(q, x, NODE_NONE, syms, 2);
	y = profile_append_child_ordered(q, NODE_ROOT, x, b);
	x = profile_append_child(p, top, NODE_NONE, a);   /* top's first */
	assert_int_equal(profile_node(p, x)->child, NODE_NONE);
	base = (uint32_t)profile_node_count(p);
	assert_int_equal(profile_graft(p, x, q), base);
	assert_int_equal(profile_node_count(q), 1);
	assert_int_equal(profile_node(q, NODE_ROOT)->child, NODE_NONE);
	assert_int_equal(profile_node_count(p), base + 4);
	/* q's nodes 1..4 are p's base..base+3, under x and one deeper. */
	assert_int_equal(profile_node(p, x)->child, base);
	assert_int_equal(profile_node(p, base)->parent, x);
	assert_int_equal(profile_node(p, base)->next, base + 3);
	assert_int_equal(profile_node(p, base + 3)->parent, x);
	assert_int_equal(profile_node(p, base + 3)->next, NODE_NONE);
	assert_int_equal(first + base - 1, base + 1);
	assert_int_equal(profile_depth(p, base), profile_depth(p, x) + 1);
	assert_int_equal(profile_depth(p, base + 2), profile_depth(p, x) + 3);
	assert_string_equal(profile_name(p, base + 2), "c");
	assert_string_equal(profile_name(p, y + base - 1), "b");
	last = profile_child(p, profile_child(p, profile_child(p, x, a), b), c);
	assert_int_equal(last, base + 2);
	assert_int_equal(profile_add_at(p, last, &w, NULL), ADD_OK);
	profile_finish(p);
	assert_int_equal(profile_total(p, x), 4);
	assert_int_equal(profile_total(p, NODE_ROOT), 5);
	profile_destroy(p);
	profile_destroy(q);
}

static void amounts_by_unit(void **state)
{
	struct profile *p = profile_create();
	char buf[64];

	(void)state;
	assert_int_equal(profile_unit(p), UNIT_SAMPLES);
	profile_format_amount(p, 917, buf, sizeof(buf));
	assert_string_equal(buf, "917 samples");
	profile_format_amount(p, 1284, buf, sizeof(buf));
	assert_string_equal(buf, "1.28k samples");
	profile_format_figure(p, 1284, buf, sizeof(buf));
	assert_string_equal(buf, "1.28k");
	profile_set_unit_name(p, "page-faults");
	profile_format_amount(p, 1284, buf, sizeof(buf));
	assert_string_equal(buf, "1.28k page-faults");
	profile_set_unit_name(p, NULL);
	profile_note_unit(p, UNIT_NS);
	profile_format_amount(p, 2999999970ULL, buf, sizeof(buf));
	assert_string_equal(buf, "3.00 s CPU");
	profile_format_amount(p, 999999900, buf, sizeof(buf));
	assert_string_equal(buf, "1.00 s CPU");
	profile_format_amount(p, 366733464, buf, sizeof(buf));
	assert_string_equal(buf, "366.7 ms CPU");
	/* The figure alone: a self beside a total in ms is in ms too. */
	profile_format_figure(p, 82164328, buf, sizeof(buf));
	assert_string_equal(buf, "82.2 ms");
	profile_format_amount(p, 0, buf, sizeof(buf));
	assert_string_equal(buf, "0 ns CPU");
	{
		struct profile *h = profile_create();

		profile_note_unit(h, UNIT_BYTES);
		profile_format_amount(h, 11534336, buf, sizeof(buf));
		assert_string_equal(buf, "11.0 MB");
		profile_format_figure(h, 832, buf, sizeof(buf));
		assert_string_equal(buf, "832 B");
		profile_destroy(h);
	}
	/* Another input whose weights are counts: back to samples, for good. */
	profile_note_unit(p, UNIT_SAMPLES);
	assert_int_equal(profile_unit(p), UNIT_SAMPLES);
	profile_note_unit(p, UNIT_NS);
	assert_int_equal(profile_unit(p), UNIT_SAMPLES);
	assert_string_equal(profile_unit_mixed(p), "CPU time and samples");
	profile_destroy(p);
}

/* Root frames' task suffixes: perf's -1 (UINT32_MAX) is "?". */
static void task_suffixes(void **state)
{
	char buf[32];
	uint32_t tid = 7, none = UINT32_MAX;

	(void)state;
	assert_int_equal(profile_task_suffix(buf, sizeof(buf), 42, NULL), 3);
	assert_string_equal(buf, "-42");
	profile_task_suffix(buf, sizeof(buf), 42, &tid);
	assert_string_equal(buf, "-42/7");
	profile_task_suffix(buf, sizeof(buf), UINT32_MAX, &none);
	assert_string_equal(buf, "-?/?");
	assert_int_equal(profile_task_suffix(buf, 4, 123456, &tid), 3);
	assert_string_equal(buf, "-12");
}

/* Inputs that count different events, or events and samples, mix. */
static void units_named(void **state)
{
	struct profile *p = profile_create();
	char buf[64];

	(void)state;
	profile_note_unit_named(p, UNIT_SAMPLES, "page-faults");
	profile_note_unit_named(p, UNIT_SAMPLES, "page-faults");
	assert_null(profile_unit_mixed(p));
	profile_format_amount(p, 252, buf, sizeof(buf));
	assert_string_equal(buf, "252 page-faults");
	/* Plain samples beside page-faults: neither. */
	profile_note_unit(p, UNIT_SAMPLES);
	profile_format_amount(p, 252, buf, sizeof(buf));
	assert_string_equal(buf, "252 samples");
	assert_string_equal(profile_unit_mixed(p), "page-faults and samples");
	profile_note_unit_named(p, UNIT_SAMPLES, "page-faults");
	assert_string_equal(profile_unit_name(p), "");
	profile_destroy(p);
	p = profile_create();
	profile_note_unit_named(p, UNIT_SAMPLES, "cycles");
	profile_note_unit_named(p, UNIT_SAMPLES, "sched:sched_switch events");
	assert_string_equal(profile_unit_mixed(p),
			    "cycles and sched:sched_switch events");
	profile_destroy(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(totals_and_self),
		cmocka_unit_test(units_named),
		cmocka_unit_test(task_suffixes),
		cmocka_unit_test(siblings_sorted_by_name),
		cmocka_unit_test(fractional_weights_exact),
		cmocka_unit_test(whole_weights_formatted),
		cmocka_unit_test(overflow_rejected),
		cmocka_unit_test(empty_and_too_deep),
		cmocka_unit_test(differential_weights),
		cmocka_unit_test(time_ranges),
		cmocka_unit_test(before_column),
		cmocka_unit_test(child_ids_stable_across_finish),
		cmocka_unit_test(graft_subtree),
		cmocka_unit_test(amounts_by_unit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
