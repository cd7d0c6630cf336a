/*
 * symbols.c - the symbolizer: mapped files (dsos) with sorted symbol
 * tables, kernel symbols from kallsyms, JIT maps, per-process Dwfls.
 *
 * A dso is loaded once, on its first lookup: libdwfl opens the ELF (and
 * finds its separate debug file), the build-id is compared with the one
 * perf recorded, the PT_LOAD segments are kept to turn file offsets into
 * virtual addresses, and the function symbols are copied, demangled, into
 * one array sorted by address.  Then the Dwfl is closed: the table is all
 * a lookup needs, and many files stay open otherwise.
 *
 * Several symbols often share an address (aliases); one is kept, with
 * perf's preferences: a sized symbol over an empty one, global over weak
 * over local, fewer leading underscores, then the longer name.  A symbol
 * of size 0 reaches to the next symbol.
 */
#include "symbols.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <elfutils/libdw.h>

#include "perf-procs.h"
#include "util.h"

struct fsym {
	uint64_t start, end;
	const char *name;       /* as in the ELF until demangled */
	uint32_t len;
	unsigned char bind;     /* STB_* */
	bool demangled;         /* name checked for mangling */
};

struct seg {
	uint64_t off, filesz, vaddr, memsz;
};

struct sym_dso {
	char *path;
	const char *base;
	uint8_t bid[20];
	size_t bid_len;
	uint32_t maj, min;
	uint64_t ino;
	bool special;
	int state;              /* 0: not loaded, 1: loaded, -1: failed */
	enum sym_miss fail;
	struct fsym *syms;
	size_t nsyms;
	char *names;            /* all names, back to back */
	struct seg *segs;
	size_t nsegs;
	char *loaded_from;      /* the file actually read */
	char **dm;              /* demangled names (malloc'd) */
	size_t ndm, capdm;
	struct sym_dso *next;   /* hash chain */
};

struct bid_entry {
	char *path;
	uint8_t bid[20];
	size_t len;
};

struct jit_sym {
	uint64_t start, end;
	const char *name;
	size_t line;
};

struct jit_map {
	uint32_t pid;
	struct jit_sym *syms;
	size_t n;
	char *text;
	size_t size;            /* bytes read: the file only grows */
	double checked;         /* when its size was last looked at */
	struct jit_map *next;
};

struct ksym {
	uint64_t start;
	size_t seq;             /* line number: of aliases, the last wins */
	const char *name;
	const char *mod;        /* "[kernel.kallsyms]" or "[ext4]" */
};

struct reported {
	struct sym_dso *dso;
	uint64_t bias;
};

struct proc_state {
	Dwfl *dwfl;
	bool stale;
	struct reported *rep;   /* the files in dwfl, at their biases */
	size_t nrep, caprep;
};

struct symbolizer {
	struct sym_opts o;
	struct sym_dso **buckets;
	size_t nbuckets, ndsos;
	struct bid_entry *bids;
	size_t nbids, capbids;
	struct jit_map *jits;
	/* kernel */
	int kstate;             /* 0: not loaded, 1: ok, -1: unusable */
	struct ksym *ksyms;
	size_t nksyms;
	char *ktext;
	uint8_t kbid[20];
	size_t kbid_len;
	char krelease[65];        /* uname -r of the recording, "" unknown */
	char kmsg[160];
	uint64_t ktext_recorded;  /* _text as recorded, 0: unknown */
	uint64_t ktext_now;       /* _text in the running kernel */
	int64_t kdelta;
	pthread_t kthread;        /* loading kallsyms in the background */
	bool kthread_on;
	/* statistics */
	uint64_t misses[SYM_MISS_COUNT];
	const char *miss_file[SYM_MISS_COUNT];
	int vdso_fd;
};

static char *debuginfo_path;

static void kernel_join(struct symbolizer *sy);

static const Dwfl_Callbacks offline_cb = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

static struct sym_opts default_opts = { .demangle = true };

void sym_default_opts(struct sym_opts *o)
{
	*o = default_opts;
}

void sym_set_defaults(const struct sym_opts *o)
{
	default_opts = *o;
}

struct symbolizer *sym_create(const struct sym_opts *o)
{
	struct symbolizer *sy = xcalloc(1, sizeof(*sy));

	if (o)
		sy->o = *o;
	if (!sy->o.debuginfod)
		unsetenv("DEBUGINFOD_URLS");
	sy->nbuckets = 256;
	sy->buckets = xcalloc(sy->nbuckets, sizeof(*sy->buckets));
	sy->vdso_fd = -1;
	return sy;
}

static void dso_free(struct sym_dso *d)
{
	free(d->path);
	free(d->syms);
	free(d->names);
	free(d->segs);
	free(d->loaded_from);
	for (size_t i = 0; i < d->ndm; i++)
		free(d->dm[i]);
	free(d->dm);
	free(d);
}

void sym_destroy(struct symbolizer *sy)
{
	if (!sy)
		return;
	kernel_join(sy);
	for (size_t i = 0; i < sy->nbuckets; i++) {
		struct sym_dso *d = sy->buckets[i], *nx;

		for (; d; d = nx) {
			nx = d->next;
			dso_free(d);
		}
	}
	free(sy->buckets);
	for (size_t i = 0; i < sy->nbids; i++)
		free(sy->bids[i].path);
	free(sy->bids);
	while (sy->jits) {
		struct jit_map *j = sy->jits;

		sy->jits = j->next;
		free(j->syms);
		free(j->text);
		free(j);
	}
	free(sy->ksyms);
	free(sy->ktext);
	if (sy->vdso_fd >= 0)
		close(sy->vdso_fd);
	free(sy);
}

