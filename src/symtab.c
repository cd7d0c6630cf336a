/*
 * symtab.c - the interned-name table.
 *
 * Names live back to back, NUL-terminated, in large chunks that never move
 * (so symtab_name's pointers stay valid while the table lives).  An
 * open-addressing hash table of ids, keyed by the name's hash, finds a name;
 * each entry keeps 32 bits of the hash so that most probes that miss never
 * touch the name bytes.
 *
 * The entries (name, length, kind) live in blocks of SYM_BLOCK that never
 * move either, found through a table of block pointers allocated whole at
 * creation (untouched pages of it cost nothing): a thread may read the
 * name of any id it was handed while another thread interns new names.
 */
#include "symtab.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util.h"

#define CHUNK_MIN (16u << 10)
#define CHUNK_MAX (1u << 20)
#define SYM_SHIFT 12
#define SYM_BLOCK (1u << SYM_SHIFT)
#define SYM_NBLOCKS ((UINT32_MAX >> SYM_SHIFT) + 1)

struct sym {
	const char *name;
	uint32_t len;
	uint32_t kind;
};

struct slot {
	uint32_t id;    /* id + 1; 0 is empty */
	uint32_t hash;  /* low 32 bits of the name's hash */
};

struct symtab {
	struct sym **blocks;    /* SYM_NBLOCKS pointers, NULL until used */
	size_t nsyms;
	struct slot *slots;
	size_t mask;            /* slots - 1; a power of two minus one */
	char **chunks;
	size_t nchunks, capchunks;
	char *cur;              /* free space in the last chunk */
	size_t curleft;
};

struct symtab *symtab_create(void)
{
	struct symtab *st = xcalloc(1, sizeof(*st));

	st->mask = 1023;
	st->slots = xcalloc(st->mask + 1, sizeof(*st->slots));
	/* Mapped, not calloc'd: zero pages cost nothing until touched. */
	st->blocks = mmap(NULL, SYM_NBLOCKS * sizeof(*st->blocks),
			  PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	if (st->blocks == MAP_FAILED)
		fatal("out of memory (symbol table)");
	return st;
}

void symtab_destroy(struct symtab *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nchunks; i++)
		free(st->chunks[i]);
	free(st->chunks);
	for (size_t i = 0; i < SYM_NBLOCKS && st->blocks[i]; i++)
		free(st->blocks[i]);
	munmap(st->blocks, SYM_NBLOCKS * sizeof(*st->blocks));
	free(st->slots);
	free(st);
}

/*
 * Empty the table for reuse: names and entries go, the table of block
 * pointers stays mapped (a reader's per-thread table is emptied after every
 * block of lines, and mapping it anew cost a page-table set-up each time).
 */
void symtab_clear(struct symtab *st)
{
	for (size_t i = 0; i < st->nchunks; i++)
		free(st->chunks[i]);
	st->nchunks = 0;
	st->cur = NULL;
	st->curleft = 0;
	for (size_t i = 0; i < SYM_NBLOCKS && st->blocks[i]; i++) {
		free(st->blocks[i]);
		st->blocks[i] = NULL;
	}
	st->nsyms = 0;
	memset(st->slots, 0, (st->mask + 1) * sizeof(*st->slots));
}

enum sym_kind sym_kind_of(const char *name, size_t len)
{
	if (len < 4 || name[len - 4] != '_' || name[len - 3] != '[' ||
	    name[len - 1] != ']')
		return SYM_USER;
	switch (name[len - 2]) {
	case 'k': return SYM_KERNEL;
	case 'j': return SYM_JIT;
	case 'i': return SYM_INLINED;
	case 'w': return SYM_WAKER;
	default: return SYM_USER;
	}
}

static char *store(struct symtab *st, const char *name, size_t len)
{
	char *p;

	if (len + 1 > st->curleft) {
		/* Chunks grow from 16 KiB to 1 MiB: small profiles stay small. */
		size_t want = CHUNK_MIN << (st->nchunks < 6 ? st->nchunks : 6);
		size_t sz = len + 1 > want ? len + 1 : want;

		GROW(st->chunks, st->capchunks, st->nchunks + 1);
		/*
		 * Zeroed: pcre2's JIT reads names a word at a time, past
		 * their NUL, and valgrind flags the unwritten bytes.
		 */
		st->cur = st->chunks[st->nchunks++] = xcalloc(1, sz);
		st->curleft = sz;
	}
	p = st->cur;
	memcpy(p, name, len);
	p[len] = '\0';
	st->cur += len + 1;
	st->curleft -= len + 1;
	return p;
}

