/*
 * view.c - derived views: the view's tree and the walk of untimed
 * stacks (view-sample.c walks the timeline's samples; the top table is
 * view-top.c).
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
 * children from one source node only (view_child).  Inverted and callers
 * stacks share suffixes, not prefixes: their distinct sequences are sorted
 * by name and the tree is built from them in order, each sharing a prefix
 * with the one before (view_chains).  Either way the view's tree is built
 * with profile_append_child, without the profile's child index.
 */
#include "view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "search.h"
#include "textfmt.h"
#include "util.h"
#include "view-priv.h"

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

bool view_spec_labels(const struct view_spec *s)
{
	return s->ntags || s->label_key;
}

bool view_spec_active(const struct view_spec *s)
{
	return s->ninclude || s->nexclude || s->exclude_search ||
	       s->callers || s->callees ||
	       s->fold_recursion || s->invert || s->has_range ||
	       s->hide_idle || view_spec_per_sample(s) || view_spec_labels(s);
}



/* ---- Deriving --------------------------------------------------------- */

/*
 * The idle task's frames, for samples whose task is not known (folded
 * input): a stack is idle when one of its frames is named exactly, case
 * and all, the idle task's command (swapper, swapper/N as bcc writes it,
 * swapper-0 or swapper-0/0 as --pid/--tid roots), or one of the kernel's
 * idle loop functions (kernel/sched/idle.c, the x86, arm64, intel_idle,
 * ACPI and polling idle drivers; cpu_idle and cpu_idle_loop of kernels
 * before 3.10 and 4.9), with or without the _[k] mark.  Only exact names:
 * a user's reap_idle_connections is work, not idle.
 */
#define IDLE_RE "(?-i)^(?:swapper(?:/[0-9]+)?(?:-0(?:/0)?)?" \
	"|cpu_startup_entry|do_idle|cpu_idle|cpu_idle_loop|cpu_idle_poll" \
	"|cpuidle_idle_call|default_idle_call|default_idle|arch_cpu_idle" \
	"|cpu_do_idle|mwait_idle|intel_idle|acpi_idle_enter" \
	"|acpi_idle_do_entry|poll_idle)(?:_\\[k\\])?$"

uint32_t view_sym_new(struct deriver *d, uint32_t s)
{
	d->symmap[s] = profile_intern(d->out, symtab_name(d->st, s),
				      symtab_len(d->st, s));
	return d->symmap[s];
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
uint32_t view_child(struct deriver *d, uint32_t o, uint64_t key,
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
			seq_push(d, &k, view_sym(d, sn[d->path[i]].sym), fold);
		if (gsym != UINT32_MAX)
			seq_push(d, &k, gsym, fold);
	} else {
		if (gsym != UINT32_MAX && !s->callees)
			seq_push(d, &k, gsym, fold);
		for (size_t i = np; i-- > 0;)
			seq_push(d, &k, view_sym(d, sn[d->path[i]].sym), fold);
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
		uint32_t y = view_sym(d, sn[x].sym);

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
void view_chains(struct deriver *d)
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
			o = view_child(d, o, (uint64_t)c << 32 | up,
				     view_sym(d, sn[y].sym));
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
 * callers views: the index of its sequence, see view_chains).  The
 * samples of one context must be mapped together: the memo holds one
 * context at a time (see view_child).
 */
uint32_t view_node(struct deriver *d, uint32_t n, uint32_t c)
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

bool view_keep_node(const struct deriver *d, uint32_t n, bool task_known)
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

/* Add weight at view node o (meta NULL: untimed weight). */
void view_add_at(struct deriver *d, uint32_t o, uint64_t v, uint64_t v2,
		 const struct sample_meta *m)
{
	struct weight w = { v, v2, profile_decimals(d->src) };

	if (o != NODE_ROOT)     /* else nothing is left of the stack */
		profile_add_at(d->out, o, &w, m);
}

/* The symbols s matches get bit. */
static void mark(struct deriver *d, struct search *s, unsigned char bit)
{
	search_update(s, d->src);
	for (uint32_t y = 0; y < d->nsym; y++)
		if (search_sym_matches(s, y))
			d->symflag[y] |= bit;
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
		mark(d, s, bit);
		search_destroy(s);
	}
	return VIEW_OK;
}

/* A search made for another profile, as one more exclude: a copy of it
 * over the source's ids. */
