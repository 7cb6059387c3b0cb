"""Draw qhasm-speed results as SVG: cycles per byte against message length.

    python3 -m gen.plot [--title TEXT] [-o OUT.svg] DATA.tsv

DATA is what `qhasm-speed --plot` writes: a tab-separated line per
measurement, `op impl selected bytes q1 iqm q3` (lines starting with # are
comments).  One panel per operation, both axes logarithmic, one line per
implementation (the interquartile mean; a faint band from q1 to q3), the
selected implementation drawn thicker.  Standard library only.
"""
from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
          "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
WIDTH = 860
PANEL_H = 330
LEFT, RIGHT, TOP, BOTTOM = 70, 210, 40, 45


@dataclass
class Series:
    impl: str
    selected: bool
    points: list[tuple[int, float, float, float]] = field(default_factory=list)  # bytes, q1, iqm, q3 per byte


def read(path: str) -> dict[str, dict[str, Series]]:
    data: dict[str, dict[str, Series]] = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 7:
                raise ValueError(f"{path}:{n}: expected 7 tab-separated fields")
            op, impl, sel = parts[0], parts[1], parts[2] == "1"
            nbytes, q1, iqm, q3 = (int(x) for x in parts[3:])
            if nbytes <= 0:
                continue
            s = data.setdefault(op, {}).setdefault(impl, Series(impl, sel))
            s.points.append((nbytes, q1 / nbytes, iqm / nbytes, q3 / nbytes))
    for series in data.values():
        for s in series.values():
            s.points.sort()
    return data


def log_ticks(lo: float, hi: float, steps: tuple[int, ...]) -> list[float]:
    ticks = []
    e = math.floor(math.log10(lo))
    while 10.0 ** e <= hi * 1.0001:
        for m in steps:
            v = m * 10.0 ** e
            if lo * 0.9999 <= v <= hi * 1.0001:
                ticks.append(v)
        e += 1
    return ticks


def fmt(v: float) -> str:
    if v >= 1:
        return f"{v:g}"
    return f"{v:.3g}"


