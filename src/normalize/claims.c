/*
 * claims.c: what an entry says about itself outside its command.
 *
 * Two sources. The catalogue page's metadata line runs its fields together
 * ("SystemB300 x8EngineSGLang (kimi-k3)Tensor parallelTP8...Accelerators
 * used8 of 8"); it is split at the known field labels. The header comments
 * are prose; only a few precise shapes count as claims ("TP4", "DEP4",
 * "TP=8", "6 draft tokens", "block size 5", "8 GPUs", "2 of the node's 8
 * GPUs", "GPUs 0-1", "3x decode workers", "--max-num-seqs 64", "vLLM 0.31.0",
 * "(MXFP4)", "Weights: org/name @ dba1be0a", "KV-aware routing" through
 * route_claims.c, "MTP3" and "at concurrency 384" through count_claims.c;
 * a bare "5 tokens" only where prose.c finds it a draft count). Anything else is not a claim: nothing is guessed.
 *
 * A claim keeps the words it was read from and where they stand, so a later
 * check can hold the text to the command.
 *
 * Uses grammar.c (a flag a comment quotes is looked up in the engine's
 * grammar), prose.c, route_claims.c and count_claims.c; called by normalize.c once the
 * services are known.
 */
#include "claims.h"
#include "count_claims.h"
#include "prose.h"
#include "route_claims.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* U+00D7 MULTIPLICATION SIGN and U+00B7 MIDDLE DOT, as the pages write them */
#define TIMES "\xc3\x97"
#define MIDDOT "\xc2\xb7"

static void claim(sl_ctx *c, const char *key, const char *role, json_t *v, const char *from,
		  const sl_source *src, uint32_t off, const char *text, size_t tlen)
{
	sl_claim k;
	memset(&k, 0, sizeof k);
	k.key = sl_strdup(key);
	k.role = role ? sl_strdup(role) : NULL;
	k.value = v;
	k.text = sl_strndup(text, tlen);
	k.from = (char *)from;
	sl_origin_set(&k.origin, src, off, NULL);
	SL_PUSH(c->model->claims, c->model->nclaims, c->claim_cap, k);
}

static int word_start(const char *base, const char *p)
{
	return p == base || !isalnum((unsigned char)p[-1]);
}

static int word_end(const char *p)
{
	return !isalnum((unsigned char)*p);
}

/* "start ray", "ray start" (a Ray cluster), "node 1" (a second node),
 * "2 nodes", "multi-node": the entry says it runs on several nodes, the
 * length of the words or 0. The recipes start a multi-node `vllm serve`
 * after "# start ray on node 0 and node 1" (vllm-project/recipes:
 * moonshotai/Kimi-K2.md@8959cf6), with nothing in the command itself. */
static size_t multi_node_words(const char *base, const char *p)
{
	/* ray, multi..., two, node, a number: a cheap test first */
	if (!*p || (!isdigit((unsigned char)*p) && !strchr("rRmMtTnN", *p)) || !word_start(base, p))
		return 0;
	if (!strncasecmp(p, "ray", 3) && word_end(p + 3))
		return 3;
	static const char *const words[] = {"multi-node", "multinode", "multi node", "multiple nodes", "two nodes"};
	for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
		size_t l = strlen(words[i]);
		if (!strncasecmp(p, words[i], l) && word_end(p + l))
			return l;
	}
	char *end;
	if (!strncasecmp(p, "node ", 5) && isdigit((unsigned char)p[5])) {
		long n = strtol(p + 5, &end, 10);
		return n >= 1 && word_end(end) ? (size_t)(end - p) : 0;
	}
	if (isdigit((unsigned char)*p)) {
		long n = strtol(p, &end, 10);
		if (n >= 2 && !strncasecmp(end, " nodes", 6) && word_end(end + 6))
			return (size_t)(end + 6 - p);
	}
	return 0;
}

/* "TP4", "TP=8", "DEP4", "DCP8", "EP16", "attention-DP8": the parallelism
 * token at p, or 0. Sets the keys it claims (DEP is data and expert). */
static size_t parallel_token(const char *base, const char *p, const char **k1, const char **k2,
			     long *n)
{
	static const struct { const char *pre, *k1, *k2; } t[] = {
		{"DCP", "parallel.decode_context", NULL}, {"DEP", "parallel.data", "parallel.expert"},
		{"TP", "parallel.tensor", NULL},        {"DP", "parallel.data", NULL},
		{"EP", "parallel.expert", NULL},        {"PP", "parallel.pipeline", NULL},
	};
	if (!*p || !strchr("DTEP", *p) || (!word_start(base, p) && p[-1] != '-'))
		return 0;
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		size_t l = strlen(t[i].pre);
		if (strncmp(p, t[i].pre, l))
			continue;
		const char *q = p + l;
		if (*q == '=')
			q++;
		if (!isdigit((unsigned char)*q))
			return 0;
		char *end;
		*n = strtol(q, &end, 10);
		if (!word_end(end))
			return 0;
		*k1 = t[i].k1;
		*k2 = t[i].k2;
		return (size_t)(end - p);
	}
	return 0;
}

