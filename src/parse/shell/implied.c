/*
 * implied.c: what the decisions a reading has taken so far say of the next
 * condition it meets. A variant is one consistent assumption about the
 * script's inputs: `case "$KV" in lmcache)` taken says KV is "lmcache", so a
 * later `if [ "$KV" != "lmcache" ]` is false in that variant, not a new
 * decision; `[ "$DP" = true ]` taken false says a later `[[ $DP == true ]]`
 * is false too. Reading such a combination as a variant of its own (the
 * product of every undecided conditional) made variants no input can give,
 * which findings could be about, and multiplied the readings past the limit
 * (SL0005) on harnesses that test one input at several places. What is
 * followed: numeric tests of one variable against a number (intervals), the
 * same condition text, and string tests of one variable against a literal
 * (`=`, `==`, `!=`, `-z`, `-n`, case patterns that are literals, and `&&`
 * / `||` of them), each as long as the variables it reads are not assigned
 * since (the same text then tests something else). It only ever decides a
 * condition the earlier decisions decide: nothing is assumed that a
 * variant does not already assume.
 */
#include "internal.h"

#include <fnmatch.h>
#include <limits.h>

/* (parse.h) the place that ends a label: " (line N)" or " (FILE:N)" */
const char *sl_label_place(const char *l)
{
	for (const char *p = strstr(l, " ("); p; p = strstr(p + 1, " (")) {
		const char *q = p + 2;
		if (!strncmp(q, "line ", 5)) {
			q += 5;
		} else {
			/* FILE:N: a name without blanks, then its line */
			const char *c = q;
			while (*c && *c != ' ' && *c != ')' && *c != ':')
				c++;
			if (c == q || *c != ':')
				continue;
			q = c + 1;
		}
		const char *d = q;
		while (*d >= '0' && *d <= '9')
			d++;
		if (d > q && *d == ')')
			return p;
	}
	return NULL;
}

/* The condition an alternative's label tests ("if C (line N)", "elif C
 * (line N)": C, its length in *len), or NULL for a fallback ("not C",
 * "else", "no branch of the if") or a case pattern. */
const char *sh_label_cond(const char *l, size_t *len)
{
	const char *c = !strncmp(l, "if ", 3) ? l + 3 : !strncmp(l, "elif ", 5) ? l + 5 : NULL;
	if (!c)
		return NULL;
	const char *e = sl_label_place(c);
	*len = e ? (size_t)(e - c) : strlen(c);
	return c;
}

/* Whether label text reads variable name ($NAME, ${NAME...}, ${#NAME...}). */
static int mentions(const char *l, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = strchr(l, '$'); p; p = strchr(p + 1, '$')) {
		const char *q = p + 1;
		if (*q == '{')
			q += 1 + (q[1] == '#');
		if (!strncmp(q, name, n)) {
			char a = q[n];
			if (!(a == '_' || (a >= 'a' && a <= 'z') || (a >= 'A' && a <= 'Z') || (a >= '0' && a <= '9')))
				return 1;
		}
	}
	return 0;
}

static int name_byte(char a)
{
	return a == '_' || (a >= 'a' && a <= 'z') || (a >= 'A' && a <= 'Z') || (a >= '0' && a <= '9');
}

/* Whether the script assigned a variable label reads since point i was
 * met: the same text then tests something else. Each name the label reads
 * is looked up for its newest assignment (vars.c's hash), which is since
 * the point when its index is at or past the table's size then: scanning
 * every assignment since, each against the label, was a sixth of a check of
 * a script sourcing a 2,300-line library (145 M of 969 M instructions). The
 * names the hash cannot be asked for (more than one byte, not all name
 * bytes) keep the scan. */
int sh_stale(const walker *w, size_t i, const char *label)
{
	size_t since = w->pt_vars[i];
	if (since >= w->vars.n)
		return 0;
	if (w->vars.odd_names) {
		for (size_t k = since; k < w->vars.n; k++)
			if (mentions(label, w->vars.items[k].name))
				return 1;
		return 0;
	}
	/* what mentions() matches: after `$`, `${` or `${#`, a whole run of
	 * name bytes, or one other byte not followed by a name byte */
	for (const char *p = strchr(label, '$'); p; p = strchr(p + 1, '$')) {
		const char *q = p + 1;
		if (*q == '{')
			q += 1 + (q[1] == '#');
		size_t n = 0;
		while (name_byte(q[n]))
			n++;
		if (!n) {
			if (!*q || name_byte(q[1]))
				continue;
			n = 1;
		}
		size_t k = sh_var_newest(w, q, n);
		if (k != (size_t)-1 && k >= since)
			return 1;
	}
	return 0;
}

