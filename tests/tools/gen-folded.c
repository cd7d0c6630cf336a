/*
 * gen-folded - a deterministic synthetic folded profile for benchmarks.
 *
 * usage: gen-folded [-n STACKS] [-s SEED] [--shuffle] [--funcs N]
 *                   [--callees N] [--min-depth D] [--max-depth D] [--short-names] [-o FILE]
 *
 * Writes STACKS (default 300000) distinct stacks as "frame;frame;... COUNT"
 * lines, sorted by stack in byte order as stackcollapse scripts write them,
 * or in a random order with --shuffle (the same stacks and counts).  The
 * same seed gives the same bytes on every machine and with any compiler
 * (random draws are sequenced; the floating point is plain IEEE double).  With the defaults the
 * file is about 300 MB.
 *
 * The profile imitates a large C++ server: a few hundred threads in a
 * dozen kinds, each kind entering through its own chain of frames; below
 * that, a random walk over a fixed call graph of long C++ names
 * (namespaces, templates, std:: types, lambdas, names with spaces), down
 * into libc and kernel frames ("_[k]").  Callees are picked with a skewed
 * distribution, so a few hot paths carry most samples and stacks share long
 * prefixes, as in real profiles.  Depths go up to --max-depth.  Each walk is
 * one sample; walks that repeat a stack add to its count.
 *
 * The options change the shape: --funcs the number of C++ functions
 * (default 14000), --callees N: a C++ function calls 1 to N others
 * (default: 2 to 8; fewer make stacks share longer prefixes),
 * --min-depth the depth before which a walk neither stops
 * nor leaves the C++ functions (default 3),
 * --max-depth the deepest stack (default 48, at most 255), --short-names
 * plain "ns::Class::method" and "Class::method12" names.  For example
 * "--funcs 60000 --min-depth 36 --short-names --shuffle" gives deep stacks
 * of short names in random order, about 1.1 KB a line.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_DEPTH_LIMIT 255

static uint32_t ncxx = 14000;      /* C++ functions */
static uint32_t min_depth = 3, max_depth = 48;
static uint32_t callee_spread;   /* a C++ function calls 1..spread; 0: 2..8 */
static bool short_names;
#define NTHREAD_KINDS 14
#define NTHREADS 320

/* ---- Random numbers (splitmix64: tiny, portable, deterministic) ------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t rndn(uint32_t n)         /* 0..n-1 */
{
	return (uint32_t)(((rnd() >> 32) * (uint64_t)n) >> 32);
}

static double rnd01(void)
{
	return (double)(rnd() >> 11) * (1.0 / 9007199254740992.0);
}

/*
 * Index in 0..n-1, skewed towards 0 (roughly Zipf): floor(u^4 n).  *p is
 * multiplied by the chance of the index drawn, ((i+1)/n)^1/4 - (i/n)^1/4.
 */
static uint32_t rnd_skewed(uint32_t n, double *p)
{
	double u = rnd01();
	uint32_t i = (uint32_t)(u * u * u * u * n);

	if (i >= n)
		i = n - 1;
	*p *= pow((double)(i + 1) / n, 0.25) - pow((double)i / n, 0.25);
	return i;
}

#define PICK(a) (a[rndn(ARRAY_SIZE(a))])

/* ---- Names ----------------------------------------------------------- */

static const char *const namespaces[] = {
	"db", "db::storage", "db::storage::btree", "db::storage::lsm",
	"db::query", "db::query::exec", "db::query::plan", "db::txn",
	"db::replication", "net", "net::http2", "net::tls", "rpc",
	"rpc::server", "rpc::client", "proto::internal", "util",
	"util::concurrency", "mem", "cache", "log", "metrics",
	"folly", "folly::detail", "absl::lts_20230802",
	"absl::lts_20230802::container_internal", "boost::asio::detail",
	"tbb::detail::r1", "db::(anonymous namespace)", "(anonymous namespace)",
};

