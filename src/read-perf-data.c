/*
 * read-perf-data.c - perf.data files, in file mode and pipe mode.
 *
 * File mode: a 104-byte header points at the attrs (each with its ids),
 * the data section (the records) and, after the data, a table of feature
 * sections (build-ids, event names, ...).  Pipe mode (`perf record -o -`):
 * a 16-byte header, then records only; attrs and features come as
 * HEADER_ATTR and HEADER_FEATURE records.  Both are read from memory.
 *
 * Reading is two passes.  The first walks the records in file order:
 * metadata records (attrs, features, event names) take effect at once,
 * PERF_RECORD_COMPRESSED payloads are unpacked (zstd) and walked in turn,
 * and every kernel record is put in an index with its timestamp.  The
 * index is then sorted by time (per-CPU buffers are written one after the
 * other, so a child's first samples may come before its parent's FORK),
 * and the second pass feeds the records in time order to the tracker and
 * the samples of the chosen event to the profile.  A large file is first
 * read with both passes at once (read_in_order, perf-order.h), and again
 * in two if that does not go through.
 *
 * Nothing in the file is trusted: every offset and size is checked against
 * the bytes there are; a bad record ends the walk with a message and what
 * was read so far is kept.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>

#include "perf-event.h"
#include "perf-order.h"
#include "profile-addr.h"
#include "read.h"
#include "symbols.h"
#include "util.h"

#define HEADER_SIZE 104
#define FEAT_BUILD_ID 2
#define FEAT_OSRELEASE 4
#define FEAT_EVENT_DESC 12
#define FEAT_DIR_FORMAT 24
#define FEAT_LAST 32
#define EVENT_UPDATE_NAME 2

struct pdata {
	struct profile *p;
	const struct read_opts *o;
	struct diag *d;
	const char *name;
	struct pe_evlist *el;
	struct symbolizer *sy;
	struct pe_machine *m;
	struct pe_ref *idx;
	size_t nidx, capidx, nsamples;  /* nsamples: sample records indexed */
	uint64_t last_time;
	bool unsorted;
	/* zstd */
	ZSTD_DStream *zs;
	unsigned char **bufs;
	size_t nbufs, capbufs;
	unsigned char *pending;
	size_t npending;
	uint64_t unpacked, unpack_limit;
	/* results */
	const struct pe_event *chosen;
	uint64_t samples, other_samples, bad;
	bool stop;
};

static void bad_record(struct pdata *pd, uint64_t off, const char *why)
{
	pd->bad++;
	diag_skip(pd->d, DIAG_RECORD, 1, pd->name, "record at byte %llu: %s",
		  (unsigned long long)off, why);
}

/* ---- Features ------------------------------------------------------------ */

/* A perf string {u32 len; char[len]} at *p; advances. */
static bool get_str(const unsigned char **p, const unsigned char *end,
		    const char **s, size_t *len)
{
	uint32_t n;

	if ((size_t)(end - *p) < 4)
		return false;
	n = pe_load32(*p);
	if (n > (size_t)(end - *p) - 4)
		return false;
	*s = (const char *)*p + 4;
	*len = strnlen(*s, n);
	*p += 4 + (size_t)n;
	return true;
}

static void feat_build_id(struct pdata *pd, const unsigned char *p,
			  size_t len)
{
	const unsigned char *end = p + len;

	while ((size_t)(end - p) >= 8 + 4 + 24) {
		uint16_t misc, size;
		const unsigned char *bid = p + 12;
		const char *fn = (const char *)p + 36;
		size_t blen = 20, fnlen;

		memcpy(&misc, p + 4, 2);
		memcpy(&size, p + 6, 2);
		if (size < 36 || size > (size_t)(end - p))
			break;
		if (misc & 0x8000)
			blen = bid[20] > 20 ? 20 : bid[20];
		fnlen = strnlen(fn, size - 36u);
		if (fnlen == 17 && memcmp(fn, "[kernel.kallsyms]", 17) == 0)
			sym_set_kernel_build_id(pd->sy, bid, blen);
		else if (fnlen)
			sym_add_build_id(pd->sy, fn, fnlen, bid, blen);
		p += size;
	}
}

static void feat_event_desc(struct pdata *pd, const unsigned char *p,
			    size_t len)
{
	const unsigned char *end = p + len;
	uint32_t nr, asz;

	if (len < 8)
		return;
	nr = pe_load32(p);
	asz = pe_load32(p + 4);
	p += 8;
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t nids;
		const char *name;
		size_t nlen;
		struct pe_event *ev = NULL;

		if (asz > (size_t)(end - p) || (size_t)(end - p) - asz < 4)
			return;
		p += asz;
		nids = pe_load32(p);
		p += 4;
		if (!get_str(&p, end, &name, &nlen))
			return;
		if (nids > (size_t)(end - p) / 8)
			return;
		if (nids)
			ev = pe_evlist_by_id(pd->el, pe_load64(p));
		if (!ev)
			ev = pe_evlist_at(pd->el, i);
		if (ev)
			pe_event_set_name(ev, name, nlen);
		p += (size_t)nids * 8;
	}
}

