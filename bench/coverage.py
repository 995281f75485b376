#!/usr/bin/env python3
"""Coverage of the engines' command lines: declared by the source vs known to servelint.

For each surface, at each recorded release (or only the newest, --newest),
every spelling the engine's source declares (grammars/facts/<surface>.json)
is written as a one-flag launch script and given to `servelint check` (one
run for all of a release's scripts); a spelling is known when no SL1001
fires on it.

  bench/coverage.py build/servelint            # every surface, newest release
  bench/coverage.py build/servelint --all      # every recorded release
  bench/coverage.py build/servelint --sample 7 # every 7th spelling (the ctest)

Prints one line per surface and release: declared, known, share, and the
unknown spellings with --verbose. Exits 1 when a spelling of a newest
release is unknown (--strict).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# How each surface is launched, and a docker image tag giving the version.
LAUNCH = {
    "vllm": ("vllm serve org/model", "vllm/vllm-openai:v{v}"),
    "sglang": ("python3 -m sglang.launch_server --model-path org/model", "lmsysorg/sglang:v{v}"),
    "trtllm": ("trtllm-serve org/model", "nvcr.io/nvidia/tensorrt-llm/release:{v}"),
    "trtllm-disagg": ("trtllm-serve disaggregated", "nvcr.io/nvidia/tensorrt-llm/release:{v}"),
    "dynamo-frontend": ("python3 -m dynamo.frontend", "nvcr.io/nvidia/ai-dynamo/vllm-runtime:{v}"),
    "dynamo-vllm": ("python3 -m dynamo.vllm --model org/model", "nvcr.io/nvidia/ai-dynamo/vllm-runtime:{v}"),
    "dynamo-sglang": ("python3 -m dynamo.sglang --model-path org/model", "nvcr.io/nvidia/ai-dynamo/sglang-runtime:{v}"),
    "dynamo-trtllm": ("python3 -m dynamo.trtllm --model org/model", "nvcr.io/nvidia/ai-dynamo/tensorrt-llm-runtime:{v}"),
    # ATOM's release images name the version at the end of the tag
    "atom": ("python3 -m atom.entrypoints.openai_server --model org/model",
             "rocm/atom:rocm7.2.1-ubuntu24.04-pytorch2.9.1-atom{v}"),
    # LlmArgs keys: one key per config file, written by a here-document
    "trtllm-config": ("trtllm-serve org/model --extra_llm_api_options /tmp/cfg.yml",
                      "nvcr.io/nvidia/tensorrt-llm/release:{v}"),
}


def config_doc(path, e, parent):
    """The YAML of a config file setting one dotted key (a key with keys below it: an empty map)."""
    parts = path.split(".")
    if parent:
        v = "{}"
    else:
        v = value_for(e)
        v = "true" if v is None else {"'{}'": "{}"}.get(v, v)
        if e.get("type") == "list" or e.get("nargs"):
            v = "[1]"
    lines = []
    for d, part in enumerate(parts[:-1]):
        lines.append("  " * d + part + ":")
    lines.append("  " * (len(parts) - 1) + f"{parts[-1]}: {v}")
    return "\n".join(lines) + "\n"


def value_for(f):
    """A value the flag accepts, or None for a flag that takes none."""
    t = f.get("type")
    if t == "bool":
        return None
    if f.get("choices"):
        c = f["choices"][0]
        return str(c).lower() if isinstance(c, bool) else str(c)
    return {"int": "1", "human_int": "1", "float": "0.5", "json": "'{}'", "list": "1"}.get(t, "x")


def spellings(doc, i, sample):
    out = []
    keys = "keys" in doc
    for name, e in sorted((doc.get("flags") or doc.get("keys")).items()):
        if e["in"][i] != "1" or not (keys or name.startswith("-")):
            continue
        out.append((name, e))
    if sample > 1:
        out = out[::sample]
    return out


def judge(binary, surface, version, flags, docker):
    """Which of the spellings SL1001 calls unknown: one script per spelling, one check run."""
    cmd, image = LAUNCH[surface]
    unknown = set()
    with tempfile.TemporaryDirectory() as tmp:
        paths, at = [], {}
        names = {n for n, _ in flags}
        for i, (name, e) in enumerate(flags):
            pre = f"docker run --gpus all {image.format(v=version)} " if docker else ""
            path = os.path.join(tmp, f"f{i:04d}.sh")
            if surface.endswith("-config"):
                parent = any(n.startswith(name + ".") for n in names)
                body = f"cat > /tmp/cfg.yml <<EOF\n{config_doc(name, e, parent)}EOF\n{pre}{cmd}\n"
            else:
                v = value_for(e)
                arg = name if v is None else f"{name} {v}"
                body = f"{pre}{cmd} {arg}\n"
            with open(path, "w") as fh:
                fh.write("#!/bin/bash\n" + body)
            paths.append(path)
            at[path] = name
        r = subprocess.run([binary, "check", "--format", "gcc", "--color", "never"] + paths,
                           capture_output=True, text=True)
        for line in r.stdout.splitlines():
            m = re.match(r"(.*?):\d+:\d+: \w+: .*\[SL1001\]", line)
            if m and m.group(1) in at:
                unknown.add(at[m.group(1)])
    return unknown


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("servelint")
    p.add_argument("--all", action="store_true", help="every recorded release, not only the newest")
    p.add_argument("--sample", type=int, default=1, help="every Nth spelling")
    p.add_argument("--surface", action="append")
    p.add_argument("--version-tag", action="store_true",
                   help="run each release's commands under a docker image of that version")
    p.add_argument("--strict", action="store_true")
    p.add_argument("--verbose", "-v", action="store_true")
    a = p.parse_args()
    facts = os.path.join(ROOT, "grammars", "facts")
    bad = 0
    for fn in sorted(os.listdir(facts)):
        if not fn.endswith(".json"):
            continue
        with open(os.path.join(facts, fn)) as fh:
            doc = json.load(fh)
        surface = doc["surface"]
        if not ("flags" in doc or "keys" in doc) or surface not in LAUNCH or (a.surface and surface not in a.surface):
            continue
        rels = list(range(len(doc["releases"])))
        if not a.all:
            rels = rels[-1:]
        for i in rels:
            version = doc["releases"][i]["version"]
            flags = spellings(doc, i, a.sample)
            # the command's own required flags are not counted twice
            unknown = judge(a.servelint, surface, version, flags, a.version_tag or a.all)
            n, k = len(flags), len(flags) - len(unknown)
            share = 100.0 * k / n if n else 100.0
            print(f"{surface:16} {version:12} declared {n:4}  known {k:4}  {share:5.1f}%")
            if a.verbose and unknown:
                print("    unknown: " + " ".join(sorted(unknown)))
            if i == len(doc["releases"]) - 1 and unknown:
                bad += 1
    sys.exit(1 if a.strict and bad else 0)


if __name__ == "__main__":
    main()
