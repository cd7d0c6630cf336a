/*
 * export-pprof.c - the profile as a pprof profile (profile.proto, gzip'd),
 * for go tool pprof and the profilers that read it.
 *
 * flametop's tree keeps frame names: each distinct frame name is one
 * location with one line.  Where the readers noted where a frame came
 * from (frame-locs.h), the location has its binary as a mapping, its
 * address, and a function of the name without "FILE:LINE" (one per name
 * and source file) with the line number in the line; else the name is a
 * function of its own, line 0.  Each node with weight ends one distinct
 * stack, written as one sample, leaf first.
 *
 * Sample types: the weights, named as they were read (cpu/nanoseconds
 * for cpu-clock and task-clock periods, page-faults/count for an event's
 * counts, wall/nanoseconds for other time (a .cpuprofile's), samples/count
 * for folded counts, a pprof input's own type).
 * When the weights are periods and every one of them is in the timeline,
 * one timeline entry per sample, the number of samples per stack is
 * known and comes first as samples/count, as Go's CPU profiles have it.
 * The weights' type is the default.  The duration is the time from the
 * first sample to the last, where samples have times.
 *
 * The message is never held whole: the tables (types, functions,
 * locations, mappings, strings) are packed first, then the samples in
 * batches, as repeated field 2 of the same message (protobuf concatenates
 * repeated fields; a ProfileOutline with only samples set packs to just
 * those), each batch through deflate to the file as it is packed.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "export.h"
#include "frame-locs.h"
#include "profile.pb-c.h"
#include "util.h"

#define SAMPLE_BATCH 4096
#define ZCHUNK (1u << 16)

/* A protobuf-c output buffer that deflates (gzip) what it is given. */
struct gz_sink {
	ProtobufCBuffer base;    /* first: protobuf-c calls base.append */
	z_stream z;
	FILE *out;
	unsigned char buf[ZCHUNK];
	bool failed;
};

static void gz_run(struct gz_sink *s, int flush)
{
	do {
		size_t n;

		s->z.next_out = s->buf;
		s->z.avail_out = sizeof(s->buf);
		if (deflate(&s->z, flush) == Z_STREAM_ERROR)
			s->failed = true;
		n = sizeof(s->buf) - s->z.avail_out;
		if (n && fwrite(s->buf, 1, n, s->out) != n)
			s->failed = true;
	} while (s->z.avail_out == 0 && !s->failed);
}

static void gz_append(ProtobufCBuffer *b, size_t len, const uint8_t *data)
{
	struct gz_sink *s = (struct gz_sink *)b;

	while (len && !s->failed) {
		uInt k = len > (1u << 30) ? 1u << 30 : (uInt)len;

		s->z.next_in = (Bytef *)data;
		s->z.avail_in = k;
		gz_run(s, Z_NO_FLUSH);
		data += k;
		len -= k;
	}
}

/* The string table: entry 0 is "", each other string once. */
struct strings {
	ProtobufCBinaryData *s;
	size_t n, cap;
	struct symtab *seen;     /* string k at s[k + 1] */
};

static int64_t str_of(struct strings *t, const char *s, size_t len)
{
	uint32_t y;

	if (!s || !len)
		return 0;
	y = symtab_intern(t->seen, s, len);
	if ((size_t)y + 1 == t->n) {
		GROW(t->s, t->cap, t->n + 1);
		t->s[t->n].data = (uint8_t *)symtab_name(t->seen, y);
		t->s[t->n].len = len;
		t->n++;
	}
	return (int64_t)y + 1;
}

/* A pprof type name from what the weights count ("off-CPU": "off-cpu"). */
static void type_name(const char *what, char *buf, size_t cap)
{
	size_t n = strlen(what), i;

	if (n > 7 && strcmp(what + n - 7, " events") == 0)
		n -= 7;   /* "sched:sched_switch events" */
	for (i = 0; i < n && i + 1 < cap; i++)
		buf[i] = (char)(what[i] >= 'A' && what[i] <= 'Z'
				? what[i] - 'A' + 'a' : what[i]);
	buf[i] = 0;
}

