/*
 * fuzz-theme.c - the theme parser on arbitrary bytes: it must accept or
 * reject with a "file:line:" message, never crash, and a theme it accepts
 * must color any name.
 */
#include <stdint.h>
#include <string.h>

#include "theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct theme t;
	char err[512];

	theme_default(&t);
	if (theme_parse(&t, (const char *)data, size, "fuzz", err,
			sizeof(err)) == 0) {
		theme_frame_color(&t, (const char *)data, size, 0);
		theme_frame_color(&t, "main", 4, 1);
	} else if (strncmp(err, "fuzz", 4) != 0) {
		__builtin_trap();
	}
	return 0;
}
