#!/usr/bin/env python3
"""Every kernel under specs/*/generated/ on the interpreter (gen/qinterp.py)
against the reference C (csrc/ref/, compiled into a shared library and
called with ctypes): Salsa20/r blocks and core, Poly1305 init/blocks/final,
and every generated implementation of the manifest's fixed and hash
families (McEliece GF(2^m) scalar/vector arithmetic, transpose and
syndromes, NTRU Prime core_mult*, SHA-512, SHAKE256), driven by the
manifest's `args` and prototype (multi-byte elements in the target's byte
order on the interpreter, the host's for the ref C).

    python3 tests/diff/kernels.py [-j JOBS] [PATTERN]    exit 0 when all agree

A kernel file no driver knows is listed as NOT RUN and fails the test.
Inputs are deterministic (fixed seed); small kernels get four input cases
(random, all 0xff, all zero, 0/0xff bytes), the largest (a 1 MB McEliece
public key, the NTRU products) one.  Salsa20 includes the 32-bit counter
carry and block counts for the 1-, 4-, 8- and 16-way paths.  A mutated
kernel must be reported (selftest).
"""
from __future__ import annotations

import ctypes
import glob
import os
import random
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from gen import qinterp  # noqa: E402
from gen.qsem import Undefined  # noqa: E402

BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build"))
STACKFILL = (0x5a, 0xc3)
TARGETS = ["amd64", "x86", "ppc32", "ppc64", "sparc64"]


def libref() -> ctypes.CDLL:
    out = os.path.join(BUILD, "diff", "libqhasmref.so")
    # every reference of csrc/ref (the manifest's `ref` files of the kernels)
    srcs = sorted(glob.glob(os.path.join(ROOT, "csrc", "ref", "*.c")))
    if not os.path.exists(out) or any(os.path.getmtime(s) > os.path.getmtime(out) for s in srcs + [__file__]):
        os.makedirs(os.path.dirname(out), exist_ok=True)
        subprocess.run([os.environ.get("CC", "cc"), "-O2", "-shared", "-fPIC", "-I", os.path.join(ROOT, "csrc", "include"), "-I", os.path.join(ROOT, "csrc"), "-o", out, *srcs], check=True)
    return ctypes.CDLL(out)


def target_of(path: str) -> str:
    base = os.path.basename(path)
    return next(t for t in TARGETS if f"_{t}" in base)


def words(b: bytes, big: bool) -> list[int]:
    return [int.from_bytes(b[i:i + 4], "big" if big else "little") for i in range(0, len(b), 4)]


def wbytes(ws: list[int], big: bool) -> bytes:
    return b"".join(w.to_bytes(4, "big" if big else "little") for w in ws)


def args_for(fn: dict, vals: dict[str, int], target: str) -> list[int]:
    """the .q inputs from named C arguments; a 64-bit count on a 32-bit
    target arrives as two inputs (n/nlo low, nhi high)"""
    out = []
    for v in fn["input"]:
        if v in ("n", "nlo") and "nhi" in fn["input"]:
            out.append(vals["n"] & 0xffffffff)
        elif v == "nhi":
            out.append(vals["n"] >> 32)
        else:
            out.append(vals[v])
    return out


def salsa(prog: qinterp.Prog, path: str, target: str, ref: ctypes.CDLL, rng: random.Random) -> list[str]:
    rounds = int(re.search(r"_r(\d+)\.q$", path).group(1))
    big = qinterp.BIGENDIAN[target]
    fails = []
    blocks = next(n for n in prog.fns if n.endswith("_blocks"))
    core = next(n for n in prog.fns if n.endswith("_core"))
    for nblocks in (1, 3, 4, 8, 16, 17):
        x = [rng.getrandbits(32) for _ in range(16)]
        x[8], x[9] = 0xffffffff - rng.randrange(2), rng.getrandbits(32)
        m = bytes(rng.getrandbits(8) for _ in range(64 * nblocks))
        it = qinterp.Interp(prog, target)
        cm, mm = it.mem.alloc(len(m)), it.mem.alloc(len(m), data=m)
        xa = it.mem.alloc(64, data=wbytes(x, big))
        it.call(blocks, args_for(prog.fns[blocks], {"c": cm, "m": mm, "n": nblocks, "x": xa}, target))
        got_c, got_x = it.mem.read(cm, len(m)), words(it.mem.read(xa, 64), big)
        rc = ctypes.create_string_buffer(len(m))
        rx = (ctypes.c_uint32 * 16)(*x)
        getattr(ref, f"qhasm_kernel_salsa{rounds}_ref_blocks")(rc, m, ctypes.c_ulonglong(nblocks), rx)
        if got_c != rc.raw or got_x != list(rx):
            fails.append(f"{blocks} nblocks={nblocks}: output differs from the reference")
    x = [rng.getrandbits(32) for _ in range(16)]
    it = qinterp.Interp(prog, target)
    oa, ia = it.mem.alloc(64), it.mem.alloc(64, data=wbytes(x, big))
    it.call(core, args_for(prog.fns[core], {"out": oa, "in": ia}, target))
    ro = (ctypes.c_uint32 * 16)()
    getattr(ref, f"qhasm_kernel_salsa{rounds}_ref_core")(ro, (ctypes.c_uint32 * 16)(*x))
    if words(it.mem.read(oa, 64), big) != list(ro):
        fails.append(f"{core}: output differs from the reference")
    return fails


