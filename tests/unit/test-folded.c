/*
 * test-folded.c - the folded-stack reader: counts, spaces in frames, CRLF,
 * fractional and differential counts, compression, and every kind of bad
 * line with its message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <cmocka.h>

#include "diag.h"
#include "export.h"
#include "input.h"
#include "profile.h"
#include "read.h"

struct result {
	struct profile *p;
	struct diag d;
	int rc;
	char collapsed[4096];
};

static void load(struct result *r, const void *buf, size_t len)
{
	struct input *in = input_open_mem(buf, len, "t.folded");
	struct read_opts o = { 0 };
	FILE *f;

	r->p = profile_create();
	diag_init(&r->d);
	r->rc = read_folded(r->p, in, &o, &r->d);
	input_close(in);
	profile_finish(r->p);
	f = fmemopen(r->collapsed, sizeof(r->collapsed), "w");
	assert_non_null(f);
	export_collapse(f, r->p);
	fclose(f);
}

static void done(struct result *r)
{
	diag_free(&r->d);
	profile_destroy(r->p);
}

static void load_str(struct result *r, const char *s)
{
	load(r, s, strlen(s));
}

static void merge_and_sort(void **state)
{
	struct result r;

	(void)state;
	load_str(&r, "b;c 2\na;b 1\nb;c 3\na 4\n");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.collapsed, "a 4\na;b 1\nb;c 5\n");
	assert_int_equal(r.d.bad, 0);
	done(&r);
}

static void spaces_crlf_blank_comments(void **state)
{
	struct result r;

	(void)state;
	/* One blank before the count separates; "x y  7" is the frame
	 * "x y " (as flamegraph.pl reads it), not "x y". */
	load_str(&r, "# a comment\r\n\r\nmain;do work;x y  7\r\n   \n"
		     "main;do work;x y\t1\nmain;do work;x y 2\nlast 2");
	assert_string_equal(r.collapsed,
			    "last 2\nmain;do work;x y 3\nmain;do work;x y  7\n");
	assert_int_equal(r.d.bad, 0);
	done(&r);
}

static void fractional_counts_exact(void **state)
{
	struct result r;

	(void)state;
	load_str(&r, "a 1.5\na 1.25\nb 0.1\nb 0.2\nc 3\nd 2.\n");
	assert_string_equal(r.collapsed, "a 2.75\nb 0.3\nc 3\nd 2\n");
	done(&r);
	/* Past 9 decimals: rounded half up to 9, carrying into the units. */
	load_str(&r, "a 14.2343983248722834234\nb 0.9999999995\n"
		     "c 0.0000000004999\nd 2.00000000050\n");
	assert_string_equal(r.collapsed,
			    "a 14.234398325\nb 1\nd 2.000000001\n");
	assert_int_equal(r.d.bad, 0);
	done(&r);
}

static void differential_two_counts(void **state)
{
	struct result r;

	(void)state;
	load_str(&r, "a;b 10 12\na;c 5 0\na;b 1 1\n");
	assert_true(profile_is_differential(r.p));
	assert_string_equal(r.collapsed, "a;b 11 13\na;c 5 0\n");
	done(&r);
}

static void prefix_reuse_keeps_paths_right(void **state)
{
	struct result r;

	(void)state;
	/* Shared prefixes, prefixes of names, and a shorter stack after a
	 * longer one: the path cache must not confuse them. */
	load_str(&r, "ab;c 1\nab;cd 1\nab 1\na;b 1\nab;c;d 1\nab;c 1\nabc 1\n"
		     "ab;c;d;e 1\nab;c; 1\n");
	assert_string_equal(r.collapsed,
			    "a;b 1\nab 1\nab;c 2\nab;c; 1\nab;c;d 1\nab;c;d;e 1\n"
			    "ab;cd 1\nabc 1\n");
	done(&r);
}

static void bad_lines_reported(void **state)
{
	struct result r;
	static const char in[] =
		"ok;a 1\n"
		"no count here\n"
		"neg -5\n"
		"x 12abc\n"
		"big 99999999999999999999999\n"
		" 5\n"
		"frac 1.1234567891\n"        /* rounded to 9 decimals, good */
		"nul\0byte 3\n"
		"ok;b 2\n";

	(void)state;
	load(&r, in, sizeof(in) - 1);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.collapsed, "frac 1.123456789\nok;a 1\nok;b 2\n");
	assert_int_equal(r.d.bad, 6);
	assert_int_equal(r.d.nfirst, 5);
	assert_string_equal(r.d.first[0], "t.folded:2: no sample count");
	assert_string_equal(r.d.first[1], "t.folded:3: negative sample count");
	assert_string_equal(r.d.first[2],
			    "t.folded:4: sample count is not a number");
	assert_string_equal(r.d.first[3], "t.folded:5: sample count is too large");
	assert_string_equal(r.d.first[4], "t.folded:6: empty stack");
	done(&r);
}

