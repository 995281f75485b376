#!/usr/bin/env python3
"""tests/bad/bad.py SERVELINT WORKDIR [NAME-REGEX]: the bad-input corpus.

Generates some 300 hostile or broken inputs over every subcommand (show check
diff log review audit import run rules matrix) into WORKDIR (the build folder
at test time; nothing of it is committed) and runs servelint on each, from
the case's own folder. Each case states its expected exit status and, where
an input file is at fault, a located message (`file:line:col: ` on standard
error; for a usage error the command's name). Every case also checks:

- no hang (a timeout per case) and no sanitizer report on standard error;
- nothing on standard output when the command fails (exit 2 or 3);
- no file written where it was not asked: every input file is unchanged;
  the case's folder and the folder
  around it hold afterwards exactly what they held before, plus the
  outputs the case names (only when the command succeeded: an error
  leaves no output at all), and no temporary file is left;
- an output that was written is whole: JSON and SARIF parse, checkstyle is
  well-formed XML, HTML ends with </html>.

A case that fails because of a known defect not fixed here is marked xfail
with the defect named; it is counted apart and does not fail the run. One
that passes though marked xfail (XPASS) is reported, so that the mark can be
removed, but does not fail the run either (the defect may be fixed on
another branch first). The run fails only on unexpected failures.
The closing line is "N passed, N failed, N xfail".
"""
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import tempfile
import sys
import xml.etree.ElementTree as ET

BIN = os.path.abspath(sys.argv[1])
WORK = os.path.abspath(sys.argv[2])
ONLY = re.compile(sys.argv[3]) if len(sys.argv) > 3 else None
SAN = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer")
ASAN = "ASAN_OPTIONS" in os.environ or b"__asan_init" in open(BIN, "rb").read()
TIMEOUT = 120 if ASAN else 30

# Defects of the robustness review (../shared/reviews/2026-12-01-robustness/)
# that are fixed on another branch, named where a case rests on one.

CASES = []


def case(name, argv, files=None, rc=2, err=None, outputs=(), xfail=None, git=False, stdin=None,
         links=None, fifos=(), asan_xfail=None, out=None, nogit=False, report=False):
    """argv: the arguments after `servelint`, run in the case's folder.
    files: {relative path: str or bytes}. err: a regex that standard error
    must match (re.M). outputs: files the command may write. xfail: the
    defect that makes this case fail today. git: the folder is made a git
    repository, files committed (a list of {path: text} makes one commit
    each). links: {path: target} symlinks. fifos: paths made FIFOs.
    asan_xfail: a defect that fails the case only under the sanitizers.
    out: a regex that standard output must match. nogit: the case runs in a
    temporary folder outside any git repository (WORKDIR may be in one).
    report: check and audit, whose unreadable entry is an SL0001 finding in
    their reports (docs/servelint-check.md): ERR may be met on standard
    output or in the OUTPUTS, which are written also when the exit is 2."""
    if any(c["name"] == name for c in CASES):
        raise SystemExit("duplicate case " + name)
    CASES.append(dict(name=name, argv=argv, files=files or {}, rc=rc, err=err, outputs=tuple(outputs),
                      xfail=xfail, git=git, stdin=stdin, links=links or {}, fifos=tuple(fifos),
                      asan_xfail=asan_xfail, out=out, nogit=nogit, report=report))


def loc(path):
    """the regex of a located message about PATH"""
    return r"^" + re.escape(path) + r":\d+:\d+: "


GOOD = "vllm serve org/model --tensor-parallel-size 2 --max-num-seqs 64\n"
GOOD2 = "vllm serve org/model --tensor-parallel-size 4 --max-num-seqs 64\n"

# ---------------------------------------------------------------- bad scripts
# name -> (content, expected message regex after the location, heavy)
# heavy ones (large or slow) run with show and check only.
SCRIPTS = {}


def script(name, text, msg, heavy=False, xfail=None, located=True, kind="error"):
    """kind: error (exit 2 everywhere, located), finding (an input error
    for show, diff, matrix and run; a finding, exit 1, for check and audit),
    ok (hostile but valid: exit 0 or 1, MSG in the output or a note)."""
    SCRIPTS[name] = (text, msg, heavy, xfail, located, kind)


def rep(s, n):
    return s * n


