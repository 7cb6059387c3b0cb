"""Read a target's machine description and operand classes, for the random
program generator (gen/qgen.py) and the coverage report (gen/qdiff.py).

The machine description is the same text the translator embeds (gen/embed.py
inlines `#include` lines); line numbers are those of that combined text,
which is what `qhasm -d F` prints as `#mdN`, and origin() maps them back to
(file, line).  The operand classes are read from qhasm/<isa>/target.c (the
CLSREG/CLSIMM/CLSMEM/CLSADDR/CLSLABEL entries), so new classes and forms
need no change here.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MDFILE = {"amd64": "qhasm/amd64/amd64.md", "x86": "qhasm/x86/x86.md", "ppc32": "qhasm/ppc/ppc32.md",
          "ppc64": "qhasm/ppc/ppc64.md", "sparc64": "qhasm/sparc/sparc64.md"}
TARGETC = {"amd64": "qhasm/amd64/target.c", "x86": "qhasm/x86/target.c", "ppc32": "qhasm/ppc/target.c",
           "ppc64": "qhasm/ppc/target.c", "sparc64": "qhasm/sparc/target.c"}
ADDRTYPE = {"amd64": "int64", "x86": "int32", "ppc32": "int32", "ppc64": "int64", "sparc64": "int64"}
NUMS = {"INT32_MIN": -(1 << 31), "INT32_MAX": (1 << 31) - 1, "UINT32_MAX": (1 << 32) - 1,
        "INT64_MIN": -(1 << 63), "INT64_MAX": (1 << 63) - 1}


@dataclass
class Cls:
    name: str
    kind: str                 # reg imm mem addr label
    types: set[str] = field(default_factory=set)
    lo: int = 0
    hi: int = 0
    width: int = 0            # reg: view bits; mem: access bits
    mode: str = "MANY"        # mem: MANY MBASE MDISP MDISP4 MINDEX
    endian: str = ""          # mem: 'l' little-endian (byte-reversed on BE targets), 'b' big-endian classes


@dataclass
class Opd:
    name: str
    acc: str
    cls: Cls
    fixed: str = ""


@dataclass
class Form:
    line: int                 # in the combined text
    pattern: str
    ops: dict[str, Opd]
    defs: str
    uses: str
    attrs: set[str]
    ext: set[str]
    noext: set[str]
    tmpl: str


def _args(s: str) -> list[str]:
    """split at top-level commas"""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    out.append(cur.strip())
    return out


def _num(s: str) -> int:
    s = s.strip()
    neg = s.startswith("-")
    s = s.lstrip("-").rstrip("uUlL")
    v = NUMS[s] if s in NUMS else int(s, 0)
    return -v if neg else v


def classes(target: str) -> dict[str, Cls]:
    with open(os.path.join(ROOT, TARGETC[target])) as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    intt = {"ppc32": "TINT32", "ppc64": "TINT64"}.get(target, "")
    out: dict[str, Cls] = {}
    for m in re.finditer(r"\bCLS(REG|IMM|MEM|ADDR|LABEL)\(", text):
        i, depth = m.end(), 1
        while depth:
            depth += text[i] == "("
            depth -= text[i] == ")"
            i += 1
        a = _args(text[m.end():i - 1])
        name = a[0].strip('"')
        if not re.fullmatch(r"\w+", name):
            continue                      # the macro definitions themselves
        kind = m.group(1).lower()
        c = Cls(name, kind)
        if kind in ("reg", "addr"):
            tys = re.findall(r"T\((\w+)\)", a[2] if kind == "reg" else a[1])
            c.types = {t[1:].lower() for t in (intt if t == "INT" else t for t in tys)}
            if kind == "reg":
                c.width = _num(a[4])
        elif kind == "imm":
            c.lo, c.hi = _num(a[1]), _num(a[2])
        elif kind == "mem":
            c.width, c.mode, c.lo, c.hi = _num(a[1]), a[2], _num(a[3]), _num(a[4])
            c.endian = "l" if "'l'" in a[5] else "b" if "'b'" in a[5] else ""
        out.setdefault(name, c)
    return out


def _expand(path: str) -> list[tuple[str, str, int]]:
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#include "):
                out += _expand(os.path.join(os.path.dirname(path), line.split(None, 1)[1].strip()))
            else:
                out.append((line.rstrip("\n"), os.path.relpath(path, ROOT), n))
    return out


def origin(target: str) -> list[tuple[str, int]]:
    """combined line number - 1 -> (file, line)"""
    return [(f, n) for _, f, n in _expand(os.path.join(ROOT, MDFILE[target]))]


def forms(target: str) -> list[Form]:
    cls = classes(target)
    out = []
    for k, (line, _, _) in enumerate(_expand(os.path.join(ROOT, MDFILE[target])), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        f = s.split("|")
        pat, rest = "|".join(f[:-4]).strip(), [x.strip() for x in f[-4:]]
        ops = {}
        for o in rest[0].split():
            nm, acc, c = o.split(":")
            c, _, fix = c.partition("@")
            ops[nm] = Opd(nm, acc, cls[c], fix)
        attrs, defs, uses = set(), "", ""
        for a in rest[1].split():
            if a.startswith("def="):
                defs = a[4:]
            elif a.startswith("use="):
                uses = a[4:]
            elif a != "-" and not a.startswith("unit="):
                attrs.add(a)
        ext, noext = set(), set()
        for e in rest[2].split("+"):
            if e == "base":
                continue
            (noext if e.startswith("!") else ext).add(e.lstrip("!"))
        out.append(Form(k, pat, ops, defs, uses, attrs, ext, noext, rest[3]))
    return out


def models(target: str) -> list[str]:
    d = os.path.join(ROOT, os.path.dirname(TARGETC[target]), "models")
    out = []
    for fn in sorted(os.listdir(d)):
        if fn.endswith(".model"):
            with open(os.path.join(d, fn)) as f:
                m = re.search(r"^model\s+(\S+)\s+(\S+)", f.read(), re.M)
            if m and m.group(2) == target:
                out.append(m.group(1))
    return out