static const char *const classes[] = {
	"Server", "Connection", "Session", "BufferPool", "PageCache",
	"HashJoin", "SortMergeJoin", "Executor", "ThreadPool", "TaskQueue",
	"Scheduler", "Allocator", "Arena", "Tokenizer", "Parser", "Planner",
	"CostBasedOptimizer", "RowBatch", "ColumnVector", "Compressor",
	"Decoder", "Encoder", "Codec", "WalWriter", "Journal", "Snapshot",
	"SecondaryIndex", "BTreeNode", "LeafPage", "Cursor", "RangeIterator",
	"Transaction", "LockManager", "SharedMutex", "ConditionVariable",
	"EventLoop", "Reactor", "Channel", "FrameReader", "StreamState",
	"Socket", "TlsContext", "Message", "Request", "Response", "Histogram",
	"Counter", "Registry", "Config", "Logger", "AsyncSink", "Compaction",
	"MemTable", "SkipList", "BloomFilter", "BlockCache", "VersionSet",
	"Aggregator", "WindowFunction", "ExpressionEvaluator", "TypeChecker",
};

static const char *const methods[] = {
	"run", "operator()", "process", "handle", "dispatch", "read", "write",
	"flush", "append", "lookup", "insert", "erase", "find",
	"emplace_back", "_M_realloc_insert", "_M_invoke", "_M_run", "next",
	"advance", "compare", "hash", "encode", "decode", "compress",
	"decompress", "serialize", "parse", "visit", "execute", "evaluate",
	"probe", "build", "merge", "split", "rebalance", "acquire", "release",
	"lock", "unlock", "wait", "notify_one", "poll", "submit", "schedule",
	"allocate", "deallocate", "reserve", "resize", "onReadable",
	"onWritable", "handleFrame", "maybeFlush", "tryAcquire", "applyBatch",
	"loadPage", "evict", "seek", "materialize", "consume", "produce",
};

static const char *const targs[] = {
	"char", "int", "unsigned long", "long long", "double", "bool",
	"std::string",
	"std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >",
	"db::Row", "db::Key", "db::PageRef", "net::Session*",
	"std::shared_ptr<net::Session>",
	"std::unique_ptr<db::query::exec::Task, std::default_delete<db::query::exec::Task> >",
	"std::pair<unsigned long const, db::PageRef>",
	"std::basic_string_view<char, std::char_traits<char> >",
	"folly::Range<char const*>", "absl::Span<db::Row const>",
};

static const char *const containers[] = {
	"std::vector<$1, std::allocator<$1> >",
	"std::unordered_map<$1, $2, std::hash<$1>, std::equal_to<$1> >",
	"std::_Hashtable<$1, std::pair<$1 const, $2>, std::allocator<std::pair<$1 const, $2> > >",
	"std::map<$1, $2>",
	"std::deque<$1, std::allocator<$1> >",
	"absl::lts_20230802::container_internal::raw_hash_set<absl::lts_20230802::container_internal::FlatHashMapPolicy<$1, $2> >",
	"folly::F14FastMap<$1, $2>",
	"std::function<void ($1, $2)>",
	"std::_Function_handler<void ($1), std::_Bind<void (db::query::exec::Executor::*(db::query::exec::Executor*, $1))($1)> >",
	"std::__detail::_Hash_node<$1, false>",
	"std::priority_queue<$1, std::vector<$1>, std::less<$1> >",
	"boost::asio::detail::completion_handler<$1, boost::asio::io_context::basic_executor_type<std::allocator<void>, 0ul> >",
};

static const char *const libc_names[] = {
	"__memmove_avx_unaligned_erms", "__memset_avx2_unaligned_erms",
	"__memcmp_avx2_movbe", "__strlen_avx2", "malloc", "_int_malloc",
	"free", "_int_free", "cfree@GLIBC_2.2.5", "pthread_mutex_lock",
	"pthread_mutex_unlock", "__lll_lock_wait", "pthread_cond_wait@@GLIBC_2.3.2",
	"__GI___libc_read", "__GI___libc_write", "epoll_wait", "__futex_abstimed_wait_common",
	"operator new(unsigned long)", "operator delete(void*, unsigned long)",
	"__libc_recvmsg", "__libc_sendmsg", "clock_gettime@@GLIBC_2.17",
};

/* Kernel call chains, outermost first; consecutive names are caller and
 * callee (a name in several chains gets several callees). */
