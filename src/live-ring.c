/*
 * live-ring.c - reading the sampler's rings.
 *
 * Rings.  (1 + 2^n) pages each, mapped writable: the kernel then never
 * overwrites unread data but drops samples and writes a LOST record.  The
 * read protocol: load data_head with acquire semantics, parse the records
 * between our tail and that head (they stay put until data_tail moves),
 * and store data_tail with release semantics past each record once it is
 * handled: a drain that takes long (the first symbols of a process) must
 * not keep the whole ring from the kernel, or a burst of samples is lost.  Sizes are multiples of 8,
 * so a header never wraps, but a record body may: such a record is copied
 * into a scratch buffer.  A header whose size is below 8 or past the head
 * means the ring is corrupt: its contents are skipped and counted.
 *
 * Order.  Each ring is in time order for its own CPU only, and a sample on
 * one CPU may need the MMAP2 written on another (a thread that mapped a
 * library and migrated).  A drain snapshots every head and merges the
 * rings by timestamp, so side-band records are applied before the samples
 * that follow them in time.
 *
 * POLLHUP.  When a sampled task exits its event reports POLLHUP forever;
 * polling it again would spin.  The fd leaves the epoll set, but its ring
 * is still drained on every call: children that inherited the event keep
 * writing into it.
 */
#include "live.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>

#include "live-sampler-priv.h"
#include "util.h"

uint64_t ring_record_time(const struct perf_event_header *h,
			  uint64_t sample_type)
{
	const unsigned char *b = (const unsigned char *)h;
	size_t off;
	uint64_t t;

	if (h->type == PERF_RECORD_SAMPLE) {
		if (!(sample_type & PERF_SAMPLE_TIME))
			return 0;
		off = sizeof(*h);
		if (sample_type & PERF_SAMPLE_IDENTIFIER)
			off += 8;
		if (sample_type & PERF_SAMPLE_IP)
			off += 8;
		if (sample_type & PERF_SAMPLE_TID)
			off += 8;
	} else {
		size_t trailer = 0;

		if (h->type >= PERF_RECORD_MAX ||
		    !(sample_type & PERF_SAMPLE_TIME))
			return 0;
		/* The sample_id trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER. */
		if (sample_type & PERF_SAMPLE_TID)
			trailer += 8;
		trailer += 8;
		if (sample_type & PERF_SAMPLE_ID)
			trailer += 8;
		if (sample_type & PERF_SAMPLE_STREAM_ID)
			trailer += 8;
		if (sample_type & PERF_SAMPLE_CPU)
			trailer += 8;
		if (sample_type & PERF_SAMPLE_IDENTIFIER)
			trailer += 8;
		if (h->size < sizeof(*h) + trailer)
			return 0;
		off = h->size - trailer + (sample_type & PERF_SAMPLE_TID ? 8 : 0);
	}
	if (off + 8 > h->size)
		return 0;
	memcpy(&t, b + off, 8);
	return t;
}

/* Point r->cur at the record at r->pos, copying it if it wraps. */
static bool ring_load(struct ring_view *r, uint64_t sample_type)
{
	struct perf_event_header h;
	uint64_t off, mask = r->size - 1;

	r->cur = NULL;
	if (r->pos >= r->end)
		return false;
	off = r->pos & mask;
	memcpy(&h, r->data + off, sizeof(h));
	if (h.size < sizeof(h) || h.size > r->end - r->pos || (h.size & 7) ||
	    r->end - r->pos > r->size) {
		r->bad = true;
		r->pos = r->end;
		return false;
	}
	if (off + h.size > r->size) {
		uint64_t first = r->size - off;

		memcpy(r->scratch, r->data + off, first);
		memcpy(r->scratch + first, r->data, h.size - first);
		r->cur = (const struct perf_event_header *)(void *)r->scratch;
	} else {
		r->cur = (const struct perf_event_header *)(const void *)
			 (r->data + off);
	}
	r->cur_time = ring_record_time(r->cur, sample_type);
	return true;
}

