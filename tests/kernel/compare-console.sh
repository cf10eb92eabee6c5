#!/bin/sh
# Compare two kernel consoles (non-LTO and LTO) the way a person would:
# the same messages in the same order, once timestamps, the version
# banner, memory sizes and addresses are set aside, and the messages
# that depend on how fast QEMU ran (BogoMIPS; a timer found already
# expired under load; initcall and KUnit run times; RCU stall reports;
# x86's TSC rate and how it was calibrated (early against the PIT, or
# later against HPET when QEMU ran too slowly), its clocks' figures, the
# RTC's time, PM's hash of it and the trace point that hash happens to
# match, quirks' run times; the deepest stack a task used, which LTO
# changes; cfg80211's word, from a worker at any time, on the failed
# firmware load that regulatory.0's lines report in order), and what the
# firmware or QEMU printed before the kernel's first message (on its
# line too, up to a carriage return: SeaBIOS's last dot may share the
# line of the kernel's first message).
# Symbols printed as NAME+OFFSET/SIZE lose the offset, the size and
# GCC's clone suffixes; initcall_debug's lines and /init's kallsyms
# names, addresses and config checksum are left out: parity.sh checks
# them.  Device probes may run asynchronously or be deferred, so their
# lines (initcall_debug's "probe of DEVICE", the driver's messages about
# DEVICE) are compared device by device, each in its own order; the
# lines of a device whose probe was deferred as a set (the retries
# depend on timing).  Fails on any other difference, and on an oops,
# BUG or WARNING in either console.
# Usage: compare-console.sh REFERENCE.log CANDIDATE.log
set -u
. "$(dirname "$0")/gcc-suffixes.sh"

# what the kernel prints on an oops, a BUG or a WARN() ("cut here", then
# "WARNING: CPU: ..."; lockdep and others print "WARNING: ..." alone)
errors='Oops|BUG:|Unable to handle|Internal error|WARNING:|cut here'

# normalize LOG: what must match between the two kernels
normalize() {
	from_kernel "$1" |
	sed -e 's/\r$//' \
	    -e 's/^.*\r//' \
	    -e 's/^.*\x1b\[2J//' \
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
	    -e 's/ alloc=[0-9]\+\*\([0-9]\+\)$/ alloc=<n>*\1/' \
	    -e 's/early log buf free: [0-9]*([0-9]*%)/early log buf free: <n>/' \
	    -e '/^Calibrating delay loop/d' \
	    -e 's/^\(Calibrating local timer\.\.\.\) [0-9.]*MHz/\1 <n>MHz/' \
	    -e 's/([0-9.]* BogoMIPS)/(<n> BogoMIPS)/' \
	    -e 's/[0-9]\{4\}-[0-9-]*T[0-9:]* UTC ([0-9]*)/<date> UTC (<seconds>)/' \
	    -e '/^Timer with delta zero/d' \
	    -e '/^qemu-system-[a-z0-9_]*: /d' \
	    -e '/^tsc: Fast TSC calibration /d' \
	    -e '/^tsc: Unable to calibrate against PIT$/d' \
	    -e '/^tsc: using [A-Z]* reference calibration$/d' \
	    -e '/^tsc: PIT calibration matches /d' \
	    -e '/^tsc: Detected [0-9.]* MHz processor$/d' \
	    -e 's/^\(tsc: Refined TSC clocksource calibration:\) [0-9.]* MHz/\1 <n> MHz/' \
	    -e 's|/input/input[0-9]*$|/input/input<n>|' \
	    -e 's/max_idle_ns: [0-9]* ns/max_idle_ns: <n> ns/g' \
	    -e 's/^percpu: Embedded [0-9]* pages/percpu: Embedded <n> pages/' \
	    -e 's/^sched_clock: Marking stable .*/sched_clock: Marking stable <clocks>/' \
	    -e '/^PM: RTC time: /d' \
	    -e 's/audit([0-9.]*:/audit(<time>:/' \
	    -e '/^PM:   Magic number: /d' \
	    -e '/ hash matches$/d' \
	    -e '/^PM:   hash matches /d' \
	    -e 's/ took [0-9]* usecs$/ took <n> usecs/' \
	    -e '/ used greatest stack depth: [0-9]* bytes left$/d' \
	    -e '/^cfg80211: failed to load regulatory\.db$/d' \
	    -e 's/^\(Write protecting the kernel read-only data:\) [0-9]*k$/\1 <n>k/' \
	    -e '/^calling  .* @ [0-9]*$/d' \
	    -e '/^initcall .* returned -\{0,1\}[0-9]* after [0-9]* usecs$/d' \
	    -e '/^lto-ld-init: kallsyms /d' \
	    -e '/^lto-ld-init: cksum /d' \
	    -e 's/ltoinit_syms=[^ "]*/ltoinit_syms=<names>/' \
	    -e 's/ after [0-9]* usecs$/ after <n> usecs/' \
	    -e '/# .*: Test should be marked slow (runtime: /d' |
		sed -E "s/$gcc_suffix_ere//g" | drop_stalls | by_device
}