static void mark_search(struct deriver *d, const struct search *from,
			unsigned char bit)
{
	struct search *s = search_create();

	search_copy(s, from);
	mark(d, s, bit);
	search_destroy(s);
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
	free(d->lskeep);
	free(d->lsgsym);
}

/* Does s[0..len) hold name[0..k), regardless of ASCII case? */
static bool holds_nocase(const char *s, size_t len, const char *name, size_t k)
{
	for (size_t i = 0; k && i + k <= len; i++)
		if (strncasecmp(s + i, name, k) == 0)
			return true;
	return false;
}

/*
 * For a function name no frame has, the frames the user may have meant,
 * to name in the message ("" when there are none): where frames are
 * source lines (--lines: "NAME FILE:LINE"), the heaviest of NAME's; else
 * the up to 3 heaviest frames whose names hold NAME in any case.  Escaped:
 * they come from the profile.
 */
#define HINT_NAMES 3

static void name_hint(const struct profile *src, const char *name,
		      const char *opt, char *hint, size_t cap)
{
	const struct symtab *st = profile_symtab(src);
	size_t k = strlen(name), nn = profile_node_count(src), at = 0;
	uint32_t nsym = symtab_count(st), line = UINT32_MAX;
	uint32_t best[HINT_NAMES];
	uint64_t *w = xcalloc(nsym ? nsym : 1, sizeof(*w)), lw = 0;
	unsigned nbest = 0;
	char names[3 * 130];

	hint[0] = 0;
	/* A frame's weight: its heaviest node's (the outermost, mostly). */
	for (uint32_t n = 1; n < nn; n++) {
		uint32_t y = profile_node(src, n)->sym;
		uint64_t t = profile_total(src, n) + profile_total2(src, n);

		if (t > w[y])
			w[y] = t;
	}
	for (uint32_t y = 0; y < nsym; y++) {
		const char *s = symtab_name(st, y);
		size_t len = symtab_len(st, y);

		if (!w[y])
			continue;
		if (len > k + 1 && memcmp(s, name, k) == 0 && s[k] == ' ' &&
		    memchr(s + k + 1, ':', len - k - 1)) {
			if (w[y] > lw) {
				line = y;
				lw = w[y];
			}
		} else if (holds_nocase(s, len, name, k)) {
			unsigned i = nbest < HINT_NAMES ? nbest++ : HINT_NAMES;

			/* Insert y among the heaviest, heaviest first. */
			for (; i > 0 && w[best[i - 1]] < w[y]; i--)
				if (i < HINT_NAMES)
					best[i] = best[i - 1];
			if (i < HINT_NAMES)
				best[i] = y;
		}
	}
	if (line != UINT32_MAX) {
		best[0] = line;
		nbest = 1;
	}
	for (unsigned i = 0; i < nbest; i++) {
		char esc[120];

		textfmt_escape(symtab_name(st, best[i]), symtab_len(st, best[i]),
			       esc, sizeof(esc));
		at += (size_t)snprintf(names + at, sizeof(names) - at, "%s'%s'",
				       i == 0 ? "" : i + 1 < nbest ? ", "
				       : " or ", esc);
	}
	if (nbest)
		snprintf(hint, cap, line != UINT32_MAX
			 ? " (its frames are source lines here: %s %s)"
			 : " (did you mean %s %s?)", opt, names);
	free(w);
}

/*
 * --group label:KEY where no sample's labels have KEY: every sample would
 * be rooted in "KEY=" with no word why.  The note names the keys the
 * samples do have, in byte order (escaped: they come from the profile).
 */
