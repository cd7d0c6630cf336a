/*
 * perf-event.h - the step that turns a decoded perf sample into a stack of
 * frame names for the profile, and the machine that does it: the process
 * table (perf-procs.h) fed with records (perf-record.h, both included
 * here), the symbolizer (symbols.h) and the DWARF unwinder (unwind.h).
 *
 * This is the top of the three layers: perf-record.h decodes, perf-procs.h
 * tracks processes on top of it, the symbolizer and unwinder read the
 * process table, and this file uses all of them; nothing below includes
 * it (the lint-layers make target checks that the includes form no
 * circle).
 *
 * pe_machine_stack builds a sample's stack root first: the process
 * name ("comm", "comm-PID" or "comm-PID/TID" as read_opts says), then the
 * callchain's frames, spelled as `perf script | stackcollapse-perf.pl`
 * spells them (see doc/perf-data.md for the few differences).
 */
#ifndef FLAMETOP_PERF_EVENT_H
#define FLAMETOP_PERF_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf-procs.h"
#include "perf-record.h"
#include "profile.h"
#include "read.h"

struct symbolizer;
struct pe_machine;

struct pe_machine_stats {
	uint64_t samples;          /* stacks added */
	uint64_t lost;             /* samples the kernel lost (LOST records) */
	uint64_t throttled;        /* THROTTLE records */
	uint64_t truncated;        /* callchains that hit the depth limit */
	uint64_t frames;           /* frames resolved (kernel and user) */
	uint64_t unknown_frames;   /* frames shown as [unknown] or [module] */
	uint64_t maps_dropped;     /* mappings past a process's limit */
	uint64_t dwarf_stacks;     /* samples with a stack copy, unwound */
	uint64_t dwarf_truncated;  /* ... whose unwinding stopped early */
};

/*
 * A tracker feeding p with the names that o asks for; sy resolves symbols
 * (borrowed, must outlive the machine).
 */
struct pe_machine *pe_machine_create(struct symbolizer *sy,
				     struct profile *p,
				     const struct read_opts *o);
void pe_machine_destroy(struct pe_machine *m);
/* The machine's process table: pe_procs_keep_exited. */
void pe_machine_keep_exited(struct pe_machine *m, bool keep);
/*
 * Find the stacks of samples again by their raw call chains
 * (stack-cache.h) rather than naming each frame: for a machine whose
 * profile only grows while it is fed (not one that is cleared or
 * replaced, as live windows are).
 */
void pe_machine_cache_stacks(struct pe_machine *m);
/*
 * Sample times are CLOCK_MONOTONIC, the clock runtimes write their
 * jitdumps' times on (live sampling with use_clockid, perf record -k 1):
 * JIT code is named by the code load valid at the sample's time.  Off
 * (the default): by the latest code load at the address.
 */
void pe_machine_set_jit_clock(struct pe_machine *m, bool on);
/*
 * Whether the stack built last has JIT code that its process's jitdump
 * does not name: a runtime that buffers its writes (python3.13) may not
 * have written it yet (live mode holds such samples back a while).
 */
bool pe_machine_jit_unnamed(const struct pe_machine *m);
/* Take back what building the last stack counted (it is built again). */
void pe_machine_uncount_last(struct pe_machine *m);
/*
 * Name frames by source line ("NAME FILE:LINE", --lines) or by function
 * from the next stack on; the frame and stack caches start over.
 */
void pe_machine_set_lines(struct pe_machine *m, bool on);

/*
 * Sample times are CLOCK_MONOTONIC (perf record -k 1, live mode's
 * use_clockid), the jitdumps' clock: JIT code is named by the code load
 * valid at each sample's time.  Off (the default): by the latest load.
 */
void pe_machine_jit_times(struct pe_machine *m, bool on);
/*
 * Whether the stack built last has JIT code that its process's jitdump
 * does not name: a runtime that buffers its writes (python3.13) may not
 * have written it yet (live mode holds such samples back a while).
 */
