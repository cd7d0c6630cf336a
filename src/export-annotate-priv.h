/*
 * export-annotate-priv.h - what --annotate's two printers share:
 * export-annotate.c (source lines) lends its cells, text and hot marks to
 * export-disasm.c (--disasm: instructions), so that both read alike.
 * Only those two files include it.
 */
#ifndef FLAMETOP_EXPORT_ANNOTATE_PRIV_H
#define FLAMETOP_EXPORT_ANNOTATE_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ann_opts;
struct annotation;
struct diag;
struct paddr;
struct profile;

/* "NAME (MODULE) self AMOUNT S%, total AMOUNT T%": the first line. */
void export_annotate_header(FILE *out, const struct profile *p,
			    const char *name, const char *module,
			    uint64_t self, uint64_t total, uint64_t grand);
/* One weight and its share of grand, or "." for none (17 columns). */
void export_weight_cell(FILE *out, const struct profile *p, uint64_t w,
			uint64_t grand);
/* Source text escaped like frame names, tabs to the next multiple of 8. */
void export_print_text(FILE *out, const char *s, size_t n);
/*
 * The self weight from which a row is marked hot ('*'): the three
 * heaviest of w[0..n), and any of at least a tenth of self.
 */
uint64_t export_hot_floor(const uint64_t *w, size_t n, uint64_t self);

/*
 * --disasm: the instructions of an's function, with the source text an
 * read (o: where binaries named but not read are, --symfs).  Returns 0, or 1 when it could not be disassembled (why in d).
 */
int export_disasm_one(FILE *out, const struct profile *p,
		      const struct paddr *a, const struct annotation *an,
		      const struct ann_opts *o, struct diag *d);

#endif
