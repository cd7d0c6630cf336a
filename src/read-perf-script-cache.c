/*
 * read-perf-script-cache.c - a perf script reader's caches and records.
 *
 * The same frame lines come back sample after sample, so each line is
 * tidied and interned once and cached with the ids it became (and the
 * line that followed it, tried first next time: the look-ups are inline
 * in read-perf-script-priv.h); whole stacks are cached too, as the node
 * they end at once applied, so a repeated stack costs one lookup instead
 * of a walk down the tree.  Both caches stop growing past a size, which
 * bounds their memory on huge inputs.  A reader's samples and bad lines
 * go to its piece's records, in input order.
 */
#include <stdlib.h>
#include <string.h>

#include "read-perf-script-priv.h"

struct rec *pscript_add_rec(struct reader *r, enum rec_kind kind,
			    int64_t line)
{
	struct piece *pc = r->pc;
	struct rec *x;

	if (pc->nrecs == pc->caprecs)
		GROW(pc->recs, pc->caprecs, pc->nrecs + 1);
	x = &pc->recs[pc->nrecs++];
	x->kind = kind;
	x->line = line;
	return x;
}

static void fslots_grow(struct reader *r)
{
	size_t nmask = r->fmask ? r->fmask * 2 + 1 : 1023;
	struct fslot *ns = xcalloc_table(nmask + 1, sizeof(*ns));

	for (size_t i = 0; i < r->nfe; i++) {
		size_t key = r->fe[i].key;
		size_t j = (size_t)fkey_at(r, key)->hash & nmask;

		while (ns[j].e)
			j = (j + 1) & nmask;
		ns[j].e = (uint32_t)i + 1;
		ns[j].key8 = (uint32_t)(key / 8);
	}
	free(r->fslots);
	r->fslots = ns;
	r->fmask = nmask;
}

void pscript_cache_add(struct reader *r, const char *k, size_t n, uint64_t h,
		       size_t ids, uint32_t count)
{
	/* Keys start 8-aligned, so that their struct fkey can be read. */
	size_t key = (r->nkeys + 7) & ~(size_t)7;
	size_t need = sizeof(struct fkey) + n;
	struct fkey fk = { h, (uint32_t)n, r->java };
	struct fentry *x;
	size_t j;

	if (n > UINT32_MAX || key + need > r->max_keys ||
	    key / 8 > UINT32_MAX || r->nfe >= UINT32_MAX - 1)
		return;
	if ((r->nfe + 1) * 2 > r->fmask)
		fslots_grow(r);
	GROW(r->fe, r->capfe, r->nfe + 1);
	GROW(r->keys, r->capkeys, key + need);
	x = &r->fe[r->nfe];
	x->key = key;
	x->ids = ids;
	x->n = count;
	x->next = 0;
	x->nextkey = 0;
	memcpy(r->keys + key, &fk, sizeof(fk));
	memcpy(r->keys + key + sizeof(fk), k, n);
	r->nkeys = key + need;
	for (j = (size_t)h & r->fmask; r->fslots[j].e; j = (j + 1) & r->fmask)
		;
	r->fslots[j].e = (uint32_t)++r->nfe;
	r->fslots[j].key8 = (uint32_t)(key / 8);
	link_line(r, (uint32_t)r->nfe);
}

/* ---- Stacks ---------------------------------------------------------- */

static void sslots_grow(struct reader *r)
{
	size_t nmask = r->smask ? r->smask * 2 + 1 : 1023;
	uint32_t *ns = xcalloc_table(nmask + 1, sizeof(*ns));

	for (size_t i = 0; i < r->nse; i++) {
		size_t j = (size_t)r->se[i].hash & nmask;

		while (ns[j])
			j = (j + 1) & nmask;
		ns[j] = (uint32_t)i + 1;
	}
	free(r->sslots);
	r->sslots = ns;
	r->smask = nmask;
}

