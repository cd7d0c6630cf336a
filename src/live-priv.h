/*
 * live-priv.h - what the live session's files share: the session, the
 * sets of tasks it keeps, and the helpers one part lends another.  Only
 * src/live.c, src/live-offcpu.c, src/live-queue.c and src/live-setup.c
 * include it.  Each part calls only the parts listed below it (the
 * lint-layers check reads the objects and fails on a circle):
 *
 *   live-setup.c    options to a sampler and a target, the command's
 *                   start, a fixed-duration run and its report;
 *   live.c          records in, samples symbolized, the window and the
 *                   refresh, the TUI's hooks;
 *   live-offcpu.c   --off-cpu and --wall: switch-outs paired with
 *                   switch-ins;
 *   live-queue.c    the u32 sets, the queue of stacks and its flush into
 *                   the profile.
 */
#ifndef FLAMETOP_LIVE_PRIV_H
#define FLAMETOP_LIVE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "live.h"
#include "options.h"
#include "perf-event.h"
#include "profile.h"
#include "tui.h"

struct symbolizer;

#define TICK_MS 100
#define MAPS_RETRY_NS 1000000000ull
#define KEEP_SLACK_S 5.0          /* timeline kept beyond the longest window */

/* Open addressing, key+1 stored (0: empty), deletion by backward shift. */
struct u32set {
	uint32_t *k;
	uint64_t *v;       /* a value per key (last /proc read, ns) */
	size_t mask, n;
};

/* --off-cpu: what is known of one thread's current switch (live-offcpu.c). */
struct offcpu {
	uint32_t *ids;               /* the stack it switched out at (cap:
					n + 2, for [preempted];[off-cpu]) */
	size_t n, cap;
	uint64_t t_out, t_in;
	struct sample_meta meta;     /* its task and CPU at the switch-out */
	bool have_stack;             /* the context-switches sample came */
	bool have_out;               /* then its switch-out record */
	bool preempted;              /* that was flagged PREEMPT (runnable) */
	bool have_in;                /* it switched in at t_in */
	bool exited;                 /* its EXIT came: no more waits */
};

struct live {
	struct config *c;
	struct sampler_opts so;
	struct sampler *s;
	pid_t *pids;
	size_t npids;
	char target[160];            /* for the header */

	struct symbolizer *sy;
	struct pe_machine *m;
	struct pe_format fmt;
	struct profile *p;

	struct u32set seen_tid;      /* threads whose name we know */
	struct u32set synth_pid;     /* pids whose /proc maps were read (ns) */
	struct u32set tasks;         /* target tasks alive (not for -a) */
	bool track_tasks;
	bool target_gone;
	uint64_t start_ns;           /* sampling began (CLOCK_MONOTONIC) */
	uint64_t gone_ns;            /* the target's last task exited
					(CLOCK_MONOTONIC); 0: not yet */
	uint64_t last_prune_ns;

	/* Stacks waiting for the next refresh: [n, time lo, time hi, w lo,
	 * w hi, ids...] repeated. */
	uint32_t *pend;
	size_t npend, cappend;
	struct u32set off_tid;       /* --off-cpu: tid -> index + 1 in off */
	struct offcpu *off;
	size_t noff, capoff;
	uint64_t last_time;          /* the latest record time seen */
	size_t pend_samples;

	double window;               /* seconds; 0: everything */
	double interval;
	uint64_t origin_ns;          /* sampling began (samples' clock); 0:
					not known yet */
	double started, last_refresh;
	bool frozen;
	bool freeze_all;             /* frozen showing everything: no adding */
	uint64_t freeze_first, freeze_last;
	bool sampling_stopped;       /* -d elapsed in the view */

	/* figures for the header */
	double rate_t0;
	uint64_t rate_n0;
	double sps;
	double cpu_t0, cpu_used0;
	double cpu_pct;
	uint64_t bad_records;

	/* Samples waiting for their JIT code's names (live-jithold.c). */
	struct held *held;
	size_t nheld, capheld, held_bytes;
	bool hold_to_exit;           /* no TUI: hold until exit or the end */
	bool no_hold;                /* building held samples for good */
};

/* ---- Shared by the parts ------------------------------------------------ *
 *
 * live.c: clocks, /proc reads for a task's name and maps, draining the
 * rings, the TUI's hooks.  live-offcpu.c: the switch records and samples
 * of --off-cpu, and live_off_finish for the threads still blocked when
 * sampling ends.  live-queue.c: the u32 sets and the queue of stacks
 * (live_pend_push, flushed into the profile by live_flush).
 * live-jithold.c: samples held until a jitdump names their JIT code.
 */

/* live.c */
double live_cpu_seconds(void);
bool live_drain(struct live *L);
void live_learn_comm(struct live *L, uint32_t pid, uint32_t tid);
bool live_action(void *ctx, enum tui_action a, struct profile *p,
		 char *msg, size_t cap);
void live_status(void *ctx, char *buf, size_t cap);
bool live_tick(void *ctx, struct profile *p);
bool live_time_origin(void *ctx, uint64_t *ns);
uint64_t live_mono_ns(void);
void live_synth_maps(struct live *L, uint32_t pid);

void live_replay(struct live *L, const struct perf_event_header *h,
		 uint64_t since);

/* live-jithold.c; replay builds a held sample again (live_replay) */
typedef void (*live_replay_fn)(struct live *L,
			       const struct perf_event_header *h,
			       uint64_t since);
bool live_hold(struct live *L, const struct perf_event_header *h,
	       uint32_t pid, uint64_t since);
void live_hold_check(struct live *L, live_replay_fn replay);
void live_hold_exit(struct live *L, uint32_t pid, live_replay_fn replay);
void live_hold_end(struct live *L, live_replay_fn replay);
void live_hold_free(struct live *L);

/* live-offcpu.c */
void live_off_finish(struct live *L, uint64_t end_ns);
void live_off_stop(struct live *L, uint64_t stop_mono);
void live_off_sample(struct live *L, const struct pe_sample *s,
		     const struct sample_meta *meta, const uint32_t *ids,
		     size_t n);
void live_off_exit(struct live *L, uint32_t tid);
void live_off_fork(struct live *L, uint32_t tid);
void live_on_switch(struct live *L, const struct pe_record *r);

/* live-queue.c */
void live_flush(struct live *L);
/* astack: the sample's stack in the address tables, or PADDR_NONE. */
void live_pend_push(struct live *L, const uint32_t *ids, size_t n,
		    const struct sample_meta *m, uint64_t w, uint32_t astack);
uint64_t *live_set_add(struct u32set *s, uint32_t key);
uint64_t *live_set_find(const struct u32set *s, uint32_t key);
void live_set_del(struct u32set *s, uint32_t key);
void live_set_free(struct u32set *s);

#endif
