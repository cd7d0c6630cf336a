/*
 * disasm.c - a function's bytes, decoded by capstone, with targets and
 * source lines named (see disasm.h).
 *
 * The bytes are read with libelf from the section of the file that holds
 * the range (SHT_PROGBITS, executable), by section address: a function's
 * symbol value is an ELF virtual address, which the section headers map
 * to file bytes directly.  capstone's detail mode tells jumps, calls and
 * returns apart (instruction groups) and gives a direct branch's target
 * as its immediate operand.  A byte capstone cannot decode is shown as
 * "(bad)" and decoding goes on after it (after the next 4 bytes on
 * aarch64, whose instructions all have that size), so a data island in
 * code does not end the listing.
 */
#include "disasm.h"

#include <capstone/capstone.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dynlib.h"
#include "symbols.h"
#include "util.h"

/* A function larger than this is cut (its first bytes are shown). */
#define DISASM_MAX_BYTES (16u << 20)

/* capstone, opened on the first listing (dynlib.h), each pointer with the
 * type of the header's declaration. */
static struct {
	__typeof__(cs_version) *version;
	__typeof__(cs_support) *support;
	__typeof__(cs_open) *open;
	__typeof__(cs_close) *close;
	__typeof__(cs_option) *option;
	__typeof__(cs_errno) *errno_;
	__typeof__(cs_strerror) *strerror;
	__typeof__(cs_malloc) *malloc;
	__typeof__(cs_free) *free;
	__typeof__(cs_disasm_iter) *disasm_iter;
	__typeof__(cs_insn_group) *insn_group;
} cs;

static const struct dynlib_fn cs_fns[] = {
	DYNLIB_FN(cs.version, cs_version),
	DYNLIB_FN(cs.support, cs_support),
	DYNLIB_FN(cs.open, cs_open),
	DYNLIB_FN(cs.close, cs_close),
	DYNLIB_FN(cs.option, cs_option),
	DYNLIB_FN(cs.errno_, cs_errno),
	DYNLIB_FN(cs.strerror, cs_strerror),
	DYNLIB_FN(cs.malloc, cs_malloc),
	DYNLIB_FN(cs.free, cs_free),
	DYNLIB_FN(cs.disasm_iter, cs_disasm_iter),
	DYNLIB_FN(cs.insn_group, cs_insn_group),
};

static struct dynlib cs_lib = {
	.what = "capstone", .soname = FLAMETOP_CAPSTONE_SONAME,
	.fns = cs_fns, .nfns = sizeof(cs_fns) / sizeof(cs_fns[0]),
};

bool disasm_library(char *how, size_t cap)
{
	int major = 0, minor = 0;
	bool x86, a64;

	if (!dynlib_open(&cs_lib)) {
		snprintf(how, cap, "%s", cs_lib.err);
		return false;
	}
	cs.version(&major, &minor);
	x86 = cs.support(CS_ARCH_X86);
	a64 = cs.support(CS_ARCH_ARM64);
	snprintf(how, cap, "capstone %d.%d%s%s", major, minor,
		 x86 ? ", x86-64" : "", a64 ? ", aarch64" : "");
	return x86 || a64;
}

static bool machine_arch(unsigned machine, cs_arch *arch, cs_mode *mode)
{
	switch (machine) {
	case EM_X86_64:
		*arch = CS_ARCH_X86;
		*mode = CS_MODE_64;
		return true;
	case EM_AARCH64:
		*arch = CS_ARCH_ARM64;
		*mode = CS_MODE_ARM;
		return true;
	default:
		return false;
	}
}

/* A direct branch's destination: its (last) immediate operand. */
static bool branch_target(cs_arch arch, const cs_insn *in, uint64_t *to)
{
	const cs_detail *dt = in->detail;

	if (!dt)
		return false;
	if (arch == CS_ARCH_X86) {
		const cs_x86 *x = &dt->x86;

		if (x->op_count == 1 && x->operands[0].type == X86_OP_IMM) {
			*to = (uint64_t)x->operands[0].imm;
			return true;
		}
		return false;
	}
	for (int i = dt->arm64.op_count; i-- > 0;)
		if (dt->arm64.operands[i].type == ARM64_OP_IMM) {
			*to = (uint64_t)dt->arm64.operands[i].imm;
			return true;
		}
	return false;
}

static void classify(csh h, cs_arch arch, const cs_insn *in,
		     struct disasm_insn *o)
{
	o->call = cs.insn_group(h, in, CS_GRP_CALL);
	o->ret = cs.insn_group(h, in, CS_GRP_RET);
	o->jump = cs.insn_group(h, in, CS_GRP_JUMP);
	/* capstone 4 puts aarch64's bl/blr in no call group. */
	if (arch == CS_ARCH_ARM64 && (in->id == ARM64_INS_BL ||
				      in->id == ARM64_INS_BLR)) {
		o->call = true;
		o->jump = false;
	}
	if (o->call || o->jump)
		o->has_target = branch_target(arch, in, &o->target);
}