/* ---- Dsos ----------------------------------------------------------------- */

static uint64_t dso_hash(const char *path, size_t len,
			 const struct sym_file_id *id)
{
	uint64_t h = hash_bytes(path, len);

	if (id && id->build_id_len)
		h ^= hash_bytes(id->build_id, id->build_id_len) * 31;
	else if (id)
		h ^= hash_u64(id->ino ^ ((uint64_t)id->maj << 40) ^
			      ((uint64_t)id->min << 20));
	return h;
}

static bool dso_same(const struct sym_dso *d, const char *path, size_t len,
		     const struct sym_file_id *id)
{
	size_t bl = id && id->build_id_len ? id->build_id_len : 0;

	if (bl > 20)
		bl = 20;
	if (strlen(d->path) != len || memcmp(d->path, path, len) != 0)
		return false;
	if (bl != d->bid_len || (bl && memcmp(d->bid, id->build_id, bl)))
		return false;
	if (!bl && id && (d->ino != id->ino || d->maj != id->maj ||
			  d->min != id->min))
		return false;
	if (!bl && !id && d->ino)
		return false;
	return true;
}

struct sym_dso *sym_dso_get(struct symbolizer *sy, const char *path,
			    size_t path_len, const struct sym_file_id *id)
{
	uint64_t h;
	size_t b;
	struct sym_dso *d;

	path_len = strnlen(path, path_len);
	h = dso_hash(path, path_len, id);
	b = h & (sy->nbuckets - 1);
	for (d = sy->buckets[b]; d; d = d->next)
		if (dso_same(d, path, path_len, id))
			return d;
	d = xcalloc(1, sizeof(*d));
	d->path = xstrndup(path, path_len);
	{
		const char *sl = strrchr(d->path, '/');

		d->base = sl ? sl + 1 : d->path;
	}
	if (id) {
		d->bid_len = id->build_id_len > 20 ? 20 : id->build_id_len;
		if (d->bid_len)
			memcpy(d->bid, id->build_id, d->bid_len);
		else {
			d->maj = id->maj;
			d->min = id->min;
			d->ino = id->ino;
		}
	}
	d->special = d->path[0] == '[';
	if (sy->ndsos + 1 > sy->nbuckets) {
		/* Rehash into twice the buckets. */
		size_t nb = sy->nbuckets * 2;
		struct sym_dso **nbk = xcalloc(nb, sizeof(*nbk));

		for (size_t i = 0; i < sy->nbuckets; i++) {
			struct sym_dso *e = sy->buckets[i], *nx;

			for (; e; e = nx) {
				size_t k = dso_hash(e->path, strlen(e->path),
						    &(struct sym_file_id){
							e->maj, e->min, e->ino,
							e->bid_len ? e->bid : NULL,
							e->bid_len }) & (nb - 1);

				nx = e->next;
				e->next = nbk[k];
				nbk[k] = e;
			}
		}
		free(sy->buckets);
		sy->buckets = nbk;
		sy->nbuckets = nb;
		b = h & (nb - 1);
	}
	d->next = sy->buckets[b];
	sy->buckets[b] = d;
	sy->ndsos++;
	return d;
}

void sym_add_build_id(struct symbolizer *sy, const char *path, size_t len,
		      const uint8_t *bid, size_t bid_len)
{
	struct bid_entry *e;

	if (bid_len == 0)
		return;
	GROW(sy->bids, sy->capbids, sy->nbids + 1);
	e = &sy->bids[sy->nbids++];
	e->path = xstrndup(path, strnlen(path, len));
	e->len = bid_len > 20 ? 20 : bid_len;
	memcpy(e->bid, bid, e->len);
}

const char *sym_dso_path(const struct sym_dso *d)
{
	return d->path;
}

const char *sym_dso_basename(const struct sym_dso *d)
{
	return d->base;
}

bool sym_dso_is_special(const struct sym_dso *d)
{
	return d->special;
}

