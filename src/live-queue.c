/*
 * live-queue.c - what the live session keeps between records: sets of
 * u32 keys (threads whose name is known, pids whose maps were read, the
 * target's tasks, --off-cpu's threads) and the queue of stacks that waits
 * for the next refresh.  It calls no other part of the session, so the
 * parts that fill the queue (live.c, live-offcpu.c) sit above it, and
 * live.c, which hands records to live-offcpu.c, above them both.
 */
#include "live.h"

#include <stdlib.h>
#include <string.h>

#include "live-priv.h"
#include "profile-addr.h"
#include "util.h"

static size_t set_slot(const struct u32set *s, uint32_t key)
{
	return (size_t)hash_u64(key) & s->mask;
}

static void set_grow(struct u32set *s)
{
	struct u32set o = *s;

	s->mask = o.mask ? o.mask * 2 + 1 : 63;
	s->k = xcalloc(s->mask + 1, sizeof(*s->k));
	s->v = xcalloc(s->mask + 1, sizeof(*s->v));
	s->n = 0;
	for (size_t i = 0; o.k && i <= o.mask; i++)
		if (o.k[i]) {
			size_t j = set_slot(s, o.k[i] - 1);

			while (s->k[j])
				j = (j + 1) & s->mask;
			s->k[j] = o.k[i];
			s->v[j] = o.v[i];
			s->n++;
		}
	free(o.k);
	free(o.v);
}

uint64_t *live_set_find(const struct u32set *s, uint32_t key)
{
	size_t j;

	if (!s->k)
		return NULL;
	for (j = set_slot(s, key); s->k[j]; j = (j + 1) & s->mask)
		if (s->k[j] == key + 1)
			return &s->v[j];
	return NULL;
}

/* Add key (value 0 if new); returns its value slot. */
uint64_t *live_set_add(struct u32set *s, uint32_t key)
{
	uint64_t *v = live_set_find(s, key);
	size_t j;

	if (v)
		return v;
	if ((s->n + 1) * 2 > s->mask)
		set_grow(s);
	for (j = set_slot(s, key); s->k[j]; j = (j + 1) & s->mask)
		;
	s->k[j] = key + 1;
	s->v[j] = 0;
	s->n++;
	return &s->v[j];
}

void live_set_del(struct u32set *s, uint32_t key)
{
	size_t i, j;

	if (!s->k)
		return;
	for (i = set_slot(s, key); s->k[i]; i = (i + 1) & s->mask)
		if (s->k[i] == key + 1)
			break;
	if (!s->k[i])
		return;
	s->k[i] = 0;
	s->n--;
	/* Shift back the entries that probed past the hole. */
	for (j = (i + 1) & s->mask; s->k[j]; j = (j + 1) & s->mask) {
		size_t want = set_slot(s, s->k[j] - 1);

		if ((j > i && (want <= i || want > j)) ||
		    (j < i && (want <= i && want > j))) {
			s->k[i] = s->k[j];
			s->v[i] = s->v[j];
			s->k[j] = 0;
			i = j;
		}
	}
}

void live_set_free(struct u32set *s)
{
	free(s->k);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/*
 * A queued sample: PEND_HDR words (depth, time, weight, task, its stack
 * in the address tables), then ids.
 */
#define PEND_HDR 11

void live_pend_push(struct live *L, const uint32_t *ids, size_t n,
		    const struct sample_meta *m, uint64_t w, uint32_t astack)
{
	uint32_t *e;

	GROW(L->pend, L->cappend, L->npend + PEND_HDR + n);
	e = L->pend + L->npend;
	e[0] = (uint32_t)n;
	e[1] = (uint32_t)m->time_ns;
	e[2] = (uint32_t)(m->time_ns >> 32);
	e[3] = (uint32_t)w;
	e[4] = (uint32_t)(w >> 32);
	e[5] = m->pid;
	e[6] = m->tid;
	e[7] = m->cpu;
	e[8] = m->comm;
	e[9] = (uint32_t)m->has_task | (uint32_t)m->has_cpu << 1;
	e[10] = astack;
	memcpy(e + PEND_HDR, ids, n * sizeof(*ids));
	L->npend += PEND_HDR + n;
	L->pend_samples++;
}

/* Move the queued stacks into the profile, and their addresses' weights. */
void live_flush(struct live *L)
{
	struct paddr *pa = profile_paddr(L->p, false);
	size_t i = 0;

	while (i < L->npend) {
		const uint32_t *e = L->pend + i;
		struct weight w = { 0, 0, 0 };
		struct sample_meta meta = { 0 };

		meta.time_ns = (uint64_t)e[1] | (uint64_t)e[2] << 32;
		meta.has_time = true;
		meta.pid = e[5];
		meta.tid = e[6];
		meta.cpu = e[7];
		meta.comm = e[8];
		meta.has_task = e[9] & 1;
		meta.has_cpu = e[9] >> 1 & 1;
		w.v = (uint64_t)e[3] | (uint64_t)e[4] << 32;
		if (profile_add_stack(L->p, e + PEND_HDR, e[0], &w, &meta) ==
		    ADD_OK && pa)
			paddr_add_timed(pa, e[10], w.v, meta.time_ns);
		i += PEND_HDR + e[0];
	}
	L->npend = 0;
	L->pend_samples = 0;
}
