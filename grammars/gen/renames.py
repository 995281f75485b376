"""Replacements a source states for a deprecated setting by its field name,
read with `ast` (never imported or run): the doc of a config field
(`[DEPRECATED] Use `pooler_config` instead.`, the help vLLM's
get_kwargs gives the flag) and the text of a deprecation warning anywhere
in the files read (`"`override_pooler_config` is deprecated ... Please use
`pooler_config` instead."`, in __post_init__, a logger call, a
`@deprecated(...)` decorator). A replacement is taken only where it is one
plain name, the flag is deprecated by its own declaration, and the name
is a flag of the same release; never from a text that names a sub-key
(`eplb_config.window_size`), a value (`--mm-processor-cache-gb 0`,
`cudagraph_mode=NONE`) or several names, and never between a switch and
its opposite (`disable_log_requests` -> `enable_log_requests`: the source
stores `not value`, so writing the new name alone would invert it). Part
of grammars/gen/facts.py; standard library only."""
import ast
import re

from pysrc import text_of

NAME = r"`(--?[A-Za-z][A-Za-z0-9_-]*|[A-Za-z_][A-Za-z0-9_]*)`"
# "`old` is deprecated ... use `new` instead", "`old` ... has been replaced
# with `new`": one sentence's worth of text between them
MESSAGE = re.compile(NAME + r"\s+(?:flag\s+|field\s+|argument\s+|option\s+)?(?:is|has been)\s+deprecated"
                     r"[^`]{0,200}?(?:" + NAME + r"[^`]{0,120}?)?\buse\s+" + NAME + r"\s+instead", re.I | re.S)
# a field's own doc: "[DEPRECATED] Use `new` instead."
DOC = re.compile(r"\bdeprecated\b[^`]{0,200}?\buse\s+" + NAME + r"\s+instead", re.I | re.S)


def norm(name):
    """The field a spelling or a field name stands for: --foo-bar, foo_bar -> foo_bar."""
    return name.lstrip("-").replace("-", "_")


def antonyms(a, b):
    """Whether two field names are a switch and its opposite."""
    pairs = (("disable_", "enable_"), ("no_", ""), ("disable_", ""), ("enable_", ""))
    for x, y in pairs:
        if (a.startswith(x) and a[len(x):] == b[len(y):] and b.startswith(y)) or \
                (b.startswith(x) and b[len(x):] == a[len(y):] and a.startswith(y)):
            return True
    return False


def field_docs(syms):
    """field name -> its doc (the string right after it in a class body), for every class read."""
    out = {}
    for cls in syms.classes.values():
        body = cls.body
        for node, nxt in zip(body, body[1:]):
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and \
                    isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant) and \
                    isinstance(nxt.value.value, str):
                out.setdefault((cls.name, node.target.id), nxt.value.value)
    return out


def stated(syms):
    """{old field name: new field name} from the deprecation texts of every
    file read, where one text names one of each; a name two texts give
    different replacements is left out."""
    got = {}
    for _, mod in syms.modules:
        for node in ast.walk(mod):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
            elif isinstance(node, ast.JoinedStr):
                text = text_of(node)
            else:
                continue
            for m in MESSAGE.finditer(text):
                old, via, new = m.group(1), m.group(2), m.group(3)
                if via and norm(via) != norm(new):
                    continue   # "replaced with `a`... use `b`": not one name
                got.setdefault(norm(old), set()).add(norm(new))
    for (cname, fname), doc in field_docs(syms).items():
        names = {norm(n) for n in DOC.findall(doc)}
        if len(names) == 1:
            got.setdefault(fname, set()).update(names)
    return {k: next(iter(v)) for k, v in got.items() if len(v) == 1}


def name_replacements(syms, flags):
    """Give each deprecated flag without a replacement the one its field's
    deprecation text names, where that is a flag of these flags."""
    table = stated(syms)
    if not table:
        return
    by = {}
    for f in flags:
        for n in f["names"]:
            if n.startswith("--"):
                by.setdefault(norm(n), f)
    for f in flags:
        if not f.get("deprecated") or f.get("replacement"):
            continue
        old = norm(f["names"][0])
        new = table.get(old)
        to = by.get(new) if new else None
        if to is None or to is f or antonyms(old, new) or to.get("deprecated"):
            continue
        f["replacement"] = to["names"][0]

