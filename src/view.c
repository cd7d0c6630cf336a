/*
 * view.c - derived views and the top table.
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
 * of each source node is memoized (an array for the common case, a hash
 * keyed by the group's root otherwise) and each source node costs one
 * lookup.  Callers views depend only on the anchor, and are memoized per
 * anchor.  Inverted stacks share suffixes, not prefixes, and are built
 * frame by frame.
 */
#include "view.h"

#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "textfmt.h"
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

struct memo_slot {
	uint64_t key;        /* (base << 33 | strip << 32 | node) + 1; 0 empty */
	uint32_t out;
};

struct deriver {
	const struct profile *src;
	const struct view_spec *spec;
	struct profile *out;
	const struct symtab *st;
	size_t nsym;

	unsigned char *symflag;   /* per source symbol: F_INC, F_EXC */
	uint32_t *symmap;         /* source symbol -> view symbol */
	unsigned char *commok;    /* per source symbol: a --comm name */
	uint32_t focus;           /* source symbol of callers/callees */
	bool task_known;          /* the sample being added has a task */

	unsigned char *flags;     /* per node: the path's F_INC, F_EXC */
	uint32_t *anchor;         /* per node: outermost focus on the path */
	uint32_t *memo;           /* per node: view node (root base, no strip) */
	struct memo_slot *ms;     /* the same for other bases */
	size_t mmask, mn;

	uint32_t *path;           /* scratch: source nodes or view symbols */
	size_t cappath;
	uint32_t *seq;
	size_t capseq;
	char *buf;
	size_t capbuf;
};

static uint32_t vsym(struct deriver *d, uint32_t s)
{
	if (d->symmap[s] == UINT32_MAX)
		d->symmap[s] = profile_intern(d->out, symtab_name(d->st, s),
					      symtab_len(d->st, s));
	return d->symmap[s];
}

static uint32_t sym_of(const struct deriver *d, uint32_t n)
{
	return profile_node(d->src, n)->sym;
}

static uint32_t parent_of(const struct deriver *d, uint32_t n)
{
	return profile_node(d->src, n)->parent;
}

/* ---- Memo ---- */

static uint64_t memo_key(uint32_t base, bool strip, uint32_t n)
{
	return ((uint64_t)base << 33 | (uint64_t)strip << 32 | n) + 1;
}

static uint32_t memo_get(struct deriver *d, uint32_t base, bool strip,
			 uint32_t n)
{
	uint64_t k;

	if (base == NODE_ROOT && !strip)
		return d->memo[n];
	if (!d->ms)
		return NODE_NONE;
	k = memo_key(base, strip, n);
	for (size_t j = hash_u64(k) & d->mmask; d->ms[j].key; j = (j + 1) & d->mmask)
		if (d->ms[j].key == k)
			return d->ms[j].out;
	return NODE_NONE;
}

static void memo_put(struct deriver *d, uint32_t base, bool strip,
		     uint32_t n, uint32_t out)
{
	uint64_t k;
	size_t j;

	if (base == NODE_ROOT && !strip) {
		d->memo[n] = out;
		return;
	}
	if ((d->mn + 1) * 2 > d->mmask) {
		size_t nmask = d->mmask ? d->mmask * 2 + 1 : 4095;
		struct memo_slot *ns = xcalloc(nmask + 1, sizeof(*ns));

		for (size_t i = 0; d->ms && i <= d->mmask; i++) {
			if (!d->ms[i].key)
				continue;
			for (j = hash_u64(d->ms[i].key) & nmask; ns[j].key;
			     j = (j + 1) & nmask)
				;
			ns[j] = d->ms[i];
		}
		free(d->ms);
		d->ms = ns;
		d->mmask = nmask;
	}
	k = memo_key(base, strip, n);
	for (j = hash_u64(k) & d->mmask; d->ms[j].key; j = (j + 1) & d->mmask)
		if (d->ms[j].key == k)
			break;
	if (!d->ms[j].key)
		d->mn++;
	d->ms[j].key = k;
	d->ms[j].out = out;
}