static const char *role_word(const char *p, size_t *len)
{
	/* most words start otherwise: a cheap test first */
	if (!strchr("pPdDcCgG", *p) || !*p)
		return NULL;
	static const struct { const char *w, *role; } t[] = {
		{"prefill", "prefill"}, {"Prefill", "prefill"}, {"context", "prefill"},
		{"Context", "prefill"}, {"decode", "decode"},   {"Decode", "decode"},
		{"generation", "decode"}, {"Generation", "decode"},
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		size_t l = strlen(t[i].w);
		/* "context" and "generation" name a role only as "context worker(s)"
		 * and the like: "the default 1M context" is not one */
		int noun = tolower((unsigned char)t[i].w[0]) == 'c' || tolower((unsigned char)t[i].w[0]) == 'g';
		if (noun && strncmp(p, t[i].w, l) == 0) {
			const char *q = p + l;
			if (*q == 's')
				q++;
			/* the noun may open the next line: "1x generation\n# worker" */
			if (*q && strncmp(q, " worker", 7) && strncmp(q, " server", 7) && strncmp(q, " instance", 9) &&
			    strncmp(q, " replica", 8) && strncmp(q, " node", 5) && strncmp(q, " side", 5))
				continue;
		}
		if (!strncmp(p, t[i].w, l) && !isalpha((unsigned char)p[l])) {
			*len = l;
			return t[i].role;
		}
		/* "workers" and other plurals/suffixes stay the same role */
		if (!strncmp(p, t[i].w, l) && p[l] == 's') {
			*len = l + 1;
			return t[i].role;
		}
	}
	return NULL;
}

/* "GPUs 0-1", "GPUs 4–7" (en dash), "GPU0", "GPU1..3": device ids at p, as a
 * JSON array in *out; returns the length read, or 0. */
static size_t device_range(const char *base, const char *p, json_t **out)
{
	const char *q;
	if (*p != 'G' || !word_start(base, p))
		return 0;
	if (!strncmp(p, "GPUs ", 5))
		q = p + 5;
	else if (!strncmp(p, "GPU", 3) && isdigit((unsigned char)p[3]))
		q = p + 3;
	else
		return 0;
	if (!isdigit((unsigned char)*q))
		return 0;
	char *e1, *e2;
	long a = strtol(q, &e1, 10), b = a;
	e2 = e1;
	size_t dl = !strncmp(e1, "..", 2) || !strncmp(e1, "\xe2\x80\x93", 3) ? (e1[0] == '.' ? 2 : 3)
		    : e1[0] == '-' ? 1 : 0;
	if (dl && isdigit((unsigned char)e1[dl]))
		b = strtol(e1 + dl, &e2, 10);
	if (b < a || b - a >= 1024 || isalnum((unsigned char)*e2))
		return 0;
	json_t *dev = json_array();
	for (long k = a; k <= b; k++) {
		char num[24];
		snprintf(num, sizeof num, "%ld", k);
		json_array_append_new(dev, json_string(num));
	}
	*out = dev;
	return (size_t)(e2 - p);
}

/* ---- speculative decoding, in either source ------------------------------- */

