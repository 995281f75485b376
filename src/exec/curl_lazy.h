/*
 * curl_lazy.h: libcurl, loaded when `run` first asks for it (curl_lazy.c).
 * Linked, libcurl and the libraries it needs (TLS, Kerberos, LDAP, SSH...)
 * cost every process some 10 M instructions of dynamic loading before
 * main, in commands that never speak HTTP. Included instead of
 * <curl/curl.h>, it turns the calls run.c makes into calls through a
 * table that curl_global_init fills with dlopen of the soname the build
 * found (SL_LIBCURL_SONAME). When the
 * library cannot be loaded, curl_global_init says so on stderr once and
 * fails, and curl_easy_init gives NULL: a health check then fails, told.
 */
#ifndef SL_CURL_LAZY_H
#define SL_CURL_LAZY_H

/* the calls go through the table: no type-checking wrappers around them */
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

typedef struct sl_curl_api {
	CURLcode (*global_init)(long flags);
	void (*global_cleanup)(void);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *h, CURLoption opt, ...);
	CURLcode (*easy_perform)(CURL *h);
	CURLcode (*easy_getinfo)(CURL *h, CURLINFO info, ...);
	void (*easy_cleanup)(CURL *h);
} sl_curl_api;

/* stubs until libcurl is loaded (and when it cannot be) */
extern sl_curl_api sl_curl;

/* Loads libcurl (once) and runs its curl_global_init; CURLE_FAILED_INIT,
 * told on stderr, when it cannot be loaded. */
CURLcode sl_curl_global_init(long flags);

#undef curl_easy_setopt  /* curl.h's own pass-through macros */
#undef curl_easy_getinfo
#define curl_global_init(flags) sl_curl_global_init(flags)
#define curl_global_cleanup() sl_curl.global_cleanup()
#define curl_easy_init() sl_curl.easy_init()
#define curl_easy_setopt(...) sl_curl.easy_setopt(__VA_ARGS__)
#define curl_easy_perform(h) sl_curl.easy_perform(h)
#define curl_easy_getinfo(...) sl_curl.easy_getinfo(__VA_ARGS__)
#define curl_easy_cleanup(h) sl_curl.easy_cleanup(h)

#endif
