/*
 * view.h - derived views: another tree from the same profile.
 *
 * A view spec composes stack filters (include and exclude regexes, the
 * samples of some processes, threads or CPUs or with some labels, a time
 * range), a focus on one function (its callers or its callees), folded
 * recursion, inversion, a grouping of the samples per process, thread or
 * value of a label, and a sibling order.
 * view_derive builds the result as a new struct profile through the same
 * sink the readers feed, so every front end (TUI, --text, --collapse,
 * --top) draws it unchanged.  The steps apply in this order: grouping and
 * filters, then callers/callees, then folded recursion, then inversion.
 *
 * The top table of a profile, derived or not, is view-top.h.
 */
#ifndef FLAMETOP_VIEW_H
#define FLAMETOP_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

/* How timed samples with a known task are rooted. */
enum view_group {
	GROUP_ASREAD,        /* as the reader rooted them (the default) */
	GROUP_PROCESS,       /* one root per process: "comm-PID" */
	GROUP_THREAD,        /* one root per thread: "comm-PID/TID" */
	GROUP_MERGED,        /* no per-command root: all threads merged */
};

/* A set of numbers in perf's list syntax ("0-3,5"). */
struct view_list {
	uint32_t *lo, *hi;   /* inclusive ranges */
	size_t n;
};

struct search;

struct view_spec {
	const char **include;    /* regexes; keep stacks where any frame matches any */
	size_t ninclude;
	const char **exclude;    /* regexes; drop stacks where any frame matches any */
	size_t nexclude;
	const struct search *exclude_search;  /* NULL, or drop the stacks with a
	                            frame it matches too (its own pattern or
	                            exact name, and case) */
	bool icase;              /* the regexes ignore case */
	const char *callers;     /* NULL, or the function whose callers to show */
	const char *callees;     /* NULL, or the function whose callees to show */
	bool fold_recursion;     /* a;a;b becomes a;b */
	bool invert;             /* leaf first */
	bool has_range;          /* only timed samples in [first, last] (ns) */
	uint64_t first, last;
	const char **comms;      /* keep these commands (exact names) */
	size_t ncomms;
	struct view_list pids, tids, cpus;  /* keep these (empty: all) */
	enum view_group group;
	/* Labels (labels.h): keep the samples whose label set has any of the
	 * tags KEY=VALUE (none given: all) and none of the KEY!=VALUE; with
	 * label_key, root each sample in a frame "KEY=VALUE" (its values of
	 * KEY joined by commas; "KEY=" for none), instead of group. */
	const char *const *tags;
	size_t ntags;
	const char *label_key;
	enum profile_order order;
	bool hide_idle;          /* drop the idle task's samples: pid 0 where
				    the task is known, else stacks with a
				    frame named exactly as the idle task
				    (swapper) or a kernel idle loop function
				    (do_idle, ...: view.c's IDLE_RE) */
};

/* Does spec change anything at all (besides the order)? */
bool view_spec_active(const struct view_spec *spec);
/* Does spec select samples by task or CPU, or regroup them? */
bool view_spec_per_sample(const struct view_spec *spec);
/* Does spec select or group samples by their labels? */
bool view_spec_labels(const struct view_spec *spec);

/*
 * Parse "0-3,5" into l (appending).  Returns 0, or -1 with the reason in
 * err.
 */
int view_list_parse(struct view_list *l, const char *s, char *err,
		    size_t errcap);
bool view_list_has(const struct view_list *l, uint32_t v);
void view_list_free(struct view_list *l);

enum view_status {
	VIEW_OK = 0,
	VIEW_BAD_REGEX,      /* err holds pcre2's message and the offset */
	VIEW_NO_NAME,        /* no stack contains the callers/callees name */
};

/*
 * Derive the view of src (finished; its selected time range applies) that
 * spec describes into *out, a new finished profile.  On an error *out is
 * NULL and err says why ("no stack contains NAME", a regex error).  On
 * success err may hold a note for the user ("" when none): a label
 * grouping whose names grew too long.
 */
enum view_status view_derive(const struct profile *src,
			     const struct view_spec *spec,
			     struct profile **out, char *err, size_t errcap);

/* ---- Labels' shares (view-labels.c) ------------------------------------ */

/* A label KEY=VALUE and the weight of the samples that carry it. */
struct label_share {
	uint32_t key, value;     /* string ids of profile_labels */
	uint64_t weight;         /* in the profile's scale */
};

/*
 * Every KEY=VALUE the samples of p carry (all their time; a sample with a
 * pair twice counts once), keys in byte order and each key's values
 * heaviest first; *n of them, malloc'ed (NULL when there are none).
 */
struct label_share *view_label_shares(const struct profile *p, size_t *n);

#endif
