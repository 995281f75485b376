/*
 * html.c (report): a catalogue audit as one self-contained HTML page: the
 * summary, the matrix of models by systems with filters (model, system,
 * engine, severity), every entry with its normalized services and its
 * findings (the source excerpt highlighted, the rule's explanation), and
 * the semantic diff of any two entries of one model, chosen on the page.
 *
 * Inline CSS and a little inline script; no network, no framework. Every
 * text is HTML-escaped; the data the script reads is JSON (jansson, every
 * `<` written \u003c so nothing in it can close its element early) read with
 * JSON.parse and put on the page with textContent only.
 */
#include "report.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef SL_VERSION /* set by CMakeLists.txt from the project's version */
#define SL_VERSION "0.0.0"
#endif

static void escn(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(s[i], f);
		}
	}
}

static void esc(FILE *f, const char *s)
{
	if (s)
		escn(f, s, strlen(s));
}

static const char *str(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

static long long num(json_t *o, const char *k)
{
	return (long long)json_integer_value(json_object_get(o, k));
}

static const char *const sev_class[] = {"style", "info", "warning", "error"};

static const char css[] =
	":root{--bg:#f6f7f9;--fg:#1d2330;--mut:#5b6474;--card:#fff;--line:#dde1e7;--acc:#2f5bd3;"
	"--err:#c62828;--warn:#b26a00;--info:#1f6fb2;--style:#5e6b7a;--mark:#ffe08a}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;background:var(--bg);color:var(--fg)}\n"
	"header{background:#1d2330;color:#fff;padding:18px 20px}\n"
	"header h1{margin:0;font-size:22px}header p{margin:4px 0 0;color:#c8cfdb}\n"
	"main{max-width:1440px;margin:0 auto;padding:16px}\n"
	"section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px;margin:0 0 16px}\n"
	"h2{margin:0 0 10px;font-size:18px}h3{margin:0;font-size:16px;overflow-wrap:anywhere}\n"
	".cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(120px,1fr));gap:10px;margin-bottom:12px}\n"
	".card{border:1px solid var(--line);border-radius:8px;padding:8px 10px}\n"
	".card b{display:block;font-size:22px}.card span{color:var(--mut);font-size:13px}\n"
	".scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}\n"
	"table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:6px 8px;border-bottom:1px solid var(--line)}\n"
	"th{font-weight:600;background:#f0f2f5}\n"
	"table.matrix{table-layout:fixed}table.matrix tr.head th:first-child{width:112px}\n"
	"table.matrix td{overflow-wrap:anywhere}table.matrix td.empty{background:#fafbfc}\n"
	".chip{display:block;text-decoration:none;color:inherit;border:1px solid var(--line);border-left:4px solid #3a9b5b;"
	"border-radius:6px;padding:5px 7px;margin:0 0 6px;font-size:13px;background:#fbfcfd}\n"
	".chip:hover{border-color:var(--acc)}.chip .n{font-weight:600;overflow-wrap:anywhere;display:block}\n"
	".chip .d{color:var(--mut);display:block;overflow-wrap:anywhere}\n"
	".chip.s1{border-left-color:var(--info)}.chip.s2{border-left-color:var(--warn)}.chip.s3{border-left-color:var(--err)}\n"
	".badge{display:inline-block;white-space:nowrap;border-radius:10px;padding:0 8px;font-size:12px;font-weight:600;color:#fff;background:var(--style)}\n"
	".rule{white-space:nowrap}\n"
	"header p.made{font-size:13px;color:#aab3c2;overflow-wrap:anywhere}header code{color:#dfe5ee}\n"
	".badge.error{background:var(--err)}.badge.warning{background:var(--warn)}.badge.info{background:var(--info)}\n"
	".filters{display:flex;flex-wrap:wrap;gap:10px;margin:0 0 10px}\n"
	".filters label{display:flex;flex-direction:column;font-size:12px;color:var(--mut)}\n"
	"select{font:inherit;padding:4px 6px;border:1px solid var(--line);border-radius:6px;background:#fff;max-width:100%}\n"
	".entry{border-top:1px solid var(--line);padding:12px 0}.entry:first-of-type{border-top:0}\n"
	".meta{color:var(--mut);margin:2px 0 8px;font-size:14px}\n"
	".finding{border:1px solid var(--line);border-left:4px solid var(--style);border-radius:6px;padding:8px 10px;margin:8px 0}\n"
	".finding.error{border-left-color:var(--err)}.finding.warning{border-left-color:var(--warn)}.finding.info{border-left-color:var(--info)}\n"
	".finding p{margin:4px 0}.loc{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;color:var(--mut);word-break:break-all}\n"
	"pre{background:#f3f4f7;border-radius:6px;padding:6px 8px;overflow-x:auto;font-size:12.5px;margin:6px 0}\n"
	"pre .ln{color:#98a1b0;user-select:none;display:inline-block;min-width:3.5em}\n"
	"mark{background:var(--mark);border-radius:2px}\n"
	"details{margin:6px 0}summary{cursor:pointer;color:var(--acc)}\n"
	"code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}\n"
	"td code,td{overflow-wrap:anywhere}td.nw{white-space:nowrap;overflow-wrap:normal}\n"
	".ok{color:#3a9b5b}.hidden{display:none!important}\n"
	"#cmp-out .kind{color:var(--mut);font-size:12px}\n"
	"@media (max-width:700px){body{font-size:14px}main{padding:8px}section{padding:10px;border-radius:8px}"
	"header{padding:12px}header h1{font-size:19px}.filters label{flex:1 1 45%}.filters select{width:100%}"
	"table.settings td:nth-child(3),table.settings th:nth-child(3){display:none}"
	/* the rules table: rule, severity and count on a line, the summary below */
	"table.rules tr.h{display:none}table.rules tr{display:grid;grid-template-columns:1fr auto auto;border-bottom:1px solid var(--line)}"
	"table.rules td{border-bottom:0}table.rules td:nth-child(4){grid-column:1/-1;padding-top:0;color:var(--mut)}"
	".cards{grid-template-columns:repeat(3,1fr);gap:6px}.card{padding:6px 8px}.card b{font-size:18px}"
	/* the matrix as a list: a model, then each system it runs on */
	"table.matrix{min-width:0!important;table-layout:auto}table.matrix,table.matrix tbody,table.matrix tr,table.matrix th,table.matrix td{display:block;width:100%}"
	"table.matrix tr.head{display:none}table.matrix td.empty{display:none}"
	"table.matrix th[scope=row]{background:#1d2330;color:#fff;border-radius:6px;margin-top:10px}"
	"table.matrix td{border-bottom:0;padding:4px 0}"
	"table.matrix td::before{content:attr(data-label);display:block;font-weight:600;font-size:13px;margin:4px 0}}\n";

/* The page's script: filters and the diff on request. Data comes from the
 * JSON element #audit-data; text is set with textContent only. */
static const char js[] =
	"(function(){\n"
	"var D=JSON.parse(document.getElementById('audit-data').textContent);\n"
	"function $(id){return document.getElementById(id);}\n"
	"function el(t,txt,cls){var e=document.createElement(t);if(txt!==undefined)e.textContent=txt;if(cls)e.className=cls;return e;}\n"
	/* the filters' state lives in the URL fragment (#model=..&rule=SL4002&q=..),
	 * so a link reproduces the view: read at load and on hashchange,
	 * written (replaceState: no history entry per keystroke) on change */
	"var F=[['model','f-model'],['system','f-system'],['engine','f-engine'],['sev','f-sev'],['rule','f-rule'],['q','f-q']];\n"
	"function fromHash(){var h={};location.hash.replace(/^#/,'').split('&').forEach(function(p){var i=p.indexOf('=');\n"
	"  if(i>0)try{h[decodeURIComponent(p.slice(0,i))]=decodeURIComponent(p.slice(i+1).replace(/\\+/g,' '));}catch(x){}});\n"
	" F.forEach(function(f){var e=$(f[1]),v=h[f[0]]===undefined?'':h[f[0]];\n"
	"  if(e.tagName==='SELECT'&&!Array.prototype.some.call(e.options,function(o){return o.value===v;}))v='';e.value=v;});}\n"
	"function toHash(){var p=[];F.forEach(function(f){var v=$(f[1]).value;if(v!=='')p.push(f[0]+'='+encodeURIComponent(v));});\n"
	" var h=p.length?'#'+p.join('&'):'';if(h!==location.hash&&!(h===''&&location.hash==='#'))history.replaceState(null,'',h||location.pathname+location.search);}\n"
	"function filter(){var m=$('f-model').value,s=$('f-system').value,g=$('f-engine').value,v=$('f-sev').value,\n"
	"  ru=$('f-rule').value,q=$('f-q').value.trim().toLowerCase();\n"
	" var shown=0;D.entries.forEach(function(e){\n"
	"  var ok=(m===''||String(e.model)===m)&&(s===''||String(e.system)===s)&&(g===''||e.engines.indexOf(g)>=0)&&\n"
	"   (v===''||(v==='clean'?e.sev<0:e.sev>=Number(v)))&&(ru===''||e.rules.indexOf(ru)>=0)&&(q===''||e.text.indexOf(q)>=0);\n"
	"  if(ok)shown++;\n"
	"  var c=$('c'+e.id),a=$('e'+e.id);if(c)c.classList.toggle('hidden',!ok);if(a)a.classList.toggle('hidden',!ok);});\n"
	" document.querySelectorAll('tr[data-model]').forEach(function(r){r.classList.toggle('hidden',r.querySelector('.chip:not(.hidden)')===null);});\n"
	" $('f-count').textContent=shown+' of '+D.entries.length+' entries shown';}\n"
	"function changed(){filter();toHash();}\n"
	"F.forEach(function(f){$(f[1]).addEventListener(f[0]==='q'?'input':'change',changed);});\n"
	"window.addEventListener('hashchange',function(){fromHash();filter();});\n"
	"function fillB(){var a=D.entries[Number($('cmp-a').value)],b=$('cmp-b');b.textContent='';\n"
	" D.entries.forEach(function(e){if(e.id!==a.id&&e.model===a.model){var o=el('option',e.name);o.value=e.id;b.appendChild(o);}});\n"
	" show();}\n"
	"var KIND=['changed','added','removed','explicit default'];\n"
	"function T(i){return i<0?'(unset)':D.text[i];}\n"
	"function show(){var out=$('cmp-out');out.textContent='';var a=Number($('cmp-a').value),bv=$('cmp-b').value;\n"
	" if(bv===''){out.appendChild(el('p','No other entry of this model.'));return;}var b=Number(bv);\n"
	" var d=D.diffs[Math.min(a,b)+'-'+Math.max(a,b)];if(!d){out.appendChild(el('p','This model has more than '+D.max+' entries: the report keeps no pairwise diffs for it (servelint diff compares two).'));return;}\n"
	" var flip=a>b,A=flip?4:3,B=flip?3:4;\n"
	" out.appendChild(el('p',D.entries[a].name+': '+(flip?d.tb:d.ta)));out.appendChild(el('p',D.entries[b].name+': '+(flip?d.ta:d.tb)));\n"
	" if(!d.c.length){out.appendChild(el('p','The two entries are the same after normalization.','ok'));return;}\n"
	" var w=el('div','','scroll'),t=el('table'),h=el('tr');['key',D.entries[a].name,D.entries[b].name].forEach(function(x){h.appendChild(el('th',x));});\n"
	" t.appendChild(h);d.c.forEach(function(c){var r=el('tr'),k=el('td');k.appendChild(el('code',T(c[2])));\n"
	"  var kd=c[0];if(flip&&kd===1)kd=2;else if(flip&&kd===2)kd=1;\n"
	"  k.appendChild(el('div',T(c[1])+' \\u00b7 '+KIND[kd],'kind'));r.appendChild(k);r.appendChild(el('td',T(c[A])));r.appendChild(el('td',T(c[B])));t.appendChild(r);});\n"
	" w.appendChild(t);out.appendChild(w);}\n"
	"var ca=$('cmp-a');if(ca){ca.addEventListener('change',fillB);$('cmp-b').addEventListener('change',show);fillB();}\n"
	"document.querySelectorAll('[data-compare]').forEach(function(x){x.addEventListener('click',function(ev){ev.preventDefault();\n"
	" ca.value=x.getAttribute('data-compare');fillB();$('compare').scrollIntoView();});});\n"
	"fromHash();filter();\n"
	"})();\n";

/* byte offset of a 1-based code-point column in a line */
static size_t byte_at(const char *line, size_t len, unsigned col)
{
	size_t b = 0;
	for (unsigned c = 1; c < col && b < len; c++) {
		b++;
		while (b < len && ((unsigned char)line[b] & 0xC0) == 0x80)
			b++;
	}
	return b;
}

/* the finding's line and its neighbours, the span marked */
static void excerpt(FILE *f, const sl_origin *o)
{
	if (!o->src)
		return;
	unsigned l, c;
	sl_origin_pos(o, &l, &c);
	unsigned first = l > 1 + o->src->line_base ? l - 1 : l, last = l + 1;
	if (last > o->src->nlines + o->src->line_base)
		last = l;
	fputs("<pre>", f);
	for (unsigned k = first; k <= last; k++) {
		size_t len;
		const char *t = sl_source_line(o->src, k, &len);
		if (!t)
			continue;
		fprintf(f, "<span class=\"ln\">%u</span>", k);
		if (k != l) {
			escn(f, t, len);
		} else {
			size_t a = byte_at(t, len, c), span = 1;
			if (o->raw && *o->raw)
				span = strcspn(o->raw, "\n");
			size_t b = a + span <= len ? a + span : len;
			if (b == a && a < len)
				b = a + 1;
			escn(f, t, a);
			fputs("<mark>", f);
			escn(f, t + a, b - a);
			fputs("</mark>", f);
			escn(f, t + b, len - b);
		}
		fputc('\n', f);
	}
	fputs("</pre>", f);
}

static void where(FILE *f, const sl_origin *o)
{
	char *w = sl_report_where(o);
	esc(f, w);
	free(w);
}

/* within an entry's table: the base name of the file that holds the place
 * (the entry is the heading); a section of a catalogue-form file or page
 * is a line of that file, its section named after it */
static void short_where(FILE *f, const sl_origin *o)
{
	unsigned l, c;
	sl_origin_pos(o, &l, &c);
	if (!o->src) {
		fputc('-', f);
		return;
	}
	const char *base = strrchr(o->src->path, '/');
	esc(f, base ? base + 1 : o->src->path);
	fprintf(f, ":%u:%u", l, c);
	if (o->src->section) {
		fputs(" (", f);
		esc(f, o->src->section);
		fputc(')', f);
	}
}

static void finding_html(FILE *f, const sl_finding *x)
{
	const char *sev = sl_severity_name(x->severity);
	fprintf(f, "<div class=\"finding %s\"><div><span class=\"badge %s\">%s</span> <b>", sev_class[x->severity],
		sev_class[x->severity], sev);
	esc(f, sl_rule_id(x->rule));
	fputs("</b> <span class=\"rule\">", f);
	esc(f, sl_rule_name(x->rule));
	fputs("</span></div><p>", f);
	esc(f, x->message);
	fputs("</p><p class=\"loc\">", f);
	char *w = sl_report_finding_where(x);
	esc(f, w);
	free(w);
	fputs("</p>", f);
	excerpt(f, &x->where);
	if (x->hint) {
		fputs("<p>Did you mean <code>", f);
		esc(f, x->hint);
		fputs("</code>?</p>", f);
	}
	for (size_t k = 0; k < x->nrelated; k++) {
		fputs("<p class=\"loc\">note: ", f);
		esc(f, x->related_msg[k]);
		fputs(" at ", f);
		where(f, &x->related[k]);
		fputs("</p>", f);
	}
	fputs("<details><summary>Why this matters</summary><p>", f);
	esc(f, sl_rule_summary(x->rule));
	fputs(".</p><p>", f);
	esc(f, sl_rule_explanation(x->rule));
	fputs("</p></details></div>\n", f);
}

static void value_text(FILE *f, json_t *v)
{
	if (json_is_string(v)) {
		esc(f, json_string_value(v));
		return;
	}
	char *d = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
	esc(f, d ? d : "?");
	free(d);
}

static void services_html(FILE *f, const sl_model *m)
{
	if (!m) {
		fputs("<p class=\"meta\">The entry did not normalize; see its findings.</p>", f);
		return;
	}
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		fputs("<details><summary>", f);
		esc(f, s->name);
		fputs(": ", f);
		esc(f, s->engine);
		if (s->version) {
			fputc(' ', f);
			esc(f, s->version);
		}
		fprintf(f, ", %u replica%s", s->replicas, s->replicas == 1 ? "" : "s");
		if (s->gpus > 0)
			fprintf(f, ", %ld GPU%s each", s->gpus, s->gpus == 1 ? "" : "s");
		fprintf(f, ", %zu setting%s</summary>", s->nsettings, s->nsettings == 1 ? "" : "s");
		fputs("<div class=\"scroll\"><table class=\"settings\"><tr><th>key</th><th>value</th><th>written</th>"
		      "<th>where</th></tr>",
		      f);
		for (size_t k = 0; k < s->nsettings; k++) {
			const sl_setting *st = &s->settings[k];
			if (st->flags & SL_SET_OVERRIDDEN)
				continue;
			fputs("<tr><td><code>", f);
			esc(f, st->key);
			fputs("</code></td><td><code>", f);
			value_text(f, st->value);
			fputs("</code></td><td><code>", f);
			esc(f, st->origin.raw ? st->origin.raw : st->flag);
			fputs("</code></td><td class=\"loc\">", f);
			short_where(f, &st->origin);
			fputs("</td></tr>", f);
		}
		for (size_t k = 0; k < s->nenv; k++) {
			const sl_env *e = &s->env[k];
			if (e->flags & SL_SET_OVERRIDDEN)
				continue;
			fputs("<tr><td><code>env ", f);
			esc(f, e->name);
			fputs("</code></td><td><code>", f);
			esc(f, e->value);
			fputs("</code></td><td><code>", f);
			esc(f, e->via);
			fputs("</code></td><td class=\"loc\">", f);
			short_where(f, &e->origin);
			fputs("</td></tr>", f);
		}
		fputs("</table></div></details>\n", f);
	}
}