static void add_insn(struct disasm *dis, size_t *cap, uint64_t addr,
		     size_t size, const char *mn, const char *ops)
{
	struct disasm_insn *o;
	size_t lm = strlen(mn), lo = strlen(ops);

	GROW(dis->insn, *cap, dis->n + 1);
	o = &dis->insn[dis->n++];
	memset(o, 0, sizeof(*o));
	o->addr = addr;
	o->size = (uint8_t)size;
	o->text = xmalloc(lm + (lo ? lo + 1 : 0) + 1);
	memcpy(o->text, mn, lm);
	if (lo) {
		o->text[lm] = ' ';
		memcpy(o->text + lm + 1, ops, lo);
	}
	o->text[lm + (lo ? lo + 1 : 0)] = '\0';
}

struct disasm *disasm_bytes(unsigned machine, const uint8_t *code,
			    size_t len, uint64_t addr, char *err, size_t cap)
{
	cs_arch arch;
	cs_mode mode;
	csh h;
	cs_insn *in;
	struct disasm *dis;
	size_t icap = 0, step;

	if (!dynlib_open(&cs_lib)) {
		snprintf(err, cap, "%s", cs_lib.err);
		return NULL;
	}
	if (!machine_arch(machine, &arch, &mode) || !cs.support((int)arch)) {
		snprintf(err, cap, "machine %u (ELF e_machine) is not one "
			 "flametop disassembles (x86-64, aarch64)", machine);
		return NULL;
	}
	if (cs.open(arch, mode, &h) != CS_ERR_OK) {
		snprintf(err, cap, "capstone: %s", cs.strerror(cs.errno_(0)));
		return NULL;
	}
	cs.option(h, CS_OPT_DETAIL, CS_OPT_ON);
	if (arch == CS_ARCH_X86)
		cs.option(h, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	step = arch == CS_ARCH_ARM64 ? 4 : 1;
	dis = xcalloc(1, sizeof(*dis));
	dis->start = addr;
	dis->end = addr + len;
	dis->machine = machine;
	in = cs.malloc(h);
	while (len) {
		const uint8_t *p = code;
		size_t left = len;
		uint64_t at = addr;

		if (cs.disasm_iter(h, &p, &left, &at, in)) {
			add_insn(dis, &icap, in->address, in->size,
				 in->mnemonic, in->op_str);
			classify(h, arch, in, &dis->insn[dis->n - 1]);
		} else {
			size_t n = step < len ? step : len;

			add_insn(dis, &icap, addr, n, "(bad)", "");
			p = code + n;
			left = len - n;
			at = addr + n;
		}
		code = p;
		len = left;
		addr = at;
	}
	cs.free(in, 1);
	cs.close(&h);
	return dis;
}

void disasm_destroy(struct disasm *dis)
{
	if (!dis)
		return;
	for (size_t i = 0; i < dis->n; i++) {
		free(dis->insn[i].text);
		free(dis->insn[i].target_name);
	}
	free(dis->insn);
	free(dis->path);
	free(dis);
}

void disasm_truncate(struct disasm *dis, size_t n)
{
	for (size_t i = n; i < dis->n; i++) {
		free(dis->insn[i].text);
		free(dis->insn[i].target_name);
	}
	if (n < dis->n) {
		dis->n = n;
		dis->end = n ? dis->insn[n - 1].addr + dis->insn[n - 1].size
			     : dis->start;
	}
}

const struct disasm_insn *disasm_find(const struct disasm *dis, uint64_t a)
{
	size_t lo = 0, hi = dis->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dis->insn[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && a - dis->insn[lo - 1].addr < dis->insn[lo - 1].size)
		return &dis->insn[lo - 1];
	return NULL;
}

/*
 * The bytes of [start, end) from the executable section of elf that holds
 * start, cut at the section's end (malloc'd; *len their number), or NULL.
 */
static uint8_t *section_bytes(Elf *elf, uint64_t start, uint64_t end,
			      size_t *len)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;
		uint64_t off, n;
		uint8_t *out;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || start < sh.sh_addr ||
		    start - sh.sh_addr >= sh.sh_size)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf)
			return NULL;
		off = start - sh.sh_addr;
		if (off >= data->d_size)
			return NULL;
		n = end - start;
		if (n > data->d_size - off)
			n = data->d_size - off;
		if (n > DISASM_MAX_BYTES)
			n = DISASM_MAX_BYTES;
		out = xmalloc(n ? n : 1);
		memcpy(out, (const uint8_t *)data->d_buf + off, n);
		*len = n;
		return out;
	}
	return NULL;
}