/* ---- Paths ---- */

static void seq_push(struct deriver *d, size_t *n, uint32_t s, bool fold)
{
	if (fold && *n && d->seq[*n - 1] == s)
		return;
	GROW(d->seq, d->capseq, *n + 1);
	d->seq[(*n)++] = s;
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
	bool fold = s->fold_recursion;
	size_t k = 0, np = 0;
	uint32_t stop = NODE_ROOT;

	if (s->callees)
		stop = parent_of(d, d->anchor[n]);
	else if (s->callers)
		n = d->anchor[n];
	for (uint32_t x = n; x != stop && x != NODE_ROOT; x = parent_of(d, x)) {
		GROW(d->path, d->cappath, np + 1);
		d->path[np++] = x;
	}
	/* path: n up to the first frame (or the anchor, for callees). */
	if (strip && !s->callees && np &&
	    profile_depth(d->src, d->path[np - 1]) == 1)
		np--;
	if (s->callers) {
		for (size_t i = 0; i < np; i++)
			seq_push(d, &k, vsym(d, sym_of(d, d->path[i])), fold);
		if (gsym != UINT32_MAX)
			seq_push(d, &k, gsym, fold);
	} else {
		if (gsym != UINT32_MAX && !s->callees)
			seq_push(d, &k, gsym, fold);
		for (size_t i = np; i-- > 0;)
			seq_push(d, &k, vsym(d, sym_of(d, d->path[i])), fold);
	}
	if (s->invert)
		for (size_t i = 0; i < k / 2; i++) {
			uint32_t t = d->seq[i];

			d->seq[i] = d->seq[k - 1 - i];
			d->seq[k - 1 - i] = t;
		}
	return k;
}

static uint32_t chain(struct deriver *d, uint32_t base, size_t k)
{
	uint32_t o = base;

	for (size_t i = 0; i < k; i++)
		o = profile_child(d->out, o, d->seq[i]);
	return o;
}

/*
 * The view node of source node n, memoized per node, for views that are
 * not inverted and not callers: the path of n is its parent's plus n,
 * unless n is the stripped first frame or repeats its parent (folded).
 */
static uint32_t map_down(struct deriver *d, uint32_t base, bool strip,
			 uint32_t n)
{
	const struct view_spec *s = d->spec;
	size_t np = 0;
	uint32_t o, x;

	for (x = n;; x = parent_of(d, x)) {
		if (x == NODE_ROOT) {
			o = base;
			break;
		}
		if ((o = memo_get(d, base, strip, x)) != NODE_NONE)
			break;
		GROW(d->path, d->cappath, np + 1);
		d->path[np++] = x;
		if (s->callees && d->anchor[x] == x) {
			o = base;
			break;
		}
	}
	while (np--) {
		uint32_t y = d->path[np], up = parent_of(d, y);
		bool first = s->callees ? d->anchor[y] == y : up == NODE_ROOT;

		if (strip && !s->callees && up == NODE_ROOT) {
			/* The stripped command frame maps to the base. */
		} else if (s->fold_recursion && !first &&
			   !(strip && !s->callees &&
			     parent_of(d, up) == NODE_ROOT) &&
			   sym_of(d, up) == sym_of(d, y)) {
			/* A repeat of the parent: the parent's view node. */
		} else {
			o = profile_child(d->out, o, vsym(d, sym_of(d, y)));
		}
		memo_put(d, base, strip, y, o);
	}
	return o;
}

