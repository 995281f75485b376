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

/* The structure notes of b (a note of its kind: a rule reports it) that a
 * lacks, moved to a: b serves what a does and is dropped. */
static void carry_structure(sl_model *a, sl_model *b)
{
	size_t cap = a->nnotes;
	for (size_t i = 0; i < b->nnotes; i++) {
		sl_note *x = &b->notes[i];
		if (!x->kind)
			continue;
		int have = 0;
		for (size_t q = 0; q < a->nnotes && !have; q++)
			have = a->notes[q].kind == x->kind && a->notes[q].origin.src == x->origin.src &&
			       a->notes[q].origin.off == x->origin.off;
		if (have)
			continue;
		SL_PUSH(a->notes, a->nnotes, cap, *x);
		/* a has it now: b's is emptied so that freeing b leaves it */
		memset(x, 0, sizeof *x);
	}
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
	sl_shell_opts o = {binds, choice, n, fixed, nfixed, cache, NULL, 0};
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
	if (sl_normalize_entry_script(e, gs, s, cache, &m, &err)) {
		sl_error_clear(&err);
		if (pts) {
			free(*pts);
			*pts = NULL;
		}
		return NULL;
	}
	return m;
}

/* A reading to make: the alternatives to follow at the conditionals met
 * first, by their places (so that fixing a conditional, which takes it out
 * of the numbering, leaves the path the same). The last is what it is
 * made for: an alternative no reading has followed yet. */
struct path {
	uint32_t *offs;
	unsigned *alts;
	size_t n;
};

struct pair {
	uint32_t off;
	unsigned alt;
};

static int has_pair(const struct pair *v, size_t n, uint32_t off, unsigned alt)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].off == off && v[i].alt == alt)
			return 1;
	return 0;
}

static struct path path_of(const sl_branch_point *pts, size_t i, unsigned alt)
{
	struct path p = {sl_calloc(i + 1, sizeof(uint32_t)), sl_calloc(i + 1, sizeof(unsigned)), i + 1};
	for (size_t k = 0; k < i; k++) {
		p.offs[k] = pts[k].off;
		p.alts[k] = pts[k].taken;
	}
	p.offs[i] = pts[i].off;
	p.alts[i] = alt;
	return p;
}

/* The path with conditional off fixed (read at its first alternative, no
 * longer a point): 1, or 0 when the path took another of its alternatives
 * (what it was made for is not read any more). */
static int path_fix(struct path *p, uint32_t off)
{
	for (size_t k = 0; k < p->n; k++)
		if (p->offs[k] == off) {
			if (p->alts[k])
				return 0;
			memmove(p->offs + k, p->offs + k + 1, (p->n - k - 1) * sizeof *p->offs);
			memmove(p->alts + k, p->alts + k + 1, (p->n - k - 1) * sizeof *p->alts);
			p->n--;
			return 1;
		}
	return 1;
}

/*
 * The stateless conditionals whose every alternative serves what the one
 * read does: read at their first alternative and never a point (*fixed, the
 * caller's). A stateless alternative changes nothing later statements see
 * but variables no server reads (a result dir, a log name, the client's
 * arguments: shell/relevant.c), so it differs from another only by the
 * commands it runs, and whether one of them is an engine does not depend
 * on the other conditionals: trying each alternative once, in whatever
 * reading first meets the conditional, decides it.
 *
 * The readings go to meet every conditional: each alternative of each
 * conditional met is followed once (a path to it: the alternatives the
 * reading that met it followed before it), so that one behind a guard that
 * exits, or inside another's alternative, is met too; after a fix, the
 * same path is read again without it. That is one reading per alternative,
 * where following every combination of them (an odometer) took 2^N
 * readings for N conditionals: a harness of 1,000 lines with a dozen
 * undecided ones spent all of MAX_READINGS, each a reading of the whole
 * entry, finding nothing after its third. A conditional met only under a
 * combination of alternatives of two others is then not probed: it stays
 * a point, its variants read as they are (never a fix not proven).
 */
