/*
 * readings.c: the variants of a script, every combination of the
 * alternatives variants.c records, found by reading the script again through
 * the driver. It stands above driver.c (and so above the statement walk),
 * which is why it is not in variants.c, which the walk itself calls.
 */
#include "internal.h"

void sl_variants_free(sl_variant *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].choice);
		free(v[i].label);
		sl_script_free(v[i].script);
	}
	free(v);
}

/*
 * Every combination of alternatives, in order, like an odometer over the
 * undecided conditionals met: read with a choice vector, then advance the
 * last point that has an alternative left (points after it start again at
 * their first). A choice can lead to other conditionals (nested ones), which
 * is why each reading reports the points it met.
 */
int sl_shell_variants(const sl_source *src, const sl_shell_opts *base, sl_variant **out, size_t *n,
		      int *truncated, sl_error *err)
{
	*out = NULL;
	*n = 0;
	*truncated = 0;
	unsigned *choice = NULL;
	size_t nchoice = 0, cap = 0;
	for (;;) {
		sl_shell_opts o = {base ? base->binds : NULL, choice, nchoice, base ? base->fixed : NULL,
				   base ? base->nfixed : 0, base ? base->cache : NULL};
		sl_script *s;
		int rc = sl_shell_parse_with(src, &o, &s, err);
		if (rc) {
			free(choice);
			sl_variants_free(*out, *n);
			*out = NULL;
			*n = 0;
			return rc;
		}
		if (*n == SL_MAX_VARIANTS) {
			*truncated = 1;
			sl_script_free(s);
			break;
		}
		sl_variant v;
		v.nchoice = s->npoints;
		v.choice = sl_calloc(s->npoints + 1, sizeof *v.choice);
		for (size_t i = 0; i < s->npoints; i++)
			v.choice[i] = s->points[i].taken;
		v.label = sl_script_variant_label(s);
		v.script = s; /* kept: read from here on, freed with the variants */
		sl_grow((void **)out, &cap, *n + 1, sizeof **out);
		(*out)[(*n)++] = v;
		/* advance */
		size_t i = s->npoints;
		while (i > 0 && s->points[i - 1].taken + 1 >= s->points[i - 1].n)
			i--;
		if (i == 0)
			break;
		free(choice);
		choice = sl_calloc(i, sizeof *choice);
		for (size_t k = 0; k + 1 < i; k++)
			choice[k] = s->points[k].taken;
		choice[i - 1] = s->points[i - 1].taken + 1;
		nchoice = i;
	}
	free(choice);
	return SL_OK;
}
