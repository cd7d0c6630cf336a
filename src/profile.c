/*
 * profile.c - the call tree, its weights and the timeline.
 *
 * The tree is one array of compact nodes (parent, first child, next
 * sibling, symbol id).  Parallel arrays hold the weights, so the node array
 * stays small and a weight view can be recomputed without touching the
 * shape:
 *
 *   self[]    all-time self weight, added to by the sink
 *   rself[]   self weight within the selected time range (only while a
 *             range is selected; rebuilt from the timeline)
 *   total[]   total weight of the current view, computed by finish
 *   self2[], total2[]  the first count of differential input (BEFORE)
 *   rself2[]  self2 within the selected time range
 *
 * A child is created after its parent, so a parent's id is always smaller
 * than its children's: totals are one backward pass over the array, depths
 * one forward pass.  Children are found during the build through one open
 * addressing table keyed by (parent, symbol); the key is kept in the slot so
 * a probe does not touch the node array.  New children are pushed at the
 * head of their parent's list and profile_finish sorts each list by name.
 *
 * The timeline keeps (time, node, weight) for every timed sample, so the
 * weights of any time range are rebuilt without reading the input again.
 * What a reader knew of the sample's task, CPU and label set is interned
 * (a profile sees few distinct pid/tid/cpu/comm/labels tuples) and the
 * entry keeps its index, in what would otherwise be padding.  Untimed
 * samples that carry such a tuple (pprof's labelled samples) are kept in
 * an array of their own, without a time, so that views filter and group
 * them as they do timed ones; an untimed sample without one is only
 * weight at its node.
 */
#include "profile.h"
#include "profile-addr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "frame-locs.h"
#include "textfmt.h"
#include "util.h"

struct child_slot {
	uint32_t parent;
	uint32_t sym;
	uint32_t node;      /* node id + 1; 0 is empty */
};

struct tl_entry {
	uint64_t time;
	uint64_t weight;
	uint32_t node;
	uint32_t meta;      /* index + 1 in the task table; 0: unknown;
	                       or TL_LABELS | a label set;
	                       | TL_BEFORE: a weight of the first count */
};

/* The timeline entry of a differential profile's first count (BEFORE). */
#define TL_BEFORE 0x80000000u
/*
 * A sample that carries a label set and nothing else (pprof's) keeps the
 * set itself, not a tuple: TL_LABELS | set.
 */
#define TL_LABELS 0x40000000u

/* An untimed sample with a tuple (meta as in struct tl_entry). */
struct ut_entry {
	uint64_t weight;
	uint32_t node;
	uint32_t meta;
};

struct task_meta {
	uint32_t pid, tid, cpu, comm;
	uint32_t labels;            /* label set (labels.h); 0: none */
	uint8_t has_task, has_cpu;
};

struct profile {
	struct symtab *symtab;
	struct pnode *nodes;
	uint16_t *depth;
	uint64_t *self, *total, *rself;
	uint64_t *self2, *total2, *rself2;
	size_t n, cap;
	size_t totals_set;          /* totals past these nodes' are still zero */

	struct child_slot *slots;
	size_t mask;
	bool slots_stale;           /* appended nodes are not in slots yet */

	unsigned decimals;
	bool differential;
	bool into2;                 /* weights added go to the first count */
	uint64_t grand, grand2;     /* all-time sums, to catch overflow */
	uint64_t samples, samples_other;

	struct tl_entry *tl;
	size_t ntl, captl;
	bool tl_sorted;
	bool range_on;
	uint64_t range_first, range_last;
	uint64_t range2_first, range2_last;   /* the first count's (BEFORE) */

	enum weight_unit unit;
	bool unit_known, unit_mixed;
	char unit_name[96];     /* what weights count; "": the unit's name */
	char mixed_what[200];   /* unit_mixed: "CPU time and page-faults" */
	char side[2][16];       /* a comparison's sides; "": before, after */

	struct task_meta *tasks;    /* distinct task/CPU tuples of the timeline */
	uint32_t *taskslot;         /* open addressing: index + 1, 0 empty */
	size_t ntasks, captasks, taskmask;
	uint32_t task_last[8];      /* by CPU mod 8: its last task's index + 1 */
	struct ut_entry *ut;        /* untimed samples with a tuple */
	size_t nut, caput;
	struct labels *labels;      /* the label sets */

	enum profile_order order;
	bool sorted;                /* siblings sorted since the last add */
	size_t distinct;
	unsigned max_depth;
	double max_change;          /* differential: profile_max_change */
	struct paddr *addrs;        /* weights per address (profile-addr.h) */
	struct frame_locs *locs;    /* where frames came from, or NULL */
};

struct paddr *profile_paddr(struct profile *p, bool create)
{
	if (!p->addrs && create)
		p->addrs = paddr_create();
	return p->addrs;
}

const struct paddr *profile_paddr_const(const struct profile *p)
{
	return p->addrs;
}

static const uint64_t pow10_tab[] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL,
};

static void add_node_storage(struct profile *p)
{
	size_t old = p->cap;

	if (p->n < p->cap)
		return;
	p->cap = old ? old * 2 : 1024;
	while (p->cap <= p->n)   /* profile_reserve may ask for more */
		p->cap *= 2;
	ARR_GROW(p->nodes, old, p->cap);
	ARR_GROW(p->depth, old, p->cap);
	ARR_GROW(p->self, old, p->cap);
	ARR_GROW(p->total, old, p->cap);
	if (p->rself)
		ARR_GROW(p->rself, old, p->cap);
	if (p->differential) {
		ARR_GROW(p->self2, old, p->cap);
		ARR_GROW(p->total2, old, p->cap);
	}
	if (p->rself2)
		ARR_GROW(p->rself2, old, p->cap);
}

static void resize_slots(struct profile *p, size_t nmask);

static uint32_t new_node(struct profile *p, uint32_t parent, uint32_t sym)
{
	uint32_t id;

	if (p->n >= UINT32_MAX - 1)
		fatal("too many call tree nodes");
	if (p->n >= p->cap)
		add_node_storage(p);
	id = (uint32_t)p->n++;
	p->nodes[id].parent = parent;
	p->nodes[id].child = NODE_NONE;
	p->nodes[id].sym = sym;
	/*
	 * The weights of a new node are zero already: the arrays are never
	 * written past n, and their new elements are zero (ARR_GROW).
	 */
	if (parent == NODE_NONE) {
		p->nodes[id].next = NODE_NONE;
		p->depth[id] = 0;
	} else {
		p->nodes[id].next = p->nodes[parent].child;
		p->nodes[parent].child = id;
		p->depth[id] = (uint16_t)(p->depth[parent] + 1);
	}
	p->sorted = false;
	return id;
}

