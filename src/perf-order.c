/*
 * perf-order.c - a perf.data file's records in time order, from a second
 * thread (perf-order.h).
 *
 * The thread reads the data in chunks of PO_CHUNK bytes, each starting at
 * a record, and keeps the kernel records not yet handed on in `pend`, in
 * file order, with the time each sorts by.  At a round's end it takes out
 * those older than the watermark, sorts them and hands them on in batches
 * of pointers into the chunks, with their hashes.  A chunk whose records
 * are all out is free again once the reader is through with the batch
 * that took the last of them.  The chunks are cut from 2 MB slabs (huge
 * pages, one fault each) and PO_BATCHES batches go round between the two
 * threads, so that the memory in use is the same few megabytes throughout:
 * a page touched for the first time costs more on a VM than reading it.
 */
#include "perf-order.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "perf-event.h"
#include "util.h"

/* ---- Sorting by time ----------------------------------------------------- */

/*
 * Records come in a few runs already in time order (perf writes each
 * CPU's buffer in turn): up to MERGE_RUNS_MAX runs are merged, two at a
 * time, the first's record first among equal times.  Otherwise an LSD
 * radix sort on the time minus the smallest, the passes counted in one
 * read and skipped where every digit is the same (a recording spans few
 * bits).  8-bit digits for the few records of a round, 12-bit ones for a
 * whole file.  Few records: an insertion sort.
 */
#define RADIX_MAX_BITS 12
#define MERGE_RUNS_MAX 16

/* The runs of a in order: their starts, and n after the last; 0: many. */
static size_t find_runs(const struct pe_ref *a, size_t n,
			size_t start[MERGE_RUNS_MAX + 1])
{
	size_t runs = 1;

	start[0] = 0;
	for (size_t i = 1; i < n; i++)
		if (a[i].time < a[i - 1].time) {
			if (runs == MERGE_RUNS_MAX)
				return 0;
			start[runs++] = i;
		}
	start[runs] = n;
	return runs;
}

/* Merge the runs of a (starts in start) into one, through b. */
static struct pe_ref *merge_runs(struct pe_ref *a, struct pe_ref *b,
				 size_t start[MERGE_RUNS_MAX + 1], size_t runs)
{
	while (runs > 1) {
		size_t out = 0;

		for (size_t r = 0; r < runs; r += 2) {
			size_t i = start[r], mid = start[r + 1];
			size_t j = mid, end = r + 1 < runs ? start[r + 2] : mid;
			size_t o = i;

			while (i < mid && j < end)
				b[o++] = a[j].time < a[i].time ? a[j++] : a[i++];
			while (i < mid)
				b[o++] = a[i++];
			while (j < end)
				b[o++] = a[j++];
			start[out++] = start[r];
		}
		start[out] = start[runs];
		runs = out;
		{
			struct pe_ref *t = a;

			a = b;
			b = t;
		}
	}
	return a;
}

struct pe_ref *pe_sort_refs(struct pe_ref *a, struct pe_ref *tmp, size_t n)
{
	unsigned bits = n < 65536 ? 8 : RADIX_MAX_BITS;
	unsigned maxpasses = (64 + bits - 1) / bits, passes = 0;
	size_t radix = (size_t)1 << bits, mask = radix - 1;
	size_t small[8 << 8], *count;
	uint64_t lo = UINT64_MAX, hi = 0;
	struct pe_ref *b = tmp;

	if (n < 64) {
		for (size_t i = 1; i < n; i++) {
			struct pe_ref r = a[i];
			size_t j = i;

			for (; j > 0 && a[j - 1].time > r.time; j--)
				a[j] = a[j - 1];
			a[j] = r;
		}
		return a;
	}
	{
		size_t start[MERGE_RUNS_MAX + 1];
		size_t runs = find_runs(a, n, start);

		if (runs)
			return merge_runs(a, tmp, start, runs);
	}
	for (size_t i = 0; i < n; i++) {
		lo = a[i].time < lo ? a[i].time : lo;
		hi = a[i].time > hi ? a[i].time : hi;
	}
	while (passes < maxpasses && ((hi - lo) >> (passes * bits)))
		passes++;
	if (!passes)
		return a;
	count = bits == 8 ? small : xmalloc(passes * radix * sizeof(*count));
	memset(count, 0, passes * radix * sizeof(*count));
	for (size_t i = 0; i < n; i++) {
		uint64_t t = a[i].time - lo;

		for (unsigned k = 0; k < passes; k++)
			count[k * radix + ((t >> (k * bits)) & mask)]++;
	}
	for (unsigned k = 0; k < passes; k++) {
		size_t *c = count + k * radix, sum = 0;
		unsigned shift = k * bits;

		if (c[((a[0].time - lo) >> shift) & mask] == n)
			continue;       /* one digit throughout */
		for (size_t d = 0; d < radix; d++) {
			size_t x = c[d];

			c[d] = sum;
			sum += x;
		}
		for (size_t i = 0; i < n; i++)
			b[c[((a[i].time - lo) >> shift) & mask]++] = a[i];
		{
			struct pe_ref *t = a;

			a = b;
			b = t;
		}
	}
	if (count != small)
		free(count);
	return a;
}

