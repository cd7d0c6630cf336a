/*
 * profile-addr.h - weights per code address, beside the call tree.
 *
 * Readers that know where in the code a sample was (perf.data, live
 * sampling, perf script with addresses, pprof locations) keep, besides the
 * tree of names, every distinct stack of (function, address) frames, root
 * first, with the weight of its samples.  A stack seen again costs one
 * hash probe, or one addition where the reader kept its id (paddr_add_at),
 * so keeping addresses adds little to reading.  Folded input has no
 * addresses: its profile has no tables (profile_paddr returns NULL) and
 * pays nothing; nor do the other readers when nothing will read the
 * tables (read_opts.no_addr_tables).
 *
 * A function is (module, name): the file that holds its code as the input
 * named it, and the name its frames carry (no module, no marks).  Its
 * addresses are the ELF virtual addresses of that file where the reader
 * could tell them (perf.data and live: through the symbolizer), else the
 * addresses the input gave (paddr_func.elf_vaddr says which).
 *
 * Asking for a function's rows (paddr_rows) walks the stacks once:
 * at the leaf's address the sample counts as self; at a caller's frame the
 * address is the return address, and the sample counts in the row's total
 * only (the call is the instruction before it).  A sample passing twice
 * through one (function, address) (recursion) counts once there.
 *
 * Live sampling adds its samples with their times (paddr_add_timed), and
 * its tables follow the profile's time range (the live window): the
 * profile sets it with paddr_set_range, so a function's weights in the
 * tables are those of the graph.  Tables without timed samples keep all
 * their weights whatever the range.
 */
#ifndef FLAMETOP_PROFILE_ADDR_H
#define FLAMETOP_PROFILE_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct paddr;
struct profile;

#define PADDR_NONE UINT32_MAX
#define PADDR_ROOT 0u

/* ---- Functions ------------------------------------------------------- */

/*
 * What the tables know of a function.  Strings and the build-id are
 * copied by paddr_func_intern and owned by the tables.
 */
struct paddr_func {
	const char *name;          /* "spin", "std::vector<int>::push_back" */
	const char *module;        /* the file as recorded: "/usr/bin/x",
	                              "[kernel.kallsyms]"; "" unknown */
	const uint8_t *build_id;   /* as recorded; NULL: unknown */
	size_t build_id_len;
	uint64_t start, end;       /* [start, end) of its code; 0, 0: unknown */
	bool elf_vaddr;            /* addresses and start/end are ELF virtual
	                              addresses of module (else as the input
	                              gave them) */
	void *dso;                 /* the reader's handle of the file (perf.data
	                              and live: the symbolizer's struct sym_dso,
	                              valid while its owner is kept); NULL */
	void *sym;                 /* the struct symbolizer dso belongs to
	                              (kept with paddr_keep); NULL */
	bool input_lines;          /* the input gives its lines per address
	                              (paddr_set_line): no DWARF needed */
	bool jit;                  /* JIT-compiled code, named by module (a
	                              perf-PID.map or a jitdump): no ELF file
	                              holds its instructions or lines */
};

/* One address of a function, with its weights (paddr_rows). */
struct paddr_row {
	uint64_t addr;             /* see paddr_func.elf_vaddr */
	uint64_t self;             /* samples whose leaf is at addr */
	uint64_t total;            /* self + samples in a call returning to
	                              addr (the instruction before it) */
	bool leaf;                 /* some sample's leaf was at addr (else
	                              only a return address) */
};

/* ---- Building (readers) ---------------------------------------------- */

/*
 * The address tables of p: NULL when none were made (folded input, or a
 * reader that knows no addresses); with create, made on first call.  Owned
 * by p: they go with profile_destroy and lose their weights with
 * profile_reset_weights.
 */
struct paddr *profile_paddr(struct profile *p, bool create);
const struct paddr *profile_paddr_const(const struct profile *p);

struct paddr *paddr_create(void);
void paddr_destroy(struct paddr *a);
/* Forget every weight and time (the functions and the stacks stay). */
void paddr_reset_weights(struct paddr *a);

/* The id of function f (found by module and name, else added). */
uint32_t paddr_func_intern(struct paddr *a, const struct paddr_func *f);

/* One frame of a stack: a function id (PADDR_NONE: unknown) and address. */
struct paddr_frame {
	uint32_t func;
	uint64_t addr;
};

/*
 * Add a stack of n frames, root first (the last is the leaf, at the
 * sample's address), with weight w; returns its id (PADDR_ROOT when n is
 * 0), for paddr_add_at.  Unknown frames keep their
 * place so that a caller's address stays a caller's.
 */
uint32_t paddr_add_stack(struct paddr *a, const struct paddr_frame *frames,
			 size_t n, uint64_t w);
/* Add w again to stack id (from paddr_add_stack). */
void paddr_add_at(struct paddr *a, uint32_t id, uint64_t w);

/*
 * Add w to stack id (from paddr_add_stack, with weight 0) as a sample of
 * the given time: it counts in the ranges that hold that time.  Ids not
 * of a stack (PADDR_NONE) are ignored.
 */
void paddr_add_timed(struct paddr *a, uint32_t id, uint64_t w, uint64_t time);
/*
 * Read the weights of the timed samples in [first, last] only (as the
 * profile's range, profile_set_range, which calls it), or of all time
 * again; tables with no timed sample ignore both.
 */
void paddr_set_range(struct paddr *a, uint64_t first, uint64_t last);
void paddr_clear_range(struct paddr *a);
/* Forget the times of samples before t (their all-time weight stays). */
void paddr_forget_before(struct paddr *a, uint64_t t);

/*
 * The source line the input gives for function func at addr (pprof
 * locations: a line per function, inlined ones being functions of their
 * own): file (flen bytes, copied) and line.  The last one set wins.
 */
void paddr_set_line(struct paddr *a, uint32_t func, uint64_t addr,
		    const char *file, size_t flen, unsigned line);
/* That line: false when none was set. */
bool paddr_line(const struct paddr *a, uint32_t func, uint64_t addr,
		const char **file, unsigned *line);

/*
 * Keep owner alive as long as the tables, and free it with release at
 * paddr_destroy: the symbolizer whose files paddr_func.dso names.
 */
void paddr_keep(struct paddr *a, void *owner, void (*release)(void *));
/* The last owner kept (perf.data and live: the struct symbolizer), or NULL. */
void *paddr_owner(const struct paddr *a);

/* ---- Reading --------------------------------------------------------- */

size_t paddr_func_count(const struct paddr *a);
/* The weight of every stack added (in the range, for timed tables: the
 * live window; --time ranges of saved profiles do not apply). */
uint64_t paddr_total(const struct paddr *a);
const struct paddr_func *paddr_func_get(const struct paddr *a, uint32_t id);

/*
 * The rows of function id, by address, malloc'ed into *rows (NULL when
 * none); returns their number.  *self and *total (may be NULL) get the
 * function's own self and total weight: each sample once.  With a range
 * (timed tables), every address sampled since the tables' weights were
 * last reset has a row, with the range's weights (0 out of it).
 */
size_t paddr_rows(const struct paddr *a, uint32_t id, struct paddr_row **rows,
		  uint64_t *self, uint64_t *total);

#endif
