/*
 * perf-procs.c - the process/thread/map table (perf-procs.h).
 *
 * Per pid a sorted array of non-overlapping mappings (a new mapping cuts
 * the ones it overlaps, as mmap does), and per tid the thread's name.  A
 * fork copies the parent's mappings (a fork writes no MMAP records); after
 * an exec (COMM with the exec flag) the new image's mappings replace the
 * old ones as they come.
 */
#include "perf-procs.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util.h"

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

/* ---- The table ----------------------------------------------------------- */

struct pe_proc {
	uint32_t pid;
	struct pe_map *maps;
	size_t nmaps, capmaps;
	void *sym_state;        /* symbols.h's per-process state */
	uint64_t changed;       /* pt->clock at its last change */
};

struct pe_procs {
	struct pmap procs, threads;
	struct pe_procs_hooks h;
	uint64_t *maps_dropped;
	uint64_t dropped;       /* where maps_dropped points if not given */
	bool keep_exited;
	size_t total_maps;      /* maps of every process */
	uint64_t clock;         /* ticks at every change (pe_procs_clock) */
};

struct pe_procs *pe_procs_create(const struct pe_procs_hooks *hooks,
				 uint64_t *maps_dropped)
{
	struct pe_procs *pt = xcalloc(1, sizeof(*pt));

	if (hooks)
		pt->h = *hooks;
	pt->maps_dropped = maps_dropped ? maps_dropped : &pt->dropped;
	return pt;
}

static void proc_free(struct pe_procs *pt, struct pe_proc *pr)
{
	if (!pr)
		return;
	if (pr->sym_state && pt->h.release)
		pt->h.release(pt->h.ctx, pr->sym_state);
	pt->total_maps -= pr->nmaps;
	free(pr->maps);
	free(pr);
}

void pe_procs_destroy(struct pe_procs *pt)
{
	if (!pt)
		return;
	for (size_t i = 0; pt->procs.s && i <= pt->procs.mask; i++)
		if (pt->procs.s[i].val)
			proc_free(pt, pt->procs.s[i].val);
	for (size_t i = 0; pt->threads.s && i <= pt->threads.mask; i++) {
		struct pe_thread *t = pt->threads.s[i].val;

		if (t) {
			free(t->comm);
			free(t);
		}
	}
	free(pt->procs.s);
	free(pt->threads.s);
	free(pt);
}

void pe_procs_keep_exited(struct pe_procs *pt, bool keep)
{
	pt->keep_exited = keep;
}

struct pe_proc *pe_procs_proc(const struct pe_procs *pt, uint32_t pid)
{
	return pmap_get(&pt->procs, pid);
}

struct pe_thread *pe_procs_thread(const struct pe_procs *pt, uint32_t tid)
{
	return pmap_get(&pt->threads, tid);
}

static struct pe_proc *proc_get(struct pe_procs *pt, uint32_t pid)
{
	struct pe_proc *pr = pmap_get(&pt->procs, pid);

	if (!pr) {
		pr = xcalloc(1, sizeof(*pr));
		pr->pid = pid;
		pr->changed = ++pt->clock;
		pmap_put(&pt->procs, pid, pr);
	}
	return pr;
}

static void proc_drop(struct pe_procs *pt, uint32_t pid)
{
	struct pe_proc *pr = pmap_get(&pt->procs, pid);

	if (pr) {
		pmap_del(&pt->procs, pid);
		proc_free(pt, pr);
		++pt->clock;    /* gone: a change too (pe_procs_clock) */
	}
	if (pt->h.forget)
		pt->h.forget(pt->h.ctx, pid);
}

uint32_t pe_proc_pid(const struct pe_proc *pr)
{
	return pr->pid;
}

uint64_t pe_procs_clock(const struct pe_procs *pt)
{
	return pt->clock;
}

uint64_t pe_proc_changed(const struct pe_proc *pr)
{
	return pr->changed;
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
static void proc_insert(struct pe_procs *pt, struct pe_proc *pr,
			const struct pe_map *nm)
{
	size_t lo = 0, hi = pr->nmaps, i0, i1, k = 0;
	struct pe_map rep[3];

	pr->changed = ++pt->clock;
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
	    pt->total_maps + k > MAX_TOTAL_MAPS) {
		(*pt->maps_dropped)++;
		return;
	}
	pt->total_maps = pt->total_maps + k - (i1 - i0);
	GROW(pr->maps, pr->capmaps, pr->nmaps - (i1 - i0) + k);
	memmove(&pr->maps[i0 + k], &pr->maps[i1],
		(pr->nmaps - i1) * sizeof(*pr->maps));
	memcpy(&pr->maps[i0], rep, k * sizeof(*rep));
	pr->nmaps = pr->nmaps - (i1 - i0) + k;
	if (pr->sym_state && pt->h.maps_changed)
		pt->h.maps_changed(pt->h.ctx, pr);
}

