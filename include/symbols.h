/*
 * symbols.h - turning addresses into function names.
 *
 * User code: each mapped file is a struct sym_dso, found by build-id where
 * one is known, else by path and dev:inode, and shared by every process
 * that maps it.  On first use its ELF is opened through libdwfl (which also
 * finds a separate debug file by build-id or .gnu_debuglink), the build-id
 * is checked against the one perf recorded, and the function symbols are
 * copied into one sorted table (libdwfl's own lookup is linear, far too
 * slow for libc): a lookup is a binary search on the ELF's virtual
 * address.  Names are demangled (C++, Rust) and version suffixes
 * ("@@GLIBC_2.2.5") are dropped.
 *
 * Kernel code: /proc/kallsyms (text symbols, sorted), used only when it
 * shows real addresses and, if perf recorded the kernel's build-id, when
 * that matches the running kernel.
 *
 * JIT code: the runtime's jitdump (jit-PID.dump, jitdump.h) when the
 * process mapped one, named by the code load valid at the sample's time;
 * else /tmp/perf-PID.map (start, size, name per line; later lines win).
 *
 * A DWARF unwinder needs a Dwfl per process, with every mapped ELF
 * reported at its load address: sym_proc_dwfl builds one from the
 * tracker's maps, lazily, and keeps it until the process goes.
 *
 * Frames that cannot be resolved are counted by reason so the user can be
 * told why (no binary here, a different binary, no symbols).
 *
 * Not thread-safe: all calls come from the thread that reads records.
 */
#ifndef FLAMETOP_SYMBOLS_H
#define FLAMETOP_SYMBOLS_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct pe_proc;
struct symbolizer;
struct sym_dso;

struct sym_opts {
	bool demangle;             /* C++/Rust names demangled (default on) */
	bool debuginfod;           /* keep DEBUGINFOD_URLS (off: unset it) */
	const char *kallsyms;      /* NULL: /proc/kallsyms */
	const char *root;          /* NULL, or a symfs (--symfs): binaries
	                              only under it, by recorded path and in
	                              its .build-id tree */
	const char *jit_dir;       /* NULL: /tmp (perf-PID.map files) */
	const char *jitdump_dir;   /* NULL, or the recording's folder: a
	                              jit-PID.dump is looked for there too */
	bool jitdump_whole;        /* the dumps are written to their end
	                              (perf.data): a record cut short there
	                              is told; else (live) they may grow and
	                              are read again when a lookup misses */
};

/* Why a frame stayed unresolved (counted for the user). */
enum sym_miss {
	SYM_MISS_NO_MAP,           /* address in no known mapping */
	SYM_MISS_NO_FILE,          /* the mapped file is not on this machine */
	SYM_MISS_BUILD_ID,         /* the file here has another build-id */
	SYM_MISS_NOT_ELF,          /* the file is not an ELF we can read */
	SYM_MISS_NO_SYMBOL,        /* no function symbol covers the address */
	SYM_MISS_STRIPPED,         /* the file has no symbol table at all */
	SYM_MISS_KERNEL,           /* kernel frame, no usable kallsyms */
	SYM_MISS_JIT,              /* JIT code in no jitdump or perf-PID.map */
	SYM_MISS_COUNT
};

/*
 * The options readers create their symbolizers with: demangling on, the
 * rest default, unless sym_set_defaults changed them (tests and fuzzers
 * point root and kallsyms elsewhere).
 */
void sym_default_opts(struct sym_opts *o);
void sym_set_defaults(const struct sym_opts *o);

struct symbolizer *sym_create(const struct sym_opts *o);
void sym_destroy(struct symbolizer *sy);

/* ---- Mapped files ------------------------------------------------------- */

/* How a mapping identifies its file (any field may be unknown: zero). */
struct sym_file_id {
	uint32_t maj, min;
	uint64_t ino;
	const uint8_t *build_id;   /* NULL if unknown */
	size_t build_id_len;
};

/*
 * The dso for path (path_len bytes, not NUL-terminated) with identity id
 * (may be NULL).  Owned by the symbolizer, valid until sym_destroy.
 * Nothing is opened until the first lookup.
 */
struct sym_dso *sym_dso_get(struct symbolizer *sy, const char *path,
			    size_t path_len, const struct sym_file_id *id);
/* Record a build-id for a path (perf.data's BUILD_ID feature). */
void sym_add_build_id(struct symbolizer *sy, const char *path, size_t len,
		      const uint8_t *bid, size_t bid_len);

const char *sym_dso_path(const struct sym_dso *d);
/* The file's name without directories ("libc.so.6"), as perf shows it. */
const char *sym_dso_basename(const struct sym_dso *d);
/*
 * The file's build-id in hex, as perf recorded it, else as the file read
 * says (after a lookup): "" when none is known.  Owned by d; *len is its
 * length.
 */
