/* git_lazy.c: libgit2 loaded on first use (see git_lazy.h). */
#define GT_GIT_NO_MACROS
#include "git_lazy.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef SL_LIBGIT2_SONAME
#error "SL_LIBGIT2_SONAME: the soname of the libgit2 the build found (CMakeLists.txt)"
#endif

static gt_git_api api;
static int state; /* 0 not tried, 1 loaded, -1 failed */
static char why[512];

int gt_git_load(void)
{
	if (state)
		return state > 0 ? 0 : -1;
	state = -1;
	/* lazily bound: libgit2 and what it links (OpenSSL, Kerberos, libssh2,
	 * mbedTLS) have thousands of calls between them that servelint never
	 * makes; RTLD_NOW bound them all at the load (1.5 M instructions of
	 * `review HEAD~1 HEAD`'s 96.6 M over 10,000 entries). The functions
	 * servelint calls are looked up below, so a libgit2 that lacks one is
	 * still told at the load. */
	void *lib = dlopen(SL_LIBGIT2_SONAME, RTLD_LAZY | RTLD_LOCAL);
	if (!lib) {
		const char *e = dlerror();
		snprintf(why, sizeof why, "libgit2 cannot be loaded (%s)", e ? e : SL_LIBGIT2_SONAME);
		return -1;
	}
#define GT_GIT_SYM(f)                                                                              \
	*(void **)&api.f = dlsym(lib, #f);                                                         \
	if (!api.f) {                                                                              \
		snprintf(why, sizeof why, "libgit2 cannot be loaded (%s lacks %s)", SL_LIBGIT2_SONAME, #f); \
		return -1;                                                                         \
	}
	GT_GIT_FUNCS(GT_GIT_SYM)
#undef GT_GIT_SYM
	state = 1;
	return 0;
}

const char *gt_git_error(void)
{
	return why;
}

const gt_git_api *gt_git(void)
{
	if (state <= 0 && gt_git_load()) {
		fprintf(stderr, "servelint: %s\n", why);
		exit(2);
	}
	return &api;
}

/* libgit2's initialisation parses the system's whole CA bundle
 * (/etc/ssl/certs/ca-certificates.crt, with mbedTLS, the TLS of Debian's
 * libgit2) for the HTTPS transport: 53.6 M instructions of the 148 M of
 * `diff HEAD~1 HEAD` over 10,000 entries, where git's `diff --stat` is
 * 46.9 M in all. servelint never reaches a remote through libgit2 (no
 * fetch, clone or push is in GT_GIT_FUNCS), so the bundle is never used:
 * the binary exports this stand-in (CMakeLists.txt, --export-dynamic-symbol),
 * which the dynamic linker binds libgit2's call to before libmbedx509's
 * (the program comes first in a library's lookup scope), and no
 * certificate is parsed. No other library of the process uses mbedTLS
 * (libcurl, for `run`, has its own TLS). */
struct mbedtls_x509_crt;
int mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain, const char *path);
__attribute__((visibility("default"))) int mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain,
								       const char *path)
{
	(void)chain;
	(void)path;
	return 0; /* no certificate, no failure */
}

int gt_git_init(void)
{
	if (gt_git_load())
		return -1;
	return api.git_libgit2_init();
}

int gt_git_shutdown(void)
{
	return state > 0 ? api.git_libgit2_shutdown() : 0;
}
