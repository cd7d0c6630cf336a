/*
 * fetch.c - profiles from http:// and https:// URLs, through libcurl
 * (proxies from the environment, TLS, redirects and time limits are its).
 *
 * The body is gathered in memory, at most max_bytes + 1 bytes of it (one
 * more than the limit, so that the reader sees there was more and says so,
 * as it does for a file).  The connection may take 10 s (a refused port
 * fails at once, an unreachable host after that); the whole fetch its
 * timeout, by default what the server is asked to profile for plus 30 s.
 * A status of 400 or more is an error whose message carries the start of
 * the body, escaped: net/http/pprof explains itself there ("profile
 * duration exceeds server's WriteTimeout").
 *
 * No Content-Encoding is asked for and libcurl undoes none: a body that a
 * server compresses anyway comes as it was sent, and the reader's input
 * (input.c) decompresses gzip and zstd as it does a file's, within the
 * same bound against decompression bombs.  libcurl's own decoding has no
 * such bound: 1 MB of gzip on the wire would be 1 GiB in memory.
 */
#include "fetch.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dynlib.h"
#include "textfmt.h"
#include "util.h"

#define CONNECT_TIMEOUT 10.0
#define EXTRA_SECONDS 30.0

bool fetch_is_url(const char *name)
{
	return strncasecmp(name, "http://", 7) == 0 ||
	       strncasecmp(name, "https://", 8) == 0;
}

double fetch_url_seconds(const char *url)
{
	const char *q = strchr(url, '?');

	while (q) {
		const char *p = q + 1;

		if (strncmp(p, "seconds=", 8) == 0) {
			char *end;
			double v = strtod(p + 8, &end);

			if (end != p + 8 && v > 0 && v < 1e9)
				return v;
			return 0;
		}
		q = strchr(p, '&');
	}
	return 0;
}

double fetch_timeout(const struct fetch_opts *o, const char *url)
{
	if (o && o->timeout > 0)
		return o->timeout;
	return fetch_url_seconds(url) + EXTRA_SECONDS;
}

/* libcurl, opened on the first fetch (dynlib.h): each pointer has the
 * type of the header's declaration. */
static struct {
	__typeof__(curl_global_init) *global_init;
	__typeof__(curl_global_cleanup) *global_cleanup;
	__typeof__(curl_version_info) *version_info;
	__typeof__(curl_easy_init) *easy_init;
	__typeof__(curl_easy_setopt) *easy_setopt;
	__typeof__(curl_easy_perform) *easy_perform;
	__typeof__(curl_easy_getinfo) *easy_getinfo;
	__typeof__(curl_easy_strerror) *easy_strerror;
	__typeof__(curl_easy_cleanup) *easy_cleanup;
	__typeof__(curl_slist_append) *slist_append;
	__typeof__(curl_slist_free_all) *slist_free_all;
} cu;

static const struct dynlib_fn curl_fns[] = {
	DYNLIB_FN(cu.global_init, curl_global_init),
	DYNLIB_FN(cu.global_cleanup, curl_global_cleanup),
	DYNLIB_FN(cu.version_info, curl_version_info),
	DYNLIB_FN(cu.easy_init, curl_easy_init),
	DYNLIB_FN(cu.easy_setopt, curl_easy_setopt),
	DYNLIB_FN(cu.easy_perform, curl_easy_perform),
	DYNLIB_FN(cu.easy_getinfo, curl_easy_getinfo),
	DYNLIB_FN(cu.easy_strerror, curl_easy_strerror),
	DYNLIB_FN(cu.easy_cleanup, curl_easy_cleanup),
	DYNLIB_FN(cu.slist_append, curl_slist_append),
	DYNLIB_FN(cu.slist_free_all, curl_slist_free_all),
};

static struct dynlib curl_lib = {
	.what = "libcurl", .soname = FLAMETOP_CURL_SONAME,
	.fns = curl_fns, .nfns = sizeof(curl_fns) / sizeof(curl_fns[0]),
};

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static bool curl_ok;    /* loaded and initialized */

