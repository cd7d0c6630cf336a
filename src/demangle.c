/*
 * demangle.c - C++ and Rust symbol names made readable, through libiberty
 * where it is installed (its demangler knows both Itanium C++ and Rust's
 * legacy and v0 schemes).  Kept apart from the rest of the symbolizer
 * because libiberty's headers define names that clash with flametop's.
 *
 * Names come back without parameter lists, as perf shows them by default.
 */
#include <stdlib.h>
#include <string.h>

#include "symbols.h"

#ifdef HAVE_LIBIBERTY
#include <libiberty/demangle.h>
#endif

const char *sym_demangler(void)
{
#ifdef HAVE_LIBIBERTY
	return "libiberty";
#else
	return NULL;
#endif
}

char *sym_demangle(const char *name)
{
#ifdef HAVE_LIBIBERTY
	if (strncmp(name, "_Z", 2) == 0 || strncmp(name, "_R", 2) == 0)
		return cplus_demangle(name, DMGL_AUTO);
#else
	(void)name;
#endif
	return NULL;
}
