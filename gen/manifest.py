"""The manifest (specs/kernels.conf): its reader and everything made from it.

    python3 -m gen.manifest c --target T        dispatch tables and prototypes (C)
    python3 -m gen.manifest mk --target T       the make lists of target T
    python3 -m gen.manifest targets-mk          every target's tools, for make
    python3 -m gen.manifest map                 the exported-symbol map of libqhasm.so
    python3 -m gen.manifest list [--target T]   "prim impl target" lines, for scripts
    python3 -m gen.manifest target T KEY        one setting of a target (as, cc, run, ...)
    python3 -m gen.manifest check               parse only; errors are file:line:col

Everything that lists implementations is generated from here (docs/manifest.md):
gen/regen.py takes its jobs from jobs(), tests/run.py its targets from
targets(), csrc/csrc.mk and csrc/cross.mk their object lists and tools from
`mk` and `targets-mk`, csrc/dispatch.c its tables from `c`.
"""
from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = "specs/kernels.conf"
ALIASES = "out/ALIASES"
# the CPU feature names of csrc/cpu.c, each QHASM_CPU_<NAME upper> in qhasm.h
FEATURES = ["sse2", "ssse3", "avx", "avx2", "bmi2", "adx", "avx512f", "avx512vl", "avx512bw",
            "avx512ifma", "altivec", "pclmulqdq", "bmi1", "avx512vpopcntdq"]
TARGET_KEYS = {"ext", "as", "cc", "cflags", "run", "machine", "pkg"}
PRIM_KEYS = {"family", "param", "symbol", "kernels", "api", "aliases", "ref", "vectors", "speed", "impl",
             "args", "proto", "align", "check"}
ARG_KINDS = {"out": 1, "in": 2, "inout": 3, "work": 4}
IMPL_KEYS = {"features", "gen", "params", "source", "lengths", "why", "has", "variants"}
NOLIMIT = 2 ** 64 - 1


class ManifestError(Exception):
    pass


@dataclass
class Target:
    name: str
    ext: str
    as_: list[str]
    cc: list[str]
    cflags: list[str]
    run: list[str]
    machine: str
    pkg: list[str]


@dataclass
class Impl:
    prim: str
    name: str
    target: str                   # "" for C implementations (every target)
    features: list[str]
    gen: str                      # generator module, or ""
    params: dict[str, str]
    source: str                   # C source, or ""
    minlen: int = 0
    maxlen: int = NOLIMIT
    why: str = ""
    has: list[str] = field(default_factory=list)   # the optional kernels (K? in kernels) it provides
    variants: list[str] | None = None   # the uarch models to make variants for (None: every one)
    uarch: str = ""               # a per-model variant: the model
    base: str = ""                # a per-model variant: its generic implementation
    alias: bool = False           # a variant whose code is its base's

    @property
    def id(self) -> str:
        return self.name.replace("-", "_")


@dataclass
class Prim:
    name: str
    line: int
    family: str = ""
    params: dict[str, str] = field(default_factory=dict)
    symbol: str = ""
    kernels: list[str] = field(default_factory=list)
    args: list[str] = field(default_factory=list)
    api: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    ref: str = ""
    vectors: str = ""
    speed: list[int] = field(default_factory=list)
    proto: str = ""               # family fixed: the public function's C prototype
    align: int = 1                # family fixed: the alignment its buffers need
    check: str = ""               # extra qhasm-test checks: FILE:FUNCTION
    impls: list[Impl] = field(default_factory=list)

    def symbol_of(self, impl: Impl, kernel: str) -> str:
        return f"qhasm_kernel_{self.symbol}_{impl.id}_{kernel.rstrip('?')}"

    def kernels_of(self, impl: Impl) -> list[str]:
        """The kernels impl provides: every required one, the optional ones of has=."""
        return [k for k in self.kernels if not k.endswith("?") or k[:-1] in impl.has]


