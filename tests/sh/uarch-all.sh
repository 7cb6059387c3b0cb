#!/bin/sh
# Every kernel scheduled for every model of its target passes qhasm-test
# (issue 8: "the output stays correct for any schedule").  Only the models
# of the manifest's `uarch` lines (specs/kernels.conf) are committed; this
# test, in a temporary copy of the working tree (build/ excluded):
#   - removes out/ and regenerates it with every model of every target
#     (python3 -m gen.regen --add --uarch M ... for each
#     qhasm/*/models/*.model, with $QHASM), so base implementations and
#     variants are all fresh and the copy's manifest lists every model;
#   - takes the expected variants from the manifest (python3 -m
#     gen.manifest list: kind "variant", or "alias" for a variant whose
#     code equals its base's, listed in out/ALIASES and not assembled);
#   - builds the amd64 library + qhasm-test and the cross ones
#     (make -k cross-<t>) there, with make -j2 (qhasm-speed is cross.sh's
#     business: if only it fails to build, the summary says so);
#   - runs the full qhasm-test of each target (natively for amd64 and x86,
#     under qemu for the others, in parallel) and requires: exit status 0,
#     'N passed, 0 failed, ...', and for every expected variant: listed by
#     `qhasm-test -l`, and 'ok' (an alias: "alias of <base>").  A variant
#     may be skipped only where the CPU lacks its features and its base
#     implementation is skipped too (said in the summary); any other skip
#     is a failure.
# The last line is the summary.  Missing cross toolchains are a failure
# (as in cross.sh: CI installs them).  Exit 0 ok, 1 failure, 77 skipped.
set -u
BUILD=${BUILD:-build}
QHASM=${QHASM:-$BUILD/qhasm}
MAKE=${MAKE:-make}
CC=${CC:-cc}
root=$(pwd)
case "$QHASM" in /*) ;; *) QHASM="$root/$QHASM" ;; esac
me=uarch-all.sh

fail() { echo "$me: FAIL: $*"; exit 1; }

[ -x "$QHASM" ] || fail "$QHASM not built (make translator)"
command -v python3 >/dev/null 2>&1 || { echo "$me: skipped: python3 not installed"; exit 77; }
case "$($CC -dumpmachine 2>/dev/null)" in
  x86_64-*) ;;
  *) echo "$me: skipped: the amd64 variants need an x86_64 host; $($CC -dumpmachine) is not"; exit 77 ;;
esac

start=$(date +%s)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM HUP
src="$tmp/src"
logs="$tmp/logs"
mkdir -p "$src" "$logs"

# ---- a copy of the working tree (tracked and untracked, not ignored) ------
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files -co --exclude-standard | while IFS= read -r f; do
    [ -f "$f" ] && printf './%s\n' "$f"
  done > "$tmp/files"
  tar -cf - -T "$tmp/files" | tar -xf - -C "$src" || fail "copying the working tree"
else
  tar -cf - --exclude=./build --exclude=./.git . | tar -xf - -C "$src" || fail "copying the tree"
fi
rm -rf "$src/build"
case "$BUILD" in /*) ;; *) rm -rf "${src:?}/$BUILD" ;; esac
cd "$src" || fail "cd $src"

# ---- every model, regenerated from scratch ---------------------------------
# "name target" per model file
for f in qhasm/*/models/*.model; do
  awk 'NF == 3 && $1 == "model" { print $2, $3; exit }' "$f"
done | sort -k2,2 -k1,1 > "$tmp/models"
nmodels=$(wc -l < "$tmp/models")
[ "$nmodels" -gt 0 ] || fail "no models found (qhasm/*/models/*.model)"
set --
while read -r m t; do set -- "$@" --uarch "$m"; done < "$tmp/models"
rm -rf out
mkdir out
# --add records every model in the copy's manifest, so the manifest lists
# every variant (and out/ALIASES the ones identical to their base)
python3 -m gen.regen --qhasm "$QHASM" --add "$@" > "$logs/regen" 2>&1 || {
  tail -n 20 "$logs/regen"; fail "python3 -m gen.regen --add $* failed"; }

# the expected variants, from the manifest: "target prim variant kind base"
python3 -m gen.manifest list | awk '$4 == "variant" || $4 == "alias" { print $3, $1, $2, $4, $5 }' \
  > "$tmp/expected" || fail "python3 -m gen.manifest list failed"
nvariants=$(wc -l < "$tmp/expected")
naliases=$(awk '$4 == "alias"' "$tmp/expected" | wc -l)
[ "$nvariants" -gt 0 ] || fail "the manifest lists no variants after regenerating for $nmodels models"
# every model gives its target's implementations a variant (or an alias)
while read -r m t; do
  grep -q -- "-$m " "$tmp/expected" || fail "model $m: no variant of any implementation of its target $t"
done < "$tmp/models"
# a variant that is not an alias has its assembly; an alias has none
while read -r t p v kind b; do
  if [ "$kind" = variant ]; then
    ls out/"$v"/* >/dev/null 2>&1 || fail "regeneration wrote no out/$v/ ($p, model variant of $b)"
  fi
done < "$tmp/expected"
targets=$(python3 -m gen.manifest list | awk '$3 != "c" { print $3 }' | sort -u | tr '\n' ' ')
ntargets=$(echo "$targets" | wc -w)

# ---- build: amd64 library + qhasm-test, then the cross targets -------------
B="$src/build"
$MAKE -j2 -s --no-print-directory BUILD="$B" "$B/qhasm-test" > "$logs/build-amd64" 2>&1 || {
  tail -n 30 "$logs/build-amd64"; fail "building the amd64 library and qhasm-test"; }
cross=""
for t in $targets; do [ "$t" = amd64 ] || cross="$cross $t"; done
# (make -k: only libqhasm and qhasm-test matter here; a failure of the rest,
# qhasm-speed, is reported in the summary and left to cross.sh)
other=""
for t in $cross; do
  if ! $MAKE -k -j2 -s --no-print-directory BUILD="$B" "cross-$t" > "$logs/build-$t" 2>&1; then
    grep -m1 '^cross toolchain' "$logs/build-$t" && fail "make cross-$t: toolchain missing"
    if [ -x "$B/$t/qhasm-test" ] && [ -f "$B/$t/libqhasm.a" ]; then
      other="$other $t"
    else
      tail -n 30 "$logs/build-$t"
      fail "building the $t library and qhasm-test (make cross-$t)"
    fi
  fi
done

# ---- run every target's qhasm-test (in parallel) ---------------------------
run_of() {
  [ "$1" = amd64 ] && return 0
  # BUILD="$B": with the caller's BUILD (an absolute path in the
  # environment under tests/run.py) this make would remake the caller's
  # $BUILD/gen/manifest.mk from this copy's every-model manifest, and the
  # caller's next `make` would then ask for out/ folders that do not exist
  $MAKE -s --no-print-directory BUILD="$B" "cross-info-$1" | sed -n 's/^run=//p'
}
bin_of() { if [ "$1" = amd64 ]; then echo "$B/qhasm-test"; else echo "$B/$1/qhasm-test"; fi; }
for t in $targets; do
  run=$(run_of "$t")
  bin=$(bin_of "$t")
  [ -x "$bin" ] || fail "$bin was not built"
  if [ -n "$run" ]; then e=1; else e=0; fi
  # shellcheck disable=SC2086
  # only the primitives with a model variant on this target: the others'
  # code is the one cross.sh and qhasm-test already check
  prims=$(awk -v t="$t" '$1 == t { print "-p", $2 }' "$tmp/expected" | sort -u | tr '\n' ' ')
  [ -n "$prims" ] || continue
  ( QHASM_EMULATED=$e $run "$bin" -l > "$logs/list-$t" 2>&1; echo $? > "$logs/list-$t.rc"
    QHASM_EMULATED=$e $run "$bin" $prims > "$logs/test-$t" 2>&1; echo $? > "$logs/test-$t.rc" ) &
done
wait

# ---- check -----------------------------------------------------------------
bad=0
problem() { echo "$me: $*"; bad=1; }
runs=0
cpuskips=""
failed=""
for t in $targets; do
  grep -q "^$t " "$tmp/expected" || continue
  was=$bad
  bad=0
  tl="$logs/test-$t"
  ll="$logs/list-$t"
  rc=$(cat "$tl.rc" 2>/dev/null || echo '?')
  [ "$(cat "$ll.rc" 2>/dev/null)" = 0 ] || problem "$t: qhasm-test -l exited with status $(cat "$ll.rc" 2>/dev/null)"
  [ "$rc" = 0 ] || problem "$t: qhasm-test exited with status $rc"
  summary=$(tail -n 1 "$tl")
  echo "$summary" | grep -Eq '^[0-9]+ passed, 0 failed, [0-9]+ skipped$' || problem "$t: qhasm-test: $summary"
  while read -r vt p v kind b; do
    [ "$vt" = "$t" ] || continue
    grep -Eq "^$p: (.* )?$v(\((selected|unsupported)\))?( |\$)" "$ll" || {
      problem "$t: $v ($p) is not listed by qhasm-test -l (not in the dispatch tables)"; continue; }
    line=$(grep -E "^$p +$v +" "$tl")
    case "$kind $line" in
      "alias "*" alias of $b "*) runs=$((runs + 1)) ;;
      "alias "*) problem "$t: $p $v is an alias of $b but qhasm-test says: $line" ;;
      *" ok") runs=$((runs + 1)) ;;
      *" skipped missing "*)
        if grep -Eq "^$p +$b +skipped missing " "$tl"; then
          cpuskips="$cpuskips $p/$v"
        else
          problem "$t: $p $v skipped though $b ran: $line"
        fi ;;
      "variant ") problem "$t: $p $v: no result line in the qhasm-test output" ;;
      *) problem "$t: $p $v did not pass: $line"; failed="$failed $p/$v" ;;
    esac
  done < "$tmp/expected"
  if [ $bad = 1 ]; then
    echo "$me: $t: qhasm-test output, lines other than ok:"
    grep -v ' ok$' "$tl" | tail -n 40 | sed 's/^/    /'
  fi
  echo "$me: $t: $(grep -c "^$t " "$tmp/expected") variants for$(awk -v t="$t" '$2 == t { printf " %s", $1 }' "$tmp/models"): $summary"
  [ $was = 0 ] || bad=1
done
secs=$(($(date +%s) - start))
[ $bad = 0 ] || fail "not every variant passes (${secs}s); failed:${failed:- see above}"
note=""
[ -z "$other" ] || note=" (note: make cross failed beyond libqhasm and qhasm-test for:$other; see cross.sh)"
[ -z "$cpuskips" ] || note="$note ($(echo "$cpuskips" | wc -w) runs skipped: the CPU lacks features, their base implementations' too)"
echo "uarch-all: $nvariants primitive x variant implementations ($naliases of them aliases: identical code) of $nmodels models on $ntargets targets: all pass ($runs checked, ${secs}s)$note"
exit 0
