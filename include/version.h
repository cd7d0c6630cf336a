/*
 * version.h - what `flametop --version` prints: the version, then the
 * build options (optional features on or off, the libraries' versions), so
 * that a user, a bug report and a test can see what this binary can do.
 */
#ifndef FLAMETOP_VERSION_H
#define FLAMETOP_VERSION_H

#include <stdio.h>

void version_print(FILE *out);

#endif
