/*
 * dynlib.h - libraries that only some commands need, opened the first time
 * one of them runs instead of at every start.
 *
 * libcurl (http:// profiles) brings about thirty libraries of its own (TLS,
 * LDAP, Kerberos, ...), and capstone (--disasm) is large: linked as usual,
 * the dynamic loader maps and relocates them all before main, about 12 ms
 * of CPU time in every run, which is most of what opening a small profile
 * costs.  The build still compiles against their headers; it records each
 * library's file name (its SONAME, FLAMETOP_*_SONAME) instead of linking it.
 */
#ifndef FLAMETOP_DYNLIB_H
#define FLAMETOP_DYNLIB_H

#include <stdbool.h>
#include <stddef.h>

/* One function to look up: its name and the address of the function
 * pointer that receives it (declared with the header's own type). */
struct dynlib_fn {
	const char *name;
	void *dst;
};

#define DYNLIB_FN(ptr, sym) { #sym, &(ptr) }

struct dynlib {
	const char *what;      /* "libcurl": for messages */
	const char *soname;    /* "libcurl.so.4" */
	const struct dynlib_fn *fns;
	size_t nfns;
	/* set by dynlib_open */
	bool tried, ok;
	char err[256];
};

/*
 * Open lib and fill every pointer of lib->fns, once (later calls return
 * the first answer; any thread may call).  false, with lib->err saying
 * which library or function is missing, when it cannot: the pointers
 * are then not to be called.
 */
bool dynlib_open(struct dynlib *lib);

#endif