# from_kernel LOG: LOG from the kernel's first message on: what comes
# before is the firmware's (x86's SeaBIOS, whose last lines the serial
# port may or may not carry) or QEMU's host (ALSA); all of LOG if it
# holds no kernel message
from_kernel() {
	awk 'FNR == 1 && NR > 1 { pass = 2 }
		pass != 2 { if (!found && /(Booting Linux on |Linux version )/) found = FNR; next }
		!found || FNR >= found' "$1" "$1"
}

# drop_stalls: stdin without RCU stall reports: QEMU on a busy host runs
# a long KUnit test (usercopy) past the stall timeout, and the report's
# dump shows wherever the CPU happened to be
drop_stalls() {
	awk '/^rcu: INFO: .*detected stalls? on CPU/ { stall = 1; next }
		stall && /^(rcu: |task:|Call [Tt]race:|Exception stack|Workqueue: |CPU: [0-9]+ |Tainted: |Hardware name: |PC is at |LR is at |(pc|lr|sp|ip|fp|r[0-9]+) *: |Flags: |Control: |Code: |[0-9a-f][0-9a-f][0-9a-f][0-9a-f]: | [^ ])/ { next }
		{ stall = 0; print }'
}

# key_of(LINE), an awk function: the probed device LINE is about ("probe
# of DEVICE", "DEVICE: ...", "DRIVER DEVICE[:] ...", an input device
# under DEVICE, whose number follows the order of the probes), or the device of a firmware load, or x86's TSC for its
# calibration's lines, or "" (probed: the devices of the console's probe
# lines)
key_of='
function key_of(s,    f, n) {
	n = split(s, f, " ")
	if (s ~ /^probe of [^ ]+ returned /) return f[3]
	if (s ~ /^input: .* as \/devices\/.*\/input\/input<n>$/) {
		sub(/\/input\/input<n>$/, "", f[n]); sub(/.*\//, "", f[n])
		return (f[n] in probed) ? f[n] : ""
	}
	sub(/:$/, "", f[1]); sub(/:$/, "", f[2])
	# (x86: the TSC'"'"'s refined calibration, from delayed work at any time)
	if (s ~ /^(tsc: Refined TSC |clocksource: tsc: |clocksource: Switched to clocksource tsc$)/) return "tsc"
	# (a firmware load for a device runs in a worker: x86 regulatory.0)
	if (s ~ /^[^ ]+ [^ ]+: (firmware: failed to load|Direct firmware load for) /) return f[2]
	if (s ~ /^[^ ]+: / && (f[1] in probed)) return f[1]
	if (n > 1 && (f[2] in probed)) return f[2]
	return ""
}'

# by_device: stdin's lines in order, then those of each probed device,
# device after device: in their order, or sorted once each if a probe
# of the device was deferred (error 517)
by_device() {
	tab=$(printf '\t')
	awk -v OFS="$tab" "$key_of"'
		{ line[NR] = $0 }
		/^probe of [^ ]+ returned / { probed[$3] = 1; if ($5 == 517) deferred[$3] = 1 }
		END {
			print 1, "", 0, "-- the lines of each probed device --"
			for (i = 1; i <= NR; i++) {
				d = key_of(line[i])
				if (d == "") print 0, "", i, line[i]
				else print 1, d, ((d in deferred) ? 0 : i), line[i]
			}
		}' | LC_ALL=C sort -t "$tab" -k1,1n -k2,2 -k3,3n -k4 | uniq | cut -f4-
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
