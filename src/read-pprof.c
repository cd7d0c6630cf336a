/*
 * read-pprof.c - pprof profiles (profile.proto, as Go's runtime/pprof and
 * `go tool pprof -proto` write them), decoded with protobuf-c: the entry
 * point, and the tree built from the decoded stacks.
 *
 * A pprof profile is one protobuf message: tables of functions, locations
 * (an address and the lines inlined at it) and mappings, a string table,
 * and samples that list location ids leaf first with one value per sample
 * type.  flametop reads one sample type at a time (--sample-type, else the
 * profile's default_sample_type, else the last type) and turns each sample
 * into a stack of function names, root first.  A location with several
 * lines gives one frame per line, the outermost caller (the last line)
 * first.  A location without a known function is "[unknown]", its address
 * with --addrs, or "[file]" when its mapping names a file.
 *
 * Everything in the message is distrusted: protobuf-c checks the wire
 * format (lengths that lie, truncation), the samples and the string table
 * never reach it whole (split_profile: memory follows what the profile
 * holds, not the input's size), its allocations go through a budget
 * proportional to the input's size, string indices and ids are checked
 * before use, and the
 * number of frames all samples expand to is bounded too (a few bytes of
 * samples can name a location with thousands of inlined lines many times).
 *
 * The decoding lives in read-pprof-decode.c (the field walk, the arena,
 * the id indexes, the string table) and read-pprof-samples.c (samples to
 * stacks, labels); read-pprof-priv.h is what the three share.
 */
#include "read-pprof-priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame-locs.h"
#include "pool.h"
#include "profile-addr.h"
#include "textfmt.h"
#include "util.h"

/* Decoding may allocate this much per input byte, plus a constant. */
#define PPROF_ALLOC_PER_BYTE 48
#define PPROF_ALLOC_BASE (32u << 20)
/*
 * And, for a compressed input read without --max-input, this much per
 * compressed byte: else 1 MB of gzip that decompresses 100:1 (within
 * READ_WHOLE_RATIO) to empty locations, 2 bytes each that protobuf-c
 * holds in some 100, took 4 GB.  Real profiles (flametop's own --pprof
 * of a system, with and without --lines) took 7 to 12 bytes a compressed
 * byte (3 to 6 a decompressed one).
 */
#define PPROF_ALLOC_PER_PACKED_BYTE 200
/* All samples together may expand to this many frames per input byte. */
#define PPROF_FRAMES_PER_BYTE 16
#define PPROF_FRAMES_BASE (4u << 20)
#define PLURAL(n) ((n) == 1 ? "" : "s")

/* ---- Locations to frames ------------------------------------------------- */

/* The symbol of function index f: its name, else its system name. */
static uint32_t function_sym(struct pp *pp, size_t f)
{
	const PFunction *fn = pp->m->function[f];
	const ProtobufCBinaryData *s;

	if (pp->fn_sym[f])
		return pp->fn_sym[f] - 1;
	s = string_at(pp, fn->name);
	if ((!s || !s->len) && fn->system_name)
		s = string_at(pp, fn->system_name);
	pp->fn_sym[f] = 1 + (s && s->len ?
			     profile_intern(pp->p, (const char *)s->data, s->len) :
			     pp->unknown);
	return pp->fn_sym[f] - 1;
}

/*
 * --lines: the symbol "NAME FILE:LINE" of function index f at a line (the
 * base name of the function's file); its plain symbol without a line.
 */
static uint32_t line_sym(struct pp *pp, size_t f, int64_t line)
{
	const PFunction *fn = pp->m->function[f];
	uint32_t sym = function_sym(pp, f);
	const ProtobufCBinaryData *file;
	const struct symtab *st = profile_symtab(pp->p);
	size_t start = 0, nl, fl, n;
	char *buf;
	uint32_t id;

	if (!pp->o->lines || line <= 0 || !fn->filename)
		return sym;
	file = string_at(pp, fn->filename);
	if (!file || !file->len)
		return sym;
	for (size_t i = 0; i < file->len; i++)
		if (file->data[i] == '/')
			start = i + 1;
	nl = symtab_len(st, sym);
	fl = file->len - start;
	buf = xmalloc(nl + fl + 24);
	memcpy(buf, symtab_name(st, sym), nl);
	buf[nl] = ' ';
	memcpy(buf + nl + 1, file->data + start, fl);
	n = nl + 1 + fl;
	n += (size_t)snprintf(buf + n, 24, ":%lld", (long long)line);
	id = profile_intern(pp->p, buf, n);
	free(buf);
	return id;
}

static void push_frame(struct pp *pp, uint32_t sym)
{
	GROW(pp->frames, pp->capframes, pp->nframes + 1);
	pp->frames[pp->nframes++] = sym;
}

