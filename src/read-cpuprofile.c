/*
 * read-cpuprofile.c - V8's .cpuprofile (node --cpu-prof, Chrome DevTools'
 * "Save profile"): a JSON object whose "nodes" form a call tree (each node
 * an id, a callFrame with its functionName, and the ids of its children),
 * with "samples" (the node on top of the stack at each sample, by id) and
 * "timeDeltas" (microseconds since the previous sample; the first since
 * "startTime").
 *
 * A node's frames are the functionNames from the root down, "(anonymous)"
 * for an empty one; the tree's own root, "(root)", is not a frame.  A
 * sample weighs the time until the next sample (the last one: until
 * "endTime"), in nanoseconds, as DevTools' flame chart draws it, and keeps
 * its time for the timeline.  A profile without samples is weighed by its
 * nodes' hitCounts instead.
 *
 * JSON is parsed by json-c.  What the tree may hold is checked before
 * anything is added: an id used twice, a child that is no node, a node
 * with two parents or in a cycle of children, a stack deeper than the
 * profile holds, a sample of an unknown node, samples out of time order
 * (negative deltas; they are read in time order).  Each is said once with
 * its count; samples that cannot be placed are skipped.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame-locs.h"
#include "read.h"
#include "textfmt.h"
#include "util.h"

/*
 * json-c builds the whole document, some 20 bytes of memory for a byte of
 * JSON at worst (an array of small numbers).  A .cpuprofile of a ten-minute
 * run is a few MB; beyond this size only with --max-input (its budget).
 */
#define CPUPROFILE_MAX_BYTES (32u << 20)
#define CPUPROFILE_MAX_NESTING 64
#define MAX_TIME_US (INT64_C(1) << 52)

struct cpnode {
	int64_t id;
	uint32_t parent;     /* index in nodes[]; NONE: a root */
	uint32_t pnode;      /* the profile's node; NONE: not placed yet */
	uint32_t depth;      /* frames from the top, this one included */
	uint8_t state;       /* WALK_*: placing it */
	bool bad;            /* in a cycle, too deep: its samples are skipped */
	json_object *obj;
};

enum { WALK_NEW, WALK_ACTIVE, WALK_DONE };
#define NONE UINT32_MAX

struct idpair {
	int64_t id;
	uint32_t at;
};

struct cp {
	struct profile *p;
	struct diag *d;
	const char *name;
	struct cpnode *nodes;
	size_t n;
	struct idpair *ids;      /* sorted by id */
	uint32_t *chain;         /* place(): the nodes climbed */
	size_t nchain;
	uint64_t dup_ids, bad_children, two_parents, cycles, too_deep;
	uint64_t unknown_samples, skipped_samples;
	uint32_t anon;
	bool lines;              /* --lines: "NAME URL:LINE" */
};

static int cmp_idpair(const void *a, const void *b)
{
	const struct idpair *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static uint32_t node_index(const struct cp *cp, int64_t id)
{
	size_t lo = 0, hi = cp->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cp->ids[mid].id < id)
			lo = mid + 1;
		else if (cp->ids[mid].id > id)
			hi = mid;
		else
			return cp->ids[mid].at;
	}
	return NONE;
}

static json_object *member(json_object *o, const char *key, json_type t)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, t))
		return NULL;
	return v;
}

