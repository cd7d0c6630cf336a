#!/bin/sh
# test-save.sh - s writes its file whole or not at all: on a full file
# system (a 64 KB tmpfs, mounted as root) the status line says why and no
# empty, partial or temporary file is left; a name that is taken is never
# replaced (the next free one is used).
BIN=${1:?usage: test-save.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'tui_cleanup; umount "$dir/full" 2>/dev/null; rm -rf "$dir"' EXIT
cp samples/flametop-make.folded "$dir/in.folded"

# Names taken: the files the next seconds' saves would be named, each
# with other content; s saves under "-2" and leaves them as they were.
now=$(date +%s)
taken=
for i in 0 1 2 3 4 5; do
	f=$dir/flametop-view-$(date -d "@$((now + i))" +%Y%m%d-%H%M%S).folded
	printf 'taken\n' >"$f"
	taken="$taken '$f'"
done
tui_start_sh -x 160 -y 20 "cd '$dir' && '$BIN' in.folded"
tui_wait "samples" >/dev/null
tui_keys s
check "a name taken: saved as -2" tui_wait \
	"saved [0-9]+ stacks to $dir/flametop-view-[0-9-]+-2\.folded" 5
saved=$(ls "$dir"/flametop-view-*-2.folded 2>/dev/null | head -n 1)
check "the -2 file is the profile, folded" sh -c "[ -s '$saved' ] &&
	[ \"\$('$BIN' --collapse '$saved' | md5sum)\" = \"\$('$BIN' --collapse '$dir/in.folded' | md5sum)\" ]"
check "the names taken are left as they were" sh -c \
	"[ \"\$(cat $taken | sort -u)\" = taken ]"
check "no temporary file left" sh -c "! ls -A '$dir' | grep -q '^\\.'"
tui_keys q
check "exit 0" tui_wait "__EXIT:0" 5

# A full file system: nothing saved, nothing left, the reason shown.
mkdir "$dir/full"
if mount -t tmpfs -o size=64k tmpfs "$dir/full" 2>/dev/null; then
	# In a subshell: the pane's shell must not keep the mount busy.
	tui_start_sh -x 200 -y 20 "(cd '$dir/full' && '$BIN' ../in.folded)"
	tui_wait "samples" >/dev/null
	tui_keys s
	check "full disk: s says why" tui_wait "cannot save $dir/full/flametop-view-[0-9-]+\.folded: No space left on device \(nothing saved\)" 5
	check "full disk: no file left, empty, partial or temporary ($(ls -A "$dir/full"))" \
		test -z "$(ls -A "$dir/full")"
	tui_keys q
	check "full disk: exit 0" tui_wait "__EXIT:0" 5
	tui_cleanup
	umount "$dir/full"
else
	echo "SKIP (in part): cannot mount a tmpfs (not root): no full-disk test"
fi

tui_done
