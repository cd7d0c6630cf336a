/*
 * read-pprof-samples.c - a pprof profile's samples, decoded one at a time
 * into the distinct stacks of location indices and a (stack, value) per
 * sample (decode_samples), with the label set each carries.  It calls
 * read-pprof-decode.c, and nothing of read-pprof.c.
 */
#include "read-pprof-priv.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* ---- Labels ------------------------------------------------------------ */

/*
 * Go's pprof.Do and pprof.Labels put string labels (key and value, both
 * string table indices) on samples.  Each sample's labels are kept as a
 * set of (key, value) index pairs, interned in the reader's own table
 * (pp->raw) as it is decoded: samples are many, their sets few, and no
 * string is looked at yet.  After the samples, the strings the sets name
 * are taken in one more walk of the table and the sets interned into the
 * profile's (name_label_sets), where filters and groupings read them.  A
 * numeric label (its value index 0) is not a string label and is passed
 * over, as pprof passes it over for tag filters; one whose key or value
 * index is out of the string table is dropped and counted.
 */

/* The raw set of sample sa's string labels (0: none). */
static uint32_t sample_label_set(struct pp *pp, const PSample *sa)
{
	size_t n = 0;

	if (!sa->n_label)
		return 0;
	if (!pp->raw)
		pp->raw = labels_create();
	GROW(pp->lpairs, pp->caplpairs, 2 * sa->n_label);
	for (size_t i = 0; i < sa->n_label; i++) {
		const Flametop__Pprof__Label *l = sa->label[i];

		if (!l->str)
			continue;
		if (l->key < 0 || (uint64_t)l->key >= pp->nstrings ||
		    l->str < 0 || (uint64_t)l->str >= pp->nstrings ||
		    l->key >= UINT32_MAX || l->str >= UINT32_MAX) {
			pp->bad_labels++;
			continue;
		}
		pp->lpairs[2 * n] = (uint32_t)l->key;
		pp->lpairs[2 * n++ + 1] = (uint32_t)l->str;
	}
	return labels_set(pp->raw, pp->lpairs, n);
}

/*
 * The raw sets into the profile's label sets, by their strings (taken
 * now); pp->lset_of maps a raw set to the profile's.
 */
void name_label_sets(struct pp *pp)
{
	struct labels *to = profile_labels_w(pp->p);
	size_t nsets = pp->raw ? labels_count(pp->raw) : 0, n = 0, cap = 0;
	size_t mask = 255;
	uint64_t *want = NULL;
	uint32_t *pairs = NULL, *seen = xcalloc(mask + 1, sizeof(*seen));
	size_t cappairs = 0;

	if (nsets < 2) {
		free(seen);
		return;
	}
	/* The distinct string indices (few, named by many sets): a hash set
	 * of index + 1. */
	for (uint32_t k = 1; k < nsets; k++) {
		size_t np, j;
		const uint32_t *p = labels_pairs(pp->raw, k, &np);

		for (size_t i = 0; i < 2 * np; i++) {
			for (j = hash_u64(p[i]) & mask; seen[j] && seen[j] != p[i] + 1;
			     j = (j + 1) & mask)
				;
			if (seen[j])
				continue;
			seen[j] = p[i] + 1;
			GROW(want, cap, n + 1);
			want[n++] = p[i];
			if (n * 2 > mask) {
				mask = mask * 2 + 1;
				free(seen);
				seen = xcalloc(mask + 1, sizeof(*seen));
				for (size_t w = 0; w < n; w++) {
					for (j = hash_u64(want[w]) & mask; seen[j];
					     j = (j + 1) & mask)
						;
					seen[j] = (uint32_t)want[w] + 1;
				}
			}
		}
	}
	free(seen);
	take_strings(pp, want, n);
	free(want);
	pp->lset_of = xmalloc(nsets * sizeof(*pp->lset_of));
	pp->lset_of[0] = 0;
	for (uint32_t k = 1; k < nsets; k++) {
		size_t np, m = 0;
		const uint32_t *p = labels_pairs(pp->raw, k, &np);

		GROW(pairs, cappairs, 2 * np);
		for (size_t i = 0; i < np; i++) {
			const ProtobufCBinaryData *key = string_at(pp, p[2 * i]);
			const ProtobufCBinaryData *val = string_at(pp, p[2 * i + 1]);

			if (!key || !val)
				continue;
			pairs[2 * m] = labels_str(to, (const char *)key->data,
						  key->len);
			pairs[2 * m++ + 1] = labels_str(to, (const char *)val->data,
						       val->len);
		}
		pp->lset_of[k] = labels_set(to, pairs, m);
	}
	free(pairs);
}

/* ---- Samples to stacks ----------------------------------------------------- */

