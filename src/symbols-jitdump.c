/*
 * symbols-jitdump.c - JIT code named from the runtimes' jitdumps
 * (symbols.h, jitdump.h).
 *
 * A runtime that writes jit-PID.dump maps the file, so the process's MMAP
 * records name it: sym_jitdump_mapped notes the path for the pid, and the
 * first lookup in the process's JIT code opens the dump (under --symfs,
 * beside the recording, or where the process wrote it).  A dump still
 * being written (live) is read again before a lookup at a time later than
 * its last reading (a runtime writes a code load before the code runs,
 * and new code may replace what was read: about once per drain of the
 * rings, as samples come after their drain), and when a lookup misses, at
 * most ten times a second.  The PID in the file name is the process's own (in a
 * container, its namespace's), and the dump's header must name it.
 *
 * Where the process has a dump, the dump answers first; the perf map is
 * asked only for addresses the dump does not know.
 */
#include "symbols.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jitdump.h"
#include "symbols-priv.h"
#include "util.h"

struct jd_proc {
	uint32_t pid;              /* as the records name it */
	uint32_t dump_pid;         /* as the file name does */
	char *mapped;              /* the path the process mapped */
	struct jitdump *jd;        /* NULL: not opened (yet, or not found) */
	bool tried;                /* opening was tried */
	bool any_time;             /* looked up at no time: said */
	double read_at;            /* when it was last read (live) */
	uint64_t read_ns;          /* the same in ns (the samples' clock) */
	struct jd_proc *next;
};

/* Update a growing dump when a lookup misses, at most this often. */
#define JD_REREAD_SECONDS 0.1

/* The file name of path: "jit-PID.dump" gives PID, else 0. */
static uint32_t dump_pid(const char *path, size_t len)
{
	const char *base = path + len;
	unsigned long pid = 0;
	size_t n;

	while (base > path && base[-1] != '/')
		base--;
	n = (size_t)(path + len - base);
	if (n < 10 || memcmp(base, "jit-", 4) != 0 ||
	    memcmp(path + len - 5, ".dump", 5) != 0)
		return 0;
	for (size_t i = 4; i < n - 5; i++) {
		if (base[i] < '0' || base[i] > '9' || pid > UINT32_MAX / 10)
			return 0;
		pid = pid * 10 + (unsigned long)(base[i] - '0');
	}
	return pid <= UINT32_MAX ? (uint32_t)pid : 0;
}

bool sym_is_jitdump(const char *path, size_t len)
{
	return dump_pid(path, len) != 0;
}

static struct jd_proc *find_proc(const struct symbolizer *sy, uint32_t pid)
{
	struct jd_proc *j;

	for (j = sy->jitdumps; j; j = j->next)
		if (j->pid == pid)
			return j;
	return NULL;
}

void sym_jitdump_mapped(struct symbolizer *sy, uint32_t pid,
			const char *path, size_t len)
{
	struct jd_proc *j = find_proc(sy, pid);

	if (!dump_pid(path, len) || memchr(path, 0, len))
		return;
	/* The same dump mapped again (perf reports each mapping). */
	if (j && strlen(j->mapped) == len && !memcmp(j->mapped, path, len))
		return;
	if (j)
		sym_jitdump_forget(sy, pid);
	j = xcalloc(1, sizeof(*j));
	j->pid = pid;
	j->dump_pid = dump_pid(path, len);
	j->mapped = xstrndup(path, len);
	j->next = sy->jitdumps;
	sy->jitdumps = j;
}

/* Keep a note about a dump for sym_report. */
static void note(struct symbolizer *sy, const char *msg)
{
	if (sy->njd_notes < ARRAY_SIZE(sy->jd_notes))
		sy->jd_notes[sy->njd_notes++] = xstrdup(msg);
	else
		sy->jd_more_notes++;
}

/* Read what a growing dump gained: how many records. */
static size_t reread(struct jd_proc *j)
{
	j->read_at = now_seconds();
	j->read_ns = (uint64_t)(j->read_at * 1e9);   /* CLOCK_MONOTONIC */
	return jitdump_update(j->jd);
}

/* Open j's dump where it may be (see symbols.h) and read it. */
static void open_dump(struct symbolizer *sy, struct jd_proc *j)
{
	const char *base = strrchr(j->mapped, '/');
	char *cand[3], err[512] = "", first[512] = "";
	size_t n = 0;

	base = base ? base + 1 : j->mapped;
	j->tried = true;
	if (sy->o.root) {
		cand[n++] = xasprintf("%s%s%s", sy->o.root,
				      j->mapped[0] == '/' ? "" : "/",
				      j->mapped);
		cand[n++] = xasprintf("%s/%s", sy->o.root, base);
	}
	if (sy->o.jitdump_dir)
		cand[n++] = xasprintf("%s/%s", sy->o.jitdump_dir, base);
	if (!sy->o.root && n < ARRAY_SIZE(cand))
		cand[n++] = xstrdup(j->mapped);
	for (size_t i = 0; i < n; i++) {
		struct stat sb;

		/* A dump that is there but may not be read says why. */
		if (!j->jd && lstat(cand[i], &sb) == 0 &&
		    !(j->jd = jitdump_open(cand[i], j->dump_pid, err,
					   sizeof(err))) && !first[0])
			snprintf(first, sizeof(first), "%s", err);
		free(cand[i]);
	}
	if (!j->jd) {
		char msg[1200];

		if (first[0])
			snprintf(msg, sizeof(msg), "%s: the JIT frames of "
				 "process %u are not named from it", first,
				 j->pid);
		else
			snprintf(msg, sizeof(msg), "%s of process %u not found "
				 "(looked %s): its JIT frames are not named "
				 "from it", base, j->pid, sy->o.root ?
				 "under --symfs" : sy->o.jitdump_dir ?
				 "beside the recording and where the process "
				 "wrote it" : "where the process wrote it");
		note(sy, msg);
		return;
	}
	if (sy->o.jitdump_whole) {
		jitdump_update(j->jd);
		jitdump_finish(j->jd);
	} else {
		reread(j);
	}
}

