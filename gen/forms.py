"""The per-target table of integer statement forms, from the machine
descriptions: python3 -m gen.forms [--missing] [-o docs/forms.md]

Reads qhasm/<isa>/<target>.md (with its #include lines, as gen/embed.py
does) and the operand classes of qhasm/<isa>/target.c, and lists, for the
scalar integer types (int32, int64), every statement form (the pattern
after `a OP= b` became `a = a OP b`, each operand replaced by its kind:
the register type, `imm`, `memN`, `&stack`) with, per target, whether the
target accepts it: `yes`, the number of instructions of a multi-instruction
template (`3 ins`), the CPU extension it needs, or `-`.  A flag-setting
form appears once more per group of conditions (`=?`, `unsigned<?`,
`signed<?`, `carry?`) its `COND?` prefix may ask for.

--missing prints only the rows that a target having the type lacks (the
check that the language is the same on every target), one per line.
Without -o, the markdown goes to standard output.
"""
from __future__ import annotations

import argparse
import os
import re
import sys

from gen.embed import expand

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# target -> (machine description, target.c, the extensions always enabled)
TARGETS: dict[str, tuple[str, str, set[str]]] = {
    "amd64": ("qhasm/amd64/amd64.md", "qhasm/amd64/target.c", {"sse2"}),
    "x86": ("qhasm/x86/x86.md", "qhasm/x86/target.c", set()),
    "ppc32": ("qhasm/ppc/ppc32.md", "qhasm/ppc/target.c", set()),
    "ppc64": ("qhasm/ppc/ppc64.md", "qhasm/ppc/target.c", {"ppc64"}),
    "sparc64": ("qhasm/sparc/sparc64.md", "qhasm/sparc/target.c", set()),
}
TYPES = ["int32", "int64"]
# the scalar types each target has (its register classes' types)
HAS = {"amd64": {"int32", "int64"}, "x86": {"int32"}, "ppc32": {"int32"},
       "ppc64": {"int32", "int64"}, "sparc64": {"int32", "int64"}}

# condition groups a COND? prefix can ask for, the flag groups they read
# (parse.c condflags; ppc and sparc read every comparison from one group Z)
CONDS = {"=?": "=", "unsigned<?": "unsigned<", "signed<?": "signed<", "carry?": "carry"}
FLAGS_X86 = {"=": "Z", "unsigned<": "C", "signed<": "ZO", "carry": "C"}
FLAGS_RISC = {"=": "Z", "unsigned<": "Z", "signed<": "Z", "carry": "C"}
CONDFLAGS = {"amd64": FLAGS_X86, "x86": FLAGS_X86, "ppc32": FLAGS_RISC, "ppc64": FLAGS_RISC,
             "sparc64": FLAGS_RISC}

IMMCLASS: dict[str, bool] = {}
ASSIGN = {"+=", "-=", "*=", "&=", "|=", "^=", "<<=", ">>=", "<<<=", ">>>="}

# the flags the language promises (docs/language.md): which COND? prefixes
# each form must accept on every target having the type (T: int32 or int64)
PROMISED: dict[str, tuple[str, ...]] = {
    "T - T": ("=?", "unsigned<?", "signed<?"), "T - imm": ("=?", "unsigned<?", "signed<?"),
    "T & T": ("=?",), "T & imm": ("=?",),
    "T = T + T": ("=?", "carry?"), "T = T - T": ("=?", "carry?"), "T = T + imm": ("carry?",),
    "T = T + T + carry": ("carry?",), "T = T - T - carry": ("carry?",),
    "T = T & T": ("=?",), "T = T | T": ("=?",), "T = T ^ T": ("=?",),
}


def generic(key: str) -> str:
    return re.sub(r"\bint(32|64)\b", "T", key)


# rows a target may lack, with the reason (a regex on the row, the targets)
EXEMPT: list[tuple[str, set[str], str]] = [
    (r"= & mem\d+", {"ppc32", "ppc64", "sparc64"}, "the address of a memory operand"),
    (r"mem\d+.*[-+*&|^]|[-+*&|^].*mem\d+", {"ppc32", "ppc64", "sparc64"}, "memory operands of arithmetic"),
    (r"overflow", {"amd64", "x86", "ppc32", "ppc64", "sparc64"}, "`+ overflow`"),
    (r"^int32 = & ", {"amd64", "ppc64", "sparc64"}, "int32 addresses on 64-bit targets"),
    (r"\( u?int128 \)", {"sparc64"}, "double-width products"),
    (r"[-+] imm [-+] carry", {"ppc32", "ppc64"}, "immediates with carry on PowerPC"),
    (r"if !?carry", {"ppc32", "ppc64"}, "carry conditions on PowerPC"),
    (r"mem\d+le", {"amd64", "x86"}, "byte order"),
    (r"mem16le", {"sparc64"}, "16-bit little-endian data on sparc64"),
    (r"mem64le", {"ppc64"}, "64-bit little-endian data on ppc64"),
]


