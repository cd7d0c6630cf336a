/*
 * read-pprof-priv.h - what the pprof reader's files share.
 *
 * read-pprof-decode.c takes the profile apart (the field walk, the
 * arena protobuf-c allocates from, the id indexes, the string table);
 * read-pprof-samples.c decodes the samples into stacks and reads their
 * labels; read-pprof.c runs them and builds the tree.  Calls go one way:
 * read-pprof.c -> read-pprof-samples.c -> read-pprof-decode.c.
 */
#ifndef FLAMETOP_READ_PPROF_PRIV_H
#define FLAMETOP_READ_PPROF_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "labels.h"
#include "profile.pb-c.h"
#include "read.h"

struct paddr;
struct paddr_frame;

typedef Flametop__Pprof__ProfileOutline PProfile;
typedef Flametop__Pprof__Location PLocation;
typedef Flametop__Pprof__Function PFunction;
typedef Flametop__Pprof__Mapping PMapping;
typedef Flametop__Pprof__Sample PSample;

/* ---- The bounded arena (read-pprof-decode.c) ----------------------------- */

struct arena {
	struct arena_chunk *head;   /* bump chunks, the newest first */
	struct arena_chunk *big;    /* chunks of one big block each */
	size_t left;                /* bytes the budget still allows */
	bool exhausted;
};

/* protobuf-c's allocator: n bytes of the arena ctx (NULL, and
 * ->exhausted set, past its budget). */
void *arena_alloc(void *ctx, size_t n);

/* Big blocks go back at once (there are few); the rest with the arena. */
void arena_free(void *ctx, void *ptr);

/* Forget every allocation, keeping the newest chunk for the next ones. */
void arena_reset(struct arena *ar);

/* Give every chunk back. */
void arena_destroy(struct arena *ar);

/* ---- Ids to table entries (read-pprof-decode.c) -------------------------- */

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

/* Index the n entries of tab by the ids id_of gives them. */
void index_build(struct id_index *ix, size_t n,
		 uint64_t (*id_of)(const void *tab, size_t i),
		 const void *tab);

/* Say which ids of a table (what: "location") were defined again. */
void index_report(const struct id_index *ix, struct diag *d,
		  const char *name, const char *what);

/* The table index of id by binary search, or -1. */
int64_t index_search(const struct id_index *ix, uint64_t id);

void index_free(struct id_index *ix);

/* The id of entry i of the locations, functions or mappings (index_build). */
uint64_t loc_id(const void *tab, size_t i);
uint64_t fn_id(const void *tab, size_t i);
uint64_t map_id(const void *tab, size_t i);

/* The table index of id, or -1 (direct[0] is always 0: id 0 is none). */
static inline int64_t index_find(const struct id_index *ix, uint64_t id)
{
	if (ix->direct)
		return id < ix->ndirect ? (int64_t)ix->direct[id] - 1 : -1;
	return index_search(ix, id);
}

/* ---- The reader's state -------------------------------------------------- */

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
	uint64_t packed_budget;  /* the decoding budget, when the compressed
				  * size set it (read_pprof's decode_budget) */
	uint64_t added;          /* samples added */
	/* Labels: the samples' sets as string index pairs, then their
	 * sets in the profile's table (name_label_sets). */
	struct labels *raw;
	uint32_t *lpairs;        /* a sample's pairs being made */
	size_t caplpairs;
	uint32_t *lset_of;       /* raw set -> the profile's set */
	uint64_t bad_labels;     /* labels dropped: string index out of range */
	/* The address tables (read-pprof-addr.c): each location's frames as
	 * (function, address), af[loc_aoff[i] .. loc_aoff[i + 1]). */
	struct paddr *pa;
	uint32_t *loc_aoff;
	struct paddr_frame *af;
	size_t naf;
};

/* ---- The string table and the samples' bytes (read-pprof-decode.c) ------- */

/* String i of the table; NULL (and counted) when out of range. */
const ProtobufCBinaryData *string_at(struct pp *pp, int64_t i);

/* A string as a C string, for messages (empty when out of range). */
void string_copy(struct pp *pp, int64_t i, char *buf, size_t cap);

/*
 * Walk the profile: count its samples and strings into pp and copy every
 * other field into *rest.  False when a field cannot be delimited.
 */
bool split_profile(struct pp *pp, const unsigned char *b, size_t len,
		   unsigned char **rest, size_t *nrest);

/* Sort want[0..*n) and drop repeats. */
void uniq_u64(uint64_t *want, size_t *n);

/*
 * Find the strings that the sample types, functions and mappings name, in
 * one walk of the string table from its first field; the rest are never
 * looked at.
 */
void take_strings(struct pp *pp, const uint64_t *extra, size_t nextra);

/* The samples' bytes, one at a time, from the input walked again. */
struct sample_iter {
	size_t pos, i;           /* where the walk stands; samples found */
};

/* The next sample's bytes into *data, *n; false after the last. */
bool next_sample(const struct pp *pp, struct sample_iter *it,
		 const uint8_t **data, size_t *n);

/* ---- Labels and samples to stacks (read-pprof-samples.c) ----------------- */

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
	uint32_t lset;           /* its labels' raw set (pp->raw; 0: none) */
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

/*
 * The samples' label sets (pp->raw) into the profile's, by their strings
 * (taken now); pp->lset_of maps a raw set to the profile's.
 */
void name_label_sets(struct pp *pp);

void stacks_init(struct stack_set *st);

void stacks_free(struct stack_set *st);

/*
 * Decode every sample and note its stack and value of type `which` (ss
 * NULL: only decode).  All are decoded even after the frame budget ran
 * out: as any other, a corrupt sample makes the whole profile invalid.
 * Returns false on one that does not decode (scratch->exhausted: for want
 * of memory).
 */
bool decode_samples(struct pp *pp, size_t which, uint64_t budget,
		    struct samples *ss, struct arena *scratch);

/* ---- Addresses (read-pprof-addr.c) ---------------------------------------- */

/* Every location's frames as (function, address), with their lines; after
 * expand_locations (it names the functions), while pp->m is there. */
void pprof_addr_locations(struct pp *pp);
/* Each stack's end in the address tables, malloc'ed (st->n of them). */
uint32_t *pprof_addr_stacks(struct pp *pp, const struct stack_set *st);

#endif