static void feature(struct pdata *pd, unsigned id, const unsigned char *p,
		    size_t len)
{
	switch (id) {
	case FEAT_BUILD_ID:
		feat_build_id(pd, p, len);
		break;
	case FEAT_EVENT_DESC:
		feat_event_desc(pd, p, len);
		break;
	case FEAT_OSRELEASE: {
		const char *s;
		size_t n;

		if (get_str(&p, p + len, &s, &n))
			sym_set_kernel_release(pd->sy, s, n);
		break;
	}
	default:
		break;
	}
}

/* ---- First pass: walk and index ------------------------------------------ */

/* rec: where to read the record now; keep: where the second pass will. */
static void index_record(struct pdata *pd, const unsigned char *rec,
			 const unsigned char *keep, size_t len)
{
	uint64_t before = pd->last_time;
	struct pe_ref *ref;

	if (pe_evlist_order_time(pd->el, rec, len, &pd->last_time) < before)
		pd->unsorted = true;
	if (pd->nidx == pd->capidx) {
		/* A mapping: grown without copying, in huge pages. */
		size_t old = pd->capidx;

		pd->capidx = old ? old * 2 : 4096;
		ARR_GROW(pd->idx, old, pd->capidx);
	}
	ref = &pd->idx[pd->nidx];
	ref->time = pd->last_time;
	ref->rec = keep;
	pd->nidx++;
	pd->nsamples += pe_load32(rec) == PERF_RECORD_SAMPLE;
}

/*
 * Room for the index of len bytes of records, as one array from the start
 * (each doubling below 256 KB costs page faults): records with callchains
 * take 64 bytes and more.  Only what is written is ever touched.
 */
#define INDEX_BYTES_PER_RECORD 64
#define INDEX_RESERVE_MAX ((size_t)16 << 20)

static void reserve_index(struct pdata *pd, size_t len)
{
	size_t n = len / INDEX_BYTES_PER_RECORD;

	if (n > INDEX_RESERVE_MAX)
		n = INDEX_RESERVE_MAX;
	if (n <= pd->capidx)
		return;
	ARR_GROW(pd->idx, pd->capidx, n);
	pd->capidx = n;
}

static size_t walk(struct pdata *pd, const unsigned char *buf, size_t len,
		   uint64_t base, bool packed);

/*
 * The kernel's map comes first in the data: at it, start reading kallsyms
 * beside the rest of the reading.
 */
static void preload_kernel(struct pdata *pd, const unsigned char *rec,
			   size_t size)
{
	if (pe_load32(rec) == PERF_RECORD_MMAP && size > 48 &&
	    pe_load32(rec + 8) == UINT32_MAX &&
	    memmem(rec + 40, size - 40u, "[kernel.kallsyms]", 17))
		sym_preload_kernel(pd->sy);
}

/*
 * A record of one of the kernel's types (below PE_HEADER_ATTR), read at
 * rec and kept at keep: into the index.
 */
static void index_plain(struct pdata *pd, const unsigned char *rec,
			const unsigned char *keep, size_t size)
{
	index_record(pd, rec, keep, size);
	preload_kernel(pd, rec, size);
}

/* Unpack a COMPRESSED record's zstd bytes and walk the records inside. */
static void unpack(struct pdata *pd, const unsigned char *z, size_t zlen,
		   uint64_t off)
{
	unsigned char *out;
	size_t cap, n;
	ZSTD_inBuffer in = { z, zlen, 0 };

	if (!pd->zs) {
		pd->zs = ZSTD_createDStream();
		if (!pd->zs || ZSTD_isError(ZSTD_initDStream(pd->zs))) {
			diag_warn(pd->d, "%s: cannot start zstd", pd->name);
			pd->stop = true;
			return;
		}
	}
	cap = pd->npending + zlen * 4 + 4096;
	out = xmalloc(cap);
	if (pd->npending)
		memcpy(out, pd->pending, pd->npending);
	n = pd->npending;
	for (bool full = true; in.pos < in.size || full;) {
		ZSTD_outBuffer ob;
		size_t r;

		while (cap - n < 65536) {
			if (pd->unpacked + cap > pd->unpack_limit) {
				diag_warn(pd->d, "%s: compressed records unpack "
					  "to more than %llu MB; the rest is "
					  "skipped", pd->name,
					  (unsigned long long)(pd->unpack_limit >> 20));
				free(out);
				pd->stop = true;
				return;
			}
			cap *= 2;
			out = xrealloc(out, cap);
		}
		ob.dst = out;
		ob.size = cap;
		ob.pos = n;
		r = ZSTD_decompressStream(pd->zs, &ob, &in);
		if (ZSTD_isError(r)) {
			bad_record(pd, off, "corrupt zstd data in a compressed "
					    "record");
			free(out);
			pd->stop = true;
			return;
		}
		/* A full output buffer may leave bytes inside zstd. */
		full = ob.pos == ob.size;
		if (ob.pos == n && in.pos < in.size && !full)
			break;  /* no progress */
		n = ob.pos;
	}
	pd->unpacked += n;
	GROW(pd->bufs, pd->capbufs, pd->nbufs + 1);
	pd->bufs[pd->nbufs++] = out;
	{
		size_t used = walk(pd, out, n, off, true);

		free(pd->pending);
		pd->pending = NULL;
		pd->npending = n - used;
		if (pd->npending) {
			pd->pending = xmalloc(pd->npending);
			memcpy(pd->pending, out + used, pd->npending);
		}
	}
}

