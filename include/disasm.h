/*
 * disasm.h - a function's machine code as instructions (--annotate
 * --disasm).
 *
 * The bytes come from the ELF file on this machine that the symbolizer
 * read the dso's symbols from (libelf: the section that holds the
 * address range), so a file whose build-id differs from the recorded one
 * is refused, never disassembled in its place.  capstone decodes them for
 * the ELF's machine (x86-64 in AT&T syntax, as perf and objdump show it;
 * aarch64).  Each instruction gets its address, length and text; a jump
 * or call with a known target gets the target named through the dso's
 * symbol table ("main+0x1c", "puts@plt", or the function's own name at
 * its first byte); and each gets the source line libdw gives its address
 * (the innermost one where code is inlined), so that a printer shows a
 * line above each run of instructions from it.
 *
 * A function without symbols or line info still disassembles: names and
 * lines are then NULL and 0.
 */
#ifndef FLAMETOP_DISASM_H
#define FLAMETOP_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct symbolizer;
struct sym_dso;

/* ---- Instructions ---------------------------------------------------------- */

struct disasm_insn {
	uint64_t addr;             /* ELF virtual address */
	uint8_t size;              /* bytes (1 for an undecodable byte) */
	bool call;                 /* a call: its return address is addr + size */
	bool jump;                 /* a jump, conditional or not */
	bool ret;                  /* a return */
	bool has_target;           /* target is known (direct jump or call) */
	uint64_t target;           /* the jump's or call's destination */
	char *target_name;         /* "main+0x1c", "puts@plt"; NULL: no symbol */
	char *text;                /* "mov %rsp, %rbp" ("(bad)": undecodable) */
	const char *file;          /* source path as DWARF names it; NULL: none */
	const char *base;          /* its base name ("main.c"), NULL: none */
	unsigned line;             /* its line, 0: none */
};

struct disasm {
	uint64_t start, end;       /* the range disassembled, [start, end) */
	unsigned machine;          /* the ELF's e_machine (EM_X86_64, ...) */
	struct disasm_insn *insn;  /* in address order */
	size_t n;
	char *path;                /* the file the bytes were read from */
};

/* ---- Making one ------------------------------------------------------------ */

/*
 * Disassemble the ELF addresses [start, end) of d (a function's range, as
 * sym_dso_symbol gives it).  name (may be NULL) is the function's own
 * name, for targets inside it.  Returns NULL with a one-line message in
 * err (cap bytes) when d's file is not here, differs from the recorded
 * build, holds no code at that range, or its machine is not decoded.
 */
struct disasm *disasm_function(struct symbolizer *sy, struct sym_dso *d,
			       const char *name, uint64_t start, uint64_t end,
			       char *err, size_t cap);
void disasm_destroy(struct disasm *dis);

/*
 * Decode code (len bytes at address addr) for ELF machine machine into
 * instructions with their texts and targets, without names or lines.
 * NULL with err set when the machine is not one capstone decodes here.
 * (disasm_function is this plus reading the bytes and naming.)
 */
struct disasm *disasm_bytes(unsigned machine, const uint8_t *code,
			    size_t len, uint64_t addr, char *err, size_t cap);

/*
 * disasm_bytes for code that is in no file flametop reads as ELF (JIT
 * code, from its jitdump): path says where the bytes came from, and
 * targets inside [addr, addr + len) are named name+0x...  No lines: the
 * caller sets them.
 */
struct disasm *disasm_code(unsigned machine, const uint8_t *code, size_t len,
			  uint64_t addr, const char *name, const char *path,
			  char *err, size_t cap);

/* capstone's version and the machines it decodes that flametop asks it
 * for, for --version ("capstone 4.0, x86-64, aarch64"): true when it
 * decodes one of them; or why it cannot be loaded, false (dynlib.h). */
bool disasm_library(char *how, size_t cap);

/* Keep the first n instructions only (end moves with them). */
void disasm_truncate(struct disasm *dis, size_t n);

/* The instruction holding address a (binary search), or NULL. */
const struct disasm_insn *disasm_find(const struct disasm *dis, uint64_t a);

#endif