/* The distinct stacks and the per-sample records: struct stack_set and
 * struct samples in read-pprof-priv.h. */

void stacks_init(struct stack_set *st)
{
	memset(st, 0, sizeof(*st));
	st->cap = 1024;
	st->start = xreallocarray(NULL, st->cap + 1, sizeof(*st->start));
	st->hash = xreallocarray(NULL, st->cap, sizeof(*st->hash));
	st->depth = xreallocarray(NULL, st->cap, sizeof(*st->depth));
	st->start[0] = 0;
	GROW(st->locs, st->caplocs, 1024);
	st->mask = 2047;
	st->slots = xcalloc(st->mask + 1, sizeof(*st->slots));
}

void stacks_free(struct stack_set *st)
{
	free(st->locs);
	free(st->start);
	free(st->depth);
	free(st->hash);
	free(st->slots);
	memset(st, 0, sizeof(*st));
}

/* The slot of list[0..n): its stack, or the empty slot to put it in. */
static uint64_t *stacks_find(struct stack_set *st, const uint32_t *list,
			     size_t n, uint64_t h)
{
	uint64_t tag = h >> 32 << 32;

	for (size_t i = (size_t)h & st->mask;; i = (i + 1) & st->mask) {
		uint64_t *sl = &st->slots[i];
		size_t k;

		if (!*sl)
			return sl;
		if ((*sl & ~(uint64_t)UINT32_MAX) != tag)
			continue;
		k = (uint32_t)*sl - 1;
		if (st->start[k + 1] - st->start[k] == n &&
		    (!n || !memcmp(st->locs + st->start[k], list,
				   n * sizeof(*list))))
			return sl;
	}
}

/* A new stack of list[0..n), depth frames, in the empty slot sl; its index. */
static uint32_t stacks_add(struct stack_set *st, uint64_t *sl,
			   const uint32_t *list, size_t n, size_t depth,
			   uint64_t h)
{
	uint32_t k = (uint32_t)st->n;

	if (st->n == st->cap) {
		st->cap *= 2;
		st->start = xreallocarray(st->start, st->cap + 1,
					  sizeof(*st->start));
		st->hash = xreallocarray(st->hash, st->cap, sizeof(*st->hash));
		st->depth = xreallocarray(st->depth, st->cap,
					  sizeof(*st->depth));
	}
	if (st->nlocs + n > st->caplocs)
		GROW(st->locs, st->caplocs, st->nlocs + n);
	if (n)
		memcpy(st->locs + st->nlocs, list, n * sizeof(*list));
	st->nlocs += n;
	st->start[++st->n] = st->nlocs;
	st->hash[k] = h;
	st->depth[k] = (uint32_t)depth;
	*sl = (h >> 32 << 32) | (k + 1);
	if (st->n * 2 > st->mask) {
		/* Twice the slots, every stack put back by its hash. */
		size_t mask = st->mask * 2 + 1;
		uint64_t *slots = xcalloc(mask + 1, sizeof(*slots));

		for (size_t i = 0; i < st->n; i++) {
			size_t j = (size_t)st->hash[i] & mask;

			while (slots[j])
				j = (j + 1) & mask;
			slots[j] = (st->hash[i] >> 32 << 32) | (i + 1);
		}
		free(st->slots);
		st->slots = slots;
		st->mask = mask;
	}
	return k;
}

/*
 * The location indices of a sample, root first, into list; returns its
 * depth in frames (1 for no locations: "[unknown]"), or 0 when it is
 * skipped, *why saying why.
 */
static size_t sample_locations(const struct pp *pp, const PSample *sa,
			       uint32_t *list, enum skip *why)
{
	size_t n = sa->n_location_id, depth = 0;

	for (size_t i = 0; i < n; i++) {
		int64_t li = index_find(&pp->locs, sa->location_id[n - 1 - i]);

		if (li < 0) {
			*why = SKIP_BAD_ID;
			return 0;
		}
		depth += pp->loc_n[li];
		if (depth > PROFILE_MAX_DEPTH - 1) {
			*why = SKIP_TOO_DEEP;
			return 0;
		}
		list[i] = (uint32_t)li;
	}
	return n ? depth : 1;
}

/*
 * Samples go through in batches: decoded and hashed first, their slots
 * asked for from memory, then each looked up in order.  The lookups are
 * the cache misses of this loop; so they overlap.
 */
#define BATCH 16

struct pending {
	size_t off, n, depth;    /* its list: lists[off .. off + n) */
	uint64_t hash, value;
	uint32_t sample, lset;
	enum skip why;
};

struct batch {
	struct pending p[BATCH];
	size_t np;
	uint32_t *lists;
	size_t nlists, cap;
};