const char *sym_dso_build_id(struct symbolizer *sy, struct sym_dso *d,
			     size_t *len);
/* True for "[vdso]", "[kernel.kallsyms]" and other bracketed names. */
bool sym_dso_is_special(const struct sym_dso *d);

/*
 * The function containing the mapped address: file_off is the offset in
 * the file (map pgoff + addr - map start).  Returns the name (owned by
 * the dso, stable) or NULL, with *why set.  *vaddr gets the ELF virtual
 * address of file_off (perf's "map ip") when the file could be read.
 */
const char *sym_dso_lookup(struct symbolizer *sy, struct sym_dso *d,
			   uint64_t file_off, uint64_t *vaddr,
			   enum sym_miss *why);

/*
 * Source lines (--lines).  The code at ELF address vaddr of d may lie in
 * functions inlined into one another: out[0] is the line of the address
 * itself (in the innermost inlined function, or in the function when
 * nothing is inlined there), out[k] the line of the call site of the k-th
 * inlined function, outwards, the last one in the function that holds the
 * code.  Returns how many were written (at most cap; 0: no line known).
 * File names are base names, owned by d.  Looked up in the DWARF of the
 * file d was read from once per address, then served from a cache.
 */
struct sym_srcline {
	const char *file;          /* "main.c" */
	unsigned line;             /* 1-based */
	const char *path;          /* the file as DWARF names it, whole
	                              (DW_AT_comp_dir joined) */
};
size_t sym_dso_lines(struct symbolizer *sy, struct sym_dso *d,
		     uint64_t vaddr, struct sym_srcline *out, size_t cap);

/*
 * For annotation and disassembly: the function symbol holding ELF address
 * vaddr of d, as [*start, *end) (false: none); the file d's symbols were
 * read from (after --symfs, build-id and debug-link search; NULL: none);
 * d's build-id as bytes, as recorded or read (*len 0: unknown;
 * sym_dso_build_id gives it in hex); and the Dwfl module
 * of that file at bias 0, the one sym_dso_lines reads (NULL: no DWARF
 * nor ELF to read).  All owned by the symbolizer.
 */
bool sym_dso_func_range(struct symbolizer *sy, struct sym_dso *d,
			uint64_t vaddr, uint64_t *start, uint64_t *end);
/* The same, returning the symbol's name (NULL: none), as sym_dso_symbol. */
const char *sym_dso_func_at(struct symbolizer *sy, struct sym_dso *d,
			    uint64_t vaddr, uint64_t *start, uint64_t *end);
const char *sym_dso_file(const struct sym_dso *d);
const uint8_t *sym_dso_build_id_bytes(const struct sym_dso *d, size_t *len);
Dwfl_Module *sym_dso_dwfl(struct symbolizer *sy, struct sym_dso *d);
/*
 * File name `file` of the CU cu's line table as a whole path: a relative
 * name (a file compiled as `cc -c src/x.c`) joined to the CU's
 * DW_AT_comp_dir, the folder the compiler ran in, into buf (cap bytes).
 * Returns file itself when it is whole, or there is no folder to join.
 */
const char *sym_cu_path(Dwarf_Die *cu, const char *file, char *buf,
			size_t cap);
/*
 * Read d's file now if not yet: false with *why set when it cannot be
 * (SYM_MISS_BUILD_ID: only another build is on this machine, never used
 * in its place), so that sym_dso_file's NULL can be explained.
 */
bool sym_dso_open(struct symbolizer *sy, struct sym_dso *d,
		  enum sym_miss *why);
/*
 * sym_dso_func_range with the symbol's name (owned by d, demangled as
 * sym_dso_lookup gives it): NULL with *why set when no symbol holds vaddr
 * or d could not be read.
 */
const char *sym_dso_symbol(struct symbolizer *sy, struct sym_dso *d,
			   uint64_t vaddr, uint64_t *start, uint64_t *end,
			   enum sym_miss *why);

/* ---- Kernel and JIT ------------------------------------------------------ */

/*
 * The kernel's build-id as perf recorded it (BUILD_ID feature): kallsyms
 * is used only if it equals the running kernel's.
 */
void sym_set_kernel_build_id(struct symbolizer *sy, const uint8_t *bid,
			     size_t len);
/*
 * The kernel release the profile was recorded on (OSRELEASE feature):
 * without a kernel build-id, kallsyms is used only if it is the running
 * kernel's.
 */
void sym_set_kernel_release(struct symbolizer *sy, const char *rel,
			    size_t len);
/*
 * Start reading kallsyms on another thread (it costs the kernel ~50 ms to
 * print); the first kernel lookup waits for it.  Call after the kernel's
 * build-id is known.
 */
