/*
 * test-perf-script.c - the perf script reader: stackcollapse-perf.pl's
 * naming rules, the options, weights, events, timestamps, and bad lines
 * with their messages.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "diag.h"
#include "export.h"
#include "input.h"
#include "profile.h"
#include "profile-addr.h"
#include "read.h"

struct result {
	struct profile *p;
	struct diag d;
	int rc;
	char collapsed[8192];
};

static void load_opts(struct result *r, const char *s,
		      const struct read_opts *o)
{
	struct input *in = input_open_mem(s, strlen(s), "t.perf");
	FILE *f;

	r->p = profile_create();
	diag_init(&r->d);
	r->rc = read_perf_script(r->p, in, o, &r->d);
	input_close(in);
	profile_finish(r->p);
	memset(r->collapsed, 0, sizeof(r->collapsed));
	f = fmemopen(r->collapsed, sizeof(r->collapsed), "w");
	assert_non_null(f);
	export_collapse(f, r->p);
	fclose(f);
}

static void load(struct result *r, const char *s)
{
	struct read_opts o = { 0 };

	load_opts(r, s, &o);
}

static void done(struct result *r)
{
	diag_free(&r->d);
	profile_destroy(r->p);
}

/* Is there a warning containing s? */
static bool warned(const struct result *r, const char *s)
{
	for (unsigned i = 0; i < r->d.nwarnings; i++)
		if (strstr(r->d.warnings[i], s))
			return true;
	return false;
}

static const char two_samples[] =
	"# ========\n"
	"# cmdline : /usr/bin/perf record -g ./app\n"
	"# ========\n"
	"#\n"
	"app 100/101 [001] 10.500000:     250 cpu-clock:ppp: \n"
	"\tffffffff81000010 do_work+0x10 ([kernel.kallsyms])\n"
	"\t          401000 compute+0x1f (/usr/bin/app)\n"
	"\t          401100 main+0x2 (/usr/bin/app)\n"
	"\n"
	"app 100/102 [000] 12.000000001:     750 cpu-clock:ppp: \n"
	"\t          401100 main+0x2 (/usr/bin/app)\n"
	"\n";

static void periods_and_order(void **state)
{
	struct result r;

	(void)state;
	load(&r, two_samples);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.collapsed,
			    "app;main 750\n"
			    "app;main;compute;do_work 250\n");
	assert_int_equal(r.d.bad, 0);
	assert_int_equal(r.d.nwarnings, 0);
	done(&r);
}

/*
 * read_opts.no_addr_tables (--collapse, --text...): the same stacks, and no
 * address tables, which nothing would read.
 */
static void no_addr_tables(void **state)
{
	struct result with, without;
	struct read_opts o = { 0 };

	(void)state;
	load_opts(&with, two_samples, &o);
	o.no_addr_tables = true;
	load_opts(&without, two_samples, &o);
	assert_int_equal(without.rc, 0);
	assert_string_equal(with.collapsed, without.collapsed);
	assert_non_null(profile_paddr(with.p, false));
	assert_int_equal(paddr_total(profile_paddr(with.p, false)), 1000);
	assert_null(profile_paddr(without.p, false));
	done(&with);
	done(&without);
}

static void pid_tid_kernel(void **state)
{
	struct result r;
	struct read_opts o = { 0 };

	(void)state;
	o.pid = true;
	load_opts(&r, two_samples, &o);
	assert_string_equal(r.collapsed,
			    "app-100;main 750\n"
			    "app-100;main;compute;do_work 250\n");
	done(&r);
	o.tid = true;
	o.kernel = true;
	load_opts(&r, two_samples, &o);
	assert_string_equal(r.collapsed,
			    "app-100/101;main;compute;do_work_[k] 250\n"
			    "app-100/102;main 750\n");
	done(&r);
}

static void timestamps(void **state)
{
	struct result r;
	uint64_t first, last;

	(void)state;
	load(&r, two_samples);
	assert_true(profile_has_timeline(r.p));
	assert_true(profile_time_bounds(r.p, &first, &last));
	assert_true(first == 10500000000ULL);
	assert_true(last == 12000000001ULL);
	profile_set_range(r.p, 12000000000ULL, 13000000000ULL);
	assert_true(profile_total(r.p, NODE_ROOT) == 750);
	done(&r);
}