/*
 * What the walk says when the data ends in stray bytes (fewer than a
 * record header) or in a record cut short.
 */
static void short_end(struct pdata *pd, size_t stray, bool cut)
{
	if (cut)
		diag_warn(pd->d, "%s: truncated: the last record is cut short "
			  "(the file was not written completely)", pd->name);
	else if (stray)
		diag_warn(pd->d, "%s: truncated: %zu stray bytes at the end of "
			  "the data", pd->name, stray);
}

/*
 * Walk the records in buf[0..len) (base: their offset in the file, for
 * messages), at most max of them.  In packed data (unpacked from
 * COMPRESSED) a record may continue in the next chunk: returns how many
 * bytes were used.
 */
static size_t walk_some(struct pdata *pd, const unsigned char *buf,
			size_t len, uint64_t base, bool packed, size_t max)
{
	size_t off = 0;

	for (size_t n = 0; n < max && off < len && !pd->stop; n++) {
		struct perf_event_header h;
		size_t left = len - off;
		const unsigned char *rec = buf + off;
		size_t extra = 0;

		if (left < sizeof(h)) {
			if (!packed)
				short_end(pd, left, false);
			return off;
		}
		memcpy(&h, rec, sizeof(h));
		if (h.size < sizeof(h)) {
			bad_record(pd, base + off, "record size smaller than "
						   "its header; the rest of "
						   "the data is skipped");
			pd->stop = true;
			return off;
		}
		if (h.size > left) {
			if (!packed)
				short_end(pd, 0, true);
			return off;
		}
		switch (h.type) {
		case PE_HEADER_ATTR: {
			uint32_t asz;

			if (h.size < 8 + PERF_ATTR_SIZE_VER0) {
				bad_record(pd, base + off, "attr record too short");
				break;
			}
			asz = pe_load32(rec + 8 + 4);
			if (asz < PERF_ATTR_SIZE_VER0 || asz > h.size - 8u)
				asz = h.size - 8u;
			if (!pe_evlist_add(pd->el, rec + 8, asz,
					   (const uint64_t *)NULL, 0))
				break;
			pe_evlist_add_ids(pd->el,
					  pe_evlist_at(pd->el,
						       pe_evlist_count(pd->el) - 1),
					  rec + 8 + asz, (h.size - 8u - asz) / 8);
			break;
		}
		case PE_HEADER_FEATURE:
			if (h.size >= 16) {
				uint64_t id = pe_load64(rec + 8);

				if (id < FEAT_LAST)
					feature(pd, (unsigned)id, rec + 16,
						h.size - 16u);
			}
			break;
		case PE_EVENT_UPDATE:
			if (h.size >= 24 && pe_load64(rec + 8) == EVENT_UPDATE_NAME) {
				struct pe_event *ev =
					pe_evlist_by_id(pd->el, pe_load64(rec + 16));

				if (ev)
					pe_event_set_name(ev, (const char *)rec + 24,
							  h.size - 24u);
			}
			break;
		case PE_TRACING_DATA:
			if (h.size >= 12)
				extra = pe_load32(rec + 8);
			break;
		case PE_AUXTRACE:
			if (h.size >= 16)
				extra = pe_load64(rec + 8);
			break;
		case PE_COMPRESSED:
			if (packed) {
				bad_record(pd, base + off, "compressed record "
							   "inside compressed data");
				break;
			}
			unpack(pd, rec + 8, h.size - 8u, base + off);
			break;
		case PE_FINISHED_ROUND:
			break;
		default:
			if (h.type < PE_HEADER_ATTR)
				index_plain(pd, rec, rec, h.size);
			break;
		}
		if (extra > left - h.size) {
			diag_warn(pd->d, "%s: truncated: the data after a "
				  "tracing/auxtrace record is cut short",
				  pd->name);
			return len;
		}
		off += h.size + extra;
	}
	return off;
}

static size_t walk(struct pdata *pd, const unsigned char *buf, size_t len,
		   uint64_t base, bool packed)
{
	return walk_some(pd, buf, len, base, packed, SIZE_MAX);
}

/*
 * The first pass over a mapped file's data[0..len) (at base in the file
 * behind fd), read with pread into a buffer.  Touching a page of a
 * mapping the first time is slow on a VM (about 2 us for 4 KB, 14 ms for
 * a 30 MB file, however the mapping was made); pread copies the same
 * bytes from the page cache in two thirds of that, into a buffer that
 * stays in the cache.  The index still points into the mapping, where
 * the second pass reads the samples (and the hashing thread, ahead of
 * it, touches them first).  The kernel's records are indexed from the
 * buffer; any other record, and one cut short, goes through walk from
 * the mapping, so the two walks do and say the same.
 */
#define WALK_CHUNK ((size_t)128 << 10)

