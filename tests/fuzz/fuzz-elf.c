/*
 * fuzz-elf.c - symbolization and DWARF unwinding against an ELF file made
 * of arbitrary bytes.  The bytes are written as the file /obj of a symfs
 * (so nothing of this machine is read in its place), then:
 *
 *   - its symbols are looked up at 64 offsets across the file and at the
 *     entry point the ELF header names (half the runs with a build-id
 *     that the file's own must match);
 *   - a process that maps it whole is sampled at the entry point with
 *     registers and a stack copy (the file's last 4 KiB), and that stack
 *     is unwound through the file's CFI as --call-graph dwarf does.
 *
 * A name found is a C string without newlines.
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>

#include "fuzz-common.h"
#include "perf-event.h"
#include "perf-record.h"
#include "profile.h"
#include "symbols.h"
#include "unwind.h"

#define MAP_START 0x400000ULL
#define STACK_AT 0x7ffff000ULL

static void unwind_once(struct symbolizer *sy, const uint8_t *data,
			size_t size, uint64_t entry)
{
	struct read_opts ro = { 0 };
	struct profile *p = profile_create();
	struct pe_machine *m = pe_machine_create(sy, p, &ro);
	struct pe_sample s;
	uint64_t regs[20] = { 0 };      /* perf_regs order, UNWIND_REGS_MASK */
	size_t stack = size < 4096 ? size : 4096, n;

	pe_machine_add_map(m, 1, MAP_START, (size + 4095) & ~(size_t)4095, 0,
			   "/obj", 4, NULL);
	pe_machine_set_comm(m, 1, 1, "fuzz", 4);
	memset(&s, 0, sizeof(s));
	s.pid = s.tid = 1;
	s.ip = MAP_START + entry;
	s.cpumode = PERF_RECORD_MISC_USER;
	regs[6] = STACK_AT + 16;        /* bp */
	regs[7] = STACK_AT;             /* sp */
	regs[8] = s.ip;                 /* ip */
	s.regs_abi = PERF_SAMPLE_REGS_ABI_64;
	s.regs_mask = UNWIND_REGS_MASK;
	s.regs = regs;
	s.stack = data + size - stack;
	s.stack_size = s.stack_dyn_size = stack & ~(size_t)7;
	s.has_tid = true;
	pe_machine_build(m, &s, &n);
	pe_machine_destroy(m);
	profile_destroy(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sym_opts o;
	struct sym_file_id id = { 0 };
	struct symbolizer *sy;
	struct sym_dso *d;
	uint64_t entry = 0;

	fuzz_no_machine_files(fuzz_write_file("obj", data, size));
	sym_default_opts(&o);
	if (size >= 32)
		memcpy(&entry, data + 24, 8);   /* e_entry of an ELF64 header */
	entry %= size + 1;
	sy = sym_create(&o);
	if (size >= 20 && (data[size - 1] & 1)) {
		id.build_id = data;
		id.build_id_len = 20;
	}
	d = sym_dso_get(sy, "/obj", 4, &id);
	for (unsigned i = 0; i <= 64; i++) {
		uint64_t off = i < 64 ? (uint64_t)size * i / 64 : entry, vaddr;
		enum sym_miss why;
		const char *name = sym_dso_lookup(sy, d, off, &vaddr, &why);

		if (name && strchr(name, '\n'))
			__builtin_trap();
	}
	unwind_once(sy, data, size, entry);
	sym_destroy(sy);
	return 0;
}
