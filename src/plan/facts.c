/* facts.c (plan): the accelerator and model facts of grammars/hardware/
 * and grammars/models/, built into the binary, and finding the ones an
 * entry names. */
#include "plan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../parse/parse.h"
#include "../util/util.h"

/* the facts built in: grammars/hardware and grammars/models loaded at
 * build time by cmake/data_ready.c into a table
 * (build/generated/facts_table.c); read only, never freed; an image
 * (cmake/data_image.h) that sl_facts_builtin_ready makes ready and points
 * sl_facts_builtin at, once, before any read */
extern sl_facts sl_facts_builtin;
void sl_facts_builtin_ready(void);

static char *jstr(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_string(v) ? sl_strdup(json_string_value(v)) : NULL;
}

static char **jstrs(const json_t *a, size_t *n)
{
	*n = 0;
	if (!json_is_array(a) || !json_array_size(a))
		return NULL;
	char **v = sl_calloc(json_array_size(a), sizeof *v);
	size_t i;
	const json_t *x;
	json_array_foreach(a, i, x)
		if (json_is_string(x))
			v[(*n)++] = sl_strdup(json_string_value(x));
	return v;
}

/* lower case, every run of other characters one space, a space each side:
 * " b200 sxm x8 " */
static char *words(const char *s)
{
	sl_buf b = {0};
	sl_buf_putc(&b, ' ');
	for (; *s; s++) {
		if (isalnum((unsigned char)*s))
			sl_buf_putc(&b, (char)tolower((unsigned char)*s));
		else if (b.len && b.data[b.len - 1] != ' ')
			sl_buf_putc(&b, ' ');
	}
	if (b.data[b.len - 1] != ' ')
		sl_buf_putc(&b, ' ');
	return sl_buf_detach(&b);
}

static void hw_free(sl_hw *h)
{
	free(h->id);
	free(h->name);
	for (size_t i = 0; i < h->nmatch; i++) {
		free(h->match[i]);
		free(h->match_words ? h->match_words[i] : NULL);
	}
	free(h->match);
	free(h->match_words);
	free(h->vendor);
	free(h->devices);
	free(h->mem_source);
	free(h->node_source);
	free(h->domain_source);
	for (size_t i = 0; i < h->nnative; i++)
		free(h->native[i]);
	free(h->native);
	for (size_t i = 0; i < h->nnone; i++)
		free(h->none[i]);
	free(h->none);
	free(h->prec_source);
	free(h->file);
}

static int fail(sl_error *err, const char *path, const char *msg)
{
	sl_error_set(err, path, 1, 1, "facts: %s", msg);
	return SL_ERR_INPUT;
}

static int hw_from(const char *path, const json_t *d, sl_hw *h, sl_error *err)
{
	memset(h, 0, sizeof *h);
	h->file = sl_strdup(path);
	h->id = jstr(d, "id");
	h->name = jstr(d, "name");
	h->match = jstrs(json_object_get(d, "match"), &h->nmatch);
	h->match_words = h->nmatch ? sl_calloc(h->nmatch, sizeof *h->match_words) : NULL;
	for (size_t i = 0; i < h->nmatch; i++)
		h->match_words[i] = words(h->match[i]);
	const json_t *v = json_object_get(d, "vendor"), *m = json_object_get(d, "memory");
	const json_t *n = json_object_get(d, "node"), *dom = json_object_get(d, "nvlink_domain");
	const json_t *p = json_object_get(d, "precisions");
	h->vendor = jstr(v, "name");
	h->devices = jstr(v, "devices");
	if (!h->id || !h->name || !h->nmatch || !h->vendor)
		return fail(err, path, "an accelerator needs id, name, match and vendor");
	if (json_is_number(json_object_get(m, "gib"))) {
		h->mem_gib = json_number_value(json_object_get(m, "gib"));
		h->mem_source = jstr(m, "source");
	}
	if (json_is_integer(json_object_get(n, "gpus"))) {
		h->node_gpus = (long)json_integer_value(json_object_get(n, "gpus"));
		h->node_source = jstr(n, "source");
	}
	if (json_is_integer(json_object_get(dom, "gpus"))) {
		h->domain_gpus = (long)json_integer_value(json_object_get(dom, "gpus"));
		h->domain_source = jstr(dom, "source");
	}
	h->native = jstrs(json_object_get(p, "native"), &h->nnative);
	h->none = jstrs(json_object_get(p, "none"), &h->nnone);
	h->prec_source = jstr(p, "source");
	/* every fact carries its source */
	if ((h->mem_gib > 0 && !h->mem_source) || (h->node_gpus && !h->node_source) ||
	    (h->domain_gpus && !h->domain_source) || ((h->nnative || h->nnone) && !h->prec_source))
		return fail(err, path, "every fact needs its source");
	return SL_OK;
}

