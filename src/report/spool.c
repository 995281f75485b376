/*
 * spool.c (report): findings put aside as they are made and written back
 * in file order (sl_findings_spool, report.h). audit held every finding of
 * a catalogue until its report was sorted and written: 1,000 bytes and
 * more an entry where most entries have one (a catalogue of copies: each
 * a duplicate, SL7006), with copies of the lines they point at (issue 18:
 * peak memory flat in the catalogue's size). Here each finding is its
 * terminal text made at once, with the key sl_findings_sort orders by
 * (file, line, column, rule, then the order they came in); records are
 * sorted in memory SL_SPOOL_RUN bytes at a time, each sorted run put in
 * the store (util's sl_store, a temporary file), and the runs are merged
 * when the report is written (an external sort), at most SL_SPOOL_FANIN
 * at a time. What the report's totals and footer count is counted as the
 * findings come (sl_findings_tally).
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

/* A record: this header, the file's name (flen bytes), the rule's id
 * (rlen bytes), then the finding's tty text (to len). Copied in and out
 * with memcpy: records lie at any offset. */
typedef struct {
	uint32_t len;          /* the whole record's */
	uint32_t line, col;
	uint32_t flen, rlen;
	uint32_t sev;
	uint32_t flags;        /* R_SUPPRESSED, R_FIX */
	uint32_t pad;
	uint64_t seq;          /* its place in the order findings came in (sl_findings_spool_take) */
	uint64_t unchecked, unread_files;
	const sl_rule *rule;
} rec;

enum { R_SUPPRESSED = 1, R_FIX = 2 };

typedef struct {
	uint64_t at, len;      /* a sorted run's bytes in the store */
} run;

struct sl_findings_spool {
	sl_store *st;           /* not owned */
	const sl_rules *rules;  /* not owned */
	sl_buf cur;             /* the records of the run being gathered */
	size_t *offs, noffs, ocap;  /* each record's offset in cur */
	run *runs;
	size_t nruns, rcap;
	uint64_t next;          /* the next record's seq */
	int err;
	sl_findings_tally t;
};

void sl_findings_spool_render(sl_buf *pending, const sl_finding *f, int color)
{
	char *text = NULL;
	size_t tlen = 0;
	if (!f->suppressed) {  /* a suppressed finding is only counted */
		FILE *m = open_memstream(&text, &tlen);
		if (!m) {  /* open_memstream fails only out of memory: as sl_malloc */
			fputs("servelint: out of memory\n", stderr);
			abort();
		}
		sl_report_finding_tty(m, f, color);
		fclose(m);
	}
	const char *file = sl_finding_file(f), *rid = sl_rule_id(f->rule);
	rec h;
	memset(&h, 0, sizeof h);
	h.flen = (uint32_t)strlen(file);
	h.rlen = (uint32_t)strlen(rid);
	h.len = (uint32_t)(sizeof h + h.flen + h.rlen + tlen);
	sl_finding_pos(f, &h.line, &h.col);
	h.sev = (uint32_t)f->severity;
	h.flags = (f->suppressed ? R_SUPPRESSED : 0) | (f->fix ? R_FIX : 0);
	h.unchecked = f->unchecked;
	h.unread_files = f->unread_files;
	h.rule = f->rule;
	sl_buf_add(pending, (const char *)&h, sizeof h);
	sl_buf_add(pending, file, h.flen);
	sl_buf_add(pending, rid, h.rlen);
	if (tlen)
		sl_buf_add(pending, text, tlen);
	free(text);
}

sl_findings_spool *sl_findings_spool_new(sl_store *st, const sl_rules *rules)
{
	sl_findings_spool *s = sl_calloc(1, sizeof *s);
	s->st = st;
	s->rules = rules;
	s->t.by_rule = sl_calloc(sl_rules_count(rules) + 1, sizeof *s->t.by_rule);
	/* a run's records and a little more: the buffer is not doubled for
	 * the record that crosses SL_SPOOL_RUN */
	s->cur.cap = SL_SPOOL_RUN + SL_SPOOL_READ;
	s->cur.data = sl_malloc(s->cur.cap);
	s->cur.data[0] = 0;
	return s;
}

static int cmp_rec(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	rec hx, hy;
	memcpy(&hx, x, sizeof hx);
	memcpy(&hy, y, sizeof hy);
	/* as strcmp: bytes unsigned, a prefix first */
	int k = memcmp(x + sizeof hx, y + sizeof hy, hx.flen < hy.flen ? hx.flen : hy.flen);
	if (k || hx.flen != hy.flen)
		return k ? k : hx.flen < hy.flen ? -1 : 1;
	if (hx.line != hy.line)
		return hx.line < hy.line ? -1 : 1;
	if (hx.col != hy.col)
		return hx.col < hy.col ? -1 : 1;
	k = memcmp(x + sizeof hx + hx.flen, y + sizeof hy + hy.flen, hx.rlen < hy.rlen ? hx.rlen : hy.rlen);
	if (k || hx.rlen != hy.rlen)
		return k ? k : hx.rlen < hy.rlen ? -1 : 1;
	return hx.seq < hy.seq ? -1 : hx.seq > hy.seq;
}

