/*
 * profile-addr.c - the address tables (profile-addr.h).
 *
 * Functions: an array of struct paddr_func (strings and build-ids copied
 * into one allocation each), found by (module, name) through an
 * open-addressing table of ids.
 *
 * Stacks: each distinct stack of (function, address) frames is stored
 * once, its frames back to back in two arrays (addresses, functions), with
 * the weight of the samples that had it.  A stack is found again by one
 * probe of an open-addressing table whose slots hold its id and the high
 * half of its hash, so a probe reads the stack only when those agree; a
 * reader that keeps the id adds a sample seen again without even that
 * (paddr_add_at).  The slot's place comes from that high half too, so the
 * table grows by moving slots, without reading any stack again (most
 * stacks of a system-wide profile are new, and the table grows often).  One probe per stack, not per frame: system-wide
 * profiles miss the readers' stack caches often (every process maps its
 * code elsewhere), and a probe per frame cost as much as building the
 * call tree.  Stack 0 is the empty stack.
 *
 * paddr_rows walks every stack's frames once for the function asked.
 */
#include "profile-addr.h"

#include <stdlib.h>
#include <string.h>

#include "symtab.h"
#include "util.h"

struct astack {
	uint64_t w;                /* the samples' weight */
	uint32_t off, n;           /* its frames: [off, off + n) */
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

	struct astack *stacks;     /* ARR array of capstacks */
	size_t nstacks, capstacks;
	uint64_t *faddr;           /* every stack's frames (ARR arrays) */
	uint32_t *ffunc;
	size_t nframes, capframes;
	uint64_t *slots;           /* hash >> 32 << 32 | stack id; 0: empty */
	size_t mask;

	struct owner *owners;
	size_t nowners, capowners;

	struct aline {             /* lines the input gave (paddr_set_line) */
		uint64_t addr;
		uint32_t func;     /* + 1; 0: empty */
		uint32_t file;     /* in files */
		unsigned line;
	} *lines;
	size_t nlines, linemask;
	struct symtab *files;
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
	a->capstacks = 1024;
	ARR_GROW(a->stacks, 0, a->capstacks);
	a->nstacks = 1;            /* the empty stack */
	a->capframes = 4096;
	ARR_GROW(a->faddr, 0, a->capframes);
	ARR_GROW(a->ffunc, 0, a->capframes);
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
	ARR_FREE(a->stacks, a->capstacks);
	ARR_FREE(a->faddr, a->capframes);
	ARR_FREE(a->ffunc, a->capframes);
	free(a->slots);
	free(a->lines);
	symtab_destroy(a->files);
	free(a);
}

