/*
 * test-perf-data.c - the perf.data reader and the record decoding under it:
 * files recorded here (tests/data, see its README), pipe mode, zstd,
 * several events, and synthetic streams built record by record to check
 * the tracker (fork, exec, exit, time order), the names (stackcollapse-perf
 * options) and every kind of damage (truncation, lying sizes, huge counts,
 * foreign byte order).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "diag.h"
#include "export.h"
#include "input.h"
#include "perf-event.h"
#include "perf-order.h"
#include "perf-procs.h"
#include "profile.h"
#include "profile-addr.h"
#include "read.h"
#include "symbols.h"

struct result {
	struct profile *p;
	struct diag d;
	int rc;
	char out[65536];
	char err[8192];
};

static void finish(struct result *r)
{
	FILE *f;

	/* fmemopen leaves a buffer it never writes to as it was. */
	r->out[0] = r->err[0] = '\0';
	profile_finish(r->p);
	f = fmemopen(r->out, sizeof(r->out), "w");
	assert_non_null(f);
	export_collapse(f, r->p);
	fclose(f);
	f = fmemopen(r->err, sizeof(r->err), "w");
	assert_non_null(f);
	diag_print(&r->d, f, "flametop");
	fclose(f);
}

static void load_mem_named(struct result *r, const void *buf, size_t len,
			   const char *name, const struct read_opts *o)
{
	struct read_opts none = { 0 };
	struct input *in = input_open_mem(buf, len, name);

	r->p = profile_create();
	diag_init(&r->d);
	r->rc = read_perf_data(r->p, in, o ? o : &none, &r->d);
	input_close(in);
	finish(r);
}

static void load_mem(struct result *r, const void *buf, size_t len,
		     const struct read_opts *o)
{
	load_mem_named(r, buf, len, "t.data", o);
}

static void load_file(struct result *r, const char *path,
		      const struct read_opts *o)
{
	struct read_opts none = { 0 };

	r->p = profile_create();
	diag_init(&r->d);
	r->rc = read_profile(r->p, path, o ? o : &none, &r->d);
	finish(r);
}

static void done(struct result *r)
{
	diag_free(&r->d);
	profile_destroy(r->p);
}

/* The weight of the line whose stack ends with suffix (0: none). */
static uint64_t weight_of(const char *out, const char *suffix)
{
	uint64_t sum = 0;
	size_t sl = strlen(suffix);

	for (const char *l = out; *l;) {
		const char *nl = strchr(l, '\n');
		const char *sp;
		size_t n = nl ? (size_t)(nl - l) : strlen(l);

		for (sp = l + n; sp > l && sp[-1] != ' '; sp--)
			;
		if (sp > l && (size_t)(sp - 1 - l) >= sl &&
		    memcmp(sp - 1 - sl, suffix, sl) == 0)
			sum += strtoull(sp, NULL, 10);
		l += n + (nl != NULL);
	}
	return sum;
}

static uint64_t total_of(const char *out)
{
	return weight_of(out, "");
}

/* ---- Files recorded here ------------------------------------------------ */

/* The fixture's binary where perf saw it, so its symbols resolve. */
static void install_prog(void)
{
	FILE *in = fopen("tests/data/prog", "rb"), *out;
	char buf[65536];
	size_t n;

	if (!in)
		return;
	mkdir("/tmp/flametop-fixture", 0755);
	out = fopen("/tmp/flametop-fixture/prog.tmp", "wb");
	if (out) {
		while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, n, out);
		fclose(out);
		rename("/tmp/flametop-fixture/prog.tmp",
		       "/tmp/flametop-fixture/prog");
	}
	fclose(in);
}

static void test_file_mode(void **state)
{
	struct result r;
	uint64_t a, b, all;

	(void)state;
	install_prog();
	load_file(&r, "tests/data/fp.data", NULL);
	assert_int_equal(r.rc, 0);
	/* 119 samples of cpu-clock at 1000 Hz: 1 ms (1000000 ns) each. */
	all = total_of(r.out);
	assert_int_equal(all, 119000000);
	a = weight_of(r.out, ";main;work;path_a;burn");
	b = weight_of(r.out, ";main;work;path_b;burn");
	/* path_a burns twice what path_b does. */
	assert_true(a > 0 && b > 0);
	assert_true(a * 100 / all >= 60 && a * 100 / all <= 72);
	assert_true(b * 100 / all >= 28 && b * 100 / all <= 40);
	/* Every stack starts with the process name. */
	assert_true(strncmp(r.out, "prog;", 5) == 0);
	assert_null(strstr(r.out, "\nprog-"));
	assert_null(strstr(r.err, "unresolved in files missing"));
	done(&r);
}

/*
 * read_opts.no_addr_tables (--collapse, --text...): the same stacks, and no
 * address tables, which nothing would read.
 */
static void test_no_addr_tables(void **state)
{
	static struct result with, without;
	struct read_opts o = { 0 };

	(void)state;
	install_prog();
	load_file(&with, "tests/data/fp.data", &o);
	o.no_addr_tables = true;
	load_file(&without, "tests/data/fp.data", &o);
	assert_int_equal(with.rc, 0);
	assert_int_equal(without.rc, 0);
	assert_string_equal(with.out, without.out);
	assert_string_equal(with.err, without.err);
	assert_non_null(profile_paddr(with.p, false));
	assert_true(paddr_total(profile_paddr(with.p, false)) > 0);
	assert_null(profile_paddr(without.p, false));
	done(&with);
	done(&without);
}

/* The weight of the lines whose stack holds sub. */
static uint64_t weight_with(const char *out, const char *sub)
{
	uint64_t sum = 0;

	for (const char *l = out; *l;) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		const char *sp = memrchr(l, ' ', n);
		const char *hit = strstr(l, sub);

		if (sp && hit && hit < sp)
			sum += strtoull(sp + 1, NULL, 10);
		l += n + (nl != NULL);
	}
	return sum;
}

/*
 * perf record -c 1000000: a fixed period, no PERIOD in sample_type.  Each
 * sample weighs the event's period, as perf script reports it: 77 samples
 * of 1000000 ns, 48 through path_a and 27 through path_b (perf script).
 */