void sym_preload_kernel(struct symbolizer *sy);
/* Wait for that read to end (live mode: before sampling starts). */
void sym_kernel_join(struct symbolizer *sy);
/*
 * The kernel's build-id in hex (as sym_dso_build_id): as recorded, else
 * the running kernel's unless the profile names another release or
 * --kallsyms stands in for it.
 */
const char *sym_kernel_build_id(struct symbolizer *sy, size_t *len);
/* Kernel text address relocation seen in the profile (_text as recorded). */
void sym_set_kernel_text(struct symbolizer *sy, uint64_t text_start);
/*
 * The kernel's map as recorded ([kernel.kallsyms]_text: start, length),
 * and it again (limit = start + length); false when none was recorded.
 */
void sym_set_kernel_map(struct symbolizer *sy, uint64_t start, uint64_t len);
bool sym_kernel_map(const struct symbolizer *sy, uint64_t *start,
		    uint64_t *limit);

/*
 * The kernel function at addr (already adjusted for return addresses),
 * and the module it lives in ("[kernel.kallsyms]" or "[ext4]") in *mod.
 * NULL when unknown.
 */
const char *sym_kernel_lookup(struct symbolizer *sy, uint64_t addr,
			      const char **mod);

/* The JIT symbol of pid at addr from perf-PID.map, or NULL. */
const char *sym_jit_lookup(struct symbolizer *sy, uint32_t pid,
			   uint64_t addr);
/* Forget a process's JIT map and jitdump (it exited). */
void sym_jit_forget(struct symbolizer *sy, uint32_t pid);

/*
 * True when path (len bytes) names a jitdump: "jit-PID.dump", the file a
 * runtime maps so that profilers see it in the MMAP records.
 */
bool sym_is_jitdump(const char *path, size_t len);
/*
 * Process pid mapped the jitdump at path (as the process names it): its
 * JIT code is named from the dump from now on.  The dump is opened at the
 * first lookup: under --symfs (the path, then the file name), in
 * jitdump_dir, else at the path itself; a dump found nowhere is told once
 * (sym_report).
 */
void sym_jitdump_mapped(struct symbolizer *sy, uint32_t pid,
			const char *path, size_t len);
/*
 * The JIT code of pid at addr at time t (JITDUMP_TIME_ANY: the latest):
 * from the process's jitdump when it mapped one, else (or when the dump
 * does not know the address) from its perf-PID.map.  *mod (may be NULL)
 * gets the file the name came from or would have: the dump's name or
 * "/tmp/perf-PID.map".  With line set, *line gets the source line of addr
 * from the dump's debug info (file NULL: none).  NULL when unknown.
 */
const char *sym_jit_lookup_at(struct symbolizer *sy, uint32_t pid,
			      uint64_t addr, uint64_t t, const char **mod,
			      struct sym_srcline *line);
/*
 * The source line of pid's JIT code at addr at time t from its jitdump's
 * debug info, as sym_jit_lookup_at gives it, for a dump already opened by
 * it; false (file NULL) when none is known.
 */
bool sym_jit_line_at(struct symbolizer *sy, uint32_t pid, uint64_t addr,
		     uint64_t t, struct sym_srcline *line);

/* Whether pid mapped a jitdump that could be read. */
bool sym_has_jitdump(struct symbolizer *sy, uint32_t pid);
/*
 * Read what pid's jitdump gained since it was last read, now; true when
 * it gained records.
 */
bool sym_jitdump_refresh(struct symbolizer *sy, uint32_t pid);

/* ---- Per-process Dwfl (for unwinders) ------------------------------------ */

/*
 * A Dwfl holding every mapped ELF of the process at its load address,
 * built from the tracker's maps on first call and refreshed when the maps
 * changed since.  NULL when no module could be reported.  Owned by the
 * process (freed with it); do not dwfl_end it.
 */
Dwfl *sym_proc_dwfl(struct symbolizer *sy, struct pe_proc *pr);
/* Free a process's symbolizer state (called when the process goes). */
void sym_proc_release(struct symbolizer *sy, void *state);
/* Mark the process's Dwfl stale (its maps changed). */
void sym_proc_maps_changed(struct symbolizer *sy, struct pe_proc *pr);

/* ---- Names and statistics ------------------------------------------------ */

/*
 * Demangle a C++ or Rust symbol name (without parameters, as perf shows
 * them).  Returns a malloc'd string, or NULL when name is not mangled.
 */
char *sym_demangle(const char *name);
/* The library that demangles ("libiberty"), or NULL when built without. */
const char *sym_demangler(void);

void sym_count_miss(struct symbolizer *sy, enum sym_miss why);
void sym_count_misses(struct symbolizer *sy, enum sym_miss why, uint64_t n);
uint64_t sym_misses(const struct symbolizer *sy, enum sym_miss why);
/*
 * Tell the user about unresolved frames (one warning per reason, naming
 * up to a few files).
 */
void sym_report(const struct symbolizer *sy, struct diag *d);

#endif
