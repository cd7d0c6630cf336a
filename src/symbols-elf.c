/*
 * symbols-elf.c - a dso's ELF file: found (perf's build-id cache, --symfs,
 * the recorded path, this process's vdso), checked against the recorded
 * build-id, and its function symbols copied into one table sorted by
 * address, demangled on first use; lookups by file offset.
 *
 * libdwfl opens the ELF (and finds its separate debug file); the PT_LOAD
 * segments are kept to turn file offsets into virtual addresses.  Then the
 * Dwfl is closed: the table is all a lookup needs, and many files would
 * stay open otherwise.
 *
 * Several symbols often share an address (aliases); one is kept, with
 * perf's preferences: a sized symbol over an empty one, global over weak
 * over local, fewer leading underscores, then the longer name.  Before
 * those, a name of a hidden symbol version loses: libc's free is also
 * "cfree@GLIBC_2.2.5" (a .symtab name; in .dynsym, "cfree" with the hidden
 * bit in .gnu.version), which only programs linked long ago call, and
 * perf's rules alone would pick it (the longer name).
 *
 * A symbol of size 0 reaches to the next symbol, unless it lies inside a
 * sized one: a label in a function's code (V8's
 * construct_stub_create_deopt_addr in Builtins_JSConstructStubGeneric)
 * names no code of its own, and the function keeps its addresses.
 */
#include "symbols.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elfutils/libdw.h>

#include "symbols-priv.h"
#include "util.h"

static char *debuginfo_path;

/* Whether PATH names a file. */
static bool exists(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0;
}

/*
 * Whether a file named by .gnu_debuglink (else FILE.debug) is in one of
 * the places libdw's search looks for it with the default debuginfo_path:
 * beside the file, in .debug beside it, and under /usr/lib/debug (by the
 * file's directory, or alone); for the file as named and as resolved.
 */
static bool debuglink_found(const char *file_name, const char *link)
{
	char *real = realpath(file_name, NULL);
	const char *names[2] = { file_name, real };
	bool found = false;

	for (size_t i = 0; i < 2 && !found && names[i]; i++) {
		const char *slash = strrchr(names[i], '/');
		int dl = slash ? (int)(slash - names[i]) : 0;
		char *l = link ? xstrdup(link)
			       : xasprintf("%s.debug", slash ? slash + 1
							     : names[i]);
		char *c[4] = {
			xasprintf("%.*s/%s", dl, names[i], l),
			xasprintf("%.*s/.debug/%s", dl, names[i], l),
			xasprintf("/usr/lib/debug%.*s/%s", dl, names[i], l),
			xasprintf("/usr/lib/debug/%s", l),
		};

		for (size_t k = 0; k < 4; k++) {
			found = found || exists(c[k]);
			free(c[k]);
		}
		free(l);
	}
	free(real);
	return found;
}

/*
 * libdw's standard search for a separate debug file ends by asking the
 * debuginfod servers of DEBUGINFOD_URLS.  Reaching that step loads
 * libdebuginfod and its thirty-odd libraries (curl, gnutls, ...) even
 * when no server is set (elfutils 0.188): 10-15 ms, a tenth of loading a
 * system-wide perf.data, spent for every stripped program without a
 * debug file.  Without servers (flametop's default; --debuginfod keeps
 * them), the standard search runs only when there is something for it to
 * find on this machine: a file by build-id, or one by .gnu_debuglink.
 */
int sym_find_debuginfo(Dwfl_Module *mod, void **userdata,
		       const char *modname, Dwarf_Addr base,
		       const char *file_name, const char *debuglink_file,
		       GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	int fd;

	if (urls && *urls)
		return dwfl_standard_find_debuginfo(mod, userdata, modname,
						    base, file_name,
						    debuglink_file,
						    debuglink_crc,
						    debuginfo_file_name);
	fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base,
					  file_name, debuglink_file,
					  debuglink_crc, debuginfo_file_name);
	if (fd >= 0)
		return fd;
	if (file_name && !debuglink_found(file_name, debuglink_file)) {
		errno = 0;
		return -1;
	}
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base,
					    file_name, debuglink_file,
					    debuglink_crc, debuginfo_file_name);
}