struct profile *profile_create(void)
{
	struct profile *p = xcalloc(1, sizeof(*p));

	p->symtab = symtab_create();
	p->labels = labels_create();
	p->mask = 4095;
	p->slots = xcalloc(p->mask + 1, sizeof(*p->slots));
	p->tl_sorted = true;
	new_node(p, NODE_NONE, symtab_intern(p->symtab, "all", 3));
	p->sorted = true;           /* a lone root has nothing to sort */
	return p;
}

bool profile_is_new(const struct profile *p)
{
	return p->n == 1 && p->samples == 0 && p->samples_other == 0 &&
	       p->grand == 0 && p->grand2 == 0 && p->ntl == 0 &&
	       p->ntasks == 0 && p->nut == 0 &&
	       labels_count(p->labels) == 1 && !p->differential && !p->into2 &&
	       !p->rself && !p->range_on && p->decimals == 0 &&
	       !p->unit_known && !p->unit_mixed && !p->unit_name[0] &&
	       !p->side[0][0] && !p->side[1][0] &&
	       p->order == ORDER_NAME && symtab_count(p->symtab) == 1 &&
	       !p->locs;
}

void profile_renew(struct profile *p)
{
	struct profile *q = profile_create(), t = *p;

	*p = *q;
	*q = t;
	profile_destroy(q);
}

void profile_reserve_nodes(struct profile *p, size_t nodes)
{
	size_t need = p->n + nodes, n = p->n;

	if (need <= p->cap)
		return;
	/* add_node_storage grows every array to hold node n. */
	p->n = need - 1;
	add_node_storage(p);
	p->n = n;
}

void profile_reserve_timed(struct profile *p, size_t n)
{
	size_t need = p->ntl + n;

	if (need <= p->captl)
		return;
	ARR_GROW(p->tl, p->captl, need);
	p->captl = need;
}

void profile_reserve(struct profile *p, size_t nodes)
{
	size_t need = p->n + nodes;

	profile_reserve_nodes(p, nodes);
	if (need * 2 > p->mask) {
		/* One rehash into the final size, not one per doubling. */
		size_t m = p->mask;

		while (need * 2 > m)
			m = m * 2 + 1;
		resize_slots(p, m);
	}
}

void profile_destroy(struct profile *p)
{
	if (!p)
		return;
	symtab_destroy(p->symtab);
	ARR_FREE(p->nodes, p->cap);
	ARR_FREE(p->depth, p->cap);
	ARR_FREE(p->self, p->cap);
	ARR_FREE(p->total, p->cap);
	ARR_FREE(p->rself, p->cap);
	ARR_FREE(p->self2, p->cap);
	ARR_FREE(p->total2, p->cap);
	ARR_FREE(p->rself2, p->cap);
	free(p->slots);
	ARR_FREE(p->tl, p->captl);
	free(p->tasks);
	free(p->taskslot);
	paddr_destroy(p->addrs);
	floc_destroy(p->locs);
	ARR_FREE(p->ut, p->caput);
	labels_destroy(p->labels);
	free(p);
}

struct frame_locs *profile_frame_locs(struct profile *p)
{
	if (!p->locs)
		p->locs = floc_create();
	return p->locs;
}

const struct frame_locs *profile_frame_locs_get(const struct profile *p)
{
	return p->locs;
}

void profile_set_differential(struct profile *p, bool on)
{
	if (on == p->differential)
		return;
	p->differential = on;
	if (on) {
		ARR_GROW(p->self2, 0, p->cap);
		ARR_GROW(p->total2, 0, p->cap);
	} else {
		ARR_FREE(p->self2, p->cap);
		ARR_FREE(p->total2, p->cap);
		ARR_FREE(p->rself2, p->cap);
	}
}

bool profile_is_differential(const struct profile *p)
{
	return p->differential && !p->into2;
}

void profile_set_before_column(struct profile *p, bool on)
{
	if (on == p->into2)
		return;
	if (on) {
		profile_set_differential(p, true);
		p->samples_other = p->samples;
		p->samples = 0;
	} else {
		p->samples += p->samples_other;
		p->samples_other = 0;
	}
	p->into2 = on;
}

bool profile_column_bounds(const struct profile *p, bool before,
			   uint64_t *first, uint64_t *last)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	bool any = false;

	for (size_t i = 0; i < p->ntl; i++) {
		const struct tl_entry *e = &p->tl[i];

		if (((e->meta & TL_BEFORE) != 0) != before)
			continue;
		any = true;
		lo = e->time < lo ? e->time : lo;
		hi = e->time > hi ? e->time : hi;
	}
	*first = lo;
	*last = hi;
	return any;
}

void profile_align_columns(struct profile *p)
{
	uint64_t lo[2], hi;

	if (!profile_column_bounds(p, false, &lo[0], &hi) ||
	    !profile_column_bounds(p, true, &lo[1], &hi) || lo[0] == lo[1])
		return;
	for (size_t i = 0; i < p->ntl; i++) {
		struct tl_entry *e = &p->tl[i];

		if (!(e->meta & TL_BEFORE))
			continue;
		/* Both columns start at lo[0]: e->time - lo[1] >= 0. */
		e->time = e->time - lo[1] > UINT64_MAX - lo[0]
			  ? UINT64_MAX : lo[0] + (e->time - lo[1]);
	}
	p->tl_sorted = false;
}

/*
 * A ';' inside a name becomes ':', as the perf script reader tidies it:
 * folded output (--collapse, and every check built on it) splits a stack
 * on ';', so a pprof function, a JavaScript name, a symbol, a JIT name or
 * a command holding one would come back as two frames.
 */
