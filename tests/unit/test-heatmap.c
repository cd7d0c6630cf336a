/*
 * test-heatmap.c - the sub-second heat map's binning on hand-made
 * timelines: periodic work in one row, an empty second, a recording
 * shorter than a second, fractional weights, coarser columns for a long
 * recording, and cells back to time ranges.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "heatmap.h"
#include "profile.h"

#define S 1000000000ULL
#define MS 1000000ULL

/* A sample of stack "name" at time t (ns) with weight v / 10^dec. */
static void add(struct profile *p, const char *name, uint64_t t, uint64_t v,
		unsigned dec)
{
	struct weight w = { v, 0, dec };
	struct sample_meta m = { .time_ns = t, .has_time = true };
	uint32_t node = profile_child(p, NODE_ROOT,
				      profile_intern(p, name, strlen(name)));

	assert_int_equal(profile_add_at(p, node, &w, &m), ADD_OK);
}

static void rows_for(void **state)
{
	(void)state;
	assert_int_equal(heatmap_rows_for(100), 50);
	assert_int_equal(heatmap_rows_for(50), 50);
	assert_int_equal(heatmap_rows_for(49), 40);
	assert_int_equal(heatmap_rows_for(24), 20);
	assert_int_equal(heatmap_rows_for(9), 8);
	assert_int_equal(heatmap_rows_for(3), 2);
	assert_int_equal(heatmap_rows_for(1), 1);
	assert_int_equal(heatmap_rows_for(0), 1);
}

/*
 * Ten seconds; every second four samples at 200-230 ms (row 10 of 20 ms:
 * 200-219 ms, and row 11) and one at 700 ms; second 4 has none at all.
 */
static void periodic(void **state)
{
	struct profile *p = profile_create();
	struct heatmap h;
	const uint64_t t0 = 100 * S;

	(void)state;
	add(p, "start", t0, 1, 0);
	for (unsigned s = 0; s < 10; s++) {
		if (s == 4)
			continue;
		for (unsigned k = 0; k < 4; k++)
			add(p, "tick", t0 + s * S + 200 * MS + k * 5 * MS, 1, 0);
		add(p, "bg", t0 + s * S + 700 * MS, 1, 0);
	}
	profile_finish(p);
	heatmap_init(&h);
	assert_true(heatmap_build(&h, p, 120, 60));
	assert_true(h.t0 == t0);
	assert_int_equal(h.rows, 50);
	assert_true(h.row_ns == 20 * MS && h.col_ns == S);
	assert_int_equal(h.cols, 10);
	assert_true(h.max == 4);
	assert_true(h.total == 1 + 9 * 5);
	for (unsigned c = 0; c < 10; c++) {
		uint64_t col = 0;

		for (unsigned r = 0; r < h.rows; r++)
			col += heatmap_weight(&h, c, r);
		/* The periodic work: all of it in row 10, every second. */
		assert_true(heatmap_weight(&h, c, 10) == (c == 4 ? 0 : 4));
		assert_int_equal(heatmap_count(&h, c, 10), c == 4 ? 0 : 4);
		assert_true(heatmap_weight(&h, c, 35) == (c == 4 ? 0 : 1));
		/* The stall: an empty column. */
		assert_true(col == (c == 4 ? 0 : c == 0 ? 6 : 5));
	}
	assert_true(heatmap_weight(&h, 0, 0) == 1);     /* "start" */
	assert_true(heatmap_weight(&h, 10, 0) == 0);    /* outside */
	/* Levels: empty 0, the largest the top, any sample at least 1. */
	assert_int_equal(heatmap_level(&h, 0, 10), 0);
	assert_int_equal(heatmap_level(&h, 4, 10), 9);
	assert_int_equal(heatmap_level(&h, 1, 10), 3);   /* ceil(9/4) */
	assert_int_equal(heatmap_level(&h, 2, 10), 5);   /* ceil(18/4) */

	/* Fewer rows on a shorter screen: 20 rows of 50 ms. */
	assert_true(heatmap_build(&h, p, 120, 24));
	assert_int_equal(h.rows, 20);
	assert_true(h.row_ns == 50 * MS);
	assert_true(heatmap_weight(&h, 3, 4) == 4);
	assert_true(heatmap_weight(&h, 3, 14) == 1);
	heatmap_free(&h);
	profile_destroy(p);
}

/* Shorter than a second: one column, and the samples still spread. */
static void short_recording(void **state)
{
	struct profile *p = profile_create();
	struct heatmap h;

	(void)state;
	add(p, "a", 5 * S + 10 * MS, 1, 0);
	add(p, "a", 5 * S + 15 * MS, 2, 0);
	add(p, "b", 5 * S + 310 * MS, 7, 0);
	profile_finish(p);
	heatmap_init(&h);
	assert_true(heatmap_build(&h, p, 80, 50));
	assert_int_equal(h.cols, 1);
	assert_true(h.t0 == 5 * S + 10 * MS);
	assert_true(heatmap_weight(&h, 0, 0) == 3);
	assert_int_equal(heatmap_count(&h, 0, 0), 2);
	assert_true(heatmap_weight(&h, 0, 15) == 7);
	assert_true(h.max == 7 && h.total == 10);

	/* One sample: one column, one cell, the top of the scale. */
	heatmap_setup(&h, 42, 42, 10, 10);
	assert_int_equal(h.cols, 1);
	assert_true(heatmap_add(&h, 42, 5));
	assert_false(heatmap_add(&h, 41, 5));
	assert_false(heatmap_add(&h, 42 + S, 5));
	assert_int_equal(heatmap_level(&h, 5, 10), 9);
	heatmap_free(&h);
	profile_destroy(p);
}