/*
 * The time word: seconds of any number of digits that fit, a fraction of
 * which nine digits count; a word that is not "DIGITS.DIGITS:", or whose
 * time does not fit 64 bits of ns, gives the sample no time.
 */
static void time_words(void **state)
{
	static const char *const not_times[] = {
		"1.2.3:", "12.:", "12:", ".5:", "1.5x:", "1.5", "1.5:x",
		"99999999999.5:", "100000000000000000000.0:",
	};
	struct result r;
	uint64_t first, last;
	char buf[128];

	(void)state;
	load(&r, "ab 1 [000] 000000000000000000001.5: 1 c:\n\t 1 f (/x)\n\n"
		 "ab 1 [000] 2.1234567891: 1 c:\n\t 1 f (/x)\n\n");
	assert_true(profile_time_bounds(r.p, &first, &last));
	assert_true(first == 1500000000ULL);
	assert_true(last == 2123456789ULL);
	done(&r);
	for (size_t i = 0; i < sizeof(not_times) / sizeof(not_times[0]); i++) {
		snprintf(buf, sizeof(buf), "ab 1 [000] %s 1 c:\n\t 1 f (/x)\n\n",
			 not_times[i]);
		load(&r, buf);
		assert_string_equal(r.collapsed, "ab;f 1\n");
		if (profile_has_timeline(r.p))
			fail_msg("'%s' read as a time", not_times[i]);
		done(&r);
	}
}

/*
 * Lines that end alike but for a digit before the period's blank, or for
 * the event, are read for what they are: the reader keeps the last line's
 * tail, from the ':' before the period on, and only a line that ends in
 * those very bytes is read as it was.
 */
static void period_tails(void **state)
{
	struct result r;

	(void)state;
	load(&r, "ab 1 1.0: 10 cycles:\n\t 1 f (/x)\n\n"
		 "ab 1 1.1: 110 cycles:\n\t 1 f (/x)\n\n"
		 "ab 1 1.2: 10 cycles:\n\t 1 f (/x)\n\n"
		 "ab 1 1.2 10 cycles:\n\t 1 f (/x)\n\n"
		 "ab 1 1.3: 10 ycles:\n\t 1 f (/x)\n\n"
		 "ab 1 1.4:10 cycles:\n\t 1 f (/x)\n\n"
		 "ab 1 1.5: 10 cycles: \n\t 1 g (/x)\n\n");
	/*
	 * "1.2 10 cycles:" has no ':' before its period: no event, weight 1;
	 * in "1.4:10 cycles:" the period 10 follows the time's own ':'.
	 */
	assert_string_equal(r.collapsed, "ab;f 141\nab;g 10\n");
	assert_true(warned(&r, "1 sample of other events left out"));
	done(&r);
}

/* One number after the command is the thread id; the pid is "?". */
static void tid_only_and_spaces(void **state)
{
	struct result r;
	struct read_opts o = { 0 };

	(void)state;
	o.tid = true;
	load_opts(&r, "V8 WorkerThread 25607 [000] 94564.109216: cycles:\n"
		      "\t 7f00 run (/usr/bin/node)\n\n", &o);
	assert_string_equal(r.collapsed, "V8_WorkerThread-?/25607;run 1\n");
	done(&r);
	o.tid = false;
	o.pid = true;
	load_opts(&r, "java 4242 cycles:\n 7f00 run (/usr/bin/java)\n\n", &o);
	assert_string_equal(r.collapsed, "java-?;run 1\n");
	done(&r);
}

/*
 * perf prints -1 for the pid and tid of a task it did not know (":-1"):
 * read as such, not as part of the command up to the period's digits.
 */
static void unknown_task(void **state)
{
	static const char text[] =
		":-1    -1 [001]  2464.473677:     200040 cpu-clock:ppp: \n"
		"\tffffffff81000000 do_exit+0x1 ([kernel.kallsyms])\n\n"
		"sh   -1/-1 [000]  2464.573677:     10 cpu-clock:ppp: \n"
		"\tffffffff81000000 do_exit+0x1 ([kernel.kallsyms])\n\n";
	struct result r;
	struct read_opts o = { 0 };
	uint64_t first, last;

	(void)state;
	load(&r, text);
	assert_string_equal(r.collapsed, ":-1;do_exit 200040\nsh;do_exit 10\n");
	/* Their times are read. */
	assert_true(profile_time_bounds(r.p, &first, &last));
	assert_true(first == 2464473677000ull && last == 2464573677000ull);
	done(&r);
	o.tid = true;
	load_opts(&r, text, &o);
	assert_string_equal(r.collapsed,
			    ":-1-?/?;do_exit 200040\nsh-?/?;do_exit 10\n");
	done(&r);
}