static void walk_file(struct pdata *pd, int fd, const unsigned char *data,
		      size_t len, uint64_t base)
{
	unsigned char *buf = xmalloc(WALK_CHUNK);
	size_t pos = 0;

	while (pos < len && !pd->stop) {
		size_t want = len - pos < WALK_CHUNK ? len - pos : WALK_CHUNK;
		size_t have = pread_full(fd, buf, want, base + pos), off = 0;

		if (have < want)
			break;          /* the rest from the mapping */
		while (off < have && have - off >= 8 && !pd->stop) {
			struct perf_event_header h;
			size_t used;

			memcpy(&h, buf + off, sizeof(h));
			if (h.size < sizeof(h) || h.size > have - off)
				break;
			if (h.type < PE_HEADER_ATTR) {
				index_plain(pd, buf + off, data + pos + off,
					    h.size);
				off += h.size;
				continue;
			}
			/*
			 * Rounds, attrs, compressed and AUXTRACE records (whose
			 * data may run past the chunk): as walk reads them.
			 */
			used = walk_some(pd, data + pos + off, len - pos - off,
					 base + pos + off, false, 1);
			if (!used) {
				pos = len;      /* cut short: walk said so */
				off = 0;
				break;
			}
			off += used;
		}
		if (pos == len)
			break;
		if (!off) {
			off = walk_some(pd, data + pos, len - pos, base + pos,
					false, 1);
			if (!off) {
				pos = len;      /* cut short: walk said so */
				break;
			}
		}
		pos += off;
	}
	free(buf);
	if (pos < len && !pd->stop)
		walk(pd, data + pos, len - pos, base + pos, false);
}

/* ---- Second pass --------------------------------------------------------- */

static bool name_matches(const char *name, const char *want)
{
	size_t n;

	if (!name)
		return false;
	if (strcmp(name, want) == 0)
		return true;
	n = strcspn(name, ":");
	return strlen(want) == n && memcmp(name, want, n) == 0;
}

/*
 * Sort the index by time, keeping file order among equal times
 * (pe_sort_refs).  The records before the first timed one (perf's
 * synthesized maps) have time 0.  They take the smallest time of the
 * others, before which they stay (the sort keeps file order), so that the
 * radix digits span the recording, not the time since boot.  (If a later
 * record has time 0 too, that smallest time is 0: nothing changes.)
 */
static void sort_index(struct pdata *pd)
{
	size_t n = pd->nidx, first = 0;
	struct pe_ref *a = pd->idx, *tmp = NULL, *sorted;
	uint64_t lo = UINT64_MAX;

	while (first < n && a[first].time == 0)
		first++;
	for (size_t i = first; i < n; i++)
		lo = a[i].time < lo ? a[i].time : lo;
	if (first < n)
		for (size_t i = 0; i < first; i++)
			a[i].time = lo;
	ARR_GROW(tmp, 0, n);
	sorted = pe_sort_refs(a, tmp, n);
	if (sorted != pd->idx) {
		/* The sorted copy becomes the index. */
		ARR_FREE(pd->idx, pd->capidx);
		pd->idx = sorted;
		pd->capidx = n;
	} else {
		ARR_FREE(tmp, n);
	}
}

/*
 * Hashing ahead.  Much of the second pass goes to finding each sample's
 * stack again in the stack cache: reading the record for the first time
 * since the sort, and hashing its chain.  Both depend on the record alone,
 * so a second thread goes through the sorted index ahead of the pass and
 * puts each sample's chain hash (pe_sample_chain_hash) where the entry's
 * time was; the pass reads no time from the index.  The pass takes the
 * hashes below `done` and works out the others itself, so what it adds
 * does not depend on whether the thread ran or kept up.  A thread that
 * falls behind the pass stops.
 */
#define AHEAD_MIN 16384         /* fewer records: no thread */
#define AHEAD_CHUNK 256         /* entries between the two sides' looks */
#define AHEAD_PREFETCH 8        /* slots loaded this far ahead of use */
/*
 * Records loaded this far ahead of use, in the ordered read: the ordering
 * thread read them last, on the other core.
 */
#define RECORD_AHEAD 4

struct ahead {
	struct pdata *pd;
	pthread_t thread;
	bool on;
	size_t chunk;           /* AHEAD_CHUNK; 4 under FLAMETOP_BATCH_BYTES */
	size_t lead;            /* the pass waits until done reaches it */
	size_t done;            /* atomic: entries below hold their hash */
	size_t at;              /* atomic: where the pass is */
};

static void *ahead_thread(void *arg)
{
	struct ahead *a = arg;
	struct pe_ref *idx = a->pd->idx;
	size_t n = a->pd->nidx;

	for (size_t i = 0; i < n; i++) {
		if (i % a->chunk == 0) {
			__atomic_store_n(&a->done, i, __ATOMIC_RELEASE);
			if (__atomic_load_n(&a->at, __ATOMIC_RELAXED) >
			    i + a->chunk)
				return NULL;
		}
		idx[i].time = pe_record_chain_hash(a->pd->el, idx[i].rec);
	}
	__atomic_store_n(&a->done, n, __ATOMIC_RELEASE);
	return NULL;
}

