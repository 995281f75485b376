/*
 * vocabulary.c: the checks a rule file says as data, over one model:
 *   equal_across_roles  prefill and decode agree on a key, each side as it
 *                       runs it: one that leaves the key unset is held to
 *                       the engine's default (from its source); not on
 *                       the engines a rule names where the key cannot
 *                       differ in effect (unless_engines); a direction
 *                       makes only one way round a finding (decode_below)
 *   equal_frontend_workers  the frontend and every worker agree on a key
 *   in_range            a number within bounds
 *   requires            one key set needs another
 *   conflicts           two keys not both set
 *   claim_matches       what the text claims of a key is what is set
 *   structure           the script's shape changes what runs (a note of a
 *                       kind the reader gave it: a blank after a backslash)
 * (equal_across_entries, the catalogue's, is catalogue.c's.) Adding a
 * typical rule needs no C: these are its words. Uses findings.c to report.
 */
#include "vocabulary.h"

#include <math.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"

static const sl_service *first_of(const sl_model *m, const char *role)
{
	for (size_t i = 0; i < m->nservices; i++)
		if (!strcmp(m->services[i].role, role))
			return &m->services[i];
	return NULL;
}

int sl_check_symbolic_argv(const sl_service *s)
{
	size_t i;
	json_t *w;
	json_array_foreach(s->argv, i, w)
		if (json_is_string(w) && strchr(json_string_value(w), '$'))
			return 1;
	return 0;
}

int sl_check_is_worker(const char *role)
{
	return !strcmp(role, "prefill") || !strcmp(role, "decode") || !strcmp(role, "aggregated");
}

/* equal, with numbers compared as numbers and strings without case
 * ("DSPARK" and "dspark" name one method) */
int sl_check_same_value(json_t *a, json_t *b)
{
	if (json_is_number(a) && json_is_number(b))
		return fabs(json_number_value(a) - json_number_value(b)) < 1e-9;
	if (json_is_string(a) && json_is_string(b))
		return !strcasecmp(json_string_value(a), json_string_value(b));
	if (json_is_boolean(a) || json_is_boolean(b))
		return json_is_true(a) == json_is_true(b) && json_is_boolean(a) && json_is_boolean(b);
	return json_equal(a, b);
}

/* The value a service that does not set key runs with, through the
 * default of the service that does (set): its grammar's default, from the
 * engine's source (grammars/facts). Only when both run the same engine (a
 * default is one engine's) and set's value is known. A worker held to the
 * frontend runs another engine: its own grammar's default (the model
 * carries it, sl_service.defaults), where the grammar states one (Dynamo
 * TensorRT-LLM's --kv-block-size 32; vLLM's and SGLang's block size depend
 * on the attention backend and state none). NULL otherwise. */
static json_t *default_for(const sl_rule *r, const sl_service *unset, const sl_service *set_svc,
			   const sl_setting *set)
{
	if (set->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER | SL_SET_PER_REPLICA))
		return NULL;
	if (r->kind == K_FRONTEND && sl_check_is_worker(unset->role) && strcmp(unset->engine, set_svc->engine)) {
		json_t *d = unset->defaults ? json_object_get(unset->defaults, set->key) : NULL;
		return d && !json_is_null(d) ? d : NULL;
	}
	if (!set->dflt || json_is_null(set->dflt) || strcmp(unset->engine, set_svc->engine))
		return NULL;
	return set->dflt;
}

/* equal as the rules compare, where a list (vLLM's --served-model-name
 * takes several names) agrees with a name it holds */
static int agree(json_t *a, json_t *b)
{
	if (json_is_array(a) != json_is_array(b)) {
		json_t *list = json_is_array(a) ? a : b, *one = list == a ? b : a, *v;
		size_t i;
		json_array_foreach(list, i, v)
			if (sl_check_same_value(v, one))
				return 1;
		return 0;
	}
	return sl_check_same_value(a, b);
}

