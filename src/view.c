/*
 * view.c - derived views (the top table is view-top.c).
 *
 * A derived view is built by walking the source's stacks once: the
 * timeline's samples when the source has one (so the view keeps times,
 * tasks and CPUs, and per-sample filters can apply), else every node with
 * self weight.  Each stack is turned into the view's stack and added to a
 * new profile through the sink.
 *
 * The per-stack decisions are made per node, in one forward pass over the
 * source's node array (a parent's id is smaller than its children's):
 * whether the path to the node holds an include or an exclude match, and
 * the outermost occurrence of the callers/callees function on it (its
 * "anchor").  The regexes match each distinct symbol once.
 *
 * Building the view's path for each stack frame by frame would cost the
 * sum of all stack depths in hash lookups.  Without inversion a node's view
 * path is its parent's view path plus at most one frame, so the view node
 * of each source node is memoized per context (the group root a sample
 * goes under, its command frame stripped or not; the samples of one
 * context are mapped together) and each source node costs at most one new
 * child.  That child needs no lookup either while its view parent gets
 * children from one source node only (ob_child).  Inverted and callers
 * stacks share suffixes, not prefixes: their distinct sequences are sorted
 * by name and the tree is built from them in order, each sharing a prefix
 * with the one before (build_chains).  Either way the view's tree is built
 * with profile_append_child, without the profile's child index.
 */
#include "view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "util.h"

/* ---- Lists ------------------------------------------------------------ */

static const char *parse_u32(const char *s, uint32_t *v)
{
	uint64_t x = 0;

	if (*s < '0' || *s > '9')
		return NULL;
	for (; *s >= '0' && *s <= '9'; s++) {
		x = x * 10 + (uint64_t)(*s - '0');
		if (x > UINT32_MAX)
			return NULL;
	}
	*v = (uint32_t)x;
	return s;
}

int view_list_parse(struct view_list *l, const char *s, char *err,
		    size_t errcap)
{
	const char *p = s;

	for (;;) {
		uint32_t lo, hi;
		const char *q = parse_u32(p, &lo);

		if (!q)
			goto bad;
		hi = lo;
		if (*q == '-') {
			q = parse_u32(q + 1, &hi);
			if (!q || hi < lo)
				goto bad;
		}
		l->lo = xreallocarray(l->lo, l->n + 1, sizeof(*l->lo));
		l->hi = xreallocarray(l->hi, l->n + 1, sizeof(*l->hi));
		l->lo[l->n] = lo;
		l->hi[l->n++] = hi;
		if (!*q)
			return 0;
		if (*q != ',')
			goto bad;
		p = q + 1;
	}
bad:
	snprintf(err, errcap, "bad list '%s' (numbers and ranges: 0-3,5)", s);
	return -1;
}

bool view_list_has(const struct view_list *l, uint32_t v)
{
	for (size_t i = 0; i < l->n; i++)
		if (v >= l->lo[i] && v <= l->hi[i])
			return true;
	return false;
}

void view_list_free(struct view_list *l)
{
	free(l->lo);
	free(l->hi);
	memset(l, 0, sizeof(*l));
}

bool view_spec_per_sample(const struct view_spec *s)
{
	return s->ncomms || s->pids.n || s->tids.n || s->cpus.n ||
	       s->group != GROUP_ASREAD;
}

bool view_spec_active(const struct view_spec *s)
{
	return s->ninclude || s->nexclude || s->callers || s->callees ||
	       s->fold_recursion || s->invert || s->has_range ||
	       s->hide_idle || view_spec_per_sample(s);
}

/* ---- Deriving --------------------------------------------------------- */

#define F_INC 1u
#define F_EXC 2u
#define F_IDLE 4u

/* The idle task's frames, for samples whose task is not known. */
#define IDLE_RE "^swapper|idle|^cpu_startup_entry$"

/* Who appends children to a view node (see ob_child). */
#define OWN_NONE UINT64_MAX
#define OWN_SHARED (UINT64_MAX - 1)

/* A child of a shared view node, by (parent, symbol). */
struct oslot {
	uint32_t parent, sym;
	uint32_t node;       /* view node + 1; 0 empty */
};

/*
 * A context: how a sample's stack is rooted (under a group frame or not;
 * its command frame stripped or not).  Samples of one context map source
 * nodes to view nodes alike.
 */
struct vctx {
	uint32_t gsym;       /* view symbol of the group frame, or UINT32_MAX */
	bool strip;
	uint32_t base;       /* view node the stacks start from */
};

/* A distinct view sequence of an inverted or callers view. */
struct seqkey {
	size_t off;          /* in the pool */
	uint32_t len;
	uint32_t out;        /* its view node, once built */
};