const char *sym_jit_lookup_at(struct symbolizer *sy, uint32_t pid,
			      uint64_t addr, uint64_t t, const char **mod,
			      struct sym_srcline *line)
{
	struct jd_proc *j = find_proc(sy, pid);
	struct jitdump_code c;
	bool found = false;

	if (line)
		line->file = NULL;
	if (j && !j->tried)
		open_dump(sy, j);
	if (j && j->jd) {
		if (!sy->o.jitdump_whole && t != JITDUMP_TIME_ANY &&
		    t >= j->read_ns)
			reread(j);
		found = jitdump_lookup(j->jd, addr, t, &c);
		if (!found && !sy->o.jitdump_whole &&
		    now_seconds() - j->read_at >= JD_REREAD_SECONDS &&
		    reread(j))
			found = jitdump_lookup(j->jd, addr, t, &c);
		if (mod)
			*mod = jitdump_name(j->jd);
	}
	if (found && t == JITDUMP_TIME_ANY && !j->any_time &&
	    !jitdump_info(j->jd)->arch_timestamp) {
		char msg[600];

		j->any_time = true;
		snprintf(msg, sizeof(msg), "%s: the samples' times are not on "
			 "the dump's clock (record with perf record -k 1): JIT "
			 "code is named by the last code loaded at each "
			 "address", jitdump_name(j->jd));
		note(sy, msg);
	}
	if (found) {
		const char *file;
		unsigned ln;

		if (line && jitdump_line(j->jd, addr, t, &file, &ln)) {
			const char *sl = strrchr(file, '/');

			line->file = sl ? sl + 1 : file;
			line->line = ln;
		}
		return c.name;
	}
	if (mod && !(j && j->jd)) {
		snprintf(sy->jit_modname, sizeof(sy->jit_modname),
			 "/tmp/perf-%u.map", pid);
		*mod = sy->jit_modname;
	}
	{
		const char *name = sym_jit_lookup(sy, pid, addr);

		/*
		 * Code can run before its load is written (node logs code
		 * compiled on another thread once it is installed): with
		 * nothing there at time t in the dump or the map, the latest
		 * code the dump has there.
		 */
		if (!name && j && j->jd && t != JITDUMP_TIME_ANY &&
		    jitdump_lookup(j->jd, addr, JITDUMP_TIME_ANY, &c))
			name = c.name;
		return name;
	}
}

struct jitdump *sym_jitdump_of(struct symbolizer *sy, uint32_t pid)
{
	struct jd_proc *j = find_proc(sy, pid);

	if (j && !j->tried)
		open_dump(sy, j);
	return j ? j->jd : NULL;
}

bool sym_has_jitdump(struct symbolizer *sy, uint32_t pid)
{
	return sym_jitdump_of(sy, pid) != NULL;
}

bool sym_jitdump_refresh(struct symbolizer *sy, uint32_t pid)
{
	struct jd_proc *j = find_proc(sy, pid);

	return j && j->jd && !sy->o.jitdump_whole && reread(j) > 0;
}

/* What jd says, as notes (its messages outlive it). */
static void keep_report(struct symbolizer *sy, const struct jitdump *jd)
{
	struct diag d;

	diag_init(&d);
	if (jitdump_report(jd, &d)) {
		for (unsigned i = 0; i < d.nfirst; i++)
			note(sy, d.first[i]);
		for (unsigned i = 0; i < d.nwarnings; i++)
			note(sy, d.warnings[i]);
	}
	diag_free(&d);
}

static void free_proc(struct jd_proc *j)
{
	jitdump_close(j->jd);
	free(j->mapped);
	free(j);
}

void sym_jitdump_forget(struct symbolizer *sy, uint32_t pid)
{
	for (struct jd_proc **pp = &sy->jitdumps; *pp; pp = &(*pp)->next)
		if ((*pp)->pid == pid) {
			struct jd_proc *j = *pp;

			*pp = j->next;
			if (j->jd)
				keep_report(sy, j->jd);
			free_proc(j);
			return;
		}
}

void sym_jitdumps_free(struct symbolizer *sy)
{
	while (sy->jitdumps) {
		struct jd_proc *j = sy->jitdumps;

		sy->jitdumps = j->next;
		free_proc(j);
	}
	for (size_t i = 0; i < sy->njd_notes; i++)
		free(sy->jd_notes[i]);
	sy->njd_notes = 0;
}

void sym_jitdumps_report(const struct symbolizer *sy, struct diag *d)
{
	for (size_t i = 0; i < sy->njd_notes; i++)
		diag_warn(d, "%s", sy->jd_notes[i]);
	if (sy->jd_more_notes)
		diag_warn(d, "%llu more notes about jitdumps",
			  (unsigned long long)sy->jd_more_notes);
	for (const struct jd_proc *j = sy->jitdumps; j; j = j->next)
		if (j->jd)
			jitdump_report(j->jd, d);
}
