/*
 * read-pprof-samples.c - a pprof profile's samples, decoded one at a time
 * (on every thread when no labels are read: decode_parallel) into the
 * distinct stacks of location indices and a (stack, value) per sample
 * (decode_samples), and their labels read for --tag and --group
 * label:KEY.  It calls read-pprof-decode.c, and nothing of read-pprof.c.
 */
#include "read-pprof-priv.h"

#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "util.h"

/* ---- Labels ------------------------------------------------------------ */

/*
 * Go's pprof.Do and pprof.Labels put string labels (key and value, both
 * string table indices) on samples.  --tag and --group label:KEY read
 * them: first every sample's label strings are taken from the string
 * table (take_label_strings), then each sample is kept or left out and
 * given its group as it is decoded (sample_labels).  A numeric label (its
 * value index 0) is not a string label and is passed over, as pprof does.
 */

/* A label's key and value indices name strings of the table. */
static bool label_in_range(const struct pp *pp, const Flametop__Pprof__Label *l)
{
	return l->key >= 0 && (uint64_t)l->key < pp->nstrings &&
	       l->str >= 0 && (uint64_t)l->str < pp->nstrings;
}

/*
 * Take the strings the samples' labels name, with those taken before.
 * False when a sample does not decode (decode_samples says so later).
 */
bool take_label_strings(struct pp *pp, struct arena *scratch)
{
	ProtobufCAllocator alloc = { arena_alloc, arena_free, scratch };
	struct sample_iter it = { 0, 0 };
	uint64_t *want = NULL;
	size_t n = 0, cap = 0, kept = 0;
	const uint8_t *data;
	size_t len;

	while (next_sample(pp, &it, &data, &len)) {
		PSample *sa;

		arena_reset(scratch);
		sa = flametop__pprof__sample__unpack(&alloc, len, data);
		if (!sa) {
			free(want);
			return false;
		}
		for (size_t i = 0; i < sa->n_label; i++) {
			const Flametop__Pprof__Label *l = sa->label[i];

			if (!l->str || !label_in_range(pp, l))
				continue;
			GROW(want, cap, n + 2);
			want[n++] = (uint64_t)l->key;
			want[n++] = (uint64_t)l->str;
		}
		/* Few distinct strings, named by many samples: keep them so. */
		if (n > 4096 && n > 2 * kept) {
			uniq_u64(want, &n);
			kept = n;
		}
	}
	take_strings(pp, want, n);
	free(want);
	return true;
}

static bool bytes_eq(const ProtobufCBinaryData *s, const char *t, size_t n)
{
	return s->len == n && (!n || memcmp(s->data, t, n) == 0);
}

/* Is --tag t KEY!=VALUE (the key ends before the first '=')? */
bool tag_negated(const char *t)
{
	const char *eq = strchr(t, '=');

	return eq && eq > t && eq[-1] == '!';
}

/* Does the label key=val match --tag t (KEY=VALUE or KEY!=VALUE)? */
static bool tag_matches(const char *t, const ProtobufCBinaryData *key,
			const ProtobufCBinaryData *val, bool *neg)
{
	const char *eq = strchr(t, '=');
	size_t klen = (size_t)(eq - t);

	*neg = tag_negated(t);
	return bytes_eq(key, t, klen - *neg) &&
	       bytes_eq(val, eq + 1, strlen(eq + 1));
}

/* Add weight w to the label key=val of the list (the first ones kept). */
static void list_label(struct pprof_labels *ll, const ProtobufCBinaryData *key,
		       const ProtobufCBinaryData *val, uint64_t w)
{
	struct pprof_label *e;
	unsigned i;

	for (i = 0; i < ll->n; i++) {
		e = &ll->l[i];
		if (e->klen == key->len && e->vlen == val->len &&
		    !memcmp(e->key, key->data, key->len) &&
		    !memcmp(e->value, val->data, val->len))
			break;
	}
	if (i == ll->n) {
		if (ll->n == PPROF_MAX_LABELS || key->len >= sizeof(e->key)) {
			ll->more = true;
			return;
		}
		e = &ll->l[ll->n++];
		memset(e, 0, sizeof(*e));
		e->klen = key->len;
		memcpy(e->key, key->data, key->len);
		e->cut = val->len >= sizeof(e->value);
		e->vlen = e->cut ? sizeof(e->value) - 1 : val->len;
		memcpy(e->value, val->data, e->vlen);
	}
	e = &ll->l[i];
	e->weight = e->weight + w < e->weight ? UINT64_MAX : e->weight + w;
}

