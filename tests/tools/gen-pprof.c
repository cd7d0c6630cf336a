/*
 * gen-pprof.c - write a large synthetic pprof profile for the benchmarks.
 *
 * usage: gen-pprof SAMPLES STACKS OUT
 *
 * SAMPLES samples (values: samples/count and cpu/nanoseconds, as Go's CPU
 * profiles have), each one of STACKS distinct stacks 14 to 35 frames deep
 * that share their first levels as real call trees do.  Locations are
 * (depth, choice) pairs with one function each, every fifth with a second
 * line (an inlined call).  Packed with protobuf-c from flametop's own
 * profile.proto; deterministic for given arguments.  1,000,000 samples of
 * 300,000 stacks make about 50 MB.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.pb-c.h"
#include "util.h"

#define FANOUT 12u
#define MAXDEPTH 35u

#define mix hash_u64

static void *xalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p) {
		fprintf(stderr, "gen-pprof: out of memory\n");
		exit(1);
	}
	return p;
}

/* The location id of stack s at depth d: shared prefixes, then spread. */
static uint64_t loc_of(uint64_t s, unsigned d)
{
	uint64_t choice;

	if (d < 3)
		choice = (s >> (2 * d)) % 3;            /* a narrow top */
	else
		choice = mix(s / (1 + (60000 >> (d < 12 ? d : 12))) * 131 + d) % FANOUT;
	return (uint64_t)d * FANOUT + choice + 1;
}

int main(int argc, char **argv)
{
	Flametop__Pprof__Profile m = FLAMETOP__PPROF__PROFILE__INIT;
	Flametop__Pprof__ValueType vt[2] = { FLAMETOP__PPROF__VALUE_TYPE__INIT,
					     FLAMETOP__PPROF__VALUE_TYPE__INIT };
	Flametop__Pprof__ValueType *vtp[2] = { &vt[0], &vt[1] };
	size_t nsamples, nstacks, nloc = (size_t)MAXDEPTH * FANOUT, nstr;
	Flametop__Pprof__Sample *samples, **sp;
	Flametop__Pprof__Location *locs, **lp;
	Flametop__Pprof__Line *lines, **linep;
	Flametop__Pprof__Function *fns, **fp;
	uint64_t *ids;
	int64_t *vals;
	char **strs;
	ProtobufCBinaryData *table;
	uint8_t *buf;
	size_t len;
	FILE *out;

	if (argc != 4 || !(nsamples = strtoull(argv[1], NULL, 10)) ||
	    !(nstacks = strtoull(argv[2], NULL, 10))) {
		fprintf(stderr, "usage: gen-pprof SAMPLES STACKS OUT\n");
		return 2;
	}
	/* Strings: "", 4 type names, then one name per function. */
	nstr = 5 + nloc;
	strs = xalloc(nstr * sizeof(*strs));
	strs[0] = "";
	strs[1] = "samples";
	strs[2] = "count";
	strs[3] = "cpu";
	strs[4] = "nanoseconds";
	for (size_t i = 0; i < nloc; i++) {
		strs[5 + i] = xalloc(48);
		snprintf(strs[5 + i], 48, "pkg%zu.(*Server).handle%zu",
			 i / FANOUT, mix(i) % 1000);
	}
	table = xalloc(nstr * sizeof(*table));
	for (size_t i = 0; i < nstr; i++) {
		table[i].data = (uint8_t *)strs[i];
		table[i].len = strlen(strs[i]);
	}
	vt[0].type = 1;
	vt[0].unit = 2;
	vt[1].type = 3;
	vt[1].unit = 4;

	fns = xalloc(nloc * sizeof(*fns));
	fp = xalloc(nloc * sizeof(*fp));
	locs = xalloc(nloc * sizeof(*locs));
	lp = xalloc(nloc * sizeof(*lp));
	lines = xalloc(2 * nloc * sizeof(*lines));
	linep = xalloc(2 * nloc * sizeof(*linep));
	for (size_t i = 0; i < nloc; i++) {
		flametop__pprof__function__init(&fns[i]);
		fns[i].id = i + 1;
		fns[i].name = (int64_t)(5 + i);
		fp[i] = &fns[i];
		flametop__pprof__location__init(&locs[i]);
		locs[i].id = i + 1;
		locs[i].address = 0x400000 + 16 * i;
		for (size_t k = 0; k < 2; k++) {
			flametop__pprof__line__init(&lines[2 * i + k]);
			lines[2 * i + k].line = 10 + (int64_t)k;
			linep[2 * i + k] = &lines[2 * i + k];
		}
		/* Line 0 is the inlined callee, line 1 (the caller) this one. */
		lines[2 * i].function_id = i % 5 == 0 ? (mix(i) % nloc) + 1 : i + 1;
		lines[2 * i + 1].function_id = i + 1;
		locs[i].n_line = i % 5 == 0 ? 2 : 1;
		locs[i].line = i % 5 == 0 ? &linep[2 * i] : &linep[2 * i + 1];
		lp[i] = &locs[i];
	}

	samples = xalloc(nsamples * sizeof(*samples));
	sp = xalloc(nsamples * sizeof(*sp));
	ids = xalloc(nsamples * MAXDEPTH * sizeof(*ids));
	vals = xalloc(nsamples * 2 * sizeof(*vals));
	for (size_t i = 0; i < nsamples; i++) {
		uint64_t s = mix(i * 7 + 3) % nstacks;
		unsigned depth = 14 + (unsigned)(mix(s ^ 0x5eed) % (MAXDEPTH - 13));
		uint64_t *st = ids + i * MAXDEPTH;

		flametop__pprof__sample__init(&samples[i]);
		for (unsigned d = 0; d < depth; d++)
			st[depth - 1 - d] = loc_of(s, d);   /* leaf first */
		samples[i].n_location_id = depth;
		samples[i].location_id = st;
		vals[2 * i] = 1 + (int64_t)(mix(i) % 3);
		vals[2 * i + 1] = vals[2 * i] * 10000000;
		samples[i].n_value = 2;
		samples[i].value = vals + 2 * i;
		sp[i] = &samples[i];
	}
	m.n_sample_type = 2;
	m.sample_type = vtp;
	m.n_sample = nsamples;
	m.sample = sp;
	m.n_location = nloc;
	m.location = lp;
	m.n_function = nloc;
	m.function = fp;
	m.n_string_table = nstr;
	m.string_table = table;
	m.period = 10000000;

	len = flametop__pprof__profile__get_packed_size(&m);
	buf = xalloc(len);
	flametop__pprof__profile__pack(&m, buf);
	out = fopen(argv[3], "wb");
	if (!out || fwrite(buf, 1, len, out) != len || fclose(out) != 0) {
		perror(argv[3]);
		return 1;
	}
	printf("%zu samples, %zu stacks, %zu bytes\n", nsamples, nstacks, len);
	return 0;
}
