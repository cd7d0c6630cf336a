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
 * Code whose bounds no symbol gives (a stripped file's, all under the
 * name "[file]") is shown as runs around its sampled addresses.
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

/* What one listing prints with: the profile, the weights' scale, marks. */
struct listing {
	FILE *out;
	const struct profile *p;
	const struct annotation *an;
	uint64_t grand, hot;
	bool headed;               /* the columns' names are printed */
	struct symbolizer *sy;     /* the function's file, in sy */
	struct sym_dso *dso;
};

/*
 * Print dis with the weights of rows[0..n); returns the weight of rows
 * outside its instructions.
 */
static uint64_t print_listing(struct listing *ls,
			      const struct disasm *dis,
			      const struct paddr_row *rows, size_t n)
{
	struct iweight *w = xcalloc(dis->n ? dis->n : 1, sizeof(*w));
	const char *file = NULL;
	unsigned line = 0;
	uint64_t outside;

	weigh(dis, rows, n, w, &outside);
	if (!ls->headed)
		fprintf(ls->out, "  %9s %6s %9s %6s %8s  %s\n", "self", "self%",
			"total", "total%", "address", "instruction");
	ls->headed = true;
	for (size_t i = 0; i < dis->n; i++) {
		const struct disasm_insn *in = &dis->insn[i];

		if (in->line && (in->line != line || !file ||
				 strcmp(in->file, file) != 0))
			print_source(ls->out, in, ls->an);
		file = in->file;
		line = in->line;
		print_insn(ls->out, ls->p, in, &w[i], ls->grand, ls->hot);
	}
	free(w);
	return outside;
}

/*
 * Code without a symbol for its bounds (a stripped file's, all under one
 * name): each run of sampled addresses less than GAP bytes apart is
 * decoded from its first sampled instruction (an instruction boundary) to
 * its last, and runs are parted by "...", so that the listing grows with
 * the samples, not with the file.  Returns the weight left outside, or
 * UINT64_MAX (with err set) when no run could be decoded.
 */
#define GAP 256u
static uint64_t print_runs(struct listing *ls, const struct paddr_row *rows,
			   size_t n, char *err, size_t cap)
{
	uint64_t outside = 0;
	bool any = false;

	for (size_t i = 0, j; i < n; i = j) {
		struct disasm *dis;
		const struct disasm_insn *last;

		for (j = i + 1; j < n && rows[j].addr - rows[j - 1].addr < GAP;
		     j++)
			;
		dis = disasm_function(ls->sy, ls->dso, NULL, rows[i].addr,
				      rows[j - 1].addr + INSN_MAX, err, cap);
		if (!dis) {
			for (size_t k = i; k < j; k++)
				outside += rows[k].total;
			continue;
		}
		last = disasm_find(dis, rows[j - 1].addr);
		if (last)
			disasm_truncate(dis, (size_t)(last - dis->insn) + 1);
		if (any)
			fprintf(ls->out, "%46s...\n", "");
		outside += print_listing(ls, dis, rows + i, j - i);
		disasm_destroy(dis);
		any = true;
	}
	return any ? outside : UINT64_MAX;
}

/*
 * The listing of f: its bounds from the tables or a symbol, else runs
 * around its samples.  Returns the weight outside what was shown, or
 * UINT64_MAX with err set when nothing could be decoded.
 */
static uint64_t print_function(struct listing *ls, const struct paddr_func *f,
			       const char *name, struct diag *d, char *err,
			       size_t cap)
{
	const struct annotation *an = ls->an;
	uint64_t start = 0, end = 0, outside = UINT64_MAX;
	struct disasm *dis;

	if (f->end > f->start) {
		start = f->start;
		end = f->end;
	} else if (!sym_dso_func_range(ls->sy, ls->dso, an->rows[0].addr,
				       &start, &end)) {
		diag_warn(d, "--disasm: %s: no symbol gives its bounds: each "
			  "run of sampled instructions", name);
		return print_runs(ls, an->rows, an->nrows, err, cap);
	}
	dis = disasm_function(ls->sy, ls->dso, f->name, start, end, err, cap);
	if (dis)
		outside = print_listing(ls, dis, an->rows, an->nrows);
	disasm_destroy(dis);
	return outside;
}

int export_disasm_one(FILE *out, const struct profile *p,
		      const struct paddr *a, const struct annotation *an,
		      const struct ann_opts *o, struct diag *d)
{
	const struct paddr_func *f = paddr_func_get(a, an->func);
	struct listing ls = { out, p, an, an->grand, 1, false, f->sym, f->dso };
	struct symbolizer *own = NULL;
	uint64_t outside = UINT64_MAX;
	uint64_t *selfs;
	char err[1024], name[1024];

	textfmt_escape(an->name, strlen(an->name), name, sizeof(name));
	export_annotate_header(out, p, an->name, an->module, an->self,
			       an->total, an->grand);
	err[0] = '\0';
	/* perf script names its binaries without reading them. */
	if ((!ls.sy || !ls.dso) && f->elf_vaddr && f->module[0] == '/')
		ls.sy = own = ann_file_dso(f, o, &ls.dso);
	if (an->refused) {
		diag_warn(d, "%s", an->why);
	} else if (!ls.dso || !ls.sy || !f->elf_vaddr || !an->nrows) {
		/* pprof: addresses as the profiled process saw them. */
		diag_warn(d, "--disasm: %s: %s", name,
			  !an->nrows ? "no address known"
			  : f->elf_vaddr ? "no file on this machine holds its code"
			  : "the input gives its addresses, not a binary's "
			    "(perf.data, perf script and live sampling do)");
	} else {
		/* The hottest instructions: a row is an instruction's address. */
		selfs = xmalloc(an->nrows * sizeof(*selfs));
		for (size_t i = 0; i < an->nrows; i++)
			selfs[i] = an->rows[i].self;
		ls.hot = export_hot_floor(selfs, an->nrows, an->self);
		free(selfs);
		outside = print_function(&ls, f, name, d, err, sizeof(err));
		if (outside == UINT64_MAX) {
			char esc[1024];

			textfmt_escape(err, strlen(err), esc, sizeof(esc));
			diag_warn(d, "--disasm: %s: %s", name, esc);
		}
	}
	sym_destroy(own);
	if (outside == UINT64_MAX) {
		fputc('\n', out);
		return 1;
	}
	if (!an->has_lines)
		diag_warn(d, "%s: instructions only", an->why);
	if (outside) {
		fputc(' ', out);
		export_weight_cell(out, p, 0, an->grand);
		export_weight_cell(out, p, outside, an->grand);
		fputs("        ?  (addresses outside the code shown)\n", out);
	}
	fputc('\n', out);
	return 0;
}
