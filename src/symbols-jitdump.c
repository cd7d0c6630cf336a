/*
 * symbols-jitdump.c - JIT code named from the runtimes' jitdumps
 * (symbols.h, jitdump.h).
 *
 * A runtime that writes jit-PID.dump maps the file, so the process's MMAP
 * records name it: sym_jitdump_mapped notes the path for the pid, and the
 * first lookup in the process's JIT code opens the dump (under --symfs,
 * beside the recording, or where the process wrote it).  A dump still
 * being written (live) is read again before a lookup at a time later than
 * its last reading (a runtime writes a code load before the code runs,
 * and new code may replace what was read: about once per drain of the
 * rings, as samples come after their drain), and when a lookup misses, at
 * most ten times a second.  The PID in the file name is the process's own (in a
 * container, its namespace's), and the dump's header must name it.
 *
 * Where the process has a dump, the dump answers first; the perf map is
 * asked only for addresses the dump does not know.
 *
 * Unwinding info (python3.13 -X perf_jit writes it for each trampoline)
 * goes to the DWARF unwinder as modules of the process's Dwfl: for each
 * piece of code with it, a small ELF in memory (a memfd) whose .eh_frame
 * and .eh_frame_hdr sit at the addresses the runtime wrote them for, and
 * a PT_LOAD over the code, so that libdwfl finds the CFI of a JIT pc as
 * it finds a library's.  Where they sit is read from the .eh_frame_hdr
 * (its first table entry is the code's start, relative to the header);
 * the .eh_frame comes right before it.
 */
#include "symbols.h"

#include <elf.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jitdump.h"
#include "symbols-priv.h"
#include "util.h"

struct jd_proc {
	uint32_t pid;              /* as the records name it */
	uint32_t dump_pid;         /* as the file name does */
	char *mapped;              /* the path the process mapped */
	struct jitdump *jd;        /* NULL: not opened (yet, or not found) */
	bool tried;                /* opening was tried */
	bool any_time;             /* looked up at no time: said */
	double read_at;            /* when it was last read (live) */
	uint64_t read_ns;          /* the same in ns (the samples' clock) */
	Dwfl *cfi_dwfl;            /* the Dwfl its unwinding info went to */
	size_t cfi_pos;            /* how far (jitdump_unwind_next) */
	size_t ncfi;               /* modules reported there */
	struct jd_proc *next;
};

/* Pieces of code with unwinding info reported into one process's Dwfl
   (each holds a descriptor). */
#define JD_MAX_CFI 4096

/* Update a growing dump when a lookup misses, at most this often. */
#define JD_REREAD_SECONDS 0.1

/* The file name of path: "jit-PID.dump" gives PID, else 0. */
static uint32_t dump_pid(const char *path, size_t len)
{
	const char *base = path + len;
	unsigned long pid = 0;
	size_t n;

	while (base > path && base[-1] != '/')
		base--;
	n = (size_t)(path + len - base);
	if (n < 10 || memcmp(base, "jit-", 4) != 0 ||
	    memcmp(path + len - 5, ".dump", 5) != 0)
		return 0;
	for (size_t i = 4; i < n - 5; i++) {
		if (base[i] < '0' || base[i] > '9' || pid > UINT32_MAX / 10)
			return 0;
		pid = pid * 10 + (unsigned long)(base[i] - '0');
	}
	return pid <= UINT32_MAX ? (uint32_t)pid : 0;
}

bool sym_is_jitdump(const char *path, size_t len)
{
	return dump_pid(path, len) != 0;
}

static struct jd_proc *find_proc(const struct symbolizer *sy, uint32_t pid)
{
	struct jd_proc *j;

	for (j = sy->jitdumps; j; j = j->next)
		if (j->pid == pid)
			return j;
	return NULL;
}

