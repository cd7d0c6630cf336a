/*
 * read-pprof-decode.c - taking a pprof profile apart: recognizing the
 * format by its fields, the bounded arena protobuf-c allocates from, ids
 * to table entries, and the one walk of the profile's fields that leaves
 * its samples and string table in the input (split_profile), of which
 * only the strings named are found (take_strings) and the samples are
 * read one at a time (next_sample).  It calls no other file of the
 * reader's.
 */
#include "read-pprof-priv.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

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

void *arena_alloc(void *ctx, size_t n)
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
void arena_free(void *ctx, void *ptr)
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
void arena_reset(struct arena *ar)
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

void arena_destroy(struct arena *ar)
{
	arena_reset(ar);
	if (ar->head)
		chunk_free(ar, ar->head);
	ar->head = NULL;
}

/* ---- Ids to table entries ---------------------------------------------- */

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

void index_build(struct id_index *ix, size_t n,
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
void index_report(const struct id_index *ix, struct diag *d,
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
int64_t index_search(const struct id_index *ix, uint64_t id)
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

void index_free(struct id_index *ix)
{
	free(ix->direct);
	free(ix->pairs);
}

uint64_t loc_id(const void *tab, size_t i)
{
	return ((PLocation *const *)tab)[i]->id;
}

uint64_t fn_id(const void *tab, size_t i)
{
	return ((PFunction *const *)tab)[i]->id;
}

uint64_t map_id(const void *tab, size_t i)
{
	return ((PMapping *const *)tab)[i]->id;
}

/* String i of the table; NULL (and counted) when out of range. */
const ProtobufCBinaryData *string_at(struct pp *pp, int64_t i)
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
void string_copy(struct pp *pp, int64_t i, char *buf, size_t cap)
{
	const ProtobufCBinaryData *s = string_at(pp, i);
	size_t n = s ? s->len : 0;

	if (n >= cap)
		n = cap - 1;
	if (n)
		memcpy(buf, s->data, n);
	buf[n] = '\0';
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
bool split_profile(struct pp *pp, const unsigned char *b, size_t len,
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

/* Sort want[0..*n) and drop repeats. */
void uniq_u64(uint64_t *want, size_t *n)
{
	size_t u = 0;

	qsort(want, *n, sizeof(*want), cmp_u64);
	for (size_t i = 0; i < *n; i++)
		if (!u || want[i] != want[u - 1])
			want[u++] = want[i];
	*n = u;
}

/*
 * Find the strings that the sample types, functions and mappings name, in
 * one walk of the string table from its first field; the rest are never
 * looked at.
 */
void take_strings(struct pp *pp, const uint64_t *extra, size_t nextra)
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
		/* --lines, --pprof and the address tables' lines. */
		want_string(&want, &n, &cap, m->function[i]->filename);
	}
	for (size_t i = 0; i < m->n_mapping; i++) {
		want_string(&want, &n, &cap, m->mapping[i]->filename);
		want_string(&want, &n, &cap, m->mapping[i]->build_id);
	}
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

/* The next sample's bytes, from the input walked again. */
bool next_sample(const struct pp *pp, struct sample_iter *it,
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
