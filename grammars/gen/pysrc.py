"""Python declarations of a command line, read with `ast` (never imported or run):
module symbols, types from annotations, argparse-style calls (vLLM, SGLang,
older Dynamo), Dynamo's add_argument helpers, SGLang's annotated fields, and
pydantic models walked into dotted keys (TensorRT-LLM LlmArgs). What an
action= does is actions.py's, vLLM's get_kwargs rules getkwargs.py's. Part
of grammars/gen/facts.py; standard library only."""
import ast
import copy
import re
import sys

# --------------------------------------------------------------------------
# Python sources: symbols


class Symbols:
    """Module-level names and classes of a set of Python files."""

    def __init__(self):
        self.consts = {}     # name -> ast node of its value
        self.classes = {}    # name -> ast.ClassDef
        self.modules = []    # (path, ast.Module)

    def add(self, path, text):
        try:
            mod = ast.parse(text)
        except SyntaxError:
            return
        self.modules.append((path, mod))
        for node in ast.walk(mod):
            if isinstance(node, ast.ClassDef):
                self.classes.setdefault(node.name, node)
        for node in mod.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                self.consts[node.targets[0].id] = node.value
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                self.consts[node.target.id] = node.value
            elif sys.version_info >= (3, 12) and isinstance(node, getattr(ast, "TypeAlias", ())):
                self.consts[node.name.id] = node.value

    def fields(self, cname, seen=None):
        """[(name, annotation, default)] of a class and its bases found here."""
        seen = seen or set()
        if cname in seen or cname not in self.classes:
            return []
        seen.add(cname)
        cls = self.classes[cname]
        out = []
        for b in cls.bases:
            bn = dotted(b)
            if bn:
                out.extend(self.fields(bn.split(".")[-1], seen))
        for node in cls.body:
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                name = node.target.id
                if name.startswith("_") or dotted(node.annotation) in ("ClassVar", "typing.ClassVar") or \
                        (isinstance(node.annotation, ast.Subscript) and dotted(node.annotation.value) in ("ClassVar", "typing.ClassVar")):
                    continue
                out = [f for f in out if f[0] != name]
                out.append((name, node.annotation, node.value))
        return out


