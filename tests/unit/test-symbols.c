/*
 * test-symbols.c - the symbolizer on real files of this process (its own
 * executable and libc, found through /proc/self/maps), demangling, kallsyms
 * and JIT map parsing from files written here, the reasons for misses and
 * the per-process Dwfl an unwinder uses; the choice among aliases and
 * labels on tests/data/aliases.so (see tests/data/README.md).
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <gelf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "diag.h"
#include "perf-event.h"
#include "profile.h"
#include "symbols.h"

__attribute__((noinline)) int flametop_test_marker(int x);
__attribute__((noinline)) int flametop_test_marker(int x)
{
	return x * 3 + 1;
}

struct mapping {
	uint64_t start, end, pgoff;
	char path[512];
};

/* The mapping of this process that holds addr. */
static bool find_mapping(uint64_t addr, struct mapping *m)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long a, b, off;
		char perms[8];
		int pos = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s%n", &a, &b, perms,
			   &off, &pos) < 4)
			continue;
		if (addr < a || addr >= b)
			continue;
		m->start = a;
		m->end = b;
		m->pgoff = off;
		{
			const char *p = line + pos;

			while (*p == ' ')
				p++;
			snprintf(m->path, sizeof(m->path), "%s", p);
			m->path[strcspn(m->path, "\n")] = 0;
		}
		found = true;
	}
	fclose(f);
	return found;
}

static const char *lookup_own(struct symbolizer *sy, uint64_t addr,
			      enum sym_miss *why)
{
	struct mapping m;
	struct sym_dso *d;
	uint64_t vaddr;

	if (!find_mapping(addr, &m))
		return NULL;
	d = sym_dso_get(sy, m.path, strlen(m.path), NULL);
	return sym_dso_lookup(sy, d, m.pgoff + addr - m.start, &vaddr, why);
}

static void test_own_executable(void **state)
{
	struct sym_opts o = { .demangle = true };
	struct symbolizer *sy = sym_create(&o);
	enum sym_miss why = SYM_MISS_COUNT;
	uint64_t a = (uint64_t)(uintptr_t)&flametop_test_marker;

	(void)state;
	assert_string_equal(lookup_own(sy, a, &why), "flametop_test_marker");
	/* Inside the function, not only at its start. */
	assert_string_equal(lookup_own(sy, a + 3, &why), "flametop_test_marker");
	assert_int_equal(flametop_test_marker(1), 4);
	sym_destroy(sy);
}

static void test_libc(void **state)
{
	struct sym_opts o = { .demangle = true };
	struct symbolizer *sy = sym_create(&o);
	enum sym_miss why = SYM_MISS_COUNT;
	const char *name;

	(void)state;
	/* qsort has no aliases: the name is certain. */
	name = lookup_own(sy, (uint64_t)(uintptr_t)&qsort, &why);
	assert_non_null(name);
	assert_non_null(strstr(name, "qsort"));
	/* No version suffix ("@@GLIBC_2.2.5") in any name. */
	name = lookup_own(sy, (uint64_t)(uintptr_t)&fopen, &why);
	assert_non_null(name);
	assert_null(strchr(name, '@'));
	sym_destroy(sy);
}

/* libc's free: aliased by __libc_free and by cfree (a hidden version). */
static void test_libc_free(void **state)
{
	struct sym_opts o = { .demangle = true };
	struct symbolizer *sy = sym_create(&o);
	enum sym_miss why = SYM_MISS_COUNT;
	/* libc's own free, not a sanitizer's that the program links. */
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	void *fn = libc ? dlsym(libc, "free") : NULL;
	const char *name;

	(void)state;
	if (!fn) {
		if (libc)
			dlclose(libc);
		sym_destroy(sy);
		skip();
	}
	name = lookup_own(sy, (uint64_t)(uintptr_t)fn, &why);
	assert_non_null(name);
	assert_string_equal(name, "free");
	dlclose(libc);
	sym_destroy(sy);
}

/*
 * The ELF address of a .dynsym symbol of the file at path, as a file
 * offset (what a sample's mapping gives the symbolizer).
 */
