#!/usr/bin/env python3
"""Engine facts from the engines' own sources, per release.

Two stages (see docs/engine-facts.md):

  extract  engine source (a git dir at a commit, or a plain folder) -> one raw
           facts file per surface and release (grammars/facts/raw/*.json)
  derive   every raw facts file -> one merged history per surface
           (grammars/facts/<surface>.json), which servelint embeds

The sources are read, never imported or run: Python files through `ast`
(pysrc.py), TensorRT-LLM's CLI reference YAML through a small reader for its
layout. Standard library only.
"""
import argparse
import ast
import fnmatch
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pysrc import Symbols, ann_type, dotted, helper_functions, model_keys, python_flags  # noqa: E402
from clicksrc import click_flags  # noqa: E402
from renames import name_replacements  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# --------------------------------------------------------------------------
# Reading a source tree


class GitTree:
    """Files of one commit of a git directory, read with `git show`; with a
    subdir, the files under it, named from it (an engine's tree vendored
    into another repository)."""

    def __init__(self, git_dir, commit, subdir=""):
        self.git_dir, self.commit = git_dir, commit
        self.subdir = subdir.strip("/") + "/" if subdir else ""
        out = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", commit],
                             check=True, capture_output=True, text=True).stdout
        self.paths = [p[len(self.subdir):] for p in out.split("\n") if p.startswith(self.subdir)]

    def read(self, path):
        r = subprocess.run(["git", "--git-dir", self.git_dir, "show", f"{self.commit}:{self.subdir}{path}"],
                           capture_output=True)
        return r.stdout.decode("utf-8", "replace") if r.returncode == 0 else None


