/*
 * test-profile-addr.c - weights per address (profile-addr.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "diag.h"
#include "profile-addr.h"
#include "profile.h"
#include "read.h"

static uint32_t func(struct paddr *a, const char *name)
{
	struct paddr_func f = { 0 };

	f.name = name;
	f.module = "/bin/prog";
	return paddr_func_intern(a, &f);
}

/* main -> work -> burn: self at the leaf's address, total at callers'. */
static void self_and_total(void **state)
{
	struct paddr *a = paddr_create();
	uint32_t m = func(a, "main"), w = func(a, "work"), b = func(a, "burn");
	struct paddr_frame s1[] = { { m, 0x110 }, { w, 0x210 }, { b, 0x300 } };
	struct paddr_frame s2[] = { { m, 0x110 }, { w, 0x220 }, { b, 0x304 } };
	struct paddr_frame s3[] = { { m, 0x120 }, { w, 0x204 } };
	struct paddr_row *r;
	uint64_t self, total;
	uint32_t end;
	size_t n;

	(void)state;
	assert_int_equal(func(a, "work"), w);
	end = paddr_add_stack(a, s1, 3, 5);
	paddr_add_at(a, end, 2);                       /* 7 at burn+0x300 */
	paddr_add_stack(a, s2, 3, 3);
	paddr_add_stack(a, s3, 2, 4);
	n = paddr_rows(a, w, &r, &self, &total);
	assert_int_equal(n, 3);
	assert_int_equal(r[0].addr, 0x204);
	assert_int_equal(r[0].self, 4);
	assert_int_equal(r[0].total, 4);
	assert_int_equal(r[1].addr, 0x210);
	assert_int_equal(r[1].self, 0);
	assert_int_equal(r[1].total, 7);
	assert_int_equal(r[2].addr, 0x220);
	assert_int_equal(r[2].total, 3);
	assert_int_equal(self, 4);
	assert_int_equal(total, 14);
	free(r);
	n = paddr_rows(a, m, &r, &self, &total);
	assert_int_equal(n, 2);
	assert_int_equal(r[0].total, 10);
	assert_int_equal(r[1].total, 4);
	assert_int_equal(self, 0);
	assert_int_equal(total, 14);
	free(r);
	paddr_reset_weights(a);
	n = paddr_rows(a, b, &r, &self, &total);
	assert_int_equal(n, 0);
	assert_null(r);
	paddr_destroy(a);
}

/* Recursion: one (function, address) twice in a stack counts once. */
static void recursion_counts_once(void **state)
{
	struct paddr *a = paddr_create();
	uint32_t f = func(a, "fib");
	struct paddr_frame s[] = { { f, 0x40 }, { f, 0x40 }, { f, 0x48 },
				   { f, 0x10 } };
	struct paddr_row *r;
	uint64_t self, total;
	size_t n;

	(void)state;
	paddr_add_stack(a, s, 4, 3);
	n = paddr_rows(a, f, &r, &self, &total);
	assert_int_equal(n, 3);
	assert_int_equal(r[0].addr, 0x10);
	assert_int_equal(r[0].self, 3);
	assert_int_equal(r[1].addr, 0x40);
	assert_int_equal(r[1].total, 3);
	assert_int_equal(r[2].total, 3);
	assert_int_equal(self, 3);
	assert_int_equal(total, 3);
	free(r);
	paddr_destroy(a);
}

/* Many stacks: the tables grow and every stack is found again. */
static void many_stacks(void **state)
{
	struct paddr *a = paddr_create();
	uint32_t f = func(a, "f"), g = func(a, "g");
	struct paddr_row *r;
	uint64_t self, total;
	size_t n;

	(void)state;
	for (int rep = 0; rep < 2; rep++)
		for (uint64_t i = 0; i < 5000; i++) {
			struct paddr_frame s[] = { { f, i }, { g, i % 7 } };

			paddr_add_stack(a, s, 2, 1);
		}
	n = paddr_rows(a, g, &r, &self, &total);
	assert_int_equal(n, 7);
	assert_int_equal(self, 10000);
	assert_int_equal(total, 10000);
	free(r);
	n = paddr_rows(a, f, &r, &self, &total);
	assert_int_equal(n, 5000);
	assert_int_equal(r[4999].total, 2);
	assert_int_equal(total, 10000);
	free(r);
	paddr_destroy(a);
}

static int released;

static void release(void *p)
{
	released += *(int *)p;
}

/* A profile owns its tables; folded input has none. */
static void profile_owns_tables(void **state)
{
	struct profile *p = profile_create();
	static int one = 1;

	(void)state;
	assert_null(profile_paddr(p, false));
	assert_non_null(profile_paddr(p, true));
	assert_ptr_equal(profile_paddr(p, true), profile_paddr_const(p));
	paddr_keep(profile_paddr(p, false), &one, release);
	assert_ptr_equal(paddr_owner(profile_paddr_const(p)), &one);
	profile_destroy(p);
	assert_int_equal(released, 1);
}

