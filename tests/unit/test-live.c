/*
 * test-live.c - the parts of live mode that need no kernel: the ring read
 * protocol (records that wrap, a corrupt header, record timestamps), the
 * rate steps, CPU lists, the permission messages, and the profile's
 * timeline bound that the live window relies on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <errno.h>
#include <linux/perf_event.h>

#include "live.h"
#include "profile.h"

#define ST (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)

/* A fake ring: 256 bytes of data and the two counters. */
struct fake {
	unsigned char data[256];
	uint64_t head, tail;
	unsigned char scratch[65536 + 8];
	struct ring_view v;
};

static void fake_init(struct fake *f, uint64_t start)
{
	memset(f, 0, sizeof(*f));
	f->head = f->tail = start;
	f->v.data = f->data;
	f->v.size = sizeof(f->data);
	f->v.head = &f->head;
	f->v.tail = &f->tail;
	f->v.scratch = f->scratch;
}

/* Write bytes at the ring's free-running offset pos, wrapping. */
static void put(struct fake *f, uint64_t pos, const void *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		f->data[(pos + i) % sizeof(f->data)] = ((const unsigned char *)b)[i];
}

/*
 * Append a COMM record "pid tid name" with the sample_id trailer
 * (tid, time, cpu); returns its size.
 */
static size_t put_comm(struct fake *f, uint32_t pid, const char *name,
		       uint64_t time)
{
	unsigned char rec[128] = { 0 };
	struct perf_event_header h = { PERF_RECORD_COMM, 0, 0 };
	size_t nlen = (strlen(name) + 1 + 7) & ~(size_t)7;
	size_t off = sizeof(h);
	uint64_t cpu = 1;

	memcpy(rec + off, &pid, 4);
	memcpy(rec + off + 4, &pid, 4);
	off += 8;
	memcpy(rec + off, name, strlen(name));
	off += nlen;
	memcpy(rec + off, &pid, 4);
	memcpy(rec + off + 4, &pid, 4);
	memcpy(rec + off + 8, &time, 8);
	memcpy(rec + off + 16, &cpu, 8);
	off += 24;
	h.size = (uint16_t)off;
	memcpy(rec, &h, sizeof(h));
	put(f, f->head, rec, off);
	f->head += off;
	return off;
}

static const char *comm_name(const struct perf_event_header *h)
{
	return (const char *)h + sizeof(*h) + 8;
}

static void reads_records_in_order(void **state)
{
	struct fake *f = malloc(sizeof(*f));

	(void)state;
	fake_init(f, 0);
	put_comm(f, 10, "first", 100);
	put_comm(f, 11, "second", 200);
	assert_true(ring_begin(&f->v, ST));
	assert_string_equal(comm_name(f->v.cur), "first");
	assert_int_equal(f->v.cur_time, 100);
	/* Nothing is released while a record is being read... */
	assert_int_equal(f->tail, 0);
	assert_true(ring_next(&f->v, ST));
	assert_string_equal(comm_name(f->v.cur), "second");
	assert_int_equal(f->v.cur_time, 200);
	/* ...but each record handled is given back at once, so the kernel
	 * can write during a long drain. */
	assert_int_equal(f->tail, f->v.pos);
	assert_true(f->tail > 0 && f->tail < f->head);
	assert_false(ring_next(&f->v, ST));
	assert_int_equal(f->tail, f->head);
	ring_end(&f->v);
	assert_int_equal(f->tail, f->head);
	assert_false(ring_begin(&f->v, ST));
	free(f);
}

static void copies_a_record_that_wraps(void **state)
{
	struct fake *f = malloc(sizeof(*f));
	const char *long_name = "a-name-long-enough-to-wrap";
	size_t n;

	(void)state;
	/* Start 16 bytes before the end of the data area: the body wraps. */
	fake_init(f, 1000 * 256 - 16);
	n = put_comm(f, 7, long_name, 12345);
	assert_true(n > 16);
	assert_true(ring_begin(&f->v, ST));
	assert_ptr_equal(f->v.cur, (const void *)f->scratch);
	assert_string_equal(comm_name(f->v.cur), long_name);
	assert_int_equal(f->v.cur_time, 12345);
	assert_false(ring_next(&f->v, ST));
	ring_end(&f->v);
	assert_int_equal(f->tail, 1000 * 256 - 16 + n);
	free(f);
}

static void skips_a_corrupt_ring(void **state)
{
	struct fake *f = malloc(sizeof(*f));
	struct perf_event_header bad = { PERF_RECORD_COMM, 0, 4 };

	(void)state;
	fake_init(f, 0);
	put_comm(f, 1, "ok", 1);
	put(f, f->head, &bad, sizeof(bad));
	f->head += 64;
	assert_true(ring_begin(&f->v, ST));
	assert_false(ring_next(&f->v, ST));
	assert_true(f->v.bad);
	ring_end(&f->v);
	/* The corrupt part is given back too, so the kernel can go on. */
	assert_int_equal(f->tail, f->head);

	/* A size running past the head is corrupt as well. */
	fake_init(f, 0);
	bad.size = 200;
	put(f, 0, &bad, sizeof(bad));
	f->head = 64;
	assert_false(ring_begin(&f->v, ST));
	assert_true(f->v.bad);
	free(f);
}

static void sample_time_follows_ip_and_tid(void **state)
{
	uint64_t rec[6] = { 0 };
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, sizeof(rec) };
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		      PERF_SAMPLE_CPU;

	(void)state;
	memcpy(rec, &h, sizeof(h));
	rec[1] = 0x401000;     /* ip */
	rec[2] = 0x0000000500000005ull;   /* pid, tid */
	rec[3] = 987654321;    /* time */
	assert_int_equal(ring_record_time((void *)rec, st), 987654321);
	/* Without TIME in the format there is no time. */
	assert_int_equal(ring_record_time((void *)rec, PERF_SAMPLE_IP), 0);
}