static void test_fixed_period(void **state)
{
	struct result r;

	(void)state;
	install_prog();
	load_file(&r, "tests/data/period.data", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(total_of(r.out), 77000000);
	assert_int_equal(weight_with(r.out, ";main;work;path_a;"), 48000000);
	assert_int_equal(weight_with(r.out, ";main;work;path_b;"), 27000000);
	assert_int_equal(profile_unit(r.p), UNIT_NS);
	done(&r);
}

/* A tracepoint's weights count its events, and say so. */
static void test_tracepoint_unit(void **state)
{
	struct result r;
	char buf[128];

	(void)state;
	load_file(&r, "tests/data/switch.data", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(total_of(r.out), 2);
	profile_format_amount(r.p, 2, buf, sizeof(buf));
	assert_string_equal(buf, "2 sched:sched_switch events");
	done(&r);
	load_file(&r, "tests/data/period.data", NULL);
	profile_format_amount(r.p, 1500000000, buf, sizeof(buf));
	assert_string_equal(buf, "1.50 s CPU");
	done(&r);
}

static void test_pid_tid_kernel(void **state)
{
	struct result r;
	/*
	 * The kernel's symbols from a fixture made for fp.data (see
	 * tests/data/README.md), the program from a symfs holding it under
	 * its recorded path: the same names on any kernel and machine.
	 */
	struct read_opts o = { .tid = true, .kernel = true,
			       .kallsyms = "tests/data/fp.kallsyms",
			       .symfs = "tests/data/symfs" };
	const char *l;

	(void)state;
	load_file(&r, "tests/data/fp.data", &o);
	assert_int_equal(r.rc, 0);
	/* "prog-PID/TID" roots, the same pid and tid for this program. */
	assert_true(strncmp(r.out, "prog-", 5) == 0);
	l = strchr(r.out, '/');
	assert_non_null(l);
	{
		unsigned pid = (unsigned)strtoul(r.out + 5, NULL, 10);
		unsigned tid = (unsigned)strtoul(l + 1, NULL, 10);

		assert_true(pid > 0);
		assert_int_equal(pid, tid);
	}
	/* A timer interrupt in the kernel, marked _[k], under the program. */
	assert_non_null(strstr(r.out, ";main;work;path_a;burn;"
			       "asm_sysvec_apic_timer_interrupt_[k];"
			       "sysvec_apic_timer_interrupt_[k];"));
	/* libc is not in the symfs: only the symfs is searched. */
	assert_non_null(strstr(r.err, "missing under --symfs tests/data/symfs"));
	done(&r);
}

static void test_pipe_mode(void **state)
{
	struct result r;

	(void)state;
	install_prog();
	load_file(&r, "tests/data/pipe.data", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(total_of(r.out), 88000000);
	assert_true(weight_of(r.out, ";work;path_a;burn") >
		    weight_of(r.out, ";work;path_b;burn"));
	done(&r);
}

static void test_pipe_from_memory_in_pieces(void **state)
{
	/* The same stream read through the generic input (no mapping). */
	FILE *f = fopen("tests/data/pipe.data", "rb");
	static unsigned char buf[1 << 16];
	size_t n;
	struct result r;

	(void)state;
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	load_mem(&r, buf, n, NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(total_of(r.out), 88000000);
	done(&r);
}

static void test_zstd(void **state)
{
	struct result r;

	(void)state;
	install_prog();
	load_file(&r, "tests/data/zstd.data", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(total_of(r.out), 89000000);
	assert_true(weight_of(r.out, ";main;work;path_a;burn") > 0);
	done(&r);
}

static void test_two_events(void **state)
{
	struct result r;
	struct read_opts o = { .event_filter = "task-clock" };

	(void)state;
	install_prog();
	load_file(&r, "tests/data/two-events.data", NULL);
	assert_int_equal(r.rc, 0);
	/* The first event (cpu-clock) only, and the user is told. */
	assert_int_equal(total_of(r.out), 89000000);
	assert_non_null(strstr(r.err, "89 samples of other events skipped; "
				      "shown: cpu-clock"));
	done(&r);
	load_file(&r, "tests/data/two-events.data", &o);
	assert_int_equal(r.rc, 0);
	assert_int_equal(total_of(r.out), 89000000);
	assert_non_null(strstr(r.err, "shown: task-clock"));
	done(&r);
	o.event_filter = "cycles";
	load_file(&r, "tests/data/two-events.data", &o);
	assert_int_equal(r.rc, -1);
	assert_non_null(strstr(r.err, "no event named \"cycles\" (events: "
				      "cpu-clock, task-clock)"));
	done(&r);
}

static void test_timestamps(void **state)
{
	struct result r;
	uint64_t first, last;

	(void)state;
	load_file(&r, "tests/data/fp.data", NULL);
	assert_true(profile_has_timeline(r.p));
	assert_true(profile_time_bounds(r.p, &first, &last));
	/* As `perf script -F time` prints them: 1658.269725 .. 1658.526318 */
	assert_int_equal(first / 1000, 1658269725ULL);
	assert_int_equal(last / 1000, 1658526318ULL);
	done(&r);
}

/* Every prefix of a real file: never a crash, a message when cut. */
static void test_truncated_files(void **state)
{
	static unsigned char buf[1 << 16];
	const char *files[] = { "tests/data/fp.data", "tests/data/pipe.data",
				"tests/data/zstd.data" };
	/* Hundreds of loads: no kallsyms (100 ms of kernel time each). */
	struct sym_opts quick = { .demangle = true,
				  .kallsyms = "/nonexistent/kallsyms" };
	struct sym_opts normal;

	(void)state;
	sym_default_opts(&normal);
	sym_set_defaults(&quick);
	for (size_t k = 0; k < 3; k++) {
		FILE *f = fopen(files[k], "rb");
		size_t n;

		assert_non_null(f);
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		for (size_t cut = 0; cut < n; cut += cut < 256 ? 1 : 97) {
			struct result r;

			load_mem(&r, buf, cut, NULL);
			if (r.rc == 0)
				assert_true(total_of(r.out) > 0);
			else
				assert_true(r.err[0] != 0);
			done(&r);
		}
	}
	sym_set_defaults(&normal);
}

/* ---- Synthetic streams --------------------------------------------------- */

struct sb {
	unsigned char b[1 << 20];
	size_t n;
};

static void put(struct sb *s, const void *p, size_t n)
{
	assert_true(s->n + n <= sizeof(s->b));
	memcpy(s->b + s->n, p, n);
	s->n += n;
}

static void put64(struct sb *s, uint64_t v) { put(s, &v, 8); }

static void put2x32(struct sb *s, uint32_t a, uint32_t b)
{
	put(s, &a, 4);
	put(s, &b, 4);
}

static size_t rec_begin(struct sb *s, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { type, misc, 0 };
	size_t at = s->n;

	put(s, &h, sizeof(h));
	return at;
}

static void rec_end(struct sb *s, size_t at)
{
	uint16_t size;

	while ((s->n - at) % 8)
		s->b[s->n++] = 0;
	size = (uint16_t)(s->n - at);
	memcpy(s->b + at + 6, &size, 2);
}

static void put_str(struct sb *s, const char *str)
{
	put(s, str, strlen(str) + 1);
}

/* Set: the trailer ends with this IDENTIFIER. */
static uint64_t trailer_id;

/* The trailer of IP|TID|TIME|PERIOD|CALLCHAIN with sample_id_all. */
static void trailer(struct sb *s, uint32_t pid, uint32_t tid, uint64_t t)
{
	put2x32(s, pid, tid);
	put64(s, t);
	if (trailer_id)
		put64(s, trailer_id);
}

#define STYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	       PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

static void pipe_header(struct sb *s, uint64_t sample_type)
{
	struct perf_event_attr a;
	size_t at;

	put(s, "PERFILE2", 8);
	put64(s, 16);
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.size = sizeof(a);
	a.sample_type = sample_type;
	a.sample_id_all = 1;
	at = rec_begin(s, PE_HEADER_ATTR, 0);
	put(s, &a, sizeof(a));
	put64(s, 1);     /* its id */
	rec_end(s, at);
}

static void comm(struct sb *s, uint32_t pid, uint32_t tid, const char *name,
		 bool exec, uint64_t t)
{
	size_t at = rec_begin(s, PERF_RECORD_COMM,
			      exec ? PERF_RECORD_MISC_COMM_EXEC : 0);

	put2x32(s, pid, tid);
	put_str(s, name);
	while ((s->n - at) % 8)
		s->b[s->n++] = 0;
	trailer(s, pid, tid, t);
	rec_end(s, at);
}

static void mmap2(struct sb *s, uint32_t pid, uint64_t start, uint64_t len,
		  const char *path, uint64_t t)
{
	size_t at = rec_begin(s, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);

	put2x32(s, pid, pid);
	put64(s, start);
	put64(s, len);
	put64(s, 0);
	put2x32(s, 8, 1);        /* maj, min */
	put64(s, 1234);          /* ino */
	put64(s, 0);
	put2x32(s, 5, 2);        /* PROT_READ|PROT_EXEC, MAP_PRIVATE */
	put_str(s, path);
	while ((s->n - at) % 8)
		s->b[s->n++] = 0;
	trailer(s, pid, pid, t);
	rec_end(s, at);
}

static void task(struct sb *s, uint32_t type, uint32_t pid, uint32_t ppid,
		 uint32_t tid, uint32_t ptid, uint64_t t)
{
	size_t at = rec_begin(s, type, 0);

	put2x32(s, pid, ppid);
	put2x32(s, tid, ptid);
	put64(s, t);
	trailer(s, pid, tid, t);
	rec_end(s, at);
}

/* A user-mode sample whose chain is ips (leaf first, after USER). */
static void sample(struct sb *s, uint32_t pid, uint32_t tid, uint64_t t,
		   uint64_t period, const uint64_t *ips, size_t n)
{
	size_t at = rec_begin(s, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);

	put64(s, n ? ips[0] : 0);
	put2x32(s, pid, tid);
	put64(s, t);
	put64(s, period);
	put64(s, n + 1);
	put64(s, (uint64_t)PERF_CONTEXT_USER);
	for (size_t i = 0; i < n; i++)
		put64(s, ips[i]);
	rec_end(s, at);
}

static const uint64_t chain_ab[] = { 0x401010, 0x402020 };

static void test_synthetic_names(void **state)
{
	static struct sb s;
	struct result r;
	struct read_opts o = { .pid = true };
	struct read_opts ad = { .addrs = true };

	(void)state;
	s.n = 0;
	pipe_header(&s, STYPE);
	comm(&s, 100, 100, "my prog", false, 1);
	mmap2(&s, 100, 0x400000, 0x10000, "/nonexistent/dir/prog", 2);
	sample(&s, 100, 100, 10, 7, chain_ab, 2);
	sample(&s, 100, 100, 11, 5, chain_ab, 2);
	/* An address in no mapping. */
	sample(&s, 100, 100, 12, 1, (const uint64_t[]){ 0x900000 }, 1);
	load_mem(&r, s.b, s.n, NULL);
	assert_int_equal(r.rc, 0);
	/* Spaces in names become '_'; unknown symbols are [module]. */
	assert_string_equal(r.out, "my_prog;[prog];[prog] 12\n"
				   "my_prog;[unknown] 1\n");
	assert_non_null(strstr(r.err, "4 frames unresolved in files missing "
				      "on this machine (/nonexistent/dir/prog)"));
	done(&r);
	load_mem(&r, s.b, s.n, &o);
	assert_string_equal(r.out, "my_prog-100;[prog];[prog] 12\n"
				   "my_prog-100;[unknown] 1\n");
	done(&r);
	load_mem(&r, s.b, s.n, &ad);
	/* Addresses relative to the file, as perf prints them. */
	assert_string_equal(r.out, "my_prog;[prog <2020>];[prog <1010>] 12\n"
				   "my_prog;[unknown <900000>] 1\n");
	done(&r);
}

static void test_synthetic_fork_exec_exit(void **state)
{
	static struct sb s;
	struct result r;
	struct read_opts o = { .tid = true };

	(void)state;
	s.n = 0;
	pipe_header(&s, STYPE);
	comm(&s, 100, 100, "parent", false, 1);
	mmap2(&s, 100, 0x400000, 0x10000, "/nonexistent/parent", 2);
	/* A child process: it inherits the maps and the name. */
	task(&s, PERF_RECORD_FORK, 200, 100, 200, 100, 3);
	sample(&s, 200, 200, 4, 1, chain_ab, 2);
	/* A thread of the parent. */
	task(&s, PERF_RECORD_FORK, 100, 100, 101, 100, 5);
	sample(&s, 100, 101, 6, 1, chain_ab, 2);
	/* The child execs: new name, then its new image is mapped. */
	comm(&s, 200, 200, "child", true, 7);
	mmap2(&s, 200, 0x400000, 0x8000, "/nonexistent/child", 8);
	sample(&s, 200, 200, 9, 1, chain_ab, 2);
	/* The old image's mapping above the new one is still there. */
	sample(&s, 200, 200, 10, 1, (const uint64_t[]){ 0x408000 }, 1);
	task(&s, PERF_RECORD_EXIT, 200, 100, 200, 100, 11);
	load_mem(&r, s.b, s.n, &o);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
			    "child-200/200;[child];[child] 1\n"
			    "child-200/200;[parent] 1\n"
			    "parent-100/101;[parent];[parent] 1\n"
			    "parent-200/200;[parent];[parent] 1\n");
	done(&r);
}

/* A stream's start: process 400, "first", one file mapped at 0x400000. */
static void first_program(struct sb *s)
{
	s->n = 0;
	pipe_header(s, STYPE);
	comm(s, 400, 400, "first", false, 1);
	mmap2(s, 400, 0x400000, 0x10000, "/nonexistent/one", 2);
}

/*
 * The same chain of the same thread, again and again, while its process
 * and thread change: each sample is named as things are at its time (the
 * stacks found again by their chains must not outlive a change), and the
 * unresolved frames are counted for every sample.
 */
static void test_synthetic_same_chain_changes(void **state)
{
	static struct sb s;
	struct result r;

	(void)state;
	first_program(&s);
	sample(&s, 400, 400, 3, 1, chain_ab, 2);
	sample(&s, 400, 400, 4, 1, chain_ab, 2);
	/* Renamed (prctl): the next samples have the new root. */
	comm(&s, 400, 400, "second", false, 5);
	sample(&s, 400, 400, 6, 10, chain_ab, 2);
	sample(&s, 400, 400, 7, 10, chain_ab, 2);
	/* Another file mapped over the same addresses. */
	mmap2(&s, 400, 0x400000, 0x10000, "/nonexistent/two", 8);
	sample(&s, 400, 400, 9, 100, chain_ab, 2);
	sample(&s, 400, 400, 10, 100, chain_ab, 2);
	/* A second thread, unnamed: the process's name, its own key. */
	sample(&s, 400, 401, 11, 1000, chain_ab, 2);
	sample(&s, 400, 401, 12, 1000, chain_ab, 2);
	/* The process exits and its pid comes back as another program. */
	task(&s, PERF_RECORD_EXIT, 400, 1, 400, 1, 13);
	task(&s, PERF_RECORD_FORK, 400, 1, 400, 1, 14);
	comm(&s, 400, 400, "third", true, 15);
	mmap2(&s, 400, 0x400000, 0x10000, "/nonexistent/three", 16);
	sample(&s, 400, 400, 17, 10000, chain_ab, 2);
	sample(&s, 400, 400, 18, 10000, chain_ab, 2);
	load_mem(&r, s.b, s.n, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "first;[one];[one] 2\n"
				   "second;[one];[one] 20\n"
				   "second;[two];[two] 2200\n"
				   "third;[three];[three] 20000\n");
	/* 10 samples of 2 unresolved frames each. */
	assert_non_null(strstr(r.err, "20 frames unresolved"));
	done(&r);
}

/*
 * A stack found again by its chain holds while nothing of its process or
 * thread changed, whatever else changed meanwhile (its stamp moves on),
 * and not past a change of its own after that.
 */
static void test_synthetic_chain_outlives_others(void **state)
{
	static struct sb s;
	struct result r;

	(void)state;
	first_program(&s);
	comm(&s, 600, 600, "other", false, 3);
	sample(&s, 400, 400, 4, 1, chain_ab, 2);
	/* Another process changes: the stack still holds. */
	comm(&s, 600, 600, "other2", false, 5);
	sample(&s, 400, 400, 6, 10, chain_ab, 2);
	mmap2(&s, 600, 0x400000, 0x10000, "/nonexistent/six", 7);
	sample(&s, 400, 400, 8, 10, chain_ab, 2);
	/* Its own maps change: it does not, nor its thread's name after. */
	mmap2(&s, 400, 0x400000, 0x10000, "/nonexistent/two", 9);
	sample(&s, 400, 400, 10, 100, chain_ab, 2);
	comm(&s, 600, 600, "other3", false, 11);
	sample(&s, 400, 400, 12, 100, chain_ab, 2);
	comm(&s, 400, 400, "renamed", false, 13);
	sample(&s, 400, 400, 14, 1000, chain_ab, 2);
	load_mem(&r, s.b, s.n, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "first;[one];[one] 21\n"
				   "first;[two];[two] 200\n"
				   "renamed;[two];[two] 1000\n");
	done(&r);
}

/* A process that goes (live mode) moves the table's clock. */
static void test_procs_clock_on_exit(void **state)
{
	struct pe_procs *pt = pe_procs_create(NULL, NULL);
	struct pe_record r;
	uint64_t before;

	(void)state;
	pe_procs_set_comm(pt, 700, 700, "gone", 4);
	pe_procs_add_map(pt, 700, 0x400000, 0x1000, 0, "/nonexistent/x", 14,
			 NULL);
	assert_non_null(pe_procs_proc(pt, 700));
	before = pe_procs_clock(pt);
	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_EXIT;
	r.u.task.pid = r.u.task.tid = 700;
	r.u.task.ppid = r.u.task.ptid = 1;
	pe_procs_apply(pt, &r);
	assert_null(pe_procs_proc(pt, 700));
	assert_true(pe_procs_clock(pt) > before);
	pe_procs_destroy(pt);
}

/*
 * The readers' threads (read.h): FLAMETOP_THREADS=n and, with more than
 * one, FLAMETOP_BATCH_BYTES, so that these small inputs reach every
 * hand-over between threads; env_restore puts back what was set before.
 */
struct saved_env {
	char *threads, *batch;
};

static char *env_dup(const char *name)
{
	const char *v = getenv(name);

	return v ? strdup(v) : NULL;
}

static void env_put(const char *name, char *v)
{
	if (v)
		setenv(name, v, 1);
	else
		unsetenv(name);
	free(v);
}

static struct saved_env env_save(void)
{
	return (struct saved_env){ env_dup("FLAMETOP_THREADS"),
				   env_dup("FLAMETOP_BATCH_BYTES") };
}

static void env_restore(struct saved_env *e)
{
	env_put("FLAMETOP_THREADS", e->threads);
	env_put("FLAMETOP_BATCH_BYTES", e->batch);
}

static void set_threads(unsigned n)
{
	char v[12];

	snprintf(v, sizeof(v), "%u", n);
	setenv("FLAMETOP_THREADS", v, 1);
	if (n > 1)
		setenv("FLAMETOP_BATCH_BYTES", "200", 1);
	else
		unsetenv("FLAMETOP_BATCH_BYTES");
}

/*
 * Thousands of samples in two interleaved buffers (the sort matters),
 * chains that repeat per thread, and processes that change under them:
 * the same profile and messages whether the chain hashes are worked out
 * ahead on another thread or not (FLAMETOP_THREADS).
 */
static uint64_t build_busy_stream(struct sb *s)
{
	uint64_t chains[40][4];
	uint64_t want = 0;

	s->n = 0;
	pipe_header(s, STYPE);
	for (unsigned c = 0; c < 40; c++)
		for (unsigned k = 0; k < 4; k++)
			chains[c][k] = 0x400000 + 0x100 * ((c * 7 + k * 13) % 64);
	for (uint32_t pid = 500; pid < 506; pid++) {
		char name[16];

		snprintf(name, sizeof(name), "prog%u", (unsigned)pid);
		comm(s, pid, pid, name, false, 1);
		mmap2(s, pid, 0x400000, 0x10000, pid % 2 ? "/nonexistent/odd"
							 : "/nonexistent/even", 1);
	}
	for (uint64_t round = 0; round < 10; round++) {
		/* One buffer's records of this round, then the other's. */
		for (unsigned half = 0; half < 2; half++) {
			for (uint64_t k = 0; k < 400; k++) {
				uint64_t t = 10 + round * 1000 + k * 2 + half;
				uint64_t i = round * 800 + k * 2 + half;
				uint32_t pid = 500 + (uint32_t)(i % 6);
				uint32_t tid = i % 5 ? pid : pid + 1000;
				unsigned c = (unsigned)((i / 6 * 7 + i) % 40);

				sample(s, pid, tid, t, 1 + i % 13, chains[c],
				       1 + c % 4);
				want += 1 + i % 13;
			}
		}
		if (round == 3)
			comm(s, 502, 502, "renamed", false, 3000);
		if (round == 5)
			mmap2(s, 503, 0x400000, 0x10000, "/nonexistent/new", 5000);
		if (round == 7) {
			task(s, PERF_RECORD_EXIT, 504, 1, 504, 1, 7000);
			task(s, PERF_RECORD_FORK, 504, 1, 504, 1, 7001);
			comm(s, 504, 504, "reborn", true, 7002);
		}
	}
	return want;
}

static void test_synthetic_threads(void **state)
{
	static struct sb s;
	struct result one, more;
	struct saved_env saved = env_save();
	uint64_t want;

	(void)state;
	want = build_busy_stream(&s);
	set_threads(1);
	load_mem(&one, s.b, s.n, NULL);
	assert_int_equal(one.rc, 0);
	assert_int_equal(total_of(one.out), want);
	assert_non_null(strstr(one.out, "renamed;[even]"));
	assert_non_null(strstr(one.out, "reborn;[unknown]"));
	assert_non_null(strstr(one.out, "prog503;[new]"));
	for (unsigned t = 2; t <= 3; t++) {
		set_threads(t);
		for (int rep = 0; rep < 5; rep++) {
			load_mem(&more, s.b, s.n, NULL);
			assert_int_equal(more.rc, one.rc);
			assert_string_equal(more.out, one.out);
			assert_string_equal(more.err, one.err);
			done(&more);
		}
	}
	env_restore(&saved);
	done(&one);
}

/*
 * A file of 4 MB and more is walked in chunks read with pread, its index
 * pointing into the mapping; memory input is walked in place.  The same
 * bytes must give the same stacks, messages and status either way: a
 * stream of 6 MB whose records cross the 128 KB chunks at every offset,
 * with records only the full walk handles (rounds, an unknown type,
 * AUXTRACE data, some across a chunk's end) and its end cut in the
 * places a file can end badly.
 */
static uint16_t get16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

/* The offset of the record after the one at off (with AUXTRACE data). */
static size_t next_record(const unsigned char *b, size_t off)
{
	uint32_t type;
	uint64_t extra = 0;

	memcpy(&type, b + off, 4);
	if (type == PE_AUXTRACE)
		memcpy(&extra, b + off + 8, 8);
	return off + get16(b + off + 6) + (size_t)extra;
}

static size_t big_stream(unsigned char **out, size_t want, size_t *first)
{
	static struct sb s, body;
	size_t head, n, at;
	unsigned char *b;

	build_busy_stream(&s);
	/* The stream's own header (magic, size, attr) once, then its body. */
	head = 16 + get16(s.b + 16 + 6);
	body.n = 0;
	for (unsigned k = 0; k < 3; k++) {
		at = rec_begin(&body, PE_FINISHED_ROUND, 0);
		rec_end(&body, at);
	}
	at = rec_begin(&body, 80, 0);     /* a type perf does not write */
	put64(&body, 7);
	rec_end(&body, at);
	put(&body, s.b + head, s.n - head);
	b = malloc(head + want + 2 * body.n + 80000);
	assert_non_null(b);
	memcpy(b, s.b, head);
	n = head;
	for (unsigned copy = 0; n < head + want; copy++) {
		/*
		 * AUXTRACE data of a size that moves the next records to
		 * other offsets in the chunks, and may run past a chunk.
		 */
		uint64_t extra = 8 * (1 + copy * 997 % 9000);
		struct perf_event_header h = { PE_AUXTRACE, 0, 48 };

		memcpy(b + n, &h, sizeof(h));
		memcpy(b + n + 8, &extra, 8);
		memset(b + n + 16, 0, 32 + extra);
		n += 48 + extra;
		memcpy(b + n, body.b, body.n);
		n += body.n;
	}
	*out = b;
	*first = head;
	return n;
}

/* The offset of the last record that starts before limit. */
static size_t record_before(const unsigned char *b, size_t first,
			    size_t limit)
{
	size_t off = first;

	while (next_record(b, off) < limit)
		off = next_record(b, off);
	return off;
}

static void test_walk_file_in_chunks(void **state)
{
	char path[] = "/tmp/flametop-walk-XXXXXX";
	unsigned char *b;
	size_t first, n = big_stream(&b, (size_t)6 << 20, &first);
	/*
	 * Whole; cut inside its last record; cut 5 bytes into a record
	 * header; whole with a record of size 4 halfway (the rest skipped).
	 */
	size_t len[4] = { n, n - 20, record_before(b, first, n - 3000) + 5, n };
	size_t bad = record_before(b, first, n / 2);
	uint64_t total = 0;

	(void)state;
	for (unsigned k = 0; k < 4; k++) {
		struct result mem, file;
		int fd = mkstemp(path);
		uint16_t size = get16(b + bad + 6), four = 4;

		assert_true(fd >= 0);
		if (k == 3)
			memcpy(b + bad + 6, &four, 2);
		assert_int_equal(write(fd, b, len[k]), (ssize_t)len[k]);
		close(fd);
		load_mem_named(&mem, b, len[k], path, NULL);
		load_file(&file, path, NULL);
		unlink(path);
		memcpy(b + bad + 6, &size, 2);
		memcpy(path + strlen(path) - 6, "XXXXXX", 6);
		assert_int_equal(file.rc, mem.rc);
		assert_string_equal(file.out, mem.out);
		assert_string_equal(file.err, mem.err);
		if (k == 0) {
			assert_int_equal(mem.rc, 0);
			total = total_of(mem.out);
			assert_true(total > 0);
		} else {
			assert_true(total_of(mem.out) < total);
			assert_non_null(strstr(mem.err, k == 1 ? "cut short" :
						  k == 2 ? "stray bytes" :
						  "smaller than its header"));
		}
		done(&mem);
		done(&file);
	}
	free(b);
}

/*
 * Two events whose samples put the time at different places (one has
 * IP, the other not): each record's time is read with its own event's
 * format.  Read with the first event's, the second sample's time would be
 * its period (45), before the rename at 50.
 */
static void test_time_of_each_event(void **state)
{
	static struct sb s;
	const uint64_t types[2] = {
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD |
			PERF_SAMPLE_CALLCHAIN,
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN,
	};
	const uint64_t at[2][2] = { { 100, 45 }, { 30, 3 } };
	struct result r;

	(void)state;
	s.n = 0;
	put(&s, "PERFILE2", 8);
	put64(&s, 16);
	for (unsigned e = 0; e < 2; e++) {
		struct perf_event_attr a;
		size_t rec;

		memset(&a, 0, sizeof(a));
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_CPU_CLOCK;
		a.size = sizeof(a);
		a.sample_type = types[e];
		a.sample_id_all = 1;
		rec = rec_begin(&s, PE_HEADER_ATTR, 0);
		put(&s, &a, sizeof(a));
		put64(&s, e + 1);
		rec_end(&s, rec);
	}
	trailer_id = 1;
	comm(&s, 600, 600, "before", false, 1);
	mmap2(&s, 600, 0x400000, 0x10000, "/nonexistent/x", 2);
	for (unsigned k = 0; k < 2; k++) {
		size_t rec;

		if (k == 1)
			comm(&s, 600, 600, "after", false, 50);
		/* The second event's samples, out of time order. */
		rec = rec_begin(&s, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(&s, 2);
		put2x32(&s, 600, 600);
		put64(&s, at[k][0]);
		put64(&s, at[k][1]);
		put64(&s, 3);
		put64(&s, (uint64_t)PERF_CONTEXT_USER);
		put64(&s, chain_ab[0]);
		put64(&s, chain_ab[1]);
		rec_end(&s, rec);
	}
	trailer_id = 0;
	load_mem(&r, s.b, s.n, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "after;[x];[x] 45\n"
				   "before;[x];[x] 3\n");
	done(&r);
}

static void test_synthetic_time_order(void **state)
{
	static struct sb s;
	struct result r;

	(void)state;
	s.n = 0;
	pipe_header(&s, STYPE);
	/* Written out of order (another CPU's buffer came first). */
	sample(&s, 300, 300, 50, 3, chain_ab, 2);
	comm(&s, 300, 300, "late", false, 10);
	mmap2(&s, 300, 0x400000, 0x10000, "/nonexistent/late", 20);
	load_mem(&r, s.b, s.n, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "late;[late];[late] 3\n");
	done(&r);
}

/*
 * Times too far apart to pack with the record numbers into one sort key
 * (2^62 ns apart): sorted by comparison, to the same order.  Equal
 * times keep file order: the rename at 2^61 comes before the sample
 * written after it at the same time.
 */
static void test_time_span_too_wide_to_pack(void **state)
{
	static struct sb s;
	struct result r;
	const uint64_t far = (uint64_t)1 << 62, mid = (uint64_t)1 << 61;

	(void)state;
	s.n = 0;
	pipe_header(&s, STYPE);
	sample(&s, 700, 700, far + 5, 100, chain_ab, 2);
	comm(&s, 700, 700, "first", false, 1);
	mmap2(&s, 700, 0x400000, 0x10000, "/nonexistent/w", 2);
	comm(&s, 700, 700, "second", false, mid);
	sample(&s, 700, 700, mid, 20, chain_ab, 2);
	sample(&s, 700, 700, 10, 3, chain_ab, 2);
	load_mem(&r, s.b, s.n, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "first;[w];[w] 3\n"
				   "second;[w];[w] 120\n");
	done(&r);
}

/*
 * Records of time 0 sort first.  At the start of the data they keep
 * their place whatever the sort makes of them; a sample of time 0 later
 * in the file (a hostile one) goes before the rename at 20 all the same.
 */
static void test_time_zero(void **state)
{
	static struct sb s;
	struct result r;

	(void)state;
	s.n = 0;
	pipe_header(&s, STYPE);
	comm(&s, 700, 700, "early", false, 0);
	mmap2(&s, 700, 0x400000, 0x10000, "/nonexistent/z", 0);
	sample(&s, 700, 700, 50, 100, chain_ab, 2);
	comm(&s, 700, 700, "renamed", false, 20);
	sample(&s, 700, 700, 0, 3, chain_ab, 2);
	/* Enough records for the radix sort. */
	comm(&s, 701, 701, "filler", false, 1);
	mmap2(&s, 701, 0x400000, 0x10000, "/nonexistent/f", 1);
	for (uint64_t t = 60; t < 124; t++)
		sample(&s, 701, 701, t, 1, chain_ab, 2);
	load_mem(&r, s.b, s.n, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "early;[z];[z] 3\n"
				   "filler;[f];[f] 64\n"
				   "renamed;[z];[z] 100\n");
	done(&r);
}

static void test_synthetic_kernel_chain(void **state)
{
	struct symbolizer *sy;
	char path[] = "/tmp/flametop-kallsyms-XXXXXX";
	int fd = mkstemp(path);
	struct sym_opts so = { .demangle = true, .kallsyms = path };
	struct profile *p = profile_create();
	struct read_opts o = { .kernel = true };
	struct pe_machine *m;
	struct pe_sample smp = { 0 };
	uint64_t chain[] = { (uint64_t)PERF_CONTEXT_KERNEL,
			     0xffffffff81000120, 0xffffffff81000210,
			     (uint64_t)PERF_CONTEXT_USER, 0x401000 };
	uint32_t ids[16];
	size_t n;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	(void)state;
	assert_non_null(f);
	/* A control byte in a name ends neither the line nor the reading. */
	fputs("ffffffff81000000 T _text\n"
	      "ffffffff81000080 t odd\001name\n"
	      "ffffffff81000100 T leaf_func\n"
	      "ffffffff81000200 t caller_func\n"
	      "ffffffff81000300 T next_func\n"
	      "ffffffffc0000000 t mod_func\t[mymod]\n", f);
	fclose(f);
	sy = sym_create(&so);
	m = pe_machine_create(sy, p, &o);
	pe_machine_set_comm(m, 5, 5, "k", 1);
	smp.pid = smp.tid = 5;
	smp.cpumode = PERF_RECORD_MISC_KERNEL;
	smp.nr = 5;
	smp.callchain = chain;
	smp.has_callchain = true;
	n = pe_machine_stack(m, &smp, ids, 16);
	assert_int_equal(n, 4);
	assert_string_equal(symtab_name(profile_symtab(p), ids[0]), "k");
	assert_string_equal(symtab_name(profile_symtab(p), ids[1]),
			    "[unknown]");
	assert_string_equal(symtab_name(profile_symtab(p), ids[2]),
			    "caller_func_[k]");
	assert_string_equal(symtab_name(profile_symtab(p), ids[3]),
			    "leaf_func_[k]");
	/* A module's function, and an unknown context marker. */
	chain[1] = 0xffffffffc0000010;
	chain[2] = (uint64_t)-1;
	n = pe_machine_stack(m, &smp, ids, 16);
	/* A chain holding a value that is no context: dropped, as perf. */
	assert_int_equal(n, 1);
	chain[2] = 0xffffffff81000210;
	n = pe_machine_stack(m, &smp, ids, 16);
	assert_string_equal(symtab_name(profile_symtab(p), ids[3]),
			    "mod_func_[k]");
	pe_machine_destroy(m);
	sym_destroy(sy);
	profile_destroy(p);
	unlink(path);
}

static void test_other_kernel(void **state)
{
	static struct sb s;
	struct result r;
	size_t at;
	const char rel[16] = "0.0.0-other";

	(void)state;
	s.n = 0;
	pipe_header(&s, STYPE);
	/* OSRELEASE: a kernel that is not this one, no kernel build-id. */
	at = rec_begin(&s, PE_HEADER_FEATURE, 0);
	put64(&s, 4);
	put2x32(&s, sizeof(rel), 0);
	s.n -= 4;
	put(&s, rel, sizeof(rel));
	rec_end(&s, at);
	comm(&s, 100, 100, "p", false, 1);
	at = rec_begin(&s, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
	put64(&s, 0xffffffff81000e06);
	put2x32(&s, 100, 100);
	put64(&s, 2);
	put64(&s, 1);
	put64(&s, 2);
	put64(&s, (uint64_t)PERF_CONTEXT_KERNEL);
	put64(&s, 0xffffffff81000e06);
	rec_end(&s, at);
	load_mem(&r, s.b, s.n, NULL);
	assert_int_equal(r.rc, 0);
	/* Local kallsyms would give wrong names: none are given. */
	assert_string_equal(r.out, "p;[[kernel.kallsyms]] 1\n");
	assert_non_null(strstr(r.err, "1 frames unresolved in the kernel "
				      "(recorded on kernel 0.0.0-other, this is "));
	done(&r);
	/* --kallsyms FILE is trusted, whatever kernel recorded the profile. */
	{
		struct read_opts o = { .kallsyms = "tests/data/fp.kallsyms" };

		load_mem(&r, s.b, s.n, &o);
		assert_int_equal(r.rc, 0);
		assert_string_equal(r.out,
				    "p;asm_sysvec_apic_timer_interrupt 1\n");
		assert_null(strstr(r.err, "unresolved in the kernel"));
		done(&r);
	}
}

static void test_map_cutting(void **state)
{
	struct profile *p = profile_create();
	struct pe_machine *m = pe_machine_create(NULL, p, NULL);
	const struct pe_map *maps;
	size_t n;

	(void)state;
	pe_machine_add_map(m, 7, 0x1000, 0x4000, 0x100000, "/a", 2, NULL);
	pe_machine_add_map(m, 7, 0x8000, 0x1000, 0, "/c", 2, NULL);
	/* Into the middle of /a: /a is cut in two around it. */
	pe_machine_add_map(m, 7, 0x2000, 0x1000, 0, "/b", 2, NULL);
	maps = pe_proc_maps(pe_machine_proc(m, 7), &n);
	assert_int_equal(n, 4);
	assert_int_equal(maps[0].start, 0x1000);
	assert_int_equal(maps[0].end, 0x2000);
	assert_int_equal(maps[0].pgoff, 0x100000);
	assert_int_equal(maps[1].start, 0x2000);
	assert_int_equal(maps[1].end, 0x3000);
	assert_int_equal(maps[2].start, 0x3000);
	assert_int_equal(maps[2].end, 0x5000);
	assert_int_equal(maps[2].pgoff, 0x102000);
	assert_int_equal(maps[3].start, 0x8000);
	/* Over everything: one map is left. */
	pe_machine_add_map(m, 7, 0x0, 0x10000, 0, "/d", 2, NULL);
	maps = pe_proc_maps(pe_machine_proc(m, 7), &n);
	assert_int_equal(n, 1);
	assert_int_equal(maps[0].end, 0x10000);
	assert_ptr_equal(pe_proc_find_map(pe_machine_proc(m, 7), 0xffff),
			 &maps[0]);
	assert_null(pe_proc_find_map(pe_machine_proc(m, 7), 0x10000));
	/* A hostile file's millions of maps stop at a limit. */
	for (uint64_t i = 0; i < 20000; i++)
		pe_machine_add_map(m, 8, 0x100000000ULL - i * 0x1000, 0x1000,
				   0, "/e", 2, NULL);
	maps = pe_proc_maps(pe_machine_proc(m, 8), &n);
	assert_int_equal(n, 16384);
	assert_int_equal(pe_machine_stats(m)->maps_dropped, 20000 - 16384);
	pe_machine_destroy(m);
	profile_destroy(p);
}

/* ---- Damage ---------------------------------------------------------------- */

static void test_bad_magic_and_byte_order(void **state)
{
	struct result r;
	unsigned char buf[128] = "2ELIFREP";

	(void)state;
	load_mem(&r, buf, sizeof(buf), NULL);
	assert_int_equal(r.rc, -1);
	assert_non_null(strstr(r.err, "other byte order is not supported"));
	done(&r);
	memcpy(buf, "PERFFILE", 8);
	load_mem(&r, buf, sizeof(buf), NULL);
	assert_int_equal(r.rc, -1);
	assert_non_null(strstr(r.err, "not a perf.data file"));
	done(&r);
	memcpy(buf, "PERFILE2", 8);
	memset(buf + 8, 0xff, 96);    /* a header of lies */
	load_mem(&r, buf, sizeof(buf), NULL);
	assert_int_equal(r.rc, -1);
	assert_true(r.err[0] != 0);
	done(&r);
}

/*
 * A callchain far deeper than the kernel's sample_max_stack (127), as a
 * crafted file may hold: read whole, one frame per entry, no crash.
 */
static void test_deeper_than_max_stack(void **state)
{
	static struct sb s;
	static uint64_t ips[3000];
	struct result r;
	const char *line;
	size_t semis = 0;

	(void)state;
	for (size_t i = 0; i < 3000; i++)
		ips[i] = 0x401000 + 16 * i;
	s.n = 0;
	pipe_header(&s, STYPE);
	comm(&s, 100, 100, "deep", false, 1);
	mmap2(&s, 100, 0x400000, 0x10000, "/nonexistent/deep", 2);
	sample(&s, 100, 100, 3, 1, ips, 3000);
	sample(&s, 100, 100, 4, 1, chain_ab, 2);
	load_mem(&r, s.b, s.n, NULL);
	assert_int_equal(r.rc, 0);
	/* The deep stack is the second line (sorted after the short one). */
	line = strchr(r.out, '\n');
	assert_non_null(line);
	assert_true(strncmp(line + 1, "deep;", 5) == 0);
	for (const char *c = line + 1; *c && *c != '\n'; c++)
		semis += *c == ';';
	assert_true(semis >= 128);
	assert_int_equal(total_of(r.out), 2);
	done(&r);
}

static void test_lying_sizes(void **state)
{
	static struct sb s;
	struct result r;
	size_t at;

	(void)state;
	s.n = 0;
	pipe_header(&s, STYPE);
	comm(&s, 100, 100, "p", false, 1);
	sample(&s, 100, 100, 2, 1, chain_ab, 2);
	/* A sample claiming 2^60 callchain entries. */
	at = rec_begin(&s, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put64(&s, 1);
	put2x32(&s, 100, 100);
	put64(&s, 3);
	put64(&s, 1);
	put64(&s, 1ULL << 60);
	put64(&s, 0x401000);
	rec_end(&s, at);
	/* A record whose size is below its header's: the walk stops. */
	at = rec_begin(&s, PERF_RECORD_SAMPLE, 0);
	s.b[at + 6] = 4;
	s.b[at + 7] = 0;
	sample(&s, 100, 100, 4, 1, chain_ab, 2);
	load_mem(&r, s.b, s.n, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "p;[unknown];[unknown] 1\n");
	assert_non_null(strstr(r.err, "callchain longer than its record"));
	assert_non_null(strstr(r.err, "record size smaller than its header"));
	done(&r);
}

static void test_lost_and_unknown_records(void **state)
{
	static struct sb s;
	struct result r;
	size_t at;

	(void)state;
	s.n = 0;
	pipe_header(&s, STYPE);
	comm(&s, 100, 100, "p", false, 1);
	at = rec_begin(&s, PERF_RECORD_LOST, 0);
	put64(&s, 1);
	put64(&s, 42);
	trailer(&s, 100, 100, 2);
	rec_end(&s, at);
	/* A type from the future: skipped by its size. */
	at = rec_begin(&s, 250, 0);
	put64(&s, 0xdeadbeef);
	rec_end(&s, at);
	/* Tracing data: its payload follows the record, outside its size. */
	at = rec_begin(&s, PE_TRACING_DATA, 0);
	put2x32(&s, 16, 0);
	rec_end(&s, at);
	put64(&s, 0x0909090909090909ULL);
	put64(&s, 0x0909090909090909ULL);
	sample(&s, 100, 100, 3, 2, chain_ab, 2);
	load_mem(&r, s.b, s.n, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "p;[unknown];[unknown] 2\n");
	assert_non_null(strstr(r.err, "42 samples were lost while recording"));
	done(&r);
}

static void test_decode_bounds(void **state)
{
	struct pe_format f = { .sample_type = STYPE | PERF_SAMPLE_REGS_USER |
			       PERF_SAMPLE_STACK_USER, .regs_user = 0xff0fff };
	unsigned char rec[48] = { 0 };
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, sizeof(rec) };
	struct pe_record r;
	const char *why;

	(void)state;
	memcpy(rec, &h, sizeof(h));
	/* Shorter than its fields. */
	assert_int_equal(pe_decode(rec, sizeof(rec), &f, &r, &why), -1);
	assert_non_null(why);
	/* Size past the bytes given. */
	assert_int_equal(pe_decode(rec, 40, &f, &r, &why), -1);
	assert_string_equal(why, "record runs past the end of the data");
	/* Fewer bytes than a header. */
	assert_int_equal(pe_decode(rec, 4, &f, &r, &why), -1);
}

/* ---- Records in time order from a second thread (perf-order.h) ---------- */

/* r (a or tmp) holds the n records in time order, as a stable sort. */
static void assert_stable_sorted(const struct pe_ref *r,
				 const struct pe_ref *a,
				 const struct pe_ref *tmp, size_t n)
{
	assert_true(r == a || r == tmp);
	for (size_t i = 1; i < n; i++) {
		assert_true(r[i - 1].time <= r[i].time);
		if (r[i - 1].time == r[i].time)
			assert_true(r[i - 1].rec < r[i].rec);
	}
	/* Each record once: the recs are 1..n. */
	{
		unsigned char *seen = calloc(n + 1, 1);

		assert_non_null(seen);
		for (size_t i = 0; i < n; i++) {
			uintptr_t k = (uintptr_t)r[i].rec;

			assert_true(k >= 1 && k <= n && !seen[k]);
			seen[k] = 1;
		}
		free(seen);
	}
}

/* Times with many repeats, sorted by pe_sort_refs as a stable sort. */
static void test_sort_refs(void **state)
{
	static const size_t sizes[] = { 0, 1, 50, 1000, 70000 };
	uint64_t seed = 99;

	(void)state;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k];
		struct pe_ref *a = calloc(n + 1, sizeof(*a));
		struct pe_ref *tmp = calloc(n + 1, sizeof(*tmp)), *r;

		assert_non_null(a);
		assert_non_null(tmp);
		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			/* Spans of 8, 20 and 40 bits; the index in rec. */
			a[i].time = (seed >> 33) % (k % 3 == 0 ? 256 : k % 3 == 1
						    ? (1u << 20) : (1ULL << 40));
			a[i].rec = (const unsigned char *)(uintptr_t)(i + 1);
		}
		r = pe_sort_refs(a, tmp, n);
		assert_stable_sorted(r, a, tmp, n);
		free(a);
		free(tmp);
	}
}

/*
 * Runs already in order, as perf writes each CPU's buffer in turn (the
 * times of the runs overlapping, with repeats within and across runs):
 * sorted as a stable sort, whether merged (up to 16 runs) or not.
 */
static void test_sort_runs(void **state)
{
	static const size_t runs[] = { 1, 2, 3, 16, 17, 40 };
	uint64_t seed = 7;

	(void)state;
	for (size_t k = 0; k < sizeof(runs) / sizeof(runs[0]); k++) {
		size_t n = 3000, per = n / runs[k];
		struct pe_ref *a = calloc(n, sizeof(*a));
		struct pe_ref *tmp = calloc(n, sizeof(*tmp)), *r;
		uint64_t t = 0;

		assert_non_null(a);
		assert_non_null(tmp);
		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			if (i % per == 0)
				t = 1000 + (seed >> 40) % 50;  /* a new run */
			t += (seed >> 33) % 3;                 /* 0: a repeat */
			a[i].time = t;
			a[i].rec = (const unsigned char *)(uintptr_t)(i + 1);
		}
		r = pe_sort_refs(a, tmp, n);
		assert_stable_sorted(r, a, tmp, n);
		free(a);
		free(tmp);
	}
}

/*
 * A data section of two CPUs' samples in rounds: in round r the first
 * CPU's samples of round r, then the second's of round r - late (the
 * records a round or more behind), times 2k and 2k + 1 with some equal.
 * no_rounds: without the FINISHED_ROUND records.
 */
static void order_stream(struct sb *s, unsigned rounds, unsigned late,
			 bool no_rounds)
{
	s->n = 0;
	for (unsigned r = 0; r < rounds + late; r++) {
		for (unsigned cpu = 0; cpu < 2; cpu++) {
			unsigned of = cpu ? r - late : r;

			if ((cpu && r < late) || of >= rounds)
				continue;
			for (uint64_t k = 0; k < 40; k++) {
				uint64_t t = 1000 + of * 100 + 2 * k +
					     (cpu && k % 5);
				uint64_t ip = 0x400000 + 16 * (k % 7);

				sample(s, 100 + cpu, 100 + cpu, t, 1, &ip, 1);
			}
		}
		if (!no_rounds) {
			size_t at = rec_begin(s, PE_FINISHED_ROUND, 0);

			rec_end(s, at);
		}
	}
}

static struct pe_evlist *order_events(void)
{
	struct pe_evlist *el = pe_evlist_create();
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sample_type = STYPE;
	a.sample_id_all = 1;
	assert_non_null(pe_evlist_add(el, &a, sizeof(a), NULL, 0));
	return el;
}

struct order_out {
	bool ok;
	size_t n, batches;
	unsigned char *recs;    /* the records handed on, one after another */
	size_t bytes;
	unsigned char *updates;
	size_t nupdates;
	size_t stray;
	bool cut;
};

/*
 * A sample that decodes comes decoded, as pe_decode decodes it (unless
 * it has registers, a user stack or raw data: the reader decodes those).
 */
static void assert_handed_on_decoded(const struct pe_evlist *el,
				     const struct po_rec *pr, size_t size)
{
	const struct pe_event *ev = pe_evlist_for_record(el, pr->rec, size);
	struct pe_record r;
	struct pe_sample got;
	const char *why;

	memset(&r, 0, sizeof(r));       /* padding too: compared whole */
	if (pe_load32(pr->rec) != PERF_RECORD_SAMPLE || !ev ||
	    pe_decode(pr->rec, size, &ev->fmt, &r, &why) < 0 ||
	    r.u.sample.regs || r.u.sample.stack || r.u.sample.raw) {
		assert_int_equal(pr->s.has, 0);
		return;
	}
	assert_true(pr->s.has & PO_HAS_SAMPLE);
	assert_ptr_equal(pr->ev, ev);
	memset(&got, 0, sizeof(got));
	po_sample_expand(pr, &got);
	/* Every field, id and stream_id aside (the event is found). */
	got.id = r.u.sample.id;
	got.stream_id = r.u.sample.stream_id;
	assert_memory_equal(&got, &r.u.sample, sizeof(got));
}

/* Read s's records through perf-order; stop_after: batches, 0 all. */
static void order_read(struct order_out *out, int fd, const struct sb *s,
		       size_t batch_max, size_t stop_after)
{
	struct pe_evlist *el = order_events();
	struct perf_order *o = po_start(fd, fd < 0 ? s->b : NULL, s->n, 0,
					el, batch_max);
	const struct po_rec *b;
	size_t n;

	assert_non_null(o);
	memset(out, 0, sizeof(*out));
	out->recs = malloc(s->n + 1);
	assert_non_null(out->recs);
	while ((b = po_next(o, &n))) {
		assert_true(n > 0);
		assert_true(!batch_max || n <= batch_max);
		for (size_t i = 0; i < n; i++) {
			size_t size = get16(b[i].rec + 6);

			assert_true(out->bytes + size <= s->n);
			assert_int_equal(b[i].hash,
					 pe_record_chain_hash(el, b[i].rec));
			assert_handed_on_decoded(el, &b[i], size);
			memcpy(out->recs + out->bytes, b[i].rec, size);
			out->bytes += size;
			out->n++;
		}
		if (++out->batches == stop_after)
			break;
	}
	{
		struct po_end end;

		out->ok = po_finish(o, &end);
		out->updates = end.updates;
		out->nupdates = end.nupdates;
		out->stray = end.stray;
		out->cut = end.cut;
	}
	pe_evlist_destroy(el);
}

static uint64_t time_of(const unsigned char *rec)
{
	uint64_t t;

	memcpy(&t, rec + 8 + 16, 8);     /* after IP and TID */
	return t;
}

/* out's records are s's samples sorted by time, file order among equal. */
static void assert_in_time_order(const struct order_out *out,
				 const struct sb *s)
{
	size_t n = 0, at = 0;
	struct pe_ref *all = calloc(s->n / 8, sizeof(*all));

	assert_non_null(all);
	for (size_t off = 0; off < s->n; off = next_record(s->b, off)) {
		uint32_t type;

		memcpy(&type, s->b + off, 4);
		if (type != PERF_RECORD_SAMPLE)
			continue;
		all[n].time = time_of(s->b + off);
		all[n++].rec = s->b + off;
	}
	/* An insertion sort: stable, and no code under test. */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && all[j - 1].time > all[j].time; j--) {
			struct pe_ref t = all[j];

			all[j] = all[j - 1];
			all[j - 1] = t;
		}
	assert_int_equal(out->n, n);
	for (size_t i = 0; i < n; i++) {
		size_t size = get16(all[i].rec + 6);

		assert_memory_equal(out->recs + at, all[i].rec, size);
		at += size;
	}
	assert_int_equal(at, out->bytes);
	free(all);
}

static void order_done(struct order_out *out)
{
	free(out->recs);
	free(out->updates);
}

/*
 * Records a round behind, or two, come out in time order, in batches
 * of any size; three rounds behind, the thread gives up.
 */
static void test_order_rounds(void **state)
{
	static struct sb s;
	struct order_out out;

	(void)state;
	for (unsigned late = 0; late <= 2; late++) {
		order_stream(&s, 30, late, false);
		for (size_t batch = 0; batch <= 3; batch += 3) {
			order_read(&out, -1, &s, batch, 0);
			assert_true(out.ok);
			assert_true(out.batches > (batch ? 600u : 20u));
			assert_in_time_order(&out, &s);
			assert_int_equal(out.nupdates, 0);
			order_done(&out);
		}
	}
	order_stream(&s, 30, 3, false);
	order_read(&out, -1, &s, 0, 0);
	assert_false(out.ok);
	order_done(&out);
	/* Without rounds: all at the end, in order, in full batches. */
	order_stream(&s, 30, 7, true);
	order_read(&out, -1, &s, 0, 0);
	assert_true(out.ok);
	assert_true(out.n > PO_BATCH_RECS);
	assert_int_equal(out.batches,
			 (out.n + PO_BATCH_RECS - 1) / PO_BATCH_RECS);
	assert_in_time_order(&out, &s);
	order_done(&out);
}

/*
 * What the thread does not take on: an attr among the records, compressed
 * data, a record of size 4.  A record cut short at the end, or stray
 * bytes, end the data (and are told).  Event names come back in file
 * order; a reader that stops early stops the thread.
 */
static void test_order_gives_up(void **state)
{
	static struct sb s;
	struct order_out out;
	size_t at, mid;
	uint16_t four = 4;
	static const uint32_t types[] = { PE_HEADER_ATTR, PE_COMPRESSED,
					   PE_AUXTRACE, PE_HEADER_FEATURE };

	(void)state;
	for (size_t k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
		order_stream(&s, 10, 1, false);
		at = rec_begin(&s, types[k], 0);
		put64(&s, 0);
		put64(&s, 0);
		rec_end(&s, at);
		order_read(&out, -1, &s, 0, 0);
		assert_false(out.ok);
		order_done(&out);
	}
	order_stream(&s, 10, 1, false);
	s.n -= 8 + 4;           /* the last round, and 4 bytes of a sample */
	order_read(&out, -1, &s, 0, 0);
	assert_true(out.ok);
	assert_true(out.cut);
	assert_int_equal(out.stray, 0);
	assert_int_equal(out.n, 10 * 80 - 1);
	order_done(&out);
	order_stream(&s, 10, 1, false);
	put(&s, "\0\0\0\0\0", 5);
	order_read(&out, -1, &s, 0, 0);
	assert_true(out.ok);
	assert_false(out.cut);
	assert_int_equal(out.stray, 5);
	s.n -= 5;
	assert_in_time_order(&out, &s);
	order_done(&out);
	order_stream(&s, 10, 1, false);
	mid = record_before(s.b, 0, s.n / 2);
	memcpy(s.b + mid + 6, &four, 2);
	order_read(&out, -1, &s, 0, 0);
	assert_false(out.ok);
	order_done(&out);

	/* Two EVENT_UPDATE records among the samples; an unknown type. */
	order_stream(&s, 10, 1, false);
	mid = s.n;
	for (unsigned k = 0; k < 2; k++) {
		at = rec_begin(&s, PE_EVENT_UPDATE, 0);
		put64(&s, 2);           /* a name */
		put64(&s, 1);           /* of event id 1 */
		put_str(&s, k ? "second" : "first");
		rec_end(&s, at);
	}
	at = rec_begin(&s, 95, 0);
	put64(&s, 5);
	rec_end(&s, at);
	order_read(&out, -1, &s, 0, 0);
	assert_true(out.ok);
	assert_int_equal(out.nupdates, 2 * 32);
	assert_memory_equal(out.updates, s.b + mid, out.nupdates);
	assert_in_time_order(&out, &s);
	order_done(&out);

	/* The reader stops after two batches. */
	order_stream(&s, 30, 1, false);
	order_read(&out, -1, &s, 3, 2);
	assert_false(out.ok);
	assert_int_equal(out.batches, 2);
	order_done(&out);
}

/* From a file, in chunks of 128 KB that records cross: as from memory. */
static void test_order_from_file(void **state)
{
	static struct sb s;
	char path[] = "/tmp/flametop-order-XXXXXX";
	struct order_out mem, file;
	int fd;

	(void)state;
	order_stream(&s, 180, 2, false);
	assert_true(s.n > (size_t)800 << 10);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, s.b, s.n), (ssize_t)s.n);
	order_read(&mem, -1, &s, 0, 0);
	order_read(&file, fd, &s, 0, 0);
	close(fd);
	assert_true(mem.ok);
	assert_true(file.ok);
	assert_int_equal(file.bytes, mem.bytes);
	assert_memory_equal(file.recs, mem.recs, mem.bytes);
	assert_in_time_order(&file, &s);
	order_done(&mem);
	order_done(&file);
}

