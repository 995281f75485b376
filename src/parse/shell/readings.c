/*
 * readings.c: the variants of a script, found by reading it again through
 * the driver with the alternatives to follow at its undecided
 * conditionals (variants.c records them). It stands above driver.c (and so
 * above the statement walk), which is why it is not in variants.c, which
 * the walk itself calls.
 *
 * Every combination is read while there are at most SL_MAX_VARIANTS of
 * them. Past that, the decisions of real harnesses are mostly independent
 * settings (the model's path x the device variable x DP attention x the KV
 * offload backend x EP ...): their product is thousands of variants, and
 * reading its first 64 (an odometer) never varies the first decisions at
 * all. A covering set is read instead: every combination of alternatives
 * of any three decisions is in at least one reading (a covering array of
 * strength 3, made greedily, the same way each time). A finding that one
 * combination of up to three decisions shows (TP from one, DP from
 * another, the devices from a third: SL3001) is found; only one that needs
 * four or more at once at particular alternatives could be missed, and
 * the entry says so (entry/variants.c). Chosen over pairs (strength 2),
 * which the rules that combine three settings defeat, and over holding a
 * setting's alternatives in one model, which every rule would have to
 * learn to read; measured on the 16 real scripts that were at the limit
 * (InferenceX's harnesses, one of Dynamo's; docs/development.md): every
 * one read whole, in 6 to 48 variants (31 decisions in 51 readings).
 * Decisions met only under another's alternative are found as the
 * readings meet them: the set is made again with them, a few rounds.
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

static void keep(sl_script *s, sl_variant **out, size_t *n, size_t *cap)
{
	sl_variant v;
	v.nchoice = s->npoints;
	v.choice = sl_calloc(s->npoints + 1, sizeof *v.choice);
	for (size_t i = 0; i < s->npoints; i++)
		v.choice[i] = s->points[i].taken;
	v.label = sl_script_variant_label(s);
	v.script = s; /* kept: read from here on, freed with the variants */
	sl_grow((void **)out, cap, *n + 1, sizeof **out);
	(*out)[(*n)++] = v;
}

/* The decisions met so far: each conditional once, by place, with the
 * most alternatives it had. */
struct decision {
	uint32_t off;
	unsigned n;
};

static int add_decisions(const sl_script *s, struct decision **d, size_t *nd, size_t *cap)
{
	int grew = 0;
	for (size_t i = 0; i < s->npoints; i++) {
		size_t k = 0;
		while (k < *nd && (*d)[k].off != s->points[i].off)
			k++;
		if (k == *nd) {
			struct decision x = {s->points[i].off, s->points[i].n};
			SL_PUSH(*d, *nd, *cap, x);
			grew = 1;
		} else if (s->points[i].n > (*d)[k].n) {
			(*d)[k].n = s->points[i].n;
		}
	}
	return grew;
}

#define MAX_TUPLES (1u << 22)  /* combinations tracked per decision added, at most: past it, no covering */
#define DC 0xffffffffu           /* a row's decision not given yet: any alternative will do */

/* Whether row r can hold alternative v at decision f. */
static int fits(const unsigned *r, size_t f, unsigned v)
{
	return r[f] == DC || r[f] == v;
}

/*
 * A covering array of strength 3 over the decisions (k >= 3): rows of one
 * alternative per decision such that every combination of alternatives of
 * any three decisions is in one row. Made in parameter order (IPOG): the
 * decisions with the most alternatives first, every combination of the
 * first three, then each further decision is given, row by row, the
 * alternative that covers the most combinations with two earlier ones not
 * yet covered, and rows are added (or given their undecided places) for
 * the combinations left. Deterministic. At most max rows (*over set when
 * more were needed). NULL when the combinations are too many to track.
 * Caller frees the rows (k each).
 */
