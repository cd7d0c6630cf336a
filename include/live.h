/*
 * live.h - live sampling with perf_event_open: the sampler (events, rings,
 * the target process) and the live session that turns its records into a
 * profile with a rolling time window.
 *
 * The sampler (live-sampler.c) knows the kernel: it opens one cpu-clock
 * (or cycles) event per CPU, per thread x CPU for attached processes, or
 * per CPU with inherit for a command it starts; maps one ring per CPU and
 * hands out the raw records of every ring merged in time order.  It does
 * not decode samples or know symbols.
 *
 * The session (live.c) decodes those records, keeps per-process maps and
 * symbols, adds each sample's stack to the profile with its timestamp, and
 * drives either the TUI (through struct tui_live_ops) or a fixed-duration
 * run printed with --collapse or --text.
 */
#ifndef FLAMETOP_LIVE_H
#define FLAMETOP_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "options.h"
#include "profile.h"

struct perf_event_header;

/* ---- The sampler ------------------------------------------------------- */

enum live_target {
	LIVE_NONE,
	LIVE_PIDS,           /* -p PID[,PID...]: every thread, present and future */
	LIVE_ALL_CPUS,       /* -a: every CPU */
	LIVE_COMMAND,        /* -- COMMAND: started and sampled with its children */
};

enum live_stacks {
	STACKS_BOTH,         /* kernel and user frames */
	STACKS_USER,         /* --user-only */
	STACKS_KERNEL,       /* --kernel-only */
};

/* An event to sample, by perf's name (live_event_parse). */
struct live_event {
	char name[128];              /* "cpu-clock", "page-faults",
					"sched:sched_switch" */
	uint32_t type;               /* PERF_TYPE_* */
	uint64_t config;
	bool clock;                  /* cpu-clock, task-clock: periods in ns */
	bool counts_every;           /* default period 1 (tracepoints and
					software events other than clocks) */
};

/*
 * Parse perf's name for an event: software events (cpu-clock, task-clock,
 * page-faults/faults, major-faults, minor-faults, context-switches/cs,
 * cpu-migrations), hardware events (cycles/cpu-cycles, instructions,
 * cache-references, cache-misses, branches, branch-misses) and tracepoints
 * SUBSYSTEM:NAME, whose id is read from tracefs (mounted at
 * /sys/kernel/tracing first when it is missing and we are root).  0; -1
 * with a message in err when the name is wrong (bad usage); -2 with a
 * message naming the fix when the name is right but the event cannot be
 * looked up here (tracefs unreadable or not mounted: a runtime error).
 */
int live_event_parse(const char *name, struct live_event *ev, char *err,
		     size_t errcap);

/*
 * What a profile of ev counts, for every place that shows weight
 * (profile_note_unit_named's name): "" for the clocks (ns of CPU, shown
 * as "CPU" as a file's are), "page-faults", "cycles",
 * "sched:sched_switch events".
 */
void live_event_unit(const struct live_event *ev, char *buf, size_t cap);

struct sampler_opts {
	enum live_target target;
	const pid_t *pids;           /* LIVE_PIDS */
	size_t npids;
	char *const *command;        /* LIVE_COMMAND: argv, NULL-terminated */
	bool command_quiet;          /* the command's stdio to /dev/null (TUI) */
	bool command_out_to_err;     /* the command's stdout to our stderr */
	unsigned freq;               /* Hz */
	uint64_t period;             /* -c N: every Nth event; 0: freq */
	bool freq_given;             /* -F given: a frequency for any event */
	struct live_event event;     /* name "": cpu-clock */
	bool context_switch;         /* PERF_RECORD_SWITCH records too */
	bool wall_clock;             /* also cpu-clock at freq, same rings
					(--wall); its samples' periods are
					>= 10000 ns, the main event's 1 */
	enum live_stacks stacks;
	unsigned ring_pages;         /* data pages per ring (power of 2); 0: 128 */
	unsigned max_stack;          /* 0: the kernel's limit (127) */
	unsigned dwarf_stack;        /* --call-graph dwarf: user stack bytes
					copied per sample; 0: frame pointers */
};

struct sampler;

/*
 * Open the events and map the rings.  For LIVE_COMMAND the command is
 * forked and waits for sampler_start.  On failure returns NULL with a
 * one-line message in err that names the fix (permissions, missing pid,
 * too many files).  Notes that are not errors (kernel frames unavailable,
 * cycles not supported) are kept for sampler_notes.
 */
struct sampler *sampler_open(const struct sampler_opts *o, char *err,
			     size_t errcap);
/* Enable the events (LIVE_COMMAND: let the command exec).  0 or -1 + err. */
int sampler_start(struct sampler *s, char *err, size_t errcap);
/* Disable, unmap, close; a command still running gets SIGTERM. */
void sampler_close(struct sampler *s);

/*
 * Change the rate: the rings are drained to fn (as sampler_drain does),
 * the events closed and opened again at hz on every task of the target
 * (-p: the processes' threads and children now; a command: its whole
 * process tree), so every sample afterwards carries the new period.  The
 * rate is clamped to kernel.perf_event_max_sample_rate; returns the rate
 * in effect.  When the events cannot be opened again at hz, the old rate
 * is tried, and err says why (else err is "").
 */
typedef void (*sampler_record_fn)(void *ctx, const struct perf_event_header *h);
unsigned sampler_set_freq(struct sampler *s, unsigned hz, sampler_record_fn fn,
			  void *ctx, char *err, size_t errcap);
