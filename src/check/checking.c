/*
 * checking.c (check): one entry checked as check and audit check it: every
 * variant of its script (the entry stage's sl_entry_models), findings of
 * some variants only named so, the entry's disable comments and the
 * project's .servelint.yaml (read by the entry stage) applied; and the
 * grammars and rules loaded together for the commands that check.
 */
#include "check.h"
#include "findings.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The same place in two variants: a file a here-document writes is a
 * source of each variant's own (its offsets may shift where an earlier
 * line expands differently), so it is compared by file, section, line
 * and column. */
static int same_place(const sl_origin *a, const sl_origin *b)
{
	if (a->src == b->src)
		return a->off == b->off;
	if (!a->src || !b->src || strcmp(a->src->path, b->src->path) || a->src->line_base != b->src->line_base ||
	    !a->src->section != !b->src->section ||
	    (a->src->section && strcmp(a->src->section, b->src->section)))
		return 0;
	unsigned la, ca, lb, cb;
	sl_source_pos(a->src, a->off, &la, &ca);
	sl_source_pos(b->src, b->off, &lb, &cb);
	return la == lb && ca == cb;
}

/* Whether two variants' findings make the same edits. */
static int same_fix(const sl_finding *a, const sl_finding *b)
{
	if (a->nedits != b->nedits || !a->fix != !b->fix)
		return 0;
	for (size_t i = 0; i < a->nedits; i++) {
		const sl_edit *x = &a->edits[i], *y = &b->edits[i];
		if (strcmp(x->src->path, y->src->path) || x->off != y->off || x->len != y->len || strcmp(x->text, y->text))
			return 0;
	}
	return 1;
}

/* The findings [from, n) of variant k of an entry whose findings start
 * at first: one already found for an earlier variant is dropped (its bit
 * set in that one's mask); masks[i - first] tells the variants of each. */
static void variant_merge(sl_findings *fs, size_t first, size_t from, unsigned k, uint64_t **masks,
			  size_t *mcap)
{
	size_t keep = from;
	for (size_t i = from; i < fs->n; i++) {
		sl_finding *f = &fs->v[i];
		size_t dup = (size_t)-1;
		for (size_t j = first; j < from && dup == (size_t)-1; j++) {
			const sl_finding *g = &fs->v[j];
			/* an advisory rule's (SL0004: the settings not checked of a
			 * service) is one per place whatever the variant: the one
			 * that names the most stands for all, so 57 variants are
			 * not 57 notes of the same service */
			if (g->rule == f->rule && same_place(&g->where, &f->where) &&
			    (!strcmp(f->message, g->message) || f->rule->advisory))
				dup = j;
		}
		if (dup != (size_t)-1) {
			(*masks)[dup - first] |= (uint64_t)1 << k;
			if (f->rule->advisory &&
			    f->unchecked + f->unread_files > fs->v[dup].unchecked + fs->v[dup].unread_files) {
				sl_finding t = fs->v[dup];
				fs->v[dup] = *f;
				*f = t;
			}
			/* a move is certain in one variant and not in another (the
			 * engine given the flag already in one): not certain */
			if (fs->v[dup].fix && f->rule->fix == FIX_MOVE && !same_fix(&fs->v[dup], f))
				sl_finding_fix_drop(&fs->v[dup]);
			/* freed through a one-finding list of its own */
			sl_findings one = {sl_malloc(sizeof *f), 1, 1};
			one.v[0] = *f;
			sl_findings_free(&one);
			continue;
		}
		sl_grow((void **)masks, mcap, keep - first + 1, sizeof **masks);
		(*masks)[keep - first] = (uint64_t)1 << k;
		fs->v[keep++] = *f;
	}
	fs->n = keep;
}

/* A finding that holds in some variants only says which. */
static void variant_tags(sl_findings *fs, size_t first, const uint64_t *masks, sl_model *const *vm,
			 size_t nvm)
{
	uint64_t all = nvm >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << nvm) - 1);
	for (size_t i = first; i < fs->n; i++) {
		uint64_t m = masks[i - first];
		if (m == all)
			continue;
		/* a claim right in one variant may be wrong in another: its fix
		 * is no longer certain; a spelling is the same in every one */
		if (fs->v[i].fix && sl_rule_fix(fs->v[i].rule) && !strcmp(sl_rule_fix(fs->v[i].rule), "claim_value"))
			sl_finding_fix_drop(&fs->v[i]);
		sl_buf b = {0};
		sl_buf_printf(&b, "%s [", fs->v[i].message);
		size_t cnt = 0, one = 0;
		for (size_t k = 0; k < nvm && k < 64; k++)
			if (m & ((uint64_t)1 << k))
				cnt++, one = k;
		if (cnt == 1) {
			sl_buf_printf(&b, "variant %zu of %zu: %s]", one + 1, nvm, vm[one]->variant);
		} else {
			sl_buf_puts(&b, "variants");
			const char *sep = " ";
			for (size_t k = 0; k < nvm && k < 64; k++)
				if (m & ((uint64_t)1 << k)) {
					sl_buf_printf(&b, "%s%zu", sep, k + 1);
					sep = ", ";
				}
			sl_buf_printf(&b, " of %zu]", nvm);
		}
		free(fs->v[i].message);
		fs->v[i].message = sl_buf_detach(&b);
	}
}

