/*
 * version.c - `flametop --version`: the version on the first line, then
 * one "  NAME: yes|no (how)" line per build option.  The optional ones
 * (demangling) depend on what the build found on the machine; the
 * libraries' versions are the ones loaded at run time.
 */
#include "version.h"

#include <elfutils/libdwfl.h>
#include <zlib.h>
#include <json-c/json.h>
#include <zstd.h>
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "disasm.h"
#include "fetch.h"
#include "symbols.h"

#ifndef FLAMETOP_VERSION
#define FLAMETOP_VERSION "0.1.0"
#endif

static void option(FILE *out, const char *name, int on, const char *how)
{
	fprintf(out, "  %-11s %s%s%s%s\n", name, on ? "yes" : "no",
		how ? " (" : "", how ? how : "", how ? ")" : "");
}

void version_print(FILE *out)
{
	const char *dm = sym_demangler();
	char pcre[64] = "pcre2 ", how[320];
	const char *http;
	bool http_ok;
	uint32_t jit = 0;

	fprintf(out, "flametop %s\nbuild options:\n", FLAMETOP_VERSION);
	option(out, "demangle:", dm != NULL,
	       dm ? dm : "built without libiberty: C++ and Rust names stay mangled");
	snprintf(how, sizeof(how), "elfutils %s", dwfl_version(NULL));
	option(out, "dwarf:", 1, how);
	snprintf(how, sizeof(how), "zlib %s", zlibVersion());
	option(out, "gzip:", 1, how);
	snprintf(how, sizeof(how), "libzstd %s", ZSTD_versionString());
	option(out, "zstd:", 1, how);
	http = fetch_version(&http_ok);
	option(out, "http:", http_ok, http);
	snprintf(how, sizeof(how), "json-c %s", json_c_version());
	option(out, "cpuprofile:", 1, how);
	option(out, "disasm:", disasm_library(how, sizeof(how)), how);
	if (pcre2_config(PCRE2_CONFIG_VERSION, pcre + 6) < 0)
		pcre[0] = '\0';
	pcre2_config(PCRE2_CONFIG_JIT, &jit);
	snprintf(how, sizeof(how), "%s, JIT %s", pcre, jit ? "yes" : "no");
	option(out, "regex-jit:", jit != 0, how);
#ifdef FLAMETOP_SANITIZE
	option(out, "sanitize:", 1, FLAMETOP_SANITIZE);
#else
	option(out, "sanitize:", 0, NULL);
#endif
}
