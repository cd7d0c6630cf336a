/*
 * perf-record.c - decoding perf records (perf-record.h).
 *
 * Decoding walks a record with a cursor that never passes the record's
 * size: every field is read with a bounds check and memcpy, so a lying
 * size or count ends the decode with a message, never a read past the end.
 */
#include "perf-record.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util.h"

/* ---- Reading fields ------------------------------------------------------ */

struct cur {
	const unsigned char *p, *end;
	bool bad;
};

static uint64_t rd64(struct cur *c)
{
	uint64_t v = 0;

	if (c->bad || (size_t)(c->end - c->p) < 8) {
		c->bad = true;
		return 0;
	}
	memcpy(&v, c->p, 8);
	c->p += 8;
	return v;
}

static void rd2x32(struct cur *c, uint32_t *a, uint32_t *b)
{
	if (c->bad || (size_t)(c->end - c->p) < 8) {
		c->bad = true;
		*a = *b = 0;
		return;
	}
	memcpy(a, c->p, 4);
	memcpy(b, c->p + 4, 4);
	c->p += 8;
}

/* Skip n bytes (n from the input: may be huge). */
static const void *skip(struct cur *c, uint64_t n)
{
	const void *at = c->p;

	if (c->bad || n > (uint64_t)(c->end - c->p)) {
		c->bad = true;
		return NULL;
	}
	c->p += n;
	return at;
}

static uint64_t popcount64(uint64_t v)
{
	return (uint64_t)__builtin_popcountll(v);
}

/* ---- Formats and events -------------------------------------------------- */

void pe_format_from_attr(struct pe_format *f,
			 const struct perf_event_attr *attr)
{
	memset(f, 0, sizeof(*f));
	f->sample_type = attr->sample_type;
	f->read_format = attr->read_format;
	f->regs_user = attr->sample_regs_user;
	f->regs_intr = attr->sample_regs_intr;
	f->branch_hw_index = (attr->branch_sample_type &
			      PERF_SAMPLE_BRANCH_HW_INDEX) != 0;
	f->sample_id_all = attr->sample_id_all;
	f->sample_time_at = -1;
	f->sample_id_at = -1;
	f->trailer_time_at = -1;
	f->trailer_id_at = -1;
	{
		uint64_t t = f->sample_type;
		uint64_t before_time = t & (PERF_SAMPLE_IDENTIFIER |
					    PERF_SAMPLE_IP | PERF_SAMPLE_TID);

		if (t & PERF_SAMPLE_TIME)
			f->sample_time_at = (int8_t)popcount64(before_time);
		if (t & PERF_SAMPLE_IDENTIFIER)
			f->sample_id_at = 0;
		else if (t & PERF_SAMPLE_ID)
			f->sample_id_at = (int8_t)popcount64(t &
				(PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR));
		f->trailer_len = (int8_t)popcount64(t & (PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
			PERF_SAMPLE_IDENTIFIER));
		if (t & PERF_SAMPLE_TIME)
			f->trailer_time_at = (int8_t)!!(t & PERF_SAMPLE_TID);
		if (t & PERF_SAMPLE_IDENTIFIER)
			f->trailer_id_at = 1;
		else if (t & PERF_SAMPLE_ID)
			f->trailer_id_at = (int8_t)(1 + popcount64(t &
				(PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU)));
	}
}

struct id_slot {
	uint64_t id;
	struct pe_event *ev;    /* NULL: empty */
};

struct pe_evlist {
	struct pe_event **ev;
	size_t n, cap;
	struct id_slot *ids;    /* open addressing */
	size_t nids, mask;
	/* The format of every event, when all share sample_type and
	 * sample_id_all (perf's dummy event beside the sampled one). */
	const struct pe_format *shared;
};

struct pe_evlist *pe_evlist_create(void)
{
	return xcalloc(1, sizeof(struct pe_evlist));
}

void pe_evlist_destroy(struct pe_evlist *el)
{
	if (!el)
		return;
	for (size_t i = 0; i < el->n; i++) {
		free(el->ev[i]->name);
		free(el->ev[i]);
	}
	free(el->ev);
	free(el->ids);
	free(el);
}

