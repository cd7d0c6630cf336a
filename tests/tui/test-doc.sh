#!/bin/sh
# test-doc.sh - the man page does not drift from the program: its KEYS
# section lists exactly the key table (flametop --help-keys, the same
# table the keys and the ? overlay use), and every option of --help is
# documented in it.
BIN=${1:?usage: test-doc.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
MAN=doc/flametop.1
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The man page's key list as "section|label|help" lines.
sed -n '/^\.\\" keys: begin/,/^\.\\" keys: end/p' "$MAN" |
awk '
	/^\.SS / { sec = substr($0, 5); next }
	/^\.TP/ { want = 1; next }
	/^\.B / && want == 1 { label = substr($0, 4); want = 2; next }
	want == 2 { print sec "|" label "|" $0; want = 0 }
' | sed -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/\\&//g' >"$tmp/man"

# The program's, the same way.
"$BIN" --help-keys |
awk '
	/^[^ ].*:$/ { sec = substr($0, 1, length($0) - 1); next }
	/^  / {
		line = substr($0, 3)
		i = index(line, "  ")
		label = substr(line, 1, i - 1)
		rest = substr(line, i)
		sub(/^ +/, "", rest)
		print sec "|" label "|" rest
	}
' >"$tmp/prog"

if [ -s "$tmp/prog" ] && cmp -s "$tmp/man" "$tmp/prog"; then
	ok
else
	bad "man page KEYS section differs from --help-keys (regenerate it from keys_print_man):"
	diff "$tmp/man" "$tmp/prog" | head -n 20
fi
n=$(wc -l <"$tmp/prog")
if [ "$n" -ge 30 ]; then ok; else bad "--help-keys lists only $n keys"; fi

# Every option of --help is in the man page.
for o in $("$BIN" --help | grep -o -E -- '--[a-z][a-z-]*' | sort -u); do
	esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
	if grep -q -- "$esc" "$MAN"; then ok; else bad "option $o is not in $MAN"; fi
done
for o in $("$BIN" --help | grep -o -E -- '^  -[a-zA-Z],' | tr -d ' ,'); do
	esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
	if grep -q -- "^\.BR $esc " "$MAN"; then ok; else bad "short option $o is not in $MAN"; fi
done

# The man page is well-formed troff (when man is installed).
if command -v man >/dev/null 2>&1; then
	if MANWIDTH=80 man -l "$MAN" 2>"$tmp/err" | grep -q 'KEYS' && [ ! -s "$tmp/err" ]; then
		ok
	else
		bad "man -l $MAN: $(head -n 3 "$tmp/err")"
	fi
fi

# Where the READMEs name the key that switches sample types, it is the key
# the table gives for it.
k=$("$BIN" --help-keys | sed -n 's/^  \([^ ]*\)  *next sample type.*/\1/p')
for f in README.md samples/README.md; do
	grep -o 'the `[^`]*` key switch' "$f" >"$tmp/switch"
	while read -r line; do
		case $line in
		"the \`$k\` key switch") ok ;;
		*) bad "$f: '$line', but the sample-type key is '$k'" ;;
		esac
	done <"$tmp/switch"
done
grep -q "the \`$k\` key switch" samples/README.md && ok ||
	bad "samples/README.md does not name the sample-type key '$k'"

# --version: the version, then every build option as "  NAME: yes|no".
"$BIN" --version >"$tmp/version"
if head -n 1 "$tmp/version" | grep -q -E '^flametop [0-9]+\.[0-9]+\.[0-9]+$'; then
	ok
else
	bad "--version first line: $(head -n 1 "$tmp/version")"
fi
for o in demangle dwarf gzip zstd cpuprofile disasm regex-jit sanitize; do
	if grep -q -E "^  $o: +(yes|no)( \(.*\))?$" "$tmp/version"; then
		ok
	else
		bad "--version does not list build option $o"
	fi
done
# --annotate --disasm decodes with capstone: the line names its version.
if grep -q -E '^  disasm: +yes \(capstone [0-9]+\.[0-9]+, x86-64' "$tmp/version"; then
	ok
else
	bad "--version: disasm does not name capstone and x86-64"
fi
# A sanitizer build says so (check.sh runs it as build/san/flametop).
case $BIN in
*/san/flametop) want=yes ;;
*) want=no ;;
esac
if grep -q -E "^  sanitize: +$want" "$tmp/version"; then ok; else bad "--version: sanitize is not $want"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
