/*
 * live-jithold.c - samples held back until the jitdump names their JIT
 * code.
 *
 * A runtime may write its jitdump through a buffer: python3.13 -X perf_jit
 * writes its code loads (and their unwinding info) to the file 4 KiB at a
 * time and at exit, so its hot functions are named only once it flushes.
 * A sample whose stack has JIT code the process's dump does not name yet
 * is therefore kept, raw (its stack copy too, to unwind it again), and
 * built again when the dump grew, when the process exits (the runtime has
 * flushed by then: its EXIT record comes after), or at the end of
 * sampling.  The TUI shows the samples of the last seconds: there a sample
 * waits at most HOLD_TUI_NS, then counts as it is.  At most HOLD_BYTES are
 * held; past that, samples are not held.
 */
#include "live.h"

#include <stdlib.h>
#include <string.h>

#include "live-priv.h"
#include "perf-event.h"
#include "symbols.h"
#include "util.h"

#define HOLD_BYTES ((size_t)64 << 20)
#define HOLD_TUI_NS 2000000000ull

/* CLOCK_MONOTONIC in ns (util's clock; live.c's would be a call back). */
static uint64_t mono_ns(void)
{
	return (uint64_t)(now_seconds() * 1e9);
}

struct held {
	uint32_t pid;
	uint64_t since;          /* CLOCK_MONOTONIC when first held */
	struct perf_event_header *rec;
};

bool live_hold(struct live *L, const struct perf_event_header *h,
	       uint32_t pid, uint64_t since)
{
	struct held *e;

	if (L->no_hold || h->size > HOLD_BYTES - L->held_bytes ||
	    (!L->hold_to_exit && mono_ns() - since >= HOLD_TUI_NS))
		return false;
	GROW(L->held, L->capheld, L->nheld + 1);
	e = &L->held[L->nheld++];
	e->pid = pid;
	e->since = since;
	e->rec = xmalloc(h->size);
	memcpy(e->rec, h, h->size);
	L->held_bytes += h->size;
	return true;
}

/* Build the held samples that match again (pid 0: all of them). */
static void release(struct live *L, uint32_t pid, bool aged_only,
		    live_replay_fn replay)
{
	struct held *list = L->held;
	size_t n = L->nheld, keep = 0;
	uint64_t now = mono_ns();

	/* A sample built again may be held again: into a fresh list. */
	L->held = NULL;
	L->nheld = L->capheld = 0;
	for (size_t i = 0; i < n; i++) {
		struct held *e = &list[i];

		if ((pid && e->pid != pid) ||
		    (aged_only && now - e->since < HOLD_TUI_NS)) {
			list[keep++] = *e;
			continue;
		}
		L->held_bytes -= e->rec->size;
		replay(L, e->rec, e->since);
		free(e->rec);
	}
	/* What was kept goes first, in the order it came. */
	if (keep) {
		struct held *again = L->held;
		size_t nagain = L->nheld;

		L->held = list;
		L->nheld = keep;
		L->capheld = n;
		for (size_t i = 0; i < nagain; i++) {
			GROW(L->held, L->capheld, L->nheld + 1);
			L->held[L->nheld++] = again[i];
		}
		free(again);
	} else {
		free(list);
	}
}

void live_hold_exit(struct live *L, uint32_t pid, live_replay_fn replay)
{
	for (size_t i = 0; i < L->nheld; i++)
		if (L->held[i].pid == pid) {
			sym_jitdump_refresh(L->sy, pid);
			L->no_hold = true;   /* nothing more will be written */
			release(L, pid, false, replay);
			L->no_hold = false;
			return;
		}
}

void live_hold_check(struct live *L, live_replay_fn replay)
{
	uint32_t done[16];
	size_t ndone = 0;

	/* The processes whose dumps grew (each asked once). */
	for (size_t i = 0; i < L->nheld; i++) {
		uint32_t pid = L->held[i].pid;
		bool asked = false;

		for (size_t k = 0; k < ndone && !asked; k++)
			asked = done[k] == pid;
		if (asked || ndone == ARRAY_SIZE(done))
			continue;
		done[ndone++] = pid;
		if (sym_jitdump_refresh(L->sy, pid)) {
			release(L, pid, false, replay);
			i = (size_t)-1;     /* the list changed: look again */
		}
	}
	if (!L->hold_to_exit && L->nheld)
		release(L, 0, true, replay);
}

void live_hold_end(struct live *L, live_replay_fn replay)
{
	for (size_t i = 0; i < L->nheld; i++)
		sym_jitdump_refresh(L->sy, L->held[i].pid);
	L->no_hold = true;
	release(L, 0, false, replay);
	L->no_hold = false;
}

void live_hold_free(struct live *L)
{
	for (size_t i = 0; i < L->nheld; i++)
		free(L->held[i].rec);
	free(L->held);
	L->held = NULL;
	L->nheld = L->capheld = 0;
	L->held_bytes = 0;
}