uint32_t profile_intern(struct profile *p, const char *name, size_t len)
{
	char small[256], *buf;
	uint32_t id;

	if (!len || !memchr(name, ';', len))
		return symtab_intern(p->symtab, name, len);
	buf = len <= sizeof small ? small : xmalloc(len);
	for (size_t i = 0; i < len; i++)
		buf[i] = name[i] == ';' ? ':' : name[i];
	id = symtab_intern(p->symtab, buf, len);
	if (buf != small)
		free(buf);
	return id;
}

static size_t slot_of(uint32_t parent, uint32_t sym, size_t mask)
{
	return (size_t)hash_u64(((uint64_t)parent << 32) | sym) & mask;
}

static void resize_slots(struct profile *p, size_t nmask)
{
	struct child_slot *ns = xcalloc_table(nmask + 1, sizeof(*ns));

	advise_huge(ns, (nmask + 1) * sizeof(*ns));
	for (size_t i = 0; i <= p->mask; i++) {
		struct child_slot *s = &p->slots[i];
		size_t j;

		if (!s->node)
			continue;
		j = slot_of(s->parent, s->sym, nmask);
		while (ns[j].node)
			j = (j + 1) & nmask;
		ns[j] = *s;
	}
	free(p->slots);
	p->slots = ns;
	p->mask = nmask;
}

static void grow_slots(struct profile *p)
{
	resize_slots(p, p->mask * 2 + 1);
}

/* Index every node but the root again (after profile_append_child). */
static void rebuild_slots(struct profile *p)
{
	size_t want = 4096;

	while (want <= p->n * 2)
		want *= 2;
	free(p->slots);
	p->slots = xcalloc_table(want, sizeof(*p->slots));
	advise_huge(p->slots, want * sizeof(*p->slots));
	p->mask = want - 1;
	for (size_t i = 1; i < p->n; i++) {
		const struct pnode *nd = &p->nodes[i];
		size_t j = slot_of(nd->parent, nd->sym, p->mask);

		while (p->slots[j].node)
			j = (j + 1) & p->mask;
		p->slots[j].parent = nd->parent;
		p->slots[j].sym = nd->sym;
		p->slots[j].node = (uint32_t)i + 1;
	}
	p->slots_stale = false;
}

uint32_t profile_child(struct profile *p, uint32_t parent, uint32_t sym)
{
	size_t j;
	uint32_t id;

	if (p->slots_stale)
		rebuild_slots(p);
	j = slot_of(parent, sym, p->mask);

	for (;;) {
		struct child_slot *s = &p->slots[j];

		if (!s->node)
			break;
		if (s->parent == parent && s->sym == sym)
			return s->node - 1;
		j = (j + 1) & p->mask;
	}
	id = new_node(p, parent, sym);
	p->slots[j].parent = parent;
	p->slots[j].sym = sym;
	p->slots[j].node = id + 1;
	if (p->n * 2 > p->mask)
		grow_slots(p);
	return id;
}

/* Byte order of two names, shorter first on a tie (flamegraph.pl's). */
static int cmp_names(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c;
	return (alen > blen) - (alen < blen);
}

static bool sym_before(const struct profile *p, uint32_t a, uint32_t b)
{
	return cmp_names(symtab_name(p->symtab, a), symtab_len(p->symtab, a),
			 symtab_name(p->symtab, b), symtab_len(p->symtab, b)) < 0;
}

/*
 * Byte order of two names, shorter first on a tie (cmp_names).  Different
 * prefixes decide it alone: a name that ends first is padded with zeros,
 * which sort first.
 */
static int cmp_symkey(const void *a, const void *b, void *arg)
{
	const struct symtab *st = arg;
	const struct keyed *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return cmp_names(symtab_name(st, x->id), symtab_len(st, x->id),
			 symtab_name(st, y->id), symtab_len(st, y->id));
}

uint32_t *profile_name_ranks(const struct profile *p)
{
	uint32_t nsym = symtab_count(p->symtab);
	struct keyed *ids = xmalloc((nsym ? nsym : 1) * sizeof(*ids));
	uint32_t *rank = xmalloc((nsym ? nsym : 1) * sizeof(*rank));

	for (uint32_t i = 0; i < nsym; i++) {
		const unsigned char *q =
			(const unsigned char *)symtab_name(p->symtab, i);
		size_t len = symtab_len(p->symtab, i);

		/* The first 8 bytes of the name, zero-padded, big-endian. */
		ids[i].key = 0;
		for (size_t j = 0; j < 8; j++)
			ids[i].key = ids[i].key << 8 | (j < len ? q[j] : 0);
		ids[i].id = i;
	}
	ids = keyed_sort(ids, nsym);
	/* Names alike in their first 8 bytes: compared whole. */
	for (uint32_t i = 0, j; i < nsym; i = j) {
		for (j = i + 1; j < nsym && ids[j].key == ids[i].key; j++)
			;
		if (j - i > 1)
			qsort_r(ids + i, j - i, sizeof(*ids), cmp_symkey,
				p->symtab);
	}
	for (uint32_t i = 0; i < nsym; i++)
		rank[ids[i].id] = i;
	free(ids);
	return rank;
}

bool profile_siblings_sorted(const struct profile *p)
{
	return p->sorted;
}

uint32_t profile_append_child_ordered(struct profile *p, uint32_t parent,
				      uint32_t prev, uint32_t sym)
{
	bool sorted = p->sorted;
	uint32_t id = new_node(p, parent, sym);

	if (prev != NODE_NONE) {
		/* new_node pushed it first: move it after prev. */
		p->nodes[parent].child = p->nodes[id].next;
		p->nodes[id].next = p->nodes[prev].next;
		p->nodes[prev].next = id;
	}
	p->sorted = sorted;
	p->slots_stale = true;
	return id;
}

uint32_t profile_append_chain(struct profile *p, uint32_t parent,
			      uint32_t prev, const uint32_t *syms, size_t k)
{
	uint32_t id = (uint32_t)p->n;
	unsigned depth = p->depth[parent];

	if (!k)
		return NODE_NONE;
	if (k >= UINT32_MAX - 1 - p->n)
		fatal("too many call tree nodes");
	profile_reserve_nodes(p, k);
	for (size_t j = 0; j < k; j++) {
		struct pnode *nd = &p->nodes[id + j];

		nd->parent = j ? id + (uint32_t)j - 1 : parent;
		nd->child = j + 1 < k ? id + (uint32_t)j + 1 : NODE_NONE;
		nd->next = NODE_NONE;
		nd->sym = syms[j];
		p->depth[id + j] = (uint16_t)(depth + 1 + j);
	}
	if (prev == NODE_NONE) {
		p->nodes[id].next = p->nodes[parent].child;
		p->nodes[parent].child = id;
	} else {
		p->nodes[id].next = p->nodes[prev].next;
		p->nodes[prev].next = id;
	}
	p->n += k;
	p->slots_stale = true;
	return id;
}

