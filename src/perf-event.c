/*
 * perf-event.c - stacks from decoded samples (perf-event.h): the machine
 * that holds the process table, the symbolizer and the unwinder, and
 * names each frame.
 *
 * Frame names cost a symbol lookup and a name interning; both are cached
 * per (file, address): a profile's samples hit the same few thousand
 * addresses again and again.
 */
#include "perf-event.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame-locs.h"
#include "jitdump.h"
#include "profile-addr.h"
#include "stack-cache.h"
#include "symbols.h"
#include "unwind.h"
#include "util.h"

/* ---- The machine --------------------------------------------------------- */

/* The frame cache: (tag, address) -> interned id. */
struct fc_slot {
	uint64_t tag, addr;
	uint64_t vaddr;         /* the address kept for the frame (paddr) */
	uint32_t id;            /* id + 1; 0: empty */
	uint32_t fn;            /* paddr function id, PADDR_NONE: unknown */
	uint8_t miss;           /* enum sym_miss + 1; 0: resolved */
};

struct pe_machine {
	struct symbolizer *sy;
	struct profile *p;
	struct read_opts o;
	struct pe_procs *pt;    /* processes, threads, maps */
	struct fc_slot *fc;
	size_t nfc, fcmask;
	uint32_t unknown_id;    /* "[unknown]" */
	uint32_t *ids;          /* scratch: leaf-first frames */
	size_t capids;
	uint32_t *out;          /* scratch: the stack, root first */
	size_t capout;
	struct paddr *pa;       /* the profile's address tables */
	struct paddr_frame *af; /* scratch: leaf-first frames' addresses */
	struct paddr_frame *aout; /* the same, root first */
	size_t capaf, naf;
	struct paddr_frame last; /* the last frame named (fc_* set it) */
	struct fn_slot {        /* function name (stable pointer) -> id */
		const char *fn;
		const void *d;
		uint32_t id;
	} *fns;
	size_t nfns, fnmask;
	char *buf;              /* scratch for names */
	size_t capbuf;
	struct pe_machine_stats st;
	struct unwinder *uw;    /* DWARF unwinder, made on the first stack copy */
	struct stack_cache *sc; /* chains to tree nodes (pe_machine_cache_stacks) */
	bool volatile_names;    /* the stack being built has a name that may
				   change without the process changing (JIT) */
	bool jit_times;         /* sample times are the jitdumps' clock */
	uint64_t jit_time;      /* the time JIT code is named at */
	bool jit_unnamed;       /* the stack has JIT code its process's
				   jitdump does not name (yet) */
	struct sym_srcline jit_line;  /* the jitdump's line of the JIT frame
				   just named (path NULL: none), for the
				   address tables */
	struct pe_machine_stats st_before;  /* before the last stack */
	uint64_t miss_before[SYM_MISS_COUNT];
	size_t fn_end, ln_end;  /* the name in buf: its function's name ends
				   at fn_end, " FILE:LINE" at ln_end */
	size_t name_end;
};

/* The process table's hooks into the symbolizer (ctx: the symbolizer). */
static struct sym_dso *hook_dso_get(void *ctx, const char *path, size_t len,
				    const struct pe_mmap *ident)
{
	struct sym_file_id id = { 0 };

	if (ident && ident->has_build_id) {
		id.build_id = ident->build_id;
		id.build_id_len = ident->build_id_size;
	} else if (ident && ident->mmap2) {
		id.maj = ident->maj;
		id.min = ident->min;
		id.ino = ident->ino;
	}
	return sym_dso_get(ctx, path, len, &id);
}

static void hook_maps_changed(void *ctx, struct pe_proc *pr)
{
	sym_proc_maps_changed(ctx, pr);
}

static void hook_release(void *ctx, void *sym_state)
{
	sym_proc_release(ctx, sym_state);
}

static void hook_forget(void *ctx, uint32_t pid)
{
	sym_jit_forget(ctx, pid);
}

struct pe_machine *pe_machine_create(struct symbolizer *sy,
				     struct profile *p,
				     const struct read_opts *o)
{
	struct pe_machine *m = xcalloc(1, sizeof(*m));
	const struct pe_procs_hooks hooks = {
		sy, hook_dso_get, hook_maps_changed, hook_release, hook_forget
	};

	m->sy = sy;
	m->p = p;
	if (o)
		m->o = *o;
	m->pt = pe_procs_create(sy ? &hooks : NULL, &m->st.maps_dropped);
	m->fcmask = 4095;
	ARR_GROW(m->fc, 0, m->fcmask + 1);
	populate_table(m->fc, (m->fcmask + 1) * sizeof(*m->fc));
	m->unknown_id = UINT32_MAX;
	/* No tables when nothing will read them: they cost a probe a stack. */
	m->pa = o && o->no_addr_tables ? NULL : profile_paddr(p, true);
	pe_machine_set_comm(m, 0, 0, "swapper", 7);
	return m;
}