/* The label list alone: add w to the pair (key, str) of string indices. */
#define LPAIRS_MAX 4096u

static void pair_add(struct pp *pp, int64_t key, int64_t str, uint64_t w)
{
	size_t j;

	if (!pp->lp) {
		pp->lpmask = 2 * LPAIRS_MAX - 1;
		pp->lp = xcalloc(pp->lpmask + 1, sizeof(*pp->lp));
	}
	j = (size_t)hash_u64((uint64_t)key * 0x9e3779b97f4a7c15u ^
			     (uint64_t)str) & pp->lpmask;
	for (; pp->lp[j].w || pp->lp[j].key; j = (j + 1) & pp->lpmask)
		if (pp->lp[j].key == key && pp->lp[j].str == str)
			break;
	if (!pp->lp[j].w && !pp->lp[j].key) {
		if (pp->nlp == LPAIRS_MAX) {
			pp->o->label_list->more = true;
			return;
		}
		pp->nlp++;
		pp->lp[j].key = key;
		pp->lp[j].str = str;
	}
	pp->lp[j].w = pp->lp[j].w + w < pp->lp[j].w ? UINT64_MAX :
		      pp->lp[j].w + w;
}

/* The pairs into the label list, by their strings (taken now). */
void list_pairs(struct pp *pp)
{
	uint64_t *want = NULL;
	size_t n = 0;

	if (!pp->nlp)
		return;
	want = xreallocarray(NULL, 2 * pp->nlp, sizeof(*want));
	for (size_t j = 0; j <= pp->lpmask; j++)
		if (pp->lp[j].w || pp->lp[j].key) {
			want[n++] = (uint64_t)pp->lp[j].key;
			want[n++] = (uint64_t)pp->lp[j].str;
		}
	take_strings(pp, want, n);
	free(want);
	for (size_t j = 0; j <= pp->lpmask; j++) {
		const ProtobufCBinaryData *k, *v;

		if (!pp->lp[j].w && !pp->lp[j].key)
			continue;
		k = string_at(pp, pp->lp[j].key);
		v = string_at(pp, pp->lp[j].str);
		if (k && v)
			list_label(pp->o->label_list, k, v, pp->lp[j].w);
	}
}

/*
 * Is sample sa kept by --tag (any KEY=VALUE given, and no KEY!=VALUE)?
 * With --group label:KEY, *group is its group: the values of its labels
 * KEY, joined by commas, in the order of the sample.
 */
