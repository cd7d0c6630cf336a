/*
 * test-fetch.c - what fetch.c decides without a network: which names are
 * URLs, the seconds a URL asks a server to profile for, the time limit
 * that follows, and a refused connection's message (127.0.0.1 port 1).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fetch.h"

static void is_url(void **state)
{
	(void)state;
	assert_true(fetch_is_url("http://host/debug/pprof/heap"));
	assert_true(fetch_is_url("HTTPS://host/x"));
	assert_false(fetch_is_url("http:/host"));
	assert_false(fetch_is_url("ftp://host/x"));
	assert_false(fetch_is_url("http.folded"));
	assert_false(fetch_is_url("-"));
}

static void seconds(void **state)
{
	struct fetch_opts o = { 0 };

	(void)state;
	assert_true(fetch_url_seconds("http://h/debug/pprof/profile?seconds=30") == 30);
	assert_true(fetch_url_seconds("http://h/p?debug=0&seconds=2.5") == 2.5);
	assert_true(fetch_url_seconds("http://h/debug/pprof/heap") == 0);
	assert_true(fetch_url_seconds("http://h/p?xseconds=5") == 0);
	assert_true(fetch_url_seconds("http://h/p?seconds=abc") == 0);
	assert_true(fetch_url_seconds("http://h/p?seconds=-4") == 0);
	assert_true(fetch_timeout(&o, "http://h/p?seconds=30") == 60);
	assert_true(fetch_timeout(&o, "http://h/heap") == 30);
	assert_true(fetch_timeout(NULL, "http://h/heap") == 30);
	o.timeout = 5;
	assert_true(fetch_timeout(&o, "http://h/p?seconds=30") == 5);
}

static void refused(void **state)
{
	char *body = (char *)1, *err = NULL;
	size_t len = 1;
	const char *url = "http://127.0.0.1:1/debug/pprof/heap";

	(void)state;
	assert_int_equal(fetch_url(url, NULL, NULL, &body, &len, &err), -1);
	assert_null(body);
	assert_int_equal(len, 0);
	assert_non_null(err);
	assert_non_null(strstr(err, url));
	assert_non_null(strstr(err, "cannot connect"));
	assert_null(strchr(err, '\n'));
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(is_url),
		cmocka_unit_test(seconds),
		cmocka_unit_test(refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