@dataclass
class Manifest:
    targets: dict[str, Target]
    uarchs: list[str]
    prims: list[Prim]

    def impls(self, target: str | None = None, variants: bool = True) -> list[Impl]:
        """Every (primitive, implementation) in manifest order, those of target
        (plus the C ones) if given."""
        res = []
        for p in self.prims:
            for im in p.impls:
                if (target is None or im.target in ("", target)) and (variants or not im.uarch):
                    res.append(im)
        return res

    def prim(self, name: str) -> Prim:
        return next(p for p in self.prims if p.name == name)


def _err(path: str, line: int, col: int, msg: str) -> ManifestError:
    return ManifestError(f"{path}:{line}:{col}: error: {msg}")


def _kv(path: str, ln: int, text: str, words: list[str], allowed: set[str]) -> dict[str, str]:
    res: dict[str, str] = {}
    for w in words:
        col = text.find(w.split("=", 1)[0]) + 1
        if "=" not in w:
            raise _err(path, ln, col, f"expected key=value, found '{w}'")
        k, v = w.split("=", 1)
        if k not in allowed:
            raise _err(path, ln, col, f"unknown key '{k}' (known: {', '.join(sorted(allowed))})")
        if k in res:
            raise _err(path, ln, col, f"'{k}' given twice")
        res[k] = v
    return res


def _lengths(path: str, ln: int, col: int, v: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d+)-(\d*)", v)
    if not m:
        raise _err(path, ln, col, f"lengths must be A-B or A- (bytes), found '{v}'")
    lo, hi = int(m.group(1)), int(m.group(2)) if m.group(2) else NOLIMIT
    if hi < lo:
        raise _err(path, ln, col, f"empty length range '{v}'")
    return lo, hi


def parse(path: str | None = None, root: str = ROOT) -> Manifest:
    path = path or os.path.join(root, MANIFEST)
    rel = os.path.relpath(path, root)
    targets: dict[str, Target] = {}
    uarchs: list[str] = []
    prims: list[Prim] = []
    cur: Prim | None = None
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for ln, text in enumerate(lines, 1):
        try:
            words = shlex.split(text, comments=True)
        except ValueError as e:
            raise _err(rel, ln, 1, f"cannot split the line: {e}")
        if not words:
            continue
        kw, rest = words[0], words[1:]
        col = text.find(kw) + 1
        indented = text[:1].isspace()
        if not indented:
            cur = None
            if kw == "target":
                if not rest:
                    raise _err(rel, ln, col, "target needs a name")
                kv = _kv(rel, ln, text, rest[1:], TARGET_KEYS)
                missing = TARGET_KEYS - set(kv)
                if missing:
                    raise _err(rel, ln, col, f"target {rest[0]} lacks {', '.join(sorted(missing))}")
                targets[rest[0]] = Target(rest[0], kv["ext"], kv["as"].split(), kv["cc"].split(),
                                          kv["cflags"].split(), kv["run"].split(), kv["machine"],
                                          kv["pkg"].split())
            elif kw == "uarch":
                if len(rest) != 1:
                    raise _err(rel, ln, col, "uarch takes one model name")
                if rest[0] not in uarchs:
                    uarchs.append(rest[0])
            elif kw == "primitive":
                if len(rest) != 1 or not re.fullmatch(r"[a-z][a-z0-9_]*", rest[0]):
                    raise _err(rel, ln, col, "primitive takes one name of [a-z0-9_]")
                if any(p.name == rest[0] for p in prims):
                    raise _err(rel, ln, col, f"primitive {rest[0]} defined twice")
                cur = Prim(rest[0], ln)
                prims.append(cur)
            else:
                raise _err(rel, ln, col, f"unknown keyword '{kw}' (target, uarch, primitive; "
                                         "primitive settings are indented)")
            continue
        if cur is None:
            raise _err(rel, ln, col, "an indented line outside a primitive")
        if kw not in PRIM_KEYS:
            raise _err(rel, ln, col, f"unknown primitive setting '{kw}' (known: {', '.join(sorted(PRIM_KEYS))})")
        if kw == "impl":
            cur.impls.append(_impl(rel, ln, text, cur, rest, targets))
        elif kw == "param":
            cur.params.update(_kv(rel, ln, text, rest, {w.split("=", 1)[0] for w in rest}))
        elif kw == "args":
            for w in rest:
                m_ = re.fullmatch(r"(out|in|inout|work):(\d+)", w)
                if not m_:
                    raise _err(rel, ln, text.find(w) + 1, f"an argument is KIND:BYTES with KIND out, in, inout or work; "
                                                          f"found '{w}'")
            if not 1 <= len(rest) <= 6:
                raise _err(rel, ln, col, "args: 1 to 6 pointer arguments")
            cur.args = rest
        elif kw == "align":
            if len(rest) != 1 or not rest[0].isdigit() or int(rest[0]) not in (1, 2, 4, 8, 16, 32, 64):
                raise _err(rel, ln, col, "align takes a power of two up to 64 (bytes)")
            cur.align = int(rest[0])
        elif kw == "check":
            if len(rest) != 1 or not re.fullmatch(r"csrc/[\w/]+\.c:\w+", rest[0]):
                raise _err(rel, ln, col, "check takes csrc/FILE.c:FUNCTION (int FUNCTION(int p, int i))")
            cur.check = rest[0]
        elif kw in ("family", "symbol", "ref", "vectors", "proto"):
            if len(rest) != 1:
                raise _err(rel, ln, col, f"{kw} takes one value")
            setattr(cur, kw, rest[0])
        elif kw == "speed":
            if not all(w.isdigit() and int(w) > 0 for w in rest):
                raise _err(rel, ln, col, "speed takes message lengths in bytes, each at least 1 "
                                         "(--table prints ticks per byte)")
            cur.speed = [int(w) for w in rest]
        else:
            setattr(cur, kw, rest)
    for p in prims:
        _finish(rel, p)
    if len(prims) > 64:
        raise _err(rel, prims[64].line, 1, "more than 64 primitives (QHASM_MAXPRIMS in csrc/manifest.h)")
    return Manifest(targets, uarchs, prims)