def poly(prog: qinterp.Prog, path: str, target: str, ref: ctypes.CDLL, rng: random.Random) -> list[str]:
    fails = []
    name = lambda s: next(n for n in prog.fns if n.endswith(s))
    init, blocks, final = name("_init"), name("_blocks"), name("_final")
    for nblocks, tail in ((1, 0), (2, 5), (4, 15), (5, 1), (9, 0), (17, 11), (33, 0)):
        k = bytes(rng.getrandbits(8) for _ in range(32))
        if nblocks == 9:
            k = bytes([0xff] * 32)              # the largest r and pad
        m = bytes(rng.getrandbits(8) for _ in range(16 * nblocks))
        if nblocks == 5:
            m = bytes([0xff] * len(m))
        last = bytes(rng.getrandbits(8) for _ in range(tail)) + b"\x01" + bytes(15 - tail) if tail else b""
        it = qinterp.Interp(prog, target)
        st = it.mem.alloc(384)
        ka, ma, aa = it.mem.alloc(32, data=k), it.mem.alloc(len(m), data=m), it.mem.alloc(16)
        it.call(init, args_for(prog.fns[init], {"st": st, "k": ka}, target))
        it.call(blocks, args_for(prog.fns[blocks], {"st": st, "m": ma, "n": nblocks, "hib": 1}, target))
        if last:
            la = it.mem.alloc(16, data=last)
            it.call(blocks, args_for(prog.fns[blocks], {"st": st, "m": la, "n": 1, "hib": 0}, target))
        it.call(final, args_for(prog.fns[final], {"st": st, "a": aa}, target))
        rs = ctypes.create_string_buffer(384)
        ra = ctypes.create_string_buffer(16)
        ref.qhasm_kernel_poly1305_ref_init(rs, k)
        ref.qhasm_kernel_poly1305_ref_blocks(rs, m, ctypes.c_ulonglong(nblocks), ctypes.c_uint(1))
        if last:
            ref.qhasm_kernel_poly1305_ref_blocks(rs, last, ctypes.c_ulonglong(1), ctypes.c_uint(0))
        ref.qhasm_kernel_poly1305_ref_final(rs, ra)
        if it.mem.read(aa, 16) != ra.raw:
            fails.append(f"{path}: tag differs for {nblocks} blocks + {tail} bytes")
    return fails


# ---------------------------------------------------------------- the manifest's fixed and hash families
def elem_bytes(ctype: str) -> int:
    """the element width of a C pointer parameter: multi-byte elements are in
    the target's byte order (the interpreter) and the host's (the ref C)"""
    return {"uint64_t": 8, "uint32_t": 4, "uint16_t": 2}.get(ctype.replace("const", "").replace("*", "").strip(), 1)


def swap(b: bytes, e: int, big: bool) -> bytes:
    """target bytes <-> host (little-endian) bytes of elements of e bytes"""
    if e == 1 or not big:
        return b
    return b"".join(b[i:i + e][::-1] for i in range(0, len(b), e))


def rbytes(rng: random.Random, n: int, case: int) -> bytes:
    """input bytes of case k (like qhasm-test's fill modes): random, 0xff, zero, 0/0xff bytes"""
    if case == 1:
        return bytes([0xff]) * n
    if case == 2:
        return bytes(n)
    if case == 3:
        return bytes(rng.choice((0, 0xff)) for _ in range(n))
    return rng.randbytes(n)