void pe_machine_destroy(struct pe_machine *m)
{
	if (!m)
		return;
	pe_procs_destroy(m->pt);
	ARR_FREE(m->fc, m->fcmask + 1);
	free(m->ids);
	free(m->out);
	free(m->af);
	free(m->aout);
	free(m->fns);
	free(m->buf);
	unwind_destroy(m->uw);
	sc_destroy(m->sc);
	free(m);
}

void pe_machine_cache_stacks(struct pe_machine *m)
{
	if (!m->sc)
		m->sc = sc_create();
}

void pe_machine_set_lines(struct pe_machine *m, bool on)
{
	if (m->o.lines == on)
		return;
	m->o.lines = on;
	/* The cached names are the other granularity's. */
	ARR_FREE(m->fc, m->fcmask + 1);
	m->fcmask = 4095;
	m->nfc = 0;
	ARR_GROW(m->fc, 0, m->fcmask + 1);
	populate_table(m->fc, (m->fcmask + 1) * sizeof(*m->fc));
	if (m->sc) {
		sc_destroy(m->sc);
		m->sc = sc_create();
	}
}

void pe_machine_keep_exited(struct pe_machine *m, bool keep)
{
	pe_procs_keep_exited(m->pt, keep);
}

/* A runtime's jitdump among pid's mappings: its JIT code is named from it. */
static void note_jitdump(struct pe_machine *m, uint32_t pid, const char *path,
			 size_t len)
{
	if (m->sy && sym_is_jitdump(path, len))
		sym_jitdump_mapped(m->sy, pid, path, len);
}

void pe_machine_apply(struct pe_machine *m, const struct pe_record *r)
{
	if (r->type == PERF_RECORD_MMAP || r->type == PERF_RECORD_MMAP2)
		note_jitdump(m, r->u.mmap.pid, r->u.mmap.filename,
			     r->u.mmap.filename_len);
	if (r->type == PERF_RECORD_LOST)
		m->st.lost += r->u.lost.lost;
	else if (r->type == PERF_RECORD_THROTTLE)
		m->st.throttled++;
	else
		pe_procs_apply(m->pt, r);
}

void pe_machine_add_map(struct pe_machine *m, uint32_t pid, uint64_t start,
			uint64_t len, uint64_t pgoff, const char *path,
			size_t path_len, const struct pe_mmap *ident)
{
	note_jitdump(m, pid, path, path_len);
	pe_procs_add_map(m->pt, pid, start, len, pgoff, path, path_len, ident);
}

void pe_machine_jit_times(struct pe_machine *m, bool on)
{
	m->jit_times = on;
}

bool pe_machine_jit_unnamed(const struct pe_machine *m)
{
	return m->jit_unnamed;
}

void pe_machine_uncount_last(struct pe_machine *m)
{
	m->st = m->st_before;
	/* Unsigned: adding the difference wraps back to the old count. */
	for (unsigned k = 0; m->sy && k < SYM_MISS_COUNT; k++)
		sym_count_misses(m->sy, (enum sym_miss)k,
				 m->miss_before[k] -
				 sym_misses(m->sy, (enum sym_miss)k));
}

void pe_machine_set_comm(struct pe_machine *m, uint32_t pid, uint32_t tid,
			 const char *comm, size_t len)
{
	pe_procs_set_comm(m->pt, pid, tid, comm, len);
}

struct pe_proc *pe_machine_proc(struct pe_machine *m, uint32_t pid)
{
	return pe_procs_proc(m->pt, pid);
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
 * A newline becomes a blank.
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
		/* A newline would end the line in --collapse: a symbol file
		 * could forge stacks there (the folded reader never sees one). */
		if (c == '\n')
			c = ' ';
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
 * Append " FILE:LINE" to the name of n bytes in m->buf (--lines); a ';' or
 * newline in the file name would split the stack in --collapse.
 */
static size_t srcline_append(struct pe_machine *m, size_t n,
			     const struct sym_srcline *ln)
{
	size_t fl = strlen(ln->file);

	buf_need(m, n + fl + 16);
	m->buf[n++] = ' ';
	for (size_t i = 0; i < fl; i++) {
		char c = ln->file[i];

		m->buf[n++] = c == ';' ? ':' : c == '\n' ? ' ' : c;
	}
	return n + (size_t)snprintf(m->buf + n, m->capbuf - n, ":%u",
				    ln->line);
}

/*
 * Build one frame's name into m->buf: func (NULL: unknown), the module it
 * was found in (NULL: none), the address perf would print, and what
 * annotation applies.
 */
static uint32_t make_name(struct pe_machine *m, const char *func,
			  const char *mod, uint64_t shown, bool jit,
			  bool java, const struct sym_srcline *ln)
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
	m->fn_end = n;
	if (ln)
		n = srcline_append(m, n, ln);
	m->ln_end = n;
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
	m->name_end = n;
	return profile_intern(m->p, m->buf, n);
}

