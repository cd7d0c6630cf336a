/*
 * perf-procs.h - the process/thread/map table that perf records drive.
 *
 * It follows MMAP/MMAP2, COMM, FORK and EXIT to know, for any pid, its
 * sorted executable mappings, and for any tid its name.  Each mapping names
 * a struct sym_dso (symbols.h) that resolves its addresses; the table does
 * not call the symbolizer itself: whoever creates it passes hooks
 * (struct pe_procs_hooks) that find a mapping's file and hear of changes.
 * So the table sits below the symbolizer and the unwinder, which read its
 * maps (symbols.c builds a process's Dwfl from them), and above only
 * perf-record.h.
 */
#ifndef FLAMETOP_PERF_PROCS_H
#define FLAMETOP_PERF_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf-record.h"

struct sym_dso;

struct pe_map {
	uint64_t start, end;       /* [start, end) */
	uint64_t pgoff;            /* file offset of start */
	struct sym_dso *dso;       /* the mapped file; NULL: anonymous/unknown */
	uint32_t prot;
	bool anon_exec;            /* //anon etc.: JIT code (perf-PID.map) */
	bool before_exec;          /* the image the last exec replaced */
};

struct pe_proc;                /* one pid: maps, symbolizer state */

/* One tid. */
struct pe_thread {
	uint32_t pid, tid;
	char *comm;                /* NULL: not known */
	uint32_t root_sym;         /* the stack layer's cached root frame,
				      UINT32_MAX: none (reset on rename) */
	bool java;                 /* the name starts with "java" */
	uint64_t changed;          /* pe_procs_clock when it last changed */
};

/* What the table asks of the layers above it (any hook may be NULL). */
struct pe_procs_hooks {
	void *ctx;
	/* The file a new mapping of path shows (ident: MMAP2 fields or NULL). */
	struct sym_dso *(*dso_get)(void *ctx, const char *path, size_t len,
				   const struct pe_mmap *ident);
	/* pr's maps changed while it had symbolizer state. */
	void (*maps_changed)(void *ctx, struct pe_proc *pr);
	/* A process goes: release its symbolizer state. */
	void (*release)(void *ctx, void *sym_state);
	/* pid exited or exec'd: forget what was known of its JIT code. */
	void (*forget)(void *ctx, uint32_t pid);
};

struct pe_procs;

/*
 * An empty table; hooks may be NULL (no symbols), *maps_dropped (may be
 * NULL) counts mappings dropped past the limits.
 */
struct pe_procs *pe_procs_create(const struct pe_procs_hooks *hooks,
				 uint64_t *maps_dropped);
void pe_procs_destroy(struct pe_procs *pt);
/*
 * Keep a process's maps after it exits (perf.data: records are sorted by
 * time, nothing of it comes later; live mode frees them at once).
 */
void pe_procs_keep_exited(struct pe_procs *pt, bool keep);
/*
 * Apply a decoded MMAP/MMAP2, COMM, FORK or EXIT (other types are
 * ignored).  EXIT of a process drops its maps and symbolizer state.
 */
void pe_procs_apply(struct pe_procs *pt, const struct pe_record *r);
/* Add a mapping or a name directly (live mode: /proc/PID/maps, comm). */
void pe_procs_add_map(struct pe_procs *pt, uint32_t pid, uint64_t start,
		      uint64_t len, uint64_t pgoff, const char *path,
		      size_t path_len, const struct pe_mmap *ident);
void pe_procs_set_comm(struct pe_procs *pt, uint32_t pid, uint32_t tid,
		       const char *comm, size_t len);

/* The process of pid, the thread of tid (NULL if never seen). */
struct pe_proc *pe_procs_proc(const struct pe_procs *pt, uint32_t pid);
struct pe_thread *pe_procs_thread(const struct pe_procs *pt, uint32_t tid);

/* A process's map containing addr (pr may be NULL). */
const struct pe_map *pe_proc_find_map(const struct pe_proc *pr,
				      uint64_t addr);
/* The maps of a process, sorted by start, not overlapping. */
const struct pe_map *pe_proc_maps(const struct pe_proc *pr, size_t *n);
uint32_t pe_proc_pid(const struct pe_proc *pr);
/*
 * The table's clock ticks at every change of a process (its maps) or a
 * thread (its name), and when either comes or a process goes:
 * pe_proc_changed(pr) and t->changed are its time at their last change,
 * so what was worked out of them at pe_procs_clock() still holds while
 * neither is later, and what was worked out of the whole table holds
 * while the clock has not moved.
 */
uint64_t pe_procs_clock(const struct pe_procs *pt);
uint64_t pe_proc_changed(const struct pe_proc *pr);
/* Symbolizer state of the process (symbols.h), created on first use. */
void **pe_proc_sym_slot(struct pe_proc *pr);

#endif
