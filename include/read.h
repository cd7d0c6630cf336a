/*
 * read.h - the readers: each turns one input format into stacks for the
 * profile's sink.  read_profile opens a path, recognizes the format from
 * the content (perf.data magic, perf script event lines, folded lines) and
 * runs the matching reader; several paths merge into one profile.
 */
#ifndef FLAMETOP_READ_H
#define FLAMETOP_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "fetch.h"
#include "input.h"
#include "profile.h"

enum input_format {
	FMT_UNKNOWN,
	FMT_FOLDED,          /* "frame;frame;... COUNT" */
	FMT_PERF_SCRIPT,     /* the text of `perf script` */
	FMT_PERF_DATA,       /* perf.data, file or pipe mode */
	FMT_PPROF,           /* pprof's profile.proto (protobuf) */
	FMT_CPUPROFILE,      /* V8's .cpuprofile (JSON) */
};

/*
 * The sample types of a pprof input, or the events of a perf.data that has
 * several (filled by the reader of the first input; the TUI's next-type key
 * reads the inputs again with another).
 */
#define PPROF_MAX_TYPES 32
struct pprof_types {
	char name[PPROF_MAX_TYPES][64];  /* "cpu", "alloc_space" */
	char unit[PPROF_MAX_TYPES][32];  /* "nanoseconds", "bytes" */
	unsigned n;                      /* 0: no pprof input read */
	unsigned cur;                    /* the one read */
	bool events;                     /* perf.data events: chosen with
					    --event-filter, not --sample-type */
};

/* Called now and then while reading: done and total raw bytes (0: unknown). */
typedef void (*read_progress_fn)(void *ctx, uint64_t done, uint64_t total);

struct read_opts {
	/* How perf samples become stacks (stackcollapse-perf.pl's options). */
	bool pid;                /* root frame "comm-PID" */
	bool tid;                /* root frame "comm-PID/TID" */
	bool kernel;             /* kernel frames get "_[k]" */
	bool jit;                /* JIT frames get "_[j]" */
	bool addrs;              /* unknown symbols as raw addresses */
	bool no_inline;          /* perf.data: no inlined frames */
	bool lines;              /* --lines: frames "NAME FILE:LINE" */
	bool no_addr_tables;     /* nothing will annotate (main.c): the
	                            readers keep no address tables
	                            (profile-addr.h) */
	const char *event_filter;  /* keep samples of this event only */
	enum input_format force; /* FMT_UNKNOWN: detect */
	const char *kallsyms;    /* perf.data: kernel symbols from this file
	                            (trusted whatever the build-id); NULL:
	                            /proc/kallsyms */
	const char *symfs;       /* perf.data: binaries under this directory */
	const char *sample_type; /* pprof: the value to read (NULL: default) */
	struct pprof_types *types;  /* pprof: filled from the first input */

	uint64_t max_input;      /* stop after this many bytes (0: no limit) */
	struct fetch_opts fetch; /* URLs: headers, timeout, progress (its
				    max_bytes is max_input) */
	read_progress_fn progress;
	void *progress_ctx;
};

/* Recognize the format from the first bytes of (decompressed) input. */
enum input_format read_detect(const void *buf, size_t len);
const char *read_format_name(enum input_format f);

/*
 * Read path ("-": standard input; http:// or https://: a URL, fetch.h)
 * into p.  Bad lines go to d; returns 0, or -1 with a message in d's
 * warnings when nothing could be read at all (unreadable file, directory,
 * a URL that cannot be fetched, not a profile).
 */
int read_profile(struct profile *p, const char *path,
		 const struct read_opts *o, struct diag *d);
/* The format of len bytes at buf, decompressed (o->force when set);
 * FMT_UNKNOWN also when they are empty or do not decompress. */
enum input_format read_detect_mem(const void *buf, size_t len,
				  const struct read_opts *o);
/* The same from len bytes at buf (a fetched body), named name. */
int read_profile_mem(struct profile *p, const void *buf, size_t len,
		     const char *name, const struct read_opts *o,
		     struct diag *d);

/* How to fetch a URL for o: its fetch options, bounded by --max-input. */
struct fetch_opts read_fetch_opts(const struct read_opts *o);

/* The readers, on an opened input (used by read_profile and the fuzzers). */
int read_folded(struct profile *p, struct input *in,
		const struct read_opts *o, struct diag *d);
int read_perf_script(struct profile *p, struct input *in,
		     const struct read_opts *o, struct diag *d);
int read_perf_data(struct profile *p, struct input *in,
		   const struct read_opts *o, struct diag *d);
int read_pprof(struct profile *p, struct input *in,
	       const struct read_opts *o, struct diag *d);
/* Does buf (the first bytes of an input) look like a pprof protobuf? */
bool read_pprof_detect(const void *buf, size_t len);
int read_cpuprofile(struct profile *p, struct input *in,
		    const struct read_opts *o, struct diag *d);
/* Does buf (the first bytes of an input) look like a V8 .cpuprofile? */
bool read_cpuprofile_detect(const void *buf, size_t len);

/*
 * The whole input for readers of binary formats: mapped in place when it
 * can be (input_map), else copied into *owned (free it after).  NULL, with
 * the message in d, when it cannot be read; a message about a partial read
 * (--max-input, truncated compression) also goes to d.  Without
 * --max-input, a compressed input may decompress to READ_WHOLE_RATIO times
 * its compressed size, and to READ_WHOLE_FLOOR bytes whatever its size:
 * more is a decompression bomb, refused before it fills memory.
 */
#define READ_WHOLE_RATIO 100
#define READ_WHOLE_FLOOR (64u << 20)
const void *read_whole(struct input *in, size_t *len, void **owned,
		       struct diag *d);

/*
 * How a reader ends: 0 when it added a sample.  Else -1, with the reason
 * in d: it skipped every one ("NAME: no usable sample: 2 bad samples
 * skipped", the skips themselves listed by diag_print), counted from
 * before (d->nbad as the reader began); or, when it skipped none, empty
 * ("NAME: EMPTY"; NULL when the reader said why itself).
 */
int read_done(struct diag *d, const char *name, bool added,
	      const uint64_t *before, const char *empty);

/*
 * Threads a reader may use: FLAMETOP_THREADS, else the number of CPUs; at
 * least 1, at most max.  *set: the variable is set (then readers use their
 * threads on inputs of any size, so that tests reach them with small ones).
 */
unsigned read_thread_count(unsigned max, bool *set);

/*
 * FLAMETOP_BATCH_BYTES, for tests only (0 when unset): the folded reader
 * builds batches of that many bytes, and the perf.data reader hands its
 * records between threads in the smallest pieces, so that small inputs
 * reach every hand-over.  FLAMETOP_THREADS alone never changes how work
 * is cut (a user who sets it gets the usual speed).
 */
size_t read_test_batch_bytes(void);

/* Call o->progress at most every few megabytes. */
void read_report_progress(const struct read_opts *o, struct input *in);

#endif
