/*
 * unwind-dwarf.c - user stacks from sampled registers and stack bytes,
 * unwound with libdwfl's thread/frame interface.
 *
 * libdwfl unwinds a "thread" of an attached "process": it asks for the
 * initial registers, then for every step finds the CFI of the module that
 * holds the PC, computes the caller's registers and reads saved values
 * through memory_read.  Here the process is a sample: the callbacks below
 * serve the registers and the stack copy of whatever sample is current in
 * the unwinder's context, so one attach per Dwfl serves every sample of
 * that process (perf builds and tears down a Dwfl per sample instead).
 *
 * Traps:
 * - perf_regs order (AX, BX, CX, DX, SI, DI, BP, SP, IP, FLAGS, CS, SS,
 *   R8..R15) is not DWARF order (rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp,
 *   r8..r15, rip); see dwarf_from_perf.
 * - dwfl_getthread_frames returns 0 only when the CFI marks the outermost
 *   frame (glibc's _start and clone say the return address is undefined);
 *   -1 means the walk stopped on an error: the frames so far are kept and
 *   the stack counts as truncated.
 * - A frame that is not an activation holds a return address: the call is
 *   at pc - 1, which is what inline lookups (and symbol lookups) must use.
 *
 * Inline lookups (dwfl_module_addrdie, dwarf_getscopes) cost far more than
 * an unwind step, and a profile hits the same addresses again and again:
 * they are cached per (file, file-relative address), the file named by
 * its build-id (or path), so the cache survives a process's exit and is
 * shared by every process mapping the same library.
 */
#include "unwind.h"

#include <dwarf.h>
#include <elf.h>
#include <libelf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf-record.h"
#include "symbols-priv.h"
#include "util.h"

#define NREGS 17

/* The sample being unwound: what the callbacks read. */
struct cur_sample {
	uint32_t tid;
	uint64_t regs[NREGS];
	uint32_t have;            /* one bit per DWARF register present */
	uint64_t sp;              /* address of stack[0] */
	const unsigned char *stack;
	uint64_t stack_len;       /* valid bytes (dyn_size) */
	bool read_failed;         /* a read fell outside the copy */
};

/* Inline cache: (file key, address) -> names[first .. first + n). */
struct inl_slot {
	uint64_t file, addr;
	uint32_t first;
	uint16_t n;
	bool used;
};

/* A file's DWARF, opened once for every process mapping the file. */
struct inl_file {
	uint64_t key;
	Dwfl *dwfl;               /* NULL: the file could not be opened */
	Dwfl_Module *mod;
};

struct unwinder {
	struct unwind_opts o;
	struct cur_sample cur;
	struct unwind_frame *frames;
	size_t nframes, capframes;
	uint32_t *first;          /* per frame: its first inline name */
	size_t capfirst;
	size_t ncollect;          /* frames seen by the walk callback */
	struct unwind_stats st;
	struct inl_slot *inl;
	size_t ninl, inlmask;
	char **names;             /* inline names, back to back per slot */
	size_t nnames, capnames;
	struct inl_file *files;
	size_t nfiles, capfiles;
};

/* ---- Registers ----------------------------------------------------------- */

#if defined(__x86_64__)
/* perf_regs index (PERF_REG_X86_*) of each DWARF register 0..16. */
static const unsigned char dwarf_from_perf[NREGS] = {
	0,  /* rax: AX */
	3,  /* rdx: DX */
	2,  /* rcx: CX */
	1,  /* rbx: BX */
	4,  /* rsi: SI */
	5,  /* rdi: DI */
	6,  /* rbp: BP */
	7,  /* rsp: SP */
	16, 17, 18, 19, 20, 21, 22, 23,  /* r8..r15: R8..R15 */
	8,  /* rip: IP */
};
#define DW_SP 7
#define DW_IP 16
#endif

bool unwind_dwarf_regs(const struct pe_sample *s, uint64_t regs[NREGS],
		       uint32_t *have)
{
	*have = 0;
	memset(regs, 0, NREGS * sizeof(*regs));
#if defined(__x86_64__)
	if (s->regs_abi != PERF_SAMPLE_REGS_ABI_64 || !s->regs)
		return false;
	for (unsigned i = 0; i < NREGS; i++)
		if (pe_sample_reg(s, dwarf_from_perf[i], &regs[i]))
			*have |= 1u << i;
	return true;
#else
	(void)s;
	return false;
#endif
}

/* ---- libdwfl callbacks ----------------------------------------------------- */

