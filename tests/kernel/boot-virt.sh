#!/bin/sh
# Boot a kernel in QEMU virt (Cortex-A15) with an initramfs and save its
# console.
# Usage: boot-virt.sh ZIMAGE INITRD LOG SECONDS [KERNEL-ARGUMENTS]
# The boot ends when init powers the machine off, the kernel panics, or
# after SECONDS.  Exit status 0 when the project's /init ran to its end.
set -eu

zimage=$1 initrd=$2 log=$3 seconds=$4 args=${5:-}
. "$(dirname "$0")/qemu-run.sh"

qemu_run "$log" "$seconds" 'reboot: Power down' \
	-M virt,highmem=off -cpu cortex-a15 -m 256 \
	-kernel "$zimage" -initrd "$initrd" \
	-append "console=ttyAMA0 initcall_debug ignore_loglevel $args"
grep -q 'lto-ld-init: userspace reached' "$log" && grep -q 'lto-ld-init: done' "$log"
