/*
 * perf-event.h - perf's records (what the kernel writes into a ring buffer
 * and perf record into perf.data), decoded into plain C structs; the
 * process/map tracker they drive; and the step that turns a decoded sample
 * into a stack of frame names for the profile.
 *
 * Shared by the perf.data reader and the live sampler: both see the same
 * records, so both decode them here.  Decoding is bounds-checked against
 * the record's own size (hostile input is expected) and allocates nothing:
 * the decoded struct points into the record, which must stay valid while
 * it is used.  Records need not be 8-byte aligned (every read is a memcpy).
 *
 * A record's layout depends on the attr of the event that wrote it
 * (sample_type, sample_id_all, read_format, sample_regs_user): struct
 * pe_format holds those bits, and struct pe_evlist maps a record to its
 * event (through PERF_SAMPLE_IDENTIFIER / the id arrays, or the only event).
 *
 * The tracker (struct pe_machine) follows MMAP/MMAP2, COMM, FORK and EXIT
 * to know, for any pid, its name and its sorted executable mappings; each
 * mapping names a struct sym_dso (symbols.h) that resolves its addresses.
 * pe_machine_stack then builds a sample's stack root first: the process
 * name ("comm", "comm-PID" or "comm-PID/TID" as read_opts says), then the
 * callchain's frames, spelled as `perf script | stackcollapse-perf.pl`
 * spells them (see doc/perf-data.md for the few differences).
 */
#ifndef FLAMETOP_PERF_EVENT_H
#define FLAMETOP_PERF_EVENT_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "diag.h"
#include "profile.h"
#include "read.h"

struct symbolizer;
struct sym_dso;

/* ---- Record types perf adds to the kernel's (perf.data only) ---------- */

enum {
	PE_HEADER_ATTR = 64,
	PE_HEADER_EVENT_TYPE = 65,
	PE_TRACING_DATA = 66,      /* followed by u32 size extra bytes */
	PE_HEADER_BUILD_ID = 67,
	PE_FINISHED_ROUND = 68,
	PE_ID_INDEX = 69,
	PE_AUXTRACE_INFO = 70,
	PE_AUXTRACE = 71,          /* followed by u64 size extra bytes */
	PE_AUXTRACE_ERROR = 72,
	PE_THREAD_MAP = 73,
	PE_CPU_MAP = 74,
	PE_STAT_CONFIG = 75,
	PE_STAT = 76,
	PE_STAT_ROUND = 77,
	PE_EVENT_UPDATE = 78,
	PE_TIME_CONV = 79,
	PE_HEADER_FEATURE = 80,
	PE_COMPRESSED = 81,        /* zstd frames of further records */
	PE_FINISHED_INIT = 82,
};

/* Callchain context markers are >= this value (leaf-first chains). */
#define PE_CONTEXT_MAX ((uint64_t)-4095)

/* ---- Formats and events ----------------------------------------------- */

/* What decoding needs of an event's attr. */
struct pe_format {
	uint64_t sample_type;      /* PERF_SAMPLE_* bits */
	uint64_t read_format;      /* PERF_FORMAT_* bits (PERF_SAMPLE_READ) */
	uint64_t regs_user;        /* sample_regs_user mask */
	uint64_t regs_intr;        /* sample_regs_intr mask */
	bool branch_hw_index;      /* branch stacks carry hw_idx */
	bool sample_id_all;        /* non-sample records carry a trailer */
};

void pe_format_from_attr(struct pe_format *f,
			 const struct perf_event_attr *attr);

/* One event: its attr, name and the ids the kernel gave its fds. */
struct pe_event {
	struct perf_event_attr attr;   /* zero-extended to our size */
	struct pe_format fmt;
	char *name;                    /* "cpu-clock:ppp", or NULL until known */
	unsigned index;                /* order of addition */
};

struct pe_evlist;

struct pe_evlist *pe_evlist_create(void);
void pe_evlist_destroy(struct pe_evlist *el);
/*
 * Add an event from attr bytes of size attr_size (perf's own size, may be
 * smaller or larger than ours) with its ids.  Returns the event, or NULL
 * if attr_size is too small to be an attr.
 */
struct pe_event *pe_evlist_add(struct pe_evlist *el, const void *attr,
			       size_t attr_size, const uint64_t *ids,
			       size_t nids);
/* Add more ids to an event (perf.data's ids arrays, ID_INDEX). */
void pe_evlist_add_ids(struct pe_evlist *el, struct pe_event *ev,
		       const void *ids, size_t nids);
void pe_event_set_name(struct pe_event *ev, const char *name, size_t len);
size_t pe_evlist_count(const struct pe_evlist *el);
struct pe_event *pe_evlist_at(const struct pe_evlist *el, size_t i);
struct pe_event *pe_evlist_by_id(const struct pe_evlist *el, uint64_t id);
/*
 * The event a record (header included, len bytes) belongs to: by its id
 * where the formats carry one, else the first event.  NULL if no event.
 */
struct pe_event *pe_evlist_for_record(const struct pe_evlist *el,
				      const void *rec, size_t len);

/* ---- Decoded records ---------------------------------------------------- */

/* The sample_id trailer of a non-sample record (sample_id_all). */
struct pe_sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id, stream_id;
	uint32_t cpu;
	bool has_tid, has_time, has_id, has_cpu;
};

