/*
 * pool.c - worker threads kept for the length of a read (pool.h).
 */
#include "pool.h"

#include <stdlib.h>

#include "util.h"

struct pool_worker {
	struct pool *pool;
	unsigned i;
	bool running;
	pthread_t thread;
};

/* Share i, timed for pool_note. */
static void run_share(struct pool *pl, unsigned i)
{
	double t0 = now_seconds();

	pl->fn(pl->ctx, i);
	pl->spent[i] = now_seconds() - t0;
}

/* Shares of a pool_run_claimed round, taken in turn until none is left. */
static void run_claimed(struct pool *pl)
{
	unsigned i;

	while ((i = atomic_fetch_add(&pl->claim, 1)) < pl->nclaim)
		pl->fn(pl->ctx, i);
}

static void *worker_main(void *arg)
{
	const struct pool_worker *me = arg;
	struct pool *pl = me->pool;
	uint64_t seen = 0;

	pthread_mutex_lock(&pl->mu);
	for (;;) {
		while (pl->round == seen && !pl->quit)
			pthread_cond_wait(&pl->go, &pl->mu);
		if (pl->round == seen)
			break;
		seen = pl->round;
		if (me->i >= pl->used)
			continue;
		pthread_mutex_unlock(&pl->mu);
		if (pl->claimed)
			run_claimed(pl);
		else
			run_share(pl, me->i);
		pthread_mutex_lock(&pl->mu);
		if (--pl->pending == 0)
			pthread_cond_signal(&pl->done);
	}
	pthread_mutex_unlock(&pl->mu);
	return NULL;
}

void pool_init(struct pool *pl, unsigned nthreads,
	       void (*fn)(void *ctx, unsigned share), void *ctx)
{
	*pl = (struct pool){ .fn = fn, .ctx = ctx,
			     .nthreads = nthreads ? nthreads : 1 };
	pl->rate = xcalloc(pl->nthreads, sizeof(double));
	pl->spent = xcalloc(pl->nthreads, sizeof(double));
}

static void start_workers(struct pool *pl)
{
	pl->started = true;
	pthread_mutex_init(&pl->mu, NULL);
	pthread_cond_init(&pl->go, NULL);
	pthread_cond_init(&pl->done, NULL);
	pl->w = xcalloc(pl->nthreads, sizeof(*pl->w));
	for (unsigned i = 1; i < pl->nthreads; i++) {
		struct pool_worker *w = &pl->w[i];

		w->pool = pl;
		w->i = i;
		w->running = pthread_create(&w->thread, NULL,
					    worker_main, w) == 0;
	}
}

/* Hand a round to workers 1..used-1, run it here too, and wait. */
static void run_round(struct pool *pl, unsigned used, bool claimed)
{
	pthread_mutex_lock(&pl->mu);
	pl->used = used;
	pl->claimed = claimed;
	pl->pending = 0;
	for (unsigned i = 1; i < used; i++)
		pl->pending += pl->w[i].running;
	pl->round++;
	pthread_cond_broadcast(&pl->go);
	pthread_mutex_unlock(&pl->mu);
	if (claimed) {
		run_claimed(pl);
	} else {
		run_share(pl, 0);
		for (unsigned i = 1; i < used; i++)
			if (!pl->w[i].running)
				run_share(pl, i);
	}
	pthread_mutex_lock(&pl->mu);
	while (pl->pending)
		pthread_cond_wait(&pl->done, &pl->mu);
	pthread_mutex_unlock(&pl->mu);
}

void pool_run(struct pool *pl, unsigned used)
{
	if (used > 1 && !pl->started)
		start_workers(pl);
	if (used <= 1) {
		if (used)
			run_share(pl, 0);
		return;
	}
	run_round(pl, used, false);
}

void pool_run_claimed(struct pool *pl, unsigned n)
{
	pl->nclaim = n;
	atomic_store(&pl->claim, 0);
	if (n <= 1 || pl->nthreads < 2) {
		run_claimed(pl);
		return;
	}
	if (!pl->started)
		start_workers(pl);
	run_round(pl, n < pl->nthreads ? n : pl->nthreads, true);
}

void pool_end(struct pool *pl)
{
	free(pl->rate);
	free(pl->spent);
	pl->rate = pl->spent = NULL;
	if (!pl->started)
		return;
	pthread_mutex_lock(&pl->mu);
	pl->quit = true;
	pthread_cond_broadcast(&pl->go);
	pthread_mutex_unlock(&pl->mu);
	for (unsigned i = 1; i < pl->nthreads; i++)
		if (pl->w[i].running)
			pthread_join(pl->w[i].thread, NULL);
	pthread_mutex_destroy(&pl->mu);
	pthread_cond_destroy(&pl->go);
	pthread_cond_destroy(&pl->done);
	free(pl->w);
	pl->w = NULL;
	pl->started = false;
}

size_t pool_cut(const struct pool *pl, size_t len, unsigned i)
{
	double sum = 0, before = 0, most = 0;

	for (unsigned k = 0; k < pl->nthreads; k++) {
		if (!(pl->rate[k] > 0))
			return len / pl->nthreads * i;
		if (1 / pl->rate[k] > most)
			most = 1 / pl->rate[k];
	}
	for (unsigned k = 0; k < pl->nthreads; k++) {
		double w = 1 / pl->rate[k] < most / 4 ? most / 4
						      : 1 / pl->rate[k];

		sum += w;
		if (k < i)
			before += w;
	}
	return (size_t)((double)len * (before / sum));
}

void pool_note(struct pool *pl, unsigned i, size_t len, double idle)
{
	double r, busy = pl->spent[i] - idle;

	if (len < 4096 || !(busy > 0))
		return;
	r = busy / (double)len;
	pl->rate[i] = pl->rate[i] > 0 ? (3 * pl->rate[i] + r) / 4 : r;
}

void turn_init(struct turn *t)
{
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
	t->next = 0;
}

void turn_destroy(struct turn *t)
{
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->cv);
}

void turn_reset(struct turn *t)
{
	pthread_mutex_lock(&t->mu);
	t->next = 0;
	pthread_mutex_unlock(&t->mu);
}

double turn_wait(struct turn *t, unsigned i)
{
	double t0 = 0;

	pthread_mutex_lock(&t->mu);
	if (t->next != i)
		t0 = now_seconds();
	while (t->next != i)
		pthread_cond_wait(&t->cv, &t->mu);
	pthread_mutex_unlock(&t->mu);
	return t0 ? now_seconds() - t0 : 0;
}

void turn_pass(struct turn *t, unsigned i)
{
	pthread_mutex_lock(&t->mu);
	t->next = i + 1;
	pthread_cond_broadcast(&t->cv);
	pthread_mutex_unlock(&t->mu);
}
