/*
 * replay-main.c - run a fuzz target over files without libFuzzer, so that
 * `make check` replays every corpus with gcc and the sanitizers.
 *
 * usage: replay-TARGET FILE...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int bad = 0;

	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf;
		long n;

		if (!f) {
			perror(argv[i]);
			bad = 1;
			continue;
		}
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		fseek(f, 0, SEEK_SET);
		buf = malloc(n > 0 ? (size_t)n : 1);
		if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
			perror(argv[i]);
			bad = 1;
		} else {
			LLVMFuzzerTestOneInput(buf, (size_t)n);
		}
		free(buf);
		fclose(f);
	}
	return bad;
}