/* tests/pprof/inline.pprof read with or without the tables (from the top). */
static struct profile *read_inline(bool no_tables)
{
	struct profile *p = profile_create();
	struct read_opts o = { .no_addr_tables = no_tables };
	struct diag d;

	diag_init(&d);
	assert_int_equal(read_profile(p, "tests/pprof/inline.pprof", &o, &d),
			 0);
	diag_free(&d);
	profile_finish(p);
	return p;
}

/* A pprof profile has its tables, unless nothing will annotate: then the
 * reader skips them, and the tree is the same. */
static void pprof_tables_when_wanted(void **state)
{
	struct profile *with = read_inline(false), *without = read_inline(true);

	(void)state;
	assert_non_null(profile_paddr_const(with));
	assert_int_equal(paddr_total(profile_paddr_const(with)),
			 profile_total(with, NODE_ROOT));
	assert_null(profile_paddr_const(without));
	assert_int_equal(profile_total(without, NODE_ROOT),
			 profile_total(with, NODE_ROOT));
	assert_int_equal(profile_node_count(without), profile_node_count(with));
	profile_destroy(with);
	profile_destroy(without);
}

/*
 * Timed samples (live): the profile's range is the tables' too; an
 * address out of it keeps its row with no weight; forgetting times keeps
 * the all-time weights; a reset forgets both.
 */
static void range_follows_profile(void **state)
{
	struct profile *p = profile_create();
	struct paddr *a = profile_paddr(p, true);
	uint32_t m = func(a, "main"), b = func(a, "burn");
	struct paddr_frame s1[] = { { m, 0x110 }, { b, 0x300 } };
	struct paddr_frame s2[] = { { m, 0x120 }, { b, 0x304 } };
	uint32_t i1 = paddr_add_stack(a, s1, 2, 0);
	uint32_t i2 = paddr_add_stack(a, s2, 2, 0);
	struct paddr_row *r;
	uint64_t self, total;
	size_t n;

	(void)state;
	paddr_add_timed(a, i1, 5, 100);
	paddr_add_timed(a, i2, 3, 300);
	paddr_add_timed(a, i1, 2, 200);
	paddr_add_timed(a, PADDR_NONE, 9, 250);       /* ignored */
	assert_int_equal(paddr_total(a), 10);
	profile_set_range(p, 150, 300);
	assert_int_equal(paddr_total(a), 5);
	n = paddr_rows(a, b, &r, &self, &total);
	assert_int_equal(n, 2);
	assert_int_equal(r[0].addr, 0x300);
	assert_int_equal(r[0].self, 2);
	assert_true(r[0].leaf);
	assert_int_equal(r[1].self, 3);
	assert_int_equal(self, 5);
	assert_int_equal(total, 5);
	free(r);
	/* Added while the range is on: counted where it falls. */
	paddr_add_timed(a, i2, 4, 260);
	paddr_add_timed(a, i1, 6, 400);
	assert_int_equal(paddr_total(a), 9);
	profile_set_range(p, 350, 450);
	n = paddr_rows(a, b, &r, &self, &total);
	assert_int_equal(n, 2);
	assert_int_equal(r[0].self, 6);
	assert_int_equal(r[1].self, 0);                /* out: weightless */
	assert_int_equal(r[1].total, 0);
	free(r);
	profile_forget_before(p, 250);
	profile_set_range(p, 0, 1000);
	assert_int_equal(paddr_total(a), 13);          /* 3 + 4 + 6 */
	profile_clear_range(p);
	assert_int_equal(paddr_total(a), 20);
	profile_reset_weights(p);
	assert_int_equal(paddr_total(a), 0);
	profile_set_range(p, 0, 1000);
	assert_int_equal(paddr_total(a), 0);
	assert_int_equal(paddr_rows(a, b, &r, &self, &total), 0);
	free(r);
	profile_destroy(p);
}

/* Untimed tables (saved profiles) keep all their weights in a range. */
static void untimed_ignore_range(void **state)
{
	struct profile *p = profile_create();
	struct paddr *a = profile_paddr(p, true);
	uint32_t m = func(a, "main");
	struct paddr_frame s1[] = { { m, 0x110 } };

	(void)state;
	profile_forget_before(p, 5);                   /* no times: nothing */
	paddr_add_stack(a, s1, 1, 7);
	profile_set_range(p, 0, 10);
	assert_int_equal(paddr_total(a), 7);
	profile_destroy(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(self_and_total),
		cmocka_unit_test(recursion_counts_once),
		cmocka_unit_test(many_stacks),
		cmocka_unit_test(profile_owns_tables),
		cmocka_unit_test(pprof_tables_when_wanted),
		cmocka_unit_test(range_follows_profile),
		cmocka_unit_test(untimed_ignore_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