/* The gathered records sorted and put in the store as one run (one put:
 * audit -j's threads put summaries in the same store meanwhile). */
static void flush_run(sl_findings_spool *s)
{
	if (!s->noffs)
		return;
	const char **v = sl_calloc(s->noffs, sizeof *v);
	for (size_t i = 0; i < s->noffs; i++)
		v[i] = s->cur.data + s->offs[i];
	qsort(v, s->noffs, sizeof *v, cmp_rec);
	char *out = sl_malloc(s->cur.len);
	size_t n = 0;
	for (size_t i = 0; i < s->noffs; i++) {
		rec h;
		memcpy(&h, v[i], sizeof h);
		memcpy(out + n, v[i], h.len);
		n += h.len;
	}
	run r = {0, n};
	if (sl_store_put(s->st, out, n, &r.at))
		s->err = 1;
	SL_PUSH(s->runs, s->nruns, s->rcap, r);
	free(out);
	free(v);
	s->cur.len = 0;
	s->noffs = 0;
}

static size_t rule_index(const sl_findings_spool *s, const sl_rule *r)
{
	size_t n = sl_rules_count(s->rules);
	for (size_t i = 0; i < n; i++)
		if (sl_rules_at(s->rules, i) == r)
			return i;
	return n;
}

void sl_findings_spool_take(sl_findings_spool *s, const char *pending, size_t len)
{
	for (size_t at = 0; at + sizeof(rec) <= len;) {
		rec h;
		memcpy(&h, pending + at, sizeof h);
		sl_findings_tally *t = &s->t;
		t->all++;
		if (h.flags & R_SUPPRESSED) {
			t->suppressed++;
		} else {
			t->sev[h.sev]++;
			t->catalogue += sl_rule_is_catalogue(h.rule) != 0;
			t->fixable += (h.flags & R_FIX) != 0;
			t->failing += !sl_rule_advisory(h.rule);
			t->unchecked += h.unchecked;
			t->unread_files += h.unread_files;
			t->by_rule[rule_index(s, h.rule)]++;
			h.seq = s->next++;
			SL_PUSH(s->offs, s->noffs, s->ocap, s->cur.len);
			sl_buf_add(&s->cur, (const char *)&h, sizeof h);
			sl_buf_add(&s->cur, pending + at + sizeof h, h.len - sizeof h);
			if (s->cur.len >= SL_SPOOL_RUN)
				flush_run(s);
		}
		at += h.len;
	}
}

/* ---- merging the runs --------------------------------------------------------- */

/* A run read in order, SL_SPOOL_READ bytes at a time */
typedef struct {
	sl_store *st;
	uint64_t at, end;   /* what is left to read of the run */
	char *buf;          /* the bytes read, [lo, hi) not yet taken */
	size_t lo, hi, cap;
} cursor;

/* The next record of c at c->buf + c->lo, whole: 1; 0 at the run's end;
 * -1 when the store cannot be read */
static int cursor_fill(cursor *c)
{
	size_t have = c->hi - c->lo;
	rec h;
	size_t need = sizeof h;
	if (have >= sizeof h) {
		memcpy(&h, c->buf + c->lo, sizeof h);
		need = h.len;
	}
	if (have >= need)
		return 1;
	if (!have && c->at == c->end)
		return 0;
	if (have)
		memmove(c->buf, c->buf + c->lo, have);
	c->lo = 0;
	c->hi = have;
	while (c->hi < need) {
		if (c->at == c->end)
			return -1;  /* a record cut short: the store was not what was put */
		size_t want = SL_SPOOL_READ > need - c->hi ? SL_SPOOL_READ : need - c->hi;
		if (want > c->end - c->at)
			want = (size_t)(c->end - c->at);
		if (c->hi + want > c->cap) {
			c->cap = c->hi + want;
			c->buf = sl_realloc(c->buf, c->cap);
		}
		char *t = sl_store_get(c->st, c->at, want);
		if (!t)
			return -1;
		memcpy(c->buf + c->hi, t, want);
		free(t);
		c->hi += want;
		c->at += want;
		if (need == sizeof h && c->hi >= sizeof h) {
			memcpy(&h, c->buf, sizeof h);
			need = h.len;
		}
	}
	return 1;
}

/* Merges runs [0, n) of v, each record handed to emit in order; 0, or -1
 * when the store cannot be read or emit fails */