script("nul", b"vllm serve m\x00 --tp 2\n", "binary file")
script("latin1", b"vllm serve m\n# caf\xe9\n", "not UTF-8 text")
script("empty", b"", "empty file")
script("blank", b"\n  \n\t\n", "empty file")
script("only-comments-empty", b"", "empty file")
script("utf16", "vllm serve m\n".encode("utf-16"), "(binary file|not UTF-8)")
script("overlong-utf8", b"vllm serve m --served-model-name \xc0\xaf\n", "not UTF-8")
script("surrogate-utf8", b"vllm serve m --served-model-name \xed\xa0\x80\n", "not UTF-8")
script("truncated-utf8", b"vllm serve m --served-model-name \xe2\x82", "not UTF-8")
script("five-byte-utf8", b"vllm serve m \xf8\x88\x80\x80\x80\n", "not UTF-8")
script("too-big", rep(b"vllm serve m --max-num-seqs 8\n", 5 * 1024 * 1024 // 30), "larger than the limit",
       heavy=True, located=False)
script("dquote", "vllm serve m \\\n  --max-num-seqs \"64\n", "unterminated double quote")
script("squote", "vllm serve m --max-num-seqs '64\n", "syntax error")
script("backtick", "vllm serve m --max-num-seqs `echo 64\n", "syntax error")
script("cmdsub-open", "vllm serve m --max-num-seqs $(echo 64\n", "syntax error")
script("param-open", "vllm serve m --max-num-seqs ${N\n", "syntax error")
script("arith-open", "vllm serve m --max-num-seqs $((1 + \n", "syntax error")
script("if-no-fi", "if [ -n \"$X\" ]; then\n  vllm serve m\n", "syntax error")
script("paren-close", "vllm serve m )\n", "syntax error")
script("for-no-done", "for i in 1 2; do\n  vllm serve m --port 800$i &\n", "syntax error")
script("case-no-esac", "case \"$X\" in\n  a) vllm serve m ;;\n", "syntax error")
script("func-no-brace", "f() {\n  vllm serve m\n", "syntax error")
script("pipe-end", "vllm serve m |\n", "syntax error")
script("and-end", "vllm serve m &&\n", "syntax error")
script("redir-no-target", "vllm serve m >\n", "syntax error")
script("bad-json-spec", "vllm serve m --speculative-config '{\"method\": mtp}'\n", "invalid JSON", kind="finding")
script("bad-json-comma", "python3 -m dynamo.vllm --kv-transfer-config '{\"kv_role\":\"kv_both\",}'\n",
       "invalid JSON", kind="finding")
script("bad-json-open", "vllm serve m --speculative-config '{\"method\": \"mtp\"'\n", "invalid JSON", kind="finding")
script("bad-json-deep", "vllm serve m --speculative-config '" + "[" * 100000 + "'\n", "(invalid JSON|deeper)", kind="finding")
script("bad-json-bignum", "vllm serve m --speculative-config '{\"num_speculative_tokens\": "
       "99999999999999999999999}'\n", "(invalid JSON|too big|range)", kind="finding")
script("deep-cmdsub", "vllm serve " + "\"$(echo " * 5000 + "x" + ")\"" * 5000 + "\n", "nesting deeper than the limit")
script("deep-param", "vllm serve " + "${A:-" * 100000 + "x" + "}" * 100000 + "\n", "nesting deeper than the limit",
       heavy=True)
script("deep-brace", "{ " * 100 + "vllm serve m; " + "} " * 100 + "\n", "(nesting deeper than the limit|syntax error)")
script("deep-arith", "vllm serve m --max-num-seqs $((" + "(" * 100 + "1" + ")" * 100 + "))\n",
       "nesting deeper than the limit")
script("deep-subshell", "(" * 20000 + "\n", "syntax error", heavy=True)
script("deep-subshell-5k", "(" * 5000 + "vllm serve m\n", "syntax error")
script("div-zero", "vllm serve m --max-num-seqs $((1/0))\n", "division by zero")
script("mod-zero", "vllm serve m --max-num-seqs $((1%0))\n", "division by zero")
script("too-many-commands", rep(b"vllm serve m\n", 100001), "more commands than the limit", heavy=True)
script("word-doubling", "A=x\n" + "A=$A$A\n" * 22 + "vllm serve \"$A\"\n", "limit", heavy=True)
script("array-doubling", "A=(x)\n" + "A=(\"${A[@]}\" \"${A[@]}\")\n" * 18 + "vllm serve \"${A[@]}\"\n",
       "limit", heavy=True)
script("recursion", "f() { f; }\nf\nvllm serve m\n", "nested deeper than 16", kind="ok")
script("mutual-recursion", "f() { g; }\ng() { f; }\nf\nvllm serve m\n", "nested deeper than 16", kind="ok")
script("comment-run", rep(b"#\n", 65534) + b"vllm serve m\n", "more than 65000 comment lines in a row", heavy=True)
script("comment-run-blank", rep(b"# c\n\n", 65534) + b"vllm serve m\n", "more than 65000 comment lines in a row", heavy=True)
script("comment-run-array", b"A=(\n" + rep(b"#\n", 70000) + b")\nvllm serve m\n", "more than 65000 comment lines in a row", heavy=True)
script("nested-loops-literal", "for a in " + " ".join(str(i) for i in range(300)) + "; do\n for b in "
       + " ".join(str(i) for i in range(300)) + "; do vllm serve m --port $a$b & done\ndone\n", "limit", heavy=True)
script("loops-4x1000", "".join("for v%d in %s; do\n" % (k, " ".join(str(i) for i in range(1000))) for k in range(4))
       + "vllm serve m &\n" + "done\n" * 4, "limit", heavy=True)
script("fanout", "f0() { vllm serve m & }\n" + "".join("f%d() { f%d; f%d; }\n" % (i, i - 1, i - 1) for i in range(1, 40))
       + "f39\n", "limit", heavy=True)
script("fanout-wide", "f0() { vllm serve m & }\nf1() { " + "f0; " * 3000 + "}\n" + "f2() { " + "f1; " * 3000 + "}\nf2\n",
       "limit", heavy=True)
script("loop-1025", "for i in " + " ".join(str(i) for i in range(1025)) + "; do vllm serve m & done\n", "more than 1024 values")
# a prefix of more flags than sl_grammar_match keeps (fuzz_show found the
# stack-buffer-overflow in grammar.c's prefixes())
script("ambiguous-prefix", "sglang serve --model-path m --en\n", "en", kind="ok")
script("heredoc-open", "cat > cfg.yaml <<EOF\nmax_batch_size: 8\n", "(here-document|syntax error)")
script("unknown-brace-op", "vllm serve ${A@Z}\n", "(syntax|unsupported|bad substitution)")
script("bad-subst-pattern", "vllm serve ${A/[/x}\n", "A", kind="ok")

# bad engine YAML (as the entry's config file: vllm serve m --config cfg.yaml)
YAMLS = {
    "yaml-tab": ("max-num-seqs: 8\n\tblock-size: 16\n", "cfg.yaml"),
    "yaml-dup": ("max-num-seqs: 8\nmax-num-seqs: 16\n", "duplicate YAML key"),
    "yaml-alias": ("a: *nope\n", "(alias|anchor)"),
    "yaml-unclosed": ("a: [1, 2\n", "cfg.yaml"),
    "yaml-binary": (b"a: \x00\n", "binary file"),
    "yaml-latin1": (b"a: caf\xe9\n", "not UTF-8"),
    "yaml-deep-flow": ("a: " + "[" * 10000 + "]" * 10000 + "\n", "(deeper|nesting)"),
    "yaml-deep-block": ("".join("  " * i + "k:\n" for i in range(0, 100)) + "  " * 100 + "v\n", "nesting deeper"),
    "yaml-laughs": ("a: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
        "%s: &%s [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n" % ((chr(98 + i),) * 2 + (chr(97 + i),) * 10)
        for i in range(9)), "(limit|nodes)"),
    "yaml-bad-indent": ("a:\n  b: 1\n c: 2\n", "cfg.yaml"),
    "yaml-bad-scalar": ("a: \"unterminated\n", "cfg.yaml"),
    "yaml-self-alias": ("a: &a [*a]\n", "(alias|anchor|deeper)"),
}


