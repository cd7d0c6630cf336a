#!/bin/sh
# make-kallsyms.sh - a small kallsyms fixture for a perf.data: from
# KALLSYMS (the recording machine's /proc/kallsyms, read as root), the
# lines of _text and of every text symbol that holds a kernel address of
# the recording, each with the text symbol after it (which ends it).
#
# usage: tests/data/make-kallsyms.sh PERF.DATA [KALLSYMS] > FILE.kallsyms
#
# Run on the machine and kernel the file was recorded on (perf script must
# resolve the same addresses).
data=${1:?usage: make-kallsyms.sh PERF.DATA [KALLSYMS]}
ksyms=${2:-/proc/kallsyms}
export LC_ALL=C
perf script -i "$data" -F ip 2>/dev/null |
	awk '$1 ~ /^ffff/ { print $1 }' | sort -u >"${TMPDIR:-/tmp}/addrs.$$"
awk -v addrs="${TMPDIR:-/tmp}/addrs.$$" '
	BEGIN { while ((getline a < addrs) > 0) want[n++] = a }
	$2 ~ /^[Tt]$/ && NF == 3 { s[m] = $1; line[m++] = $0 }
	$3 == "_text" && NF == 3 { text = $0 }
	END {
		print text
		# Symbols sorted by address: hex strings of one length sort so.
		for (i = 0; i < n; i++) {
			best = -1
			for (j = 0; j < m; j++)
				if (s[j] <= want[i] && (best < 0 || s[j] > s[best]))
					best = j
			if (best < 0) continue
			keep[best] = 1
			nxt = -1
			for (j = 0; j < m; j++)
				if (s[j] > s[best] && (nxt < 0 || s[j] < s[nxt]))
					nxt = j
			if (nxt >= 0) keep[nxt] = 1
		}
		for (j = 0; j < m; j++) if (keep[j]) print line[j]
	}' "$ksyms" | sort -u -k1,1 -k3,3
rm -f "${TMPDIR:-/tmp}/addrs.$$"