static const char *const kernel_chains[][9] = {
	{ "entry_SYSCALL_64_after_hwframe_[k]", "do_syscall_64_[k]",
	  "__x64_sys_futex_[k]", "do_futex_[k]", "futex_wait_[k]",
	  "schedule_[k]", "__schedule_[k]", "finish_task_switch.isra.0_[k]" },
	{ "entry_SYSCALL_64_after_hwframe_[k]", "do_syscall_64_[k]",
	  "__x64_sys_read_[k]", "ksys_read_[k]", "vfs_read_[k]",
	  "sock_read_iter_[k]", "tcp_recvmsg_[k]", "tcp_recvmsg_locked_[k]",
	  "skb_copy_datagram_iter_[k]" },
	{ "entry_SYSCALL_64_after_hwframe_[k]", "do_syscall_64_[k]",
	  "__x64_sys_read_[k]", "ksys_read_[k]", "vfs_read_[k]",
	  "ext4_file_read_iter_[k]", "filemap_read_[k]",
	  "copy_page_to_iter_[k]", "_copy_to_iter_[k]" },
	{ "entry_SYSCALL_64_after_hwframe_[k]", "do_syscall_64_[k]",
	  "__x64_sys_sendmsg_[k]", "__sys_sendmsg_[k]", "sock_sendmsg_[k]",
	  "tcp_sendmsg_[k]", "tcp_sendmsg_locked_[k]", "tcp_push_[k]",
	  "__tcp_push_pending_frames_[k]" },
	{ "entry_SYSCALL_64_after_hwframe_[k]", "do_syscall_64_[k]",
	  "__x64_sys_epoll_wait_[k]", "do_epoll_wait_[k]", "ep_poll_[k]",
	  "schedule_hrtimeout_range_[k]", "schedule_[k]", "__schedule_[k]",
	  "finish_task_switch.isra.0_[k]" },
	{ "asm_exc_page_fault_[k]", "exc_page_fault_[k]",
	  "handle_mm_fault_[k]", "__handle_mm_fault_[k]",
	  "do_anonymous_page_[k]", "vma_alloc_folio_[k]",
	  "alloc_pages_mpol_[k]", "get_page_from_freelist_[k]",
	  "clear_page_erms_[k]" },
	{ "asm_sysvec_apic_timer_interrupt_[k]",
	  "sysvec_apic_timer_interrupt_[k]", "__irq_exit_rcu_[k]",
	  "handle_softirqs_[k]", "net_rx_action_[k]", "__napi_poll_[k]",
	  "virtnet_poll_[k]", "napi_gro_receive_[k]" },
};

static const char *const thread_kinds[NTHREAD_KINDS] = {
	"db-worker", "rpc-io", "rpc-handler", "compactor", "flusher",
	"wal-writer", "replicator", "query-exec", "bg-gc", "metrics",
	"log-sink", "tls-handshake", "cache-evict", "scheduler",
};

struct func {
	char *name;
	uint32_t *callee;
	uint32_t ncallee;
	double stop;         /* chance the stack ends here */
};

static struct func *funcs;
static uint32_t nfuncs;
static size_t capfuncs;
static uint32_t first_libc, first_kernel, first_thread, first_entry;

/* Names are distinct: a set of them, open addressing on hash_bytes. */
static uint32_t *nameset;        /* func index + 1; 0: empty */
static size_t namesetcap;        /* a power of two, > 2 * functions */

/* The function named name, or UINT32_MAX. */
static uint32_t func_find(const char *name)
{
	size_t len = strlen(name), i = hash_bytes(name, len) & (namesetcap - 1);

	for (; nameset[i]; i = (i + 1) & (namesetcap - 1))
		if (!strcmp(funcs[nameset[i] - 1].name, name))
			return nameset[i] - 1;
	return UINT32_MAX;
}

static bool name_taken(const char *name)
{
	return func_find(name) != UINT32_MAX;
}

static uint32_t func_id(const char *name)
{
	uint32_t id = func_find(name);

	if (id == UINT32_MAX)
		fatal("no function %s", name);
	return id;
}

/* The outermost frame of kernel chain c. */
static uint32_t kernel_head(size_t c)
{
	return func_id(kernel_chains[c][0]);
}

static uint32_t add_func(char *name, double stop)
{
	size_t i = hash_bytes(name, strlen(name)) & (namesetcap - 1);

	while (nameset[i])
		i = (i + 1) & (namesetcap - 1);
	nameset[i] = nfuncs + 1;
	GROW(funcs, capfuncs, nfuncs + 1);
	funcs[nfuncs] = (struct func){ .name = name, .stop = stop };
	return nfuncs++;
}

/* pattern with "$1" and "$2" replaced by a and b, cut to cap - 1 bytes. */
static void expand(char *buf, size_t cap, const char *pattern, const char *a,
		   const char *b)
{
	size_t n = 0;

	for (const char *p = pattern; *p && n + 1 < cap; p++) {
		const char *sub = NULL;

		if (p[0] == '$' && (p[1] == '1' || p[1] == '2'))
			sub = *++p == '1' ? a : b;
		if (!sub) {
			buf[n++] = *p;
			continue;
		}
		while (*sub && n + 1 < cap)
			buf[n++] = *sub++;
	}
	buf[n] = '\0';
}