/* a and b (either may be NULL: not set) hold key on services sa and sb;
 * compared as each service runs it (through the default of the one that
 * sets it, the message says so). A finding at b's place (a's when b does
 * not set it), the other's related. */
/* how a message names a service: prefill and decode by role (the first of
 * each is compared), the frontend's workers by name (each is) */
static const char *who(const sl_rule *r, const sl_service *s)
{
	return r->kind == K_FRONTEND ? s->name : s->role;
}

static void compare_effective(const sl_rule *r, const char *key, const sl_service *sa, const sl_setting *a,
			      const sl_service *sb, const sl_setting *b, sl_findings *out)
{
	if (!a && !b)
		return;
	json_t *va = a ? a->value : default_for(r, sa, sb, b);
	json_t *vb = b ? b->value : default_for(r, sb, sa, a);
	/* compared as each engine reads them (vLLM's fp8 is fp8_e4m3); a
	 * default is read through the grammar of the side that gave it */
	if (!va || !vb || agree(sl_setting_canonical(a ? a : b, va), sl_setting_canonical(b ? b : a, vb)))
		return;
	/* a direction: only the one way round is a finding, between numbers
	 * (check_equal passes prefill as a, decode as b) */
	if (r->direction != DIR_ANY) {
		if (!json_is_number(va) || !json_is_number(vb))
			return;
		double pv = json_number_value(va), dv = json_number_value(vb);
		if (r->direction == DIR_DECODE_BELOW ? !(dv < pv) : !(pv < dv))
			return;
	}
	for (size_t u = 0; u < r->nunless; u++)
		if ((json_is_string(va) && !strcasecmp(json_string_value(va), r->unless[u])) ||
		    (json_is_string(vb) && !strcasecmp(json_string_value(vb), r->unless[u])))
			return;  /* one side composes the other's (MultiConnector over NixlConnector) */
	char *ta = sl_finding_value_text(va), *tb = sl_finding_value_text(vb);
	sl_finding *f;
	if (a && b) {
		f = sl_finding_add(out, r, &b->origin, "%s: %s has %s = %s, %s has %s", r->summary, who(r, sb), key, tb,
				   who(r, sa), ta);
		char rel[64];
		snprintf(rel, sizeof rel, "%s sets it here", who(r, sa));
		sl_finding_related(f, &a->origin, rel);
	} else {
		const sl_service *set = a ? sa : sb, *unset = a ? sb : sa;
		f = sl_finding_add(out, r, a ? &a->origin : &b->origin,
				   "%s: %s has %s = %s, %s does not set it and runs with %s's default %s", r->summary,
				   who(r, set), key, a ? ta : tb, who(r, unset), unset->engine, a ? tb : ta);
	}
	free(ta);
	free(tb);
}

static int engine_listed(const sl_rule *r, const sl_service *s)
{
	for (size_t i = 0; i < r->nunless_engines; i++)
		if (!strcmp(s->engine, r->unless_engines[i]))
			return 1;
	return 0;
}

static void check_equal(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	const sl_service *p = first_of(m, "prefill"), *d = first_of(m, "decode");
	if (!p || !d || engine_listed(r, p) || engine_listed(r, d))
		return;
	for (size_t k = 0; k < r->nkeys; k++)
		compare_effective(r, r->keys[k], p, sl_service_get(p, r->keys[k]), d, sl_service_get(d, r->keys[k]),
				  out);
}

/* The frontend (or router) and each worker agree on a key: the one
 * routing requests and the ones serving them. */
static void check_frontend(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	const sl_service *fe = first_of(m, "frontend");
	if (!fe)
		return;
	for (size_t k = 0; k < r->nkeys; k++) {
		const sl_setting *f = sl_service_get(fe, r->keys[k]);
		/* some_worker: one worker that names the same is enough (the
		 * name clients ask for is one that worker registers) */
		int agreed = 0;
		for (size_t i = 0; i < m->nservices && r->some_worker && f && !agreed; i++) {
			const sl_setting *ws = sl_service_get(&m->services[i], r->keys[k]);
			agreed = sl_check_is_worker(m->services[i].role) && ws && agree(ws->value, f->value);
		}
		if (agreed)
			continue;
		for (size_t i = 0; i < m->nservices; i++) {
			const sl_service *w = &m->services[i];
			if (!sl_check_is_worker(w->role))
				continue;
			size_t before = out->n;
			compare_effective(r, r->keys[k], w, sl_service_get(w, r->keys[k]), fe, f, out);
			if (r->some_worker && out->n > before)
				break;  /* the first disagreement stands for all */
		}
	}
}

