#!/usr/bin/env bash
# Allocation quality (issue 14): static spill loads and stores from
# `qhasm --report` against the bounds the reference programs embed
# (`#! spills function|loop NAME loads<=N stores<=M`), and each program run
# against its C reference, so that a regression of the allocator fails here.
#   tests/alloc/chacha.q   a user's ChaCha20 block: 17 values in a 20-round loop
#   tests/alloc/remat.q    spilled constants and a stack address made again, not reloaded
#   benchgen spilling 300  40 live int64 values on 15 registers
#   salsa20_amd64_r20.q    the integer Salsa20 double round (kernel in out/), and x86
#   tests/alloc/deadstores.py  no stack store in out/ overwritten before a read
set -u
cd "$(dirname "$0")/../.."
Q=${QHASM:-build/qhasm}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0

# check REPORT_FILE "function" | "loop NAME" LOADS STORES
bound() {
	local rep=$1 what=$2 ml=$3 ms=$4 line
	if [ "$what" = function ]; then
		line=$(grep -m1 '^  spill code: ' "$rep")
	else
		line=$(grep -m1 "^  spill code in loop ${what#loop } (" "$rep")
	fi
	if [ -z "$line" ]; then
		echo "FAIL $5: no report line for $what"; fail=1; return
	fi
	local l s
	l=$(sed -E 's/.*: ([0-9]+) loads, ([0-9]+) stores.*/\1/' <<<"$line")
	s=$(sed -E 's/.*: ([0-9]+) loads, ([0-9]+) stores.*/\2/' <<<"$line")
	if [ "$l" -gt "$ml" ] || [ "$s" -gt "$ms" ]; then
		echo "FAIL $5 $what: $l spill loads, $s stores; at most $ml and $ms expected"; fail=1
	else
		echo "$5 $what: $l spill loads, $s stores (at most $ml, $ms)"
	fi
}

