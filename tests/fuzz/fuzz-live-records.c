/*
 * fuzz-live-records.c - live mode's record path on arbitrary bytes: a
 * ring as the kernel fills it, read with the sampler's ring protocol
 * (records that wrap, corrupt headers), each record decoded as the live
 * session decodes it and fed to the process tracker, each sample's stack
 * built (DWARF-unwound when it carries registers and a stack copy) and
 * added to a profile.
 *
 * Input: a header of 21 bytes, then the ring's bytes.  Header: flags
 * (1: sample_id_all), where the ring's tail starts (4 bytes, taken down
 * to a multiple of 8 as the kernel's are; records wrap past the end), the sample_type (8 bytes) and sample_regs_user (8
 * bytes), little-endian.  The ring is the smallest power of two that
 * holds the bytes.  Binaries come only from tests/data/symfs (run from
 * the top of the tree), so that the unwinder has CFI to walk: the seeds
 * are records of the perf.data files in tests/data.
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-common.h"
#include "live.h"
#include "perf-event.h"
#include "perf-record.h"
#include "profile.h"
#include "symbols.h"

#define HEADER 21
#define MAX_RING ((size_t)1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sym_opts so;
	struct perf_event_attr attr;
	struct pe_format fmt;
	struct read_opts ro = { .kernel = true, .jit = true };
	uint64_t head, tail, ring_size = 64, sample_type;
	uint32_t start;
	struct ring_view r;
	unsigned char *ring, *scratch;
	struct symbolizer *sy;
	struct profile *p;
	struct pe_machine *m;
	size_t len;

	if (size < HEADER)
		return 0;
	len = size - HEADER;
	if (len > MAX_RING)
		len = MAX_RING;
	while (ring_size < len)
		ring_size *= 2;
	memcpy(&start, data + 1, 4);
	start &= ~7u;           /* records are 8-byte aligned in the ring */
	memcpy(&sample_type, data + 5, 8);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.sample_type = sample_type;
	memcpy(&attr.sample_regs_user, data + 13, 8);
	attr.sample_id_all = data[0] & 1;
	pe_format_from_attr(&fmt, &attr);

	ring = calloc(1, ring_size);
	scratch = malloc(65536 + 8);
	if (!ring || !scratch)
		abort();
	tail = start;
	for (size_t i = 0; i < len; i++)
		ring[(tail + i) & (ring_size - 1)] = data[HEADER + i];
	head = tail + len;
	memset(&r, 0, sizeof(r));
	r.data = ring;
	r.size = ring_size;
	r.head = &head;
	r.tail = &tail;
	r.scratch = scratch;

	fuzz_no_machine_files("tests/data/symfs");
	sym_default_opts(&so);
	sy = sym_create(&so);
	p = profile_create();
	m = pe_machine_create(sy, p, &ro);
	for (bool more = ring_begin(&r, sample_type); more;
	     more = ring_next(&r, sample_type)) {
		struct pe_record rec;
		const char *why;

		if (pe_decode(r.cur, r.cur->size, &fmt, &rec, &why) < 0)
			continue;
		if (rec.type == PERF_RECORD_SAMPLE) {
			struct sample_meta meta;
			struct weight w = { 1, 0, 0 };
			size_t n;
			const uint32_t *ids = pe_machine_build(m, &rec.u.sample,
							       &n);

			pe_machine_meta(m, &rec.u.sample, &meta);
			if (n > PROFILE_MAX_DEPTH - 1)
				n = PROFILE_MAX_DEPTH - 1;
			if (rec.u.sample.has_period && rec.u.sample.period)
				w.v = rec.u.sample.period;
			profile_add_stack(p, ids, n, &w, &meta);
		} else {
			pe_machine_apply(m, &rec);
		}
	}
	ring_end(&r);
	/* The reader gave back all it read, and read no further than head. */
	if (tail > head || (!r.bad && tail != head))
		__builtin_trap();
	profile_finish(p);
	{
		struct diag d;

		diag_init(&d);
		sym_report(sy, &d);
		fuzz_diag_done(&d);
	}
	pe_machine_destroy(m);
	sym_destroy(sy);
	profile_destroy(p);
	free(scratch);
	free(ring);
	return 0;
}