/* A source node's view node in context stamp - 1 (stamp 0: none yet). */
struct memo {
	uint32_t stamp;
	uint32_t node;
};

/* A task's group frame, by (comm, pid, tid). */
struct gslot {
	uint32_t comm, pid, tid;
	uint32_t gsym;       /* + 1; 0 empty */
};

struct deriver {
	const struct profile *src;
	const struct view_spec *spec;
	struct profile *out;
	const struct symtab *st;
	const struct pnode *sn;   /* the source's node array */
	size_t nsym;

	unsigned char *symflag;   /* per source symbol: F_INC, F_EXC */
	uint32_t *symmap;         /* source symbol -> view symbol */
	unsigned char *commok;    /* per source symbol: a --comm name */
	uint32_t focus;           /* source symbol of callers/callees */

	unsigned char *flags;     /* per node: the path's F_INC, F_EXC */
	uint32_t *anchor;         /* per node: outermost focus on the path */
	uint32_t *first;          /* per node: its stack's first frame */
	struct memo *memo;        /* per node: its view node, in one context */

	uint64_t *owner;          /* per view node: who adds its children */
	size_t capo;
	struct oslot *hs;         /* children of shared view nodes */
	size_t hmask, hn;

	struct vctx *ctx;
	size_t nctx, capctx;
	uint32_t *ctxof;          /* (gsym + 1) * 2 + strip -> context + 1 */
	size_t capctxof;
	struct gslot *gs;         /* group frames of the tasks seen */
	size_t gmask, gn;

	bool chained;             /* inverted or callers: see build_chains */
	uint32_t *pool;           /* their view sequences, one after the other */
	size_t npool, cappool, maxseq;
	struct seqkey *keys;
	size_t nkeys, capkeys;
	uint32_t *rank;           /* per view symbol: its place in name order */

	uint32_t *path;           /* scratch: source nodes or view symbols */
	size_t cappath;
	uint32_t *seq;
	size_t capseq;
	char *buf;
	size_t capbuf;
};

static uint32_t vsym_new(struct deriver *d, uint32_t s)
{
	d->symmap[s] = profile_intern(d->out, symtab_name(d->st, s),
				      symtab_len(d->st, s));
	return d->symmap[s];
}

/* The view's symbol for source symbol s (once per node: inline). */
static inline uint32_t vsym(struct deriver *d, uint32_t s)
{
	uint32_t y = d->symmap[s];

	return y != UINT32_MAX ? y : vsym_new(d, s);
}

/* ---- The view's tree ---- */

static void hs_put(struct deriver *d, uint32_t parent, uint32_t sym,
		   uint32_t node)
{
	size_t j;

	if ((d->hn + 1) * 10 > d->hmask * 7) {
		size_t nmask = d->hmask ? d->hmask * 2 + 1 : 1023;
		struct oslot *ns = xcalloc(nmask + 1, sizeof(*ns));

		for (size_t i = 0; d->hs && i <= d->hmask; i++) {
			const struct oslot *e = &d->hs[i];

			if (!e->node)
				continue;
			for (j = hash_u64((uint64_t)e->parent << 32 | e->sym) & nmask;
			     ns[j].node; j = (j + 1) & nmask)
				;
			ns[j] = *e;
		}
		free(d->hs);
		d->hs = ns;
		d->hmask = nmask;
	}
	for (j = hash_u64((uint64_t)parent << 32 | sym) & d->hmask; d->hs[j].node;
	     j = (j + 1) & d->hmask)
		;
	d->hs[j] = (struct oslot){ parent, sym, node + 1 };
	d->hn++;
}

static uint32_t hs_get(const struct deriver *d, uint32_t parent, uint32_t sym)
{
	if (!d->hs)
		return NODE_NONE;
	for (size_t j = hash_u64((uint64_t)parent << 32 | sym) & d->hmask;
	     d->hs[j].node; j = (j + 1) & d->hmask)
		if (d->hs[j].parent == parent && d->hs[j].sym == sym)
			return d->hs[j].node - 1;
	return NODE_NONE;
}

/*
 * A new child of view node o, linked first: the samples come in no
 * particular order, so profile_finish sorts the siblings anyway.
 */
static uint32_t ob_new(struct deriver *d, uint32_t o, uint32_t sym)
{
	uint32_t id = profile_push_child(d->out, o, sym);

	if (id >= d->capo) {
		size_t cap = d->capo * 2 > id ? d->capo * 2 : (size_t)id + 1;

		d->owner = xreallocarray(d->owner, cap, sizeof(*d->owner));
		d->capo = cap;
	}
	d->owner[id] = OWN_NONE;
	if (d->owner[o] == OWN_SHARED)
		hs_put(d, o, sym, id);
	return id;
}