void paddr_reset_weights(struct paddr *a)
{
	for (size_t i = 0; i < a->nstacks; i++)
		a->stacks[i].w = 0;
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

uint64_t paddr_total(const struct paddr *a)
{
	uint64_t w = 0;

	for (size_t i = 0; i < a->nstacks; i++)
		w += a->stacks[i].w;
	return w;
}

size_t paddr_func_count(const struct paddr *a)
{
	return a ? a->nfuncs : 0;
}

const struct paddr_func *paddr_func_get(const struct paddr *a, uint32_t id)
{
	return id < a->nfuncs ? &a->funcs[id] : NULL;
}

/* ---- Stacks ------------------------------------------------------------ */

/* One frame more into a stack's hash. */
static uint64_t hash_step(uint64_t h, uint64_t addr, uint32_t func)
{
	return mix(h ^ (addr + ((uint64_t)func << 40) + func));
}

/* The hash of a stack, its top bit set (a slot's high half is never 0). */
static uint64_t stack_hash(const struct paddr_frame *f, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;

	for (size_t i = 0; i < n; i++)
		h = hash_step(h, f[i].addr, f[i].func);
	return h | 1ULL << 63;
}

static bool stack_is(const struct paddr *a, uint32_t id,
		     const struct paddr_frame *f, size_t n)
{
	const struct astack *s = &a->stacks[id];

	if (s->n != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (a->faddr[s->off + i] != f[i].addr ||
		    a->ffunc[s->off + i] != f[i].func)
			return false;
	return true;
}

/* Where a stack whose hash (or slot) is v is looked for first. */
static size_t slot_home(const struct paddr *a, uint64_t v)
{
	return (size_t)(v >> 32) & a->mask;
}

/* The slot of a stack of hash h: holding it, or empty. */
static uint64_t *stack_slot(const struct paddr *a, uint64_t h,
			    const struct paddr_frame *f, size_t n)
{
	size_t i = slot_home(a, h);

	for (;; i = (i + 1) & a->mask) {
		uint64_t v = a->slots[i];

		if (!v || ((v ^ h) >> 32 == 0 &&
			   stack_is(a, (uint32_t)v, f, n)))
			return &a->slots[i];
	}
}

static void grow_slots(struct paddr *a)
{
	uint64_t *old = a->slots;
	size_t omask = a->mask;

	a->mask = omask * 2 + 1;
	a->slots = xcalloc(a->mask + 1, sizeof(*a->slots));
	for (size_t k = 0; k <= omask; k++) {
		size_t i;

		if (!old[k])
			continue;
		for (i = slot_home(a, old[k]); a->slots[i];
		     i = (i + 1) & a->mask)
			;
		a->slots[i] = old[k];
	}
	free(old);
}

uint32_t paddr_add_stack(struct paddr *a, const struct paddr_frame *frames,
			 size_t n, uint64_t w)
{
	uint64_t h, *slot;
	struct astack *s;
	uint32_t id;

	if (n == 0 || n > UINT32_MAX) {
		a->stacks[0].w += w;
		return PADDR_ROOT;
	}
	h = stack_hash(frames, n);
	slot = stack_slot(a, h, frames, n);
	if (*slot) {
		id = (uint32_t)*slot;
		a->stacks[id].w += w;
		return id;
	}
	if (a->nstacks == a->capstacks) {
		ARR_GROW(a->stacks, a->capstacks, a->capstacks * 2);
		a->capstacks *= 2;
	}
	if (a->nframes + n > a->capframes) {
		size_t cap = a->capframes;

		while (cap < a->nframes + n)
			cap *= 2;
		ARR_GROW(a->faddr, a->capframes, cap);
		ARR_GROW(a->ffunc, a->capframes, cap);
		a->capframes = cap;
	}
	id = (uint32_t)a->nstacks++;
	s = &a->stacks[id];
	s->off = (uint32_t)a->nframes;
	s->n = (uint32_t)n;
	s->w = w;
	for (size_t i = 0; i < n; i++) {
		a->faddr[a->nframes + i] = frames[i].addr;
		a->ffunc[a->nframes + i] = frames[i].func;
	}
	a->nframes += n;
	*slot = (h >> 32 << 32) | id;
	if (a->nstacks * 2 > a->mask)
		grow_slots(a);
	return id;
}

void paddr_add_at(struct paddr *a, uint32_t id, uint64_t w)
{
	if (id < a->nstacks)
		a->stacks[id].w += w;
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

/* ---- Lines the input gives ---------------------------------------------- */

static struct aline *line_slot(const struct paddr *a, uint32_t func,
			       uint64_t addr)
{
	size_t i = (size_t)mix(addr * 0x9e3779b97f4a7c15ULL ^ func) &
		   a->linemask;

	for (;; i = (i + 1) & a->linemask) {
		struct aline *l = &a->lines[i];

		if (!l->func || (l->func == func + 1 && l->addr == addr))
			return l;
	}
}

void paddr_set_line(struct paddr *a, uint32_t func, uint64_t addr,
		    const char *file, size_t flen, unsigned line)
{
	struct aline *l;

	if (!a->files) {
		a->files = symtab_create();
		a->linemask = 255;
		a->lines = xcalloc(a->linemask + 1, sizeof(*a->lines));
	}
	if ((a->nlines + 1) * 2 > a->linemask) {
		struct aline *old = a->lines;
		size_t omask = a->linemask;

		a->linemask = omask * 2 + 1;
		a->lines = xcalloc(a->linemask + 1, sizeof(*a->lines));
		for (size_t i = 0; i <= omask; i++)
			if (old[i].func)
				*line_slot(a, old[i].func - 1, old[i].addr) =
					old[i];
		free(old);
	}
	l = line_slot(a, func, addr);
	if (!l->func)
		a->nlines++;
	l->func = func + 1;
	l->addr = addr;
	l->file = symtab_intern(a->files, file, flen);
	l->line = line;
}

bool paddr_line(const struct paddr *a, uint32_t func, uint64_t addr,
		const char **file, unsigned *line)
{
	const struct aline *l;

	if (!a->lines)
		return false;
	l = line_slot(a, func, addr);
	if (!l->func)
		return false;
	*file = symtab_name(a->files, l->file);
	*line = l->line;
	return true;
}

/* ---- Reading ----------------------------------------------------------- */

static int row_cmp(const void *x, const void *y)
{
	const struct paddr_row *a = x, *b = y;

	return (a->addr > b->addr) - (a->addr < b->addr);
}

size_t paddr_rows(const struct paddr *a, uint32_t id, struct paddr_row **rows,
		  uint64_t *self, uint64_t *total)
{
	struct paddr_row *r = NULL;
	size_t n = 0, cap = 0, k = 0;
	uint64_t fs = 0, ft = 0;

	for (size_t i = 1; i < a->nstacks; i++) {
		const struct astack *s = &a->stacks[i];
		const uint32_t *fn = a->ffunc + s->off;
		const uint64_t *ad = a->faddr + s->off;
		bool in = false;

		if (!s->w)
			continue;
		for (uint32_t j = 0; j < s->n; j++) {
			bool again = false;

			if (fn[j] != id)
				continue;
			/* Recursion: one (function, address) once a sample. */
			for (uint32_t q = 0; q < j && !again; q++)
				again = fn[q] == id && ad[q] == ad[j];
			GROW(r, cap, n + 1);
			r[n].addr = ad[j];
			r[n].self = j + 1 == s->n ? s->w : 0;
			r[n].total = again ? 0 : s->w;
			n++;
			fs += j + 1 == s->n ? s->w : 0;
			if (!in)
				ft += s->w;
			in = true;
		}
	}
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