static uint64_t dynsym_offset(const char *path, const char *want)
{
	int fd = open(path, O_RDONLY);
	Elf *elf;
	Elf_Scn *scn = NULL;
	uint64_t addr = 0, off = 0;
	size_t nph = 0;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 1; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *nm;

			if (!gelf_getsym(d, (int)i, &sym))
				break;
			nm = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (nm && strcmp(nm, want) == 0)
				addr = sym.st_value;
		}
	}
	assert_true(addr != 0);
	assert_int_equal(elf_getphdrnum(elf, &nph), 0);
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_filesz)
			off = addr - ph.p_vaddr + ph.p_offset;
	}
	elf_end(elf);
	close(fd);
	assert_true(off != 0);
	return off;
}

/*
 * tests/data/aliases.so with .symtab (names with "@VERSION") and without
 * (.dynsym names, versions in .gnu.version).
 */
static const char *const alias_files[] = {
	"tests/data/aliases.so", "tests/data/aliases-stripped.so",
};

/* The name of the symbol at offset delta from symbol sym of file i. */
static void assert_name_at(size_t i, const char *sym, uint64_t delta,
			   const char *want)
{
	struct sym_opts o = { .demangle = true };
	struct symbolizer *sy = sym_create(&o);
	struct sym_dso *d = sym_dso_get(sy, alias_files[i],
					strlen(alias_files[i]), NULL);
	enum sym_miss why = SYM_MISS_COUNT;
	uint64_t va;
	const char *name = sym_dso_lookup(sy, d,
					  dynsym_offset(alias_files[i], sym) +
					  delta, &va, &why);

	assert_non_null(name);
	assert_string_equal(name, want);
	sym_destroy(sy);
}

/*
 * Not obsolete_release, a hidden version (and the longest name), nor
 * __lib_release (more underscores).
 */
static void test_aliases(void **state)
{
	(void)state;
	for (size_t i = 0; i < 2; i++) {
		assert_name_at(i, "lib_release", 0, "lib_release");
		assert_name_at(i, "lib_release", 4, "lib_release");
	}
}

/* The label inside spin_outer takes none of its code. */
static void test_labels(void **state)
{
	(void)state;
	assert_true(dynsym_offset(alias_files[0], "inner_label") >
		    dynsym_offset(alias_files[0], "spin_outer"));
	for (size_t i = 0; i < 2; i++) {
		assert_name_at(i, "spin_outer", 0, "spin_outer");
		assert_name_at(i, "inner_label", 0, "spin_outer");
		assert_name_at(i, "inner_label", 2, "spin_outer");
	}
}

static void test_misses(void **state)
{
	struct sym_opts o = { .demangle = true };
	struct symbolizer *sy = sym_create(&o);
	struct diag d;
	enum sym_miss why = SYM_MISS_COUNT;
	uint64_t vaddr;
	struct sym_dso *gone = sym_dso_get(sy, "/nonexistent/lib.so", 19, NULL);
	struct mapping m;
	uint8_t wrong[20];
	struct sym_file_id id = { .build_id = wrong, .build_id_len = 20 };
	char text[1024];
	FILE *f;

	(void)state;
	assert_null(sym_dso_lookup(sy, gone, 0x1000, &vaddr, &why));
	assert_int_equal(why, SYM_MISS_NO_FILE);
	sym_count_miss(sy, why);
	/* This executable with a build-id that is not its own. */
	memset(wrong, 0x5a, sizeof(wrong));
	assert_true(find_mapping((uint64_t)(uintptr_t)&flametop_test_marker,
				 &m));
	{
		struct sym_dso *other = sym_dso_get(sy, m.path, strlen(m.path),
						    &id);

		assert_null(sym_dso_lookup(sy, other, m.pgoff, &vaddr, &why));
		assert_int_equal(why, SYM_MISS_BUILD_ID);
		sym_count_miss(sy, why);
	}
	assert_int_equal(sym_misses(sy, SYM_MISS_NO_FILE), 1);
	assert_int_equal(sym_misses(sy, SYM_MISS_BUILD_ID), 1);
	diag_init(&d);
	sym_report(sy, &d);
	f = fmemopen(text, sizeof(text), "w");
	diag_print(&d, f, "flametop");
	fclose(f);
	assert_non_null(strstr(text, "1 frames unresolved in files missing on "
				     "this machine (/nonexistent/lib.so)"));
	assert_non_null(strstr(text, "1 frames unresolved in files that differ "
				     "from the profiled ones (build-id mismatch"));
	diag_free(&d);
	sym_destroy(sy);
}

