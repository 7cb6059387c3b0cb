#!/usr/bin/env bash
# The cost report reproduces the classical analysis of the integer Salsa20
# double-round for our own kernels: RS64 IV 128 integer operations (each
# rotation counting as 2) on 2 units = at least 64 cycles; PowerPC 7410 96
# operations, at least 48 cycles; UltraSPARC II and III 160 instructions
# (3 per rotation), at least 80 cycles.
set -u
Q=${QHASM:-build/qhasm}
fail=0
check() { # target model file regex...
	local t=$1 m=$2 f=$3; shift 3
	local out
	out=$("$Q" -m "$t" --report -u "$m" "$f" 2>&1 | sed -n '/^loop doubleround/,/schedule estimate/p')
	for re in "$@"; do
		if ! grep -qE -- "$re" <<<"$out"; then
			echo "FAIL $t $m: no line matching '$re' in:"; echo "$out"; fail=1
		fi
	done
	echo "$t $m: $(grep 'resource bound' <<<"$out" | sed 's/^ *//')"
}
S=specs/salsa20/generated
check ppc64 rs64iv $S/salsa20_ppc64_r20.q '96 in all' 'resource bound: 96 operations \(128 counting multi-cycle ones\) on 2 units.*at least 64\.0 cycles'
check ppc32 ppc7410 $S/salsa20_ppc32_r20.q '96 in all' 'resource bound: 96 operations on 2 units.*at least 48\.0 cycles'
check sparc64 ultrasparc2 $S/salsa20_sparc64_r20.q '160 in all' 'at least 80\.0 cycles'
check sparc64 ultrasparc3 $S/salsa20_sparc64_r20.q '160 in all' 'at least 80\.0 cycles'
# every model loads and reports on an amd64 kernel too
for m in core2 haswell skylake goldencove zen2 zen4; do
	"$Q" --report -u $m $S/salsa20_amd64_avx2_r20.q | grep -q 'resource bound' || { echo "FAIL report for $m"; fail=1; }
done
[ $fail = 0 ] && echo "report: classical Salsa20 bounds reproduced (64, 48, 80, 80 cycles per double-round)"
exit $fail
