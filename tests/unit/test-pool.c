/*
 * test-pool.c - pool.c: every share run once on any number of threads,
 * whether each thread has its share or takes shares in turn, and the
 * cuts that give each share a block's bytes by its rate.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pool.h"

struct runs {
	int count[40];
};

static void count_share(void *ctx, unsigned i)
{
	((struct runs *)ctx)->count[i]++;
}

/* Shares 0..used-1 each run once a round, for 1 to 4 threads. */
static void pool_runs_each_share_once(void **state)
{
	(void)state;
	for (unsigned n = 1; n <= 4; n++) {
		struct runs r = { { 0 } };
		struct pool pl;

		pool_init(&pl, n, count_share, &r);
		for (unsigned round = 0; round < 50; round++)
			pool_run(&pl, 1 + round % n);
		pool_end(&pl);
		for (unsigned i = 0; i < n; i++) {
			int want = 0;

			for (unsigned round = 0; round < 50; round++)
				want += i < 1 + round % n;
			assert_int_equal(r.count[i], want);
		}
	}
}

/*
 * Shares taken in turn: each of 0..n-1 once a round, n below, at and
 * far above the number of threads, rounds of pool_run between them.
 */
static void pool_claimed_runs_each_share_once(void **state)
{
	(void)state;
	for (unsigned n = 1; n <= 4; n++) {
		struct runs r = { { 0 } };
		int want[40] = { 0 };
		struct pool pl;

		pool_init(&pl, n, count_share, &r);
		for (unsigned round = 0; round < 60; round++) {
			unsigned k = round % 40;

			if (round % 7 == 3) {
				k = 1 + round % n;
				pool_run(&pl, k);
			} else {
				pool_run_claimed(&pl, k);
			}
			for (unsigned i = 0; i < k; i++)
				want[i]++;
		}
		pool_end(&pl);
		for (unsigned i = 0; i < 40; i++)
			assert_int_equal(r.count[i], want[i]);
	}
}

/*
 * Equal cuts until every rate is known; then a share whose bytes took
 * half the time gets twice the bytes, and none gets under a quarter of
 * the largest.
 */
static void pool_cuts_by_rate(void **state)
{
	struct runs r = { { 0 } };
	struct pool pl;

	(void)state;
	pool_init(&pl, 3, count_share, &r);
	assert_int_equal(pool_cut(&pl, 3000, 0), 0);
	assert_int_equal(pool_cut(&pl, 3000, 1), 1000);
	assert_int_equal(pool_cut(&pl, 3000, 2), 2000);
	/* Share 0 took 2 s for 10000 bytes, shares 1 and 2 one second. */
	pl.spent[0] = 2;
	pl.spent[1] = pl.spent[2] = 1;
	pool_note(&pl, 0, 10000, 0);
	pool_note(&pl, 1, 10000, 0);
	assert_int_equal(pool_cut(&pl, 5000, 1), 1666);   /* rate 2 unknown */
	pool_note(&pl, 2, 10000, 0);
	assert_int_equal(pool_cut(&pl, 5000, 1), 1000);
	assert_int_equal(pool_cut(&pl, 5000, 2), 3000);
	/* Too short a share to measure: its rate stays. */
	pl.spent[0] = 100;
	pool_note(&pl, 0, 100, 0);
	assert_int_equal(pool_cut(&pl, 5000, 1), 1000);
	/* Time share 2 spent waiting on the others is not its own. */
	pl.spent[2] = 3;
	for (int k = 0; k < 20; k++)
		pool_note(&pl, 2, 10000, 2);
	assert_int_equal(pool_cut(&pl, 5000, 2), 3000);
	/* Share 0 stopped for a while: a quarter of the largest at least. */
	pl.spent[0] = 1000;
	for (int k = 0; k < 20; k++)
		pool_note(&pl, 0, 10000, 0);
	assert_int_equal(pool_cut(&pl, 9000, 1), 1000);
	assert_int_equal(pool_cut(&pl, 9000, 2), 5000);
	pool_end(&pl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pool_runs_each_share_once),
		cmocka_unit_test(pool_claimed_runs_each_share_once),
		cmocka_unit_test(pool_cuts_by_rate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