struct pe_sample {
	uint64_t id;               /* IDENTIFIER or ID */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t stream_id;
	uint32_t cpu;
	uint64_t period;           /* 1 when the record has none */
	uint64_t nr;               /* callchain entries (leaf first) */
	const void *callchain;     /* nr u64s, see pe_chain_at */
	uint64_t regs_abi;         /* PERF_SAMPLE_REGS_ABI_*, 0: no regs */
	uint64_t regs_mask;        /* which registers regs holds */
	const void *regs;          /* popcount(regs_mask) u64s */
	uint64_t stack_size;       /* bytes of user stack copied (requested) */
	uint64_t stack_dyn_size;   /* bytes actually valid */
	const void *stack;         /* the stack bytes, from the sampled SP */
	uint16_t cpumode;          /* misc & PERF_RECORD_MISC_CPUMODE_MASK */
	bool has_time, has_tid, has_cpu, has_period, has_callchain;
};

struct pe_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	bool mmap2;                /* MMAP2: the fields below are valid */
	bool has_build_id;         /* MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID */
	uint32_t maj, min;
	uint64_t ino, ino_gen;
	uint8_t build_id[20];
	uint8_t build_id_size;
	uint32_t prot, flags;      /* MMAP2 only; MMAP: prot is PROT_EXEC */
	const char *filename;      /* not NUL-terminated: use filename_len */
	size_t filename_len;
	uint16_t cpumode;
};

struct pe_comm {
	uint32_t pid, tid;
	const char *comm;          /* not NUL-terminated: use len */
	size_t len;
	bool exec;                 /* PERF_RECORD_MISC_COMM_EXEC */
};

/* FORK and EXIT. */
struct pe_task {
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct pe_lost {
	uint64_t id, lost;
};

/* THROTTLE and UNTHROTTLE. */
struct pe_throttle {
	uint64_t time, id, stream_id;
};

struct pe_record {
	uint32_t type;             /* PERF_RECORD_* or PE_* */
	uint16_t misc;
	uint16_t size;
	union {
		struct pe_sample sample;
		struct pe_mmap mmap;
		struct pe_comm comm;
		struct pe_task task;
		struct pe_lost lost;
		struct pe_throttle throttle;
	} u;
	struct pe_sample_id sid;   /* trailer of non-sample records */
};

/*
 * Decode the record at rec (len bytes available, at least its header's
 * size) with the format of its event (NULL: no sample fields, no trailer).
 * Types this file does not decode come back with only type/misc/size set.
 * Returns 0, or -1 with *why set to what is wrong (a static string).
 */
int pe_decode(const void *rec, size_t len, const struct pe_format *f,
	      struct pe_record *out, const char **why);

/* Entry i of a sample's callchain (i < s->nr). */
static inline uint64_t pe_chain_at(const struct pe_sample *s, uint64_t i)
{
	uint64_t v;

	memcpy(&v, (const char *)s->callchain + i * 8, 8);
	return v;
}

/* The value of register r (PERF_REG_X86_*) in a sample, false if absent. */
bool pe_sample_reg(const struct pe_sample *s, unsigned r, uint64_t *val);

/* The time of any record decoded with its format (false: none). */
bool pe_record_time(const struct pe_record *r, uint64_t *time);

/* ---- The process/map tracker -------------------------------------------- */

struct pe_map {
	uint64_t start, end;       /* [start, end) */
	uint64_t pgoff;            /* file offset of start */
	struct sym_dso *dso;       /* the mapped file; NULL: anonymous/unknown */
	uint32_t prot;
	bool anon_exec;            /* //anon etc.: JIT code (perf-PID.map) */
	bool before_exec;          /* the image the last exec replaced */
};

struct pe_proc;                /* one pid: maps, name, symbolizer state */
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
/*
 * Keep a process's maps after it exits (perf.data: records are sorted by
 * time, nothing of it comes later; live mode frees them at once).
 */
void pe_machine_keep_exited(struct pe_machine *m, bool keep);

/*
 * Apply a decoded MMAP/MMAP2, COMM, FORK or EXIT (other types are
 * ignored).  EXIT of a process drops its maps and symbolizer state.
 */
void pe_machine_apply(struct pe_machine *m, const struct pe_record *r);

/* Add a mapping or a name directly (live mode: /proc/PID/maps, comm). */
void pe_machine_add_map(struct pe_machine *m, uint32_t pid, uint64_t start,
			uint64_t len, uint64_t pgoff, const char *path,
			size_t path_len, const struct pe_mmap *ident);
void pe_machine_set_comm(struct pe_machine *m, uint32_t pid, uint32_t tid,
			 const char *comm, size_t len);

/* The process of pid (NULL if never seen) and its map containing addr. */
struct pe_proc *pe_machine_proc(struct pe_machine *m, uint32_t pid);
const struct pe_map *pe_proc_find_map(const struct pe_proc *pr,
				      uint64_t addr);
/* The maps of a process, sorted by start, not overlapping. */
const struct pe_map *pe_proc_maps(const struct pe_proc *pr, size_t *n);
uint32_t pe_proc_pid(const struct pe_proc *pr);
/* Symbolizer state of the process (symbols.h), created on first use. */
void **pe_proc_sym_slot(struct pe_proc *pr);

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
 * What the sample says of its time, task (pid, tid, command) and CPU, for
 * the timeline; call right after building its stack.
 */
void pe_machine_meta(struct pe_machine *m, const struct pe_sample *s,
		     struct sample_meta *meta);

const struct pe_machine_stats *pe_machine_stats(const struct pe_machine *m);

#endif