static bool is_anon_name(const char *s, size_t n)
{
	/* .NET maps its JIT code twice (W^X) from a memfd "doublemapper". */
	static const char *const anon[] = { "//anon", "[anon:", "/dev/zero",
		"/anon_hugepage", "[heap]", "[stack]", "/memfd:doublemapper" };

	for (size_t i = 0; i < ARRAY_SIZE(anon); i++) {
		size_t k = strlen(anon[i]);

		if (n >= k && memcmp(s, anon[i], k) == 0)
			return true;
	}
	return n == 0;
}

void pe_procs_add_map(struct pe_procs *pt, uint32_t pid, uint64_t start,
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
	} else if (pt->h.dso_get) {
		nm.dso = pt->h.dso_get(pt->h.ctx, path, path_len, ident);
	}
	pr = proc_get(pt, pid);
	proc_insert(pt, pr, &nm);
}

static struct pe_thread *thread_get(struct pe_procs *pt, uint32_t pid,
				    uint32_t tid)
{
	struct pe_thread *t = pmap_get(&pt->threads, tid);

	if (!t) {
		t = xcalloc(1, sizeof(*t));
		t->pid = pid;
		t->tid = tid;
		t->changed = ++pt->clock;
		t->root_sym = UINT32_MAX;
		pmap_put(&pt->threads, tid, t);
	}
	return t;
}

void pe_procs_set_comm(struct pe_procs *pt, uint32_t pid, uint32_t tid,
			 const char *comm, size_t len)
{
	struct pe_thread *t = thread_get(pt, pid, tid);

	free(t->comm);
	t->comm = xstrndup(comm, strnlen(comm, len));
	t->pid = pid;
	t->root_sym = UINT32_MAX;
	t->java = strncmp(t->comm, "java", 4) == 0;
	t->changed = ++pt->clock;
}

void pe_procs_apply(struct pe_procs *pt, const struct pe_record *r)
{
	switch (r->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		const struct pe_mmap *mm = &r->u.mmap;

		/* Without mmap_data only executable maps come; keep those. */
		if (mm->mmap2 && !(mm->prot & PROT_EXEC))
			return;
		pe_procs_add_map(pt, mm->pid, mm->start, mm->len, mm->pgoff,
				   mm->filename, mm->filename_len, mm);
		break;
	}
	case PERF_RECORD_COMM:
		if (r->u.comm.exec && r->u.comm.pid == r->u.comm.tid) {
			struct pe_proc *pr = pmap_get(&pt->procs, r->u.comm.pid);

			/*
			 * The old image's maps stay until the new image's
			 * mappings replace them, as perf keeps them: samples
			 * taken inside execve still return to the old libc.
			 */
			for (size_t i = 0; pr && i < pr->nmaps; i++)
				pr->maps[i].before_exec = true;
			if (pr)
				pr->changed = ++pt->clock;
			if (pr && pr->sym_state && pt->h.maps_changed)
				pt->h.maps_changed(pt->h.ctx, pr);
			if (pt->h.forget)
				pt->h.forget(pt->h.ctx, r->u.comm.pid);
		}
		pe_procs_set_comm(pt, r->u.comm.pid, r->u.comm.tid,
				    r->u.comm.comm, r->u.comm.len);
		break;
	case PERF_RECORD_FORK: {
		const struct pe_task *tk = &r->u.task;
		struct pe_thread *parent = pmap_get(&pt->threads, tk->ptid);
		struct pe_thread *t;
		char *comm = parent && parent->comm ? xstrdup(parent->comm)
						      : NULL;

		t = thread_get(pt, tk->pid, tk->tid);
		t->pid = tk->pid;
		t->changed = ++pt->clock;
		if (comm) {
			pe_procs_set_comm(pt, tk->pid, tk->tid, comm,
					    strlen(comm));
			free(comm);
		}
		if (tk->pid != tk->ppid && tk->pid != 0) {
			struct pe_proc *pp = pmap_get(&pt->procs, tk->ppid);
			struct pe_proc *np;

			proc_drop(pt, tk->pid);
			np = proc_get(pt, tk->pid);
			if (pp && pp->nmaps &&
			    pt->total_maps + pp->nmaps > MAX_TOTAL_MAPS) {
				*pt->maps_dropped += pp->nmaps;
			} else if (pp && pp->nmaps) {
				pt->total_maps += pp->nmaps;
				GROW(np->maps, np->capmaps, pp->nmaps);
				memcpy(np->maps, pp->maps,
				       pp->nmaps * sizeof(*pp->maps));
				np->nmaps = pp->nmaps;
			}
			np->changed = ++pt->clock;
		}
		break;
	}
	case PERF_RECORD_EXIT:
		if (!pt->keep_exited && r->u.task.pid == r->u.task.tid &&
		    r->u.task.pid != 0)
			proc_drop(pt, r->u.task.pid);
		break;
	default:
		break;
	}
}
