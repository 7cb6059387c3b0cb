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
	out=$("$Q" -m "$t" --report -u "$m" "$f" 2>&1 | sed -n "/^loop ${LOOP:-doubleround} /,/lower bound/p")
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
# every model (the model files, so the list cannot go stale) loads and
# reports on a kernel of its target, naming the bound that binds
for f in qhasm/*/models/*.model; do
	m=$(awk 'NF == 3 && $1 == "model" { print $2; exit }' "$f")
	t=$(awk 'NF == 3 && $1 == "model" { print $3; exit }' "$f")
	case $t in amd64) k=$S/salsa20_amd64_avx2_r20.q ;; *) k=$S/salsa20_${t}_r20.q ;; esac
	out=$("$Q" -m "$t" --report -u "$m" "$k" 2>&1)
	grep -q 'resource bound' <<<"$out" || { echo "FAIL report for $m ($t): $(head -3 <<<"$out")"; fail=1; }
	grep -Eq 'lower bound: at least [0-9.]+ cycles per iteration \((resource|recurrence|issue width) binds\)' <<<"$out" ||
		{ echo "FAIL report for $m ($t): no lower bound naming what binds"; fail=1; }
done
# the integer Salsa20 double-round: 4 independent quarter-round chains of
# 4 (add, rotate, xor) steps, twice: a recurrence of 24 cycles on zen3
check amd64 zen3 $S/salsa20_amd64_r20.q 'recurrence bound: [0-9]+ values carried around the loop, their longest cycle: at least 24\.0 cycles'
# Poly1305's block: the multiply-reduce chain carried into the next block
out=$("$Q" --report -u zen3 specs/poly1305/generated/poly1305_amd64.q | sed -n '/^loop block (line/,/lower bound/p')
grep -q 'lower bound: at least 12.0 cycles per iteration (recurrence binds)' <<<"$out" ||
	{ echo "FAIL poly1305 zen3: the recurrence does not bind at 12 cycles:"; echo "$out"; fail=1; }
# a multi-instruction template's latency is its longest chain, not the sum:
# the SSE2 rotate (movdqa, pslld, psrld, por) is vmov + vshift + valu
# (0 + 1 + 1 on zen3), so the SSE2 double-round's recurrence is 4 x 4 x 2 = 32
LOOP=rounds4 check amd64 zen3 $S/salsa20_amd64_sse2_r20.q 'their longest cycle: at least 32\.0 cycles'
# the bound of one call (issue 19: kernels without a _blocks loop): a
# straight-line chain load (4 on zen3), add, add: 6 cycles, also when the
# value comes from an input or a constant
tmpq=$(mktemp /tmp/report-XXXXXX.q)
trap 'rm -f "$tmpq"' EXIT
printf 'int64 a b c\nenter f\ninput a b\nc = mem64[a + 0]\nc += b\nc += 1\nmem64[a + 8] = c\nleave\n' > "$tmpq"
out=$("$Q" --report -u zen3 "$tmpq")
grep -q '^call: at least 6.0 cycles (critical path binds; resource 0.7, critical path 6)' <<<"$out" ||
	{ echo "FAIL call bound of a 6-cycle chain:"; echo "$out"; fail=1; }
grep -q 'critical path: at least 6 cycles (the longest block)' <<<"$out" ||
	{ echo "FAIL critical path of a block whose chain starts at an input:"; echo "$out"; fail=1; }
# the issue width counts fused operations (what the cores rename per
# cycle): a load folded into an xor takes the xor's slot, so the loop below
# (5 xors with memory sources, 4 in registers, a plain load, 2 stores, the
# pointer step) is 13 slots, 2.2 cycles at goldencove's width 6 -- not its
# 18 micro-operations, 3.0 cycles, a "bound" the hardware beats
printf 'int64 a b c p i\nenter f\ninput p\ni = 64\na = 0\nb = 0\nc = 0\nl:\n' > "$tmpq"
for k in 0 8 16 24 32; do printf 'a ^= mem64[p + %d]\n' $k >> "$tmpq"; done
printf 'b = mem64[p + 40]\nb ^= a\nc ^= b\na ^= c\nc ^= a\nmem64[p + 64] = b\nmem64[p + 72] = c\n' >> "$tmpq"
printf 'p += 8\ni -= 1\n=? i - 0\ngoto l if !=\nleave\n' >> "$tmpq"
out=$("$Q" --report -u goldencove "$tmpq")
grep -q 'resource bound: 13 issue slots (fused operations) at 6 per cycle: at least 2.2 cycles (issue width)' <<<"$out" ||
	{ echo "FAIL fused issue slots of a load-xor loop (13):"; echo "$out"; fail=1; }
# counted loops with `i = i - 1; =? i - 0` (the NTRU Prime kernels) and
# the allocator's copies at the loop entry: loop1 runs 24 times, the nest
# loop3 (2 x loop4 of 12) has a bound, and the call counts every iteration
N=specs/ntruprime/generated/ntruprime_mult_amd64_761.q
out=$("$Q" --report -u zen3 $N)
grep -A8 '^loop loop1 ' <<<"$out" | grep -q 'runs 24 times per entry' ||
	{ echo "FAIL $N: loop1's trip count (24) not found"; fail=1; }
grep -Eq '^loop loop3 with its inner loops: at least [0-9.]+ cycles per iteration' <<<"$out" ||
	{ echo "FAIL $N: loop3's nest has no bound"; grep '^loop loop3 with' <<<"$out"; fail=1; }
grep -Eq '^call: at least [0-9]{5}\.[0-9] cycles \(issue width binds; resource [0-9.]+, critical path [0-9]+\)$' <<<"$out" ||
	{ echo "FAIL $N: no call bound over all iterations"; grep '^call' <<<"$out"; fail=1; }
# a pointer stepped through a constant table (Keccak's round constants:
# 16 bytes per iteration up to &keccak_rc + 192): 12 iterations, and the
# absorb loop gets a per-byte bound
K=specs/keccak/generated/keccak_amd64.q
out=$("$Q" --report -u zen3 $K)
grep -A8 '^loop rounds ' <<<"$out" | grep -q 'runs 12 times per entry' ||
	{ echo "FAIL $K: the round loop's trip count (12) not found"; fail=1; }
grep -Eq '^loop block with its inner loops: .* 136 bytes: at least [0-9.]+ cycles per byte' <<<"$out" ||
	{ echo "FAIL $K: no per-byte bound of the absorb loop"; grep '^loop block with' <<<"$out"; fail=1; }
# a loop that branches (issue 19): the recurrence is computed over all its
# paths at once, each carried edge taking its shortest path (x = x*x + 1 on
# one path, 4 cycles; x = (x ^ 5) + 1 on the other, 2), and the resource
# bound counts only the blocks every iteration runs
printf 'int64 p n x t\nenter f\ninput p n\nx = mem64[p + 0]\nloop:\nt = x\nt *= x\n=? n - 7\ngoto other if =\nx = t\ngoto join\nother:\nx ^= 5\njoin:\nx += 1\n=? n -= 1\ngoto loop if !=\nmem64[p + 0] = x\nleave\n' > "$tmpq"
out=$("$Q" --report -u zen3 "$tmpq")
grep -q 'their longest cycle: at least 2.0 cycles (over all its paths: each edge.s shortest)' <<<"$out" ||
	{ echo "FAIL branching loop: recurrence not the shortest path's 2 cycles:"; echo "$out"; fail=1; }
grep -q 'operations: alu 2 copy 1 mul 1 branch 1 (5 in all, plus 2 of loop control)' <<<"$out" ||
	{ echo "FAIL branching loop: operations of blocks some iterations skip counted:"; echo "$out"; fail=1; }

[ $fail = 0 ] && echo "report: classical Salsa20 bounds reproduced (64, 48, 80, 80 cycles per double-round)"
exit $fail
