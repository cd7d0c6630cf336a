/*
 * test-timerange.c - --time specifications: seconds from the first
 * sample, perf-style percentages, their errors, and applying a range to a
 * profile.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "profile.h"
#include "timerange.h"

#define S 1000000000ULL

/* Parse with the samples running from first to last; -1 on an error. */
static int parse(const char *spec, uint64_t first, uint64_t last,
		 uint64_t *t0, uint64_t *t1, char *err)
{
	return timerange_parse(spec, first, last, t0, t1, err, 200);
}

static void seconds(void **state)
{
	uint64_t t0, t1;
	char err[200];

	(void)state;
	assert_int_equal(parse("1.5,3", 100 * S, 200 * S, &t0, &t1, err), 0);
	assert_true(t0 == 101 * S + S / 2);
	assert_true(t1 == 103 * S);
	assert_int_equal(parse(",2", 100 * S, 200 * S, &t0, &t1, err), 0);
	assert_true(t0 == 100 * S && t1 == 102 * S);
	assert_int_equal(parse("10,", 100 * S, 200 * S, &t0, &t1, err), 0);
	assert_true(t0 == 110 * S && t1 == 200 * S);
	/* Exact to the nanosecond; digits past the ninth decimal dropped. */
	assert_int_equal(parse("0.000000001,.1234567899", 0, S, &t0, &t1, err),
			 0);
	assert_true(t0 == 1 && t1 == 123456789);
	/* A start past the end of the samples is an empty range, not an error. */
	assert_int_equal(parse("500,", 100 * S, 200 * S, &t0, &t1, err), 0);
	assert_true(t0 == 600 * S && t1 == 600 * S);
}

static void percentages(void **state)
{
	uint64_t t0, t1;
	char err[200];

	(void)state;
	assert_int_equal(parse("10%/2", 1000, 2000, &t0, &t1, err), 0);
	assert_true(t0 == 1100 && t1 == 1200);
	assert_int_equal(parse("10%-20%", 1000, 2000, &t0, &t1, err), 0);
	assert_true(t0 == 1100 && t1 == 1200);
	assert_int_equal(parse("12.5%-50%", 0, 1000, &t0, &t1, err), 0);
	assert_true(t0 == 125 && t1 == 500);
	assert_int_equal(parse("25%/4", 0, 1000, &t0, &t1, err), 0);
	assert_true(t0 == 750 && t1 == 1000);
	assert_int_equal(parse("0%-100%", 5, UINT64_MAX, &t0, &t1, err), 0);
	assert_true(t0 == 5 && t1 == UINT64_MAX);
}

static void errors(void **state)
{
	static const struct {
		const char *spec, *msg;
	} cases[] = {
		{ "", "empty time range (START,END in seconds, P%/N or P%-Q%)" },
		{ "5", "'5' is not a time range (START,END in seconds, P%/N or "
		       "P%-Q%)" },
		{ "3,1", "'3,1': the start is after the end" },
		{ "1,2,3", "'1,2,3': one range only" },
		{ ",", "',': give a start, an end or both" },
		{ "1.2.3,4", "'1.2.3,4': the start is not a number of seconds" },
		{ "1,x", "'1,x': the end is not a number of seconds" },
		{ "-1,2", "'-1,2': the start is not a number of seconds" },
		{ "10%/0", "'10%/0': slices are numbered from 1" },
		{ "0%/1", "'0%/1': the slice size must be more than 0%" },
		{ "30%/4", "'30%/4': slice 4 ends after 100%" },
		{ "10%/", "'10%/': expected a slice number after '/'" },
		{ "10%/2,10%/3", "'10%/2,10%/3': unexpected ',10%/3' after the "
				 "slice number (one range only)" },
		{ "50%-20%", "'50%-20%': the start is after the end" },
		{ "90%-130%", "'90%-130%': percentages go from 0% to 100%" },
		{ "x%/2", "'x%/2': expected a percentage before '%' (START,END "
			  "in seconds, P%/N or P%-Q%)" },
		{ "10%", "'10%': expected '/N' or '-Q%' after the percentage "
			 "(START,END in seconds, P%/N or P%-Q%)" },
		{ "10%-20", "'10%-20': expected a percentage after '-'" },
		{ "99999999999,", "'99999999999,': the start is not a number of "
				  "seconds" },
	};
	uint64_t t0 = 7, t1 = 7;
	char err[200];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		assert_int_equal(parse(cases[i].spec, 0, 0, &t0, &t1, err), -1);
		assert_string_equal(err, cases[i].msg);
	}
	assert_true(t0 == 7 && t1 == 7);
}

static void describe(void **state)
{
	char buf[64];

	(void)state;
	timerange_describe(buf, sizeof(buf), 10 * S, 11 * S + S / 2, 13 * S);
	assert_string_equal(buf, "1.500-3.000 s");
	timerange_describe(buf, sizeof(buf), 10 * S, 5, 10 * S + 1000000);
	assert_string_equal(buf, "0.000-0.001 s");
	/* Rounded, not cut: the last ns of a second ends at that second. */
	timerange_describe(buf, sizeof(buf), 10 * S, 10 * S, 12 * S - 1);
	assert_string_equal(buf, "0.000-2.000 s");
}

/* A profile with one sample per second, weights 1, 2, 4, 8, 16. */
static struct profile *timed_profile(void)
{
	struct profile *p = profile_create();

	for (unsigned i = 0; i < 5; i++) {
		struct weight w = { 1u << i, 0, 0 };
		struct sample_meta m = { .time_ns = (100 + i) * S, .has_time = true };
		uint32_t node = profile_child(p, NODE_ROOT,
					      profile_intern(p, i % 2 ? "x" : "y", 1));

		profile_add_at(p, node, &w, &m);
	}
	profile_finish(p);
	return p;
}

static void apply(void **state)
{
	struct profile *p = timed_profile();
	char msg[200];

	(void)state;
	assert_true(profile_total(p, NODE_ROOT) == 31);
	assert_int_equal(timerange_apply(p, "1,2", msg, sizeof(msg)), 0);
	assert_string_equal(msg, "");
	assert_true(profile_total(p, NODE_ROOT) == 2 + 4);
	assert_int_equal(timerange_apply(p, "50%/2", msg, sizeof(msg)), 0);
	assert_true(profile_total(p, NODE_ROOT) == 4 + 8 + 16);
	assert_int_equal(timerange_apply(p, "10,20", msg, sizeof(msg)), 0);
	assert_string_equal(msg, "no samples in 10.000-20.000 s (the samples "
			    "span 0.000-4.000 s)");
	assert_true(profile_total(p, NODE_ROOT) == 0);
	assert_int_equal(timerange_apply(p, "2,1", msg, sizeof(msg)), 2);
	assert_string_equal(msg, "'2,1': the start is after the end");
	profile_destroy(p);

	p = profile_create();
	{
		uint32_t f = profile_intern(p, "f", 1);
		struct weight w = { 3, 0, 0 };

		profile_add_stack(p, &f, 1, &w, NULL);
		profile_finish(p);
	}
	assert_int_equal(timerange_apply(p, "1,2", msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "the profile has no timestamps"));
	assert_true(profile_total(p, NODE_ROOT) == 3);
	profile_destroy(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seconds),
		cmocka_unit_test(percentages),
		cmocka_unit_test(errors),
		cmocka_unit_test(describe),
		cmocka_unit_test(apply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
