"""Regenerate every generated .q and every out/ assembly file from specs/.

    python3 -m gen.regen [--out DIR] [--qhasm PATH] [--check] [-v]

Steps: expand the templates (gen/salsa20.py, ...) into their generated
.q files, then translate each with `qhasm -m amd64 X.q -o out/<impl>/X.asm`
(implementations of the cross targets, named x86*, ppc32*, ppc64* and
sparc64*, with `-m <target>`, and .s files for the GNU-as targets).
The translator always runs from the output root with repository-relative
paths, so the assembly (which names its .q source) is identical whatever
the output directory.  Deterministic: same specs, same bytes.

--out DIR   write under DIR instead of the repository (DIR/specs/...,
            DIR/out/...)
--uarch M   also generate every kernel of M's target scheduled for the
            model M into out/<impl>-M/ (the models in specs/uarch.conf
            always are); --add records M in specs/uarch.conf
--check     regenerate into a temporary directory and compare with the
            committed files; print the differences, exit 1 if any file
            differs, is missing, or is a stale generated file that the
            specs no longer produce.
"""
from __future__ import annotations

import argparse
import difflib
import glob
import os
import shutil
import subprocess
import sys
import tempfile

from gen import poly1305, salsa20
from gen import ppcsparc  # Salsa20 and Poly1305 for ppc32/ppc64/sparc64
from gen import mceliece  # Classic McEliece arithmetic, every target (no templates)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ---- cross targets (docs/cross.md) ----------------------------------------
# An implementation whose name starts with one of these (x86, x86-sse2,
# ppc32-altivec, ...) is translated with `qhasm -m <that target>`; all others
# with -m amd64.  GNU-as targets get .s files instead of .asm.
CROSS_TARGETS = {"x86": ".asm", "ppc32": ".s", "ppc64": ".s", "sparc64": ".s"}
# Salsa20 templates of the cross targets (gen/salsa20.py's IMPLS lists the
# amd64 ones): specs/salsa20/salsa20_<id>.q.in, expanded for every R
SALSA20_CROSS = ["x86", "x86-sse2"]


def target_of(impl: str) -> str:
    t = impl.split("-")[0]
    return t if t in CROSS_TARGETS else "amd64"


def asm_name(impl: str, base: str) -> str:
    """base (a jobs() asm basename, .asm) with the target's extension"""
    stem = base.rsplit(".", 1)[0]
    return stem + CROSS_TARGETS.get(target_of(impl), ".asm")


def salsa20_cross_jobs() -> list[tuple[str, str, str]]:
    res = []
    for impl in SALSA20_CROSS:
        if not os.path.exists(os.path.join(ROOT, salsa20.template_path(impl))):
            continue
        for r in salsa20.ROUNDS:
            q = salsa20.generated_path(impl, r)
            res.append((q, impl, os.path.basename(q)[:-2] + ".asm"))
    return res


CROSS_PATTERNS = [f"out/{t}{suffix}/*{ext}" for t, ext in CROSS_TARGETS.items() for suffix in ("", "-*")]

# every generator: (module, glob patterns of the files it owns, relative to the root)
GENERATORS = [
    (salsa20, [f"{salsa20.GENERATED}/salsa20_*.q", "out/amd64*/salsa20_*.asm"]),
    # Poly1305 (gen/poly1305.py): one .q per implementation, no parameter
    (poly1305, [f"{poly1305.GENERATED}/poly1305_*.q", "out/amd64*/poly1305_*.asm"]),
    # cross targets: the generated .q files are matched above
    (None, CROSS_PATTERNS),
    # ppc32, ppc32-altivec, ppc64, sparc64 (gen/ppcsparc.py; files matched above)
    (ppcsparc, []),
    (mceliece, [f"{mceliece.GENERATED}/mceliece*.q", "out/*/mceliece*.asm", "out/*/mceliece*.s"]),
]


# Per-microarchitecture variants (docs/new-microarchitecture.md): every
# kernel of a model's target, scheduled for it (qhasm -u MODEL), into
# out/<impl>-<model>/ with symbols renamed <impl> -> <impl>_<model>.
UARCH_CONF = "specs/uarch.conf"


def model_target(name: str) -> str:
    """The target of a model, from its file qhasm/*/models/NAME.model."""
    for f in glob.glob(os.path.join(ROOT, "qhasm", "*", "models", f"{name}.model")):
        for line in open(f, encoding="utf-8"):
            w = line.split()
            if len(w) == 3 and w[0] == "model" and w[1] == name:
                return w[2]
    raise SystemExit(f"regen: no model named {name} (qhasm/*/models/{name}.model)")


def uarch_models(extra: list[str]) -> list[str]:
    """The models listed in specs/uarch.conf, then extra ones."""
    names: list[str] = []
    path = os.path.join(ROOT, UARCH_CONF)
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            line = line.split("#", 1)[0].strip()
            if line and line not in names:
                names.append(line)
    return names + [m for m in extra if m not in names]


