/*
 * live-sampler.c - the sampler: the target, its events and their rings,
 * and the process flametop starts for "-- COMMAND".  Events by name and
 * their attr are in live-events.c, reading the rings in live-ring.c.
 *
 *   -a        pid -1, one event per online CPU, one ring each
 *   -p PID    one event per thread x CPU with inherit (threads created
 *             later are followed); the first event of each CPU owns that
 *             CPU's ring and the others are redirected there with
 *             PERF_EVENT_IOC_SET_OUTPUT, which only works within a CPU
 *   command   the child is forked and blocks on a pipe; one event per CPU
 *             with inherit and enable_on_exec; then the pipe lets it exec,
 *             so sampling starts exactly at the exec
 *
 */
#include "live.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "live-sampler-priv.h"
#include "util.h"

/* What a message calls the target of an open on pid. */
static void target_name(const struct sampler *s, pid_t pid, int err,
			char *buf, size_t cap)
{
	struct stat st;
	char path[64];

	switch (s->o.target) {
	case LIVE_ALL_CPUS:
		snprintf(buf, cap, "system-wide");
		return;
	case LIVE_COMMAND:
		snprintf(buf, cap, "the command '%s'", s->o.command[0]);
		return;
	default:
		snprintf(path, sizeof(path), "/proc/%d", (int)pid);
		if ((err == EACCES || err == EPERM) && stat(path, &st) == 0 &&
		    st.st_uid != geteuid())
			snprintf(buf, cap, "process %d (owned by another user)",
				 (int)pid);
		else
			snprintf(buf, cap, "process %d", (int)pid);
		return;
	}
}

/* live_explain_errno for an open the kernel refused on this machine. */
static void explain(const struct sampler *s, int e, const char *what,
		    char *err, size_t errcap)
{
	bool refused = (e == EACCES || e == EPERM) &&
		       live_user_events_refused(s->paranoid);

	live_explain_errno(e, what, s->paranoid, refused, err, errcap);
}

static void push_fd(struct sampler *s, int fd)
{
	GROW(s->fds, s->capfds, s->nfds + 1);
	s->fds[s->nfds++] = fd;
}

/* Map a ring for fd; halve the size while the kernel says EPERM. */
static int map_ring(struct sampler *s, struct ring *r, int fd, char *err,
		    size_t errcap)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned pages = s->o.ring_pages;
	void *m;

	for (;;) {
		size_t len = (size_t)(pages + 1) * (size_t)page;

		m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m != MAP_FAILED) {
			struct perf_event_mmap_page *pc = m;

			r->map = m;
			r->map_len = len;
			r->fd = fd;
			r->view.data = (unsigned char *)m + (pc->data_offset ?
							      pc->data_offset :
							      (uint64_t)page);
			r->view.size = pc->data_size ? pc->data_size :
				       (uint64_t)pages * (uint64_t)page;
			r->view.head = (volatile uint64_t *)(void *)&pc->data_head;
			r->view.tail = (volatile uint64_t *)(void *)&pc->data_tail;
			r->view.scratch = xmalloc(SCRATCH_SIZE);
			return 0;
		}
		if (errno == EPERM && pages > MIN_RING_PAGES) {
			pages /= 2;
			continue;
		}
		if (errno == EPERM)
			snprintf(err, errcap, "cannot map the sample buffers: "
				 "limited by kernel.perf_event_mlock_kb and "
				 "RLIMIT_MEMLOCK (ulimit -l); run as root or raise "
				 "them");
		else
			snprintf(err, errcap, "cannot map the sample buffer: %s",
				 strerror(errno));
		return -1;
	}
}

static int online_cpus(struct sampler *s, char *err, size_t errcap)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	char line[4096];

	if (f && fgets(line, sizeof(line), f) &&
	    live_parse_cpulist(line, &s->cpus, &s->ncpus) == 0) {
		fclose(f);
		return 0;
	}
	if (f)
		fclose(f);
	{
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		if (n < 1) {
			snprintf(err, errcap, "cannot tell which CPUs are online");
			return -1;
		}
		s->cpus = xcalloc((size_t)n, sizeof(*s->cpus));
		for (long i = 0; i < n; i++)
			s->cpus[i] = (unsigned)i;
		s->ncpus = (unsigned)n;
	}
	return 0;
}