/* A numeric test of one variable against a number, as labels write it:
 * `[ "$X" -ge 16 ]`, `[[ $X -lt 8 ]]`, `[ "${X}" -eq 1 ]`. The set where it
 * holds, [*lo, *hi] (LLONG_MIN/MAX for no bound), and for -ne its
 * complement (*neg); the variable's name at *name, *nlen. 0 when it is no
 * such test. */
static int numeric_test(const char *c, size_t cl, const char **name, size_t *nlen, long long *lo,
			long long *hi, int *neg)
{
	const char *e = c + cl, *p = c;
	int dbl = cl > 4 && !memcmp(c, "[[ ", 3);
	if (!(dbl || (cl > 3 && !memcmp(c, "[ ", 2))))
		return 0;
	p += dbl ? 3 : 2;
	if (e - p < 3 || memcmp(e - (dbl ? 3 : 2), dbl ? " ]]" : " ]", dbl ? 3 : 2))
		return 0;
	e -= dbl ? 3 : 2;
	int q = p < e && *p == '"';
	p += q;
	if (p >= e || *p != '$')
		return 0;
	p++;
	int br = p < e && *p == '{';
	p += br;
	const char *n0 = p;
	while (p < e && (*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			 (p > n0 && *p >= '0' && *p <= '9')))
		p++;
	const char *n1 = p;
	if (p == n0 || (br && (p >= e || *p++ != '}')) || (q && (p >= e || *p++ != '"')))
		return 0;
	*name = n0;
	*nlen = (size_t)(n1 - n0);
	if (e - p < 5 || p[0] != ' ' || p[1] != '-' || p[4] != ' ')
		return 0;
	char op[3] = {p[2], p[3], 0};
	p += 5;
	int qn = p < e && *p == '"';
	p += qn;
	const char *v0 = p;
	int minus = p < e && *p == '-';
	p += minus;
	long long v = 0;
	while (p < e && *p >= '0' && *p <= '9' && v < 1000000000000LL)
		v = v * 10 + (*p++ - '0');
	if (p == v0 + minus || (qn && (p >= e || *p++ != '"')) || p != e)
		return 0;
	v = minus ? -v : v;
	*lo = LLONG_MIN;
	*hi = LLONG_MAX;
	*neg = 0;
	if (!strcmp(op, "ge"))
		*lo = v;
	else if (!strcmp(op, "gt"))
		*lo = v + 1;
	else if (!strcmp(op, "le"))
		*hi = v;
	else if (!strcmp(op, "lt"))
		*hi = v - 1;
	else if (!strcmp(op, "eq") || !strcmp(op, "ne")) {
		*lo = *hi = v;
		*neg = op[0] == 'n';
	} else
		return 0;
	return 1;
}

/* What earlier numeric tests of the same variable say of condition c
 * (`[[ $CONC -ge 256 ]]` after `[[ $CONC -ge 16 ]]` was taken false is
 * false): the interval the variable is known to be in, from each earlier
 * test taken true or false (its variable not assigned since), against the
 * set where c holds. 1 true, 0 false, -1 not known. */
