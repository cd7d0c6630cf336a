/*
 * test-theme.c - theme files: a good file parses into rules and parts, a
 * bad line is reported as "file:line: what" and leaves the theme in use
 * untouched, frame colors are stable, stay in their rule's range and
 * follow the rules' order, and every theme shipped in themes/ parses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "symtab.h"
#include "theme.h"

static int parse(struct theme *t, const char *text, char *err, size_t cap)
{
	return theme_parse(t, text, strlen(text), "t.theme", err, cap);
}

static void test_good(void **state)
{
	struct theme t;
	char err[256] = "";
	const char *text =
		"# a comment\n"
		"name mine\r\n"
		"description a test theme\n"
		"\n"
		"frame kernel 200-255:1 100 0\n"
		"frame contains::: 10-20:2 30 40-50:3\n"
		"frame * 1 2 3\n"
		"ui match fg=#102030 bg=default bold underline\n";

	(void)state;
	assert_int_equal(parse(&t, text, err, sizeof(err)), 0);
	assert_string_equal(t.name, "mine");
	assert_string_equal(t.description, "a test theme");
	assert_int_equal(t.nrules, 3);
	assert_int_equal(t.rules[0].match, TM_KIND);
	assert_int_equal(t.rules[0].kind, SYM_KERNEL);
	assert_int_equal(t.rules[0].ch[0].lo, 200);
	assert_int_equal(t.rules[0].ch[0].hi, 255);
	assert_int_equal(t.rules[0].ch[1].lo, 100);
	assert_int_equal(t.rules[0].ch[1].hi, 100);
	assert_int_equal(t.rules[1].match, TM_CONTAINS);
	assert_string_equal(t.rules[1].text, "::");
	assert_int_equal(t.rules[1].ch[0].var, 1);
	assert_int_equal(t.rules[1].ch[2].var, 2);
	assert_int_equal(t.slot[TS_MATCH].fg, 0x102030);
	assert_int_equal(t.slot[TS_MATCH].bg, THEME_COLOR_DEFAULT);
	assert_int_equal(t.slot[TS_MATCH].attrs, TA_BOLD | TA_UNDERLINE);
	/* Parts the file does not name keep their defaults. */
	assert_int_not_equal(t.slot[TS_HEADER].bg, THEME_COLOR_DEFAULT);
}

/* Each bad file, the message it must give; the theme stays as it was. */
static void test_bad(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "name x\nframe * 1 2\n", "t.theme:2: frame: want three channels" },
		{ "name x\nframe * 1 2 300\n", "t.theme:2: bad color channel '300'" },
		{ "name x\n\n\nframe * 1 2 3-4:7\n", "t.theme:4: bad hash number" },
		{ "name x\nframe nosuch 1 2 3\n", "t.theme:2: frame: unknown match 'nosuch'" },
		{ "name x\nframe * 1 2 3\ncolour red\n", "t.theme:3: unknown keyword 'colour'" },
		{ "name x\nframe * 1 2 3\nui nosuch bold\n", "t.theme:3: ui: unknown part 'nosuch'" },
		{ "name x\nframe * 1 2 3\nui match fg=#12345\n", "t.theme:3: bad color '#12345'" },
		{ "name x\nframe * 1 2 3\nui match blink\n", "t.theme:3: ui: unknown attribute 'blink'" },
		{ "name a b\n", "t.theme:1: name: want one word" },
		{ "frame * 1 2 3\n", "t.theme: no 'name' line" },
		{ "name x\n", "t.theme: no 'frame' rule" },
		{ "name x\nframe * 1 2 3 4\n", "t.theme:2: frame: unexpected '4'" },
	};
	struct theme t, before;

	(void)state;
	theme_default(&t);
	before = t;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[256] = "";

		assert_int_equal(parse(&t, cases[i].text, err, sizeof(err)), -1);
		if (strncmp(err, cases[i].msg, strlen(cases[i].msg)) != 0)
			fail_msg("case %zu: got '%s', want '%s...'", i, err,
				 cases[i].msg);
		assert_memory_equal(&t, &before, sizeof(t));
	}
}

