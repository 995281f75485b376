/*
 * prose.c: telling the claims of a script's comments from its prose.
 *
 * Benchmark harnesses carry long comments: why a value was chosen, what was
 * measured, tables of the layouts a sweep tries, the upstream command a
 * script departs from. Only the header and the comments right above a
 * service's command describe the deployment; inside those, a command kept
 * as a comment and a list of alternatives describe something else.
 *
 * Used by claims.c; uses nothing else of this stage.
 */
#include "prose.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

uint32_t sl_prose_first_statement(const sl_script *sc)
{
	uint32_t first = UINT32_MAX;
	for (size_t i = 0; i < sc->ncmds; i++)
		if (sc->cmds[i].head < first)
			first = sc->cmds[i].head;
	for (size_t i = 0; i < sc->nassigns; i++)
		if (sc->assigns[i].start < first)
			first = sc->assigns[i].start;
	return first;
}

int sl_prose_block_speaks(const sl_ctx *c, const sl_script *sc, size_t b, uint32_t first)
{
	const sl_comment_block *bl = &sc->blocks[b];
	if (sc->comments[bl->first].start < first)
		return 1;
	for (size_t i = 0; i < c->model->nservices; i++)
		if (c->svc_cmd && sc->cmds[c->svc_cmd[i]].block == (int)b)
			return 1;
	return 0;
}

static int is_flag(const char *w, size_t l)
{
	return l > 2 && w[0] == '-' && w[1] == '-' && isalpha((unsigned char)w[2]);
}

int sl_prose_command_line(const char *t)
{
	static const char *const heads[] = {"vllm serve ", "sglang serve ", "trtllm-serve ", "python3 -m ",
					    "python -m ", "docker run ", "mpirun ", "srun ", "exec ", NULL};
	/* a launcher word and a flag after it: "mpirun ... per the recipe" is prose */
	for (size_t i = 0; heads[i]; i++)
		if (!strncmp(t, heads[i], strlen(heads[i])) && strstr(t, " --"))
			return 1;
	size_t n = strlen(t);
	while (n && (t[n - 1] == ' ' || t[n - 1] == '\r'))
		n--;
	if (n >= 2 && t[n - 1] == '\\' && t[n - 2] == ' ')
		return 1;
	/* `--a --b v --c v`: every word a flag or the one value after a flag */
	if (!is_flag(t, strcspn(t, " ")))
		return 0;
	int after_flag = 0;
	for (const char *p = t; *p;) {
		while (*p == ' ')
			p++;
		size_t l = strcspn(p, " ");
		if (!l)
			break;
		if (is_flag(p, l))
			after_flag = 1;
		else if (after_flag)
			after_flag = 0;
		else
			return 0;
		p += l;
	}
	return 1;
}

int sl_prose_spec_words(const char *a, const char *b)
{
	static const char *const words[] = {"speculat", "draft", "DSpark", "dspark", "MTP", "mtp",
					    "EAGLE", "Eagle", "eagle", NULL};
	for (const char *q = a; q < b; q++) {
		if (!memchr("sdDMmEe", *q, 7))  /* the words' first letters: a cheap test first */
			continue;
		for (size_t i = 0; words[i]; i++)
			if (!strncmp(q, words[i], strlen(words[i])))
				return 1;
	}
	return 0;
}

/* a word of [a, b) that names a token count other than the drafts' */
static int other_count_word(const char *a, const char *b)
{
	static const char *const w[] = {"ISL", "OSL", "isl", "osl", "input", "output", "prompt", "context",
					"model-len", "model_len", "length", "len", "chunk", "chunks", "chunked",
					"prefill", "batch", "batched", "budget", "KV", "kv", "cache", "window",
					"throughput", "total", "seqs", "sequences", "requests", "generated", NULL};
	for (const char *q = a; q < b; q++) {
		if (!isalpha((unsigned char)*q) || (q > a && isalnum((unsigned char)q[-1])))
			continue;
		for (size_t i = 0; w[i]; i++) {
			size_t l = strlen(w[i]);
			if (q + l <= b && !strncmp(q, w[i], l) && !isalpha((unsigned char)q[l]))
				return 1;
		}
	}
	return 0;
}