/* The weights' type and unit, as read (see the top of the file). */
static void weight_type(const struct pprof_source *src, char *type,
			size_t cap, const char **unit)
{
	const char *what = src->unit_name ? src->unit_name : "";

	if (src->type && src->type_unit) {
		snprintf(type, cap, "%s", src->type);
		*unit = src->type_unit;
		return;
	}
	*unit = "count";
	switch (src->unit) {
	case UNIT_NS:
		type_name(*what ? what : "cpu", type, cap);
		*unit = "nanoseconds";
		return;
	case UNIT_NANOS:
		/* Time that is not CPU time: a .cpuprofile's times between
		 * samples, which pprof calls wall time. */
		snprintf(type, cap, "wall");
		*unit = "nanoseconds";
		return;
	case UNIT_BYTES:
		snprintf(type, cap, "space");
		*unit = "bytes";
		return;
	case UNIT_COUNT:
		snprintf(type, cap, "count");
		return;
	case UNIT_SAMPLES:
		break;
	}
	type_name(*what ? what : "samples", type, cap);
}

/*
 * The number of samples that ended at each node, from the timeline, when
 * it holds every weight the tree shows (in the selected range): then each
 * entry is one sample.  NULL when it does not.
 */
static uint64_t *sample_counts(const struct profile *p)
{
	size_t nn = profile_node_count(p), ntl = profile_timeline_len(p);
	uint64_t first = 0, last = UINT64_MAX, *cnt, *sum;
	bool ranged = profile_range(p, &first, &last), whole = true;

	if (!ntl)
		return NULL;
	cnt = xcalloc(nn, sizeof(*cnt));
	sum = xcalloc(nn, sizeof(*sum));
	for (size_t i = 0; i < ntl; i++) {
		struct sample_meta m;
		uint64_t w;
		uint32_t n = profile_timeline_sample(p, i, &w, &m);

		if (ranged && (m.time_ns < first || m.time_ns > last))
			continue;
		cnt[n]++;
		sum[n] += w;
	}
	for (uint32_t n = 0; n < nn && whole; n++)
		whole = sum[n] == profile_self(p, n);
	free(sum);
	if (!whole) {
		free(cnt);
		return NULL;
	}
	return cnt;
}

/*
 * From the first sample to the last (of the selected range), when the
 * samples have times: 0 when they have none.
 */
static int64_t sample_span(const struct profile *p)
{
	uint64_t first, last, rf, rl;

	if (!profile_time_bounds(p, &first, &last))
		return 0;
	if (profile_range(p, &rf, &rl)) {
		first = rf > first ? rf : first;
		last = rl < last ? rl : last;
	}
	return last > first && last - first <= INT64_MAX
		? (int64_t)(last - first) : 0;
}

/* w in whole units (pprof values are integers): rounded, noted in *st. */
static int64_t whole_value(const struct profile *p, uint64_t w,
			   struct pprof_stats *st)
{
	unsigned d = profile_decimals(p);
	uint64_t scale = 1;

	while (d--)
		scale *= 10;
	if (w % scale)
		st->rounded = true;
	w = w / scale + (w % scale >= (scale + 1) / 2 && scale > 1);
	return w > INT64_MAX ? INT64_MAX : (int64_t)w;
}

/* Pack the samples of a batch as field 2 of the profile. */
static void flush_batch(struct gz_sink *s, ProtobufCBinaryData *items,
			size_t n)
{
	Flametop__Pprof__ProfileOutline o = FLAMETOP__PPROF__PROFILE_OUTLINE__INIT;

	if (!n)
		return;
	o.n_sample = n;
	o.sample = items;
	flametop__pprof__profile_outline__pack_to_buffer(&o, &s->base);
}

/*
 * Every node with a sample, leaf first, in node order; a node is kept
 * (keep[]) when one is at or below it.
 */