static int cmp_fsym(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

static unsigned underscores(const char *s)
{
	unsigned n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* True when a is the better of two symbols at one address. */
static bool better(const struct fsym *a, const struct fsym *b)
{
	bool az = a->end == a->start, bz = b->end == b->start;
	size_t la, lb;

	if (az != bz)
		return !az;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return a->bind != STB_WEAK;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL;
	if (underscores(a->name) != underscores(b->name))
		return underscores(a->name) < underscores(b->name);
	la = strlen(a->name);
	lb = strlen(b->name);
	return la >= lb;
}

/* Sort, keep one symbol per address, extend empty symbols. */
static size_t finish_table(struct fsym *s, size_t n)
{
	size_t o = 0;

	qsort(s, n, sizeof(*s), cmp_fsym);
	for (size_t i = 0; i < n; i++) {
		if (o && s[o - 1].start == s[i].start) {
			if (better(&s[i], &s[o - 1]))
				s[o - 1] = s[i];
			continue;
		}
		s[o++] = s[i];
	}
	for (size_t i = 0; i < o; i++)
		if (s[i].end == s[i].start)
			s[i].end = i + 1 < o ? s[i + 1].start : s[i].start + 1;
	return o;
}

static void bid_hex(char *out, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = 0;
}

/* The build-id perf recorded for the dso (MMAP2 or BUILD_ID feature). */
static const uint8_t *want_bid(struct symbolizer *sy, struct sym_dso *d,
			       size_t *len)
{
	if (d->bid_len) {
		*len = d->bid_len;
		return d->bid;
	}
	for (size_t i = sy->nbids; i-- > 0;)
		if (strcmp(sy->bids[i].path, d->path) == 0) {
			*len = sy->bids[i].len;
			return sy->bids[i].bid;
		}
	*len = 0;
	return NULL;
}

/* An fd holding this process's own vdso (same ABI as what we profile). */
static int vdso_fd(struct symbolizer *sy)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	FILE *f;
	char line[512];
	size_t size = 0;

	if (sy->vdso_fd >= 0 || !base)
		return sy->vdso_fd >= 0 ? dup(sy->vdso_fd) : -1;
	f = fopen("/proc/self/maps", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long a, b;

		if (strstr(line, "[vdso]") &&
		    sscanf(line, "%lx-%lx", &a, &b) == 2 && a == base)
			size = b - a;
	}
	fclose(f);
	if (!size)
		return -1;
	sy->vdso_fd = memfd_create("flametop-vdso", MFD_CLOEXEC);
	if (sy->vdso_fd < 0)
		return -1;
	if (write(sy->vdso_fd, (const void *)base, size) != (ssize_t)size) {
		close(sy->vdso_fd);
		sy->vdso_fd = -1;
		return -1;
	}
	return dup(sy->vdso_fd);
}

/* Open the file that holds d's code: fd, or -1 with d->fail set. */
static int open_dso(struct symbolizer *sy, struct sym_dso *d, char **from)
{
	char *p;
	int fd;

	if (strcmp(d->path, "[vdso]") == 0) {
		fd = vdso_fd(sy);
		*from = xstrdup("[vdso]");
		if (fd < 0)
			d->fail = SYM_MISS_NO_FILE;
		return fd;
	}
	if (d->special) {
		d->fail = SYM_MISS_NOT_ELF;
		return -1;
	}
	p = sy->o.root ? xasprintf("%s%s", sy->o.root, d->path)
		       : xstrdup(d->path);
	{
		/* "/path (deleted)": the file may have come back. */
		size_t n = strlen(p);

		if (n > 10 && strcmp(p + n - 10, " (deleted)") == 0)
			p[n - 10] = 0;
	}
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(p);
		d->fail = SYM_MISS_NO_FILE;
		return -1;
	}
	*from = p;
	return fd;
}

/* fd of path when it is a regular file (not a directory), else -1. */
static int open_regular(const char *path)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0 && (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * A binary by its build-id.  With a symfs (--symfs DIR), only under DIR:
 * DIR/.build-id/xx/rest (a tree of links to the binaries) or, perf's
 * cache layout, DIR/.build-id/xx/rest/elf (so --symfs ~/.debug works);
 * without one, in perf's build-id cache ~/.debug/.build-id/xx/rest/elf.
 */
static int open_bid_cache(const struct symbolizer *sy, const uint8_t *bid,
			  size_t len, char **from)
{
	static const char *const leaf[] = { "", "/elf", "/vdso" };
	const char *home = getenv("HOME");
	char *dir;
	char hex[41];
	int fd = -1;

	if (len == 0)
		return -1;
	if (sy->o.root)
		dir = xasprintf("%s/.build-id", sy->o.root);
	else if (home)
		dir = xasprintf("%s/.debug/.build-id", home);
	else
		return -1;
	bid_hex(hex, bid, len);
	/* The cache's link names a directory holding "elf" (or "vdso"). */
	for (size_t i = sy->o.root ? 0 : 1; i < ARRAY_SIZE(leaf) && fd < 0;
	     i++) {
		char *p = xasprintf("%s/%.2s/%s%s", dir, hex, hex + 2, leaf[i]);

		fd = open_regular(p);
		if (fd >= 0)
			*from = p;
		else
			free(p);
	}
	free(dir);
	return fd;
}

/*
 * Name the PLT's entries "func@plt" from the PLT relocations, as perf
 * does: entry i (after the header) jumps to the symbol of relocation i.
 * Appends to syms[*n..], growing it; the names are malloc'd into *plt.
 */
static void add_plt(Elf *elf, struct fsym **syms, size_t *n, size_t *cap,
		    char ***plt, size_t *nplt, size_t *pltcap)
{
	size_t shstr;
	Elf_Scn *scn = NULL, *pltscn = NULL, *relscn = NULL;
	GElf_Shdr pltsh = { 0 }, relsh = { 0 }, symsh;
	Elf_Data *rel, *dsym;
	Elf_Scn *symscn;
	uint64_t at, ent;
	size_t nrel;

	if (!elf || elf_getshdrstrndx(elf, &shstr) != 0)
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *nm;

		if (!gelf_getshdr(scn, &sh))
			continue;
		nm = elf_strptr(elf, shstr, sh.sh_name);
		if (!nm)
			continue;
		if (strcmp(nm, ".plt") == 0) {
			pltscn = scn;
			pltsh = sh;
		} else if (strcmp(nm, ".rela.plt") == 0 && sh.sh_type == SHT_RELA) {
			relscn = scn;
			relsh = sh;
		}
	}
	if (!pltscn || !relscn || pltsh.sh_type == SHT_NOBITS)
		return;
	symscn = elf_getscn(elf, relsh.sh_link);
	if (!symscn || !gelf_getshdr(symscn, &symsh))
		return;
	rel = elf_getdata(relscn, NULL);
	dsym = elf_getdata(symscn, NULL);
	if (!rel || !dsym || relsh.sh_entsize == 0)
		return;
	ent = pltsh.sh_entsize ? pltsh.sh_entsize : 16;
	at = pltsh.sh_addr + ent;       /* the header is one entry */
	nrel = relsh.sh_size / relsh.sh_entsize;
	for (size_t i = 0; i < nrel; i++) {
		GElf_Rela ra;
		GElf_Sym sym;
		const char *nm = "";
		char *full;

		if (!gelf_getrela(rel, (int)i, &ra))
			break;
		if (GELF_R_SYM(ra.r_info) &&
		    gelf_getsym(dsym, (int)GELF_R_SYM(ra.r_info), &sym)) {
			nm = elf_strptr(elf, symsh.sh_link, sym.st_name);
			if (!nm)
				nm = "";
		}
		{
			char *dn = sym_demangle(nm);

			full = xasprintf("%s@plt", dn ? dn : nm);
			free(dn);
		}
		GROW(*syms, *cap, *n + 1);
		GROW(*plt, *pltcap, *nplt + 1);
		(*plt)[(*nplt)++] = full;
		(*syms)[*n].start = at;
		(*syms)[*n].end = at + ent;
		(*syms)[*n].name = full;
		(*syms)[*n].len = (uint32_t)strlen(full);
		(*syms)[*n].bind = STB_GLOBAL;
		(*syms)[*n].demangled = true;
		(*n)++;
		at += ent;
	}
}