/* A module perf marks "(deleted)": the path is the module, not "deleted)". */
static void deleted_modules(void **state)
{
	static const char text[] =
		"memfd:sealed-91  1286 [000]  2453.588853:     7 cpu-clock: \n"
		"\t           c584f [unknown] (/memfd:sealed-9117 (deleted))\n"
		"\t           91fd6 foo+0x3 (/tmp/libfoo.so (deleted))\n"
		"\t           91fd7 (/usr/lib/libx.so (deleted))\n"
		"\t           91fd8 [unknown] (/usr/lib/liby.so)\n\n";
	struct result r;
	struct read_opts o = { 0 };

	(void)state;
	load(&r, text);
	assert_string_equal(r.collapsed, "memfd:sealed-91;[liby.so];[libx.so];"
			    "foo;[memfd:sealed-9117] 7\n");
	done(&r);
	o.addrs = true;
	load_opts(&r, text, &o);
	assert_string_equal(r.collapsed, "memfd:sealed-91;[liby.so <91fd8>];"
			    "[libx.so <91fd7>];foo;[memfd:sealed-9117 <c584f>] 7\n");
	done(&r);
}

static void tidy_names(void **state)
{
	struct result r;

	(void)state;
	load(&r, "app 1 2.0: 1 cycles:\n"
		 "\t 10 f\"o'o;bar(int, char) (/a/app)\n"
		 "\t 11 ns::(anonymous namespace)::g(int) (/a/app)\n"
		 "\t 12 main.(*Server).Run (/a/app)\n"
		 "\t 13 Lcom/x/Y;::m (/a/app)\n"
		 "\t 14 h+0x1A (/a/app)\n"
		 "\t 15 k+0x (/a/app)\n"
		 "\n");
	/* Root first: the last line is the root-most frame. */
	assert_string_equal(r.collapsed,
			    "app;k+0x;h+0x1A;Lcom/x/Y:::m;main.(*Server).Run;"
			    "ns::(anonymous namespace)::g;foo:bar 1\n");
	done(&r);
}

static void java_class_paths(void **state)
{
	struct result r;
	const char *frames =
		"\t 7f01 Lcom/x/Y;.m (/tmp/perf-9.map)\n"
		"\t 7f02 LMain;.main (/tmp/perf-9.map)\n\n";
	char buf[512];

	(void)state;
	/* A java process: the 'L' of a class path goes (not of "LMain"). */
	snprintf(buf, sizeof(buf), "java 9 1.0: 1 cycles:\n%s"
		 "other 9 1.0: 1 cycles:\n%s", frames, frames);
	load(&r, buf);
	assert_string_equal(r.collapsed,
			    "java;LMain:.main;com/x/Y:.m 1\n"
			    "other;LMain:.main;Lcom/x/Y:.m 1\n");
	done(&r);
}

static void inline_unknown_jit(void **state)
{
	struct result r;
	struct read_opts o = { 0 };
	const char *in =
		"node 7 3.0: 5 cpu-clock:\n"
		"\t 7f10 [unknown] (/tmp/perf-7.map)\n"
		"\t 7f11 inner->mid->outer (/usr/lib/libfoo.so.1)\n"
		"\t 7f12 [unknown] (/usr/lib/libc.so.6)\n"
		"\t 7f13 [unknown] ([unknown])\n"
		"\n";

	(void)state;
	load(&r, in);
	assert_string_equal(r.collapsed,
			    "node;[unknown];[libc.so.6];inner;mid_[i];outer_[i];"
			    "[perf-7.map] 5\n");
	done(&r);
	o.jit = true;
	o.addrs = true;
	load_opts(&r, in, &o);
	assert_string_equal(r.collapsed,
			    "node;[unknown <7f13>];[libc.so.6 <7f12>];inner;"
			    "mid_[i];outer_[i];[perf-7.map <7f10>]_[j] 5\n");
	done(&r);
}