static void ahead_start(struct ahead *a, struct pdata *pd)
{
	bool set, small;

	a->pd = pd;
	a->on = false;
	a->done = a->at = 0;
	if (read_thread_count(2, &set) < 2 || (!set && pd->nidx < AHEAD_MIN))
		return;
	/*
	 * Tests set FLAMETOP_THREADS (the hand-over then happens in small
	 * files too) and FLAMETOP_BATCH_BYTES: small pieces, and the pass
	 * lets the thread take the lead first (else the pass, quick on a few
	 * records, is always ahead of a thread that has just started).
	 */
	small = read_test_batch_bytes() > 0;
	a->chunk = small ? 4 : AHEAD_CHUNK;
	a->lead = small ? pd->nidx / 2 : 0;
	a->on = pthread_create(&a->thread, NULL, ahead_thread, a) == 0;
	while (a->on && __atomic_load_n(&a->done, __ATOMIC_ACQUIRE) < a->lead)
		sched_yield();
}

static void ahead_stop(struct ahead *a)
{
	if (!a->on)
		return;
	__atomic_store_n(&a->at, SIZE_MAX, __ATOMIC_RELAXED);
	pthread_join(a->thread, NULL);
}

/* A decoded sample of event ev (hash: its chain's, 0 if not known). */
static void take_sample(struct pdata *pd, const struct pe_event *ev,
			const struct pe_sample *s, uint64_t hash)
{
	if (!pd->chosen && !pd->o->event_filter)
		pd->chosen = ev;
	if (ev != pd->chosen) {
		pd->other_samples++;
		return;
	}
	if (pe_machine_add_sample_hashed(pd->m, s, pe_sample_weight(ev, s),
					 hash) == ADD_OK)
		pd->samples++;
}

/*
 * One record of the second pass (hash: its chain's, 0 if not known).
 * NULL, or what is wrong with it.
 */
static const char *take(struct pdata *pd, const unsigned char *rec,
			uint64_t hash)
{
	struct perf_event_header h;
	const struct pe_event *ev;
	struct pe_record r;
	const char *why;

	memcpy(&h, rec, sizeof(h));
	ev = pe_evlist_for_record(pd->el, rec, h.size);
	if (pe_decode(rec, h.size, ev ? &ev->fmt : NULL, &r, &why) < 0)
		return why;
	if (r.type == PERF_RECORD_SAMPLE) {
		take_sample(pd, ev, &r.u.sample, hash);
		return NULL;
	}
	if ((r.type == PERF_RECORD_MMAP || r.type == PERF_RECORD_MMAP2) &&
	    r.u.mmap.pid == UINT32_MAX) {
		/* Kernel and modules: kallsyms resolves them. */
		if (r.u.mmap.filename_len >= 17 &&
		    memcmp(r.u.mmap.filename, "[kernel.kallsyms]", 17) == 0) {
			sym_preload_kernel(pd->sy);
			sym_set_kernel_text(pd->sy, r.u.mmap.pgoff);
			sym_set_kernel_map(pd->sy, r.u.mmap.start,
					   r.u.mmap.len);
		}
		return NULL;
	}
	pe_machine_apply(pd->m, &r);
	return NULL;
}

static void process(struct pdata *pd)
{
	struct ahead ahead;
	size_t done = 0;

	if (pd->unsorted)
		sort_index(pd);
	ahead_start(&ahead, pd);
	for (size_t i = 0; i < pd->nidx; i++) {
		const unsigned char *rec = pd->idx[i].rec;
		const char *why;

		if (ahead.on && i % ahead.chunk == 0) {
			__atomic_store_n(&ahead.at, i, __ATOMIC_RELAXED);
			done = __atomic_load_n(&ahead.done, __ATOMIC_ACQUIRE);
		}
		if (i + AHEAD_PREFETCH < done)
			pe_machine_prefetch(pd->m,
					    pd->idx[i + AHEAD_PREFETCH].time);
		why = take(pd, rec, i < done ? pd->idx[i].time : 0);
		if (why) {
			pd->bad++;
			diag_skip(pd->d, DIAG_RECORD, 1, pd->name,
				  "record of type %u: %s", pe_load32(rec), why);
		}
	}
	ahead_stop(&ahead);
}

/* ---- Headers ---------------------------------------------------------------- */

static bool section_ok(uint64_t off, uint64_t size, size_t len)
{
	return off <= len && size <= len - off;
}