/* The frame of a location without a known function. */
static uint32_t location_fallback(struct pp *pp, const PLocation *l)
{
	char buf[300];
	int64_t mi;

	if (pp->o->addrs) {
		int k = snprintf(buf, sizeof(buf), "0x%llx",
				 (unsigned long long)l->address);

		return profile_intern(pp->p, buf, (size_t)k);
	}
	mi = index_find(&pp->maps, l->mapping_id);
	if (mi >= 0 && pp->m->mapping[mi]->filename) {
		const ProtobufCBinaryData *s =
			string_at(pp, pp->m->mapping[mi]->filename);
		size_t start = 0, n;

		if (s && s->len) {
			for (size_t i = 0; i < s->len; i++)
				if (s->data[i] == '/')
					start = i + 1;
			n = s->len - start;
			if (n > sizeof(buf) - 3)
				n = sizeof(buf) - 3;
			if (n) {
				buf[0] = '[';
				memcpy(buf + 1, s->data + start, n);
				buf[n + 1] = ']';
				return profile_intern(pp->p, buf, n + 2);
			}
		}
	}
	return pp->unknown;
}

/*
 * How many frames each location gives (its lines with a known function,
 * or one); -1 if the profile has 2^32 lines or more.  Nothing is interned
 * yet: a profile found corrupt later leaves no trace in the profile.
 */
static int count_frames(struct pp *pp)
{
	size_t n = pp->m->n_location;

	/* Offsets are 32-bit: at most a line per 2 input bytes keeps them so
	 * for any input below 8 GB; refuse the rest. */
	{
		uint64_t lines = n;

		for (size_t i = 0; i < n; i++)
			lines += pp->m->location[i]->n_line;
		if (lines >= UINT32_MAX)
			return -1;
	}
	pp->loc_n = xreallocarray(NULL, n ? n : 1, sizeof(*pp->loc_n));
	for (size_t i = 0; i < n; i++) {
		const PLocation *l = pp->m->location[i];
		uint32_t k = 0;

		for (size_t j = 0; j < l->n_line; j++)
			k += index_find(&pp->fns, l->line[j]->function_id) >= 0;
		pp->loc_n[i] = k ? k : 1;
	}
	return 0;
}

/*
 * Note where frame sym of location l came from (frame-locs.h, for
 * --pprof): l's mapping and address, function index f's name and file
 * (f < 0: none), its line under --lines (the frame's name holds it
 * when the file is known).
 */
static void note_frame(struct pp *pp, const PLocation *l, uint32_t sym,
		       int64_t f, int64_t line)
{
	struct frame_locs *fl = profile_frame_locs(pp->p);
	struct floc_frame fr = { 0 };
	int64_t mi = index_find(&pp->maps, l->mapping_id);
	uint64_t shift = 0;

	if (floc_known(fl, sym))
		return;
	if (mi >= 0) {
		const PMapping *pm = pp->m->mapping[mi];
		const ProtobufCBinaryData *path = string_at(pp, pm->filename);
		const ProtobufCBinaryData *bid = string_at(pp, pm->build_id);
		struct floc_binary b = {
			path ? (const char *)path->data : NULL,
			path ? path->len : 0,
			bid ? (const char *)bid->data : NULL,
			bid ? bid->len : 0,
			pm->memory_start, pm->memory_limit, pm->file_offset
		};

		fr.binary = floc_add_binary(fl, &b, &shift);
	}
	fr.addr = l->address ? l->address + shift : 0;
	if (f >= 0) {
		const PFunction *fn = pp->m->function[f];
		const struct symtab *st = profile_symtab(pp->p);
		uint32_t y = function_sym(pp, (size_t)f);
		const ProtobufCBinaryData *file = string_at(pp, fn->filename);

		fr.func = symtab_name(st, y);
		fr.func_len = symtab_len(st, y);
		if (file && file->len) {
			fr.file = (const char *)file->data;
			fr.file_len = file->len;
		}
		if (pp->o->lines && line > 0)
			fr.line = (unsigned)(line > UINT32_MAX ? UINT32_MAX
							       : line);
	}
	floc_note(fl, sym, &fr);
}

/* Every location's frames, outermost (the last line) first. */
static void expand_locations(struct pp *pp)
{
	size_t n = pp->m->n_location;

	pp->loc_off = xreallocarray(NULL, n ? n : 1, sizeof(*pp->loc_off));
	for (size_t i = 0; i < n; i++) {
		const PLocation *l = pp->m->location[i];
		size_t start = pp->nframes;

		for (size_t k = l->n_line; k-- > 0;) {
			int64_t f = index_find(&pp->fns, l->line[k]->function_id);

			if (f >= 0) {
				uint32_t y = line_sym(pp, (size_t)f,
						      l->line[k]->line);

				push_frame(pp, y);
				note_frame(pp, l, y, f, l->line[k]->line);
			}
		}
		if (pp->nframes == start) {
			push_frame(pp, location_fallback(pp, l));
			note_frame(pp, l, pp->frames[start], -1, 0);
		}
		pp->loc_off[i] = (uint32_t)start;
	}
}

