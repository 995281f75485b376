"""What an argparse `action=` does with the command line, read with `ast`
(never imported or run): argparse's own actions by name, an engine's own
Action class by its definition in the sources read (its bases, the `nargs`
its `__init__` gives argparse, what its text says). A flag is a switch or
takes a value by what its action is, never by what the class is called
(SGLang's `DeprecatedStoreTrueAction` takes no value, `DeprecatedAliasStoreAction`
does). Part of grammars/gen/facts.py; standard library only."""
import ast
import re

from pysrc import dotted, kw, text_of, try_const

# argparse's own action classes and strings: (bool kind or None when the
# action takes values)
ARGPARSE = {"store_true": "store_true", "_StoreTrueAction": "store_true",
            "store_false": "store_false", "_StoreFalseAction": "store_false",
            "store_const": "store_true", "_StoreConstAction": "store_true",
            "append_const": "store_true", "_AppendConstAction": "store_true",
            "BooleanOptionalAction": "optional",
            "store": None, "_StoreAction": None, "append": None, "_AppendAction": None,
            "extend": None, "_ExtendAction": None, "Action": None}
SKIPPED = ("version", "help", "count", "_VersionAction", "_HelpAction", "_CountAction")

DEPRECATION = re.compile(r"deprecat|no longer supported|obsolete", re.I)
# a replacement the text names as one: "use --x instead", "Use '--x'
# instead", "replaced by --x"; not "use --x or DYN_X for equivalent
# behavior" (Dynamo 1.4.0's --router-kv-overlap-score-weight: another
# setting, kept apart from the flag it points to)
USE = re.compile(r"\b(?:use\s+`?['\"]?(--[A-Za-z0-9][A-Za-z0-9_.-]*[A-Za-z0-9])`?['\"]?\s+instead"
                 r"|(?:replaced by|renamed to)\s+`?['\"]?(--[A-Za-z0-9][A-Za-z0-9_.-]*[A-Za-z0-9]))", re.I)
# add_argument's own keywords, argparse's and Dynamo's helper's: any other
# one is the action's
CALL_KWS = {"action", "nargs", "const", "default", "type", "choices", "required", "help",
            "metavar", "dest", "version", "deprecated",
            "flag_name", "env_var", "obsolete_flag", "alias", "arg_type", "env_value_type"}


def class_text(cls, syms):
    """The literal text of a class: its strings, the module strings it names."""
    out = []
    for n in ast.walk(cls):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            out.append(n.value)
        elif isinstance(n, ast.JoinedStr):
            out.append(text_of(n))
        elif isinstance(n, ast.Name) and n.id in syms.consts:
            v = try_const(syms.consts[n.id], syms)
            if isinstance(v, str):
                out.append(v)
    return "\n".join(out)


def init_nargs(cls):
    """The nargs a class's __init__ gives argparse when the call gives none:
    its `nargs=` parameter's default, or a literal `nargs=` it passes on; or None."""
    for node in cls.body:
        if not (isinstance(node, ast.FunctionDef) and node.name == "__init__"):
            continue
        a = node.args
        pos = a.posonlyargs + a.args
        for arg, d in zip(pos[len(pos) - len(a.defaults):], a.defaults):
            if arg.arg == "nargs":
                return try_const(d), True
        for arg, d in zip(a.kwonlyargs, a.kw_defaults):
            if arg.arg == "nargs" and d is not None:
                return try_const(d), True
        for n in ast.walk(node):
            if isinstance(n, ast.Call) and (dotted(n.func) or "").endswith("__init__"):
                v = kw(n, "nargs")
                if v is not None and isinstance(v, ast.Constant):
                    return v.value, False
    return None, None


def _is_error_call(stmt):
    """A statement that is a call of `X.error(...)` (argparse's parser.error:
    it prints the message and exits)."""
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr == "error")


