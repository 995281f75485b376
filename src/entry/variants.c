/*
 * variants.c (entry): the models of an entry's variants (see entry.h), as a
 * user counts them: a conditional whose alternatives only run commands and
 * assign what no server reads (stateless, see sl_branch_point) and serve
 * the same is no decision at all (an `if [ -n "$SLURM_JOB_ID" ]; then echo
 * ...; fi`, an eval run after the benchmark, a result dir per job), and
 * variants that serve the same model are one.
 */
#include "entry.h"

#include <stdlib.h>
#include <string.h>

static int same_json(json_t *a, json_t *b)
{
	return a == b || (a && b && json_equal(a, b));
}

/* What a model serves: its services, each with its role, engine, replicas,
 * GPUs, settings and environment (values, not where they are written). */
static int same_served(const sl_model *a, const sl_model *b)
{
	if (a->nservices != b->nservices)
		return 0;
	for (size_t i = 0; i < a->nservices; i++) {
		const sl_service *x = &a->services[i], *y = &b->services[i];
		if (strcmp(x->role ? x->role : "", y->role ? y->role : "") ||
		    strcmp(x->engine ? x->engine : "", y->engine ? y->engine : "") ||
		    x->replicas != y->replicas || x->gpus != y->gpus ||
		    !same_json(x->gpu_devices, y->gpu_devices) ||
		    x->nsettings != y->nsettings || x->nenv != y->nenv)
			return 0;
		for (size_t k = 0; k < x->nsettings; k++) {
			const sl_setting *p = &x->settings[k], *q = &y->settings[k];
			if (strcmp(p->key, q->key) || p->flags != q->flags || !same_json(p->value, q->value))
				return 0;
		}
		for (size_t k = 0; k < x->nenv; k++) {
			const sl_env *p = &x->env[k], *q = &y->env[k];
			if (strcmp(p->name, q->name) || strcmp(p->value ? p->value : "", q->value ? q->value : "") ||
			    p->flags != q->flags)
				return 0;
		}
	}
	return 1;
}

/* The assumptions of label b ("A (line 3), B (line 9)") that label a does
 * not make, into out: what tells a merged variant from the one kept. */
static void own_assumptions(sl_buf *out, const char *b, const char *a)
{
	size_t before = out->len;
	const char *p = b;
	while (*p) {
		/* one assumption ends at ")" after its place, " (line N" */
		const char *e = sl_label_place(p);
		if (!e)
			break;
		e = strchr(e, ')');
		if (!e)
			break;
		e++;
		size_t n = (size_t)(e - p);
		int shared = 0;
		for (const char *q = a; q && *q && !shared; q++)
			shared = !strncmp(q, p, n) && (q[n] == 0 || q[n] == ',') && (q == a || q[-1] == ' ');
		if (!shared) {
			if (out->len > before)
				sl_buf_puts(out, ", ");
			sl_buf_add(out, p, n);
		}
		p = e;
		while (*p == ',' || *p == ' ')
			p++;
	}
	if (out->len == before)
		sl_buf_puts(out, b);
}

#define MAX_READINGS 256

/* A reading with choice[0..n) and the conditionals fixed so far, normalized:
 * NULL when it fails (the enumeration after reports it). *pts gets the
 * offsets of its points, *npts their count, when asked. */
static sl_model *reading(const sl_entry *e, const sl_grammars *gs, const sl_binds *binds,
			 const unsigned *choice, size_t n, const uint32_t *fixed, size_t nfixed,
			 sl_shell_cache *cache, sl_branch_point **pts, size_t *npts)
{
	if (pts) {
		*pts = NULL;
		*npts = 0;
	}
	sl_error err = {0};
	sl_shell_opts o = {binds, choice, n, fixed, nfixed, cache};
	sl_script *s;
	if (sl_shell_parse_with(e->script, &o, &s, &err)) {
		sl_error_clear(&err);
		return NULL;
	}
	if (pts) {
		*npts = s->npoints;
		*pts = sl_calloc(s->npoints + 1, sizeof **pts);
		for (size_t i = 0; i < s->npoints; i++) {
			(*pts)[i] = s->points[i];
			(*pts)[i].labels = NULL;
		}
	}
	sl_model *m;
	if (sl_normalize_entry_script(e, gs, s, &m, &err)) {
		sl_error_clear(&err);
		if (pts) {
			free(*pts);
			*pts = NULL;
		}
		return NULL;
	}
	return m;
}

