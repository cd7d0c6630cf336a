/*
 * test-unwind.c - the DWARF unwinder on real stacks: this test takes a
 * "sample" of itself (every user register at one instruction, and a copy
 * of its own stack from there up), which is exactly what the kernel puts
 * in a PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER record, and unwinds
 * it through a Dwfl of its own process.  The expected call path is the
 * one the test made: grab <- level3 <- level2 (with inl_mid inlined into
 * it) <- level1 <- the test function <- ... <- main.
 *
 * The same sample then goes through the perf-event tracker to check the
 * folded stack users see: user frames joined root first, the inlined
 * function as its own "_[i]" frame, and none with --no-inline.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <elfutils/libdwfl.h>

#include "export.h"
#include "perf-event.h"
#include "profile.h"
#include "read.h"
#include "symbols.h"
#include "unwind.h"

#define STACK_COPY 16384

#if defined(__x86_64__)

/* A captured sample: perf_regs in mask order (0xff0fff), the stack copy. */
struct snap {
	uint64_t regs[20];
	unsigned char stack[STACK_COPY];
	uint64_t len;
	uint64_t top;             /* end of the [stack] mapping */
};

static struct snap snap;

/* Keep the functions of the call path whole and named as written. */
#if defined(__clang__)
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noinline, noclone))
#endif

/* The end of the main thread's stack mapping. */
static uint64_t stack_top(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	uint64_t top = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi;

		if (strstr(line, "[stack]") &&
		    sscanf(line, "%llx-%llx", &lo, &hi) == 2)
			top = hi;
	}
	fclose(f);
	return top;
}

/*
 * Registers at one instruction of grab, then the stack from that SP up.
 * The copy reads the callers' frames word by word, redzones included, so
 * it must not be instrumented.
 */
KEEP __attribute__((no_sanitize_address))
static void grab(struct snap *sn)
{
	uint64_t *r = sn->regs;
	volatile const uint64_t *from;
	uint64_t n;

	__asm__ volatile(
		"movq %%rax, 0(%0)\n\t"
		"movq %%rbx, 8(%0)\n\t"
		"movq %%rcx, 16(%0)\n\t"
		"movq %%rdx, 24(%0)\n\t"
		"movq %%rsi, 32(%0)\n\t"
		"movq %%rdi, 40(%0)\n\t"
		"movq %%rbp, 48(%0)\n\t"
		"movq %%rsp, 56(%0)\n\t"
		"movq $0, 72(%0)\n\t"
		"movq $0, 80(%0)\n\t"
		"movq $0, 88(%0)\n\t"
		"movq %%r8, 96(%0)\n\t"
		"movq %%r9, 104(%0)\n\t"
		"movq %%r10, 112(%0)\n\t"
		"movq %%r11, 120(%0)\n\t"
		"movq %%r12, 128(%0)\n\t"
		"movq %%r13, 136(%0)\n\t"
		"movq %%r14, 144(%0)\n\t"
		"movq %%r15, 152(%0)\n\t"
		"leaq 1f(%%rip), %%r11\n\t"
		"movq %%r11, 64(%0)\n"
		"1:\n\t"
		: : "r"(r) : "r11", "memory");
	n = sn->top > r[7] ? sn->top - r[7] : 0;
	if (n > STACK_COPY)
		n = STACK_COPY;
	n &= ~(uint64_t)7;
	from = (volatile const uint64_t *)(uintptr_t)r[7];
	for (uint64_t i = 0; i < n / 8; i++) {
		uint64_t w = from[i];

		memcpy(sn->stack + i * 8, &w, 8);
	}
	sn->len = n;
}

static volatile int depth_sink;

KEEP static void level3(struct snap *sn)
{
	grab(sn);
	depth_sink++;
}

__attribute__((always_inline)) static inline void inl_mid(struct snap *sn)
{
	level3(sn);
	depth_sink += 3;
}

KEEP static void level2(struct snap *sn)
{
	inl_mid(sn);
	depth_sink += 2;
}

KEEP static void level1(struct snap *sn)
{
	level2(sn);
	depth_sink += 1;
}

/* The sample as pe_decode would have returned it. */
static void make_sample(struct pe_sample *s, const struct snap *sn)
{
	memset(s, 0, sizeof(*s));
	s->pid = s->tid = (uint32_t)getpid();
	s->ip = sn->regs[8];
	s->period = 1;
	s->cpumode = PERF_RECORD_MISC_USER;
	s->regs_abi = PERF_SAMPLE_REGS_ABI_64;
	s->regs_mask = UNWIND_REGS_MASK;
	s->regs = sn->regs;
	s->stack_size = STACK_COPY;
	s->stack_dyn_size = sn->len;
	s->stack = sn->stack;
	s->has_tid = true;
}