def add_script_cases():
    for name, (text, msg, heavy, xfail, located, kind) in SCRIPTS.items():
        where = (loc("launch.sh") if located else r"^launch\.sh: ") + r".*" + msg
        files = {"launch.sh": text}
        if kind == "ok":
            for c, argv in (("show", ["show", "launch.sh"]), ("check", ["check", "--no-config", "launch.sh"]),
                            ("diff", ["diff", "launch.sh", "good.sh"]), ("matrix", ["matrix", "launch.sh", "good.sh"]),
                            ("audit", ["audit", "--no-config", "--html", "a.html", "launch.sh"])):
                case(c + "-" + name, argv, dict(files, **{"good.sh": GOOD}), None, None,
                     xfail=xfail, outputs=["a.html"], out=msg if c == "show" else None)
            continue
        crc, cwhere, cout = (1, None, "SL1004") if kind == "finding" else (2, where, None)
        case("show-" + name, ["show", "launch.sh"], files, 2, where, xfail=xfail)
        rmsg = None if cwhere is None else msg  # in a report: no file:line:col prefix
        case("check-" + name, ["check", "--no-config", "--format", "sarif", "--output", "out.sarif", "launch.sh"],
             files, crc, rmsg, xfail=xfail, outputs=["out.sarif"], report=True)
        if heavy:
            continue
        case("check-json-" + name, ["check", "--no-config", "--format", "json", "launch.sh"], files, crc, rmsg,
             xfail=xfail, out=cout, report=True)
        case("diff-a-" + name, ["diff", "launch.sh", "good.sh"], dict(files, **{"good.sh": GOOD}), 2, where,
             xfail=xfail)
        case("diff-b-" + name, ["diff", "--format", "json", "good.sh", "launch.sh"], dict(files, **{"good.sh": GOOD}),
             2, where, xfail=xfail)
        case("matrix-" + name, ["matrix", "--format", "csv", "good.sh", "launch.sh"], dict(files, **{"good.sh": GOOD}),
             2, where, xfail=xfail)
        where_a = (loc("cat/m/a/launch.sh") if located else r"^cat/m/a/launch\.sh: ") + r".*" + msg
        case("audit-" + name, ["audit", "--no-config", "--html", "audit.html", "cat"],
             {"cat/m/a/launch.sh": text, "cat/m/b/launch.sh": GOOD}, crc, None if cwhere is None else where_a,
             xfail=xfail, outputs=["audit.html"], out=cout, report=True)
        case("run-" + name, ["run", "--dry-run", "launch.sh"], files, 2, where, xfail=xfail)