def exempt(row: str, target: str) -> str:
    for rx, ts, why in EXEMPT:
        if target in ts and re.search(rx, row):
            return why
    return ""


# rows that stay target-specific on purpose, and why (shown under the table)
WHY = [
    ("memory operands of arithmetic (`a += mem64[p]`, `a - mem32[p]`)",
     "x86 and amd64 only: PowerPC and SPARC are load/store machines; load into a register first."),
    ("the address of a memory operand (`p = &mem8[q + 8]`, lea)",
     "x86 and amd64 only; elsewhere add the offset (`p = q + 8`)."),
    ("immediate ranges",
     "each target encodes its own: amd64/x86 32 bits, PowerPC 16 bits (`imm16`, `uimm16`), "
     "SPARC 13 bits (`simm13`); a larger constant is loaded into a register first "
     "(`t = 0x12345678`, every target)."),
    ("`(uint128) h l = a * b`, `(int128) h l = a * b`",
     "int64 double-width products exist where the machine has the high half: amd64 and ppc64 "
     "(SPARC V9 has no 64x64->128 multiply; umulxhi is VIS3).  The int32 ones, `(uint64) h l = a * b` "
     "and `(int64) h l = a * b`, exist on every target."),
    ("`+ overflow` (adox) and `goto ... if overflow`", "amd64/x86 only (the ADX second carry chain, OF)."),
    ("memory operands in little-endian byte order (`memNle`)",
     "on the big-endian targets only (x86 and amd64 are little-endian: plain `memN`); sparc64 has no "
     "16-bit little-endian class (lduha would need one), ppc64 no `mem64le` (ldbrx is POWER7: load two "
     "`mem32le` words)."),
    ("int32 addresses on 64-bit targets", "addresses are int64 there (`p = &buf` takes an int64)."),
    ("carry conditions on PowerPC (`a = b if carry`, `goto ... if carry`)",
     "after a subtraction XER[CA] is the complement of the borrow, so a move or branch on it would mean the "
     "opposite of amd64's; carries feed only `+ carry` / `- carry` there."),
    ("`COND? a = b + c` on PowerPC",
     "PowerPC sets no flags on add except the carry (addc) and record forms (add.), whose cr0 compares the "
     "register with 0 in 64 bits on ppc64; `=?` (and `!=`) is provided (ppc64 int32: a 32-bit compare of the "
     "result with 0); `unsigned<?` and `signed<?` on a result, which mean the carry and the sign of the "
     "exact sum on amd64, are not."),
]


def classes(path: str) -> dict[str, tuple[str, str]]:
    """class name -> (kind, detail) from a target.c's CLS* table."""
    res: dict[str, tuple[str, str]] = {}
    text = open(os.path.join(ROOT, path), encoding="utf-8").read()
    for m in re.finditer(r'CLSREG\("(\w+)"', text):
        n = m.group(1)
        res[n] = ("reg", "int64" if n.startswith("int64") else "int32" if n.startswith("int32") else n)
    for m in re.finditer(r'CLSIMM\("(\w+)"', text):
        res[m.group(1)] = ("imm", "imm")
        IMMCLASS[m.group(1)] = True
    for m in re.finditer(r'CLSMEM\("(\w+)",\s*(\d+),[^)]*?(0|\'l\'|\'b\')\)', text):
        order = {"'l'": "le", "'b'": "be"}.get(m.group(3), "")
        res[m.group(1)] = ("mem", "mem" + m.group(2) + order)
    for m in re.finditer(r'CLSADDR\("(\w+)"', text):
        res[m.group(1)] = ("addr", "&stack")
    for m in re.finditer(r'CLSLABEL\("(\w+)"', text):
        res[m.group(1)] = ("label", "label")
    return res