def fixed(prog: qinterp.Prog, target: str, ref: ctypes.CDLL, rng: random.Random, prim, im, ncases: int,
          lenient: bool = False) -> list[str]:
    """a fixed-family kernel: random inputs by the manifest's args, output
    bytes against the ref kernel qhasm_kernel_<symbol>_ref_<kernel>"""
    from gen import manifest
    big = qinterp.BIGENDIAN[target]
    sym = prim.symbol_of(im, prim.kernels[0])
    refsym = f"qhasm_kernel_{prim.symbol}_ref_{prim.kernels[0]}"
    ctypes_ = [t for t, _ in manifest.proto_params(prim.proto)]
    fails = []
    for case in range(ncases):
        it = qinterp.Interp(prog, target, stackfill=STACKFILL[case % 2] if lenient else None)
        ptrs, host, outs = [], [], []
        vis = 0
        for a in prim.args:
            kind, n = a.split(":")
            n = int(n)
            if kind == "work":
                ptrs.append(it.mem.alloc(n, init=False))
                continue
            e = elem_bytes(ctypes_[vis])
            vis += 1
            data = bytes(n) if kind == "out" else rbytes(rng, n, case)
            ptrs.append(it.mem.alloc(n, data=data, init=kind != "out"))
            hb = ctypes.create_string_buffer(swap(data, e, big), max(n, 1))
            host.append(hb)
            if kind == "out":
                outs.append((ptrs[-1], hb, n, e))
        nin = len(prog.fns[sym]["input"])
        it.call(sym, ptrs[:nin])
        getattr(ref, refsym)(*host)
        for k, (pa, hb, n, e) in enumerate(outs):
            got = swap(it.mem.read(pa, n), e, big)
            if got != hb.raw[:n]:
                i = next(j for j in range(n) if got[j] != hb.raw[j])
                fails.append(f"{sym} case {case}: output byte {i} = {got[i]:02x}, reference {hb.raw[i]:02x}")
                break
    return fails


def hashk(prog: qinterp.Prog, target: str, ref: ctypes.CDLL, rng: random.Random, prim, im, ncases: int) -> list[str]:
    """sha512/shake256 blocks (and permute): state words in the target's byte order"""
    fails = []
    big = qinterp.BIGENDIAN[target]
    fn = prim.params.get("fn", prim.name)
    nst, blk = (8, 128) if fn == "sha512" else (25, 136)
    for case in range(ncases):
        nblocks = (1, 2, 3)[case % 3]
        st = [rng.getrandbits(64) for _ in range(nst)]
        m = rbytes(rng, blk * nblocks, case)
        for kern in prim.kernels_of(im):
            sym = prim.symbol_of(im, kern)
            it = qinterp.Interp(prog, target)
            sa = it.mem.alloc(8 * nst, data=b"".join(w.to_bytes(8, "big" if big else "little") for w in st))
            ma = it.mem.alloc(len(m), data=m)
            args = {"st": sa, "in": ma, "n": nblocks}
            it.call(sym, [args[v] for v in prog.fns[sym]["input"]])
            got = [int.from_bytes(it.mem.read(sa + 8 * i, 8), "big" if big else "little") for i in range(nst)]
            rs = (ctypes.c_uint64 * nst)(*st)
            if kern == "blocks":
                getattr(ref, f"qhasm_kernel_{prim.symbol}_ref_blocks")(rs, m, ctypes.c_ulonglong(nblocks))
            else:
                getattr(ref, f"qhasm_kernel_{prim.symbol}_ref_{kern}")(rs)
            if got != list(rs):
                fails.append(f"{sym} {nblocks} blocks, case {case}: state differs from the reference")
    return fails


def prog_steps(prog: qinterp.Prog) -> int:
    return getattr(prog, "steps", 0)


def registry() -> dict[str, tuple]:
    """.q path -> (primitive, implementation) of every generated impl of the
    manifest's fixed and hash families"""
    from gen import manifest
    m = manifest.parse()
    out = {}
    for p in m.prims:
        if p.family not in ("fixed", "hash"):
            continue
        for im in p.impls:
            if im.gen and not im.uarch:
                out[os.path.normpath(os.path.join(ROOT, manifest.qpath(im)))] = (p, im)
    return out


