/*
 * annotate.c - a function's weights by source line (annotate.h).
 *
 * Lines are gathered in a small open-addressing table keyed by (file,
 * line), then sorted.  Files are few (the function's own, and the headers
 * it inlined code from): a linear search by path finds them.
 */
#include "annotate.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"
#include "profile-addr.h"
#include "profile.h"
#include "symbols.h"
#include "util.h"

#define ANN_MAX_SOURCE (64u << 20)
#define ANN_CHAIN 64

/* ---- Finding functions -------------------------------------------------- */

long ann_find(const struct paddr *a, const char *name, uint32_t **ids,
	      char *err, size_t errcap)
{
	size_t n = paddr_func_count(a), k = 0;
	uint32_t *out = xmalloc((n ? n : 1) * sizeof(*out));
	pcre2_code *re;
	pcre2_match_data *md;
	int ec;
	PCRE2_SIZE off;

	for (uint32_t i = 0; i < n; i++)
		if (strcmp(paddr_func_get(a, i)->name, name) == 0)
			out[k++] = i;
	if (k) {
		*ids = out;
		return (long)k;
	}
	re = pcre2_compile((PCRE2_SPTR)name, PCRE2_ZERO_TERMINATED, PCRE2_UTF,
			   &ec, &off, NULL);
	if (!re) {
		PCRE2_UCHAR msg[200];

		pcre2_get_error_message(ec, msg, sizeof(msg));
		snprintf(err, errcap, "bad pattern '%s' at offset %zu: %s",
			 name, (size_t)off, (const char *)msg);
		free(out);
		*ids = NULL;
		return -1;
	}
	md = pcre2_match_data_create_from_pattern(re, NULL);
	for (uint32_t i = 0; i < n; i++) {
		const char *s = paddr_func_get(a, i)->name;

		if (pcre2_match(re, (PCRE2_SPTR)s, strlen(s), 0, 0, md, NULL) >=
		    0)
			out[k++] = i;
	}
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	*ids = out;
	return (long)k;
}

/* ---- Building ----------------------------------------------------------- */

struct builder {
	struct annotation *an;
	const struct ann_opts *o;
	uint32_t *slots;           /* line index + 1; 0: empty */
	size_t mask;
	size_t caplines, capfiles;
};

static uint32_t file_index(struct builder *b, const char *path)
{
	struct annotation *an = b->an;

	for (size_t i = 0; i < an->nfiles; i++)
		if (strcmp(an->files[i].path, path) == 0)
			return (uint32_t)i;
	GROW(an->files, b->capfiles, an->nfiles + 1);
	memset(&an->files[an->nfiles], 0, sizeof(an->files[0]));
	an->files[an->nfiles].path = xstrdup(path);
	return (uint32_t)an->nfiles++;
}

static size_t line_hash(uint32_t file, unsigned line)
{
	uint64_t h = ((uint64_t)file << 32 | line) * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 17);
}

static struct ann_line *line_get(struct builder *b, uint32_t file,
				 unsigned line)
{
	struct annotation *an = b->an;
	size_t i;

	if ((an->nlines + 1) * 2 > b->mask) {
		free(b->slots);
		b->mask = b->mask * 2 + 1;
		b->slots = xcalloc(b->mask + 1, sizeof(*b->slots));
		for (size_t k = 0; k < an->nlines; k++) {
			i = line_hash(an->lines[k].file, an->lines[k].line) &
			    b->mask;
			while (b->slots[i])
				i = (i + 1) & b->mask;
			b->slots[i] = (uint32_t)k + 1;
		}
	}
	for (i = line_hash(file, line) & b->mask;; i = (i + 1) & b->mask) {
		uint32_t k = b->slots[i];

		if (!k)
			break;
		if (an->lines[k - 1].file == file &&
		    an->lines[k - 1].line == line)
			return &an->lines[k - 1];
	}
	GROW(an->lines, b->caplines, an->nlines + 1);
	memset(&an->lines[an->nlines], 0, sizeof(an->lines[0]));
	an->lines[an->nlines].file = file;
	an->lines[an->nlines].line = line;
	b->slots[i] = (uint32_t)++an->nlines;
	return &an->lines[an->nlines - 1];
}

/*
 * Weight at a chain of lines (innermost first): self at the first only,
 * total at each distinct line of the chain.
 */
