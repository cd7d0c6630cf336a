/*
 * stack-cache.h - what a sample's raw call chain came to, by the chain.
 *
 * A recording of a few busy programs repeats a few thousand call chains
 * hundreds of thousands of times (the perf.data hard case: 12,690
 * distinct chains in 318,618 samples).  Naming each frame and walking the
 * tree for each sample costs far more than finding the chain again: the
 * stack layer (perf-event.c) keeps here, for each chain of a thread, the
 * tree node it ended at and what it needs to add a sample there.
 *
 * The cache only stores and finds: whether an entry still holds (the
 * process's maps or the thread's name changed since) is the caller's to
 * judge from the stamp it stored.  Memory is bounded: once full, nothing
 * more is stored.
 */
#ifndef FLAMETOP_STACK_CACHE_H
#define FLAMETOP_STACK_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A sample's chain as recorded, and whose it is. */
struct sc_key {
	uint32_t pid, tid;
	uint16_t cpumode;
	uint64_t ip;               /* only when nr is 0 */
	uint64_t nr;               /* u64s at chain */
	const void *chain;
	uint64_t hash;             /* sc_hash(this key) if known, else 0 */
};

#define SC_COUNTS 10

/* What the chain came to. */
struct sc_val {
	uint64_t stamp;            /* the caller's clock when it was stored */
	uint32_t leaf;             /* the tree node of the whole stack */
	uint32_t anode;            /* its id in the address tables */
	uint32_t comm;             /* the sample's command (sample_meta) */
	uint32_t frames;           /* frames the stack has */
	uint16_t counts[SC_COUNTS];/* what the caller counts again on a hit */
	bool had_proc, had_thread; /* the process and thread were known */
	uint16_t nonzero;          /* bit k: counts[k] is not 0 */
};

struct stack_cache;

/*
 * A key's hash, never 0.  It depends on the key alone, so a reader may work
 * it out ahead of the lookup, on another thread, and set key->hash.
 */
uint64_t sc_hash(const struct sc_key *key);

struct stack_cache *sc_create(void);
void sc_destroy(struct stack_cache *sc);
/* The value stored for key, NULL if none (the caller may update it). */
struct sc_val *sc_find(struct stack_cache *sc, const struct sc_key *key);
/* Start loading where a key of this hash is looked for (a hint). */
void sc_prefetch(const struct stack_cache *sc, uint64_t hash);
/* The memory the cache holds: its table, entries and chains. */
size_t sc_bytes(const struct stack_cache *sc);
/* Store (or replace) key's value; false when the cache is full. */
bool sc_put(struct stack_cache *sc, const struct sc_key *key,
	    const struct sc_val *val);

#endif