void sym_jitdump_mapped(struct symbolizer *sy, uint32_t pid,
			const char *path, size_t len)
{
	struct jd_proc *j = find_proc(sy, pid);

	if (!dump_pid(path, len) || memchr(path, 0, len))
		return;
	/* The same dump mapped again (perf reports each mapping). */
	if (j && strlen(j->mapped) == len && !memcmp(j->mapped, path, len))
		return;
	if (j)
		sym_jitdump_forget(sy, pid);
	j = xcalloc(1, sizeof(*j));
	j->pid = pid;
	j->dump_pid = dump_pid(path, len);
	j->mapped = xstrndup(path, len);
	j->next = sy->jitdumps;
	sy->jitdumps = j;
}

/* Keep a note about a dump for sym_report. */
static void note(struct symbolizer *sy, const char *msg)
{
	if (sy->njd_notes < ARRAY_SIZE(sy->jd_notes))
		sy->jd_notes[sy->njd_notes++] = xstrdup(msg);
	else
		sy->jd_more_notes++;
}

/* Read what a growing dump gained: how many records. */
static size_t reread(struct jd_proc *j)
{
	j->read_at = now_seconds();
	j->read_ns = (uint64_t)(j->read_at * 1e9);   /* CLOCK_MONOTONIC */
	return jitdump_update(j->jd);
}

/* Open j's dump where it may be (see symbols.h) and read it. */
static void open_dump(struct symbolizer *sy, struct jd_proc *j)
{
	const char *base = strrchr(j->mapped, '/');
	char *cand[3], err[512] = "", first[512] = "";
	size_t n = 0;

	base = base ? base + 1 : j->mapped;
	j->tried = true;
	if (sy->o.root) {
		cand[n++] = xasprintf("%s%s%s", sy->o.root,
				      j->mapped[0] == '/' ? "" : "/",
				      j->mapped);
		cand[n++] = xasprintf("%s/%s", sy->o.root, base);
	}
	if (sy->o.jitdump_dir)
		cand[n++] = xasprintf("%s/%s", sy->o.jitdump_dir, base);
	if (!sy->o.root && n < ARRAY_SIZE(cand))
		cand[n++] = xstrdup(j->mapped);
	for (size_t i = 0; i < n; i++) {
		struct stat sb;

		/* A dump that is there but may not be read says why. */
		if (!j->jd && lstat(cand[i], &sb) == 0 &&
		    !(j->jd = jitdump_open(cand[i], j->dump_pid, err,
					   sizeof(err))) && !first[0])
			snprintf(first, sizeof(first), "%s", err);
		free(cand[i]);
	}
	if (!j->jd) {
		char msg[1200];

		if (first[0])
			snprintf(msg, sizeof(msg), "%s: the JIT frames of "
				 "process %u are not named from it", first,
				 j->pid);
		else
			snprintf(msg, sizeof(msg), "%s of process %u not found "
				 "(looked %s): its JIT frames are not named "
				 "from it", base, j->pid, sy->o.root ?
				 "under --symfs" : sy->o.jitdump_dir ?
				 "beside the recording and where the process "
				 "wrote it" : "where the process wrote it");
		note(sy, msg);
		return;
	}
	if (sy->o.jitdump_whole) {
		jitdump_update(j->jd);
		jitdump_finish(j->jd);
	} else {
		reread(j);
	}
}

/* The dump's line of j's code at addr at time t (line->file: base name,
 * line->path: as the runtime wrote it). */
static bool dump_line(struct jd_proc *j, uint64_t addr, uint64_t t,
		      struct sym_srcline *line)
{
	const char *file, *sl;
	unsigned ln;

	if (!jitdump_line(j->jd, addr, t, &file, &ln))
		return false;
	sl = strrchr(file, '/');
	line->file = sl ? sl + 1 : file;
	line->path = file;
	line->line = ln;
	return true;
}

bool sym_jit_line_at(struct symbolizer *sy, uint32_t pid, uint64_t addr,
		     uint64_t t, struct sym_srcline *line)
{
	struct jd_proc *j = find_proc(sy, pid);

	line->file = line->path = NULL;
	return j && j->jd && dump_line(j, addr, t, line);
}

const char *sym_jit_lookup_at(struct symbolizer *sy, uint32_t pid,
			      uint64_t addr, uint64_t t, const char **mod,
			      struct sym_srcline *line)
{
	struct jd_proc *j = find_proc(sy, pid);
	struct jitdump_code c;
	bool found = false;