class DirTree:
    """Files of a plain folder (the test excerpts)."""

    def __init__(self, root):
        self.root = root
        self.paths = []
        for d, _, fs in os.walk(root):
            for f in fs:
                self.paths.append(os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/"))

    def read(self, path):
        try:
            with open(os.path.join(self.root, path), encoding="utf-8") as f:
                return f.read()
        except OSError:
            return None


def pick(tree, patterns):
    """Paths of the tree matching any pattern, in sorted order."""
    out = []
    for p in sorted(tree.paths):
        for pat in patterns:
            if fnmatch.fnmatchcase(p, pat) and ("tests/" in pat or "/tests/" not in "/" + p):
                out.append(p)
                break
    return out


# --------------------------------------------------------------------------
# TensorRT-LLM's CLI reference (tests/unittest/api_stability/references/trtllm_serve_cli.yaml)


def read_simple_yaml(text):
    """Nested mappings, lists of scalars and scalars, by indentation: the reference's layout."""
    lines = []
    for raw in text.split("\n"):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        lines.append((len(raw) - len(raw.lstrip()), raw.strip()))

    def block(i, ind):
        if i < len(lines) and lines[i][1].startswith("- "):
            out = []
            while i < len(lines) and lines[i][0] == ind and lines[i][1].startswith("- "):
                out.append(scalar(lines[i][1][2:].strip()))
                i += 1
            return out, i
        out = {}
        while i < len(lines) and lines[i][0] == ind and not lines[i][1].startswith("- "):
            key, _, val = lines[i][1].partition(":")
            key, val = key.strip().strip('"'), val.strip()
            i += 1
            if val:
                out[key] = scalar(val)
            elif i < len(lines) and (lines[i][0] > ind or (lines[i][0] == ind and lines[i][1].startswith("- "))):
                out[key], i = block(i, lines[i][0])
            else:
                out[key] = None
        return out, i

    doc, _ = block(0, lines[0][0]) if lines else ({}, 0)
    return doc


def scalar(s):
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "\"'":
        return s[1:-1]
    if s in ("null", "~"):
        return None
    if s in ("true", "false"):
        return s == "true"
    try:
        return int(s)
    except ValueError:
        pass
    try:
        return float(s)
    except ValueError:
        return s


def click_reference(text, command):
    doc = read_simple_yaml(text)
    opts = ((doc.get("commands") or {}).get(command) or {}).get("options") or {}
    flags = []
    for name in sorted(opts):
        o = opts[name]
        if not isinstance(o, dict):
            continue
        names = o.get("flags") or ["--" + name]
        if not isinstance(names, list):
            continue
        t = str(o.get("type") or "str")
        f = {"names": sorted(names, key=lambda n: (n.lstrip("-") != name, len(n) < 3, n))}
        m = re.match(r"Choice\(\[(.*)\]\)", t)
        if o.get("is_flag"):
            f["type"], f["bool"] = "bool", "store_true"
            neg = [n for n in names if n.startswith("--no-") or n.startswith("--no_")]
            if neg:
                f["bool"] = "click_pair"
        elif m:
            f["type"] = "string"
            f["choices"] = [c.strip().strip("'\"") for c in m.group(1).split(",") if c.strip()]
        else:
            f["type"] = {"int": "int", "float": "float", "INTEGER": "int", "FLOAT": "float"}.get(t, "string")
        if o.get("multiple"):
            f["nargs"] = "multiple"
        d = o.get("default")
        if d is not None and not isinstance(d, (list, dict)):
            f["default"] = d
        if o.get("status") == "deprecated":
            f["deprecated"] = True
        flags.append(f)
    return flags


# --------------------------------------------------------------------------
# Surfaces: which files declare which command line


SURFACES = {
    "vllm": {"engine": "vllm", "kind": "python",
             "files": ["vllm/engine/arg_utils.py", "vllm/config.py", "vllm/config/*.py",
                       "vllm/entrypoints/openai/cli_args.py", "vllm/utils.py", "vllm/utils/__init__.py",
                       "vllm/utils/argparse_utils.py"],
             "args_files": ["vllm/engine/arg_utils.py", "vllm/entrypoints/openai/cli_args.py"],
             "frontend_classes": ["FrontendArgs"],
             # JSON flags whose members are a config dataclass's fields
             # (`--speculative-config '{"method":"eagle"}'`): each field's
             # type and Literal choices, as "<flag> <member>" entries
             # (vllm/config/speculative.py, vllm/config/kv_transfer.py)
             "member_classes": {"--speculative-config": "SpeculativeConfig",
                                "--kv-transfer-config": "KVTransferConfig"}},
    "sglang": {"engine": "sglang", "kind": "python",
               "files": ["python/sglang/srt/server_args.py", "python/sglang/srt/arg_groups/*.py",
                         "python/sglang/srt/utils/common.py"],
               "args_files": ["python/sglang/srt/server_args.py", "python/sglang/srt/arg_groups/*.py"],
               "annotated_class": "ServerArgs"},
    # the CLI reference where the release has it, else the click options of
    # serve.py (releases before the reference; logger.py: --log_level's choices)
    "trtllm": {"engine": "trtllm", "kind": "click_reference", "command": "serve",
               "files": ["tests/unittest/api_stability/references/trtllm_serve_cli.yaml"],
               "click_files": ["tensorrt_llm/commands/serve.py", "tensorrt_llm/logger.py"]},
    "trtllm-disagg": {"engine": "trtllm-disagg", "kind": "click_reference", "command": "disaggregated",
                      "files": ["tests/unittest/api_stability/references/trtllm_serve_cli.yaml"],
                      "click_files": ["tensorrt_llm/commands/serve.py", "tensorrt_llm/logger.py"]},
    "trtllm-config": {"engine": "trtllm", "kind": "pydantic", "roots": ["TorchLlmArgs", "LlmArgs"],
                      "files": ["tensorrt_llm/llmapi/llm_args.py", "tensorrt_llm/llmapi/*_config.py"]},
    "dynamo-frontend": {"engine": "dynamo-frontend", "kind": "python",
                        "files": ["components/src/dynamo/frontend/frontend_args.py",
                                  "components/src/dynamo/frontend/main.py",
                                  "components/frontend/src/dynamo/frontend/main.py",
                                  "components/src/dynamo/common/configuration/groups/*.py",
                                  "components/src/dynamo/common/configuration/*.py"],
                        "args_files": ["components/src/dynamo/frontend/frontend_args.py",
                                       "components/src/dynamo/frontend/main.py",
                                       "components/frontend/src/dynamo/frontend/main.py",
                                       "components/src/dynamo/common/configuration/groups/http_args.py",
                                       "components/src/dynamo/common/configuration/groups/router_args.py",
                                       "components/src/dynamo/common/configuration/groups/kv_router_args.py",
                                       "components/src/dynamo/common/configuration/groups/frontend_*.py",
                                       "components/src/dynamo/common/configuration/groups/aic_perf_args.py"]},
    # ATOM (ROCm/ATOM): EngineArgs.add_cli_args plus the flags the server's
    # main() adds (atom/entrypoints/openai_server.py up to 0.1.2, then
    # openai/api_server.py, which openai_server.py runs); engine_core_mgr.py
    # holds a choices tuple; utils/arg_parser.py the FlexibleArgumentParser
    # of later releases, which registers both spellings of every long flag.
    # The atomesh server (USE_ATOMESH_ENTRYPOINTS=1) is another parser, not read.
    "atom": {"engine": "atom", "kind": "python",
             "files": ["atom/model_engine/arg_utils.py", "atom/model_engine/engine_core_mgr.py",
                       "atom/entrypoints/openai_server.py", "atom/entrypoints/openai/api_server.py",
                       "atom/utils/arg_parser.py"],
             "args_files": ["atom/model_engine/arg_utils.py", "atom/entrypoints/openai_server.py",
                            "atom/entrypoints/openai/api_server.py"],
             "dual_spelling_parser": "FlexibleArgumentParser"},
}
for _w in ("vllm", "sglang", "trtllm"):
    SURFACES["dynamo-" + _w] = {
        "engine": "dynamo-" + _w, "kind": "python",
        "files": [f"components/src/dynamo/{_w}/*.py", f"components/backends/{_w}/src/dynamo/{_w}/*.py",
                  "components/src/dynamo/common/configuration/groups/*.py",
                  "components/src/dynamo/common/configuration/*.py"],
        "args_files": [f"components/src/dynamo/{_w}/backend_args.py", f"components/src/dynamo/{_w}/args.py",
                       f"components/backends/{_w}/src/dynamo/{_w}/args.py",
                       f"components/src/dynamo/{_w}/utils/{_w}_utils.py",
                       f"components/backends/{_w}/src/dynamo/{_w}/utils/{_w}_utils.py",
                       "components/src/dynamo/common/configuration/groups/runtime_args.py",
                       "components/src/dynamo/common/configuration/groups/kv_router_args.py"]}


def abbrev_of(surface, texts):
    """Whether the engine's parser resolves unique prefixes (argparse allow_abbrev)."""
    if SURFACES[surface]["kind"] == "click_reference":
        return False
    joined = "\n".join(texts.values())
    if surface == "vllm":
        m = re.search(r"class FlexibleArgumentParser\b(.*?)(?=\nclass |\Z)", joined, re.S)
        return not (m and re.search(r"allow_abbrev\W+False", m.group(1)))
    return not re.search(r"allow_abbrev\s*=\s*False", joined)


def rewritten_aliases(texts, flags):
    """Spellings the parser rewrites before argparse sees them (vLLM: `-O3` -> `--optimization-level 3`)."""
    out = []
    known = {n for f in flags for n in f["names"]}
    for t in texts.values():
        for m in re.finditer(r'arg\.startswith\("(-[A-Za-z])"\)(.{0,600}?)"(--[a-z][a-z0-9-]+)"', t, re.S):
            short, target = m.group(1), m.group(3)
            if target in known and short not in known:
                f = next(f for f in flags if target in f["names"])
                out.append(dict(f, names=[target, short]))
                known.add(short)
    return out


def dual_spelling_parser(syms, cname, apaths):
    """Whether the server's parser is an ArgumentParser subclass cname whose
    add_argument registers each long flag's '-'/'_' counterpart (ATOM's
    FlexibleArgumentParser, atom/utils/arg_parser.py): the class is defined
    in the files read, its add_argument calls both .replace("_", "-") and
    .replace("-", "_"), and an args file makes one."""
    cls = syms.classes.get(cname)
    if cls is None:
        return False
    meth = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "add_argument"), None)
    if meth is None:
        return False
    reps = set()
    for node in ast.walk(meth):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "replace" and len(node.args) == 2 \
                and all(isinstance(a, ast.Constant) for a in node.args):
            reps.add((node.args[0].value, node.args[1].value))
    if not {("_", "-"), ("-", "_")} <= reps:
        return False
    for p, mod in syms.modules:
        if p not in apaths:
            continue
        for node in ast.walk(mod):
            if isinstance(node, ast.Call) and (dotted(node.func) or "").split(".")[-1] == cname:
                return True
    return False