/* s: a pipe stream (pipe_header, then records) as a file-mode perf.data. */
static size_t file_of(const struct sb *s, unsigned char **out)
{
	size_t head = 16 + get16(s->b + 16 + 6), asz = sizeof(struct perf_event_attr) + 16;
	size_t data = 104 + asz + 8, n = data + s->n - head;
	unsigned char *b = calloc(1, n);
	uint64_t v;

	assert_non_null(b);
	memcpy(b, "PERFILE2", 8);
	v = 104;
	memcpy(b + 8, &v, 8);
	memcpy(b + 16, &asz, 8);
	v = 104;
	memcpy(b + 24, &v, 8);          /* the attrs */
	memcpy(b + 32, &asz, 8);
	memcpy(b + 40, &data, 8);       /* the data */
	v = s->n - head;
	memcpy(b + 48, &v, 8);
	memcpy(b + 104, s->b + 16 + 8, asz - 16);
	v = 104 + asz;
	memcpy(b + 104 + asz - 16, &v, 8);      /* its ids */
	v = 8;
	memcpy(b + 104 + asz - 8, &v, 8);
	v = 1;
	memcpy(b + 104 + asz, &v, 8);
	memcpy(b + data, s->b + head, s->n - head);
	*out = b;
	return n;
}

/*
 * A file read with one thread (two passes) and with three (both passes at
 * once, perf-order.h): the same stacks, messages and status, whether the
 * second thread hands on every record (also of data that ends short) or
 * gives up half way (a record three rounds late, a sample that does not
 * decode) and the file is read again.
 */
