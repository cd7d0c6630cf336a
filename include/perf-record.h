/*
 * perf-record.h - perf's records (what the kernel writes into a ring buffer
 * and perf record into perf.data), decoded into plain C structs.
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
 * The lowest of the three layers that handle perf records: perf-procs.h
 * (the process/thread/map table) sits on it, and perf-event.h (stacks
 * from samples) on both.  It includes none of flametop's other headers.
 */
#ifndef FLAMETOP_PERF_RECORD_H
#define FLAMETOP_PERF_RECORD_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
	/* From sample_type: where fields sit, in u64s; -1: not there. */
	int8_t sample_time_at;     /* a sample's time, after the header */
	int8_t sample_id_at;       /* a sample's id, after the header */
	int8_t trailer_len;        /* the sample_id trailer's length */
	int8_t trailer_time_at;    /* the time, from the trailer's start */
	int8_t trailer_id_at;      /* the id, counted back from the end */
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
/*
 * The format that says where a record's time is: that of every event when
 * all have the same sample_type and sample_id_all (without finding the
 * record's event), else that of the record's event.
 */
const struct pe_format *pe_evlist_time_format(const struct pe_evlist *el,
					     const void *rec, size_t len);
/*
 * Where a record goes in time order: its time, or the time of the record
 * before it (*last) when it has none or is not a sample of time 0 (perf's
 * synthesized maps).  Sets *last to what it returns.
 */
uint64_t pe_evlist_order_time(const struct pe_evlist *el, const void *rec,
			      size_t len, uint64_t *last);

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
	const void *raw;           /* PERF_SAMPLE_RAW: a tracepoint's entry */
	uint32_t raw_size;         /* its bytes (0: none) */
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
/* The same for a record known to be a sample: its fields only. */
int pe_decode_sample(const void *rec, size_t len, const struct pe_format *f,
		     struct pe_sample *s, const char **why);

/* Unaligned loads of a record's fields. */
static inline uint16_t pe_load16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static inline uint32_t pe_load32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t pe_load64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* Entry i of a sample's callchain (i < s->nr). */
static inline uint64_t pe_chain_at(const struct pe_sample *s, uint64_t i)
{
	uint64_t v;

	memcpy(&v, (const char *)s->callchain + i * 8, 8);
	return v;
}

/*
 * A sample's weight: its period when it carries one (PERF_SAMPLE_PERIOD),
 * else the fixed period of its event (perf record -c N: attr.sample_period
 * without attr.freq), as perf script reports it, else 1.  ev may be NULL.
 */
uint64_t pe_sample_weight(const struct pe_event *ev,
			  const struct pe_sample *s);

/* The value of register r (PERF_REG_X86_*) in a sample, false if absent. */
bool pe_sample_reg(const struct pe_sample *s, unsigned r, uint64_t *val);

/* The time of any record decoded with its format (false: none). */
bool pe_record_time(const struct pe_record *r, uint64_t *time);
/*
 * The time of the record rec (len bytes, its header's size) read straight
 * from where format f puts it, without decoding the record: what
 * pe_record_time gives after pe_decode for any record that decodes.
 */
bool pe_record_time_at(const void *rec, size_t len,
		       const struct pe_format *f, uint64_t *time);

#endif
