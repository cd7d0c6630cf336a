/*
 * test-symtab.c - interning frame names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "symtab.h"

static void same_name_same_id(void **state)
{
	struct symtab *st = symtab_create();
	uint32_t a = symtab_intern(st, "main", 4);
	uint32_t b = symtab_intern(st, "foo", 3);

	(void)state;
	assert_int_not_equal(a, b);
	assert_int_equal(symtab_intern(st, "main", 4), a);
	assert_int_equal(symtab_find(st, "foo", 3), b);
	assert_int_equal(symtab_find(st, "bar", 3), UINT32_MAX);
	assert_string_equal(symtab_name(st, a), "main");
	assert_int_equal(symtab_len(st, b), 3);
	assert_int_equal(symtab_count(st), 2);
	symtab_destroy(st);
}

static void names_hold_any_byte(void **state)
{
	struct symtab *st = symtab_create();
	const char odd[] = "a\0b\x1b[31m";
	uint32_t x = symtab_intern(st, odd, sizeof(odd) - 1);
	uint32_t y = symtab_intern(st, "a", 1);

	(void)state;
	assert_int_not_equal(x, y);
	assert_int_equal(symtab_len(st, x), sizeof(odd) - 1);
	assert_memory_equal(symtab_name(st, x), odd, sizeof(odd) - 1);
	assert_int_equal(symtab_intern(st, "", 0), symtab_intern(st, "", 0));
	symtab_destroy(st);
}

static void many_names_survive_rehash(void **state)
{
	struct symtab *st = symtab_create();
	char buf[32];

	(void)state;
	for (int i = 0; i < 100000; i++) {
		int n = snprintf(buf, sizeof(buf), "fn_%d", i);

		assert_int_equal(symtab_intern(st, buf, (size_t)n), (uint32_t)i);
	}
	for (int i = 0; i < 100000; i += 997) {
		int n = snprintf(buf, sizeof(buf), "fn_%d", i);

		assert_int_equal(symtab_find(st, buf, (size_t)n), (uint32_t)i);
		assert_string_equal(symtab_name(st, (uint32_t)i), buf);
	}
	symtab_destroy(st);
}

static void kinds_from_suffix(void **state)
{
	struct symtab *st = symtab_create();

	(void)state;
	assert_int_equal(symtab_kind(st, symtab_intern(st, "schedule_[k]", 12)),
			 SYM_KERNEL);
	assert_int_equal(sym_kind_of("Lfoo;_[j]", 9), SYM_JIT);
	assert_int_equal(sym_kind_of("inl_[i]", 7), SYM_INLINED);
	assert_int_equal(sym_kind_of("w_[w]", 5), SYM_WAKER);
	assert_int_equal(sym_kind_of("main", 4), SYM_USER);
	assert_int_equal(sym_kind_of("_[x]", 4), SYM_USER);
	assert_int_equal(sym_kind_of("[k]", 3), SYM_USER);
	symtab_destroy(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_name_same_id),
		cmocka_unit_test(names_hold_any_byte),
		cmocka_unit_test(many_names_survive_rehash),
		cmocka_unit_test(kinds_from_suffix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
