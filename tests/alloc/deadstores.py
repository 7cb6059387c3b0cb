"""Dead stack stores in generated assembly (issue 14): a store to a stack
slot stored again, in the same straight-line run (no label or branch in
between), before any instruction reads or writes that slot otherwise.

    python3 tests/alloc/deadstores.py FILE...

Recognises the stack operands of every target's dialect: NASM
`[rsp + N]` / `[esp + N]`, SPARC `[%fp + N]` / `[%sp + N]`, PowerPC
`N(%r1)`.  Prints each dead store and exits 1 if there is one.
"""
import re
import sys

SLOT = re.compile(r"\[(?:rsp|esp|%fp|%sp) \+ (\d+)\]|\b(\d+)\(%r1\)")
BRANCH = re.compile(r"^(j\w+|b\w*|call|ret|retl|jmp)\b")


def dead_stores(path: str) -> list[tuple[int, int]]:
    """(line of the dead store, line of the store overwriting it)"""
    pending: dict[str, int] = {}
    found = []
    for ln, line in enumerate(open(path), 1):
        s = line.split(";")[0].strip()
        if not s or s[0] in "#.!%":
            continue
        if s.endswith(":") or BRANCH.match(s):
            pending.clear()
            continue
        m = SLOT.search(s)
        if not m:
            continue
        off = m.group(1) or m.group(2)
        op = s.split()[0]
        # a store: the slot is its first operand (NASM) or last (GNU as)
        first = s[len(op):].lstrip()
        nasm_store = op == "mov" and first.startswith("[") or op.startswith("vmov") and first.startswith("[") \
            or op.startswith("mov") and first.startswith(("qword [", "dword [", "[rsp", "[esp"))
        gas_store = op.startswith(("st", "std")) and not op.startswith(("stwu", "stdu"))
        if nasm_store or gas_store:
            if off in pending:
                found.append((pending[off], ln))
            pending[off] = ln
        else:
            pending.pop(off, None)
    return found


def main() -> int:
    bad = 0
    for path in sys.argv[1:]:
        for a, b in dead_stores(path):
            print(f"{path}:{a}: dead store (stored again at line {b} before any read)")
            bad += 1
    print(f"deadstores: {len(sys.argv) - 1} files, {bad} dead stack stores")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
