/*
 * rules.c: loading rules: the rule files (rules/, embedded at build time, or
 * $SERVELINT_RULES) into sl_rule structs, their fields, and severities.
 * Uses no other file of the check stage: it is the bottom, which every
 * other file reads (rules.h).
 *
 * What a rule file's check can say (rules/README.md):
 *   equal_across_roles: KEY        prefill and decode must agree on KEY (through
 *                                  the engine's default where one leaves it unset;
 *                                  {keys, direction: decode_below}: only decode's
 *                                  number below prefill's is a finding)
 *   equal_frontend_workers: KEY    the frontend and every worker agree on KEY
 *                                  ({keys, some_worker: true}: one worker is enough)
 *   in_range: {keys, min, max, min_exclusive, max_exclusive}
 *   requires: {key, needs}         KEY set (and true) needs NEEDS set
 *   conflicts: {key, with}         KEY and WITH are not both set
 *   claim_matches: KEY             a claim about KEY must match the setting
 *   structure: KIND or [KINDS]     the script's structure changes what runs:
 *                                  a note of that kind (the model's sl_structure_kinds)
 *   equal_across_entries: KEY      entries of one model agree (catalogue.c)
 *   c: NAME                        a check written in C (c_checks.c, catalogue.c)
 * The loader knows every NAME a check may have, so that a rule naming a
 * check that does not exist fails when it is loaded, not when it runs.
 */
#include "rules.h"

#include <stdlib.h>
#include <string.h>

#include "../parse/parse.h"


static const char *const sev_names[] = {"style", "info", "warning", "error"};

const char *sl_severity_name(sl_severity s)
{
	return sev_names[s];
}

int sl_severity_parse(const char *s, sl_severity *out)
{
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, sev_names[i])) {
			*out = (sl_severity)i;
			return 0;
		}
	return -1;
}

/* ---- loading --------------------------------------------------------------- */

static const char *scalar(const sl_yaml_node *n)
{
	return n && n->kind == SL_YAML_SCALAR ? n->value : NULL;
}

static char *dup_or_null(const char *s)
{
	return s ? sl_strdup(s) : NULL;
}

static int rfail(sl_error *err, const sl_source *src, const sl_yaml_node *n, const char *msg)
{
	sl_error_set(err, src->path, n ? n->line + src->line_base : 0, n ? n->col : 0, "rule: %s", msg);
	return SL_ERR_INPUT;
}

static void push_key(sl_rule *r, const char *k)
{
	size_t cap = r->nkeys;
	SL_PUSH(r->keys, r->nkeys, cap, sl_strdup(k));
}

/* The C checks of the catalogue (catalogue.c runs them): a rule file may
 * name them as it names those of one entry (c_checks.c). */
static int catalogue_c_known(const char *name)
{
	return !strcmp(name, "duplicate_entries") || !strcmp(name, "metadata_command") ||
	       !strcmp(name, "engine_version_names");
}

/* The fix kinds, what each does (`servelint rules ID`; lines of at most
 * 72 columns), and the checks
 * that make it (a check or a C check's name): a kind that the rule's check
 * cannot make is refused, so a rule never claims a fix it has not. */
static const struct {
	const char *name, *doc, *checks;
	fix_kind kind;
} fix_kinds[] = {
	{"spelling",
	 "the spelling becomes the one meant: the only close known spelling\n"
	 "(did you mean), or the flag the engine's own source names as a removed\n"
	 "or deprecated flag's replacement, when it is the same flag renamed",
	 " unknown_flag value_choice deprecated_flag ", FIX_SPELLING},
	{"delete_repeat", "the repeated flag and its value go; the first one stays", " duplicate_same ",
	 FIX_DELETE_REPEAT},
	{"claim_value", "the number the text states becomes the one the command sets", " claim_matches claims_flags ",
	 FIX_CLAIM_VALUE},
	{"continue_line",
	 "the blanks after the line's last backslash, or the empty lines it\n"
	 "continues onto, go: the command continues onto its next line as its\n"
	 "indentation says it meant to",
	 " structure ", FIX_CONTINUE_LINE},
	{"delete_stray", "the stray `true` (1, yes, on) after a switch goes: the switch alone is on",
	 " stray_value ", FIX_DELETE_STRAY},
	{"delete_ignored",
	 "the setting the engine ignores goes (vLLM's --model beside the\n"
	 "positional model, which wins): what runs stays the same",
	 " structure ", FIX_DELETE_IGNORED},
	{"move",
	 "the misplaced argument and its value move where the program that\n"
	 "reads them takes them: an engine flag written before the image to\n"
	 "the end of the engine's arguments, an mpirun option written after the\n"
	 "program to just after `mpirun`",
	 " structure ", FIX_MOVE},
};