bool pe_machine_jit_unnamed(const struct pe_machine *m);
/* Take back what building the last stack counted (it is built again). */
void pe_machine_uncount_last(struct pe_machine *m);

/*
 * Apply a decoded record: MMAP/MMAP2, COMM, FORK and EXIT go to the
 * process table (pe_procs_apply), LOST and THROTTLE are counted.
 */
void pe_machine_apply(struct pe_machine *m, const struct pe_record *r);

/* pe_procs_add_map and pe_procs_set_comm on the machine's table. */
void pe_machine_add_map(struct pe_machine *m, uint32_t pid, uint64_t start,
			uint64_t len, uint64_t pgoff, const char *path,
			size_t path_len, const struct pe_mmap *ident);
void pe_machine_set_comm(struct pe_machine *m, uint32_t pid, uint32_t tid,
			 const char *comm, size_t len);

/* The process of pid (NULL if never seen), see perf-procs.h. */
struct pe_proc *pe_machine_proc(struct pe_machine *m, uint32_t pid);

/*
 * Turn a decoded sample into a stack of frame ids of m's profile, root
 * first, and add it with weight `weight` (the period, or 1) and the
 * sample's time.  Frames: the process name, then the callchain (or the
 * sample IP when there is none) from root to leaf.  Returns the add status.
 */
enum add_status pe_machine_add_sample(struct pe_machine *m,
				      const struct pe_sample *s,
				      uint64_t weight);
/*
 * The same, with hash = pe_sample_chain_hash(s) worked out beforehand
 * (0: not known, worked out here).
 */
enum add_status pe_machine_add_sample_hashed(struct pe_machine *m,
					     const struct pe_sample *s,
					     uint64_t weight, uint64_t hash);
/*
 * What the weights of an event that counts events (not a clock) count,
 * for display (profile_set_unit_name): its name without modifiers
 * ("cycles:ppp": "cycles", "page-faults"), for a tracepoint
 * "sched:sched_switch events".  name[0..len) need not end in a NUL.
 */
void pe_event_unit(const char *name, size_t len, bool tracepoint, char *buf,
		   size_t cap);
/*
 * The hash under which a machine's stack cache (pe_machine_cache_stacks)
 * finds s's stack again; 0 if it does not keep s's by its chain.  It
 * depends on s alone, so it may be worked out ahead, on another thread.
 */
uint64_t pe_sample_chain_hash(const struct pe_sample *s);
/* The same for the record at rec, whole (0 if it is not such a sample). */
uint64_t pe_record_chain_hash(const struct pe_evlist *el, const void *rec);
/* Start loading the stack cache's slot for a sample of that hash. */
void pe_machine_prefetch(const struct pe_machine *m, uint64_t hash);

/*
 * The same frames without adding them: writes up to cap ids into ids,
 * root first, and returns how many there are (may exceed cap).
 */
size_t pe_machine_stack(struct pe_machine *m, const struct pe_sample *s,
			uint32_t *ids, size_t cap);
/*
 * The same frames in the machine's scratch (valid until its next call):
 * one call whatever the depth.  A sample with registers and a stack copy
 * (--call-graph dwarf) has its user part unwound here (unwind.h).
 */
const uint32_t *pe_machine_build(struct pe_machine *m,
				 const struct pe_sample *s, size_t *n);
/*
 * The stack pe_machine_build built last, in the profile's address tables
 * (profile-addr.h) with no weight yet: its id, for paddr_add_timed.
 */
uint32_t pe_machine_addr_stack(struct pe_machine *m);
/*
 * What the sample says of its time, task (pid, tid, command) and CPU, for
 * the timeline; call right after building its stack.
 */
void pe_machine_meta(struct pe_machine *m, const struct pe_sample *s,
		     struct sample_meta *meta);

const struct pe_machine_stats *pe_machine_stats(const struct pe_machine *m);

#endif