uint32_t profile_graft(struct profile *dst, uint32_t at, struct profile *src)
{
	size_t k = src->n - 1;
	uint32_t base = (uint32_t)dst->n, shift = base - 1;
	unsigned d = dst->depth[at];

	if (!k)
		return base;
	if (dst->nodes[at].child != NODE_NONE || src->grand || src->grand2)
		fatal("internal: profile_graft onto children or with weights");
	if (k >= UINT32_MAX - 1 - dst->n)
		fatal("too many call tree nodes");
	profile_reserve_nodes(dst, k);
	for (size_t i = 1; i <= k; i++) {
		const struct pnode *s = &src->nodes[i];
		struct pnode *t = &dst->nodes[shift + i];

		t->parent = s->parent ? s->parent + shift : at;
		t->child = s->child == NODE_NONE ? NODE_NONE : s->child + shift;
		t->next = s->next == NODE_NONE ? NODE_NONE : s->next + shift;
		t->sym = s->sym;
		dst->depth[shift + i] = (uint16_t)(src->depth[i] + d);
	}
	dst->nodes[at].child = src->nodes[0].child + shift;
	dst->n += k;
	dst->slots_stale = true;
	dst->sorted = dst->sorted && src->sorted;
	src->n = 1;
	src->nodes[0].child = NODE_NONE;
	src->sorted = true;
	src->slots_stale = true;
	return base;
}

uint32_t profile_push_child(struct profile *p, uint32_t parent, uint32_t sym)
{
	uint32_t id = new_node(p, parent, sym);

	p->slots_stale = true;
	return id;
}

uint32_t profile_append_child(struct profile *p, uint32_t parent,
			      uint32_t prev, uint32_t sym)
{
	uint32_t next = prev == NODE_NONE ? p->nodes[parent].child
					  : p->nodes[prev].next;
	bool sorted = p->sorted;
	uint32_t id;

	/* Still sorted if the child's name goes between prev's and next's. */
	if (sorted && prev != NODE_NONE)
		sorted = sym_before(p, p->nodes[prev].sym, sym);
	if (sorted && next != NODE_NONE)
		sorted = sym_before(p, sym, p->nodes[next].sym);
	id = profile_append_child_ordered(p, parent, prev, sym);
	p->sorted = sorted;
	return id;
}

/* Multiply every stored weight by 10^d; false if a sum would overflow. */
static bool rescale(struct profile *p, unsigned d)
{
	uint64_t m = pow10_tab[d], t;

	if (__builtin_mul_overflow(p->grand, m, &t) ||
	    __builtin_mul_overflow(p->grand2, m, &t))
		return false;
	p->grand *= m;
	p->grand2 *= m;
	for (size_t i = 0; i < p->n; i++) {
		p->self[i] *= m;
		p->total[i] *= m;
		if (p->rself)
			p->rself[i] *= m;
		if (p->differential) {
			p->self2[i] *= m;
			p->total2[i] *= m;
		}
		if (p->rself2)
			p->rself2[i] *= m;
	}
	for (size_t i = 0; i < p->ntl; i++)
		p->tl[i].weight *= m;
	for (size_t i = 0; i < p->nut; i++)
		p->ut[i].weight *= m;
	p->decimals += d;
	return true;
}

static uint64_t task_hash(const struct task_meta *t)
{
	return hash_u64(((uint64_t)t->pid << 32 | t->tid) ^
			hash_u64((uint64_t)t->cpu << 32 | t->comm) ^
			hash_u64(t->labels) ^
			(uint64_t)(t->has_task | t->has_cpu << 1) << 62);
}

static bool task_eq(const struct task_meta *a, const struct task_meta *b)
{
	return a->pid == b->pid && a->tid == b->tid && a->cpu == b->cpu &&
	       a->comm == b->comm && a->labels == b->labels &&
	       a->has_task == b->has_task &&
	       a->has_cpu == b->has_cpu;
}

/* The index + 1 of task t, added if new (0 when the table is full). */
static uint32_t intern_task_slot(struct profile *p, const struct task_meta *t)
{
	size_t j;

	if (p->ntasks * 2 >= p->taskmask) {
		size_t nmask = p->taskmask ? p->taskmask * 2 + 1 : 63;

		free(p->taskslot);
		p->taskslot = xcalloc(nmask + 1, sizeof(*p->taskslot));
		p->taskmask = nmask;
		for (size_t i = 0; i < p->ntasks; i++) {
			j = task_hash(&p->tasks[i]) & nmask;
			while (p->taskslot[j])
				j = (j + 1) & nmask;
			p->taskslot[j] = (uint32_t)i + 1;
		}
	}
	for (j = task_hash(t) & p->taskmask; p->taskslot[j];
	     j = (j + 1) & p->taskmask)
		if (task_eq(&p->tasks[p->taskslot[j] - 1], t))
			return p->taskslot[j];
	if (p->ntasks >= TL_LABELS - 1)
		return 0;
	GROW(p->tasks, p->captasks, p->ntasks + 1);
	p->tasks[p->ntasks++] = *t;
	p->taskslot[j] = (uint32_t)p->ntasks;
	return (uint32_t)p->ntasks;
}

/* The index + 1 of meta's task/CPU tuple, added if new; 0 when unknown. */
static uint32_t intern_task(struct profile *p, const struct sample_meta *m)
{
	struct task_meta t = { 0, 0, 0, 0, m->labels, m->has_task, m->has_cpu };
	uint32_t *last;

	if (!m->has_task && !m->has_cpu && !m->labels)
		return 0;
	if (!m->has_task && !m->has_cpu && m->labels < TL_LABELS)
		return TL_LABELS | m->labels;   /* no tuple needed */
	if (m->has_task) {
		t.pid = m->pid;
		t.tid = m->tid;
		t.comm = m->comm;
	}
	if (m->has_cpu)
		t.cpu = m->cpu;
	/* A CPU's samples come from the same thread for a while. */
	last = &p->task_last[t.cpu % ARRAY_SIZE(p->task_last)];
	if (*last && task_eq(&p->tasks[*last - 1], &t))
		return *last;
	*last = intern_task_slot(p, &t);
	return *last;
}

