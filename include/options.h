/*
 * options.h - the command line.  One table of options (name, type, range,
 * help) drives parsing, range checks and --help; doc/flametop.1 lists the
 * same options.
 */
#ifndef FLAMETOP_OPTIONS_H
#define FLAMETOP_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "read.h"

enum run_mode {
	MODE_TUI,        /* the interactive view (the default on a terminal) */
	MODE_TEXT,       /* --text */
	MODE_COLLAPSE,   /* --collapse */
	MODE_SVG,        /* --svg FILE */
	MODE_TOP,        /* --top N */
	MODE_PPROF,      /* --pprof FILE */
	MODE_ANNOTATE,   /* --annotate NAME */
};

struct config {
	enum run_mode mode;
	bool text, collapse;
	bool help, version;
	bool help_keys;              /* --help-keys: the TUI's key table */

	unsigned width, height;      /* --text size; 0: automatic, all */
	bool flame;                  /* root at the bottom */
	const char *search;          /* --search REGEX */
	bool icase;                  /* -i */
	const char *colors;          /* --colors NAME */
	const char *time;            /* --time SPEC */
	const char *format;          /* --format NAME */
	const char *svg;             /* --svg FILE ('-': stdout) */
	const char *pprof;           /* --pprof FILE ('-': stdout) */
	const char *title;           /* --title TEXT (the SVG's) */
	const char *annotate;        /* --annotate NAME */
	bool disasm;                 /* --disasm: its instructions */
	const char **source_paths;   /* --source-path DIR, repeatable */
	size_t nsource_paths;
	const char **prefix_maps;    /* --prefix-map OLD=NEW, repeatable */
	size_t nprefix_maps;

	struct read_opts read;       /* reader options (perf naming, limits) */
	bool all;                    /* --all: --kernel and --jit */

	const char **files;          /* inputs; "-" is standard input */
	int nfiles;
	char **command;              /* after "--": a command to sample */
	int ncommand;

	/* Live sampling (-p, -a or -- COMMAND; see live.h) */
	const char *attach;          /* -p PID[,PID...] */
	bool all_cpus;               /* -a */
	unsigned freq;               /* -F HZ; 0: 99 */
	uint64_t count;              /* -c N: every Nth event; 0: -F */
	bool off_cpu;                /* --off-cpu: ns blocked, by stack */
	bool wall;                   /* --wall: on-CPU and off-CPU ns */
	double duration;             /* -d SECS; 0: until stopped */
	const char *event;           /* -e NAME; NULL: cpu-clock */
	bool user_only, kernel_only; /* --user-only, --kernel-only */
	const char *call_graph;      /* --call-graph MODE; NULL: fp */
	double interval;             /* --interval SECS; 0: 1 s */
	double window;               /* --window SECS; 0: 5 s */

	/* Derived views (view.h) */
	const char **include;        /* --include RE, repeatable */
	size_t ninclude;
	const char **exclude;        /* --exclude RE, repeatable */
	size_t nexclude;
	const char *callers;         /* --callers NAME */
	const char *callees;         /* --callees NAME */
	bool invert;                 /* --invert */
	bool fold_recursion;         /* --fold-recursion */
	const char *comms;           /* --comm LIST */
	const char *pids, *tids, *cpus;  /* --pids/--tids/--cpus LIST */
	const char *group;           /* --group process|thread|merged */
	const char *label_key;       /* --group label:KEY: its KEY */
	const char **tags;           /* --tag KEY=VALUE or KEY!=VALUE */
	size_t ntags;
	const char *order;           /* --order name|weight */
	const char *top;             /* --top N */
	unsigned top_n;              /* its value; 0: all */

	/* Differential profiles (diff.h) */
	bool diff;                   /* --diff BEFORE AFTER */
	bool normalize;              /* --normalize: BEFORE scaled to AFTER */
	bool negate;                 /* --negate: frames sized by BEFORE */
};

/*
 * Parse argv into c.  Returns 0, or 2 after printing a usage error to
 * stderr.  --help and --version are left to the caller.
 */
int options_parse(struct config *c, int argc, char **argv);
void options_free(struct config *c);
void options_help(FILE *out);
void options_usage(FILE *out);

#endif