def selftest(ref: ctypes.CDLL, reg: dict) -> bool:
    """the driver must see a wrong kernel: gf12_mul with its mask off by one
    bit (the test asserts something that can fail)"""
    path = os.path.join(ROOT, "specs", "mceliece", "generated", "mceliece_gf12_mul_amd64.q")
    with open(path) as f:
        text = f.read()
    bad = text.replace("mask = 4095", "mask = 4094", 1)
    prim, im = reg[os.path.normpath(path)]
    fails = fixed(qinterp.Prog(bad, "mutant"), "amd64", ref, random.Random(1), prim, im, 4)
    ok = bad != text and bool(fails)
    print(f"[{'ok' if ok else 'fail'}] interp self-test: a mutated gf12_mul kernel "
          f"{'is' if fails else 'is NOT'} reported as differing")
    return ok


def one(path: str) -> tuple[bool, str]:
    """run one kernel file: (agrees, the report line)"""
    ref, reg = _STATE["ref"], _STATE["reg"]
    rel = os.path.relpath(path, ROOT)
    base = os.path.basename(path)
    t0 = time.time()
    with open(path) as f:
        prog = qinterp.Prog(f.read(), rel)
    rng = random.Random(rel)
    notes = ""
    target = "?"
    try:
        if base.startswith("salsa20_"):
            target = target_of(path)
            fails = salsa(prog, rel, target, ref, rng)
        elif base.startswith("poly1305_"):
            target = target_of(path)
            fails = poly(prog, rel, target, ref, rng)
        else:
            prim, im = reg[os.path.normpath(path)]
            target = im.target
            # the largest kernels (a 1 MB public key, the NTRU products) on one input
            big = sum(int(a.split(":")[1]) for a in prim.args if not a.startswith("work")) > 100000 \
                or "ntruprime" in rel
            n = 1 if big else 4
            run = fixed if prim.family == "fixed" else hashk
            try:
                fails = run(prog, target, ref, rng, prim, im, n)
            except Undefined as e:
                if "before they are written" not in str(e) or run is not fixed:
                    raise
                # a read of unwritten stack bytes: again with the stack filled
                # by two different bytes; the outputs must not depend on them
                # (docs/semantics.md)
                notes = (f"\n  note: {e}; run again with stack bytes 0x{STACKFILL[0]:02x} and "
                         f"0x{STACKFILL[1]:02x}")
                fails = run(prog, target, ref, rng, prim, im, max(n, 2), lenient=True)
    except Undefined as e:
        fails = [f"undefined behaviour: {e}"]
    status = "ok" if not fails else "fail"
    return not fails, (f"[{status}] interp {rel} ({target}, {time.time() - t0:.1f}s, {prog_steps(prog)} steps)"
                       + notes + "".join("\n  " + x for x in fails))


_STATE: dict = {}


def main(argv: list[str]) -> int:
    jobs = 2
    if argv[:1] == ["-j"]:
        jobs, argv = int(argv[1]), argv[2:]
    pat = argv[0] if argv else ""
    ref = libref()
    files = sorted(glob.glob(os.path.join(ROOT, "specs", "*", "generated", "*.q")))
    reg = registry()
    _STATE.update(ref=ref, reg=reg)
    if not pat and not selftest(ref, reg):
        return 1
    t00 = time.time()
    todo, notrun = [], []
    for path in files:
        rel = os.path.relpath(path, ROOT)
        if pat not in rel:
            continue
        if not os.path.basename(path).startswith(("salsa20_", "poly1305_")) and os.path.normpath(path) not in reg:
            notrun.append(rel)
        else:
            todo.append(path)
    # the slowest first, so that the workers end together
    todo.sort(key=lambda p: -os.path.getsize(p) * (8 if "ntruprime" in p or "6960119" in p else 1))
    nfail = 0
    if jobs > 1 and len(todo) > 1:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = pool.imap_unordered(one, todo)
            for ok, line in results:
                print(line, flush=True)
                nfail += not ok
    else:
        for path in todo:
            ok, line = one(path)
            print(line, flush=True)
            nfail += not ok
    for rel in notrun:
        print(f"[NOT RUN] interp {rel}: neither Salsa20/Poly1305 nor a fixed/hash implementation of specs/kernels.conf")
    print(f"{len(todo) - nfail} kernels agree with the reference C, {nfail} differ, {len(notrun)} not run "
          f"({time.time() - t00:.0f} s, {jobs} jobs)")
    return 1 if nfail or not todo or notrun else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