static void card(FILE *f, long long n, const char *what, const char *cls)
{
	fprintf(f, "<div class=\"card\"><b class=\"%s\">%lld</b><span>", cls, n);
	esc(f, what);
	fputs("</span></div>", f);
}

/* "vllm 0.31.0 · MXFP4 · prefill x2 TP2; decode DP4 EP · dspark 6 · 8/72 GPUs" */
static void entry_detail(FILE *f, json_t *e)
{
	esc(f, str(e, "engine") ? str(e, "engine") : "no engine");
	if (str(e, "version")) {
		fputc(' ', f);
		esc(f, str(e, "version"));
	}
	if (str(e, "precision")) {
		fputs(" \xc2\xb7 ", f);
		esc(f, str(e, "precision"));
	}
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(e, "roles"), i, r) {
		fputs(i ? "; " : " \xc2\xb7 ", f);
		esc(f, str(r, "role"));
		if (num(r, "replicas") > 1)
			fprintf(f, " x%lld", num(r, "replicas"));
		if (str(r, "parallelism") && *str(r, "parallelism")) {
			fputc(' ', f);
			esc(f, str(r, "parallelism"));
		} else if (str(r, "parallelism_in")) {
			const char *pf = str(r, "parallelism_in"), *sl = strrchr(pf, '/');
			fputs(" (parallelism in ", f);
			esc(f, sl ? sl + 1 : pf);
			fputc(')', f);
		}
		if (str(r, "plan")) {
			fputs(" (", f);
			esc(f, str(r, "plan"));
			fputc(')', f);
		}
	}
	char *spec = sl_report_audit_spec(e);
	if (spec) {
		fputs(" \xc2\xb7 ", f);
		esc(f, spec);
	}
	free(spec);
	json_t *g = json_object_get(e, "gpus");
	if (json_is_integer(json_object_get(g, "used"))) {
		fprintf(f, " \xc2\xb7 %lld", num(g, "used"));
		if (json_is_integer(json_object_get(g, "of")))
			fprintf(f, " of %lld", num(g, "of"));
		json_int_t last = json_is_integer(json_object_get(g, "of")) ? num(g, "of") : num(g, "used");
		fputs(last == 1 ? " GPU" : " GPUs", f);
	}
}

