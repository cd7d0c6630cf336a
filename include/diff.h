/*
 * diff.h - differential profiles: two inputs, BEFORE and AFTER, as one
 * profile whose stacks carry two weights (weight.v2 is BEFORE, weight.v is
 * AFTER, as in two-column folded input "stack BEFORE AFTER").
 *
 * AFTER is read as it would be alone, then BEFORE into the same tree as
 * the first count (profile_set_before_column): every reader works on each
 * side as on one input, and no second tree is built nor merged.  The
 * timeline keeps both sides' samples, so --time, the time strip and the
 * per-sample views apply to the comparison.  The TUI builds comparisons
 * of two time ranges and of a live baseline by merging trees (diff_add).
 */
#ifndef FLAMETOP_DIFF_H
#define FLAMETOP_DIFF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "profile.h"
#include "view-top.h"

struct config;

/* An empty differential profile to merge sides into. */
struct profile *diff_create(void);

/*
 * Add the stacks of src (finished; its selected range applies) to d as
 * the AFTER weights (after true) or the BEFORE weights.  With norm
 * (--normalize: AFTER's total, in AFTER's scale) each BEFORE stack's
 * weight is multiplied by norm / src's total and truncated to an integer,
 * as difffolded.pl -n does.  Returns 0, or -1 when a sum would overflow.
 */
int diff_add(struct profile *d, const struct profile *src, bool after,
	     const struct weight *norm);

/*
 * --diff BEFORE AFTER: read c->files[1] (AFTER), then c->files[0] into the
 * same tree as the first count (BEFORE), their timelines aligned at their
 * starts, and apply --time to each side.  The views, the per-sample ones
 * (--comm, --pids, --tids, --cpus, --group) too, and --normalize
 * (diff_normalize) are left to the caller.  *out is to be finished.  Returns 0, or the exit status
 * after printing why: 1 when an input could not be read or has no
 * timestamps for --time, 2 for a bad --time.  Bad lines are counted in d.
 */
int diff_load(struct config *c, struct diag *d, struct profile **out);
/*
 * --normalize: a copy of the finished differential profile p whose BEFORE
 * weights are scaled to AFTER's total, as difffolded.pl -n does: when the
 * totals differ, each stack's BEFORE weight times AFTER's total over
 * BEFORE's, the fraction dropped (not rounded); equal totals leave the
 * weights as they are.  The copy has no timeline, so the per-sample views
 * are to be applied to p first.
 */
struct profile *diff_normalize(const struct profile *p);
/*
 * Read both inputs again into p, a comparison diff_load made (without
 * --normalize) whose weights were reset: another sample type or event
 * (the TUI's e).  Returns 0, or -1 when an input could not be read.
 */
int diff_reload(struct profile *p, const struct config *c, struct diag *d);

/*
 * The same profile with its columns swapped (--negate: frames sized by
 * BEFORE, so what went away shows).  Readers of the swapped profile pass
 * negated = true below, so grew and shrank keep their meaning.
 */
struct profile *diff_swap(const struct profile *p);

/* ---- Reading a differential profile ----------------------------------- */

enum diff_change {
	DIFF_SAME,           /* the same share of all before and after, to
				within what "%.2f" points shows (0.005) */
	DIFF_GREW,           /* a larger share after (by 0.005 points or more) */
	DIFF_SHRANK,         /* a smaller share after (likewise) */
	DIFF_NEW,            /* no weight before */
	DIFF_GONE,           /* no weight after */
};

struct diff_info {
	uint64_t before, after;          /* total weights, tree scale */
	double before_pct, after_pct;    /* shares of each side's total */
	double change;                   /* after_pct - before_pct (points) */
	double intensity;                /* 0 (same) .. 1 (the largest
					    change shown): |change| / scale */
	enum diff_change kind;
};

/* How node's share changed (p differential; negated: p is diff_swap'ed). */
void diff_info(const struct profile *p, uint32_t node, bool negated,
	       struct diff_info *di);
struct theme;
/*
 * The color of a differential frame: the theme's "same" color moved towards
 * "grew" or "shrank" by its change in points of share over the largest
 * change of any frame of p (profile_max_change), which gets the full
 * "grew" or "shrank" color (24-bit RGB).
 */
uint32_t diff_color(const struct theme *th, const struct profile *p,
		    uint32_t node, bool negated);
/* The same from a diff_info (a node's, or a top table row's). */
uint32_t diff_color_of(const struct theme *th, const struct diff_info *di);
/* '+' grew or new, '-' shrank or gone, 0 the same. */
char diff_mark(enum diff_change k);
/*
 * A change of share as every view prints it: "new", "gone", "0.00" (the
 * same: never "-0.00"), else signed points, "+1.25".  Returns its length.
 */
size_t diff_change_text(const struct diff_info *di, char *buf, size_t cap);
/*
 * "before B (x%), after A (y%), +D, +z pts", or "new: ..." / "gone: ...",
 * into buf, the sides named as p names them ("A 1.2 ms (3.00%), B ..."
 * for two time ranges, profile_side); returns its length.  For a narrow
 * status line: terse 1 leaves out the shares ("before B, after A, +D,
 * +z pts", "new: A"), terse 2 the difference too ("before B, after A,
 * +z pts"), terse 3 the words ("B -> A, +z pts").
 */
size_t diff_describe(const struct profile *p, uint32_t node, bool negated,
		     unsigned terse, char *buf, size_t cap);

/* One function of a comparison's top table; [0] before, [1] after. */
struct diff_top_row {
	uint32_t sym;                 /* in the profile's symbol table */
	uint64_t self[2], total[2];   /* weights (view_top's, of each side) */
	uint64_t all[2];              /* each side's total weight */
	double self_pct[2], total_pct[2];   /* shares of all (%) */
	double scale;                 /* the profile's profile_max_change */
};

/*
 * The top table of the differential profile p (finished; negated: p is
 * diff_swap'ed, and [0] is still BEFORE): one row per function with weight
 * on either side, sorted by TOP_BY_CHANGE.  Returns the number of rows;
 * *rows is malloc'ed.
 */
size_t diff_top_rows(const struct profile *p, bool negated,
		     struct diff_top_row **rows);
/*
 * Sort rows: TOP_BY_CHANGE by the size of the self change (then of the
 * total change), TOP_BY_SELF and TOP_BY_TOTAL by the share after (then
 * before), each then by name; TOP_BY_NAME by name.
 */
void diff_top_sort(const struct profile *p, struct diff_top_row *rows,
		   size_t n, enum view_top_sort by);
/* How a row's self (or total: total true) share changed. */
void diff_top_info(const struct diff_top_row *r, bool total,
		   struct diff_info *di);

/*
 * --top of a differential profile: per function its self and total shares
 * before and after and their change in points, the largest self change
 * first (then total change, then name); n rows (0: all).  Returns the
 * rows printed.
 */
size_t diff_print_top(FILE *out, const struct profile *p, size_t n);

#endif
