#!/usr/bin/env python3
"""The test runner: prints [ok]/[fail]/[skipped] per test, then
`N passed, N failed` (and skipped, if any).

Test kinds (discovered, so adding a test is adding a file):
  tests/q/*.q      translator tests, expectations embedded as `#! NAME ARGS`
                   comments (DIRECTIVES below is the one list of them);
                   every successful output is also assembled and checked
                   to be byte-identical across two runs.
  tests/run/*.q    run tests: translated, assembled, linked with the C driver
                   of the same name (tests/run/NAME.c, or `#! driver FILE`)
                   and executed (under the target's runner of specs/kernels.conf).
  tests/sh/*.sh    scripts run from the repository root; exit 0 ok, 77 skipped.
A directive this runner does not know, or one given to a kind of test it
does not apply to, fails the test: a misspelt expectation cannot pass.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build"))
QHASM = os.environ.get("QHASM", os.path.join(BUILD, "qhasm"))
CC = os.environ.get("CC", "cc")

sys.path.insert(0, ROOT)
from gen import manifest  # noqa: E402  (the targets: specs/kernels.conf)

# every directive: name -> (the test kinds it applies to, what it means)
DIRECTIVES = {
    "target": ("q run", "TARGET: translate with -m TARGET (default amd64)"),
    "error": ("q", "LINE:COL: TEXT: the translation must fail with this located error"),
    "contains": ("q", "TEXT: the output must contain TEXT"),
    "lacks": ("q", "REGEX: no output line may match REGEX"),
    "count": ("q", "REGEX N: exactly N output lines match REGEX"),
    "model": ("q", "NAME: translate with -u NAME (a file name is relative to the test)"),
    "order": ("q", "REGEX1 REGEX2: the first line matching REGEX1 comes before the first matching REGEX2"),
    "storeload": ("q", "N: exactly N stores to a stack slot are followed within 3 lines by a load of it"),
    "driver": ("run", "FILE: the C driver (default: the test's name with .c)"),
}

results = {"ok": 0, "fail": 0, "skipped": 0}
# the "skipped implementations" lines of the scripts (qhasm-test's: which
# implementations this CPU cannot run, and why), repeated before the summary
skipped_impls: list[str] = []


def report(status: str, name: str, detail: str = "") -> None:
    results[status] += 1
    print(f"[{status}] {name}" + (f": {detail}" if detail else ""), flush=True)


def translate(path: str, out: str, target: str = "amd64", model: str = "") -> subprocess.CompletedProcess:
    extra = ["-u", model] if model else []
    return subprocess.run([QHASM, "-m", target, *extra, path, "-o", out], capture_output=True, text=True)


STORE = re.compile(r"^\s+mov\s+(?:\w+\s+)?\[(rsp[^\]]*)\],\s*\w+\s*$")
LOAD = re.compile(r"^\s+mov\s+\w+,\s*(?:\w+\s+)?\[(rsp[^\]]*)\]\s*$")


def storeloads(lines: list[str]) -> int:
    """Stores to a stack slot followed within 3 instructions by a load of it."""
    ins = [l for l in lines if l.startswith("\t") and not l.lstrip().startswith(";")]
    n = 0
    for i, l in enumerate(ins):
        m = STORE.match(l)
        if m and any((k := LOAD.match(x)) and k.group(1) == m.group(1) for x in ins[i + 1:i + 4]):
            n += 1
    return n


def firstmatch(lines: list[str], rx: str) -> int:
    return next((i for i, l in enumerate(lines) if re.search(rx, l)), -1)


def directives(path: str) -> list[tuple[str, str]]:
    d = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"\s*#!\s*(\S+)\s*(.*?)\s*$", line)
            if m:
                d.append((m.group(1), m.group(2)))
    return d


def bad_directive(ds: list[tuple[str, str]], kind: str) -> str:
    """Why the directives of a test of this kind are not understood ('' if they are)."""
    for k, v in ds:
        if k not in DIRECTIVES:
            return f"unknown directive '#! {k}' (known: {', '.join(sorted(DIRECTIVES))}; tests/run.py)"
        if kind not in DIRECTIVES[k][0].split():
            return f"directive '#! {k}' does not apply to {kind} tests"
    return ""


def nasm(asm: str, obj: str, fmt: str = "elf64") -> str:
    p = subprocess.run(["nasm", "-f", fmt, asm, "-o", obj], capture_output=True, text=True)
    return "" if p.returncode == 0 else p.stderr.strip()


# per target: how to assemble, compile a driver, and run (from the manifest)
TARGETS = {t.name: {"as": t.as_, "cc": [CC if t.cc == ["cc"] else t.cc[0], *t.cc[1:], *t.cflags],
                    "run": t.run} for t in manifest.targets(ROOT).values()}


def assemble(target: str, src: str, obj: str) -> str:
    cmd = TARGETS[target]["as"] + ([src, "-o", obj] if TARGETS[target]["as"][0] == "nasm" else ["-o", obj, src])
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except FileNotFoundError:
        return f"{cmd[0]} not installed (run .ci/deps as root)"
    return "" if p.returncode == 0 else p.stderr.strip()


def qtest(path: str, tmp: str) -> None:
    name = os.path.relpath(path, ROOT)
    ds = directives(path)
    if bad_directive(ds, "q"):
        return report("fail", name, bad_directive(ds, "q"))
    target = next((v for k, v in ds if k == "target"), "amd64")
    model = next((v for k, v in ds if k == "model"), "")
    if model.endswith(".model"):
        model = os.path.join(os.path.dirname(path), model)
    out = os.path.join(tmp, os.path.basename(path) + ".asm")
    p = translate(path, out, target, model)
    if p.returncode < 0 or p.returncode > 1:
        return report("fail", name, f"translator crashed (status {p.returncode}): {p.stderr.strip()[:300]}")
    errs = [v for k, v in ds if k == "error"]
    if errs:
        loc, _, msg = errs[0].partition(": ")
        want = f"{os.path.basename(path)}:{loc}: error: "
        first = p.stderr.splitlines()[0] if p.stderr else ""
        if p.returncode != 1:
            return report("fail", name, f"expected error '{errs[0]}', translation succeeded")
        if os.path.exists(out):
            return report("fail", name, "an output file was left behind after an error")
        if want not in first or msg not in first:
            return report("fail", name, f"expected '{want}{msg}', got '{first}'")
        if len(p.stderr.splitlines()) < 3 or "^" not in p.stderr.splitlines()[2]:
            return report("fail", name, "error lacks the source line and caret")
        return report("ok", name)
    if p.returncode != 0:
        return report("fail", name, p.stderr.strip()[:500])
    text = open(out).read()
    lines = text.splitlines()
    for k, v in ds:
        if k == "contains" and v not in text:
            return report("fail", name, f"output lacks '{v}'")
        if k == "lacks" and any(re.search(v, l) for l in lines):
            bad = next(l for l in lines if re.search(v, l))
            return report("fail", name, f"output has a line matching '{v}': {bad.strip()}")
        if k == "count":
            rx, n = v.rsplit(None, 1)
            got = sum(1 for l in lines if re.search(rx, l))
            if got != int(n):
                return report("fail", name, f"{got} lines match '{rx}', expected {n}")
        if k == "order":
            a, b = v.split(None, 1)
            ia, ib = firstmatch(lines, a), firstmatch(lines, b)
            if ia < 0 or ib < 0 or ia > ib:
                return report("fail", name, f"expected a line matching '{a}' (line {ia + 1}) before one matching '{b}' (line {ib + 1})")
        if k == "storeload" and storeloads(lines) != int(v):
            return report("fail", name, f"{storeloads(lines)} stores to a stack slot are reloaded within 3 instructions, expected {v}")
    out2 = out + ".2"
    p2 = translate(path, out2, target, model)
    if p2.returncode != 0:
        return report("fail", name, f"the second translation failed (status {p2.returncode}): {p2.stderr.strip()[:300]}")
    if open(out2).read() != text:
        return report("fail", name, "output differs between two runs")
    e = assemble(target, out, out + ".o")
    if e:
        return report("fail", name, f"assembler: {e[:300]}")
    report("ok", name)


def models(target: str) -> list[str]:
    """The microarchitecture models of a target (qhasm/*/models/*.model)."""
    found = []
    for f in sorted(glob.glob(os.path.join(ROOT, "qhasm", "*", "models", "*.model"))):
        for line in open(f):
            w = line.split()
            if len(w) == 3 and w[0] == "model" and w[2] == target:
                found.append(w[1])
    return found


def runtest(path: str, tmp: str, model: str = "") -> None:
    name = os.path.relpath(path, ROOT) + (f" scheduled for {model}" if model else "")
    ds = directives(path)
    if bad_directive(ds, "run"):
        return report("fail", name, bad_directive(ds, "run"))
    target = next((v for k, v in ds if k == "target"), "amd64")
    driver = next((os.path.join(os.path.dirname(path), v) for k, v in ds if k == "driver"), path[:-2] + ".c")
    out = os.path.join(tmp, os.path.basename(path) + model + ".s")
    if model:
        p = subprocess.run([QHASM, "-m", target, "-u", model, path, "-o", out], capture_output=True, text=True)
    else:
        p = translate(path, out, target)
    if p.returncode != 0:
        return report("fail", name, p.stderr.strip()[:500])
    e = assemble(target, out, out + ".o")
    if e:
        return report("fail", name, f"assembler: {e[:300]}")
    exe = out + ".exe"
    try:
        c = subprocess.run(TARGETS[target]["cc"] + ["-O1", "-o", exe, driver, out + ".o"], capture_output=True, text=True)
    except FileNotFoundError as ex:
        return report("fail", name, f"cross compiler missing: {ex}")
    if c.returncode != 0:
        return report("fail", name, f"driver does not build: {c.stderr.strip()[:300]}")
    r = subprocess.run(TARGETS[target]["run"] + [exe], capture_output=True, text=True)
    if r.returncode == 77:
        return report("skipped", name, r.stdout.strip()[-200:])
    if r.returncode != 0:
        return report("fail", name, (r.stdout + r.stderr).strip()[-400:] or f"status {r.returncode}")
    report("ok", name)


def shtest(path: str) -> None:
    name = os.path.relpath(path, ROOT)
    env = dict(os.environ, BUILD=BUILD, QHASM=QHASM)
    r = subprocess.run(["bash", path], cwd=ROOT, env=env, capture_output=True, text=True)
    tail = (r.stdout + r.stderr).strip().splitlines()
    skipped_impls.extend(f"{name}: {l}" for l in tail if l.startswith("skipped implementations"))
    if r.returncode == 77:
        return report("skipped", name, tail[-1] if tail else "")
    if r.returncode != 0:
        print("\n".join("    " + l for l in tail[-30:]))
        return report("fail", name, f"status {r.returncode}")
    report("ok", name, tail[-1] if tail else "")


def main() -> int:
    only_translator = "--translator-only" in sys.argv
    pat = [a for a in sys.argv[1:] if not a.startswith("--")]

    def selected(path: str) -> bool:
        # match the path inside the repository, not the checkout's location
        # (a clone under /work/wt/alloc would otherwise select every test)
        rel = os.path.relpath(path, ROOT)
        return not pat or any(x in rel for x in pat)

    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(glob.glob(os.path.join(ROOT, "tests/q/*.q"))):
            if selected(path):
                qtest(path, tmp)
        for path in sorted(glob.glob(os.path.join(ROOT, "tests/run/*.q"))):
            if selected(path):
                runtest(path, tmp)
                # the same program scheduled for every model of its target
                target = next((v for k, v in directives(path) if k == "target"), "amd64")
                for model in models(target):
                    runtest(path, tmp, model)
        if not only_translator:
            for path in sorted(glob.glob(os.path.join(ROOT, "tests/sh/*.sh"))):
                if selected(path):
                    shtest(path)
    for line in skipped_impls:
        print(line)
    if pat and not any(results.values()):
        print(f"run.py: error: no test path contains {' or '.join(pat)}", file=sys.stderr)
        return 1
    if results["skipped"]:
        print(f"{results['skipped']} SKIPPED (not counted as passed)")
    print(f"{results['ok']} passed, {results['fail']} failed")
    return 1 if results["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
