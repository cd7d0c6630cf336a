/*
 * fuzz-pprof.c - the pprof reader (protobuf-c under its allocation budget,
 * ids, string indices, inlined lines, labels with --tag, --group
 * label:KEY and the TUI's label list) on arbitrary bytes, then the
 * exporters, the SVG among them, on what it read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	struct pprof_types types = { 0 };
	static const char *tags[] = { "worker=a", "kind!=batch", "worker=" };
	static struct pprof_labels ll;
	struct read_opts o = { .types = &types };
	struct svg_opts so = { .zoom = NODE_ROOT, .title = "fuzz" };
	struct diag d;
	FILE *null;

	/* Vary the options with the input's last byte. */
	if (size && (data[size - 1] & 1))
		o.addrs = true;
	if (size && (data[size - 1] & 2))
		o.sample_type = "alloc_space";
	if (size && (data[size - 1] & 4)) {
		o.tags = tags;
		o.ntags = 3;
	}
	if (size && (data[size - 1] & 8))
		o.label_root = "worker";
	if (size && (data[size - 1] & 16)) {
		memset(&ll, 0, sizeof(ll));
		o.label_list = &ll;     /* the TUI's T */
	}
	diag_init(&d);
	(void)read_pprof_detect(data, size);
	read_pprof(p, in, &o, &d);
	profile_finish(p);
	null = fopen("/dev/null", "w");
	if (null) {
		export_svg(null, p, &so);
		fclose(null);
	}
	fuzz_export_and_free(p, in, &d);
	return 0;
}
