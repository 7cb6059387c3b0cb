#!/bin/sh
# qhasm-speed: the line format (every line parses; 1+N numbers per timing
# line; deltas sum close to zero around the IQM; code sizes positive; a
# selected line per primitive and operation), forcing each implementation
# with -i, the counter fallback (QHASM_CPUCYCLES=test-broken/-stuck/-absent),
# the emulation notice, --table (Markdown) and --plot (a valid SVG).
set -u
BUILD=${BUILD:-build}
PYTHON=${PYTHON:-python3}
SPEED="$BUILD/qhasm-speed"
[ -x "$SPEED" ] || { echo "speed.sh: $SPEED not built"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "speed.sh: FAIL: $*"; exit 1; }

"$SPEED" -n 8 -m 100 > "$tmp/out" 2> "$tmp/err" || { cat "$tmp/err"; fail "qhasm-speed -n 8 -m 100 exited $?"; }
[ -s "$tmp/err" ] && { cat "$tmp/err"; fail "output on stderr"; }

"$PYTHON" - "$tmp/out" 8 <<'PY' || fail "format check"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
n = int(sys.argv[2])
timing = re.compile(r"^(\w+) (selected|\d+) (\d+) (\d+) ((?:[+-]\d+){%d})$" % n)
impl = re.compile(r"^(\w+) (selected|selected lengths \d+-\d*|\d+) implementation ([\w-]+) bytes (\d+) compiler (\S+)$")
skipped = re.compile(r"^(\w+) (\d+) skipped (\S.*)$")
# the kem family: the kernels its selected implementation calls (param uses=)
uses = re.compile(r"^(kem_\w+) selected implementation ([\w-]+) uses( \w+ [\w-]+)+$")
other = re.compile(r"^(qhasm-speed (version|arch|cpu|cpuid|bounds)( .*)?|cpucycles selected (persecond \d+|implementation [\w-]+)|cpucycles fallback [\w-]+ \S.*)$")
bound = re.compile(r"^(\w+) (selected|\d+) bound (\w+) (\d+\.\d+) cycles/byte \(cost report: (resource|recurrence|issue width|recurrence of the inner loops|critical path) binds(?:; (\d+(?:\.\d+)?) cycles per call)?\) measured (\d+\.\d+) ticks/byte at (\d+) bytes(?: = (\d+\.\d+) cycles/byte \((\d+\.\d+) cycles per tick\))? ratio (\d+\.\d+)(?: \(ticks per cycle unknown\))?$")
errors = []
nbound = [0]
sel_impl, sel_timing, ops, prims = set(), set(), set(), set()
for no, line in enumerate(lines, 1):
    m = timing.match(line)
    if m:
        iqm = int(m.group(4))
        deltas = [int(d) for d in re.findall(r"[+-]\d+", m.group(5))]
        if len(deltas) != n:
            errors.append(f"{no}: {len(deltas)} deltas")
        # deltas are timing - IQM: the middle half averages to the IQM
        mid = sorted(deltas)[n // 4: n - n // 4]
        if abs(sum(mid)) > len(mid):
            errors.append(f"{no}: middle deltas sum to {sum(mid)}, not ~0: {line}")
        if min(d + iqm for d in deltas) < 0:
            errors.append(f"{no}: negative timing: {line}")
        if m.group(2) == "selected":
            sel_timing.add(m.group(1))
        ops.add(m.group(1))
        continue
    m = impl.match(line)
    if m:
        if int(m.group(4)) <= 0:
            errors.append(f"{no}: code size not positive: {line}")
        prims.add(m.group(1))
        if m.group(2).startswith("selected"):
            sel_impl.add(m.group(1))
        continue
    m = bound.match(line)
    if m:
        # ratio = measured (in cycles when converted, else ticks) / bound
        meas = float(m.group(9)) if m.group(9) else float(m.group(7))
        if m.group(9) and abs(float(m.group(7)) * float(m.group(10)) - meas) > 0.01 * meas + 0.002:
            errors.append(f"{no}: ticks times cycles per tick is not the cycles: {line}")
        if float(m.group(4)) <= 0 or abs(meas / float(m.group(4)) - float(m.group(11))) > 0.01 * float(m.group(11)) + 0.01:
            errors.append(f"{no}: inconsistent bound line: {line}")
        # a fixed-size operation's bound is its per-call bound over the bytes measured
        if m.group(6) and abs(float(m.group(6)) / int(m.group(8)) - float(m.group(4))) > 0.01 * float(m.group(4)) + 0.002:
            errors.append(f"{no}: per-call bound over the bytes is not the bound: {line}")
        nbound[0] += 1
        continue
    if skipped.match(line) or other.match(line) or uses.match(line):
        continue
    errors.append(f"{no}: unparsed line: {line}")
if not lines or not lines[0].startswith("qhasm-speed version "):
    errors.append("first line is not the version line")
for want in ("cpucycles selected persecond", "cpucycles selected implementation", "cpucycles selected 0 "):
    if not any(l.startswith(want) for l in lines):
        errors.append(f"no '{want}' line")
sys.path.insert(0, ".")
from gen import manifest
if prims != {p.name for p in manifest.parse().prims} or sel_impl != prims:
    errors.append(f"implementation lines for {sorted(prims)}, selected for {sorted(sel_impl)}")
want_ops = {"core_salsa20", "core_hsalsa20", "stream_salsa20_xor", "onetimeauth_poly1305",
            "onetimeauth_poly1305_verify", "stream_salsa208_xor"}
if not want_ops <= ops or ops - {"cpucycles"} != sel_timing - {"cpucycles"}:
    errors.append(f"operations {sorted(ops)}; with selected timings {sorted(sel_timing)}")
lens = sorted({int(timing.match(l).group(3)) for l in lines if timing.match(l) and l.startswith("stream_salsa20_xor ")})
if lens != [0, 1, 2, 4, 7, 11, 17, 26, 40, 61, 92]:
    errors.append(f"lengths {lens}")
for e in errors[:20]:
    print(e)
sys.exit(1 if errors else 0)
PY

# every implementation can be forced with -i and is then timed by index
for impl in $("$SPEED" -n 4 -m 0 -p poly1305 -p salsa20 | sed -n 's/^[a-z0-9]* [0-9]* implementation \([a-z0-9-]*\) .*/\1/p' | sort -u); do
  "$SPEED" -n 4 -m 7 -i "$impl" -p stream_salsa20_xor -p onetimeauth_poly1305 > "$tmp/i" 2>&1 || fail "-i $impl exited $?"
  n=$(grep -Ec '^(stream_salsa20_xor|onetimeauth_poly1305) [0-9]+ (7 [0-9]+|skipped)' "$tmp/i")
  [ "$n" -ge 1 ] || { cat "$tmp/i"; fail "-i $impl: no timing or skipped line by index"; }
  grep -q '^core_' "$tmp/i" && fail "-p stream_salsa20_xor still timed core functions"
done
"$SPEED" -i nosuchimpl >/dev/null 2>&1 && fail "-i nosuchimpl accepted"
QHASM_CPU_DISABLE=all "$SPEED" -n 4 -m 0 -p salsa20 > "$tmp/d" 2>&1 || fail "QHASM_CPU_DISABLE=all exited $?"
if grep -q 'implementation amd64-' "$tmp/d"; then
  grep -q '^stream_salsa20_xor [0-9]* skipped missing ' "$tmp/d" || fail "no skipped line with QHASM_CPU_DISABLE=all"
fi

# counters that are unavailable or return garbage fall back with a clear line
for bad in test-broken test-stuck test-absent; do
  QHASM_CPUCYCLES=$bad "$SPEED" -n 4 -m 0 -p poly1305 > "$tmp/c" 2>&1 || fail "QHASM_CPUCYCLES=$bad exited $?"
  grep -q "^cpucycles fallback $bad " "$tmp/c" || { cat "$tmp/c"; fail "no fallback line for $bad"; }
  grep -qx 'cpucycles selected implementation default-monotonic' "$tmp/c" || fail "$bad: not default-monotonic"
done
QHASM_CPUCYCLES=default-monotonic "$SPEED" -n 4 -m 0 -p poly1305 | grep -qx 'cpucycles selected persecond 1000000000' \
  || fail "default-monotonic persecond"

# emulation notice
QHASM_EMULATED=1 "$SPEED" -n 4 -m 0 -p poly1305 | grep -q '^qhasm-speed emulated .*figures under emulation are not speeds$' \
  || fail "no emulation line with QHASM_EMULATED=1"
QHASM_EMULATED=0 "$SPEED" -n 4 -m 0 -p poly1305 | grep -q 'emulated' && fail "emulation line with QHASM_EMULATED=0"

# --table and --plot
"$SPEED" -n 8 -m 709 --table --plot "$tmp/s.svg" > "$tmp/t" 2> "$tmp/err" || { cat "$tmp/err"; fail "--table --plot exited $?"; }
"$PYTHON" - "$tmp/t" "$tmp/s.svg" <<'PY' || fail "--table/--plot check"
import re, sys
import xml.etree.ElementTree as ET
t = open(sys.argv[1]).read().splitlines()
errors = []
heads = [l for l in t if l.startswith("| bytes |")]
if not any(h == "| bytes | auth q1 | auth IQM | auth q3 | verify q1 | verify IQM | verify q3 |" for h in heads):
    errors.append("no Poly1305 table heading")
if not any(h == "| bytes | stream q1 | stream IQM | stream q3 |" for h in heads):
    errors.append("no Salsa20 table heading")
rows = [l for l in t if re.match(r"^\| \d+ \|", l)]
for r in rows:
    if not re.match(r"^\| \d+ \|( \d+\.\d\d \|){3}(( \d+\.\d\d \|){3})?$", r):   # the manifest's speed lengths
        errors.append(f"bad row: {r}")
if not any("(selected)" in l for l in t if l.startswith("## ")):
    errors.append("no (selected) table")
root = ET.parse(sys.argv[2]).getroot()
if root.tag != "{http://www.w3.org/2000/svg}svg":
    errors.append(f"root element {root.tag}")
if len(root.findall(".//{http://www.w3.org/2000/svg}polyline")) < 4:
    errors.append("fewer than 4 lines in the plot")
for e in errors[:20]:
    print(e)
sys.exit(1 if errors else 0)
PY
"$SPEED" --help | grep -q '^usage: qhasm-speed' || fail "--help"
echo "format, -i, counter fallback, emulation, --table, --plot: ok"
exit 0
