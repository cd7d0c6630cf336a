/*
 * read-pprof-samples.c - a pprof profile's samples, decoded one at a time
 * (on every thread: decode_parallel) into the distinct stacks of location
 * indices and a (stack, value) per sample (decode_samples), with the
 * label set each carries.  It calls read-pprof-decode.c, and nothing of
 * read-pprof.c.
 */
#include "read-pprof-priv.h"

#include <stdlib.h>
#include <string.h>

#include "pool.h"
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

/*
 * Sample sa's string labels as (key, value) string index pairs into out
 * (room for 2 * sa->n_label); returns how many.  Those out of the string
 * table are counted in *bad.  It writes nothing else, so the samples'
 * threads may call it; their sets are interned in sample order
 * (label_set).
 */
static uint32_t sample_label_pairs(const struct pp *pp, const PSample *sa,
				   uint32_t *out, uint32_t *bad)
{
	uint32_t n = 0;

	for (size_t i = 0; i < sa->n_label; i++) {
		const Flametop__Pprof__Label *l = sa->label[i];

		if (!l->str)
			continue;
		if (l->key < 0 || (uint64_t)l->key >= pp->nstrings ||
		    l->str < 0 || (uint64_t)l->str >= pp->nstrings ||
		    l->key >= UINT32_MAX || l->str >= UINT32_MAX) {
			(*bad)++;
			continue;
		}
		out[2 * n] = (uint32_t)l->key;
		out[2 * n++ + 1] = (uint32_t)l->str;
	}
	return n;
}

/* The raw set of n pairs (0: none), interned in pp->raw. */
static uint32_t label_set(struct pp *pp, const uint32_t *pairs, uint32_t n)
{
	if (!n)
		return 0;
	if (!pp->raw)
		pp->raw = labels_create();
	return labels_set(pp->raw, pairs, n);
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
	ARR_GROW(st->start, 0, st->cap + 1);
	ARR_GROW(st->hash, 0, st->cap);
	ARR_GROW(st->depth, 0, st->cap);
	ARR_NEED(st->locs, st->caplocs, 1024);
	st->mask = 2047;
	ARR_GROW(st->slots, 0, st->mask + 1);
}

void stacks_free(struct stack_set *st)
{
	ARR_FREE(st->locs, st->caplocs);
	ARR_FREE(st->start, st->cap + 1);
	ARR_FREE(st->depth, st->cap);
	ARR_FREE(st->hash, st->cap);
	ARR_FREE(st->slots, st->mask + 1);
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
		ARR_GROW(st->start, st->n + 1, st->cap + 1);
		ARR_GROW(st->hash, st->n, st->cap);
		ARR_GROW(st->depth, st->n, st->cap);
	}
	ARR_NEED(st->locs, st->caplocs, st->nlocs + n);
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
		uint64_t *slots = NULL;

		ARR_GROW(slots, 0, mask + 1);
		for (size_t i = 0; i < st->n; i++) {
			size_t j = (size_t)st->hash[i] & mask;

			while (slots[j])
				j = (j + 1) & mask;
			slots[j] = (st->hash[i] >> 32 << 32) | (i + 1);
		}
		ARR_FREE(st->slots, st->mask + 1);
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

/* ---- A sample's bytes ---------------------------------------------------- */

/*
 * Every writer packs a sample's location ids and values, and most samples
 * have nothing else: those are read here straight from their bytes into a
 * PSample of the caller's, as protobuf-c would read them.  Anything else
 * (labels, a field unpacked, repeated or unknown, a varint of ten bytes or
 * cut short: a negative value, or bytes protobuf-c would refuse) is left to
 * protobuf-c, so what is accepted and how stays protobuf-c's.
 */
struct quick {
	PSample sa;
	uint64_t *ids, *vals;
	size_t capids, capvals;
};

/* Packed varints b[0..n), each below 2^63, into *out; their count, or
 * (size_t)-1 when one is not so plain. */
static size_t quick_packed(const uint8_t *b, size_t n, uint64_t **out,
			   size_t *cap)
{
	size_t k = 0, pos = 0;

	/* The last byte ends a varint: none is cut, and n bytes hold at
	 * most n of them. */
	if (n && (b[n - 1] & 0x80))
		return (size_t)-1;
	if (n + 1 > *cap)
		GROW(*out, *cap, n + 1);
	while (pos < n) {
		uint64_t x = b[pos];

		/* Ids and counts are mostly one or two bytes (a byte with
		 * its high bit set is never the last). */
		if (!(x & 0x80)) {
			(*out)[k++] = x;
			pos++;
			continue;
		}
		if (!(b[pos + 1] & 0x80)) {
			(*out)[k++] = (x & 0x7f) | (uint64_t)b[pos + 1] << 7;
			pos += 2;
			continue;
		}
		x = 0;
		for (unsigned shift = 0;; shift += 7) {
			uint8_t c = b[pos++];

			if (shift == 63)
				return (size_t)-1;
			x |= (uint64_t)(c & 0x7f) << shift;
			if (!(c & 0x80))
				break;
		}
		(*out)[k++] = x;
	}
	return k;
}