static void check_range(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++)
		for (size_t k = 0; k < r->nkeys; k++) {
			const sl_setting *s = sl_service_get(&m->services[i], r->keys[k]);
			if (!s || !json_is_number(s->value))
				continue;
			double v = json_number_value(s->value);
			int low = r->has_min && (r->min_excl ? v <= r->min : v < r->min);
			int high = r->has_max && (r->max_excl ? v >= r->max : v > r->max);
			if (!low && !high)
				continue;
			char *t = sl_finding_value_text(s->value);
			sl_finding_add(out, r, &s->origin, "%s: %s = %s is outside %s%g, %g%s", r->summary, r->keys[k], t,
				       r->min_excl ? "(" : "[", r->min, r->max, r->max_excl ? ")" : "]");
			free(t);
		}
}

static void check_requires(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_setting *s = sl_service_get(&m->services[i], r->keys[0]);
		if (!s || json_is_false(s->value) || json_is_null(s->value))
			continue;
		if (!sl_service_get(&m->services[i], r->keys[1]))
			sl_finding_add(out, r, &s->origin, "%s: %s is set but %s is not", r->summary, r->keys[0],
				       r->keys[1]);
	}
}

static void check_conflicts(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_setting *a = sl_service_get(&m->services[i], r->keys[0]);
		const sl_setting *b = sl_service_get(&m->services[i], r->keys[1]);
		if (!a || !b || json_is_false(a->value) || json_is_false(b->value))
			continue;
		sl_finding *f = sl_finding_add(out, r, &b->origin, "%s: %s and %s are both set", r->summary,
					       r->keys[0], r->keys[1]);
		sl_finding_related(f, &a->origin, "the other one");
	}
}

/* The claim's number rewritten to the command's (FIX_CLAIM_VALUE): only
 * when both are whole numbers, every service the claim speaks of sets the
 * same one and has no flag it does not know, no other claim is read from the same words (DEP4 claims data
 * and expert parallelism: one may be right), and the number is written
 * once in them ("TP8", "6 draft tokens"). */
static void claim_fix(sl_finding *f, const sl_model *m, const sl_claim *k, const sl_setting *seen)
{
	if (f->rule->fix != FIX_CLAIM_VALUE || !json_is_integer(k->value) || !json_is_integer(seen->value) ||
	    !k->origin.src || !k->text)
		return;
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (k->role ? strcmp(s->role, k->role) : !sl_check_is_worker(s->role))
			continue;
		const sl_setting *st = sl_service_get(s, k->key);
		if (st && !json_equal(st->value, seen->value))
			return;
		/* under data-parallel attention the text's TP may be the GPUs
		 * (claim_is_dp_attention_width): which number it meant is not
		 * certain */
		const sl_setting *dp = sl_service_get(s, "parallel.data"), *ep = sl_service_get(s, "parallel.expert_enabled");
		if (!strcmp(k->key, "parallel.tensor") && dp && ep && json_is_true(ep->value) &&
		    (!json_is_integer(dp->value) || json_integer_value(dp->value) > 1))
			return;
		/* a flag the engine does not know may be the key misspelled: what
		 * the command sets is then not certain */
		for (size_t j = 0; j < s->nsettings; j++)
			if (s->settings[j].flags & SL_SET_UNKNOWN)
				return;
	}
	for (size_t c = 0; c < m->nclaims; c++)
		if (&m->claims[c] != k && m->claims[c].origin.src == k->origin.src &&
		    m->claims[c].origin.off == k->origin.off)
			return;
	char want[32], to[32];
	snprintf(want, sizeof want, "%lld", (long long)json_integer_value(k->value));
	snprintf(to, sizeof to, "%lld", (long long)json_integer_value(seen->value));
	size_t n = strlen(want), at = 0, hits = 0;
	for (const char *p = k->text; *p; p++) {
		if (!isdigit((unsigned char)*p) || (p > k->text && isdigit((unsigned char)p[-1])))
			continue;
		size_t run = strspn(p, "0123456789");
		if (run == n && !strncmp(p, want, n)) {
			at = (size_t)(p - k->text);
			hits++;
		}
	}
	if (hits != 1)
		return;
	size_t tl = strlen(k->text);
	const sl_source *src = k->origin.src;
	/* the claim's words are where the claim is (not a value an expansion wrote) */
	if (k->origin.off > src->len || tl > src->len - k->origin.off || memcmp(src->text + k->origin.off, k->text, tl))
		return;
	char what[256];
	snprintf(what, sizeof what, "replace \"%s\" with \"%.*s%s%s\" (what the command sets)", k->text, (int)at,
		 k->text, to, k->text + at + n);
	sl_finding_fix(f, FIX_CLAIM_VALUE, src, k->origin.off + at, want, n, to, what);
}