static void curl_init(void)
{
	if (!dynlib_open(&curl_lib))
		return;
	if (cu.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		fatal("cannot initialize libcurl");
	atexit(cu.global_cleanup);
	curl_ok = true;
}

const char *fetch_version(bool *ok)
{
	static char buf[320];
	const curl_version_info_data *v;

	pthread_once(&curl_once, curl_init);
	*ok = curl_ok;
	if (!curl_ok)
		return curl_lib.err;
	v = cu.version_info(CURLVERSION_NOW);
	snprintf(buf, sizeof(buf), "libcurl %s%s%s", v->version,
		 v->ssl_version ? ", " : "", v->ssl_version ? v->ssl_version : "");
	return buf;
}

/* One transfer's state, shared with libcurl's callbacks. */
struct transfer {
	const char *url;
	const struct fetch_opts *o;
	const atomic_bool *cancel;
	char *body;
	size_t len, cap;
	bool cut;                    /* stopped at max_bytes + 1 */
	char status[128];            /* the last "HTTP/1.1 404 Not Found" */
	double start, secs, last_report;
};

static size_t on_body(char *data, size_t size, size_t n, void *ctx)
{
	struct transfer *t = ctx;
	size_t want = size * n, take = want;
	uint64_t max = t->o->max_bytes;

	if (max && t->len + take > max + 1) {
		take = (size_t)(max + 1 - t->len);
		t->cut = true;
	}
	if (t->len + take + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 1 << 16;

		while (cap < t->len + take + 1)
			cap *= 2;
		t->body = xrealloc(t->body, cap);
		t->cap = cap;
	}
	memcpy(t->body + t->len, data, take);
	t->len += take;
	t->body[t->len] = '\0';
	return t->cut ? 0 : want;   /* 0 ends the transfer */
}

static size_t on_header(char *data, size_t size, size_t n, void *ctx)
{
	struct transfer *t = ctx;
	size_t len = size * n;

	if (len > 5 && memcmp(data, "HTTP/", 5) == 0) {
		while (len && (data[len - 1] == '\r' || data[len - 1] == '\n'))
			len--;
		textfmt_escape(data, len, t->status, sizeof(t->status));
	}
	return size * n;
}

static double seconds_left(const struct transfer *t)
{
	double left = t->secs - (now_seconds() - t->start);

	return left > 0 ? left : 0;
}

static int on_progress(void *ctx, curl_off_t dltotal, curl_off_t dlnow,
		       curl_off_t ultotal, curl_off_t ulnow)
{
	struct transfer *t = ctx;
	double now = now_seconds();

	(void)dltotal, (void)ultotal, (void)ulnow;
	if (t->cancel && atomic_load(t->cancel))
		return 1;
	if (t->o->progress && now - t->last_report >= 1.0) {
		t->last_report = now;
		t->o->progress(t->o->progress_ctx, t->url, seconds_left(t),
			       (uint64_t)dlnow);
	}
	return 0;
}

/*
 * "URL: HTTP/1.1 500 Internal Server Error: what the body says": its
 * first lines joined with " / ", spaces folded, the tags of an HTML page
 * left out, at most about 200 bytes, escaped.
 */
static char *http_error(const struct transfer *t, long code)
{
	char said[1000] = "", status[160], text[208];
	size_t k = 0;
	bool html = t->len && t->body[0] == '<', tag = false;
	bool sep = false, space = false;

	for (size_t i = 0; i < t->len && k < 200; i++) {
		char c = t->body[i];

		if (html && (c == '<' || tag)) {
			tag = c != '>';
			sep = true;     /* a tag ends a line (h1, p, br) */
		} else if (c == '\r' || c == '\n') {
			sep = true;
		} else if (c == ' ' || c == '\t') {
			space = true;
		} else {
			if (k && sep)
				k += (size_t)snprintf(text + k, sizeof(text) - k,
						      " / ");
			else if (k && space)
				text[k++] = ' ';
			sep = space = false;
			text[k++] = c;
		}
	}
	if (k) {
		size_t m = (size_t)snprintf(said, sizeof(said), ": ");

		textfmt_escape(text, k, said + m, sizeof(said) - m);
	}
	if (t->status[0])
		snprintf(status, sizeof(status), "%s", t->status);
	else
		snprintf(status, sizeof(status), "HTTP status %ld", code);
	return xasprintf("%s: %s%s", t->url, status, said);
}

static char *curl_error(const struct transfer *t, CURLcode rc,
			const char *errbuf, double timeout, bool connected)
{
	char why[CURL_ERROR_SIZE * 2];
	const char *e = *errbuf ? errbuf : cu.easy_strerror(rc);

	textfmt_escape(e, strlen(e), why, sizeof(why));
	switch (rc) {
	case CURLE_COULDNT_RESOLVE_HOST:
		return xasprintf("%s: unknown host (%s)", t->url, why);
	case CURLE_COULDNT_CONNECT:
		return xasprintf("%s: cannot connect (%s)", t->url, why);
	case CURLE_OPERATION_TIMEDOUT:
		if (!connected)
			return xasprintf("%s: cannot connect (%s)", t->url, why);
		return xasprintf("%s: no answer within %g s (%s; --timeout "
				 "sets the limit)", t->url, timeout, why);
	case CURLE_ABORTED_BY_CALLBACK:
		return xasprintf("%s: cancelled", t->url);
	default:
		return xasprintf("%s: cannot fetch (%s)", t->url, why);
	}
}

int fetch_url(const char *url, const struct fetch_opts *o,
	      const atomic_bool *cancel, char **body, size_t *len,
	      char **err)
{
	static const struct fetch_opts none;
	struct transfer t = { .url = url, .o = o ? o : &none, .cancel = cancel };
	char errbuf[CURL_ERROR_SIZE] = "";
	struct curl_slist *hdrs = NULL;
	double timeout = fetch_timeout(o, url);
	long code = 0;
	curl_off_t connect_us = 0;
	CURLcode rc;
	CURL *c;

	*body = NULL;
	*len = 0;
	*err = NULL;
	pthread_once(&curl_once, curl_init);
	if (!curl_ok) {
		*err = xasprintf("%s: cannot fetch (%s)", url, curl_lib.err);
		return -1;
	}
	if (!(c = cu.easy_init()))
		fatal("cannot initialize libcurl");
	for (size_t i = 0; i < t.o->nheaders; i++) {
		struct curl_slist *h = cu.slist_append(hdrs, t.o->headers[i]);

		if (!h)
			fatal("out of memory");
		hdrs = h;
	}
	t.start = t.last_report = now_seconds();
	t.secs = fetch_url_seconds(url);
	cu.easy_setopt(c, CURLOPT_URL, url);
	cu.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	cu.easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	cu.easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	cu.easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
	cu.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	/* No Content-Encoding asked for, none undone: see the top. */
	cu.easy_setopt(c, CURLOPT_HTTP_CONTENT_DECODING, 0L);
	cu.easy_setopt(c, CURLOPT_USERAGENT, "flametop/" FLAMETOP_VERSION);
	cu.easy_setopt(c, CURLOPT_HTTPHEADER, hdrs);
	cu.easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	cu.easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, (long)(1000 *
			 (timeout < CONNECT_TIMEOUT ? timeout : CONNECT_TIMEOUT)));
	cu.easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)(1000 * timeout));
	cu.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	cu.easy_setopt(c, CURLOPT_WRITEDATA, &t);
	cu.easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	cu.easy_setopt(c, CURLOPT_HEADERDATA, &t);
	cu.easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
	cu.easy_setopt(c, CURLOPT_XFERINFODATA, &t);
	cu.easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	rc = cu.easy_perform(c);
	cu.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	cu.easy_getinfo(c, CURLINFO_CONNECT_TIME_T, &connect_us);
	if (rc == CURLE_WRITE_ERROR && t.cut)
		rc = CURLE_OK;   /* the limit: the reader reports it */
	if (rc != CURLE_OK)
		*err = curl_error(&t, rc, errbuf, timeout, connect_us > 0);
	else if (code >= 400)
		*err = http_error(&t, code);
	cu.easy_cleanup(c);
	cu.slist_free_all(hdrs);
	if (*err) {
		free(t.body);
		return -1;
	}
	if (!t.body)
		t.body = xcalloc(1, 1);
	*body = t.body;
	*len = t.len;
	return 0;
}