def dotted(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def const(node, syms=None, depth=0):
    """The literal value of node, or raise ValueError."""
    if depth > 8:
        raise ValueError
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [const(e, syms, depth + 1) for e in node.elts]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = const(node.operand, syms, depth + 1)
        if isinstance(v, (int, float)):
            return -v
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = const(node.left, syms, depth + 1), const(node.right, syms, depth + 1)
        if isinstance(a, list) and isinstance(b, list):
            return a + b
        if isinstance(a, str) and isinstance(b, str):
            return a + b
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        a, b = const(node.left, syms, depth + 1), const(node.right, syms, depth + 1)
        if isinstance(a, int) and isinstance(b, int):
            return a * b
    if isinstance(node, ast.Name) and syms is not None and node.id in syms.consts:
        return const(syms.consts[node.id], syms, depth + 1)
    if isinstance(node, ast.Call) and dotted(node.func) in ("list", "sorted", "tuple") and len(node.args) == 1:
        v = const(node.args[0], syms, depth + 1)
        if isinstance(v, list):
            return sorted(v, key=str) if dotted(node.func) == "sorted" else v
    if isinstance(node, ast.JoinedStr):
        raise ValueError
    raise ValueError


def try_const(node, syms=None):
    try:
        v = const(node, syms)
    except (ValueError, TypeError):
        return None
    if isinstance(v, (str, int, float, bool, list)) or v is None:
        return v
    return None


def text_of(node):
    """A help text as far as it is literal (concatenations, f-strings' literal parts)."""
    if node is None:
        return ""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    if isinstance(node, ast.BinOp):
        return text_of(node.left) + text_of(node.right)
    if isinstance(node, ast.Call):
        return " ".join(text_of(a) for a in node.args)
    return ""


# --------------------------------------------------------------------------
# Types from annotations


SCALARS = {"int": "int", "float": "float", "str": "string", "bool": "bool", "dict": "json",
           "Path": "string", "bytes": "string"}


def literal_choices(node, syms, depth=0):
    """The values of a Literal[...] (following aliases), or None."""
    if depth > 6 or node is None:
        return None
    if isinstance(node, ast.Name) and node.id in syms.consts:
        return literal_choices(syms.consts[node.id], syms, depth + 1)
    if isinstance(node, ast.Subscript):
        head = dotted(node.value) or ""
        inner = node.slice
        if head.split(".")[-1] == "Literal":
            elts = inner.elts if isinstance(inner, ast.Tuple) else [inner]
            vals = []
            for e in elts:
                v = try_const(e, syms)
                if v is None:
                    sub = literal_choices(e, syms, depth + 1)
                    if sub is None:
                        return None
                    vals.extend(sub)
                else:
                    vals.append(v)
            return vals
    return None


def ann_type(node, syms, depth=0):
    """(type, choices, optional) of an annotation."""
    if node is None or depth > 8:
        return "string", None, False
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return "string", None, False
    if isinstance(node, ast.Constant) and node.value is None:
        return None, None, True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        parts = flatten_union(node)
        return union_type(parts, syms, depth)
    if isinstance(node, ast.Subscript):
        head = (dotted(node.value) or "").split(".")[-1]
        inner = node.slice
        elts = inner.elts if isinstance(inner, ast.Tuple) else [inner]
        if head == "Literal":
            ch = literal_choices(node, syms)
            t = "string"
            if ch and all(isinstance(c, bool) for c in ch):
                t = "bool"
            elif ch and all(isinstance(c, int) and not isinstance(c, bool) for c in ch):
                t = "int"
            return t, ch, False
        if head == "Optional":
            t, ch, _ = ann_type(elts[0], syms, depth + 1)
            return t, ch, True
        if head == "Union":
            return union_type(elts, syms, depth)
        if head in ("Annotated", "A", "SkipValidation", "Final", "Required", "NotRequired"):
            return ann_type(elts[0], syms, depth + 1)
        if head in ("list", "List", "tuple", "Tuple", "set", "Set", "Sequence", "Iterable"):
            return "list", None, False
        if head in ("dict", "Dict", "Mapping"):
            return "json", None, False
        if head == "type" or head == "Type":
            return "string", None, False
    if isinstance(node, (ast.Name, ast.Attribute)):
        name = dotted(node).split(".")[-1]
        if name in SCALARS:
            return SCALARS[name], None, False
        if name in ("list", "List", "tuple", "Tuple"):
            return "list", None, False
        if name in ("dict", "Dict"):
            return "json", None, False
        if name in syms.consts:
            return ann_type(syms.consts[name], syms, depth + 1)
        if name in syms.classes:
            cls = syms.classes[name]
            bases = {(dotted(b) or "").split(".")[-1] for b in cls.bases}
            if bases & {"Enum", "StrEnum", "IntEnum", "str"}:
                vals = [try_const(n.value, syms) for n in cls.body
                        if isinstance(n, ast.Assign)]
                vals = [v for v in vals if isinstance(v, str)]
                return "string", vals or None, False
            return "json", None, False
    return "string", None, False


def flatten_union(node):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return flatten_union(node.left) + flatten_union(node.right)
    return [node]


def union_type(parts, syms, depth):
    opt = False
    got = []
    for p in parts:
        t, ch, o = ann_type(p, syms, depth + 1)
        opt = opt or o
        if t is not None:
            got.append((t, ch))
    if not got:
        return "string", None, opt
    types = [t for t, _ in got]
    # argparse-from-dataclass order (vLLM get_kwargs): bool, Literal, list, int, float, json, str
    for want in ("bool",):
        if want in types:
            return want, None, opt
    lit = [ch for t, ch in got if ch]
    if lit and len(got) == 1:
        return got[0][0], lit[0], opt
    for want in ("list", "int", "float"):
        if want in types and "json" not in types:
            return want, None, opt
    if "json" in types:
        return "json", None, opt
    if "string" in types:
        return "string", None, opt
    return types[0], None, opt


def field_default(node, syms):
    """The literal default of a dataclass/pydantic field, or None."""
    if node is None:
        return None
    if isinstance(node, ast.Call):
        fn = (dotted(node.func) or "").split(".")[-1]
        if fn in ("field", "Field", "PrivateAttr"):
            for k in node.keywords:
                if k.arg == "default":
                    return try_const(k.value, syms)
            if fn == "Field" and node.args:
                return try_const(node.args[0], syms)
        return None
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in syms.classes:
        for n, _, d in syms.fields(node.value.id):
            if n == node.attr:
                return field_default(d, syms)
        return None
    return try_const(node, syms)


def default_ref(node, syms):
    """Class.field a default points at (EngineArgs' `x: T = ModelConfig.x`)."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in syms.classes:
        return node.value.id, node.attr
    if isinstance(node, ast.Call) and (dotted(node.func) or "").endswith("get_field") and len(node.args) == 2:
        c, f = dotted(node.args[0]), try_const(node.args[1])
        if c and isinstance(f, str):
            return c.split(".")[-1], f
    return None


def class_field(syms, cname, fname):
    for n, a, d in syms.fields(cname):
        if n == fname:
            return a, d
    return None


# --------------------------------------------------------------------------
# argparse-style declarations


def kw(call, name):
    for k in call.keywords:
        if k.arg == name:
            return k.value
    return None


TYPE_FUNCS = {"int": "int", "float": "float", "str": "string", "json.loads": "json", "loads": "json",
              "human_readable_int": "human_int", "Path": "string", "bool": "string",
              "parse_human_readable_int": "human_int", "nullable_str": "string",
              "optional_int": "int", "optional_float": "float", "optional_str": "string"}


def type_from_kw(node, syms):
    if node is None:
        return None
    if isinstance(node, ast.Call):  # optional_type(int), parse_type(json.loads), ...
        fn = (dotted(node.func) or "").split(".")[-1]
        if fn in TYPE_FUNCS:
            return TYPE_FUNCS[fn]
        if node.args:
            return type_from_kw(node.args[0], syms)
        return "string"
    name = dotted(node)
    if name in TYPE_FUNCS:
        return TYPE_FUNCS[name]
    if name and name.split(".")[-1] in TYPE_FUNCS:
        return TYPE_FUNCS[name.split(".")[-1]]
    if isinstance(node, ast.Lambda):
        return "string"
    return "string"


DEPRECATION = re.compile(r"deprecat|\bremoved?\b|no longer|obsolete", re.I)
REPLACEMENT = re.compile(r"(?:use|replaced by|in favou?r of|instead of it|switch to|superseded by)\W{0,3}"
                         r"`?['\"]?(--[A-Za-z0-9][A-Za-z0-9_.-]*)", re.I)


def help_facts(f, help_text, names):
    if help_text and re.search(r"\[?deprecated\]?", help_text, re.I) and DEPRECATION.search(help_text):
        f["deprecated"] = True
    if f.get("deprecated") and help_text:
        m = REPLACEMENT.search(help_text)
        # a name cut short ("Use --cuda-graph-backend-{decode,prefill}=...") is none
        if m and m.group(1) not in names and "replacement" not in f \
                and not m.group(1).rstrip(".").endswith(("-", "_")) \
                and help_text[m.end():m.end() + 1] not in ("{", "<"):
            f["replacement"] = m.group(1).rstrip(".")


def argparse_call(call, syms, kwvars, human_ints):
    """Facts of one parser.add_argument(...) call, or None."""
    names = []
    for a in call.args:
        v = try_const(a, syms)
        if isinstance(v, str) and v.startswith("-"):
            names.append(v)
        elif isinstance(a, ast.Starred):
            continue
    if not names:
        return None
    f = {"names": names}
    # **{**model_kwargs["field"], "default": None}: spread into plain keywords
    kws = []
    for k in call.keywords:
        if k.arg is None and isinstance(k.value, ast.Dict):
            for dk, dv in zip(k.value.keys, k.value.values):
                name = try_const(dk) if dk is not None else None
                if dk is None:
                    kws.append(ast.keyword(arg=None, value=dv))
                elif isinstance(name, str):
                    kws.append(ast.keyword(arg=name, value=dv))
        else:
            kws.append(k)
    call = ast.Call(func=call.func, args=call.args, keywords=kws)
    # **model_kwargs["field"]: the facts come from the config dataclass
    for k in call.keywords:
        if k.arg is None and isinstance(k.value, ast.Subscript):
            var = dotted(k.value.value)
            field = try_const(k.value.slice)
            if var in kwvars and isinstance(field, str):
                f.update(flag_from_field(syms, kwvars[var], field, human_ints))
    t = type_from_kw(kw(call, "type"), syms)
    if t:
        f["type"] = t
    # a switch or a flag taking values by what its action does (actions.py)
    act = action_facts(call, syms)
    if act.get("skip"):
        return None
    if act.get("bool"):
        f["type"], f["bool"] = "bool", act["bool"]
    for k in ("deprecated", "replacement", "refused", "unread"):
        if k in act:
            f[k if k != "unread" else "unread_action"] = act[k]
    if "type" not in f:
        f["type"] = "string"
    ch = kw(call, "choices")
    if ch is not None:
        v = try_const(ch, syms)
        if v is None:
            v = literal_choices(ch, syms)
        if isinstance(v, list) and v and all(isinstance(x, (str, int, float)) for x in v):
            f["choices"] = v
        else:
            f.pop("choices", None)
    nargs = try_const(kw(call, "nargs"), syms)
    if nargs in ("+", "*", "?") and f["type"] != "bool":
        f["nargs"] = nargs
    d = kw(call, "default")
    if d is not None:
        ref = default_ref(d, syms)
        dv = field_default(d, syms) if ref else try_const(d, syms)
        if dv is not None and not isinstance(dv, list):
            f["default"] = dv
        else:
            f.pop("default", None)
    dep = kw(call, "deprecated")
    if dep is not None and try_const(dep) is True:
        f["deprecated"] = True
    help_facts(f, text_of(kw(call, "help")), names)
    # SGLang's Deprecated*Action(new_flag=...): the flag to use instead, when
    # it is a flag alone (not "--x=value" nor "--x-{a,b}")
    nf = try_const(kw(call, "new_flag"), syms)
    if f.get("deprecated") and isinstance(nf, str) and re.fullmatch(r"--[A-Za-z0-9][A-Za-z0-9_-]*", nf) \
            and nf not in names:
        f["replacement"] = nf
    return f


def dynamo_call(call, syms, fname):
    """Facts of Dynamo's add_argument(group, flag_name=..., env_var=...) helpers."""
    flag = try_const(kw(call, "flag_name"), syms)
    if not isinstance(flag, str):
        return None
    f = {"names": [flag]}
    alias = try_const(kw(call, "alias"), syms)
    if isinstance(alias, str):
        f["names"].append(alias)
    env = try_const(kw(call, "env_var"), syms)
    if isinstance(env, str):
        f["env"] = env
    obs = try_const(kw(call, "obsolete_flag"), syms)
    if isinstance(obs, str):
        f["obsolete"] = [obs]
    if fname == "add_negatable_bool_argument":
        f["type"], f["bool"] = "bool", "optional"
    else:
        at = kw(call, "arg_type")
        # arg_type=None passes no type= on: what the flag takes is its action's
        # to say (argparse's default action takes one value)
        f["type"] = type_from_kw(at, syms) if at is not None else "string"
        if at is not None and isinstance(at, ast.Constant) and at.value is None:
            f["type"] = "string"
        # the action add_argument hands on to argparse (actions.py)
        act = action_facts(call, syms)
        if act.get("bool"):
            f["type"], f["bool"] = "bool", act["bool"]
        for k in ("deprecated", "replacement", "refused", "unread"):
            if k in act:
                f[k if k != "unread" else "unread_action"] = act[k]
        nargs = try_const(kw(call, "nargs"), syms)
        if nargs in ("+", "*", "?"):
            f["nargs"] = nargs
    ch = kw(call, "choices")
    if ch is not None:
        v = try_const(ch, syms)
        if v is None:
            v = literal_choices(ch, syms)
        if v is None and isinstance(ch, (ast.ListComp, ast.Call)):
            v = enum_values(ch, syms)
        if isinstance(v, list) and v and all(isinstance(x, (str, int, float)) for x in v):
            f["choices"] = v
    d = try_const(kw(call, "default"), syms)
    if d is not None and not isinstance(d, list):
        f["default"] = d
    for k in call.keywords:
        if isinstance(k.value, ast.Call) and (dotted(k.value.func) or "").split(".")[-1] == "Deprecated":
            f["deprecated"] = True
            rm = try_const(kw(k.value, "remove_in"), syms)
            if isinstance(rm, str):
                f["remove_in"] = rm
            rep = try_const(kw(k.value, "replacement") or kw(k.value, "use"), syms)
            if isinstance(rep, str):
                f["replacement"] = rep
    dep = kw(call, "deprecated")
    if dep is not None and try_const(dep) is True:
        f["deprecated"] = True
    help_facts(f, text_of(kw(call, "help")), f["names"])
    return f


def enum_values(node, syms):
    """[m.value for m in SomeEnum] -> the enum's literal values."""
    if isinstance(node, ast.ListComp) and node.generators:
        it = dotted(node.generators[0].iter)
        if it and it.split(".")[-1] in syms.classes:
            cls = syms.classes[it.split(".")[-1]]
            vals = [try_const(n.value, syms) for n in cls.body if isinstance(n, ast.Assign)]
            return [v for v in vals if isinstance(v, str)] or None
    return None


def annotated_fields(syms, cname):
    """SGLang's newer style: `x: A[int, Arg(aliases=[...], ...)] = 1` -> flags."""
    out = []
    for name, ann, dflt in syms.fields(cname):
        if not isinstance(ann, ast.Subscript):
            continue
        head = (dotted(ann.value) or "").split(".")[-1]
        if head not in ("A", "Annotated"):
            continue
        elts = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        # the metadata, as arg_utils._unwrap_annotated takes it: the first
        # Arg(...), or a bare string (its help text); NS("...") and others
        # are not CLI metadata
        arg = None
        for e in elts[1:]:
            if isinstance(e, ast.Call) and (dotted(e.func) or "").split(".")[-1] == "Arg":
                arg = e
                break
            if isinstance(try_const(e, syms), str) or isinstance(e, ast.JoinedStr):
                arg = ast.Call(func=ast.Name(id="Arg"), args=[], keywords=[ast.keyword(arg="help", value=e)])
                break
        if arg is None:
            continue
        if try_const(kw(arg, "cli"), syms) is False or try_const(kw(arg, "hidden_from_cli"), syms) is True \
                or try_const(kw(arg, "no_cli"), syms) is True:
            continue
        primary = try_const(kw(arg, "cli_name"), syms) or try_const(kw(arg, "flag"), syms) \
            or "--" + name.replace("_", "-")
        names = [primary]
        al = try_const(kw(arg, "aliases"), syms)
        if isinstance(al, list):
            names += [a for a in al if isinstance(a, str)]
        t, ch, _ = ann_type(elts[0], syms)
        elem = list_elem(elts[0])
        if t == "list" and elem is not None and kw(arg, "type_parser") is None:
            # List[X]: argparse takes each value as X (nargs "+", Arg's own nargs)
            t, ch2, _ = ann_type(elem, syms)
            ch = ch2 or ch
            if t in ("list", "bool", "json"):
                t = "string"
        tp = kw(arg, "type_parser")
        if t not in ("int", "float", "bool", "string") and tp is None:
            # arg_utils._infer_type_func: anything but int and float is str
            # (Union[str, Dict], Union[set[str], List[str]], a dict, an enum);
            # List[X] alone was taken as X above
            t = "string"
        if tp is not None:
            # the parser takes the whole value as one string (json_list_type)
            t = type_from_kw(tp, syms)
            ch = None if t != "string" else ch
        f = {"names": names, "type": t}
        # Arg(action=...) as add_argument's (actions.py); a bool field with
        # none is a store_true switch
        act = action_facts(arg, syms)
        if act.get("skip"):
            continue
        if act.get("bool"):
            f["type"], f["bool"] = "bool", act["bool"]
        elif t == "bool" and (kw(arg, "action") is None or "unread" in act):
            f["bool"] = "store_true"
        elif t == "bool":
            f["type"] = "string"   # a bool field whose action takes a value
        elif kw(arg, "action") is not None:
            # a custom action (LoRAPathAction) takes values as written, of the
            # type and arity its action_kwargs give
            f["type"] = "string" if t in ("list", "bool", "json") else t
            ak = kw(arg, "action_kwargs")
            if isinstance(ak, ast.Dict):
                for k, v in zip(ak.keys, ak.values):
                    k = try_const(k) if k is not None else None
                    if k == "type":
                        f["type"] = type_from_kw(v, syms)
                    elif k == "nargs" and try_const(v, syms) in ("+", "*"):
                        f["nargs"] = try_const(v, syms)
        for k in ("deprecated", "replacement", "refused", "unread"):
            if k in act:
                f[k if k != "unread" else "unread_action"] = act[k]
        c2 = kw(arg, "choices")
        if c2 is not None:
            v = try_const(c2, syms)
            ch = v if isinstance(v, list) else ch
        if ch:
            f["choices"] = [c for c in ch if c is not None]
        nargs = try_const(kw(arg, "nargs"), syms)
        if nargs in ("+", "*", "?"):
            f["nargs"] = nargs
        if elem is not None and tp is None and kw(arg, "action") is None and "nargs" not in f:
            f["nargs"] = "+"
        d = field_default(dflt, syms)
        if d is not None and not isinstance(d, list):
            f["default"] = d
        if try_const(kw(arg, "deprecated"), syms) is True:
            f["deprecated"] = True
        help_facts(f, text_of(kw(arg, "help")), names)
        out.append(f)
    return out


def list_elem(node):
    """X of an annotation List[X] / list[X] (through Optional), else None."""
    if isinstance(node, ast.Subscript):
        head = (dotted(node.value) or "").split(".")[-1]
        if head == "Optional":
            return list_elem(node.slice)
        if head in ("List", "list") and not isinstance(node.slice, ast.Tuple):
            return node.slice
    if isinstance(node, ast.BinOp):
        parts = [p for p in flatten_union(node) if not (isinstance(p, ast.Constant) and p.value is None)]
        if len(parts) == 1:
            return list_elem(parts[0])
    return None



def helper_functions(mods):
    """Module-level functions of mods that declare flags themselves
    (Dynamo's add_frontend_decoding_arg(g, env_prefix=...)): name -> FunctionDef."""
    out = {}
    for _, mod in mods:
        for node in mod.body:
            if isinstance(node, ast.FunctionDef) and any(
                    isinstance(c, ast.Call) and isinstance(c.func, (ast.Name, ast.Attribute)) and
                    (c.func.id if isinstance(c.func, ast.Name) else c.func.attr)
                    in ("add_argument", "add_negatable_bool_argument") for c in ast.walk(node)):
                out.setdefault(node.name, node)
    return out


class _Bind(ast.NodeTransformer):
    """A helper's body with its parameters replaced by the literal arguments of
    one call, and f-strings made only of literals folded into one string."""

    def __init__(self, values):
        self.values = values

    def visit_Name(self, node):
        if node.id in self.values:
            return ast.copy_location(ast.Constant(self.values[node.id]), node)
        return node

    def visit_JoinedStr(self, node):
        self.generic_visit(node)
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant) and isinstance(v.value, str):
                parts.append(v.value)
            elif isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Constant) \
                    and v.conversion == -1 and v.format_spec is None:
                parts.append(str(v.value.value))
            else:
                return node
        return ast.copy_location(ast.Constant("".join(parts)), node)