/* The sizes of parallelism a text names loosely: its "TP" is often the
 * GPU count, tensor x data parallel, where attention runs data-parallel. */
static const char *const parallel_sizes[] = {"parallel.tensor", "parallel.data", "parallel.expert"};

static int is_parallel_size(const char *key)
{
	for (size_t i = 0; i < sizeof parallel_sizes / sizeof *parallel_sizes; i++)
		if (!strcmp(key, parallel_sizes[i]))
			return 1;
	return 0;
}

/* 1 when a claim of one parallel size cannot be read against s: another of
 * its sizes is one the script does not know (`--tensor-parallel-size 1
 * --data-parallel-size "$TP"` under a header "TP=4": the text's TP may be
 * the GPUs, TP x DP, and DP is not known) */
static int parallelism_unknown(const sl_service *s, const char *key)
{
	if (!is_parallel_size(key))
		return 0;
	for (size_t i = 0; i < sizeof parallel_sizes / sizeof *parallel_sizes; i++) {
		const sl_setting *o = strcmp(key, parallel_sizes[i]) ? sl_service_get(s, parallel_sizes[i]) : NULL;
		if (o && (o->flags & SL_SET_SYMBOLIC))
			return 1;
	}
	return 0;
}

/* A tensor-parallel claim that is the GPUs of data-parallel attention:
 * vLLM's `--tensor-parallel-size 1 --data-parallel-size 4
 * --enable-expert-parallel` runs attention on 4 data-parallel ranks and
 * the experts across all 4 (FusedMoEParallelConfig.make: the experts'
 * ranks are data x tensor parallel, "There are 2 engine instances and the
 * experts are split between the 4 devices", vllm/model_executor/layers/
 * fused_moe/config.py, vllm-project/vllm 5ac26849), which a header calls
 * "TP4". SGLang's --enable-dp-attention and TensorRT-LLM's
 * enable_attention_dp keep the tensor-parallel size the whole width: the
 * claim is the setting there. */
static int claim_is_dp_attention_width(const sl_service *s, const sl_claim *k, const sl_setting *tp)
{
	const sl_setting *dp = sl_service_get(s, "parallel.data"), *ep = sl_service_get(s, "parallel.expert_enabled");
	if (strcmp(k->key, "parallel.tensor") || !dp || !ep || !json_is_true(ep->value) || !json_is_integer(dp->value) ||
	    !json_is_integer(tp->value) || !json_is_integer(k->value) || json_integer_value(dp->value) < 2)
		return 0;
	return json_integer_value(tp->value) * json_integer_value(dp->value) == json_integer_value(k->value);
}

