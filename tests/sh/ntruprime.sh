#!/bin/sh
# Build and run csrc/test_ntruprime.c (every Streamlined NTRU Prime
# implementation against the reference C) natively and, where the cross
# compilers exist, for x86, ppc32 (qemu-ppc -cpu 7400), ppc64 and sparc64.
#   tests/sh/ntruprime.sh [native|x86|ppc32|ppc64|sparc64 ...] [-- test args]
# A target whose compiler or emulator is missing is reported as SKIPPED.
set -u
cd "$(dirname "$0")/../.."
B=${BUILD:-build}/ntruprime
mkdir -p "$B"
targets=""
while [ $# -gt 0 ]; do
    case "$1" in --) shift; break;; *) targets="$targets $1"; shift;; esac
done
[ -n "$targets" ] || targets="native x86 ppc32 ppc64 sparc64"
# the test suite runs this without arguments: 30 random rounds per kernel
# (the structured cases are always all run)
[ $# -gt 0 ] || set -- -n 30
SRC="csrc/ntruprime.c csrc/cpu.c csrc/cpucycles.c csrc/ref/ntruprime_ref.c csrc/test_ntruprime.c"
status=0

# defs OUTPREFIX: -DQHASM_HAVE_OUT_<FOLDER> for each folder with ntruprime kernels
defs() {
    for f in out/$1/ntruprime_* out/$1-*/ntruprime_*; do
        [ -e "$f" ] || continue
        d=$(basename "$(dirname "$f")")
        echo "-DQHASM_HAVE_OUT_$(echo "$d" | tr 'a-z-' 'A-Z_')"
    done | sort -u | tr '\n' ' '
}

build_run() { # name cc cflags have asmext as run...
    name=$1 cc=$2 cflags=$3 have=$4 ext=$5 as=$6 run=$7 tprefix=$8
    shift 8
    if ! command -v $(echo "$cc" | cut -d' ' -f1) >/dev/null 2>&1; then
        echo "SKIPPED $name: no compiler $cc"; return 0
    fi
    if [ -n "$run" ] && ! command -v $(echo "$run" | cut -d' ' -f1) >/dev/null 2>&1; then
        echo "SKIPPED $name: no emulator $run"; return 0
    fi
    if [ -z "$(defs "$tprefix")" ]; then
        echo "SKIPPED $name: no NTRU Prime kernels generated for this target"; return 0
    fi
    objs=""
    for f in out/$tprefix/ntruprime_*.$ext out/$tprefix-*/ntruprime_*.$ext; do
        [ -e "$f" ] || continue
        o="$B/$name/$(basename "$(dirname "$f")")_$(basename "$f").o"
        mkdir -p "$B/$name"
        if [ "$ext" = asm ]; then $as -o "$o" "$f" || return 1
        else $as -o "$o" "$f" || return 1; fi
        objs="$objs $o"
    done
    mkdir -p "$B/$name"
    # shellcheck disable=SC2086
    $cc ${NTRU_OPT:--O2} -std=c11 -Wall -Wextra -Icsrc/include -Icsrc $cflags -D$have $(defs "$tprefix") \
        -o "$B/$name/test_ntruprime" $SRC $objs || { echo "FAIL $name: build"; return 1; }
    echo "== $name"
    $run "$B/$name/test_ntruprime" "$@" || { echo "FAIL $name"; return 1; }
}

for t in $targets; do
    case $t in
    native)  build_run native "${CC:-cc}" "" QHASM_HAVE_AMD64 asm "nasm -f elf64" "" amd64 "$@" || status=1;;
    x86)     build_run x86 "gcc -m32" "-no-pie -idirafter /usr/include/x86_64-linux-gnu" QHASM_HAVE_X86 asm "nasm -f elf32" "" x86 "$@" || status=1;;
    ppc32)   build_run ppc32 powerpc-linux-gnu-gcc -static QHASM_HAVE_PPC32 s "powerpc-linux-gnu-as -a32 -many" "qemu-ppc -cpu 7400" ppc32 "$@" || status=1;;
    ppc64)   build_run ppc64 powerpc64-linux-gnu-gcc -static QHASM_HAVE_PPC64 s "powerpc64-linux-gnu-as -a64 -many" qemu-ppc64 ppc64 "$@" || status=1;;
    sparc64) build_run sparc64 sparc64-linux-gnu-gcc -static QHASM_HAVE_SPARC64 s "sparc64-linux-gnu-as -64 -Av9b" qemu-sparc64 sparc64 "$@" || status=1;;
    *) echo "unknown target $t"; status=2;;
    esac
done
exit $status