/* ---- The thread ---------------------------------------------------------- */

#define PO_CHUNK ((size_t)128 << 10)   /* a record is at most 64 KB */
#define PO_SLAB_CHUNKS 16               /* 2 MB */
#define PO_BATCHES 8
/* Rounds back whose newest time is the watermark. */
#define PO_ROUNDS_BACK 2
/* Records kept waiting past this: not a file written in rounds. */
#define PO_PENDING_MAX ((size_t)64 << 20)

struct po_chunk {
	size_t nrec, nout;      /* records in it; handed on */
	bool read;              /* every record in it is in pend or out */
};

struct po_batch {
	struct po_rec *recs;
	size_t n, cap;
	uint32_t *release;      /* chunks free once the reader is through */
	size_t nrelease, caprelease;
};

struct po_pend {
	struct pe_ref ref;
	uint32_t chunk, size;
};

struct perf_order {
	/* Set up by po_start; read only after. */
	int fd;
	const unsigned char *data;
	size_t len;
	uint64_t base;
	const struct pe_evlist *el;
	size_t batch_max;
	pthread_t thread;

	/* The thread's own. */
	unsigned char **slabs;
	size_t nslabs, capslabs;
	struct po_chunk *chunks;        /* by number: slab * 16 + place */
	size_t capchunks;
	struct po_pend *pend;           /* in file order */
	size_t npend, cappend, pend_bytes;
	struct pe_ref *sel, *tmp;
	size_t capsel;
	unsigned char *updates;         /* EVENT_UPDATE records, in order */
	size_t nupdates, capupdates;
	uint32_t *emptied;              /* chunks read and handed on whole */
	size_t nemptied, capemptied;
	uint64_t last_time;             /* pe_evlist_order_time's */
	uint64_t newest;                /* newest time read */
	uint64_t round_newest[PO_ROUNDS_BACK];
	size_t rounds;
	uint64_t out_newest;            /* newest time handed on */
	bool any_out;
	size_t stray;                   /* see struct po_end */
	bool cut;

	/* Shared, under mu. */
	pthread_mutex_t mu;
	pthread_cond_t filled, freed;
	struct po_batch batch[PO_BATCHES];
	uint32_t *spare;                /* free chunks */
	size_t nspare, capspare;
	size_t made;            /* batches handed on */
	size_t given;           /* batches po_next returned */
	size_t done;            /* batches the reader is through with */
	bool end;               /* no more batches will come */
	bool ok;                /* ... and every record came */
	bool stop;              /* the reader wants no more */
};

static unsigned char *chunk_buf(const struct perf_order *o, uint32_t c)
{
	return o->slabs[c / PO_SLAB_CHUNKS] + (c % PO_SLAB_CHUNKS) * PO_CHUNK;
}

/* A free chunk: a spare one, or one of a new slab. */
static uint32_t new_chunk(struct perf_order *o)
{
	uint32_t c;

	pthread_mutex_lock(&o->mu);
	if (!o->nspare) {
		unsigned char *slab = NULL;
		size_t first = o->nslabs * PO_SLAB_CHUNKS;

		ARR_GROW(slab, 0, PO_SLAB_CHUNKS * PO_CHUNK);
		GROW(o->slabs, o->capslabs, o->nslabs + 1);
		o->slabs[o->nslabs++] = slab;
		GROW(o->chunks, o->capchunks, first + PO_SLAB_CHUNKS);
		GROW(o->spare, o->capspare, first + PO_SLAB_CHUNKS);
		for (size_t k = PO_SLAB_CHUNKS; k > 0; k--)
			o->spare[o->nspare++] = (uint32_t)(first + k - 1);
	}
	c = o->spare[--o->nspare];
	pthread_mutex_unlock(&o->mu);
	o->chunks[c].nrec = o->chunks[c].nout = 0;
	o->chunks[c].read = false;
	return c;
}

/*
 * A chunk all read and all handed on: free when the reader is through
 * with the batches made so far (at once if it is).
 */