static void id_put(struct pe_evlist *el, uint64_t id, struct pe_event *ev)
{
	size_t i;

	if ((el->nids + 1) * 2 > el->mask + 1 || !el->ids) {
		struct id_slot *old = el->ids;
		size_t omask = el->mask, nmask = old ? omask * 2 + 1 : 63;

		el->ids = xcalloc(nmask + 1, sizeof(*el->ids));
		el->mask = nmask;
		el->nids = 0;
		if (old) {
			for (size_t k = 0; k <= omask; k++)
				if (old[k].ev)
					id_put(el, old[k].id, old[k].ev);
			free(old);
		}
	}
	for (i = hash_u64(id) & el->mask; el->ids[i].ev; i = (i + 1) & el->mask)
		if (el->ids[i].id == id) {
			el->ids[i].ev = ev;
			return;
		}
	el->ids[i].id = id;
	el->ids[i].ev = ev;
	el->nids++;
}

struct pe_event *pe_evlist_add(struct pe_evlist *el, const void *attr,
			       size_t attr_size, const uint64_t *ids,
			       size_t nids)
{
	struct pe_event *ev;

	if (attr_size < PERF_ATTR_SIZE_VER0)
		return NULL;
	ev = xcalloc(1, sizeof(*ev));
	memcpy(&ev->attr, attr, attr_size < sizeof(ev->attr) ? attr_size
							    : sizeof(ev->attr));
	pe_format_from_attr(&ev->fmt, &ev->attr);
	ev->index = (unsigned)el->n;
	if (el->n == 0)
		el->shared = &ev->fmt;
	else if (el->shared &&
		 (el->shared->sample_type != ev->fmt.sample_type ||
		  el->shared->sample_id_all != ev->fmt.sample_id_all))
		el->shared = NULL;
	GROW(el->ev, el->cap, el->n + 1);
	el->ev[el->n++] = ev;
	pe_evlist_add_ids(el, ev, ids, nids);
	return ev;
}

void pe_evlist_add_ids(struct pe_evlist *el, struct pe_event *ev,
		       const void *ids, size_t nids)
{
	/* One id per event and CPU or thread: a million is past any real
	 * file, and keeps a hostile one from reusing one id array forever. */
	for (size_t i = 0; i < nids && el->nids < (1u << 20); i++) {
		uint64_t id;

		memcpy(&id, (const char *)ids + i * 8, 8);
		id_put(el, id, ev);
	}
}

void pe_event_set_name(struct pe_event *ev, const char *name, size_t len)
{
	free(ev->name);
	ev->name = xstrndup(name, strnlen(name, len));
}

size_t pe_evlist_count(const struct pe_evlist *el)
{
	return el->n;
}

struct pe_event *pe_evlist_at(const struct pe_evlist *el, size_t i)
{
	return i < el->n ? el->ev[i] : NULL;
}

struct pe_event *pe_evlist_by_id(const struct pe_evlist *el, uint64_t id)
{
	if (!el->ids)
		return NULL;
	for (size_t i = hash_u64(id) & el->mask; el->ids[i].ev;
	     i = (i + 1) & el->mask)
		if (el->ids[i].id == id)
			return el->ids[i].ev;
	return NULL;
}

struct pe_event *pe_evlist_for_record(const struct pe_evlist *el,
				      const void *rec, size_t len)
{
	struct perf_event_header h;
	const struct pe_format *f;
	uint64_t id;
	int pos;
	size_t at;

	if (el->n == 0)
		return NULL;
	if (el->n == 1 || len < sizeof(h))
		return el->ev[0];
	memcpy(&h, rec, sizeof(h));
	if (h.size < len)
		len = h.size;
	f = &el->ev[0]->fmt;
	if (h.type == PERF_RECORD_SAMPLE) {
		pos = f->sample_id_at;
		if (pos < 0)
			return el->ev[0];
		at = sizeof(h) + (size_t)pos * 8;
	} else {
		if (!f->sample_id_all)
			return el->ev[0];
		pos = f->trailer_id_at;
		if (pos < 0 || (size_t)pos * 8 > len - sizeof(h))
			return el->ev[0];
		at = len - (size_t)pos * 8;
	}
	if (at + 8 > len)
		return el->ev[0];
	memcpy(&id, (const char *)rec + at, 8);
	{
		struct pe_event *ev = pe_evlist_by_id(el, id);

		return ev ? ev : el->ev[0];
	}
}

const struct pe_format *pe_evlist_time_format(const struct pe_evlist *el,
					     const void *rec, size_t len)
{
	const struct pe_event *ev;

	if (el->shared)
		return el->shared;
	ev = pe_evlist_for_record(el, rec, len);
	return ev ? &ev->fmt : NULL;
}

uint64_t pe_evlist_order_time(const struct pe_evlist *el, const void *rec,
			      size_t len, uint64_t *last)
{
	uint64_t t;

	if (pe_record_time_at(rec, len, pe_evlist_time_format(el, rec, len),
			      &t) &&
	    (t || pe_load32(rec) == PERF_RECORD_SAMPLE))
		*last = t;
	return *last;
}