def dual_spellings(flags):
    """Each long flag's counterpart spellings, as FlexibleArgumentParser adds
    them: '--x_y' gains '--x-y' and '--x-y' gains '--x_y', in declaration
    order, unless another flag has the spelling (a real flag wins over an
    added one)."""
    declared = {n for f in flags for n in f["names"]}
    taken = set()
    for f in flags:
        add = []
        for n in f["names"]:
            if not n.startswith("--"):
                continue
            stem = n[2:]
            for alt in ("--" + stem.replace("_", "-"), "--" + stem.replace("-", "_")):
                if alt not in f["names"] and alt not in add and alt not in declared and alt not in taken:
                    add.append(alt)
        taken.update(add)
        f["names"] = f["names"] + add


def merge_keys(keys):
    """One entry per dotted path: the members of a Union of models share a path."""
    by = {}
    for k in keys:
        g = by.setdefault(k["path"], dict(k))
        if g is k or g == k:
            continue
        if g.get("type") != k.get("type"):
            g["type"] = "string" if "json" not in (g.get("type"), k.get("type")) else "json"
        if "choices" in g or "choices" in k:
            if "choices" in g and "choices" in k:
                g["choices"] = g["choices"] + [c for c in k["choices"] if c not in g["choices"]]
            else:
                g.pop("choices", None)
        if g.get("default") != k.get("default"):
            g.pop("default", None)
    return [by[p] for p in sorted(by)]


