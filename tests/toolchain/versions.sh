#!/bin/sh
# --version, as binutils users expect it: lto-ar, lto-nm and lto-ranlib
# print the real tool's text and then lto-ld's version line, as lto-ld
# does after ld's; lto-sizediff prints that line too.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

line=$("$LTO_LD" --version | tail -n 1)
expect "lto-ld --version ends with lto-ld's line" text_has "$line" -E '^lto-ld [^ ]+ \(' || diag "$line"

for tool in ar nm ranlib; do
	for opt in --version -V; do
		out=$("$BIN/lto-$tool" $opt 2>&1); rc=$?
		real=$($tool --version | head -n 1)
		[ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | head -n 1)" = "$real" ] &&
			[ "$(printf '%s\n' "$out" | tail -n 1)" = "$line" ] &&
			ok "lto-$tool $opt: $tool's text, then lto-ld's line" ||
			{ not_ok "lto-$tool $opt: $tool's text, then lto-ld's line"; diag "$out"; }
	done
done

sizediff=${TOP_BUILDDIR:?}/lto-sizediff
out=$("$sizediff" --version 2>&1); rc=$?
expect "lto-sizediff --version: lto-ld's line" eval '[ $rc -eq 0 ] && [ "$out" = "$line" ]' || diag "$out"
expect "lto-sizediff --help names --version" eval '"$sizediff" --help | grep -q -- --version'

done_testing