def _impl(rel: str, ln: int, text: str, p: Prim, rest: list[str], targets: dict[str, Target]) -> Impl:
    col = text.find("impl") + 1
    if not rest:
        raise _err(rel, ln, col, "impl needs a name")
    name = rest[0]
    if any(i.name == name for i in p.impls):
        raise _err(rel, ln, col, f"implementation {name} of {p.name} listed twice")
    kv = _kv(rel, ln, text, rest[1:], IMPL_KEYS)
    feats = [x for x in kv.get("features", "").split(",") if x]
    for x in feats:
        if x not in FEATURES:
            raise _err(rel, ln, text.find(x) + 1, f"unknown CPU feature '{x}' (known: {', '.join(FEATURES)})")
    if ("gen" in kv) == ("source" in kv) and name != "ref":
        raise _err(rel, ln, col, f"implementation {name}: give exactly one of gen= and source=")
    target = ""
    if "gen" in kv:
        first = name.split("-")[0]
        target = first if first in targets else "amd64"
        if target not in targets:
            raise _err(rel, ln, col, f"implementation {name}: no target {target}")
        if not os.path.exists(os.path.join(ROOT, "gen", kv["gen"] + ".py")):
            raise _err(rel, ln, text.find(kv["gen"]) + 1, f"no generator gen/{kv['gen']}.py")
    params = dict(x.split("=", 1) for x in kv.get("params", "").split(",") if "=" in x)
    lo, hi = _lengths(rel, ln, text.find("lengths=") + 1, kv["lengths"]) if "lengths" in kv else (0, NOLIMIT)
    if "lengths" in kv and "why" not in kv:
        raise _err(rel, ln, text.find("lengths=") + 1, "a length range needs why= (the measurement behind it)")
    has = [x for x in kv.get("has", "").split(",") if x]
    for x in has:
        if f"{x}?" not in p.kernels:
            raise _err(rel, ln, text.find("has=") + 1, f"has={x}: {p.name} has no optional kernel '{x}?' "
                                                       "(its kernels line lists them)")
    variants = None if "variants" not in kv else [x for x in kv["variants"].split(",") if x and x != "none"]
    return Impl(p.name, name, target, feats, kv.get("gen", ""), params, kv.get("source", ""), lo, hi,
                kv.get("why", ""), has, variants)