static int implied_numeric(const walker *w, const char *c, size_t cl)
{
	const char *name;
	size_t nl;
	long long lo, hi;
	int neg;
	if (!numeric_test(c, cl, &name, &nl, &lo, &hi, &neg))
		return -1;
	long long klo = LLONG_MIN, khi = LLONG_MAX;  /* what is known of the variable */
	for (size_t i = 0; i < w->s->npoints; i++) {
		const sl_branch_point *p = &w->s->points[i];
		for (unsigned k = 0; k < p->n && k <= p->taken; k++) {
			size_t pl;
			const char *pn, *pc = sh_label_cond(p->labels[k], &pl);
			size_t pnl;
			long long plo, phi;
			int pneg;
			if (!pc || !numeric_test(pc, pl, &pn, &pnl, &plo, &phi, &pneg) || pnl != nl ||
			    memcmp(pn, name, nl) || sh_stale(w, i, p->labels[k]))
				continue;
			int held = p->taken == k;  /* else tested false: a later alternative was taken */
			if (pneg)
				held = !held;  /* -ne true: outside [plo, phi]; false: inside */
			if (held) {
				if (plo > klo)
					klo = plo;
				if (phi < khi)
					khi = phi;
			} else if (plo == LLONG_MIN && phi < LLONG_MAX) {
				if (phi + 1 > klo)
					klo = phi + 1;  /* not (X <= phi) */
			} else if (phi == LLONG_MAX && plo > LLONG_MIN) {
				if (plo - 1 < khi)
					khi = plo - 1;  /* not (X >= plo) */
			}
		}
	}
	if (klo == LLONG_MIN && khi == LLONG_MAX)
		return -1;
	int inside = klo >= lo && khi <= hi;             /* the known interval within c's */
	int apart = klo > hi || khi < lo;                /* none of it in c's */
	if (inside)
		return neg ? 0 : 1;
	if (apart)
		return neg ? 1 : 0;
	return -1;
}

/* What the earlier points say of condition c: 1 true, 0 false (an earlier
 * chain took its alternative, or one after it: c was tested false), -1
 * not known (not tested, or its variables assigned since). */
static int implied_same(const walker *w, const char *c, size_t cl)
{
	int v = implied_numeric(w, c, cl);
	if (v >= 0)
		return v;
	for (size_t i = w->s->npoints; i-- > 0;) {
		const sl_branch_point *p = &w->s->points[i];
		for (unsigned k = 0; k < p->n; k++) {
			size_t pl;
			const char *pc = sh_label_cond(p->labels[k], &pl);
			if (!pc || pl != cl || memcmp(pc, c, cl) || sh_stale(w, i, p->labels[k]))
				continue;
			if (p->taken == k)
				return 1;
			if (p->taken > k)
				return 0;
			break;  /* the chain stopped before testing it */
		}
	}
	return -1;
}

/* One string test of a variable against a literal: KEY = LIT (eq) or
 * KEY != LIT. KEY is the variable's name ($V, ${V}, ${V:-} and ${V-} are
 * one), or for another expansion its text (`${V:-0}`: only the same
 * spelling is the same value). */
struct stest {
	char key[64];
	char lit[128];
	int eq;
};

/* The words of a test's inside, split at blanks outside quotes: *n of
 * them into w/wl (at most 3); 0 when there are more, or a quote is open. */
static int words(const char *s, size_t n, const char **w, size_t *wl, unsigned *nw)
{
	*nw = 0;
	size_t i = 0;
	while (i < n) {
		while (i < n && s[i] == ' ')
			i++;
		if (i >= n)
			break;
		size_t a = i;
		char q = 0;
		while (i < n && (q || s[i] != ' ')) {
			if (q && s[i] == q)
				q = 0;
			else if (!q && (s[i] == '"' || s[i] == '\''))
				q = s[i];
			i++;
		}
		if (q || *nw == 3)
			return 0;
		w[*nw] = s + a;
		wl[(*nw)++] = i - a;
	}
	return 1;
}

static int name_char(char c, int first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
}

/* A word that is one variable's value: "$V", $V, "${V}", "${V:-}",
 * "${V:-d}"...; its key into key. */
static int var_word(const char *s, size_t n, char *key, size_t cap)
{
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"')
		s++, n -= 2;
	if (n < 2 || s[0] != '$')
		return 0;
	const char *a = s + 1, *e = s + n;
	size_t kl;
	if (*a == '{') {
		if (e[-1] != '}')
			return 0;
		a++;
		e--;
		const char *p = a;
		while (p < e && name_char(*p, p == a))
			p++;
		if (p == a)
			return 0;
		if (p == e || (e - p == 2 && p[0] == ':' && p[1] == '-') || (e - p == 1 && p[0] == '-')) {
			kl = (size_t)(p - a);  /* the variable itself */
		} else {
			for (const char *q = p; q < e; q++)
				if (*q == '$' || *q == '`' || *q == '{' || *q == '}' || *q == '"' || *q == '\\')
					return 0;  /* a default that expands: not one value */
			if (*p != ':' && *p != '-')
				return 0;  /* ${V#x}, ${V/a/b}...: another value */
			kl = (size_t)(e - a);
		}
	} else {
		const char *p = a;
		while (p < e && name_char(*p, p == a))
			p++;
		if (p != e || p == a)
			return 0;
		kl = (size_t)(e - a);
	}
	if (kl + 1 > cap)
		return 0;
	memcpy(key, a, kl);
	key[kl] = 0;
	return 1;
}