class Form:
    def __init__(self, target: str, line: str, lineno: int, cls: dict[str, tuple[str, str]]) -> None:
        parts = line.rsplit("|", 4)
        if len(parts) != 5:
            raise SystemExit(f"{target}: machine description line {lineno}: expected 5 fields")
        pattern, ops, attrs, ext, tmpl = (p.strip() for p in parts)
        self.lineno = lineno
        self.ops: dict[str, tuple[str, str]] = {}
        self.scratch = 0
        self.imm = ""  # the immediate's class (or literal), for the table
        for o in ops.split():
            name, acc, c = o.split(":", 2)
            c = c.split("@")[0]
            if acc == "s":
                self.scratch += 1
                continue
            self.ops[name] = cls[c]
            if cls[c][0] == "imm":
                self.imm = c
        self.attrs = attrs.split()
        self.ext = ext
        self.nins = len([t for t in tmpl.split(";") if t.strip()])
        self.tokens = canon(pattern.split())
        for t in self.tokens:
            if re.fullmatch(r"-?\d+|0x[0-9a-fA-F]+", t):
                self.imm = f"{t} only"

    def flags(self, key: str) -> str:
        for a in self.attrs:
            if a.startswith(key + "="):
                return a[len(key) + 1:]
        return ""

    def kinds(self) -> list[str]:
        return [self.ops[t][1] if t in self.ops else "imm" if re.fullmatch(r"-?\d+|0x[0-9a-fA-F]+", t) else t
                for t in self.tokens]

    def key(self) -> str:
        return " ".join(self.kinds())

    def types(self) -> set[str]:
        return {k for kind, k in self.ops.values() if kind == "reg" and k in TYPES}

    def conds(self, target: str) -> list[str]:
        """the COND? prefixes this form can keep the flags for"""
        valid = set(self.flags("def"))
        res = []
        for prefix, cond in CONDS.items():
            if not set(CONDFLAGS[target][cond]) <= valid:
                continue
            if "scmp" in self.attrs and cond != "signed<":
                continue
            if "ucmp" in self.attrs and cond == "signed<":
                continue
            if "eqcmp" in self.attrs and cond != "=":
                continue
            res.append(prefix)
        return res

    def enabled(self, base: set[str]) -> str | None:
        """'' if always available, the extensions needed, or None if excluded"""
        if self.ext == "base":
            return ""
        need = []
        for e in self.ext.split("+"):
            if e.startswith("!"):
                if e[1:] in base:
                    return None
            elif e not in base:
                need.append(e)
        return "+".join(need)


def canon(t: list[str]) -> list[str]:
    """`D op= X` -> `D = D op X` (the translator's canon(), md.c)"""
    for k, tok in enumerate(t):
        if tok in ASSIGN and k > 0:
            return t[:k] + ["=", t[k - 1], tok[:-1]] + t[k + 1:]
    return t


def load(target: str) -> list[Form]:
    md, tc, _ = TARGETS[target]
    cls = classes(tc)
    forms = []
    for n, line in enumerate(expand(os.path.join(ROOT, md)).splitlines(), 1):
        s = line.strip()
        if s and not s.startswith("#"):
            forms.append(Form(target, s, n, cls))
    return forms


def cell(f: Form, need: str) -> str:
    c = "yes" if f.nins <= 1 else f"{f.nins} ins"
    return c + (f" [{f.imm}]" if f.imm else "") + (f" ({need})" if need else "")


def merge(old: str, f: Form, need: str) -> str:
    """the cell of a row with one more line: the first base line decides, the
    other immediate classes are listed after it (`yes [imm16; uimm32: 2 ins]`)"""
    new = cell(f, need)
    if not old or (old.endswith(")") and not need):
        return new
    if need or not f.imm or f"[{f.imm}" in old or f"; {f.imm}" in old:
        return old
    more = f.imm + ("" if f.nins <= 1 else f": {f.nins} ins")
    return old[:-1] + f"; {more}]" if old.endswith("]") else old


def table() -> tuple[dict[str, dict[str, dict[str, str]]], list[str]]:
    """type -> row -> target -> cell; and the row order"""
    rows: dict[str, dict[str, dict[str, str]]] = {t: {} for t in TYPES}
    order: list[str] = []
    for target, (_, _, base) in TARGETS.items():
        for f in load(target):
            need = f.enabled(base)
            if need is None:
                continue
            ty = f.types()
            if len(ty) != 1 or "label" in f.kinds():
                continue
            (t,) = ty
            if any(k.startswith("reg") for k in f.kinds()) or any(k.startswith("mem128") for k in f.kinds()):
                continue
            names = [f.key()] + [f"{p} {f.key()}" for p in f.conds(target)
                                 if p in PROMISED.get(generic(f.key()), ())]
            for r in names:
                if r not in order:
                    order.append(r)
                have = rows[t].setdefault(r, {})
                have[target] = merge(have.get(target, ""), f, need)
    return rows, order