static void add_chain(struct builder *b, const struct sym_srcline *ln,
		      size_t n, uint64_t self, uint64_t total)
{
	struct ann_line *seen[ANN_CHAIN];
	size_t ns = 0;

	for (size_t i = 0; i < n && i < ANN_CHAIN; i++) {
		const char *path = ln[i].path ? ln[i].path : ln[i].file;
		struct ann_line *l = line_get(b, file_index(b, path),
					      ln[i].line);
		bool dup = false;

		for (size_t k = 0; k < ns; k++)
			dup |= seen[k] == l;
		if (i == 0)
			l->self += self;
		if (!dup)
			l->total += total;
		seen[ns++] = l;
	}
}

/* The lines the line table gives code of in [start, end): listed even
 * where no sample fell. */
static void table_lines(struct builder *b, Dwfl_Module *mod, uint64_t start,
			uint64_t end)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu;
	Dwarf_Lines *lines;
	size_t n;

	if (!mod || !dwfl_module_getelf(mod, &bias))
		return;
	cu = dwfl_module_addrdie(mod, start + bias, &bias);
	if (!cu) {
		cu = NULL;
		while ((cu = dwfl_module_nextcu(mod, cu, &bias)) != NULL)
			if (dwarf_haspc(cu, start) > 0)
				break;
	}
	if (!cu || dwarf_getsrclines(cu, &lines, &n) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		int no;
		const char *f;
		char whole[4096];

		if (!l || dwarf_lineaddr(l, &a) != 0 || a < start || a >= end ||
		    dwarf_lineno(l, &no) != 0 || no <= 0 ||
		    !(f = dwarf_linesrc(l, NULL, NULL)))
			continue;
		f = sym_cu_path(cu, f, whole, sizeof(whole));
		line_get(b, file_index(b, f), (unsigned)no)->in_table = true;
	}
}

/* Whether the file d was read from carries the build-id recorded. */
static bool build_id_differs(const struct paddr_func *f, Dwfl_Module *mod)
{
	const unsigned char *bits;
	GElf_Addr at;
	int n;

	if (!f->build_id || !f->build_id_len || !mod)
		return false;
	n = dwfl_module_build_id(mod, &bits, &at);
	if (n <= 0)
		return false;
	return (size_t)n != f->build_id_len ||
	       memcmp(bits, f->build_id, (size_t)n) != 0;
}

static void from_dwarf(struct builder *b, const struct paddr_func *f)
{
	struct annotation *an = b->an;
	struct symbolizer *sy = f->sym;
	struct sym_dso *d = f->dso;
	Dwfl_Module *mod = sym_dso_dwfl(sy, d);
	struct sym_srcline ln[ANN_CHAIN];

	if (build_id_differs(f, mod)) {
		an->refused = true;
		snprintf(an->why, sizeof(an->why),
			 "%s: its build-id differs from the recording's (the "
			 "binary changed since): not annotated",
			 sym_dso_file(d));
		return;
	}
	for (size_t i = 0; i < an->nrows; i++) {
		const struct paddr_row *r = &an->rows[i];
		uint64_t calls = r->total - r->self;
		size_t n;

		/* Out of the live window: its line listed, weightless. */
		if (!r->total) {
			n = sym_dso_lines(sy, d, r->leaf || !r->addr ? r->addr :
					  r->addr - 1, ln, ANN_CHAIN);
			add_chain(b, ln, n, 0, 0);
		}
		if (r->self) {
			n = sym_dso_lines(sy, d, r->addr, ln, ANN_CHAIN);
			if (n)
				add_chain(b, ln, n, r->self, r->self);
			else
				an->unplaced += r->self;
		}
		if (calls) {
			n = r->addr ? sym_dso_lines(sy, d, r->addr - 1, ln,
						    ANN_CHAIN) : 0;
			if (n)
				add_chain(b, ln, n, 0, calls);
			else
				an->unplaced += calls;
		}
	}
	if (an->nlines && f->end > f->start)
		table_lines(b, mod, f->start, f->end);
	an->has_lines = an->nlines > 0;
	if (!an->has_lines)
		snprintf(an->why, sizeof(an->why),
			 "%s has no source lines for %s (no DWARF line table: "
			 "build with -g)", sym_dso_file(d) ? sym_dso_file(d)
							   : an->module,
			 an->name);
}

struct symbolizer *ann_file_dso(const struct paddr_func *f,
				const struct ann_opts *o, struct sym_dso **d)
{
	struct sym_opts so;
	struct symbolizer *sy;
	struct sym_file_id id = { .build_id = f->build_id,
				  .build_id_len = f->build_id_len };

	sym_default_opts(&so);
	if (o && o->symfs)
		so.root = o->symfs;
	sy = sym_create(&so);
	*d = sym_dso_get(sy, f->module, strlen(f->module),
			 f->build_id ? &id : NULL);
	return sy;
}

/*
 * A function whose input named its file and ELF addresses but read no
 * binary (perf script): the file is opened here, and its symbol at the
 * function's addresses must carry the function's name, else the binary is
 * not the one recorded.
 */