static bool sample_labels(struct pp *pp, const PSample *sa, uint64_t w,
			  uint32_t *group)
{
	const char *root = pp->o->label_root;
	struct pprof_labels *ll = pp->o->label_list;
	size_t rlen = root ? strlen(root) : 0, glen = 0, nval = 0;
	bool focused = !pp->focus, dropped = false;

	if (root) {
		/* Room for the longest name: KEY=, the values, ",...". */
		GROW(pp->gbuf, pp->capgbuf, rlen + GROUP_NAME_MAX + 32);
		memcpy(pp->gbuf, root, rlen);
		pp->gbuf[rlen] = '=';
		glen = rlen + 1;
	}
	for (size_t i = 0; i < sa->n_label; i++) {
		const Flametop__Pprof__Label *l = sa->label[i];
		const ProtobufCBinaryData *key, *val;

		if (!l->str)
			continue;
		if (!label_in_range(pp, l)) {
			pp->bad_labels++;
			continue;
		}
		if (!pp->strings_known) {
			pair_add(pp, l->key, l->str, w);
			continue;
		}
		key = string_at(pp, l->key);
		val = string_at(pp, l->str);
		if (!key || !val)
			continue;
		if (ll)
			list_label(ll, key, val, w);
		for (size_t t = 0; t < pp->o->ntags; t++) {
			bool neg;

			if (tag_matches(pp->o->tags[t], key, val, &neg))
				*(neg ? &dropped : &focused) = true;
		}
		if (root && bytes_eq(key, root, rlen) &&
		    glen <= rlen + 1 + GROUP_NAME_MAX) {
			size_t room = rlen + 1 + GROUP_NAME_MAX - glen + 1,
			       n = val->len < room ? val->len : room;

			if (nval++)
				pp->gbuf[glen++] = ',';
			if (n)
				memcpy(pp->gbuf + glen, val->data, n);
			glen += n;
		}
	}
	if (ll)
		ll->total = ll->total + w < ll->total ? UINT64_MAX : ll->total + w;
	if (!focused || dropped) {
		pp->untagged++;
		return false;
	}
	if (root) {
		if (glen > rlen + 1 + GROUP_NAME_MAX) {
			glen = rlen + 1 + GROUP_NAME_MAX;
			memcpy(pp->gbuf + glen, "...", 3);
			glen += 3;
		}
		*group = symtab_find(pp->groups, pp->gbuf, glen);
		if (*group == UINT32_MAX && glen > pp->group_bytes) {
			pp->overflow++;
			glen = rlen + 1;
			memcpy(pp->gbuf + glen, "[more values]", 13);
			glen += 13;
		} else if (*group == UINT32_MAX) {
			pp->group_bytes -= glen;
		}
		*group = symtab_intern(pp->groups, pp->gbuf, glen);
	}
	return true;
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
	uint32_t sample;
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
 * *nlists entries, room for *cap).  False when it counts for nothing: its
 * value is 0 or its labels leave it out.  Labels aside (pp->labels, read
 * on one thread only), it reads pp and writes nothing else.
 */
static bool sample_pending(struct pp *pp, const PSample *sa, size_t s,
			   size_t which, struct pending *e, uint32_t **lists,
			   size_t *nlists, size_t *cap)
{
	size_t n = sa->n_location_id, g = 0;
	uint32_t group = 0;

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
	if (*nlists + n + 1 >= *cap)
		GROW(*lists, *cap, *nlists + n + 2);
	e->off = *nlists;
	g = pp->o->label_root != NULL;
	e->n = n + g;
	e->depth = sample_locations(pp, sa, *lists + e->off + g, &e->why);
	if (e->depth && e->depth + g > PROFILE_MAX_DEPTH - 1) {
		e->depth = 0;
		e->why = SKIP_TOO_DEEP;
	}
	if (!e->depth)
		return true;
	/* A sample that will be added: its labels are counted, then it is
	 * kept or left out. */
	if (pp->labels && !sample_labels(pp, sa, e->value, &group))
		return false;
	if (g)
		(*lists)[e->off] = GROUP_LOC | group;
	e->depth += g;
	n += g;
	*nlists += n;
	e->hash = hash_bytes(*lists + e->off, n * sizeof(**lists));
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
static void look_up(struct pending *p, size_t np, const uint32_t *lists,
		    struct samples *ss, uint64_t budget, uint64_t *spent)
{
	struct stack_set *st = &ss->st;

	/* Where a slot names a stack, its list will be compared. */
	for (size_t i = 0; i < np; i++) {
		uint64_t sl;

		if (p[i].why != SKIP_NONE)
			continue;
		sl = st->slots[(size_t)p[i].hash & st->mask];
		if (sl)
			__builtin_prefetch(st->locs + st->start[(uint32_t)sl - 1]);
	}
	for (size_t i = 0; i < np; i++) {
		struct pending *e = &p[i];
		const uint32_t *list;
		uint64_t *sl;
		uint32_t k;

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
			GROW(ss->rec, ss->caprec, ss->nrec + 1);
		ss->rec[ss->nrec].value = e->value;
		ss->rec[ss->nrec].stack = k;
		ss->rec[ss->nrec++].sample = e->sample;
	}
}

/* Look the batch's samples up in order, noting their stacks. */
static void batch_run(struct batch *bt, struct samples *ss, uint64_t budget,
		      uint64_t *spent)
{
	look_up(bt->p, bt->np, bt->lists, ss, budget, spent);
	bt->np = 0;
	bt->nlists = 0;
}

/*
 * On several threads (without labels, which are read on one): the samples
 * go in rounds of up to ROUND per thread, each thread decoding its share of
 * a round into pending lookups with its own arena, then this thread looks
 * them up in sample order, as decode_samples does, so stacks are numbered
 * and samples skipped alike with any number of threads.  Each arena has the
 * whole budget: it holds one sample at a time.
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
	struct pending *p;
	size_t np, capp;
	uint32_t *lists;
	size_t nlists, cap;
	size_t bad;              /* its first sample that does not decode + 1 */
	bool exhausted;          /* that one wanted more memory */
};