	if (line)
		line->file = line->path = NULL;
	if (j && !j->tried)
		open_dump(sy, j);
	if (j && j->jd) {
		if (!sy->o.jitdump_whole && t != JITDUMP_TIME_ANY &&
		    t >= j->read_ns)
			reread(j);
		found = jitdump_lookup(j->jd, addr, t, &c);
		if (!found && !sy->o.jitdump_whole &&
		    now_seconds() - j->read_at >= JD_REREAD_SECONDS &&
		    reread(j))
			found = jitdump_lookup(j->jd, addr, t, &c);
		if (mod)
			*mod = jitdump_name(j->jd);
	}
	if (found && t == JITDUMP_TIME_ANY && !j->any_time &&
	    !jitdump_info(j->jd)->arch_timestamp) {
		char msg[600];

		j->any_time = true;
		snprintf(msg, sizeof(msg), "%s: the samples' times are not on "
			 "the dump's clock (record with perf record -k 1): JIT "
			 "code is named by the last code loaded at each "
			 "address", jitdump_name(j->jd));
		note(sy, msg);
	}
	if (found) {
		if (line)
			dump_line(j, addr, t, line);
		return c.name;
	}
	if (mod && !(j && j->jd)) {
		snprintf(sy->jit_modname, sizeof(sy->jit_modname),
			 "/tmp/perf-%u.map", pid);
		*mod = sy->jit_modname;
	}
	{
		const char *name = sym_jit_lookup(sy, pid, addr);

		/*
		 * Code can run before its load is written (node logs code
		 * compiled on another thread once it is installed): with
		 * nothing there at time t in the dump or the map, the latest
		 * code the dump has there.
		 */
		if (!name && j && j->jd && t != JITDUMP_TIME_ANY &&
		    jitdump_lookup(j->jd, addr, JITDUMP_TIME_ANY, &c))
			name = c.name;
		return name;
	}
}

bool sym_has_jitdump(struct symbolizer *sy, uint32_t pid)
{
	struct jd_proc *j = find_proc(sy, pid);

	if (j && !j->tried)
		open_dump(sy, j);
	return j && j->jd;
}

bool sym_jitdump_refresh(struct symbolizer *sy, uint32_t pid)
{
	struct jd_proc *j = find_proc(sy, pid);

	return j && j->jd && !sy->o.jitdump_whole && reread(j) > 0;
}

/* What jd says, as notes (its messages outlive it). */
static void keep_report(struct symbolizer *sy, const struct jitdump *jd)
{
	struct diag d;

	diag_init(&d);
	if (jitdump_report(jd, &d)) {
		for (unsigned i = 0; i < d.nfirst; i++)
			note(sy, d.first[i]);
		for (unsigned i = 0; i < d.nwarnings; i++)
			note(sy, d.warnings[i]);
	}
	diag_free(&d);
}

static void free_proc(struct jd_proc *j)
{
	jitdump_close(j->jd);
	free(j->mapped);
	free(j);
}

void sym_jitdump_forget(struct symbolizer *sy, uint32_t pid)
{
	for (struct jd_proc **pp = &sy->jitdumps; *pp; pp = &(*pp)->next)
		if ((*pp)->pid == pid) {
			struct jd_proc *j = *pp;

			*pp = j->next;
			if (j->jd)
				keep_report(sy, j->jd);
			free_proc(j);
			return;
		}
}

void sym_jitdumps_free(struct symbolizer *sy)
{
	while (sy->jitdumps) {
		struct jd_proc *j = sy->jitdumps;

		sy->jitdumps = j->next;
		free_proc(j);
	}
	for (size_t i = 0; i < sy->njd_notes; i++)
		free(sy->jd_notes[i]);
	sy->njd_notes = 0;
}