static void from_file(struct builder *b, const struct paddr_func *f)
{
	struct annotation *an = b->an;
	struct symbolizer *sy;
	struct sym_dso *d;
	struct paddr_func g = *f;
	const char *at = NULL;
	uint64_t addr = an->nrows ? an->rows[0].addr : 0;

	sy = ann_file_dso(f, b->o, &d);
	/* A self row's address is in the function; a return address may
	 * be just past it. */
	for (size_t i = 0; i < an->nrows; i++)
		if (an->rows[i].self) {
			addr = an->rows[i].addr;
			break;
		}
	if (d)
		at = sym_dso_func_at(sy, d, addr, &g.start, &g.end);
	if (at) {
		char *dm = sym_demangle(at);
		const char *shown = dm ? dm : at;
		size_t k = strlen(f->name);

		/* The frame's name is the symbol's, its parameters cut. */
		if (strncmp(shown, f->name, k) != 0 ||
		    (shown[k] && shown[k] != '(' && shown[k] != '@')) {
			an->refused = true;
			snprintf(an->why, sizeof(an->why),
				 "%s: the symbol at %#llx is not %s (the binary "
				 "changed since the recording): not annotated",
				 f->module, (unsigned long long)addr, f->name);
		}
		free(dm);
	} else {
		an->refused = true;
		snprintf(an->why, sizeof(an->why), "%s: %s: not annotated",
			 f->module, d && sym_dso_file(d)
			 ? "no symbol at the function's addresses"
			 : "cannot be read");
	}
	if (!an->refused) {
		g.dso = d;
		g.sym = sy;
		from_dwarf(b, &g);
	}
	sym_destroy(sy);
}

/* Lines the input gave (pprof): self and calls both at the frame's line. */
static void from_input(struct builder *b, const struct paddr *a)
{
	struct annotation *an = b->an;

	for (size_t i = 0; i < an->nrows; i++) {
		const struct paddr_row *r = &an->rows[i];
		struct sym_srcline ln = { NULL, 0, NULL };

		if (paddr_line(a, an->func, r->addr, &ln.path, &ln.line))
			add_chain(b, &ln, 1, r->self, r->total);
		else
			an->unplaced += r->total;
	}
	an->has_lines = an->nlines > 0;
	if (!an->has_lines)
		snprintf(an->why, sizeof(an->why),
			 "%s: the profile gives no source lines for it",
			 an->name);
}

/* ---- Sources ------------------------------------------------------------ */

static char *read_text(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!fp)
		return NULL;
	for (;;) {
		size_t got;

		if (n + 65536 + 1 > cap)
			GROW(buf, cap, n + 65536 + 1);
		got = fread(buf + n, 1, cap - n - 1, fp);
		n += got;
		if (got == 0 || n > ANN_MAX_SOURCE)
			break;
	}
	fclose(fp);
	buf[n] = 0;
	*len = n;
	return buf;
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * Where the source of path is: under each --source-path DIR (the path
 * itself below DIR, then ever shorter tails of it), then the path after
 * the first --prefix-map that applies (only there: the tree moved), else
 * the path itself.  malloc'ed, or NULL.
 */
static char *find_source(const char *path, const struct ann_opts *o)
{
	for (size_t i = 0; o && i < o->nsource_paths; i++) {
		const char *tail = path;

		while (*tail == '/')
			tail++;
		while (tail && *tail) {
			char *c = xasprintf("%s/%s", o->source_paths[i], tail);

			if (is_file(c))
				return c;
			free(c);
			tail = strchr(tail, '/');
			if (tail)
				tail++;
		}
	}
	for (size_t i = 0; o && i < o->nprefix_maps; i++) {
		const char *m = o->prefix_maps[i], *eq = strchr(m, '=');
		size_t ol = eq ? (size_t)(eq - m) : 0;

		if (eq && ol && strncmp(path, m, ol) == 0) {
			char *c = xasprintf("%s%s", eq + 1, path + ol);

			if (is_file(c))
				return c;
			/* The tree moved: not the path recorded. */
			free(c);
			return NULL;
		}
	}
	return is_file(path) ? xstrdup(path) : NULL;
}

static void load_source(struct ann_file *f, const struct ann_opts *o,
			struct diag *d, const char *func)
{
	size_t len = 0, cap = 0;
	char *s;

