/*
 * view-sample.c - deriving a view from the samples that carry something
 * besides their stack: the timeline's, then the untimed ones with a label
 * set.  Each sample's task, CPU, labels and time decide whether it stays
 * (keep_meta, with the stack's own test, view_keep_node), and its task or
 * labels the context it is rooted in (a group frame per process, thread or
 * label value, the command frame stripped or not).  The kept samples are mapped to view nodes one context after the
 * other (the memo of view.c holds one context at a time) and added in the
 * timeline's order, so the view keeps times, tasks and CPUs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "view-priv.h"

/* ---- Contexts ---------------------------------------------------------- */

/* The context (gsym, strip), added if new. */
uint32_t view_ctx(struct deriver *d, uint32_t gsym, bool strip)
{
	const struct view_spec *s = d->spec;
	size_t slot = (gsym == UINT32_MAX ? 0 : (size_t)gsym + 1) * 2 + strip;
	uint32_t base = NODE_ROOT;

	if (slot >= d->capctxof) {
		size_t old = d->capctxof;

		GROW(d->ctxof, d->capctxof, slot + 1);
		memset(d->ctxof + old, 0, (d->capctxof - old) * sizeof(*d->ctxof));
	}
	if (d->ctxof[slot])
		return d->ctxof[slot] - 1;
	if (gsym != UINT32_MAX && !d->chained && !s->callees)
		base = view_child(d, NODE_ROOT, OWN_SHARED, gsym);
	GROW(d->ctx, d->capctx, d->nctx + 1);
	d->ctx[d->nctx] = (struct vctx){ gsym, strip, base };
	d->ctxof[slot] = (uint32_t)d->nctx + 1;
	return (uint32_t)d->nctx++;
}

/* Is the first frame of n's stack the command frame of the sample? */
static bool is_comm_frame(const struct deriver *d, uint32_t n,
			  const struct sample_meta *m)
{
	const char *name, *comm;
	size_t len, clen;
	uint32_t y;

	if (m->comm >= d->nsym)
		return false;
	y = d->sn[d->first[n]].sym;
	name = symtab_name(d->st, y);
	len = symtab_len(d->st, y);
	comm = symtab_name(d->st, m->comm);
	clen = symtab_len(d->st, m->comm);
	return len >= clen && memcmp(name, comm, clen) == 0 &&
	       (len == clen || name[clen] == '-');
}

static uint64_t task_key(uint32_t comm, uint32_t pid, uint32_t tid)
{
	return hash_u64(((uint64_t)pid << 32 | tid) ^ hash_u64(comm));
}

static uint32_t group_sym(struct deriver *d, const struct sample_meta *m)
{
	uint32_t tid = d->spec->group == GROUP_THREAD ? m->tid : 0;
	size_t clen = symtab_len(d->st, m->comm), j, k;
	uint32_t y;

	if ((d->gn + 1) * 2 > d->gmask) {
		size_t nmask = d->gmask ? d->gmask * 2 + 1 : 255;
		struct gslot *ns = xcalloc(nmask + 1, sizeof(*ns));

		for (size_t i = 0; d->gs && i <= d->gmask; i++) {
			const struct gslot *e = &d->gs[i];

			if (!e->gsym)
				continue;
			for (j = task_key(e->comm, e->pid, e->tid) & nmask;
			     ns[j].gsym; j = (j + 1) & nmask)
				;
			ns[j] = *e;
		}
		free(d->gs);
		d->gs = ns;
		d->gmask = nmask;
	}
	for (j = task_key(m->comm, m->pid, tid) & d->gmask; d->gs[j].gsym;
	     j = (j + 1) & d->gmask)
		if (d->gs[j].comm == m->comm && d->gs[j].pid == m->pid &&
		    d->gs[j].tid == tid)
			return d->gs[j].gsym - 1;
	GROW(d->buf, d->capbuf, clen + 32);
	memcpy(d->buf, symtab_name(d->st, m->comm), clen);
	k = profile_task_suffix(d->buf + clen, 32, m->pid,
				d->spec->group == GROUP_THREAD ? &m->tid : NULL);
	y = profile_intern(d->out, d->buf, clen + k);
	d->gs[j] = (struct gslot){ m->comm, m->pid, tid, y + 1 };
	d->gn++;
	return y;
}

/*
 * The group frame of label set k: "KEY=" and the set's values of KEY,
 * joined by commas in the sample's order, within the names' budget.
 */
