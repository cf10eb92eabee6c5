#!/bin/sh
# Compare two kernel consoles (non-LTO and LTO) the way a person would:
# the same messages in the same order, once timestamps, the version
# banner, memory sizes and addresses are set aside, and the messages
# that depend on how fast QEMU ran (BogoMIPS; a timer found already
# expired under load; initcall and KUnit run times).  Symbols printed as
# NAME+OFFSET/SIZE lose the offset, the size and GCC's clone suffixes;
# initcall_debug's lines and /init's kallsyms names and addresses are
# left out: parity.sh checks them.  Fails on any other difference, and on an oops,
# BUG or WARNING in either console.
# Usage: compare-console.sh REFERENCE.log CANDIDATE.log
set -u
. "$(dirname "$0")/gcc-suffixes.sh"

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
	    -e '/^Calibrating delay loop/d' \
	    -e '/^Timer with delta zero/d' \
	    -e '/^qemu-system-arm: /d' \
	    -e '/^calling  .* @ [0-9]*$/d' \
	    -e '/^initcall .* returned -\{0,1\}[0-9]* after [0-9]* usecs$/d' \
	    -e '/^lto-ld-init: kallsyms /d' \
	    -e 's/ltoinit_syms=[^ "]*/ltoinit_syms=<names>/' \
	    -e 's/ after [0-9]* usecs$/ after <n> usecs/' \
	    -e '/# .*: Test should be marked slow (runtime: /d' "$1" |
		sed -E "s/$gcc_suffix_ere//g"
}

status=0
for log in "$1" "$2"; do
	if grep -Eq 'Oops|BUG:|Unable to handle|Internal error|WARNING: CPU' "$log"; then
		echo "compare-console: $log: the kernel reported an error:" >&2
		grep -E 'Oops|BUG:|Unable to handle|Internal error|WARNING: CPU' "$log" | head -5 >&2
		status=1
	fi
done
normalize "$1" > "$1.norm"
normalize "$2" > "$2.norm"
if ! diff -u "$1.norm" "$2.norm" > "$2.diff"; then
	echo "compare-console: the consoles differ (see $2.diff):" >&2
	head -40 "$2.diff" >&2
	status=1
fi
exit $status