/* The structure notes move corrects (normalize's misplaced.c, which says
 * where their argument goes). */
static int move_kind(const sl_yaml_node *v)
{
	const char *k = scalar(v);
	return k && (!strcmp(k, "docker_engine_flag") || !strcmp(k, "mpirun_option_after_program"));
}

/* The structure notes continue_line corrects (the shell reader's, in
 * parse/shell/command.c). */
static int continue_kind(const sl_yaml_node *v)
{
	if (scalar(v))
		return !strcmp(scalar(v), "blank_after_backslash") || !strcmp(scalar(v), "continuation_onto_empty_line");
	for (size_t i = 0; v->kind == SL_YAML_SEQ && i < v->n; i++)
		if (!continue_kind(v->items[i]))
			return 0;
	return v->kind == SL_YAML_SEQ && v->n;
}

static int fix_of(const sl_source *src, const sl_yaml_node *fx, sl_rule *r, const sl_yaml_node *chk,
		  sl_error *err)
{
	const char *name = scalar(fx);
	const char *check = chk->n == 1 && chk->keys[0]->value ? chk->keys[0]->value : "";
	const char *c = !strcmp(check, "c") ? scalar(chk->items[0]) : check;
	for (size_t i = 0; name && i < sizeof fix_kinds / sizeof *fix_kinds; i++) {
		if (strcmp(name, fix_kinds[i].name))
			continue;
		char word[80];
		snprintf(word, sizeof word, " %s ", c ? c : "");
		if (!strstr(fix_kinds[i].checks, word) ||
		    (fix_kinds[i].kind == FIX_CONTINUE_LINE && !continue_kind(chk->items[0])) ||
		    (fix_kinds[i].kind == FIX_DELETE_IGNORED &&
		     !(scalar(chk->items[0]) && !strcmp(scalar(chk->items[0]), "model_twice"))) ||
		    (fix_kinds[i].kind == FIX_MOVE && !move_kind(chk->items[0])))
			return rfail(err, src, fx, "this check makes no fix of that kind");
		r->fix = fix_kinds[i].kind;
		return SL_OK;
	}
	return rfail(err, src, fx, "fix is one of spelling, delete_repeat, claim_value, continue_line, delete_stray, delete_ignored, move");
}

const char *sl_rule_fix(const sl_rule *r)
{
	for (size_t i = 0; i < sizeof fix_kinds / sizeof *fix_kinds; i++)
		if (r->fix == fix_kinds[i].kind)
			return fix_kinds[i].name;
	return NULL;
}

int sl_rule_advisory(const sl_rule *r)
{
	return r->advisory;
}

const char *sl_rule_fix_doc(const sl_rule *r)
{
	for (size_t i = 0; i < sizeof fix_kinds / sizeof *fix_kinds; i++)
		if (r->fix == fix_kinds[i].kind)
			return fix_kinds[i].doc;
	return NULL;
}

