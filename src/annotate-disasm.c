/*
 * annotate-disasm.c - a function's instructions with their weights, as
 * rows (see annotate-disasm.h).
 */
#include "annotate-disasm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "jitdump.h"
#include "profile-addr.h"
#include "symbols.h"
#include "util.h"

/* x86-64's longest instruction: past the last sampled address. */
#define INSN_MAX 15u
/* Sampled addresses closer than this are one run (code without bounds). */
#define RUN_GAP 256u

struct builder {
	struct ann_disasm *ad;
	size_t cap, capparts;
	struct symbolizer *sy;
	struct sym_dso *dso;
};

static struct adis_row *add_row(struct builder *b, enum adis_kind k,
				const struct disasm_insn *in)
{
	struct adis_row *r;

	GROW(b->ad->rows, b->cap, b->ad->nrows + 1);
	r = &b->ad->rows[b->ad->nrows++];
	r->kind = k;
	r->in = in;
	r->self = r->total = 0;
	return r;
}

/*
 * Rows for dis (kept by ad), weighed by rows[0..n): a row's self on the
 * instruction holding its address, the rest of its total on the call
 * that returns there.  Weight outside dis adds to ad->outside.
 */
static void add_part(struct builder *b, struct disasm *dis,
		     const struct paddr_row *rows, size_t n)
{
	struct ann_disasm *ad = b->ad;
	size_t first = ad->nrows;
	size_t *at = xmalloc((dis->n ? dis->n : 1) * sizeof(*at));
	const char *file = NULL;
	unsigned line = 0;

	GROW(ad->parts, b->capparts, ad->nparts + 1);
	ad->parts[ad->nparts++] = dis;
	if (first)
		add_row(b, ADIS_GAP, NULL);
	for (size_t i = 0; i < dis->n; i++) {
		const struct disasm_insn *in = &dis->insn[i];

		if (in->line && (in->line != line || !file ||
				 strcmp(in->file, file) != 0))
			add_row(b, ADIS_SOURCE, in);
		file = in->file;
		line = in->line;
		at[i] = ad->nrows;
		add_row(b, ADIS_INSN, in);
	}
	for (size_t i = 0; i < n; i++) {
		const struct disasm_insn *in = disasm_find(dis, rows[i].addr);
		uint64_t calls = rows[i].total - rows[i].self;
		size_t k;

		if (!in) {
			ad->outside += rows[i].total;
			continue;
		}
		k = (size_t)(in - dis->insn);
		ad->rows[at[k]].self += rows[i].self;
		ad->rows[at[k]].total += rows[i].self;
		/* The call that returns to this address, if it is one. */
		if (calls && in->addr == rows[i].addr && k > 0 &&
		    dis->insn[k - 1].call)
			k--;
		ad->rows[at[k]].total += calls;
	}
	free(at);
}

/* Each run of sampled addresses, decoded from its first to its last. */
static void add_runs(struct builder *b, const struct paddr_row *rows,
		     size_t n)
{
	struct ann_disasm *ad = b->ad;

	ad->runs = true;
	for (size_t i = 0, j; i < n; i = j) {
		struct disasm *dis;
		const struct disasm_insn *last;
		char err[sizeof(ad->why)];

		for (j = i + 1;
		     j < n && rows[j].addr - rows[j - 1].addr < RUN_GAP; j++)
			;
		dis = disasm_function(b->sy, b->dso, NULL, rows[i].addr,
				      rows[j - 1].addr + INSN_MAX, err,
				      sizeof(err));
		if (!dis) {
			for (size_t k = i; k < j; k++)
				ad->outside += rows[k].total;
			if (!ad->nrows)
				memcpy(ad->why, err, sizeof(ad->why));
			continue;
		}
		last = disasm_find(dis, rows[j - 1].addr);
		if (last)
			disasm_truncate(dis, (size_t)(last - dis->insn) + 1);
		add_part(b, dis, rows + i, j - i);
	}
	if (ad->nrows)
		snprintf(ad->why, sizeof(ad->why), "no symbol gives its "
			 "bounds: each run of sampled instructions");
}

/* The instructions of n rows' piece of JIT code c, lines from its dump. */
static bool add_jit_piece(struct builder *b, struct jitdump *jd,
			  const struct jitdump_code *c, const char *name,
			  const struct paddr_row *rows, size_t n)
{
	struct ann_disasm *ad = b->ad;
	size_t len;
	uint8_t *code = jitdump_code_bytes(jd, c, &len);
	struct disasm *dis = NULL;

	if (!code) {
		snprintf(ad->why, sizeof(ad->why), "JIT-compiled code: %s holds "
			 "no instructions of it", jitdump_name(jd));
	} else {
		dis = disasm_code(jitdump_info(jd)->elf_mach, code, len,
				  c->start, name, jitdump_name(jd), ad->why,
				  sizeof(ad->why));
	}
	free(code);
	if (!dis)
		return false;
	for (size_t i = 0; i < dis->n; i++) {
		struct disasm_insn *in = &dis->insn[i];
		const char *file, *slash;

		if (jitdump_line(jd, in->addr, c->load_time, &file, &in->line)) {
			slash = strrchr(file, '/');
			in->file = file;
			in->base = slash ? slash + 1 : file;
		}
	}
	add_part(b, dis, rows, n);
	return true;
}