/* File mode: attrs, features; returns the data section's bounds. */
static int file_header(struct pdata *pd, const unsigned char *b, size_t len,
		       uint64_t *doff, uint64_t *dsize)
{
	uint64_t hsize, asz, aoff, alen;
	uint64_t flags[4];

	if (len < HEADER_SIZE) {
		diag_warn(pd->d, "%s: truncated perf.data header (%zu bytes)",
			  pd->name, len);
		return -1;
	}
	hsize = pe_load64(b + 8);
	asz = pe_load64(b + 16);
	aoff = pe_load64(b + 24);
	alen = pe_load64(b + 32);
	*doff = pe_load64(b + 40);
	*dsize = pe_load64(b + 48);
	memcpy(flags, b + 72, sizeof(flags));
	if (hsize < HEADER_SIZE) {
		diag_warn(pd->d, "%s: not a perf.data file flametop can read "
			  "(header of %llu bytes)", pd->name,
			  (unsigned long long)hsize);
		return -1;
	}
	if (asz < PERF_ATTR_SIZE_VER0 + 16 || !section_ok(aoff, alen, len)) {
		diag_warn(pd->d, "%s: corrupt perf.data header (attribute "
			  "section)", pd->name);
		return -1;
	}
	for (uint64_t a = 0; a + asz <= alen; a += asz) {
		const unsigned char *at = b + aoff + a;
		uint64_t ioff = pe_load64(at + asz - 16), isz = pe_load64(at + asz - 8);
		struct pe_event *ev = pe_evlist_add(pd->el, at, asz - 16, NULL,
						    0);

		if (ev && section_ok(ioff, isz, len))
			pe_evlist_add_ids(pd->el, ev, b + ioff, isz / 8);
	}
	if (pe_evlist_count(pd->el) == 0) {
		diag_warn(pd->d, "%s: perf.data without any event", pd->name);
		return -1;
	}
	if (*doff > len) {
		diag_warn(pd->d, "%s: truncated: the data section starts past "
			  "the end of the file", pd->name);
		return -1;
	}
	if (*dsize == 0 || *dsize > len - *doff) {
		diag_warn(pd->d, "%s: the file was not closed properly "
			  "(perf record killed?): reading what is there",
			  pd->name);
		*dsize = len - *doff;
		return 0;
	}
	if (flags[FEAT_DIR_FORMAT / 64] & (1ULL << (FEAT_DIR_FORMAT % 64))) {
		diag_warn(pd->d, "%s: perf.data directories (perf record "
			  "--threads) are not supported", pd->name);
		return -1;
	}
	/* The feature table follows the data: one section per set bit. */
	{
		uint64_t t = *doff + *dsize;
		unsigned k = 0;

		for (unsigned bit = 0; bit < 256; bit++) {
			uint64_t foff, fsz;

			if (!(flags[bit / 64] & (1ULL << (bit % 64))))
				continue;
			if (!section_ok(t + 16ULL * k, 16, len))
				break;
			foff = pe_load64(b + t + 16 * k);
			fsz = pe_load64(b + t + 16 * k + 8);
			k++;
			if (section_ok(foff, fsz, len) && bit < FEAT_LAST)
				feature(pd, bit, b + foff, fsz);
		}
	}
	return 0;
}

static const char *event_name(const struct pe_event *ev)
{
	return ev && ev->name ? ev->name : "(unnamed event)";
}

static int pick_event(struct pdata *pd)
{
	const char *want = pd->o->event_filter;

	if (!want)
		return 0;
	for (size_t i = 0; i < pe_evlist_count(pd->el); i++) {
		struct pe_event *ev = pe_evlist_at(pd->el, i);

		if (name_matches(ev->name, want)) {
			pd->chosen = ev;
			return 0;
		}
	}
	{
		char list[512];
		size_t n = 0;

		list[0] = 0;
		for (size_t i = 0; i < pe_evlist_count(pd->el) && n < 400; i++)
			n += (size_t)snprintf(list + n, sizeof(list) - n,
					      "%s%s", i ? ", " : "",
					      event_name(pe_evlist_at(pd->el, i)));
		diag_warn(pd->d, "%s: no event named \"%s\" (events: %s)",
			  pd->name, want, list);
	}
	return -1;
}

/*
 * cpu-clock and task-clock sampled with periods, or with a fixed period
 * (-c N): weights are ns of CPU.
 */
static bool clock_event(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_CPU_CLOCK ||
		a->config == PERF_COUNT_SW_TASK_CLOCK) &&
	       ((a->sample_type & PERF_SAMPLE_PERIOD) ||
		(!a->freq && a->sample_period));
}

/*
 * A file with several named events lists them for the TUI's next-type key
 * (the first input only), the one shown current.
 */
static void note_events(struct pdata *pd)
{
	struct pprof_types *t = pd->o->types;
	size_t n = pe_evlist_count(pd->el);

	if (!t || t->n || n < 2)
		return;
	for (size_t i = 0; i < n && t->n < PPROF_MAX_TYPES; i++) {
		const struct pe_event *ev = pe_evlist_at(pd->el, i);

		if (!ev->name)
			continue;
		if (ev == pd->chosen)
			t->cur = t->n;
		snprintf(t->name[t->n], sizeof(t->name[0]), "%s", ev->name);
		snprintf(t->unit[t->n], sizeof(t->unit[0]), "%s",
			 clock_event(&ev->attr) ? "CPU time" : "count");
		t->n++;
	}
	t->events = t->n > 1;
	if (!t->events)
		t->n = 0;
}

/*
 * What the weights of event ev count: CPU time for a clock; the events
 * when they count events (a period in each sample, or a fixed one):
 * "page-faults", "cycles", "sched:sched_switch events"; else samples.
 */
static void note_event_unit(struct profile *p, const struct pe_event *ev)
{
	char buf[160] = "";
	const char *name = ev && ev->name ? ev->name : NULL;

	if (ev && clock_event(&ev->attr)) {
		profile_note_unit(p, UNIT_NS);
		return;
	}
	if (name && ((ev->attr.sample_type & PERF_SAMPLE_PERIOD) ||
		     (!ev->attr.freq && ev->attr.sample_period)))
		pe_event_unit(name, strlen(name),
			      ev->attr.type == PERF_TYPE_TRACEPOINT, buf,
			      sizeof(buf));
	profile_note_unit_named(p, UNIT_SAMPLES, buf);
}

