/*
 * test-search.c - regex search over a profile: which frames match, the
 * matched share with nested matches counted once, case folding, literal
 * name search, bad patterns keeping the previous search, and names added
 * after the search (live profiles).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "profile.h"
#include "search.h"
#include "stacks.h"

static struct profile *sample(void)
{
	struct profile *p = profile_create();

	add(p, "main;foo;bar", 10);
	add(p, "main;foo;foo_inner;foo", 5);   /* foo under foo: nested */
	add(p, "main;baz", 20);
	add(p, "main;Foo_upper", 7);
	add(p, "other;foo", 3);
	profile_finish(p);
	return p;
}

static uint32_t child(const struct profile *p, uint32_t n, const char *name)
{
	for (uint32_t c = profile_node(p, n)->child; c != NODE_NONE;
	     c = profile_node(p, c)->next)
		if (strcmp(profile_name(p, c), name) == 0)
			return c;
	fail_msg("no child %s", name);
	return NODE_NONE;
}

static void test_nested_once(void **state)
{
	struct profile *p = sample();
	struct search *s = search_create();
	char err[256];
	uint32_t main_ = child(p, NODE_ROOT, "main");

	(void)state;
	assert_int_equal(profile_total(p, NODE_ROOT), 45);
	assert_int_equal(search_set(s, "^foo$", false, err, sizeof(err)), 0);
	assert_true(search_active(s));
	/* main;foo (15, with the nested foo inside) + other;foo (3). */
	assert_int_equal(search_matched_weight(s, p, NODE_ROOT), 18);
	/* Under main only. */
	assert_int_equal(search_matched_weight(s, p, main_), 15);
	assert_true(search_node_matches(s, p, child(p, main_, "foo")));
	assert_false(search_node_matches(s, p, main_));
	/* A pattern matching a frame and its ancestor counts the ancestor. */
	assert_int_equal(search_set(s, "foo|bar", false, err, sizeof(err)), 0);
	assert_int_equal(search_matched_weight(s, p, NODE_ROOT), 18);
	/* Everything under the root, once. */
	assert_int_equal(search_set(s, ".", false, err, sizeof(err)), 0);
	assert_int_equal(search_matched_weight(s, p, NODE_ROOT), 45);
	search_destroy(s);
	profile_destroy(p);
}

static void test_case_and_literal(void **state)
{
	struct profile *p = sample();
	struct search *s = search_create();
	char err[256];

	(void)state;
	assert_int_equal(search_set(s, "^foo", false, err, sizeof(err)), 0);
	assert_int_equal(search_matched_weight(s, p, NODE_ROOT), 18);
	assert_int_equal(search_set(s, "^foo", true, err, sizeof(err)), 0);
	assert_true(search_icase(s));
	assert_int_equal(search_matched_weight(s, p, NODE_ROOT), 25);
	/* A literal: regex characters mean themselves. */
	search_set_literal(s, "foo", 3);
	assert_int_equal(search_matched_weight(s, p, NODE_ROOT), 18);
	search_set_literal(s, "fo.", 3);
	assert_int_equal(search_matched_weight(s, p, NODE_ROOT), 0);
	/* Empty pattern clears. */
	assert_int_equal(search_set(s, "", false, err, sizeof(err)), 0);
	assert_false(search_active(s));
	assert_int_equal(search_matched_weight(s, p, NODE_ROOT), 0);
	search_destroy(s);
	profile_destroy(p);
}

/* search_copy: the same search (an exact name, or a pattern with its
 * case) for another profile. */
static void test_copy(void **state)
{
	struct profile *p = profile_create();
	struct search *s = search_create(), *c = search_create();
	const char *name = "a\\Eb.c(x";
	char err[256];

	(void)state;
	add(p, "main;a\\Eb.c(x", 4);
	add(p, "main;A\\EB.C(X", 2);
	add(p, "main;a\\Eb.c(xy", 1);
	add(p, "main;aEbzc(x", 8);
	profile_finish(p);
	search_set_literal(s, name, strlen(name));
	search_copy(c, s);
	assert_int_equal(search_matched_weight(c, p, NODE_ROOT), 4);
	assert_int_equal(search_set(s, "^a.E", true, err, sizeof(err)), 0);
	search_copy(c, s);
	assert_true(search_icase(c));
	assert_int_equal(search_matched_weight(c, p, NODE_ROOT), 7);
	search_clear(s);
	search_copy(c, s);
	assert_false(search_active(c));
	search_destroy(s);
	search_destroy(c);
	profile_destroy(p);
}

static void test_bad_pattern(void **state)
{
	struct profile *p = sample();
	struct search *s = search_create();
	char err[256] = "";

	(void)state;
	assert_int_equal(search_set(s, "baz", false, err, sizeof(err)), 0);
	assert_int_equal(search_set(s, "ba(z", false, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "missing closing parenthesis"));
	assert_non_null(strstr(err, "offset 4"));
	/* The previous search stays. */
	assert_string_equal(search_pattern(s), "baz");
	assert_int_equal(search_matched_weight(s, p, NODE_ROOT), 20);
	search_destroy(s);
	profile_destroy(p);
}

static void test_new_names(void **state)
{
	struct profile *p = sample();
	struct search *s = search_create();
	char err[256];

	(void)state;
	assert_int_equal(search_set(s, "^new", false, err, sizeof(err)), 0);
	assert_int_equal(search_matched_weight(s, p, NODE_ROOT), 0);
	add(p, "main;newfn", 4);
	profile_finish(p);
	assert_int_equal(search_matched_weight(s, p, NODE_ROOT), 4);
	search_destroy(s);
	profile_destroy(p);
}

static void test_invalid_utf8_names(void **state)
{
	struct profile *p = profile_create();
	struct search *s = search_create();
	char err[256];

	(void)state;
	add(p, "a\xff\xfe" "b;c", 2);
	add(p, "caf\xc3\xa9;x", 3);
	profile_finish(p);
	assert_int_equal(search_set(s, "b$", false, err, sizeof(err)), 0);
	assert_int_equal(search_matched_weight(s, p, NODE_ROOT), 2);
	assert_int_equal(search_set(s, "^caf.$", false, err, sizeof(err)), 0);
	assert_int_equal(search_matched_weight(s, p, NODE_ROOT), 3);
	search_destroy(s);
	profile_destroy(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested_once),
		cmocka_unit_test(test_case_and_literal),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_bad_pattern),
		cmocka_unit_test(test_new_names),
		cmocka_unit_test(test_invalid_utf8_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
