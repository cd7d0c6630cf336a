/*
 * profile-addr.c - the address tables (profile-addr.h).
 *
 * Functions: an array of struct paddr_func (strings and build-ids copied
 * into one allocation each), found by (module, name) through an
 * open-addressing table of ids.
 *
 * The address tree: node i has a parent, a function id, an address and
 * the weight of the stacks that ended there (not summed over children:
 * paddr_rows sums them when asked).  A node's children are found through
 * one open-addressing table keyed by (parent, function, address), so a
 * stack seen for the first time costs one probe per frame, and one seen
 * again costs nothing here (the reader keeps its end node).  Nodes are
 * only added, so parents always come before their children: walking the
 * ids backwards sums every subtree in one pass.
 */
#include "profile-addr.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

struct anode {
	uint32_t parent;
	uint32_t func;
	uint64_t addr;
};

struct owner {
	void *p;
	void (*release)(void *);
};

struct paddr {
	struct paddr_func *funcs;
	size_t nfuncs, capfuncs;
	uint32_t *fslots;          /* function id + 1; 0: empty */
	size_t fmask;

	struct anode *nodes;       /* ARR array of capnodes */
	uint64_t *w;               /* weight ending at each node (ARR) */
	size_t nnodes, capnodes;
	uint32_t *slots;           /* node id (never the root); 0: empty */
	size_t mask;

	struct owner *owners;
	size_t nowners, capowners;
};

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

struct paddr *paddr_create(void)
{
	struct paddr *a = xcalloc(1, sizeof(*a));

	a->fmask = 255;
	a->fslots = xcalloc(a->fmask + 1, sizeof(*a->fslots));
	a->capnodes = 1024;
	ARR_GROW(a->nodes, 0, a->capnodes);
	ARR_GROW(a->w, 0, a->capnodes);
	a->nodes[0].parent = PADDR_NONE;
	a->nodes[0].func = PADDR_NONE;
	a->nnodes = 1;
	a->mask = 2047;
	a->slots = xcalloc(a->mask + 1, sizeof(*a->slots));
	return a;
}

void paddr_destroy(struct paddr *a)
{
	if (!a)
		return;
	for (size_t i = a->nowners; i-- > 0;)
		a->owners[i].release(a->owners[i].p);
	free(a->owners);
	for (size_t i = 0; i < a->nfuncs; i++) {
		free((char *)a->funcs[i].name);
		free((uint8_t *)a->funcs[i].build_id);
	}
	free(a->funcs);
	free(a->fslots);
	ARR_FREE(a->nodes, a->capnodes);
	ARR_FREE(a->w, a->capnodes);
	free(a->slots);
	free(a);
}

void paddr_reset_weights(struct paddr *a)
{
	memset(a->w, 0, a->nnodes * sizeof(*a->w));
}

/* ---- Functions --------------------------------------------------------- */

static uint64_t func_hash(const char *module, const char *name)
{
	return hash_bytes_seed(name, strlen(name),
			       hash_bytes(module, strlen(module)));
}

static uint32_t *func_slot(const struct paddr *a, const char *module,
			   const char *name)
{
	size_t i = (size_t)func_hash(module, name) & a->fmask;

	for (;; i = (i + 1) & a->fmask) {
		uint32_t id = a->fslots[i];

		if (!id || (strcmp(a->funcs[id - 1].name, name) == 0 &&
			    strcmp(a->funcs[id - 1].module, module) == 0))
			return &a->fslots[i];
	}
}

uint32_t paddr_func_intern(struct paddr *a, const struct paddr_func *f)
{
	const char *module = f->module ? f->module : "";
	uint32_t *s = func_slot(a, module, f->name);
	struct paddr_func *g;
	size_t nl, ml;

	if (*s)
		return *s - 1;
	GROW(a->funcs, a->capfuncs, a->nfuncs + 1);
	g = &a->funcs[a->nfuncs];
	*g = *f;
	/* Name and module in one block: the name first, freed as one. */
	nl = strlen(f->name);
	ml = strlen(module);
	{
		char *b = xmalloc(nl + ml + 2);

		memcpy(b, f->name, nl + 1);
		memcpy(b + nl + 1, module, ml + 1);
		g->name = b;
		g->module = b + nl + 1;
	}
	g->build_id = NULL;
	if (f->build_id && f->build_id_len) {
		uint8_t *b = xmalloc(f->build_id_len);

		memcpy(b, f->build_id, f->build_id_len);
		g->build_id = b;
	}
	*s = (uint32_t)++a->nfuncs;
	if (a->nfuncs * 2 > a->fmask) {
		free(a->fslots);
		a->fmask = a->fmask * 2 + 1;
		a->fslots = xcalloc(a->fmask + 1, sizeof(*a->fslots));
		for (size_t i = 0; i < a->nfuncs; i++)
			*func_slot(a, a->funcs[i].module, a->funcs[i].name) =
				(uint32_t)i + 1;
	}
	return (uint32_t)a->nfuncs - 1;
}

size_t paddr_func_count(const struct paddr *a)
{
	return a ? a->nfuncs : 0;
}

const struct paddr_func *paddr_func_get(const struct paddr *a, uint32_t id)
{
	return id < a->nfuncs ? &a->funcs[id] : NULL;
}

/* ---- The address tree -------------------------------------------------- */