static void test_load_bad_file(void **state)
{
	char path[] = "/tmp/flametop-theme-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	struct theme t, before;
	char err[512] = "", want[600];

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("name broken\nframe * 1 2 3\nui header fg=red\n", f);
	fclose(f);
	theme_default(&t);
	before = t;
	assert_int_equal(theme_load(&t, path, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:3: bad color 'red'", path);
	assert_true(strncmp(err, want, strlen(want)) == 0);
	assert_memory_equal(&t, &before, sizeof(t));
	assert_string_equal(t.name, "hot");
	unlink(path);
	assert_int_equal(theme_load(&t, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, path));
}

static void test_colors(void **state)
{
	struct theme t;
	char err[256];
	const char *names[] = { "main", "do_work", "std::vector<int>::push_back",
				"schedule_[k]", "", "x" };

	(void)state;
	assert_int_equal(parse(&t, "name x\n"
			       "frame kernel 200-255:1 100-150:1 0\n"
			       "frame contains::: 0 0 10-250:2\n"
			       "frame * 100-200:3 50-60:1 7\n", err, sizeof(err)), 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *n = names[i];
		size_t len = strlen(n);
		int kind = (int)sym_kind_of(n, len);
		uint32_t c = theme_frame_color(&t, n, len, kind);
		unsigned r = c >> 16, g = c >> 8 & 255, b = c & 255;

		/* Stable: the same name gives the same color. */
		assert_int_equal(c, theme_frame_color(&t, n, len, kind));
		if (kind == SYM_KERNEL) {
			assert_true(r >= 200 && g >= 100 && g <= 150 && b == 0);
			/* One hash number: red and green move together. */
			assert_true((r - 200) * 50 / 55 + 100 >= g - 1 &&
				    (r - 200) * 50 / 55 + 100 <= g + 1);
		} else if (strstr(n, "::")) {
			assert_true(r == 0 && g == 0 && b >= 10 && b <= 250);
		} else {
			assert_true(r >= 100 && r <= 200 && g >= 50 && g <= 60 &&
				    b == 7);
		}
	}
	/* Different names spread over the range. */
	{
		uint32_t a = theme_frame_color(&t, "alpha", 5, SYM_USER);
		uint32_t b = theme_frame_color(&t, "beta", 4, SYM_USER);
		uint32_t c = theme_frame_color(&t, "gamma", 5, SYM_USER);

		assert_false(a == b && b == c);
	}
}

/* Every theme in themes/ parses, and the names cover the palettes. */
static void test_shipped(void **state)
{
	static const char *const want[] = {
		"hot", "mem", "io", "java", "js", "perl", "red", "green", "blue",
		"aqua", "yellow", "purple", "orange", "kernel",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char path[256], err[512] = "";
		struct theme t;

		snprintf(path, sizeof(path), "themes/%s.theme", want[i]);
		if (theme_load(&t, path, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		assert_string_equal(t.name, want[i]);
		assert_true(t.nrules >= 1);
		assert_true(t.description[0] != '\0');
	}
}

static void test_find(void **state)
{
	char **names;
	size_t n;
	char *p;

	(void)state;
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	p = theme_find("java");
	assert_non_null(p);
	assert_non_null(strstr(p, "java.theme"));
	free(p);
	assert_null(theme_find("no-such-theme"));
	n = theme_names(&names);
	assert_true(n >= 14);
	for (size_t i = 1; i < n; i++)
		assert_true(strcmp(names[i - 1], names[i]) < 0);
	theme_names_free(names, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_load_bad_file),
		cmocka_unit_test(test_colors),
		cmocka_unit_test(test_shipped),
		cmocka_unit_test(test_find),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