/* The sample in b[0..n) read without protobuf-c, or NULL: ask it. */
static const PSample *quick_sample(struct quick *q, const uint8_t *b,
				   size_t n)
{
	size_t pos = 0;

	q->sa = (PSample)FLAMETOP__PPROF__SAMPLE__INIT;
	while (pos < n) {
		uint8_t key = b[pos++];
		size_t len = 0, k;

		/* A length below 2^28, in at most four bytes. */
		for (unsigned shift = 0;; shift += 7) {
			if (pos == n || shift == 28)
				return NULL;
			len |= (size_t)(b[pos] & 0x7f) << shift;
			if (!(b[pos++] & 0x80))
				break;
		}
		if (len > n - pos)
			return NULL;
		if (key == 0x0a && !q->sa.location_id) {        /* 1, packed */
			k = quick_packed(b + pos, len, &q->ids, &q->capids);
			q->sa.location_id = q->ids;
			q->sa.n_location_id = k;
		} else if (key == 0x12 && !q->sa.value) {       /* 2, packed */
			k = quick_packed(b + pos, len, &q->vals, &q->capvals);
			/* Each below 2^63: the same as int64_t. */
			q->sa.value = (int64_t *)q->vals;
			q->sa.n_value = k;
		} else {
			return NULL;
		}
		if (k == (size_t)-1)
			return NULL;
		pos += len;
	}
	return &q->sa;
}

/* The sample in b[0..n): read as above, else by protobuf-c into ar (NULL
 * when it does not decode). */
static const PSample *sample_unpack(struct quick *q, struct arena *ar,
				    const uint8_t *b, size_t n)
{
	ProtobufCAllocator alloc = { arena_alloc, arena_free, ar };
	const PSample *sa = quick_sample(q, b, n);

	if (sa)
		return sa;
	arena_reset(ar);
	return flametop__pprof__sample__unpack(&alloc, n, b);
}

static void quick_free(struct quick *q)
{
	free(q->ids);
	free(q->vals);
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
	uint32_t sample;
	uint32_t nl, badl;       /* its label pairs, after its list; dropped */
	enum skip why;
};

struct batch {
	struct pending p[BATCH];
	size_t np;
	uint32_t *lists;
	size_t nlists, cap;
};

/*
 * Sample s as a pending lookup in *e, its list appended to *lists (of
 * *nlists entries, room for *cap), its label pairs after the list.
 * False when it counts for nothing: its value is 0.  It reads pp and
 * writes nothing else, so the samples' threads may call it.
 */
static bool sample_pending(struct pp *pp, const PSample *sa, size_t s,
			   size_t which, struct pending *e, uint32_t **lists,
			   size_t *nlists, size_t *cap)
{
	size_t n = sa->n_location_id;

	e->why = SKIP_NONE;
	e->sample = (uint32_t)s;
	if (sa->n_value < pp->ntypes) {
		/* Which value is which type is not known: none is read. */
		e->why = SKIP_FEW_VALUES;
		return true;
	}
	if (sa->value[which] == 0)
		return false;
	if (sa->value[which] < 0) {
		e->why = SKIP_NEGATIVE;
		return true;
	}
	e->value = (uint64_t)sa->value[which];
	if (*nlists + n + 2 * sa->n_label + 1 >= *cap)
		GROW(*lists, *cap, *nlists + n + 2 * sa->n_label + 2);
	e->off = *nlists;
	e->n = n;
	e->nl = e->badl = 0;
	e->depth = sample_locations(pp, sa, *lists + e->off, &e->why);
	if (!e->depth)
		return true;
	/* A sample that will be added: its label pairs after its list. */
	e->nl = sample_label_pairs(pp, sa, *lists + e->off + n, &e->badl);
	e->hash = hash_bytes(*lists + e->off, n * sizeof(**lists));
	*nlists += n + 2 * (size_t)e->nl;
	return true;
}