static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* The threads of pid, from /proc/PID/task; 0 or -errno. */
static int list_tasks(pid_t pid, pid_t **tids, size_t *n)
{
	char path[64];
	DIR *d;
	struct dirent *e;
	size_t cap = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? -ESRCH : -errno;
	*tids = NULL;
	*n = 0;
	while ((e = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		GROW(*tids, cap, *n + 1);
		(*tids)[(*n)++] = (pid_t)atoi(e->d_name);
	}
	closedir(d);
	if (!*n)
		return -ESRCH;
	return 0;
}

/* Keep fd and send its records to ring r. */
static int join_ring(struct sampler *s, struct ring *r, int fd, char *err,
		     size_t errcap)
{
	push_fd(s, fd);
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd) != 0) {
		snprintf(err, errcap, "cannot share the sample buffer of CPU "
			 "%u: %s", r->cpu, strerror(errno));
		return -1;
	}
	return 0;
}

/* Open the events of one CPU for the task pid, owning or joining ring r. */
static int open_on_cpu(struct sampler *s, struct ring *r, pid_t pid,
		       unsigned cpu, bool must, char *err, size_t errcap)
{
	int fd = sampler_open_one(s, pid, cpu);

	if (fd < 0) {
		char what[256];

		if (!must && fd == -ESRCH)
			return 1;   /* a thread that just exited */
		target_name(s, pid, -fd, what, sizeof(what));
		if (s->o.context_switch && s->o.target != LIVE_ALL_CPUS)
			snprintf(what + strlen(what), sizeof(what) - strlen(what),
				 " with %s (it needs the kernel's samples of "
				 "context switches)", s->o.wall_clock ? "--wall" :
				 "--off-cpu");
		if (s->attr.type == PERF_TYPE_HARDWARE &&
		    (fd == -ENOENT || fd == -EOPNOTSUPP || fd == -ENODEV))
			snprintf(err, errcap, "-e %s: this machine has no "
				 "hardware counter for it (perf_event_open: %s; "
				 "a virtual machine often has none); software "
				 "events work: "
				 "cpu-clock, page-faults, context-switches, ...",
				 s->event_name, strerror(-fd));
		else
			explain(s, -fd, what, err, errcap);
		return -1;
	}
	if (r->fd < 0) {
		push_fd(s, fd);
		r->cpu = cpu;
		if (map_ring(s, r, fd, err, errcap) < 0)
			return -1;
		s->nrings++;
	} else if (join_ring(s, r, fd, err, errcap) < 0) {
		return -1;
	}
	if (s->o.wall_clock) {
		/* --wall: cpu-clock beside the switch event, in its ring, with
		 * the attr bits the main event stepped down to. */
		struct perf_event_attr a = s->attr;
		long cfd;

		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_CPU_CLOCK;
		a.freq = 0;
		a.sample_period = 1000000000ull / s->freq;
		a.context_switch = 0;
		a.mmap = a.mmap2 = a.comm = a.comm_exec = a.task = 0;
		cfd = perf_event_open(&a, pid, (int)cpu, -1,
				      PERF_FLAG_FD_CLOEXEC);
		if (cfd < 0) {
			char what[128];
			int e = errno;   /* target_name's stat may change it */

			if (!must && e == ESRCH)
				return 1;
			target_name(s, pid, e, what, sizeof(what));
			explain(s, e, what, err, errcap);
			return -1;
		}
		if (join_ring(s, r, (int)cfd, err, errcap) < 0)
			return -1;
	}
	return 0;
}