/* Fractional weights stay exact, in the profile's scale. */
static void fractional(void **state)
{
	struct profile *p = profile_create();
	struct heatmap h;

	(void)state;
	add(p, "a", 0, 15, 1);          /* 1.5 */
	add(p, "a", 1 * MS, 25, 2);     /* 0.25 */
	add(p, "b", 2 * S + 990 * MS, 1, 0);
	profile_finish(p);
	assert_int_equal(profile_decimals(p), 2);
	heatmap_init(&h);
	assert_true(heatmap_build(&h, p, 100, 50));
	assert_int_equal(h.cols, 3);
	assert_true(heatmap_weight(&h, 0, 0) == 175);   /* 1.75 */
	assert_true(heatmap_weight(&h, 2, 49) == 100);  /* 1.00 */
	assert_true(h.total == profile_total(p, NODE_ROOT));
	heatmap_free(&h);
	profile_destroy(p);
}

/* Longer than the screen is wide: columns of whole seconds. */
static void coarse_columns(void **state)
{
	struct heatmap h;
	uint64_t a, b;

	(void)state;
	heatmap_init(&h);
	/* 100 s on 30 columns: 4 s a column, 25 columns. */
	heatmap_setup(&h, 0, 99 * S + 500 * MS, 30, 50);
	assert_true(h.col_ns == 4 * S);
	assert_int_equal(h.cols, 25);
	assert_true(h.row_ns == 80 * MS);
	assert_true(heatmap_add(&h, 9 * S, 1));
	assert_true(heatmap_weight(&h, 2, 12) == 1);   /* 8 s + 960 ms */
	heatmap_cell_span(&h, 2, 12, &a, &b);
	assert_true(a == 8 * S + 960 * MS && b == 8 * S + 1040 * MS);
	/* Exactly 30 s on 30 columns: 31 seconds touched, 2 s columns. */
	heatmap_setup(&h, 0, 30 * S, 30, 50);
	assert_true(h.col_ns == 2 * S);
	assert_int_equal(h.cols, 16);
	/* Absurd timestamps: the last column's end saturates, nothing
	 * wraps, and the last time still has a cell. */
	heatmap_setup(&h, 0, UINT64_MAX, 10, 50);
	assert_int_equal(h.cols, 10);
	assert_true(heatmap_add(&h, UINT64_MAX, 1));
	assert_true(heatmap_weight(&h, 9, 49) == 1);
	heatmap_cell_span(&h, 9, 49, &a, &b);
	assert_true(b == UINT64_MAX && a < b);
	heatmap_setup(&h, 0, UINT64_MAX, 1, 50);
	assert_int_equal(h.cols, 1);
	assert_true(h.col_ns == UINT64_MAX);
	assert_true(heatmap_add(&h, UINT64_MAX, 1));
	assert_true(heatmap_add(&h, 0, 1));
	assert_true(heatmap_weight(&h, 0, 49) == 1);
	heatmap_free(&h);
}

/* Cells back to time: [start, end), in time order either way round. */
static void ranges(void **state)
{
	struct profile *p = profile_create();
	struct heatmap h;
	uint64_t a, b, w;
	unsigned c, r;
	const uint64_t t0 = 100 * S;

	(void)state;
	for (unsigned s = 0; s < 5; s++)
		for (unsigned k = 0; k < 50; k++)
			add(p, "x", t0 + s * S + k * 20 * MS, 1 + s, 0);
	profile_finish(p);
	heatmap_init(&h);
	assert_true(heatmap_build(&h, p, 100, 50));
	heatmap_cell_span(&h, 1, 10, &a, &b);
	assert_true(a == t0 + S + 200 * MS && b == t0 + S + 220 * MS);
	assert_true(heatmap_cell_of(&h, a, &c, &r) && c == 1 && r == 10);
	assert_true(heatmap_cell_of(&h, b - 1, &c, &r) && c == 1 && r == 10);
	assert_false(heatmap_cell_of(&h, t0 - 1, &c, &r));
	/* From (1, 40) to (3, 5), named in either order. */
	heatmap_range(&h, 1, 40, 3, 5, &a, &b);
	assert_true(a == t0 + S + 800 * MS && b == t0 + 3 * S + 120 * MS);
	heatmap_range(&h, 3, 5, 1, 40, &a, &b);
	assert_true(a == t0 + S + 800 * MS && b == t0 + 3 * S + 120 * MS);
	/* The range holds exactly the cells between: 10 of column 1, all 50
	 * of column 2, 6 of column 3. */
	profile_count_range(p, a, b - 1, &w);
	assert_true(w == 10 * 2 + 50 * 3 + 6 * 4);
	/* One cell: its own span. */
	heatmap_range(&h, 4, 49, 4, 49, &a, &b);
	assert_true(a == t0 + 4 * S + 980 * MS && b == t0 + 5 * S);
	heatmap_free(&h);

	/* No timeline (folded input): no map. */
	profile_destroy(p);
	p = profile_create();
	{
		uint32_t f = profile_intern(p, "f", 1);
		struct weight wt = { 3, 0, 0 };

		profile_add_stack(p, &f, 1, &wt, NULL);
		profile_finish(p);
	}
	assert_false(heatmap_build(&h, p, 100, 50));
	assert_int_equal(h.cols, 0);
	assert_true(heatmap_weight(&h, 0, 0) == 0);
	heatmap_free(&h);
	profile_destroy(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_for),
		cmocka_unit_test(periodic),
		cmocka_unit_test(short_recording),
		cmocka_unit_test(fractional),
		cmocka_unit_test(coarse_columns),
		cmocka_unit_test(ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