/* disable: [IDs] -> suppressed; severity: {ID: level} -> changed */
void sl_check_config_apply(const sl_entry_config *cfg, sl_findings *fs, size_t first)
{
	if (!cfg->doc || !cfg->doc->root)
		return;
	const sl_yaml_node *dis = sl_yaml_get(cfg->doc->root, "disable");
	const sl_yaml_node *sev = sl_yaml_get(cfg->doc->root, "severity");
	for (size_t i = first; i < fs->n; i++) {
		sl_finding *f = &fs->v[i];
		if (!f->suppressed && sl_entry_config_listed(dis, sl_rule_id(f->rule), 0)) {
			f->suppressed = 1;
			f->justification = sl_strdup("disabled in .servelint.yaml");
		}
		const sl_yaml_node *lv = sl_yaml_get(sev, sl_rule_id(f->rule));
		sl_severity s;
		if (lv && lv->kind == SL_YAML_SCALAR && !sl_severity_parse(lv->value, &s))
			f->severity = s;
	}
}


int sl_check_config_validate(const sl_rules *rules, const sl_entry_config *cfg, sl_error *err)
{
	if (!cfg->doc || !cfg->doc->root)
		return SL_OK;
	const char *file = cfg->src->path;
	const sl_yaml_node *dis = sl_yaml_get(cfg->doc->root, "disable");
	const sl_yaml_node *sev = sl_yaml_get(cfg->doc->root, "severity");
	for (size_t i = 0; dis && i < dis->n; i++)
		if (!sl_rules_find(rules, dis->items[i]->value)) {
			sl_error_set(err, file, dis->items[i]->line, dis->items[i]->col,
				     "disable: no rule `%s` (`servelint rules` lists them)", dis->items[i]->value);
			return SL_ERR_INPUT;
		}
	for (size_t i = 0; sev && i < sev->n; i++) {
		sl_severity s;
		if (!sl_rules_find(rules, sev->keys[i]->value)) {
			sl_error_set(err, file, sev->keys[i]->line, sev->keys[i]->col,
				     "severity: no rule `%s` (`servelint rules` lists them)", sev->keys[i]->value);
			return SL_ERR_INPUT;
		}
		if (sl_severity_parse(sev->items[i]->value, &s)) {
			sl_error_set(err, file, sev->items[i]->line, sev->items[i]->col,
				     "severity: `%s` is not a level (style, info, warning, error)",
				     sev->items[i]->value);
			return SL_ERR_INPUT;
		}
	}
	return SL_OK;
}

int sl_check_entry(sl_entry *entry, const sl_grammars *gs, const sl_rules *rules, const sl_binds *binds,
		   const sl_entry_config *cfg, sl_findings *fs, sl_model **model, sl_model ***extra, size_t *nextra,
		   size_t *xcap)
{
	sl_error err = {0};
	int failed = 0;
	*model = NULL;
	size_t first = fs->n;
	sl_model **vm = NULL;
	size_t nvm = 0;
	if (sl_entry_models_lenient(entry, gs, binds, 0, &vm, &nvm, &err)) {
		/* an entry that cannot be read is a finding (SL0001, or SL1004
		 * for a flag's invalid JSON), and for SL0001 an input error */
		int k = sl_check_input_error(rules, entry, &err, fs);
		if (!k)
			sl_error_print(&err, "servelint");
		failed = k != 1;
		sl_error_clear(&err);
	} else {
		/* every variant of the script is checked; a finding that holds
		 * in some variants only names them */
		uint64_t *masks = NULL;
		size_t mcap = 0;
		for (size_t k = 0; k < nvm; k++) {
			size_t from = fs->n;
			sl_check_model(rules, vm[k], NULL, fs);
			variant_merge(fs, first, from, (unsigned)k, &masks, &mcap);
		}
		if (nvm > 1)
			variant_tags(fs, first, masks, vm, nvm);
		free(masks);
		/* each variant's findings come sorted, but those of later
		 * variants only follow the first's: the entry's in order */
		sl_findings_sort(fs, first);
		*model = nvm ? vm[0] : NULL;
		for (size_t k = 1; k < nvm; k++)
			SL_PUSH(*extra, *nextra, *xcap, vm[k]);
		free(vm);
	}
	sl_fix_settle(entry, fs, first);
	sl_check_suppress(entry, fs, first);
	sl_check_config_apply(cfg, fs, first);
	for (size_t i = first; i < fs->n; i++)
		fs->v[i].entry = entry->path;
	return failed ? -1 : 0;
}

int sl_check_load_rules(sl_grammars **gs, sl_rules **rules)
{
	sl_error err = {0};
	*gs = NULL;
	*rules = NULL;
	if (!sl_normalize_grammars_load(gs, &err) && !sl_rules_load(rules, &err))
		return 0;
	sl_error_print(&err, "servelint");
	sl_error_clear(&err);
	sl_normalize_grammars_free(*gs);
	*gs = NULL;
	return -1;
}

int sl_check_drop_no_service(sl_findings *fs, size_t first, char **said)
{
	for (size_t i = first; i < fs->n; i++) {
		if (strcmp(sl_rule_id(fs->v[i].rule), "SL0001") || !strstr(fs->v[i].message, ": no service: "))
			continue;
		if (said) {
			const sl_finding *f = &fs->v[i];
			unsigned line = f->line, col = f->col;
			if (f->where.src)
				sl_origin_pos(&f->where, &line, &col);
			sl_buf b = {0};
			sl_buf_printf(&b, "%s:%u:%u: %s", f->where.src ? f->where.src->path : f->file ? f->file : "?",
				      line, col, f->message);
			*said = sl_buf_detach(&b);
		}
		sl_findings one = {sl_malloc(sizeof *fs->v), 1, 1};
		one.v[0] = fs->v[i];
		sl_findings_free(&one);
		memmove(&fs->v[i], &fs->v[i + 1], (fs->n - i - 1) * sizeof *fs->v);
		fs->n--;
		return 1;
	}
	return 0;
}