static int fork_command(struct sampler *s, char *err, size_t errcap)
{
	int go[2], st[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) != 0)
		goto fail;
	if (pipe2(st, O_CLOEXEC) != 0) {
		close(go[0]);
		close(go[1]);
		goto fail;
	}
	/*
	 * Whatever the command leaves behind (a daemon, a pipeline's other
	 * end, a child in a process group or session of its own) becomes
	 * our child when its parent exits, instead of init's: so that it
	 * ends with flametop (end_command_tree).
	 */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(go[0]);
		close(go[1]);
		close(st[0]);
		close(st[1]);
		goto fail;
	}
	if (pid == 0) {
		char c;
		int e;

		close(go[1]);
		close(st[0]);
		if (s->o.command_quiet) {
			int nul = open("/dev/null", O_RDWR);

			if (nul >= 0) {
				dup2(nul, 0);
				dup2(nul, 1);
				dup2(nul, 2);
				if (nul > 2)
					close(nul);
			}
		} else if (s->o.command_out_to_err) {
			dup2(2, 1);
		}
		signal(SIGPIPE, SIG_DFL);
		/* If flametop dies without closing properly, so does the command. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(s->o.command[0], s->o.command);
		e = errno;
		if (write(st[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(st[1]);
	s->child = pid;
	s->go_fd = go[1];
	s->status_fd = st[0];
	return 0;
fail:
	snprintf(err, errcap, "cannot start '%s': %s", s->o.command[0],
		 strerror(errno));
	return -1;
}

/* The command was reaped: keep its status and CPU time. */
static void child_gone(struct sampler *s, int status, const struct rusage *ru)
{
	s->child_reaped = true;
	s->child_status = status;
	s->child_cpu_ms = (double)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) *
			  1e3 + (double)(ru->ru_utime.tv_usec +
					 ru->ru_stime.tv_usec) / 1e3;
}

static void reap_child(struct sampler *s, bool block)
{
	int status;
	pid_t r;
	struct rusage ru;

	if (s->child <= 0 || s->child_reaped)
		return;
	do
		r = wait4(s->child, &status, block ? 0 : WNOHANG, &ru);
	while (r < 0 && errno == EINTR);
	if (r == s->child) {
		child_gone(s, status, &ru);
	} else if (r < 0) {
		s->child_reaped = true;
		s->child_status = 0;
		s->child_cpu_ms = -1;
	}
}