/* ---- Decoding ------------------------------------------------------------ */

static void skip_read(struct cur *c, uint64_t rf)
{
	uint64_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);

	if (rf & PERF_FORMAT_GROUP) {
		uint64_t nr = rd64(c);

		skip(c, 8 * (uint64_t)(!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
				       !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING)));
		if (nr > (uint64_t)(c->end - c->p) / (8 * per)) {
			c->bad = true;
			return;
		}
		skip(c, nr * 8 * per);
	} else {
		skip(c, 8 * (1 + (uint64_t)(!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
					    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) +
					    !!(rf & PERF_FORMAT_ID) +
					    !!(rf & PERF_FORMAT_LOST))));
	}
}

/*
 * A sample's fields zeroed one by one (a memset of the struct compiles to
 * a string store that takes longer than decoding a sample of a few fields;
 * these are a few vector stores).  The assertion is a reminder to clear a
 * field added to the struct here too.
 */
_Static_assert(sizeof(void *) != 8 || sizeof(struct pe_sample) == 152,
	       "clear_sample clears each field");
static void clear_sample(struct pe_sample *s)
{
	s->id = s->ip = s->time = s->addr = s->stream_id = s->period = 0;
	s->pid = s->tid = s->cpu = 0;
	s->nr = s->regs_abi = s->regs_mask = 0;
	s->stack_size = s->stack_dyn_size = 0;
	s->callchain = s->regs = s->stack = s->raw = NULL;
	s->raw_size = 0;
	s->cpumode = 0;
	s->has_time = s->has_tid = s->has_cpu = s->has_period = false;
	s->has_callchain = false;
}

_Static_assert(sizeof(struct pe_sample_id) == 40,
	       "clear_sample_id clears each field");
static void clear_sample_id(struct pe_sample_id *s)
{
	s->pid = s->tid = s->cpu = 0;
	s->time = s->id = s->stream_id = 0;
	s->has_tid = s->has_time = s->has_id = s->has_cpu = false;
}

static int decode_sample(struct cur *c, const struct pe_format *f,
			 struct pe_sample *s, const char **why)
{
	uint64_t t = f->sample_type;

	s->period = 1;
	if (t & PERF_SAMPLE_IDENTIFIER)
		s->id = rd64(c);
	if (t & PERF_SAMPLE_IP)
		s->ip = rd64(c);
	if (t & PERF_SAMPLE_TID) {
		rd2x32(c, &s->pid, &s->tid);
		s->has_tid = true;
	}
	if (t & PERF_SAMPLE_TIME) {
		s->time = rd64(c);
		s->has_time = true;
	}
	if (t & PERF_SAMPLE_ADDR)
		s->addr = rd64(c);
	if (t & PERF_SAMPLE_ID)
		s->id = rd64(c);
	if (t & PERF_SAMPLE_STREAM_ID)
		s->stream_id = rd64(c);
	if (t & PERF_SAMPLE_CPU) {
		uint32_t res;

		rd2x32(c, &s->cpu, &res);
		s->has_cpu = true;
	}
	if (t & PERF_SAMPLE_PERIOD) {
		s->period = rd64(c);
		s->has_period = true;
	}
	if (t & PERF_SAMPLE_READ)
		skip_read(c, f->read_format);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		uint64_t nr = rd64(c);