static pid_t cb_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct unwinder *u = arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return (pid_t)u->cur.tid;
}

/* Any tid is the current sample's thread. */
static bool cb_get_thread(Dwfl *dwfl, pid_t tid, void *arg,
			  void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

/* Only the sample's stack copy is memory. */
static bool cb_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			   void *arg)
{
	struct unwinder *u = arg;
	const struct cur_sample *c = &u->cur;
	uint64_t off;


	(void)dwfl;
	if (addr < c->sp) {
		u->cur.read_failed = true;
		return false;
	}
	off = addr - c->sp;
	if (off > c->stack_len || c->stack_len - off < 8) {
		u->cur.read_failed = true;
		return false;
	}
	memcpy(result, c->stack + off, 8);
	return true;
}

static bool cb_set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct unwinder *u = arg;
	const struct cur_sample *c = &u->cur;
	Dwarf_Word r[NREGS];

	for (unsigned i = 0; i < NREGS; i++)
		r[i] = c->regs[i];
	if (c->have == (1u << NREGS) - 1)
		return dwfl_thread_state_registers(thread, 0, NREGS, r);
	/* Some registers missing (an unusual mask): set those we have. */
	for (unsigned i = 0; i < NREGS; i++)
		if ((c->have & (1u << i)) &&
		    !dwfl_thread_state_registers(thread, (int)i, 1, &r[i]))
			return false;
	return true;
}

static const Dwfl_Thread_Callbacks thread_cbs = {
	.next_thread = cb_next_thread,
	.get_thread = cb_get_thread,
	.memory_read = cb_memory_read,
	.set_initial_registers = cb_set_initial_registers,
};

/* ---- Inline frames ------------------------------------------------------- */

static uint64_t module_key(Dwfl_Module *mod)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	const char *name, *mainfile = NULL;
	int n = dwfl_module_build_id(mod, &bits, &vaddr);

	if (n > 0)
		return hash_bytes(bits, (size_t)n) | 1;
	name = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, &mainfile,
				NULL);
	if (mainfile)
		name = mainfile;
	return name ? hash_bytes(name, strlen(name)) | 1 : 1;
}

static struct inl_slot *inl_find(struct unwinder *u, uint64_t file,
				 uint64_t addr)
{
	size_t i = hash_u64(file ^ hash_u64(addr)) & u->inlmask;

	for (;; i = (i + 1) & u->inlmask) {
		struct inl_slot *s = &u->inl[i];

		if (!s->used || (s->file == file && s->addr == addr))
			return s;
	}
}

static void inl_grow(struct unwinder *u)
{
	struct inl_slot *old = u->inl;
	size_t omask = u->inlmask;

	u->inlmask = old ? omask * 2 + 1 : 1023;
	u->inl = xcalloc(u->inlmask + 1, sizeof(*u->inl));
	if (!old)
		return;
	for (size_t i = 0; i <= omask; i++)
		if (old[i].used)
			*inl_find(u, old[i].file, old[i].addr) = old[i];
	free(old);
}

/* The name of an inlined subroutine: demangled linkage name, else name. */
static char *inline_name(Dwarf_Die *die)
{
	Dwarf_Attribute at;
	const char *ln = NULL, *n;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &at) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at))
		ln = dwarf_formstring(&at);
	if (ln) {
		char *d = sym_demangle(ln);

		if (d)
			return d;
	}
	n = dwarf_diename(die);
	if (n && *n)
		return xstrdup(n);
	return ln ? xstrdup(ln) : NULL;
}

static char *debuginfo_path;

static const Dwfl_Callbacks file_cb = {
	.find_debuginfo = sym_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

/*
 * The DWARF of the file behind a process's module, in a Dwfl of its own
 * at bias 0.  Loading debug information (libc's is tens of megabytes) in
 * every process's Dwfl would cost that much again for each process.
 */
static struct inl_file *inline_file(struct unwinder *u, Dwfl_Module *mod,
				    uint64_t key)
{
	const char *name, *mainfile = NULL;
	struct inl_file *f;

	for (size_t i = 0; i < u->nfiles; i++)
		if (u->files[i].key == key)
			return &u->files[i];
	GROW(u->files, u->capfiles, u->nfiles + 1);
	f = &u->files[u->nfiles++];
	f->key = key;
	f->dwfl = NULL;
	f->mod = NULL;
	name = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, &mainfile,
				NULL);
	if (!name || !mainfile || mainfile[0] == '[')
		return f;
	f->dwfl = dwfl_begin(&file_cb);
	if (!f->dwfl)
		return f;
	dwfl_report_begin(f->dwfl);
	f->mod = dwfl_report_elf(f->dwfl, name, mainfile, -1, 0, true);
	dwfl_report_end(f->dwfl, NULL, NULL);
	if (!f->mod) {
		dwfl_end(f->dwfl);
		f->dwfl = NULL;
	}
	return f;
}

