/*
 * read-pprof-addr.c - a pprof profile's addresses for the address tables
 * (profile-addr.h).
 *
 * Each location gives one frame per line, outermost first, as its names
 * do (read-pprof.c's expand_locations): each is (function, the location's
 * address), and its line, from the profile, goes with it (paddr_set_line),
 * so that annotation needs no binary.  A location without an address (a
 * profile converted from elsewhere) is told apart by its id, above 2^63.
 * A function is (mapping file, name).  After the stacks are known, each
 * becomes a path in the tables (pprof_addr_stacks) where its samples'
 * values go (add_samples).
 */
#include "read-pprof-priv.h"

#include <stdlib.h>
#include <string.h>

#include "profile-addr.h"
#include "util.h"

#define NO_ADDRESS (1ULL << 63)

/* The mapping file of a location: its text, or "" (copied into buf). */
static const char *mapping_file(struct pp *pp, const PLocation *l, char *buf,
				size_t cap)
{
	int64_t mi = index_find(&pp->maps, l->mapping_id);
	const ProtobufCBinaryData *s;
	size_t n;

	buf[0] = 0;
	if (mi < 0 || !pp->m->mapping[mi]->filename)
		return buf;
	s = string_at(pp, pp->m->mapping[mi]->filename);
	if (!s || !s->len)
		return buf;
	n = s->len < cap - 1 ? s->len : cap - 1;
	memcpy(buf, s->data, n);
	buf[n] = 0;
	/* A NUL inside would cut the name anyway: "" rather than a part. */
	if (memchr(buf, 0, n))
		buf[0] = 0;
	return buf;
}

/* The paddr function of pprof function index f in module mod. */
static uint32_t func_of(struct pp *pp, size_t f, const char *mod)
{
	const struct symtab *st = profile_symtab(pp->p);
	uint32_t sym = pp->fn_sym[f] - 1;   /* set by expand_locations */
	struct paddr_func pf = { 0 };
	const char *name = symtab_name(st, sym);

	pf.name = name;
	pf.module = mod;
	return paddr_func_intern(pp->pa, &pf);
}

void pprof_addr_locations(struct pp *pp)
{
	size_t n = pp->m->n_location, cap = 0;
	char mod[4096];

	pp->pa = profile_paddr(pp->p, true);
	pp->loc_aoff = xreallocarray(NULL, n + 1, sizeof(*pp->loc_aoff));
	pp->naf = 0;
	for (size_t i = 0; i < n; i++) {
		const PLocation *l = pp->m->location[i];
		uint64_t addr = l->address ? l->address : NO_ADDRESS | l->id;

		pp->loc_aoff[i] = (uint32_t)pp->naf;
		mapping_file(pp, l, mod, sizeof(mod));
		for (size_t k = l->n_line; k-- > 0;) {
			int64_t f = index_find(&pp->fns,
					       l->line[k]->function_id);
			const ProtobufCBinaryData *file;
			uint32_t id;

			if (f < 0)
				continue;
			id = func_of(pp, (size_t)f, mod);
			GROW(pp->af, cap, pp->naf + 1);
			pp->af[pp->naf].func = id;
			pp->af[pp->naf++].addr = addr;
			file = pp->m->function[f]->filename
				       ? string_at(pp,
						   pp->m->function[f]->filename)
				       : NULL;
			if (file && file->len && l->line[k]->line > 0 &&
			    l->line[k]->line <= UINT32_MAX) {
				((struct paddr_func *)paddr_func_get(
					 pp->pa, id))->input_lines = true;
				paddr_set_line(pp->pa, id, addr,
					       (const char *)file->data,
					       file->len,
					       (unsigned)l->line[k]->line);
			}
		}
		if (pp->naf == pp->loc_aoff[i]) {
			/* No known function: an unknown frame keeps its place. */
			GROW(pp->af, cap, pp->naf + 1);
			pp->af[pp->naf].func = PADDR_NONE;
			pp->af[pp->naf++].addr = addr;
		}
	}
	pp->loc_aoff[n] = (uint32_t)pp->naf;
}

uint32_t *pprof_addr_stacks(struct pp *pp, const struct stack_set *st)
{
	uint32_t *anode = xreallocarray(NULL, st->n ? st->n : 1,
					sizeof(*anode));
	struct paddr_frame *fr = NULL;
	size_t cap = 0;

	for (size_t k = 0; k < st->n; k++) {
		size_t n = 0;

		for (size_t j = st->start[k]; j < st->start[k + 1]; j++) {
			uint32_t l = st->locs[j];
			size_t a, b;

			if (l & GROUP_LOC)
				continue;
			a = pp->loc_aoff[l];
			b = pp->loc_aoff[l + 1];
			if (n + (b - a) > cap)
				GROW(fr, cap, n + (b - a));
			memcpy(fr + n, pp->af + a, (b - a) * sizeof(*fr));
			n += b - a;
		}
		anode[k] = paddr_add_stack(pp->pa, fr, n, 0);
	}
	free(fr);
	return anode;
}
