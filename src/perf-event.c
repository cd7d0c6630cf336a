/*
 * perf-event.c - decoding perf records, the process/map tracker, and the
 * stacks built from samples.
 *
 * Decoding walks a record with a cursor that never passes the record's
 * size: every field is read with a bounds check and memcpy, so a lying
 * size or count ends the decode with a message, never a read past the end.
 *
 * The tracker keeps, per pid, a sorted array of non-overlapping mappings
 * (a new mapping cuts the ones it overlaps, as mmap does), and per tid the
 * thread's name.  A fork copies the parent's mappings (a fork writes no
 * MMAP records); after an exec (COMM with the exec flag) the new image's
 * mappings replace the old ones as they come.
 *
 * Frame names cost a symbol lookup and a name interning; both are cached
 * per (file, address): a profile's samples hit the same few thousand
 * addresses again and again.
 */
#include "perf-event.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "symbols.h"
#include "unwind.h"
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

/* Where the id sits: index of the u64 after the header (sample) or from
 * the end (other records); -1 when the format has none. */
static int sample_id_pos(uint64_t t)
{
	if (t & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	return (int)popcount64(t & (PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				    PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR));
}

static int trailer_id_pos(uint64_t t)
{
	if (t & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	return 1 + (int)popcount64(t & (PERF_SAMPLE_STREAM_ID |
					PERF_SAMPLE_CPU));
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
		pos = sample_id_pos(f->sample_type);
		if (pos < 0)
			return el->ev[0];
		at = sizeof(h) + (size_t)pos * 8;
	} else {
		if (!f->sample_id_all)
			return el->ev[0];
		pos = trailer_id_pos(f->sample_type);
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
		skip(c, 4 + (uint64_t)size);
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
	size_t n = 8 * (size_t)popcount64(t & (PERF_SAMPLE_TID |
		PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
		PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER));
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

int pe_decode(const void *rec, size_t len, const struct pe_format *f,
	      struct pe_record *out, const char **why)
{
	struct perf_event_header h;
	struct cur c;

	memset(out, 0, sizeof(*out));
	*why = NULL;
	if (len < sizeof(h)) {
		*why = "record header cut short";
		return -1;
	}
	memcpy(&h, rec, sizeof(h));
	out->type = h.type;
	out->misc = h.misc;
	out->size = h.size;
	if (h.size < sizeof(h) || h.size > len) {
		*why = h.size < sizeof(h) ? "record size smaller than its header"
					  : "record runs past the end of the data";
		return -1;
	}
	c.p = (const unsigned char *)rec + sizeof(h);
	c.end = (const unsigned char *)rec + h.size;
	c.bad = false;
	if (h.type == PERF_RECORD_SAMPLE) {
		if (!f) {
			*why = "sample of an unknown event";
			return -1;
		}
		out->u.sample.cpumode = h.misc & PERF_RECORD_MISC_CPUMODE_MASK;
		return decode_sample(&c, f, &out->u.sample, why);
	}
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

bool pe_sample_reg(const struct pe_sample *s, unsigned r, uint64_t *val)
{
	uint64_t idx;

	if (!s->regs || r >= 64 || !(s->regs_mask & (1ULL << r)))
		return false;
	idx = popcount64(s->regs_mask & ((1ULL << r) - 1));
	memcpy(val, (const char *)s->regs + idx * 8, 8);
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

/* ---- Small hash map: u64 key -> pointer ---------------------------------- */

struct pmap_slot {
	uint64_t key;
	void *val;              /* NULL: empty */
};

struct pmap {
	struct pmap_slot *s;
	size_t n, mask;
};

static void *pmap_get(const struct pmap *m, uint64_t key)
{
	if (!m->s)
		return NULL;
	for (size_t i = hash_u64(key) & m->mask; m->s[i].val;
	     i = (i + 1) & m->mask)
		if (m->s[i].key == key)
			return m->s[i].val;
	return NULL;
}

static void pmap_put(struct pmap *m, uint64_t key, void *val)
{
	size_t i;

	if (!m->s || (m->n + 1) * 2 > m->mask + 1) {
		struct pmap_slot *old = m->s;
		size_t omask = m->mask;

		m->mask = old ? omask * 2 + 1 : 63;
		m->s = xcalloc(m->mask + 1, sizeof(*m->s));
		m->n = 0;
		if (old) {
			for (size_t k = 0; k <= omask; k++)
				if (old[k].val)
					pmap_put(m, old[k].key, old[k].val);
			free(old);
		}
	}
	for (i = hash_u64(key) & m->mask; m->s[i].val; i = (i + 1) & m->mask)
		if (m->s[i].key == key) {
			m->s[i].val = val;
			return;
		}
	m->s[i].key = key;
	m->s[i].val = val;
	m->n++;
}

/* Remove key (backward-shift deletion keeps probe chains intact). */
static void pmap_del(struct pmap *m, uint64_t key)
{
	size_t i, j;

	if (!m->s)
		return;
	for (i = hash_u64(key) & m->mask; m->s[i].val; i = (i + 1) & m->mask)
		if (m->s[i].key == key)
			break;
	if (!m->s[i].val)
		return;
	m->s[i].val = NULL;
	m->n--;
	for (j = (i + 1) & m->mask; m->s[j].val; j = (j + 1) & m->mask) {
		size_t home = hash_u64(m->s[j].key) & m->mask;

		/* Move j back to i when its home is not in (i, j]. */
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && (home <= i && home > j))) {
			m->s[i] = m->s[j];
			m->s[j].val = NULL;
			i = j;
		}
	}
}

/* ---- The tracker --------------------------------------------------------- */

struct pe_proc {
	uint32_t pid;
	struct pe_map *maps;
	size_t nmaps, capmaps;
	void *sym_state;        /* symbols.h's per-process state */
};

struct pe_thread {
	uint32_t pid, tid;
	char *comm;
	uint32_t root_sym;      /* interned root frame, UINT32_MAX: not yet */
	bool java;              /* the name starts with "java" */
};

/* The frame cache: (tag, address) -> interned id. */
struct fc_slot {
	uint64_t tag, addr;
	uint32_t id;            /* id + 1; 0: empty */
	uint8_t miss;           /* enum sym_miss + 1; 0: resolved */
};

struct pe_machine {
	struct symbolizer *sy;
	struct profile *p;
	struct read_opts o;
	struct pmap procs, threads;
	struct fc_slot *fc;
	size_t nfc, fcmask;
	uint32_t unknown_id;    /* "[unknown]" */
	uint32_t *ids;          /* scratch: leaf-first frames */
	size_t capids;
	uint32_t *out;          /* scratch: the stack, root first */
	size_t capout;
	char *buf;              /* scratch for names */
	size_t capbuf;
	bool keep_exited;
	size_t total_maps;      /* maps of every process */
	struct pe_machine_stats st;
	struct unwinder *uw;    /* DWARF unwinder, made on the first stack copy */
};

struct pe_machine *pe_machine_create(struct symbolizer *sy,
				     struct profile *p,
				     const struct read_opts *o)
{
	struct pe_machine *m = xcalloc(1, sizeof(*m));

	m->sy = sy;
	m->p = p;
	if (o)
		m->o = *o;
	m->fcmask = 4095;
	m->fc = xcalloc(m->fcmask + 1, sizeof(*m->fc));
	m->unknown_id = UINT32_MAX;
	pe_machine_set_comm(m, 0, 0, "swapper", 7);
	return m;
}

static void proc_free(struct pe_machine *m, struct pe_proc *pr)
{
	if (!pr)
		return;
	if (pr->sym_state && m->sy)
		sym_proc_release(m->sy, pr->sym_state);
	m->total_maps -= pr->nmaps;
	free(pr->maps);
	free(pr);
}

void pe_machine_destroy(struct pe_machine *m)
{
	if (!m)
		return;
	for (size_t i = 0; m->procs.s && i <= m->procs.mask; i++)
		if (m->procs.s[i].val)
			proc_free(m, m->procs.s[i].val);
	for (size_t i = 0; m->threads.s && i <= m->threads.mask; i++) {
		struct pe_thread *t = m->threads.s[i].val;

		if (t) {
			free(t->comm);
			free(t);
		}
	}
	free(m->procs.s);
	free(m->threads.s);
	free(m->fc);
	free(m->ids);
	free(m->out);
	free(m->buf);
	unwind_destroy(m->uw);
	free(m);
}

void pe_machine_keep_exited(struct pe_machine *m, bool keep)
{
	m->keep_exited = keep;
}

struct pe_proc *pe_machine_proc(struct pe_machine *m, uint32_t pid)
{
	return pmap_get(&m->procs, pid);
}

static struct pe_proc *proc_get(struct pe_machine *m, uint32_t pid)
{
	struct pe_proc *pr = pmap_get(&m->procs, pid);

	if (!pr) {
		pr = xcalloc(1, sizeof(*pr));
		pr->pid = pid;
		pmap_put(&m->procs, pid, pr);
	}
	return pr;
}

static void proc_drop(struct pe_machine *m, uint32_t pid)
{
	struct pe_proc *pr = pmap_get(&m->procs, pid);

	if (pr) {
		pmap_del(&m->procs, pid);
		proc_free(m, pr);
	}
	if (m->sy)
		sym_jit_forget(m->sy, pid);
}

uint32_t pe_proc_pid(const struct pe_proc *pr)
{
	return pr->pid;
}

void **pe_proc_sym_slot(struct pe_proc *pr)
{
	return &pr->sym_state;
}

const struct pe_map *pe_proc_maps(const struct pe_proc *pr, size_t *n)
{
	*n = pr->nmaps;
	return pr->maps;
}

const struct pe_map *pe_proc_find_map(const struct pe_proc *pr,
				      uint64_t addr)
{
	size_t lo = 0, hi;

	if (!pr)
		return NULL;
	hi = pr->nmaps;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pr->maps[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	return addr < pr->maps[lo - 1].end ? &pr->maps[lo - 1] : NULL;
}

/*
 * A process maps at most this many executable ranges, all processes
 * together this many (a hostile file forking a process of many maps
 * again and again must not exhaust memory).
 */
#define MAX_MAPS 16384
#define MAX_TOTAL_MAPS (1u << 21)

/*
 * Insert nm, cutting the mappings it overlaps: the overlapped run
 * [i0, i1) is found by binary search (the maps are sorted and disjoint,
 * so their ends are sorted too) and replaced by what is left of its first
 * and last map around nm.
 */
static void proc_insert(struct pe_machine *m, struct pe_proc *pr,
			const struct pe_map *nm)
{
	size_t lo = 0, hi = pr->nmaps, i0, i1, k = 0;
	struct pe_map rep[3];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pr->maps[mid].end <= nm->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	i0 = lo;
	for (i1 = i0; i1 < pr->nmaps && pr->maps[i1].start < nm->end; i1++)
		;
	if (i0 < i1 && pr->maps[i0].start < nm->start) {
		rep[k] = pr->maps[i0];
		rep[k++].end = nm->start;
	}
	rep[k++] = *nm;
	if (i0 < i1 && pr->maps[i1 - 1].end > nm->end) {
		struct pe_map r = pr->maps[i1 - 1];

		r.pgoff += nm->end - r.start;
		r.start = nm->end;
		rep[k++] = r;
	}
	if (pr->nmaps - (i1 - i0) + k > MAX_MAPS ||
	    m->total_maps + k > MAX_TOTAL_MAPS) {
		m->st.maps_dropped++;
		return;
	}
	m->total_maps = m->total_maps + k - (i1 - i0);
	GROW(pr->maps, pr->capmaps, pr->nmaps - (i1 - i0) + k);
	memmove(&pr->maps[i0 + k], &pr->maps[i1],
		(pr->nmaps - i1) * sizeof(*pr->maps));
	memcpy(&pr->maps[i0], rep, k * sizeof(*rep));
	pr->nmaps = pr->nmaps - (i1 - i0) + k;
	if (pr->sym_state && m->sy)
		sym_proc_maps_changed(m->sy, pr);
}

static bool is_anon_name(const char *s, size_t n)
{
	static const char *const anon[] = { "//anon", "[anon:", "/dev/zero",
		"/anon_hugepage", "[heap]", "[stack]" };

	for (size_t i = 0; i < ARRAY_SIZE(anon); i++) {
		size_t k = strlen(anon[i]);

		if (n >= k && memcmp(s, anon[i], k) == 0)
			return true;
	}
	return n == 0;
}

void pe_machine_add_map(struct pe_machine *m, uint32_t pid, uint64_t start,
			uint64_t len, uint64_t pgoff, const char *path,
			size_t path_len, const struct pe_mmap *ident)
{
	struct pe_map nm = { 0 };
	struct pe_proc *pr;

	if (len == 0 || start + len < start)
		return;
	nm.start = start;
	nm.end = start + len;
	nm.pgoff = pgoff;
	nm.prot = ident ? ident->prot : PROT_EXEC;
	if (is_anon_name(path, path_len)) {
		nm.anon_exec = true;
	} else if (m->sy) {
		struct sym_file_id id = { 0 };

		if (ident && ident->has_build_id) {
			id.build_id = ident->build_id;
			id.build_id_len = ident->build_id_size;
		} else if (ident && ident->mmap2) {
			id.maj = ident->maj;
			id.min = ident->min;
			id.ino = ident->ino;
		}
		nm.dso = sym_dso_get(m->sy, path, path_len, &id);
	}
	pr = proc_get(m, pid);
	proc_insert(m, pr, &nm);
}

static struct pe_thread *thread_get(struct pe_machine *m, uint32_t pid,
				    uint32_t tid)
{
	struct pe_thread *t = pmap_get(&m->threads, tid);

	if (!t) {
		t = xcalloc(1, sizeof(*t));
		t->pid = pid;
		t->tid = tid;
		t->root_sym = UINT32_MAX;
		pmap_put(&m->threads, tid, t);
	}
	return t;
}

void pe_machine_set_comm(struct pe_machine *m, uint32_t pid, uint32_t tid,
			 const char *comm, size_t len)
{
	struct pe_thread *t = thread_get(m, pid, tid);

	free(t->comm);
	t->comm = xstrndup(comm, strnlen(comm, len));
	t->pid = pid;
	t->root_sym = UINT32_MAX;
	t->java = strncmp(t->comm, "java", 4) == 0;
}

void pe_machine_apply(struct pe_machine *m, const struct pe_record *r)
{
	switch (r->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		const struct pe_mmap *mm = &r->u.mmap;

		/* Without mmap_data only executable maps come; keep those. */
		if (mm->mmap2 && !(mm->prot & PROT_EXEC))
			return;
		pe_machine_add_map(m, mm->pid, mm->start, mm->len, mm->pgoff,
				   mm->filename, mm->filename_len, mm);
		break;
	}
	case PERF_RECORD_COMM:
		if (r->u.comm.exec && r->u.comm.pid == r->u.comm.tid) {
			struct pe_proc *pr = pmap_get(&m->procs, r->u.comm.pid);

			/*
			 * The old image's maps stay until the new image's
			 * mappings replace them, as perf keeps them: samples
			 * taken inside execve still return to the old libc.
			 */
			for (size_t i = 0; pr && i < pr->nmaps; i++)
				pr->maps[i].before_exec = true;
			if (pr && pr->sym_state && m->sy)
				sym_proc_maps_changed(m->sy, pr);
			if (m->sy)
				sym_jit_forget(m->sy, r->u.comm.pid);
		}
		pe_machine_set_comm(m, r->u.comm.pid, r->u.comm.tid,
				    r->u.comm.comm, r->u.comm.len);
		break;
	case PERF_RECORD_FORK: {
		const struct pe_task *tk = &r->u.task;
		struct pe_thread *parent = pmap_get(&m->threads, tk->ptid);
		struct pe_thread *t;
		char *comm = parent && parent->comm ? xstrdup(parent->comm)
						      : NULL;

		t = thread_get(m, tk->pid, tk->tid);
		t->pid = tk->pid;
		if (comm) {
			pe_machine_set_comm(m, tk->pid, tk->tid, comm,
					    strlen(comm));
			free(comm);
		}
		if (tk->pid != tk->ppid && tk->pid != 0) {
			struct pe_proc *pp = pmap_get(&m->procs, tk->ppid);
			struct pe_proc *np;

			proc_drop(m, tk->pid);
			np = proc_get(m, tk->pid);
			if (pp && pp->nmaps &&
			    m->total_maps + pp->nmaps > MAX_TOTAL_MAPS) {
				m->st.maps_dropped += pp->nmaps;
			} else if (pp && pp->nmaps) {
				m->total_maps += pp->nmaps;
				GROW(np->maps, np->capmaps, pp->nmaps);
				memcpy(np->maps, pp->maps,
				       pp->nmaps * sizeof(*pp->maps));
				np->nmaps = pp->nmaps;
			}
		}
		break;
	}
	case PERF_RECORD_EXIT:
		if (!m->keep_exited && r->u.task.pid == r->u.task.tid &&
		    r->u.task.pid != 0)
			proc_drop(m, r->u.task.pid);
		break;
	case PERF_RECORD_LOST:
		m->st.lost += r->u.lost.lost;
		break;
	case PERF_RECORD_THROTTLE:
		m->st.throttled++;
		break;
	default:
		break;
	}
}

const struct pe_machine_stats *pe_machine_stats(const struct pe_machine *m)
{
	return &m->st;
}

/* ---- Frame names --------------------------------------------------------- */

enum ctx { CTX_USER, CTX_KERNEL, CTX_OTHER };

#define TAG_KERNEL 2u
#define TAG_JAVA 4u      /* the name gets java tidying */
#define TAG_RET 1u      /* a return address: look up addr - 1 */

static void buf_need(struct pe_machine *m, size_t n)
{
	if (n > m->capbuf)
		GROW(m->buf, m->capbuf, n);
}

/*
 * Tidy a function name as stackcollapse-perf.pl does: ';' becomes ':',
 * everything from the first '(' goes (but not "(anonymous namespace)" and
 * not Go's "pkg.(*T).M"), quotes go; a java class path loses its 'L'.
 */
static size_t tidy(char *s, size_t n, bool java)
{
	size_t o = 0;
	bool go = false;

	/* Go methods: a '.' then '(' ... ')' then '.'. */
	for (size_t i = 0; i + 1 < n && !go; i++) {
		if (s[i] == '.' && s[i + 1] == '(') {
			for (size_t k = i + 2; k + 1 < n; k++)
				if (s[k] == ')' && s[k + 1] == '.') {
					go = true;
					break;
				}
		}
	}
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '(' && !go) {
			static const char an[] = "anonymous namespace)";

			if (!(n - i - 1 >= sizeof(an) - 1 &&
			      memcmp(s + i + 1, an, sizeof(an) - 1) == 0))
				break;
		}
		if (c == ';')
			c = ':';
		if (c == '"' || c == '\'')
			continue;
		s[o++] = c;
	}
	if (java && memchr(s, '/', o) && o && s[0] == 'L') {
		memmove(s, s + 1, o - 1);
		o--;
	}
	return o;
}

/*
 * Build one frame's name into m->buf: func (NULL: unknown), the module it
 * was found in (NULL: none), the address perf would print, and what
 * annotation applies.
 */
static uint32_t make_name(struct pe_machine *m, const char *func,
			  const char *mod, uint64_t shown, bool jit,
			  bool java)
{
	size_t fl, ml, n;
	bool kernel;

	ml = mod ? strlen(mod) : 0;
	kernel = mod && ((ml && mod[0] == '[') ||
			 (ml >= 7 && memcmp(mod + ml - 7, "vmlinux", 7) == 0));
	if (func) {
		fl = strlen(func);
		buf_need(m, fl + 16);
		memcpy(m->buf, func, fl);
		n = fl;
	} else {
		const char *base = "unknown";

		if (mod) {
			const char *sl = strrchr(mod, '/');

			base = sl ? sl + 1 : mod;
		}
		fl = strlen(base);
		/* "[libfoo.so]", not "[libfoo.so (deleted)]" cut at '('. */
		if (fl > 10 && strcmp(base + fl - 10, " (deleted)") == 0)
			fl -= 10;
		buf_need(m, fl + 48);
		if (m->o.addrs)
			n = (size_t)snprintf(m->buf, m->capbuf, "[%.*s <%llx>]",
					     (int)fl, base,
					     (unsigned long long)shown);
		else
			n = (size_t)snprintf(m->buf, m->capbuf, "[%.*s]",
					     (int)fl, base);
	}
	n = tidy(m->buf, n, java);
	buf_need(m, n + 8);
	if (m->o.kernel && kernel) {
		memcpy(m->buf + n, "_[k]", 4);
		n += 4;
	} else if (m->o.jit && jit) {
		if (!(n >= 4 && memcmp(m->buf + n - 4, "_[j]", 4) == 0)) {
			memcpy(m->buf + n, "_[j]", 4);
			n += 4;
		}
	}
	return profile_intern(m->p, m->buf, n);
}

static struct fc_slot *fc_find(struct pe_machine *m, uint64_t tag,
			       uint64_t addr)
{
	size_t i = hash_u64(tag * 0x9e3779b97f4a7c15ULL ^ addr) & m->fcmask;

	for (;; i = (i + 1) & m->fcmask) {
		struct fc_slot *s = &m->fc[i];

		if (s->id == 0) {
			s->tag = tag;
			s->addr = addr;
			return s;
		}
		if (s->tag == tag && s->addr == addr)
			return s;
	}
}

static void fc_grow(struct pe_machine *m)
{
	struct fc_slot *old = m->fc;
	size_t omask = m->fcmask;

	m->fcmask = omask * 2 + 1;
	m->fc = xcalloc(m->fcmask + 1, sizeof(*m->fc));
	for (size_t i = 0; i <= omask; i++)
		if (old[i].id)
			*fc_find(m, old[i].tag, old[i].addr) = old[i];
	free(old);
}

/* A cached frame: count it again if it was unresolved. */
static uint32_t fc_hit(struct pe_machine *m, const struct fc_slot *s)
{
	if (s->miss) {
		m->st.unknown_frames++;
		if (m->sy)
			sym_count_miss(m->sy, (enum sym_miss)(s->miss - 1));
	}
	return s->id - 1;
}

/* Store a new frame (the slot may have moved: find it again). */
static uint32_t fc_store(struct pe_machine *m, uint64_t tag, uint64_t addr,
			 uint32_t id, int miss)
{
	struct fc_slot *s = fc_find(m, tag, addr);

	s->id = id + 1;
	s->miss = (uint8_t)(miss + 1);
	if (miss >= 0) {
		m->st.unknown_frames++;
		if (m->sy)
			sym_count_miss(m->sy, (enum sym_miss)miss);
	}
	if (++m->nfc * 2 > m->fcmask)
		fc_grow(m);
	return id;
}

static uint32_t kernel_frame(struct pe_machine *m, uint64_t addr, bool ret)
{
	uint64_t tag = TAG_KERNEL | (ret ? TAG_RET : 0);
	struct fc_slot *slot = fc_find(m, tag, addr);
	const char *mod = "[kernel.kallsyms]", *fn = NULL;

	if (slot->id)
		return fc_hit(m, slot);
	/* Return addresses are looked up as they are, as perf does. */
	(void)ret;
	if (m->sy)
		fn = sym_kernel_lookup(m->sy, addr, &mod);
	return fc_store(m, tag, addr, make_name(m, fn, mod, addr, false, false),
			fn ? -1 : SYM_MISS_KERNEL);
}

/*
 * Return addresses are looked up as they are, as perf does (after a call
 * that ends a function the frame is named after what follows).
 */
static uint32_t user_frame(struct pe_machine *m, struct pe_proc *pr,
			   struct pe_thread *t, uint64_t addr)
{
	const struct pe_map *map = pe_proc_find_map(pr, addr);
	bool java = t && t->java;
	uint64_t tag, off;
	struct fc_slot *slot;
	char jitmod[64];

	if (!map) {
		m->st.unknown_frames++;
		if (m->sy)
			sym_count_miss(m->sy, SYM_MISS_NO_MAP);
		if (!m->o.addrs) {
			if (m->unknown_id == UINT32_MAX)
				m->unknown_id = make_name(m, NULL, NULL, 0,
							  false, false);
			return m->unknown_id;
		}
		return make_name(m, NULL, NULL, addr, false, false);
	}
	if (map->anon_exec) {
		const char *fn = m->sy ? sym_jit_lookup(m->sy, pr->pid,
							addr) : NULL;

		snprintf(jitmod, sizeof(jitmod), "/tmp/perf-%u.map", pr->pid);
		if (!fn) {
			m->st.unknown_frames++;
			if (m->sy)
				sym_count_miss(m->sy, SYM_MISS_JIT);
		}
		return make_name(m, fn, jitmod, addr, true, java);
	}
	tag = (uint64_t)(uintptr_t)map->dso | (java ? TAG_JAVA : 0);
	off = map->pgoff + (addr - map->start);
	slot = fc_find(m, tag, off);
	if (slot->id)
		return fc_hit(m, slot);
	{
		uint64_t vaddr = off;
		enum sym_miss why = SYM_MISS_NO_SYMBOL;
		const char *fn = NULL;

		if (map->dso && m->sy) {
			fn = sym_dso_lookup(m->sy, map->dso, off, &vaddr,
					    &why);
		}
		return fc_store(m, tag, off,
				make_name(m, fn,
					  map->dso ? sym_dso_path(map->dso)
						   : NULL,
					  vaddr, false, java),
				fn ? -1 : (int)why);
	}
}

static uint32_t root_frame(struct pe_machine *m, struct pe_thread *t,
			   uint32_t pid, uint32_t tid)
{
	char tmp[64];
	const char *comm;
	size_t n, cl;

	if (t && t->root_sym != UINT32_MAX && t->pid == pid)
		return t->root_sym;
	if (t && t->comm) {
		comm = t->comm;
	} else {
		snprintf(tmp, sizeof(tmp), ":%d", (int)tid);
		comm = tmp;
	}
	cl = strlen(comm);
	buf_need(m, cl + 48);
	memcpy(m->buf, comm, cl);
	for (size_t i = 0; i < cl; i++)
		if (m->buf[i] == ' ')
			m->buf[i] = '_';
	n = cl;
	if (m->o.tid)
		n += (size_t)snprintf(m->buf + n, m->capbuf - n, "-%u/%u",
				      pid, tid);
	else if (m->o.pid)
		n += (size_t)snprintf(m->buf + n, m->capbuf - n, "-%u", pid);
	{
		uint32_t id = profile_intern(m->p, m->buf, n);

		if (t) {
			t->root_sym = id;
			t->pid = pid;
		}
		return id;
	}
}

/* An inlined function's frame: its name marked "_[i]". */
static uint32_t inline_frame(struct pe_machine *m, const char *name)
{
	size_t n = strlen(name);

	buf_need(m, n + 8);
	memcpy(m->buf, name, n);
	n = tidy(m->buf, n, false);
	memcpy(m->buf + n, "_[i]", 4);
	return profile_intern(m->p, m->buf, n + 4);
}

/*
 * The user frames of a sample with a stack copy (--call-graph dwarf),
 * unwound in the process's Dwfl, leaf first; *ninl gets how many inlined
 * frames they add.  0: nothing unwound (use the callchain or the IP).
 */
static size_t unwind_user(struct pe_machine *m, struct pe_proc *pr,
			  const struct pe_sample *s,
			  const struct unwind_frame **uf, size_t *ninl)
{
	enum unwind_result r;
	size_t n;

	if (!m->uw) {
		struct unwind_opts uo = { 0, !m->o.no_inline };

		m->uw = unwind_create(&uo);
	}
	n = unwind_sample(m->uw, sym_proc_dwfl(m->sy, pr), s, uf, &r);
	m->st.dwarf_stacks++;
	if (r != UNWIND_COMPLETE)
		m->st.dwarf_truncated++;
	*ninl = 0;
	for (size_t i = 0; i < n; i++)
		*ninl += (*uf)[i].ninline;
	return n;
}

/*
 * Build s's stack into m->out, root first; returns its length.  With a
 * stack copy, the user part is unwound and joined below the kernel part
 * of the callchain, as perf does (perf's DWARF mode records no user
 * callchain; a user callchain present is replaced).
 */
static size_t build_stack(struct pe_machine *m, const struct pe_sample *s)
{
	struct pe_thread *t = pmap_get(&m->threads, s->tid);
	struct pe_proc *pr = pmap_get(&m->procs, s->pid);
	enum ctx ctx;
	bool first = true;
	size_t n = 0, total;
	uint64_t nr = s->has_callchain ? s->nr : 0;
	const struct unwind_frame *uf = NULL;
	size_t nu = 0, ninl = 0;

	if (!t && s->pid != s->tid) {
		/* An unknown thread of a known process takes its name. */
		struct pe_thread *leader = pmap_get(&m->threads, s->pid);

		if (leader && leader->comm)
			pe_machine_set_comm(m, s->pid, s->tid, leader->comm,
					    strlen(leader->comm));
		t = pmap_get(&m->threads, s->tid);
	}
	if (s->stack && s->stack_dyn_size && s->regs && pr && m->sy)
		nu = unwind_user(m, pr, s, &uf, &ninl);
	if (nr + 1 + nu + ninl > m->capids)
		GROW(m->ids, m->capids, nr + 1 + nu + ninl);
	ctx = s->cpumode == PERF_RECORD_MISC_KERNEL ? CTX_KERNEL :
	      s->cpumode == PERF_RECORD_MISC_USER ? CTX_USER : CTX_OTHER;
	if (nr == 0 && (ctx == CTX_KERNEL || !nu)) {
		m->ids[n++] = ctx == CTX_KERNEL ? kernel_frame(m, s->ip, false)
						: user_frame(m, pr, t, s->ip);
	}
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t v = pe_chain_at(s, i);

		if (v >= PE_CONTEXT_MAX) {
			switch ((int64_t)v) {
			case PERF_CONTEXT_KERNEL:
				ctx = CTX_KERNEL;
				break;
			case PERF_CONTEXT_USER:
				ctx = CTX_USER;
				break;
			case PERF_CONTEXT_HV:
			case PERF_CONTEXT_GUEST:
			case PERF_CONTEXT_GUEST_KERNEL:
			case PERF_CONTEXT_GUEST_USER:
				ctx = CTX_OTHER;
				break;
			default:
				/*
				 * Not a context: a corrupt chain (a frame
				 * pointer of -1).  perf drops the whole chain;
				 * so does flametop, to show the same stacks.
				 */
				n = 0;
				i = nr;
				continue;
			}
			first = true;
			continue;
		}
		if (ctx == CTX_KERNEL)
			m->ids[n++] = kernel_frame(m, v, !first);
		else if (ctx != CTX_USER || !nu)
			m->ids[n++] = user_frame(m, pr, t, v);
		first = false;
	}
	for (size_t i = 0; i < nu; i++) {
		/* A return address: the call is the byte before (as perf). */
		uint64_t pc = uf[i].activation ? uf[i].pc : uf[i].pc - 1;

		for (unsigned k = 0; k < uf[i].ninline; k++)
			m->ids[n++] = inline_frame(m, uf[i].inlined[k]);
		m->ids[n++] = user_frame(m, pr, t, pc);
	}
	m->st.frames += n;
	total = n + 1;
	if (total > m->capout)
		GROW(m->out, m->capout, total);
	m->out[0] = root_frame(m, t, s->pid, s->tid);
	for (size_t i = 0; i < n; i++)
		m->out[i + 1] = m->ids[n - 1 - i];
	return total;
}