/* Look up the inlined functions at ELF address a of the file's module. */
static void inline_lookup(struct unwinder *u, Dwfl_Module *mod, uint64_t a,
			  struct inl_slot *slot)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die cu;
	Dwarf_Die *scopes = NULL;
	int n;

	u->st.inline_lookups++;
	slot->first = (uint32_t)u->nnames;
	slot->n = 0;
	if (!mod || !dwfl_module_getelf(mod, &bias))
		return;
	a += bias;
	n = sym_addr_scopes(mod, a, &cu, &bias, &scopes);
	for (int i = 0; i < n && slot->n < 64; i++) {
		char *name;
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram)
			break;
		if (tag != DW_TAG_inlined_subroutine)
			continue;
		name = inline_name(&scopes[i]);
		if (!name)
			name = xstrdup("[unknown]");
		GROW(u->names, u->capnames, u->nnames + 1);
		u->names[u->nnames++] = name;
		slot->n++;
	}
	free(scopes);
}

/* Fill f's inline names from the cache (or DWARF). */
static void frame_inlines(struct unwinder *u, Dwfl *dwfl,
			  struct unwind_frame *f)
{
	uint64_t a = f->activation ? f->pc : f->pc - 1;
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, a);
	GElf_Addr bias;
	struct inl_slot *slot;
	uint64_t key;

	/* The module's ELF is loaded already: unwinding read its CFI. */
	if (!mod || !dwfl_module_getelf(mod, &bias))
		return;
	key = module_key(mod);
	a -= bias;              /* the ELF's own address */
	slot = inl_find(u, key, a);
	if (!slot->used) {
		slot->used = true;
		slot->file = key;
		slot->addr = a;
		inline_lookup(u, inline_file(u, mod, key)->mod, a, slot);
		if (++u->ninl * 2 > u->inlmask) {
			struct inl_slot keep = *slot;

			inl_grow(u);
			slot = inl_find(u, keep.file, keep.addr);
		}
	}
	/* Pointers into names are set once every lookup is done (it grows). */
	f->ninline = slot->n;
	u->first[f - u->frames] = slot->first;
	u->st.inline_frames += slot->n;
}

/* ---- Unwinding ------------------------------------------------------------ */

struct unwinder *unwind_create(const struct unwind_opts *o)
{
	struct unwinder *u = xcalloc(1, sizeof(*u));

	if (o)
		u->o = *o;
	if (!u->o.max_depth)
		u->o.max_depth = 512;
	inl_grow(u);
	return u;
}

void unwind_destroy(struct unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->nnames; i++)
		free(u->names[i]);
	free(u->names);
	for (size_t i = 0; i < u->nfiles; i++)
		if (u->files[i].dwfl)
			dwfl_end(u->files[i].dwfl);
	free(u->files);
	free(u->inl);
	free(u->frames);
	free(u->first);
	free(u);
}

const struct unwind_stats *unwind_stats(const struct unwinder *u)
{
	return &u->st;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct unwinder *u = arg;
	Dwarf_Addr pc;
	bool act = false;
	struct unwind_frame *f;

	if (!dwfl_frame_pc(state, &pc, &act))
		return DWARF_CB_ABORT;
	u->ncollect++;
	if (u->nframes >= u->o.max_depth)
		return DWARF_CB_ABORT;
	/* A zero return address ends some hand-written outermost frames. */
	if (pc == 0 && u->nframes > 0)
		return DWARF_CB_ABORT;
	GROW(u->frames, u->capframes, u->nframes + 1);
	f = &u->frames[u->nframes++];
	f->pc = pc;
	f->activation = act;
	f->ninline = 0;
	f->inlined = NULL;
	return DWARF_CB_OK;
}

/*
 * The architecture to attach with: an ELF header of this machine in
 * memory.  Attaching with elf=NULL would borrow the first module's
 * backend, which libdwfl frees with that module when the process's maps
 * change and the module is not reported again; with an Elf of its own the
 * process owns its backend.  Made once and kept for the program's life
 * (Dwfls may outlive any unwinder).
 */
