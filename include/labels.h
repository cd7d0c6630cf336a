/*
 * labels.h - label sets: the distinct sets of KEY=VALUE string labels
 * that samples carry (pprof's labels, written by Go's pprof.Do and
 * pprof.Labels, and by continuous profilers' tags).
 *
 * A profile sees few distinct label sets, carried by many samples, so
 * each sample keeps only the index of its set (struct sample_meta's
 * labels), as it keeps its task and CPU; filters and groupings (view.h)
 * read the sets through that index.  Keys and values are interned once
 * (any bytes); a set is its (key, value) pairs in the order the sample
 * gave them.  Set 0 is the empty set: a sample without labels.
 */
#ifndef FLAMETOP_LABELS_H
#define FLAMETOP_LABELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct labels;

struct labels *labels_create(void);
/* Drop a holder of l; the last one frees it. */
void labels_destroy(struct labels *l);
/*
 * One more holder of l (a view shares its source's table): sets and
 * strings are only ever added, so the ids a holder knows stay valid.
 */
struct labels *labels_share(struct labels *l);

/* The id of a key or value string s[0..len), interned if new. */
uint32_t labels_str(struct labels *l, const char *s, size_t len);
/* The id of a string, or UINT32_MAX when none is s[0..len). */
uint32_t labels_find_str(const struct labels *l, const char *s, size_t len);
/* String id's bytes (NUL-terminated, owned by l) and length. */
const char *labels_name(const struct labels *l, uint32_t id, size_t *len);

/*
 * The id of the set of n pairs (pairs[2i] the key's string id, pairs[2i+1]
 * the value's), interned if new; n 0 is set 0.
 */
uint32_t labels_set(struct labels *l, const uint32_t *pairs, size_t n);
/* Number of sets, set 0 included (so at least 1). */
size_t labels_count(const struct labels *l);
/* Set id's pairs, as given to labels_set; *n their number. */
const uint32_t *labels_pairs(const struct labels *l, uint32_t set, size_t *n);
/* Bytes of its strings and pairs (for budgets tied to its size). */
size_t labels_bytes(const struct labels *l);

/* ---- The --tag KEY=VALUE syntax ------------------------------------------ */

/*
 * Is t KEY=VALUE or KEY!=VALUE (a key before the '=')?  *neg: KEY!=VALUE;
 * the key is t[0..*klen), the value starts at t + *voff.
 */
bool labels_tag_parse(const char *t, bool *neg, size_t *klen, size_t *voff);

/*
 * Which sets --tag tags[0..n) keeps (any KEY=VALUE given, and none of the
 * KEY!=VALUE; values compared as bytes): keep[set] for every set, malloc'ed.
 * Returns NULL when n is 0.
 */
bool *labels_keep(const struct labels *l, const char *const *tags, size_t n);

#endif