def variants(out: str, qhasm: str, jobs: list[tuple[str, str, str, str]], models: list[str],
             verbose: bool) -> list[str]:
    written: list[str] = []
    for model in models:
        target = model_target(model)
        for qpath, impl, asm, tgt in jobs:
            if tgt != target:
                continue
            vimpl = f"{impl}-{model}"
            cid = impl.replace("-", "_")
            apath = f"out/{vimpl}/{asm}"
            os.makedirs(os.path.join(out, "out", vimpl), exist_ok=True)
            cmd = [qhasm, "-m", target, "-u", model, "--rename", f"_{cid}_=_{cid}_{model}_", qpath, "-o", apath]
            if verbose:
                print(" ".join(cmd[1:]), flush=True)
            p = subprocess.run(cmd, cwd=out, capture_output=True, text=True)
            if p.returncode != 0:
                sys.stderr.write(p.stderr)
                raise SystemExit(f"regen: qhasm -u {model} failed on {qpath} (status {p.returncode})")
            written.append(apath)
    return written


def regen(out: str, qhasm: str, verbose: bool = False, extra: list[str] | None = None) -> list[str]:
    """Write every generated file under out; return their relative paths."""
    written: list[str] = []
    done: list[tuple[str, str, str, str]] = []
    for mod, _ in GENERATORS:
        if mod is None:
            continue
        jobs = mod.jobs() + (salsa20_cross_jobs() if mod is salsa20 else [])
        for qpath, impl, asm in jobs:
            asm = asm_name(impl, asm)
            target = target_of(impl)
            if mod is ppcsparc or mod is mceliece:
                text = mod.render(qpath, ROOT)
            elif mod is poly1305:
                text = mod.generate(impl, ROOT)
            else:
                rounds = int(qpath.rsplit("_r", 1)[1][:-2])
                text = mod.generate(impl, rounds, ROOT)
            dst = os.path.join(out, qpath)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with open(dst, "w", encoding="utf-8") as f:
                f.write(text)
            apath = f"out/{impl}/{asm}"
            os.makedirs(os.path.join(out, "out", impl), exist_ok=True)
            if verbose:
                print(f"qhasm -m {target} {qpath} -o {apath}", flush=True)
            p = subprocess.run([qhasm, "-m", target, qpath, "-o", apath], cwd=out,
                               capture_output=True, text=True)
            if p.returncode != 0:
                sys.stderr.write(p.stderr)
                raise SystemExit(f"regen: qhasm failed on {qpath} (status {p.returncode})")
            written += [qpath, apath]
            done.append((qpath, impl, asm, target))
    return written + variants(out, qhasm, done, uarch_models(extra or []), verbose)


def owned(root: str) -> set[str]:
    """Generated files present under root (relative paths)."""
    res: set[str] = set()
    for _, pats in GENERATORS:
        for pat in pats:
            res |= {os.path.relpath(p, root) for p in glob.glob(os.path.join(root, pat))}
    return res


def check(qhasm: str) -> int:
    tmp = tempfile.mkdtemp(prefix="qhasm-regen-")
    try:
        new = set(regen(tmp, qhasm))
        bad = 0
        for rel in sorted(new):
            a = os.path.join(ROOT, rel)
            b = os.path.join(tmp, rel)
            if not os.path.exists(a):
                print(f"regen --check: missing (not committed): {rel}")
                bad += 1
                continue
            with open(a, encoding="utf-8", errors="replace") as f:
                old_text = f.read()
            with open(b, encoding="utf-8") as f:
                new_text = f.read()
            if old_text != new_text:
                bad += 1
                print(f"regen --check: differs: {rel}")
                diff = difflib.unified_diff(old_text.splitlines(), new_text.splitlines(),
                                            f"committed/{rel}", f"regenerated/{rel}", lineterm="", n=1)
                for k, line in enumerate(diff):
                    if k >= 40:
                        print("...")
                        break
                    print(line)
        for rel in sorted(owned(ROOT) - new):
            print(f"regen --check: stale generated file (no longer produced): {rel}")
            bad += 1
        print(f"regen --check: {len(new)} files, {bad} problem(s)")
        return 1 if bad else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m gen.regen", description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=ROOT, help="root directory to write under (default: the repository)")
    ap.add_argument("--qhasm", default=os.path.join(os.environ.get("BUILD", os.path.join(ROOT, "build")), "qhasm"),
                    help="the translator (default: $BUILD/qhasm or build/qhasm)")
    ap.add_argument("--check", action="store_true", help="compare a fresh regeneration with the committed files")
    ap.add_argument("--uarch", action="append", default=[], metavar="MODEL",
                    help="also generate variants scheduled for MODEL (see specs/uarch.conf)")
    ap.add_argument("--add", action="store_true", help="with --uarch: record the model in specs/uarch.conf")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    qhasm = os.path.abspath(a.qhasm)
    if not os.access(qhasm, os.X_OK):
        print(f"regen: translator {qhasm} not built (make translator)", file=sys.stderr)
        return 2
    if a.check:
        return check(qhasm)
    out = os.path.abspath(a.out)
    if a.add:
        have = uarch_models([])
        with open(os.path.join(ROOT, UARCH_CONF), "a", encoding="utf-8") as f:
            for m in a.uarch:
                model_target(m)
                if m not in have:
                    f.write(m + "\n")
    n = len(regen(out, qhasm, a.verbose, a.uarch))
    print(f"regen: wrote {n} files under {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