static unsigned *cover3(const struct decision *d, size_t k, size_t max, size_t *nrows, int *over)
{
	*nrows = 0;
	*over = 0;
	size_t *ord = sl_calloc(k, sizeof *ord);  /* the decisions, most alternatives first */
	for (size_t i = 0; i < k; i++) {
		size_t j = i;
		while (j > 0 && d[ord[j - 1]].n < d[i].n) {
			ord[j] = ord[j - 1];
			j--;
		}
		ord[j] = i;
	}
	unsigned *rows = NULL;
	size_t n = 0, cap = 0;
	/* every combination of the first three */
	size_t first = (size_t)d[ord[0]].n * d[ord[1]].n * d[ord[2]].n;
	for (size_t c = 0; c < first; c++) {
		sl_grow((void **)&rows, &cap, (n + 1) * k, sizeof *rows);
		unsigned *r = rows + n++ * k;
		for (size_t i = 0; i < k; i++)
			r[i] = DC;
		r[ord[2]] = (unsigned)(c % d[ord[2]].n);
		r[ord[1]] = (unsigned)(c / d[ord[2]].n % d[ord[1]].n);
		r[ord[0]] = (unsigned)(c / d[ord[2]].n / d[ord[1]].n);
	}
	unsigned char *cov = NULL;
	size_t *base = sl_calloc(k * k + 1, sizeof *base);
	int failed = 0;
	for (size_t p = 3; p < k && !failed; p++) {
		size_t f = ord[p];
		unsigned nf = d[f].n;
		/* the combinations of f with each pair of the decisions before it */
		size_t total = 0;
		for (size_t i = 0; i < p; i++)
			for (size_t j = i + 1; j < p; j++) {
				base[i * k + j] = total;
				total += (size_t)d[ord[i]].n * d[ord[j]].n * nf;
			}
		if (total > MAX_TUPLES) {
			failed = 1;
			break;
		}
		free(cov);
		cov = sl_calloc(total + 1, 1);
#define TUPLE(i, j, a, b, v) (base[(i) * k + (j)] + ((size_t)(a) * d[ord[j]].n + (b)) * nf + (v))
		/* horizontal: each row's alternative at f */
		for (size_t r = 0; r < n; r++) {
			unsigned *row = rows + r * k;
			unsigned best = 0;
			size_t best_gain = 0;
			for (unsigned v = 0; v < nf; v++) {
				size_t gain = 0;
				for (size_t i = 0; i < p; i++)
					for (size_t j = i + 1; j < p; j++) {
						unsigned a = row[ord[i]], b = row[ord[j]];
						gain += a != DC && b != DC && !cov[TUPLE(i, j, a, b, v)];
					}
				if (gain > best_gain) {
					best_gain = gain;
					best = v;
				}
			}
			row[f] = best;
			for (size_t i = 0; i < p; i++)
				for (size_t j = i + 1; j < p; j++) {
					unsigned a = row[ord[i]], b = row[ord[j]];
					if (a != DC && b != DC)
						cov[TUPLE(i, j, a, b, best)] = 1;
				}
		}
		/* vertical: the combinations left, each in a row that can hold
		 * it, else a new one */
		for (size_t i = 0; i < p && !failed; i++)
			for (size_t j = i + 1; j < p && !failed; j++)
				for (unsigned a = 0; a < d[ord[i]].n && !failed; a++)
					for (unsigned b = 0; b < d[ord[j]].n && !failed; b++)
						for (unsigned v = 0; v < nf; v++) {
							if (cov[TUPLE(i, j, a, b, v)])
								continue;
							size_t r = 0;
							while (r < n && !(fits(rows + r * k, ord[i], a) &&
									  fits(rows + r * k, ord[j], b) &&
									  fits(rows + r * k, f, v)))
								r++;
							if (r == n) {
								if (n == max) {
									*over = 1;
									failed = 1;
									break;
								}
								sl_grow((void **)&rows, &cap, (n + 1) * k, sizeof *rows);
								for (size_t q = 0; q < k; q++)
									rows[n * k + q] = DC;
								n++;
							}
							unsigned *row = rows + r * k;
							row[ord[i]] = a;
							row[ord[j]] = b;
							row[f] = v;
							/* what the row covers now with f */
							for (size_t x = 0; x < p; x++)
								for (size_t y = x + 1; y < p; y++) {
									unsigned xa = row[ord[x]], yb = row[ord[y]];
									if (xa != DC && yb != DC)
										cov[TUPLE(x, y, xa, yb, v)] = 1;
								}
						}
#undef TUPLE
	}
	free(cov);
	free(base);
	free(ord);
	if (failed && !*over) {
		free(rows);
		return NULL;
	}
	if (n > max) {
		*over = 1;
		n = max;
	}
	for (size_t i = 0; i < n * k; i++)
		if (rows[i] == DC)
			rows[i] = 0;
	*nrows = n;
	return rows;
}