/* Decode share i of a round (pool.h). */
static void decode_share(void *ctx, unsigned i)
{
	struct share *sh = &((struct share *)ctx)[i];
	ProtobufCAllocator alloc = { arena_alloc, arena_free, &sh->ar };

	sh->np = sh->nlists = sh->bad = 0;
	ARR_NEED(sh->p, sh->capp, sh->n);
	for (size_t j = 0; j < sh->n; j++) {
		PSample *sa;

		arena_reset(&sh->ar);
		sa = flametop__pprof__sample__unpack(&alloc, sh->len[j],
						     sh->data[j]);
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
		look_up(sh->p + i, m, sh->lists, ss, budget, spent);
	}
}

static bool decode_parallel(struct pp *pp, size_t which, uint64_t budget,
			    struct samples *ss, struct arena *scratch,
			    unsigned nthreads)
{
	struct share *sh = xcalloc(nthreads, sizeof(*sh));
	const uint8_t **data = xreallocarray(NULL, (size_t)nthreads * ROUND,
					     sizeof(*data));
	size_t *len = xreallocarray(NULL, (size_t)nthreads * ROUND,
				    sizeof(*len));
	struct sample_iter it = { 0, 0 };
	struct pool pool;
	uint64_t spent = 0;
	size_t s = 0;
	bool ok = true;

	pool_init(&pool, nthreads, decode_share, sh);
	for (unsigned i = 0; i < nthreads; i++)
		sh[i] = (struct share){ .pp = pp, .which = which,
					.ar = { .left = scratch->left } };
	while (ok) {
		size_t got = 0, per;
		unsigned used = 0;

		while (got < (size_t)nthreads * ROUND &&
		       next_sample(pp, &it, &data[got], &len[got]))
			got++;
		if (!got)
			break;
		per = (got + nthreads - 1) / nthreads;
		for (unsigned i = 0; i < nthreads && i * per < got; i++) {
			sh[i].data = data + i * per;
			sh[i].len = len + i * per;
			sh[i].first = s + i * per;
			sh[i].n = got - i * per < per ? got - i * per : per;
			used = i + 1;
		}
		pool_run(&pool, used);
		for (unsigned i = 0; i < used && ok; i++) {
			if (sh[i].bad) {
				scratch->exhausted = sh[i].exhausted;
				ok = false;
			}
			look_up_share(&sh[i], ss, budget, &spent);
		}
		s += got;
	}
	pool_end(&pool);
	for (unsigned i = 0; i < nthreads; i++) {
		arena_destroy(&sh[i].ar);
		ARR_FREE(sh[i].p, sh[i].capp);
		free(sh[i].lists);
	}
	free(sh);
	free(data);
	free(len);
	return ok;
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
	bool ok = true, set;
	unsigned nthreads = read_thread_count(MAX_THREADS, &set);

	if (ss && !pp->labels && nthreads > 1 &&
	    (set || pp->nsamples >= PARALLEL_MIN))
		return decode_parallel(pp, which, budget, ss, scratch, nthreads);
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
