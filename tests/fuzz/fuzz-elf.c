/*
 * fuzz-elf.c - symbolization and DWARF unwinding against an ELF file made
 * of arbitrary bytes.  The bytes are written as the file /obj of a symfs
 * (so nothing of this machine is read in its place), then:
 *
 *   - its symbols are looked up at 64 offsets across the file and at the
 *     entry point the ELF header names; in half the runs the mapping
 *     names a build-id, and the file is found in the symfs's .build-id
 *     tree instead (where its own build-id must match);
 *   - a process that maps it whole (by that build-id, or none) is sampled
 *     twice: with a call chain through those 65 places, and at the entry
 *     point with registers and a stack copy (the file's last 4 KiB) that
 *     is unwound through the file's CFI, as --call-graph dwarf does.
 *
 * The frames' names never hold a newline, which would forge a line of
 * --collapse output (an ELF symbol's name may be any bytes).
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "fuzz-common.h"
#include "perf-event.h"
#include "perf-record.h"
#include "profile.h"
#include "symbols.h"
#include "unwind.h"

#define MAP_START 0x400000ULL
#define STACK_AT 0x7ffff000ULL
#define PLACES 65
/* The build-id the mapping names in half the runs, and its file. */
static const uint8_t bid[20] = {
	0xf1, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa,
	0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00, 0x11, 0x22, 0x33, 0x44,
};
#define BID_PATH ".build-id/f1/2233445566778899aabbccddeeff0011223344"

static void add(struct pe_machine *m, struct profile *p,
		const struct pe_sample *s)
{
	struct weight w = { 1, 0, 0 };
	struct sample_meta meta;
	size_t n;
	const uint32_t *ids = pe_machine_build(m, s, &n);

	pe_machine_meta(m, s, &meta);
	profile_add_stack(p, ids, n, &w, &meta);
}

static void sample(struct symbolizer *sy, const uint8_t *data, size_t size,
		   const uint64_t *places, bool by_bid)
{
	struct pe_mmap ident = { .mmap2 = true, .has_build_id = by_bid,
				 .build_id_size = sizeof(bid),
				 .prot = PROT_READ | PROT_EXEC };
	struct read_opts ro = { 0 };
	struct profile *p = profile_create();
	struct pe_machine *m = pe_machine_create(sy, p, &ro);
	struct pe_sample s;
	uint64_t regs[20] = { 0 };      /* perf_regs order, UNWIND_REGS_MASK */
	uint64_t chain[PLACES + 1];
	size_t stack = size < 4096 ? size : 4096;

	memcpy(ident.build_id, bid, sizeof(bid));
	pe_machine_add_map(m, 1, MAP_START, (size + 4095) & ~(size_t)4095, 0,
			   "/obj", 4, &ident);
	pe_machine_set_comm(m, 1, 1, "fuzz", 4);
	memset(&s, 0, sizeof(s));
	s.pid = s.tid = 1;
	s.has_tid = true;
	s.cpumode = PERF_RECORD_MISC_USER;
	chain[0] = (uint64_t)PERF_CONTEXT_USER;
	for (size_t i = 0; i < PLACES; i++)
		chain[i + 1] = MAP_START + places[i];
	s.ip = chain[1];
	s.nr = PLACES + 1;
	s.callchain = chain;
	s.has_callchain = true;
	add(m, p, &s);

	s.nr = 0;
	s.callchain = NULL;
	s.has_callchain = false;
	s.ip = MAP_START + places[PLACES - 1];
	regs[6] = STACK_AT + 16;        /* bp */
	regs[7] = STACK_AT;             /* sp */
	regs[8] = s.ip;                 /* ip */
	s.regs_abi = PERF_SAMPLE_REGS_ABI_64;
	s.regs_mask = UNWIND_REGS_MASK;
	s.regs = regs;
	s.stack = data + size - stack;
	s.stack_size = s.stack_dyn_size = stack & ~(size_t)7;
	add(m, p, &s);

	profile_finish(p);
	for (uint32_t id = 0; id < profile_node_count(p); id++)
		if (memchr(profile_name(p, id), '\n', profile_name_len(p, id)))
			__builtin_trap();
	pe_machine_destroy(m);
	profile_destroy(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sym_opts o;
	struct sym_file_id id = { 0 };
	struct symbolizer *sy;
	struct sym_dso *d;
	uint64_t places[PLACES], entry = 0;
	bool by_bid = size && (data[size - 1] & 1);

	/* The file where this run looks, the other one empty. */
	fuzz_write_file(by_bid ? "obj" : BID_PATH, NULL, 0);
	fuzz_no_machine_files(fuzz_write_file(by_bid ? BID_PATH : "obj",
					      data, size));
	sym_default_opts(&o);
	if (size >= 32)
		memcpy(&entry, data + 24, 8);   /* e_entry of an ELF64 header */
	for (size_t i = 0; i < PLACES - 1; i++)
		places[i] = (uint64_t)size * i / (PLACES - 1);
	places[PLACES - 1] = entry % (size + 1);
	sy = sym_create(&o);
	if (by_bid) {
		id.build_id = bid;
		id.build_id_len = sizeof(bid);
	}
	d = sym_dso_get(sy, "/obj", 4, &id);
	for (size_t i = 0; i < PLACES; i++) {
		uint64_t vaddr;
		enum sym_miss why;

		sym_dso_lookup(sy, d, places[i], &vaddr, &why);
	}
	sample(sy, data, size, places, by_bid);
	sym_destroy(sy);
	return 0;
}