/* Whether two readings followed the same alternatives at the same places. */
static int same_path(const sl_script *a, const sl_script *b)
{
	if (a->npoints != b->npoints)
		return 0;
	for (size_t i = 0; i < a->npoints; i++)
		if (a->points[i].off != b->points[i].off || a->points[i].taken != b->points[i].taken)
			return 0;
	return 1;
}

#define ROUNDS 4  /* covering sets made again with the decisions they found */
#define MAX_DECISIONS 64  /* decisions covered at most (the array's making grows as their cube) */

/* The covering readings (see the top), once every combination was found
 * to pass the limit: d the decisions the readings so far met. */
static int covering(const sl_source *src, const sl_shell_opts *base, struct decision **d, size_t *nd,
		    size_t *dcap, sl_variant **out, size_t *n, int *truncated, size_t *covered, sl_error *err)
{
	for (unsigned round = 0;; round++) {
		size_t nrows;
		int over;
		unsigned *rows = *nd >= 3 && *nd <= MAX_DECISIONS ? cover3(*d, *nd, SL_MAX_VARIANTS, &nrows, &over)
								   : NULL;
		if (!rows)
			return 1;  /* no covering: the caller's first readings stand */
		sl_variant *vs = NULL;
		size_t nv = 0, cap = 0;
		int grew = 0;
		struct sl_choice_at *at = sl_calloc(*nd, sizeof *at);
		size_t k = *nd;
		for (size_t r = 0; r < nrows; r++) {
			for (size_t i = 0; i < k; i++) {
				at[i].off = (*d)[i].off;
				at[i].alt = rows[r * k + i];
			}
			sl_shell_opts o = {base ? base->binds : NULL, NULL, 0, base ? base->fixed : NULL,
					   base ? base->nfixed : 0, base ? base->cache : NULL, at, k};
			sl_script *s;
			int rc = sl_shell_parse_with(src, &o, &s, err);
			if (rc) {
				free(at);
				free(rows);
				sl_variants_free(vs, nv);
				return -rc;
			}
			grew |= add_decisions(s, d, nd, dcap);
			size_t j = 0;
			while (j < nv && !same_path(vs[j].script, s))
				j++;
			if (j < nv)
				sl_script_free(s);  /* the decisions it was given were decided otherwise */
			else
				keep(s, &vs, &nv, &cap);
		}
		free(at);
		free(rows);
		if (grew && round + 1 < ROUNDS && !over) {
			sl_variants_free(vs, nv);
			continue;
		}
		sl_variants_free(*out, *n);
		*out = vs;
		*n = nv;
		/* past the limit, or decisions found in the last round that it
		 * did not vary: read in part */
		*truncated = over || grew;
		*covered = k;
		return 0;
	}
}

/*
 * Every combination of alternatives, in order, like an odometer over the
 * undecided conditionals met: read with a choice vector, then advance the
 * last point that has an alternative left (points after it start again at
 * their first). A choice can lead to other conditionals (nested ones), which
 * is why each reading reports the points it met. Past the limit, the
 * covering set (covering()).
 */
int sl_shell_variants(const sl_source *src, const sl_shell_opts *base, sl_variant **out, size_t *n,
		      int *truncated, size_t *covered, sl_error *err)
{
	*out = NULL;
	*n = 0;
	*truncated = 0;
	*covered = 0;
	unsigned *choice = NULL;
	size_t nchoice = 0, cap = 0;
	struct decision *d = NULL;
	size_t nd = 0, dcap = 0;
	for (;;) {
		sl_shell_opts o = {base ? base->binds : NULL, choice, nchoice, base ? base->fixed : NULL,
				   base ? base->nfixed : 0, base ? base->cache : NULL, NULL, 0};
		sl_script *s;
		int rc = sl_shell_parse_with(src, &o, &s, err);
		if (rc) {
			free(choice);
			free(d);
			sl_variants_free(*out, *n);
			*out = NULL;
			*n = 0;
			return rc;
		}
		add_decisions(s, &d, &nd, &dcap);
		if (*n == SL_MAX_VARIANTS) {
			*truncated = 1;
			sl_script_free(s);
			break;
		}
		keep(s, out, n, &cap);
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
	if (*truncated) {
		int rc = covering(src, base, &d, &nd, &dcap, out, n, truncated, covered, err);
		if (rc < 0) {
			free(d);
			sl_variants_free(*out, *n);
			*out = NULL;
			*n = 0;
			return -rc;
		}
	}
	free(d);
	return SL_OK;
}
