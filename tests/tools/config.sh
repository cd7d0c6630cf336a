#!/bin/sh
# config.sh - decide what this machine offers flametop's build, after the
# dependency step has installed what it could, and print it as make
# variables (GNUmakefile includes the result as $(OUT)/config.mk).
#
# usage: config.sh CC "PKGS" "LIBIBERTY" "OPENED"
#
# PKGS are pkg-config names every build needs.  OPENED are pkg-config
# names compiled against but not linked: flametop opens them when first
# needed (dynlib.h), by the file name their SONAME gives, printed as
# -DFLAMETOP_<NAME>_SONAME (NAME: the library's name without "lib", in
# capitals: libcurl -> CURL).  LIBIBERTY is how to link
# libiberty (default -liberty); the demangler is used only when a program
# that includes <libiberty/demangle.h> and calls cplus_demangle compiles
# and links with it, so a missing header or library turns demangling off
# instead of breaking the build (point it at a missing file to try that).
cc=${1:?usage: config.sh CC PKGS LIBIBERTY OPENED}
pkgs=$2
liberty=${3:--liberty}
opened=$4

echo "# made by tests/tools/config.sh; remade when the dependency step or"
echo "# its inputs change"
cflags=$(pkg-config --cflags $pkgs $opened) && libs=$(pkg-config --libs $pkgs) || {
	echo "config.sh: pkg-config does not know all of: $pkgs $opened" >&2
	exit 1
}
echo "PKG_CFLAGS := $cflags"
echo "PKG_LIBS := $libs"

# The SONAME of the library pkg-config names for $1, read from the
# development link (libNAME.so) in its libdir, else where cc finds it.
soname()
{
	name=$(pkg-config --libs-only-l "$1" | sed 's/^ *-l\([^ ]*\).*/\1/')
	for f in "$(pkg-config --variable=libdir "$1")/lib$name.so" \
		 "$($cc -print-file-name="lib$name.so")"; do
		s=$(readelf -d "$f" 2>/dev/null |
		    sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
		[ -n "$s" ] && { echo "$s"; return 0; }
	done
	echo "config.sh: cannot find the SONAME of $1's lib$name.so" >&2
	return 1
}
sonames=
for p in $opened; do
	s=$(soname "$p") || exit 1
	macro=$(echo "${p#lib}" | tr 'a-z-' 'A-Z_')
	sonames="$sonames -DFLAMETOP_${macro}_SONAME='\"$s\"'"
done
echo "SONAME_CFLAGS :=$sonames"

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