/* Append a timeline entry (meta: task index + 1, maybe | TL_BEFORE). */
static void add_timed(struct profile *p, uint32_t node, uint64_t time,
		      uint64_t v, uint32_t meta)
{
	struct tl_entry *e;

	if (p->ntl == p->captl) {
		size_t old = p->captl;

		/* Grown in place or remapped: never copied. */
		p->captl = old ? old * 2 : 4096;
		ARR_GROW(p->tl, old, p->captl);
	}
	e = &p->tl[p->ntl++];
	e->time = time;
	e->weight = v;
	e->node = node;
	e->meta = meta;
	if (p->ntl > 1 && e[-1].time > e->time)
		p->tl_sorted = false;
	if (!p->range_on)
		return;
	if (meta & TL_BEFORE) {
		if (p->rself2 && e->time >= p->range2_first &&
		    e->time <= p->range2_last)
			p->rself2[node] += v;
	} else if (e->time >= p->range_first && e->time <= p->range_last) {
			p->rself[node] += v;
	}
}

/* Append an untimed sample (meta: as add_timed's). */
static void add_untimed(struct profile *p, uint32_t node, uint64_t v,
			uint32_t meta)
{
	if (!meta)
		return;         /* the tuple table is full: weight alone */
	ARR_NEED(p->ut, p->caput, p->nut + 1);
	p->ut[p->nut++] = (struct ut_entry){ v, node, meta };
}

enum add_status profile_add_at(struct profile *p, uint32_t node,
			       const struct weight *w,
			       const struct sample_meta *meta)
{
	uint64_t v = w->v, v2 = w->v2, g, g2;
	unsigned dec = w->decimals > WEIGHT_MAX_DECIMALS ? WEIGHT_MAX_DECIMALS
							 : w->decimals;

	if (p->into2) {
		/* The input read into the first count: its weight is BEFORE. */
		v2 = v;
		v = 0;
	}

	if (dec > p->decimals && !rescale(p, dec - p->decimals))
		return ADD_OVERFLOW;
	if (dec < p->decimals) {
		uint64_t m = pow10_tab[p->decimals - dec];

		if (__builtin_mul_overflow(v, m, &v) ||
		    __builtin_mul_overflow(v2, m, &v2))
			return ADD_OVERFLOW;
	}
	if (__builtin_add_overflow(p->grand, v, &g) ||
	    __builtin_add_overflow(p->grand2, v2, &g2))
		return ADD_OVERFLOW;
	p->grand = g;
	p->grand2 = g2;
	p->self[node] += v;
	if (p->differential)
		p->self2[node] += v2;
	p->samples++;
	if (meta && meta->has_time) {
		uint32_t task = intern_task(p, meta);

		/* One entry per count a differential sample has. */
		if (v || !v2)
			add_timed(p, node, meta->time_ns, v, task);
		if (v2)
			add_timed(p, node, meta->time_ns, v2, task | TL_BEFORE);
	} else if (meta && (meta->has_task || meta->has_cpu || meta->labels)) {
		uint32_t task = intern_task(p, meta);

		if (v || !v2)
			add_untimed(p, node, v, task);
		if (v2)
			add_untimed(p, node, v2, task | TL_BEFORE);
	}
	return ADD_OK;
}

enum add_status profile_add_stack_leaf(struct profile *p,
				       const uint32_t *syms, size_t depth,
				       const struct weight *w,
				       const struct sample_meta *meta,
				       uint32_t *leaf)
{
	uint32_t node = NODE_ROOT;

	if (depth == 0)
		return ADD_EMPTY;
	if (depth > PROFILE_MAX_DEPTH - 1)
		return ADD_TOO_DEEP;
	for (size_t i = 0; i < depth; i++)
		node = profile_child(p, node, syms[i]);
	*leaf = node;
	return profile_add_at(p, node, w, meta);
}

enum add_status profile_add_stack(struct profile *p, const uint32_t *syms,
				  size_t depth, const struct weight *w,
				  const struct sample_meta *meta)
{
	uint32_t leaf;

	return profile_add_stack_leaf(p, syms, depth, w, meta, &leaf);
}

struct sort_item {
	const char *name;    /* by name, when the names are not ranked */
	size_t len;
	uint64_t total;      /* weight order: the sibling's total */
	uint32_t id;
	uint32_t rank;       /* its name's rank; weight order: its place */
};

static int cmp_item(const void *a, const void *b)
{
	const struct sort_item *x = a, *y = b;

	return (x->rank > y->rank) - (x->rank < y->rank);
}

static int cmp_name_item(const void *a, const void *b)
{
	const struct sort_item *x = a, *y = b;

	return cmp_names(x->name, x->len, y->name, y->len);
}

