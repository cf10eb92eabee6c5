#!/bin/sh
# Boot a kernel in QEMU mps2-an385 and save its console.
# Usage: boot-mps2.sh VMLINUX DTB LOG [SECONDS]
# The boot ends when the kernel hands over to init (or panics), or after
# SECONDS (default 60).  Exit status 0 when the console reached init.
set -eu

vmlinux=$1 dtb=$2 log=$3 seconds=${4:-60}
here=$(cd "$(dirname "$0")" && pwd)
dtb_addr=0x21f00000		# top MiB of the 16 MiB DRAM, clear of the kernel
work=$(mktemp -d "${TMPDIR:-/tmp}/mps2-boot.XXXXXX")
trap 'rm -rf "$work"' EXIT

# build_shim: the vector table at 0 that enters this kernel
build_shim() {
	entry=$(arm-linux-gnueabihf-readelf -h "$vmlinux" | awk '/Entry point/ {print $4}')
	arm-linux-gnueabihf-as -mcpu=cortex-m3 -mthumb \
		--defsym KERNEL_ENTRY="$entry" --defsym DTB_ADDR=$dtb_addr \
		-o "$work/shim.o" "$here/mps2-shim.S"
	arm-linux-gnueabihf-ld -Ttext=0x40 --section-start=.vectors=0 \
		-o "$work/shim.elf" "$work/shim.o"
}

build_shim
# The console ends at init's hand-over: "Run /init", a panic, or silence.
timeout -s KILL "$seconds" qemu-system-arm -M mps2-an385 -nographic -monitor none \
	-no-reboot \
	-device loader,file="$work/shim.elf" \
	-device loader,file="$vmlinux" \
	-device loader,file="$dtb",addr=$dtb_addr,force-raw=on \
	> "$log" 2>&1 || true
grep -Eq 'Run /init|Kernel panic - not syncing: No working init found|Freeing unused kernel' "$log"
