/*
 * test-util.c - util.c's helpers that several readers share: keyed_sort
 * and the thread-owned allocation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util.h"

/*
 * keyed_sort (names' ranks, ELF symbol tables): keys in order, equal keys
 * in their first order, keys that differ in one byte only (the passes a
 * shared byte skips), high bits, none and one.
 */
static void keyed_sort_orders_keeps_ties(void **state)
{
	enum { N = 5000 };
	struct keyed *k = malloc(N * sizeof(*k));
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	(void)state;
	assert_non_null(k);
	for (int round = 0; round < 4; round++) {
		for (uint32_t i = 0; i < N; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			k[i].id = i;
			switch (round) {
			case 0: k[i].key = x % 97; break;          /* many ties */
			case 1: k[i].key = x; break;
			case 2: k[i].key = 0x7f00000000000000ULL |
					   (x & 0xff) << 24; break;  /* one byte */
			default: k[i].key = x | 1ULL << 63; break;
			}
		}
		k = keyed_sort(k, N);
		for (uint32_t i = 1; i < N; i++) {
			assert_true(k[i - 1].key <= k[i].key);
			if (k[i - 1].key == k[i].key)
				assert_true(k[i - 1].id < k[i].id);
		}
	}
	free(k);
	k = keyed_sort(malloc(sizeof(*k)), 0);
	free(k);
	k = malloc(sizeof(*k));
	k[0].key = 5;
	k[0].id = 9;
	k = keyed_sort(k, 1);
	assert_int_equal(k[0].id, 9);
	free(k);
}

/* Two structs a thread each, side by side: never in one cache line pair. */
struct owned {
	THREAD_OWNED uint64_t counter;
	char name[40];
};

static void owned_structs_apart(void **state)
{
	struct owned *o;
	unsigned char *raw;

	(void)state;
	assert_int_equal(sizeof(struct owned) % THREAD_ALIGN, 0);
	for (size_t n = 1; n <= 5; n++) {
		o = xcalloc_owned(n, sizeof(*o));
		raw = (unsigned char *)o;
		assert_int_equal((uintptr_t)o % THREAD_ALIGN, 0);
		for (size_t i = 0; i < n * sizeof(*o); i++)
			assert_int_equal(raw[i], 0);
		for (size_t i = 1; i < n; i++)
			assert_true((uintptr_t)&o[i] / THREAD_ALIGN !=
				    (uintptr_t)(&o[i - 1].name[39]) / THREAD_ALIGN);
		free(o);
	}
	/* Sizes not a multiple of the alignment are rounded up. */
	raw = xcalloc_owned(3, 5);
	assert_int_equal((uintptr_t)raw % THREAD_ALIGN, 0);
	free(raw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keyed_sort_orders_keeps_ties),
		cmocka_unit_test(owned_structs_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
