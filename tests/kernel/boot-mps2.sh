#!/bin/sh
# Boot a kernel in QEMU mps2-an385 and save its console.
# Usage: boot-mps2.sh VMLINUX DTB LOG [SECONDS]
# The boot ends when init is done or the kernel panics, or after SECONDS
# (default 60).  Exit status 0 when the project's /init ran.
set -eu

vmlinux=$1 dtb=$2 log=$3 seconds=${4:-60}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/qemu-run.sh"
dtb_addr=0x21f00000		# top MiB of the 16 MiB DRAM, clear of the kernel
work=$(mktemp -d "${TMPDIR:-/tmp}/mps2-boot.XXXXXX")
trap 'rm -rf "$work"' EXIT

# build_shim: the vector table at 0 that enters this kernel
build_shim() {
	entry=$(arm-linux-gnueabihf-readelf -h "$vmlinux" | awk '/Entry point/ {print $4}')
	arm-linux-gnueabihf-as -mcpu=cortex-m3 -mthumb \
		--defsym KERNEL_ENTRY="$entry" --defsym DTB_ADDR=$dtb_addr \
		-o "$work/shim.o" "$here/mps2-shim.S"
	arm-linux-gnueabihf-ld -Ttext=0x40 --section-start=.vectors=0 -e reset \
		-o "$work/shim.elf" "$work/shim.o"
}

build_shim
qemu_run "$log" "$seconds" 'lto-ld-init: done' -M mps2-an385 \
	-device loader,file="$work/shim.elf" \
	-device loader,file="$vmlinux" \
	-device loader,file="$dtb",addr=$dtb_addr,force-raw=on
# Success: the kernel ran the project's /init, which said so.
grep -q 'lto-ld-init: userspace reached' "$log"
