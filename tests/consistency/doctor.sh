#!/bin/sh
# doctor.sh - flametop with one figure made slightly wrong, to show that
# check.py catches it (run.sh runs it first).  DOCTOR_BIN is the real
# binary, DOCTOR what to spoil:
#   footer    the --text footer's total: one sample more
#   matched   the Matched: share: one hundredth of a point more
#   top       the first --top row's self %: one hundredth of a point more
#   svg       the SVG subtitle's total: one sample more
#   frame     the SVG's second frame: one sample more in its title
#   collapse  the first --collapse weight: one more
# Only the output the mode is about: --text, --top, --svg or --collapse.
case "$DOCTOR $*" in
footer*--text*|matched*--text*|top*--top*|svg*--svg*|frame*--svg*) ;;
collapse*--collapse*) ;;
*) DOCTOR=none ;;
esac
"$DOCTOR_BIN" "$@" | DOCTOR=$DOCTOR awk '
function bump(re, by,    s, n) {
	if (!match($0, re)) return
	s = substr($0, RSTART, RLENGTH)
	n = s; sub(/[^0-9.].*/, "", n)
	$0 = substr($0, 1, RSTART - 1) sprintf(by < 1 ? "%.2f" : "%d", n + by) \
		substr(s, length(n) + 1) substr($0, RSTART + RLENGTH)
	done = 1
}
done { print; next }
ENVIRON["DOCTOR"] == "footer" && / distinct stacks, depth / { bump("[0-9]+ samples", 1) }
ENVIRON["DOCTOR"] == "matched" && /^Matched: / { bump("[0-9.]+%", 0.01) }
ENVIRON["DOCTOR"] == "top" && /^ *[0-9.]+% / { bump("[0-9.]+%", 0.01) }
ENVIRON["DOCTOR"] == "svg" && /id="subtitle"/ { bump("[0-9]+ samples", 1) }
ENVIRON["DOCTOR"] == "frame" && /^<g class="f"/ && frames++ == 1 {
	bump("[0-9]+ samples", 1)
}
ENVIRON["DOCTOR"] == "collapse" && NR == 1 { $NF = $NF + 1; done = 1 }
{ print }'