static void dso_load(struct symbolizer *sy, struct sym_dso *d)
{
	char *from = NULL;
	int fd;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	const uint8_t *want;
	size_t wantlen;
	Elf *elf;
	GElf_Addr bias;
	int nsym;
	size_t names_len = 0, cap = 0, symcap = 0;
	struct fsym *syms = NULL;
	char **plt = NULL;
	size_t nplt = 0, pltcap = 0;

	d->state = -1;
	want = want_bid(sy, d, &wantlen);
	/*
	 * perf record keeps a copy of each binary it saw in its build-id
	 * cache: that copy is the right file even after a rebuild.
	 */
	fd = want ? open_bid_cache(sy, want, wantlen, &from) : -1;
	if (fd >= 0)
		want = NULL;     /* the cache is keyed by the build-id */
	else
		fd = open_dso(sy, d, &from);
	if (fd < 0)
		return;
	dwfl = dwfl_begin(&offline_cb);
	if (!dwfl) {
		close(fd);
		free(from);
		d->fail = SYM_MISS_NOT_ELF;
		return;
	}
	dwfl_report_begin(dwfl);
	mod = dwfl_report_elf(dwfl, d->base, from, fd, 0, false);
	dwfl_report_end(dwfl, NULL, NULL);
	if (!mod) {
		dwfl_end(dwfl);
		free(from);
		d->fail = SYM_MISS_NOT_ELF;
		return;
	}
	if (want) {
		const unsigned char *bits;
		GElf_Addr bv;
		int n = dwfl_module_build_id(mod, &bits, &bv);

		if (n <= 0 || (size_t)n != wantlen ||
		    memcmp(bits, want, wantlen) != 0) {
			char *alt = NULL;
			int afd = open_bid_cache(sy, want, wantlen, &alt);

			dwfl_end(dwfl);
			free(from);
			if (afd < 0) {
				d->fail = SYM_MISS_BUILD_ID;
				return;
			}
			from = alt;
			dwfl = dwfl_begin(&offline_cb);
			dwfl_report_begin(dwfl);
			mod = dwfl_report_elf(dwfl, d->base, from, afd, 0,
					      false);
			dwfl_report_end(dwfl, NULL, NULL);
			if (!mod) {
				dwfl_end(dwfl);
				free(from);
				d->fail = SYM_MISS_NOT_ELF;
				return;
			}
		}
	}
	elf = dwfl_module_getelf(mod, &bias);
	if (elf) {
		size_t nph = 0;

		if (elf_getphdrnum(elf, &nph) == 0) {
			d->segs = xcalloc(nph ? nph : 1, sizeof(*d->segs));
			for (size_t i = 0; i < nph; i++) {
				GElf_Phdr ph;

				if (gelf_getphdr(elf, (int)i, &ph) &&
				    ph.p_type == PT_LOAD) {
					struct seg *s = &d->segs[d->nsegs++];

					s->off = ph.p_offset;
					s->filesz = ph.p_filesz;
					s->vaddr = ph.p_vaddr;
					s->memsz = ph.p_memsz;
				}
			}
		}
	}
	nsym = dwfl_module_getsymtab(mod);
	if (nsym > 0) {
		symcap = (size_t)nsym;
		syms = xcalloc(symcap, sizeof(*syms));
	}
	for (int i = 1; i < nsym; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *selfe;
		Dwarf_Addr sbias;
		const char *nm = dwfl_module_getsym_info(mod, i, &sym, &addr,
							 &shndx, &selfe,
							 &sbias);
		int type = GELF_ST_TYPE(sym.st_info);
		const char *at;
		struct fsym *f;

		if (!nm || !*nm || shndx == SHN_UNDEF || shndx == SHN_ABS)
			continue;
		if (type == STT_NOTYPE) {
			/* Labels in code (_start, _dl_start_user) count. */
			GElf_Shdr sh;
			Elf_Scn *scn = selfe ? elf_getscn(selfe, shndx) : NULL;

			if (!scn || !gelf_getshdr(scn, &sh) ||
			    !(sh.sh_flags & SHF_EXECINSTR))
				continue;
		} else if (type != STT_FUNC && type != STT_GNU_IFUNC) {
			continue;
		}
		f = &syms[cap++];
		/* "memcpy@@GLIBC_2.14": the version goes. */
		at = strchr(nm, '@');
		f->len = (uint32_t)(at && at != nm ? (size_t)(at - nm)
						   : strlen(nm));
		f->name = nm;           /* Dwfl's until copied below */
		f->start = addr - bias;
		f->end = f->start + sym.st_size;
		f->bind = GELF_ST_BIND(sym.st_info);
	}
	add_plt(elf, &syms, &cap, &symcap, &plt, &nplt, &pltcap);
	if (cap) {
		char *w;

		d->nsyms = finish_table(syms, cap);
		for (size_t i = 0; i < d->nsyms; i++)
			names_len += syms[i].len + 1u;
		d->names = xmalloc(names_len);
		w = d->names;
		for (size_t i = 0; i < d->nsyms; i++) {
			memcpy(w, syms[i].name, syms[i].len);
			w[syms[i].len] = 0;
			syms[i].name = w;
			w += syms[i].len + 1u;
		}
		d->syms = syms;
	} else {
		free(syms);
	}
	for (size_t i = 0; i < nplt; i++)
		free(plt[i]);
	free(plt);
	dwfl_end(dwfl);
	d->loaded_from = from;
	d->state = 1;
	if (!d->nsyms)
		d->fail = SYM_MISS_STRIPPED;
}