def refusal(name, syms, depth=0):
    """How an action class refuses its flag outright, by its `__call__`
    (its own or a base's): "always" when a statement of its body is
    `parser.error(...)`; the name of the `__init__` parameter whose value
    makes it refuse when its body is `if self.X is not None:` (or `if
    self.X:`) around `parser.error(...)` and `__init__` sets `self.X` from
    that parameter (SGLang 0.5.18's `DeprecatedAction(error_message=...)`:
    the server exits at the flag); None otherwise. An error nested deeper
    (vLLM's LoRAParserAction on a malformed value) is a value's check, not
    a refusal."""
    cls = syms.classes.get(name.split(".")[-1])
    if cls is None or depth > 6:
        return None
    call = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__call__"), None)
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if call is None:
        for b in cls.bases:
            r = refusal(dotted(b) or "", syms, depth + 1)
            if r:
                return r
        return None
    for st in call.body:
        if _is_error_call(st):
            return "always"
        if not (isinstance(st, ast.If) and any(_is_error_call(b) for b in st.body)):
            continue
        t = st.test
        if isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], ast.IsNot) \
                and isinstance(t.comparators[0], ast.Constant) and t.comparators[0].value is None:
            t = t.left
        if not (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"):
            continue
        params = {a.arg for a in (init.args.posonlyargs + init.args.args + init.args.kwonlyargs)} if init else set()
        for n in ast.walk(init) if init else []:
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id in params \
                    and any(isinstance(x, ast.Attribute) and x.attr == t.attr
                            and isinstance(x.value, ast.Name) and x.value.id == "self" for x in n.targets):
                return n.value.id
    return None


def resolve(name, syms, depth=0):
    """(kind, deprecated text, found) of an action class by name: kind is a
    bool kind, None for one taking values, "skip" for one that is no flag,
    "nargs0" for a class whose __init__ makes it take none unless the call
    says otherwise."""
    short = name.split(".")[-1]
    if short in SKIPPED:
        return "skip", "", True
    cls = syms.classes.get(short)
    if cls is None or depth > 6:
        if short in ARGPARSE:
            return ARGPARSE[short], "", True
        return None, "", False
    text = class_text(cls, syms) + "\n" + cls.name
    kind, found = None, False
    for b in cls.bases:
        bk, btext, bfound = resolve(dotted(b) or "", syms, depth + 1)
        if bfound:
            kind, found = bk, True
            text += "\n" + btext
            break
    nargs, param = init_nargs(cls)
    if nargs == 0:
        kind, found = "nargs0" if param else "store_true", True
    return kind, text, found


def action_facts(call, syms):
    """What the action= of one add_argument call does: a dict with
    `bool` (the switch kind; absent when the flag takes values), `skip`
    (no flag: --help, --version, a counter), `deprecated` and `replacement`
    where the action's own class says so, `refused` when the class
    refuses the flag outright (`refusal`: argparse then exits, so no
    release with it accepts the flag), and `unread` (the class's name)
    when the action is a class the sources read do not define."""
    act = kw(call, "action")
    if act is None:
        return {}
    s = try_const(act, syms)
    name = s if isinstance(s, str) else (dotted(act) or "")
    kind, text, found = resolve(name, syms)
    out = {}
    if not found:
        out["unread"] = name or ast.dump(act)[:60]
        return out
    if kind == "skip":
        return {"skip": True}
    if kind == "nargs0":
        n = try_const(kw(call, "nargs"), syms)
        kind = "store_true" if kw(call, "nargs") is None or n == 0 else None
    if kind:
        out["bool"] = kind
    how = refusal(name, syms)
    if how == "always" or (how and kw(call, how) is not None
                           and not (isinstance(kw(call, how), ast.Constant) and kw(call, how).value is None)):
        out["refused"] = True
    if DEPRECATION.search(text):
        out["deprecated"] = True
        # a keyword argparse does not have, handed to the deprecated
        # action, whose value is a flag (`new_flag="--x"`), or the flag
        # its text says to use instead
        own = [try_const(k.value, syms) for k in call.keywords if k.arg and k.arg not in CALL_KWS]
        own = [v for v in own if isinstance(v, str) and v.startswith("--")]
        # a plain flag name only: `--graph-backend-{decode,prefill}=disabled`
        # or `--graph-backend=breakable` names a setting, not a spelling a
        # rename can be written as
        own = [v for v in own if re.fullmatch(r"--[A-Za-z0-9][A-Za-z0-9_.-]*[A-Za-z0-9]", v)] if own else own
        named = sorted({a or b for a, b in USE.findall(text)})
        if len(own) == 1:
            out["replacement"] = own[0]
        elif not own and len(named) == 1:
            out["replacement"] = named[0]
    return out
