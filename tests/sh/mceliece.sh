#!/bin/sh
# Classic McEliece kernels (issue 16, docs/mceliece.md): build the
# standalone checker csrc/test_mceliece.c with every generated
# out/<target>*/mceliece_* file, natively for amd64 and with the cross
# compilers for x86, ppc32, ppc64 and sparc64 (linked -static, run under
# qemu-ppc -cpu 7400 / qemu-ppc64 / qemu-sparc64), and run it: every
# implementation against the reference C.  A missing toolchain is a
# failure, never a skip; an implementation whose CPU extension is missing
# is reported as skipped by the checker (and listed here).
#
# MCELIECE_TARGETS="amd64 x86" limits the targets (default: all five).
set -u
BUILD=${BUILD:-build}
TARGETS=${MCELIECE_TARGETS:-amd64 x86 ppc32 ppc64 sparc64}
out="$BUILD/mceliece-test"
mkdir -p "$out"
status=0
SRC="csrc/test_mceliece.c csrc/mceliece.c csrc/ref/mceliece_ref.c csrc/cpu.c"
X86_INC=""
[ -e /usr/include/asm/errno.h ] || [ ! -e /usr/include/x86_64-linux-gnu/asm/errno.h ] || \
  X86_INC="-idirafter /usr/include/x86_64-linux-gnu"

for t in $TARGETS; do
  case $t in
    amd64)   cc="gcc"; cflags=""; as="nasm -f elf64"; ext=asm; run="" ;;
    x86)     cc="gcc -m32"; cflags="$X86_INC"; as="nasm -f elf32"; ext=asm; run="" ;;
    ppc32)   cc="powerpc-linux-gnu-gcc"; cflags="-static"; as="powerpc-linux-gnu-as -a32 -many"; ext=s; run="qemu-ppc -cpu 7400" ;;
    ppc64)   cc="powerpc64-linux-gnu-gcc"; cflags="-static"; as="powerpc64-linux-gnu-as -a64 -many"; ext=s; run="qemu-ppc64" ;;
    sparc64) cc="sparc64-linux-gnu-gcc"; cflags="-static"; as="sparc64-linux-gnu-as -64 -Av9b"; ext=s; run="qemu-sparc64" ;;
    *) echo "mceliece.sh: unknown target $t"; status=1; continue ;;
  esac
  for tool in ${cc%% *} ${as%% *} ${run%% *}; do
    command -v "$tool" >/dev/null 2>&1 || { echo "mceliece.sh: FAIL: $t: $tool not found"; status=1; continue 2; }
  done
  up=$(echo "$t" | tr 'a-z-' 'A-Z_')
  defs="-DQHASM_HAVE_$up"
  objs=""
  dirs=""
  mkdir -p "$out/$t"
  for f in out/"$t"/mceliece*."$ext" out/"$t"-*/mceliece*."$ext"; do
    [ -e "$f" ] || continue
    d=$(basename "$(dirname "$f")")
    case " $dirs " in *" $d "*) ;; *) dirs="$dirs $d"; defs="$defs -DQHASM_HAVE_OUT_$(echo "$d" | tr 'a-z-' 'A-Z_')" ;; esac
    o="$out/$t/$d-$(basename "$f" ."$ext").o"
    # shellcheck disable=SC2086
    $as -o "$o" "$f" || { echo "mceliece.sh: FAIL: $t: cannot assemble $f"; status=1; continue 2; }
    objs="$objs $o"
  done
  # shellcheck disable=SC2086
  $cc -O2 -std=c11 -Wall -Wextra -Werror $cflags -Icsrc/include -Icsrc $defs -o "$out/$t/test_mceliece" \
    $SRC $objs -Wl,-z,noexecstack || { echo "mceliece.sh: FAIL: $t: build failed"; status=1; continue; }
  # shellcheck disable=SC2086
  $run "$out/$t/test_mceliece" > "$out/$t/log" 2>&1
  rc=$?
  sed "s/^/$t: /" "$out/$t/log"
  last=$(tail -n 1 "$out/$t/log")
  if [ $rc -ne 0 ] || ! echo "$last" | grep -Eq '^[1-9][0-9]* passed, 0 failed, [0-9]+ skipped$'; then
    echo "mceliece.sh: FAIL: $t"
    status=1
  fi
  # every folder with McEliece kernels (the per-model variants included) was exercised
  for d in $dirs; do
    case $d in *-zen4|*-skylake|*-haswell|*-goldencove|*-zen2|*-core2) continue ;; esac
    grep -q "^mceliece $d " "$out/$t/log" || { echo "mceliece.sh: FAIL: $t: $d not tested"; status=1; }
  done
done
[ $status -eq 0 ] && echo "mceliece.sh: ok ($TARGETS)"
exit $status