const Dwfl_Callbacks sym_dwfl_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = sym_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

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
	if (a->old_version != b->old_version)
		return !a->old_version;
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

/*
 * *sp[0..n) by start, symbols at one address in table order (a radix sort
 * of (start, index) pairs, then the symbols moved once: a comparison sort
 * of a large program's table was most of its loading).  *sp becomes the
 * sorted copy.
 */
static void sort_table(struct fsym **sp, size_t n)
{
	struct fsym *s = *sp, *out;
	struct keyed *k;

	if (n > UINT32_MAX)
		fatal("symbol table of %zu entries", n);
	k = xmalloc((n ? n : 1) * sizeof(*k));
	for (size_t i = 0; i < n; i++) {
		k[i].key = s[i].start;
		k[i].id = (uint32_t)i;
	}
	k = keyed_sort(k, n);
	out = xmalloc((n ? n : 1) * sizeof(*out));
	for (size_t i = 0; i < n; i++)
		out[i] = s[k[i].id];
	free(k);
	free(s);
	*sp = out;
}

/*
 * Sort, keep one symbol per address, drop empty symbols inside sized ones,
 * extend the other empty symbols.
 */
static size_t finish_table(struct fsym **sp, size_t n)
{
	struct fsym *s;
	size_t o = 0, k = 0;
	uint64_t covered = 0;     /* the end of the sized symbols so far */

	sort_table(sp, n);
	s = *sp;
	for (size_t i = 0; i < n; i++) {
		if (o && s[o - 1].start == s[i].start) {
			if (better(&s[i], &s[o - 1]))
				s[o - 1] = s[i];
			continue;
		}
		s[o++] = s[i];
	}
	for (size_t i = 0; i < o; i++) {
		if (s[i].end == s[i].start && s[i].start < covered)
			continue;
		if (s[i].end > covered)
			covered = s[i].end;
		s[k++] = s[i];
	}
	o = k;
	for (size_t i = 0; i < o; i++)
		if (s[i].end == s[i].start)
			s[i].end = i + 1 < o ? s[i + 1].start : s[i].start + 1;
	return o;
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

const char *sym_dso_build_id(struct symbolizer *sy, struct sym_dso *d,
			     size_t *len)
{
	size_t n;
	const uint8_t *b;

	if (!d->bid_hex_done) {
		b = want_bid(sy, d, &n);
		if (!b) {
			b = d->elf_bid;
			n = d->elf_bid_len;
		}
		sym_bid_hex(d->bid_hex, b, n);
		/* The ELF note is known once the file was read. */
		d->bid_hex_done = b != d->elf_bid || d->state != 0;
	}
	*len = strlen(d->bid_hex);
	return d->bid_hex;
}

/* An fd holding this process's own vdso (same ABI as what we profile). */
int sym_vdso_fd(struct symbolizer *sy)
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

/*
 * fd of path when it is a regular file, else -1 (*other set when the path
 * names something else: a directory, a device, a FIFO).  Opened without
 * blocking: a recorded path may since have become a FIFO that nobody
 * writes to, and opening that to read would wait for ever.
 */
static int open_regular(const char *path, bool *other)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	*other = false;
	if (fd >= 0 && (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode))) {
		close(fd);
		fd = -1;
		*other = true;
	}
	return fd;
}