def add_yaml_cases():
    for name, (text, msg) in YAMLS.items():
        files = {"e/launch.sh": "vllm serve m --config cfg.yaml\n", "e/cfg.yaml": text}
        where = loc("e/cfg.yaml") + ".*" + msg if msg != "cfg.yaml" else loc("e/cfg.yaml")
        case("show-" + name, ["show", "e"], files, 2, where)
        case("check-" + name, ["check", "--no-config", "--format", "checkstyle", "--output", "out.xml", "e"],
             files, 2, where)
        case("diff-" + name, ["diff", "e", "e"], files, 2, where)
        case("run-" + name, ["run", "--dry-run", "e"], files, 2, where)
    # a manifest
    case("show-k8s-bad-yaml", ["show", "deploy.yaml"], {"deploy.yaml": "apiVersion: apps/v1\nkind: Deployment\n"
         "spec: [\n"}, 2, loc("deploy.yaml"))
    case("show-k8s-dup-key", ["show", "deploy.yaml"], {"deploy.yaml": "apiVersion: apps/v1\nkind: Deployment\n"
         "kind: Pod\n"}, 2, loc("deploy.yaml") + ".*duplicate")
    k8s = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  replicas: %s\n  template:\n"
           "    spec:\n      containers:\n        - name: c0\n          image: vllm/vllm-openai:v0.11.0\n"
           "          command: [vllm, serve, m, --port, \"8000\"]\n")
    # replicas are a count, not copies: 1e9 is a count like another (of
    # int's range), read at once and shown as written
    case("show-k8s-replicas-1e9", ["show", "deploy.yaml"], {"deploy.yaml": k8s % "1000000000"}, 0, None,
         out=r"^  replicas +1000000000 \(replicas, deploy\.yaml:5:13\)$")
    case("show-k8s-replicas-neg", ["show", "deploy.yaml"], {"deploy.yaml": k8s % "-3"}, 2,
         loc("deploy.yaml") + ".*replicas")
    case("show-k8s-replicas-huge", ["show", "deploy.yaml"], {"deploy.yaml": k8s % "99999999999999999999999"}, 2,
         loc("deploy.yaml") + ".*replicas")


def add_file_cases():
    # missing paths, folders without entries, special files
    for cmd in (["show"], ["check", "--no-config"], ["run", "--dry-run"], ["audit", "--no-config"]):
        c = cmd[0]
        case(c + "-missing", cmd + ["nope.sh"], {}, 2, r"nope\.sh.*(No such file|not found|cannot)")
        case(c + "-folder-no-entry", cmd + ["d"], {"d/readme.txt": "x\n"}, 2, r"^(servelint [a-z]+: )?.*d\b")
    case("diff-missing-a", ["diff", "nope.sh", "good.sh"], {"good.sh": GOOD}, 2, r"nope\.sh")
    case("diff-missing-b", ["diff", "good.sh", "nope.sh"], {"good.sh": GOOD}, 2, r"nope\.sh")
    case("matrix-missing", ["matrix", "good.sh", "nope.sh"], {"good.sh": GOOD}, 2, r"nope\.sh")
    case("import-missing", ["import", "--out", "out", "nope.txt"], {}, 2, r"nope\.txt")
    case("show-fifo", ["show", "e"], {"e/.keep": ""}, 2, r"launch\.sh.*(not a regular file|FIFO)", fifos=["e/launch.sh"])
    case("show-yaml-fifo", ["show", "e"], {"e/launch.sh": "vllm serve m --config cfg.yaml\n"}, 2,
         r"cfg\.yaml.*(not a regular file|FIFO)", fifos=["e/cfg.yaml"])
    case("check-symlink-loop", ["check", "--no-config", "cat"], {"cat/m/a/launch.sh": GOOD}, 0, None,
         links={"cat/l1": ".", "cat/l2": ".", "cat/l3": "."})
    case("check-dangling-script", ["check", "--no-config", "cat"], {"cat/m/a/launch.sh": GOOD}, 2, r"x\.sh",
         links={"cat/m/b/x.sh": "nowhere.sh"})
    case("show-dir-as-yaml", ["show", "e"], {"e/launch.sh": "vllm serve m --config cfg.yaml\n", "e/cfg.yaml/x": "a\n"},
         2, r"cfg\.yaml")
    case("show-stdin-binary", ["diff", "-", "good.sh"], {"good.sh": GOOD}, 2, r"^-?:?.*(binary|stdin|standard input)",
         stdin=b"\x00\x01\x02")
    case("show-stdin-empty", ["diff", "-", "good.sh"], {"good.sh": GOOD}, 2, r"empty", stdin=b"")