static void overflowing_sum_skipped(void **state)
{
	struct result r;

	(void)state;
	load_str(&r, "a 18446744073709551615\nb 1\n");
	assert_string_equal(r.collapsed, "a 18446744073709551615\n");
	assert_int_equal(r.d.bad, 1);
	assert_string_equal(r.d.first[0], "t.folded:2: sample count would "
					  "overflow the profile's total");
	done(&r);
}

static void empty_input_fails(void **state)
{
	struct result r;

	(void)state;
	load_str(&r, "# only a comment\n\n");
	assert_int_equal(r.rc, -1);
	assert_int_equal(r.d.nwarnings, 1);
	assert_string_equal(r.d.warnings[0], "t.folded: no stacks in input");
	done(&r);
}

static void gzip_and_zstd_by_magic(void **state)
{
	const char *text = "x;y 3\nx 1\n";
	unsigned char gz[256], zs[256];
	z_stream z = { 0 };
	size_t zn;
	struct result r;

	(void)state;
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8,
				      Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)text;
	z.avail_in = (uInt)strlen(text);
	z.next_out = gz;
	z.avail_out = sizeof(gz);
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	load(&r, gz, z.total_out);
	assert_string_equal(r.collapsed, "x 1\nx;y 3\n");
	done(&r);

	/* Truncated gzip: an error, and nothing made up. */
	load(&r, gz, z.total_out / 2);
	assert_true(r.d.nwarnings >= 1);
	assert_non_null(strstr(r.d.warnings[0], "gzip stream is truncated"));
	done(&r);
	deflateEnd(&z);

	zn = ZSTD_compress(zs, sizeof(zs), text, strlen(text), 3);
	assert_false(ZSTD_isError(zn));
	load(&r, zs, zn);
	assert_string_equal(r.collapsed, "x 1\nx;y 3\n");
	done(&r);

	/* Corrupt zstd. */
	zs[zn / 2] ^= 0xff;
	zs[zn / 2 + 1] ^= 0x5a;
	load(&r, zs, zn);
	assert_true(r.d.nwarnings >= 1 || strcmp(r.collapsed, "x 1\nx;y 3\n") != 0);
	done(&r);
}

static void long_line_skipped(void **state)
{
	size_t n = 3u << 20;
	char *buf = malloc(n + 64);
	struct input *in;
	struct profile *p = profile_create();
	struct read_opts o = { 0 };
	struct diag d;

	(void)state;
	memset(buf, 'a', n);
	memcpy(buf + n, " 1\nok 2\n", 8);
	in = input_open_mem(buf, n + 8, "long");
	input_set_max_line(in, 1u << 20);
	diag_init(&d);
	assert_int_equal(read_folded(p, in, &o, &d), 0);
	profile_finish(p);
	assert_int_equal(profile_total(p, NODE_ROOT), 2);
	assert_int_equal(d.bad, 1);
	assert_non_null(strstr(d.first[0], "long:1: line is too long"));
	diag_free(&d);
	input_close(in);
	profile_destroy(p);
	free(buf);
}

static void detect_formats(void **state)
{
	const char *folded = "a;b 1\nc 2\n";
	const char *script = "perf 123 [000] 1.0: 1 cpu-clock:\n"
			     "\tffffffff81000000 do_thing+0x1 ([kernel.kallsyms])\n\n";
	const char *cpuprofile = "\n  {\"nodes\":[{\"id\":1,\"callFrame\":"
				 "{\"functionName\":\"(root)\"}}]}";
	const char *array = "[{\"callFrame\":{},\"nodes\":[]}]";

	(void)state;
	assert_int_equal(read_detect(folded, strlen(folded)), FMT_FOLDED);
	assert_int_equal(read_detect(script, strlen(script)), FMT_PERF_SCRIPT);
	assert_int_equal(read_detect("PERFILE2xxxxxxxx", 16), FMT_PERF_DATA);
	assert_int_equal(read_detect("hello world\n", 12), FMT_UNKNOWN);
	/* V8's .cpuprofile by its members; other JSON is not a profile. */
	assert_int_equal(read_detect(cpuprofile, strlen(cpuprofile)),
			 FMT_CPUPROFILE);
	assert_int_equal(read_detect("{\"nodes\":1}\n", 12), FMT_UNKNOWN);
	assert_int_equal(read_detect(array, strlen(array)), FMT_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(merge_and_sort),
		cmocka_unit_test(spaces_crlf_blank_comments),
		cmocka_unit_test(fractional_counts_exact),
		cmocka_unit_test(differential_two_counts),
		cmocka_unit_test(prefix_reuse_keeps_paths_right),
		cmocka_unit_test(bad_lines_reported),
		cmocka_unit_test(overflowing_sum_skipped),
		cmocka_unit_test(empty_input_fails),
		cmocka_unit_test(gzip_and_zstd_by_magic),
		cmocka_unit_test(long_line_skipped),
		cmocka_unit_test(detect_formats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
