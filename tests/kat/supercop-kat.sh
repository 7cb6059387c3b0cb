#!/bin/sh
# How the expected KAT hash of kem_sntrup761 (specs/kernels.conf, param kat=)
# was obtained, independently of this project's KEM code: SUPERCOP's
# crypto_kem/sntrup761/ref from a COPY of the peer bench (never into this
# repository), with NIST's AES-256 CTR DRBG (tests/kat/nist_drbg.c) as its
# randombytes, printing the PQCgenKAT_kem .rsp text of the first N entries.
# Not run by `make test` (it builds the whole peer bench, minutes).
#
#   sh tests/kat/supercop-kat.sh [N]        prints the SHA-256 of the text
set -e
N=${1:-10}
here=$(cd "$(dirname "$0")" && pwd)
peers=${PEERS:-/work/shared/peers-wave2}
tmp=${TMPDIR:-/tmp}/qhasm-supercop-kat-$$
cp -r "$peers" "$tmp"
make -C "$tmp" bench >/dev/null
cd "$tmp"
gcc -O2 -I"$here" -o genkat "$here/supercop_sntrup761_kat.c" build/glue/declassify.o \
  -Wl,--start-group build/*/lib*.a build/cryptoint/*.o -Wl,--end-group -lcrypto
./genkat "$N" > sntrup761-$N.rsp
sha256sum sntrup761-$N.rsp
echo "text: $tmp/sntrup761-$N.rsp (remove $tmp when done)"