unsigned sampler_freq(const struct sampler *s);
const char *sampler_event_name(const struct sampler *s);  /* "cpu-clock" */
/* The event sampled (after any step down from cycles to cpu-clock). */
const struct live_event *sampler_event(const struct sampler *s);
/*
 * The period when it does not follow the rate (-c N, or every event of a
 * counting event); 0 when the rate sets it.  A rate change then does
 * nothing (sampler_set_freq says why in err).
 */
uint64_t sampler_fixed_period(const struct sampler *s);
bool sampler_kernel_frames(const struct sampler *s);      /* not excluded */
pid_t sampler_child(const struct sampler *s);             /* LIVE_COMMAND */
/* Reap the command if it has exited: true (and its wait status) once it has. */
bool sampler_child_done(struct sampler *s, int *status);
/* Reap the command's descendants that exited as our children (flametop
 * is their subreaper), and the command itself if it has exited. */
void sampler_reap(struct sampler *s);
/* Wait for the command to exit (it is known to be exiting); its status. */
int sampler_child_wait(struct sampler *s);
/* The CPU time (ms) the command and the children it waited for used, once
 * it is reaped; -1 before. */
double sampler_child_cpu_ms(const struct sampler *s);
unsigned sampler_nrings(const struct sampler *s);
unsigned sampler_nfds(const struct sampler *s);
/* Notes to show the user once ("kernel frames unavailable ..."), or NULL. */
const char *sampler_notes(const struct sampler *s);
/* The attr the events were opened with (for decoding their records). */
struct perf_event_attr;
const struct perf_event_attr *sampler_attr(const struct sampler *s);
/* True when timestamps are CLOCK_MONOTONIC (comparable with "now"). */
bool sampler_monotonic(const struct sampler *s);
/* Stop or resume sampling on every event (the rings stay mapped). */
void sampler_enable(struct sampler *s, bool on);

/*
 * Wait up to timeout_ms for a ring to fill past its watermark.  Returns 1
 * when data is waiting, 0 on timeout, -1 when interrupted by a signal.  An
 * event whose task has exited (POLLHUP) stops being waited on, but its ring
 * is still drained: children that inherited it keep writing there.
 */
int sampler_wait(struct sampler *s, int timeout_ms);
/* True when every event reported POLLHUP (all tasks sampled have exited). */
bool sampler_all_hup(const struct sampler *s);

/* A record, valid only during the call (wrapped records are copied). */

/*
 * Hand every record that is in the rings to fn, merged across rings in
 * timestamp order, then free the space.  Returns the number of records.
 */
size_t sampler_drain(struct sampler *s, sampler_record_fn fn, void *ctx);

struct sampler_stats {
	uint64_t records;            /* all records drained */
	uint64_t samples;            /* PERF_RECORD_SAMPLE */
	uint64_t lost;               /* samples the kernel dropped (LOST) */
	uint64_t throttled;          /* THROTTLE records */
	uint64_t corrupt;            /* rings abandoned after a bad header */
};
void sampler_get_stats(const struct sampler *s, struct sampler_stats *st);

/* Rates offered by + and -, ascending; the next one up or down from hz. */
unsigned live_rate_step(unsigned hz, int dir);

/*
 * Explain errno from perf_event_open for the user: one line naming the fix.
 * what is the target ("system-wide", "process 123", "the command");
 * user_refused: the kernel refuses users even their own tasks
 * (live_user_events_refused), the cause of EACCES whatever the target.
 */
void live_explain_errno(int err, const char *what, int paranoid,
			bool user_refused, char *buf, size_t cap);

/*
 * Does the kernel refuse an unprivileged user even a user-space event on
 * its own task?  Only asked (by opening one) at kernel.perf_event_paranoid
 * 3 and above, where the answer depends on the kernel's build.
 */
bool live_user_events_refused(int paranoid);

/* Parse a CPU list ("0-3,5"), as in /sys/devices/system/cpu/online. */
int live_parse_cpulist(const char *s, unsigned **cpus, unsigned *n);

/* ---- Ring reading (exposed for the tests) ------------------------------ */

/*
 * One ring as the read protocol sees it: data area of size (a power of 2)
 * and the head/tail counters (in the kernel's page, or a test's memory).
 */
struct ring_view {
	const unsigned char *data;
	uint64_t size;
	volatile uint64_t *head;
	volatile uint64_t *tail;
	unsigned char *scratch;      /* 64 KiB + 8, for records that wrap */
	/* cursor state while draining */
	uint64_t pos, end;
	const struct perf_event_header *cur;
	uint64_t cur_time;
	bool bad;                    /* a corrupt header was seen */
};

/* Start a drain: snapshot head; false if the ring is empty. */
bool ring_begin(struct ring_view *r, uint64_t sample_type);
/* Move to the next record, releasing the one read; false at the end of
 * the snapshot. */
bool ring_next(struct ring_view *r, uint64_t sample_type);
/* Release what was read (store the tail). */
void ring_end(struct ring_view *r);
/* The timestamp of a record, from its body or its sample_id trailer. */
uint64_t ring_record_time(const struct perf_event_header *h,
			  uint64_t sample_type);

/* ---- The live session -------------------------------------------------- */

/*
 * Run live mode for the configuration c (a live target is set): the TUI
 * when stdout is a terminal, else sample for c->duration seconds and print
 * with --collapse or --text.  Returns the exit status.
 */
int live_main(struct config *c);

/* True when c names a live target (-p, -a or a command). */
bool live_requested(const struct config *c);

#endif
