#!/usr/bin/env python3
"""tests/samples.py SERVELINT [--show]: every sample of README.md and docs/*.md is
what the build prints.

A sample is a fenced block whose first line is a command, `$ servelint ...`
(or `$ build/servelint ...`, `$ VAR=x servelint ...`, `$ git ...`; a line
ending in a backslash goes on), followed by what it prints; a block may
hold several commands in turn. Each command is run with `servelint` (and
`build/servelint`) being this build, standard output and standard error
together as a terminal shows them (with --color auto on a pipe: no
colour), and its output must be the lines shown, but for a line `...`
(alone, at any indentation), which stands for any number of lines, and
trailing blanks. Where it runs:

- a command that names a git revision or `cat/` runs in the history of
  tests/data/mkrepo.sh (fixed names and dates: the same commit ids every
  run), made once for all;
- `init` runs in an empty folder of its own, the block's commands in turn;
- the others run from the source root.

`run`'s samples with `--repeat` start tests/run.sh's stand-in engine (as
`vllm`) and time it: their figures cannot be the same twice, so in them
each number is compared as a number's place (digits match digits, columns
match whatever their width); the rest of each line must be as shown. --show
prints each command's output (to write a sample from it).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

BIN = os.path.abspath(sys.argv[1])
SHOW = "--show" in sys.argv[2:]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def samples(path):
    """(line, [(command, expected lines)]) per block that starts with `$ `"""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i = [], 0
    while i < len(lines):
        if not lines[i].startswith("```"):
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        body = lines[i + 1:j]
        if body and body[0].startswith("$ "):
            cmds, k = [], 0
            while k < len(body):
                if body[k].startswith("$ "):
                    cmd = body[k][2:]
                    while cmd.endswith("\\") and k + 1 < len(body):
                        k += 1
                        cmd = cmd[:-1] + " " + body[k].strip()
                    cmds.append((cmd, []))
                else:
                    cmds[-1][1].append(body[k])
                k += 1
            out.append((i + 2, cmds))
        i = j + 1
    return out


def numbers(s):
    """a line of figures: digits as digits, columns as one blank"""
    return re.sub(r" +", " ", re.sub(r"[0-9]+", "0", s))


def matches(want, got, fuzzy):
    """want's lines against got's, `...` any number of lines"""
    norm = numbers if fuzzy else (lambda s: s)
    want = [norm(w.rstrip()) for w in want]
    got = [norm(g.rstrip()) for g in got]
    while want and not want[-1]:
        want.pop()
    while got and not got[-1]:
        got.pop()
    memo = {}

    def m(a, b):
        if (a, b) in memo:
            return memo[(a, b)]
        if a == len(want):
            r = b == len(got)
        elif want[a].strip() == "...":
            r = any(m(a + 1, c) for c in range(b, len(got) + 1))
        else:
            r = b < len(got) and want[a] == got[b] and m(a + 1, b + 1)
        memo[(a, b)] = r
        return r

    return m(0, 0)


def main():
    work = tempfile.mkdtemp(prefix="servelint-samples.")
    bindir = os.path.join(work, "bin")
    os.makedirs(bindir)
    os.symlink(BIN, os.path.join(bindir, "servelint"))
    hist = os.path.join(work, "hist")
    subprocess.run(["sh", os.path.join(ROOT, "tests/data/mkrepo.sh"), hist], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # run's samples start the stand-in engine of tests/run.sh (a small
    # HTTP server) as `vllm`
    standin = os.path.join(ROOT, "tests/data/run/standin.py")
    with open(os.path.join(bindir, "vllm"), "w") as f:
        f.write('#!/bin/sh\nexec %s %s vllm "$@"\n' % (sys.executable, standin))
    os.chmod(os.path.join(bindir, "vllm"), 0o755)
    env = dict(os.environ, PATH=bindir + ":" + os.environ.get("PATH", ""), LC_ALL="C.UTF-8",
               STANDIN_LOG=os.path.join(work, "standin.log"), STANDIN_REGISTRY=os.path.join(work, "registry"))
    env.pop("NO_COLOR", None)
    env.pop("GIT_EXTERNAL_DIFF", None)
    passed = failed = 0
    files = ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
    for f in files:
        for line, cmds in samples(os.path.join(ROOT, f)):
            own = None
            for cmd, want in cmds:
                c = re.sub(r"(^|[\s;|&(])build/servelint\b", r"\1servelint", cmd)
                if re.search(r"\bservelint init\b", c):
                    own = own or tempfile.mkdtemp(dir=work)
                    cwd = own
                elif re.search(r"\bHEAD\b|\bcat/|^git |\bgit ", c):
                    cwd = hist
                else:
                    cwd = ROOT
                p = subprocess.run(["sh", "-c", c], cwd=cwd, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, timeout=300)
                got = p.stdout.decode("utf-8", "replace").split("\n")
                fuzzy = " run " in " " + c and "--repeat" in c
                if SHOW:
                    print("%s:%d: $ %s\n%s" % (f, line, cmd, "\n".join(got)))
                if matches(want, got, fuzzy):
                    passed += 1
                else:
                    failed += 1
                    print("FAIL %s:%d: $ %s\n--- the sample\n%s\n--- the build prints (exit %d)\n%s" %
                          (f, line, cmd, "\n".join(want), p.returncode, "\n".join(got)))
    shutil.rmtree(work, ignore_errors=True)
    print("samples: %d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