/* Open the file that holds d's code: fd, or -1 with d->fail set. */
static int open_dso(struct symbolizer *sy, struct sym_dso *d, char **from)
{
	char *p;
	int fd;
	bool other;

	if (strcmp(d->path, "[vdso]") == 0) {
		/*
		 * Under --symfs the recording comes from another machine:
		 * this process's vdso is this kernel's, not that one's.
		 */
		fd = sy->o.root ? -1 : sym_vdso_fd(sy);
		if (fd < 0)
			d->fail = SYM_MISS_NO_FILE;
		else
			*from = xstrdup("[vdso]");
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
	fd = open_regular(p, &other);
	if (fd < 0) {
		free(p);
		d->fail = other ? SYM_MISS_NOT_ELF : SYM_MISS_NO_FILE;
		return -1;
	}
	*from = p;
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
	bool other;

	if (len == 0)
		return -1;
	if (sy->o.root)
		dir = xasprintf("%s/.build-id", sy->o.root);
	else if (home)
		dir = xasprintf("%s/.debug/.build-id", home);
	else
		return -1;
	sym_bid_hex(hex, bid, len);
	/* The cache's link names a directory holding "elf" (or "vdso"). */
	for (size_t i = sy->o.root ? 0 : 1; i < ARRAY_SIZE(leaf) && fd < 0;
	     i++) {
		char *p = xasprintf("%s/%.2s/%s%s", dir, hex, hex + 2, leaf[i]);

		fd = open_regular(p, &other);
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
		(*syms)[*n].old_version = false;
		(*n)++;
		at += ent;
	}
}

/*
 * The .dynsym symbols of hidden versions (the hidden bit of their
 * .gnu.version entry), by address: .dynsym names carry no "@VERSION".
 * The names stay the ELF's.
 */
struct old_versions {
	struct old_version {
		uint64_t addr;            /* first: sym_count_starting_by */
		const char *name;
	} *v;
	size_t n, cap;
};

#define VERSYM_HIDDEN_BIT 0x8000u

static int cmp_old_version(const void *a, const void *b)
{
	const struct old_version *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void old_versions_read(Elf *elf, struct old_versions *o)
{
	Elf_Scn *scn = NULL, *dynscn = NULL, *verscn = NULL;
	GElf_Shdr dynsh = { 0 };
	Elf_Data *dsym, *ver;

	while (elf && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_DYNSYM) {
			dynscn = scn;
			dynsh = sh;
		} else if (sh.sh_type == SHT_GNU_versym) {
			verscn = scn;
		}
	}
	if (!dynscn || !verscn || dynsh.sh_entsize == 0)
		return;
	dsym = elf_getdata(dynscn, NULL);
	ver = elf_getdata(verscn, NULL);
	if (!dsym || !ver)
		return;
	for (size_t i = 1; i < dynsh.sh_size / dynsh.sh_entsize; i++) {
		GElf_Sym sym;
		GElf_Versym vs;
		const char *nm;

		if (!gelf_getsym(dsym, (int)i, &sym) ||
		    !gelf_getversym(ver, (int)i, &vs))
			break;
		/* Indexes 0 and 1 are "local" and "global": no version. */
		if (!(vs & VERSYM_HIDDEN_BIT) || (vs & 0x7fffu) < 2 ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		nm = elf_strptr(elf, dynsh.sh_link, sym.st_name);
		if (!nm)
			continue;
		GROW(o->v, o->cap, o->n + 1);
		o->v[o->n].addr = sym.st_value;
		o->v[o->n++].name = nm;
	}
	if (o->n)       /* qsort(NULL, 0, ...) is undefined */
		qsort(o->v, o->n, sizeof(*o->v), cmp_old_version);
}

/* Whether .dynsym holds name at addr as a hidden version. */
static bool is_old_version(const struct old_versions *o, uint64_t addr,
			   const char *name)
{
	size_t i = sym_count_starting_by(o->v, o->n, sizeof(*o->v), addr);

	for (; i > 0 && o->v[i - 1].addr == addr; i--)
		if (strcmp(o->v[i - 1].name, name) == 0)
			return true;
	return false;
}

/* See symbols-priv.h. */
Dwfl_Module *sym_report_alone(Dwfl **dwfl, const char *name,
				 const char *path, int fd)
{
	Dwfl_Module *mod;

	*dwfl = dwfl_begin(&sym_dwfl_callbacks);
	if (!*dwfl) {
		close(fd);
		return NULL;
	}
	dwfl_report_begin(*dwfl);
	mod = dwfl_report_elf(*dwfl, name, path, fd, 0, false);
	dwfl_report_end(*dwfl, NULL, NULL);
	if (!mod) {
		dwfl_end(*dwfl);
		*dwfl = NULL;
	}
	return mod;
}

void sym_dso_load(struct symbolizer *sy, struct sym_dso *d)
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
	struct old_versions old = { 0 };

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
	mod = sym_report_alone(&dwfl, d->base, from, fd);
	if (!mod) {
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
			mod = sym_report_alone(&dwfl, d->base, from, afd);
			if (!mod) {
				free(from);
				d->fail = SYM_MISS_NOT_ELF;
				return;
			}
		}
	}
	{
		const unsigned char *bits;
		GElf_Addr bv;
		int n = dwfl_module_build_id(mod, &bits, &bv);

		if (n > 0) {
			d->elf_bid_len = (size_t)n > 20 ? 20 : (size_t)n;
			memcpy(d->elf_bid, bits, d->elf_bid_len);
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
	old_versions_read(elf, &old);
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
		/*
		 * "memcpy@@GLIBC_2.14": the version goes.  One '@' is a
		 * hidden version, as is a .dynsym name that .gnu.version
		 * marks hidden.
		 */
		at = strchr(nm, '@');
		f->len = (uint32_t)(at && at != nm ? (size_t)(at - nm)
						   : strlen(nm));
		f->name = nm;           /* Dwfl's until copied below */
		f->start = addr - bias;
		f->end = f->start + sym.st_size;
		f->bind = GELF_ST_BIND(sym.st_info);
		f->old_version = at ? at != nm && at[1] != '@'
				    : is_old_version(&old, f->start, nm);
	}
	free(old.v);
	add_plt(elf, &syms, &cap, &symcap, &plt, &nplt, &pltcap);
	if (cap) {
		char *w;

		d->nsyms = finish_table(&syms, cap);
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
		sym_index_build(&d->ix, d->syms, d->nsyms, sizeof(*d->syms));
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

bool sym_dso_open(struct symbolizer *sy, struct sym_dso *d,
		  enum sym_miss *why)
{
	if (d->state == 0)
		sym_dso_load(sy, d);
	if (d->state > 0)
		return true;
	*why = d->fail;
	return false;
}

/* The symbol covering ELF address a of a loaded d, demangled, or NULL. */
static const struct fsym *symbol_at(struct symbolizer *sy, struct sym_dso *d,
				    uint64_t a, enum sym_miss *why)
{
	size_t lo = sym_index_count(&d->ix, d->syms, d->nsyms,
				    sizeof(*d->syms), a);

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
		return f;
	}
	*why = d->nsyms ? SYM_MISS_NO_SYMBOL : SYM_MISS_STRIPPED;
	return NULL;
}

const char *sym_dso_lookup(struct symbolizer *sy, struct sym_dso *d,
			   uint64_t file_off, uint64_t *vaddr,
			   enum sym_miss *why)
{
	const struct fsym *f;

	if (!sym_dso_open(sy, d, why)) {
		*vaddr = file_off;
	} else {
		*vaddr = dso_vaddr(d, file_off);
		f = symbol_at(sy, d, *vaddr, why);
		if (f)
			return f->name;
	}
	if (!sy->miss_file[*why])
		sy->miss_file[*why] = d->path;
	return NULL;
}

const char *sym_dso_symbol(struct symbolizer *sy, struct sym_dso *d,
			   uint64_t vaddr, uint64_t *start, uint64_t *end,
			   enum sym_miss *why)
{
	const struct fsym *f;

	if (!sym_dso_open(sy, d, why) ||
	    (f = symbol_at(sy, d, vaddr, why)) == NULL)
		return NULL;
	*start = f->start;
	*end = f->end;
	return f->name;
}

bool sym_dso_func_range(struct symbolizer *sy, struct sym_dso *d,
			uint64_t vaddr, uint64_t *start, uint64_t *end)
{
	enum sym_miss why;

	return sym_dso_symbol(sy, d, vaddr, start, end, &why) != NULL;
}

const char *sym_dso_func_at(struct symbolizer *sy, struct sym_dso *d,
			    uint64_t vaddr, uint64_t *start, uint64_t *end)
{
	enum sym_miss why;

	return sym_dso_symbol(sy, d, vaddr, start, end, &why);
}

const char *sym_dso_file(const struct sym_dso *d)
{
	return d->loaded_from;
}

const uint8_t *sym_dso_build_id_bytes(const struct sym_dso *d, size_t *len)
{
	*len = d->bid_len;
	return d->bid_len ? d->bid : NULL;
}