/*
 * The child of view node o named sym (view symbol), created if new.  key
 * says where the request comes from: (context, source node) when the child
 * stands for a child of that source node, OWN_SHARED when not known.  A
 * view node whose children all come from one key needs no lookup: a source
 * node's children have distinct names and each is mapped once per context.
 * Only a node that gets children from two keys (recursion folded, callees
 * from several places, a command frame stripped, groups) indexes its
 * children in a hash.
 */
static uint32_t ob_child(struct deriver *d, uint32_t o, uint64_t key,
			 uint32_t sym)
{
	uint64_t own = d->owner[o];
	uint32_t c;

	if (key != OWN_SHARED && (own == key || own == OWN_NONE)) {
		d->owner[o] = key;
		return ob_new(d, o, sym);
	}
	if (own != OWN_SHARED) {
		d->owner[o] = OWN_SHARED;
		for (c = profile_node(d->out, o)->child; c != NODE_NONE;
		     c = profile_node(d->out, c)->next)
			hs_put(d, o, profile_node(d->out, c)->sym, c);
	}
	c = hs_get(d, o, sym);
	return c != NODE_NONE ? c : ob_new(d, o, sym);
}

/* ---- Contexts ---- */

/* The context (gsym, strip), added if new. */
static uint32_t ctx_get(struct deriver *d, uint32_t gsym, bool strip)
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
		base = ob_child(d, NODE_ROOT, OWN_SHARED, gsym);
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
	size_t clen = symtab_len(d->st, m->comm), j;
	uint32_t y;
	int k;

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
	if (d->spec->group == GROUP_THREAD)
		k = snprintf(d->buf + clen, 32, "-%u/%u", m->pid, m->tid);
	else
		k = snprintf(d->buf + clen, 32, "-%u", m->pid);
	y = profile_intern(d->out, d->buf, clen + (size_t)k);
	d->gs[j] = (struct gslot){ m->comm, m->pid, tid, y + 1 };
	d->gn++;
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
	if (!m || s->group == GROUP_ASREAD || !m->has_task ||
	    m->comm >= d->nsym || s->callees)
		return 0;
	strip = is_comm_frame(d, n, m);
	if (s->group != GROUP_MERGED)
		gsym = group_sym(d, m);
	return ctx_get(d, gsym, strip);
}

/* ---- Paths ---- */

static void seq_push(struct deriver *d, size_t *n, uint32_t s, bool fold)
{
	if (fold && *n && d->seq[*n - 1] == s)
		return;
	if (*n == d->capseq)
		GROW(d->seq, d->capseq, *n + 1);
	d->seq[(*n)++] = s;
}

static void path_push(struct deriver *d, size_t *np, uint32_t x)
{
	if (*np == d->cappath)
		GROW(d->path, d->cappath, *np + 1);
	d->path[(*np)++] = x;
}

/*
 * The view's stack of node n, root first, as view symbols into d->seq:
 * the group frame (gsym, or UINT32_MAX) replacing the first frame when
 * strip, then callers/callees, folded recursion.  Returns its length.
 */
static size_t build_seq(struct deriver *d, uint32_t n, uint32_t gsym,
			bool strip)
{
	const struct view_spec *s = d->spec;
	const struct pnode *sn = d->sn;
	bool fold = s->fold_recursion;
	size_t k = 0, np = 0;
	uint32_t stop = NODE_ROOT;

	if (s->callees)
		stop = sn[d->anchor[n]].parent;
	else if (s->callers)
		n = d->anchor[n];
	for (uint32_t x = n; x != stop && x != NODE_ROOT; x = sn[x].parent)
		path_push(d, &np, x);
	/* path: n up to the first frame (or the anchor, for callees). */
	if (strip && !s->callees && np &&
	    sn[d->path[np - 1]].parent == NODE_ROOT)
		np--;
	if (s->callers) {
		for (size_t i = 0; i < np; i++)
			seq_push(d, &k, vsym(d, sn[d->path[i]].sym), fold);
		if (gsym != UINT32_MAX)
			seq_push(d, &k, gsym, fold);
	} else {
		if (gsym != UINT32_MAX && !s->callees)
			seq_push(d, &k, gsym, fold);
		for (size_t i = np; i-- > 0;)
			seq_push(d, &k, vsym(d, sn[d->path[i]].sym), fold);
	}
	if (s->invert)
		for (size_t i = 0; i < k / 2; i++) {
			uint32_t t = d->seq[i];

			d->seq[i] = d->seq[k - 1 - i];
			d->seq[k - 1 - i] = t;
		}
	return k;
}

