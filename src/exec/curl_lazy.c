/* curl_lazy.c: libcurl loaded on first use (see curl_lazy.h). */
#include "curl_lazy.h"

#include <dlfcn.h>
#include <stdio.h>

#ifndef SL_LIBCURL_SONAME
#define SL_LIBCURL_SONAME "libcurl.so.4" /* libcurl 7's and 8's */
#endif

static CURLcode no_global_init(long flags)
{
	(void)flags;
	return CURLE_FAILED_INIT;
}
static void no_global_cleanup(void) {}
static CURL *no_easy_init(void)
{
	return NULL;
}
static CURLcode no_easy_setopt(CURL *h, CURLoption opt, ...)
{
	(void)h;
	(void)opt;
	return CURLE_FAILED_INIT;
}
static CURLcode no_easy_perform(CURL *h)
{
	(void)h;
	return CURLE_FAILED_INIT;
}
static CURLcode no_easy_getinfo(CURL *h, CURLINFO info, ...)
{
	(void)h;
	(void)info;
	return CURLE_FAILED_INIT;
}
static void no_easy_cleanup(CURL *h)
{
	(void)h;
}

sl_curl_api sl_curl = {no_global_init, no_global_cleanup, no_easy_init, no_easy_setopt,
		       no_easy_perform, no_easy_getinfo, no_easy_cleanup};

/* a symbol of the library, or NULL */
static void *sym(void *lib, const char *name)
{
	return lib ? dlsym(lib, name) : NULL;
}

CURLcode sl_curl_global_init(long flags)
{
	static int tried;
	if (!tried) {
		tried = 1;
		/* the soname of the libcurl the build found (CMakeLists.txt) */
		void *lib = dlopen(SL_LIBCURL_SONAME, RTLD_NOW | RTLD_LOCAL);
		sl_curl_api a;
		*(void **)&a.global_init = sym(lib, "curl_global_init");
		*(void **)&a.global_cleanup = sym(lib, "curl_global_cleanup");
		*(void **)&a.easy_init = sym(lib, "curl_easy_init");
		*(void **)&a.easy_setopt = sym(lib, "curl_easy_setopt");
		*(void **)&a.easy_perform = sym(lib, "curl_easy_perform");
		*(void **)&a.easy_getinfo = sym(lib, "curl_easy_getinfo");
		*(void **)&a.easy_cleanup = sym(lib, "curl_easy_cleanup");
		if (a.global_init && a.global_cleanup && a.easy_init && a.easy_setopt && a.easy_perform &&
		    a.easy_getinfo && a.easy_cleanup)
			sl_curl = a;
		else
			fprintf(stderr, "servelint: libcurl cannot be loaded (%s): HTTP health checks fail\n",
				lib ? "a function is missing" : dlerror());
	}
	return sl_curl.global_init(flags);
}
