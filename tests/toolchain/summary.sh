#!/bin/sh
# How a test run counts, on small made-up logs (no kernel is built):
# scripts/test-summary.sh (skips grouped by reason, the totals line, a
# missing log as a failure, XFAIL as passed and XPASS as failed), tests/lib.sh's skip_missing (a failure under
# LTO_LD_REQUIRE_ALL=1, other skips stay skips) and tests/kernel/results.sh
# (the kernel check's results, one per check).
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

summary=$TOP_SRCDIR/scripts/test-summary.sh
results=$TOP_SRCDIR/tests/kernel/results.sh

# same DESCRIPTION EXPECTED-FILE ACTUAL-FILE: the two files are equal
same() {
	expect "$1" cmp -s "$2" "$3" || diag "$(diff "$2" "$3")"
}

# ---- the summary of a harness log and another log ----
cat > test-suite.log <<'LOG'
# TOTAL: 9
# PASS:  5
# SKIP:  3
# XFAIL: 0
# FAIL:  1
# XPASS: 0
# ERROR: 0
SKIP: tests/toolchain/seed.sh 4 - # SKIP missing arm-linux-gnueabihf-gcc
SKIP: tests/toolchain/sizediff-html.sh 9 - # SKIP missing arm-linux-gnueabihf-gcc: two architectures not tested
SKIP: tests/toolchain/sizediff.sh 30 - # SKIP unreadable input: running as root
LOG
printf '# PASS: 2\n# FAIL: 0\n' > deb.log
"$summary" test-suite.log deb.log > out.txt
cat > want.txt <<'OUT'
skipped, by reason:
  2	missing arm-linux-gnueabihf-gcc
  1	unreadable input: running as root
  (LTO_LD_REQUIRE_ALL=1 makes each "missing" skip a failure)
7 passed, 1 failed, 3 skipped
OUT
same "the skips by reason (a missing tool's grouped), then the totals" want.txt out.txt

"$summary" test-suite.log deb.log no-such.log > out.txt
expect "a missing log counts as one failure" test "$(tail -n 1 out.txt)" = "7 passed, 2 failed, 3 skipped" ||
	diag "$(cat out.txt)"

printf '# PASS: 4\n# FAIL: 0\n' > clean.log
"$summary" clean.log > out.txt
expect "without skips, the totals line alone" test "$(cat out.txt)" = "4 passed, 0 failed, 0 skipped"

# As in Automake: an expected failure is not a failure, an unexpected pass is
printf '# PASS: 3\n# XFAIL: 2\n# FAIL: 0\n# XPASS: 0\n' > xfail.log
printf '# PASS: 3\n# XFAIL: 0\n# FAIL: 0\n# XPASS: 1\n' > xpass.log
expect "an expected failure (XFAIL) counts as passed" test "$("$summary" xfail.log)" = "5 passed, 0 failed, 0 skipped"
expect "an unexpected pass (XPASS) counts as failed" test "$("$summary" xpass.log)" = "3 passed, 1 failed, 0 skipped"

# ---- skip_missing and skip ----
# tap_run VALUE: three skips as a test would report them, with
# LTO_LD_REQUIRE_ALL=VALUE, numbered from 1
tap_run() {
	(LTO_LD_REQUIRE_ALL=$1 tap_n=0 tap_failed=0
	 skip_missing binutils-dev "lto-ld-plugin.so not built"
	 missing sh no-such-tool-for-lto-ld
	 skip "running as root")
}
tap_run 0 > out.txt
cat > want.txt <<'OUT'
ok 1 - # SKIP missing binutils-dev: lto-ld-plugin.so not built
ok 2 - # SKIP missing no-such-tool-for-lto-ld
ok 3 - # SKIP running as root
OUT
same "a missing tool is a skip that names it" want.txt out.txt
tap_run 1 > out.txt
cat > want.txt <<'OUT'
not ok 1 - missing binutils-dev: lto-ld-plugin.so not built (LTO_LD_REQUIRE_ALL=1: every tool the tests use must be installed)
not ok 2 - missing no-such-tool-for-lto-ld (LTO_LD_REQUIRE_ALL=1: every tool the tests use must be installed)
ok 3 - # SKIP running as root
OUT
same "under LTO_LD_REQUIRE_ALL=1 a missing tool fails, other skips stay" want.txt out.txt

# ---- the kernel check's results ----
printf 'kunit,ok\ninitcalls,FAILED\nconsole,ok\n' > parity-mps2.csv
printf 'initcall left out caught,ok\nfailing module caught,ok\n' > faults.csv
{
	"$results" csv mps2 parity-mps2.csv
	"$results" csv virt parity-virt.csv
	"$results" csv "virt faults:" faults.csv
	"$results" line FAILED "virt edit: rebuilt with the LTRANS cache, booted"
} | "$results" tap > kernel-check.log
cat > want.txt <<'OUT'
ok 1 - mps2 kunit
not ok 2 - mps2 initcalls
ok 3 - mps2 console
not ok 4 - virt: no parity results (the build or boot failed, see its logs)
ok 5 - virt faults: initcall left out caught
ok 6 - virt faults: failing module caught
not ok 7 - virt edit: rebuilt with the LTRANS cache, booted
1..7
# PASS: 4
# FAIL: 3
OUT
same "kernel check: one result per check, a target without results one failure" want.txt kernel-check.log
"$summary" kernel-check.log > out.txt
expect "kernel check: counted check by check" test "$(cat out.txt)" = "4 passed, 3 failed, 0 skipped"

done_testing