/* the worst severity of an entry's findings, or -1 */
static int worst(json_t *e)
{
	json_t *fc = json_object_get(e, "findings");
	return num(fc, "error") ? 3 : num(fc, "warning") ? 2 : num(fc, "info") ? 1 : num(fc, "style") ? 0 : -1;
}

static json_int_t intern_text(json_t *tab, json_t *idx, const char *s)
{
	json_t *i = json_object_get(idx, s);
	if (i)
		return json_integer_value(i);
	json_array_append_new(tab, json_string(s));
	json_object_set_new(idx, s, json_integer((json_int_t)json_array_size(tab) - 1));
	return (json_int_t)json_array_size(tab) - 1;
}

static json_int_t intern_value(json_t *tab, json_t *idx, json_t *v)
{
	if (!v)
		return -1;
	if (json_is_string(v))
		return intern_text(tab, idx, json_string_value(v));
	char *d = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
	json_int_t i = intern_text(tab, idx, d ? d : "?");
	free(d);
	return i;
}

static void options(FILE *f, json_t *arr)
{
	size_t i;
	json_t *v;
	json_array_foreach(arr, i, v) {
		fprintf(f, "<option value=\"%zu\">", i);
		esc(f, json_string_value(v));
		fputs("</option>", f);
	}
}

