/*
 * symbols-priv.h - what the symbolizer's files share: its structures and
 * the helpers one part lends another.  Only src/symbols*.c include it.
 *
 *   symbols.c         the symbolizer, its table of dsos, statistics;
 *   symbols-elf.c     a dso's ELF: opening it (build-id cache, --symfs,
 *                     the vdso), its sorted symbol table, lookups;
 *   symbols-kernel.c  kallsyms and /tmp/perf-PID.map (JIT) symbols;
 *   symbols-proc.c    the per-process Dwfl the DWARF unwinder walks.
 */
#ifndef FLAMETOP_SYMBOLS_PRIV_H
#define FLAMETOP_SYMBOLS_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <elfutils/libdwfl.h>

#include "symbols.h"

struct fsym {
	uint64_t start, end;
	const char *name;       /* as in the ELF until demangled */
	uint32_t len;
	unsigned char bind;     /* STB_* */
	bool demangled;         /* name checked for mangling */
	bool old_version;       /* a hidden symbol version ("cfree@GLIBC_2.2.5"):
				   kept for programs linked long ago */
};

/*
 * Where to look in a table sorted by start (sym_index_build): bucket b
 * holds the entries that start in [base + b << shift, base + (b + 1) <<
 * shift), first[b] the first of them, so that a lookup searches one
 * bucket's few entries, not the whole table, whose search strayed over
 * memory far apart (a compiler's 100,000 symbols: 17 steps, most of them
 * cache misses).  first NULL: no index (the whole table is searched).
 */
struct sym_index {
	uint32_t *first;        /* nb + 1 entries */
	uint64_t base;
	size_t nb;
	unsigned shift;
};

struct seg {
	uint64_t off, filesz, vaddr, memsz;
};

struct sym_dso {
	char *path;
	const char *base;
	uint8_t bid[20];
	size_t bid_len;
	uint32_t maj, min;
	uint64_t ino;
	bool special;
	int state;              /* 0: not loaded, 1: loaded, -1: failed */
	enum sym_miss fail;
	struct fsym *syms;
	size_t nsyms;
	struct sym_index ix;    /* of syms */
	char *names;            /* all names, back to back */
	struct seg *segs;
	size_t nsegs;
	char *loaded_from;      /* the file actually read */
	uint8_t elf_bid[20];    /* the build-id of that file's ELF note */
	size_t elf_bid_len;
	char bid_hex[41];       /* sym_dso_build_id's answer, once loaded */
	bool bid_hex_done;
	char **dm;              /* demangled names (malloc'd) */
	size_t ndm, capdm;
	struct sym_lines *lines; /* --lines: DWARF line tables (symbols-lines.c) */
	struct sym_dso *next;   /* hash chain */
};

struct bid_entry {
	char *path;
	uint8_t bid[20];
	size_t len;
};

struct jit_sym {
	uint64_t start, end;
	const char *name;
	size_t line;
};

struct jit_map {
	uint32_t pid;
	struct jit_sym *syms;
	size_t n;
	char *text;
	size_t size;            /* bytes read (JIT_MAX_BYTES at most) */
	off_t seen;             /* the file's size then (0: none) */
	double checked;         /* when its size was last looked at */
	struct jit_map *next;
};

/*
 * A kernel function: its name and module point into the kallsyms text,
 * ended by a tab or a newline, until a lookup first returns them: they
 * then point to a copy ended by a NUL (in knames).  The text itself is
 * never written: it may be a mapping of the file.
 */
struct ksym {
	uint64_t start;
	size_t seq;             /* line number: of aliases, the last wins */
	const char *name;
	const char *mod;        /* NULL: the kernel's own; "[ext4]" */
};

struct reported {
	struct sym_dso *dso;
	uint64_t bias;
};

struct proc_state {
	Dwfl *dwfl;
	bool stale;
	struct reported *rep;   /* the files in dwfl, at their biases */
	size_t nrep, caprep;
};