static void chunk_emptied(struct perf_order *o, uint32_t c)
{
	pthread_mutex_lock(&o->mu);
	if (o->done == o->made) {
		GROW(o->spare, o->capspare, o->nspare + 1);
		o->spare[o->nspare++] = c;
	} else {
		struct po_batch *b = &o->batch[(o->made - 1) % PO_BATCHES];

		GROW(b->release, b->caprelease, b->nrelease + 1);
		b->release[b->nrelease++] = c;
	}
	pthread_mutex_unlock(&o->mu);
}

/* A batch to fill, once the reader is through with it; NULL: stop. */
static struct po_batch *batch_to_fill(struct perf_order *o)
{
	struct po_batch *b;

	pthread_mutex_lock(&o->mu);
	while (o->made - o->done >= PO_BATCHES && !o->stop)
		pthread_cond_wait(&o->freed, &o->mu);
	b = o->stop ? NULL : &o->batch[o->made % PO_BATCHES];
	pthread_mutex_unlock(&o->mu);
	return b;
}

static void hand_on(struct perf_order *o)
{
	pthread_mutex_lock(&o->mu);
	o->made++;
	pthread_cond_signal(&o->filled);
	pthread_mutex_unlock(&o->mu);
}

_Static_assert(sizeof(void *) != 8 || sizeof(struct po_rec) == 80,
	       "PO_BATCH_RECS's comment counts 80 bytes a record");

/*
 * A record as handed on: a sample decoded (the decoding the reader would
 * otherwise do again), with its event and its chain's hash.
 */
static void describe(const struct perf_order *o, struct po_rec *pr,
		     const unsigned char *rec)
{
	struct perf_event_header h;
	struct pe_sample s;
	struct po_sample *c = &pr->s;
	const char *why;

	pr->rec = rec;
	pr->hash = 0;
	pr->ev = NULL;
	c->has = 0;
	memcpy(&h, rec, sizeof(h));
	if (h.type != PERF_RECORD_SAMPLE)
		return;
	pr->ev = pe_evlist_for_record(o->el, rec, h.size);
	/* A sample that does not decode: the reader says why. */
	if (!pr->ev || pe_decode_sample(rec, h.size, &pr->ev->fmt, &s, &why) < 0)
		return;
	pr->hash = pe_sample_chain_hash(&s);
	if (s.regs || s.stack || s.raw || s.nr > UINT16_MAX)
		return;
	c->ip = s.ip;
	c->time = s.time;
	c->addr = s.addr;
	c->period = s.period;
	c->pid = s.pid;
	c->tid = s.tid;
	c->cpu = s.cpu;
	c->nr = (uint16_t)s.nr;
	c->chain = s.callchain ? (uint16_t)((const unsigned char *)s.callchain - rec)
			       : 0;
	c->cpumode = (uint8_t)s.cpumode;
	c->has = (uint8_t)(PO_HAS_SAMPLE | (s.has_time ? PO_HAS_TIME : 0) |
			   (s.has_tid ? PO_HAS_TID : 0) |
			   (s.has_cpu ? PO_HAS_CPU : 0) |
			   (s.has_period ? PO_HAS_PERIOD : 0) |
			   (s.has_callchain ? PO_HAS_CALLCHAIN : 0));
}

void po_sample_expand(const struct po_rec *pr, struct pe_sample *s)
{
	const struct po_sample *c = &pr->s;

	s->ip = c->ip;
	s->time = c->time;
	s->addr = c->addr;
	s->period = c->period;
	s->pid = c->pid;
	s->tid = c->tid;
	s->cpu = c->cpu;
	s->nr = c->nr;
	s->callchain = c->has & PO_HAS_CALLCHAIN ? pr->rec + c->chain : NULL;
	s->cpumode = c->cpumode;
	s->has_time = c->has & PO_HAS_TIME;
	s->has_tid = c->has & PO_HAS_TID;
	s->has_cpu = c->has & PO_HAS_CPU;
	s->has_period = c->has & PO_HAS_PERIOD;
	s->has_callchain = c->has & PO_HAS_CALLCHAIN;
}

/*
 * Hand on the records waiting older than `before` (all of them when
 * `all`), in time order.  False: the reader stopped.
 */
