/*
 * export-disasm.c - --annotate NAME --disasm: a function's instructions,
 * each with its self and total weight and share of the profile, the
 * source line above each run of instructions from it, branch targets
 * named (the rows: annotate-disasm.c).
 *
 *   mix (/tmp/prog) self 944.0 ms 94.4%, total 999.5 ms 99.9%
 *          self  self%     total total%  address  instruction
 *                                                prog.c:27  a ^= a / (i | 3);
 *               .      .         .      .     11f1  divq %rcx
 *   *  561.0 ms  56.1%  561.0 ms  56.1%     11f4  xorq %rax, %rbx
 *                                                prog.c:29  a += step(a);
 *              .      .   55.0 ms   5.5%     11fc  callq 0x1181 <step>
 *
 * A '*' marks the hottest instructions, chosen as export-annotate.c
 * chooses lines.  Addresses are the ELF's, in hex as objdump shows them;
 * runs of a stripped file's code are parted by "...".
 */
#include "export-annotate-priv.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "annotate-disasm.h"
#include "annotate.h"
#include "diag.h"
#include "profile.h"
#include "textfmt.h"
#include "util.h"

/* Where an instruction's text starts: after the mark, cells, address. */
#define TEXT_COL 46

static void print_row(FILE *out, const struct profile *p,
		      const struct annotation *an, const struct adis_row *r,
		      uint64_t hot)
{
	const struct disasm_insn *in = r->in;
	char esc[1024];
	const char *t;
	size_t n;

	switch (r->kind) {
	case ADIS_GAP:
		fprintf(out, "%*s...\n", TEXT_COL, "");
		return;
	case ADIS_SOURCE:
		textfmt_escape(in->base, strlen(in->base), esc, sizeof(esc));
		fprintf(out, "%*s%s:%u", TEXT_COL, "", esc, in->line);
		if ((t = ann_disasm_source(an, r, &n)) != NULL && n) {
			fputs("  ", out);
			export_print_text(out, t, n);
		}
		fputc('\n', out);
		return;
	case ADIS_INSN:
		break;
	}
	fputc(r->self && r->self >= hot ? '*' : ' ', out);
	export_weight_cell(out, p, r->self, an->grand);
	export_weight_cell(out, p, r->total, an->grand);
	fprintf(out, " %8" PRIx64 "  %s", in->addr, in->text);
	if (in->target_name) {
		textfmt_escape(in->target_name, strlen(in->target_name), esc,
			       sizeof(esc));
		fprintf(out, " <%s>", esc);
	}
	fputc('\n', out);
}

int export_disasm_one(FILE *out, const struct profile *p,
		      const struct paddr *a, const struct annotation *an,
		      const struct ann_opts *o, struct diag *d)
{
	struct ann_disasm *ad = ann_disasm_build(a, an, o);
	char name[1024], why[1024];
	uint64_t *selfs, hot;
	size_t k = 0;

	textfmt_escape(an->name, strlen(an->name), name, sizeof(name));
	textfmt_escape(ad->why, strlen(ad->why), why, sizeof(why));
	export_annotate_header(out, p, an->name, an->module, an->self,
			       an->total, an->grand);
	if (!ad->nrows) {
		if (an->refused)
			diag_warn(d, "%s", why);
		else
			diag_warn(d, "--disasm: %s: %s", name, why);
		fputc('\n', out);
		ann_disasm_free(ad);
		return 1;
	}
	if (ad->runs)
		diag_warn(d, "--disasm: %s: %s", name, why);
	if (!an->has_lines)
		diag_warn(d, "%s: instructions only", an->why);
	/* The hottest instructions, by self weight. */
	selfs = xmalloc(ad->nrows * sizeof(*selfs));
	for (size_t i = 0; i < ad->nrows; i++)
		if (ad->rows[i].kind == ADIS_INSN)
			selfs[k++] = ad->rows[i].self;
	hot = export_hot_floor(selfs, k, an->self);
	free(selfs);
	fprintf(out, "  %9s %6s %9s %6s %8s  %s\n", "self", "self%", "total",
		"total%", "address", "instruction");
	for (size_t i = 0; i < ad->nrows; i++)
		print_row(out, p, an, &ad->rows[i], hot);
	if (ad->outside) {
		fputc(' ', out);
		export_weight_cell(out, p, 0, an->grand);
		export_weight_cell(out, p, ad->outside, an->grand);
		fputs("        ?  (addresses outside the code shown)\n", out);
	}
	fputc('\n', out);
	ann_disasm_free(ad);
	return 0;
}
