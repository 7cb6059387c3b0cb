"""Regenerate every generated .q and every out/ assembly file from specs/.

    python3 -m gen.regen [--out DIR] [--qhasm PATH] [--check] [-v]

Steps: for every generated implementation of the manifest
(specs/kernels.conf, gen/manifest.py), expand its generator's template
into its .q, then translate it with `qhasm -m TARGET X.q -o
out/<impl>/X.<ext>`; then the per-model variants (out/ALIASES lists those
identical to their base implementation, which are not written).
The translator always runs from the output root with repository-relative
paths, so the assembly (which names its .q source) is identical whatever
the output directory.  Deterministic: same specs, same bytes.

--out DIR   write under DIR instead of the repository (DIR/specs/...,
            DIR/out/...)
--uarch M   also generate every kernel of M's target scheduled for the
            model M into out/<impl>-M/ (the models of the manifest's
            `uarch` lines always are); --add records M there
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

from gen import forms  # docs/forms.md, the forms of each machine description
from gen import modeldoc  # docs/model-classes.md, the classes and models
from gen import manifest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# generated files besides the implementations' .q and assembly, each owned
# by a generator: (module, glob patterns of its files; relative to the root)
EXTRA_GENERATORS: list[tuple[object, list[str]]] = [(forms, ["docs/forms.md"]), (modeldoc, ["docs/model-classes.md"])]


def owned_patterns(m: manifest.Manifest) -> list[str]:
    """Glob patterns of every file regeneration owns: the generated .q of
    each generator's implementations, every out/ assembly, out/ALIASES."""
    pats = {f"{os.path.dirname(manifest.qpath(im))}/*.q" for im in m.impls(variants=False) if im.gen}
    pats |= {f"out/*/*.{t.ext}" for t in m.targets.values()}
    pats.add(manifest.ALIASES)
    for _, extra in EXTRA_GENERATORS:
        pats |= set(extra)
    return sorted(pats)


def translate(qhasm: str, out: str, args: list[str], verbose: bool) -> None:
    if verbose:
        print("qhasm " + " ".join(args), flush=True)
    p = subprocess.run([qhasm, *args], cwd=out, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit(f"regen: qhasm {' '.join(args)} failed (status {p.returncode})")


def variants(out: str, qhasm: str, m: manifest.Manifest, verbose: bool) -> tuple[list[str], list[str]]:
    """Every generated implementation scheduled for each model of the
    manifest's `uarch` lines on its target.  A variant whose assembly equals
    its base's (scheduled or not, before the symbols are renamed) is an
    alias: not written, recorded in out/ALIASES instead."""
    written: list[str] = []
    aliases: list[str] = []
    for model in m.uarchs:
        target = manifest.model_target(model)
        for im in m.impls(target, variants=False):
            if im.target != target or (im.variants is not None and model not in im.variants):
                continue
            q = manifest.qpath(im)
            base = manifest.asm_path(m, im)
            vname = f"{im.name}-{model}"
            probe = f"out/.{vname}.probe"
            translate(qhasm, out, ["-m", target, "-u", model, q, "-o", probe], verbose)
            with open(os.path.join(out, probe), encoding="utf-8") as f:
                same = f.read() == open(os.path.join(out, base), encoding="utf-8").read()
            os.remove(os.path.join(out, probe))
            if same:
                aliases.append(f"{vname} {im.prim} {im.name}")
                continue
            apath = f"out/{vname}/{os.path.basename(base)}"
            os.makedirs(os.path.join(out, "out", vname), exist_ok=True)
            translate(qhasm, out, ["-m", target, "-u", model, "--rename", f"_{im.id}_=_{im.id}_{model}_",
                                   q, "-o", apath], verbose)
            written.append(apath)
    return written, aliases


def regen(out: str, qhasm: str, verbose: bool = False, extra: list[str] | None = None) -> list[str]:
    """Write every generated file under out; return their relative paths."""
    m = manifest.parse()
    for model in extra or []:
        if model not in m.uarchs:
            m.uarchs.append(model)
    written: list[str] = []
    for im in m.impls(variants=False):
        if not im.gen:
            continue
        qpath = manifest.qpath(im)
        text = manifest.generator(im.gen).text(im.name, im.params, ROOT)
        dst = os.path.join(out, qpath)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "w", encoding="utf-8") as f:
            f.write(text)
        apath = manifest.asm_path(m, im)
        os.makedirs(os.path.join(out, os.path.dirname(apath)), exist_ok=True)
        translate(qhasm, out, ["-m", im.target, qpath, "-o", apath], verbose)
        written += [qpath, apath]
    for mod, _ in EXTRA_GENERATORS:
        written += mod.write(out)  # type: ignore[attr-defined]
    vwritten, aliases = variants(out, qhasm, m, verbose)
    with open(os.path.join(out, manifest.ALIASES), "w", encoding="utf-8") as f:
        f.write("# generated by gen/regen.py from specs/kernels.conf. DO NOT EDIT.\n"
                "# per-model variants whose code is their base implementation's:\n"
                "# variant primitive base (not assembled, linked or tested twice)\n")
        f.write("".join(a + "\n" for a in aliases))
    return written + vwritten + [manifest.ALIASES]


def owned(root: str) -> set[str]:
    """Generated files present under root (relative paths)."""
    res: set[str] = set()
    for pat in owned_patterns(manifest.parse()):
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
                    help="also generate variants scheduled for MODEL (see specs/kernels.conf (its `uarch` lines))")
    ap.add_argument("--add", action="store_true", help="with --uarch: record the model in specs/kernels.conf (its `uarch` lines)")
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
        have = manifest.parse().uarchs
        with open(os.path.join(ROOT, manifest.MANIFEST), "a", encoding="utf-8") as f:
            for m in a.uarch:
                manifest.model_target(m)
                if m not in have:
                    f.write(f"uarch {m}\n")
    n = len(regen(out, qhasm, a.verbose, a.uarch))
    print(f"regen: wrote {n} files under {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