def bound_helper(fdef, call, syms):
    """The helper's calls as this call makes them: each parameter given a
    literal (by the call, or the helper's default) is replaced by it; a
    parameter left unknown stays a name, so what depends on it is not read."""
    a = fdef.args
    params = a.posonlyargs + a.args
    values = {}
    for p, d in zip(params[len(params) - len(a.defaults):], a.defaults):
        v = try_const(d, syms)
        if v is not None:
            values[p.arg] = v
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        v = try_const(d, syms) if d is not None else None
        if v is not None:
            values[p.arg] = v
    for p, x in zip(params, call.args):
        v = try_const(x, syms)
        if v is not None:
            values[p.arg] = v
        else:
            values.pop(p.arg, None)
    for k in call.keywords:
        if k.arg is None:
            continue
        v = try_const(k.value, syms)
        if v is not None:
            values[k.arg] = v
        else:
            values.pop(k.arg, None)
    return ast.Module(body=[_Bind(values).visit(copy.deepcopy(n)) for n in fdef.body], type_ignores=[])


def python_flags(syms, frontend_classes=(), annotated_class=None, helpers=None):
    """Every flag the Python sources declare. helpers: functions of other
    files that declare flags (helper_functions); a call of one of them from
    these sources adds the flags it declares, with that call's arguments."""
    flags = []
    human = human_int_fields(syms)
    syms.optional_value = optional_value_rule(syms)
    mods = list(syms.modules)
    if helpers:
        for path, mod in syms.modules:
            for node in ast.walk(mod):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers:
                    mods.append((path, bound_helper(helpers[node.func.id], node, syms)))
    for _, mod in mods:
        # var = get_kwargs(SomeConfig) in any function
        kwvars = {}
        for node in ast.walk(mod):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and isinstance(node.value, ast.Call) and (dotted(node.value.func) or "").endswith("get_kwargs") \
                    and node.value.args:
                c = dotted(node.value.args[0])
                if c and c.split(".")[-1] in syms.classes:
                    kwvars[node.targets[0].id] = c.split(".")[-1]
        for node in ast.walk(mod):
            if not isinstance(node, ast.Call):
                continue
            fn = node.func.attr if isinstance(node.func, ast.Attribute) else \
                node.func.id if isinstance(node.func, ast.Name) else None
            if fn in ("add_negatable_bool_argument",) or (fn == "add_argument" and kw(node, "flag_name") is not None):
                f = dynamo_call(node, syms, fn)
            elif fn == "add_argument":
                f = argparse_call(node, syms, kwvars, human)
            else:
                f = None
            if f:
                flags.append(f)
    # dataclass-driven frontends: every field is a flag (vLLM FrontendArgs)
    for cname in frontend_classes:
        if cname not in syms.classes:
            continue
        for name, _, _ in syms.fields(cname):
            f = flag_from_field(syms, cname, name, human)
            f["names"] = ["--" + name.replace("_", "-")]
            flags.append(f)
    if annotated_class:
        flags.extend(annotated_fields(syms, annotated_class))
    flags.extend(table_flags(syms))
    return flags