static bool flush(struct perf_order *o, uint64_t before, bool all)
{
	size_t nsel = 0, keep = 0;
	struct pe_ref *sorted;

	if (o->capsel < o->npend) {
		free(o->sel);
		free(o->tmp);
		o->capsel = o->npend * 2;
		o->sel = xmalloc(o->capsel * sizeof(*o->sel));
		o->tmp = xmalloc(o->capsel * sizeof(*o->tmp));
	}
	for (size_t i = 0; i < o->npend; i++) {
		struct po_pend *p = &o->pend[i];

		if (all || p->ref.time < before) {
			struct po_chunk *c = &o->chunks[p->chunk];

			o->sel[nsel++] = p->ref;
			o->pend_bytes -= p->size;
			if (++c->nout == c->nrec && c->read) {
				GROW(o->emptied, o->capemptied, o->nemptied + 1);
				o->emptied[o->nemptied++] = p->chunk;
			}
		} else {
			o->pend[keep++] = *p;
		}
	}
	o->npend = keep;
	if (!nsel)
		return true;
	sorted = pe_sort_refs(o->sel, o->tmp, nsel);
	if (!o->any_out || sorted[nsel - 1].time > o->out_newest)
		o->out_newest = sorted[nsel - 1].time;
	o->any_out = true;
	for (size_t i = 0; i < nsel;) {
		size_t n = nsel - i;
		struct po_batch *b = batch_to_fill(o);

		if (!b)
			return false;
		if (n > o->batch_max)
			n = o->batch_max;
		GROW(b->recs, b->cap, n);
		for (size_t k = 0; k < n; k++)
			describe(o, &b->recs[k], sorted[i + k].rec);
		b->n = n;
		hand_on(o);
		i += n;
	}
	/* Free once the reader is through with the batches just made. */
	for (size_t k = 0; k < o->nemptied; k++)
		chunk_emptied(o, o->emptied[k]);
	o->nemptied = 0;
	return true;
}

/* Read the chunk at pos into buf: its bytes, 0 on a failed read. */
static size_t read_chunk(struct perf_order *o, unsigned char *buf, size_t pos)
{
	size_t want = o->len - pos < PO_CHUNK ? o->len - pos : PO_CHUNK;

	if (o->fd < 0) {
		memcpy(buf, o->data + pos, want);
		return want;
	}
	return pread_full(o->fd, buf, want, o->base + pos) == want ? want : 0;
}

/* A record the first pass of a file walks past without a word. */
static bool skipped_type(uint32_t type)
{
	switch (type) {
	case PE_HEADER_ATTR:
	case PE_HEADER_FEATURE:
	case PE_EVENT_UPDATE:
	case PE_TRACING_DATA:
	case PE_AUXTRACE:
	case PE_COMPRESSED:
		return false;
	default:
		return type > PE_HEADER_ATTR;
	}
}

/* An EVENT_UPDATE record, kept for the reader (it only names an event). */
static void keep_update(struct perf_order *o, const unsigned char *rec,
			size_t size)
{
	GROW(o->updates, o->capupdates, o->nupdates + size);
	memcpy(o->updates + o->nupdates, rec, size);
	o->nupdates += size;
}

/* A kernel record into pend; false: out of order, or too many waiting. */
static bool keep_record(struct perf_order *o, const unsigned char *rec,
			size_t size, uint32_t chunk)
{
	uint64_t t = pe_evlist_order_time(o->el, rec, size, &o->last_time);
	struct po_pend *p;

	if (o->any_out && t < o->out_newest)
		return false;
	if (t > o->newest)
		o->newest = t;
	GROW(o->pend, o->cappend, o->npend + 1);
	p = &o->pend[o->npend++];
	p->ref.time = t;
	p->ref.rec = rec;
	p->chunk = chunk;
	p->size = (uint32_t)size;
	o->chunks[chunk].nrec++;
	o->pend_bytes += size;
	return o->pend_bytes <= PO_PENDING_MAX;
}

/* At a round's end: hand on what is older than PO_ROUNDS_BACK rounds. */
static bool round_end(struct perf_order *o)
{
	uint64_t w = o->round_newest[0];
	bool full = o->rounds >= PO_ROUNDS_BACK;

	memmove(o->round_newest, o->round_newest + 1,
		(PO_ROUNDS_BACK - 1) * sizeof(uint64_t));
	o->round_newest[PO_ROUNDS_BACK - 1] = o->newest;
	o->rounds++;
	return !full || flush(o, w, false);
}

