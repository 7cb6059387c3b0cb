#!/bin/sh
# The cost report's bounds are bounds (issue 19): for every amd64 model
# whose CPU is the one at hand (csrc/cpu.c's detection, as qhasm-speed
# reports it), every kernel with a per-byte bound (build/csrc/speedbounds.c,
# from gen/bounds.py) is measured with qhasm-speed's method (the IQM of 32
# calls at the longest length, converted to core cycles by a chain of
# dependent adds) and must take at least its bound (ratio >= 1.00), and the
# bound line must name which bound binds.  A measurement fails when it is
# below its bound in each of three runs (a preempted calibration chain, or
# a clock that moves between the chain and the kernel on a shared host,
# makes one cycle figure too small).  Models whose CPU is not present are listed as
# skipped, loudly.  Exit 0 ok, 1 failure, 77 when no model matches the CPU.
set -u
BUILD=${BUILD:-build}
SPEED=${SPEED:-$BUILD/qhasm-speed}
me=bounds.sh
[ -x "$SPEED" ] || { echo "$me: FAIL: $SPEED not built"; exit 1; }
[ -f "$BUILD/csrc/speedbounds.c" ] || { echo "$me: FAIL: $BUILD/csrc/speedbounds.c missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM HUP
models=$(for f in qhasm/amd64/models/*.model; do awk 'NF == 3 && $1 == "model" { print $2; exit }' "$f"; done | sort)
here=$(QHASM_UARCH=auto "$SPEED" -p poly1305 -m 0 2>/dev/null | sed -n 's/^qhasm-speed bounds model \([^:]*\):.*/\1/p')
case "$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)" in *hypervisor*) vm=" (virtualised)" ;; *) vm="" ;; esac
cpu="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')$vm"
fail=0
checked=0
skipped=""
for m in $models; do
  if [ "$m" != "$here" ]; then
    skipped="$skipped $m"
    echo "$me: SKIPPED model $m: its CPU is not present (this is ${here:-an unmodelled CPU}: $cpu)"
    continue
  fi
  # the primitives with bounds for this model, and their (prim, impl) pairs
  sed -n "s/^ *{\"\([^\"]*\)\", \"\([^\"]*\)\", \"$m\", \([0-9.]*\), \"\([^\"]*\)\", [0-9.]*},/\1 \2 \3 \4/p" \
    "$BUILD/csrc/speedbounds.c" > "$tmp/want"
  [ -s "$tmp/want" ] || { echo "$me: FAIL: no bounds for model $m in $BUILD/csrc/speedbounds.c"; fail=1; continue; }
  prims=$(awk '{ print $1 }' "$tmp/want" | sort -u)
  # a measurement fails when it is below its bound in all three attempts:
  # on a shared host a neighbour's load moves the clock between the
  # calibration chain and the kernel, while a bound that is too high is
  # undercut every time
  low=""
  for attempt in 1 2 3; do
    set --
    for p in $prims; do set -- "$@" -p "$p"; done
    QHASM_UARCH=$m "$SPEED" "$@" -m 4096 > "$tmp/out" 2>&1 || { echo "$me: FAIL: qhasm-speed exited with $?"; fail=1; break; }
    grep '^[a-z0-9_]* [a-z0-9]* bound ' "$tmp/out" > "$tmp/lines"
    # NAME LABEL bound MODEL B cycles/byte (cost report: X binds) measured T ticks/byte at N bytes = C cycles/byte (K cycles per tick) ratio R
    # the measurements (NAME LABEL) below their bound in every attempt so far
    awk '$NF + 0 < 1.0 { print $1, $2 }' "$tmp/lines" | sort > "$tmp/now"
    if [ $attempt = 1 ]; then mv "$tmp/now" "$tmp/low"; else comm -12 "$tmp/low" "$tmp/now" > "$tmp/both"; mv "$tmp/both" "$tmp/low"; fi
    low=$(awk 'NR == FNR { k[$1 " " $2] = 1; next } k[$1 " " $2]' "$tmp/low" "$tmp/lines")
    [ -n "$low" ] && [ $attempt -lt 3 ] || break
    echo "$me: attempt $attempt: below the bound (measuring again):"; echo "$low" | sed 's/^/    /'
  done
  [ -z "$low" ] || { echo "$me: FAIL: model $m: measured below the cost report's bound in all three attempts:"; echo "$low"; fail=1; }
  grep -v 'cost report: \(resource\|recurrence\|issue width\|recurrence of the inner loops\|critical path\) binds' "$tmp/lines" |
    grep . && { echo "$me: FAIL: bound lines not naming the binding bound (above)"; fail=1; }
  grep -q 'cycles per tick' "$tmp/lines" || { echo "$me: FAIL: no cycles-per-tick conversion"; fail=1; }
  # every implementation with a bound was measured, or skipped for a
  # missing CPU extension or as an alias of identical code (said below)
  while read -r p impl b binds; do
    i=$(awk -v p="$p" -v n="$impl" '$1 == p && $3 == "implementation" && $4 == n { print $2; exit }' "$tmp/out")
    [ -n "$i" ] || { echo "$me: FAIL: $p $impl: not listed by qhasm-speed"; fail=1; continue; }
    awk -v p="$p" -v i="$i" '($1 ~ ("(^|_)" p "(_|$)")) && $2 == i && ($3 == "bound" || $3 == "skipped")' "$tmp/out" | grep -q . ||
      { echo "$me: FAIL: $p $impl (index $i): neither measured against its bound nor skipped"; fail=1; }
  done < "$tmp/want"
  awk '{ print $1, $2, $5, $NF }' "$tmp/lines" | sed "s/^/$me: $m: /"
  checked=$((checked + $(wc -l < "$tmp/lines")))
  grep '^[a-z0-9_]* [0-9]* skipped missing ' "$tmp/out" | sed "s/^/$me: $m: SKIPPED (this CPU lacks the extension): /"
  echo "$me: $m: $(grep -c '^[a-z0-9_]* [0-9]* skipped alias of ' "$tmp/out") operations of per-model variants not measured: aliases of identical code"
done
[ -n "$here" ] || { echo "$me: skipped: no model describes this CPU ($cpu)"; exit 77; }
[ $fail = 0 ] || exit 1
[ $checked -gt 0 ] || { echo "$me: FAIL: nothing measured for model $here"; exit 1; }
echo "bounds: $checked measurements on $here ($cpu) at or above the cost report's bound; SKIPPED (CPU not present):$skipped"
exit 0
