/*
 * symbols-jitdump.c - the jitdumps processes map (jit-PID.dump, written
 * by node --perf-prof, python3.13 -X perf_jit, .NET, ...): the names of
 * their JIT code by the time of the sample.
 *
 * A runtime maps its dump with PROT_EXEC so that the MMAP record of the
 * mapping tells profilers where the dump is; the process table hands that
 * path here (sym_jitdump_add).  The dump is opened on the first lookup and
 * read on with jitdump_update as the runtime appends to it.  A runtime
 * writes a code load before the code runs, so a lookup at time t needs the
 * file read again only if it was last read before t (a sample is named
 * after the drain that brought it, so that is about once per drain).
 * Other misses (no time on the dump's clock; code that ran before its
 * load was written) read it again at most ten times a second.
 *
 * What the reader skipped or refused is told once, at sym_report; a dump
 * closed early (its process went) leaves its messages behind.
 */
#include "symbols.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jitdump.h"
#include "symbols-priv.h"
#include "util.h"

_Static_assert(SYM_JIT_TIME_ANY == JITDUMP_TIME_ANY, "the same 'any time'");

struct sym_jitdump {
	uint32_t pid;
	char *path;
	struct jitdump *jd;     /* NULL: not opened yet, or could not be */
	bool tried;             /* jitdump_open was called */
	uint64_t read_ns;       /* CLOCK_MONOTONIC of the last update */
	struct sym_jitdump *next;
};

static uint64_t mono_ns(void)
{
	return (uint64_t)(now_seconds() * 1e9);
}

static struct sym_jitdump **find_slot(struct symbolizer *sy, uint32_t pid)
{
	struct sym_jitdump **pp = &sy->dumps;

	while (*pp && (*pp)->pid != pid)
		pp = &(*pp)->next;
	return pp;
}

/* Close a dump, keeping what it has to say for sym_report. */
static void dump_free(struct symbolizer *sy, struct sym_jitdump *x)
{
	if (x->jd) {
		if (!sy->dump_notes) {
			sy->dump_notes = xcalloc(1, sizeof(*sy->dump_notes));
			diag_init(sy->dump_notes);
		}
		jitdump_report(x->jd, sy->dump_notes);
		jitdump_close(x->jd);
	}
	free(x->path);
	free(x);
}

void sym_jitdump_add(struct symbolizer *sy, uint32_t pid, const char *path,
		     size_t len)
{
	struct sym_jitdump **pp = find_slot(sy, pid), *x = *pp;

	len = strnlen(path, len);
	if (x && strlen(x->path) == len && memcmp(x->path, path, len) == 0)
		return;    /* mapped again: the same dump */
	if (x) {
		*pp = x->next;
		dump_free(sy, x);
	}
	x = xcalloc(1, sizeof(*x));
	x->pid = pid;
	x->path = xstrndup(path, len);
	x->next = sy->dumps;
	sy->dumps = x;
}

void sym_jitdump_forget(struct symbolizer *sy, uint32_t pid)
{
	struct sym_jitdump **pp = find_slot(sy, pid), *x = *pp;

	if (x) {
		*pp = x->next;
		dump_free(sy, x);
	}
}

void sym_jitdump_free_all(struct symbolizer *sy)
{
	while (sy->dumps) {
		struct sym_jitdump *x = sy->dumps;

		sy->dumps = x->next;
		if (x->jd)
			jitdump_close(x->jd);
		free(x->path);
		free(x);
	}
	if (sy->dump_notes) {
		diag_free(sy->dump_notes);
		free(sy->dump_notes);
	}
}

/* Read what was appended since the last time: how many records. */
static size_t dump_update(struct sym_jitdump *x)
{
	x->read_ns = mono_ns();
	return jitdump_update(x->jd);
}

/* pid's dump, opened and read (NULL: it has none, or it cannot be read). */
static struct sym_jitdump *dump_of(struct symbolizer *sy, uint32_t pid)
{
	struct sym_jitdump *x = *find_slot(sy, pid);
	char err[512];

	if (!x || x->tried)
		return x;
	x->tried = true;
	x->jd = jitdump_open(x->path, pid, err, sizeof(err));
	if (!x->jd)
		sym_jit_note(sy, "%s", err);
	else
		dump_update(x);
	return x;
}

/*
 * The code of pid's dump at addr at time t, reading the dump on when it
 * may have been written since it was last read.
 */
static bool dump_find(struct sym_jitdump *x, uint64_t addr, uint64_t t,
		      struct jitdump_code *c)
{
	bool any = t == SYM_JIT_TIME_ANY;

	/* Code loaded by then may have replaced what was read. */
	if (!any && t >= x->read_ns)
		dump_update(x);
	if (jitdump_lookup(x->jd, addr, t, c))
		return true;
	if (mono_ns() - x->read_ns >= 100000000u) {
		dump_update(x);
		if (jitdump_lookup(x->jd, addr, t, c))
			return true;
	}
	/*
	 * Code can run before its load is written (node logs code compiled
	 * on another thread once it is installed): with nothing at addr at
	 * time t, the latest code there.
	 */
	return !any && jitdump_lookup(x->jd, addr, SYM_JIT_TIME_ANY, c);
}

bool sym_jitdump_refresh(struct symbolizer *sy, uint32_t pid)
{
	struct sym_jitdump *x = dump_of(sy, pid);

	return x && x->jd && dump_update(x) > 0;
}

struct jitdump *sym_jitdump_of(struct symbolizer *sy, uint32_t pid)
{
	struct sym_jitdump *x = dump_of(sy, pid);

	return x ? x->jd : NULL;
}

const char *sym_jitdump_lookup(struct symbolizer *sy, uint32_t pid,
			       uint64_t addr, uint64_t t, const char **dump)
{
	struct sym_jitdump *x = dump_of(sy, pid);
	struct jitdump_code c;

	*dump = x ? x->path : NULL;
	if (!x || !x->jd || !dump_find(x, addr, t, &c))
		return NULL;
	return c.name;
}

void sym_jitdump_report(const struct symbolizer *sy, struct diag *d)
{
	for (const struct sym_jitdump *x = sy->dumps; x; x = x->next)
		if (x->jd)
			jitdump_report(x->jd, d);
	if (!sy->dump_notes)
		return;
	/* The messages of dumps closed before: said again, as warnings. */
	for (unsigned i = 0; i < sy->dump_notes->nfirst; i++)
		diag_warn(d, "%s", sy->dump_notes->first[i]);
	for (unsigned i = 0; i < sy->dump_notes->nwarnings; i++)
		diag_warn(d, "%s", sy->dump_notes->warnings[i]);
}

