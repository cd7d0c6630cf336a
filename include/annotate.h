/*
 * annotate.h - a function's weights by source line (--annotate).
 *
 * From the address tables (profile-addr.h): each row's self weight goes to
 * the source line of its address, its calls' weight (total − self) to the
 * line of the call, the byte before the return address.  Lines come from
 * the DWARF of the file the symbolizer read (libdw, through the same Dwfl
 * that --lines uses), or from the input itself where it carries them
 * (pprof locations).  Code inlined at an address counts at its own line
 * (self and total) and at the line of each call site it was inlined from,
 * out to the function's own line (total only), so the caller's listing
 * shows what its inlined calls cost.
 *
 * Source text is read from the path DWARF gives (DW_AT_comp_dir joined
 * with the file), after --prefix-map OLD=NEW rewrites and under each
 * --source-path DIR; a file that cannot be read leaves its lines without
 * text and one message.
 */
#ifndef FLAMETOP_ANNOTATE_H
#define FLAMETOP_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct profile;
struct paddr;

/* Where sources are looked for. */
struct ann_opts {
	const char **source_paths;   /* --source-path DIR, repeatable */
	size_t nsource_paths;
	const char **prefix_maps;    /* --prefix-map OLD=NEW, repeatable */
	size_t nprefix_maps;
	const char *symfs;           /* --symfs DIR: binaries the input named
	                                without reading them (perf script) */
	bool disasm;                 /* --disasm: instructions, not lines */
};

/* One source line of an annotation. */
struct ann_line {
	uint32_t file;               /* index into ann->files */
	unsigned line;               /* 1-based */
	uint64_t self, total;
	bool in_table;               /* the line table holds code of it */
};

struct ann_file {
	char *path;                  /* as DWARF names it */
	char *found;                 /* the file read, NULL: not found */
	char *text;                  /* its bytes, NUL-terminated */
	const char **line_at;        /* line k starts at line_at[k - 1] */
	size_t nlines;               /* lines the file has */
	unsigned max_line;           /* the highest line of the annotation */
};

/* A function's annotation. */
struct annotation {
	uint32_t func;               /* paddr function id */
	const char *name, *module;   /* the function's (owned by the tables) */
	uint64_t self, total;        /* the function's weights */
	uint64_t grand;              /* the tables' total (shares of it) */
	struct ann_file *files;      /* the function's own file first */
	size_t nfiles;
	struct ann_line *lines;      /* by file, then line */
	size_t nlines;
	uint64_t unplaced;           /* weight at addresses without a line */
	struct paddr_row *rows;      /* by address (for no line info) */
	size_t nrows;
	bool has_lines;              /* some address has a line */
	bool refused;                /* the binary changed: not annotated */
	char why[512];               /* no lines, or refused: why */
};

/*
 * The functions that NAME names: those called exactly NAME, else those
 * whose name the pcre2 pattern NAME matches.  Their ids (malloc'ed) in
 * *ids; returns how many, or -1 with a message in err for a bad pattern.
 */
long ann_find(const struct paddr *a, const char *name, uint32_t **ids,
	      char *err, size_t errcap);

/*
 * A symbolizer of its own (to sym_destroy) holding f's file in *d, for an
 * input that names binaries without reading them (perf script): under
 * --symfs, checked against f's build-id where the input gave one.
 */
struct paddr_func;
struct sym_dso;
struct symbolizer *ann_file_dso(const struct paddr_func *f,
				const struct ann_opts *o, struct sym_dso **d);

/* Annotate function id of p's tables; messages about sources go to d. */
struct annotation *ann_build(struct profile *p, uint32_t id,
			     const struct ann_opts *o, struct diag *d);
void ann_free(struct annotation *an);

/*
 * The source text of line (NULL: unknown), up to the end of line, in *len
 * bytes: raw, for the caller to escape.
 */
const char *ann_text(const struct annotation *an, const struct ann_line *l,
		     size_t *len);

#endif