/* The thread's work: false when it gives up (or the reader stopped). */
static bool run(struct perf_order *o)
{
	size_t pos = 0, end = o->len;

	while (pos < end) {
		uint32_t num = new_chunk(o);
		unsigned char *buf = chunk_buf(o, num);
		size_t have = read_chunk(o, buf, pos), off = 0;
		struct po_chunk *c;

		if (!have)
			return false;
		while (have - off >= 8) {
			const unsigned char *rec = buf + off;
			uint32_t type = pe_load32(rec);
			size_t size = pe_load16(rec + 6);

			if (size < 8)
				return false;
			if (size > have - off)
				break;  /* it starts the next chunk */
			off += size;
			if (type < PE_HEADER_ATTR) {
				if (!keep_record(o, rec, size, num))
					return false;
			} else if (type == PE_FINISHED_ROUND) {
				if (!round_end(o))
					return false;
			} else if (type == PE_EVENT_UPDATE) {
				keep_update(o, rec, size);
			} else if (!skipped_type(type)) {
				return false;
			}
		}
		if (pos + have == o->len && off < have) {
			/* The data ends short (a record's size is >= 8 here). */
			if (have - off < 8)
				o->stray = have - off;
			else
				o->cut = true;
			end = pos + off;
		}
		if (!off && pos < end)
			return false;   /* (a read cut short) */
		pos += off;
		c = &o->chunks[num];
		c->read = true;
		if (c->nout == c->nrec)
			chunk_emptied(o, num);
	}
	return flush(o, 0, true);
}

static void *thread_main(void *arg)
{
	struct perf_order *o = arg;
	bool ok;

	pthread_setname_np(pthread_self(), "flametop-order");
	ok = run(o);

	pthread_mutex_lock(&o->mu);
	o->end = true;
	o->ok = ok;
	pthread_cond_signal(&o->filled);
	pthread_mutex_unlock(&o->mu);
	return NULL;
}

struct perf_order *po_start(int fd, const unsigned char *data, size_t len,
			    uint64_t base, const struct pe_evlist *el,
			    size_t batch_max)
{
	struct perf_order *o = xcalloc(1, sizeof(*o));

	o->fd = fd;
	o->data = data;
	o->len = len;
	o->base = base;
	o->el = el;
	o->batch_max = batch_max && batch_max < PO_BATCH_RECS ? batch_max
							      : PO_BATCH_RECS;
	pthread_mutex_init(&o->mu, NULL);
	pthread_cond_init(&o->filled, NULL);
	pthread_cond_init(&o->freed, NULL);
	if (pthread_create(&o->thread, NULL, thread_main, o) != 0) {
		pthread_mutex_destroy(&o->mu);
		pthread_cond_destroy(&o->filled);
		pthread_cond_destroy(&o->freed);
		free(o);
		return NULL;
	}
	return o;
}

const struct po_rec *po_next(struct perf_order *o, size_t *n)
{
	const struct po_batch *b = NULL;

	pthread_mutex_lock(&o->mu);
	if (o->given > o->done) {
		/* Through with the last batch: its emptied chunks are free. */
		struct po_batch *d = &o->batch[o->done++ % PO_BATCHES];

		if (d->nrelease) {
			GROW(o->spare, o->capspare, o->nspare + d->nrelease);
			memcpy(o->spare + o->nspare, d->release,
			       d->nrelease * sizeof(*d->release));
			o->nspare += d->nrelease;
			d->nrelease = 0;
		}
		pthread_cond_signal(&o->freed);
	}
	while (o->given == o->made && !o->end)
		pthread_cond_wait(&o->filled, &o->mu);
	/* A thread that gave up: what it handed on is no use. */
	if (o->given < o->made && !(o->end && !o->ok))
		b = &o->batch[o->given++ % PO_BATCHES];
	pthread_mutex_unlock(&o->mu);
	if (!b)
		return NULL;
	*n = b->n;
	return b->recs;
}

bool po_finish(struct perf_order *o, struct po_end *end)
{
	bool ok;

	pthread_mutex_lock(&o->mu);
	o->stop = true;
	pthread_cond_broadcast(&o->freed);
	pthread_mutex_unlock(&o->mu);
	pthread_join(o->thread, NULL);
	ok = o->ok && o->given == o->made;
	end->stray = o->stray;
	end->cut = o->cut;
	end->updates = o->updates;
	end->nupdates = o->nupdates;
	for (size_t i = 0; i < o->nslabs; i++)
		ARR_FREE(o->slabs[i], PO_SLAB_CHUNKS * PO_CHUNK);
	for (size_t i = 0; i < PO_BATCHES; i++) {
		free(o->batch[i].recs);
		free(o->batch[i].release);
	}
	free(o->slabs);
	free(o->chunks);
	free(o->pend);
	free(o->sel);
	free(o->tmp);
	free(o->emptied);
	free(o->spare);
	pthread_mutex_destroy(&o->mu);
	pthread_cond_destroy(&o->filled);
	pthread_cond_destroy(&o->freed);
	free(o);
	return ok;
}
