/*
 * test-stack-cache.c - the raw chain cache: every part of a key tells
 * keys apart, values are found again after the table grows, a second put
 * replaces, chains are copied (the caller's buffer may change), and a
 * hash worked out beforehand finds what a key's own finds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stack-cache.h"

static struct sc_key key_of(uint64_t *chain, uint64_t nr, uint32_t pid,
			    uint32_t tid)
{
	struct sc_key k = { pid, tid, 2, 0, nr, chain, 0 };

	return k;
}

static void test_parts_of_the_key(void **state)
{
	struct stack_cache *sc = sc_create();
	uint64_t chain[4] = { 0xfffffffffffffe00ULL, 0x401000, 0x402000, 7 };
	struct sc_key k = key_of(chain, 4, 10, 11), o;
	struct sc_val v = { .stamp = 5, .leaf = 42, .comm = 3, .frames = 3 };

	(void)state;
	assert_null(sc_find(sc, &k));
	assert_true(sc_put(sc, &k, &v));
	assert_non_null(sc_find(sc, &k));
	assert_int_equal(sc_find(sc, &k)->leaf, 42);
	o = k;
	o.pid = 12;
	assert_null(sc_find(sc, &o));
	o = k;
	o.tid = 12;
	assert_null(sc_find(sc, &o));
	o = k;
	o.cpumode = 1;
	assert_null(sc_find(sc, &o));
	o = k;
	o.ip = 1;
	assert_null(sc_find(sc, &o));
	o = k;
	o.nr = 3;               /* a prefix of the chain */
	assert_null(sc_find(sc, &o));
	/* The chain was copied: the caller's words may be reused. */
	chain[2] = 0x403000;
	assert_null(sc_find(sc, &k));
	chain[2] = 0x402000;
	assert_non_null(sc_find(sc, &k));
	/* A second put replaces the value. */
	v.leaf = 43;
	v.counts[1] = 9;
	assert_true(sc_put(sc, &k, &v));
	assert_int_equal(sc_find(sc, &k)->leaf, 43);
	assert_int_equal(sc_find(sc, &k)->counts[1], 9);
	sc_destroy(sc);
}

/*
 * A key that brings its hash (worked out on another thread) finds the
 * entry its hash-less twin stored, and the other way round; the hash
 * depends on every part of the key.
 */
static void test_hash_given(void **state)
{
	struct stack_cache *sc = sc_create();
	uint64_t chain[3] = { 0xfffffffffffffe00ULL, 0x401000, 0x402000 };
	struct sc_key k = key_of(chain, 3, 20, 21), h, o;
	struct sc_val v = { .leaf = 9 };

	(void)state;
	h = k;
	h.hash = sc_hash(&k);
	assert_int_not_equal(h.hash, 0);
	assert_true(sc_put(sc, &k, &v));
	sc_prefetch(sc, h.hash);
	assert_non_null(sc_find(sc, &h));
	assert_int_equal(sc_find(sc, &h)->leaf, 9);
	o = key_of(chain, 2, 20, 21);
	v.leaf = 10;
	o.hash = sc_hash(&o);
	assert_true(sc_put(sc, &o, &v));
	o.hash = 0;
	assert_int_equal(sc_find(sc, &o)->leaf, 10);
	o = k;
	o.tid = 22;
	assert_int_not_equal(sc_hash(&o), h.hash);
	o = k;
	o.cpumode = 3;
	assert_int_not_equal(sc_hash(&o), h.hash);
	sc_destroy(sc);
}

/* An empty chain (a sample without callchain): its ip is the key. */
static void test_empty_chain(void **state)
{
	struct stack_cache *sc = sc_create();
	struct sc_key k = { 1, 1, 1, 0x401000, 0, NULL, 0 }, o = k;
	struct sc_val v = { .leaf = 7 };

	(void)state;
	assert_true(sc_put(sc, &k, &v));
	assert_int_equal(sc_find(sc, &k)->leaf, 7);
	o.ip = 0x401001;
	assert_null(sc_find(sc, &o));
	sc_destroy(sc);
}

/* Many chains (the table grows several times): each found with its value. */
static void test_growth(void **state)
{
	enum { N = 50000 };
	struct stack_cache *sc = sc_create();
	uint64_t *words = malloc(N * 3 * sizeof(*words));

	(void)state;
	assert_non_null(words);
	for (uint64_t i = 0; i < N; i++) {
		uint64_t *c = words + 3 * i;
		struct sc_key k;
		struct sc_val v = { .leaf = (uint32_t)i, .frames = (uint32_t)(i % 3) };

		c[0] = 0x400000 + i * 16;
		c[1] = 0x500000 + (i % 97);
		c[2] = i % 5;
		k = key_of(c, 1 + i % 3, (uint32_t)(i % 13), (uint32_t)(i % 13));
		assert_true(sc_put(sc, &k, &v));
	}
	for (uint64_t i = 0; i < N; i++) {
		struct sc_key k = key_of(words + 3 * i, 1 + i % 3,
					 (uint32_t)(i % 13), (uint32_t)(i % 13));
		const struct sc_val *v = sc_find(sc, &k);

		assert_non_null(v);
		assert_int_equal(v->leaf, i);
		assert_int_equal(v->frames, i % 3);
	}
	free(words);
	sc_destroy(sc);
}

/*
 * The memory a full cache holds grows with what it stores: 100,000 chains
 * of 3 words take the first table (2 MB) and at most 128 bytes an entry
 * besides their words, not a table of whole entries kept at most half
 * full (176 bytes an entry and more).
 */
static void test_memory(void **state)
{
	enum { N = 100000, W = 3 };
	struct stack_cache *sc = sc_create();
	uint64_t *words = malloc((size_t)N * W * sizeof(*words));
	size_t table = sc_bytes(sc);

	(void)state;
	assert_non_null(words);
	assert_true(table <= (size_t)2 << 20);
	for (uint64_t i = 0; i < N; i++) {
		uint64_t *c = words + W * i;
		struct sc_key k = key_of(c, W, 7, 7);
		struct sc_val v = { .leaf = (uint32_t)i };

		c[0] = 0x400000 + i;
		c[1] = 0x500000 + i % 31;
		c[2] = 0x600000;
		assert_true(sc_put(sc, &k, &v));
	}
	assert_true(sc_bytes(sc) <= table + (size_t)N * (128 + W * 8));
	free(words);
	sc_destroy(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parts_of_the_key),
		cmocka_unit_test(test_hash_given),
		cmocka_unit_test(test_empty_chain),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