def _finish(rel: str, p: Prim) -> None:
    for k in ("family", "kernels", "api", "ref"):
        if not getattr(p, k):
            raise _err(rel, p.line, 1, f"primitive {p.name} lacks '{k}'")
    p.symbol = p.symbol or p.name
    if p.family == "fixed":
        if not p.args or not p.proto or len(p.kernels) != 1 or len(p.api) != 1:
            raise _err(rel, p.line, 1, f"primitive {p.name}: family fixed needs args, proto, one kernel and "
                                       "one api function")
        visible = [a for a in p.args if not a.startswith("work:")]
        if len(proto_params(p.proto)) != len(visible):
            raise _err(rel, p.line, 1, f"primitive {p.name}: proto has {len(proto_params(p.proto))} parameters, "
                                       f"args {len(visible)} besides work areas")
    if p.family == "kem":
        _finish_kem(rel, p)
    if not p.impls or p.impls[-1].name != "ref" or p.impls[-1].minlen or p.impls[-1].maxlen != NOLIMIT:
        raise _err(rel, p.line, 1, f"primitive {p.name}: the last implementation must be ref, "
                                   "preferred at every length (the fallback)")


KEM_SIZES = ("pk", "sk", "ct", "ss")
KEM_OPS = ("keypair", "enc", "dec")


def _finish_kem(rel: str, p: Prim) -> None:
    """family kem: kernels keypair enc dec, the api functions NAME_keypair,
    NAME_enc, NAME_dec, and the sizes as params pk= sk= ct= ss= (bytes)."""
    if p.kernels != list(KEM_OPS):
        raise _err(rel, p.line, 1, f"primitive {p.name}: family kem needs 'kernels keypair enc dec'")
    if len(p.api) != 3 or any(not a.endswith("_" + o) for a, o in zip(p.api, KEM_OPS)):
        raise _err(rel, p.line, 1, f"primitive {p.name}: family kem needs three api functions "
                                   "NAME_keypair NAME_enc NAME_dec, in that order")
    for k in KEM_SIZES:
        if not p.params.get(k, "").isdigit() or int(p.params[k]) == 0:
            raise _err(rel, p.line, 1, f"primitive {p.name}: family kem needs 'param {k}=BYTES' "
                                       "(pk, sk, ct and ss: the byte sizes)")


def kem_wrappers(m: Manifest) -> list[str]:
    """The public functions of the kem family (the selected implementation's
    kernels; the sizes are in the kernels' contract) and qhasm_kem_public."""
    out = ["#include \"kem_impl.h\"", ""]
    for p in m.prims:
        if p.family != "kem":
            continue
        sel = f"qhasm_select(QHASM_PRIM_{p.name.upper()}, 0)"
        kp, enc, dec = p.api
        out += [f"/* {p.name}: pk {p.params['pk']}, sk {p.params['sk']}, ct {p.params['ct']}, "
                f"ss {p.params['ss']} bytes */",
                f"int {kp}(unsigned char *pk, unsigned char *sk)",
                f"{{ return QHASM_KEM_KEYPAIR({sel})(pk, sk); }}",
                f"int {enc}(unsigned char *c, unsigned char *k, const unsigned char *pk)",
                f"{{ return QHASM_KEM_ENC({sel})(c, k, pk); }}",
                f"int {dec}(unsigned char *k, const unsigned char *c, const unsigned char *sk)",
                f"{{ return QHASM_KEM_DEC({sel})(k, c, sk); }}",
                f"static const qhasm_kem_api api_{p.name} = {{ {kp}, {enc}, {dec} }};", ""]
    out += ["/* the public functions of each kem-family primitive (qhasm-test calls them) */",
            "const qhasm_kem_api *qhasm_kem_public(int p)", "{", "    switch (p) {"]
    out += [f"    case QHASM_PRIM_{p.name.upper()}: return &api_{p.name};" for p in m.prims if p.family == "kem"]
    out += ["    default: return 0;", "    }", "}", ""]
    return out