static char *debuginfo_path;

static const Dwfl_Callbacks self_cb = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

static Dwfl *self_dwfl(void)
{
	Dwfl *d = dwfl_begin(&self_cb);

	assert_non_null(d);
	dwfl_report_begin(d);
	assert_int_equal(dwfl_linux_proc_report(d, getpid()), 0);
	assert_int_equal(dwfl_report_end(d, NULL, NULL), 0);
	return d;
}

/* The function name of frame f (pc - 1 for return addresses). */
static const char *frame_name(Dwfl *d, const struct unwind_frame *f)
{
	uint64_t a = f->activation ? f->pc : f->pc - 1;
	Dwfl_Module *m = dwfl_addrmodule(d, a);
	const char *n = m ? dwfl_module_addrname(m, a) : NULL;

	return n ? n : "?";
}

/* Index of the first frame named name at or after from, or -1. */
static int find_frame(Dwfl *d, const struct unwind_frame *f, size_t n,
		      const char *name, size_t from)
{
	for (size_t i = from; i < n; i++)
		if (strcmp(frame_name(d, &f[i]), name) == 0)
			return (int)i;
	return -1;
}

KEEP static void take_sample(void)
{
	memset(&snap, 0, sizeof(snap));
	snap.top = stack_top();
	assert_true(snap.top != 0);
	level1(&snap);
	assert_true(snap.len >= 512);
}

/* ---- Tests --------------------------------------------------------------- */

static void test_full_unwind(void **state)
{
	struct unwind_opts o = { 0, true };
	struct unwinder *u = unwind_create(&o);
	Dwfl *d = self_dwfl();
	const struct unwind_frame *f;
	enum unwind_result res;
	struct pe_sample s;
	size_t n;
	int g, l3, l2, l1, mn;

	(void)state;
	take_sample();
	make_sample(&s, &snap);
	n = unwind_sample(u, d, &s, &f, &res);
	assert_true(n >= 6);
	assert_int_equal(res, UNWIND_COMPLETE);
	/* The leaf is where the registers were taken, exactly. */
	assert_true(f[0].activation);
	assert_int_equal(f[0].pc, snap.regs[8]);
	assert_false(f[1].activation);
	g = find_frame(d, f, n, "grab", 0);
	l3 = find_frame(d, f, n, "level3", 0);
	l2 = find_frame(d, f, n, "level2", 0);
	l1 = find_frame(d, f, n, "level1", 0);
	mn = find_frame(d, f, n, "main", 0);
	assert_int_equal(g, 0);
	assert_int_equal(l3, 1);
	assert_int_equal(l2, 2);
	assert_int_equal(l1, 3);
	assert_int_equal(find_frame(d, f, n, "take_sample", 4), 4);
	assert_int_equal(find_frame(d, f, n, "test_full_unwind", 5), 5);
	assert_true(mn > 5);
	/* The outermost frame is the program's entry point. */
	assert_string_equal(frame_name(d, &f[n - 1]), "_start");
	/* inl_mid was inlined into level2: the return address is inside it. */
	assert_int_equal(f[2].ninline, 1);
	assert_string_equal(f[2].inlined[0], "inl_mid");
	assert_int_equal(f[1].ninline, 0);
	assert_int_equal(unwind_stats(u)->complete, 1);
	assert_int_equal(unwind_stats(u)->frames, n);
	unwind_destroy(u);
	dwfl_end(d);
}

/* A second sample reuses the attached Dwfl and the inline cache. */
static void test_reuse(void **state)
{
	struct unwind_opts o = { 0, true };
	struct unwinder *u = unwind_create(&o);
	Dwfl *d = self_dwfl();
	const struct unwind_frame *f;
	enum unwind_result res;
	struct pe_sample s;
	size_t n1, n2;
	uint64_t lookups;

	(void)state;
	take_sample();
	make_sample(&s, &snap);
	n1 = unwind_sample(u, d, &s, &f, &res);
	assert_int_equal(res, UNWIND_COMPLETE);
	lookups = unwind_stats(u)->inline_lookups;
	assert_int_equal(lookups, n1);
	n2 = unwind_sample(u, d, &s, &f, &res);
	assert_int_equal(res, UNWIND_COMPLETE);
	assert_int_equal(n1, n2);
	assert_int_equal(unwind_stats(u)->inline_lookups, lookups);
	assert_int_equal(unwind_stats(u)->attach_failures, 0);
	assert_int_equal(f[2].ninline, 1);
	assert_string_equal(f[2].inlined[0], "inl_mid");
	unwind_destroy(u);
	dwfl_end(d);
}