static void spec_claims(sl_ctx *c, const char *role, const char *from, const sl_source *src,
			uint32_t off, const char *t, size_t n)
{
	char *s = sl_strndup(t, n);
	/* the method is the first word: DSpark, MTP, EAGLE3, None */
	size_t m = 0;
	while (s[m] && (isalnum((unsigned char)s[m]) || s[m] == '-'))
		m++;
	if (m) {
		char *meth = sl_strndup(s, m);
		for (char *p = meth; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		claim(c, "spec.method", role, json_string(meth), from, src, off, s, m);
		free(meth);
	}
	for (const char *p = s; *p; p++) {
		if (!isdigit((unsigned char)*p) || !word_start(s, p))
			continue;
		char *end;
		long v = strtol(p, &end, 10);
		const char *key = NULL;
		/* the field speaks of speculation: a bare "N tokens" counts drafts
		 * unless it is a length, a rate or a range (prose.c) */
		if (!strncmp(end, " draft token", 12) || !strncmp(end, " speculative token", 18) ||
		    (!strncmp(end, " token", 6) && !isalpha((unsigned char)end[6])) ||
		    (!strncmp(end, " tokens", 7) && sl_prose_draft_count(s, p, end, 1)))
			key = "spec.num_tokens";
		else if (!strncmp(end, " step", 5))
			key = "spec.num_steps";
		if (key) {
			const char *e = strchr(end + 1, ' ');
			e = e ? e : end + strlen(end);
			while (*e && isalpha((unsigned char)*e))
				e++;
			size_t wl = strcspn(end + 1, ",)");
			claim(c, key, role, json_integer(v), from, src, off + (uint32_t)(p - s), p,
			      (size_t)(end + 1 + wl - p));
		}
		p = end - 1;
	}
	const char *bs = strstr(s, "block size ");
	if (bs && isdigit((unsigned char)bs[11]))
		claim(c, "spec.block_size", role, json_integer(strtol(bs + 11, NULL, 10)), from, src,
		      off + (uint32_t)(bs - s), bs, 11 + strspn(bs + 11, "0123456789"));
	const char *av = strstr(s, "adaptive verification");
	if (av) {
		const char *after = av + 21;
		int off_ = !strncmp(after, " off", 4) || (av - s >= 3 && !strncmp(av - 3, "no ", 3));
		size_t a = (av - s >= 3 && !strncmp(av - 3, "no ", 3)) ? 3 : 0;
		size_t len = 21 + (!strncmp(after, " off", 4) ? 4 : !strncmp(after, " on", 3) ? 3 : 0);
		claim(c, "spec.enable_adaptive_verification", role, json_boolean(!off_), from, src,
		      off + (uint32_t)(av - a - s), av - a, len + a);
	}
	free(s);
}

/* ---- metadata -------------------------------------------------------------- */

static const char *const labels[] = {
	"Mamba state memory ratio", "Speculative decoding", "Accelerators used", "Tensor parallel",
	"Expert parallel", "Data parallel", "Engram tables", "SM clock cap", "KV transfer",
	"CUDA graphs", "CPU binding", "API servers", "MoE kernel", "GPU clocks", "Precision",
	"Serving", "Prefill", "Decode", "System", "Engine", "Router",
};

static const char *label_at(const char *line, const char *p, size_t *len)
{
	if (p != line && p[-1] == ' ')
		return NULL;
	/* every label begins with a capital: the other bytes of a metadata line
	 * try none (21 strlen and strncmp at each byte were a tenth of check) */
	if (*p < 'A' || *p > 'Z')
		return NULL;
	for (size_t i = 0; i < sizeof labels / sizeof *labels; i++) {
		if (labels[i][0] != *p)  /* the first letter before a call */
			continue;
		size_t l = strlen(labels[i]);
		if (!strncmp(p, labels[i], l) && p[l] && p[l] != ' ' && p[l] != '/' && p[l] != '\n') {
			*len = l;
			return labels[i];
		}
	}
	return NULL;
}

/* "2 × 2 GPUs · TP2", "1 × 16 GPUs (4 trays) · DP16 · EP16", "DCP8" */
static void role_field(sl_ctx *c, const char *role, const sl_source *src, uint32_t off,
		       const char *v, size_t n)
{
	char *s = sl_strndup(v, n);
	char *x = strstr(s, TIMES);
	if (x && isdigit((unsigned char)s[0])) {
		long reps = strtol(s, NULL, 10);
		const char *g = x + strlen(TIMES);
		while (*g == ' ')
			g++;
		char *end;
		long gpus = strtol(g, &end, 10);
		size_t rl = strcspn(s, " ");
		claim(c, "replicas", role, json_integer(reps), "metadata", src, off, s, rl);
		if (end != g && !strncmp(end, " GPU", 4))
			claim(c, "gpus", role, json_integer(gpus), "metadata", src,
			      off + (uint32_t)(g - s), g, (size_t)(end - g) + 4 + (end[4] == 's'));
	}
	for (const char *p = s; *p; p++) {
		json_t *dev;
		size_t dl = device_range(s, p, &dev);
		if (dl) {
			claim(c, "gpus.devices", role, dev, "metadata", src, off + (uint32_t)(p - s), p, dl);
			p += dl - 1;
			continue;
		}
		const char *k1, *k2;
		long num;
		size_t l = parallel_token(s, p, &k1, &k2, &num);
		if (!l)
			continue;
		/* "Decode DCP8" is a decode-context size, not a role */
		const char *r = !strcmp(k1, "parallel.decode_context") && !x ? NULL : role;
		claim(c, k1, r, json_integer(num), "metadata", src, off + (uint32_t)(p - s), p, l);
		if (k2)
			claim(c, k2, r, json_integer(num), "metadata", src, off + (uint32_t)(p - s), p, l);
		p += l - 1;
	}
	free(s);
}

static void metadata_field(sl_ctx *c, const char *label, const char *role, int spec_role,
			   const sl_source *src, uint32_t off, const char *v, size_t n)
{
	const char *m = "metadata";
	if (!strcmp(label, "Prefill") || !strcmp(label, "Decode")) {
		role_field(c, !strcmp(label, "Prefill") ? "prefill" : "decode", src, off, v, n);
	} else if (!strcmp(label, "Tensor parallel") || !strcmp(label, "Data parallel") ||
		   !strcmp(label, "Expert parallel")) {
		role_field(c, NULL, src, off, v, n);
	} else if (!strcmp(label, "Speculative decoding")) {
		spec_claims(c, spec_role ? role : NULL, m, src, off, v, n);
	} else if (!strcmp(label, "Precision")) {
		claim(c, "precision", NULL, json_stringn(v, n), m, src, off, v, n);
	} else if (!strcmp(label, "System")) {
		claim(c, "system", NULL, json_stringn(v, n), m, src, off, v, n);
	} else if (!strcmp(label, "Accelerators used")) {
		char *s = sl_strndup(v, n), *end;
		long used = strtol(s, &end, 10);
		if (end != s) {
			claim(c, "gpus.total", NULL, json_integer(used), m, src, off, v, n);
			if (!strncmp(end, " of ", 4) && isdigit((unsigned char)end[4]))
				claim(c, "gpus.of", NULL, json_integer(strtol(end + 4, NULL, 10)), m, src, off,
				      v, n);
		}
		free(s);
	} else if (!strcmp(label, "Engine")) {
		/* "vLLM (v0.31.0)", "TRT-LLM (1.3.0rc12.post1 (@ 7a20c8))", "SGLang (0.5.11 DSv4)" */
		size_t e = strcspn(v, " (");
		if (e > n)
			e = n;
		claim(c, "engine", NULL, json_stringn(v, e), m, src, off, v, e);
		const char *par = memchr(v, '(', n);
		if (par) {
			const char *q = par + 1;
			if (*q == 'v' && isdigit((unsigned char)q[1]))
				q++;
			size_t l = 0;
			while (q + l < v + n && (isalnum((unsigned char)q[l]) || q[l] == '.' || q[l] == '+'))
				l++;
			if (l && isdigit((unsigned char)q[0]) && memchr(q, '.', l))
				claim(c, "engine.version", NULL, json_stringn(q, l), m, src,
				      off + (uint32_t)(q - v), q, l);
			if (!strncmp(par, "(Dynamo)", 8))
				claim(c, "dynamo", NULL, json_true(), m, src, off + (uint32_t)(par - v), par, 8);
		}
	} else if (!strcmp(label, "Serving")) {
		const char *mode = !strncmp(v, "Prefill/decode disaggregated", 28) ? "disaggregated"
				 : !strncmp(v, "Aggregated", 10) ? "aggregated" : NULL;
		if (mode) {
			const char *dash = strstr(v, " - ");
		size_t l = dash && dash < v + n ? (size_t)(dash - v) : strcspn(v, "(") < n ? strcspn(v, "(") : n;
			while (l && v[l - 1] == ' ')
				l--;
			claim(c, "serving", NULL, json_string(mode), m, src, off, v, l);
		}
	} else if (!strcmp(label, "API servers")) {
		char *s = sl_strndup(v, n);
		long long k;
		if (!sl_parse_int(s, &k))
			claim(c, "vllm.api_server_count", NULL, json_integer(k), m, src, off, v, n);
		free(s);
	} else if (!strcmp(label, "Mamba state memory ratio")) {
		char *s = sl_strndup(v, n);
		double d;
		if (!sl_parse_double(s, &d))
			claim(c, "sglang.mamba_full_memory_ratio", NULL, json_real(d), m, src, off, v, n);
		free(s);
	} else if (!strcmp(label, "CUDA graphs")) {
		const char *b = strstr(v, "up to batch ");
		if (b && b < v + n)
			claim(c, "cudagraph.max_bs_decode", NULL, json_integer(strtol(b + 12, NULL, 10)), m,
			      src, off + (uint32_t)(b - v), b, 12 + strspn(b + 12, "0123456789"));
	}
}

static void metadata_claims(sl_ctx *c)
{
	const sl_source *src = c->entry->metadata;
	if (!src)
		return;
	for (unsigned ln = 1; ln <= src->nlines; ln++) {
		size_t len;
		const char *line = sl_source_line(src, ln + src->line_base, &len);
		uint32_t base = (uint32_t)(line - src->text);
		if (len > 13 && !strncmp(line, "Submitted by ", 13)) {
			claim(c, "submitter", NULL, json_stringn(line + 13, len - 13), "metadata", src,
			      base + 13, line + 13, len - 13);
			continue;
		}
		if (len < 7 || strncmp(line, "System", 6))
			continue;
		/* field boundaries */
		char *l = sl_strndup(line, len);
		size_t pos[64], lens[64];
		const char *names[64];
		size_t nf = 0;
		for (size_t i = 0; i < len && nf < 64; i++) {
			size_t ll;
			const char *lab = label_at(l, l + i, &ll);
			if (lab) {
				pos[nf] = i;
				lens[nf] = ll;
				names[nf++] = lab;
				i += ll - 1;
			}
		}
		size_t nspec = 0;
		for (size_t f = 0; f < nf; f++)
			nspec += !strcmp(names[f], "Speculative decoding");
		const char *role = NULL;
		for (size_t f = 0; f < nf; f++) {
			size_t a = pos[f] + lens[f], b = f + 1 < nf ? pos[f + 1] : len;
			if (!strcmp(names[f], "Prefill"))
				role = "prefill";
			else if (!strcmp(names[f], "Decode") && memchr(l + a, 0xc3, b - a))
				role = "decode";
			/* two spec fields: one per role; one: the whole entry */
			metadata_field(c, names[f], role, nspec > 1, src, base + (uint32_t)a, line + a, b - a);
		}
		free(l);
	}
}

/* ---- header comments ---------------------------------------------------------- */

static const char *const engines[][2] = {
	{"vLLM ", "engine.version"}, {"SGLang ", "engine.version"},
	{"TensorRT-LLM ", "engine.version"}, {"Dynamo ", "dynamo.version"},
	{"ai-dynamo ", "dynamo.version"},
};

static const char *precisions[] = {"MXFP4", "NVFP4", "FP8", "FP4", "BF16", "FP16", "INT4", NULL};

/* A flag named in prose: "--max-num-seqs 64", "--numa-bind". */
static size_t prose_flag(sl_ctx *c, const sl_grammar *g, const char *role, const sl_source *src,
			 uint32_t off, const char *p)
{
	size_t n = 2;
	while (isalnum((unsigned char)p[n]) || p[n] == '-' || p[n] == '_')
		n++;
	if (n <= 3 || p[n] == '*')
		return n;
	char *name = sl_strndup(p, n);
	sl_flag_match m;
	if (!g || !sl_grammar_match(c->gs, g, name, &m)) {
		free(name);
		return n;
	}
	const sl_flag *f = m.flag;
	json_t *v = NULL;
	size_t used = n;
	if (f->type == SL_T_BOOL) {
		v = json_boolean(!m.negated);
	} else if (p[n] == ' ' && (f->type == SL_T_INT || f->type == SL_T_HUMAN_INT ||
				   f->type == SL_T_FLOAT || f->type == SL_T_STRING)) {
		const char *q = p + n + 1;
		size_t l = 0;
		while (isalnum((unsigned char)q[l]) || q[l] == '.' || q[l] == '_' || q[l] == '-')
			l++;
		while (l && (q[l - 1] == '.' || q[l - 1] == '-'))
			l--;
		char *val = sl_strndup(q, l);
		long long i;
		double d;
		if (l && (f->type == SL_T_INT || f->type == SL_T_HUMAN_INT) && !sl_parse_int(val, &i))
			v = json_integer(i);
		else if (l && f->type == SL_T_FLOAT && !sl_parse_double(val, &d))
			v = json_real(d);
		else if (l && f->type == SL_T_STRING && isalnum((unsigned char)val[0]) && !sl_prose_word(val, l))
			v = json_string(val);
		if (v)
			used = n + 1 + l;
		free(val);
	}
	if (v)
		claim(c, f->key, role, v, "comment", src, off, p, used);
	free(name);
	return used;
}

/* Role context carried from line to line of one comment block: a
 * parenthesis opened after "1x generation worker (" may close lines later. */
typedef struct {
	const char *role;
	int depth, role_depth;
	const sl_comment *lines;  /* the block's lines before this one (speculation named there?) */
	size_t nlines;
} prose_state;

static int spec_before(const prose_state *ps)
{
	for (size_t i = 0; i < ps->nlines; i++)
		if (sl_prose_spec_words(ps->lines[i].text, ps->lines[i].text + strlen(ps->lines[i].text)))
			return 1;
	return 0;
}

static void comment_claims(sl_ctx *c, const sl_comment *cm, const char *line_role,
			   const sl_grammar *g, prose_state *ps)
{
	const char *t = cm->text;
	const sl_source *src = c->entry->script;
	uint32_t base = cm->start + 1;
	const char *role = line_role ? line_role : ps->role;
	int depth = line_role ? 0 : ps->depth, role_depth = line_role ? -1 : ps->role_depth;
	for (const char *p = t; *p; p++) {
		uint32_t off = base + (uint32_t)(p - t);
		if (*p == '(')
			depth++;
		if (*p == ')' && depth > 0) {
			depth--;
			if (role_depth > depth && !line_role) {
				role = NULL;
				role_depth = -1;
			}
		}
		/* at the top level, a comma, '+' or the end of a sentence ends what
		 * a role word began */
		int stop = *p == ',' || *p == '+' || *p == ';' ||
			   (*p == '.' && (p[1] == ' ' || p[1] == '\0'));
		if (stop && depth <= role_depth && !line_role) {
			role = NULL;
			role_depth = -1;
		}
		/* every shape starts with a letter, a digit or "--" */
		if (!isalnum((unsigned char)*p) && *p != '-')
			continue;
		size_t rl;
		const char *r = word_start(t, p) ? role_word(p, &rl) : NULL;
		/* "context length" is not a role */
		if (r && strncmp(p + rl, " length", 7) != 0) {
			/* "2 x prefill", "6x context workers", "3x independent decode" */
			const char *b = p;
			while (b > t && b[-1] == ' ')
				b--;
			const char *w = b;
			int words = 0;
			while (w > t && words < 2 && !(w[-1] == 'x' || w[-1] == 'X')) {
				const char *ws = w;
				while (ws > t && isalpha((unsigned char)ws[-1]))
					ws--;
				if (ws == w || ws == t)
					break;
				w = ws;
				while (w > t && w[-1] == ' ')
					w--;
				words++;
			}
			if (w > t && w[-1] == 'x') {
				const char *d = w - 1;
				while (d > t && d[-1] == ' ')
					d--;
				const char *ds = d;
				while (ds > t && isdigit((unsigned char)ds[-1]))
					ds--;
				if (ds < d && word_start(t, ds))
					claim(c, "replicas", r, json_integer(strtol(ds, NULL, 10)), "comment", src,
					      base + (uint32_t)(ds - t), ds, (size_t)(p + rl - ds));
			} else if (!strncmp(p + rl, " x", 2) && isdigit((unsigned char)p[rl + 2])) {
				/* "prefill x2" */
				claim(c, "replicas", r, json_integer(strtol(p + rl + 2, NULL, 10)), "comment",
				      src, off, p, rl + 2 + strspn(p + rl + 2, "0123456789"));
			}
			if (!line_role) {
				role = r;
				role_depth = depth;
			}
			p += rl - 1;
			continue;
		}
		if (!word_start(t, p) && p[-1] != '-')
			continue;
		size_t ml = multi_node_words(t, p);
		if (ml) {
			claim(c, "deploy.multi_node", role, json_true(), "comment", src, off, p, ml);
			p += ml - 1;
			continue;
		}
		const char *mode;
		size_t rt = sl_route_claim(t, p, &mode);
		if (rt) {  /* of the router, whichever role the sentence speaks of */
			claim(c, "router.mode", NULL, json_string(mode), "comment", src, off, p, rt);
			p += rt - 1;
			continue;
		}
		/* "MTP3", "num draft tokens: 2", "at concurrency 384", "batch 64 per rank" */
		const char *ck;
		long cv;
		size_t cn = sl_count_claim(t, p, ps->nlines ? ps->lines[ps->nlines - 1].text : NULL, &ck, &cv);
		if (cn) {
			claim(c, ck, role, json_integer(cv), "comment", src, off, p, cn);
			p += cn - 1;
			continue;
		}
		const char *k1, *k2;
		long num;
		size_t l = parallel_token(t, p, &k1, &k2, &num);
		if (l) {
			claim(c, k1, role, json_integer(num), "comment", src, off, p, l);
			if (k2)
				claim(c, k2, role, json_integer(num), "comment", src, off, p, l);
			p += l - 1;
			continue;
		}
		if (*p == '-' && p[1] == '-' && isalpha((unsigned char)p[2])) {
			p += prose_flag(c, g, role, src, off, p) - 1;
			continue;
		}
		/* "max-num-seqs 256": a flag's name without its dashes, with a
		 * number after it, when the engine knows the flag */
		if (islower((unsigned char)*p) && g) {
			size_t wl = 0;
			int dashes = 0;
			while (islower((unsigned char)p[wl]) || isdigit((unsigned char)p[wl]) || p[wl] == '-')
				dashes += p[wl++] == '-';
			if (dashes >= 2 && p[wl] == ' ' && isdigit((unsigned char)p[wl + 1])) {
				sl_buf fl = {0};
				sl_buf_printf(&fl, "--%.*s%s", (int)wl, p, p + wl);
				size_t used = prose_flag(c, g, role, src, off, fl.data);
				sl_buf_free(&fl);
				if (used > wl + 2) {
					/* the claim's text is the flag as given: drop the dashes */
					sl_claim *k = &c->model->claims[c->model->nclaims - 1];
					free(k->text);
					k->text = sl_strndup(p, used - 2);
				}
				p += wl - 1;
				continue;
			}
		}
		json_t *dev;
		size_t dl = device_range(t, p, &dev);
		if (dl) {
			claim(c, "gpus.devices", role, dev, "comment", src, off, p, dl);
			p += dl - 1;
			continue;
		}
		if (isdigit((unsigned char)*p)) {
			char *end;
			long v = strtol(p, &end, 10);
			if (!strncmp(end, " GPUs", 5) || !strncmp(end, " GPU ", 5) || !strncmp(end, " GPU)", 5) ||
			    !strncmp(end, " GPU,", 5)) {
				/* "2 of the node's 8 GPUs": the first number is used */
				size_t gl = (size_t)(end - p) + (end[4] == 's' ? 5 : 4);
				int each = !strncmp(end + gl - (size_t)(end - p), " each", 5);
				claim(c, role ? "gpus" : "gpus.total", role, json_integer(v), "comment", src, off, p,
				      gl + (each ? 5 : 0));
				p = end - 1;
				continue;
			}
			if (!strncmp(end, " of the node's ", 15) || !strncmp(end, " of a tray's ", 13) ||
			    !strncmp(end, " of one ", 8)) {
				const char *q = end + 4;
				while (*q && !isdigit((unsigned char)*q) && q - end < 40)
					q++;
				char *e2;
				long of = strtol(q, &e2, 10);
				if (!strncmp(e2, " GPUs", 5)) {
					/* of a node (8) or of a tray (4): not the rack total of
					 * the metadata's "Accelerators used N of M" */
					const char *ofk = !strncmp(end, " of the node's ", 15) ? "gpus.of_node"
												 : "gpus.of_tray";
					claim(c, "gpus.total", role, json_integer(v), "comment", src, off, p,
					      (size_t)(e2 + 5 - p));
					claim(c, ofk, role, json_integer(of), "comment", src, off, p,
					      (size_t)(e2 + 5 - p));
					p = e2 + 4;
					continue;
				}
			}
			/* "2,646,059 tokens": part of a larger number, not a count */
			if ((p - t >= 2 && p[-1] == ',' && isdigit((unsigned char)p[-2])) ||
			    (*end == ',' && strspn(end + 1, "0123456789") == 3)) {
				/* the number may end the text: never read past its end */
				p = *end ? end + strspn(end + 1, "0123456789,") : end - 1;
				continue;
			}
			if (!strncmp(end, " draft token", 12) || !strncmp(end, " speculative token", 18) ||
			    (!strncmp(end, " tokens", 7) && sl_prose_draft_count(t, p, end, spec_before(ps)))) {
				size_t wl = strcspn(end + 1, ",;)");
				claim(c, "spec.num_tokens", role, json_integer(v), "comment", src, off, p,
				      (size_t)(end + 1 + wl - p));
			}
			p = end - 1;
			continue;
		}
		if (*p == 'b' && !strncmp(p, "block size ", 11) && isdigit((unsigned char)p[11])) {
			/* speculative when said of DSpark / a draft; else the KV block size */
			const char *open = p;
			while (open > t && *open != '(')
				open--;
			int spec = 0;
			for (const char *q = open > t + 24 ? open - 24 : t; q < p; q++)
				spec |= !strncasecmp(q, "dspark", 6) || !strncmp(q, "decoding", 8) ||
					!strncmp(q, "draft", 5);
			claim(c, spec ? "spec.block_size" : "kv.block_size", role,
			      json_integer(strtol(p + 11, NULL, 10)), "comment", src, off, p,
			      11 + strspn(p + 11, "0123456789"));
			p += 10;
			continue;
		}
		if (*p == 'a' && !strncmp(p, "adaptive verification", 21)) {
			int no = p - t >= 3 && !strncmp(p - 3, "no ", 3);
			int off_ = !strncmp(p + 21, " off", 4);
			int on = !strncmp(p + 21, " on", 3);
			claim(c, "spec.enable_adaptive_verification", role, json_boolean(!(no || off_)),
			      "comment", src, off - (no ? 3 : 0), p - (no ? 3 : 0),
			      21 + (off_ ? 4 : on ? 3 : 0) + (no ? 3 : 0));
			p += 20;
			continue;
		}
		for (size_t e = 0; e < sizeof engines / sizeof *engines; e++) {
			if (engines[e][0][0] != *p)
				continue;
			size_t el = strlen(engines[e][0]);
			if (strncmp(p, engines[e][0], el) || !isdigit((unsigned char)p[el]))
				continue;
			const char *q = p + el;
			size_t vl = 0;
			while (isalnum((unsigned char)q[vl]) || q[vl] == '.' || q[vl] == '+')
				vl++;
			while (vl && q[vl - 1] == '.')
				vl--;
			if (memchr(q, '.', vl))
				claim(c, engines[e][1], role, json_stringn(q, vl), "comment", src, off, p,
				      el + vl);
			p = q + vl - 1;
			break;
		}
		/* "DSpark speculative decoding", "no speculative decoding" */
		if (*p == 'n' && !strncmp(p, "no speculative decoding", 23)) {
			claim(c, "spec.method", role, json_string("none"), "comment", src, off, p, 23);
			p += 22;
			continue;
		}
		if (isupper((unsigned char)p[0])) {
			size_t ml = 0;
			while (isalnum((unsigned char)p[ml]) || p[ml] == '-')
				ml++;
			if (ml && !strncmp(p + ml, " speculative decoding", 21) && isupper((unsigned char)p[0])) {
				char *meth = sl_strndup(p, ml);
				for (char *q = meth; *q; q++)
					*q = (char)tolower((unsigned char)*q);
				claim(c, "spec.method", role, json_string(meth), "comment", src, off, p, ml + 21);
				free(meth);
				p += ml + 20;
				continue;
			}
		}
		/* "Weights: org/name @ dba1be0a": the revision of the weights, a
		 * commit hash (held across a catalogue's entries by SL7004) */
		if (*p == 'W' && !strncmp(p, "Weights: ", 9)) {
			const char *q = p + 9;
			size_t nl = strcspn(q, " @");
			const char *at = q + nl;
			while (*at == ' ')
				at++;
			if (nl && memchr(q, '/', nl) && *at == '@') {
				const char *h = at + 1;
				while (*h == ' ')
					h++;
				size_t hl = strspn(h, "0123456789abcdef");
				if (hl >= 7 && !isalnum((unsigned char)h[hl]))
					claim(c, "model.revision", NULL, json_stringn(h, hl), "comment", src,
					      base + (uint32_t)(h - t), h, hl);
			}
			p += 8;
			continue;
		}
		if (p > t && p[-1] == '(') {
			for (size_t k = 0; precisions[k]; k++) {
				size_t pl = strlen(precisions[k]);
				if (!strncmp(p, precisions[k], pl) && p[pl] == ')')
					claim(c, "precision", NULL, json_string(precisions[k]), "comment", src, off,
					      p, pl);
			}
		}
		/* every shape starts a word: skip the rest of this one */
		if (isalnum((unsigned char)*p))
			while (isalnum((unsigned char)p[1]))
				p++;
	}
	if (!line_role) {
		/* a sentence may go on on the next line: the role stays until a
		 * comma, '+' or ';' at its level, or its parenthesis closes */
		ps->role = role;
		ps->depth = depth;
		ps->role_depth = role_depth;
	}
}

void sl_extract_claims(sl_ctx *c, const sl_script *sc)
{
	metadata_claims(c);
	/* flags named in prose are read with the first engine's grammar */
	const sl_grammar *g = NULL;
	for (size_t i = 0; i < c->model->nservices && !g; i++) {
		const sl_grammar *sg = sl_grammar_find(c->gs, c->model->services[i].engine);
		if (sg && !strcmp(sg->kind, "engine"))
			g = sg;
	}
	uint32_t first = sl_prose_first_statement(sc);
	for (size_t b = 0; b < sc->nblocks; b++) {
		const sl_comment_block *bl = &sc->blocks[b];
		if (!sl_prose_block_speaks(c, sc, b, first))
			continue;
		size_t first_claim = c->model->nclaims;
		prose_state ps = {NULL, 0, -1, &sc->comments[bl->first], 0};
		/* a header right above a command speaks of that command's role */
		const char *line_role = NULL;
		for (size_t k = 0; k < bl->count; k++) {
			const sl_comment *cm = &sc->comments[bl->first + k];
			/* env listings are not prose */
			const char *t = cm->text;
			while (*t == ' ')
				t++;
			if (isupper((unsigned char)*t) && strchr(t, '=') &&
			    strspn(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == (size_t)(strchr(t, '=') - t))
				continue;
			/* nor is a command kept in a comment (an alternative, an upstream reference) */
			if (sl_prose_command_line(t))
				continue;
			if (bl->attached && k == bl->count - 1 && bl->count <= 2) {
				size_t rl;
				for (const char *p = cm->text; *p && !line_role; p++)
					if (word_start(cm->text, p))
						line_role = role_word(p, &rl);
			}
			ps.nlines = k;
			comment_claims(c, cm, bl->attached && bl->count <= 2 ? line_role : NULL, g, &ps);
		}
		sl_prose_drop_alternatives(c, first_claim);
	}
}
