/*
 * view-labels.c - the share of a profile that carries each label
 * KEY=VALUE (the TUI's T list): the samples' weight summed per label set
 * first (sets are few, samples many), then each set's weight given to its
 * pairs.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "view.h"

/* Two byte strings of the label table, as memcmp orders them. */
static int cmp_str(const struct labels *l, uint32_t a, uint32_t b)
{
	size_t la, lb;
	const char *x = labels_name(l, a, &la);
	const char *y = labels_name(l, b, &lb);
	int c = memcmp(x, y, la < lb ? la : lb);

	return c ? c : (la > lb) - (la < lb);
}

/* Keys in byte order, a key's values heaviest first, then by name. */
static int cmp_share(const void *a, const void *b, void *l)
{
	const struct label_share *x = a, *y = b;
	int c = x->key == y->key ? 0 : cmp_str(l, x->key, y->key);

	if (c)
		return c;
	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	return x->value == y->value ? 0 : cmp_str(l, x->value, y->value);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Add w to pair (key, value) of sh[0..*n), in the hash table slot[]. */
static void add_pair(struct label_share **sh, size_t *n, size_t *cap,
		     uint32_t **slot, size_t *mask, uint32_t key,
		     uint32_t value, uint64_t w)
{
	size_t j;

	if ((*n + 1) * 2 > *mask) {
		*mask = *mask ? *mask * 2 + 1 : 255;
		free(*slot);
		*slot = xcalloc(*mask + 1, sizeof(**slot));
		for (size_t i = 0; i < *n; i++) {
			for (j = hash_u64((uint64_t)(*sh)[i].key << 32 |
					  (*sh)[i].value) & *mask;
			     (*slot)[j]; j = (j + 1) & *mask)
				;
			(*slot)[j] = (uint32_t)i + 1;
		}
	}
	for (j = hash_u64((uint64_t)key << 32 | value) & *mask; (*slot)[j];
	     j = (j + 1) & *mask) {
		struct label_share *e = &(*sh)[(*slot)[j] - 1];

		if (e->key == key && e->value == value) {
			e->weight = e->weight + w < e->weight ? UINT64_MAX
							      : e->weight + w;
			return;
		}
	}
	GROW(*sh, *cap, *n + 1);
	(*sh)[*n] = (struct label_share){ key, value, w };
	(*slot)[j] = (uint32_t)++*n;
}

struct label_share *view_label_shares(const struct profile *p, size_t *n)
{
	const struct labels *l = profile_labels(p);
	size_t nsets = labels_count(l), ntl = profile_timeline_len(p),
	       nut = profile_untimed_len(p), cap = 0, mask = 0;
	uint64_t *setw = xcalloc(nsets, sizeof(*setw)), w;
	struct label_share *sh = NULL;
	uint32_t *slot = NULL;
	uint64_t *pairs = NULL;
	size_t cappairs = 0;
	struct sample_meta m;

	*n = 0;
	for (size_t i = 0; i < ntl; i++) {
		profile_timeline_sample(p, i, &w, &m);
		if (!profile_timeline_before(p, i))
			setw[m.labels] += w;
	}
	for (size_t i = 0; i < nut; i++) {
		profile_untimed_sample(p, i, &w, &m);
		if (!profile_untimed_before(p, i))
			setw[m.labels] += w;
	}
	for (uint32_t k = 1; k < nsets; k++) {
		size_t np;
		const uint32_t *pr = labels_pairs(l, k, &np);

		if (!setw[k])
			continue;
		/* A pair twice in one set counts once: sorted, each once. */
		GROW(pairs, cappairs, np);
		for (size_t i = 0; i < np; i++)
			pairs[i] = (uint64_t)pr[2 * i] << 32 | pr[2 * i + 1];
		qsort(pairs, np, sizeof(*pairs), cmp_u64);
		for (size_t i = 0; i < np; i++)
			if (!i || pairs[i] != pairs[i - 1])
				add_pair(&sh, n, &cap, &slot, &mask,
					 (uint32_t)(pairs[i] >> 32),
					 (uint32_t)pairs[i], setw[k]);
	}
	if (*n)
		qsort_r(sh, *n, sizeof(*sh), cmp_share, (void *)l);
	free(setw);
	free(slot);
	free(pairs);
	return sh;
}
