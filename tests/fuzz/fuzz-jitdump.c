/*
 * fuzz-jitdump.c - the jitdump reader on arbitrary bytes: read as a dump
 * of any process, in two steps (the first half, as a dump still being
 * written, then all of it), then looked up at the code address of every
 * 8-byte-aligned word and the one after, at any time and at the time the
 * word after it makes, for names, lines and unwinding info, and for the
 * piece that ever covered it and its code bytes (never more than the
 * piece spans); then told.  A name found is a C string: it never runs
 * past the pool.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "fuzz-common.h"
#include "jitdump.h"

static void lookup(struct jitdump *jd, uint64_t addr, uint64_t t)
{
	struct jitdump_code c;
	struct jitdump_unwind u;
	const char *file;
	unsigned line;

	if (jitdump_lookup(jd, addr, t, &c) &&
	    (addr < c.start || addr >= c.end || strlen(c.name) > (1u << 20)))
		__builtin_trap();
	if (jitdump_line(jd, addr, t, &file, &line) && (!line || !file))
		__builtin_trap();
	if (jitdump_unwind(jd, addr, t, &u, NULL) && u.size && !u.data)
		__builtin_trap();
	if (jitdump_code_at(jd, addr, t & 1 ? NULL : "a", &c)) {
		size_t n;
		uint8_t *b = jitdump_code_bytes(jd, &c, &n);

		if (addr < c.start || addr >= c.end || n > c.end - c.start ||
		    (n && !b))
			__builtin_trap();
		free(b);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jitdump *jd;
	struct diag d;

	fuzz_quiet_stderr();
	jd = jitdump_open_mem(data, size / 2, "fuzz.dump", 0);
	jitdump_update(jd);
	jitdump_close(jd);
	jd = jitdump_open_mem(data, size, "fuzz.dump", 0);
	jitdump_update(jd);
	jitdump_finish(jd);
	for (size_t i = 0; i + 16 <= size && i < 8192; i += 8) {
		uint64_t a, t;

		memcpy(&a, data + i, 8);
		memcpy(&t, data + i + 8, 8);
		lookup(jd, a, JITDUMP_TIME_ANY);
		lookup(jd, a + 1, t);
	}
	diag_init(&d);
	jitdump_report(jd, &d);
	fuzz_diag_done(&d);
	jitdump_close(jd);
	return 0;
}