static void test_file_in_order_or_again(void **state)
{
	static struct sb s, body;
	struct saved_env saved = env_save();

	(void)state;
	for (unsigned k = 0; k < 7; k++) {
		struct result one, three;
		char amount[2][64];
		unsigned char *f;
		size_t n;

		if (k < 2 || k >= 4) {
			build_busy_stream(&s);
		} else {
			s.n = 0;
			pipe_header(&s, STYPE);
			order_stream(&body, 30, k == 2 ? 1 : 3, false);
			put(&s, body.b, body.n);
		}
		if (k == 1) {
			/* A callchain longer than its record, half way. */
			size_t at = record_before(s.b, 16 + get16(s.b + 22),
						  s.n / 2);
			uint64_t nr = 1000;

			while (get16(s.b + at) != PERF_RECORD_SAMPLE)
				at = next_record(s.b, at);
			memcpy(s.b + at + 8 + 32, &nr, 8);
		}
		if (k == 4) {
			/* The event (page faults) named among the records. */
			size_t at = rec_begin(&s, PE_EVENT_UPDATE, 0);

			put64(&s, 2);
			put64(&s, 1);
			put_str(&s, "my-event");
			rec_end(&s, at);
		}
		if (k == 6)
			put(&s, "\0\0\0\0\0", 5);   /* stray bytes */
		n = file_of(&s, &f);
		if (k == 5)
			n -= 20;        /* perf record killed: cut short */
		if (k == 4) {
			struct perf_event_attr *a = (void *)(f + 104);

			a->type = PERF_TYPE_SOFTWARE;
			a->config = PERF_COUNT_SW_PAGE_FAULTS;
		}
		set_threads(1);
		load_mem(&one, f, n, NULL);
		set_threads(3);
		load_mem(&three, f, n, NULL);
		assert_int_equal(one.rc, 0);
		assert_true(total_of(one.out) > 0);
		assert_int_equal(three.rc, one.rc);
		assert_string_equal(three.out, one.out);
		assert_string_equal(three.err, one.err);
		if (k == 1)
			assert_non_null(strstr(one.err, "callchain longer"));
		profile_format_amount(one.p, 5, amount[0], sizeof(amount[0]));
		profile_format_amount(three.p, 5, amount[1], sizeof(amount[1]));
		assert_string_equal(amount[1], amount[0]);
		if (k == 4)
			assert_string_equal(amount[0], "5 my-event");
		if (k >= 5)
			assert_non_null(strstr(one.err, k == 5 ? "cut short"
							     : "5 stray bytes"));
		done(&one);
		done(&three);
		free(f);
	}
	env_restore(&saved);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_mode),
		cmocka_unit_test(test_no_addr_tables),
		cmocka_unit_test(test_fixed_period),
		cmocka_unit_test(test_tracepoint_unit),
		cmocka_unit_test(test_pid_tid_kernel),
		cmocka_unit_test(test_pipe_mode),
		cmocka_unit_test(test_pipe_from_memory_in_pieces),
		cmocka_unit_test(test_zstd),
		cmocka_unit_test(test_two_events),
		cmocka_unit_test(test_timestamps),
		cmocka_unit_test(test_truncated_files),
		cmocka_unit_test(test_synthetic_names),
		cmocka_unit_test(test_synthetic_fork_exec_exit),
		cmocka_unit_test(test_synthetic_same_chain_changes),
		cmocka_unit_test(test_synthetic_chain_outlives_others),
		cmocka_unit_test(test_procs_clock_on_exit),
		cmocka_unit_test(test_synthetic_threads),
		cmocka_unit_test(test_walk_file_in_chunks),
		cmocka_unit_test(test_synthetic_time_order),
		cmocka_unit_test(test_time_of_each_event),
		cmocka_unit_test(test_time_span_too_wide_to_pack),
		cmocka_unit_test(test_time_zero),
		cmocka_unit_test(test_synthetic_kernel_chain),
		cmocka_unit_test(test_other_kernel),
		cmocka_unit_test(test_map_cutting),
		cmocka_unit_test(test_bad_magic_and_byte_order),
		cmocka_unit_test(test_lying_sizes),
		cmocka_unit_test(test_deeper_than_max_stack),
		cmocka_unit_test(test_lost_and_unknown_records),
		cmocka_unit_test(test_decode_bounds),
		cmocka_unit_test(test_sort_refs),
		cmocka_unit_test(test_sort_runs),
		cmocka_unit_test(test_order_rounds),
		cmocka_unit_test(test_order_gives_up),
		cmocka_unit_test(test_order_from_file),
		cmocka_unit_test(test_file_in_order_or_again),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