/* Sample s into the batch, unless its value is 0 or it is not wanted. */
static void batch_add(struct pp *pp, struct batch *bt,
		      const PSample *sa, size_t s, size_t which,
		      const struct stack_set *st)
{
	struct pending *e = &bt->p[bt->np];

	if (!sample_pending(pp, sa, s, which, e, &bt->lists, &bt->nlists,
			    &bt->cap))
		return;
	bt->np++;
	if (e->why == SKIP_NONE)
		__builtin_prefetch(&st->slots[(size_t)e->hash & st->mask]);
}

/*
 * Look samples p[0..np) up in order (their lists in lists[]), noting their
 * stacks.  Their slots were asked for from memory when they were decoded.
 */
static void look_up(struct pp *pp, struct pending *p, size_t np,
		    const uint32_t *lists, struct samples *ss,
		    uint64_t budget, uint64_t *spent)
{
	struct stack_set *st = &ss->st;

	/* Where a slot names a stack, its list will be compared. */
	for (size_t i = 0; i < np; i++) {
		uint64_t sl;

		if (p[i].why != SKIP_NONE)
			continue;
		sl = st->slots[(size_t)p[i].hash & st->mask];
		if (sl) {
			const char *at = (const char *)(st->locs +
							st->start[(uint32_t)sl - 1]);

			/* Every line of it: lists are often 100 bytes. */
			for (size_t b = 0; b < p[i].n * sizeof(*st->locs); b += 64)
				__builtin_prefetch(at + b);
		}
	}
	for (size_t i = 0; i < np; i++) {
		struct pending *e = &p[i];
		const uint32_t *list;
		uint64_t *sl;
		uint32_t k;

		pp->bad_labels += e->badl;
		if (e->why == SKIP_NONE && ss->over_budget)
			e->why = SKIP_BUDGET;
		if (e->why != SKIP_NONE) {
			ss->skipped[e->why]++;
			continue;       /* it has no list */
		}
		list = lists + e->off;
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
			ARR_NEED(ss->rec, ss->caprec, ss->nrec + 1);
		ss->rec[ss->nrec].value = e->value;
		ss->rec[ss->nrec].stack = k;
		ss->rec[ss->nrec].lset = label_set(pp, list + e->n, e->nl);
		ss->rec[ss->nrec++].sample = e->sample;
	}
}

/* Look the batch's samples up in order, noting their stacks. */
static void batch_run(struct pp *pp, struct batch *bt, struct samples *ss,
		      uint64_t budget, uint64_t *spent)
{
	look_up(pp, bt->p, bt->np, bt->lists, ss, budget, spent);
	bt->np = 0;
	bt->nlists = 0;
}

/*
 * On several threads: the samples go in rounds of up to ROUND per worker,
 * each worker decoding its share of a round into pending lookups with its
 * own arena while this thread looks the round before up, in sample order
 * as decode_samples does, so stacks are numbered and samples skipped alike
 * with any number of threads.  Each arena has the whole budget: it holds
 * one sample at a time.
 */
#define ROUND 8192
#define PARALLEL_MIN (2 * ROUND)    /* fewer samples: one thread */
#define MAX_THREADS 16

struct share {
	struct pp *pp;
	size_t which;
	const uint8_t **data;    /* its samples' bytes */
	size_t *len;
	size_t first, n;         /* samples first .. first + n - 1 */
	struct arena ar;
	struct quick q;
	struct pending *p;
	size_t np, capp;
	uint32_t *lists;
	size_t nlists, cap;
	size_t bad;              /* its first sample that does not decode + 1 */
	bool exhausted;          /* that one wanted more memory */
};

/* Decode the samples of share sh into its pending lookups. */
static void decode_share(struct share *sh)
{
	sh->np = sh->nlists = sh->bad = 0;
	ARR_NEED(sh->p, sh->capp, sh->n);
	for (size_t j = 0; j < sh->n; j++) {
		const PSample *sa = sample_unpack(&sh->q, &sh->ar, sh->data[j],
						  sh->len[j]);

		if (!sa) {
			sh->bad = j + 1;
			sh->exhausted = sh->ar.exhausted;
			return;
		}
		sh->np += sample_pending(sh->pp, sa, sh->first + j, sh->which,
					 &sh->p[sh->np], &sh->lists,
					 &sh->nlists, &sh->cap);
	}
}

/* A share's samples looked up in order, BATCH at a time. */
static void look_up_share(struct share *sh, struct samples *ss,
			  uint64_t budget, uint64_t *spent)
{
	const struct stack_set *st = &ss->st;

	for (size_t i = 0; i < sh->np; i += BATCH) {
		size_t m = sh->np - i < BATCH ? sh->np - i : BATCH;

		for (size_t k = i + BATCH; k < i + BATCH + m && k < sh->np; k++)
			if (sh->p[k].why == SKIP_NONE)
				__builtin_prefetch(&st->slots[(size_t)sh->p[k].hash &
							      st->mask]);
		look_up(sh->pp, sh->p + i, m, sh->lists, ss, budget, spent);
	}
}

