#!/bin/sh
# Not a test: `sh tests/bench/syndrome-peers.sh [RUNS] [ROUNDS]` (make first)
# builds tests/bench/syndrome-peers.c against the library and against
# SUPERCOP's mceliece348864 / mceliece6960119 ref, vec and avx from a copy
# of ../shared/peers-wave2, compiled twice: as that bench compiles it
# (-O3 -march=native -mtune=native) and without AVX-512 (the same plus
# -mno-avx512f: SUPERCOP's code as an AVX2-only CPU runs it).  Then RUNS
# runs (default 10) of ROUNDS rounds (default 31) of each parameter set
# against each build, pinned alternately to CPU 0 and 1, and the medians
# over the runs.  PEERS (default ../shared/peers-wave2) and WORK (default
# $BUILD/syndrome-peers) override the paths.  docs/mceliece.md, "Session 11".
set -eu
BUILD=${BUILD:-build}
PEERS=${PEERS:-../shared/peers-wave2}
WORK=${WORK:-$BUILD/syndrome-peers}
RUNS=${1:-10}
ROUNDS=${2:-31}
me=syndrome-peers.sh
[ -e "$BUILD/libqhasm.a" ] || { echo "$me: $BUILD/libqhasm.a missing (make)"; exit 1; }
[ -d "$PEERS" ] || { echo "$me: $PEERS missing (set PEERS=)"; exit 1; }
OPT="-O3 -march=native -mtune=native"
mkdir -p "$WORK"
# the glue's other symbols, never called by the syndrome benchmark
printf '%s\n' '#include <stdlib.h>' 'void crypto_declassify(void *p, long n) { (void)p; (void)n; }' \
  'void crypto_sort_int16_x863(void) { abort(); }' 'void crypto_sort_int32_2026avx2(void) { abort(); }' \
  'void crypto_xof_bitwrite16_256x4x2(void) { abort(); }' 'void randombytes(void) { abort(); }' > "$WORK/stubs.c"
for b in native avx2only; do
  d="$WORK/peers-$b"
  [ -d "$d" ] || { cp -r "$PEERS" "$d"; chmod -R u+w "$d"; rm -rf "$d/build"; }
  x=""; [ $b = avx2only ] && x=" -mno-avx512f"
  libs=""
  for set in 348864 6960119; do
    for i in ref vec avx; do libs="$libs build/crypto_kem_mceliece${set}_$i/libcrypto_kem_mceliece${set}_$i.a"; done
  done
  echo "$me: building SUPERCOP's syndromes in $d with $OPT$x"
  make -C "$d" -s OPT="$OPT$x" $libs > "$d.log" 2>&1 || { tail -20 "$d.log"; exit 1; }
  for set in 348864 6960119; do
    L=""; for i in ref vec avx; do L="$L $d/build/crypto_kem_mceliece${set}_$i/libcrypto_kem_mceliece${set}_$i.a"; done
    D=""; [ $set = 6960119 ] && D=-DSET69
    gcc -O2 -march=native $D -Icsrc/include -o "$WORK/syn$set-$b" tests/bench/syndrome-peers.c "$WORK/stubs.c" \
      $L "$BUILD/libqhasm.a" -Wl,-z,noexecstack
  done
done
grep -m3 -E 'vendor_id|cpu family|^model\s' /proc/cpuinfo | tr -s '\t ' ' ' | paste -sd';' | sed "s/^/$me: CPU: /"
: > "$WORK/runs.txt"
i=0
while [ $i -lt "$RUNS" ]; do
  c=$((i % 2))
  for set in 6960119 348864; do
    for b in native avx2only; do
      taskset -c $c "$WORK/syn$set-$b" "$ROUNDS" "$b" | tee -a "$WORK/runs.txt"
    done
  done
  i=$((i + 1))
done
python3 - "$WORK/runs.txt" "$me" <<'PY'
import re, statistics, sys
runs: dict[tuple[str, str], dict[str, list[float]]] = {}
for line in open(sys.argv[1]):
    head, *parts = line.split(" | ")
    name, build = head.split()[:2]
    for p in parts:
        impl, med = p.split()[:2]
        runs.setdefault((name, build), {}).setdefault(impl, []).append(float(med))
for (name, build), d in sorted(runs.items()):
    for impl, v in d.items():
        target = 0.6 if "avx512" in impl else 0.9
        print(f"{sys.argv[2]}: {name} {impl} against SUPERCOP {build}: median of {len(v)} run medians "
              f"{statistics.median(v):.3f} ({min(v):.3f}-{max(v):.3f}), {sum(x <= target for x in v)} of {len(v)} "
              f"at most {target}")
PY