static size_t node_hash(uint32_t parent, uint32_t func, uint64_t addr)
{
	return (size_t)mix(addr * 0x9e3779b97f4a7c15ULL ^
			   ((uint64_t)parent << 32 | func));
}

/* The slot of (parent, func, addr): holding its node, or empty. */
static uint32_t *node_slot(const struct paddr *a, uint32_t parent,
			   uint32_t func, uint64_t addr)
{
	size_t i = node_hash(parent, func, addr) & a->mask;

	for (;; i = (i + 1) & a->mask) {
		uint32_t id = a->slots[i];
		const struct anode *n = &a->nodes[id];

		if (!id || (n->addr == addr && n->parent == parent &&
			    n->func == func))
			return &a->slots[i];
	}
}

static void grow_slots(struct paddr *a)
{
	free(a->slots);
	a->mask = a->mask * 2 + 1;
	a->slots = xcalloc(a->mask + 1, sizeof(*a->slots));
	for (uint32_t i = 1; i < a->nnodes; i++) {
		const struct anode *n = &a->nodes[i];

		*node_slot(a, n->parent, n->func, n->addr) = i;
	}
}

static uint32_t child(struct paddr *a, uint32_t parent,
		      const struct paddr_frame *f)
{
	uint32_t *s = node_slot(a, parent, f->func, f->addr);
	uint32_t id;

	if (*s)
		return *s;
	if (a->nnodes == a->capnodes) {
		ARR_GROW(a->nodes, a->capnodes, a->capnodes * 2);
		ARR_GROW(a->w, a->capnodes, a->capnodes * 2);
		a->capnodes *= 2;
	}
	id = (uint32_t)a->nnodes++;
	a->nodes[id].parent = parent;
	a->nodes[id].func = f->func;
	a->nodes[id].addr = f->addr;
	*s = id;
	if (a->nnodes * 2 > a->mask)
		grow_slots(a);
	return id;
}

uint32_t paddr_add_stack(struct paddr *a, const struct paddr_frame *frames,
			 size_t n, uint64_t w)
{
	uint32_t at = PADDR_ROOT;

	for (size_t i = 0; i < n; i++)
		at = child(a, at, &frames[i]);
	a->w[at] += w;
	return at;
}

void paddr_add_at(struct paddr *a, uint32_t node, uint64_t w)
{
	if (node < a->nnodes)
		a->w[node] += w;
}

void paddr_keep(struct paddr *a, void *owner, void (*release)(void *))
{
	GROW(a->owners, a->capowners, a->nowners + 1);
	a->owners[a->nowners].p = owner;
	a->owners[a->nowners].release = release;
	a->nowners++;
}

void *paddr_owner(const struct paddr *a)
{
	return a && a->nowners ? a->owners[a->nowners - 1].p : NULL;
}

/* ---- Reading ----------------------------------------------------------- */

static int row_cmp(const void *x, const void *y)
{
	const struct paddr_row *a = x, *b = y;

	return (a->addr > b->addr) - (a->addr < b->addr);
}

/* Whether an ancestor of node is the same function at the same address. */
static bool seen_above(const struct paddr *a, uint32_t node)
{
	const struct anode *n = &a->nodes[node];

	for (uint32_t p = n->parent; p != PADDR_ROOT && p != PADDR_NONE;
	     p = a->nodes[p].parent)
		if (a->nodes[p].func == n->func && a->nodes[p].addr == n->addr)
			return true;
	return false;
}

/* Whether an ancestor of node is in function func. */
static bool func_above(const struct paddr *a, uint32_t node, uint32_t func)
{
	for (uint32_t p = a->nodes[node].parent;
	     p != PADDR_ROOT && p != PADDR_NONE; p = a->nodes[p].parent)
		if (a->nodes[p].func == func)
			return true;
	return false;
}

size_t paddr_rows(const struct paddr *a, uint32_t id, struct paddr_row **rows,
		  uint64_t *self, uint64_t *total)
{
	uint64_t *sub = xcalloc(a->nnodes, sizeof(*sub));
	struct paddr_row *r = NULL;
	size_t n = 0, cap = 0, k = 0;
	uint64_t fs = 0, ft = 0;

	/* Children come after their parents: backwards sums every subtree. */
	for (size_t i = a->nnodes; i-- > 1;) {
		sub[i] += a->w[i];
		sub[a->nodes[i].parent] += sub[i];
	}
	for (uint32_t i = 1; i < a->nnodes; i++) {
		const struct anode *nd = &a->nodes[i];

		if (nd->func != id || (!a->w[i] && !sub[i]))
			continue;
		GROW(r, cap, n + 1);
		r[n].addr = nd->addr;
		r[n].self = a->w[i];
		r[n].total = seen_above(a, i) ? 0 : sub[i];
		fs += a->w[i];
		if (!func_above(a, i, id))
			ft += sub[i];
		n++;
	}
	free(sub);
	if (n) {
		qsort(r, n, sizeof(*r), row_cmp);
		/* One row per address. */
		for (size_t i = 1; i < n; i++) {
			if (r[i].addr == r[k].addr) {
				r[k].self += r[i].self;
				r[k].total += r[i].total;
			} else {
				r[++k] = r[i];
			}
		}
		n = k + 1;
	}
	if (self)
		*self = fs;
	if (total)
		*total = ft;
	*rows = r;
	return n;
}
