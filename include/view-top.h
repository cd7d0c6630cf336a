/*
 * view-top.h - the top table: per function of a profile its self weight
 * (the stacks whose leaf it is) and its total weight (the stacks that
 * contain it, once per stack even under recursion): perf report's Self and
 * Children.  Of any finished profile: the one read, or a view of it
 * (view.h).
 */
#ifndef FLAMETOP_VIEW_TOP_H
#define FLAMETOP_VIEW_TOP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profile.h"

struct view_top_row {
	uint32_t sym;        /* in the profile's symbol table */
	uint64_t self;       /* weight of the stacks whose leaf it is */
	uint64_t total;      /* weight of the stacks that contain it */
};

enum view_top_sort { TOP_BY_SELF, TOP_BY_TOTAL, TOP_BY_NAME,
	TOP_BY_CHANGE };   /* a comparison's (diff_top_sort); by self here */

/*
 * One row per function of p (finished) with any weight, sorted by self
 * (then total, then name).  Returns the number of rows; *rows is
 * malloc'ed.
 */
size_t view_top(const struct profile *p, struct view_top_row **rows);
void view_top_sort(const struct profile *p, struct view_top_row *rows,
		   size_t n, enum view_top_sort by);

/*
 * The table's column titles, "  self%  total%     self    total  function",
 * and a row's cells before its name: the shares of all (two decimals),
 * then self and total as profile_format_figure writes them, right-aligned
 * ("366.7 ms", "11.0 MB", "1.28k"), then two spaces.  --top and the view's
 * table (v) print these.  Both return the length written.
 */
size_t view_top_titles(char *buf, size_t cap);
size_t view_top_cells(const struct profile *p, const struct view_top_row *r,
		      char *buf, size_t cap);

/*
 * Print the top n rows (0: all) of p under a line with the amount the
 * figures count and the titles: "# all: 1.68 s CPU", or where p is a view
 * of whole that keeps less than all of it, "# view: 31 samples, 83.78% of
 * all (37 samples)".  whole: NULL when p is the profile as read.  Returns
 * the rows printed.
 */
size_t view_print_top(FILE *out, const struct profile *p,
		      const struct profile *whole, size_t n);

#endif
