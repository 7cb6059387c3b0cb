#!/bin/sh
# Not a test: `sh tests/bench/mceliece-qemu-count.sh [TARGET...]` prints the
# instructions executed per call of the 64-lane vec_mul (ours, a bitsliced C
# and csrc/ref, the C at -O3) on x86, ppc32, ppc64, sparc64 under qemu:
# -singlestep -d exec,nochain makes one translation block per instruction,
# the Trace lines of 1 and 11 calls (1 and 2 for the slow ref) are
# subtracted.  Instructions, not cycles (docs/mceliece.md, "Speed").
set -u
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
count() { # runner... -- binary which n1 n2
    r=""; while [ "$1" != "--" ]; do r="$r $1"; shift; done; shift
    $r -singlestep -d exec,nochain -D "$d/log" "$1" "$2" "$3"; a=$(grep -c '^Trace' "$d/log")
    $r -singlestep -d exec,nochain -D "$d/log" "$1" "$2" "$4"; b=$(grep -c '^Trace' "$d/log")
    echo $(( (b - a) / ($4 - $3) ))
}
echo "| target | m | ours | bitsliced C | ref C | agree |"
echo "|---|---|---|---|---|---|"
for t in ${*:-x86 ppc32 ppc64 sparc64}; do
    for m in 12 13; do
        k=qhasm_kernel_mceliece_gf${m}_vec_mul_${t}_mul
        src="csrc/ref/mceliece_ref.c"
        case $t in
        x86) nasm -f elf32 -o "$d/k.o" out/x86/mceliece_gf${m}_vec_mul_x86.asm || exit 1
             cc="gcc -m32"; obj="$d/k.o"; run="qemu-i386" ;;
        ppc32) cc=powerpc-linux-gnu-gcc; obj=out/ppc32/mceliece_gf${m}_vec_mul_ppc32.s; run="qemu-ppc -cpu 7400" ;;
        ppc64) cc=powerpc64-linux-gnu-gcc; obj=out/ppc64/mceliece_gf${m}_vec_mul_ppc64.s; run="qemu-ppc64" ;;
        sparc64) cc=sparc64-linux-gnu-gcc; obj=out/sparc64/mceliece_gf${m}_vec_mul_sparc64.s; run="qemu-sparc64" ;;
        *) echo "unknown target $t"; exit 1 ;;
        esac
        $cc -O3 -static -DM=$m -DKERNEL=$k -Icsrc/include -Icsrc -o "$d/b" tests/bench/mceliece_count.c $src $obj || exit 1
        if $run "$d/b" 9 0; then ok=yes; else ok=NO; fi
        echo "| $t | $m | $(count $run -- "$d/b" 1 1 11) | $(count $run -- "$d/b" 3 1 11) | $(count $run -- "$d/b" 2 1 2) | $ok |"
    done
done
