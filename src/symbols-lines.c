/*
 * symbols-lines.c - source lines of a dso's addresses (--lines).
 *
 * The symbol table (symbols-elf.c) closes its Dwfl once the symbols are
 * copied; lines need the DWARF itself, so a dso asked for a line opens the
 * file it was read from again, in a Dwfl of its own at bias 0, and keeps
 * it until the symbolizer goes.  libdw's file names then stay valid, and
 * the base names handed out point into them.
 *
 * An address's answer (its line, and the call sites of the functions
 * inlined there) is cached per address in an open-addressing table, so a
 * profile that hits the same addresses again and again asks libdw once
 * for each.
 */
#include "symbols.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols-priv.h"
#include "util.h"

#define LINES_MAX_DEPTH 64

/* One cached address: its lines are all[first .. first + n). */
struct line_slot {
	uint64_t addr;
	uint32_t first;
	uint16_t n;
	bool used;
};

struct sym_lines {
	Dwfl *dwfl;               /* NULL: the file has no usable DWARF */
	Dwfl_Module *mod;
	struct line_slot *slots;
	size_t nslots, mask;
	struct sym_srcline *all;
	size_t nall, capall;
	/* Relative file names made whole with their CU's DW_AT_comp_dir:
	 * libdw's name (its pointer, stable while the Dwfl lives) -> ours. */
	struct joined { const char *name; char *path; } *joined;
	size_t njoined, joinmask;
};

void sym_lines_free(struct sym_lines *l)
{
	if (!l)
		return;
	if (l->dwfl)
		dwfl_end(l->dwfl);
	free(l->slots);
	free(l->all);
	for (size_t i = 0; l->joined && i <= l->joinmask; i++)
		free(l->joined[i].path);
	free(l->joined);
	free(l);
}

int sym_addr_scopes(Dwfl_Module *mod, Dwarf_Addr a, Dwarf_Die *cu,
		    Dwarf_Addr *bias, Dwarf_Die **scopes)
{
	Dwarf_Die *c = dwfl_module_addrdie(mod, a, bias);
	Dwarf_Die inner;
	int n;

	*scopes = NULL;
	/*
	 * libdw finds the CU through .debug_aranges, which clang does not
	 * write: then try each CU's ranges (callers cache the answer).
	 */
	if (!c) {
		while ((c = dwfl_module_nextcu(mod, c, bias)) != NULL)
			if (dwarf_haspc(c, a - *bias) > 0)
				break;
	}
	if (!c)
		return -1;
	*cu = *c;
	/*
	 * dwarf_getscopes gives the concrete scopes only up to the innermost
	 * inlined subroutine: past it come the scopes of that function's
	 * abstract definition (where its variables live), so an inline
	 * nested in another inline would lose every outer level.  The
	 * concrete parents of the innermost scope hold the whole chain.
	 */
	if (dwarf_getscopes(c, a - *bias, scopes) <= 0) {
		free(*scopes);
		*scopes = NULL;
		return 0;
	}
	inner = (*scopes)[0];
	free(*scopes);
	*scopes = NULL;
	n = dwarf_getscopes_die(&inner, scopes);
	if (n <= 0) {
		free(*scopes);
		*scopes = NULL;
		return 0;
	}
	return n;
}

static const char *base_name(const char *path)
{
	const char *sl = path ? strrchr(path, '/') : NULL;

	return sl ? sl + 1 : path;
}

static struct joined *joined_slot(struct joined *t, size_t mask,
				  const char *name)
{
	size_t i = (size_t)((uintptr_t)name * 0x9e3779b97f4a7c15ULL >> 20) &
		   mask;

	while (t[i].name && t[i].name != name)
		i = (i + 1) & mask;
	return &t[i];
}

const char *sym_cu_path(Dwarf_Die *cu, const char *file, char *buf,
			size_t cap)
{
	Dwarf_Attribute at;
	const char *dir;
	int n;

	if (file[0] == '/' || !dwarf_attr(cu, DW_AT_comp_dir, &at) ||
	    !(dir = dwarf_formstring(&at)) || dir[0] != '/')
		return file;
	n = snprintf(buf, cap, "%s/%s", dir, file);
	return n > 0 && (size_t)n < cap ? buf : file;
}

/* sym_cu_path, kept for as long as l: cached by libdw's name pointer. */
static const char *whole_path(struct sym_lines *l, Dwarf_Die *cu,
			      const char *file)
{
	char buf[4096];
	const char *path = sym_cu_path(cu, file, buf, sizeof(buf));
	struct joined *e;

	if (path == file)
		return file;
	if (!l->joined || 2 * (l->njoined + 1) > l->joinmask + 1) {
		struct joined *old = l->joined;
		size_t omask = l->joinmask;

		l->joinmask = old ? 2 * omask + 1 : 63;
		l->joined = xcalloc(l->joinmask + 1, sizeof(*l->joined));
		for (size_t i = 0; old && i <= omask; i++)
			if (old[i].name)
				*joined_slot(l->joined, l->joinmask,
					     old[i].name) = old[i];
		free(old);
	}
	e = joined_slot(l->joined, l->joinmask, file);
	if (!e->name) {
		e->name = file;
		e->path = xstrdup(path);
		l->njoined++;
	}
	return e->path;
}

