"""Per kernel and target: instructions, and the stack loads and stores of
the generated McEliece kernels (spills, callee-saved registers and the
kernel's own stack slots), counted in out/<impl>/mceliece*.

    python3 -m gen.mceliece_report [IMPL ...]     Markdown on stdout

A stack access is an instruction whose memory operand is based on the
stack or frame pointer (amd64 rsp, x86 esp, PowerPC r1, SPARC %fp/%sp);
"own" ones are those the .q asks for (a stack variable in its statement:
the syndrome's EB buffer, the column multiplier's high columns S<k>,
mul_krows' slots KU, KR and KZ), the rest are the allocator's (spills and
reloads, saves of callee-saved registers, the saved stack pointer of an
aligned frame).
"""
from __future__ import annotations

import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STACK = re.compile(r"\[(rsp|esp|rbp|ebp)\b|\(%r1\)|\[%fp|\[%sp")
OWN = re.compile(r"\bS\d+\b|\bK[URZ]\d+\b|\bEB\b|\bbuf\b")


def is_store(ins: str) -> bool:
    op = ins.split()[0]
    if op.startswith(("st",)) and not op.startswith("stdu"):
        return True                                       # ppc st*, sparc st*
    if op.startswith("stdu"):
        return False
    args = ins[len(op):].strip()
    return args.startswith("[") or args.startswith(("qword [", "dword [", "byte [", "word [", "yword [", "zword [",
                                                    "oword ["))


def functions(path: str) -> dict[str, tuple[int, int, int, int, int]]:
    """name -> (instructions, allocator loads, allocator stores, own loads, own stores)"""
    res: dict[str, list[int]] = {}
    cur = None
    stmt = ""
    for line in open(path, encoding="utf-8"):
        s = line.strip()
        m = re.match(r"^(qhasm_kernel_\w+):$", s)
        if m:
            cur = m.group(1)
            res[cur] = [0, 0, 0, 0, 0]
            continue
        if cur is None or not s:
            continue
        if s.startswith((";", "#")):
            if not s.startswith(("; requires", "# requires")):
                stmt = s[1:].strip()
            continue
        if s.startswith(("%", ".", "global")) or s.endswith(":"):
            if s.startswith((".size", f"{cur}.end")):
                cur = None
            continue
        r = res[cur]
        r[0] += 1
        if STACK.search(s):
            own = bool(OWN.search(stmt))
            r[(3 if own else 1) + (1 if is_store(s) else 0)] += 1
    return {k: tuple(v) for k, v in res.items()}  # type: ignore[misc]


def main(argv: list[str]) -> int:
    impls = argv or sorted({os.path.basename(os.path.dirname(p)) for p in glob.glob(os.path.join(ROOT, "out/*/mceliece*"))})
    print("| kernel | impl | instructions | spill+save loads | spill+save stores | own stack loads | own stack stores |")
    print("|---|---|---|---|---|---|---|")
    for impl in impls:
        for path in sorted(glob.glob(os.path.join(ROOT, "out", impl, "mceliece*"))):
            for name, (n, sl, ss, ol, os_) in functions(path).items():
                short = name.replace("qhasm_kernel_", "").split("_" + impl.replace("-", "_") + "_")[0]
                print(f"| {short} | {impl} | {n} | {sl} | {ss} | {ol} | {os_} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
