/*
 * fuzz-jit-map.c - the /tmp/perf-PID.map reader on arbitrary bytes: the
 * bytes are written as a map file, then looked up at every address a line
 * starts with (and the byte after), at the address the first 8 bytes make,
 * and at 0.  A name found is one line's text: it never holds a newline.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "fuzz-common.h"
#include "symbols.h"

static void lookup(struct symbolizer *sy, uint64_t addr)
{
	const char *name = sym_jit_lookup(sy, 4242, addr);

	if (name && strchr(name, '\n'))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sym_opts o = { 0 };
	struct symbolizer *sy;
	struct diag d;
	uint64_t first = 0;
	uint64_t addrs[256];
	size_t n;

	o.jit_dir = fuzz_write_file("perf-4242.map", data, size);
	sy = sym_create(&o);
	if (size)
		memcpy(&first, data, size < 8 ? size : 8);
	lookup(sy, first);
	lookup(sy, 0);
	/* The address of each of the first 256 lines, and the next byte. */
	n = fuzz_line_addrs(data, size, addrs, 256);
	for (size_t i = 0; i < n; i++) {
		lookup(sy, addrs[i]);
		lookup(sy, addrs[i] + 1);
	}
	diag_init(&d);
	sym_report(sy, &d);
	fuzz_diag_done(&d);
	sym_destroy(sy);
	return 0;
}