def table_flags(syms):
    """Older Dynamo workers: a module-level {name: {"flags": [...], "type": ..., ...}} table."""
    out = []
    for _, mod in syms.modules:
        for node in mod.body:
            val = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            if not isinstance(val, ast.Dict):
                continue
            for v in val.values:
                if not isinstance(v, ast.Dict):
                    continue
                keys = [try_const(k) for k in v.keys]
                if "flags" not in keys:
                    continue
                names = try_const(v.values[keys.index("flags")], syms)
                if not isinstance(names, list) or not names:
                    continue
                call = ast.Call(func=ast.Name(id="add_argument"), args=[ast.Constant(n) for n in names],
                                keywords=[ast.keyword(arg=k, value=x) for k, x in zip(keys, v.values)
                                          if isinstance(k, str) and k != "flags"])
                f = argparse_call(call, syms, {}, {})
                if f:
                    out.append(f)
    return out


# --------------------------------------------------------------------------
# pydantic models walked into dotted keys (TensorRT-LLM LlmArgs)


def model_keys(syms, root, prefix="", depth=0, seen=()):
    keys = []
    if depth > 5 or root in seen:
        return keys
    for name, ann, dflt in syms.fields(root):
        if (dotted(ann) or "").split(".")[-1] in ("PrivateAttr",):
            continue
        if isinstance(dflt, ast.Call) and (dotted(dflt.func) or "").split(".")[-1] == "PrivateAttr":
            continue
        path = prefix + name
        t, ch, _ = ann_type(ann, syms)
        k = {"path": path, "type": t}
        if ch:
            k["choices"] = [c for c in ch if c is not None]
        d = field_default(dflt, syms)
        if d is not None and not isinstance(d, list):
            k["default"] = d
        keys.append(k)
        for sub in sorted(model_classes(ann, syms)):
            keys.extend(model_keys(syms, sub, path + ".", depth + 1, seen + (root,)))
    return keys