/* A word that is a literal: its text unquoted into lit. pattern: an
 * unquoted glob character makes it no literal (the right side of [[ == ]],
 * a case pattern). */
static int lit_word(const char *s, size_t n, char *lit, size_t cap, int pattern)
{
	size_t o = 0;
	char q = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '$' || c == '`' || c == '\\')
			return 0;
		if (q && c == q) {
			q = 0;
			continue;
		}
		if (!q && (c == '"' || c == '\'')) {
			q = c;
			continue;
		}
		if (!q && pattern && (c == '*' || c == '?' || c == '[' || c == '(' || c == '|' || c == ')'))
			return 0;
		if (o + 1 >= cap || c == ' ')
			return 0;  /* blanks: the label collapsed them, it no longer says which */
		lit[o++] = c;
	}
	if (q)
		return 0;
	lit[o] = 0;
	return 1;
}

/* `[ "$V" = lit ]`, `[[ $V != "lit" ]]`, `[ -z "$V" ]`, `[[ -n $V ]]` (the
 * text of one test as labels write it, blanks collapsed): 1 with *t, else 0. */
static int string_test(const char *c, size_t cl, struct stest *t)
{
	int dbl = cl > 6 && !memcmp(c, "[[ ", 3) && !memcmp(c + cl - 3, " ]]", 3);
	int sgl = !dbl && cl > 4 && !memcmp(c, "[ ", 2) && !memcmp(c + cl - 2, " ]", 2);
	if (!dbl && !sgl)
		return 0;
	const char *in = c + (dbl ? 3 : 2);
	size_t inl = cl - (dbl ? 6 : 4);
	const char *w[3];
	size_t wl[3];
	unsigned nw;
	if (!words(in, inl, w, wl, &nw))
		return 0;
	if (nw == 2 && wl[0] == 2 && w[0][0] == '-' && (w[0][1] == 'z' || w[0][1] == 'n')) {
		if (!var_word(w[1], wl[1], t->key, sizeof t->key))
			return 0;
		t->lit[0] = 0;
		t->eq = w[0][1] == 'z';
		return 1;
	}
	if (nw != 3)
		return 0;
	int eq = (wl[1] == 1 && w[1][0] == '=') || (wl[1] == 2 && !memcmp(w[1], "==", 2));
	int ne = wl[1] == 2 && !memcmp(w[1], "!=", 2);
	if (!eq && !ne)
		return 0;
	t->eq = eq;
	if (var_word(w[0], wl[0], t->key, sizeof t->key))
		return lit_word(w[2], wl[2], t->lit, sizeof t->lit, dbl);
	/* `[ lit = "$V" ]` (in [[ ]] the right side would be a pattern) */
	return sgl && var_word(w[2], wl[2], t->key, sizeof t->key) &&
	       lit_word(w[0], wl[0], t->lit, sizeof t->lit, 0);
}

/* Condition c split into its tests at `&&` (*and 1) or `||` (*and 0)
 * outside quotes and brackets: up to 8 of them into t, each with its key
 * empty when it is no string test (`[ "$TP" -eq 8 ]`); 0 when both
 * operators are used, or there are more. */
static int string_tests(const char *c, size_t cl, struct stest *t, unsigned *nt, int *and)
{
	*nt = 0;
	*and = -1;
	size_t from = 0;
	char q = 0;
	int depth = 0;
	for (size_t i = 0; i <= cl; i++) {
		int end = i == cl;
		if (!end) {
			char ch = c[i];
			if (q) {
				if (ch == q)
					q = 0;
				continue;
			}
			if (ch == '"' || ch == '\'') {
				q = ch;
				continue;
			}
			if (ch == '[')
				depth++;
			else if (ch == ']')
				depth--;
		}
		int op = !end && !depth && i + 4 <= cl && c[i] == ' ' && c[i + 3] == ' ' &&
			 ((c[i + 1] == '&' && c[i + 2] == '&') || (c[i + 1] == '|' && c[i + 2] == '|'));
		if (!end && !op)
			continue;
		if (op) {
			int a = c[i + 1] == '&';
			if (*and >= 0 && *and != a)
				return 0;
			*and = a;
		}
		if (*nt == 8)
			return 0;
		if (!string_test(c + from, i - from, &t[*nt]))
			t[*nt].key[0] = 0;
		(*nt)++;
		if (op) {
			i += 3;
			from = i + 1;
		}
	}
	if (*and < 0)
		*and = 1;
	return *nt > 0;
}