/* ---- In the background ----------------------------------------------- */

struct fetch_job {
	pthread_t thread;
	char *url;
	struct fetch_opts o;
	atomic_bool cancel, done;
	double start, secs;
	int rc;
	char *body, *err;
	size_t len;
};

static void *job_run(void *arg)
{
	struct fetch_job *j = arg;

	j->rc = fetch_url(j->url, &j->o, &j->cancel, &j->body, &j->len,
			  &j->err);
	atomic_store(&j->done, true);
	return NULL;
}

struct fetch_job *fetch_start(const char *url, const struct fetch_opts *o)
{
	struct fetch_job *j = xcalloc(1, sizeof(*j));
	int e;

	j->url = xstrdup(url);
	if (o)
		j->o = *o;
	j->o.progress = NULL;
	atomic_init(&j->cancel, false);
	atomic_init(&j->done, false);
	j->start = now_seconds();
	j->secs = fetch_url_seconds(url);
	pthread_once(&curl_once, curl_init);   /* not from two threads */
	if ((e = pthread_create(&j->thread, NULL, job_run, j)) != 0)
		fatal("cannot start a thread: %s", strerror(e));
	return j;
}

bool fetch_poll(struct fetch_job *j, double *left)
{
	double l = j->secs - (now_seconds() - j->start);

	*left = l > 0 ? l : 0;
	return atomic_load(&j->done);
}

int fetch_finish(struct fetch_job *j, bool cancel, char **body, size_t *len,
		 char **err)
{
	int rc;

	if (cancel)
		atomic_store(&j->cancel, true);
	pthread_join(j->thread, NULL);
	rc = j->rc;
	*body = j->body;
	*len = j->len;
	*err = j->err;
	free(j->url);
	free(j);
	return rc;
}
