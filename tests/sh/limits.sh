#!/bin/sh
# The translator on pathological input: every case must end, within its
# time and address-space limits (timeout, RLIMIT_AS), either successfully
# or with a clean FILE:LINE:COL: error (exit 1, no output file) -- never a
# crash, an abort ("internal error"), a hang or runaway memory.
# LIMITS_FULL=1 adds the slow cases (10^5 simultaneously live variables).
exec "${PYTHON:-python3}" - "${QHASM:-${BUILD:-build}/qhasm}" <<'PY'
import os, re, resource, subprocess, sys, tempfile, time

qhasm = sys.argv[1]
if not os.access(qhasm, os.X_OK):
    print(f"limits.sh: FAIL: {qhasm} not built"); sys.exit(1)
full = os.environ.get("LIMITS_FULL") == "1"
H = "int64 a b\nenter f\ninput a b\n"
T = "output a\nleave\n"

def decls(names, per=1000):
    return "".join("int64 " + " ".join(names[i:i + per]) + "\n" for i in range(0, len(names), per))

def live(n):
    v = [f"v{i}" for i in range(n)]
    return decls(v) + H + "".join(f"{x} = a\n" for x in v) + "".join(f"a += {x}\n" for x in v) + T

# (name, source, expect, seconds, MB): expect 'error' (must be a clean
# error), 'ok' (must succeed) or 'any' (either, cleanly)
cases = [
    ("long comment line (100 KB)", H + "# " + "x" * 100000 + "\na += b\n" + T, "error", 20, 1024),
    ("long identifier (100 KB)", "int64 " + "v" * 100000 + "\n" + H + T, "error", 20, 1024),
    ("long statement line (120 KB)", H + "a = " + " + ".join(["b"] * 30000) + "\n" + T, "error", 20, 1024),
    ("line of 100000 tokens", H + "a = " + " ".join(["b"] * 100000) + "\n" + T, "error", 20, 1024),
    ("statement of 21800 tokens (< 64 KiB)", H + "a = " + " + ".join(["b"] * 10900) + "\n" + T, "error", 20, 1024),
    ("32000-deep parentheses", H + "a = " + "(" * 32000 + "b" + ")" * 32000 + "\n" + T, "error", 20, 1024),
    ("100000-deep parentheses", H + "a = " + "(" * 100000 + "b" + ")" * 100000 + "\n" + T, "error", 20, 1024),
    ("32000-deep brackets", H + "a = mem64[" + "[" * 32000 + "b" + "]" * 32000 + "]\n" + T, "error", 20, 1024),
    ("address of 16000 terms", H + "a = mem64[b" + " + b" * 16000 + "]\n" + T, "error", 20, 1024),
    ("decimal constant > 2^64", H + "a = 123456789012345678901234567890\n" + T, "error", 20, 1024),
    ("hex constant of 65 bits", H + "a = 0x1ffffffffffffffff\n" + T, "error", 20, 1024),
    ("constant of 60000 digits", H + "a = " + "9" * 60000 + "\n" + T, "error", 20, 1024),
    ("2^64-1 in decimal and hex", H + "a = 18446744073709551615\nb = 0xffffffffffffffff\na += b\n" + T, "ok", 20, 1024),
    ("offset > 2^64", H + "a = mem64[b + 99999999999999999999999]\n" + T, "error", 20, 1024),
    ("const table value > 2^64", "const c u64 " + "1" * 30 + "\n" + H + T, "error", 20, 1024),
    ("stack array of 10^14 elements", "stack64 big[100000000000000]\n" + H + T, "error", 20, 1024),
    ("10^6 variables declared", decls([f"v{i}" for i in range(999998)]) + H + "a += b\n" + T, "any", 60, 2048),
    ("10^6 + 2 variables declared", decls([f"v{i}" for i in range(1000000)]) + H + "a += b\n" + T, "any", 60, 2048),
    ("10^6 variables on one line", "int64 " + " ".join(f"v{i}" for i in range(1000000)) + "\n" + H + T, "error", 20, 2048),
    ("10^6 statements", H + "a += b\n" * 1000000 + T, "any", 60, 2048),
    ("3000 simultaneously live variables (spills)", live(3000), "ok", 60, 2048),
    ("10000 labels and branches", H + "".join(f"l{i}:\n=? a -= 1\ngoto l{i} if !=\n" for i in range(10000)) + T, "any", 60, 2048),
    ("NUL byte", H + "a += b\0junk\n" + T, "error", 20, 1024),
    ("no final newline", H + "a += b\n" + T.rstrip("\n"), "ok", 20, 1024),
    ("CR line endings only", (H + "a += b\n" + T).replace("\n", "\r"), "any", 20, 1024),
    ("10^5 empty lines then an error", "\n" * 100000 + "bogus!\n", "error", 20, 1024),
]
if full:
    cases += [("10^5 simultaneously live variables", live(100000), "any", 600, 4096),
              ("10^5 labels and branches", H + "".join(f"l{i}:\n=? a -= 1\ngoto l{i} if !=\n" for i in range(100000)) + T, "any", 600, 4096)]

bad = 0
errline = re.compile(r"^[^:\n]+:\d+:\d+: error: ")
with tempfile.TemporaryDirectory() as tmp:
    for name, src, expect, secs, mb in cases:
        path = os.path.join(tmp, "limits.q")
        out = os.path.join(tmp, "limits.s")
        with open(path, "w", newline="") as f:
            f.write(src)
        lim = mb * 1024 * 1024
        t0 = time.time()
        try:
            p = subprocess.run([qhasm, path, "-o", out], capture_output=True, timeout=secs,
                               preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (lim, lim)))
            rc, err = p.returncode, p.stderr.decode(errors="replace")
        except subprocess.TimeoutExpired:
            rc, err = None, ""
        dt = time.time() - t0
        first = err.splitlines()[0][:160] if err else ""
        exists = os.path.exists(out)
        if exists:
            os.unlink(out)
        verdict = None
        if rc is None:
            verdict = f"no answer within {secs} s"
        elif rc == 0 and expect == "error":
            verdict = "accepted, expected an error"
        elif rc == 1 and expect == "ok":
            verdict = f"rejected, expected success: {first}"
        elif rc == 1 and not errline.match(first):
            verdict = f"exit 1 without FILE:LINE:COL: error: {first}"
        elif rc == 1 and exists:
            verdict = "an output file was left behind after an error"
        elif rc not in (0, 1):
            verdict = f"status {rc} (crash or abort): {first}"
        what = "ok" if rc == 0 else (first.split(": error: ", 1)[-1] if rc == 1 else "")
        if verdict:
            bad = 1
            print(f"limits.sh: FAIL {name}: {verdict} ({dt:.1f} s, limit {mb} MB)")
        else:
            print(f"limits.sh: ok   {name}: {what} ({dt:.1f} s)")
print(f"limits.sh: {len(cases)} cases{'' if full else ' (LIMITS_FULL=1 adds the slow ones)'}, {'FAIL' if bad else 'all clean'}")
sys.exit(bad)
PY
