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
		pl->fn(pl->ctx, me->i);
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
}

void pool_run(struct pool *pl, unsigned used)
{
	if (used > 1 && !pl->started) {
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
	if (used <= 1) {
		if (used)
			pl->fn(pl->ctx, 0);
		return;
	}
	pthread_mutex_lock(&pl->mu);
	pl->used = used;
	pl->pending = 0;
	for (unsigned i = 1; i < used; i++)
		pl->pending += pl->w[i].running;
	pl->round++;
	pthread_cond_broadcast(&pl->go);
	pthread_mutex_unlock(&pl->mu);
	pl->fn(pl->ctx, 0);
	for (unsigned i = 1; i < used; i++)
		if (!pl->w[i].running)
			pl->fn(pl->ctx, i);
	pthread_mutex_lock(&pl->mu);
	while (pl->pending)
		pthread_cond_wait(&pl->done, &pl->mu);
	pthread_mutex_unlock(&pl->mu);
}

void pool_end(struct pool *pl)
{
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
