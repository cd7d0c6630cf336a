# oracle.sh - sourced by benchmarks that time an outside tool beside
# flametop (flamegraph.pl, stackcollapse-perf.pl).  Such tools are never
# copied into the repository: they are used from $FLAMEGRAPH_DIR or the PATH.
#
# find_oracle NAME: prints the tool's path, or nothing when it is not here.
find_oracle() {
	if [ -n "${FLAMEGRAPH_DIR:-}" ] && [ -x "$FLAMEGRAPH_DIR/$1" ]; then
		echo "$FLAMEGRAPH_DIR/$1"
	else
		command -v "$1" 2>/dev/null
	fi
}