static void test_demangle(void **state)
{
	char *s;

	(void)state;
	assert_null(sym_demangle("main"));
	assert_null(sym_demangle("_Znot_really"));
#ifdef HAVE_LIBIBERTY
	/* Built with libiberty: the library must say so and demangle (a
	 * library object built without it returns NULL here). */
	assert_non_null(sym_demangler());
	s = sym_demangle("_ZNSt6vectorIiSaIiEE9push_backERKi");
	assert_non_null(s);
	assert_string_equal(s, "std::vector<int, std::allocator<int> >::push_back");
	free(s);
	s = sym_demangle("_ZN4core3fmt5write17h0123456789abcdefE");
	assert_non_null(s);
	assert_string_equal(s, "core::fmt::write");
	free(s);
	s = sym_demangle("_RNvCs15kBYyAo9fc_7mycrate7example");
	assert_non_null(s);
	assert_string_equal(s, "mycrate::example");
	free(s);
#else
	(void)s;
	assert_null(sym_demangler());
	skip();
#endif
}

static char *write_temp(const char *text, char *path)
{
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/*
 * The kallsyms text of test_kallsyms, its newline at the end (the file is
 * mapped) or not (it is read): the same names either way.
 */
static const char ksyms_text[] =
	"ffffffff81000000 T _text\n"
	/*
	 * Out of address order (sorted when read); a "0x" or blanks before
	 * the address, as strtoull reads them.
	 */
	"0xffffffff81000400 T after_last\n"
	"  FFFFFFFF81000500 t far_after\n"
	"ffffffff81000100 T memcpy\n"
	"ffffffff81000100 T __pi_memcpy\n"
	"ffffffff81000180 t __pfx_helper\n"
	"ffffffff81000190 t helper\n"
	"ffffffff81000200 D some_data\n"
	"ffffffff81000300 T last_text\n"
	"ffffffffc0001000 t mod_fn\t[ext4]\n"
	/* A second tab stays in the module's name. */
	"ffffffffc0002000 t mod_two\t[m2]\textra\n"
	/* 16 digits, read eight at a time: upper case, a non-digit. */
	"FFFFFFFF81000600 t upper_case\n"
	"ffffffff8100g700 t not_hex\n"
	"ffffffff:1000800 t not_hex_either\n"
	"garbage line\n"
	"ffffffffc0003000 t mod_last\t[m3]\n";

static void check_kallsyms(const char *text)
{
	/* Each address, the name and module a lookup gives. */
	static const struct {
		uint64_t addr;
		const char *name, *mod;
	} want[] = {
		/* Of two names at one address, the later one, as perf shows. */
		{ 0xffffffff81000105, "__pi_memcpy", "[kernel.kallsyms]" },
		{ 0xffffffff81000184, "__pfx_helper", "[kernel.kallsyms]" },
		/* Data symbols are not functions: helper reaches last_text. */
		{ 0xffffffff81000250, "helper", "[kernel.kallsyms]" },
		{ 0xffffffff81000410, "after_last", "[kernel.kallsyms]" },
		{ 0xffffffff81000510, "far_after", "[kernel.kallsyms]" },
		{ 0xffffffff81000610, "upper_case", "[kernel.kallsyms]" },
		{ 0xffffffff81000910, "upper_case", "[kernel.kallsyms]" },
		{ 0xffffffffc0001004, "mod_fn", "[ext4]" },
		/* Asked again: the same (its end was marked the first time). */
		{ 0xffffffffc0001008, "mod_fn", "[ext4]" },
		{ 0xffffffffc0002010, "mod_two", "[m2]\textra" },
		{ 0xffffffffc0003010, "mod_last", "[m3]" },
	};
	char path[] = "/tmp/flametop-ksyms-XXXXXX";
	struct sym_opts o = { .kallsyms = write_temp(text, path) };
	struct symbolizer *sy = sym_create(&o);
	const char *mod;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_string_equal(sym_kernel_lookup(sy, want[i].addr, &mod),
				    want[i].name);
		assert_string_equal(mod, want[i].mod);
	}
	assert_null(sym_kernel_lookup(sy, 0xffffffff80000000, &mod));
	sym_destroy(sy);
	unlink(path);
}

static void test_kallsyms(void **state)
{
	char *cut = strdup(ksyms_text);

	(void)state;
	assert_non_null(cut);
	check_kallsyms(ksyms_text);
	cut[strlen(cut) - 1] = 0;       /* no newline at the end */
	check_kallsyms(cut);
	free(cut);
}

