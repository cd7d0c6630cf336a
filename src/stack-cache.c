/*
 * stack-cache.c - raw call chains to what they came to (stack-cache.h):
 * an open-addressing table of small slots over an array of entries, the
 * chains copied into one array.
 */
#include "stack-cache.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Bounds: 1M chains, 64 MB of chain words; then nothing more is stored. */
#define SC_MAX_ENTRIES ((size_t)1 << 20)
#define SC_MAX_WORDS ((size_t)8 << 20)
#define SC_FIRST_SLOTS ((size_t)1 << 18)

/*
 * The entries lie in one array in the order they were stored; the table
 * holds only a slot of 8 bytes for each: the high half of the hash and
 * where the entry is.  A chain looked for and not there (a third of the
 * samples of a system-wide recording) probes slots only, 8 to a cache
 * line; growing the table rewrites slots and reads only the entries'
 * hashes; the entries' array grows by pages as they come, so its memory
 * is faulted in once, as it is used.  (A table of whole entries, at most
 * half full, faulted in every doubling's table anew.)
 */
struct sc_entry {
	uint64_t hash;
	uint64_t ip;
	size_t at;                 /* the chain's first word in sc->words */
	uint32_t pid, tid;
	uint32_t nr;
	uint16_t cpumode;
	struct sc_val val;
};

struct sc_slot {
	uint32_t tag;              /* the hash's high half */
	uint32_t entry;            /* index in sc->entries + 1; 0: empty */
};

_Static_assert(SC_FIRST_SLOTS * sizeof(struct sc_slot) <= (2u << 20),
	       "the first table fits one huge page");
_Static_assert(SC_MAX_ENTRIES < UINT32_MAX, "an entry's index fits a slot");

struct stack_cache {
	struct sc_slot *slots;
	size_t mask;
	struct sc_entry *entries;  /* ARR array of capentries */
	size_t n, capentries;
	uint64_t *words;           /* ARR array of capwords */
	size_t nwords, capwords;
};

struct stack_cache *sc_create(void)
{
	struct stack_cache *sc = xcalloc(1, sizeof(*sc));

	/*
	 * As many slots as fill the 2 MB huge page the table is in anyway
	 * (an array of 256 KB or more is in huge pages): the doublings up
	 * to there would each have zeroed a huge page of their own.
	 */
	sc->mask = SC_FIRST_SLOTS - 1;
	ARR_GROW(sc->slots, 0, sc->mask + 1);
	populate_table(sc->slots, (sc->mask + 1) * sizeof(*sc->slots));
	return sc;
}

void sc_destroy(struct stack_cache *sc)
{
	if (!sc)
		return;
	ARR_FREE(sc->slots, sc->mask + 1);
	ARR_FREE(sc->entries, sc->capentries);
	ARR_FREE(sc->words, sc->capwords);
	free(sc);
}

size_t sc_bytes(const struct stack_cache *sc)
{
	return (sc->mask + 1) * sizeof(*sc->slots) +
	       sc->n * sizeof(*sc->entries) + sc->nwords * sizeof(*sc->words);
}

uint64_t sc_hash(const struct sc_key *k)
{
	uint64_t seed = (uint64_t)k->pid << 32 ^ k->tid ^
			(uint64_t)k->cpumode << 20 ^ k->ip * 31;
	uint64_t h = hash_bytes_seed(k->chain, (size_t)k->nr * 8, seed);

	return h ? h : 1;
}

static uint64_t key_hash(const struct sc_key *k)
{
	return k->hash ? k->hash : sc_hash(k);
}

void sc_prefetch(const struct stack_cache *sc, uint64_t hash)
{
	__builtin_prefetch(&sc->slots[hash & sc->mask]);
}

static bool same(const struct stack_cache *sc, const struct sc_entry *e,
		 uint64_t h, const struct sc_key *k)
{
	return e->hash == h && e->pid == k->pid && e->tid == k->tid &&
	       e->cpumode == k->cpumode && e->ip == k->ip && e->nr == k->nr &&
	       (!k->nr ||
		memcmp(sc->words + e->at, k->chain, (size_t)k->nr * 8) == 0);
}

/* The slot of key (hash h), or the empty slot where it would go. */
static struct sc_slot *slot_of(const struct stack_cache *sc, uint64_t h,
			       const struct sc_key *k)
{
	uint32_t tag = (uint32_t)(h >> 32);

	for (size_t i = h & sc->mask;; i = (i + 1) & sc->mask) {
		struct sc_slot *s = &sc->slots[i];

		if (!s->entry ||
		    (s->tag == tag && same(sc, &sc->entries[s->entry - 1], h, k)))
			return s;
	}
}

struct sc_val *sc_find(struct stack_cache *sc, const struct sc_key *key)
{
	const struct sc_slot *s;

	if (key->nr > UINT32_MAX)
		return NULL;
	s = slot_of(sc, key_hash(key), key);
	return s->entry ? &sc->entries[s->entry - 1].val : NULL;
}

/* Twice the slots, filled again from the entries' hashes. */
static void grow(struct stack_cache *sc)
{
	ARR_FREE(sc->slots, sc->mask + 1);
	sc->mask = sc->mask * 2 + 1;
	ARR_GROW(sc->slots, 0, sc->mask + 1);
	populate_table(sc->slots, (sc->mask + 1) * sizeof(*sc->slots));
	for (size_t i = 0; i < sc->n; i++) {
		uint64_t h = sc->entries[i].hash;
		size_t j;

		for (j = h & sc->mask; sc->slots[j].entry; j = (j + 1) & sc->mask)
			;
		sc->slots[j].tag = (uint32_t)(h >> 32);
		sc->slots[j].entry = (uint32_t)i + 1;
	}
}

bool sc_put(struct stack_cache *sc, const struct sc_key *key,
	    const struct sc_val *val)
{
	uint64_t h = key_hash(key);
	struct sc_slot *s;
	struct sc_entry *e;

	if (key->nr > UINT32_MAX)
		return false;
	s = slot_of(sc, h, key);
	if (s->entry) {
		sc->entries[s->entry - 1].val = *val;
		return true;
	}
	if (sc->n >= SC_MAX_ENTRIES || key->nr > SC_MAX_WORDS - sc->nwords)
		return false;
	if (sc->nwords + key->nr > sc->capwords) {
		size_t old = sc->capwords;

		sc->capwords = old ? old * 2 : 65536;
		while (sc->capwords < sc->nwords + key->nr)
			sc->capwords *= 2;
		ARR_GROW(sc->words, old, sc->capwords);
	}
	ARR_NEED(sc->entries, sc->capentries, sc->n + 1);
	if (key->nr)
		memcpy(sc->words + sc->nwords, key->chain, (size_t)key->nr * 8);
	e = &sc->entries[sc->n];
	e->hash = h;
	e->ip = key->ip;
	e->at = sc->nwords;
	e->pid = key->pid;
	e->tid = key->tid;
	e->nr = (uint32_t)key->nr;
	e->cpumode = key->cpumode;
	e->val = *val;
	sc->nwords += key->nr;
	s->tag = (uint32_t)(h >> 32);
	s->entry = (uint32_t)++sc->n;
	if (sc->n * 2 > sc->mask)
		grow(sc);
	return true;
}