static void write_samples(struct gz_sink *s, const struct profile *p,
			  const uint64_t *cnt, const uint32_t *locid,
			  const bool *keep, struct pprof_stats *st)
{
	size_t nn = profile_node_count(p), nitems = 0, blen = 0, bcap = 0;
	unsigned maxd = profile_max_depth(p) + 1;
	uint64_t *ids = xmalloc(maxd * sizeof(*ids)), *offs;
	ProtobufCBinaryData *items = xmalloc(SAMPLE_BATCH * sizeof(*items));
	uint8_t *buf = NULL;
	int64_t vals[2];

	offs = xmalloc(SAMPLE_BATCH * sizeof(*offs));
	for (uint32_t n = 1; n < nn && !s->failed; n++) {
		Flametop__Pprof__Sample sm = FLAMETOP__PPROF__SAMPLE__INIT;
		uint64_t self = profile_self(p, n);
		size_t depth = 0, len;

		if (!keep[n] || (!self && !(cnt && cnt[n])))
			continue;
		for (uint32_t a = n; a != NODE_ROOT && depth < maxd;
		     a = profile_node(p, a)->parent)
			ids[depth++] = locid[profile_node(p, a)->sym];
		sm.n_location_id = depth;
		sm.location_id = ids;
		sm.n_value = 0;
		if (cnt)
			vals[sm.n_value++] = (int64_t)cnt[n];
		vals[sm.n_value++] = whole_value(p, self, st);
		sm.value = vals;
		len = flametop__pprof__sample__get_packed_size(&sm);
		GROW(buf, bcap, blen + len);
		flametop__pprof__sample__pack(&sm, buf + blen);
		offs[nitems] = blen;
		items[nitems++].len = len;
		blen += len;
		st->samples++;
		if (nitems == SAMPLE_BATCH) {
			for (size_t i = 0; i < nitems; i++)
				items[i].data = buf + offs[i];
			flush_batch(s, items, nitems);
			nitems = blen = 0;
		}
	}
	for (size_t i = 0; i < nitems; i++)
		items[i].data = buf + offs[i];
	flush_batch(s, items, nitems);
	free(buf);
	free(offs);
	free(items);
	free(ids);
}

/* ---- The tables ----------------------------------------------------------- */

/* Functions, locations, lines and mappings, one location a frame name. */
struct tables {
	Flametop__Pprof__Function *fn, **fnp;
	Flametop__Pprof__Location *loc, **locp;
	Flametop__Pprof__Line *line, **linep;
	Flametop__Pprof__Mapping *map, **mapp;
	size_t nfn, nmap;
	struct symtab *fkeys;    /* "function\0file" */
	uint32_t *fkey;          /* their function ids (0: none yet) */
	size_t nfkey;
	uint32_t *mapno;         /* binary number -> mapping id (0: none yet) */
	char *kbuf;
	size_t capk;
};

/*
 * The id of the function named name in file (NULL: none): one per name
 * and file when shared (frames "NAME FILE:LINE" of one function), else
 * a new one.
 */
static uint64_t function_id(struct tables *tb, struct strings *t,
			    const char *name, size_t nl, const char *file,
			    size_t fl, bool shared)
{
	size_t k = tb->nfn;

	if (shared) {
		uint32_t y;

		GROW(tb->kbuf, tb->capk, nl + fl + 1);
		memcpy(tb->kbuf, name, nl);
		tb->kbuf[nl] = 0;
		if (fl)
			memcpy(tb->kbuf + nl + 1, file, fl);
		y = symtab_intern(tb->fkeys, tb->kbuf, nl + 1 + fl);
		if (y >= tb->nfkey) {
			size_t old = tb->nfkey;

			GROW(tb->fkey, tb->nfkey, (size_t)y + 1);
			memset(tb->fkey + old, 0,
			       (tb->nfkey - old) * sizeof(*tb->fkey));
		}
		if (tb->fkey[y])
			return tb->fkey[y];
		tb->fkey[y] = (uint32_t)k + 1;
	}
	flametop__pprof__function__init(&tb->fn[k]);
	tb->fn[k].id = k + 1;
	tb->fn[k].name = tb->fn[k].system_name = str_of(t, name, nl);
	tb->fn[k].filename = str_of(t, file, fl);
	tb->fnp[k] = &tb->fn[k];
	tb->nfn++;
	return k + 1;
}

