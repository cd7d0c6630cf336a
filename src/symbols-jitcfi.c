/*
 * symbols-jitcfi.c - unwinding through JIT code: the .eh_frame a runtime
 * writes into its jitdump (JIT_CODE_UNWINDING_INFO, python3.13 -X
 * perf_jit, node --perf-prof-unwinding-info) given to the process's Dwfl.
 *
 * libdwfl finds CFI only in modules, so each piece of JIT code that an
 * unwind stopped in becomes a module of its own: reported over the code's
 * addresses, its ELF made in memory (find_elf below hands it over instead
 * of a file) with nothing but an .eh_frame section, placed where the
 * runtime put it.  The runtime's CFI is position-dependent (PC-relative
 * FDE addresses): it was written to sit right after the code, and its
 * .eh_frame_hdr (the last eh_frame_hdr_size bytes) says how far after
 * (its table's first entry points at the code, relative to the header).
 * Without a header that can be read, the .eh_frame is taken to start at
 * the code's end rounded up to 16 bytes, as python3.13 writes it.
 *
 * Pieces are added lazily, only those that stacks pass through: the
 * unwinder stops at a JIT frame, the piece is added, the stack is unwound
 * again (perf-event.c).  Images live as long as the Dwfl that holds them.
 */
#include "symbols.h"

#include <elf.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "jitdump.h"
#include "perf-procs.h"
#include "symbols-priv.h"
#include "util.h"

#define IMAGE_MAGIC 0x6a697463666921ULL   /* tells our userdata apart */

struct jit_image {
	uint64_t magic;
	uint64_t start, end;    /* the code */
	char *buf;              /* the ELF */
	size_t size;
};

static const char shstrtab[] = "\0.eh_frame\0.shstrtab";

