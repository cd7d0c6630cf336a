/*
 * test-disasm.c - disassembly (--annotate --disasm) of tests/data/annotate
 * (see tests/data/README.md): mix() at 0x119c, 127 bytes, 41 instructions
 * as objdump -d lists them; its copy without symbols or DWARF; a file that
 * is another build; tests/data/aarch64 (an aarch64 ELF, chosen by its
 * e_machine); raw aarch64 and undecodable x86-64 bytes.
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "disasm.h"
#include "symbols.h"

#define FIXTURE "/tmp/flametop-fixture/annotate"
#define MIX_START 0x119cu
#define MIX_END (0x119cu + 127u)

/* The build-id of tests/data/annotate (readelf -n). */
static const uint8_t annotate_bid[20] = {
	0xad, 0x3c, 0x02, 0x64, 0x90, 0x52, 0x65, 0x35, 0xc6, 0x9e,
	0xb6, 0xf8, 0x47, 0xf1, 0xb2, 0x95, 0x28, 0x9d, 0x17, 0x86,
};

/* The fixture's dso, its file under the --symfs tree root. */
static struct sym_dso *fixture(struct symbolizer **sy, const char *root)
{
	struct sym_opts o;
	struct sym_file_id id = { .build_id = annotate_bid,
				  .build_id_len = sizeof(annotate_bid) };

	sym_default_opts(&o);
	o.root = root;
	*sy = sym_create(&o);
	return sym_dso_get(*sy, FIXTURE, strlen(FIXTURE), &id);
}

static const struct disasm_insn *at(const struct disasm *dis, uint64_t a)
{
	const struct disasm_insn *in = disasm_find(dis, a);

	assert_non_null(in);
	assert_int_equal(in->addr, a);
	return in;
}

static void test_function(void **state)
{
	struct symbolizer *sy;
	struct sym_dso *d = fixture(&sy, "tests/data/symfs");
	char err[256] = "";
	uint64_t s = 0, e = 0;
	enum sym_miss why;
	const char *name = sym_dso_symbol(sy, d, 0x11f1, &s, &e, &why);
	struct disasm *dis;
	const struct disasm_insn *in;

	(void)state;
	assert_non_null(name);
	assert_string_equal(name, "mix");
	assert_int_equal(s, MIX_START);
	assert_int_equal(e, MIX_END);
	dis = disasm_function(sy, d, name, s, e, err, sizeof(err));
	assert_non_null(dis);
	assert_int_equal(dis->machine, EM_X86_64);
	assert_int_equal(dis->n, 41);
	assert_string_equal(dis->insn[0].text, "pushq %rbp");
	assert_int_equal(dis->insn[40].addr, 0x121a);
	assert_true(dis->insn[40].ret);
	/* A call to another function is named by it. */
	in = at(dis, 0x11fc);
	assert_true(in->call);
	assert_true(in->has_target);
	assert_int_equal(in->target, 0x1181);
	assert_string_equal(in->target_name, "step");
	assert_int_equal(in->size, 5);
	/* A jump inside the function by the function and an offset. */
	in = at(dis, 0x11c4);
	assert_true(in->jump);
	assert_false(in->call);
	assert_int_equal(in->target, 0x11d5);
	assert_string_equal(in->target_name, "mix+0x39");
	in = at(dis, 0x11ca);
	assert_true(in->jump);
	assert_string_equal(in->target_name, "mix+0x5d");
	/* An instruction in the middle is found by any of its bytes. */
	assert_ptr_equal(disasm_find(dis, 0x11f2), at(dis, 0x11f1));
	assert_null(disasm_find(dis, MIX_END));
	/* Source lines (annotate.c), the divide's and the call's. */
	in = at(dis, 0x11f1);
	assert_true(strncmp(in->text, "div", 3) == 0);
	assert_non_null(in->base);
	assert_string_equal(in->base, "annotate.c");
	assert_int_equal(in->line, 27);
	assert_non_null(in->file);
	assert_string_equal(in->file, "/tmp/flametop-fixture/annotate.c");
	assert_int_equal(at(dis, 0x11fc)->line, 29);
	assert_int_equal(at(dis, 0x11d5)->line, 25);
	disasm_destroy(dis);
	sym_destroy(sy);
}

/* Without symbols and DWARF: the same instructions, no names, no lines. */
static void test_stripped(void **state)
{
	struct symbolizer *sy;
	struct sym_dso *d = fixture(&sy, "tests/data/symfs-stripped");
	char err[256] = "";
	uint64_t s, e;
	enum sym_miss why = SYM_MISS_NO_MAP;
	struct disasm *dis;
	const struct disasm_insn *in;

	(void)state;
	assert_null(sym_dso_symbol(sy, d, 0x11f1, &s, &e, &why));
	/* (Its PLT entries still have names.) */
	assert_true(why == SYM_MISS_NO_SYMBOL || why == SYM_MISS_STRIPPED);
	dis = disasm_function(sy, d, NULL, MIX_START, MIX_END, err,
			      sizeof(err));
	assert_non_null(dis);
	assert_int_equal(dis->n, 41);
	in = at(dis, 0x11fc);
	assert_true(in->call);
	assert_int_equal(in->target, 0x1181);
	assert_null(in->target_name);
	for (size_t i = 0; i < dis->n; i++) {
		assert_null(dis->insn[i].file);
		assert_int_equal(dis->insn[i].line, 0);
	}
	disasm_destroy(dis);
	sym_destroy(sy);
}