def merge_flags(flags):
    """One entry per primary spelling; later declarations add aliases."""
    out, by = [], {}
    for f in flags:
        key = f["names"][0]
        if key in by:
            g = by[key]
            for n in f["names"]:
                if n not in g["names"]:
                    g["names"].append(n)
            for k, v in f.items():
                if k != "names" and k not in g:
                    g[k] = v
            continue
        by[key] = f
        out.append(f)
    # a spelling declared as an alias of one flag and primary of none stays with its flag
    seen = {}
    for f in out:
        f["names"] = [n for n in f["names"] if not (n in seen and seen[n] != f["names"][0])]
        for n in f["names"]:
            seen.setdefault(n, f["names"][0])
    return sorted((f for f in out if f["names"]), key=lambda f: f["names"][0])


def extract(tree, surface, meta):
    spec = SURFACES[surface]
    paths = pick(tree, spec["files"])
    texts = {p: tree.read(p) for p in paths}
    texts = {p: t for p, t in texts.items() if t is not None}
    raw = {"surface": surface, "engine": spec["engine"]}
    raw.update(meta)
    if spec["kind"] == "click_reference":
        flags = []
        for p, t in texts.items():
            flags += click_reference(t, spec["command"])
        if not texts and spec.get("click_files"):
            texts = {p: tree.read(p) for p in pick(tree, spec["click_files"])}
            texts = {p: t for p, t in texts.items() if t is not None}
            syms = Symbols()
            for p in sorted(texts):
                syms.add(p, texts[p])
            flags, unread = click_flags(syms, spec["command"])
            if unread:
                raw["unread_decorators"] = sorted(set(unread))
        raw["files"] = sorted(texts)
        raw["parser"] = {"abbrev": False}
        raw["flags"] = merge_flags(flags)
        return raw
    syms = Symbols()
    for p in sorted(texts):
        syms.add(p, texts[p])
    if spec["kind"] == "pydantic":
        root = next((r for r in spec["roots"] if r in syms.classes), None)
        raw["files"] = sorted(texts)
        raw["config_keys"] = merge_keys(model_keys(syms, root) if root else [])
        return raw
    args = Symbols()
    args.consts, args.classes = syms.consts, syms.classes
    apaths = pick(tree, spec["args_files"])
    args.modules = [(p, m) for p, m in syms.modules if p in apaths]
    helpers = helper_functions([(p, m) for p, m in syms.modules if p not in apaths])
    flags = python_flags(args, spec.get("frontend_classes", ()), spec.get("annotated_class"), helpers)
    flags += rewritten_aliases(texts, flags)
    dual = spec.get("dual_spelling_parser")
    if dual and dual_spelling_parser(syms, dual, apaths):
        dual_spellings(flags)
    # an action class no file read defines: the flag is taken as argparse's
    # default (one value), and named here, so that a gap is seen (gen.sh
    # fails on any)
    unread = sorted({f.pop("unread_action") for f in flags if "unread_action" in f})
    if unread:
        raw["unread_actions"] = unread
    raw["files"] = sorted(texts)
    raw["parser"] = {"abbrev": abbrev_of(surface, texts)}
    raw["flags"] = merge_flags(flags)
    members = json_members(syms, spec.get("member_classes", {}), {n for f in flags for n in f["names"]})
    if members:
        raw["members"] = members
    # a deprecated flag's replacement stated by its field's name (renames.py),
    # from every file read: a config field's doc, a warning's text
    name_replacements(syms, raw["flags"])
    return raw


MEMBER_TYPES = ("int", "float", "bool", "string")