/* WALK_FILE_MIN bytes and more of a mapped file: walk_file. */
#define WALK_FILE_MIN ((size_t)4 << 20)

static void walk_data(struct pdata *pd, struct input *in, const void *owned,
		      const unsigned char *data, size_t len, uint64_t base)
{
	int fd = owned ? -1 : input_map_fd(in);

	if (fd >= 0 && len >= WALK_FILE_MIN)
		walk_file(pd, fd, data, len, base);
	else
		walk(pd, data, len, base, false);
}

/*
 * After the first pass: the checks, then a machine for the second, with
 * room for the timeline of nsamples samples.  -1: nothing to read.
 */
static int prepare(struct pdata *pd, size_t nsamples)
{
	if (pe_evlist_count(pd->el) == 0) {
		diag_warn(pd->d, "%s: no event attributes in the stream",
			  pd->name);
		return -1;
	}
	if (pick_event(pd) < 0)
		return -1;
	profile_reserve_timed(pd->p, nsamples);
	pd->m = pe_machine_create(pd->sy, pd->p, pd->o);
	pe_machine_keep_exited(pd->m, true);
	/* perf record -k 1 (-k mono): the jitdumps' clock.  (One recording
	   has one clock: the first event's, when none is chosen yet.) */
	{
		const struct pe_event *ev = pd->chosen ? pd->chosen
					    : pe_evlist_at(pd->el, 0);

		pe_machine_jit_times(pd->m, ev->attr.use_clockid &&
				     ev->attr.clockid == CLOCK_MONOTONIC);
	}
	pe_machine_cache_stacks(pd->m);
	return 0;
}

/*
 * Both passes at once (perf-order.h): a second thread reads the data and
 * hands on its records in time order while this one takes them.  For a
 * file's data (pipe mode has its attrs among the records) of
 * WALK_FILE_MIN bytes and more, read into a new profile (so that the
 * reader can start over).  False, with pd and the profile as they were,
 * if the thread gave up on the file or a record does not decode: the two
 * passes then read it, and say what is wrong in the order they find it.
 */
static bool read_in_order(struct pdata *pd, struct input *in,
			  const void *owned, const unsigned char *file,
			  size_t flen, uint64_t base, size_t len,
			  const struct sym_opts *so)
{
	bool set, ok = true;
	struct perf_order *po;
	const struct po_rec *b;
	struct pe_sample s = { 0 };    /* what po_sample_expand leaves zero */
	struct diag *d = pd->d, again;
	struct po_end end;
	uint64_t doff, dsize;
	size_t n;

	/* (The data may name events: --event-filter waits for the walk.) */
	if (read_thread_count(2, &set) < 2 || (!set && len < WALK_FILE_MIN) ||
	    !profile_is_new(pd->p) || pe_evlist_count(pd->el) == 0 ||
	    pd->o->event_filter)
		return false;
	/* The kernel's map (the first records): kallsyms read meanwhile. */
	for (size_t off = 0, k = 0; k < 64 && len - off >= 8; k++) {
		size_t size = pe_load16(file + base + off + 6);

		if (size < 8 || size > len - off)
			break;
		preload_kernel(pd, file + base + off, size);
		off += size;
	}
	/* Tests set FLAMETOP_BATCH_BYTES: small batches, many hand-overs. */
	po = po_start(owned ? -1 : input_map_fd(in), file + base, len, base,
		      pd->el, read_test_batch_bytes() ? 3 : 0);
	if (!po)
		return false;
	prepare(pd, len / INDEX_BYTES_PER_RECORD < INDEX_RESERVE_MAX
			    ? len / INDEX_BYTES_PER_RECORD : INDEX_RESERVE_MAX);
	while (ok && (b = po_next(po, &n))) {
		for (size_t i = 0; i < n && ok; i++) {
			if (i + AHEAD_PREFETCH < n)
				pe_machine_prefetch(pd->m,
						    b[i + AHEAD_PREFETCH].hash);
			if (i + RECORD_AHEAD < n) {
				/* A sample's header, ids, time and chain start. */
				__builtin_prefetch(b[i + RECORD_AHEAD].rec);
				__builtin_prefetch(b[i + RECORD_AHEAD].rec + 64);
			}
			if (b[i].s.has) {     /* decoded by the thread */
				po_sample_expand(&b[i], &s);
				take_sample(pd, b[i].ev, &s, b[i].hash);
			} else
				ok = !take(pd, b[i].rec, b[i].hash);
		}
	}
	if (po_finish(po, &end) && ok) {
		short_end(pd, end.stray, end.cut);
		walk(pd, end.updates, end.nupdates, 0, false);
		free(end.updates);
		return true;
	}
	free(end.updates);
	/*
	 * Start over: the header read again into a new symbolizer and event
	 * list, its messages (given the first time) dropped.
	 */
	pe_machine_destroy(pd->m);
	pd->m = NULL;
	sym_destroy(pd->sy);
	pe_evlist_destroy(pd->el);
	pd->sy = sym_create(so);
	pd->el = pe_evlist_create();
	profile_renew(pd->p);
	pd->chosen = NULL;
	pd->samples = pd->other_samples = pd->bad = 0;
	diag_init(&again);
	pd->d = &again;
	file_header(pd, file, flen, &doff, &dsize);
	pd->d = d;
	diag_free(&again);
	return false;
}

