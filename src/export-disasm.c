/*
 * export-disasm.c - --annotate NAME --disasm: a function's instructions,
 * each with its self and total weight and share of the profile, the
 * source line above each run of instructions from it, branch targets
 * named.
 *
 *   mix (/tmp/prog) self 944.0 ms 94.4%, total 999.5 ms 99.9%
 *          self  self%     total total%  address  instruction
 *                                                 prog.c:27  a ^= a / (i | 3);
 *               .      .         .      .     11f1  divq %rcx
 *   *  561.0 ms  56.1%  561.0 ms  56.1%     11f4  xorq %rax, %rbx
 *                                                 prog.c:29  a += step(a);
 *              .      .   55.0 ms   5.5%     11fc  callq 0x1181 <step>
 *
 * Weights come from the address tables (profile-addr.h): a row's self
 * weight belongs to the instruction at its address; the rest of its total
 * is time spent in a call that returns there, and is shown on the call
 * (the instruction that ends right at the return address) when there is
 * one.  A '*' marks the hottest instructions, chosen as export-annotate.c
 * chooses lines.  Addresses are the ELF's, in hex as objdump shows them.
 * A function whose range the symbols do not give (a stripped file) is
 * disassembled from its lowest sampled address to its highest.
 */
#include "export-annotate-priv.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "diag.h"
#include "disasm.h"
#include "profile-addr.h"
#include "profile.h"
#include "symbols.h"
#include "textfmt.h"
#include "util.h"

/* x86-64's longest instruction: past the last sampled address. */
#define INSN_MAX 15u

struct iweight {
	uint64_t self, total;
};

/* Spread rows over dis's instructions; weight outside them in *outside. */
static void weigh(const struct disasm *dis, const struct paddr_row *rows,
		  size_t n, struct iweight *w, uint64_t *outside)
{
	*outside = 0;
	for (size_t i = 0; i < n; i++) {
		const struct disasm_insn *in = disasm_find(dis, rows[i].addr);
		uint64_t calls = rows[i].total - rows[i].self;
		size_t k;

		if (!in) {
			*outside += rows[i].total;
			continue;
		}
		k = (size_t)(in - dis->insn);
		w[k].self += rows[i].self;
		w[k].total += rows[i].self;
		/* The call that returns to this address, if it is one. */
		if (calls && in->addr == rows[i].addr && k > 0 &&
		    dis->insn[k - 1].call)
			k--;
		w[k].total += calls;
	}
}

/* The text of path's line as an read it, or NULL. */
static const char *source_text(const struct annotation *an, const char *path,
			       unsigned line, size_t *len)
{
	for (size_t i = 0; i < an->nfiles; i++)
		if (strcmp(an->files[i].path, path) == 0) {
			struct ann_line l = { .file = (uint32_t)i,
					      .line = line };

			return ann_text(an, &l, len);
		}
	return NULL;
}

static void print_source(FILE *out, const struct disasm_insn *in,
			 const struct annotation *an)
{
	char esc[1024];
	size_t n = 0;
	const char *t = source_text(an, in->file, in->line, &n);

	textfmt_escape(in->base, strlen(in->base), esc, sizeof(esc));
	fprintf(out, "%46s%s:%u", "", esc, in->line);
	/* The text without its indentation: the address column shows order. */
	while (t && n && (*t == ' ' || *t == '\t')) {
		t++;
		n--;
	}
	if (t && n) {
		fputs("  ", out);
		export_print_text(out, t, n);
	}
	fputc('\n', out);
}

static void print_insn(FILE *out, const struct profile *p,
		       const struct disasm_insn *in, const struct iweight *w,
		       uint64_t grand, uint64_t hot)
{
	char esc[1024];

	fputc(w->self && w->self >= hot ? '*' : ' ', out);
	export_weight_cell(out, p, w->self, grand);
	export_weight_cell(out, p, w->total, grand);
	fprintf(out, " %8" PRIx64 "  %s", in->addr, in->text);
	if (in->target_name) {
		textfmt_escape(in->target_name, strlen(in->target_name), esc,
			       sizeof(esc));
		fprintf(out, " <%s>", esc);
	}
	fputc('\n', out);
}

