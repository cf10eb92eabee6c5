#!/bin/sh
# All tests, from a fresh checkout: set-up, build, `make check` (unit and
# toolchain tests), the same suite built with AddressSanitizer and UBSan,
# then the kernel check: mps2, virt, virt-thumb2 (Thumb-2) and
# x86_64-tiny built with and without GCC LTO through lto-ld (compiles
# cached by ccache), booted in QEMU, and the LTO kernels compared with
# the non-LTO ones (KUnit, initcall order, console, modules, kallsyms,
# objtool on x86), and two broken states that the comparison must catch.
# In between, scripts/deb.sh (the Debian packages built, lintian, the
# autopkgtest smoke test against a dpkg -x root) and scripts/fuzz.sh:
# each libFuzzer harness for 60 seconds.
# Ends with the skips by reason, then one line: "N passed, N failed, N
# skipped" (a skip is not a pass; scripts/test-summary.sh).  The kernel
# check counts one result per check it runs (kernel-check.log); a log that
# deb.sh, fuzz.sh or kernel.sh did not finish counts as one failure.
# LTO_LD_REQUIRE_ALL=1 (as .ci/run sets it) makes a test's skip for a
# missing tool (cross gcc, binutils-dev, qemu-arm, chromium...) a failure.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)

"$top/scripts/setup.sh" || exit 1
# finished LOG: a TAP log its script did not end (no plan) gets one failure
finished() {
	grep -q '^1\.\.' "$1" 2>/dev/null || printf '# FAIL: 1\n' >> "$1"
}

rc=0
for variant in default asan; do
	dir=$top/_build/$variant
	opts=
	[ $variant = asan ] && opts=--enable-sanitizers
	echo "== $variant build =="
	"$top/scripts/setup.sh" "$dir" $opts || exit 1
	make -C "$dir" -s -j"$jobs" || exit 1
	make -C "$dir" -j"$jobs" check || rc=1
	[ -f "$dir/test-suite.log" ] || rc=1
done

# the Debian packages: built (without make check: it ran twice above),
# lintian --pedantic, unpacked with dpkg -x into a temporary root and the
# autopkgtest smoke test run against it; nothing installed (~1 minute)
echo "== Debian packages: build, lintian, autopkgtest smoke test in a dpkg -x root =="
rm -f "$top/_build/deb.log"
DEB_BUILD_OPTIONS=nocheck "$top/scripts/deb.sh" "$top/_build/deb.log" || rc=1
# a deb.sh that died before writing its counts is one failure
[ -f "$top/_build/deb.log" ] || printf '# FAIL: 1\n' > "$top/_build/deb.log"

# the parsers under libFuzzer (ASan/UBSan): 60 s each, two at a time
echo "== fuzz: option parser, ELF and archive readers, keep files =="
rm -f "$top/_build/fuzz/fuzz.log"
"$top/scripts/fuzz.sh" 60 || rc=1
finished "$top/_build/fuzz/fuzz.log"

echo "== kernel: mps2, virt, virt-thumb2 and x86_64-tiny with and without LTO: parity checks =="
klog=${LTO_LD_KERNEL_DIR:-$top/_build}/kernel-check.log
rm -f "$klog"
if KERNEL_CC_LAUNCHER=ccache \
	"$top/scripts/kernel.sh" "$top/_build/default/lto-ld" check; then
	finished "$klog"
else
	rc=1
	# a failure outside the checks (the tree, the table) still counts
	if grep -q '^not ok' "$klog" 2>/dev/null; then :; else printf '# FAIL: 1\n' >> "$klog"; fi
fi

# the skips by reason and the totals: both builds, the packages, the
# fuzzers, each kernel check
"$top/scripts/test-summary.sh" \
	"$top"/_build/default/test-suite.log "$top"/_build/asan/test-suite.log \
	"$top"/_build/deb.log "$top"/_build/fuzz/fuzz.log "$klog"
exit $rc