def pydantic_dataclass_names(mod):
    """The names a module binds to pydantic's dataclass (`from
    pydantic.dataclasses import dataclass`), and those of its functions that
    return a call of it (vLLM 0.27.0's `config` decorator, vllm/config/utils.py)."""
    names = {a.asname or a.name for n in mod.body if isinstance(n, ast.ImportFrom)
             and n.module == "pydantic.dataclasses" for a in n.names if a.name == "dataclass"}
    for n in mod.body:
        if isinstance(n, ast.FunctionDef) and any(
                isinstance(c, ast.Call) and dotted(c.func) in names for c in ast.walk(n)):
            names.add(n.name)
    return names


def validated_class(syms, cname):
    """Whether a class is a pydantic dataclass, which refuses a value outside
    a field's Literal (vLLM 0.10.1 on); a plain dataclass (vLLM 0.8.5's
    SpeculativeConfig) checks nothing, and its Literal is no refusal."""
    pyd = set()
    for _, mod in syms.modules:
        pyd |= pydantic_dataclass_names(mod)
    cls = syms.classes[cname]
    for d in cls.decorator_list:
        d = d.func if isinstance(d, ast.Call) else d
        name = dotted(d) or ""
        if name in ("pydantic.dataclasses.dataclass",):
            return True
        mod = next((m for _, m in syms.modules if cls in ast.walk(m)), None)
        local = pydantic_dataclass_names(mod) if mod else set()
        # the module's own `dataclass` is pydantic's, or a decorator defined
        # elsewhere wraps pydantic's (`config`); a plain `dataclass` is not
        if name in local or (name != "dataclass" and name in pyd):
            return True
    return False


def json_members(syms, classes, known):
    """The members of JSON flags whose value is a config dataclass: one
    entry per field, {"path": "<flag> <field>", "type", "choices"}; a type
    other than int, float, bool or string is left out (not judged), and so
    is a flag the release lacks or a class no file read defines. Choices
    only where the class is validated (validated_class)."""
    out = []
    for flag, cname in sorted(classes.items()):
        if flag not in known or cname not in syms.classes:
            continue
        checked = validated_class(syms, cname)
        for name, ann, _ in syms.fields(cname):
            t, ch, _ = ann_type(ann, syms)
            m = {"path": f"{flag} {name}"}
            if t in MEMBER_TYPES:
                m["type"] = t
            if ch and t != "bool" and checked:
                # deduplicated: KVRole is Literal[KVProducer, KVConsumer], both with kv_both
                m["choices"] = list(dict.fromkeys(c for c in ch if c is not None))
            out.append(m)
    return out


# --------------------------------------------------------------------------
# derive: raw facts of every release -> one history per surface


def vkey(v):
    """Order of versions as PEP 440 has it: the release numbers (1.3 is
    1.3.0), then a pre-release (rc, dev) before the release itself, and a
    .postN after it."""
    m = re.match(r"v?(\d+(?:\.\d+)*)(.*)", v.lower())
    if not m:
        return [(0, 0, v)]
    nums = [int(x) for x in m.group(1).split(".")]
    nums += [0] * (6 - len(nums))
    out = [(1, n, "") for n in nums]
    rest = m.group(2)
    tags = re.findall(r"([a-z]+)(\d*)", rest)
    for tag, n in tags:
        if tag == "post":
            out.append((2, int(n or 0), ""))
        else:  # rc, dev, a, b: before the release
            out.append((0, int(n or 0), tag))
    if not tags:
        out.append((1, 0, ""))
    return out


