/*
 * read-pprof.c - pprof profiles (profile.proto, as Go's runtime/pprof and
 * `go tool pprof -proto` write them), decoded with protobuf-c.
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
 * format (lengths that lie, truncation), its allocations go through a
 * budget proportional to the input's size (so memory stays bounded by
 * --max-input), string indices and ids are checked before use, and the
 * number of frames all samples expand to is bounded too (a few bytes of
 * samples can name a location with thousands of inlined lines many times).
 */
#include "read.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.pb-c.h"
#include "textfmt.h"
#include "util.h"

/* Decoding may allocate this much per input byte, plus a constant. */
#define PPROF_ALLOC_PER_BYTE 48
#define PPROF_ALLOC_BASE (32u << 20)
/* All samples together may expand to this many frames per input byte. */
#define PPROF_FRAMES_PER_BYTE 16
#define PPROF_FRAMES_BASE (4u << 20)
#define PLURAL(n) ((n) == 1 ? "" : "s")

typedef Flametop__Pprof__Profile PProfile;
typedef Flametop__Pprof__Location PLocation;
typedef Flametop__Pprof__Function PFunction;
typedef Flametop__Pprof__Mapping PMapping;
typedef Flametop__Pprof__Sample PSample;

/* ---- Recognizing the format -------------------------------------------- */

/* A varint at *pos; false when it is cut or longer than 10 bytes. */
static bool varint(const unsigned char *b, size_t len, size_t *pos,
		   uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned shift = 0; shift < 70 && *pos < len; shift += 7) {
		unsigned char c = b[(*pos)++];

		x |= (uint64_t)(c & 0x7f) << (shift < 64 ? shift : 0);
		if (!(c & 0x80)) {
			*v = x;
			return true;
		}
	}
	return false;
}

/*
 * The wire types a message's known fields may have: bit (1 << wire type)
 * per field number.  Unknown field numbers are refused: detection should
 * not take text for a profile.
 */
static unsigned wire_mask(int msg, uint64_t field)
{
	/* msg 0: Profile; 1: ValueType; 2: Sample; 3: Mapping; 4: Location;
	 * 5: Function. */
	static const unsigned char nfields[] = { 14, 2, 3, 10, 5, 5 };
	const unsigned V = 1u << 0, L = 1u << 2;

	if (field == 0 || field > nfields[msg])
		return 0;
	switch (msg) {
	case 0:
		if (field <= 6 || field == 11)
			return L;
		return field == 13 ? V | L : V;
	case 2:
		return field == 3 ? L : V | L;   /* packed or not */
	case 4:
		return field == 4 ? L : V;
	default:
		return V;
	}
}

/*
 * Walk the fields of a message of kind msg in b[0..len).  A field cut by
 * the end of the buffer ends the walk when cut is not NULL (the buffer may
 * be a prefix of the input), and sets *cut.  Length-delimited fields of the
 * profile are checked one level down.  Returns the number of whole fields,
 * or -1.
 */
static int walk_fields(const unsigned char *b, size_t len, int msg,
		       bool *cut)
{
	static const signed char sub[] = { -1, 1, 2, 3, 4, 5, -1, -1, -1, -1,
					   -1, 1, -1, -1, -1 };
	size_t pos = 0;
	int n = 0;

	while (pos < len) {
		uint64_t key, v;
		unsigned wt;

		if (!varint(b, len, &pos, &key))
			return cut ? (*cut = true, n) : -1;
		wt = (unsigned)(key & 7);
		if (!(wire_mask(msg, key >> 3) & (1u << wt)))
			return -1;
		if (!varint(b, len, &pos, &v))
			return cut ? (*cut = true, n) : -1;
		if (wt == 2) {
			if (v > len - pos)
				return cut ? (*cut = true, n) : -1;
			if (msg == 0 && sub[key >> 3] > 0 &&
			    walk_fields(b + pos, (size_t)v, sub[key >> 3],
					NULL) < 0)
				return -1;
			pos += (size_t)v;
		}
		n++;
	}
	return n;
}

bool read_pprof_detect(const void *buf, size_t len)
{
	bool cut = false;
	int n;

	if (len < 2)
		return false;
	n = walk_fields(buf, len, 0, &cut);
	/* A field cut short is fine in a big prefix, not in a few bytes. */
	return n > 0 || (n == 0 && cut && len >= 4096);
}

