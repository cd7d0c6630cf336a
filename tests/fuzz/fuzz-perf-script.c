/*
 * fuzz-perf-script.c - the perf script reader on arbitrary bytes (through
 * the gzip/zstd path), with every naming option on or off as the first
 * byte says, then a time range and the exporters on what it read.
 */
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "fuzz-common.h"
#include "export.h"
#include "input.h"
#include "profile.h"
#include "read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile *p;
	struct input *in;
	struct read_opts o = { 0 };
	struct diag d;
	uint64_t first, last;
	uint8_t flags = size ? data[0] : 0;

	/* The first byte picks the options; the input is all of it. */
	o.pid = flags & 1;
	o.tid = flags & 2;
	o.kernel = flags & 4;
	o.jit = flags & 8;
	o.addrs = flags & 16;
	if (flags & 32)
		o.event_filter = "cycles";
	p = profile_create();
	in = input_open_mem(data, size, "fuzz");
	diag_init(&d);
	input_set_max_line(in, 1 << 16);
	read_perf_script(p, in, &o, &d);
	profile_finish(p);
	if (profile_time_bounds(p, &first, &last))
		profile_set_range(p, first, first + (last - first) / 2);
	fuzz_export_and_free(p, in, &d);
	return 0;
}
