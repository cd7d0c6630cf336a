/*
 * fuzz-cpuprofile.c - the V8 .cpuprofile reader (json-c, the node tree's
 * ids, children, cycles and depth, samples and their times) on arbitrary
 * bytes, then the exporters on what it read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag.h"
#include "fuzz-common.h"
#include "input.h"
#include "profile.h"
#include "read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile *p = profile_create();
	struct input *in = input_open_mem(data, size, "fuzz");
	struct read_opts o = { 0 };
	struct diag d;

	diag_init(&d);
	(void)read_cpuprofile_detect(data, size);
	read_cpuprofile(p, in, &o, &d);
	profile_finish(p);
	fuzz_export_and_free(p, in, &d);
	return 0;
}