/* Is the first frame of n's stack the command frame of the sample? */
static bool is_comm_frame(const struct deriver *d, uint32_t n,
			  const struct sample_meta *m)
{
	const char *name, *comm;
	size_t len, clen;

	if (m->comm >= d->nsym)
		return false;
	while (profile_depth(d->src, n) > 1)
		n = parent_of(d, n);
	if (n == NODE_ROOT)
		return false;
	name = symtab_name(d->st, sym_of(d, n));
	len = symtab_len(d->st, sym_of(d, n));
	comm = symtab_name(d->st, m->comm);
	clen = symtab_len(d->st, m->comm);
	return len >= clen && memcmp(name, comm, clen) == 0 &&
	       (len == clen || name[clen] == '-');
}

static uint32_t group_sym(struct deriver *d, const struct sample_meta *m)
{
	size_t clen = symtab_len(d->st, m->comm);
	int k;

	GROW(d->buf, d->capbuf, clen + 32);
	memcpy(d->buf, symtab_name(d->st, m->comm), clen);
	if (d->spec->group == GROUP_THREAD)
		k = snprintf(d->buf + clen, 32, "-%u/%u", m->pid, m->tid);
	else
		k = snprintf(d->buf + clen, 32, "-%u", m->pid);
	return profile_intern(d->out, d->buf, clen + (size_t)k);
}