def add_output_cases():
    bad = {"launch.sh": "vllm serve m --max-num-seqs \"64\n"}
    good = {"launch.sh": GOOD}
    case("check-output-bad-input", ["check", "--no-config", "--format", "json", "--output", "r.json", "launch.sh"],
         bad, 2, loc("launch.sh"))
    case("check-output-ok", ["check", "--no-config", "--format", "json", "--output", "r.json", "launch.sh"], good,
         None, None, outputs=["r.json"])
    case("check-output-sarif-ok", ["check", "--no-config", "--format", "sarif", "--output", "r.sarif", "launch.sh"],
         good, None, None, outputs=["r.sarif"])
    case("check-output-checkstyle-ok", ["check", "--no-config", "--format", "checkstyle", "--output", "r.xml",
         "launch.sh"], good, None, None, outputs=["r.xml"])
    case("check-output-missing-dir", ["check", "--no-config", "--format", "json", "--output", "no/r.json", "launch.sh"],
         good, 2, r"no/r\.json")
    case("check-output-onto-dir", ["check", "--no-config", "--format", "json", "--output", "d", "launch.sh"],
         dict(good, **{"d/.keep": ""}), 2, r"\bd\b")
    case("audit-html-missing-dir", ["audit", "--no-config", "--html", "no/a.html", "launch.sh"], good, 2, r"no/a\.html")
    case("audit-html-ok", ["audit", "--no-config", "--html", "a.html", "launch.sh"], good, None, None,
         outputs=["a.html"])
    case("audit-html-bad-input", ["audit", "--no-config", "--html", "a.html", "cat"],
         {"cat/m/a/launch.sh": "vllm serve 'x\n", "cat/m/b/launch.sh": GOOD}, 2, loc("cat/m/a/launch.sh"))
    case("check-output-fifo", ["check", "--no-config", "--format", "json", "--output", "p", "launch.sh"], good, 2,
         r"\bp\b", fifos=["p"])
    case("check-output-tmp-symlink", ["check", "--no-config", "--format", "json", "--output", "r.json", "launch.sh"],
         dict(good, **{"victim": "keep\n"}), None, None, outputs=["r.json"], links={"r.json.tmp": "victim"})
    case("run-export-json-bad-input", ["run", "--dry-run", "--export-json", "t.json", "launch.sh"], bad, 2,
         loc("launch.sh"))


def add_import_cases():
    page = ("Catalogue\n\nTest Model \u2014 1 configurations\n\nB200 x8\n%s\n\nSystemB200 x8EnginevLLM 0.11.0\n"
            "Submitted by fuzz\n")
    ok = page % "vllm serve org/m --tensor-parallel-size 8"
    case("import-ok", ["import", "--out", "out", "p.txt"], {"p.txt": ok}, None, None, outputs=["out"])
    case("import-no-out", ["import", "p.txt"], {"p.txt": ok}, 3, r"--out")
    case("import-no-page", ["import", "--out", "out"], {}, 3, r"no page")
    case("import-binary", ["import", "--out", "out", "p.txt"], {"p.txt": b"\x00\x01"}, 2, loc("p.txt"))
    case("import-empty", ["import", "--out", "out", "p.txt"], {"p.txt": ""}, 2, loc("p.txt"))
    case("import-no-submitted", ["import", "--out", "out", "p.txt"], {"p.txt": ok.replace("Submitted by fuzz\n", "")},
         2, loc("p.txt") + ".*Submitted by")
    case("import-bad-script", ["import", "--out", "out", "p.txt"], {"p.txt": page % "vllm serve 'org/m"}, 2,
         loc("p.txt"))
    # invalid JSON is one finding (SL1004 when the entry is checked), not
    # an unreadable page: the entry is written as the page has it, with a
    # located warning, and its name never says "nospec" for what it could
    # not read
    case("import-bad-json", ["import", "--out", "out", "p.txt"],
         {"p.txt": page % "vllm serve org/m --speculative-config '{\"method\": x}'"}, 0,
         loc("p.txt") + "warning: invalid JSON.*named without its speculative decoding",
         outputs=["out"])
    case("import-out-is-file", ["import", "--out", "out", "p.txt"], {"p.txt": ok, "out": "x\n"}, 2, r"out")
    case("import-twice", ["import", "--out", "out", "p.txt", "p.txt"], {"p.txt": ok}, 0, None, outputs=["out"])
    case("import-spec-dash", ["import", "--dry-run", "p.txt"],
         {"p.txt": page % "vllm serve org/m --speculative-config '{\"method\": \"-\", \"num_speculative_tokens\": 3}'"},
         0, None)
    case("import-dotdot-model", ["import", "--out", "out/in", "p.txt"],
         {"p.txt": ok.replace("Test Model", ".."), "out/.keep": ""}, 2, loc("p.txt"))
    case("import-section-traversal", ["import", "--out", "out/in", "p.txt"],
         {"p.txt": page % ("trtllm-serve org/m --config cfg.yaml\n# ---------------- ../../x.yaml ----------------\n"
                           "a: 1"), "out/.keep": ""}, 2, loc("p.txt"))
    case("matrix-page-bad", ["matrix", "p.txt"], {"p.txt": page % "vllm serve \"org/m"}, 2, loc("p.txt"))