/*
 * The stateless conditionals whose every alternative serves what the one
 * read does: read at their first alternative and never a point (*fixed, the
 * caller's). A stateless alternative changes nothing later statements see
 * but variables no server reads (a result dir, a log name, the client's
 * arguments: shell/relevant.c), so it differs from another only by the
 * commands it runs, and whether one of them is an engine does not depend
 * on the other conditionals: trying
 * each alternative once, in whatever reading first meets the conditional,
 * decides it. The readings go as the enumeration's odometer does (so that a
 * conditional behind a guard that exits is met too), again from the start
 * each time a conditional is fixed, in all at most MAX_READINGS.
 */
static void harness_only(const sl_entry *e, const sl_grammars *gs, const sl_binds *binds,
			 sl_shell_cache *cache, uint32_t **fixed, size_t *nfixed, sl_model **only)
{
	*fixed = NULL;
	*nfixed = 0;
	*only = NULL;
	size_t cap = 0, readings = 0, nprobed = 0, pcap = 0;
	uint32_t *probed = NULL;
	unsigned *choice = NULL;
	size_t nchoice = 0;
	while (readings < MAX_READINGS) {
		sl_branch_point *pts;
		size_t np;
		readings++;
		sl_model *m0 = reading(e, gs, binds, choice, nchoice, *fixed, *nfixed, cache, &pts, &np);
		if (!m0)
			break;
		if (!np && readings == 1) {
			/* no conditional at all: this reading is the entry's one
			 * variant, handed out rather than parsed and normalized
			 * again (most scripts; it was half of check's time) */
			*only = m0;
			free(pts);
			break;
		}
		int grew = 0;
		for (size_t i = 0; i < np && !grew && readings < MAX_READINGS; i++) {
			int seen = 0;
			for (size_t k = 0; k < nprobed && !seen; k++)
				seen = probed[k] == pts[i].off;
			if (seen || !pts[i].stateless)
				continue;
			SL_PUSH(probed, nprobed, pcap, pts[i].off);
			int same = 1;
			unsigned *c = sl_calloc(i + 1, sizeof *c);
			for (size_t k = 0; k < i; k++)
				c[k] = pts[k].taken;
			for (unsigned a = 0; a < pts[i].n && same; a++) {
				if (a == pts[i].taken)
					continue;
				if (++readings > MAX_READINGS) {
					same = 0;
					break;
				}
				c[i] = a;
				sl_branch_point *q;
				size_t nq;
				sl_model *m = reading(e, gs, binds, c, i + 1, *fixed, *nfixed, cache, &q, &nq);
				/* the flip must meet the same conditional at the same place */
				same = m && nq > i && q[i].off == pts[i].off && same_served(m0, m);
				sl_model_free(m);
				free(q);
			}
			free(c);
			if (same) {
				SL_PUSH(*fixed, *nfixed, cap, pts[i].off);
				grew = 1;
			}
		}
		sl_model_free(m0);
		/* the next reading: start again when a conditional was fixed (the
		 * points are counted without it), else advance the odometer */
		size_t i = np;
		if (!grew)
			while (i > 0 && pts[i - 1].taken + 1 >= pts[i - 1].n)
				i--;
		free(choice);
		choice = NULL;
		nchoice = 0;
		if (!grew && i == 0) {
			free(pts);
			break;
		}
		if (!grew) {
			choice = sl_calloc(i, sizeof *choice);
			for (size_t k = 0; k + 1 < i; k++)
				choice[k] = pts[k].taken;
			choice[i - 1] = pts[i - 1].taken + 1;
			nchoice = i;
		}
		free(pts);
	}
	free(choice);
	free(probed);
}

/* An entry whose reading finds no service (a YAML file, a text file, a
 * script that starts no engine) is no deployment: an error at the first
 * thing left unread, never an empty model that checks clean and diffs
 * equal. */
static int no_service(const sl_entry *e, const sl_model *m, sl_error *err)
{
	unsigned line = 1, col = 1;
	const char *file = e->script->path;
	if (m->nnotes && m->notes[0].origin.src) {
		sl_origin_pos(&m->notes[0].origin, &line, &col);
		file = m->notes[0].origin.src->path;
	}
	sl_error_set(err, file, line, col,
		     "no service: nothing in %s starts a serving engine (vllm, sglang, trtllm-serve, dynamo, ...)%s%s",
		     e->path, m->nnotes ? "; first left unread: " : "", m->nnotes ? m->notes[0].msg : "");
	return SL_ERR_INPUT;
}

/* A flag's invalid JSON, which normalizing notes and reads past (for
 * check to report among the entry's other findings), is an error for
 * every other command: nothing would start with it. */
