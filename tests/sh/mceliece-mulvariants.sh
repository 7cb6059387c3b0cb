#!/bin/sh
# The vec_mul variants of gen/mceliece.py (issue 16): every network against
# the bit-serial product, h separate and aliasing f and g
# (tests/diff/mceliece_mulvariants.py), and the measurement-only variants
# (--kara, --no-krows (mul_rows), --evenodd, --fregs, --ncols, the column multiplier with --sharefold) generated and translated for amd64-avx2 with
# no spill code (their .q are not under specs/, so nothing else translates them).
set -u
BUILD=${BUILD:-build}
python3 tests/diff/mceliece_mulvariants.py >/tmp/mce-mulvar.$$ 2>&1 || { cat /tmp/mce-mulvar.$$; rm -f /tmp/mce-mulvar.$$; exit 1; }
tail -1 /tmp/mce-mulvar.$$; rm -f /tmp/mce-mulvar.$$
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
fail=0
for opt in "--kara amd64-avx2" "--no-krows amd64-avx2" "--evenodd amd64-avx2" "--fregs amd64-avx2=12" "--ncols amd64-avx2=4 --fregs amd64-avx2=10" \
           "--no-rows amd64-avx2 --fregs amd64-avx2=12 --sharefold amd64-avx2"; do
    v=$(echo "$opt" | tr -c 'a-z0-9\n' _)
    python3 -m gen.mceliece --impl amd64-avx2 $opt --out "$d/$v" || { echo "FAIL: gen.mceliece $opt"; fail=1; continue; }
    for m in 12 13; do
        q="$d/$v/specs/mceliece/generated/mceliece_gf${m}_vec256_mul_amd64_avx2.q"
        r=$("$BUILD/qhasm" -m amd64 --report "$q" -o "$d/out.asm" 2>&1) || { echo "FAIL: $opt m=$m: $r"; fail=1; continue; }
        s=$(echo "$r" | grep -m1 'spill code:')
        echo "$opt m=$m:$s"
        case "$s" in *" 0 loads, 0 stores"*) ;; *) echo "FAIL: $opt m=$m spills"; fail=1 ;; esac
    done
done
exit $fail
