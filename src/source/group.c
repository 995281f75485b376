/*
 * group.c: the entries of a folder that holds several scripts and no
 * launch.sh (a benchmark suite's `<model>_<gpu>_<engine>.sh` by the dozen,
 * or prefill.sh + decode.sh + router.sh), decided from the texts alone
 * (see source.h, sl_source_groups): a file a script names (runs with bash,
 * sources, mounts, passes as --config) belongs to that script's entry;
 * sibling scripts whose names differ only by a role word form one entry;
 * every other script is an entry of its own. Used for folders on disk
 * (folder.c) and for trees at a revision (git/tree.c).
 */
#include "source.h"

#include <stdlib.h>
#include <string.h>

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '-' || c == '.';
}

int sl_source_is_group_file(const char *name)
{
	return sl_ends_with(name, ".sh") || sl_ends_with(name, ".yaml") || sl_ends_with(name, ".yml");
}

/* The role word in a script's name (prefill_server.sh, run-decode.sh), as
 * the name with that word replaced by `*` (the key siblings share), or NULL. */
static const char *const role_words[] = {"prefill", "decode", "frontend", "router", "proxy"};

static char *role_key(const char *name, size_t *role)
{
	for (size_t r = 0; r < sizeof role_words / sizeof *role_words; r++) {
		size_t rl = strlen(role_words[r]);
		for (const char *p = strstr(name, role_words[r]); p; p = strstr(p + 1, role_words[r])) {
			int before = p == name || p[-1] == '_' || p[-1] == '-' || p[-1] == '.';
			char a = p[rl];
			int after = a == '_' || a == '-' || a == '.' || (a == 's' && p[rl + 1] == '.');
			if (!before || !after)
				continue;
			size_t skip = rl + (a == 's');
			sl_buf k = {0};
			sl_buf_add(&k, name, (size_t)(p - name));
			sl_buf_putc(&k, '*');
			sl_buf_puts(&k, p + skip);
			*role = r;
			return sl_buf_detach(&k);
		}
	}
	return NULL;
}

typedef struct {
	char *const *names;
	char *const *texts;
	const size_t *lens;
	size_t n;
	unsigned char *named;   /* named[i * n + j]: file i names file j */
} folder;

static void add_member(sl_group *g, size_t *cap, const char *name)
{
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->names[i], name))
			return;
	SL_PUSH(g->names, g->n, *cap, sl_strdup(name));
}

/* Adds the files member k names, and theirs, with why. */
static void close_over(const folder *f, sl_group *g, size_t *cap, size_t k, sl_buf *how, unsigned depth)
{
	if (depth > 16)
		return;
	for (size_t j = 0; j < f->n; j++) {
		if (!f->named[k * f->n + j])
			continue;
		size_t before = g->n;
		add_member(g, cap, f->names[j]);
		if (g->n == before)
			continue;
		sl_buf_printf(how, "%s%s (%s by %s)", how->len ? "; " : "", f->names[j],
			      sl_ends_with(f->names[j], ".sh") ? "run" : "named", f->names[k]);
		if (sl_ends_with(f->names[j], ".sh"))
			close_over(f, g, cap, j, how, depth + 1);
	}
}

static size_t index_of(const folder *f, const char *name)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->names[i], name))
			return i;
	return f->n;
}