static void rates_step_up_and_down(void **state)
{
	(void)state;
	assert_int_equal(live_rate_step(99, 1), 497);
	assert_int_equal(live_rate_step(497, 1), 997);
	assert_int_equal(live_rate_step(99, -1), 49);
	assert_int_equal(live_rate_step(49, -1), 49);
	assert_int_equal(live_rate_step(150, 1), 497);
	assert_int_equal(live_rate_step(150, -1), 99);
	assert_int_equal(live_rate_step(9999, 1), 9999);
	assert_int_equal(live_rate_step(1, 1), 49);
}

static void parses_cpu_lists(void **state)
{
	unsigned *c = NULL, n = 0;

	(void)state;
	assert_int_equal(live_parse_cpulist("0-3,5,7-8\n", &c, &n), 0);
	assert_int_equal(n, 7);
	assert_int_equal(c[0], 0);
	assert_int_equal(c[3], 3);
	assert_int_equal(c[4], 5);
	assert_int_equal(c[6], 8);
	free(c);
	assert_int_equal(live_parse_cpulist("1", &c, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(c[0], 1);
	free(c);
	assert_int_equal(live_parse_cpulist("", &c, &n), -1);
	assert_int_equal(live_parse_cpulist("3-1", &c, &n), -1);
	assert_int_equal(live_parse_cpulist("0,x", &c, &n), -1);
	assert_int_equal(live_parse_cpulist("2-", &c, &n), -1);
}

static void explains_errors_with_the_fix(void **state)
{
	char m[512];

	(void)state;
	live_explain_errno(EACCES, "system-wide", 2, false, m, sizeof(m));
	assert_non_null(strstr(m, "system-wide"));
	assert_non_null(strstr(m, "perf_event_paranoid=2"));
	assert_non_null(strstr(m, "root"));
	assert_non_null(strstr(m, "CAP_PERFMON"));
	assert_non_null(strstr(m, "sysctl kernel.perf_event_paranoid=0"));

	live_explain_errno(EACCES, "process 42", 3, true, m, sizeof(m));
	assert_non_null(strstr(m, "disabled"));

	live_explain_errno(ESRCH, "process 4242", 2, false, m, sizeof(m));
	assert_string_equal(m, "process 4242 does not exist");

	live_explain_errno(EMFILE, "process 1", 2, false, m, sizeof(m));
	assert_non_null(strstr(m, "ulimit -n"));

	live_explain_errno(EACCES, "process 1 (owned by another user)", 1,
			   false, m, sizeof(m));
	assert_non_null(strstr(m, "another user"));
}

/* At level 3 a kernel that still lets users sample their own tasks refused
 * for another reason: that reason is named, not the level. */
static void paranoid_3_names_the_real_cause(void **state)
{
	char m[512];

	(void)state;
	live_explain_errno(EACCES, "process 1 (owned by another user)", 3,
			   false, m, sizeof(m));
	assert_non_null(strstr(m, "process 1 (owned by another user)"));
	assert_null(strstr(m, "disabled"));

	live_explain_errno(EACCES, "system-wide", 3, false, m, sizeof(m));
	assert_non_null(strstr(m, "system-wide"));
	assert_null(strstr(m, "disabled"));

	live_explain_errno(EACCES, "process 1 (owned by another user)", 3,
			   true, m, sizeof(m));
	assert_non_null(strstr(m, "disabled"));
}

/* Live mode bounds the timeline; the all-time weights must not change. */
static void forgetting_the_timeline_keeps_all_time_weights(void **state)
{
	struct profile *p = profile_create();
	uint32_t a = profile_intern(p, "a", 1), b = profile_intern(p, "b", 1);
	uint32_t stack[2] = { a, b };
	struct weight w = { 1, 0, 0 };
	uint64_t first, last;

	(void)state;
	for (uint64_t t = 1; t <= 3; t++) {
		struct sample_meta m = { .time_ns = t * 1000, .has_time = true };

		assert_int_equal(profile_add_stack(p, stack, 2, &w, &m), ADD_OK);
	}
	profile_finish(p);
	profile_forget_before(p, 2000);
	assert_true(profile_time_bounds(p, &first, &last));
	assert_int_equal(first, 2000);
	assert_int_equal(last, 3000);
	assert_int_equal(profile_count_range(p, 0, 10000, NULL), 2);
	profile_set_range(p, 0, 10000);
	assert_int_equal(profile_total(p, NODE_ROOT), 2);
	profile_clear_range(p);
	assert_int_equal(profile_total(p, NODE_ROOT), 3);
	/* Forgetting everything, or nothing, is fine. */
	profile_forget_before(p, 0);
	assert_int_equal(profile_count_range(p, 0, 10000, NULL), 2);
	profile_forget_before(p, 99999);
	assert_false(profile_time_bounds(p, &first, &last));
	profile_destroy(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_records_in_order),
		cmocka_unit_test(copies_a_record_that_wraps),
		cmocka_unit_test(skips_a_corrupt_ring),
		cmocka_unit_test(sample_time_follows_ip_and_tid),
		cmocka_unit_test(rates_step_up_and_down),
		cmocka_unit_test(parses_cpu_lists),
		cmocka_unit_test(explains_errors_with_the_fix),
		cmocka_unit_test(paranoid_3_names_the_real_cause),
		cmocka_unit_test(forgetting_the_timeline_keeps_all_time_weights),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