/*
 * Note where frame id, just named in m->buf, came from (frame-locs.h,
 * for --pprof): the file path (NULL: none) with its build-id (hex) and
 * the mapping map of it (NULL: range unknown), an address, the line ln.
 * The function's name is the frame's without " FILE:LINE".
 */
static void note_frame(struct pe_machine *m, uint32_t id, const char *path,
		       const char *bid, size_t bid_len,
		       const struct pe_map *map, uint64_t addr,
		       const struct sym_srcline *ln)
{
	struct frame_locs *fl = profile_frame_locs(m->p);
	struct floc_frame f = { 0 };
	uint64_t shift = 0;

	if (floc_known(fl, id))
		return;
	if (path) {
		struct floc_binary b = { path, strlen(path), bid, bid_len,
					 0, 0, 0 };

		if (map) {
			b.start = map->start;
			b.limit = map->end;
			b.offset = map->pgoff;
		}
		f.binary = floc_add_binary(fl, &b, &shift);
	}
	f.addr = addr + shift;
	memmove(m->buf + m->fn_end, m->buf + m->ln_end,
		m->name_end - m->ln_end);
	f.func = m->buf;
	f.func_len = m->fn_end + (m->name_end - m->ln_end);
	if (ln) {
		f.file = ln->path ? ln->path : ln->file;
		f.file_len = strlen(f.file);
		f.line = ln->line;
	}
	floc_note(fl, id, &f);
}

/* note_frame for a frame of the file mapped by map. */
static void note_user(struct pe_machine *m, uint32_t id,
		      const struct pe_map *map, uint64_t addr,
		      const struct sym_srcline *ln)
{
	const char *hex = NULL;
	size_t hl = 0;

	if (!map->dso) {
		note_frame(m, id, NULL, NULL, 0, NULL, addr, ln);
		return;
	}
	if (m->sy)
		hex = sym_dso_build_id(m->sy, map->dso, &hl);
	note_frame(m, id, sym_dso_path(map->dso), hex, hl, map, addr, ln);
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
	m->fc = NULL;
	ARR_GROW(m->fc, 0, m->fcmask + 1);
	populate_table(m->fc, (m->fcmask + 1) * sizeof(*m->fc));
	for (size_t i = 0; i <= omask; i++)
		if (old[i].id)
			*fc_find(m, old[i].tag, old[i].addr) = old[i];
	ARR_FREE(old, omask + 1);
}