/* Pick the sample type: by name, the default, or the last; say why not. */
static int pick_type(struct pp *pp, size_t *which, bool say)
{
	const PProfile *m = pp->m;
	char name[64], shown[8 * sizeof(name)], list[512];
	size_t len = 0;

	if (m->n_sample_type == 0) {
		if (say)
			diag_warn(pp->d, "%s: pprof profile has no sample "
				  "types", pp->name);
		return -1;
	}
	*which = m->n_sample_type - 1;
	if (!pp->o->sample_type) {
		if (m->default_sample_type)
			for (size_t i = 0; i < m->n_sample_type; i++)
				if (m->sample_type[i]->type ==
				    m->default_sample_type)
					*which = i;
		return 0;
	}
	list[0] = '\0';
	for (size_t i = 0; i < m->n_sample_type; i++) {
		string_copy(pp, m->sample_type[i]->type, name, sizeof(name));
		if (strcmp(name, pp->o->sample_type) == 0) {
			*which = i;
			return 0;
		}
		/* Names go to the terminal: escaped. */
		textfmt_escape(name, strlen(name), shown, sizeof(shown));
		if (len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%s%s", i ? ", " : "", shown);
	}
	if (say)
		diag_warn(pp->d, "%s: no sample type '%s' in this pprof "
			  "profile (it has: %s)", pp->name,
			  pp->o->sample_type, list);
	return -1;
}

/* What the chosen type's values measure, from its type and unit names. */
static enum weight_unit type_unit(const char *type, const char *unit)
{
	if (strcmp(unit, "nanoseconds") == 0)
		return strcmp(type, "cpu") == 0 ? UNIT_NS : UNIT_NANOS;
	if (strcmp(unit, "bytes") == 0)
		return UNIT_BYTES;
	if (strcmp(type, "samples") == 0)
		return UNIT_SAMPLES;
	return UNIT_COUNT;
}

static void note_types(struct pp *pp, size_t which)
{
	struct pprof_types *t = pp->o->types;
	const PProfile *m = pp->m;

	if (!t || t->n)
		return;
	for (size_t i = 0; i < m->n_sample_type && i < PPROF_MAX_TYPES; i++) {
		string_copy(pp, m->sample_type[i]->type, t->name[i],
			    sizeof(t->name[i]));
		string_copy(pp, m->sample_type[i]->unit, t->unit[i],
			    sizeof(t->unit[i]));
		t->n++;
	}
	t->cur = which < t->n ? (unsigned)which : 0;
}

/* ---- Stacks to the tree ---------------------------------------------------- */

/*
 * Frames are named by rank while the tree is built: the order of their
 * names, so that children made in rank order leave every sibling list
 * sorted as profile_finish wants it.
 */
struct ranks {
	uint32_t *sym;           /* rank -> symbol */
	uint32_t n;
	uint32_t unknown;        /* the rank of "[unknown]" */
};

struct name_item {
	const char *name;
	size_t len;
	uint32_t sym;
};

/* Byte order of names, the shorter first on a tie (as profile.c sorts). */
static int cmp_name_item(const void *a, const void *b)
{
	const struct name_item *x = a, *y = b;
	int c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);

	if (c)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

/* pp->frames as ranks. */
static void rank_frames(struct pp *pp, struct ranks *rk)
{
	const struct symtab *tab = profile_symtab(pp->p);
	uint32_t nsym = symtab_count(tab);
	uint32_t *rank = xreallocarray(NULL, nsym, sizeof(*rank));
	struct name_item *items = NULL;
	size_t n = 0, cap = 0;

	memset(rank, 0xff, nsym * sizeof(*rank));
	for (size_t i = 0; i <= pp->nframes; i++) {
		uint32_t s = i < pp->nframes ? pp->frames[i] : pp->unknown;

		if (rank[s] != UINT32_MAX)
			continue;
		rank[s] = 0;
		GROW(items, cap, n + 1);
		items[n].name = symtab_name(tab, s);
		items[n].len = symtab_len(tab, s);
		items[n++].sym = s;
	}
	qsort(items, n, sizeof(*items), cmp_name_item);
	rk->sym = xreallocarray(NULL, n, sizeof(*rk->sym));
	for (size_t r = 0; r < n; r++) {
		rank[items[r].sym] = (uint32_t)r;
		rk->sym[r] = items[r].sym;
	}
	rk->n = (uint32_t)n;
	for (size_t i = 0; i < pp->nframes; i++)
		pp->frames[i] = rank[pp->frames[i]];
	rk->unknown = rank[pp->unknown];
	free(items);
	free(rank);
}

/*
 * Every stack's frames as ranks, root first, in one array: stack k's are
 * rows[at[k] .. at[k] + depth[k]), then ROW_END and k itself.  The tree is
 * built a depth at a time, so each stack's row is read once per frame;
 * from a row that is one cache line for many frames, where the locations'
 * tables are several, and the same read says where the stack ends and
 * which it is.  The rows are written on every thread, each a range of
 * stacks.
 */
#define ROW_END UINT32_MAX
struct rows {
	const struct pp *pp;
	const struct stack_set *st;
	uint32_t unknown;
	uint32_t *rows;
	size_t *at;              /* st->n + 1 entries (build_tree reorders
				    the first st->n) */
	unsigned nshares;
};

/* Share i of the stacks into their rows (pool.h). */
static void expand_share(void *ctx, unsigned i)
{
	struct rows *r = ctx;
	const struct stack_set *st = r->st;
	const struct pp *pp = r->pp;
	size_t lo = st->n / r->nshares * i;
	size_t hi = i + 1 == r->nshares ? st->n : st->n / r->nshares * (i + 1);

	for (size_t k = lo; k < hi; k++) {
		uint32_t *out = r->rows + r->at[k], *end = r->rows + r->at[k + 1] - 2;

		for (size_t j = st->start[k]; j < st->start[k + 1]; j++) {
			uint32_t l = st->locs[j];
			const uint32_t *f = pp->frames + pp->loc_off[l];

			/* One or two frames a location: no memcpy call. */
			for (uint32_t m = 0; m < pp->loc_n[l]; m++)
				*out++ = f[m];
		}
		while (out < end)
			*out++ = r->unknown;    /* no locations: "[unknown]" */
		out[0] = ROW_END;
		out[1] = (uint32_t)k;
	}
}

static void expand_stacks(const struct pp *pp, const struct stack_set *st,
			  const struct ranks *rk, struct rows *r)
{
	bool set;
	unsigned n = read_thread_count(16, &set);
	struct pool pool;

	*r = (struct rows){ .pp = pp, .st = st, .unknown = rk->unknown };
	r->at = xreallocarray(NULL, st->n + 1, sizeof(*r->at));
	r->at[0] = 0;
	for (size_t k = 0; k < st->n; k++)
		r->at[k + 1] = r->at[k] + st->depth[k] + 2;
	r->rows = xreallocarray(NULL, st->n ? r->at[st->n] : 1,
				sizeof(*r->rows));
	/* Below a few thousand stacks, threads cost more than they save. */
	r->nshares = !set && st->n < 4096 ? 1 : n;
	pool_init(&pool, r->nshares, expand_share, r);
	pool_run(&pool, r->nshares);
	pool_end(&pool);
}

/* Sort a[0..n) by their high 32 bits, `bytes` of which may be nonzero. */
static void sort_by_rank(uint64_t *a, uint64_t *tmp, size_t n, unsigned bytes)
{
	uint64_t *src = a, *dst = tmp;

	if (n < 32) {
		for (size_t i = 1; i < n; i++) {
			uint64_t x = a[i];
			size_t j = i;

			for (; j > 0 && a[j - 1] > x; j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
		return;
	}
	/* Least significant byte first; a byte all keys share is skipped. */
	for (unsigned b = 0; b < bytes; b++) {
		unsigned shift = 32 + 8 * b;
		size_t count[256] = { 0 }, sum = 0;

		for (size_t i = 0; i < n; i++)
			count[(src[i] >> shift) & 255]++;
		if (count[(src[0] >> shift) & 255] == n)
			continue;
		for (unsigned v = 0; v < 256; v++) {
			size_t c = count[v];

			count[v] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[(src[i] >> shift) & 255]++] = src[i];
		src = dst;
		dst = src == a ? tmp : a;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

/* Rows fetched this many stacks ahead while a part's keys are made. */
#define ROW_AHEAD 16
/*
 * build_tree builds parts of the tree on every thread from this many
 * stacks on, and only parts of at least TREE_TASK_LEAST stacks (a task
 * costs a few microseconds more than the same part built in place).
 */
#define TREE_TASKS_MIN 4096
#define TREE_TASK_LEAST 64
/*
 * The largest part built as a task: this share of the stacks.  Smaller
 * tasks share out better, and a thread's own profile holds one task's
 * nodes; larger ones leave less of the top to build first, on one
 * thread.  The bench's pprof files: the top takes 10-20 ms, the threads
 * wait on one another under 10 ms, and 64 is as fast as 16 with 8 MB
 * less memory.
 */
#define TREE_TASK_SHARE 64

/*
 * The nodes named syms[0..len) under parent, the first after its child
 * prev, each next one a child of the one before: into an empty profile
 * appended as one chain (consecutive ids; the caller makes siblings in
 * name order), else each looked up.  Returns the first; *last is the
 * deepest.
 */
static uint32_t tree_chain(struct profile *p, bool fresh, uint32_t parent,
			   uint32_t prev, const uint32_t *syms, uint32_t len,
			   uint32_t *last)
{
	uint32_t first;

	if (fresh) {
		first = profile_append_chain(p, parent, prev, syms, len);
		*last = first + len - 1;
		return first;
	}
	first = *last = profile_child(p, parent, syms[0]);
	for (uint32_t d = 1; d < len; d++)
		*last = profile_child(p, *last, syms[d]);
	return first;
}

/* A part of the stacks: at[lo .. hi), where their rows start. */
struct part { size_t lo, hi; uint32_t depth, node; };

/*
 * One thread's building: the profile its nodes go into (the read's, or
 * for a subtree one of its own, grafted when done), its scratch for parts
 * of up to cap stacks, and for a subtree the stacks it gave a node (their
 * node ids to renumber once grafted).
 */
struct builder {
	struct profile *p;
	bool fresh, subtree;
	struct part *work;
	size_t nwork, capwork, cap;
	size_t *moved;
	uint64_t *keys;             /* 2 * cap: the keys, the sort's scratch */
	uint32_t *syms;
	size_t capsyms;
	uint32_t *ended;
	size_t nended, capended;
};

/*
 * The tree being built, on every thread: the rows (read), at (each part's
 * range rewritten by the one thread that builds it) and node_of (each
 * stack's written once).  Parts of defer_min to defer_max stacks met
 * while the top of the tree is built are kept in tasks, each then built
 * whole into a builder's own profile and grafted in task order (turn).
 */
struct tree {
	const struct ranks *rk;
	const struct rows *rw;
	uint32_t *node_of;
	unsigned bytes;             /* of a rank that may be nonzero */
	struct profile *p;
	size_t defer_min, defer_max;
	struct part *tasks;
	size_t ntasks, captasks;
	atomic_size_t claim;        /* the next task not taken */
	struct turn turn;
	struct builder *b;          /* one a thread */
};

/* Larger parts first; in the order they were met among equals. */
static int cmp_task(const void *a, const void *b)
{
	const struct part *x = a, *y = b;
	size_t nx = x->hi - x->lo, ny = y->hi - y->lo;

	if (nx != ny)
		return nx < ny ? 1 : -1;
	return (x->lo > y->lo) - (x->lo < y->lo);
}

static void builder_init(struct builder *b, struct profile *p, bool subtree,
			 size_t cap)
{
	*b = (struct builder){ .p = p, .subtree = subtree, .cap = cap };
	b->fresh = profile_node_count(p) == 1;
	b->moved = xreallocarray(NULL, cap ? cap : 1, sizeof(*b->moved));
	b->keys = xreallocarray(NULL, cap ? 2 * cap : 2, sizeof(*b->keys));
}

static void builder_free(struct builder *b)
{
	if (b->subtree)
		profile_destroy(b->p);
	free(b->work);
	free(b->moved);
	free(b->keys);
	free(b->syms);
	free(b->ended);
}

/* Stack k ends at node. */
static void end_at(const struct tree *t, struct builder *b, uint32_t k,
		   uint32_t node)
{
	t->node_of[k] = node;
	if (b->subtree) {
		if (b->nended == b->capended)
			GROW(b->ended, b->capended, b->nended + 1);
		b->ended[b->nended++] = k;
	}
}

/*
 * Build part first and every part below it into b->p, a depth at a
 * time: its stacks are split by their next frame (a radix sort that makes
 * the tree as it goes), each node made once, in name order among its
 * siblings, and a stack whose part holds it alone becomes a chain at once.
 * Into an empty profile the nodes are appended without a lookup; else
 * each is looked up.  With defer, a part of defer_min to defer_max stacks
 * goes to t->tasks instead, its node made and childless.
 */
static void build_parts(struct tree *t, struct builder *b, struct part first,
			bool defer)
{
	const struct rows *rw = t->rw;
	const struct ranks *rk = t->rk;
	struct profile *p = b->p;
	size_t *at = rw->at, *moved = b->moved;
	uint64_t *keys = b->keys;

	GROW(b->work, b->capwork, 1);
	b->nwork = 0;
	b->work[b->nwork++] = first;
	while (b->nwork) {
		struct part w = b->work[--b->nwork];
		size_t *pa = at + w.lo, n = 0;
		uint32_t prev = NODE_NONE;

		/* The next frame of each, or the stack ends at this node. */
		for (size_t i = 0; i < w.hi - w.lo; i++) {
			const uint32_t *row = rw->rows + pa[i] + w.depth;

			if (i + ROW_AHEAD < w.hi - w.lo)
				__builtin_prefetch(rw->rows + pa[i + ROW_AHEAD] +
						   w.depth);
			if (row[0] == ROW_END)
				end_at(t, b, row[1], w.node);
			else
				keys[n++] = (uint64_t)row[0] << 32 | i;
		}
		sort_by_rank(keys, keys + n, n, t->bytes);
		for (size_t i = 0; i < n; i++)
			moved[i] = pa[(uint32_t)keys[i]];
		memcpy(pa, moved, n * sizeof(*pa));
		for (size_t i = 0, j; i < n; i = j) {
			uint32_t r = (uint32_t)(keys[i] >> 32), child;
			struct part np;

			for (j = i + 1; j < n && (uint32_t)(keys[j] >> 32) == r;)
				j++;
			if (j - i == 1) {
				/* Alone in its part: the rest of it is a chain. */
				const uint32_t *row = rw->rows + pa[i] + w.depth;
				uint32_t len = 0, last;

				for (; row[len] != ROW_END; len++) {
					if (len == b->capsyms)
						GROW(b->syms, b->capsyms, len + 1);
					b->syms[len] = rk->sym[row[len]];
				}
				prev = tree_chain(p, b->fresh, w.node, prev, b->syms,
						  len, &last);
				end_at(t, b, row[len + 1], last);
				continue;
			}
			child = prev = b->fresh ?
				profile_append_child_ordered(p, w.node, prev,
							     rk->sym[r]) :
				profile_child(p, w.node, rk->sym[r]);
			np = (struct part){ w.lo + i, w.lo + j, w.depth + 1,
					    child };
			if (defer && j - i >= t->defer_min &&
			    j - i <= t->defer_max) {
				if (t->ntasks == t->captasks)
					GROW(t->tasks, t->captasks, t->ntasks + 1);
				t->tasks[t->ntasks++] = np;
				continue;
			}
			if (b->nwork == b->capwork)
				GROW(b->work, b->capwork, b->nwork + 1);
			b->work[b->nwork++] = np;
		}
	}
}

/*
 * Thread i's tasks: each next one not taken built into the thread's own
 * profile, then in task order grafted under its node, and the ids of its
 * stacks' nodes made the read profile's.
 */
static void build_tasks(void *ctx, unsigned i)
{
	struct tree *t = ctx;
	struct builder *b = &t->b[i];
	size_t k;

	while ((k = atomic_fetch_add(&t->claim, 1)) < t->ntasks) {
		struct part w = t->tasks[k];
		uint32_t at = w.node, base;

		w.node = 0;
		b->nended = 0;
		build_parts(t, b, w, false);
		turn_wait(&t->turn, (unsigned)k);
		base = profile_graft(t->p, at, b->p);
		for (size_t e = 0; e < b->nended; e++) {
			uint32_t *v = &t->node_of[b->ended[e]];

			*v = *v ? base + *v - 1 : at;
		}
		turn_pass(&t->turn, (unsigned)k);
	}
}

/*
 * The node of every stack, into node_of.  Into an empty profile, from a
 * few thousand stacks on, the top of the tree is built first, here, and
 * the parts below it (of up to a 64th of the stacks each, the largest
 * first, so that the threads share them evenly) are built on every
 * thread at once, each into a profile of its own, and grafted in turn.
 * Which parts those are depends on the stacks alone, so the tree and its
 * node ids (the order of --pprof's output) are the same with any number
 * of threads, and whether FLAMETOP_THREADS is set or not.
 */
static void build_tree(const struct pp *pp, const struct stack_set *st,
		       const struct ranks *rk, const struct rows *rw,
		       uint32_t *node_of)
{
	struct tree t = { .rk = rk, .rw = rw, .node_of = node_of, .p = pp->p };
	struct builder top;
	struct part all = { 0, st->n, 0, NODE_ROOT };
	bool fresh = profile_node_count(pp->p) == 1, set;
	unsigned nthreads = read_thread_count(16, &set);
	struct pool pool;

	while (t.bytes < 4 && (rk->n - 1) >> (8 * t.bytes))
		t.bytes++;
	builder_init(&top, pp->p, false, st->n);
	if (!fresh || st->n < TREE_TASKS_MIN) {
		build_parts(&t, &top, all, false);
		builder_free(&top);
		return;
	}
	t.defer_max = st->n / TREE_TASK_SHARE;
	t.defer_min = TREE_TASK_LEAST;
	build_parts(&t, &top, all, true);
	builder_free(&top);
	if (!t.ntasks)
		return;
	qsort(t.tasks, t.ntasks, sizeof(*t.tasks), cmp_task);
	if (nthreads > t.ntasks)
		nthreads = (unsigned)t.ntasks;
	t.b = xcalloc(nthreads, sizeof(*t.b));
	for (unsigned i = 0; i < nthreads; i++)
		builder_init(&t.b[i], profile_create(), true, t.defer_max);
	turn_init(&t.turn);
	atomic_init(&t.claim, 0);
	pool_init(&pool, nthreads, build_tasks, &t);
	pool_run(&pool, nthreads);
	pool_end(&pool);
	turn_destroy(&t.turn);
	for (unsigned i = 0; i < nthreads; i++)
		builder_free(&t.b[i]);
	free(t.b);
	free(t.tasks);
}

/*
 * Sample r's value at its stack's node (its label set, if any, with it
 * for the views) and at its stack of addresses.
 */
static enum add_status add_sample(struct pp *pp, const struct sample_rec *r,
				  const uint32_t *node_of,
				  const uint32_t *anode)
{
	struct weight w = { .v = r->value };
	struct sample_meta m = { .labels = 0 };
	enum add_status st;

	if (r->lset)
		m.labels = pp->lset_of[r->lset];
	st = profile_add_at(pp->p, node_of[r->stack], &w,
			    m.labels ? &m : NULL);
	if (st != ADD_OVERFLOW && anode)
		paddr_add_at(pp->pa, anode[r->stack], r->value);
	return st;
}

/*
 * Each sample's value at its stack's node.  When all of them together
 * cannot overflow the profile's totals, each stack's values are summed
 * and added at once (a few MB of sums, where the tree's weights are
 * random writes into a hundred; a sample with labels is added alone, its
 * set with it); else sample by sample, in sample order, so the overflow
 * messages are those of a sample-by-sample reader.
 */
static void add_samples(struct pp *pp, const struct samples *ss,
			const uint32_t *node_of, const uint32_t *anode,
			size_t nstacks)
{
	uint64_t all = 0;
	bool fits = true;

	for (size_t i = 0; i < ss->nrec && fits; i++)
		fits = !__builtin_add_overflow(all, ss->rec[i].value, &all);
	if (fits && profile_can_add(pp->p, all)) {
		uint64_t *sum = xcalloc(nstacks ? nstacks : 1, sizeof(*sum));

		for (size_t i = 0; i < ss->nrec; i++) {
			if (ss->rec[i].lset)
				add_sample(pp, &ss->rec[i], node_of, anode);
			else
				sum[ss->rec[i].stack] += ss->rec[i].value;
		}
		for (size_t k = 0; k < nstacks; k++) {
			struct weight w = { .v = sum[k] };

			if (!sum[k])
				continue;
			profile_add_at(pp->p, node_of[k], &w, NULL);
			if (anode)
				paddr_add_at(pp->pa, anode[k], sum[k]);
		}
		pp->added += ss->nrec;
		free(sum);
		return;
	}
	for (size_t i = 0; i < ss->nrec; i++) {
		if (add_sample(pp, &ss->rec[i], node_of, anode) == ADD_OVERFLOW)
			diag_skip(pp->d, DIAG_SAMPLE, 1, pp->name, "sample %u: "
				  "value would overflow the profile's total",
				  ss->rec[i].sample);
		else
			pp->added++;
	}
}

static void report_samples(struct pp *pp, const struct samples *ss,
			   uint64_t budget)
{
	for (unsigned w = SKIP_NONE + 1; w < SKIP_KINDS; w++) {
		uint64_t n = ss->skipped[w];
		char why[128];

		if (!n)
			continue;
		switch ((enum skip)w) {
		case SKIP_FEW_VALUES:
			snprintf(why, sizeof(why), "fewer values than sample "
				 "types (%zu)", pp->ntypes);
			break;
		case SKIP_NEGATIVE:
			snprintf(why, sizeof(why), "a negative value");
			break;
		case SKIP_BAD_ID:
			snprintf(why, sizeof(why), "a location id that is not "
				 "in the profile");
			break;
		case SKIP_TOO_DEEP:
			snprintf(why, sizeof(why), "deeper than %u frames",
				 PROFILE_MAX_DEPTH - 1);
			break;
		default:
			snprintf(why, sizeof(why), "the samples expand to more "
				 "than %llu frames", (unsigned long long)budget);
			break;
		}
		diag_skip(pp->d, DIAG_SAMPLE, n, pp->name, "%llu sample%s "
			  "skipped: %s", (unsigned long long)n, PLURAL(n), why);
	}
}

/* ---- Reading ------------------------------------------------------------- */

static void say_undecodable(struct pp *pp, bool exhausted)
{
	if (exhausted && pp->packed_budget)
		diag_warn(pp->d, "%s: pprof profile needs more than %llu MiB "
			  "to decode (%d times its compressed size); raise "
			  "--max-input to read it", pp->name,
			  (unsigned long long)(pp->packed_budget >> 20),
			  PPROF_ALLOC_PER_PACKED_BYTE);
	else if (exhausted)
		diag_warn(pp->d, "%s: pprof profile needs more memory to "
			  "decode than %d bytes per input byte "
			  "(hostile or corrupt)", pp->name,
			  PPROF_ALLOC_PER_BYTE);
	else
		diag_warn(pp->d, "%s: not a valid pprof profile (corrupt or "
			  "truncated protobuf)", pp->name);
}

/*
 * A profile found wanting before its samples were read: still undecodable
 * first when one of its samples is (as when the whole message was decoded
 * at once).  Returns true when the samples decode.
 */
static bool samples_decode(struct pp *pp, struct arena *scratch)
{
	if (decode_samples(pp, 0, 0, NULL, scratch))
		return true;
	say_undecodable(pp, scratch->exhausted);
	return false;
}

/*
 * What decoding may allocate: PPROF_ALLOC_PER_BYTE of the input, and for
 * a compressed input without --max-input no more than
 * PPROF_ALLOC_PER_PACKED_BYTE of its compressed bytes (pp->packed_budget
 * then says so, for the message).
 */
static size_t decode_budget(struct pp *pp, struct input *in, size_t len)
{
	uint64_t b = len > (UINT64_MAX - PPROF_ALLOC_BASE) / PPROF_ALLOC_PER_BYTE ?
		     UINT64_MAX : (uint64_t)len * PPROF_ALLOC_PER_BYTE +
				  PPROF_ALLOC_BASE;
	uint64_t raw = input_raw_offset(in);

	if (!pp->o->max_input && input_compression(in) &&
	    raw < (UINT64_MAX - PPROF_ALLOC_BASE) / PPROF_ALLOC_PER_PACKED_BYTE &&
	    raw * PPROF_ALLOC_PER_PACKED_BYTE + PPROF_ALLOC_BASE < b) {
		b = raw * PPROF_ALLOC_PER_PACKED_BYTE + PPROF_ALLOC_BASE;
		pp->packed_budget = b;
	}
	return b > SIZE_MAX ? SIZE_MAX : (size_t)b;
}

int read_pprof(struct profile *p, struct input *in,
	       const struct read_opts *o, struct diag *d)
{
	struct pp pp = { 0 };
	struct arena ar = { 0 }, scratch = { 0 };
	ProtobufCAllocator alloc = { arena_alloc, arena_free, &ar };
	struct samples ss = { 0 };
	struct ranks rk = { 0 };
	struct rows rows;
	uint32_t *node_of = NULL, *anode = NULL;
	unsigned char *rest = NULL;
	size_t len, nrest = 0, which = 0, nstacks;
	void *owned;
	const void *b = read_whole(in, &len, &owned, d);
	uint64_t budget, before[DIAG_UNITS];
	PProfile *m;
	char type[64], unit[32];
	int rc = -1;

	if (!b)
		return -1;
	memcpy(before, d->nbad, sizeof(before));
	input_populate(in);     /* all of it is unpacked */
	pp.p = p;
	pp.o = o;
	pp.d = d;
	pp.name = input_name(in);
	ar.left = decode_budget(&pp, in, len);
	scratch.left = ar.left;
	budget = (uint64_t)len * PPROF_FRAMES_PER_BYTE + PPROF_FRAMES_BASE;
	if (!split_profile(&pp, b, len, &rest, &nrest)) {
		say_undecodable(&pp, false);
		goto out;
	}
	m = flametop__pprof__profile_outline__unpack(&alloc, nrest, rest);
	free(rest);
	if (!m) {
		say_undecodable(&pp, ar.exhausted);
		goto out;
	}
	pp.m = m;
	pp.ntypes = m->n_sample_type;
	take_strings(&pp, NULL, 0);
	if (m->n_location > UINT32_MAX / 2 || m->n_function > UINT32_MAX / 2 ||
	    pp.nsamples > UINT32_MAX / 2) {
		if (samples_decode(&pp, &scratch))
			diag_warn(d, "%s: pprof profile has more than 2^31 "
				  "samples, locations or functions", pp.name);
		goto out;
	}
	if (pick_type(&pp, &which, false) < 0) {
		if (samples_decode(&pp, &scratch))
			pick_type(&pp, &which, true);
		goto out;
	}
	index_build(&pp.locs, m->n_location, loc_id, m->location);
	index_build(&pp.fns, m->n_function, fn_id, m->function);
	index_build(&pp.maps, m->n_mapping, map_id, m->mapping);
	if (count_frames(&pp) < 0) {
		if (samples_decode(&pp, &scratch))
			diag_warn(d, "%s: pprof profile has more than 2^32 "
				  "lines", pp.name);
		goto out;
	}
	stacks_init(&ss.st);
	if (!decode_samples(&pp, which, budget, &ss, &scratch)) {
		say_undecodable(&pp, scratch.exhausted);
		goto out;
	}
	arena_destroy(&scratch);
	index_report(&pp.locs, d, pp.name, "location");
	index_report(&pp.fns, d, pp.name, "function");
	index_report(&pp.maps, d, pp.name, "mapping");

	/* The profile is sound: now its names go into the profile. */
	pp.unknown = profile_intern(p, "[unknown]", 9);
	pp.fn_sym = xcalloc(m->n_function ? m->n_function : 1,
			    sizeof(*pp.fn_sym));
	expand_locations(&pp);
	if (!o->no_addr_tables)
		pprof_addr_locations(&pp);
	name_label_sets(&pp);
	labels_destroy(pp.raw);     /* lset_of says what it was */
	pp.raw = NULL;
	note_types(&pp, which);
	string_copy(&pp, m->sample_type[which]->type, type, sizeof(type));
	string_copy(&pp, m->sample_type[which]->unit, unit, sizeof(unit));
	profile_note_unit(p, type_unit(type, unit));
	arena_destroy(&ar);     /* the message, without walking it */
	pp.m = NULL;
	free(owned);
	owned = NULL;

	/* The lookups are over: only the stacks' lists are needed. */
	ARR_FREE(ss.st.slots, ss.st.mask + 1);
	ARR_FREE(ss.st.hash, ss.st.cap);
	rank_frames(&pp, &rk);
	node_of = xreallocarray(NULL, ss.st.n ? ss.st.n : 1, sizeof(*node_of));
	expand_stacks(&pp, &ss.st, &rk, &rows);
	/* Before the stacks' locations go: the address tables' paths. */
	if (!o->no_addr_tables)
		anode = pprof_addr_stacks(&pp, &ss.st);
	/* The rows hold what the tree needs. */
	ARR_FREE(ss.st.locs, ss.st.caplocs);
	build_tree(&pp, &ss.st, &rk, &rows, node_of);
	free(rows.rows);
	free(rows.at);
	nstacks = ss.st.n;
	stacks_free(&ss.st);
	add_samples(&pp, &ss, node_of, anode, nstacks);
	report_samples(&pp, &ss, budget);
	if (pp.bad_strings)
		diag_warn(d, "%s: %llu string ind%s out of range (names shown "
			  "as [unknown])", pp.name,
			  (unsigned long long)pp.bad_strings,
			  pp.bad_strings == 1 ? "ex" : "ices");
	if (pp.bad_labels)
		diag_warn(d, "%s: %llu label%s dropped: a string index out of "
			  "range", pp.name, (unsigned long long)pp.bad_labels,
			  PLURAL(pp.bad_labels));
	/* Samples all of value 0 are a profile, if an empty one. */
	if (pp.added == 0 && !diag_skipped(d, before, NULL, 0)) {
		char shown[8 * sizeof(type)];

		textfmt_escape(type, strlen(type), shown, sizeof(shown));
		diag_warn(d, "%s: no sample has a nonzero '%s' value",
			  pp.name, shown);
		pp.added = 1;
	}
	rc = read_done(d, pp.name, pp.added > 0, before, NULL);
out:
	free(node_of);
	free(anode);
	free(pp.loc_aoff);
	free(pp.af);
	free(rk.sym);
	stacks_free(&ss.st);
	ARR_FREE(ss.rec, ss.caprec);
	free(pp.fn_sym);
	free(pp.strs);
	labels_destroy(pp.raw);
	free(pp.lpairs);
	free(pp.lset_of);
	free(pp.loc_off);
	free(pp.loc_n);
	free(pp.frames);
	index_free(&pp.locs);
	index_free(&pp.fns);
	index_free(&pp.maps);
	arena_destroy(&scratch);
	arena_destroy(&ar);
	free(owned);
	return rc;
}
