/*
 * util.c - allocation wrappers, fatal errors, a fast string hash, whole
 * reads with pread and files written whole or not at all.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

static const char *program = "flametop";
static util_teardown_fn teardown;

void util_set_program(const char *name) { program = name; }
void util_set_teardown(util_teardown_fn fn) { teardown = fn; }

void util_run_teardown(void)
{
	util_teardown_fn fn = teardown;

	teardown = NULL;
	if (fn)
		fn();
}

void fatal(const char *fmt, ...)
{
	va_list ap;

	util_run_teardown();
	fprintf(stderr, "%s: ", program);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void warnx_(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void *oom(size_t n)
{
	fatal("out of memory (allocating %zu bytes)", n);
}

size_t pread_full(int fd, void *buf, size_t n, uint64_t off)
{
	size_t have = 0;

	while (have < n) {
		ssize_t got = pread(fd, (char *)buf + have, n - have,
				    (off_t)(off + have));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		have += (size_t)got;
	}
	return have;
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	return p ? p : oom(n);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	return p ? p : oom(n * size);
}

/* Tables smaller than this take few faults: not worth a system call. */
#define POPULATE_MIN ((size_t)16 << 10)

void populate_table(void *a, size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t start = ((uintptr_t)a + 4095) & ~(uintptr_t)4095;
	uintptr_t end = ((uintptr_t)a + bytes) & ~(uintptr_t)4095;

	/* The pages wholly inside a; an older kernel says EINVAL: no harm. */
	if (end > start && end - start >= POPULATE_MIN)
		madvise((void *)start, end - start, MADV_POPULATE_WRITE);
#else
	(void)a;
	(void)bytes;
#endif
}

void *xcalloc_table(size_t n, size_t size)
{
	void *p = xcalloc(n, size);

	populate_table(p, n * size);
	return p;
}