static int invalid_json(const sl_model *m, sl_error *err)
{
	for (size_t i = 0; i < m->nnotes; i++)
		if (sl_starts_with(m->notes[i].msg, "invalid JSON") && m->notes[i].origin.src) {
			unsigned line, col;
			sl_origin_pos(&m->notes[i].origin, &line, &col);
			sl_error_set(err, m->notes[i].origin.src->path, line, col, "%s", m->notes[i].msg);
			return SL_ERR_INPUT;
		}
	return SL_OK;
}

/* What multiplied the readings past the limit: every undecided conditional
 * the readings met (by place, in the script's order) with its count of
 * alternatives, `if [ -z "$DCP_SIZE" ] (line 31) x2, case "$KV" (line 117)
 * x4`, at most 8 of them. Caller frees. */
static char *multiplied(const sl_variant *vs, size_t nv)
{
	struct pt { uint32_t off; unsigned n; const char *label; } *p = NULL;
	size_t np = 0, cap = 0;
	for (size_t i = 0; i < nv; i++) {
		const sl_script *s = vs[i].script;
		for (size_t k = 0; s && k < s->npoints; k++) {
			size_t j = 0;
			while (j < np && p[j].off != s->points[k].off)
				j++;
			if (j == np) {
				struct pt x = {s->points[k].off, s->points[k].n, s->points[k].labels[0]};
				SL_PUSH(p, np, cap, x);
			}
		}
	}
	/* in the script's order */
	for (size_t i = 1; i < np; i++)
		for (size_t j = i; j > 0 && p[j - 1].off > p[j].off; j--) {
			struct pt t = p[j];
			p[j] = p[j - 1];
			p[j - 1] = t;
		}
	sl_buf b = {0};
	for (size_t i = 0; i < np && i < 8; i++) {
		const char *l = p[i].label, *line = sl_label_place(l);
		const char *in = !strncmp(l, "case ", 5) ? strstr(l, " in ") : NULL;
		size_t len = in ? (size_t)(in - l) : line ? (size_t)(line - l) : strlen(l);
		sl_buf_printf(&b, "%s%.*s%s x%u", i ? ", " : "", (int)len, l, line ? line : "", p[i].n);
	}
	if (np > 8)
		sl_buf_printf(&b, " and %zu more", np - 8);
	free(p);
	return sl_buf_detach(&b);
}