/* Another build at the recorded path is refused, with a message. */
static void test_other_build(void **state)
{
	struct symbolizer *sy;
	struct sym_dso *d = fixture(&sy, "tests/data/symfs-other");
	char err[256] = "";
	struct disasm *dis;

	(void)state;
	dis = disasm_function(sy, d, "mix", MIX_START, MIX_END, err,
			      sizeof(err));
	assert_null(dis);
	assert_non_null(strstr(err, FIXTURE));
	assert_non_null(strstr(err, "build-id differs"));
	sym_destroy(sy);
}

/* No file at all, and a range that holds no code. */
static void test_missing(void **state)
{
	struct symbolizer *sy;
	struct sym_dso *d = fixture(&sy, "tests/data/no-such-symfs");
	char err[256] = "";

	(void)state;
	assert_null(disasm_function(sy, d, "mix", MIX_START, MIX_END, err,
				    sizeof(err)));
	assert_non_null(strstr(err, "not on this machine"));
	sym_destroy(sy);
	d = fixture(&sy, "tests/data/symfs");
	assert_null(disasm_function(sy, d, "x", 0x10, 0x20, err, sizeof(err)));
	assert_non_null(strstr(err, "no code at 0x10-0x20"));
	sym_destroy(sy);
}

/* An aarch64 ELF: loop() calls tri() and branches back (aarch64.c). */
static void test_aarch64_elf(void **state)
{
	struct sym_opts o;
	struct symbolizer *sy;
	struct sym_dso *d;
	const char *path = "tests/data/aarch64";
	char err[256] = "";
	uint64_t s = 0, e = 0;
	enum sym_miss why;
	const char *name;
	struct disasm *dis;
	const struct disasm_insn *in;

	(void)state;
	sym_default_opts(&o);
	sy = sym_create(&o);
	d = sym_dso_get(sy, path, strlen(path), NULL);
	name = sym_dso_symbol(sy, d, 0x2101a4, &s, &e, &why);
	assert_non_null(name);
	assert_string_equal(name, "loop");
	assert_int_equal(s, 0x21017c);
	assert_int_equal(e, 0x2101d4);
	dis = disasm_function(sy, d, name, s, e, err, sizeof(err));
	assert_non_null(dis);
	assert_int_equal(dis->machine, EM_AARCH64);
	assert_int_equal(dis->n, 22);
	in = at(dis, 0x2101a4);
	assert_true(in->call);
	assert_int_equal(in->target, 0x210170);
	assert_string_equal(in->target_name, "tri");
	assert_string_equal(in->base, "aarch64.c");
	assert_int_equal(in->line, 12);
	in = at(dis, 0x2101b4);
	assert_true(in->jump);
	assert_string_equal(in->target_name, "loop+0x24");
	assert_true(at(dis, 0x2101d0)->ret);
	disasm_destroy(dis);
	sym_destroy(sy);
}

/* aarch64: bl, cbz and ret, their targets; all instructions 4 bytes. */
static void test_aarch64(void **state)
{
	static const uint8_t code[] = {
		0x02, 0x00, 0x00, 0x94,  /* bl   #0x1008 */
		0x40, 0x00, 0x00, 0xb4,  /* cbz  x0, #0x100c */
		0x00, 0x04, 0x00, 0x91,  /* add  x0, x0, #1 */
		0xc0, 0x03, 0x5f, 0xd6,  /* ret */
		0xff, 0xff, 0xff, 0xff,  /* undefined */
		0x1f, 0x20, 0x03, 0xd5,  /* nop */
	};
	char err[128];
	struct disasm *dis = disasm_bytes(EM_AARCH64, code, sizeof(code),
					  0x1000, err, sizeof(err));

	(void)state;
	assert_non_null(dis);
	assert_int_equal(dis->n, 6);
	assert_true(dis->insn[0].call);
	assert_true(dis->insn[0].has_target);
	assert_int_equal(dis->insn[0].target, 0x1008);
	assert_true(strncmp(dis->insn[0].text, "bl ", 3) == 0);
	assert_true(dis->insn[1].jump);
	assert_int_equal(dis->insn[1].target, 0x100c);
	assert_false(dis->insn[2].jump || dis->insn[2].call);
	assert_true(dis->insn[3].ret);
	assert_string_equal(dis->insn[4].text, "(bad)");
	assert_int_equal(dis->insn[4].size, 4);
	assert_string_equal(dis->insn[5].text, "nop");
	assert_int_equal(dis->insn[5].addr, 0x1014);
	/* Cut after the ret: the rest is freed (valgrind), end follows. */
	disasm_truncate(dis, 4);
	assert_int_equal(dis->n, 4);
	assert_int_equal(dis->end, 0x1010);
	assert_null(disasm_find(dis, 0x1010));
	disasm_destroy(dis);
}

/* A byte x86-64 cannot decode is skipped alone; other machines refused. */
static void test_bad_bytes(void **state)
{
	static const uint8_t code[] = { 0x06, 0xc3 };  /* (bad); ret */
	char err[128] = "";
	struct disasm *dis = disasm_bytes(EM_X86_64, code, sizeof(code), 0x40,
					  err, sizeof(err));

	(void)state;
	assert_non_null(dis);
	assert_int_equal(dis->n, 2);
	assert_string_equal(dis->insn[0].text, "(bad)");
	assert_int_equal(dis->insn[0].size, 1);
	assert_true(dis->insn[1].ret);
	assert_int_equal(dis->insn[1].addr, 0x41);
	disasm_destroy(dis);
	assert_null(disasm_bytes(EM_SPARC, code, sizeof(code), 0, err,
				 sizeof(err)));
	assert_non_null(strstr(err, "not one flametop disassembles"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_function),
		cmocka_unit_test(test_stripped),
		cmocka_unit_test(test_other_build),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_aarch64_elf),
		cmocka_unit_test(test_aarch64),
		cmocka_unit_test(test_bad_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
