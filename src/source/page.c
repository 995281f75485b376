/*
 * page.c: a published catalogue page into its entries.
 *
 * The pages are scraped web text: headings, prose, entry scripts, embedded
 * YAML sections and metadata run together. An entry starts at the first line
 * that can only be shell (a comment, `#!`, `NAME=value`, a known launch
 * command) and ends with its `Submitted by` line; what lies between entries
 * is headings. A model heading reads "Kimi K3 (max) — 6 configurations".
 */
#include "source.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define EM_DASH " \xe2\x80\x94 "

static int starts_script(const char *l, size_t n)
{
	static const char *const cmds[] = {
		"docker ", "podman ", "vllm ", "sglang ", "trtllm-serve ", "trtllm-llmapi-launch ",
		"python ", "python3 ", "mpirun ", "etcd ", "export ", "set ", "bash ", "sh ", "env ",
		"exec ", "nohup ", "numactl ", "for ",
	};
	if (n && l[0] == '#')
		return 1;
	size_t k = 0;
	while (k < n && (isalnum((unsigned char)l[k]) || l[k] == '_'))
		k++;
	if (k && k < n && l[k] == '=' && (isupper((unsigned char)l[0]) || l[0] == '_'))
		return 1;
	for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
		if (n >= strlen(cmds[i]) && !strncmp(l, cmds[i], strlen(cmds[i])))
			return 1;
	return 0;
}

/* "Kimi K3 (max) — 6 configurations", "DeepSeek V4.1 Flash — featured configurations" */
static char *model_heading(const char *l, size_t n)
{
	char *s = sl_strndup(l, n);
	char *d = strstr(s, EM_DASH);
	if (!d || !sl_ends_with(s, "configurations")) {
		free(s);
		return NULL;
	}
	*d = '\0';
	return s;
}

int sl_page_split(const sl_source *page, sl_page_entry **out, size_t *n, sl_error *err)
{
	sl_page_entry *v = NULL;
	size_t cnt = 0, cap = 0;
	char *model = NULL, *heading = NULL;
	unsigned model_line = 0, heading_line = 0;
	unsigned start = 0;   /* first line of the open entry, 0 when none */
	int rc = SL_OK;
	for (unsigned i = 1; i <= page->nlines && rc == SL_OK; i++) {
		size_t len;
		const char *l = sl_source_line(page, i + page->line_base, &len);
		if (start) {
			if (len > 13 && !strncmp(l, "Submitted by ", 13)) {
				sl_page_entry e = {start, i, model ? sl_strdup(model) : NULL,
						   heading ? sl_strdup(heading) : NULL, model ? model_line : 0,
						   heading ? heading_line : 0};
				SL_PUSH(v, cnt, cap, e);
				start = 0;
			} else {
				char *mh = model_heading(l, len);
				if (mh) {
					free(mh);
					sl_error_set(err, page->path, start + page->line_base, 1,
						     "entry starting here has no `Submitted by` line before the "
						     "heading on line %u", i + page->line_base);
					rc = SL_ERR_INPUT;
				}
			}
			continue;
		}
		if (!len || strspn(l, " \t\r") == len)
			continue;
		char *mh = model_heading(l, len);
		if (mh) {
			free(model);
			model = mh;
			model_line = i + page->line_base;
			free(heading);
			heading = NULL;
		} else if (starts_script(l, len)) {
			start = i;
		} else if (len < 48 && l[len - 1] != '.') {
			free(heading);
			heading = sl_strndup(l, len);
			heading_line = i + page->line_base;
		}
	}
	if (rc == SL_OK && start) {
		sl_error_set(err, page->path, start + page->line_base, 1,
			     "entry starting here has no `Submitted by` line before the end of the page");
		rc = SL_ERR_INPUT;
	}
	if (rc == SL_OK && cnt == 0) {
		sl_error_set(err, page->path, 0, 0, "no entries found in this page");
		rc = SL_ERR_INPUT;
	}
	free(model);
	free(heading);
	if (rc) {
		sl_page_entries_free(v, cnt);
		return rc;
	}
	*out = v;
	*n = cnt;
	return SL_OK;
}

void sl_page_entries_free(sl_page_entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].model);
		free(v[i].heading);
	}
	free(v);
}