/* An integer member (JSON numbers of V8 are integers; a double is cut). */
static bool int_member(json_object *o, const char *key, int64_t *out)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return false;
	if (!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

static bool int_at(json_object *arr, size_t i, int64_t *out)
{
	json_object *v = json_object_array_get_idx(arr, i);

	if (!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

/* The 1-based line of byte off in b, for messages. */
static uint64_t line_of(const char *b, size_t off)
{
	uint64_t line = 1;
	const char *s = b, *end = b + off;

	while ((s = memchr(s, '\n', (size_t)(end - s))) != NULL) {
		line++;
		s++;
	}
	return line;
}

static json_object *parse(const char *b, size_t len, const char *name,
			  struct diag *d)
{
	json_tokener *tok = json_tokener_new_ex(CPUPROFILE_MAX_NESTING);
	json_object *o;
	enum json_tokener_error e;
	size_t end;

	if (!tok) {
		diag_warn(d, "%s: out of memory", name);
		return NULL;
	}
	if (len > INT32_MAX) {
		json_tokener_free(tok);
		diag_warn(d, "%s: too large for a .cpuprofile", name);
		return NULL;
	}
	o = json_tokener_parse_ex(tok, b, (int)len);
	e = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (!o && e == json_tokener_continue)
		diag_warn(d, "%s:%llu: the JSON ends too early", name,
			  (unsigned long long)line_of(b, len));
	else if (!o)
		diag_warn(d, "%s:%llu: not valid JSON: %s", name,
			  (unsigned long long)line_of(b, end < len ? end : len),
			  json_tokener_error_desc(e));
	json_tokener_free(tok);
	return o;
}

/* Index the nodes by id, and give each child its parent. */
static bool link_nodes(struct cp *cp, json_object *arr)
{
	size_t n = json_object_array_length(arr);

	if (n >= NONE) {
		diag_warn(cp->d, "%s: too many nodes", cp->name);
		return false;
	}
	cp->n = n;
	cp->nodes = xcalloc(n ? n : 1, sizeof(*cp->nodes));
	cp->ids = xcalloc(n ? n : 1, sizeof(*cp->ids));
	cp->chain = xcalloc(n ? n : 1, sizeof(*cp->chain));
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i);
		struct cpnode *c = &cp->nodes[i];

		c->parent = c->pnode = NONE;
		c->obj = o;
		if (!json_object_is_type(o, json_type_object) ||
		    !int_member(o, "id", &c->id)) {
			diag_warn(cp->d, "%s: node %zu has no id", cp->name,
				  i + 1);
			return false;
		}
		cp->ids[i].id = c->id;
		cp->ids[i].at = (uint32_t)i;
	}
	qsort(cp->ids, n, sizeof(*cp->ids), cmp_idpair);
	for (size_t i = 1; i < n; i++) {
		if (cp->ids[i].id != cp->ids[i - 1].id)
			continue;
		/* The later one is left out: samples name the first. */
		cp->nodes[cp->ids[i].at].bad = true;
		cp->dup_ids++;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *ch = member(cp->nodes[i].obj, "children",
					 json_type_array);
		size_t k = ch ? json_object_array_length(ch) : 0;
		int64_t pid;

		if (cp->nodes[i].bad)
			continue;
		for (size_t j = 0; j < k; j++) {
			int64_t id;
			uint32_t c;

			if (!int_at(ch, j, &id) ||
			    (c = node_index(cp, id)) == NONE) {
				cp->bad_children++;
				continue;
			}
			if (cp->nodes[c].parent != NONE) {
				cp->two_parents++;
				continue;
			}
			cp->nodes[c].parent = (uint32_t)i;
		}
		/* The trace-event form names the parent instead. */
		if (!ch && int_member(cp->nodes[i].obj, "parent", &pid)) {
			uint32_t pa = node_index(cp, pid);

			if (pa == NONE)
				cp->bad_children++;
			else
				cp->nodes[i].parent = pa;
		}
	}
	return true;
}

/*
 * A node's frame: its functionName; under --lines "NAME FILE:LINE", FILE
 * the last path component of the callFrame's url and LINE its 0-based
 * lineNumber + 1, as DevTools shows a function's place (and, for
 * --pprof, the function's url and line are noted: frame-locs.h).
 */
static uint32_t frame_of(struct cp *cp, const struct cpnode *c)
{
	json_object *cf = member(c->obj, "callFrame", json_type_object);
	json_object *fn = member(cf, "functionName", json_type_string);
	json_object *url = member(cf, "url", json_type_string);
	int len = fn ? json_object_get_string_len(fn) : 0;
	const char *name = len > 0 ? json_object_get_string(fn) : "(anonymous)";
	const char *u, *base;
	size_t nl = len > 0 ? (size_t)len : 11, bl;
	int64_t line;
	char *buf;
	uint32_t id;

	if (!cp->lines || !url || !int_member(cf, "lineNumber", &line) ||
	    line < 0 || line >= INT32_MAX || !*(u = json_object_get_string(url)))
		return len > 0 ? profile_intern(cp->p, name, nl) : cp->anon;
	base = strrchr(u, '/');
	base = base && base[1] ? base + 1 : u;
	bl = strlen(base);
	buf = xmalloc(nl + bl + 16);
	memcpy(buf, name, nl);
	buf[nl] = ' ';
	memcpy(buf + nl + 1, base, bl);
	nl += 1 + bl;
	nl += (size_t)snprintf(buf + nl, 16, ":%d", (int)line + 1);
	id = profile_intern(cp->p, buf, nl);
	free(buf);
	{
		/* For --pprof: the function, its url and the line. */
		struct floc_frame f = { 0 };

		f.func = name;
		f.func_len = len > 0 ? (size_t)len : 11;
		f.file = u;
		f.file_len = strlen(u);
		f.line = (unsigned)line + 1;
		floc_note(profile_frame_locs(cp->p), id, &f);
	}
	return id;
}

static bool is_v8_root(const struct cpnode *c)
{
	json_object *cf = member(c->obj, "callFrame", json_type_object);
	json_object *fn = member(cf, "functionName", json_type_string);

	return c->parent == NONE && fn &&
	       strcmp(json_object_get_string(fn), "(root)") == 0;
}

/* Node c, whose parent (if any) is placed, in the profile's tree. */
static void place_one(struct cp *cp, struct cpnode *c)
{
	const struct cpnode *pa = c->parent == NONE ? NULL
				  : &cp->nodes[c->parent];

	c->state = WALK_DONE;
	if (c->bad || (pa && pa->bad)) {
		c->bad = true;
	} else if (!pa && is_v8_root(c)) {
		c->pnode = NODE_ROOT;
		c->depth = 0;
	} else if (pa && pa->depth + 1 > PROFILE_MAX_DEPTH - 1) {
		c->bad = true;
		cp->too_deep++;
	} else {
		c->depth = pa ? pa->depth + 1 : 1;
		c->pnode = profile_child(cp->p, pa ? pa->pnode : NODE_ROOT,
					 frame_of(cp, c));
	}
}

/*
 * Place node i and the ancestors not placed yet, without recursion: climb
 * to a placed ancestor or a root, then come down.  Meeting a node of this
 * climb again is a cycle: the nodes climbed are left out.
 */
static void place(struct cp *cp, uint32_t i)
{
	uint32_t k = i;
	bool cycle = false;

	cp->nchain = 0;
	for (;;) {
		struct cpnode *c = &cp->nodes[k];

		if (c->state == WALK_DONE)
			break;
		if (c->state == WALK_ACTIVE) {
			cycle = true;
			break;
		}
		c->state = WALK_ACTIVE;
		cp->chain[cp->nchain++] = k;
		if (c->parent == NONE)
			break;
		k = c->parent;
	}
	if (cycle)
		cp->cycles++;
	while (cp->nchain > 0) {
		struct cpnode *c = &cp->nodes[cp->chain[--cp->nchain]];

		if (cycle) {
			c->state = WALK_DONE;
			c->bad = true;
		} else {
			place_one(cp, c);
		}
	}
}

struct tsample {
	int64_t t;           /* microseconds */
	uint32_t node;       /* index in nodes[]; NONE: an unknown id */
	uint32_t seq;        /* its place in the profile, for equal times */
};

static int cmp_tsample(const void *a, const void *b)
{
	const struct tsample *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void add_weight(struct cp *cp, uint32_t node, uint64_t v,
		       const struct sample_meta *m)
{
	struct weight w = { .v = v };

	if (cp->nodes[node].bad) {
		cp->skipped_samples++;
		return;
	}
	if (profile_add_at(cp->p, cp->nodes[node].pnode, &w, m) != ADD_OK)
		cp->skipped_samples++;
}

/* Samples with their times; false when the arrays are unusable. */
static bool add_samples(struct cp *cp, json_object *top)
{
	json_object *sa = member(top, "samples", json_type_array);
	json_object *td = member(top, "timeDeltas", json_type_array);
	size_t n = sa ? json_object_array_length(sa) : 0, k = 0;
	int64_t t = 0, end;
	bool sorted = true, has_end;
	struct tsample *ts;

	if (!td) {
		/* Without times each sample counts once. */
		for (size_t i = 0; i < n; i++) {
			int64_t id;
			uint32_t at;

			if (!int_at(sa, i, &id) ||
			    (at = node_index(cp, id)) == NONE)
				cp->unknown_samples++;
			else
				add_weight(cp, at, 1, NULL);
		}
		profile_note_unit(cp->p, UNIT_SAMPLES);
		return true;
	}
	if (json_object_array_length(td) != n) {
		diag_warn(cp->d, "%s: %zu samples but %zu timeDeltas", cp->name,
			  n, json_object_array_length(td));
		return false;
	}
	/* Times stay far from overflow once in nanoseconds. */
	if (!int_member(top, "startTime", &t) || t < 0 || t > MAX_TIME_US)
		t = 0;
	has_end = int_member(top, "endTime", &end) && end >= 0 &&
		  end <= MAX_TIME_US;
	ts = xreallocarray(NULL, n ? n : 1, sizeof(*ts));
	for (size_t i = 0; i < n; i++) {
		int64_t id, dt;

		if (!int_at(sa, i, &id) || !int_at(td, i, &dt) ||
		    dt > INT32_MAX || dt < -(int64_t)INT32_MAX) {
			diag_warn(cp->d, "%s: sample %zu: not a node id and a "
				  "time delta", cp->name, i + 1);
			free(ts);
			return false;
		}
		t += dt;
		if (t < 0 || t > MAX_TIME_US) {
			diag_warn(cp->d, "%s: sample %zu: its time is out of "
				  "range", cp->name, i + 1);
			free(ts);
			return false;
		}
		if (dt < 0)
			sorted = false;
		/* An unknown node's sample keeps its time, unweighed. */
		ts[k].t = t;
		ts[k].seq = (uint32_t)k;
		ts[k++].node = node_index(cp, id);
	}
	if (!sorted) {
		qsort(ts, k, sizeof(*ts), cmp_tsample);
		diag_warn(cp->d, "%s: samples out of time order (negative "
			  "timeDeltas); read in time order", cp->name);
	}
	for (size_t i = 0; i < k; i++) {
		int64_t next = i + 1 < k ? ts[i + 1].t : has_end ? end : ts[i].t;
		struct sample_meta m = { .has_time = true,
					 .time_ns = (uint64_t)ts[i].t * 1000 };

		if (ts[i].node == NONE)
			cp->unknown_samples++;
		else
			add_weight(cp, ts[i].node,
				   next > ts[i].t ?
				   (uint64_t)(next - ts[i].t) * 1000 : 0, &m);
	}
	free(ts);
	profile_note_unit(cp->p, UNIT_NANOS);
	return true;
}

/* No samples: each node's hitCount is its self weight, in samples. */
static void add_hit_counts(struct cp *cp)
{
	for (size_t i = 0; i < cp->n; i++) {
		int64_t h;

		if (int_member(cp->nodes[i].obj, "hitCount", &h) && h > 0)
			add_weight(cp, (uint32_t)i, (uint64_t)h, NULL);
	}
	profile_note_unit(cp->p, UNIT_SAMPLES);
}

static void skipped(struct cp *cp, uint64_t n, const char *why)
{
	if (n)
		diag_skip(cp->d, DIAG_SAMPLE, n, cp->name, "%llu sample%s "
			  "skipped: %s", (unsigned long long)n, n == 1 ? "" : "s", why);
}

static void report(struct cp *cp)
{
	static const struct {
		size_t off;
		const char *what;
	} says[] = {
		{ offsetof(struct cp, dup_ids), "node ids defined again (the "
		  "first definition is kept)" },
		{ offsetof(struct cp, bad_children), "child ids that name no "
		  "node" },
		{ offsetof(struct cp, two_parents), "nodes listed as the child "
		  "of another node too (the first parent is kept)" },
		{ offsetof(struct cp, cycles), "cycles of children (their nodes "
		  "are left out)" },
		{ offsetof(struct cp, too_deep), "nodes deeper than flametop's "
		  "stacks (left out)" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(says); i++) {
		uint64_t v = *(const uint64_t *)((const char *)cp + says[i].off);

		if (v)
			diag_warn(cp->d, "%s: %s: %llu", cp->name, says[i].what,
				  (unsigned long long)v);
	}
	skipped(cp, cp->unknown_samples, "a node id that is not in the profile");
	skipped(cp, cp->skipped_samples, "the node is left out");
}

static void say_too_large(struct diag *d, const char *name)
{
	diag_warn(d, "%s: a .cpuprofile larger than %u MB is read only with "
		  "--max-input (json-c may take 20 times its size in memory)",
		  name, CPUPROFILE_MAX_BYTES >> 20);
}

/*
 * The whole input, as read_whole, but at most CPUPROFILE_MAX_BYTES: NULL
 * with a message naming --max-input beyond.
 */
static const void *read_bounded(struct input *in, size_t *len, void **owned,
				struct diag *d)
{
	size_t cap = 1u << 20, n = 0;
	unsigned char *buf;
	const void *b;

	*owned = NULL;
	if (input_raw_size(in) <= CPUPROFILE_MAX_BYTES &&
	    (b = input_map(in, len)) != NULL)
		return b;
	buf = xmalloc(cap);
	for (;;) {
		ssize_t k;

		if (n == cap && n > CPUPROFILE_MAX_BYTES) {
			free(buf);
			say_too_large(d, input_name(in));
			return NULL;
		}
		if (n == cap) {
			/* Up to one byte more than allowed: it tells. */
			cap = cap * 2 > CPUPROFILE_MAX_BYTES ?
			      CPUPROFILE_MAX_BYTES + 1 : cap * 2;
			buf = xrealloc(buf, cap);
		}
		k = input_read(in, buf + n, cap - n);
		if (k < 0) {
			free(buf);
			diag_warn(d, "%s", input_error(in) ? input_error(in)
							   : "cannot read input");
			return NULL;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	*len = n;
	return *owned = buf;
}

bool read_cpuprofile_detect(const void *buf, size_t len)
{
	const char *s = buf, *end = s + len;

	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
		s++;
	if (s == end || *s != '{')
		return false;
	return memmem(s, (size_t)(end - s), "\"nodes\"", 7) &&
	       memmem(s, (size_t)(end - s), "\"callFrame\"", 11);
}

int read_cpuprofile(struct profile *p, struct input *in,
		    const struct read_opts *o, struct diag *d)
{
	struct cp cp = { .p = p, .d = d, .name = input_name(in),
			 .lines = o->lines };
	size_t len;
	void *owned;
	const void *b;
	json_object *top = NULL, *nodes;
	uint64_t added = profile_samples(p), before[DIAG_UNITS];
	int rc = -1;

	memcpy(before, d->nbad, sizeof(before));
	b = o->max_input ? read_whole(in, &len, &owned, d)
			 : read_bounded(in, &len, &owned, d);
	if (!b)
		return -1;
	top = parse(b, len, cp.name, d);
	if (!top)
		goto out;
	nodes = member(top, "nodes", json_type_array);
	if (!json_object_is_type(top, json_type_object) || !nodes) {
		diag_warn(d, "%s: not a .cpuprofile: no \"nodes\" array",
			  cp.name);
		goto out;
	}
	if (!link_nodes(&cp, nodes))
		goto out;
	cp.anon = profile_intern(p, "(anonymous)", 11);
	for (size_t i = 0; i < cp.n; i++)
		place(&cp, (uint32_t)i);
	if (member(top, "samples", json_type_array)) {
		if (!add_samples(&cp, top))
			goto out;
	} else {
		add_hit_counts(&cp);
	}
	report(&cp);
	rc = read_done(d, cp.name, profile_samples(p) > added, before,
		       "no sample with a weight");
out:
	json_object_put(top);
	free(cp.nodes);
	free(cp.ids);
	free(cp.chain);
	free(owned);
	return rc;
}
