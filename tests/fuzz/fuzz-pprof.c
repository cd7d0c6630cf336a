/*
 * fuzz-pprof.c - the pprof reader (protobuf-c under its allocation budget,
 * ids, string indices, inlined lines, the samples' label sets) on
 * arbitrary bytes, then the views that read the labels (--tag, --group
 * label:KEY, the TUI's label list) and the exporters, the SVG among them,
 * on what it read.
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
#include "view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile *p = profile_create();
	struct input *in = input_open_mem(data, size, "fuzz");
	struct pprof_types types = { 0 };
	static const char *tags[] = { "worker=a", "kind!=batch", "worker=" };
	struct read_opts o = { .types = &types };
	struct view_spec vs = { .order = ORDER_NAME };
	struct svg_opts so = { .zoom = NODE_ROOT, .title = "fuzz" };
	struct diag d;
	FILE *null;

	/* Vary the options with the input's last byte. */
	if (size && (data[size - 1] & 1))
		o.addrs = true;
	if (size && (data[size - 1] & 2))
		o.sample_type = "alloc_space";
	if (size && (data[size - 1] & 4)) {
		vs.tags = tags;
		vs.ntags = 3;
	}
	if (size && (data[size - 1] & 8))
		vs.label_key = "worker";
	diag_init(&d);
	(void)read_pprof_detect(data, size);
	read_pprof(p, in, &o, &d);
	profile_finish(p);
	if (size && (data[size - 1] & 16)) {
		size_t n;

		free(view_label_shares(p, &n));     /* the TUI's T */
	}
	if (view_spec_labels(&vs)) {
		struct profile *v;
		char err[256];

		if (view_derive(p, &vs, &v, err, sizeof(err)) == VIEW_OK) {
			profile_destroy(p);
			p = v;
		}
	}
	null = fopen("/dev/null", "w");
	if (null) {
		export_svg(null, p, &so);
		fclose(null);
	}
	fuzz_export_and_free(p, in, &d);
	return 0;
}