/* A cached frame: count it again if it was unresolved. */
static uint32_t fc_hit(struct pe_machine *m, const struct fc_slot *s)
{
	m->last.func = s->fn;
	m->last.addr = s->vaddr;
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

	s->fn = m->last.func;
	s->vaddr = m->last.addr;
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

/*
 * The function a frame is in, for the address tables: m->last gets its id
 * and the address (fn NULL: unknown).  A file's addresses are ELF virtual
 * addresses (d set), others as sampled.  Called where a frame is named,
 * before make_name (which reuses m->buf).
 */
/*
 * The slot of a function name the symbolizer handed out (its pointers are
 * stable while it lives: a dso's symbol, a kallsyms line) in d's file.
 */
static struct fn_slot *fn_find(struct pe_machine *m, const char *fn,
			       const void *d)
{
	size_t i;

	if (!m->fns) {
		m->fnmask = 1023;
		m->fns = xcalloc(m->fnmask + 1, sizeof(*m->fns));
	}
	i = hash_u64((uint64_t)(uintptr_t)fn * 31 + (uintptr_t)d) & m->fnmask;
	while (m->fns[i].fn && (m->fns[i].fn != fn || m->fns[i].d != d))
		i = (i + 1) & m->fnmask;
	return &m->fns[i];
}

static void fn_store(struct pe_machine *m, const char *fn, const void *d,
		     uint32_t id)
{
	struct fn_slot *s = fn_find(m, fn, d);

	s->fn = fn;
	s->d = d;
	s->id = id;
	if (++m->nfns * 2 > m->fnmask) {
		struct fn_slot *old = m->fns;
		size_t omask = m->fnmask;

		m->fnmask = omask * 2 + 1;
		m->fns = xcalloc(m->fnmask + 1, sizeof(*m->fns));
		for (size_t i = 0; i <= omask; i++)
			if (old[i].fn)
				*fn_find(m, old[i].fn, old[i].d) = old[i];
		free(old);
	}
}

static void note_func(struct pe_machine *m, const char *fn, const char *mod,
		      struct sym_dso *d, uint64_t addr)
{
	struct paddr_func f = { 0 };
	struct fn_slot *slot;
	size_t n;

	m->last.func = PADDR_NONE;
	m->last.addr = addr;
	if (!fn || !m->pa)
		return;
	/* JIT names come from a file read again: not kept by pointer. */
	slot = d || !mod || mod[0] == '[' ? fn_find(m, fn, d) : NULL;
	if (slot && slot->fn) {
		m->last.func = slot->id;
		return;
	}
	n = strlen(fn);
	buf_need(m, n + 1);
	memcpy(m->buf, fn, n);
	n = tidy(m->buf, n, false);
	m->buf[n] = 0;
	f.name = m->buf;
	f.module = mod;
	if (d && m->sy) {
		f.elf_vaddr = true;
		f.dso = d;
		f.sym = m->sy;
		f.build_id = sym_dso_build_id_bytes(d, &f.build_id_len);
		if (!sym_dso_func_range(m->sy, d, addr, &f.start, &f.end))
			f.start = f.end = 0;
	}
	m->last.func = paddr_func_intern(m->pa, &f);
	if (slot)
		fn_store(m, fn, d, m->last.func);
}

static uint32_t kernel_frame(struct pe_machine *m, uint64_t addr, bool ret)
{
	uint64_t tag = TAG_KERNEL | (ret ? TAG_RET : 0);
	struct fc_slot *slot = fc_find(m, tag, addr);
	const char *mod = "[kernel.kallsyms]", *fn = NULL;
	uint32_t id;
	const char *hex = NULL;
	size_t hl = 0;
	struct pe_map km = { 0 };
	const struct pe_map *kmap = NULL;

	if (slot->id)
		return fc_hit(m, slot);
	/* Return addresses are looked up as they are, as perf does. */
	(void)ret;
	if (m->sy)
		fn = sym_kernel_lookup(m->sy, addr, &mod);
	note_func(m, fn, mod, NULL, addr);
	id = make_name(m, fn, mod, addr, false, false, NULL);
	if (m->sy && strcmp(mod, "[kernel.kallsyms]") == 0) {
		hex = sym_kernel_build_id(m->sy, &hl);
		/* The kernel's map, where perf recorded it: its "file
		 * offsets" are addresses (perf's pgoff is _text's). */
		if (sym_kernel_map(m->sy, &km.start, &km.end)) {
			km.pgoff = km.start;
			kmap = &km;
		}
	}
	note_frame(m, id, mod, hex, hl, kmap, addr, NULL);
	return fc_store(m, tag, addr, id, fn ? -1 : SYM_MISS_KERNEL);
}

/*
 * The source lines at vaddr of d (--lines), innermost first, as
 * sym_dso_lines gives them; 0 when none is known or --lines is off.
 */
static size_t frame_lines(struct pe_machine *m, struct sym_dso *d,
			  uint64_t vaddr, struct sym_srcline *out, size_t cap)
{
	if (!m->o.lines || !d || !m->sy)
		return 0;
	return sym_dso_lines(m->sy, d, vaddr, out, cap);
}

/*
 * Return addresses are looked up as they are, as perf does (after a call
 * that ends a function the frame is named after what follows); their
 * source line (--lines, ret set) is the call's, at the byte before.
 */
static uint32_t user_frame(struct pe_machine *m, struct pe_proc *pr,
			   struct pe_thread *t, uint64_t addr, bool ret)
{
	const struct pe_map *map = pe_proc_find_map(pr, addr);
	bool java = t && t->java;
	uint64_t tag, off;
	struct fc_slot *slot;
	char jitmod[64];

	m->last.func = PADDR_NONE;
	m->last.addr = addr;
	if (!map) {
		m->st.unknown_frames++;
		if (m->sy)
			sym_count_miss(m->sy, SYM_MISS_NO_MAP);
		if (!m->o.addrs) {
			if (m->unknown_id == UINT32_MAX)
				m->unknown_id = make_name(m, NULL, NULL, 0,
							  false, false, NULL);
			return m->unknown_id;
		}
		return make_name(m, NULL, NULL, addr, false, false, NULL);
	}
	if (map->anon_exec) {
		struct sym_srcline ln;
		const char *mod = NULL, *fn = NULL;

		if (m->sy)
			fn = sym_jit_lookup_at(m->sy, pe_proc_pid(pr),
					       addr - (m->o.lines && ret),
					       m->jit_time, &mod,
					       m->o.lines ? &ln : NULL);
		m->volatile_names = true;   /* the map file may grow */
		if (!mod) {
			snprintf(jitmod, sizeof(jitmod), "/tmp/perf-%u.map",
				 pe_proc_pid(pr));
			mod = jitmod;
		}
		if (!fn) {
			m->st.unknown_frames++;
			if (m->sy)
				sym_count_miss(m->sy, SYM_MISS_JIT);
			if (m->sy && sym_has_jitdump(m->sy, pe_proc_pid(pr)))
				m->jit_unnamed = true;
		}
		note_func(m, fn, mod, NULL, addr);
		if (m->last.func != PADDR_NONE)
			((struct paddr_func *)paddr_func_get(m->pa, m->last.func))
				->jit = true;
		/* A return address's line is the call's, at the byte before. */
		if (fn && m->sy && m->last.func != PADDR_NONE)
			sym_jit_line_at(m->sy, pe_proc_pid(pr), addr - ret,
					m->jit_time, &m->jit_line);
		return make_name(m, fn, mod, addr, true, java,
				 fn && m->o.lines && ln.file ? &ln : NULL);
	}
	tag = (uint64_t)(uintptr_t)map->dso | (java ? TAG_JAVA : 0) |
	      (m->o.lines && ret ? TAG_RET : 0);
	off = map->pgoff + (addr - map->start);
	slot = fc_find(m, tag, off);
	if (slot->id)
		return fc_hit(m, slot);
	{
		uint64_t vaddr = off;
		enum sym_miss why = SYM_MISS_NO_SYMBOL;
		const char *fn = NULL;

		struct sym_srcline ln[64];
		size_t nl = 0;

		char unnamed[80];

		if (map->dso && m->sy) {
			fn = sym_dso_lookup(m->sy, map->dso, off, &vaddr,
					    &why);
		}
		/*
		 * Code no symbol names (a stripped file) is kept under its
		 * frame's name, "[file]", so that --annotate '[file]'
		 * --disasm can still show its instructions.
		 */
		unnamed[0] = '\0';
		if (!fn && map->dso && (why == SYM_MISS_NO_SYMBOL ||
					why == SYM_MISS_STRIPPED))
			snprintf(unnamed, sizeof(unnamed), "[%s]",
				 sym_dso_basename(map->dso));
		note_func(m, fn ? fn : unnamed[0] ? unnamed : NULL,
			  map->dso ? sym_dso_path(map->dso) : NULL,
			  map->dso, vaddr);
		/* The function's own line: the last of the inline chain. */
		if (fn)
			nl = frame_lines(m, map->dso, vaddr - (ret && vaddr),
					 ln, 64);
		uint32_t id = make_name(m, fn,
					map->dso ? sym_dso_path(map->dso)
						 : NULL,
					vaddr, false, java,
					nl ? &ln[nl - 1] : NULL);

		note_user(m, id, map, addr, nl ? &ln[nl - 1] : NULL);
		return fc_store(m, tag, off, id, fn ? -1 : (int)why);
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
	if (m->o.tid || m->o.pid)
		n += profile_task_suffix(m->buf + n, m->capbuf - n, pid,
					 m->o.tid ? &tid : NULL);
	{
		uint32_t id = profile_intern(m->p, m->buf, n);

		if (t) {
			t->root_sym = id;
			t->pid = pid;
		}
		return id;
	}
}

/*
 * The source lines at pc of a process (--lines), innermost first: those
 * of the functions inlined there, then the function's own.
 */
static size_t pc_lines(struct pe_machine *m, struct pe_proc *pr,
		       uint64_t pc, struct sym_srcline *out, size_t cap)
{
	const struct pe_map *map = pe_proc_find_map(pr, pc);
	enum sym_miss why;
	uint64_t vaddr;

	if (!m->o.lines || !map || map->anon_exec || !map->dso || !m->sy ||
	    !sym_dso_lookup(m->sy, map->dso, map->pgoff + (pc - map->start),
			    &vaddr, &why))
		return 0;
	return frame_lines(m, map->dso, vaddr, out, cap);
}

/*
 * An inlined function's frame: its name (and line) marked "_[i]"; the
 * code at pc of process pr is where it was inlined.
 */
static uint32_t inline_frame(struct pe_machine *m, const char *name,
			     const struct sym_srcline *ln, struct pe_proc *pr,
			     uint64_t pc)
{
	size_t n = strlen(name);
	const struct pe_map *map = pr ? pe_proc_find_map(pr, pc) : NULL;
	uint32_t id;

	buf_need(m, n + 8);
	memcpy(m->buf, name, n);
	n = tidy(m->buf, n, false);
	m->fn_end = n;
	if (ln)
		n = srcline_append(m, n, ln);
	m->ln_end = n;
	buf_need(m, n + 8);
	memcpy(m->buf + n, "_[i]", 4);
	m->name_end = n + 4;
	id = profile_intern(m->p, m->buf, n + 4);
	if (map && !map->anon_exec)
		note_user(m, id, map, pc, ln);
	return id;
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
/*
 * The jitdump's line of JIT code at addr of func (m->jit_line) goes with
 * the address tables (paddr_set_line), for --annotate: a dump is no ELF
 * file with a line table to read again.
 */
static void keep_jit_line(struct pe_machine *m, uint32_t func, uint64_t addr)
{
	const struct sym_srcline *ln = &m->jit_line;
	const char *file;
	unsigned line;

	if (!paddr_line(m->pa, func, addr, &file, &line) ||
	    line != ln->line || strcmp(file, ln->path) != 0) {
		((struct paddr_func *)paddr_func_get(m->pa, func))
			->input_lines = true;
		paddr_set_line(m->pa, func, addr, ln->path, strlen(ln->path),
			       ln->line);
	}
	m->jit_line.path = NULL;
}

/* Keep the frame just named (m->last) for the address tables. */
static void push_addr(struct pe_machine *m, uint64_t plus)
{
	if (!m->pa)
		return;
	if (m->naf == m->capaf) {
		GROW(m->af, m->capaf, m->naf + 1);
		m->aout = xreallocarray(m->aout, m->capaf, sizeof(*m->aout));
	}
	if (m->jit_line.path)
		keep_jit_line(m, m->last.func, m->last.addr + plus);
	m->af[m->naf] = m->last;
	m->af[m->naf++].addr += plus;
}

static size_t build_stack(struct pe_machine *m, const struct pe_sample *s)
{
	struct pe_thread *t = pe_procs_thread(m->pt, s->tid);
	struct pe_proc *pr = pe_procs_proc(m->pt, s->pid);
	enum ctx ctx;
	bool first = true;
	size_t n = 0, total;
	uint64_t nr = s->has_callchain ? s->nr : 0;
	const struct unwind_frame *uf = NULL;
	size_t nu = 0, ninl = 0;

	if (!t && s->pid != s->tid) {
		/* An unknown thread of a known process takes its name. */
		struct pe_thread *leader = pe_procs_thread(m->pt, s->pid);

		if (leader && leader->comm)
			pe_machine_set_comm(m, s->pid, s->tid, leader->comm,
					    strlen(leader->comm));
		t = pe_procs_thread(m->pt, s->tid);
	}
	m->jit_time = m->jit_times && s->has_time ? s->time
						    : JITDUMP_TIME_ANY;
	m->jit_unnamed = false;
	m->st_before = m->st;
	for (unsigned k = 0; m->sy && k < SYM_MISS_COUNT; k++)
		m->miss_before[k] = sym_misses(m->sy, (enum sym_miss)k);
	if (s->stack && s->stack_dyn_size && s->regs && pr && m->sy)
		nu = unwind_user(m, pr, s, &uf, &ninl);
	if (nr + 1 + nu + ninl > m->capids)
		GROW(m->ids, m->capids, nr + 1 + nu + ninl);
	m->naf = 0;
	ctx = s->cpumode == PERF_RECORD_MISC_KERNEL ? CTX_KERNEL :
	      s->cpumode == PERF_RECORD_MISC_USER ? CTX_USER : CTX_OTHER;
	if (nr == 0 && (ctx == CTX_KERNEL || !nu)) {
		m->ids[n++] = ctx == CTX_KERNEL ? kernel_frame(m, s->ip, false)
						: user_frame(m, pr, t, s->ip,
							     false);
		push_addr(m, 0);
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
				m->naf = 0;
				i = nr;
				continue;
			}
			first = true;
			continue;
		}
		if (ctx == CTX_KERNEL) {
			m->ids[n++] = kernel_frame(m, v, !first);
			push_addr(m, 0);
		} else if (ctx != CTX_USER || !nu) {
			m->ids[n++] = user_frame(m, pr, t, v, !first);
			push_addr(m, 0);
		}
		first = false;
	}
	for (size_t i = 0; i < nu; i++) {
		/* A return address: the call is the byte before (as perf). */
		uint64_t pc = uf[i].activation ? uf[i].pc : uf[i].pc - 1;

		struct sym_srcline ln[64];
		size_t nl = uf[i].ninline ? pc_lines(m, pr, pc, ln, 64) : 0;

		for (unsigned k = 0; k < uf[i].ninline; k++)
			m->ids[n++] = inline_frame(m, uf[i].inlined[k],
						   k < nl ? &ln[k] : NULL,
						   pr, pc);
		m->ids[n++] = user_frame(m, pr, t, pc, false);
		/* The tables keep a caller's return address. */
		push_addr(m, uf[i].activation ? 0 : 1);
	}
	m->st.frames += n;
	total = n + 1;
	if (total > m->capout)
		GROW(m->out, m->capout, total);
	m->out[0] = root_frame(m, t, s->pid, s->tid);
	for (size_t i = 0; i < n; i++)
		m->out[i + 1] = m->ids[n - 1 - i];
	for (size_t i = 0; i < m->naf; i++)
		m->aout[i] = m->af[m->naf - 1 - i];
	return total;
}

const uint32_t *pe_machine_build(struct pe_machine *m,
				 const struct pe_sample *s, size_t *n)
{
	*n = build_stack(m, s);
	return m->out;
}

uint32_t pe_machine_addr_stack(struct pe_machine *m)
{
	return m->pa ? paddr_add_stack(m->pa, m->aout, m->naf, 0) : 0;
}

size_t pe_machine_stack(struct pe_machine *m, const struct pe_sample *s,
			uint32_t *ids, size_t cap)
{
	size_t total = build_stack(m, s);

	memcpy(ids, m->out, (total < cap ? total : cap) * sizeof(*ids));
	return total;
}

/* The sample's meta but its command. */
static void sample_meta(const struct pe_sample *s, struct sample_meta *meta)
{
	memset(meta, 0, sizeof(*meta));
	meta->time_ns = s->time;
	meta->has_time = s->has_time;
	meta->has_cpu = s->has_cpu;
	meta->cpu = s->cpu;
	meta->has_task = s->has_tid;
	meta->pid = s->pid;
	meta->tid = s->tid;
}

void pe_machine_meta(struct pe_machine *m, const struct pe_sample *s,
		     struct sample_meta *meta)
{
	sample_meta(s, meta);
	if (!s->has_tid)
		return;
	/* The root frame is the command, with "-PID[/TID]" when asked. */
	meta->comm = m->out[0];
	if (m->o.pid || m->o.tid) {
		const struct symtab *st = profile_symtab(m->p);
		const char *r = symtab_name(st, m->out[0]);
		size_t len = symtab_len(st, m->out[0]);
		char suffix[32];
		size_t k = profile_task_suffix(suffix, sizeof(suffix), s->pid,
					       m->o.tid ? &s->tid : NULL);

		if (k > 0 && k < len)
			meta->comm = profile_intern(m->p, r, len - k);
	}
}

/* ---- The stack cache ------------------------------------------------------ */

_Static_assert(SYM_MISS_COUNT + 1 <= SC_COUNTS, "stack cache counts");
_Static_assert(SC_COUNTS <= 16, "a bit of sc_val.nonzero for each count");

/* What the machine counts while building a stack: unknown frames, misses. */
static void counts_now(const struct pe_machine *m, uint64_t c[SC_COUNTS])
{
	memset(c, 0, SC_COUNTS * sizeof(*c));
	c[SYM_MISS_COUNT] = m->st.unknown_frames;
	for (unsigned k = 0; m->sy && k < SYM_MISS_COUNT; k++)
		c[k] = sym_misses(m->sy, (enum sym_miss)k);
}

/*
 * Whether s's stack can be found by its chain: not unwound from a stack
 * copy (the copy, not the chain, says what it is).
 */
static bool chain_key(const struct pe_sample *s, struct sc_key *k)
{
	if (!s->has_tid || s->stack)
		return false;
	k->pid = s->pid;
	k->tid = s->tid;
	k->cpumode = s->cpumode;
	k->nr = s->has_callchain ? s->nr : 0;
	k->chain = s->callchain;
	k->ip = k->nr ? 0 : s->ip;
	k->hash = 0;
	return true;
}

void pe_event_unit(const char *name, size_t len, bool tracepoint, char *buf,
		   size_t cap)
{
	/* "cycles:ppp": the modifiers are not what is counted. */
	size_t n = tracepoint ? len : strcspn(name, ":");

	if (n > len)
		n = len;
	snprintf(buf, cap, "%.*s%s", (int)(n < 100 ? n : 100), name,
		 tracepoint ? " events" : "");
}

uint64_t pe_sample_chain_hash(const struct pe_sample *s)
{
	struct sc_key k;

	return chain_key(s, &k) ? sc_hash(&k) : 0;
}

uint64_t pe_record_chain_hash(const struct pe_evlist *el, const void *rec)
{
	struct perf_event_header h;
	struct pe_record r;
	const struct pe_event *ev;
	const char *why;

	memcpy(&h, rec, sizeof(h));
	if (h.type != PERF_RECORD_SAMPLE)
		return 0;
	ev = pe_evlist_for_record(el, rec, h.size);
	if (pe_decode(rec, h.size, ev ? &ev->fmt : NULL, &r, &why) < 0)
		return 0;
	return pe_sample_chain_hash(&r.u.sample);
}

void pe_machine_prefetch(const struct pe_machine *m, uint64_t hash)
{
	if (m->sc && hash)
		sc_prefetch(m->sc, hash);
}

/*
 * A stored stack holds while its process and thread are as they were: at
 * once when nothing at all has changed since it was stored or last found
 * to hold.  Found to hold, its stamp moves on to now: it holds now as it
 * would had it been stored now, and the next sample of the chain skips
 * the lookups until something changes again.
 */
static bool still_holds(const struct pe_machine *m, struct sc_val *v,
			uint32_t pid, uint32_t tid)
{
	uint64_t now = pe_procs_clock(m->pt);
	const struct pe_proc *pr;
	const struct pe_thread *t;

	if (v->stamp == now)
		return true;
	pr = pe_procs_proc(m->pt, pid);
	t = pe_procs_thread(m->pt, tid);
	if ((pr != NULL) != v->had_proc || (t != NULL) != v->had_thread ||
	    (pr && pe_proc_changed(pr) > v->stamp) ||
	    (t && t->changed > v->stamp))
		return false;
	v->stamp = now;
	return true;
}

/* Add s where its chain ended before; false if it is not known. */
static bool add_cached(struct pe_machine *m, const struct sc_key *key,
		       const struct pe_sample *s, const struct weight *w,
		       enum add_status *st)
{
	struct sc_val *v = sc_find(m->sc, key);
	struct sample_meta meta;

	if (!v || !still_holds(m, v, s->pid, s->tid))
		return false;
	sample_meta(s, &meta);
	meta.comm = v->comm;
	m->st.frames += v->frames;
	m->st.unknown_frames += v->counts[SYM_MISS_COUNT];
	/* The kinds of miss the stack had, and no others. */
	if (m->sy)
		for (unsigned b = v->nonzero & ((1u << SYM_MISS_COUNT) - 1); b;
		     b &= b - 1) {
			unsigned k = (unsigned)__builtin_ctz(b);

			sym_count_misses(m->sy, (enum sym_miss)k, v->counts[k]);
		}
	*st = profile_add_at(m->p, v->leaf, w, &meta);
	if (*st == ADD_OK && m->pa)
		paddr_add_at(m->pa, v->anode, w->v);
	return true;
}

/* Remember where s's chain ended (before: the counts before building it). */
static void store(struct pe_machine *m, const struct sc_key *key,
		  const struct pe_sample *s, const uint64_t before[SC_COUNTS],
		  size_t frames, uint32_t leaf, uint32_t anode, uint32_t comm)
{
	struct sc_val v = { 0 };
	uint64_t after[SC_COUNTS];

	if (m->volatile_names || frames > UINT32_MAX)
		return;
	counts_now(m, after);
	for (unsigned k = 0; k < SC_COUNTS; k++) {
		if (after[k] - before[k] > UINT16_MAX)
			return;
		v.counts[k] = (uint16_t)(after[k] - before[k]);
		if (v.counts[k])
			v.nonzero |= (uint16_t)(1u << k);
	}
	v.stamp = pe_procs_clock(m->pt);
	v.leaf = leaf;
	v.anode = anode;
	v.comm = comm;
	v.frames = (uint32_t)frames;
	v.had_proc = pe_procs_proc(m->pt, s->pid) != NULL;
	v.had_thread = pe_procs_thread(m->pt, s->tid) != NULL;
	sc_put(m->sc, key, &v);
}

enum add_status pe_machine_add_sample(struct pe_machine *m,
				      const struct pe_sample *s,
				      uint64_t weight)
{
	return pe_machine_add_sample_hashed(m, s, weight, 0);
}

enum add_status pe_machine_add_sample_hashed(struct pe_machine *m,
					     const struct pe_sample *s,
					     uint64_t weight, uint64_t hash)
{
	size_t n;
	struct weight w = { weight, 0, 0 };
	struct sample_meta meta;
	enum add_status st;
	struct sc_key key;
	bool keyed = m->sc && chain_key(s, &key);
	uint64_t before[SC_COUNTS];
	uint32_t leaf = 0;
	size_t frames;

	if (keyed)
		key.hash = hash;
	if (keyed && add_cached(m, &key, s, &w, &st)) {
		if (st == ADD_OK)
			m->st.samples++;
		return st;
	}
	if (keyed) {
		counts_now(m, before);
		m->volatile_names = false;
	}
	frames = m->st.frames;
	n = build_stack(m, s);
	frames = m->st.frames - frames;
	pe_machine_meta(m, s, &meta);
	if (n > PROFILE_MAX_DEPTH)
		n = PROFILE_MAX_DEPTH;
	st = profile_add_stack_leaf(m->p, m->out, n, &w, &meta, &leaf);
	if (st == ADD_OK) {
		uint32_t anode = m->pa ? paddr_add_stack(m->pa, m->aout,
							 m->naf, w.v)
				       : PADDR_ROOT;

		m->st.samples++;
		if (keyed)
			store(m, &key, s, before, frames, leaf, anode,
			      meta.comm);
	}
	return st;
}