/* ---- Inverted and callers views ---- */

/*
 * Their stacks share suffixes of the source's, not prefixes: each distinct
 * stack's view sequence is built whole into a pool, the sequences are
 * sorted by name, and the tree is built from them in that order.  A
 * sequence shares a prefix with the one before it and only its rest is
 * new, appended as the last children: no lookups, and siblings come out
 * in name order.
 */
/* A new key: the k view symbols at the pool's end. */
static uint32_t add_key(struct deriver *d, size_t k)
{
	GROW(d->keys, d->capkeys, d->nkeys + 1);
	d->keys[d->nkeys] = (struct seqkey){ d->npool, (uint32_t)k, NODE_ROOT };
	d->npool += k;
	if (k > d->maxseq)
		d->maxseq = k;
	return (uint32_t)d->nkeys++;
}

/* Room for k more symbols in the pool (a mapping: grown, never copied). */
static void pool_room(struct deriver *d, size_t k)
{
	size_t cap = d->cappool ? d->cappool : 1u << 16;

	if (d->npool + k <= d->cappool)
		return;
	while (cap < d->npool + k)
		cap *= 2;
	ARR_GROW(d->pool, d->cappool, cap);
	d->cappool = cap;
}

/* The key of the sequence in d->seq. */
static uint32_t chain_key(struct deriver *d, size_t k)
{
	if (k) {        /* empty: nothing left of the stack */
		pool_room(d, k);
		memcpy(d->pool + d->npool, d->seq, k * sizeof(*d->seq));
	}
	return add_key(d, k);
}

/*
 * The same for a plain inverted stack (folded or not), written straight
 * into the pool leaf first: most of an inverted view's time.
 */
static uint32_t invert_key(struct deriver *d, uint32_t n)
{
	const struct pnode *sn = d->sn;
	size_t k = 0, depth = profile_depth(d->src, n);
	bool fold = d->spec->fold_recursion;
	uint32_t *q;

	pool_room(d, depth);
	q = d->pool + d->npool;
	for (uint32_t x = n; x != NODE_ROOT; x = sn[x].parent) {
		uint32_t y = vsym(d, sn[x].sym);

		if (!fold || !k || q[k - 1] != y)
			q[k++] = y;
	}
	return add_key(d, k);
}

/* Two sequences of name ranks, in name order (a prefix first). */
static int cmp_seq(const void *a, const void *b, void *arg)
{
	const struct deriver *d = arg;
	const struct seqkey *x = &d->keys[*(const uint32_t *)a];
	const struct seqkey *y = &d->keys[*(const uint32_t *)b];
	const uint32_t *p = d->pool + x->off, *q = d->pool + y->off;
	uint32_t n = x->len < y->len ? x->len : y->len;

	for (uint32_t i = 0; i < n; i++)
		if (p[i] != q[i])
			return p[i] < q[i] ? -1 : 1;
	return (x->len > y->len) - (x->len < y->len);
}

/*
 * The keys' indexes in name order of their sequences (d->pool in ranks):
 * a counting sort by the first frame's rank (an empty sequence first),
 * then each run of keys with the same first frame sorted whole.  An
 * inverted view's first frames are the leaves, mostly distinct: the runs
 * are short.
 */
static uint32_t *sort_keys(struct deriver *d, uint32_t nos)
{
	size_t *cnt = xcalloc((size_t)nos + 2, sizeof(*cnt));
	uint32_t *idx = xmalloc((d->nkeys ? d->nkeys : 1) * sizeof(*idx));

	for (size_t i = 0; i < d->nkeys; i++) {
		const struct seqkey *k = &d->keys[i];

		cnt[(k->len ? (size_t)d->pool[k->off] + 1 : 0) + 1]++;
	}
	for (size_t b = 1; b <= (size_t)nos + 1; b++)
		cnt[b] += cnt[b - 1];
	for (size_t i = 0; i < d->nkeys; i++) {
		const struct seqkey *k = &d->keys[i];

		idx[cnt[k->len ? (size_t)d->pool[k->off] + 1 : 0]++] = (uint32_t)i;
	}
	/* cnt[b] is now the end of bucket b's run. */
	for (size_t b = 0, start = 0; b <= nos; start = cnt[b++])
		if (cnt[b] - start > 1)
			qsort_r(idx + start, cnt[b] - start, sizeof(*idx), cmp_seq, d);
	free(cnt);
	return idx;
}

