/*
 * dynlib.c - libraries opened on first use (dynlib.h).
 */
#include "dynlib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* A function pointer is stored from dlsym's void * byte for byte, as
 * POSIX allows, which needs them the same size. */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)),
	       "function and object pointers differ in size");

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static bool load(struct dynlib *lib)
{
	/* Never closed: its functions are called until the process ends
	 * (libcurl's cleanup runs from atexit). */
	void *h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(lib->err, sizeof(lib->err), "cannot load %s (%s): %s",
			 lib->what, lib->soname, dlerror());
		return false;
	}
	for (size_t i = 0; i < lib->nfns; i++) {
		void *f = dlsym(h, lib->fns[i].name);

		if (!f) {
			snprintf(lib->err, sizeof(lib->err),
				 "%s (%s) has no function %s", lib->what,
				 lib->soname, lib->fns[i].name);
			return false;
		}
		memcpy(lib->fns[i].dst, &f, sizeof(f));
	}
	return true;
}

bool dynlib_open(struct dynlib *lib)
{
	bool ok;

	pthread_mutex_lock(&lock);
	if (!lib->tried) {
		lib->ok = load(lib);
		lib->tried = true;
	}
	ok = lib->ok;
	pthread_mutex_unlock(&lock);
	return ok;
}