static int models(const sl_entry *e, const sl_grammars *gs, const sl_binds *binds, unsigned which,
		  sl_model ***out, size_t *n, sl_error *err, int lenient)
{
	*out = NULL;
	*n = 0;
	sl_variant *vs;
	size_t nv;
	int truncated = 0, rc = SL_OK;
	sl_model *only = NULL;  /* the one reading of a script without conditionals */
	if (sl_source_is_manifest(e->script)) {
		/* a Kubernetes or Dynamo manifest has no shell conditionals */
		vs = sl_calloc(1, sizeof *vs);
		nv = 1;
	} else {
		uint32_t *fixed;
		size_t nfixed;
		sl_shell_cache *cache = sl_shell_cache_new();  /* one per script: its readings share it */
		harness_only(e, gs, binds, cache, &fixed, &nfixed, &only);
		if (only) {
			vs = sl_calloc(1, sizeof *vs);
			nv = 1;
		} else {
			sl_shell_opts base = {binds, NULL, 0, fixed, nfixed, cache};
			rc = sl_shell_variants(e->script, &base, &vs, &nv, &truncated, err);
		}
		free(fixed);
		sl_shell_cache_free(cache);
		if (!only && rc)
			return rc;
	}
	char *why = truncated ? multiplied(vs, nv) : NULL;
	sl_model **ms = sl_calloc(nv, sizeof *ms);
	char *exits = sl_calloc(nv + 1, 1);  /* ms[k]'s reading reached an `exit` */
	size_t k = 0;
	rc = SL_OK;
	for (size_t i = 0; i < nv; i++) {
		if (only) {
			ms[k] = only;
			only = NULL;
		} else {
			/* the reading the enumeration made: not parsed again */
			sl_script *s = vs[i].script;
			vs[i].script = NULL;
			exits[k] = (char)(s && s->exited);
			if ((rc = sl_normalize_entry_script(e, gs, s, &ms[k], err)) != 0)
				break;
		}
		if (!lenient && (rc = invalid_json(ms[k], err)) != 0) {
			sl_model_free(ms[k]);
			break;
		}
		/* a variant that serves what an earlier one does is that one */
		size_t j = 0;
		while (j < k && !same_served(ms[j], ms[k]))
			j++;
		if (j < k) {
			if (ms[k]->variant) {
				sl_note note = {0};
				sl_buf b = {0};
				sl_buf_puts(&b, "the variant assuming ");
				own_assumptions(&b, ms[k]->variant, ms[j]->variant);
				sl_buf_puts(&b, " instead serves the same: read as this one");
				note.msg = sl_buf_detach(&b);
				sl_origin_set(&note.origin, e->script, 0, NULL);
				size_t cap = ms[j]->nnotes;
				SL_PUSH(ms[j]->notes, ms[j]->nnotes, cap, note);
			}
			sl_model_free(ms[k]);
			continue;
		}
		k++;
	}
	sl_variants_free(vs, nv);
	/* a variant that exits before it starts anything, where another
	 * serves, is a guard's failure (a harness's check of its inputs, as
	 * `check_env_vars TP CONC` of a sourced library): not a variant, as a
	 * guard that exits at once is not one (control.c), but a note */
	size_t serving = 0;
	for (size_t i = 0; i < k && !rc; i++)
		serving += ms[i]->nservices > 0;
	if (!rc && serving && serving < k && !which) {
		size_t kept = 0, first = k;
		for (size_t i = 0; i < k; i++)
			if ((ms[i]->nservices || !exits[i]) && !kept++)
				first = i;
		sl_buf b = {0};
		for (size_t i = 0; i < k; i++)
			if (!ms[i]->nservices && exits[i] && ms[i]->variant) {
				sl_buf_puts(&b, b.len ? "; " : "");
				if (ms[first]->variant)
					own_assumptions(&b, ms[i]->variant, ms[first]->variant);
				else
					sl_buf_puts(&b, ms[i]->variant);
			}
		for (size_t i = 0, j = 0; i < k; i++) {
			if (ms[i]->nservices || !exits[i])
				ms[j++] = ms[i];
			else
				sl_model_free(ms[i]);
		}
		if (b.len) {
			sl_note note = {0};
			sl_buf m = {0};
			sl_buf_printf(&m, "the variant assuming %s starts no service before it exits: a guard's "
				      "failure, not a variant", b.data);
			note.msg = sl_buf_detach(&m);
			sl_origin_set(&note.origin, e->script, 0, NULL);
			size_t cap = ms[0]->nnotes;
			SL_PUSH(ms[0]->notes, ms[0]->nnotes, cap, note);
		}
		sl_buf_free(&b);
		k = kept;
	}
	free(exits);
	for (size_t i = 0; i < k && !rc; i++) {
		ms[i]->variant_index = (unsigned)i + 1;
		ms[i]->nvariants = (unsigned)k;
		if (truncated) {
			sl_note note = {0};
			sl_buf b = {0};
			sl_buf_printf(&b, "the script has more variants than the limit of 64: the others are not read; "
				      "its undecided conditionals multiply: %s (bind their variables with --set "
				      "NAME=VALUE to read fewer)", why);
			note.msg = sl_buf_detach(&b);
			sl_origin_set(&note.origin, e->script, 0, NULL);
			size_t cap = ms[i]->nnotes;
			SL_PUSH(ms[i]->notes, ms[i]->nnotes, cap, note);
		}
		if (k == 1 && ms[i]->variant) {
			/* every variant serves the same: there is one */
			free(ms[i]->variant);
			ms[i]->variant = NULL;
		}
	}
	free(why);
	nv = k;
	if (!rc && which > nv) {
		sl_error_set(err, e->script->path, 0, 0, "there is no variant %u: the script has %zu", which,
			     nv);
		rc = SL_ERR_INPUT;
	}
	if (!rc && which) {
		/* the one asked for */
		for (size_t i = 0; i < k; i++)
			if (i + 1 != which)
				sl_model_free(ms[i]);
		ms[0] = ms[which - 1];
		k = 1;
	}
	/* no variant starts anything (one picked with --variant may not: the
	 * branch of a guard that exits) */
	size_t with = 0;
	for (size_t i = 0; i < k; i++)
		with += ms[i]->nservices > 0;
	if (!rc && k && !with && (!which || nv == 1))
		rc = no_service(e, ms[0], err);
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

int sl_entry_models(const sl_entry *e, const sl_grammars *gs, const sl_binds *binds, unsigned which,
		    sl_model ***out, size_t *n, sl_error *err)
{
	return models(e, gs, binds, which, out, n, err, 0);
}

int sl_entry_models_lenient(const sl_entry *e, const sl_grammars *gs, const sl_binds *binds, unsigned which,
			    sl_model ***out, size_t *n, sl_error *err)
{
	return models(e, gs, binds, which, out, n, err, 1);
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
