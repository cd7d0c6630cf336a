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
 * format (lengths that lie, truncation), the samples and the string table
 * never reach it whole (split_profile: memory follows what the profile
 * holds, not the input's size), its allocations go through a budget
 * proportional to the input's size, string indices and ids are checked
 * before use, and the
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

typedef Flametop__Pprof__ProfileOutline PProfile;
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
 * protobuf-c allocates every message, array and string of the profile
 * separately.  They come from an arena instead: a bump pointer in chunks,
 * nothing freed one by one, everything at once at the end.  A big block
 * (the array of a long repeated field, or the list protobuf-c keeps of a
 * message's fields while it counts them) gets a chunk of its own, and goes
 * back as soon as protobuf-c frees it.  What the arena holds is the budget
 * that bounds decoding memory.  Sizes are rounded to 8 bytes: no type of
 * protobuf-c's needs more alignment.
 */
#define ARENA_BIG (64u << 10)

struct arena_chunk {
	struct arena_chunk *next;
	size_t size, used;
	max_align_t data[];
};

struct arena {
	struct arena_chunk *head;   /* bump chunks, the newest first */
	struct arena_chunk *big;    /* chunks of one big block each */
	size_t left;                /* bytes the budget still allows */
	bool exhausted;
};

static struct arena_chunk *chunk_new(struct arena *ar, size_t size)
{
	struct arena_chunk *c;

	if (size > ar->left || ar->left - size < sizeof(*c)) {
		ar->exhausted = true;
		return NULL;
	}
	c = malloc(sizeof(*c) + size);
	if (!c) {
		ar->exhausted = true;
		return NULL;
	}
	ar->left -= sizeof(*c) + size;
	c->size = size;
	c->used = 0;
	return c;
}

static void chunk_free(struct arena *ar, struct arena_chunk *c)
{
	ar->left += sizeof(*c) + c->size;
	free(c);
}

static void *arena_alloc(void *ctx, size_t n)
{
	struct arena *ar = ctx;
	struct arena_chunk *c = ar->head;
	size_t need;

	if (n > SIZE_MAX / 2) {
		ar->exhausted = true;
		return NULL;
	}
	need = (n + 7) & ~(size_t)7;
	if (need >= ARENA_BIG) {
		if (!(c = chunk_new(ar, need)))
			return NULL;
		c->next = ar->big;
		ar->big = c;
		return c->data;
	}
	if (!c || c->size - c->used < need) {
		/* Chunks double from 64 KiB to 4 MiB: small inputs stay small. */
		size_t size = !c ? ARENA_BIG : c->size < (4u << 20) ?
			      c->size * 2 : 4u << 20;

		if (!(c = chunk_new(ar, size)))
			return NULL;
		c->next = ar->head;
		ar->head = c;
	}
	c->used += need;
	return (char *)c->data + c->used - need;
}

/* Big blocks go back at once (there are few); the rest with the arena. */
static void arena_free(void *ctx, void *ptr)
{
	struct arena *ar = ctx;

	for (struct arena_chunk **pc = &ar->big; *pc; pc = &(*pc)->next)
		if ((void *)(*pc)->data == ptr) {
			struct arena_chunk *c = *pc;

			*pc = c->next;
			chunk_free(ar, c);
			return;
		}
}

/* Forget every allocation, keeping the newest chunk for the next ones. */
static void arena_reset(struct arena *ar)
{
	while (ar->big) {
		struct arena_chunk *c = ar->big;

		ar->big = c->next;
		chunk_free(ar, c);
	}
	while (ar->head && ar->head->next) {
		struct arena_chunk *c = ar->head->next;

		ar->head->next = c->next;
		chunk_free(ar, c);
	}
	if (ar->head)
		ar->head->used = 0;
	ar->exhausted = false;
}

static void arena_destroy(struct arena *ar)
{
	arena_reset(ar);
	if (ar->head)
		chunk_free(ar, ar->head);
	ar->head = NULL;
}

/* ---- Ids to table entries ---------------------------------------------- */

/*
 * Ids are usually 1..n: then a direct table; otherwise sorted (id, index)
 * pairs and a binary search.  Id 0 is never valid.  Of duplicate ids the
 * first wins, and they are counted for a message.
 */
struct id_index {
	uint32_t *direct;        /* id -> index + 1 (0: none) */
	uint64_t ndirect;
	struct id_pair { uint64_t id; uint32_t i; } *pairs;
	size_t npairs;
	uint64_t ndup, dup;      /* definitions of an id defined before; the
				    first such id */
};

static int cmp_pair(const void *a, const void *b)
{
	const struct id_pair *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* A definition of an id that an earlier one defined. */
static void note_dup(struct id_index *ix, uint64_t id)
{
	if (!ix->ndup++)
		ix->dup = id;
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
		for (size_t i = 0; i < n; i++) {
			uint64_t id = id_of(tab, i);

			if (id && ix->direct[id])
				note_dup(ix, id);
			else if (id)
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
	for (size_t i = 1; i < n; i++)
		if (ix->pairs[i].id && ix->pairs[i].id == ix->pairs[i - 1].id)
			note_dup(ix, ix->pairs[i].id);
}

/* Say which ids of a table (what: "location") were defined again. */
static void index_report(const struct id_index *ix, struct diag *d,
			 const char *name, const char *what)
{
	if (ix->ndup == 1)
		diag_warn(d, "%s: %s id %llu is defined twice; the first "
			  "definition is used", name, what,
			  (unsigned long long)ix->dup);
	else if (ix->ndup)
		diag_warn(d, "%s: %llu %s definitions repeat an id defined "
			  "before (the first: %llu); the first definition of "
			  "each id is used", name, (unsigned long long)ix->ndup,
			  what, (unsigned long long)ix->dup);
}

/* The table index of id by binary search, or -1. */
static int64_t index_search(const struct id_index *ix, uint64_t id)
{
	size_t lo = 0, hi = ix->npairs;

	if (id == 0)
		return -1;
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

/* The table index of id, or -1 (direct[0] is always 0: id 0 is none). */
static inline int64_t index_find(const struct id_index *ix, uint64_t id)
{
	if (ix->direct)
		return id < ix->ndirect ? (int64_t)ix->direct[id] - 1 : -1;
	return index_search(ix, id);
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

/* ---- Locations to frames ------------------------------------------------- */

struct pp {
	struct profile *p;
	const struct read_opts *o;
	struct diag *d;
	const char *name;
	const PProfile *m;
	/* The input: its samples (fields 2) and strings (fields 6) are read
	 * from it where they are (split_profile). */
	const unsigned char *buf;
	size_t len, nsamples;
	size_t strings_at;       /* where the first string's field starts */
	uint64_t nstrings;       /* the string table's length */
	struct pstring {
		uint64_t i;
		ProtobufCBinaryData s;   /* in the input */
	} *strs;                 /* the strings named, by index (take_strings) */
	size_t nstrs;
	size_t ntypes;           /* sample types: each sample's values */
	struct id_index locs, fns, maps;
	uint32_t *fn_sym;        /* function index -> symbol + 1 (0: not yet) */
	/* Each location's frames, outermost first: frames[loc_off[i]...]. */
	uint32_t *loc_off, *loc_n;
	uint32_t *frames;
	size_t nframes, capframes;
	uint32_t unknown;        /* the symbol "[unknown]" */
	uint64_t bad_strings;
	uint64_t added;          /* samples added */
	/* Labels, read when --tag or --group label:KEY asks for them. */
	bool labels;
	bool strings_known;      /* the labels' strings are taken */
	bool focus;              /* a --tag KEY=VALUE is given */
	struct symtab *groups;   /* "KEY=VALUE" of --group label:KEY, by group */
	uint32_t group_off;      /* group g's frame: frames[group_off + g] */
	char *gbuf;              /* a group's name being made */
	size_t capgbuf;
	uint64_t bad_labels;     /* labels dropped: string index out of range */
	uint64_t group_bytes;    /* the groups' names may take this much more */
	uint64_t overflow;       /* samples put in KEY=[more values] */
	/* For the label list alone, pairs of string indices and their weight,
	 * named after the samples are read (list_pairs). */
	struct lpair { int64_t key, str; uint64_t w; } *lp;
	size_t nlp, lpmask;
	uint64_t untagged;       /* samples --tag left out */
};

/*
 * A stack's list of locations starts with its group, when samples are
 * grouped by a label: GROUP_LOC | group (location indices are below 2^31).
 */
#define GROUP_LOC 0x80000000u
/*
 * A group's name keeps GROUP_NAME_MAX bytes of its values ("..." after);
 * all names together, GROUP_BYTES_PER_BYTE per input byte and a constant
 * (a few label bytes can name a long string many times).  Past that, a
 * new group's samples are rooted in "KEY=[more values]".
 */
#define GROUP_NAME_MAX 256
#define GROUP_BYTES_PER_BYTE 2
#define GROUP_BYTES_BASE (8u << 20)

/* String i of the table; NULL (and counted) when out of range. */
static const ProtobufCBinaryData *string_at(struct pp *pp, int64_t i)
{
	size_t lo = 0, hi = pp->nstrs;

	if (i < 0 || (uint64_t)i >= pp->nstrings) {
		pp->bad_strings++;
		return NULL;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pp->strs[mid].i < (uint64_t)i)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Every index a message names was taken (take_strings). */
	return lo < pp->nstrs && pp->strs[lo].i == (uint64_t)i ?
	       &pp->strs[lo].s : NULL;
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

			if (f >= 0)
				push_frame(pp, line_sym(pp, (size_t)f,
							l->line[k]->line));
		}
		if (pp->nframes == start)
			push_frame(pp, location_fallback(pp, l));
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

/* ---- Splitting off the samples and strings ------------------------------ */

/*
 * Most of a big profile is its samples (field 2), and a hostile one can be
 * all strings (field 6: 2 bytes an empty one, that protobuf-c would hold
 * in 16).  Neither goes to protobuf-c with the rest: the profile's fields
 * are walked once here, the samples and strings stay where they are in
 * the input (the samples to be decoded one at a time, of the strings only
 * those that the profile's messages name), and the other fields are
 * copied into a buffer that protobuf-c decodes as the profile without
 * them.  So decoding memory follows what the profile holds (its types,
 * mappings, locations and functions), not the input's size.  The walk
 * delimits every field protobuf-c could read; what it copies, protobuf-c
 * judges.  A field it cannot delimit (cut short, a group, a wire type
 * that does not exist) makes the profile invalid, as it would to
 * protobuf-c.
 */
struct field {
	size_t start, data, end; /* key, payload (wire type 2), end */
	uint64_t number;
	unsigned wt;
};

/* The field at *pos; false when it cannot be delimited. */
static bool next_field(const unsigned char *b, size_t len, size_t *pos,
		       struct field *f)
{
	size_t p = *pos;
	uint64_t key, v;

	f->start = p;
	if (!varint(b, len, &p, &key) || !(key >> 3))
		return false;
	f->number = key >> 3;
	f->wt = (unsigned)(key & 7);
	switch (f->wt) {
	case 0:
		if (!varint(b, len, &p, &v))
			return false;
		break;
	case 1:
	case 5:
		if (len - p < (f->wt == 1 ? 8u : 4u))
			return false;
		p += f->wt == 1 ? 8 : 4;
		break;
	case 2:
		if (!varint(b, len, &p, &v) || v > len - p)
			return false;
		f->data = p;
		p += (size_t)v;
		break;
	default:
		return false;
	}
	f->end = p;
	*pos = p;
	return true;
}

/*
 * Walk the profile: count its samples and strings into pp and copy every
 * other field into *rest.  False when a field cannot be delimited.
 */
static bool split_profile(struct pp *pp, const unsigned char *b, size_t len,
			  unsigned char **rest, size_t *nrest)
{
	size_t pos = 0, n = 0, cap = 0;
	unsigned char *out = NULL;

	pp->nsamples = 0;
	pp->nstrings = 0;
	while (pos < len) {
		struct field f;

		if (!next_field(b, len, &pos, &f)) {
			free(out);
			return false;
		}
		if (f.wt == 2 && f.number == 2) {
			pp->nsamples++;
			continue;
		}
		if (f.wt == 2 && f.number == 6) {
			if (!pp->nstrings++)
				pp->strings_at = f.start;
			continue;
		}
		GROW(out, cap, n + (f.end - f.start) + 1);
		memcpy(out + n, b + f.start, f.end - f.start);
		n += f.end - f.start;
	}
	pp->buf = b;
	pp->len = len;
	*rest = out;
	*nrest = n;
	return true;
}

/* Add string index i to the list of those wanted (in range or not). */
static void want_string(uint64_t **want, size_t *n, size_t *cap, int64_t i)
{
	if (i < 0)
		return;
	GROW(*want, *cap, *n + 1);
	(*want)[(*n)++] = (uint64_t)i;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Find the strings that the sample types, functions and mappings name, in
 * one walk of the string table from its first field; the rest are never
 * looked at.
 */
static void take_strings(struct pp *pp, const uint64_t *extra, size_t nextra)
{
	const PProfile *m = pp->m;
	uint64_t *want = NULL, k = 0;
	size_t n = 0, cap = 0, j = 0, pos = pp->strings_at, u = 0;
	struct field f;

	for (size_t i = 0; i < m->n_sample_type; i++) {
		want_string(&want, &n, &cap, m->sample_type[i]->type);
		want_string(&want, &n, &cap, m->sample_type[i]->unit);
	}
	for (size_t i = 0; i < m->n_function; i++) {
		want_string(&want, &n, &cap, m->function[i]->name);
		want_string(&want, &n, &cap, m->function[i]->system_name);
		if (pp->o->lines)
			want_string(&want, &n, &cap,
				    m->function[i]->filename);
	}
	for (size_t i = 0; i < m->n_mapping; i++)
		want_string(&want, &n, &cap, m->mapping[i]->filename);
	for (size_t i = 0; i < nextra; i++)
		want_string(&want, &n, &cap, (int64_t)extra[i]);
	if (n)
		qsort(want, n, sizeof(*want), cmp_u64);
	/* Unique, and within the table. */
	for (size_t i = 0; i < n && want[i] < pp->nstrings; i++)
		if (!u || want[i] != want[u - 1])
			want[u++] = want[i];
	free(pp->strs);
	pp->strs = xreallocarray(NULL, u ? u : 1, sizeof(*pp->strs));
	while (j < u && pos < pp->len && next_field(pp->buf, pp->len, &pos, &f)) {
		if (f.wt != 2 || f.number != 6)
			continue;
		if (want[j] == k) {
			pp->strs[j].i = k;
			pp->strs[j].s.data = (uint8_t *)(pp->buf + f.data);
			pp->strs[j++].s.len = f.end - f.data;
		}
		k++;
	}
	pp->nstrs = j;
	free(want);
}

/* Sample i's bytes, from the input walked again. */
struct sample_iter {
	size_t pos, i;
};

static bool next_sample(const struct pp *pp, struct sample_iter *it,
			const uint8_t **data, size_t *n)
{
	struct field f;

	while (it->pos < pp->len && next_field(pp->buf, pp->len, &it->pos, &f))
		if (f.number == 2 && f.wt == 2) {
			*data = pp->buf + f.data;
			*n = f.end - f.data;
			it->i++;
			return true;
		}
	return false;
}

/* ---- Labels ------------------------------------------------------------ */

/*
 * Go's pprof.Do and pprof.Labels put string labels (key and value, both
 * string table indices) on samples.  --tag and --group label:KEY read
 * them: first every sample's label strings are taken from the string
 * table (take_label_strings), then each sample is kept or left out and
 * given its group as it is decoded (sample_labels).  A numeric label (its
 * value index 0) is not a string label and is passed over, as pprof does.
 */

static int cmp_u64(const void *a, const void *b);

/* Sort want[0..*n) and drop repeats. */
static void uniq_u64(uint64_t *want, size_t *n)
{
	size_t u = 0;

	qsort(want, *n, sizeof(*want), cmp_u64);
	for (size_t i = 0; i < *n; i++)
		if (!u || want[i] != want[u - 1])
			want[u++] = want[i];
	*n = u;
}

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
static bool take_label_strings(struct pp *pp, struct arena *scratch)
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
static bool tag_negated(const char *t)
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
static void list_pairs(struct pp *pp)
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

/*
 * The samples are decoded one at a time (into an arena emptied before each)
 * and reduced to what the tree needs: the distinct location lists, each a
 * "stack" found again through a hash table (samples that list the same
 * locations, common since pprof keeps samples apart by their labels, cost
 * one lookup), and per sample its stack and value, in sample order.
 */
struct stack_set {
	uint32_t *locs;          /* location indices, root first */
	size_t nlocs, caplocs;
	size_t *start;           /* stack k: locs[start[k] .. start[k + 1]) */
	uint32_t *depth;         /* stack k's frames */
	uint64_t *hash;          /* stack k's hash */
	size_t n, cap;           /* stacks (start has n + 1 entries) */
	uint64_t *slots;         /* hash >> 32 << 32 | stack + 1; 0: empty */
	size_t mask;
};

struct sample_rec {
	uint64_t value;
	uint32_t stack;
	uint32_t sample;         /* its index in the profile, for messages */
};

/* Why a sample is skipped (SKIP_BUDGET: the frame budget ran out). */
enum skip {
	SKIP_NONE, SKIP_FEW_VALUES, SKIP_NEGATIVE, SKIP_BAD_ID, SKIP_TOO_DEEP,
	SKIP_BUDGET, SKIP_KINDS
};

struct samples {
	struct stack_set st;
	struct sample_rec *rec;
	size_t nrec, caprec;
	uint64_t skipped[SKIP_KINDS];    /* samples skipped, by why */
	bool over_budget;        /* the frame budget ran out */
};

static void stacks_init(struct stack_set *st)
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

static void stacks_free(struct stack_set *st)
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

/* Sample s into the batch, unless its value is 0 or it is not wanted. */
static void batch_add(struct pp *pp, struct batch *bt,
		      const PSample *sa, size_t s, size_t which,
		      const struct stack_set *st)
{
	struct pending *e = &bt->p[bt->np];
	size_t n = sa->n_location_id, g = 0;
	uint32_t group = 0;

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
	g = pp->o->label_root != NULL;
	e->n = n + g;
	e->depth = sample_locations(pp, sa, bt->lists + e->off + g, &e->why);
	if (e->depth && e->depth + g > PROFILE_MAX_DEPTH - 1) {
		e->depth = 0;
		e->why = SKIP_TOO_DEEP;
	}
	if (!e->depth) {
		bt->np++;
		return;
	}
	/* A sample that will be added: its labels are counted, then it is
	 * kept or left out. */
	if (pp->labels && !sample_labels(pp, sa, e->value, &group))
		return;
	bt->np++;
	if (g)
		bt->lists[e->off] = GROUP_LOC | group;
	e->depth += g;
	n += g;
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
static bool decode_samples(struct pp *pp, size_t which, uint64_t budget,
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
 * A stack's frames are read from its locations' as the tree is built: all
 * the stacks of a part stand at the same depth, each at a location of its
 * list and a frame of that location (both below 65535: so is the depth).
 */
struct cursor {
	uint16_t loc, off;
};

struct frames_of {
	const struct stack_set *st;
	const struct pp *pp;
	struct cursor *cur;
	uint32_t unknown;
};

/* The rank of stack k's next frame. */
static inline uint32_t next_frame(struct frames_of *fo, uint32_t k)
{
	struct cursor *c = &fo->cur[k];
	size_t at = fo->st->start[k] + c->loc;
	uint32_t l, r;

	if (at == fo->st->start[k + 1])
		return fo->unknown;     /* no locations: "[unknown]" */
	l = fo->st->locs[at];
	if (l & GROUP_LOC) {
		c->loc++;
		return fo->pp->frames[fo->pp->group_off + (l & ~GROUP_LOC)];
	}
	r = fo->pp->frames[fo->pp->loc_off[l] + c->off];
	if (++c->off == fo->pp->loc_n[l]) {
		c->off = 0;
		c->loc++;
	}
	return r;
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

/* A child of parent named sym, after prev when the tree is being built. */
static uint32_t tree_child(struct profile *p, bool fresh, uint32_t parent,
			   uint32_t prev, uint32_t sym)
{
	return fresh ? profile_append_child(p, parent, prev, sym)
		     : profile_child(p, parent, sym);
}

/*
 * The node of every stack.  The stacks are split by their first frame, each
 * part by its second, and so on (a radix sort that makes the tree as it
 * goes), so each node is made once, in name order among its siblings, and
 * a stack whose part holds it alone becomes a chain at once.  Into an empty
 * profile the nodes are appended without a lookup; else each is looked up.
 */
static void build_tree(const struct pp *pp, const struct stack_set *st,
		       const struct ranks *rk, uint32_t *node_of)
{
	struct part { size_t lo, hi; uint32_t depth, node; } *work = NULL;
	size_t nst = st->n, nwork = 0, capwork = 0;
	struct profile *p = pp->p;
	struct frames_of fo = { st, pp, NULL, rk->unknown };
	uint32_t *idx = xreallocarray(NULL, nst ? nst : 1, sizeof(*idx));
	uint64_t *keys = xreallocarray(NULL, nst ? 2 * nst : 2, sizeof(*keys));
	bool fresh = profile_node_count(p) == 1;
	unsigned bytes = 0;

	fo.cur = xcalloc(nst ? nst : 1, sizeof(*fo.cur));
	while (bytes < 4 && (rk->n - 1) >> (8 * bytes))
		bytes++;
	for (size_t k = 0; k < nst; k++)
		idx[k] = (uint32_t)k;
	GROW(work, capwork, 1);
	work[nwork++] = (struct part){ 0, nst, 0, NODE_ROOT };
	while (nwork) {
		struct part w = work[--nwork];
		size_t lo = w.lo, n;
		uint32_t prev = NODE_NONE;

		/* The stacks that end at this node first. */
		for (size_t i = w.lo; i < w.hi; i++) {
			uint32_t k = idx[i];

			if (st->depth[k] == w.depth) {
				node_of[k] = w.node;
				idx[i] = idx[lo];
				idx[lo++] = k;
			}
		}
		n = w.hi - lo;
		for (size_t i = 0; i < n; i++) {
			uint32_t k = idx[lo + i];

			keys[i] = (uint64_t)next_frame(&fo, k) << 32 | k;
		}
		sort_by_rank(keys, keys + n, n, bytes);
		for (size_t i = 0, j; i < n; i = j) {
			uint32_t r = (uint32_t)(keys[i] >> 32), child;

			for (j = i + 1; j < n && (uint32_t)(keys[j] >> 32) == r;)
				j++;
			child = prev = tree_child(p, fresh, w.node, prev,
						  rk->sym[r]);
			if (j - i == 1) {
				uint32_t k = (uint32_t)keys[i];

				for (uint32_t d = w.depth + 1; d < st->depth[k]; d++)
					child = tree_child(p, fresh, child,
							   NODE_NONE,
							   rk->sym[next_frame(&fo, k)]);
				node_of[k] = child;
				continue;
			}
			for (size_t t = i; t < j; t++)
				idx[lo + t] = (uint32_t)keys[t];
			if (nwork == capwork)
				GROW(work, capwork, nwork + 1);
			work[nwork++] = (struct part){ lo + i, lo + j,
						       w.depth + 1, child };
		}
	}
	free(fo.cur);
	free(work);
	free(idx);
	free(keys);
}

/* Each sample's value at its stack's node, in sample order. */
static void add_samples(struct pp *pp, const struct samples *ss,
			const uint32_t *node_of)
{
	for (size_t i = 0; i < ss->nrec; i++) {
		const struct sample_rec *r = &ss->rec[i];
		struct weight w = { .v = r->value };

		if (profile_add_at(pp->p, node_of[r->stack], &w, NULL) ==
		    ADD_OVERFLOW)
			diag_skip(pp->d, DIAG_SAMPLE, 1, pp->name, "sample %u: "
				  "value would overflow the profile's total",
				  r->sample);
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
	if (exhausted)
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

int read_pprof(struct profile *p, struct input *in,
	       const struct read_opts *o, struct diag *d)
{
	struct pp pp = { 0 };
	struct arena ar = { 0 }, scratch = { 0 };
	ProtobufCAllocator alloc = { arena_alloc, arena_free, &ar };
	struct samples ss = { 0 };
	struct ranks rk = { 0 };
	uint32_t *node_of = NULL;
	unsigned char *rest = NULL;
	size_t len, nrest = 0, which = 0;
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
	ar.left = len > (SIZE_MAX - PPROF_ALLOC_BASE) / PPROF_ALLOC_PER_BYTE ?
		  SIZE_MAX : len * PPROF_ALLOC_PER_BYTE + PPROF_ALLOC_BASE;
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
	pp.labels = o->ntags || o->label_root || o->label_list;
	for (size_t t = 0; t < o->ntags; t++)
		if (!tag_negated(o->tags[t]))
			pp.focus = true;
	if (o->ntags || o->label_root) {
		pp.groups = symtab_create();
		pp.group_bytes = (uint64_t)len * GROUP_BYTES_PER_BYTE +
				 GROUP_BYTES_BASE;
		/* When a sample does not decode, decode_samples says so. */
		take_label_strings(&pp, &scratch);
		pp.strings_known = true;
	}
	stacks_init(&ss.st);
	if (!decode_samples(&pp, which, budget, &ss, &scratch)) {
		say_undecodable(&pp, scratch.exhausted);
		goto out;
	}
	arena_destroy(&scratch);
	list_pairs(&pp);
	index_report(&pp.locs, d, pp.name, "location");
	index_report(&pp.fns, d, pp.name, "function");
	index_report(&pp.maps, d, pp.name, "mapping");

	/* The profile is sound: now its names go into the profile. */
	pp.unknown = profile_intern(p, "[unknown]", 9);
	pp.fn_sym = xcalloc(m->n_function ? m->n_function : 1,
			    sizeof(*pp.fn_sym));
	expand_locations(&pp);
	pp.group_off = (uint32_t)pp.nframes;
	for (uint32_t g = 0; pp.groups && g < symtab_count(pp.groups); g++)
		push_frame(&pp, profile_intern(p, symtab_name(pp.groups, g),
					       symtab_len(pp.groups, g)));
	note_types(&pp, which);
	string_copy(&pp, m->sample_type[which]->type, type, sizeof(type));
	string_copy(&pp, m->sample_type[which]->unit, unit, sizeof(unit));
	profile_note_unit(p, type_unit(type, unit));
	arena_destroy(&ar);     /* the message, without walking it */
	pp.m = NULL;
	free(owned);
	owned = NULL;

	/* The lookups are over: only the stacks' lists are needed. */
	free(ss.st.slots);
	free(ss.st.hash);
	ss.st.slots = NULL;
	ss.st.hash = NULL;
	rank_frames(&pp, &rk);
	node_of = xreallocarray(NULL, ss.st.n ? ss.st.n : 1, sizeof(*node_of));
	build_tree(&pp, &ss.st, &rk, node_of);
	stacks_free(&ss.st);
	add_samples(&pp, &ss, node_of);
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
	if (pp.overflow)
		diag_warn(d, "%s: %llu sample%s rooted in %s=[more values]: the "
			  "label's values would take more than %d bytes per "
			  "input byte", pp.name, (unsigned long long)pp.overflow,
			  PLURAL(pp.overflow), o->label_root, GROUP_BYTES_PER_BYTE);
	if (pp.added == 0 && pp.untagged && !diag_skipped(d, before, NULL, 0)) {
		diag_warn(d, "%s: --tag leaves none of its %llu samples",
			  pp.name, (unsigned long long)pp.untagged);
		pp.added = 1;
	}
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
	free(rk.sym);
	stacks_free(&ss.st);
	free(ss.rec);
	free(pp.fn_sym);
	free(pp.strs);
	free(pp.gbuf);
	free(pp.lp);
	if (pp.groups)
		symtab_destroy(pp.groups);
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