static void harness_only(const sl_entry *e, const sl_grammars *gs, const sl_binds *binds,
			 sl_shell_cache *cache, uint32_t **fixed, size_t *nfixed, sl_model **only)
{
	*fixed = NULL;
	*nfixed = 0;
	*only = NULL;
	size_t cap = 0, readings = 0, nprobed = 0, pcap = 0;
	uint32_t *probed = NULL;
	struct pair *covered = NULL;
	size_t ncovered = 0, ccap = 0;
	struct path *queue = NULL;  /* the readings to make, in order from head */
	size_t head = 0, nq = 0, qcap = 0;
	struct path start = {NULL, NULL, 0};
	SL_PUSH(queue, nq, qcap, start);
	while (head < nq && readings < MAX_READINGS) {
		struct path p = queue[head++];
		sl_branch_point *pts;
		size_t np;
		readings++;
		sl_model *m0 = reading(e, gs, binds, p.alts, p.n, *fixed, *nfixed, cache, &pts, &np);
		if (!m0) {
			free(p.offs);
			free(p.alts);
			break;
		}
		if (!np && readings == 1) {
			/* no conditional at all: this reading is the entry's one
			 * variant, handed out rather than parsed and normalized
			 * again (most scripts; it was half of check's time) */
			*only = m0;
			free(pts);
			free(p.offs);
			free(p.alts);
			break;
		}
		for (size_t i = 0; i < np; i++)
			if (!has_pair(covered, ncovered, pts[i].off, pts[i].taken)) {
				struct pair c = {pts[i].off, pts[i].taken};
				SL_PUSH(covered, ncovered, ccap, c);
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
				size_t nqp;
				sl_model *m = reading(e, gs, binds, c, i + 1, *fixed, *nfixed, cache, &q, &nqp);
				/* the flip must meet the same conditional at the same place */
				same = m && nqp > i && q[i].off == pts[i].off && same_served(m0, m);
				if (m && !has_pair(covered, ncovered, pts[i].off, a)) {
					struct pair cp = {pts[i].off, a};
					SL_PUSH(covered, ncovered, ccap, cp);
				}
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
		if (grew) {
			/* the readings to make, and this one again, without it */
			uint32_t f = (*fixed)[*nfixed - 1];
			size_t kept = head;
			for (size_t k = head; k < nq; k++) {
				if (path_fix(&queue[k], f)) {
					queue[kept++] = queue[k];
				} else {
					free(queue[k].offs);
					free(queue[k].alts);
				}
			}
			nq = kept;
			if (path_fix(&p, f)) {
				/* read next */
				SL_PUSH(queue, nq, qcap, p);
				memmove(queue + head + 1, queue + head, (nq - head - 1) * sizeof *queue);
				queue[head] = p;
				p.offs = NULL;
				p.alts = NULL;
			}
		} else {
			/* every alternative not followed yet, each once */
			for (size_t i = 0; i < np; i++)
				for (unsigned a = 0; a < pts[i].n; a++) {
					if (has_pair(covered, ncovered, pts[i].off, a))
						continue;
					int queued = 0;
					for (size_t k = head; k < nq && !queued; k++)
						queued = queue[k].n && queue[k].offs[queue[k].n - 1] == pts[i].off &&
							 queue[k].alts[queue[k].n - 1] == a;
					if (!queued)
						SL_PUSH(queue, nq, qcap, path_of(pts, i, a));
				}
		}
		free(p.offs);
		free(p.alts);
		free(pts);
	}
	for (size_t k = head; k < nq; k++) {
		free(queue[k].offs);
		free(queue[k].alts);
	}
	free(queue);
	free(covered);
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

int sl_entry_error_no_service(const sl_error *err)
{
	return err->msg && !strncmp(err->msg, "no service: ", 12);
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
 * x4`, at most 8 of them; *first is the first one's place (0 if none).
 * Caller frees. */
static char *multiplied(const sl_variant *vs, size_t nv, uint32_t *first)
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
	*first = np ? p[0].off : 0;
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
	size_t covered = 0;  /* past the limit: the conditionals a covering set of readings covers */
	sl_model *only = NULL;  /* the one reading of a script without conditionals */
	sl_shell_cache *cache = NULL;  /* one per script: its readings share it */
	unsigned recipe = 0;  /* a vLLM model recipe's variants: one reading each */
	if (sl_source_is_vllm_recipe(e->script)) {
		recipe = sl_vllm_recipe_variants(e->script);
		nv = recipe;
		vs = sl_calloc(nv, sizeof *vs);
	} else if (sl_source_is_manifest(e->script)) {
		/* a Kubernetes or Dynamo manifest has no shell conditionals */
		vs = sl_calloc(1, sizeof *vs);
		nv = 1;
	} else {
		uint32_t *fixed;
		size_t nfixed;
		cache = sl_shell_cache_new();
		harness_only(e, gs, binds, cache, &fixed, &nfixed, &only);
		if (only) {
			vs = sl_calloc(1, sizeof *vs);
			nv = 1;
		} else {
			sl_shell_opts base = {binds, NULL, 0, fixed, nfixed, cache, NULL, 0};
			rc = sl_shell_variants(e->script, &base, &vs, &nv, &truncated, &covered, err);
		}
		free(fixed);
		if (!only && rc) {
			sl_shell_cache_free(cache);
			return rc;
		}
	}
	uint32_t why_at = 0;
	char *why = truncated || covered ? multiplied(vs, nv, &why_at) : NULL;
	sl_model **ms = sl_calloc(nv, sizeof *ms);
	char *exits = sl_calloc(nv + 1, 1);  /* ms[k]'s reading reached an `exit` */
	size_t k = 0;
	rc = SL_OK;
	for (size_t i = 0; i < nv; i++) {
		if (only) {
			ms[k] = only;
			only = NULL;
		} else if (recipe) {
			/* the i-th variant, read through a view of the entry that
			 * names it; the model is the entry's */
			sl_entry view = *e;
			view.recipe_variant = (unsigned)i;
			if ((rc = sl_normalize_entry_script(&view, gs, NULL, NULL, &ms[k], err)) != 0)
				break;
			ms[k]->entry = e;
		} else {
			/* the reading the enumeration made: not parsed again */
			sl_script *s = vs[i].script;
			vs[i].script = NULL;
			exits[k] = (char)(s && s->exited);
			if ((rc = sl_normalize_entry_script(e, gs, s, cache, &ms[k], err)) != 0)
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
			/* what it says of the script's shape is the entry's all the
			 * same (a file it reaches that is not read: SL0003), whichever
			 * of the two readings the order of reading kept */
			carry_structure(ms[j], ms[k]);
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
	sl_shell_cache_free(cache);  /* the variants are normalized: their texts read */
	for (size_t i = 0; i < k && !rc; i++) {
		ms[i]->variant_index = (unsigned)i + 1;
		ms[i]->nvariants = (unsigned)k;
		if (covered && !truncated) {
			/* read whole as far as any three decisions go: said, and
			 * an advisory finding of check (SL0006), so that a reading
			 * short of every four-way combination is never silent
			 * (shell/readings.c) */
			sl_note note = {0};
			sl_buf b = {0}, ways = {0};
			/* readings that serve the same are one variant: say both */
			if (k == 1)
				sl_buf_printf(&ways, "all of them serve the same");
			else
				sl_buf_printf(&ways, "they serve in %zu different ways", k);
			sl_buf_printf(&b, "the script's %zu undecided conditionals make more variants than the limit "
				      "of 64: read are %zu, which hold every combination of alternatives of any three "
				      "of them, not of every four or more (%s): %s (bind their variables with --set "
				      "NAME=VALUE to read every combination)",
				      covered, nv, ways.data, why);
			sl_buf_free(&ways);
			note.msg = sl_buf_detach(&b);
			note.kind = sl_structure_kind("variants_covered");
			sl_origin_set(&note.origin, e->script, why_at < e->script->len ? why_at : 0, NULL);
			size_t cap = ms[i]->nnotes;
			SL_PUSH(ms[i]->notes, ms[i]->nnotes, cap, note);
		}
		if (truncated) {
			sl_note note = {0};
			sl_buf b = {0};
			sl_buf_printf(&b, "the script has more variants than the limit of 64%s: the others are not read; "
				      "its undecided conditionals multiply: %s (bind their variables with --set "
				      "NAME=VALUE to read fewer)",
				      covered ? ", and so has a set of them that covers every combination of any three "
						"of its conditionals" : "", why);
			note.msg = sl_buf_detach(&b);
			/* a note of its kind: check reports it (SL0005), so a script
			 * read in 64 of its variants never reads as checked whole */
			note.kind = sl_structure_kind("variants_beyond_limit");
			/* at the first conditional that multiplies, in the script */
			sl_origin_set(&note.origin, e->script, why_at < e->script->len ? why_at : 0, NULL);
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