/* The stack's index in the cache (added if new), or NO_STACK when full. */
static uint32_t stack_index(struct reader *r, const uint32_t *ids, size_t n)
{
	uint64_t h = hash_bytes(ids, n * sizeof(*ids));
	size_t j;
	struct sentry *e;

	if (r->smask) {
		for (j = (size_t)h & r->smask; r->sslots[j];
		     j = (j + 1) & r->smask) {
			const struct sentry *x = &r->se[r->sslots[j] - 1];

			if (x->hash == h && x->n == n &&
			    memcmp(r->sids + x->ids, ids, n * sizeof(*ids)) == 0)
				return r->sslots[j] - 1;
		}
	}
	if (r->nsids + n > r->max_ids || r->nse >= UINT32_MAX - 1)
		return NO_STACK;
	if ((r->nse + 1) * 2 > r->smask)
		sslots_grow(r);
	GROW(r->se, r->capse, r->nse + 1);
	GROW(r->sids, r->capsids, r->nsids + n);
	e = &r->se[r->nse];
	e->hash = h;
	e->ids = r->nsids;
	e->n = (uint32_t)n;
	e->node = NO_NODE;
	memcpy(r->sids + r->nsids, ids, n * sizeof(*ids));
	r->nsids += n;
	for (j = (size_t)h & r->smask; r->sslots[j]; j = (j + 1) & r->smask)
		;
	r->sslots[j] = (uint32_t)++r->nse;
	return (uint32_t)r->nse - 1;
}

/* A blank line: the sample is complete. */
void pscript_end_sample(struct reader *r)
{
	size_t n = r->nframes + 1;
	struct piece *pc = r->pc;
	struct rec *x;

	if (!r->in_sample)
		return;
	r->in_sample = false;
	if (n > PROFILE_MAX_DEPTH - 1) {
		pscript_add_rec(r, REC_DEEP, r->event_line);
		r->nframes = 0;
		r->naf = 0;
		return;
	}
	if (n > r->capstack)
		GROW(r->stack, r->capstack, n);
	r->stack[0] = r->pname;
	for (size_t i = 0; i < r->nframes; i++)
		r->stack[n - 1 - i] = r->frames[i];
	r->nframes = 0;
	x = pscript_add_rec(r, REC_SAMPLE, r->event_line);
	/* The address frames, root first (a piece's own: they vary). */
	if (pc->nafr + r->naf > pc->capafr)
		GROW(pc->afr, pc->capafr, pc->nafr + r->naf);
	for (size_t i = 0; i < r->naf; i++)
		pc->afr[pc->nafr + i] = r->af[r->naf - 1 - i];
	x->aoff = pc->nafr;
	x->an = (uint32_t)r->naf;
	pc->nafr += r->naf;
	r->naf = 0;
	x->weight = r->period;
	x->meta = r->meta;
	x->stack = stack_index(r, r->stack, n);
	x->n = (uint32_t)n;
	if (x->stack == NO_STACK) {
		GROW(pc->ids, pc->capids, pc->nids + n);
		memcpy(pc->ids + pc->nids, r->stack, n * sizeof(*r->stack));
		x->off = pc->nids;
		pc->nids += n;
	}
}

void pscript_drop_sample(struct reader *r)
{
	r->filtered = true;
	r->in_sample = false;
	r->nframes = 0;
	r->naf = 0;
}

void pscript_reader_free(struct reader *r)
{
	free(r->frames);
	free(r->af);
	if (r->afns)
		symtab_destroy(r->afns);
	free(r->afgid);
	free(r->stack);
	if (r->names)
		symtab_destroy(r->names);
	floc_destroy(r->locs);
	free(r->gid);
	free(r->lastroot);
	free(r->ptail);
	free(r->buf);
	free(r->fe);
	free(r->fslots);
	free(r->keys);
	free(r->fids);
	free(r->se);
	free(r->sslots);
	free(r->sids);
}
