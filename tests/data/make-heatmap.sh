#!/bin/sh
# make-heatmap.sh - write heatmap.perf-script, the heat map test's input:
# perf script text of cpu-clock samples of 1 ms each with a known pattern,
# ten seconds from 100.000000 s:
#   - one sample "main;start" at 0 ms of second 0;
#   - every second but second 4 (a stall: no samples at all), four samples
#     "main;tick" at 200, 205, 210 and 215 ms (periodic work: one row of
#     20 ms, all of it);
#   - seconds 0-3: one sample "main;bg" at 700 ms; seconds 5-9: two samples
#     "main;io" at 700 and 705 ms.
#   sh tests/data/make-heatmap.sh > tests/data/heatmap.perf-script
awk 'function sample(t, leaf) {
	printf "prog  4242  %.6f:    1000000 cpu-clock: \n", t
	printf "\t    1111 %s+0x1 (/usr/bin/prog)\n", leaf
	printf "\t    2222 main+0x1 (/usr/bin/prog)\n\n"
}
BEGIN {
	sample(100, "start")
	for (s = 0; s < 10; s++) {
		if (s == 4)
			continue
		for (k = 0; k < 4; k++)
			sample(100 + s + 0.200 + k * 0.005, "tick")
		if (s < 4)
			sample(100 + s + 0.700, "bg")
		else {
			sample(100 + s + 0.700, "io")
			sample(100 + s + 0.705, "io")
		}
	}
}'