/* With --addrs, an unknown frame's name depends on its address. */
static void addrs_not_cached(void **state)
{
	struct result r;
	struct read_opts o = { 0 };

	(void)state;
	o.addrs = true;
	load_opts(&r, "ab 1 1.0: 1 c:\n\t 10 [unknown] ([unknown])\n\n"
		      "ab 1 1.1: 1 c:\n\t 20 [unknown] ([unknown])\n\n"
		      "ab 1 1.2: 1 c:\n\t 10 [unknown] ([unknown])\n\n", &o);
	assert_string_equal(r.collapsed,
			    "ab;[unknown <10>] 2\nab;[unknown <20>] 1\n");
	done(&r);
}

static void kernel_modules(void **state)
{
	struct result r;
	struct read_opts o = { 0 };

	(void)state;
	o.kernel = true;
	o.jit = true;
	load_opts(&r, "ab 1 1.0: 1 c:\n"
		      "\t 1 k1 ([kernel.kallsyms])\n"
		      "\t 2 k2 (/lib/modules/6.1/build/vmlinux)\n"
		      "\t 3 u ([unknown])\n"
		      "\t 4 x ([vdso])\n"
		      "\t 5 j (/tmp/perf-12.map)\n"
		      "\t 6 n (/tmp/perf-x.map)\n"
		      "\n", &o);
	assert_string_equal(r.collapsed,
			    "ab;n;j_[j];x_[k];u;k2_[k];k1_[k] 1\n");
	done(&r);
}

static void events_first_kept(void **state)
{
	struct result r;
	struct read_opts o = { 0 };
	const char *in =
		"ab 1 1.0: 10 cycles:\n\t 1 f (/x)\n\n"
		"ab 1 1.1: 20 instructions:\n\t 1 g (/x)\n\n"
		"ab 1 1.2: 30 cycles:\n\t 1 f (/x)\n\n";

	(void)state;
	load(&r, in);
	assert_string_equal(r.collapsed, "ab;f 40\n");
	assert_int_equal(r.d.bad, 0);
	assert_true(warned(&r, "kept the samples of event 'cycles' only"));
	done(&r);
	o.event_filter = "instructions";
	load_opts(&r, in, &o);
	assert_string_equal(r.collapsed, "ab;g 20\n");
	assert_int_equal(r.d.nwarnings, 0);
	done(&r);
	o.event_filter = "branches";
	load_opts(&r, in, &o);
	assert_int_equal(r.rc, -1);
	assert_true(warned(&r, "no samples of event 'branches'"));
	done(&r);
}

/* No period, or a period of 0, weighs 1; without a time, no timeline. */
static void weights_without_time(void **state)
{
	struct result r;

	(void)state;
	load(&r, "ab 1 cycles:\n\t 1 f (/x)\n\n"
		 "ab 1 0 cycles:\n\t 1 f (/x)\n\n");
	assert_string_equal(r.collapsed, "ab;f 2\n");
	assert_false(profile_has_timeline(r.p));
	done(&r);
}

static void unindented_and_process_frames(void **state)
{
	struct result r;

	(void)state;
	load(&r, "java 19983 cycles:\n"
		 "ffffffff8103d0ca native_write_msr_safe ([kernel.kallsyms])\n"
		 "7f72 (java) (/usr/bin/java)\n"
		 "7f7243 start_thread (/lib/libpthread.so)\n\n");
	assert_string_equal(r.collapsed,
			    "java;start_thread;native_write_msr_safe 1\n");
	assert_int_equal(r.d.bad, 0);
	done(&r);
	{
		static const char head[] = "java 19983 cycles:\n"
			"ffff8 native ([kernel.kallsyms])\n\n";

		assert_int_equal(read_detect(head, sizeof(head) - 1),
				 FMT_PERF_SCRIPT);
	}
}