static int load_rule(const sl_source *src, sl_rule *r, sl_error *err)
{
	sl_yaml_doc *d;
	int rc = sl_yaml_load(src, &d, err);
	if (rc)
		return rc;
	const sl_yaml_node *n = d->root;
	memset(r, 0, sizeof *r);
	const char *id = scalar(sl_yaml_get(n, "id")), *sev = scalar(sl_yaml_get(n, "severity"));
	const sl_yaml_node *chk = sl_yaml_get(n, "check");
	if (!id || !sev || !chk || chk->kind != SL_YAML_MAP || chk->n != 1) {
		rc = rfail(err, src, n, "needs id, severity and one check");
		goto out;
	}
	r->id = sl_strdup(id);
	r->name = dup_or_null(scalar(sl_yaml_get(n, "name")));
	r->summary = dup_or_null(scalar(sl_yaml_get(n, "summary")));
	r->explanation = dup_or_null(scalar(sl_yaml_get(n, "explanation")));
	r->bad = dup_or_null(scalar(sl_yaml_get(n, "bad")));
	r->good = dup_or_null(scalar(sl_yaml_get(n, "good")));
	if (sl_severity_parse(sev, &r->severity)) {
		rc = rfail(err, src, sl_yaml_get(n, "severity"), "severity is one of error, warning, info, style");
		goto out;
	}
	if (!r->name || !r->summary || !r->explanation || !r->bad || !r->good) {
		rc = rfail(err, src, n, "needs name, summary, explanation, bad and good");
		goto out;
	}
	const sl_yaml_node *adv = sl_yaml_get(n, "advisory");
	if (adv && (!scalar(adv) || (strcmp(scalar(adv), "true") && strcmp(scalar(adv), "false")))) {
		rc = rfail(err, src, adv, "advisory is true or false");
		goto out;
	}
	r->advisory = adv && !strcmp(scalar(adv), "true");
	const sl_yaml_node *fx = sl_yaml_get(n, "fix");
	if (fx && (rc = fix_of(src, fx, r, chk, err)))
		goto out;
	const char *k = chk->keys[0]->value;
	const sl_yaml_node *v = chk->items[0];
	if ((!strcmp(k, "equal_across_roles") || !strcmp(k, "equal_frontend_workers")) &&
	    (scalar(v) || (v->kind == SL_YAML_SEQ && v->n) || sl_yaml_get(v, "keys"))) {
		/* one key, or several that mean the same for different engines;
		 * or {keys, unless: [values that compose others]} */
		r->kind = !strcmp(k, "equal_across_roles") ? K_EQUAL : K_FRONTEND;
		const sl_yaml_node *ks = v->kind == SL_YAML_MAP ? sl_yaml_get(v, "keys") : v;
		if (scalar(ks))
			push_key(r, scalar(ks));
		for (size_t i = 0; ks->kind == SL_YAML_SEQ && i < ks->n; i++)
			if (scalar(ks->items[i]))
				push_key(r, scalar(ks->items[i]));
		const sl_yaml_node *un = v->kind == SL_YAML_MAP ? sl_yaml_get(v, "unless") : NULL;
		size_t ucap = 0;
		for (size_t i = 0; un && un->kind == SL_YAML_SEQ && i < un->n; i++)
			if (scalar(un->items[i]))
				SL_PUSH(r->unless, r->nunless, ucap, sl_strdup(scalar(un->items[i])));
		const sl_yaml_node *ue = v->kind == SL_YAML_MAP ? sl_yaml_get(v, "unless_engines") : NULL;
		size_t ecap = 0;
		for (size_t i = 0; ue && ue->kind == SL_YAML_SEQ && i < ue->n; i++)
			if (scalar(ue->items[i]))
				SL_PUSH(r->unless_engines, r->nunless_engines, ecap, sl_strdup(scalar(ue->items[i])));
		const char *sw = v->kind == SL_YAML_MAP ? scalar(sl_yaml_get(v, "some_worker")) : NULL;
		r->some_worker = sw && !strcmp(sw, "true");
		/* direction: the one way round a difference of numbers is a finding */
		const sl_yaml_node *dn = v->kind == SL_YAML_MAP ? sl_yaml_get(v, "direction") : NULL;
		const char *dir = dn ? scalar(dn) : NULL;
		r->direction = !dir ? DIR_ANY : !strcmp(dir, "decode_below") ? DIR_DECODE_BELOW
			       : !strcmp(dir, "prefill_below") ? DIR_PREFILL_BELOW : -1;
		if (dn && (r->direction < 0 || r->kind != K_EQUAL))
			rc = rfail(err, src, dn, "direction (equal_across_roles only) is decode_below or prefill_below");
		else if (!r->nkeys || (un && !r->nunless) || (ue && (!r->nunless_engines || r->kind != K_EQUAL)))
			rc = rfail(err, src, v, "equal_across_roles needs a key; unless, a list of values; unless_engines (equal_across_roles only), a list of engines");
	} else if (!strcmp(k, "equal_across_entries") &&
		   (scalar(v) || (v->kind == SL_YAML_SEQ && v->n) || sl_yaml_get(v, "keys"))) {
		/* entries of one model (and engine, unless across_engines) must agree */
		r->kind = K_ENTRIES;
		r->catalogue = 1;
		const sl_yaml_node *ks = v->kind == SL_YAML_MAP ? sl_yaml_get(v, "keys") : v;
		if (scalar(ks))
			push_key(r, scalar(ks));
		for (size_t i = 0; ks->kind == SL_YAML_SEQ && i < ks->n; i++)
			if (scalar(ks->items[i]))
				push_key(r, scalar(ks->items[i]));
		const char *ae = v->kind == SL_YAML_MAP ? scalar(sl_yaml_get(v, "across_engines")) : NULL;
		r->across_engines = ae && !strcmp(ae, "true");
		if (!r->nkeys)
			rc = rfail(err, src, v, "equal_across_entries needs a key");
	} else if (!strcmp(k, "structure") && (scalar(v) || (v->kind == SL_YAML_SEQ && v->n))) {
		r->kind = K_STRUCTURE;
		if (scalar(v))
			push_key(r, scalar(v));
		for (size_t i = 0; v->kind == SL_YAML_SEQ && i < v->n; i++)
			if (scalar(v->items[i]))
				push_key(r, scalar(v->items[i]));
		for (size_t i = 0; i < r->nkeys && !rc; i++)
			if (!sl_structure_kind(r->keys[i]))
				rc = rfail(err, src, v, "no structure of that kind is read (see sl_structure_kinds)");
		if (!r->nkeys)
			rc = rfail(err, src, v, "structure needs a kind");
	} else if (!strcmp(k, "claim_matches") && scalar(v)) {
		r->kind = K_CLAIM;
		push_key(r, scalar(v));
	} else if (!strcmp(k, "c") && scalar(v)) {
		static const char *const known[] = {"unknown_flag", "duplicate_conflict", "duplicate_same",
						    "gpus_visible", "kv_roles", "numa_nodes", "gpus_total",
						    "capture_sizes", "graph_batch_sizes", "batched_tokens",
						    "eagle_draft_tokens", "claims_topology", "flag_version",
						    "invalid_json", "claims_flags", "unreadable", "unknown_suppression",
						    /* the plan's (plan_rules.c) */
						    "tp_heads", "ep_experts", "gpus_node", "tp_domain", "weights_memory",
						    "kv_one_request", "max_len_positions", "precision_native", "devices_node", "mtp_layers",
						    /* the engines' generated facts (fact_checks.c) */
						    "value_choice", "value_type", "stray_value", "deprecated_flag",
						    /* services against each other (deploy_checks.c) */
						    "port_collision", "gpu_overlap", "kv_router_events",
						    /* derived limits and claims (derived_checks.c) */
						    "batched_tokens_model_len", "capture_beyond_tokens", "claim_spec_method",
						    "claim_precision", "tokens_draft_batch", "claim_router_mode", "running_below_claim",
						    "eagle_draft_tree",
						    /* what could not be checked (coverage_checks.c) */
						    "value_not_known"};
		r->kind = K_C;
		r->cname = sl_strdup(scalar(v));
		r->catalogue = catalogue_c_known(r->cname);
		int ok = r->catalogue;
		for (size_t i = 0; i < sizeof known / sizeof *known; i++)
			ok |= !strcmp(known[i], r->cname);
		if (!ok)
			rc = rfail(err, src, v, "no check by that name is written in C");
	} else if (!strcmp(k, "requires") && scalar(sl_yaml_get(v, "key")) && scalar(sl_yaml_get(v, "needs"))) {
		r->kind = K_REQUIRES;
		push_key(r, scalar(sl_yaml_get(v, "key")));
		push_key(r, scalar(sl_yaml_get(v, "needs")));
	} else if (!strcmp(k, "conflicts") && scalar(sl_yaml_get(v, "key")) && scalar(sl_yaml_get(v, "with"))) {
		r->kind = K_CONFLICTS;
		push_key(r, scalar(sl_yaml_get(v, "key")));
		push_key(r, scalar(sl_yaml_get(v, "with")));
	} else if (!strcmp(k, "in_range") && sl_yaml_get(v, "keys")) {
		r->kind = K_RANGE;
		const sl_yaml_node *ks = sl_yaml_get(v, "keys");
		for (size_t i = 0; ks->kind == SL_YAML_SEQ && i < ks->n; i++)
			if (scalar(ks->items[i]))
				push_key(r, scalar(ks->items[i]));
		const char *mn = scalar(sl_yaml_get(v, "min")), *mx = scalar(sl_yaml_get(v, "max"));
		r->has_min = mn && !sl_parse_double(mn, &r->min);
		r->has_max = mx && !sl_parse_double(mx, &r->max);
		const char *e1 = scalar(sl_yaml_get(v, "min_exclusive"));
		const char *e2 = scalar(sl_yaml_get(v, "max_exclusive"));
		r->min_excl = e1 && !strcmp(e1, "true");
		r->max_excl = e2 && !strcmp(e2, "true");
		if (!r->nkeys || (!r->has_min && !r->has_max))
			rc = rfail(err, src, v, "in_range needs keys and a min or max");
	} else {
		rc = rfail(err, src, chk,
			   "unknown check (equal_across_roles, equal_frontend_workers, equal_across_entries, in_range, requires, conflicts, "
			   "claim_matches, structure, c)");
	}
out:
	sl_yaml_free(d);
	return rc;
}

