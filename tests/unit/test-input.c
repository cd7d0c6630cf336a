/*
 * test-input.c - input_keep_last: the block input_getblock returned last
 * stays valid, byte for byte, through the next call, whatever that call
 * reads (refills, lines longer than the buffer, lines skipped as too long).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "input.h"

/* Lines of varied lengths, some past the 4 KB buffer, some past max. */
static char *make_text(size_t *len, unsigned seed)
{
	size_t cap = 60000, n = 0;
	char *t = malloc(cap);
	uint32_t x = seed * 2654435761u + 1;

	assert_non_null(t);
	while (n + 1 < cap) {
		size_t l;

		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		l = x % 29 == 0 ? 3000 + x % 9000 : x % 120;
		if (n + l + 1 > cap)
			l = cap - n - 1;
		for (size_t i = 0; i < l; i++)
			t[n + i] = (char)('a' + (n + i) % 26);
		n += l;
		t[n++] = '\n';
	}
	*len = n;
	return t;
}

/* An input over make_text's text, lines over 8000 bytes too long, kept. */
static struct input *open_kept(unsigned seed, char **text, size_t *len)
{
	struct input *in;

	*text = make_text(len, seed);
	in = input_open_mem(*text, *len, "mem");
	assert_non_null(in);
	input_set_max_line(in, 8000);
	input_keep_last(in);
	return in;
}

static void kept_block_survives_next_call(void **state)
{
	(void)state;
	for (unsigned seed = 1; seed <= 6; seed++) {
		size_t len, plen = 0, got = 0;
		char *text;
		struct input *in = open_kept(seed, &text, &len);
		const char *prev = NULL, *b;
		char *copy = NULL;
		size_t n;
		int rc;

		while ((rc = input_getblock(in, &b, &n)) > 0) {
			/* The last block is as it was when it came. */
			if (prev)
				assert_memory_equal(prev, copy, plen);
			free(copy);
			prev = NULL;
			copy = NULL;
			if (rc == 2) {
				got += n + 1;   /* skipped: too long */
				continue;
			}
			if (rc == 1) {
				/* Whole lines, in order, as in the text. */
				assert_true(got + n <= len);
				assert_memory_equal(b, text + got, n);
				got += n;
			} else {
				assert_memory_equal(b, text + got, n);
				got += n + 1;
			}
			prev = b;
			plen = n;
			copy = malloc(n ? n : 1);
			assert_non_null(copy);
			memcpy(copy, b, n);
		}
		assert_int_equal(rc, 0);
		assert_int_equal(got, len);
		free(copy);
		input_close(in);
		free(text);
	}
}

/*
 * input_fetch_ahead and input_next_block: the blocks come in order, as
 * input_getblock gives them, each still whole after the next one was
 * fetched ahead (as a reader's first thread fetches while others read).
 */
static void blocks_fetched_ahead(void **state)
{
	(void)state;
	for (unsigned seed = 1; seed <= 6; seed++) {
		size_t len, got = 0, k = 0;
		char *text;
		struct input *in = open_kept(seed, &text, &len);
		struct input_ahead next = { 0 };
		const char *b;
		size_t n;
		int rc;

		while ((rc = input_next_block(in, &next, &b, &n)) > 0) {
			/* Every other block (every third for some seeds). */
			if (k++ % (2 + seed % 2) == 0)
				input_fetch_ahead(in, &next);
			if (rc == 2) {
				got += n + 1;
				continue;
			}
			assert_true(got + n <= len);
			assert_memory_equal(b, text + got, n);
			got += rc == 1 ? n : n + 1;
		}
		assert_int_equal(rc, 0);
		assert_int_equal(got, len);
		assert_false(next.fetched);
		input_close(in);
		free(text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kept_block_survives_next_call),
		cmocka_unit_test(blocks_fetched_ahead),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