def add_usage_cases():
    cmds = ["show", "check", "diff", "matrix", "log", "review", "audit", "import", "run", "rules"]
    for c in cmds:
        case("usage-%s-unknown-option" % c, [c, "--bogus"], {}, 3, r"(unrecognized|unknown|invalid) option|usage|no rule")
        case("usage-%s-missing-value" % c, [c, "--format"], {}, 3, r"requires an argument|usage") \
            if c not in ("rules",) else None
    case("usage-dispatch-unknown", ["bogus"], {}, 3, r"unknown command")
    case("usage-dispatch-none", [], {}, 3, r"usage")
    g = {"good.sh": GOOD, "b.sh": GOOD2}
    for c in ("show", "check", "diff", "matrix", "audit", "run"):
        args = ["good.sh", "b.sh"] if c in ("diff", "matrix") else ["good.sh"]
        pre = ["--dry-run"] if c == "run" else []
        if c != "audit" or True:
            case("usage-%s-bad-format" % c, [c] + pre + ["--format", "yaml"] + args, g, 3, r"format")
        case("usage-%s-bad-color" % c, [c] + pre + ["--color", "sometimes"] + args, g, 3, r"color") \
            if c != "run" else None
    for c in ("show", "check", "diff", "run"):
        args = ["good.sh", "b.sh"] if c == "diff" else ["good.sh"]
        pre = ["--dry-run"] if c == "run" else []
        case("usage-%s-set-no-eq" % c, [c] + pre + ["--set", "MODEL"] + args, g, 3, r"NAME=VALUE")
        if c != "run":  # run --set also takes placeholder names (host-path=...)
            case("usage-%s-set-bad-name" % c, [c] + pre + ["--set", "1 2=x"] + args, g, 3, r"NAME=VALUE|name")
        if c != "check":
            case("usage-%s-variant-zero" % c, [c] + pre + ["--variant", "0"] + args, g, 3, r"variant")
            case("usage-%s-variant-abc" % c, [c] + pre + ["--variant", "abc"] + args, g, 3, r"variant")
    case("usage-show-no-path", ["show"], {}, 3, r"usage|PATH")
    case("usage-check-no-path", ["check"], {}, 3, r"usage|PATH")
    case("usage-diff-one", ["diff", "good.sh"], g, 3, r"usage|two")
    case("usage-diff-three", ["diff", "good.sh", "b.sh", "good.sh"], g, 3, r"usage|two")
    case("usage-matrix-none", ["matrix"], {}, 3, r"usage")
    case("usage-audit-none", ["audit"], {}, 3, r"usage")
    case("usage-run-none", ["run"], {}, 3, r"usage|ENTRY")
    case("usage-run-two", ["run", "--dry-run", "good.sh", "b.sh"], g, 3, r"usage|one")
    case("usage-check-severity", ["check", "--severity", "fatal", "good.sh"], g, 3, r"severity|level")
    case("usage-check-threshold", ["check", "--failure-threshold", "fatal", "good.sh"], g, 3, r"level|threshold|severity")
    case("check-output-first", ["check", "--output", "r.txt", "good.sh"], g, None, None, outputs=["r.txt"])
    case("usage-check-config-missing", ["check", "--config", "nope.yaml", "good.sh"], g, 2, r"nope\.yaml")
    case("check-config-bad-yaml", ["check", "--config", "c.yaml", "good.sh"], dict(g, **{"c.yaml": "disable: [\n"}), 2,
         loc("c.yaml"))
    case("check-config-bad-key", ["check", "--config", "c.yaml", "good.sh"], dict(g, **{"c.yaml": "disable: 7\n"}), 2,
         loc("c.yaml"))
    case("check-config-bad-rule", ["check", "--config", "c.yaml", "good.sh"],
         dict(g, **{"c.yaml": "severity: {SL1001: fatal}\n"}), 2, loc("c.yaml"))
    case("usage-rules-unknown", ["rules", "SL0000"], {}, 3, r"SL0000")
    for opt, val in (("--timeout", "-1"), ("--timeout", "abc"), ("--grace", "-5"), ("--repeat", "0"),
                     ("--repeat", "x"), ("--warmup", "-1"), ("--ready", "ftp:x"), ("--service", "nosuch"),
                     ("--timeout", "nan"), ("--grace", "inf"), ("--grace", "nan")):
        rc = 3
        case("usage-run%s-%s" % (opt, val), ["run", "--dry-run", opt, val, "good.sh"], g, rc,
             opt.lstrip("-") if opt != "--service" else "nosuch")
    case("usage-diff-variant-three", ["diff", "--variant", "1", "--variant", "1", "--variant", "1", "good.sh", "b.sh"],
         g, 3, r"variant")
    case("usage-log-two-paths", ["log", "a", "b", "c"], {}, 3, r"usage")
    case("usage-review-three", ["review", "a", "b", "c"], {}, 3, r"usage")