bool ring_begin(struct ring_view *r, uint64_t sample_type)
{
	r->end = __atomic_load_n(r->head, __ATOMIC_ACQUIRE);
	r->pos = *r->tail;
	r->bad = false;
	return ring_load(r, sample_type);
}

bool ring_next(struct ring_view *r, uint64_t sample_type)
{
	if (!r->cur)
		return false;
	r->pos += r->cur->size;
	/* The record is handled: give its space back now, not at the end of
	 * the drain, so that the kernel may write while the rest is read. */
	__atomic_store_n(r->tail, r->pos, __ATOMIC_RELEASE);
	return ring_load(r, sample_type);
}

void ring_end(struct ring_view *r)
{
	r->cur = NULL;
	__atomic_store_n(r->tail, r->pos, __ATOMIC_RELEASE);
}

int sampler_wait(struct sampler *s, int timeout_ms)
{
	struct epoll_event ev[16];
	int n, data = 0;

	if (s->nhup == s->nrings) {
		/* Nothing left to wait on: sleep, the rings are drained anyway. */
		struct timespec ts = { timeout_ms / 1000,
				       (long)(timeout_ms % 1000) * 1000000L };

		return nanosleep(&ts, NULL) == 0 ? 0 : -1;
	}
	n = epoll_wait(s->epfd, ev, (int)ARRAY_SIZE(ev), timeout_ms);
	if (n < 0)
		return errno == EINTR ? -1 : 0;
	for (int i = 0; i < n; i++) {
		struct ring *r = &s->rings[ev[i].data.u32];

		if (ev[i].events & EPOLLIN)
			data = 1;
		if ((ev[i].events & (EPOLLHUP | EPOLLERR)) && !r->hup) {
			epoll_ctl(s->epfd, EPOLL_CTL_DEL, r->fd, NULL);
			r->hup = true;
			s->nhup++;
			data = 1;
		}
	}
	return data;
}

bool sampler_all_hup(const struct sampler *s)
{
	return s->nrings && s->nhup == s->nrings;
}

static void count_record(struct sampler *s, const struct perf_event_header *h)
{
	uint64_t v;

	s->stats.records++;
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		s->stats.samples++;
		break;
	case PERF_RECORD_LOST:
		/* { u64 id; u64 lost; } */
		if (h->size >= sizeof(*h) + 16) {
			memcpy(&v, (const unsigned char *)h + sizeof(*h) + 8, 8);
			s->stats.lost += v;
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (h->size >= sizeof(*h) + 8) {
			memcpy(&v, (const unsigned char *)h + sizeof(*h), 8);
			s->stats.lost += v;
		}
		break;
	case PERF_RECORD_THROTTLE:
		s->stats.throttled++;
		break;
	default:
		break;
	}
}

size_t sampler_drain(struct sampler *s, sampler_record_fn fn, void *ctx)
{
	uint64_t st = s->attr.sample_type;
	size_t n = 0;
	unsigned live = 0;

	for (unsigned i = 0; i < s->nrings; i++)
		if (ring_begin(&s->rings[i].view, st))
			live++;
	while (live) {
		struct ring_view *best = NULL;

		for (unsigned i = 0; i < s->nrings; i++) {
			struct ring_view *r = &s->rings[i].view;

			if (r->cur && (!best || r->cur_time < best->cur_time))
				best = r;
		}
		count_record(s, best->cur);
		fn(ctx, best->cur);
		n++;
		if (!ring_next(best, st))
			live--;
	}
	for (unsigned i = 0; i < s->nrings; i++) {
		if (s->rings[i].view.bad)
			s->stats.corrupt++;
		ring_end(&s->rings[i].view);
	}
	return n;
}

void sampler_get_stats(const struct sampler *s, struct sampler_stats *st)
{
	*st = s->stats;
}