/* ---- A bounded arena for protobuf-c -------------------------------------- */

/*
 * protobuf-c allocates every message and array of the profile separately
 * (millions for a big profile).  They all live until the reader is done, so
 * they come from an arena: a bump pointer in chunks, nothing freed
 * one by one, everything at once at the end.  The arena's size is the
 * budget that bounds decoding memory.
 */
struct arena_chunk {
	struct arena_chunk *next;
	size_t size, used;
	max_align_t data[];
};

struct arena {
	struct arena_chunk *head;
	size_t left;             /* bytes the budget still allows */
	bool exhausted;
};

static void *arena_alloc(void *ctx, size_t n)
{
	struct arena *ar = ctx;
	struct arena_chunk *c = ar->head;
	size_t need = (n + 15) & ~(size_t)15;

	if (n > SIZE_MAX / 2)
		return ar->exhausted = true, NULL;
	if (!c || c->size - c->used < need) {
		/* Chunks double from 64 KiB to 4 MiB: small inputs stay small. */
		size_t size = !c ? 64u << 10 : c->size < (4u << 20) ?
			      c->size * 2 : 4u << 20;

		if (size < need)
			size = need;

		if (size + sizeof(*c) > ar->left) {
			ar->exhausted = true;
			return NULL;
		}
		c = malloc(sizeof(*c) + size);
		if (!c)
			return ar->exhausted = true, NULL;
		ar->left -= sizeof(*c) + size;
		c->size = size;
		c->used = 0;
		c->next = ar->head;
		ar->head = c;
	}
	c->used += need;
	return (char *)c->data + c->used - need;
}

static void arena_free(void *ctx, void *ptr)
{
	(void)ctx;
	(void)ptr;                  /* all at once, in arena_destroy */
}

static void arena_destroy(struct arena *ar)
{
	while (ar->head) {
		struct arena_chunk *c = ar->head;

		ar->head = c->next;
		free(c);
	}
}

/* ---- Ids to table entries ---------------------------------------------- */

/*
 * Ids are usually 1..n: then a direct table; otherwise sorted (id, index)
 * pairs and a binary search.  Id 0 is never valid.  Of duplicate ids the
 * first wins.
 */
struct id_index {
	uint32_t *direct;        /* id -> index + 1 (0: none) */
	uint64_t ndirect;
	struct id_pair { uint64_t id; uint32_t i; } *pairs;
	size_t npairs;
};