def with_variants(m: Manifest, root: str = ROOT) -> Manifest:
    """The manifest with the per-model variants of every generated
    implementation (models of `uarch` lines, on the model's target) added
    after the generic ones; a variant listed in out/ALIASES is an alias."""
    aliases = read_aliases(root)
    for p in m.prims:
        extra = []
        for model in m.uarchs:
            t = model_target(model, root)
            for im in p.impls:
                if im.target != t or im.uarch or (im.variants is not None and model not in im.variants):
                    continue
                v = Impl(p.name, f"{im.name}-{model}", im.target, im.features, im.gen, im.params, "",
                         im.minlen, im.maxlen, im.why, im.has, None, model, im.name)
                v.alias = (v.name, p.name) in aliases
                extra.append(v)
        p.impls = p.impls + extra
    return m


def read_aliases(root: str = ROOT) -> set[tuple[str, str]]:
    """(variant, primitive) pairs of out/ALIASES."""
    res: set[tuple[str, str]] = set()
    path = os.path.join(root, ALIASES)
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            w = line.split("#", 1)[0].split()
            if len(w) >= 2:
                res.add((w[0], w[1]))
    return res


def model_target(name: str, root: str = ROOT) -> str:
    """The target of a model, from its file qhasm/*/models/NAME.model."""
    import glob
    for f in glob.glob(os.path.join(root, "qhasm", "*", "models", f"{name}.model")):
        for line in open(f, encoding="utf-8"):
            w = line.split()
            if len(w) == 3 and w[0] == "model" and w[1] == name:
                return w[2]
    raise ManifestError(f"{MANIFEST}: error: no model named {name} (qhasm/*/models/{name}.model)")


# ---- generation jobs (gen/regen.py) ------------------------------------------
def generator(name: str):
    import importlib
    return importlib.import_module(f"gen.{name}")


def qpath(im: Impl) -> str:
    """The generated .q of a generated implementation."""
    return generator(im.gen).qpath(im.name, im.params)


def asm_path(m: Manifest, im: Impl) -> str:
    """out/<impl>/<basename>.<ext> of a generated implementation (a variant's too)."""
    base = os.path.basename(qpath(im) if not im.uarch else qpath(_base(m, im)))[:-2]
    return f"out/{im.name}/{base}.{m.targets[im.target].ext}"


def _base(m: Manifest, im: Impl) -> Impl:
    return next(i for i in m.prim(im.prim).impls if i.name == im.base)


def proto_params(proto: str) -> list[tuple[str, str]]:
    """(type, name) of each parameter of a C prototype "RET NAME(T a, T b)"."""
    inner = proto[proto.index("(") + 1:proto.rindex(")")].strip()
    res = []
    for par in [x.strip() for x in inner.split(",") if x.strip() and x.strip() != "void"]:
        m = re.fullmatch(r"(.*?)(\w+)\s*(\[\s*\w*\s*\])?", par)
        if not m:
            raise ManifestError(f"{MANIFEST}: error: cannot read the parameter '{par}' of '{proto}'")
        res.append((m.group(1).strip() + (" *" if m.group(3) else ""), m.group(2)))
    return res


