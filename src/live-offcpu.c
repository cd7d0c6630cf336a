/*
 * live-offcpu.c - --off-cpu and --wall: how long each thread was off its
 * CPU, and where.
 *
 * --off-cpu samples the context-switches software event (period 1, with
 * callchains) and asks for PERF_RECORD_SWITCH records (attr.context_switch).
 * A thread switching out writes the sample (its stack, where it stopped
 * running), then a switch-out record, flagged PREEMPT when it was still
 * runnable (preempted, or yielding); it writes a switch-in record when it
 * runs again.  One switch-out and the next switch-in make an interval:
 *
 *   blocked (switch-out not flagged PREEMPT): the ns from the switch-out
 *     to the switch-in weigh at the stack where the thread blocked, in
 *     --off-cpu and in --wall.  That includes the wait for a CPU after the
 *     wake-up: the thread was off its CPU until it ran again.
 *   preempted (flagged PREEMPT: runnable, waiting for a CPU): the same
 *     interval weighs in --wall only, at the stack where it was preempted
 *     with a frame [preempted] before the [off-cpu] every off-CPU stack of
 *     --wall ends in; in --off-cpu it weighs nothing (blocked time only).
 *
 * So --wall splits a thread's whole time, on its CPU (cpu-clock samples)
 * or off it, and --off-cpu shows where it blocked.  The idle task (tid 0)
 * is left out.  A thread still off its CPU when sampling ends counts up to
 * the end, as its kind weighs (live_off_stop: the end is read just before
 * the events are disabled), except one that has exited (its last
 * switch-out, after its EXIT record, is not a wait).  A wait that began
 * before sampling did counts nothing (its switch-out was not seen).  The
 * rings are merged by time, but a record written while a drain snapshots
 * the rings may come in the next drain, after later ones of other CPUs:
 * each thread keeps the switch-in until its switch-out comes, when it is
 * not older.
 */
#include "live.h"

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "live-priv.h"
#include "profile-addr.h"
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

/* Queue the interval t_out..end of o (its stack), as its kind weighs. */
static void off_push(struct live *L, struct offcpu *o, uint64_t end)
{
	size_t n = o->n;

	if (end <= o->t_out || (o->preempted && !L->c->wall))
		return;
	if (L->c->wall) {   /* --wall: off-CPU stacks end in [off-cpu] */
		if (o->preempted)
			o->ids[n++] = profile_intern(L->p, "[preempted]", 11);
		o->ids[n++] = profile_intern(L->p, "[off-cpu]", 9);
	}
	live_pend_push(L, o->ids, n, &o->meta, end - o->t_out, PADDR_NONE);
}

static void off_pair(struct live *L, struct offcpu *o)
{
	if (!o->have_stack || !o->have_out || !o->have_in)
		return;
	off_push(L, o, o->t_in);
	o->have_stack = o->have_out = o->have_in = false;
}

void live_off_sample(struct live *L, const struct pe_sample *s,
		     const struct sample_meta *meta, const uint32_t *ids,
		     size_t n)
{
	struct offcpu *o;

	if (s->tid == 0)
		return;
	o = off_state(L, s->tid);
	if (o->exited)
		return;   /* its last switch-out */
	if (n > PROFILE_MAX_DEPTH - 2)
		n = PROFILE_MAX_DEPTH - 2;   /* room for the two frames */
	if (n + 2 > o->cap)
		GROW(o->ids, o->cap, n + 2);
	memcpy(o->ids, ids, n * sizeof(*ids));
	o->n = n;
	o->t_out = s->time;
	o->meta = *meta;
	o->have_stack = true;
	o->have_out = false;
	if (o->have_in && o->t_in < o->t_out)
		o->have_in = false;   /* an older switch-in */
}

void live_on_switch(struct live *L, const struct pe_record *r)
{
	struct offcpu *o;

	if (!r->sid.has_tid || r->sid.tid == 0 || !r->sid.has_time)
		return;
	o = off_state(L, r->sid.tid);
	if (r->misc & PERF_RECORD_MISC_SWITCH_OUT) {
		if (o->have_stack && r->sid.time >= o->t_out) {
			o->have_out = true;
			o->preempted = (r->misc &
					PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) != 0;
		}
	} else {
		o->t_in = r->sid.time;
		o->have_in = true;
	}
	off_pair(L, o);
}

/* A thread exited: its last switch-out is no wait. */
void live_off_exit(struct live *L, uint32_t tid)
{
	struct offcpu *o;

	if (tid == 0)
		return;
	o = off_state(L, tid);
	o->exited = true;
	o->have_stack = o->have_out = o->have_in = false;
}

/* A new thread: a reused tid starts afresh. */
void live_off_fork(struct live *L, uint32_t tid)
{
	uint64_t *v = live_set_find(&L->off_tid, tid);

	if (v)
		L->off[*v - 1].exited = false;
}

/* Threads still off their CPU at end_ns count up to it. */
void live_off_finish(struct live *L, uint64_t end_ns)
{
	for (size_t i = 0; i < L->noff; i++) {
		struct offcpu *o = &L->off[i];

		if (o->have_stack && o->have_out && !o->have_in)
			off_push(L, o, end_ns);
		o->have_stack = false;
	}
}

/* Sampling stopped at stop_mono (CLOCK_MONOTONIC, read just before the
 * events were disabled) and the rings are drained: threads still off
 * their CPU count up to then, on the samples' clock (the last record's
 * time if it is not CLOCK_MONOTONIC). */
void live_off_stop(struct live *L, uint64_t stop_mono)
{
	live_off_finish(L, sampler_attr(L->s)->use_clockid ? stop_mono
							    : L->last_time);
}