static char *cxx_name(void)
{
	char type[1024], buf[1400];
	const char *ns = PICK(namespaces), *cls = PICK(classes),
		   *m = PICK(methods);

	if (short_names) {      /* ns::Class::method or Class::methodN */
		unsigned k = rndn(200);

		if (k < 100)
			return xasprintf("%s::%s::%s", ns, cls, m);
		return xasprintf("%s::%s%u", cls, m, k - 100);
	}
	switch (rndn(10)) {
	case 0: case 1: case 2:        /* ns::Class::method */
		snprintf(buf, sizeof(buf), "%s::%s::%s", ns, cls, m);
		break;
	case 3:                        /* ns::Class<T>::method */
		snprintf(buf, sizeof(buf), "%s::%s<%s>::%s", ns, cls,
			 PICK(targs), m);
		break;
	case 4: case 5: {              /* std container<...>::method */
		const char *a = PICK(targs), *b = PICK(targs);

		expand(type, sizeof(type), PICK(containers), a, b);
		snprintf(buf, sizeof(buf), "%s::%s", type, m);
		break;
	}
	case 6:                        /* a free function */
		snprintf(buf, sizeof(buf), "%s::%s%s", ns, m, cls);
		break;
	case 7: {                      /* a lambda */
		/* One random draw per statement: argument order is unspecified. */
		const char *t = PICK(targs);
		unsigned k = 1 + rndn(3);

		snprintf(buf, sizeof(buf),
			 "%s::%s::%s(%s)::{lambda()#%u}::operator()", ns, cls,
			 m, t, k);
		break;
	}
	case 8: {                      /* a template method */
		const char *t1 = PICK(targs);
		const char *t2 = PICK(targs);

		snprintf(buf, sizeof(buf), "%s::%s::%s<%s, %s>", ns, cls, m,
			 t1, t2);
		break;
	}
	default:                       /* a nested class */
		snprintf(buf, sizeof(buf), "%s::%s::%sImpl::%s", ns, cls,
			 PICK(classes), m);
		break;
	}
	/* Make each name distinct, as overloads and instances are. */
	return xasprintf("%s%s", buf, rndn(4) ? "" : "<int>");
}

/* The call graph: who may call whom, skewed towards each list's head. */
static void build_graph(void)
{
	for (namesetcap = 1 << 16; namesetcap < 2 * (size_t)ncxx + 4096;)
		namesetcap <<= 1;
	nameset = xcalloc(namesetcap, sizeof(*nameset));
	for (uint32_t i = 0; i < ncxx; i++) {
		char *name = cxx_name();

		while (name_taken(name)) {
			free(name);
			name = cxx_name();
		}
		add_func(name, 0.012);
	}
	first_libc = nfuncs;
	for (size_t i = 0; i < ARRAY_SIZE(libc_names); i++)
		add_func(xstrdup(libc_names[i]), 0.45);
	first_kernel = nfuncs;
	for (size_t c = 0; c < ARRAY_SIZE(kernel_chains); c++) {
		for (size_t i = 0; i < ARRAY_SIZE(kernel_chains[c]); i++) {
			const char *k = kernel_chains[c][i];

			if (k && !name_taken(k))
				add_func(xstrdup(k), 0.08);
		}
	}
	first_entry = nfuncs;
	for (uint32_t k = 0; k < NTHREAD_KINDS; k++)
		add_func(xasprintf("std::thread::_State_impl<std::thread::_Invoker<std::tuple<%s::%s::start()::{lambda()#1}> > >::_M_run",
				   namespaces[k % ARRAY_SIZE(namespaces)],
				   classes[k]), 0.0);
	first_thread = nfuncs;
	for (uint32_t t = 0; t < NTHREADS; t++)
		add_func(xasprintf("%s-%u", thread_kinds[t % NTHREAD_KINDS],
				   t / NTHREAD_KINDS), 0.0);

	for (uint32_t f = 0; f < nfuncs; f++) {
		struct func *fn = &funcs[f];
		uint32_t n;

		if (f >= first_thread || (f >= first_kernel && f < first_entry))
			continue;       /* roots and kernel: below */
		if (f >= first_entry)
			n = 40;
		else if (f >= first_libc)
			n = 1 + rndn(3);
		else
			n = callee_spread ? 1 + rndn(callee_spread)
					  : 2 + rndn(7);
		fn->callee = xcalloc(n, sizeof(*fn->callee));
		fn->ncallee = n;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t r = rndn(100), c;

			if (f >= first_libc && f < first_kernel)
				c = r < 70 ? kernel_head(r % 4 ? 0 : 5)
					   : first_libc + rndn(ARRAY_SIZE(libc_names));
			else if (r < 94 || f >= first_entry)
				c = rndn(ncxx);
			else if (r < 98)
				c = first_libc + rndn(ARRAY_SIZE(libc_names));
			else
				c = kernel_head(r % 2 ? 5 : 6);
			fn->callee[i] = c;
		}
	}
	for (size_t c = 0; c < ARRAY_SIZE(kernel_chains); c++) {
		for (size_t i = 0; i + 1 < ARRAY_SIZE(kernel_chains[c]); i++) {
			const char *k = kernel_chains[c][i + 1];
			struct func *fn;
			uint32_t callee, j;

			if (!k)
				break;
			fn = &funcs[func_id(kernel_chains[c][i])];
			callee = func_id(k);
			for (j = 0; j < fn->ncallee && fn->callee[j] != callee; j++)
				;
			if (j < fn->ncallee)
				continue;
			fn->callee = xreallocarray(fn->callee, fn->ncallee + 1,
						   sizeof(*fn->callee));
			fn->callee[fn->ncallee++] = callee;
		}
	}
}

