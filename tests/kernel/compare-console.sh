#!/bin/sh
# Compare two kernel consoles (non-LTO and LTO) the way a person would:
# the same messages in the same order, once timestamps, the version
# banner, memory sizes and addresses are set aside, and the messages
# that depend on how fast QEMU ran (BogoMIPS; a timer found already
# expired under load; initcall and KUnit run times; RCU stall reports).
# Symbols printed as NAME+OFFSET/SIZE lose the offset, the size and
# GCC's clone suffixes; initcall_debug's lines and /init's kallsyms
# names, addresses and config checksum are left out: parity.sh checks
# them.  Fails on any other difference, and on an oops, BUG or WARNING
# in either console.
# Usage: compare-console.sh REFERENCE.log CANDIDATE.log
set -u
. "$(dirname "$0")/gcc-suffixes.sh"

# what the kernel prints on an oops, a BUG or a WARN() ("cut here", then
# "WARNING: CPU: ..."; lockdep and others print "WARNING: ..." alone)
errors='Oops|BUG:|Unable to handle|Internal error|WARNING:|cut here'

# normalize LOG: what must match between the two kernels
normalize() {
	sed -e 's/\r$//' \
	    -e 's/^\[ *[0-9]*\.[0-9]*\] //' \
	    -e 's/+0x[0-9a-f]*\/0x[0-9a-f]*//g' \
	    -e '/^Linux version /d' \
	    -e 's/^Memory: .*/Memory: <sizes>/' \
	    -e 's/0x[0-9a-f]\{6,\}/<addr>/g' \
	    -e 's/[0-9a-f]\{8\}-[0-9a-f]\{8\}/<range>/g' \
	    -e 's/ [0-9]\+ \(K\|kB\|KiB\)\b/ <n> \1/g' \
	    -e 's/(\([0-9]\+\) kB)/(<n> kB)/g' \
	    -e 's/memory: [0-9]\+K$/memory: <n>K/' \
	    -e 's/ s[0-9]\+ r[0-9]\+ d[0-9]\+ u[0-9]\+/ s<n> r<n> d<n> u<n>/' \
	    -e 's/early log buf free: [0-9]*([0-9]*%)/early log buf free: <n>/' \
	    -e '/^Calibrating delay loop/d' \
	    -e 's/^\(Calibrating local timer\.\.\.\) [0-9.]*MHz/\1 <n>MHz/' \
	    -e 's/([0-9.]* BogoMIPS)/(<n> BogoMIPS)/' \
	    -e 's/[0-9]\{4\}-[0-9-]*T[0-9:]* UTC ([0-9]*)/<date> UTC (<seconds>)/' \
	    -e '/^Timer with delta zero/d' \
	    -e '/^qemu-system-arm: /d' \
	    -e '/^calling  .* @ [0-9]*$/d' \
	    -e '/^initcall .* returned -\{0,1\}[0-9]* after [0-9]* usecs$/d' \
	    -e '/^lto-ld-init: kallsyms /d' \
	    -e '/^lto-ld-init: cksum /d' \
	    -e 's/ltoinit_syms=[^ "]*/ltoinit_syms=<names>/' \
	    -e 's/ after [0-9]* usecs$/ after <n> usecs/' \
	    -e '/# .*: Test should be marked slow (runtime: /d' "$1" |
		sed -E "s/$gcc_suffix_ere//g" | drop_stalls
}

# drop_stalls: stdin without RCU stall reports: QEMU on a busy host runs
# a long KUnit test (usercopy) past the stall timeout, and the report's
# dump shows wherever the CPU happened to be
drop_stalls() {
	awk '/^rcu: INFO: .*detected stalls? on CPU/ { stall = 1; next }
		stall && /^(rcu: |task:|Call [Tt]race:|Exception stack|Workqueue: |CPU: [0-9]+ |Tainted: |Hardware name: |PC is at |LR is at |(pc|lr|sp|ip|fp|r[0-9]+) *: |Flags: |Control: |Code: |[0-9a-f][0-9a-f][0-9a-f][0-9a-f]: | [^ ])/ { next }
		{ stall = 0; print }'
}

# check_errors LOG: LOG has no oops, BUG or WARNING (else says so, fails)
check_errors() {
	grep -Eq "$errors" "$1" || return 0
	echo "compare-console: $1: the kernel reported an error:" >&2
	grep -E "$errors" "$1" | head -5 >&2
	return 1
}

status=0
check_errors "$1" || status=1
check_errors "$2" || status=1
normalize "$1" > "$1.norm"
normalize "$2" > "$2.norm"
if ! diff -u "$1.norm" "$2.norm" > "$2.diff"; then
	echo "compare-console: the consoles differ (see $2.diff):" >&2
	head -40 "$2.diff" >&2
	status=1
fi
exit $status
