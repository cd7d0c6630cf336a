/*
 * test-offcpu.c - the pairing of --off-cpu and --wall (src/live-offcpu.c)
 * on synthetic records: what a blocked and a preempted thread weigh, in
 * which mode, at which stack; a switch-in that comes before its
 * switch-out; lost records; the idle task; threads still off their CPU
 * when sampling ends, and threads that exited.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/perf_event.h>

#include "../../src/live-priv.h"
#include "options.h"
#include "profile.h"

struct fix {
	struct config c;
	struct live L;
	uint32_t stack[3];           /* t;f;g, root first */
};

static void fix_init(struct fix *f, bool wall)
{
	memset(f, 0, sizeof(*f));
	f->c.off_cpu = true;
	f->c.wall = wall;
	f->L.c = &f->c;
	f->L.p = profile_create();
	f->stack[0] = profile_intern(f->L.p, "t", 1);
	f->stack[1] = profile_intern(f->L.p, "f", 1);
	f->stack[2] = profile_intern(f->L.p, "g", 1);
}

static void fix_free(struct fix *f)
{
	for (size_t i = 0; i < f->L.noff; i++)
		free(f->L.off[i].ids);
	free(f->L.off);
	live_set_free(&f->L.off_tid);
	free(f->L.pend);
	profile_destroy(f->L.p);
}

/* The context-switches sample of tid at t: it switches out at t;f;g. */
static void sample(struct fix *f, uint32_t tid, uint64_t t)
{
	struct pe_sample s = { 0 };
	struct sample_meta m = { 0 };

	s.pid = s.tid = tid;
	s.time = t;
	s.has_time = s.has_tid = true;
	s.period = 1;
	m.time_ns = t;
	m.has_time = true;
	live_off_sample(&f->L, &s, &m, f->stack, 3);
}

/* A PERF_RECORD_SWITCH of tid at t: out (preempted or not) or in. */
static void sw(struct fix *f, uint32_t tid, uint64_t t, bool out, bool preempt)
{
	struct pe_record r;

	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_SWITCH;
	if (out)
		r.misc = PERF_RECORD_MISC_SWITCH_OUT |
			 (preempt ? PERF_RECORD_MISC_SWITCH_OUT_PREEMPT : 0);
	r.sid.pid = r.sid.tid = tid;
	r.sid.time = t;
	r.sid.has_tid = r.sid.has_time = true;
	live_on_switch(&f->L, &r);
}

/* Out at t0 (blocked or preempted), in at t1. */
static void interval(struct fix *f, uint32_t tid, uint64_t t0, uint64_t t1,
		     bool preempt)
{
	sample(f, tid, t0);
	sw(f, tid, t0 + 1, true, preempt);
	sw(f, tid, t1, false, false);
}

/* The weight of path ("t;f;g;[off-cpu]") once the queue is flushed. */
static uint64_t at(struct fix *f, const char *path)
{
	uint32_t node = NODE_ROOT;
	const char *s = path;

	live_flush(&f->L);
	profile_finish(f->L.p);
	for (;;) {
		const char *e = strchr(s, ';');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		uint32_t c;

		for (c = profile_node(f->L.p, node)->child; c != NODE_NONE;
		     c = profile_node(f->L.p, c)->next)
			if (profile_name_len(f->L.p, c) == len &&
			    memcmp(profile_name(f->L.p, c), s, len) == 0)
				break;
		if (c == NODE_NONE)
			return 0;
		node = c;
		if (!e)
			return profile_total(f->L.p, node);
		s = e + 1;
	}
}

static uint64_t all(struct fix *f)
{
	live_flush(&f->L);
	profile_finish(f->L.p);
	return profile_total(f->L.p, NODE_ROOT);
}

/* Blocked: switch-out to switch-in, at its stack, in both modes. */
static void blocked_weighs_out_to_in(void **state)
{
	struct fix f;

	(void)state;
	fix_init(&f, false);
	interval(&f, 7, 1000, 8000, false);
	assert_int_equal(at(&f, "t;f;g"), 7000);
	assert_int_equal(all(&f), 7000);
	fix_free(&f);

	fix_init(&f, true);
	interval(&f, 7, 1000, 8000, false);
	assert_int_equal(at(&f, "t;f;g;[off-cpu]"), 7000);
	assert_int_equal(all(&f), 7000);
	fix_free(&f);
}

