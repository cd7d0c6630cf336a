/*
 * annotate-disasm.h - a function's instructions with their weights, as
 * rows to print (--annotate NAME --disasm) or to draw (the view's
 * annotation, switched to its instructions).
 *
 * Built from an annotation (annotate.h: the function's address rows, its
 * source text) and the function's file: disasm.c decodes the code, each
 * address row's self weight goes to the instruction that holds it, and
 * the rest of its total (samples in a callee that return there) to the
 * call that ends at that address.  A run of instructions from one source
 * line is preceded by a row for that line.  Code whose bounds no symbol
 * gives (a stripped file's, one function "[file]") is decoded in runs
 * around its sampled addresses, parted by gap rows, so that the rows grow
 * with the samples and not with the file.
 */
#ifndef FLAMETOP_ANNOTATE_DISASM_H
#define FLAMETOP_ANNOTATE_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "disasm.h"

struct ann_opts;
struct annotation;
struct paddr;
struct symbolizer;

enum adis_kind {
	ADIS_SOURCE,               /* the source line of the rows below */
	ADIS_INSN,                 /* an instruction */
	ADIS_GAP,                  /* code not shown between two runs */
};

struct adis_row {
	enum adis_kind kind;
	const struct disasm_insn *in;  /* ADIS_INSN: it; ADIS_SOURCE: the
	                                  first of the run (file, base, line) */
	uint64_t self, total;      /* ADIS_INSN: its weights */
};

struct ann_disasm {
	struct adis_row *rows;
	size_t nrows;              /* 0: nothing decoded (why says why) */
	uint64_t outside;          /* weight at addresses not shown */
	bool runs;                 /* no symbol bounds: runs around samples */
	char why[1024];            /* nothing decoded, or runs: why (raw) */
	struct disasm **parts;     /* what the rows point into */
	size_t nparts;
	struct symbolizer *own;    /* a file opened for it (perf script) */
	struct jitdump *jit;       /* JIT code's dump, read for it */
};

/*
 * The instructions of an's function, found in a's tables; o says where
 * binaries that the input named without reading are (--symfs).
 */
struct ann_disasm *ann_disasm_build(const struct paddr *a,
				    const struct annotation *an,
				    const struct ann_opts *o);
void ann_disasm_free(struct ann_disasm *ad);

/*
 * The text of an ADIS_SOURCE row's line as an read it, without its
 * indentation (raw, for the caller to escape), or NULL.
 */
const char *ann_disasm_source(const struct annotation *an,
			      const struct adis_row *r, size_t *len);

#endif