const uint32_t *pe_machine_build(struct pe_machine *m,
				 const struct pe_sample *s, size_t *n)
{
	*n = build_stack(m, s);
	return m->out;
}

size_t pe_machine_stack(struct pe_machine *m, const struct pe_sample *s,
			uint32_t *ids, size_t cap)
{
	size_t total = build_stack(m, s);

	memcpy(ids, m->out, (total < cap ? total : cap) * sizeof(*ids));
	return total;
}

void pe_machine_meta(struct pe_machine *m, const struct pe_sample *s,
		     struct sample_meta *meta)
{
	memset(meta, 0, sizeof(*meta));
	meta->time_ns = s->time;
	meta->has_time = s->has_time;
	meta->has_cpu = s->has_cpu;
	meta->cpu = s->cpu;
	meta->has_task = s->has_tid;
	meta->pid = s->pid;
	meta->tid = s->tid;
	if (!s->has_tid)
		return;
	/* The root frame is the command, with "-PID[/TID]" when asked. */
	meta->comm = m->out[0];
	if (m->o.pid || m->o.tid) {
		const struct symtab *st = profile_symtab(m->p);
		const char *r = symtab_name(st, m->out[0]);
		size_t len = symtab_len(st, m->out[0]);
		int k = m->o.tid ? snprintf(NULL, 0, "-%u/%u", s->pid, s->tid)
				 : snprintf(NULL, 0, "-%u", s->pid);

		if (k > 0 && (size_t)k < len)
			meta->comm = profile_intern(m->p, r, len - (size_t)k);
	}
}

enum add_status pe_machine_add_sample(struct pe_machine *m,
				      const struct pe_sample *s,
				      uint64_t weight)
{
	size_t n;
	struct weight w = { weight, 0, 0 };
	struct sample_meta meta;
	enum add_status st;

	n = build_stack(m, s);
	pe_machine_meta(m, s, &meta);
	if (n > PROFILE_MAX_DEPTH)
		n = PROFILE_MAX_DEPTH;
	st = profile_add_stack(m->p, m->out, n, &w, &meta);
	if (st == ADD_OK)
		m->st.samples++;
	return st;
}