/* Preempted: nothing in --off-cpu; in --wall under [preempted];[off-cpu]. */
static void preempted_counts_in_wall_only(void **state)
{
	struct fix f;

	(void)state;
	fix_init(&f, false);
	interval(&f, 7, 1000, 4000, true);
	interval(&f, 7, 5000, 6000, false);
	assert_int_equal(all(&f), 1000);
	fix_free(&f);

	fix_init(&f, true);
	interval(&f, 7, 1000, 4000, true);
	interval(&f, 7, 5000, 6000, false);
	assert_int_equal(at(&f, "t;f;g;[preempted];[off-cpu]"), 3000);
	assert_int_equal(at(&f, "t;f;g;[off-cpu]"), 1000);
	assert_int_equal(all(&f), 4000);
	fix_free(&f);
}

/* A switch-in read before its switch-out (another CPU's ring, another
 * drain) pairs when the switch-out comes; an older one does not. */
static void early_switch_in_pairs(void **state)
{
	struct fix f;

	(void)state;
	fix_init(&f, false);
	sw(&f, 7, 9000, false, false);   /* in, read first */
	sample(&f, 7, 2000);
	sw(&f, 7, 2001, true, false);
	assert_int_equal(all(&f), 7000);
	fix_free(&f);

	fix_init(&f, false);
	sw(&f, 7, 500, false, false);    /* an older switch-in */
	sample(&f, 7, 2000);
	sw(&f, 7, 2001, true, false);
	assert_int_equal(all(&f), 0);
	sw(&f, 7, 3000, false, false);
	assert_int_equal(all(&f), 1000);
	fix_free(&f);
}

/* Without its sample (lost) or its switch-out record, nothing pairs; the
 * idle task counts nothing. */
static void missing_records_and_idle(void **state)
{
	struct fix f;

	(void)state;
	fix_init(&f, true);
	sw(&f, 7, 1000, true, false);    /* no sample before it */
	sw(&f, 7, 2000, false, false);
	sample(&f, 7, 3000);             /* no switch-out record after it */
	sw(&f, 7, 4000, false, false);
	interval(&f, 0, 5000, 9000, false);
	assert_int_equal(all(&f), 0);
	/* The next full switch pairs as usual. */
	interval(&f, 7, 10000, 10500, false);
	assert_int_equal(all(&f), 500);
	fix_free(&f);
}

/* Sampling ends: blocked (and in --wall preempted) threads count up to
 * the end, threads that exited do not; a reused tid counts again. */
static void finish_counts_up_to_the_end(void **state)
{
	struct fix f;

	(void)state;
	fix_init(&f, true);
	sample(&f, 7, 1000);
	sw(&f, 7, 1001, true, false);
	sample(&f, 8, 2000);
	sw(&f, 8, 2001, true, true);
	live_off_exit(&f.L, 9);
	sample(&f, 9, 3000);             /* its last switch-out */
	sw(&f, 9, 3001, true, false);
	live_off_finish(&f.L, 10000);
	assert_int_equal(at(&f, "t;f;g;[off-cpu]"), 9000);
	assert_int_equal(at(&f, "t;f;g;[preempted];[off-cpu]"), 8000);
	assert_int_equal(all(&f), 17000);
	fix_free(&f);

	fix_init(&f, false);
	sample(&f, 8, 2000);
	sw(&f, 8, 2001, true, true);     /* preempted: not in --off-cpu */
	sample(&f, 9, 1000);
	sw(&f, 9, 1001, true, false);
	live_off_exit(&f.L, 9);          /* exits while blocked */
	live_off_fork(&f.L, 9);          /* the tid is reused */
	interval(&f, 9, 5000, 5600, false);
	live_off_finish(&f.L, 10000);
	assert_int_equal(all(&f), 600);
	fix_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(blocked_weighs_out_to_in),
		cmocka_unit_test(preempted_counts_in_wall_only),
		cmocka_unit_test(early_switch_in_pairs),
		cmocka_unit_test(missing_records_and_idle),
		cmocka_unit_test(finish_counts_up_to_the_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
