"""A tiny, deterministic template expander for .q kernel templates.

Template syntax (line based, everything else is copied verbatim):

    {{EXPR}}                  replaced by the value of a Python expression
                              over the parameters (no builtins beyond a few
                              safe ones: range, len, min, max, enumerate,
                              hex, format, str, int)
    %for NAMES in EXPR        repeat the following lines up to the matching
    %end                      %end once per element (NAMES: one name, or
                              several separated by commas to unpack tuples)
    %if EXPR / %else / %end   keep one branch
    %include FILE             the lines of FILE (relative to the including
                              template's directory), expanded in place
    %let NAME = EXPR          bind NAME for the rest of the current block
    %# comment               dropped (template-only comment)

`%` directives may be indented; they nest.  Errors name the template line.
"""
from __future__ import annotations

import os
import re
from typing import Any

SAFE = {"range": range, "len": len, "min": min, "max": max, "enumerate": enumerate,
        "hex": hex, "format": format, "str": str, "int": int, "zip": zip}

_SUBST = re.compile(r"\{\{(.*?)\}\}")


class TemplateError(Exception):
    pass


def _eval(expr: str, env: dict[str, Any], where: str) -> Any:
    try:
        return eval(expr, {"__builtins__": SAFE}, env)  # noqa: S307 (trusted templates)
    except Exception as e:  # pragma: no cover - reported to the user
        raise TemplateError(f"{where}: cannot evaluate '{expr}': {e}") from e


def _subst(line: str, env: dict[str, Any], where: str) -> str:
    return _SUBST.sub(lambda m: str(_eval(m.group(1), env, where)), line)


def _block(lines: list[tuple[int, str]], i: int) -> tuple[list[tuple[int, str]], list[tuple[int, str]], int]:
    """Body lines of the directive at lines[i] up to its %end (split at a
    top-level %else); returns (then, else, index after %end)."""
    depth, j = 0, i + 1
    then: list[tuple[int, str]] = []
    other: list[tuple[int, str]] = []
    cur = then
    while j < len(lines):
        s = lines[j][1].strip()
        if s.startswith("%for ") or s.startswith("%if "):
            depth += 1
        elif s == "%end":
            if depth == 0:
                return then, other, j + 1
            depth -= 1
        elif s == "%else" and depth == 0:
            cur = other
            j += 1
            continue
        cur.append(lines[j])
        j += 1
    raise TemplateError(f"line {lines[i][0]}: '{lines[i][1].strip()}' without %end")


def _expand(lines: list[tuple[int, str]], env: dict[str, Any], name: str, out: list[str]) -> None:
    i = 0
    while i < len(lines):
        no, text = lines[i]
        s = text.strip()
        where = f"{name}:{no}"
        if s.startswith("%#"):
            i += 1
        elif s.startswith("%include "):
            path = os.path.join(os.path.dirname(name), s[9:].strip())
            try:
                with open(path, encoding="utf-8") as f:
                    sub = f.read()
            except OSError as e:
                raise TemplateError(f"{where}: cannot include {path}: {e.strerror}") from e
            _expand(list(enumerate(sub.splitlines(), 1)), env, path, out)
            i += 1
        elif s.startswith("%let "):
            m = re.match(r"%let\s+(\w+)\s*=\s*(.+)$", s)
            if not m:
                raise TemplateError(f"{where}: expected '%let NAME = EXPR'")
            env = dict(env)
            env[m.group(1)] = _eval(m.group(2), env, where)
            i += 1
        elif s.startswith("%for "):
            m = re.match(r"%for\s+(.+?)\s+in\s+(.+)$", s)
            if not m:
                raise TemplateError(f"{where}: expected '%for NAMES in EXPR'")
            names = [n.strip() for n in m.group(1).split(",")]
            body, _, nxt = _block(lines, i)
            for item in _eval(m.group(2), env, where):
                sub = dict(env)
                if len(names) == 1:
                    sub[names[0]] = item
                else:
                    sub.update(zip(names, item, strict=True))
                _expand(body, sub, name, out)
            i = nxt
        elif s.startswith("%if "):
            then, other, nxt = _block(lines, i)
            _expand(then if _eval(s[4:], env, where) else other, env, name, out)
            i = nxt
        elif s in ("%end", "%else"):
            raise TemplateError(f"{where}: unmatched '{s}'")
        elif s.startswith("%"):
            raise TemplateError(f"{where}: unknown directive '{s.split()[0]}'")
        else:
            out.append(_subst(text, env, where))
            i += 1


def expand(text: str, env: dict[str, Any], name: str = "<template>") -> str:
    """Expand template text with parameters env; returns the output text.
    name is the template's path (for messages and %include)."""
    out: list[str] = []
    _expand(list(enumerate(text.splitlines(), 1)), env, name, out)
    return "\n".join(out) + "\n"
