#!/bin/sh
# config.sh - decide what this machine offers flametop's build, after the
# dependency step has installed what it could, and print it as make
# variables (GNUmakefile includes the result as $(OUT)/config.mk).
#
# usage: config.sh CC "PKGS" "LIBIBERTY"
#
# PKGS are pkg-config names every build needs.  LIBIBERTY is how to link
# libiberty (default -liberty); the demangler is used only when a program
# that includes <libiberty/demangle.h> and calls cplus_demangle compiles
# and links with it, so a missing header or library turns demangling off
# instead of breaking the build (point it at a missing file to try that).
cc=${1:?usage: config.sh CC PKGS LIBIBERTY}
pkgs=$2
liberty=${3:--liberty}

echo "# made by tests/tools/config.sh; remade when the dependency step or"
echo "# its inputs change"
cflags=$(pkg-config --cflags $pkgs) && libs=$(pkg-config --libs $pkgs) || {
	echo "config.sh: pkg-config does not know all of: $pkgs" >&2
	exit 1
}
echo "PKG_CFLAGS := $cflags"
echo "PKG_LIBS := $libs"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/probe.c" <<'PROBE'
#include <stdlib.h>
#include <libiberty/demangle.h>
int main(void)
{
	char *s = cplus_demangle("_Z1fv", DMGL_AUTO);
	int ok = s != NULL;
	free(s);
	return !ok;
}
PROBE
if $cc -o "$tmp/probe" "$tmp/probe.c" $liberty >/dev/null 2>&1; then
	echo "HAVE_LIBIBERTY := yes"
	echo "LIBIBERTY_LIBS := $liberty"
	echo "FEATURE_CFLAGS := -DHAVE_LIBIBERTY"
else
	echo "HAVE_LIBIBERTY := no"
	echo "LIBIBERTY_LIBS :="
	echo "FEATURE_CFLAGS :="
fi