def branches() -> dict[str, list[str]]:
    res: dict[str, list[str]] = {}
    for target in TARGETS:
        for f in load(target):
            if f.tokens[:3] == ["goto", "l", "if"]:
                c = " ".join(f.tokens[3:])
                res.setdefault(c, [])
                if target not in res[c]:
                    res[c].append(target)
    return res


def md_escape(s: str) -> str:
    """a table cell may not contain a bare |"""
    return s.replace("|", "\\|")


def render() -> str:
    rows, order = table()
    names = list(TARGETS)
    out = ["<!-- generated by gen/forms.py (python3 -m gen.forms) from qhasm/*/*.md. DO NOT EDIT. -->",
           "# Integer statement forms per target", "",
           "Generated from the machine descriptions by `python3 -m gen.forms` (`make regen`",
           "rewrites this file; `python3 -m gen.regen --check` fails when it is stale).",
           "Each row is a statement form after `a OP= b` became `a = a OP b` (the",
           "translator accepts both spellings and adds the copy a two-operand machine",
           "needs); operands are shown by kind: the register type, `imm` (an immediate in",
           "the target's range), `memN` (a memory operand), `&stack`.  A row starting with",
           "`=?`, `unsigned<?`, `signed<?` or `carry?` is the same form keeping the flags",
           "for that group of conditions (`=?` also allows `!=`, `unsigned<?` every",
           "unsigned comparison, and so on).  A cell is `yes` (one instruction), `N ins`",
           "(a multi-instruction template), then in brackets the immediate classes",
           "(their ranges are the target's: `imm16` is -32768..32767, `simm13`",
           "-4096..4095, `uimm32` 0..2^32-1, ...; a literal such as `0 only` must be",
           "written as is), in parentheses the CPU extension needed, or `-`.  `- (*)`",
           "marks a form the target lacks on purpose (see the last section).",
           "Which instruction a cell's line emits is in the machine description",
           "(`qhasm/<isa>/<target>.md`, format in [machine-description.md](machine-description.md)).", "",
           "Types per target: " + "; ".join(f"{t}: {', '.join(x for x in TYPES if x in HAS[t])}" for t in names) + ".",
           ""]
    for t in TYPES:
        tg = [n for n in names if t in HAS[n]]
        out += [f"## {t}", "", "| form | " + " | ".join(tg) + " |", "|---|" + "---|" * len(tg)]
        for r in order:
            if r not in rows[t]:
                continue
            have = rows[t][r]
            out.append(f"| `{md_escape(r)}` | " + " | ".join(have.get(n, "- (*)" if exempt(r, n) else "-") for n in tg) + " |")
        out.append("")
    out += ["## Branches", "", "| condition | targets |", "|---|---|"]
    for c, ts in branches().items():
        out.append(f"| `goto l if {c}` | {', '.join(ts)} |")
    out += ["", "## What remains target-specific, and why", ""]
    for what, why in WHY:
        out.append(f"- {what}: {why}")
    out.append("")
    return "\n".join(out)


def missing() -> list[str]:
    rows, order = table()
    res = []
    for t in TYPES:
        for r in order:
            if r not in rows[t]:
                continue
            # a form that needs a CPU extension counts as missing from the baseline
            lack = [n for n in TARGETS if t in HAS[n] and not exempt(r, n)
                    and (n not in rows[t][r] or "(" in rows[t][r][n])]
            if lack:
                res.append(f"{t}: `{r}` missing on {', '.join(lack)}")
    return res


OUTPUT = "docs/forms.md"


def write(root: str) -> list[str]:
    """gen/regen.py's hook: write docs/forms.md under root"""
    path = os.path.join(root, OUTPUT)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(render())
    return [OUTPUT]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m gen.forms", description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", help="write the markdown here (docs/forms.md)")
    ap.add_argument("--missing", action="store_true", help="list the forms some target with the type lacks")
    a = ap.parse_args(argv)
    if a.missing:
        for line in missing():
            print(line)
        return 0
    text = render()
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
