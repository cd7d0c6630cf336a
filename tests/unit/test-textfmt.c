/*
 * test-textfmt.c - frame names made safe for a terminal: control bytes,
 * escape sequences, C1 controls and invalid UTF-8 come out as \xNN; valid
 * UTF-8 passes in a UTF-8 locale and is escaped without one; fitting cuts
 * with ".." and pads to exactly the columns asked for.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "textfmt.h"

static const char *esc(const char *s)
{
	static char buf[512];

	textfmt_escape(s, strlen(s), buf, sizeof(buf));
	return buf;
}

/* No byte of s below 0x20 or 0x7f..0x9f as a code point. */
static void assert_safe(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		assert_true(*p >= 0x20 && *p != 0x7f);
		if (*p == 0xc2)
			assert_true(p[1] >= 0xa0);
	}
}

static void test_controls(void **state)
{
	(void)state;
	textfmt_set_utf8(true);
	assert_string_equal(esc("plain name"), "plain name");
	assert_string_equal(esc("a\x1b[31mred"), "a\\x1b[31mred");
	assert_string_equal(esc("tab\there"), "tab\\x09here");
	assert_string_equal(esc("nl\nx\r"), "nl\\x0ax\\x0d");
	assert_string_equal(esc("del\x7f"), "del\\x7f");
	/* C1 control U+009B (a CSI on some terminals). */
	assert_string_equal(esc("c1\xc2\x9b" "x"), "c1\\xc2\\x9bx");
	assert_safe(esc("\x1b]0;title\x07\xc2\x9b\x90"));
}

static void test_utf8(void **state)
{
	(void)state;
	textfmt_set_utf8(true);
	assert_string_equal(esc("caf\xc3\xa9"), "caf\xc3\xa9");
	assert_int_equal(textfmt_width("caf\xc3\xa9", 5), 4);
	/* Wide CJK: two columns each. */
	assert_int_equal(textfmt_width("\xe6\xbc\xa2\xe5\xad\x97", 6), 4);
	/* Invalid: a lone continuation, a cut sequence, an overlong, a surrogate. */
	assert_string_equal(esc("a\x80z"), "a\\x80z");
	assert_string_equal(esc("a\xe6\xbc"), "a\\xe6\\xbc");
	assert_string_equal(esc("\xc0\xaf"), "\\xc0\\xaf");
	assert_string_equal(esc("\xed\xa0\x80"), "\\xed\\xa0\\x80");
	/* Without a UTF-8 locale: plain ASCII only. */
	textfmt_set_utf8(false);
	assert_string_equal(esc("caf\xc3\xa9"), "caf\\xc3\\xa9");
	textfmt_set_utf8(true);
}

static void test_fit(void **state)
{
	char buf[8 * 40 + 1];

	(void)state;
	textfmt_set_utf8(true);
	assert_int_equal(textfmt_fit("main", 4, 8, ' ', buf), 8);
	assert_string_equal(buf, "main    ");
	textfmt_fit("do_something_long", 17, 8, ' ', buf);
	assert_string_equal(buf, "do_som..");
	textfmt_fit("abc", 3, 1, ' ', buf);
	assert_string_equal(buf, ".");
	textfmt_fit("abc", 3, 0, ' ', buf);
	assert_string_equal(buf, "");
	/* An escape is never cut in half: it goes whole or not at all. */
	textfmt_fit("ab\x1b" "cdef", 7, 6, ' ', buf);
	assert_string_equal(buf, "ab....");
	assert_int_equal(textfmt_width(buf, strlen(buf)), 6);
	/* Wide characters: exactly the columns asked for. */
	textfmt_fit("\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2", 9, 5, '.', buf);
	assert_int_equal(textfmt_width(buf, strlen(buf)), 5);
	assert_safe(buf);
}

/* Amounts: the scale chosen per figure, 3 or 4 digits, never "1000.0". */
static void amounts(void **state)
{
	static const struct {
		double v;
		enum amount_scale s;
		const char *want;
	} c[] = {
		{ 0, AMOUNT_COUNT, "0" },
		{ 917, AMOUNT_COUNT, "917" },
		{ 999, AMOUNT_COUNT, "999" },
		{ 1000, AMOUNT_COUNT, "1.00k" },
		{ 1284, AMOUNT_COUNT, "1.28k" },
		{ 99949, AMOUNT_COUNT, "99.9k" },
		{ 999960, AMOUNT_COUNT, "1.00M" },
		{ 1352676000, AMOUNT_COUNT, "1.35G" },
		{ 1.5, AMOUNT_COUNT, "1.50" },
		{ 72.5, AMOUNT_COUNT, "72.5" },
		{ 917, AMOUNT_TIME, "917 ns" },
		{ 12345, AMOUNT_TIME, "12.3 \u00b5s" },
		{ 366733464, AMOUNT_TIME, "366.7 ms" },
		{ 999960000, AMOUNT_TIME, "1.00 s" },
		{ 1675000000, AMOUNT_TIME, "1.68 s" },
		{ 4321e9, AMOUNT_TIME, "4321.0 s" },     /* s is the last */
		{ 512, AMOUNT_BYTES, "512 B" },
		{ 1010, AMOUNT_BYTES, "0.99 kB" },
		{ 4096, AMOUNT_BYTES, "4.00 kB" },
		{ 11534336, AMOUNT_BYTES, "11.0 MB" },
		{ -1, AMOUNT_COUNT, "0" },
		{ -0.0, AMOUNT_TIME, "0 ns" },
	};
	char buf[64];
	bool was = textfmt_utf8();

	(void)state;
	textfmt_set_utf8(true);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		assert_int_equal(textfmt_amount(c[i].v, c[i].s, buf, sizeof(buf)),
				 strlen(c[i].want));
		assert_string_equal(buf, c[i].want);
	}
	textfmt_set_utf8(false);
	textfmt_amount(12345, AMOUNT_TIME, buf, sizeof(buf));
	assert_string_equal(buf, "12.3 us");
	/* Cut to the buffer, NUL-terminated. */
	assert_int_equal(textfmt_amount(366733464, AMOUNT_TIME, buf, 4), 3);
	assert_string_equal(buf, "366");
	textfmt_set_utf8(was);
}

/* Right-aligned by display columns: µ is one column of two bytes. */
static void rjust(void **state)
{
	char buf[32];
	bool was = textfmt_utf8();

	(void)state;
	textfmt_set_utf8(true);
	textfmt_rjust("12.3 \u00b5s", 9, buf, sizeof(buf));
	assert_string_equal(buf, "  12.3 \u00b5s");
	textfmt_rjust("366.7 ms", 9, buf, sizeof(buf));
	assert_string_equal(buf, " 366.7 ms");
	textfmt_rjust("longer than 9", 9, buf, sizeof(buf));
	assert_string_equal(buf, "longer than 9");
	textfmt_set_utf8(was);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(amounts),
		cmocka_unit_test(rjust),
	};

	textfmt_init_locale();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
