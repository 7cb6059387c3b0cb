#!/bin/sh
# SUPERCOP's own test of a KEM (crypto_kem/try.c, try-small: its
# knownrandombytes, aliasing and overlap checks, a checksum of every
# output) run over libqhasm's sntrup761, compared with SUPERCOP's
# checksumsmall.  The SUPERCOP code is used from a temporary COPY of the
# peer bench only (never in this repository); the shim (the crypto_kem
# names on qhasm_kem_sntrup761_*, with SUPERCOP's randombytes installed
# by qhasm_randombytes_set) is written here.  Not run by `make test`.
#
#   sh tests/kat/supercop-try.sh     (after make; prints both checksums)
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
peers=${PEERS:-/work/shared/peers-wave2}
tmp=${TMPDIR:-/tmp}/qhasm-supercop-try-$$
cp -r "$peers" "$tmp"
cd "$tmp"
make build/kat/try-crypto_kem_sntrup761_ref >/dev/null
mkdir -p shim
sed 's/_ref_/_qhasm_/g; s|crypto_kem/sntrup761/ref|crypto_kem/sntrup761/qhasm|' \
  build/crypto_kem_sntrup761_ref/include/crypto_kem_sntrup761.h > shim/crypto_kem_sntrup761.h
sed 's/_ref_/_qhasm_/g' build/crypto_kem_sntrup761_ref/include/crypto_kem.h > shim/crypto_kem.h
cat > shim/shim.c <<'C'
#include <qhasm.h>
extern void randombytes(unsigned char *, unsigned long long);
int crypto_kem_sntrup761_qhasm_keypair(unsigned char *pk, unsigned char *sk)
{ qhasm_randombytes_set(randombytes); return qhasm_kem_sntrup761_keypair(pk, sk); }
int crypto_kem_sntrup761_qhasm_enc(unsigned char *c, unsigned char *k, const unsigned char *pk)
{ qhasm_randombytes_set(randombytes); return qhasm_kem_sntrup761_enc(c, k, pk); }
int crypto_kem_sntrup761_qhasm_dec(unsigned char *k, const unsigned char *c, const unsigned char *sk)
{ return qhasm_kem_sntrup761_dec(k, c, sk); }
C
gcc -O2 -fwrapv -w -DSMALL -Ishim -Iglue/kat -Isrc/supercop/include -Isrc/cryptoint -I"$root/csrc/include" \
  -o try-qhasm src/supercop/crypto_kem/try.c src/supercop/try-anything.c build/kat/stubs.o \
  build/kat/knownrandombytes.o shim/shim.c -Wl,--start-group build/crypto_rng_chacha20_ref/*.a \
  build/crypto_stream_chacha20_openssl/*.a build/cryptoint/*.o "$root/${BUILD:-build}/libqhasm.a" \
  -Wl,--end-group -lcrypto
echo "SUPERCOP checksumsmall: $(cat src/supercop/crypto_kem/sntrup761/checksumsmall)"
echo "libqhasm try-small:     $(./try-qhasm | awk '{print $1}')"
echo "(remove $tmp when done)"