/* ---- Stacks ---------------------------------------------------------- */

struct stack {
	uint64_t off;        /* first frame in frames[] */
	uint32_t depth;
	uint64_t count;
};

static uint32_t *frames;
static size_t nframes, capframes;
static struct stack *stacks;
static size_t nstacks, capstacks;
static uint32_t *table;          /* stack index + 1; 0: empty */
static size_t tablecap;

static uint64_t hash_stack(const uint32_t *f, uint32_t depth)
{
	uint64_t h = depth;

	for (uint32_t i = 0; i < depth; i++)
		h = hash_u64(h ^ f[i]) + i;
	return h;
}

/*
 * Keep stack f[0..depth) with count, unless it is already kept.  Returns
 * whether it was new.
 */
static bool add_stack(const uint32_t *f, uint32_t depth, uint64_t count)
{
	uint64_t h = hash_stack(f, depth);
	size_t mask = tablecap - 1, i = h & mask;

	while (table[i]) {
		const struct stack *s = &stacks[table[i] - 1];

		if (s->depth == depth &&
		    !memcmp(frames + s->off, f, depth * sizeof(*f)))
			return false;
		i = (i + 1) & mask;
	}
	GROW(frames, capframes, nframes + depth);
	memcpy(frames + nframes, f, depth * sizeof(*f));
	GROW(stacks, capstacks, nstacks + 1);
	stacks[nstacks] = (struct stack){ nframes, depth, count };
	nframes += depth;
	table[i] = (uint32_t)++nstacks;
	return true;
}

/*
 * One random walk from a thread down the call graph.  The stack's count is
 * its expected number of samples in a profile of SAMPLES samples (at least
 * 1): the walk's probability times SAMPLES.  So the likely paths, found
 * first, are the hot ones, and the long tail has counts of 1, as in perf
 * profiles.
 */
#define SAMPLES 2e8

static void walk(void)
{
	uint32_t f[MAX_DEPTH_LIMIT], depth = 0, t, cur;
	double p = 1.0;

	t = rnd_skewed(NTHREADS, &p);
	f[depth++] = first_thread + t;
	f[depth++] = first_entry + t % NTHREAD_KINDS;
	cur = f[depth - 1];
	while (depth < max_depth) {
		const struct func *fn = &funcs[cur];
		double stop = !fn->ncallee ? (depth > 2 ? 1.0 : 0.0) :
			depth >= min_depth ? fn->stop + depth * 0.002 : 0.0;

		if (rnd01() < stop) {
			p *= stop;
			break;
		}
		p *= 1.0 - stop;
		cur = fn->callee[rnd_skewed(fn->ncallee, &p)];
		/*
		 * Not yet deep enough: stay in C++ (libc and kernel end soon),
		 * through a fixed edge, not a random jump.
		 */
		if (depth < min_depth && cur >= first_libc)
			cur = (uint32_t)(((uint64_t)cur * 2654435761u) % ncxx);
		f[depth++] = cur;
	}
	add_stack(f, depth, 1 + (uint64_t)(p * SAMPLES));
}