/* The mapping id of binary k of src's frames, its mapping made if new. */
static uint64_t mapping_id(struct tables *tb, struct strings *t,
			   const struct frame_locs *fl, uint32_t k)
{
	const struct floc_binary *b = floc_binary_at(fl, k);
	Flametop__Pprof__Mapping *mp;

	if (!b)
		return 0;
	if (tb->mapno[k])
		return tb->mapno[k];
	mp = &tb->map[tb->nmap];
	flametop__pprof__mapping__init(mp);
	mp->id = tb->nmap + 1;
	mp->memory_start = b->start;
	mp->memory_limit = b->limit;
	mp->file_offset = b->offset;
	mp->filename = str_of(t, b->path, b->path_len);
	mp->build_id = str_of(t, b->build_id, b->build_id_len);
	mp->has_functions = true;
	tb->mapp[tb->nmap] = mp;
	tb->mapno[k] = ++tb->nmap;
	return tb->mapno[k];
}

/*
 * Location k + 1 for the frame name y of p: its function and line, its
 * mapping and address where src's frames say (looked up by name when p
 * is a view with names of its own).
 */
static void make_location(struct tables *tb, struct strings *t, size_t k,
			  const struct profile *p, uint32_t y,
			  const struct pprof_source *src)
{
	const struct symtab *sy = profile_symtab(p);
	struct floc_frame f;
	uint32_t x = y;
	bool known = false;

	if (src->locs && src->names != sy)
		x = symtab_find(src->names, symtab_name(sy, y),
				symtab_len(sy, y));
	if (src->locs && x != UINT32_MAX)
		known = floc_get(src->locs, x, &f);
	flametop__pprof__line__init(&tb->line[k]);
	if (known && f.func) {
		tb->line[k].function_id = function_id(tb, t, f.func,
						      f.func_len, f.file,
						      f.file_len, true);
		tb->line[k].line = f.line;
	} else {
		tb->line[k].function_id = function_id(tb, t, symtab_name(sy, y),
						      symtab_len(sy, y), NULL,
						      0, false);
	}
	tb->linep[k] = &tb->line[k];
	flametop__pprof__location__init(&tb->loc[k]);
	tb->loc[k].id = k + 1;
	tb->loc[k].n_line = 1;
	tb->loc[k].line = &tb->linep[k];
	if (known) {
		tb->loc[k].address = f.addr;
		tb->loc[k].mapping_id = mapping_id(tb, t, src->locs, f.binary);
		if (tb->loc[k].mapping_id) {
			Flametop__Pprof__Mapping *mp =
				&tb->map[tb->loc[k].mapping_id - 1];

			mp->has_filenames |= f.file != NULL;
			mp->has_line_numbers |= f.line != 0;
		}
	}
	tb->locp[k] = &tb->loc[k];
}

static void tables_init(struct tables *tb, size_t nloc,
			const struct pprof_source *src)
{
	size_t n = nloc ? nloc : 1, nb = floc_binary_count(src->locs);

	memset(tb, 0, sizeof(*tb));
	tb->fn = xcalloc(n, sizeof(*tb->fn));
	tb->fnp = xcalloc(n, sizeof(*tb->fnp));
	tb->loc = xcalloc(n, sizeof(*tb->loc));
	tb->locp = xcalloc(n, sizeof(*tb->locp));
	tb->line = xcalloc(n, sizeof(*tb->line));
	tb->linep = xcalloc(n, sizeof(*tb->linep));
	tb->map = xcalloc(nb + 1, sizeof(*tb->map));
	tb->mapp = xcalloc(nb + 1, sizeof(*tb->mapp));
	tb->mapno = xcalloc(nb + 1, sizeof(*tb->mapno));
	tb->fkeys = symtab_create();
}

static void tables_free(struct tables *tb)
{
	free(tb->fn);
	free(tb->fnp);
	free(tb->loc);
	free(tb->locp);
	free(tb->line);
	free(tb->linep);
	free(tb->map);
	free(tb->mapp);
	free(tb->mapno);
	free(tb->fkey);
	free(tb->kbuf);
	symtab_destroy(tb->fkeys);
}