def add_git_cases():
    base = {"e/launch.sh": GOOD}
    bad = {"e/launch.sh": "vllm serve m --max-num-seqs \"64\n"}
    case("log-outside-repo", ["log", "e"], base, 2,
         r"not in a git repository \(none in the current folder or above it\)$", nogit=True)
    case("review-outside-repo", ["review", "HEAD"], base, 2, r"not in a git repository", nogit=True)
    # the version that cannot be read is said (REV:path:line:col on stderr,
    # "cannot be read" in the history), the rest of the history follows
    case("log-bad-commit", ["log", "e/launch.sh"], None, 2, r"^[0-9a-f]{40}:e/launch\.sh:\d+:\d+: ",
         git=[base, bad], report=True, out=r"^  cannot be read .*\n(.*\n)*  added$")
    case("review-bad-head", ["review", "HEAD~1", "HEAD"], None, 2, r"e/launch\.sh:\d+:\d+: ", git=[base, bad], report=True)
    case("diff-rev-bad", ["diff", "HEAD~1:e/launch.sh", "HEAD:e/launch.sh"], None, 2, r"e/launch\.sh:\d+:\d+: ",
         git=[base, bad])
    case("diff-revs-bad", ["diff", "HEAD~1", "HEAD"], None, 2, r"e/launch\.sh:\d+:\d+: ", git=[base, bad])
    case("diff-rev-missing-path", ["diff", "HEAD:nope.sh", "e/launch.sh"], None, 2, r"nope\.sh", git=[base])
    case("diff-rev-missing-tag", ["diff", "v9.9", "HEAD"], None, 2, r"v9\.9.*(unknown revision|not a revision)",
         git=[base])
    case("review-unknown-rev", ["review", "nosuch"], None, 2, r"nosuch", git=[base])
    case("log-unknown-path", ["log", "nope"], None, 2, r"nope", git=[base])
    case("matrix-rev-bad", ["matrix", "HEAD:e/launch.sh", "HEAD~1:e/launch.sh"], None, 2, r"e/launch\.sh:\d+:\d+: ",
         git=[base, bad])


add_script_cases()
add_yaml_cases()
add_file_cases()
add_output_cases()
add_import_cases()
add_usage_cases()
add_git_cases()


# ---------------------------------------------------------------- running
def listing(top):
    out = set()
    for root, dirs, files in os.walk(top):
        for n in dirs + files:
            out.add(os.path.relpath(os.path.join(root, n), top))
    return out


def whole(path):
    """'' when PATH (a written output) is complete, else what is wrong"""
    if os.path.isdir(path):
        return ""
    data = open(path, "rb").read()
    if not data and path.endswith((".json", ".sarif", ".xml", ".html")):
        return "empty"
    try:
        if path.endswith((".json", ".sarif")):
            json.loads(data)
        elif path.endswith(".xml"):
            ET.fromstring(data)
        elif path.endswith(".html") and not data.rstrip().endswith(b"</html>"):
            return "HTML not ended"
    except Exception as e:  # noqa: BLE001
        return "not whole: %s" % e
    return ""