/* Holds one claim to the settings of the services it speaks of (its role,
 * or every worker); one that agrees is enough, and a claim about a setting
 * no service has, or only with a value the script does not know ($TP, unless
 * --set binds it), is not checked; nor a claim of a parallel size where
 * another size is not known (parallelism_unknown). */
void sl_check_hold_claim(const sl_rule *r, const sl_model *m, const sl_claim *k, sl_findings *out)
{
	const sl_setting *seen = NULL;
	int agrees = 0;
	for (size_t i = 0; i < m->nservices && !agrees; i++) {
		const sl_service *s = &m->services[i];
		if (k->role ? strcmp(s->role, k->role) : !sl_check_is_worker(s->role))
			continue;
		const sl_setting *st = sl_service_get(s, k->key);
		/* a value the script does not know ($TP) cannot be held to the text */
		if (!st || (st->flags & SL_SET_SYMBOLIC) || parallelism_unknown(s, k->key))
			continue;
		seen = seen ? seen : st;
		agrees = sl_check_same_value(st->value, k->value) || claim_is_dp_attention_width(s, k, st);
	}
	if (!seen || agrees)
		return;
	char *cv = sl_finding_value_text(k->value), *sv = sl_finding_value_text(seen->value);
	sl_finding *f = sl_finding_add(out, r, &k->origin, "%s: the %s says \"%s\" (%s), the command sets %s",
				       r->summary, k->from, k->text, cv, sv);
	free(f->where.raw);  /* the span is the claim's words */
	f->where.raw = sl_strdup(k->text);
	sl_finding_related(f, &seen->origin, "the setting");
	claim_fix(f, m, k, seen);
	free(cv);
	free(sv);
}

static void check_claim(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t c = 0; c < m->nclaims; c++)
		if (!strcmp(m->claims[c].key, r->keys[0]))
			sl_check_hold_claim(r, m, &m->claims[c], out);
}

/* FIX_CONTINUE_LINE: a backslash at n's origin that does not continue
 * its line because blanks follow it (they go), or continues onto empty
 * lines (they go, the next line's indentation stays). Only blanks are
 * taken: a carriage return (a CRLF file) is left for the reader. */
static void continue_fix(sl_finding *f, const sl_note *n)
{
	const sl_source *src = n->origin.src;
	const char *t = src->text;
	size_t b = n->origin.off, q = b + 1;
	if (b >= src->len || t[b] != '\\')
		return;
	if (!strcmp(n->kind, "blank_after_backslash")) {
		while (q < src->len && (t[q] == ' ' || t[q] == '\t'))
			q++;
		if (q == b + 1 || q >= src->len || t[q] != '\n')
			return;
		sl_finding_fix(f, FIX_CONTINUE_LINE, src, b + 1, t + b + 1, q - b - 1, "",
			       "delete the blanks after the backslash");
		return;
	}
	/* continuation_onto_empty_line: `\` newline, then lines of blanks */
	if (q >= src->len || t[q] != '\n')
		return;
	size_t from = q + 1, to = from, p = from;
	for (;;) {
		while (p < src->len && (t[p] == ' ' || t[p] == '\t'))
			p++;
		if (p >= src->len || t[p] != '\n')
			break;
		to = ++p;  /* a line of blanks, newline and all */
	}
	if (to == from || p >= src->len || t[p] == '\r')
		return;
	sl_finding_fix(f, FIX_CONTINUE_LINE, src, from, t + from, to - from, "",
		       "delete the empty lines after the backslash");
}

/* FIX_DELETE_IGNORED of a model_twice note (normalize's misplaced.c): the
 * --model at the note's place goes, only where the positional model is
 * known to win (vLLM's serve.py: SL_SET_WINS), so what runs is the same. */