static int merge(sl_store *st, const run *v, size_t n, int (*emit)(void *ud, const char *r, size_t len), void *ud)
{
	cursor *c = sl_calloc(n + 1, sizeof *c);
	int rc = 0;
	size_t live = 0;
	for (size_t i = 0; i < n; i++) {
		c[i] = (cursor){st, v[i].at, v[i].at + v[i].len, NULL, 0, 0, 0};
		int k = cursor_fill(&c[i]);
		rc |= k < 0;
		live += k > 0;
	}
	/* the least of the runs' next records, by a scan of at most
	 * SL_SPOOL_FANIN: simpler than a heap for so few */
	while (!rc && live) {
		size_t best = n;
		for (size_t i = 0; i < n; i++) {
			if (c[i].lo == c[i].hi)
				continue;
			if (best == n) {
				best = i;
				continue;
			}
			const char *x = c[i].buf + c[i].lo, *y = c[best].buf + c[best].lo;
			if (cmp_rec(&x, &y) < 0)
				best = i;
		}
		rec h;
		memcpy(&h, c[best].buf + c[best].lo, sizeof h);
		if (emit(ud, c[best].buf + c[best].lo, h.len))
			rc = -1;
		c[best].lo += h.len;
		int k = cursor_fill(&c[best]);
		if (k < 0)
			rc = -1;
		else if (!k)
			live--;
	}
	for (size_t i = 0; i < n; i++)
		free(c[i].buf);
	free(c);
	return rc;
}

/* a merge pass's output: a new run, put in the store in pieces (nothing
 * else puts into it while the spool finishes) */
typedef struct {
	sl_store *st;
	sl_buf out;
	run r;
	int started, err;
} run_writer;

static int writer_flush(run_writer *w)
{
	if (!w->out.len)
		return 0;
	uint64_t at;
	if (sl_store_put(w->st, w->out.data, w->out.len, &at))
		w->err = 1;
	if (!w->started)
		w->r.at = at;
	w->started = 1;
	w->r.len += w->out.len;
	w->out.len = 0;
	return w->err ? -1 : 0;
}

static int to_run(void *ud, const char *r, size_t len)
{
	run_writer *w = ud;
	sl_buf_add(&w->out, r, len);
	return w->out.len >= SL_SPOOL_READ * 4 ? writer_flush(w) : 0;
}

int sl_findings_spool_finish(sl_findings_spool *s)
{
	flush_run(s);
	sl_buf_free(&s->cur);
	free(s->offs);
	s->offs = NULL;
	s->noffs = s->ocap = 0;
	/* runs merged SL_SPOOL_FANIN at a time into longer runs, until one
	 * merge writes them all */
	while (!s->err && s->nruns > SL_SPOOL_FANIN) {
		run *next = NULL;
		size_t nn = 0, ncap = 0;
		for (size_t i = 0; i < s->nruns && !s->err; i += SL_SPOOL_FANIN) {
			size_t k = s->nruns - i < SL_SPOOL_FANIN ? s->nruns - i : SL_SPOOL_FANIN;
			run_writer w = {s->st, {0}, {0, 0}, 0, 0};
			if (merge(s->st, s->runs + i, k, to_run, &w) || writer_flush(&w))
				s->err = 1;
			sl_buf_free(&w.out);
			SL_PUSH(next, nn, ncap, w.r);
		}
		free(s->runs);
		s->runs = next;
		s->nruns = nn;
		s->rcap = ncap;
	}
	return s->err || sl_store_error(s->st) ? -1 : 0;
}

const sl_findings_tally *sl_findings_spool_tally(const sl_findings_spool *s)
{
	return &s->t;
}

static int to_file(void *ud, const char *r, size_t len)
{
	rec h;
	memcpy(&h, r, sizeof h);
	size_t skip = sizeof h + h.flen + h.rlen;
	return fwrite(r + skip, 1, len - skip, ud) == len - skip ? 0 : -1;
}

int sl_findings_spool_write(FILE *out, sl_findings_spool *s)
{
	if (merge(s->st, s->runs, s->nruns, to_file, out))
		return -1;
	const sl_findings_tally *t = &s->t;
	size_t shown = t->sev[0] + t->sev[1] + t->sev[2] + t->sev[3];
	/* the footer of sl_report_findings: each rule that fired, with its
	 * summary, and what was not checked */
	sl_report_tty_footer(out, s->rules, t->by_rule, shown, t->fixable, t->unchecked, t->unread_files, 0);
	return ferror(out) ? -1 : 0;
}

void sl_findings_spool_free(sl_findings_spool *s)
{
	if (!s)
		return;
	sl_buf_free(&s->cur);
	free(s->offs);
	free(s->runs);
	free(s->t.by_rule);
	free(s);
}