/* Build the view's tree from the sequences; each key gets its node. */
static void build_chains(struct deriver *d)
{
	uint32_t nos = symtab_count(profile_symtab(d->out)), *idx, *path, *bysym;
	uint32_t *seg;
	const uint32_t *prev = NULL;
	size_t plen = 0;

	d->rank = profile_name_ranks(d->out);
	bysym = xmalloc(nos * sizeof(*bysym));    /* rank -> view symbol */
	for (uint32_t i = 0; i < nos; i++)
		bysym[d->rank[i]] = i;
	/* The sequences in ranks: compared as integers. */
	for (size_t i = 0; i < d->npool; i++)
		d->pool[i] = d->rank[d->pool[i]];
	idx = sort_keys(d, nos);
	/* At most one node per frame of the pool. */
	profile_reserve_nodes(d->out, d->npool);
	path = xmalloc((d->maxseq + 1) * sizeof(*path));
	seg = xmalloc((d->maxseq + 1) * sizeof(*seg));
	path[0] = NODE_ROOT;
	for (size_t i = 0; i < d->nkeys; i++) {
		struct seqkey *k = &d->keys[idx[i]];
		const uint32_t *q = d->pool + k->off;
		size_t l = 0;

		uint32_t id;

		while (prev && l < k->len && l < plen && prev[l] == q[l])
			l++;
		/*
		 * The rest is one new chain under path[l], whose last child so
		 * far is the previous one's; the sequences come in name order,
		 * so the siblings do.
		 */
		for (size_t j = l; j < k->len; j++)
			seg[j - l] = bysym[q[j]];
		id = profile_append_chain(d->out, path[l],
					  plen > l ? path[l + 1] : NODE_NONE,
					  seg, k->len - l);
		for (size_t j = l; j < k->len; j++)
			path[j + 1] = id + (uint32_t)(j - l);
		k->out = path[k->len];
		prev = q;
		plen = k->len;
	}
	free(path);
	free(seg);
	free(idx);
	free(bysym);
}

/*
 * The view node of source node n in context c, for views that are not
 * inverted and not callers: the path of n is its parent's plus n, unless n
 * is the stripped first frame or repeats its parent (folded).  Every node
 * on the way is memoized for the context.
 */
static uint32_t map_down(struct deriver *d, uint32_t c, uint32_t n)
{
	const struct view_spec *s = d->spec;
	const struct pnode *sn = d->sn;
	uint32_t stamp = c + 1, o, x;
	bool strip = d->ctx[c].strip;
	size_t np = 0;

	for (x = n;; x = sn[x].parent) {
		if (x == NODE_ROOT) {
			o = d->ctx[c].base;
			break;
		}
		if (d->memo[x].stamp == stamp) {
			o = d->memo[x].node;
			break;
		}
		path_push(d, &np, x);
		if (s->callees && d->anchor[x] == x) {
			o = d->ctx[c].base;
			break;
		}
	}
	while (np--) {
		uint32_t y = d->path[np], up = sn[y].parent;
		bool first = s->callees ? d->anchor[y] == y : up == NODE_ROOT;

		if (strip && up == NODE_ROOT) {
			/* The stripped command frame maps to the base. */
		} else if (s->fold_recursion && !first &&
			   !(strip && sn[up].parent == NODE_ROOT) &&
			   sn[up].sym == sn[y].sym) {
			/* A repeat of the parent: the parent's view node. */
		} else {
			o = ob_child(d, o, (uint64_t)c << 32 | up,
				     vsym(d, sn[y].sym));
		}
		d->memo[y] = (struct memo){ stamp, o };
	}
	return o;
}

/* The key of the sequence of source node n in context c, new. */
static uint32_t seq_key(struct deriver *d, uint32_t n, uint32_t c)
{
	const struct view_spec *s = d->spec;

	if (s->invert && !s->callers && !s->callees && !d->ctx[c].strip &&
	    d->ctx[c].gsym == UINT32_MAX)
		return invert_key(d, n);
	return chain_key(d, build_seq(d, n, d->ctx[c].gsym, d->ctx[c].strip));
}

/*
 * The view node of a sample at source node n in context c (inverted and
 * callers views: the index of its sequence, see build_chains).  The
 * samples of one context must be mapped together: the memo holds one
 * context at a time (see ob_child).
 */
static uint32_t view_node(struct deriver *d, uint32_t n, uint32_t c)
{
	const struct view_spec *s = d->spec;
	uint32_t k = s->callers ? d->anchor[n] : n, o;

	if (!d->chained)
		return map_down(d, c, n);
	/* Callers views depend only on the anchor. */
	if (d->memo[k].stamp == c + 1)
		return d->memo[k].node;
	o = seq_key(d, n, c);
	d->memo[k] = (struct memo){ c + 1, o };
	return o;
}