static void ignored_fix(sl_finding *f, const sl_model *m, const sl_note *n)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		const sl_setting *flag = NULL, *pos = NULL;
		for (size_t k = 0; k < s->nsettings; k++) {
			const sl_setting *st = &s->settings[k];
			if (strcmp(st->key, "model"))
				continue;
			if (!strcmp(st->via, "flag") && st->origin.src == n->origin.src && st->origin.off == n->origin.off)
				flag = st;
			else if (!strcmp(st->via, "positional") && (st->flags & SL_SET_WINS))
				pos = st;
		}
		if (flag && pos) {
			sl_check_delete_setting(f, flag, FIX_DELETE_IGNORED, "delete `%s`, which the positional model overrides");
			return;
		}
	}
}

/* FIX_MOVE of a docker_engine_flag or mpirun_option_after_program note:
 * normalize (misplaced.c) says what moves and where to, when certain; the
 * argument goes as a repeat's deletion goes (with its blanks, or its line
 * whole), and is written again after the word that ends at move_to: on a
 * line of its own, indented as that word's line, where that word ends a
 * line continued from the one before (a command written one argument a
 * line), else after a blank. Both or neither: one fix. */
static void move_fix(sl_finding *f, const sl_note *n)
{
	const sl_source *src = n->origin.src;
	if (!n->move_len || !n->move_to || !src || n->origin.off > src->len || n->move_len > src->len - n->origin.off ||
	    n->move_to > src->len)
		return;
	const char *t = src->text;
	char *raw = sl_strndup(t + n->origin.off, n->move_len);
	size_t to = n->move_to, ls = to - 1;
	while (ls > 0 && t[ls - 1] != '\n')
		ls--;
	int ends_line = to == src->len || t[to] == '\n';
	int continued = ls >= 2 && t[ls - 1] == '\n' && t[ls - 2] == '\\';
	int docker = !strcmp(n->kind, "docker_engine_flag");
	sl_buf ins = {0};
	if (docker && ends_line && continued) {
		size_t ind = ls;
		while (ind < to && (t[ind] == ' ' || t[ind] == '\t'))
			ind++;
		sl_buf_puts(&ins, " \\\n");
		sl_buf_add(&ins, t + ls, ind - ls);
	} else {
		sl_buf_putc(&ins, ' ');
	}
	sl_buf_puts(&ins, raw);
	unsigned line, col;
	sl_source_pos(src, to, &line, &col);
	char what[512];
	if (docker)
		snprintf(what, sizeof what, "move `%.300s` after the engine's arguments (line %u)", raw, line);
	else
		snprintf(what, sizeof what, "move `%.300s` before the program, after `mpirun` (line %u)", raw, line);
	if (!sl_check_delete_span(f, src, n->origin.off, raw, FIX_MOVE, what))
		sl_finding_fix(f, FIX_MOVE, src, to, "", 0, ins.data, what);
	sl_buf_free(&ins);
	free(raw);
}

/* The reader's notes of the kinds the rule names, each a finding where the
 * structure breaks, in the reader's words. */
static void check_structure(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nnotes; i++) {
		const sl_note *n = &m->notes[i];
		if (!n->kind || !n->origin.src)
			continue;
		for (size_t k = 0; k < r->nkeys; k++)
			if (!strcmp(n->kind, r->keys[k])) {
				sl_finding *f = sl_finding_add(out, r, &n->origin, "%s: %s", r->summary, n->msg);
				if (r->fix == FIX_CONTINUE_LINE)
					continue_fix(f, n);
				else if (r->fix == FIX_DELETE_IGNORED)
					ignored_fix(f, m, n);
				else if (r->fix == FIX_MOVE)
					move_fix(f, n);
				break;
			}
	}
}

void sl_check_vocabulary(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	switch (r->kind) {
	case K_EQUAL: check_equal(r, m, out); break;
	case K_FRONTEND: check_frontend(r, m, out); break;
	case K_RANGE: check_range(r, m, out); break;
	case K_REQUIRES: check_requires(r, m, out); break;
	case K_CLAIM: check_claim(r, m, out); break;
	case K_CONFLICTS: check_conflicts(r, m, out); break;
	case K_STRUCTURE: check_structure(r, m, out); break;
	case K_C:
	case K_ENTRIES: break;  /* c_checks.c's and catalogue.c's */
	}
}