def c_wrappers(m: Manifest) -> str:
    """The public functions of the fixed family: call the selected kernel
    (a void function of the same pointer arguments); int ones return 0."""
    out = [f"/* generated by gen/manifest.py from {MANIFEST}. DO NOT EDIT. */",
           "#include \"impl.h\"", ""]
    work = max([int(a.split(":")[1]) for p in m.prims if p.family == "fixed" for a in p.args
                if a.startswith("work:")] + [0])
    if work:
        out += ["/* the work area of kernels with a work argument (a frame too small for",
                " * it on the target), one per thread, shared by all of them */",
                f"static _Thread_local unsigned char work[{work}] __attribute__((aligned(64)));", ""]
    for p in m.prims:
        if p.family != "fixed":
            continue
        ret = p.proto[:p.proto.index(p.api[0])].strip()
        pars = iter(proto_params(p.proto))
        typel, namel = [], []
        for a in p.args:
            if a.startswith("work:"):
                typel.append("void *")
                namel.append("work")
            else:
                t, n = next(pars)
                typel.append(t)
                namel.append(n)
        types, names = ", ".join(typel), ", ".join(namel)
        out += [f"/* {p.name}: {' '.join(p.args)} */", p.proto, "{",
                f"    typedef void kernel_fn({types});",
                f"    ((kernel_fn *)qhasm_select(QHASM_PRIM_{p.name.upper()}, 0)->fn[0])({names});"]
        out += ["    return 0;"] if ret != "void" else []
        out += ["}", ""]
    out += kem_wrappers(m)
    out.append("/* the public function of each fixed-family primitive (qhasm-test calls it) */")
    out.append("qhasm_fn *qhasm_fixed_public(int p)")
    out.append("{")
    out.append("    switch (p) {")
    for p in m.prims:
        if p.family == "fixed":
            out.append(f"    case QHASM_PRIM_{p.name.upper()}: return (qhasm_fn *){p.api[0]};")
    out += ["    default: return 0;", "    }", "}"]
    return "\n".join(out) + "\n"


# ---- C: dispatch tables --------------------------------------------------------
def ims_of(p: Prim, target: str) -> list[Impl]:
    """The implementations of p in target's tables, in table order."""
    return [i for i in p.impls if i.target in ("", target)]


def c_tables(m: Manifest, target: str) -> str:
    out = [f"/* generated by gen/manifest.py from {MANIFEST} for target {target}. DO NOT EDIT. */",
           "#include \"qhasm.h\"", "#include \"manifest.h\"", ""]
    for p in m.prims:
        ims = ims_of(p, target)
        for im in ims:
            if im.alias:
                continue
            for k in p.kernels_of(im):
                out.append(f"extern void {p.symbol_of(im, k)}(void);")
        out.append(f"static const qhasm_impl impls_{p.name}[] = {{")
        for im in ims:
            feats = " | ".join(f"QHASM_CPU_{f.upper()}" for f in im.features) or "0"
            code = _base(m, im) if im.alias else im
            fns = ", ".join(p.symbol_of(code, k) if k in p.kernels_of(code) else "0" for k in p.kernels)
            alias = f'"{im.base}"' if im.alias else "0"
            maxlen = "~0ULL" if im.maxlen == NOLIMIT else f"{im.maxlen}ULL"
            out.append(f'    {{ "{im.name}", {feats}, "{im.uarch}", {alias}, {im.minlen}ULL, {maxlen}, '
                       f'{{ {fns} }} }},')
        out.append("};")
        names = ", ".join(f'"{a}"' for a in p.aliases + p.api)
        out.append(f"static const char *const aliases_{p.name}[] = {{ {names}{', ' if names else ''}0 }};")
        params = ", ".join(f'{{ "{k}", "{v}" }}' for k, v in p.params.items())
        out.append(f"static const qhasm_param params_{p.name}[] = {{ {params}{', ' if params else ''}{{ 0, 0 }} }};")
        speeds = ", ".join(str(s) for s in p.speed)
        out.append(f"static const unsigned long speed_{p.name}[] = {{ {speeds}{', ' if speeds else ''}0 }};")
        args = ", ".join(f"{{ {ARG_KINDS[a.split(':')[0]]}, {a.split(':')[1]} }}" for a in p.args)
        out.append(f"static const qhasm_arg args_{p.name}[] = {{ {args}{', ' if args else ''}{{ 0, 0 }} }};")
        kern = ", ".join(f'"{k.rstrip("?")}"' for k in p.kernels)
        out.append(f"static const char *const kernels_{p.name}[] = {{ {kern}, 0 }};")
        out.append("")
    out.append("const qhasm_prim qhasm_prims[] = {")
    for p in m.prims:
        out.append(f'    {{ "{p.name}", "{p.family}", "{p.symbol}", aliases_{p.name}, params_{p.name}, '
                   f'kernels_{p.name}, speed_{p.name}, "{p.vectors}", args_{p.name}, {p.align}, impls_{p.name}, '
                   f'(int)(sizeof impls_{p.name} / sizeof impls_{p.name}[0]), '
                   f'{next(k for k, i in enumerate(ims_of(p, target)) if i.name == "ref")} }},')
    out.append("    { 0 }")
    out.append("};")
    out.append(f"const int qhasm_nprims = {len(m.prims)};")
    return "\n".join(out) + "\n"


