/*
 * fuzz-options.c - the command line on arbitrary bytes: the input split at
 * NUL bytes is argv (after "flametop"), parsed as flametop parses it, with
 * the usage messages to /dev/null.  What was accepted goes on where the
 * program takes it: --time against profiles of three spans (the ends of
 * the clock too), --call-graph dwarf,SIZE.  A range accepted is in order
 * and starts at the first sample or later (it may end past the last).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-common.h"
#include "options.h"
#include "timerange.h"
#include "unwind.h"

#define MAX_ARGS 64

static void try_time(const char *spec, uint64_t first, uint64_t last)
{
	uint64_t t0, t1;
	char err[256], buf[128];

	if (timerange_parse(spec, first, last, &t0, &t1, err, sizeof(err)))
		return;
	if (t0 > t1 || t0 < first)
		__builtin_trap();
	timerange_describe(buf, sizeof(buf), first, t0, t1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *argv[MAX_ARGS + 2];
	int argc = 1;
	struct config c;

	fuzz_quiet_stderr();
	if (!copy)
		abort();
	if (size)
		memcpy(copy, data, size);
	copy[size] = 0;
	argv[0] = "flametop";
	for (size_t i = 0; i <= size && argc <= MAX_ARGS; argc++) {
		argv[argc] = copy + i;
		i += strlen(copy + i) + 1;
	}
	argv[argc] = NULL;
	if (options_parse(&c, argc, argv) == 0) {
		if (c.time) {
			try_time(c.time, 0, 0);
			try_time(c.time, 1000000000, 11000000000);
			try_time(c.time, UINT64_MAX - 5, UINT64_MAX);
		}
		if (c.call_graph && strncmp(c.call_graph, "dwarf,", 6) == 0) {
			unsigned sz;
			char err[160];

			if (unwind_parse_stack_size(c.call_graph + 6, &sz, err,
						    sizeof(err)) == 0 &&
			    (sz > UNWIND_STACK_MAX || sz % 8))
				__builtin_trap();
		}
	}
	options_free(&c);
	free(copy);
	return 0;
}
