#!/bin/sh
# Boot a kernel in QEMU vexpress-a9 (Cortex-A9, the board's own device
# tree) with an initramfs and save its console.
# Usage: boot-vexpress.sh ZIMAGE DTB INITRD LOG SECONDS [KERNEL-ARGUMENTS]
# The boot ends when init powers the machine off, the kernel panics, or
# after SECONDS.  Exit status 0 when the project's /init ran to its end.
# log_buf_len: vexpress_defconfig's 16 KiB log (LOG_BUF_SHIFT=14) fills
# with initcall_debug's lines long before the PL011 console comes up,
# and which messages it then drops varies from boot to boot.
set -eu

zimage=$1 dtb=$2 initrd=$3 log=$4 seconds=$5 args=${6:-}
. "$(dirname "$0")/qemu-run.sh"

qemu_run "$log" "$seconds" 'reboot: Power down' \
	-M vexpress-a9 -m 256 -dtb "$dtb" \
	-kernel "$zimage" -initrd "$initrd" \
	-append "console=ttyAMA0 initcall_debug ignore_loglevel log_buf_len=1M $args"
grep -q 'lto-ld-init: userspace reached' "$log" && grep -q 'lto-ld-init: done' "$log"