static void rule_free(sl_rule *r)
{
	free(r->id);
	free(r->name);
	free(r->summary);
	free(r->explanation);
	free(r->bad);
	free(r->good);
	for (size_t i = 0; i < r->nkeys; i++)
		free(r->keys[i]);
	free(r->keys);
	for (size_t i = 0; i < r->nunless; i++)
		free(r->unless[i]);
	free(r->unless);
	for (size_t i = 0; i < r->nunless_engines; i++)
		free(r->unless_engines[i]);
	free(r->unless_engines);
	free(r->cname);
}

static int add_rule(sl_rules *rs, const char *path, const char *text, size_t len, sl_error *err)
{
	sl_source *src;
	int rc = sl_source_from_memory(path, text, len, &src, err);
	if (rc)
		return rc;
	sl_rule r;
	rc = load_rule(src, &r, err);
	sl_source_free(src);
	if (rc) {
		rule_free(&r);
		return rc;
	}
	if (sl_rules_find(rs, r.id)) {
		sl_error_set(err, path, 1, 1, "rule: id %s is used twice", r.id);
		rule_free(&r);
		return SL_ERR_INPUT;
	}
	size_t cap = rs->n;
	SL_PUSH(rs->v, rs->n, cap, r);
	return SL_OK;
}

static int cmp_rule(const void *a, const void *b)
{
	return strcmp(((const sl_rule *)a)->id, ((const sl_rule *)b)->id);
}

