"""The Benchmark table of issue 19 from qhasm-speed's `bound` lines:

    QHASM_UARCH=zen3 build/qhasm-speed -p ... -m 4096 | python3 -m gen.boundtable

(several runs concatenated: each row takes its fastest measurement)
For each operation and implementation (the `selected` rows and aliases of
identical code left out): the measured ticks and core cycles per byte, the
core cycles per tick, the cost report's bound and which part binds, their
ratio, and the rank of the implementation among the operation's by the
bound (predicted) and by the measurement.  Markdown on standard output,
then one line per operation saying whether the rankings agree.
"""
import re
import sys

LINE = re.compile(r"^(\S+) (\d+) bound (\S+) ([\d.]+) cycles/byte \(cost report: ([^;)]+)(?:; (\d+(?:\.\d+)?) cycles per call)?\) "
                  r"measured ([\d.]+) ticks/byte at (\d+) bytes = ([\d.]+) cycles/byte \(([\d.]+) cycles per tick\) "
                  r"ratio ([\d.]+)")
IMPL = re.compile(r"^(\S+) (\d+) implementation (\S+) ")


def main() -> int:
    names: dict[tuple[str, str], str] = {}
    rows: list[dict] = []
    for line in sys.stdin:
        m = IMPL.match(line)
        if m:
            names[(m.group(1), m.group(2))] = m.group(3)
            continue
        m = LINE.match(line)
        if not m:
            continue
        op, idx = m.group(1), m.group(2)
        prim = next((p for (p, i) in names if i == idx and re.search(rf"(^|_){re.escape(p)}(_|$)", op)), "")
        rows.append({"op": op, "impl": names.get((prim, idx), idx), "bound": float(m.group(4)),
                     "binds": m.group(5).removesuffix(" binds") + (f" ({m.group(6)} cycles per call)" if m.group(6) else ""),
                     "ticks": float(m.group(7)), "len": int(m.group(8)), "cyc": float(m.group(9)),
                     "cpt": float(m.group(10)), "ratio": float(m.group(11))})
    # several runs concatenated: the fastest measurement of each
    best: dict[tuple[str, str], dict] = {}
    for r in rows:
        k = (r["op"], r["impl"])
        if k not in best or r["cyc"] < best[k]["cyc"]:
            best[k] = r
    rows = list(best.values())
    ops = list(dict.fromkeys(r["op"] for r in rows))
    print("| operation | implementation | bytes | ticks/byte | cycles/tick | cycles/byte | bound (cycles/byte) | binds |"
          " ratio | rank: bound | rank: measured |")
    print("|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|")
    agree = []
    for op in ops:
        rs = [r for r in rows if r["op"] == op]
        for r in rs:
            rb = 1 + sum(1 for x in rs if x["bound"] < r["bound"] - 1e-9)   # equal bounds share a rank
            rm = 1 + sum(1 for x in rs if x["cyc"] < r["cyc"])
            print(f"| {op} | {r['impl']} | {r['len']} | {r['ticks']:.3f} | {r['cpt']:.3f} | {r['cyc']:.3f} | "
                  f"{r['bound']:.3f} | {r['binds']} | {r['ratio']:.2f} | {rb} | {rm} |")
        # equal bounds rank together: the ranking agrees when the measured
        # order never contradicts a strict difference of the bounds
        ok = all(not (a["bound"] < b["bound"] - 1e-9 and a["cyc"] > b["cyc"]) for a in rs for b in rs)
        agree.append((op, len(rs), ok))
    print()
    for op, n, ok in agree:
        print(f"- {op}: {n} implementation{'s' if n > 1 else ''}, predicted ranking {'matches' if ok else 'differs from'} the measured one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