		if (!c->bad && nr > (uint64_t)(c->end - c->p) / 8) {
			*why = "callchain longer than its record";
			return -1;
		}
		s->nr = nr;
		s->callchain = skip(c, nr * 8);
		s->has_callchain = true;
	}
	if (t & PERF_SAMPLE_RAW) {
		uint32_t size = 0;

		if ((size_t)(c->end - c->p) >= 4)
			memcpy(&size, c->p, 4);
		s->raw = skip(c, 4 + (uint64_t)size);
		if (s->raw && !c->bad) {
			s->raw = (const unsigned char *)s->raw + 4;
			s->raw_size = size;
		} else {
			s->raw = NULL;
		}
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		uint64_t nr = rd64(c);

		if (f->branch_hw_index)
			rd64(c);
		if (!c->bad && nr > (uint64_t)(c->end - c->p) / 24) {
			*why = "branch stack longer than its record";
			return -1;
		}
		skip(c, nr * 24);
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		s->regs_abi = rd64(c);
		if (s->regs_abi) {
			s->regs_mask = f->regs_user;
			s->regs = skip(c, 8 * popcount64(f->regs_user));
		}
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		s->stack_size = rd64(c);
		s->stack = skip(c, s->stack_size);
		if (s->stack_size) {
			s->stack_dyn_size = rd64(c);
			if (s->stack_dyn_size > s->stack_size)
				s->stack_dyn_size = s->stack_size;
		}
	}
	if (t & PERF_SAMPLE_WEIGHT_TYPE)
		rd64(c);
	if (t & PERF_SAMPLE_DATA_SRC)
		rd64(c);
	if (t & PERF_SAMPLE_TRANSACTION)
		rd64(c);
	if (t & PERF_SAMPLE_REGS_INTR) {
		if (rd64(c))
			skip(c, 8 * popcount64(f->regs_intr));
	}
	if (t & PERF_SAMPLE_PHYS_ADDR)
		rd64(c);
	if (t & PERF_SAMPLE_CGROUP)
		rd64(c);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		rd64(c);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		rd64(c);
	if (t & PERF_SAMPLE_AUX)
		skip(c, rd64(c));
	if (c->bad) {
		*why = "sample record shorter than its fields";
		return -1;
	}
	return 0;
}

/* The sample_id trailer at the end of a non-sample record; shrinks c. */
static int decode_trailer(struct cur *c, const struct pe_format *f,
			  struct pe_sample_id *sid)
{
	uint64_t t = f->sample_type;
	size_t n = 8 * (size_t)f->trailer_len;
	struct cur tc;

	if (n > (size_t)(c->end - c->p))
		return -1;
	tc.p = c->end - n;
	tc.end = c->end;
	tc.bad = false;
	c->end -= n;
	if (t & PERF_SAMPLE_TID) {
		rd2x32(&tc, &sid->pid, &sid->tid);
		sid->has_tid = true;
	}
	if (t & PERF_SAMPLE_TIME) {
		sid->time = rd64(&tc);
		sid->has_time = true;
	}
	if (t & PERF_SAMPLE_ID) {
		sid->id = rd64(&tc);
		sid->has_id = true;
	}
	if (t & PERF_SAMPLE_STREAM_ID)
		sid->stream_id = rd64(&tc);
	if (t & PERF_SAMPLE_CPU) {
		uint32_t res;

		rd2x32(&tc, &sid->cpu, &res);
		sid->has_cpu = true;
	}
	if (t & PERF_SAMPLE_IDENTIFIER) {
		sid->id = rd64(&tc);
		sid->has_id = true;
	}
	return 0;
}

/* A NUL-padded string filling the rest of the record. */
static void rd_str(struct cur *c, const char **s, size_t *len)
{
	*s = (const char *)c->p;
	*len = strnlen(*s, (size_t)(c->end - c->p));
	c->p = c->end;
}

/* What is wrong with a record's header, len bytes available; NULL: ok. */
static const char *header_why(const struct perf_event_header *h, size_t len)
{
	if (h->size < sizeof(*h))
		return "record size smaller than its header";
	return h->size > len ? "record runs past the end of the data" : NULL;
}

int pe_decode_sample(const void *rec, size_t len, const struct pe_format *f,
		     struct pe_sample *s, const char **why)
{
	struct perf_event_header h;
	struct cur c;

	/*
	 * Zeroed field by field, the record of almost every call: a memset
	 * of the whole union costs more than the decoding.
	 */
	clear_sample(s);
	*why = len < sizeof(h) ? "record header cut short" : NULL;
	if (*why)
		return -1;
	memcpy(&h, rec, sizeof(h));
	*why = header_why(&h, len);
	if (!*why && !f)
		*why = "sample of an unknown event";
	if (*why)
		return -1;
	c.p = (const unsigned char *)rec + sizeof(h);
	c.end = (const unsigned char *)rec + h.size;
	c.bad = false;
	s->cpumode = h.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	return decode_sample(&c, f, s, why);
}

int pe_decode(const void *rec, size_t len, const struct pe_format *f,
	      struct pe_record *out, const char **why)
{
	struct perf_event_header h;
	struct cur c;