/* Sample s into the batch, unless its value is 0 or it is not wanted. */
static void batch_add(struct pp *pp, struct batch *bt,
		      const PSample *sa, size_t s, size_t which,
		      const struct stack_set *st)
{
	struct pending *e = &bt->p[bt->np];
	size_t n = sa->n_location_id;

	e->why = SKIP_NONE;
	e->sample = (uint32_t)s;
	if (sa->n_value < pp->ntypes) {
		/* Which value is which type is not known: none is read. */
		bt->np++;
		e->why = SKIP_FEW_VALUES;
		return;
	}
	if (sa->value[which] == 0)
		return;
	if (sa->value[which] < 0) {
		bt->np++;
		e->why = SKIP_NEGATIVE;
		return;
	}
	e->value = (uint64_t)sa->value[which];
	if (bt->nlists + n + 1 >= bt->cap)
		GROW(bt->lists, bt->cap, bt->nlists + n + 2);
	e->off = bt->nlists;
	e->n = n;
	e->depth = sample_locations(pp, sa, bt->lists + e->off, &e->why);
	bt->np++;
	if (!e->depth)
		return;
	/* A sample that will be added: its labels' set. */
	e->lset = sample_label_set(pp, sa);
	bt->nlists += n;
	e->hash = hash_bytes(bt->lists + e->off, n * sizeof(*bt->lists));
	__builtin_prefetch(&st->slots[(size_t)e->hash & st->mask]);
}

/* Look the batch's samples up in order, noting their stacks. */
static void batch_run(struct batch *bt, struct samples *ss, uint64_t budget,
		      uint64_t *spent)
{
	struct stack_set *st = &ss->st;

	/* Where a slot names a stack, its list will be compared. */
	for (size_t i = 0; i < bt->np; i++) {
		uint64_t sl;

		if (bt->p[i].why != SKIP_NONE)
			continue;
		sl = st->slots[(size_t)bt->p[i].hash & st->mask];
		if (sl)
			__builtin_prefetch(st->locs + st->start[(uint32_t)sl - 1]);
	}
	for (size_t i = 0; i < bt->np; i++) {
		struct pending *e = &bt->p[i];
		const uint32_t *list;
		uint64_t *sl;
		uint32_t k;

		if (e->why == SKIP_NONE && ss->over_budget)
			e->why = SKIP_BUDGET;
		if (e->why != SKIP_NONE) {
			ss->skipped[e->why]++;
			continue;       /* it has no list */
		}
		list = bt->lists + e->off;
		sl = stacks_find(st, list, e->n, e->hash);
		if (*sl) {
			k = (uint32_t)*sl - 1;
		} else {
			*spent += e->depth;
			if (*spent > budget) {
				/* This sample and every later one. */
				ss->over_budget = true;
				ss->skipped[SKIP_BUDGET]++;
				continue;
			}
			k = stacks_add(st, sl, list, e->n, e->depth, e->hash);
		}
		if (ss->nrec == ss->caprec)
			GROW(ss->rec, ss->caprec, ss->nrec + 1);
		ss->rec[ss->nrec].value = e->value;
		ss->rec[ss->nrec].stack = k;
		ss->rec[ss->nrec].lset = e->lset;
		ss->rec[ss->nrec++].sample = e->sample;
	}
	bt->np = 0;
	bt->nlists = 0;
}

/*
 * Decode every sample and note its stack and value of type `which` (ss
 * NULL: only decode).  All are decoded even after the frame budget ran
 * out: as any other, a corrupt sample makes the whole profile invalid.
 * Returns false on one that does not decode (scratch->exhausted: for want
 * of memory).
 */
bool decode_samples(struct pp *pp, size_t which, uint64_t budget,
		    struct samples *ss, struct arena *scratch)
{
	ProtobufCAllocator alloc = { arena_alloc, arena_free, scratch };
	struct sample_iter it = { 0, 0 };
	struct batch bt = { .np = 0 };
	uint64_t spent = 0;
	const uint8_t *data;
	size_t n;
	bool ok = true;

	for (size_t s = 0; next_sample(pp, &it, &data, &n); s++) {
		PSample *sa;

		arena_reset(scratch);
		sa = flametop__pprof__sample__unpack(&alloc, n, data);
		if (!sa) {
			ok = false;
			break;
		}
		if (!ss)
			continue;           /* only checked */
		batch_add(pp, &bt, sa, s, which, &ss->st);
		if (bt.np == BATCH)
			batch_run(&bt, ss, budget, &spent);
	}
	if (ok && ss && bt.np)
		batch_run(&bt, ss, budget, &spent);
	free(bt.lists);
	return ok;
}