def c_header(m: Manifest) -> str:
    out = [f"/* generated by gen/manifest.py from {MANIFEST}. DO NOT EDIT. */",
           "#ifndef QHASM_PRIMS_H", "#define QHASM_PRIMS_H",
           "/* the index of each primitive in qhasm_prims[] (the same on every target) */"]
    out += [f"#define QHASM_PRIM_{p.name.upper()} {i}" for i, p in enumerate(m.prims)]
    out += [f"#define QHASM_NPRIMS {len(m.prims)}", "#endif"]
    return "\n".join(out) + "\n"


def c_hooks(m: Manifest, kind: str) -> str:
    """qhasm-test's (kind "test") or qhasm-speed's ("speed") family hooks per
    primitive: csrc/<kind>_<family>.c defines qhasm_<kind>_<family>."""
    fams = list(dict.fromkeys(p.family for p in m.prims))
    out = [f"/* generated by gen/manifest.py from {MANIFEST}. DO NOT EDIT. */",
           f'#include "{kind}.h"']
    out += [f"extern const qhasm_{kind}_family qhasm_{kind}_{f};" for f in fams]
    out.append(f"const qhasm_{kind}_family *const qhasm_{kind}_families[] = {{")
    out += [f"    &qhasm_{kind}_{p.family},   /* {p.name} */" for p in m.prims]
    out += ["    0", "};"]
    if kind == "test":
        checks = [p.check.split(":")[1] for p in m.prims if p.check]
        out += [f"int {c}(int p, int i);" for c in dict.fromkeys(checks)]
        out.append("/* the primitives' own checks after their family's (`check` lines) */")
        out.append("int (*const qhasm_test_extra[])(int p, int i) = {")
        out += [f"    {p.check.split(':')[1] if p.check else '0'},   /* {p.name} */" for p in m.prims]
        out += ["    0", "};"]
    return "\n".join(out) + "\n"


# ---- make -----------------------------------------------------------------------
def mk(m: Manifest, target: str) -> str:
    asm, csrc = [], []
    for p in m.prims:
        for im in p.impls:
            if im.target == target and not im.alias:
                asm.append(asm_path(m, im))
            if im.source and im.source not in csrc:
                csrc.append(im.source)
        for f in [p.ref] + ([f"csrc/{p.family}_wrap.c"] if p.family != "fixed" else []):
            if os.path.exists(os.path.join(ROOT, f)) and f not in csrc:
                csrc.append(f)
    fams = sorted({p.family for p in m.prims})
    tests = [f"csrc/test_{f}.c" for f in fams if os.path.exists(os.path.join(ROOT, f"csrc/test_{f}.c"))]
    tests += list(dict.fromkeys(p.check.split(":")[0] for p in m.prims if p.check))
    speeds = [f"csrc/speed_{f}.c" for f in fams if os.path.exists(os.path.join(ROOT, f"csrc/speed_{f}.c"))]
    out = [f"# generated by gen/manifest.py from {MANIFEST} for target {target}. DO NOT EDIT.",
           f"MANIFEST_ASM := {' '.join(dict.fromkeys(asm))}",
           f"MANIFEST_CSRC := {' '.join(csrc)}",
           f"MANIFEST_TEST_SRC := {' '.join(tests)}",
           f"MANIFEST_SPEED_SRC := {' '.join(speeds)}"]
    return "\n".join(out) + "\n"


