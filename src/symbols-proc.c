/*
 * symbols-proc.c - a Dwfl per process for the DWARF unwinder: every
 * mapped ELF reported at its load address, built from the process table's
 * maps on first use and grown (or rebuilt) when they change.
 */
#include "symbols.h"

#include <stdlib.h>
#include <string.h>

#include "perf-procs.h"
#include "symbols-priv.h"
#include "util.h"

/* ---- Per-process Dwfl ------------------------------------------------------ */

static bool was_reported(const struct proc_state *ps, const struct sym_dso *d,
			 uint64_t bias)
{
	for (size_t i = 0; i < ps->nrep; i++)
		if (ps->rep[i].dso == d && ps->rep[i].bias == bias)
			return true;
	return false;
}

/*
 * Maps only added to since the last build: report the new files into the
 * same Dwfl (its attached unwinder state and loaded CFI stay).  Anything
 * else: a new Dwfl.  libdwfl cannot re-report a module it holds: a second
 * dwfl_report_elf of the same file fails as an overlap and drops it.
 */
Dwfl *sym_proc_dwfl(struct symbolizer *sy, struct pe_proc *pr)
{
	void **slot = pe_proc_sym_slot(pr);
	struct proc_state *ps = *slot;
	const struct pe_map *maps;
	struct reported *want = NULL;
	size_t n, nwant = 0, capwant = 0;
	bool add_only, new_image = false;

	if (!ps) {
		ps = xcalloc(1, sizeof(*ps));
		ps->stale = true;
		*slot = ps;
	}
	if (!ps->stale) {
		if (ps->nrep)        /* JIT code compiled since */
			sym_jitdump_report_cfi(sy, pe_proc_pid(pr), ps->dwfl,
					       false);
		return ps->nrep ? ps->dwfl : NULL;
	}
	maps = pe_proc_maps(pr, &n);
	/*
	 * After an exec the old image's maps stay for symbols, but in the
	 * Dwfl their modules would overlap the new image's: once the new
	 * image has a file mapped, leave the old one out.
	 */
	for (size_t i = 0; i < n && !new_image; i++)
		new_image = maps[i].dso && !maps[i].before_exec;
	for (size_t i = 0; i < n; i++) {
		struct sym_dso *d = maps[i].dso;
		bool seen = false;
		uint64_t bias = 0;
		bool found = false;

		if (!d || (new_image && maps[i].before_exec))
			continue;
		for (size_t k = 0; k < i; k++)
			if (maps[k].dso == d &&
			    !(new_image && maps[k].before_exec))
				seen = true;
		if (seen)
			continue;
		if (d->state == 0)
			sym_dso_load(sy, d);
		if (d->state < 0 || !d->loaded_from)
			continue;
		/* The bias: where the segment holding pgoff was put. */
		for (size_t s = 0; s < d->nsegs; s++) {
			const struct seg *sg = &d->segs[s];
			uint64_t pg = sg->off & ~(uint64_t)4095;

			if (pg == maps[i].pgoff) {
				bias = maps[i].start -
				       (sg->vaddr & ~(uint64_t)4095);
				found = true;
				break;
			}
		}
		if (!found)
			bias = maps[i].start - maps[i].pgoff;
		GROW(want, capwant, nwant + 1);
		want[nwant].dso = d;
		want[nwant++].bias = bias;
	}
	add_only = ps->dwfl != NULL;
	for (size_t i = 0; i < ps->nrep && add_only; i++) {
		bool kept = false;

		for (size_t k = 0; k < nwant && !kept; k++)
			kept = want[k].dso == ps->rep[i].dso &&
			       want[k].bias == ps->rep[i].bias;
		add_only = kept;
	}
	if (!add_only) {
		if (ps->dwfl)
			dwfl_end(ps->dwfl);
		ps->dwfl = dwfl_begin(&sym_dwfl_callbacks);
		ps->nrep = 0;
		if (!ps->dwfl) {
			free(want);
			return NULL;
		}
	}
	dwfl_report_begin_add(ps->dwfl);
	for (size_t i = 0; i < nwant; i++) {
		struct sym_dso *d = want[i].dso;

		int fd = -1;

		if (was_reported(ps, d, want[i].bias))
			continue;
		/* The vdso has CFI too: ours, in memory (libdwfl owns fd). */
		if (strcmp(d->loaded_from, "[vdso]") == 0 &&
		    (fd = sym_vdso_fd(sy)) < 0)
			continue;
		if (dwfl_report_elf(ps->dwfl, d->base, d->loaded_from, fd,
				    want[i].bias, true)) {
			GROW(ps->rep, ps->caprep, ps->nrep + 1);
			ps->rep[ps->nrep++] = want[i];
		}
	}
	dwfl_report_end(ps->dwfl, NULL, NULL);
	free(want);
	ps->stale = false;
	if (ps->nrep)
		sym_jitdump_report_cfi(sy, pe_proc_pid(pr), ps->dwfl,
				       !add_only);
	return ps->nrep ? ps->dwfl : NULL;
}

void sym_proc_release(struct symbolizer *sy, void *state)
{
	struct proc_state *ps = state;

	(void)sy;
	if (!ps)
		return;
	if (ps->dwfl)
		dwfl_end(ps->dwfl);
	free(ps->rep);
	free(ps);
}

void sym_proc_maps_changed(struct symbolizer *sy, struct pe_proc *pr)
{
	struct proc_state *ps = *pe_proc_sym_slot(pr);

	(void)sy;
	if (ps)
		ps->stale = true;
}