int sl_report_audit_html(FILE *f, const sl_audit *a)
{
	json_t *doc = sl_report_audit_json(a);
	json_t *s = json_object_get(doc, "summary"), *fc = json_object_get(s, "findings");
	json_t *mx = json_object_get(doc, "matrix"), *entries = json_object_get(doc, "entries");
	json_t *models = json_object_get(mx, "models"), *systems = json_object_get(mx, "systems");
	/* lookups made once, so that the page is linear in entries (a catalogue
	 * of thousands of distinct models): the cell of a model and system, each
	 * entry's findings (in order), whether an entry has a pair */
	sl_strmap cell_of = {0};
	json_t *cells = json_object_get(mx, "cells");
	for (size_t k = 0; k < json_array_size(cells); k++) {
		json_t *cell = json_array_get(cells, k);
		char ck[48];
		int cl = snprintf(ck, sizeof ck, "%lld,%lld", num(cell, "model"), num(cell, "system"));
		sl_strmap_put(&cell_of, ck, (size_t)cl, k);
	}
	size_t *fstart = sl_calloc(a->n + 2, sizeof *fstart), *forder = sl_calloc(a->findings->n + 1, sizeof *forder);
	for (size_t k = 0; k < a->findings->n; k++)
		if (a->finding_entry[k] < a->n && !a->findings->v[k].suppressed)
			fstart[a->finding_entry[k] + 1]++;
	for (size_t i = 0; i < a->n; i++)
		fstart[i + 1] += fstart[i];
	size_t *fill = sl_calloc(a->n + 1, sizeof *fill);
	for (size_t k = 0; k < a->findings->n; k++)
		if (a->finding_entry[k] < a->n && !a->findings->v[k].suppressed) {
			size_t e = a->finding_entry[k];
			forder[fstart[e] + fill[e]++] = k;
		}
	free(fill);
	unsigned char *paired = sl_calloc(a->n + 1, 1);
	for (size_t p = 0; p < a->npairs; p++) {
		if (a->pairs[p].a < a->n)
			paired[a->pairs[p].a] = 1;
		if (a->pairs[p].b < a->n)
			paired[a->pairs[p].b] = 1;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>servelint audit</title>\n<style>\n",
	      f);
	fputs(css, f);
	fputs("</style></head><body>\n<header><h1>Catalogue audit</h1><p>", f);
	fprintf(f, "%lld entr%s \xc2\xb7 %lld model%s \xc2\xb7 %lld system%s \xc2\xb7 %lld finding%s \xe2\x80\x94 servelint audit",
		num(s, "entries"), num(s, "entries") == 1 ? "y" : "ies", num(s, "models"), num(s, "models") == 1 ? "" : "s",
		num(s, "systems"), num(s, "systems") == 1 ? "" : "s", num(fc, "total"), num(fc, "total") == 1 ? "" : "s");
	/* what made the page, when, from what */
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	long long epoch;
	time_t now = sde && !sl_parse_int(sde, &epoch) ? (time_t)epoch : time(NULL);
	struct tm tm;
	char when[32] = "";
	if (gmtime_r(&now, &tm))
		strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
	fprintf(f, "</p><p class=\"made\">servelint %s \xc2\xb7 %s \xc2\xb7 ", SL_VERSION, when);
	for (size_t i = 0; i < a->ninputs; i++) {
		fputs(i ? " " : "", f);
		fputs("<code>", f);
		esc(f, a->inputs[i]);
		fputs("</code>", f);
	}
	fputs("</p></header>\n<main>\n<section id=\"summary\"><h2>Summary</h2><div class=\"cards\">", f);
#define ONE(n, one, many) ((n) == 1 ? (one) : (many))
	card(f, num(s, "entries"), ONE(num(s, "entries"), "entry", "entries"), "");
	card(f, num(s, "models"), ONE(num(s, "models"), "model", "models"), "");
	card(f, num(s, "systems"), ONE(num(s, "systems"), "system", "systems"), "");
	card(f, num(fc, "error"), ONE(num(fc, "error"), "error", "errors"), "");
	card(f, num(fc, "warning"), ONE(num(fc, "warning"), "warning", "warnings"), "");
#undef ONE
	card(f, num(fc, "info") + num(fc, "style"), "info and style", "");
	card(f, num(fc, "catalogue"), "across entries", "");
	fputs("</div>\n", f);
	json_t *br = json_object_get(s, "by_rule");
	if (json_array_size(br)) {
		fputs("<div class=\"scroll\"><table class=\"rules\"><tr class=\"h\"><th>rule</th><th>severity</th><th>count</th>"
		      "<th>summary</th></tr>",
		      f);
		size_t i;
		json_t *r;
		json_array_foreach(br, i, r) {
			fputs("<tr><td><b>", f);
			esc(f, str(r, "rule"));
			fputs("</b> <span class=\"rule\">", f);
			esc(f, str(r, "name"));
			fputs("</span></td><td class=\"nw\"><span class=\"badge ", f);
			esc(f, str(r, "severity"));
			fputs("\">", f);
			esc(f, str(r, "severity"));
			fprintf(f, "</span></td><td>%lld</td><td>", num(r, "count"));
			esc(f, str(r, "summary"));
			fputs("</td></tr>", f);
		}
		fputs("</table></div>\n", f);
	} else {
		fputs("<p class=\"ok\">No findings: every entry passes every rule.</p>\n", f);
	}
	fprintf(f, "<p class=\"meta\">%lld finding%s suppressed in the entries.</p></section>\n", num(fc, "suppressed"),
		num(fc, "suppressed") == 1 ? "" : "s");

	/* the matrix, with its filters */
	fputs("<section id=\"matrix\"><h2>Models by systems</h2>\n<form class=\"filters\" onsubmit=\"return false\">"
	      "<label>Model<select id=\"f-model\"><option value=\"\">all</option>",
	      f);
	options(f, models);
	fputs("</select></label><label>System<select id=\"f-system\"><option value=\"\">all</option>", f);
	options(f, systems);
	fputs("</select></label><label>Engine<select id=\"f-engine\"><option value=\"\">all</option>", f);
	json_t *engines = json_array(), *e;
	size_t i;
	json_array_foreach(entries, i, e) {
		size_t k;
		json_t *r;
		json_array_foreach(json_object_get(e, "roles"), k, r) {
			int have = 0;
			size_t j;
			json_t *x;
			json_array_foreach(engines, j, x) have |= !strcmp(json_string_value(x), str(r, "engine"));
			if (!have)
				json_array_append_new(engines, json_string(str(r, "engine")));
		}
	}
	json_array_foreach(engines, i, e) {
		fputs("<option>", f);
		esc(f, json_string_value(e));
		fputs("</option>", f);
	}
	fputs("</select></label><label>Findings<select id=\"f-sev\"><option value=\"\">all entries</option>"
	      "<option value=\"3\">errors</option><option value=\"2\">warnings or worse</option>"
	      "<option value=\"1\">info or worse</option><option value=\"0\">with a finding</option>"
	      "<option value=\"clean\">without findings</option></select></label>"
	      "<label>Rule<select id=\"f-rule\"><option value=\"\">all rules</option>",
	      f);
	/* the rules that found something, in id order */
	json_t *fired = json_array();
	for (size_t k = 0; k < a->findings->n; k++) {
		const sl_finding *x = &a->findings->v[k];
		if (x->suppressed)
			continue;
		size_t j;
		json_t *y;
		int have = 0;
		json_array_foreach(fired, j, y) have |= !strcmp(json_string_value(y), sl_rule_id(x->rule));
		if (!have)
			json_array_append_new(fired, json_string(sl_rule_id(x->rule)));
	}
	for (size_t p = 1; p < json_array_size(fired); p++) /* a few ids: insertion sort */
		for (size_t q = p; q > 0 && strcmp(json_string_value(json_array_get(fired, q - 1)),
						   json_string_value(json_array_get(fired, q))) > 0; q--) {
			json_t *t = json_incref(json_array_get(fired, q));
			json_array_set(fired, q, json_array_get(fired, q - 1));
			json_array_set_new(fired, q - 1, t);
		}
	json_array_foreach(fired, i, e) {
		fputs("<option>", f);
		esc(f, json_string_value(e));
		fputs("</option>", f);
	}
	json_decref(fired);
	fputs("</select></label><label>Search<input id=\"f-q\" type=\"search\" "
	      "placeholder=\"entry, model, system, engine\"></label></form>\n"
	      "<p class=\"meta\" id=\"f-count\"></p>\n<div class=\"scroll\">",
	      f);
	/* columns of one width, wide enough for an entry's card; wider than
	 * the screen, the table scrolls */
	fprintf(f, "<table class=\"matrix\" style=\"min-width:%zupx\"><tr class=\"head\"><th>model</th>",
		112 + 140 * json_array_size(systems));
	json_t *sys;
	json_array_foreach(systems, i, sys) {
		fputs("<th>", f);
		esc(f, json_string_value(sys));
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	json_t *model;
	size_t mi;
	json_array_foreach(models, mi, model) {
		fprintf(f, "<tr data-model=\"%zu\"><th scope=\"row\">", mi);
		esc(f, json_string_value(model));
		fputs("</th>", f);
		size_t si;
		json_array_foreach(systems, si, sys) {
			char ck[48];
			int cl = snprintf(ck, sizeof ck, "%zu,%zu", mi, si);
			size_t ci = sl_strmap_get(&cell_of, ck, (size_t)cl);
			json_t *cell = ci != SIZE_MAX ? json_array_get(cells, ci) : NULL;
			fprintf(f, "<td%s data-label=\"", cell ? "" : " class=\"empty\"");
			esc(f, json_string_value(sys));
			fputs("\">", f);
			if (cell) {
				size_t x;
				json_t *id;
				json_array_foreach(json_object_get(cell, "entries"), x, id) {
					json_t *en = json_array_get(entries, (size_t)json_integer_value(id));
					int w = worst(en);
					json_t *nf = json_object_get(en, "findings");
					long long total = num(nf, "error") + num(nf, "warning") + num(nf, "info") +
							  num(nf, "style");
					fprintf(f, "<a class=\"chip%s\" id=\"c%lld\" href=\"#e%lld\"><span class=\"n\">",
						w == 3 ? " s3" : w == 2 ? " s2" : w >= 0 ? " s1" : "", num(en, "id"),
						num(en, "id"));
					/* in its cell, the entry's variant names it (model and system are the row and column) */
					const char *nm = str(en, "name"), *sl = strrchr(nm, '/');
					esc(f, sl && sl[1] ? sl + 1 : nm);
					fputs("</span><span class=\"d\">", f);
					entry_detail(f, en);
					fprintf(f, "</span><span class=\"d\">%lld finding%s</span></a>", total,
						total == 1 ? "" : "s");
				}
			}
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div></section>\n", f);

	/* the diff of two entries of one model */
	fputs("<section id=\"compare\"><h2>Compare two entries of one model</h2>\n", f);
	if (a->npairs) {
		fputs("<form class=\"filters\" onsubmit=\"return false\"><label>Entry<select id=\"cmp-a\">", f);
		json_array_foreach(entries, i, e) {
			fprintf(f, "<option value=\"%zu\">", i);
			esc(f, str(e, "name"));
			fputs("</option>", f);
		}
		fputs("</select></label><label>with<select id=\"cmp-b\"></select></label></form>\n"
		      "<div id=\"cmp-out\"></div>\n",
		      f);
	} else {
		fputs("<p class=\"meta\">No model has two entries.</p>\n", f);
	}
	fputs("</section>\n", f);

	/* every entry */
	/* what could not be read at all belongs to no entry: listed first */
	size_t unread = 0;
	for (size_t k = 0; k < a->findings->n; k++)
		if (a->finding_entry[k] == SIZE_MAX && !a->findings->v[k].suppressed) {
			if (!unread++)
				fputs("<section id=\"unread\"><h2>Inputs that could not be read</h2>\n", f);
			finding_html(f, &a->findings->v[k]);
		}
	if (unread)
		fputs("</section>\n", f);
	fputs("<section id=\"entries\"><h2>Entries</h2>\n", f);
	json_array_foreach(entries, i, e) {
		const sl_audit_entry *ae = &a->entries[i];
		fprintf(f, "<article class=\"entry\" id=\"e%zu\"><h3>", i);
		esc(f, str(e, "name"));
		fputs("</h3>", f);
		if (ae->name) { /* a page's entry: where it is on the page */
			fputs("<p class=\"loc\">", f);
			esc(f, ae->entry->path);
			fputs("</p>", f);
		}
		fputs("<p class=\"meta\">", f);
		esc(f, ae->llm ? ae->llm : "(model not named)");
		fputs(" \xc2\xb7 ", f);
		esc(f, ae->system ? ae->system : "(system not named)");
		fputs(" \xc2\xb7 ", f);
		entry_detail(f, e);
		if (str(e, "topology")) {
			fputs("<br>", f);
			esc(f, str(e, "topology"));
		}
		fputs("</p>", f);
		if (paired[i])
			fprintf(f, "<p><a href=\"#compare\" data-compare=\"%zu\">Compare with another entry of this model</a></p>", i);
		services_html(f, ae->model);
		for (size_t q = fstart[i]; q < fstart[i + 1]; q++)
			finding_html(f, &a->findings->v[forder[q]]);
		if (fstart[i] == fstart[i + 1])
			fputs("<p class=\"ok\">No findings.</p>", f);
		fputs("</article>\n", f);
	}
	fputs("</section>\n</main>\n", f);

	/* the data the script reads */
	json_t *data = json_object(), *de = json_array(), *diffs = json_object();
	json_array_foreach(entries, i, e) {
		json_t *eng = json_array();
		size_t k;
		json_t *r;
		json_array_foreach(json_object_get(e, "roles"), k, r) json_array_append_new(eng, json_string(str(r, "engine")));
		/* what the Rule and Search filters look at: the rules of its
		 * findings; its name, path, model, system and engines, lower case */
		json_t *rules = json_array();
		for (size_t q = fstart[i]; q < fstart[i + 1]; q++)
			json_array_append_new(rules, json_string(sl_rule_id(a->findings->v[forder[q]].rule)));
		sl_buf text = {0};
		const char *parts[] = {str(e, "name"), str(e, "path"), str(e, "model"), str(e, "system")};
		for (size_t q = 0; q < sizeof parts / sizeof *parts; q++)
			sl_buf_printf(&text, "%s%s", q ? " " : "", parts[q] ? parts[q] : "");
		json_array_foreach(eng, k, r) sl_buf_printf(&text, " %s", json_string_value(r));
		for (char *c = text.data; c && *c; c++)
			*c = (char)tolower((unsigned char)*c);
		json_array_append_new(de, json_pack("{s:I, s:s, s:I, s:I, s:o, s:i, s:o, s:s}", "id", (json_int_t)i, "name",
						    str(e, "name"), "model", (json_int_t)num(e, "model_index"), "system",
						    (json_int_t)num(e, "system_index"), "engines", eng, "sev", worst(e), "rules",
						    rules, "text", text.data ? text.data : ""));
		sl_buf_free(&text);
	}
	/* the diffs, compact: every text once in a table, a change as
	 * [kind, service, key, a, b] indexes into it (-1: unset); a catalogue
	 * of 20 entries of one model has 190 pairs */
	json_t *tab = json_array(), *idx = json_object();
	for (size_t p = 0; p < a->npairs; p++) {
		const sl_diff *d = &a->pairs[p].diff;
		json_t *ch = json_array();
		for (size_t k = 0; k < d->n; k++) {
			const sl_change *c = &d->v[k];
			json_array_append_new(ch, json_pack("[i, I, I, I, I]", (int)c->kind, intern_text(tab, idx, c->service),
							    intern_text(tab, idx, c->key), intern_value(tab, idx, c->a),
							    intern_value(tab, idx, c->b)));
		}
		char k[64];
		snprintf(k, sizeof k, "%zu-%zu", a->pairs[p].a, a->pairs[p].b);
		json_object_set_new(diffs, k, json_pack("{s:s?, s:s?, s:o}", "ta", d->topology_a, "tb", d->topology_b,
							"c", ch));
	}
	json_object_set_new(data, "entries", de);
	json_object_set_new(data, "diffs", diffs);
	json_object_set_new(data, "text", tab);
	json_object_set_new(data, "max", json_integer(SL_AUDIT_MAX_DIFF_ENTRIES));
	json_decref(idx);
	fputs("<script type=\"application/json\" id=\"audit-data\">", f);
	/* '<' only occurs inside JSON strings, where \u003c means the same: no
	 * `</script>` or `<!--` can reach the HTML parser */
	char *dump = json_dumps(data, JSON_COMPACT | JSON_REAL_PRECISION(15));
	int rc = dump ? 0 : -1;
	for (const char *p = dump; p && *p; p++)
		if (*p == '<')
			fputs("\\u003c", f);
		else
			fputc(*p, f);
	free(dump);
	fputs("</script>\n<script>\n", f);
	fputs(js, f);
	fputs("</script>\n</body></html>\n", f);
	json_decref(data);
	json_decref(engines);
	json_decref(doc);
	sl_strmap_free(&cell_of);
	free(fstart);
	free(forder);
	free(paired);
	return rc || ferror(f) ? -1 : 0;
}