/* The ELF virtual address of a file offset (perf's map ip). */
static uint64_t dso_vaddr(const struct sym_dso *d, uint64_t off)
{
	for (size_t i = 0; i < d->nsegs; i++) {
		const struct seg *s = &d->segs[i];

		if (off >= s->off && off - s->off < s->filesz)
			return off - s->off + s->vaddr;
	}
	/* Past every segment's file bytes: from the first one. */
	if (d->nsegs && off >= d->segs[0].off)
		return off - d->segs[0].off + d->segs[0].vaddr;
	return off;
}

/*
 * How many entries of a table sorted by start begin at or before a: entry
 * [result - 1] is the last that may cover a.  Every symbol table here
 * (ELF, kernel, JIT) starts its entries with a uint64_t start.
 */
static size_t count_starting_by(const void *table, size_t n, size_t size,
				uint64_t a)
{
	const unsigned char *t = table;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t start;

		memcpy(&start, t + mid * size, sizeof(start));
		if (start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

_Static_assert(offsetof(struct fsym, start) == 0, "start comes first");
_Static_assert(offsetof(struct ksym, start) == 0, "start comes first");
_Static_assert(offsetof(struct jit_sym, start) == 0, "start comes first");

const char *sym_dso_lookup(struct symbolizer *sy, struct sym_dso *d,
			   uint64_t file_off, uint64_t *vaddr,
			   enum sym_miss *why)
{
	size_t lo;
	uint64_t a;

	if (d->state == 0)
		dso_load(sy, d);
	if (d->state < 0) {
		*why = d->fail;
		*vaddr = file_off;
		if (!sy->miss_file[d->fail])
			sy->miss_file[d->fail] = d->path;
		return NULL;
	}
	a = dso_vaddr(d, file_off);
	*vaddr = a;
	lo = count_starting_by(d->syms, d->nsyms, sizeof(*d->syms), a);
	if (lo && a < d->syms[lo - 1].end) {
		struct fsym *f = &d->syms[lo - 1];

		if (!f->demangled) {
			/* Demangled on first use: most symbols never are. */
			char *dn = sy->o.demangle ? sym_demangle(f->name) : NULL;

			f->demangled = true;
			if (dn) {
				GROW(d->dm, d->capdm, d->ndm + 1);
				d->dm[d->ndm++] = dn;
				f->name = dn;
			}
		}
		return f->name;
	}
	*why = d->nsyms ? SYM_MISS_NO_SYMBOL : SYM_MISS_STRIPPED;
	if (!sy->miss_file[*why])
		sy->miss_file[*why] = d->path;
	return NULL;
}

/* ---- Kernel ---------------------------------------------------------------- */

void sym_set_kernel_build_id(struct symbolizer *sy, const uint8_t *bid,
			     size_t len)
{
	sy->kbid_len = len > 20 ? 20 : len;
	memcpy(sy->kbid, bid, sy->kbid_len);
}

void sym_set_kernel_release(struct symbolizer *sy, const char *rel,
			    size_t len)
{
	len = strnlen(rel, len);
	if (len >= sizeof(sy->krelease))
		len = sizeof(sy->krelease) - 1;
	memcpy(sy->krelease, rel, len);
	sy->krelease[len] = 0;
}

void sym_set_kernel_text(struct symbolizer *sy, uint64_t text_start)
{
	sy->ktext_recorded = text_start;
}

/* The running kernel's build-id, from /sys/kernel/notes. */
static size_t running_kernel_bid(uint8_t *out)
{
	unsigned char buf[4096];
	ssize_t n;
	size_t off = 0;
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	while (n > 0 && off + 12 <= (size_t)n) {
		uint32_t nsz, dsz, type;
		size_t name_off, desc_off;

		memcpy(&nsz, buf + off, 4);
		memcpy(&dsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		name_off = off + 12;
		desc_off = name_off + ((nsz + 3u) & ~3u);
		if (desc_off + dsz > (size_t)n || desc_off < name_off)
			break;
		if (type == NT_GNU_BUILD_ID && nsz == 4 &&
		    memcmp(buf + name_off, "GNU", 4) == 0) {
			size_t l = dsz > 20 ? 20 : dsz;

			memcpy(out, buf + desc_off, l);
			return l;
		}
		off = desc_off + ((dsz + 3u) & ~3u);
	}
	return 0;
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void kernel_load(struct symbolizer *sy)
{
	const char *path = sy->o.kallsyms ? sy->o.kallsyms : "/proc/kallsyms";
	FILE *f;
	char *text = NULL;
	size_t len = 0, cap = 0, n = 0, capk = 0;
	char chunk[65536];
	size_t got;
	bool nonzero = false;
	uint64_t text_now = 0;

	sy->kstate = -1;
	if (!sy->kbid_len && sy->krelease[0] && !sy->o.kallsyms) {
		struct utsname u;

		if (uname(&u) == 0 && strcmp(u.release, sy->krelease) != 0) {
			snprintf(sy->kmsg, sizeof(sy->kmsg), "recorded on kernel "
				 "%s, this is %s", sy->krelease, u.release);
			sy->miss_file[SYM_MISS_KERNEL] = sy->kmsg;
			return;
		}
	}
	if (sy->kbid_len && !sy->o.kallsyms) {
		uint8_t now[20];
		size_t l = running_kernel_bid(now);

		if (l && (l != sy->kbid_len || memcmp(now, sy->kbid, l))) {
			/* perf record keeps that kernel's kallsyms in its cache. */
			const char *home = getenv("HOME");
			char hex[41];

			bid_hex(hex, sy->kbid, sy->kbid_len);
			snprintf(sy->kmsg, sizeof(sy->kmsg),
				 "%s/.debug/[kernel.kallsyms]/%s/kallsyms",
				 home ? home : "", hex);
			if (!home || access(sy->kmsg, R_OK) != 0) {
				sy->miss_file[SYM_MISS_KERNEL] = "the profile was "
					"recorded on another kernel";
				return;
			}
			path = sy->kmsg;
		}
	}
	f = fopen(path, "r");
	if (!f) {
		if (sy->o.kallsyms) {
			snprintf(sy->kmsg, sizeof(sy->kmsg), "cannot read "
				 "--kallsyms %.80s: %.40s", path, strerror(errno));
			sy->miss_file[SYM_MISS_KERNEL] = sy->kmsg;
		}
		return;
	}
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		GROW(text, cap, len + got + 1);
		memcpy(text + len, chunk, got);
		len += got;
	}
	fclose(f);
	if (!text)
		return;
	text[len] = 0;
	for (char *s = text; *s;) {
		char *nl = strchr(s, '\n');
		char *e, *name, *mod = NULL;
		unsigned long long a;
		char type;

		if (nl)
			*nl = 0;
		a = strtoull(s, &e, 16);
		if (e != s && *e == ' ' && e[1] && e[2] == ' ') {
			type = e[1];
			name = e + 3;
			{
				char *tab = strchr(name, '\t');

				if (tab) {
					*tab = 0;
					mod = tab + 1;
				}
			}
			if (a)
				nonzero = true;
			if (strcmp(name, "_text") == 0 && !mod)
				text_now = a;
			/*
			 * __pfx_* (the padding before a function) stay, as
			 * in perf: a return address after a noreturn call
			 * lands there.
			 */
			if (type == 'T' || type == 't' || type == 'W' ||
			    type == 'w') {
				GROW(sy->ksyms, capk, n + 1);
				sy->ksyms[n].start = a;
				sy->ksyms[n].seq = n;
				sy->ksyms[n].name = name;
				sy->ksyms[n].mod = mod;
				n++;
			}
		}
		if (!nl)
			break;
		s = nl + 1;
	}
	if (!nonzero || n == 0) {
		free(text);
		free(sy->ksyms);
		sy->ksyms = NULL;
		sy->miss_file[SYM_MISS_KERNEL] = "kernel addresses are hidden "
			"(kptr_restrict); run as root";
		return;
	}
	/* Module names "[ext4]" are kept as written by kallsyms. */
	qsort(sy->ksyms, n, sizeof(*sy->ksyms), cmp_ksym);
	sy->nksyms = n;
	sy->ktext = text;
	sy->ktext_now = text_now;
	sy->kstate = 1;
}

static void *kernel_thread(void *arg)
{
	kernel_load(arg);
	return NULL;
}

void sym_preload_kernel(struct symbolizer *sy)
{
	if (sy->kstate != 0 || sy->kthread_on)
		return;
	sy->kstate = 2;         /* loading; read only after the join */
	if (pthread_create(&sy->kthread, NULL, kernel_thread, sy) == 0)
		sy->kthread_on = true;
	else
		sy->kstate = 0;
}

static void kernel_join(struct symbolizer *sy)
{
	if (sy->kthread_on) {
		pthread_join(sy->kthread, NULL);
		sy->kthread_on = false;
	}
}

const char *sym_kernel_lookup(struct symbolizer *sy, uint64_t addr,
			      const char **mod)
{
	size_t lo;

	*mod = "[kernel.kallsyms]";
	kernel_join(sy);
	if (sy->kstate == 0)
		kernel_load(sy);
	if (sy->kstate < 0)
		return NULL;
	/* KASLR: the profile's kernel may sit elsewhere than ours. */
	if (sy->ktext_recorded && sy->ktext_now)
		sy->kdelta = (int64_t)(sy->ktext_now - sy->ktext_recorded);
	addr += (uint64_t)sy->kdelta;
	lo = count_starting_by(sy->ksyms, sy->nksyms, sizeof(*sy->ksyms),
			       addr);
	if (lo == 0)
		return NULL;
	{
		const struct ksym *k = &sy->ksyms[lo - 1];

		/* Past the last symbol of the kernel or a module: unknown. */
		if (lo == sy->nksyms && addr - k->start > 65536)
			return NULL;
		if (lo < sy->nksyms && (k->mod == NULL) !=
		    (sy->ksyms[lo].mod == NULL) && addr - k->start > 65536)
			return NULL;
		if (k->mod)
			*mod = k->mod;
		return k->name;
	}
}

/* ---- JIT maps ---------------------------------------------------------------- */

static int cmp_jit(const void *a, const void *b)
{
	const struct jit_sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static struct jit_map *jit_load(struct symbolizer *sy, uint32_t pid)
{
	struct jit_map *j = xcalloc(1, sizeof(*j));
	char *path = xasprintf("%s/perf-%u.map",
			       sy->o.jit_dir ? sy->o.jit_dir : "/tmp", pid);
	FILE *f = fopen(path, "r");
	size_t cap = 0, len = 0, capsyms = 0;
	char chunk[65536];
	size_t got;

	free(path);
	j->pid = pid;
	j->checked = now_seconds();
	j->next = sy->jits;
	sy->jits = j;
	if (!f)
		return j;
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		GROW(j->text, cap, len + got + 1);
		memcpy(j->text + len, chunk, got);
		len += got;
	}
	fclose(f);
	j->size = len;
	if (!j->text)
		return j;
	j->text[len] = 0;
	for (char *s = j->text; *s;) {
		char *nl = strchr(s, '\n');
		char *e1, *e2;
		unsigned long long a, sz;

		if (nl)
			*nl = 0;
		a = strtoull(s, &e1, 16);
		if (e1 != s && *e1 == ' ') {
			sz = strtoull(e1 + 1, &e2, 16);
			if (e2 != e1 + 1 && *e2 == ' ' && a + sz >= a) {
				GROW(j->syms, capsyms, j->n + 1);
				j->syms[j->n].start = a;
				j->syms[j->n].end = a + sz;
				j->syms[j->n].name = e2 + 1;
				j->syms[j->n].line = j->n;
				j->n++;
			}
		}
		if (!nl)
			break;
		s = nl + 1;
	}
	qsort(j->syms, j->n, sizeof(*j->syms), cmp_jit);
	return j;
}

static const char *jit_find(const struct jit_map *j, uint64_t addr);

const char *sym_jit_lookup(struct symbolizer *sy, uint32_t pid,
			   uint64_t addr)
{
	struct jit_map *j;
	const char *best;

	for (j = sy->jits; j; j = j->next)
		if (j->pid == pid)
			break;
	if (!j)
		j = jit_load(sy, pid);
	best = jit_find(j, addr);
	/* A JIT appends as it compiles: reload a grown map, once a second. */
	if (!best && now_seconds() - j->checked >= 1.0) {
		char *path = xasprintf("%s/perf-%u.map", sy->o.jit_dir ?
				       sy->o.jit_dir : "/tmp", pid);
		struct stat sb;

		j->checked = now_seconds();
		if (stat(path, &sb) == 0 && (size_t)sb.st_size != j->size) {
			sym_jit_forget(sy, pid);
			best = jit_find(jit_load(sy, pid), addr);
		}
		free(path);
	}
	return best;
}

static const char *jit_find(const struct jit_map *j, uint64_t addr)
{
	const char *best = NULL;
	size_t bestline = 0, lo;

	lo = count_starting_by(j->syms, j->n, sizeof(*j->syms), addr);
	/* Later lines win: look back over the entries that may cover addr. */
	for (size_t i = lo, k = 0; i-- > 0 && k < 64; k++) {
		if (addr < j->syms[i].end &&
		    (!best || j->syms[i].line > bestline)) {
			best = j->syms[i].name;
			bestline = j->syms[i].line;
		}
	}
	return best;
}

void sym_jit_forget(struct symbolizer *sy, uint32_t pid)
{
	for (struct jit_map **pp = &sy->jits; *pp; pp = &(*pp)->next)
		if ((*pp)->pid == pid) {
			struct jit_map *j = *pp;

			*pp = j->next;
			free(j->syms);
			free(j->text);
			free(j);
			return;
		}
}

/* ---- Per-process Dwfl ------------------------------------------------------ */

static const Dwfl_Callbacks proc_cb = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

static bool was_reported(const struct proc_state *ps, const struct sym_dso *d,
			 uint64_t bias)
{
	for (size_t i = 0; i < ps->nrep; i++)
		if (ps->rep[i].dso == d && ps->rep[i].bias == bias)
			return true;
	return false;
}

/*
 * Maps only added to since the last build: report the new files into the
 * same Dwfl (its attached unwinder state and loaded CFI stay).  Anything
 * else: a new Dwfl.  libdwfl cannot re-report a module it holds: a second
 * dwfl_report_elf of the same file fails as an overlap and drops it.
 */
Dwfl *sym_proc_dwfl(struct symbolizer *sy, struct pe_proc *pr)
{
	void **slot = pe_proc_sym_slot(pr);
	struct proc_state *ps = *slot;
	const struct pe_map *maps;
	struct reported *want = NULL;
	size_t n, nwant = 0, capwant = 0;
	bool add_only, new_image = false;

	if (!ps) {
		ps = xcalloc(1, sizeof(*ps));
		ps->stale = true;
		*slot = ps;
	}
	if (!ps->stale)
		return ps->nrep ? ps->dwfl : NULL;
	maps = pe_proc_maps(pr, &n);
	/*
	 * After an exec the old image's maps stay for symbols, but in the
	 * Dwfl their modules would overlap the new image's: once the new
	 * image has a file mapped, leave the old one out.
	 */
	for (size_t i = 0; i < n && !new_image; i++)
		new_image = maps[i].dso && !maps[i].before_exec;
	for (size_t i = 0; i < n; i++) {
		struct sym_dso *d = maps[i].dso;
		bool seen = false;
		uint64_t bias = 0;
		bool found = false;

		if (!d || (new_image && maps[i].before_exec))
			continue;
		for (size_t k = 0; k < i; k++)
			if (maps[k].dso == d &&
			    !(new_image && maps[k].before_exec))
				seen = true;
		if (seen)
			continue;
		if (d->state == 0)
			dso_load(sy, d);
		if (d->state < 0 || !d->loaded_from)
			continue;
		/* The bias: where the segment holding pgoff was put. */
		for (size_t s = 0; s < d->nsegs; s++) {
			const struct seg *sg = &d->segs[s];
			uint64_t pg = sg->off & ~(uint64_t)4095;

			if (pg == maps[i].pgoff) {
				bias = maps[i].start -
				       (sg->vaddr & ~(uint64_t)4095);
				found = true;
				break;
			}
		}
		if (!found)
			bias = maps[i].start - maps[i].pgoff;
		GROW(want, capwant, nwant + 1);
		want[nwant].dso = d;
		want[nwant++].bias = bias;
	}
	add_only = ps->dwfl != NULL;
	for (size_t i = 0; i < ps->nrep && add_only; i++) {
		bool kept = false;

		for (size_t k = 0; k < nwant && !kept; k++)
			kept = want[k].dso == ps->rep[i].dso &&
			       want[k].bias == ps->rep[i].bias;
		add_only = kept;
	}
	if (!add_only) {
		if (ps->dwfl)
			dwfl_end(ps->dwfl);
		ps->dwfl = dwfl_begin(&proc_cb);
		ps->nrep = 0;
		if (!ps->dwfl) {
			free(want);
			return NULL;
		}
	}
	dwfl_report_begin_add(ps->dwfl);
	for (size_t i = 0; i < nwant; i++) {
		struct sym_dso *d = want[i].dso;

		int fd = -1;

		if (was_reported(ps, d, want[i].bias))
			continue;
		/* The vdso has CFI too: ours, in memory (libdwfl owns fd). */
		if (strcmp(d->loaded_from, "[vdso]") == 0 &&
		    (fd = vdso_fd(sy)) < 0)
			continue;
		if (dwfl_report_elf(ps->dwfl, d->base, d->loaded_from, fd,
				    want[i].bias, true)) {
			GROW(ps->rep, ps->caprep, ps->nrep + 1);
			ps->rep[ps->nrep++] = want[i];
		}
	}
	dwfl_report_end(ps->dwfl, NULL, NULL);
	free(want);
	ps->stale = false;
	return ps->nrep ? ps->dwfl : NULL;
}

void sym_proc_release(struct symbolizer *sy, void *state)
{
	struct proc_state *ps = state;

	(void)sy;
	if (!ps)
		return;
	if (ps->dwfl)
		dwfl_end(ps->dwfl);
	free(ps->rep);
	free(ps);
}

void sym_proc_maps_changed(struct symbolizer *sy, struct pe_proc *pr)
{
	struct proc_state *ps = *pe_proc_sym_slot(pr);

	(void)sy;
	if (ps)
		ps->stale = true;
}

/* ---- Statistics -------------------------------------------------------------- */

void sym_count_miss(struct symbolizer *sy, enum sym_miss why)
{
	if ((unsigned)why < SYM_MISS_COUNT)
		sy->misses[why]++;
}

uint64_t sym_misses(const struct symbolizer *sy, enum sym_miss why)
{
	return (unsigned)why < SYM_MISS_COUNT ? sy->misses[why] : 0;
}

void sym_report(const struct symbolizer *sy, struct diag *d)
{
	static const char *const what[SYM_MISS_COUNT] = {
		[SYM_MISS_NO_FILE] = "in files missing on this machine",
		[SYM_MISS_BUILD_ID] = "in files that differ from the profiled "
				      "ones (build-id mismatch)",
		[SYM_MISS_NOT_ELF] = "in files that are not readable ELF",
		[SYM_MISS_STRIPPED] = "in stripped files (no symbol table; "
				      "install debug symbols)",
		[SYM_MISS_KERNEL] = "in the kernel",
		[SYM_MISS_JIT] = "in JIT code without a /tmp/perf-PID.map entry",
	};

	for (int i = 0; i < SYM_MISS_COUNT; i++) {
		if (!what[i] || !sy->misses[i])
			continue;
		if (i == SYM_MISS_NO_FILE && sy->o.root)
			diag_warn(d, "%llu frames unresolved in files missing "
				  "under --symfs %s (%s)",
				  (unsigned long long)sy->misses[i], sy->o.root,
				  sy->miss_file[i] ? sy->miss_file[i] : "?");
		else if (sy->miss_file[i])
			diag_warn(d, "%llu frames unresolved %s (%s)",
				  (unsigned long long)sy->misses[i], what[i],
				  sy->miss_file[i]);
		else
			diag_warn(d, "%llu frames unresolved %s",
				  (unsigned long long)sy->misses[i], what[i]);
	}
}