/*
 * A round in the pipeline: the workers decode dec[0..ndec) (worker i share
 * i - 1) while this thread looks up look[0..nlook), the round before.
 */
struct pipeline {
	struct share *dec, *look;
	unsigned ndec, nlook;
	struct samples *ss;
	uint64_t budget, spent;
	bool bad, exhausted;     /* a sample looked at did not decode */
};

static void pipeline_share(void *ctx, unsigned i)
{
	struct pipeline *pl = ctx;

	if (i) {
		decode_share(&pl->dec[i - 1]);
		return;
	}
	/* A share with a sample that does not decode: those before it, and
	 * none after. */
	for (unsigned k = 0; k < pl->nlook && !pl->bad; k++) {
		if (pl->look[k].bad) {
			pl->bad = true;
			pl->exhausted = pl->look[k].exhausted;
		}
		look_up_share(&pl->look[k], pl->ss, pl->budget, &pl->spent);
	}
}

static bool decode_parallel(struct pp *pp, size_t which, uint64_t budget,
			    struct samples *ss, struct arena *scratch,
			    unsigned nthreads)
{
	unsigned nw = nthreads - 1;     /* workers: decoding */
	struct share *sh = xcalloc(2 * (size_t)nw, sizeof(*sh));
	const uint8_t **data = xreallocarray(NULL, (size_t)nw * ROUND,
					     sizeof(*data));
	size_t *len = xreallocarray(NULL, (size_t)nw * ROUND, sizeof(*len));
	struct sample_iter it = { 0, 0 };
	struct pipeline pl = { .ss = ss, .budget = budget };
	struct pool pool;
	size_t s = 0;

	pool_init(&pool, nthreads, pipeline_share, &pl);
	for (unsigned i = 0; i < 2 * nw; i++)
		sh[i] = (struct share){ .pp = pp, .which = which,
					.ar = { .left = scratch->left } };
	pl.dec = sh;
	for (;;) {
		size_t got = 0, per;

		while (got < (size_t)nw * ROUND &&
		       next_sample(pp, &it, &data[got], &len[got]))
			got++;
		pl.ndec = 0;
		per = (got + nw - 1) / nw;
		for (unsigned i = 0; i < nw && i * per < got; i++) {
			pl.dec[i].data = data + i * per;
			pl.dec[i].len = len + i * per;
			pl.dec[i].first = s + i * per;
			pl.dec[i].n = got - i * per < per ? got - i * per : per;
			pl.ndec = i + 1;
		}
		if (!pl.ndec && !pl.nlook)
			break;
		pool_run(&pool, 1 + pl.ndec);
		if (pl.bad)
			break;
		/* This round's shares are looked up with the next. */
		pl.look = pl.dec;
		pl.nlook = pl.ndec;
		pl.dec = pl.dec == sh ? sh + nw : sh;
		s += got;
	}
	pool_end(&pool);
	scratch->exhausted = pl.exhausted;
	for (unsigned i = 0; i < 2 * nw; i++) {
		arena_destroy(&sh[i].ar);
		quick_free(&sh[i].q);
		ARR_FREE(sh[i].p, sh[i].capp);
		free(sh[i].lists);
	}
	free(sh);
	free(data);
	free(len);
	return !pl.bad;
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
	struct sample_iter it = { 0, 0 };
	struct batch bt = { .np = 0 };
	struct quick q = { .capids = 0 };
	uint64_t spent = 0;
	const uint8_t *data;
	size_t n;
	bool ok = true, set;
	unsigned nthreads = read_thread_count(MAX_THREADS, &set);

	if (ss && nthreads > 1 &&
	    (set || pp->nsamples >= PARALLEL_MIN))
		return decode_parallel(pp, which, budget, ss, scratch, nthreads);
	for (size_t s = 0; next_sample(pp, &it, &data, &n); s++) {
		const PSample *sa = sample_unpack(&q, scratch, data, n);

		if (!sa) {
			ok = false;
			break;
		}
		if (!ss)
			continue;           /* only checked */
		batch_add(pp, &bt, sa, s, which, &ss->st);
		if (bt.np == BATCH)
			batch_run(pp, &bt, ss, budget, &spent);
	}
	if (ok && ss && bt.np)
		batch_run(pp, &bt, ss, budget, &spent);
	free(bt.lists);
	quick_free(&q);
	return ok;
}