void *xcalloc_owned(size_t n, size_t size)
{
	size_t bytes;
	void *p;

	if (__builtin_mul_overflow(n ? n : 1, size ? size : 1, &bytes) ||
	    bytes > SIZE_MAX - THREAD_ALIGN)
		return oom(SIZE_MAX);
	/* aligned_alloc wants a multiple of the alignment. */
	bytes = (bytes + THREAD_ALIGN - 1) / THREAD_ALIGN * THREAD_ALIGN;
	p = aligned_alloc(THREAD_ALIGN, bytes);
	return p ? memset(p, 0, bytes) : oom(bytes);
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	return q ? q : oom(n);
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	size_t total;

	if (__builtin_mul_overflow(n, size, &total))
		fatal("out of memory (array of %zu x %zu bytes)", n, size);
	return xrealloc(p, total);
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		fatal("bad format string");
	p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

/* The capacity after cap (first: start) doubled until need fits. */
static size_t doubled(size_t cap, size_t need, size_t start)
{
	size_t n = cap ? cap : start;

	while (n < need) {
		if (n > SIZE_MAX / 2)
			fatal("out of memory (array of %zu elements)", need);
		n *= 2;
	}
	return n;
}

void grow_array(void **p, size_t *cap, size_t need, size_t sz)
{
	size_t n;

	if (need <= *cap)
		return;
	n = doubled(*cap, need, 16);
	*p = xreallocarray(*p, n, sz);
	*cap = n;
}

/*
 * A multiply-xorshift hash over two independent 8-byte lanes, so the
 * multiplications of one overlap the other's: frame names and perf script
 * frame lines are hashed on the load's hot path.  The seed separates uses
 * that must not collide (for instance two spellings of one line).
 */
uint64_t hash_bytes_seed(const void *p, size_t n, uint64_t seed)
{
	const unsigned char *s = p;
	uint64_t a = 0x9e3779b97f4a7c15ULL ^ n, b = 0xc2b2ae3d27d4eb4fULL + seed;
	uint64_t w, v;

	while (n >= 16) {
		memcpy(&w, s, 8);
		memcpy(&v, s + 8, 8);
		a = (a ^ w) * 0xbf58476d1ce4e5b9ULL;
		b = (b ^ v) * 0x94d049bb133111ebULL;
		a ^= a >> 31;
		b ^= b >> 29;
		s += 16;
		n -= 16;
	}
	if (n >= 8) {
		memcpy(&w, s, 8);
		a = (a ^ w) * 0xbf58476d1ce4e5b9ULL;
		a ^= a >> 31;
		s += 8;
		n -= 8;
	}
	w = hash_tail_word(s, n, s != p);
	b = (b ^ w ^ ((uint64_t)n << 56)) * 0x94d049bb133111ebULL;
	return hash_u64(a ^ (b >> 7) ^ (b << 57));
}

uint64_t hash_bytes(const void *p, size_t n)
{
	return hash_bytes_seed(p, n, 0);
}

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Ask for transparent huge pages on a large array that is written or read
 * at random (the node arrays, the child table): with 4 KB pages nearly every
 * access to a big tree misses the TLB as well as the cache, and faulting in
 * 2 MB at a time is cheaper (much cheaper in a VM, where a fault can cost
 * tens of microseconds).  Only a hint; 10-20% off loading a 300 MB file.
 * Below 2 MB no huge page fits.
 */
void advise_huge(void *a, size_t bytes)
{
#ifdef MADV_HUGEPAGE
	uintptr_t start = ((uintptr_t)a + 4095) & ~(uintptr_t)4095;
	uintptr_t end = ((uintptr_t)a + bytes) & ~(uintptr_t)4095;

	if (bytes >= (2u << 20) && end > start)
		madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
	(void)a;
	(void)bytes;
#endif
}

/*
 * Large arrays (a profile's per-node arrays, perf.data's record index) are
 * mappings of their own, grown with mremap: a big array then grows without
 * copying (realloc copies whatever the allocator keeps on its heap, a
 * quarter of the load time of a 5-million node tree).  New pages are zero.
 *
 * Page faults are what filling a new array costs: on a VM a 4 KB fault
 * takes 10-15 us, so 8 MB of 4 KB pages take 30 ms to touch and the same
 * 8 MB in huge pages under 1 ms.  An array that reaches ARR_HUGE bytes is
 * therefore moved to a mapping that starts on a 2 MB boundary and spans
 * whole 2 MB pages, with huge pages asked for: every later fault brings
 * in 2 MB.  Smaller arrays stay in 4 KB pages, so a small profile (or a
 * view of one) does not take 2 MB for each of its arrays.
 */
#define ARR_HUGE ((size_t)256 << 10)

/*
 * ThreadSanitizer does not follow mremap: an array moved away leaves the
 * accesses made at its old addresses on record, and when another thread's
 * array is mapped there later, its first writes seem to race with them.
 * The kernel orders the two (the addresses were free in between); the
 * array functions say so to ThreadSanitizer, releasing before they move or
 * unmap an array and acquiring once they have mapped one.  Nothing in
 * other builds.
 */
#if defined(__SANITIZE_THREAD__)
#define ARR_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ARR_TSAN 1
#endif
#endif
#ifdef ARR_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
static char arr_moves;
#define ARR_MOVING() __tsan_release(&arr_moves)
#define ARR_MAPPED() __tsan_acquire(&arr_moves)
#else
#define ARR_MOVING() ((void)0)
#define ARR_MAPPED() ((void)0)
#endif
#define HUGE_PAGE ((size_t)2 << 20)

static size_t arr_bytes(size_t n, size_t sz)
{
	size_t b;

	if (__builtin_mul_overflow(n, sz, &b) || b > SIZE_MAX - HUGE_PAGE)
		fatal("out of memory (array of %zu elements)", n);
	if (b >= ARR_HUGE)
		return (b + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	return (b + 4095) & ~(size_t)4095;
}

/*
 * Whether a[0..n) (n a multiple of 4096) is all zero bytes: an array
 * never written (a profile's weights while its tree is built) is then
 * not copied, and its first huge page not faulted in.  Reading pages
 * never written maps none.
 */
static bool all_zero(const void *a, size_t n)
{
	const uint64_t *w = a;

	for (size_t i = 0; i < n / sizeof(*w); i++)
		if (w[i])
			return false;
	return true;
}

/* bytes (a multiple of 2 MB) of new zero memory on a 2 MB boundary. */
static void *map_huge(size_t bytes)
{
	unsigned char *r = mmap(NULL, bytes + HUGE_PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t a;
	size_t head;

	if (r == MAP_FAILED)
		return MAP_FAILED;
	a = ((uintptr_t)r + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	head = a - (uintptr_t)r;
	if (head)
		munmap(r, head);
	munmap((unsigned char *)a + bytes, HUGE_PAGE - head);
	advise_huge((void *)a, bytes);
	return (void *)a;
}

void *arr_resize(void *a, size_t oldn, size_t newn, size_t sz)
{
	size_t ob = a ? arr_bytes(oldn, sz) : 0, nb = arr_bytes(newn, sz);
	void *m;

	if (a && nb == ob)
		return a;
	ARR_MOVING();
	if (nb < ARR_HUGE) {
		m = a ? mremap(a, ob, nb, MREMAP_MAYMOVE)
		      : mmap(NULL, nb, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	} else if (!a) {
		m = map_huge(nb);
	} else if (ob < ARR_HUGE) {
		/*
		 * From 4 KB pages to huge ones: a copy, so that the first
		 * 2 MB is one huge page too (moved 4 KB pages would keep it
		 * in 4 KB pages).  At most ARR_HUGE bytes are copied.
		 */
		m = map_huge(nb);
		if (m != MAP_FAILED) {
			if (!all_zero(a, ob < nb ? ob : nb))
				memcpy(m, a, ob < nb ? ob : nb);
			munmap(a, ob);
		}
	} else if ((m = mremap(a, ob, nb, 0)) != MAP_FAILED) {
		/* Shrunk or grown in place: still on its boundary. */
		advise_huge(m, nb);
	} else {
		/* Moved whole onto a new boundary: its huge pages move too. */
		m = map_huge(nb);
		if (m != MAP_FAILED)
			m = mremap(a, ob, nb, MREMAP_MAYMOVE | MREMAP_FIXED, m);
	}
	if (m == MAP_FAILED)
		fatal("out of memory (array of %zu elements)", newn);
	ARR_MAPPED();
	return m;
}

void arr_need(void **a, size_t *cap, size_t need, size_t sz)
{
	size_t n;

	if (need <= *cap)
		return;
	n = doubled(*cap, need, 1024);
	*a = arr_resize(*a, *cap, n, sz);
	*cap = n;
}

void arr_free(void *a, size_t n, size_t sz)
{
	if (a) {
		ARR_MOVING();
		munmap(a, arr_bytes(n, sz));
	}
}

/* ---- Sorting --------------------------------------------------------- */

struct keyed *keyed_sort(struct keyed *a, size_t n)
{
	struct keyed *tmp = xmalloc((n ? n : 1) * sizeof(*tmp)), *t;

	for (unsigned shift = 0; shift < 64; shift += 8) {
		size_t cnt[257] = { 0 };
		bool same = false;

		for (size_t i = 0; i < n; i++)
			cnt[((a[i].key >> shift) & 255) + 1]++;
		for (unsigned b = 1; b <= 256; b++) {
			same |= cnt[b] == n;
			cnt[b] += cnt[b - 1];
		}
		if (same)
			continue;
		for (size_t i = 0; i < n; i++)
			tmp[cnt[(a[i].key >> shift) & 255]++] = a[i];
		t = a;
		a = tmp;
		tmp = t;
	}
	free(tmp);
	return a;
}

/* ---- Whole files ----------------------------------------------------- */

/*
 * Rename without replacing a file that exists: renameat2 where the file
 * system has it, else a hard link (which never replaces either) and the
 * old name removed.
 */
static int rename_noreplace(const char *from, const char *to)
{
	if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	if (link(from, to) != 0)
		return -1;
	unlink(from);
	return 0;
}

/* dest's temporary file: create ".NAME.XXXXXX" beside it; its fd or -1. */
static int create_beside(const char *dest, mode_t mode, char **tmp)
{
	const char *slash = strrchr(dest, '/');
	const char *base = slash ? slash + 1 : dest;
	int dirlen = slash ? (int)(slash - dest + 1) : 0;
	static unsigned counter;
	struct timespec ts;
	uint64_t r;

	for (int tries = 0; tries < 100; tries++) {
		int fd;

		clock_gettime(CLOCK_REALTIME, &ts);
		r = hash_u64((uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^
			     (uint64_t)getpid() << 40 ^ ++counter);
		/* The name shortened so that the suffix keeps within NAME_MAX. */
		*tmp = xasprintf("%.*s.%.200s.%06llx", dirlen, dest, base,
				 (unsigned long long)(r & 0xffffff));
		fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
		if (fd >= 0)
			return fd;
		free(*tmp);
		*tmp = NULL;
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

/*
 * The stream's writes, through a cookie: stdio forgets why a write failed
 * (a full disk) by the time the caller checks, so the first error is kept.
 */
static ssize_t atomic_file_write(void *cookie, const char *buf, size_t n)
{
	struct atomic_file *af = cookie;
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(af->fd, buf + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!af->err)
				af->err = w < 0 ? errno : EIO;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)w;
	}
	return (ssize_t)done;
}

FILE *atomic_file_open(struct atomic_file *af, const char *path, bool replace)
{
	static const cookie_io_functions_t io = { .write = atomic_file_write };
	struct stat st, lst;
	mode_t mode = 0666;            /* less umask, as any new file */
	char *dest = NULL;
	bool replacing = false, direct = false;
	int e;

	memset(af, 0, sizeof(*af));
	af->replace = replace;
	af->fd = -1;
	if (!*path) {
		errno = ENOENT;        /* as open says: not "..XXXXXX" made */
		return NULL;
	}
	if (replace && stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode)) {
			/* A device or a pipe: written as it is. */
			af->fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
			direct = true;
		} else {
			mode = st.st_mode & 0777;
			replacing = true;
			/* Through a symbolic link: the file it leads to. */
			if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
				dest = realpath(path, NULL);
		}
	}
	if (!dest)
		dest = xstrdup(path);
	if (!direct) {
		af->fd = create_beside(dest, mode, &af->tmp);
		/* The mode of the file replaced, whatever umask says. */
		if (af->fd >= 0 && replacing)
			(void)fchmod(af->fd, mode);
		/* A file we may write in a directory we may not: in place. */
		if (af->fd < 0 && replacing && (errno == EACCES || errno == EPERM))
			af->fd = open(dest, O_WRONLY | O_TRUNC | O_CLOEXEC);
	}
	if (af->fd >= 0 && (af->f = fopencookie(af, "w", io))) {
		af->dest = dest;
		return af->f;
	}
	e = errno;
	if (af->fd >= 0)
		close(af->fd);
	if (af->tmp)
		unlink(af->tmp);
	free(af->tmp);
	free(dest);
	memset(af, 0, sizeof(*af));
	af->fd = -1;
	errno = e;
	return NULL;
}

int atomic_file_commit(struct atomic_file *af, const char *name)
{
	char *to = NULL;
	int e = 0, r;

	if (!af->dest) {
		errno = EBADF;
		return -1;
	}
	if (af->f) {
		if (fflush(af->f) != 0 || ferror(af->f))
			e = af->err ? af->err : EIO;
		else if (af->tmp && fsync(af->fd) != 0)
			e = errno;
		fclose(af->f);          /* the cookie's: the fd stays open */
		af->f = NULL;
		if (close(af->fd) != 0 && !e)
			e = errno;
		af->fd = -1;
		if (e) {
			atomic_file_abort(af);
			errno = e;
			return -1;
		}
	}
	if (!af->tmp) {
		atomic_file_abort(af);
		return 0;
	}
	if (name) {
		const char *slash = strrchr(af->dest, '/');

		to = xasprintf("%.*s%s", slash ? (int)(slash - af->dest + 1) : 0,
			       af->dest, name);
	}
	r = af->replace ? rename(af->tmp, to ? to : af->dest) :
			  rename_noreplace(af->tmp, to ? to : af->dest);
	e = errno;
	free(to);
	if (r != 0) {
		errno = e;
		return -1;
	}
	free(af->tmp);
	af->tmp = NULL;
	atomic_file_abort(af);
	return 0;
}

void atomic_file_abort(struct atomic_file *af)
{
	int e = errno;

	if (af->f)
		fclose(af->f);
	if (af->fd >= 0)
		close(af->fd);
	if (af->tmp)
		unlink(af->tmp);
	free(af->tmp);
	free(af->dest);
	memset(af, 0, sizeof(*af));
	af->fd = -1;
	errno = e;
}

/* The part of s[0..n) after its last '/' (all of it when there is none or
 * nothing follows the slash). */
static size_t base_off(const char *s, size_t n)
{
	size_t k = n;

	while (k > 0 && s[k - 1] != '/')
		k--;
	return k < n ? k : 0;
}

void title_base_names(const char *title, bool two, char *buf, size_t cap)
{
	const char *vs = two ? strstr(title, " vs ") : NULL;
	size_t n = strlen(title);

	if (vs) {
		size_t bn = (size_t)(vs - title), b0 = base_off(title, bn);
		const char *an = vs + 4;
		size_t a0 = base_off(an, strlen(an));

		snprintf(buf, cap, "%.*s vs %s", (int)(bn - b0), title + b0,
			 an + a0);
	} else {
		snprintf(buf, cap, "%s", title + base_off(title, n));
	}
}