def targets_mk(m: Manifest) -> str:
    out = [f"# generated by gen/manifest.py from {MANIFEST}. DO NOT EDIT.",
           f"MANIFEST_TARGETS := {' '.join(m.targets)}"]
    for t in m.targets.values():
        up = t.name
        out += [f"TARGET_EXT_{up} := {t.ext}", f"TARGET_AS_{up} := {' '.join(t.as_)}",
                f"TARGET_CC_{up} := {' '.join(t.cc)}", f"TARGET_CFLAGS_{up} := {' '.join(t.cflags)}",
                f"TARGET_RUN_{up} := {' '.join(t.run)}", f"TARGET_MACHINE_{up} := {t.machine}",
                f"TARGET_PKG_{up} := {' '.join(t.pkg)}"]
    return "\n".join(out) + "\n"


def symbol_map(m: Manifest) -> str:
    api = [a for p in m.prims for a in p.api]
    control = ["qhasm_impl_*", "qhasm_prim_name", "qhasm_cpu_features", "qhasm_cpu_feature_name",
               "qhasm_randombytes_set", "qhasm_randombytes_set_stream"]
    out = [f"/* generated by gen/manifest.py from {MANIFEST}. DO NOT EDIT. */",
           "/* exported symbols of libqhasm.so: the public API of qhasm.h only */", "{", "  global:"]
    out += [f"    {s};" for s in dict.fromkeys(api + control)]
    out += ["  local:", "    *;", "};"]
    return "\n".join(out) + "\n"


def targets(root: str = ROOT) -> dict[str, Target]:
    return parse(root=root).targets


def target_of_folder(m: Manifest, folder: str) -> str:
    first = folder.split("-")[0]
    return first if first in m.targets else "amd64"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m gen.manifest", description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["c", "h", "hooks", "wrappers", "mk", "targets-mk", "map", "list", "target", "check"])
    ap.add_argument("args", nargs="*")
    ap.add_argument("--target", default="amd64")
    ap.add_argument("--manifest", default=None)
    a = ap.parse_args(argv)
    try:
        m = with_variants(parse(a.manifest))
        # target "c": a machine without a target of its own (the C implementations only)
        if a.what not in ("list", "target") and a.target not in m.targets and a.target != "c":
            raise ManifestError(f"{MANIFEST}: error: no target {a.target}")
        if a.what == "c":
            sys.stdout.write(c_tables(m, a.target))
        elif a.what == "wrappers":
            sys.stdout.write(c_wrappers(m))
        elif a.what == "h":
            sys.stdout.write(c_header(m))
        elif a.what == "hooks":
            sys.stdout.write(c_hooks(m, a.args[0]))
        elif a.what == "mk":
            sys.stdout.write(mk(m, a.target))
        elif a.what == "targets-mk":
            sys.stdout.write(targets_mk(m))
        elif a.what == "map":
            sys.stdout.write(symbol_map(m))
        elif a.what == "list":
            t = a.target if "--target" in argv else None
            for im in m.impls(t):
                kind = "alias" if im.alias else ("variant" if im.uarch else "impl")
                print(im.prim, im.name, im.target or "c", kind, im.base or "-")
        elif a.what == "target":
            t = m.targets[a.args[0]]
            key = a.args[1]
            v = getattr(t, key + "_" if key == "as" else key)
            print(" ".join(v) if isinstance(v, list) else v)
    except ManifestError as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