static bool keep_node(const struct deriver *d, uint32_t n)
{
	const struct view_spec *s = d->spec;

	if (n == NODE_ROOT)
		return false;
	if (s->ninclude && !(d->flags[n] & F_INC))
		return false;
	if (d->flags[n] & F_EXC)
		return false;
	if (s->hide_idle && (d->flags[n] & F_IDLE) && !d->task_known)
		return false;
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

/* Add one sample (or all of a node's untimed weight, meta NULL). */
static void add(struct deriver *d, uint32_t n, uint64_t v, uint64_t v2,
		const struct sample_meta *m)
{
	const struct view_spec *s = d->spec;
	struct weight w = { v, v2, profile_decimals(d->src) };
	uint32_t base = NODE_ROOT, gsym = UINT32_MAX, o;
	bool strip = false;

	d->task_known = m && m->has_task;
	if (!keep_node(d, n))
		return;
	if (m && s->group != GROUP_ASREAD && m->has_task && m->comm < d->nsym) {
		strip = is_comm_frame(d, n, m);
		if (s->group != GROUP_MERGED)
			gsym = group_sym(d, m);
	}
	if (s->invert) {
		o = chain(d, NODE_ROOT, build_seq(d, n, gsym, strip));
	} else {
		if (gsym != UINT32_MAX && !s->callees)
			base = profile_child(d->out, NODE_ROOT, gsym);
		if (s->callers) {
			uint32_t a = d->anchor[n];

			o = memo_get(d, gsym == UINT32_MAX ? NODE_ROOT : gsym + 1,
				     strip, a);
			if (o == NODE_NONE) {
				o = chain(d, NODE_ROOT, build_seq(d, n, gsym, strip));
				memo_put(d, gsym == UINT32_MAX ? NODE_ROOT : gsym + 1,
					 strip, a, o);
			}
		} else {
			o = map_down(d, base, strip, n);
		}
	}
	if (o == NODE_ROOT)
		return;     /* nothing left of the stack */
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
	free(d->memo);
	free(d->ms);
	free(d->path);
	free(d->seq);
	free(d->buf);
}

/* Walk the source's samples: the timeline, and weight it does not hold. */
static void walk(struct deriver *d)
{
	const struct profile *src = d->src;
	const struct view_spec *s = d->spec;
	size_t nn = profile_node_count(src), ntl = profile_timeline_len(src);
	uint64_t rf = 0, rl = UINT64_MAX;
	bool ranged = profile_range(src, &rf, &rl), diff;
	uint64_t *intl = NULL;

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
	if (!ntl) {
		if (ranged || view_spec_per_sample(s))
			return;   /* no sample has a time, task or CPU */
		for (uint32_t n = 1; n < nn; n++)
			if (profile_self(src, n) || (diff && profile_self2(src, n)))
				add(d, n, profile_self(src, n),
				    diff ? profile_self2(src, n) : 0, NULL);
		return;
	}
	if (!ranged && !(s->ncomms || s->pids.n || s->tids.n || s->cpus.n))
		intl = xcalloc(diff ? 2 * nn : nn, sizeof(*intl));
	for (size_t i = 0; i < ntl; i++) {
		struct sample_meta m;
		uint64_t w;
		uint32_t n = profile_timeline_sample(src, i, &w, &m);
		bool before = diff && profile_timeline_before(src, i);

		if (intl)
			intl[before ? nn + n : n] += w;
		if (ranged && (m.time_ns < rf || m.time_ns > rl))
			continue;
		if (!keep_meta(d, &m))
			continue;
		add(d, n, before ? 0 : w, before ? w : 0, &m);
	}
	if (intl) {
		/* Untimed samples (and those live mode forgot): as they were. */
		for (uint32_t n = 1; n < nn; n++) {
			uint64_t a = profile_self_all(src, n);
			uint64_t b = diff ? profile_self2(src, n) : 0;

			a = a > intl[n] ? a - intl[n] : 0;
			b = diff && b > intl[nn + n] ? b - intl[nn + n] : 0;
			if (a || b)
				add(d, n, a, b, NULL);
		}
		free(intl);
	}
}

enum view_status view_derive(const struct profile *src,
			     const struct view_spec *spec,
			     struct profile **out, char *err, size_t errcap)
{
	struct deriver d;
	size_t nn = profile_node_count(src);
	enum view_status rc;

	*out = NULL;
	if (errcap)
		*err = 0;
	memset(&d, 0, sizeof(d));
	d.src = src;
	d.spec = spec;
	d.st = profile_symtab(src);
	d.nsym = symtab_count(d.st);
	d.symflag = xcalloc(d.nsym ? d.nsym : 1, 1);
	d.focus = UINT32_MAX;
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
			found = sym_of(&d, n) == d.focus &&
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
	d.flags = xmalloc(nn);
	d.anchor = xmalloc(nn * sizeof(*d.anchor));
	d.memo = xmalloc(nn * sizeof(*d.memo));
	d.flags[0] = 0;
	d.anchor[0] = NODE_NONE;
	for (uint32_t n = 1; n < nn; n++) {
		uint32_t up = parent_of(&d, n), y = sym_of(&d, n);

		d.flags[n] = d.flags[up] | d.symflag[y];
		d.anchor[n] = d.anchor[up] != NODE_NONE ? d.anchor[up]
			      : y == d.focus ? n : NODE_NONE;
	}
	memset(d.memo, 0xff, nn * sizeof(*d.memo));
	d.symmap = xmalloc((d.nsym ? d.nsym : 1) * sizeof(*d.symmap));
	memset(d.symmap, 0xff, (d.nsym ? d.nsym : 1) * sizeof(*d.symmap));

	d.out = profile_create();
	if (profile_is_differential(src))
		profile_set_differential(d.out, true);
	profile_note_unit(d.out, profile_unit(src));
	profile_set_order(d.out, spec->order);
	/* Most views are about as big as their source: grow once. */
	profile_reserve(d.out, nn);
	walk(&d);
	profile_finish(d.out);
	*out = d.out;
	deriver_free(&d);
	return VIEW_OK;
}

/* ---- The top table ---------------------------------------------------- */

size_t view_top(const struct profile *p, struct view_top_row **rows)
{
	const struct symtab *st = profile_symtab(p);
	uint32_t nsym = symtab_count(st), *on;
	uint64_t *self, *total;
	struct view_top_row *r;
	size_t k = 0;
	uint32_t n;

	self = xcalloc(nsym, sizeof(*self));
	total = xcalloc(nsym, sizeof(*total));
	on = xcalloc(nsym, sizeof(*on));
	/*
	 * Depth first with the parent links: a function's total counts a
	 * subtree only at its outermost occurrence on the path (on[] counts
	 * its frames on the current path).
	 */
	n = profile_node(p, NODE_ROOT)->child;
	while (n != NODE_NONE) {
		const struct pnode *x = profile_node(p, n);
		uint64_t t = profile_total(p, n);

		if (t) {
			if (!on[x->sym]++)
				total[x->sym] += t;
			self[x->sym] += profile_self(p, n);
			if (x->child != NODE_NONE) {
				n = x->child;
				continue;
			}
			on[x->sym]--;
		}
		/* Leave n and every ancestor it was the last child of. */
		while (n != NODE_ROOT && profile_node(p, n)->next == NODE_NONE) {
			n = profile_node(p, n)->parent;
			if (n != NODE_ROOT)
				on[profile_node(p, n)->sym]--;
		}
		if (n == NODE_ROOT)
			break;
		n = profile_node(p, n)->next;
	}
	for (uint32_t y = 0; y < nsym; y++)
		k += total[y] != 0;
	r = xmalloc((k ? k : 1) * sizeof(*r));
	k = 0;
	for (uint32_t y = 0; y < nsym; y++)
		if (total[y])
			r[k++] = (struct view_top_row){ y, self[y], total[y] };
	free(self);
	free(total);
	free(on);
	view_top_sort(p, r, k, TOP_BY_SELF);
	*rows = r;
	return k;
}

static const struct symtab *sort_st;
static enum view_top_sort sort_by;

static int cmp_name(const struct view_top_row *x, const struct view_top_row *y)
{
	size_t a = symtab_len(sort_st, x->sym), b = symtab_len(sort_st, y->sym);
	int c = memcmp(symtab_name(sort_st, x->sym),
		       symtab_name(sort_st, y->sym), a < b ? a : b);

	return c ? c : (a > b) - (a < b);
}

static int cmp_row(const void *a, const void *b)
{
	const struct view_top_row *x = a, *y = b;

	if (sort_by == TOP_BY_NAME)
		return cmp_name(x, y);
	if (sort_by == TOP_BY_SELF && x->self != y->self)
		return x->self < y->self ? 1 : -1;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	return cmp_name(x, y);
}

void view_top_sort(const struct profile *p, struct view_top_row *rows,
		   size_t n, enum view_top_sort by)
{
	sort_st = profile_symtab(p);
	sort_by = by;
	qsort(rows, n, sizeof(*rows), cmp_row);
}

size_t view_print_top(FILE *out, const struct profile *p, size_t n)
{
	struct view_top_row *rows;
	size_t k = view_top(p, &rows);
	const struct symtab *st = profile_symtab(p);
	double all = profile_weight_value(p, profile_total(p, NODE_ROOT));
	char a[48], b[48], *name = NULL;
	size_t capname = 0;

	if (n == 0 || n > k)
		n = k;
	fprintf(out, "# %5s %7s %12s %12s  %s\n", "self", "total",
		profile_unit(p) == UNIT_NS ? "self(ns)" : "self",
		profile_unit(p) == UNIT_NS ? "total(ns)" : "total", "function");
	for (size_t i = 0; i < n; i++) {
		const struct view_top_row *r = &rows[i];
		double sp = all > 0 ? 100 * profile_weight_value(p, r->self) / all : 0;
		double tp = all > 0 ? 100 * profile_weight_value(p, r->total) / all
				    : 0;
		size_t len = symtab_len(st, r->sym);

		profile_format_weight(p, r->self, a, sizeof(a));
		profile_format_weight(p, r->total, b, sizeof(b));
		/* An escape is at most 4 bytes per byte of the name. */
		GROW(name, capname, 4 * len + 1);
		textfmt_escape(symtab_name(st, r->sym), len, name, capname);
		fprintf(out, "%6.2f%% %6.2f%% %12s %12s  %s\n", sp, tp, a, b, name);
	}
	free(name);
	free(rows);
	return n;
}
