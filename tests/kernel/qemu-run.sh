# Sourced by the boot scripts: run QEMU with its console in a log until
# the boot ends.
# qemu_run LOG SECONDS DONE-REGEX QEMU-ARGUMENTS...: run $qemu_system
# (qemu-system-arm unless the boot script sets it) in the background;
# stop it when it exits, when LOG matches DONE-REGEX, "Kernel panic" or
# "Unhandled exception" (a no-MMU kernel that hangs after a fault), or
# after SECONDS
qemu_run() {
	log=$1 seconds=$2 done_regex=$3
	shift 3
	"${qemu_system:-qemu-system-arm}" -nographic -monitor none -no-reboot "$@" > "$log" 2>&1 &
	qemu=$!
	waited=0
	while kill -0 $qemu 2>/dev/null &&
		! grep -Eq "Kernel panic|Unhandled exception|$done_regex" "$log" &&
		[ $waited -lt $((seconds * 5)) ]; do
		sleep 0.2
		waited=$((waited + 1))
	done
	sleep 0.5	# let the last lines of a panic reach the log
	kill $qemu 2>/dev/null || true
	wait $qemu 2>/dev/null || true
}
