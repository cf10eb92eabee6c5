#!/bin/sh
# tests/kernel/compare-console.sh on made-up x86 consoles (no kernel is
# booted): what depends on how fast QEMU ran is set aside (SeaBIOS's
# last dot on the kernel's first line, the TSC calibrated against the
# PIT or later against HPET), and a message the other kernel did not
# print is still a difference.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

compare=$TOP_SRCDIR/tests/kernel/compare-console.sh
esc=$(printf '\033')
cr=$(printf '\r')

# console BIOS-END TSC-LINES LAST: a console; BIOS-END is what SeaBIOS's
# last line ends with before the kernel's first message
console() {
	printf 'SeaBIOS (version 1.16.2)\r\nBooting from ROM..%sc%s[2J%s[    0.000000] Linux version 6.12.118 #1\r\n' \
		"$esc" "$esc" "$1"
	printf '[    0.000000] Command line: console=ttyS0\r\n'
	printf '%s' "$2"
	printf '[    0.900000] %s\r\n' "$3"
}
console "" '[    0.010000] tsc: Fast TSC calibration using PIT
[    0.010000] tsc: Detected 2894.560 MHz processor
' "Run /init as init process" > ref.log
console "$esc[0m.$cr" '[    0.400000] tsc: Unable to calibrate against PIT
[    0.400000] tsc: using HPET reference calibration
[    0.400000] tsc: Detected 2894.123 MHz processor
' "Run /init as init process" > same.log
console "" '[    0.010000] tsc: Fast TSC calibration using PIT
' "Kernel panic - not syncing: No working init found" > panic.log

expect "the same messages, QEMU's timing set aside" "$compare" ref.log same.log
expect_fails "a message the other did not print differs" "consoles differ" \
	"$compare" ref.log panic.log
done_testing