def model_classes(ann, syms, depth=0):
    """Classes of this file an annotation names (through Optional, Union, |)."""
    out = set()
    if ann is None or depth > 6:
        return out
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except SyntaxError:
            return out
    if isinstance(ann, ast.BinOp):
        for p in flatten_union(ann):
            out |= model_classes(p, syms, depth + 1)
    elif isinstance(ann, ast.Subscript):
        head = (dotted(ann.value) or "").split(".")[-1]
        if head in ("Optional", "Union", "Annotated"):
            elts = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
            if head == "Annotated":
                elts = elts[:1]
            for e in elts:
                out |= model_classes(e, syms, depth + 1)
    elif isinstance(ann, (ast.Name, ast.Attribute)):
        name = dotted(ann).split(".")[-1]
        if name in syms.consts:
            out |= model_classes(syms.consts[name], syms, depth + 1)
        elif name in syms.classes:
            bases = {(dotted(b) or "").split(".")[-1] for b in syms.classes[name].bases}
            if not bases & {"Enum", "StrEnum", "IntEnum", "str", "int"} and syms.fields(name):
                out.add(name)
    return out


# last: these read this module's helpers (dotted, kw, try_const, ann_type, ...)
from actions import action_facts  # noqa: E402
from getkwargs import flag_from_field, human_int_fields, optional_value_rule  # noqa: E402
