/*
 * test-atomic-file.c - atomic_file_open/_commit/_abort (util.c): a file
 * appears only when committed, whole; a failed write leaves nothing and
 * says why; without replace a taken name is left alone and another name
 * can be tried; a device is written as it is.  In a directory of our own.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "util.h"

/* How many names the directory holds, and the first one's. */
static int entries(char *first, size_t cap)
{
	DIR *d = opendir(".");
	int n = 0;

	assert_non_null(d);
	first[0] = '\0';
	for (struct dirent *e; (e = readdir(d));) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (!n++)
			snprintf(first, cap, "%s", e->d_name);
	}
	closedir(d);
	return n;
}

static void slurp(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, cap - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void clean(void)
{
	DIR *d = opendir(".");

	for (struct dirent *e; d && (e = readdir(d));)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlink(e->d_name);
	if (d)
		closedir(d);
}

static void test_whole_on_commit(void **state)
{
	struct atomic_file af;
	char name[256], buf[64];

	(void)state;
	clean();
	assert_non_null(atomic_file_open(&af, "out.txt", true));
	fputs("hello\n", af.f);
	/* Written, not committed: only the temporary file, hidden, exists. */
	assert_int_equal(entries(name, sizeof(name)), 1);
	assert_true(name[0] == '.' && strncmp(name, ".out.txt.", 9) == 0);
	assert_int_equal(access("out.txt", F_OK), -1);
	assert_int_equal(atomic_file_commit(&af, NULL), 0);
	assert_int_equal(entries(name, sizeof(name)), 1);
	assert_string_equal(name, "out.txt");
	slurp("out.txt", buf, sizeof(buf));
	assert_string_equal(buf, "hello\n");
	/* Replaced whole, keeping the mode of the file replaced. */
	assert_int_equal(chmod("out.txt", 0600), 0);
	assert_non_null(atomic_file_open(&af, "out.txt", true));
	fputs("again\n", af.f);
	assert_int_equal(atomic_file_commit(&af, NULL), 0);
	slurp("out.txt", buf, sizeof(buf));
	assert_string_equal(buf, "again\n");
	{
		struct stat st;

		assert_int_equal(stat("out.txt", &st), 0);
		assert_int_equal(st.st_mode & 0777, 0600);
	}
}

/* In an empty directory, path holds old; af is open on it, text written. */
static void over_old(struct atomic_file *af, const char *path, const char *old,
		     bool replace, const char *text)
{
	clean();
	put(path, old);
	assert_non_null(atomic_file_open(af, path, replace));
	fputs(text, af->f);
}

static void test_abort_leaves_old(void **state)
{
	struct atomic_file af;
	char name[256], buf[64];

	(void)state;
	over_old(&af, "out.txt", "old\n", true, "new, never whole\n");
	atomic_file_abort(&af);
	assert_int_equal(entries(name, sizeof(name)), 1);
	slurp("out.txt", buf, sizeof(buf));
	assert_string_equal(buf, "old\n");
	/* Nothing left to do: another commit or abort is harmless. */
	assert_int_equal(atomic_file_commit(&af, NULL), -1);
	atomic_file_abort(&af);
}

static void test_no_replace(void **state)
{
	struct atomic_file af;
	char name[256], buf[64];

	(void)state;
	over_old(&af, "taken", "mine\n", false, "theirs\n");
	assert_int_equal(atomic_file_commit(&af, NULL), -1);
	assert_int_equal(errno, EEXIST);
	slurp("taken", buf, sizeof(buf));
	assert_string_equal(buf, "mine\n");
	/* The file stays ready: committed under another name. */
	assert_int_equal(atomic_file_commit(&af, "free"), 0);
	slurp("free", buf, sizeof(buf));
	assert_string_equal(buf, "theirs\n");
	assert_int_equal(entries(name, sizeof(name)), 2);
	/* Taken, then given up: the temporary file goes. */
	assert_non_null(atomic_file_open(&af, "taken", false));
	assert_int_equal(atomic_file_commit(&af, "free"), -1);
	atomic_file_abort(&af);
	assert_int_equal(entries(name, sizeof(name)), 2);
}

/*
 * /dev/full: a device, written as it is; its error is the one reported.
 * Paths that cannot be: errno says why, and no file is left.
 */
static void test_errors(void **state)
{
	struct atomic_file af;

	(void)state;
	if (access("/dev/full", W_OK) != 0)
		skip();
	assert_non_null(atomic_file_open(&af, "/dev/full", true));
	assert_null(af.tmp);
	for (int i = 0; i < 10000; i++)
		fputs("a line that fills the buffer and more\n", af.f);
	assert_int_equal(atomic_file_commit(&af, NULL), -1);
	assert_int_equal(errno, ENOSPC);
	atomic_file_abort(&af);
	/* A directory that does not exist: no file, errno says why. */
	errno = 0;
	assert_null(atomic_file_open(&af, "no/such/dir/out.txt", true));
	assert_int_equal(errno, ENOENT);
	/* No name: nothing made (a temporary file would have been). */
	errno = 0;
	assert_null(atomic_file_open(&af, "", true));
	assert_int_equal(errno, ENOENT);
	errno = 0;
	assert_null(atomic_file_open(&af, "", false));
	assert_int_equal(errno, ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_on_commit),
		cmocka_unit_test(test_abort_leaves_old),
		cmocka_unit_test(test_no_replace),
		cmocka_unit_test(test_errors),
	};
	char dir[] = "/tmp/flametop-test-atomic.XXXXXX";
	int rc;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(chdir(dir), 0);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	clean();
	if (chdir("/") == 0)
		rmdir(dir);
	return rc;
}
