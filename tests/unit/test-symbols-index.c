/*
 * test-symbols-index.c - the bucket index of a sorted symbol table
 * answers every address as the whole table's binary search does: before
 * the first symbol, at and between starts, on bucket edges, past the last,
 * with starts repeated, spread far apart (the kernel's text and its
 * modules) or bunched, and an empty table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/symbols-priv.h"

struct entry {
	uint64_t start;
	uint64_t other;
};

/* Every address near each start and each bucket edge, and the ends. */
static void check_all(const struct entry *t, size_t n)
{
	struct sym_index ix = { 0 };
	uint64_t probes[] = { 0, 1, UINT64_MAX, UINT64_MAX - 1 };

	sym_index_build(&ix, t, n, sizeof(*t));
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		assert_int_equal(sym_index_count(&ix, t, n, sizeof(*t), probes[i]),
				 sym_count_starting_by(t, n, sizeof(*t), probes[i]));
	for (size_t i = 0; i < n; i++)
		for (int64_t d = -2; d <= 2; d++) {
			uint64_t a = t[i].start + (uint64_t)d;

			assert_int_equal(sym_index_count(&ix, t, n, sizeof(*t), a),
					 sym_count_starting_by(t, n, sizeof(*t), a));
		}
	for (size_t b = 0; ix.first && b <= ix.nb; b++)
		for (int64_t d = -1; d <= 1; d++) {
			uint64_t a = ix.base + ((uint64_t)b << ix.shift) + (uint64_t)d;

			assert_int_equal(sym_index_count(&ix, t, n, sizeof(*t), a),
					 sym_count_starting_by(t, n, sizeof(*t), a));
		}
	sym_index_free(&ix);
	assert_null(ix.first);
}

static void test_tables(void **state)
{
	enum { N = 3000 };
	struct entry *t = calloc(N, sizeof(*t));
	uint64_t a = 0x401000;

	(void)state;
	assert_non_null(t);
	check_all(t, 0);
	t[0].start = 0x1000;
	check_all(t, 1);
	/* Bunched, with repeats and gaps of every size. */
	for (size_t i = 0; i < N; i++) {
		t[i].start = a;
		a += (i % 7 == 0) ? 0 : (i % 13 == 0) ? 0x10000 : 16 + i % 40;
	}
	check_all(t, N);
	/* Far apart: text low in the address space, modules near its top. */
	for (size_t i = N / 2; i < N; i++)
		t[i].start = 0xffffffffc0000000ULL + (i - N / 2) * 96;
	check_all(t, N);
	/* All at one address. */
	for (size_t i = 0; i < N; i++)
		t[i].start = 0xffffffffffffff00ULL;
	check_all(t, N);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