static void label_key_note(const struct profile *src, const char *key,
			   char *err, size_t errcap)
{
	const struct labels *l = profile_labels(src);
	size_t n, at = 0, klen = strlen(key), nsets = labels_count(l);
	uint32_t id = labels_find_str(l, key, klen);
	struct label_share *sh;
	char list[256] = "";

	/* A set with the key: nothing to say (sets are few, samples many). */
	for (uint32_t set = 1; id != UINT32_MAX && set < nsets; set++) {
		size_t np;
		const uint32_t *pr = labels_pairs(l, set, &np);

		for (size_t i = 0; i < np; i++)
			if (pr[2 * i] == id)
				return;
	}
	sh = view_label_shares(src, &n);
	for (size_t i = 0; i < n; i++) {
		size_t len;
		const char *k = labels_name(l, sh[i].key, &len);

		if (len == klen && memcmp(k, key, len) == 0) {
			free(sh);
			return;
		}
		if ((i && sh[i].key == sh[i - 1].key) || at + 8 > sizeof(list))
			continue;
		if (i)
			at += (size_t)snprintf(list + at, sizeof(list) - at, ", ");
		at += textfmt_escape(k, len, list + at, sizeof(list) - at);
	}
	if (n)
		snprintf(err, errcap, "--group label:%s: no sample carries the "
			 "label %s (the samples' label keys: %s)", key, key, list);
	else
		snprintf(err, errcap, "--group label:%s: no sample carries a "
			 "label", key);
	free(sh);
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
	/* Samples that carry a time, a task or a label, one by one. */
	if (ntl || profile_untimed_len(src) || view_spec_labels(s)) {
		view_walk_timeline(d, ranged, rf, rl);
		return;
	}
	if (ranged || view_spec_per_sample(s))
		return;   /* no sample has a time, task or CPU */
	if (!d->chained) {
		for (uint32_t n = 1; n < nn; n++)
			if ((profile_self(src, n) || (diff && profile_self2(src, n))) &&
			    view_keep_node(d, n, false))
				view_add_at(d, view_node(d, n, 0), profile_self(src, n),
				       diff ? profile_self2(src, n) : 0, NULL);
		return;
	}
	/* The sequences first (each kept node's key), then the tree, then
	 * the weights. */
	kept = xmalloc(nn * sizeof(*kept));
	key = xmalloc(nn * sizeof(*key));
	for (uint32_t n = 1; n < nn; n++)
		if ((profile_self(src, n) || (diff && profile_self2(src, n))) &&
		    view_keep_node(d, n, false)) {
			kept[nk] = n;
			/* Each node once: only callers share (anchors). */
			key[nk++] = s->callers ? view_node(d, n, 0)
					       : seq_key(d, n, 0);
		}
	view_chains(d);
	for (size_t i = 0; i < nk; i++)
		view_add_at(d, d->keys[key[i]].out, profile_self(src, kept[i]),
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
	if (spec->exclude_search)
		mark_search(&d, spec->exclude_search, F_EXC);
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
			char hint[512];

			name_hint(src, name, spec->callers ? "--callers"
				  : "--callees", hint, sizeof(hint));
			snprintf(err, errcap, "no stack contains %s%s", name,
				 hint);
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
	if (spec->ninclude || spec->nexclude || spec->exclude_search ||
	    spec->hide_idle) {
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
	/* The samples keep their label sets' ids. */
	profile_copy_labels(d.out, src);
	d.lskeep = labels_keep(profile_labels(src), spec->tags, spec->ntags);
	if (spec->label_key) {
		d.nls = labels_count(profile_labels(src));
		d.lsgsym = xcalloc(d.nls, sizeof(*d.lsgsym));
		d.lkey = labels_find_str(profile_labels(src), spec->label_key,
					 strlen(spec->label_key));
		d.gbytes_left = GROUP_BYTES_BASE + GROUP_BYTES_PER_BYTE *
			(uint64_t)labels_bytes(profile_labels(src));
	}
	if (!d.chained) {
		/* Most views are about as big as their source. */
		d.capo = nn;
		d.owner = xmalloc(d.capo * sizeof(*d.owner));
		d.owner[NODE_ROOT] = OWN_NONE;
		profile_reserve_nodes(d.out, nn);
	}
	if (profile_is_differential(src))
		profile_set_differential(d.out, true);
	profile_copy_unit(d.out, src);
	profile_set_order(d.out, spec->order);
	view_ctx(&d, UINT32_MAX, false);     /* context 0: as read */
	walk(&d);
	profile_finish(d.out);
	*out = d.out;
	if (spec->label_key)
		label_key_note(src, spec->label_key, err, errcap);
	if (d.overflow)
		snprintf(err, errcap, "%llu sample%s rooted in %s=[more values]: "
			 "the label's values would take more than %d bytes per "
			 "byte of the labels", (unsigned long long)d.overflow,
			 d.overflow == 1 ? "" : "s", spec->label_key,
			 GROUP_BYTES_PER_BYTE);
	deriver_free(&d);
	return VIEW_OK;
}
