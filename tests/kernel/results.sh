#!/bin/sh
# The kernel check's results as TAP, one per check it ran, so that
# scripts/run-tests.sh counts each (it reads the "# PASS:" and "# FAIL:"
# lines, as in deb.sh's and fuzz.sh's logs).  Kept apart from
# scripts/kernel.sh so that tests/toolchain/summary.sh can run it on
# small inputs without building a kernel.
# Usage: results.sh csv PREFIX CSV   "ok - PREFIX NAME" or "not ok - PREFIX
#                                    NAME" for each NAME,ok|FAILED line of
#                                    CSV (compare's parity-TARGET.csv); a
#                                    missing or empty CSV is one "not ok"
#        results.sh line RESULT TEXT "ok - TEXT" (RESULT ok) or "not ok - TEXT"
#        results.sh tap              stdin's lines numbered, then the plan
#                                    and "# PASS: N", "# FAIL: N"
set -u

# csv PREFIX CSV: one result line per check of CSV
csv() {
	if [ ! -s "$2" ]; then
		echo "not ok - $1: no parity results (the build or boot failed, see its logs)"
		return
	fi
	awk -F, -v p="$1" 'NF >= 2 {
		printf "%s - %s %s\n", $2 == "ok" ? "ok" : "not ok", p, $1 }' "$2"
}

# line RESULT TEXT: one result line
line() {
	if [ "$1" = ok ]; then echo "ok - $2"; else echo "not ok - $2"; fi
}

# tap: number stdin's result lines; the plan and the counts after them
tap() {
	awk '/^(not )?ok - / {
		n++; ok = $0 ~ /^ok/; sub(/^(not )?ok - /, "")
		printf "%s %d - %s\n", ok ? "ok" : "not ok", n, $0
		if (ok) p++; else f++ }
	     END { printf "1..%d\n# PASS: %d\n# FAIL: %d\n", n, p, f }'
}

case ${1:-} in
	csv) csv "$2" "$3" ;;
	line) line "$2" "$3" ;;
	tap) tap ;;
	*) echo "usage: $0 csv PREFIX CSV | line ok|FAILED TEXT | tap" >&2; exit 2 ;;
esac
