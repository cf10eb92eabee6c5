#!/bin/sh
# The end of a test run: its skips grouped by reason, with counts, then
# one line "N passed, N failed, N skipped" (a skip is not a pass).
# As in Automake, an expected failure (XFAIL) is not a failure: it counts
# as passed; an unexpected pass (XPASS) is a failure.
# Usage: scripts/test-summary.sh LOG...
# Each LOG is an Automake test-suite.log (its "# PASS: N" counts, and the
# "SKIP: ... # SKIP REASON" lines of the tests it copied in) or another
# log with "# PASS: N" / "# FAIL: N" lines (deb.sh, fuzz.sh, kernel.sh
# check).  A LOG that does not exist counts as one failure.
set -u

# skip_reasons LOG...: "COUNT<TAB>REASON", most frequent first; a missing
# tool's skips ("missing TOOL: what is not tested") count under "missing TOOL"
skip_reasons() {
	for log in "$@"; do [ -f "$log" ] && cat "$log"; done |
		sed -n 's/^SKIP: .* # SKIP *//p' |
		awk '{ r = $0; if (r ~ /^missing /) sub(/:.*/, "", r); n[r]++ }
		     END { for (r in n) printf "%d\t%s\n", n[r], r }' |
		sort -t "$(printf '\t')" -k1,1nr -k2
}

# totals LOG...: the counts of every LOG, a missing one as a failure
totals() {
	gone=0
	for log in "$@"; do [ -f "$log" ] || gone=$((gone + 1)); done
	for log in "$@"; do [ -f "$log" ] && cat "$log"; done |
		awk -v gone="$gone" '/^# (PASS|XFAIL):/ { p += $3 } /^# SKIP:/ { s += $3 }
		     /^# (FAIL|XPASS|ERROR):/ { f += $3 }
		     END { printf "%d passed, %d failed, %d skipped\n", p, f + gone, s }'
}

reasons=$(skip_reasons "$@")
if [ -n "$reasons" ]; then
	echo "skipped, by reason:"
	printf '%s\n' "$reasons" | sed 's/^/  /'
	case $reasons in
		*"	missing "*) echo "  (LTO_LD_REQUIRE_ALL=1 makes each \"missing\" skip a failure)" ;;
	esac
fi
totals "$@"