def panel(op: str, series: dict[str, Series], y0: float, colors: dict[str, str]) -> list[str]:
    out: list[str] = []
    pts = [p for s in series.values() for p in s.points]
    if not pts:
        return out
    xlo, xhi = min(p[0] for p in pts), max(p[0] for p in pts)
    ylo = max(min(min(p[1], p[2]) for p in pts), 1e-3)
    yhi = max(max(p[2], p[3]) for p in pts)
    # x: the measured range, padded by 3% (in log space); y: whole decades
    xhi = max(xhi, xlo * 10)
    pad = (math.log10(xhi) - math.log10(xlo)) * 0.03
    xlo, xhi = 10.0 ** (math.log10(xlo) - pad), 10.0 ** (math.log10(xhi) + pad)
    ylo, yhi = 10.0 ** math.floor(math.log10(ylo)), 10.0 ** math.ceil(math.log10(max(yhi, ylo * 10)))
    xminor = math.log10(xhi / xlo) <= 3.5
    yminor = math.log10(yhi / ylo) <= 3.5
    pw, ph = WIDTH - LEFT - RIGHT, PANEL_H - TOP - BOTTOM

    def X(v: float) -> float:
        return LEFT + pw * (math.log10(v) - math.log10(xlo)) / (math.log10(xhi) - math.log10(xlo))

    def Y(v: float) -> float:
        v = max(v, ylo)
        return y0 + TOP + ph * (1 - (math.log10(v) - math.log10(ylo)) / (math.log10(yhi) - math.log10(ylo)))

    out.append(f'<text x="{LEFT}" y="{y0 + TOP - 12}" font-size="15" font-weight="bold">'
               f'{escape(op)}</text>')
    out.append(f'<rect x="{LEFT}" y="{y0 + TOP}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>')
    for v in log_ticks(xlo, xhi, (1, 2, 5)):
        x = X(v)
        major = abs(math.log10(v) - round(math.log10(v))) < 1e-9
        out.append(f'<line x1="{x:.1f}" y1="{y0 + TOP}" x2="{x:.1f}" y2="{y0 + TOP + ph}" '
                   f'stroke="{"#ccc" if major else "#eee"}"/>')
        if major or xminor:
            out.append(f'<text x="{x:.1f}" y="{y0 + TOP + ph + 16}" font-size="11" '
                       f'text-anchor="middle">{fmt(v)}</text>')
    for v in log_ticks(ylo, yhi, (1, 2, 5)):
        y = Y(v)
        major = abs(math.log10(v) - round(math.log10(v))) < 1e-9
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + pw}" y2="{y:.1f}" '
                   f'stroke="{"#ccc" if major else "#eee"}"/>')
        if major or yminor:
            out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" font-size="11" text-anchor="end">{fmt(v)}</text>')
    out.append(f'<text x="{LEFT + pw / 2}" y="{y0 + PANEL_H - 8}" font-size="12" '
               f'text-anchor="middle">message bytes</text>')
    out.append(f'<text x="16" y="{y0 + TOP + ph / 2}" font-size="12" text-anchor="middle" '
               f'transform="rotate(-90 16 {y0 + TOP + ph / 2})">cycles per byte</text>')
    ly = y0 + TOP + 10
    for s in series.values():
        c = colors[s.impl]
        if len(s.points) > 1:
            band = [(X(p[0]), Y(p[3])) for p in s.points] + [(X(p[0]), Y(p[1])) for p in reversed(s.points)]
            out.append(f'<polygon points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in band)}" '
                       f'fill="{c}" fill-opacity="0.12" stroke="none"/>')
        line = " ".join(f"{X(p[0]):.1f},{Y(p[2]):.1f}" for p in s.points)
        out.append(f'<polyline points="{line}" fill="none" stroke="{c}" '
                   f'stroke-width="{3 if s.selected else 1.5}"/>')
        for p in s.points:
            out.append(f'<circle cx="{X(p[0]):.1f}" cy="{Y(p[2]):.1f}" r="2.2" fill="{c}">'
                       f'<title>{escape(s.impl)} {p[0]} bytes: {p[2]:.3f} cycles/byte</title></circle>')
        label = s.impl + (" (selected)" if s.selected else "")
        out.append(f'<line x1="{LEFT + pw + 12}" y1="{ly}" x2="{LEFT + pw + 36}" y2="{ly}" stroke="{c}" '
                   f'stroke-width="{3 if s.selected else 1.5}"/>')
        out.append(f'<text x="{LEFT + pw + 42}" y="{ly + 4}" font-size="12">{escape(label)}</text>')
        ly += 18
    return out


def render(data: dict[str, dict[str, Series]], title: str) -> str:
    impls: list[str] = []
    for series in data.values():
        for name in series:
            if name not in impls:
                impls.append(name)
    colors = {name: COLORS[i % len(COLORS)] for i, name in enumerate(impls)}
    height = 40 + PANEL_H * max(len(data), 1)
    body: list[str] = [
        f'<text x="{WIDTH / 2}" y="24" font-size="14" text-anchor="middle">{escape(title)}</text>']
    if not data:
        body.append(f'<text x="{WIDTH / 2}" y="80" font-size="13" text-anchor="middle">no data</text>')
    for k, (op, series) in enumerate(data.items()):
        body.extend(panel(op, series, 40 + k * PANEL_H, colors))
    return "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif">',
        f'<title>{escape(title)}</title>',
        f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
        *body,
        "</svg>",
        "",
    ])


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m gen.plot", description=__doc__.splitlines()[0])
    ap.add_argument("data", help="tab-separated measurements from qhasm-speed --plot")
    ap.add_argument("-o", "--output", default="-", help="SVG file (default: standard output)")
    ap.add_argument("--title", default="qhasm-speed", help="title line")
    args = ap.parse_args(argv)
    try:
        svg = render(read(args.data), args.title)
    except (OSError, ValueError) as e:
        print(f"gen.plot: {e}", file=sys.stderr)
        return 1
    if args.output == "-":
        sys.stdout.write(svg)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(svg)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
