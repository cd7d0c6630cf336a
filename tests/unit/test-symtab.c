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

/*
 * symtab_find_many gives what symtab_find gives, name by name: across its
 * waves of 64, for names present, absent, repeated, empty, holding NUL
 * bytes, or sharing a hash slot with others (a table of 5,000 names).
 */
static void find_many_as_find(void **state)
{
	struct symtab *st = symtab_create();
	static char text[300][24];
	struct symtab_ref refs[300];
	uint32_t ids[300];

	(void)state;
	for (int i = 0; i < 5000; i++) {
		char buf[24];
		int n = snprintf(buf, sizeof(buf), "name%d", i * 2);

		symtab_intern(st, buf, (size_t)n);
	}
	symtab_intern(st, "a\0b", 3);
	symtab_intern(st, "", 0);
	for (int i = 0; i < 300; i++) {
		int n = snprintf(text[i], sizeof(text[i]), "name%d", (i * 7) % 400);

		refs[i] = (struct symtab_ref){ text[i], (size_t)n };
	}
	refs[5] = (struct symtab_ref){ "a\0b", 3 };
	refs[6] = (struct symtab_ref){ "a\0c", 3 };
	refs[7] = (struct symtab_ref){ "", 0 };
	refs[8] = refs[9] = (struct symtab_ref){ "name8", 5 };
	refs[70] = (struct symtab_ref){ "name", 4 };
	symtab_find_many(st, refs, 300, ids);
	for (int i = 0; i < 300; i++)
		assert_int_equal(ids[i], symtab_find(st, refs[i].name, refs[i].len));
	assert_int_equal(ids[6], UINT32_MAX);
	assert_int_equal(ids[70], UINT32_MAX);
	assert_int_equal(ids[5], symtab_find(st, "a\0b", 3));
	assert_int_equal(ids[7], symtab_find(st, "", 0));
	assert_int_equal(ids[8], 4);
	assert_int_equal(ids[9], 4);
	assert_int_equal(ids[1], UINT32_MAX);          /* name7: odd, absent */
	assert_int_equal(ids[2], 7);                   /* name14 */
	symtab_find_many(st, refs, 0, ids);            /* nothing, no crash */
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
		cmocka_unit_test(find_many_as_find),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
