/*
 * fuzz-kallsyms.c - the kallsyms reader (--kallsyms FILE) on arbitrary
 * bytes: the bytes are written as the file, then looked up at the address
 * of each of the first lines (and the bytes around it) and at the ends of
 * the address space.  Half the runs also say where the recorded kernel's
 * _text was (from the input's last 8 bytes), so addresses are moved by
 * the KASLR offset between the two.  A name found is one line's name: it
 * holds neither a newline nor a tab.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "fuzz-common.h"
#include "symbols.h"

static void lookup(struct symbolizer *sy, uint64_t addr)
{
	const char *mod, *name = sym_kernel_lookup(sy, addr, &mod);

	if (name && strpbrk(name, "\n\t"))
		__builtin_trap();
	if (!mod || strchr(mod, '\n'))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sym_opts o = { 0 };
	struct symbolizer *sy;
	struct diag d;
	char path[256];
	uint64_t addrs[256];
	size_t n;

	snprintf(path, sizeof(path), "%s/kallsyms",
		 fuzz_write_file("kallsyms", data, size));
	o.kallsyms = path;
	sy = sym_create(&o);
	if (size >= 8 && (data[0] & 1)) {
		uint64_t text;

		memcpy(&text, data + size - 8, 8);
		sym_set_kernel_text(sy, text);
	}
	lookup(sy, 0);
	lookup(sy, UINT64_MAX);
	n = fuzz_line_addrs(data, size, addrs, 256);
	for (size_t i = 0; i < n; i++) {
		lookup(sy, addrs[i] - 1);
		lookup(sy, addrs[i]);
		lookup(sy, addrs[i] + 0x10000);
	}
	diag_init(&d);
	sym_report(sy, &d);
	fuzz_diag_done(&d);
	sym_destroy(sy);
	return 0;
}