void sym_jitdumps_report(const struct symbolizer *sy, struct diag *d)
{
	for (size_t i = 0; i < sy->njd_notes; i++)
		diag_warn(d, "%s", sy->jd_notes[i]);
	if (sy->jd_more_notes)
		diag_warn(d, "%llu more notes about jitdumps",
			  (unsigned long long)sy->jd_more_notes);
	for (const struct jd_proc *j = sy->jitdumps; j; j = j->next)
		if (j->jd)
			jitdump_report(j->jd, d);
}

/* ---- Unwinding info as Dwfl modules ---------------------------------------- */

static int32_t s32_at(const uint8_t *p)
{
	int32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * Where the runtime put the .eh_frame and .eh_frame_hdr of code at start:
 * from the header's encodings that runtimes write (eh_frame_ptr pcrel
 * sdata4, fde_count udata4, table datarel sdata4).  False otherwise.
 */
static bool cfi_layout(const struct jitdump_unwind *u, uint64_t start,
		       uint64_t *eh_addr, uint64_t *hdr_addr)
{
	const uint8_t *h = u->data + (u->size - u->eh_frame_hdr_size);
	uint64_t eh_size = u->size - u->eh_frame_hdr_size;

	if (u->eh_frame_hdr_size < 20 || h[0] != 1 || h[1] != 0x1b ||
	    h[2] != 0x03 || h[3] != 0x3b || !eh_size)
		return false;
	*hdr_addr = start - (uint64_t)(int64_t)s32_at(h + 12);
	*eh_addr = *hdr_addr + 4 + (uint64_t)(int64_t)s32_at(h + 4);
	return *eh_addr + eh_size == *hdr_addr;
}

static Elf_Scn *add_section(Elf *e, uint32_t type, size_t name,
			    uint64_t addr, const void *data, size_t size)
{
	Elf_Scn *scn = elf_newscn(e);
	Elf_Data *d = scn ? elf_newdata(scn) : NULL;
	GElf_Shdr sh;

	if (!d || !gelf_getshdr(scn, &sh))
		return NULL;
	d->d_buf = (void *)data;
	d->d_size = size;
	d->d_align = 1;
	d->d_type = ELF_T_BYTE;
	sh.sh_name = (uint32_t)name;
	sh.sh_type = type;
	sh.sh_flags = SHF_ALLOC;
	sh.sh_addr = addr;
	sh.sh_size = size;
	sh.sh_addralign = 1;
	return gelf_update_shdr(scn, &sh) ? scn : NULL;
}

