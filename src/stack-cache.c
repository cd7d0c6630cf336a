/*
 * stack-cache.c - raw call chains to what they came to (stack-cache.h):
 * an open-addressing table of entries, the chains copied into one array.
 */
#include "stack-cache.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Bounds: 1M chains, 64 MB of chain words; then nothing more is stored. */
#define SC_MAX_ENTRIES ((size_t)1 << 20)
#define SC_MAX_WORDS ((size_t)8 << 20)
#define SC_FIRST_SLOTS ((size_t)16384)

struct sc_entry {
	uint64_t hash;             /* 0: empty slot */
	uint64_t ip;
	size_t at;                 /* the chain's first word in sc->words */
	uint32_t pid, tid;
	uint32_t nr;
	uint16_t cpumode;
	struct sc_val val;
};

_Static_assert(SC_FIRST_SLOTS * sizeof(struct sc_entry) <= (2u << 20),
	       "the first table fits one huge page");

struct stack_cache {
	struct sc_entry *slots;
	size_t mask, n;
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
	return sc;
}

void sc_destroy(struct stack_cache *sc)
{
	if (!sc)
		return;
	ARR_FREE(sc->slots, sc->mask + 1);
	ARR_FREE(sc->words, sc->capwords);
	free(sc);
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
static struct sc_entry *slot_of(const struct stack_cache *sc, uint64_t h,
				const struct sc_key *k)
{
	for (size_t i = h & sc->mask;; i = (i + 1) & sc->mask) {
		struct sc_entry *e = &sc->slots[i];

		if (!e->hash || same(sc, e, h, k))
			return e;
	}
}

const struct sc_val *sc_find(const struct stack_cache *sc,
			     const struct sc_key *key)
{
	const struct sc_entry *e;

	if (key->nr > UINT32_MAX)
		return NULL;
	e = slot_of(sc, key_hash(key), key);
	return e->hash ? &e->val : NULL;
}

static void grow(struct stack_cache *sc)
{
	struct sc_entry *old = sc->slots;
	size_t omask = sc->mask;

	sc->mask = omask * 2 + 1;
	sc->slots = NULL;
	ARR_GROW(sc->slots, 0, sc->mask + 1);
	for (size_t i = 0; i <= omask; i++) {
		size_t j;

		if (!old[i].hash)
			continue;
		for (j = old[i].hash & sc->mask; sc->slots[j].hash;
		     j = (j + 1) & sc->mask)
			;
		sc->slots[j] = old[i];
	}
	ARR_FREE(old, omask + 1);
}

bool sc_put(struct stack_cache *sc, const struct sc_key *key,
	    const struct sc_val *val)
{
	uint64_t h = key_hash(key);
	struct sc_entry *e;

	if (key->nr > UINT32_MAX)
		return false;
	e = slot_of(sc, h, key);
	if (e->hash) {
		e->val = *val;
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
	if (key->nr)
		memcpy(sc->words + sc->nwords, key->chain, (size_t)key->nr * 8);
	e->hash = h;
	e->ip = key->ip;
	e->at = sc->nwords;
	e->pid = key->pid;
	e->tid = key->tid;
	e->nr = (uint32_t)key->nr;
	e->cpumode = key->cpumode;
	e->val = *val;
	sc->nwords += key->nr;
	if (++sc->n * 2 > sc->mask)
		grow(sc);
	return true;
}
