/*
 * fuzz-folded.c - the folded-stack reader (and the gzip/zstd path in front
 * of it) on arbitrary bytes, then the exporters on what it read.
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
	struct profile *p = profile_create();
	struct input *in = input_open_mem(data, size, "fuzz");
	struct read_opts o = { 0 };
	struct diag d;

	diag_init(&d);
	input_set_max_line(in, 1 << 16);
	read_folded(p, in, &o, &d);
	profile_finish(p);
	fuzz_export_and_free(p, in, &d);
	return 0;
}