/* A descriptor of an ELF holding u for code c (see the top), or -1. */
static int cfi_elf(const struct jitdump_unwind *u,
		   const struct jitdump_code *c, uint16_t mach)
{
	static const char names[] = "\0.text\0.eh_frame\0.eh_frame_hdr\0"
				    ".shstrtab";
	uint64_t eh_addr, hdr_addr, eh_size = u->size - u->eh_frame_hdr_size;
	int fd;
	Elf *e;
	GElf_Ehdr eh;
	GElf_Phdr ph;
	GElf_Shdr sh, esh;
	Elf_Scn *eh_scn, *hdr_scn, *str_scn;
	bool ok;

	if (!cfi_layout(u, c->start, &eh_addr, &hdr_addr))
		return -1;
	fd = memfd_create("flametop-jit-cfi", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	ok = e && gelf_newehdr(e, ELFCLASS64) && gelf_getehdr(e, &eh);
	if (ok) {
		eh.e_ident[EI_DATA] = __BYTE_ORDER__ ==
				      __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB
							      : ELFDATA2MSB;
		eh.e_type = ET_EXEC;
		eh.e_machine = mach;
		eh.e_version = EV_CURRENT;
		ok = gelf_update_ehdr(e, &eh) && gelf_newphdr(e, 3) &&
		     add_section(e, SHT_NOBITS, 1, c->start, NULL,
				 (size_t)(c->end - c->start)) &&
		     (eh_scn = add_section(e, SHT_PROGBITS, 7, eh_addr,
					   u->data, (size_t)eh_size)) &&
		     (hdr_scn = add_section(e, SHT_PROGBITS, 17, hdr_addr,
					    u->data + eh_size,
					    (size_t)u->eh_frame_hdr_size)) &&
		     (str_scn = add_section(e, SHT_STRTAB, 31, 0, names,
					    sizeof(names)));
	}
	if (ok) {
		gelf_getehdr(e, &eh);
		eh.e_shstrndx = (uint16_t)elf_ndxscn(str_scn);
		ok = gelf_update_ehdr(e, &eh) && elf_update(e, ELF_C_NULL) >= 0 &&
		     gelf_getshdr(hdr_scn, &sh) && gelf_getshdr(eh_scn, &esh) &&
		     esh.sh_offset + eh_size == sh.sh_offset;
	}
	if (ok) {
		/* The code (no bytes), the info (its bytes: libdw reads the
		   .eh_frame through the segment its address falls in), and
		   the header for libdw to find the info by. */
		memset(&ph, 0, sizeof(ph));
		ph.p_type = PT_LOAD;
		ph.p_flags = PF_R | PF_X;
		ph.p_vaddr = ph.p_paddr = c->start;
		ph.p_memsz = c->end - c->start;
		ph.p_align = 1;
		ok = gelf_update_phdr(e, 0, &ph);
		ph.p_flags = PF_R;
		ph.p_offset = sh.sh_offset - eh_size;
		ph.p_vaddr = ph.p_paddr = eh_addr;
		ph.p_filesz = ph.p_memsz = u->size;
		ok = ok && gelf_update_phdr(e, 1, &ph);
		ph.p_type = PT_GNU_EH_FRAME;
		ph.p_offset = sh.sh_offset;
		ph.p_vaddr = ph.p_paddr = hdr_addr;
		ph.p_filesz = ph.p_memsz = u->eh_frame_hdr_size;
		ok = ok && gelf_update_phdr(e, 2, &ph) &&
		     elf_update(e, ELF_C_WRITE) >= 0;
	}
	if (e)
		elf_end(e);
	if (!ok || lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* This machine's e_machine (python3.13 writes 0 in its dumps). */
static uint16_t host_machine(void)
{
#if defined(__x86_64__)
	return EM_X86_64;
#elif defined(__aarch64__)
	return EM_AARCH64;
#else
	return EM_NONE;
#endif
}

void sym_jitdump_report_cfi(struct symbolizer *sy, uint32_t pid, Dwfl *dwfl,
			    bool fresh)
{
	struct jd_proc *j = find_proc(sy, pid);
	const struct jitdump_info *info;
	struct jitdump_unwind u;
	struct jitdump_code c;
	bool begun = false;

	if (!j || !dwfl)
		return;
	if (!j->tried)
		open_dump(sy, j);
	if (!j->jd || !(info = jitdump_info(j->jd)) || info->swapped)
		return;
	if (fresh || j->cfi_dwfl != dwfl) {   /* a new Dwfl: all again */
		j->cfi_dwfl = dwfl;
		j->cfi_pos = 0;
		j->ncfi = 0;
	}
	if (!sy->o.jitdump_whole &&
	    now_seconds() - j->read_at >= JD_REREAD_SECONDS)
		reread(j);
	while (j->ncfi < JD_MAX_CFI &&
	       jitdump_unwind_next(j->jd, &j->cfi_pos, &u, &c)) {
		int fd = cfi_elf(&u, &c, info->elf_mach ? (uint16_t)info->elf_mach
						    : host_machine());

		if (fd < 0)
			continue;
		if (!begun) {
			dwfl_report_begin_add(dwfl);
			begun = true;
		}
		/* libdwfl owns fd from here, reported or not. */
		if (dwfl_report_elf(dwfl, "[jit]", "[jit]", fd, 0, true))
			j->ncfi++;
	}
	if (begun)
		dwfl_report_end(dwfl, NULL, NULL);
}

/*
 * Here, not in symbols-kernel.c: this file reads the perf maps' lookup
 * (a dump's fallback), so the forgetting of both is done from above them.
 */
void sym_jit_forget(struct symbolizer *sy, uint32_t pid)
{
	sym_jitdump_forget(sy, pid);
	sym_jit_map_forget(sy, pid);
}
