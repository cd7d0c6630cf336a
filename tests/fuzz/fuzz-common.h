/*
 * fuzz-common.h - what the fuzz targets share: what every reader's target
 * does after reading (finish the profile, run the exporters and the
 * diagnostics over it to /dev/null, free everything), and the files of the
 * targets whose code reads files by name.
 */
#ifndef FLAMETOP_FUZZ_COMMON_H
#define FLAMETOP_FUZZ_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "export.h"
#include "input.h"
#include "profile.h"
#include "symbols.h"

static inline void fuzz_export_and_free(struct profile *p, struct input *in,
					struct diag *d)
{
	struct text_opts t = { .width = 80, .zoom = NODE_ROOT };
	FILE *null = fopen("/dev/null", "w");

	if (null) {
		export_collapse(null, p);
		export_text(null, p, &t);
		diag_print(d, null, "fuzz");
		fclose(null);
	}
	input_close(in);
	diag_free(d);
	profile_destroy(p);
}

/*
 * Symbols from no file of this machine: binaries only under root (NULL:
 * a directory that does not exist; every run would otherwise load libc's
 * symbols), no kallsyms, no JIT maps, no build-id cache in $HOME.
 */
static inline void fuzz_no_machine_files(const char *root)
{
	struct sym_opts o = {
		.demangle = true,
		.root = root ? root : "/nonexistent-fuzz-root",
		.kallsyms = "/nonexistent-fuzz-root/kallsyms",
		.jit_dir = "/nonexistent-fuzz-root",
	};

	sym_set_defaults(&o);
	setenv("HOME", "/nonexistent-fuzz-root", 1);
}

/*
 * Send what the code prints to stderr to /dev/null, but not file
 * descriptor 2: libFuzzer's statistics and the sanitizers' reports go
 * there.  (glibc's stderr is a variable that may be assigned.)
 */
static inline void fuzz_quiet_stderr(void)
{
	static FILE *null;

	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	stderr = null;
}

/* Print the messages of d (to /dev/null) and free them. */
static inline void fuzz_diag_done(struct diag *d)
{
	FILE *null = fopen("/dev/null", "w");

	if (null) {
		diag_print(d, null, "fuzz");
		fclose(null);
	}
	diag_free(d);
}

/*
 * The hex number each of the first max lines of data starts with (0 for
 * a line that starts otherwise), as symbol files begin their lines with
 * an address.  Returns how many lines there were, up to max.
 */
static inline size_t fuzz_line_addrs(const uint8_t *data, size_t size,
				     uint64_t *out, size_t max)
{
	size_t lines = 0;

	for (size_t i = 0; i < size && lines < max; lines++) {
		const uint8_t *nl = memchr(data + i, '\n', size - i);
		size_t end = nl ? (size_t)(nl - data) : size;
		size_t n = end - i < 16 ? end - i : 16;
		char num[17];

		memcpy(num, data + i, n);
		num[n] = 0;
		out[lines] = strtoull(num, NULL, 16);
		i = end + 1;
	}
	return lines;
}

/* The directory fuzz_write_file writes in, and the files it wrote. */
#define FUZZ_FILES 4
struct fuzz_files {
	char dir[64];
	char name[FUZZ_FILES][64];
};

static inline struct fuzz_files *fuzz_files(void)
{
	static struct fuzz_files f;

	return &f;
}

static inline void fuzz_remove_files(void)
{
	struct fuzz_files *f = fuzz_files();
	char path[160];

	for (int i = 0; i < FUZZ_FILES && f->name[i][0]; i++) {
		char *sl;

		snprintf(path, sizeof(path), "%.63s/%.63s", f->dir, f->name[i]);
		unlink(path);
		/* Its directories, deepest first. */
		while ((sl = strrchr(path + strlen(f->dir) + 1, '/'))) {
			*sl = 0;
			rmdir(path);
		}
	}
	rmdir(f->dir);
}

/*
 * Write data to name (one of at most FUZZ_FILES names, "a/b" makes the
 * directory a) in a directory of this process's own (in /dev/shm when
 * there is one: no disk), made on the first call and removed at exit;
 * returns the directory.  Each call replaces the file: a new inode, so no
 * reader keeps a stale view of it.
 */
static inline const char *fuzz_write_file(const char *name,
					  const uint8_t *data, size_t size)
{
	struct fuzz_files *f = fuzz_files();
	char path[160];
	int fd, i;

	if (!f->dir[0]) {
		snprintf(f->dir, sizeof(f->dir), "%s/flametop-fuzz-XXXXXX",
			 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
		if (!mkdtemp(f->dir))
			abort();
		atexit(fuzz_remove_files);
	}
	for (i = 0; i < FUZZ_FILES && f->name[i][0]; i++)
		if (strcmp(f->name[i], name) == 0)
			break;
	if (i == FUZZ_FILES || strlen(name) >= sizeof(f->name[i]))
		abort();
	snprintf(f->name[i], sizeof(f->name[i]), "%s", name);
	snprintf(path, sizeof(path), "%.63s/%.63s", f->dir, name);
	for (char *sl = path + strlen(f->dir) + 1; (sl = strchr(sl, '/'));
	     *sl++ = '/') {
		*sl = 0;
		if (mkdir(path, 0700) != 0 && errno != EEXIST)
			abort();
	}
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	close(fd);
	return f->dir;
}

#endif