int sl_source_groups(char *const *names, char *const *texts, const size_t *lens, size_t n, sl_group **out,
		     size_t *nout)
{
	*out = NULL;
	*nout = 0;
	size_t cap = 0;
	folder f = {names, texts, lens, n, sl_calloc(n * n + 1, 1)};
	size_t *named_by = sl_calloc(n + 1, sizeof *named_by);
	/* a script names a file when the file's name is a word of its own
	 * (`bash inner.sh`, `./inner.sh`, `$D/server.yaml:/cfg.yaml`) on a line
	 * that is not a comment: each script's words are looked up among the
	 * names (in name order), one pass over each script */
	for (size_t i = 0; i < n; i++) {
		if (!sl_ends_with(names[i], ".sh"))
			continue;
		const char *t = texts[i], *end = texts[i] + lens[i];
		int line_start = 1, comment = 0;
		for (const char *p = t; p < end;) {
			if (*p == '\n') {
				line_start = 1;
				comment = 0;
				p++;
				continue;
			}
			if (line_start && (*p == ' ' || *p == '\t')) {
				p++;
				continue;
			}
			if (line_start && *p == '#')
				comment = 1;
			line_start = 0;
			if (comment || !name_char(*p)) {
				p++;
				continue;
			}
			const char *q = p;
			while (q < end && name_char(*q))
				q++;
			size_t wl = (size_t)(q - p);
			size_t lo = 0, hi = n;
			while (lo < hi) {
				size_t mid = (lo + hi) / 2;
				int c = strncmp(names[mid], p, wl);
				if (!c && names[mid][wl])
					c = 1;
				if (c < 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			size_t j = lo;
			if (j < n && strlen(names[j]) == wl && !strncmp(names[j], p, wl) && j != i &&
			    sl_source_is_group_file(names[j]) && strcmp(names[j], "metadata.yaml") && !f.named[i * n + j]) {
				f.named[i * n + j] = 1;
				named_by[j] += sl_ends_with(names[j], ".sh");
			}
			p = q;
		}
	}
	/* the scripts no other script runs: each starts an entry */
	unsigned char *done = sl_calloc(n + 1, 1);
	for (size_t i = 0; i < n; i++) {
		if (!sl_ends_with(names[i], ".sh") || done[i] || named_by[i])
			continue;
		sl_group g = {0};
		size_t gcap = 0;
		sl_buf how = {0}, roles = {0};
		size_t r0;
		char *key = role_key(names[i], &r0);
		if (key) {
			/* its role siblings: the same name but for the role word */
			size_t members[8], nm = 0, has_pd = 0;
			for (size_t r = 0; r < sizeof role_words / sizeof *role_words; r++)
				for (size_t j = 0; j < n && nm < 8; j++) {
					size_t rj;
					if (!sl_ends_with(names[j], ".sh") || done[j] || named_by[j])
						continue;
					char *kj = role_key(names[j], &rj);
					if (kj && rj == r && !strcmp(kj, key)) {
						members[nm++] = j;
						has_pd |= r < 2;
					}
					free(kj);
				}
			if (nm > 1 && has_pd) {
				for (size_t q = 0; q < nm; q++) {
					add_member(&g, &gcap, names[members[q]]);
					done[members[q]] = 1;
					sl_buf_printf(&roles, "%s%s", q ? " + " : "", names[members[q]]);
				}
				sl_buf_puts(&roles, " (sibling role scripts)");
			}
			free(key);
		}
		if (!g.n) {
			add_member(&g, &gcap, names[i]);
			done[i] = 1;
		}
		for (size_t q = 0, nroles = g.n; q < nroles; q++)
			close_over(&f, &g, &gcap, index_of(&f, g.names[q]), &how, 0);
		if (g.n > 1) {
			sl_buf h = {0};
			sl_buf_puts(&h, roles.len ? roles.data : g.names[0]);
			if (how.len)
				sl_buf_printf(&h, "%s%s", roles.len ? "; " : " + ", how.data);
			g.how = sl_buf_detach(&h);
		}
		sl_buf_free(&how);
		sl_buf_free(&roles);
		SL_PUSH(*out, *nout, cap, g);
	}
	/* a script only others run is theirs; one in a circle of scripts that
	 * run each other, with no way in, is an entry of its own */
	for (size_t i = 0; i < n; i++) {
		if (!sl_ends_with(names[i], ".sh") || done[i])
			continue;
		int reached = 0;
		for (size_t k = 0; k < *nout && !reached; k++)
			for (size_t q = 0; q < (*out)[k].n && !reached; q++)
				reached = !strcmp((*out)[k].names[q], names[i]);
		if (reached)
			continue;
		sl_group g = {0};
		size_t gcap = 0;
		sl_buf how = {0};
		add_member(&g, &gcap, names[i]);
		close_over(&f, &g, &gcap, i, &how, 0);
		if (g.n > 1) {
			sl_buf h = {0};
			sl_buf_printf(&h, "%s + %s", names[i], how.data);
			g.how = sl_buf_detach(&h);
		}
		sl_buf_free(&how);
		SL_PUSH(*out, *nout, cap, g);
	}
	free(done);
	free(named_by);
	free(f.named);
	return SL_OK;
}

const sl_group *sl_source_group_of(const sl_group *gs, size_t n, const char *name)
{
	for (size_t k = 0; k < n; k++)
		if (!strcmp(gs[k].names[0], name))
			return &gs[k];
	for (size_t k = 0; k < n; k++)
		for (size_t q = 1; q < gs[k].n; q++)
			if (!strcmp(gs[k].names[q], name))
				return &gs[k];
	return NULL;
}

void sl_source_groups_free(sl_group *gs, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		for (size_t q = 0; q < gs[k].n; q++)
			free(gs[k].names[q]);
		free(gs[k].names);
		free(gs[k].how);
	}
	free(gs);
}

int sl_source_many_scripts(char *const *names, size_t n)
{
	size_t nsh = 0;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(names[i], "launch.sh"))
			return 0;
		nsh += sl_ends_with(names[i], ".sh");
	}
	return nsh > 1;
}