static uint32_t label_group_sym(struct deriver *d, uint32_t k)
{
	const struct labels *l = profile_labels(d->src);
	const char *key = d->spec->label_key;
	size_t klen = strlen(key), len = klen + 1, np, nval = 0;
	const uint32_t *p = labels_pairs(l, k, &np);
	uint32_t y;

	if (d->lsgsym[k] == UINT32_MAX)
		return d->moresym;
	if (d->lsgsym[k])
		return d->lsgsym[k] - 1;
	GROW(d->buf, d->capbuf, klen + GROUP_NAME_MAX + 32);
	memcpy(d->buf, key, klen);
	d->buf[klen] = '=';
	for (size_t i = 0; i < np && d->lkey != UINT32_MAX; i++) {
		size_t vlen, room, c;
		const char *v;

		if (p[2 * i] != d->lkey)
			continue;
		if (nval++ && len <= klen + 1 + GROUP_NAME_MAX)
			d->buf[len++] = ',';
		v = labels_name(l, p[2 * i + 1], &vlen);
		room = klen + 1 + GROUP_NAME_MAX + 1 > len ?
		       klen + 1 + GROUP_NAME_MAX + 1 - len : 0;
		c = vlen < room ? vlen : room;
		memcpy(d->buf + len, v, c);
		len += c;
	}
	if (len > klen + 1 + GROUP_NAME_MAX) {
		len = klen + 1 + GROUP_NAME_MAX;
		memcpy(d->buf + len, "...", 3);
		len += 3;
	}
	y = symtab_find(profile_symtab(d->out), d->buf, len);
	if (y == UINT32_MAX && len > d->gbytes_left) {
		/* This set's samples, and every later new name's. */
		len = klen + 1;
		memcpy(d->buf + len, "[more values]", 13);
		len += 13;
		d->lsgsym[k] = UINT32_MAX;      /* counted per sample */
		d->moresym = profile_intern(d->out, d->buf, len);
		return d->moresym;
	}
	if (y == UINT32_MAX)
		d->gbytes_left -= len;
	y = profile_intern(d->out, d->buf, len);
	d->lsgsym[k] = y + 1;
	return y;
}

/* The context of a kept sample at node n (meta NULL: untimed weight). */
static uint32_t sample_ctx(struct deriver *d, uint32_t n,
			   const struct sample_meta *m)
{
	const struct view_spec *s = d->spec;
	uint32_t gsym = UINT32_MAX;
	bool strip = false;

	/* A callees view starts at the function: the root does not matter. */
	if (s->label_key && !s->callees) {
		uint32_t k = m ? m->labels : 0;

		gsym = label_group_sym(d, k);
		if (d->lsgsym[k] == UINT32_MAX)
			d->overflow++;
		return view_ctx(d, gsym, false);
	}
	if (!m || s->group == GROUP_ASREAD || !m->has_task ||
	    m->comm >= d->nsym || s->callees)
		return 0;
	strip = is_comm_frame(d, n, m);
	if (s->group != GROUP_MERGED)
		gsym = group_sym(d, m);
	return view_ctx(d, gsym, strip);
}

/* ---- The samples ------------------------------------------------------- */

static bool keep_meta(const struct deriver *d, const struct sample_meta *m)
{
	const struct view_spec *s = d->spec;

	if (d->lskeep && !d->lskeep[m->labels])
		return false;
	if (s->hide_idle && m->has_task && m->pid == 0)
		return false;
	if ((s->ncomms || s->pids.n || s->tids.n) && !m->has_task)
		return false;
	if (s->cpus.n && !m->has_cpu)
		return false;
	if (s->ncomms && (m->comm >= d->nsym || !d->commok[m->comm]))
		return false;
	if (s->pids.n && !view_list_has(&s->pids, m->pid))
		return false;
	if (s->tids.n && !view_list_has(&s->tids, m->tid))
		return false;
	return !s->cpus.n || view_list_has(&s->cpus, m->cpu);
}

/*
 * The samples one by one: the timeline's (i < ntl), then the untimed ones
 * that carry labels.  The i-th's node, weight, meta and column.
 */
static uint32_t sample_at(const struct profile *src, size_t ntl, size_t i,
			  uint64_t *w, struct sample_meta *m, bool *before)
{
	bool diff = profile_is_differential(src);

	if (i < ntl) {
		*before = diff && profile_timeline_before(src, i);
		return profile_timeline_sample(src, i, w, m);
	}
	*before = diff && profile_untimed_before(src, i - ntl);
	return profile_untimed_sample(src, i - ntl, w, m);
}

/* Weight of node n that no sample of the walk holds (intl: their weight,
 * AFTER's then BEFORE's column on a diff). */
static bool untimed_rest(const struct profile *src, const uint64_t *intl,
			 size_t nn, uint32_t n, bool diff)
{
	return profile_self_all(src, n) > intl[n] ||
	       (diff && profile_self2(src, n) > intl[nn + n]);
}

/*
 * The samples: keep or drop each (pass 1), map the kept ones to view nodes
 * one context after the other (pass 2), then add them in their order
 * (pass 3), and the weight no sample holds: it has no time, task, CPU or
 * label (its label set is the empty one).
 */
