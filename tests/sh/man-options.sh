#!/bin/bash
# The manual pages list the options their command's --help prints, and
# only those (issue 13: qhasm(1) had gone stale).  An option is a token
# -x or --word starting an indented --help line (or following its ", "),
# or bracketed in its usage lines; and the first line after each .TP of the page.
set -e
BUILD=${BUILD:-build}
fail=0
helpopts() {
	# the indented option lines, and the usage lines' bracketed options
	"$@" --help 2>&1 | { grep -oE '^ +(-[A-Za-z]|--[a-z][a-z-]*)(, --[a-z][a-z-]*)?' | tr ',' '\n' | tr -d ' '
		"$@" --help 2>&1 | awk 'NR==1||(u&&/^ /){print; u=1; next}{u=0}' | grep -oE '[[|] *--?[A-Za-z][a-z-]*' | tr -d '[| '; } | sort -u
}
manopts() { awk 'tp{print; tp=0} /^\.TP/{tp=1}' "$1" | sed 's/\\-/-/g' | grep -oE '(^|[ "])--?[A-Za-z][a-z-]*' | tr -d ' "' | sort -u; }
for cmd in qhasm qhasm-test qhasm-speed; do
	[ -x "$BUILD/$cmd" ] || { echo "$BUILD/$cmd not built"; exit 1; }
	h=$(helpopts "$BUILD/$cmd"); m=$(manopts "docs/man/$cmd.1")
	[ -n "$h" ] || { echo "$cmd --help lists no options"; exit 1; }
	if [ "$h" != "$m" ]; then
		echo "$cmd: --help and docs/man/$cmd.1 list different options:"
		diff <(echo "$h") <(echo "$m") | sed -n 's/^</  only in --help:/p; s/^>/  only in the man page:/p'
		fail=1
	else
		echo "$cmd: $(echo $h | wc -w) options in both --help and docs/man/$cmd.1"
	fi
done
exit $fail
