#!/bin/sh
# make install into a temporary prefix, build a tiny external program with
# nothing but `pkg-config --cflags --libs qhasm` (shared and static), run it,
# check the DESTDIR layout, then make uninstall and check everything is gone.
set -u
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
command -v pkg-config >/dev/null 2>&1 || { echo "install.sh: pkg-config not installed"; exit 77; }
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "install.sh: FAIL: $*"; exit 1; }

prefix="$tmp/prefix"
$MAKE -s install BUILD="$BUILD" PREFIX="$prefix" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "make install PREFIX=$prefix"; }
for f in lib/libqhasm.a lib/libqhasm.so.0.1.0 lib/libqhasm.so.0 lib/libqhasm.so lib/pkgconfig/qhasm.pc \
         include/qhasm.h include/qhasm_crypto.h bin/qhasm bin/qhasm-test share/doc/qhasm; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
soname=$(readelf -d "$prefix/lib/libqhasm.so.0.1.0" 2>/dev/null | sed -n 's/.*SONAME.*\[\(.*\)\].*/\1/p')
[ "$soname" = libqhasm.so.0 ] || fail "soname is '$soname', expected libqhasm.so.0"

cat > "$tmp/prog.c" <<'PROG'
#include <stdio.h>
#include <string.h>
#include <qhasm_crypto.h>

int main(void)
{
    /* RFC 8439 section 2.5.2 */
    static const unsigned char key[32] = {
        0x85,0xd6,0xbe,0x78,0x57,0x55,0x6d,0x33,0x7f,0x44,0x52,0xfe,0x42,0xd5,0x06,0xa8,
        0x01,0x03,0x80,0x8a,0xfb,0x0d,0xb2,0xfd,0x4a,0xbf,0xf6,0xaf,0x41,0x49,0xf5,0x1b };
    static const unsigned char tag[16] = {
        0xa8,0x06,0x1d,0xc1,0x30,0x51,0x36,0xc6,0xc2,0x2b,0x8b,0xaf,0x0c,0x01,0x27,0xa9 };
    const char *msg = "Cryptographic Forum Research Group";
    unsigned char a[16], k[32], n[8], in[16], out[64], buf[100], buf2[100];
    int i;
    crypto_onetimeauth_poly1305(a, (const unsigned char *)msg, strlen(msg), key);
    if (memcmp(a, tag, 16)) { printf("poly1305 tag wrong\n"); return 1; }
    /* Salsa20 specification section 9 example, first bytes */
    for (i = 0; i < 16; i++) { k[i] = 1 + i; k[16 + i] = 201 + i; in[i] = 101 + i; }
    crypto_core_salsa20(out, in, k, NULL);
    if (out[0] != 69 || out[1] != 37 || out[63] != 74) { printf("core_salsa20 wrong\n"); return 1; }
    memset(n, 7, sizeof n);
    for (i = 0; i < 100; i++) buf[i] = (unsigned char)i;
    crypto_stream_salsa20_xor(buf2, buf, sizeof buf, n, k);
    crypto_stream_salsa20_xor(buf2, buf2, sizeof buf2, n, k);
    if (memcmp(buf, buf2, sizeof buf)) { printf("salsa20 round trip wrong\n"); return 1; }
    printf("ok salsa20=%s poly1305=%s\n", qhasm_impl_name("salsa20", qhasm_impl_selected("salsa20")),
           qhasm_impl_name("poly1305", qhasm_impl_selected("poly1305")));
    return 0;
}
PROG

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs qhasm) || fail "pkg-config --cflags --libs qhasm"
$CC -o "$tmp/prog-shared" "$tmp/prog.c" $flags || fail "building against the shared library"
readelf -d "$tmp/prog-shared" | grep -q 'NEEDED.*libqhasm.so.0' || fail "program does not use libqhasm.so.0"
out=$(LD_LIBRARY_PATH="$prefix/lib" "$tmp/prog-shared") || fail "shared program: $out"
echo "shared: $out"
sflags=$(pkg-config --static --cflags --libs qhasm) || fail "pkg-config --static"
if $CC -static -o "$tmp/prog-static" "$tmp/prog.c" $sflags 2>"$tmp/slog"; then
  out=$("$tmp/prog-static") || fail "static program: $out"
  echo "static: $out"
else
  cat "$tmp/slog"
  fail "building a static program"
fi

$MAKE -s uninstall BUILD="$BUILD" PREFIX="$prefix" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "make uninstall"; }
left=$(find "$prefix" -type f -o -type l)
[ -z "$left" ] || fail "left after uninstall: $left"

# DESTDIR staging: files land under DESTDIR, the .pc names the real prefix
dest="$tmp/dest"
$MAKE -s install BUILD="$BUILD" DESTDIR="$dest" PREFIX=/opt/qhasm >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "make install DESTDIR"; }
[ -f "$dest/opt/qhasm/lib/libqhasm.a" ] || fail "DESTDIR install: no $dest/opt/qhasm/lib/libqhasm.a"
grep -qx 'prefix=/opt/qhasm' "$dest/opt/qhasm/lib/pkgconfig/qhasm.pc" || fail "qhasm.pc prefix is not /opt/qhasm"
$MAKE -s uninstall BUILD="$BUILD" DESTDIR="$dest" PREFIX=/opt/qhasm >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "make uninstall DESTDIR"; }
left=$(find "$dest" -type f -o -type l)
[ -z "$left" ] || fail "left after DESTDIR uninstall: $left"
echo "install, pkg-config (shared, static), DESTDIR, uninstall: ok"
exit 0