void view_walk_timeline(struct deriver *d, bool ranged, uint64_t rf,
			uint64_t rl)
{
	const struct profile *src = d->src;
	const struct view_spec *s = d->spec;
	size_t nn = profile_node_count(src), ntl = profile_timeline_len(src);
	size_t ns = ntl + profile_untimed_len(src);
	size_t nrest = 0, *cnt, *order;
	uint32_t *sctx = xmalloc((ns ? ns : 1) * sizeof(*sctx));
	uint32_t *onode = xmalloc((ns ? ns : 1) * sizeof(*onode));
	uint32_t *rest = NULL, *restnode = NULL, restctx = 0;
	uint64_t *intl = NULL, w, tw[2] = { 0, 0 };
	bool diff = profile_is_differential(src), before;

	for (size_t i = 0; i < ns; i++) {
		struct sample_meta m;
		uint32_t n = sample_at(src, ntl, i, &w, &m, &before);

		tw[before] += w;
		sctx[i] = UINT32_MAX;
		onode[i] = n;
		if (ranged && (!m.has_time || m.time_ns < rf || m.time_ns > rl))
			continue;
		if (!keep_meta(d, &m) || !view_keep_node(d, n, m.has_task))
			continue;
		sctx[i] = sample_ctx(d, n, &m);
	}
	/*
	 * The rest (and what live mode forgot): as it was, unlabelled.  There
	 * is none when the samples hold all the weight (the root's total).
	 */
	if (!ranged && !(s->ncomms || s->pids.n || s->tids.n || s->cpus.n) &&
	    (!d->lskeep || d->lskeep[0]) &&
	    (tw[0] != profile_total(src, NODE_ROOT) ||
	     tw[1] != profile_total2(src, NODE_ROOT))) {
		size_t cap = 0;

		intl = xcalloc(diff ? 2 * nn : nn, sizeof(*intl));
		for (size_t i = 0; i < ns; i++) {
			uint32_t n = sample_at(src, ntl, i, &w, NULL, &before);

			intl[before ? nn + n : n] += w;
		}
		for (uint32_t n = 1; n < nn; n++)
			if (untimed_rest(src, intl, nn, n, diff) &&
			    view_keep_node(d, n, false)) {
				GROW(rest, cap, nrest + 1);
				rest[nrest++] = n;
			}
		restnode = xmalloc((nrest ? nrest : 1) * sizeof(*restnode));
		if (nrest)
			restctx = sample_ctx(d, rest[0], NULL);
	}
	/* Pass 2: the samples of each context together (counting sort). */
	cnt = xcalloc(d->nctx + 1, sizeof(*cnt));
	order = xmalloc((ns ? ns : 1) * sizeof(*order));
	for (size_t i = 0; i < ns; i++)
		if (sctx[i] != UINT32_MAX)
			cnt[sctx[i] + 1]++;
	for (size_t c = 1; c <= d->nctx; c++)
		cnt[c] += cnt[c - 1];
	for (size_t i = 0; i < ns; i++)
		if (sctx[i] != UINT32_MAX)
			order[cnt[sctx[i]]++] = i;
	/* cnt[c] is now the end of context c's run. */
	for (size_t j = 0, c = 0; c < d->nctx; c++) {
		for (; j < cnt[c]; j++) {
			size_t i = order[j];

			onode[i] = view_node(d, onode[i], (uint32_t)c);
		}
		if (c == restctx)
			for (size_t r = 0; r < nrest; r++)
				restnode[r] = view_node(d, rest[r], restctx);
	}
	if (d->chained) {
		view_chains(d);
		for (size_t i = 0; i < ns; i++)
			if (sctx[i] != UINT32_MAX)
				onode[i] = d->keys[onode[i]].out;
		for (size_t r = 0; r < nrest; r++)
			restnode[r] = d->keys[restnode[r]].out;
	}
	/* Pass 3: in the samples' order. */
	for (size_t i = 0; i < ns; i++) {
		struct sample_meta m;

		if (sctx[i] == UINT32_MAX)
			continue;
		sample_at(src, ntl, i, &w, &m, &before);
		/* The command by the view's own name for it. */
		if (m.has_task && m.comm < d->nsym)
			m.comm = view_sym(d, m.comm);
		view_add_at(d, onode[i], before ? 0 : w, before ? w : 0, &m);
	}
	for (size_t r = 0; r < nrest; r++) {
		uint64_t a = profile_self_all(src, rest[r]);
		uint64_t b = diff ? profile_self2(src, rest[r]) : 0;

		a = a > intl[rest[r]] ? a - intl[rest[r]] : 0;
		b = diff && b > intl[nn + rest[r]] ? b - intl[nn + rest[r]] : 0;
		view_add_at(d, restnode[r], a, b, NULL);
	}
	free(cnt);
	free(order);
	free(sctx);
	free(onode);
	free(rest);
	free(restnode);
	free(intl);
}
