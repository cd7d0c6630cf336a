/*
 * pool.h - worker threads kept for the length of a read.
 *
 * The parallel readers cut each block of input into shares and read them
 * at once: share 0 on the calling thread, share i on worker i
 * (pool_run), or every thread taking the next share not yet taken
 * (pool_run_claimed).  Starting
 * a thread for every block costs more than reading a block of 1 MB takes
 * on a VM, so the workers are started with the first block that needs
 * them and wait between blocks.  A worker that cannot be started has its
 * share run by the caller: the result never depends on how many run.
 */
#ifndef FLAMETOP_POOL_H
#define FLAMETOP_POOL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct pool_worker;

struct pool {
	void (*fn)(void *ctx, unsigned share);
	void *ctx;
	unsigned nthreads, used, pending;
	/*
	 * Seconds a byte took each share lately (pool_note) and the time
	 * each share of the last pool_run took: see pool_cut.
	 */
	double *rate, *spent;
	uint64_t round;             /* jobs handed out so far */
	/* pool_run_claimed: shares to run, and the next one not taken. */
	unsigned nclaim;
	atomic_uint claim;
	bool claimed;               /* the round is pool_run_claimed's */
	bool started, quit;
	struct pool_worker *w;      /* nthreads, [0] unused */
	pthread_mutex_t mu;
	pthread_cond_t go, done;
};

/* A pool of nthreads (the caller counts as one) that runs fn(ctx, i). */
void pool_init(struct pool *pl, unsigned nthreads,
	       void (*fn)(void *ctx, unsigned share), void *ctx);
/* Run shares 0..used-1 (used <= nthreads) and wait for all of them. */
void pool_run(struct pool *pl, unsigned used);
/*
 * Run shares 0..n-1 (n may exceed nthreads) and wait for all of them:
 * each thread, this one too, takes the next share not yet taken until
 * none is left.  A thread that the machine's other work holds up then
 * takes fewer shares, where pool_run's shares wait for the slowest.
 */
void pool_run_claimed(struct pool *pl, unsigned n);
/* Stop and join the workers. */
void pool_end(struct pool *pl);

/*
 * Where share i (of nthreads) of a block of len bytes should start for
 * the shares to take as long as one another, from what a byte took each
 * share lately: a share whose bytes took half the time gets twice the
 * bytes.  (The thread that read the block from the input finds it in
 * its CPU's cache; the others fetch it.)  Equal shares until every
 * share's rate is known.  No share is under a quarter of the largest: a
 * thread that was stopped for a while still reads enough for its rate
 * to be measured again.  Where the shares are cut changes nothing but
 * how long they take.
 */
size_t pool_cut(const struct pool *pl, size_t len, unsigned i);
/*
 * Share i of the last pool_run had len bytes, and waited idle seconds on
 * the others (time that says nothing of its rate): its rate, averaged.
 */
void pool_note(struct pool *pl, unsigned i, size_t len, double idle);

/*
 * Turns taken in order: the thread with turn i goes once turns 0 .. i-1
 * are over (so that several threads' results reach one profile in one
 * order, and one at a time).
 */
struct turn {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned next;              /* the turn that may go now */
};

void turn_init(struct turn *t);
void turn_destroy(struct turn *t);
/* Turn 0 next (no thread may be waiting). */
void turn_reset(struct turn *t);
/* Wait for turn i; returns the seconds waited (0 when it was i's). */
double turn_wait(struct turn *t, unsigned i);
/* Turn i is over: i + 1's goes. */
void turn_pass(struct turn *t, unsigned i);

#endif
