/*
 * fetch.h - profiles from http:// and https:// URLs (libcurl), such as a
 * Go service's /debug/pprof/profile?seconds=30: the response's body is
 * fetched into memory and read as a file's bytes would be (read.h).
 *
 * A fetch runs either in the caller's thread (fetch_url) or in a thread of
 * its own that the interactive view polls (fetch_start), so that the view
 * shows a countdown and keeps answering keys while a server profiles.
 */
#ifndef FLAMETOP_FETCH_H
#define FLAMETOP_FETCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Called about once a second while fetching: the seconds left of the
 * profile's ?seconds=N (0 once they are over) and the bytes received.
 */
typedef void (*fetch_progress_fn)(void *ctx, const char *url, double left,
				  uint64_t bytes);

struct fetch_opts {
	const char **headers;        /* --header "Name: value", repeatable */
	size_t nheaders;             /* (must follow headers: OPT_STRS) */
	double timeout;              /* --timeout SECS; 0: fetch_timeout's */
	uint64_t max_bytes;          /* stop after this many bytes (0: none) */
	fetch_progress_fn progress;  /* NULL: none */
	void *progress_ctx;
};

/* Does name start with http:// or https:// (in any case)? */
bool fetch_is_url(const char *name);

/* The URL's "seconds" query parameter (what the server profiles for); 0
 * when it has none. */
double fetch_url_seconds(const char *url);

/* The whole fetch's time limit: o->timeout, else the URL's seconds + 30. */
double fetch_timeout(const struct fetch_opts *o, const char *url);

/*
 * Fetch url.  Returns 0 with the body in *body (malloc'd, NUL-terminated
 * beyond *len); a body cut at o->max_bytes + 1 bytes still counts (the
 * reader says where it stopped).  -1 with a one-line message naming the
 * URL in *err (malloc'd): no connection, HTTP status 400 or more (with the
 * start of the body, escaped), a timeout, cancelled.  cancel, when not
 * NULL, is polled (about once a second): set it to stop.
 */
int fetch_url(const char *url, const struct fetch_opts *o,
	      const atomic_bool *cancel, char **body, size_t *len,
	      char **err);

/* ---- In the background ----------------------------------------------- */

struct fetch_job;

/* Start fetching url in a thread (o is copied; its progress is not used). */
struct fetch_job *fetch_start(const char *url, const struct fetch_opts *o);
/* True once the fetch ended; *left: the profile's seconds still to go. */
bool fetch_poll(struct fetch_job *j, double *left);
/*
 * Wait for the end (cancel first: stop it), then as fetch_url; the job is
 * freed.  Returns 0 or -1 as fetch_url.
 */
int fetch_finish(struct fetch_job *j, bool cancel, char **body, size_t *len,
		 char **err);

/* libcurl's version and its TLS library, for --version, with *ok true;
 * or why it cannot be loaded (dynlib.h), with *ok false. */
const char *fetch_version(bool *ok);

#endif
