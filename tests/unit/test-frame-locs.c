/*
 * test-frame-locs.c - where frames came from (frame-locs.h): binaries
 * kept once with their first range, addresses of another mapping moved
 * to keep their file offset, the first note of a frame standing, ranges
 * widened, and the profile's table made only when a reader notes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "frame-locs.h"
#include "profile.h"

static struct floc_binary bin(const char *path, const char *bid,
			      uint64_t start, uint64_t limit, uint64_t off)
{
	struct floc_binary b = { path, strlen(path), bid, bid ? strlen(bid) : 0,
				 start, limit, off };

	return b;
}

static void binaries_kept_once(void **state)
{
	struct frame_locs *fl = floc_create();
	struct floc_binary a = bin("/bin/prog", "abcd", 0x1000, 0x2000, 0x1000);
	struct floc_binary b = bin("/bin/prog", "abcd", 0x7000, 0x8000, 0x1000);
	struct floc_binary c = bin("/bin/prog", "ef01", 0x1000, 0x2000, 0x1000);
	const struct floc_binary *k;
	uint64_t shift = 1;
	uint32_t ka, kb, kc;

	(void)state;
	ka = floc_add_binary(fl, &a, &shift);
	assert_int_equal(shift, 0);
	kb = floc_add_binary(fl, &b, &shift);
	kc = floc_add_binary(fl, &c, &shift);
	assert_int_equal(ka, 1);
	assert_int_equal(kb, ka);        /* same path and build-id */
	assert_int_equal(kc, 2);         /* another build-id */
	assert_int_equal(floc_binary_count(fl), 2);
	k = floc_binary_at(fl, ka);
	assert_non_null(k);
	assert_int_equal(k->path_len, 9);
	assert_memory_equal(k->path, "/bin/prog", 9);
	assert_memory_equal(k->build_id, "abcd", 4);
	/* The first range stands. */
	assert_int_equal(k->start, 0x1000);
	assert_int_equal(k->limit, 0x2000);
	assert_int_equal(k->offset, 0x1000);
	assert_null(floc_binary_at(fl, 0));
	assert_null(floc_binary_at(fl, 3));
	floc_destroy(fl);
}

/* An address of the same file mapped elsewhere keeps its file offset. */
static void other_mapping_shifted(void **state)
{
	struct frame_locs *fl = floc_create();
	struct floc_binary a = bin("/lib/libc.so.6", NULL, 0x10000, 0x20000,
				   0x2000);
	struct floc_binary b = bin("/lib/libc.so.6", NULL, 0x7f0000, 0x800000,
				   0x2000);
	struct floc_frame f = { 0 }, g;
	uint64_t shift;
	uint64_t addr = 0x7f0123;       /* offset 0x2123 in the file */

	(void)state;
	floc_add_binary(fl, &a, &shift);
	f.binary = floc_add_binary(fl, &b, &shift);
	f.addr = addr + shift;
	floc_note(fl, 7, &f);
	assert_true(floc_get(fl, 7, &g));
	assert_int_equal(g.addr, 0x10123);
	assert_int_equal(g.addr - 0x10000 + 0x2000, 0x2123);
	/* Without a range, addresses stay as they are. */
	b.limit = b.start;
	floc_add_binary(fl, &b, &shift);
	assert_int_equal(shift, 0);
	floc_destroy(fl);
}

static void first_note_stands(void **state)
{
	struct frame_locs *fl = floc_create();
	struct floc_frame f = { 0 }, g;

	(void)state;
	assert_false(floc_known(fl, 3));
	assert_false(floc_get(fl, 3, &g));
	f.func = "main";
	f.func_len = 4;
	f.file = "/src/main.c";
	f.file_len = 11;
	f.line = 12;
	f.addr = 0x1234;
	floc_note(fl, 3, &f);
	f.line = 99;
	f.func = "other";
	f.func_len = 5;
	floc_note(fl, 3, &f);
	assert_true(floc_known(fl, 3));
	assert_false(floc_known(fl, 2));
	assert_true(floc_get(fl, 3, &g));
	assert_int_equal(g.line, 12);
	assert_int_equal(g.func_len, 4);
	assert_memory_equal(g.func, "main", 4);
	assert_memory_equal(g.file, "/src/main.c", 11);
	assert_int_equal(g.addr, 0x1234);
	assert_int_equal(g.binary, 0);
	/* A binary number that does not exist is none. */
	f.binary = 5;
	floc_note(fl, 1000, &f);
	assert_true(floc_get(fl, 1000, &g));
	assert_int_equal(g.binary, 0);
	floc_destroy(fl);
}

static void range_widened(void **state)
{
	struct frame_locs *fl = floc_create();
	struct floc_binary a = bin("/bin/prog", NULL, 0x5000, 0x6000, 0x3000);
	struct floc_frame f = { 0 };
	const struct floc_binary *k;
	uint64_t shift;

	(void)state;
	f.binary = floc_add_binary(fl, &a, &shift);
	f.addr = 0x6800;
	floc_note(fl, 1, &f);
	f.addr = 0x4000;
	floc_note(fl, 2, &f);
	f.addr = 0x1000;                /* before the file's start: not taken */
	floc_note(fl, 3, &f);
	k = floc_binary_at(fl, f.binary);
	assert_int_equal(k->limit, 0x6801);
	assert_int_equal(k->start, 0x4000);
	assert_int_equal(k->offset, 0x2000);  /* the same offsets */
	floc_destroy(fl);
}

static void profile_table_only_when_noted(void **state)
{
	struct profile *p = profile_create();

	(void)state;
	assert_null(profile_frame_locs_get(p));
	assert_true(profile_is_new(p));
	assert_non_null(profile_frame_locs(p));
	assert_ptr_equal(profile_frame_locs(p), profile_frame_locs_get(p));
	assert_false(profile_is_new(p));
	profile_renew(p);
	assert_null(profile_frame_locs_get(p));
	profile_destroy(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(binaries_kept_once),
		cmocka_unit_test(other_mapping_shifted),
		cmocka_unit_test(first_note_stands),
		cmocka_unit_test(range_widened),
		cmocka_unit_test(profile_table_only_when_noted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