static void test_kallsyms_hidden(void **state)
{
	char path[] = "/tmp/flametop-ksyms-XXXXXX";
	struct sym_opts o = { .kallsyms = write_temp(
		"0000000000000000 T _text\n"
		"0000000000000000 T memcpy\n", path) };
	struct symbolizer *sy = sym_create(&o);
	const char *mod;

	(void)state;
	/* kptr_restrict: all zeros, nothing resolves. */
	assert_null(sym_kernel_lookup(sy, 0xffffffff81000105, &mod));
	sym_destroy(sy);
	unlink(path);
}

/* Another kernel's profile: its kallsyms from perf's build-id cache. */
static void test_kallsyms_from_cache(void **state)
{
	char home[] = "/tmp/flametop-home-XXXXXX";
	char path[512];
	const char *old = getenv("HOME");
	char *saved = old ? strdup(old) : NULL;
	uint8_t bid[20];
	struct symbolizer *sy;
	struct sym_opts o = { .demangle = true };
	const char *mod;
	FILE *f;

	(void)state;
	if (access("/sys/kernel/notes", R_OK) != 0) {
		free(saved);
		skip();
	}
	memset(bid, 0xab, sizeof(bid));
	assert_non_null(mkdtemp(home));
	snprintf(path, sizeof(path), "%s/.debug", home);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/.debug/[kernel.kallsyms]", home);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/.debug/[kernel.kallsyms]/"
		 "abababababababababababababababababababab", home);
	mkdir(path, 0755);
	strcat(path, "/kallsyms");
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("ffffffff81000000 T _text\n"
	      "ffffffff81000100 T other_kernel_fn\n", f);
	fclose(f);
	setenv("HOME", home, 1);
	sy = sym_create(&o);
	sym_set_kernel_build_id(sy, bid, sizeof(bid));
	assert_string_equal(sym_kernel_lookup(sy, 0xffffffff81000110, &mod),
			    "other_kernel_fn");
	sym_destroy(sy);
	if (saved)
		setenv("HOME", saved, 1);
	free(saved);
	unlink(path);
	*strrchr(path, '/') = 0;
	rmdir(path);
	*strrchr(path, '/') = 0;
	rmdir(path);
	*strrchr(path, '/') = 0;
	rmdir(path);
	rmdir(home);
}

