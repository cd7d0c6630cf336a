/*
 * labels.c - label sets (labels.h): the keys and values interned in a
 * symtab of their own, the sets' pairs back to back in one array (set k:
 * pairs[start[k] .. start[k + 1]), two ids a pair) and found again through
 * an open addressing table keyed by the pairs' hash, each slot the hash's
 * high half and the set's index + 1, so that a probe compares pairs only
 * when the hashes agree (a profile may hold a million distinct sets).
 * Set 0, the empty set, is made with the table.
 */
#include "labels.h"

#include <stdlib.h>
#include <string.h>

#include "symtab.h"
#include "util.h"

struct labels {
	unsigned refs;           /* holders (labels_share) */
	struct symtab *str;
	uint32_t *pairs;         /* two string ids a pair */
	size_t npairs, cappairs; /* in ids (two a pair) */
	size_t *start;           /* set k: pairs[start[k] .. start[k + 1]) */
	size_t nsets, capstart;
	uint64_t *hash;          /* set k's hash */
	size_t caphash;
	uint64_t *slots;         /* hash >> 32 << 32 | set + 1; 0 empty */
	size_t mask;
	size_t strbytes;
};

static uint64_t set_hash(const uint32_t *pairs, size_t n)
{
	return hash_bytes(pairs, 2 * n * sizeof(*pairs));
}

/* Put set k in the table (the slot of its hash, or the next free one). */
static void slot_put(struct labels *l, uint32_t k)
{
	uint64_t h = l->hash[k];
	size_t j;

	for (j = h & l->mask; l->slots[j]; j = (j + 1) & l->mask)
		;
	l->slots[j] = (h >> 32 << 32) | (k + 1);
}

struct labels *labels_create(void)
{
	struct labels *l = xcalloc(1, sizeof(*l));

	l->refs = 1;
	l->str = symtab_create();
	l->mask = 63;
	l->slots = xcalloc(l->mask + 1, sizeof(*l->slots));
	GROW(l->start, l->capstart, 2);
	GROW(l->hash, l->caphash, 1);
	l->start[0] = l->start[1] = 0;
	l->hash[0] = 0;          /* never looked up: labels_set(l, p, 0) is 0 */
	l->nsets = 1;
	slot_put(l, 0);
	return l;
}

void labels_destroy(struct labels *l)
{
	if (!l || --l->refs)
		return;
	symtab_destroy(l->str);
	free(l->pairs);
	free(l->start);
	free(l->hash);
	free(l->slots);
	free(l);
}

struct labels *labels_share(struct labels *l)
{
	l->refs++;
	return l;
}

uint32_t labels_str(struct labels *l, const char *s, size_t len)
{
	uint32_t n = symtab_count(l->str), id = symtab_intern(l->str, s, len);

	if (id == n)
		l->strbytes += len + 1;
	return id;
}

uint32_t labels_find_str(const struct labels *l, const char *s, size_t len)
{
	return symtab_find(l->str, s, len);
}

const char *labels_name(const struct labels *l, uint32_t id, size_t *len)
{
	*len = symtab_len(l->str, id);
	return symtab_name(l->str, id);
}

uint32_t labels_set(struct labels *l, const uint32_t *pairs, size_t n)
{
	uint64_t h, tag;
	size_t j;

	if (!n)
		return 0;
	h = set_hash(pairs, n);
	tag = h >> 32 << 32;
	for (j = h & l->mask; l->slots[j]; j = (j + 1) & l->mask) {
		uint32_t k = (uint32_t)l->slots[j] - 1;

		if ((l->slots[j] & ~(uint64_t)UINT32_MAX) == tag &&
		    l->start[k + 1] - l->start[k] == 2 * n &&
		    !memcmp(l->pairs + l->start[k], pairs,
			    2 * n * sizeof(*pairs)))
			return k;
	}
	if (l->nsets >= UINT32_MAX - 1)
		return 0;       /* never with memory to hold them */
	GROW(l->pairs, l->cappairs, l->npairs + 2 * n);
	memcpy(l->pairs + l->npairs, pairs, 2 * n * sizeof(*pairs));
	l->npairs += 2 * n;
	GROW(l->start, l->capstart, l->nsets + 2);
	GROW(l->hash, l->caphash, l->nsets + 1);
	l->hash[l->nsets] = h;
	l->start[++l->nsets] = l->npairs;
	if (l->nsets * 2 > l->mask) {
		l->mask = l->mask * 2 + 1;
		free(l->slots);
		l->slots = xcalloc(l->mask + 1, sizeof(*l->slots));
		for (uint32_t k = 0; k < l->nsets; k++)
			slot_put(l, k);
	} else {
		l->slots[j] = tag | l->nsets;
	}
	return (uint32_t)l->nsets - 1;
}

size_t labels_count(const struct labels *l)
{
	return l->nsets;
}

const uint32_t *labels_pairs(const struct labels *l, uint32_t set, size_t *n)
{
	*n = (l->start[set + 1] - l->start[set]) / 2;
	return *n ? l->pairs + l->start[set] : NULL;    /* none: no pairs yet */
}

size_t labels_bytes(const struct labels *l)
{
	return l->strbytes + l->npairs * sizeof(*l->pairs);
}

/* ---- --tag ---------------------------------------------------------------- */

bool labels_tag_parse(const char *t, bool *neg, size_t *klen, size_t *voff)
{
	const char *eq = strchr(t, '=');

	if (!eq || eq == t)
		return false;
	*neg = eq[-1] == '!';
	*klen = (size_t)(eq - t) - *neg;
	*voff = (size_t)(eq + 1 - t);
	return *klen > 0;
}

bool *labels_keep(const struct labels *l, const char *const *tags, size_t n)
{
	size_t nsets = l->nsets;
	bool *keep, *focused, *dropped, any_focus = false;
	uint32_t *key, *val;

	if (!n)
		return NULL;
	keep = xcalloc(nsets, sizeof(*keep));
	focused = xcalloc(nsets, sizeof(*focused));
	dropped = xcalloc(nsets, sizeof(*dropped));
	key = xmalloc(n * sizeof(*key));
	val = xmalloc(n * sizeof(*val));
	/* Each tag as a pair of string ids (UINT32_MAX: no label has it). */
	for (size_t t = 0; t < n; t++) {
		bool neg;
		size_t klen, voff;

		key[t] = val[t] = UINT32_MAX;
		if (!labels_tag_parse(tags[t], &neg, &klen, &voff))
			continue;
		any_focus |= !neg;
		key[t] = labels_find_str(l, tags[t], klen);
		val[t] = labels_find_str(l, tags[t] + voff, strlen(tags[t] + voff));
	}
	for (uint32_t k = 0; k < nsets; k++) {
		size_t np;
		const uint32_t *p = labels_pairs(l, k, &np);

		for (size_t i = 0; i < np; i++)
			for (size_t t = 0; t < n; t++) {
				bool neg;
				size_t klen, voff;

				if (key[t] != p[2 * i] || val[t] != p[2 * i + 1] ||
				    !labels_tag_parse(tags[t], &neg, &klen, &voff))
					continue;
				*(neg ? &dropped[k] : &focused[k]) = true;
			}
		keep[k] = (focused[k] || !any_focus) && !dropped[k];
	}
	free(focused);
	free(dropped);
	free(key);
	free(val);
	return keep;
}