static int arch_from(const char *path, const json_t *d, sl_arch *a, sl_error *err)
{
	const json_t *cfg = json_object_get(d, "config");
	if (sl_arch_from_config(cfg, a))
		return fail(err, path, "a model needs config: with num_hidden_layers and hidden_size");
	a->id = jstr(d, "id");
	a->file = sl_strdup(path);
	a->names = jstrs(json_object_get(d, "names"), &a->nnames);
	const json_t *src = json_object_get(d, "source");
	if (json_is_object(src)) {
		sl_buf b = {0};
		const char *c = json_string_value(json_object_get(src, "config"));
		const char *r = json_string_value(json_object_get(src, "read_in"));
		sl_buf_printf(&b, "%s%s%s", c ? c : "", c && r ? ", read in " : "", r ? r : "");
		a->source = sl_buf_detach(&b);
	}
	const json_t *p = json_object_get(d, "parameters");
	if (json_is_number(json_object_get(p, "total"))) {
		a->params = json_number_value(json_object_get(p, "total"));
		free(a->params_source);
		a->params_source = jstr(p, "source");
	}
	if (!a->id || !a->nnames || !a->source || (a->params > 0 && !a->params_source))
		return fail(err, path, "a model needs id, names, source (and a parameters source)");
	return SL_OK;
}

static int load_one(sl_facts *f, int models, const char *path, const char *text, size_t len, sl_error *err)
{
	sl_source *src;
	int rc = sl_source_from_memory(path, text, len, &src, err);
	if (rc)
		return rc;
	sl_yaml_doc *d;
	rc = sl_yaml_load(src, &d, err);
	if (rc) {
		sl_source_free(src);
		return rc;
	}
	json_t *j = sl_yaml_to_json(d->root);
	sl_yaml_free(d);
	sl_source_free(src);
	if (models) {
		sl_arch a;
		rc = arch_from(path, j, &a, err);
		if (rc)
			sl_arch_free(&a);
		else {
			f->arch = sl_realloc(f->arch, (f->narch + 1) * sizeof *f->arch);
			f->arch[f->narch++] = a;
		}
	} else {
		sl_hw h;
		rc = hw_from(path, j, &h, err);
		if (rc)
			hw_free(&h);
		else {
			f->hw = sl_realloc(f->hw, (f->nhw + 1) * sizeof *f->hw);
			f->hw[f->nhw++] = h;
		}
	}
	json_decref(j);
	return rc;
}

static int load_dir(sl_facts *f, int models, const char *dir, sl_error *err)
{
	/* in name order, as the built-in ones are */
	char **names;
	size_t n;
	if (sl_dir_names(dir, ".yaml", &names, &n)) {
		sl_error_set(err, dir, 0, 0, "SERVELINT_FACTS: cannot open folder");
		return SL_ERR_IO;
	}
	int rc = SL_OK;
	for (size_t i = 0; i < n; i++) {
		sl_buf p = {0};
		sl_buf_printf(&p, "%s/%s", dir, names[i]);
		char *text;
		size_t len;
		if (rc == SL_OK && (rc = sl_read_file(p.data, 1 << 20, &text, &len, err)) == SL_OK) {
			rc = load_one(f, models, p.data, text, len, err);
			free(text);
		}
		sl_buf_free(&p);
		free(names[i]);
	}
	free(names);
	return rc;
}

int sl_facts_load(sl_facts **out, sl_error *err)
{
	const char *dir = getenv("SERVELINT_FACTS");
	if (!dir || !*dir) {
		sl_facts_builtin_ready();
		*out = &sl_facts_builtin;
		return SL_OK;
	}
	sl_facts *f = sl_calloc(1, sizeof *f);
	sl_buf h = {0}, m = {0};
	sl_buf_printf(&h, "%s/hardware", dir);
	sl_buf_printf(&m, "%s/models", dir);
	int rc = load_dir(f, 0, h.data, err);
	if (rc == SL_OK)
		rc = load_dir(f, 1, m.data, err);
	sl_buf_free(&h);
	sl_buf_free(&m);
	if (rc) {
		sl_facts_free(f);
		return rc;
	}
	*out = f;
	return SL_OK;
}

void sl_facts_free(sl_facts *f)
{
	if (!f || f == &sl_facts_builtin)
		return;
	for (size_t i = 0; i < f->nhw; i++)
		hw_free(&f->hw[i]);
	free(f->hw);
	for (size_t i = 0; i < f->narch; i++)
		sl_arch_free(&f->arch[i]);
	free(f->arch);
	free(f);
}

const sl_hw *sl_facts_hw(const sl_facts *f, const char *text)
{
	if (!f || !text)
		return NULL;
	char *t = words(text);
	const sl_hw *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; i < f->nhw; i++)
		for (size_t k = 0; k < f->hw[i].nmatch; k++) {
			const char *w = f->hw[i].match_words[k];
			size_t l = strlen(w);
			if (l > best_len && strstr(t, w)) {
				best = &f->hw[i];
				best_len = l;
			}
		}
	free(t);
	return best;
}

const sl_arch *sl_facts_arch(const sl_facts *f, const char *weights)
{
	if (!f || !weights)
		return NULL;
	size_t n = strlen(weights);
	while (n && weights[n - 1] == '/')
		n--;
	const char *base = weights;
	for (size_t i = 0; i < n; i++)
		if (weights[i] == '/')
			base = weights + i + 1;
	size_t bl = (size_t)(weights + n - base);
	for (size_t i = 0; i < f->narch; i++)
		for (size_t k = 0; k < f->arch[i].nnames; k++)
			if (strlen(f->arch[i].names[k]) == bl && !strncasecmp(f->arch[i].names[k], base, bl))
				return &f->arch[i];
	return NULL;
}