static void rehash(struct symtab *st)
{
	size_t nmask = st->mask * 2 + 1;
	struct slot *ns = xcalloc_table(nmask + 1, sizeof(*ns));

	for (size_t i = 0; i <= st->mask; i++) {
		size_t j;

		if (!st->slots[i].id)
			continue;
		j = st->slots[i].hash & nmask;
		while (ns[j].id)
			j = (j + 1) & nmask;
		ns[j] = st->slots[i];
	}
	free(st->slots);
	st->slots = ns;
	st->mask = nmask;
}

static struct sym *sym_of(const struct symtab *st, uint32_t id)
{
	return &st->blocks[id >> SYM_SHIFT][id & (SYM_BLOCK - 1)];
}

/* The slot holding name, or the empty slot where it would go. */
static struct slot *lookup(const struct symtab *st, const char *name,
			   size_t len, uint32_t h)
{
	size_t j = h & st->mask;

	for (;;) {
		struct slot *s = &st->slots[j];

		if (!s->id)
			return s;
		if (s->hash == h) {
			const struct sym *y = sym_of(st, s->id - 1);

			if (y->len == len && memcmp(y->name, name, len) == 0)
				return s;
		}
		j = (j + 1) & st->mask;
	}
}

uint32_t symtab_find(const struct symtab *st, const char *name, size_t len)
{
	struct slot *s = lookup(st, name, len, hash_name(name, len));

	return s->id ? s->id - 1 : UINT32_MAX;
}

/*
 * Up to FIND_WAVE names at a time, in three rounds: hash every name and
 * fetch its first slot; read the slots and fetch the entries they point
 * to; read the entries and fetch the names.  The last round compares the
 * names (most lookups hit on the first slot) and goes on probing where
 * one differs.  Each round's loads were asked for a round earlier, so a
 * line of 40 frames costs about three memory latencies, not 120.
 */
#define FIND_WAVE 64

void symtab_find_many(const struct symtab *st, const struct symtab_ref *refs,
		      size_t n, uint32_t *ids)
{
	uint32_t hash[FIND_WAVE], cand[FIND_WAVE];

	while (n > 0) {
		size_t m = n < FIND_WAVE ? n : FIND_WAVE;

		for (size_t i = 0; i < m; i++) {
			hash[i] = hash_name(refs[i].name, refs[i].len);
			__builtin_prefetch(&st->slots[hash[i] & st->mask]);
		}
		for (size_t i = 0; i < m; i++) {
			const struct slot *s = &st->slots[hash[i] & st->mask];

			cand[i] = s->id && s->hash == hash[i] ? s->id : 0;
			if (cand[i])
				__builtin_prefetch(sym_of(st, cand[i] - 1));
		}
		for (size_t i = 0; i < m; i++)
			if (cand[i])
				__builtin_prefetch(sym_of(st, cand[i] - 1)->name);
		for (size_t i = 0; i < m; i++) {
			const struct sym *y = cand[i] ? sym_of(st, cand[i] - 1) : NULL;
			const struct slot *s;

			if (y && y->len == refs[i].len &&
			    memcmp(y->name, refs[i].name, refs[i].len) == 0) {
				ids[i] = cand[i] - 1;
				continue;
			}
			s = lookup(st, refs[i].name, refs[i].len, hash[i]);
			ids[i] = s->id ? s->id - 1 : UINT32_MAX;
		}
		refs += m;
		ids += m;
		n -= m;
	}
}

uint32_t symtab_intern(struct symtab *st, const char *name, size_t len)
{
	uint32_t h = hash_name(name, len);
	struct slot *s = lookup(st, name, len, h);
	struct sym *y;

	if (s->id)
		return s->id - 1;
	if (len > UINT32_MAX || st->nsyms >= UINT32_MAX - 1)
		fatal("too many or too long frame names");
	if (!(st->nsyms & (SYM_BLOCK - 1)))
		st->blocks[st->nsyms >> SYM_SHIFT] =
			xmalloc(SYM_BLOCK * sizeof(struct sym));
	y = sym_of(st, (uint32_t)st->nsyms);
	y->name = store(st, name, len);
	y->len = (uint32_t)len;
	y->kind = sym_kind_of(name, len);
	s->id = (uint32_t)++st->nsyms;
	s->hash = h;
	if (st->nsyms * 2 > st->mask)
		rehash(st);            /* s points into the old table now */
	return (uint32_t)st->nsyms - 1;
}

const char *symtab_name(const struct symtab *st, uint32_t id)
{
	return sym_of(st, id)->name;
}

size_t symtab_len(const struct symtab *st, uint32_t id)
{
	return sym_of(st, id)->len;
}

enum sym_kind symtab_kind(const struct symtab *st, uint32_t id)
{
	return (enum sym_kind)sym_of(st, id)->kind;
}

uint32_t symtab_count(const struct symtab *st)
{
	return (uint32_t)st->nsyms;
}