/* A stack copy cut short: the frames it covers, marked truncated. */
static void test_short_copy(void **state)
{
	struct unwind_opts o = { 0, false };
	struct unwinder *u = unwind_create(&o);
	Dwfl *d = self_dwfl();
	const struct unwind_frame *f;
	enum unwind_result res;
	struct pe_sample s;
	size_t full, n;

	(void)state;
	take_sample();
	make_sample(&s, &snap);
	full = unwind_sample(u, d, &s, &f, &res);
	assert_int_equal(res, UNWIND_COMPLETE);
	s.stack_dyn_size = 64;
	n = unwind_sample(u, d, &s, &f, &res);
	assert_int_equal(res, UNWIND_TRUNCATED);
	assert_true(n >= 1 && n < full);
	assert_int_equal(f[0].pc, snap.regs[8]);
	assert_string_equal(frame_name(d, &f[0]), "grab");
	assert_int_equal(f[0].ninline, 0);      /* inline lookups are off */
	assert_int_equal(unwind_stats(u)->truncated, 1);
	unwind_destroy(u);
	dwfl_end(d);
}

static void test_depth_limit(void **state)
{
	struct unwind_opts o = { 3, false };
	struct unwinder *u = unwind_create(&o);
	Dwfl *d = self_dwfl();
	const struct unwind_frame *f;
	enum unwind_result res;
	struct pe_sample s;

	(void)state;
	take_sample();
	make_sample(&s, &snap);
	assert_int_equal(unwind_sample(u, d, &s, &f, &res), 3);
	assert_int_equal(res, UNWIND_DEPTH);
	assert_string_equal(frame_name(d, &f[2]), "level2");
	assert_int_equal(unwind_stats(u)->depth_limited, 1);
	unwind_destroy(u);
	dwfl_end(d);
}

/* Samples that cannot be unwound give no frames, and nothing breaks. */
static void test_nothing_to_unwind(void **state)
{
	struct unwinder *u = unwind_create(NULL);
	Dwfl *d = self_dwfl();
	const struct unwind_frame *f;
	enum unwind_result res;
	struct pe_sample s;
	uint64_t regs[20];

	(void)state;
	take_sample();
	make_sample(&s, &snap);
	s.regs_abi = PERF_SAMPLE_REGS_ABI_NONE;       /* a kernel thread */
	assert_int_equal(unwind_sample(u, d, &s, &f, &res), 0);
	assert_int_equal(res, UNWIND_NONE);
	make_sample(&s, &snap);
	s.stack = NULL;
	s.stack_dyn_size = 0;
	assert_int_equal(unwind_sample(u, d, &s, &f, &res), 0);
	make_sample(&s, &snap);
	s.regs_mask = UNWIND_REGS_MASK & ~(1ULL << 7); /* no SP */
	assert_int_equal(unwind_sample(u, NULL, &s, &f, &res), 0);
	make_sample(&s, &snap);
	assert_int_equal(unwind_sample(u, NULL, &s, &f, &res), 0);
	assert_int_equal(res, UNWIND_NONE);
	/* A hostile SP at the top of the address space: reads must fail. */
	memcpy(regs, snap.regs, sizeof(regs));
	regs[7] = UINT64_MAX - 7;
	regs[8] = (uint64_t)(uintptr_t)&test_nothing_to_unwind;
	make_sample(&s, &snap);
	s.regs = regs;
	s.stack_dyn_size = 64;
	assert_true(unwind_sample(u, d, &s, &f, &res) <= 2);
	assert_int_equal(unwind_stats(u)->none, 4);
	unwind_destroy(u);
	dwfl_end(d);
}

static void test_dwarf_regs(void **state)
{
	uint64_t perf[20], dw[17];
	uint32_t have;
	struct pe_sample s = { 0 };

	(void)state;
	for (unsigned i = 0; i < 20; i++)
		perf[i] = 100 + i;
	s.regs_abi = PERF_SAMPLE_REGS_ABI_64;
	s.regs_mask = UNWIND_REGS_MASK;
	s.regs = perf;
	assert_true(unwind_dwarf_regs(&s, dw, &have));
	assert_int_equal(have, (1u << 17) - 1);
	assert_int_equal(dw[0], 100);     /* rax = AX */
	assert_int_equal(dw[1], 103);     /* rdx = DX */
	assert_int_equal(dw[2], 102);     /* rcx = CX */
	assert_int_equal(dw[3], 101);     /* rbx = BX */
	assert_int_equal(dw[6], 106);     /* rbp = BP */
	assert_int_equal(dw[7], 107);     /* rsp = SP */
	assert_int_equal(dw[8], 112);     /* r8: stored after FLAGS, CS, SS */
	assert_int_equal(dw[15], 119);    /* r15 */
	assert_int_equal(dw[16], 108);    /* rip = IP */
	/* Only IP, SP and BP sampled. */
	s.regs_mask = (1ULL << 6) | (1ULL << 7) | (1ULL << 8);
	assert_true(unwind_dwarf_regs(&s, dw, &have));
	assert_int_equal(have, (1u << 6) | (1u << 7) | (1u << 16));
	assert_int_equal(dw[6], 100);
	assert_int_equal(dw[16], 102);
	s.regs_abi = PERF_SAMPLE_REGS_ABI_32;
	assert_false(unwind_dwarf_regs(&s, dw, &have));
}

