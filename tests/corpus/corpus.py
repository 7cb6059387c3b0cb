"""Differential test of the qhasm-dialect front end (qhasm/djb.c).

For every file of tests/corpus/corpus.conf: translate the djb qhasm source
with our qhasm, assemble the assembly SUPERCOP ships for it (GNU as, with
the namespace ref_) and our translation (NASM, namespace ours_), link both
with the file's external data and a generated C driver, call both on the
same random inputs and compare every byte of every buffer (and the return
value where the prototype has one).

    python3 tests/corpus/corpus.py [--corpus DIR] [--qhasm PATH] [--calls N] [--model M] [--speed] [PATTERN]

--model M translates with `-u M` (scheduled for that microarchitecture);
--speed also prints the median cycles of the shipped and our code per function.

Exit status 0 when every file expected to translate does and agrees, 1 on
any failure, 77 when the corpus or a needed tool is absent.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from typing import Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NS = ["-DCRYPTO_NAMESPACETOP=ref", "-D_CRYPTO_NAMESPACETOP=_ref",
      "-DCRYPTO_NAMESPACE(name)=ref_##name", "-D_CRYPTO_NAMESPACE(name)=_ref_##name",
      "-DCRYPTO_SHARED_NAMESPACE(name)=ref_##name", "-D_CRYPTO_SHARED_NAMESPACE(name)=_ref_##name"]


class Skip(Exception):
    pass


def run(cmd: list[str], cwd: Optional[str] = None, inp: Optional[str] = None) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, input=inp, capture_output=True, text=True, timeout=300)


def must(cmd: list[str], what: str, cwd: Optional[str] = None) -> str:
    r = run(cmd, cwd)
    if r.returncode != 0:
        raise RuntimeError(f"{what} failed: {' '.join(cmd)}\n{r.stderr.strip()[-2000:]}")
    return r.stdout


def parse_conf(path: str) -> list[dict]:
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            file, opts, funcs = (x.strip() for x in line.split("|"))
            fns = []
            for fn in funcs.split(";"):
                w = fn.split()
                ret = w[0].startswith("=")
                fns.append({"name": w[0].lstrip("="), "ret": ret, "args": w[1:]})
            out.append({"file": file, "opts": opts.split(), "fns": fns})
    return out


def cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def symbols(obj: str, local: bool = False) -> tuple[set[str], set[str]]:
    """(defined, undefined) global symbols of an object file (with local:
    the defined local ones instead)."""
    d, u = set(), set()
    for line in must(["nm", obj], "nm").splitlines():
        w = line.split()
        if len(w) == 2 and w[0] == "U":
            u.add(w[1])
        elif len(w) == 3 and w[1].isupper() != local and w[1].lower() in "bdrt":
            d.add(w[2])
    return d, u


def redefine(obj: str, pairs: dict[str, str]) -> None:
    if pairs:
        must(["objcopy"] + [f"--redefine-sym={a}={b}" for a, b in sorted(pairs.items())] + [obj], "objcopy")


def cname(fn: str, prefix: str) -> str:
    return prefix if fn == "TOP" else f"{prefix}_{fn}"


def driver(fns: list[dict], calls: int, seed: int) -> str:
    """C source calling ref_ and ours_ versions of each function on the same inputs."""
    c = ["#include <stdio.h>", "#include <stdlib.h>", "#include <string.h>", "#include <stdint.h>",
         "#include <x86intrin.h>", "",
         f"static uint64_t cyc[{len(fns)}][2][{calls}];",
         "static uint64_t now(void) { _mm_lfence(); uint64_t t = __rdtsc(); _mm_lfence(); return t; }",
         "static int cmpu(const void *a, const void *b) { uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b; return x < y ? -1 : x > y; }",
         "static uint64_t rs = %du;" % seed,
         "static uint64_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs; }",
         "static uint64_t range(uint64_t lo, uint64_t hi) { uint64_t n = hi - lo + 1; return n ? lo + rnd() % n : rnd(); }",
         "static void *abuf(size_t n) { void *p = aligned_alloc(64, (n + 127) / 64 * 64); if (!p) abort(); return p; }",
         "static int bad;"]
    for fi, fn in enumerate(fns):
        proto = ", ".join("uint64_t" for _ in fn["args"]) or "void"
        for p in ("ref", "ours"):
            c.append(f"extern uint64_t {cname(fn['name'], p)}({proto});")
        c.append(f"static void test{fi}(int it) {{")
        bufs = []
        for ai, a in enumerate(fn["args"]):
            k, *v = a.split(":")
            if k in ("b", "x", "d"):
                n = int(v[0]) * (1 if k == "b" else 8)
                bufs.append((ai, n))
                c.append(f"  size_t n{ai} = {n}; unsigned char *r{ai} = abuf(n{ai}), *o{ai} = abuf(n{ai});")
                if k == "b":
                    c.append(f"  for (size_t i = 0; i < n{ai}; i++) r{ai}[i] = (unsigned char)rnd();")
                elif k == "x":
                    c.append(f"  for (size_t i = 0; i < n{ai}; i += 8) {{ uint64_t w = range(0, {int(v[1]) - 1}u); memcpy(r{ai} + i, &w, 8); }}")
                else:
                    c.append(f"  for (size_t i = 0; i < n{ai}; i += 8) {{ double w = (double)(int64_t)(rnd() >> {64 - int(v[1]) - 1}) - (double)(1ll << {int(v[1])}); memcpy(r{ai} + i, &w, 8); }}")
                c.append(f"  memcpy(o{ai}, r{ai}, n{ai});")
            elif k == "u":
                c.append(f"  uint64_t a{ai} = range({int(v[0])}u, {int(v[1])}u);")
            elif k == "s":
                c.append(f"  uint64_t a{ai} = (uint64_t)({int(v[0])}ll + (int64_t)range(0, {int(v[1]) - int(v[0])}u));")
            elif k == "k":
                vals = v[0].split(",")
                c.append(f"  static const uint64_t k{ai}[] = {{{', '.join(x + 'u' for x in vals)}}};")
                c.append(f"  uint64_t a{ai} = k{ai}[rnd() % {len(vals)}];")
            else:
                raise ValueError(f"bad argument spec {a}")
        def args(p: str) -> str:
            return ", ".join(f"(uint64_t)(uintptr_t){p}{ai}" if a[0] in "bxd" else f"a{ai}"
                             for ai, a in enumerate(fn["args"]))
        # the two sides alternate in going first (warming the inputs for the other)
        c.append("  uint64_t rr, ro, t0, t1, t2;")
        c.append(f"  if (it & 1) {{ t0 = now(); rr = {cname(fn['name'], 'ref')}({args('r')}); t1 = now(); ro = {cname(fn['name'], 'ours')}({args('o')}); t2 = now(); cyc[{fi}][0][it] = t1 - t0; cyc[{fi}][1][it] = t2 - t1; }}")
        c.append(f"  else {{ t0 = now(); ro = {cname(fn['name'], 'ours')}({args('o')}); t1 = now(); rr = {cname(fn['name'], 'ref')}({args('r')}); t2 = now(); cyc[{fi}][1][it] = t1 - t0; cyc[{fi}][0][it] = t2 - t1; }}")
        if fn["ret"]:
            c.append(f"  if ((uint32_t)rr != (uint32_t)ro) {{ printf(\"{fn['name']} call %d: return value %u, shipped %u\\n\", it, (unsigned)ro, (unsigned)rr); bad++; }}")
        else:
            c.append("  (void)rr; (void)ro;")
        for ai, n in bufs:
            c.append(f"  for (size_t i = 0; i < n{ai}; i++) if (r{ai}[i] != o{ai}[i]) {{ printf(\"{fn['name']} call %d: argument {ai + 1} byte %zu is %02x, shipped %02x\\n\", it, i, o{ai}[i], r{ai}[i]); bad++; break; }}")
            c.append(f"  free(r{ai}); free(o{ai});")
        c.append("}")
    c.append("int main(int argc, char **argv) {")
    c.append(f"  for (int it = 0; it < {calls} && bad < 5; it++) {{")
    for fi in range(len(fns)):
        c.append(f"    test{fi}(it);")
    c.append("  }")
    c.append("  if (argc > 1 && !bad)")
    c.append(f"    for (int f = 0; f < {len(fns)}; f++) {{")
    c.append(f"      qsort(cyc[f][0], {calls}, 8, cmpu); qsort(cyc[f][1], {calls}, 8, cmpu);")
    names = ", ".join(f'"{fn["name"]}"' for fn in fns)
    c.append(f"      static const char *nm[] = {{{names}}};")
    c.append(f"      printf(\"speed %s: shipped %llu cycles, ours %llu (median of {calls} calls on the same random inputs)\\n\", nm[f],")
    c.append(f"             (unsigned long long)cyc[f][0][{calls} / 2], (unsigned long long)cyc[f][1][{calls} / 2]);")
    c.append("    }")
    c.append(f"  if (!bad) printf(\"{len(fns)} function(s), {calls} random calls each: every output byte agrees\\n\");")
    c.append("  return bad != 0;")
    c.append("}")
    return "\n".join(c) + "\n"


def extern_file(corpus: str, qfile: str) -> Optional[str]:
    stem = re.sub(r"(\.rec)?\.q$", "", qfile)
    for ext in (".extern.S", ".extern.s", ".extern.c"):
        if os.path.exists(os.path.join(corpus, stem + ext)):
            return stem + ext
    return None


def shipped_file(corpus: str, qfile: str) -> str:
    stem = re.sub(r"(\.rec)?\.q$", "", qfile)
    for ext in (".shipped.S", ".shipped.s"):
        if os.path.exists(os.path.join(corpus, stem + ext)):
            return stem + ext
    raise RuntimeError(f"no shipped assembly for {qfile}")


def translate(qhasm: str, corpus: str, ent: dict, tmp: str, extra: list[str]) -> subprocess.CompletedProcess:
    src = os.path.join(corpus, ent["file"])
    opts = [o for o in ent["opts"] if o not in ("cpp", "untranslated", "nopie")]
    if "cpp" in ent["opts"]:
        stem = re.sub(r"(\.rec)?\.q$", "", ent["file"])
        pre = os.path.join(tmp, os.path.basename(ent["file"]))
        r = run(["cpp", "-P", "-I", os.path.join(corpus, stem + ".include"), src])
        if r.returncode:
            return r
        with open(pre, "w") as f:
            f.write(r.stdout)
        src = pre
    return run([qhasm, "--namespace", "ours"] + opts + extra + ["-o", os.path.join(tmp, "ours.asm"), src])


def test_file(qhasm: str, corpus: str, ent: dict, calls: int, tmp: str, model: list[str], speed: bool = False) -> tuple[str, str]:
    """('ok'|'fail'|'untranslated'|'skipped', message)"""
    stem = re.sub(r"(\.rec)?\.q$", "", ent["file"])
    inc = ["-I", os.path.join(corpus, "include")]
    if os.path.isdir(os.path.join(corpus, stem + ".include")):
        inc += ["-I", os.path.join(corpus, stem + ".include")]
    r = translate(qhasm, corpus, ent, tmp, model)
    expect_untranslated = "untranslated" in ent["opts"]
    if r.returncode != 0:
        msg = r.stderr.strip().splitlines()[0] if r.stderr.strip() else f"exit {r.returncode}"
        if not re.match(r"^[^:]+:\d+:\d+: error: ", msg):
            return "fail", f"not a located error: {msg}"
        return ("untranslated" if expect_untranslated else "fail"), msg.replace(corpus + "/", "")
    if expect_untranslated:
        return "fail", "translates now: update tests/corpus/corpus.conf"
    need = {"avx2": "avx2", "avx": "avx", "popcnt": "popcnt", "bmi2": "bmi2"}
    flags = cpu_flags()
    for o in ent["opts"]:
        for x in o.split(","):
            if x in need and need[x] not in flags:
                return "skipped", f"this CPU lacks {x}"
    must(["nasm", "-f", "elf64", "-o", "ours.o", "ours.asm"], "nasm", tmp)
    must(["gcc", "-c"] + NS + inc + ["-o", "ref.o", os.path.join(corpus, shipped_file(corpus, ent["file"]))], "gcc (shipped)", tmp)
    objs = ["ref.o", "ours.o"]
    ext = extern_file(corpus, ent["file"])
    if ext:
        must(["gcc", "-c", "-O2"] + NS + inc + ["-o", "data.o", os.path.join(corpus, ext)], "gcc (data)", tmp)
        objs.append("data.o")
    data = symbols(os.path.join(tmp, "data.o"))[0] if ext else set()
    # tables kept as local labels (aes: SUPERCOP assembles them into the
    # same file): made global in our copy of the data
    if ext:
        loc = symbols(os.path.join(tmp, "data.o"), local=True)[0] & symbols(os.path.join(tmp, "ours.o"))[1]
        if loc:
            must(["objcopy"] + [f"--globalize-symbol={x}" for x in sorted(loc)] + ["data.o"], "objcopy", tmp)
            data |= loc
    names = {f["name"] for f in ent["fns"]}
    # functions with plain names get their side's prefix; our data
    # references go to the one copy of the data (namespaced ref_)
    for obj, p in (("ref.o", "ref"), ("ours.o", "ours")):
        d, u = symbols(os.path.join(tmp, obj))
        ren = {s: cname(s, p) for s in d if s in names}
        for s in u:
            if s in data:
                continue
            base = s[5:] if s.startswith("ours_") else s
            if "ref_" + base in data:
                ren[s] = "ref_" + base
        redefine(os.path.join(tmp, obj), ren)
    with open(os.path.join(tmp, "driver.c"), "w") as f:
        f.write(driver(ent["fns"], calls, 1 + sum(map(ord, ent["file"]))))
    pie = ["-no-pie"] if "nopie" in ent["opts"] else []
    must(["gcc", "-O1"] + pie + ["-o", "driver", "driver.c"] + objs, "link", tmp)
    r = run(["./driver"] + (["speed"] if speed else []), tmp)
    text = (r.stdout + r.stderr).strip() or f"the driver exited with status {r.returncode}"
    if r.returncode == 0 and speed:
        return "ok", "\n    ".join(l for l in text.splitlines() if l.startswith("speed")) or text
    return ("ok" if r.returncode == 0 else "fail"), text.splitlines()[-1] if r.returncode == 0 else text


def main(argv: list[str]) -> int:
    corpus = os.path.join(ROOT, "..", "shared", "qhasm-corpus")
    if not os.path.isdir(corpus):
        corpus = "/work/shared/qhasm-corpus"
    qhasm = os.path.join(ROOT, "build", "qhasm")
    calls, pattern, model, speed = 200, "", [], False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--speed":
            speed = True
            i += 1
            continue
        if a == "--model" and i + 1 < len(argv):
            model = ["-u", argv[i + 1]]
            i += 2
            continue
        if a in ("--corpus", "--qhasm", "--calls") and i + 1 < len(argv):
            v = argv[i + 1]
            corpus, qhasm, calls = (v, qhasm, calls) if a == "--corpus" else (corpus, v, calls) if a == "--qhasm" else (corpus, qhasm, int(v))
            i += 2
            continue
        pattern = a
        i += 1
    if not os.path.isdir(corpus):
        print(f"skipped: the qhasm corpus is absent ({corpus})")
        return 77
    for tool in ("nasm", "gcc", "objcopy", "nm", "cpp"):
        if not shutil.which(tool):
            print(f"skipped: {tool} is not installed")
            return 77
    corpus = os.path.abspath(corpus)
    ents = [e for e in parse_conf(os.path.join(HERE, "corpus.conf")) if pattern in e["file"]]
    count = {"ok": 0, "fail": 0, "untranslated": 0, "skipped": 0}
    notes = []
    for e in ents:
        tmp = tempfile.mkdtemp(prefix="qhasm-corpus-")
        try:
            st, msg = test_file(qhasm, corpus, e, calls, tmp, model, speed)
        except (RuntimeError, subprocess.TimeoutExpired) as x:
            st, msg = "fail", str(x)
        if os.environ.get("CORPUS_KEEP"):
            msg += f" (files in {tmp})"
        else:
            shutil.rmtree(tmp, ignore_errors=True)
        count[st] += 1
        line = f"{st:12} {e['file']}: {msg}"
        print(line)
        if st == "untranslated":
            m = re.match(r"^[^:]*?([^/:]+?)(\.rec)?\.q:(\d+):\d+: error: (.*)$", msg)
            notes.append(f"{m.group(1)} line {m.group(3)}: {m.group(4)}" if m else e["file"])
    print(f"corpus{' (' + ' '.join(model) + ')' if model else ''}: {count['ok']} of {len(ents)} files translate and agree with the shipped assembly; "
          f"{count['untranslated']} do not translate, {count['fail']} failed, {count['skipped']} skipped"
          + (f"; not translated: {'; '.join(notes)}" if notes else ""))
    return 1 if count["fail"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