static void add_line(struct sym_lines *l, const char *file, unsigned line)
{
	GROW(l->all, l->capall, l->nall + 1);
	l->all[l->nall].file = base_name(file);
	l->all[l->nall].path = file;
	l->all[l->nall].line = line;
	l->nall++;
}

/* The file of an inlined call site: DW_AT_call_file in its CU's table. */
static const char *call_file(struct sym_lines *l, Dwarf_Die *scope)
{
	Dwarf_Attribute at;
	Dwarf_Word idx;
	Dwarf_Die cu;
	Dwarf_Files *files;
	size_t nfiles;
	const char *name;

	if (!dwarf_attr(scope, DW_AT_call_file, &at) ||
	    dwarf_formudata(&at, &idx) != 0)
		return NULL;
	if (!dwarf_diecu(scope, &cu, NULL, NULL) ||
	    dwarf_getsrcfiles(&cu, &files, &nfiles) != 0 || idx >= nfiles)
		return NULL;
	name = dwarf_filesrc(files, idx, NULL, NULL);
	return name ? whole_path(l, &cu, name) : NULL;
}

/* Look up the lines at ELF address vaddr into a new run of l->all. */
static void lookup(struct sym_lines *l, uint64_t vaddr,
		   struct line_slot *slot)
{
	Dwarf_Addr bias = 0, a;
	Dwarf_Die cu, *scopes = NULL;
	Dwarf_Line *ln;
	const char *file;
	int line = 0, n;

	slot->first = (uint32_t)l->nall;
	slot->n = 0;
	if (!l->mod || !dwfl_module_getelf(l->mod, &bias))
		return;
	a = vaddr + bias;
	n = sym_addr_scopes(l->mod, a, &cu, &bias, &scopes);
	if (n < 0)
		return;
	ln = dwarf_getsrc_die(&cu, a - bias);
	file = ln ? dwarf_linesrc(ln, NULL, NULL) : NULL;
	if (!file || dwarf_lineno(ln, &line) != 0 || line <= 0) {
		free(scopes);
		return;
	}
	add_line(l, whole_path(l, &cu, file), (unsigned)line);
	for (int i = 0; i < n && l->nall - slot->first < LINES_MAX_DEPTH;
	     i++) {
		Dwarf_Attribute at;
		Dwarf_Word cl;
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram)
			break;
		if (tag != DW_TAG_inlined_subroutine)
			continue;
		file = call_file(l, &scopes[i]);
		if (!dwarf_attr(&scopes[i], DW_AT_call_line, &at) ||
		    dwarf_formudata(&at, &cl) != 0 || !file || !cl)
			break;
		add_line(l, file, (unsigned)cl);
	}
	free(scopes);
	slot->n = (uint16_t)(l->nall - slot->first);
}

static struct line_slot *slot_find(struct sym_lines *l, uint64_t addr)
{
	size_t i = (size_t)(addr * 0x9e3779b97f4a7c15ULL >> 20) & l->mask;

	while (l->slots[i].used && l->slots[i].addr != addr)
		i = (i + 1) & l->mask;
	return &l->slots[i];
}

static void slots_grow(struct sym_lines *l)
{
	struct line_slot *old = l->slots;
	size_t omask = l->mask;

	l->mask = old ? omask * 2 + 1 : 255;
	l->slots = xcalloc(l->mask + 1, sizeof(*l->slots));
	for (size_t i = 0; old && i <= omask; i++)
		if (old[i].used)
			*slot_find(l, old[i].addr) = old[i];
	free(old);
}

/* d's line tables, opened on first use from the file its symbols came from. */
static struct sym_lines *lines_of(struct sym_dso *d)
{
	struct sym_lines *l = d->lines;
	int fd;

	if (l)
		return l;
	l = d->lines = xcalloc(1, sizeof(*l));
	slots_grow(l);
	if (!d->loaded_from)
		return l;
	fd = open(d->loaded_from, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		l->mod = sym_report_alone(&l->dwfl, d->base, d->loaded_from,
					  fd);
	return l;
}

size_t sym_dso_lines(struct symbolizer *sy, struct sym_dso *d,
		     uint64_t vaddr, struct sym_srcline *out, size_t cap)
{
	struct sym_lines *l;
	struct line_slot *slot;
	size_t n;

	if (d->state == 0)
		sym_dso_load(sy, d);
	if (d->state < 0)
		return 0;
	l = lines_of(d);
	slot = slot_find(l, vaddr);
	if (!slot->used) {
		slot->used = true;
		slot->addr = vaddr;
		lookup(l, vaddr, slot);
		if (++l->nslots * 2 > l->mask) {
			struct line_slot keep = *slot;

			slots_grow(l);
			slot = slot_find(l, keep.addr);
		}
	}
	n = slot->n < cap ? slot->n : cap;
	if (n)
		memcpy(out, l->all + slot->first, n * sizeof(*out));
	return n;
}

Dwfl_Module *sym_dso_dwfl(struct symbolizer *sy, struct sym_dso *d)
{
	if (d->state == 0)
		sym_dso_load(sy, d);
	if (d->state < 0)
		return NULL;
	return lines_of(d)->mod;
}
