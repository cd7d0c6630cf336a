/*
 * fuzz-perf-data.c - the perf.data reader (file and pipe mode, zstd
 * records, the tracker and the symbolizer behind it) on arbitrary bytes,
 * then the exporters on what it read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag.h"
#include "fuzz-common.h"
#include "export.h"
#include "input.h"
#include "profile.h"
#include "read.h"
#include "symbols.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile *p = profile_create();
	struct input *in = input_open_mem(data, size, "fuzz");
	struct read_opts o = { .kernel = true, .jit = true };
	struct diag d;

	fuzz_no_machine_files(NULL);   /* the paths in the input name nothing */
	/* Vary the naming options with the input's last byte. */
	if (size && (data[size - 1] & 1))
		o.tid = true;
	if (size && (data[size - 1] & 2))
		o.addrs = true;
	/* Both passes at once (a second thread), or one after the other. */
	setenv("FLAMETOP_THREADS", size && (data[size - 1] & 4) ? "2" : "1", 1);
	diag_init(&d);
	read_perf_data(p, in, &o, &d);
	profile_finish(p);
	fuzz_export_and_free(p, in, &d);
	return 0;
}
