#!/bin/sh
# The scheduler finds at least what any other model found on the same CPU
# (issue 19): for the model of the CPU at hand (csrc/cpu.c's detection, as
# qhasm-speed reports it), every measurable amd64 kernel with a `_blocks`
# loop (Salsa20/20, /12, /8: integer, SSE2, AVX2; Poly1305: integer, BMI2,
# AVX2) is translated scheduled for that model, for every other amd64 model
# and in source order; the distinct results are timed interleaved
# (tests/bench/schedcmp.c: 101 rounds at 4096 bytes, each the best of 25
# calls, the column order rotated every round) and the median over the
# rounds of time(this model's schedule) / time(other) must be at most
# TOL (1.02: twins of identical code measure 0.99-1.01 here; 2% is the
# noise this shared machine leaves on a median).  A kernel above it is
# measured again, twice, before it fails.  Kernels this CPU cannot run are
# SKIPPED loudly.  About 30 s; run by `make bench` (a timed check, so not in `make test`).  Exit 0 ok, 1 failure, 77 no model for
# this CPU.
set -u
BUILD=${BUILD:-build}
QHASM=${QHASM:-$BUILD/qhasm}
SPEED=${SPEED:-$BUILD/qhasm-speed}
CC=${CC:-cc}
TOL=${TOL:-1.02}
me=schedcmp.sh
[ -x "$QHASM" ] || { echo "$me: FAIL: $QHASM not built"; exit 1; }
[ -x "$SPEED" ] || { echo "$me: FAIL: $SPEED not built"; exit 1; }
command -v nasm > /dev/null || { echo "$me: FAIL: nasm missing"; exit 1; }
here=$(QHASM_UARCH=auto "$SPEED" -p poly1305 -m 0 2>/dev/null | sed -n 's/^qhasm-speed bounds model \([^:]*\):.*/\1/p')
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')
[ -n "$here" ] || { echo "$me: SKIPPED: no model describes this CPU ($cpu)"; exit 77; }
models=$(for f in qhasm/amd64/models/*.model; do awk 'NF == 3 && $1 == "model" { print $2; exit }' "$f"; done | sort)
flags=" $(grep -m1 '^flags' /proc/cpuinfo | sed 's/.*: //') "
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM HUP
fail=0
nk=0
# FILE KIND FEATURE (the CPU flag it needs, - none)
while read -r q kind feat; do
  case "$flags" in *" $feat "*) ;; *) [ "$feat" = - ] || { echo "$me: SKIPPED $q: this CPU lacks $feat"; continue; } ;; esac
  k=$(basename "$q" .q)
  d="$tmp/$k"; mkdir -p "$d"
  # column 0: this model's schedule; then every other model's and the
  # source order's, each only if it differs from all before it
  cols=""; i=0
  for m in "$here" $(echo "$models" | grep -vx "$here") none; do
    if [ "$m" = none ]; then u=""; else u="-u $m"; fi
    "$QHASM" -m amd64 $u --rename "qhasm_kernel_=c${i}_" -o "$d/c$i.asm" "$q" || { echo "$me: FAIL: $q -u $m does not translate"; fail=1; continue 2; }
    sed "s/c${i}_/C_/g" "$d/c$i.asm" > "$d/n$i"
    same=""
    for j in $cols; do cmp -s "$d/n$i" "$d/n${j%%:*}" && same=${j#*:}; done
    if [ -n "$same" ]; then
      [ $i = 0 ] || echo "$me: $k: $m's schedule is $same's"
      rm -f "$d/c$i.asm"; i=$((i + 1)); continue
    fi
    nasm -f elf64 -o "$d/c$i.o" "$d/c$i.asm" || { echo "$me: FAIL: nasm $d/c$i.asm"; fail=1; continue 2; }
    cols="$cols $i:$m"; i=$((i + 1))
  done
  if [ "$(echo $cols | wc -w)" = 1 ]; then
    echo "$me: $k: every model's schedule is $here's (nothing to measure)"; nk=$((nk + 1)); continue
  fi
  sym=$(sed -n 's/^enter qhasm_kernel_\(.*\)_blocks$/\1/p' "$q")
  {
    for c in $cols; do
      i=${c%%:*}
      if [ "$kind" = salsa ]; then echo "void c${i}_${sym}_blocks(void);"; else echo "void c${i}_${sym}_init(void); void c${i}_${sym}_blocks(void);"; fi
    done
    echo "static const struct col cols[] = {"
    for c in $cols; do
      i=${c%%:*}; m=${c#*:}
      if [ "$kind" = salsa ]; then echo "  { \"$m\", SALSA, c${i}_${sym}_blocks, 0 },"
      else echo "  { \"$m\", POLY, c${i}_${sym}_init, c${i}_${sym}_blocks },"; fi
    done
    echo "};"
  } > "$d/cols.h"
  $CC -O2 -I"$d" -o "$d/run" tests/bench/schedcmp.c "$d"/c*.o || { echo "$me: FAIL: building the driver for $k"; fail=1; continue; }
  for attempt in 1 2 3; do
    "$d/run" 4096 101 25 > "$d/out" || { cat "$d/out"; echo "$me: FAIL: $k: the driver failed"; fail=1; continue 2; }
    bad=$(awk -v tol="$TOL" 'NR > 1 && $3 > tol' "$d/out")
    [ -z "$bad" ] && break
    echo "$me: $k: attempt $attempt: $here slower than (ratio above $TOL, retrying):"; echo "$bad" | sed 's/^/    /'
  done
  sed "s/^/$me: $k: /" "$d/out"
  if [ -n "$bad" ]; then echo "$me: FAIL: $k: the $here schedule is slower than another model's on this CPU"; fail=1; fi
  nk=$((nk + 1))
done <<EOF2
specs/salsa20/generated/salsa20_amd64_r20.q salsa -
specs/salsa20/generated/salsa20_amd64_r12.q salsa -
specs/salsa20/generated/salsa20_amd64_r8.q salsa -
specs/salsa20/generated/salsa20_amd64_sse2_r20.q salsa sse2
specs/salsa20/generated/salsa20_amd64_sse2_r12.q salsa sse2
specs/salsa20/generated/salsa20_amd64_sse2_r8.q salsa sse2
specs/salsa20/generated/salsa20_amd64_avx2_r20.q salsa avx2
specs/salsa20/generated/salsa20_amd64_avx2_r12.q salsa avx2
specs/salsa20/generated/salsa20_amd64_avx2_r8.q salsa avx2
specs/salsa20/generated/salsa20_amd64_avx512_r20.q salsa avx512f
specs/poly1305/generated/poly1305_amd64.q poly -
specs/poly1305/generated/poly1305_amd64_bmi2.q poly bmi2
specs/poly1305/generated/poly1305_amd64_avx2.q poly avx2
specs/poly1305/generated/poly1305_amd64_avx512.q poly avx512ifma
EOF2
[ $fail = 0 ] || exit 1
echo "schedcmp: $nk kernels: the $here schedule within $TOL of every other model's on this CPU ($cpu)"
exit 0