void sampler_reap(struct sampler *s)
{
	int status;
	pid_t r;
	struct rusage ru;

	if (s->child <= 0)
		return;
	while ((r = wait4(-1, &status, WNOHANG, &ru)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return;
		if (r == s->child && !s->child_reaped)
			child_gone(s, status, &ru);
	}
}

bool sampler_child_done(struct sampler *s, int *status)
{
	reap_child(s, false);
	if (s->child_reaped && status)
		*status = s->child_status;
	return s->child_reaped;
}

int sampler_child_wait(struct sampler *s)
{
	reap_child(s, true);
	return s->child_status;
}

double sampler_child_cpu_ms(const struct sampler *s)
{
	return s->child_reaped ? s->child_cpu_ms : -1;
}

/* A process and its parent, from /proc/PID/stat. */
struct proc_link {
	pid_t pid, ppid;
};

/* The parent of pid, from /proc/PID/stat; -1 when it is gone. */
static pid_t stat_ppid(pid_t pid)
{
	char path[64], buf[512], *close_paren;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	/* "pid (comm) state ppid ...": comm may hold spaces and ')'. */
	close_paren = strrchr(buf, ')');
	if (!close_paren || strlen(close_paren) < 5)
		return -1;
	return (pid_t)atoi(close_paren + 4);
}

/* Every process's parent, from /proc; *n of them (malloc'd). */
static struct proc_link *list_parents(size_t *n)
{
	struct proc_link *v = NULL;
	size_t cap = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;

	*n = 0;
	while (d && (e = readdir(d)) != NULL) {
		pid_t pid, ppid;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid = (pid_t)atoi(e->d_name);
		if ((ppid = stat_ppid(pid)) < 0)
			continue;
		GROW(v, cap, *n + 1);
		v[*n].pid = pid;
		v[(*n)++].ppid = ppid;
	}
	if (d)
		closedir(d);
	return v;
}

/*
 * root and every process descended from it, root first, each with its
 * parent (root's is 0); *n of them (malloc'd).
 */
static struct proc_link *list_descendants(pid_t root, size_t *n)
{
	size_t np, nt = 0, capt = 0;
	struct proc_link *all = list_parents(&np), *tree = NULL;

	GROW(tree, capt, 1);
	tree[nt].pid = root;
	tree[nt++].ppid = 0;
	/* Breadth first: the children of every process found so far. */
	for (size_t k = 0; k < nt; k++)
		for (size_t i = 0; i < np; i++)
			if (all[i].ppid == tree[k].pid && all[i].pid != root) {
				GROW(tree, capt, nt + 1);
				tree[nt++] = all[i];
			}
	free(all);
	*n = nt;
	return tree;
}

/*
 * The threads of root and of every process descended from it; 0, or
 * -ESRCH when root is gone.
 */
static int list_tree(pid_t root, pid_t **tids, size_t *n)
{
	size_t nt;
	struct proc_link *tree = list_descendants(root, &nt);
	int rc = 0;

	*tids = NULL;
	*n = 0;
	for (size_t k = 0; k < nt; k++) {
		pid_t *t = NULL;
		size_t m = 0, c = *n;

		if (list_tasks(tree[k].pid, &t, &m) < 0) {
			if (k == 0)
				rc = -ESRCH;
			continue;
		}
		*tids = xreallocarray(*tids, c + m ? c + m : 1, sizeof(**tids));
		memcpy(*tids + c, t, m * sizeof(*t));
		*n = c + m;
		free(t);
	}
	free(tree);
	return rc;
}

/* Events on every task of root's tree (a rate change: see open_events). */
static int open_task_tree(struct sampler *s, pid_t root, char *err, size_t errcap)
{
	pid_t *tids;
	size_t n;
	int rc = 0;

	list_tree(root, &tids, &n);
	for (unsigned i = 0; i < s->ncpus && rc >= 0; i++)
		for (size_t t = 0; t < n && rc >= 0; t++)
			rc = open_on_cpu(s, &s->rings[i], tids[t], s->cpus[i],
					 false, err, errcap);
	free(tids);
	return rc < 0 ? -1 : 0;
}

/* Pack the rings in use at the front and wait on them with epoll. */
static int finish_rings(struct sampler *s, char *err, size_t errcap)
{
	unsigned k = 0;

	for (unsigned i = 0; i < s->ncpus; i++)
		if (s->rings[i].fd >= 0)
			s->rings[k++] = s->rings[i];
	s->nrings = k;
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (s->epfd < 0) {
		snprintf(err, errcap, "epoll: %s", strerror(errno));
		return -1;
	}
	for (unsigned i = 0; i < s->nrings; i++) {
		struct epoll_event ev = { .events = EPOLLIN };

		ev.data.u32 = i;
		if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->rings[i].fd, &ev) != 0) {
			snprintf(err, errcap, "epoll: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

/*
 * Open the events of the target and map their rings (s->rings has ncpus
 * free slots).  reopen: the command runs already and -p's processes may
 * have new threads and children, so the events go on every task of their
 * trees instead.  0 or -1 + err.
 */
static int open_events(struct sampler *s, bool reopen, char *err,
		       size_t errcap)
{
	int rc = 0;

	switch (s->o.target) {
	case LIVE_ALL_CPUS:
		for (unsigned i = 0; i < s->ncpus && rc == 0; i++)
			rc = open_on_cpu(s, &s->rings[i], -1, s->cpus[i], true,
					 err, errcap);
		break;
	case LIVE_COMMAND:
		if (!s->o.command || !s->o.command[0]) {
			snprintf(err, errcap, "no command to run");
			return -1;
		}
		if (reopen) {
			rc = open_task_tree(s, s->child, err, errcap);
			break;
		}
		if (fork_command(s, err, errcap) < 0)
			return -1;
		for (unsigned i = 0; i < s->ncpus && rc == 0; i++)
			rc = open_on_cpu(s, &s->rings[i], s->child, s->cpus[i],
					 true, err, errcap);
		break;
	case LIVE_PIDS:
		for (size_t p = 0; reopen && p < s->o.npids && rc == 0; p++)
			rc = open_task_tree(s, s->o.pids[p], err, errcap);
		for (size_t p = 0; !reopen && p < s->o.npids && rc == 0; p++) {
			pid_t *tids = NULL;
			size_t ntids = 0;
			int e = list_tasks(s->o.pids[p], &tids, &ntids);

			if (e < 0) {
				char what[64];

				snprintf(what, sizeof(what), "process %d",
					 (int)s->o.pids[p]);
				explain(s, -e, what, err, errcap);
				rc = -1;
				break;
			}
			for (unsigned i = 0; i < s->ncpus && rc == 0; i++)
				for (size_t t = 0; t < ntids && rc >= 0; t++)
					rc = open_on_cpu(s, &s->rings[i], tids[t],
							 s->cpus[i], tids[t] ==
							 s->o.pids[p], err, errcap);
			if (rc > 0)
				rc = 0;
			free(tids);
		}
		break;
	default:
		snprintf(err, errcap, "no live target");
		return -1;
	}
	if (rc < 0)
		return -1;
	return finish_rings(s, err, errcap);
}

struct sampler *sampler_open(const struct sampler_opts *o, char *err,
			     size_t errcap)
{
	struct sampler *s = xcalloc(1, sizeof(*s));
	unsigned max_rate;

	s->o = *o;
	s->epfd = -1;
	s->go_fd = s->status_fd = -1;
	if (!s->o.ring_pages || (s->o.ring_pages & (s->o.ring_pages - 1)))
		s->o.ring_pages = DEFAULT_RING_PAGES;
	/* A DWARF sample is the whole stack copy: rings of 4 MiB or more. */
	if (s->o.dwarf_stack && s->o.ring_pages < DWARF_RING_PAGES)
		s->o.ring_pages = DWARF_RING_PAGES;
	s->paranoid = live_read_int_file("/proc/sys/kernel/perf_event_paranoid",
				    -100);
	if (s->paranoid == -100 &&
	    access("/proc/sys/kernel/perf_event_paranoid", F_OK) != 0) {
		snprintf(err, errcap, "this kernel has no perf events "
			 "(no /proc/sys/kernel/perf_event_paranoid)");
		goto fail;
	}
	if (!s->o.event.name[0] &&
	    live_event_parse("cpu-clock", &s->o.event, err, errcap) < 0)
		goto fail;
	s->freq = o->freq ? o->freq : 99;
	max_rate = (unsigned)live_read_int_file(
		"/proc/sys/kernel/perf_event_max_sample_rate", 100000);
	if (max_rate && s->freq > max_rate) {
		sampler_note(s, "%u Hz is above kernel.perf_event_max_sample_rate; "
			    "sampling at %u Hz", s->freq, max_rate);
		s->freq = max_rate;
	}
	raise_nofile();
	if (online_cpus(s, err, errcap) < 0)
		goto fail;
	s->rings = xcalloc(s->ncpus, sizeof(*s->rings));
	for (unsigned i = 0; i < s->ncpus; i++)
		s->rings[i].fd = -1;
	sampler_setup_attr(s);
	if (open_events(s, false, err, errcap) < 0)
		goto fail;
	return s;
fail:
	sampler_close(s);
	return NULL;
}

int sampler_start(struct sampler *s, char *err, size_t errcap)
{
	if (s->o.target == LIVE_COMMAND) {
		int e = 0;
		ssize_t n;

		if (write(s->go_fd, "g", 1) != 1) {
			snprintf(err, errcap, "cannot start '%s': %s",
				 s->o.command[0], strerror(errno));
			return -1;
		}
		close(s->go_fd);
		s->go_fd = -1;
		do
			n = read(s->status_fd, &e, sizeof(e));
		while (n < 0 && errno == EINTR);
		close(s->status_fd);
		s->status_fd = -1;
		if (n == (ssize_t)sizeof(e)) {
			reap_child(s, true);
			snprintf(err, errcap, "cannot run '%s': %s",
				 s->o.command[0], strerror(e));
			return -1;
		}
		return 0;   /* enable_on_exec did the rest */
	}
	for (size_t i = 0; i < s->nfds; i++)
		if (ioctl(s->fds[i], PERF_EVENT_IOC_ENABLE, 0) != 0) {
			snprintf(err, errcap, "cannot enable sampling: %s",
				 strerror(errno));
			return -1;
		}
	return 0;
}

/* Disable, unmap and close every event (closing one also ends the
 * events its tasks' children inherited from it). */
static void close_events(struct sampler *s)
{
	for (size_t i = 0; i < s->nfds; i++)
		ioctl(s->fds[i], PERF_EVENT_IOC_DISABLE, 0);
	for (unsigned i = 0; s->rings && i < s->ncpus; i++) {
		if (s->rings[i].map)
			munmap(s->rings[i].map, s->rings[i].map_len);
		free(s->rings[i].view.scratch);
		memset(&s->rings[i], 0, sizeof(s->rings[i]));
		s->rings[i].fd = -1;
	}
	for (size_t i = 0; i < s->nfds; i++)
		close(s->fds[i]);
	s->nfds = 0;
	s->nrings = 0;
	s->nhup = 0;
	if (s->epfd >= 0)
		close(s->epfd);
	s->epfd = -1;
}

/*
 * Send sig to l->pid if it is still the process listed: a pidfd pins it
 * and its parent is read again, so a pid reused since the listing is left
 * alone (our own children's pids cannot be reused before we reap them).
 * 0 when sent.
 */
static int signal_listed(const struct proc_link *l, pid_t self, int sig)
{
	long fd;
	int rc = -1;

	if (l->ppid == self)
		return kill(l->pid, sig);
#if defined(SYS_pidfd_open) && defined(SYS_pidfd_send_signal)
	fd = syscall(SYS_pidfd_open, l->pid, 0);
#else
	fd = -1;
	errno = ENOSYS;
#endif
	if (fd < 0 && errno == ENOSYS)   /* a kernel before 5.3 */
		return stat_ppid(l->pid) == l->ppid ? kill(l->pid, sig) : -1;
	if (fd < 0)
		return -1;
#if defined(SYS_pidfd_open) && defined(SYS_pidfd_send_signal)
	if (stat_ppid(l->pid) == l->ppid)
		rc = (int)syscall(SYS_pidfd_send_signal, (int)fd, sig, NULL, 0);
#endif
	close((int)fd);
	return rc;
}

/*
 * End the command and every process descended from it, whether it still
 * runs or left them behind: as their subreaper flametop is the parent of
 * those orphaned on the way, so the parent links from flametop reach them
 * all, whatever their process group or session.  Each gets SIGTERM (and
 * SIGCONT, should it be stopped) once, new ones too, for up to a second;
 * then SIGKILL until none is left, or none can be signalled (another
 * user's, after a set-user-id program).  Every child is reaped; the
 * command's status is kept.
 */
static void end_command_tree(struct sampler *s)
{
	pid_t self = getpid(), *termed = NULL;
	size_t nterm = 0, capterm = 0;
	double start = now_seconds();

	/* Timed in seconds, not rounds: a round's /proc walk is slow on a
	 * busy machine.  SIGKILL goes on for at most another second. */
	for (;;) {
		struct timespec ts = { 0, 10000000 };
		size_t n;
		struct proc_link *tree;
		double t = now_seconds() - start;
		bool sent = false, killing = t >= 1.0;

		sampler_reap(s);
		tree = list_descendants(self, &n);
		/* Deepest first, so that fewer parents die before their
		 * children are signalled ([0] is flametop).  One whose parent
		 * died meanwhile is ours now: signalled next round. */
		for (size_t k = n; k-- > 1;) {
			bool known = false;

			if (killing) {
				sent |= signal_listed(&tree[k], self, SIGKILL) == 0;
				continue;
			}
			for (size_t i = 0; i < nterm && !known; i++)
				known = termed[i] == tree[k].pid;
			if (known || signal_listed(&tree[k], self, SIGTERM) != 0)
				continue;
			signal_listed(&tree[k], self, SIGCONT);
			GROW(termed, capterm, nterm + 1);
			termed[nterm++] = tree[k].pid;
		}
		free(tree);
		if (n <= 1 || (killing && (!sent || t >= 2.0)))
			break;
		nanosleep(&ts, NULL);
	}
	free(termed);
	sampler_reap(s);
}

void sampler_close(struct sampler *s)
{
	if (!s)
		return;
	close_events(s);
	if (s->go_fd >= 0)
		close(s->go_fd);   /* a command not started reads EOF and exits */
	if (s->status_fd >= 0)
		close(s->status_fd);
	if (s->child > 0)
		end_command_tree(s);
	free(s->rings);
	free(s->fds);
	free(s->cpus);
	free(s);
}

unsigned sampler_set_freq(struct sampler *s, unsigned hz, sampler_record_fn fn,
			  void *ctx, char *err, size_t errcap)
{
	unsigned max_rate = (unsigned)live_read_int_file(
		"/proc/sys/kernel/perf_event_max_sample_rate", 100000);
	unsigned old = s->freq;

	err[0] = '\0';
	if (sampler_fixed_period(s)) {
		snprintf(err, errcap, "the rate is fixed: every %llu %s event%s",
			 (unsigned long long)s->attr.sample_period,
			 s->event_name, s->attr.sample_period == 1 ? "" : "s");
		return s->freq;
	}
	if (hz < 1)
		hz = 1;
	if (max_rate && hz > max_rate)
		hz = max_rate;
	/*
	 * PERF_EVENT_IOC_PERIOD is not to be trusted here: on a running
	 * cpu-clock event the new period may not take effect, or the samples'
	 * PERIOD field may keep the old one, and events inherited by tasks
	 * started since never see it.  So: stop, hand out what the rings
	 * hold, and open every event again at the new rate.
	 */
	for (size_t i = 0; i < s->nfds; i++)
		ioctl(s->fds[i], PERF_EVENT_IOC_DISABLE, 0);
	sampler_drain(s, fn, ctx);
	close_events(s);
	for (int attempt = 0; attempt < 2; attempt++) {
		s->freq = attempt ? old : hz;
		if (s->attr.freq)
			s->attr.sample_freq = s->freq;
		else
			s->attr.sample_period = 1000000000ull / s->freq;
		s->attr.enable_on_exec = 0;   /* the command runs already */
		s->attr.disabled = 1;
		if (open_events(s, true, err, errcap) == 0) {
			sampler_enable(s, true);
			return s->freq;
		}
		close_events(s);
	}
	return s->freq;
}

unsigned sampler_freq(const struct sampler *s) { return s->freq; }
uint64_t sampler_fixed_period(const struct sampler *s)
{
	return s->attr.freq || (s->o.event.clock && !s->o.period)
	       ? 0 : s->attr.sample_period;
}

const struct live_event *sampler_event(const struct sampler *s)
{
	return &s->o.event;
}

const char *sampler_event_name(const struct sampler *s) { return s->event_name; }
pid_t sampler_child(const struct sampler *s) { return s->child; }
unsigned sampler_nrings(const struct sampler *s) { return s->nrings; }
unsigned sampler_nfds(const struct sampler *s) { return (unsigned)s->nfds; }

bool sampler_kernel_frames(const struct sampler *s)
{
	return !s->attr.exclude_kernel && !s->attr.exclude_callchain_kernel;
}

const char *sampler_notes(const struct sampler *s)
{
	return s->notes[0] ? s->notes : NULL;
}

const struct perf_event_attr *sampler_attr(const struct sampler *s)
{
	return &s->attr;
}

bool sampler_monotonic(const struct sampler *s)
{
	return s->attr.use_clockid && s->attr.clockid == CLOCK_MONOTONIC;
}

void sampler_enable(struct sampler *s, bool on)
{
	for (size_t i = 0; i < s->nfds; i++)
		ioctl(s->fds[i], on ? PERF_EVENT_IOC_ENABLE :
				      PERF_EVENT_IOC_DISABLE, 0);
}