/* Little-endian fields of the .eh_frame_hdr (the only order read). */
static int32_t s32_at(const uint8_t *p)
{
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
			 (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

/*
 * Where the runtime meant the .eh_frame (eh bytes) to lie for code at
 * start: from the header's first table entry (version 1, eh_frame_ptr
 * pcrel|sdata4, count udata4, table datarel|sdata4), else after the code.
 */
static uint64_t eh_frame_addr(const struct jitdump_unwind *u,
			      const struct jitdump_code *c, uint64_t eh)
{
	const uint8_t *h = u->data + eh;

	if (u->eh_frame_hdr_size >= 20 && h[0] == 1 && h[1] == 0x1b &&
	    h[2] == 0x03 && h[3] == 0x3b && s32_at(h + 8) > 0) {
		/* code = hdr + init; the hdr follows the .eh_frame. */
		int64_t init = s32_at(h + 12);

		return c->start - (uint64_t)init - eh;
	}
	return c->start + ((c->end - c->start + 15) & ~(uint64_t)15);
}

/* An ELF holding the .eh_frame at vaddr (x86-64: the unwinder's arch). */
static struct jit_image *image_make(const struct jitdump_unwind *u,
				    const struct jitdump_code *c)
{
	uint64_t eh = u->size - u->eh_frame_hdr_size;
	size_t off_eh = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr);
	size_t off_str = off_eh + (size_t)eh;
	size_t off_sh = (off_str + sizeof(shstrtab) + 7) & ~(size_t)7;
	struct jit_image *im = xcalloc(1, sizeof(*im));
	Elf64_Ehdr *e;
	Elf64_Phdr *ph;
	Elf64_Shdr *sh;
	uint64_t at = eh_frame_addr(u, c, eh);

	im->magic = IMAGE_MAGIC;
	im->start = c->start;
	im->end = c->end;
	im->size = off_sh + 3 * sizeof(Elf64_Shdr);
	im->buf = xcalloc(1, im->size);
	e = (Elf64_Ehdr *)(void *)im->buf;
	memcpy(e->e_ident, ELFMAG, SELFMAG);
	e->e_ident[EI_CLASS] = ELFCLASS64;
	e->e_ident[EI_DATA] = ELFDATA2LSB;
	e->e_ident[EI_VERSION] = EV_CURRENT;
	e->e_type = ET_EXEC;
	e->e_machine = EM_X86_64;
	e->e_version = EV_CURRENT;
	e->e_phoff = sizeof(*e);
	e->e_shoff = off_sh;
	e->e_ehsize = sizeof(*e);
	e->e_phentsize = sizeof(*ph);
	e->e_phnum = 1;
	e->e_shentsize = sizeof(*sh);
	e->e_shnum = 3;
	e->e_shstrndx = 2;
	/* The code's range: the module's addresses, at bias 0. */
	ph = (Elf64_Phdr *)(void *)(im->buf + sizeof(*e));
	ph->p_type = PT_LOAD;
	ph->p_flags = PF_R | PF_X;
	ph->p_vaddr = ph->p_paddr = c->start;
	ph->p_memsz = c->end - c->start;
	ph->p_align = 1;
	memcpy(im->buf + off_eh, u->data, (size_t)eh);
	memcpy(im->buf + off_str, shstrtab, sizeof(shstrtab));
	sh = (Elf64_Shdr *)(void *)(im->buf + off_sh);
	sh[1].sh_name = 1;                      /* .eh_frame */
	sh[1].sh_type = SHT_PROGBITS;
	sh[1].sh_flags = SHF_ALLOC;
	sh[1].sh_addr = at;
	sh[1].sh_offset = off_eh;
	sh[1].sh_size = eh;
	sh[1].sh_addralign = 1;
	sh[2].sh_name = 11;                     /* .shstrtab */
	sh[2].sh_type = SHT_STRTAB;
	sh[2].sh_offset = off_str;
	sh[2].sh_size = sizeof(shstrtab);
	sh[2].sh_addralign = 1;
	return im;
}

void sym_jit_images_free(struct proc_state *ps)
{
	for (size_t i = 0; i < ps->nimages; i++) {
		free(ps->images[i]->buf);
		free(ps->images[i]);
	}
	free(ps->images);
	ps->images = NULL;
	ps->nimages = ps->capimages = 0;
}

int sym_find_elf(Dwfl_Module *mod, void **userdata, const char *modname,
		 Dwarf_Addr base, char **file_name, Elf **elfp)
{
	const struct jit_image *im = *userdata;

	if (im && im->magic == IMAGE_MAGIC) {
		*file_name = NULL;
		*elfp = elf_memory(im->buf, im->size);
		return -1;
	}
	return dwfl_build_id_find_elf(mod, userdata, modname, base, file_name,
				      elfp);
}

bool sym_proc_add_jit_cfi(struct symbolizer *sy, struct pe_proc *pr,
			  uint64_t pc, uint64_t t)
{
	struct proc_state *ps = *pe_proc_sym_slot(pr);
	struct jitdump *jd = sym_jitdump_of(sy, pe_proc_pid(pr));
	struct jitdump_unwind u;
	struct jitdump_code c;
	struct jit_image *im;
	Dwfl_Module *mod;
	void **ud;

	if (!ps || !ps->dwfl || !jd || !jitdump_unwind(jd, pc, t, &u, &c) ||
	    u.size <= u.eh_frame_hdr_size || c.end <= c.start ||
	    dwfl_addrmodule(ps->dwfl, pc) || ps->nimages >= 65536)
		return false;
	/* No module may overlap another: those already there stay. */
	for (size_t i = 0; i < ps->nimages; i++)
		if (ps->images[i]->start < c.end && c.start < ps->images[i]->end)
			return false;
	im = image_make(&u, &c);
	dwfl_report_begin_add(ps->dwfl);
	mod = dwfl_report_module(ps->dwfl, "[jit]", c.start, c.end);
	if (mod && dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL,
				    NULL))
		*ud = im;
	dwfl_report_end(ps->dwfl, NULL, NULL);
	if (!mod) {
		free(im->buf);
		free(im);
		return false;
	}
	GROW(ps->images, ps->capimages, ps->nimages + 1);
	ps->images[ps->nimages++] = im;
	return true;
}
