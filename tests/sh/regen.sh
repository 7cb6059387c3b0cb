#!/bin/sh
# Regenerating the generated .q files and out/ assembly from specs/ must
# reproduce the committed files exactly (python3 -m gen.regen --check).
BUILD=${BUILD:-build}
if [ ! -x "$BUILD/qhasm" ]; then
  echo "regen.sh: $BUILD/qhasm not built (make translator)"
  exit 1
fi
command -v python3 >/dev/null 2>&1 || { echo "regen.sh: python3 not installed"; exit 77; }
exec python3 -m gen.regen --check --qhasm "$BUILD/qhasm"