/*
 * The function's code range: from the tables or its symbol (1), else the
 * sampled addresses (2: the bounds are a guess); 0 when no row places it.
 */
static int code_range(struct symbolizer *sy, struct sym_dso *d,
		      const struct paddr_func *f, const struct paddr_row *rows,
		      size_t n, uint64_t *start, uint64_t *end)
{
	if (f->end > f->start) {
		*start = f->start;
		*end = f->end;
		return 1;
	}
	if (!n)
		return 0;
	if (sym_dso_func_range(sy, d, rows[0].addr, start, end))
		return 1;
	*start = rows[0].addr;
	*end = rows[n - 1].addr + INSN_MAX;
	return 2;
}

int export_disasm_one(FILE *out, const struct profile *p,
		      const struct paddr *a, const struct annotation *an,
		      struct diag *d)
{
	const struct paddr_func *f = paddr_func_get(a, an->func);
	const struct paddr_row *rows = an->rows;
	uint64_t self = an->self, start, end, outside, hot;
	uint64_t grand = an->grand;
	size_t n = an->nrows;
	struct disasm *dis = NULL;
	struct iweight *w;
	char err[1024], name[1024];
	const char *file = NULL;
	unsigned line = 0;
	int range = 0;

	textfmt_escape(f->name, strlen(f->name), name, sizeof(name));
	export_annotate_header(out, p, an->name, an->module, an->self,
			       an->total, grand);
	if (an->refused) {
		diag_warn(d, "%s", an->why);
	} else if (!f->dso || !f->sym || !f->elf_vaddr) {
		diag_warn(d, "--disasm: %s: its code is in no ELF file that "
			  "the input names", name);
	} else if (!(range = code_range(f->sym, f->dso, f, rows, n, &start,
					&end))) {
		diag_warn(d, "--disasm: %s: no address known", name);
	} else if (!(dis = disasm_function(f->sym, f->dso,
					   range == 1 ? f->name : NULL, start,
					   end, err, sizeof(err)))) {
		char esc[1024];

		textfmt_escape(err, strlen(err), esc, sizeof(esc));
		diag_warn(d, "--disasm: %s: %s", name, esc);
	}
	if (!dis) {
		fputc('\n', out);
		return 1;
	}
	/* Past the last sampled instruction, a guessed range stops there. */
	if (range == 2) {
		const struct disasm_insn *last = disasm_find(dis,
							     rows[n - 1].addr);

		if (last)
			dis->n = (size_t)(last - dis->insn) + 1;
		diag_warn(d, "--disasm: %s: no symbol gives its bounds: from "
			  "its first sampled instruction to its last", name);
	}
	if (!an->has_lines)
		diag_warn(d, "%s: instructions only", an->why);
	w = xcalloc(dis->n ? dis->n : 1, sizeof(*w));
	weigh(dis, rows, n, w, &outside);
	{
		uint64_t *selfs = xmalloc((dis->n ? dis->n : 1) *
					  sizeof(*selfs));

		for (size_t i = 0; i < dis->n; i++)
			selfs[i] = w[i].self;
		hot = export_hot_floor(selfs, dis->n, self);
		free(selfs);
	}
	fprintf(out, "  %9s %6s %9s %6s %8s  %s\n", "self", "self%", "total",
		"total%", "address", "instruction");
	for (size_t i = 0; i < dis->n; i++) {
		const struct disasm_insn *in = &dis->insn[i];

		if (in->line && (in->line != line || !file ||
				 strcmp(in->file, file) != 0))
			print_source(out, in, an);
		file = in->file;
		line = in->line;
		print_insn(out, p, in, &w[i], grand, hot);
	}
	if (outside) {
		fputc(' ', out);
		export_weight_cell(out, p, 0, grand);
		export_weight_cell(out, p, outside, grand);
		fputs("        ?  (addresses outside the code shown)\n", out);
	}
	fputc('\n', out);
	free(w);
	disasm_destroy(dis);
	return 0;
}
