/* variants.c (entry): the models of an entry's variants (see entry.h). */
#include "entry.h"

#include <stdlib.h>
#include <string.h>

int sl_entry_models(const sl_entry *e, const sl_grammars *gs, const sl_binds *binds, unsigned which,
		    sl_model ***out, size_t *n, sl_error *err)
{
	*out = NULL;
	*n = 0;
	sl_variant *vs;
	size_t nv;
	int truncated = 0, rc;
	if (sl_source_is_manifest(e->script)) {
		/* a Kubernetes or Dynamo manifest has no shell conditionals */
		vs = sl_calloc(1, sizeof *vs);
		nv = 1;
	} else if ((rc = sl_shell_variants(e->script, binds, &vs, &nv, &truncated, err)) != 0) {
		return rc;
	}
	if (which > nv) {
		sl_error_set(err, e->script->path, 0, 0, "there is no variant %u: the script has %zu", which,
			     nv);
		sl_variants_free(vs, nv);
		return SL_ERR_INPUT;
	}
	sl_model **ms = sl_calloc(nv, sizeof *ms);
	size_t k = 0;
	for (size_t i = 0; i < nv; i++) {
		if (which && i + 1 != which)
			continue;
		/* the reading the enumeration made: not parsed again */
		sl_script *s = vs[i].script;
		vs[i].script = NULL;
		if ((rc = sl_normalize_entry_script(e, gs, s, &ms[k], err)) != 0)
			break;
		ms[k]->variant_index = (unsigned)i + 1;
		ms[k]->nvariants = (unsigned)nv;
		if (truncated) {
			sl_note note = {0};
			note.msg = sl_strdup("the script has more variants than the limit of 64: the others are not read");
			sl_origin_set(&note.origin, e->script, 0, NULL);
			size_t cap = ms[k]->nnotes;
			SL_PUSH(ms[k]->notes, ms[k]->nnotes, cap, note);
		}
		k++;
	}
	sl_variants_free(vs, nv);
	if (rc) {
		for (size_t i = 0; i < k; i++)
			sl_model_free(ms[i]);
		free(ms);
		return rc;
	}
	*out = ms;
	*n = k;
	return SL_OK;
}

int sl_entry_model_one(const sl_entry *e, const sl_grammars *gs, const sl_binds *binds,
		       unsigned which, sl_model **out, sl_error *err)
{
	*out = NULL;
	sl_model **ms;
	size_t n;
	int rc = sl_entry_models(e, gs, binds, which, &ms, &n, err);
	if (rc)
		return rc;
	if (n > 1) {
		sl_buf b = {0};
		sl_buf_printf(&b, "the script has %zu variants; pick one with --variant N:", n);
		for (size_t i = 0; i < n && i < 8; i++)
			sl_buf_printf(&b, " %zu) %s;", i + 1, ms[i]->variant);
		if (n > 8)
			sl_buf_puts(&b, " ...");
		sl_error_set(err, e->script->path, 0, 0, "%s", b.data);
		sl_buf_free(&b);
		for (size_t i = 0; i < n; i++)
			sl_model_free(ms[i]);
		free(ms);
		return SL_ERR_INPUT;
	}
	*out = ms[0];
	free(ms);
	return SL_OK;
}