/*
 * Byte order of the joined stacks "a;b;c", without building them: frame
 * names compared in turn, a name's end counting as ';' when more frames
 * follow and as the end of the string otherwise.
 */
static int cmp_stack(const void *pa, const void *pb)
{
	const struct stack *a = pa, *b = pb;
	uint32_t n = a->depth < b->depth ? a->depth : b->depth;

	for (uint32_t i = 0; i < n; i++) {
		const unsigned char *x =
			(const unsigned char *)funcs[frames[a->off + i]].name;
		const unsigned char *y =
			(const unsigned char *)funcs[frames[b->off + i]].name;
		int cx, cy;

		if (x == y)
			continue;       /* the same function: names are distinct */
		while (*x && *x == *y) {
			x++;
			y++;
		}
		cx = *x ? *x : i + 1 < a->depth ? ';' : -1;
		cy = *y ? *y : i + 1 < b->depth ? ';' : -1;
		if (cx != cy)
			return cx < cy ? -1 : 1;
	}
	return a->depth < b->depth ? -1 : a->depth > b->depth;
}

int main(int argc, char **argv)
{
	size_t want = 300000;
	uint64_t seed = 20240613;
	bool shuffle = false;
	const char *outpath = NULL;
	FILE *out = stdout;
	static char obuf[1 << 20];

	util_set_program("gen-folded");
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			want = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "-s") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			outpath = argv[++i];
		else if (!strcmp(argv[i], "--shuffle"))
			shuffle = true;
		else if (!strcmp(argv[i], "--funcs") && i + 1 < argc)
			ncxx = (uint32_t)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--min-depth") && i + 1 < argc)
			min_depth = (uint32_t)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--max-depth") && i + 1 < argc)
			max_depth = (uint32_t)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--callees") && i + 1 < argc)
			callee_spread = (uint32_t)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--short-names"))
			short_names = true;
		else {
			fprintf(stderr, "usage: gen-folded [-n STACKS] [-s SEED] [--shuffle] "
				"[--funcs N] [--callees N] [--min-depth D] [--max-depth D] "
				"[--short-names] [-o FILE]\n");
			return 2;
		}
	}
	if (callee_spread > 1000 || ncxx < 100 || ncxx > 1000000 || max_depth < 3 ||
	    max_depth > MAX_DEPTH_LIMIT || min_depth < 3 ||
	    min_depth > max_depth) {
		fprintf(stderr, "gen-folded: --funcs must be 100..1000000, "
			"3 <= --min-depth <= --max-depth <= %d\n", MAX_DEPTH_LIMIT);
		return 2;
	}
	if (want == 0 || want > 100000000) {
		fprintf(stderr, "gen-folded: -n must be 1..100000000\n");
		return 2;
	}

	rng_state = seed;
	build_graph();
	tablecap = 1;
	while (tablecap < want * 2)
		tablecap <<= 1;
	table = xcalloc(tablecap, sizeof(*table));
	while (nstacks < want)
		walk();

	qsort(stacks, nstacks, sizeof(*stacks), cmp_stack);
	if (shuffle) {
		for (size_t i = nstacks - 1; i > 0; i--) {
			size_t j = (size_t)(rnd() % (i + 1));
			struct stack tmp = stacks[i];

			stacks[i] = stacks[j];
			stacks[j] = tmp;
		}
	}

	if (outpath && !(out = fopen(outpath, "w"))) {
		perror(outpath);
		return 1;
	}
	setvbuf(out, obuf, _IOFBF, sizeof(obuf));
	for (size_t i = 0; i < nstacks; i++) {
		const struct stack *s = &stacks[i];

		for (uint32_t d = 0; d < s->depth; d++) {
			if (d)
				putc_unlocked(';', out);
			fputs_unlocked(funcs[frames[s->off + d]].name, out);
		}
		fprintf(out, " %" PRIu64 "\n", s->count);
	}
	if (fflush(out) || (outpath && fclose(out))) {
		perror(outpath ? outpath : "stdout");
		return 1;
	}

	for (uint32_t f = 0; f < nfuncs; f++) {
		free(funcs[f].name);
		free(funcs[f].callee);
	}
	free(funcs);
	free(nameset);
	free(frames);
	free(stacks);
	free(table);
	return 0;
}