int export_pprof(FILE *out, const struct profile *p,
		 const struct pprof_source *src, struct pprof_stats *st)
{
	Flametop__Pprof__Profile m = FLAMETOP__PPROF__PROFILE__INIT;
	Flametop__Pprof__ValueType vt[2], *vtp[2];
	const struct symtab *sy = profile_symtab(p);
	size_t nn = profile_node_count(p), nsym = symtab_count(sy), nloc = 0;
	uint32_t *locid = xcalloc(nsym ? nsym : 1, sizeof(*locid));
	uint64_t *cnt = NULL;
	bool *keep = xcalloc(nn ? nn : 1, sizeof(*keep));
	struct tables tb;
	struct strings t = { 0 };
	struct gz_sink *s = xcalloc(1, sizeof(*s));
	char type[128];
	const char *unit;
	int rc = 0;

	memset(st, 0, sizeof(*st));
	weight_type(src, type, sizeof(type), &unit);
	/* Sample counts are worth a type of their own beside periods only. */
	if (src->unit != UNIT_SAMPLES || (src->unit_name && *src->unit_name &&
					  strcmp(src->unit_name, "samples")))
		if (!src->type)
			cnt = sample_counts(p);
	st->counts = cnt != NULL;

	/* The nodes on a path to a sample, and their names' ids. */
	for (uint32_t n = (uint32_t)nn; n-- > 1;) {
		keep[n] = keep[n] || profile_self(p, n) || (cnt && cnt[n]);
		if (keep[n]) {
			keep[profile_node(p, n)->parent] = true;
			locid[profile_node(p, n)->sym] = 1;
		}
	}
	t.seen = symtab_create();
	GROW(t.s, t.cap, 1);
	t.s[t.n++] = (ProtobufCBinaryData){ 0, NULL };
	for (uint32_t i = 0; i < nsym; i++)
		if (locid[i])
			locid[i] = (uint32_t)++nloc;
	tables_init(&tb, nloc, src);

	if (cnt) {
		flametop__pprof__value_type__init(&vt[m.n_sample_type]);
		vt[m.n_sample_type].type = str_of(&t, "samples", 7);
		vt[m.n_sample_type].unit = str_of(&t, "count", 5);
		vtp[m.n_sample_type] = &vt[m.n_sample_type];
		m.n_sample_type++;
	}
	flametop__pprof__value_type__init(&vt[m.n_sample_type]);
	vt[m.n_sample_type].type = str_of(&t, type, strlen(type));
	vt[m.n_sample_type].unit = str_of(&t, unit, strlen(unit));
	m.default_sample_type = vt[m.n_sample_type].type;
	vtp[m.n_sample_type] = &vt[m.n_sample_type];
	m.n_sample_type++;
	m.sample_type = vtp;

	for (uint32_t i = 0; i < nsym; i++)
		if (locid[i])
			make_location(&tb, &t, locid[i] - 1, p, i, src);
	m.n_function = tb.nfn;
	m.function = tb.fnp;
	m.n_location = nloc;
	m.location = tb.locp;
	m.n_mapping = tb.nmap;
	m.mapping = tb.mapp;
	m.duration_nanos = sample_span(p);
	m.n_string_table = t.n;
	m.string_table = t.s;
	st->locations = nloc;
	st->mappings = tb.nmap;

	s->base.append = gz_append;
	s->out = out;
	/* 15 + 16: a gzip header and trailer around the deflate stream;
	 * the fastest level: 2 s less on a 300k-stack profile, 8% larger. */
	if (deflateInit2(&s->z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		fatal("zlib: cannot start compressing");
	flametop__pprof__profile__pack_to_buffer(&m, &s->base);
	write_samples(s, p, cnt, locid, keep, st);
	s->z.avail_in = 0;
	if (!s->failed)
		gz_run(s, Z_FINISH);
	deflateEnd(&s->z);
	rc = s->failed || ferror(out) ? -1 : 0;
	free(s);
	free(t.s);
	symtab_destroy(t.seen);
	tables_free(&tb);
	free(keep);
	free(locid);
	free(cnt);
	return rc;
}