	*why = NULL;
	if (len < sizeof(h)) {
		memset(out, 0, sizeof(*out));
		*why = "record header cut short";
		return -1;
	}
	memcpy(&h, rec, sizeof(h));
	if (h.type == PERF_RECORD_SAMPLE)
		clear_sample_id(&out->sid);
	else
		memset(out, 0, sizeof(*out));
	out->type = h.type;
	out->misc = h.misc;
	out->size = h.size;
	if (h.type == PERF_RECORD_SAMPLE)
		return pe_decode_sample(rec, len, f, &out->u.sample, why);
	*why = header_why(&h, len);
	if (*why)
		return -1;
	c.p = (const unsigned char *)rec + sizeof(h);
	c.end = (const unsigned char *)rec + h.size;
	c.bad = false;
	if (h.type >= PE_HEADER_ATTR)
		return 0;
	if (f && f->sample_id_all && h.type != PERF_RECORD_SAMPLE) {
		if (decode_trailer(&c, f, &out->sid) < 0) {
			*why = "record shorter than its sample_id trailer";
			return -1;
		}
	}
	switch (h.type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		struct pe_mmap *m = &out->u.mmap;

		rd2x32(&c, &m->pid, &m->tid);
		m->start = rd64(&c);
		m->len = rd64(&c);
		m->pgoff = rd64(&c);
		m->cpumode = h.misc & PERF_RECORD_MISC_CPUMODE_MASK;
		m->prot = PROT_EXEC;
		if (h.type == PERF_RECORD_MMAP2) {
			m->mmap2 = true;
			if (h.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
				const unsigned char *b = skip(&c, 24);

				if (b) {
					m->has_build_id = true;
					m->build_id_size = b[0] > 20 ? 20 : b[0];
					memcpy(m->build_id, b + 4, 20);
				}
			} else {
				rd2x32(&c, &m->maj, &m->min);
				m->ino = rd64(&c);
				m->ino_gen = rd64(&c);
			}
			rd2x32(&c, &m->prot, &m->flags);
		}
		if (c.bad) {
			*why = "mmap record cut short";
			return -1;
		}
		rd_str(&c, &m->filename, &m->filename_len);
		return 0;
	}
	case PERF_RECORD_COMM:
		rd2x32(&c, &out->u.comm.pid, &out->u.comm.tid);
		if (c.bad) {
			*why = "comm record cut short";
			return -1;
		}
		out->u.comm.exec = (h.misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
		rd_str(&c, &out->u.comm.comm, &out->u.comm.len);
		return 0;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		rd2x32(&c, &out->u.task.pid, &out->u.task.ppid);
		rd2x32(&c, &out->u.task.tid, &out->u.task.ptid);
		out->u.task.time = rd64(&c);
		break;
	case PERF_RECORD_LOST:
		out->u.lost.id = rd64(&c);
		out->u.lost.lost = rd64(&c);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		out->u.throttle.time = rd64(&c);
		out->u.throttle.id = rd64(&c);
		out->u.throttle.stream_id = rd64(&c);
		break;
	default:
		return 0;
	}
	if (c.bad) {
		*why = "record shorter than its fields";
		return -1;
	}
	return 0;
}

uint64_t pe_sample_weight(const struct pe_event *ev,
			  const struct pe_sample *s)
{
	if (s->has_period)
		return s->period;
	if (ev && !ev->attr.freq && ev->attr.sample_period)
		return ev->attr.sample_period;
	return 1;
}

bool pe_sample_reg(const struct pe_sample *s, unsigned r, uint64_t *val)
{
	uint64_t idx;

	if (!s->regs || r >= 64 || !(s->regs_mask & (1ULL << r)))
		return false;
	idx = popcount64(s->regs_mask & ((1ULL << r) - 1));
	memcpy(val, (const char *)s->regs + idx * 8, 8);
	return true;
}

bool pe_record_time_at(const void *rec, size_t len,
		       const struct pe_format *f, uint64_t *time)
{
	struct perf_event_header h;
	size_t at;

	if (!f || len < sizeof(h))
		return false;
	memcpy(&h, rec, sizeof(h));
	if (h.size < len)
		len = h.size;
	if (h.type == PERF_RECORD_SAMPLE) {
		if (f->sample_time_at < 0)
			return false;
		at = sizeof(h) + 8 * (size_t)f->sample_time_at;
	} else {
		size_t n = 8 * (size_t)f->trailer_len;

		if (h.type >= PE_HEADER_ATTR || !f->sample_id_all ||
		    f->trailer_time_at < 0 || n > len - sizeof(h))
			return false;
		at = len - n + 8 * (size_t)f->trailer_time_at;
	}
	if (at + 8 > len)
		return false;
	memcpy(time, (const unsigned char *)rec + at, 8);
	return true;
}

bool pe_record_time(const struct pe_record *r, uint64_t *time)
{
	if (r->type == PERF_RECORD_SAMPLE) {
		*time = r->u.sample.time;
		return r->u.sample.has_time;
	}
	*time = r->sid.time;
	return r->sid.has_time;
}
