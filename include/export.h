/*
 * export.h - front ends that print or write: folded stacks (--collapse),
 * the flame graph as text (--text) or SVG (--svg), pprof (--pprof).
 */
#ifndef FLAMETOP_EXPORT_H
#define FLAMETOP_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "profile.h"
#include "search.h"

/*
 * Print the current view as folded stacks, one line per distinct stack,
 * sorted by stack in byte order ("stack BEFORE AFTER" for differential
 * profiles).  Returns the number of lines.
 */
size_t export_collapse(FILE *out, const struct profile *p);

struct text_opts {
	unsigned width;          /* columns */
	unsigned height;         /* rows of frames, 0: all */
	bool flame;              /* root at the bottom */
	uint32_t zoom;           /* NODE_ROOT for the whole profile */
	struct search *search;   /* NULL or a search to mark */
	const char *title;       /* the input's name, or NULL */
	bool negated;            /* differential, columns swapped (diff.h) */
};

/* Print the flame graph and a summary; returns the number of frame rows. */
unsigned export_text(FILE *out, const struct profile *p,
		     const struct text_opts *o);

struct theme;

struct svg_opts {
	unsigned width;          /* pixels; 0: 1200 */
	bool flame;              /* root at the bottom */
	uint32_t zoom;           /* NODE_ROOT for the whole profile */
	const char *title;       /* the heading; NULL: "Flame Graph" */
	const char *subtitle;    /* e.g. the input's name, or NULL */
	const struct theme *theme;  /* frame colors; NULL: the default */
	bool negated;            /* differential, columns swapped (diff.h) */
};

/*
 * Write the flame graph of p (from o->zoom down) as a self-contained SVG
 * with its own JavaScript: hover details, click to zoom, search.  Frames
 * narrower than 0.1% of the width are left out.  Returns the number of
 * frames drawn.
 */
size_t export_svg(FILE *out, const struct profile *p,
		  const struct svg_opts *o);

/* What the weights of a profile measure, for --pprof's sample types. */
struct pprof_source {
	enum weight_unit unit;   /* profile_unit of the profile as read */
	const char *unit_name;   /* profile_unit_name: "page-faults", "" */
	const char *type;        /* pprof input: the sample type read, or NULL */
	const char *type_unit;   /* and its unit ("bytes") */
	/* Where the frames came from (profile_frame_locs_get of the profile
	 * read, NULL: nowhere known) and the names its keys are ids of: a
	 * view's names are looked up there by name. */
	const struct frame_locs *locs;
	const struct symtab *names;
};

/* What export_pprof wrote. */
struct pprof_stats {
	size_t samples;          /* distinct stacks */
	size_t locations;        /* distinct frame names */
	size_t mappings;         /* binaries named */
	bool counts;             /* samples/count written beside the weights */
	bool rounded;            /* fractional weights rounded to integers */
};

/*
 * Write p (not differential) as a gzip'd pprof profile.proto: one sample
 * per distinct stack, one location per distinct frame name, with the
 * binary (mapping), address, function and line src->locs knows for it
 * (else a function of that name).  The weights' type is
 * named from src; when p's timeline holds every weight, one entry per
 * sample, samples/count comes first.  Returns 0, or -1 when writing out
 * failed.
 */
int export_pprof(FILE *out, const struct profile *p,
		 const struct pprof_source *src, struct pprof_stats *st);

struct config;
struct atomic_file;

/*
 * An output file of --svg or --pprof: path written whole or not at all
 * (util.h's atomic file), "-" standard output.  NULL after saying why it
 * cannot be written.
 */
FILE *export_file_open(struct atomic_file *af, const char *path);
/*
 * Whether path can be written, before a long read or sampling run: 0, or
 * 1 after saying why not.  Nothing is left behind.
 */
int export_file_check(const char *path);
/* Into place (nothing for standard output): 0, or 1 after saying why not. */
int export_file_close(struct atomic_file *af, FILE *f, const char *path);

/*
 * --negate for a drawing (--text, --svg): when c asks for it and *shown is
 * differential, *shown becomes a copy with its columns swapped (diff_swap),
 * owned through *v (the derived profile it replaces is destroyed).
 * Returns whether it did, for the drawing's "negated".
 */
bool export_negate(const struct profile **shown, struct profile **v,
		   const struct config *c);

/*
 * The view options of c (--tag, --include, --callers, --pids, ...) as the
 * interactive view's first step (struct tui_opts), the callers or callees
 * only with focus.  What it allocates is in b, for export_tui_view_free.
 */
struct tui_opts;
struct export_tui_bufs {
	char *include, *exclude, *tasks;
};
void export_tui_view(const struct config *c, struct tui_opts *o, bool focus,
		     struct export_tui_bufs *b);
void export_tui_view_free(struct export_tui_bufs *b);

/*
 * The view the command line's view options ask for (view.h): *out is a new
 * derived profile, or NULL when no option derives one (--order alone
 * re-sorts p).  Returns 0, or the exit status after printing the error
 * (1: no stack contains the name, 2: a bad regex).
 */
int export_derive(struct profile *p, const struct config *c,
		  struct profile **out);

/*
 * --diff --normalize: apply the per-sample views of c (--comm, --pids,
 * --tids, --cpus, --group) to *p, a finished comparison, then replace *p
 * by its normalized copy (diff_normalize), which has no timeline; those
 * views are then cleared from c.  Returns 0, or the exit status after
 * printing the error.
 */
int export_normalize(struct profile **p, struct config *c);

/*
 * Derive that view and print it as c's mode asks: --top, --collapse, the
 * text flame graph (width columns unless --width), or --pprof FILE (a
 * file written whole or not at all).  Returns the exit status.
 */
int export_run(FILE *f, struct profile *p, const struct config *c,
	       const char *title, unsigned width);

/*
 * --annotate NAME: every function NAME names (annotate.h's ann_find),
 * its source lines with self and total weight and share of the profile,
 * the hottest lines marked; without lines, its addresses.  Returns 0, 1
 * when no function has addresses or a pattern is bad (a message in d).
 */
struct ann_opts;
struct diag;
int export_annotate(FILE *out, struct profile *p, const char *name,
		    const struct ann_opts *o, struct diag *d);

#endif
