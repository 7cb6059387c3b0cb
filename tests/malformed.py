#!/usr/bin/env python3
"""Hostile-input test for the translator: mutates every .q file in the
repository (deterministically) and checks that qhasm never crashes or hangs,
exits 0 or 1, reports errors as FILE:LINE:COL: error: ... with a caret, and
leaves no output file behind after an error.  Successful outputs must
assemble with NASM.  usage: tests/malformed.py [QHASM] [COUNT]"""
import glob
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QHASM = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "qhasm")
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 1500
NOISE = ["$", "%", "mem64[", "]", "[", "(", ")", "0x", "99999999999999999999", "-", "+=", "<<<=",
         "goto", "if", "carry?", "?", "@rax", "@", "4x", "reg256", "int64", "stack64", "enter",
         "leave", "input", "output", "cpu", "avx2", ":", "#", "\t", "\x00", "\xff", "=", "*8",
         "const", "u32", "&", "~", "x" * 5000, "mem512[a+b*3]"]


def mutate(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    op = rng.randrange(9)
    i = rng.randrange(len(lines))
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif op == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:
        s = lines[i]
        k = rng.randrange(len(s) + 1)
        lines[i] = s[:k] + rng.choice(NOISE) + s[k:]
    elif op == 4:
        s = lines[i]
        if s:
            k = rng.randrange(len(s))
            lines[i] = s[:k] + s[k + rng.randrange(1, 6):]
    elif op == 5:
        return text[: rng.randrange(len(text) + 1)]
    elif op == 6:
        toks = lines[i].split()
        if toks:
            toks[rng.randrange(len(toks))] = rng.choice(NOISE + toks)
            lines[i] = " ".join(toks)
    elif op == 7:
        lines[i] = re.sub(r"\d+", lambda m: rng.choice(["0", "64", "4294967296", "-1", "18446744073709551616"]), lines[i])
    else:
        words = re.findall(r"[A-Za-z_]\w*", text)
        if words:
            a, b = rng.choice(words), rng.choice(words)
            lines[i] = lines[i].replace(a, b)
    return "\n".join(lines)


def main() -> int:
    seeds = sorted(glob.glob(os.path.join(ROOT, "tests", "**", "*.q"), recursive=True)
                   + glob.glob(os.path.join(ROOT, "specs", "**", "*.q"), recursive=True))
    texts = [open(p, encoding="latin-1").read() for p in seeds]
    rng = random.Random(1305)
    bad = 0
    stats = {0: 0, 1: 0}
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "m.q"), os.path.join(tmp, "m.asm")
        for n in range(COUNT):
            text = texts[rng.randrange(len(texts))]
            for _ in range(rng.randrange(1, 4)):
                text = mutate(rng, text)
            with open(src, "w", encoding="latin-1") as f:
                f.write(text)
            try:
                # 60 s: under ASan+UBSan (make test-asan) the translator is
                # about 15x slower, and a mutant of the largest generated
                # kernel (73k lines, loops with evictions) takes about 30 s
                p = subprocess.run([QHASM, src, "-o", out], capture_output=True, timeout=60)
            except subprocess.TimeoutExpired:
                print(f"mutant {n}: hang (kept as {src}.hang)")
                os.rename(src, os.path.join(ROOT, "build", f"hang{n}.q"))
                bad += 1
                continue
            err = p.stderr.decode("latin-1")
            problem = ""
            if p.returncode not in (0, 1):
                problem = f"exit status {p.returncode}: {err[-300:]}"
            elif p.returncode == 1:
                lines = err.splitlines()
                if not lines or not re.match(r".*:\d+:\d+: error: ", lines[0]):
                    problem = f"badly formed error: {err[:200]!r}"
                elif os.path.exists(out):
                    problem = "output file left behind after an error"
            elif p.returncode == 0:
                a = subprocess.run(["nasm", "-f", "elf64", out, "-o", out + ".o"], capture_output=True, text=True)
                if a.returncode:
                    problem = f"output does not assemble: {a.stderr[:300]}"
            if os.path.exists(out):
                os.remove(out)
            stats[p.returncode] = stats.get(p.returncode, 0) + 1
            if problem:
                bad += 1
                keep = os.path.join(ROOT, "build", f"malformed{n}.q")
                with open(keep, "w", encoding="latin-1") as f:
                    f.write(text)
                print(f"mutant {n}: {problem} (kept as {keep})")
    print(f"{COUNT} mutants: {stats.get(0, 0)} translated, {stats.get(1, 0)} rejected cleanly, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