/* A case alternative's label, "case VAL in P1 | P2 (line N)": the key of
 * VAL into key, its patterns' text at *pats (*pl bytes). 0 when VAL is not
 * one variable's value. */
static int case_label(const char *l, char *key, size_t cap, const char **pats, size_t *pl)
{
	if (strncmp(l, "case ", 5))
		return 0;
	const char *v = l + 5, *in = strstr(v, " in ");
	if (!in || !var_word(v, (size_t)(in - v), key, cap))
		return 0;
	*pats = in + 4;
	const char *e = sl_label_place(*pats);
	*pl = e ? (size_t)(e - *pats) : strlen(*pats);
	if (*pl >= 3 && !memcmp(*pats + *pl - 3, "...", 3))
		return 0;  /* the label's text was cut (sh_label_text) */
	if (*pl && **pats == '(')
		(*pats)++, (*pl)--;
	return 1;
}

/* The next pattern of a case item's `a | b | c` from *p (*n bytes left):
 * its text at *s, *sl; 0 when none is left. */
static int next_pattern(const char **p, size_t *n, const char **s, size_t *sl)
{
	while (*n && **p == ' ')
		(*p)++, (*n)--;
	if (!*n)
		return 0;
	size_t i = 0;
	char q = 0;
	while (i < *n && (q || (*p)[i] != '|')) {
		if (q && (*p)[i] == q)
			q = 0;
		else if (!q && ((*p)[i] == '"' || (*p)[i] == '\''))
			q = (*p)[i];
		i++;
	}
	size_t e = i;
	while (e && (*p)[e - 1] == ' ')
		e--;
	*s = *p;
	*sl = e;
	*p += i < *n ? i + 1 : i;
	*n -= i < *n ? i + 1 : i;
	return 1;
}

/* What is known of key's value, from the string tests and case patterns
 * the reading decided before: its value (*eqv, when known) and values it
 * is known not to have (up to 16 in ne). */
struct known {
	const char *eqv;
	char eqbuf[128];
	char ne[16][128];
	unsigned nne;
};

static void add_fact(struct known *k, const char *lit, int eq)
{
	if (eq) {
		if (!k->eqv) {
			snprintf(k->eqbuf, sizeof k->eqbuf, "%s", lit);
			k->eqv = k->eqbuf;
		}
	} else if (k->nne < 16) {
		snprintf(k->ne[k->nne++], sizeof k->ne[0], "%s", lit);
	}
}

static void known_of(const walker *w, const char *key, struct known *k)
{
	memset(k, 0, sizeof *k);
	for (size_t i = 0; i < w->s->npoints; i++) {
		const sl_branch_point *p = &w->s->points[i];
		for (unsigned a = 0; a < p->n && a <= p->taken; a++) {
			const char *l = p->labels[a];
			int held = a == p->taken;  /* else tested false: a later one was taken */
			if (sh_stale(w, i, l))
				continue;
			size_t cl;
			const char *c = sh_label_cond(l, &cl);
			if (c) {
				struct stest t[8];
				unsigned nt;
				int and;
				/* true: every test of a conjunction; false: every test of
				 * a disjunction, negated */
				if (!string_tests(c, cl, t, &nt, &and) || (held ? !and && nt > 1 : and && nt > 1))
					continue;
				for (unsigned q = 0; q < nt; q++)
					if (t[q].key[0] && !strcmp(t[q].key, key))
						add_fact(k, t[q].lit, held ? t[q].eq : !t[q].eq);
				continue;
			}
			char ck[64];
			const char *pats;
			size_t pl;
			if (!case_label(l, ck, sizeof ck, &pats, &pl) || strcmp(ck, key))
				continue;
			char lit[128];
			const char *s;
			size_t sl;
			unsigned npat = 0, nlit = 0;
			char one[128] = {0};
			while (next_pattern(&pats, &pl, &s, &sl)) {
				npat++;
				if (!lit_word(s, sl, lit, sizeof lit, 1))
					continue;
				nlit++;
				if (!held)
					add_fact(k, lit, 0);  /* matched none of its patterns */
				else
					memcpy(one, lit, sizeof one);
			}
			if (held && npat == 1 && nlit == 1)
				add_fact(k, one, 1);
		}
	}
}