static bool keep_node(const struct deriver *d, uint32_t n, bool task_known)
{
	const struct view_spec *s = d->spec;

	if (n == NODE_ROOT)
		return false;
	if (d->flags) {
		if (s->ninclude && !(d->flags[n] & F_INC))
			return false;
		if (d->flags[n] & F_EXC)
			return false;
		if (s->hide_idle && (d->flags[n] & F_IDLE) && !task_known)
			return false;
	}
	return !(s->callers || s->callees) || d->anchor[n] != NODE_NONE;
}

static bool keep_meta(const struct deriver *d, const struct sample_meta *m)
{
	const struct view_spec *s = d->spec;

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

/* Add weight at view node o (meta NULL: untimed weight). */
static void add_at(struct deriver *d, uint32_t o, uint64_t v, uint64_t v2,
		   const struct sample_meta *m)
{
	struct weight w = { v, v2, profile_decimals(d->src) };

	if (o != NODE_ROOT)     /* else nothing is left of the stack */
		profile_add_at(d->out, o, &w, m);
}

static enum view_status compile(struct deriver *d, const char *const *res,
				size_t n, unsigned char bit, char *err,
				size_t errcap)
{
	for (size_t i = 0; i < n; i++) {
		struct search *s = search_create();
		char msg[256];

		if (search_set(s, res[i], d->spec->icase, msg, sizeof(msg)) < 0) {
			snprintf(err, errcap, "--%s '%s': %s",
				 bit == F_INC ? "include" : "exclude", res[i], msg);
			search_destroy(s);
			return VIEW_BAD_REGEX;
		}
		search_update(s, d->src);
		for (uint32_t y = 0; y < d->nsym; y++)
			if (search_sym_matches(s, y))
				d->symflag[y] |= bit;
		search_destroy(s);
	}
	return VIEW_OK;
}

static void deriver_free(struct deriver *d)
{
	free(d->symflag);
	free(d->symmap);
	free(d->commok);
	free(d->flags);
	free(d->anchor);
	free(d->first);
	free(d->memo);
	free(d->owner);
	free(d->hs);
	free(d->ctx);
	free(d->ctxof);
	free(d->gs);
	ARR_FREE(d->pool, d->cappool);
	free(d->keys);
	free(d->rank);
	free(d->path);
	free(d->seq);
	free(d->buf);
}

/*
 * The timeline's samples: keep or drop each (pass 1), map the kept ones to
 * view nodes one context after the other (pass 2), then add them in the
 * timeline's order (pass 3), and the weight the timeline does not hold.
 */
/* Weight of node n that no timed sample holds (intl: the timed weight,
 * AFTER's then BEFORE's column on a diff). */
static bool untimed_rest(const struct profile *src, const uint64_t *intl,
			 size_t nn, uint32_t n, bool diff)
{
	return profile_self_all(src, n) > intl[n] ||
	       (diff && profile_self2(src, n) > intl[nn + n]);
}

static void walk_timeline(struct deriver *d, bool ranged, uint64_t rf,
			  uint64_t rl)
{
	const struct profile *src = d->src;
	const struct view_spec *s = d->spec;
	size_t nn = profile_node_count(src), ntl = profile_timeline_len(src);
	size_t nrest = 0, *cnt, *order;
	uint32_t *sctx = xmalloc(ntl * sizeof(*sctx));
	uint32_t *onode = xmalloc(ntl * sizeof(*onode));
	uint32_t *rest = NULL, *restnode = NULL;
	uint64_t *intl = NULL, w, tw[2] = { 0, 0 };
	bool diff = profile_is_differential(src);

	for (size_t i = 0; i < ntl; i++) {
		struct sample_meta m;
		uint32_t n = profile_timeline_sample(src, i, &w, &m);

		tw[diff && profile_timeline_before(src, i)] += w;
		sctx[i] = UINT32_MAX;
		onode[i] = n;
		if (ranged && (m.time_ns < rf || m.time_ns > rl))
			continue;
		if (!keep_meta(d, &m) || !keep_node(d, n, m.has_task))
			continue;
		sctx[i] = sample_ctx(d, n, &m);
	}
	/*
	 * Untimed samples (and those live mode forgot): as they were.  There
	 * are none when the timeline holds all the weight (the root's total).
	 */
	if (!ranged && !(s->ncomms || s->pids.n || s->tids.n || s->cpus.n) &&
	    (tw[0] != profile_total(src, NODE_ROOT) ||
	     tw[1] != profile_total2(src, NODE_ROOT))) {
		size_t cap = 0;

		intl = xcalloc(diff ? 2 * nn : nn, sizeof(*intl));
		for (size_t i = 0; i < ntl; i++) {
			uint32_t n = profile_timeline_sample(src, i, &w, NULL);

			intl[diff && profile_timeline_before(src, i) ? nn + n : n] += w;
		}
		for (uint32_t n = 1; n < nn; n++)
			if (untimed_rest(src, intl, nn, n, diff) &&
			    keep_node(d, n, false)) {
				GROW(rest, cap, nrest + 1);
				rest[nrest++] = n;
			}
		restnode = xmalloc((nrest ? nrest : 1) * sizeof(*restnode));
	}
	/* Pass 2: the samples of each context together (counting sort). */
	cnt = xcalloc(d->nctx + 1, sizeof(*cnt));
	order = xmalloc((ntl ? ntl : 1) * sizeof(*order));
	for (size_t i = 0; i < ntl; i++)
		if (sctx[i] != UINT32_MAX)
			cnt[sctx[i] + 1]++;
	for (size_t c = 1; c <= d->nctx; c++)
		cnt[c] += cnt[c - 1];
	for (size_t i = 0; i < ntl; i++)
		if (sctx[i] != UINT32_MAX)
			order[cnt[sctx[i]]++] = i;
	/* cnt[c] is now the end of context c's run. */
	for (size_t j = 0, c = 0; c < d->nctx; c++) {
		for (; j < cnt[c]; j++) {
			size_t i = order[j];

			onode[i] = view_node(d, onode[i], (uint32_t)c);
		}
		if (c == 0)
			for (size_t r = 0; r < nrest; r++)
				restnode[r] = view_node(d, rest[r], 0);
	}
	if (d->chained) {
		build_chains(d);
		for (size_t i = 0; i < ntl; i++)
			if (sctx[i] != UINT32_MAX)
				onode[i] = d->keys[onode[i]].out;
		for (size_t r = 0; r < nrest; r++)
			restnode[r] = d->keys[restnode[r]].out;
	}
	/* Pass 3: in the timeline's order. */
	for (size_t i = 0; i < ntl; i++) {
		struct sample_meta m;
		bool before;

		if (sctx[i] == UINT32_MAX)
			continue;
		profile_timeline_sample(src, i, &w, &m);
		before = diff && profile_timeline_before(src, i);
		/* The command by the view's own name for it. */
		if (m.has_task && m.comm < d->nsym)
			m.comm = vsym(d, m.comm);
		add_at(d, onode[i], before ? 0 : w, before ? w : 0, &m);
	}
	for (size_t r = 0; r < nrest; r++) {
		uint64_t a = profile_self_all(src, rest[r]);
		uint64_t b = diff ? profile_self2(src, rest[r]) : 0;

		a = a > intl[rest[r]] ? a - intl[rest[r]] : 0;
		b = diff && b > intl[nn + rest[r]] ? b - intl[nn + rest[r]] : 0;
		add_at(d, restnode[r], a, b, NULL);
	}
	free(cnt);
	free(order);
	free(sctx);
	free(onode);
	free(rest);
	free(restnode);
	free(intl);
}

/* Walk the source's samples: the timeline, and weight it does not hold. */
static void walk(struct deriver *d)
{
	const struct profile *src = d->src;
	const struct view_spec *s = d->spec;
	size_t nn = profile_node_count(src), ntl = profile_timeline_len(src);
	size_t nk = 0;
	uint64_t rf = 0, rl = UINT64_MAX;
	bool ranged = profile_range(src, &rf, &rl), diff;
	uint32_t *kept, *key;

	diff = profile_is_differential(src);
	if (s->has_range) {
		if (ranged) {
			rf = s->first > rf ? s->first : rf;
			rl = s->last < rl ? s->last : rl;
		} else {
			rf = s->first;
			rl = s->last;
		}
		ranged = true;
	}
	if (ntl) {
		walk_timeline(d, ranged, rf, rl);
		return;
	}
	if (ranged || view_spec_per_sample(s))
		return;   /* no sample has a time, task or CPU */
	if (!d->chained) {
		for (uint32_t n = 1; n < nn; n++)
			if ((profile_self(src, n) || (diff && profile_self2(src, n))) &&
			    keep_node(d, n, false))
				add_at(d, view_node(d, n, 0), profile_self(src, n),
				       diff ? profile_self2(src, n) : 0, NULL);
		return;
	}
	/* The sequences first (each kept node's key), then the tree, then
	 * the weights. */
	kept = xmalloc(nn * sizeof(*kept));
	key = xmalloc(nn * sizeof(*key));
	for (uint32_t n = 1; n < nn; n++)
		if ((profile_self(src, n) || (diff && profile_self2(src, n))) &&
		    keep_node(d, n, false)) {
			kept[nk] = n;
			/* Each node once: only callers share (anchors). */
			key[nk++] = s->callers ? view_node(d, n, 0)
					       : seq_key(d, n, 0);
		}
	build_chains(d);
	for (size_t i = 0; i < nk; i++)
		add_at(d, d->keys[key[i]].out, profile_self(src, kept[i]),
		       diff ? profile_self2(src, kept[i]) : 0, NULL);
	free(kept);
	free(key);
}

enum view_status view_derive(const struct profile *src,
			     const struct view_spec *spec,
			     struct profile **out, char *err, size_t errcap)
{
	struct deriver d;
	size_t nn = profile_node_count(src);
	const struct pnode *sn;
	enum view_status rc;

	*out = NULL;
	if (errcap)
		*err = 0;
	memset(&d, 0, sizeof(d));
	d.src = src;
	d.spec = spec;
	d.st = profile_symtab(src);
	d.sn = sn = profile_node(src, NODE_ROOT);
	d.nsym = symtab_count(d.st);
	d.symflag = xcalloc(d.nsym ? d.nsym : 1, 1);
	d.focus = UINT32_MAX;
	d.chained = spec->invert || spec->callers;
	if ((rc = compile(&d, spec->include, spec->ninclude, F_INC, err,
			  errcap)) ||
	    (rc = compile(&d, spec->exclude, spec->nexclude, F_EXC, err,
			  errcap))) {
		deriver_free(&d);
		return rc;
	}
	if (spec->hide_idle) {
		static const char *const idle[] = { IDLE_RE };

		compile(&d, idle, 1, F_IDLE, err, errcap);
	}
	if (spec->callers || spec->callees) {
		const char *name = spec->callers ? spec->callers : spec->callees;
		bool found = false;

		d.focus = symtab_find(d.st, name, strlen(name));
		for (uint32_t n = 1; d.focus != UINT32_MAX && n < nn && !found;
		     n++)
			found = sn[n].sym == d.focus &&
				(profile_total(src, n) > 0 ||
				 profile_total2(src, n) > 0);
		if (!found) {
			snprintf(err, errcap, "no stack contains %s", name);
			deriver_free(&d);
			return VIEW_NO_NAME;
		}
	}
	if (spec->ncomms) {
		d.commok = xcalloc(d.nsym ? d.nsym : 1, 1);
		for (size_t i = 0; i < spec->ncomms; i++) {
			/* Commands are kept as their root frames spell them. */
			char *c = xstrdup(spec->comms[i]);
			uint32_t y;

			for (char *q = c; *q; q++)
				if (*q == ' ')
					*q = '_';
			y = symtab_find(d.st, c, strlen(c));
			if (y != UINT32_MAX)
				d.commok[y] = 1;
			free(c);
		}
	}
	/* Per-node arrays only for the views that read them. */
	if (spec->ninclude || spec->nexclude || spec->hide_idle) {
		d.flags = xmalloc(nn);
		d.flags[0] = 0;
		for (uint32_t n = 1; n < nn; n++)
			d.flags[n] = d.flags[sn[n].parent] | d.symflag[sn[n].sym];
	}
	if (spec->callers || spec->callees) {
		d.anchor = xmalloc(nn * sizeof(*d.anchor));
		d.anchor[0] = NODE_NONE;
		for (uint32_t n = 1; n < nn; n++) {
			uint32_t up = sn[n].parent;

			d.anchor[n] = d.anchor[up] != NODE_NONE ? d.anchor[up]
				      : sn[n].sym == d.focus ? n : NODE_NONE;
		}
	}
	if (spec->group != GROUP_ASREAD) {
		d.first = xmalloc(nn * sizeof(*d.first));
		for (uint32_t n = 1; n < nn; n++)
			d.first[n] = sn[n].parent == NODE_ROOT ? n
				     : d.first[sn[n].parent];
	}
	d.memo = xcalloc(nn, sizeof(*d.memo));
	d.symmap = xmalloc((d.nsym ? d.nsym : 1) * sizeof(*d.symmap));
	memset(d.symmap, 0xff, (d.nsym ? d.nsym : 1) * sizeof(*d.symmap));
	d.out = profile_create();
	if (!d.chained) {
		/* Most views are about as big as their source. */
		d.capo = nn;
		d.owner = xmalloc(d.capo * sizeof(*d.owner));
		d.owner[NODE_ROOT] = OWN_NONE;
		profile_reserve_nodes(d.out, nn);
	}
	if (profile_is_differential(src))
		profile_set_differential(d.out, true);
	profile_note_unit(d.out, profile_unit(src));
	profile_set_order(d.out, spec->order);
	ctx_get(&d, UINT32_MAX, false);     /* context 0: as read */
	walk(&d);
	profile_finish(d.out);
	*out = d.out;
	deriver_free(&d);
	return VIEW_OK;
}