static int cmp_weight_item(const void *a, const void *b)
{
	const struct sort_item *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/*
 * Sort every sibling list by name or, by_weight, heaviest first with ties
 * kept in their present (name) order.  On a tree much bigger than its
 * names, they are ranked once, so the sort by name compares integers, not
 * strings; on a smaller one, ranking costs more (page faults on its
 * arrays) than it saves.
 */
static void sort_lists(struct profile *p, bool by_weight)
{
	uint32_t *rank = by_weight || (size_t)symtab_count(p->symtab) * 8 > p->n
			 ? NULL : profile_name_ranks(p);
	struct sort_item *items = NULL;
	size_t cap = 0;

	for (size_t i = 0; i < p->n; i++) {
		size_t k = 0;
		uint32_t c = p->nodes[i].child;

		if (c == NODE_NONE || p->nodes[c].next == NODE_NONE)
			continue;
		for (; c != NODE_NONE; c = p->nodes[c].next) {
			GROW(items, cap, k + 1);
			if (by_weight) {
				items[k].total = p->total[c];
				items[k].rank = (uint32_t)k;
			} else if (rank) {
				items[k].rank = rank[p->nodes[c].sym];
			} else {
				items[k].name = symtab_name(p->symtab,
							    p->nodes[c].sym);
				items[k].len = symtab_len(p->symtab, p->nodes[c].sym);
			}
			items[k++].id = c;
		}
		qsort(items, k, sizeof(*items), by_weight ? cmp_weight_item
		      : rank ? cmp_item : cmp_name_item);
		p->nodes[i].child = items[0].id;
		for (size_t j = 0; j + 1 < k; j++)
			p->nodes[items[j].id].next = items[j + 1].id;
		p->nodes[items[k - 1].id].next = NODE_NONE;
	}
	free(items);
	free(rank);
}

static void sort_siblings(struct profile *p)
{
	sort_lists(p, false);
	p->sorted = true;
}

/* How many nodes ahead compute_totals fetches a parent's total. */
#define TOTALS_AHEAD 128

/* Totals of the current view, and the statistics that go with them. */
static void compute_totals(struct profile *p)
{
	const uint64_t *s = p->range_on ? p->rself : p->self;
	const uint64_t *s2 = p->range_on && p->rself2 ? p->rself2 : p->self2;

	size_t distinct = 0;
	unsigned max_depth = 0;

	/* New memory is zero: only totals set before need clearing. */
	size_t set = p->totals_set < p->n ? p->totals_set : p->n;

	memset(p->total, 0, set * sizeof(*p->total));
	if (p->differential)
		memset(p->total2, 0, set * sizeof(*p->total2));
	p->totals_set = p->n;
	/*
	 * Children come after their parent: when the pass reaches node i,
	 * every child has added its total to i's, and i's own weight makes
	 * it complete.  The deepest node that has weight is one with weight
	 * of its own (a node's weight comes from below it), so only those
	 * nodes' depths are read.
	 *
	 * A parent far below its child is mostly out of the caches: its
	 * total is fetched TOTALS_AHEAD nodes ahead of the step that adds to
	 * it, so that these fetches overlap instead of each stopping the
	 * pass (a tree of 4.8M nodes in random order: 30 ms became 13).
	 */
	for (size_t i = p->n - 1; i > 0; i--) {
		uint32_t up = p->nodes[i].parent;
		uint64_t t = p->total[i] + s[i];
		bool own = s[i];

		if (i > TOTALS_AHEAD) {
			uint32_t far = p->nodes[i - TOTALS_AHEAD].parent;

			__builtin_prefetch(&p->total[far], 1);
			if (p->differential)
				__builtin_prefetch(&p->total2[far], 1);
		}
		p->total[i] = t;
		p->total[up] += t;
		if (p->differential) {
			uint64_t t2 = p->total2[i] + s2[i];

			p->total2[i] = t2;
			p->total2[up] += t2;
			own |= s2[i] != 0;
		}
		if (!own)
			continue;
		distinct++;
		if (p->depth[i] > max_depth)
			max_depth = p->depth[i];
	}
	p->total[0] += s[0];
	if (p->differential)
		p->total2[0] += s2[0];
	p->distinct = distinct;
	p->max_depth = max_depth;
	p->max_change = 0;
	if (p->differential) {
		/* Shares computed as diff_info computes them, so the node of
		 * the largest change gets exactly 1 from change / max. */
		double ta = (double)p->total[0], tb = (double)p->total2[0];

		for (size_t i = 1; i < p->n; i++) {
			double a = ta > 0 ? 100.0 * (double)p->total[i] / ta : 0;
			double b = tb > 0 ? 100.0 * (double)p->total2[i] / tb : 0;
			double c = a > b ? a - b : b - a;

			if (c > p->max_change)
				p->max_change = c;
		}
	}
}

void profile_finish(struct profile *p)
{
	/* Weight order starts from name order, so that ties keep it. */
	if (!p->sorted || p->order == ORDER_WEIGHT)
		sort_siblings(p);
	compute_totals(p);
	if (p->order == ORDER_WEIGHT) {
		sort_lists(p, true);
		p->sorted = false;
	}
}

void profile_set_order(struct profile *p, enum profile_order o)
{
	if (o != p->order)
		p->sorted = false;
	p->order = o;
}

enum profile_order profile_order(const struct profile *p)
{
	return p->order;
}

void profile_reset_weights(struct profile *p)
{
	if (p->addrs)
		paddr_reset_weights(p->addrs);
	memset(p->self, 0, p->n * sizeof(*p->self));
	if (p->rself)
		memset(p->rself, 0, p->n * sizeof(*p->rself));
	if (p->differential)
		memset(p->self2, 0, p->n * sizeof(*p->self2));
	if (p->rself2)
		memset(p->rself2, 0, p->n * sizeof(*p->rself2));
	p->grand = p->grand2 = 0;
	p->samples = 0;
	p->ntl = 0;
	p->nut = 0;
	p->tl_sorted = true;
	profile_finish(p);
}

/* ---- Time ranges ----------------------------------------------------- */

static int cmp_tl(const void *a, const void *b)
{
	const struct tl_entry *x = a, *y = b;

	return (x->time > y->time) - (x->time < y->time);
}

static void sort_timeline(struct profile *p)
{
	if (p->tl_sorted)
		return;
	qsort(p->tl, p->ntl, sizeof(*p->tl), cmp_tl);
	p->tl_sorted = true;
}

/* Index of the first entry with time >= t (the timeline is sorted). */
static size_t tl_lower(const struct profile *p, uint64_t t)
{
	size_t lo = 0, hi = p->ntl;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->tl[mid].time < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool profile_has_timeline(const struct profile *p)
{
	return p->ntl > 0;
}

bool profile_time_bounds(const struct profile *p, uint64_t *first,
			 uint64_t *last)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	if (!p->ntl)
		return false;
	if (p->tl_sorted) {
		lo = p->tl[0].time;
		hi = p->tl[p->ntl - 1].time;
	} else {
		for (size_t i = 0; i < p->ntl; i++) {
			if (p->tl[i].time < lo)
				lo = p->tl[i].time;
			if (p->tl[i].time > hi)
				hi = p->tl[i].time;
		}
	}
	*first = lo;
	*last = hi;
	return true;
}

size_t profile_count_range(const struct profile *p, uint64_t first,
			   uint64_t last, uint64_t *weight)
{
	size_t n = 0;
	uint64_t w = 0;

	sort_timeline((struct profile *)p);
	for (size_t i = tl_lower(p, first); i < p->ntl && p->tl[i].time <= last;
	     i++) {
		n++;
		w += p->tl[i].weight;
	}
	if (weight)
		*weight = w;
	return n;
}

void profile_set_range(struct profile *p, uint64_t first, uint64_t last)
{
	profile_set_ranges(p, first, last, first, last);
}

void profile_set_ranges(struct profile *p, uint64_t first, uint64_t last,
			uint64_t first2, uint64_t last2)
{
	uint64_t lo = first < first2 ? first : first2;
	uint64_t hi = last > last2 ? last : last2;

	if (!p->rself)
		ARR_GROW(p->rself, 0, p->cap);
	memset(p->rself, 0, p->n * sizeof(*p->rself));
	if (p->differential) {
		if (!p->rself2)
			ARR_GROW(p->rself2, 0, p->cap);
		memset(p->rself2, 0, p->n * sizeof(*p->rself2));
	}
	sort_timeline(p);
	for (size_t i = tl_lower(p, lo); i < p->ntl && p->tl[i].time <= hi;
	     i++) {
		const struct tl_entry *e = &p->tl[i];

		if (!(e->meta & TL_BEFORE)) {
			if (e->time >= first && e->time <= last)
				p->rself[e->node] += e->weight;
		} else if (p->rself2 && e->time >= first2 && e->time <= last2) {
			p->rself2[e->node] += e->weight;
		}
	}
	p->range_on = true;
	p->range_first = first;
	p->range_last = last;
	p->range2_first = first2;
	p->range2_last = last2;
	if (p->addrs)
		paddr_set_range(p->addrs, first, last);
	profile_finish(p);
}

void profile_clear_range(struct profile *p)
{
	p->range_on = false;
	if (p->addrs)
		paddr_clear_range(p->addrs);
	profile_finish(p);
}

void profile_forget_before(struct profile *p, uint64_t t)
{
	size_t k;

	if (p->addrs)
		paddr_forget_before(p->addrs, t);
	sort_timeline(p);
	k = tl_lower(p, t);
	if (!k)
		return;
	memmove(p->tl, p->tl + k, (p->ntl - k) * sizeof(*p->tl));
	p->ntl -= k;
}

size_t profile_timeline_len(const struct profile *p)
{
	return p->ntl;
}

/* The tuple of an entry's meta (task index + 1, maybe | TL_BEFORE). */
static void task_of(const struct profile *p, uint32_t tm,
		    struct sample_meta *meta)
{
	const struct task_meta *t;

	memset(meta, 0, sizeof(*meta));
	if (tm & TL_LABELS) {
		meta->labels = tm & ~(TL_BEFORE | TL_LABELS);
		return;
	}
	if (!(tm & ~TL_BEFORE))
		return;
	t = &p->tasks[(tm & ~TL_BEFORE) - 1];
	meta->has_task = t->has_task;
	meta->has_cpu = t->has_cpu;
	meta->pid = t->pid;
	meta->tid = t->tid;
	meta->cpu = t->cpu;
	meta->comm = t->comm;
	meta->labels = t->labels;
}

uint32_t profile_timeline_sample(const struct profile *p, size_t i,
				 uint64_t *weight, struct sample_meta *meta)
{
	const struct tl_entry *e = &p->tl[i];

	*weight = e->weight;
	if (meta) {
		task_of(p, e->meta, meta);
		meta->time_ns = e->time;
		meta->has_time = true;
	}
	return e->node;
}

size_t profile_untimed_len(const struct profile *p)
{
	return p->nut;
}

uint32_t profile_untimed_sample(const struct profile *p, size_t i,
				uint64_t *weight, struct sample_meta *meta)
{
	const struct ut_entry *e = &p->ut[i];

	*weight = e->weight;
	if (meta)
		task_of(p, e->meta, meta);
	return e->node;
}

bool profile_untimed_before(const struct profile *p, size_t i)
{
	return (p->ut[i].meta & TL_BEFORE) != 0;
}

const struct labels *profile_labels(const struct profile *p)
{
	return p->labels;
}

struct labels *profile_labels_w(struct profile *p)
{
	return p->labels;
}

void profile_copy_labels(struct profile *dst, const struct profile *src)
{
	labels_destroy(dst->labels);
	dst->labels = labels_share(src->labels);
}

bool profile_has_labels(const struct profile *p)
{
	return labels_count(p->labels) > 1;
}

bool profile_timeline_before(const struct profile *p, size_t i)
{
	return (p->tl[i].meta & TL_BEFORE) != 0;
}

uint64_t profile_self_all(const struct profile *p, uint32_t id)
{
	return p->self[id];
}

bool profile_range(const struct profile *p, uint64_t *first, uint64_t *last)
{
	if (p->range_on) {
		*first = p->range_first;
		*last = p->range_last;
	}
	return p->range_on;
}

/* ---- Reading --------------------------------------------------------- */

const struct symtab *profile_symtab(const struct profile *p)
{
	return p->symtab;
}

size_t profile_node_count(const struct profile *p) { return p->n; }

const struct pnode *profile_node(const struct profile *p, uint32_t id)
{
	return &p->nodes[id];
}

uint64_t profile_total(const struct profile *p, uint32_t id)
{
	return p->total[id];
}

uint64_t profile_self(const struct profile *p, uint32_t id)
{
	return p->range_on ? p->rself[id] : p->self[id];
}

uint64_t profile_total2(const struct profile *p, uint32_t id)
{
	return p->differential ? p->total2[id] : 0;
}

uint64_t profile_self2(const struct profile *p, uint32_t id)
{
	if (!p->differential)
		return 0;
	return p->range_on && p->rself2 ? p->rself2[id] : p->self2[id];
}

unsigned profile_depth(const struct profile *p, uint32_t id)
{
	return p->depth[id];
}

const char *profile_name(const struct profile *p, uint32_t id)
{
	return symtab_name(p->symtab, p->nodes[id].sym);
}

size_t profile_name_len(const struct profile *p, uint32_t id)
{
	return symtab_len(p->symtab, p->nodes[id].sym);
}

uint64_t profile_samples(const struct profile *p) { return p->samples; }
size_t profile_distinct_stacks(const struct profile *p) { return p->distinct; }
unsigned profile_max_depth(const struct profile *p) { return p->max_depth; }
double profile_max_change(const struct profile *p) { return p->max_change; }
unsigned profile_decimals(const struct profile *p) { return p->decimals; }

bool profile_can_add(const struct profile *p, uint64_t v)
{
	uint64_t t;

	return p->decimals == 0 && !__builtin_add_overflow(p->grand, v, &t) &&
	       !__builtin_add_overflow(p->grand2, v, &t);
}

size_t profile_format_weight(const struct profile *p, uint64_t w, char *buf,
			     size_t cap)
{
	uint64_t m = pow10_tab[p->decimals];
	uint64_t ip = w / m, fp = w % m;
	unsigned d = p->decimals;
	int n;

	if (!fp) {
		/* Whole weights (every --collapse line has one), without
		 * snprintf's format parsing: digits backwards, then moved. */
		char tmp[20];
		size_t k = sizeof(tmp);

		do {
			tmp[--k] = (char)('0' + ip % 10);
			ip /= 10;
		} while (ip);
		n = (int)(sizeof(tmp) - k);
		if (cap) {
			size_t c = (size_t)n < cap ? (size_t)n : cap - 1;

			memcpy(buf, tmp + k, c);
			buf[c] = 0;
		}
	} else {
		while (fp % 10 == 0) {
			fp /= 10;
			d--;
		}
		n = snprintf(buf, cap, "%llu.%0*llu", (unsigned long long)ip,
			     (int)d, (unsigned long long)fp);
	}
	return n < 0 ? 0 : (size_t)n;
}

double profile_weight_value(const struct profile *p, uint64_t w)
{
	return (double)w / (double)pow10_tab[p->decimals];
}

/* What weights of unit u named name measure, for a message. */
static const char *unit_what(enum weight_unit u, const char *name)
{
	static const char *const what[] = {
		[UNIT_SAMPLES] = "samples", [UNIT_NS] = "CPU time",
		[UNIT_NANOS] = "time", [UNIT_BYTES] = "bytes",
		[UNIT_COUNT] = "counts",
	};

	return *name ? name : (unsigned)u < ARRAY_SIZE(what) && what[u]
		? what[u] : "samples";
}

const char *profile_unit_mixed(const struct profile *p)
{
	return p->unit_mixed ? p->mixed_what : NULL;
}

size_t profile_task_suffix(char *buf, size_t cap, uint32_t pid,
			   const uint32_t *tid)
{
	char a[12] = "?", b[12] = "?";
	int k;

	if (pid != UINT32_MAX)
		snprintf(a, sizeof(a), "%u", pid);
	if (tid && *tid != UINT32_MAX)
		snprintf(b, sizeof(b), "%u", *tid);
	k = tid ? snprintf(buf, cap, "-%s/%s", a, b)
		: snprintf(buf, cap, "-%s", a);
	return k < 0 ? 0 : (size_t)k < cap ? (size_t)k : cap ? cap - 1 : 0;
}

void profile_note_unit(struct profile *p, enum weight_unit u)
{
	profile_note_unit_named(p, u, "");
}

void profile_note_unit_named(struct profile *p, enum weight_unit u,
			     const char *name)
{
	if (p->unit_mixed)
		return;
	if (p->unit_known && (p->unit != u || strcmp(p->unit_name, name))) {
		/* Page faults and CPU time summed are neither: samples. */
		snprintf(p->mixed_what, sizeof(p->mixed_what), "%s and %s",
			 unit_what(p->unit, p->unit_name), unit_what(u, name));
		p->unit = UNIT_SAMPLES;
		p->unit_mixed = true;
		profile_set_unit_name(p, "");
		return;
	}
	p->unit = u;
	p->unit_known = true;
	profile_set_unit_name(p, name);
}

void profile_set_unit_name(struct profile *p, const char *name)
{
	snprintf(p->unit_name, sizeof(p->unit_name), "%s", name ? name : "");
}

const char *profile_unit_name(const struct profile *p)
{
	return p->unit_name;
}

void profile_copy_unit(struct profile *dst, const struct profile *src)
{
	/* Two sources that name their counts differently: plain samples. */
	profile_note_unit_named(dst, src->unit, src->unit_name);
	if (src->differential)
		profile_set_sides(dst, src->side[0], src->side[1]);
}

void profile_set_sides(struct profile *p, const char *before,
		       const char *after)
{
	snprintf(p->side[0], sizeof(p->side[0]), "%s", before ? before : "");
	snprintf(p->side[1], sizeof(p->side[1]), "%s", after ? after : "");
}

const char *profile_side(const struct profile *p, bool after)
{
	return p->side[after][0] ? p->side[after] : after ? "after" : "before";
}

enum weight_unit profile_unit(const struct profile *p)
{
	return p->unit;
}

void profile_forget_unit(struct profile *p)
{
	p->unit = UNIT_SAMPLES;
	p->unit_known = p->unit_mixed = false;
	p->unit_name[0] = '\0';
}

/* The amount's scale, and what it counts ("CPU", "page-faults") or NULL
 * when the scale says it all (bytes, other time, pprof's counts). */
static enum amount_scale unit_scale(const struct profile *p,
				    const char **what)
{
	*what = NULL;
	switch (p->unit) {
	case UNIT_NS:
		*what = p->unit_name[0] ? p->unit_name : "CPU";
		return AMOUNT_TIME;
	case UNIT_NANOS:
		return AMOUNT_TIME;
	case UNIT_BYTES:
		return AMOUNT_BYTES;
	case UNIT_COUNT:
		return AMOUNT_COUNT;
	default:
		*what = p->unit_name[0] ? p->unit_name : "samples";
		return AMOUNT_COUNT;
	}
}

size_t profile_format_figure(const struct profile *p, uint64_t w, char *buf,
			     size_t cap)
{
	const char *what;

	return textfmt_amount(profile_weight_value(p, w), unit_scale(p, &what),
			      buf, cap);
}

size_t profile_format_amount(const struct profile *p, uint64_t w, char *buf,
			     size_t cap)
{
	const char *what;
	size_t n = textfmt_amount(profile_weight_value(p, w),
				  unit_scale(p, &what), buf, cap);
	int k;

	if (!what || n + 1 >= cap)
		return n;
	k = snprintf(buf + n, cap - n, " %s", what);
	return n + (k < 0 ? 0 : (size_t)k < cap - n ? (size_t)k : cap - n - 1);
}