static int cmp_pair(const void *a, const void *b)
{
	const struct id_pair *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static void index_build(struct id_index *ix, size_t n,
			uint64_t (*id_of)(const void *tab, size_t i),
			const void *tab)
{
	uint64_t max = 0;

	memset(ix, 0, sizeof(*ix));
	for (size_t i = 0; i < n; i++) {
		uint64_t id = id_of(tab, i);

		if (id > max)
			max = id;
	}
	if (max <= 2 * (uint64_t)n + 64) {
		ix->ndirect = max + 1;
		ix->direct = xcalloc((size_t)ix->ndirect, sizeof(*ix->direct));
		for (size_t i = n; i-- > 0;) {
			uint64_t id = id_of(tab, i);

			if (id)
				ix->direct[id] = (uint32_t)i + 1;
		}
		return;
	}
	ix->pairs = xreallocarray(NULL, n ? n : 1, sizeof(*ix->pairs));
	for (size_t i = 0; i < n; i++) {
		ix->pairs[i].id = id_of(tab, i);
		ix->pairs[i].i = (uint32_t)i;
	}
	ix->npairs = n;
	qsort(ix->pairs, n, sizeof(*ix->pairs), cmp_pair);
}

/* The table index of id, or -1. */
static int64_t index_find(const struct id_index *ix, uint64_t id)
{
	size_t lo = 0, hi = ix->npairs;

	if (id == 0)
		return -1;
	if (ix->direct)
		return id < ix->ndirect && ix->direct[id] ?
		       (int64_t)ix->direct[id] - 1 : -1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ix->pairs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ix->npairs && ix->pairs[lo].id == id ?
	       (int64_t)ix->pairs[lo].i : -1;
}

static void index_free(struct id_index *ix)
{
	free(ix->direct);
	free(ix->pairs);
}

static uint64_t loc_id(const void *tab, size_t i)
{
	return ((PLocation *const *)tab)[i]->id;
}

static uint64_t fn_id(const void *tab, size_t i)
{
	return ((PFunction *const *)tab)[i]->id;
}

static uint64_t map_id(const void *tab, size_t i)
{
	return ((PMapping *const *)tab)[i]->id;
}

/* ---- Reading ------------------------------------------------------------- */

struct pp {
	struct profile *p;
	const struct read_opts *o;
	struct diag *d;
	const char *name;
	const PProfile *m;
	struct id_index locs, fns, maps;
	uint32_t *fn_sym;        /* function index -> symbol + 1 (0: not yet) */
	/* Each location's frames, outermost first: frames[loc_off[i]...]. */
	uint32_t *loc_off, *loc_n;
	uint32_t *frames;
	size_t nframes, capframes;
	uint32_t unknown;        /* the symbol "[unknown]" */
	uint64_t bad_strings;
	uint64_t added;          /* samples added */
};

/* String i of the table; NULL (and counted) when out of range. */
static const ProtobufCBinaryData *string_at(struct pp *pp, int64_t i)
{
	if (i < 0 || (uint64_t)i >= pp->m->n_string_table) {
		pp->bad_strings++;
		return NULL;
	}
	return &pp->m->string_table[i];
}

/* A string as a C string, for messages (empty when out of range). */
static void string_copy(struct pp *pp, int64_t i, char *buf, size_t cap)
{
	const ProtobufCBinaryData *s = string_at(pp, i);
	size_t n = s ? s->len : 0;

	if (n >= cap)
		n = cap - 1;
	if (n)
		memcpy(buf, s->data, n);
	buf[n] = '\0';
}

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

/* Every location's frames, outermost (the last line) first; -1 if too many. */
static int expand_locations(struct pp *pp)
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
	pp->loc_off = xreallocarray(NULL, n ? n : 1, sizeof(*pp->loc_off));
	pp->loc_n = xreallocarray(NULL, n ? n : 1, sizeof(*pp->loc_n));
	for (size_t i = 0; i < n; i++) {
		const PLocation *l = pp->m->location[i];
		size_t start = pp->nframes;

		for (size_t k = l->n_line; k-- > 0;) {
			int64_t f = index_find(&pp->fns, l->line[k]->function_id);

			if (f >= 0)
				push_frame(pp, function_sym(pp, (size_t)f));
		}
		if (pp->nframes == start)
			push_frame(pp, location_fallback(pp, l));
		pp->loc_off[i] = (uint32_t)start;
		pp->loc_n[i] = (uint32_t)(pp->nframes - start);
	}
	return 0;
}

