/*
 * live-offcpu.c - --off-cpu and --wall: how long each thread was blocked,
 * and where.
 *
 * --off-cpu samples the context-switches software event (period 1, with
 * callchains) and asks for PERF_RECORD_SWITCH records (attr.context_switch).
 * A thread switching out writes the sample (its stack, where it blocked),
 * then a switch-out record flagged PREEMPT when it was still runnable; it
 * writes a switch-in record when it runs again.  A thread that blocked
 * weighs, at its stack, the ns from switch-out to its wake-up (a
 * sched:sched_wakeup sample, where the sampler has them) or else to its
 * switch-in; a preempted one weighs nothing.  Waiting for a CPU is not
 * blocking, whether the thread was preempted or woken: on a loaded machine
 * counting the wait after a wake-up would inflate the blocking calls'
 * share (--wall's 47% of a 7 ms sleep read 53% beside two busy loops).
 * The rings are read one CPU after another, so a switch-in seen on one
 * CPU's ring may come before the switch-out of another's: each thread
 * keeps the times until they pair.  The idle task (tid 0) is left out.
 */
#include "live.h"

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "live-priv.h"
#include "util.h"

static struct offcpu *off_state(struct live *L, uint32_t tid)
{
	uint64_t *v = live_set_find(&L->off_tid, tid);

	if (!v) {
		GROW(L->off, L->capoff, L->noff + 1);
		memset(&L->off[L->noff], 0, sizeof(*L->off));
		L->noff++;
		v = live_set_add(&L->off_tid, tid);
		*v = L->noff;
	}
	return &L->off[*v - 1];
}

static void off_pair(struct live *L, struct offcpu *o)
{
	uint64_t end;

	if (!o->have_stack || !o->blocked || !o->have_in)
		return;
	end = o->t_in;
	if (o->have_wake && o->t_wake >= o->t_out && o->t_wake <= o->t_in)
		end = o->t_wake;
	if (end >= o->t_out)
		live_pend_push(L, o->ids, o->n, &o->meta, end - o->t_out);
	o->have_stack = o->blocked = o->have_in = o->have_wake = false;
}

void live_off_sample(struct live *L, const struct pe_sample *s,
		     const struct sample_meta *meta, const uint32_t *ids,
		     size_t n)
{
	struct offcpu *o;

	if (s->tid == 0)
		return;
	o = off_state(L, s->tid);
	if (n + 1 > o->cap)
		GROW(o->ids, o->cap, n + 1);
	memcpy(o->ids, ids, n * sizeof(*ids));
	if (L->c->wall)   /* --wall: off-CPU stacks end in [off-cpu] */
		o->ids[n++] = profile_intern(L->p, "[off-cpu]", 9);
	o->n = n;
	o->t_out = s->time;
	o->meta = *meta;
	o->have_stack = true;
	o->blocked = false;
	if (o->have_in && o->t_in < o->t_out)
		o->have_in = false;   /* an older switch-in */
	if (o->have_wake && o->t_wake < o->t_out)
		o->have_wake = false;
}

/* A sched:sched_wakeup sample: its raw entry names the woken thread. */
bool live_off_wakeup(struct live *L, const struct pe_sample *s)
{
	const unsigned char *raw = s->raw;
	uint16_t type;
	int32_t tid;
	uint64_t *v;
	struct offcpu *o;

	if (!L->wakeups || !raw || s->raw_size < L->wake_pid_off + 4 ||
	    s->raw_size < 2)
		return false;
	memcpy(&type, raw, 2);
	if (type != (uint16_t)L->wake_id)
		return false;
	memcpy(&tid, raw + L->wake_pid_off, 4);
	if (tid <= 0 || !s->has_time)
		return true;
	v = live_set_find(&L->off_tid, (uint32_t)tid);
	if (!v)
		return true;   /* not a thread of ours, or not blocked */
	o = &L->off[*v - 1];
	/* The first wake-up after the switch-out ends the blocking. */
	if (!o->have_wake || o->t_wake < o->t_out ||
	    (s->time >= o->t_out && s->time < o->t_wake)) {
		o->t_wake = s->time;
		o->have_wake = true;
	}
	off_pair(L, o);
	return true;
}

void live_on_switch(struct live *L, const struct pe_record *r)
{
	struct offcpu *o;

	if (!r->sid.has_tid || r->sid.tid == 0 || !r->sid.has_time)
		return;
	o = off_state(L, r->sid.tid);
	if (r->misc & PERF_RECORD_MISC_SWITCH_OUT) {
		if (r->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
			o->have_stack = false;
		else if (o->have_stack && r->sid.time >= o->t_out)
			o->blocked = true;
	} else {
		o->t_in = r->sid.time;
		o->have_in = true;
	}
	off_pair(L, o);
}

/* Threads still blocked at end_ns count up to it. */
void live_off_finish(struct live *L, uint64_t end_ns)
{
	for (size_t i = 0; i < L->noff; i++) {
		struct offcpu *o = &L->off[i];

		if (o->have_stack && o->blocked && !o->have_in &&
		    end_ns > o->t_out) {
			uint64_t end = end_ns;

			if (o->have_wake && o->t_wake >= o->t_out &&
			    o->t_wake < end)
				end = o->t_wake;
			live_pend_push(L, o->ids, o->n, &o->meta, end - o->t_out);
		}
		o->have_stack = false;
	}
}
