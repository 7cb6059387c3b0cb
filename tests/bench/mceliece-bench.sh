#!/bin/sh
# Not a test: `sh tests/bench/mceliece-bench.sh [bench args]` builds
# csrc/bench_mceliece.c with the amd64 McEliece kernels (and the reference
# C, gcc -O3 -march=native) and prints ticks per call in the method of
# ../shared/peers-wave2 (docs/mceliece.md, "Speed").
set -u
BUILD=${BUILD:-build}
out="$BUILD/mceliece-bench"
mkdir -p "$out"
objs=""
defs="-DQHASM_HAVE_AMD64"
for d in out/amd64 out/amd64-avx2 out/amd64-avx512; do
  defs="$defs -DQHASM_HAVE_OUT_$(basename $d | tr 'a-z-' 'A-Z_')"
  for f in $d/mceliece*.asm; do
    o="$out/$(basename $d)-$(basename "$f" .asm).o"
    nasm -f elf64 -o "$o" "$f" || exit 1
    objs="$objs $o"
  done
done
# shellcheck disable=SC2086
gcc -O3 -march=native -mtune=native -std=c11 -Icsrc/include -Icsrc $defs -o "$out/bench_mceliece" \
  csrc/bench_mceliece.c csrc/mceliece.c csrc/ref/mceliece_ref.c csrc/cpu.c $objs -Wl,-z,noexecstack || exit 1
exec "$out/bench_mceliece" "$@"