struct symbolizer {
	struct sym_opts o;
	struct sym_dso **buckets;
	size_t nbuckets, ndsos;
	struct bid_entry *bids;
	size_t nbids, capbids;
	struct jit_map *jits;
	size_t jit_bytes;       /* text of every map held */
	char jit_msg[512];      /* the first note about a map */
	uint64_t jit_notes;     /* notes about maps (ignored, cut) */
	struct jd_proc *jitdumps;  /* processes that mapped a jitdump */
	char *jd_notes[8];      /* what was said of dumps no longer held */
	size_t njd_notes;
	uint64_t jd_more_notes; /* notes past those */
	char jit_modname[64];   /* "/tmp/perf-PID.map" of the last lookup */
	/* kernel */
	int kstate;             /* 0: not loaded, 1: ok, -1: unusable */
	struct ksym *ksyms;     /* an ARR array of capksyms */
	size_t nksyms, capksyms;
	struct sym_index kix;   /* of ksyms */
	char *ktext;            /* an ARR array of ktextcap bytes, or */
	size_t ktextcap;
	size_t ktextmap;        /* a read-only mapping of the file, of these */
	struct symtab *knames;  /* the names lookups returned (their text
				   never moves), or NULL */
	uint8_t kbid[20];
	size_t kbid_len;
	char krelease[65];        /* uname -r of the recording, "" unknown */
	char kmsg[160];
	uint64_t ktext_recorded;  /* _text as recorded, 0: unknown */
	uint64_t kmap_start, kmap_len;  /* the kernel's map as recorded */
	char kbid_hex[41];        /* sym_kernel_build_id's answer */
	bool kbid_hex_done;
	uint64_t ktext_now;       /* _text in the running kernel */
	int64_t kdelta;
	pthread_t kthread;        /* loading kallsyms in the background */
	bool kthread_on;
	/* statistics */
	uint64_t misses[SYM_MISS_COUNT];
	const char *miss_file[SYM_MISS_COUNT];
	int vdso_fd;
};

/* Dwfl callbacks for files read offline (libdwfl finds debug files). */
extern const Dwfl_Callbacks sym_dwfl_callbacks;
/* libdw's find_debuginfo, without loading libdebuginfod needlessly. */
int sym_find_debuginfo(Dwfl_Module *mod, void **userdata,
		       const char *modname, Dwarf_Addr base,
		       const char *file_name, const char *debuglink_file,
		       GElf_Word debuglink_crc, char **debuginfo_file_name);

/*
 * A Dwfl of its own for the file at path (fd: owned by libdwfl from here
 * on), and its module; NULL (nothing left open) when it is no ELF.
 */
Dwfl_Module *sym_report_alone(Dwfl **dwfl, const char *name,
			      const char *path, int fd);
/*
 * The concrete scopes at Dwfl address a of mod, innermost first, as
 * dwarf_getscopes_die gives them: each DW_TAG_inlined_subroutine up to the
 * DW_TAG_subprogram that holds the code.  Returns their number (0: none,
 * *scopes NULL; -1: no CU holds a) and the CU in *cu; free *scopes.
 */
int sym_addr_scopes(Dwfl_Module *mod, Dwarf_Addr a, Dwarf_Die *cu,
		    Dwarf_Addr *bias, Dwarf_Die **scopes);
/* Free d's line tables and their cache (symbols-lines.c). */
void sym_lines_free(struct sym_lines *l);

/* The kernel's symbols and kallsyms text (symbols-kernel.c): free them. */
void sym_kernel_free(struct symbolizer *sy);

/* The jitdumps (symbols-jitdump.c): free them all, tell what was read. */
void sym_jitdumps_free(struct symbolizer *sy);
void sym_jitdumps_report(const struct symbolizer *sy, struct diag *d);
/*
 * Report the unwinding info of pid's jitdump not reported yet into dwfl
 * (pid's Dwfl, fresh: just made), each piece of code as a module
 * (symbols-jitdump.c).
 */
void sym_jitdump_report_cfi(struct symbolizer *sy, uint32_t pid, Dwfl *dwfl,
			    bool fresh);
/* Forget pid's jitdump (its notes are kept for sym_report). */
void sym_jitdump_forget(struct symbolizer *sy, uint32_t pid);
/* Forget a process's perf map (symbols-kernel.c). */
void sym_jit_map_forget(struct symbolizer *sy, uint32_t pid);

/* Load d's symbol table (state 1) or note why not (state -1). */
void sym_dso_load(struct symbolizer *sy, struct sym_dso *d);
/* A new descriptor of this process's vdso image (in memory), or -1. */
int sym_vdso_fd(struct symbolizer *sy);
/* ---- Shared by every part (symbols-table.c) ---- */

/* Hex text of a build-id: out holds 2 * n + 1 bytes. */
void sym_bid_hex(char *out, const uint8_t *b, size_t n);
/*
 * How many entries of a table sorted by start begin at or before a: entry
 * [result - 1] is the last that may cover a.  Every symbol table here
 * (ELF, kernel, JIT) starts its entries with a uint64_t start.
 */
size_t sym_count_starting_by(const void *table, size_t n, size_t size,
			     uint64_t a);
/* Index a table sorted by start (again: the old index is freed). */
void sym_index_build(struct sym_index *ix, const void *table, size_t n,
		     size_t size);
void sym_index_free(struct sym_index *ix);
/* sym_count_starting_by(table, n, size, a), through ix (of that table). */
size_t sym_index_count(const struct sym_index *ix, const void *table,
		       size_t n, size_t size, uint64_t a);

#endif
