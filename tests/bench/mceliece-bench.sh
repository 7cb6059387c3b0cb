#!/bin/sh
# Not a test: `sh tests/bench/mceliece-bench.sh [-r ROUNDS] [-p PREFIX] [--ref]`
# builds csrc/bench_mceliece.c against the library (make first) and prints
# TSC ticks per call of every McEliece primitive and implementation, in the
# method of ../shared/peers-wave2 (docs/mceliece.md, "Speed").
set -u
BUILD=${BUILD:-build}
[ -e "$BUILD/libqhasm.a" ] || { echo "mceliece-bench.sh: $BUILD/libqhasm.a missing (make)"; exit 1; }
gcc -O2 -std=c11 -Icsrc/include -Icsrc -o "$BUILD/bench_mceliece" csrc/bench_mceliece.c "$BUILD/libqhasm.a" \
  -Wl,-z,noexecstack || exit 1
exec "$BUILD/bench_mceliece" "$@"