# directives of a .q file
directives() {
	local q=$1 rep=$2 name=$3
	while read -r _ _ what rest; do
		local a=($what $rest) w ml ms
		if [ "${a[0]}" = function ]; then w=function; ml=${a[1]#loads<=}; ms=${a[2]#stores<=}
		else w="loop ${a[1]}"; ml=${a[2]#loads<=}; ms=${a[3]#stores<=}; fi
		bound "$rep" "$w" "$ml" "$ms" "$name"
	done < <(grep '^#! spills ' "$q")
}

run() { # name q-file c-file
	local name=$1 q=$2 c=$3
	"$Q" "$q" -o "$T/$name.asm" || { echo "FAIL $name: translation"; fail=1; return; }
	"$Q" "$q" -o "$T/$name.2.asm" && cmp -s "$T/$name.asm" "$T/$name.2.asm" \
		|| { echo "FAIL $name: two translations differ"; fail=1; }
	"$Q" --report "$q" > "$T/$name.rep" || { echo "FAIL $name: --report"; fail=1; return; }
	if nasm -f elf64 "$T/$name.asm" -o "$T/$name.o" && cc -O1 "$c" "$T/$name.o" -o "$T/$name"; then
		"$T/$name" || { echo "FAIL $name: wrong results"; fail=1; }
	else
		echo "FAIL $name: assembling or linking"; fail=1
	fi
}

run chacha tests/alloc/chacha.q tests/alloc/chacha.c
directives tests/alloc/chacha.q "$T/chacha.rep" chacha

# the ChaCha loop's instructions and stack accesses (the counter in its
# slot, two words spilled: 104 and 7, from 106 and 8 before the memory forms)
read -r n st < <(awk '/^\.Ldoubleround:/ { p = 1; next }
	p && !/^[;%]/ && !/:$/ && NF { n++; if (/rsp/) st++; if (/^\tjne \.Ldoubleround/) { print n, st; exit } }' "$T/chacha.asm")
if [ "${n:-999}" -gt 104 ] || [ "${st:-999}" -gt 7 ]; then
	echo "FAIL chacha doubleround: ${n:-?} instructions, ${st:-?} stack accesses; at most 104 and 7 expected"; fail=1
else
	echo "chacha doubleround: $n instructions, $st stack accesses (at most 104, 7)"
fi

run remat tests/alloc/remat.q tests/alloc/remat.c
directives tests/alloc/remat.q "$T/remat.rep" remat

python3 -m gen.benchgen --emit spilling 300 > "$T/spill40.q"
python3 -m gen.benchgen --emit-c spilling 300 > "$T/spill40.c"
run spill40 "$T/spill40.q" "$T/spill40.c"
bound "$T/spill40.rep" function 249 132 spill40

# the integer Salsa20 double round (the target of issue 14, at most 12 stack
# accesses and 110 instructions).  The _blocks kernel's double round plans
# its stack traffic in gen/salsa20.py (int_plan: two words in slots at
# every step, no spill left to the allocator: 102 instructions, 9 stack
# accesses); the _core kernel's is the same double round left to the
# allocator (evictions by furthest next use of split.c: 5 loads, 5 stores,
# 106 instructions).  These bounds are today's figures, so that they
# cannot regress: spill code in both loops and the whole _blocks
# function, and the loops' instructions and stack accesses in the
# committed kernel of out/
S=specs/salsa20/generated/salsa20_amd64_r20.q
"$Q" --report "$S" > "$T/salsa.rep" || { echo "FAIL salsa20: --report"; fail=1; }
bound "$T/salsa.rep" "loop doubleround" 0 0 salsa20_amd64_r20
bound "$T/salsa.rep" "loop coreround" 5 5 salsa20_amd64_r20
bound "$T/salsa.rep" function 0 0 salsa20_amd64_r20
# the x86 Salsa20 double round (7 registers for 17 values): 55 spill loads
# and stores before the evictions by furthest next use, 48 with them
"$Q" -m x86 --report specs/salsa20/generated/salsa20_x86_r20.q > "$T/salsa86.rep" || { echo "FAIL salsa20 x86: --report"; fail=1; }
bound "$T/salsa86.rep" "loop doubleround" 24 24 salsa20_x86_r20
"$Q" "$S" -o "$T/salsa.asm" || { echo "FAIL salsa20: translation"; fail=1; }
cmp -s "$T/salsa.asm" out/amd64/salsa20_amd64_r20.asm \
	|| { echo "FAIL salsa20: out/amd64/salsa20_amd64_r20.asm is not this translator's output"; fail=1; }
# loop LABEL MAXINS MAXSTACK: a loop's instructions and stack accesses in salsa.asm
loopsize() {
	local n st
	read -r n st < <(awk -v L="$1" '$0 == "." L ":" { p = 1; next }
		p && !/^[;%]/ && !/:$/ && NF { n++; if (/rsp/) st++; if ($0 == "\tjne ." L) { print n, st; exit } }' "$T/salsa.asm")
	if [ "${n:-999}" -gt "$2" ] || [ "${st:-999}" -gt "$3" ]; then
		echo "FAIL salsa20_amd64_r20 $1: ${n:-?} instructions, ${st:-?} stack accesses; at most $2 and $3 expected"; fail=1
	else
		echo "salsa20_amd64_r20 $1: $n instructions, $st stack accesses (at most $2, $3)"
	fi
}
loopsize Ldoubleround 102 9
loopsize Lcoreround 106 9

# no dead stack stores in any generated kernel (every target), and the
# checker finds the ones planted here
python3 tests/alloc/deadstores.py out/*/*.s out/*/*.asm || fail=1
printf '\tmov [rsp + 8], rax\n\tmov [rsp + 8], rbx\n\tstx %%o0, [%%fp + 2015]\n\tstx %%o1, [%%fp + 2015]\n\tstd %%r3, 16(%%r1)\n\tstd %%r4, 16(%%r1)\n' > "$T/dead.s"
n=$(python3 tests/alloc/deadstores.py "$T/dead.s" | grep -c ': dead store')
[ "$n" = 3 ] || { echo "FAIL deadstores: found $n of 3 planted dead stores"; fail=1; }

[ $fail = 0 ] && echo "alloc: spill counts within their bounds; chacha, remat and spill40 kernels correct"
exit $fail