	f->found = find_source(f->path, o);
	if (!f->found || !(f->text = read_text(f->found, &len))) {
		diag_warn(d, "%s: source not found (--source-path DIR or "
			  "--prefix-map OLD=NEW find moved trees): %s's lines "
			  "shown without text", f->path, func);
		return;
	}
	s = f->text;
	while (s < f->text + len) {
		char *nl = memchr(s, '\n', (size_t)(f->text + len - s));

		GROW(f->line_at, cap, f->nlines + 1);
		f->line_at[f->nlines++] = s;
		if (!nl)
			break;
		s = nl + 1;
	}
	if (f->max_line > f->nlines)
		diag_warn(d, "%s: %zu lines, but the line table of %s goes to "
			  "line %u: the source is not the one built",
			  f->found, f->nlines, func, f->max_line);
}

const char *ann_text(const struct annotation *an, const struct ann_line *l,
		     size_t *len)
{
	const struct ann_file *f = &an->files[l->file];
	const char *s, *end;

	if (!f->text || l->line == 0 || l->line > f->nlines)
		return NULL;
	s = f->line_at[l->line - 1];
	end = strchr(s, '\n');
	*len = end ? (size_t)(end - s) : strlen(s);
	if (*len && s[*len - 1] == '\r')
		(*len)--;
	return s;
}

/* ---- The annotation ----------------------------------------------------- */

static int line_cmp(const void *x, const void *y)
{
	const struct ann_line *a = x, *b = y;

	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

/*
 * The function's own file first: the file of the line its weight is
 * mostly in, of those the line table lists at the function's start.
 */
static void own_file_first(struct annotation *an)
{
	uint64_t *w = xcalloc(an->nfiles, sizeof(*w));
	uint32_t best = 0, *map = xmalloc(an->nfiles * sizeof(*map));
	struct ann_file t;

	for (size_t i = 0; i < an->nlines; i++)
		w[an->lines[i].file] += an->lines[i].total + 1;
	for (uint32_t i = 1; i < an->nfiles; i++)
		if (w[i] > w[best])
			best = i;
	t = an->files[best];
	memmove(&an->files[1], &an->files[0], best * sizeof(t));
	an->files[0] = t;
	for (uint32_t i = 0; i < an->nfiles; i++)
		map[i] = i == best ? 0 : i < best ? i + 1 : i;
	for (size_t i = 0; i < an->nlines; i++)
		an->lines[i].file = map[an->lines[i].file];
	free(map);
	free(w);
}

struct annotation *ann_build(struct profile *p, uint32_t id,
			     const struct ann_opts *o, struct diag *d)
{
	struct paddr *a = profile_paddr(p, false);
	const struct paddr_func *f = paddr_func_get(a, id);
	struct annotation *an = xcalloc(1, sizeof(*an));
	struct builder b = { an, o, NULL, 0, 0, 0 };

	an->func = id;
	an->name = f->name;
	an->module = f->module;
	/* Shares of what the tables hold: the live window where the tree
	 * shows one (profile-addr.h), else all time (a --time range of a
	 * saved profile does not apply). */
	an->grand = paddr_total(a);
	if (!an->grand)
		an->grand = profile_total(p, NODE_ROOT);
	an->nrows = paddr_rows(a, id, &an->rows, &an->self, &an->total);
	b.mask = 255;
	b.slots = xcalloc(b.mask + 1, sizeof(*b.slots));
	if (f->input_lines)
		from_input(&b, a);
	else if (f->dso && f->sym && f->elf_vaddr)
		from_dwarf(&b, f);
	else if (f->elf_vaddr && f->module[0] == '/')
		from_file(&b, f);
	else if (f->jit)
		snprintf(an->why, sizeof(an->why), "JIT-compiled code, "
			 "named by %s, which gives no source lines for it",
			 *an->module ? an->module : "the runtime");
	else
		snprintf(an->why, sizeof(an->why),
			 "%s: no binary to read source lines from (the input "
			 "gives addresses only)", *an->module ? an->module
							     : an->name);
	free(b.slots);
	if (an->refused || !an->has_lines)
		return an;
	own_file_first(an);
	qsort(an->lines, an->nlines, sizeof(*an->lines), line_cmp);
	for (size_t i = 0; i < an->nlines; i++) {
		struct ann_file *af = &an->files[an->lines[i].file];

		if (an->lines[i].line > af->max_line)
			af->max_line = an->lines[i].line;
	}
	for (size_t i = 0; i < an->nfiles; i++)
		load_source(&an->files[i], o, d, an->name);
	return an;
}

void ann_free(struct annotation *an)
{
	if (!an)
		return;
	for (size_t i = 0; i < an->nfiles; i++) {
		free(an->files[i].path);
		free(an->files[i].found);
		free(an->files[i].text);
		free(an->files[i].line_at);
	}
	free(an->files);
	free(an->lines);
	free(an->rows);
	free(an);
}