static void release_sym(void *sy)
{
	sym_destroy(sy);
}

int read_perf_data(struct profile *p, struct input *in,
		   const struct read_opts *o, struct diag *d)
{
	struct pdata pd = { 0 };
	struct sym_opts so;
	char *dir = NULL;
	size_t len;
	void *owned;
	uint64_t doff = 0, dsize = 0, before[DIAG_UNITS];
	const unsigned char *b;
	int rc = -1;

	memcpy(before, d->nbad, sizeof(before));
	b = read_whole(in, &len, &owned, d);
	if (!b)
		return -1;
	sym_default_opts(&so);
	if (o->kallsyms)
		so.kallsyms = o->kallsyms;
	if (o->symfs)
		so.root = o->symfs;
	pd.p = p;
	pd.o = o;
	pd.d = d;
	pd.name = input_name(in);
	if (len < 16) {
		diag_warn(d, "%s: truncated perf.data (%zu bytes)", pd.name,
			  len);
		free(owned);
		return -1;
	}
	if (memcmp(b, "2ELIFREP", 8) == 0) {
		diag_warn(d, "%s: perf.data written on a machine of the other "
			  "byte order is not supported", pd.name);
		free(owned);
		return -1;
	}
	if (memcmp(b, "PERFILE2", 8) != 0) {
		diag_warn(d, "%s: not a perf.data file (bad magic; old "
			  "PERFFILE version 1 files are not supported)",
			  pd.name);
		free(owned);
		return -1;
	}
	pd.el = pe_evlist_create();
	/* Runtimes' jitdumps are looked for beside the recording too. */
	if (!input_is_stdin(in) && !strstr(input_name(in), "://")) {
		const char *name = input_name(in);
		const char *sl = strrchr(name, '/');

		/* "perf.data": ".", "/perf.data": "/", "a/perf.data": "a" */
		dir = !sl ? xstrdup(".") : sl == name ? xstrdup("/")
		      : xstrndup(name, (size_t)(sl - name));
		so.jitdump_dir = dir;
	}
	so.jitdump_whole = true;
	pd.sy = sym_create(&so);
	pd.unpack_limit = (uint64_t)len * 256 + (64u << 20);
	if (pd.unpack_limit > (8ULL << 30))
		pd.unpack_limit = 8ULL << 30;
	if (pe_load64(b + 8) == 16) {
		input_populate(in);
		reserve_index(&pd, len - 16);
		walk_data(&pd, in, owned, b + 16, len - 16, 16);
	} else if (file_header(&pd, b, len, &doff, &dsize) == 0) {
		if (read_in_order(&pd, in, owned, b, len, doff, (size_t)dsize,
				  &so))
			goto read;
		input_populate(in);     /* two passes touch all of it */
		reserve_index(&pd, (size_t)dsize);
		walk_data(&pd, in, owned, b + doff, (size_t)dsize, doff);
	} else {
		goto out;
	}
	if (prepare(&pd, pd.nsamples) < 0)
		goto out;
	process(&pd);
read:
	{
		const struct pe_machine_stats *st = pe_machine_stats(pd.m);

		if (st->lost)
			diag_warn(d, "%s: %llu samples were lost while "
				  "recording (perf could not keep up)",
				  pd.name, (unsigned long long)st->lost);
		if (st->dwarf_truncated)
			diag_warn(d, "%s: %llu of %llu DWARF-unwound stacks "
				  "stopped early (no CFI, or the stack copy "
				  "was too small); their partial stacks are "
				  "kept", pd.name,
				  (unsigned long long)st->dwarf_truncated,
				  (unsigned long long)st->dwarf_stacks);
	}
	if (pd.other_samples)
		diag_warn(d, "%s: %llu samples of other events skipped; shown: "
			  "%s (--event-filter=NAME to choose)", pd.name,
			  (unsigned long long)pd.other_samples,
			  event_name(pd.chosen));
	note_events(&pd);
	sym_report(pd.sy, d);
	if (pd.samples) {
		rc = 0;
		note_event_unit(p, pd.chosen);
	} else
		rc = read_done(d, pd.name, false, before, pd.o->event_filter ?
			       "no samples of that event" : "no samples");
out:
	pe_machine_destroy(pd.m);
	/* Annotation reads the same files: the tables keep the symbolizer. */
	if (rc == 0 && profile_paddr(p, false))
		paddr_keep(profile_paddr(p, false), pd.sy, release_sym);
	else
		sym_destroy(pd.sy);
	pe_evlist_destroy(pd.el);
	if (pd.zs)
		ZSTD_freeDStream(pd.zs);
	for (size_t i = 0; i < pd.nbufs; i++)
		free(pd.bufs[i]);
	free(pd.bufs);
	free(pd.pending);
	ARR_FREE(pd.idx, pd.capidx);
	free(owned);
	free(dir);
	return rc;
}