/* Why d's file cannot be disassembled, as a message. */
static void file_error(const struct sym_dso *d, enum sym_miss why, char *err,
		       size_t cap)
{
	const char *path = sym_dso_path(d);

	switch (why) {
	case SYM_MISS_BUILD_ID:
		snprintf(err, cap, "%s: the file here is another build than "
			 "the profiled one (build-id differs); not disassembled",
			 path);
		break;
	case SYM_MISS_NOT_ELF:
		snprintf(err, cap, "%s: not a readable ELF file", path);
		break;
	default:
		snprintf(err, cap, "%s: not on this machine", path);
		break;
	}
}

/* Name a branch target: through the dso's symbols, "NAME" or "NAME+0xN". */
/* "name+0x1c" for to in the code of name that starts at s. */
static char *name_plus(const char *nm, uint64_t s, uint64_t to)
{
	char buf[32];

	if (to == s)
		return xstrdup(nm);
	snprintf(buf, sizeof(buf), "+0x%" PRIx64, to - s);
	return xasprintf("%s%s", nm, buf);
}

static char *target_name(struct symbolizer *sy, struct sym_dso *d,
			 const char *self, const struct disasm *dis,
			 uint64_t to)
{
	uint64_t s, e;
	enum sym_miss why;
	const char *nm;

	if (self && to >= dis->start && to < dis->end)
		return name_plus(self, dis->start, to);
	if ((nm = sym_dso_symbol(sy, d, to, &s, &e, &why)) == NULL)
		return NULL;
	return name_plus(nm, s, to);
}

/* d's file opened with libelf (*fd to close), or NULL with err set. */
static Elf *open_elf(struct symbolizer *sy, struct sym_dso *d, int *fd,
		     char *err, size_t cap)
{
	enum sym_miss why = SYM_MISS_NO_FILE;
	const char *path = sym_dso_open(sy, d, &why) ? sym_dso_file(d) : NULL;
	Elf *elf;

	*fd = -1;
	if (!path) {
		file_error(d, why, err, cap);
		return NULL;
	}
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0) {
		file_error(d, SYM_MISS_NO_FILE, err, cap);
		return NULL;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(*fd);
		*fd = -1;
		file_error(d, SYM_MISS_NOT_ELF, err, cap);
		return NULL;
	}
	return elf;
}

struct disasm *disasm_function(struct symbolizer *sy, struct sym_dso *d,
			       const char *name, uint64_t start, uint64_t end,
			       char *err, size_t cap)
{
	struct disasm *dis = NULL;
	uint8_t *code = NULL;
	size_t len = 0;
	GElf_Ehdr eh;
	Elf *elf;
	int fd;

	elf = open_elf(sy, d, &fd, err, cap);
	if (!elf)
		return NULL;
	if (!gelf_getehdr(elf, &eh)) {
		file_error(d, SYM_MISS_NOT_ELF, err, cap);
	} else if (end <= start ||
		   !(code = section_bytes(elf, start, end, &len))) {
		snprintf(err, cap, "%s: no code at 0x%" PRIx64 "-0x%" PRIx64,
			 sym_dso_file(d), start, end);
	} else {
		dis = disasm_bytes(eh.e_machine, code, len, start, err, cap);
	}
	elf_end(elf);
	close(fd);
	free(code);
	if (!dis)
		return NULL;
	dis->path = xstrdup(sym_dso_file(d));
	for (size_t i = 0; i < dis->n; i++) {
		struct disasm_insn *o = &dis->insn[i];
		struct sym_srcline ln[1];

		if (o->has_target)
			o->target_name = target_name(sy, d, name, dis,
						     o->target);
		if (sym_dso_lines(sy, d, o->addr, ln, 1) == 1) {
			o->file = ln[0].path;
			o->base = ln[0].file;
			o->line = ln[0].line;
		}
	}
	return dis;
}

struct disasm *disasm_code(unsigned machine, const uint8_t *code, size_t len,
			  uint64_t addr, const char *name, const char *path,
			  char *err, size_t cap)
{
	struct disasm *dis = disasm_bytes(machine, code, len, addr, err, cap);

	if (!dis)
		return NULL;
	dis->path = xstrdup(path);
	for (size_t i = 0; i < dis->n; i++) {
		struct disasm_insn *o = &dis->insn[i];

		if (o->has_target && o->target >= dis->start &&
		    o->target < dis->end)
			o->target_name = name_plus(name, dis->start, o->target);
	}
	return dis;
}
