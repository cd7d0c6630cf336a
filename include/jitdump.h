/*
 * jitdump.h - the jitdump files that runtimes write for profilers
 * (jit-PID.dump: node --perf-prof, python3.13 -X perf_jit, .NET with
 * DOTNET_PerfMapEnabled=1 or 2, Java through a JVMTI agent).
 *
 * The file is a header (magic "JiTD" in the writer's byte order, version,
 * header size, ELF machine, pid, time, flags) and records, each with a
 * 16-byte prefix (id, total size, time): code loads (name, address, size,
 * the code bytes), code moves, debug info (the source line of code
 * addresses), unwinding info (.eh_frame for the code) and a close.  A
 * record of debug or unwinding info belongs to the code load that follows
 * it at the same address.
 *
 * A struct jitdump reads a dump incrementally: jitdump_update reads the
 * whole records written since the last call and stops at a record not yet
 * complete (the runtime is still writing it), so a live profiler calls it
 * again as the file grows.  What is read answers "which code was at
 * address A at time T": the latest code load (or move) covering A at or
 * before T, and not moved away by T.  Times are the runtime's
 * CLOCK_MONOTONIC in ns (perf record -k 1 and live mode sample on that
 * clock); JITDUMP_TIME_ANY asks for the latest code at A.
 *
 * Bad input never stops the reader: records of unknown type are skipped
 * by their size, records whose sizes do not add up are skipped, a size
 * that cannot be followed ends the reading there, and a dump of a byte
 * order other than this machine's is read with its bytes swapped.  What
 * was skipped is told once (jitdump_report): the file, the offset of the
 * first skipped record and why, and how many.
 *
 * Not thread-safe; names and file names returned live as long as the
 * struct jitdump.
 */
#ifndef FLAMETOP_JITDUMP_H
#define FLAMETOP_JITDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct jitdump;

/* A lookup time that matches the latest code at an address. */
#define JITDUMP_TIME_ANY UINT64_MAX

/* What the dump's header says (valid once jitdump_update returned). */
struct jitdump_info {
	uint32_t version;          /* 1 (or later) */
	uint32_t elf_mach;         /* EM_X86_64, ... */
	uint32_t pid;              /* the process that wrote it */
	uint64_t timestamp;        /* when the dump was opened */
	uint64_t flags;            /* JITDUMP_FLAGS_* */
	bool swapped;              /* written in the other byte order */
	bool arch_timestamp;       /* times are the CPU's counter (TSC), not
	                              CLOCK_MONOTONIC: they are ignored */
};

/* One piece of JIT code (the code load valid at the time asked). */
struct jitdump_code {
	const char *name;          /* the runtime's name for it, raw bytes */
	uint64_t start, end;       /* where the code is, end exclusive */
	uint64_t load_time;        /* when it was loaded (or moved) there */
	uint64_t code_index;       /* the runtime's id of the code */
	size_t id;                 /* its number in the dump */
};

/* The unwinding info of a piece of code (an .eh_frame, as the runtime
 * wrote it, and its .eh_frame_hdr at the end: eh_frame_hdr_size bytes). */
struct jitdump_unwind {
	const uint8_t *data;       /* unwinding_size bytes */
	uint64_t size;             /* bytes of data */
	uint64_t eh_frame_hdr_size;
	uint64_t mapped_size;      /* bytes mapped after the code (0: none) */
};

/*
 * A reader of the dump at path, written by pid (0: any; a dump whose
 * header names another process is not read, and says so).  Nothing is
 * read until jitdump_update.  The file must be a regular file owned by
 * root or by this user, as perf-PID.map files; otherwise, or when it
 * cannot be opened, NULL with the reason in err (cap bytes).
 */
struct jitdump *jitdump_open(const char *path, uint32_t pid, char *err,
			     size_t cap);
/*
 * A reader of len bytes at buf (copied), named name in messages: the
 * same as a file that holds them and never grows (tests, fuzzing).
 */
struct jitdump *jitdump_open_mem(const void *buf, size_t len,
				 const char *name, uint32_t pid);
void jitdump_close(struct jitdump *jd);

/*
 * Read the records written since the last call.  Returns how many were
 * read; 0 also when the header is not (yet) complete.  A dump that is
 * not a jitdump, or of another process, reads as empty.
 */
size_t jitdump_update(struct jitdump *jd);
/*
 * No more will be written (the process exited, or the profile is a
 * file): a record left incomplete at the end is counted as skipped.
 */
void jitdump_finish(struct jitdump *jd);

/* The header, or NULL while it was not read or was not a jitdump's. */
const struct jitdump_info *jitdump_info(const struct jitdump *jd);
/* The path or name it was opened with. */
const char *jitdump_name(const struct jitdump *jd);
/* How many pieces of code the dump holds (loads and moves). */
size_t jitdump_count(const struct jitdump *jd);

/*
 * The code at addr at time t (JITDUMP_TIME_ANY: the latest there).
 * False when no code load covers it.
 */
bool jitdump_lookup(struct jitdump *jd, uint64_t addr, uint64_t t,
		    struct jitdump_code *out);
/*
 * The piece of code that covered addr at some time, for a listing of its
 * instructions: the latest named name (may be NULL) if one was, else the
 * latest of any name.  False when none ever covered addr.
 */
bool jitdump_code_at(struct jitdump *jd, uint64_t addr, const char *name,
		     struct jitdump_code *out);
/*
 * The machine code of c as the runtime wrote it into its load record
 * (malloc'd, *len bytes); NULL when the record holds none or it cannot be
 * read again.
 */
uint8_t *jitdump_code_bytes(struct jitdump *jd, const struct jitdump_code *c,
			    size_t *len);
/*
 * The source line of the code at addr at time t from the debug info
 * records: *file (as the runtime wrote it, raw bytes; owned by jd) and
 * *line (1-based).  False when none is known, or when the runtime wrote
 * the file name from freed memory and no name seen whole before in the
 * dump is plainly the one it was.
 */
bool jitdump_line(struct jitdump *jd, uint64_t addr, uint64_t t,
		  const char **file, unsigned *line);
/*
 * The unwinding info of the code at addr at time t, and that code's
 * place in *code (may be NULL).  False when the runtime wrote none.
 */
bool jitdump_unwind(struct jitdump *jd, uint64_t addr, uint64_t t,
		    struct jitdump_unwind *out, struct jitdump_code *code);

/*
 * The pieces of code still in place (not moved away) that have unwinding
 * info, one a call: *pos starts at 0 and is advanced; false at the end.
 */
bool jitdump_unwind_next(struct jitdump *jd, size_t *pos,
			 struct jitdump_unwind *out, struct jitdump_code *code);

/*
 * Tell what was skipped (at most one warning: the file, the offset of
 * the first skipped record and why, and how many records and bytes), and
 * that the dump is of another process or not a dump at all.  False when
 * there was nothing to say.
 */
bool jitdump_report(const struct jitdump *jd, struct diag *d);

#endif
