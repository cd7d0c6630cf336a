#!/bin/sh
# deps.sh - make sure the Debian packages flametop needs are installed.
#
# usage: deps.sh ITEM...   where ITEM is  pc:PKGCONFIG-NAME:DEBIAN-PACKAGE
#                                    or  cmd:COMMAND:DEBIAN-PACKAGE
#                                    or  file:PATH:DEBIAN-PACKAGE
# Installs what is missing with apt-get when run as root on Debian;
# otherwise prints the exact command to run and fails.
missing=""
for item in "$@"; do
	kind=${item%%:*}
	rest=${item#*:}
	what=${rest%%:*}
	pkg=${rest#*:}
	case $kind in
	pc) pkg-config --exists "$what" 2>/dev/null && continue ;;
	cmd) command -v "$what" >/dev/null 2>&1 && continue ;;
	file) [ -e "$what" ] && continue ;;
	esac
	case " $missing " in *" $pkg "*) ;; *) missing="$missing $pkg" ;; esac
done
# pkg-config itself comes first: without it every pc: check fails.
[ -z "$missing" ] && exit 0
missing=${missing# }
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "flametop: installing missing packages: $missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q $missing >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null 2>&1 && apt-get install -y -q $missing >/dev/null; } ||
		{ echo "flametop: apt-get could not install: $missing" >&2; exit 1; }
	exit 0
fi
echo "flametop: missing packages: $missing" >&2
echo "flametop: install them with:  sudo apt-get install -y $missing" >&2
exit 1
