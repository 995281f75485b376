"""vLLM's get_kwargs, as its source has it: a flag whose argparse keywords
come from a config dataclass field (`**model_kwargs["field"]`) takes the
field's type, `Literal` choices and default, a `bool` as
BooleanOptionalAction, the human-readable ints get_kwargs lists, and, where
the release's get_kwargs has the rule, a `bool | str | None` field as an
optional value (type=str, nargs="?"). Read with `ast`, never imported or
run. Part of grammars/gen/facts.py; standard library only."""
import ast

from pysrc import ann_type, class_field, default_ref, dotted, field_default, flatten_union, try_const


def flag_from_field(syms, cname, fname, human_ints=()):
    """Facts of a flag whose kwargs come from a config dataclass field (vLLM get_kwargs)."""
    got = class_field(syms, cname, fname)
    if not got:
        return {"type": "string"}
    ann, dflt = got
    ref = default_ref(dflt, syms)
    if ref:  # EngineArgs field defaults to another config's field
        inner = class_field(syms, *ref)
        if inner and dflt is not None:
            dflt = inner[1]
    t, ch, _ = ann_type(ann, syms)
    f = {"type": t}
    if t == "bool" and getattr(syms, "optional_value", False) and union_names(ann) == {"bool", "str", "None"}:
        # vLLM get_kwargs (0.27.0): `type_hints == {bool, str, type(None)}`
        # is type=str, nargs="?", const=True: a bare flag is True, else
        # its value (--hf-token [TOKEN]), never --no-x
        f["type"], f["nargs"] = "string", "?"
    elif t == "bool":
        f["bool"] = "optional"    # argparse.BooleanOptionalAction: --x and --no-x
    if t == "int" and fname in human_ints:
        f["type"] = human_ints[fname] if isinstance(human_ints, dict) else "human_int"
    if ch:
        f["choices"] = [c for c in ch if c is not None]
    d = field_default(dflt, syms)
    if d is not None and not isinstance(d, list):
        f["default"] = d
    return f


def union_names(ann):
    """The member names of a plain union annotation (`bool | str | None`,
    `Optional[Union[bool, str]]`), or None."""
    if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
        parts = flatten_union(ann)
    elif isinstance(ann, ast.Subscript) and (dotted(ann.value) or "").split(".")[-1] in ("Optional", "Union"):
        head = (dotted(ann.value) or "").split(".")[-1]
        elts = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        out = set()
        for e in elts:
            sub = union_names(e) if isinstance(e, (ast.BinOp, ast.Subscript)) else None
            if sub is None:
                n = "None" if isinstance(e, ast.Constant) and e.value is None else dotted(e)
                if not n:
                    return None
                out.add(n)
            else:
                out |= sub
        if head == "Optional":
            out.add("None")
        return out
    else:
        return None
    out = set()
    for p in parts:
        n = "None" if isinstance(p, ast.Constant) and p.value is None else dotted(p)
        if not n:
            return None
        out.add(n)
    return out


def optional_value_rule(syms):
    """Whether vLLM's get_kwargs makes a `bool | str | None` field an
    optional-valued flag: `elif type_hints == {bool, str, type(None)}:`
    followed by `nargs = "?"` (from 0.27.0; before, such a field is a
    BooleanOptionalAction, and --hf-token was declared by hand)."""
    for _, mod in syms.modules:
        for node in ast.walk(mod):
            if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
                    and isinstance(node.test.ops[0], ast.Eq) and isinstance(node.test.comparators[0], ast.Set)):
                continue
            names = set()
            for e in node.test.comparators[0].elts:
                if isinstance(e, ast.Call) and dotted(e.func) == "type" and e.args and \
                        isinstance(e.args[0], ast.Constant) and e.args[0].value is None:
                    names.add("None")
                else:
                    names.add(dotted(e))
            if names == {"bool", "str", "None"} and any(
                    isinstance(n, ast.Constant) and n.value == "?" for b in node.body for n in ast.walk(b)):
                return True
    return False


def human_int_fields(syms):
    """vLLM get_kwargs: field name -> "human_int" or "human_int_or_auto" for the
    fields it parses as human-readable ints (`if name in {...}` / `name == "x"`)."""
    names = {}
    for _, mod in syms.modules:
        sets = {}
        for node in ast.walk(mod):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and isinstance(node.value, (ast.Set, ast.List, ast.Tuple)):
                v = try_const(node.value)
                if isinstance(v, list):
                    sets[node.targets[0].id] = v
        for node in ast.walk(mod):
            if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)):
                continue
            body = ast.dump(ast.Module(body=node.body, type_ignores=[]))
            if "human_readable_int" not in body:
                continue
            kind = "human_int_or_auto" if "human_readable_int_or_auto" in body else "human_int"
            op, comp = node.test.ops[0], node.test.comparators[0]
            vals = None
            if isinstance(op, ast.In):
                vals = try_const(comp)
                if vals is None and isinstance(comp, ast.Name):
                    vals = sets.get(comp.id)
            elif isinstance(op, ast.Eq):
                v = try_const(comp)
                vals = [v] if isinstance(v, str) else None
            for x in vals or []:
                if isinstance(x, str):
                    names[x] = kind
    return names
