"""Click command lines read with `ast` (never imported or run): the
`@click.option(...)` decorators of a `@click.command("NAME")` function, as
TensorRT-LLM's `tensorrt_llm/commands/serve.py` declares `trtllm-serve` in
the releases before its CLI reference YAML
(tests/unittest/api_stability/references/trtllm_serve_cli.yaml) existed.
Gives the facts in the form facts.click_reference gives from that YAML, so
that the releases read either way derive into one history. Part of
grammars/gen/facts.py; standard library only."""
import ast

from pysrc import dotted, help_facts, kw, text_of, try_const

CLICK_TYPES = {"int": "int", "float": "float", "str": "string", "bool": "bool",
               "click.INT": "int", "click.FLOAT": "float", "click.STRING": "string",
               "INT": "int", "FLOAT": "float", "STRING": "string"}


def dict_keys(node, syms):
    """The literal keys of `X.keys()` / `list(X)` / `X` where X is a module-level dict."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "keys":
        node = node.func.value
    elif isinstance(node, ast.Call) and dotted(node.func) in ("list", "sorted") and len(node.args) == 1:
        node = node.args[0]
    name = dotted(node)
    val = syms.consts.get(name) if name else None
    if isinstance(val, ast.Dict):
        keys = [try_const(k, syms) for k in val.keys]
        if keys and all(isinstance(k, str) for k in keys):
            return keys
    return None


def choice_values(node, syms):
    """The values a click.Choice([...]) (or ChoiceWithAlias([...], {alias: ...})) accepts, or None."""
    if not node:
        return None
    v = try_const(node, syms)
    if isinstance(v, list) and v and all(isinstance(x, (str, int, float)) for x in v):
        return v
    return dict_keys(node, syms)


def option_type(node, syms):
    """(type, choices) of an option's `type=`."""
    if node is None:
        return "string", None
    name = dotted(node) or ""
    if name in CLICK_TYPES:
        return CLICK_TYPES[name], None
    if isinstance(node, ast.Call):
        fn = (dotted(node.func) or "").split(".")[-1]
        if fn == "Choice" or fn.startswith("Choice"):
            ch = choice_values(node.args[0] if node.args else kw(node, "choices"), syms)
            if ch is not None and len(node.args) > 1:  # ChoiceWithAlias: the aliases are accepted too
                al = node.args[1]
                if isinstance(al, ast.Dict):
                    ch = ch + [k for k in (try_const(x, syms) for x in al.keys)
                               if isinstance(k, str) and k not in ch]
            return "string", ch
        if fn in ("IntRange",):
            return "int", None
        if fn in ("FloatRange",):
            return "float", None
    return "string", None


def stability(call, syms):
    """The stability tag of `help=help_info_with_stability_tag(text, "beta")`, or None."""
    h = kw(call, "help")
    if isinstance(h, ast.Call) and (dotted(h.func) or "").endswith("stability_tag") and len(h.args) > 1:
        v = try_const(h.args[1], syms)
        return v if isinstance(v, str) else None
    return None


def click_option(call, syms):
    """Facts of one click.option(...) decorator, or None."""
    decls = [try_const(a, syms) for a in call.args]
    if not decls or not all(isinstance(d, str) for d in decls):
        return None
    names, pname = [], None
    for d in decls:
        if d.startswith("-"):
            # "--x/--no-x": a switch and its negation
            names.extend(p.strip() for p in d.split("/") if p.strip().startswith("-"))
        else:
            pname = d
    if not names:
        return None
    longs = [n for n in names if n.startswith("--")]
    pname = pname or (longs or names)[0].lstrip("-").replace("-", "_")
    f = {"names": sorted(names, key=lambda n: (n.lstrip("-") != pname, len(n) < 3, n))}
    t, ch = option_type(kw(call, "type"), syms)
    flag = try_const(kw(call, "is_flag"), syms) is True or any("/" in d for d in decls if d.startswith("-"))
    if flag:
        f["type"], f["bool"] = "bool", "store_true"
        if any(n.startswith(("--no-", "--no_")) for n in names):
            f["bool"] = "click_pair"
    else:
        f["type"] = t
        if ch:
            f["choices"] = ch
    if try_const(kw(call, "multiple"), syms) is True:
        f["nargs"] = "multiple"
    d = kw(call, "default")
    if d is not None:
        v = try_const(d, syms)
        if v is not None and not isinstance(v, (list, dict)):
            f["default"] = v
    elif flag:
        f["default"] = False
    if stability(call, syms) == "deprecated" or try_const(kw(call, "deprecated"), syms) is True:
        f["deprecated"] = True
    help_facts(f, text_of(kw(call, "help")), names)
    return f


def command_name(dec, syms):
    """NAME of a `@click.command("NAME")` (or `@group.command("NAME")`) decorator, or None."""
    if isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute) and dec.func.attr == "command":
        if dec.args:
            v = try_const(dec.args[0], syms)
            return v if isinstance(v, str) else None
        v = try_const(kw(dec, "name"), syms)
        return v if isinstance(v, str) else None
    return None


def click_flags(syms, command):
    """(flags, unread) of the function decorated @click.command(command): every
    click.option it carries, and the other decorators it carries that may add
    options this reader does not follow (named, so that a gap is seen)."""
    flags, unread = [], []
    for _, mod in syms.modules:
        for node in ast.walk(mod):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if not any(command_name(d, syms) == command for d in node.decorator_list):
                continue
            for d in node.decorator_list:
                if isinstance(d, ast.Call) and (dotted(d.func) or "").split(".")[-1] == "option":
                    f = click_option(d, syms)
                    if f:
                        flags.append(f)
                elif command_name(d, syms) is None and not (isinstance(d, ast.Call) and
                                                            (dotted(d.func) or "").split(".")[-1] == "argument"):
                    unread.append(dotted(d.func if isinstance(d, ast.Call) else d) or "?")
    return flags, unread
