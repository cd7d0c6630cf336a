/*
 * test-dynlib.c - libraries opened on first use: a library that is there
 * fills every pointer with the function dlsym names; a missing library or
 * function is told (which one), later calls give the first answer, and
 * the libraries flametop opens this way load on this machine.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "disasm.h"
#include "dynlib.h"
#include "fetch.h"

static void test_loads(void **state)
{
	size_t (*len)(const char *) = NULL;
	int (*cmp)(const char *, const char *) = NULL;
	const struct dynlib_fn fns[] = {
		DYNLIB_FN(len, strlen), DYNLIB_FN(cmp, strcmp),
	};
	struct dynlib lib = { .what = "libc", .soname = "libc.so.6",
			      .fns = fns, .nfns = 2 };

	(void)state;
	assert_true(dynlib_open(&lib));
	assert_non_null(len);
	assert_int_equal(len("flame"), 5);
	assert_true(cmp("a", "b") < 0);
	assert_true(dynlib_open(&lib));   /* again: the same answer */
}

static void test_missing_library(void **state)
{
	size_t (*len)(const char *) = NULL;
	const struct dynlib_fn fns[] = { DYNLIB_FN(len, strlen) };
	struct dynlib lib = { .what = "libnothing",
			      .soname = "libflametop-nothing.so.9",
			      .fns = fns, .nfns = 1 };

	(void)state;
	assert_false(dynlib_open(&lib));
	assert_null(len);
	assert_non_null(strstr(lib.err, "cannot load libnothing "
				    "(libflametop-nothing.so.9)"));
	assert_false(dynlib_open(&lib));
}

static void test_missing_function(void **state)
{
	void (*f)(void) = NULL;
	const struct dynlib_fn fns[] = {
		{ "flametop_no_such_function", &f },
	};
	struct dynlib lib = { .what = "libc", .soname = "libc.so.6",
			      .fns = fns, .nfns = 1 };

	(void)state;
	assert_false(dynlib_open(&lib));
	assert_string_equal(lib.err, "libc (libc.so.6) has no function "
			    "flametop_no_such_function");
}

/* What --version shows: the build's SONAMEs name libraries that load. */
static void test_flametop_libraries(void **state)
{
	char how[320];
	bool ok = false;
	const char *v = fetch_version(&ok);

	(void)state;
	assert_true(ok);
	assert_memory_equal(v, "libcurl ", 8);
	assert_true(disasm_library(how, sizeof(how)));
	assert_memory_equal(how, "capstone ", 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loads),
		cmocka_unit_test(test_missing_library),
		cmocka_unit_test(test_missing_function),
		cmocka_unit_test(test_flametop_libraries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