static Elf *arch_elf(void)
{
	static Elf64_Ehdr eh;
	static Elf *elf;

	if (elf)
		return elf;
	elf_version(EV_CURRENT);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_ehsize = sizeof(eh);
	elf = elf_memory((char *)&eh, sizeof(eh));
	return elf;
}

/* Attach our callbacks to dwfl unless it is attached already. */
static bool attach(struct unwinder *u, Dwfl *dwfl, uint32_t pid)
{
	Elf *elf;

	if (dwfl_pid(dwfl) > 0)
		return true;
	elf = arch_elf();
	if (elf && dwfl_attach_state(dwfl, elf, (pid_t)(pid ? pid : 1),
				     &thread_cbs, u))
		return true;
	u->st.attach_failures++;
	return false;
}

size_t unwind_sample(struct unwinder *u, Dwfl *dwfl,
		     const struct pe_sample *s,
		     const struct unwind_frame **frames,
		     enum unwind_result *res)
{
	enum unwind_result r = UNWIND_NONE;
	struct cur_sample *c = &u->cur;
	int rc;

	u->nframes = 0;
	u->ncollect = 0;
	*frames = NULL;
	u->st.samples++;
#if defined(__x86_64__)
	if (!dwfl || !s->stack || s->stack_dyn_size < 8 ||
	    !unwind_dwarf_regs(s, c->regs, &c->have) ||
	    !(c->have & (1u << DW_SP)) || !(c->have & (1u << DW_IP)) ||
	    !attach(u, dwfl, s->pid))
		goto out;
	c->tid = s->tid ? s->tid : s->pid;
	c->sp = c->regs[DW_SP];
	c->stack = s->stack;
	c->stack_len = s->stack_dyn_size;
	c->read_failed = false;
	rc = dwfl_getthread_frames(dwfl, (pid_t)(c->tid ? c->tid : 1),
				   frame_cb, u);
	if (u->nframes == 0)
		r = UNWIND_NONE;
	else if (rc == 0 && !c->read_failed)
		r = UNWIND_COMPLETE;
	else if (rc == DWARF_CB_ABORT && u->ncollect > u->o.max_depth)
		r = UNWIND_DEPTH;
	else
		r = UNWIND_TRUNCATED;
	c->stack = NULL;
	c->stack_len = 0;
	if (u->o.inline_frames) {
		GROW(u->first, u->capfirst, u->nframes);
		for (size_t i = 0; i < u->nframes; i++)
			frame_inlines(u, dwfl, &u->frames[i]);
		for (size_t i = 0; i < u->nframes; i++)
			if (u->frames[i].ninline)
				u->frames[i].inlined = (const char *const *)
					&u->names[u->first[i]];
	}
#else
	(void)dwfl;
	(void)s;
	(void)c;
	(void)rc;
	goto out;
#endif
out:
	switch (r) {
	case UNWIND_NONE:
		u->st.none++;
		u->nframes = 0;
		break;
	case UNWIND_COMPLETE:
		u->st.complete++;
		break;
	case UNWIND_TRUNCATED:
		u->st.truncated++;
		break;
	case UNWIND_DEPTH:
		u->st.depth_limited++;
		break;
	}
	u->st.frames += u->nframes;
	if (res)
		*res = r;
	*frames = u->frames;
	return u->nframes;
}

/* ---- Options --------------------------------------------------------------- */

int unwind_parse_stack_size(const char *s, unsigned *size, char *err,
			    size_t errcap)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!s || !*s || *s == '-' || *s == '+') {
		snprintf(err, errcap, "--call-graph dwarf,SIZE: no size");
		return -1;
	}
	v = strtoull(s, &end, 10);
	if (errno || end == s) {
		snprintf(err, errcap, "--call-graph dwarf,SIZE: bad size '%s'", s);
		return -1;
	}
	if (*end == 'k' || *end == 'K') {
		v = v > 64 ? 65537 : v * 1024;
		end++;
	}
	if (*end) {
		snprintf(err, errcap, "--call-graph dwarf,SIZE: bad size '%s' "
			 "(bytes, or K)", s);
		return -1;
	}
	if (v == 0 || v > 65536) {
		snprintf(err, errcap, "--call-graph dwarf,SIZE: %s is out of "
			 "range (8 to 64K bytes)", s);
		return -1;
	}
	v = (v + 7) & ~7ULL;
	/* The kernel wants it below 65535 (the record size is a u16). */
	if (v > UNWIND_STACK_MAX)
		v = UNWIND_STACK_MAX;
	*size = (unsigned)v;
	return 0;
}