int sl_rules_load(sl_rules **out, sl_error *err)
{
	const char *dir = getenv("SERVELINT_RULES");
	if (!dir || !*dir) {
		/* the table made at build time (cmake/data_ready.c), read only */
		sl_rules_builtin_ready();
		*out = &sl_rules_builtin;
		return SL_OK;
	}
	sl_rules *rs = sl_calloc(1, sizeof *rs);
	int rc = SL_OK;
	char **names = NULL;
	size_t n = 0;
	if (sl_dir_names(dir, ".yaml", &names, &n)) {
		sl_error_set(err, dir, 0, 0, "SERVELINT_RULES: cannot open folder");
		rc = SL_ERR_IO;
	}
	for (size_t i = 0; i < n; i++) {
		sl_buf p = {0};
		sl_buf_printf(&p, "%s/%s", dir, names[i]);
		char *text;
		size_t len;
		if (rc == SL_OK && (rc = sl_read_file(p.data, 1 << 20, &text, &len, err)) == SL_OK) {
			rc = add_rule(rs, p.data, text, len, err);
			free(text);
		}
		sl_buf_free(&p);
		free(names[i]);
	}
	free(names);
	if (rc) {
		sl_rules_free(rs);
		return rc;
	}
	if (rs->n)
		qsort(rs->v, rs->n, sizeof *rs->v, cmp_rule);
	*out = rs;
	return SL_OK;
}

void sl_rules_free(sl_rules *rs)
{
	if (!rs || rs == &sl_rules_builtin)
		return;
	for (size_t i = 0; i < rs->n; i++)
		rule_free(&rs->v[i]);
	free(rs->v);
	free(rs);
}

size_t sl_rules_count(const sl_rules *r) { return r->n; }
const sl_rule *sl_rules_at(const sl_rules *r, size_t i) { return i < r->n ? &r->v[i] : NULL; }
const char *sl_rule_id(const sl_rule *r) { return r->id; }
const char *sl_rule_name(const sl_rule *r) { return r->name; }
sl_severity sl_rule_severity(const sl_rule *r) { return r->severity; }
const char *sl_rule_summary(const sl_rule *r) { return r->summary; }
const char *sl_rule_explanation(const sl_rule *r) { return r->explanation; }
const char *sl_rule_bad(const sl_rule *r) { return r->bad; }
const char *sl_rule_good(const sl_rule *r) { return r->good; }

const sl_rule *sl_rules_find(const sl_rules *r, const char *id)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].id, id))
			return &r->v[i];
	return NULL;
}

int sl_rule_is_catalogue(const sl_rule *r)
{
	return r->catalogue;
}
