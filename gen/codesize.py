"""Code size of every kernel implementation, as a C table for qhasm-speed.

    python3 -m gen.codesize OBJ... > speedsizes.c

For each implementation found among the objects' symbols
(the kernel symbols of specs/kernels.conf, gen/manifest.py),
the size is the sum of the sizes of the functions reachable from those entry
points (calls, jumps and address references, followed across objects by
relocation), so static helpers count and shared library glue does not.
Symbols without a size (assembler labels) extend to the next symbol or the
end of the section.  The "compiler" is the object's .comment (the C compiler
with version) or, for objects without one, the assembler (`nasm -v`).
Needs binutils (nm, objdump); missing tools give an empty table.
"""
from __future__ import annotations

import re
import subprocess
import sys

from gen import manifest


def kernel_symbols() -> dict[str, tuple[str, str]]:
    """Every kernel entry symbol of the manifest -> (primitive, implementation)."""
    m = manifest.with_variants(manifest.parse())
    res: dict[str, tuple[str, str]] = {}
    for p in m.prims:
        for im in p.impls:
            if not im.alias:
                for k in p.kernels_of(im):
                    res[p.symbol_of(im, k)] = (p.name, im.name)
    return res
RELOC = re.compile(r"\bR_\w+\s+([.\w$@]+)([+-]0x[0-9a-f]+)?")
BRANCH = re.compile(r"^\s*[0-9a-f]+:\s+(?:\S+\s+)?(?:call|jmp|j[a-z]+|b[a-z.]*|bl)\b\S*\s+([0-9a-f]+) <")
LOCALREF = re.compile(r"<([.\w$@]+)(?:\+0x[0-9a-f]+)?>")

Sym = tuple[str, str]          # (object or "" for global, name)


def run(cmd: list[str]) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return ""


def text_end(obj: str) -> dict[str, int]:
    ends: dict[str, int] = {}
    for line in run(["size", "-A", obj]).splitlines():
        f = line.split()
        if len(f) >= 3 and f[0].startswith(".text") and f[1].isdigit():
            ends[f[0]] = int(f[1])
    return ends


def comment(obj: str) -> str:
    for line in run(["readelf", "-p", ".comment", obj]).splitlines():
        m = re.match(r"\s*\[\s*\w+\]\s+(.*\S)", line)
        if m:
            return m.group(1)
    return ""


def assembler() -> str:
    m = re.search(r"version\s+(\S+)", run(["nasm", "-v"]))
    return f"nasm {m.group(1)}" if m else "assembler"


def main(objs: list[str]) -> int:
    size: dict[Sym, int] = {}
    refs: dict[Sym, set[Sym]] = {}
    where: dict[Sym, str] = {}
    glob: set[str] = set()
    local_names: dict[str, dict[str, Sym]] = {}
    for obj in objs:
        syms = []
        for line in run(["nm", "-S", "-n", "--defined-only", obj]).splitlines():
            f = line.split()
            if len(f) == 4 and f[2] in "tTW":
                syms.append((int(f[0], 16), int(f[1], 16), f[2], f[3]))
            elif len(f) == 3 and f[1] in "tTW":
                syms.append((int(f[0], 16), 0, f[1], f[2]))
        end = text_end(obj).get(".text", 0)
        names: dict[str, Sym] = {}
        unsized: dict[Sym, Sym | None] = {}     # label -> the label after it
        keys: list[Sym] = [("", n) if t in "TW" else (obj, n) for _, _, t, n in syms]
        for k, (addr, sz, typ, name) in enumerate(syms):
            if not sz:
                unsized[keys[k]] = keys[k + 1] if k + 1 < len(syms) else None
                nxt = syms[k + 1][0] if k + 1 < len(syms) else max(end, addr)
                sz = nxt - addr
            key: Sym = ("", name) if typ in "TW" else (obj, name)
            if typ in "TW":
                glob.add(name)
            size[key] = sz
            refs[key] = set()
            where[key] = obj
            names[name] = key
        local_names[obj] = names
        # references: per function, from the disassembly with relocations
        cur: Sym | None = None
        last: dict[Sym, str] = {}
        for line in run(["objdump", "-d", "-r", "-w", "--no-show-raw-insn", obj]).splitlines():
            m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
            if m:
                cur = names.get(m.group(1))
                continue
            if cur is None:
                continue
            ins = re.match(r"^\s*[0-9a-f]+:\s+(?:(?:rep|repz|bnd|notrack)\s+)?([a-z][\w.]*)", line)
            if ins:
                last[cur] = ins.group(1)
            r = RELOC.search(line)
            if r:
                t = r.group(1)
                if t in names:
                    refs[cur].add(names[t])
                elif t in glob or not t.startswith("."):
                    refs[cur].add(("", t))
                continue
            if BRANCH.match(line):
                lr = LOCALREF.search(line)
                if lr and lr.group(1) in names:
                    refs[cur].add(names[lr.group(1)])
        # an assembler label without a size falls through into the next one
        # unless its last instruction is an unconditional transfer
        for key, nxt in unsized.items():
            if nxt is not None and not re.match(r"^(ret|jmp|ud2|hlt)", last.get(key, "")):
                refs[key].add(nxt)
    impls: dict[tuple[str, str], list[Sym]] = {}
    kernels = kernel_symbols()
    for key in size:
        if key[1] in kernels and key[0] == "":
            impls.setdefault(kernels[key[1]], []).append(key)
    nasm = ""
    print("/* generated by gen/codesize.py from the library objects; do not edit */")
    print('#include "speedsizes.h"')
    print("const struct qhasm_codesize qhasm_codesizes[] = {")
    for (prim, impl), roots in sorted(impls.items()):
        seen: set[Sym] = set()
        todo = list(roots)
        while todo:
            s = todo.pop()
            if s in seen or s not in size:
                continue
            seen.add(s)
            todo.extend(refs.get(s, ()))
        total = sum(size[s] for s in seen)
        tool = comment(where[roots[0]])
        if not tool:
            nasm = nasm or assembler()
            tool = nasm
        tool = re.sub(r"^GCC: ", "gcc ", tool.strip())
        tool = re.sub(r"\s+", "_", tool).replace('"', "'").replace("\\", "/")
        print(f'    {{ "{prim}", "{impl}", {total}, "{tool}" }},')
    print("    { 0, 0, 0, 0 }")
    print("};")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