/* One string test's value from what is known: 1, 0, -1. */
static int test_value(const walker *w, const struct stest *t)
{
	if (!t->key[0])
		return -1;
	struct known k;
	known_of(w, t->key, &k);
	if (!k.eqv && !k.nne) {
		/* no decision says: the script's own value, if it knows it
		 * (`IS_DEP8=false` beside a test of an input: sh_cond_value
		 * found the whole condition unknown) */
		size_t kl = strlen(t->key);
		const sl_assign *a = strchr(t->key, ':') || strchr(t->key, '-') ? NULL : sh_var_get(w, t->key, kl);
		if (a && !(a->value.flags & SL_WORD_SYMBOLIC) && !sh_var_array(w, t->key, kl) &&
		    a->value.len < sizeof k.eqbuf && !memchr(a->value.text, ' ', a->value.len) &&
		    !memchr(a->value.text, '\t', a->value.len) && !memchr(a->value.text, '\n', a->value.len)) {
			snprintf(k.eqbuf, sizeof k.eqbuf, "%.*s", (int)a->value.len, a->value.text);
			k.eqv = k.eqbuf;
		}
	}
	int is = -1;
	if (k.eqv)
		is = !strcmp(k.eqv, t->lit);
	else
		for (unsigned i = 0; i < k.nne && is < 0; i++)
			if (!strcmp(k.ne[i], t->lit))
				is = 0;
	return is < 0 ? -1 : t->eq ? is : !is;
}

static int implied_strings(const walker *w, const char *c, size_t cl)
{
	struct stest t[8];
	unsigned nt;
	int and;
	if (!string_tests(c, cl, t, &nt, &and))
		return -1;
	int all = 1, any = 0;
	for (unsigned i = 0; i < nt; i++) {
		int v = test_value(w, &t[i]);
		if (v != 1)
			all = 0;
		if (v == 1)
			any = 1;
		if (v < 0)
			all = -1;  /* not all known */
		if (and && v == 0)
			return 0;
		if (!and && v == 1)
			return 1;
	}
	if (and)
		return all == 1 ? 1 : -1;
	return all == 0 && !any ? 0 : -1;
}

/* Whether a case alternative's patterns match what is known of its value:
 * 1, 0, -1. */
static int implied_case(const walker *w, const char *l)
{
	char key[64];
	const char *pats;
	size_t pl;
	if (!case_label(l, key, sizeof key, &pats, &pl))
		return -1;
	struct known k;
	known_of(w, key, &k);
	if (!k.eqv && !k.nne)
		return -1;
	const char *s;
	size_t sl;
	int res = 0;
	while (next_pattern(&pats, &pl, &s, &sl)) {
		char lit[128];
		int m = -1;
		if (lit_word(s, sl, lit, sizeof lit, 1)) {
			if (k.eqv)
				m = !strcmp(k.eqv, lit);
			else
				for (unsigned i = 0; i < k.nne && m < 0; i++)
					if (!strcmp(k.ne[i], lit))
						m = 0;
		} else if (k.eqv && sl < sizeof lit) {
			/* a glob: matched as bash would, if it has no quotes */
			memcpy(lit, s, sl);
			lit[sl] = 0;
			if (!strpbrk(lit, "\"'$`\\()|"))
				m = !fnmatch(lit, k.eqv, 0);
		}
		if (m == 1)
			return 1;
		if (m < 0)
			res = -1;
	}
	return res;
}

int sh_implied(const walker *w, char *const *labels, unsigned n, unsigned k)
{
	size_t cl;
	const char *c = sh_label_cond(labels[k], &cl);
	int v = -1;
	if (c) {
		v = implied_same(w, c, cl);
		if (v < 0)
			v = implied_strings(w, c, cl);
	} else if (!strncmp(labels[k], "case ", 5)) {
		v = implied_case(w, labels[k]);
	}
	/* every alternative before the last known not to run: the last runs
	 * (those that fail were dropped: the reading assumes one of these) */
	if (v < 0 && k + 1 == n && k)
		v = 1;
	return v;
}