def derive(raws):
    raws = sorted(raws, key=lambda r: vkey(r["version"]))
    surface = raws[0]["surface"]
    rel = [{k: r[k] for k in ("version", "repo", "commit", "date") if k in r} for r in raws]
    n = len(raws)
    spell = {}   # spelling -> {"in": [bool]*n, "f": [facts or None]*n}
    # a flag whose action refuses it (argparse exits at it: SGLang 0.5.18's
    # --enable-expert-distribution-metrics) is no flag that release accepts;
    # what its source says to use instead is kept for the removal
    refused = {}
    for i, r in enumerate(raws):
        for f in r.get("flags", []):
            if f.get("refused"):
                for name in list(f["names"]) + list(f.get("obsolete", [])):
                    if "replacement" in f:
                        refused.setdefault(name, f["replacement"])
                continue
            prim = f["names"][0]
            allnames = list(f["names"])
            for o in f.get("obsolete", []):
                allnames.append(o)
            for name in allnames:
                s = spell.setdefault(name, {"in": [False] * n, "f": [None] * n})
                s["in"][i] = True
                facts = {k: v for k, v in f.items() if k not in ("names", "obsolete")}
                facts["of"] = prim
                if name in f.get("obsolete", []):
                    facts["obsolete"] = True
                s["f"][i] = facts
        for k in r.get("config_keys", []):
            s = spell.setdefault(k["path"], {"in": [False] * n, "f": [None] * n})
            s["in"][i] = True
            s["f"][i] = {kk: vv for kk, vv in k.items() if kk != "path"}
    # a spelling --no-X that some release declares on its own (Dynamo 0.6.1's
    # store_false --no-kv-events) is still accepted by a release where --X is
    # negatable (argparse's BooleanOptionalAction, Dynamo's
    # add_negatable_bool_argument: --kv-events from 0.9.0), as the same
    # switch: taken for it there, never reported as removed
    for i, r in enumerate(raws):
        for f in r.get("flags", []):
            if f.get("bool") != "optional" or f.get("refused"):
                continue
            for name in list(f["names"]) + list(f.get("obsolete", [])):
                neg = "--no-" + name[2:] if name.startswith("--") and not name.startswith("--no-") else None
                s = spell.get(neg)
                if s and not s["in"][i]:
                    s["in"][i] = True
                    s["f"][i] = {"type": "bool", "bool": "store_false", "of": neg}
    # and a spelling some release declares is accepted by a release whose
    # parser resolves unique prefixes (argparse's allow_abbrev) where it is
    # the prefix of one flag's spellings alone: `--model` (Dynamo 1.2.0 on)
    # is --model-path to Dynamo 0.9.0's plain ArgumentParser
    for i, r in enumerate(raws):
        if not r.get("parser", {}).get("abbrev"):
            continue
        owner = {}
        for f in r.get("flags", []):
            for name in list(f["names"]) + list(f.get("obsolete", [])):
                owner[name] = f
        for name, s in spell.items():
            if s["in"][i] or not name.startswith("--") or len(name) <= 3:
                continue
            hits = {id(f) for sp, f in owner.items() if sp.startswith(name)}
            if len(hits) == 1 and not next(f for sp, f in owner.items() if sp.startswith(name)).get("refused"):
                # accepted, with the spelling's own facts of the nearest
                # release declaring it (what it means is left as recorded),
                # less its choices and default, which that release's own
                # flag may not share
                j = min((k for k in range(n) if s["f"][k] and s["in"][k]), key=lambda k: abs(k - i))
                s["in"][i] = True
                s["f"][i] = {k: v for k, v in s["f"][j].items() if k not in ("choices", "default")}
    out = {"surface": surface, "engine": raws[0]["engine"], "releases": rel,
           "parser": [r.get("parser", {}) for r in raws]}
    entries = {}
    for name in sorted(spell):
        s = spell[name]
        idx = [i for i in range(n) if s["in"][i]]
        e = {"in": "".join("1" if x else "0" for x in s["in"])}
        e["first"] = raws[idx[0]]["version"]
        e["last"] = raws[idx[-1]]["version"]
        if idx[-1] < n - 1:
            e["removed"] = raws[idx[-1] + 1]["version"]
        # the newest facts, then the ranges where they differ
        variants = []
        for i in idx:
            f = s["f"][i]
            body = {k: v for k, v in f.items() if k in ("type", "choices", "default", "bool", "nargs", "of")}
            if variants and variants[-1]["v"] == body:
                variants[-1]["to"] = raws[i]["version"]
            else:
                variants.append({"from": raws[i]["version"], "to": raws[i]["version"], "v": body})
        latest = variants[-1]["v"]
        e.update(latest)
        if len(variants) > 1:
            e["history"] = [dict(v["v"], **{"from": v["from"], "to": v["to"]}) for v in variants[:-1]]
        dep = [i for i in idx if s["f"][i].get("deprecated")]
        if dep:
            e["deprecated"] = raws[dep[0]]["version"]
        for i in reversed(idx):
            f = s["f"][i]
            for k in ("replacement", "remove_in", "env", "obsolete"):
                if k in f and k not in e:
                    e[k] = f[k]
        # the releases that read the flag's env var twin (Dynamo's DYN_*):
        # a release may declare the flag before it gives it a variable
        if "env" in e:
            e["env_in"] = "".join("1" if s["f"][i] and s["f"][i].get("env") == e["env"] else "0"
                                  for i in range(n))
        entries[name] = e
    out["flags" if any("flags" in r for r in raws) else "keys"] = entries
    # a removed spelling whose flag lives on under another spelling names it
    if "flags" in out:
        newest = {f["names"][0]: f for f in raws[-1].get("flags", [])}
        for name, e in entries.items():
            if "removed" in e and "replacement" not in e and e.get("of") in newest and e["of"] != name:
                e["replacement"] = e["of"]
            if "removed" in e and "replacement" not in e and name in refused:
                e["replacement"] = refused[name]
    return out