static void bad_lines(void **state)
{
	struct result r;
	static const char in[] =
		"\t 1 orphan (/x)\n"                 /* 1: before any event */
		"ab 1 1.0: 1 c:\n"
		"\t 1 f (/x)\n"
		"what is this\n"                     /* 4 */
		"\t 1 g\0 (/x)\n"                    /* 5: NUL */
		"\n"
		"ab 1 2.0: 99999999999999999999 c:\n" /* 7: too large */
		"\t 1 f (/x)\n"
		"\n"
		"ab 1 2.5: 1 c:\n"
		"\t 1 k (/x)\n"
		"\n"
		"ab 1 3.0: 2 c:\n"
		"\t 1 h (/x)\n";                     /* no blank line after */
	struct input *inp = input_open_mem(in, sizeof(in) - 1, "t.perf");
	struct read_opts o = { 0 };
	FILE *f;

	(void)state;
	r.p = profile_create();
	diag_init(&r.d);
	r.rc = read_perf_script(r.p, inp, &o, &r.d);
	input_close(inp);
	profile_finish(r.p);
	f = fmemopen(r.collapsed, sizeof(r.collapsed), "w");
	export_collapse(f, r.p);
	fclose(f);
	assert_int_equal(r.rc, 0);
	/* The samples with a NUL line and too large a period are left out. */
	assert_string_equal(r.collapsed, "ab;k 1\n");
	assert_int_equal(r.d.bad, 4);
	assert_string_equal(r.d.first[0], "t.perf:1: frame line outside a "
			    "sample (no event line before it)");
	assert_string_equal(r.d.first[1], "t.perf:4: neither an event line "
			    "nor a frame line");
	assert_string_equal(r.d.first[2], "t.perf:5: NUL byte in line: its "
			    "sample is left out");
	assert_string_equal(r.d.first[3], "t.perf:7: sample period is too "
			    "large");
	assert_true(warned(&r, "the last sample has no blank line after it"));
	done(&r);
}

static void nothing_to_read(void **state)
{
	struct result r;

	(void)state;
	load(&r, "# only a header\n#\n");
	assert_int_equal(r.rc, -1);
	assert_true(warned(&r, "t.perf: no samples in input"));
	done(&r);
}

/* "COMM PID": COMM is at least two characters and may end in blanks. */
static void odd_event_lines(void **state)
{
	struct result r;

	(void)state;
	load(&r, "a  12 1.0: 1 c:\n\t 1 f (/x)\n\n"
		 "x 5y 7 1.0: 1 c:\n\t 1 f (/x)\n\n");
	assert_string_equal(r.collapsed, "a_;f 1\nx_5y;f 1\n");
	done(&r);
}

/*
 * A symbol of two blanks keeps one as its name (as stackcollapse-perf.pl
 * does); no symbol at all (perf script -F without sym) is an unknown one.
 */
static void symbol_missing(void **state)
{
	struct result r;
	struct read_opts o = { 0 };

	(void)state;
	load(&r, "ab 1 1.0: 1 c:\n\t ffff  ([kernel.kallsyms])\n"
		 "\t abcd (/usr/lib/libc.so.6)\n\n");
	assert_string_equal(r.collapsed, "ab;[libc.so.6];  1\n");
	done(&r);
	o.addrs = true;
	load_opts(&r, "ab 1 1.0: 1 c:\n\t abcd (/usr/lib/libc.so.6)\n\n", &o);
	assert_string_equal(r.collapsed, "ab;[libc.so.6 <abcd>] 1\n");
	done(&r);
}

/* perf script -F without dso, and -F +srcline's extra lines. */
static void no_module_and_srcline(void **state)
{
	struct result r;

	(void)state;
	load(&r, "demo 7 1.0: 2 cpu-clock:\n"
		 "\t 1170 leaf+0x1b\n"
		 "  prog.c:3\n"
		 "\t 11ed main\n"
		 "  ??:0\n\n");
	assert_string_equal(r.collapsed, "demo;main;leaf 2\n");
	assert_int_equal(r.d.bad, 0);
	assert_true(warned(&r, "t.perf:3: 2 indented lines in samples are not "
			   "frames"));
	done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(periods_and_order),
		cmocka_unit_test(no_addr_tables),
		cmocka_unit_test(pid_tid_kernel),
		cmocka_unit_test(timestamps),
		cmocka_unit_test(time_words),
		cmocka_unit_test(period_tails),
		cmocka_unit_test(tid_only_and_spaces),
		cmocka_unit_test(unknown_task),
		cmocka_unit_test(deleted_modules),
		cmocka_unit_test(tidy_names),
		cmocka_unit_test(java_class_paths),
		cmocka_unit_test(inline_unknown_jit),
		cmocka_unit_test(addrs_not_cached),
		cmocka_unit_test(kernel_modules),
		cmocka_unit_test(events_first_kept),
		cmocka_unit_test(weights_without_time),
		cmocka_unit_test(unindented_and_process_frames),
		cmocka_unit_test(bad_lines),
		cmocka_unit_test(nothing_to_read),
		cmocka_unit_test(odd_event_lines),
		cmocka_unit_test(symbol_missing),
		cmocka_unit_test(no_module_and_srcline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