int sl_prose_draft_count(const char *t, const char *p, const char *end, int earlier)
{
	/* a draft count is small: the engines' recipes draft 1 to 16 tokens and
	 * SGLang's EAGLE trees verify up to 64; larger is a length or a budget */
	long v = strtol(p, NULL, 10);
	if (v < 1 || v > 64)
		return 0;
	/* part of a ratio, a range or an expression: "1024/1024", "1..4",
	 * "2-4", "~3", "num_seqs * 3 tokens", "= 42 tokens" */
	const char *b = p;
	if (b > t && strchr("/.-~_", b[-1]))
		return 0;
	while (b > t && b[-1] == ' ')
		b--;
	if (b > t && strchr("*=+<>/x", b[-1]) && (b[-1] != 'x' || b - 1 == t || b[-2] == ' '))
		return 0;
	/* what follows: a rate ("tokens/s"), a share ("tokens/rank"), a length
	 * ("tokens of context", "tokens long") */
	const char *a = end + 7;  /* past " tokens" */
	if (*a == '/' && strncmp(a, "/step", 5))
		return 0;
	static const char *const after[] = {" of ", " in ", " long", " context", " total", " per second",
					    " per sec", " per rank", " per GPU", " per batch", " per request",
					    " KV", " input", " output", " prompt", NULL};
	for (size_t i = 0; after[i]; i++)
		if (!strncmp(a, after[i], strlen(after[i])))
			return 0;
	/* the sentence, and the clause the number is in */
	const char *s = p, *cl = p;
	while (s > t && s[-1] != ';' && !(s[-1] == '.' && s[0] == ' '))
		s--;
	while (cl > s && !strchr(",(:", cl[-1]))
		cl--;
	if (other_count_word(cl, p))
		return 0;
	if (sl_prose_spec_words(p - s > 80 ? p - 80 : s, p))
		return 1;
	/* speculation named earlier: the number opens its clause ("(5 tokens, ...") */
	if (!earlier)
		return 0;
	while (cl < p && *cl == ' ')
		cl++;
	return cl == p;
}

int sl_prose_word(const char *v, size_t l)
{
	static const char *const w[] = {"a", "an", "and", "are", "as", "at", "be", "by", "for", "from",
					"in", "is", "it", "not", "of", "on", "or", "so", "than", "that",
					"the", "then", "this", "to", "was", "when", "which", "while",
					"with", "without", "would", "only", "here", "there", "flag", "value",
					"also", "too", "alone", "itself", NULL};
	for (size_t i = 0; w[i]; i++)
		if (strlen(w[i]) == l && !strncmp(v, w[i], l))
			return 1;
	return 0;
}

static int same_role(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

void sl_prose_drop_alternatives(sl_ctx *c, size_t first)
{
	sl_model *m = c->model;
	int alternatives = 0;
	for (size_t i = first; i < m->nclaims && !alternatives; i++) {
		if (strncmp(m->claims[i].key, "parallel.", 9))
			continue;
		for (size_t j = i + 1; j < m->nclaims && !alternatives; j++)
			alternatives = !strcmp(m->claims[i].key, m->claims[j].key) &&
				       same_role(m->claims[i].role, m->claims[j].role) &&
				       !json_equal(m->claims[i].value, m->claims[j].value);
	}
	if (!alternatives)
		return;
	size_t k = first;
	for (size_t i = first; i < m->nclaims; i++) {
		sl_claim *cl = &m->claims[i];
		if (strncmp(cl->key, "parallel.", 9)) {
			m->claims[k++] = *cl;
			continue;
		}
		free(cl->key);
		free(cl->role);
		free(cl->text);
		json_decref(cl->value);
		sl_origin_clear(&cl->origin);
	}
	m->nclaims = k;
}