def runtime_table(doc):
    """The form servelint embeds (grammars/facts/<surface>.tsv): a line of the
    releases, then one line per spelling, tab-separated: name, in, of (empty
    when the name itself), type, bool kind, default, choices, replacement,
    history (JSON or empty), deprecated (the first release whose source
    marks it deprecated, or empty), nargs (`?` for a value that may be
    left out, or empty); then one line per env var twin
    of a flag (name, the releases reading it, the flag). Cheap to read at start-up; the
    JSON beside it is the same history for people and scripts."""
    def js(v):
        return "" if v is None else json.dumps(v, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    lines = ["releases\t" + "\t".join(r["version"] for r in doc["releases"])]
    entries = doc.get("flags") or doc.get("keys") or {}
    for name, e in sorted(entries.items()):
        # a default or a meaning (`of`: vLLM's -O) that differed in older
        # releases goes with its range: servelint resolves it by the
        # entry's version
        hist = [{k: v for k, v in h.items() if k in ("from", "to", "type", "choices", "bool", "default")
                 or (k == "of" and v != e.get("of", name))}
                for h in e.get("history", [])]
        # a flag of several values is a list; one whose value may be left
        # out (nargs "?") keeps its type: servelint takes the next word as
        # its value, the common form (`--hf-token TOKEN`)
        t = e.get("type", "")
        if e.get("nargs") and e.get("nargs") != "?" and t != "bool":
            t = "list"
        # nargs "?": the value may be left out (ATOM's bare `--enable-tbo`,
        # vLLM's `--hf-token`): servelint then takes the next word only when
        # it is not a flag, as argparse does
        row = [name, e["in"], "" if e.get("of", name) == name else e.get("of", ""), t,
               e.get("bool", ""), js(e.get("default")), js(e.get("choices")), e.get("replacement", ""),
               js(hist) if hist else "", e.get("deprecated", ""),
               "?" if e.get("nargs") == "?" and t != "bool" else ""]
        if any("\t" in x or "\n" in x for x in row):
            continue
        lines.append("\t".join(row))
    # env var twins (Dynamo's DYN_*), one line each after the spellings: the
    # variable, the releases that read it, the flag it stands for, its type;
    # a line not starting with '-' is never taken for a spelling
    twins = {}
    for name, e in entries.items():
        if e.get("env") and e.get("of", name) == name:
            twins.setdefault(e["env"], (name, e))
    for env, (name, e) in sorted(twins.items()):
        t = e.get("type", "")
        if e.get("nargs") and e.get("nargs") != "?" and t != "bool":
            t = "list"
        row = [env, e.get("env_in", e["in"]), name, t, e.get("bool", ""), "", "", "", "", "", ""]
        if not any("\t" in x or "\n" in x for x in row):
            lines.append("\t".join(row))
    return "\n".join(lines) + "\n"


def dump(obj):
    return json.dumps(obj, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------
# command line


def cmd_extract(a):
    if a.git_dir:
        tree = GitTree(a.git_dir, a.commit)
    else:
        tree = DirTree(a.tree)
    meta = {"version": a.version}
    for k in ("repo", "commit", "date", "read_from", "note"):
        v = getattr(a, k)
        if v:
            meta[k] = v
    raw = extract(tree, a.surface, meta)
    text = dump(raw)
    if a.out == "-":
        sys.stdout.write(text)
    else:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text)


def cmd_release(a):
    """Extract the recorded releases (grammars/gen/releases.json) of the surfaces named."""
    with open(os.path.join(HERE, "releases.json"), encoding="utf-8") as f:
        recs = json.load(f)
    done = 0
    for r in recs:
        if r["surface"] not in a.surfaces and a.surfaces != ["all"]:
            continue
        if a.version and r["version"] != a.version:
            continue
        if a.tree:
            tree = DirTree(a.tree)
        elif r.get("read_from") and r["read_from"] != "index":
            tree = GitTree(os.path.join(a.mirrors, r["read_from"].replace("/", "+"), "repo"),
                           r["commit"], r.get("subdir", ""))
        else:
            print(f"{r['surface']} {r['version']}: read through the index, give --tree", file=sys.stderr)
            continue
        meta = {k: r[k] for k in ("version", "repo", "commit", "date", "read_from", "subdir", "note") if k in r}
        raw = extract(tree, r["surface"], meta)
        out = os.path.join(a.out or os.path.join(ROOT, "grammars", "facts", "raw"),
                           f"{r['surface']}-{r['version']}.json")
        with open(out, "w", encoding="utf-8") as f:
            f.write(dump(raw))
        done += 1
        print(f"{out}: {len(raw.get('flags', raw.get('config_keys', [])))} facts")
    if not done:
        sys.exit("no recorded release matched")


def cmd_derive(a):
    raw_dir = a.raw or os.path.join(ROOT, "grammars", "facts", "raw")
    out_dir = a.out or os.path.join(ROOT, "grammars", "facts")
    by = {}
    for fn in sorted(os.listdir(raw_dir)):
        if fn.endswith(".json"):
            with open(os.path.join(raw_dir, fn), encoding="utf-8") as f:
                r = json.load(f)
            by.setdefault(r["surface"], []).append(r)
    bad = 0
    for surface, raws in sorted(by.items()):
        doc = derive(raws)
        outs = [(surface + ".json", json.dumps(doc, separators=(",", ":"), sort_keys=True, ensure_ascii=False) + "\n")]
        outs.append((surface + ".tsv", runtime_table(doc)))
        # the members of its JSON flags, release by release, as flags are
        # (<surface>-members.tsv: one line per "<flag> <member>")
        if any(r.get("members") for r in raws):
            mdoc = derive([dict(r, flags=[dict({k: v for k, v in m.items() if k != "path"}, names=[m["path"]])
                                          for m in r.get("members", [])], parser={}) for r in raws])
            outs.append((surface + "-members.json",
                         json.dumps(mdoc, separators=(",", ":"), sort_keys=True, ensure_ascii=False) + "\n"))
            outs.append((surface + "-members.tsv", runtime_table(mdoc)))
        for fn, text in outs:
            path = os.path.join(out_dir, fn)
            if a.check:
                try:
                    with open(path, encoding="utf-8") as f:
                        same = f.read() == text
                except OSError:
                    same = False
                if not same:
                    print(f"{path}: not what `facts.py derive` makes from {raw_dir}", file=sys.stderr)
                    bad += 1
            else:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
    if a.check:
        known = {s + m + ext for s in by for m in ("", "-members") for ext in (".json", ".tsv")}
        for fn in os.listdir(out_dir):
            if fn.endswith((".json", ".tsv")) and fn not in known:
                print(f"{fn}: no raw facts make it", file=sys.stderr)
                bad += 1
        sys.exit(1 if bad else 0)


def main(argv=None):
    p = argparse.ArgumentParser(prog="facts.py", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("extract", help="one surface of one source tree -> raw facts")
    e.add_argument("--surface", required=True, choices=sorted(SURFACES))
    src = e.add_mutually_exclusive_group(required=True)
    src.add_argument("--git-dir")
    src.add_argument("--tree")
    e.add_argument("--commit", help="the commit to read (with --git-dir); recorded in the output")
    e.add_argument("--version", required=True)
    e.add_argument("--repo")
    e.add_argument("--date")
    e.add_argument("--read-from", dest="read_from")
    e.add_argument("--note")
    e.add_argument("--out", default="-")
    e.set_defaults(fn=cmd_extract)
    r = sub.add_parser("release", help="extract the recorded releases (releases.json)")
    r.add_argument("--mirrors", default="/work/.mirror", help="where owner+name/repo git dirs are")
    r.add_argument("--tree", help="a plain folder instead (a release read through the index)")
    r.add_argument("--version")
    r.add_argument("--out")
    r.add_argument("surfaces", nargs="+")
    r.set_defaults(fn=cmd_release)
    d = sub.add_parser("derive", help="raw facts -> merged per-surface history")
    d.add_argument("--raw")
    d.add_argument("--out")
    d.add_argument("--check", action="store_true", help="compare, write nothing")
    d.set_defaults(fn=cmd_derive)
    a = p.parse_args(argv)
    if a.cmd == "extract" and a.git_dir and not a.commit:
        p.error("--git-dir needs --commit")
    a.fn(a)


if __name__ == "__main__":
    main()
