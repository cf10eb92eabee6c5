#!/bin/sh
# Boot an x86_64 kernel in QEMU (a PC, emulated: TCG, as QEMU runs ARM;
# KVM in a virtual machine may fail to emulate what the kernel does)
# with an initramfs and save its console (nokaslr: the kallsyms check
# looks names up at the addresses nm gives).
# Usage: boot-x86_64.sh BZIMAGE INITRD LOG SECONDS [KERNEL-ARGUMENTS]
# The boot ends when init powers the machine off, the kernel panics, or
# after SECONDS.  Exit status 0 when the project's /init ran to its end.
set -eu

bzimage=$1 initrd=$2 log=$3 seconds=$4 args=${5:-}
. "$(dirname "$0")/qemu-run.sh"
qemu_system=qemu-system-x86_64

# (without ACPI, x86_64-tiny's kernel halts where it would power off)
qemu_run "$log" "$seconds" 'reboot: Power down|System halted' \
	-M pc -accel tcg -cpu max -m 512 \
	-kernel "$bzimage" -initrd "$initrd" \
	-append "console=ttyS0 nokaslr initcall_debug ignore_loglevel $args"
grep -q 'lto-ld-init: userspace reached' "$log" && grep -q 'lto-ld-init: done' "$log"