def git(d, *args):
    subprocess.run(["git", "-C", d] + list(args), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
                            GIT_COMMITTER_EMAIL="t@t", GIT_AUTHOR_DATE="2026-01-01T00:00:00Z",
                            GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"))


def write(d, files):
    for rel, text in files.items():
        p = os.path.join(d, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(text.encode() if isinstance(text, str) else text)


def run_case(c):
    box = os.path.join(tempfile.mkdtemp(prefix="servelint-bad-") if c["nogit"] else WORK, c["name"])
    shutil.rmtree(box, ignore_errors=True)
    d = os.path.join(box, "in")
    os.makedirs(d)
    open(os.path.join(box, "sentinel"), "w").close()
    if c["git"]:
        git(d, "init", "-q", "-b", "main")
        for commit in c["git"]:
            write(d, commit)
            git(d, "add", "-A")
            git(d, "commit", "-q", "-m", "c")
    write(d, c["files"])
    for rel, target in c["links"].items():
        os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
        os.symlink(target, os.path.join(d, rel))
    for rel in c["fifos"]:
        os.makedirs(os.path.dirname(os.path.join(d, rel)) or d, exist_ok=True)
        os.mkfifo(os.path.join(d, rel))
    before_in, before_box = listing(d), listing(box)
    env = dict(os.environ, NO_COLOR="1", LC_ALL="C")
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
    problems = []
    try:
        p = subprocess.run([BIN] + c["argv"], cwd=d, input=c["stdin"] if c["stdin"] is not None else b"",
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT, env=env)
        rc, out, err = p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return c, ["hang: no exit within %d s" % TIMEOUT], ""
    if SAN.search(err):
        problems.append("sanitizer report: " + SAN.search(err).group(0))
    want = c["rc"]
    if want is None:
        if rc not in (0, 1):
            problems.append("exit %d, want 0 or 1" % rc)
    elif rc != want:
        problems.append("exit %d, want %d" % (rc, want))
    report = c["report"] or (c["argv"][:1] in (["check"], ["audit"]) and want == 2)
    if rc in (2, 3) and out and not (report and rc == 2):
        problems.append("wrote %d bytes to stdout on failure" % len(out))
    report = c["report"] or (c["argv"][:1] in (["check"], ["audit"]) and want == 2)
    seen = err
    if report:
        seen += "\n" + out.decode("utf-8", "replace")
        for o in list(c["outputs"]) + [c["argv"][i + 1] for i, a in enumerate(c["argv"][:-1])
                                       if a in ("--output", "-o", "--html")]:
            if os.path.isfile(os.path.join(d, o)):
                seen += "\n" + open(os.path.join(d, o), "rb").read().decode("utf-8", "replace")
    # in a report (SARIF, checkstyle, JSON) the place is members, not a
    # file:line:col prefix: the file and then the message, anywhere after
    loose = re.sub(r":\\d\+:\\d\+: ", ".*", c["err"]).lstrip("^") if c["err"] and report else None
    if c["err"] and not re.search(c["err"], seen, re.M) and not (loose and re.search(loose, seen, re.M | re.S)):
        problems.append("stderr does not match /%s/" % c["err"])
    if c["out"] and not re.search(c["out"], out.decode("utf-8", "replace"), re.M):
        problems.append("stdout does not match /%s/" % c["out"])
    after_in, after_box = listing(d), listing(box)
    new = after_in - before_in
    allowed = set()
    outputs = list(c["outputs"])
    if report:  # reports are written also when an entry cannot be read
        outputs += [c["argv"][i + 1] for i, a in enumerate(c["argv"][:-1]) if a in ("--output", "-o", "--html")]
    if rc in (0, 1) or (report and rc == 2):
        for o in outputs:
            allowed |= {n for n in new if n == o or n.startswith(o + "/")}
    # the index of what each script sources, a cache in the git folder
    # (src/source/git/sourced_index.c): written whole by any run that read
    # scripts at a revision, failed or not; its temporary files are strays
    allowed |= {n for n in new if n in (".git/servelint", ".git/servelint/sourced-index")}
    stray = sorted(new - allowed)
    if stray:
        problems.append("left files: " + " ".join(stray[:5]))
    for rel, text in c["files"].items():
        p = os.path.join(d, rel)
        if rel in c["outputs"] or not os.path.isfile(p):
            continue
        if open(p, "rb").read() != (text.encode() if isinstance(text, str) else text):
            problems.append("changed its input %s" % rel)
    outside = sorted({n for n in after_box - before_box if n != "in" and not n.startswith("in/")})
    if outside:
        problems.append("wrote outside its folder: " + " ".join(outside[:5]))
    for o in allowed:
        why = whole(os.path.join(d, o))
        if why:
            problems.append("%s: %s" % (o, why))
    if not problems:
        shutil.rmtree(box, ignore_errors=True)
    if c["nogit"]:
        shutil.rmtree(os.path.dirname(box), ignore_errors=True)
    return c, problems, err


def main():
    os.makedirs(WORK, exist_ok=True)
    todo = [c for c in CASES if not ONLY or ONLY.search(c["name"])]
    passed = failed = xfail = xpass = 0
    jobs = int(os.environ.get("BAD_JOBS", "2"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for c, problems, err in ex.map(run_case, todo):
            defect = c["xfail"] or (c["asan_xfail"] if ASAN else None)
            if problems and defect:
                xfail += 1
                print("XFAIL %s [%s]: %s" % (c["name"], defect, "; ".join(problems)))
            elif problems:
                failed += 1
                print("FAIL %s: %s\n  argv: %s\n  stderr: %s" % (c["name"], "; ".join(problems), " ".join(c["argv"]),
                                                                 err.strip()[:400].replace("\n", "\n          ")))
            elif defect:
                xpass += 1
                passed += 1
                print("XPASS %s: passes, though marked [%s]: remove the mark" % (c["name"], defect))
            else:
                passed += 1
    if xpass:
        print("(%d of the passed were marked xfail)" % xpass)
    print("bad-inputs: %d passed, %d failed, %d xfail" % (passed, failed, xfail))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