/*
 * JIT code named by its jitdump: each piece of code that held sampled
 * addresses (the latest loaded under the function's name), decoded from
 * the bytes the runtime wrote into the dump.  A perf-PID.map holds names
 * only.
 */
static void add_jit(struct builder *b, const struct paddr_func *f,
		    const struct paddr_row *rows, size_t n)
{
	struct ann_disasm *ad = b->ad;
	struct jitdump *jd;
	uint64_t lost = 0;

	if (!sym_is_jitdump(f->module, strlen(f->module))) {
		snprintf(ad->why, sizeof(ad->why), "JIT-compiled code named by "
			 "%s, which holds no instructions", f->module);
		return;
	}
	if (!(jd = jitdump_open(f->module, 0, ad->why, sizeof(ad->why))))
		return;
	ad->jit = jd;
	jitdump_update(jd);
	jitdump_finish(jd);
	if (!jitdump_info(jd)) {
		snprintf(ad->why, sizeof(ad->why), "%s: not a jitdump",
			 f->module);
		return;
	}
	/* rows are in address order: a piece's are one run of them. */
	for (size_t i = 0, j; i < n; i = j) {
		struct jitdump_code c;

		if (!jitdump_code_at(jd, rows[i].addr, f->name, &c)) {
			lost += rows[i].total;
			j = i + 1;
			continue;
		}
		for (j = i + 1; j < n && rows[j].addr < c.end; j++)
			;
		if (!add_jit_piece(b, jd, &c, f->name, rows + i, j - i))
			for (size_t k = i; k < j; k++)
				lost += rows[k].total;
	}
	ad->outside += lost;
}

struct ann_disasm *ann_disasm_build(const struct paddr *a,
				    const struct annotation *an,
				    const struct ann_opts *o)
{
	const struct paddr_func *f = paddr_func_get(a, an->func);
	struct ann_disasm *ad = xcalloc(1, sizeof(*ad));
	struct builder b = { ad, 0, 0, f->sym, f->dso };
	uint64_t start = 0, end = 0;
	struct disasm *dis;

	/* perf script names its binaries without reading them. */
	if ((!b.sy || !b.dso) && f->elf_vaddr && f->module[0] == '/')
		b.sy = ad->own = ann_file_dso(f, o, &b.dso);
	if (an->refused) {
		snprintf(ad->why, sizeof(ad->why), "%s", an->why);
		return ad;
	}
	if (f->jit && an->nrows) {
		add_jit(&b, f, an->rows, an->nrows);
		return ad;
	}
	if (!b.dso || !b.sy || !f->elf_vaddr || !an->nrows) {
		/* pprof: addresses as the profiled process saw them. */
		snprintf(ad->why, sizeof(ad->why), "%s",
			 !an->nrows ? "no address known"
			 : f->elf_vaddr ? "no file on this machine holds its code"
			 : "the input gives its addresses, not a binary's "
			   "(perf.data, perf script and live sampling do)");
		return ad;
	}
	if (f->end > f->start) {
		start = f->start;
		end = f->end;
	} else if (!sym_dso_func_range(b.sy, b.dso, an->rows[0].addr, &start,
				       &end)) {
		add_runs(&b, an->rows, an->nrows);
		return ad;
	}
	dis = disasm_function(b.sy, b.dso, f->name, start, end, ad->why,
			      sizeof(ad->why));
	if (dis)
		add_part(&b, dis, an->rows, an->nrows);
	return ad;
}

void ann_disasm_free(struct ann_disasm *ad)
{
	if (!ad)
		return;
	for (size_t i = 0; i < ad->nparts; i++)
		disasm_destroy(ad->parts[i]);
	free(ad->parts);
	free(ad->rows);
	/* After the parts: their lines' file names are the symbolizer's
	 * or the jitdump's. */
	sym_destroy(ad->own);
	jitdump_close(ad->jit);
	free(ad);
}

const char *ann_disasm_source(const struct annotation *an,
			      const struct adis_row *r, size_t *len)
{
	const char *t = NULL;

	*len = 0;
	if (r->kind != ADIS_SOURCE || !r->in->file)
		return NULL;
	for (size_t i = 0; i < an->nfiles && !t; i++)
		if (strcmp(an->files[i].path, r->in->file) == 0) {
			struct ann_line l = { .file = (uint32_t)i,
					      .line = r->in->line };

			t = ann_text(an, &l, len);
		}
	/* Without its indentation: the addresses show the order. */
	while (t && *len && (*t == ' ' || *t == '\t')) {
		t++;
		(*len)--;
	}
	return t;
}