static void test_jit_map(void **state)
{
	char dir[] = "/tmp/flametop-jit-XXXXXX";
	char *path;
	FILE *f;
	struct sym_opts o = { 0 };
	struct symbolizer *sy;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = malloc(strlen(dir) + 32);
	sprintf(path, "%s/perf-4242.map", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("7f0000001000 100 LazyCompile:~foo app.js:1\n"
	      "7f0000002000 80 bar\n"
	      "not a line\n"
	      "7f0000001000 100 recompiled_foo\n", f);
	fclose(f);
	o.jit_dir = dir;
	sy = sym_create(&o);
	/* Later lines win over earlier ones for the same code. */
	assert_string_equal(sym_jit_lookup(sy, 4242, 0x7f0000001010),
			    "recompiled_foo");
	assert_string_equal(sym_jit_lookup(sy, 4242, 0x7f000000207f), "bar");
	assert_null(sym_jit_lookup(sy, 4242, 0x7f0000002080));
	assert_null(sym_jit_lookup(sy, 4243, 0x7f0000001010));
	/* The JIT compiles more: a grown map is read again (at most 1/s). */
	f = fopen(path, "a");
	assert_non_null(f);
	fputs("7f0000003000 10 compiled_later\n", f);
	fclose(f);
	usleep(1100000);
	assert_string_equal(sym_jit_lookup(sy, 4242, 0x7f0000003004),
			    "compiled_later");
	assert_string_equal(sym_jit_lookup(sy, 4242, 0x7f0000001010),
			    "recompiled_foo");
	sym_jit_forget(sy, 4242);
	sym_destroy(sy);
	unlink(path);
	rmdir(dir);
	free(path);
}

/*
 * A mapped file's path may name a FIFO by the time it is read (the file
 * was replaced): it is not opened to wait for a writer, and counts as no
 * readable ELF.
 */
static void test_fifo_path(void **state)
{
	char dir[] = "/tmp/flametop-fifo-XXXXXX", path[64];
	struct sym_opts o = { 0 };
	struct symbolizer *sy = sym_create(&o);
	struct sym_dso *d;
	enum sym_miss why = SYM_MISS_COUNT;
	uint64_t vaddr;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/lib.so", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	d = sym_dso_get(sy, path, strlen(path), NULL);
	assert_null(sym_dso_lookup(sy, d, 0x1000, &vaddr, &why));
	assert_int_equal(why, SYM_MISS_NOT_ELF);
	sym_destroy(sy);
	unlink(path);
	rmdir(dir);
}

/*
 * Destroy sy after checking what sym_report says: it holds note, or
 * (note NULL) says nothing of the JIT map.
 */
static void destroy_with_note(struct symbolizer *sy, const char *note)
{
	char text[2048] = "";
	struct diag d;
	FILE *f;

	diag_init(&d);
	sym_report(sy, &d);
	f = fmemopen(text, sizeof(text), "w");
	assert_non_null(f);
	diag_print(&d, f, "flametop");
	fclose(f);
	diag_free(&d);
	if (note)
		assert_non_null(strstr(text, note));
	else
		assert_null(strstr(text, "perf-4242.map"));
	sym_destroy(sy);
}

/* A JIT map in a new directory: its path (malloc'd), dir filled in. */
static char *jit_fixture(char *dir, const char *text)
{
	char *path;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	path = malloc(strlen(dir) + 32);
	assert_non_null(path);
	sprintf(path, "%s/perf-4242.map", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/*
 * Anyone can write /tmp/perf-PID.map: a map owned by another user than
 * root or this one is not read (a root flametop -a would believe it), and
 * the user is told.
 */
static void test_jit_map_owner(void **state)
{
	char dir[] = "/tmp/flametop-jit-XXXXXX";
	char *path = jit_fixture(dir, "7f0000001000 100 planted_name\n");
	struct sym_opts o = { .jit_dir = dir };
	struct symbolizer *sy;

	(void)state;
	if (geteuid() != 0) {
		unlink(path);
		rmdir(dir);
		free(path);
		skip();
	}
	assert_int_equal(chown(path, 65534, 65534), 0);
	sy = sym_create(&o);
	assert_null(sym_jit_lookup(sy, 4242, 0x7f0000001010));
	destroy_with_note(sy, "perf-4242.map: owned by uid 65534, and "
			  "only maps owned by root or by this user "
			  "(uid 0) are read");
	/* The same file, owned by root, is read. */
	assert_int_equal(chown(path, 0, 0), 0);
	sy = sym_create(&o);
	assert_string_equal(sym_jit_lookup(sy, 4242, 0x7f0000001010),
			    "planted_name");
	destroy_with_note(sy, NULL);
	unlink(path);
	rmdir(dir);
	free(path);
}

/* A FIFO or a symbolic link where the map should be is not opened. */
static void test_jit_map_not_a_file(void **state)
{
	char dir[] = "/tmp/flametop-jit-XXXXXX", *path, *real;
	struct sym_opts o = { 0 };
	struct symbolizer *sy;

	(void)state;
	assert_non_null(mkdtemp(dir));
	o.jit_dir = dir;
	path = malloc(strlen(dir) + 32);
	real = malloc(strlen(dir) + 32);
	assert_non_null(path);
	assert_non_null(real);
	sprintf(path, "%s/perf-4242.map", dir);
	sprintf(real, "%s/real.map", dir);
	/* A FIFO nobody writes to: opening it to read would block. */
	assert_int_equal(mkfifo(path, 0600), 0);
	sy = sym_create(&o);
	assert_null(sym_jit_lookup(sy, 4242, 0x7f0000001010));
	destroy_with_note(sy, "perf-4242.map: not a regular file");
	unlink(path);
	/* A link to a map: not followed. */
	{
		FILE *f = fopen(real, "w");

		assert_non_null(f);
		fputs("7f0000001000 100 linked_name\n", f);
		fclose(f);
	}
	assert_int_equal(symlink(real, path), 0);
	sy = sym_create(&o);
	assert_null(sym_jit_lookup(sy, 4242, 0x7f0000001010));
	destroy_with_note(sy, "perf-4242.map: a symbolic link");
	unlink(path);
	unlink(real);
	rmdir(dir);
	free(path);
	free(real);
}

/*
 * Hostile sizes: a line of 1 MB is skipped (the lines around it are
 * read), a map of millions of lines keeps its first 2^20 entries, and of
 * a map larger than 64 MiB only the first 64 MiB are read.
 */
static void test_jit_map_bounds(void **state)
{
	char dir[] = "/tmp/flametop-jit-XXXXXX";
	char *path = jit_fixture(dir, "7f0000001000 100 before\n");
	struct sym_opts o = { .jit_dir = dir };
	struct symbolizer *sy;
	FILE *f;

	(void)state;
	f = fopen(path, "a");
	assert_non_null(f);
	fputs("7f0000002000 100 ", f);
	for (int i = 0; i < 1 << 20; i++)
		fputc('x', f);
	fputs("\n7f0000003000 100 after\n", f);
	fclose(f);
	sy = sym_create(&o);
	assert_string_equal(sym_jit_lookup(sy, 4242, 0x7f0000001010), "before");
	assert_null(sym_jit_lookup(sy, 4242, 0x7f0000002010));
	assert_string_equal(sym_jit_lookup(sy, 4242, 0x7f0000003010), "after");
	destroy_with_note(sy, "perf-4242.map: skipped 1 line longer "
			  "than 4096 bytes");

	/* 1.5 million entries: the first 2^20 are kept. */
	f = fopen(path, "w");
	assert_non_null(f);
	for (unsigned i = 0; i < 1500000; i++)
		fprintf(f, "%x 1 f\n", 0x100000 + i);
	fclose(f);
	sy = sym_create(&o);
	assert_string_equal(sym_jit_lookup(sy, 4242, 0x100000), "f");
	assert_string_equal(sym_jit_lookup(sy, 4242, 0x100000 + (1 << 20) - 1),
			    "f");
	assert_null(sym_jit_lookup(sy, 4242, 0x100000 + (1 << 20)));
	destroy_with_note(sy, "perf-4242.map: kept its first 1048576 "
			  "entries, skipped 451424");

	/* 100 MiB (a sparse file): its first 64 MiB are read. */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("7f0000001000 100 first\n", f);
	fclose(f);
	assert_int_equal(truncate(path, 100 << 20), 0);
	sy = sym_create(&o);
	assert_string_equal(sym_jit_lookup(sy, 4242, 0x7f0000001010), "first");
	destroy_with_note(sy, "perf-4242.map: read only its first "
			  "67108864 of 104857600 bytes");
	unlink(path);
	rmdir(dir);
	free(path);
}

/* A Dwfl of this very process, built from its maps as the tracker has them. */
static void test_proc_dwfl(void **state)
{
	struct sym_opts o = { .demangle = true };
	struct symbolizer *sy = sym_create(&o);
	struct profile *p = profile_create();
	struct pe_machine *m = pe_machine_create(sy, p, NULL);
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];
	uint32_t pid = (uint32_t)getpid();
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf_Addr a = (Dwarf_Addr)(uintptr_t)&flametop_test_marker;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perms[8];
		int pos = 0;
		const char *path;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s%n", &s, &e, perms,
			   &off, &pos) < 4 || perms[2] != 'x')
			continue;
		path = line + pos;
		while (*path == ' ')
			path++;
		if (*path != '/')
			continue;
		pe_machine_add_map(m, pid, s, e - s, off, path,
				   strcspn(path, "\n"), NULL);
	}
	fclose(f);
	dwfl = sym_proc_dwfl(sy, pe_machine_proc(m, pid));
	assert_non_null(dwfl);
	mod = dwfl_addrmodule(dwfl, a);
	assert_non_null(mod);
	assert_string_equal(dwfl_module_addrname(mod, a), "flametop_test_marker");
	/* The same Dwfl again while the maps do not change. */
	assert_ptr_equal(sym_proc_dwfl(sy, pe_machine_proc(m, pid)), dwfl);
	pe_machine_destroy(m);
	profile_destroy(p);
	sym_destroy(sy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_executable),
		cmocka_unit_test(test_libc),
		cmocka_unit_test(test_libc_free),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_misses),
		cmocka_unit_test(test_demangle),
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_kallsyms_hidden),
		cmocka_unit_test(test_kallsyms_from_cache),
		cmocka_unit_test(test_fifo_path),
		cmocka_unit_test(test_jit_map),
		cmocka_unit_test(test_jit_map_owner),
		cmocka_unit_test(test_jit_map_not_a_file),
		cmocka_unit_test(test_jit_map_bounds),
		cmocka_unit_test(test_proc_dwfl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