/* Pick the sample type: by name, the default, or the last. */
static int pick_type(struct pp *pp, size_t *which)
{
	const PProfile *m = pp->m;
	char name[64], shown[8 * sizeof(name)], list[512];
	size_t len = 0;

	if (m->n_sample_type == 0) {
		diag_warn(pp->d, "%s: pprof profile has no sample types",
			  pp->name);
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
	diag_warn(pp->d, "%s: no sample type '%s' in this pprof profile "
		  "(it has: %s)", pp->name, pp->o->sample_type, list);
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

/*
 * Samples that list the same locations end at the same node: remember the
 * node of each distinct location list, so that a repeated stack costs one
 * hash lookup instead of a walk down the tree.
 */
struct memo_slot {
	uint64_t hash;
	uint32_t sample;         /* the first sample with this list, + 1 */
	uint32_t node;
};

struct memo {
	struct memo_slot *slots;
	size_t mask;
};

static void memo_init(struct memo *mo, size_t n)
{
	size_t cap = 16;

	while (cap < 2 * n && cap < ((size_t)1 << 40))
		cap <<= 1;
	mo->slots = xcalloc(cap, sizeof(*mo->slots));
	mo->mask = cap - 1;
}

static uint64_t sample_hash(const PSample *sa)
{
	if (!sa->n_location_id)
		return 0;           /* no ids: location_id may be NULL */
	return hash_bytes(sa->location_id,
			  sa->n_location_id * sizeof(*sa->location_id));
}

/* The slot of sample s's location list: its node, or an empty slot. */
static struct memo_slot *memo_find(struct memo *mo, const PProfile *m,
				   size_t s, uint64_t h)
{
	const PSample *a = m->sample[s];

	for (size_t i = (size_t)h & mo->mask;; i = (i + 1) & mo->mask) {
		struct memo_slot *sl = &mo->slots[i];
		const PSample *b;

		if (!sl->sample)
			return sl;
		if (sl->hash != h)
			continue;
		b = m->sample[sl->sample - 1];
		if (b->n_location_id == a->n_location_id &&
		    (!a->n_location_id ||
		     !memcmp(b->location_id, a->location_id,
			     a->n_location_id * sizeof(*a->location_id))))
			return sl;
	}
}

/* The frames of a sample, root first, into *stack; 0 when it is skipped. */
static size_t sample_frames(struct pp *pp, const PSample *sa, uint32_t **stack,
			    size_t *cap, uint64_t *bad_ids, uint64_t *too_deep)
{
	size_t depth = 0;

	for (size_t k = sa->n_location_id; k-- > 0;) {
		int64_t li = index_find(&pp->locs, sa->location_id[k]);
		size_t n;

		if (li < 0) {
			++*bad_ids;
			return 0;
		}
		n = pp->loc_n[li];
		if (depth + n > PROFILE_MAX_DEPTH - 1) {
			++*too_deep;
			return 0;
		}
		GROW(*stack, *cap, depth + n);
		memcpy(*stack + depth, pp->frames + pp->loc_off[li],
		       n * sizeof(**stack));
		depth += n;
	}
	if (depth == 0) {
		GROW(*stack, *cap, 1);
		(*stack)[depth++] = pp->unknown;
	}
	return depth;
}

/* Add every sample's value of type `which`. */
static void add_samples(struct pp *pp, size_t which, uint64_t frame_budget)
{
	const PProfile *m = pp->m;
	uint32_t *stack = NULL, *prev = NULL, *nodes = NULL;
	size_t cap = 0, pcap = 0, ncap = 0, pdepth = 0;
	uint64_t spent = 0, negative = 0, bad_ids = 0, too_deep = 0, hnext = 0;
	struct memo mo;

	memo_init(&mo, m->n_sample);
	if (m->n_sample)
		hnext = sample_hash(m->sample[0]);
	for (size_t s = 0; s < m->n_sample; s++) {
		const PSample *sa = m->sample[s];
		struct weight w = { 0 };
		struct memo_slot *sl;
		uint64_t h = hnext;
		size_t depth, same = 0;
		uint32_t node;

		/*
		 * The memo is one cache miss per sample: ask for the next
		 * sample's slot now, so that it arrives while this one works.
		 */
		if (s + 1 < m->n_sample) {
			hnext = sample_hash(m->sample[s + 1]);
			__builtin_prefetch(&mo.slots[hnext & mo.mask]);
		}
		if (which >= sa->n_value || sa->value[which] == 0)
			continue;
		if (sa->value[which] < 0) {
			negative++;
			continue;
		}
		w.v = (uint64_t)sa->value[which];
		sl = memo_find(&mo, m, s, h);
		if (sl->sample) {
			node = sl->node;
		} else {
			depth = sample_frames(pp, sa, &stack, &cap, &bad_ids,
					      &too_deep);
			if (!depth)
				continue;
			spent += depth;
			if (spent > frame_budget) {
				diag_badf(pp->d, pp->name, 0, "the samples "
					  "expand to more than %llu frames; the "
					  "rest is skipped",
					  (unsigned long long)frame_budget);
				break;
			}
			/* The previous stack's path is reused as far as it
			 * agrees (samples often come sorted). */
			while (same < depth && same < pdepth &&
			       prev[same] == stack[same])
				same++;
			GROW(nodes, ncap, depth);
			node = same ? nodes[same - 1] : NODE_ROOT;
			for (size_t i = same; i < depth; i++)
				node = nodes[i] = profile_child(pp->p, node,
								stack[i]);
			GROW(prev, pcap, depth);
			memcpy(prev, stack, depth * sizeof(*prev));
			pdepth = depth;
			sl->hash = h;
			sl->sample = (uint32_t)s + 1;
			sl->node = node;
		}
		if (profile_add_at(pp->p, node, &w, NULL) == ADD_OVERFLOW)
			diag_badf(pp->d, pp->name, 0, "sample %zu: value would "
				  "overflow the profile's total", s);
		else
			pp->added++;
	}
	if (negative)
		diag_badf(pp->d, pp->name, 0, "%llu sample%s with a negative "
			  "value skipped", (unsigned long long)negative,
			  PLURAL(negative));
	if (bad_ids)
		diag_badf(pp->d, pp->name, 0, "%llu sample%s skipped: a location "
			  "id that is not in the profile",
			  (unsigned long long)bad_ids, PLURAL(bad_ids));
	if (too_deep)
		diag_badf(pp->d, pp->name, 0, "%llu sample%s deeper than %u "
			  "frames skipped", (unsigned long long)too_deep,
			  PLURAL(too_deep), PROFILE_MAX_DEPTH - 1);
	free(mo.slots);
	free(stack);
	free(prev);
	free(nodes);
}

int read_pprof(struct profile *p, struct input *in,
	       const struct read_opts *o, struct diag *d)
{
	struct pp pp = { 0 };
	struct arena ar = { 0 };
	ProtobufCAllocator alloc = { arena_alloc, arena_free, &ar };
	size_t len, which = 0;
	void *owned;
	const void *b = read_whole(in, &len, &owned, d);
	PProfile *m;
	char type[64], unit[32];
	int rc = -1;

	if (!b)
		return -1;
	pp.p = p;
	pp.o = o;
	pp.d = d;
	pp.name = input_name(in);
	ar.left = len > (SIZE_MAX - PPROF_ALLOC_BASE) / PPROF_ALLOC_PER_BYTE ?
		  SIZE_MAX : len * PPROF_ALLOC_PER_BYTE + PPROF_ALLOC_BASE;
	m = flametop__pprof__profile__unpack(&alloc, len, b);
	if (!m) {
		arena_destroy(&ar);
		if (ar.exhausted)
			diag_warn(d, "%s: pprof profile needs more memory to "
				  "decode than %d bytes per input byte "
				  "(hostile or corrupt)", pp.name,
				  PPROF_ALLOC_PER_BYTE);
		else
			diag_warn(d, "%s: not a valid pprof profile (corrupt or "
				  "truncated protobuf)", pp.name);
		free(owned);
		return -1;
	}
	pp.m = m;
	if (m->n_location > UINT32_MAX / 2 || m->n_function > UINT32_MAX / 2 ||
	    m->n_sample > UINT32_MAX / 2) {
		diag_warn(d, "%s: pprof profile has more than 2^31 samples, "
			  "locations or functions", pp.name);
		goto out;
	}
	if (pick_type(&pp, &which) < 0)
		goto out;
	pp.unknown = profile_intern(p, "[unknown]", 9);
	index_build(&pp.locs, m->n_location, loc_id, m->location);
	index_build(&pp.fns, m->n_function, fn_id, m->function);
	index_build(&pp.maps, m->n_mapping, map_id, m->mapping);
	pp.fn_sym = xcalloc(m->n_function ? m->n_function : 1,
			    sizeof(*pp.fn_sym));
	if (expand_locations(&pp) < 0) {
		diag_warn(d, "%s: pprof profile has more than 2^32 lines",
			  pp.name);
		goto out;
	}
	note_types(&pp, which);
	string_copy(&pp, m->sample_type[which]->type, type, sizeof(type));
	string_copy(&pp, m->sample_type[which]->unit, unit, sizeof(unit));
	profile_note_unit(p, type_unit(type, unit));
	add_samples(&pp, which, (uint64_t)len * PPROF_FRAMES_PER_BYTE +
				PPROF_FRAMES_BASE);
	if (pp.bad_strings)
		diag_badf(d, pp.name, 0, "%llu string ind%s out of range "
			  "(names shown as [unknown])",
			  (unsigned long long)pp.bad_strings,
			  pp.bad_strings == 1 ? "ex" : "ices");
	if (pp.added == 0) {
		char shown[8 * sizeof(type)];

		textfmt_escape(type, strlen(type), shown, sizeof(shown));
		diag_warn(d, "%s: no sample has a nonzero '%s' value",
			  pp.name, shown);
	}
	rc = 0;
out:
	free(pp.fn_sym);
	free(pp.loc_off);
	free(pp.loc_n);
	free(pp.frames);
	index_free(&pp.locs);
	index_free(&pp.fns);
	index_free(&pp.maps);
	arena_destroy(&ar);     /* the message, without walking it */
	free(owned);
	return rc;
}