/* ---- Through the tracker: what --collapse shows ------------------------- */

/* Feed /proc/self/maps to the tracker as live mode does. */
static void add_self_maps(struct pe_machine *m)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, off;
		char perms[8], path[512] = "";

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %511[^\n]", &lo,
			   &hi, perms, &off, path) < 4 || perms[2] != 'x')
			continue;
		pe_machine_add_map(m, (uint32_t)getpid(), lo, hi - lo, off,
				   path, strlen(path), NULL);
	}
	fclose(f);
}

KEEP
static void collapse_self(bool no_inline, char *out, size_t cap)
{
	struct read_opts o = { 0 };
	struct sym_opts so = { 0 };
	struct symbolizer *sy;
	struct profile *p = profile_create();
	struct pe_machine *m;
	struct pe_sample s;
	FILE *f;

	o.no_inline = no_inline;
	so.demangle = true;
	sy = sym_create(&so);
	m = pe_machine_create(sy, p, &o);
	pe_machine_set_comm(m, (uint32_t)getpid(), (uint32_t)getpid(),
			    "selftest", 8);
	add_self_maps(m);
	take_sample();
	make_sample(&s, &snap);
	assert_int_equal(pe_machine_add_sample(m, &s, 7), ADD_OK);
	assert_int_equal(pe_machine_stats(m)->dwarf_stacks, 1);
	assert_int_equal(pe_machine_stats(m)->dwarf_truncated, 0);
	pe_machine_destroy(m);
	sym_destroy(sy);
	profile_finish(p);
	memset(out, 0, cap);
	f = fmemopen(out, cap, "w");
	assert_non_null(f);
	export_collapse(f, p);
	fclose(f);
	profile_destroy(p);
}

static void test_machine_stack(void **state)
{
	static char out[16384];

	(void)state;
	collapse_self(false, out, sizeof(out));
	/* Root first, from the process name and the entry point down. */
	assert_non_null(strstr(out, "selftest;_start;"));
	assert_non_null(strstr(out, ";main;"));
	assert_non_null(strstr(out,
		";test_machine_stack;collapse_self;take_sample;level1;level2;"
		"inl_mid_[i];level3;grab 7\n"));
	collapse_self(true, out, sizeof(out));
	assert_non_null(strstr(out, ";level1;level2;level3;grab 7\n"));
	assert_null(strstr(out, "_[i]"));
}

static void test_stack_size(void **state)
{
	unsigned v = 0;
	char err[160];

	(void)state;
	assert_int_equal(unwind_parse_stack_size("16384", &v, err, sizeof(err)), 0);
	assert_int_equal(v, 16384);
	assert_int_equal(unwind_parse_stack_size("8K", &v, err, sizeof(err)), 0);
	assert_int_equal(v, 8192);
	assert_int_equal(unwind_parse_stack_size("100", &v, err, sizeof(err)), 0);
	assert_int_equal(v, 104);                 /* a multiple of 8 */
	assert_int_equal(unwind_parse_stack_size("64k", &v, err, sizeof(err)), 0);
	assert_int_equal(v, UNWIND_STACK_MAX);    /* what the kernel takes */
	assert_int_equal(unwind_parse_stack_size("65K", &v, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "out of range"));
	assert_int_equal(unwind_parse_stack_size("0", &v, err, sizeof(err)), -1);
	assert_int_equal(unwind_parse_stack_size("", &v, err, sizeof(err)), -1);
	assert_int_equal(unwind_parse_stack_size("12M", &v, err, sizeof(err)), -1);
	assert_int_equal(unwind_parse_stack_size("-8", &v, err, sizeof(err)), -1);
	assert_int_equal(unwind_parse_stack_size("99999999999999999999", &v,
						 err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_unwind),
		cmocka_unit_test(test_reuse),
		cmocka_unit_test(test_short_copy),
		cmocka_unit_test(test_depth_limit),
		cmocka_unit_test(test_nothing_to_unwind),
		cmocka_unit_test(test_dwarf_regs),
		cmocka_unit_test(test_machine_stack),
		cmocka_unit_test(test_stack_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

#else

static void test_not_x86_64(void **state)
{
	(void)state;
	skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_x86_64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

#endif
