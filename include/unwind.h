/*
 * unwind.h - DWARF unwinding of sampled user stacks (--call-graph dwarf).
 *
 * A sample taken with PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER
 * carries the user registers and a copy of the top of the user stack
 * (from SP up, dyn_size bytes).  The unwinder replays the CFI of the
 * process's modules (.eh_frame / .debug_frame, through libdwfl) over that
 * copy and returns the user frames, leaf first.  Nothing is read from the
 * live process: the stack copy is all the memory the unwinder sees, so the
 * same code serves live sampling and perf.data files.
 *
 * The Dwfl is the process's (symbols.h, sym_proc_dwfl).  The first sample
 * of a process attaches the unwinder's callbacks to it (once: libdwfl
 * refuses a second attach); they read from a "current sample" context
 * inside the unwinder, which every later sample of any process refills.
 * So an unwinder must outlive unwinding with the Dwfls it attached to,
 * and the Dwfls may outlive it (nothing is called at dwfl_end).
 *
 * Inlined functions: where the DWARF of a frame's address says it lies in
 * inlined code, the frame carries the names of the inlined functions,
 * innermost first (the frame's own function is the one its symbol names).
 * That lookup is cached per (file, address).
 *
 * Not thread-safe: call from the thread that owns the Dwfls.
 */
#ifndef FLAMETOP_UNWIND_H
#define FLAMETOP_UNWIND_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pe_sample;
struct unwinder;

/* The registers the kernel should sample (perf_regs order, x86_64). */
#define UNWIND_REGS_MASK 0xff0fffULL
/* --call-graph dwarf stack copy sizes. */
#define UNWIND_STACK_DEFAULT 16384u
#define UNWIND_STACK_MAX 65528u      /* below 65535, a multiple of 8 */

struct unwind_opts {
	unsigned max_depth;          /* frames per stack; 0: 512 */
	bool inline_frames;          /* look up inlined functions */
};

/* One user frame. */
struct unwind_frame {
	uint64_t pc;                 /* the leaf's PC, then return addresses */
	bool activation;             /* pc is exact; false: look up pc - 1 */
	unsigned ninline;            /* inlined functions at this address */
	const char *const *inlined;  /* their names, innermost first; owned by
					the unwinder, valid until its next
					unwind_sample */
};

/* How an unwind ended. */
enum unwind_result {
	UNWIND_NONE,                 /* nothing to unwind (no regs, no stack,
					not x86_64, no usable Dwfl) */
	UNWIND_COMPLETE,             /* reached the outermost frame */
	UNWIND_TRUNCATED,            /* stopped early: no CFI, stack copy too
					small, unknown code; frames kept */
	UNWIND_DEPTH,                /* cut at max_depth */
};

struct unwind_stats {
	uint64_t samples;            /* unwinds attempted */
	uint64_t complete;           /* UNWIND_COMPLETE */
	uint64_t truncated;          /* UNWIND_TRUNCATED */
	uint64_t depth_limited;      /* UNWIND_DEPTH */
	uint64_t none;               /* UNWIND_NONE */
	uint64_t frames;             /* frames returned */
	uint64_t inline_frames;      /* inlined names returned */
	uint64_t inline_lookups;     /* DWARF scope lookups (cache misses) */
	uint64_t attach_failures;    /* Dwfls libdwfl would not attach to */
};

struct unwinder *unwind_create(const struct unwind_opts *o);
void unwind_destroy(struct unwinder *u);

/*
 * Unwind the user stack of sample s in the process's Dwfl (NULL: none).
 * Returns the number of frames, leaf first, in *frames (valid until the
 * next call), and how it ended in *res (may be NULL).  0 frames means the
 * caller should fall back to the sample's callchain or IP.
 */
size_t unwind_sample(struct unwinder *u, Dwfl *dwfl,
		     const struct pe_sample *s,
		     const struct unwind_frame **frames,
		     enum unwind_result *res);

const struct unwind_stats *unwind_stats(const struct unwinder *u);

/*
 * The sample's user registers in DWARF order (x86_64: rax, rdx, rcx, rbx,
 * rsi, rdi, rbp, rsp, r8..r15, rip); *have gets one bit per register
 * present.  False when the sample has no 64-bit user registers.
 */
bool unwind_dwarf_regs(const struct pe_sample *s, uint64_t regs[17],
		       uint32_t *have);

/*
 * Parse the SIZE of "--call-graph dwarf,SIZE" (bytes, K suffix allowed):
 * rounded up to a multiple of 8, at most UNWIND_STACK_MAX.  0 and the size,
 * or -1 with a message in err.
 */
int unwind_parse_stack_size(const char *s, unsigned *size, char *err,
			    size_t errcap);

#endif
